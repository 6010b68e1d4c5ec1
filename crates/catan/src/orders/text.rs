//! Reading mail text: quoted replies, signatures, comments, odd spaces and dashes that
//! mail clients add, and words with their place in the file (for diagnostics).

use std::ops::Range;

/// One line of a file, cleaned, with the original byte offset of every cleaned byte.
#[derive(Clone, Debug)]
pub struct CleanLine {
    pub number: u32,
    /// Byte range of the whole original line.
    pub span: Range<usize>,
    /// The line for reading: lower case, typographic characters made plain.
    pub text: String,
    /// The line as the player wrote it, for showing back: its case kept, the same
    /// characters made plain, spaces collapsed.
    pub written: String,
    map: Vec<usize>,
    /// The original byte just after each cleaned byte's character.
    map_end: Vec<usize>,
}

impl CleanLine {
    /// Original byte range of a range of the cleaned text.
    pub fn original(&self, r: Range<usize>) -> Range<usize> {
        let start = self.map.get(r.start).copied().unwrap_or(self.span.end);
        let end = if r.end == 0 {
            start
        } else {
            self.map_end
                .get(r.end - 1)
                .copied()
                .unwrap_or(self.span.end)
                .max(start)
        };
        start..end.min(self.span.end).max(start)
    }

    /// This line and the one below it read as one (a long order a
    /// mail program wrapped in two).
    pub fn joined(&self, below: &CleanLine) -> CleanLine {
        let mut text = format!("{} ", self.text);
        let mut map = self.map.clone();
        let mut map_end = self.map_end.clone();
        map.push(self.span.end);
        map_end.push(self.span.end);
        text.push_str(&below.text);
        map.extend(&below.map);
        map_end.extend(&below.map_end);
        CleanLine {
            number: self.number,
            span: self.span.start..below.span.end,
            text,
            written: format!("{} {}", self.written, below.written),
            map,
            map_end,
        }
    }

    /// The words of the line: runs of letters, digits and `-`, `/`, `'`, and each `,`,
    /// `:` and `;` on its own. Ranges are in the original file.
    pub fn words(&self) -> Vec<(String, Range<usize>)> {
        let mut out = Vec::new();
        let b = self.text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c == b' ' {
                i += 1;
            } else if matches!(c, b',' | b':' | b';') {
                out.push(((c as char).to_string(), self.original(i..i + 1)));
                i += 1;
            } else {
                let start = i;
                while i < b.len() && !matches!(b[i], b' ' | b',' | b':' | b';') {
                    i += 1;
                }
                let mut w = self.text[start..i].to_string();
                let mut end = i;
                while w.ends_with('.') && w.len() > 1 {
                    w.pop();
                    end -= 1;
                }
                out.push((w, self.original(start..end)));
            }
        }
        out
    }
}

/// Splits a file into cleaned lines, leaving out blank lines, comments, quoted text and
/// everything after a signature line.
pub fn lines(source: &str) -> Vec<CleanLine> {
    let mut out = Vec::new();
    let mut offset = 0;
    // What a mail program added or quoted is left out (judge-core knows it: quotes,
    // attributions, reply separators, signatures, PGP armour).
    let own = judge_core::mail::letter::read(source);
    for (i, whole) in source.split('\n').enumerate() {
        let line_start = offset;
        offset += whole.len() + 1;
        let Some(Some(at)) = own.get(i) else {
            continue;
        };
        let start = line_start + at.start;
        let line = whole.get(at.clone()).unwrap_or("");
        let mut text = String::new();
        let mut written = String::new();
        let mut map = Vec::new();
        let mut map_end = Vec::new();
        for (j, ch) in line.char_indices() {
            let at = start + j;
            if ch == '#' {
                break;
            }
            let rep: Option<char> = match ch {
                '\r' | '\u{ad}' | '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{feff}' => None,
                '\t' | '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{3000}' => Some(' '),
                '\u{2010}'..='\u{2015}' | '\u{2212}' => Some('-'),
                '\u{2018}' | '\u{2019}' => Some('\''),
                '\u{201c}' | '\u{201d}' => Some('"'),
                c if c.is_control() => Some(' '),
                c => judge_core::text::plain(c),
            };
            if let Some(c) = rep {
                written.push(c);
                let c = c.to_ascii_lowercase();
                let mut buf = [0u8; 4];
                for _ in c.encode_utf8(&mut buf).bytes() {
                    map.push(at);
                    map_end.push(at + ch.len_utf8());
                }
                text.push(c);
            }
        }
        // Trim, keeping the map in step.
        let lead_ws = text.len() - text.trim_start().len();
        let kept = text.trim().len();
        if kept == 0 {
            continue;
        }
        let text = text[lead_ws..lead_ws + kept].to_string();
        let map = map[lead_ws..lead_ws + kept].to_vec();
        let map_end = map_end[lead_ws..lead_ws + kept].to_vec();
        let written = written.split_whitespace().collect::<Vec<_>>().join(" ");
        out.push(CleanLine {
            number: i as u32 + 1,
            span: start..start + line.len(),
            text,
            written,
            map,
            map_end,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mail_clutter_is_read_as_plain_text() {
        let src =
            "Build  Road 12\u{2013}13 # a comment\r\n> quoted\n\n\u{a0}city 5\n-- \nsig line\n";
        let l = lines(src);
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].text, "build  road 12-13");
        // Shown back as written: its case kept, spaces collapsed ("if i can"
        // in lower case).
        assert_eq!(l[0].written, "Build Road 12-13");
        assert_eq!(l[0].number, 1);
        assert_eq!(l[1].text, "city 5");
        assert_eq!(l[1].number, 4);
        let w = l[0].words();
        assert_eq!(w[2].0, "12-13");
        assert_eq!(&src[w[2].1.clone()], "12\u{2013}13");
    }
}
