//! Orders never vanish, and a letter's prose is never an
//! error.
//!
//! Point 1: a valid order of any kind, of the base game or of any module, mutated — one
//! word dropped, its verb misspelt by one letter, or moved under another phase's
//! heading — is either read or reported, wherever it stands in the file (first, among
//! others, last, or before any heading). Never *silent*: a line is silent when it
//! neither becomes an order (`Parsed::lines` holds no order on it) nor appears in any
//! diagnostic (no diagnostic's span touches the line, or the lines it runs on over a
//! continuation mark).
//!
//! Point 2, the other side: prose after the last order — a sign-off of one or two lines
//! (`Best,` / `Cy`) — is never an error (docs/orders.md, "A mail is a letter"); nor is
//! a greeting before the first heading, numbers and all ("Orders for turn 5:", "Sent
//! from my iPhone 15"): what makes a line order-like is a place or a piece, not a digit.

use crate::support;

use proptest::prelude::*;

use pbem_judge::roads_boats::map::{Hex, Map};
use pbem_judge::roads_boats::order_text::{Parsed, parse};
use pbem_judge::roads_boats::player::Colour;
use pbem_judge::roads_boats::state::{Phase, State};

/// The places and pieces the example lines name: red's transporters on a real map.
struct Names {
    hex: String,
    next: String,
    own: String,
    other: String,
}

fn names(s: &State) -> Names {
    // A land tile not split by a river (its hex names its one area), and a neighbour
    // of the same kind.
    let whole = |h: Hex| s.map.is_land(h) && s.map.areas(h).len() == 1;
    let (hex, next) = s
        .map
        .tiles
        .keys()
        .copied()
        .filter(|h| whole(*h))
        .find_map(|h| {
            s.map
                .neighbours(h)
                .map(|(_, n)| n)
                .find(|n| whole(*n))
                .map(|n| (h, n))
        })
        .expect("two neighbouring whole land tiles");
    let mine: Vec<String> = s
        .transporters_of(Colour::Red)
        .map(|(id, _)| id.to_string())
        .collect();
    Names {
        hex: hex.to_string(),
        next: next.to_string(),
        own: mine[0].clone(),
        other: mine[1].clone(),
    }
}

/// A valid line of every kind of order, by phase: the base game's and every module's.
/// `{h}`, `{n}`: two neighbouring tiles; `{t}`, `{u}`: two of red's transporters.
pub const VALID: &[(Phase, &str)] = &[
    (Phase::Production, "make 2 boards at {h} from {t}"),
    (Phase::Production, "make wagon at {h}"),
    (
        Phase::Production,
        "make 1 fuel at {h} from {t} using boards",
    ),
    (Phase::Production, "make 1 carving at {h} from {t}"),
    (Phase::Production, "load {t} 2 boards"),
    (Phase::Production, "unload {t} 1 stone at {h}"),
    (Phase::Production, "give {t} 1 board to {u}"),
    (Phase::Production, "give 1 stone from {t} to {u}"),
    (Phase::Production, "carry {u} on {t}"),
    (Phase::Production, "research rowboat-factory with {t}"),
    (Phase::Production, "research fundamental-research with {t}"),
    (Phase::Production, "upgrade {h} to rowboat-factory"),
    (Phase::Production, "destroy {t}"),
    (Phase::Production, "breed {h}"),
    (Phase::Production, "no breed {h}"),
    (Phase::Production, "no breed"),
    (Phase::Production, "accept goods from yellow"),
    (Phase::Production, "accept 2 boards from anyone on {t}"),
    (Phase::Production, "offer {t} to yellow"),
    (Phase::Production, "offer 1 board from {t} to yellow"),
    (Phase::Production, "allow yellow to carry {t}"),
    (Phase::Production, "fire {h} with {t}"),
    (Phase::Production, "fire {h} with {t} using trunks"),
    (Phase::Production, "manage {h} with {t}"),
    (
        Phase::Movement,
        "move {t}: load 2 boards; {h}; unload 1 board",
    ),
    (
        Phase::Movement,
        "move {t}: give 1 board to {u}; carry {u}; {n}",
    ),
    (
        Phase::Movement,
        "fly P1: load 1 stone; follow 2 geese; drop 1 stone on {h}; land {n}",
    ),
    (
        Phase::Movement,
        "train {t} to {n} fare stone from cargo; follow 1 goose",
    ),
    (Phase::Movement, "release {u} from {t} at {h}"),
    (Phase::Movement, "accept goods from yellow"),
    (Phase::Movement, "allow anyone to carry {t}"),
    (Phase::Building, "build sawmill at {h} with {t}"),
    (Phase::Building, "build mine at {h} mixture 3/3 with {t}"),
    (Phase::Building, "road {h} {n} with {t}"),
    (Phase::Building, "bridge {h} with {t}"),
    (Phase::Building, "bridge {h} over N with {t}"),
    (Phase::Building, "wall {h}-{n} tokens 2 with {t}"),
    (Phase::Building, "demolish {h}-{n} with {t}"),
    (Phase::Building, "shaft {h} 3/3 with {t}"),
    (Phase::Building, "bomb {h} with {t}"),
    (Phase::Building, "bomb-proof {h} with {t}"),
    (Phase::Building, "offer 1 stone from {t} to yellow"),
    (Phase::Building, "power line {h} {n} with {t}"),
    (Phase::Wonder, "bricks 2 paying 1 board, 2 stone"),
    (Phase::Wonder, "move order 1, 2"),
    (Phase::Wonder, "trade 2 boards for 1 gold with yellow"),
    (Phase::Wonder, "trade nothing for gold with yellow"),
    (Phase::Wonder, "load {t} 2 boards"),
];

