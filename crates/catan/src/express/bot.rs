//! A scripted Catan Express player that writes **order files**, as a person would by
//! mail: it looks at the game before its turn (not at the dice to come) and writes its
//! founding choices, standing orders (stopovers, fares, robber, discards) and a turn of
//! `if I can:` orders in order of preference, ending with a move to its nearest water
//! tower. It plays to get the race won: it joins its railway to the others' first,
//! brings settlements onto the railway, upgrades them, and trades surplus for ore and
//! wood. With 5–6 players it also writes `between turns` orders for the special
//! building phases after the others' turns: a city, a settlement, rail lines. Used to
//! play whole games through the order language (tests/catan/express_game.rs,
//! `scripts/catan-express-game/`, `scripts/play-catan-game`); it is no part of the
//! rules.

use std::collections::VecDeque;
use std::fmt::Write as _;

use super::rail::{Kind, Node, Stretch};
use super::{Express, building};
use crate::board::{Board, VertexId};
use crate::cards::{DevCard, Resource};
use crate::state::{NOBODY, Phase, State};

/// The order file `seat` sends for the judge's next play.
pub fn orders(s: &State, seat: u8) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "game {}", s.name);
    let _ = writeln!(o, "player {}", s.colour(seat));
    let _ = writeln!(o, "turn {}", s.step + 1);
    if let Phase::Founding { .. } = s.phase {
        founding(s, seat, &mut o);
        return o;
    }
    standing(s, seat, &mut o);
    if s.active == seat {
        turn(s, seat, &mut o);
    }
    if s.options.extension {
        between(s, seat, &mut o);
    }
    o
}

fn x(s: &State) -> Option<&Express> {
    s.scenario.as_deref()
}

/// Dots round a vertex, ore counted double (rail lines need it).
fn value(s: &State, v: VertexId) -> u32 {
    s.board.topology.vertices[v]
        .hexes
        .iter()
        .map(|&(h, _)| {
            let pips = Board::pips(s.board.number[h]);
            match s.board.terrain[h].resource() {
                Some(Resource::Ore) => 2 * pips,
                Some(_) => pips,
                None => 0,
            }
        })
        .sum()
}

/// Free sites for a settlement now (ignoring cost), best first.
fn sites(s: &State, seat: u8) -> Vec<VertexId> {
    let t = &s.board.topology;
    let mut v: Vec<VertexId> = t
        .land_vertices
        .minus(s.blocked)
        .iter()
        .filter(|&v| s.check_site(seat, v).is_ok())
        .collect();
    v.sort_by_key(|&v| (std::cmp::Reverse(value(s, v)), v));
    v
}

fn founding(s: &State, seat: u8, o: &mut String) {
    let Some(x) = x(s) else { return };
    let t = &s.board.topology;
    let _ = writeln!(o, "founding");
    for v in sites(s, seat).into_iter().take(6) {
        // The first line into the best hex of the place (used at the second placement).
        let best = t.vertices[v]
            .hexes
            .iter()
            .filter(|&&(h, _)| t.hexes[h].land)
            .max_by_key(|&&(h, _)| (Board::pips(s.board.number[h]), std::cmp::Reverse(h)))
            .and_then(|&(h, _)| x.rail.spoke(t, v, h));
        match best {
            Some(st) => {
                let _ = writeln!(
                    o,
                    "settlement {} line {}",
                    t.vertex_name(v),
                    x.rail.stretch_name(t, st)
                );
            }
            None => {
                let _ = writeln!(o, "settlement {}", t.vertex_name(v));
            }
        }
    }
}

/// Steps from every node to the nearest node of `targets`, over every stretch a piece
/// may lie on (built or not).
fn distances(x: &Express, targets: &[Node]) -> Vec<u32> {
    let mut d = vec![u32::MAX; x.rail.nodes];
    let mut q = VecDeque::new();
    for &n in targets {
        d[n as usize] = 0;
        q.push_back(n);
    }
    while let Some(n) = q.pop_front() {
        for &st in &x.rail.at[n as usize] {
            let m = x.rail.other(st, n);
            if d[m as usize] == u32::MAX {
                d[m as usize] = d[n as usize] + 1;
                q.push_back(m);
            }
        }
    }
    d
}

