//! What each Catan player may see, proven as non-interference, not by looking
//! for expected lines (docs/catan.md, "What each player sees").
//!
//! For random positions reached by random order files, one step is played twice: as it
//! is (world A), and with player Q's hidden parts changed (world B) — Q's hand (same
//! size; cards swapped with another hidden hand, or made up), Q's unplayed development
//! cards (same count), and the text of every order of Q's that did not run. For every
//! other player P, whenever the two worlds agree on everything P may know (the public
//! record and P's own hidden parts, worked out here from the states and events as JSON,
//! independently of the judge's report code), every byte P can see must agree too: P's
//! report and the public report, P's digest, the picture, the web site's tally, whose
//! orders the step played, and the judge's answer to P's own orders. Worlds the rules
//! themselves tell apart for P (Q's build failed for want of cards, a monopoly took Q's
//! wool, P stole from Q) are counted and skipped.
//!
//! That P's own line failed is something P knows from the rest;
//! *why* is a view, compared like the report (it once said "needs 9 ore" only where
//! blue held the wool blue's acceptance gave, and "nobody took it" where blue did not).
//! The random files make offers to the others' standing acceptances on record, and each
//! variant must have compared failed offers of P's and trades between players.
//!
//! Each variant runs `CATAN_HIDDEN_CASES` compared cases (100 in a plain `cargo test`; `bash .ci/run` sets 1,000): base Catan
//! (3–4 players), the 5–6 player extension, and Catan Express (3–6 players, both maps).

use crate::support;

use crate::support::catan::Variant;

use std::collections::{BTreeMap, BTreeSet};

use pbem_judge::catan::{Colour, Event, State};
use pbem_judge::luck::{Luck, Rng};
use pbem_judge::pbem::game::{Game, OrderFile, Played, ReportInput};
use serde_json::Value;

