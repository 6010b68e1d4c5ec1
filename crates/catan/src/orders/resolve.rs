//! Playing one step of the game by mail: record the order files that came in, then
//! play the founding placement or the whole turn of the player whose move it is, with
//! the orders on record (or the documented defaults), compiled onto the rules' actions.

use std::collections::BTreeMap;

use super::kit::{Flow, act};
use super::parse::parse;
use super::{Acceptance, Cond, Kind, Line, Order, Orders, Record, RobberChoice, Section, Took};
use crate::board::Board;
use crate::cards::{Cards, Resource};
use crate::colour::Colour;
use crate::events::Event;
use crate::rules::{Action, Refusal};
use crate::scenario;
use crate::state::{Phase, State};
use judge_core::diagnostic::Diagnostic;

/// What a play produced.
#[derive(Clone, Debug)]
#[must_use]
pub struct Outcome {
    pub state: State,
    pub events: Vec<Event>,
    /// Lines of the files received that did not read, by player.
    pub problems: BTreeMap<Colour, Vec<Diagnostic>>,
}

/// The orders on record for a seat, read again from the file kept.
pub fn on_record(s: &State, seat: u8) -> Orders {
    s.records
        .get(seat as usize)
        .map(|r| read_kept(&r.text, s))
        .unwrap_or_default()
}

