//! A folder of games under one judge address (docs/gm-guide.md, "Many games, one
//! address"): `judge.toml` beside the game folders holds the `[mail]` they share — the
//! one mailbox the judge reads for all of them, and how their mail goes out — and
//! `mailroom/` keeps what belongs to no game: the log of every mail read from the shared
//! mailbox and where it went, and the answers to mail for no game.
//!
//! ```text
//! games/
//!   judge.toml        [mail] from, smtp_*, and maildir, mbox or imap_* (the shared mailbox)
//!   mailroom/         log.jsonl, inbox/, outbox/, sent/ (never committed)
//!   island/           a game: game.toml, turns/, …  (its own [mail] still wins)
//!   harbour/
//! ```

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::ArchiveError;
use super::schema::{GAME_FILE, MailSettings};

/// The file of a folder of games.
pub const HOUSE_FILE: &str = "judge.toml";
/// Where the folder keeps what belongs to no game.
pub const MAILROOM_DIR: &str = "mailroom";

/// `judge.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HouseFile {
    /// The mail every game of the folder shares: `from`, how mail goes out, and the one
    /// mailbox (`maildir` or `imap_*`) read for all of them.
    pub mail: MailSettings,
    /// Notices by webhook for every game of the folder whose game.toml has no
    /// `[notify]` of its own (docs/gm-guide.md, "Notices by webhook").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notify: Option<super::schema::NotifySettings>,
}

/// A folder of games that share one address.
#[derive(Clone, Debug)]
pub struct House {
    root: PathBuf,
    pub file: HouseFile,
}

impl House {
    /// Read `dir/judge.toml`.
    pub fn open(dir: &Path) -> Result<House, ArchiveError> {
        if !dir.is_dir() {
            return Err(ArchiveError::Invalid {
                path: dir.to_path_buf(),
                message: format!(
                    "there is no folder of games here: name the folder that holds {HOUSE_FILE} and the games"
                ),
            });
        }
        let path = dir.join(HOUSE_FILE);
        let text = fs::read_to_string(&path).map_err(|source| {
            if source.kind() == std::io::ErrorKind::NotFound {
                ArchiveError::Invalid {
                    path: path.clone(),
                    message: format!(
                        "there is no {HOUSE_FILE}: a folder of games under one address keeps its shared [mail] there (docs/gm-guide.md, \"Many games, one address\")"
                    ),
                }
            } else {
                ArchiveError::Io {
                    path: path.clone(),
                    source,
                }
            }
        })?;
        let mut file: HouseFile = toml::from_str(&text).map_err(|e| {
            super::check::slips(
                &path,
                &text,
                vec![crate::diagnostic::Diagnostic::new(e.message().to_string()).at_opt(e.span())],
            )
        })?;
        if let Err(e) = file.mail.from.parse::<lettre::message::Mailbox>() {
            return Err(ArchiveError::Invalid {
                path,
                message: format!(
                    "[mail] from `{}` is not a mail address ({e}): write `Judge <judge@example.org>` or a bare address",
                    file.mail.from
                ),
            });
        }
        // A trusted list is a list's address, and never the judge's own (as game.toml's
        // `[mail] lists` is checked: a slip there would trust no one, or everyone).
        let own = file
            .mail
            .from
            .parse::<lettre::message::Mailbox>()
            .map(|m| m.email.to_string())
            .unwrap_or_default();
        for list in &file.mail.lists {
            let why = match super::check::check_address(list) {
                Err(e) => Some(e.to_string()),
                Ok(()) if list.trim().eq_ignore_ascii_case(&own) => {
                    Some("it is the judge's own address".to_string())
                }
                Ok(()) => None,
            };
            if let Some(why) = why {
                return Err(ArchiveError::Invalid {
                    path,
                    message: format!(
                        "[mail] lists names `{}`: {why}; a list is the address a mailing list sends from, as its mails' From: shows it (`\"Ann via Club\" <club@lists.example>`: club@lists.example)",
                        list.trim()
                    ),
                });
            }
        }
        if let Some(n) = &file.notify {
            let found = super::check::notify_slips(n);
            if !found.is_empty() {
                let items = found.iter().map(|s| s.diagnostic(&text)).collect();
                return Err(super::check::slips(&path, &text, items));
            }
        }
        // Folders named in judge.toml are the folder's, wherever the judge runs.
        for folder in [
            &mut file.mail.maildir,
            &mut file.mail.mbox,
            &mut file.mail.pickup,
        ] {
            if let Some(p) = folder.as_mut()
                && p.is_relative()
            {
                *p = dir.join(&*p);
            }
        }
        Ok(House {
            root: dir.to_path_buf(),
            file,
        })
    }

