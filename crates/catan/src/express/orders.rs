//! The Express part of the order language (docs/catan-express-orders.md): reading it,
//! carrying it out, and saying in plain words what it will do.
//!
//! ```text
//! settlement 40 line J           founding: the second settlement and its first line
//! line 13-F      ferry 2-5       build (rail lines 1 wood + 1 ore; ferries 1 wood + 1 wool)
//! play road building 13-F, 18-F  two lines or ferries, materials free
//! move F 18 G 24                 the locomotive, along this path, as far as the die allows
//! move to 24     move to tower   the judge's shortest way there (fewest steps, then fares)
//! move to 24 paying wool, white  what fares are paid with, and to whom on parallel lines
//! stopover 23, 40                standing: water-tower places, best first
//! fares wool, grain, to white    standing: fare payments, best first
//! ```

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::events::Refusal as XRefusal;
use super::race;
use super::rail::{Kind, Node, Stretch};
use super::{Act, Express, Step};
use crate::board::VertexId;
use crate::cards::Resource;
use crate::colour::Colour;
use crate::events::Event;
use crate::orders::kit::{Cursor, Flow, Reader, Res, act};
use crate::orders::resolve::on_record;
use crate::orders::{Kind as LineKind, Line, Orders};
use crate::rules::{Action, Refusal};
use crate::state::{Phase, State};
use judge_core::diagnostic::Diagnostic;

/// An Express order in a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// A rail line or ferry.
    Build { kind: Kind, at: Stretch },
    /// Road Building: one or two lines or ferries.
    RoadBuilding(Vec<Stretch>),
    /// Move the locomotive; fares paid with `pay` first, to `to` first on parallel
    /// stretches.
    Move {
        route: Route,
        pay: Vec<Resource>,
        to: Vec<Colour>,
    },
}

/// Where a locomotive goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// Node by node.
    Path(Vec<Node>),
    /// The shortest way to this node.
    To(Node),
    /// The shortest way to the nearest of one's own water towers.
    Tower,
}

/// Express standing orders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Stopover places, best first.
    Stopovers(Vec<VertexId>),
    /// Fares: resources to pay with and owners to pay on parallel stretches, best first.
    Fares { pay: Vec<Resource>, to: Vec<Colour> },
}

// ---- Reading -------------------------------------------------------------------------

fn x<'s>(r: &Reader<'s>) -> Option<&'s Express> {
    r.s.scenario.as_deref()
}

/// Is this an Express game?
pub(crate) fn active(r: &Reader) -> bool {
    x(r).is_some()
}

/// A node: a vertex number or a hex label.
fn node(r: &Reader, c: &mut Cursor) -> Res<Node> {
    let span = c.span();
    let Some(w) = c.next() else {
        return Err(c.missing("a place (a vertex number or a hex letter)"));
    };
    node_word(r, w, span)
}

fn node_word(r: &Reader, w: &str, span: std::ops::Range<usize>) -> Res<Node> {
    let t = &r.s.board.topology;
    let Some(x) = x(r) else {
        return Err(Diagnostic::new("not a Catan Express game").at(span));
    };
    x.rail.parse_node(t, w).ok_or_else(|| {
        Diagnostic::new(format!("`{w}` is not a vertex or a hex"))
            .at(span)
            .label("no such place")
            .help(format!(
                "vertices are numbered 1 to {}, hexes lettered A to {}",
                t.land_vertices.len(),
                t.hexes[t.land_hexes - 1].label
            ))
    })
}

