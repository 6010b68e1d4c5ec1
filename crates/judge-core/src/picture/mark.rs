//! What a turn did, marked on the board drawn after it: a game lays these over its
//! picture from the turn's events. A piece's route is a line through the places it
//! passed, its arrowhead where it stopped, in its owner's colour over a dark casing (so
//! a light colour reads on any ground); what is new this turn glows in one colour that
//! no game's palette uses ([`NEW`]) — a wide line under a new line, a ring around a new
//! piece, a frame around a new box; where something changed hands, a small diamond
//! ([`handed`]). Each has its legend key here, so every game's legend shows them alike.

use super::legend::{BOX, Key};
use super::{Rgb, Shape, Stroke};

/// The colour of what is new this turn.
pub const NEW: Rgb = Rgb(255, 23, 168);
/// How much wider than its line a new line's glow is.
pub const GLOW: f32 = 7.0;
/// A route's line.
const WIDTH: f32 = 3.0;
/// Its dark casing, this much wider.
const CASING: f32 = 2.5;
/// The arrowhead: its length and half its width.
const HEAD: f32 = 11.0;
const HEAD_HALF: f32 = 5.5;

/// A route: where a piece went, from its first point to its last.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    points: Vec<(f32, f32)>,
    colour: Rgb,
    dash: Option<(f32, f32)>,
}

fn sub(a: (f32, f32), b: (f32, f32)) -> (f32, f32) {
    (a.0 - b.0, a.1 - b.1)
}

fn len(v: (f32, f32)) -> f32 {
    (v.0 * v.0 + v.1 * v.1).sqrt()
}

/// `v` of length one (or nothing, when it has no length).
fn unit(v: (f32, f32)) -> (f32, f32) {
    let l = len(v);
    if l > 1e-3 {
        (v.0 / l, v.1 / l)
    } else {
        (0.0, 0.0)
    }
}

impl Route {
    /// A route through `points` (a point the same as the one before it is dropped).
    pub fn new(points: impl IntoIterator<Item = (f32, f32)>, colour: Rgb) -> Route {
        let mut out: Vec<(f32, f32)> = Vec::new();
        for p in points {
            if out.last().is_none_or(|q| len(sub(p, *q)) > 0.5) {
                out.push(p);
            }
        }
        Route {
            points: out,
            colour,
            dash: None,
        }
    }

    /// Drawn dashed: so long on, so long off.
    pub fn dashed(self, on: f32, off: f32) -> Route {
        Route {
            dash: Some((on, off)),
            ..self
        }
    }

    /// Whether it goes anywhere (two points at least).
    pub fn goes(&self) -> bool {
        self.points.len() > 1
    }

    pub fn points(&self) -> &[(f32, f32)] {
        &self.points
    }

    /// The route moved `d` to the right of its way (to the left when `d` is negative),
    /// every corner along its bisector: so two routes over the same places both show,
    /// and a way there and back again keeps to its right each way, like traffic.
    pub fn beside(self, d: f32) -> Route {
        if d == 0.0 || !self.goes() {
            return self;
        }
        let n = self.points.len();
        let normal = |i: usize| {
            let (dx, dy) = unit(sub(self.points[i + 1], self.points[i]));
            // The right of the way, on a picture whose y grows downward.
            (-dy, dx)
        };
        let mut points = Vec::with_capacity(n + 2);
        for (i, p) in self.points.iter().enumerate() {
            let a = normal(i.saturating_sub(1).min(n - 2));
            let b = normal(i.min(n - 2));
            let at = |v: (f32, f32), k: f32| (p.0 + v.0 * k, p.1 + v.1 * k);
            if a.0 * b.0 + a.1 * b.1 < -0.5 {
                // A sharp turn (back the way it came): round it, from one side to the
                // other.
                points.push(at(a, d));
                points.push(at(b, d));
                continue;
            }
            // Along the bisector, so each segment keeps its distance `d`.
            let m = unit((a.0 + b.0, a.1 + b.1));
            points.push(at(m, d / (m.0 * b.0 + m.1 * b.1).max(0.5)));
        }
        Route { points, ..self }
    }

