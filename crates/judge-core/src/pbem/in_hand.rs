//! The orders the next turn has in hand (the pipeline's read side):
//! the files waiting in `pending/`, one per player, and the standing orders of those who
//! sent none; and whom a turn played early still waits for. Read by the turn and by
//! `status`; it uses none of the pipeline's actions but the absences' ledger.

use std::collections::BTreeMap;
use std::time::SystemTime;

use super::error::Error;
use super::game::{Game, Mismatch, OrderFile, Pace, Position};
use super::record::Source;
use crate::archive::{Archive, STANDING_DIR};
use crate::text::decode;

/// The order files waiting for the next turn, one per player: a player's own file
/// (`pending/red.txt`) or one whose `player` line names them; a second file for the same
/// player is refused (and left where it is). Players who sent none play their standing
/// orders, if they have some.
pub fn gather(
    archive: &Archive,
    state: &dyn Position,
    turn: u32,
    lines: &mut Vec<String>,
) -> Result<Vec<(String, OrderFile, Source)>, Error> {
    let mut chosen: BTreeMap<String, (String, OrderFile)> = BTreeMap::new();
    let mut names: Vec<String> = std::fs::read_dir(archive.pending_dir())
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_file() || e.file_type().is_ok_and(|t| t.is_symlink()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    // A player's own file first, so that it wins over others naming them.
    names.sort_by_key(|n| {
        let stem = n.strip_suffix(".txt").unwrap_or(n);
        (!state.seats().iter().any(|s| s.id == stem), n.clone())
    });
    for name in names {
        let path = archive.pending_dir().join(&name);
        // A link is never played: its file would be published with the turn.
        if let Err(e) = archive.no_link(&path) {
            lines.push(format!("refused pending/{name}: {e}"));
            continue;
        }
        let bytes = match super::limits::read_order_file(&path) {
            Ok(b) => b,
            Err(e) => {
                lines.push(format!("refused pending/{name}: {e}"));
                continue;
            }
        };
        let (text, note) = decode(&bytes);
        if let Some(why) = super::limits::too_big(&text) {
            lines.push(format!("refused pending/{name}: {why}"));
            continue;
        }
        if let Some(n) = note {
            let whose = state
                .header(&text)
                .player
                .unwrap_or_else(|| name.strip_suffix(".txt").unwrap_or(&name).to_string());
            lines.push(format!("pending/{name} ({whose}'s orders): {n}"));
        }
        match order_file(&name, &text, state, turn) {
            Ok(f) => {
                if let Some((first, _)) = chosen.get(&f.player) {
                    lines.push(format!(
                        "refused pending/{name}: it is a second file for {}; only pending/{first} is played (delete one of them)",
                        f.player
                    ));
                    continue;
                }
                chosen.insert(f.player.clone(), (name, f));
            }
            Err(why) => lines.push(format!("skipped pending/{name}: {why}")),
        }
    }
    let mut out: Vec<(String, OrderFile, Source)> = chosen
        .into_values()
        .map(|(name, f)| (name, f, Source::Sent))
        .collect();
    for seat in state.seats() {
        if out.iter().any(|(_, f, _)| f.player == seat.id) {
            continue;
        }
        let path = archive
            .root()
            .join(STANDING_DIR)
            .join(format!("{}.txt", seat.id));
        if let Some(bytes) = archive.read_own(&path)? {
            out.push((
                String::new(),
                OrderFile {
                    player: seat.id.clone(),
                    text: decode(&bytes).0,
                },
                Source::Standing,
            ));
        }
    }
    out.sort_by(|a, b| a.1.player.cmp(&b.1.player));
    Ok(out)
}

/// Whom a turn played together still waits for before `early = true` plays it, and
/// why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EarlyWait {
    /// The players the turn waits for.
    pub waits_for: Vec<String>,
    /// Those of them who have standing orders (played at the deadline unless they send
    /// new ones): early play waits for orders sent, as they may still send some.
    pub standing: Vec<String>,
}

