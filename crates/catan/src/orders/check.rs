//! `judge check` for Catan: every problem in an order file, with file, line and column,
//! and each order echoed in plain words with what it would do if nothing changed.

use super::parse::parse;
use super::{Cond, Kind, Line, Order, Orders, Section};
use crate::colour::Colour;
use crate::rules::{Action, Refusal};
use crate::scenario;
use crate::state::{NOBODY, Phase, State};
use judge_core::diagnostic::{Diagnostic, Diagnostics};

/// The result of checking an order file.
#[derive(Clone, Debug)]
#[must_use]
pub struct Checked {
    pub diagnostics: Diagnostics,
    /// One sentence per order line, in file order.
    pub echo: Vec<String>,
    pub orders: Orders,
}

impl Checked {
    pub fn errors(&self) -> usize {
        self.diagnostics
            .items
            .iter()
            .filter(|d| d.is_error())
            .count()
    }

    pub fn warnings(&self) -> usize {
        self.diagnostics.items.len() - self.errors()
    }
}

/// Check `source`, the orders of `player`, against the game as it stands.
pub fn check(s: &State, player: Colour, file: &str, source: &str) -> Checked {
    let parsed = parse(source, s);
    let mut items = parsed.problems;
    let o = &parsed.orders;
    let seat = s.seat_of(player);
    if seat.is_none() {
        items.push(Diagnostic::new(format!(
            "{player} does not play in this game"
        )));
    }
    if let Some((c, span)) = &o.header.player
        && *c != player
    {
        items.push(
            Diagnostic::new(format!("this file says `player {c}`, but it is {player}'s"))
                .at(span.clone())
                .label("wrong player"),
        );
    }
    if let Some((g, span)) = &o.header.game
        && !g.eq_ignore_ascii_case(&s.name)
    {
        items.push(
            Diagnostic::new(format!("this file is for game `{g}`, not `{}`", s.name))
                .at(span.clone())
                .label("wrong game")
                .help(format!("write `game {}`", s.name)),
        );
    }
    if let Some((n, span)) = &o.header.turn
        && *n <= s.step
    {
        items.push(
            Diagnostic::new(format!(
                "turn {n} has been played; the next is {}",
                s.step + 1
            ))
            .at(span.clone())
            .label("turn over")
            .help(format!("write `turn {}`", s.step + 1)),
        );
    }
    let mut echo = Vec::new();
    if let Some(seat) = seat {
        let mut planned = Planned::default();
        for l in &o.lines {
            echo.push(format!("line {}: {}", l.line, describe(s, l)));
            warnings(s, seat, l, &mut planned, &mut items);
        }
        if let Phase::Founding { index, .. } = s.phase
            && s.actor() == seat
        {
            let gets_piece = crate::scenario::founding_road(s, index);
            let nth = if gets_piece && s.scenario.is_some() {
                "second"
            } else if index < s.players.len() as u8 {
                "first"
            } else {
                "second"
            };
            let pick = super::resolve::founding_pick(s, o, gets_piece, &|_| false, &|v| {
                s.check(crate::rules::Action::FoundSettlement(v)).is_ok()
            });
            match pick {
                Some(l) => echo.insert(
                    0,
                    format!(
                        "your placement now (your {nth} settlement) takes line {}: {}",
                        l.line, l.text
                    ),
                ),
                None if o
                    .lines
                    .iter()
                    .any(|l| matches!(l.kind, Kind::Founding { .. })) =>
                {
                    items.push(
                        Diagnostic::new(format!(
                            "it is your founding placement, and none of the places this file names is free: the judge would choose; try `{}`",
                            founding_example(s, gets_piece)
                        ))
                        .warning(),
                    );
                }
                None => items.push(
                    Diagnostic::new(format!(
                        "it is your founding placement, but this file has none: write `{}`",
                        founding_example(s, gets_piece)
                    ))
                    .warning(),
                ),
            }
        }
    }
    Checked {
        diagnostics: Diagnostics {
            file: file.to_string(),
            source: source.to_string(),
            items,
        },
        echo,
        orders: parsed.orders,
    }
}

/// The pieces a file's earlier lines build, which a later line may count on: a road
/// from a planned road or settlement, a settlement at a planned road's end, a city on a
/// planned settlement, a settlement in place of one a planned city frees.
#[derive(Default)]
struct Planned {
    settlements: Vec<usize>,
    roads: Vec<usize>,
    cities: usize,
}

