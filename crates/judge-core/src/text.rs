//! Text as people type it into mail: the clean-up every order reader does, and the small
//! words of English the judge's messages need.

/// The most lines of one player's orders that a check's echo, or one section of a
/// report, repeats one by one; the rest are counted. An order file may have 20,000
/// lines (docs/orders.md), which no reader wants back line by line, and which would make
/// every player's report megabytes long.
pub const SHOWN_LINES: usize = 300;

/// The line that ends a check's echo of `total` orders when only the first
/// [`SHOWN_LINES`] were shown; none when all were.
pub fn not_shown(total: usize) -> Option<String> {
    (total > SHOWN_LINES).then(|| {
        format!(
            "... and {} more orders, not shown here (the first {SHOWN_LINES} are).",
            total - SHOWN_LINES
        )
    })
}

/// Mail clients turn quotes and dashes typographic, and sprinkle invisible characters
/// (a byte-order mark from Notepad, zero-width spaces, soft hyphens): each character as
/// an order reader sees it, or `None` for one that is not there at all. Phone keyboards
/// type full-width forms (`：`, `；`): they are `:`, `;` and so on.
pub fn plain(c: char) -> Option<char> {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{2032}' => Some('\''),
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{2033}' => Some('"'),
        '\u{2010}'..='\u{2015}' | '\u{2212}' => Some('-'),
        '\u{00AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' => None,
        '\u{00A0}' | '\u{2007}' | '\u{202F}' => Some(' '),
        // A phone keyboard's full-width forms: `：` is `:`, `；` is
        // `;`, `Ｃ３` is `C3` (Unicode's compatibility mapping of the block), and the
        // ideographic space a space.
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
        '\u{3000}' => Some(' '),
        c => Some(c),
    }
}

/// The characters of `line` that no order is written with and that
/// [`plain`] does not make plain (not ASCII, no letter, no space), each named as Unicode
/// names it, in a sentence for a diagnostic's help; `None` when there are none.
pub fn odd_characters(line: &str) -> Option<String> {
    // Bytes that are no text at all (a binary file, a wrong charset) are another story,
    // told by the error itself.
    if line
        .chars()
        .any(|c| c == '\u{FFFD}' || (c.is_control() && !c.is_whitespace()))
    {
        return None;
    }
    let mut seen: Vec<char> = Vec::new();
    for c in line.chars() {
        if plain(c) == Some(c)
            && !c.is_ascii()
            && !c.is_alphanumeric()
            && !c.is_whitespace()
            && !seen.contains(&c)
        {
            seen.push(c);
        }
    }
    if seen.is_empty() {
        return None;
    }
    let named: Vec<String> = seen.iter().take(5).map(|c| char_name(*c)).collect();
    Some(format!(
        "the line holds {}, which no order is written with: write plain characters (a keyboard set to English types them)",
        list(&named)
    ))
}

/// `U+2192 RIGHTWARDS ARROW`: a character by its code point, and its Unicode name for
/// those a phone or a word processor types into orders.
pub fn char_name(c: char) -> String {
    let name = match c {
        '\u{00B7}' => "MIDDLE DOT",
        '\u{00D7}' => "MULTIPLICATION SIGN",
        '\u{00F7}' => "DIVISION SIGN",
        '\u{00B0}' => "DEGREE SIGN",
        '\u{00AB}' => "LEFT-POINTING DOUBLE ANGLE QUOTATION MARK",
        '\u{00BB}' => "RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK",
        '\u{2022}' => "BULLET",
        '\u{2026}' => "HORIZONTAL ELLIPSIS",
        '\u{2039}' => "SINGLE LEFT-POINTING ANGLE QUOTATION MARK",
        '\u{203A}' => "SINGLE RIGHT-POINTING ANGLE QUOTATION MARK",
        '\u{2190}' => "LEFTWARDS ARROW",
        '\u{2192}' => "RIGHTWARDS ARROW",
        '\u{21D2}' => "RIGHTWARDS DOUBLE ARROW",
        '\u{2794}' => "HEAVY WIDE-HEADED RIGHTWARDS ARROW",
        '\u{3001}' => "IDEOGRAPHIC COMMA",
        '\u{3002}' => "IDEOGRAPHIC FULL STOP",
        '\u{300C}' => "LEFT CORNER BRACKET",
        '\u{300D}' => "RIGHT CORNER BRACKET",
        '\u{30FB}' => "KATAKANA MIDDLE DOT",
        '\u{FE55}' => "SMALL COLON",
        '\u{FE54}' => "SMALL SEMICOLON",
        '\u{FF61}' => "HALFWIDTH IDEOGRAPHIC FULL STOP",
        '\u{FF64}' => "HALFWIDTH IDEOGRAPHIC COMMA",
        '\u{FFFC}' => "OBJECT REPLACEMENT CHARACTER",
        _ => "",
    };
    if name.is_empty() {
        format!("U+{:04X} `{c}`", c as u32)
    } else {
        format!("U+{:04X} {name} `{c}`", c as u32)
    }
}

