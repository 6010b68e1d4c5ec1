//! A line chart as inline SVG: one line per series over the turns, a dot per turn (each
//! with its value as a tooltip), axes with a few round ticks. Plain SVG, no script.

use std::fmt::Write as _;

use crate::picture::escape;

const WIDTH: f32 = 640.0;
const HEIGHT: f32 = 240.0;
const LEFT: f32 = 44.0;
const RIGHT: f32 = 12.0;
const TOP: f32 = 12.0;
const BOTTOM: f32 = 28.0;

/// One line of a chart.
pub struct Series<'a> {
    /// Its name (a seat).
    pub name: &'a str,
    /// Its colour (`#d32f2f`).
    pub colour: &'a str,
    /// (turn, value), in turn order.
    pub points: Vec<(u32, i64)>,
}

/// A step between ticks that gives about `want` of them: 1, 2 or 5 times a power of ten.
fn step(span: i64, want: i64) -> i64 {
    let raw = (span.max(1) + want - 1) / want.max(1);
    let mut p = 1i64;
    loop {
        for m in [1, 2, 5] {
            if m * p >= raw {
                return m * p;
            }
        }
        p = p.saturating_mul(10);
    }
}

fn n(v: f32) -> String {
    let t = (v * 10.0).round() as i64;
    if t % 10 == 0 {
        format!("{}", t / 10)
    } else {
        format!(
            "{}{}.{}",
            if t < 0 { "-" } else { "" },
            t.abs() / 10,
            t.abs() % 10
        )
    }
}

/// The chart of `what` (`score`), turns `first..=last`, as an `<svg>` element.
pub fn svg(what: &str, first: u32, last: u32, series: &[Series<'_>]) -> String {
    let values = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let lo = values.clone().min().unwrap_or(0).min(0);
    let hi = values.max().unwrap_or(1).max(lo + 1);
    let ystep = step(hi - lo, 5);
    let (lo, hi) = (
        lo.div_euclid(ystep) * ystep,
        (hi + ystep - 1).div_euclid(ystep) * ystep,
    );
    let span_t = (last.saturating_sub(first)).max(1) as f32;
    let x = |t: u32| LEFT + (t.saturating_sub(first)) as f32 / span_t * (WIDTH - LEFT - RIGHT);
    let y = |v: i64| TOP + (hi - v) as f32 / (hi - lo) as f32 * (HEIGHT - TOP - BOTTOM);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\" aria-label=\"{} by turn\">",
        escape(what)
    );
    // Axes and ticks.
    let mut v = lo;
    while v <= hi {
        let _ = writeln!(
            o,
            "<line class=\"grid\" x1=\"{}\" y1=\"{yv}\" x2=\"{}\" y2=\"{yv}\"/><text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{v}</text>",
            n(LEFT),
            n(WIDTH - RIGHT),
            n(LEFT - 6.0),
            n(y(v) + 4.0),
            yv = n(y(v)),
        );
        v += ystep;
    }
    let tstep = step(i64::from(last.saturating_sub(first)), 10) as u32;
    let mut t = first;
    while t <= last {
        let _ = writeln!(
            o,
            "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{t}</text>",
            n(x(t)),
            n(HEIGHT - BOTTOM + 16.0)
        );
        t += tstep.max(1);
    }
    let _ = writeln!(
        o,
        "<line class=\"axis\" x1=\"{l}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\"/><line class=\"axis\" x1=\"{l}\" y1=\"{t}\" x2=\"{l}\" y2=\"{b}\"/>",
        l = n(LEFT),
        r = n(WIDTH - RIGHT),
        t = n(TOP),
        b = n(HEIGHT - BOTTOM)
    );
    // The lines, each drawn over a dark rim so that a white seat shows on white.
    for s in series {
        let pts: Vec<String> = s
            .points
            .iter()
            .map(|(t, v)| format!("{},{}", n(x(*t)), n(y(*v))))
            .collect();
        let _ = writeln!(
            o,
            "<g class=\"series\" data-series=\"{name}\"><polyline class=\"rim\" points=\"{p}\"/><polyline points=\"{p}\" stroke=\"{c}\"/>",
            name = escape(s.name),
            p = pts.join(" "),
            c = escape(s.colour),
        );
        for (t, v) in &s.points {
            let _ = writeln!(
                o,
                "<circle class=\"point\" data-turn=\"{t}\" cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"><title>turn {t}: {} {v}</title></circle>",
                n(x(*t)),
                n(y(*v)),
                escape(s.colour),
                escape(s.name)
            );
        }
        o.push_str("</g>\n");
    }
    o.push_str("</svg>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_every_turn_has_a_dot() {
        assert_eq!(step(7, 5), 2);
        assert_eq!(step(100, 5), 20);
        assert_eq!(step(0, 5), 1);
        let s = svg(
            "score",
            0,
            3,
            &[Series {
                name: "red",
                colour: "#d32f2f",
                points: vec![(0, 0), (1, 5), (2, 12), (3, 40)],
            }],
        );
        assert_eq!(s.matches("class=\"point\"").count(), 4);
        assert!(s.contains("turn 3: red 40"));
        assert!(s.contains(">40</text>"), "{s}");
    }
}
