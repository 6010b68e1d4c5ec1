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

/// The game a case file is for: its `[case] game`, or the default (Roads & Boats, whose
/// cases came first and say nothing). `judge cases` and the test suite both run a case
/// through it, so every game's cases go through one runner.
pub fn of_case(path: &std::path::Path) -> Result<&'static dyn Game, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let id = toml::from_str::<toml::Table>(&text)
        .ok()
        .and_then(|t| t.get("case")?.get("game")?.as_str().map(str::to_string));
    match id {
        Some(id) => by_id(&id).map_err(|e| format!("{}: [case] game: {e}", path.display())),
        None => Ok(default()),
    }
}
