//! The order language: what players write, read into [`PlayerOrders`]. See
//! `docs/orders.md`. Lines are case-insensitive; `#` starts a comment; a line with only a
//! phase name (`production`, `movement`, `building`, `wonder`) starts that phase's orders.

use std::ops::Range;

use judge_core::diagnostic::{Diagnostic, did_you_mean};

use super::building::{BuildingKind, MineBag, Output};
use super::goods::{Good, Goods};
use super::map::{AreaId, Border, Coast, Dir, Hex, Map};
use super::order_words::{self, PHASES};
use super::orders::{
    BuildingOrder, Consent, FareFrom, MovementOrder, Numbered, Party, PlayerOrders,
    ProductionOrder, Step, WonderOrder,
};
use super::player::{Colour, Research};
use super::state::Phase;
use super::transporter::{Kind, Location, TransporterId};

/// What the caller knows about the file: whose it is (from a mail's sender, say) and
/// which game it is for.
#[derive(Clone, Debug, Default)]
pub struct Expect<'a> {
    pub player: Option<Colour>,
    pub game: Option<&'a str>,
}

/// The header lines of an order file, with where each was written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    pub game: Option<String>,
    pub player: Option<Colour>,
    pub turn: Option<u32>,
    pub secret: Option<String>,
    /// `standing` (the orders repeat until replaced) or `standing off`.
    pub standing: Option<bool>,
    pub player_at: Option<Range<usize>>,
    /// A `player` line was written, even if it did not read.
    pub player_written: bool,
    pub turn_at: Option<Range<usize>>,
    pub game_at: Option<Range<usize>>,
}

/// Something a file's header says that does not fit where the file arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderMismatch {
    /// `game` names another game.
    Game(String),
    /// `player` names another player than the one the file comes from.
    Player(Colour),
    /// `turn` names a turn already played.
    EarlierTurn(u32),
    /// `turn` names a turn after the next one.
    LaterTurn(u32),
}

impl Header {
    /// Compare the header with the game, the player the file comes from (if known) and
    /// the next turn: every mismatch, in that order. Lines left out match anything.
    pub fn mismatches(
        &self,
        game: Option<&str>,
        player: Option<Colour>,
        next: u32,
    ) -> Vec<HeaderMismatch> {
        let mut out = Vec::new();
        if let (Some(want), Some(got)) = (game, &self.game)
            && !got.eq_ignore_ascii_case(want)
        {
            out.push(HeaderMismatch::Game(got.clone()));
        }
        if let (Some(from), Some(said)) = (player, self.player)
            && from != said
        {
            out.push(HeaderMismatch::Player(said));
        }
        match self.turn {
            Some(t) if t < next => out.push(HeaderMismatch::EarlierTurn(t)),
            Some(t) if t > next => out.push(HeaderMismatch::LaterTurn(t)),
            _ => {}
        }
        out
    }
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

#[derive(Clone, Debug)]
struct Token {
    /// The word, with typographic quotes and dashes made plain.
    text: String,
    span: Range<usize>,
}

/// Mail clients turn quotes and dashes typographic, and sprinkle invisible spaces:
/// judge-core's one list of them.
use judge_core::text::plain;

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
struct Logical {
    line: u32,
    toks: Vec<Token>,
    end: usize,
}

/// The logical lines of a file: quoted lines (`> `) and everything after a signature
/// line (`-- `) left out, comments (`#`) stripped, continued lines joined.
fn logical_lines(text: &str) -> Vec<Logical> {
    let mut out: Vec<Logical> = Vec::new();
    let mut continuing = false;
    let mut offset = 0;
    // What a mail program added or quoted is left out (judge-core knows it: quotes,
    // attributions, reply separators, signatures, PGP armour, issue 39).
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

/// Issue 39, point 2: a mail program that wraps long lines (Gmail's plain-text mode at
/// 78 columns, Outlook at 76) breaks a long order in two, and the tail (`on D8`) alone
/// reads as no order, or as a sign-off after the last order. A line directly below an
/// order (no blank line between), which makes with the line above it one order that
/// reads, while the two do not both read by themselves, is that order's tail: the two
/// are read as one. A tail that does not read with the order either stays a line of its
/// own (an error, or, in plain words after the last order, a sign-off).
fn join_wrapped(text: &str, lines: Vec<Logical>, map: &Map) -> Vec<Logical> {
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
        // No heading yet: an order word of one phase only says its phase (issue 20).
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
                        "game" | "player" | "turn" | "secret" | "standing" | "home" | "bid"
                    )
                {
                    parsed.lines.push((line_no, whole));
                    parsed.refs.extend(r.refs);
                    last_order = Some(line_no);
                }
            }
            Err(d) => {
                let is_prose = is_letter_prose(toks, &text[whole.clone()], map, logical.end);
                // An odd character is named (issue 39, point 10).
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

/// The words a heading or header line starts with.
const HEADING_WORDS: &[&str] = &[
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

/// Issue 38, points 1 and 2 (docs/orders.md, "A mail is a letter"): is a line that did
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
/// another phase's heading is therefore never prose (tests/order_words.rs proves it).
fn is_letter_prose(toks: &[Token], written: &str, map: &Map, end: usize) -> bool {
    let Some(first) = toks.first() else {
        return false;
    };
    // A sign-off may run over lines (`Best,` then `Cy`: the comma continues the line):
    // each line of it is words (issue 38, point 2).
    let words = written
        .lines()
        .all(|l| l.trim().is_empty() || judge_core::text::is_words(l));
    // A digit is no order by itself ("Orders for turn 5:", "Sent from my iPhone 15"):
    // a line with one is prose only if it names no place or piece (issue 38).
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
fn letter_prose(
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

struct Reader<'b> {
    toks: &'b [Token],
    pos: usize,
    map: &'b Map,
    end: usize,
    refs: Vec<Ref>,
    line: u32,
}

type R<T> = Result<T, Diagnostic>;

impl Reader<'_> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    fn here(&self) -> Range<usize> {
        self.peek()
            .map_or(self.end..self.end + 1, |t| t.span.clone())
    }

    fn missing(&self, what: &str) -> Diagnostic {
        Diagnostic::new(format!("expected {what} here")).at(self.here())
    }

    fn word(&mut self, what: &str) -> R<Token> {
        match self.peek().cloned() {
            Some(t) if !matches!(t.text.as_str(), "," | ";" | ":") => {
                self.pos += 1;
                Ok(t)
            }
            _ => Err(self.missing(what)),
        }
    }

    fn is(&self, word: &str) -> bool {
        self.peek()
            .is_some_and(|t| t.text.eq_ignore_ascii_case(word))
    }

    fn eat(&mut self, word: &str) -> bool {
        if self.is(word) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, word: &str) -> R<()> {
        if self.eat(word) {
            Ok(())
        } else {
            Err(self.missing(&format!("`{word}`")))
        }
    }

    fn finished(&self) -> R<()> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(Diagnostic::new(format!(
                "unexpected `{}` at the end of the order",
                t.text
            ))
            .at(t.span.clone())),
        }
    }

