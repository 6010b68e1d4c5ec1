//! Keeping secrets out of everything the judge writes. Only salted hashes of the players'
//! secrets are stored, so a secret is found by what the mail itself says: the rest of
//! any line that starts with `secret` (after the clean-up the order reader does, and
//! after quote marks), and any word shaped like the secrets `judge secret` makes. Each
//! value found is then blanked wherever it stands in the decoded text — quoted, folded
//! over two lines (comment lines too: `# abcd-ef` / `# gh-jkmn`), with invisible
//! characters or typographic dashes inside — before anything is kept, logged, answered
//! or committed. A `secret` line put in a comment (`# secret abcd-efgh-jkmn`) is blanked
//! as one, though the order reader does not read it.

use std::collections::BTreeSet;

use crate::text::plain;

/// What a blanked secret becomes.
pub const BLANK: &str = "[secret]";
/// Shorter values are blanked only on their `secret` line, not everywhere (blanking
/// every "ab" would blank half the mail).
const SHORTEST: usize = 4;

/// Where the value of a `secret` line stands in it (`secret abc`, `Secret: abc`,
/// `> secret = abc # mine`), seen as the order reader sees the line: invisible
/// characters dropped, quote marks (`> > `) taken off; with `commented`, comment marks
/// too (`# secret abc`, `> ## secret: abc`), as blanking reads a line (the order reader
/// does not: a comment is no secret line to it).
fn secret_value_span(line: &str, commented: bool) -> Option<std::ops::Range<usize>> {
    // The characters that count, with where each stands in the line: read one at a
    // time, so that a line that is no `secret` line (a 2 MB line of anything) costs no
    // memory.
    let mut chars = line
        .char_indices()
        .filter_map(|(i, c)| plain(c).map(|p| (p, i, i + c.len_utf8())))
        .skip_while(|(c, ..)| c.is_whitespace() || *c == '>' || (commented && *c == '#'))
        .peekable();
    for want in "secret".chars() {
        match chars.next() {
            Some((c, ..)) if c.eq_ignore_ascii_case(&want) => {}
            _ => return None,
        }
    }
    if chars.peek().is_some_and(|(c, ..)| c.is_alphanumeric()) {
        return None;
    }
    let mut value: Option<std::ops::Range<usize>> = None;
    let mut started = false;
    for (c, start, end) in chars {
        if c == '#' || c == '\n' || c == '\r' {
            break;
        }
        if !started && (c.is_whitespace() || c == ':' || c == '=') {
            continue;
        }
        started = true;
        if !c.is_whitespace() {
            value = Some(value.map_or(start..end, |v| v.start..end));
        }
    }
    value
}

/// The value of a `secret` line, if the line is one, as the order reader reads it.
pub fn secret_line_value(line: &str) -> Option<String> {
    secret_value_span(line, false).map(|r| line[r].chars().filter_map(plain).collect())
}

/// The letters and digits `judge secret` makes secrets of ([`super::secret::generate`]).
fn secret_letter(c: char) -> bool {
    matches!(c.to_ascii_lowercase(), 'a'..='h' | 'j' | 'k' | 'm' | 'n' | 'p'..='z' | '2'..='9')
}

/// Every run of letters and digits in a text, with where it stands; what separates one
/// run from the next says whether it may join a secret (a dash, white space, a line
/// break with its quote and comment marks).
fn runs(text: &str) -> Vec<(usize, usize, Joint)> {
    let mut out: Vec<(usize, usize, Joint)> = Vec::new();
    let mut start: Option<usize> = None;
    let mut joint = Joint::Space;
    let mut between = Joint::Space;
    for (i, c) in text.char_indices() {
        let Some(p) = plain(c) else { continue };
        if p.is_ascii_alphanumeric() {
            if start.is_none() {
                start = Some(i);
                joint = between;
            }
            continue;
        }
        if let Some(s) = start.take() {
            out.push((s, i, joint));
            between = Joint::Space;
        }
        between = if p.is_whitespace() || p == '>' || p == '#' {
            between
        } else if p == '-' && between == Joint::Space {
            Joint::Dash
        } else {
            Joint::Other
        };
    }
    if let Some(s) = start {
        out.push((s, text.len(), joint));
    }
    out
}

/// What stands between a run of letters and digits and the run before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Joint {
    /// Only white space (line breaks, quote and comment marks too).
    Space,
    /// One dash, with white space around it or not.
    Dash,
    /// Anything else.
    Other,
}

