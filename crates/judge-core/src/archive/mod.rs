//! The game archive: a folder a GM keeps in git. See `docs/archive.md`.
//!
//! ```text
//! <game>/game.toml            the game: kind, scenario, seed, players and addresses
//! <game>/scenario.toml        the scenario it was made from, as written
//! <game>/turns/000/state.json the position after set-up
//! <game>/turns/001/...        each turn: orders as received, state, report
//! ```
//!
//! Nothing here knows the rules of any game: states are stored as the game serialises
//! them. Every write is atomic (see [`atomic`]).

pub mod atomic;
pub mod git;
pub mod house;
pub mod lock;
pub mod randomness;
pub mod schedule;

pub use schedule::Schedule;

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// `game.toml`: what a GM edits by hand. No secrets in plain text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    /// Which game the archive holds, by the name the judge knows it by
    /// ([`crate::pbem::game::Game::id`]).
    pub game: String,
    /// The game's name: what order files write after `game`, and what mails and reports
    /// call it. Archives made before it was kept take their folder's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Name of the scenario the game was made from.
    pub scenario: String,
    /// The public seed: what everyone sees from the start comes from it (a random map
    /// or board). Hidden draws come from the secret seed of
    /// `randomness.key` ([`randomness`]).
    pub seed: u64,
    #[serde(default)]
    pub players: Vec<PlayerEntry>,
    /// How mail comes in and goes out (docs/gm-guide.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mail: Option<MailSettings>,
    /// When orders are due.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Schedule>,
    /// Press between players by mail: `off`, `open` (under the sender's name, the
    /// default) or `anonymous` (a sender may also leave their name out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub press: Option<Press>,
    /// Set while the GM has paused the game (`pause` by mail): since when, RFC 3339.
    /// No deadline runs and no turn is played until `resume`, which moves the deadline
    /// on by the pause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<String>,
    /// The game master, for the GM's commands by mail (docs/mail-commands.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gm: Option<GmEntry>,
    /// What the game does for absent players (docs/gm-guide.md, "Absent players").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub absent: Option<AbsentRules>,
}

/// `[absent]`: the budget of missed turns, grace and vacations.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbsentRules {
    /// Turns a player may miss before their seat is declared open for a replacement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missed: Option<u32>,
    /// How much later the next deadline moves when a player mails `grace`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace: Option<String>,
    /// How many times each player may ask for grace in the game (2 unless set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graces: Option<usize>,
    /// How much vacation each player may take in the game (`vacation until DATE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation: Option<String>,
    /// The game's bot plays for a player whose orders a turn waits for in vain (and who
    /// has no standing orders), where the game has a bot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caretaker: Option<bool>,
    /// This long before a deadline, every player is told whose orders are not in yet
    /// (once a turn, and only if someone's are missing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_notice: Option<String>,
}

impl AbsentRules {
    pub fn grace(&self) -> Result<Option<std::time::Duration>, schedule::ScheduleError> {
        schedule::duration_of("absent.grace", self.grace.as_deref())
    }

    pub fn vacation(&self) -> Result<Option<std::time::Duration>, schedule::ScheduleError> {
        schedule::duration_of("absent.vacation", self.vacation.as_deref())
    }

    pub fn late_notice(&self) -> Result<Option<std::time::Duration>, schedule::ScheduleError> {
        schedule::duration_of("absent.late_notice", self.late_notice.as_deref())
    }
}

/// Press between players (docs/mail-commands.md, `press`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Press {
    /// No press: a `press` command is refused.
    Off,
    /// Press under the sender's name.
    #[default]
    Open,
    /// Press under the sender's name, or with it left out (`anonymous press to …`).
    Anonymous,
}

/// The game master as commands by mail know them: their address and the salted hash
/// of their secret (`judge secret DIR --gm`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GmEntry {
    #[serde(default)]
    pub name: String,
    pub email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_hash: Option<String>,
}