/// What a file on record reads as: the same in every read of a step (a step asks for a
/// seat's orders a dozen times: whose turn it is, each phase, the special building
/// phase of five and six), so the last files read are kept, each with all that reading
/// consults in the state besides the text: the board's graph (its rows or shape) and
/// the seats' colours (`orders::parse` and the reader's `kit::Reader` look at nothing
/// else of a base game) and the scenario's own (`scenario::reading_context`).
/// Reading is a pure function of those, so keeping them changes no result.
fn read_kept(text: &str, s: &State) -> Orders {
    /// Files kept per thread: every seat of the largest game, for a game or two.
    const KEPT: usize = 12;
    struct Kept {
        text: String,
        rows: Vec<u8>,
        shape: Vec<String>,
        colours: Vec<Colour>,
        context: scenario::ReadingContext,
        orders: Orders,
    }
    thread_local! {
        static KEPT_FILES: std::cell::RefCell<Vec<Kept>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let t = &s.board.topology;
    // A graph made other than from rows or a shape has nothing to be known by.
    if t.rows.is_empty() && t.shape.is_empty() {
        return parse(text, s).orders;
    }
    let same = |k: &Kept| {
        k.text == text
            && k.rows == t.rows
            && k.shape == t.shape
            && k.colours.len() == s.players.len()
            && k.colours
                .iter()
                .zip(&s.players)
                .all(|(c, p)| *c == p.colour)
            && k.context.reads_as(s)
    };
    if let Some(orders) = KEPT_FILES.with(|kept| {
        kept.borrow()
            .iter()
            .find(|k| same(k))
            .map(|k| k.orders.clone())
    }) {
        return orders;
    }
    let orders = parse(text, s).orders;
    KEPT_FILES.with(|kept| {
        let mut kept = kept.borrow_mut();
        if kept.len() >= KEPT {
            kept.remove(0);
        }
        kept.push(Kept {
            text: text.to_string(),
            rows: t.rows.clone(),
            shape: t.shape.clone(),
            colours: s.players.iter().map(|p| p.colour).collect(),
            context: scenario::reading_context(s),
            orders: orders.clone(),
        });
    });
    orders
}

/// Whose orders the judge waits for before it can play the next step.
pub fn awaited(s: &State) -> Vec<Colour> {
    match s.phase {
        Phase::Over => Vec::new(),
        Phase::Founding { .. } => {
            let seat = s.actor();
            let orders = on_record(s, seat);
            let rec = &s.records[seat as usize];
            let ready = orders.lines.iter().any(|l| match l.kind {
                Kind::Founding { settlement, .. } => {
                    !rec.used.contains_key(&l.line)
                        && s.check(Action::FoundSettlement(settlement)).is_ok()
                }
                _ => false,
            });
            if ready {
                Vec::new()
            } else {
                vec![s.colour(seat)]
            }
        }
        _ => {
            let seat = s.active;
            let rec = &s.records[seat as usize];
            if !rec.turn_played && on_record(s, seat).has_turn() {
                Vec::new()
            } else {
                vec![s.colour(seat)]
            }
        }
    }
}

/// In the founding: the places the placing player's founding list on record still
/// names (not used yet), when it names some and none of them is free now: the judge
/// waits for that player, and their report says why. `None` when
/// the list has a free place, or names none.
pub fn founding_list_spent(s: &State) -> Option<Vec<crate::board::VertexId>> {
    let Phase::Founding { .. } = s.phase else {
        return None;
    };
    let seat = s.actor();
    let rec = &s.records[seat as usize];
    let listed: Vec<crate::board::VertexId> = on_record(s, seat)
        .lines
        .iter()
        .filter(|l| !rec.used.contains_key(&l.line))
        .filter_map(|l| match l.kind {
            Kind::Founding { settlement, .. } => Some(settlement),
            _ => None,
        })
        .collect();
    (!listed.is_empty()
        && listed
            .iter()
            .all(|v| s.check(Action::FoundSettlement(*v)).is_err()))
    .then_some(listed)
}

/// Put every file given on record for its player (replacing the one before), without
/// playing anything: what [`awaited`] then says is whether the next step can be played.
pub fn record(before: &State, files: &BTreeMap<Colour, String>) -> Outcome {
    let mut s = before.clone();
    let mut ev = Vec::new();
    let mut problems: BTreeMap<Colour, Vec<Diagnostic>> = BTreeMap::new();
    for (c, text) in files {
        let Some(seat) = s.seat_of(*c) else {
            problems
                .entry(*c)
                .or_default()
                .push(Diagnostic::new(format!("{c} does not play in this game")));
            continue;
        };
        let parsed = parse(text, &s);
        if !parsed.problems.is_empty() {
            problems.insert(*c, parsed.problems);
        }
        s.records[seat as usize] = Record {
            text: text.clone(),
            since: s.step + 1,
            used: BTreeMap::new(),
            turn_played: false,
            took: Vec::new(),
        };
        ev.push(Event::Recorded { player: *c });
    }
    Outcome {
        state: s,
        events: ev,
        problems,
    }
}

/// Play the next step: every file given is put on record for its player (replacing the
/// one before); then the founding placement or turn due is played.
pub fn play(before: &State, files: &BTreeMap<Colour, String>) -> Outcome {
    let Outcome {
        state: mut s,
        events: mut ev,
        problems,
    } = record(before, files);
    if s.phase == Phase::Over {
        return Outcome {
            state: s,
            events: ev,
            problems,
        };
    }
    s.step += 1;
    if let Phase::Founding { .. } = s.phase {
        founding(&mut s, &mut ev);
    } else {
        turn(&mut s, &mut ev);
    }
    Outcome {
        state: s,
        events: ev,
        problems,
    }
}

// ---- The founding -------------------------------------------------------------------

/// The founding line of a player's file that a placement takes: the first not used yet
/// whose place `free` says is free and clear. In Catan Express only the second
/// settlement gets a rail line ("The first settlement of each player therefore has no
/// road. At the second settlement, a 'Railroad Line' (road) is built"), so the first
/// placement takes the first such line that names no `line`, if there is one, and the
/// second the first that names one; failing that, the first line usable. `judge check`
/// says what this picks, from the same function.
pub fn founding_pick<'a>(
    s: &State,
    orders: &'a Orders,
    gets_piece: bool,
    used: &dyn Fn(u32) -> bool,
    free: &dyn Fn(usize) -> bool,
) -> Option<&'a Line> {
    let usable: Vec<&Line> = orders
        .section(Section::Founding)
        .filter(|l| !used(l.line))
        .filter(|l| matches!(l.kind, Kind::Founding { settlement, .. } if free(settlement)))
        .collect();
    if s.scenario.is_some() {
        let has_line = |l: &&Line| matches!(l.kind, Kind::Founding { line: Some(_), .. });
        let preferred = usable.iter().find(|l| has_line(l) == gets_piece).copied();
        if preferred.is_some() {
            return preferred;
        }
    }
    usable.first().copied()
}

