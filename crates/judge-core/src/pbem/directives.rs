//! Lines of an order mail that speak to the judge itself, the same in every game
//! (each game's orders doc, "Lines for the judge"):
//!
//! ```text
//! as is                   play this file as it is, errors and all: do not wait for a
//!                         corrected one
//! mail every step         send me every report (a game played one player at a time)
//! mail my turns           send me a report when my orders are wanted, with what
//!                         happened since my last one (the default)
//! mail picture            attach the map picture to my reports (the default)
//! mail no picture         do not attach it
//! ```
//!
//! Each game's order reader passes over these lines ([`is_directive`]); the pipeline
//! reads them ([`read`]).

use crate::text::plain;

/// Which reports a player wants mailed in a game played one player at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reports {
    /// Every step's report.
    Every,
    /// A report when their orders are wanted (and at the end), telling what happened
    /// since the last one they were sent.
    MyTurns,
}

/// What a file's directive lines say; `None`: the line is not there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Directives {
    pub as_is: bool,
    pub reports: Option<Reports>,
    pub picture: Option<bool>,
}

/// A line's words, cleaned as order readers clean them: typographic characters made
/// plain, lower case, a trailing `.` or `:` dropped.
fn words(line: &str) -> Vec<String> {
    let clean: String = line.chars().filter_map(plain).collect();
    clean
        .split_whitespace()
        .map(|w| {
            w.trim_end_matches(['.', ':', ','])
                .to_ascii_lowercase()
                .to_string()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

fn directive(words: &[String]) -> Option<Directives> {
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let mut d = Directives::default();
    match w[..] {
        ["as", "is"] | ["play", "as", "is"] => d.as_is = true,
        ["mail", "every", "step"] | ["mail", "all", "steps"] | ["mail", "every", "report"] => {
            d.reports = Some(Reports::Every);
        }
        ["mail", "my", "turns"] | ["mail", "my", "turn"] => d.reports = Some(Reports::MyTurns),
        ["mail", "picture"] | ["mail", "with", "picture"] => d.picture = Some(true),
        ["mail", "no", "picture"] | ["mail", "without", "picture"] => d.picture = Some(false),
        _ => return None,
    }
    Some(d)
}

/// Is this line one of the judge's own (`as is`, `mail …`)? Order readers skip it.
pub fn is_directive(line: &str) -> bool {
    directive(&words(line)).is_some()
}

/// Is a line whose words (already cleaned and lower-cased by an order reader) are these
/// one of the judge's own?
pub fn is_directive_words<S: AsRef<str>>(line_words: &[S]) -> bool {
    let w: Vec<String> = line_words
        .iter()
        .map(|s| s.as_ref().trim_end_matches(['.', ':', ',']).to_string())
        .filter(|s| !s.is_empty())
        .collect();
    directive(&w).is_some()
}

/// Every directive of a file: a later line wins over an earlier one.
pub fn read(text: &str) -> Directives {
    let mut out = Directives::default();
    for line in text.lines() {
        if let Some(d) = directive(&words(line)) {
            out.as_is |= d.as_is;
            out.reports = d.reports.or(out.reports);
            out.picture = d.picture.or(out.picture);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directive_lines_are_read_in_any_case_and_punctuation() {
        let d = read("game g\nAs is.\nmail MY turns\nmail: no picture\nbuild road 1-2\n");
        assert_eq!(
            d,
            Directives {
                as_is: true,
                reports: Some(Reports::MyTurns),
                picture: Some(false),
            }
        );
        assert!(is_directive("  mail every step"));
        assert!(!is_directive("as is the road"));
        assert!(!is_directive("mail"));
        assert!(is_directive_words(&["as", "is"]));
        assert_eq!(
            read("mail every step\nmail my turns\n").reports,
            Some(Reports::MyTurns)
        );
    }
}
