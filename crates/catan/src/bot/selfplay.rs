//! The judge's players against each other (`judge selfplay catan --bots`): a game with a
//! player on each seat — greedy, searching or random — each greedy or searching seat's
//! step played by the judge's own resolver with the file its player writes, as by mail.
//! It builds on the random self-play of the rules engine (`crate::selfplay`), which
//! knows no bot.

use crate::rng::Rng;
use crate::rules::Action;
use crate::selfplay::GameResult;
use crate::state::{Options, Phase, State};

/// Who plays a seat in [`play_bots`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bot {
    /// The greedy player ([`crate::bot::Player::Greedy`]): an order file for each of
    /// its steps, played by the judge's own resolver, as by mail.
    Greedy,
    /// The searching player, the judge's bot ([`crate::bot::Player::Search`]), played
    /// the same way.
    Search,
    /// Uniformly random legal actions on the rules engine, as
    /// [`crate::selfplay::play_random`] plays.
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
                    super::greedy::Player::Greedy
                } else {
                    super::greedy::Player::Search
                };
                // A file that cannot be written is no file: the judge's defaults stand in.
                let text = super::orders_of(player, &s, c, None).unwrap_or_default();
                let files = std::collections::BTreeMap::from([(c, text)]);
                s = crate::orders::resolve::play(&s, &files).state;
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