    /// The route with its end drawn back by `by` along its last leg (at most to half of
    /// it), so that its arrowhead points at its last point rather than covering it.
    pub fn short_of_end(mut self, by: f32) -> Route {
        let n = self.points.len();
        if n < 2 {
            return self;
        }
        let (a, b) = (self.points[n - 2], self.points[n - 1]);
        let leg = len(sub(b, a));
        let back = by.min(leg / 2.0);
        let u = unit(sub(b, a));
        self.points[n - 1] = (b.0 - u.0 * back, b.1 - u.1 * back);
        self
    }

    /// Its line, over its dark casing, up to the arrowhead's base.
    pub fn line(&self) -> Vec<Shape> {
        let n = self.points.len();
        if n < 2 {
            return Vec::new();
        }
        let mut points = self.points.clone();
        let (a, b) = (points[n - 2], points[n - 1]);
        let u = unit(sub(b, a));
        let back = (HEAD - 1.0).min(len(sub(b, a)));
        points[n - 1] = (b.0 - u.0 * back, b.1 - u.1 * back);
        let stroke = |colour, width| {
            let s = Stroke::new(colour, width);
            match self.dash {
                Some((on, off)) => s.dashed(on, off),
                None => s,
            }
        };
        vec![
            Shape::Line {
                points: points.clone(),
                stroke: stroke(Rgb::INK, WIDTH + CASING),
            },
            Shape::Line {
                points,
                stroke: stroke(self.colour, WIDTH),
            },
        ]
    }

    /// Its arrowhead, its tip on the last point.
    pub fn head(&self) -> Vec<Shape> {
        let n = self.points.len();
        if n < 2 {
            return Vec::new();
        }
        let tip = self.points[n - 1];
        let u = unit(sub(tip, self.points[n - 2]));
        let base = (tip.0 - u.0 * HEAD, tip.1 - u.1 * HEAD);
        let (nx, ny) = (-u.1 * HEAD_HALF, u.0 * HEAD_HALF);
        vec![Shape::Polygon {
            points: vec![tip, (base.0 + nx, base.1 + ny), (base.0 - nx, base.1 - ny)],
            fill: Some(self.colour),
            stroke: Some(Stroke::new(Rgb::INK, 1.0)),
        }]
    }

    /// Line and arrowhead.
    pub fn shapes(&self) -> Vec<Shape> {
        let mut out = self.line();
        out.extend(self.head());
        out
    }

    /// A legend's key: a short route of this look, left to right.
    pub fn key(colour: Rgb, dash: Option<(f32, f32)>) -> Key {
        let r = Route {
            points: vec![(0.0, BOX / 2.0), (BOX + 8.0, BOX / 2.0)],
            colour,
            dash,
        };
        Key::Shapes(r.shapes())
    }
}

/// The glow under a new line of `width`: drawn first, then the line over it.
pub fn glow_line(points: Vec<(f32, f32)>, width: f32) -> Shape {
    Shape::Line {
        points,
        stroke: Stroke::new(NEW, width + GLOW),
    }
}

/// A ring around a new piece of `radius` (drawn after it, so it shows around it).
pub fn glow_ring(centre: (f32, f32), radius: f32) -> Shape {
    Shape::Circle {
        centre,
        radius: radius + 2.5,
        fill: None,
        stroke: Some(Stroke::new(NEW, 3.0)),
    }
}

/// A frame around a new box (drawn after it).
pub fn glow_frame(at: (f32, f32), size: (f32, f32)) -> Shape {
    Shape::Rect {
        at: (at.0 - 2.5, at.1 - 2.5),
        size: (size.0 + 5.0, size.1 + 5.0),
        round: 3.0,
        fill: None,
        stroke: Some(Stroke::new(NEW, 3.0)),
    }
}