fn cases() -> usize {
    std::env::var("CATAN_HIDDEN_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100)
}

fn new_state(v: Variant, seed: u64) -> State {
    v.new_game("hidden", seed, Luck::predictable(seed ^ 0xD1CE))
        .0
}

/// The files that come in for a step: the awaited player's, mostly, and others' now
/// and then (their standing parts, or orders for a later turn).
pub(crate) fn incoming(s: &State, r: &mut Rng) -> BTreeMap<Colour, String> {
    let wanted = pbem_judge::catan::awaited(s);
    let mut files = BTreeMap::new();
    for seat in 0..s.players.len() as u8 {
        let c = s.colour(seat);
        let p = if wanted.contains(&c) { 5 } else { 2 };
        if r.below(6) < p {
            files.insert(c, support::catan_orders::file(s, seat, r));
        }
    }
    files
}

fn order_files(files: &BTreeMap<Colour, String>) -> Vec<OrderFile> {
    files
        .iter()
        .map(|(c, t)| OrderFile {
            player: c.name().to_string(),
            text: t.clone(),
        })
        .collect()
}

fn play(game: &dyn Game, before: &str, files: &BTreeMap<Colour, String>, luck: &Luck) -> Played {
    game.position(before)
        .expect("state reads")
        .play(&order_files(files), luck)
        .expect("plays")
}

/// Everything player `p` can see of a step: (what, bytes).
fn views(
    game: &dyn Game,
    before: &str,
    played: &Played,
    p: &str,
    p_file: &str,
    png: bool,
) -> Vec<(String, Vec<u8>)> {
    let input = ReportInput {
        game: "hidden",
        before,
        events: &played.events,
        after: &played.state,
        orders: &[],
        standing: &[],
        caretaker: &[],
        deadline: Some("2026-12-01 at 18:00:00 UTC".into()),
    };
    let rep = game.report(&input).expect("a report");
    let after = game.position(&played.state).expect("reads");
    let mut out = vec![
        (
            "the public report".into(),
            rep.text(None, None).expect("text"),
        ),
        (
            format!("{p}'s report"),
            rep.text(None, Some(p)).expect("text"),
        ),
        (
            "the public digest".into(),
            rep.digest(None).expect("digest"),
        ),
        (
            format!("{p}'s digest"),
            rep.digest(Some(p)).expect("digest"),
        ),
        ("the picture (SVG)".into(), rep.svg()),
        ("the site's tally".into(), format!("{:?}", rep.tally())),
        (
            "whose orders were played".into(),
            format!("{:?}", played.acted),
        ),
        (
            "whether the game is over".into(),
            format!("{:?}", played.over),
        ),
        (
            format!("the answer to {p}'s orders"),
            after.check(p_file, "orders", Some(p), Some("hidden")).text,
        ),
        (
            format!("whether {p}'s orders are wanted"),
            format!(
                "{:?}",
                after
                    .awaited(&[])
                    .into_iter()
                    .filter(|w| w == p)
                    .collect::<Vec<_>>()
            ),
        ),
    ]
    .into_iter()
    .map(|(k, v): (String, String)| (k, v.into_bytes()))
    .collect::<Vec<_>>();
    if png {
        out.push(("the picture (PNG)".into(), rep.png().expect("png")));
    }
    out
}

/// What `p` may know of a step, worked out from the states and events as JSON: the
/// public record, and `p`'s own hand, cards and orders.
fn knows(before: &str, events: &str, after: &str, acted: &Option<Vec<String>>, p: &str) -> String {
    let state = |text: &str| -> Value {
        let mut v: Value = serde_json::from_str(text).expect("json");
        if let Some(players) = v["players"].as_array_mut() {
            for pl in players {
                if pl["colour"] == p {
                    continue;
                }
                let total = |x: &Value| -> u64 {
                    x.as_object()
                        .map_or(0, |o| o.values().filter_map(Value::as_u64).sum())
                };
                let hand = total(&pl["hand"]);
                let devs = total(&pl["development"]) + total(&pl["new_development"]);
                pl["hand"] = Value::from(hand);
                pl["development"] = Value::from(devs);
                pl["new_development"] = Value::Null;
                pl["record"] = Value::Null;
            }
        }
        let deck = v["deck"].as_array().map_or(0, Vec::len);
        v["deck"] = Value::from(deck);
        v
    };
    let mut evs: Vec<Value> = serde_json::from_str(events).expect("events");
    evs.retain(|e| {
        let mine = e["player"] == p;
        match e["event"].as_str() {
            Some("order" | "failed" | "skipped" | "no-discard-preference") => mine,
            _ => true,
        }
    });
    for e in &mut evs {
        match e["event"].as_str() {
            Some("stole") if e["thief"] != p && e["victim"] != p => e["card"] = Value::Null,
            Some("discarded") if e["player"] != p => {
                let n: u64 = e["cards"]
                    .as_object()
                    .map_or(0, |o| o.values().filter_map(Value::as_u64).sum());
                e["cards"] = Value::from(n);
            }
            Some("bought") if e["player"] != p => e["card"] = Value::Null,
            // That P's own line failed (or was not done) P knows
            // from the rest; *why* is what the judge tells P, a view to compare, not
            // something P knew. A reason that hangs on another's hand (a failed offer
            // saying "needs 9 ore" only where blue holds the wool) is a leak.
            Some("failed") => e["reason"] = Value::Null,
            Some("skipped") => e["why"] = Value::Null,
            _ => {}
        }
    }
    serde_json::to_string(&(state(before), evs, state(after), acted)).expect("json")
}

/// Q's hand made up again, the same size: cards swapped with another hidden hand (so
/// every resource is still conserved) or, half the time, drawn anew.
pub(crate) fn new_hand(v: &mut Value, q: usize, other: Option<usize>, r: &mut Rng) {
    let names = ["wood", "brick", "wool", "grain", "ore"];
    let get = |v: &Value, i: usize| -> [u64; 5] {
        names.map(|n| v["players"][i]["hand"][n].as_u64().unwrap_or(0))
    };
    let set = |v: &mut Value, i: usize, h: [u64; 5]| {
        let mut o = serde_json::Map::new();
        for (n, k) in names.iter().zip(h) {
            if k > 0 {
                o.insert((*n).to_string(), Value::from(k));
            }
        }
        v["players"][i]["hand"] = Value::Object(o);
    };
    let mut hq = get(v, q);
    match other {
        Some(o) if r.below(2) == 0 => {
            let mut ho = get(v, o);
            for _ in 0..1 + r.below(4) {
                let x = r.below(5) as usize;
                let y = r.below(5) as usize;
                if x != y && hq[x] > 0 && ho[y] > 0 {
                    hq[x] -= 1;
                    ho[x] += 1;
                    ho[y] -= 1;
                    hq[y] += 1;
                }
            }
            set(v, o, ho);
        }
        _ => {
            let total: u64 = hq.iter().sum();
            hq = [0; 5];
            for _ in 0..total {
                hq[r.below(5) as usize] += 1;
            }
        }
    }
    set(v, q, hq);
}

/// Q's unplayed development cards made up again, the same count of each kind of pile
/// (playable, bought this turn). In Catan Express a victory point card is played the
/// moment it is bought ("must be played immediately"), so none is ever held there.
pub(crate) fn new_devs(v: &mut Value, q: usize, express: bool, r: &mut Rng) {
    let kinds: &[&str] = if express {
        &["knight", "road-building", "year-of-plenty", "monopoly"]
    } else {
        &[
            "knight",
            "road-building",
            "year-of-plenty",
            "monopoly",
            "victory-point",
        ]
    };
    for pile in ["development", "new_development"] {
        let n: u64 = v["players"][q][pile]
            .as_object()
            .map_or(0, |o| o.values().filter_map(Value::as_u64).sum());
        let mut o = serde_json::Map::new();
        for _ in 0..n {
            let k = kinds[r.below(kinds.len() as u32) as usize];
            let now = o.get(k).and_then(Value::as_u64).unwrap_or(0);
            o.insert(k.to_string(), Value::from(now + 1));
        }
        v["players"][q][pile] = Value::Object(o);
    }
}

/// Lines of `text` not in `ran` (past the three header lines) replaced, half the time,
/// by other order lines.
fn new_text(text: &str, ran: &BTreeSet<u32>, s: &State, q: u8, r: &mut Rng) -> String {
    let mut out = String::new();
    for (i, l) in text.lines().enumerate() {
        let n = i as u32 + 1;
        if n > 3 && !ran.contains(&n) && r.below(2) == 0 {
            out.push_str(&support::catan_orders::line(s, q, r));
        } else {
            out.push_str(l);
        }
        out.push('\n');
    }
    out
}

struct Tally {
    compared: usize,
    told_apart: usize,
    /// Compared cases where P's own offer failed (its answer to P
    /// compared whatever Q holds and accepts).
    failed_offers: usize,
    /// Compared cases where an offer met a standing acceptance and the cards changed
    /// hands.
    trades: usize,
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  A: {x}\n  B: {y}", i + 1);
        }
    }
    format!("lengths {} and {}", a.len(), b.len())
}

