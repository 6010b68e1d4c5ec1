//! What Catan Express adds to a game's state: each player's railway (rail lines,
//! ferries, locomotive, connection chips) and the race (its starter, the stopovers with
//! their water towers, its winner). Kept in [`crate::state::State::scenario`];
//! written to the state file by names players use (`13-F`, `F`, colours), and the
//! derived tables (who lies on each stretch, who touches each node, the connected pieces
//! of the net) are rebuilt on reading.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::map::Map;
use super::rail::{Ferries, Kind, Node, Rail, Stretch};
use crate::bits::Bits;
use crate::board::{Board, VertexId};
use crate::colour::Colour;
use crate::state::{NotPlaying, Resume};

/// Rail lines per player.
pub const LINES: u8 = 15;
/// Ferries per player on the island map; "beyond the island" gives 15.
pub const FERRIES_ISLAND: u8 = 8;
pub const FERRIES_BEYOND: u8 = 15;
/// Points that start the race.
pub const RACE_POINTS: u8 = 8;
/// Cities allowed before the race; the two set aside join them when it starts.
pub const CITIES_BEFORE_RACE: u8 = 2;
/// Lines and ferries a player needs before their locomotive may move.
pub const PIECES_TO_MOVE: usize = 5;

/// Water towers per player: 6 with three players, 4 with four, 5 or 6 with five or six.
pub fn towers_per_player(players: usize) -> u8 {
    match players {
        3 => 6,
        4 => 4,
        n => n as u8,
    }
}

/// Rounds of stopover choice: two with three players, else one.
pub fn stopover_rounds(players: usize) -> u8 {
    if players == 3 { 2 } else { 1 }
}

/// One player's railway.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Railway {
    /// Rail lines, in the order built.
    pub lines: Vec<Stretch>,
    /// Ferries, in the order built.
    pub ferries: Vec<Stretch>,
    /// Where the locomotive stands (from the second founding settlement on).
    pub locomotive: Option<Node>,
    /// The second founding settlement: the locomotive's starting place.
    pub start: Option<VertexId>,
    /// Connection chips (1 point each).
    pub chips: u8,
    /// Nodes the player's pieces touch, in number order: their railway system (derived).
    pub nodes: Vec<Node>,
}

impl Railway {
    pub fn pieces(&self) -> usize {
        self.lines.len() + self.ferries.len()
    }

    pub fn count(&self, k: Kind) -> usize {
        match k {
            Kind::Line => self.lines.len(),
            Kind::Ferry => self.ferries.len(),
        }
    }
}

/// A stopover: a settlement or city where every player has a water tower.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopover {
    pub vertex: VertexId,
    pub chosen_by: u8,
    /// Seats who have taken their tower here.
    pub collected: u8,
}

/// The race, once started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub starter: u8,
    pub stopovers: Vec<Stopover>,
    /// The turn in which stopovers were last chosen (they are chosen again at the
    /// starter's next turn if none could be).
    pub chosen_in: u32,
    /// Who completed the race (the Fastest Locomotive Driver).
    pub winner: Option<u8>,
    /// The separate railways can no longer be joined with the pieces left: the
    /// connection the race needs has lapsed (RULINGS R9).
    pub lapsed: bool,
}

impl Race {
    /// Towers of `seat` collected.
    pub fn collected(&self, seat: u8) -> u8 {
        self.stopovers
            .iter()
            .filter(|st| st.collected & (1 << seat) != 0)
            .count() as u8
    }

    /// Has `seat` taken every tower of theirs on the board (and is there one)?
    pub fn all_collected(&self, seat: u8) -> bool {
        !self.stopovers.is_empty() && self.collected(seat) as usize == self.stopovers.len()
    }

    /// Is `v` a stopover where `seat`'s tower still stands?
    pub fn tower_of(&self, seat: u8, v: VertexId) -> bool {
        self.stopovers
            .iter()
            .any(|st| st.vertex == v && st.collected & (1 << seat) == 0)
    }
}

/// The Catan Express part of a game's state.
#[derive(Clone, Debug)]
pub struct Express {
    pub map: Map,
    pub rail: Arc<Rail>,
    pub players: Vec<Railway>,
    /// Per stretch: the seats with a piece there (bit per seat).
    pub owners: Vec<u8>,
    /// Per node: the seats whose pieces touch it.
    pub touch: Vec<u8>,
    /// Vertices any piece touches (no settlement there; a settlement there is on the
    /// railway).
    pub touched: Bits,
    /// Union-find over nodes: the connected pieces of the whole net.
    parent: Vec<Node>,
    pub race: Option<Race>,
}

impl PartialEq for Express {
    fn eq(&self, o: &Express) -> bool {
        // The union-find's shape depends on the order pieces were joined; what it
        // stands for is determined by the pieces.
        self.map == o.map
            && self.players == o.players
            && self.owners == o.owners
            && self.touch == o.touch
            && self.race == o.race
    }
}

