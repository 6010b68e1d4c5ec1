//! The order language: what players write, read into [`PlayerOrders`]. See
//! `docs/orders.md`. Lines are case-insensitive; `#` starts a comment; a line with only a
//! phase name (`production`, `movement`, `building`, `wonder`) starts that phase's orders.
//!
//! One idea to a file: `lexer` (a file's lines and words), `header`
//! (the lines that say whose orders they are), `prose` (a letter's greeting and
//! sign-off), `reader` (the words an order is made of) and one grammar per phase
//! (`production`, `movement`, `building`, `wonder`). This file reads a whole file with
//! them.

mod building;
mod header;
mod lexer;
mod movement;
mod production;
mod prose;
mod reader;
mod wonder;

use std::ops::Range;

use judge_core::diagnostic::{Diagnostic, did_you_mean};

pub use header::{Header, HeaderMismatch};
use lexer::{Token, join_wrapped, logical_lines};
use prose::{is_letter_prose, letter_prose};
pub(crate) use reader::{R, Reader};

use crate::map::{AreaId, Map};
use crate::order_words;
use crate::orders::{Numbered, PlayerOrders};
use crate::player::Colour;
use crate::state::Phase;
use crate::transporter::TransporterId;

/// What the caller knows about the file: whose it is (from a mail's sender, say) and
/// which game it is for.
#[derive(Clone, Debug, Default)]
pub struct Expect<'a> {
    pub player: Option<Colour>,
    pub game: Option<&'a str>,
}

/// A transporter named in an order, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ref {
    pub line: u32,
    pub id: TransporterId,
    pub span: Range<usize>,
    /// Must it be the player's own (not the other side of a `give`)?
    pub own: bool,
}

/// A `home C4` line: a player's choice of starting place in the set-up round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HomeLine {
    pub area: AreaId,
    pub line: u32,
    /// The span of the area as written.
    pub span: Range<usize>,
}

/// A `bid 15 on lot 2` line: a player's bid in a jumpstart auction, before turn 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BidLine {
    /// The lot, 1-based.
    pub lot: usize,
    pub price: u32,
    pub line: u32,
    pub span: Range<usize>,
}

/// What a file of orders says, and every problem found reading it. Lines with problems
/// are left out; the others are kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub header: Header,
    pub orders: PlayerOrders,
    /// The home chosen, in a set-up mail (before any phase heading, or after `setup`).
    pub home: Option<HomeLine>,
    /// A jumpstart bid (`bid 15 on lot 2`), sent alone in the auction before turn 1.
    pub bid: Option<BidLine>,
    pub problems: Vec<Diagnostic>,
    pub refs: Vec<Ref>,
    /// Each order's line, with the span of its text (for pointing at a whole order).
    pub lines: Vec<(u32, Range<usize>)>,
    /// Lines with no phase heading above them, read in the one phase their order word
    /// belongs to (`build …` is a building order).
    pub inferred: Vec<(u32, Phase)>,
    /// A line `pass`: no orders this turn, on purpose (its line and span).
    pub pass: Option<(u32, Range<usize>)>,
}

/// What an order word says of its phase when no heading stands above it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Implied {
    /// A heading stands above it: the heading says.
    Heading,
    /// The word belongs to this phase alone.
    One(Phase),
    /// The word is an order of several phases.
    Several(Vec<&'static str>),
    /// No phase knows the word.
    None,
}

/// The phase an order word names by itself: `build` is a building order, `move` a
/// movement order (`move order` a wonder one); `load`, `give`, `accept`, `offer` … are
/// orders of more than one phase, so they need a heading. The phases come from the one
/// list of order words ([`order_words`]).
fn implied_phase(word: &str, next: Option<&str>) -> Implied {
    let found = order_words::phases_of(word, next);
    match found.as_slice() {
        [] => Implied::None,
        [p] => Implied::One(*p),
        several => Implied::Several(several.iter().map(|p| heading_of(*p)).collect()),
    }
}

/// The heading of a phase's orders.
fn heading_of(p: Phase) -> &'static str {
    match p {
        Phase::Production => "production",
        Phase::Movement => "movement",
        Phase::Building => "building",
        Phase::Wonder => "wonder",
    }
}

