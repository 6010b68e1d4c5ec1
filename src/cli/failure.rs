//! What went wrong, by kind: the kind decides the exit code.

/// What went wrong, by kind: the kind decides the exit code.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The user's input was wrong; the message says how.
    #[error("{0}")]
    User(String),
    /// A game's or the pipeline's problem, of a kind (the input, a damaged archive, a
    /// fault in the judge).
    #[error("{}{}", .0.kind.label(), .0)]
    Game(crate::error::GameError),
    /// The command has printed its own report; exit with this code.
    #[error("")]
    Reported(i32),
    /// Another judge command holds the game.
    #[error("{0}")]
    Busy(String),
    /// Anything else.
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl Failure {
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::User(_) => 1,
            Failure::Game(e) => match e.kind {
                crate::error::Kind::Input => 1,
                crate::error::Kind::Corrupt => 5,
                crate::error::Kind::Internal => 6,
            },
            Failure::Reported(code) => *code,
            Failure::Other(_) => 3,
            Failure::Busy(_) => 4,
        }
    }

    /// Output cut off by a reader that stopped reading (`judge status | head -1`): not
    /// a failure of the judge.
    pub fn is_closed_pipe(&self) -> bool {
        match self {
            Failure::Other(e) => e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }),
            _ => false,
        }
    }
}

impl From<crate::archive::lock::LockError> for Failure {
    fn from(e: crate::archive::lock::LockError) -> Self {
        use crate::archive::lock::LockError as E;
        match e {
            E::Busy { .. } => Failure::Busy(e.to_string()),
            E::Link { .. } => Failure::User(e.to_string()),
            E::Io { .. } => Failure::Other(e.into()),
        }
    }
}

impl From<crate::archive::ArchiveError> for Failure {
    fn from(e: crate::archive::ArchiveError) -> Self {
        use crate::archive::ArchiveError as E;
        match e {
            E::Io { .. } => Failure::Other(e.into()),
            _ => Failure::User(e.to_string()),
        }
    }
}

impl From<crate::error::GameError> for Failure {
    fn from(e: crate::error::GameError) -> Self {
        Failure::Game(e)
    }
}

impl From<crate::pbem::Error> for Failure {
    fn from(e: crate::pbem::Error) -> Self {
        use crate::pbem::Error as E;
        match e {
            E::Game(g) => Failure::Game(g),
            // git that cannot be run may run later; git that refuses is the GM's to fix.
            E::Git(e @ crate::archive::git::GitError::Run(_)) => Failure::Other(e.into()),
            E::Git(e) => Failure::User(e.to_string()),
            E::Archive(a) => a.into(),
            // The mailbox down, silent or dropped: it may work later (issue 39, point 13).
            E::MailboxDown(m) => Failure::Other(anyhow::anyhow!(m)),
            E::Mail(crate::mail::outbox::MailError::Archive(a)) => a.into(),
            E::Mail(crate::mail::outbox::MailError::Send(m)) => Failure::Other(anyhow::anyhow!(m)),
            E::Mail(m) => Failure::User(m.to_string()),
        }
    }
}
