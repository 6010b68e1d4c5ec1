//! The game's folder: the files it holds, and the archive opened on
//! it, read and written (every write atomic).

use std::fs;
use std::path::{Path, PathBuf};

use super::atomic;
use super::check::read_game_file;
use super::error::ArchiveError;
use super::house;
use super::schema::{GAME_FILE, GameFile, MailSettings, NotifySettings};

pub use crate::json::stable_json;

pub const SCENARIO_FILE: &str = "scenario.toml";

pub const STATE_FILE: &str = "state.json";

pub const EVENTS_FILE: &str = "events.json";

/// A position as everyone may know it, kept beside a private state file (a game with hidden cards): what
/// `judge check` reads on a clone of the game's public git.
pub const PUBLIC_FILE: &str = "public.json";

/// The draws everyone saw made in a turn, kept beside `public.json` (a game with hidden
/// cards): what `judge verify` checks on a clone of the game's public git.
pub const DRAWS_FILE: &str = "draws.json";

/// Folder of a turn's orders as received, and of orders waiting for the next turn.
pub const ORDERS_DIR: &str = "orders";

pub const PENDING_DIR: &str = "pending";

/// Late orders held for the turn after (`late = "hold"`).
pub const HELD_DIR: &str = "held";

/// Standing orders: played each turn the player sends none.
pub const STANDING_DIR: &str = "standing";

/// The kept (secret-blanked) copy of every mail received.
pub const INBOX_DIR: &str = "mail/inbox";

/// One line per mail received: what became of it.
pub const MAIL_LOG: &str = "mail/log.jsonl";

/// What a played turn records about itself (`turns/NNN/turn.json`).
pub const TURN_FILE: &str = "turn.json";

/// The lock a command holds while it changes the game.
pub const LOCK_FILE: &str = ".judge.lock";

/// What git keeps out of a game's repository: the secret seed of the game's hidden
/// draws, what players must not read before the
/// deadline (pending, held and standing orders, the mail with them), what is only the
/// judge's working state (the outbox, sent copies, the lock), and nothing else. Every
/// turn's orders, state, events, reports and pictures are committed. docs/archive.md.
pub const GITIGNORE: &str = "\
# Kept out of git (docs/archive.md): the game's secret seed, orders before their
# deadline, mail, the judge's own working files. Turns (with everyone's orders once
# played) are committed.
/randomness.key
/pending/
/held/
/standing/
/mail/
/outbox/
/sent/
/.judge.lock
";

/// The game's .gitignore: [`GITIGNORE`], and the game's own private paths.
pub fn gitignore(private: &[&str]) -> String {
    let mut text = GITIGNORE.to_string();
    if !private.is_empty() {
        text.push_str(
            "# This game has hidden information: what only the judge and each player may\n# see stays out of git (docs/archive.md).\n",
        );
        for p in private {
            text.push_str(p);
            text.push('\n');
        }
    }
    text
}

/// An open game archive.
#[derive(Clone, Debug)]
pub struct Archive {
    root: PathBuf,
    pub game: GameFile,
    /// How mail goes out when game.toml has no `[mail]` of its own: the settings of the
    /// folder of games it stands in ([`house`]), without that folder's mailbox.
    shared_mail: Option<MailSettings>,
    /// The notices of a game whose game.toml has no `[notify]`: the folder's
    /// (`judge.toml`'s `[notify]`), if it has one.
    shared_notify: Option<NotifySettings>,
}

fn turn_name(turn: u32) -> String {
    format!("{turn:03}")
}

impl Archive {
    /// Write a new archive at `dir`, all at once: game.toml, the scenario, and the files
    /// the game starts with (turn 0, or the round before it), by path in the folder.
    /// `private` are more paths git must not keep (a game with hidden information keeps
    /// its states and each player's view out of it).
    pub fn create(
        dir: &Path,
        game: GameFile,
        scenario_text: &str,
        start: &[(&str, Vec<u8>)],
        private: &[&str],
    ) -> Result<Archive, ArchiveError> {
        let mut files = vec![
            (GAME_FILE.to_string(), game_file_text(&game)?.into_bytes()),
            (".gitignore".to_string(), gitignore(private).into_bytes()),
            (SCENARIO_FILE.to_string(), scenario_text.as_bytes().to_vec()),
        ];
        for (name, bytes) in start {
            files.push(((*name).to_string(), bytes.clone()));
        }
        atomic::create_dir(dir, &files)?;
        let (shared_mail, shared_notify) = house::shared(dir)?;
        Ok(Archive {
            root: dir.to_path_buf(),
            game,
            shared_mail,
            shared_notify,
        })
    }

