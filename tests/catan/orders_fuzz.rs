//! Catan orders come from strangers' mail: whatever bytes arrive, checking and playing
//! them never panics, and every diagnostic points inside the file.

use std::collections::BTreeMap;

use pbem_judge::catan::{Colour, Options, State, check_orders, new_game, play};
use proptest::prelude::*;

const VALID: &str = "game demo\nplayer red\nturn 9\nfounding\nsettlement 13 road 13-18\n\
before roll\nplay knight robber E rob blue\nturn\nif rolled 6 or 8: build city 13\n\
build road 13-18 or settlement 23\nif I have 3 ore and not rolled 7: buy 2 development cards\n\
trade 4 wood for ore\noffer 1 wool, 1 grain for 2 ore to blue\nplay year of plenty ore, wool\n\
play road building 18-23, 23-29\nplay monopoly wool\nif I can: end\nrobber K rob white, blue\n\
discard 2 ore, wool\naccept 1 wool for 1 ore 2 times from blue\nbetween turns\nbuild settlement 40\n";

fn state(seed: u64) -> State {
    let names: Vec<String> = ["Ann", "Bob", "Cy", "Di"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut s = new_game("demo", &names, seed, &Options::default()).expect("game");
    for _ in 0..(seed % 10) {
        s = play(&s, &BTreeMap::new()).state;
    }
    s
}

fn spans_inside(text: &str, c: &pbem_judge::catan::Checked) -> Result<(), TestCaseError> {
    for d in &c.diagnostics.items {
        if let Some(s) = &d.span {
            prop_assert!(
                s.start <= s.end && s.end <= text.len() + 1,
                "span {:?} in {} bytes",
                s,
                text.len()
            );
        }
    }
    let _ = c.diagnostics.render();
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600), seed in 0u64..40) {
        let s = state(seed);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let c = check_orders(&s, Colour::Red, "orders.txt", &text);
        spans_inside(&text, &c)?;
        let _ = play(&s, &[(Colour::Red, text.clone()), (Colour::Blue, text)].into());
    }

    #[test]
    fn random_unicode_never_panics(text in "\\PC{0,400}", seed in 0u64..40) {
        let s = state(seed);
        let c = check_orders(&s, Colour::Blue, "orders.txt", &text);
        spans_inside(&text, &c)?;
        let _ = play(&s, &[(Colour::Blue, text)].into());
    }

    /// Delete, insert or replace characters anywhere in a valid file.
    #[test]
    fn mutations_of_valid_orders_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<char>()), 1..12),
        seed in 0u64..40,
    ) {
        let s = state(seed);
        let mut text: Vec<char> = VALID.chars().collect();
        for (at, op, ch) in edits {
            let i = at.index(text.len().max(1)).min(text.len());
            match op {
                0 if i < text.len() => { text.remove(i); }
                1 => text.insert(i, ch),
                _ if i < text.len() => text[i] = ch,
                _ => {}
            }
        }
        let text: String = text.into_iter().collect();
        let c = check_orders(&s, Colour::Red, "orders.txt", &text);
        spans_inside(&text, &c)?;
        let active = s.players[s.actor() as usize].colour;
        let _ = play(&s, &[(active, text)].into());
    }
}

/// The valid file reads without errors.
#[test]
fn the_valid_file_reads_clean() {
    let s = state(0);
    let c = check_orders(&s, Colour::Red, "orders.txt", VALID);
    assert_eq!(c.errors(), 0, "{}", c.diagnostics.render());
    assert_eq!(c.echo.len(), 15, "{:?}", c.echo);
}

