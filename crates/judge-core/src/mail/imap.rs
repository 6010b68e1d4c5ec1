//! Reading order mails over IMAP: the unseen messages of INBOX are fetched without
//! marking them (BODY.PEEK), filed, and only then marked seen — so a crash in between
//! files nothing twice (filing is idempotent by Message-ID) and loses nothing.
//!
//! The protocol is the `imap` crate's 3.0 line (an alpha); the socket and TLS are the
//! judge's own, so that every step is timed: connecting, TLS, the greeting, the login and
//! each command wait at most `[mail] imap_timeout` (30 s unless set) for the server, and a
//! server silent that long is given up for the run (issue 39, point 12). TLS is rustls,
//! as lettre's for SMTP, trusting the same certificates: the system's ([`super::net`]).

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::net;

/// Where to read mail from. The password comes from an environment variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: String,
    /// `none`, `starttls` or `tls`.
    pub security: String,
    /// The longest wait for the server at one step.
    pub timeout: Duration,
    /// `[mail] allow_plain_password`: the password may go in clear to another host.
    pub allow_plain_password: bool,
}

/// Set once, by `judge serve` on SIGTERM: a wait on the server in hand ends within a
/// second, as if it had timed out.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// End every wait on an IMAP server now, for good (the process is stopping).
pub fn stop_waiting() {
    STOPPING.store(true, Ordering::Relaxed);
}

/// Why the mail of an IMAP INBOX could not be read: the settings (the GM's to fix: a
/// wrong password, a certificate not trusted, TLS asked of a plain port), or the server
/// (down, silent, dropped: it may work later). The message names the step and the fix.
#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    /// The settings, or the trust: fixing them is the GM's (exit 1).
    #[error("{0}")]
    Settings(String),
    /// The server, at some step: it may work later (exit 3).
    #[error("{0}")]
    Down(String),
}

impl ImapError {
    /// Is this the GM's to put right (not the server's to come back)?
    pub fn is_settings(&self) -> bool {
        matches!(self, ImapError::Settings(_))
    }
}

/// A TCP connection whose every read waits at most `step` (in slices of a second, so
/// that [`stop_waiting`] is heard), and the TLS over it, if any.
struct Timed<S> {
    inner: S,
    step: Duration,
    /// The step's limit, given back after IDLE.
    limit: Duration,
}

const SLICE: Duration = Duration::from_secs(1);

fn waiting(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

impl<S: Read> Read for Timed<S> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let started = Instant::now();
        loop {
            match self.inner.read(buf) {
                Err(e)
                    if waiting(&e)
                        && started.elapsed() < self.step
                        && !STOPPING.load(Ordering::Relaxed) => {}
                Err(e) if waiting(&e) => {
                    return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, e));
                }
                other => return other,
            }
        }
    }
}

impl<S: Write> Write for Timed<S> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<S> imap::extensions::idle::SetReadTimeout for Timed<S> {
    /// IDLE waits its own time, then gives the wait back: to the step's limit, never to
    /// no limit at all.
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> imap::Result<()> {
        self.step = timeout.unwrap_or(self.limit);
        Ok(())
    }
}

impl<S> Timed<S> {
    fn new(inner: S, limit: Duration) -> Self {
        Timed {
            inner,
            step: limit,
            limit,
        }
    }
}

/// Connect within `timeout` to one of the addresses `host` names; every read then waits
/// a slice, every write the whole `timeout`.
fn dial(host: &str, port: u16, timeout: Duration, server: &str) -> Result<TcpStream, ImapError> {
    let addrs: Vec<_> = (net::bare_host(host), port)
        .to_socket_addrs()
        .map_err(|e| ImapError::Down(format!("the IMAP server {server}: {e}")))?
        .collect();
    let mut last = None;
    for addr in addrs {
        if STOPPING.load(Ordering::Relaxed) {
            break;
        }
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(tcp) => {
                let set = tcp
                    .set_read_timeout(Some(SLICE.min(timeout)))
                    .and_then(|()| tcp.set_write_timeout(Some(timeout)));
                return set
                    .map(|()| tcp)
                    .map_err(|e| ImapError::Down(format!("the IMAP server at {server}: {e}")));
            }
            Err(e) => last = Some(e),
        }
    }
    Err(ImapError::Down(match last {
        Some(e) if waiting(&e) => format!(
            "the IMAP server at {server} did not take the connection within {}",
            humantime::format_duration(timeout)
        ),
        Some(e) => format!("the IMAP server at {server} cannot be reached: {e}"),
        None => format!("the IMAP server {server}: the name gives no address"),
    }))
}

