//! The order file a player is mailed to fill (docs/catan-orders.md, "The template";
//! "Players see what they can do"): each section's heading with an example
//! as a comment, and under it, as comments, what the seat may do as things stand — the
//! free founding places; where a road, settlement or city (Catan Express: rail line,
//! ferry, settlement, city) may go, what the seat's hand can pay, and its bank trades.
//!
//! Every place comes from the rules' own place checks ([`State::road_place`],
//! [`State::settlement_place`], [`State::city_place`], `check_site` for the founding,
//! [`crate::express::building::site`] for rail lines and ferries) and every cost from
//! the rules' constants, so the template and the judge cannot disagree. It reads only
//! what the seat may know: the public board (pieces, harbours, the pieces each player
//! has left, how many development cards are left) and the seat's own hand. The hand is
//! private, so the template goes to its seat alone: its own report mail and its own
//! `template` answer (judge-core's `pbem::order_body`, `pbem::order_template`).

use std::fmt::Write as _;

use crate::cards::{Cards, Resource};
use crate::scenario::Variant;
use crate::scenario::{self, RailKind as Kind, Stretch};
use crate::state::{Phase, State};

/// Where the comment lines wrap (the mail indents them by four; a line a mail program
/// wraps would lose its `#`).
const WIDTH: usize = 74;

/// The widest entry of the table's pay column: what a hand lacks of two resources.
const PAY: usize = 22;

/// The template for `seat` (a seat number of the state).
pub fn template(s: &State, seat: u8) -> String {
    write(s, seat, true)
}

/// The template without the seat's hand: the headings, their examples and the free
/// founding places, all public (the order writer's page on the game's site).
pub fn public_template(s: &State, seat: u8) -> String {
    write(s, seat, false)
}

fn write(s: &State, seat: u8, with_hand: bool) -> String {
    let express = matches!(s.options.variant, Variant::Express(_));
    let mut out = String::new();
    let founding = matches!(s.phase, Phase::Founding { .. });
    // The seat's own placements still to come (two each).
    let to_found = founding && s.players[seat as usize].buildings().len() < 2;
    if founding {
        out.push_str(if express {
            "founding\n# settlement 13\n# settlement 40 line N\n"
        } else {
            "founding\n# settlement 13 road 13-18\n# settlement 40 road 40-45\n"
        });
        if to_found {
            let free: Vec<String> = founding_places(s, seat)
                .into_iter()
                .map(|v| s.vertex_name(v))
                .collect();
            let head = if express {
                "# Free now (a second settlement's line runs into one of its land hexes):"
            } else {
                "# Free now (the road goes on an edge at the settlement):"
            };
            out.push_str(head);
            out.push('\n');
            wrap(&mut out, "#   ", &free);
        }
        out.push('\n');
    }
    if express {
        out.push_str(
            "turn\n# line 13-F / ferry 16-24 / settlement 13 / city 13 / buy card\n# move to tower\n",
        );
    } else {
        out.push_str("before roll\n# play knight robber E rob blue\n\nturn\n# build road 12-13 / build settlement 13 / build city 13 / buy development card\n# trade 4 wood for ore\n");
    }
    if with_hand && s.phase != Phase::Over && !to_found {
        out.push_str(&table(s, seat));
    }
    out.push_str("end\n");
    out
}

/// The free founding places for `seat`, as things stand.
pub fn founding_places(s: &State, seat: u8) -> Vec<usize> {
    let t = &s.board.topology;
    (0..t.vertices.len())
        .filter(|&v| s.check_site(seat, v).is_ok())
        .collect()
}

/// What a template lists of the seat's turn: the places, by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Places {
    pub roads: Vec<usize>,
    pub settlements: Vec<usize>,
    pub cities: Vec<usize>,
    /// Catan Express: rail lines and ferries, with the bricks of each one's parallel fee.
    pub lines: Vec<(Stretch, u8)>,
    pub ferries: Vec<(Stretch, u8)>,
}

/// Where `seat` may build as the board stands (whatever the phase and the hand).
pub fn places(s: &State, seat: u8) -> Places {
    let t = &s.board.topology;
    let mut p = Places::default();
    if s.scenario.is_none() {
        p.roads = (0..t.edges.len())
            .filter(|&e| s.road_place(seat, e).is_ok())
            .collect();
    }
    p.settlements = (0..t.vertices.len())
        .filter(|&v| s.settlement_place(seat, v).is_ok())
        .collect();
    p.cities = (0..t.vertices.len())
        .filter(|&v| s.city_place(seat, v).is_ok())
        .collect();
    if let Some(x) = s.scenario.as_deref() {
        for st in 0..x.rail.stretches() as Stretch {
            if let Ok(kind) = scenario::site(s, seat, st) {
                let fee = scenario::fee(x, st);
                match kind {
                    Kind::Line => p.lines.push((st, fee)),
                    Kind::Ferry => p.ferries.push((st, fee)),
                }
            }
        }
    }
    p
}