    /// The rest of a header line after its keyword (and a `:` or `=` after that).
    fn rest_text(&mut self) -> R<String> {
        self.next();
        if !self.eat(":") {
            self.eat("=");
        }
        let t = self.word("a value")?;
        let mut s = t.text.to_string();
        while let Some(t) = self.next() {
            s.push(' ');
            s.push_str(&t.text);
        }
        Ok(s)
    }

    fn number(&mut self) -> R<u32> {
        let t = self.word("a number")?;
        t.text
            .parse()
            .map_err(|_| Diagnostic::new(format!("`{}` is not a number", t.text)).at(t.span))
    }

    fn colour(&mut self) -> R<Colour> {
        let t = self.word("a colour")?;
        if t.text.parse::<Colour>().is_err()
            && let Some(s) = did_you_mean(&t.text, Colour::SEATS.iter().map(|c| c.name()))
        {
            return Err(
                Diagnostic::new(format!("`{}` is not a player colour", t.text))
                    .at(t.span)
                    .help(format!("did you mean `{s}`?")),
            );
        }
        t.text
            .parse()
            .map_err(|e: String| Diagnostic::new(e).at(t.span))
    }

    fn transporter(&mut self) -> R<TransporterId> {
        self.transporter_ref(true)
    }

    /// A transporter id, remembered with where it was written.
    fn transporter_ref(&mut self, own: bool) -> R<TransporterId> {
        let t = self.word("a transporter id, like `D2`")?;
        let id: TransporterId = t
            .text
            .parse()
            .map_err(|e: String| Diagnostic::new(e).at(t.span.clone()))?;
        self.refs.push(Ref {
            line: self.line,
            id,
            span: t.span,
            own,
        });
        Ok(id)
    }

    fn hex(&mut self) -> R<Hex> {
        let t = self.word("a hex, like `C4`")?;
        let h: Hex = t.text.parse().map_err(|e: crate::map::HexLabelError| {
            Diagnostic::new(e.to_string()).at(t.span.clone())
        })?;
        if !self.map.tiles.contains_key(&h) {
            return Err(Diagnostic::new(format!("{h} is not a tile of this map")).at(t.span));
        }
        Ok(h)
    }

    /// A tile, written as a hex (`F3`) or as one of its areas (`F3/SW`).
    fn hex_or_area(&mut self) -> R<Hex> {
        if self.peek().is_some_and(|t| t.text.contains('/')) {
            Ok(self.area()?.hex)
        } else {
            self.hex()
        }
    }

    /// Two areas, `C3 C4`, `C3 to C4` or `C3-C4` (a border of two whole tiles).
    fn area_pair(&mut self) -> R<(AreaId, AreaId)> {
        if let Some(t) = self.peek().cloned()
            && let Some((a, b)) = t.text.split_once('-')
            && !a.is_empty()
            && !b.is_empty()
        {
            self.next();
            let read = |x: &str| {
                self.map
                    .resolve_area(x)
                    .map_err(|e| Diagnostic::new(e).at(t.span.clone()))
            };
            return Ok((read(a)?, read(b)?));
        }
        let from = self.area()?;
        self.eat("to");
        Ok((from, self.area()?))
    }

    fn area(&mut self) -> R<AreaId> {
        let t = self.word("an area, like `C4` or `C4/E`")?;
        self.map
            .resolve_area(&t.text)
            .map_err(|e| Diagnostic::new(e).at(t.span))
    }

    fn good_word(&mut self, t: &Token) -> R<Good> {
        t.text.parse().map_err(|e: String| {
            let mut d = Diagnostic::new(e).at(t.span.clone());
            // `2Bd` copied from the map picture: the count stands apart in an order.
            let word = t.text.trim_start_matches(|c: char| c.is_ascii_digit());
            let count = &t.text[..t.text.len() - word.len()];
            let names = Good::ALL.iter().map(|g| g.name());
            if !count.is_empty() && word.parse::<Good>().is_ok() {
                d = d.help(format!(
                    "the map writes `{}`; an order writes the count apart: `{count} {}`",
                    t.text,
                    word.to_ascii_lowercase()
                ));
            } else if let Some(s) = did_you_mean(&t.text, names) {
                d = d.help(format!("did you mean `{s}`?"));
            }
            d
        })
    }

    /// `2 boards, 1 stone` (a count may be left out for one).
    /// Goods, or the word `nothing`.
    fn goods_or_nothing(&mut self) -> R<Goods> {
        if self.eat("nothing") {
            Ok(Goods::new())
        } else {
            self.goods()
        }
    }

