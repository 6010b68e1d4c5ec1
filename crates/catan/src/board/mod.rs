//! The board: hexes (land and the sea frame), their corners (vertices, where
//! settlements and cities stand) and sides (edges, where roads run), the terrain and
//! number token of each land hex, and the harbours.
//!
//! The graph is built once from the board's shape and kept as plain tables and
//! bitsets, so the rules can ask for neighbours without allocating. Besides vertices and
//! edges it names **spokes** (a vertex joined to the centre of one of its hexes) so that
//! a scenario can lay pieces from a corner to a hex centre (Catan Express rail lines) on
//! the same graph; sea hexes and the edges between them are part of it too (ferries).
//!
//! Names, as players write them: land hexes `A`…`S` in reading order (top row first,
//! left to right), sea hexes `sea1`…; vertices by number, `1`… for corners touching
//! land in reading order (then the sea-only corners); edges by their two vertices,
//! `12-13`.

pub mod layout;

use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use super::bits::Bits;
use super::cards::Resource;

pub type HexId = usize;
pub type VertexId = usize;
pub type EdgeId = usize;

/// What a hex is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    Forest,
    Hills,
    Pasture,
    Fields,
    Mountains,
    Desert,
    Sea,
}

impl Terrain {
    /// The resource a producing hex yields.
    pub fn resource(self) -> Option<Resource> {
        Some(match self {
            Terrain::Forest => Resource::Wood,
            Terrain::Hills => Resource::Brick,
            Terrain::Pasture => Resource::Wool,
            Terrain::Fields => Resource::Grain,
            Terrain::Mountains => Resource::Ore,
            Terrain::Desert | Terrain::Sea => return None,
        })
    }

    pub fn is_land(self) -> bool {
        self != Terrain::Sea
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Forest => "forest",
            Terrain::Hills => "hills",
            Terrain::Pasture => "pasture",
            Terrain::Fields => "fields",
            Terrain::Mountains => "mountains",
            Terrain::Desert => "desert",
            Terrain::Sea => "sea",
        }
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A harbour: any resource 3:1, or one resource 2:1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Harbour {
    Generic,
    Wood,
    Brick,
    Wool,
    Grain,
    Ore,
}

impl Harbour {
    pub fn resource(self) -> Option<Resource> {
        Some(match self {
            Harbour::Generic => return None,
            Harbour::Wood => Resource::Wood,
            Harbour::Brick => Resource::Brick,
            Harbour::Wool => Resource::Wool,
            Harbour::Grain => Resource::Grain,
            Harbour::Ore => Resource::Ore,
        })
    }

    pub fn for_resource(r: Resource) -> Harbour {
        match r {
            Resource::Wood => Harbour::Wood,
            Resource::Brick => Harbour::Brick,
            Resource::Wool => Harbour::Wool,
            Resource::Grain => Harbour::Grain,
            Resource::Ore => Harbour::Ore,
        }
    }

    /// `3:1` or `2:1 ore`.
    pub fn label(self) -> String {
        match self.resource() {
            None => "3:1".to_string(),
            Some(r) => format!("2:1 {r}"),
        }
    }

