//! The state of a game: board, pieces, hands, bank, deck, whose turn and what step of
//! it, the random stream, and each player's orders on record. It is written to the
//! archive as readable, stable JSON (vertex numbers, edge names, hex letters, colours)
//! and read back exactly: everything else is derived again on reading.

use serde::{Deserialize, Serialize};

use super::bits::Bits;
use super::board::layout::Layout;
use super::board::{Board, EdgeId, HexId, VertexId};
use super::cards::{Cards, DevCard, DevCards};
use super::colour::Colour;
use super::orders::Record;
use super::scenario::Variant;
use judge_core::luck::Luck;

/// A colour named in a state file whose player is not in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} does not play in this game")]
pub struct NotPlaying(pub Colour);

/// What a game is set up with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    #[serde(default)]
    pub layout: Layout,
    /// The 5–6 player extension: the larger board, more cards, the special building
    /// phase. Needed for five or six players.
    #[serde(default)]
    pub extension: bool,
    /// Points that win (10 in the standard rules).
    #[serde(default = "ten")]
    pub points_to_win: u8,
    #[serde(default)]
    pub variant: Variant,
}

fn ten() -> u8 {
    10
}

impl Default for Options {
    fn default() -> Options {
        Options {
            layout: Layout::Beginner,
            extension: false,
            points_to_win: 10,
            variant: Variant::Base,
        }
    }
}

/// One player's pieces and cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub colour: Colour,
    pub name: String,
    pub hand: Cards,
    /// Development cards held since before this turn (playable).
    pub devs: DevCards,
    /// Bought this turn: not playable until a later turn.
    pub new_devs: DevCards,
    /// Cards played (knights stay in front of the player).
    pub played: DevCards,
    pub settlements: Bits,
    pub cities: Bits,
    pub roads: Bits,
    /// Vertices at the ends of the player's roads.
    pub road_ends: Bits,
    /// Harbours reached (bits of [`crate::board::Harbour::bit`]).
    pub harbours: u8,
    /// Longest trail of the player's roads.
    pub road_length: u8,
}

impl Player {
    pub fn new(colour: Colour, name: String) -> Player {
        Player {
            colour,
            name,
            hand: Cards::NONE,
            devs: DevCards::default(),
            new_devs: DevCards::default(),
            played: DevCards::default(),
            settlements: Bits::EMPTY,
            cities: Bits::EMPTY,
            roads: Bits::EMPTY,
            road_ends: Bits::EMPTY,
            harbours: 0,
            road_length: 0,
        }
    }

    pub fn knights(&self) -> u8 {
        self.played.get(DevCard::Knight)
    }

    pub fn buildings(&self) -> Bits {
        self.settlements.or(self.cities)
    }

    /// Hidden victory point cards (held, old or new).
    pub fn vp_cards(&self) -> u8 {
        self.devs.get(DevCard::VictoryPoint) + self.new_devs.get(DevCard::VictoryPoint)
    }

    pub fn dev_count(&self) -> u32 {
        self.devs.total() + self.new_devs.total()
    }
}

/// Where a turn resumes after the robber or road building.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Resume {
    BeforeRoll,
    Main,
}

/// The step of the game: what the next action must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "step")]
pub enum Phase {
    /// Founding placement `index` (0 to 2n−1, snake order); `settlement` once placed and
    /// its road is due.
    Founding {
        index: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        settlement: Option<VertexId>,
    },
    /// The active player may play a development card, then rolls.
    BeforeRoll,
    /// A 7 was rolled: these players still owe cards (by seat).
    Discard { owed: [u8; 6] },
    /// The robber must move (after a 7 or a knight).
    Robber { then: Resume },
    /// After the roll: trade, build, buy, play; then end the turn.
    Main,
    /// Free roads from a Road Building card.
    RoadBuilding { left: u8, then: Resume },
    /// 5–6 players: after a turn, this seat may build and buy.
    SpecialBuild { seat: u8 },
    /// A step of the scenario's own (Catan Express: choosing stopovers, moving the
    /// locomotive).
    Scenario(super::scenario::Step),
    /// Someone has won.
    Over,
}

