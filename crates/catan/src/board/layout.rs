//! The boards a game can start on: the beginner board, or a random one drawn from the
//! game's seed (terrain shuffled, number tokens placed so that no 6 and 8 — the red
//! numbers — touch, harbours shuffled among the fixed harbour places of the frame).

use serde::{Deserialize, Serialize};

use super::{Board, Harbour, Terrain, Topology};
use crate::rng::Rng;

/// Which board to play on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// The fixed board for a first game.
    #[default]
    Beginner,
    /// Terrain, numbers and harbours drawn from the game's seed.
    Random,
}

pub const BASE_ROWS: [u8; 5] = [3, 4, 5, 4, 3];
pub const LARGE_ROWS: [u8; 7] = [3, 4, 5, 6, 5, 4, 3];

use Terrain::{Desert as D, Fields as Fi, Forest as Fo, Hills as H, Mountains as M, Pasture as P};

/// The beginner board, A to S in reading order: terrain and number token.
const BEGINNER: [(Terrain, Option<u8>); 19] = [
    (M, Some(10)),
    (P, Some(2)),
    (Fo, Some(9)),
    (Fi, Some(12)),
    (H, Some(6)),
    (P, Some(4)),
    (H, Some(10)),
    (Fi, Some(9)),
    (Fo, Some(11)),
    (D, None),
    (Fo, Some(3)),
    (M, Some(8)),
    (Fo, Some(8)),
    (M, Some(3)),
    (Fi, Some(4)),
    (P, Some(5)),
    (H, Some(5)),
    (Fi, Some(6)),
    (P, Some(11)),
];

/// Harbours of the base frame, clockwise from the top.
const BASE_HARBOURS: [Harbour; 9] = [
    Harbour::Generic,
    Harbour::Grain,
    Harbour::Ore,
    Harbour::Generic,
    Harbour::Wool,
    Harbour::Generic,
    Harbour::Generic,
    Harbour::Brick,
    Harbour::Wood,
];

/// The 5–6 player frame adds a 3:1 harbour and a wool harbour.
const LARGE_HARBOURS: [Harbour; 11] = [
    Harbour::Generic,
    Harbour::Grain,
    Harbour::Ore,
    Harbour::Generic,
    Harbour::Wool,
    Harbour::Generic,
    Harbour::Wool,
    Harbour::Generic,
    Harbour::Generic,
    Harbour::Brick,
    Harbour::Wood,
];

fn terrain_deck(large: bool) -> Vec<Terrain> {
    let counts: [(Terrain, usize); 6] = if large {
        [(Fo, 6), (P, 6), (Fi, 6), (H, 5), (M, 5), (D, 2)]
    } else {
        [(Fo, 4), (P, 4), (Fi, 4), (H, 3), (M, 3), (D, 1)]
    };
    counts
        .iter()
        .flat_map(|&(t, n)| std::iter::repeat_n(t, n))
        .collect()
}

fn number_tokens(large: bool) -> Vec<u8> {
    let mut n = vec![2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12];
    if large {
        n.extend([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]);
    }
    n.sort_unstable();
    n
}

/// The harbour places: spread evenly along the coast, clockwise from the top.
fn harbour_places(t: &Topology, count: usize) -> Vec<usize> {
    let coast = Board::coast_clockwise(t);
    (0..count).map(|i| coast[i * coast.len() / count]).collect()
}

/// Builds the board for a game. `large` is the 5–6 player board.
pub fn make(layout: Layout, large: bool, rng: &mut Rng) -> Board {
    let rows: &[u8] = if large { &LARGE_ROWS } else { &BASE_ROWS };
    let t = Topology::from_rows(rows);
    let kinds: &[Harbour] = if large {
        &LARGE_HARBOURS
    } else {
        &BASE_HARBOURS
    };
    let places = harbour_places(&t, kinds.len());
    let hexes = t.hexes.len();
    let mut terrain = vec![Terrain::Sea; hexes];
    let mut number = vec![None; hexes];
    match layout {
        Layout::Beginner if !large => {
            for (h, &(ter, n)) in BEGINNER.iter().enumerate() {
                terrain[h] = ter;
                number[h] = n;
            }
            let harbours = places.into_iter().zip(kinds.iter().copied()).collect();
            return Board::new(t, terrain, number, harbours);
        }
        Layout::Beginner => {
            // The large board has no printed beginner set-up: a fixed draw stands in.
            let mut fixed = Rng::new(0x0C47_A256);
            return random(t, &places, kinds, true, &mut fixed);
        }
        Layout::Random => {}
    }
    random(t, &places, kinds, large, rng)
}

