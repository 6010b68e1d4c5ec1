//! A [`Picture`] painted straight onto pixels, shape by shape as [`Picture::to_svg`]
//! writes them: the same drawing as the SVG, without parsing it back and shaping its
//! text on every picture. Each shape's fill and stroke (SVG's caps, joins and dashes)
//! is made a coverage over its bounds by zeno, then laid on in its colour. Letters are
//! the bundled font's outlines (skrifa), each made a coverage once per size and place
//! within a pixel (to a quarter) and laid on wherever it is written; bold is the
//! outline thickened, a halo its outline stroked under it.
//!
//! A browser draws the SVG with kerning and its own bold, so the two differ by a
//! hair in the letters, never in what is drawn.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use zeno::{Cap, Command, Fill, Join, PathBuilder as _, Style};

use super::Picture;
use super::error::PictureError;
use super::shape::{Anchor, FONT, Rgb, Shape, Stroke, Text};

/// How much bold thickens a letter's outline, in em.
const BOLD: f32 = 0.06;
/// How far a mitred corner may reach, in half stroke widths (SVG's default).
const MITER_LIMIT: f32 = 4.0;
/// A halo's width in pixels (as the SVG's `stroke-width`).
const HALO: f32 = 3.0;

/// Opaque pixels, four bytes each (red, green, blue, alpha 255), row after row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pixmap {
    width: u32,
    height: u32,
    data: Vec<u8>,
}

impl Pixmap {
    /// `width` by `height` pixels of one colour; `None` when it has no pixel (or more
    /// than memory could hold).
    pub fn filled(width: u32, height: u32, c: Rgb) -> Option<Pixmap> {
        let len = usize::try_from(width)
            .ok()?
            .checked_mul(usize::try_from(height).ok()?)?
            .checked_mul(4)?;
        if len == 0 {
            return None;
        }
        let data = [c.0, c.1, c.2, 255].repeat(len / 4);
        Some(Pixmap {
            width,
            height,
            data,
        })
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn data(&self) -> &[u8] {
        &self.data
    }

    fn data_mut(&mut self) -> &mut [u8] {
        &mut self.data
    }
}

/// The picture's pixels, on a white ground.
pub fn pixels(p: &Picture) -> Option<Pixmap> {
    let (w, h) = p.pixels();
    let pm = Pixmap::filled(w, h, Rgb(255, 255, 255))?;
    let mut canvas = Canvas {
        pm,
        scratch: zeno::Scratch::new(),
        mask: Vec::new(),
        path: Vec::new(),
    };
    canvas.shapes(&p.shapes);
    Some(canvas.pm)
}

/// The pixels being painted, and what painting a shape needs again and again.
struct Canvas {
    pm: Pixmap,
    scratch: zeno::Scratch,
    /// A shape's coverage, one byte a pixel over its bounds.
    mask: Vec<u8>,
    /// The outline of the shape being painted.
    path: Vec<Command>,
}

impl Canvas {
    fn shapes(&mut self, list: &[Shape]) {
        for s in list {
            self.shape(s);
        }
    }

    fn shape(&mut self, s: &Shape) {
        self.path.clear();
        match s {
            Shape::Polygon {
                points,
                fill,
                stroke,
            } => {
                outline(&mut self.path, points, true);
                self.fill_and_stroke(*fill, *stroke);
            }
            Shape::Rect {
                at,
                size,
                round,
                fill,
                stroke,
            } => {
                if *round > 0.0 {
                    self.path
                        .add_round_rect(*at, size.0, size.1, *round, *round);
                } else {
                    self.path.add_rect(*at, size.0, size.1);
                }
                self.fill_and_stroke(*fill, *stroke);
            }
            Shape::Circle {
                centre,
                radius,
                fill,
                stroke,
            } => {
                self.path.add_circle(*centre, *radius);
                self.fill_and_stroke(*fill, *stroke);
            }
            Shape::Line { points, stroke } => {
                outline(&mut self.path, points, false);
                self.stroke(stroke, true);
            }
            Shape::Text(t) => text(&mut self.pm, t),
            Shape::Note { shapes, .. } => self.shapes(shapes),
        }
    }

    /// Fill the outline, then stroke it (butt ends, mitred corners as SVG has them).
    fn fill_and_stroke(&mut self, fill: Option<Rgb>, stroke: Option<Stroke>) {
        if let Some(c) = fill {
            self.cover(Style::Fill(Fill::NonZero), 0.0, c);
        }
        if let Some(s) = stroke {
            self.stroke(&s, false);
        }
    }

