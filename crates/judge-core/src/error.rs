//! What went wrong, and whose it is to fix: the one error type a game returns through its
//! interface ([`crate::pbem::game::Game`]) and the pipeline passes up to the command line,
//! which turns its [`Kind`] into an exit code in one place (`cli::Failure`).
//!
//! The message is for people, as every message of the judge is: it names the file, the
//! line and the word where it can, and says how to put it right. A hint that is likely
//! to help is kept apart ([`GameError::hints`], added by [`GameError::with_hint`] only),
//! so that the command line shows it as it shows every hint: `hint: …` on a line of its
//! own after the message.

use std::fmt;

/// Whose the problem is, which decides what the judge's exit code says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// What a player or the GM wrote (orders, a scenario, a command's arguments): they
    /// can fix it, and the message says how (exit 1).
    Input,
    /// A file the judge wrote into the archive cannot be read as it wrote it (damaged, or
    /// edited by hand): restore it from git (exit 5).
    Corrupt,
    /// A fault in the judge itself: a rule it cannot apply to a position it made. Not the
    /// user's to fix; worth a report (exit 6).
    Internal,
    /// Something outside the judge failed that may work later: a disk, a mail server
    /// down or silent (exit 3).
    Later,
}

impl Kind {
    /// How a command line names the kind, before the message.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Input | Kind::Later => "",
            Kind::Corrupt => "the game's archive is damaged: ",
            Kind::Internal => "a fault in the judge (please report it, with the game's folder): ",
        }
    }
}

/// A problem, its kind, and perhaps a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    pub kind: Kind,
    /// What is wrong, for people.
    pub message: String,
    /// What would likely put it right, when the judge can tell, in order.
    pub hints: Vec<String>,
}

impl GameError {
    pub fn new(kind: Kind, message: impl Into<String>) -> GameError {
        GameError {
            kind,
            message: message.into(),
            hints: Vec::new(),
        }
    }

    /// The player's or the GM's input is wrong.
    pub fn input(message: impl Into<String>) -> GameError {
        GameError::new(Kind::Input, message)
    }

    /// A file the judge wrote cannot be read back.
    pub fn corrupt(message: impl Into<String>) -> GameError {
        GameError::new(Kind::Corrupt, message)
    }

    /// The judge failed at its own work.
    pub fn internal(message: impl Into<String>) -> GameError {
        GameError::new(Kind::Internal, message)
    }

    /// The same problem, with one more hint.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> GameError {
        self.hints.push(hint.into());
        self
    }

    /// The same problem, its message after `what` (`turns/004/state.json: …`).
    #[must_use]
    pub fn context(mut self, what: impl fmt::Display) -> GameError {
        self.message = format!("{what}: {}", self.message);
        self
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        for hint in &self.hints {
            write!(f, "\nhint: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for GameError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_keeps_the_kind_and_the_hint() {
        let e = GameError::corrupt("expected a number at line 3")
            .with_hint("restore it with git checkout")
            .context("turns/004/state.json");
        assert_eq!(e.kind, Kind::Corrupt);
        assert_eq!(
            e.to_string(),
            "turns/004/state.json: expected a number at line 3\nhint: restore it with git checkout"
        );
    }
}