/// Sign-offs and greetings as people write them.
const CLOSINGS: &[&str] = &[
    "Best,\nCy",
    "Cheers,\nCy",
    "Thanks!\nAnn",
    "Best regards, Cy",
    "Thanks,\nBob",
    "All the best,\nWill",
    "So long, and thanks\nMike",
    "Kind regards,\n\nJo",
    "Have a good game!",
    "See you next turn.",
    "Good luck everyone",
    "Take care,\nGuy",
    // With numbers: a digit alone makes no order (the greetings' regression).
    "Sent from my iPhone 15",
    "Best,\nCy\n\nSent from my iPhone 15",
    "See you in turn 6!",
    "Cheers, Ann (back on the 3rd)",
    "Thanks!\nAnn, 2 days late, sorry",
    "Sent from my Pixel 8 Pro",
];

/// Greetings before the first heading as people write them, many with a number: none
/// is ever reported (docs/orders.md, "A mail is a letter").
const GREETINGS: &[&str] = &[
    "Hello judge,",
    "Here are my orders:",
    "Orders for turn 5:",
    "Hi all, here are my turn 12 orders",
    "Sent from my iPhone 15",
    "Hi judge, my orders for round 3 follow.",
    "Happy new year 2027!",
    "Here is turn 7, finally!",
    "Sorry, 2 days late: I was away for 1 week.",
    "Hello! Back at 10:30, orders below.",
    "My 1st game, be kind (turn 4 of 20)",
    "Re: turn 11",
    "Good morning! 3 more turns to go.",
    "Dear GM, 2nd try for turn 8:",
];

fn fill(line: &str, n: &Names) -> String {
    line.replace("{h}", &n.hex)
        .replace("{n}", &n.next)
        .replace("{t}", &n.own)
        .replace("{u}", &n.other)
}

fn heading(p: Phase) -> &'static str {
    match p {
        Phase::Production => "production",
        Phase::Movement => "movement",
        Phase::Building => "building",
        _ => "wonder",
    }
}

/// One mutation of a valid line.
#[derive(Clone, Debug)]
enum Mutation {
    /// The nth word (by whitespace) left out.
    Drop(usize),
    /// The verb with one letter changed (at, to), left out, added, or two swapped.
    Change(usize, char),
    Delete(usize),
    Insert(usize, char),
    Swap(usize),
    /// The line under another phase's heading (the nth other).
    Phase(usize),
}

fn mutate(line: &str, m: &Mutation) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let verb: Vec<char> = words[0].chars().collect();
    let with_verb = |v: Vec<char>| {
        let mut w = words.clone();
        let v: String = v.into_iter().collect();
        w[0] = &v;
        w.join(" ")
    };
    match *m {
        Mutation::Drop(i) => {
            let i = i % words.len();
            let mut w = words.clone();
            w.remove(i);
            w.join(" ")
        }
        Mutation::Change(i, c) => {
            let mut v = verb.clone();
            let i = i % v.len();
            v[i] = if v[i] == c { 'q' } else { c };
            with_verb(v)
        }
        Mutation::Delete(i) => {
            let mut v = verb.clone();
            v.remove(i % v.len());
            with_verb(v)
        }
        Mutation::Insert(i, c) => {
            let mut v = verb.clone();
            v.insert(i % (v.len() + 1), c);
            with_verb(v)
        }
        Mutation::Swap(i) => {
            let mut v = verb.clone();
            if v.len() > 1 {
                let i = i % (v.len() - 1);
                v.swap(i, i + 1);
            }
            with_verb(v)
        }
        Mutation::Phase(_) => line.to_string(),
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let letter = proptest::char::range('a', 'z');
    prop_oneof![
        (0usize..12).prop_map(Mutation::Drop),
        (0usize..12, letter.clone()).prop_map(|(i, c)| Mutation::Change(i, c)),
        (0usize..12).prop_map(Mutation::Delete),
        (0usize..12, letter).prop_map(|(i, c)| Mutation::Insert(i, c)),
        (0usize..12).prop_map(Mutation::Swap),
        (0usize..3).prop_map(Mutation::Phase),
    ]
}