/// The mark where something changed hands: a small diamond.
pub fn handed(at: (f32, f32)) -> Vec<Shape> {
    let (x, y) = at;
    let r = 6.0;
    vec![Shape::Polygon {
        points: vec![(x, y - r), (x + r, y), (x, y + r), (x - r, y)],
        fill: Some(NEW),
        stroke: Some(Stroke::new(Rgb::INK, 1.2)),
    }]
}

/// Legend keys for these marks.
pub mod keys {
    use super::*;

    /// A new line of this stroke: the line over its glow.
    pub fn new_line(line: Vec<Shape>, width: f32) -> Key {
        let mut shapes = vec![glow_line(
            vec![(2.0, BOX / 2.0), (BOX - 2.0, BOX / 2.0)],
            width,
        )];
        shapes.extend(line);
        Key::Shapes(shapes)
    }

    /// A new piece: its shapes, with a ring around the box's middle.
    pub fn new_piece(piece: Vec<Shape>, radius: f32) -> Key {
        let mut shapes = piece;
        shapes.push(glow_ring((BOX / 2.0, BOX / 2.0), radius));
        Key::Shapes(shapes)
    }

    /// A new box: its shapes, framed.
    pub fn new_box(piece: Vec<Shape>, at: (f32, f32), size: (f32, f32)) -> Key {
        let mut shapes = piece;
        shapes.push(glow_frame(at, size));
        Key::Shapes(shapes)
    }

    /// Where something changed hands.
    pub fn handed() -> Key {
        Key::Shapes(super::handed((BOX / 2.0, BOX / 2.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_ends_in_an_arrowhead_on_its_last_point() {
        let r = Route::new([(0.0, 0.0), (0.0, 0.0), (100.0, 0.0)], Rgb::WHITE);
        assert_eq!(r.points().len(), 2, "the repeated point is dropped");
        let Some(Shape::Polygon { points, .. }) = r.head().into_iter().next() else {
            panic!("a head")
        };
        assert_eq!(points[0], (100.0, 0.0));
        assert!(points[1].0 < 100.0 && points[2].0 < 100.0, "{points:?}");
        // The line stops inside the head, not past its tip.
        let Some(Shape::Line { points: line, .. }) = r.line().into_iter().next() else {
            panic!("a line")
        };
        assert!(line[1].0 < 100.0 && line[1].0 > 100.0 - HEAD, "{line:?}");
        assert!(Route::new([(5.0, 5.0)], Rgb::WHITE).shapes().is_empty());
    }

    #[test]
    fn a_route_beside_another_keeps_its_distance_and_drawn_back_points_at_its_end() {
        // Right of a way east is south (y grows downward).
        let r = Route::new([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)], Rgb::WHITE).beside(2.0);
        let p = r.points();
        assert!((p[0].1 - 2.0).abs() < 1e-3, "{p:?}");
        assert!(
            (p[1].0 - 8.0).abs() < 1e-3 && (p[1].1 - 2.0).abs() < 1e-3,
            "{p:?}"
        );
        assert!((p[2].0 - 8.0).abs() < 1e-3, "{p:?}");
        // There and back again: each way on its own right.
        let r = Route::new([(0.0, 0.0), (10.0, 0.0), (0.0, 0.0)], Rgb::WHITE).beside(2.0);
        assert_eq!(
            r.points(),
            [(0.0, 2.0), (10.0, 2.0), (10.0, -2.0), (0.0, -2.0)]
        );
        let s = Route::new([(0.0, 0.0), (40.0, 0.0)], Rgb::WHITE).short_of_end(10.0);
        assert_eq!(s.points()[1], (30.0, 0.0));
        let s = Route::new([(0.0, 0.0), (8.0, 0.0)], Rgb::WHITE).short_of_end(10.0);
        assert_eq!(s.points()[1], (4.0, 0.0), "at most half the last leg");
    }
}