/// The state of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub name: String,
    pub options: Options,
    pub board: Board,
    pub players: Vec<Player>,
    /// The seat who began; turns go round in seat order from there.
    pub first: u8,
    pub active: u8,
    pub phase: Phase,
    /// The dice of this turn, once rolled.
    pub dice: Option<[u8; 2]>,
    /// A development card was played this turn.
    pub dev_played: bool,
    /// Turns begun since the founding (1 = the first player's first turn).
    pub turn: u32,
    /// Plays of the judge so far (each founding placement or turn is one).
    pub step: u32,
    pub bank: Cards,
    /// The development deck, drawn from the end.
    pub deck: Vec<DevCard>,
    pub robber: HexId,
    pub longest_road: Option<u8>,
    pub largest_army: Option<u8>,
    pub winner: Option<u8>,
    /// The game's secret seed (never written into the state file): the pipeline hands
    /// it to [`crate::play`] with each step. Dice, steals and the deck come from
    /// its streams (`judge_core::luck`).
    pub luck: Luck,
    /// Cards stolen so far this turn (each steal is its own draw of the steal stream).
    pub steals: u8,
    /// Dice to use before the random stream (for adjudication cases).
    pub loaded_dice: Vec<[u8; 2]>,
    /// Each player's orders on record (play by email).
    pub records: Vec<Record>,
    // Derived tables (rebuilt on reading a state file).
    /// Per vertex: the seat whose building stands there, or [`NOBODY`].
    pub vertex_owner: Vec<u8>,
    /// Per edge: the seat whose road runs there, or [`NOBODY`].
    pub edge_owner: Vec<u8>,
    pub occupied: Bits,
    /// Occupied or next to a building: no settlement may go here.
    pub blocked: Bits,
    pub all_roads: Bits,
    /// The scenario's own state (Catan Express: railways and the race).
    pub scenario: super::scenario::Extra,
}