fn run(v: Variant) -> Tally {
    let game = v.game();
    let want = cases();
    let mut t = Tally {
        compared: 0,
        told_apart: 0,
        failed_offers: 0,
        trades: 0,
    };
    let mut seed = 1u64;
    while t.compared < want {
        assert!(
            t.told_apart < 4 * want + 200,
            "{v:?}: {} cases told apart by the rules for {} compared: the perturbation is too coarse",
            t.told_apart,
            t.compared
        );
        let mut r = Rng::new(seed ^ 0x41D3_0000);
        let mut s = new_state(v, seed);
        let luck = Luck::predictable(seed ^ 0xD1CE);
        seed += 1;
        // Walk the game by random files; at some steps, run cases.
        for _ in 0..40 + r.below(80) {
            if s.winner.is_some() {
                break;
            }
            let files = incoming(&s, &mut r);
            let before = s.to_json();
            if r.below(3) == 0 && s.players.len() >= 3 {
                t = case(game, &s, &before, &files, &luck, &mut r, t);
            }
            let out = play(game, &before, &files, &luck);
            s = State::from_json(&out.state).expect("reads");
            if t.compared >= want {
                break;
            }
        }
    }
    t
}

fn case(
    game: &dyn Game,
    s: &State,
    before: &str,
    files: &BTreeMap<Colour, String>,
    luck: &Luck,
    r: &mut Rng,
    mut t: Tally,
) -> Tally {
    let n = s.players.len() as u8;
    let q = r.below(u32::from(n)) as u8;
    let p = (q + 1 + r.below(u32::from(n) - 1) as u8) % n;
    let (qc, pc) = (s.colour(q), s.colour(p));
    let a = play(game, before, files, luck);
    // The lines of Q's that ran, in the file that was on record when they ran.
    let events: Vec<Event> = serde_json::from_str(&a.events).expect("events");
    let ran: BTreeSet<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::Order { player, line, .. } if *player == qc => Some(*line),
            _ => None,
        })
        .collect();
    // World B: Q's hidden parts changed.
    let mut v: Value = serde_json::from_str(before).expect("json");
    let others: Vec<usize> = (0..n as usize)
        .filter(|&i| i != q as usize && i != p as usize)
        .collect();
    match r.below(4) {
        0 => new_hand(&mut v, q as usize, support::pick(r, &others).copied(), r),
        1 => new_devs(&mut v, q as usize, s.scenario.is_some(), r),
        _ => {
            new_hand(&mut v, q as usize, support::pick(r, &others).copied(), r);
            new_devs(&mut v, q as usize, s.scenario.is_some(), r);
        }
    }
    let mut files_b = files.clone();
    let record = v["players"][q as usize]["record"]["text"]
        .as_str()
        .unwrap_or("")
        .to_string();
    match files.get(&qc) {
        Some(f) => {
            // The file on record is replaced before anything runs: none of it runs.
            if !record.is_empty() {
                v["players"][q as usize]["record"]["text"] =
                    Value::from(support::catan_orders::file(s, q, r));
            }
            files_b.insert(qc, new_text(f, &ran, s, q, r));
        }
        None if !record.is_empty() => {
            v["players"][q as usize]["record"]["text"] =
                Value::from(new_text(&record, &ran, s, q, r));
        }
        None => {}
    }
    let before_b = serde_json::to_string_pretty(&v).expect("json");
    let b = play(game, &before_b, &files_b, luck);
    let (pn, qn) = (pc.name(), qc.name());
    if knows(before, &a.events, &a.state, &a.acted, pn)
        != knows(&before_b, &b.events, &b.state, &b.acted, pn)
    {
        t.told_apart += 1;
        return t;
    }
    let p_file = files
        .get(&pc)
        .cloned()
        .unwrap_or_else(|| support::catan_orders::file(s, p, r));
    let png = t.compared.is_multiple_of(50);
    let va = views(game, before, &a, pn, &p_file, png);
    let vb = views(game, &before_b, &b, pn, &p_file, png);
    for ((what, x), (_, y)) in va.iter().zip(&vb) {
        assert!(
            x == y,
            "{what} changed when only {qn}'s hidden parts did ({pn} may not tell them apart):\n{}\n\nQ's file A:\n{}\nQ's file B:\n{}",
            first_difference(x, y),
            files.get(&qc).map_or("(none)", |s| s.as_str()),
            files_b.get(&qc).map_or("(none)", |s| s.as_str()),
        );
        // No byte of the secret seed, in any view.
        assert!(
            !String::from_utf8_lossy(x).contains(&luck.to_hex()),
            "{what} shows the secret seed"
        );
    }
    t.compared += 1;
    let evs: Vec<Value> = serde_json::from_str(&a.events).expect("events");
    t.failed_offers += usize::from(evs.iter().any(|e| {
        e["event"] == "failed"
            && e["player"] == pn
            && e["text"].as_str().is_some_and(|x| x.contains("offer "))
    }));
    t.trades += usize::from(evs.iter().any(|e| e["event"] == "domestic-trade"));
    t
}

/// The counts a variant's run printed, and that it met the doors a hidden hand opens:
/// P's own offers failing, and offers taken by standing acceptances.
fn report(what: &str, t: &Tally) {
    eprintln!(
        "{what}: {} cases compared, {} told apart by the rules; {} with a failed offer of P's, {} with a trade between players",
        t.compared, t.told_apart, t.failed_offers, t.trades
    );
    assert!(
        t.failed_offers > 0,
        "{what}: no failed offer of P's compared"
    );
    assert!(t.trades > 0, "{what}: no offer met an acceptance");
}

#[test]
fn base_catan_hides_what_each_player_may_not_see() {
    report("base Catan", &run(Variant::Base));
}

#[test]
fn the_five_six_player_extension_hides_what_each_player_may_not_see() {
    report("5–6 players", &run(Variant::Extension));
}

#[test]
fn catan_express_hides_what_each_player_may_not_see() {
    report("Catan Express", &run(Variant::Express));
}
