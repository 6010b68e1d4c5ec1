//! A picture of the board after a turn, as SVG and PNG: terrain colours, rivers, roads,
//! bridges, walls in their owners' colours, buildings, homes, transporters and goods
//! counts, with a legend. One drawing, two back ends: SVG text, and a PNG painted with
//! tiny-skia and a built-in 8×8 bitmap font, so the PNG needs no system fonts and is the
//! same bytes on every machine.

use std::fmt::Write as _;

use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

use super::super::State;
use super::super::map::{AreaId, Dir, Hex, Terrain};
use super::super::player::Colour;
use super::super::transporter::Location;
use super::ascii_map::building7;

const SIZE: f32 = 34.0; // hex radius
const MARGIN: f32 = 20.0;
const LEGEND: f32 = 150.0;

type Rgb = (u8, u8, u8);

fn terrain_colour(t: Terrain) -> Rgb {
    match t {
        Terrain::Pasture => (156, 204, 101),
        Terrain::Woods => (46, 125, 50),
        Terrain::Rock => (158, 158, 158),
        Terrain::Mountain => (141, 110, 99),
        Terrain::Desert => (253, 216, 53),
        Terrain::Sea => (100, 181, 246),
        Terrain::Polder => (128, 203, 196),
        Terrain::City => (176, 190, 197),
    }
}

pub fn player_colour(c: Colour) -> Rgb {
    match c {
        Colour::Red => (211, 47, 47),
        Colour::Yellow => (251, 192, 45),
        Colour::Green => (27, 94, 32),
        Colour::Blue => (25, 118, 210),
        Colour::Purple => (123, 31, 162),
        Colour::Orange => (245, 124, 0),
    }
}

const NEUTRAL: Rgb = (97, 97, 97);
const RIVER: Rgb = (13, 71, 161);
const ROAD: Rgb = (93, 64, 55);
const INK: Rgb = (33, 33, 33);
const WHITE: Rgb = (255, 255, 255);
/// A flooded polder (polder).
const FLOODED: Rgb = (79, 195, 247);
/// Power lines (electricity).
const POWER: Rgb = (245, 127, 23);

/// The drawing operations both back ends know.
trait Canvas {
    fn polygon(&mut self, pts: &[(f32, f32)], fill: Rgb, stroke: Option<(Rgb, f32)>);
    fn line(&mut self, a: (f32, f32), b: (f32, f32), colour: Rgb, width: f32);
    fn circle(&mut self, c: (f32, f32), r: f32, fill: Rgb, stroke: Option<(Rgb, f32)>);
    /// Text with its top-left corner at `at`, in 8-pixel characters times `scale`.
    fn text(&mut self, at: (f32, f32), s: &str, scale: u32, colour: Rgb);
}

fn hex_centre(h: Hex) -> (f32, f32) {
    let s3 = 3f32.sqrt();
    let x = MARGIN + SIZE + SIZE * 1.5 * f32::from(h.col);
    let y = MARGIN
        + 16.0
        + SIZE * s3 / 2.0
        + SIZE * s3 * (f32::from(h.row) + 0.5 * f32::from(h.col & 1));
    (x, y)
}

fn corner(c: (f32, f32), k: u32) -> (f32, f32) {
    let a = (60.0 * k as f32).to_radians();
    (c.0 + SIZE * a.cos(), c.1 - SIZE * a.sin())
}

/// The middle of the edge toward `d`.
fn edge_mid(c: (f32, f32), d: Dir) -> (f32, f32) {
    let a = (d.bearing() as f32).to_radians();
    let h = SIZE * 3f32.sqrt() / 2.0;
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
                c.0 + SIZE * 0.45 * bearing.cos(),
                c.1 - SIZE * 0.45 * bearing.sin(),
            )
        }
    }
}

