//! What the archive records of the game's course (the pipeline's read
//! side): a played turn's record (`turn.json`), a step of the round by mail
//! (`step.json`), and what a run of the turn did. Read by the actions; it uses none of
//! them.

use std::collections::BTreeMap;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::layout::{SETUP_DIR, STEP_FILE};
use crate::archive::{Archive, ArchiveError, TURN_FILE};

/// What a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Done {
    /// The turn was played.
    Played(u32),
    /// The turn is not due yet: orders are still coming.
    NotDue { turn: u32, deadline: SystemTime },
    /// No schedule and no orders: nothing to play.
    NothingToPlay(u32),
    /// The game waits for the GM (`pause`) or for its free seats to be taken (sign-up):
    /// no deadline runs and nothing is played; why, in a sentence.
    Waiting(String),
    /// The turn (this one) is due, but mail delivered before its deadline still waits
    /// unread in the folder's shared mailbox: it is played by a pass that has read it
    /// (`InFolder::unread_since`).
    Held(u32),
    /// The game is over.
    Over,
}

/// Where a player's orders for a turn came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// The orders they sent (or that were held for this turn).
    Sent,
    /// Their standing orders: they sent none this turn.
    Standing,
    /// The game's bot played for them (`[absent] caretaker`): they sent none, and had
    /// no standing orders.
    Caretaker,
}

/// `turns/NNN/turn.json`: what a played turn records about itself, so that its report
/// can be made again exactly as it was sent, whatever the GM edits later.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The game's name the report used.
    pub game: String,
    /// The next deadline as the report showed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<String>,
    /// When it was played (kept for games played one player at a time, whose next
    /// deadline counts from it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_at: Option<String>,
    /// Where each player's orders came from.
    #[serde(default)]
    pub orders: BTreeMap<String, Source>,
    /// Whose orders the turn played, where the game tells it apart from the files that
    /// came in (a game played one player at a time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acted: Option<Vec<String>>,
    /// The GM ended the game here (`judge end`), with this reason: the turn plays
    /// nothing but the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// Whose orders the turn waited for and did not get (no orders sent, none standing),
    /// but for players on vacation: what `[absent] missed` counts (pbem::absent).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missed: Vec<String>,
    /// The seats whose players game.toml named anew before the turn (a
    /// replacement), seat → name: the turn is played, and reported, from the
    /// position before it with these names (`judge replay` renames it so too).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub renamed: BTreeMap<String, String>,
}

/// The record of a turn, if it has one (turns played before it was kept have none). A
/// record that is there and does not read is a damaged archive, not a missing record.
pub fn record(archive: &Archive, turn: u32) -> Result<Option<TurnRecord>, ArchiveError> {
    let text = match archive.read(turn, TURN_FILE) {
        Ok(text) => text,
        Err(ArchiveError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| ArchiveError::BadFile {
            path: archive.turn_dir(turn).join(TURN_FILE),
            message: e.to_string(),
        })
}

/// What a step of the round records about itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRecord {
    /// Whose step it was (none for the round as made).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The player missed the deadline and the game's default was taken.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_default: bool,
    /// What happened, as the report said it.
    #[serde(default)]
    pub summary: String,
    /// When it happened: each step's deadline counts from the step before.
    pub at: String,
}

pub fn step_dir(archive: &Archive, step: u32) -> std::path::PathBuf {
    archive.root().join(SETUP_DIR).join(format!("{step:03}"))
}

/// The steps of the round kept in the archive, in order.
pub fn steps(archive: &Archive) -> Vec<u32> {
    let mut v: Vec<u32> = std::fs::read_dir(archive.root().join(SETUP_DIR))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse().ok()))
        .collect();
    v.sort_unstable();
    v
}

/// The record of a step.
pub fn step_record(archive: &Archive, step: u32) -> Option<StepRecord> {
    let text = std::fs::read_to_string(step_dir(archive, step).join(STEP_FILE)).ok()?;
    serde_json::from_str(&text).ok()
}
