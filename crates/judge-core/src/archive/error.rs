//! What can go wrong with a game's folder.

use std::path::PathBuf;

/// Why a path given as a game's folder is not one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotAGame {
    NoSuchFolder,
    AFile,
    NoGameFile,
}

#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("{0} already exists and is not an empty folder: choose a new folder for the game")]
    Exists(PathBuf),
    #[error("{}", match .why {
        NotAGame::NoSuchFolder => format!("there is no folder {}: name the folder of a game (judge new makes one)", .dir.display()),
        NotAGame::AFile => format!("{} is a file, not a game's folder: name the folder that holds game.toml", .dir.display()),
        NotAGame::NoGameFile => format!("{} is not a game's folder: it has no game.toml (judge new makes a game)", .dir.display()),
    })]
    NotAGame { dir: PathBuf, why: NotAGame },
    #[error(
        "{0} has no turn 0 yet: its set-up round by mail is still going (judge status shows it)"
    )]
    NoTurns(PathBuf),
    #[error(
        "{dir} has not begun: it is open for sign-up and {} (judge status shows the seats; the game begins when the last is taken)",
        if *.free == 1 { "a seat is free".to_string() } else { format!("{} seats are free", .free) }
    )]
    NotBegun { dir: PathBuf, free: usize },
    /// A file the judge wrote does not read back (damaged, or edited by hand).
    #[error("{path}: {message}")]
    BadFile { path: PathBuf, message: String },
    /// What the judge was to write into a file could not be put into words (a fault in
    /// the judge: it only writes what it can serialise).
    #[error("{path}: the judge could not write it: {message}")]
    Unwritable { path: PathBuf, message: String },
    #[error("turn {turn} is not in the archive {dir} ({})", if first == last { format!("it has only turn {first}") } else { format!("it has turns {first} to {last}") })]
    NoSuchTurn {
        dir: PathBuf,
        turn: u32,
        first: u32,
        last: u32,
    },
    #[error("turn {turn} is already in the archive {dir}; turns are never overwritten")]
    TurnExists { dir: PathBuf, turn: u32 },
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
    #[error(
        "{} is a symbolic link{}: the judge reads only the game's own files, never through a link (what it reads may be published, mailed or committed). Put the file itself there, or delete the link",
        path.display(),
        target.as_ref().map(|t| format!(" (to {})", t.display())).unwrap_or_default()
    )]
    Link {
        path: PathBuf,
        target: Option<PathBuf>,
    },
    /// A file a person wrote (game.toml) with what is wrong in it, line by line.
    #[error("{}", .0.render().trim_end())]
    Slips(Box<crate::diagnostic::Diagnostics>),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl ArchiveError {
    /// Whose the problem is: a file the judge wrote that does not read is a damaged
    /// archive; one it could not write, a fault of its own; a disk that failed may work
    /// later; the rest (a wrong folder, a turn not there, the GM's game.toml) the user's.
    pub fn kind(&self) -> crate::error::Kind {
        use crate::error::Kind;
        match self {
            ArchiveError::BadFile { .. } => Kind::Corrupt,
            ArchiveError::Unwritable { .. } => Kind::Internal,
            ArchiveError::Io { .. } => Kind::Later,
            ArchiveError::Exists(_)
            | ArchiveError::NotAGame { .. }
            | ArchiveError::NoTurns(_)
            | ArchiveError::NotBegun { .. }
            | ArchiveError::NoSuchTurn { .. }
            | ArchiveError::TurnExists { .. }
            | ArchiveError::Invalid { .. }
            | ArchiveError::Link { .. }
            | ArchiveError::Slips(_) => Kind::Input,
        }
    }
}