/// A stretch for a piece of `kind`: `13-F`, `13 F`, `F-13`; ferries `13-14` (island) or
/// `13-sea4` (beyond the island). A place that reads but where no such piece may go (a
/// line along a coast, a ferry on a land edge) is `Ok(Err(why))`: an order that is
/// refused when played (RULINGS R1), not a file that does not read.
pub(crate) fn stretch(
    r: &Reader,
    c: &mut Cursor,
    kind: Option<Kind>,
) -> Res<Result<Stretch, Refusal>> {
    let t = &r.s.board.topology;
    let Some(x) = x(r) else {
        return Err(c.missing("a place"));
    };
    let start = c.span();
    let Some(w) = c.next() else {
        return Err(c.missing(match kind {
            Some(Kind::Ferry) => "a place for a ferry (like 2-5 or 2-sea1)",
            _ => "a place for a rail line (a vertex and a hex, like 13-F)",
        }));
    };
    let (a, b, span) = match w.split_once('-') {
        Some((a, b)) => (a.to_string(), b.to_string(), start),
        None => {
            let end = c.span();
            let Some(b) = c.next() else {
                return Err(c.missing("the other end (like 13-F)"));
            };
            (w.to_string(), b.to_string(), start.start..end.end)
        }
    };
    let na = node_word(r, &a, span.clone())?;
    let nb = node_word(r, &b, span.clone())?;
    let _ = t;
    let Some(st) = x.rail.between(na, nb) else {
        return Ok(Err(Refusal::Scenario(XRefusal::NotAPlace {
            kind: kind.unwrap_or(Kind::Line),
        })));
    };
    if let (Some(want), Some(got)) = (kind, x.rail.kind(st))
        && want != got
    {
        return Ok(Err(Refusal::Scenario(XRefusal::PlaceIsFor { kind: got })));
    }
    Ok(Ok(st))
}

/// How to write a piece that is refused for its place (for `judge check`).
pub(crate) fn refusal_help(s: &State, r: &Refusal) -> Option<String> {
    let x = s.scenario.as_deref()?;
    Some(match r {
        Refusal::Scenario(XRefusal::NotAPlace { kind: Kind::Ferry })
            if x.rail.ferries == super::rail::Ferries::Edges =>
        {
            "a ferry lies on an edge at sea or along the coast: two neighbouring vertices, like 2-5".into()
        }
        Refusal::Scenario(XRefusal::NotAPlace { kind: Kind::Ferry }) => {
            "beyond the island a ferry runs from a vertex to the centre of a sea hex it touches, like 2-sea1".into()
        }
        Refusal::Scenario(XRefusal::NotAPlace { .. }) => {
            "a rail line runs from a vertex to the centre of a land hex it touches, like 13-F".into()
        }
        Refusal::Scenario(XRefusal::PlaceIsFor { kind }) => {
            format!("write `{}` and the same place", got_word(*kind))
        }
        _ => return None,
    })
}

fn got_word(k: Kind) -> &'static str {
    match k {
        Kind::Line => "line",
        Kind::Ferry => "ferry",
    }
}

/// After `build` or as the first word: `line`/`rail`/`ferry` and the place. `None` if
/// the word is not one of these.
pub(crate) fn build(r: &Reader, c: &mut Cursor, word: &str) -> Option<Res<crate::orders::Order>> {
    let kind = match word {
        "line" | "rail" | "railway" | "track" => Kind::Line,
        "ferry" | "ship" | "boat" => Kind::Ferry,
        _ => return None,
    };
    if kind == Kind::Line {
        c.eat("line");
    }
    c.eat_any(&["at", "on", "from"]);
    Some(stretch(r, c, Some(kind)).map(|at| match at {
        Ok(at) => crate::orders::Order::Scenario(Order::Build { kind, at }),
        Err(why) => crate::orders::Order::Refused(why),
    }))
}

/// The pieces of a Road Building card: one or two stretches. Three or more, or a piece
/// where none may go, is an order refused when played (the card kept).
pub(crate) fn road_building(r: &Reader, c: &mut Cursor) -> Res<crate::orders::Order> {
    let span = c.span();
    let mut list = Vec::new();
    while !c.done() && c.peek() != Some("or") {
        let kind = if c.eat_any(&["line", "rail"]) {
            Some(Kind::Line)
        } else if c.eat("ferry") {
            Some(Kind::Ferry)
        } else {
            None
        };
        list.push(stretch(r, c, kind)?);
        c.eat_any(&[",", "and"]);
    }
    if list.is_empty() {
        return Err(Diagnostic::new(
            "road building places one or two rail lines or ferries: name them",
        )
        .at(span)
        .help("play road building 13-F, 18-F"));
    }
    if list.len() > 2 {
        return Ok(crate::orders::Order::Refused(Refusal::RoadBuildingPieces));
    }
    match list.into_iter().collect::<Result<Vec<Stretch>, Refusal>>() {
        Ok(list) => Ok(crate::orders::Order::Scenario(Order::RoadBuilding(list))),
        Err(why) => Ok(crate::orders::Order::Refused(why)),
    }
}