    fn goods(&mut self) -> R<Goods> {
        let mut g = Goods::new();
        loop {
            let t = self.word("goods, like `2 boards`")?;
            let (n, good_tok) = match t.text.parse::<u32>() {
                Ok(n) => (n, self.word("a good, like `boards`")?),
                Err(_) => (1, t),
            };
            g.add(self.good_word(&good_tok)?, n);
            let more = self
                .peek()
                .is_some_and(|t| t.text == "," || t.text.eq_ignore_ascii_case("and"))
                && self.toks.get(self.pos + 1).is_some_and(|t| {
                    t.text.parse::<u32>().is_ok() || t.text.parse::<Good>().is_ok()
                });
            if more {
                self.pos += 1;
                continue;
            }
            // Also `2 boards 1 stone`.
            if self.peek().is_some_and(|t| t.text.parse::<u32>().is_ok()) {
                continue;
            }
            return Ok(g);
        }
    }

    fn location(&mut self) -> R<Location> {
        let first = self.word("a position")?;
        let loc = match first.text.to_ascii_lowercase().as_str() {
            "river" => Location::River(self.hex()?),
            "sea" => Location::Sea(self.hex()?),
            "dock" => {
                let land = self.area()?;
                let sea = self.hex()?;
                Location::Dock(Coast { land, sea })
            }
            _ => {
                self.pos -= 1;
                let h: Result<Hex, _> = first.text.split('/').next().unwrap_or("").parse();
                match h {
                    Ok(h) if self.map.is_sea(h) => {
                        self.pos += 1;
                        Location::Sea(h)
                    }
                    _ => Location::Land(self.area()?),
                }
            }
        };
        Ok(loc)
    }

    fn building_kind(&mut self) -> R<BuildingKind> {
        let t = self.word("a building, like `sawmill`")?;
        t.text.parse().map_err(|e: String| {
            let mut d = Diagnostic::new(e).at(t.span.clone());
            if let Some(s) = did_you_mean(&t.text, BuildingKind::ALL.iter().map(|k| k.name())) {
                d = d.help(format!("did you mean `{s}`?"));
            }
            d
        })
    }

    fn mixture(&mut self) -> R<MineBag> {
        let t = self.word("a mixture, like `3/3`")?;
        let bad = || {
            Diagnostic::new(format!(
                "`{}` is not a mixture: write gold/iron, like `4/0`",
                t.text
            ))
            .at(t.span.clone())
        };
        let (g, i) = t.text.split_once('/').ok_or_else(bad)?;
        Ok(MineBag {
            gold: g.parse().map_err(|_| bad())?,
            iron: i.parse().map_err(|_| bad())?,
        })
    }

    /// A colour, or `anyone`.
    fn party(&mut self) -> R<Party> {
        if self.eat("anyone") || self.eat("anybody") || self.eat("everyone") {
            Ok(Party::Anyone)
        } else {
            Ok(Party::Player(self.colour()?))
        }
    }

    /// `accept [GOODS] from yellow [on D3]`, `offer D3 to yellow`, `offer 2 boards from D3
    /// to yellow`, `allow yellow to carry D3` (docs/orders.md, consent).
    fn consent(&mut self, verb: &str) -> R<Consent> {
        match verb {
            "accept" => {
                let any = self.is("from") || self.eat("goods") || self.eat("anything");
                let goods = if any { None } else { Some(self.goods()?) };
                self.expect("from")?;
                let from = self.party()?;
                let onto = if self.eat("on") || self.eat("onto") {
                    Some(self.transporter()?)
                } else {
                    None
                };
                Ok(Consent::Accept { from, goods, onto })
            }
            "offer" => {
                let whole = self
                    .peek()
                    .is_some_and(|t| t.text.parse::<TransporterId>().is_ok())
                    && self
                        .toks
                        .get(self.pos + 1)
                        .is_some_and(|t| t.text.eq_ignore_ascii_case("to"));
                let (transporter, goods) = if whole {
                    (self.transporter()?, None)
                } else {
                    let goods = self.goods()?;
                    if !(self.eat("from") || self.eat("on")) {
                        return Err(self
                            .missing("`from` and your transporter")
                            .help("write `offer 2 boards from D3 to yellow`, or `offer D3 to yellow` for all it carries"));
                    }
                    (self.transporter()?, Some(goods))
                };
                self.expect("to")?;
                let to = self.party()?;
                Ok(Consent::Offer {
                    transporter,
                    goods,
                    to,
                })
            }
            _ => {
                let by = self.party()?;
                self.expect("to")?;
                self.expect("carry")?;
                let transporter = self.transporter()?;
                Ok(Consent::Carry { transporter, by })
            }
        }
    }

    /// `2 geese` after `follow` (the word may be left out).
    fn follow_count(&mut self) -> R<u32> {
        let n = self.number()?;
        self.eat("geese");
        self.eat("goose");
        Ok(n)
    }

    fn with(&mut self) -> R<TransporterId> {
        if !(self.eat("with") || self.eat("by")) {
            return Err(self.missing("`with` and the transporter that builds"));
        }
        self.transporter()
    }