/// Mail settings. Passwords are never stored: only the name of the environment variable
/// that holds one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailSettings {
    /// The judge's own address, as `Name <address>` or a bare address.
    pub from: String,
    /// Outgoing: an SMTP server…
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp_host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp_port: Option<u16>,
    /// `none`, `starttls` or `tls`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp_security: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp_user: Option<String>,
    /// The environment variable that holds the SMTP password.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp_password_env: Option<String>,
    /// …or a pickup folder another program sends from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pickup: Option<PathBuf>,
    /// How long one run may spend sending the outbox, all mails together (`30s` unless
    /// set): what is not sent by then waits for the next run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_timeout: Option<String>,
    /// Incoming: a Maildir `judge turn` reads before the turn…
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maildir: Option<PathBuf>,
    /// …or an mbox file another program delivers into (a mail is known again by its
    /// bytes, as in a Maildir)…
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mbox: Option<PathBuf>,
    /// …or an IMAP server (its INBOX's unseen mail).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_port: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_user: Option<String>,
    /// The environment variable that holds the IMAP password.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_password_env: Option<String>,
    /// `none`, `starttls` or `tls` (unless set: `tls` on port 993, else `starttls`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_security: Option<String>,
    /// How long the judge waits for the IMAP server at any one step (connecting, TLS,
    /// the greeting, the login, each command): `30s` unless set. A server silent that
    /// long is given up for this run (exit 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_timeout: Option<String>,
    /// Send the SMTP or IMAP password over a connection without TLS (`*_security =
    /// "none"`) to a host that is not this machine: refused unless this is `true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_plain_password: Option<bool>,
    /// Where the judge's docs are on the web (`https://judge.example.org`): `help` by
    /// mail links the order guide there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// Mailing lists the GM trusts to forward players' mail (`lists =
    /// ["club@lists.example"]`): a mail whose `From:` is one of them is taken as from the
    /// player its `X-Original-From:`, else `Reply-To:`, else its `player` line names —
    /// filed only with that player's right secret, and answered only to the player's
    /// own address (docs/gm-guide.md, "Players who write through a mailing list").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lists: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerEntry {
    /// How the game names the player's seat (a colour, say).
    pub id: String,
    pub name: String,
    pub email: String,
    /// The salted hash of the player's secret; never the secret itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_hash: Option<String>,
}

impl PlayerEntry {
    /// A seat of a game open for sign-up that nobody has taken yet (`judge new --open`):
    /// it has no address.
    pub fn is_free(&self) -> bool {
        self.email.trim().is_empty()
    }
}

impl GameFile {
    /// The seats nobody has taken yet, in seat order (a game open for sign-up).
    pub fn free_seats(&self) -> Vec<&str> {
        self.players
            .iter()
            .filter(|p| p.is_free())
            .map(|p| p.id.as_str())
            .collect()
    }
}

/// Why a path given as a game's folder is not one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotAGame {
    NoSuchFolder,
    AFile,
    NoGameFile,
}

/// Whether `dir` is a game's folder (it holds game.toml), and if not, why: checked before
/// anything is read or written there, the lock included.
pub fn check_folder(dir: &Path) -> Result<(), ArchiveError> {
    let why = if dir.join(GAME_FILE).is_file() {
        return Ok(());
    } else if dir.is_dir() {
        NotAGame::NoGameFile
    } else if dir.exists() {
        NotAGame::AFile
    } else {
        NotAGame::NoSuchFolder
    };
    Err(ArchiveError::NotAGame {
        dir: dir.to_path_buf(),
        why,
    })
}

