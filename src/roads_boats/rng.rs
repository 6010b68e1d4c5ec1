//! The game's random numbers: a seeded ChaCha8 stream whose seed and position are part
//! of the state, so a saved game resumes the same stream and a replay draws the same
//! numbers.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rng {
    pub seed: u64,
    /// How many 32-bit words of the stream have been used.
    pub position: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { seed, position: 0 }
    }

    fn stream(&self) -> ChaCha8Rng {
        let mut r = ChaCha8Rng::seed_from_u64(self.seed);
        r.set_word_pos(u128::from(self.position));
        r
    }

    fn next_u32(&mut self) -> u32 {
        let mut s = self.stream();
        let v = s.next_u32();
        self.position = u64::try_from(s.get_word_pos()).unwrap_or(u64::MAX);
        v
    }

    /// A number in `0..n`, uniformly (by rejection, so without bias). `n` must be > 0.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let n = n.max(1);
        let zone = u32::MAX - (u32::MAX % n);
        loop {
            let v = self.next_u32();
            if v < zone {
                return v % n;
            }
        }
    }

    /// Shuffle a slice (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(u32::try_from(i + 1).unwrap_or(u32::MAX)) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_stream_continues_where_it_stopped() {
        let mut a = Rng::new(7);
        let first: Vec<u32> = (0..5).map(|_| a.below(1000)).collect();
        let saved = a.clone();
        let mut b = Rng::new(7);
        let again: Vec<u32> = (0..5).map(|_| b.below(1000)).collect();
        assert_eq!(first, again);
        let mut resumed = saved;
        assert_eq!(resumed.below(1000), b.below(1000));
        assert!(resumed.position > 0);
    }
}