    /// The verb of an order of `phase`: one of its words in the one list of order words
    /// ([`order_words`]), or an error that says which are, and the one likely meant.
    fn verb(&mut self, phase: Phase) -> R<String> {
        let t = self.word("an order")?;
        let v = order_words::canonical(&t.text);
        let known = order_words::verbs(phase);
        if known.contains(&v.as_str()) {
            Ok(v)
        } else {
            let list = order_words::sentence(phase);
            let mut d = Diagnostic::new(format!(
                "`{}` is not an order of this phase: use {list}",
                t.text
            ))
            .at(t.span);
            let synonym = order_words::SYNONYMS
                .iter()
                .find(|(s, _)| *s == v)
                .map(|(_, meant)| {
                    if order_words::verbs(phase).contains(meant) {
                        (*meant).to_string()
                    } else {
                        let (p, _) = order_words::all()
                            .find(|(_, o)| order_words::verb(o) == *meant)
                            .unwrap_or((phase, meant));
                        format!("{meant} (in the {p} phase)")
                    }
                });
            let elsewhere = match v.as_str() {
                "offer" => Some(
                    "an offer goes in the production or building orders, where the other player hands goods in or builds with them; in movement, give the goods (the other player accepts them)",
                ),
                "accept" => Some(
                    "`accept` goes in the production or movement orders, where goods are handed over",
                ),
                "allow" => Some(
                    "`allow … to carry` goes in the production or movement orders, where transporters are picked up",
                ),
                "give" | "carry" => Some(
                    "in the movement phase, give and carry are steps of a move: `move D1: give 1 stone to D2`, `move T1: carry R1`",
                ),
                _ => None,
            };
            if let Some(h) = elsewhere {
                return Err(d.help(h));
            }
            if let Some(s) =
                synonym.or_else(|| did_you_mean(&v, known.iter().copied()).map(str::to_string))
            {
                d = d.help(format!("did you mean `{s}`?"));
            } else if let Some((s, phase)) = PHASES
                .iter()
                .filter(|p| **p != phase)
                .find_map(|p| did_you_mean(&v, order_words::verbs(*p)).map(|s| (s, heading_of(*p))))
            {
                let aside = if s == "load" || s == "unload" {
                    " (in movement, loading is a step of a move: `move D1: load 1 board; C3`)"
                } else {
                    ""
                };
                // The word itself is an order of another phase: no "did you mean" it.
                d = d.help(if s.eq_ignore_ascii_case(&v) {
                    format!("`{s}` is a {phase} order: write it below the `{phase}` heading{aside}")
                } else {
                    format!(
                        "did you mean `{s}`? That is a {phase} order: write it below the `{phase}` heading{aside}"
                    )
                });
            }
            Err(d)
        }
    }

    fn production(&mut self) -> R<ProductionOrder> {
        match self.verb(Phase::Production)?.as_str() {
            "make" => {
                let count = if self.peek().is_some_and(|t| t.text.parse::<u32>().is_ok()) {
                    self.number()?
                } else {
                    1
                };
                let t = self.word("what to make, like `boards` or `wagon`")?;
                let output = match t.text.parse::<Kind>() {
                    Ok(k) => Output::Transporter(k),
                    Err(_) => Output::Good(self.good_word(&t)?),
                };
                self.expect("at")?;
                let at = self.hex_or_area()?;
                let mut from = Vec::new();
                if self.eat("from") {
                    // Another player's transporter if its owner offers it (consent).
                    from.push(self.transporter_ref(false)?);
                    while self.eat(",") || self.eat("and") {
                        from.push(self.transporter_ref(false)?);
                    }
                }
                let launch = if self.eat("launch") {
                    Some(self.location()?)
                } else {
                    None
                };
                let using = if self.is("using") {
                    let u = self.here();
                    self.next();
                    if !matches!(output, Output::Good(Good::Fuel | Good::Paper)) {
                        return Err(Diagnostic::new(
                            "`using` chooses trunks or boards for a coal burner (fuel) or a paper mill (paper)",
                        )
                        .at(u)
                        .help("leave `using …` out for other factories"));
                    }
                    let t = self.word("`trunks` or `boards`")?;
                    match self.good_word(&t)? {
                        g @ (Good::Trunks | Good::Boards) => Some(g),
                        _ => {
                            return Err(Diagnostic::new(format!(
                                "`{}` will not do: a coal burner or paper mill takes trunks or boards",
                                t.text
                            ))
                            .at(t.span)
                            .help("write `using trunks` or `using boards`"));
                        }
                    }
                } else {
                    None
                };
                Ok(ProductionOrder::Make {
                    count,
                    output,
                    at,
                    from,
                    launch,
                    using,
                })
            }
            v @ ("load" | "unload") => {
                let transporter = self.transporter()?;
                let goods = self.goods()?;
                let area = if self.eat("from") || self.eat("to") || self.eat("at") {
                    Some(self.area()?)
                } else {
                    None
                };
                Ok(if v == "load" {
                    ProductionOrder::Load {
                        transporter,
                        goods,
                        area,
                    }
                } else {
                    ProductionOrder::Unload {
                        transporter,
                        goods,
                        area,
                    }
                })
            }
            "research" => {
                let t = self.word("a research subject")?;
                let subject = parse_research(&t)?;
                let with = self.with()?;
                Ok(ProductionOrder::Research { subject, with })
            }
            "upgrade" => {
                // `upgrade C3 to rowboat-factory`: every factory of the class at C3; or,
                // naming one (a city holds two), `upgrade C3 raft-factory to rowboat-factory`.
                let at = self.hex()?;
                let from = if self.is("to") {
                    None
                } else {
                    Some(self.building_kind()?)
                };
                self.expect("to")?;
                let to = self.building_kind()?;
                Ok(ProductionOrder::Upgrade { at, from, to })
            }
            "destroy" => Ok(ProductionOrder::Destroy {
                transporter: self.transporter()?,
            }),
            "breed" => {
                self.eat("donkeys");
                self.eat("at");
                Ok(ProductionOrder::Breed { at: self.hex()? })
            }
            "give" => {
                // `give D1 2 boards to D2`, or `give 2 boards from D1 to D2`.
                let (from, goods) = if self
                    .peek()
                    .is_some_and(|t| t.text.parse::<TransporterId>().is_ok())
                {
                    let from = self.transporter()?;
                    (from, self.goods()?)
                } else {
                    let goods = self.goods()?;
                    self.expect("from")?;
                    (self.transporter()?, goods)
                };
                self.expect("to")?;
                let to = self.transporter_ref(false)?;
                Ok(ProductionOrder::Give { from, to, goods })
            }
            "carry" => {
                let carried = self.transporter_ref(false)?;
                if !(self.eat("on") || self.eat("onto") || self.eat("with")) {
                    return Err(self
                        .missing("`on` and the transporter that carries it")
                        .help("write `carry R1 on T1`: T1 picks up R1"));
                }
                let carrier = self.transporter()?;
                Ok(ProductionOrder::Carry { carrier, carried })
            }
            v @ ("accept" | "offer" | "allow") => Ok(ProductionOrder::Consent(self.consent(v)?)),
            "manage" => {
                // `manage C3 with D1`
                self.eat("at");
                let at = self.hex_or_area()?;
                Ok(ProductionOrder::Manage {
                    at,
                    with: self.with()?,
                })
            }
            "fire" => {
                // `fire C3 with D1` / `fire C3 with D1 using trunks`
                self.eat("plant");
                self.eat("at");
                let at = self.hex_or_area()?;
                let with = self.with()?;
                let using = if self.eat("using") {
                    let t = self.word("`trunks` or `boards`")?;
                    match self.good_word(&t)? {
                        g @ (Good::Trunks | Good::Boards) => Some(g),
                        _ => {
                            return Err(Diagnostic::new(format!(
                                "`{}` will not do: a power plant burns a trunk or a board",
                                t.text
                            ))
                            .at(t.span)
                            .help("write `using trunks` or `using boards`"));
                        }
                    }
                } else {
                    None
                };
                Ok(ProductionOrder::Fire { at, with, using })
            }
            "no" => {
                if !(self.eat("breed") || self.eat("breeding")) {
                    return Err(self
                        .missing("`breed`")
                        .help("write `no breed C3` (or `no breed` for everywhere)"));
                }
                self.eat("donkeys");
                self.eat("at");
                self.eat("on");
                let at = if self.peek().is_some() {
                    Some(self.hex_or_area()?)
                } else {
                    None
                };
                Ok(ProductionOrder::NoBreed { at })
            }
            _ => Err(self.missing(&order_words::sentence(Phase::Production))),
        }
    }

