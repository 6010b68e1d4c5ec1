//! Reading order mails over IMAP: the unseen messages of INBOX are fetched without
//! marking them (BODY.PEEK), filed, and only then marked seen — so a crash in between
//! files nothing twice (filing is idempotent by Message-ID) and loses nothing.
//!
//! The protocol is the judge's own, the few commands it sends (`Session`): LOGIN,
//! EXAMINE or SELECT, UID SEARCH, UID FETCH, UID STORE, IDLE and LOGOUT (RFC 3501,
//! RFC 2177), read with their literals. The `imap` crate did this before, an alpha of
//! its 3.0 line that brought a date library, a regex engine, a second parser
//! combinator library and self-referencing structs into every build, for seven
//! commands. The socket and TLS are the judge's own too, so that every step is timed:
//! connecting, TLS, the greeting, the login and each command wait at most `[mail]
//! imap_timeout` (30 s unless set) for the server, and a server silent that long is
//! given up for the run. TLS is rustls, as lettre's for SMTP, trusting the same
//! certificates: the system's ([`super::net`]).

use std::io::{BufRead, BufReader, Read, Write};
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

/// What went wrong at one step of the protocol: the connection (a timeout, TLS, a
/// closed socket), the server's refusal (`NO`, `BAD`, `BYE`), or an answer that is not
/// IMAP as the judge reads it.
#[derive(Debug)]
enum StepError {
    Io(std::io::Error),
    /// The server's `NO`, with its text.
    No(String),
    /// The server's `BAD`, with its text.
    Bad(String),
    /// The server's `BYE`, with its text: it is closing the connection.
    Bye(String),
    /// An answer the judge cannot read.
    Unreadable(String),
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::Io(e) => write!(f, "{e}"),
            StepError::No(t) => write!(f, "No Response: {t}"),
            StepError::Bad(t) => write!(f, "Bad Response: {t}"),
            StepError::Bye(t) => write!(f, "the server closed the session: {t}"),
            StepError::Unreadable(t) => write!(f, "an answer that is not IMAP: {t}"),
        }
    }
}

impl std::error::Error for StepError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StepError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for StepError {
    fn from(e: std::io::Error) -> Self {
        StepError::Io(e)
    }
}

