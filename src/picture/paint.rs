//! A [`Picture`] painted straight onto pixels with tiny-skia (the rasteriser under
//! resvg), shape by shape as [`Picture::to_svg`] writes them: the same drawing as the
//! SVG, without parsing it back and shaping its text on every picture. Letters are the
//! bundled font's outlines (skrifa), each drawn once per size and place within a pixel
//! (to a quarter) as a coverage, then laid on in its colour wherever it is written;
//! bold is the outline thickened, a halo its outline stroked under it.
//!
//! A browser draws the SVG with kerning and its own bold, so the two differ by a
//! hair in the letters, never in what is drawn.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use resvg::tiny_skia::{
    FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, Stroke as SkStroke, StrokeDash,
    Transform,
};

use super::{Anchor, FONT, Picture, Rgb, Shape, Stroke, Text};

/// How much bold thickens a letter's outline, in em.
const BOLD: f32 = 0.06;
/// A halo's width in pixels (as the SVG's `stroke-width`).
const HALO: f32 = 3.0;

/// The picture's pixels, on a white ground.
pub fn pixels(p: &Picture) -> Option<Pixmap> {
    let (w, h) = p.pixels();
    let mut pm = Pixmap::new(w, h)?;
    pm.fill(resvg::tiny_skia::Color::WHITE);
    shapes(&mut pm, &p.shapes);
    Some(pm)
}

/// Shapes in order. A run of polygons painted alike (a board's tiles of one terrain)
/// is filled as one path and then outlined as one, and a run of lines stroked alike
/// (a river's stretches) is stroked as one: the same picture, as long as a run's
/// polygons only meet at their edges, for a fraction of the work.
fn shapes(pm: &mut Pixmap, list: &[Shape]) {
    let mut i = 0;
    while i < list.len() {
        let run = list[i..]
            .iter()
            .take_while(|s| alike(&list[i], s))
            .count()
            .max(1);
        if run > 1 {
            batch(pm, &list[i..i + run]);
        } else {
            shape(pm, &list[i]);
        }
        i += run;
    }
}

/// Whether `b` may be painted in one run with `a`.
fn alike(a: &Shape, b: &Shape) -> bool {
    match (a, b) {
        (
            Shape::Polygon {
                fill: fa,
                stroke: sa,
                ..
            },
            Shape::Polygon {
                fill: fb,
                stroke: sb,
                ..
            },
        ) => fa == fb && sa == sb,
        (Shape::Line { stroke: sa, .. }, Shape::Line { stroke: sb, .. }) => sa == sb,
        _ => false,
    }
}

fn batch(pm: &mut Pixmap, run: &[Shape]) {
    let mut pb = PathBuilder::new();
    let (mut fill, mut stroke, mut line) = (None, None, false);
    for s in run {
        match s {
            Shape::Polygon {
                points,
                fill: f,
                stroke: st,
            } => {
                if let Some(p) = polygon(points, true) {
                    pb.push_path(&p);
                }
                (fill, stroke) = (*f, *st);
            }
            Shape::Line { points, stroke: st } => {
                if let Some(p) = polygon(points, false) {
                    pb.push_path(&p);
                }
                (stroke, line) = (Some(*st), true);
            }
            _ => shape(pm, s),
        }
    }
    let Some(path) = pb.finish() else {
        return;
    };
    if line {
        if let Some(st) = stroke {
            pm.stroke_path(
                &path,
                &paint(st.colour),
                &sk_stroke(&st, true),
                Transform::identity(),
                None,
            );
        }
    } else {
        fill_and_stroke(pm, Some(path), fill, stroke);
    }
}

fn paint(c: Rgb) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0, c.1, c.2, 255);
    p.anti_alias = true;
    p
}

/// SVG's stroke: butt ends and mitred corners (limit 4), unless a line says round.
fn sk_stroke(s: &Stroke, round: bool) -> SkStroke {
    SkStroke {
        width: s.width,
        line_cap: if round { LineCap::Round } else { LineCap::Butt },
        line_join: if round {
            LineJoin::Round
        } else {
            LineJoin::Miter
        },
        miter_limit: 4.0,
        dash: s
            .dash
            .and_then(|(on, off)| StrokeDash::new(vec![on, off], 0.0)),
    }
}

fn polygon(points: &[(f32, f32)], close: bool) -> Option<Path> {
    let mut pb = PathBuilder::new();
    let (first, rest) = points.split_first()?;
    pb.move_to(first.0, first.1);
    for p in rest {
        pb.line_to(p.0, p.1);
    }
    if close {
        pb.close();
    }
    pb.finish()
}