/// Where the mutated line stands: alone under its heading, first of several, last of
/// several (then perhaps a sign-off after it), or before any heading.
#[derive(Clone, Copy, Debug)]
enum Place {
    Alone,
    First,
    Last,
    NoHeading,
}

/// The byte range of line `no` (from 1) and of the lines it runs on to.
fn region(text: &str, no: u32) -> std::ops::Range<usize> {
    let mut start = 0;
    let mut out = None;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        let n = i as u32 + 1;
        let body = l.trim_end_matches(['\n', '\r']).trim_end();
        match &mut out {
            None if n == no => {
                out = Some(start..start + body.len());
                if !(body.ends_with(',') || body.ends_with(';') || body.ends_with('\\')) {
                    break;
                }
            }
            Some(r) => {
                if body.is_empty() {
                    start += l.len();
                    continue;
                }
                r.end = start + body.len();
                if !(body.ends_with(',') || body.ends_with(';') || body.ends_with('\\')) {
                    break;
                }
            }
            None => {}
        }
        start += l.len();
    }
    out.expect("the line")
}

/// Does line `no` of `text` become an order or appear in a diagnostic?
fn heard(parsed: &Parsed, text: &str, no: u32) -> bool {
    let r = region(text, no);
    parsed.lines.iter().any(|(l, _)| *l == no)
        || parsed.problems.iter().any(|d| {
            d.span
                .as_ref()
                .is_some_and(|s| s.start <= r.end && s.end >= r.start)
        })
}

fn state() -> &'static State {
    static S: std::sync::OnceLock<State> = std::sync::OnceLock::new();
    // Every module in play (rich_state), on a map with rivers.
    S.get_or_init(|| support::rich_state("two-rivers", 3, 6))
}

/// Build the file: a header, the mutated line placed as asked among valid lines of its
/// phase, and perhaps a closing after everything. Returns the text, the mutated line's
/// number and the first line of the closing.
fn file(
    kind: usize,
    m: &Mutation,
    place: Place,
    closing: Option<&str>,
    map: &Map,
) -> (String, u32, Option<u32>) {
    let _ = map;
    let n = names(state());
    let (phase, line) = VALID[kind];
    let line = fill(line, &n);
    let mutated = mutate(&line, m);
    let phase = match m {
        Mutation::Phase(k) => {
            let others: Vec<Phase> = [
                Phase::Production,
                Phase::Movement,
                Phase::Building,
                Phase::Wonder,
            ]
            .into_iter()
            .filter(|p| *p != phase)
            .collect();
            others[k % others.len()]
        }
        _ => phase,
    };
    // A valid order of the phase the line stands under, other than this one.
    let neighbour = VALID
        .iter()
        .find(|(p, l)| *p == phase && fill(l, &n) != line)
        .map(|(_, l)| fill(l, &n))
        .expect("another order of the phase");
    let mut lines: Vec<String> = vec!["game demo".into(), "player red".into(), "turn 1".into()];
    let at;
    match place {
        Place::NoHeading => {
            lines.push(mutated.clone());
            at = lines.len();
            lines.push(heading(phase).into());
            lines.push(neighbour);
        }
        Place::Alone => {
            lines.push(heading(phase).into());
            lines.push(mutated.clone());
            at = lines.len();
        }
        Place::First => {
            lines.push(heading(phase).into());
            lines.push(mutated.clone());
            at = lines.len();
            lines.push(neighbour);
        }
        Place::Last => {
            lines.push(heading(phase).into());
            lines.push(neighbour);
            lines.push(mutated.clone());
            at = lines.len();
        }
    }
    let mut closing_at = None;
    if let Some(c) = closing {
        lines.push(String::new());
        closing_at = Some(lines.len() as u32 + 1);
        lines.push(c.to_string());
    }
    let mut text = lines.join("\n");
    text.push('\n');
    (text, at as u32, closing_at)
}