/// Read a file of orders against a map (to know areas and sea tiles).
pub fn parse(text: &str, map: &Map) -> Parsed {
    let mut parsed = Parsed::default();
    let mut phase: Option<Phase> = None;
    // Lines that are not orders at all (a greeting, a sign-off), by their problem, and
    // where the orders proper start and end: see `letter_prose`.
    let mut prose: Vec<(usize, bool, u32)> = Vec::new();
    let mut first_heading: Option<u32> = None;
    let mut last_order: Option<u32> = None;
    for logical in join_wrapped(text, logical_lines(text), map) {
        let toks = &logical.toks;
        let line_no = logical.line;
        let mut r = Reader {
            toks,
            pos: 0,
            map,
            end: logical.end,
            refs: Vec::new(),
            line: line_no,
        };
        let Some(first_tok) = toks.first() else {
            continue;
        };
        let first = first_tok.text.to_ascii_lowercase();
        let heading = first.trim_matches(|c| c == '[' || c == ']' || c == '=');
        if toks.len() <= 2 && toks.get(1).is_none_or(|t| t.text == ":") {
            if heading == "setup" || heading == "set-up" {
                phase = None;
                continue;
            }
            let p = match heading {
                "production" => Some(Phase::Production),
                "movement" => Some(Phase::Movement),
                "building" => Some(Phase::Building),
                "wonder" => Some(Phase::Wonder),
                _ => None,
            };
            if p.is_some() {
                phase = p;
                first_heading.get_or_insert(line_no);
                continue;
            }
            // A misspelt heading: say so, and read on as the phase it surely means.
            let phases = ["production", "movement", "building", "wonder"];
            if !matches!(
                heading,
                "game" | "player" | "turn" | "secret" | "standing" | "home"
            ) && let Some(meant) = did_you_mean(heading, phases)
            {
                parsed.problems.push(
                    Diagnostic::new(format!("`{}` is not a phase heading", first_tok.text))
                        .at(first_tok.span.clone())
                        .help(format!(
                            "did you mean `{meant}`? The orders below are read as {meant} orders"
                        )),
                );
                phase = match meant {
                    "production" => Some(Phase::Production),
                    "movement" => Some(Phase::Movement),
                    "building" => Some(Phase::Building),
                    _ => Some(Phase::Wonder),
                };
                first_heading.get_or_insert(line_no);
                continue;
            }
        }
        // The judge's own lines (`as is`, `mail my turns`): for the pipeline, not orders.
        if judge_core::pbem::directives::is_directive(&text[first_tok.span.start..logical.end]) {
            continue;
        }
        let whole = first_tok.span.start..logical.end.max(first_tok.span.end);
        // No heading yet: an order word of one phase only says its phase.
        let implied = match phase {
            None => implied_phase(&first, toks.get(1).map(|t| t.text.as_str())),
            Some(_) => Implied::Heading,
        };
        let here = match implied {
            Implied::One(p) => {
                parsed.inferred.push((line_no, p));
                Some(p)
            }
            _ => phase,
        };
        let result = match (first.as_str(), here) {
            ("game", _) => r.rest_text().map(|t| {
                parsed.header.game = Some(t);
                parsed.header.game_at = Some(whole.clone());
            }),
            ("player", _) => {
                parsed.header.player_written = true;
                r.next();
                let at = r.here();
                r.colour().map(|c| {
                    parsed.header.player = Some(c);
                    parsed.header.player_at = Some(at);
                })
            }
            ("turn", _) => {
                r.next();
                let at = r.here();
                r.number().map(|t| {
                    parsed.header.turn = Some(t);
                    parsed.header.turn_at = Some(at);
                })
            }
            ("secret", _) => r.rest_text().map(|t| parsed.header.secret = Some(t)),
            ("standing", _) => {
                r.next();
                let on = if r.eat("off") {
                    false
                } else {
                    r.eat("on");
                    true
                };
                parsed.header.standing = Some(on);
                Ok(())
            }
            // `pass` (or `pass this turn`, a full stop after either): no orders this
            // turn, on purpose.
            ("pass" | "pass." | "pass!", _) => {
                let rest: Vec<String> = toks[1..]
                    .iter()
                    .map(|t| t.text.to_ascii_lowercase())
                    .filter(|w| !matches!(w.as_str(), "." | "!"))
                    .map(|w| w.trim_end_matches(['.', '!']).to_string())
                    .collect();
                if rest.is_empty() || rest == ["this", "turn"] {
                    r.pos = toks.len();
                    parsed.pass = Some((line_no, whole.clone()));
                    Ok(())
                } else {
                    r.next();
                    Err(Diagnostic::new("`pass` stands alone on its line: no orders this turn")
                        .at(r.here())
                        .help("write `pass`, or `pass this turn`"))
                }
            }
            ("home", None) => {
                r.next();
                r.eat("at");
                let at = r.here();
                r.area().and_then(|area| {
                    if parsed.home.is_some() {
                        return Err(Diagnostic::new("a second `home` line: choose one home")
                            .at(whole.clone()));
                    }
                    parsed.home = Some(HomeLine {
                        area,
                        line: line_no,
                        span: at,
                    });
                    Ok(())
                })
            }
            ("bid", None) => {
                r.next();
                let at = whole.clone();
                r.number().and_then(|price| {
                    if !(r.eat("on") || r.eat("for")) {
                        return Err(r.missing("`on` and the lot, like `bid 15 on lot 2`"));
                    }
                    r.eat("lot");
                    let lot = r.number()? as usize;
                    if parsed.bid.is_some() {
                        return Err(Diagnostic::new("a second `bid` line: bid once a turn")
                            .at(whole.clone()));
                    }
                    parsed.bid = Some(BidLine {
                        lot,
                        price,
                        line: line_no,
                        span: at,
                    });
                    Ok(())
                })
            }
            ("bid", Some(_)) => Err(Diagnostic::new(
                "`bid` belongs to the jumpstart auction, before turn 1, not among a phase's orders",
            )
            .at(first_tok.span.clone())
            .help("send it alone, with the header, when the judge asks for your bid")),
            ("home", Some(_)) => Err(Diagnostic::new(
                "`home` is chosen in the set-up round, before turn 1, not among a phase's orders",
            )
            .at(first_tok.span.clone())
            .help("send it alone, with the header, when the judge asks for your starting place")),
            (_, None) => Err(match implied {
                Implied::Several(phases) => Diagnostic::new(format!(
                    "`{}` is an order of the {} phases: write the heading of the one you mean above it",
                    first_tok.text,
                    phases.join(" and ")
                ))
                .at(first_tok.span.clone())
                .help(format!("a line `{}` above it, for example", phases[0])),
                _ => Diagnostic::new(format!("`{}` is not an order I know before a phase heading", first_tok.text))
                    .at(first_tok.span.clone())
                    .help("start each phase's orders with a line `production`, `movement`, `building` or `wonder`"),
            }),
            (_, Some(Phase::Production)) => r.production().map(|o| parsed.orders.production.push(Numbered { line: line_no, order: o })),
            (_, Some(Phase::Movement)) => r.movement().map(|o| parsed.orders.movement.push(Numbered { line: line_no, order: o })),
            (_, Some(Phase::Building)) => r.building().map(|o| parsed.orders.building.push(Numbered { line: line_no, order: o })),
            (_, Some(Phase::Wonder)) => r.wonder().map(|o| parsed.orders.wonder.push(Numbered { line: line_no, order: o })),
        };
        match result.and_then(|()| r.finished()) {
            Ok(()) => {
                if here.is_some()
                    && !matches!(
                        first.as_str(),
                        "game"
                            | "player"
                            | "turn"
                            | "secret"
                            | "standing"
                            | "home"
                            | "bid"
                            | "pass"
                            | "pass."
                            | "pass!"
                    )
                {
                    parsed.lines.push((line_no, whole));
                    parsed.refs.extend(r.refs);
                    last_order = Some(line_no);
                }
            }
            Err(d) => {
                let is_prose = is_letter_prose(toks, &text[whole.clone()], map, logical.end);
                // An odd character is named.
                let d = match judge_core::text::odd_characters(&text[whole.clone()]) {
                    Some(odd) if !is_prose => d.more_help(odd),
                    _ => d,
                };
                if !is_prose && here.is_some() {
                    last_order = Some(line_no);
                }
                prose.push((parsed.problems.len(), is_prose, line_no));
                parsed.problems.push(d);
            }
        }
    }
    letter_prose(&mut parsed, &prose, first_heading, last_order);
    parsed
}

/// Would these tokens read as an order of a phase its first word belongs to?
fn reads(toks: &[Token], map: &Map, end: usize) -> bool {
    let Some(first) = toks.first() else {
        return false;
    };
    order_words::phases_of(&first.text, toks.get(1).map(|t| t.text.as_str()))
        .into_iter()
        .any(|p| {
            let mut r = Reader {
                toks,
                pos: 0,
                map,
                end,
                refs: Vec::new(),
                line: 0,
            };
            let read = match p {
                Phase::Production => r.production().is_ok(),
                Phase::Movement => r.movement().is_ok(),
                Phase::Building => r.building().is_ok(),
                Phase::Wonder => r.wonder().is_ok(),
            };
            read && r.finished().is_ok()
        })
}

#[cfg(test)]
mod tests;