impl Eq for Express {}

impl Express {
    pub fn new(board: &Board, map: Map, players: usize) -> Express {
        let ferries = match map {
            Map::Island => Ferries::Edges,
            Map::Beyond => Ferries::Spokes,
        };
        let rail = Rail::new(&board.topology, ferries);
        Express {
            map,
            owners: vec![0; rail.stretches()],
            touch: vec![0; rail.nodes],
            touched: Bits::EMPTY,
            parent: (0..rail.nodes as Node).collect(),
            rail: Arc::new(rail),
            players: vec![Railway::default(); players],
            race: None,
        }
    }

    /// Pieces of a kind a player has in all.
    pub fn supply(&self, k: Kind) -> u8 {
        match (k, self.map) {
            (Kind::Line, _) => LINES,
            (Kind::Ferry, Map::Island) => FERRIES_ISLAND,
            (Kind::Ferry, Map::Beyond) => FERRIES_BEYOND,
        }
    }

    pub fn left(&self, seat: u8, k: Kind) -> u8 {
        self.supply(k)
            .saturating_sub(self.players[seat as usize].count(k) as u8)
    }

    /// The root of a node's connected piece.
    pub fn find(&self, mut n: Node) -> Node {
        while self.parent[n as usize] != n {
            n = self.parent[n as usize];
        }
        n
    }