#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("{0} already exists and is not an empty folder: choose a new folder for the game")]
    Exists(PathBuf),
    #[error("{}", match .why {
        NotAGame::NoSuchFolder => format!("there is no folder {}: name the folder of a game (judge new makes one)", .dir.display()),
        NotAGame::AFile => format!("{} is a file, not a game's folder: name the folder that holds game.toml", .dir.display()),
        NotAGame::NoGameFile => format!("{} is not a game's folder: it has no game.toml (judge new makes a game)", .dir.display()),
    })]
    NotAGame { dir: PathBuf, why: NotAGame },
    #[error(
        "{0} has no turn 0 yet: its set-up round by mail is still going (judge status shows it)"
    )]
    NoTurns(PathBuf),
    #[error(
        "{dir} has not begun: it is open for sign-up and {} (judge status shows the seats; the game begins when the last is taken)",
        if *.free == 1 { "a seat is free".to_string() } else { format!("{} seats are free", .free) }
    )]
    NotBegun { dir: PathBuf, free: usize },
    #[error("{path}: {message}")]
    BadFile { path: PathBuf, message: String },
    #[error("turn {turn} is not in the archive {dir} ({})", if first == last { format!("it has only turn {first}") } else { format!("it has turns {first} to {last}") })]
    NoSuchTurn {
        dir: PathBuf,
        turn: u32,
        first: u32,
        last: u32,
    },
    #[error("turn {turn} is already in the archive {dir}; turns are never overwritten")]
    TurnExists { dir: PathBuf, turn: u32 },
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
    #[error(
        "{} is a symbolic link{}: the judge reads only the game's own files, never through a link (what it reads may be published, mailed or committed). Put the file itself there, or delete the link",
        path.display(),
        target.as_ref().map(|t| format!(" (to {})", t.display())).unwrap_or_default()
    )]
    Link {
        path: PathBuf,
        target: Option<PathBuf>,
    },
    /// A file a person wrote (game.toml) with what is wrong in it, line by line.
    #[error("{}", .0.render().trim_end())]
    Slips(Box<crate::diagnostic::Diagnostics>),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

pub use crate::json::stable_json;