/// Resources and colours listed after `paying` / `fares`.
fn fare_items(
    r: &Reader,
    c: &mut Cursor,
    pay: &mut Vec<Resource>,
    to: &mut Vec<Colour>,
) -> Res<()> {
    loop {
        c.eat_any(&["with", "to", "in", ":", "first"]);
        let span = c.span();
        let Some(w) = c.next() else {
            break;
        };
        if let Some(res) = Resource::parse(w) {
            pay.push(res);
        } else if let Some(col) = Colour::parse(w)
            && r.s.seat_of(col).is_some()
        {
            to.push(col);
        } else {
            let d = Diagnostic::new(format!("`{w}` is not a resource or a player"))
                .at(span)
                .label("not understood");
            let mut words: Vec<&str> = Resource::WORDS.to_vec();
            let colours: Vec<&str> = r.s.players.iter().map(|p| p.colour.name()).collect();
            words.extend(colours.iter().copied());
            return Err(
                match judge_core::diagnostic::did_you_mean(w, words.iter().copied()) {
                    Some(m) => d.help(format!("did you mean `{m}`?")),
                    None => d.help("fares are paid in wood, brick, wool, grain or ore, to a player on the line"),
                },
            );
        }
        if !c.eat_any(&[",", "and", "then", "or"]) && c.done() {
            break;
        }
    }
    if pay.is_empty() && to.is_empty() {
        return Err(c.missing("resources to pay fares with, or players to pay"));
    }
    Ok(())
}

/// `move …`: a path, `to PLACE` or `to tower`, then optionally `paying …`.
pub(crate) fn movement(r: &Reader, c: &mut Cursor) -> Res<Order> {
    let route = if c.eat("to") {
        c.eat_any(&["the", "my"]);
        c.eat_any(&["nearest", "next", "closest"]);
        if c.eat_any(&["tower", "towers", "water", "stopover", "stopovers"]) {
            c.eat_any(&["tower", "towers"]);
            Route::Tower
        } else {
            Route::To(node(r, c)?)
        }
    } else {
        let mut path = Vec::new();
        while let Some(w) = c.peek() {
            if matches!(w, "pay" | "paying" | "fares" | "fare" | "or") {
                break;
            }
            if matches!(w, "," | "then" | "via" | "and") {
                c.at += 1;
                continue;
            }
            let span = c.span();
            c.at += 1;
            for part in w.split('-').filter(|p| !p.is_empty()) {
                path.push(node_word(r, part, span.clone())?);
            }
        }
        if path.is_empty() {
            return Err(c.missing(
                "where to move: places one by one (`move F 18 G`), `to 24` or `to tower`",
            ));
        }
        Route::Path(path)
    };
    let (mut pay, mut to) = (Vec::new(), Vec::new());
    if c.eat_any(&["pay", "paying", "fares", "fare"]) {
        c.eat("fares");
        fare_items(r, c, &mut pay, &mut to)?;
    }
    Ok(Order::Move { route, pay, to })
}

/// Express standing lines: `stopover …`, `fares …` / `pay fares …`. `None` if the line
/// is not one.
pub(crate) fn standing(r: &Reader, c: &mut Cursor) -> Option<Res<Standing>> {
    match c.peek()? {
        "stopover" | "stopovers" | "tower" | "towers" => {
            c.at += 1;
            Some(stopovers(r, c))
        }
        "fares" | "fare" => {
            c.at += 1;
            Some(fares(r, c))
        }
        "pay"
            if c.words
                .get(c.at + 1)
                .is_some_and(|w| w.0 == "fares" || w.0 == "fare") =>
        {
            c.at += 2;
            Some(fares(r, c))
        }
        _ => None,
    }
}

fn stopovers(r: &Reader, c: &mut Cursor) -> Res<Standing> {
    c.eat_any(&[":", "at", "on"]);
    let mut list = Vec::new();
    loop {
        list.push(r.vertex(c)?);
        if !c.eat_any(&[",", "then", "or", "and"]) && c.done() {
            break;
        }
    }
    Ok(Standing::Stopovers(list))
}

fn fares(r: &Reader, c: &mut Cursor) -> Res<Standing> {
    let (mut pay, mut to) = (Vec::new(), Vec::new());
    fare_items(r, c, &mut pay, &mut to)?;
    Ok(Standing::Fares { pay, to })
}

