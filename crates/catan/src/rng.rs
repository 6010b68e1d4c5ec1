//! Catan's random numbers: the judge's one generator ([`judge_core::luck::Rng`]), and the
//! streams of a game's secret seed that each kind of hidden draw comes from
//! ([`judge_core::luck::Luck::draws`]).
//!
//! | stream | step | draws |
//! |---|---|---|
//! | [`ROLLS`] | the turn (1 = the first player's first turn) | two dice, 1–6 each |
//! | [`STEALS`] | the turn × 256 + the steals before it that turn | which card of the victim's hand (wood, brick, wool, grain, ore order) |
//! | [`DECK`] | 0 | the development deck's shuffle (drawn from the end) |
//! | [`FIRST`] | 0 | the first player (below the number of players) |
//!
//! The board is public: it comes from the game's public seed (`Rng::new(seed)`).

pub use judge_core::luck::Rng;

/// The dice: stream 1, at the turn's number.
pub const ROLLS: u64 = 1;
/// Stolen cards: stream 2.
pub const STEALS: u64 = 2;
/// The development deck: stream 3, at step 0.
pub const DECK: u64 = 3;
/// The first player: stream 4, at step 0.
pub const FIRST: u64 = 4;
