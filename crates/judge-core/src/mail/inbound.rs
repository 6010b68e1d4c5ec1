//! Reading an incoming mail (RFC 5322 / MIME, with mail-parser): who sent it, when, its
//! Message-ID and subject, and every text in it — the body (an HTML-only body turned into
//! lines of text, one per block element, by html2text) and text attachments.
//! Quoted-printable, base64 and other charsets are decoded by the parser.

use std::borrow::Cow;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mail_parser::{Encoding, Message, MessageParser, MessagePart, MimeHeaders, PartType};

use super::budget;
pub use super::budget::ReadError;

/// Mails larger than this are refused unread (a 20 MB attachment is no order file).
pub const MAX_BYTES: usize = 2 * 1024 * 1024;

/// One text found in a mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// What it is, for people: `body`, `attachment orders.txt`.
    pub label: String,
    pub text: String,
    /// An attachment (not the body).
    pub attachment: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming {
    /// Lower-cased sender address from `From:` (never replaced by `Reply-To:`: see
    /// `reply_to`).
    pub from: Option<String>,
    /// The `From:` line as written (name and address), for the kept copy.
    pub from_line: String,
    /// Lower-cased first address of `Reply-To:`. Never where an answer goes: only, for
    /// a mail from a mailing list that rewrites `From:`, whose mail it says it is
    /// (`[mail] lists`, docs/gm-guide.md).
    pub reply_to: Option<String>,
    /// Lower-cased address of `X-Original-From:` (Google Groups and other lists that
    /// rewrite `From:` keep the author there), read as `reply_to` is.
    pub original_from: Option<String>,
    pub to_line: String,
    /// The Message-ID, or one made from the mail's bytes if it has none.
    pub message_id: String,
    pub subject: String,
    /// The sender's `Date:`.
    pub date: Option<SystemTime>,
    /// The stamp of the topmost `Received:` header (the last server's).
    pub received: Option<SystemTime>,
    /// Every text in the mail, the body first.
    pub parts: Vec<Part>,
    /// Other attachments, not read: their names, types and sizes, never their contents.
    pub others: Vec<Other>,
}

/// A part of a mail that is not read (a picture, a TNEF `winmail.dat`, a document).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Other {
    /// Its file name, or `unnamed`.
    pub name: String,
    /// Its MIME type, `type/subtype`.
    pub mime: String,
    pub size: usize,
}

impl Other {
    /// The part for an answer: its name and type, and what to do about the types mail
    /// programs are known to send.
    pub fn describe(&self) -> String {
        let name = budget::cut(&self.name, 80);
        let tnef = self.mime == "application/ms-tnef"
            || self.mime == "application/vnd.ms-tnef"
            || self.name.eq_ignore_ascii_case("winmail.dat");
        if tnef {
            format!(
                "`{name}` ({}: Outlook's own rich-text format, TNEF, which only Outlook reads; in Outlook, set the mail's format to plain text)",
                self.mime
            )
        } else {
            format!("`{name}` ({})", self.mime)
        }
    }
}