/// Words shaped like a generated secret, in every form the reader accepts one
/// ([`super::secret::verify`]): three groups of four letters and digits joined by dashes
/// (`abcd-efgh-jkmn`, folded over two lines, typographic dashes, spaces around them),
/// by white space when they hold a digit (`abcd efgh jk2n`: three plain four-letter
/// words are no secret), or the twelve written together when they hold a letter and a
/// digit (`abcdefghjk2n`).
fn shaped(text: &str, found: &mut BTreeSet<String>) {
    let runs = runs(text);
    let word = |r: &(usize, usize, Joint)| &text[r.0..r.1];
    let four = |r: &(usize, usize, Joint)| {
        let w = word(r);
        w.len() == 4 && w.chars().all(secret_letter)
    };
    for (k, r) in runs.iter().enumerate() {
        let w = word(r);
        if w.len() == 12
            && w.chars().all(secret_letter)
            && w.chars().any(|c| c.is_ascii_digit())
            && w.chars().any(|c| c.is_ascii_alphabetic())
        {
            found.insert(w.to_string());
        }
        let Some(three) = runs.get(k..k + 3) else {
            continue;
        };
        if !three.iter().all(four) {
            continue;
        }
        let joints = [three[1].2, three[2].2];
        let dashed = joints.iter().all(|j| *j == Joint::Dash);
        let spaced = joints.iter().all(|j| *j == Joint::Space)
            && three
                .iter()
                .any(|r| word(r).chars().any(|c| c.is_ascii_digit()));
        if dashed || spaced {
            found.insert(
                three
                    .iter()
                    .map(|r| word(r).to_string())
                    .collect::<Vec<_>>()
                    .join("-"),
            );
        }
    }
}

/// Every value in these texts that may be a secret.
pub fn candidates<'a>(texts: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for text in texts {
        for line in text.lines() {
            if let Some(v) = secret_value_span(line, true)
                .map(|r| line[r].chars().filter_map(plain).collect::<String>())
                && !v.is_empty()
            {
                found.insert(v.clone());
                found.extend(
                    v.split_whitespace()
                        .filter(|w| w.chars().count() >= SHORTEST)
                        .map(str::to_string),
                );
            }
        }
        shaped(text, &mut found);
    }
    found
}

/// Left out when values are compared: white space, dashes (typographic ones are
/// dashes to [`plain`]), quote marks (`> ` at the start of a line, or anywhere) and
/// comment marks (`#`: a secret folded over two comment lines). No
/// value holds a `#` (a `secret` line's value ends at one).
fn left_out(c: char) -> bool {
    c.is_whitespace() || c == '-' || c == '>' || c == '#'
}