/// A rectangle with corners rounded by `r` (quarter circles as cubic curves).
fn rect(at: (f32, f32), size: (f32, f32), r: f32) -> Option<Path> {
    let (x, y, w, h) = (at.0, at.1, size.0, size.1);
    let r = r.min(w / 2.0).min(h / 2.0);
    if r <= 0.0 {
        return polygon(&[(x, y), (x + w, y), (x + w, y + h), (x, y + h)], true);
    }
    let k = r * 0.552_284_8;
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.cubic_to(x + w - r + k, y, x + w, y + r - k, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.cubic_to(x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.cubic_to(x + r - k, y + h, x, y + h - r + k, x, y + h - r);
    pb.line_to(x, y + r);
    pb.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    pb.close();
    pb.finish()
}

fn fill_and_stroke(pm: &mut Pixmap, path: Option<Path>, fill: Option<Rgb>, stroke: Option<Stroke>) {
    let Some(path) = path else {
        return;
    };
    if let Some(c) = fill {
        pm.fill_path(
            &path,
            &paint(c),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
    if let Some(s) = stroke {
        pm.stroke_path(
            &path,
            &paint(s.colour),
            &sk_stroke(&s, false),
            Transform::identity(),
            None,
        );
    }
}

fn shape(pm: &mut Pixmap, s: &Shape) {
    match s {
        Shape::Polygon {
            points,
            fill,
            stroke,
        } => fill_and_stroke(pm, polygon(points, true), *fill, *stroke),
        Shape::Rect {
            at,
            size,
            round,
            fill,
            stroke,
        } => fill_and_stroke(pm, rect(*at, *size, *round), *fill, *stroke),
        Shape::Circle {
            centre,
            radius,
            fill,
            stroke,
        } => fill_and_stroke(
            pm,
            PathBuilder::from_circle(centre.0, centre.1, *radius),
            *fill,
            *stroke,
        ),
        Shape::Line { points, stroke } => {
            if let Some(path) = polygon(points, false) {
                pm.stroke_path(
                    &path,
                    &paint(stroke.colour),
                    &sk_stroke(stroke, true),
                    Transform::identity(),
                    None,
                );
            }
        }
        Shape::Text(t) => text(pm, t),
        Shape::Note { shapes: list, .. } => shapes(pm, list),
    }
}

/// What a letter is drawn with: its outline at 1 px to the em (y down), and its
/// advance.
struct Letter {
    outline: Option<Path>,
    advance: f32,
}

fn letters() -> &'static Mutex<HashMap<char, Arc<Letter>>> {
    static L: OnceLock<Mutex<HashMap<char, Arc<Letter>>>> = OnceLock::new();
    L.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Collects an outline into a tiny-skia path, flipping y (fonts go up, pixels down).
struct Pen(PathBuilder);

impl skrifa::outline::OutlinePen for Pen {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.move_to(x, -y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.line_to(x, -y);
    }
    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.0.quad_to(cx0, -cy0, x, -y);
    }
    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.0.cubic_to(cx0, -cy0, cx1, -cy1, x, -y);
    }
    fn close(&mut self) {
        self.0.close();
    }
}

fn make_letter(c: char) -> Letter {
    use skrifa::MetadataProvider as _;
    let Ok(f) = skrifa::FontRef::new(FONT) else {
        return Letter {
            outline: None,
            advance: 0.6,
        };
    };
    let size = skrifa::instance::Size::new(1.0);
    let location = skrifa::instance::LocationRef::default();
    let Some(gid) = f.charmap().map(c).or_else(|| f.charmap().map('?')) else {
        return Letter {
            outline: None,
            advance: 0.6,
        };
    };
    let advance = f
        .glyph_metrics(size, location)
        .advance_width(gid)
        .unwrap_or(0.6);
    let outline = f.outline_glyphs().get(gid).and_then(|g| {
        let mut pen = Pen(PathBuilder::new());
        g.draw(
            skrifa::outline::DrawSettings::unhinted(size, location),
            &mut pen,
        )
        .ok()?;
        pen.0.finish()
    });
    Letter { outline, advance }
}

fn letter(c: char) -> Arc<Letter> {
    let mut map = letters().lock().unwrap_or_else(|e| e.into_inner());
    map.entry(c)
        .or_insert_with(|| Arc::new(make_letter(c)))
        .clone()
}

/// The letter's outline stroked `width` pixels wide at `size`, as a path to fill (at
/// 1 px to the em, like the outline).
fn rim(l: &Letter, size: f32, width: f32) -> Option<Path> {
    let stroke = SkStroke {
        width: width / size,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        ..SkStroke::default()
    };
    l.outline.as_ref().and_then(|o| o.stroke(&stroke, size))
}

/// How a letter is drawn: its body (thickened when bold), or the halo around it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Ink {
    Body,
    Bold,
    Halo,
    BoldHalo,
}

/// A letter's coverage, drawn once for its size and its place within a pixel (in
/// quarters), then laid onto the picture wherever it is written.
struct Coverage {
    left: i32,
    top: i32,
    width: usize,
    alpha: Vec<u8>,
}

type CoverageKey = (char, u32, Ink, u8, u8);

fn coverages() -> &'static Mutex<HashMap<CoverageKey, Option<Arc<Coverage>>>> {
    static C: OnceLock<Mutex<HashMap<CoverageKey, Option<Arc<Coverage>>>>> = OnceLock::new();
    C.get_or_init(|| Mutex::new(HashMap::new()))
}