impl Planned {
    /// Does a planned road or settlement of the file's touch vertex `v`?
    fn reaches(&self, s: &State, v: usize) -> bool {
        self.settlements.contains(&v)
            || self
                .roads
                .iter()
                .any(|&e| s.board.topology.edges[e].ends.contains(&v))
    }
}

fn warnings(s: &State, seat: u8, l: &Line, planned: &mut Planned, items: &mut Vec<Diagnostic>) {
    let c = s.colour(seat);
    let warn = |msg: String| Diagnostic::new(msg).at(l.span.clone()).warning();
    match &l.kind {
        Kind::Founding {
            settlement, line, ..
        } => {
            if !matches!(s.phase, Phase::Founding { .. }) {
                items.push(warn(
                    "the founding is over: this placement will not be used".into(),
                ));
                return;
            }
            if let Err(r) = s.check_site(seat, *settlement) {
                items.push(warn(format!(
                    "settlement {} cannot be placed as things stand: {}",
                    s.vertex_name(*settlement),
                    r.text(s)
                )));
            }
            if let Some(Err(r)) = line {
                let t = &s.board.topology;
                let hexes: Vec<&str> = t.vertices[*settlement]
                    .hexes
                    .iter()
                    .filter(|&&(h, _)| t.hexes[h].land)
                    .map(|&(h, _)| t.hex_name(h))
                    .collect();
                items.push(
                    warn(format!(
                        "the rail line named here cannot be built ({}): if this settlement is placed, the judge lays its first line",
                        r.text(s)
                    ))
                    .help(format!(
                        "the first line runs from the settlement into one of its hexes: {}",
                        hexes.join(", ")
                    )),
                );
            }
        }
        Kind::Accept(a) => {
            if a.from == Some(c) {
                items.push(Diagnostic::new("you cannot trade with yourself").at(l.span.clone()));
            }
            // Never a resource for itself (docs/catan-orders.md): no offer can match.
            if (0..5).any(|i| a.get.0[i] > 0 && a.give.0[i] > 0) {
                items.push(
                    Diagnostic::new(
                        "this acceptance can never match: a trade never gives a resource for itself",
                    )
                    .at(l.span.clone())
                    .help("name different resources on the two sides of `for`"),
                );
            }
        }
        Kind::Robber(r) => {
            for v in &r.rob {
                if *v == c {
                    items.push(Diagnostic::new("you cannot rob yourself").at(l.span.clone()));
                }
            }
        }
        Kind::Discard(_) => {}
        Kind::Scenario(scenario::Standing::Stopovers(list)) => {
            for &v in list {
                if s.vertex_owner.get(v).is_none_or(|&o| o == NOBODY) {
                    items.push(warn(format!(
                        "stopover {}: there is no settlement or city there yet",
                        s.vertex_name(v)
                    )));
                }
            }
        }
        Kind::Scenario(_) => {}
        Kind::Turn { alts, .. } => {
            for o in alts {
                match o {
                    Order::Offer { to: Some(t), .. } if *t == c => {
                        items.push(
                            Diagnostic::new("you cannot trade with yourself").at(l.span.clone()),
                        );
                    }
                    // The rules' own place checks, as the board stands; a refusal an
                    // earlier line of the file may lift is left out.
                    Order::Settlement(v) => {
                        match s.settlement_place(seat, *v) {
                            Err(Refusal::NotConnected) if planned.reaches(s, *v) => {}
                            Err(Refusal::NoPiecesLeft { .. }) if planned.cities > 0 => {}
                            Err(r) => items.push(warn(format!(
                                "settlement {}: {}",
                                s.vertex_name(*v),
                                r.text(s)
                            ))),
                            Ok(()) => {}
                        }
                        planned.settlements.push(*v);
                    }
                    Order::City(v) => {
                        match s.city_place(seat, *v) {
                            Err(_) if planned.settlements.contains(v) => {}
                            Err(Refusal::NotYourSettlement) => items.push(warn(format!(
                                "city {}: you have no settlement there",
                                s.vertex_name(*v)
                            ))),
                            Err(r) => items.push(warn(format!(
                                "city {}: {}",
                                s.vertex_name(*v),
                                r.text(s)
                            ))),
                            Ok(()) => {}
                        }
                        planned.cities += 1;
                    }
                    Order::Road(e) => {
                        let ends = s.board.topology.edges[*e].ends;
                        match s.road_place(seat, *e) {
                            Err(Refusal::NotConnected)
                                if ends.iter().any(|&v| planned.reaches(s, v)) => {}
                            Err(Refusal::Taken) => items.push(warn(format!(
                                "road {}: that edge already has a road",
                                s.edge_name(*e)
                            ))),
                            Err(r) => {
                                items.push(warn(format!("road {}: {}", s.edge_name(*e), r.text(s))))
                            }
                            Ok(()) => {}
                        }
                        planned.roads.push(*e);
                    }
                    Order::Trade {
                        give, gives, gets, ..
                    } => {
                        let rate = s.rate(seat, *give);
                        if *gives != 0 && *gives != rate * gets {
                            items.push(warn(format!(
                                "your rate for {give} is {rate}:1 now, so {} cost {} {give}",
                                judge_core::text::count(usize::from(*gets), "card"),
                                rate * gets
                            )));
                        }
                    }
                    Order::Scenario(o) => {
                        for w in scenario::warnings(s, seat, o) {
                            items.push(warn(w));
                        }
                    }
                    Order::Refused(r) => {
                        // Refused when played, with its reason, and the other orders
                        // still run (RULINGS R1). Where it stands decides most refusals
                        // (a trade between turns), so they are warnings; a trade of a
                        // resource for itself is one the order language forbids
                        // outright (docs/catan-orders.md), so it is an error.
                        let mut d = if matches!(r, Refusal::SameResource) {
                            Diagnostic::new(format!(
                                "this order can never be done: {}; when played it is refused, and your other orders still run",
                                r.text(s)
                            ))
                            .at(l.span.clone())
                        } else {
                            warn(format!(
                                "this order can never be done here, and will be refused when played: {}",
                                r.text(s)
                            ))
                        };
                        if let Some(h) = scenario::refusal_help(s, r) {
                            d = d.help(h);
                        }
                        items.push(d);
                    }
                    Order::RoadBuilding(list) => planned.roads.extend(list),
                    Order::Knight(_)
                    | Order::YearOfPlenty(..)
                    | Order::Monopoly(_)
                    | Order::Buy(_)
                    | Order::Offer { .. }
                    | Order::End => {}
                }
            }
        }
    }
}

