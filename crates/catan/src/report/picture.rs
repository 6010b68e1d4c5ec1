//! The board as a picture, drawn with the judge's shared shapes (`judge_core::picture`): hexes
//! with their letters, number tokens with their dots, the robber, harbours, roads,
//! settlements and cities (each with its corner's number, as orders write it), every
//! free corner's number, Catan Express's railways, and a legend of what the board
//! shows. The SVG is the drawing; the PNG is the SVG rendered.
//!
//! After a step ([`draw_step`]), what it did is marked over the board
//! (`judge_core::picture::mark`): the roads, settlements, cities and rail lines placed
//! glowing, the robber's move as an arrow from its old hex to its new one, and each
//! locomotive's way as a route in its owner's colour, with the legend's keys for these.
//! Only what the whole table sees: no card is ever drawn.

pub use super::kit::{Frame, player_colour};
use super::kit::{MARGIN, SIZE, TITLE, ink};
use crate::board::{Board, EdgeId, HexId, Terrain, VertexId};
use crate::colour::Colour;
use crate::events::{Event, Piece};
use crate::scenario::{self, Event as XEvent, Node, Stretch};
use crate::state::{NOBODY, State};
use judge_core::picture::mark::{self, Route};
use judge_core::picture::{Key, Legend, Picture, Rgb, Shape, Stroke, Text, text_width};

/// What a step did to the board: read from its events and the board before
/// it, a pure function, so its picture is the same bytes every time. All of it public.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Roads placed.
    pub roads: Vec<EdgeId>,
    /// Settlements and cities placed.
    pub buildings: Vec<VertexId>,
    /// The robber's moves: from, to, and who moved it.
    pub robber: Vec<(HexId, HexId, Colour)>,
    /// Catan Express: rail lines and ferries built, and by whom.
    pub rails: Vec<(Stretch, Colour)>,
    /// Catan Express: each locomotive's way, node by node.
    pub locomotives: Vec<(Colour, Vec<Node>)>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }
}

/// What the step from `before` did, by its `events`.
pub fn changes(before: &State, events: &[Event]) -> Changes {
    let mut c = Changes::default();
    let mut robber = before.robber;
    for e in events {
        match e {
            Event::Built {
                piece: Piece::Road,
                at,
                ..
            } => c.roads.push(*at),
            Event::Built { at, .. } => c.buildings.push(*at),
            Event::Founded { vertex, .. } => c.buildings.push(*vertex),
            Event::RobberMoved { player, hex } => {
                c.robber.push((robber, *hex, *player));
                robber = *hex;
            }
            Event::Scenario(XEvent::Built {
                player, stretch, ..
            }) => c.rails.push((*stretch, *player)),
            Event::Scenario(XEvent::Moved {
                player, from, to, ..
            }) => match c.locomotives.last_mut() {
                Some((who, way)) if who == player && way.last() == Some(from) => way.push(*to),
                _ => c.locomotives.push((*player, vec![*from, *to])),
            },
            _ => {}
        }
    }
    c
}

pub fn terrain_colour(t: Terrain) -> Rgb {
    match t {
        Terrain::Forest => Rgb::hex("#2f6b2f"),
        Terrain::Hills => Rgb::hex("#c0622f"),
        Terrain::Pasture => Rgb::hex("#9fd16a"),
        Terrain::Fields => Rgb::hex("#efc94c"),
        Terrain::Mountains => Rgb::hex("#8c8c8c"),
        Terrain::Desert => Rgb::hex("#e4d3a0"),
        Terrain::Sea => Rgb::hex("#4f8fc0"),
    }
}

const TOKEN: Rgb = Rgb(251, 243, 220);
const HARBOUR: Rgb = Rgb(107, 74, 43);
const ROBBER: Rgb = Rgb(34, 34, 34);
const HOT: Rgb = Rgb(192, 0, 0);