impl Incoming {
    /// Where the orders of the mail are, and what stands in their way: the body if it
    /// looks like orders, else a text attachment that does, else the body. Whether a
    /// text looks like orders is the game's to say
    /// ([`crate::pbem::game::Game::looks_like_orders`]); [`has_header_line`] is what
    /// every game's orders may start with.
    ///
    /// A body of header lines alone (`game`, `player`, `turn`,
    /// `secret`) beside a text attachment is the header of the attachment's orders: they
    /// are read together, the attachment's own header lines first. An empty attachment
    /// there, or orders both in the body and in an attachment, are a [`Problem`].
    pub fn orders_found(&self, looks_like_orders: &dyn Fn(&str) -> bool) -> Option<Found<'_>> {
        let body = self.parts.iter().find(|p| !p.attachment);
        let attached = || {
            self.parts
                .iter()
                .find(|p| p.attachment && looks_like_orders(&p.text))
        };
        let Some(b) = body.filter(|b| looks_like_orders(&b.text)) else {
            return attached().or(body).map(|part| Found {
                text: Cow::Borrowed(part.text.as_str()),
                part,
                problem: None,
            });
        };
        let found = |text, part, problem| {
            Some(Found {
                text,
                part,
                problem,
            })
        };
        if header_only(&b.text) {
            // The text attachment the body is the header of: one that looks like
            // orders, else the first one that is not HTML left unread.
            let file = attached().or_else(|| {
                self.parts
                    .iter()
                    .find(|p| p.attachment && p.text != NOT_READ)
            });
            if let Some(a) = file {
                let problem = header_only(&a.text).then(|| Problem::Empty(name_of(a)));
                return found(Cow::Owned(with_header(&b.text, &a.text)), a, problem);
            }
        } else if let Some(a) = attached().filter(|a| !header_only(&a.text)) {
            return found(
                Cow::Borrowed(b.text.as_str()),
                b,
                Some(Problem::TwoPlaces(name_of(a))),
            );
        }
        found(Cow::Borrowed(b.text.as_str()), b, None)
    }

    /// The text that holds the orders ([`Incoming::orders_found`]).
    pub fn orders_by(&self, looks_like_orders: &dyn Fn(&str) -> bool) -> Option<Cow<'_, str>> {
        self.orders_found(looks_like_orders).map(|f| f.text)
    }

    /// [`Incoming::orders_by`] with the header lines alone ([`has_header_line`]).
    pub fn orders(&self) -> Option<Cow<'_, str>> {
        self.orders_by(&has_header_line)
    }

    /// The parts of the mail that were not read and may have held the orders: every
    /// one but pictures, sound, film and signatures.
    pub fn unread(&self) -> impl Iterator<Item = &Other> {
        self.others.iter().filter(|o| {
            !(o.mime.starts_with("image/")
                || o.mime.starts_with("audio/")
                || o.mime.starts_with("video/")
                || o.mime.ends_with("-signature"))
        })
    }
}

/// Where a mail's orders were found ([`Incoming::orders_found`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    /// The orders, as the game reads them.
    pub text: Cow<'a, str>,
    /// The part they come from (an attachment when the body held its header lines only).
    pub part: &'a Part,
    /// What keeps them from being filed as they are.
    pub problem: Option<Problem>,
}

/// Orders split between a mail's body and an attachment in a way that cannot be read
/// as meant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The body holds the header lines, and the attachment beside them no orders.
    #[error(
        "the mail's body holds only the header lines, and its attachment {0} holds no orders (it is empty); your earlier orders, if any, stand"
    )]
    Empty(String),
    /// Both the body and an attachment hold orders.
    #[error(
        "both the mail's body and its attachment {0} hold orders, and the judge cannot tell which you meant; send them in one place: in the body, or in the attachment with the body holding only the header lines"
    )]
    TwoPlaces(String),
}

/// A part's name, for an answer: `` `orders.txt` ``.
fn name_of(p: &Part) -> String {
    format!(
        "`{}`",
        p.label.strip_prefix("attachment ").unwrap_or(&p.label)
    )
}

/// The first word of a header line every game's orders may begin with, if `line` is one.
fn header_key(line: &str) -> Option<&'static str> {
    let w = line.split_whitespace().next()?.trim_end_matches(':');
    ["game", "player", "turn", "secret"]
        .into_iter()
        .find(|k| w.eq_ignore_ascii_case(k))
}

/// Whether `text` holds nothing but header lines (`game`, `player`, `turn`, `secret`):
/// blank lines, `#` comments, quoted lines and a signature below `-- ` aside.
pub fn header_only(text: &str) -> bool {
    text.lines()
        .take_while(|l| l.trim_end_matches('\r') != "-- ")
        .map(str::trim)
        .filter(|l| !(l.is_empty() || l.starts_with('#') || l.starts_with('>')))
        .all(|l| header_key(l).is_some())
}

/// The orders of an attachment under the header lines of the body that it lacks.
fn with_header(body: &str, file: &str) -> String {
    let own: Vec<&str> = file.lines().filter_map(header_key).collect();
    let mut out = String::new();
    for l in body
        .lines()
        .take_while(|l| l.trim_end_matches('\r') != "-- ")
    {
        if header_key(l).is_some_and(|k| !own.contains(&k)) {
            out.push_str(l.trim());
            out.push('\n');
        }
    }
    out.push_str(file);
    out
}

pub use crate::text::{has_header_line, plain_lines};