proptest! {
    // At least 10,000 cases of greetings, as the property asks; set here, not left to the default.
    #![proptest_config(ProptestConfig { cases: 10_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// A mutated order is read or reported, never silent; and a
    /// closing after the last order is never reported.
    #[test]
    fn a_mutated_order_is_read_or_reported_and_a_closing_never_is(
        kind in 0..VALID.len(),
        m in mutation(),
        place in prop_oneof![Just(Place::Alone), Just(Place::First), Just(Place::Last), Just(Place::NoHeading)],
        closing in proptest::option::of(0..CLOSINGS.len()),
        greeting in proptest::option::of(0..GREETINGS.len()),
    ) {
        let s = state();
        let closing = closing.map(|i| CLOSINGS[i]);
        let (text, at, closing_at) = file(kind, &m, place, closing, &s.map);
        // A greeting above it all, before the header (which starts afresh after it).
        let greeting = greeting.map(|i| GREETINGS[i]);
        let (text, at, closing_at) = match greeting {
            Some(g) => (
                format!("{g}\n\n{text}"),
                at + 2,
                closing_at.map(|c| c + 2),
            ),
            None => (text, at, closing_at),
        };
        let parsed = parse(&text, &s.map);
        // A greeting, numbers and all, is never reported.
        if let Some(g) = greeting {
            let bad: Vec<_> = parsed
                .problems
                .iter()
                .filter(|d| d.span.as_ref().is_some_and(|s| s.start < g.len()))
                .collect();
            prop_assert!(bad.is_empty(), "the greeting is reported:\n{text}\n{bad:?}");
        }
        prop_assert!(
            heard(&parsed, &text, at),
            "line {at} vanished: neither read nor reported\n{text}\n{:?}",
            parsed.problems
        );
        // The mutated line may continue onto the closing (`move order 1,` then
        // `Best,`): then the closing is part of an order that does not read.
        let continued = region(&text, at).end > text.lines().take(at as usize).map(|l| l.len() + 1).sum::<usize>();
        if let Some(c) = closing_at && !continued {
            let from: usize = text.lines().take(c as usize - 1).map(|l| l.len() + 1).sum();
            let bad: Vec<_> = parsed
                .problems
                .iter()
                .filter(|d| d.span.as_ref().is_some_and(|s| s.end > from))
                .collect();
            prop_assert!(bad.is_empty(), "the closing is reported:\n{text}\n{bad:?}");
        }
    }
}

/// The slips found in play, with electricity and management on:
/// each is reported by `judge check`'s checker, also as the last line of the file.
#[test]
fn the_slips_found_in_play_are_reported() {
    use pbem_judge::roads_boats::check::{Expect, check};
    let s = state();
    let n = names(s);
    let me = Expect {
        player: Some(Colour::Red),
        game: None,
    };
    for (heading, slip) in [
        ("production", "fire {h} {t}"),
        ("production", "fir {h} with {t}"),
        ("production", "manage {h}"),
        ("production", "trade 1 gold to blue"),
        ("production", "power line {h} {n} with {t}"),
    ] {
        let slip = fill(slip, &n);
        let text = format!(
            "player red\nturn 1\n{heading}\nload {} 1 board\n{slip}\n",
            n.own
        );
        let c = check(s, &text, &me);
        let at = text.find(&slip).expect("the slip");
        assert!(
            c.diagnostics
                .iter()
                .any(|d| d.is_error() && d.span.as_ref().is_some_and(|r| r.start >= at)),
            "`{slip}` is reported:\n{}",
            pbem_judge::roads_boats::check::render_text(&c, "o.txt", &text)
        );
    }
}

/// The examples above cover the one list of order words — every
/// order of the base game and of every module, in its phase — so that an order a module
/// adds is in the property as soon as it is declared.
#[test]
fn every_order_of_every_module_has_a_valid_line_here() {
    use pbem_judge::roads_boats::order_words;
    for (phase, order) in order_words::all() {
        assert!(
            VALID
                .iter()
                .any(|(p, l)| *p == phase && (l.starts_with(&format!("{order} ")) || *l == order)),
            "no valid {phase} line for `{order}` in tests/roads_boats/order_words.rs"
        );
    }
    // And every line here is valid: it reads, and on this state `judge check` finds no
    // error in its syntax (the state may refuse what it does, not how it is written).
    let s = state();
    let n = names(s);
    for (phase, line) in VALID {
        let text = format!("{}\n{}\n", heading(*phase), fill(line, &n));
        let p = parse(&text, &s.map);
        assert!(p.problems.is_empty(), "{text}: {:?}", p.problems);
        assert_eq!(p.lines.len(), 1, "{text}");
    }
}

