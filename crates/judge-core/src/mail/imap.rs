//! Reading order mails over IMAP: the unseen messages of INBOX are fetched without
//! marking them (BODY.PEEK), filed, and only then marked seen — so a crash in between
//! files nothing twice (filing is idempotent by Message-ID) and loses nothing.
//!
//! The client is the `imap` crate's 3.0 line (an alpha): the 2.x line can only do TLS
//! through native-tls (OpenSSL), while 3.0 does it through rustls, as lettre does here.

use std::ops::ControlFlow;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use imap::{ClientBuilder, ConnectionMode, TlsKind};

/// Where to read mail from. The password comes from an environment variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: String,
    /// `none`, `starttls` or `tls`.
    pub security: String,
}

/// Why the mail of an IMAP INBOX could not be read: the settings, or the server at one
/// step of the conversation (the message names the step, and the server's answer; kept
/// boxed, for the `imap` crate's error is large).
#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    #[error("imap security `{0}`: use none, starttls or tls")]
    Security(String),
    #[error("IMAP {host}:{port}: {error}")]
    Connect {
        host: String,
        port: u16,
        error: Box<imap::Error>,
    },
    #[error("IMAP login as {user}: {error}")]
    Login {
        user: String,
        error: Box<imap::Error>,
    },
    #[error("IMAP INBOX: {0}")]
    Inbox(Box<imap::Error>),
    #[error("IMAP search: {0}")]
    Search(Box<imap::Error>),
    #[error("IMAP fetch dates: {0}")]
    FetchDates(Box<imap::Error>),
    #[error("IMAP fetch {uid}: {error}")]
    Fetch { uid: u32, error: Box<imap::Error> },
    #[error("IMAP store: {0}")]
    Store(Box<imap::Error>),
}

/// Log in and open INBOX: for reading only (EXAMINE) or to mark mail (SELECT).
pub(crate) fn open(
    src: &Source,
    read_only: bool,
) -> Result<imap::Session<imap::Connection>, ImapError> {
    let mode = match src.security.as_str() {
        "none" => ConnectionMode::Plaintext,
        "starttls" => ConnectionMode::StartTls,
        "tls" => ConnectionMode::Tls,
        other => {
            return Err(ImapError::Security(other.to_string()));
        }
    };
    let client = ClientBuilder::new(src.host.as_str(), src.port)
        .mode(mode)
        .tls_kind(TlsKind::Rust)
        .connect()
        .map_err(|error| ImapError::Connect {
            host: src.host.clone(),
            port: src.port,
            error: Box::new(error),
        })?;
    let mut session = client
        .login(&src.user, &src.password)
        .map_err(|(error, _)| ImapError::Login {
            user: src.user.clone(),
            error: Box::new(error),
        })?;
    if read_only {
        session.examine("INBOX")
    } else {
        session.select("INBOX")
    }
    .map_err(|e| ImapError::Inbox(Box::new(e)))?;
    Ok(session)
}

/// One unseen message, as fetched.
#[derive(Clone, Debug)]
pub struct Fetched {
    pub uid: u32,
    pub raw: Vec<u8>,
    /// The server's INTERNALDATE: when it was delivered.
    pub delivered: Option<SystemTime>,
}

/// Every unseen message of INBOX, in the order of delivery, none marked: the folder of
/// games routes them to their games first and marks seen those filed ([`mark_seen`]).
/// A message is cut after `max_bytes` bytes.
/// Fetching stops once the messages kept hold `budget` bytes: the rest stay unseen for
/// the next call (`true` is returned with them: more wait, with the INTERNALDATE of the
/// first of them, the oldest, if the server gave one).
pub fn fetch_unseen(
    src: &Source,
    max_bytes: usize,
    budget: usize,
) -> Result<(Vec<Fetched>, bool, Option<SystemTime>), ImapError> {
    let mut got = Vec::new();
    let mut held = 0;
    let mut more = false;
    let mut oldest = None;
    ingest_while(src, true, |raw, uid, delivered| {
        if held >= budget {
            more = true;
            oldest = delivered;
            return ControlFlow::Break(());
        }
        let raw = raw[..raw.len().min(max_bytes)].to_vec();
        held += raw.len();
        got.push(Fetched {
            uid,
            raw,
            delivered,
        });
        ControlFlow::Continue(false)
    })?;
    Ok((got, more, oldest))
}