/// Rail lines and ferries worth building now, best first.
fn pieces(s: &State, seat: u8) -> Vec<Stretch> {
    let Some(x) = x(s) else {
        return Vec::new();
    };
    let own = x.component(seat);
    let bit = 1u8 << seat;
    // Railways not yet joined to ours, and rivals' settlements not on the railway.
    let mut targets: Vec<Node> = Vec::new();
    for (q, p) in x.players.iter().enumerate() {
        if q as u8 != seat && x.component(q as u8) != own {
            targets.extend(&p.nodes);
        }
    }
    let unjoined = !targets.is_empty();
    for v in 0..s.vertex_owner.len() {
        if s.vertex_owner[v] != NOBODY && !x.touched.has(v) {
            targets.push(v as Node);
        }
    }
    let dist = distances(x, &targets);
    let mut out: Vec<(i64, Stretch)> = Vec::new();
    let mut seen = Vec::new();
    for &n in &x.players[seat as usize].nodes {
        for &st in &x.rail.at[n as usize] {
            if seen.contains(&st) || building::site(s, seat, st).is_err() {
                continue;
            }
            seen.push(st);
            let far = x.rail.other(st, n);
            let mut score: i64 = 0;
            if x.touch[far as usize] != 0 && Some(x.find(far)) != own {
                score += 1000; // joins another railway: a chip, and the race needs it
            }
            if let Some(v) = x.rail.vertex_of(far)
                && x.touch[far as usize] == 0
                && s.vertex_owner[v] != NOBODY
            {
                score += if s.vertex_owner[v] == seat { 300 } else { 500 };
            }
            if x.touch[far as usize] & bit != 0 {
                score -= 400; // between two of our own places: little use
            }
            if x.owners[st as usize] != 0 {
                score -= 200; // parallel: costs bricks
            }
            let d = dist[far as usize];
            if d != u32::MAX {
                score += 100 - 10 * i64::from(d.min(10));
            }
            if !unjoined && let Some(v) = x.rail.vertex_of(far) {
                score += i64::from(value(s, v));
            }
            if x.rail.kind(st) == Some(Kind::Ferry) {
                score -= 5;
            }
            out.push((score, st));
        }
    }
    out.sort_by_key(|&(score, st)| (std::cmp::Reverse(score), st));
    out.into_iter().map(|(_, st)| st).collect()
}

fn standing(s: &State, seat: u8, o: &mut String) {
    let t = &s.board.topology;
    // Stopovers: places in our railway, nearest our locomotive first.
    if let Some(x) = x(s) {
        let mut places: Vec<VertexId> = Vec::new();
        for &n in &x.players[seat as usize].nodes {
            if let Some(v) = x.rail.vertex_of(n)
                && s.vertex_owner[v] != NOBODY
                && !x.players.iter().any(|p| p.start == Some(v))
            {
                places.push(v);
            }
        }
        if let Some(here) = x.players[seat as usize].locomotive {
            let d = distances(x, &[here]);
            places.sort_by_key(|&v| (d[v], v));
        }
        if !places.is_empty() {
            let list: Vec<String> = places.iter().map(|&v| t.vertex_name(v)).collect();
            let _ = writeln!(o, "stopover {}", list.join(", "));
        }
    }
    let _ = writeln!(o, "fares wool, grain, brick, wood, ore");
    let _ = writeln!(o, "discard wool, grain, brick");
    // The robber: the hex where rivals have most dots and we have nothing.
    let mut best: Option<(u32, usize)> = None;
    for &h in &s.board.land {
        if h == s.robber {
            continue;
        }
        let corners = &t.hexes[h].corners;
        if corners.iter().any(|&v| s.vertex_owner[v] == seat) {
            continue;
        }
        let rivals = corners
            .iter()
            .filter(|&&v| s.vertex_owner[v] != NOBODY)
            .count() as u32;
        let score = rivals * Board::pips(s.board.number[h]);
        if best.is_none_or(|(b, bh)| (score, std::cmp::Reverse(h)) > (b, std::cmp::Reverse(bh))) {
            best = Some((score, h));
        }
    }
    if let Some((_, h)) = best {
        let _ = writeln!(o, "robber {}", t.hex_name(h));
    }
}