/// An `imap` error at a step, told for the GM: a timeout with what may cause it, a TLS
/// failure with its fix.
fn step_failed(src: &Source, server: &str, doing: &str, e: &imap::Error) -> ImapError {
    let implicit = src.security == "tls";
    let tls = match e {
        imap::Error::Io(io) => net::find_rustls(io),
        other => net::find_rustls(other),
    };
    if let Some(t) = tls
        && let Some(why) = net::tls_failure(t, "IMAP", server, "imap_security", implicit, 993)
    {
        return ImapError::Settings(why);
    }
    if let imap::Error::Io(io) = e
        && waiting(io)
    {
        if STOPPING.load(Ordering::Relaxed) {
            return ImapError::Down(format!(
                "the IMAP server at {server}: stopped while {doing}"
            ));
        }
        let hint = if doing == "waiting for its greeting" && src.security != "tls" {
            if src.port == 993 {
                " (port 993 starts with TLS: set imap_security = \"tls\")"
            } else {
                " (if this port starts with TLS, set imap_security = \"tls\")"
            }
        } else {
            ""
        };
        return ImapError::Down(format!(
            "the IMAP server at {server} did not answer within {} ({doing}){hint}; [mail] imap_timeout sets the wait",
            humantime::format_duration(src.timeout)
        ));
    }
    ImapError::Down(format!("the IMAP server at {server}, {doing}: {e}"))
}

/// Log in and open INBOX: for reading only (EXAMINE) or to mark mail (SELECT).
pub(crate) fn open(
    src: &Source,
    read_only: bool,
) -> Result<imap::Session<imap::Connection>, ImapError> {
    let server = if src.host.contains(':') && !src.host.starts_with('[') {
        format!("[{}]:{}", src.host, src.port)
    } else {
        format!("{}:{}", src.host, src.port)
    };
    if !matches!(src.security.as_str(), "none" | "starttls" | "tls") {
        return Err(ImapError::Settings(format!(
            "imap_security `{}`: use none, starttls or tls",
            src.security
        )));
    }
    if let Some(why) = net::plain_password_refused(
        "imap_security",
        &src.security,
        &src.host,
        src.port,
        src.allow_plain_password,
    ) {
        return Err(ImapError::Settings(why));
    }
    let tcp = dial(&src.host, src.port, src.timeout, &server)?;
    let tls = || -> Result<rustls::ClientConnection, ImapError> {
        let name = rustls::pki_types::ServerName::try_from(net::bare_host(&src.host).to_string())
            .map_err(|e| ImapError::Settings(format!("imap_host `{}`: {e}", src.host)))?;
        let config = net::tls_config().map_err(|e| ImapError::Settings(e.to_string()))?;
        rustls::ClientConnection::new(config, name)
            .map_err(|e| ImapError::Settings(format!("TLS for {server}: {e}")))
    };
    let conn: imap::Connection = match src.security.as_str() {
        "tls" => Box::new(Timed::new(
            rustls::StreamOwned::new(tls()?, tcp),
            src.timeout,
        )),
        "starttls" => {
            let mut plain = Timed::new(tcp, src.timeout);
            let greeting = line(&mut plain)
                .map_err(|e| step_failed(src, &server, "waiting for its greeting", &e))?;
            if !greeting.starts_with("* OK") {
                return Err(ImapError::Down(format!(
                    "the IMAP server at {server} greeted with `{}`",
                    greeting.trim_end()
                )));
            }
            let caps = command(&mut plain, "s1 CAPABILITY")
                .map_err(|e| step_failed(src, &server, "asking what it offers", &e))?;
            if !caps.iter().any(|l| {
                l.starts_with("* CAPABILITY")
                    && l.split_ascii_whitespace()
                        .any(|w| w.eq_ignore_ascii_case("STARTTLS"))
            }) {
                return Err(ImapError::Settings(format!(
                    "the IMAP server at {server} offers no STARTTLS: set imap_security = \"tls\" and the port that starts with TLS (993), or ask the server's keeper to offer STARTTLS"
                )));
            }
            let said = command(&mut plain, "s2 STARTTLS")
                .map_err(|e| step_failed(src, &server, "starting TLS", &e))?;
            if !said.last().is_some_and(|l| l.starts_with("s2 OK")) {
                return Err(ImapError::Down(format!(
                    "the IMAP server at {server} refused STARTTLS: {}",
                    said.last().map_or("", |l| l.trim_end())
                )));
            }
            let tcp = plain.inner;
            let conn: imap::Connection = Box::new(Timed::new(
                rustls::StreamOwned::new(tls()?, tcp),
                src.timeout,
            ));
            let mut client = imap::Client::new(conn);
            // After STARTTLS the server sends no second greeting.
            client.greeting_read = true;
            return login(client, src, &server, read_only);
        }
        _ => Box::new(Timed::new(tcp, src.timeout)),
    };
    let mut client = imap::Client::new(conn);
    client
        .read_greeting()
        .map_err(|e| step_failed(src, &server, "waiting for its greeting", &e))?;
    login(client, src, &server, read_only)
}

