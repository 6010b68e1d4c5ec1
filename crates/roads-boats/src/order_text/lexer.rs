//! A file's lines and words: mail quoting and signatures left out, comments stripped,
//! continued and wrapped lines joined, each line cut into tokens.

use std::ops::Range;

/// Mail clients turn quotes and dashes typographic, and sprinkle invisible spaces:
/// judge-core's one list of them.
use judge_core::text::plain;

use crate::map::Map;

use super::reads;

#[derive(Clone, Debug)]
pub(crate) struct Token {
    /// The word, with typographic quotes and dashes made plain.
    pub(crate) text: String,
    pub(crate) span: Range<usize>,
}

/// The words of a line (`,`, `;` and `:` are words of their own), with their spans.
fn tokens(line: &str, offset: usize) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, c) in line.char_indices() {
        let width = c.len_utf8();
        let Some(c) = plain(c) else { continue };
        let punct = matches!(c, ',' | ';' | ':');
        if c.is_whitespace() || punct {
            if let Some((s, text)) = current.take() {
                out.push(Token {
                    text,
                    span: offset + s..offset + i,
                });
            }
            if punct {
                out.push(Token {
                    text: c.to_string(),
                    span: offset + i..offset + i + width,
                });
            }
        } else {
            current.get_or_insert_with(|| (i, String::new())).1.push(c);
        }
    }
    if let Some((s, text)) = current {
        out.push(Token {
            text,
            span: offset + s..offset + line.len(),
        });
    }
    out
}

/// One order as written: its first line's number and its tokens, which may run over
/// several lines (a line ending with `;`, `,` or `\\` continues on the next).
pub(super) struct Logical {
    pub(super) line: u32,
    pub(super) toks: Vec<Token>,
    pub(super) end: usize,
}

/// The logical lines of a file: quoted lines (`> `) and everything after a signature
/// line (`-- `) left out, comments (`#`) stripped, continued lines joined.
pub(super) fn logical_lines(text: &str) -> Vec<Logical> {
    let mut out: Vec<Logical> = Vec::new();
    let mut continuing = false;
    let mut offset = 0;
    // What a mail program added or quoted is left out (judge-core knows it: quotes,
    // attributions, reply separators, signatures, PGP armour).
    let own = judge_core::mail::letter::read(text);
    for (n, raw) in text.split_inclusive('\n').enumerate() {
        let line_start = offset;
        offset += raw.len();
        let Some(Some(at)) = own.get(n) else {
            continue;
        };
        let start = line_start + at.start;
        let line = raw
            .get(at.clone())
            .unwrap_or("")
            .trim_end_matches(['\n', '\r']);
        let code = line.split('#').next().unwrap_or("");
        let mut toks = tokens(code, start);
        if toks.is_empty() {
            continue;
        }
        let mut more = false;
        if let Some(last) = toks.last_mut() {
            if last.text == "\\" {
                toks.pop();
                more = true;
            } else if let Some(stripped) = last.text.strip_suffix('\\') {
                last.text = stripped.to_string();
                last.span.end -= 1;
                more = true;
            } else if last.text == ";" || last.text == "," {
                more = true;
            }
        }
        let end = start + code.trim_end().len();
        if toks.is_empty() {
            // A line holding only a continuation mark.
            continuing = true;
            continue;
        }
        // A heading or header line always starts afresh, even after a line ending in a
        // comma ("Hi judge," above `game demo`).
        let starts_afresh = toks.first().is_some_and(|t| {
            let w = t.text.to_ascii_lowercase();
            matches!(
                w.trim_matches(|c| c == '[' || c == ']' || c == '=' || c == ':'),
                "production"
                    | "movement"
                    | "building"
                    | "wonder"
                    | "setup"
                    | "game"
                    | "player"
                    | "turn"
                    | "secret"
                    | "standing"
                    | "pass"
            )
        });
        match out.last_mut() {
            Some(prev) if continuing && !starts_afresh => {
                prev.toks.extend(toks);
                prev.end = end;
            }
            _ => out.push(Logical {
                line: n as u32 + 1,
                toks,
                end,
            }),
        }
        continuing = more;
    }
    out
}

/// A mail program that wraps long lines (Gmail's plain-text mode at
/// 78 columns, Outlook at 76) breaks a long order in two, and the tail (`on D8`) alone
/// reads as no order, or as a sign-off after the last order. A line directly below an
/// order (no blank line between), which makes with the line above it one order that
/// reads, while the two do not both read by themselves, is that order's tail: the two
/// are read as one. A tail that does not read with the order either stays a line of its
/// own (an error, or, in plain words after the last order, a sign-off).
pub(super) fn join_wrapped(text: &str, lines: Vec<Logical>, map: &Map) -> Vec<Logical> {
    // A mail program breaks a long order into a few lines, never hundreds: an order is
    // joined from at most this many, so that a file of 20,000 continuation lines costs
    // linear time, not one ever longer reading per line (342 s in a debug build).
    const MOST_LINES: usize = 6;
    let mut out: Vec<Logical> = Vec::with_capacity(lines.len());
    let mut joined_lines = 1;
    for next in lines {
        if joined_lines < MOST_LINES
            && let Some(prev) = out.last_mut()
            && let Some(first) = prev.toks.first()
            && text
                .get(prev.end..next.toks.first().map_or(prev.end, |t| t.span.start))
                .is_some_and(|gap| gap.matches('\n').count() == 1 && gap.trim().is_empty())
            && !starts_afresh(&next.toks)
            && !starts_afresh(&prev.toks)
            && !judge_core::pbem::directives::is_directive(&text[first.span.start..prev.end])
            && !(reads(&next.toks, map, next.end) && reads(&prev.toks, map, prev.end))
        {
            let mut joined = prev.toks.clone();
            joined.extend(next.toks.iter().cloned());
            if reads(&joined, map, next.end) {
                prev.toks = joined;
                prev.end = next.end;
                joined_lines += 1;
                continue;
            }
        }
        joined_lines = 1;
        out.push(next);
    }
    out
}

/// A heading or header line, which always starts afresh.
fn starts_afresh(toks: &[Token]) -> bool {
    toks.first().is_some_and(|t| {
        let w = t.text.to_ascii_lowercase();
        HEADING_WORDS.contains(&w.trim_matches(|c| c == '[' || c == ']' || c == '=' || c == ':'))
    })
}

/// The words a heading or header line starts with.
pub(super) const HEADING_WORDS: &[&str] = &[
    "production",
    "movement",
    "building",
    "wonder",
    "setup",
    "game",
    "player",
    "turn",
    "secret",
    "standing",
];