    /// Bit of this harbour in a player's set of harbours.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// The six corners of a pointy-top hex, clockwise from the top.
pub const CORNERS: [&str; 6] = ["n", "ne", "se", "s", "sw", "nw"];
/// Corner offsets from a hex centre, in the board's integer plane (x in half hex widths,
/// y in quarter hex heights).
const CORNER_OFFSET: [(i32, i32); 6] = [(0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)];
/// Axial steps to the neighbour across each side; side `i` joins corners `i` and `i+1`.
const SIDE_STEP: [(i32, i32); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexInfo {
    /// Axial coordinates.
    pub q: i32,
    pub r: i32,
    /// Centre in the integer plane (see [`VertexInfo::x`]).
    pub x: i32,
    pub y: i32,
    pub land: bool,
    pub label: String,
    pub corners: [VertexId; 6],
    pub sides: [EdgeId; 6],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexInfo {
    /// Position: x in half hex widths, y in quarter hex heights (so corners are whole).
    pub x: i32,
    pub y: i32,
    /// The hexes it is a corner of (1 to 3), with which corner.
    pub hexes: Vec<(HexId, usize)>,
    pub edges: Vec<EdgeId>,
    pub neighbours: Vec<VertexId>,
    /// It touches at least one land hex: a settlement may stand here.
    pub land: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeInfo {
    pub ends: [VertexId; 2],
    /// The hexes on either side (1 or 2).
    pub hexes: Vec<HexId>,
    /// At least one side is land: a road may run here.
    pub land: bool,
    /// One side land, the other sea (or the edge of the board).
    pub coast: bool,
}

/// The graph of a board's shape. Built from the rows of land hexes; a frame of sea hexes
/// surrounds the land.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topology {
    /// Rows of land hexes (boards built by [`Topology::from_rows`]).
    pub rows: Vec<u8>,
    /// The picture (boards built by [`Topology::from_shape`]).
    pub shape: Vec<String>,
    pub hexes: Vec<HexInfo>,
    pub vertices: Vec<VertexInfo>,
    pub edges: Vec<EdgeInfo>,
    /// Edges at each vertex, as a set.
    pub vertex_edges: Vec<Bits>,
    /// Vertices next to each vertex, as a set.
    pub vertex_neighbours: Vec<Bits>,
    pub land_vertices: Bits,
    pub land_edges: Bits,
    pub land_hexes: usize,
}

impl Topology {
    /// A board whose land rows have these lengths, top to bottom (3,4,5,4,3 for the base
    /// game; 3,4,5,6,5,4,3 for five and six players), centred, with a sea frame.
    pub fn from_rows(rows: &[u8]) -> Topology {
        let n = rows.len() as i32;
        let mut land: Vec<(i32, i32)> = Vec::new();
        let widest = rows.iter().copied().max().unwrap_or(1) as i32;
        for (i, &len) in rows.iter().enumerate() {
            let r = i as i32 - n / 2;
            let len = len as i32;
            // Centre the row: x runs in steps of 2; its parity must match r's.
            let mut x0 = -(len - 1);
            if (x0 - r).rem_euclid(2) != 0 {
                x0 += if widest % 2 == 0 { 1 } else { -1 };
            }
            for k in 0..len {
                let x = x0 + 2 * k;
                land.push(((x - r) / 2, r));
            }
        }
        let mut t = Topology::from_cells(land, Vec::new());
        t.rows = rows.to_vec();
        t
    }

    /// A board drawn as a picture, one string per row of hexes, top to bottom: `L` (or
    /// any letter) is a land hex, `~` a sea hex inside the picture (a strait, a bay),
    /// anything else nothing. Hexes of a row sit on every other column, and rows
    /// alternate between even and odd columns, as the hexes interlock:
    ///
    /// ```text
    /// "  L L L ~ L"
    /// " L L L L ~ L"
    /// ```
    ///
    /// A frame of sea hexes surrounds the land, as on every board. `None` if a hex sits
    /// on a column of the wrong parity or there is no land.
    pub fn from_shape(shape: &[String]) -> Option<Topology> {
        let mut land = Vec::new();
        let mut sea = Vec::new();
        for (i, row) in shape.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let (x, r) = (c as i32, i as i32);
                let cell = |x: i32, r: i32| ((x - r).div_euclid(2), r);
                if ch.is_ascii_alphabetic() || ch == '~' {
                    if (x + r).rem_euclid(2) != 0 {
                        return None;
                    }
                    if ch == '~' {
                        sea.push(cell(x, r));
                    } else {
                        land.push(cell(x, r));
                    }
                }
            }
        }
        if land.is_empty() {
            return None;
        }
        // Centre the picture on the origin (keeping each hex's column parity).
        let all = land.iter().chain(&sea);
        let (mut lo, mut hi) = ((i32::MAX, i32::MAX), (i32::MIN, i32::MIN));
        for &(q, r) in all {
            let x = 2 * q + r;
            lo = (lo.0.min(x), lo.1.min(r));
            hi = (hi.0.max(x), hi.1.max(r));
        }
        let dr = -(lo.1 + hi.1) / 2;
        let mut dx = -(lo.0 + hi.0) / 2;
        if (dx - dr).rem_euclid(2) != 0 {
            dx += 1;
        }
        let shift = |&(q, r): &(i32, i32)| {
            let (x, r) = (2 * q + r + dx, r + dr);
            ((x - r) / 2, r)
        };
        let land = land.iter().map(shift).collect();
        let sea = sea.iter().map(shift).collect();
        let mut t = Topology::from_cells(land, sea);
        t.shape = shape.to_vec();
        Some(t)
    }

    /// The graph of a board of these rows (`shape` empty) or this shape (see
    /// [`Topology::from_rows`], [`Topology::from_shape`]), shared with every board of
    /// the same rows and shape: a state file names its board's shape, and the graph is
    /// the same every time it is read (a step reads the state several times, and a
    /// game's every step the same shape). A pure function of its arguments, so keeping
    /// it changes no result; the few shapes last read are kept (a handful in a game
    /// and its scenarios: a file of made-up shapes only replaces them).
    pub fn shared(rows: &[u8], shape: &[String]) -> Option<Arc<Topology>> {
        /// Shapes kept; a game has one, the tests and a folder of games a few.
        const KEPT: usize = 8;
        type Kept = Vec<((Vec<u8>, Vec<String>), Arc<Topology>)>;
        static SHAPES: OnceLock<Mutex<Kept>> = OnceLock::new();
        let shapes = SHAPES.get_or_init(|| Mutex::new(Vec::new()));
        // A panic elsewhere while the list was held leaves it whole (it is only ever
        // pushed to or drained), so a poisoned lock is read as it is.
        let find = |kept: &Kept| {
            kept.iter()
                .find(|((r, s), _)| r.as_slice() == rows && s.as_slice() == shape)
                .map(|(_, t)| Arc::clone(t))
        };
        if let Some(t) = find(&shapes.lock().unwrap_or_else(|e| e.into_inner())) {
            return Some(t);
        }
        let t = Arc::new(if shape.is_empty() {
            Topology::from_rows(rows)
        } else {
            Topology::from_shape(shape)?
        });
        let mut kept = shapes.lock().unwrap_or_else(|e| e.into_inner());
        if find(&kept).is_none() {
            if kept.len() >= KEPT {
                kept.remove(0);
            }
            kept.push(((rows.to_vec(), shape.to_vec()), Arc::clone(&t)));
        }
        Some(t)
    }

    /// The graph of these land hexes (axial coordinates), these sea hexes, and a frame
    /// of sea hexes round the land.
    fn from_cells(mut land: Vec<(i32, i32)>, mut sea: Vec<(i32, i32)>) -> Topology {
        let is_land = |q: i32, r: i32| land.contains(&(q, r));
        let mut frame: Vec<(i32, i32)> = Vec::new();
        for &(q, r) in &land {
            for (dq, dr) in SIDE_STEP {
                let p = (q + dq, r + dr);
                if !is_land(p.0, p.1) && !sea.contains(&p) && !frame.contains(&p) {
                    frame.push(p);
                }
            }
        }
        sea.extend(frame);
        let key = |&(q, r): &(i32, i32)| (r, 2 * q + r);
        land.sort_by_key(key);
        sea.sort_by_key(key);
        let mut hexes: Vec<HexInfo> = Vec::new();
        for (i, &(q, r)) in land.iter().enumerate() {
            hexes.push(HexInfo {
                q,
                r,
                x: 2 * q + r,
                y: 3 * r,
                land: true,
                label: land_label(i),
                corners: [0; 6],
                sides: [0; 6],
            });
        }
        for (i, &(q, r)) in sea.iter().enumerate() {
            hexes.push(HexInfo {
                q,
                r,
                x: 2 * q + r,
                y: 3 * r,
                land: false,
                label: format!("sea{}", i + 1),
                corners: [0; 6],
                sides: [0; 6],
            });
        }
        // Vertices: every corner, land-touching ones first, each group in reading order.
        let mut points: Vec<(i32, i32, bool)> = Vec::new();
        for h in &hexes {
            for (dx, dy) in CORNER_OFFSET {
                let p = (h.x + dx, h.y + dy);
                match points.iter_mut().find(|(x, y, _)| (*x, *y) == p) {
                    Some(e) => e.2 |= h.land,
                    None => points.push((p.0, p.1, h.land)),
                }
            }
        }
        points.sort_by_key(|&(x, y, l)| (!l, y, x));
        let vertex_at = |x: i32, y: i32| points.iter().position(|&(px, py, _)| (px, py) == (x, y));
        let mut vertices: Vec<VertexInfo> = points
            .iter()
            .map(|&(x, y, l)| VertexInfo {
                x,
                y,
                hexes: Vec::new(),
                edges: Vec::new(),
                neighbours: Vec::new(),
                land: l,
            })
            .collect();
        let mut edges: Vec<EdgeInfo> = Vec::new();
        // Index loop: the body reads and writes `hexes[hi]` and pushes to `edges`.
        #[allow(clippy::needless_range_loop)]
        for hi in 0..hexes.len() {
            let (hx, hy, hl) = (hexes[hi].x, hexes[hi].y, hexes[hi].land);
            let mut corners = [0; 6];
            for (c, (dx, dy)) in CORNER_OFFSET.iter().enumerate() {
                let v = vertex_at(hx + dx, hy + dy).unwrap_or(0);
                corners[c] = v;
                vertices[v].hexes.push((hi, c));
            }
            let mut sides = [0; 6];
            for s in 0..6 {
                let (a, b) = (corners[s], corners[(s + 1) % 6]);
                let ends = [a.min(b), a.max(b)];
                let e = match edges.iter().position(|e| e.ends == ends) {
                    Some(e) => e,
                    None => {
                        edges.push(EdgeInfo {
                            ends,
                            hexes: Vec::new(),
                            land: false,
                            coast: false,
                        });
                        edges.len() - 1
                    }
                };
                edges[e].hexes.push(hi);
                edges[e].land |= hl;
                sides[s] = e;
            }
            hexes[hi].corners = corners;
            hexes[hi].sides = sides;
        }
        // Number edges in reading order of their ends, so `1-2` comes first.
        let mut order: Vec<usize> = (0..edges.len()).collect();
        order.sort_by_key(|&e| edges[e].ends);
        let mut renumber = vec![0; edges.len()];
        for (new, &old) in order.iter().enumerate() {
            renumber[old] = new;
        }
        let mut sorted: Vec<EdgeInfo> = order.iter().map(|&e| edges[e].clone()).collect();
        for h in &mut hexes {
            for s in &mut h.sides {
                *s = renumber[*s];
            }
        }
        for e in &mut sorted {
            let lands = e.hexes.iter().filter(|&&h| hexes[h].land).count();
            e.coast = lands == 1;
        }
        let edges = sorted;
        for (ei, e) in edges.iter().enumerate() {
            let [a, b] = e.ends;
            vertices[a].edges.push(ei);
            vertices[b].edges.push(ei);
            vertices[a].neighbours.push(b);
            vertices[b].neighbours.push(a);
        }
        let vertex_edges = vertices
            .iter()
            .map(|v| v.edges.iter().copied().collect())
            .collect();
        let vertex_neighbours = vertices
            .iter()
            .map(|v| v.neighbours.iter().copied().collect())
            .collect();
        let land_vertices = (0..vertices.len()).filter(|&v| vertices[v].land).collect();
        let land_edges = (0..edges.len()).filter(|&e| edges[e].land).collect();
        Topology {
            rows: Vec::new(),
            shape: Vec::new(),
            land_hexes: land.len(),
            hexes,
            vertices,
            edges,
            vertex_edges,
            vertex_neighbours,
            land_vertices,
            land_edges,
        }
    }

    /// The edge joining two vertices, if any.
    pub fn edge_between(&self, a: VertexId, b: VertexId) -> Option<EdgeId> {
        let v = self.vertices.get(a)?;
        v.edges
            .iter()
            .copied()
            .find(|&e| self.edges[e].ends.contains(&b))
    }

    /// The other end of an edge.
    pub fn other_end(&self, e: EdgeId, v: VertexId) -> VertexId {
        let [a, b] = self.edges[e].ends;
        if a == v { b } else { a }
    }

    /// A spoke: from a vertex to the centre of one of its hexes (Catan Express rail
    /// lines; ferries "beyond the island" to sea hex centres). Numbered hex × 6 + corner.
    pub fn spoke(&self, hex: HexId, corner: usize) -> (usize, VertexId) {
        (hex * 6 + corner, self.hexes[hex].corners[corner % 6])
    }

    /// The spokes at a vertex: (spoke number, hex).
    pub fn spokes_at(&self, v: VertexId) -> impl Iterator<Item = (usize, HexId)> + '_ {
        self.vertices[v].hexes.iter().map(|&(h, c)| (h * 6 + c, h))
    }