/// The first line of a founding placement's first rail line: `line J` or `line 40-J`.
/// A line that reads but cannot be this settlement's (a hex it does not touch, a line
/// from elsewhere) is `Ok(Err(why))`: refused with its reason when the placement is
/// played, the settlement still founded.
pub(crate) fn founding_line(
    r: &Reader,
    c: &mut Cursor,
    settlement: VertexId,
) -> Res<Result<Stretch, Refusal>> {
    let Some(x) = x(r) else {
        return Err(c.missing("a hex"));
    };
    let t = &r.s.board.topology;
    let st = if c.words.get(c.at).is_some_and(|w| w.0.contains('-')) {
        match stretch(r, c, Some(Kind::Line))? {
            Ok(st) => st,
            Err(why) => return Ok(Err(why)),
        }
    } else {
        let h = r.hex(c)?;
        match x.rail.spoke(t, settlement, h) {
            Some(st) => st,
            None => {
                return Ok(Err(Refusal::Scenario(XRefusal::NotAPlace {
                    kind: Kind::Line,
                })));
            }
        }
    };
    if x.rail.ends[st as usize][0] as usize != settlement {
        return Ok(Err(Refusal::Scenario(XRefusal::NotAtNewSettlement)));
    }
    Ok(Ok(st))
}

// ---- Carrying out --------------------------------------------------------------------

fn order_event(c: Colour, l: &Line) -> Event {
    Event::Order {
        player: c,
        line: l.line,
        text: l.text.clone(),
    }
}

/// Do one Express order; `Err` if nothing of it could be done.
pub(crate) fn try_order(
    s: &mut State,
    ev: &mut Vec<Event>,
    seat: u8,
    o: &Order,
    l: &Line,
    orders: &Orders,
) -> Result<Flow, Refusal> {
    let c = s.colour(seat);
    match o {
        Order::Build { at, .. } => {
            let a = Action::Scenario(Act::Build(*at));
            s.check(a)?;
            ev.push(order_event(c, l));
            act(s, ev, a)?;
            Ok(Flow::Go)
        }
        Order::RoadBuilding(list) => {
            s.check(Action::PlayRoadBuilding)?;
            // The card is kept if its first piece cannot be laid (as in the base game).
            if let Some(&first) = list.first() {
                super::building::site(s, seat, first)?;
                let bricks = s
                    .scenario
                    .as_deref()
                    .map_or(0, |x| super::building::fee(x, first));
                let have = s.players[seat as usize].hand.get(Resource::Brick);
                if have < bricks {
                    return Err(Refusal::Scenario(XRefusal::CannotPayFee { bricks, have }));
                }
            }
            ev.push(order_event(c, l));
            act(s, ev, Action::PlayRoadBuilding)?;
            for &st in list {
                if !matches!(s.phase, Phase::RoadBuilding { .. }) {
                    break;
                }
                if let Err(r) = act(s, ev, Action::Scenario(Act::Free(st))) {
                    let name = s.scenario.as_deref().map_or(String::new(), |x| {
                        x.rail.stretch_name(&s.board.topology, st)
                    });
                    ev.push(Event::Failed {
                        player: c,
                        line: l.line,
                        text: format!("{} ({name})", l.text),
                        reason: r,
                    });
                }
            }
            if matches!(s.phase, Phase::RoadBuilding { .. }) {
                let _ = act(s, ev, Action::EndRoadBuilding);
            }
            Ok(Flow::Go)
        }
        Order::Move { route, pay, to } => {
            race::can_move(s)?;
            let (path, gap) = plan(s, seat, route)?;
            let prefs = fare_prefs(s, seat, pay, to, orders);
            // The first step must be possible, or the order is refused and costs nothing.
            let first = fare_for(s, seat, path[0], &prefs)?;
            s.check(Action::Scenario(Act::Step {
                stretch: path[0],
                fare: first,
            }))?;
            ev.push(order_event(c, l));
            for &st in &path {
                // Points used up, or stopped at a tower.
                if s.active != seat || race::can_move(s).is_err() {
                    break;
                }
                let fare = match fare_for(s, seat, st, &prefs) {
                    Ok(f) => f,
                    Err(r) => {
                        ev.push(Event::Skipped {
                            player: c,
                            line: l.line,
                            text: l.text.clone(),
                            why: format!("the locomotive stops: {}", r.text(s)),
                        });
                        break;
                    }
                };
                if let Err(r) = act(s, ev, Action::Scenario(Act::Step { stretch: st, fare })) {
                    ev.push(Event::Failed {
                        player: c,
                        line: l.line,
                        text: l.text.clone(),
                        reason: r,
                    });
                    break;
                }
            }
            // The path as written breaks off here; the locomotive went as far as it ran.
            if let (Some((a, b)), Ok(_)) = (gap, race::can_move(s))
                && s.active == seat
                && let Some(x) = s.scenario.as_deref()
            {
                let t = &s.board.topology;
                ev.push(Event::Skipped {
                    player: c,
                    line: l.line,
                    text: l.text.clone(),
                    why: format!(
                        "the locomotive stops at {}: no rail line or ferry joins {} and {}",
                        x.rail.node_name(t, a),
                        x.rail.node_name(t, a),
                        x.rail.node_name(t, b)
                    ),
                });
            }
            Ok(Flow::Moved)
        }
    }
}

