//! Hex coordinates, the labels people type (`C4`), and the six directions.
//!
//! The board is a grid of flat-topped hexes. Columns are lettered `A`, `B`, … from the
//! west; rows are numbered `1`, `2`, … from the north. Odd columns (`B`, `D`, …) sit half a
//! hex lower than even ones ("odd-q" offset layout). See `docs/map.md`.

use std::fmt;
use std::str::FromStr;

use crate::word_error::WordError;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Largest map the labels can name: columns `A`–`Z`, rows `1`–`99`.
pub const MAX_COLUMNS: u8 = 26;
pub const MAX_ROWS: u8 = 99;

/// One hex of the board, by zero-based column and row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex {
    pub col: u8,
    pub row: u8,
}

/// The six directions from a hex to its neighbours, clockwise from north.
///
/// Flat-topped hexes have an edge straight north and straight south; the other four edges
/// face north-east, south-east, south-west and north-west.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Dir {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 6] = [Dir::N, Dir::NE, Dir::SE, Dir::S, Dir::SW, Dir::NW];

    /// Position clockwise from north, 0..6.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Dir {
        Dir::ALL[i % 6]
    }

    pub fn opposite(self) -> Dir {
        Dir::from_index(self.index() + 3)
    }

    /// The next direction clockwise.
    pub fn clockwise(self) -> Dir {
        Dir::from_index(self.index() + 1)
    }

    /// Bearing of the middle of this edge, in degrees counter-clockwise from east.
    pub fn bearing(self) -> i32 {
        90 - 60 * self as i32
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::NE => "NE",
            Dir::SE => "SE",
            Dir::S => "S",
            Dir::SW => "SW",
            Dir::NW => "NW",
        }
    }

    /// Axial step (dq, dr) for flat-topped hexes.
    fn axial_step(self) -> (i32, i32) {
        match self {
            Dir::N => (0, -1),
            Dir::NE => (1, -1),
            Dir::SE => (1, 0),
            Dir::S => (0, 1),
            Dir::SW => (-1, 1),
            Dir::NW => (-1, 0),
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dir {
    type Err = WordError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let upper = s.trim().to_ascii_uppercase();
        let dir = match upper.as_str() {
            "N" | "NORTH" => Dir::N,
            "NE" | "NORTHEAST" | "NORTH-EAST" => Dir::NE,
            "SE" | "SOUTHEAST" | "SOUTH-EAST" => Dir::SE,
            "S" | "SOUTH" => Dir::S,
            "SW" | "SOUTHWEST" | "SOUTH-WEST" => Dir::SW,
            "NW" | "NORTHWEST" | "NORTH-WEST" => Dir::NW,
            _ => return Err(WordError::NotADirection(s.trim().to_string())),
        };
        Ok(dir)
    }
}

impl Hex {
    pub fn new(col: u8, row: u8) -> Hex {
        Hex { col, row }
    }

    fn to_axial(self) -> (i32, i32) {
        let q = i32::from(self.col);
        let r = i32::from(self.row) - (q - (q & 1)) / 2;
        (q, r)
    }

    fn from_axial(q: i32, r: i32) -> Option<Hex> {
        let row = r + (q - (q & 1)) / 2;
        let col = u8::try_from(q).ok()?;
        let row = u8::try_from(row).ok()?;
        (col < MAX_COLUMNS && row < MAX_ROWS).then_some(Hex { col, row })
    }

    /// The hex one step away in `dir`, if it has a label (it may still be off the map).
    pub fn step(self, dir: Dir) -> Option<Hex> {
        let (q, r) = self.to_axial();
        let (dq, dr) = dir.axial_step();
        Hex::from_axial(q + dq, r + dr)
    }

    /// Number of steps between two hexes.
    pub fn distance(self, other: Hex) -> u32 {
        let (q1, r1) = self.to_axial();
        let (q2, r2) = other.to_axial();
        let (dq, dr) = (q1 - q2, r1 - r2);
        (dq.unsigned_abs() + dr.unsigned_abs() + (dq + dr).unsigned_abs()) / 2
    }

    /// The direction from `self` to a neighbouring hex, if they are neighbours.
    pub fn direction_to(self, other: Hex) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.step(d) == Some(other))
    }

    pub fn column_letter(self) -> char {
        char::from(b'A' + self.col)
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column_letter(), u32::from(self.row) + 1)
    }
}