fn founding(s: &mut State, ev: &mut Vec<Event>) {
    let seat = s.actor();
    let c = s.colour(seat);
    let orders = on_record(s, seat);
    let index = match s.phase {
        Phase::Founding { index, .. } => index,
        _ => 0,
    };
    let gets_piece = crate::scenario::founding_road(s, index);
    let rec = s.records[seat as usize].clone();
    let pick = founding_pick(
        s,
        &orders,
        gets_piece,
        &|l| rec.used.contains_key(&l),
        &|v| s.check(Action::FoundSettlement(v)).is_ok(),
    )
    .cloned();
    let named_any = orders.section(Section::Founding).next().is_some();
    // The places named before the one taken (or all, if none is) that could not be
    // used: the player is told why.
    for l in orders.section(Section::Founding) {
        if pick.as_ref().is_some_and(|p| p.line == l.line) {
            break;
        }
        let Kind::Founding { settlement, .. } = l.kind else {
            continue;
        };
        if rec.used.contains_key(&l.line) {
            continue;
        }
        if let Err(r) = s.check(Action::FoundSettlement(settlement)) {
            ev.push(Event::Skipped {
                player: c,
                line: l.line,
                text: l.text.clone(),
                why: r.text(s),
            });
        }
    }
    let placed = match &pick {
        Some(l) => {
            let Kind::Founding {
                settlement,
                road,
                line,
            } = l.kind
            else {
                return;
            };
            s.records[seat as usize].used.insert(l.line, 1);
            ev.push(order_event(c, l));
            let _ = act(s, ev, Action::FoundSettlement(settlement));
            Some((road.map(Piece::Road).or(line.map(Piece::Line)), l))
        }
        None => {
            let v = default_site(s);
            let name = s.vertex_name(v);
            ev.push(Event::Default {
                player: c,
                what: if named_any {
                    format!("none of {c}'s founding places was free: the judge founded a settlement at {name}")
                } else if s.records[seat as usize].text.trim().is_empty() {
                    format!("{c} sent no orders: the judge founded a settlement at {name}")
                } else {
                    format!("{c}'s orders name no founding place: the judge founded a settlement at {name}")
                },
            });
            let _ = act(s, ev, Action::FoundSettlement(v));
            None
        }
    };
    let Phase::Founding {
        settlement: Some(v),
        ..
    } = s.phase
    else {
        // The placement gets no piece (Catan Express, the first settlement): a rail line
        // named with it is not built, and the player is told so.
        if let Some((Some(Piece::Line(_)), l)) = &placed {
            ev.push(Event::Failed {
                player: c,
                line: l.line,
                text: format!("{} (the rail line)", l.text),
                reason: Refusal::Scenario(scenario::Refusal::FirstHasNoLine),
            });
        }
        return;
    };
    // The piece named with the settlement, if it can be laid.
    let why_default = match &placed {
        Some((Some(piece), l)) => {
            let a = match piece {
                Piece::Road(e) => Ok(Action::FoundRoad(*e)),
                Piece::Line(Ok(st)) => Ok(Action::Scenario(scenario::Act::FoundLine(*st))),
                Piece::Line(Err(r)) => Err(*r),
            };
            let tried = match a {
                Ok(a) => act(s, ev, a),
                Err(r) => Err(r),
            };
            match tried {
                Ok(()) => return,
                Err(r) => {
                    ev.push(Event::Failed {
                        player: c,
                        line: l.line,
                        text: format!(
                            "{} ({})",
                            l.text,
                            if matches!(piece, Piece::Road(_)) {
                                "the road"
                            } else {
                                "the rail line"
                            }
                        ),
                        reason: r,
                    });
                    if matches!(piece, Piece::Road(_)) {
                        format!("{c}'s road could not be laid: ")
                    } else {
                        format!("{c}'s rail line could not be laid: ")
                    }
                }
            }
        }
        Some((None, _)) if s.scenario.is_some() => format!(
            "{c} named no rail line with the settlement at {}: ",
            s.vertex_name(v)
        ),
        Some((None, _)) => format!(
            "{c} named no road with the settlement at {}: ",
            s.vertex_name(v)
        ),
        None => String::new(),
    };
    if let Some(st) = scenario::default_founding_line(s, v) {
        let name = s.scenario.as_deref().map_or(String::new(), |x| {
            x.rail.stretch_name(&s.board.topology, st)
        });
        ev.push(Event::Default {
            player: c,
            what: format!("{why_default}the judge laid {c}'s first rail line at {name}"),
        });
        let _ = act(s, ev, Action::Scenario(scenario::Act::FoundLine(st)));
        return;
    }
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    if let Some(&a) = legal.first() {
        if let Action::FoundRoad(e) = a {
            ev.push(Event::Default {
                player: c,
                what: format!(
                    "{why_default}the judge laid {c}'s founding road at {}",
                    s.edge_name(e)
                ),
            });
        }
        let _ = act(s, ev, a);
    }
}

