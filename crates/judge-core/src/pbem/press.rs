//! Press: messages between players, relayed by the judge (docs/mail-commands.md,
//! `press`). Each is kept as a file of its own, named by the mail it came in:
//!
//! ```text
//! press/004/000123-red-all.txt      press to everyone while turn 4's orders were due:
//!                                   the public record, committed, and printed at the end
//!                                   of turn 4's report
//! mail/press/000124-red-blue.txt    private press: kept out of git with the mail, for
//!                                   the GM; its sender and receiver have it by mail
//! ```
//!
//! A file holds the sender as shown (the seat and name, or `anonymous`) on its first
//! line, then the text.
//!
//! The GM's notices to everyone (a seat taken over by a new player: `judge replace`)
//! are kept the same way, in `notices/NNN/`, and printed before the press.

use std::path::PathBuf;

use super::Error;
use crate::archive::{Archive, ArchiveError, atomic};

/// Where press to everyone is kept, by the turn whose orders were due.
pub const PUBLIC_DIR: &str = "press";
/// Where the GM's notices are kept, by the turn whose report prints them.
pub const NOTICES_DIR: &str = "notices";
/// Where private press is kept (under `mail/`, out of git).
pub const PRIVATE_DIR: &str = "mail/press";

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

fn path(archive: &Archive, turn: u32, seq: usize, seat: &str, to: Option<&str>) -> PathBuf {
    match to {
        None => archive
            .root()
            .join(PUBLIC_DIR)
            .join(format!("{turn:03}"))
            .join(format!("{seq:06}-{seat}-all.txt")),
        Some(to) => archive
            .root()
            .join(PRIVATE_DIR)
            .join(format!("{seq:06}-{seat}-{to}.txt")),
    }
}

/// Keep a message: to everyone (`to` None) in the public record of turn `turn`, else
/// privately. `seat` names the file only (an anonymous message's file is named by its
/// sender too, for the GM; the public text says `anonymous`).
pub fn keep(
    archive: &Archive,
    turn: u32,
    seq: usize,
    seat: &str,
    to: Option<&str>,
    from_shown: &str,
    text: &str,
) -> Result<(), Error> {
    // The file of an anonymous message to everyone must not name its sender: it is
    // committed, and everyone can read the repository.
    let seat = if to.is_none() && from_shown == "anonymous" {
        "anonymous"
    } else {
        seat
    };
    let p = path(archive, turn, seq, seat, to);
    atomic::write_file(&p, format!("{from_shown}\n{text}\n").as_bytes())?;
    Ok(())
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
    let mut names: Vec<String> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".txt"))
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
    names
        .into_iter()
        .map(|n| {
            let p = dir.join(&n);
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