/// Typos get a did-you-mean, with line and column.
#[test]
fn misspelt_words_get_suggestions() {
    let s = state(0);
    let c = check_orders(
        &s,
        Colour::Red,
        "orders.txt",
        "build road 13-18\nbuidl city 13\ntrade 4 wod for ore\nplay monopol wool\noffer 1 wool for 1 ore to bleu\n",
    );
    let text = c.diagnostics.render();
    assert_eq!(c.errors(), 4, "{text}");
    for want in [
        "did you mean `build`?",
        "did you mean `wood`?",
        "did you mean `monopoly`?",
        "did you mean `blue`?",
        "orders.txt:2:1",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

/// Every example in orders/examples/catan reads without errors (docs/catan-orders.md).
#[test]
fn the_examples_check_clean() {
    let s = state(0);
    let mut n = 0;
    for e in std::fs::read_dir("orders/examples/catan").expect("examples") {
        let p = e.expect("entry").path();
        let text = std::fs::read_to_string(&p).expect("readable");
        let who = if text.contains("player blue") {
            Colour::Blue
        } else {
            Colour::Red
        };
        let c = check_orders(&s, who, &p.display().to_string(), &text);
        assert_eq!(c.errors(), 0, "{}", c.diagnostics.render());
        assert!(!c.echo.is_empty());
        n += 1;
    }
    assert!(n >= 3);
}

/// docs/catan-orders.md, "Names": a mail is a letter. A greeting before the orders and a
/// sign-off after them are not mistakes; a line of prose between two orders still is,
/// and a misspelt order word is never taken for prose.
#[test]
fn a_greeting_and_a_sign_off_are_not_errors() {
    let s = state(0);
    let c = check_orders(
        &s,
        Colour::Red,
        "orders.txt",
        "Hello judge,\n\ngame demo\nplayer red\nturn 9\nbuild road 13-18\n\nThanks!\nAnn\n",
    );
    assert_eq!(c.errors(), 0, "{}", c.diagnostics.render());
    assert_eq!(c.echo.len(), 1, "{:?}", c.echo);

    let c = check_orders(
        &s,
        Colour::Red,
        "orders.txt",
        "Hi,\nbuild road 13-18\nplease also the city\nbuild city 13\nCheers\n",
    );
    let text = c.diagnostics.render();
    assert_eq!(c.errors(), 1, "{text}");
    assert!(text.contains("orders.txt:3:1"), "{text}");

    let c = check_orders(&s, Colour::Red, "orders.txt", "Hi,\nbuidl city 13\n");
    let text = c.diagnostics.render();
    assert_eq!(c.errors(), 1, "{text}");
    assert!(text.contains("did you mean `build`?"), "{text}");
}

/// Every example in the docs and in a hint is checked. Each block of orders in
/// docs/catan-orders.md and docs/catan-express-orders.md reads without errors against a
/// game of its kind (the beginners' board; the Express island).
#[test]
fn every_order_example_in_the_docs_checks_clean() {
    use pbem_judge::catan::board::layout::Layout;
    use pbem_judge::catan::express::{self, Map};
    let names: Vec<String> = ["Ann", "Bob", "Cy", "Di"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let base = new_game(
        "spring-catan",
        &names,
        1,
        &Options {
            layout: Layout::Beginner,
            ..Options::default()
        },
    )
    .expect("game");
    let island =
        express::new_game("spring-catan", &names, 1, Map::Island, Layout::Beginner).expect("game");
    let mut n = 0;
    for (doc, s) in [
        ("docs/catan-orders.md", &base),
        ("docs/catan-express-orders.md", &island),
    ] {
        let text = std::fs::read_to_string(doc).expect("doc");
        // Blocks of orders are fenced with a bare ```; others (```text: a terminal,
        // ```toml) are not orders.
        let mut blocks: Vec<String> = Vec::new();
        let mut open: Option<(bool, String)> = None;
        for line in text.lines() {
            match (&mut open, line.strip_prefix("```")) {
                (None, Some(info)) => open = Some((info.trim().is_empty(), String::new())),
                (Some((orders, block)), Some(_)) => {
                    if *orders {
                        blocks.push(std::mem::take(block));
                    }
                    open = None;
                }
                (Some((_, block)), None) => {
                    block.push_str(line);
                    block.push('\n');
                }
                (None, None) => {}
            }
        }
        assert!(open.is_none(), "{doc}: a block is not closed");
        for block in &blocks {
            let c = check_orders(s, Colour::Red, doc, block);
            assert_eq!(c.errors(), 0, "{doc}:\n{block}\n{}", c.diagnostics.render());
            n += 1;
        }
    }
    assert!(n >= 10, "{n} examples");
}

/// The hint for a founding file without a placement names a real place and a
/// real road (it once suggested `road 12-13`, not an edge): the line it suggests checks
/// clean and is played as written.
#[test]
fn the_founding_hint_suggests_a_placement_that_can_be_made() {
    use pbem_judge::catan::board::layout::Layout;
    use pbem_judge::catan::express::{self, Map};
    let names: Vec<String> = ["Ann", "Bob", "Cy", "Di"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for seed in 0..20u64 {
        let mut games = vec![new_game("g", &names, seed, &Options::default()).expect("game")];
        let mut x =
            express::new_game("g", &names, seed, Map::Island, Layout::Random).expect("game");
        games.push(x.clone());
        // An Express second placement: its hint names a rail line too.
        for _ in 0..4 {
            x = play(&x, &BTreeMap::new()).state;
        }
        games.push(x);
        for s in games {
            let who = s.colour(s.actor());
            let c = check_orders(&s, who, "orders.txt", "turn\nbuy card\n");
            let warning = c.diagnostics.render();
            let hint = warning
                .split("write `")
                .nth(1)
                .and_then(|h| h.split('`').next())
                .unwrap_or_else(|| panic!("a hint: {warning}"));
            let file = format!("founding\n{hint}\n");
            let c = check_orders(&s, who, "orders.txt", &file);
            assert_eq!(
                c.diagnostics.items.len(),
                0,
                "{hint}: {}",
                c.diagnostics.render()
            );
            let out = play(&s, &BTreeMap::from([(who, file.clone())]));
            assert!(
                out.events.iter().all(|e| !matches!(
                    e,
                    pbem_judge::catan::Event::Failed { .. }
                        | pbem_judge::catan::Event::Default { .. }
                )),
                "{hint}: {:?}",
                out.events
            );
        }
    }
}