pub const NOBODY: u8 = u8::MAX;

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl State {
    pub fn seats(&self) -> usize {
        self.players.len()
    }

    /// Seats in turn order starting after `seat`.
    pub fn after(&self, seat: u8) -> impl Iterator<Item = u8> + '_ {
        let n = self.players.len() as u8;
        (1..n).map(move |k| (seat + k) % n)
    }

    /// Seats in turn order starting with `seat` (borrows nothing).
    pub fn from_seat(&self, seat: u8) -> impl Iterator<Item = u8> + use<> {
        let n = self.players.len() as u8;
        (0..n).map(move |k| (seat + k) % n)
    }

    pub fn next_seat(&self, seat: u8) -> u8 {
        (seat + 1) % self.players.len() as u8
    }

    pub fn colour(&self, seat: u8) -> Colour {
        self.players[seat as usize].colour
    }

    pub fn seat_of(&self, c: Colour) -> Option<u8> {
        self.players
            .iter()
            .position(|p| p.colour == c)
            .map(|s| s as u8)
    }

    /// Who is to act next in the rules' sense (founding placer, discarding player, the
    /// active player, or the seat in its special building phase).
    pub fn actor(&self) -> u8 {
        match self.phase {
            Phase::Founding { index, .. } => self.founding_seat(index),
            Phase::Discard { owed } => std::iter::once(self.active)
                .chain(self.after(self.active))
                .find(|&s| owed[s as usize] > 0)
                .unwrap_or(self.active),
            Phase::SpecialBuild { seat } => seat,
            Phase::Scenario(step) => super::scenario::actor(self, step),
            _ => self.active,
        }
    }

    /// The seat placing at founding step `index`: first to last, then back.
    pub fn founding_seat(&self, index: u8) -> u8 {
        let n = self.players.len() as u8;
        let k = if index < n { index } else { 2 * n - 1 - index };
        (self.first + k) % n
    }

    /// Points everyone can see: buildings, longest road, largest army, victory point
    /// cards already shown, and what a scenario adds.
    pub fn public_points(&self, seat: u8) -> u8 {
        let p = &self.players[seat as usize];
        let mut v = p.settlements.len() as u8
            + 2 * p.cities.len() as u8
            + p.played.get(super::cards::DevCard::VictoryPoint);
        if self.longest_road == Some(seat) && super::scenario::uses_longest_road(self) {
            v += 2;
        }
        if self.largest_army == Some(seat) {
            v += 2;
        }
        v + super::scenario::extra_points(self, seat)
    }

    /// Points including hidden victory point cards.
    pub fn points(&self, seat: u8) -> u8 {
        self.public_points(seat) + self.players[seat as usize].vp_cards()
    }

    pub fn rebuild_derived(&mut self) {
        let t = &self.board.topology;
        self.vertex_owner = vec![NOBODY; t.vertices.len()];
        self.edge_owner = vec![NOBODY; t.edges.len()];
        self.occupied = Bits::EMPTY;
        self.blocked = Bits::EMPTY;
        self.all_roads = Bits::EMPTY;
        for (s, p) in self.players.iter_mut().enumerate() {
            p.road_ends = Bits::EMPTY;
            p.harbours = 0;
            for v in p.settlements.or(p.cities).iter() {
                self.vertex_owner[v] = s as u8;
                self.occupied.insert(v);
                self.blocked.insert(v);
                self.blocked = self.blocked.or(t.vertex_neighbours[v]);
                if let Some(h) = self.board.vertex_harbour[v] {
                    p.harbours |= h.bit();
                }
            }
            for e in p.roads.iter() {
                self.edge_owner[e] = s as u8;
                self.all_roads.insert(e);
                for v in t.edges[e].ends {
                    p.road_ends.insert(v);
                }
            }
        }
        for s in 0..self.players.len() {
            self.players[s].road_length = super::rules::longest_road::length(self, s as u8);
        }
        if let Some(x) = self.scenario.as_deref_mut() {
            x.rebuild();
        }
    }

    pub fn vertex_name(&self, v: VertexId) -> String {
        self.board.topology.vertex_name(v)
    }

    pub fn edge_name(&self, e: EdgeId) -> String {
        self.board.topology.edge_name(e)
    }

    pub fn hex_name(&self, h: HexId) -> &str {
        self.board.topology.hex_name(h)
    }
}

// ---- The state file -------------------------------------------------------------

/// The state as written. The state file has each player's hand and development cards
/// and the deck in full ([`PlayerFile`], `Vec<DevCard>`); the public record has only
/// how many ([`PublicPlayerFile`], a count).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateFile<P = PlayerFile, D = Vec<DevCard>> {
    game: String,
    name: String,
    options: Options,
    board: Board,
    players: Vec<P>,
    first: Colour,
    active: Colour,
    phase: PhaseFile,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dice: Option<[u8; 2]>,
    #[serde(default)]
    dev_played: bool,
    turn: u32,
    step: u32,
    bank: Cards,
    deck: D,
    robber: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    longest_road: Option<Colour>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    largest_army: Option<Colour>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    winner: Option<Colour>,
    #[serde(default, skip_serializing_if = "is_zero")]
    steals: u8,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    loaded_dice: Vec<[u8; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    express: Option<super::scenario::ExtraFile>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    colour: Colour,
    name: String,
    hand: Cards,
    development: DevCards,
    #[serde(default)]
    new_development: DevCards,
    #[serde(default)]
    played: DevCards,
    settlements: Vec<usize>,
    cities: Vec<usize>,
    roads: Vec<String>,
    #[serde(default)]
    record: Record,
}