/// How fares are paid: resources and owners, best first (the order's own, then the
/// standing `fares` lines).
pub struct FarePrefs {
    pay: Vec<Resource>,
    to: Vec<Colour>,
}

fn fare_prefs(s: &State, seat: u8, pay: &[Resource], to: &[Colour], orders: &Orders) -> FarePrefs {
    let mut p = FarePrefs {
        pay: pay.to_vec(),
        to: to.to_vec(),
    };
    let standing = on_record(s, seat);
    for o in [orders, &standing] {
        for l in &o.lines {
            if let LineKind::Scenario(Standing::Fares { pay, to }) = &l.kind {
                p.pay.extend(pay);
                p.to.extend(to);
            }
        }
    }
    p
}

/// The fare for a step along `st`: none on one's own piece; else the owner (the first
/// named who has a piece there, else the one with the fewest points, then the first
/// after the mover) and the resource (the first named the mover holds, else their
/// largest pile).
fn fare_for(
    s: &State,
    seat: u8,
    st: Stretch,
    prefs: &FarePrefs,
) -> Result<Option<(u8, Resource)>, Refusal> {
    let x = s.scenario.as_deref().ok_or(Refusal::ScenarioRule)?;
    let owners = x.owners[st as usize];
    if owners & (1 << seat) != 0 {
        return Ok(None);
    }
    if owners == 0 {
        return Err(Refusal::Scenario(XRefusal::NoTrack));
    }
    let named = prefs
        .to
        .iter()
        .filter_map(|&c| s.seat_of(c))
        .find(|&o| owners & (1 << o) != 0);
    let owner = named.or_else(|| {
        s.after(seat)
            .filter(|&o| owners & (1 << o) != 0)
            .min_by_key(|&o| s.public_points(o))
    });
    let Some(owner) = owner else {
        return Err(Refusal::Scenario(XRefusal::NoTrack));
    };
    let hand = s.players[seat as usize].hand;
    let r = prefs
        .pay
        .iter()
        .copied()
        .find(|&r| hand.get(r) > 0)
        .or_else(|| {
            let best = Resource::ALL
                .into_iter()
                .max_by_key(|&r| (hand.get(r), Reverse(r.index())))?;
            (hand.get(best) > 0).then_some(best)
        });
    match r {
        Some(r) => Ok(Some((owner, r))),
        None => Err(Refusal::Scenario(XRefusal::CannotPayFare)),
    }
}

/// How a node is reached by the shortest way: its cost (steps, fares) and the stretch
/// it is reached by (none at the start).
type Reached = Option<((u32, u32), Option<Stretch>)>;

/// Shortest ways from the locomotive over the whole railway, per node. Fewest steps
/// first, then fewest rivals' pieces, then the lower node number.
fn shortest(x: &Express, seat: u8, from: Node) -> Vec<Reached> {
    let mut best: Vec<Reached> = vec![None; x.rail.nodes];
    let mut heap = BinaryHeap::new();
    best[from as usize] = Some(((0, 0), None));
    heap.push(Reverse(((0u32, 0u32), from)));
    while let Some(Reverse((cost, n))) = heap.pop() {
        if best[n as usize].is_some_and(|(c, _)| c < cost) {
            continue;
        }
        for &st in &x.rail.at[n as usize] {
            let owners = x.owners[st as usize];
            if owners == 0 {
                continue;
            }
            let fare = u32::from(owners & (1 << seat) == 0);
            let next = (cost.0 + 1, cost.1 + fare);
            let m = x.rail.other(st, n);
            if best[m as usize].is_none_or(|(c, _)| next < c) {
                best[m as usize] = Some((next, Some(st)));
                heap.push(Reverse((next, m)));
            }
        }
    }
    best
}