fn size(state: &State, title: &str) -> (u32, u32) {
    let cols = state.map.columns();
    let rows = state.map.rows();
    let w = 2.0 * MARGIN + SIZE * (1.5 * f32::from(cols) + 0.5);
    let h = 2.0 * MARGIN + 16.0 + SIZE * 3f32.sqrt() * (f32::from(rows) + 0.5) + LEGEND;
    let title_w = 2.0 * MARGIN + 16.0 * title.chars().count() as f32;
    (w.max(560.0).max(title_w).ceil() as u32, h.ceil() as u32)
}

fn draw(state: &State, title: &str, cv: &mut dyn Canvas) {
    let map = &state.map;
    cv.text((MARGIN, 6.0), title, 2, INK);
    for (&h, t) in &map.tiles {
        let terrain = state.terrain_now(h).unwrap_or(t.terrain);
        let c = hex_centre(h);
        let pts: Vec<(f32, f32)> = (0..6).map(|k| corner(c, k)).collect();
        let fill = if crate::roads_boats::modules::polder::flooded(state, h) {
            FLOODED
        } else {
            terrain_colour(terrain)
        };
        cv.polygon(&pts, fill, Some(((60, 60, 60), 1.0)));
    }
    for (&h, t) in &map.tiles {
        let c = hex_centre(h);
        for d in t.river.iter() {
            cv.line(c, edge_mid(c, d), RIVER, 5.0);
        }
        if t.is_source() {
            cv.circle(c, 5.0, RIVER, None);
        }
    }
    for r in &map.roads {
        let (a, b) = (area_point(r.from), area_point(r.to));
        let Some(d) = r.from.hex.direction_to(r.to.hex) else {
            continue;
        };
        let mid = edge_mid(hex_centre(r.from.hex), d);
        // Keep to the bank: a road along a river runs beside the crossing point.
        let shift =
            |p: (f32, f32), q: (f32, f32)| ((p.0 * 3.0 + q.0) / 4.0, (p.1 * 3.0 + q.1) / 4.0);
        let m = shift(mid, ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0));
        cv.line(a, m, ROAD, 3.0);
        cv.line(m, b, ROAD, 3.0);
    }
    // Power lines (electricity): dotted, like the rulebook draws them.
    for l in &map.power_lines {
        let (a, b) = (area_point(l.from), area_point(l.to));
        for k in 0..8 {
            let t0 = k as f32 / 8.0;
            let t1 = t0 + 1.0 / 16.0;
            let at = |t: f32| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            cv.line(at(t0), at(t1), POWER, 3.0);
        }
    }
    for b in &map.bridges {
        let c = hex_centre(b.hex);
        let m = edge_mid(c, b.over);
        let p = ((c.0 * 2.0 + m.0) / 3.0, (c.1 * 2.0 + m.1) / 3.0);
        let a = (b.over.bearing() as f32 + 90.0).to_radians();
        let (dx, dy) = (9.0 * a.cos(), -9.0 * a.sin());
        cv.line(
            (p.0 - dx, p.1 - dy),
            (p.0 + dx, p.1 + dy),
            (120, 120, 120),
            5.0,
        );
    }
    for (border, w) in &map.walls {
        let c = hex_centre(border.hex);
        let (p, q) = edge_ends(c, border.dir);
        let colour = w.owner.map_or(NEUTRAL, player_colour);
        cv.line(p, q, colour, 3.0 + 2.0 * f32::from(w.tokens.min(3)));
    }
    for (c, player) in state.players.iter() {
        let Some(home) = player.home else { continue };
        let at = area_point(home);
        let pts = [
            (at.0 - 24.0, at.1 + 14.0),
            (at.0 - 16.0, at.1 + 5.0),
            (at.0 - 8.0, at.1 + 14.0),
        ];
        cv.polygon(&pts, player_colour(*c), Some((INK, 1.0)));
        // Art: the exhibitions shown at this home, a star with their number.
        let shows = state.shows.iter().filter(|s| s.at == *c).count();
        if shows > 0 {
            cv.circle(
                (at.0 - 16.0, at.1 + 24.0),
                7.0,
                (255, 214, 0),
                Some((INK, 1.0)),
            );
            cv.text((at.0 - 19.0, at.1 + 20.0), &shows.to_string(), 1, INK);
        }
    }
    let mut stacked: std::collections::BTreeMap<AreaId, f32> = Default::default();
    for b in &state.buildings {
        // A city's second building goes above its first (&cetera, city).
        let shift = stacked.entry(b.at).or_insert(0.0);
        let mut at = area_point(b.at);
        at.1 -= *shift;
        *shift += 13.0;
        let name = building7(b.kind);
        let w = 8.0 * name.len() as f32 + 4.0;
        let (x, y) = (at.0 - w / 2.0, at.1 - 22.0);
        cv.polygon(
            &[(x, y), (x + w, y), (x + w, y + 11.0), (x, y + 11.0)],
            WHITE,
            Some((INK, 1.0)),
        );
        cv.text((x + 2.0, y + 2.0), name, 1, INK);
    }
    // Management: an M where a manager is.
    for &h in map.tiles.keys() {
        if super::ascii_map::manager_on(state, h) {
            let c = hex_centre(h);
            cv.circle((c.0 + 18.0, c.1 + 14.0), 7.0, WHITE, Some((INK, 1.0)));
            cv.text((c.0 + 14.0, c.1 + 10.0), "M", 1, INK);
        }
    }
    // Goods lying: a count per area.
    for (a, g) in &state.goods {
        if g.is_empty() {
            continue;
        }
        let at = area_point(*a);
        let label = format!("{}g", g.total());
        cv.text(
            (at.0 - 8.0 - 8.0 * label.len() as f32, at.1 - 8.0),
            &label,
            1,
            INK,
        );
    }
    // Transporters: a dot per transporter in its owner's colour, with its id.
    let mut per_place: std::collections::BTreeMap<(i32, i32), u32> = Default::default();
    for (id, t) in &state.transporters {
        let at = match t.at {
            Location::Land(a) => area_point(a),
            Location::River(h) | Location::Sea(h) => hex_centre(h),
            Location::Dock(c) => {
                let d = c.land.hex.direction_to(c.sea).unwrap_or(Dir::N);
                let m = edge_mid(hex_centre(c.land.hex), d);
                let p = area_point(c.land);
                ((m.0 * 2.0 + p.0) / 3.0, (m.1 * 2.0 + p.1) / 3.0)
            }
            Location::Carried(_) => continue,
        };
        // A column of dots with ids, right of the area's point.
        let slot = per_place.entry((at.0 as i32, at.1 as i32)).or_insert(0);
        let (dx, dy) = (
            2.0 + 26.0 * (*slot / 4) as f32,
            -6.0 + 10.0 * (*slot % 4) as f32,
        );
        *slot += 1;
        let p = (at.0 + dx, at.1 + dy);
        cv.circle(p, 4.0, player_colour(t.owner), Some((INK, 1.0)));
        let label = id.to_string();
        cv.text((p.0 + 5.0, p.1 - 4.0), &label, 1, INK);
    }
    legend(state, title, cv);
}

