//! A picture of the board after a turn: every tile with its label (`C4`) and terrain,
//! rivers, rail tracks, roads, power lines, bridges, walls in their owners' colours
//! (neutral ones grey, the number of tokens on a wall of more than one), city moats,
//! homes, buildings by their full names, goods lying and transporters as chips (the
//! goods by kind, in their two-letter short forms: `7Bd 2St`, `D5 2Tr`), the &cetera
//! marks (managers, exhibitions shown, polders dry or flooded), and a legend of only
//! what the board shows, the short forms it uses among it. Bridges are drawn last, and
//! chips move aside from them, so no chip hides a bridge.
//!
//! After a turn ([`draw_turn`]), what the turn did is marked over the board
//! (`judge_core::picture::mark`): each transporter's way as a line with an arrowhead in its
//! owner's colour (dashed when it flew, dotted on the train), the roads, bridges, walls,
//! power lines and buildings built in it glowing, a diamond where goods changed hands,
//! and the legend's keys for each of these shown.
//!
//! One drawing ([`draw`], a [`Picture`]) gives the SVG; the PNG is that SVG rendered
//! (`judge_core::picture`), with the bundled font.

use std::collections::{BTreeMap, BTreeSet};

use super::super::building::Building;
use super::super::goods::{Good, Goods};
use super::super::map::{AreaId, Bridge, Dir, Hex, Road, Terrain};
use super::super::player::Colour;
use super::super::transporter::{Kind, Location, Transporter, TransporterId};
use super::changes::{Changes, Trip, Way};
use crate::modules;
use crate::state::State;
use judge_core::picture::legend::BOX;
use judge_core::picture::mark::{self, Route};
use judge_core::picture::{Key, Legend, Picture, Rgb, Shape, Stroke, Text, text_width};

/// A hex's radius (centre to corner).
const R: f32 = 46.0;
const MARGIN: f32 = 16.0;
/// Room for the title above the map.
const TITLE: f32 = 30.0;
/// The narrowest picture (the legend needs some room).
const MIN_WIDTH: f32 = 520.0;

const LABEL_SIZE: f32 = 11.0;
const BUILDING_SIZE: f32 = 9.0;
const CHIP_SIZE: f32 = 9.0;
const CHIP_H: f32 = 12.0;
/// Each further line of a chip.
const CHIP_LINE: f32 = 10.0;
/// The widest line of text in a chip.
const CHIP_TEXT: f32 = CHIP_ROW - 6.0;
/// The farthest a row of chips moves aside to leave a bridge clear.
const MAX_SHIFT: f32 = 0.4 * R;
/// The widest row of chips in an area.
const CHIP_ROW: f32 = 1.65 * R;
/// At most so many chips in an area; the rest are counted in one more.
const CHIPS_SHOWN: usize = 8;

fn terrain_colour(t: Terrain) -> Rgb {
    match t {
        Terrain::Pasture => Rgb(156, 204, 101),
        Terrain::Woods => Rgb(46, 125, 50),
        Terrain::Rock => Rgb(158, 158, 158),
        Terrain::Mountain => Rgb(141, 110, 99),
        Terrain::Desert => Rgb(253, 216, 53),
        Terrain::Sea => Rgb(100, 181, 246),
        Terrain::Polder => Rgb(128, 203, 196),
        Terrain::City => Rgb(176, 190, 197),
    }
}

pub fn player_colour(c: Colour) -> Rgb {
    match c {
        Colour::Red => Rgb(211, 47, 47),
        Colour::Yellow => Rgb(251, 192, 45),
        Colour::Green => Rgb(27, 94, 32),
        Colour::Blue => Rgb(25, 118, 210),
        Colour::Purple => Rgb(123, 31, 162),
        Colour::Orange => Rgb(245, 124, 0),
    }
}

const OUTLINE: Rgb = Rgb(60, 60, 60);
const NEUTRAL: Rgb = Rgb(97, 97, 97);
const RIVER: Rgb = Rgb(13, 71, 161);
const ROAD: Rgb = Rgb(93, 64, 55);
const BRIDGE: Rgb = Rgb(189, 189, 189);
/// A bridge's plank, its dark sides included.
const PLANK: f32 = 7.0;
const TRACK: Rgb = Rgb(38, 50, 56);
const GOODS: Rgb = Rgb(215, 179, 119);
/// Power lines (electricity).
const POWER: Rgb = Rgb(245, 127, 23);
/// An exhibition's disc (art).
const ART: Rgb = Rgb(255, 214, 0);

fn ink() -> Option<Stroke> {
    Some(Stroke::new(Rgb::INK, 1.0))
}

fn hex_centre(h: Hex) -> (f32, f32) {
    let s3 = 3f32.sqrt();
    let x = MARGIN + R + R * 1.5 * f32::from(h.col);
    let y =
        MARGIN + TITLE + R * s3 / 2.0 + R * s3 * (f32::from(h.row) + 0.5 * f32::from(h.col & 1));
    (x, y)
}

fn corner(c: (f32, f32), k: u32) -> (f32, f32) {
    corner_at(c, k, R)
}

fn corner_at(c: (f32, f32), k: u32, r: f32) -> (f32, f32) {
    let a = (60.0 * k as f32).to_radians();
    (c.0 + r * a.cos(), c.1 - r * a.sin())
}

/// The middle of the edge toward `d`.
fn edge_mid(c: (f32, f32), d: Dir) -> (f32, f32) {
    let a = (d.bearing() as f32).to_radians();
    let h = R * 3f32.sqrt() / 2.0;
    (c.0 + h * a.cos(), c.1 - h * a.sin())
}

/// The two corners of the edge toward `d`.
fn edge_ends(c: (f32, f32), d: Dir) -> ((f32, f32), (f32, f32)) {
    let b = d.bearing().rem_euclid(360) as u32;
    (corner(c, (b + 30) / 60 % 6), corner(c, (b + 330) / 60 % 6))
}

