//! Reading an incoming mail (RFC 5322 / MIME, with mail-parser): who sent it, when, its
//! Message-ID and subject, and every text in it — the body (an HTML-only body turned into
//! lines of text, one per block element, by html2text) and text attachments.
//! Quoted-printable, base64 and other charsets are decoded by the parser.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mail_parser::{MessageParser, MimeHeaders, PartType};

use super::budget;

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
    /// Other attachments: their names and sizes, never their contents.
    pub others: Vec<(String, usize)>,
}

impl Incoming {
    /// The text that holds the orders: the body if it looks like orders, else a text
    /// attachment that does, else the body. Whether a text looks like orders is the
    /// game's to say ([`crate::pbem::game::Game::looks_like_orders`]); [`has_header_line`]
    /// is what every game's orders may start with.
    pub fn orders_by(&self, looks_like_orders: &dyn Fn(&str) -> bool) -> Option<&str> {
        let body = self.parts.iter().find(|p| !p.attachment);
        body.filter(|b| looks_like_orders(&b.text))
            .or_else(|| {
                self.parts
                    .iter()
                    .find(|p| p.attachment && looks_like_orders(&p.text))
            })
            .or(body)
            .map(|p| p.text.as_str())
    }

    /// [`Incoming::orders_by`] with the header lines alone ([`has_header_line`]).
    pub fn orders(&self) -> Option<&str> {
        self.orders_by(&has_header_line)
    }
}

pub use crate::text::{has_header_line, plain_lines};

/// Why a mail could not be read at all. Each is a limit on what reading one mail may
/// cost ([`super::budget`]), or a mail that is no mail.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("the mail is larger than 2 MB; orders come in mails under 2 MB")]
    TooLarge(usize),
    #[error("the mail is not a readable RFC 5322 message")]
    Unreadable,
    #[error("its headers do not end within 64 KB")]
    HeadersTooLarge,
    #[error("it has {0} MIME parts, and the judge reads at most {max}", max = budget::MAX_PARTS)]
    TooManyParts(usize),
    #[error("its HTML nests {0} elements deep, and the judge reads HTML at most {max} deep; send the orders as plain text", max = budget::MAX_HTML_DEPTH)]
    HtmlTooDeep(usize),
    #[error("its HTML has {0} elements, and the judge reads HTML of at most {max} elements in a mail; send the orders as plain text", max = budget::MAX_HTML_ELEMENTS)]
    HtmlTooBig(usize),
    #[error("it holds {0} words that may be secrets, and the judge reads mails with at most {max}", max = budget::MAX_SECRET_VALUES)]
    TooManySecrets(usize),
}

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
    let mut parts = Vec::new();
    // The HTML elements of the mail read so far.
    let mut spent = 0;
    for p in msg.text_bodies() {
        let text = match &p.body {
            PartType::Text(t) => t.to_string(),
            PartType::Html(h) if html == Html::Read => super::html::to_text(h, &mut spent)?,
            PartType::Html(_) => NOT_READ.to_string(),
            _ => continue,
        };
        parts.push(Part {
            label: "body".into(),
            text,
            attachment: false,
        });
        break;
    }
    let mut others = Vec::new();
    for p in msg.attachments() {
        let name = p
            .attachment_name()
            .map_or("unnamed".to_string(), clean_header);
        match &p.body {
            PartType::Text(t) => parts.push(Part {
                label: format!("attachment {name}"),
                text: t.to_string(),
                attachment: true,
            }),
            PartType::Html(h) => parts.push(Part {
                label: format!("attachment {name}"),
                text: if html == Html::Read {
                    super::html::to_text(h, &mut spent)?
                } else {
                    NOT_READ.to_string()
                },
                attachment: true,
            }),
            _ => others.push((name, p.contents().len())),
        }
    }
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
}
