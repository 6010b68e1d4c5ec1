//! The order language, against the documented position tests/orders/position.toml
//! (and, for set-up mails, tests/orders/setup-position.toml): every example
//! (orders/examples, and every `orders` block of docs/orders.md) checks clean, and every malformed or illegal file under tests/orders/bad is refused with a
//! message naming its line and column (snapshots, reviewed).

use std::path::Path;

use pbem_judge::diagnostic::{Diagnostic, Diagnostics};
use pbem_judge::roads_boats::State;
use pbem_judge::roads_boats::check::{Expect, check};
use pbem_judge::roads_boats::order_text;
use pbem_judge::roads_boats::scenario::{Scenario, Seat};
use pbem_judge::roads_boats::setup::Setup;

fn position() -> State {
    let text = std::fs::read_to_string("tests/orders/position.toml").expect("position");
    let s = Scenario::parse("tests/orders/position.toml", &text).unwrap_or_else(|d| panic!("{d}"));
    let seats = [("Red", "red@example.org"), ("Yellow", "yellow@example.org")].map(|(n, e)| Seat {
        name: n.to_string(),
        email: e.to_string(),
    });
    s.start(&seats, &pbem_judge::luck::Luck::predictable(1))
        .expect("start")
}

/// The set-up round of a game made from tests/orders/setup-position.toml: the same
/// map, players choosing their homes, red first.
fn setup_position() -> Setup {
    let text = std::fs::read_to_string("tests/orders/setup-position.toml").expect("position");
    let s = Scenario::parse("tests/orders/setup-position.toml", &text)
        .unwrap_or_else(|d| panic!("{d}"));
    let seats = [("Red", "red@example.org"), ("Yellow", "yellow@example.org")].map(|(n, e)| Seat {
        name: n.to_string(),
        email: e.to_string(),
    });
    s.start_setup(&seats, &pbem_judge::luck::Luck::predictable(1))
        .expect("set-up")
}

/// The jumpstart auction of a game made from tests/orders/auction-position.toml, its
/// first bidder to bid.
fn auction_position() -> pbem_judge::roads_boats::modules::jumpstart::Auction {
    let text = std::fs::read_to_string("tests/orders/auction-position.toml").expect("position");
    let s = Scenario::parse("tests/orders/auction-position.toml", &text)
        .unwrap_or_else(|d| panic!("{d}"));
    let seats = [("Red", "red@example.org"), ("Yellow", "yellow@example.org")].map(|(n, e)| Seat {
        name: n.to_string(),
        email: e.to_string(),
    });
    s.start_auction(&seats, &pbem_judge::luck::Luck::predictable(1))
        .expect("auction")
}

/// Check an example: a set-up mail (it has a `home` line) against the set-up round, any
/// other file against the turn position. Returns its problems and whether it did
/// anything (an order echoed, or a home chosen).
fn check_example(state: &State, setup: &Setup, text: &str) -> (Vec<Diagnostic>, bool) {
    if order_text::parse(text, &setup.state.map).bid.is_some() {
        let c = auction_position().check(text, &expect());
        let bid = c.bid.is_some();
        (c.diagnostics, bid)
    } else if order_text::parse(text, &setup.state.map).home.is_some() {
        let c = setup.check(text, &expect());
        let chose = c.home.is_some();
        (c.diagnostics, chose)
    } else {
        let c = check(state, text, &expect());
        let did = !c.echo.is_empty();
        (c.diagnostics, did)
    }
}

fn expect() -> Expect<'static> {
    Expect {
        player: None,
        game: Some("og"),
    }
}

fn files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .expect(dir)
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    v.sort();
    v
}

fn render(name: &str, text: &str, diags: Vec<pbem_judge::diagnostic::Diagnostic>) -> String {
    Diagnostics {
        file: name.to_string(),
        source: text.to_string(),
        items: diags,
    }
    .render()
}

#[test]
fn every_example_checks_clean() {
    let state = position();
    let setup = setup_position();
    let examples = files("orders/examples");
    assert!(examples.len() >= 30, "{} examples", examples.len());
    for f in examples {
        let bytes = std::fs::read(&f).expect("read");
        let text = String::from_utf8_lossy(&bytes);
        let (diagnostics, did) = check_example(&state, &setup, &text);
        assert!(
            diagnostics.is_empty(),
            "{}:\n{}",
            f.display(),
            render(&f.display().to_string(), &text, diagnostics.clone())
        );
        assert!(did, "{}: no orders", f.display());
    }
}

