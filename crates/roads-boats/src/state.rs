//! The whole state of a Roads & Boats game between two phases.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::building::Building;
use super::goods::Goods;
use super::map::{AreaId, Hex, Map, Terrain};
use super::player::{Colour, Player};
use super::transporter::{Class, Kind, Location, Transporter, TransporterId};
use super::wonder::Wonder;

/// The four phases of a turn (RULINGS R1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Production,
    Movement,
    Building,
    Wonder,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Production => "production",
            Phase::Movement => "movement",
            Phase::Building => "building",
            Phase::Wonder => "wonder",
        })
    }
}

/// Optional rules: the modules' closed set, named where they are registered
/// (`modules/mod.rs`).
pub use super::modules::Module;

/// How a mine chooses what it yields (RULINGS R4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MineDraw {
    /// The Quick Guide's rule: whichever it holds more of, gold on a tie.
    #[default]
    Most,
    /// A random counter from the bag, drawn with the game's seeded generator.
    Random,
}

/// When the game ends (RULINGS R7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndConditions {
    /// The wonder place (1-based) whose brick ends the game; `None` for no mark.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wonder_brick: Option<u32>,
    /// The number of neutral bricks that ends the game (33 in the boxed game).
    pub neutral_bricks: u32,
    /// The last turn, when a scenario limits the number of turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
}

impl EndConditions {
    /// The mark for a player count: brick 62 (2), 66 (3), 69 (4), 76 (5), 83 (6).
    pub fn wonder_mark(players: usize) -> Option<u32> {
        match players {
            2 => Some(62),
            3 => Some(66),
            4 => Some(69),
            5 => Some(76),
            6 => Some(83),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    #[serde(default)]
    pub modules: BTreeSet<Module>,
    #[serde(default)]
    pub mine_draw: MineDraw,
    pub end: EndConditions,
}

/// Everything about a game that the rules read and write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The scenario this game was made from.
    pub scenario: String,
    /// How many turns have been played: 0 at the set-up. The next turn is `turn + 1`.
    pub turn: u32,
    /// The next phase to resolve.
    pub phase: Phase,
    pub settings: Settings,
    pub map: Map,
    pub players: BTreeMap<Colour, Player>,
    /// Who acts first in each phase, second, …
    pub move_order: Vec<Colour>,
    /// Goods lying in land areas, and on oil rigs (the area of a sea tile).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub goods: BTreeMap<AreaId, Goods>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub transporters: BTreeMap<TransporterId, Transporter>,
    /// The last number given to each kind of transporter, so ids are never reused.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub last_ids: BTreeMap<Kind, u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buildings: Vec<Building>,
    pub wonder: Wonder,
    /// Jumpstart: each player's winning bid, taken from the final score.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bids: crate::modules::jumpstart::Bids,
    /// Art: the exhibitions shown so far, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shows: Vec<crate::modules::art::Show>,
    /// Set when the game has ended, with why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_over: Option<String>,
}

/// Art's exhibitions, defined in its own file (`State::shows`); named here too for the
/// tests and the scenario reader.
pub use crate::modules::art::Show;

/// The first transporter limit a fleet of (land, water, air, all) breaks, as (count,
/// limit, what): at most 5 land, 5 water, 3 planes and 8 in all (RULINGS R4).
pub fn broken_limit(fleet: (usize, usize, usize, usize)) -> Option<(usize, usize, &'static str)> {
    let (land, water, air, all) = fleet;
    [
        (land, 5, "land transporters"),
        (water, 5, "water transporters"),
        (air, 3, "planes"),
        (all, 8, "transporters"),
    ]
    .into_iter()
    .find(|(n, max, _)| n > max)
}

/// At most 3 exhibition caravans a player (&cetera, art).
pub const CARAVAN_LIMIT: usize = 3;

impl State {
    /// The first transporter limit a player breaks (RULINGS R4; &cetera, art: at most 3
    /// exhibition caravans).
    pub fn limit_broken(&self, player: Colour) -> Option<(usize, usize, &'static str)> {
        broken_limit(self.fleet(player)).or_else(|| {
            let caravans = self
                .transporters_of(player)
                .filter(|(_, t)| t.kind == Kind::Caravan)
                .count();
            (caravans > CARAVAN_LIMIT).then_some((caravans, CARAVAN_LIMIT, "exhibition caravans"))
        })
    }

    /// A fresh id for a new transporter of `kind`.
    pub fn next_id(&mut self, kind: Kind) -> TransporterId {
        let n = self.last_ids.entry(kind).or_insert(0);
        *n += 1;
        TransporterId { kind, number: *n }
    }

    pub fn goods_at(&self, area: AreaId) -> Option<&Goods> {
        self.goods.get(&area)
    }

    pub fn buildings_on(&self, hex: Hex) -> impl Iterator<Item = &Building> {
        self.buildings.iter().filter(move |b| b.at.hex == hex)
    }

    pub fn transporters_of(
        &self,
        player: Colour,
    ) -> impl Iterator<Item = (&TransporterId, &Transporter)> {
        self.transporters
            .iter()
            .filter(move |(_, t)| t.owner == player)
    }

    /// How many transporters of each class a player has: (land, water, air, all).
    pub fn fleet(&self, player: Colour) -> (usize, usize, usize, usize) {
        let mut counts = (0, 0, 0, 0);
        for (_, t) in self.transporters_of(player) {
            // An exhibition caravan counts toward the 8 only (&cetera, art).
            match t.kind.class() {
                _ if t.kind == Kind::Caravan => {}
                Class::Land => counts.0 += 1,
                Class::Water => counts.1 += 1,
                Class::Air => counts.2 += 1,
            }
            counts.3 += 1;
        }
        counts
    }

    /// The tile a transporter is on, following carriers.
    pub fn tile_of(&self, id: TransporterId) -> Option<Hex> {
        let mut at = self.transporters.get(&id)?.at;
        for _ in 0..self.transporters.len() {
            match at {
                Location::Carried(c) => at = self.transporters.get(&c)?.at,
                other => return other.hex(),
            }
        }
        None
    }

    /// The terrain of a tile as it is now: after irrigation (brick 45) a desert is
    /// pasture, in every rule and every message (RULINGS R3; Quick Guide Id).
    pub fn terrain_now(&self, hex: Hex) -> Option<Terrain> {
        match self.map.terrain(hex)? {
            Terrain::Desert if self.wonder.irrigated() => Some(Terrain::Pasture),
            t => Some(t),
        }
    }

    /// Keep derived orderings canonical, so equal states serialise alike.
    pub fn normalise(&mut self) {
        self.goods.retain(|_, g| !g.is_empty());
        self.buildings.sort_by_key(|b| (b.at, b.kind));
    }
}