/// The first draw of a random board: its land hexes' terrain, in hex order (the terrain
/// tiles shuffled). What a board's first hexes show is enough to test a guessed seed
/// (tests/judge_core/dice.rs does, for a million of them).
pub fn terrain_draw(large: bool, rng: &mut Rng) -> Vec<Terrain> {
    let mut deck = terrain_deck(large);
    rng.shuffle(&mut deck);
    deck
}

fn random(t: Topology, places: &[usize], kinds: &[Harbour], large: bool, rng: &mut Rng) -> Board {
    let land = t.land_hexes;
    let mut terrain = vec![Terrain::Sea; t.hexes.len()];
    let deck = terrain_draw(large, rng);
    terrain[..land].copy_from_slice(&deck);
    let producing: Vec<usize> = (0..land).filter(|&h| terrain[h] != D).collect();
    let neighbours = |a: usize, b: usize| {
        t.hexes[a]
            .sides
            .iter()
            .any(|&e| t.edges[e].hexes.contains(&b))
    };
    let tokens = number_tokens(large);
    let mut number = vec![None; t.hexes.len()];
    for _attempt in 0..10_000 {
        let mut order = tokens.clone();
        rng.shuffle(&mut order);
        let red: Vec<usize> = producing
            .iter()
            .zip(&order)
            .filter(|(_, n)| **n == 6 || **n == 8)
            .map(|(h, _)| *h)
            .collect();
        let touching = red
            .iter()
            .enumerate()
            .any(|(i, &a)| red[i + 1..].iter().any(|&b| neighbours(a, b)));
        if !touching {
            for (&h, &n) in producing.iter().zip(&order) {
                number[h] = Some(n);
            }
            break;
        }
    }
    if number.iter().all(Option::is_none) {
        // Practically never: fall back to the tokens in order.
        for (&h, &n) in producing.iter().zip(&tokens) {
            number[h] = Some(n);
        }
    }
    let mut kinds = kinds.to_vec();
    rng.shuffle(&mut kinds);
    let harbours = places.iter().copied().zip(kinds).collect();
    Board::new(t, terrain, number, harbours)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn red_numbers_touch(b: &Board) -> bool {
        let t = &b.topology;
        t.edges.iter().any(|e| {
            e.hexes.len() == 2
                && e.hexes
                    .iter()
                    .all(|&h| matches!(b.number[h], Some(6) | Some(8)))
        })
    }

    /// Usual set-up constraint: the red numbers (6 and 8) never touch; every land hex but
    /// the desert carries a token; terrain comes in the usual numbers.
    #[test]
    fn random_boards_keep_red_numbers_apart() {
        for large in [false, true] {
            for seed in 0..200 {
                let b = make(Layout::Random, large, &mut Rng::new(seed));
                assert!(!red_numbers_touch(&b), "seed {seed}");
                let land = b.topology.land_hexes;
                let deserts = (0..land).filter(|&h| b.terrain[h] == D).count();
                let tokens = (0..land).filter(|&h| b.number[h].is_some()).count();
                assert_eq!(deserts + tokens, land);
                assert_eq!(b.harbours.len(), if large { 11 } else { 9 });
            }
        }
    }

    #[test]
    fn the_beginner_board_is_fixed_and_sound() {
        let a = make(Layout::Beginner, false, &mut Rng::new(1));
        let b = make(Layout::Beginner, false, &mut Rng::new(2));
        assert_eq!(a, b);
        assert!(!red_numbers_touch(&a));
        let mut n: Vec<u8> = a.number.iter().flatten().copied().collect();
        n.sort_unstable();
        assert_eq!(n, number_tokens(false));
    }

    #[test]
    fn the_same_seed_draws_the_same_board() {
        let a = make(Layout::Random, false, &mut Rng::new(9));
        let b = make(Layout::Random, false, &mut Rng::new(9));
        let c = make(Layout::Random, false, &mut Rng::new(10));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