/// A value as blanking compares it: lower-cased, without what `left_out` names and
/// invisible characters.
pub fn squeezed(v: &str) -> String {
    v.chars()
        .filter_map(plain)
        .filter(|c| !left_out(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// `text` with every value blanked wherever it stands, and the rest of every `secret`
/// line (commented out or not) blanked whatever it says. A value is found without its
/// white space, dashes, quote and comment marks, so it is found however it is written:
/// in capitals, folded over two or more lines (comment lines too), quoted, with spaces
/// or other dashes between its groups or none, with invisible characters inside.
/// One pass over the text finds every value (Aho–Corasick), however many there are.
pub fn blank(text: &str, values: &BTreeSet<String>) -> String {
    // The text as values are compared ([`squeezed`]), and where each character stands
    // in `text`.
    let mut sig = String::with_capacity(text.len());
    let mut from: Vec<(usize, usize)> = Vec::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let Some(p) = plain(c) else { continue };
        if left_out(p) {
            continue;
        }
        for l in p.to_lowercase() {
            sig.push(l);
            from.extend(std::iter::repeat_n((i, i + c.len_utf8()), l.len_utf8()));
        }
    }
    let needles: Vec<String> = values
        .iter()
        .map(|v| squeezed(v))
        .filter(|n| n.chars().count() >= SHORTEST)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut cut: Vec<(usize, usize)> = Vec::new();
    if !needles.is_empty() {
        // The contiguous NFA: the most compact automaton (130,000 values of 12
        // letters, a 2 MB mail's worth, fit in tens of megabytes).
        match aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA))
            .build(&needles)
        {
            Ok(ac) => {
                for m in ac.find_iter(&sig) {
                    cut.push((from[m.start()].0, from[m.end() - 1].1));
                }
            }
            // Values too many to search for (never within a 2 MB mail): nothing of
            // the text is kept rather than a secret.
            Err(_) => return BLANK.to_string(),
        }
    }
    // Whatever a `secret` line says is blanked too, short or not.
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if let Some(r) = secret_value_span(line, true) {
            cut.push((offset + r.start, offset + r.end));
        }
        offset += line.len();
    }
    if cut.is_empty() {
        return text.to_string();
    }
    cut.sort_unstable();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, e) in cut {
        if e <= at {
            continue;
        }
        let s = s.max(at);
        out.push_str(&text[at..s]);
        out.push_str(BLANK);
        at = e;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: &str = "abcd-efgh-jkmn";

    fn blanked(text: &str) -> String {
        blank(text, &candidates([text]))
    }

    #[test]
    fn a_secret_line_is_found_however_it_is_written() {
        for line in [
            "secret abcd-efgh-jkmn",
            "Secret: abcd-efgh-jkmn",
            "> secret abcd-efgh-jkmn",
            "> > SECRET = abcd-efgh-jkmn # mine",
            "\u{FEFF}secret abcd-efgh-jkmn",
            "\u{200B}secret abcd-efgh-jkmn",
            "se\u{00AD}cret abcd-efgh-jkmn",
            "secret\u{00A0}abcd-efgh-jkmn",
        ] {
            assert_eq!(secret_line_value(line).as_deref(), Some(S), "{line:?}");
            let out = blanked(line);
            assert!(!out.contains(S), "{line:?} -> {out:?}");
        }
        assert_eq!(secret_line_value("secretary bob"), None);
    }

    #[test]
    fn a_value_is_blanked_wherever_it_stands() {
        let values: BTreeSet<String> = [S.to_string()].into();
        for text in [
            "my secret is ABCD-EFGH-JKMN, ok?",
            "abcd-efgh-\njkmn",
            "abcd-efgh-\n> jkmn",
            "abcd\u{2013}efgh\u{2013}jkmn",
            "ab\u{200B}cd-efgh-jkmn",
        ] {
            let out = blank(text, &values);
            let flat: String = out.chars().filter(|c| c.is_alphanumeric()).collect();
            assert!(
                !flat.to_lowercase().contains("abcdefghjkmn"),
                "{text:?} -> {out:?}"
            );
            assert!(out.contains(BLANK), "{text:?} -> {out:?}");
        }
    }

    #[test]
    fn shaped_words_are_candidates_in_a_subject_too() {
        let c = candidates(["Re: orders (abcd-efgh-jkmn)"]);
        assert!(c.contains(S));
        assert!(candidates(["move D1: C3, C4"]).is_empty());
    }

    /// Every form the reader accepts as a secret is found as one, and
    /// blanked, though no `secret` line names it: folded, spaced, without dashes.
    #[test]
    fn every_form_of_a_secret_is_a_candidate_and_blanked() {
        for text in [
            "Re: abcd-efgh-jk2n",
            "abcd-efgh-\n> jk2n",
            "abcd - efgh - jk2n",
            "ABCD EFGH JK2N",
            "abcdefghjk2n",
            "<abcd-efgh-jk2n@mail.example.org>",
        ] {
            let out = blanked(text);
            assert!(
                !squeezed(&out).contains("abcdefghjk2n"),
                "{text:?} -> {out:?}"
            );
        }
        // Three plain words are not a secret, nor is one long word.
        for text in ["take wood from your port", "watercresses", "from-your-last"] {
            assert_eq!(blanked(text), text);
        }
    }

    /// Blanking is one pass over the text, however many values: a
    /// mail of 130,000 different secret-shaped words (1.9 MB) is blanked whole.
    #[test]
    fn many_values_are_blanked_in_one_pass() {
        let words: Vec<String> = (0..130_000u32)
            .map(|n| {
                let d = format!("{n:08}").replace('0', "a").replace('1', "b");
                format!("{}-{}-wxyz", &d[..4], &d[4..])
            })
            .collect();
        let text = words.join(" ");
        let values = candidates([text.as_str()]);
        assert_eq!(values.len(), 130_000);
        let out = blank(&text, &values);
        assert_eq!(out.matches(BLANK).count(), 130_000);
    }

    /// A secret folded over two or more `#` comment lines, with
    /// either line end, is blanked whole; a `secret` line in a comment is blanked as
    /// one, yet the order reader still reads no secret from a comment.
    #[test]
    fn a_secret_folded_over_comment_lines_is_blanked() {
        let values: BTreeSet<String> = [S.to_string()].into();
        for text in [
            "# mine: abcd-ef\n# gh-jkmn\n",
            "# abcd-ef\r\n#gh-jk\r\n## mn\r\n",
            "> # abcd\n> # efgh-jkmn",
            "move D1: C3 # abcdef\n# ghjkmn",
        ] {
            let out = blank(text, &values);
            assert!(
                !squeezed(&out).contains("abcdefghjkmn"),
                "{text:?} -> {out:?}"
            );
            let left: String = out
                .replace(BLANK, "")
                .chars()
                .filter(|c| "abcdefghjkmn".contains(*c))
                .collect();
            assert!(left.len() <= 4, "{text:?} -> {out:?}");
        }
        assert_eq!(
            blanked("# secret: abcdefg\nmove"),
            "# secret: [secret]\nmove"
        );
        assert!(candidates(["#  Secret abcd-ef"]).contains("abcd-ef"));
        assert_eq!(secret_line_value("# secret abcd"), None);
        // A shaped secret folded at a dash over comment lines is found with no
        // `secret` line to name it.
        let out = blanked("# abcd-efgh-\n# jk2n\n");
        assert!(!squeezed(&out).contains("jk2n"), "{out:?}");
    }

    #[test]
    fn short_values_are_blanked_on_their_line_only() {
        let out = blanked("secret ab\nload ab");
        assert_eq!(out, "secret [secret]\nload ab");
    }
}
