//! Press: messages between players, relayed by the judge (docs/mail-commands.md,
//! `press`). Each is kept as a file of its own, named by what it says (a digest of its
//! sender as shown, its reader and its text), never by the mail it came in, its order
//! or its time:
//!
//! ```text
//! press/004/3f9c0a…e1.txt           press to everyone while turn 4's orders were due:
//!                                   the public record, committed, and printed at the end
//!                                   of turn 4's report
//! mail/press/7d21…90-red-blue.txt   private press: kept out of git with the mail, for
//!                                   the GM; its sender and receiver have it by mail
//! mail/press/waiting/5e0b…c4.json   anonymous press, held until the hour is out
//! ```
//!
//! A file holds the sender as shown (the seat and name, or `anonymous`) on its first
//! line, then the text.
//!
//! Anonymous press is not relayed at once: it waits for the first run after the hour
//! it came in is out, and goes with all the anonymous press of that hour, kept in the
//! record of the turn then due. So neither a number, nor an order,
//! nor a time ties it to the sender's other mail — what a relay at once would do, the
//! mail's named press and orders going out in the same second.
//!
//! The GM's notices to everyone (a seat taken over by a new player: `judge replace`)
//! are kept the same way, in `notices/NNN/`, and printed before the press.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::error::Error;
pub use super::layout::{NOTICES_DIR, PRIVATE_DIR, PUBLIC_DIR, WAITING_DIR};
use crate::archive::{Archive, ArchiveError, atomic};
use crate::mail::outbox::{self, Outgoing};

/// The sender of a press message as its readers see it.
pub fn signed(seat: &str, name: &str, anonymous: bool) -> String {
    if anonymous {
        "anonymous".to_string()
    } else if name.trim().is_empty() {
        seat.to_string()
    } else {
        format!("{seat} ({name})")
    }
}

/// A message's name: a digest of what it says, and nothing else.
fn name_of(from_shown: &str, to: Option<&str>, text: &str) -> String {
    let digest =
        super::sources::digest(format!("{from_shown}\n{}\n{text}", to.unwrap_or("all")).as_bytes());
    digest[..24.min(digest.len())].to_string()
}

/// Keep a message: to everyone (`to` None) in the public record of turn `turn`, else
/// privately. `seat` is the sender, named in the private copy only (for the GM; the
/// text says who it is from as its readers see it). Returns the message's name.
pub fn keep(
    archive: &Archive,
    turn: u32,
    seat: &str,
    to: Option<&str>,
    from_shown: &str,
    text: &str,
) -> Result<String, Error> {
    let name = name_of(from_shown, to, text);
    let p = match to {
        None => archive
            .root()
            .join(PUBLIC_DIR)
            .join(format!("{turn:03}"))
            .join(format!("{name}.txt")),
        Some(to) => archive
            .root()
            .join(PRIVATE_DIR)
            .join(format!("{name}-{seat}-{to}.txt")),
    };
    atomic::write_file(&p, format!("{from_shown}\n{text}\n").as_bytes())?;
    Ok(name)
}

/// Anonymous press waiting for its hour to be out.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Waiting {
    /// Who sent it (for the GM only; never relayed).
    pub seat: String,
    /// Its reader's seat; none: everyone.
    pub to: Option<String>,
    pub text: String,
    /// When it came, RFC 3339.
    pub came: String,
}

/// The first full hour after `at`: when anonymous press that came then is relayed.
pub fn relayed_at(at: SystemTime) -> SystemTime {
    let secs = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    UNIX_EPOCH + Duration::from_secs((secs / 3600 + 1) * 3600)
}

/// Hold anonymous press until [`relayed_at`]; when that is.
pub fn hold(archive: &Archive, w: &Waiting, now: SystemTime) -> Result<SystemTime, Error> {
    let name = name_of("anonymous", w.to.as_deref(), &w.text);
    let p = archive
        .root()
        .join(WAITING_DIR)
        .join(format!("{name}.json"));
    let json = serde_json::to_vec_pretty(w)
        .map_err(|e| Error::input(format!("press could not be kept: {e}")))?;
    atomic::write_file(&p, &json)?;
    Ok(relayed_at(now))
}

/// Relay the anonymous press whose hour is out: kept in the record of turn `turn` (to
/// everyone) or privately, and mailed to its readers. Lines for the GM.
pub fn relay_due(archive: &Archive, turn: u32, now: SystemTime) -> Result<Vec<String>, Error> {
    let dir = archive.root().join(WAITING_DIR);
    let mut due: Vec<(std::path::PathBuf, Waiting)> = Vec::new();
    for text in kept_paths(&dir, ".json")? {
        let bytes = std::fs::read(&text).map_err(|source| ArchiveError::Io {
            path: text.clone(),
            source,
        })?;
        let Ok(w) = serde_json::from_slice::<Waiting>(&bytes) else {
            continue;
        };
        let came = humantime::parse_rfc3339_weak(&w.came).unwrap_or(UNIX_EPOCH);
        if relayed_at(came) <= now {
            due.push((text, w));
        }
    }
    let mut lines = Vec::new();
    for (path, w) in due {
        let readers = relay(
            archive,
            turn,
            &w.seat,
            w.to.as_deref(),
            "anonymous",
            &w.text,
        )?;
        std::fs::remove_file(&path).map_err(|source| ArchiveError::Io {
            path: path.clone(),
            source,
        })?;
        lines.push(format!(
            "anonymous press of the last hour to {}: relayed",
            readers.join(", ")
        ));
    }
    Ok(lines)
}

