//! What wakes `judge serve` when mail comes: the kernel, for a Maildir or an mbox file
//! (inotify, through `notify`), or the IMAP server, for an INBOX (IDLE, RFC 2177). Each sends
//! [`Wake::Mail`] down a channel; the server then runs a pass over its games. Neither
//! reads a mail: the pass does, so a wake-up that finds nothing new costs one look.
//!
//! A game's clock is watched too ([`Clocks`]): its `game.toml` written by another
//! command (`judge deadline`, `judge pause`, `judge resume`, the GM's editor) sends
//! [`Wake::Clock`], and the server reads that game's deadline again at once.
//!
//! An IMAP connection that drops (the server restarts) is opened again, waiting a
//! little longer each time up to half a minute, and a wake-up is sent once it is back:
//! mail may have come while it was away.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher as _};

use super::imap::Source;

/// Why `judge serve` wakes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// Mail may have come.
    Mail,
    /// A game's clock may have changed (its game.toml was written).
    Clock,
    /// Stop: finish the pass in hand, then exit.
    Stop,
}

/// Why a mailbox cannot be watched.
#[derive(Debug, thiserror::Error)]
#[error("watching {folder} for new mail: {error}")]
pub struct WatchError {
    folder: String,
    error: notify::Error,
}

/// Watch a Maildir's `new/` for mail delivered into it. The watch lasts as long as the
/// value returned.
pub fn maildir(dir: &Path, wake: Sender<Wake>) -> Result<notify::RecommendedWatcher, WatchError> {
    // A delivery writes into tmp/ and renames into new/: a create or a rename here.
    folder(&dir.join("new"), |_| true, wake)
}

/// Watch an mbox file for mail appended to it (or the file made anew: its folder is
/// watched, for a program may replace the file). The watch lasts as long as the value
/// returned.
pub fn mbox(path: &Path, wake: Sender<Wake>) -> Result<notify::RecommendedWatcher, WatchError> {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().map(std::ffi::OsStr::to_os_string);
    folder(parent, move |p| p.file_name() == name.as_deref(), wake)
}

/// Wake on every change but a read in `dir` to a path `concerns` accepts.
fn folder(
    dir: &Path,
    concerns: impl Fn(&Path) -> bool + Send + 'static,
    wake: Sender<Wake>,
) -> Result<notify::RecommendedWatcher, WatchError> {
    let fail = |error| WatchError {
        folder: dir.display().to_string(),
        error,
    };
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(e) = event
            && !matches!(e.kind, EventKind::Access(_))
            && e.paths.iter().any(|p| concerns(p))
        {
            let _ = wake.send(Wake::Mail);
        }
    })
    .map_err(fail)?;
    watcher
        .watch(dir, RecursiveMode::NonRecursive)
        .map_err(fail)?;
    Ok(watcher)
}

/// The game folders watched for a change to their clock: each game's folder (not what
/// is under it), for its `game.toml` written or replaced. A pass that wrote none wakes
/// nothing: only that one file's name counts.
pub struct Clocks {
    watcher: notify::RecommendedWatcher,
    watched: BTreeSet<PathBuf>,
}

impl Clocks {
    /// Watch no game yet; [`Clocks::follow`] adds them.
    pub fn new(wake: Sender<Wake>) -> Result<Clocks, WatchError> {
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            if let Ok(e) = event
                && !matches!(e.kind, EventKind::Access(_))
                && e.paths
                    .iter()
                    .any(|p| p.file_name() == Some(OsStr::new(crate::archive::GAME_FILE)))
            {
                let _ = wake.send(Wake::Clock);
            }
        })
        .map_err(|error| WatchError {
            folder: "the game folders".into(),
            error,
        })?;
        Ok(Clocks {
            watcher,
            watched: BTreeSet::new(),
        })
    }

    /// Watch each of `games` not watched yet, and stop watching those gone. A line for
    /// each game that cannot be watched: its clock is read again at the pass that visits
    /// every game (`judge serve --poll`).
    pub fn follow(&mut self, games: &[PathBuf]) -> Vec<String> {
        let now: BTreeSet<PathBuf> = games.iter().cloned().collect();
        let gone: Vec<PathBuf> = self.watched.difference(&now).cloned().collect();
        for dir in gone {
            let _ = self.watcher.unwatch(&dir);
            self.watched.remove(&dir);
        }
        let mut problems = Vec::new();
        for dir in games {
            if self.watched.contains(dir) {
                continue;
            }
            match self.watcher.watch(dir, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    self.watched.insert(dir.clone());
                }
                Err(e) => problems.push(format!(
                    "{}: its clock is not watched ({e}); a deadline moved from outside is seen at the pass that visits every game",
                    dir.display()
                )),
            }
        }
        problems
    }
}

/// Wait on an IMAP INBOX with IDLE in a thread of its own, sending a wake-up whenever
/// the mailbox changes, until `stop` is set (checked at least once a minute).
pub fn imap(src: Source, wake: Sender<Wake>, stop: Arc<AtomicBool>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut pause = Duration::from_secs(1);
        let mut was_down = false;
        while !stop.load(Ordering::Relaxed) {
            let Ok(mut session) = super::imap::open(&src, true) else {
                was_down = true;
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_secs(30));
                continue;
            };
            pause = Duration::from_secs(1);
            if was_down {
                was_down = false;
                let _ = wake.send(Wake::Mail);
            }
            while !stop.load(Ordering::Relaxed) {
                match super::imap::wait_for_change(&mut session, &src, Duration::from_secs(60)) {
                    Ok(true) => {
                        if wake.send(Wake::Mail).is_err() {
                            return;
                        }
                    }
                    Ok(false) => {}
                    Err(_) => {
                        was_down = true;
                        break;
                    }
                }
            }
        }
    })
}