/// An error at a step, told for the GM: a timeout with what may cause it, a TLS
/// failure with its fix.
fn step_failed(src: &Source, server: &str, doing: &str, e: &StepError) -> ImapError {
    let implicit = src.security == "tls";
    let tls = match e {
        StepError::Io(io) => net::find_rustls(io),
        other => net::find_rustls(other),
    };
    if let Some(t) = tls
        && let Some(why) = net::tls_failure(t, "IMAP", server, "imap_security", implicit, 993)
    {
        return ImapError::Settings(why);
    }
    if let StepError::Io(io) = e
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

/// The connection a session speaks over: TCP, or TLS over it.
trait Conn: Read + Write + Send {}
impl<T: Read + Write + Send> Conn for T {}

/// The longest line of an answer, outside its literals.
const LONGEST_LINE: usize = 64 * 1024;
/// The longest literal (a whole message, fetched): larger is not mail the judge reads.
const LONGEST_LITERAL: u64 = 256 * 1024 * 1024;

/// A logged-in connection to an IMAP server, INBOX open: the commands the judge sends,
/// each with a tag of its own, and their answers read up to the tagged one.
pub(crate) struct Session {
    io: BufReader<Timed<Box<dyn Conn>>>,
    tag: u32,
}

impl Session {
    fn new(conn: Timed<Box<dyn Conn>>) -> Session {
        Session {
            io: BufReader::new(conn),
            tag: 0,
        }
    }

    /// One line, CRLF (or LF) included, of at most [`LONGEST_LINE`] bytes, onto `out`.
    fn line_onto(&mut self, out: &mut Vec<u8>) -> Result<(), StepError> {
        let start = out.len();
        let limit = u64::try_from(LONGEST_LINE).unwrap_or(u64::MAX);
        let got = (&mut self.io).take(limit).read_until(b'\n', out)?;
        if got == 0 {
            return Err(StepError::Io(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the server closed the connection",
            )));
        }
        if !out[start..].ends_with(b"\n") {
            return Err(StepError::Unreadable(format!(
                "a line over {} KiB",
                LONGEST_LINE / 1024
            )));
        }
        Ok(())
    }

    /// One whole answer of the server: a line, and where it ends with a literal
    /// (`{n}`), the literal's `n` bytes and the rest of the line after them, so on.
    fn answer(&mut self) -> Result<Vec<u8>, StepError> {
        let mut out = Vec::new();
        loop {
            self.line_onto(&mut out)?;
            let Some(n) = literal_at_end(&out) else {
                return Ok(out);
            };
            if n > LONGEST_LITERAL {
                return Err(StepError::Unreadable(format!(
                    "a literal of {n} bytes, over {} MiB",
                    LONGEST_LITERAL / (1024 * 1024)
                )));
            }
            let want = usize::try_from(n).unwrap_or(usize::MAX);
            let before = out.len();
            (&mut self.io).take(n).read_to_end(&mut out)?;
            if out.len() - before < want {
                return Err(StepError::Io(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the server closed the connection within a literal",
                )));
            }
        }
    }

    fn send(&mut self, text: &str) -> Result<(), StepError> {
        let w = self.io.get_mut();
        w.write_all(text.as_bytes())?;
        w.flush()?;
        Ok(())
    }

    fn next_tag(&mut self) -> String {
        self.tag += 1;
        format!("j{}", self.tag)
    }

    /// Send `cmd` and read its answers: the untagged ones, if the server said OK.
    fn run(&mut self, cmd: &str) -> Result<Vec<Vec<u8>>, StepError> {
        let tag = self.next_tag();
        self.send(&format!("{tag} {cmd}\r\n"))?;
        self.until_tagged(&tag)
    }

    /// The answers up to the one tagged `tag`, which says whether the command went well.
    fn until_tagged(&mut self, tag: &str) -> Result<Vec<Vec<u8>>, StepError> {
        let mut untagged = Vec::new();
        loop {
            let a = self.answer()?;
            let Some(rest) = a
                .strip_prefix(tag.as_bytes())
                .and_then(|r| r.strip_prefix(b" "))
            else {
                if a.starts_with(b"+") {
                    return Err(StepError::Unreadable(text(&a)));
                }
                untagged.push(a);
                continue;
            };
            let (status, said) = split_word(rest);
            return match status.to_ascii_uppercase().as_slice() {
                b"OK" => Ok(untagged),
                b"NO" => Err(StepError::No(text(said))),
                b"BAD" => Err(StepError::Bad(text(said))),
                _ => Err(StepError::Unreadable(text(&a))),
            };
        }
    }

    /// The server's greeting: `* OK` (or `* PREAUTH`); `* BYE` is a refusal.
    fn greeting(&mut self) -> Result<(), StepError> {
        let a = self.answer()?;
        let (star, rest) = split_word(&a);
        let (status, said) = split_word(rest);
        match (star, status.to_ascii_uppercase().as_slice()) {
            (b"*", b"OK" | b"PREAUTH") => Ok(()),
            (b"*", b"BYE") => Err(StepError::Bye(text(said))),
            _ => Err(StepError::Unreadable(text(&a))),
        }
    }

    fn login(&mut self, user: &str, password: &str) -> Result<(), StepError> {
        let cmd = format!("LOGIN {} {}", quoted(user)?, quoted(password)?);
        self.run(&cmd).map(drop)
    }

    /// The UIDs of the messages a search finds (`UID SEARCH`).
    fn uid_search(&mut self, criteria: &str) -> Result<Vec<u32>, StepError> {
        let mut uids = Vec::new();
        for a in self.run(&format!("UID SEARCH {criteria}"))? {
            let (star, rest) = split_word(&a);
            let (what, numbers) = split_word(rest);
            if star == b"*" && what.eq_ignore_ascii_case(b"SEARCH") {
                for n in text(numbers).split_ascii_whitespace() {
                    uids.push(n.parse().map_err(|_| StepError::Unreadable(text(&a)))?);
                }
            }
        }
        Ok(uids)
    }

    /// `UID FETCH set items`: what the server gave for each message.
    fn uid_fetch(&mut self, set: &str, items: &str) -> Result<Vec<Fetch>, StepError> {
        let mut out = Vec::new();
        for a in self.run(&format!("UID FETCH {set} {items}"))? {
            if let Some(f) = Fetch::read(&a)? {
                out.push(f);
            }
        }
        Ok(out)
    }

    /// Wait at most `limit` for the server to tell of a change of the mailbox (IDLE):
    /// `true` if it did, `false` if the time ran out first.
    fn idle(&mut self, limit: Duration) -> Result<bool, StepError> {
        let tag = self.next_tag();
        self.send(&format!("{tag} IDLE\r\n"))?;
        loop {
            let a = self.answer()?;
            if a.starts_with(b"+") {
                break;
            }
            if a.starts_with(tag.as_bytes()) {
                let (_, rest) = split_word(&a);
                let (status, said) = split_word(rest);
                return Err(if status.eq_ignore_ascii_case(b"BAD") {
                    StepError::Bad(text(said))
                } else {
                    StepError::No(text(said))
                });
            }
        }
        self.io.get_mut().step = limit;
        let changed = match self.answer() {
            Ok(_) => true,
            Err(StepError::Io(e)) if waiting(&e) => false,
            Err(e) => return Err(e),
        };
        let step = self.io.get_ref().limit;
        self.io.get_mut().step = step;
        self.send("DONE\r\n")?;
        self.until_tagged(&tag)?;
        Ok(changed)
    }

    fn logout(&mut self) {
        let _ = self.run("LOGOUT");
    }
}

