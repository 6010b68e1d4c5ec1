//! Tiles: terrain, the river through a tile, and the areas a river splits it into.
//!
//! A river enters a tile through the middle of one or more of its edges ("river edges")
//! and meets at the tile's centre. With one river edge the tile holds a river source and
//! is not split (RULINGS R3). With two, the river splits the tile into two areas; at a
//! junction (three river edges) into three. Each river edge is itself split in half: the
//! half nearer the previous corner going clockwise belongs to one area, the other half to
//! the next.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::hex::Dir;
use crate::word_error::WordError;

/// The kinds of tile (RULINGS R3). &cetera's polder and city are here so that a scenario
/// can place them; their special rules belong to their modules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    Pasture,
    Woods,
    Rock,
    Mountain,
    Desert,
    Sea,
    Polder,
    City,
}

impl Terrain {
    pub const ALL: [Terrain; 8] = [
        Terrain::Pasture,
        Terrain::Woods,
        Terrain::Rock,
        Terrain::Mountain,
        Terrain::Desert,
        Terrain::Sea,
        Terrain::Polder,
        Terrain::City,
    ];

    /// The one-letter code used in scenario map rows.
    pub fn code(self) -> char {
        match self {
            Terrain::Pasture => 'p',
            Terrain::Woods => 'w',
            Terrain::Rock => 'r',
            Terrain::Mountain => 'm',
            Terrain::Desert => 'd',
            Terrain::Sea => 's',
            Terrain::Polder => 'o',
            Terrain::City => 'c',
        }
    }

    pub fn from_code(c: char) -> Option<Terrain> {
        Terrain::ALL
            .into_iter()
            .find(|t| t.code() == c.to_ascii_lowercase())
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Pasture => "pasture",
            Terrain::Woods => "woods",
            Terrain::Rock => "rock",
            Terrain::Mountain => "mountain",
            Terrain::Desert => "desert",
            Terrain::Sea => "sea",
            Terrain::Polder => "polder",
            Terrain::City => "city",
        }
    }

    pub fn is_sea(self) -> bool {
        self == Terrain::Sea
    }

    pub fn is_land(self) -> bool {
        !self.is_sea()
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Eight compass points: the names of the areas of a split tile (`C4/E`, `C4/W`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Compass {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Compass {
    pub const ALL: [Compass; 8] = [
        Compass::N,
        Compass::NE,
        Compass::E,
        Compass::SE,
        Compass::S,
        Compass::SW,
        Compass::W,
        Compass::NW,
    ];

    /// The compass point nearest a bearing (degrees counter-clockwise from east).
    fn nearest(bearing: i32) -> Compass {
        let b = bearing.rem_euclid(360);
        // Bearings here are multiples of 30, so there is never a tie.
        let step = ((b * 2 + 45) / 90) % 8; // round(b / 45)
        match step {
            0 => Compass::E,
            1 => Compass::NE,
            2 => Compass::N,
            3 => Compass::NW,
            4 => Compass::W,
            5 => Compass::SW,
            6 => Compass::S,
            _ => Compass::SE,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Compass::N => "N",
            Compass::NE => "NE",
            Compass::E => "E",
            Compass::SE => "SE",
            Compass::S => "S",
            Compass::SW => "SW",
            Compass::W => "W",
            Compass::NW => "NW",
        }
    }
}

impl fmt::Display for Compass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Compass {
    type Err = WordError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let upper = s.trim().to_ascii_uppercase();
        Compass::ALL
            .into_iter()
            .find(|c| c.name() == upper)
            .ok_or_else(|| WordError::NotACompassPoint(s.trim().to_string()))
    }
}

/// Which half of an edge, walking clockwise around the tile: the first half touches the
/// corner shared with the previous edge, the second half the corner with the next edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Half {
    First,
    Second,
}

impl Half {
    /// The same stretch of border seen from the neighbouring tile.
    pub fn across(self) -> Half {
        match self {
            Half::First => Half::Second,
            Half::Second => Half::First,
        }
    }
}

/// The set of edges a river passes through, as a bit set over [`Dir`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RiverEdges(u8);

impl RiverEdges {
    pub fn contains(self, d: Dir) -> bool {
        self.0 & (1 << d.index()) != 0
    }

    pub fn insert(&mut self, d: Dir) {
        self.0 |= 1 << d.index();
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |&d| self.contains(d))
    }
}

impl FromIterator<Dir> for RiverEdges {
    fn from_iter<I: IntoIterator<Item = Dir>>(iter: I) -> Self {
        let mut e = RiverEdges::default();
        for d in iter {
            e.insert(d);
        }
        e
    }
}

impl Serialize for RiverEdges {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for RiverEdges {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<Dir>::deserialize(d)?.into_iter().collect())
    }
}

/// One tile of the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tile {
    pub terrain: Terrain,
    /// Edges the river runs through; empty when the tile has no river.
    #[serde(default, skip_serializing_if = "no_river")]
    pub river: RiverEdges,
}

fn no_river(e: &RiverEdges) -> bool {
    e.is_empty()
}

/// One area of a tile: the part of it on one side of the river.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaShape {
    /// `None` for a tile that no river splits.
    pub side: Option<Compass>,
    /// The river edge where the area starts, walking clockwise; `None` when unsplit.
    pub from: Option<Dir>,
    /// The river edge where the area ends, walking clockwise.
    pub to: Option<Dir>,
}

