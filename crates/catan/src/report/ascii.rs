//! The board in ASCII, 78 columns at most: pointy-top hexes with their letter, terrain,
//! number token (with its dots) and the robber; every land vertex with its number, a
//! settlement as the owner's letter before it (`r12`), a city as the capital letter
//! (`R12`); roads drawn in the owner's letter; harbours outside the coast (`3:1`, `2wd`).

use crate::board::{Board, Harbour, Terrain};
use crate::state::{NOBODY, State};

struct Canvas {
    width: usize,
    rows: Vec<Vec<char>>,
}

impl Canvas {
    fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            width,
            rows: vec![vec![' '; width]; height],
        }
    }

    fn put(&mut self, col: i32, line: i32, text: &str) {
        for (k, ch) in text.chars().enumerate() {
            let c = col + k as i32;
            if line >= 0 && (line as usize) < self.rows.len() && c >= 0 && (c as usize) < self.width
            {
                self.rows[line as usize][c as usize] = ch;
            }
        }
    }

    fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .rows
            .iter()
            .map(|r| r.iter().collect::<String>().trim_end().to_string())
            .collect();
        while out.first().is_some_and(String::is_empty) {
            out.remove(0);
        }
        while out.last().is_some_and(String::is_empty) {
            out.pop();
        }
        out
    }
}

/// Short tag of a harbour, three characters.
pub fn harbour_tag(h: Harbour) -> &'static str {
    match h {
        Harbour::Generic => "3:1",
        Harbour::Wood => "2wd",
        Harbour::Brick => "2br",
        Harbour::Wool => "2wl",
        Harbour::Grain => "2gr",
        Harbour::Ore => "2or",
    }
}

fn terrain_word(t: Terrain) -> &'static str {
    match t.resource() {
        Some(r) => r.name(),
        None => t.name(),
    }
}

/// The board as lines of text.
pub fn board(s: &State) -> Vec<String> {
    let t = &s.board.topology;
    let land: Vec<usize> = (0..t.vertices.len())
        .filter(|&v| t.vertices[v].land)
        .collect();
    let (minx, maxx) = land
        .iter()
        .map(|&v| t.vertices[v].x)
        .fold((i32::MAX, i32::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let (miny, maxy) = land
        .iter()
        .map(|&v| t.vertices[v].y)
        .fold((i32::MAX, i32::MIN), |(a, b), y| (a.min(y), b.max(y)));
    let half = if (maxx - minx) * 6 + 12 <= 76 { 6 } else { 5 };
    let span = (maxx - minx) * half;
    let left = (78 - span) / 2;
    let top = 2;
    let col = |x: i32| left + (x - minx) * half;
    let line = |y: i32| top + (y - miny) * 2;
    let height = (line(maxy) + 3) as usize;
    let mut c = Canvas::new(78, height);
    // Edges.
    for (e, info) in t.edges.iter().enumerate() {
        if !info.land {
            continue;
        }
        let [a, b] = info.ends;
        let (va, vb) = (&t.vertices[a], &t.vertices[b]);
        let owner = s.edge_owner[e];
        let letter = (owner != NOBODY).then(|| s.colour(owner).initial());
        if va.x == vb.x {
            let (y0, y1) = (va.y.min(vb.y), va.y.max(vb.y));
            for l in line(y0) + 1..line(y1) {
                let ch = letter.unwrap_or('|');
                c.put(col(va.x), l, &ch.to_string());
            }
        } else {
            let (l, r) = if va.x < vb.x { (va, vb) } else { (vb, va) };
            let mid_line = (line(l.y) + line(r.y)) / 2;
            let mid_col = (col(l.x) + col(r.x)) / 2;
            let slash = if r.y < l.y { '/' } else { '\\' };
            match letter {
                Some(ch) => {
                    let w = if half == 6 { 3 } else { 2 };
                    let s: String = std::iter::repeat_n(ch, w).collect();
                    c.put(mid_col - 1, mid_line, &s);
                }
                None => c.put(mid_col, mid_line, &slash.to_string()),
            }
        }
    }
    // Hex interiors.
    for h in 0..t.land_hexes {
        let hx = &t.hexes[h];
        // The centre is in the vertices' plane: corners at y ± 1 and y ± 2.
        let (cx, cy) = (col(hx.x), line(hx.y));
        let word = format!("{} {}", hx.label, terrain_word(s.board.terrain[h]));
        c.put(cx - (word.len() as i32) / 2, cy - 1, &word);
        if let Some(n) = s.board.number[h] {
            let num = n.to_string();
            c.put(cx - (num.len() as i32) / 2, cy, &num);
        }
        if s.robber == h {
            c.put(cx - 3, cy + 1, "ROBBER");
        } else {
            let dots: String = ".".repeat(Board::pips(s.board.number[h]) as usize);
            c.put(cx - (dots.len() as i32) / 2, cy + 1, &dots);
        }
    }
    // Vertices.
    for &v in &land {
        let info = &t.vertices[v];
        let owner = s.vertex_owner[v];
        let mark = if owner == NOBODY {
            ' '
        } else if s.players[owner as usize].cities.has(v) {
            s.colour(owner).initial().to_ascii_uppercase()
        } else {
            s.colour(owner).initial()
        };
        let cell = format!("{mark}{:<2}", v + 1);
        c.put(col(info.x) - 1, line(info.y), &cell);
    }
    // Harbours, outside the coast.
    for &(e, h) in &s.board.harbours {
        let info = &t.edges[e];
        let Some(&land_hex) = info.hexes.iter().find(|&&x| t.hexes[x].land) else {
            continue;
        };
        let [a, b] = info.ends;
        let mx = f64::from(t.vertices[a].x + t.vertices[b].x) / 2.0;
        let my = f64::from(t.vertices[a].y + t.vertices[b].y) / 2.0;
        let hx = f64::from(t.hexes[land_hex].x);
        let hy = f64::from(t.hexes[land_hex].y);
        let px = mx + (mx - hx) * 0.9;
        let py = my + (my - hy) * 0.9;
        let cc = f64::from(left) + (px - f64::from(minx)) * f64::from(half);
        let ll = f64::from(top) + (py - f64::from(miny)) * 2.0;
        c.put(cc.round() as i32 - 1, ll.round() as i32, harbour_tag(h));
    }
    c.lines()
}