    fn steps(&mut self) -> R<Vec<Step>> {
        let mut steps = Vec::new();
        loop {
            let step = match self.peek().map(|t| t.text.to_ascii_lowercase()) {
                None => break,
                Some(w) if w == "load" || w == "unload" => {
                    self.next();
                    let goods = self.goods()?;
                    let area = if self.eat("from") || self.eat("to") || self.eat("at") {
                        Some(self.area()?)
                    } else {
                        None
                    };
                    if w == "load" {
                        Step::Load { goods, area }
                    } else {
                        Step::Unload { goods, area }
                    }
                }
                Some(w) if w == "give" => {
                    self.next();
                    let goods = self.goods()?;
                    self.expect("to")?;
                    Step::Give {
                        to: self.transporter_ref(false)?,
                        goods,
                    }
                }
                Some(w) if w == "follow" => {
                    self.next();
                    Step::Follow(self.follow_count()?)
                }
                Some(w) if w == "carry" => {
                    self.next();
                    Step::Carry(self.transporter_ref(false)?)
                }
                Some(w) if w == "to" => {
                    self.next();
                    Step::To(self.location()?)
                }
                Some(_) => Step::To(self.location()?),
            };
            steps.push(step);
            if !(self.eat(";") || self.eat(",")) {
                break;
            }
        }
        Ok(steps)
    }

    fn movement(&mut self) -> R<MovementOrder> {
        match self.verb(Phase::Movement)?.as_str() {
            "move" => {
                let transporter = self.transporter()?;
                self.eat(":");
                if self.peek().is_none() {
                    return Err(self
                        .missing("where to go or what to do: a move needs at least one step")
                        .help("write the steps after the id, like `move D1: load 2 boards; C4`"));
                }
                let steps = self.steps()?;
                Ok(MovementOrder::Move { transporter, steps })
            }
            "fly" => {
                let plane = self.transporter()?;
                self.eat(":");
                let mut load = Goods::new();
                let mut follow = 0;
                let mut drops = Vec::new();
                let mut land = None;
                loop {
                    if self.eat("load") {
                        load.add_all(&self.goods()?);
                    } else if self.eat("follow") {
                        follow += self.follow_count()?;
                    } else if self.eat("drop") {
                        let goods = self.goods()?;
                        self.expect("on")?;
                        drops.push((self.area()?, goods));
                    } else if self.eat("land") {
                        self.eat("at");
                        land = Some(self.location()?);
                    } else {
                        return Err(self.missing("`load`, `follow`, `drop` or `land`"));
                    }
                    if !(self.eat(";") || self.eat(",")) {
                        break;
                    }
                }
                let land = land.ok_or_else(|| self.missing("`land` and where the plane lands"))?;
                Ok(MovementOrder::Fly {
                    plane,
                    load,
                    follow,
                    drops,
                    land,
                })
            }
            "train" => {
                let transporter = self.transporter()?;
                self.expect("to")?;
                let to = self.location()?;
                self.expect("fare")?;
                // `fare 1 stone` reads too: the fare is always one good.
                if self.peek().is_some_and(|t| t.text == "1") {
                    self.next();
                }
                let t = self.word("the good that pays the fare")?;
                let fare = self.good_word(&t)?;
                let fare_from = if self.eat("from") {
                    self.eat("the");
                    self.eat("its");
                    let w = self.word("`tile` or `cargo`")?;
                    match w.text.to_ascii_lowercase().as_str() {
                        "tile" | "ground" => Some(FareFrom::Tile),
                        "cargo" => Some(FareFrom::Cargo),
                        _ if w.text.eq_ignore_ascii_case(&transporter.to_string()) => {
                            Some(FareFrom::Cargo)
                        }
                        _ => {
                            return Err(Diagnostic::new(format!(
                                "`{}`: a fare comes from the tile or from the transporter's cargo",
                                w.text
                            ))
                            .at(w.span)
                            .help("write `fare stone from tile` or `fare stone from cargo`"));
                        }
                    }
                } else {
                    None
                };
                // `; follow 2 geese`: geese from the starting tile ride along.
                let mut follow = 0;
                while self.eat(";") || self.eat(",") {
                    if !self.eat("follow") {
                        return Err(self
                            .missing("`follow`")
                            .help("a train takes only `; follow 2 geese` after its fare"));
                    }
                    follow += self.follow_count()?;
                }
                Ok(MovementOrder::Train {
                    transporter,
                    to,
                    fare,
                    fare_from,
                    follow,
                })
            }
            v @ ("accept" | "allow") => Ok(MovementOrder::Consent(self.consent(v)?)),
            "release" => {
                // Either may be another player's: the carrier's owner puts the carried
                // one down, or its owner takes it back.
                let carried = self.transporter_ref(false)?;
                self.expect("from")?;
                let carrier = self.transporter_ref(false)?;
                self.expect("at")?;
                let at = self.location()?;
                Ok(MovementOrder::Release {
                    carrier,
                    carried,
                    at,
                })
            }
            _ => Err(self.missing(&order_words::sentence(Phase::Movement))),
        }
    }