/// A player in the public record: how many cards they hold, not which.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PublicPlayerFile {
    colour: Colour,
    name: String,
    /// Resource cards in hand.
    cards: u32,
    /// Development cards held, playable or bought this turn.
    development_cards: u32,
    played: DevCards,
    settlements: Vec<usize>,
    cities: Vec<usize>,
    roads: Vec<String>,
}

/// The `game` of a public record.
const PUBLIC_GAME: &str = "catan-public-record";

/// The phase as written: vertices by number, seats by colour.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "step", deny_unknown_fields)]
enum PhaseFile {
    Founding {
        index: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        settlement: Option<usize>,
    },
    BeforeRoll,
    Discard {
        owed: std::collections::BTreeMap<Colour, u8>,
    },
    Robber {
        then: Resume,
    },
    Main,
    RoadBuilding {
        left: u8,
        then: Resume,
    },
    SpecialBuild {
        seat: Colour,
    },
    Scenario(super::scenario::StepFile),
    Over,
}

impl Serialize for State {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.file().serialize(s)
    }
}

impl State {
    fn file(&self) -> StateFile {
        let t = &self.board.topology;
        let c = |seat: u8| self.colour(seat);
        let phase = match self.phase {
            Phase::Founding { index, settlement } => PhaseFile::Founding {
                index,
                settlement: settlement.map(|v| v + 1),
            },
            Phase::BeforeRoll => PhaseFile::BeforeRoll,
            Phase::Discard { owed } => PhaseFile::Discard {
                owed: (0..self.players.len())
                    .filter(|&i| owed[i] > 0)
                    .map(|i| (c(i as u8), owed[i]))
                    .collect(),
            },
            Phase::Robber { then } => PhaseFile::Robber { then },
            Phase::Main => PhaseFile::Main,
            Phase::RoadBuilding { left, then } => PhaseFile::RoadBuilding { left, then },
            Phase::SpecialBuild { seat } => PhaseFile::SpecialBuild { seat: c(seat) },
            Phase::Scenario(step) => PhaseFile::Scenario(step.to_file(&c)),
            Phase::Over => PhaseFile::Over,
        };
        let colours: Vec<Colour> = self.players.iter().map(|p| p.colour).collect();
        StateFile {
            game: "catan".into(),
            name: self.name.clone(),
            options: self.options.clone(),
            board: self.board.clone(),
            players: self
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| PlayerFile {
                    colour: p.colour,
                    name: p.name.clone(),
                    hand: p.hand,
                    development: p.devs,
                    new_development: p.new_devs,
                    played: p.played,
                    settlements: p.settlements.iter().map(|v| v + 1).collect(),
                    cities: p.cities.iter().map(|v| v + 1).collect(),
                    roads: p.roads.iter().map(|e| t.edge_name(e)).collect(),
                    record: self.records.get(i).cloned().unwrap_or_default(),
                })
                .collect(),
            first: c(self.first),
            active: c(self.active),
            phase,
            dice: self.dice,
            dev_played: self.dev_played,
            turn: self.turn,
            step: self.step,
            bank: self.bank,
            deck: self.deck.clone(),
            robber: t.hex_name(self.robber).to_string(),
            longest_road: self.longest_road.map(c),
            largest_army: self.largest_army.map(c),
            winner: self.winner.map(c),
            steals: self.steals,
            loaded_dice: self.loaded_dice.clone(),
            express: self
                .scenario
                .as_deref()
                .map(|x| x.to_file(&self.board, &colours)),
        }
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<State, D::Error> {
        use serde::de::Error;
        let f = StateFile::deserialize(d)?;
        if f.game != "catan" {
            return Err(D::Error::custom(format!("not a Catan state: `{}`", f.game)));
        }
        State::from_file(f).map_err(D::Error::custom)
    }
}

