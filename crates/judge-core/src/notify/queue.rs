//! The notice outbox, `outbox/notices/` (inside the mail's outbox, which git never
//! keeps): one file a notice, named after the game's event, so that a run done again
//! queues nothing twice (`turn-003.json`, `deadline-004-red.json` for a player's own).
//! Sent after the turn, outside the game's lock, each post within `[notify] timeout`;
//! one that fails is tried again on a later run, each time after twice as long (a
//! minute, two, four, … at most six hours), and given up after [`TRIES`] tries, or at
//! once when the webhook refuses it for good (`outbox/notices/failed/`). Nothing of it
//! ever fails or holds up a turn: what it did is told in lines.

use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::http::{Client, PostError};
use super::payload::{self, Notice};
use crate::archive::lock::{GameLock, LockError};
use crate::archive::schema::NotifyFormat;
use crate::archive::{Archive, ArchiveError, atomic};

/// Where notices wait.
pub const DIR: &str = "outbox/notices";
/// Where a notice goes once posted.
pub const SENT: &str = "outbox/notices/sent";
/// Where a notice goes when given up.
pub const FAILED: &str = "outbox/notices/failed";

/// The most tries of one notice.
pub const TRIES: u32 = 8;
/// The first wait after a failed try; each next is twice as long.
pub const FIRST_WAIT: Duration = Duration::from_secs(60);
/// The longest wait between tries.
pub const LONGEST_WAIT: Duration = Duration::from_secs(6 * 3600);
/// The longest one run spends posting, all notices together: what is left waits.
pub const RUN_BUDGET: Duration = Duration::from_secs(30);

/// Whose webhook a notice is for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// The game's (`[notify] url` of game.toml, else judge.toml's).
    Game,
    /// A player's own (`notify URL` by mail), by seat.
    Player(String),
}

/// A notice waiting, with how its tries went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Queued {
    pub target: Target,
    pub notice: Notice,
    #[serde(default)]
    pub tries: u32,
    /// Not tried again before this (seconds since 1970).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_before: Option<u64>,
    /// Why the last try failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

/// The notice's name: the event, the turn, and the seat for a player's own or for a
/// seat open.
pub fn key(target: &Target, n: &Notice) -> String {
    let mut k = format!("{}-{:03}", n.event.name(), n.turn);
    if n.event == crate::archive::schema::NotifyEvent::SeatOpen {
        for s in &n.seats {
            k.push('-');
            k.push_str(&safe(s));
        }
    }
    if let Target::Player(seat) = target {
        k.push_str("-to-");
        k.push_str(&safe(seat));
    }
    k
}

fn safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Whether the notice of this name was queued already (waiting, sent or given up).
pub fn known(archive: &Archive, key: &str) -> bool {
    [DIR, SENT, FAILED]
        .iter()
        .any(|d| archive.root().join(d).join(format!("{key}.json")).is_file())
}

/// Queue `n` for `target`, once; `Ok(true)` if it was queued now.
pub fn queue(archive: &Archive, target: Target, n: Notice) -> Result<bool, ArchiveError> {
    let key = key(&target, &n);
    if known(archive, &key) {
        return Ok(false);
    }
    let q = Queued {
        target,
        notice: n,
        tries: 0,
        not_before: None,
        last_error: None,
    };
    write(&archive.root().join(DIR).join(format!("{key}.json")), &q)?;
    Ok(true)
}

fn write(path: &std::path::Path, q: &Queued) -> Result<(), ArchiveError> {
    let bytes = serde_json::to_vec_pretty(q).map_err(|e| ArchiveError::Unwritable {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    atomic::write_file(path, &bytes)
}

/// The notices waiting, by name.
pub fn waiting(archive: &Archive) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(archive.root().join(DIR))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".json")
                .map(str::to_string)
        })
        .collect();
    v.sort();
    v
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub sent: Vec<String>,
    /// Tried and left to try again later, with why.
    pub later: Vec<(String, String)>,
    /// Given up, with why.
    pub given_up: Vec<(String, String)>,
    /// Not tried this run (their time has not come, or the run's time was spent).
    pub waiting: Vec<String>,
}

impl Report {
    /// What the run did, in lines for the GM.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.sent.is_empty() {
            out.push(format!(
                "posted {}",
                crate::text::count(self.sent.len(), "notice")
            ));
        }
        for (k, why) in &self.later {
            out.push(format!("notice {k} not posted, tried again later: {why}"));
        }
        for (k, why) in &self.given_up {
            out.push(format!("notice {k} given up (kept in {FAILED}/): {why}"));
        }
        out
    }
}