/// One line from the server, read a byte at a time (nothing after it is taken: TLS
/// may start there).
fn line(stream: &mut Timed<TcpStream>) -> Result<String, imap::Error> {
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"\n") {
        if got.len() > 64 * 1024 {
            return Err(imap::Error::Io(std::io::Error::other("a line over 64 KiB")));
        }
        match stream.read(&mut byte) {
            Ok(0) => {
                return Err(imap::Error::Io(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the server closed the connection",
                )));
            }
            Ok(_) => got.push(byte[0]),
            Err(e) => return Err(imap::Error::Io(e)),
        }
    }
    Ok(String::from_utf8_lossy(&got).into_owned())
}

/// Send a tagged command before TLS, and read up to its tagged answer.
fn command(stream: &mut Timed<TcpStream>, cmd: &str) -> Result<Vec<String>, imap::Error> {
    stream
        .write_all(format!("{cmd}\r\n").as_bytes())
        .map_err(imap::Error::Io)?;
    let tag = cmd.split(' ').next().unwrap_or(cmd);
    let mut lines = Vec::new();
    for _ in 0..1000 {
        let l = line(stream)?;
        let done = l.starts_with(&format!("{tag} "));
        lines.push(l);
        if done {
            return Ok(lines);
        }
    }
    Err(imap::Error::Io(std::io::Error::other(
        "no answer to the command among 1000 lines",
    )))
}

fn login(
    client: imap::Client<imap::Connection>,
    src: &Source,
    server: &str,
    read_only: bool,
) -> Result<imap::Session<imap::Connection>, ImapError> {
    let mut session = client.login(&src.user, &src.password).map_err(|(e, _)| {
        match e {
            imap::Error::No(_) | imap::Error::Bad(_) => ImapError::Settings(format!(
                "the IMAP server at {server} refused the login as {}: {e}; check imap_user and the password (in $JUDGE_IMAP_PASSWORD, or the variable imap_password_env names)",
                src.user
            )),
            other => step_failed(src, server, "logging in", &other),
        }
    })?;
    if read_only {
        session.examine("INBOX")
    } else {
        session.select("INBOX")
    }
    .map_err(|e| step_failed(src, server, "opening INBOX", &e))?;
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
        .map_err(|e| step_failed(src, &src.host, "marking mail seen", &e))?;
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
        .map_err(|e| step_failed(src, &src.host, "searching INBOX", &e))?
        .into_iter()
        .collect();
    // Filed in the order of delivery: the server's INTERNALDATE, then its own sequence
    // (the UID) for mails delivered in the same second.
    let mut when = std::collections::BTreeMap::new();
    if !uids.is_empty() {
        let list: Vec<String> = uids.iter().map(u32::to_string).collect();
        for f in session
            .uid_fetch(list.join(","), "INTERNALDATE")
            .map_err(|e| step_failed(src, &src.host, "fetching dates", &e))?
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
            .map_err(|e| step_failed(src, &src.host, &format!("fetching mail {uid}"), &e))?;
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
            .map_err(|e| step_failed(src, &src.host, "marking mail seen", &e))?;
    }
    let _ = session.logout();
    Ok(uids.len())
}