/// A founding line that can be played now, for a hint: the best free place (the
/// judge's own default), with a road at it (base Catan), or its first rail line into
/// one of its land hexes (a second settlement in Catan Express).
pub fn founding_example(s: &State, gets_piece: bool) -> String {
    let v = super::resolve::default_site(s);
    let t = &s.board.topology;
    let name = t.vertex_name(v);
    match s.scenario.as_deref() {
        Some(_) if !gets_piece => format!("settlement {name}"),
        Some(x) => t.vertices[v]
            .hexes
            .iter()
            .filter(|&&(h, _)| t.hexes[h].land)
            .find(|&&(h, _)| x.rail.spoke(t, v, h).is_some())
            .map_or(format!("settlement {name}"), |&(h, _)| {
                format!("settlement {name} line {}", t.hex_name(h))
            }),
        None => t.vertices[v]
            .edges
            .iter()
            .find(|&&e| t.edges[e].land)
            .map_or(format!("settlement {name}"), |&e| {
                format!("settlement {name} road {}", t.edge_name(e))
            }),
    }
}

/// One order line in plain words.
pub fn describe(s: &State, l: &Line) -> String {
    match &l.kind {
        Kind::Founding {
            settlement,
            road,
            line,
        } => {
            let v = s.vertex_name(*settlement);
            match (s.scenario.as_deref(), line) {
                // Catan Express: only the second settlement gets a rail line.
                (Some(x), Some(Ok(st))) => format!(
                    "founding: a second settlement at {v}, with its first rail line at {} (if {v} is still free when your second placement comes)",
                    x.rail.stretch_name(&s.board.topology, *st)
                ),
                (Some(_), Some(Err(r))) => format!(
                    "founding: a second settlement at {v}; its rail line cannot be built ({}), so the judge lays one",
                    r.text(s)
                ),
                (Some(_), None) => format!(
                    "founding: a first settlement at {v} (with no rail line: the first has none), if {v} is still free when your first placement comes"
                ),
                (None, _) => format!(
                    "founding: a settlement at {v}{}, if that place is still free when your placement comes",
                    road.map_or(String::new(), |e| format!(
                        " with a road at {}",
                        s.edge_name(e)
                    ))
                ),
            }
        }
        Kind::Robber(r) => {
            let rob = if r.rob.is_empty() {
                "whoever there has the most cards".to_string()
            } else {
                r.rob
                    .iter()
                    .map(|c| c.name())
                    .collect::<Vec<_>>()
                    .join(", then ")
            };
            format!(
                "when you move the robber: to {}, robbing {rob} (the first usable choice is taken)",
                s.hex_name(r.hex)
            )
        }
        Kind::Discard(list) => {
            let l: Vec<String> = list
                .iter()
                .map(|(r, n)| match n {
                    Some(n) => format!("up to {n} {r}"),
                    None => r.to_string(),
                })
                .collect();
            format!(
                "if you must discard on a 7: {} first, then from your largest piles",
                l.join(", then ")
            )
        }
        Kind::Scenario(st) => scenario::describe_standing(s, st),
        Kind::Accept(a) => {
            let from = a.from.map_or("anyone".into(), |c| c.to_string());
            format!(
                "standing: you accept from {from} an offer giving you at least {} for at most {} ({})",
                a.get,
                a.give,
                judge_core::text::count(usize::from(a.times), "time")
            )
        }
        Kind::Turn {
            conds,
            if_can,
            alts,
        } => {
            let mut out = String::new();
            if l.section == Section::Between {
                out.push_str("in a special building phase: ");
            } else if l.section == Section::BeforeRoll {
                out.push_str("before rolling: ");
            }
            for k in conds {
                out.push_str(&match k {
                    Cond::Rolled(v) => format!("if you roll {}: ", join_rolls(v)),
                    Cond::NotRolled(v) => format!("unless you roll {}: ", join_rolls(v)),
                    Cond::Have(c) => format!("if you hold {c}: "),
                });
            }
            let words: Vec<String> = alts.iter().map(|o| order_words(s, o)).collect();
            out.push_str(&words.join(", or else "));
            if *if_can {
                out.push_str(" (only if possible; no failure otherwise)");
            }
            out
        }
    }
}