    fn building(&mut self) -> R<BuildingOrder> {
        match self.verb(Phase::Building)?.as_str() {
            "build" => {
                let kind = self.building_kind()?;
                self.expect("at")?;
                let at = self.area()?;
                let mut mixture = None;
                if self.eat("mixture") {
                    mixture = Some(self.mixture()?);
                }
                let with = self.with()?;
                if mixture.is_none() && self.eat("mixture") {
                    mixture = Some(self.mixture()?);
                }
                Ok(BuildingOrder::Build {
                    kind,
                    at,
                    with,
                    mixture,
                })
            }
            "road" => {
                let from = self.area()?;
                self.eat("to");
                let to = self.area()?;
                Ok(BuildingOrder::Road {
                    from,
                    to,
                    with: self.with()?,
                })
            }
            "bridge" => {
                let at = self.hex()?;
                let over = if self.is("with") || self.is("by") {
                    None
                } else {
                    self.eat("over");
                    let t = self.word("the river arm, like `N`")?;
                    Some(
                        t.text
                            .parse::<Dir>()
                            .map_err(|e| Diagnostic::new(e).at(t.span))?,
                    )
                };
                Ok(BuildingOrder::Bridge {
                    at,
                    over,
                    with: self.with()?,
                })
            }
            v @ ("wall" | "demolish") => {
                let t = self.word("a border, like `C4-C5`")?;
                let border: Border = t
                    .text
                    .parse()
                    .map_err(|e: String| Diagnostic::new(e).at(t.span))?;
                let mut tokens = None;
                if v == "wall" && (self.eat("tokens") || self.eat("to")) {
                    let n = self.number()?;
                    tokens = Some(u8::try_from(n).unwrap_or(u8::MAX));
                    self.eat("tokens");
                }
                let with = self.with()?;
                Ok(if v == "wall" {
                    BuildingOrder::Wall {
                        border,
                        with,
                        tokens,
                    }
                } else {
                    BuildingOrder::Demolish { border, with }
                })
            }
            "shaft" => {
                let at = self.hex()?;
                self.eat("mixture");
                let mixture = if self.is("with") || self.is("by") {
                    MineBag::ORDINARY
                } else {
                    self.mixture()?
                };
                Ok(BuildingOrder::Shaft {
                    at,
                    mixture,
                    with: self.with()?,
                })
            }
            "bomb" => {
                let at = self.hex()?;
                Ok(BuildingOrder::Bomb {
                    at,
                    with: self.with()?,
                })
            }
            "bomb-proof" => {
                // `bomb-proof C3 with D1`, or, in a city, `bomb-proof C3 mint with D1`.
                let at = self.hex()?;
                let building = if self.is("with") || self.is("by") {
                    None
                } else {
                    Some(self.building_kind()?)
                };
                Ok(BuildingOrder::BombProof {
                    at,
                    building,
                    with: self.with()?,
                })
            }
            "offer" => Ok(BuildingOrder::Consent(self.consent("offer")?)),
            "power" => {
                // `power line C3 C4 with D1`, `power line C3-C4 with D1`
                self.eat("line");
                let (from, to) = self.area_pair()?;
                Ok(BuildingOrder::PowerLine {
                    from,
                    to,
                    with: self.with()?,
                })
            }
            _ => Err(self.missing(&order_words::sentence(Phase::Building))),
        }
    }

    fn wonder(&mut self) -> R<WonderOrder> {
        let at = self.pos;
        let verb = self.verb(Phase::Wonder).map_err(|d| {
            let word = self
                .toks
                .get(at)
                .map(|t| t.text.to_ascii_lowercase())
                .unwrap_or_default();
            if matches!(word.as_str(), "buy" | "build" | "pay") {
                d.help("did you mean `bricks 2 paying 3 boards`?")
            } else {
                d
            }
        })?;
        match verb.as_str() {
            "bricks" => {
                let count = self.number()?;
                self.expect("paying")?;
                let paying = self.goods()?;
                Ok(WonderOrder::Bricks { count, paying })
            }
            "trade" => {
                // `trade 2 boards for 1 gold with yellow`; `nothing` on either side.
                let give = self.goods_or_nothing()?;
                self.expect("for")?;
                let get = self.goods_or_nothing()?;
                self.expect("with")?;
                let with = self.colour()?;
                Ok(WonderOrder::Trade { give, get, with })
            }
            "load" => {
                let transporter = self.transporter()?;
                let goods = self.goods()?;
                Ok(WonderOrder::Load { transporter, goods })
            }
            "move" => {
                self.expect("order")?;
                let mut preferences = vec![self.number()?];
                while self.eat(",") {
                    preferences.push(self.number()?);
                }
                Ok(WonderOrder::MoveOrder { preferences })
            }
            _ => Err(self.missing(&order_words::sentence(Phase::Wonder))),
        }
    }
}

