//! A picture's legend, laid out the same way for every game: rows of keys, each a small
//! drawing and its words, wrapped to the picture's width. A game adds only what its
//! board shows, so the legend lists only what is on the map.

use super::shape::{Rgb, Shape, Stroke, Text, text_width};

/// The size of the words.
pub const SIZE: f32 = 12.0;
/// The key's box: keys are drawn in a square of this side, from (0, 0).
pub const BOX: f32 = 16.0;
const GAP: f32 = 6.0;
const SPACING: f32 = 18.0;
const ROW: f32 = 22.0;

/// The drawing beside a legend's words.
#[derive(Clone, Debug, PartialEq)]
pub enum Key {
    /// A square of colour (a terrain).
    Swatch(Rgb),
    /// A stretch of line (a river, a road).
    Line(Stroke),
    /// A dot (a player's colour).
    Dot(Rgb),
    /// Shapes drawn in the key's box, from (0, 0) to ([`BOX`], [`BOX`]).
    Shapes(Vec<Shape>),
}

impl Key {
    fn shapes(&self) -> Vec<Shape> {
        let ink = Some(Stroke::new(Rgb::INK, 1.0));
        match self {
            Key::Swatch(c) => vec![Shape::Rect {
                at: (0.5, 0.5),
                size: (BOX - 1.0, BOX - 1.0),
                round: 2.0,
                fill: Some(*c),
                stroke: ink,
            }],
            Key::Line(s) => vec![Shape::line((1.0, BOX / 2.0), (BOX - 1.0, BOX / 2.0), *s)],
            Key::Dot(c) => vec![Shape::Circle {
                centre: (BOX / 2.0, BOX / 2.0),
                radius: BOX / 2.0 - 2.0,
                fill: Some(*c),
                stroke: ink,
            }],
            Key::Shapes(s) => s.clone(),
        }
    }
}

/// Keys in rows: each row starts on a new line, and wraps when it is too wide.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Legend {
    rows: Vec<Vec<(Key, String)>>,
}

impl Legend {
    pub fn new() -> Legend {
        Legend::default()
    }

    /// Start a new row (terrains, players, marks …).
    pub fn row(&mut self) -> &mut Legend {
        if self.rows.last().is_none_or(|r| !r.is_empty()) {
            self.rows.push(Vec::new());
        }
        self
    }

    /// A key in the current row.
    pub fn add(&mut self, key: Key, words: impl Into<String>) -> &mut Legend {
        if self.rows.is_empty() {
            self.rows.push(Vec::new());
        }
        if let Some(r) = self.rows.last_mut() {
            r.push((key, words.into()));
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(Vec::is_empty)
    }

    /// The legend drawn from `(x, y)` within `width`: its shapes and its height.
    pub fn layout(&self, x: f32, y: f32, width: f32) -> (Vec<Shape>, f32) {
        let mut out = Vec::new();
        let mut cy = y;
        for row in self.rows.iter().filter(|r| !r.is_empty()) {
            let mut cx = x;
            for (key, words) in row {
                // A key wider than its box (a long chip) takes the room it needs.
                let shapes = key.shapes();
                let (lo, hi) = shapes
                    .iter()
                    .map(Shape::x_extent)
                    .fold((0.0f32, BOX), |(lo, hi), (a, b)| (lo.min(a), hi.max(b)));
                let kw = hi - lo;
                let w = kw + GAP + text_width(words, SIZE);
                if cx > x && cx + w > x + width {
                    cx = x;
                    cy += ROW;
                }
                out.extend(shapes.iter().map(|s| s.moved(cx - lo, cy)));
                out.push(Shape::Text(Text::left(
                    (cx + kw + GAP, cy + BOX / 2.0),
                    words.clone(),
                    SIZE,
                    Rgb::INK,
                )));
                cx += w + SPACING;
            }
            cy += ROW;
        }
        (out, cy - y)
    }

    /// How high the legend is when laid out within `width`.
    pub fn height(&self, width: f32) -> f32 {
        self.layout(0.0, 0.0, width).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_wrap_to_the_width_and_empty_rows_take_no_room() {
        let mut l = Legend::new();
        l.add(Key::Swatch(Rgb::WHITE), "pasture")
            .add(Key::Swatch(Rgb::BLACK), "woods");
        l.row().row();
        l.add(Key::Dot(Rgb::INK), "red Ann");
        assert_eq!(l.height(1000.0), 2.0 * ROW);
        // Too narrow for two keys side by side: the first row wraps.
        assert_eq!(l.height(60.0), 3.0 * ROW);
        let (shapes, _) = l.layout(10.0, 20.0, 1000.0);
        assert!(
            shapes
                .iter()
                .any(|s| matches!(s, Shape::Text(t) if t.text == "red Ann"))
        );
        assert!(Legend::new().is_empty());
    }

    #[test]
    fn a_wide_key_pushes_its_words_right() {
        let chip = Shape::Rect {
            at: (-12.0, 2.0),
            size: (40.0, 12.0),
            round: 3.0,
            fill: Some(Rgb::WHITE),
            stroke: None,
        };
        let mut l = Legend::new();
        l.add(Key::Shapes(vec![chip]), "carrying");
        let (shapes, _) = l.layout(10.0, 0.0, 1000.0);
        // The chip is moved to start at the legend's left; the words after its end.
        assert!(matches!(&shapes[0], Shape::Rect { at, .. } if at.0 == 10.0));
        assert!(
            matches!(&shapes[1], Shape::Text(t) if t.at.0 == 10.0 + 40.0 + GAP),
            "{:?}",
            shapes[1]
        );
    }
}
