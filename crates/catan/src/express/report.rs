//! The railway in reports and pictures: each player's points, pieces left, chips and
//! towers; their railway (lines by hex centre, ferries), locomotive and starting place;
//! the race (its starter, the stopovers and whose towers still stand there). The
//! picture draws rail lines from vertex to centre (parallel lines side by side),
//! ferries with a boat, locomotives and water towers.

use std::fmt::Write as _;

use super::rail::{Kind, Node, Stretch};
use super::state::{Express, towers_per_player};
use crate::colour::Colour;
use crate::report::kit::{Frame, ink, player_colour, ruled, section, wrap};
use crate::rules::SETTLEMENTS;
use crate::state::{Phase, State};
use judge_core::picture::mark;
use judge_core::picture::{Key, Legend, Picture, Rgb, Shape, Stroke};

/// The Express sections of a report: players, the railway, the race.
pub fn sections(s: &State, viewer: Option<Colour>, o: &mut String, n: &mut usize) {
    let Some(x) = s.scenario.as_deref() else {
        return;
    };
    players(s, x, viewer, o, n);
    railway(s, x, o, n);
    race(s, x, o, n);
}

fn players(s: &State, x: &Express, viewer: Option<Colour>, o: &mut String, n: &mut usize) {
    section(o, n, "Players");
    let who: Vec<String> = s
        .players
        .iter()
        .map(|p| format!("{} {}", p.colour, p.name))
        .collect();
    wrap(o, &format!("{}.", who.join(", ")), 2);
    let mut rows = Vec::new();
    for (seat, p) in s.players.iter().enumerate() {
        let seat = seat as u8;
        let r = &x.players[seat as usize];
        let towers = match &x.race {
            Some(race) => format!("{}/{}", race.collected(seat), race.stopovers.len()),
            None => "-".into(),
        };
        let mut badges = Vec::new();
        if s.largest_army == Some(seat) {
            badges.push("LA");
        }
        if x.race.as_ref().is_some_and(|r| r.winner == Some(seat)) {
            badges.push("FLD");
        }
        let _ = viewer;
        rows.push(vec![
            p.colour.to_string(),
            s.points(seat).to_string(),
            p.hand.total().to_string(),
            p.dev_count().to_string(),
            p.knights().to_string(),
            r.chips.to_string(),
            towers,
            format!(
                "{}/{}/{}/{}",
                SETTLEMENTS as usize - p.settlements.len(),
                s.cities_left(seat),
                x.left(seat, Kind::Line),
                x.left(seat, Kind::Ferry)
            ),
            badges.join(" "),
        ]);
    }
    o.push_str(&ruled(
        &[
            "Player", "Pts", "Cards", "Dev", "Kn", "Chips", "Towers", "S/C/L/F", "LA/FLD",
        ],
        &rows,
    ));
    // The city limits are the rules' own numbers (one source: state::CITIES_BEFORE_RACE
    // and rules::CITIES), not written again here.
    wrap(
        o,
        &format!(
            "Pts: points (settlements 1, cities 2, largest army LA 2, victory point cards 1 -- shown at once -- connection chips 1, water towers taken 1, the Fastest Locomotive Driver card FLD 1; there is no longest road). Cards: resource cards held. Dev: development cards held. Kn: knights played. Chips: connection chips. Towers: water towers taken of those on the board. S/C/L/F: settlements, cities (as many as may be built now: {} before the race, {} after), rail lines and ferries left.",
            super::state::CITIES_BEFORE_RACE,
            crate::rules::CITIES
        ),
        2,
    );
    let _ = writeln!(o);
}

