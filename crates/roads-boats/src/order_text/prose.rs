//! A mail is a letter: the greeting and the sign-off around the orders are no orders and
//! no mistakes (docs/orders.md, "A mail is a letter").

use crate::building::BuildingKind;
use crate::goods::Good;
use crate::map::Map;
use crate::order_words;
use crate::player::Colour;
use crate::transporter::Kind;

use super::lexer::{HEADING_WORDS, Token};
use super::{Parsed, reads};

/// docs/orders.md, "A mail is a letter": is a line that did
/// not read plainly no order, but a letter's greeting or sign-off? It is when it is
/// written in plain words, on each of its lines if it runs over several (letters,
/// digits, spaces and `, . ! ? ' " - : ; ( )`), names no place or piece if it holds a
/// digit ([`names_a_piece`]: "Orders for turn 5:" is prose, `2 boards at C3` is not), and
/// - its first word is no order word (of any phase or module), heading, header or
///   set-up word;
/// - nor a word people use for an order (`go`, `take`) such that, with the order word
///   in its place, the line reads as an order (`go D1: C3`; not "Take care");
/// - nor one letter away from an order word (a letter changed, added, left out, or two
///   side by side swapped) such that, corrected, the line reads (`mke 2 boards at C3`,
///   `np breed`; not "Bob" or "Will");
/// - nor a line that reads as an order with an order word put before it (`2 boards at
///   C3 from D1`, `goods from yellow`).
///
/// Every order with one word dropped, its verb misspelt by a letter or moved under
/// another phase's heading is therefore never prose (tests/roads_boats/order_words.rs proves it).
pub(super) fn is_letter_prose(toks: &[Token], written: &str, map: &Map, end: usize) -> bool {
    let Some(first) = toks.first() else {
        return false;
    };
    // A sign-off may run over lines (`Best,` then `Cy`: the comma continues the line):
    // each line of it is words.
    let words = written
        .lines()
        .all(|l| l.trim().is_empty() || judge_core::text::is_words(l));
    // A digit is no order by itself ("Orders for turn 5:", "Sent from my iPhone 15"):
    // a line with one is prose only if it names no place or piece.
    if !words || (written.chars().any(|c| c.is_ascii_digit()) && names_a_piece(written)) {
        return false;
    }
    let w = first
        .text
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
        .to_ascii_lowercase();
    let w = order_words::canonical(&w);
    let verbs = order_words::all_verbs();
    if verbs.contains(&w.as_str())
        || HEADING_WORDS.contains(&w.as_str())
        || order_words::before_turn_one().contains(&w.as_str())
    {
        return false;
    }
    let mut trial: Vec<Token> = toks.to_vec();
    let with_first = |trial: &mut Vec<Token>, word: &str| {
        if let Some(t) = trial.first_mut() {
            t.text = word.to_string();
        }
        reads(trial, map, end)
    };
    if let Some((_, meant)) = order_words::SYNONYMS.iter().find(|(s, _)| *s == w)
        && with_first(&mut trial, meant)
    {
        return false;
    }
    for v in &verbs {
        if strsim::osa_distance(&w, v) == 1 && with_first(&mut trial, v) {
            return false;
        }
    }
    trial = toks.to_vec();
    trial.insert(0, first.clone());
    !verbs.iter().any(|v| with_first(&mut trial, v))
}

/// Does a line holding a digit name a place or a piece, as an order does (docs/orders.md,
/// "A mail is a letter")? It does when one of its words (stripped of the punctuation
/// around it)
/// - holds a digit and is no plain number: not digits alone (`5`, `2027`), with `.`,
///   `:` or `,` between them (`10:30`, `1.5`), or an ordinal (`3rd`, `12th`) — so a hex
///   (`C3`), area, border, transporter (`D1`), mixture or counted good (`2Bd`) is one;
/// - or is a good (`boards`, `stone`, `st`), a building (`sawmill`, `mine`), a kind of
///   transporter (`donkey`, `rafts`) or a player colour (`yellow`), in any spelling the
///   reader takes.
///
/// A greeting or sign-off with a number ("Hi all, here are my turn 12 orders") names
/// none; every order with a number in it names one, or is caught by the other tests of
/// [`is_letter_prose`] (`move order 1, 2`: its verb).
fn names_a_piece(written: &str) -> bool {
    written.split_whitespace().any(|word| {
        let w = word.trim_matches(|c: char| ",.!?'\"-:;()".contains(c));
        if w.chars().any(|c| c.is_ascii_digit()) {
            let lower = w.to_ascii_lowercase();
            let ordinal = ["st", "nd", "rd", "th"].iter().any(|s| {
                lower
                    .strip_suffix(s)
                    .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
            });
            let number = w.chars().all(|c| c.is_ascii_digit() || ".:,".contains(c));
            !(number || ordinal)
        } else {
            !w.is_empty()
                && (w.parse::<Good>().is_ok()
                    || w.parse::<BuildingKind>().is_ok()
                    || w.parse::<Kind>().is_ok()
                    || w.parse::<Colour>().is_ok())
        }
    })
}

/// A mail is a letter: "Hi judge," before the orders and "Thanks! / Ann" after them are
/// not orders and not mistakes. Lines whose first word is no order word (nor close to
/// one) are left out without a problem when they stand before the first phase heading or
/// after the last order; anywhere else they are reported as before.
pub(super) fn letter_prose(
    parsed: &mut Parsed,
    prose: &[(usize, bool, u32)],
    first_heading: Option<u32>,
    last_order: Option<u32>,
) {
    let drop: Vec<usize> = prose
        .iter()
        .filter(|(_, is_prose, line)| {
            *is_prose
                && (first_heading.is_none_or(|h| *line < h) || last_order.is_none_or(|l| *line > l))
        })
        .map(|(i, _, _)| *i)
        .collect();
    let mut i = 0;
    parsed.problems.retain(|_| {
        let keep = !drop.contains(&i);
        i += 1;
        keep
    });
}
