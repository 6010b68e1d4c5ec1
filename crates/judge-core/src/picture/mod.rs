//! Pictures of a board, for every game: a game draws its board as a list of shapes
//! ([`Picture`]), written as SVG ([`Picture::to_svg`]) and painted as PNG
//! ([`Picture::png`]: the same shapes straight onto pixels, the letters from one font
//! bundled with the judge, DejaVu Sans, assets/fonts/, free to
//! redistribute), never the machine's fonts — so there is one drawing, and a PNG is the
//! same bytes on every machine, painted by the judge's own painter (`paint`) and by
//! nothing else. [`legend`] lays out a legend the same way for every game, and [`mark`]
//! draws what a turn did over its board (routes, what is new) the same way too.
//!
//! Text is placed by its baseline; [`text_width`] measures it with the bundled font's
//! advances, so boxes and legends fit their words (a browser without the font draws a
//! like one, a little narrower).

pub mod legend;
pub mod mark;
mod paint;

use std::fmt::{self, Write as _};
use std::sync::OnceLock;

pub use legend::{Key, Legend};

/// The bundled font.
pub const FONT: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");
/// The family name SVG text asks for.
pub const FONT_FAMILY: &str = "DejaVu Sans";
/// What the SVG asks for: the bundled font, else (in a browser without it) a like one.
const FONT_STACK: &str = "DejaVu Sans, Verdana, sans-serif";

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

/// A whole picture.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picture {
    pub width: f32,
    pub height: f32,
    /// What it shows, for people who cannot see it (and the browser's tooltip).
    pub title: String,
    pub shapes: Vec<Shape>,
}

/// A number as SVG wants it: at most one decimal, none when it is whole.
fn num(o: &mut String, v: f32) {
    let tenths = (v * 10.0).round() as i64;
    if tenths % 10 == 0 {
        let _ = write!(o, "{}", tenths / 10);
    } else {
        let sign = if tenths < 0 { "-" } else { "" };
        let _ = write!(o, "{sign}{}.{}", tenths.abs() / 10, tenths.abs() % 10);
    }
}

fn attr(o: &mut String, name: &str, v: f32) {
    let _ = write!(o, " {name}=\"");
    num(o, v);
    o.push('"');
}

fn paint(o: &mut String, fill: Option<Rgb>, stroke: Option<Stroke>) {
    match fill {
        Some(c) => {
            let _ = write!(o, " fill=\"{c}\"");
        }
        None => o.push_str(" fill=\"none\""),
    }
    if let Some(s) = stroke {
        stroke_attrs(o, s);
    }
}

fn stroke_attrs(o: &mut String, s: Stroke) {
    let _ = write!(o, " stroke=\"{}\"", s.colour);
    attr(o, "stroke-width", s.width);
    if let Some((on, off)) = s.dash {
        o.push_str(" stroke-dasharray=\"");
        num(o, on);
        o.push(' ');
        num(o, off);
        o.push('"');
    }
}

/// Text for XML.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            c => o.push(c),
        }
    }
    o
}

fn points(o: &mut String, pts: &[(f32, f32)]) {
    for (i, (x, y)) in pts.iter().enumerate() {
        if i > 0 {
            o.push(' ');
        }
        num(o, *x);
        o.push(',');
        num(o, *y);
    }
}

fn write_shape(o: &mut String, s: &Shape) {
    match s {
        Shape::Polygon {
            points: pts,
            fill,
            stroke,
        } => {
            o.push_str("<polygon points=\"");
            points(o, pts);
            o.push('"');
            paint(o, *fill, *stroke);
            o.push_str("/>\n");
        }
        Shape::Rect {
            at,
            size,
            round,
            fill,
            stroke,
        } => {
            o.push_str("<rect");
            attr(o, "x", at.0);
            attr(o, "y", at.1);
            attr(o, "width", size.0);
            attr(o, "height", size.1);
            if *round > 0.0 {
                attr(o, "rx", *round);
            }
            paint(o, *fill, *stroke);
            o.push_str("/>\n");
        }
        Shape::Circle {
            centre,
            radius,
            fill,
            stroke,
        } => {
            o.push_str("<circle");
            attr(o, "cx", centre.0);
            attr(o, "cy", centre.1);
            attr(o, "r", *radius);
            paint(o, *fill, *stroke);
            o.push_str("/>\n");
        }
        Shape::Line {
            points: pts,
            stroke,
        } => {
            o.push_str("<polyline points=\"");
            points(o, pts);
            o.push_str("\" fill=\"none\"");
            stroke_attrs(o, *stroke);
            o.push_str(" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n");
        }
        Shape::Text(t) => {
            o.push_str("<text");
            attr(o, "x", t.at.0);
            attr(o, "y", t.at.1);
            attr(o, "font-size", t.size);
            match t.anchor {
                Anchor::Start => {}
                Anchor::Middle => o.push_str(" text-anchor=\"middle\""),
                Anchor::End => o.push_str(" text-anchor=\"end\""),
            }
            if t.bold {
                o.push_str(" font-weight=\"bold\"");
            }
            let _ = write!(o, " fill=\"{}\"", t.fill);
            if let Some(h) = t.halo {
                let _ = write!(
                    o,
                    " stroke=\"{h}\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\""
                );
            }
            let _ = writeln!(o, ">{}</text>", escape(&t.text));
        }
        Shape::Note { note, shapes } => {
            let _ = writeln!(o, "<g><title>{}</title>", escape(note));
            for s in shapes {
                write_shape(o, s);
            }
            o.push_str("</g>\n");
        }
    }
}

