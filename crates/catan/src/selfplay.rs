//! Random legal-move self-play on the rules engine: every player picks uniformly among
//! the actions allowed at each step (as catanatron's random players do). Used by
//! `judge selfplay catan` and the benchmark (benches/catan_selfplay.rs). It knows no bot:
//! the judge's players against each other are `crate::bot::selfplay`.

use super::rng::Rng;
use super::rules::Action;
use super::state::{Options, Phase, State};

/// How one game went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameResult {
    /// The winner's seat, if someone won before the action limit.
    pub winner: Option<u8>,
    pub turns: u32,
    pub actions: u32,
}

/// Games stop after this many actions (a random game that stalls).
pub const ACTION_LIMIT: u32 = 20_000;

/// Plays one game of random legal moves: the game's dice from `seed`, the players'
/// choices from a stream of their own.
pub fn play_random(players: usize, seed: u64, buf: &mut Vec<Action>) -> GameResult {
    let options = Options {
        extension: players > 4,
        ..Options::default()
    };
    play_random_with(&options, players, seed, ACTION_LIMIT, buf)
}

/// Plays one game of random legal moves with these options (any variant), stopping
/// after `limit` actions.
pub fn play_random_with(
    options: &Options,
    players: usize,
    seed: u64,
    limit: u32,
    buf: &mut Vec<Action>,
) -> GameResult {
    let names: Vec<String> = (0..players).map(|i| format!("bot{i}")).collect();
    let Ok(mut s) = State::new("selfplay", &names, seed, options) else {
        return GameResult::default();
    };
    let mut choose = Rng::new(seed ^ 0x5EED_5EED_5EED_5EED);
    let mut actions = 0;
    while actions < limit {
        s.legal_actions(buf);
        if buf.is_empty() {
            break;
        }
        let a = buf[choose.below(buf.len() as u32) as usize];
        s.execute(a, &mut ());
        actions += 1;
        if s.phase == Phase::Over {
            break;
        }
    }
    GameResult {
        winner: s.winner,
        turns: s.turn,
        actions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random games finish with a winner, and the same seed plays the same game.
    #[test]
    fn random_games_end_and_repeat() {
        let mut buf = Vec::new();
        for players in [3, 4, 5, 6] {
            for seed in 0..10 {
                let a = play_random(players, seed, &mut buf);
                let b = play_random(players, seed, &mut buf);
                assert_eq!(a, b);
                assert!(a.winner.is_some(), "{players} players, seed {seed}: {a:?}");
            }
        }
    }
}
