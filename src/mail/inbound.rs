//! Reading an incoming mail (RFC 5322 / MIME, with mail-parser): who sent it, its
//! Message-ID and subject, and the orders in it — from the text body, or an HTML-only
//! body turned to text, or a text attachment. Quoted-printable, base64 and other
//! charsets are decoded by the parser.

use mail_parser::MessageParser;

/// Mails larger than this are refused unread (a 20 MB attachment is no order file).
pub const MAX_BYTES: usize = 2 * 1024 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming {
    /// Lower-cased sender address from `From:` (Reply-To is never used).
    pub from: Option<String>,
    /// The Message-ID, or one made from the mail's bytes if it has none.
    pub message_id: String,
    pub subject: String,
    /// The order text found, if any.
    pub orders: Option<String>,
}

/// Why a mail could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("the mail is {0} bytes; orders come in mails under 2 MB")]
    TooLarge(usize),
    #[error("the mail is not a readable RFC 5322 message")]
    Unreadable,
}

fn looks_like_orders(text: &str) -> bool {
    text.lines().any(|l| {
        let w = l.trim().trim_end_matches(':').to_ascii_lowercase();
        matches!(
            w.as_str(),
            "production" | "movement" | "building" | "wonder"
        ) || w.starts_with("player ")
    })
}

/// A stable id for a mail without a Message-ID: a hash of its bytes.
fn fallback_id(raw: &[u8]) -> String {
    // FNV-1a: stable across runs and machines; not for security.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in raw {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("<no-id-{h:016x}@pbem-judge>")
}

/// Only the header block of a mail (for one too large to read whole).
pub fn read_headers(raw: &[u8]) -> Option<Incoming> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|i| i + 2))
        .unwrap_or(raw.len())
        .min(64 * 1024);
    let mut head = raw[..end].to_vec();
    head.extend_from_slice(b"\r\n");
    read(&head).ok().map(|m| Incoming { orders: None, ..m })
}

pub fn read(raw: &[u8]) -> Result<Incoming, ReadError> {
    if raw.len() > MAX_BYTES {
        return Err(ReadError::TooLarge(raw.len()));
    }
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or(ReadError::Unreadable)?;
    if msg.headers().is_empty() {
        return Err(ReadError::Unreadable);
    }
    let from = msg
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(|a| a.trim().to_ascii_lowercase());
    let message_id = msg
        .message_id()
        .map_or_else(|| fallback_id(raw), |id| format!("<{id}>"));
    let subject = msg
        .subject()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    let body = msg.body_text(0).map(|b| b.into_owned());
    let attached = msg
        .attachments()
        .filter(|p| p.is_text() || p.is_text_html())
        .filter_map(|p| p.text_contents().map(str::to_string))
        .find(|t| looks_like_orders(t));
    let orders = match (body, attached) {
        (Some(b), _) if looks_like_orders(&b) => Some(b),
        (_, Some(a)) => Some(a),
        (b, None) => b,
    };
    Ok(Incoming {
        from,
        message_id,
        subject,
        orders,
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
        assert!(m.orders.is_some_and(|o| o.contains("player red")));

        let attached = "From: ann@example.org\r\nSubject: orders\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nHi, my orders are attached.\r\n--b\r\nContent-Type: text/plain; name=orders.txt\r\nContent-Disposition: attachment; filename=\"../../x\"\r\nContent-Transfer-Encoding: base64\r\n\r\ncGxheWVyIHJlZAptb3ZlbWVudAptb3ZlIEQxOiBDMwo=\r\n--b--\r\n";
        let m = read(attached.as_bytes()).expect("reads");
        assert!(
            m.orders
                .is_some_and(|o| o.starts_with("player red\nmovement"))
        );
        assert!(m.message_id.starts_with("<no-id-"));
    }

    #[test]
    fn quoted_printable_latin1_and_html_only_bodies_are_decoded() {
        let qp = "From: ann@example.org\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nplayer red\r\n# caf=E9 au lait\r\nmovement\r\n";
        let m = read(qp.as_bytes()).expect("reads");
        assert!(m.orders.is_some_and(|o| o.contains("café")));
        let html = "From: ann@example.org\r\nContent-Type: text/html\r\n\r\n<p>player red</p><p>movement</p><p>move D1: C3</p>\r\n";
        let m = read(html.as_bytes()).expect("reads");
        assert!(
            m.orders.is_some_and(|o| o.contains("move D1: C3")),
            "html turned to text"
        );
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