    pub fn vertex_name(&self, v: VertexId) -> String {
        (v + 1).to_string()
    }

    pub fn edge_name(&self, e: EdgeId) -> String {
        let [a, b] = self.edges[e].ends;
        format!("{}-{}", a + 1, b + 1)
    }

    pub fn hex_name(&self, h: HexId) -> &str {
        &self.hexes[h].label
    }

    /// Reads a vertex number as players write it (`12`).
    pub fn parse_vertex(&self, s: &str) -> Option<VertexId> {
        let n: usize = s.trim().parse().ok()?;
        (n >= 1 && n <= self.vertices.len()).then(|| n - 1)
    }

    /// Reads an edge as two adjacent vertex numbers (`12-13`).
    pub fn parse_edge(&self, s: &str) -> Option<EdgeId> {
        let (a, b) = s.split_once('-')?;
        self.edge_between(self.parse_vertex(a)?, self.parse_vertex(b)?)
    }

    pub fn parse_hex(&self, s: &str) -> Option<HexId> {
        let s = s.trim();
        self.hexes
            .iter()
            .position(|h| h.label.eq_ignore_ascii_case(s))
    }
}

fn land_label(i: usize) -> String {
    const A: u8 = b'A';
    if i < 26 {
        ((A + i as u8) as char).to_string()
    } else {
        format!("A{}", (A + (i - 26) as u8) as char)
    }
}

/// A board: its graph, what each land hex is and yields on which roll, and the
/// harbours on the coast.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Shared: every board of one shape has the same graph (see [`Topology::shared`]),
    /// and a state is read, and cloned, many times a step.
    pub topology: Arc<Topology>,
    /// Per hex (land then sea).
    pub terrain: Vec<Terrain>,
    /// Per hex: the number token (2–12), none on desert and sea.
    pub number: Vec<Option<u8>>,
    /// Harbours, each on a coastal edge.
    pub harbours: Vec<(EdgeId, Harbour)>,
    /// Per vertex: the harbour it reaches.
    pub vertex_harbour: Vec<Option<Harbour>>,
    /// For each dice total 2–12, the (hex, resource) pairs that produce.
    pub producing: [Vec<(HexId, Resource)>; 13],
    /// Land hexes (the robber's possible places).
    pub land: Vec<HexId>,
}

