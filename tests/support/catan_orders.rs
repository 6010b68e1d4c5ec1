//! Random Catan and Catan Express order files for property tests: every kind of line the
//! order language has (docs/catan-orders.md, docs/catan-express-orders.md), naming real
//! places near the player's pieces so that many of them run, with conditions, `if I
//! can:`, alternatives, standing robber, discard and acceptance lines, `between turns`
//! orders, and the Express lines, ferries, moves, stopovers and fares. Some lines are
//! meant to fail.
#![allow(dead_code)]

use pbem_judge::catan::State;
use pbem_judge::catan::cards::{Cards, Resource};
use pbem_judge::luck::Rng;

const RESOURCES: [&str; 5] = ["wood", "brick", "wool", "grain", "ore"];

fn pick<'a, T>(r: &mut Rng, items: &'a [T]) -> Option<&'a T> {
    (!items.is_empty()).then(|| &items[r.below(items.len() as u32) as usize])
}

fn res(r: &mut Rng) -> &'static str {
    RESOURCES[r.below(5) as usize]
}

fn cards(r: &mut Rng) -> String {
    let n = 1 + r.below(2);
    let mut out: Vec<String> = Vec::new();
    for _ in 0..n {
        out.push(format!("{} {}", 1 + r.below(3), res(r)));
    }
    out.join(", ")
}

/// One side of a trade: (count, resource index) pairs.
type Side = Vec<(u8, usize)>;

