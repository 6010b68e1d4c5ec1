//! The maps of Catan Express. The book's map (pages 32–37) is not in our text, so the
//! judge has its own islands, drawn to give every rule a chance:
//!
//! - a **main island** and, across a one-hex **strait**, an **ore islet**: two of the
//!   three mountains (three of five with 5–6 players) lie on the islet, so ore — which
//!   every rail line needs — is scarce at home and ferries matter;
//! - the main island's own mountain has a rare number (2; 3 and 12 with 5–6);
//! - harbours round the coast, one of them on the strait and the ore harbour on the islet.
//!
//! "Beyond the island" plays on any board the base game makes (the beginner board or a
//! random one from the seed; the large board with 5–6 players), with ferries out to the
//! centres of sea hexes.

use serde::{Deserialize, Serialize};

use crate::board::{Board, Harbour, Terrain, Topology};

/// Which map, and so where ferries go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Map {
    /// The judge's Express island (3–4 or 5–6 players); ferries on sea and coastal edges,
    /// 8 per player.
    #[default]
    Island,
    /// "Catan Express beyond the island": the base game's board (its `layout` option);
    /// ferries from a vertex to a sea hex's centre, 15 per player.
    Beyond,
}

impl Map {
    pub fn name(self) -> &'static str {
        match self {
            Map::Island => "island",
            Map::Beyond => "beyond",
        }
    }
}

use Terrain::{Desert as D, Fields as G, Forest as F, Hills as H, Mountains as M, Pasture as P};

/// One land hex of a design: terrain and number token (none on the desert).
type Hex = (Terrain, Option<u8>);
/// A harbour of a design: its land hex, the side, the kind.
type HarbourPlace = (&'static str, usize, Harbour);

/// An island as drawn: its shape, its land hexes in reading order, its harbours.
struct Design {
    shape: &'static [&'static str],
    hexes: &'static [Hex],
    harbours: &'static [HarbourPlace],
}

/// The 3–4 player island, drawn with hexes on alternate columns (see
/// [`Topology::from_shape`]); `~` is the strait.
pub const ISLAND_SHAPE: [&str; 4] = ["  L L L ~ L L", " L L L L ~ L", "L L L L ~ L", " L L L L"];

/// Its land hexes in reading order (A…S).
const ISLAND: [Hex; 19] = [
    (F, Some(11)), // A
    (G, Some(4)),  // B
    (P, Some(10)), // C
    (M, Some(6)),  // D  islet
    (H, Some(5)),  // E  islet
    (P, Some(5)),  // F
    (H, Some(8)),  // G
    (F, Some(3)),  // H
    (G, Some(9)),  // I
    (M, Some(9)),  // J  islet
    (M, Some(2)),  // K  the main island's only mountain
    (G, Some(12)), // L
    (D, None),     // M
    (F, Some(8)),  // N
    (P, Some(10)), // O  islet
    (F, Some(6)),  // P
    (P, Some(4)),  // Q
    (G, Some(11)), // R
    (H, Some(3)),  // S
];

/// Harbours: (land hex, side) — sides clockwise from the north-east one (0 NE, 1 E,
/// 2 SE, 3 SW, 4 W, 5 NW).
const ISLAND_HARBOURS: [HarbourPlace; 9] = [
    ("A", 5, Harbour::Wood),
    ("C", 0, Harbour::Generic),
    ("J", 1, Harbour::Ore),
    ("I", 1, Harbour::Grain), // on the strait
    ("O", 3, Harbour::Generic),
    ("S", 2, Harbour::Brick),
    ("Q", 3, Harbour::Generic),
    ("K", 3, Harbour::Generic),
    ("F", 4, Harbour::Wool),
];

/// The 5–6 player island: a larger main island, the strait, a six-hex ore islet.
pub const LARGE_ISLAND_SHAPE: [&str; 6] = [
    "  L L L ~ L L",
    " L L L L ~ L L",
    "  L L L L ~ L",
    " L L L L L ~ L",
    "  L L L L L",
    "   L L L",
];

const LARGE_ISLAND: [Hex; 30] = [
    (F, Some(11)), // A
    (P, Some(5)),  // B
    (G, Some(10)), // C
    (M, Some(8)),  // D  islet
    (H, Some(4)),  // E  islet
    (H, Some(9)),  // F
    (G, Some(6)),  // G
    (F, Some(4)),  // H
    (P, Some(11)), // I
    (M, Some(5)),  // J  islet
    (P, Some(9)),  // K  islet
    (M, Some(3)),  // L  a mountain of the main island
    (D, None),     // M
    (H, Some(8)),  // N
    (F, Some(3)),  // O
    (M, Some(10)), // P  islet
    (P, Some(10)), // Q
    (F, Some(9)),  // R
    (G, Some(5)),  // S
    (H, Some(2)),  // T
    (P, Some(6)),  // U
    (G, Some(6)),  // V  islet
    (G, Some(8)),  // W
    (H, Some(3)),  // X
    (D, None),     // Y
    (F, Some(11)), // Z
    (G, Some(4)),  // AA
    (F, Some(12)), // AB
    (M, Some(12)), // AC the main island's second mountain
    (P, Some(2)),  // AD
];