/// Where an area's things are drawn: the tile's centre, or toward its side.
fn area_point(a: AreaId) -> (f32, f32) {
    let c = hex_centre(a.hex);
    match a.side {
        None => c,
        Some(side) => {
            let bearing = match side.name() {
                "E" => 0.0f32,
                "NE" => 45.0,
                "N" => 90.0,
                "NW" => 135.0,
                "W" => 180.0,
                "SW" => 225.0,
                "S" => 270.0,
                _ => 315.0,
            }
            .to_radians();
            (
                c.0 + R * 0.45 * bearing.cos(),
                c.1 - R * 0.45 * bearing.sin(),
            )
        }
    }
}

/// Where a transporter is drawn, and beside which area's things.
fn place_of(state: &State, t: &Transporter) -> Option<(f32, f32)> {
    match t.at {
        Location::Carried(by) => {
            let carrier = state.transporters.get(&by)?;
            if matches!(carrier.at, Location::Carried(_)) {
                return None;
            }
            place_of(state, carrier)
        }
        at => location_point(at),
    }
}

/// Where the map draws what stands at `at` (a transporter, an area's things): the order
/// writer's page draws on the picture there.
pub fn point(state: &State, at: Location) -> Option<(f32, f32)> {
    match at {
        Location::Carried(by) => place_of(state, state.transporters.get(&by)?),
        at => location_point(at),
    }
}

/// Where a tile's name (`C4`) is centred on the map.
fn label_centre(h: Hex) -> (f32, f32) {
    let c = hex_centre(h);
    (c.0, c.1 - 0.62 * R)
}

/// The box a tile's name takes on the map as a browser sets it: the font's ascent and
/// descent (DejaVu Sans: 0.93 and 0.24 of its size) about the baseline, the bold text's
/// width, and its white halo around them, with half a unit to spare.
pub fn label_bounds(h: Hex) -> Bounds {
    let (x, y) = label_centre(h);
    let baseline = y + judge_core::picture::cap_middle(LABEL_SIZE);
    // A browser's bold letters: no wider than 0.75 of the size, whatever the font.
    let name = h.to_string();
    let half = (name.chars().count() as f32 * 0.75 * LABEL_SIZE)
        .max(text_width(&name, LABEL_SIZE) * 1.1)
        / 2.0
        + 2.0;
    (
        x - half,
        baseline - 0.93 * LABEL_SIZE - 1.5,
        x + half,
        baseline + 0.24 * LABEL_SIZE + 1.5,
    )
}

/// Where the order writer's page draws a mark for `at` (the ring of a place a
/// transporter reaches, the `+` of a place to build): `lift` above the place's point,
/// or, when a mark reaching `r` from its centre there would cover a tile's name, the
/// nearest spot where it covers none (the lit discs covered the
/// names).
pub fn writer_mark(state: &State, at: Location, lift: f32, r: f32) -> Option<(f32, f32)> {
    let p = point(state, at)?;
    let want = (p.0, p.1 - lift);
    let names: Vec<Bounds> = state
        .map
        .tiles
        .keys()
        .map(|&h| label_bounds(h))
        .filter(|b| {
            overlaps(
                *b,
                (
                    want.0 - 3.0 * R,
                    want.1 - 3.0 * R,
                    want.0 + 3.0 * R,
                    want.1 + 3.0 * R,
                ),
            )
        })
        .collect();
    let clear = |q: (f32, f32)| {
        !names
            .iter()
            .any(|b| overlaps((q.0 - r, q.1 - r, q.0 + r, q.1 + r), *b))
    };
    // Rings about the wished spot, 2 units apart; on each, straight down first, then
    // round both ways.
    let mut spots = std::iter::once(want).chain((1..=24u8).flat_map(|step| {
        let d = 2.0 * f32::from(step);
        (0..16u8).map(move |k| {
            let turn = f32::from(k.div_ceil(2)) * std::f32::consts::PI / 8.0;
            let a = if k % 2 == 1 { turn } else { -turn };
            (want.0 + d * a.sin(), want.1 + d * a.cos())
        })
    }));
    Some(spots.find(|q| clear(*q)).unwrap_or(want))
}

/// Where a place on the board is drawn (a carried transporter's is its carrier's).
fn location_point(at: Location) -> Option<(f32, f32)> {
    Some(match at {
        Location::Land(a) => area_point(a),
        Location::River(h) | Location::Sea(h) => hex_centre(h),
        Location::Dock(c) => {
            let d = c.land.hex.direction_to(c.sea).unwrap_or(Dir::N);
            let m = edge_mid(hex_centre(c.land.hex), d);
            let p = area_point(c.land);
            ((m.0 * 2.0 + p.0) / 3.0, (m.1 * 2.0 + p.1) / 3.0)
        }
        Location::Carried(_) => return None,
    })
}

/// The picture's size: the map, the title and the legend under them.
fn frame(state: &State, title: &str) -> (f32, f32) {
    let cols = state.map.columns();
    let rows = state.map.rows();
    let w = 2.0 * MARGIN + R * (1.5 * f32::from(cols) + 0.5);
    let h = MARGIN + TITLE + R * 3f32.sqrt() * (f32::from(rows) + 0.5);
    let title_w = 2.0 * MARGIN + text_width(title, 16.0) * 1.1;
    (w.max(MIN_WIDTH).max(title_w).ceil(), h.ceil())
}

/// A point of the picture to a tenth of a pixel, where chips gather.
type Spot = (i32, i32);

/// A chip: a rounded label, for a transporter in its owner's colour or goods lying.
#[derive(Clone)]
struct Chip {
    /// Its text, on one line or, when its goods do not fit, several.
    lines: Vec<String>,
    fill: Rgb,
    note: String,
}