/// Mark messages of INBOX seen, by UID.
pub fn mark_seen(src: &Source, uids: &[u32]) -> Result<(), ImapError> {
    if uids.is_empty() {
        return Ok(());
    }
    let mut session = open(src, false)?;
    let list: Vec<String> = uids.iter().map(u32::to_string).collect();
    session
        .uid_store(list.join(","), "+FLAGS (\\Seen)")
        .map_err(|e| ImapError::Store(Box::new(e)))?;
    let _ = session.logout();
    Ok(())
}

/// Fetch every unseen message with the server's INTERNALDATE (when it was delivered),
/// hand each to `file`, and mark seen those it accepted (returned `true`). With
/// `read_only` the mailbox is opened with EXAMINE and nothing is marked: a dry run leaves
/// the mail unseen for the real one. Returns how many were fetched.
pub fn ingest(
    src: &Source,
    read_only: bool,
    mut file: impl FnMut(&[u8], u32, Option<SystemTime>) -> bool,
) -> Result<usize, ImapError> {
    ingest_while(src, read_only, |raw, uid, delivered| {
        ControlFlow::Continue(file(raw, uid, delivered))
    })
}

/// [`ingest`], where `file` may also stop the fetching (`Break`): what is not fetched
/// stays unseen.
fn ingest_while(
    src: &Source,
    read_only: bool,
    mut file: impl FnMut(&[u8], u32, Option<SystemTime>) -> ControlFlow<(), bool>,
) -> Result<usize, ImapError> {
    let mut session = open(src, read_only)?;
    let mut uids: Vec<u32> = session
        .uid_search("UNSEEN")
        .map_err(|e| ImapError::Search(Box::new(e)))?
        .into_iter()
        .collect();
    // Filed in the order of delivery: the server's INTERNALDATE, then its own sequence
    // (the UID) for mails delivered in the same second.
    let mut when = std::collections::BTreeMap::new();
    if !uids.is_empty() {
        let list: Vec<String> = uids.iter().map(u32::to_string).collect();
        for f in session
            .uid_fetch(list.join(","), "INTERNALDATE")
            .map_err(|e| ImapError::FetchDates(Box::new(e)))?
            .iter()
        {
            if let (Some(uid), Some(d)) = (f.uid, f.internal_date()) {
                when.insert(uid, d.timestamp());
            }
        }
    }
    uids.sort_unstable_by_key(|u| (when.get(u).copied().unwrap_or(i64::MAX), *u));
    let mut seen = Vec::new();
    'fetching: for uid in &uids {
        let fetches = session
            .uid_fetch(uid.to_string(), "(BODY.PEEK[] INTERNALDATE)")
            .map_err(|error| ImapError::Fetch {
                uid: *uid,
                error: Box::new(error),
            })?;
        for f in fetches.iter() {
            let delivered = f
                .internal_date()
                .and_then(|d| u64::try_from(d.timestamp()).ok())
                .and_then(|s| UNIX_EPOCH.checked_add(Duration::from_secs(s)));
            if let Some(body) = f.body() {
                match file(body, *uid, delivered) {
                    ControlFlow::Continue(true) => seen.push(uid.to_string()),
                    ControlFlow::Continue(false) => {}
                    ControlFlow::Break(()) => break 'fetching,
                }
            }
        }
    }
    if !seen.is_empty() && !read_only {
        session
            .uid_store(seen.join(","), "+FLAGS (\\Seen)")
            .map_err(|e| ImapError::Store(Box::new(e)))?;
    }
    let _ = session.logout();
    Ok(uids.len())
}
