//! `format=flowed` text (RFC 3676), as Thunderbird sends plain text and the text part
//! of its HTML mail: a line that ends in a space is wrapped, and
//! goes on in the next line. mail-parser decodes the transfer encoding and the charset,
//! but not this: undecoded, every order longer than 72 characters is two lines.
//!
//! The decoding is linear in the text: one pass over its lines.

/// `text` with its flowed lines joined, per RFC 3676, section 4.2 (what is a flowed
/// line), 4.4 (space-stuffing), 4.5 (quotes) and 4.2/4.3 with `DelSp=yes` (the space
/// at the end of a flowed line is the sender's, not the writer's). Quoted lines come
/// out as `> ` once per level of quote, then their text.
pub fn decode(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    // The paragraph being joined: its quote depth and its text so far.
    let mut open: Option<(usize, String)> = None;
    let mut lines = text.split('\n').peekable();
    while let Some(raw) = lines.next() {
        // The text's last `\n` ends its last line: it is not a line of its own.
        if lines.peek().is_none() && raw.is_empty() {
            break;
        }
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        // Section 4.5: the quote depth is the number of `>` the line begins with.
        let depth = line.chars().take_while(|c| *c == '>').count();
        let rest = &line[depth..];
        // Section 4.4: a space at the start (after the quote marks) was stuffed by the
        // sender; one is taken away.
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        // Section 4.3: the signature separator `-- ` is never flowed.
        let flowed = rest.ends_with(' ') && rest != "-- ";
        // Section 4.5: a flowed line followed by a line of another quote depth is
        // taken as fixed; so the paragraph open at another depth ends here.
        if let Some((d, para)) = open.take_if(|(d, _)| *d != depth) {
            push_line(&mut out, d, &para);
        }
        let piece = if flowed && delsp {
            // Section 4.2, DelSp=yes: the trailing space is deleted when the lines
            // are joined.
            &rest[..rest.len() - 1]
        } else {
            rest
        };
        let para = match open.take() {
            Some((_, mut p)) => {
                p.push_str(piece);
                p
            }
            None => piece.to_string(),
        };
        if flowed {
            open = Some((depth, para));
        } else {
            push_line(&mut out, depth, &para);
        }
    }
    // Section 4.2: a flowed last line (one the sender should not have written) ends
    // the text as it is.
    if let Some((d, para)) = open {
        push_line(&mut out, d, &para);
    }
    out
}

/// One unwrapped line, with its quote marks written as `> ` per level.
fn push_line(out: &mut String, depth: usize, text: &str) {
    for _ in 0..depth {
        out.push('>');
    }
    if depth > 0 && !text.is_empty() {
        out.push(' ');
    }
    out.push_str(text);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An order Thunderbird wrapped at 72 characters is one order
    /// again; fixed lines stay as they are.
    #[test]
    fn flowed_lines_are_joined() {
        let sent = "game demo\r\nplayer red\r\nmove D1: load 1 board, 1 stone; C3 D3 D4 E4 E5 then \r\nunload 1 board on E5\r\nturn 1\r\n";
        assert_eq!(
            decode(sent, false),
            "game demo\nplayer red\nmove D1: load 1 board, 1 stone; C3 D3 D4 E4 E5 then unload 1 board on E5\nturn 1\n"
        );
        // A paragraph over three lines.
        assert_eq!(decode("a \r\nb \r\nc\r\nd\r\n", false), "a b c\nd\n");
        // Lines without a trailing space are fixed, however long.
        let fixed = format!("{}\n", "x".repeat(200));
        assert_eq!(decode(&fixed, false), fixed);
    }

    /// `DelSp=yes`: the space before the break is the sender's, so a
    /// word broken in the middle is one word again.
    #[test]
    fn delsp_deletes_the_space_of_the_break() {
        assert_eq!(
            decode("move D1: load 1 bo \r\nard; C3\r\n", true),
            "move D1: load 1 board; C3\n"
        );
        assert_eq!(
            decode("move D1: load 1 board; \r\nC3\r\n", true),
            "move D1: load 1 board;C3\n",
            "with DelSp=yes the sender puts two spaces where one is meant"
        );
        assert_eq!(
            decode("move D1: load 1 board;  \r\nC3\r\n", true),
            "move D1: load 1 board; C3\n"
        );
    }

    /// RFC 3676, section 4.4: a line that begins with a space, `>`
    /// or `From ` is sent with a space before it, which is taken away.
    #[test]
    fn stuffed_spaces_are_taken_away() {
        assert_eq!(
            decode(" From the east:\r\n  indented\r\n >not a quote\r\n", false),
            "From the east:\n indented\n>not a quote\n"
        );
    }

    /// RFC 3676, section 4.5: quoted lines join at their own depth,
    /// and a flowed line before a line of another depth ends there.
    #[test]
    fn quoted_flowed_lines_join_by_depth() {
        let sent = "> Orders are due on \r\n> Friday.\r\n>> older \r\n>> text\r\nmine \r\n> quoted\r\nend\r\n";
        assert_eq!(
            decode(sent, false),
            "> Orders are due on Friday.\n>> older text\nmine \n> quoted\nend\n"
        );
        // An empty quoted line stays a quoted empty line.
        assert_eq!(decode(">\r\n> a\r\n", false), ">\n> a\n");
    }

    /// RFC 3676, section 4.3: the signature separator `-- ` is
    /// fixed, though it ends in a space.
    #[test]
    fn the_signature_separator_is_not_flowed() {
        assert_eq!(
            decode("move D1: C3\r\n-- \r\nAnn\r\n", false),
            "move D1: C3\n-- \nAnn\n"
        );
        assert_eq!(decode("-- \r\nAnn\r\n", true), "-- \nAnn\n");
    }

    /// A text with no line end at its end, or a flowed last line, loses nothing.
    #[test]
    fn the_last_line_is_kept() {
        assert_eq!(decode("a \r\nb", false), "a b\n");
        assert_eq!(decode("a \r\n", false), "a \n");
        assert_eq!(decode("", false), "");
    }
}
