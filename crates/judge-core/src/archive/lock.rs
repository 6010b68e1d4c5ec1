//! One writer at a time: every command that changes a game folder holds an advisory lock
//! on `<game>/.judge.lock` while it runs. A second command waits for it a bounded time,
//! then gives up with a message that says who holds it. The lock is the operating
//! system's (std's file locks), so it is released when its holder ends, even by a crash
//! or `kill -9`; the text in the file only says who last held it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::folder::LOCK_FILE;

/// How long a command waits for the lock unless told otherwise.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(60);

/// Held while alive; dropped, the lock is released.
#[derive(Debug)]
pub struct GameLock {
    file: File,
}

/// Why the lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "another judge command is changing this game ({holder}); waited {waited}s for it. Try again later, or wait longer with --wait SECONDS"
    )]
    Busy { holder: String, waited: u64 },
    #[error(
        "{} is a symbolic link{}: the judge never writes its lock through a link (it would overwrite the file it leads to). Delete it (rm {}); the judge makes its own",
        path.display(),
        target.as_ref().map(|t| format!(" (to {})", t.display())).unwrap_or_default(),
        path.display()
    )]
    Link {
        path: PathBuf,
        target: Option<PathBuf>,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl GameLock {
    /// Take the game's lock for `what` (`judge turn`), waiting up to `wait` for another
    /// command to finish.
    pub fn acquire(dir: &Path, what: &str, wait: Duration) -> Result<GameLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let link = || LockError::Link {
            path: path.clone(),
            target: std::fs::read_link(&path).ok(),
        };
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(link());
        }
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        // A link put there after the look above is not followed either.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
        let mut file = match options.open(&path) {
            Ok(f) => f,
            #[cfg(unix)]
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(link()),
            Err(e) => return Err(io(e)),
        };
        let start = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) => {
                    if start.elapsed() >= wait {
                        let mut holder = String::new();
                        let _ = file.seek(SeekFrom::Start(0));
                        let _ = (&file).take(512).read_to_string(&mut holder);
                        let holder = holder.trim();
                        return Err(LockError::Busy {
                            holder: if holder.is_empty() {
                                "its holder did not say who it is".to_string()
                            } else {
                                holder.to_string()
                            },
                            waited: start.elapsed().as_secs(),
                        });
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
            }
        }
        let since = humantime::format_rfc3339_seconds(std::time::SystemTime::now());
        let who = format!("{what}, process {}, since {since}", std::process::id());
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)).map(|_| ()))
            .and_then(|()| file.write_all(who.as_bytes()))
            .map_err(io)?;
        Ok(GameLock { file })
    }
}

impl GameLock {
    /// Lock a folder itself (for `judge new`, whose game folder does not exist yet, and
    /// `judge site`'s web root, where a lock file would be published): the same waiting,
    /// without a note of who holds it; `what` names the command (`judge new`).
    pub fn acquire_dir(dir: &Path, what: &str, wait: Duration) -> Result<GameLock, LockError> {
        let io = |source| LockError::Io {
            path: dir.to_path_buf(),
            source,
        };
        let file = File::open(dir).map_err(io)?;
        let start = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(GameLock { file }),
                Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < wait => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(LockError::Busy {
                        holder: format!("another {what} in {}", dir.display()),
                        waited: start.elapsed().as_secs(),
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
            }
        }
    }
}

impl Drop for GameLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_lock_that_is_a_link_is_refused_and_what_it_leads_to_kept() {
        let tmp = tempfile::tempdir().expect("tmp");
        let target = tmp.path().join("notes.txt");
        std::fs::write(&target, "mine").expect("write");
        std::os::unix::fs::symlink(&target, tmp.path().join(LOCK_FILE)).expect("link");
        let e = GameLock::acquire(tmp.path(), "judge turn", DEFAULT_WAIT).expect_err("a link");
        assert!(matches!(e, LockError::Link { .. }), "{e}");
        assert!(e.to_string().contains("(to "), "{e}");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "mine");
        // A dangling link would be created by following it: not either.
        std::fs::remove_file(&target).expect("rm");
        assert!(matches!(
            GameLock::acquire(tmp.path(), "judge turn", DEFAULT_WAIT),
            Err(LockError::Link { .. })
        ));
        assert!(!target.exists());
    }

    #[test]
    fn a_second_writer_waits_then_hears_who_holds_the_lock() {
        let tmp = tempfile::tempdir().expect("tmp");
        let first = GameLock::acquire(tmp.path(), "judge turn", DEFAULT_WAIT).expect("free");
        let second = GameLock::acquire(tmp.path(), "judge ingest", Duration::from_millis(200));
        match second {
            Err(LockError::Busy { holder, .. }) => {
                assert!(holder.starts_with("judge turn, process "), "{holder}");
            }
            other => panic!("expected busy, got {other:?}"),
        }
        drop(first);
        GameLock::acquire(tmp.path(), "judge ingest", Duration::from_millis(200))
            .expect("free again once the first is dropped");
    }
}
