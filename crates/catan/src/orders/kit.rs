//! The toolkit the order grammars and their carrying out are built on: the cursor over a
//! line's words, the reader's primitives (numbers, vertices, edges, hexes, colours,
//! resources), and the step of a turn (`act`, `Flow`). The base game's grammar
//! ([`super::parse`], [`super::resolve`]) and a scenario's (Catan Express's,
//! `crate::express::orders`) both build on it; it imports neither (tests/architecture/catan.rs).

use std::ops::Range;

use crate::board::{EdgeId, HexId, VertexId};
use crate::cards::Resource;
use crate::colour::Colour;
use crate::events::Event;
use crate::rules::{Action, Refusal};
use crate::scenario;
use crate::state::State;
use judge_core::diagnostic::{Diagnostic, did_you_mean};

pub(crate) struct Cursor<'a> {
    pub(crate) words: &'a [(String, Range<usize>)],
    pub(crate) at: usize,
    pub(crate) line_end: usize,
}

pub(crate) type Res<T> = Result<T, Diagnostic>;

impl<'a> Cursor<'a> {
    pub(crate) fn peek(&self) -> Option<&'a str> {
        self.words.get(self.at).map(|w| w.0.as_str())
    }

    pub(crate) fn span(&self) -> Range<usize> {
        self.words
            .get(self.at)
            .map_or(self.line_end..self.line_end, |w| w.1.clone())
    }

    pub(crate) fn next(&mut self) -> Option<&'a str> {
        let w = self.peek();
        if w.is_some() {
            self.at += 1;
        }
        w
    }

    pub(crate) fn eat(&mut self, w: &str) -> bool {
        if self.peek() == Some(w) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn eat_any(&mut self, ws: &[&str]) -> bool {
        match self.peek() {
            Some(p) if ws.contains(&p) => {
                self.at += 1;
                true
            }
            _ => false,
        }
    }

    pub(crate) fn done(&self) -> bool {
        self.at >= self.words.len()
    }

    pub(crate) fn missing(&self, what: &str) -> Diagnostic {
        match self.peek() {
            Some(w) => Diagnostic::new(format!("expected {what}, found `{w}`"))
                .at(self.span())
                .label(format!("expected {what}")),
            None => Diagnostic::new(format!("expected {what} here"))
                .at(self.span())
                .label(format!("{what} missing")),
        }
    }

    pub(crate) fn finish(&self) -> Res<()> {
        match self.peek() {
            None => Ok(()),
            Some(w) => Err(
                Diagnostic::new(format!("unexpected `{w}` at the end of the order"))
                    .at(self.span())
                    .label("not understood"),
            ),
        }
    }
}

pub(crate) struct Reader<'s> {
    pub(crate) s: &'s State,
}

impl Reader<'_> {
    pub(crate) fn number(&self, c: &mut Cursor) -> Option<u32> {
        let n = c.peek()?.parse().ok()?;
        c.at += 1;
        Some(n)
    }

    pub(crate) fn vertex(&self, c: &mut Cursor) -> Res<VertexId> {
        let t = &self.s.board.topology;
        let span = c.span();
        let Some(w) = c.next() else {
            return Err(c.missing("a vertex number"));
        };
        let land = t.land_vertices.len();
        match t.parse_vertex(w) {
            Some(v) if t.vertices[v].land => Ok(v),
            _ => Err(
                Diagnostic::new(format!("`{w}` is not a vertex of the island"))
                    .at(span)
                    .label("no such vertex")
                    .help(format!(
                        "vertices are numbered 1 to {land} on the board in your report"
                    )),
            ),
        }
    }

    pub(crate) fn edge(&self, c: &mut Cursor) -> Res<EdgeId> {
        let t = &self.s.board.topology;
        let span = c.span();
        let Some(w) = c.next() else {
            return Err(c.missing("an edge (two neighbouring vertices, like 12-13)"));
        };
        match t.parse_edge(w) {
            Some(e) if t.edges[e].land => Ok(e),
            _ => {
                let mut d = Diagnostic::new(format!("`{w}` is not an edge of the island"))
                    .at(span)
                    .label("no such edge");
                if let Some((a, _)) = w.split_once('-')
                    && let Some(v) = t.parse_vertex(a)
                {
                    let near: Vec<String> = t.vertices[v]
                        .edges
                        .iter()
                        .filter(|&&e| t.edges[e].land)
                        .map(|&e| t.edge_name(e))
                        .collect();
                    d = d.help(format!("the edges at vertex {a} are {}", near.join(", ")));
                } else {
                    d = d.help("an edge is written as its two end vertices, like 12-13");
                }
                Err(d)
            }
        }
    }

    pub(crate) fn hex(&self, c: &mut Cursor) -> Res<HexId> {
        let t = &self.s.board.topology;
        let span = c.span();
        let Some(w) = c.next() else {
            return Err(c.missing("a hex letter"));
        };
        match t.parse_hex(w) {
            Some(h) if t.hexes[h].land => Ok(h),
            _ => {
                let last = t.hexes[t.land_hexes - 1].label.clone();
                Err(Diagnostic::new(format!("`{w}` is not a land hex"))
                    .at(span)
                    .label("no such hex")
                    .help(format!("land hexes are lettered A to {last}")))
            }
        }
    }

    pub(crate) fn colour(&self, c: &mut Cursor) -> Res<Colour> {
        let span = c.span();
        let Some(w) = c.next() else {
            return Err(c.missing("a player's colour"));
        };
        let playing: Vec<&str> = self.s.players.iter().map(|p| p.colour.name()).collect();
        match Colour::parse(w) {
            Some(col) if self.s.seat_of(col).is_some() => Ok(col),
            _ => {
                let mut d = Diagnostic::new(format!("`{w}` is not a player in this game"))
                    .at(span)
                    .label("no such player");
                d = match did_you_mean(w, playing.iter().copied()) {
                    Some(m) => d.help(format!("did you mean `{m}`?")),
                    None => d.help(format!("the players are {}", playing.join(", "))),
                };
                Err(d)
            }
        }
    }

    pub(crate) fn resource(&self, c: &mut Cursor) -> Res<Resource> {
        let span = c.span();
        let Some(w) = c.next() else {
            return Err(c.missing("a resource (wood, brick, wool, grain, ore)"));
        };
        Resource::parse(w).ok_or_else(|| {
            let d = Diagnostic::new(format!("`{w}` is not a resource"))
                .at(span)
                .label("unknown resource");
            match did_you_mean(w, Resource::WORDS) {
                Some(m) => d.help(format!("did you mean `{m}`?")),
                None => d.help("the resources are wood, brick, wool, grain and ore"),
            }
        })
    }
}

/// What the turn does after an order.
pub(crate) enum Flow {
    /// Go on with the next order.
    Go,
    /// The turn ends here (`end`).
    Stop,
    /// The locomotive moved: the turn is over; later orders are refused.
    Moved,
}

/// Carry out an action; then what the scenario does after it (Catan Express: if the race
/// has just begun, the stopover choices from the players' standing orders).
pub(crate) fn act(s: &mut State, ev: &mut Vec<Event>, a: Action) -> Result<(), Refusal> {
    s.apply(a, ev)?;
    scenario::after_act(s, ev);
    Ok(())
}