/// Keep a message and mail it to its readers: the seat named, or every seated player
/// but its sender. The readers' seats.
pub fn relay(
    archive: &Archive,
    turn: u32,
    seat: &str,
    to: Option<&str>,
    from_shown: &str,
    text: &str,
) -> Result<Vec<String>, Error> {
    let name = keep(archive, turn, seat, to, from_shown, text)?;
    // The players as game.toml has them now (a `join` may have seated one).
    let now = Archive::open(archive.root())?;
    let game = now.name();
    let readers: Vec<&crate::archive::PlayerEntry> = now
        .game
        .players
        .iter()
        .filter(|q| !q.is_free() && q.id != seat && to.is_none_or(|t| q.id == t))
        .collect();
    for r in &readers {
        let body = format!(
            "Press in {game} from {from_shown}, to {}:\n\n{}\n\n{}\n",
            if to.is_some() {
                "you alone"
            } else {
                "everyone"
            },
            text.lines()
                .map(|l| format!("    {l}"))
                .collect::<Vec<_>>()
                .join("\n"),
            if to.is_some() {
                "To answer, mail the judge a line `press to SEAT: your text` with your secret."
            } else {
                "Press to everyone is also printed at the end of this turn's report."
            }
        );
        outbox::queue_unless_unaddressable(
            archive,
            &Outgoing {
                key: format!("press-{name}-{}", r.id),
                to_name: r.name.clone(),
                to: r.email.clone(),
                subject: format!("[{game}] press from {from_shown}"),
                body,
                in_reply_to: None,
                attachment: None,
            },
        )?;
    }
    Ok(readers.iter().map(|r| r.id.clone()).collect())
}

/// The files of a folder ending in `ext`, in name order: none when there is no such
/// folder.
fn kept_paths(dir: &std::path::Path, ext: &str) -> Result<Vec<std::path::PathBuf>, Error> {
    let mut names: Vec<String> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(ext) && !n.starts_with('.'))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(ArchiveError::Io {
                path: dir.to_path_buf(),
                source,
            }
            .into());
        }
    };
    names.sort();
    Ok(names.into_iter().map(|n| dir.join(n)).collect())
}

/// Keep a notice of the GM's for the report of turn `turn`, named `name`.
pub fn notice(archive: &Archive, turn: u32, name: &str, text: &str) -> Result<(), Error> {
    let p = archive
        .root()
        .join(NOTICES_DIR)
        .join(format!("{turn:03}"))
        .join(format!("{name}.txt"));
    atomic::write_file(&p, format!("{}\n", text.trim_end()).as_bytes())?;
    Ok(())
}

/// The files of a folder of a turn, in name order, each as text: none when there is no
/// such folder.
fn kept(dir: &std::path::Path) -> Result<Vec<String>, Error> {
    kept_paths(dir, ".txt")?
        .into_iter()
        .map(|p| {
            std::fs::read_to_string(&p)
                .map_err(|source| ArchiveError::Io { path: p, source }.into())
        })
        .collect()
}

/// The GM's notices kept for turn `turn`, as a section of its report (empty: none).
pub fn notices(archive: &Archive, turn: u32) -> Result<String, Error> {
    let texts = kept(&archive.root().join(NOTICES_DIR).join(format!("{turn:03}")))?;
    if texts.is_empty() {
        return Ok(String::new());
    }
    let mut out = String::from("\nFROM THE GM\n\n");
    for t in texts {
        for l in t.trim_end().lines() {
            out.push_str(&format!("  {l}\n"));
        }
    }
    Ok(out)
}

/// The press to everyone kept for turn `turn`, as the end of its report: empty when
/// there was none (so a game without press reports as before).
pub fn section(archive: &Archive, turn: u32) -> Result<String, Error> {
    let dir = archive.root().join(PUBLIC_DIR).join(format!("{turn:03}"));
    let texts = kept(&dir)?;
    if texts.is_empty() {
        return Ok(String::new());
    }
    let mut out = String::from("\nPRESS (to everyone, while these orders were due)\n");
    for text in texts {
        let (from, body) = text.split_once('\n').unwrap_or((text.as_str(), ""));
        out.push_str(&format!("\n  From {from}:\n"));
        for l in body.trim_end().lines() {
            out.push_str(&format!("    {l}\n"));
        }
    }
    Ok(out)
}
