//! The toolkit the reports are built on: the text's numbered sections, wrapping and
//! ruled tables, and the picture's frame, ink and player colours. The base game's report
//! and picture ([`super`], [`super::picture`]) and a scenario's (Catan Express's,
//! `crate::express::report`) both build on it; it imports neither (tests/architecture/catan.rs).

use std::fmt::Write as _;

use crate::colour::Colour;
use judge_core::picture::{Rgb, Stroke};

const ROMAN: [&str; 10] = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"];

pub(crate) fn section(out: &mut String, n: &mut usize, title: &str) {
    let head = format!("{}. {title}", ROMAN[*n % ROMAN.len()]);
    let _ = writeln!(out, "{head}\n{}", "=".repeat(head.chars().count()));
    *n += 1;
}

pub(crate) fn wrap(out: &mut String, text: &str, indent: usize) {
    wrap_hanging(out, text, indent, 0);
}

pub(crate) fn wrap_hanging(out: &mut String, text: &str, indent: usize, hang: usize) {
    let first = " ".repeat(indent);
    let rest = " ".repeat(indent + hang);
    let opts = textwrap::Options::new(78)
        .initial_indent(&first)
        .subsequent_indent(&rest);
    for l in textwrap::wrap(text, opts) {
        let _ = writeln!(out, "{l}");
    }
}

/// A ruled table, like the Roads & Boats report's, indented by two.
pub fn ruled(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut w: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if i < w.len() {
                w[i] = w[i].max(c.chars().count());
            }
        }
    }
    let rule = format!(
        "  +{}+\n",
        w.iter()
            .map(|n| "-".repeat(n + 2))
            .collect::<Vec<_>>()
            .join("+")
    );
    let line = |cells: Vec<String>| {
        let cells: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| format!(" {c:<width$} ", width = w[i]))
            .collect();
        format!("  |{}|\n", cells.join("|"))
    };
    let mut out = rule.clone();
    out.push_str(&line(headers.iter().map(|h| h.to_string()).collect()));
    out.push_str(&rule);
    for r in rows {
        out.push_str(&line(r.clone()));
    }
    out.push_str(&rule);
    out
}

// ---- The picture's ------------------------------------------------------------------

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
pub(crate) const SIZE: f32 = 46.0;
pub(crate) const MARGIN: f32 = 12.0;
/// Room for the title above the board.
pub(crate) const TITLE: f32 = 28.0;
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
    /// The frame whose top left corner is the board plane's point (`minx`, `miny`).
    pub(crate) fn new(minx: i32, miny: i32) -> Frame {
        Frame { minx, miny }
    }

    /// A point of the board's plane (x in half hex widths, y in quarter hex heights).
    pub fn at(&self, x: i32, y: i32) -> (f32, f32) {
        (
            MARGIN + (x - self.minx) as f32 * SIZE * 0.866,
            MARGIN + TITLE + (y - self.miny) as f32 * SIZE * 0.5,
        )
    }
}
