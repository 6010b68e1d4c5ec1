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

mod error;
pub mod legend;
pub mod mark;
mod paint;
mod shape;

use std::fmt::Write as _;

pub use error::PictureError;
pub use legend::{Key, Legend};
pub use shape::{Anchor, FONT, FONT_FAMILY, Rgb, Shape, Stroke, Text, cap_middle, text_width};

/// What the SVG asks for: the bundled font, else (in a browser without it) a like one.
const FONT_STACK: &str = "DejaVu Sans, Verdana, sans-serif";

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
