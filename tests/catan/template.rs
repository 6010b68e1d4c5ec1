//! "Players see what they can do", for Catan: the order file each player is
//! mailed (`Position::template`, at the end of their own report and in answer to
//! `template`) lists, as comments, the seat's legal places now for a settlement, a
//! city and a road (Catan Express: rail lines, ferries, settlements, cities), the bank
//! trades their harbours allow, and what their hand can pay; during the founding, the
//! free founding places (docs/catan-orders.md and docs/catan-express-orders.md, "The
//! template").
//!
//! Proven three ways: snapshots of the new part (read before accepting); a property
//! over random reachable positions that every place listed, written as an order, is one
//! the checker (`judge check`, `Position::check`) and the rules take, and every other
//! place of its kind one they refuse, and that each "can pay" agrees with the rules;
//! and non-interference: the template is the same bytes whatever the other seats hold,
//! the deck's order and the dice to come. That no other player's mail, no file git
//! keeps and no page of the site carries it is tests/judge_core/hidden_pipeline.rs's part.

use std::collections::BTreeMap;

use pbem_judge::catan::board::layout::Layout;
use pbem_judge::catan::cards::Cards;
use pbem_judge::catan::express;
use pbem_judge::catan::orders::template::founding_places;
use pbem_judge::catan::rules::{Action, Refusal};
use pbem_judge::catan::state::Phase;
use pbem_judge::catan::{Options, State, new_game, play};
use pbem_judge::luck::{Luck, Rng};
use pbem_judge::pbem::game::Position;
use proptest::prelude::*;

use crate::support::catan::Variant;

/// The template as the pipeline gets it.
fn template(s: &State, seat: u8) -> String {
    Position::template(s, s.colour(seat).name())
}

/// Random legal actions (the rules' own list) from `s`, `steps` of them or until the
/// game ends; then on to a point where the judge rests between steps (a founding
/// placement or the roll to come), as when a template is mailed.
fn walk(mut s: State, r: &mut Rng, steps: usize) -> State {
    let mut acts = Vec::new();
    let mut n = 0;
    loop {
        let rests = matches!(
            s.phase,
            Phase::BeforeRoll
                | Phase::Founding {
                    settlement: None,
                    ..
                }
        );
        if s.phase == Phase::Over || (n >= steps && rests) {
            return s;
        }
        s.legal_actions(&mut acts);
        if acts.is_empty() {
            return s;
        }
        let a = acts[r.below(acts.len() as u32) as usize];
        s.execute(a, &mut ());
        n += 1;
    }
}

// ---- Snapshots -------------------------------------------------------------------

/// `seat`'s template, each line of what it adds within a mail's width (74: the mail
/// indents it by four), against the snapshot `name`.
fn snapshot(name: &str, s: &State, seat: u8) {
    let t = template(s, seat);
    for l in aids(&t).lines() {
        assert!(l.chars().count() <= 74, "{l}");
    }
    insta::assert_snapshot!(name, t);
}