impl Board {
    pub fn new(
        topology: impl Into<Arc<Topology>>,
        terrain: Vec<Terrain>,
        number: Vec<Option<u8>>,
        mut harbours: Vec<(EdgeId, Harbour)>,
    ) -> Board {
        let topology = topology.into();
        harbours.sort();
        let mut vertex_harbour = vec![None; topology.vertices.len()];
        for &(e, h) in &harbours {
            if let Some(edge) = topology.edges.get(e) {
                for v in edge.ends {
                    vertex_harbour[v] = Some(h);
                }
            }
        }
        let mut producing: [Vec<(HexId, Resource)>; 13] = Default::default();
        for h in 0..topology.hexes.len() {
            if let (Some(n), Some(r)) = (number[h], terrain[h].resource())
                && (2..=12).contains(&n)
            {
                producing[n as usize].push((h, r));
            }
        }
        let land = (0..topology.hexes.len())
            .filter(|&h| terrain[h].is_land())
            .collect();
        Board {
            topology,
            terrain,
            number,
            harbours,
            vertex_harbour,
            producing,
            land,
        }
    }

    /// Dots under a number token: how many of the 36 rolls make it.
    pub fn pips(n: Option<u8>) -> u32 {
        match n {
            Some(n @ 2..=7) => u32::from(n) - 1,
            Some(n @ 8..=12) => 13 - u32::from(n),
            _ => 0,
        }
    }