fn railway(s: &State, x: &Express, o: &mut String, n: &mut usize) {
    let t = &s.board.topology;
    let r = &x.rail;
    section(o, n, "The railway");
    for (seat, p) in x.players.iter().enumerate() {
        let c = s.colour(seat as u8);
        let loco = match (p.locomotive, p.start) {
            (Some(l), Some(st)) => format!(
                "locomotive at {} (started at {})",
                r.node_name(t, l),
                t.vertex_name(st)
            ),
            (Some(l), None) => format!("locomotive at {}", r.node_name(t, l)),
            _ => "no locomotive yet".into(),
        };
        // Lines grouped by the hex they run into.
        let mut by_hex: Vec<(usize, Vec<String>)> = Vec::new();
        for &st in &p.lines {
            let [v, h] = r.ends[st as usize];
            let h = r.hex_of(h).unwrap_or(0);
            let v = r.node_name(t, v);
            match by_hex.iter_mut().find(|(x, _)| *x == h) {
                Some(e) => e.1.push(v),
                None => by_hex.push((h, vec![v])),
            }
        }
        by_hex.sort();
        let lines = if by_hex.is_empty() {
            "none".to_string()
        } else {
            by_hex
                .iter()
                .map(|(h, vs)| format!("{} from {}", t.hex_name(*h), vs.join(", ")))
                .collect::<Vec<_>>()
                .join("; ")
        };
        let ferries = if p.ferries.is_empty() {
            "none".to_string()
        } else {
            p.ferries
                .iter()
                .map(|&st| r.stretch_name(t, st))
                .collect::<Vec<_>>()
                .join(", ")
        };
        wrap_hanging(
            o,
            &format!(
                "{c}: {loco}. Rail lines ({}): {lines}. Ferries ({}): {ferries}. Chips: {}.",
                p.lines.len(),
                p.ferries.len(),
                p.chips
            ),
        );
    }
    // Stretches shared by several players.
    let parallel: Vec<String> = (0..r.stretches())
        .filter(|&st| x.owners[st].count_ones() > 1)
        .map(|st| {
            let who: Vec<&str> = (0..s.players.len())
                .filter(|&q| x.owners[st] & (1 << q) != 0)
                .map(|q| s.colour(q as u8).name())
                .collect();
            format!("{} ({})", r.stretch_name(t, st as u16), who.join(", "))
        })
        .collect();
    if !parallel.is_empty() {
        wrap(
            o,
            &format!("Parallel stretches: {}.", parallel.join("; ")),
            2,
        );
    }
    // Which railways are joined.
    let mut groups: Vec<Vec<&str>> = Vec::new();
    let mut roots: Vec<u16> = Vec::new();
    for seat in 0..s.players.len() as u8 {
        let Some(root) = x.component(seat) else {
            continue;
        };
        match roots.iter().position(|&r| r == root) {
            Some(i) => groups[i].push(s.colour(seat).name()),
            None => {
                roots.push(root);
                groups.push(vec![s.colour(seat).name()]);
            }
        }
    }
    let joined: Vec<String> = groups
        .iter()
        .filter(|g| g.len() > 1)
        .map(|g| g.join(" + "))
        .collect();
    let alone: Vec<&str> = groups
        .iter()
        .filter(|g| g.len() == 1)
        .map(|g| g[0])
        .collect();
    if joined.is_empty() {
        if !alone.is_empty() {
            wrap(o, "No railways are joined yet.", 2);
        }
    } else if alone.is_empty() {
        wrap(o, &format!("Joined railways: {}.", joined.join("; ")), 2);
    } else {
        wrap(
            o,
            &format!(
                "Joined railways: {}; alone: {}.",
                joined.join("; "),
                alone.join(", ")
            ),
            2,
        );
    }
    let ferry_rule = match x.map {
        super::Map::Island => {
            "Ferries (1 wood, 1 wool) lie on edges at sea or along the coast, named by their two vertices (2-5)."
        }
        super::Map::Beyond => {
            "Beyond the island, ferries (1 wood, 1 wool) run from a vertex to the centre of a sea hex, like lines (1-sea2)."
        }
    };
    wrap(
        o,
        &format!(
            "Rail lines (1 wood, 1 ore) run from a vertex to a land hex's centre, named vertex-hex (13-F). {ferry_rule} A piece parallel to others costs 1 brick more to each player already there."
        ),
        2,
    );
    if x.map == super::Map::Island {
        // Edges at sea whose both ends are on land: across the strait.
        let across: Vec<String> = (0..t.edges.len())
            .filter(|&e| {
                let info = &t.edges[e];
                info.hexes.len() == 2
                    && info.hexes.iter().all(|&h| !t.hexes[h].land)
                    && info.ends.iter().all(|&v| t.vertices[v].land)
            })
            .map(|e| t.edge_name(e))
            .collect();
        if !across.is_empty() {
            wrap(
                o,
                &format!("Ferry places across the strait: {}.", across.join(", ")),
                2,
            );
        }
    }
    if x.map == super::Map::Beyond {
        let places: Vec<String> = (t.land_hexes..t.hexes.len())
            .map(|h| {
                let vs: Vec<String> = t.hexes[h]
                    .corners
                    .iter()
                    .filter(|&&v| t.vertices[v].land)
                    .map(|&v| t.vertex_name(v))
                    .collect();
                format!("{} {}", t.hex_name(h), vs.join(","))
            })
            .collect();
        wrap(
            o,
            &format!(
                "Sea hexes and the vertices they touch: {}.",
                places.join("; ")
            ),
            2,
        );
    }
    let _ = writeln!(o);
}