fn names() -> Vec<String> {
    ["Ann", "Bob", "Cy", "Di"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// The lines the issue adds (not the headings, nor the examples under them).
fn aids(t: &str) -> String {
    t.lines()
        .filter(|l| {
            ["# Free now", "# As things stand", "# hand)", "#  "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A base game on the beginners' board at its third founding placement, and the same
/// game in its ninth turn (random legal play from a fixed seed), for the player to roll.
/// docs/catan-orders.md, "The template": "During the founding, the places still free";
/// "where each of your pieces may go as the board stands, what your hand lacks for it,
/// and your bank trades".
#[test]
fn a_base_catan_template_at_the_founding_and_mid_game() {
    let options = Options {
        layout: Layout::Beginner,
        ..Options::default()
    };
    let start = new_game("demo", &names(), 7, &options).expect("game");
    let mut r = Rng::new(11);
    let founding = walk(start.clone(), &mut r, 4);
    snapshot("catan_template_founding", &founding, founding.actor());
    let mut s = start;
    let mut r = Rng::new(29);
    while s.turn < 9 && s.phase != Phase::Over {
        s = walk(s, &mut r, 1);
    }
    snapshot("catan_template_mid_game", &s, s.active);
}

/// Catan Express on the island, its founding by mail as in tests/catan/express_report.rs,
/// then random legal play to the fourteenth turn: rail lines and ferries by stretch (a
/// parallel one with its brick fee), settlements anywhere the distance rule and the
/// railway allow (docs/catan-express.md: a settlement needs no line), cities only where
/// a line touches. docs/catan-express-orders.md, "The template".
#[test]
fn a_catan_express_template_mid_game() {
    let mut s = crate::catan::express_report::founded();
    let mut r = Rng::new(35);
    while s.turn < 14 && s.phase != Phase::Over {
        s = walk(s, &mut r, 1);
    }
    snapshot("catan_express_template_mid_game", &s, s.active);
}

// ---- What the template says, read back ---------------------------------------------

/// One row of the table: what the hand lacks (`None`: it can pay), the places named.
#[derive(Debug, Default)]
struct Row {
    short: Option<String>,
    places: Vec<String>,
}

#[derive(Debug, Default)]
struct Read {
    founding: Option<Vec<String>>,
    hand: Option<String>,
    rows: BTreeMap<String, Row>,
}

const LABELS: [&str; 7] = [
    "road",
    "line",
    "ferry",
    "settlement",
    "city",
    "dev card",
    "trade",
];

fn read(t: &str) -> Read {
    let mut out = Read::default();
    let mut lines = t.lines().peekable();
    while let Some(l) = lines.next() {
        if l.starts_with("# Free now") {
            let mut words = Vec::new();
            while let Some(n) = lines.peek() {
                let Some(rest) = n.strip_prefix("#   ") else {
                    break;
                };
                words.extend(rest.split_whitespace().map(str::to_string));
                lines.next();
            }
            out.founding = Some(words);
        } else if let Some(rest) = l.strip_prefix("# hand). You hold ") {
            out.hand = Some(rest.trim_end_matches('.').to_string());
        } else if let Some(rest) = l.strip_prefix("#   ")
            && let Some(label) = LABELS.iter().find(|w| rest.starts_with(**w))
        {
            let mut text = rest[label.len()..].trim().to_string();
            // Continuation lines: `#` and a deeper indent.
            while let Some(n) = lines.peek() {
                if n.starts_with("#    ") && n.len() > 5 {
                    text.push(' ');
                    text.push_str(n.trim_start_matches('#').trim());
                    lines.next();
                } else {
                    break;
                }
            }
            let short = if text.starts_with("can pay") {
                None
            } else {
                text.find(" short").map(|i| text[..i].to_string())
            };
            let places = match text.find(" at ") {
                Some(i) => text[i + 4..]
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
                None => Vec::new(),
            };
            out.rows.insert(label.to_string(), Row { short, places });
        }
    }
    out
}

// ---- The property -----------------------------------------------------------------

/// The checker's diagnostics about the last line of `file` (the header and sections
/// before it draw none of their own).
fn said_of_last_line(s: &State, seat: u8, file: &str) -> Vec<String> {
    let from = file.trim_end().rfind('\n').map_or(0, |i| i + 1);
    Position::check(s, file, "orders", Some(s.colour(seat).name()), None)
        .diagnostics
        .into_iter()
        .filter(|d| d.span.as_ref().is_some_and(|sp| sp.start >= from))
        .map(|d| d.message)
        .collect()
}

/// `s` as it would stand in `seat`'s own turn after the roll, with `hand`.
fn in_turn(s: &State, seat: u8, hand: Cards) -> State {
    let mut t = s.clone();
    t.phase = Phase::Main;
    t.active = seat;
    t.players[seat as usize].hand = hand;
    t
}

fn rich() -> Cards {
    Cards([19; 5])
}

/// The places of one kind: (written as an order, the action, the name the template
/// uses).
fn candidates(s: &State, kind: &str) -> Vec<(String, Action, String)> {
    let t = &s.board.topology;
    match kind {
        "road" => (0..t.edges.len())
            .filter(|&e| t.edges[e].land)
            .map(|e| {
                let n = s.edge_name(e);
                (format!("build road {n}"), Action::BuildRoad(e), n)
            })
            .collect(),
        "settlement" => (0..t.vertices.len())
            .map(|v| {
                let n = s.vertex_name(v);
                (
                    format!("build settlement {n}"),
                    Action::BuildSettlement(v),
                    n,
                )
            })
            .collect(),
        "city" => (0..t.vertices.len())
            .map(|v| {
                let n = s.vertex_name(v);
                (format!("build city {n}"), Action::BuildCity(v), n)
            })
            .collect(),
        "line" | "ferry" => {
            let Some(x) = s.scenario.as_deref() else {
                return Vec::new();
            };
            let want = if kind == "line" {
                express::Kind::Line
            } else {
                express::Kind::Ferry
            };
            (0..x.rail.stretches() as u16)
                .filter(|&st| x.rail.kind(st) == Some(want))
                .map(|st| {
                    let n = x.rail.stretch_name(t, st);
                    (
                        format!("{kind} {n}"),
                        Action::Scenario(express::Act::Build(st)),
                        n,
                    )
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// A place's name in the template without its parallel fee, and the fee's bricks.
fn fee_of(word: &str) -> (&str, u8) {
    match word.split_once("(+") {
        Some((name, rest)) => (
            name,
            rest.split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0),
        ),
        None => (word, 0),
    }
}

fn check_template(s: &State, seat: u8) -> Result<(), TestCaseError> {
    let text = template(s, seat);
    for l in aids(&text).lines() {
        prop_assert!(l.chars().count() <= 74, "too wide for a mail: {}", l);
    }
    let got = read(&text);
    let c = s.colour(seat);
    let hand = s.players[seat as usize].hand;
    // Founding: the free places, as the rules and the checker see them.
    if let Some(free) = &got.founding {
        let want: Vec<String> = founding_places(s, seat)
            .into_iter()
            .map(|v| s.vertex_name(v))
            .collect();
        prop_assert_eq!(free, &want);
        if s.actor() == seat {
            for v in 0..s.board.topology.vertices.len() {
                let name = s.vertex_name(v);
                let listed = free.contains(&name);
                prop_assert_eq!(
                    s.check(Action::FoundSettlement(v)).is_ok(),
                    listed,
                    "founding at {}",
                    name
                );
                let file = format!("player {c}\nfounding\nsettlement {name}\n");
                let said = said_of_last_line(s, seat, &file);
                prop_assert_eq!(said.is_empty(), listed, "{}: {:?}", file, said);
            }
        }
        return Ok(());
    }
    if s.phase == Phase::Over {
        return Ok(());
    }
    // The hand named is the seat's own.
    prop_assert_eq!(got.hand.clone(), Some(hand.to_string()), "{}", text);
    let express = s.scenario.is_some();
    let kinds: &[&str] = if express {
        &["line", "ferry", "settlement", "city"]
    } else {
        &["road", "settlement", "city"]
    };
    let rich_turn = in_turn(s, seat, rich());
    let real_turn = in_turn(s, seat, hand);
    let mut legal = Vec::new();
    rich_turn.legal_actions(&mut legal);
    for kind in kinds {
        let row = got.rows.get(*kind);
        prop_assert!(row.is_some(), "no `{}` row in\n{}", kind, text);
        let Some(row) = row else { continue };
        let listed: BTreeMap<&str, u8> = row.places.iter().map(|w| fee_of(w)).collect();
        for (order, action, name) in candidates(s, kind) {
            let fee = listed.get(name.as_str()).copied();
            let file = format!("player {c}\nturn\n{order}\n");
            let said = said_of_last_line(s, seat, &file);
            // The checker: silent on a place listed, a warning on any other.
            prop_assert_eq!(
                said.is_empty(),
                fee.is_some(),
                "{}: {:?}\n{}",
                order,
                said,
                text
            );
            // The rules, in the seat's own turn with cards enough: the same places,
            // and the same as their own list of legal actions.
            prop_assert_eq!(
                rich_turn.check(action).is_ok(),
                fee.is_some(),
                "{}: {:?}",
                order,
                rich_turn.check(action)
            );
            prop_assert_eq!(
                legal.contains(&action),
                fee.is_some(),
                "{} in the legal actions",
                order
            );
            // With the hand as it is: what the row says it lacks.
            if let Some(fee) = fee {
                let mut cost = match *kind {
                    "road" => Cards::ROAD,
                    "settlement" => Cards::SETTLEMENT,
                    "city" => Cards::CITY,
                    "line" => express::building::LINE,
                    _ => express::building::FERRY,
                };
                cost.add(&Cards::one(pbem_judge::catan::cards::Resource::Brick, fee));
                let verdict = real_turn.check(action);
                prop_assert_eq!(
                    verdict.is_ok(),
                    hand.covers(&cost),
                    "{}: {:?}",
                    order,
                    verdict
                );
                if fee == 0 {
                    match verdict {
                        Ok(()) => prop_assert!(row.short.is_none(), "{}: the rules take it", order),
                        Err(Refusal::NeedCards { need, have }) => {
                            prop_assert_eq!(
                                row.short.clone(),
                                Some(have.short_of(&need).to_string())
                            )
                        }
                        Err(r) => prop_assert!(false, "{}: {:?}", order, r),
                    }
                }
            }
        }
    }
    // A development card: "can pay" when the rules sell one.
    if let Some(row) = got.rows.get("dev card") {
        let verdict = real_turn.check(Action::BuyDevelopment);
        match verdict {
            Ok(()) => prop_assert!(row.short.is_none()),
            Err(Refusal::NeedCards { need, have }) => {
                prop_assert_eq!(row.short.clone(), Some(have.short_of(&need).to_string()))
            }
            Err(Refusal::DeckEmpty) => prop_assert!(text.contains("none left")),
            Err(r) => prop_assert!(false, "buy: {:?}", r),
        }
    } else {
        prop_assert!(false, "no `dev card` row in\n{}", text);
    }
    // The bank trades: the rate the rules ask, resource by resource.
    prop_assert!(got.rows.contains_key("trade"));
    for r in pbem_judge::catan::cards::Resource::ALL {
        let rate = s.rate(seat, r);
        let line = text
            .lines()
            .find(|l| l.starts_with("#   trade"))
            .unwrap_or_default();
        let named = line.contains(&format!("{rate}:1 any"))
            || line.contains(&format!("{rate}:1 the rest"))
            || line
                .split("; ")
                .any(|g| g.contains(&format!("{rate}:1 ")) && g.contains(r.name()));
        prop_assert!(named, "{} at {}:1 in {}", r.name(), rate, line);
        // The rules' maritime trade agrees: the rate's cards pay, one fewer does not.
        let other = if r == pbem_judge::catan::cards::Resource::Ore {
            pbem_judge::catan::cards::Resource::Wood
        } else {
            pbem_judge::catan::cards::Resource::Ore
        };
        let mut t = in_turn(s, seat, Cards::one(r, rate));
        t.bank = rich();
        let trade = Action::MaritimeTrade {
            give: r,
            get: other,
        };
        prop_assert!(t.check(trade).is_ok(), "{:?} at {}:1", trade, rate);
        t.players[seat as usize].hand = Cards::one(r, rate - 1);
        prop_assert!(
            t.check(trade).is_err(),
            "{:?} at {}:1 with one fewer",
            trade,
            rate
        );
    }
    Ok(())
}

fn reachable(variant: Variant, seed: u64, steps: usize) -> State {
    let (s, mut r) = variant.new_game("t", seed, Luck::predictable(seed));
    walk(s, &mut r, steps)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every place the template lists, written as an order, draws no word from the
    /// checker and is taken by the rules in the seat's turn; every other place of its
    /// kind draws a warning and is refused (docs/catan.md, "Building": "a road … on a
    /// free edge touching one's own road, settlement or city", the distance rule, "a
    /// city … in place of one's own settlement"; docs/catan-express.md for lines and
    /// ferries); each "can pay" is the rules' verdict on the seat's own hand, and each
    /// bank rate the one the rules ask ("4:1, or 3:1 … or 2:1 … with that resource's
    /// harbour").
    #[test]
    fn the_template_lists_exactly_the_places_the_rules_allow(
        which in 0u8..3,
        seed in any::<u64>(),
        // Half of them in or near the founding, which is short.
        steps in prop_oneof![0usize..20, 20usize..400],
    ) {
        let variant = [Variant::Base, Variant::Extension, Variant::Express][which as usize];
        let s = reachable(variant, seed, steps);
        for seat in 0..s.players.len() as u8 {
            check_template(&s, seat)?;
        }
    }
}

// ---- Non-interference --------------------------------------------------------------

/// Another seat's hand and development cards made up anew, the deck shuffled, the dice
/// to come changed (other loaded dice; another secret seed): everything `seat` may not
/// know.
fn others_changed(s: &State, seat: u8, r: &mut Rng) -> State {
    let mut v: serde_json::Value = serde_json::from_str(&s.to_json()).expect("json");
    let n = s.players.len();
    for q in (0..n).filter(|&q| q != seat as usize) {
        let other = (0..n).find(|&o| o != q && o != seat as usize);
        crate::catan::hidden::new_hand(&mut v, q, other, r);
        crate::catan::hidden::new_devs(&mut v, q, s.scenario.is_some(), r);
    }
    if let Some(deck) = v["deck"].as_array_mut() {
        for i in (1..deck.len()).rev() {
            deck.swap(i, r.below(i as u32 + 1) as usize);
        }
    }
    v["loaded_dice"] = serde_json::json!([[r.below(6) + 1, r.below(6) + 1]]);
    let mut t = State::from_json(&v.to_string()).expect("the changed state reads");
    t.luck = Luck::predictable(r.below(u32::MAX).into());
    t
}

/// docs/catan.md, "What each player sees": a hand and development cards are their
/// owner's, the deck's order and the dice to come no one's. A seat's template, made
/// from the public board and its own hand, is the same bytes in positions that differ
/// only in those, over random positions reached by orders by mail.
#[test]
fn a_template_is_the_same_whatever_the_others_hold_the_deck_and_the_dice() {
    let mut compared = 0;
    for seed in 1..=24u64 {
        let variant = [Variant::Base, Variant::Extension, Variant::Express][seed as usize % 3];
        let luck = Luck::predictable(seed ^ 0xD1CE);
        let (mut s, mut r) = variant.new_game("t", seed, luck.clone());
        for _ in 0..10 + r.below(60) {
            if s.winner.is_some() {
                break;
            }
            let files = crate::catan::hidden::incoming(&s, &mut r);
            let mut me = s.clone();
            me.luck = luck.clone();
            s = play(&me, &files).state;
            if r.below(4) == 0 {
                for seat in 0..s.players.len() as u8 {
                    let a = template(&s, seat);
                    for _ in 0..3 {
                        let b = template(&others_changed(&s, seat, &mut r), seat);
                        assert_eq!(
                            a,
                            b,
                            "{}'s template changed with what only others know",
                            s.colour(seat)
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 100, "{compared} compared");
    // The template does name the seat's own hand: changed, it shows.
    let (s, _) = Variant::Base.new_game("t", 3, Luck::predictable(3));
    let mut s = walk(s, &mut Rng::new(3), 200);
    let seat = s.active;
    let a = template(&s, seat);
    s.players[seat as usize].hand.add(&Cards::CITY);
    assert_ne!(
        a,
        template(&s, seat),
        "the seat's own hand is in its template"
    );
}

/// The order writer "for Catan, the board's legal places and the order
/// syntax, since the hand is private": the page is public, so what the game gives it
/// (`Position::writer`: the file's body, the model of places, the script) must be the
/// same bytes whatever ANY hand holds — the seat's own too — and whatever the deck and
/// the dice to come. Over random positions reached by orders by mail, with every
/// seat's hand and development cards changed, and no line of the seat's private
/// template table in it.
#[test]
fn the_catan_order_writer_knows_no_hand() {
    let mut compared = 0;
    for seed in 1..=16u64 {
        let variant = [Variant::Base, Variant::Extension][seed as usize % 2];
        let luck = Luck::predictable(seed ^ 0xBEEF);
        let (mut s, mut r) = variant.new_game("t", seed, luck.clone());
        for _ in 0..5 + r.below(60) {
            if s.winner.is_some() {
                break;
            }
            let files = crate::catan::hidden::incoming(&s, &mut r);
            let mut me = s.clone();
            me.luck = luck.clone();
            s = play(&me, &files).state;
            if r.below(3) != 0 {
                continue;
            }
            for seat in 0..s.players.len() as u8 {
                let c = s.colour(seat).to_string();
                let a = s.writer(&c).expect("a Catan writer");
                assert!(!a.body.contains("You hold"), "{}", a.body);
                // Every seat's hand changed, the seat's own included.
                let mut t = others_changed(&s, seat, &mut r);
                let other = (seat as usize + 1) % s.players.len();
                t = others_changed(&t, other as u8, &mut r);
                let b = t.writer(&c).expect("a Catan writer");
                assert_eq!(a, b, "{c}'s writer changed with a hand");
                compared += 1;
            }
        }
    }
    assert!(compared > 50, "{compared} compared");
}
