//! Buildings: primary and secondary producers, and what a scenario records of them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::map::{AreaId, Terrain};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BuildingKind {
    Woodcutter,
    Quarry,
    ClayPit,
    Mine,
    OilRig,
    Sawmill,
    CoalBurner,
    PaperMill,
    StoneFactory,
    Mint,
    StockExchange,
    WagonFactory,
    TruckFactory,
    RaftFactory,
    RowboatFactory,
    SteamerFactory,
    Airport,
    BombFactory,
}

impl BuildingKind {
    pub const ALL: [BuildingKind; 18] = [
        BuildingKind::Woodcutter,
        BuildingKind::Quarry,
        BuildingKind::ClayPit,
        BuildingKind::Mine,
        BuildingKind::OilRig,
        BuildingKind::Sawmill,
        BuildingKind::CoalBurner,
        BuildingKind::PaperMill,
        BuildingKind::StoneFactory,
        BuildingKind::Mint,
        BuildingKind::StockExchange,
        BuildingKind::WagonFactory,
        BuildingKind::TruckFactory,
        BuildingKind::RaftFactory,
        BuildingKind::RowboatFactory,
        BuildingKind::SteamerFactory,
        BuildingKind::Airport,
        BuildingKind::BombFactory,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BuildingKind::Woodcutter => "woodcutter",
            BuildingKind::Quarry => "quarry",
            BuildingKind::ClayPit => "clay-pit",
            BuildingKind::Mine => "mine",
            BuildingKind::OilRig => "oil-rig",
            BuildingKind::Sawmill => "sawmill",
            BuildingKind::CoalBurner => "coal-burner",
            BuildingKind::PaperMill => "paper-mill",
            BuildingKind::StoneFactory => "stone-factory",
            BuildingKind::Mint => "mint",
            BuildingKind::StockExchange => "stock-exchange",
            BuildingKind::WagonFactory => "wagon-factory",
            BuildingKind::TruckFactory => "truck-factory",
            BuildingKind::RaftFactory => "raft-factory",
            BuildingKind::RowboatFactory => "rowboat-factory",
            BuildingKind::SteamerFactory => "steamer-factory",
            BuildingKind::Airport => "airport",
            BuildingKind::BombFactory => "bomb-factory",
        }
    }

    /// Where it may stand (Quick Guide VI and VII; rulebook p.12).
    pub fn site(self) -> Site {
        match self {
            BuildingKind::Woodcutter => Site::Terrain(Terrain::Woods),
            BuildingKind::Quarry => Site::Terrain(Terrain::Rock),
            BuildingKind::Mine => Site::Terrain(Terrain::Mountain),
            BuildingKind::OilRig => Site::Terrain(Terrain::Sea),
            BuildingKind::ClayPit
            | BuildingKind::RaftFactory
            | BuildingKind::RowboatFactory
            | BuildingKind::SteamerFactory => Site::Shore,
            _ => Site::AnyLand,
        }
    }
}

/// The kind of tile a building needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    Terrain(Terrain),
    /// A tile with a river or next to the sea.
    Shore,
    /// Any land tile (but not desert before irrigation).
    AnyLand,
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Site::Terrain(t) => write!(f, "{t}"),
            Site::Shore => f.write_str("a shore (a tile with a river or next to the sea)"),
            Site::AnyLand => f.write_str("land"),
        }
    }
}

impl fmt::Display for BuildingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BuildingKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let norm = s.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        let norm = match norm.as_str() {
            "papermill" => "paper-mill",
            "clay-digger" | "claypit" => "clay-pit",
            "oilrig" => "oil-rig",
            "steamship-factory" => "steamer-factory",
            other => other,
        }
        .to_string();
        BuildingKind::ALL
            .into_iter()
            .find(|k| k.name() == norm)
            .ok_or_else(|| format!("`{}` is not a building", s.trim()))
    }
}

/// What a mine still holds (RULINGS R4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MineBag {
    pub gold: u32,
    pub iron: u32,
}

impl MineBag {
    /// The ordinary mixture a new mine or shaft adds: 3 gold and 3 iron.
    pub const ORDINARY: MineBag = MineBag { gold: 3, iron: 3 };
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Building {
    pub kind: BuildingKind,
    pub at: AreaId,
    /// A mine's contents; `None` for every other building.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mine: Option<MineBag>,
    /// Output already made this production phase, against the building's capacity.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub used: u32,
    #[serde(default, skip_serializing_if = "is_false")]
    pub bomb_proof: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}