/// A line of words people write (letters and punctuation), not bytes pasted in: what a
/// greeting or a sign-off looks like, for the order readers that let those pass.
pub fn is_words(line: &str) -> bool {
    // Each character as a reader sees it ([`plain`]): a phone's or a mail program's
    // typographic `’` and `—` are the `'` and `-` of "Here's turn 1 - thanks" ("Here’s turn
    // 1:", "That’s all, thanks!" were errors that held the file).
    let mut chars = line.chars().filter_map(plain);
    line.chars().any(char::is_alphabetic)
        && chars.all(|c| {
            !c.is_control()
                && c != '\u{FFFD}'
                && (c.is_alphanumeric() || c.is_whitespace() || ",.!?'\"-:;()".contains(c))
        })
}

/// `1 error`, `2 errors`: a count and its noun, in the plural when it needs one.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if let Some(stem) = noun.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'o', 'u'])
    {
        format!("{n} {stem}ies")
    } else {
        format!("{n} {noun}s")
    }
}

/// `red`, `red and yellow`, `red, yellow and green`: words as a sentence lists them.
pub fn list(items: &[String]) -> String {
    match items {
        [] => "none".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Text from mail made plain to echo: Windows line ends (CRLF, or a lone CR) become
/// plain ones, and a tab becomes a space — what each meant to an order reader already,
/// but shown raw they come out as `␍` under a diagnostic and as tabs in a report. Each
/// tab stays one byte, so what points into the text still points at the same words.
pub fn plain_layout(text: &str) -> String {
    text.replace("\r\n", "\n")
        .chars()
        .map(|c| match c {
            '\r' => '\n',
            '\t' => ' ',
            c => c,
        })
        .collect()
}

/// Text read from a file that should be UTF-8: as it is, or, when it is not, read byte
/// for byte as Windows-1252 (what a program that is not UTF-8 most likely wrote), with
/// a note saying so. Never fails: every byte means something.
pub fn decode(bytes: &[u8]) -> (String, Option<String>) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), None),
        Err(e) => {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|b| **b == b'\n')
                .count()
                + 1;
            let text: String = bytes.iter().map(|b| cp1252(*b)).collect();
            (
                text,
                Some(format!(
                    "the file is not UTF-8 (first at line {line}); it was read as Windows-1252 (Latin-1)"
                )),
            )
        }
    }
}

fn cp1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž',
        '\u{8F}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}',
        'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9F => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// Each line of `text` in lower case, as plain words (typography made plain), without a
/// trailing colon: what a game compares with the words its orders begin with.
pub fn plain_lines(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines().map(|l| {
        let w: String = l.chars().filter_map(plain).collect();
        w.trim().trim_end_matches(':').to_ascii_lowercase()
    })
}

/// Whether `text` has one of the header lines every game's orders may begin with
/// (`game …`, `player …`).
pub fn has_header_line(text: &str) -> bool {
    plain_lines(text).any(|w| w.starts_with("player ") || w.starts_with("game "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A phone's full-width punctuation reads as ASCII; what no
    /// order is written with is named; bytes that are no text are not.
    #[test]
    fn full_width_forms_are_plain_and_odd_characters_named() {
        let plain_text: String = "move D1\u{ff1a} C3\u{ff1b} Ｃ４\u{3000}x"
            .chars()
            .filter_map(plain)
            .collect();
        assert_eq!(plain_text, "move D1: C3; C4 x");
        assert_eq!(odd_characters("move D1: C3"), None);
        assert_eq!(odd_characters("déplacer D1"), None);
        let named = odd_characters("move D1 \u{2192} C3\u{3001} C4 \u{2192}").expect("named");
        assert!(
            named.contains("U+2192 RIGHTWARDS ARROW `\u{2192}`"),
            "{named}"
        );
        assert!(named.contains("U+3001 IDEOGRAPHIC COMMA"), "{named}");
        assert_eq!(named.matches("U+2192").count(), 1, "{named}");
        assert!(odd_characters("move D1 \u{2764}").is_some_and(|n| n.contains("U+2764")));
        assert_eq!(odd_characters("\u{0}\u{1}\u{fffd}PK \u{2192}"), None);
    }

    #[test]
    fn mail_layout_is_made_plain() {
        assert_eq!(
            plain_layout("turn 1\r\nmove\tD1: C3\r\rend"),
            "turn 1\nmove D1: C3\n\nend"
        );
    }

    #[test]
    fn counts_are_english() {
        assert_eq!(count(1, "error"), "1 error");
        assert_eq!(count(0, "error"), "0 errors");
        assert_eq!(count(2, "brick"), "2 bricks");
        assert_eq!(count(3, "reply"), "3 replies");
        assert_eq!(count(3, "day"), "3 days");
    }

    #[test]
    fn latin1_bytes_are_read_not_refused() {
        let (t, note) = decode(b"player red\n# caf\xe9 \x93ok\x94\n");
        assert_eq!(t, "player red\n# café “ok”\n");
        assert!(note.is_some_and(|n| n.contains("line 2")));
        assert_eq!(decode("já".as_bytes()), ("já".to_string(), None));
    }
}
