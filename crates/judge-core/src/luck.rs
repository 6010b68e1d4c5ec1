//! The games' random numbers, and the secret they come from.
//!
//! A game's hidden randomness (dice, a shuffled deck, a stolen card, the move order,
//! random draws from a supply) comes from a 256-bit [`Luck`] drawn from the
//! operating system when the game is made, kept out of git, reports and the site while
//! the game runs, and published when it ends. At the start only a [`commitment`] to it
//! is published (SHA-256 of the seed and a random salt), so that anyone can check
//! afterwards that the judge did not choose the dice (`judge verify`, docs/gm-guide.md).
//!
//! Each kind of randomness is its own stream, keyed by the seed, the kind and the step
//! ([`Luck::draws`]): the dice of turn 12 are the first draws of stream "rolls" at
//! step 12, whatever else the game drew. So a roll can be checked from the public record
//! alone, and a kind of draw that nobody sees (a stolen card) never shifts one that
//! everyone sees.
//!
//! The stream is ChaCha8 (rand_chacha): its 32-byte key is the seed, its stream number
//! the kind, and its word position the step times 2³². A number below `n` takes 32-bit
//! words until one falls below the largest multiple of `n` (rejection), then its
//! remainder; a shuffle is Fisher–Yates from the last place down. docs/archive.md
//! describes the same for anyone who checks by hand.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// A game's secret seed: 32 bytes. Its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct Luck {
    key: [u8; 32],
}

impl std::fmt::Debug for Luck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Luck(hidden)")
    }
}

impl Luck {
    /// The seed, from 32 bytes (drawn from the operating system, or revealed).
    pub fn from_bytes(key: [u8; 32]) -> Luck {
        Luck { key }
    }

    /// The seed a small number gives (`judge new --seed N`, tests and showcase games):
    /// anyone who knows the number knows every draw, and the game says so. Its stream 0
    /// at step 0 is `ChaCha8Rng::seed_from_u64(n)`, the judge's generator before seeds
    /// were kept secret, so that old games play the same.
    pub fn predictable(n: u64) -> Luck {
        Luck {
            key: ChaCha8Rng::seed_from_u64(n).get_seed(),
        }
    }

    /// The seed as written in files: 64 hex digits.
    pub fn to_hex(&self) -> String {
        hex(&self.key)
    }

    /// A seed written as 64 hex digits.
    pub fn from_hex(text: &str) -> Result<Luck, HexError> {
        Ok(Luck {
            key: unhex(text.trim())?,
        })
    }

    /// The bytes of the seed (for the commitment).
    pub fn bytes(&self) -> &[u8; 32] {
        &self.key
    }

    /// The draws of one kind of randomness (`stream`) at one step of the game.
    pub fn draws(&self, stream: u64, step: u64) -> Rng {
        let mut r = ChaCha8Rng::from_seed(self.key);
        r.set_stream(stream);
        r.set_word_pos(u128::from(step) << 32);
        Rng { stream: r }
    }
}

/// The commitment to a seed: SHA-256 of its 32 bytes followed by the salt's, in hex.
pub fn commitment(seed: &Luck, salt: &[u8; 32]) -> String {
    let mut h = Sha256::new();
    h.update(seed.bytes());
    h.update(salt);
    hex(&h.finalize())
}

/// Bytes as lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Why a seed or salt does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HexError {
    #[error("`{0}` is not a hex digit")]
    NotADigit(char),
    #[error("a seed or salt is 64 hex digits; this has {0}")]
    Length(usize),
}

/// 64 hex digits as 32 bytes.
pub fn unhex(text: &str) -> Result<[u8; 32], HexError> {
    let digits: Vec<u8> = text
        .bytes()
        .map(|c| match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => Err(HexError::NotADigit(char::from(c))),
        })
        .collect::<Result<_, _>>()?;
    if digits.len() != 64 {
        return Err(HexError::Length(digits.len()));
    }
    let mut out = [0u8; 32];
    for (i, pair) in digits.chunks(2).enumerate() {
        out[i] = pair[0] * 16 + pair[1];
    }
    Ok(out)
}