/// Why a hex label could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HexLabelError {
    #[error("`{0}` is not a hex: write a column letter and a row number, like `C4`")]
    Malformed(String),
    #[error("`{0}` is outside the largest map (columns A to Z, rows 1 to 99)")]
    OutOfRange(String),
}

impl FromStr for Hex {
    type Err = HexLabelError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let mut chars = t.chars();
        let letter = chars
            .next()
            .filter(char::is_ascii_alphabetic)
            .ok_or_else(|| HexLabelError::Malformed(t.to_string()))?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(HexLabelError::Malformed(t.to_string()));
        }
        let row: u32 = digits
            .parse()
            .map_err(|_| HexLabelError::Malformed(t.to_string()))?;
        if row == 0 || row > u32::from(MAX_ROWS) {
            return Err(HexLabelError::OutOfRange(t.to_string()));
        }
        let col = letter.to_ascii_uppercase() as u8 - b'A';
        let row = u8::try_from(row - 1).map_err(|_| HexLabelError::OutOfRange(t.to_string()))?;
        Ok(Hex { col, row })
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Hex {
        s.parse().expect("test label")
    }

    #[test]
    fn labels_round_trip_and_ignore_case() {
        assert_eq!(hex("C4"), Hex::new(2, 3));
        assert_eq!(hex("c4"), hex("C4"));
        assert_eq!(hex("Z99").to_string(), "Z99");
        assert_eq!(hex("A1").to_string(), "A1");
    }

    #[test]
    fn malformed_labels_are_refused() {
        for bad in ["", "4C", "C", "C0", "C100", "CC4", "C-1", "é4"] {
            assert!(bad.parse::<Hex>().is_err(), "{bad} should not parse");
        }
    }

    /// docs/map.md: odd columns sit half a hex lower, so B1 is south-east of A1 and
    /// A2 is south-west of B1.
    #[test]
    fn odd_columns_sit_lower() {
        assert_eq!(hex("A1").step(Dir::SE), Some(hex("B1")));
        assert_eq!(hex("B1").step(Dir::SW), Some(hex("A2")));
        assert_eq!(hex("B1").step(Dir::NW), Some(hex("A1")));
        assert_eq!(hex("A1").step(Dir::NE), None);
        assert_eq!(hex("C4").step(Dir::N), Some(hex("C3")));
        assert_eq!(hex("C4").step(Dir::NE), Some(hex("D3")));
        assert_eq!(hex("C4").step(Dir::SE), Some(hex("D4")));
        assert_eq!(hex("D4").step(Dir::NE), Some(hex("E4")));
        assert_eq!(hex("D4").step(Dir::SE), Some(hex("E5")));
    }

    #[test]
    fn every_step_has_its_way_back() {
        for col in 0..8 {
            for row in 0..8 {
                let h = Hex::new(col, row);
                for d in Dir::ALL {
                    if let Some(n) = h.step(d) {
                        assert_eq!(n.step(d.opposite()), Some(h));
                        assert_eq!(h.distance(n), 1);
                        assert_eq!(h.direction_to(n), Some(d));
                    }
                }
            }
        }
    }

    #[test]
    fn distance_counts_steps() {
        assert_eq!(hex("C4").distance(hex("C4")), 0);
        assert_eq!(hex("C4").distance(hex("C6")), 2);
        assert_eq!(hex("A1").distance(hex("D2")), 3);
    }
}