fn legend(state: &State, title: &str, cv: &mut dyn Canvas) {
    let (_, h) = size(state, title);
    let mut y = h as f32 - LEGEND + 8.0;
    let x0 = MARGIN;
    let mut x = x0;
    // The boxed game's six terrains (&cetera's polder and city come with their module).
    // &cetera's polder and city with their modules; a flooded polder in its own colour.
    let extra: Vec<(Terrain, Rgb, &str)> = [
        (Terrain::Polder, terrain_colour(Terrain::Polder), "polder"),
        (Terrain::Polder, FLOODED, "flooded"),
        (Terrain::City, terrain_colour(Terrain::City), "city"),
    ]
    .into_iter()
    .filter(|(t, _, _)| {
        crate::roads_boats::modules::of_terrain(*t)
            .is_some_and(|m| state.settings.modules.contains(&m))
    })
    .collect();
    let (w, _) = size(state, title);
    let swatches = Terrain::ALL
        .into_iter()
        .take(6)
        .map(|t| (terrain_colour(t), t.name()))
        .chain(extra.into_iter().map(|(_, c, n)| (c, n)));
    for (colour, name) in swatches {
        let width = 18.0 + 8.0 * name.len() as f32 + 14.0;
        if x + width > w as f32 {
            // Wrap: the &cetera terrains go on a line of their own when they must.
            x = x0;
            y += 20.0;
        }
        cv.polygon(
            &[(x, y), (x + 14.0, y), (x + 14.0, y + 14.0), (x, y + 14.0)],
            colour,
            Some((INK, 1.0)),
        );
        cv.text((x + 18.0, y + 3.0), name, 1, INK);
        x += width;
    }
    y += 24.0;
    x = x0;
    for c in state.move_order.iter() {
        cv.circle((x + 7.0, y + 7.0), 6.0, player_colour(*c), Some((INK, 1.0)));
        let name = state
            .players
            .get(c)
            .map_or(c.to_string(), |p| format!("{c} {}", p.name));
        cv.text((x + 18.0, y + 3.0), &name, 1, INK);
        x += 18.0 + 8.0 * name.len() as f32 + 14.0;
    }
    y += 24.0;
    cv.line((x0, y + 7.0), (x0 + 20.0, y + 7.0), RIVER, 5.0);
    cv.text((x0 + 26.0, y + 3.0), "river", 1, INK);
    cv.line((x0 + 80.0, y + 7.0), (x0 + 100.0, y + 7.0), ROAD, 3.0);
    cv.text((x0 + 106.0, y + 3.0), "road", 1, INK);
    cv.line((x0 + 152.0, y + 7.0), (x0 + 172.0, y + 7.0), NEUTRAL, 6.0);
    cv.text((x0 + 178.0, y + 3.0), "wall (owner's colour)", 1, INK);
    if !state.map.power_lines.is_empty() {
        for k in 0..3 {
            let x = x0 + 360.0 + 8.0 * k as f32;
            cv.line((x, y + 7.0), (x + 4.0, y + 7.0), POWER, 3.0);
        }
        cv.text((x0 + 390.0, y + 3.0), "power line", 1, INK);
    }
    y += 24.0;
    cv.polygon(
        &[
            (x0 + 1.0, y + 14.0),
            (x0 + 10.0, y + 5.0),
            (x0 + 19.0, y + 14.0),
        ],
        NEUTRAL,
        Some((INK, 1.0)),
    );
    cv.text(
        (x0 + 26.0, y + 3.0),
        "home   o transporter (id)   Ng goods lying   [name] building",
        1,
        INK,
    );
}

