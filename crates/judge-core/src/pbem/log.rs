//! `mail/log.jsonl`: one line per mail the judge has handled, written last, once the mail
//! is kept, filed and answered — so a mail that a crash interrupted is handled again from
//! the start, and a mail that is in the log is never handled twice.

use std::collections::BTreeSet;
use std::fs::{self, OpenOptions};
use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::archive::{Archive, ArchiveError, MAIL_LOG};

/// What became of a mail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "outcome")]
pub enum Outcome {
    /// Filed as the player's orders for the turn (replacing earlier ones if any).
    Accepted {
        player: String,
        turn: u32,
        replaced: bool,
        errors: usize,
        warnings: usize,
    },
    /// Late, and kept for the turn after (the game's `late = "hold"`).
    Held { player: String, turn: u32 },
    /// Refused, with why; answered to the registered address when there is one.
    Refused {
        reason: String,
        answered: Option<String>,
    },
    /// A Message-ID already handled: ignored.
    Duplicate,
    /// Commands only, no orders (docs/mail-commands.md): what each did, a line each
    /// (no press text, no secret).
    Commands { done: Vec<String> },
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub seq: usize,
    pub message_id: String,
    pub from: Option<String>,
    /// The subject, with any secret in it blanked.
    pub subject: String,
    /// When the mail arrived (RFC 3339), and how that is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrived: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrived_by: Option<String>,
    /// The player it is from: whose registered address sent it, or (from an address no
    /// player has) whose orders it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
    /// The mail gave that player's right secret (checked when it was filed).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret_ok: bool,
    /// The kept copy, under the game's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<String>,
    /// The outbox key of the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// The SHA-256 of the mail's bytes: a mail read again (a Maildir is read whole on
    /// every run) is known by it. Lines written before it was kept have none; their
    /// Message-ID stands for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// When the judge handled it (RFC 3339): how many answers an address had within
    /// the hour is counted by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handled: Option<String>,
    /// Filed again by the GM (`judge ingest --again`): the line it repeats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub again_of: Option<usize>,
    /// The commands of a mail that also held orders, a line each: what was done.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<String>,
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// The log, read once per run.
#[derive(Clone, Debug, Default)]
pub struct Log {
    pub entries: Vec<Entry>,
    /// The digests of the mails handled.
    digests: BTreeSet<String>,
    /// The Message-IDs of the mails handled before digests were kept.
    legacy_ids: BTreeSet<String>,
}

impl Log {
    /// Read the log. A last line cut short by a crash is dropped (the mail it was for is
    /// handled again); any other line that does not read is an error naming it.
    pub fn load(archive: &Archive) -> Result<Log, ArchiveError> {
        let path = archive.root().join(MAIL_LOG);
        let text = match fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Log::default()),
            Err(source) => return Err(ArchiveError::Io { path, source }),
        };
        let whole = match text.iter().rposition(|b| *b == b'\n') {
            Some(i) => &text[..=i],
            None => &text[..0],
        };
        if whole.len() != text.len() {
            // Cut the torn line off, so that the next line appended starts cleanly.
            let f = OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|source| ArchiveError::Io {
                    path: path.clone(),
                    source,
                })?;
            f.set_len(whole.len() as u64)
                .and_then(|()| f.sync_all())
                .map_err(|source| ArchiveError::Io {
                    path: path.clone(),
                    source,
                })?;
        }
        let mut log = Log::default();
        for (n, line) in String::from_utf8_lossy(whole).lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let e: Entry = serde_json::from_str(line).map_err(|e| ArchiveError::BadFile {
                path: path.clone(),
                message: format!("line {}: {e}", n + 1),
            })?;
            log.remember(&e);
            log.entries.push(e);
        }
        Ok(log)
    }

    /// The number the next mail gets (also its kept copy's name).
    pub fn next_seq(&self) -> usize {
        self.entries.iter().map(|e| e.seq).max().unwrap_or(0) + 1
    }

    fn remember(&mut self, e: &Entry) {
        match &e.digest {
            Some(d) => self.digests.insert(d.clone()),
            None => self.legacy_ids.insert(e.message_id.clone()),
        };
    }

    /// Has this mail been handled? The same bytes, by their digest; or, for the lines
    /// written before digests were kept, the same Message-ID. A Message-ID alone never
    /// makes a new mail a duplicate: anyone can write any Message-ID.
    pub fn has(&self, digest: &str, message_id: &str) -> bool {
        self.digests.contains(digest) || self.legacy_ids.contains(message_id)
    }

    pub fn get(&self, seq: usize) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.seq == seq)
    }

    /// Add a line, synced to disk before this returns.
    pub fn append(&mut self, archive: &Archive, entry: Entry) -> Result<(), ArchiveError> {
        let path = archive.root().join(MAIL_LOG);
        let io = |source| ArchiveError::Io {
            path: path.clone(),
            source,
        };
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(io)?;
        }
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io)?;
        let mut text = serde_json::to_string(&entry).map_err(|e| ArchiveError::Unwritable {
            path: path.clone(),
            message: e.to_string(),
        })?;
        text.push('\n');
        f.write_all(text.as_bytes()).map_err(io)?;
        f.sync_all().map_err(io)?;
        self.remember(&entry);
        self.entries.push(entry);
        Ok(())
    }
}