    fn union(&mut self, a: Node, b: Node) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            self.parent[hi as usize] = lo;
        }
        // Shorten the paths just walked.
        for n in [a, b] {
            let root = self.find(n);
            let mut m = n;
            while self.parent[m as usize] != m {
                let next = self.parent[m as usize];
                self.parent[m as usize] = root;
                m = next;
            }
        }
    }

    /// The connected piece of the net holding `seat`'s railway, if they have one.
    pub fn component(&self, seat: u8) -> Option<Node> {
        self.players[seat as usize]
            .nodes
            .first()
            .map(|&n| self.find(n))
    }

    /// Are these two players' railways in one connected piece of the net?
    pub fn connected(&self, a: u8, b: u8) -> bool {
        match (self.component(a), self.component(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }

    /// Seats with a railway in the piece rooted at `root`.
    pub fn seats_in(&self, root: Node) -> u8 {
        let mut bits = 0;
        for (s, _) in self.players.iter().enumerate() {
            if self.component(s as u8) == Some(root) {
                bits |= 1 << s;
            }
        }
        bits
    }

    /// Puts a piece down (no checks, no payments, no chips).
    pub fn lay(&mut self, seat: u8, s: Stretch) {
        let Some(kind) = self.rail.kind(s) else {
            return;
        };
        let bit = 1u8 << seat;
        self.owners[s as usize] |= bit;
        let [a, b] = self.rail.ends[s as usize];
        let p = &mut self.players[seat as usize];
        match kind {
            Kind::Line => p.lines.push(s),
            Kind::Ferry => p.ferries.push(s),
        }
        for n in [a, b] {
            if self.touch[n as usize] & bit == 0 {
                let nodes = &mut self.players[seat as usize].nodes;
                let at = nodes.partition_point(|&m| m < n);
                nodes.insert(at, n);
            }
            self.touch[n as usize] |= bit;
            if let Some(v) = self.rail.vertex_of(n) {
                self.touched.insert(v);
            }
        }
        self.union(a, b);
    }

    /// Rebuilds the derived tables from the pieces.
    pub fn rebuild(&mut self) {
        let order: Vec<(u8, Vec<Stretch>, Vec<Stretch>)> = self
            .players
            .iter()
            .enumerate()
            .map(|(s, p)| (s as u8, p.lines.clone(), p.ferries.clone()))
            .collect();
        self.owners = vec![0; self.rail.stretches()];
        self.touch = vec![0; self.rail.nodes];
        self.touched = Bits::EMPTY;
        self.parent = (0..self.rail.nodes as Node).collect();
        for p in &mut self.players {
            p.lines.clear();
            p.ferries.clear();
            p.nodes.clear();
        }
        for (seat, lines, ferries) in order {
            for s in lines.into_iter().chain(ferries) {
                self.lay(seat, s);
            }
        }
    }
}

// ---- The state file ------------------------------------------------------------------

/// The Express part of the state file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpressFile {
    pub railways: BTreeMap<Colour, RailwayFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<RaceFile>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RailwayFile {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ferries: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locomotive: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<usize>,
    #[serde(default)]
    pub chips: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceFile {
    pub starter: Colour,
    #[serde(default)]
    pub stopovers: Vec<StopoverFile>,
    #[serde(default)]
    pub chosen_in: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Colour>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lapsed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopoverFile {
    pub at: usize,
    pub chosen_by: Colour,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub collected: Vec<Colour>,
}

/// The Express step of a turn as written in the state file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "express", deny_unknown_fields)]
pub enum StepFile {
    Stopover {
        seat: Colour,
        round: u8,
        then: Resume,
    },
    Moving {
        left: u8,
    },
}

/// Why the Catan Express part of a state file does not read: a colour not in the game,
/// or a piece, a locomotive or a stopover where none can be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExpressFileError {
    #[error(transparent)]
    NotPlaying(#[from] NotPlaying),
    #[error("{colour}: `{name}` is not a place for a {}", kind.name())]
    NoPlace {
        colour: Colour,
        name: String,
        kind: Kind,
    },
    #[error("{colour} has two pieces on {name}")]
    TwoPieces { colour: Colour, name: String },
    #[error("{colour}'s locomotive is at `{at}`, not a place")]
    Locomotive { colour: Colour, at: String },
    #[error("{colour} starts at {at}, not a vertex")]
    Start { colour: Colour, at: usize },
    #[error("stopover {0} is not a vertex")]
    Stopover(usize),
}

impl Express {
    pub fn to_file(&self, board: &Board, colours: &[Colour]) -> ExpressFile {
        let t = &board.topology;
        let r = &self.rail;
        let names = |v: &[Stretch]| v.iter().map(|&s| r.stretch_name(t, s)).collect();
        ExpressFile {
            railways: self
                .players
                .iter()
                .zip(colours)
                .map(|(p, &c)| {
                    (
                        c,
                        RailwayFile {
                            lines: names(&p.lines),
                            ferries: names(&p.ferries),
                            locomotive: p.locomotive.map(|n| r.node_name(t, n)),
                            start: p.start.map(|v| v + 1),
                            chips: p.chips,
                        },
                    )
                })
                .collect(),
            race: self.race.as_ref().map(|race| RaceFile {
                starter: colours[race.starter as usize],
                stopovers: race
                    .stopovers
                    .iter()
                    .map(|st| StopoverFile {
                        at: st.vertex + 1,
                        chosen_by: colours[st.chosen_by as usize],
                        collected: (0..colours.len())
                            .filter(|&s| st.collected & (1 << s) != 0)
                            .map(|s| colours[s])
                            .collect(),
                    })
                    .collect(),
                chosen_in: race.chosen_in,
                winner: race.winner.map(|w| colours[w as usize]),
                lapsed: race.lapsed,
            }),
        }
    }

    pub fn from_file(
        f: &ExpressFile,
        board: &Board,
        map: Map,
        colours: &[Colour],
    ) -> Result<Express, ExpressFileError> {
        let mut x = Express::new(board, map, colours.len());
        let t = &board.topology;
        let seat = |c: &Colour| {
            colours
                .iter()
                .position(|x| x == c)
                .map(|s| s as u8)
                .ok_or(NotPlaying(*c))
        };
        let rail = x.rail.clone();
        for (c, rf) in &f.railways {
            let s = seat(c)?;
            let p = &mut x.players[s as usize];
            for (names, kind, list) in [
                (&rf.lines, Kind::Line, &mut p.lines),
                (&rf.ferries, Kind::Ferry, &mut p.ferries),
            ] {
                for n in names {
                    let st = rail
                        .parse_stretch(t, n)
                        .filter(|&st| rail.kind(st) == Some(kind))
                        .ok_or_else(|| ExpressFileError::NoPlace {
                            colour: *c,
                            name: n.clone(),
                            kind,
                        })?;
                    if list.contains(&st) {
                        return Err(ExpressFileError::TwoPieces {
                            colour: *c,
                            name: n.clone(),
                        });
                    }
                    list.push(st);
                }
            }
            p.locomotive = match &rf.locomotive {
                Some(n) => {
                    Some(
                        rail.parse_node(t, n)
                            .ok_or_else(|| ExpressFileError::Locomotive {
                                colour: *c,
                                at: n.clone(),
                            })?,
                    )
                }
                None => None,
            };
            p.start = match rf.start {
                Some(v) => Some(
                    t.parse_vertex(&v.to_string())
                        .ok_or(ExpressFileError::Start { colour: *c, at: v })?,
                ),
                None => None,
            };
            p.chips = rf.chips;
        }
        if let Some(rf) = &f.race {
            let mut stopovers = Vec::new();
            for st in &rf.stopovers {
                let vertex = t
                    .parse_vertex(&st.at.to_string())
                    .ok_or(ExpressFileError::Stopover(st.at))?;
                let mut collected = 0u8;
                for c in &st.collected {
                    collected |= 1 << seat(c)?;
                }
                stopovers.push(Stopover {
                    vertex,
                    chosen_by: seat(&st.chosen_by)?,
                    collected,
                });
            }
            x.race = Some(Race {
                starter: seat(&rf.starter)?,
                stopovers,
                chosen_in: rf.chosen_in,
                winner: rf.winner.as_ref().map(seat).transpose()?,
                lapsed: rf.lapsed,
            });
        }
        x.rebuild();
        Ok(x)
    }
}