const LARGE_ISLAND_HARBOURS: [HarbourPlace; 11] = [
    ("A", 5, Harbour::Wood),
    ("B", 0, Harbour::Wool),
    ("K", 0, Harbour::Ore),
    ("V", 2, Harbour::Generic),
    ("I", 1, Harbour::Grain), // on the strait
    ("U", 1, Harbour::Generic),
    ("F", 3, Harbour::Generic),
    ("W", 3, Harbour::Brick),
    ("AD", 2, Harbour::Wool),
    ("AB", 3, Harbour::Generic),
    ("AA", 1, Harbour::Generic),
];

/// The Express island for this many players (5–6: the large one).
pub fn island(large: bool) -> Board {
    let d = if large {
        Design {
            shape: &LARGE_ISLAND_SHAPE,
            hexes: &LARGE_ISLAND,
            harbours: &LARGE_ISLAND_HARBOURS,
        }
    } else {
        Design {
            shape: &ISLAND_SHAPE,
            hexes: &ISLAND,
            harbours: &ISLAND_HARBOURS,
        }
    };
    let (shape, hexes, harbours) = (d.shape, d.hexes, d.harbours);
    let shape: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
    let t = Topology::from_shape(&shape).unwrap_or_else(|| Topology::from_rows(&[3, 4, 5, 4, 3]));
    let mut terrain = vec![Terrain::Sea; t.hexes.len()];
    let mut number = vec![None; t.hexes.len()];
    for (h, &(ter, n)) in hexes.iter().enumerate().take(t.land_hexes) {
        terrain[h] = ter;
        number[h] = n;
    }
    let places = harbours
        .iter()
        .filter_map(|&(label, side, kind)| {
            let h = t.parse_hex(label)?;
            Some((t.hexes[h].sides[side % 6], kind))
        })
        .collect();
    Board::new(t, terrain, number, places)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Bits;

    fn pieces(b: &Board) -> Vec<(Terrain, usize)> {
        let mut out: Vec<(Terrain, usize)> = Vec::new();
        for h in 0..b.topology.land_hexes {
            match out.iter_mut().find(|(t, _)| *t == b.terrain[h]) {
                Some(e) => e.1 += 1,
                None => out.push((b.terrain[h], 1)),
            }
        }
        out.sort();
        out
    }

    /// The islands use the base game's hexes and tokens (and the extension's for 5–6),
    /// keep the red numbers apart, and put their harbours on the coast.
    #[test]
    fn the_islands_are_sound() {
        for large in [false, true] {
            let b = island(large);
            let t = &b.topology;
            assert_eq!(t.land_hexes, if large { 30 } else { 19 });
            assert!(t.vertices.len() <= Bits::CAPACITY && t.edges.len() <= Bits::CAPACITY);
            let want = if large {
                vec![(F, 6), (H, 5), (P, 6), (G, 6), (M, 5), (D, 2)]
            } else {
                vec![(F, 4), (H, 3), (P, 4), (G, 4), (M, 3), (D, 1)]
            };
            let mut want = want;
            want.sort();
            assert_eq!(pieces(&b), want);
            let mut tokens: Vec<u8> = b.number.iter().flatten().copied().collect();
            tokens.sort_unstable();
            let mut base = vec![2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12];
            if large {
                base.extend([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]);
                base.sort_unstable();
            }
            assert_eq!(tokens, base);
            let red_touch = t.edges.iter().any(|e| {
                e.hexes.len() == 2
                    && e.hexes
                        .iter()
                        .all(|&h| matches!(b.number[h], Some(6) | Some(8)))
            });
            assert!(!red_touch);
            assert_eq!(b.harbours.len(), if large { 11 } else { 9 });
            for &(e, _) in &b.harbours {
                assert!(t.edges[e].coast, "harbour on {}", t.edge_name(e));
            }
            let mut edges: Vec<usize> = b.harbours.iter().map(|&(e, _)| e).collect();
            edges.dedup();
            assert_eq!(edges.len(), b.harbours.len());
        }
    }

    /// Ore is scarce at home: most mountains are on the islet, across the strait, which
    /// no land path crosses.
    #[test]
    fn the_ore_islet_lies_across_a_strait() {
        for large in [false, true] {
            let b = island(large);
            let t = &b.topology;
            // Land hexes reachable from A over land.
            let mut seen = vec![false; t.hexes.len()];
            let mut stack = vec![0];
            seen[0] = true;
            while let Some(h) = stack.pop() {
                for &e in &t.hexes[h].sides {
                    for &n in &t.edges[e].hexes {
                        if t.hexes[n].land && !seen[n] {
                            seen[n] = true;
                            stack.push(n);
                        }
                    }
                }
            }
            let mountains_home = (0..t.land_hexes)
                .filter(|&h| seen[h] && b.terrain[h] == M)
                .count();
            let mountains_islet = (0..t.land_hexes)
                .filter(|&h| !seen[h] && b.terrain[h] == M)
                .count();
            assert!(mountains_islet > mountains_home, "{large}");
            assert!((0..t.land_hexes).any(|h| !seen[h]), "there is an islet");
        }
    }
}