fn make_coverage(c: char, size: f32, ink: Ink, fx: u8, fy: u8) -> Option<Coverage> {
    let l = letter(c);
    let body = l.outline.clone()?;
    let paths: Vec<Path> = match ink {
        Ink::Body => vec![body],
        Ink::Bold => vec![body, rim(&l, size, BOLD * size)?],
        Ink::Halo => vec![rim(&l, size, HALO)?],
        Ink::BoldHalo => vec![rim(&l, size, HALO + BOLD * size)?],
    };
    let (dx, dy) = (f32::from(fx) / 4.0, f32::from(fy) / 4.0);
    let place = Transform::from_row(size, 0.0, 0.0, size, dx, dy);
    let b = paths
        .iter()
        .filter_map(|p| p.clone().transform(place))
        .map(|p| p.bounds())
        .reduce(|a, b| {
            resvg::tiny_skia::Rect::from_ltrb(
                a.left().min(b.left()),
                a.top().min(b.top()),
                a.right().max(b.right()),
                a.bottom().max(b.bottom()),
            )
            .unwrap_or(a)
        })?;
    let (left, top) = (b.left().floor() as i32 - 1, b.top().floor() as i32 - 1);
    let width = (b.right().ceil() as i32 - left + 1).max(1) as u32;
    let height = (b.bottom().ceil() as i32 - top + 1).max(1) as u32;
    let mut mask = resvg::tiny_skia::Mask::new(width, height)?;
    let at = place.post_translate(-left as f32, -top as f32);
    for p in &paths {
        mask.fill_path(p, FillRule::Winding, true, at);
    }
    Some(Coverage {
        left,
        top,
        width: width as usize,
        alpha: mask.data().to_vec(),
    })
}

fn coverage(c: char, size: f32, ink: Ink, fx: u8, fy: u8) -> Option<Arc<Coverage>> {
    let key = (c, (size * 100.0) as u32, ink, fx, fy);
    if let Some(m) = coverages()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&key)
    {
        return m.clone();
    }
    let made = make_coverage(c, size, ink, fx, fy).map(Arc::new);
    coverages()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, made.clone());
    made
}

/// Lay a coverage in colour `c` onto the (opaque) picture, its origin at pixel (x, y).
fn lay(pm: &mut Pixmap, m: &Coverage, x: i32, y: i32, c: Rgb) {
    let (w, h) = (pm.width() as i32, pm.height() as i32);
    let data = pm.data_mut();
    let rgb = [u32::from(c.0), u32::from(c.1), u32::from(c.2)];
    for (row, line) in m.alpha.chunks_exact(m.width).enumerate() {
        let py = y + m.top + row as i32;
        if py < 0 || py >= h {
            continue;
        }
        for (col, &a) in line.iter().enumerate() {
            let px = x + m.left + col as i32;
            if a == 0 || px < 0 || px >= w {
                continue;
            }
            let i = ((py * w + px) * 4) as usize;
            let a = u32::from(a);
            for k in 0..3 {
                let d = u32::from(data[i + k]);
                data[i + k] = ((d * (255 - a) + rgb[k] * a + 127) / 255) as u8;
            }
        }
    }
}

fn text(pm: &mut Pixmap, t: &Text) {
    let letters: Vec<(char, Arc<Letter>)> = t.text.chars().map(|c| (c, letter(c))).collect();
    let width: f32 = letters.iter().map(|(_, l)| l.advance).sum::<f32>() * t.size;
    let mut x = match t.anchor {
        Anchor::Start => t.at.0,
        Anchor::Middle => t.at.0 - width / 2.0,
        Anchor::End => t.at.0 - width,
    };
    // Each letter on a quarter of a pixel.
    let quarters = |v: f32| {
        let q = (v * 4.0).round() as i32;
        (q.div_euclid(4), q.rem_euclid(4) as u8)
    };
    let (y, fy) = quarters(t.at.1);
    let mut placed = Vec::with_capacity(letters.len());
    for (c, l) in &letters {
        let (px, fx) = quarters(x);
        placed.push((*c, px, fx));
        x += l.advance * t.size;
    }
    // The halo first, under every letter; then the letters.
    if let Some(h) = t.halo {
        let ink = if t.bold { Ink::BoldHalo } else { Ink::Halo };
        for &(c, px, fx) in &placed {
            if let Some(m) = coverage(c, t.size, ink, fx, fy) {
                lay(pm, &m, px, y, h);
            }
        }
    }
    let ink = if t.bold { Ink::Bold } else { Ink::Body };
    for &(c, px, fx) in &placed {
        if let Some(m) = coverage(c, t.size, ink, fx, fy) {
            lay(pm, &m, px, y, t.fill);
        }
    }
}