/// Whether HTML parts are turned into text. A mail from an address that is no player's
/// is read without its HTML: that costs the most, and nothing in it will be filed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Html {
    Read,
    Skip,
}

/// A stable id for a mail without a Message-ID: a hash of its bytes.
pub fn fallback_id(raw: &[u8]) -> String {
    format!("<no-id-{}@pbem-judge>", crate::archive::content_id(raw))
}

fn time(t: &mail_parser::DateTime) -> Option<SystemTime> {
    if !t.is_valid() {
        return None;
    }
    let secs = u64::try_from(t.to_timestamp()).ok()?;
    UNIX_EPOCH.checked_add(Duration::from_secs(secs))
}

/// The header block of a mail, at most 64 KiB of it.
fn header_block(raw: &[u8]) -> &[u8] {
    let end = budget::header_end(raw).unwrap_or(budget::MAX_HEADER_BYTES);
    &raw[..end.min(raw.len())]
}

/// Only the headers of a mail (for one too large to read whole).
pub fn read_headers(raw: &[u8]) -> Option<Incoming> {
    let mut head = header_block(raw).to_vec();
    head.extend_from_slice(b"\r\n");
    parse(&head, Html::Skip).ok().map(|m| Incoming {
        parts: Vec::new(),
        others: Vec::new(),
        ..m
    })
}

/// The Message-ID a mail goes by (its own, or one made from its bytes), read from its
/// headers alone: enough to tell a mail already filed without reading it again.
pub fn message_id(raw: &[u8]) -> String {
    read_headers(raw)
        .map(|h| h.message_id)
        .filter(|id| !id.starts_with("<no-id-"))
        .unwrap_or_else(|| fallback_id(raw))
}

/// Read a whole mail, its HTML too.
pub fn read(raw: &[u8]) -> Result<Incoming, ReadError> {
    read_with(raw, Html::Read)
}

/// Read a mail within the limits of [`budget`]: each is checked by a linear scan before
/// the MIME reader or the HTML reader sees the bytes.
pub fn read_with(raw: &[u8], html: Html) -> Result<Incoming, ReadError> {
    if raw.len() > MAX_BYTES {
        return Err(ReadError::TooLarge(raw.len()));
    }
    if budget::header_end(raw).is_none() {
        return Err(ReadError::HeadersTooLarge);
    }
    let parts = budget::parts(raw);
    if parts > budget::MAX_PARTS {
        return Err(ReadError::TooManyParts(parts));
    }
    parse(raw, html)
}

/// What stands for an HTML part that was not read.
pub const NOT_READ: &str = "[HTML not read: the sender is not a player of this game]";

/// A header's text fit to keep: control characters made spaces, cut to
/// [`budget::MAX_HEADER_KEPT`] characters.
fn clean_header(s: &str) -> String {
    let cleaned: String = s
        .chars()
        .take(budget::MAX_HEADER_KEPT + 1)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    budget::cut(cleaned.trim(), budget::MAX_HEADER_KEPT)
}

/// A Message-ID fit to keep: one longer than [`budget::MAX_HEADER_KEPT`] goes by a hash
/// of itself.
fn clean_id(id: &str) -> String {
    if id.len() > budget::MAX_HEADER_KEPT {
        format!(
            "<long-id-{}@pbem-judge>",
            crate::archive::content_id(id.as_bytes())
        )
    } else {
        format!("<{}>", clean_header(id))
    }
}

/// The address a header such as `X-Original-From: Ann <ann@example.org>` names (the
/// first in angle brackets, else the whole text), if it looks like one: a local part, `@`
/// and a domain, without spaces.
fn address_in(raw: &str) -> Option<String> {
    let text = raw.trim();
    // The first address in angle brackets, else the whole text.
    let inner = match text.find('<') {
        Some(a) => {
            let rest = &text[a + 1..];
            &rest[..rest.find('>')?]
        }
        None => text,
    };
    let inner = inner.trim();
    let (local, domain) = inner.split_once('@')?;
    (!local.is_empty()
        && domain.contains('.')
        && !inner
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "<>,;\"".contains(c)))
    .then(|| inner.to_string())
}

