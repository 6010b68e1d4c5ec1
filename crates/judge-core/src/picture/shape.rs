//! The shapes a picture is made of, and the bundled font that measures its text (a leaf
//! that the picture, its legend, its marks and its painter all build
//! on, so that none of them imports another in a circle).

use std::fmt;
use std::sync::OnceLock;

/// The bundled font.
pub const FONT: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");
/// The family name SVG text asks for.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub const WHITE: Rgb = Rgb(255, 255, 255);
    pub const BLACK: Rgb = Rgb(0, 0, 0);
    /// Text and outlines.
    pub const INK: Rgb = Rgb(33, 33, 33);

    /// `#rrggbb`; anything else is black (the games' colours are written in the code).
    pub const fn hex(s: &str) -> Rgb {
        let b = s.as_bytes();
        if b.len() != 7 || b[0] != b'#' {
            return Rgb::BLACK;
        }
        const fn nib(c: u8) -> u8 {
            match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => 0,
            }
        }
        Rgb(
            nib(b[1]) * 16 + nib(b[2]),
            nib(b[3]) * 16 + nib(b[4]),
            nib(b[5]) * 16 + nib(b[6]),
        )
    }

    /// Text that reads on this colour: white on dark ones, ink on light ones.
    pub fn ink_on(self) -> Rgb {
        let l = 0.299 * f32::from(self.0) + 0.587 * f32::from(self.1) + 0.114 * f32::from(self.2);
        if l < 150.0 { Rgb::WHITE } else { Rgb::INK }
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// How a line or an outline is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    pub colour: Rgb,
    pub width: f32,
    /// Dashes: so long on, so long off.
    pub dash: Option<(f32, f32)>,
}

impl Stroke {
    pub const fn new(colour: Rgb, width: f32) -> Stroke {
        Stroke {
            colour,
            width,
            dash: None,
        }
    }

    pub const fn dashed(self, on: f32, off: f32) -> Stroke {
        Stroke {
            dash: Some((on, off)),
            ..self
        }
    }
}

/// Where a text stands on its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// A line of text; `at` is on its baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    pub at: (f32, f32),
    pub text: String,
    pub size: f32,
    pub fill: Rgb,
    pub anchor: Anchor,
    pub bold: bool,
    /// A rim in this colour around the letters, so they read on any ground.
    pub halo: Option<Rgb>,
}

impl Text {
    /// Text whose middle (of its capital letters) is at `centre`.
    pub fn centred(centre: (f32, f32), text: impl Into<String>, size: f32, fill: Rgb) -> Text {
        Text {
            at: (centre.0, centre.1 + cap_middle(size)),
            text: text.into(),
            size,
            fill,
            anchor: Anchor::Middle,
            bold: false,
            halo: None,
        }
    }

    /// Text starting at `left`, its capitals' middle on that point's height.
    pub fn left(left: (f32, f32), text: impl Into<String>, size: f32, fill: Rgb) -> Text {
        Text {
            anchor: Anchor::Start,
            ..Text::centred(left, text, size, fill)
        }
    }

    pub fn bold(self) -> Text {
        Text { bold: true, ..self }
    }

    pub fn halo(self, colour: Rgb) -> Text {
        Text {
            halo: Some(colour),
            ..self
        }
    }

    /// Its width, by the bundled font.
    pub fn width(&self) -> f32 {
        text_width(&self.text, self.size) * if self.bold { 1.1 } else { 1.0 }
    }
}

/// How far below a line's middle its baseline is: half of DejaVu Sans's capital height.
pub fn cap_middle(size: f32) -> f32 {
    0.364 * size
}

/// One thing drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Polygon {
        points: Vec<(f32, f32)>,
        fill: Option<Rgb>,
        stroke: Option<Stroke>,
    },
    /// A rectangle, its corners rounded by `round`.
    Rect {
        at: (f32, f32),
        size: (f32, f32),
        round: f32,
        fill: Option<Rgb>,
        stroke: Option<Stroke>,
    },
    Circle {
        centre: (f32, f32),
        radius: f32,
        fill: Option<Rgb>,
        stroke: Option<Stroke>,
    },
    /// A line through these points, with round ends and joins.
    Line {
        points: Vec<(f32, f32)>,
        stroke: Stroke,
    },
    Text(Text),
    /// Shapes that belong together, with a note a browser shows when the pointer rests
    /// on them (the goods lying in an area, a transporter's cargo). A PNG has no notes.
    Note {
        note: String,
        shapes: Vec<Shape>,
    },
}