pub const GAME_FILE: &str = "game.toml";
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
        let shared_mail = house::shared_mail(dir)?;
        Ok(Archive {
            root: dir.to_path_buf(),
            game,
            shared_mail,
        })
    }

    pub fn open(dir: &Path) -> Result<Archive, ArchiveError> {
        check_folder(dir)?;
        let path = dir.join(GAME_FILE);
        let text = fs::read_to_string(&path).map_err(|source| ArchiveError::Io {
            path: path.clone(),
            source,
        })?;
        let game: GameFile = toml::from_str(&text).map_err(|e| {
            slips(
                &path,
                &text,
                vec![crate::diagnostic::Diagnostic::new(e.message().to_string()).at_opt(e.span())],
            )
        })?;
        let found = game.slips();
        if !found.is_empty() {
            let items = found.iter().map(|s| s.diagnostic(&text)).collect();
            return Err(slips(&path, &text, items));
        }
        let shared_mail = house::shared_mail(dir)?;
        Ok(Archive {
            root: dir.to_path_buf(),
            game,
            shared_mail,
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

/// One step of a path to a place in game.toml: a key, or an entry of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    Name(String),
    Index(usize),
}

/// Something wrong in game.toml: where (the path of keys to it: `schedule`, `every`;
/// `players`, 1, `id`), what, and how to put it right. As an error it says what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Slip {
    pub at: Vec<Key>,
    pub message: String,
    pub help: Option<String>,
}

impl Slip {
    pub fn new(at: Vec<Key>, message: impl Into<String>) -> Slip {
        Slip {
            at,
            message: message.into(),
            help: None,
        }
    }

    pub fn help(mut self, help: impl Into<String>) -> Slip {
        self.help = Some(help.into());
        self
    }

    /// The slip pointed at in the file's text: the value at its path, or as near to it
    /// as the file goes.
    pub fn diagnostic(&self, text: &str) -> crate::diagnostic::Diagnostic {
        let mut d = crate::diagnostic::Diagnostic::new(self.message.clone())
            .at_opt(span_of(text, &self.at));
        if let Some(h) = &self.help {
            d = d.help(h.clone());
        }
        d
    }
}

/// A path of keys: `schedule.moved.3` as [`schedule`, `moved`, `3`].
fn dotted(path: &str) -> Vec<Key> {
    path.split('.').map(|k| Key::Name(k.to_string())).collect()
}

/// Where in a TOML text the value at `at` is written (byte range), or the deepest part
/// of the path the text has.
pub fn span_of(text: &str, at: &[Key]) -> Option<std::ops::Range<usize>> {
    let doc = toml::de::DeTable::parse(text).ok()?;
    let root = toml::de::DeValue::Table(doc.into_inner());
    let mut here = &root;
    let mut span = None;
    for k in at {
        let next = match k {
            Key::Name(n) => here.get(n.as_str()),
            Key::Index(i) => here.get(*i),
        };
        let Some(next) = next else { break };
        span = Some(next.span());
        here = next.get_ref();
    }
    span
}

impl Archive {
    /// game.toml's players checked against the seats the game has: each seat is one
    /// entry's, and each entry a seat's. Every problem is named with its line.
    pub fn check_seats(&self, seats: &[String]) -> Result<(), ArchiveError> {
        let mut found = Vec::new();
        for (i, p) in self.game.players.iter().enumerate() {
            if !seats.contains(&p.id) {
                let mut slip = Slip::new(
                    vec![
                        Key::Name("players".into()),
                        Key::Index(i),
                        Key::Name("id".into()),
                    ],
                    format!(
                        "`{}` is not a seat of this game: its seats are {}",
                        p.id,
                        crate::text::list(seats)
                    ),
                );
                if let Some(s) =
                    crate::diagnostic::did_you_mean(&p.id, seats.iter().map(String::as_str))
                {
                    slip = slip.help(format!("did you mean `{s}`?"));
                }
                found.push(slip);
            }
        }
        for seat in seats {
            if !self.game.players.iter().any(|p| &p.id == seat) {
                found.push(
                    Slip::new(
                        vec![Key::Name("players".into())],
                        format!("{seat}'s seat has no player in game.toml: nobody can send {seat}'s orders"),
                    )
                    .help(format!(
                        "add a [[players]] entry with id = \"{seat}\", a name and an address"
                    )),
                );
            }
        }
        if found.is_empty() {
            return Ok(());
        }
        let path = self.root.join(GAME_FILE);
        let text = fs::read_to_string(&path).map_err(|source| ArchiveError::Io {
            path: path.clone(),
            source,
        })?;
        let items = found.iter().map(|s| s.diagnostic(&text)).collect();
        Err(slips(&path, &text, items))
    }
}

/// A file's problems as an error that shows each with its line.
fn slips(path: &Path, text: &str, items: Vec<crate::diagnostic::Diagnostic>) -> ArchiveError {
    ArchiveError::Slips(Box::new(crate::diagnostic::Diagnostics {
        file: path.display().to_string(),
        source: text.to_string(),
        items,
    }))
}

/// How long a run may spend sending unless `[mail] send_timeout` says otherwise.
pub const SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);
/// The longest `send_timeout`: sending happens outside the game's lock, but a run that
/// cron starts every few minutes should end before the next.
pub const LONGEST_SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);

/// Why `[mail] send_timeout` in game.toml cannot be used: the GM's to put right.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SendTimeoutError {
    /// Not a duration.
    #[error("[mail] send_timeout = \"{text}\": {error}; write a duration like 30s or 2min")]
    Unreadable {
        text: String,
        error: humantime::DurationError,
    },
    /// A duration too short, or longer than [`LONGEST_SEND_TIMEOUT`].
    #[error(
        "[mail] send_timeout = \"{text}\": write a duration from 1s to {}",
        humantime::format_duration(LONGEST_SEND_TIMEOUT)
    )]
    OutOfRange { text: String },
}

/// How long the judge waits for the IMAP server at one step unless `[mail] imap_timeout`
/// says otherwise.
pub const IMAP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

impl MailSettings {
    /// How long the judge waits for the IMAP server at one step: `imap_timeout`, or
    /// [`IMAP_TIMEOUT`]; from 1s to 10min.
    pub fn imap_timeout(&self) -> Result<std::time::Duration, String> {
        let Some(t) = &self.imap_timeout else {
            return Ok(IMAP_TIMEOUT);
        };
        match humantime::parse_duration(t) {
            Ok(d) if d >= std::time::Duration::from_secs(1) && d <= LONGEST_SEND_TIMEOUT => Ok(d),
            Ok(_) => Err(format!(
                "[mail] imap_timeout = \"{t}\": write a duration from 1s to {}",
                humantime::format_duration(LONGEST_SEND_TIMEOUT)
            )),
            Err(e) => Err(format!(
                "[mail] imap_timeout = \"{t}\": {e}; write a duration like 30s or 2min"
            )),
        }
    }