fn parse(raw: &[u8], html: Html) -> Result<Incoming, ReadError> {
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or(ReadError::Unreadable)?;
    if msg.headers().is_empty() {
        return Err(ReadError::Unreadable);
    }
    let first = msg.from().and_then(|a| a.first());
    let from = first
        .and_then(|a| a.address())
        .map(|a| budget::cut(a.trim(), budget::MAX_HEADER_KEPT).to_ascii_lowercase());
    let from_line = first.map_or(String::new(), |a| match (a.name(), a.address()) {
        (Some(n), Some(e)) => format!("{} <{e}>", clean_header(n)),
        (None, Some(e)) => e.to_string(),
        (Some(n), None) => clean_header(n),
        (None, None) => String::new(),
    });
    let reply_to = msg
        .reply_to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(|a| budget::cut(a.trim(), budget::MAX_HEADER_KEPT).to_ascii_lowercase());
    let original_from = msg
        .header_raw("X-Original-From")
        .and_then(address_in)
        .map(|a| budget::cut(&a, budget::MAX_HEADER_KEPT).to_ascii_lowercase());
    let to_line = msg
        .to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map_or(String::new(), clean_header);
    let message_id = msg.message_id().map_or_else(|| fallback_id(raw), clean_id);
    let subject = msg.subject().map_or(String::new(), clean_header);
    let date = msg.date().and_then(time);
    let received = msg
        .received_all()
        .next()
        .and_then(|r| r.date())
        .and_then(|d| time(&d));
    let mut reader = Reader {
        html,
        spent: 0,
        parts: Vec::new(),
        others: Vec::new(),
    };
    reader.message(&msg, None)?;
    let (parts, others) = (reader.parts, reader.others);
    Ok(Incoming {
        from,
        from_line,
        reply_to,
        original_from,
        to_line,
        message_id,
        subject,
        date,
        received,
        parts,
        others,
    })
}

/// What reads the parts of a mail, in the order the mail shows them.
struct Reader {
    html: Html,
    /// The HTML elements of the mail read so far.
    spent: usize,
    parts: Vec<Part>,
    others: Vec<Other>,
}

impl Reader {
    /// Read `msg`: its body (every text part of it, in order), then its attachments.
    /// `forwarded` names a mail forwarded in another (`message/rfc822`): its body is
    /// read as an attachment of the mail that holds it.
    fn message(&mut self, msg: &Message<'_>, forwarded: Option<&str>) -> Result<(), ReadError> {
        let raw = msg.raw_message();
        // Every text part of the body, as the mail shows them (Apple
        // Mail sends text, a picture, then more text, as parts side by side). Of a
        // `multipart/alternative`, mail-parser lists one alternative only.
        let mut body: Option<String> = None;
        for p in msg.text_bodies() {
            let text = match &p.body {
                PartType::Text(t) => text_of(p, t, raw),
                PartType::Html(h) => self.html_text(h)?,
                // A picture between texts is listed with the attachments.
                _ => continue,
            };
            let b = body.get_or_insert_with(String::new);
            if !b.is_empty() && !b.ends_with('\n') {
                b.push('\n');
            }
            b.push_str(&text);
        }
        if let Some(text) = body {
            self.parts.push(match forwarded {
                None => Part {
                    label: "body".into(),
                    text,
                    attachment: false,
                },
                Some(name) => Part {
                    label: format!("attachment {name}"),
                    text,
                    attachment: true,
                },
            });
        }
        for p in msg.attachments() {
            let own = p
                .attachment_name()
                .map_or("unnamed".to_string(), clean_header);
            let name = match forwarded {
                Some(f) => format!("{f}/{own}"),
                None => own,
            };
            let text = match &p.body {
                PartType::Text(t) => Some(text_of(p, t, raw)),
                PartType::Html(h) => Some(self.html_text(h)?),
                // A forwarded mail's text is read.
                PartType::Message(m) => {
                    let name = match p.attachment_name() {
                        Some(_) => name,
                        None => match forwarded {
                            Some(f) => format!("{f}/forwarded mail"),
                            None => "forwarded mail".to_string(),
                        },
                    };
                    self.message(m, Some(&name))?;
                    continue;
                }
                // `orders.txt` sent as `application/octet-stream`
                // is read if it is text.
                PartType::Binary(b) | PartType::InlineBinary(b)
                    if name.to_ascii_lowercase().ends_with(".txt") =>
                {
                    unicode(b)
                }
                _ => None,
            };
            match text {
                Some(text) => self.parts.push(Part {
                    label: format!("attachment {name}"),
                    text,
                    attachment: true,
                }),
                None => self.others.push(Other {
                    name,
                    mime: mime_of(p),
                    size: p.contents().len(),
                }),
            }
        }
        Ok(())
    }

