//! Random legal-move self-play of Catan Express, on the same engine and in the same way
//! as base Catan's (`judge selfplay catan-express`, benches/catan_selfplay.rs): every
//! player picks uniformly among the actions allowed at each step.

use super::map::Map;
use crate::board::layout::Layout;
use crate::rules::Action;
use crate::selfplay::{GameResult, play_random_with};

/// Express games stop after this many actions, as base games do. A race that can no
/// longer be won ends the game (RULINGS R9), so only the slowest random games of five
/// and six players reach it.
pub const ACTION_LIMIT: u32 = 20_000;

/// One random game on `map` (beyond the island: the beginner board).
pub fn play_random(players: usize, seed: u64, map: Map, buf: &mut Vec<Action>) -> GameResult {
    let options = super::options(players, map, Layout::Beginner);
    play_random_with(&options, players, seed, ACTION_LIMIT, buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random games of Catan Express are played to their end more often than not (a race
    /// that can no longer be won ends the game too: docs/catan-express.md), and the same
    /// seed plays the same game.
    #[test]
    fn random_express_games_end_and_repeat() {
        let mut buf = Vec::new();
        let (mut games, mut won) = (0, 0);
        for map in [Map::Island, Map::Beyond] {
            for players in [3, 4, 5, 6] {
                let mut here = 0;
                for seed in 0..6 {
                    let a = play_random(players, seed, map, &mut buf);
                    let b = play_random(players, seed, map, &mut buf);
                    assert_eq!(a, b);
                    games += 1;
                    if a.winner.is_some() {
                        won += 1;
                        here += 1;
                    }
                }
                assert!(here > 0, "{map:?}, {players} players: no game won");
            }
        }
        assert!(won * 2 > games, "{won} of {games} won");
    }
}
