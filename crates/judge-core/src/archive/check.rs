//! Checking `game.toml`: its problems, each named with its line
//! (`Slip`), the folder that must hold it, the seats, the addresses.

use std::fs;
use std::path::Path;

use super::error::{ArchiveError, NotAGame};
use super::schema::{GAME_FILE, GameFile};

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

/// game.toml's players checked against the seats the game has: each seat is one
/// entry's, and each entry a seat's. Every problem is named with its line.
pub fn check_seats(root: &Path, game: &GameFile, seats: &[String]) -> Result<(), ArchiveError> {
    let mut found = Vec::new();
    for (i, p) in game.players.iter().enumerate() {
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
        if !game.players.iter().any(|p| &p.id == seat) {
            found.push(
                Slip::new(
                    vec![Key::Name("players".into())],
                    format!(
                        "{seat}'s seat has no player in game.toml: nobody can send {seat}'s orders"
                    ),
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
    let path = root.join(GAME_FILE);
    let text = fs::read_to_string(&path).map_err(|source| ArchiveError::Io {
        path: path.clone(),
        source,
    })?;
    let items = found.iter().map(|s| s.diagnostic(&text)).collect();
    Err(slips(&path, &text, items))
}

/// A file's problems as an error that shows each with its line.
pub(super) fn slips(
    path: &Path,
    text: &str,
    items: Vec<crate::diagnostic::Diagnostic>,
) -> ArchiveError {
    ArchiveError::Slips(Box::new(crate::diagnostic::Diagnostics {
        file: path.display().to_string(),
        source: text.to_string(),
        items,
    }))
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
                out.push(Slip::new(at("imap_timeout"), e.to_string()));
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
        if let Some(n) = &self.notify {
            out.extend(notify_slips(n));
        }
        out
    }
}

/// What is wrong in a `[notify]` (game.toml's or judge.toml's), each with its place.
pub fn notify_slips(n: &super::schema::NotifySettings) -> Vec<Slip> {
    let at = |k: &str| vec![Key::Name("notify".into()), Key::Name(k.into())];
    let mut out = Vec::new();
    if let Some(url) = &n.url
        && let Err(e) = crate::notify::url::check(url)
    {
        out.push(
            Slip::new(at("url"), format!("[notify] url: {e}"))
                .help("the address the chat or site gave for its webhook, like https://discord.com/api/webhooks/…"),
        );
    }
    if let Some(t) = &n.timeout {
        let ok = humantime::parse_duration(t).is_ok_and(|d| {
            d >= std::time::Duration::from_millis(100) && d <= std::time::Duration::from_secs(60)
        });
        if !ok {
            out.push(Slip::new(
                at("timeout"),
                format!(
                    "[notify] timeout = \"{t}\": write a duration from 100ms to 1min, like 10s"
                ),
            ));
        }
    }
    if let Some(var) = &n.secret_env
        && (var.is_empty()
            || var
                .chars()
                .any(|c| !(c.is_ascii_alphanumeric() || c == '_')))
    {
        out.push(
            Slip::new(
                at("secret_env"),
                format!("[notify] secret_env = \"{var}\" is not the name of an environment variable"),
            )
            .help("name the variable that holds the secret, like secret_env = \"JUDGE_WEBHOOK_SECRET\": the secret itself is never written in the file"),
        );
    }
    out
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

/// game.toml of the game in `dir`, read and checked (every problem named with its
/// line): what [`Archive::open`](super::folder::Archive::open) opens, before it looks
/// for the folder of games the game stands in.
pub fn read_game_file(dir: &Path) -> Result<GameFile, ArchiveError> {
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
    Ok(game)
}
