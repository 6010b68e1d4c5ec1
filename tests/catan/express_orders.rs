//! Catan Express orders come from strangers' mail: whatever bytes arrive, checking and
//! playing them never panics and every diagnostic points inside the file; the order
//! examples check clean; misspellings and misplaced pieces get useful diagnostics.

use std::collections::BTreeMap;

use pbem_judge::catan::board::layout::Layout;
use pbem_judge::catan::express::{self, Map};
use pbem_judge::catan::rng::Rng;
use pbem_judge::catan::{Checked, Colour, State, check_orders, play};
use proptest::prelude::*;

const VALID: &str = "game demo\nplayer red\nfounding\nsettlement 13\nsettlement 38 line I\n\
stopover 44, 9\nfares grain, to white\nbefore roll\nplay knight robber K rob blue\nturn\n\
if rolled 6 or 8: line 16-I\nferry 16-24 or ferry 17-24\nif I have 1 wood, 1 ore: line 17-D\n\
play road building line 30-I, ferry 31-39\nbuy card\nmove to tower paying ore, to blue\n\
move I 31 24\nrobber K rob white\ndiscard ore\naccept 1 wool for 1 ore\nbetween turns\n\
line 30-N\nferry 38-45\n";

fn names(n: usize) -> Vec<String> {
    ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][..n]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// A game on `map` after `steps` random legal actions (any phase: founding, the turn, a
/// race with locomotives moving).
fn state(map: Map, players: usize, seed: u64, steps: usize) -> State {
    let mut s =
        express::new_game("demo", &names(players), seed, map, Layout::Beginner).expect("a game");
    let mut r = Rng::new(seed);
    let mut acts = Vec::new();
    for _ in 0..steps {
        s.legal_actions(&mut acts);
        if acts.is_empty() {
            break;
        }
        let a = acts[r.below(acts.len() as u32) as usize];
        s.execute(a, &mut ());
    }
    s
}

fn any_state(seed: u64) -> State {
    let map = if seed.is_multiple_of(2) {
        Map::Island
    } else {
        Map::Beyond
    };
    let players = 3 + (seed % 4) as usize;
    state(map, players, seed, (seed as usize * 137) % 3000)
}

fn spans_inside(text: &str, c: &Checked) -> Result<(), TestCaseError> {
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
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600), seed in 0u64..60) {
        let s = any_state(seed);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let c = check_orders(&s, Colour::Red, "orders.txt", &text);
        spans_inside(&text, &c)?;
        let active = s.players[s.actor() as usize].colour;
        let _ = play(&s, &[(Colour::Red, text.clone()), (active, text)].into());
    }

    #[test]
    fn random_unicode_never_panics(text in "\\PC{0,400}", seed in 0u64..60) {
        let s = any_state(seed);
        let c = check_orders(&s, Colour::Blue, "orders.txt", &text);
        spans_inside(&text, &c)?;
        let _ = play(&s, &[(Colour::Blue, text)].into());
    }

    /// Delete, insert or replace characters anywhere in a valid file, and play it for the
    /// player to move, in any state of a game (the race included).
    #[test]
    fn mutations_of_valid_orders_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<char>()), 0..12),
        seed in 0u64..60,
    ) {
        let s = any_state(seed);
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
        let out = play(&s, &[(active, text)].into());
        // Whatever was written, the state stays readable.
        let back = State::from_json(&out.state.to_json()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back.to_json(), out.state.to_json());
    }
}

/// The valid file reads without errors on the island.
#[test]
fn the_valid_file_reads_clean() {
    let s = state(Map::Island, 4, 1, 0);
    let c = check_orders(&s, Colour::Red, "orders.txt", VALID);
    assert_eq!(c.errors(), 0, "{}", c.diagnostics.render());
    assert_eq!(c.echo.len(), 17, "{:?}", c.echo);
}