    pub fn desert(&self) -> Option<HexId> {
        self.terrain.iter().position(|&t| t == Terrain::Desert)
    }

    /// The coastal edges, clockwise from the top of the island.
    pub fn coast_clockwise(topology: &Topology) -> Vec<EdgeId> {
        let mut coast: Vec<(f64, EdgeId)> = topology
            .edges
            .iter()
            .enumerate()
            .filter(|(_, e)| e.coast)
            .map(|(i, e)| {
                let [a, b] = e.ends;
                let (va, vb) = (&topology.vertices[a], &topology.vertices[b]);
                // Screen plane: x in half widths (√3/2 of a side), y in half sides.
                let x = f64::from(va.x + vb.x) * 0.866;
                let y = f64::from(va.y + vb.y) * 0.5;
                let angle = x.atan2(-y);
                (angle.rem_euclid(std::f64::consts::TAU), i)
            })
            .collect();
        coast.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        coast.into_iter().map(|(_, e)| e).collect()
    }
}

/// How a board is written in the state file: its shape, each land hex's terrain and
/// number by label, and the harbours by edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardFile {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rows: Vec<u8>,
    /// A drawn board (see [`Topology::from_shape`]) instead of rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shape: Vec<String>,
    pub hexes: std::collections::BTreeMap<String, HexFile>,
    pub harbours: std::collections::BTreeMap<String, Harbour>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexFile {
    pub terrain: Terrain,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u8>,
}