/// What a `* n FETCH (...)` answer gave for one message.
#[derive(Debug, Default, PartialEq, Eq)]
struct Fetch {
    uid: Option<u32>,
    /// INTERNALDATE, in seconds since 1970.
    internal_date: Option<i64>,
    body: Option<Vec<u8>>,
}

impl Fetch {
    /// The items of a FETCH answer; `None` for an answer of another kind.
    fn read(a: &[u8]) -> Result<Option<Fetch>, StepError> {
        let unreadable = || StepError::Unreadable(text(a));
        let (star, rest) = split_word(a);
        let (_number, rest) = split_word(rest);
        let (what, rest) = split_word(rest);
        if star != b"*" || !what.eq_ignore_ascii_case(b"FETCH") {
            return Ok(None);
        }
        let mut at = rest.strip_prefix(b"(").ok_or_else(unreadable)?;
        let mut f = Fetch::default();
        loop {
            at = skip_spaces(at);
            if at.starts_with(b")") || at.is_empty() {
                return Ok(Some(f));
            }
            let (name, after) = item_name(at);
            if name.is_empty() {
                return Err(unreadable());
            }
            let (value, after) = value(skip_spaces(after)).ok_or_else(unreadable)?;
            at = after;
            let name = name.to_ascii_uppercase();
            match (name.as_slice(), value) {
                (b"UID", Value::Atom(n)) => {
                    f.uid = Some(text(n).parse().map_err(|_| unreadable())?);
                }
                (b"INTERNALDATE", Value::String(d)) => {
                    f.internal_date = Some(internal_date(&text(&d)).ok_or_else(unreadable)?);
                }
                (b"BODY[]" | b"RFC822", Value::String(body)) => f.body = Some(body),
                _ => {}
            }
        }
    }
}

/// A value of a FETCH item.
enum Value<'a> {
    /// A number, NIL or another atom.
    Atom(&'a [u8]),
    /// A quoted string or a literal, as bytes.
    String(Vec<u8>),
    /// A parenthesised list (flags, a structure), not read further.
    List,
}

fn skip_spaces(at: &[u8]) -> &[u8] {
    let n = at.iter().take_while(|b| **b == b' ').count();
    &at[n..]
}

/// A FETCH item's name: an atom, with its `[section]` and `<partial>` if any.
fn item_name(at: &[u8]) -> (&[u8], &[u8]) {
    let mut depth = 0usize;
    let mut end = 0;
    for (i, b) in at.iter().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            b' ' | b'(' | b')' | b'\r' | b'\n' if depth == 0 => break,
            _ => {}
        }
        end = i + 1;
    }
    at.split_at(end)
}