    fn html_text(&mut self, h: &str) -> Result<String, ReadError> {
        match self.html {
            Html::Read => super::html::to_text(h, &mut self.spent),
            Html::Skip => Ok(NOT_READ.to_string()),
        }
    }
}

/// The MIME type of a part, as `type/subtype`, lower-cased and cut.
fn mime_of(p: &MessagePart<'_>) -> String {
    p.content_type().map_or_else(
        || "text/plain".to_string(),
        |c| {
            let t = match c.subtype() {
                Some(s) => format!("{}/{s}", c.ctype()),
                None => c.ctype().to_string(),
            };
            clean_header(&t).to_ascii_lowercase()
        },
    )
}

/// The text of a `text/…` part: as mail-parser decoded it, but for text without a
/// charset that is UTF-16 (Outlook attaches a UTF-16 file so, with
/// its byte order mark), decoded again from its bytes; then without a byte order mark,
/// and with `format=flowed` undone.
fn text_of(p: &MessagePart<'_>, t: &str, raw: &[u8]) -> String {
    let ct = p.content_type();
    let charset = ct.and_then(|c| c.attribute("charset"));
    let text = if charset.is_none() && (t.starts_with('\u{FFFD}') || t.contains('\0')) {
        part_bytes(p, raw)
            .and_then(|b| unicode(&b))
            .unwrap_or_else(|| t.to_string())
    } else {
        t.to_string()
    };
    let text = match text.strip_prefix('\u{FEFF}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    let flowed = ct
        .and_then(|c| c.attribute("format"))
        .is_some_and(|f| f.trim().eq_ignore_ascii_case("flowed"));
    if flowed {
        let delsp = ct
            .and_then(|c| c.attribute("delsp"))
            .is_some_and(|d| d.trim().eq_ignore_ascii_case("yes"));
        super::flowed::decode(&text, delsp)
    } else {
        text
    }
}

/// The bytes of a part, its transfer encoding undone.
fn part_bytes(p: &MessagePart<'_>, raw: &[u8]) -> Option<Vec<u8>> {
    let body = raw.get(p.offset_body as usize..p.offset_end as usize)?;
    match p.encoding {
        Encoding::Base64 => mail_parser::decoders::base64::base64_decode(body),
        Encoding::QuotedPrintable => {
            mail_parser::decoders::quoted_printable::quoted_printable_decode(body)
        }
        Encoding::None => Some(body.to_vec()),
    }
}

/// Bytes as text, if they are text: UTF-16 or UTF-8 with a byte order mark, or valid
/// UTF-8 without a NUL.
fn unicode(b: &[u8]) -> Option<String> {
    let utf16 = |big: bool| {
        let units = b[2..].chunks_exact(2).map(|c| {
            if big {
                u16::from_be_bytes([c[0], c[1]])
            } else {
                u16::from_le_bytes([c[0], c[1]])
            }
        });
        char::decode_utf16(units)
            .collect::<Result<String, _>>()
            .ok()
    };
    match b {
        [0xFF, 0xFE, ..] => utf16(false),
        [0xFE, 0xFF, ..] => utf16(true),
        [0xEF, 0xBB, 0xBF, rest @ ..] => String::from_utf8(rest.to_vec()).ok(),
        _ => String::from_utf8(b.to_vec())
            .ok()
            .filter(|s| !s.contains('\0')),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_come_from_the_body_or_an_attachment() {
        let plain = b"From: Ann <ANN@example.org>\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <1@x>\r\n\r\nplayer red\r\nturn 1\r\n";
        let m = read(plain).expect("reads");
        assert_eq!(m.from.as_deref(), Some("ann@example.org"));
        assert_eq!(m.message_id, "<1@x>");
        assert!(m.orders().is_some_and(|o| o.contains("player red")));

        let attached = "From: ann@example.org\r\nSubject: orders\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nHi, my orders are attached.\r\n--b\r\nContent-Type: text/plain; name=orders.txt\r\nContent-Disposition: attachment; filename=\"../../x\"\r\nContent-Transfer-Encoding: base64\r\n\r\ncGxheWVyIHJlZApvcmRlciBvbmUKb3JkZXIgdHdvCg==\r\n--b--\r\n";
        let m = read(attached.as_bytes()).expect("reads");
        assert!(
            m.orders()
                .is_some_and(|o| o.starts_with("player red\norder one"))
        );
        assert!(m.message_id.starts_with("<no-id-"));
    }

    #[test]
    fn quoted_printable_latin1_and_html_only_bodies_are_decoded() {
        let qp = "From: ann@example.org\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nplayer red\r\n# caf=E9 au lait\r\norder one\r\n";
        let m = read(qp.as_bytes()).expect("reads");
        assert!(m.orders().is_some_and(|o| o.contains("café")));
        let html = "From: ann@example.org\r\nContent-Type: text/html\r\n\r\n<div>player red</div><div>order one</div><div>order two</div>\r\n";
        let m = read(html.as_bytes()).expect("reads");
        let o = m.orders().expect("orders");
        assert!(
            o.lines().any(|l| l.trim() == "order two"),
            "one line per div: {o:?}"
        );
    }

    #[test]
    fn the_received_stamp_and_date_are_read() {
        let m = read(b"Received: from x by mx.example.org; Tue, 1 Dec 2026 03:02:32 +0000\r\nReceived: from y by z; Tue, 1 Dec 2026 03:00:00 +0000\r\nDate: Tue, 1 Dec 2026 02:59:00 +0000\r\nFrom: a@example.org\r\n\r\nx\r\n").expect("reads");
        let at = |t: SystemTime| humantime::format_rfc3339_seconds(t).to_string();
        assert_eq!(m.received.map(at).as_deref(), Some("2026-12-01T03:02:32Z"));
        assert_eq!(m.date.map(at).as_deref(), Some("2026-12-01T02:59:00Z"));
    }

    #[test]
    fn huge_and_broken_mails_are_refused_unread() {
        assert_eq!(
            read(&vec![b'a'; MAX_BYTES + 1]),
            Err(ReadError::TooLarge(MAX_BYTES + 1))
        );
        assert!(read(b"").is_err());
    }

    fn mixed(parts: &[(&str, &str)]) -> Vec<u8> {
        let mut m = "From: ann@example.org\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <t@x>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n".to_string();
        for (head, body) in parts {
            m.push_str(&format!("--b\r\n{head}\r\n\r\n{body}\r\n"));
        }
        m.push_str("--b--\r\n");
        m.into_bytes()
    }

    /// Apple Mail's plain text with a picture pasted in is text,
    /// picture, text, as parts side by side: every text part is read, in order, and
    /// the picture is listed unread.
    #[test]
    fn text_after_a_picture_is_read() {
        let raw = mixed(&[
            (
                "Content-Type: text/plain; charset=us-ascii\r\nContent-Transfer-Encoding: 7bit",
                "game demo\r\nplayer red\r\nmove D1: C3\r\n",
            ),
            (
                "Content-Type: image/png; name=\"shot.png\"\r\nContent-Disposition: inline; filename=\"shot.png\"\r\nContent-Transfer-Encoding: base64",
                "iVBORw0KGgo=",
            ),
            (
                "Content-Type: text/plain; charset=us-ascii\r\nContent-Transfer-Encoding: 7bit",
                "build road on E5\r\nbuild woodcutter on D4\r\n",
            ),
        ]);
        let m = read(&raw).expect("reads");
        let o = m.orders().expect("orders");
        assert_eq!(
            o.lines().map(str::trim).collect::<Vec<_>>(),
            [
                "game demo",
                "player red",
                "move D1: C3",
                "build road on E5",
                "build woodcutter on D4"
            ],
            "{o:?}"
        );
        assert_eq!(m.parts.len(), 1, "one body: {:?}", m.parts);
        assert_eq!(
            m.others,
            [Other {
                name: "shot.png".into(),
                mime: "image/png".into(),
                size: 8
            }]
        );
        assert_eq!(m.unread().count(), 0, "a picture holds no orders to name");
    }

    /// Of a `multipart/alternative`, one alternative is read, not
    /// both, also inside `multipart/mixed` with text after it.
    #[test]
    fn one_alternative_is_read() {
        let alt = "Content-Type: multipart/alternative; boundary=\"a\"\r\n\r\n--a\r\nContent-Type: text/plain\r\n\r\nmove D1: C3\r\n--a\r\nContent-Type: multipart/related; boundary=\"r\"\r\n\r\n--r\r\nContent-Type: text/html\r\n\r\n<div>move D1: C3</div><img src=\"cid:x\">\r\n--r\r\nContent-Type: image/png\r\nContent-ID: <x>\r\nContent-Disposition: inline\r\n\r\nxx\r\n--r--\r\n--a--";
        let raw = mixed(&[(alt, ""), ("Content-Type: text/plain", "move D2: C4")]);
        let m = read(&raw).expect("reads");
        let o = m.orders_by(&|_| true).expect("orders");
        assert_eq!(o.matches("move D1: C3").count(), 1, "{o:?}");
        assert!(o.contains("move D2: C4"), "{o:?}");
    }

    /// Thunderbird's `format=flowed` (and `DelSp=yes`) is decoded,
    /// in a plain mail and in the text part of an HTML one, over 7bit and
    /// quoted-printable alike.
    #[test]
    fn flowed_text_is_joined() {
        let long = "move D1: load 1 board, 1 stone; C3 D3 D4 E4 E5 then unload 1 board on E5";
        let cut = long[..50].rfind(' ').expect("a space");
        let plain = format!(
            "From: ann@example.org\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n\r\ngame demo\r\n{} \r\n{}\r\n",
            &long[..cut],
            &long[cut + 1..]
        );
        let m = read(plain.as_bytes()).expect("reads");
        assert!(
            m.orders().is_some_and(|o| o.contains(long)),
            "{:?}",
            m.parts
        );
        let delsp = format!(
            "From: ann@example.org\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8; format=flowed; delsp=yes\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\ngame demo\r\n{}=20\r\n{}\r\n",
            &long[..20],
            &long[20..]
        );
        let m = read(delsp.as_bytes()).expect("reads");
        assert!(
            m.orders().is_some_and(|o| o.contains(long)),
            "{:?}",
            m.parts
        );
        // The same text not flowed is read as it is.
        let fixed = plain.replace("; format=flowed", "");
        let m = read(fixed.as_bytes()).expect("reads");
        assert!(m.orders().is_some_and(|o| !o.contains(long)));
    }

    /// A UTF-16 attachment without a charset (Outlook's), and an
    /// `orders.txt` sent as `application/octet-stream`, are read as text.
    #[test]
    fn text_files_without_a_text_type_are_read() {
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "player red\r\nmove D1: C3\r\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        let b64 = |b: &[u8]| {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD.encode(b)
        };
        let raw = mixed(&[
            (
                "Content-Type: text/plain; charset=utf-8",
                "Orders attached.",
            ),
            (
                "Content-Type: text/plain; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\nContent-Transfer-Encoding: base64",
                &b64(&utf16),
            ),
        ]);
        let m = read(&raw).expect("reads");
        assert_eq!(
            m.orders().as_deref(),
            Some("player red\r\nmove D1: C3\r\n"),
            "{:?}",
            m.parts
        );
        let raw = mixed(&[
            (
                "Content-Type: text/plain; charset=utf-8",
                "Orders attached.",
            ),
            (
                "Content-Type: application/octet-stream; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\nContent-Transfer-Encoding: base64",
                &b64("player red\nmove D1: C3 — café\n".as_bytes()),
            ),
            (
                "Content-Type: application/octet-stream; name=\"map.bin\"\r\nContent-Transfer-Encoding: base64",
                &b64(b"player red\n"),
            ),
            (
                "Content-Type: application/octet-stream; name=\"zeros.txt\"\r\nContent-Transfer-Encoding: base64",
                &b64(b"player\0red\n\xff"),
            ),
        ]);
        let m = read(&raw).expect("reads");
        assert_eq!(
            m.orders().as_deref(),
            Some("player red\nmove D1: C3 — café\n")
        );
        let unread: Vec<&str> = m.unread().map(|o| o.name.as_str()).collect();
        assert_eq!(unread, ["map.bin", "zeros.txt"], "not text: not read");
    }

    /// A mail forwarded as `message/rfc822` is read: its text is an
    /// attachment of the mail that forwards it.
    #[test]
    fn a_forwarded_mail_is_read() {
        let raw = mixed(&[
            ("Content-Type: text/plain", "Here are my orders again."),
            (
                "Content-Type: message/rfc822\r\nContent-Disposition: attachment",
                "From: ann@example.org\r\nSubject: orders\r\nContent-Type: text/plain; charset=utf-8\r\n\r\ngame demo\r\nplayer red\r\nmove D1: C3",
            ),
        ]);
        let m = read(&raw).expect("reads");
        assert!(
            m.orders()
                .is_some_and(|o| o.starts_with("game demo\r\nplayer red")),
            "{:?}",
            m.parts
        );
        assert_eq!(m.parts[1].label, "attachment forwarded mail");
    }

    /// Outlook's `winmail.dat` is not read, and is named with what
    /// to do.
    #[test]
    fn tnef_is_named() {
        let raw = mixed(&[
            ("Content-Type: text/plain", "game demo\r\nplayer red"),
            (
                "Content-Type: application/ms-tnef; name=\"winmail.dat\"\r\nContent-Disposition: attachment; filename=\"winmail.dat\"\r\nContent-Transfer-Encoding: base64",
                "eJ8+IgAAAQ==",
            ),
        ]);
        let m = read(&raw).expect("reads");
        let named: Vec<String> = m.unread().map(Other::describe).collect();
        assert_eq!(named.len(), 1);
        assert!(
            named[0].contains("`winmail.dat` (application/ms-tnef")
                && named[0].contains("plain text"),
            "{named:?}"
        );
    }

    /// A body of header lines beside an attachment of orders is
    /// the attachment's header; an empty attachment there, or orders in both, are
    /// problems, never an empty file.
    #[test]
    fn a_header_in_the_body_heads_the_attached_orders() {
        let head = "game demo\r\nplayer red\r\nsecret abcd-efgh-jkmn\r\nturn 1\r\n\r\n-- \r\nAnn";
        let with = |file: &str| {
            mixed(&[
                ("Content-Type: text/plain", head),
                (
                    "Content-Type: text/plain; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"",
                    file,
                ),
            ])
        };
        let looks = |t: &str| has_header_line(t) || t.contains("movement");
        let raw = with("movement\r\nmove D1: C3\r\n");
        let m = read(&raw).expect("reads");
        let f = m.orders_found(&looks).expect("found");
        assert_eq!(
            f.text,
            "game demo\nplayer red\nsecret abcd-efgh-jkmn\nturn 1\nmovement\r\nmove D1: C3\r\n"
        );
        assert!(f.part.attachment && f.problem.is_none());
        // The attachment's own header lines win.
        let raw = with("player red\r\nturn 2\r\nmovement\r\n");
        let m = read(&raw).expect("reads");
        let f = m.orders_found(&looks).expect("found");
        assert_eq!(
            f.text,
            "game demo\nsecret abcd-efgh-jkmn\nplayer red\r\nturn 2\r\nmovement\r\n"
        );
        // An empty attachment.
        let raw = with("");
        let m = read(&raw).expect("reads");
        let f = m.orders_found(&looks).expect("found");
        assert_eq!(f.problem, Some(Problem::Empty("`orders.txt`".into())));
        // Orders in both.
        let raw = mixed(&[
            ("Content-Type: text/plain", "game demo\r\nmove D2: C4"),
            (
                "Content-Type: text/plain; name=\"orders.txt\"\r\nContent-Disposition: attachment",
                "movement\r\nmove D1: C3",
            ),
        ]);
        let m = read(&raw).expect("reads");
        let f = m.orders_found(&looks).expect("found");
        assert_eq!(f.problem, Some(Problem::TwoPlaces("`orders.txt`".into())));
        // A body of orders beside a text that is no orders is read as before.
        let raw = mixed(&[
            ("Content-Type: text/plain", "game demo\r\nmove D2: C4"),
            (
                "Content-Type: text/plain; name=\"notes.txt\"\r\nContent-Disposition: attachment",
                "remember the stone",
            ),
        ]);
        let m = read(&raw).expect("reads");
        let f = m.orders_found(&looks).expect("found");
        assert!(!f.part.attachment && f.problem.is_none());
    }
}
