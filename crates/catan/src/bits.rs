//! A fixed set of up to 256 small numbers (vertices, edges, hexes): four machine words,
//! no allocation, so the rules can ask "is this site free?" in a few instructions.

use std::fmt;

#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bits([u64; 4]);

impl Bits {
    pub const EMPTY: Bits = Bits([0; 4]);
    pub const CAPACITY: usize = 256;

    #[inline]
    pub fn has(&self, i: usize) -> bool {
        i < Self::CAPACITY && self.0[i >> 6] >> (i & 63) & 1 == 1
    }

    #[inline]
    pub fn insert(&mut self, i: usize) {
        if i < Self::CAPACITY {
            self.0[i >> 6] |= 1 << (i & 63);
        }
    }

    #[inline]
    pub fn remove(&mut self, i: usize) {
        if i < Self::CAPACITY {
            self.0[i >> 6] &= !(1 << (i & 63));
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    #[inline]
    pub fn and(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }

    #[inline]
    pub fn or(self, o: Bits) -> Bits {
        Bits([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }

    #[inline]
    pub fn minus(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
            self.0[3] & !o.0[3],
        ])
    }

    /// The members, smallest first.
    #[inline]
    pub fn iter(&self) -> BitsIter {
        BitsIter {
            words: self.0,
            word: 0,
        }
    }

    /// The `n`-th member, smallest first (for picking one at random).
    pub fn nth(&self, mut n: usize) -> Option<usize> {
        for (w, &word) in self.0.iter().enumerate() {
            let c = word.count_ones() as usize;
            if n < c {
                let mut x = word;
                for _ in 0..n {
                    x &= x - 1;
                }
                return Some(w * 64 + x.trailing_zeros() as usize);
            }
            n -= c;
        }
        None
    }
}

impl FromIterator<usize> for Bits {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Bits {
        let mut b = Bits::EMPTY;
        for i in iter {
            b.insert(i);
        }
        b
    }
}

pub struct BitsIter {
    words: [u64; 4],
    word: usize,
}

impl Iterator for BitsIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < 4 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_come_back_in_order() {
        let b: Bits = [3, 200, 64, 0, 127].into_iter().collect();
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 3, 64, 127, 200]);
        assert_eq!(b.len(), 5);
        assert_eq!(b.nth(3), Some(127));
        assert_eq!(b.nth(5), None);
        assert!(b.has(200) && !b.has(201) && !b.has(999));
    }
}