    /// Stroke the outline; `round` for round ends and joins.
    fn stroke(&mut self, s: &Stroke, round: bool) {
        let dashes = s.dash.map(|(on, off)| [on, off]);
        let mut z = zeno::Stroke::new(s.width);
        // How far the stroke reaches beyond the outline's points: half its width, or
        // as far as a mitred corner may go (four times that, SVG's miter limit).
        let reach = if round {
            z.cap(Cap::Round).join(Join::Round);
            s.width / 2.0
        } else {
            z.cap(Cap::Butt).join(Join::Miter).miter_limit(MITER_LIMIT);
            s.width / 2.0 * MITER_LIMIT
        };
        if let Some(d) = &dashes {
            z.dash(d, 0.0);
        }
        self.cover(Style::Stroke(z), reach, s.colour);
    }

    /// Lay colour `c` over what `style` covers of the outline, which reaches at most
    /// `reach` pixels beyond the outline's points.
    fn cover(&mut self, style: Style, reach: f32, c: Rgb) {
        if let Some(at) = mask_of(&self.path, style, reach, &mut self.scratch, &mut self.mask) {
            lay(&mut self.pm, &self.mask, at.width, at.left, at.top, c);
        }
    }
}

/// Where a mask lies on the picture: its first pixel, and its width in pixels.
#[derive(Clone, Copy)]
struct Place {
    left: i32,
    top: i32,
    width: usize,
}

/// What `style` covers of `path`, one byte a pixel, into `mask`, over the path's
/// points' bounds grown by `reach` (how far the style reaches beyond them: curves
/// stay within their control points) and a pixel for the edges' shading.
fn mask_of(
    path: &[Command],
    style: Style,
    reach: f32,
    scratch: &mut zeno::Scratch,
    mask: &mut Vec<u8>,
) -> Option<Place> {
    let (min, max) = bounds(path)?;
    let reach = reach + 1.0;
    let (left, top) = ((min.0 - reach).floor(), (min.1 - reach).floor());
    let (right, bottom) = ((max.0 + reach).ceil(), (max.1 + reach).ceil());
    if !(left.is_finite() && top.is_finite() && right > left && bottom > top) {
        return None;
    }
    let (width, height) = ((right - left) as u32, (bottom - top) as u32);
    mask.clear();
    mask.resize(width as usize * height as usize, 0);
    zeno::Mask::with_scratch(path, scratch)
        .style(style)
        .size(width, height)
        .offset((-left, -top))
        .render_into(mask, None);
    Some(Place {
        left: left as i32,
        top: top as i32,
        width: width as usize,
    })
}

/// The smallest box around an outline's points (its curves' control points too).
fn bounds(path: &[Command]) -> Option<((f32, f32), (f32, f32))> {
    path.iter()
        .flat_map(|c| match *c {
            Command::MoveTo(p) | Command::LineTo(p) => [Some(p), None, None],
            Command::QuadTo(a, p) => [Some(a), Some(p), None],
            Command::CurveTo(a, b, p) => [Some(a), Some(b), Some(p)],
            Command::Close => [None, None, None],
        })
        .flatten()
        .fold(None, |b, p| {
            let ((x0, y0), (x1, y1)) = b.unwrap_or(((p.x, p.y), (p.x, p.y)));
            Some(((x0.min(p.x), y0.min(p.y)), (x1.max(p.x), y1.max(p.y))))
        })
}

fn outline(path: &mut Vec<Command>, points: &[(f32, f32)], close: bool) {
    let Some((first, rest)) = points.split_first() else {
        return;
    };
    path.move_to(*first);
    for p in rest {
        path.line_to(*p);
    }
    if close {
        path.close();
    }
}

/// What a letter is drawn with: its outline at 1 px to the em (y down), and its
/// advance.
struct Letter {
    outline: Vec<Command>,
    advance: f32,
}

fn letters() -> &'static Mutex<HashMap<char, Arc<Letter>>> {
    static L: OnceLock<Mutex<HashMap<char, Arc<Letter>>>> = OnceLock::new();
    L.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Collects an outline, flipping y (fonts go up, pixels down).
struct Pen(Vec<Command>);

impl skrifa::outline::OutlinePen for Pen {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.move_to((x, -y));
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.line_to((x, -y));
    }
    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.0.quad_to((cx0, -cy0), (x, -y));
    }
    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.0.curve_to((cx0, -cy0), (cx1, -cy1), (x, -y));
    }
    fn close(&mut self) {
        self.0.close();
    }
}