fn parse_research(t: &Token) -> R<Research> {
    let v = t.text.to_ascii_lowercase();
    Research::ALL
        .into_iter()
        .find(|r| r.name() == v)
        .ok_or_else(|| {
            let mut d = Diagnostic::new(format!("`{}` is not a research subject", t.text))
                .at(t.span.clone());
            if let Some(s) = did_you_mean(&v, Research::ALL.iter().map(|r| r.name())) {
                d = d.help(format!("did you mean `{s}`?"));
            }
            d
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    fn map() -> Map {
        let text = include_str!("../../../tests/scenarios/valid-base.toml");
        Scenario::parse("valid-base.toml", text)
            .expect("valid")
            .setup()
            .map
            .clone()
    }

    fn read(text: &str) -> Parsed {
        parse(text, &map())
    }

    /// docs/orders.md: quoted history in a reply is not read as orders.
    #[test]
    fn quoted_lines_are_ignored() {
        let p = read("movement\n> move D9: C3\nmove D1: C3\n");
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.orders.movement.len(), 1);
        assert_eq!(p.orders.movement[0].line, 3);
    }

    /// docs/orders.md: a mail client's "On …, Ann wrote:" line above quoted history is
    /// not an order; the same words elsewhere are.
    #[test]
    fn an_attribution_line_above_a_quote_is_ignored() {
        let p = read("movement\nmove D1: C3\nOn Mon, 3 Jan 2026, Ann wrote:\n> move D1: C4\n");
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        let p = read("movement\nOn Monday I wrote:\nmove D1: C3\n");
        assert_eq!(p.problems.len(), 1);
    }

    /// A move needs a step: `move D1:` alone would use up D1's move for nothing.
    #[test]
    fn an_empty_move_is_refused() {
        let p = read("movement\nmove D1:\n");
        assert_eq!(p.problems.len(), 1);
        assert!(p.orders.movement.is_empty());
    }

    /// The header is compared with where the file arrived: the game, the sender and
    /// the next turn; lines left out match anything.
    #[test]
    fn header_mismatches() {
        let p = read("game other\nplayer yellow\nturn 2\n");
        assert_eq!(
            p.header.mismatches(Some("demo"), Some(Colour::Red), 4),
            vec![
                HeaderMismatch::Game("other".into()),
                HeaderMismatch::Player(Colour::Yellow),
                HeaderMismatch::EarlierTurn(2)
            ]
        );
        assert_eq!(
            p.header.mismatches(Some("OTHER"), Some(Colour::Yellow), 1),
            vec![HeaderMismatch::LaterTurn(2)]
        );
        assert!(
            read("movement\n")
                .header
                .mismatches(Some("demo"), Some(Colour::Red), 4)
                .is_empty()
        );
    }

    /// docs/orders.md: nothing after a signature line is read.
    #[test]
    fn the_signature_ends_the_orders() {
        let p = read("movement\nmove D1: C3\n-- \nAnn\nmove D2: C3\n");
        assert!(p.problems.is_empty());
        assert_eq!(p.orders.movement.len(), 1);
    }

    /// CRLF, tabs, non-breaking spaces, trailing spaces and non-ASCII comments read as
    /// plain text would.
    #[test]
    fn mail_whitespace_reads_plainly() {
        let p = read(
            "player red\r\nturn 4\r\nmovement\r\n\tmove\u{a0}D1:\tload 2 bd;  C3   \r\n# déjà vu ☂\r\n",
        );
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.header.turn, Some(4));
        assert_eq!(p.orders.movement.len(), 1);
    }

    /// Typographic dashes and quotes from a mail client are made plain: `C3–C4` is a
    /// border.
    #[test]
    fn typographic_dashes_are_plain() {
        let p = read("building\nwall C3\u{2013}C4 with D1 # \u{201c}keep out\u{201d}\n");
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.orders.building.len(), 1);
    }

    /// docs/orders.md: a line ending with `;`, `,` or `\` continues on the next, as a
    /// mail client's wrapping leaves it; the order keeps its first line's number.
    #[test]
    fn wrapped_lines_continue() {
        let p =
            read("movement\nmove D1: load 2 boards;\nC3; unload 2 boards\nmove D2: C3 \\\n; C4\n");
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.orders.movement.len(), 2);
        assert_eq!(p.orders.movement[0].line, 2);
        assert_eq!(p.orders.movement[1].line, 4);
    }

    /// A problem names the exact word: its span covers it in the original text, even on
    /// a continued line.
    #[test]
    fn problems_point_at_the_word() {
        let text = "movement\nmove D1: load 2 boards;\nC3; load 1 bords\n";
        let p = read(text);
        let span = p.problems[0].span.clone().expect("span");
        assert_eq!(&text[span], "bords");
        assert_eq!(
            p.problems[0].help.as_deref(),
            Some("did you mean `boards`?")
        );
    }

    /// Issue 20, point 22: a good copied from the map picture (`2Bd`, its count and
    /// short form together) is not read as an order's goods, but the help says how to
    /// write it; the short form with its count apart reads.
    #[test]
    fn a_good_copied_from_the_picture_is_shown_how_to_write() {
        let p = read("movement\nmove D1: load 2Bd; C3\n");
        assert_eq!(p.problems.len(), 1, "{:?}", p.problems);
        assert_eq!(
            p.problems[0].help.as_deref(),
            Some("the map writes `2Bd`; an order writes the count apart: `2 bd`")
        );
        let p = read("movement\nmove D1: load 2 Bd, 1 st; C3\n");
        assert!(p.problems.is_empty(), "{:?}", p.problems);
    }

    /// Issue 11's orders read as docs/orders.md shows them.
    #[test]
    fn the_new_orders_read() {
        let p = read(
            "production\nno breed C3\nno breed\ngive D1 2 boards to D2\ngive 1 stone from D2 to D1\n\
             carry D2 on D1\nmake 1 fuel at C3 from D1 using boards\naccept goods from yellow\n\
             accept 2 boards from anyone on D1\noffer D1 to yellow\noffer 1 board from D1 to yellow\n\
             allow yellow to carry D1\nmovement\ntrain D1 to C3 fare 1 stone from cargo; follow 2 geese\n\
             fly P1: load 1 board; follow 2 geese; land C3\naccept goods from red\nallow anyone to carry D1\n\
             building\noffer 2 boards from D1 to red\n",
        );
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.orders.production.len(), 11);
        assert_eq!(p.orders.movement.len(), 4);
        assert_eq!(p.orders.building.len(), 1);
        assert_eq!(
            p.orders.production[9].order,
            ProductionOrder::Consent(Consent::Offer {
                transporter: "D1".parse().expect("id"),
                goods: Some([(Good::Boards, 1)].into_iter().collect()),
                to: Party::Player(Colour::Yellow),
            })
        );
        assert!(matches!(
            p.orders.movement[0].order,
            MovementOrder::Train {
                fare_from: Some(FareFrom::Cargo),
                follow: 2,
                ..
            }
        ));
    }

    /// Consents go in the phases they are for; elsewhere the line is refused with a hint.
    #[test]
    fn a_consent_in_the_wrong_phase_is_refused_with_a_hint() {
        let p = read("movement\noffer D1 to yellow\nbuilding\naccept goods from red\n");
        assert_eq!(p.problems.len(), 2);
        assert!(
            p.problems[0]
                .help
                .as_deref()
                .is_some_and(|h| h.contains("production or building")),
            "{:?}",
            p.problems
        );
        let p = read("production\nmake 2 boards at C3 from D1 using boards\n");
        assert_eq!(p.problems.len(), 1, "`using` is for fuel and paper");
    }

    /// Issue 9.8, docs/orders.md: a mail is a letter; a greeting before the orders and a
    /// sign-off after them are not errors. Words in the middle of the orders still are.
    #[test]
    fn a_greeting_and_a_sign_off_are_not_errors() {
        let p = read(
            "Hi judge,\n\ngame demo\nplayer red\nturn 1\nHere are my orders:\nmovement\nmove D1: C3\n\nThanks!\nBob\n",
        );
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(
            p.header.game.as_deref(),
            Some("demo"),
            "the greeting's comma swallows nothing"
        );
        assert_eq!(p.orders.movement.len(), 1);
        // Issue 39 (mail as phones send it): iOS and Android type `’` and `—` for `'` and
        // `-`; a greeting or sign-off written so is as plain as one typed with `'`.
        for letter in [
            "Hello judge, here’s my turn:\nplayer red\nmovement\nmove D1: C3\nThat’s all, thanks!\n",
            "Here’s turn 1:\nplayer red\nmovement\nmove D1: C3\nThanks – that’s all!\n",
            "Hi! Orders below — grüße\nplayer red\nmovement\nmove D1: C3\n",
            "hier meine Züge – schöne Grüße:\nplayer red\nmovement\nmove D1: C3\n",
        ] {
            let p = read(letter);
            assert!(p.problems.is_empty(), "{letter}: {:?}", p.problems);
            assert_eq!(p.orders.movement.len(), 1, "{letter}");
        }
        let p = read("player red\nmovement\nmove D1: C3\nplease be kind\nmove D2: C3\n");
        assert_eq!(p.problems.len(), 1, "prose between orders is reported");
        let p = read("player red\nmovement\nmove D1: C3\nmvoe D2: C3\n");
        assert_eq!(
            p.problems.len(),
            1,
            "a misspelt last order is still an error"
        );
    }

    /// Issue 39, point 2, its door: a wrapped order is joined from a few lines (a mail
    /// program's wrap), never from hundreds, so that 20,000 continuation lines cost
    /// linear time; the lines beyond are reported, never dropped.
    #[test]
    fn a_wrapped_order_joins_a_few_lines_and_reports_the_rest() {
        let mut text = String::from("player red\nmovement\nmove D1: C3\n");
        for i in 0..10 {
            text.push_str(if i % 2 == 0 { "; C4\n" } else { "; C3\n" });
        }
        let p = read(&text);
        assert_eq!(p.orders.movement.len(), 1, "{:?}", p.problems);
        assert!(!p.problems.is_empty(), "the lines beyond are reported");
    }

    /// Issue 9.8: a misspelt verb gets "did you mean", also one of another phase.
    #[test]
    fn a_misspelt_verb_is_named() {
        let p = read(
            "player red\nproduction\nlaod D1 1 board\nmovement\nmvoe D1: C3\nlaod D2 1 board\n",
        );
        let helps: Vec<&str> = p
            .problems
            .iter()
            .filter_map(|d| d.help.as_deref())
            .collect();
        assert_eq!(helps[0], "did you mean `load`?");
        assert_eq!(helps[1], "did you mean `move`?");
        assert!(
            helps[2].starts_with("did you mean `load`? That is a production order"),
            "{helps:?}"
        );
    }

    /// A line that does not read is left out; the others are kept (docs/orders.md).
    #[test]
    fn bad_lines_are_left_out_and_good_ones_kept() {
        let p = read("building\nbuild sawmil at C3 with D1\nroad C3 C4 with D1\n");
        assert_eq!(p.problems.len(), 1);
        assert_eq!(p.orders.building.len(), 1);
    }
}