/// A settlement (a house) or a city (a house with a hall), centred on `c`.
pub(crate) fn building(c: (f32, f32), city: bool, fill: Rgb) -> Shape {
    let (x, y) = c;
    let points = if city {
        vec![
            (x - 11.0, y + 8.0),
            (x - 11.0, y - 3.0),
            (x - 4.0, y - 3.0),
            (x - 4.0, y - 8.0),
            (x + 1.5, y - 12.0),
            (x + 7.0, y - 8.0),
            (x + 7.0, y - 3.0),
            (x + 11.0, y - 3.0),
            (x + 11.0, y + 8.0),
        ]
    } else {
        vec![
            (x - 8.0, y + 7.0),
            (x - 8.0, y - 2.0),
            (x, y - 9.0),
            (x + 8.0, y - 2.0),
            (x + 8.0, y + 7.0),
        ]
    };
    Shape::Polygon {
        points,
        fill: Some(fill),
        stroke: Some(Stroke::new(Rgb::BLACK, 1.5)),
    }
}

fn robber(c: (f32, f32)) -> Vec<Shape> {
    vec![
        Shape::Polygon {
            points: vec![
                (c.0 - 6.0, c.1 + 8.0),
                (c.0 - 4.0, c.1 - 2.0),
                (c.0 + 4.0, c.1 - 2.0),
                (c.0 + 6.0, c.1 + 8.0),
            ],
            fill: Some(ROBBER),
            stroke: ink(),
        },
        Shape::Circle {
            centre: (c.0, c.1 - 5.0),
            radius: 4.0,
            fill: Some(ROBBER),
            stroke: ink(),
        },
    ]
}

fn token(c: (f32, f32), n: u8, radius: f32) -> Vec<Shape> {
    let hot = n == 6 || n == 8;
    let fill = if hot { HOT } else { Rgb::INK };
    let mut out = vec![
        Shape::Circle {
            centre: c,
            radius,
            fill: Some(TOKEN),
            stroke: Some(Stroke::new(Rgb(51, 51, 51), 1.0)),
        },
        Shape::Text(Text::centred((c.0, c.1 - 2.0), n.to_string(), 13.0, fill).bold()),
    ];
    // The dots: how many of the 36 rolls make the number.
    let pips = Board::pips(Some(n));
    for k in 0..pips {
        out.push(Shape::Circle {
            centre: (
                c.0 + (k as f32 - (pips as f32 - 1.0) / 2.0) * 3.2,
                c.1 + 8.0,
            ),
            radius: 1.1,
            fill: Some(fill),
            stroke: None,
        });
    }
    out
}

/// What the board shows, for the legend.
#[derive(Default)]
struct Seen {
    terrains: Vec<Terrain>,
    road: bool,
    settlement: bool,
    city: bool,
    harbour: bool,
    /// What the step did.
    new_road: bool,
    new_settlement: bool,
    new_city: bool,
    robber_moved: bool,
    new_rail: bool,
    locomotive_moved: bool,
}

/// Where the robber stands on a hex centred at `c`.
fn robber_spot(c: (f32, f32)) -> (f32, f32) {
    (c.0 + 22.0, c.1 + 10.0)
}

/// Draws the board.
/// The board's extent in its integer plane: (min x, max x, min y, max y).
fn bounds(s: &State) -> (i32, i32, i32, i32) {
    s.board.topology.vertices.iter().fold(
        (i32::MAX, i32::MIN, i32::MAX, i32::MIN),
        |(a, b, c, d), v| (a.min(v.x), b.max(v.x), c.min(v.y), d.max(v.y)),
    )
}

/// Where the picture draws the corner `v` (the order writer's page draws on it).
pub fn vertex_point(s: &State, v: usize) -> Option<(f32, f32)> {
    let (minx, _, miny, _) = bounds(s);
    let x = s.board.topology.vertices.get(v)?;
    Some(Frame::new(minx, miny).at(x.x, x.y))
}

pub fn draw(s: &State) -> Picture {
    draw_step(s, &Changes::default())
}