/// A stream of random numbers (ChaCha8): the one generator of the judge, for hidden
/// draws ([`Luck::draws`]) and for public ones (a board or map from its public seed,
/// a bot's choices).
#[derive(Clone, Debug)]
pub struct Rng {
    stream: ChaCha8Rng,
}

impl PartialEq for Rng {
    fn eq(&self, o: &Rng) -> bool {
        self.stream.get_seed() == o.stream.get_seed()
            && self.stream.get_stream() == o.stream.get_stream()
            && self.stream.get_word_pos() == o.stream.get_word_pos()
    }
}

impl Eq for Rng {}

impl Rng {
    /// The stream a public seed gives (`ChaCha8Rng::seed_from_u64`).
    pub fn new(seed: u64) -> Rng {
        Rng {
            stream: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// How many 32-bit words of the stream have been used.
    pub fn position(&self) -> u64 {
        u64::try_from(self.stream.get_word_pos()).unwrap_or(u64::MAX)
    }

    /// The stream of `seed`, `position` words in.
    pub fn at(seed: u64, position: u64) -> Rng {
        let mut r = Rng::new(seed);
        r.stream.set_word_pos(u128::from(position));
        r
    }

    /// A number in `0..n`, uniformly: 32-bit words are drawn until one falls below the
    /// largest multiple of `n`, whose remainder is the number. `n` must be > 0.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let n = n.max(1);
        let zone = u32::MAX - (u32::MAX % n);
        loop {
            let v = self.stream.next_u32();
            if v < zone {
                return v % n;
            }
        }
    }

    /// One die: 1 to 6.
    #[inline]
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// Shuffle a slice (Fisher–Yates, from the last place down).
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

    /// A predictable seed's stream 0 at step 0 is the generator the judge used before
    /// seeds were kept secret: old games' move orders and maps come out the same.
    #[test]
    fn a_predictable_seed_draws_as_the_old_generator() {
        for n in [0, 1, 6, 13, u64::MAX] {
            let mut new = Luck::predictable(n).draws(0, 0);
            let mut old = Rng::new(n);
            for _ in 0..50 {
                assert_eq!(new.below(1000), old.below(1000));
            }
        }
    }

    /// Each kind and step is its own stream: drawing more of one never moves another.
    #[test]
    fn streams_and_steps_are_independent() {
        let luck = Luck::predictable(7);
        let a: Vec<u32> = (0..8).map(|_| luck.draws(1, 12).below(1 << 30)).collect();
        assert!(
            a.iter().all(|x| *x == a[0]),
            "the same step starts the same"
        );
        let mut other = luck.draws(2, 12);
        for _ in 0..100 {
            other.below(6);
        }
        assert_eq!(luck.draws(1, 12).below(1 << 30), a[0]);
        assert_ne!(luck.draws(1, 13).below(1 << 30), a[0]);
        assert_ne!(luck.draws(2, 12).below(1 << 30), a[0]);
        let again = Luck::from_hex(&luck.to_hex()).expect("hex");
        assert_eq!(again, luck);
        assert_eq!(format!("{luck:?}"), "Luck(hidden)");
    }

    /// The commitment is SHA-256 of seed then salt (the known answer for zeros).
    #[test]
    fn the_commitment_is_sha256_of_seed_and_salt() {
        let c = commitment(&Luck::from_bytes([0; 32]), &[0; 32]);
        assert_eq!(
            c,
            "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b"
        );
        assert_ne!(commitment(&Luck::from_bytes([0; 32]), &[1; 32]), c);
    }

    #[test]
    fn dice_are_roughly_fair() {
        let mut r = Luck::predictable(1).draws(3, 0);
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