    /// How long one run may spend sending: `send_timeout`, or [`SEND_TIMEOUT`].
    pub fn send_timeout(&self) -> Result<std::time::Duration, SendTimeoutError> {
        let Some(t) = &self.send_timeout else {
            return Ok(SEND_TIMEOUT);
        };
        let d = humantime::parse_duration(t).map_err(|error| SendTimeoutError::Unreadable {
            text: t.clone(),
            error,
        })?;
        if d < std::time::Duration::from_secs(1) || d > LONGEST_SEND_TIMEOUT {
            return Err(SendTimeoutError::OutOfRange { text: t.clone() });
        }
        Ok(d)
    }
}

impl GameFile {
    /// Players whose address the mail library cannot read: no mail reaches them.
    pub fn bad_addresses(&self) -> Vec<(String, AddressError)> {
        self.players
            .iter()
            .filter(|p| !p.is_free())
            .filter_map(|p| check_address(&p.email).err().map(|e| (p.id.clone(), e)))
            .collect()
    }

    /// Check what a GM may have edited by hand: addresses, the schedule, mail settings.
    /// The first problem (its message is a sentence); [`GameFile::slips`] has them all.
    pub fn validate(&self) -> Result<(), Slip> {
        match self.slips().into_iter().next() {
            Some(s) => Err(s),
            None => Ok(()),
        }
    }