fn wrap_hanging(o: &mut String, text: &str) {
    let opts = textwrap::Options::new(78)
        .initial_indent("  ")
        .subsequent_indent("    ");
    for l in textwrap::wrap(text, opts) {
        let _ = writeln!(o, "{l}");
    }
}

fn race(s: &State, x: &Express, o: &mut String, n: &mut usize) {
    let t = &s.board.topology;
    section(o, n, "The race");
    let Some(race) = &x.race else {
        wrap(
            o,
            "The race has not begun. It begins the moment a player has 8 points during their own turn; then, from that player clockwise, each player picks a stopover (a settlement or city in their own railway, not a starting place) -- keep `stopover` lines on record so your choice is ready.",
            2,
        );
        let _ = writeln!(o);
        return;
    };
    let _ = writeln!(
        o,
        "  Starter: {}. Water towers per player: {}.",
        s.colour(race.starter),
        towers_per_player(s.players.len())
    );
    if race.stopovers.is_empty() {
        wrap(o, "No stopover has been chosen.", 2);
    } else {
        let rows: Vec<Vec<String>> = race
            .stopovers
            .iter()
            .map(|st| {
                let standing: Vec<&str> = (0..s.players.len())
                    .filter(|&q| st.collected & (1 << q) == 0)
                    .map(|q| s.colour(q as u8).name())
                    .collect();
                vec![
                    t.vertex_name(st.vertex),
                    s.colour(st.chosen_by).to_string(),
                    if standing.is_empty() {
                        "none".into()
                    } else {
                        standing.join(", ")
                    },
                ]
            })
            .collect();
        o.push_str(&ruled(
            &["Stopover", "Chosen by", "Towers still there"],
            &rows,
        ));
    }
    match race.winner {
        Some(w) => wrap(
            o,
            &format!(
                "{} completed the race and holds the Fastest Locomotive Driver card.",
                s.colour(w)
            ),
            2,
        ),
        None if s.phase != Phase::Over => wrap(
            o,
            "After building, a player with at least 5 lines and ferries may move their locomotive as many steps as their higher die (vertex to centre to vertex); their own pieces are free, a rival's costs 1 resource to its owner. A locomotive reaching one of its towers stops and takes it. The first with all their towers -- and their railway joined to everyone's -- ends the game.",
            2,
        ),
        None => {}
    }
    let _ = writeln!(o);
}

// ---- The picture ---------------------------------------------------------------------