/// Every example in orders/examples/catan-express reads without errors
/// (docs/catan-express-orders.md); `beyond` examples against a game beyond the island.
#[test]
fn the_examples_check_clean() {
    let island = state(Map::Island, 4, 1, 0);
    let beyond = state(Map::Beyond, 4, 1, 0);
    let mut n = 0;
    for e in std::fs::read_dir("orders/examples/catan-express").expect("examples") {
        let p = e.expect("entry").path();
        let text = std::fs::read_to_string(&p).expect("readable");
        let who = if text.contains("player blue") {
            Colour::Blue
        } else {
            Colour::Red
        };
        let s = if p.display().to_string().contains("beyond") {
            &beyond
        } else {
            &island
        };
        let c = check_orders(s, who, &p.display().to_string(), &text);
        assert_eq!(c.errors(), 0, "{}", c.diagnostics.render());
        assert!(!c.echo.is_empty());
        n += 1;
    }
    assert!(n >= 5);
}

fn errors_of(s: &State, text: &str) -> String {
    let c = check_orders(s, Colour::Red, "red.txt", text);
    c.diagnostics.render()
}

/// Catan Express, Building Phase: "Players may not build Roads as in the basic game" —
/// roads are refused when read, in the founding too.
#[test]
fn roads_are_refused_when_read() {
    let s = state(Map::Island, 4, 1, 0);
    for text in [
        "road 13-14\n",
        "build road 13-14\n",
        "founding\nsettlement 38 road 38-45\n",
    ] {
        let out = errors_of(&s, text);
        assert!(out.contains("Catan Express has no roads"), "{text}: {out}");
        assert!(out.contains("line 13-F"), "{out}");
    }
}

/// Catan Express, Building Rail Lines: lines run from a vertex to a hex centre, never
/// along the edges; ferries lie at sea or on the coast. A misplaced piece reads, and is
/// refused with its reason when played (RULINGS R1): `judge check` warns of it,
/// with how to write it, and the file has no error.
#[test]
fn misplaced_pieces_get_diagnostics() {
    let s = state(Map::Island, 4, 1, 0);
    let warned = |s: &State, text: &str| {
        let c = check_orders(s, Colour::Red, "red.txt", text);
        let out = c.diagnostics.render();
        assert_eq!(c.errors(), 0, "{text}: {out}");
        assert!(
            out.contains("will be refused when played") || out.contains("cannot be built"),
            "{out}"
        );
        out
    };
    let out = warned(&s, "line 29-36\n");
    assert!(
        out.contains("a rail line runs from a vertex to the centre of one of its land hexes"),
        "{out}"
    );
    assert!(
        out.contains("vertex to the centre of a land hex it touches, like 13-F"),
        "{out}"
    );
    // A coastal edge is a place for a ferry.
    let out = warned(&s, "line 38-45\n");
    assert!(
        out.contains("that is a place for a ferry, not a rail line"),
        "{out}"
    );
    assert!(out.contains("write `ferry` and the same place"), "{out}");
    let out = warned(&s, "ferry 38-I\n");
    assert!(
        out.contains("that is a place for a rail line, not a ferry"),
        "{out}"
    );
    assert!(out.contains("write `line` and the same place"), "{out}");
    let out = warned(&s, "line 38-Q\n");
    assert!(out.contains("a rail line runs from a vertex"), "{out}");
    let out = warned(&s, "founding\nsettlement 38 line Q\n");
    assert!(
        out.contains("the rail line named here cannot be built"),
        "{out}"
    );
    assert!(out.contains("its hexes: I, N"), "{out}");
    let beyond = state(Map::Beyond, 4, 1, 0);
    let out = warned(&beyond, "ferry 39-44\n");
    assert!(out.contains("centre of a sea hex"), "{out}");
    // A name that is no place at all still does not read.
    let out = errors_of(&s, "line 29-ZZ\n");
    assert!(out.contains("is not a vertex or a hex"), "{out}");
}

