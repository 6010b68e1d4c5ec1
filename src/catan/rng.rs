//! The game's random numbers (dice, the development deck, stolen cards, random boards):
//! a seeded ChaCha8 stream kept live in the state for speed, and written into the state
//! file as its seed and position, so a saved game resumes the very same stream.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug)]
pub struct Rng {
    seed: u64,
    stream: ChaCha8Rng,
}

impl PartialEq for Rng {
    fn eq(&self, o: &Rng) -> bool {
        self.seed == o.seed && self.stream.get_word_pos() == o.stream.get_word_pos()
    }
}

impl Eq for Rng {}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng {
            seed,
            stream: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many 32-bit words of the stream have been used.
    pub fn position(&self) -> u64 {
        u64::try_from(self.stream.get_word_pos()).unwrap_or(u64::MAX)
    }

    pub fn at(seed: u64, position: u64) -> Rng {
        let mut r = Rng::new(seed);
        r.stream.set_word_pos(u128::from(position));
        r
    }

    /// A number in `0..n`, without bias (Lemire's method). `n` must be > 0.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        let n = n.max(1);
        loop {
            let m = u64::from(self.stream.next_u32()) * u64::from(n);
            let low = m as u32;
            if low >= n || low >= n.wrapping_neg() % n {
                return (m >> 32) as u32;
            }
        }
    }

    /// One die.
    #[inline]
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(u32::try_from(i + 1).unwrap_or(u32::MAX)) as usize;
            items.swap(i, j);
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RngFile {
    seed: u64,
    position: u64,
}

impl Serialize for Rng {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        RngFile {
            seed: self.seed,
            position: self.position(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Rng {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rng, D::Error> {
        let f = RngFile::deserialize(d)?;
        Ok(Rng::at(f.seed, f.position))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_stream_resumes_where_it_stopped() {
        let mut a = Rng::new(7);
        for _ in 0..13 {
            a.die();
        }
        let mut b = Rng::at(7, a.position());
        assert_eq!(a, b);
        let x: Vec<u8> = (0..50).map(|_| a.die()).collect();
        let y: Vec<u8> = (0..50).map(|_| b.die()).collect();
        assert_eq!(x, y);
        assert!(x.iter().all(|d| (1..=6).contains(d)));
    }

    #[test]
    fn dice_are_roughly_fair() {
        let mut r = Rng::new(1);
        let mut count = [0u32; 7];
        for _ in 0..60_000 {
            count[r.die() as usize] += 1;
        }
        assert!(
            count[1..].iter().all(|&c| (9_000..11_000).contains(&c)),
            "{count:?}"
        );
    }
}
