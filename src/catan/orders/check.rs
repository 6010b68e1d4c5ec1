//! `judge check` for Catan: every problem in an order file, with file, line and column,
//! and each order echoed in plain words with what it would do if nothing changed.

use super::parse::parse;
use super::{Cond, Kind, Line, Order, Orders, Section};
use crate::catan::express::orders as xo;
use crate::catan::rules::Action;
use crate::catan::state::{Colour, NOBODY, Phase, State};
use crate::diagnostic::{Diagnostic, Diagnostics};

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
        let mut planned_settlements = Vec::new();
        for l in &o.lines {
            echo.push(format!("line {}: {}", l.line, describe(s, l)));
            warnings(s, seat, l, &mut planned_settlements, &mut items);
        }
        if matches!(s.phase, Phase::Founding { .. })
            && s.actor() == seat
            && !o
                .lines
                .iter()
                .any(|l| matches!(l.kind, Kind::Founding { .. }))
        {
            items.push(
                Diagnostic::new(
                    "it is your founding placement, but this file has none: write `settlement 12 road 12-13`",
                )
                .warning(),
            );
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

fn warnings(s: &State, seat: u8, l: &Line, planned: &mut Vec<usize>, items: &mut Vec<Diagnostic>) {
    let c = s.colour(seat);
    let warn = |msg: String| Diagnostic::new(msg).at(l.span.clone()).warning();
    match &l.kind {
        Kind::Founding { settlement, .. } => {
            if !matches!(s.phase, Phase::Founding { .. }) {
                items.push(warn(
                    "the founding is over: this placement will not be used".into(),
                ));
            } else if let Err(r) = s.check_site(seat, *settlement) {
                items.push(warn(format!(
                    "settlement {} cannot be placed as things stand: {}",
                    s.vertex_name(*settlement),
                    r.text(s)
                )));
            }
        }
        Kind::Accept(a) => {
            if a.from == Some(c) {
                items.push(Diagnostic::new("you cannot trade with yourself").at(l.span.clone()));
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
        Kind::Scenario(xo::Standing::Stopovers(list)) => {
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
                    Order::Settlement(v) => {
                        planned.push(*v);
                        if let Err(r) = s.check_site(seat, *v) {
                            items.push(warn(format!(
                                "settlement {}: {}",
                                s.vertex_name(*v),
                                r.text(s)
                            )));
                        }
                    }
                    Order::City(v) => {
                        if !s.players[seat as usize].settlements.has(*v) && !planned.contains(v) {
                            items.push(warn(format!(
                                "city {}: you have no settlement there",
                                s.vertex_name(*v)
                            )));
                        }
                    }
                    Order::Road(e) => {
                        if s.all_roads.has(*e) {
                            items.push(warn(format!(
                                "road {}: that edge already has a road",
                                s.edge_name(*e)
                            )));
                        }
                    }
                    Order::Trade {
                        give, gives, gets, ..
                    } => {
                        let rate = s.rate(seat, *give);
                        if *gives != 0 && *gives != rate * gets {
                            items.push(warn(format!(
                                "your rate for {give} is {rate}:1 now, so {gets} card(s) cost {} {give}",
                                rate * gets
                            )));
                        }
                    }
                    Order::Scenario(o) => {
                        for w in xo::warnings(s, seat, o) {
                            items.push(warn(w));
                        }
                    }
                    Order::Knight(_)
                    | Order::RoadBuilding(_)
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

/// One order line in plain words.
pub fn describe(s: &State, l: &Line) -> String {
    match &l.kind {
        Kind::Founding {
            settlement,
            road,
            line,
        } => {
            let mut road = road.map_or(String::new(), |e| {
                format!(" with a road at {}", s.edge_name(e))
            });
            if let (Some(st), Some(x)) = (line, s.scenario.as_deref()) {
                road = format!(
                    " with its first rail line at {} (on your second placement)",
                    x.rail.stretch_name(&s.board.topology, *st)
                );
            }
            format!(
                "founding: a settlement at {}{road}, if that place is still free when your placement comes",
                s.vertex_name(*settlement)
            )
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
        Kind::Scenario(st) => xo::describe_standing(s, st),
        Kind::Accept(a) => {
            let from = a.from.map_or("anyone".into(), |c| c.to_string());
            format!(
                "standing: you accept from {from} an offer giving you at least {} for at most {} ({} time(s))",
                a.get, a.give, a.times
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
        Order::Buy(n) => format!("buy {n} development card(s) (1 wool, 1 grain, 1 ore each)"),
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
        Order::Scenario(o) => xo::describe(s, o),
    }
}

/// Is this action, as things stand, possible for the player to move now? (For tools.)
pub fn possible_now(s: &State, a: Action) -> bool {
    s.check(a).is_ok()
}