fn side_text(side: &Side) -> String {
    side.iter()
        .map(|&(n, k)| format!("{n} {}", RESOURCES[k]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The two sides of a trade (`offer A for B`, `accept A for B`): most often of
/// different resources, each named once, one card of each mostly, so that offers and
/// acceptances can meet; the first side, half the time, out of `hand` (what the seat
/// holds, so that it can pay); now and then any cards at all (a resource on both sides
/// is an error the checker names).
fn sides(r: &mut Rng, hand: Option<&Cards>) -> (String, String) {
    if r.below(6) == 0 {
        return (cards(r), cards(r));
    }
    let mut order = [0usize, 1, 2, 3, 4];
    for i in (1..5).rev() {
        order.swap(i, r.below(i as u32 + 1) as usize);
    }
    let held: Vec<usize> = hand.map_or(Vec::new(), |h| {
        order
            .iter()
            .copied()
            .filter(|&k| h.get(Resource::ALL[k]) > 0)
            .collect()
    });
    let (left, right) = (1 + r.below(3) as usize / 2, 1 + r.below(3) as usize / 2);
    let count = |r: &mut Rng| [1u8, 1, 1, 2, 3][r.below(5) as usize];
    let a: Side = match hand {
        Some(h) if !held.is_empty() && r.below(2) == 0 => held
            .iter()
            .take(left)
            .map(|&k| (count(r).min(h.get(Resource::ALL[k])), k))
            .collect(),
        _ => order[..left].iter().map(|&k| (count(r), k)).collect(),
    };
    let b: Side = order
        .iter()
        .copied()
        .filter(|k| !a.iter().any(|&(_, x)| x == *k))
        .take(right)
        .map(|k| (count(r), k))
        .collect();
    (side_text(&a), side_text(&b))
}

/// Vertices and edges near `seat`'s pieces (or anywhere on land when it has none).
fn near(s: &State, seat: u8) -> (Vec<usize>, Vec<usize>) {
    let t = &s.board.topology;
    let p = &s.players[seat as usize];
    let mut vs: Vec<usize> = p.settlements.iter().chain(p.cities.iter()).collect();
    for e in p.roads.iter() {
        vs.extend(t.edges[e].ends);
    }
    if vs.is_empty() {
        vs = (0..t.vertices.len())
            .filter(|&v| t.vertices[v].land)
            .collect();
    }
    let mut around = vs.clone();
    for &v in &vs {
        around.extend(t.vertices[v].neighbours.iter().copied());
    }
    around.retain(|&v| t.vertices[v].land);
    around.sort_unstable();
    around.dedup();
    let mut edges: Vec<usize> = around
        .iter()
        .flat_map(|&v| t.vertices[v].edges.iter().copied())
        .filter(|&e| t.edges[e].land)
        .collect();
    edges.sort_unstable();
    edges.dedup();
    (around, edges)
}

fn vertex(s: &State, r: &mut Rng, vs: &[usize]) -> String {
    pick(r, vs).map_or("1".into(), |&v| s.board.topology.vertex_name(v))
}

fn edge(s: &State, r: &mut Rng, es: &[usize]) -> String {
    pick(r, es).map_or("1-2".into(), |&e| s.board.topology.edge_name(e))
}

fn hex(s: &State, r: &mut Rng) -> String {
    let land = &s.board.land;
    pick(r, land).map_or("A".into(), |&h| s.board.topology.hex_name(h).to_string())
}

fn colour(s: &State, r: &mut Rng, not: u8) -> String {
    let others: Vec<u8> = (0..s.players.len() as u8).filter(|&q| q != not).collect();
    pick(r, &others).map_or("red".into(), |&q| s.colour(q).name().to_string())
}

/// A rail line or ferry place of the Express map near the player.
fn stretch(s: &State, r: &mut Rng, vs: &[usize]) -> Option<String> {
    let x = s.scenario.as_deref()?;
    let t = &s.board.topology;
    let mut options = Vec::new();
    for &v in vs {
        for &st in x.rail.at.get(v).map_or(&[][..], |a| &a[..]) {
            if x.rail.kind[st as usize].is_some() {
                options.push(st);
            }
        }
    }
    pick(r, &options).map(|&st| x.rail.stretch_name(t, st))
}

fn condition(s: &State, r: &mut Rng) -> String {
    let _ = s;
    match r.below(6) {
        0 => format!("if rolled {} or {}: ", 2 + r.below(11), 2 + r.below(11)),
        1 => format!("if not rolled {}: ", 2 + r.below(11)),
        2 => format!("if I have {}: ", cards(r)),
        3 => "if I can: ".into(),
        4 => format!("if I have {} and rolled {}: ", cards(r), 2 + r.below(11)),
        _ => String::new(),
    }
}

/// One order of a turn.
fn turn_order(s: &State, seat: u8, r: &mut Rng, vs: &[usize], es: &[usize]) -> String {
    let express = s.scenario.is_some();
    // An offer to another seat's acceptance now and then, beside the offers below.
    if r.below(6) == 0
        && let Some(o) = mirrored_offer(s, seat, r)
    {
        return o;
    }
    match r.below(if express { 16 } else { 13 }) {
        0 if !express => format!("build road {}", edge(s, r, es)),
        0 => format!("build settlement {}", vertex(s, r, vs)),
        1 => format!("build settlement {}", vertex(s, r, vs)),
        2 => format!("build city {}", vertex(s, r, vs)),
        3 => "buy card".into(),
        4 => format!("trade 4 {} for {}", res(r), res(r)),
        5 => format!("trade {} for {}", res(r), res(r)),
        6 if r.below(2) == 0 => match mirrored_offer(s, seat, r) {
            Some(o) => o,
            None => {
                let (give, get) = sides(r, Some(&s.players[seat as usize].hand));
                format!("offer {give} for {get}")
            }
        },
        6 => {
            let (give, get) = sides(r, Some(&s.players[seat as usize].hand));
            format!(
                "offer {give} for {get}{}",
                if r.below(2) == 0 {
                    format!(" to {}", colour(s, r, seat))
                } else {
                    String::new()
                }
            )
        }
        7 => format!("play monopoly {}", res(r)),
        8 => format!("play year of plenty {}, {}", res(r), res(r)),
        9 if !express => format!("play road building {}, {}", edge(s, r, es), edge(s, r, es)),
        9 => match (stretch(s, r, vs), stretch(s, r, vs)) {
            (Some(a), Some(b)) => format!("play road building {a}, {b}"),
            _ => "buy card".into(),
        },
        10 => format!(
            "play knight robber {} rob {}",
            hex(s, r),
            colour(s, r, seat)
        ),
        11 => format!(
            "build city {} or build settlement {} or buy card",
            vertex(s, r, vs),
            vertex(s, r, vs)
        ),
        12 => "end".into(),
        13 => stretch(s, r, vs).map_or("buy card".into(), |st| format!("line {st}")),
        14 => "move to tower".into(),
        _ => format!("move to {} paying {}", vertex(s, r, vs), res(r)),
    }
}

/// An offer made to match another seat's standing acceptance on
/// record (`accept 1 ore for 1 wool` gives `offer 1 ore for 1 wool to blue`), now and
/// then asking the offerer for more than it may hold (`offer 9 ore for 1 wool`), so that
/// offers meet acceptances — taken, or failing for want of cards on either side — far
/// more often than random lines would. `None` when no other seat has one.
fn mirrored_offer(s: &State, seat: u8, r: &mut Rng) -> Option<String> {
    let mut found: Vec<(u8, String)> = Vec::new();
    for q in (0..s.players.len() as u8).filter(|&q| q != seat) {
        let Some(rec) = s.records.get(q as usize) else {
            continue;
        };
        for l in rec.text.lines() {
            let Some(rest) = l.trim().strip_prefix("accept ") else {
                continue;
            };
            // The cards, without `from …` or `N times`.
            let terms = rest
                .split(" from ")
                .next()
                .unwrap_or(rest)
                .trim_end_matches(" times")
                .trim_end_matches(|c: char| c.is_ascii_digit() || c == ' ');
            found.push((q, terms.to_string()));
        }
    }
    // Those the offerer can pay, most of the time.
    let hand = s.players[seat as usize].hand;
    let pays = |terms: &str| {
        terms.split(" for ").next().is_some_and(|give| {
            give.split(", ").all(|c| {
                let mut w = c.split_whitespace();
                let n: u8 = w.next().and_then(|n| n.parse().ok()).unwrap_or(u8::MAX);
                let k = w
                    .next()
                    .and_then(|x| RESOURCES.iter().position(|y| *y == x));
                k.is_some_and(|k| hand.get(Resource::ALL[k]) >= n)
            })
        })
    };
    let payable: Vec<(u8, String)> = found.iter().filter(|(_, t)| pays(t)).cloned().collect();
    let from = if !payable.is_empty() && r.below(4) > 0 {
        &payable
    } else {
        &found
    };
    let (q, terms) = pick(r, from)?.clone();
    let terms = if r.below(3) == 0 {
        // More of the first card than the acceptance asks: 9 where it said 1.
        let (n, rest) = terms.split_once(' ')?;
        let n: u32 = n.parse().ok()?;
        format!("{} {rest}", n + 1 + r.below(8))
    } else {
        terms
    };
    Some(match r.below(3) {
        0 => format!("offer {terms}"),
        _ => format!("offer {terms} to {}", s.colour(q).name()),
    })
}

/// A random order file for `seat` for the next play of `s`.
pub fn file(s: &State, seat: u8, r: &mut Rng) -> String {
    let c = s.colour(seat);
    let (vs, es) = near(s, seat);
    let express = s.scenario.is_some();
    let mut out = format!(
        "game {}\nplayer {}\nturn {}\n",
        s.name,
        c.name(),
        s.step + 1
    );
    // Founding placements, best first.
    if r.below(3) > 0 {
        out.push_str("founding\n");
        let all: Vec<usize> = (0..s.board.topology.vertices.len())
            .filter(|&v| s.board.topology.vertices[v].land)
            .collect();
        for _ in 0..1 + r.below(3) {
            let v = *pick(r, &all).unwrap_or(&0);
            let t = &s.board.topology;
            let name = t.vertex_name(v);
            if express {
                match stretch(s, r, &[v]) {
                    Some(st) if r.below(2) == 0 => {
                        out.push_str(&format!("settlement {name} line {st}\n"))
                    }
                    _ => out.push_str(&format!("settlement {name}\n")),
                }
            } else {
                let e = pick(r, &t.vertices[v].edges).map_or("1-2".into(), |&e| t.edge_name(e));
                out.push_str(&format!("settlement {name} road {e}\n"));
            }
        }
    }
    if r.below(3) == 0 {
        out.push_str(&format!(
            "before roll\nplay knight robber {} rob {}\n",
            hex(s, r),
            colour(s, r, seat)
        ));
    }
    out.push_str("turn\n");
    for _ in 0..r.below(7) {
        let cond = condition(s, r);
        let order = turn_order(s, seat, r, &vs, &es);
        // Offers without a condition half the time, so that they are tried.
        let cond = if order.starts_with("offer ") && r.below(2) == 0 {
            String::new()
        } else {
            cond
        };
        out.push_str(&format!("{cond}{order}\n"));
    }
    // Standing parts.
    for _ in 0..r.below(3) {
        out.push_str(&format!(
            "robber {} rob {}\n",
            hex(s, r),
            colour(s, r, seat)
        ));
    }
    if r.below(2) == 0 {
        out.push_str(&format!("discard {}, {}\n", res(r), res(r)));
    }
    for _ in 0..r.below(3) {
        let (give, get) = sides(r, Some(&s.players[seat as usize].hand));
        out.push_str(&format!(
            "accept {get} for {give}{}\n",
            match r.below(3) {
                0 => format!(" from {}", colour(s, r, seat)),
                1 => " 2 times".into(),
                _ => String::new(),
            }
        ));
    }
    if express {
        if r.below(2) == 0 {
            out.push_str(&format!(
                "stopover {}, {}\n",
                vertex(s, r, &vs),
                vertex(s, r, &vs)
            ));
        }
        if r.below(2) == 0 {
            out.push_str(&format!("fares {}, {}\n", res(r), res(r)));
        }
    }
    if s.players.len() > 4 && r.below(2) == 0 {
        out.push_str("between turns\n");
        for _ in 0..1 + r.below(3) {
            let line = match r.below(4) {
                0 => format!("build settlement {}", vertex(s, r, &vs)),
                1 => format!("build city {}", vertex(s, r, &vs)),
                2 if !express => format!("build road {}", edge(s, r, &es)),
                2 => stretch(s, r, &vs).map_or("buy card".into(), |st| format!("line {st}")),
                _ => "buy card".into(),
            };
            out.push_str(&format!(
                "{}{line}\n",
                if r.below(3) == 0 { "if I can: " } else { "" }
            ));
        }
    }
    out
}

/// One random line of the kinds a file holds (for replacing a line that did not run).
pub fn line(s: &State, seat: u8, r: &mut Rng) -> String {
    let (vs, es) = near(s, seat);
    match r.below(5) {
        0 => format!("robber {} rob {}", hex(s, r), colour(s, r, seat)),
        1 => {
            let (give, get) = sides(r, Some(&s.players[seat as usize].hand));
            format!("accept {get} for {give}")
        }
        2 => format!("discard {}", res(r)),
        _ => format!("{}{}", condition(s, r), turn_order(s, seat, r, &vs, &es)),
    }
}

/// A resource's name, for tests that build hands.
pub fn resource(i: usize) -> Resource {
    Resource::ALL[i % 5]
}