fn path_to(x: &Express, best: &[Reached], to: Node) -> Vec<Stretch> {
    let mut out = Vec::new();
    let mut n = to;
    while let Some((_, Some(st))) = best[n as usize] {
        out.push(st);
        n = x.rail.other(st, n);
    }
    out.reverse();
    out
}

/// Where a path as written breaks off: two of its places with no piece between.
pub type Gap = Option<(Node, Node)>;

/// The stretches a move order would follow from where the locomotive stands, and where
/// a path as written breaks off, if it does.
pub fn plan(s: &State, seat: u8, route: &Route) -> Result<(Vec<Stretch>, Gap), Refusal> {
    let x = s.scenario.as_deref().ok_or(Refusal::ScenarioRule)?;
    let here = x.players[seat as usize]
        .locomotive
        .ok_or(Refusal::Scenario(XRefusal::NotAtLocomotive))?;
    let mut gap = None;
    let path = match route {
        Route::Path(nodes) => {
            let mut cur = here;
            let mut out = Vec::new();
            for (i, &n) in nodes.iter().enumerate() {
                if n == cur && i == 0 {
                    continue;
                }
                match x.rail.between(cur, n) {
                    Some(st) if x.owners[st as usize] != 0 => {
                        out.push(st);
                        cur = n;
                    }
                    _ => {
                        gap = Some((cur, n));
                        break;
                    }
                }
            }
            out
        }
        Route::To(n) => {
            let best = shortest(x, seat, here);
            path_to(x, &best, *n)
        }
        Route::Tower => {
            let race = x
                .race
                .as_ref()
                .ok_or(Refusal::Scenario(XRefusal::RaceNotStarted))?;
            let best = shortest(x, seat, here);
            let towers: Vec<VertexId> = race
                .stopovers
                .iter()
                .filter(|st| st.collected & (1 << seat) == 0)
                .map(|st| st.vertex)
                .collect();
            if towers.is_empty() {
                return Err(Refusal::Scenario(XRefusal::NoTowerLeft));
            }
            let nearest = towers
                .iter()
                .filter_map(|&v| best[v].map(|(c, _)| (c, v)))
                .min();
            match nearest {
                Some((_, v)) => path_to(x, &best, v as Node),
                None => Vec::new(),
            }
        }
    };
    if path.is_empty() {
        let track = match route {
            Route::Path(_) => XRefusal::NoTrack,
            _ => XRefusal::NoRoute,
        };
        return Err(Refusal::Scenario(track));
    }
    Ok((path, gap))
}

/// The stopover `seat` picks: the first place of their `stopover` lines that may be
/// picked now; else (by default) the place that may be picked nearest their
/// locomotive along the railway, the lower number on a tie. `true` if the default was
/// used.
pub fn stopover_choice(s: &State, seat: u8) -> Option<(VertexId, bool)> {
    let options = race::suitable(s, seat);
    let orders = on_record(s, seat);
    for l in &orders.lines {
        if let LineKind::Scenario(Standing::Stopovers(list)) = &l.kind
            && let Some(&v) = list.iter().find(|v| options.contains(v))
        {
            return Some((v, false));
        }
    }
    let x = s.scenario.as_deref()?;
    let here = x.players[seat as usize].locomotive?;
    let best = shortest(x, seat, here);
    options
        .iter()
        .min_by_key(|&&v| (best[v].map_or(u32::MAX, |(c, _)| c.0), v))
        .map(|&v| (v, true))
}