struct Svg {
    out: String,
}

fn hex_rgb(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

impl Canvas for Svg {
    fn polygon(&mut self, pts: &[(f32, f32)], fill: Rgb, stroke: Option<(Rgb, f32)>) {
        let p: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let s = stroke.map_or(String::new(), |(c, w)| {
            format!(" stroke=\"{}\" stroke-width=\"{w:.1}\"", hex_rgb(c))
        });
        let _ = writeln!(
            self.out,
            "<polygon points=\"{}\" fill=\"{}\"{s}/>",
            p.join(" "),
            hex_rgb(fill)
        );
    }
    fn line(&mut self, a: (f32, f32), b: (f32, f32), colour: Rgb, width: f32) {
        let _ = writeln!(
            self.out,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{}\" stroke-width=\"{width:.1}\" stroke-linecap=\"round\"/>",
            a.0,
            a.1,
            b.0,
            b.1,
            hex_rgb(colour)
        );
    }
    fn circle(&mut self, c: (f32, f32), r: f32, fill: Rgb, stroke: Option<(Rgb, f32)>) {
        let s = stroke.map_or(String::new(), |(c, w)| {
            format!(" stroke=\"{}\" stroke-width=\"{w:.1}\"", hex_rgb(c))
        });
        let _ = writeln!(
            self.out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{r:.1}\" fill=\"{}\"{s}/>",
            c.0,
            c.1,
            hex_rgb(fill)
        );
    }
    fn text(&mut self, at: (f32, f32), s: &str, scale: u32, colour: Rgb) {
        let size = 8 * scale + scale;
        let escaped = s
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        let _ = writeln!(
            self.out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-family=\"monospace\" font-size=\"{size}\" fill=\"{}\">{escaped}</text>",
            at.0,
            at.1 + 8.0 * scale as f32,
            hex_rgb(colour)
        );
    }
}

struct Png {
    pixmap: Pixmap,
}

fn paint(c: Rgb) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0, c.1, c.2, 255);
    p.anti_alias = true;
    p
}

