//! The games a judge runs, as the program that registers them hands them down: the
//! pipeline finds the game an archive holds here, by the name `game.toml` gives it, and
//! never names a game itself.

use crate::error::GameError;
use crate::pbem::game::Game;

/// Every game the judge runs, the default first.
#[derive(Clone, Copy)]
pub struct Games(pub &'static [&'static dyn Game]);

impl Games {
    /// Every game, the default first.
    pub fn all(&self) -> &'static [&'static dyn Game] {
        self.0
    }

    /// The game `game.toml` names, or why there is none.
    pub fn by_id(&self, id: &str) -> Result<&'static dyn Game, GameError> {
        self.0
            .iter()
            .copied()
            .find(|g| g.id() == id)
            .ok_or_else(|| {
                let ids: Vec<&str> = self.0.iter().map(|g| g.id()).collect();
                GameError::input(format!("`{id}` is not a game this judge runs")).with_hint(
                    match crate::diagnostic::did_you_mean(id, ids.iter().copied()) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => format!("the games are {}", ids.join(", ")),
                    },
                )
            })
    }

    /// The game a new archive gets when none is asked for.
    pub fn default(&self) -> Option<&'static dyn Game> {
        self.0.first().copied()
    }

    /// The game a case file is for: its `[case] game`, or the default (whose cases
    /// came first and say nothing). `judge cases` and the test suite both run a case
    /// through it, so every game's cases go through one runner.
    pub fn of_case(&self, path: &std::path::Path) -> Result<&'static dyn Game, GameError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| GameError::input(format!("{}: {e}", path.display())))?;
        let id = toml::from_str::<toml::Table>(&text)
            .ok()
            .and_then(|t| t.get("case")?.get("game")?.as_str().map(str::to_string));
        match id {
            Some(id) => self
                .by_id(&id)
                .map_err(|e| e.context(format!("{}: [case] game", path.display()))),
            None => self.default().ok_or_else(|| {
                GameError::input(format!("{}: this judge runs no game", path.display()))
            }),
        }
    }
}
