//! The outbox: every mail the judge sends is first written to `<game>/outbox/` as a
//! complete RFC 5322 message (built with lettre) with its envelope beside it, then sent
//! by `judge mail` or `judge turn` over SMTP or into a pickup folder, and moved to
//! `<game>/sent/`. A mail that cannot be sent stays in the outbox; nothing is lost while
//! the server is down.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{Address, Message, SmtpTransport, Transport};
use serde::{Deserialize, Serialize};

use crate::archive::{Archive, MailSettings, atomic};

pub const OUTBOX: &str = "outbox";
pub const SENT: &str = "sent";

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
    #[error("{0}")]
    Address(String),
    #[error("{0}")]
    Build(String),
    /// The mail could not be sent now (the server is down, say); it may work later.
    #[error("{0}")]
    Send(String),
    #[error(transparent)]
    Archive(#[from] crate::archive::ArchiveError),
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

pub fn settings(archive: &Archive) -> Result<&MailSettings, MailError> {
    archive.game.mail.as_ref().ok_or(MailError::NotConfigured)
}

/// Is this mail already queued or sent?
pub fn known(archive: &Archive, key: &str) -> bool {
    let k = safe_key(key);
    [OUTBOX, SENT]
        .iter()
        .any(|d| archive.root().join(d).join(format!("{k}.eml")).is_file())
}

/// The message and its envelope, as they will be sent.
fn build(archive: &Archive, m: &Outgoing) -> Result<(Vec<u8>, Envelope), MailError> {
    let key = safe_key(&m.key);
    let s = settings(archive)?;
    let from: Mailbox = s
        .from
        .parse()
        .map_err(|e| MailError::Address(format!("[mail] from `{}`: {e}", s.from)))?;
    let to_addr: Address =
        m.to.trim()
            .parse()
            .map_err(|e| MailError::Address(format!("`{}`: {e}", m.to)))?;
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
    // Text bodies are given as String so that line endings become CRLF on the wire.
    let text = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(m.body.clone());
    let message = match &m.attachment {
        None => b.singlepart(text),
        Some((name, bytes, mime)) => {
            let ct = ContentType::parse(mime).map_err(|e| MailError::Build(e.to_string()))?;
            b.multipart(
                MultiPart::mixed()
                    .singlepart(text)
                    .singlepart(Attachment::new(clean(name)).body(bytes.clone(), ct)),
            )
        }
    }
    .map_err(|e| MailError::Build(e.to_string()))?;
    let env = Envelope {
        from: from.email.to_string(),
        to: to.email.to_string(),
    };
    Ok((message.formatted(), env))
}

/// Write a mail into the outbox (once per key). Returns its path.
pub fn queue(archive: &Archive, m: &Outgoing) -> Result<PathBuf, MailError> {
    let key = safe_key(&m.key);
    let dir = archive.root().join(OUTBOX);
    let path = dir.join(format!("{key}.eml"));
    if known(archive, &m.key) {
        return Ok(path);
    }
    let (raw, env) = build(archive, m)?;
    atomic::write_file(
        &dir.join(format!("{key}.env.json")),
        &serde_json::to_vec_pretty(&env).map_err(|e| MailError::Build(e.to_string()))?,
    )?;
    atomic::write_file(&path, &raw)?;
    Ok(path)
}

/// Queue a mail, or skip it when its address cannot be used (a bad address in
/// game.toml): one player's address never stops mail to the others. `Ok(false)`: skipped.
pub fn queue_unless_unaddressable(archive: &Archive, m: &Outgoing) -> Result<bool, MailError> {
    match queue(archive, m) {
        Ok(_) => Ok(true),
        Err(MailError::Address(_)) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Send a mail at once, without queueing it, and keep `kept` (the same mail with what
/// must not be kept taken out) as its sent copy. For a mail that holds a secret: if it
/// cannot be sent, nothing of it is written anywhere.
pub fn send_now(archive: &Archive, m: &Outgoing, kept: &Outgoing) -> Result<(), MailError> {
    let s = settings(archive)?.clone();
    crate::archive::git::check_mail_folders(archive)?;
    let (raw, env) = build(archive, m)?;
    let smtp = match &s.pickup {
        Some(_) => None,
        None => Some(transport(&s).map_err(MailError::Send)?),
    };
    deliver(archive, &s, smtp.as_ref(), &safe_key(&m.key), &raw, &env).map_err(MailError::Send)?;
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
    /// Mails left in the outbox, with why.
    pub failed: Vec<(String, String)>,
}

/// The mails waiting in the outbox, oldest name first.
pub fn waiting(archive: &Archive) -> Vec<String> {
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

fn transport(s: &MailSettings) -> Result<SmtpTransport, String> {
    let host = s
        .smtp_host
        .clone()
        .ok_or("no smtp_host and no pickup folder in [mail]")?;
    let security = s.smtp_security.as_deref().unwrap_or("starttls");
    let tls = || TlsParameters::new(host.clone()).map_err(|e| e.to_string());
    let mut b = match security {
        "none" => SmtpTransport::builder_dangerous(host.as_str()),
        "starttls" => SmtpTransport::builder_dangerous(host.as_str()).tls(Tls::Required(tls()?)),
        "tls" => SmtpTransport::builder_dangerous(host.as_str()).tls(Tls::Wrapper(tls()?)),
        other => {
            return Err(format!(
                "smtp_security `{other}`: use none, starttls or tls"
            ));
        }
    };
    if let Some(p) = s.smtp_port {
        b = b.port(p);
    }
    if let Some(user) = &s.smtp_user {
        let var = s
            .smtp_password_env
            .clone()
            .unwrap_or_else(|| "JUDGE_SMTP_PASSWORD".into());
        let pass = std::env::var(&var)
            .map_err(|_| format!("the SMTP password is read from ${var}, which is not set"))?;
        b = b.credentials(Credentials::new(user.clone(), pass));
    }
    Ok(b.timeout(Some(Duration::from_secs(20))).build())
}

/// Mark a mail sent: its message moves to `sent/` (that move is the mark, synced to
/// disk before this returns), then its envelope follows.
fn move_to_sent(archive: &Archive, key: &str) -> std::io::Result<()> {
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

/// The most names tried for one mail in a pickup folder.
const PICKUP_NAMES: usize = 1000;

/// Write a mail into a pickup folder, which other games may share: never over a file
/// that is there. It is written beside (`.tmp-…`, synced) and then linked in under
/// `KEY.eml`, or, if another mail has that name, `KEY.1.eml`, `KEY.2.eml`, …. A file
/// under one of those names with these very bytes is this mail, handed over by a run
/// killed before it marked it sent: it is not written again. Returns the file's path.
fn drop_into(dir: &Path, key: &str, raw: &[u8]) -> Result<PathBuf, String> {
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
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
    Err(format!(
        "{}: {PICKUP_NAMES} other mails are named {key}.eml, {key}.1.eml, …: empty the pickup folder",
        dir.display()
    ))
}

/// Hand one message to the SMTP server, or write it into the pickup folder.
fn deliver(
    archive: &Archive,
    s: &MailSettings,
    smtp: Option<&SmtpTransport>,
    key: &str,
    raw: &[u8],
    env: &Envelope,
) -> Result<(), String> {
    match (&s.pickup, smtp) {
        (Some(p), _) => {
            let p = if p.is_absolute() {
                p.clone()
            } else {
                archive.root().join(p)
            };
            drop_into(&p, key, raw).map(|_| ())
        }
        (None, Some(t)) => {
            let envelope = lettre::address::Envelope::new(
                Some(
                    env.from
                        .parse()
                        .map_err(|e: lettre::address::AddressError| e.to_string())?,
                ),
                vec![
                    env.to
                        .parse()
                        .map_err(|e: lettre::address::AddressError| e.to_string())?,
                ],
            )
            .map_err(|e| e.to_string())?;
            t.send_raw(&envelope, raw)
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
        (None, None) => Err("no way to send mail is configured".into()),
    }
}

/// Send every waiting mail; those that fail stay for next time. Each mail is marked
/// sent (moved to `sent/`, synced to disk) before the next is sent: a crash can send at
/// most the one mail in flight twice.
pub fn send_all(archive: &Archive) -> Result<SendReport, MailError> {
    let s = settings(archive)?.clone();
    crate::archive::git::check_mail_folders(archive)?;
    let mut report = SendReport::default();
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
    if keys.is_empty() {
        return Ok(report);
    }
    let smtp = if s.pickup.is_some() {
        None
    } else {
        Some(transport(&s))
    };
    for key in keys {
        let dir = archive.root().join(OUTBOX);
        let result: Result<(), String> = (|| {
            let path = dir.join(format!("{key}.eml"));
            // Never mail a file a link leads to.
            archive.no_link(&path).map_err(|e| e.to_string())?;
            let raw = fs::read(&path).map_err(|e| e.to_string())?;
            let env: Envelope = serde_json::from_slice(
                &fs::read(dir.join(format!("{key}.env.json"))).map_err(|e| e.to_string())?,
            )
            .map_err(|e| e.to_string())?;
            match &smtp {
                Some(Err(e)) => Err(e.clone()),
                Some(Ok(t)) => deliver(archive, &s, Some(t), &key, &raw, &env),
                None => deliver(archive, &s, None, &key, &raw, &env),
            }
        })();
        match result {
            Ok(()) => {
                move_to_sent(archive, &key).map_err(|e| MailError::Build(e.to_string()))?;
                report.sent.push(key);
            }
            Err(why) => report.failed.push((key, why)),
        }
    }
    Ok(report)
}

/// The path of a mail kept as sent.
pub fn sent_path(archive: &Archive, key: &str) -> PathBuf {
    archive
        .root()
        .join(SENT)
        .join(format!("{}.eml", safe_key(key)))
}