fn turn(s: &State, seat: u8, o: &mut String) {
    let t = &s.board.topology;
    let Some(x) = x(s) else { return };
    let p = &s.players[seat as usize];
    let name = |st: Stretch| x.rail.stretch_name(t, st);
    let _ = writeln!(o, "turn");
    let lines = pieces(s, seat);
    // Development cards held from before this turn.
    if p.devs.get(DevCard::RoadBuilding) > 0 && lines.len() >= 2 {
        let _ = writeln!(
            o,
            "if I can: play road building {}, {}",
            name(lines[0]),
            name(lines[1])
        );
    } else if p.devs.get(DevCard::YearOfPlenty) > 0 {
        let _ = writeln!(o, "if I can: play year of plenty ore, wood");
    } else if p.devs.get(DevCard::Knight) > 0 {
        let _ = writeln!(o, "if I can: play knight");
    } else if p.devs.get(DevCard::Monopoly) > 0 {
        let _ = writeln!(o, "if I can: play monopoly ore");
    }
    // Surplus to ore and wood at the best rate, keeping one of each.
    for (give, get) in [
        (Resource::Wool, Resource::Ore),
        (Resource::Grain, Resource::Ore),
        (Resource::Brick, Resource::Wood),
        (Resource::Wool, Resource::Wood),
    ] {
        let rate = s.rate(seat, give);
        let _ = writeln!(
            o,
            "if I have {} {give}: trade {rate} {give} for {get}",
            rate + 1
        );
    }
    // Cities on the railway (the best first), then a settlement, then lines.
    let mut cities: Vec<VertexId> = p.settlements.iter().filter(|&v| x.touched.has(v)).collect();
    cities.sort_by_key(|&v| (std::cmp::Reverse(value(s, v)), v));
    for v in cities.iter().take(2) {
        let _ = writeln!(o, "if I can: city {}", t.vertex_name(*v));
    }
    // Settlements next to our railway first: a line will reach them.
    let ours = x.players[seat as usize].nodes.clone();
    let near = distances(x, &ours);
    let mut spots = sites(s, seat);
    spots.sort_by_key(|&v| (near[v].min(4), std::cmp::Reverse(value(s, v)), v));
    for v in spots.iter().take(2) {
        let _ = writeln!(o, "if I can: settlement {}", t.vertex_name(*v));
    }
    for &st in lines.iter().take(4) {
        let word = match x.rail.kind(st) {
            Some(Kind::Ferry) => "ferry",
            _ => "line",
        };
        let _ = writeln!(o, "if I can: {word} {}", name(st));
    }
    let _ = writeln!(o, "if I can: buy development card");
    if x.race.is_some() && x.players[seat as usize].pieces() + 1 >= super::state::PIECES_TO_MOVE {
        let _ = writeln!(o, "move to tower");
    }
}

/// 5–6 players: what to build in the special building phases after the others'
/// turns, from the position now (a line that cannot be done then is kept for a later
/// phase; one done is used up): the best city on the railway, the settlement site
/// nearest the railway, and the two best rail lines or ferries.
fn between(s: &State, seat: u8, o: &mut String) {
    let t = &s.board.topology;
    let Some(x) = x(s) else { return };
    let p = &s.players[seat as usize];
    let mut orders = Vec::new();
    let city = p
        .settlements
        .iter()
        .filter(|&v| x.touched.has(v))
        .max_by_key(|&v| (value(s, v), std::cmp::Reverse(v)));
    if let Some(v) = city {
        orders.push(format!("city {}", t.vertex_name(v)));
    }
    let near = distances(x, &x.players[seat as usize].nodes);
    if let Some(v) = sites(s, seat)
        .into_iter()
        .min_by_key(|&v| (near[v].min(4), std::cmp::Reverse(value(s, v)), v))
    {
        orders.push(format!("settlement {}", t.vertex_name(v)));
    }
    for st in pieces(s, seat).into_iter().take(2) {
        let word = match x.rail.kind(st) {
            Some(Kind::Ferry) => "ferry",
            _ => "line",
        };
        orders.push(format!("{word} {}", x.rail.stretch_name(t, st)));
    }
    if !orders.is_empty() {
        let _ = writeln!(o, "between turns");
        for line in orders {
            let _ = writeln!(o, "{line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::layout::Layout;
    use crate::express::{Map, new_game};

    /// The bot writes orders that read clean, at the founding and in a turn.
    #[test]
    fn the_bots_orders_read_clean() {
        let names: Vec<String> = ["A", "B", "C", "D"].iter().map(|s| s.to_string()).collect();
        let s = new_game("bots", &names, 1, Map::Island, Layout::Beginner).expect("a game");
        let seat = s.actor();
        let text = orders(&s, seat);
        let c = crate::orders::check::check(&s, s.colour(seat), "bot.txt", &text);
        assert_eq!(c.errors(), 0, "{}\n{text}", c.diagnostics.render());
        assert!(text.contains("settlement"), "{text}");
    }
}