/// docs/orders.md shows every order of the one list in its phase's
/// table (or among the consents), so that the docs cannot drift from the reader either.
#[test]
fn docs_orders_shows_every_order_in_its_phase() {
    use pbem_judge::roads_boats::order_words;
    let doc = std::fs::read_to_string("docs/orders.md").expect("docs/orders.md");
    let section = |title: &str| -> String {
        let from = doc
            .find(&format!("\n## {title}\n"))
            .unwrap_or_else(|| panic!("## {title}"));
        let rest = &doc[from + 1..];
        let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
        rest[..end].to_string()
    };
    let consents = section("Consent between players");
    for (phase, order) in order_words::all() {
        let title = match phase {
            Phase::Production => "Production",
            Phase::Movement => "Movement",
            Phase::Building => "Building",
            _ => "Wonder",
        };
        let text = section(title);
        let shown = format!("`{order} ");
        assert!(
            text.contains(&shown) || consents.contains(&shown),
            "docs/orders.md, ## {title}, does not show `{order}`"
        );
    }
}

/// A two-line sign-off after the last order is left out, as
/// docs/orders.md promises; a misspelt order in the middle is still reported.
#[test]
fn a_two_line_sign_off_is_left_out() {
    let s = state();
    let n = names(s);
    for close in ["Best,\nCy", "Cheers,\nCy", "Best regards, Cy"] {
        let text = format!(
            "player red\nturn 1\nmovement\nmove {}: {}\n\n{close}\n",
            n.own, n.hex
        );
        let p = parse(&text, &s.map);
        assert!(p.problems.is_empty(), "{close:?}: {:?}", p.problems);
        assert_eq!(p.orders.movement.len(), 1);
        let text = format!(
            "player red\nturn 1\nmovement\nmvoe {}: {}\nmove {}: {}\n{close}\n",
            n.own, n.hex, n.other, n.hex
        );
        let p = parse(&text, &s.map);
        assert_eq!(p.problems.len(), 1, "{close:?}: {:?}", p.problems);
        assert!(p.problems[0].message.contains("mvoe"), "{:?}", p.problems);
    }
}

/// Through the mail path: an HTML mail whose sign-off is
/// `<p>Best,<br>Cy</p>` is read as lines, and the sign-off is left out.
#[test]
fn an_html_sign_off_through_the_mail_path_is_left_out() {
    let s = state();
    let n = names(s);
    let raw = format!(
        "From: Ann <ann@example.org>\r\nTo: judge@example.org\r\nSubject: orders\r\n\
         Message-ID: <html-sign-off@example.org>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/html; charset=utf-8\r\n\r\n\
         <html><body><p>player red<br>turn 1</p><p>movement<br>move {}: {}</p>\
         <p>Best,<br>Cy</p></body></html>\r\n",
        n.own, n.hex
    );
    let m = pbem_judge::mail::inbound::read(raw.as_bytes()).expect("a mail");
    let body = m.orders().expect("the orders");
    assert!(body.contains("Best,") && body.contains("Cy"), "{body:?}");
    let c = pbem_judge::roads_boats::check::check(
        s,
        &body,
        &pbem_judge::roads_boats::check::Expect {
            player: Some(Colour::Red),
            game: None,
        },
    );
    assert_eq!(c.errors(), 0, "{:?}\n{body}", c.diagnostics);
    assert_eq!(c.orders.movement.len(), 1, "{body}");
}