/// Why a state file (or a public record) does not read as a position: written by the
/// judge, so the archive is damaged or was edited by hand.
#[derive(Debug, thiserror::Error)]
pub enum StateFileError {
    /// Not the JSON of a state file.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("not the public record of a Catan game: `game` is `{0}`")]
    NotPublic(String),
    #[error("{0} players: a game has 2 to 6")]
    Players(usize),
    #[error(transparent)]
    NotPlaying(#[from] NotPlaying),
    #[error("there is no land vertex {0}")]
    NoLandVertex(usize),
    #[error("there is no land edge {0}")]
    NoLandEdge(String),
    #[error("the robber is on `{0}`, not a land hex")]
    Robber(String),
    #[error(transparent)]
    Express(#[from] super::scenario::ExtraFileError),
    #[error("a base game has no Catan Express part")]
    ExpressInBase,
}

impl State {
    fn from_file(f: StateFile) -> Result<State, StateFileError> {
        let t = f.board.topology.clone();
        let n = f.players.len();
        if !(2..=6).contains(&n) {
            return Err(StateFileError::Players(n));
        }
        let seat_of = |c: Colour| {
            f.players
                .iter()
                .position(|p| p.colour == c)
                .map(|s| s as u8)
                .ok_or(NotPlaying(c))
        };
        let vertex = |v: usize| {
            (v >= 1 && v <= t.vertices.len() && t.vertices[v - 1].land)
                .then(|| v - 1)
                .ok_or(StateFileError::NoLandVertex(v))
        };
        let mut players = Vec::new();
        let mut records = Vec::new();
        for p in &f.players {
            let mut pl = Player::new(p.colour, p.name.clone());
            pl.hand = p.hand;
            pl.devs = p.development;
            pl.new_devs = p.new_development;
            pl.played = p.played;
            for &v in &p.settlements {
                pl.settlements.insert(vertex(v)?);
            }
            for &v in &p.cities {
                pl.cities.insert(vertex(v)?);
            }
            for e in &p.roads {
                let id = t
                    .parse_edge(e)
                    .filter(|&id| t.edges[id].land)
                    .ok_or_else(|| StateFileError::NoLandEdge(e.clone()))?;
                pl.roads.insert(id);
            }
            players.push(pl);
            records.push(p.record.clone());
        }
        let phase = match f.phase {
            PhaseFile::Founding { index, settlement } => Phase::Founding {
                index,
                settlement: settlement.map(vertex).transpose()?,
            },
            PhaseFile::BeforeRoll => Phase::BeforeRoll,
            PhaseFile::Discard { owed } => {
                let mut o = [0u8; 6];
                for (c, k) in owed {
                    o[seat_of(c)? as usize] = k;
                }
                Phase::Discard { owed: o }
            }
            PhaseFile::Robber { then } => Phase::Robber { then },
            PhaseFile::Main => Phase::Main,
            PhaseFile::RoadBuilding { left, then } => Phase::RoadBuilding { left, then },
            PhaseFile::SpecialBuild { seat } => Phase::SpecialBuild {
                seat: seat_of(seat)?,
            },
            PhaseFile::Scenario(step) => Phase::Scenario(step.to_step(&seat_of)?),
            PhaseFile::Over => Phase::Over,
        };
        let robber = t
            .parse_hex(&f.robber)
            .filter(|&h| t.hexes[h].land)
            .ok_or_else(|| StateFileError::Robber(f.robber.clone()))?;
        let colours: Vec<Colour> = f.players.iter().map(|p| p.colour).collect();
        let scenario = match (f.options.variant, &f.express) {
            (super::scenario::Variant::Base, None) => None,
            (super::scenario::Variant::Express(map), Some(x)) => Some(Box::new(
                super::scenario::from_file(x, &f.board, map, &colours)?,
            )),
            (super::scenario::Variant::Express(map), None) => Some(Box::new(
                super::scenario::new_extra(&f.board, map, colours.len()),
            )),
            (super::scenario::Variant::Base, Some(_)) => {
                return Err(StateFileError::ExpressInBase);
            }
        };
        let mut s = State {
            name: f.name,
            options: f.options,
            board: f.board,
            players,
            first: seat_of(f.first)?,
            active: seat_of(f.active)?,
            phase,
            dice: f.dice,
            dev_played: f.dev_played,
            turn: f.turn,
            step: f.step,
            bank: f.bank,
            deck: f.deck,
            robber,
            longest_road: f.longest_road.map(seat_of).transpose()?,
            largest_army: f.largest_army.map(seat_of).transpose()?,
            winner: f.winner.map(seat_of).transpose()?,
            luck: Luck::predictable(0),
            steals: f.steals,
            loaded_dice: f.loaded_dice,
            records,
            vertex_owner: Vec::new(),
            edge_owner: Vec::new(),
            occupied: Bits::EMPTY,
            blocked: Bits::EMPTY,
            all_roads: Bits::EMPTY,
            scenario,
        };
        s.rebuild_derived();
        Ok(s)
    }

    /// The state as the archive keeps it: pretty, stable JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<State, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The position as everyone may know it, for the public record a game's git keeps
    /// (`turns/N/public.json`): the state file with each player's hand and development
    /// cards, and the deck, given only as counts, and no player's orders on record.
    pub fn public_json(&self) -> String {
        let f = self.file();
        let public = StateFile {
            game: PUBLIC_GAME.into(),
            name: f.name,
            options: f.options,
            board: f.board,
            players: f
                .players
                .into_iter()
                .map(|p| PublicPlayerFile {
                    colour: p.colour,
                    name: p.name,
                    cards: p.hand.total(),
                    development_cards: p.development.total() + p.new_development.total(),
                    played: p.played,
                    settlements: p.settlements,
                    cities: p.cities,
                    roads: p.roads,
                })
                .collect(),
            first: f.first,
            active: f.active,
            phase: f.phase,
            dice: f.dice,
            dev_played: f.dev_played,
            turn: f.turn,
            step: f.step,
            bank: f.bank,
            deck: f.deck.len(),
            robber: f.robber,
            longest_road: f.longest_road,
            largest_army: f.largest_army,
            winner: f.winner,
            steals: f.steals,
            // Dice loaded for an adjudication case are rolls to come: not public.
            loaded_dice: Vec::new(),
            express: f.express,
        };
        serde_json::to_string_pretty(&public).unwrap_or_default()
    }

    /// Read a public record back: the position with every hand and the deck empty
    /// (they are not in it), which is all `judge check` needs (it never looks at cards
    /// in hand; tests/catan/public_check.rs proves the checks agree).
    pub fn from_public_json(text: &str) -> Result<State, StateFileError> {
        let f: StateFile<PublicPlayerFile, usize> = serde_json::from_str(text)?;
        if f.game != PUBLIC_GAME {
            return Err(StateFileError::NotPublic(f.game));
        }
        State::from_file(StateFile {
            game: "catan".into(),
            name: f.name,
            options: f.options,
            board: f.board,
            players: f
                .players
                .into_iter()
                .map(|p| PlayerFile {
                    colour: p.colour,
                    name: p.name,
                    hand: Cards::NONE,
                    development: DevCards::default(),
                    new_development: DevCards::default(),
                    played: p.played,
                    settlements: p.settlements,
                    cities: p.cities,
                    roads: p.roads,
                    record: Record::default(),
                })
                .collect(),
            first: f.first,
            active: f.active,
            phase: f.phase,
            dice: f.dice,
            dev_played: f.dev_played,
            turn: f.turn,
            step: f.step,
            bank: f.bank,
            deck: Vec::new(),
            robber: f.robber,
            longest_road: f.longest_road,
            largest_army: f.largest_army,
            winner: f.winner,
            steals: f.steals,
            loaded_dice: f.loaded_dice,
            express: f.express,
        })
    }
}
