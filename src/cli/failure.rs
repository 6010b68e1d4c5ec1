//! What went wrong, by kind: the kind decides the exit code, and the exit codes' one
//! table ([`EXIT_TABLE`]), from which `--help` says them and against which
//! docs/architecture.md's table is checked.

/// What an exit code says, by name: the rows of [`EXIT_TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Exit {
    Done,
    Input,
    Usage,
    Later,
    Busy,
    Damaged,
    Fault,
}

impl Exit {
    /// Every exit, in the table's order.
    pub const ALL: [Exit; 7] = [
        Exit::Done,
        Exit::Input,
        Exit::Usage,
        Exit::Later,
        Exit::Busy,
        Exit::Damaged,
        Exit::Fault,
    ];

    /// Its row of [`EXIT_TABLE`] (tests/judge_core/cli.rs proves each has one).
    pub fn row(self) -> &'static ExitCode {
        EXIT_TABLE
            .iter()
            .find(|row| row.exit == self)
            .unwrap_or(&EXIT_TABLE[1])
    }

    /// The number the judge exits with.
    pub fn code(self) -> i32 {
        self.row().code
    }
}

/// One exit code of the judge: its number, a short name, and what it tells a script,
/// line by line as `--help` prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExitCode {
    pub exit: Exit,
    pub code: i32,
    pub name: &'static str,
    pub meaning: &'static [&'static str],
}

/// The judge's exit codes, the one place they are written: `--help` prints them
/// ([`exit_codes`]), docs/architecture.md's table must say the same, and
/// [`Failure::exit_code`] takes its numbers from here by [`Exit`].
pub const EXIT_TABLE: [ExitCode; 7] = [
    ExitCode {
        code: 0,
        exit: Exit::Done,
        name: "done",
        meaning: &["done, or nothing to do yet (say, a turn that is not due)"],
    },
    ExitCode {
        code: 1,
        exit: Exit::Input,
        name: "input",
        meaning: &[
            "your input needs fixing: the message says what and how (also when the",
            "mail server refused a mail for good: judge status lists it; and a mail",
            "server's login refused, its certificate not trusted, TLS set wrong)",
        ],
    },
    ExitCode {
        code: 2,
        exit: Exit::Usage,
        name: "usage",
        meaning: &["the command line itself was wrong (see --help)"],
    },
    ExitCode {
        code: 3,
        exit: Exit::Later,
        name: "later",
        meaning: &[
            "something failed that may work later (a disk, a mail server down, silent",
            "or dropped): try again;",
            "also when the work is done but mail that could not be sent waits in the",
            "outbox (the next judge turn or judge mail sends it)",
        ],
    },
    ExitCode {
        code: 4,
        exit: Exit::Busy,
        name: "busy",
        meaning: &["another judge command is changing the game: try again later"],
    },
    ExitCode {
        code: 5,
        exit: Exit::Damaged,
        name: "damaged",
        meaning: &[
            "a file the judge wrote into the game's archive does not read (damaged, or",
            "edited by hand): the message names it; restore it from git",
        ],
    },
    ExitCode {
        code: 6,
        exit: Exit::Fault,
        name: "fault",
        meaning: &["a fault in the judge itself: please report it, with the game's folder"],
    },
];

/// The exit codes as `--help` prints them, made from [`EXIT_TABLE`].
pub fn exit_codes() -> String {
    let mut text = String::from("Exit status (for scripts and cron):");
    for row in &EXIT_TABLE {
        for (i, line) in row.meaning.iter().enumerate() {
            if i == 0 {
                text.push_str(&format!("\n  {}  {line}", row.code));
            } else {
                text.push_str(&format!("\n     {line}"));
            }
        }
    }
    text
}

/// What went wrong, as the command line tells it (jj's `CommandError`): the kind, which
/// decides the exit code by [`EXIT_TABLE`]; the error, for people; and hints that are
/// likely to put it right, printed `hint: …` each on a line after the message. Every
/// error of the library turns into one here, in one place (the `From` impls below), and
/// [`Failure::with_hint`] is the one way to add a hint.
#[derive(Debug)]
pub struct Failure {
    /// Which row of the table the judge exits with.
    pub kind: Exit,
    /// What went wrong (empty when the command has printed its own report).
    pub error: anyhow::Error,
    /// What would likely put it right, in order.
    pub hints: Vec<String>,
}

