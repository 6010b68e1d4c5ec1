//! Roads & Boats' random numbers: the judge's one generator ([`judge_core::luck::Rng`]), and
//! the streams of a game's secret seed its hidden draws come from
//! ([`judge_core::luck::Luck::draws`]).
//!
//! | stream | step | draws |
//! |---|---|---|
//! | [`ORDER`] | 0 | the move order (a shuffle of the seats, unless the scenario fixes it), then a jumpstart auction's starting bidder |
//! | [`MINES`] | the turn being played | each random mine draw (`mine_draw = "random"`), in the order production reaches the mines |
//!
//! A random map (`judge new --map random`) is public: it comes from the game's public
//! seed (`Rng::new(seed)`).

pub use judge_core::luck::Rng;

/// The move order and the auction's starting bidder: stream 0, at step 0.
pub const ORDER: u64 = 0;
/// Random mine draws: stream 1, at the turn's number.
pub const MINES: u64 = 1;