fn join_rolls(v: &[u8]) -> String {
    v.iter().map(u8::to_string).collect::<Vec<_>>().join(" or ")
}

fn order_words(s: &State, o: &Order) -> String {
    match o {
        Order::Road(e) => format!("build a road at {} (1 wood, 1 brick)", s.edge_name(*e)),
        Order::Settlement(v) => format!(
            "build a settlement at {} (1 wood, 1 brick, 1 wool, 1 grain)",
            s.vertex_name(*v)
        ),
        Order::City(v) => format!("build a city at {} (2 grain, 3 ore)", s.vertex_name(*v)),
        Order::Buy(n) => format!(
            "buy {} (1 wool, 1 grain, 1 ore each)",
            judge_core::text::count(usize::from(*n), "development card")
        ),
        Order::Knight(r) => match r {
            Some(r) => format!("play a knight, moving the robber to {}", s.hex_name(r.hex)),
            None => "play a knight (the robber goes by your robber lines)".into(),
        },
        Order::RoadBuilding(e) => format!(
            "play road building: free roads at {}",
            e.iter()
                .map(|&e| s.edge_name(e))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        Order::YearOfPlenty(a, b) => format!("play year of plenty: take 1 {a} and 1 {b}"),
        Order::Monopoly(r) => format!("play monopoly: take everyone's {r}"),
        Order::Trade {
            give,
            gives,
            get,
            gets,
        } => {
            if *gives == 0 {
                format!("trade {give} with the bank for {gets} {get} at your best rate")
            } else {
                format!("trade {gives} {give} with the bank for {gets} {get}")
            }
        }
        Order::Offer { give, get, to } => {
            let to = to.map_or("anyone whose standing acceptance takes it".into(), |c| {
                c.to_string()
            });
            format!("offer {give} for {get} to {to}")
        }
        Order::End => "end the turn here".into(),
        Order::Scenario(o) => scenario::describe(s, o),
        Order::Refused(r) => format!("refused when played: {}", r.text(s)),
    }
}

/// Is this action, as things stand, possible for the player to move now? (For tools.)
pub fn possible_now(s: &State, a: Action) -> bool {
    s.check(a).is_ok()
}