/// The default founding site: the free site with the most pips around it, the lowest
/// number first on a tie.
pub fn default_site(s: &State) -> usize {
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    let t = &s.board.topology;
    legal
        .iter()
        .filter_map(|a| match a {
            Action::FoundSettlement(v) => Some(*v),
            _ => None,
        })
        .max_by_key(|&v| {
            let pips: u32 = t.vertices[v]
                .hexes
                .iter()
                .map(|&(h, _)| Board::pips(s.board.number[h]))
                .sum();
            (pips, std::cmp::Reverse(v))
        })
        .unwrap_or(0)
}

// ---- A turn -------------------------------------------------------------------------

/// The piece a founding placement names after its settlement.
enum Piece {
    Road(crate::board::EdgeId),
    Line(Result<u16, Refusal>),
}

fn order_event(c: Colour, l: &Line) -> Event {
    Event::Order {
        player: c,
        line: l.line,
        text: l.text.clone(),
    }
}

fn turn(s: &mut State, ev: &mut Vec<Event>) {
    let seat = s.active;
    let c = s.colour(seat);
    let rec = &s.records[seat as usize];
    let orders = if !rec.turn_played {
        let o = on_record(s, seat);
        o.has_turn().then_some(o)
    } else {
        None
    };
    s.records[seat as usize].turn_played = true;
    // Points reached outside the turn count from its start (the race may begin).
    s.after_action(ev);
    scenario::after_act(s, ev);
    let Some(orders) = orders else {
        ev.push(Event::Default {
            player: c,
            what: format!(
                "{c} sent no orders for this turn: the judge rolled for them and ended it"
            ),
        });
        if s.phase == Phase::BeforeRoll {
            let _ = act(s, ev, Action::Roll);
            settle(s, ev, None, &Orders::default());
        }
        if s.phase == Phase::Main {
            let _ = act(s, ev, Action::EndTurn);
        }
        special_building(s, ev);
        scenario::after_act(s, ev);
        return;
    };
    for l in orders.section(Section::BeforeRoll) {
        if s.phase != Phase::BeforeRoll {
            break;
        }
        if let Flow::Stop = run_line(s, ev, seat, l, &orders) {
            break;
        }
    }
    if s.phase == Phase::BeforeRoll {
        let _ = act(s, ev, Action::Roll);
        settle(s, ev, None, &orders);
    }
    let mut moved = false;
    for l in orders.section(Section::Turn) {
        if moved {
            // Movement ends the turn: the orders after it are refused (RULINGS R9);
            // standing lines stay on record.
            if matches!(&l.kind, Kind::Turn { alts, .. } if alts.iter().any(|o| *o != Order::End)) {
                ev.push(Event::Failed {
                    player: c,
                    line: l.line,
                    text: l.text.clone(),
                    reason: Refusal::Scenario(scenario::Refusal::MovementEnded),
                });
            }
            continue;
        }
        if s.phase != Phase::Main {
            break;
        }
        match run_line(s, ev, seat, l, &orders) {
            Flow::Go => {}
            Flow::Stop => break,
            Flow::Moved => moved = true,
        }
    }
    if matches!(s.phase, Phase::Main | Phase::Scenario(_)) && s.active == seat {
        let _ = act(s, ev, Action::EndTurn);
    }
    special_building(s, ev);
    scenario::after_act(s, ev);
}

