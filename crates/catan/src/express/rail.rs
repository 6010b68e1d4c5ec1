//! The railway graph of a board: the **nodes** a locomotive stands on (the vertices and
//! the hex centres) and the **stretches** a rail line or ferry lies on.
//!
//! - A rail line runs from a vertex to the centre of one of its land hexes (a *spoke*);
//!   never along an edge.
//! - On the island map a ferry lies on an edge at sea or along the coast, as a
//!   Seafarers ship does (an edge with a sea hex on at least one side and a hex on both
//!   sides); "beyond the island" a ferry runs like a line, from a vertex of the island
//!   to the centre of a sea hex.
//!
//! Stretch numbers: spokes are `hex × 6 + corner`; edges follow, `6 × hexes + edge`.
//! Names, as players write them: a spoke by its vertex and hex, `13-F` or `13-sea4`; an
//! edge by its two vertices, `13-14`; a node by vertex number or hex letter.

use crate::board::{EdgeId, HexId, Topology, VertexId};

/// A place a locomotive stands: a vertex (`0..vertices`) or a hex centre
/// (`vertices + hex`).
pub type Node = u16;
/// A place a piece lies: a spoke or an edge (see the module's numbering).
pub type Stretch = u16;

/// What may lie on a stretch.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Line,
    Ferry,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Line => "rail line",
            Kind::Ferry => "ferry",
        }
    }

    pub fn plural(self) -> &'static str {
        match self {
            Kind::Line => "rail lines",
            Kind::Ferry => "ferries",
        }
    }
}

/// Where ferries go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ferries {
    /// On edges at sea or along the coast (the island map).
    Edges,
    /// From a vertex of the island to a sea hex's centre ("beyond the island").
    Spokes,
}

/// The graph, derived from the board and the map; never stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rail {
    pub vertices: usize,
    pub hexes: usize,
    pub nodes: usize,
    pub ferries: Ferries,
    /// Per stretch: its two nodes (the vertex first for a spoke).
    pub ends: Vec<[Node; 2]>,
    /// Per stretch: what may lie there (`None`: nothing).
    pub kind: Vec<Option<Kind>>,
    /// Per node: the stretches touching it, in number order.
    pub at: Vec<Vec<Stretch>>,
}

impl Rail {
    pub fn new(t: &Topology, ferries: Ferries) -> Rail {
        let vertices = t.vertices.len();
        let hexes = t.hexes.len();
        let count = hexes * 6 + t.edges.len();
        let mut ends = vec![[0, 0]; count];
        let mut kind = vec![None; count];
        for (h, hx) in t.hexes.iter().enumerate() {
            for (c, &v) in hx.corners.iter().enumerate() {
                let s = h * 6 + c;
                ends[s] = [v as Node, (vertices + h) as Node];
                kind[s] = if hx.land {
                    Some(Kind::Line)
                } else if ferries == Ferries::Spokes && t.vertices[v].land {
                    Some(Kind::Ferry)
                } else {
                    None
                };
            }
        }
        for (e, info) in t.edges.iter().enumerate() {
            let s = hexes * 6 + e;
            ends[s] = [info.ends[0] as Node, info.ends[1] as Node];
            let at_sea = info.hexes.iter().any(|&h| !t.hexes[h].land);
            if ferries == Ferries::Edges && info.hexes.len() == 2 && at_sea {
                kind[s] = Some(Kind::Ferry);
            }
        }
        let nodes = vertices + hexes;
        let mut at = vec![Vec::new(); nodes];
        for s in 0..count {
            if kind[s].is_some() {
                for n in ends[s] {
                    at[n as usize].push(s as Stretch);
                }
            }
        }
        Rail {
            vertices,
            hexes,
            nodes,
            ferries,
            ends,
            kind,
            at,
        }
    }

    pub fn stretches(&self) -> usize {
        self.ends.len()
    }

    pub fn kind(&self, s: Stretch) -> Option<Kind> {
        self.kind.get(s as usize).copied().flatten()
    }

    /// The node at a vertex.
    pub fn vertex_node(v: VertexId) -> Node {
        v as Node
    }

    /// The node at a hex's centre.
    pub fn centre(&self, h: HexId) -> Node {
        (self.vertices + h) as Node
    }

    /// The vertex of a node, if it is one.
    pub fn vertex_of(&self, n: Node) -> Option<VertexId> {
        ((n as usize) < self.vertices).then_some(n as usize)
    }