/// One value, and what follows it.
fn value(at: &[u8]) -> Option<(Value<'_>, &[u8])> {
    match at.first()? {
        b'"' => {
            let mut out = Vec::new();
            let mut i = 1;
            while i < at.len() {
                match at[i] {
                    b'\\' => {
                        out.push(*at.get(i + 1)?);
                        i += 2;
                    }
                    b'"' => return Some((Value::String(out), &at[i + 1..])),
                    b => {
                        out.push(b);
                        i += 1;
                    }
                }
            }
            None
        }
        b'{' => {
            let close = at.iter().position(|b| *b == b'}')?;
            let n: usize = text(&at[1..close]).trim_end_matches('+').parse().ok()?;
            let rest = at[close + 1..]
                .strip_prefix(b"\r\n")
                .or_else(|| at[close + 1..].strip_prefix(b"\n"))?;
            (rest.len() >= n).then(|| (Value::String(rest[..n].to_vec()), &rest[n..]))
        }
        b'(' => {
            let mut depth = 0usize;
            let mut i = 0;
            while i < at.len() {
                match at[i] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some((Value::List, &at[i + 1..]));
                        }
                    }
                    b'"' => {
                        // A quoted string inside: its parentheses do not count.
                        let (_, after) = value(&at[i..])?;
                        i = at.len() - after.len();
                        continue;
                    }
                    b'{' => {
                        let (_, after) = value(&at[i..])?;
                        i = at.len() - after.len();
                        continue;
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let n = at
                .iter()
                .take_while(|b| !matches!(b, b' ' | b')' | b'\r' | b'\n'))
                .count();
            (n > 0).then(|| (Value::Atom(&at[..n]), &at[n..]))
        }
    }
}

/// The size of the literal a line ends with (`{n}` or `{n+}`, then CRLF), if it does.
fn literal_at_end(line: &[u8]) -> Option<u64> {
    let line = line
        .strip_suffix(b"\r\n")
        .or_else(|| line.strip_suffix(b"\n"))?;
    let body = line.strip_suffix(b"}")?;
    let open = body.iter().rposition(|b| *b == b'{')?;
    let digits = &body[open + 1..];
    let digits = digits.strip_suffix(b"+").unwrap_or(digits);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    text(digits).parse().ok()
}

/// The first word of `a` (up to a space) and the rest after the space.
fn split_word(a: &[u8]) -> (&[u8], &[u8]) {
    let a = a
        .strip_suffix(b"\r\n")
        .or_else(|| a.strip_suffix(b"\n"))
        .unwrap_or(a);
    match a.iter().position(|b| *b == b' ') {
        Some(i) => (&a[..i], &a[i + 1..]),
        None => (a, &[]),
    }
}

fn text(a: &[u8]) -> String {
    String::from_utf8_lossy(a).trim_end().to_string()
}

/// A string as IMAP quotes it; one with a line break cannot be sent so.
fn quoted(s: &str) -> Result<String, StepError> {
    if s.contains(['\r', '\n', '\0']) {
        return Err(StepError::Unreadable(
            "a user name or password holding a line break".into(),
        ));
    }
    Ok(format!(
        "\"{}\"",
        s.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

/// An INTERNALDATE (`"17-Jul-1996 02:44:25 -0700"`, RFC 3501) in seconds since 1970.
fn internal_date(d: &str) -> Option<i64> {
    let (date, rest) = d.trim().split_once(' ')?;
    let (time, zone) = rest.trim().split_once(' ')?;
    let mut dmy = date.split('-');
    let day: i64 = dmy.next()?.trim().parse().ok()?;
    let month = dmy.next()?;
    let month = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    .iter()
    .position(|m| m.eq_ignore_ascii_case(month))?;
    let year: i64 = dmy.next()?.parse().ok()?;
    let mut hms = time.split(':').map(|x| x.parse::<i64>().ok());
    let (h, m, s) = (hms.next()??, hms.next()??, hms.next()??);
    let sign = match zone.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let z: i64 = zone.get(1..5)?.parse().ok()?;
    let offset = sign * ((z / 100) * 3600 + (z % 100) * 60);
    if !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 {
        return None;
    }
    // Days from 1970-01-01 to the date (the civil calendar's count, year from March).
    let month = i64::try_from(month).ok()? + 1;
    let (y, mo) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * mo + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + h * 3600 + m * 60 + s - offset)
}

/// Log in and open INBOX: for reading only (EXAMINE) or to mark mail (SELECT).
pub(crate) fn open(src: &Source, read_only: bool) -> Result<Session, ImapError> {
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
    let conn: Box<dyn Conn> = match src.security.as_str() {
        "tls" => Box::new(rustls::StreamOwned::new(tls()?, tcp)),
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
            let session = Session::new(Timed::new(
                Box::new(rustls::StreamOwned::new(tls()?, tcp)),
                src.timeout,
            ));
            // After STARTTLS the server sends no second greeting.
            return login(session, src, &server, read_only);
        }
        _ => Box::new(tcp),
    };
    let mut session = Session::new(Timed::new(conn, src.timeout));
    session
        .greeting()
        .map_err(|e| step_failed(src, &server, "waiting for its greeting", &e))?;
    login(session, src, &server, read_only)
}

/// One line from the server, read a byte at a time (nothing after it is taken: TLS
/// may start there).
fn line(stream: &mut Timed<TcpStream>) -> Result<String, StepError> {
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"\n") {
        if got.len() > LONGEST_LINE {
            return Err(StepError::Io(std::io::Error::other("a line over 64 KiB")));
        }
        match stream.read(&mut byte) {
            Ok(0) => {
                return Err(StepError::Io(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the server closed the connection",
                )));
            }
            Ok(_) => got.push(byte[0]),
            Err(e) => return Err(StepError::Io(e)),
        }
    }
    Ok(String::from_utf8_lossy(&got).into_owned())
}