impl Png {
    fn fill_and_stroke(&mut self, path: &tiny_skia::Path, fill: Rgb, stroke: Option<(Rgb, f32)>) {
        self.pixmap.fill_path(
            path,
            &paint(fill),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
        if let Some((c, w)) = stroke {
            let st = Stroke {
                width: w,
                ..Stroke::default()
            };
            self.pixmap
                .stroke_path(path, &paint(c), &st, Transform::identity(), None);
        }
    }
}

impl Canvas for Png {
    fn polygon(&mut self, pts: &[(f32, f32)], fill: Rgb, stroke: Option<(Rgb, f32)>) {
        let mut pb = PathBuilder::new();
        for (i, (x, y)) in pts.iter().enumerate() {
            if i == 0 {
                pb.move_to(*x, *y)
            } else {
                pb.line_to(*x, *y)
            }
        }
        pb.close();
        if let Some(path) = pb.finish() {
            self.fill_and_stroke(&path, fill, stroke);
        }
    }
    fn line(&mut self, a: (f32, f32), b: (f32, f32), colour: Rgb, width: f32) {
        let mut pb = PathBuilder::new();
        pb.move_to(a.0, a.1);
        pb.line_to(b.0, b.1);
        if let Some(path) = pb.finish() {
            let st = Stroke {
                width,
                line_cap: tiny_skia::LineCap::Round,
                ..Stroke::default()
            };
            self.pixmap
                .stroke_path(&path, &paint(colour), &st, Transform::identity(), None);
        }
    }
    fn circle(&mut self, c: (f32, f32), r: f32, fill: Rgb, stroke: Option<(Rgb, f32)>) {
        if let Some(path) = PathBuilder::from_circle(c.0, c.1, r) {
            self.fill_and_stroke(&path, fill, stroke);
        }
    }
    fn text(&mut self, at: (f32, f32), s: &str, scale: u32, colour: Rgb) {
        use font8x8::UnicodeFonts;
        let mut x = at.0.round() as i32;
        let y = at.1.round() as i32;
        let mut p = paint(colour);
        p.anti_alias = false;
        for ch in s.chars() {
            let glyph = font8x8::BASIC_FONTS.get(ch).unwrap_or([0; 8]);
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..8 {
                    if bits & (1 << col) != 0
                        && let Some(r) = tiny_skia::Rect::from_xywh(
                            (x + col * scale as i32) as f32,
                            (y + row as i32 * scale as i32) as f32,
                            scale as f32,
                            scale as f32,
                        )
                    {
                        self.pixmap.fill_rect(r, &p, Transform::identity(), None);
                    }
                }
            }
            x += 8 * scale as i32;
        }
    }
}

/// The picture's width and height in pixels.
pub fn dimensions(state: &State, title: &str) -> (u32, u32) {
    size(state, title)
}

/// The picture as SVG.
pub fn svg(state: &State, title: &str) -> String {
    let (w, h) = size(state, title);
    let mut cv = Svg {
        out: format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n"
        ),
    };
    draw(state, title, &mut cv);
    cv.out.push_str("</svg>\n");
    cv.out
}

/// The picture as PNG bytes.
pub fn png(state: &State, title: &str) -> Result<Vec<u8>, String> {
    let (w, h) = size(state, title);
    let mut pixmap = Pixmap::new(w, h).ok_or("the map is too large to draw")?;
    pixmap.fill(tiny_skia::Color::WHITE);
    let mut cv = Png { pixmap };
    draw(state, title, &mut cv);
    cv.pixmap.encode_png().map_err(|e| e.to_string())
}