/// Movement follows the building phase and ends the turn: a move before the roll or in
/// the special building phase is refused when read (RULINGS R9: no movement there).
#[test]
fn moves_only_in_the_turn() {
    let s = state(Map::Island, 5, 1, 0);
    let out = errors_of(&s, "before roll\nmove to tower\n");
    assert!(
        out.contains("before the roll only a development card"),
        "{out}"
    );
    let out = errors_of(&s, "between turns\nmove to tower\n");
    assert!(out.contains("only build and buy"), "{out}");
}

/// Typos get a did-you-mean, with line and column.
#[test]
fn misspelt_words_get_suggestions() {
    let s = state(Map::Island, 4, 1, 0);
    let out = errors_of(
        &s,
        "line 38-I\nfery 16-24\nmove to 24 paying wol\nstopover 44\nbuild lin 38-I\nmove to 24 paying bleu\n",
    );
    for want in [
        "red.txt:2:1",
        "did you mean `ferry`?",
        "did you mean `wool`?",
        "did you mean `line`?",
        "did you mean `blue`?",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
}

/// Checking echoes Express orders in plain words and warns about what cannot work as
/// things stand.
#[test]
fn check_echoes_and_warns() {
    let s = state(Map::Island, 4, 1, 0);
    let c = check_orders(
        &s,
        Colour::Red,
        "red.txt",
        "line 38-I\nmove to tower\nstopover 40\n",
    );
    let echo = c.echo.join("\n");
    assert!(
        echo.contains("build a rail line at 38-I (1 wood, 1 ore"),
        "{echo}"
    );
    assert!(echo.contains("nearest water tower"), "{echo}");
    assert!(
        echo.contains("when the race begins, your stopover"),
        "{echo}"
    );
    let warnings = c.diagnostics.render();
    assert!(
        warnings.contains("does not join your railway system"),
        "{warnings}"
    );
    assert!(warnings.contains("the race has not started"), "{warnings}");
    assert!(
        warnings.contains("no settlement or city there yet"),
        "{warnings}"
    );
    assert_eq!(c.errors(), 0);
}

/// By mail, a whole founding from order files: the second placement's line and the
/// locomotive (docs/catan-express-orders.md, Founding).
#[test]
fn a_founding_by_mail() {
    let mut s = state(Map::Island, 3, 2, 0);
    let picks = [["13", "38 line I"], ["3", "48 line P"], ["1", "58 line S"]];
    for _ in 0..6 {
        let who = s.players[s.actor() as usize].colour;
        let [a, b] = picks[who.seat()];
        let file = format!("founding\nsettlement {a}\nsettlement {b}\n");
        s = play(&s, &BTreeMap::from([(who, file)])).state;
    }
    let x = s.scenario.as_deref().expect("express");
    for p in &x.players {
        assert_eq!(p.lines.len(), 1);
        assert!(p.locomotive.is_some());
        assert_eq!(p.locomotive.map(u32::from), p.start.map(|v| v as u32));
    }
}

/// docs/catan-orders.md, "Names": a greeting and a sign-off are not mistakes, but an
/// Express order is never taken for one: a misplaced line or a misspelt ferry at the
/// start or the end of a mail is still reported.
#[test]
fn express_orders_are_never_taken_for_a_greeting() {
    let s = state(Map::Island, 4, 1, 0);
    let c = check_orders(
        &s,
        Colour::Red,
        "red.txt",
        "Hello judge,\n\nline 29-36\nturn\nline 16-I\nmove to tower\nstopover 44\n\nThanks!\nAnn\n",
    );
    let text = c.diagnostics.render();
    // The misplaced line is read as an order (refused when played), not as prose.
    assert_eq!(c.errors(), 0, "{text}");
    assert!(text.contains("red.txt:3:1"), "{text}");
    assert!(text.contains("a rail line runs from a vertex"), "{text}");
    let out = errors_of(&s, "Hi,\nturn\nfery 16-24\n");
    assert!(out.contains("did you mean `ferry`?"), "{out}");
    let out = errors_of(&s, "stopovr 44\nCheers\n");
    assert!(out.contains("red.txt:1:1"), "{out}");
}
