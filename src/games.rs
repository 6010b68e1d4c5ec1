//! The games this judge runs. Everything outside a game's own folder finds it here, by the
//! name `game.toml` gives it; a new game adds one line.

use crate::pbem::game::Game;

/// Every game, the default first.
pub fn all() -> [&'static dyn Game; 3] {
    [
        &crate::roads_boats::game::RoadsAndBoats,
        &crate::catan::game::CATAN,
        &crate::catan::game::CATAN_EXPRESS,
    ]
}

/// The game `game.toml` names, or why there is none.
pub fn by_id(id: &str) -> Result<&'static dyn Game, String> {
    all().into_iter().find(|g| g.id() == id).ok_or_else(|| {
        let ids: Vec<&str> = all().iter().map(|g| g.id()).collect();
        let mut msg = format!("`{id}` is not a game this judge runs");
        match crate::diagnostic::did_you_mean(id, ids.iter().copied()) {
            Some(s) => msg.push_str(&format!("\nhelp: did you mean `{s}`?")),
            None => msg.push_str(&format!("\nhelp: the games are {}", ids.join(", "))),
        }
        msg
    })
}

/// The game a new archive gets when none is asked for.
pub fn default() -> &'static dyn Game {
    all()[0]
}
