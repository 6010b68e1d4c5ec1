//! What one mail may cost to read: limits checked by linear scans of its bytes before
//! anything that could cost more is done with them (docs/archive.md, "Limits on one
//! mail"). A mail over a limit is refused unread, logged and (for a player) answered
//! once; it is never read again.
//!
//! Turning HTML into text costs time that grows with the square of how deep its
//! elements nest (75,000 nested `<div>` took 16 s), and memory with how many there are.
//! An order mail needs neither: a mail client's HTML for a page of orders nests a dozen
//! elements deep and has a few hundred of them.

/// A mail's headers end within this many bytes (RFC 5322 lines are at most 998 bytes;
/// 64 KiB is dozens of `Received:` lines).
pub const MAX_HEADER_BYTES: usize = 64 * 1024;
/// HTML elements may nest this deep, as the parser builds them. The linear scan
/// ([`html_shape`]) counts elements a browser closes by themselves when the next one
/// starts (`p`, `li`, `td`, `tr`, …) and void ones (`br`, `img`, …) as closed; the parsed
/// tree is measured again before it is turned into text (`mail::inbound`).
pub const MAX_HTML_DEPTH: usize = 100;
/// A mail's HTML may have this many elements, in all its parts together: what parsing
/// it may cost is bounded by them times their depth.
pub const MAX_HTML_ELEMENTS: usize = 5_000;
/// A mail may have this many MIME parts (`Content-Type:` lines after its headers).
pub const MAX_PARTS: usize = 200;
/// A mail may hold this many values that may be secrets (what `secret` lines say, words
/// shaped like a secret): an order mail holds one.
pub const MAX_SECRET_VALUES: usize = 100;
/// What is kept of a header (subject, Message-ID, sender) in the log and the kept copy:
/// more is cut, with `…` in its place.
pub const MAX_HEADER_KEPT: usize = 200;

/// Where a mail's headers end (after the blank line), if they end within
/// [`MAX_HEADER_BYTES`]; a mail that is all headers ends at its end.
pub fn header_end(raw: &[u8]) -> Option<usize> {
    let mut at = 0;
    while at < raw.len() {
        let line_end = raw[at..]
            .iter()
            .position(|b| *b == b'\n')
            .map_or(raw.len(), |i| at + i + 1);
        let line = &raw[at..line_end];
        if line == b"\n" || line == b"\r\n" {
            return (line_end <= MAX_HEADER_BYTES).then_some(line_end);
        }
        if line_end > MAX_HEADER_BYTES {
            return None;
        }
        at = line_end;
    }
    Some(raw.len())
}

/// How many MIME parts a mail may have at most: the `Content-Type:` lines at the start
/// of a line after its headers (a cheap upper bound on what the MIME reader will find).
pub fn parts(raw: &[u8]) -> usize {
    let body = header_end(raw).map_or(raw, |e| &raw[e..]);
    body.split(|b| *b == b'\n')
        .filter(|l| l.len() >= 13 && l[..13].eq_ignore_ascii_case(b"content-type:"))
        .count()
}

/// Elements a browser closes by itself when a sibling starts, and void elements: they
/// do not make HTML deeper.
const FLAT: &[&str] = &[
    "p", "li", "dt", "dd", "td", "th", "tr", "tbody", "thead", "tfoot", "colgroup", "option",
    "optgroup", "rp", "rt", "br", "img", "hr", "meta", "link", "input", "wbr", "col", "area",
    "base", "embed", "param", "source", "track", "keygen", "!doctype",
];

/// How an HTML text is built: the most elements open at once (a conservative count: an
/// element left unclosed stays open), and how many elements it has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HtmlShape {
    pub depth: usize,
    pub elements: usize,
}