impl Shape {
    /// How far the shape reaches left and right (its strokes included; a text by the
    /// bundled font's advances).
    pub fn x_extent(&self) -> (f32, f32) {
        let half = |s: &Option<Stroke>| s.map_or(0.0, |s| s.width / 2.0);
        let span = |pts: &[(f32, f32)], pad: f32| {
            pts.iter()
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p.0 - pad), hi.max(p.0 + pad))
                })
        };
        match self {
            Shape::Polygon { points, stroke, .. } => span(points, half(stroke)),
            Shape::Rect {
                at, size, stroke, ..
            } => (at.0 - half(stroke), at.0 + size.0 + half(stroke)),
            Shape::Circle {
                centre,
                radius,
                stroke,
                ..
            } => (
                centre.0 - radius - half(stroke),
                centre.0 + radius + half(stroke),
            ),
            Shape::Line { points, stroke } => span(points, stroke.width / 2.0),
            Shape::Text(t) => {
                let w = t.width();
                match t.anchor {
                    Anchor::Start => (t.at.0, t.at.0 + w),
                    Anchor::Middle => (t.at.0 - w / 2.0, t.at.0 + w / 2.0),
                    Anchor::End => (t.at.0 - w, t.at.0),
                }
            }
            Shape::Note { shapes, .. } => shapes
                .iter()
                .map(Shape::x_extent)
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), (a, b)| {
                    (lo.min(a), hi.max(b))
                }),
        }
    }

    /// A straight line.
    pub fn line(from: (f32, f32), to: (f32, f32), stroke: Stroke) -> Shape {
        Shape::Line {
            points: vec![from, to],
            stroke,
        }
    }

    /// The same shape moved by `(dx, dy)`.
    pub fn moved(&self, dx: f32, dy: f32) -> Shape {
        let m = |p: &(f32, f32)| (p.0 + dx, p.1 + dy);
        match self {
            Shape::Polygon {
                points,
                fill,
                stroke,
            } => Shape::Polygon {
                points: points.iter().map(m).collect(),
                fill: *fill,
                stroke: *stroke,
            },
            Shape::Rect {
                at,
                size,
                round,
                fill,
                stroke,
            } => Shape::Rect {
                at: m(at),
                size: *size,
                round: *round,
                fill: *fill,
                stroke: *stroke,
            },
            Shape::Circle {
                centre,
                radius,
                fill,
                stroke,
            } => Shape::Circle {
                centre: m(centre),
                radius: *radius,
                fill: *fill,
                stroke: *stroke,
            },
            Shape::Line { points, stroke } => Shape::Line {
                points: points.iter().map(m).collect(),
                stroke: *stroke,
            },
            Shape::Text(t) => Shape::Text(Text {
                at: m(&t.at),
                ..t.clone()
            }),
            Shape::Note { note, shapes } => Shape::Note {
                note: note.clone(),
                shapes: shapes.iter().map(|s| s.moved(dx, dy)).collect(),
            },
        }
    }
}

struct Metrics {
    /// Advance of each character from ' ' to '~', in em.
    ascii: [f32; 95],
    /// Of any other character.
    other: f32,
}

fn metrics() -> &'static Metrics {
    static M: OnceLock<Metrics> = OnceLock::new();
    M.get_or_init(|| {
        use skrifa::MetadataProvider as _;
        let mut m = Metrics {
            ascii: [0.6; 95],
            other: 0.6,
        };
        if let Ok(font) = skrifa::FontRef::new(FONT) {
            let charmap = font.charmap();
            let gm = font.glyph_metrics(
                skrifa::instance::Size::new(1.0),
                skrifa::instance::LocationRef::default(),
            );
            let advance = |c: char| {
                charmap
                    .map(c)
                    .and_then(|g| gm.advance_width(g))
                    .unwrap_or(0.6)
            };
            for (i, a) in m.ascii.iter_mut().enumerate() {
                *a = advance(char::from(b' ' + i as u8));
            }
            m.other = advance('M');
        }
        m
    })
}

/// How wide `text` is at `size` pixels in the bundled font (without kerning, which
/// only narrows it).
pub fn text_width(text: &str, size: f32) -> f32 {
    let m = metrics();
    text.chars()
        .map(|c| match c {
            ' '..='~' => m.ascii[c as usize - 32],
            _ => m.other,
        })
        .sum::<f32>()
        * size
}