    /// Everything wrong in what a GM may have edited by hand, each with its place.
    pub fn slips(&self) -> Vec<Slip> {
        let mut out = Vec::new();
        let player = |i: usize, key: &str| {
            vec![
                Key::Name("players".into()),
                Key::Index(i),
                Key::Name(key.into()),
            ]
        };
        // A seat is one player's: a second entry with the same id would take that seat's
        // mail, and leave the seat it was meant for with nobody.
        for (i, p) in self.players.iter().enumerate() {
            let id = p.id.to_ascii_lowercase();
            if let Some(first) = self.players[..i]
                .iter()
                .find(|q| q.id.to_ascii_lowercase() == id)
            {
                out.push(
                    Slip::new(
                        player(i, "id"),
                        format!(
                            "two players are {id}: {} and {}; a seat is one player's",
                            first.name, p.name
                        ),
                    )
                    .help(format!(
                        "give {}'s entry the id of the seat {} plays",
                        p.name, p.name
                    )),
                );
            }
        }
        // Two players with one address cannot be told apart: refused. An address the mail
        // library cannot read only keeps mail from that player (judge status says so),
        // never from the others.
        let mut seen: Vec<(&str, String)> = Vec::new();
        for (i, p) in self
            .players
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.is_free())
        {
            let address = p.email.trim().to_ascii_lowercase();
            if let Some((other, _)) = seen.iter().find(|(_, a)| *a == address) {
                out.push(Slip::new(
                    player(i, "email"),
                    format!(
                        "players {other} and {} have the same address `{}`: every player needs their own",
                        p.id, p.email
                    ),
                ));
            }
            seen.push((p.id.as_str(), address));
        }
        if let Some(s) = &self.schedule
            && let Err(e) = s.validate()
        {
            let mut at = vec![Key::Name("schedule".into())];
            at.extend(dotted(&e.key));
            out.push(Slip::new(at, e.to_string()));
        }
        if let Some(a) = &self.absent {
            for e in [a.grace().err(), a.vacation().err(), a.late_notice().err()]
                .into_iter()
                .flatten()
            {
                out.push(Slip::new(
                    vec![
                        Key::Name("absent".into()),
                        Key::Name(e.key.trim_start_matches("absent.").into()),
                    ],
                    e.to_string(),
                ));
            }
        }
        if let Some(m) = &self.mail {
            let at = |key: &str| vec![Key::Name("mail".into()), Key::Name(key.into())];
            if let Err(e) = m.from.parse::<lettre::message::Mailbox>() {
                out.push(Slip::new(
                    at("from"),
                    format!("[mail] from = \"{}\": {e}", m.from),
                ));
            }
            if let Err(e) = m.send_timeout() {
                out.push(Slip::new(at("send_timeout"), e.to_string()));
            }
            if let Err(e) = m.imap_timeout() {
                out.push(Slip::new(at("imap_timeout"), e));
            }
            // Without a way out, every report and answer would wait in the outbox for
            // good, and every run would say so: a slip, named before anything is queued.
            if m.smtp_host.is_none() && m.pickup.is_none() {
                out.push(
                    Slip::new(
                        vec![Key::Name("mail".into())],
                        "[mail] has no way to send mail: it needs smtp_host or pickup",
                    )
                    .help(
                        "add smtp_host = \"mail.example.org\" (an SMTP server) or \
                         pickup = \"/var/spool/judge\" (a folder another program sends from); \
                         docs/gm-guide.md shows both",
                    ),
                );
            }
            for list in &m.lists {
                if let Err(e) = check_address(list) {
                    out.push(Slip::new(at("lists"), format!("[mail] lists: {e}")));
                } else if m
                    .from
                    .parse::<lettre::message::Mailbox>()
                    .is_ok_and(|own| own.email.to_string().eq_ignore_ascii_case(list.trim()))
                    || self
                        .players
                        .iter()
                        .any(|p| !p.is_free() && p.email.trim().eq_ignore_ascii_case(list.trim()))
                {
                    out.push(
                        Slip::new(
                            at("lists"),
                            format!(
                                "[mail] lists names `{}`, the judge's own address or a player's: a list is the address a mailing list sends from",
                                list.trim()
                            ),
                        )
                        .help("write the list's address, as its mails' From: shows it (`\"Ann via Club\" <club@lists.example>`: club@lists.example)"),
                    );
                }
            }
            for (key, v) in [
                ("smtp_security", &m.smtp_security),
                ("imap_security", &m.imap_security),
            ] {
                if let Some(v) = v
                    && !matches!(v.as_str(), "none" | "starttls" | "tls")
                {
                    out.push(Slip::new(
                        at(key),
                        format!("[mail] {key} = \"{v}\": write \"none\", \"starttls\" or \"tls\""),
                    ));
                }
            }
        }
        out
    }
}

/// A mail address the mail library cannot read, and what it says of it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{address}` is not a mail address ({error})")]
pub struct AddressError {
    pub address: String,
    pub error: lettre::address::AddressError,
}

/// A mail address as the mail library reads it (so that one it refuses later is refused
/// here, before anything is written).
pub fn check_address(address: &str) -> Result<(), AddressError> {
    address
        .trim()
        .parse::<lettre::Address>()
        .map(|_| ())
        .map_err(|error| AddressError {
            address: address.to_string(),
            error,
        })
}