/// While the rules wait for stopover choices, take them from the players' standing
/// orders (or the default).
pub(crate) fn choose_stopovers(s: &mut State, ev: &mut Vec<Event>) {
    while let Phase::Scenario(Step::Stopover { seat, .. }) = s.phase {
        let Some((v, default)) = stopover_choice(s, seat) else {
            return;
        };
        if default {
            let c = s.colour(seat);
            ev.push(Event::Default {
                player: c,
                what: format!(
                    "none of {c}'s stopover choices could be used: the judge chose {}, the nearest place to their locomotive",
                    s.vertex_name(v)
                ),
            });
        }
        if s.apply(Action::Scenario(Act::Stopover(v)), ev).is_err() {
            return;
        }
    }
}

/// The founding line the judge lays when none is given (or it cannot be laid): into the
/// settlement's land hex with the most dots, the first by letter on a tie.
pub fn default_founding_line(s: &State, v: VertexId) -> Option<Stretch> {
    let x = s.scenario.as_deref()?;
    let t = &s.board.topology;
    x.rail.at[v]
        .iter()
        .copied()
        .filter(|&st| x.rail.kind(st) == Some(Kind::Line))
        .max_by_key(|&st| {
            let h = x.rail.hex_of(x.rail.ends[st as usize][1]).unwrap_or(0);
            (crate::board::Board::pips(s.board.number[h]), Reverse(h))
        })
        .filter(|_| t.vertices[v].land)
}

// ---- In plain words ------------------------------------------------------------------

pub fn describe(s: &State, o: &Order) -> String {
    let Some(x) = s.scenario.as_deref() else {
        return String::new();
    };
    let t = &s.board.topology;
    let name = |st: Stretch| x.rail.stretch_name(t, st);
    match o {
        Order::Build { kind, at } => format!(
            "build a {} at {} ({}, and 1 brick to each player already there)",
            kind.name(),
            name(*at),
            super::building::cost(*kind)
        ),
        Order::RoadBuilding(list) => format!(
            "play road building: free pieces at {} (a parallel fee is still paid)",
            list.iter()
                .map(|&st| name(st))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        Order::Move { route, pay, to } => {
            let mut out = match route {
                Route::Path(p) => format!(
                    "move your locomotive along {}",
                    p.iter()
                        .map(|&n| x.rail.node_name(t, n))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Route::To(n) => format!(
                    "move your locomotive the shortest way to {}",
                    x.rail.node_name(t, *n)
                ),
                Route::Tower => {
                    "move your locomotive the shortest way to your nearest water tower".into()
                }
            };
            out.push_str(", as far as your higher die allows; this ends your turn");
            if !pay.is_empty() || !to.is_empty() {
                let mut items: Vec<String> = pay.iter().map(|r| r.to_string()).collect();
                items.extend(to.iter().map(|c| format!("to {c}")));
                out.push_str(&format!(" (fares: {})", items.join(", ")));
            }
            out
        }
    }
}

pub fn describe_standing(s: &State, st: &Standing) -> String {
    match st {
        Standing::Stopovers(list) => format!(
            "when the race begins, your stopover: the first of {} you may pick",
            list.iter()
                .map(|&v| s.vertex_name(v))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Standing::Fares { pay, to } => {
            let mut parts = Vec::new();
            if !pay.is_empty() {
                parts.push(format!(
                    "pay fares with {}",
                    pay.iter()
                        .map(|r| r.name())
                        .collect::<Vec<_>>()
                        .join(", then ")
                ));
            }
            if !to.is_empty() {
                parts.push(format!(
                    "on parallel lines pay {}",
                    to.iter()
                        .map(|c| c.name())
                        .collect::<Vec<_>>()
                        .join(", then ")
                ));
            }
            format!("standing: {}", parts.join("; "))
        }
    }
}

/// Warnings for an Express order as things stand.
pub fn warnings(s: &State, seat: u8, o: &Order) -> Vec<String> {
    let mut out = Vec::new();
    match o {
        Order::Build { at, .. } => {
            if let Err(r) = super::building::site(s, seat, *at) {
                out.push(format!("{}: {}", describe_place(s, *at), r.text(s)));
            }
        }
        Order::RoadBuilding(_) => {}
        Order::Move { .. } => {
            let started = s.scenario.as_deref().is_some_and(|x| x.race.is_some());
            if !started {
                out.push("the race has not started: a move would fail".into());
            }
        }
    }
    out
}

fn describe_place(s: &State, st: Stretch) -> String {
    s.scenario.as_deref().map_or(String::new(), |x| {
        x.rail.stretch_name(&s.board.topology, st)
    })
}
