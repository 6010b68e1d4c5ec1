//! The games this judge runs. They are named once, in the order checker's list
//! ([`order_checker::GAMES`]: the checker in the player's browser knows the same games,
//! and cannot depend on the judge), and registered here: the pipeline is handed
//! [`registry`] and finds each game there by the name `game.toml` gives it; a new game
//! is one crate and one line in that list.

use judge_core::pbem::game::Game;
use judge_core::registry::Games;

const ALL: &[&dyn Game] = order_checker::GAMES;

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

/// The first line of `judge --help`: what the judge runs, from the games' own titles.
pub fn about() -> String {
    let titles: Vec<&str> = ALL.iter().map(|g| g.title()).collect();
    format!("A play-by-email judge for {}.", in_words(&titles, "and"))
}

/// The help of a `--game` option: each game's name, the default first.
pub fn game_help() -> String {
    let ids: Vec<String> = ALL
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let default = if i == 0 { ", the default" } else { "" };
            format!("`{}` ({}{default})", g.id(), g.title())
        })
        .collect();
    format!("The game: {}", in_words(&ids, "or"))
}

/// The help of `judge selfplay`'s argument: the self-play each game offers.
pub fn selfplay_help() -> String {
    let kinds: Vec<String> = ALL
        .iter()
        .flat_map(|g| g.selfplay())
        .map(|k| format!("`{}` for {}", k.id, k.title))
        .collect();
    format!("What to play: {}", in_words(&kinds, "or"))
}

/// `a, b and c`.
fn in_words<S: AsRef<str>>(items: &[S], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., end] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} {last} {}", rest.join(", "), end.as_ref())
        }
    }
}