    pub fn open(dir: &Path) -> Result<Archive, ArchiveError> {
        let game = read_game_file(dir)?;
        let (shared_mail, shared_notify) = house::shared(dir)?;
        Ok(Archive {
            root: dir.to_path_buf(),
            game,
            shared_mail,
            shared_notify,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// How the game's mail goes out: game.toml's `[mail]`, else the settings shared by
    /// the folder of games it stands in (`judge.toml`, [`house`]). The mailbox the game
    /// reads by itself is game.toml's only (`game.mail`).
    pub fn mail(&self) -> Option<&MailSettings> {
        self.game.mail.as_ref().or(self.shared_mail.as_ref())
    }

    /// Where the game's notices are posted: game.toml's `[notify]`, else the folder's
    /// (`judge.toml`), if either has one.
    pub fn notify(&self) -> Option<&NotifySettings> {
        self.game.notify.as_ref().or(self.shared_notify.as_ref())
    }

    /// The mailing lists trusted to forward players' mail, lower-cased: the game's own
    /// `[mail] lists` and, in a folder of games, judge.toml's.
    pub fn trusted_lists(&self) -> Vec<String> {
        let mut all: Vec<String> = [self.game.mail.as_ref(), self.shared_mail.as_ref()]
            .into_iter()
            .flatten()
            .flat_map(|m| m.lists.iter())
            .map(|l| l.trim().to_ascii_lowercase())
            .collect();
        all.sort();
        all.dedup();
        all
    }

    /// The game's name (what order files write after `game`): game.toml's `name`, or
    /// for an archive made before that was kept, its folder's own name (also when the
    /// folder is given as `.`).
    pub fn name(&self) -> String {
        if let Some(n) = &self.game.name {
            return n.clone();
        }
        folder_name(&self.root)
    }

    /// The turns in the archive, in order: folders named 000, 001, 002, … without a gap.
    /// Unfinished (temporary) folders and names that are not numbers are ignored; a
    /// number that does not belong (`turns/999` after turn 001, `turns/1`, a file) is the
    /// GM's slip, named.
    pub fn turns(&self) -> Result<Vec<u32>, ArchiveError> {
        let dir = self.root.join("turns");
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            // A game still in its round before turn 0 has no turns yet.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => {
                return Err(ArchiveError::Io {
                    path: dir.clone(),
                    source,
                });
            }
        };
        const HOW: &str = "turns are folders numbered 000, 001, 002, … without a gap";
        let stray = |path: PathBuf, message: String| ArchiveError::Invalid { path, message };
        let mut turns: Vec<u32> = Vec::new();
        for e in entries.filter_map(Result::ok) {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let turn = name.parse::<u32>().ok().filter(|t| turn_name(*t) == name);
            let Some(turn) = turn else {
                return Err(stray(
                    e.path(),
                    format!("not a turn's name: {HOW}; move it out of the game's folder"),
                ));
            };
            if e.file_type().is_ok_and(|t| t.is_symlink()) {
                return Err(ArchiveError::Link {
                    target: fs::read_link(e.path()).ok(),
                    path: e.path(),
                });
            }
            if !e.file_type().is_ok_and(|t| t.is_dir()) {
                return Err(stray(
                    e.path(),
                    format!("not a folder: {HOW}; move it out of the game's folder"),
                ));
            }
            turns.push(turn);
        }
        turns.sort_unstable();
        for (i, t) in turns.iter().enumerate() {
            let expected = u32::try_from(i).unwrap_or(u32::MAX);
            if *t != expected {
                return Err(stray(
                    self.turn_dir(*t),
                    format!(
                        "turn {} is missing before it: {HOW}. If this folder is a stray, move it out of the game's folder; if turn {} was lost, put it back (from git)",
                        turn_name(expected),
                        turn_name(expected)
                    ),
                ));
            }
        }
        Ok(turns)
    }

    pub fn turn_dir(&self, turn: u32) -> PathBuf {
        self.root.join("turns").join(turn_name(turn))
    }

    /// The given turn, or the latest when `None`; an error names the turns there are.
    pub fn pick_turn(&self, turn: Option<u32>) -> Result<u32, ArchiveError> {
        let turns = self.turns()?;
        let (Some(&first), Some(&last)) = (turns.first(), turns.last()) else {
            let free = self.game.free_seats().len();
            if free > 0 {
                return Err(ArchiveError::NotBegun {
                    dir: self.root.clone(),
                    free,
                });
            }
            return Err(ArchiveError::NoTurns(self.root.clone()));
        };
        match turn {
            None => Ok(last),
            Some(t) if turns.contains(&t) => Ok(t),
            Some(t) => Err(ArchiveError::NoSuchTurn {
                dir: self.root.clone(),
                turn: t,
                first,
                last,
            }),
        }
    }

    pub fn read(&self, turn: u32, name: &str) -> Result<String, ArchiveError> {
        let path = self.turn_dir(turn).join(name);
        self.no_link(&path)?;
        fs::read_to_string(&path).map_err(|source| ArchiveError::Io { path, source })
    }

    /// Refuse a path in the game's folder that is, or lies in a folder that is, a
    /// symbolic link (below the game's folder itself): the judge never follows one out of
    /// the game. A path not there is not refused (reading it says so).
    pub fn no_link(&self, path: &Path) -> Result<(), ArchiveError> {
        let Ok(inside) = path.strip_prefix(&self.root) else {
            return Ok(());
        };
        let mut at = self.root.clone();
        for part in inside.components() {
            at.push(part);
            match fs::symlink_metadata(&at) {
                Ok(m) if m.file_type().is_symlink() => {
                    return Err(ArchiveError::Link {
                        target: fs::read_link(&at).ok(),
                        path: at,
                    });
                }
                Ok(_) => {}
                Err(_) => return Ok(()),
            }
        }
        Ok(())
    }

    /// A file of the game's folder ([`Archive::no_link`]), or `None` if it is not there.
    pub fn read_own(&self, path: &Path) -> Result<Option<Vec<u8>>, ArchiveError> {
        self.no_link(path)?;
        match fs::read(path) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(ArchiveError::Io {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// Files in a folder of the archive, by name, sorted (none if the folder is absent).
    /// A symbolic link among them is refused ([`Archive::no_link`]).
    pub fn files_in(&self, dir: &Path) -> Result<Vec<(String, String)>, ArchiveError> {
        self.no_link(dir)?;
        let Ok(entries) = fs::read_dir(dir) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for e in entries.filter_map(Result::ok) {
            let path = e.path();
            let Some(name) = path
                .file_name()
                .and_then(|n| n.to_str())
                .map(str::to_string)
            else {
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            if e.file_type().is_ok_and(|t| t.is_symlink()) {
                self.no_link(&path)?;
            }
            if !path.is_file() {
                continue;
            }
            let text = fs::read_to_string(&path).map_err(|source| ArchiveError::Io {
                path: path.clone(),
                source,
            })?;
            out.push((name, text));
        }
        out.sort();
        Ok(out)
    }

    /// Orders waiting for the next turn.
    pub fn pending_dir(&self) -> PathBuf {
        self.root.join(PENDING_DIR)
    }

    /// Replace game.toml (atomically).
    pub fn save_game_file(&mut self, game: GameFile) -> Result<(), ArchiveError> {
        atomic::write_file(
            &self.root.join(GAME_FILE),
            game_file_text(&game)?.as_bytes(),
        )?;
        self.game = game;
        Ok(())
    }

    /// Add a turn's folder whole, or not at all. A turn is never overwritten.
    pub fn write_turn(&self, turn: u32, files: &[(&str, Vec<u8>)]) -> Result<(), ArchiveError> {
        let target = self.turn_dir(turn);
        if target.exists() {
            return Err(ArchiveError::TurnExists {
                dir: self.root.clone(),
                turn,
            });
        }
        let files: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|(n, b)| ((*n).to_string(), b.clone()))
            .collect();
        atomic::create_dir(&target, &files)
    }
}

/// A short, stable name for some bytes (FNV-1a, 64 bits, in hex): the same on every
/// machine and run. For telling files apart, not for security.
pub fn content_id(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// A folder's own name, also for `.` or `games/x/..`.
pub fn folder_name(dir: &Path) -> String {
    let named = |p: &Path| p.file_name().and_then(|n| n.to_str()).map(str::to_string);
    named(dir)
        .filter(|n| n != "." && n != "..")
        .or_else(|| dir.canonicalize().ok().and_then(|p| named(&p)))
        .unwrap_or_else(|| "game".to_string())
}

fn game_file_text(game: &GameFile) -> Result<String, ArchiveError> {
    let body = toml::to_string_pretty(game).map_err(|e| ArchiveError::Unwritable {
        path: PathBuf::from(GAME_FILE),
        message: e.to_string(),
    })?;
    Ok(format!(
        "# A pbem-judge game archive: see docs/archive.md.\n\
         # The GM may edit players' names and addresses, and add [mail] and [schedule]\n\
         # (docs/gm-guide.md); `judge` checks them whenever it reads this file.\n\n{body}"
    ))
}

impl Archive {
    /// game.toml's players checked against the seats the game has: each seat is one
    /// entry's, and each entry a seat's. Every problem is named with its line.
    pub fn check_seats(&self, seats: &[String]) -> Result<(), ArchiveError> {
        super::check::check_seats(&self.root, &self.game, seats)
    }
}
