//! The play-by-email loop, the same for every game: mail in ([`intake`]), a turn played
//! ([`turn`]), reports and answers out ([`send`]), and the archive checked again
//! ([`replay`]). Each step is a function over the archive that a GM may run alone; the
//! command line only calls them. A game is known here only through [`game::Game`].

pub mod game;
pub mod intake;
pub mod limits;
pub mod log;
pub mod replay;
pub mod report;
pub mod send;
pub mod sources;
pub mod turn;

use crate::archive::{Archive, ArchiveError, STATE_FILE};
use crate::mail::outbox::MailError;
use game::{Game, Position};

/// What went wrong in a pipeline step.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Something the GM or a player can fix; the message says how.
    #[error("{0}")]
    User(String),
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    #[error(transparent)]
    Mail(#[from] MailError),
}

/// An archive and the game it holds.
pub fn open(dir: &std::path::Path) -> Result<(Archive, &'static dyn Game), Error> {
    let archive = Archive::open(dir)?;
    let game = crate::games::by_id(&archive.game.game).map_err(|e| {
        Error::User(format!(
            "{}: {e}",
            dir.join(crate::archive::GAME_FILE).display()
        ))
    })?;
    Ok((archive, game))
}

/// The position a turn of the archive holds.
pub fn position(archive: &Archive, game: &dyn Game, turn: u32) -> Result<Box<dyn Position>, Error> {
    let text = archive.read(turn, STATE_FILE)?;
    game.position(&text).map_err(|e| {
        Error::User(format!(
            "{}: {e}",
            archive.turn_dir(turn).join(STATE_FILE).display()
        ))
    })
}