impl Picture {
    /// The picture's size in whole pixels, as the PNG has it.
    pub fn pixels(&self) -> (u32, u32) {
        (self.width.ceil() as u32, self.height.ceil() as u32)
    }

    /// The picture as an SVG document, on a white ground.
    pub fn to_svg(&self) -> String {
        let (w, h) = self.pixels();
        let mut o = String::with_capacity(64 * self.shapes.len() + 512);
        let _ = writeln!(
            o,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_STACK}\">"
        );
        if !self.title.is_empty() {
            let _ = writeln!(o, "<title>{}</title>", escape(&self.title));
        }
        let _ = writeln!(o, "<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>");
        for s in &self.shapes {
            write_shape(&mut o, s);
        }
        o.push_str("</svg>\n");
        o
    }

    /// The picture as PNG: the same shapes as its SVG, painted (see `paint`).
    pub fn png(&self) -> Result<Vec<u8>, PictureError> {
        encode(&paint::pixels(self).ok_or(PictureError::NoSize)?)
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

/// Why a picture could not be painted as PNG.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    #[error("the picture has no size")]
    NoSize,
    #[error("the picture: {0}")]
    Encoding(#[from] png::EncodingError),
}

/// PNG bytes of an opaque pixmap: its RGBA as it is (every pixel opaque, so the
/// premultiplied values are the colours), each row filtered against the one above
/// and compressed fast (fdeflate): the same bytes for the same pixels.
fn encode(pixmap: &paint::Pixmap) -> Result<Vec<u8>, PictureError> {
    let fail = PictureError::Encoding;
    let mut out = Vec::with_capacity(pixmap.data().len() / 16);
    let mut enc = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    // A board's rows mostly repeat the row above: `Up` compresses them about as well
    // as trying every filter on every row, in a fraction of the time.
    enc.set_filter(png::Filter::Up);
    let mut w = enc.write_header().map_err(fail)?;
    w.write_image_data(pixmap.data()).map_err(fail)?;
    w.finish().map_err(fail)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_drawn_with_the_bundled_font_and_the_same_bytes_each_time() {
        let picture = |shapes| Picture {
            width: 120.0,
            height: 40.0,
            title: String::new(),
            shapes,
        };
        let words = picture(vec![Shape::Text(Text::centred(
            (60.0, 20.0),
            "C4 E7",
            20.0,
            Rgb::INK,
        ))]);
        let a = words.png().expect("png");
        assert_eq!(a, words.png().expect("png"));
        let blank = picture(Vec::new()).png().expect("png");
        assert_ne!(a, blank, "the text was drawn");
    }

    #[test]
    fn widths_come_from_the_font() {
        // DejaVu Sans: `i` is narrow, `W` wide; twice the size, twice the width.
        assert!(text_width("iii", 10.0) < text_width("WWW", 10.0));
        let w = text_width("stock-exchange", 10.0);
        assert!((text_width("stock-exchange", 20.0) - 2.0 * w).abs() < 0.01);
        assert!(w > 60.0 && w < 90.0, "{w}");
    }

    #[test]
    fn svg_numbers_are_short_and_text_is_escaped() {
        let p = Picture {
            width: 10.2,
            height: 5.0,
            title: "a < b".into(),
            shapes: vec![
                Shape::line((1.0, 2.25), (3.5, -4.0), Stroke::new(Rgb::INK, 2.0)),
                Shape::Text(Text::centred((5.0, 5.0), "R&B", 10.0, Rgb::INK)),
            ],
        };
        let svg = p.to_svg();
        assert!(svg.contains("width=\"11\""), "{svg}");
        assert!(svg.contains("points=\"1,2.3 3.5,-4\""), "{svg}");
        assert!(svg.contains(">R&amp;B</text>"), "{svg}");
        assert!(svg.contains("<title>a &lt; b</title>"), "{svg}");
    }

    #[test]
    fn colours_read_and_choose_their_ink() {
        assert_eq!(Rgb::hex("#d32f2f"), Rgb(211, 47, 47));
        assert_eq!(Rgb(211, 47, 47).to_string(), "#d32f2f");
        assert_eq!(Rgb::hex("#1b5e20").ink_on(), Rgb::WHITE);
        assert_eq!(Rgb::hex("#fbc02d").ink_on(), Rgb::INK);
    }
}