/// The shape of an HTML text, in one pass over it.
pub fn html_shape(html: &str) -> HtmlShape {
    let b = html.as_bytes();
    let mut shape = HtmlShape::default();
    let mut open = 0usize;
    let mut i = 0;
    while let Some(k) = b[i..].iter().position(|c| *c == b'<') {
        i += k + 1;
        if b[i..].starts_with(b"!--") {
            // A comment runs to `-->`.
            i = find(b, i + 3, b"-->").map_or(b.len(), |e| e + 3);
            continue;
        }
        let closing = b.get(i) == Some(&b'/');
        let start = i + usize::from(closing);
        let name_len = b[start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'!' || **c == b'-')
            .count();
        if name_len == 0 || !(b[start].is_ascii_alphabetic() || b[start] == b'!') {
            continue; // `a < b`: text, not a tag
        }
        let name = html[start..start + name_len].to_ascii_lowercase();
        let tag_end = b[start..]
            .iter()
            .position(|c| *c == b'>')
            .map_or(b.len(), |e| start + e);
        let self_closing = tag_end > 0 && b.get(tag_end - 1) == Some(&b'/');
        i = (tag_end + 1).min(b.len());
        if name.starts_with('!') && name != "!doctype" {
            continue; // `<!x …>`: a declaration
        }
        let flat = FLAT.contains(&name.as_str()) || self_closing;
        if closing {
            if !flat {
                open = open.saturating_sub(1);
            }
        } else {
            shape.elements += 1;
            if !flat {
                open += 1;
                shape.depth = shape.depth.max(open);
            }
        }
    }
    shape
}

fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

/// `text` cut to at most `max` characters, with `…` where it was cut.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// Why a mail could not be read at all. Each is a limit on what reading one mail may
/// cost (the limits above), or a mail that is no mail.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("the mail is larger than 2 MB; orders come in mails under 2 MB")]
    TooLarge(usize),
    #[error("the mail is not a readable RFC 5322 message")]
    Unreadable,
    #[error("its headers do not end within 64 KB")]
    HeadersTooLarge,
    #[error("it has {0} MIME parts, and the judge reads at most {max}", max = MAX_PARTS)]
    TooManyParts(usize),
    #[error("its HTML nests {0} elements deep, and the judge reads HTML at most {max} deep; send the orders as plain text", max = MAX_HTML_DEPTH)]
    HtmlTooDeep(usize),
    #[error("its HTML has {0} elements, and the judge reads HTML of at most {max} elements in a mail; send the orders as plain text", max = MAX_HTML_ELEMENTS)]
    HtmlTooBig(usize),
    #[error("it holds {0} words that may be secrets, and the judge reads mails with at most {max}", max = MAX_SECRET_VALUES)]
    TooManySecrets(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_counts_only_elements_that_stay_open() {
        let s = html_shape("<div><div><p>a<p>b<br><img src=x/></div></div>");
        assert_eq!(
            s,
            HtmlShape {
                depth: 2,
                elements: 6
            }
        );
        let s = html_shape(&"<ul><li>".repeat(300));
        assert_eq!(s.depth, 300, "each list opens inside the last");
        let s = html_shape(&"<td>x</td>".repeat(500));
        assert_eq!(
            s,
            HtmlShape {
                depth: 0,
                elements: 500
            }
        );
        let s = html_shape("a < b <!-- <div><div> --> <b>c</b> <!doctype html>");
        assert_eq!(
            s,
            HtmlShape {
                depth: 1,
                elements: 2
            }
        );
        assert_eq!(html_shape("<"), HtmlShape::default());
        assert_eq!(
            html_shape("<div"),
            HtmlShape {
                depth: 1,
                elements: 1
            }
        );
    }

    #[test]
    fn headers_end_within_the_limit_or_not_at_all() {
        assert_eq!(header_end(b"From: a\r\n\r\nbody"), Some(11));
        assert_eq!(header_end(b"From: a\n\nbody"), Some(9));
        assert_eq!(header_end(b"From: a\n"), Some(8));
        let mut huge = b"Subject: ".to_vec();
        huge.extend(std::iter::repeat_n(b'x', MAX_HEADER_BYTES));
        huge.extend_from_slice(b"\r\n\r\nbody");
        assert_eq!(header_end(&huge), None);
    }

    #[test]
    fn parts_are_counted_by_their_content_type_lines() {
        let raw = b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b\r\ncontent-type: text/html\r\n\r\ny\r\n--b--\r\n";
        assert_eq!(parts(raw), 2);
    }

    #[test]
    fn long_headers_are_cut_with_a_mark() {
        assert_eq!(cut("abcdef", 3), "abc…");
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("ééé", 2), "éé…");
    }
}
