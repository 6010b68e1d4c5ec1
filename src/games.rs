//! The games this judge runs: the one place that names them. The pipeline is handed
//! [`registry`] and finds each game there by the name `game.toml` gives it; a new game
//! is one crate and one line here.

use judge_core::pbem::game::Game;
use judge_core::registry::Games;

const ALL: &[&dyn Game] = &[
    &roads_boats::game::RoadsAndBoats,
    &catan::game::CATAN,
    &catan::game::CATAN_EXPRESS,
];

/// Every game, the default first.
pub fn registry() -> Games {
    Games(ALL)
}

/// Every game, the default first.
pub fn all() -> &'static [&'static dyn Game] {
    ALL
}

/// The game `game.toml` names, or why there is none.
pub fn by_id(id: &str) -> Result<&'static dyn Game, crate::error::GameError> {
    registry().by_id(id)
}

/// The game a new archive gets when none is asked for.
pub fn default() -> &'static dyn Game {
    ALL[0]
}

/// The game a case file is for (see [`Games::of_case`]).
pub fn of_case(path: &std::path::Path) -> Result<&'static dyn Game, crate::error::GameError> {
    registry().of_case(path)
}
