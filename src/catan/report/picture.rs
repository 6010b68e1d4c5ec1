//! The board as a picture: a plain list of shapes (hexes, number tokens, harbours,
//! roads, settlements, cities, the robber) that any renderer can draw; [`Picture::to_svg`]
//! writes SVG. Kept renderer-neutral so one drawing pipeline can serve both games later.

use std::fmt::Write as _;

use crate::catan::board::{Board, Terrain};
use crate::catan::state::{Colour, NOBODY, State};

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Polygon {
        points: Vec<(f32, f32)>,
        fill: String,
        stroke: String,
        width: f32,
    },
    Circle {
        centre: (f32, f32),
        radius: f32,
        fill: String,
        stroke: String,
    },
    Line {
        from: (f32, f32),
        to: (f32, f32),
        stroke: String,
        width: f32,
    },
    /// Text centred on `at`.
    Text {
        at: (f32, f32),
        text: String,
        size: f32,
        fill: String,
    },
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picture {
    pub width: f32,
    pub height: f32,
    pub shapes: Vec<Shape>,
}

pub fn terrain_colour(t: Terrain) -> &'static str {
    match t {
        Terrain::Forest => "#2f6b2f",
        Terrain::Hills => "#c0622f",
        Terrain::Pasture => "#9fd16a",
        Terrain::Fields => "#efc94c",
        Terrain::Mountains => "#8c8c8c",
        Terrain::Desert => "#e4d3a0",
        Terrain::Sea => "#4f8fc0",
    }
}

pub fn player_colour(c: Colour) -> &'static str {
    match c {
        Colour::Red => "#d32f2f",
        Colour::Blue => "#1e5bc6",
        Colour::White => "#f7f7f7",
        Colour::Orange => "#f07c00",
        Colour::Green => "#2fae4f",
        Colour::Purple => "#7b1fa2",
    }
}

const SIZE: f32 = 40.0;

/// Where the board's integer plane lands in the picture.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    minx: i32,
    miny: i32,
    margin: f32,
}

impl Frame {
    /// A point of the board's plane (x in half hex widths, y in quarter hex heights).
    pub fn at(&self, x: i32, y: i32) -> (f32, f32) {
        (
            self.margin + (x - self.minx) as f32 * SIZE * 0.866,
            self.margin + (y - self.miny) as f32 * SIZE * 0.5,
        )
    }
}

