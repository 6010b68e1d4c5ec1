//! The board as a picture, drawn with the judge's shared shapes (`judge_core::picture`): hexes
//! with their letters, number tokens with their dots, the robber, harbours, roads,
//! settlements and cities (each with its corner's number, as orders write it), every
//! free corner's number, Catan Express's railways, and a legend of what the board
//! shows. The SVG is the drawing; the PNG is the SVG rendered.

use crate::board::{Board, Terrain};
use crate::state::{Colour, NOBODY, State};
use judge_core::picture::{Key, Legend, Picture, Rgb, Shape, Stroke, Text, text_width};

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

pub fn player_colour(c: Colour) -> Rgb {
    match c {
        Colour::Red => Rgb::hex("#d32f2f"),
        Colour::Blue => Rgb::hex("#1e5bc6"),
        Colour::White => Rgb::hex("#f7f7f7"),
        Colour::Orange => Rgb::hex("#f07c00"),
        Colour::Green => Rgb::hex("#2fae4f"),
        Colour::Purple => Rgb::hex("#7b1fa2"),
    }
}

/// A hex's radius.
const SIZE: f32 = 46.0;
const MARGIN: f32 = 12.0;
/// Room for the title above the board.
const TITLE: f32 = 28.0;
const TOKEN: Rgb = Rgb(251, 243, 220);
const HARBOUR: Rgb = Rgb(107, 74, 43);
const ROBBER: Rgb = Rgb(34, 34, 34);
const HOT: Rgb = Rgb(192, 0, 0);

pub(crate) fn ink() -> Option<Stroke> {
    Some(Stroke::new(Rgb::BLACK, 1.2))
}

/// Where the board's integer plane lands in the picture.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    minx: i32,
    miny: i32,
}

impl Frame {
    /// A point of the board's plane (x in half hex widths, y in quarter hex heights).
    pub fn at(&self, x: i32, y: i32) -> (f32, f32) {
        (
            MARGIN + (x - self.minx) as f32 * SIZE * 0.866,
            MARGIN + TITLE + (y - self.miny) as f32 * SIZE * 0.5,
        )
    }
}

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
}

/// Draws the board.
pub fn draw(s: &State) -> Picture {
    let t = &s.board.topology;
    let (minx, maxx, miny, maxy) = t.vertices.iter().fold(
        (i32::MAX, i32::MIN, i32::MAX, i32::MIN),
        |(a, b, c, d), v| (a.min(v.x), b.max(v.x), c.min(v.y), d.max(v.y)),
    );
    let frame = Frame { minx, miny };
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
                shapes: robber((c.0 + 22.0, c.1 + 10.0)),
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
        p.shapes
            .push(Shape::line(pa, pb, Stroke::new(Rgb::BLACK, 7.0)));
        p.shapes.push(Shape::line(
            pa,
            pb,
            Stroke::new(player_colour(s.colour(o)), 5.0),
        ));
    }
    crate::express::report::rails(s, &mut p, &frame);
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
        p.shapes.push(Shape::Note {
            note: format!(
                "{}'s {} at {number}",
                s.colour(o),
                if city { "city" } else { "settlement" }
            ),
            shapes: vec![
                building(c, city, fill),
                Shape::Text(Text::centred((c.0, c.1 + 2.0), number, 8.0, fill.ink_on()).bold()),
            ],
        });
    }
    crate::express::report::locomotives_and_towers(s, &mut p, &frame);
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
    crate::express::report::legend(s, &mut l);
    l
}
