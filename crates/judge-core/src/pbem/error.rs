//! What went wrong in a pipeline step: the one error every step of the pipeline returns
//! (its own file, so that the read side and the actions both name it
//! without naming each other).

use crate::archive::ArchiveError;
use crate::mail::outbox::MailError;

/// What went wrong in a pipeline step.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A problem of a kind: the player's or the GM's input (the message says how to fix
    /// it), a damaged archive, or a fault in the judge.
    #[error("{0}")]
    Game(#[from] crate::error::GameError),
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    #[error(transparent)]
    Mail(#[from] MailError),
    #[error(transparent)]
    Git(#[from] crate::archive::git::GitError),
    /// The mailbox's server cannot be read now (down, silent, dropped): it may work
    /// later (exit 3). The settings' faults are [`Error::Game`] input errors.
    #[error("{0}")]
    MailboxDown(String),
}

#[cfg(feature = "shell")]
impl From<crate::mail::imap::ImapError> for Error {
    fn from(e: crate::mail::imap::ImapError) -> Self {
        if e.is_settings() {
            Error::input(e.to_string())
        } else {
            Error::MailboxDown(e.to_string())
        }
    }
}

impl Error {
    /// Whose the problem is, which decides the exit code: git that cannot be run, or a
    /// mailbox down, may work later; git that refuses is the GM's to fix.
    pub fn kind(&self) -> crate::error::Kind {
        use crate::error::Kind;
        match self {
            Error::Game(g) => g.kind,
            Error::Archive(a) => a.kind(),
            Error::Mail(m) => m.kind(),
            Error::Git(crate::archive::git::GitError::Run(_)) | Error::MailboxDown(_) => {
                Kind::Later
            }
            Error::Git(_) => Kind::Input,
        }
    }

    /// Something the GM or a player can fix; the message says how.
    pub fn input(message: impl Into<String>) -> Error {
        Error::Game(crate::error::GameError::input(message))
    }
}