/// A command that has printed its own report exits with a kind and says nothing more.
#[derive(Debug, thiserror::Error)]
#[error("")]
struct Reported;

impl Failure {
    /// A failure of this kind.
    pub fn new(kind: Exit, error: impl Into<anyhow::Error>) -> Failure {
        Failure {
            kind,
            error: error.into(),
            hints: Vec::new(),
        }
    }

    /// The user's input was wrong; the message says how (exit 1).
    pub fn user(message: String) -> Failure {
        Failure::new(Exit::Input, anyhow::Error::msg(message))
    }

    /// Something failed that may work later (exit 3).
    pub fn later(error: anyhow::Error) -> Failure {
        Failure::new(Exit::Later, error)
    }

    /// Another judge command holds the game (exit 4).
    pub fn busy(message: String) -> Failure {
        Failure::new(Exit::Busy, anyhow::Error::msg(message))
    }

    /// The command has printed its own report: exit as `kind` says, with no message.
    pub fn reported(kind: Exit) -> Failure {
        Failure::new(kind, Reported)
    }

    /// The same failure, with one more hint.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Failure {
        self.hints.push(hint.into());
        self
    }

    /// A game's problem with the value of a command-line option (`--game x`): its words
    /// after the option's name, its kind and its hints kept.
    pub fn of_option(option: &str, e: crate::error::GameError) -> Failure {
        crate::error::GameError {
            message: format!("{option} {}", e.message),
            ..e
        }
        .into()
    }

    pub fn exit_code(&self) -> i32 {
        self.kind.code()
    }

    /// Output cut off by a reader that stopped reading (`judge status | head -1`): not
    /// a failure of the judge.
    pub fn is_closed_pipe(&self) -> bool {
        self.error.chain().any(|c| {
            c.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        })
    }
}

/// The kind's label (a damaged archive, a fault in the judge), the message, then each
/// hint on a line of its own: `hint: …`.
impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let label = match self.kind {
            Exit::Damaged => crate::error::Kind::Corrupt.label(),
            Exit::Fault => crate::error::Kind::Internal.label(),
            _ => "",
        };
        write!(f, "{label}{}", self.error)?;
        for hint in &self.hints {
            write!(f, "\nhint: {hint}")?;
        }
        Ok(())
    }
}

/// Anything else fails in a way that may work later (a disk, output that cannot be
/// written).
impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::later(e)
    }
}

impl From<crate::archive::lock::LockError> for Failure {
    fn from(e: crate::archive::lock::LockError) -> Self {
        use crate::archive::lock::LockError as E;
        match e {
            E::Busy { .. } => Failure::busy(e.to_string()),
            E::Link { .. } => Failure::user(e.to_string()),
            E::Io { .. } => Failure::later(e.into()),
        }
    }
}

/// The exit of a kind of problem: the one place a kind becomes an exit code.
fn exit_of(kind: crate::error::Kind) -> Exit {
    match kind {
        crate::error::Kind::Input => Exit::Input,
        crate::error::Kind::Corrupt => Exit::Damaged,
        crate::error::Kind::Internal => Exit::Fault,
        crate::error::Kind::Later => Exit::Later,
    }
}

impl From<crate::archive::ArchiveError> for Failure {
    fn from(e: crate::archive::ArchiveError) -> Self {
        Failure::new(exit_of(e.kind()), e)
    }
}

impl From<crate::mail::outbox::MailError> for Failure {
    fn from(e: crate::mail::outbox::MailError) -> Self {
        Failure::new(exit_of(e.kind()), e)
    }
}

/// A game's or the pipeline's problem keeps its kind, its words and its hints.
impl From<crate::error::GameError> for Failure {
    fn from(mut e: crate::error::GameError) -> Self {
        let hints = std::mem::take(&mut e.hints);
        Failure {
            kind: exit_of(e.kind),
            error: e.into(),
            hints,
        }
    }
}

impl From<crate::pbem::Error> for Failure {
    fn from(e: crate::pbem::Error) -> Self {
        match e {
            crate::pbem::Error::Game(g) => g.into(),
            e => Failure::new(exit_of(e.kind()), e),
        }
    }
}