impl Chip {
    /// A chip of `first` (a transporter's id, or nothing) and `goods` by their short
    /// forms (`D5 2Bd`, `7Bd 2Gs`): on as few lines as fit [`CHIP_TEXT`], and those
    /// lines as even as they can be, so the chip is no wider than it must be.
    fn new(first: Option<String>, goods: &Goods, fill: Rgb, note: String) -> Chip {
        let words: Vec<String> = first
            .into_iter()
            .chain(goods.iter().map(|(g, n)| g.counted_short(n)))
            .collect();
        let fewest = wrap(&words, CHIP_TEXT).len();
        // The narrowest width that still needs no more lines: one of the widths of a
        // run of words.
        let mut widths: Vec<f32> = (0..words.len())
            .flat_map(|i| (i + 1..=words.len()).map(move |j| (i, j)))
            .map(|(i, j)| chip_text_width(&words[i..j].join(" ")))
            .filter(|w| *w <= CHIP_TEXT)
            .collect();
        widths.sort_by(f32::total_cmp);
        let lines = widths
            .into_iter()
            .map(|w| wrap(&words, w))
            .find(|l| l.len() <= fewest)
            .unwrap_or_else(|| wrap(&words, CHIP_TEXT));
        Chip { lines, fill, note }
    }

    fn width(&self) -> f32 {
        self.lines
            .iter()
            .map(|l| chip_text_width(l))
            .fold(0.0, f32::max)
            + 6.0
    }

    fn height(&self) -> f32 {
        CHIP_H + CHIP_LINE * (self.lines.len().max(1) - 1) as f32
    }
}

/// `words` on lines at most `width` wide (a word wider has a line to itself).
fn wrap(words: &[String], width: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for w in words {
        match lines.last_mut() {
            Some(l) if chip_text_width(&format!("{l} {w}")) <= width => {
                l.push(' ');
                l.push_str(w);
            }
            _ => lines.push(w.clone()),
        }
    }
    lines
}

/// How wide a chip's (bold) text is.
fn chip_text_width(text: &str) -> f32 {
    text_width(text, CHIP_SIZE) * 1.1
}

fn transporter_note(id: TransporterId, t: &Transporter) -> String {
    let mut note = format!("{id}: {}'s {}", t.owner, kind_name(t.kind));
    if !t.cargo.is_empty() {
        note.push_str(&format!(", carrying {}", t.cargo));
    }
    if t.following_geese > 0 {
        note.push_str(&format!(
            ", {} following",
            Good::Geese.counted(t.following_geese)
        ));
    }
    if let Location::Carried(by) = t.at {
        note.push_str(&format!(", aboard {by}"));
    }
    note
}

/// A transporter's kind as the map names it: the caravan by its whole name.
fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Caravan => "exhibition caravan",
        k => k.name(),
    }
}

/// A box on the picture: its left, top, right and bottom.
pub type Bounds = (f32, f32, f32, f32);

fn overlaps(a: Bounds, b: Bounds) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// How far to move `row` sideways, by the least way, so that it covers nothing in
/// `keep_clear`: no farther than [`MAX_SHIFT`], else not at all.
fn shift_clear(row: Bounds, keep_clear: &[Bounds]) -> f32 {
    let hits: Vec<&Bounds> = keep_clear.iter().filter(|k| overlaps(row, **k)).collect();
    if hits.is_empty() {
        return 0.0;
    }
    let left = hits.iter().map(|k| k.0).fold(f32::INFINITY, f32::min) - 1.0 - row.2;
    let right = hits.iter().map(|k| k.2).fold(f32::NEG_INFINITY, f32::max) + 1.0 - row.0;
    let mut ways = [left, right];
    ways.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    ways.into_iter()
        .find(|dx| {
            dx.abs() <= MAX_SHIFT
                && !keep_clear
                    .iter()
                    .any(|k| overlaps((row.0 + dx, row.1, row.2 + dx, row.3), *k))
        })
        .unwrap_or(0.0)
}

/// The lower edge of the tile whose area (or centre) is drawn at `p`.
fn tile_bottom(p: (f32, f32)) -> f32 {
    let s3 = 3f32.sqrt();
    let col = ((p.0 - MARGIN - R) / (1.5 * R)).round();
    let shift = if (col as i32).rem_euclid(2) == 1 {
        0.5
    } else {
        0.0
    };
    let row = ((p.1 - MARGIN - TITLE - R * s3 / 2.0) / (R * s3) - shift).round();
    MARGIN + TITLE + R * s3 * (row + shift + 1.0)
}

/// `list` in rows at most `width` wide, in order.
fn rows_of(list: &[Chip], width: f32) -> Vec<Vec<&Chip>> {
    let mut rows: Vec<Vec<&Chip>> = vec![Vec::new()];
    let mut used = 0.0;
    for c in list {
        let w = c.width();
        let row_w = used + w + if used > 0.0 { 2.0 } else { 0.0 };
        if used > 0.0 && row_w > width {
            rows.push(Vec::new());
            used = w;
        } else {
            used = row_w;
        }
        if let Some(r) = rows.last_mut() {
            r.push(c);
        }
    }
    rows
}

/// How high `rows` of chips stand, each as high as its highest chip, 2 apart.
fn rows_height(rows: &[Vec<&Chip>]) -> f32 {
    rows.iter()
        .map(|r| r.iter().map(|c| c.height()).fold(0.0, f32::max) + 2.0)
        .sum()
}

/// `list` as drawn in an area with `room` for rows of chips above its tile's lower edge:
/// at most [`CHIPS_SHOWN`] chips, and no more rows than fit, the last chips counted in
/// one more ("+3"), whose note names them all, so that no chip covers the next tile's
/// buildings (a home with five donkeys and the goods lying there needs four rows,
/// where a tile holds about three). At least one chip is shown beside the count.
fn fitted(list: Vec<Chip>, room: f32) -> Vec<Chip> {
    let mut shown = list.len().min(CHIPS_SHOWN);
    loop {
        let drawn = folded(&list, shown);
        if shown <= 2 || rows_height(&rows_of(&drawn, CHIP_ROW)) <= room {
            return drawn;
        }
        shown -= 1;
    }
}

