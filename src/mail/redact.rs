//! Keeping secrets out of everything the judge writes. Only salted hashes of the players'
//! secrets are stored, so a secret is found by what the mail itself says: the rest of
//! any line that starts with `secret` (after the clean-up the order reader does, and
//! after quote marks), and any word shaped like the secrets `judge secret` makes. Each
//! value found is then blanked wherever it stands in the decoded text — quoted, folded
//! over two lines, with invisible characters or typographic dashes inside — before
//! anything is kept, logged, answered or committed.

use std::collections::BTreeSet;

use crate::text::plain;

/// What a blanked secret becomes.
pub const BLANK: &str = "[secret]";
/// Shorter values are blanked only on their `secret` line, not everywhere (blanking
/// every "ab" would blank half the mail).
const SHORTEST: usize = 4;

/// Where the value of a `secret` line stands in it (`secret abc`, `Secret: abc`,
/// `> secret = abc # mine`), seen as the order reader sees the line: invisible
/// characters dropped, quote marks (`> > `) taken off.
fn secret_value_span(line: &str) -> Option<std::ops::Range<usize>> {
    // The characters that count, with where each stands in the line.
    let chars: Vec<(char, usize, usize)> = line
        .char_indices()
        .filter_map(|(i, c)| plain(c).map(|p| (p, i, i + c.len_utf8())))
        .collect();
    let mut k = chars
        .iter()
        .position(|(c, ..)| !(c.is_whitespace() || *c == '>'))?;
    let word: String = chars.get(k..k + 6)?.iter().map(|(c, ..)| *c).collect();
    if !word.eq_ignore_ascii_case("secret")
        || chars.get(k + 6).is_some_and(|(c, ..)| c.is_alphanumeric())
    {
        return None;
    }
    k += 6;
    while chars
        .get(k)
        .is_some_and(|(c, ..)| c.is_whitespace() || *c == ':' || *c == '=')
    {
        k += 1;
    }
    let end = chars[k..]
        .iter()
        .position(|(c, ..)| *c == '#' || *c == '\n' || *c == '\r')
        .map_or(chars.len(), |e| k + e);
    let last = chars[k..end]
        .iter()
        .rposition(|(c, ..)| !c.is_whitespace())?;
    Some(chars[k].1..chars[k + last].2)
}

/// The value of a `secret` line, if the line is one, as the order reader reads it.
pub fn secret_line_value(line: &str) -> Option<String> {
    secret_value_span(line).map(|r| line[r].chars().filter_map(plain).collect())
}

/// A word shaped like a generated secret: three groups of four letters and digits.
fn secret_shaped(word: &str) -> bool {
    let groups: Vec<&str> = word.split('-').collect();
    groups.len() == 3
        && groups
            .iter()
            .all(|g| g.len() == 4 && g.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// Every value in these texts that may be a secret.
pub fn candidates<'a>(texts: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for text in texts {
        for line in text.lines() {
            if let Some(v) = secret_line_value(line)
                && !v.is_empty()
            {
                found.insert(v.clone());
                found.extend(
                    v.split_whitespace()
                        .filter(|w| w.chars().count() >= SHORTEST)
                        .map(str::to_string),
                );
            }
            let cleaned: String = line.chars().filter_map(plain).collect();
            for word in cleaned.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
                if secret_shaped(word) {
                    found.insert(word.to_string());
                }
            }
        }
    }
    found
}

/// `text` with every value blanked wherever it stands, and the rest of every `secret`
/// line blanked whatever it says.
pub fn blank(text: &str, values: &BTreeSet<String>) -> String {
    // Each character that counts, lower-cased, with where it stands in `text`: invisible
    // characters, white space and quote marks at the start of a line do not count, so a
    // value folded over two lines or quoted is still found.
    let mut sig: Vec<(char, usize, usize)> = Vec::with_capacity(text.len());
    let mut line_start = true;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            line_start = true;
            continue;
        }
        let Some(p) = plain(c) else { continue };
        if p.is_whitespace() || (line_start && p == '>') {
            continue;
        }
        line_start = false;
        for l in p.to_lowercase() {
            sig.push((l, i, i + c.len_utf8()));
        }
    }
    let mut cut: Vec<(usize, usize)> = Vec::new();
    for v in values {
        let needle: Vec<char> = v
            .chars()
            .filter_map(plain)
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        if needle.len() < SHORTEST {
            continue;
        }
        let mut i = 0;
        while i + needle.len() <= sig.len() {
            if sig[i].0 == needle[0]
                && sig[i..i + needle.len()]
                    .iter()
                    .zip(&needle)
                    .all(|(s, n)| s.0 == *n)
            {
                cut.push((sig[i].1, sig[i + needle.len() - 1].2));
                i += needle.len();
            } else {
                i += 1;
            }
        }
    }
    // Whatever a `secret` line says is blanked too, short or not.
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if let Some(r) = secret_value_span(line) {
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

    #[test]
    fn short_values_are_blanked_on_their_line_only() {
        let out = blanked("secret ab\nload ab");
        assert_eq!(out, "secret [secret]\nload ab");
    }
}