#[test]
fn every_malformed_or_illegal_file_is_refused_at_its_line_and_column() {
    let state = position();
    let bad = files("tests/orders/bad");
    assert!(bad.len() >= 40, "{} bad files", bad.len());
    for f in bad {
        let name = format!(
            "tests/orders/bad/{}",
            f.file_name().and_then(|n| n.to_str()).unwrap_or("?")
        );
        let bytes = std::fs::read(&f).expect("read");
        let text = String::from_utf8_lossy(&bytes);
        let c = check(&state, &text, &expect());
        assert!(c.errors() > 0, "{name} should be refused");
        let out = render(&name, &text, c.diagnostics.clone());
        assert!(
            out.contains(&format!("--> {name}:")),
            "{name}: no line and column:\n{out}"
        );
        let snap = Path::new(&name)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_string();
        insta::assert_snapshot!(format!("bad-{snap}"), out);
    }
}

/// Every example shown in docs/orders.md (```orders blocks) checks clean, and every file
/// in orders/examples is shown there.
#[test]
fn the_examples_in_the_docs_check_clean() {
    let state = position();
    let doc = std::fs::read_to_string("docs/orders.md").expect("docs");
    let mut blocks = Vec::new();
    let mut rest = doc.as_str();
    while let Some(i) = rest.find("```orders\n") {
        let body = &rest[i + "```orders\n".len()..];
        let end = body.find("```").expect("closed block");
        blocks.push(body[..end].to_string());
        rest = &body[end..];
    }
    assert!(blocks.len() >= 30, "{} examples in the docs", blocks.len());
    let setup = setup_position();
    for b in &blocks {
        let (diagnostics, _) = check_example(&state, &setup, b);
        assert!(
            diagnostics.is_empty(),
            "docs example:\n{b}\n{}",
            render("docs/orders.md", b, diagnostics.clone())
        );
    }
    for f in files("orders/examples") {
        let text = std::fs::read_to_string(&f)
            .unwrap_or_default()
            .replace("\r\n", "\n");
        if text.contains('\r') || !text.is_ascii() && text.contains('\u{a0}') {
            continue; // shown in the docs in words: invisible bytes do not survive Markdown
        }
        assert!(
            blocks.iter().any(|b| b == &text),
            "{} is not shown in docs/orders.md",
            f.display()
        );
    }
}

/// Players wrote `move D1: C3` and `build quarry at D3 with D2` without the
/// `movement` / `building` lines. An order word of one phase only says its phase: the
/// order is read there (and the echo says so); a word of several phases asks for the
/// heading; a word of another phase under a heading is named as that phase's, never
/// "did you mean" itself.
#[test]
fn an_order_word_of_one_phase_needs_no_heading() {
    let s = position();
    let text =
        "game og\nplayer red\nturn 1\nmove D1: load 1 board; C3\nbuild woodcutter at C3 with D1\n";
    let parsed = order_text::parse(text, &s.map);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    assert_eq!(parsed.orders.movement.len(), 1);
    assert_eq!(parsed.orders.building.len(), 1);
    let c = check(&s, text, &expect());
    let echo: Vec<&str> = c.echo.iter().map(|e| e.order.as_str()).collect();
    assert!(
        echo.iter()
            .any(|e| e.ends_with("(no heading above it: read as a movement order)")),
        "{echo:?}"
    );
    // `load` belongs to production and the wonder phase: it needs a heading.
    let parsed = order_text::parse("load D2 2 boards\n", &s.map);
    let d = &parsed.problems[0];
    assert!(
        d.message
            .contains("an order of the production and wonder phases"),
        "{}",
        d.message
    );
    // Under the movement heading, `build` is named as a building order.
    let parsed = order_text::parse("movement\nbuild quarry at D3 with D2\n", &s.map);
    let help = parsed.problems[0].help.clone().unwrap_or_default();
    assert!(help.contains("`build` is a building order"), "{help}");
    assert!(!help.contains("did you mean `build`"), "{help}");
}