    /// The hex of a centre node, if it is one.
    pub fn hex_of(&self, n: Node) -> Option<HexId> {
        (n as usize)
            .checked_sub(self.vertices)
            .filter(|&h| h < self.hexes)
    }

    /// The other end of a stretch.
    pub fn other(&self, s: Stretch, n: Node) -> Node {
        let [a, b] = self.ends[s as usize];
        if a == n { b } else { a }
    }

    /// The spoke from vertex `v` to the centre of hex `h`, if `h` is one of its hexes.
    pub fn spoke(&self, t: &Topology, v: VertexId, h: HexId) -> Option<Stretch> {
        let c = t.hexes.get(h)?.corners.iter().position(|&x| x == v)?;
        Some((h * 6 + c) as Stretch)
    }

    /// The stretch on edge `e`.
    pub fn edge(&self, e: EdgeId) -> Stretch {
        (self.hexes * 6 + e) as Stretch
    }

    /// The stretch joining two nodes, if any may carry a piece.
    pub fn between(&self, a: Node, b: Node) -> Option<Stretch> {
        self.at
            .get(a as usize)?
            .iter()
            .copied()
            .find(|&s| self.other(s, a) == b)
    }

    pub fn node_name(&self, t: &Topology, n: Node) -> String {
        match self.hex_of(n) {
            Some(h) => t.hex_name(h).to_string(),
            None => t.vertex_name(n as usize),
        }
    }

    pub fn stretch_name(&self, t: &Topology, s: Stretch) -> String {
        let [a, b] = self.ends[s as usize];
        format!("{}-{}", self.node_name(t, a), self.node_name(t, b))
    }

    /// Reads a node as players write it: a vertex number or a hex label.
    pub fn parse_node(&self, t: &Topology, w: &str) -> Option<Node> {
        if let Some(v) = t.parse_vertex(w) {
            return Some(v as Node);
        }
        t.parse_hex(w).map(|h| self.centre(h))
    }

    /// Reads a stretch: `13-F`, `F-13`, `13-sea4`, `13-14`.
    pub fn parse_stretch(&self, t: &Topology, w: &str) -> Option<Stretch> {
        let (a, b) = w.split_once('-')?;
        let a = self.parse_node(t, a)?;
        let b = self.parse_node(t, b)?;
        self.between(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line is a spoke into a land hex; the base board has 19 × 6 of them. Beyond the
    /// island a ferry runs to a sea hex's centre from a vertex of the island; on the
    /// island map ferries lie on edges with sea on a side.
    #[test]
    fn lines_and_ferries_lie_where_the_rules_say() {
        let t = Topology::from_rows(&[3, 4, 5, 4, 3]);
        let beyond = Rail::new(&t, Ferries::Spokes);
        let lines = (0..beyond.stretches())
            .filter(|&s| beyond.kind(s as Stretch) == Some(Kind::Line))
            .count();
        assert_eq!(lines, 19 * 6);
        let sea_spokes = (0..beyond.stretches())
            .filter(|&s| beyond.kind(s as Stretch) == Some(Kind::Ferry))
            .count();
        // Every coastal vertex reaches the sea hexes it touches: 30 coastal edges, and
        // each of the 30 coastal vertices touches 1 or 2 sea hexes (48 in all).
        assert_eq!(sea_spokes, 48);
        let island = Rail::new(&t, Ferries::Edges);
        let ferry_edges = (0..island.stretches())
            .filter(|&s| island.kind(s as Stretch) == Some(Kind::Ferry))
            .count();
        assert!(
            ferry_edges > 30,
            "the coast and the sea between frame hexes"
        );
        let f = t.parse_hex("F").expect("F");
        let s = beyond.spoke(&t, t.hexes[f].corners[0], f).expect("a spoke");
        let name = beyond.stretch_name(&t, s);
        assert_eq!(beyond.parse_stretch(&t, &name), Some(s));
        let rev: String = {
            let (a, b) = name.split_once('-').expect("a dash");
            format!("{b}-{a}")
        };
        assert_eq!(beyond.parse_stretch(&t, &rev), Some(s));
        // Never along an edge: two vertices of a land hex are joined by no line.
        assert_eq!(
            beyond.between(t.hexes[f].corners[0] as Node, t.hexes[f].corners[1] as Node),
            None
        );
    }
}