/// 5–6 players: each other player's special building phase, from their orders on record.
fn special_building(s: &mut State, ev: &mut Vec<Event>) {
    while let Phase::SpecialBuild { seat } = s.phase {
        let c = s.colour(seat);
        let orders = on_record(s, seat);
        for l in orders.section(Section::Between) {
            if s.records[seat as usize].used.contains_key(&l.line) {
                continue;
            }
            let Kind::Turn { conds, alts, .. } = &l.kind else {
                continue;
            };
            if let Some(why) = failed_condition(s, seat, conds) {
                ev.push(Event::Skipped {
                    player: c,
                    line: l.line,
                    text: l.text.clone(),
                    why,
                });
                continue;
            }
            let mut first = None;
            let mut done = false;
            for o in alts {
                match try_order(s, ev, seat, o, l, &orders) {
                    Ok(_) => {
                        done = true;
                        break;
                    }
                    Err(r) => {
                        first.get_or_insert(r);
                    }
                }
            }
            if done {
                s.records[seat as usize].used.insert(l.line, 1);
            } else if let Some(r) = first {
                ev.push(Event::Skipped {
                    player: c,
                    line: l.line,
                    text: l.text.clone(),
                    why: format!("{} (kept for a later phase)", r.text(s)),
                });
            }
        }
        if act(s, ev, Action::EndTurn).is_err() {
            break;
        }
    }
}

fn failed_condition(s: &State, seat: u8, conds: &[Cond]) -> Option<String> {
    let total = s.dice.map(|d| d[0] + d[1]);
    for k in conds {
        match k {
            Cond::Rolled(v) => {
                if !total.is_some_and(|t| v.contains(&t)) {
                    return Some(match total {
                        Some(t) => format!("the roll was {t}"),
                        None => "there has been no roll".into(),
                    });
                }
            }
            Cond::NotRolled(v) => {
                if let Some(t) = total
                    && v.contains(&t)
                {
                    return Some(format!("the roll was {t}"));
                }
            }
            Cond::Have(cards) => {
                let have = s.players[seat as usize].hand;
                if !have.covers(cards) {
                    return Some(format!("you hold {have}, not {cards}"));
                }
            }
        }
    }
    None
}

fn run_line(s: &mut State, ev: &mut Vec<Event>, seat: u8, l: &Line, orders: &Orders) -> Flow {
    let c = s.colour(seat);
    let Kind::Turn {
        conds,
        if_can,
        alts,
    } = &l.kind
    else {
        return Flow::Go;
    };
    if let Some(why) = failed_condition(s, seat, conds) {
        ev.push(Event::Skipped {
            player: c,
            line: l.line,
            text: l.text.clone(),
            why,
        });
        return Flow::Go;
    }
    let mut first = None;
    for o in alts {
        match try_order(s, ev, seat, o, l, orders) {
            Ok(f) => return f,
            Err(r) => {
                first.get_or_insert(r);
            }
        }
    }
    if let Some(r) = first {
        if *if_can {
            ev.push(Event::Skipped {
                player: c,
                line: l.line,
                text: l.text.clone(),
                why: r.text(s),
            });
        } else {
            ev.push(Event::Failed {
                player: c,
                line: l.line,
                text: l.text.clone(),
                reason: r,
            });
        }
    }
    Flow::Go
}