pub(crate) fn node_at(s: &State, x: &Express, n: Node, f: &Frame) -> (f32, f32) {
    let t = &s.board.topology;
    match x.rail.hex_of(n) {
        Some(h) => f.at(t.hexes[h].x, t.hexes[h].y),
        None => {
            let v = &t.vertices[n as usize];
            f.at(v.x, v.y)
        }
    }
}

fn boat(m: (f32, f32), colour: Rgb) -> Shape {
    let (mx, my) = m;
    Shape::Polygon {
        points: vec![
            (mx - 6.0, my - 1.0),
            (mx + 6.0, my - 1.0),
            (mx + 3.5, my + 4.0),
            (mx - 3.5, my + 4.0),
        ],
        fill: Some(colour),
        stroke: ink(),
    }
}

/// A point of the picture.
type Point = (f32, f32);

/// The railway's lines and ferries, each owner's beside the others'; the ones `new` (built
/// this step, by that owner) glowing under them. Whether any new one is drawn.
pub fn rails(s: &State, p: &mut Picture, f: &Frame, new: &[(Stretch, Colour)]) -> bool {
    let Some(x) = s.scenario.as_deref() else {
        return false;
    };
    let mut any_new = false;
    for st in 0..x.rail.stretches() {
        let owners = x.owners[st];
        if owners == 0 {
            continue;
        }
        let [a, b] = x.rail.ends[st];
        let (pa, pb) = (node_at(s, x, a, f), node_at(s, x, b, f));
        let (dx, dy) = (pb.0 - pa.0, pb.1 - pa.1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (nx, ny) = (-dy / len, dx / len);
        let seats: Vec<u8> = (0..s.players.len() as u8)
            .filter(|&q| owners & (1 << q) != 0)
            .collect();
        let k = seats.len() as f32;
        let ferry = x.rail.kind(st as u16) == Some(Kind::Ferry);
        let width = if ferry { 4.0 } else { 5.5 };
        // Each owner's line: whose, from, to.
        let lines: Vec<(u8, Point, Point)> = seats
            .iter()
            .enumerate()
            .map(|(i, &q)| {
                let off = (i as f32 - (k - 1.0) / 2.0) * 5.0;
                let (ox, oy) = (nx * off, ny * off);
                // Lines stop short of the centre's number token.
                let from = (pa.0 + ox, pa.1 + oy);
                let to = if x.rail.hex_of(b).is_some() {
                    let cut = (len - 15.0).max(0.0) / len;
                    (pa.0 + dx * cut + ox, pa.1 + dy * cut + oy)
                } else {
                    (pb.0 + ox, pb.1 + oy)
                };
                (q, from, to)
            })
            .collect();
        // The new ones' glow first, under all of the stretch's lines.
        for &(q, from, to) in &lines {
            if new.contains(&(st as Stretch, s.colour(q))) {
                any_new = true;
                p.shapes.push(Shape::Note {
                    note: format!(
                        "{}'s {} at {}, built this step",
                        s.colour(q),
                        if ferry { "ferry" } else { "rail line" },
                        x.rail.stretch_name(&s.board.topology, st as Stretch)
                    ),
                    shapes: vec![mark::glow_line(vec![from, to], width)],
                });
            }
        }
        for (q, from, to) in lines {
            let colour = player_colour(s.colour(q));
            p.shapes
                .push(Shape::line(from, to, Stroke::new(Rgb::BLACK, width)));
            p.shapes.push(Shape::line(
                from,
                to,
                Stroke::new(colour, if ferry { 2.5 } else { 3.5 }),
            ));
            if ferry {
                // A little boat halfway.
                p.shapes
                    .push(boat(((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0), colour));
            }
        }
    }
    any_new
}

fn tower(c: (f32, f32), colour: Rgb) -> Shape {
    let (tx, ty) = c;
    Shape::Polygon {
        points: vec![
            (tx - 2.0, ty + 5.0),
            (tx - 2.0, ty - 1.0),
            (tx - 4.0, ty - 1.0),
            (tx - 4.0, ty - 5.0),
            (tx + 4.0, ty - 5.0),
            (tx + 4.0, ty - 1.0),
            (tx + 2.0, ty - 1.0),
            (tx + 2.0, ty + 5.0),
        ],
        fill: Some(colour),
        stroke: ink(),
    }
}

/// A locomotive, its top-left corner at `l`.
fn locomotive(l: (f32, f32), colour: Rgb) -> Vec<Shape> {
    let (lx, ly) = l;
    let mut out = vec![
        Shape::Rect {
            at: (lx, ly),
            size: (16.0, 7.0),
            round: 0.0,
            fill: Some(colour),
            stroke: ink(),
        },
        Shape::Rect {
            at: (lx + 10.0, ly - 5.0),
            size: (5.0, 5.0),
            round: 0.0,
            fill: Some(colour),
            stroke: ink(),
        },
    ];
    for wx in [lx + 4.0, lx + 12.0] {
        out.push(Shape::Circle {
            centre: (wx, ly + 8.0),
            radius: 2.2,
            fill: Some(Rgb(34, 34, 34)),
            stroke: ink(),
        });
    }
    out
}

/// The water towers still standing at the stopovers, and each player's locomotive.
pub fn locomotives_and_towers(s: &State, p: &mut Picture, f: &Frame) {
    let Some(x) = s.scenario.as_deref() else {
        return;
    };
    if let Some(race) = &x.race {
        for st in &race.stopovers {
            let c = node_at(s, x, st.vertex as Node, f);
            for q in 0..s.players.len() {
                if st.collected & (1 << q) != 0 {
                    continue;
                }
                let angle = std::f32::consts::TAU * q as f32 / s.players.len() as f32;
                let t = (c.0 + 14.0 * angle.sin(), c.1 - 14.0 * angle.cos());
                p.shapes.push(tower(t, player_colour(s.colour(q as u8))));
            }
        }
    }
    for (q, r) in x.players.iter().enumerate() {
        let Some(n) = r.locomotive else {
            continue;
        };
        let c = node_at(s, x, n, f);
        let l = (c.0 - 8.0 + 3.0 * q as f32, c.1 + 8.0 + 3.0 * q as f32);
        p.shapes.push(Shape::Note {
            note: format!("{}'s locomotive", s.colour(q as u8)),
            shapes: locomotive(l, player_colour(s.colour(q as u8))),
        });
    }
}

/// The legend's keys for what the railway shows.
pub fn legend(s: &State, l: &mut Legend) {
    let Some(x) = s.scenario.as_deref() else {
        return;
    };
    let grey = Rgb(158, 158, 158);
    let kinds: Vec<Option<Kind>> = (0..x.rail.stretches())
        .filter(|&st| x.owners[st] != 0)
        .map(|st| x.rail.kind(st as u16))
        .collect();
    if kinds.iter().any(|k| *k != Some(Kind::Ferry)) {
        l.add(
            Key::Shapes(vec![
                Shape::line((1.0, 8.0), (15.0, 8.0), Stroke::new(Rgb::BLACK, 5.5)),
                Shape::line((1.0, 8.0), (15.0, 8.0), Stroke::new(grey, 3.5)),
            ]),
            "rail line",
        );
    }
    if kinds.contains(&Some(Kind::Ferry)) {
        l.add(Key::Shapes(vec![boat((8.0, 8.0), grey)]), "ferry");
    }
    if x.players.iter().any(|r| r.locomotive.is_some()) {
        l.add(Key::Shapes(locomotive((0.0, 6.0), grey)), "locomotive");
    }
    if x.race.as_ref().is_some_and(|r| !r.stopovers.is_empty()) {
        l.add(Key::Shapes(vec![tower((8.0, 8.0), grey)]), "water tower");
    }
}