/// Send a tagged command before TLS, and read up to its tagged answer.
fn command(stream: &mut Timed<TcpStream>, cmd: &str) -> Result<Vec<String>, StepError> {
    stream.write_all(format!("{cmd}\r\n").as_bytes())?;
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
    Err(StepError::Io(std::io::Error::other(
        "no answer to the command among 1000 lines",
    )))
}

fn login(
    mut session: Session,
    src: &Source,
    server: &str,
    read_only: bool,
) -> Result<Session, ImapError> {
    session.login(&src.user, &src.password).map_err(|e| {
        match e {
            StepError::No(_) | StepError::Bad(_) => ImapError::Settings(format!(
                "the IMAP server at {server} refused the login as {}: {e}; check imap_user and the password (in $JUDGE_IMAP_PASSWORD, or the variable imap_password_env names)",
                src.user
            )),
            other => step_failed(src, server, "logging in", &other),
        }
    })?;
    session
        .run(if read_only {
            "EXAMINE INBOX"
        } else {
            "SELECT INBOX"
        })
        .map_err(|e| step_failed(src, server, "opening INBOX", &e))?;
    Ok(session)
}

/// Wait on an open session for a change of INBOX, at most `limit` (IDLE): `Ok(true)`
/// when the server told of one, `Ok(false)` when the time ran out first.
pub(crate) fn wait_for_change(
    session: &mut Session,
    src: &Source,
    limit: Duration,
) -> Result<bool, ImapError> {
    session
        .idle(limit)
        .map_err(|e| step_failed(src, &src.host, "waiting for mail (IDLE)", &e))
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
        .run(&format!("UID STORE {} +FLAGS (\\Seen)", list.join(",")))
        .map_err(|e| step_failed(src, &src.host, "marking mail seen", &e))?;
    session.logout();
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
        .map_err(|e| step_failed(src, &src.host, "searching INBOX", &e))?;
    // Filed in the order of delivery: the server's INTERNALDATE, then its own sequence
    // (the UID) for mails delivered in the same second.
    let mut when = std::collections::BTreeMap::new();
    if !uids.is_empty() {
        let list: Vec<String> = uids.iter().map(u32::to_string).collect();
        for f in session
            .uid_fetch(&list.join(","), "INTERNALDATE")
            .map_err(|e| step_failed(src, &src.host, "fetching dates", &e))?
        {
            if let (Some(uid), Some(d)) = (f.uid, f.internal_date) {
                when.insert(uid, d);
            }
        }
    }
    uids.sort_unstable_by_key(|u| (when.get(u).copied().unwrap_or(i64::MAX), *u));
    let mut seen = Vec::new();
    'fetching: for uid in &uids {
        let fetches = session
            .uid_fetch(&uid.to_string(), "(BODY.PEEK[] INTERNALDATE)")
            .map_err(|e| step_failed(src, &src.host, &format!("fetching mail {uid}"), &e))?;
        for f in &fetches {
            let delivered = f
                .internal_date
                .and_then(|d| u64::try_from(d).ok())
                .and_then(|s| UNIX_EPOCH.checked_add(Duration::from_secs(s)));
            if let Some(body) = &f.body {
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
            .run(&format!("UID STORE {} +FLAGS (\\Seen)", seen.join(",")))
            .map_err(|e| step_failed(src, &src.host, "marking mail seen", &e))?;
    }
    session.logout();
    Ok(uids.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server's side of a session, written out beforehand: what the judge reads, and
    /// what it wrote.
    struct Scripted {
        said: std::io::Cursor<Vec<u8>>,
        heard: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    }

    impl Read for Scripted {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.said.read(buf)
        }
    }

    impl Write for Scripted {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.heard.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session(server: &str) -> (Session, std::sync::Arc<std::sync::Mutex<Vec<u8>>>) {
        let heard = std::sync::Arc::default();
        let conn = Scripted {
            said: std::io::Cursor::new(server.as_bytes().to_vec()),
            heard: std::sync::Arc::clone(&heard),
        };
        (
            Session::new(Timed::new(Box::new(conn), Duration::from_secs(1))),
            heard,
        )
    }

    #[test]
    fn internal_dates_are_read_with_their_zone() {
        // RFC 3501's own example, and its day written with a space.
        assert_eq!(
            internal_date("17-Jul-1996 02:44:25 -0700"),
            Some(837_596_665)
        );
        assert_eq!(internal_date(" 1-Jan-1970 00:00:00 +0000"), Some(0));
        assert_eq!(
            internal_date("29-Feb-2024 23:59:59 +0100"),
            Some(1_709_247_599)
        );
        for bad in [
            "",
            "17-Jux-1996 02:44:25 -0700",
            "17-Jul-1996 02:44 -0700",
            "x",
        ] {
            assert_eq!(internal_date(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_fetched_message_is_read_whole_from_its_literal() {
        let body = "From: a@example.org\r\nSubject: (orders) {3}\r\n\r\nline \"one\")\r\n";
        let (mut s, heard) = session(&format!(
            "* 2 FETCH (FLAGS (\\Seen))\r\n* 1 FETCH (UID 7 INTERNALDATE \"17-Jul-1996 02:44:25 -0700\" BODY[] {{{}}}\r\n{body})\r\nj1 OK done\r\n",
            body.len()
        ));
        let got = s.uid_fetch("7", "(BODY.PEEK[] INTERNALDATE)").unwrap();
        assert_eq!(
            *heard.lock().unwrap(),
            b"j1 UID FETCH 7 (BODY.PEEK[] INTERNALDATE)\r\n"
        );
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], Fetch::default());
        assert_eq!(
            got[1],
            Fetch {
                uid: Some(7),
                internal_date: Some(837_596_665),
                body: Some(body.as_bytes().to_vec()),
            }
        );
    }

    #[test]
    fn a_refusal_and_a_search_are_told_apart() {
        let (mut s, heard) =
            session("* SEARCH 3 9 12\r\nj1 OK found\r\nj2 NO [AUTHENTICATIONFAILED] no\r\n");
        assert_eq!(s.uid_search("UNSEEN").unwrap(), vec![3, 9, 12]);
        match s.login("judge", "p\"a\\ss") {
            Err(StepError::No(t)) => assert_eq!(t, "[AUTHENTICATIONFAILED] no"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            String::from_utf8_lossy(&heard.lock().unwrap()),
            "j1 UID SEARCH UNSEEN\r\nj2 LOGIN \"judge\" \"p\\\"a\\\\ss\"\r\n"
        );
        assert!(
            quoted("a\r\nj9 LOGOUT").is_err(),
            "no command smuggled in a name"
        );
    }

    #[test]
    fn a_closed_connection_or_a_bye_is_an_error_not_a_hang() {
        let (mut s, _) = session("* BYE going away\r\n");
        assert!(matches!(s.greeting(), Err(StepError::Bye(_))));
        let (mut s, _) = session("* 1 FETCH (UID 1 BODY[] {100}\r\nshort");
        assert!(matches!(
            s.uid_fetch("1", "BODY.PEEK[]"),
            Err(StepError::Io(_))
        ));
        let (mut s, _) = session("* 1 FETCH (UID 1 BODY[] {999999999999}\r\n");
        assert!(matches!(
            s.uid_fetch("1", "BODY.PEEK[]"),
            Err(StepError::Unreadable(_))
        ));
    }

    #[test]
    fn idle_tells_a_change_and_ends_with_done() {
        let (mut s, heard) = session("+ idling\r\n* 4 EXISTS\r\nj1 OK IDLE done\r\n");
        assert!(s.idle(Duration::from_secs(1)).unwrap());
        assert_eq!(*heard.lock().unwrap(), b"j1 IDLE\r\nDONE\r\n");
    }
}