/// Do one order; `Err` if nothing of it could be done.
fn try_order(
    s: &mut State,
    ev: &mut Vec<Event>,
    seat: u8,
    o: &Order,
    l: &Line,
    orders: &Orders,
) -> Result<Flow, Refusal> {
    let c = s.colour(seat);
    let single = |a: Action, s: &mut State, ev: &mut Vec<Event>| -> Result<Flow, Refusal> {
        s.check(a)?;
        ev.push(order_event(c, l));
        act(s, ev, a)?;
        Ok(Flow::Go)
    };
    match o {
        Order::Road(e) => single(Action::BuildRoad(*e), s, ev),
        Order::Settlement(v) => single(Action::BuildSettlement(*v), s, ev),
        Order::City(v) => single(Action::BuildCity(*v), s, ev),
        Order::Buy(n) => {
            single(Action::BuyDevelopment, s, ev)?;
            for _ in 1..*n {
                if let Err(r) = act(s, ev, Action::BuyDevelopment) {
                    ev.push(Event::Failed {
                        player: c,
                        line: l.line,
                        text: format!("{} (the rest)", l.text),
                        reason: r,
                    });
                    break;
                }
            }
            Ok(Flow::Go)
        }
        Order::YearOfPlenty(a, b) => single(Action::PlayYearOfPlenty(*a, *b), s, ev),
        Order::Monopoly(r) => single(Action::PlayMonopoly(*r), s, ev),
        Order::Knight(choice) => {
            single(Action::PlayKnight, s, ev)?;
            settle(s, ev, choice.as_ref(), orders);
            Ok(Flow::Go)
        }
        Order::RoadBuilding(edges) => {
            s.check(Action::PlayRoadBuilding)?;
            if let Some(&e) = edges.first() {
                s.road_site(seat, e)?;
            }
            ev.push(order_event(c, l));
            act(s, ev, Action::PlayRoadBuilding)?;
            for &e in edges {
                if !matches!(s.phase, Phase::RoadBuilding { .. }) {
                    break;
                }
                if let Err(r) = act(s, ev, Action::FreeRoad(e)) {
                    ev.push(Event::Failed {
                        player: c,
                        line: l.line,
                        text: format!("{} (road {})", l.text, s.edge_name(e)),
                        reason: r,
                    });
                }
            }
            if matches!(s.phase, Phase::RoadBuilding { .. }) {
                let _ = act(s, ev, Action::EndRoadBuilding);
            }
            Ok(Flow::Go)
        }
        Order::Trade {
            give,
            gives,
            get,
            gets,
        } => {
            let rate = s.rate(seat, *give);
            let gives = if *gives == 0 { rate * gets } else { *gives };
            if gives != rate.saturating_mul(*gets) {
                return Err(Refusal::RateIs {
                    rate,
                    resource: *give,
                });
            }
            let have = s.players[seat as usize].hand;
            if have.get(*give) < gives {
                return Err(Refusal::NeedCards {
                    need: Cards::one(*give, gives),
                    have,
                });
            }
            if s.bank.get(*get) < *gets {
                return Err(Refusal::BankShort { resource: *get });
            }
            let a = Action::MaritimeTrade {
                give: *give,
                get: *get,
            };
            single(a, s, ev)?;
            for _ in 1..*gets {
                act(s, ev, a)?;
            }
            Ok(Flow::Go)
        }
        Order::Offer { give, get, to } => {
            // The offerer's own side first: a refusal for want of one's own cards is
            // the same whatever the others accept and hold.
            s.check_offer(seat, give, get)?;
            let (with, line) = find_taker(s, seat, give, get, *to)?;
            single(
                Action::DomesticTrade {
                    with,
                    give: *give,
                    get: *get,
                },
                s,
                ev,
            )?;
            let rec = &mut s.records[with as usize];
            *rec.used.entry(line).or_insert(0) += 1;
            rec.took.push(Took {
                gave: *give,
                got: *get,
            });
            Ok(Flow::Go)
        }
        Order::End => {
            ev.push(order_event(c, l));
            Ok(Flow::Stop)
        }
        Order::Scenario(o) => scenario::carry_out(s, ev, seat, o, l, orders),
        Order::Refused(r) => Err(*r),
    }
}

/// The first other player (in turn order after the active one, or the one named) with a
/// standing acceptance that takes this offer and the cards to pay. When there is none
/// the refusal says only that (docs/catan.md, "What each player sees"): never whether
/// someone's acceptance matched, nor what they hold.
fn find_taker(
    s: &State,
    seat: u8,
    give: &Cards,
    get: &Cards,
    to: Option<Colour>,
) -> Result<(u8, u32), Refusal> {
    for q in s.after(seat) {
        if to.is_some_and(|t| s.colour(q) != t) {
            continue;
        }
        let orders = on_record(s, q);
        let rec = &s.records[q as usize];
        for l in &orders.lines {
            let Kind::Accept(Acceptance {
                get: wants,
                give: offers,
                times,
                from,
            }) = &l.kind
            else {
                continue;
            };
            let used = rec.used.get(&l.line).copied().unwrap_or(0);
            if used >= *times || from.is_some_and(|f| f != s.colour(seat)) {
                continue;
            }
            if give.covers(wants) && offers.covers(get) && s.players[q as usize].hand.covers(get) {
                return Ok((q, l.line));
            }
        }
    }
    Err(Refusal::NoTaker)
}