/// The table under `turn`: the seat's hand, each build with what it lacks and where it
/// may go, the development cards left, the bank trades.
fn table(s: &State, seat: u8) -> String {
    let hand = s.players[seat as usize].hand;
    let p = places(s, seat);
    let named = |list: &[usize], name: &dyn Fn(usize) -> String| -> Vec<String> {
        list.iter().map(|&i| name(i)).collect()
    };
    let vertices = |list: &[usize]| named(list, &|v| s.vertex_name(v));
    let stretches = |list: &[(Stretch, u8)]| -> Vec<String> {
        let Some(x) = s.scenario.as_deref() else {
            return Vec::new();
        };
        list.iter()
            .map(|&(st, fee)| {
                let name = x.rail.stretch_name(&s.board.topology, st);
                match fee {
                    0 => name,
                    n => format!("{name}(+{n} brick)"),
                }
            })
            .collect()
    };
    // (what, its cost, where, why nowhere)
    let mut rows: Vec<(&str, Cards, Vec<String>, &str)> = Vec::new();
    let none_left = "no pieces left";
    let nowhere = "nowhere now";
    match s.scenario.as_deref() {
        None => rows.push((
            "road",
            Cards::ROAD,
            named(&p.roads, &|e| s.edge_name(e)),
            if s.roads_left(seat) == 0 {
                none_left
            } else {
                nowhere
            },
        )),
        Some(x) => {
            for (kind, list) in [(Kind::Line, &p.lines), (Kind::Ferry, &p.ferries)] {
                rows.push((
                    match kind {
                        Kind::Line => "line",
                        Kind::Ferry => "ferry",
                    },
                    scenario::cost(kind),
                    stretches(list),
                    if x.left(seat, kind) == 0 {
                        none_left
                    } else {
                        nowhere
                    },
                ));
            }
        }
    }
    rows.push((
        "settlement",
        Cards::SETTLEMENT,
        vertices(&p.settlements),
        if s.settlements_left(seat) == 0 {
            none_left
        } else {
            nowhere
        },
    ));
    rows.push((
        "city",
        Cards::CITY,
        vertices(&p.cities),
        if s.cities_left(seat) == 0 {
            "no city allowed now"
        } else {
            nowhere
        },
    ));
    let deck = s.deck.len();
    rows.push((
        "dev card",
        Cards::DEVELOPMENT,
        Vec::new(),
        if deck == 0 { "none left" } else { "" },
    ));
    let pays = |cost: &Cards| -> String {
        let short = hand.short_of(cost);
        if short.is_empty() {
            "can pay".to_string()
        } else {
            format!("{short} short")
        }
    };
    // The pay column is as wide as its widest entry up to [`PAY`]; a wider one puts
    // its row's places on the next line, in the same column.
    let pay_width = rows
        .iter()
        .map(|r| pays(&r.1).len())
        .filter(|&n| n <= PAY)
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "#\n# As things stand for {} (others may build first; the dice change your\n# hand). You hold {hand}.",
        s.colour(seat)
    );
    let indent = format!("#{}", " ".repeat(3 + 10 + 2 + pay_width + 2));
    for (what, cost, list, why) in &rows {
        let pay = pays(cost);
        let words: Vec<String> = if *what == "dev card" {
            vec![match deck {
                0 => why.to_string(),
                n => format!("{n} left"),
            }]
        } else if list.is_empty() {
            vec![why.to_string()]
        } else {
            let mut w = list.clone();
            w[0] = format!("at {}", w[0]);
            w
        };
        if pay.len() > pay_width {
            let _ = writeln!(out, "#   {what:<10}  {pay}");
            wrap_from(&mut out, &indent, &indent, &words);
        } else {
            let lead = format!("#   {what:<10}  {pay:<pay_width$}  ");
            wrap_from(&mut out, &lead, &indent, &words);
        }
    }
    let _ = writeln!(out, "#   {:<10}  {}", "trade", rates(s, seat));
    out
}

/// The bank trades of `seat`: best rate first, by resource (`2:1 ore, 3:1 the rest`).
pub fn rates(s: &State, seat: u8) -> String {
    let mut groups: Vec<(u8, Vec<Resource>)> = Vec::new();
    for r in Resource::ALL {
        let rate = s.rate(seat, r);
        match groups.iter_mut().find(|(k, _)| *k == rate) {
            Some((_, list)) => list.push(r),
            None => groups.push((rate, vec![r])),
        }
    }
    groups.sort_by_key(|(k, _)| *k);
    let last = groups.len().saturating_sub(1);
    groups
        .iter()
        .enumerate()
        .map(|(i, (rate, list))| {
            let what = if groups.len() == 1 {
                "any".to_string()
            } else if i == last {
                "the rest".to_string()
            } else {
                list.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ")
            };
            format!("{rate}:1 {what}")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `words` after `lead`, wrapped at [`WIDTH`], each line again a comment.
fn wrap(out: &mut String, indent: &str, words: &[String]) {
    if words.is_empty() {
        let _ = writeln!(out, "{indent}none");
        return;
    }
    wrap_from(out, indent, indent, words);
}

fn wrap_from(out: &mut String, lead: &str, indent: &str, words: &[String]) {
    let mut line = lead.to_string();
    let mut empty = true;
    for w in words {
        if !empty && line.len() + 1 + w.len() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(w);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
}
