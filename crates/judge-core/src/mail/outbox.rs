//! The outbox: every mail the judge sends is first written to `<game>/outbox/` as a
//! complete RFC 5322 message (built with lettre) with its envelope beside it, then sent
//! by `judge mail` or `judge turn` over SMTP or into a pickup folder, and moved to
//! `<game>/sent/`. A mail that cannot be sent stays in the outbox; nothing is lost while
//! the server is down. A mail the server refuses for good (a 5xx answer to its recipient
//! or content) is given up: kept in `<game>/outbox/failed/` with the server's answer,
//! never tried again by itself, until the GM asks for it (`judge mail --retry`).

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::{Address, Message};
use serde::{Deserialize, Serialize};

use super::smtp::{self, Failed};
use crate::archive::lock::{GameLock, LockError};
use crate::archive::{Archive, MailSettings, atomic};

pub const OUTBOX: &str = "outbox";
pub const SENT: &str = "sent";
/// Mail the server refused for good, with its answer (inside the outbox, which git
/// never keeps).
pub const FAILED: &str = "outbox/failed";

/// A mail to queue.
#[derive(Clone, Debug)]
pub struct Outgoing {
    /// A name unique to this mail: queueing the same key twice queues it once.
    pub key: String,
    pub to_name: String,
    pub to: String,
    pub subject: String,
    pub body: String,
    /// The Message-ID this answers (threading).
    pub in_reply_to: Option<String>,
    pub attachment: Option<(String, Vec<u8>, String)>,
}

