//! The wonder: rows of bricks, coloured and neutral (RULINGS R7).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::player::Colour;
use super::word_error::WordError;

/// Bricks per row, bottom row first: 83 in all.
pub const ROWS: [usize; 15] = [4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 7, 7, 7];

/// Bricks in the whole wonder.
pub const SIZE: usize = 83;

/// Bricks in the first four rows: from the next brick on, each costs one good more
/// (RULINGS R7).
pub const FIRST_FOUR_ROWS: usize = 17;

/// What a player's next brick costs (RULINGS R7: "A player's k-th brick in a turn costs
/// k goods, or k+1 once the first four rows (17 bricks) are full — price each brick on
/// the wonder as it stands when it is placed"), with `placed` bricks on the wonder and
/// `bought` bought by that player this turn.
pub fn price(placed: usize, bought: u32) -> u32 {
    bought + 1 + u32::from(placed >= FIRST_FOUR_ROWS)
}

/// What `count` bricks bought one after the other cost together, the first a player's
/// first of the turn and placed on a wonder holding `placed` bricks.
pub fn cost(placed: usize, count: u32) -> u32 {
    (0..count).map(|k| price(placed + k as usize, k)).sum()
}

/// The brick that brings irrigation: deserts become pasture (RULINGS R7).
pub const IRRIGATION_BRICK: usize = 45;

/// One place on the wonder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Brick {
    Player(Colour),
    Neutral,
    /// A place a scenario leaves out of play (the one-player game skips the first rows).
    Skipped,
}

impl fmt::Display for Brick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Brick::Player(c) => write!(f, "{c}"),
            Brick::Neutral => f.write_str("neutral"),
            Brick::Skipped => f.write_str("skipped"),
        }
    }
}

impl std::str::FromStr for Brick {
    type Err = WordError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "neutral" | "white" => Ok(Brick::Neutral),
            "skipped" => Ok(Brick::Skipped),
            other => other
                .parse()
                .map(Brick::Player)
                .map_err(|_| WordError::NotABrick(s.trim().to_string())),
        }
    }
}

impl Serialize for Brick {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Brick {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// The bricks placed so far, lowest and leftmost first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Wonder {
    pub bricks: Vec<Brick>,
}

impl Wonder {
    /// Bricks placed, skipped places included.
    pub fn placed(&self) -> usize {
        self.bricks.len()
    }

    /// Has irrigation been discovered (the 45th brick placed)?
    pub fn irrigated(&self) -> bool {
        self.placed() >= IRRIGATION_BRICK
    }

    pub fn neutral_bricks(&self) -> usize {
        self.bricks.iter().filter(|b| **b == Brick::Neutral).count()
    }

    /// The row (0-based) that place `index` (0-based) is on.
    pub fn row_of(index: usize) -> Option<usize> {
        let mut start = 0;
        for (row, len) in ROWS.iter().enumerate() {
            if index < start + len {
                return Some(row);
            }
            start += len;
        }
        None
    }

    /// The bricks on each row, bottom first; rows not yet begun are empty.
    pub fn rows(&self) -> Vec<&[Brick]> {
        let mut out = Vec::new();
        let mut start = 0;
        for len in ROWS {
            let end = (start + len).min(self.bricks.len());
            out.push(if start < end {
                &self.bricks[start..end]
            } else {
                &[][..]
            });
            start += len;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RULINGS R7: the rows hold 4,4,4,5,5,5,5,6,6,6,6,6,7,7,7 bricks, 83 in all.
    #[test]
    fn the_wonder_has_83_places_in_15_rows() {
        assert_eq!(ROWS.iter().sum::<usize>(), SIZE);
        assert_eq!(Wonder::row_of(0), Some(0));
        assert_eq!(Wonder::row_of(16), Some(3));
        assert_eq!(Wonder::row_of(17), Some(4));
        assert_eq!(Wonder::row_of(82), Some(14));
        assert_eq!(Wonder::row_of(83), None);
    }

    /// RULINGS R7: "A player's k-th brick in a turn costs k goods, or k+1 once the first
    /// four rows (17 bricks) are full — price each brick on the wonder as it stands when
    /// it is placed."
    #[test]
    fn a_brick_costs_one_good_more_once_the_first_four_rows_are_full() {
        assert_eq!(price(0, 0), 1);
        assert_eq!(price(16, 2), 3);
        assert_eq!(price(17, 0), 2);
        assert_eq!(price(40, 2), 4);
        // Three bricks on a wonder of 15: the first two at k, the third (the 18th
        // brick, placed on a wonder of 17) at k+1.
        assert_eq!(cost(15, 3), 1 + 2 + 4);
        assert_eq!(cost(0, 3), 6);
        assert_eq!(cost(17, 2), 2 + 3);
        assert_eq!(cost(30, 0), 0);
    }
}
