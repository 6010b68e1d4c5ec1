//! One writer at a time: every command that changes a game folder holds an advisory lock
//! on `<game>/.judge.lock` while it runs. A second command waits for it a bounded time,
//! then gives up with a message that says who holds it. The lock is the operating
//! system's (std's file locks), so it is released when its holder ends, even by a crash
//! or `kill -9`; the text in the file only says who last held it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::LOCK_FILE;

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
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
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
    /// Lock a folder itself (for `judge new`, whose game folder does not exist yet):
    /// the same waiting, without a note of who holds it.
    pub fn acquire_dir(dir: &Path, wait: Duration) -> Result<GameLock, LockError> {
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
                        holder: format!("another judge new in {}", dir.display()),
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