/// The envelope kept beside each queued message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    pub from: String,
    pub to: String,
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error(
        "game.toml has no [mail] settings: add at least `from = \"Judge <judge@example.org>\"` (docs/gm-guide.md)"
    )]
    NotConfigured,
    /// An address that is not one: the `[mail] from` of game.toml, or a player's.
    #[error("{}`{text}`: {source}", if *from { "[mail] from " } else { "" })]
    Address {
        /// Is it `[mail] from` (not a player's address)?
        from: bool,
        /// The address as written.
        text: String,
        #[source]
        source: lettre::address::AddressError,
    },
    #[error("{0}")]
    Build(#[source] BuildError),
    /// The mail could not be sent now (the server is down, say); it may work later.
    #[error("{0}")]
    Send(#[source] SendError),
    /// The mail could not be sent as the settings are (a login refused, a certificate not
    /// trusted): the GM's to fix; the message says how.
    #[error("{0}")]
    Settings(#[source] smtp::ConnectError),
    /// The server refused the mail for good (a 5xx answer).
    #[error("{0}")]
    Refused(#[source] Failed),
    #[error(transparent)]
    Archive(#[from] crate::archive::ArchiveError),
}

impl MailError {
    /// Whose the problem is: a server down may work later; the settings, an address
    /// and a mail refused for good are the GM's to fix; the outbox's files, as the
    /// archive's.
    pub fn kind(&self) -> crate::error::Kind {
        use crate::error::Kind;
        match self {
            MailError::Send(_) => Kind::Later,
            MailError::Archive(a) => a.kind(),
            MailError::NotConfigured
            | MailError::Address { .. }
            | MailError::Build(_)
            | MailError::Settings(_)
            | MailError::Refused(_) => Kind::Input,
        }
    }
}

/// Why a mail could not be made, or kept once sent: each holds what failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The attachment's MIME type.
    #[error("{0}")]
    ContentType(#[source] lettre::message::header::ContentTypeErr),
    /// The message itself.
    #[error("{0}")]
    Message(#[source] lettre::error::Error),
    /// The envelope written beside it.
    #[error("{0}")]
    Envelope(#[source] serde_json::Error),
    /// Moving it to `sent/` or `outbox/failed/`.
    #[error("{0}")]
    Move(#[source] std::io::Error),
}

/// Why mail could not be sent now: it may work later.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// `[mail] send_timeout` cannot be used.
    #[error("{0}")]
    Timeout(#[source] crate::archive::schema::SendTimeoutError),
    /// The outbox's own lock could not be taken.
    #[error("{0}")]
    Lock(#[source] LockError),
    /// No conversation with the server could be opened.
    #[error("{0}")]
    Connect(#[source] smtp::ConnectError),
    /// The server, or this mail for now (a 4xx answer).
    #[error("{0}")]
    Failed(#[source] Failed),
}

/// Names and subjects go into headers: no control characters, so no header injection.
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

fn safe_key(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

pub fn settings(archive: &dyn Room) -> Result<&MailSettings, MailError> {
    archive.mail().ok_or(MailError::NotConfigured)
}

/// Where mail is queued and sent from: a game's folder, or the mailroom of a folder of
/// games that share one address (`archive::house`), which answers mail for no game.
pub trait Room {
    /// The folder that holds `outbox/` and `sent/`.
    fn root(&self) -> &Path;
    /// What Message-IDs name (the game's name, `mailroom`).
    fn name(&self) -> String;
    /// How mail goes out, if it is set.
    fn mail(&self) -> Option<&MailSettings>;
    /// Before anything is sent: no mail folder may be kept by git with the game.
    fn check_folders(&self) -> Result<(), crate::archive::ArchiveError>;
    /// A file about to be read from the room is not a link out of it.
    fn no_link(&self, path: &Path) -> Result<(), crate::archive::ArchiveError>;
}

impl Room for Archive {
    fn root(&self) -> &Path {
        Archive::root(self)
    }
    fn name(&self) -> String {
        Archive::name(self)
    }
    fn mail(&self) -> Option<&MailSettings> {
        Archive::mail(self)
    }
    fn check_folders(&self) -> Result<(), crate::archive::ArchiveError> {
        crate::archive::git::check_mail_folders(self)
    }
    fn no_link(&self, path: &Path) -> Result<(), crate::archive::ArchiveError> {
        Archive::no_link(self, path)
    }
}

/// Is this mail already queued, sent, or given up?
pub fn known(archive: &dyn Room, key: &str) -> bool {
    let k = safe_key(key);
    [OUTBOX, SENT, FAILED]
        .iter()
        .any(|d| archive.root().join(d).join(format!("{k}.eml")).is_file())
}

/// The message and its envelope, as they will be sent.
fn build(archive: &dyn Room, m: &Outgoing) -> Result<(Vec<u8>, Envelope), MailError> {
    let key = safe_key(&m.key);
    let s = settings(archive)?;
    let from: Mailbox = s.from.parse().map_err(|source| MailError::Address {
        from: true,
        text: s.from.clone(),
        source,
    })?;
    let to_addr: Address = m.to.trim().parse().map_err(|source| MailError::Address {
        from: false,
        text: m.to.clone(),
        source,
    })?;
    let to = Mailbox::new(Some(clean(&m.to_name)).filter(|n| !n.is_empty()), to_addr);
    let mut b = Message::builder()
        .from(from.clone())
        .to(to.clone())
        .subject(clean(&m.subject))
        .message_id(Some(format!(
            "<{key}.{}@pbem-judge>",
            safe_key(archive.name().as_str())
        )));
    if let Some(id) = &m.in_reply_to {
        let id = clean(id);
        b = b.in_reply_to(id.clone()).references(id);
    }
    // Text bodies are given as String with CRLF line ends already: lettre would make them
    // so itself, but by inserting each `\r` into the string, which takes time that grows
    // with the square of the body's size (a 14 MB answer took minutes).
    let text = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(crlf(&m.body));
    let message = match &m.attachment {
        None => b.singlepart(text),
        Some((name, bytes, mime)) => {
            let ct = ContentType::parse(mime)
                .map_err(|e| MailError::Build(BuildError::ContentType(e)))?;
            b.multipart(
                MultiPart::mixed()
                    .singlepart(text)
                    .singlepart(Attachment::new(clean(name)).body(bytes.clone(), ct)),
            )
        }
    }
    .map_err(|e| MailError::Build(BuildError::Message(e)))?;
    let env = Envelope {
        from: from.email.to_string(),
        to: to.email.to_string(),
    };
    Ok((message.formatted(), env))
}

/// `text` with every line ending CRLF, in one pass.
fn crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 32);
    let mut last = '\0';
    for c in text.chars() {
        if c == '\n' && last != '\r' {
            out.push('\r');
        }
        out.push(c);
        last = c;
    }
    out
}

/// Write a mail into the outbox (once per key). Returns its path.
pub fn queue(archive: &dyn Room, m: &Outgoing) -> Result<PathBuf, MailError> {
    let key = safe_key(&m.key);
    let dir = archive.root().join(OUTBOX);
    let path = dir.join(format!("{key}.eml"));
    if known(archive, &m.key) {
        return Ok(path);
    }
    let (raw, env) = build(archive, m)?;
    atomic::write_file(
        &dir.join(format!("{key}.env.json")),
        &serde_json::to_vec_pretty(&env).map_err(|e| MailError::Build(BuildError::Envelope(e)))?,
    )?;
    atomic::write_file(&path, &raw)?;
    Ok(path)
}

/// Queue a mail, or skip it when its address cannot be used (a bad address in
/// game.toml): one player's address never stops mail to the others. `Ok(false)`: skipped.
pub fn queue_unless_unaddressable(archive: &dyn Room, m: &Outgoing) -> Result<bool, MailError> {
    match queue(archive, m) {
        Ok(_) => Ok(true),
        Err(MailError::Address { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Send a mail at once, without queueing it, and keep `kept` (the same mail with what
/// must not be kept taken out) as its sent copy. For a mail that holds a secret: if it
/// cannot be sent, nothing of it is written anywhere.
pub fn send_now(archive: &dyn Room, m: &Outgoing, kept: &Outgoing) -> Result<(), MailError> {
    let s = settings(archive)?.clone();
    archive.check_folders()?;
    let (raw, env) = build(archive, m)?;
    let limit = s
        .send_timeout()
        .map_err(|e| MailError::Send(SendError::Timeout(e)))?;
    let deadline = Instant::now() + limit;
    let mut session = match &s.pickup {
        Some(_) => None,
        None => Some(smtp::connect(&s, deadline, limit).map_err(|e| {
            if e.is_settings() {
                MailError::Settings(e)
            } else {
                MailError::Send(SendError::Connect(e))
            }
        })?),
    };
    let sent = deliver(archive, &s, session.as_mut(), &safe_key(&m.key), &raw, &env);
    if let Some(session) = session {
        session.quit();
    }
    sent.map_err(|f| match &f {
        Failed::Refused(_) => MailError::Refused(f),
        Failed::Server(_) | Failed::Later(_) => MailError::Send(SendError::Failed(f)),
    })?;
    let (copy, _) = build(archive, kept)?;
    atomic::write_file(
        &archive
            .root()
            .join(SENT)
            .join(format!("{}.eml", safe_key(&kept.key))),
        &copy,
    )?;
    Ok(())
}

/// What a send run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SendReport {
    pub sent: Vec<String>,
    /// Mails tried and left in the outbox, with why.
    pub failed: Vec<(String, String)>,
    /// Mails the server refused for good, given up: key, recipient, the server's answer.
    pub refused: Vec<(String, String, String)>,
    /// Mails not tried, left in the outbox, because of `stopped`.
    pub left: Vec<String>,
    /// Why the run stopped before the end (the server could not be talked to).
    pub stopped: Option<String>,
    /// The run stopped for the settings or the trust (a login refused, a certificate not
    /// trusted), not the server: the GM's to fix (exit 1).
    pub stopped_by_settings: bool,
}

/// A mail given up: to whom, and what the server said (`outbox/failed/KEY.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    pub to: String,
    pub why: String,
}

/// The mails waiting in the outbox, oldest name first.
pub fn waiting(archive: &dyn Room) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(archive.root().join(OUTBOX))
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().to_str().map(str::to_string))
                .filter_map(|n| n.strip_suffix(".eml").map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Mark a mail sent: its message moves to `sent/` (that move is the mark, synced to
/// disk before this returns), then its envelope follows.
fn move_to_sent(archive: &dyn Room, key: &str) -> std::io::Result<()> {
    let sent = archive.root().join(SENT);
    let outbox = archive.root().join(OUTBOX);
    fs::create_dir_all(&sent)?;
    let from = outbox.join(format!("{key}.eml"));
    if from.exists() {
        fs::rename(&from, sent.join(format!("{key}.eml")))?;
    }
    fs::File::open(&sent)?.sync_all()?;
    fs::File::open(&outbox)?.sync_all()?;
    let env = outbox.join(format!("{key}.env.json"));
    if env.exists() {
        fs::rename(&env, sent.join(format!("{key}.env.json")))?;
    }
    Ok(())
}

/// Why a mail could not be written into a pickup folder: it waits in the outbox.
#[derive(Debug, thiserror::Error)]
pub enum PickupError {
    /// The folder, or the file being written in it.
    #[error("{}: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// Every name the mail may have is another mail's.
    #[error("{}: {PICKUP_NAMES} other mails are named {key}.eml, {key}.1.eml, …: empty the pickup folder", dir.display())]
    Full { dir: PathBuf, key: String },
}

/// Why a mail waiting in the outbox cannot be read back to be sent: it is left there,
/// and the run goes on with the next.
#[derive(Debug, thiserror::Error)]
pub enum QueuedMailError {
    /// The message is reached through a link, which is never followed.
    #[error(transparent)]
    Link(#[from] crate::archive::ArchiveError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The envelope beside it is not the JSON the judge writes.
    #[error(transparent)]
    Envelope(#[from] serde_json::Error),
}

/// The most names tried for one mail in a pickup folder.
const PICKUP_NAMES: usize = 1000;

/// Write a mail into a pickup folder, which other games may share: never over a file
/// that is there. It is written beside (`.tmp-…`, synced) and then linked in under
/// `KEY.eml`, or, if another mail has that name, `KEY.1.eml`, `KEY.2.eml`, …. A file
/// under one of those names with these very bytes is this mail, handed over by a run
/// killed before it marked it sent: it is not written again. Returns the file's path.
fn drop_into(dir: &Path, key: &str, raw: &[u8]) -> Result<PathBuf, PickupError> {
    let io = |p: &Path, error: std::io::Error| PickupError::Io {
        path: p.to_path_buf(),
        error,
    };
    fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .map_err(|e| io(dir, e))?;
    tmp.write_all(raw).map_err(|e| io(tmp.path(), e))?;
    tmp.as_file().sync_all().map_err(|e| io(tmp.path(), e))?;
    for n in 0..PICKUP_NAMES {
        let path = match n {
            0 => dir.join(format!("{key}.eml")),
            n => dir.join(format!("{key}.{n}.eml")),
        };
        match tmp.persist_noclobber(&path) {
            Ok(_) => {
                fs::File::open(dir)
                    .and_then(|d| d.sync_all())
                    .map_err(|e| io(dir, e))?;
                return Ok(path);
            }
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
                tmp = e.file;
                if fs::read(&path).is_ok_and(|there| there == raw) {
                    return Ok(path);
                }
            }
            Err(e) => return Err(io(&path, e.error)),
        }
    }
    Err(PickupError::Full {
        dir: dir.to_path_buf(),
        key: key.to_string(),
    })
}

/// Hand one message to the SMTP server, or write it into the pickup folder.
fn deliver(
    archive: &dyn Room,
    s: &MailSettings,
    smtp: Option<&mut smtp::Session>,
    key: &str,
    raw: &[u8],
    env: &Envelope,
) -> Result<(), Failed> {
    match (&s.pickup, smtp) {
        (Some(p), _) => {
            let p = if p.is_absolute() {
                p.clone()
            } else {
                archive.root().join(p)
            };
            drop_into(&p, key, raw)
                .map(|_| ())
                .map_err(|e| Failed::Later(e.to_string()))
        }
        (None, Some(t)) => {
            // Both were checked when the mail was queued; a recipient that no longer
            // reads can never be delivered, a sender that does not is the settings'.
            let from = env
                .from
                .parse::<Address>()
                .map_err(|e| Failed::Server(format!("the judge's address `{}`: {e}", env.from)))?;
            let to = env
                .to
                .parse::<Address>()
                .map_err(|e| Failed::Refused(format!("`{}`: {e}", env.to)))?;
            t.send(&from, &to, raw)
        }
        (None, None) => Err(Failed::Server("no way to send mail is configured".into())),
    }
}

/// Give a mail up: the server's answer beside it, then the message and its envelope
/// moved out of the outbox (the move of the message is the mark), into `outbox/failed/`.
fn move_to_failed(archive: &dyn Room, key: &str, refusal: &Refusal) -> std::io::Result<()> {
    let failed = archive.root().join(FAILED);
    let outbox = archive.root().join(OUTBOX);
    fs::create_dir_all(&failed)?;
    let json = serde_json::to_vec_pretty(refusal).map_err(std::io::Error::other)?;
    atomic::write_file(&failed.join(format!("{key}.json")), &json)
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    fs::rename(
        outbox.join(format!("{key}.eml")),
        failed.join(format!("{key}.eml")),
    )?;
    fs::File::open(&failed)?.sync_all()?;
    fs::File::open(&outbox)?.sync_all()?;
    let env = outbox.join(format!("{key}.env.json"));
    if env.exists() {
        fs::rename(&env, failed.join(format!("{key}.env.json")))?;
    }
    Ok(())
}

/// The mails given up, by key, with to whom and why: those in `outbox/failed/` with the
/// server's answer beside them.
pub fn refused(archive: &dyn Room) -> Vec<(String, Refusal)> {
    let dir = archive.root().join(FAILED);
    let mut out: Vec<(String, Refusal)> = fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            let key = name.strip_suffix(".eml")?.to_string();
            let note = fs::read(dir.join(format!("{key}.json"))).ok()?;
            Some((key, serde_json::from_slice(&note).ok()?))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Forget a mail given up (its report was made anew, `judge mail --resend`): the
/// server's answer goes, so it is neither listed nor tried again; the mail itself stays
/// in `outbox/failed/`, so that the report is not queued a second time.
pub fn forget(archive: &dyn Room, key: &str) -> Result<(), MailError> {
    let path = archive
        .root()
        .join(FAILED)
        .join(format!("{}.json", safe_key(key)));
    match fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(MailError::Archive(crate::archive::ArchiveError::Io {
            path,
            source,
        })),
    }
}

/// Put the mails given up back into the outbox, to be tried again (`judge mail
/// --retry`). Returns their keys.
pub fn retry(archive: &dyn Room) -> Result<Vec<String>, MailError> {
    let failed = archive.root().join(FAILED);
    let outbox = archive.root().join(OUTBOX);
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| {
            MailError::Archive(crate::archive::ArchiveError::Io {
                path: path.clone(),
                source,
            })
        }
    };
    let mut keys = Vec::new();
    for (key, _) in refused(archive) {
        let env = failed.join(format!("{key}.env.json"));
        if env.exists() {
            fs::rename(&env, outbox.join(format!("{key}.env.json"))).map_err(io(&env))?;
        }
        let eml = failed.join(format!("{key}.eml"));
        fs::rename(&eml, outbox.join(format!("{key}.eml"))).map_err(io(&eml))?;
        let note = failed.join(format!("{key}.json"));
        if note.exists() {
            fs::remove_file(&note).map_err(io(&note))?;
        }
        keys.push(key);
    }
    Ok(keys)
}

/// Send every waiting mail; those that fail stay for next time. Each mail is marked
/// sent (moved to `sent/`, synced to disk) before the next is sent: a crash can send at
/// most the one mail in flight twice.
///
/// The whole run, waiting for another sender included, takes at most `[mail]
/// send_timeout`: a server that does not answer costs that once, and what is not sent by
/// then waits for the next run. The caller need not hold the game's lock (and should
/// not, so that a slow server holds up no other command): the outbox has its own,
/// `outbox/.judge.lock`, so that two runs never send the same mail.
pub fn send_all(archive: &dyn Room) -> Result<SendReport, MailError> {
    let s = settings(archive)?.clone();
    archive.check_folders()?;
    let limit = s
        .send_timeout()
        .map_err(|e| MailError::Send(SendError::Timeout(e)))?;
    let deadline = Instant::now() + limit;
    let mut report = SendReport::default();
    let dir = archive.root().join(OUTBOX);
    if !dir.is_dir() {
        return Ok(report);
    }
    let _sending = match GameLock::acquire(&dir, "judge sending mail", limit) {
        Ok(lock) => lock,
        Err(LockError::Busy { holder, .. }) => {
            report.left = waiting(archive);
            if !report.left.is_empty() {
                report.stopped = Some(format!(
                    "another judge command was sending this game's mail for all of the {} the run may take ({holder})",
                    humantime::format_duration(limit)
                ));
            }
            return Ok(report);
        }
        Err(e) => return Err(MailError::Send(SendError::Lock(e))),
    };
    // An envelope left behind by a run killed just after its mail was marked sent.
    for e in fs::read_dir(archive.root().join(OUTBOX))
        .into_iter()
        .flatten()
        .flatten()
    {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(key) = name.strip_suffix(".env.json")
            && !archive
                .root()
                .join(OUTBOX)
                .join(format!("{key}.eml"))
                .exists()
            && archive
                .root()
                .join(SENT)
                .join(format!("{key}.eml"))
                .exists()
        {
            let _ = fs::rename(e.path(), archive.root().join(SENT).join(&name));
        }
    }
    let keys = waiting(archive);
    let mut session: Option<smtp::Session> = None;
    for (i, key) in keys.iter().enumerate() {
        let dir = archive.root().join(OUTBOX);
        let read = (|| -> Result<(Vec<u8>, Envelope), QueuedMailError> {
            let path = dir.join(format!("{key}.eml"));
            // Never mail a file a link leads to.
            archive.no_link(&path)?;
            let raw = fs::read(&path)?;
            let env: Envelope =
                serde_json::from_slice(&fs::read(dir.join(format!("{key}.env.json")))?)?;
            Ok((raw, env))
        })();
        let (raw, env) = match read {
            Ok(r) => r,
            Err(why) => {
                report.failed.push((key.clone(), why.to_string()));
                continue;
            }
        };
        if s.pickup.is_none() {
            if session.as_ref().is_some_and(|t| t.broken) {
                session = None;
            }
            if session.is_none() {
                match smtp::connect(&s, deadline, limit) {
                    Ok(t) => session = Some(t),
                    Err(why) => {
                        report.left = keys[i..].to_vec();
                        report.stopped = Some(why.to_string());
                        report.stopped_by_settings = why.is_settings();
                        break;
                    }
                }
            }
        }
        match deliver(archive, &s, session.as_mut(), key, &raw, &env) {
            Ok(()) => {
                move_to_sent(archive, key).map_err(|e| MailError::Build(BuildError::Move(e)))?;
                report.sent.push(key.clone());
            }
            Err(Failed::Later(why)) => report.failed.push((key.clone(), why)),
            Err(Failed::Refused(why)) => {
                let refusal = Refusal {
                    to: env.to.clone(),
                    why,
                };
                move_to_failed(archive, key, &refusal)
                    .map_err(|e| MailError::Build(BuildError::Move(e)))?;
                report.refused.push((key.clone(), refusal.to, refusal.why));
            }
            Err(Failed::Server(why)) => {
                report.left = keys[i..].to_vec();
                report.stopped = Some(why);
                break;
            }
        }
    }
    if let Some(t) = session {
        t.quit();
    }
    Ok(report)
}

/// The path of a mail kept as sent.
pub fn sent_path(archive: &dyn Room, key: &str) -> PathBuf {
    archive
        .root()
        .join(SENT)
        .join(format!("{}.eml", safe_key(key)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Line ends become CRLF in one pass (lettre's own way inserts
    /// each `\r` into the string, which grows with the square of the size), and a body
    /// already in CRLF is left as it is.
    #[test]
    fn line_ends_become_crlf_once() {
        assert_eq!(crlf("a\nb\r\nc\n\nd"), "a\r\nb\r\nc\r\n\r\nd");
        assert_eq!(crlf("\n"), "\r\n");
        assert_eq!(crlf("é\nü"), "é\r\nü");
        let big = "help\n".repeat(200_000);
        assert_eq!(crlf(&big).len(), big.len() + 200_000);
    }

    /// Does the chain of sources below `e` reach an error of type `T`?
    fn reaches<T: std::error::Error + 'static>(e: &dyn std::error::Error) -> bool {
        let mut at = e.source();
        while let Some(cause) = at {
            if cause.is::<T>() {
                return true;
            }
            at = cause.source();
        }
        false
    }

    /// Each failure keeps the error that caused it, reachable through
    /// `std::error::Error::source`, says the very words it said when it kept only their
    /// text (the inner error's, or the address's with it), and keeps its kind: a server
    /// to come back is for later, the rest is the GM's to fix.
    #[test]
    fn mail_errors_keep_their_cause_their_words_and_their_kind() {
        use crate::error::Kind;
        use lettre::address::AddressError;

        let cause = || "judge at example.org".parse::<Mailbox>().unwrap_err();
        let e = MailError::Address {
            from: true,
            text: "judge at example.org".into(),
            source: cause(),
        };
        assert_eq!(
            e.to_string(),
            format!("[mail] from `judge at example.org`: {}", cause())
        );
        assert!(reaches::<AddressError>(&e));
        assert_eq!(e.kind(), Kind::Input);

        let cause = || " ann@".trim().parse::<Address>().unwrap_err();
        let e = MailError::Address {
            from: false,
            text: " ann@".into(),
            source: cause(),
        };
        assert_eq!(e.to_string(), format!("` ann@`: {}", cause()));
        assert!(reaches::<AddressError>(&e));
        assert_eq!(e.kind(), Kind::Input);

        let cause = || ContentType::parse("no type at all").unwrap_err();
        let e = MailError::Build(BuildError::ContentType(cause()));
        assert_eq!(e.to_string(), cause().to_string());
        assert!(reaches::<lettre::message::header::ContentTypeErr>(&e));
        assert_eq!(e.kind(), Kind::Input);

        let cause = || Message::builder().body(String::new()).unwrap_err();
        let e = MailError::Build(BuildError::Message(cause()));
        assert_eq!(e.to_string(), cause().to_string());
        assert!(reaches::<lettre::error::Error>(&e));
        assert_eq!(e.kind(), Kind::Input);

        let cause = || serde_json::from_str::<Envelope>("{").unwrap_err();
        let e = MailError::Build(BuildError::Envelope(cause()));
        assert_eq!(e.to_string(), cause().to_string());
        assert!(reaches::<serde_json::Error>(&e));

        let cause = || std::io::Error::other("no space left on device");
        let e = MailError::Build(BuildError::Move(cause()));
        assert_eq!(e.to_string(), "no space left on device");
        assert!(reaches::<std::io::Error>(&e));

        let cause = || crate::archive::schema::SendTimeoutError::OutOfRange { text: "0s".into() };
        let e = MailError::Send(SendError::Timeout(cause()));
        assert_eq!(e.to_string(), cause().to_string());
        assert!(e.to_string().starts_with("[mail] send_timeout = \"0s\": "));
        assert!(reaches::<crate::archive::schema::SendTimeoutError>(&e));
        assert_eq!(e.kind(), Kind::Later);

        let cause = || LockError::Io {
            path: PathBuf::from("outbox/.judge.lock"),
            source: std::io::Error::other("read-only file system"),
        };
        let e = MailError::Send(SendError::Lock(cause()));
        assert_eq!(e.to_string(), "outbox/.judge.lock: read-only file system");
        assert!(reaches::<LockError>(&e));
        assert!(reaches::<std::io::Error>(&e));
        assert_eq!(e.kind(), Kind::Later);

        let down = "the SMTP server at mail.example.org:587 cannot be reached: connection refused";
        let e = MailError::Send(SendError::Connect(smtp::ConnectError::Server(down.into())));
        assert_eq!(e.to_string(), down);
        assert!(reaches::<smtp::ConnectError>(&e));
        assert_eq!(e.kind(), Kind::Later);

        let later = "451 4.3.0 try again later";
        let e = MailError::Send(SendError::Failed(Failed::Later(later.into())));
        assert_eq!(e.to_string(), later);
        assert!(reaches::<Failed>(&e));
        assert_eq!(e.kind(), Kind::Later);

        let e = MailError::Settings(smtp::ConnectError::NoHost);
        assert_eq!(e.to_string(), "no smtp_host and no pickup folder in [mail]");
        assert!(reaches::<smtp::ConnectError>(&e));
        assert_eq!(e.kind(), Kind::Input);

        let refused = "550 5.1.1 no such user";
        let e = MailError::Refused(Failed::Refused(refused.into()));
        assert_eq!(e.to_string(), refused);
        assert!(reaches::<Failed>(&e));
        assert_eq!(e.kind(), Kind::Input);
    }
}