/// Why a notice has nowhere to go now: it is given up, with this said.
#[derive(Debug, thiserror::Error)]
enum Nowhere {
    #[error("the game has no [notify] url any more")]
    NoUrl,
    #[error("[notify] secret_env names {0}, which is not set: set it where the judge runs")]
    NoSecret(String),
    #[error("{0} has turned their notices off")]
    Off(String),
    #[error(transparent)]
    Preferences(#[from] ArchiveError),
    #[error(transparent)]
    Leads(#[from] super::url::UrlError),
}

impl Nowhere {
    /// A missing secret may be set before a later run: the notice waits for it.
    fn later(&self) -> bool {
        matches!(self, Nowhere::NoSecret(_))
    }
}

/// Where a notice for `target` goes now: the address, the format, the signing secret.
fn destination(
    archive: &Archive,
    target: &Target,
) -> Result<(String, NotifyFormat, Option<Vec<u8>>), Nowhere> {
    match target {
        Target::Game => {
            let Some((s, url)) = archive.notify().and_then(|s| Some((s, s.url.clone()?))) else {
                return Err(Nowhere::NoUrl);
            };
            let secret = match (&s.secret_env, s.format()) {
                (Some(var), NotifyFormat::Json) => match std::env::var(var) {
                    Ok(v) if !v.is_empty() => Some(v.into_bytes()),
                    _ => return Err(Nowhere::NoSecret(var.clone())),
                },
                _ => None,
            };
            Ok((url, s.format(), secret))
        }
        Target::Player(seat) => {
            match crate::pbem::preferences::Preferences::load(archive)?.webhook(seat) {
                Some((url, format)) => {
                    // A player's address may not lead inside by a name either.
                    if archive.notify().and_then(|s| s.private_hosts) != Some(true) {
                        super::url::check_leads(&url)?;
                    }
                    Ok((url, format, None))
                }
                None => Err(Nowhere::Off(seat.clone())),
            }
        }
    }
}

/// Seconds since 1970.
fn secs(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The wait after `tries` failed tries.
pub fn wait_after(tries: u32) -> Duration {
    let doubled = FIRST_WAIT.saturating_mul(1u32 << tries.saturating_sub(1).min(20));
    doubled.min(LONGEST_WAIT)
}

/// Post every notice whose time has come. Never fails: what went wrong is in the report
/// (a notice's file that does not read is given up, named).
pub fn send_all(archive: &Archive, now: SystemTime) -> Report {
    let mut report = Report::default();
    let dir = archive.root().join(DIR);
    let keys = waiting(archive);
    if keys.is_empty() {
        return report;
    }
    let timeout = archive
        .notify()
        .map_or(crate::archive::schema::NOTIFY_TIMEOUT, |s| s.timeout());
    // Two runs never post the same notice: the second finds the lock taken and leaves
    // the notices to the first.
    let _lock = match GameLock::acquire(&dir, "judge posting notices", Duration::ZERO) {
        Ok(l) => l,
        Err(LockError::Busy { .. }) | Err(_) => {
            report.waiting = keys;
            return report;
        }
    };
    let started = Instant::now();
    let mut client: Option<Client> = None;
    for key in keys {
        let path = dir.join(format!("{key}.json"));
        let read = archive
            .no_link(&path)
            .map_err(|e| e.to_string())
            .and_then(|()| fs::read(&path).map_err(|e| e.to_string()))
            .and_then(|b| serde_json::from_slice::<Queued>(&b).map_err(|e| e.to_string()));
        let mut q = match read {
            Ok(q) => q,
            Err(why) => {
                give_up(archive, &key, None, &why);
                report.given_up.push((key, why));
                continue;
            }
        };
        if q.not_before.is_some_and(|t| t > secs(now)) || started.elapsed() + timeout > RUN_BUDGET {
            report.waiting.push(key);
            continue;
        }
        let (url, format, secret) = match destination(archive, &q.target) {
            Ok(d) => d,
            // Unsigned, a JSON notice is never posted: it waits for its secret.
            Err(why) if why.later() => {
                report.later.push((key, why.to_string()));
                continue;
            }
            Err(why) => {
                let why = why.to_string();
                give_up(archive, &key, Some(&q), &why);
                report.given_up.push((key, why));
                continue;
            }
        };
        let body = payload::body(format, &q.notice);
        let mut headers = vec![
            (payload::EVENT_HEADER, q.notice.event.name().to_string()),
            (
                payload::DELIVERY_HEADER,
                format!("{}-{key}", safe(&archive.name())),
            ),
        ];
        if let Some(secret) = &secret {
            headers.push((payload::SIGNATURE_HEADER, payload::signature(secret, &body)));
        }
        let client = client.get_or_insert_with(|| Client::new(timeout));
        match client.post(&url, &headers, &body) {
            Ok(()) => {
                let to = archive.root().join(SENT).join(format!("{key}.json"));
                if fs::create_dir_all(archive.root().join(SENT)).is_ok()
                    && fs::rename(&path, &to).is_ok()
                {
                    report.sent.push(key);
                } else {
                    report
                        .later
                        .push((key, format!("posted, but not moved to {SENT}/")));
                }
            }
            Err(PostError::Refused(why)) => {
                give_up(archive, &key, Some(&q), &why);
                report.given_up.push((key, why));
            }
            Err(PostError::Later(why)) => {
                q.tries += 1;
                if q.tries >= TRIES {
                    let why = format!("{why} ({TRIES} tries)");
                    give_up(archive, &key, Some(&q), &why);
                    report.given_up.push((key, why));
                    continue;
                }
                q.not_before = Some(secs(now) + wait_after(q.tries).as_secs());
                q.last_error = Some(why.clone());
                let _ = write(&path, &q);
                report.later.push((key, why));
            }
        }
    }
    report
}

/// Move a notice to `failed/`, with why.
fn give_up(archive: &Archive, key: &str, q: Option<&Queued>, why: &str) {
    let from = archive.root().join(DIR).join(format!("{key}.json"));
    let to: PathBuf = archive.root().join(FAILED).join(format!("{key}.json"));
    if fs::create_dir_all(archive.root().join(FAILED)).is_err() {
        return;
    }
    match q {
        Some(q) => {
            let mut q = q.clone();
            q.last_error = Some(why.to_string());
            if write(&to, &q).is_ok() {
                let _ = fs::remove_file(&from);
            }
        }
        None => {
            let _ = fs::rename(&from, &to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_from_a_minute_to_at_most_six_hours() {
        assert_eq!(wait_after(1), Duration::from_secs(60));
        assert_eq!(wait_after(2), Duration::from_secs(120));
        assert_eq!(wait_after(3), Duration::from_secs(240));
        assert_eq!(wait_after(9), Duration::from_secs(60 * 256));
        assert_eq!(wait_after(10), Duration::from_secs(6 * 3600));
        assert_eq!(wait_after(u32::MAX), LONGEST_WAIT);
    }
}