fn game_file_text(game: &GameFile) -> Result<String, ArchiveError> {
    let body = toml::to_string_pretty(game).map_err(|e| ArchiveError::BadFile {
        path: PathBuf::from(GAME_FILE),
        message: e.to_string(),
    })?;
    Ok(format!(
        "# A pbem-judge game archive: see docs/archive.md.\n\
         # The GM may edit players' names and addresses, and add [mail] and [schedule]\n\
         # (docs/gm-guide.md); `judge` checks them whenever it reads this file.\n\n{body}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> GameFile {
        GameFile {
            game: "some-game".into(),
            name: None,
            scenario: "test".into(),
            seed: 1,
            players: vec![PlayerEntry {
                id: "red".into(),
                name: "Ann".into(),
                email: "ann@example.org".into(),
                secret_hash: None,
            }],
            mail: None,
            schedule: None,
            press: None,
            paused: None,
            gm: None,
            absent: None,
        }
    }

    #[test]
    fn an_archive_is_created_whole_and_reopened() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("g");
        Archive::create(
            &dir,
            game(),
            "x = 1\n",
            &[("turns/000/state.json", b"{}\n".to_vec())],
            &[],
        )
        .expect("create");
        let a = Archive::open(&dir).expect("open");
        assert_eq!(a.game, game());
        assert_eq!(a.turns().expect("turns"), vec![0]);
        assert_eq!(a.read(0, STATE_FILE).expect("read"), "{}\n");
        // No temporary folders are left beside it.
        let names: Vec<_> = fs::read_dir(tmp.path())
            .expect("ls")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("g")]);
    }

    /// Issue 21, point 16: `[mail] send_timeout` is read when game.toml is, and bounded.
    #[test]
    fn the_send_timeout_is_checked_with_the_file() {
        let mut g = game();
        let mut m = MailSettings {
            from: "judge@example.org".into(),
            pickup: Some("/var/spool/judge".into()),
            ..MailSettings::default()
        };
        assert_eq!(m.send_timeout(), Ok(SEND_TIMEOUT));
        m.send_timeout = Some("2min".into());
        assert_eq!(m.send_timeout(), Ok(std::time::Duration::from_secs(120)));
        for bad in ["0s", "1year", "soon"] {
            m.send_timeout = Some(bad.into());
            g.mail = Some(m.clone());
            let slips = g.slips();
            assert_eq!(slips.len(), 1, "{bad}");
            assert_eq!(
                slips[0].at,
                [Key::Name("mail".into()), Key::Name("send_timeout".into())]
            );
            assert!(
                slips[0].message.starts_with("[mail] send_timeout = "),
                "{bad}"
            );
        }
    }

    /// Issue 22: the typed errors of game.toml's settings say what the strings said.
    #[test]
    fn settings_errors_keep_their_words() {
        let mut m = MailSettings {
            send_timeout: Some("11min".into()),
            ..MailSettings::default()
        };
        assert_eq!(
            m.send_timeout().map_err(|e| e.to_string()),
            Err("[mail] send_timeout = \"11min\": write a duration from 1s to 10m".into())
        );
        m.send_timeout = Some("soon".into());
        let why = humantime::parse_duration("soon").expect_err("not a duration");
        assert_eq!(
            m.send_timeout().map_err(|e| e.to_string()),
            Err(format!(
                "[mail] send_timeout = \"soon\": {why}; write a duration like 30s or 2min"
            ))
        );
        let why = "ann"
            .parse::<lettre::Address>()
            .expect_err("not an address");
        assert_eq!(
            check_address("ann").map_err(|e| e.to_string()),
            Err(format!("`ann` is not a mail address ({why})"))
        );
        let mut g = game();
        assert_eq!(g.validate(), Ok(()));
        let ann = g.players[0].clone();
        g.players.push(ann);
        assert_eq!(
            g.validate().map_err(|s| s.to_string()),
            Err("two players are red: Ann and Ann; a seat is one player's".into())
        );
    }

    #[test]
    fn an_existing_game_is_never_overwritten() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("g");
        Archive::create(&dir, game(), "", &[], &[]).expect("create");
        let again = Archive::create(&dir, game(), "", &[], &[]);
        assert!(matches!(again, Err(ArchiveError::Exists(_))));
        let a = Archive::open(&dir).expect("open");
        a.write_turn(0, &[(STATE_FILE, b"0".to_vec())])
            .expect("turn 0");
        a.write_turn(1, &[(STATE_FILE, b"1".to_vec())])
            .expect("turn 1");
        assert!(matches!(
            a.write_turn(1, &[(STATE_FILE, b"2".to_vec())]),
            Err(ArchiveError::TurnExists { .. })
        ));
        assert_eq!(a.read(1, STATE_FILE).expect("read"), "1");
        assert_eq!(a.pick_turn(None).expect("latest"), 1);
        assert!(matches!(
            a.pick_turn(Some(7)),
            Err(ArchiveError::NoSuchTurn { .. })
        ));
    }
}