fn make_letter(c: char) -> Letter {
    use skrifa::MetadataProvider as _;
    let none = Letter {
        outline: Vec::new(),
        advance: 0.6,
    };
    let Ok(f) = skrifa::FontRef::new(FONT) else {
        return none;
    };
    let size = skrifa::instance::Size::new(1.0);
    let location = skrifa::instance::LocationRef::default();
    let Some(gid) = f.charmap().map(c).or_else(|| f.charmap().map('?')) else {
        return none;
    };
    let advance = f
        .glyph_metrics(size, location)
        .advance_width(gid)
        .unwrap_or(0.6);
    let mut pen = Pen(Vec::new());
    let drawn = f.outline_glyphs().get(gid).is_some_and(|g| {
        g.draw(
            skrifa::outline::DrawSettings::unhinted(size, location),
            &mut pen,
        )
        .is_ok()
    });
    Letter {
        outline: if drawn { pen.0 } else { Vec::new() },
        advance,
    }
}

fn letter(c: char) -> Arc<Letter> {
    let mut map = letters().lock().unwrap_or_else(|e| e.into_inner());
    map.entry(c)
        .or_insert_with(|| Arc::new(make_letter(c)))
        .clone()
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
    let place =
        zeno::Transform::scale(size, size).then_translate(f32::from(fx) / 4.0, f32::from(fy) / 4.0);
    let outline: Vec<Command> = l.outline.iter().map(|c| c.transform(&place)).collect();
    // The body filled, and a rim: the outline stroked, round, this many pixels wide.
    let (body, rim) = match ink {
        Ink::Body => (true, None),
        Ink::Bold => (true, Some(BOLD * size)),
        Ink::Halo => (false, Some(HALO)),
        Ink::BoldHalo => (false, Some(HALO + BOLD * size)),
    };
    let reach = rim.map_or(0.0, |w| w / 2.0);
    let mut scratch = zeno::Scratch::new();
    let mut alpha = Vec::new();
    let rim_style = |w: f32| Style::Stroke(*zeno::Stroke::new(w).cap(Cap::Round).join(Join::Round));
    let at = match (body, rim) {
        (true, None) => mask_of(
            &outline,
            Style::Fill(Fill::NonZero),
            reach,
            &mut scratch,
            &mut alpha,
        )?,
        (false, Some(w)) => mask_of(&outline, rim_style(w), reach, &mut scratch, &mut alpha)?,
        (_, Some(w)) => {
            let at = mask_of(
                &outline,
                Style::Fill(Fill::NonZero),
                reach,
                &mut scratch,
                &mut alpha,
            )?;
            let mut edge = Vec::new();
            mask_of(&outline, rim_style(w), reach, &mut scratch, &mut edge)?;
            for (a, e) in alpha.iter_mut().zip(edge) {
                *a = (*a).max(e);
            }
            at
        }
        (false, None) => return None,
    };
    Some(Coverage {
        left: at.left,
        top: at.top,
        width: at.width,
        alpha,
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

/// Lay colour `c` onto the (opaque) picture where `alpha` covers it: `alpha` is
/// `width` bytes a row, its first pixel at (`left`, `top`).
fn lay(pm: &mut Pixmap, alpha: &[u8], width: usize, left: i32, top: i32, c: Rgb) {
    if width == 0 {
        return;
    }
    let (w, h) = (pm.width() as i32, pm.height() as i32);
    let rows = (alpha.len() / width) as i32;
    let (x0, x1) = (left.max(0), (left + width as i32).min(w));
    let (y0, y1) = (top.max(0), (top + rows).min(h));
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    let span = (x1 - x0) as usize;
    let data = pm.data_mut();
    let solid = [c.0, c.1, c.2, 255];
    let rgb = [u32::from(c.0), u32::from(c.1), u32::from(c.2)];
    for y in y0..y1 {
        let from = (y - top) as usize * width + (x0 - left) as usize;
        let cover = &alpha[from..from + span];
        let at = (y * w + x0) as usize * 4;
        let pixels = &mut data[at..at + span * 4];
        // Eight pixels at a time where none or all are covered (most of a stroke's
        // bounds, most of a fill's).
        for (cover, pixels) in cover.chunks(8).zip(pixels.chunks_mut(32)) {
            if let Ok(eight) = <[u8; 8]>::try_from(cover) {
                match u64::from_ne_bytes(eight) {
                    0 => continue,
                    u64::MAX => {
                        for px in pixels.chunks_exact_mut(4) {
                            px.copy_from_slice(&solid);
                        }
                        continue;
                    }
                    _ => {
                        blend8(pixels, eight, solid);
                        continue;
                    }
                }
            }
            for (&a, px) in cover.iter().zip(pixels.chunks_exact_mut(4)) {
                match a {
                    0 => {}
                    255 => px.copy_from_slice(&solid),
                    a => {
                        let a = u32::from(a);
                        for (d, c) in px.iter_mut().zip(rgb) {
                            // d·(1 − a) + c·a, rounded: (v + 127) / 255 for v ≤ 255².
                            let v = u32::from(*d) * (255 - a) + c * a + 128;
                            *d = ((v + (v >> 8)) >> 8) as u8;
                        }
                    }
                }
            }
        }
    }
}

/// Eight pixels (32 bytes) laid over by `solid` as `cover` has it, pixel by pixel
/// as in [`lay`], without a branch: the alpha byte stays 255, and every product fits
/// in 16 bits, so the compiler does all 32 bytes at once.
fn blend8(pixels: &mut [u8], cover: [u8; 8], solid: [u8; 4]) {
    let Ok(pixels) = <&mut [u8; 32]>::try_from(pixels) else {
        return;
    };
    let mut alpha = [0u16; 32];
    let mut colour = [0u16; 32];
    for i in 0..32 {
        alpha[i] = u16::from(cover[i / 4]);
        colour[i] = u16::from(solid[i % 4]);
    }
    for ((d, a), c) in pixels.iter_mut().zip(alpha).zip(colour) {
        let v = u16::from(*d) * (255 - a) + c * a + 128;
        *d = ((v + (v >> 8)) >> 8) as u8;
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
                lay(pm, &m.alpha, m.width, px + m.left, y + m.top, h);
            }
        }
    }
    let ink = if t.bold { Ink::Bold } else { Ink::Body };
    for &(c, px, fx) in &placed {
        if let Some(m) = coverage(c, t.size, ink, fx, fy) {
            lay(pm, &m.alpha, m.width, px + m.left, y + m.top, t.fill);
        }
    }
}

impl Picture {
    /// The picture as PNG: the same shapes as its SVG, painted (see `paint`).
    pub fn png(&self) -> Result<Vec<u8>, PictureError> {
        encode(&pixels(self).ok_or(PictureError::NoSize)?)
    }
}

/// PNG bytes of an opaque pixmap: its RGBA as it is (every pixel opaque, so the
/// premultiplied values are the colours), each row filtered against the one above
/// and compressed fast (fdeflate): the same bytes for the same pixels.
fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, PictureError> {
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

    /// Eight pixels laid at once are the same bytes as eight laid one by one: a
    /// coverage of 0–255 over a ground of 0–255, each channel `d·(255−a) + c·a`
    /// divided by 255 and rounded.
    #[test]
    fn eight_pixels_at_once_are_laid_as_one_by_one() {
        let colour = Rgb(200, 17, 96);
        for ground in [0u8, 1, 77, 128, 254, 255] {
            for first in (0..=255u8).step_by(7) {
                let cover: [u8; 8] = std::array::from_fn(|i| first.wrapping_add(31 * i as u8));
                let mut at_once =
                    Pixmap::filled(8, 1, Rgb(ground, ground, ground)).expect("pixmap");
                let mut one_by_one = at_once.clone();
                blend8(
                    at_once.data_mut(),
                    cover,
                    [colour.0, colour.1, colour.2, 255],
                );
                for (x, a) in cover.iter().enumerate() {
                    lay(&mut one_by_one, &[*a], 1, x as i32, 0, colour);
                }
                assert_eq!(
                    at_once.data(),
                    one_by_one.data(),
                    "ground {ground}, {cover:?}"
                );
                for (x, a) in cover.iter().enumerate() {
                    let want = (u32::from(ground) * (255 - u32::from(*a))
                        + u32::from(colour.0) * u32::from(*a)
                        + 127)
                        / 255;
                    assert_eq!(u32::from(at_once.data()[4 * x]), want);
                    assert_eq!(at_once.data()[4 * x + 3], 255, "still opaque");
                }
            }
        }
    }

    /// A shape is laid where it is, cut at the picture's edges, and only there.
    #[test]
    fn a_shape_is_cut_at_the_edges_of_the_picture() {
        let p = Picture {
            width: 10.0,
            height: 10.0,
            title: String::new(),
            shapes: vec![Shape::Rect {
                at: (-5.0, 5.0),
                size: (10.0, 20.0),
                round: 0.0,
                fill: Some(Rgb::INK),
                stroke: None,
            }],
        };
        let pm = pixels(&p).expect("pixels");
        let ink = |x: usize, y: usize| pm.data()[4 * (y * 10 + x)] == Rgb::INK.0;
        assert!(ink(0, 5) && ink(4, 9), "inside");
        assert!(!ink(5, 5) && !ink(0, 4) && !ink(9, 9), "outside");
    }
}