/// Why a board as a file (a scenario's, or a state's) is not a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("the board's rows must be 1 to 11 rows of 1 to 12 hexes")]
    Rows,
    #[error("a board has rows or a shape, not both")]
    RowsAndShape,
    #[error("the board's shape must be at most 13 rows of 40 columns")]
    ShapeSize,
    #[error(
        "the board's shape must have land, and hexes on alternate columns (even in the first row, odd in the second, …)"
    )]
    Shape,
    #[error("the board is too large")]
    TooLarge,
    #[error("the board has no land hex `{0}`")]
    NoLandHex(String),
    #[error("land hex {0} cannot be sea")]
    Sea(String),
    #[error("hex {hex}: number {number} is not 2 to 12")]
    Number { hex: String, number: u8 },
    #[error("the board does not say what hex {0} is")]
    Missing(String),
    #[error("`{0}` is not a coastal edge for a harbour")]
    Harbour(String),
}

impl Board {
    pub fn to_file(&self) -> BoardFile {
        let t = &self.topology;
        BoardFile {
            rows: t.rows.clone(),
            shape: t.shape.clone(),
            hexes: (0..t.hexes.len())
                .filter(|&h| t.hexes[h].land)
                .map(|h| {
                    (
                        t.hexes[h].label.clone(),
                        HexFile {
                            terrain: self.terrain[h],
                            number: self.number[h],
                        },
                    )
                })
                .collect(),
            harbours: self
                .harbours
                .iter()
                .map(|&(e, h)| (t.edge_name(e), h))
                .collect(),
        }
    }