/// Play out discards and the robber if the rules wait for them, from the orders on
/// record (a knight's own robber choice first), or by the defaults.
fn settle(s: &mut State, ev: &mut Vec<Event>, knight: Option<&RobberChoice>, orders: &Orders) {
    let mut discarded = [Cards::NONE; 6];
    loop {
        match s.phase {
            Phase::Discard { .. } => {
                let seat = s.actor();
                let prefs = on_record(s, seat).discard();
                let r = discard_choice(s, seat, &prefs, &discarded[seat as usize]);
                let mut local = Vec::new();
                if act(s, &mut local, Action::Discard(r)).is_err() {
                    return;
                }
                discarded[seat as usize].add(&Cards::one(r, 1));
                if !matches!(s.phase, Phase::Discard { owed } if owed[seat as usize] > 0) {
                    let c = s.colour(seat);
                    if prefs.is_empty() {
                        ev.push(Event::NoDiscardPreference { player: c });
                    }
                    ev.push(Event::Discarded {
                        player: c,
                        cards: discarded[seat as usize],
                    });
                }
            }
            Phase::Robber { .. } => {
                let prefs: Vec<RobberChoice> = orders.robber().cloned().collect();
                let (a, default) = robber_choice(s, knight, &prefs);
                if default {
                    let c = s.colour(s.active);
                    let hex = match a {
                        Action::MoveRobber { hex, .. } => s.hex_name(hex).to_string(),
                        _ => String::new(),
                    };
                    ev.push(Event::Default {
                        player: c,
                        what: format!("none of {c}'s robber choices could be used: the judge moved the robber to {hex}"),
                    });
                }
                if act(s, ev, a).is_err() {
                    return;
                }
            }
            _ => return,
        }
    }
}

/// The card to discard next: the first resource of the player's preference they still
/// hold (within its count); else the one they hold most of (on a tie, the first in
/// the order wood, brick, wool, grain, ore).
pub fn discard_choice(
    s: &State,
    seat: u8,
    prefs: &[(Resource, Option<u8>)],
    done: &Cards,
) -> Resource {
    let hand = s.players[seat as usize].hand;
    for &(r, max) in prefs {
        if hand.get(r) > 0 && max.is_none_or(|m| done.get(r) < m) {
            return r;
        }
    }
    let mut best = Resource::Wood;
    for r in Resource::ALL {
        if hand.get(r) > hand.get(best) {
            best = r;
        }
    }
    best
}

/// The robber move: the first usable choice (a hex the robber may go to); whom to rob:
/// the first named who can be robbed there, else — if anyone can — the one with most
/// cards (on a tie, the first after the active player). With no usable choice, the
/// default hex: the first by letter with no buildings, else the first with none of the
/// active player's, else the first other hex. Returns whether the default was used.
pub fn robber_choice(
    s: &State,
    knight: Option<&RobberChoice>,
    prefs: &[RobberChoice],
) -> (Action, bool) {
    let victim_at = |hex: usize, rob: &[Colour]| -> Option<u8> {
        let can = s.robbable(hex);
        if can == 0 {
            return None;
        }
        for c in rob {
            if let Some(q) = s.seat_of(*c)
                && can & (1 << q) != 0
            {
                return Some(q);
            }
        }
        s.after(s.active)
            .filter(|&q| can & (1 << q) != 0)
            .max_by_key(|&q| {
                (
                    s.players[q as usize].hand.total(),
                    std::cmp::Reverse(
                        (q + s.players.len() as u8 - s.active) % s.players.len() as u8,
                    ),
                )
            })
    };
    for ch in knight.into_iter().chain(prefs) {
        if s.board.terrain[ch.hex].is_land() && ch.hex != s.robber {
            let victim = victim_at(ch.hex, &ch.rob);
            return (
                Action::MoveRobber {
                    hex: ch.hex,
                    victim,
                },
                false,
            );
        }
    }
    let t = &s.board.topology;
    let candidates: Vec<usize> = s
        .board
        .land
        .iter()
        .copied()
        .filter(|&h| h != s.robber)
        .collect();
    let empty = candidates
        .iter()
        .copied()
        .find(|&h| t.hexes[h].corners.iter().all(|&v| !s.occupied.has(v)));
    let not_own = candidates.iter().copied().find(|&h| {
        t.hexes[h]
            .corners
            .iter()
            .all(|&v| s.vertex_owner[v] != s.active)
    });
    let hex = empty
        .or(not_own)
        .or(candidates.first().copied())
        .unwrap_or(0);
    (
        Action::MoveRobber {
            hex,
            victim: victim_at(hex, &[]),
        },
        true,
    )
}
