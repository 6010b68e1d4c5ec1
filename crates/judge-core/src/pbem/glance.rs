//! One game at a glance, for a folder of games (`judge status --all`, the folder's
//! site): its turn, what it waits for, its deadline, whose orders are missing where
//! everyone may know it, and the mail in its outbox. Read from the last turn's files
//! alone (never a replay), so a folder of hundreds of games is read in a moment. The
//! pipeline's read side: it uses none of the actions.

use std::time::SystemTime;

use serde::Serialize;

use super::error::Error;
use super::game::{Game, OrderFile};
use crate::archive::{Archive, STANDING_DIR};

/// Where a game stands, in a word and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", content = "why", rename_all = "kebab-case")]
pub enum Stage {
    /// Open for sign-up: seats are free (and the game may not have begun).
    Open(String),
    /// The GM paused it.
    Paused(String),
    /// The round by mail before turn 1 (homes, bids).
    Setup,
    /// Turns are played.
    Playing,
    /// The game is over, and why.
    Over(String),
}

impl Stage {
    /// The word a table shows.
    pub fn word(&self) -> &'static str {
        match self {
            Stage::Open(_) => "open",
            Stage::Paused(_) => "paused",
            Stage::Setup => "set-up",
            Stage::Playing => "playing",
            Stage::Over(_) => "over",
        }
    }
}

/// Whose orders the next turn still waits for, as everyone may know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "missing", content = "seats", rename_all = "kebab-case")]
pub enum Missing {
    /// Nobody's: the game is over, waits, or has everything it needs.
    None,
    /// These seats' (a game that makes it public whose orders are in).
    Seats(Vec<String>),
    /// The game tells each player only whether their own orders are in.
    Private,
}

/// One game of a folder, at a glance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Glance {
    /// The game's folder name.
    pub name: String,
    /// Its game's id ([`Game::id`]): its family.
    pub family: String,
    /// Turns played (none before turn 0).
    pub turn: Option<u32>,
    #[serde(flatten)]
    pub stage: Stage,
    /// When the next orders are due, if a deadline runs (RFC 3339).
    pub deadline: Option<String>,
    /// The deadline as the judge's answers show it.
    #[serde(skip)]
    pub due: Option<SystemTime>,
    #[serde(flatten)]
    pub missing: Missing,
    /// Mails waiting in the game's outbox.
    pub outbox: usize,
}

/// `archive` at a glance.
pub fn glance(archive: &Archive, game: &dyn Game) -> Result<Glance, Error> {
    let outbox = crate::mail::outbox::waiting(archive).len();
    let mut row = Glance {
        name: archive.name().to_string(),
        family: game.id().to_string(),
        turn: None,
        stage: Stage::Playing,
        deadline: None,
        due: None,
        missing: Missing::None,
        outbox,
    };
    let waits = super::stage::waiting(archive);
    if !super::stage::started(archive) {
        row.stage = Stage::Open(waits.unwrap_or_default());
        return Ok(row);
    }
    if let Some(why) = waits {
        row.stage = if archive.game.paused.is_some() {
            Stage::Paused(why)
        } else {
            Stage::Open(why)
        };
    }
    let public = game.orders_in_public();
    if let Some((last, round)) = super::stage::round_standing(archive, game)? {
        if row.stage == Stage::Playing {
            row.stage = Stage::Setup;
            row.due = super::due::round_deadline(archive, last)?;
            // Whose choice the round waits for is what every seat's round mail says.
            row.missing = match round.next() {
                Some(seat) => Missing::Seats(vec![seat]),
                None => Missing::None,
            };
        }
        row.deadline = row.due.map(rfc3339);
        return Ok(row);
    }
    let state = super::stage::current(archive, game)?;
    row.turn = Some(state.turn());
    if let Some(why) = state.over() {
        row.stage = Stage::Over(why);
        return Ok(row);
    }
    if row.stage != Stage::Playing {
        return Ok(row);
    }
    let next = state.turn() + 1;
    row.due = super::due::deadline(archive, game, next)?;
    row.deadline = row.due.map(rfc3339);
    if !public {
        row.missing = Missing::Private;
        return Ok(row);
    }
    let files: Vec<OrderFile> = archive
        .files_in(&archive.pending_dir())?
        .into_iter()
        .map(|(name, text)| OrderFile {
            player: name.strip_suffix(".txt").unwrap_or(&name).to_string(),
            text,
        })
        .collect();
    let standing = |id: &str| {
        archive
            .root()
            .join(STANDING_DIR)
            .join(format!("{id}.txt"))
            .is_file()
    };
    let missing: Vec<String> = state
        .awaited(&files)
        .into_iter()
        .filter(|id| !standing(id))
        .collect();
    row.missing = if missing.is_empty() {
        Missing::None
    } else {
        Missing::Seats(missing)
    };
    Ok(row)
}

fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}