    /// The folder of games a game's folder stands in, if it has a `judge.toml`.
    pub fn beside(game_dir: &Path) -> Result<Option<House>, ArchiveError> {
        let Some(parent) = parent_of(game_dir) else {
            return Ok(None);
        };
        if !parent.join(HOUSE_FILE).is_file() {
            return Ok(None);
        }
        House::open(&parent).map(Some)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `mailroom/`.
    pub fn mailroom(&self) -> PathBuf {
        self.root.join(MAILROOM_DIR)
    }

    /// The game folders: every folder beside judge.toml that holds a game.toml, by
    /// name.
    pub fn games(&self) -> Result<Vec<PathBuf>, ArchiveError> {
        folders_with_a_game(&self.root)
    }

    /// Does a game's own `[mail]` name the folder's mailbox (the same Maildir or mbox,
    /// or the same IMAP account)?
    pub fn shares_mailbox(&self, own: &MailSettings) -> bool {
        same_mailbox(own, &self.file.mail).is_some()
    }

    /// How a game of the folder sends mail when its game.toml has no `[mail]`: the
    /// shared settings without the shared mailbox, which the folder reads, not the game.
    pub fn sending(&self) -> MailSettings {
        MailSettings {
            maildir: None,
            mbox: None,
            imap_host: None,
            imap_port: None,
            imap_user: None,
            imap_password_env: None,
            imap_security: None,
            imap_timeout: None,
            allow_plain_password: None,
            ..self.file.mail.clone()
        }
    }
}

/// The game folders of `dir`, by name: every folder in it that holds a game.toml.
/// What only reads the games (`judge status --all`, `judge site --all`, `judge
/// ratings`) needs no judge.toml: a folder of games that each keep their own `[mail]`
/// is a club too. Without a judge.toml, a folder with no game in it is a slip (most
/// often a game's own folder, named where its folder of games was meant).
pub fn game_folders(dir: &Path) -> Result<Vec<PathBuf>, ArchiveError> {
    if !dir.is_dir() {
        return Err(ArchiveError::Invalid {
            path: dir.to_path_buf(),
            message: "there is no folder of games here".to_string(),
        });
    }
    let games = folders_with_a_game(dir)?;
    if games.is_empty() && !dir.join(HOUSE_FILE).is_file() {
        let message = if dir.join(GAME_FILE).is_file() {
            "this is a game, not a folder of games: name the folder that holds it".to_string()
        } else {
            format!(
                "no game here: a folder of games holds a folder per game, each with its {GAME_FILE}"
            )
        };
        return Err(ArchiveError::Invalid {
            path: dir.to_path_buf(),
            message,
        });
    }
    Ok(games)
}

fn folders_with_a_game(dir: &Path) -> Result<Vec<PathBuf>, ArchiveError> {
    let entries = fs::read_dir(dir).map_err(|source| ArchiveError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut games: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join(GAME_FILE).is_file())
        .collect();
    games.sort();
    Ok(games)
}

/// The path a folder or file is known by, whatever way it is written.
fn real(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// The setting by which two `[mail]`s name the same mailbox (the same Maildir or mbox,
/// or the same IMAP account): `maildir`, `mbox` or `imap_host`; none if they do not.
pub fn same_mailbox(a: &MailSettings, b: &MailSettings) -> Option<&'static str> {
    let same = |a: &Option<PathBuf>, b: &Option<PathBuf>| match (a, b) {
        (Some(a), Some(b)) => real(a) == real(b),
        _ => false,
    };
    if same(&a.maildir, &b.maildir) {
        Some("maildir")
    } else if same(&a.mbox, &b.mbox) {
        Some("mbox")
    } else if a.imap_host.is_some()
        && a.imap_host == b.imap_host
        && a.imap_port == b.imap_port
        && a.imap_user == b.imap_user
    {
        Some("imap_host")
    } else {
        None
    }
}

/// The file a Maildir keeps of the folders that read it, a path a line (game folders,
/// and folders of games whose judge.toml names it): how a game learns that another,
/// anywhere on the machine, reads its Maildir too. The only file
/// the judge writes into a mailbox, beside `new/`, `cur/` and `tmp/`, where no mail
/// program looks for mail.
pub const READERS_FILE: &str = "pbem-judge-readers";

/// The `[mail]` a folder reads a mailbox by: its game.toml's own, or its judge.toml's.
fn reads_by(folder: &Path) -> Option<MailSettings> {
    if folder.join(GAME_FILE).is_file() {
        // As `Archive::open` reads it (game.toml checked, and the folder of games it
        // stands in readable), without opening the game.
        let game = super::check::read_game_file(folder).ok()?;
        shared_mail(folder).ok()?;
        return game.mail;
    }
    if folder.join(HOUSE_FILE).is_file() {
        return House::open(folder).ok().map(|h| h.file.mail);
    }
    None
}

/// The folders other than `me` that read the mailbox `own` names, with the setting
/// that names it: the game folders beside `me` whose own `[mail]` names the same
/// mailbox, and, for a Maildir, the folders its [`READERS_FILE`] lists that still read
/// it. With `note`, `me` is written into that file (and those that no longer read it
/// left out); a file that cannot be written is passed over, as the folders beside
/// still tell.
pub fn other_readers(me: &Path, own: &MailSettings, note: bool) -> Vec<(PathBuf, &'static str)> {
    let me = real(me);
    let mut found: Vec<(PathBuf, &'static str)> = Vec::new();
    let add = |dir: PathBuf, found: &mut Vec<(PathBuf, &'static str)>| {
        let dir = real(&dir);
        if dir == me || found.iter().any(|(d, _)| *d == dir) {
            return;
        }
        if let Some(how) = reads_by(&dir).and_then(|m| same_mailbox(own, &m)) {
            found.push((dir, how));
        }
    };
    if let Some(parent) = me.parent()
        && let Ok(entries) = fs::read_dir(parent)
    {
        let mut beside: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.join(GAME_FILE).is_file())
            .collect();
        beside.sort();
        for dir in beside {
            add(dir, &mut found);
        }
    }
    if let Some(maildir) = &own.maildir {
        let file = maildir.join(READERS_FILE);
        let listed: Vec<PathBuf> = fs::read_to_string(&file)
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(PathBuf::from)
            .collect();
        for dir in &listed {
            add(dir.clone(), &mut found);
        }
        if note {
            let mut readers: Vec<PathBuf> = found
                .iter()
                .filter(|(d, how)| *how == "maildir" && listed.iter().any(|l| real(l) == *d))
                .map(|(d, _)| d.clone())
                .collect();
            readers.push(me.clone());
            readers.sort();
            let text: String = readers
                .iter()
                .map(|d| format!("{}\n", d.display()))
                .collect();
            if fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
                let _ = super::atomic::write_file(&file, text.as_bytes());
            }
        }
    }
    found
}

/// The folder a game's folder stands in (also for `.` and a bare name).
fn parent_of(dir: &Path) -> Option<PathBuf> {
    let abs = if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(dir)
    };
    let abs = abs.canonicalize().unwrap_or(abs);
    abs.parent().map(Path::to_path_buf)
}

/// The sending settings a game at `dir` takes from the folder it stands in.
pub(super) fn shared_mail(dir: &Path) -> Result<Option<MailSettings>, ArchiveError> {
    Ok(House::beside(dir)?.map(|h| h.sending()))
}

/// What a game at `dir` takes from the folder it stands in: how its mail goes out, and
/// where its notices go unless game.toml says.
pub(super) fn shared(
    dir: &Path,
) -> Result<(Option<MailSettings>, Option<super::schema::NotifySettings>), ArchiveError> {
    Ok(match House::beside(dir)? {
        Some(h) => (Some(h.sending()), h.file.notify.clone()),
        None => (None, None),
    })
}