/// Draws the board after a step, with what the step did (`changes`) marked.
pub fn draw_step(s: &State, changes: &Changes) -> Picture {
    let t = &s.board.topology;
    let (minx, maxx, miny, maxy) = bounds(s);
    let frame = Frame::new(minx, miny);
    let at = |x: i32, y: i32| frame.at(x, y);
    let title = if s.step == 0 {
        format!("{}: the board at the start", s.name)
    } else {
        format!("{}: the board after turn {}", s.name, s.step)
    };
    let board_w = 2.0 * MARGIN + (maxx - minx) as f32 * SIZE * 0.866;
    let width = board_w.max(2.0 * MARGIN + text_width(&title, 16.0) * 1.1);
    let board_h = MARGIN + TITLE + (maxy - miny) as f32 * SIZE * 0.5;
    let mut p = Picture {
        width,
        height: board_h,
        title: title.clone(),
        shapes: vec![Shape::Text(
            Text::left((MARGIN, MARGIN + 6.0), title, 16.0, Rgb::INK).bold(),
        )],
    };
    let mut seen = Seen::default();
    for (h, hx) in t.hexes.iter().enumerate() {
        let terrain = s.board.terrain[h];
        if !seen.terrains.contains(&terrain) {
            seen.terrains.push(terrain);
        }
        p.shapes.push(Shape::Polygon {
            points: hx
                .corners
                .iter()
                .map(|&v| at(t.vertices[v].x, t.vertices[v].y))
                .collect(),
            fill: Some(terrain_colour(terrain)),
            stroke: Some(Stroke::new(Rgb(51, 51, 51), 1.0)),
        });
        if !hx.land {
            continue;
        }
        let c = at(hx.x, hx.y);
        p.shapes.push(Shape::Text(
            Text::centred((c.0, c.1 - 22.0), hx.label.clone(), 13.0, Rgb::INK)
                .bold()
                .halo(Rgb::WHITE),
        ));
        if let Some(n) = s.board.number[h] {
            p.shapes.push(Shape::Note {
                note: format!(
                    "{} ({}): {n}, made by {} of the 36 rolls",
                    hx.label,
                    terrain,
                    Board::pips(Some(n))
                ),
                shapes: token(c, n, 14.0),
            });
        }
        if s.robber == h {
            p.shapes.push(Shape::Note {
                note: format!("the robber, on {}", hx.label),
                shapes: robber(robber_spot(c)),
            });
        }
    }
    for &(e, h) in &s.board.harbours {
        seen.harbour = true;
        let [a, b] = t.edges[e].ends;
        let (pa, pb) = (
            at(t.vertices[a].x, t.vertices[a].y),
            at(t.vertices[b].x, t.vertices[b].y),
        );
        let sea = t.edges[e].hexes.iter().copied().find(|&x| !t.hexes[x].land);
        let sc = sea.map_or(((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0), |x| {
            at(t.hexes[x].x, t.hexes[x].y)
        });
        let mut shapes: Vec<Shape> = [pa, pb]
            .into_iter()
            .map(|q| Shape::line(q, sc, Stroke::new(HARBOUR, 3.0)))
            .collect();
        let label = h.label();
        let w = text_width(&label, 10.0) + 8.0;
        shapes.push(Shape::Rect {
            at: (sc.0 - w / 2.0, sc.1 - 7.0),
            size: (w, 14.0),
            round: 3.0,
            fill: Some(Rgb::WHITE),
            stroke: Some(Stroke::new(HARBOUR, 1.5)),
        });
        shapes.push(Shape::Text(
            Text::centred(sc, label.clone(), 10.0, Rgb::INK).bold(),
        ));
        p.shapes.push(Shape::Note {
            note: format!("harbour {label} at {}-{}", a + 1, b + 1),
            shapes,
        });
    }
    for (e, info) in t.edges.iter().enumerate() {
        let o = s.edge_owner[e];
        if o == NOBODY {
            continue;
        }
        seen.road = true;
        let [a, b] = info.ends;
        let (pa, pb) = (
            at(t.vertices[a].x, t.vertices[a].y),
            at(t.vertices[b].x, t.vertices[b].y),
        );
        let mut shapes = Vec::new();
        let new = changes.roads.contains(&e);
        if new {
            seen.new_road = true;
            shapes.push(mark::glow_line(vec![pa, pb], 7.0));
        }
        shapes.push(Shape::line(pa, pb, Stroke::new(Rgb::BLACK, 7.0)));
        shapes.push(Shape::line(
            pa,
            pb,
            Stroke::new(player_colour(s.colour(o)), 5.0),
        ));
        if new {
            p.shapes.push(Shape::Note {
                note: format!(
                    "{}'s road {}-{}, placed this step",
                    s.colour(o),
                    a + 1,
                    b + 1
                ),
                shapes,
            });
        } else {
            p.shapes.extend(shapes);
        }
    }
    seen.new_rail = scenario::draw_rails(s, &mut p, &frame, &changes.rails);
    // The locomotives' ways, under the locomotives (their arrowheads over them, below).
    let ways = locomotive_ways(s, &frame, changes);
    for (note, r) in &ways {
        seen.locomotive_moved = true;
        p.shapes.push(Shape::Note {
            note: note.clone(),
            shapes: r.line(),
        });
    }
    for (v, info) in t.vertices.iter().enumerate() {
        let c = at(info.x, info.y);
        let o = s.vertex_owner[v];
        let number = (v + 1).to_string();
        if o == NOBODY {
            if info.land {
                p.shapes.push(Shape::Text(
                    Text::centred(c, number, 8.0, Rgb::INK).halo(Rgb::WHITE),
                ));
            }
            continue;
        }
        let fill = player_colour(s.colour(o));
        let city = s.players[o as usize].cities.has(v);
        if city {
            seen.city = true;
        } else {
            seen.settlement = true;
        }
        let new = changes.buildings.contains(&v);
        let mut shapes = vec![
            building(c, city, fill),
            Shape::Text(Text::centred((c.0, c.1 + 2.0), number.clone(), 8.0, fill.ink_on()).bold()),
        ];
        if new {
            seen.new_city |= city;
            seen.new_settlement |= !city;
            shapes.push(mark::glow_ring(c, BUILDING_RADIUS));
        }
        p.shapes.push(Shape::Note {
            note: format!(
                "{}'s {} at {number}{}",
                s.colour(o),
                if city { "city" } else { "settlement" },
                if new { ", placed this step" } else { "" }
            ),
            shapes,
        });
    }
    scenario::draw_locomotives_and_towers(s, &mut p, &frame);
    for (note, r) in &ways {
        p.shapes.push(Shape::Note {
            note: note.clone(),
            shapes: r.head(),
        });
    }
    // The robber's move: an arrow from where it stood to where it stands.
    for &(from, to, who) in &changes.robber {
        let (a, b) = (&t.hexes[from], &t.hexes[to]);
        let r = Route::new(
            [robber_spot(at(a.x, a.y)), robber_spot(at(b.x, b.y))],
            player_colour(who),
        )
        .short_of_end(12.0);
        if !r.goes() {
            continue;
        }
        seen.robber_moved = true;
        p.shapes.push(Shape::Note {
            note: format!("{who} moved the robber: {} > {}", a.label, b.label),
            shapes: r.shapes(),
        });
    }
    let legend = legend(s, &seen);
    let (shapes, h) = legend.layout(MARGIN, board_h + 8.0, width - 2.0 * MARGIN);
    p.shapes.extend(shapes);
    p.height = board_h + 8.0 + h + MARGIN / 2.0;
    p
}

fn legend(s: &State, seen: &Seen) -> Legend {
    let mut l = Legend::new();
    let mut terrains = seen.terrains.clone();
    terrains.sort();
    for t in terrains {
        let words = match t.resource() {
            Some(r) => format!("{t} ({r})"),
            None => t.to_string(),
        };
        l.add(Key::Swatch(terrain_colour(t)), words);
    }
    l.row();
    for pl in &s.players {
        l.add(
            Key::Dot(player_colour(pl.colour)),
            format!("{} {}", pl.colour, pl.name),
        );
    }
    l.row();
    l.add(
        Key::Shapes(token((8.0, 8.0), 8, 8.0)),
        "number, dots: its odds",
    );
    l.add(Key::Shapes(robber((8.0, 8.0))), "robber");
    if seen.harbour {
        l.add(
            Key::Shapes(vec![Shape::Rect {
                at: (1.0, 3.0),
                size: (14.0, 10.0),
                round: 3.0,
                fill: Some(Rgb::WHITE),
                stroke: Some(Stroke::new(HARBOUR, 1.5)),
            }]),
            "harbour (3:1, or 2:1 for one resource)",
        );
    }
    l.add(
        Key::Shapes(vec![Shape::Text(
            Text::centred((8.0, 8.0), "12", 8.0, Rgb::INK).halo(Rgb::WHITE),
        )]),
        "a corner's number",
    );
    l.row();
    if seen.road {
        l.add(Key::Line(Stroke::new(Rgb::INK, 5.0)), "road");
    }
    if seen.settlement {
        l.add(
            Key::Shapes(vec![building((8.0, 8.0), false, Rgb::WHITE)]),
            "settlement",
        );
    }
    if seen.city {
        l.add(
            Key::Shapes(vec![building((8.0, 9.0), true, Rgb::WHITE)]),
            "city",
        );
    }
    scenario::legend(s, &mut l);
    // What the step did.
    l.row();
    if seen.new_road {
        l.add(
            mark::keys::new_line(
                vec![
                    Shape::line((2.0, 8.0), (14.0, 8.0), Stroke::new(Rgb::BLACK, 7.0)),
                    Shape::line((2.0, 8.0), (14.0, 8.0), Stroke::new(Rgb::WHITE, 5.0)),
                ],
                7.0,
            ),
            "new road",
        );
    }
    if seen.new_settlement {
        l.add(
            mark::keys::new_piece(
                vec![building((8.0, 8.0), false, Rgb::WHITE)],
                BUILDING_RADIUS,
            ),
            "new settlement",
        );
    }
    if seen.new_city {
        l.add(
            mark::keys::new_piece(
                vec![building((8.0, 9.0), true, Rgb::WHITE)],
                BUILDING_RADIUS,
            ),
            "new city",
        );
    }
    if seen.new_rail {
        l.add(
            mark::keys::new_line(
                vec![
                    Shape::line((2.0, 8.0), (14.0, 8.0), Stroke::new(Rgb::BLACK, 5.5)),
                    Shape::line(
                        (2.0, 8.0),
                        (14.0, 8.0),
                        Stroke::new(Rgb(158, 158, 158), 3.5),
                    ),
                ],
                5.5,
            ),
            "new rail line or ferry",
        );
    }
    if seen.locomotive_moved {
        l.add(
            Route::key(Rgb(97, 97, 97), None),
            "locomotive's way (owner's colour)",
        );
    }
    if seen.robber_moved {
        l.add(
            Route::key(Rgb(97, 97, 97), None),
            "the robber's move (mover's colour)",
        );
    }
    l
}

/// How far a new settlement's or city's ring reaches from its corner.
const BUILDING_RADIUS: f32 = 12.0;

/// Each locomotive's way this step as a route, with its tooltip.
fn locomotive_ways(s: &State, frame: &Frame, changes: &Changes) -> Vec<(String, Route)> {
    let Some(x) = s.scenario.as_deref() else {
        return Vec::new();
    };
    let t = &s.board.topology;
    changes
        .locomotives
        .iter()
        .filter_map(|(who, way)| {
            let points = way.iter().map(|n| scenario::node_at(s, x, *n, frame));
            let r = Route::new(points, player_colour(*who))
                .beside(3.0)
                .short_of_end(10.0);
            let names: Vec<String> = way.iter().map(|n| x.rail.node_name(t, *n)).collect();
            r.goes()
                .then(|| (format!("{who}'s locomotive: {}", names.join(" > ")), r))
        })
        .collect()
}