/// `list` drawn as `shown` chips: all of it if it has no more, else its first
/// `shown - 1` and one counting the rest, whose note names them all ("2 more here: D3:
/// red's donkey; …").
fn folded(list: &[Chip], shown: usize) -> Vec<Chip> {
    if list.len() <= shown {
        return list.to_vec();
    }
    let (kept, rest) = list.split_at(shown.saturating_sub(1));
    let mut drawn = kept.to_vec();
    drawn.push(Chip {
        lines: vec![format!("+{}", rest.len())],
        fill: Rgb::WHITE,
        note: format!(
            "{} more here: {}",
            rest.len(),
            rest.iter()
                .map(|c| c.note.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ),
    });
    drawn
}

/// Chips in rows centred under `top`, at most [`CHIP_ROW`] wide, each row as high as its
/// highest chip; a row that would cover a bridge (`keep_clear`) moves aside.
fn chips(out: &mut Vec<Shape>, top: (f32, f32), list: &[Chip], keep_clear: &[Bounds]) {
    let rows = rows_of(list, CHIP_ROW);
    let mut y = top.1;
    for row in &rows {
        let total: f32 =
            row.iter().map(|c| c.width()).sum::<f32>() + 2.0 * (row.len() as f32 - 1.0);
        let h = row.iter().map(|c| c.height()).fold(0.0, f32::max);
        let left = top.0 - total / 2.0;
        let mut x = left + shift_clear((left, y, left + total, y + h), keep_clear);
        for c in row {
            out.push(chip(c, (x, y)));
            x += c.width() + 2.0;
        }
        y += h + 2.0;
    }
}

/// A chip drawn from its top left corner.
fn chip(c: &Chip, at: (f32, f32)) -> Shape {
    let w = c.width();
    let mut shapes = vec![Shape::Rect {
        at,
        size: (w, c.height()),
        round: 3.0,
        fill: Some(c.fill),
        stroke: ink(),
    }];
    for (i, l) in c.lines.iter().enumerate() {
        shapes.push(Shape::Text(
            Text::centred(
                (at.0 + w / 2.0, at.1 + CHIP_H / 2.0 + CHIP_LINE * i as f32),
                l.clone(),
                CHIP_SIZE,
                c.fill.ink_on(),
            )
            .bold(),
        ));
    }
    Shape::Note {
        note: c.note.clone(),
        shapes,
    }
}

/// A building's name as players write it, on one line or, when long, two (split after
/// its hyphen): never cut short.
fn building_lines(b: &Building) -> Vec<String> {
    let name = b.kind.name();
    if text_width(name, BUILDING_SIZE) <= 56.0 {
        return vec![name.to_string()];
    }
    match name.split_once('-') {
        Some((a, rest)) => vec![format!("{a}-"), rest.to_string()],
        None => vec![name.to_string()],
    }
}

/// A building's box, its top at `top` (centred), framed when it is `new`; returns its
/// bottom.
fn building(out: &mut Vec<Shape>, top: (f32, f32), b: &Building, new: bool) -> f32 {
    let lines = building_lines(b);
    let w = lines
        .iter()
        .map(|l| text_width(l, BUILDING_SIZE))
        .fold(0.0, f32::max)
        + 6.0;
    let h = 10.0 * lines.len() as f32 + 3.0;
    let mut shapes = vec![Shape::Rect {
        at: (top.0 - w / 2.0, top.1),
        size: (w, h),
        round: 2.0,
        fill: Some(Rgb::WHITE),
        stroke: Some(Stroke::new(Rgb::INK, if b.bomb_proof { 2.5 } else { 1.0 })),
    }];
    for (i, l) in lines.iter().enumerate() {
        shapes.push(Shape::Text(Text::centred(
            (top.0, top.1 + 6.5 + 10.0 * i as f32),
            l.clone(),
            BUILDING_SIZE,
            Rgb::INK,
        )));
    }
    let mut note = format!("{} at {}", b.kind, b.at);
    if let Some(m) = &b.mine {
        note.push_str(&format!(": {} gold, {} iron left", m.gold, m.iron));
    }
    if b.bomb_proof {
        note.push_str(" (bomb-proof)");
    }
    if new {
        shapes.push(mark::glow_frame((top.0 - w / 2.0, top.1), (w, h)));
        note.push_str(", built this turn");
    }
    out.push(Shape::Note { note, shapes });
    top.1 + h
}

/// A plank's two ends.
type Ends = ((f32, f32), (f32, f32));

/// A bridge: a grey plank with dark sides. Over a river it lies across its arm, out
/// toward the edge where the tile has the least on it (on a north arm, below the
/// tile's label); over a city's moat it crosses the moat to the neighbour.
fn bridge(state: &State, b: &Bridge) -> Ends {
    let c = hex_centre(b.hex);
    let m = edge_mid(c, b.over);
    let toward = |f: f32| (c.0 + (m.0 - c.0) * f, c.1 + (m.1 - c.1) * f);
    if modules::moat(state, b.hex) {
        (toward(0.84), toward(1.04))
    } else {
        let p = toward(if b.over == Dir::N { 0.45 } else { 0.72 });
        let a = (b.over.bearing() as f32 + 90.0).to_radians();
        let (dx, dy) = (0.2 * R * a.cos(), -0.2 * R * a.sin());
        ((p.0 - dx, p.1 - dy), (p.0 + dx, p.1 + dy))
    }
}

/// A bridge's plank drawn between two points.
fn plank(from: (f32, f32), to: (f32, f32)) -> Vec<Shape> {
    vec![
        Shape::line(from, to, Stroke::new(Rgb::INK, PLANK)),
        Shape::line(from, to, Stroke::new(BRIDGE, PLANK - 3.0)),
    ]
}

/// The box a plank covers.
fn plank_bounds((a, b): Ends) -> Bounds {
    let h = PLANK / 2.0;
    (
        a.0.min(b.0) - h,
        a.1.min(b.1) - h,
        a.0.max(b.0) + h,
        a.1.max(b.1) + h,
    )
}

/// A house: a player's home.
fn house(at: (f32, f32), colour: Rgb) -> Shape {
    let (x, y) = at;
    Shape::Polygon {
        points: vec![
            (x - 6.0, y + 5.0),
            (x - 6.0, y - 1.0),
            (x, y - 6.0),
            (x + 6.0, y - 1.0),
            (x + 6.0, y + 5.0),
        ],
        fill: Some(colour),
        stroke: ink(),
    }
}

fn disc_with(at: (f32, f32), text: &str, fill: Rgb) -> Vec<Shape> {
    vec![
        Shape::Circle {
            centre: at,
            radius: 6.5,
            fill: Some(fill),
            stroke: ink(),
        },
        Shape::Text(Text::centred(at, text, 9.0, fill.ink_on()).bold()),
    ]
}

/// What the board shows, for the legend.
#[derive(Default)]
struct Seen {
    terrains: Vec<(Rgb, &'static str)>,
    river: bool,
    road: bool,
    bridge: bool,
    walls: Vec<Colour>,
    neutral_wall: bool,
    tokens: bool,
    track: bool,
    power: bool,
    moat: bool,
    home: bool,
    building: bool,
    bomb_proof: bool,
    /// The kinds of goods lying, and carried.
    lying: BTreeSet<Good>,
    carried: BTreeSet<Good>,
    kinds: Vec<Kind>,
    manager: bool,
    art: bool,
    /// Chips counted in one where an area is crowded ("+2").
    counted: bool,
    /// What the turn did.
    ways: BTreeSet<Way>,
    new_road: bool,
    new_bridge: bool,
    new_wall: bool,
    new_power: bool,
    new_building: bool,
    handed: bool,
}

/// The drawing of the board as it stands.
pub fn draw(state: &State, title: &str) -> Picture {
    draw_turn(state, title, &Changes::default())
}

/// The drawing of the board after a turn, with what the turn did (`changes`) marked.
pub fn draw_turn(state: &State, title: &str, changes: &Changes) -> Picture {
    let map = &state.map;
    let (width, map_h) = frame(state, title);
    let mut out = Vec::new();
    let mut seen = Seen::default();
    out.push(Shape::Text(
        Text::left((MARGIN, MARGIN + 6.0), title, 16.0, Rgb::INK).bold(),
    ));
    // Tiles.
    for (&h, t) in &map.tiles {
        let terrain = state.terrain_now(h).unwrap_or(t.terrain);
        let c = hex_centre(h);
        let (fill, name) = if let Some(look) = modules::look(state, h) {
            (look.fill, look.name)
        } else if terrain == Terrain::Polder {
            (terrain_colour(terrain), "polder (dry)")
        } else {
            (terrain_colour(terrain), terrain.name())
        };
        if !seen.terrains.iter().any(|(_, n)| *n == name) {
            seen.terrains.push((fill, name));
        }
        out.push(Shape::Polygon {
            points: (0..6).map(|k| corner(c, k)).collect(),
            fill: Some(fill),
            stroke: Some(Stroke::new(OUTLINE, 1.0)),
        });
        // City (&cetera): the moat around it, water like a river.
        if modules::moat(state, h) {
            seen.moat = true;
            out.push(Shape::Polygon {
                points: (0..6).map(|k| corner_at(c, k, R - 4.0)).collect(),
                fill: None,
                stroke: Some(Stroke::new(RIVER, 3.0)),
            });
        }
    }
    // Rivers.
    for (&h, t) in &map.tiles {
        let c = hex_centre(h);
        for d in t.river.iter() {
            seen.river = true;
            out.push(Shape::line(c, edge_mid(c, d), Stroke::new(RIVER, 5.0)));
        }
        if t.is_source() {
            out.push(Shape::Circle {
                centre: c,
                radius: 5.0,
                fill: Some(RIVER),
                stroke: None,
            });
        }
    }
    // Rail tracks (Planes & Trains): from tile to tile, ties across the rails.
    for border in &map.tracks {
        seen.track = true;
        let (a, b) = border.tiles();
        let (pa, pb) = (hex_centre(a), hex_centre(b));
        out.push(Shape::line(
            pa,
            pb,
            Stroke::new(TRACK, 8.0).dashed(2.0, 4.0),
        ));
        out.push(Shape::line(pa, pb, Stroke::new(TRACK, 2.5)));
    }
    // Roads.
    for r in &map.roads {
        let (a, b) = (area_point(r.from), area_point(r.to));
        let Some(d) = r.from.hex.direction_to(r.to.hex) else {
            continue;
        };
        seen.road = true;
        let mid = edge_mid(hex_centre(r.from.hex), d);
        // Keep to the bank: a road along a river runs beside the crossing point.
        let m = (
            (mid.0 * 3.0 + (a.0 + b.0) / 2.0) / 4.0,
            (mid.1 * 3.0 + (a.1 + b.1) / 2.0) / 4.0,
        );
        let line = Shape::Line {
            points: vec![a, m, b],
            stroke: Stroke::new(ROAD, 3.5),
        };
        if changes.roads.contains(&Road::new(r.from, r.to)) {
            seen.new_road = true;
            out.push(Shape::Note {
                note: format!("road {r}, built this turn"),
                shapes: vec![mark::glow_line(vec![a, m, b], 3.5), line],
            });
        } else {
            out.push(line);
        }
    }
    // Power lines (electricity): dashed, like the rulebook draws them.
    for l in &map.power_lines {
        seen.power = true;
        let (a, b) = (area_point(l.from), area_point(l.to));
        let line = Shape::line(a, b, Stroke::new(POWER, 3.0).dashed(4.0, 4.0));
        if changes.power_lines.contains(&Road::new(l.from, l.to)) {
            seen.new_power = true;
            out.push(Shape::Note {
                note: format!("power line {l}, built this turn"),
                shapes: vec![mark::glow_line(vec![a, b], 3.0), line],
            });
        } else {
            out.push(line);
        }
    }
    seen.bridge = !map.bridges.is_empty();
    // Walls: the owner's colour, grey when neutral; thicker and numbered when higher.
    for (border, w) in &map.walls {
        let c = hex_centre(border.hex);
        let (p, q) = edge_ends(c, border.dir);
        let colour = match w.owner {
            Some(o) => {
                if !seen.walls.contains(&o) {
                    seen.walls.push(o);
                }
                player_colour(o)
            }
            None => {
                seen.neutral_wall = true;
                NEUTRAL
            }
        };
        let width = 4.0 + 1.5 * f32::from(w.tokens.min(3));
        let new = changes.walls.contains(border);
        seen.new_wall |= new;
        let mut shapes: Vec<Shape> = new
            .then(|| mark::glow_line(vec![p, q], width))
            .into_iter()
            .collect();
        shapes.push(Shape::line(p, q, Stroke::new(colour, width)));
        if w.tokens > 1 {
            seen.tokens = true;
            let m = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
            shapes.extend(disc_with(m, &w.tokens.to_string(), colour));
        }
        let (a, b) = border.tiles();
        let whose = w.owner.map_or("neutral".to_string(), |o| o.to_string());
        out.push(Shape::Note {
            note: format!(
                "wall {a}-{b}: {whose}, {}{}",
                judge_core::text::count(usize::from(w.tokens), "token"),
                if new { ", built this turn" } else { "" }
            ),
            shapes,
        });
    }
    // The ways transporters went this turn, over the board and under its chips (their
    // arrowheads are drawn over the chips, below).
    let routes = routes(&changes.trips);
    for (note, r, way) in &routes {
        seen.ways.insert(*way);
        out.push(Shape::Note {
            note: note.clone(),
            shapes: r.line(),
        });
    }
    // Labels, homes, managers, exhibitions.
    let homes: BTreeMap<Hex, Colour> = state
        .players
        .iter()
        .filter_map(|(c, p)| p.home.map(|h| (h.hex, *c)))
        .collect();
    for &h in map.tiles.keys() {
        let c = hex_centre(h);
        let top = label_centre(h);
        out.push(Shape::Text(
            Text::centred(top, h.to_string(), LABEL_SIZE, Rgb::INK)
                .bold()
                .halo(Rgb::WHITE),
        ));
        if let Some(colour) = homes.get(&h) {
            seen.home = true;
            let at = (c.0 - 20.0, top.1);
            let home = state.players.get(colour).and_then(|p| p.home);
            out.push(Shape::Note {
                note: format!(
                    "{colour}'s home{}",
                    home.map_or(String::new(), |a| format!(", {a}"))
                ),
                shapes: vec![house(at, player_colour(*colour))],
            });
            // Art: the exhibitions shown at this home.
            let shows = state.shows.iter().filter(|s| s.at == *colour).count();
            if shows > 0 {
                seen.art = true;
                out.push(Shape::Note {
                    note: format!(
                        "{} shown at {colour}'s home",
                        judge_core::text::count(shows, "exhibition")
                    ),
                    shapes: disc_with((c.0 - 20.0, top.1 + 14.0), &shows.to_string(), ART),
                });
            }
        }
        // Management: an M where a manager is.
        if super::ascii_map::manager_on(state, h) {
            seen.manager = true;
            out.push(Shape::Note {
                note: format!("a manager at {h}"),
                shapes: disc_with((c.0 + 20.0, top.1), "M", Rgb::WHITE),
            });
        }
    }
    // Buildings, then goods and transporters under them, area by area.
    let mut below: BTreeMap<AreaId, f32> = BTreeMap::new();
    for b in &state.buildings {
        seen.building = true;
        seen.bomb_proof |= b.bomb_proof;
        let p = area_point(b.at);
        let start = if b.at.side.is_none() {
            p.1 - 0.4 * R
        } else {
            p.1 - 0.25 * R
        };
        let top = below.get(&b.at).map_or(start, |y| y + 2.0);
        let new = changes.buildings.contains(&(b.at, b.kind));
        seen.new_building |= new;
        let bottom = building(&mut out, (p.0, top), b, new);
        below.insert(b.at, bottom);
    }
    let bridges: Vec<(&Bridge, Ends)> = map.bridges.iter().map(|b| (b, bridge(state, b))).collect();
    let keep_clear: Vec<Bounds> = bridges.iter().map(|(_, e)| plank_bounds(*e)).collect();
    let mut places: BTreeMap<Spot, ((f32, f32), Vec<Chip>)> = BTreeMap::new();
    let mut place = |p: (f32, f32), chip: Chip| {
        places
            .entry(((p.0 * 10.0) as i32, (p.1 * 10.0) as i32))
            .or_insert_with(|| (p, Vec::new()))
            .1
            .push(chip);
    };
    // Chips drawn where a building stands go under it: goods and transporters in its
    // area, and boats on the river or sea of its tile, which are drawn at its centre.
    let tops: BTreeMap<Spot, f32> = below
        .iter()
        .map(|(a, y)| {
            let p = area_point(*a);
            (((p.0 * 10.0) as i32, (p.1 * 10.0) as i32), *y + 3.0)
        })
        .collect();
    for (a, g) in &state.goods {
        if g.is_empty() {
            continue;
        }
        seen.lying.extend(g.iter().map(|(g, _)| g));
        place(
            area_point(*a),
            Chip::new(None, g, GOODS, format!("lying at {a}: {g}")),
        );
    }
    for (id, t) in &state.transporters {
        let Some(p) = place_of(state, t) else {
            continue;
        };
        if !seen.kinds.contains(&t.kind) {
            seen.kinds.push(t.kind);
        }
        seen.carried.extend(t.cargo.iter().map(|(g, _)| g));
        place(
            p,
            Chip::new(
                Some(id.to_string()),
                &t.cargo,
                player_colour(t.owner),
                transporter_note(*id, t),
            ),
        );
    }
    for (key, (p, list)) in places {
        let top = tops.get(&key).copied().unwrap_or(p.1 - 4.0);
        let all = list.len();
        let list = fitted(list, tile_bottom(p) - top);
        seen.counted |= list.len() < all;
        chips(&mut out, (p.0, top), &list, &keep_clear);
    }
    // The routes' arrowheads, over the chips they point at; where goods changed hands.
    for (note, r, _) in &routes {
        out.push(Shape::Note {
            note: note.clone(),
            shapes: r.head(),
        });
    }
    let mut handed: BTreeMap<Spot, ((f32, f32), Vec<&str>)> = BTreeMap::new();
    for h in &changes.handed {
        let Some(p) = location_point(h.at) else {
            continue;
        };
        handed
            .entry(((p.0 * 10.0) as i32, (p.1 * 10.0) as i32))
            .or_insert_with(|| (p, Vec::new()))
            .1
            .push(&h.what);
    }
    for (p, what) in handed.values() {
        seen.handed = true;
        out.push(Shape::Note {
            note: what.join("; "),
            shapes: mark::handed((p.0 - 0.55 * R, p.1 - 0.2 * R)),
        });
    }
    // Bridges last, above the chips and buildings of their tile, so none hides one.
    for (b, ends) in &bridges {
        let new = changes.bridges.contains(b);
        seen.new_bridge |= new;
        let mut shapes: Vec<Shape> = new
            .then(|| mark::glow_line(vec![ends.0, ends.1], PLANK))
            .into_iter()
            .collect();
        shapes.extend(plank(ends.0, ends.1));
        out.push(Shape::Note {
            note: format!(
                "a bridge at {} over its {} side{}",
                b.hex,
                b.over.name(),
                if new { ", built this turn" } else { "" }
            ),
            shapes,
        });
    }
    // The legend, under the map.
    let legend = legend(state, &seen);
    let (shapes, legend_h) = legend.layout(MARGIN, map_h + 10.0, width - 2.0 * MARGIN);
    out.extend(shapes);
    Picture {
        width,
        height: (map_h + 10.0 + legend_h + MARGIN / 2.0).ceil(),
        title: title.to_string(),
        shapes: out,
    }
}

/// How far short of where a transporter stopped its arrowhead's tip stays, so that
/// it points at the transporter's chip rather than covering it.
const ARROW_SHORT: f32 = 0.28 * R;
/// How far to the right of its way a route is drawn (so that a way there and back shows
/// both ways), and how far apart two routes over the same stretch are.
const KEEP_RIGHT: f32 = 3.0;
const LANE: f32 = 5.0;

/// Each trip as a route, with its tooltip and how it went: two routes over the same
/// stretch are drawn beside each other, each in its own lane.
fn routes(trips: &[Trip]) -> Vec<(String, Route, Way)> {
    type Stretch = (Spot, Spot);
    let spot = |p: (f32, f32)| ((p.0 * 10.0) as i32, (p.1 * 10.0) as i32);
    let mut taken: Vec<(BTreeSet<Stretch>, i32)> = Vec::new();
    let mut out = Vec::new();
    for t in trips {
        let points: Vec<(f32, f32)> = t.path.iter().filter_map(|l| location_point(*l)).collect();
        let r = Route::new(points, player_colour(t.owner));
        if !r.goes() {
            continue;
        }
        let stretches: BTreeSet<Stretch> = r
            .points()
            .windows(2)
            .map(|w| {
                let (a, b) = (spot(w[0]), spot(w[1]));
                (a.min(b), a.max(b))
            })
            .collect();
        let used: BTreeSet<i32> = taken
            .iter()
            .filter(|(s, _)| !s.is_disjoint(&stretches))
            .map(|(_, lane)| *lane)
            .collect();
        let lane = (0..).find(|l| !used.contains(l)).unwrap_or(0);
        taken.push((stretches, lane));
        let r = r
            .beside(KEEP_RIGHT + LANE * lane as f32)
            .short_of_end(ARROW_SHORT);
        let r = match t.way {
            Way::Moved => r,
            Way::Flew => r.dashed(9.0, 6.0),
            Way::Train => r.dashed(1.0, 6.0),
        };
        let verb = match t.way {
            Way::Moved => "moved",
            Way::Flew => "flew",
            Way::Train => "took the train",
        };
        let path: Vec<String> = t.path.iter().map(ToString::to_string).collect();
        let note = format!(
            "{}'s {} {verb}: {}",
            t.owner,
            t.transporter,
            path.join(" > ")
        );
        out.push((note, r, t.way));
    }
    out
}

/// A legend's key: a chip of one line.
fn chip_key(text: &str, fill: Rgb) -> Key {
    let c = Chip {
        lines: vec![text.to_string()],
        fill,
        note: String::new(),
    };
    let Shape::Note { shapes, .. } = chip(&c, (8.0 - c.width() / 2.0, 2.0)) else {
        return Key::Shapes(Vec::new());
    };
    Key::Shapes(shapes)
}

fn legend(state: &State, seen: &Seen) -> Legend {
    let mut l = Legend::new();
    for (colour, name) in &seen.terrains {
        l.add(Key::Swatch(*colour), *name);
    }
    l.row();
    for c in &state.move_order {
        let name = state
            .players
            .get(c)
            .map_or(c.to_string(), |p| format!("{c} {}", p.name));
        l.add(Key::Dot(player_colour(*c)), name);
    }
    l.row();
    if seen.river {
        l.add(Key::Line(Stroke::new(RIVER, 5.0)), "river");
    }
    if seen.moat {
        l.add(Key::Line(Stroke::new(RIVER, 3.0)), "city moat");
    }
    if seen.track {
        l.add(
            Key::Shapes(vec![
                Shape::line(
                    (1.0, 8.0),
                    (15.0, 8.0),
                    Stroke::new(TRACK, 8.0).dashed(2.0, 4.0),
                ),
                Shape::line((1.0, 8.0), (15.0, 8.0), Stroke::new(TRACK, 2.5)),
            ]),
            "rail track",
        );
    }
    if seen.road {
        l.add(Key::Line(Stroke::new(ROAD, 3.5)), "road");
    }
    if seen.bridge {
        l.add(Key::Shapes(plank((3.0, 8.0), (13.0, 8.0))), "bridge");
    }
    if seen.power {
        l.add(
            Key::Line(Stroke::new(POWER, 3.0).dashed(4.0, 4.0)),
            "power line",
        );
    }
    if let Some(first) = seen.walls.first() {
        l.add(
            Key::Line(Stroke::new(player_colour(*first), 5.5)),
            "wall (its owner's colour)",
        );
    }
    if seen.neutral_wall {
        l.add(Key::Line(Stroke::new(NEUTRAL, 5.5)), "neutral wall");
    }
    if seen.tokens {
        l.add(
            Key::Shapes(disc_with((8.0, 8.0), "2", NEUTRAL)),
            "tokens on a wall",
        );
    }
    l.row();
    if seen.home {
        l.add(Key::Shapes(vec![house((8.0, 9.0), NEUTRAL)]), "home");
    }
    if seen.building {
        l.add(
            Key::Shapes(vec![Shape::Rect {
                at: (1.0, 3.0),
                size: (14.0, 10.0),
                round: 2.0,
                fill: Some(Rgb::WHITE),
                stroke: ink(),
            }]),
            "building",
        );
    }
    if seen.bomb_proof {
        l.add(
            Key::Shapes(vec![Shape::Rect {
                at: (1.0, 3.0),
                size: (14.0, 10.0),
                round: 2.0,
                fill: Some(Rgb::WHITE),
                stroke: Some(Stroke::new(Rgb::INK, 2.5)),
            }]),
            "bomb-proof",
        );
    }
    if let Some(g) = seen.lying.first() {
        l.add(
            chip_key(&g.counted_short(2), GOODS),
            format!("goods lying: {}", g.counted(2)),
        );
    }
    if !seen.kinds.is_empty() {
        let mut kinds = seen.kinds.clone();
        kinds.sort();
        let names: Vec<String> = kinds
            .iter()
            .map(|k| format!("{} {}", k.letter(), kind_name(*k)))
            .collect();
        l.add(
            chip_key("D1", NEUTRAL),
            format!("transporter, owner's colour: {}", names.join(", ")),
        );
        if let Some(g) = seen.carried.first() {
            l.add(
                chip_key(&format!("D1 {}", g.counted_short(2)), NEUTRAL),
                format!("carrying {}", g.counted(2)),
            );
        }
    }
    if seen.counted {
        l.add(
            chip_key("+2", Rgb::WHITE),
            "2 more here, too many to draw (the report lists them)",
        );
    }
    if seen.manager {
        l.add(
            Key::Shapes(disc_with((8.0, 8.0), "M", Rgb::WHITE)),
            "manager",
        );
    }
    if seen.art {
        l.add(
            Key::Shapes(disc_with((8.0, 8.0), "1", ART)),
            "exhibitions shown at the home",
        );
    }
    // What the turn did.
    l.row();
    for (way, dash, words) in [
        (Way::Moved, None, "moved this turn (owner's colour)"),
        (Way::Flew, Some((9.0, 6.0)), "flew this turn"),
        (Way::Train, Some((1.0, 6.0)), "took the train this turn"),
    ] {
        if seen.ways.contains(&way) {
            l.add(Route::key(NEUTRAL, dash), words);
        }
    }
    let key_line = |stroke: Stroke| vec![Shape::line((2.0, 8.0), (14.0, 8.0), stroke)];
    if seen.new_road {
        l.add(
            mark::keys::new_line(key_line(Stroke::new(ROAD, 3.5)), 3.5),
            "new road",
        );
    }
    if seen.new_bridge {
        l.add(
            mark::keys::new_line(plank((3.0, 8.0), (13.0, 8.0)), PLANK),
            "new bridge",
        );
    }
    if seen.new_wall {
        l.add(
            mark::keys::new_line(key_line(Stroke::new(NEUTRAL, 5.5)), 5.5),
            "new wall",
        );
    }
    if seen.new_power {
        l.add(
            mark::keys::new_line(key_line(Stroke::new(POWER, 3.0).dashed(4.0, 4.0)), 3.0),
            "new power line",
        );
    }
    if seen.new_building {
        l.add(
            mark::keys::new_box(
                vec![Shape::Rect {
                    at: (1.0, 3.0),
                    size: (14.0, 10.0),
                    round: 2.0,
                    fill: Some(Rgb::WHITE),
                    stroke: ink(),
                }],
                (1.0, 3.0),
                (14.0, 10.0),
            ),
            "new building",
        );
    }
    if seen.handed {
        l.add(mark::keys::handed(), "goods changed hands");
    }
    // The goods' short forms, each one the map writes and no other, by their letters.
    l.row();
    let mut shown: Vec<Good> = seen.lying.union(&seen.carried).copied().collect();
    shown.sort_by_key(|g| g.short());
    for g in shown {
        l.add(
            Key::Shapes(vec![Shape::Text(
                Text::left((0.0, BOX / 2.0), g.short(), CHIP_SIZE + 1.0, Rgb::INK).bold(),
            )]),
            g.name(),
        );
    }
    l
}

/// The picture as SVG.
pub fn svg(state: &State, title: &str) -> String {
    draw(state, title).to_svg()
}

/// The picture as PNG bytes.
pub fn png(state: &State, title: &str) -> Result<Vec<u8>, judge_core::picture::PictureError> {
    draw(state, title).png()
}

/// The picture after a turn, what it did marked ([`draw_turn`]), as SVG.
pub fn turn_svg(state: &State, title: &str, changes: &Changes) -> String {
    draw_turn(state, title, changes).to_svg()
}

/// The picture after a turn, what it did marked, as PNG bytes.
pub fn turn_png(
    state: &State,
    title: &str,
    changes: &Changes,
) -> Result<Vec<u8>, judge_core::picture::PictureError> {
    draw_turn(state, title, changes).png()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lower edge found from a point is that of the tile drawn there: for every tile
    /// of a 12 × 10 board, its centre and the points of its side areas give the edge
    /// half a tile's height below its centre.
    #[test]
    fn a_points_tile_bottom_is_its_tiles_lower_edge() {
        let half = R * 3f32.sqrt() / 2.0;
        for col in 0..12u8 {
            for row in 0..10u8 {
                let h = Hex { col, row };
                let c = hex_centre(h);
                let side_points = crate::map::Compass::ALL.into_iter().map(|side| {
                    area_point(AreaId {
                        hex: h,
                        side: Some(side),
                    })
                });
                for p in std::iter::once(c).chain(side_points) {
                    assert!(
                        (tile_bottom(p) - (c.1 + half)).abs() < 0.01,
                        "{h}: {p:?} -> {}",
                        tile_bottom(p)
                    );
                }
            }
        }
    }
}
