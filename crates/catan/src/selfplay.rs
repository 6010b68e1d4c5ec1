//! Random legal-move self-play on the rules engine: every player picks uniformly among
//! the actions allowed at each step (as catanatron's random players do). Used by
//! `judge selfplay catan` and the benchmark (benches/catan_selfplay.rs).

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

/// Who plays a seat in [`play_bots`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bot {
    /// The greedy player ([`crate::bot::Player::Greedy`]): an order file for each of its
    /// steps, played by the judge's own resolver, as by mail.
    Greedy,
    /// The searching player, the judge's bot ([`crate::bot::Player::Search`]), played
    /// the same way.
    Search,
    /// Uniformly random legal actions on the rules engine, as [`play_random`] plays.
    Random,
}

impl Bot {
    /// The names `judge selfplay --bots` takes.
    pub const NAMES: [&'static str; 3] = ["greedy", "search", "random"];

    pub fn parse(name: &str) -> Option<Bot> {
        match name {
            "greedy" => Some(Bot::Greedy),
            "search" => Some(Bot::Search),
            "random" => Some(Bot::Random),
            _ => None,
        }
    }
}

/// Plays one game with `bots` on the seats, in seat order: a greedy seat's turn (or
/// founding placement) is one step of the judge's resolver with the file its bot
/// writes; a random seat's turn is random legal actions on the engine, including what
/// it asks of the other seats meanwhile (a discard on a 7). Stops after `limit` steps
/// and actions.
pub fn play_bots(
    options: &Options,
    bots: &[Bot],
    seed: u64,
    limit: u32,
    buf: &mut Vec<Action>,
) -> GameResult {
    let names: Vec<String> = (0..bots.len()).map(|i| format!("bot{i}")).collect();
    let Ok(mut s) = State::new("selfplay", &names, seed, options) else {
        return GameResult::default();
    };
    let mut choose = Rng::new(seed ^ 0x5EED_5EED_5EED_5EED);
    let mut actions = 0;
    while actions < limit && s.phase != Phase::Over {
        let seat = match s.phase {
            Phase::Founding { .. } => s.actor(),
            _ => s.active,
        };
        match bots.get(seat as usize).copied().unwrap_or(Bot::Random) {
            bot @ (Bot::Greedy | Bot::Search) => {
                let c = s.colour(seat);
                let player = if bot == Bot::Greedy {
                    crate::bot::Player::Greedy
                } else {
                    crate::bot::Player::Search
                };
                // A file that cannot be written is no file: the judge's defaults stand in.
                let text = crate::bot::orders_of(player, &s, c, None).unwrap_or_default();
                let files = std::collections::BTreeMap::from([(c, text)]);
                s = crate::play(&s, &files).state;
            }
            Bot::Random => {
                s.legal_actions(buf);
                if buf.is_empty() {
                    break;
                }
                let a = buf[choose.below(buf.len() as u32) as usize];
                s.execute(a, &mut ());
            }
        }
        actions += 1;
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