    pub fn from_file(f: &BoardFile) -> Result<Board, BoardError> {
        if f.shape.is_empty() {
            if f.rows.is_empty() || f.rows.iter().any(|&r| r == 0 || r > 12) || f.rows.len() > 11 {
                return Err(BoardError::Rows);
            }
        } else {
            if !f.rows.is_empty() {
                return Err(BoardError::RowsAndShape);
            }
            if f.shape.len() > 13 || f.shape.iter().any(|r| r.chars().count() > 40) {
                return Err(BoardError::ShapeSize);
            }
        }
        let topology = Topology::shared(&f.rows, &f.shape).ok_or(BoardError::Shape)?;
        if topology.vertices.len() > super::bits::Bits::CAPACITY
            || topology.edges.len() > super::bits::Bits::CAPACITY
        {
            return Err(BoardError::TooLarge);
        }
        let mut terrain = vec![Terrain::Sea; topology.hexes.len()];
        let mut number = vec![None; topology.hexes.len()];
        for (label, h) in &f.hexes {
            let id = topology
                .parse_hex(label)
                .filter(|&i| topology.hexes[i].land)
                .ok_or_else(|| BoardError::NoLandHex(label.clone()))?;
            if h.terrain == Terrain::Sea {
                return Err(BoardError::Sea(label.clone()));
            }
            if let Some(n) = h.number
                && !(2..=12).contains(&n)
            {
                return Err(BoardError::Number {
                    hex: label.clone(),
                    number: n,
                });
            }
            terrain[id] = h.terrain;
            number[id] = h.number;
        }
        for h in 0..topology.land_hexes {
            if !f.hexes.contains_key(&topology.hexes[h].label) {
                return Err(BoardError::Missing(topology.hexes[h].label.clone()));
            }
        }
        let mut harbours = Vec::new();
        for (e, h) in &f.harbours {
            let id = topology
                .parse_edge(e)
                .filter(|&i| topology.edges[i].coast)
                .ok_or_else(|| BoardError::Harbour(e.clone()))?;
            harbours.push((id, *h));
        }
        harbours.sort();
        Ok(Board::new(topology, terrain, number, harbours))
    }
}

impl Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_file().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Board, D::Error> {
        let f = BoardFile::deserialize(d)?;
        Board::from_file(&f).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The base board: 19 land hexes, 54 corners and 72 sides on land, 18 sea hexes
    /// around, 30 coastal sides.
    #[test]
    fn the_base_board_has_the_usual_numbers_of_places() {
        let t = Topology::from_rows(&[3, 4, 5, 4, 3]);
        assert_eq!(t.land_hexes, 19);
        assert_eq!(t.hexes.len(), 19 + 18);
        assert_eq!(t.land_vertices.len(), 54);
        assert_eq!(t.land_edges.len(), 72);
        assert_eq!(t.edges.iter().filter(|e| e.coast).count(), 30);
        // Land corners come first.
        assert!((0..54).all(|v| t.vertices[v].land));
        assert_eq!(t.parse_edge("1-4"), t.edge_between(0, 3));
        assert_eq!(t.hexes[0].label, "A");
        assert_eq!(t.hexes[18].label, "S");
        assert_eq!(Board::coast_clockwise(&t).len(), 30);
    }

    /// The five-and-six player board: 30 land hexes in rows 3-4-5-6-5-4-3.
    #[test]
    fn the_large_board_has_thirty_land_hexes() {
        let t = Topology::from_rows(&[3, 4, 5, 6, 5, 4, 3]);
        assert_eq!(t.land_hexes, 30);
        assert_eq!(t.land_vertices.len(), 80);
        assert_eq!(t.land_edges.len(), 109);
        assert!(t.vertices.len() <= Bits::CAPACITY && t.edges.len() <= Bits::CAPACITY);
        for h in &t.hexes[..30] {
            let neighbours = h
                .sides
                .iter()
                .filter(|&&e| t.edges[e].hexes.len() == 2)
                .count();
            assert_eq!(
                neighbours, 6,
                "every land hex has six neighbours with the frame"
            );
        }
    }
}