/// The greetings' regression: a greeting or sign-off with a number in it
/// ("Orders for turn 5:", "Sent from my iPhone 15") is left out, before the header,
/// between the header and the first heading, and after the last order, through `judge
/// check`'s checker; the same lines naming a place or a piece are still reported.
#[test]
fn a_greeting_or_sign_off_with_a_number_is_left_out() {
    use pbem_judge::roads_boats::check::{Expect, check, render_text};
    let s = state();
    let n = names(s);
    let me = Expect {
        player: Some(Colour::Red),
        game: None,
    };
    let order = format!("move {}: {}", n.own, n.hex);
    for g in GREETINGS.iter().chain(CLOSINGS) {
        for text in [
            format!("{g}\n\nplayer red\nturn 1\nmovement\n{order}\n"),
            format!("player red\nturn 1\n\n{g}\n\nmovement\n{order}\n"),
            format!("player red\nturn 1\nmovement\n{order}\n\n{g}\n"),
        ] {
            let c = check(s, &text, &me);
            assert_eq!(c.errors(), 0, "{}", render_text(&c, "o.txt", &text));
            assert_eq!(c.orders.movement.len(), 1, "{text}");
        }
    }
    // What makes a line order-like is a place or a piece, not a digit: each of these,
    // after the last order, is reported.
    for slip in [
        format!("mvoe {} to {}", n.other, n.next),
        format!("Thanks, and {} to {}", n.other, n.next),
        "2 boards for yellow".to_string(),
        "Sent 2 boards".to_string(),
        "see you at the sawmill in turn 6".to_string(),
        "yellow owes me 3".to_string(),
        "2 donkeys please".to_string(),
    ] {
        let text = format!("player red\nturn 1\nmovement\n{order}\n{slip}\n");
        let c = check(s, &text, &me);
        let at = text.find(&slip).expect("the slip");
        assert!(
            c.diagnostics
                .iter()
                .any(|d| d.is_error() && d.span.as_ref().is_some_and(|r| r.start >= at)),
            "`{slip}` is reported:\n{}",
            render_text(&c, "o.txt", &text)
        );
    }
}

/// The orders read, without the lines they stand on.
fn unnumbered(p: &Parsed) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("line");
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(&p.orders).expect("orders");
    strip(&mut v);
    v
}

/// A mail program that hard-wraps (Gmail's plain-text mode at 78
/// columns) may break any order at any space. Every valid order, broken at each of its
/// spaces, as the last order (with a sign-off below it after a blank line, or none) and
/// among others, reads as the same orders as unbroken, or is reported on its lines:
/// never read as other orders in silence (before: the tail of the last order, `on D8`,
/// could be left out as a sign-off, and the consent widened). And the sign-off is still
/// never an error.
#[test]
fn a_wrapped_order_reads_whole_or_is_reported_never_changed() {
    let s = state();
    let n = names(s);
    let mut joined = 0;
    for (k, (phase, line)) in VALID.iter().enumerate() {
        let line = fill(line, &n);
        let neighbour = VALID
            .iter()
            .find(|(p, l)| p == phase && fill(l, &n) != line)
            .map(|(_, l)| fill(l, &n))
            .expect("another order of the phase");
        let spaces: Vec<usize> = line.match_indices(' ').map(|(i, _)| i).collect();
        for (last, closing) in [
            (true, None),
            (true, Some(k % CLOSINGS.len())),
            (false, None),
        ] {
            let build = |order: &str| {
                let mut t = format!("game demo\nplayer red\nturn 1\n{}\n", heading(*phase));
                if last {
                    t.push_str(&format!("{neighbour}\n{order}\n"));
                } else {
                    t.push_str(&format!("{order}\n{neighbour}\n"));
                }
                if let Some(c) = closing {
                    t.push_str(&format!("\n{}\n", CLOSINGS[c]));
                }
                t
            };
            let whole = parse(&build(&line), &s.map);
            for &at in &spaces {
                let wrapped = format!("{}\n{}", &line[..at], &line[at + 1..]);
                let text = build(&wrapped);
                let parsed = parse(&text, &s.map);
                let first = if last { 6 } else { 5 };
                let (from, to) = (region(&text, first).start, region(&text, first + 1).end);
                let reported = parsed.problems.iter().any(|d| {
                    d.span
                        .as_ref()
                        .is_some_and(|sp| sp.start <= to && sp.end >= from)
                });
                if unnumbered(&parsed) == unnumbered(&whole) {
                    joined += 1;
                } else {
                    assert!(
                        reported,
                        "read as other orders in silence:\n{text}\n{:?}",
                        parsed.orders
                    );
                }
                if let Some(c) = closing {
                    let at_closing = text.len() - CLOSINGS[c].len() - 1;
                    assert!(
                        !parsed
                            .problems
                            .iter()
                            .any(|d| d.span.as_ref().is_some_and(|sp| sp.end > at_closing)),
                        "the sign-off is reported:\n{text}\n{:?}",
                        parsed.problems
                    );
                }
            }
        }
    }
    // Most breaks are read whole (the rest are errors: a break inside `move D1: C3` that
    // also reads as two orders is not joined).
    assert!(joined > 0);
}