impl EarlyWait {
    /// Why an early turn waits, when it waits only for players with standing orders:
    /// a line for the GM and for `status`.
    pub fn why(&self, next: u32) -> Option<String> {
        (!self.waits_for.is_empty() && self.waits_for == self.standing).then(|| {
            format!(
                "turn {next} waits for its deadline: {} {} standing orders, played then unless new orders come first (with `early = true` a turn is played before its deadline once every player has sent orders or is on vacation with standing orders)",
                self.standing.join(", "),
                if self.standing.len() == 1 { "has" } else { "have" }
            )
        })
    }
}

/// Whom an early turn waits for: everyone `waiting` but a player on vacation whose
/// standing orders will be played (they will send none: their standing orders are
/// what they chose).
pub fn early_wait(
    archive: &Archive,
    waiting: &[String],
    standing: &[String],
    now: SystemTime,
) -> Result<EarlyWait, Error> {
    let ledger = super::absent::Ledger::load(archive)?;
    let waits_for: Vec<String> = waiting
        .iter()
        .filter(|p| !(standing.contains(p) && ledger.on_vacation(p, now)))
        .cloned()
        .collect();
    let standing = waits_for
        .iter()
        .filter(|p| standing.contains(p))
        .cloned()
        .collect();
    Ok(EarlyWait {
        waits_for,
        standing,
    })
}

/// With `early = true`, why the next turn still waits for its deadline, if it waits
/// only for players with standing orders (for `judge status` and `status` by mail).
pub fn early_note(
    archive: &Archive,
    game: &dyn Game,
    state: &dyn Position,
    now: SystemTime,
) -> Result<Option<String>, Error> {
    if game.pace() != Pace::Together || !archive.game.schedule.as_ref().is_some_and(|s| s.early) {
        return Ok(None);
    }
    let next = state.turn() + 1;
    let files = gather(archive, state, next, &mut Vec::new())?;
    let sent: Vec<OrderFile> = files
        .iter()
        .filter(|(_, _, s)| *s == Source::Sent)
        .map(|(_, f, _)| f.clone())
        .collect();
    let standing: Vec<String> = files
        .iter()
        .filter(|(_, _, s)| *s == Source::Standing)
        .map(|(_, f, _)| f.player.clone())
        .collect();
    let waiting = state.awaited(&sent);
    Ok(early_wait(archive, &waiting, &standing, now)?
        .why(next)
        .map(|why| format!("T{}.", why.strip_prefix('t').unwrap_or(&why))))
}

/// Why a pending order file is skipped this turn: whose it is cannot be told, or it is
/// for another turn (the GM is told, in the turn's lines).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum OrderFileError {
    #[error("the file is named for {seat} but says `player {said}`")]
    NamedForAnother { seat: String, said: String },
    #[error("name the file after the player's seat, or give a `player` line")]
    Whose,
    #[error("{0} does not play in this game")]
    NotPlaying(String),
    #[error("the orders are for turn {said}, and turn {next} is next")]
    OtherTurn { said: u32, next: u32 },
}

/// Whose orders a pending file holds (its name, `red.txt`, or its `player` line), and
/// whether they are for this turn.
fn order_file(
    name: &str,
    text: &str,
    state: &dyn Position,
    turn: u32,
) -> Result<OrderFile, OrderFileError> {
    let header = state.header(text);
    let stem = name.strip_suffix(".txt").unwrap_or(name);
    let seats = state.seats();
    let by_name = seats.iter().find(|s| s.id.eq_ignore_ascii_case(stem));
    let player = match (&header.player, by_name) {
        (Some(h), Some(f)) if !h.eq_ignore_ascii_case(&f.id) => {
            return Err(OrderFileError::NamedForAnother {
                seat: f.id.clone(),
                said: h.clone(),
            });
        }
        (Some(p), _) => p.to_ascii_lowercase(),
        (None, Some(f)) => f.id.clone(),
        (None, None) => {
            return Err(OrderFileError::Whose);
        }
    };
    if !seats.iter().any(|s| s.id == player) {
        return Err(OrderFileError::NotPlaying(player));
    }
    let late_or_early = header
        .mismatches(None, None, state)
        .into_iter()
        .find_map(|m| match m {
            Mismatch::EarlierTurn(t) | Mismatch::LaterTurn(t) => Some(t),
            _ => None,
        });
    if let Some(t) = late_or_early {
        return Err(OrderFileError::OtherTurn {
            said: t,
            next: turn,
        });
    }
    Ok(OrderFile {
        player,
        text: text.to_string(),
    })
}