/// Draws the board.
pub fn draw(s: &State) -> Picture {
    let t = &s.board.topology;
    let kx = SIZE * 0.866;
    let ky = SIZE * 0.5;
    let (minx, maxx, miny, maxy) = t.vertices.iter().fold(
        (i32::MAX, i32::MIN, i32::MAX, i32::MIN),
        |(a, b, c, d), v| (a.min(v.x), b.max(v.x), c.min(v.y), d.max(v.y)),
    );
    let margin = 10.0;
    let frame = Frame { minx, miny, margin };
    let at = |x: i32, y: i32| frame.at(x, y);
    let mut p = Picture {
        width: 2.0 * margin + (maxx - minx) as f32 * kx,
        height: 2.0 * margin + (maxy - miny) as f32 * ky,
        shapes: Vec::new(),
    };
    for (h, hx) in t.hexes.iter().enumerate() {
        let points = hx
            .corners
            .iter()
            .map(|&v| at(t.vertices[v].x, t.vertices[v].y))
            .collect();
        p.shapes.push(Shape::Polygon {
            points,
            fill: terrain_colour(s.board.terrain[h]).into(),
            stroke: "#333333".into(),
            width: 1.0,
        });
        if !hx.land {
            continue;
        }
        let c = at(hx.x, hx.y);
        p.shapes.push(Shape::Text {
            at: (c.0, c.1 - 18.0),
            text: hx.label.clone(),
            size: 11.0,
            fill: "#111111".into(),
        });
        if let Some(n) = s.board.number[h] {
            p.shapes.push(Shape::Circle {
                centre: c,
                radius: 12.0,
                fill: "#fbf3dc".into(),
                stroke: "#333333".into(),
            });
            let red = n == 6 || n == 8;
            p.shapes.push(Shape::Text {
                at: (c.0, c.1 + 1.0),
                text: n.to_string(),
                size: 13.0,
                fill: if red { "#c00000" } else { "#111111" }.into(),
            });
            let _ = Board::pips(Some(n));
        }
        if s.robber == h {
            p.shapes.push(Shape::Circle {
                centre: (c.0 + 17.0, c.1 + 12.0),
                radius: 6.0,
                fill: "#222222".into(),
                stroke: "#000000".into(),
            });
        }
    }
    for &(e, h) in &s.board.harbours {
        let [a, b] = t.edges[e].ends;
        let (pa, pb) = (
            at(t.vertices[a].x, t.vertices[a].y),
            at(t.vertices[b].x, t.vertices[b].y),
        );
        let sea = t.edges[e].hexes.iter().copied().find(|&x| !t.hexes[x].land);
        let sc = sea.map_or(((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0), |x| {
            at(t.hexes[x].x, t.hexes[x].y)
        });
        for q in [pa, pb] {
            p.shapes.push(Shape::Line {
                from: q,
                to: sc,
                stroke: "#6b4a2b".into(),
                width: 3.0,
            });
        }
        p.shapes.push(Shape::Text {
            at: sc,
            text: h.label(),
            size: 10.0,
            fill: "#ffffff".into(),
        });
    }
    for (e, info) in t.edges.iter().enumerate() {
        let o = s.edge_owner[e];
        if o == NOBODY {
            continue;
        }
        let [a, b] = info.ends;
        let (pa, pb) = (
            at(t.vertices[a].x, t.vertices[a].y),
            at(t.vertices[b].x, t.vertices[b].y),
        );
        p.shapes.push(Shape::Line {
            from: pa,
            to: pb,
            stroke: "#000000".into(),
            width: 7.0,
        });
        p.shapes.push(Shape::Line {
            from: pa,
            to: pb,
            stroke: player_colour(s.colour(o)).into(),
            width: 5.0,
        });
    }
    crate::catan::express::report::rails(s, &mut p, &frame);
    for (v, info) in t.vertices.iter().enumerate() {
        let c = at(info.x, info.y);
        let o = s.vertex_owner[v];
        if o == NOBODY {
            if info.land {
                p.shapes.push(Shape::Text {
                    at: c,
                    text: (v + 1).to_string(),
                    size: 7.0,
                    fill: "#000000".into(),
                });
            }
            continue;
        }
        let fill = player_colour(s.colour(o)).to_string();
        let city = s.players[o as usize].cities.has(v);
        let r = if city { 9.0 } else { 6.0 };
        let points = if city {
            vec![
                (c.0 - r, c.1 + r),
                (c.0 - r, c.1 - r * 0.3),
                (c.0, c.1 - r),
                (c.0 + r, c.1 - r * 0.3),
                (c.0 + r, c.1 + r),
            ]
        } else {
            vec![
                (c.0 - r, c.1 + r),
                (c.0 - r, c.1 - r * 0.2),
                (c.0, c.1 - r),
                (c.0 + r, c.1 - r * 0.2),
                (c.0 + r, c.1 + r),
            ]
        };
        p.shapes.push(Shape::Polygon {
            points,
            fill,
            stroke: "#000000".into(),
            width: 1.5,
        });
    }
    crate::catan::express::report::locomotives_and_towers(s, &mut p, &frame);
    p
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

impl Picture {
    /// The picture as an SVG document.
    pub fn to_svg(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="0 0 {:.1} {:.1}">"#,
            self.width, self.height, self.width, self.height
        );
        for s in &self.shapes {
            let _ = match s {
                Shape::Polygon {
                    points,
                    fill,
                    stroke,
                    width,
                } => {
                    let pts: Vec<String> = points
                        .iter()
                        .map(|(x, y)| format!("{x:.1},{y:.1}"))
                        .collect();
                    writeln!(
                        o,
                        r#"<polygon points="{}" fill="{fill}" stroke="{stroke}" stroke-width="{width:.1}"/>"#,
                        pts.join(" ")
                    )
                }
                Shape::Circle {
                    centre,
                    radius,
                    fill,
                    stroke,
                } => writeln!(
                    o,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="{radius:.1}" fill="{fill}" stroke="{stroke}"/>"#,
                    centre.0, centre.1
                ),
                Shape::Line {
                    from,
                    to,
                    stroke,
                    width,
                } => writeln!(
                    o,
                    r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{stroke}" stroke-width="{width:.1}" stroke-linecap="round"/>"#,
                    from.0, from.1, to.0, to.1
                ),
                Shape::Text {
                    at,
                    text,
                    size,
                    fill,
                } => writeln!(
                    o,
                    r#"<text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="{size:.0}" fill="{fill}" text-anchor="middle" dominant-baseline="middle">{}</text>"#,
                    at.0,
                    at.1,
                    esc(text)
                ),
            };
        }
        o.push_str("</svg>\n");
        o
    }
}