impl AreaShape {
    /// Does this area touch the given half of the given edge?
    pub fn touches(&self, dir: Dir, half: Half) -> bool {
        let (Some(from), Some(to)) = (self.from, self.to) else {
            return true;
        };
        // Offsets clockwise from the starting river edge.
        let span = (to.index() + 6 - from.index()) % 6;
        let span = if span == 0 { 6 } else { span };
        let off = (dir.index() + 6 - from.index()) % 6;
        match off {
            0 => half == Half::Second,
            o if o == span => half == Half::First,
            o => o < span,
        }
    }

    /// Does this area touch any part of the given edge?
    pub fn touches_edge(&self, dir: Dir) -> bool {
        self.touches(dir, Half::First) || self.touches(dir, Half::Second)
    }
}

impl Tile {
    pub fn new(terrain: Terrain) -> Tile {
        Tile {
            terrain,
            river: RiverEdges::default(),
        }
    }

    pub fn has_river(&self) -> bool {
        !self.river.is_empty()
    }

    /// A river source: the river starts in the middle of this tile, which stays whole.
    pub fn is_source(&self) -> bool {
        self.river.len() == 1
    }

    /// The areas of this tile, clockwise from the north. One area unless a river (not a
    /// mere source) runs through it.
    pub fn areas(&self) -> Vec<AreaShape> {
        let edges: Vec<Dir> = self.river.iter().collect();
        if edges.len() < 2 {
            return vec![AreaShape {
                side: None,
                from: None,
                to: None,
            }];
        }
        (0..edges.len())
            .map(|i| {
                let from = edges[i];
                let to = edges[(i + 1) % edges.len()];
                let span = ((to.index() + 6 - from.index()) % 6) as i32 * 60;
                let middle = from.bearing() - span / 2;
                AreaShape {
                    side: Some(Compass::nearest(middle)),
                    from: Some(from),
                    to: Some(to),
                }
            })
            .collect()
    }

    /// The area that holds the given half of the given edge.
    pub fn area_at(&self, dir: Dir, half: Half) -> Option<Compass> {
        self.areas()
            .into_iter()
            .find(|a| a.touches(dir, half))
            .and_then(|a| a.side)
    }

    /// The two areas on either side of the river arm that runs from the centre to `edge`.
    pub fn areas_beside_arm(&self, edge: Dir) -> Option<(Compass, Compass)> {
        if !self.river.contains(edge) || self.river.len() < 2 {
            return None;
        }
        Some((
            self.area_at(edge, Half::First)?,
            self.area_at(edge, Half::Second)?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn river_tile(edges: &[Dir]) -> Tile {
        Tile {
            terrain: Terrain::Pasture,
            river: edges.iter().copied().collect(),
        }
    }

    fn sides(t: &Tile) -> Vec<Option<Compass>> {
        t.areas().iter().map(|a| a.side).collect()
    }

    /// RULINGS R3 / rulebook p.14: "River springs never need a bridge": a source tile
    /// (one river edge) is one area.
    #[test]
    fn a_source_tile_is_not_split() {
        assert_eq!(sides(&river_tile(&[Dir::S])), vec![None]);
        assert_eq!(sides(&Tile::new(Terrain::Woods)), vec![None]);
    }

    /// RULINGS R3: a river through a tile splits it into two areas, named by the compass
    /// point of each bank.
    #[test]
    fn a_river_splits_a_tile_into_two_named_areas() {
        let t = river_tile(&[Dir::N, Dir::S]);
        assert_eq!(sides(&t), vec![Some(Compass::E), Some(Compass::W)]);
        assert_eq!(t.area_at(Dir::NE, Half::First), Some(Compass::E));
        assert_eq!(t.area_at(Dir::NW, Half::Second), Some(Compass::W));
        // The river edges are shared: each half belongs to one bank.
        assert_eq!(t.area_at(Dir::N, Half::Second), Some(Compass::E));
        assert_eq!(t.area_at(Dir::N, Half::First), Some(Compass::W));
        assert_eq!(t.area_at(Dir::S, Half::First), Some(Compass::E));
    }

    /// Rulebook p.14: "At river splittings, two bridges are needed": a junction makes
    /// three areas.
    #[test]
    fn a_junction_makes_three_areas() {
        let t = river_tile(&[Dir::N, Dir::SE, Dir::SW]);
        assert_eq!(
            sides(&t),
            vec![Some(Compass::NE), Some(Compass::S), Some(Compass::NW)]
        );
        assert_eq!(t.areas_beside_arm(Dir::SE), Some((Compass::NE, Compass::S)));
    }

    #[test]
    fn a_sharp_bend_leaves_a_corner_area() {
        let t = river_tile(&[Dir::N, Dir::NE]);
        assert_eq!(sides(&t), vec![Some(Compass::NE), Some(Compass::SW)]);
        assert_eq!(t.area_at(Dir::SE, Half::First), Some(Compass::SW));
        assert_eq!(t.area_at(Dir::N, Half::Second), Some(Compass::NE));
    }

    #[test]
    fn area_names_are_unique_for_every_river_shape() {
        for bits in 0u8..64 {
            let t = Tile {
                terrain: Terrain::Pasture,
                river: RiverEdges(bits),
            };
            let mut names = sides(&t);
            let n = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), n, "duplicate area name for edges {bits:06b}");
            // Every half edge belongs to exactly one area.
            for d in Dir::ALL {
                for h in [Half::First, Half::Second] {
                    let owners = t.areas().iter().filter(|a| a.touches(d, h)).count();
                    assert_eq!(owners, 1, "edges {bits:06b} {d:?} {h:?}");
                }
            }
        }
    }

    #[test]
    fn terrain_codes_round_trip() {
        for t in Terrain::ALL {
            assert_eq!(Terrain::from_code(t.code()), Some(t));
        }
        assert_eq!(Terrain::from_code('x'), None);
    }
}
