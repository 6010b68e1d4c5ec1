//! Buildings: primary and secondary producers, and what a scenario records of them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use strum::{IntoStaticStr, VariantArray};

use super::goods::{Good, Goods};
use super::map::{AreaId, Hex, Map, Terrain};
use super::player::Research;
use super::transporter::{Class, Kind};
use super::word_error::WordError;

/// A building's kind. Its names (serde's, strum's and [`BuildingKind::name`]) are one
/// table, derived from the enum.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    VariantArray,
    IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
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
    PowerPlant,
    MbaWoods,
    MbaMountain,
    MbaRock,
    MbaPasture,
    MbaCoast,
    MbaDesert,
    Atelier,
    PearlFisherman,
}

impl BuildingKind {
    /// Every kind, in the rules' order: the enum's own list (a wrong length fails the
    /// build).
    #[allow(clippy::panic, reason = "a constant: a wrong length fails the build")]
    pub const ALL: [BuildingKind; 27] = match <BuildingKind as VariantArray>::VARIANTS.as_array() {
        Some(all) => *all,
        None => panic!("BuildingKind::ALL holds every variant"),
    };

    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Where it may stand (Quick Guide VI and VII; rulebook p.12).
    pub fn site(self) -> Site {
        match self {
            BuildingKind::Woodcutter => Site::Terrain(Terrain::Woods),
            BuildingKind::Quarry => Site::Terrain(Terrain::Rock),
            BuildingKind::Mine | BuildingKind::MbaMountain => Site::Terrain(Terrain::Mountain),
            BuildingKind::MbaWoods => Site::Terrain(Terrain::Woods),
            BuildingKind::MbaRock => Site::Terrain(Terrain::Rock),
            BuildingKind::MbaPasture => Site::Terrain(Terrain::Pasture),
            BuildingKind::MbaDesert => Site::Terrain(Terrain::Desert),
            BuildingKind::MbaCoast => Site::Shore,
            BuildingKind::OilRig | BuildingKind::PearlFisherman => Site::Terrain(Terrain::Sea),
            BuildingKind::ClayPit
            | BuildingKind::RaftFactory
            | BuildingKind::RowboatFactory
            | BuildingKind::SteamerFactory => Site::Shore,
            _ => Site::AnyLand,
        }
    }
}

/// "an" or "a" before a building's name (`BuildingKind::name`), as it is said: an
/// atelier, an oil-rig, a mine. (The report's events keep their "built a": an archive's
/// reports are replayed byte for byte, and a game that built an atelier would no
/// longer replay.)
pub fn article(name: &str) -> &'static str {
    if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// How many buildings a tile of this terrain holds, and the rule that says so: one, even
/// when a river splits the tile (RULINGS R6; the home marker is not a building); a city
/// two (&cetera, City: "a special tile that may contain two buildings").
pub fn room_on(terrain: Terrain) -> (usize, &'static str) {
    if terrain == Terrain::City {
        (2, "a city holds two")
    } else {
        (1, "one per tile, even across a river")
    }
}

/// What a secondary producer makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Output {
    Good(Good),
    Transporter(Kind),
}

impl fmt::Display for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Output::Good(g) => write!(f, "{g}"),
            Output::Transporter(k) => write!(f, "{k}"),
        }
    }
}

/// One input of a recipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    Good(Good),
    /// Trunks or boards, in any mix (coal burner, paper mill).
    Wood,
    /// A donkey, handed in whole (wagon factory).
    Donkey,
}

/// A secondary producer's recipe: per run, these inputs make `per_run` of `output`; at
/// most `capacity` outputs a turn (Quick Guide VII; RULINGS R4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipe {
    pub inputs: &'static [(Input, u32)],
    pub output: Output,
    pub per_run: u32,
    pub capacity: u32,
}

const fn goods(
    output: Good,
    per_run: u32,
    capacity: u32,
    inputs: &'static [(Input, u32)],
) -> Recipe {
    Recipe {
        inputs,
        output: Output::Good(output),
        per_run,
        capacity,
    }
}

const fn vehicle(kind: Kind, inputs: &'static [(Input, u32)]) -> Recipe {
    Recipe {
        inputs,
        output: Output::Transporter(kind),
        per_run: 1,
        capacity: 1,
    }
}

use Input::{Donkey, Wood};

/// The atelier's six recipes, capacity 1 in all (&cetera, art): "3 trunks → Wood
/// carving, 2 pearls → Ring, 1 paper + 1 fuel → Sketch, 4 clay → Pottery, 2 marble →
/// Statue, 1 donkey → Exhibition caravan".
const ATELIER: [Recipe; 6] = [
    goods(Good::Carvings, 1, 1, &[(Input::Good(Good::Trunks), 3)]),
    goods(Good::Rings, 1, 1, &[(Input::Good(Good::Pearls), 2)]),
    goods(
        Good::Sketches,
        1,
        1,
        &[(Input::Good(Good::Paper), 1), (Input::Good(Good::Fuel), 1)],
    ),
    goods(Good::Pottery, 1, 1, &[(Input::Good(Good::Clay), 4)]),
    goods(Good::Statues, 1, 1, &[(Input::Good(Good::Marble), 2)]),
    vehicle(Kind::Caravan, &[(Donkey, 1)]),
];

impl BuildingKind {
    /// The recipe of a secondary producer; `None` for primary producers.
    pub fn recipe(self) -> Option<Recipe> {
        Some(match self {
            BuildingKind::Sawmill => goods(Good::Boards, 2, 6, &[(Input::Good(Good::Trunks), 1)]),
            BuildingKind::CoalBurner => goods(Good::Fuel, 1, 6, &[(Wood, 2)]),
            BuildingKind::PaperMill => goods(Good::Paper, 1, 1, &[(Wood, 2)]),
            BuildingKind::StoneFactory => goods(Good::Stone, 2, 6, &[(Input::Good(Good::Clay), 1)]),
            BuildingKind::Mint => goods(
                Good::Coins,
                1,
                1,
                &[(Input::Good(Good::Gold), 2), (Input::Good(Good::Fuel), 1)],
            ),
            BuildingKind::StockExchange => goods(
                Good::Stock,
                1,
                6,
                &[(Input::Good(Good::Coins), 2), (Input::Good(Good::Paper), 1)],
            ),
            BuildingKind::MbaWoods
            | BuildingKind::MbaMountain
            | BuildingKind::MbaRock
            | BuildingKind::MbaPasture
            | BuildingKind::MbaCoast
            | BuildingKind::MbaDesert => {
                goods(Good::Managers, 1, 1, &[(Input::Good(Good::Gold), 1)])
            }
            BuildingKind::Atelier => return ATELIER.first().copied(),
            BuildingKind::PearlFisherman => {
                goods(Good::Pearls, 1, 1, &[(Input::Good(Good::Stone), 1)])
            }
            BuildingKind::BombFactory => goods(
                Good::Bombs,
                1,
                1,
                &[(Input::Good(Good::Iron), 1), (Input::Good(Good::Fuel), 1)],
            ),
            BuildingKind::WagonFactory => {
                vehicle(Kind::Wagon, &[(Donkey, 1), (Input::Good(Good::Boards), 2)])
            }
            BuildingKind::TruckFactory => vehicle(
                Kind::Truck,
                &[(Input::Good(Good::Iron), 1), (Input::Good(Good::Fuel), 1)],
            ),
            BuildingKind::RaftFactory => vehicle(Kind::Raft, &[(Input::Good(Good::Trunks), 2)]),
            BuildingKind::RowboatFactory => {
                vehicle(Kind::Rowboat, &[(Input::Good(Good::Boards), 5)])
            }
            BuildingKind::SteamerFactory => vehicle(
                Kind::Steamer,
                &[(Input::Good(Good::Fuel), 2), (Input::Good(Good::Iron), 1)],
            ),
            BuildingKind::Airport => vehicle(
                Kind::Plane,
                &[
                    (Input::Good(Good::Boards), 2),
                    (Input::Good(Good::Geese), 1),
                ],
            ),
            _ => return None,
        })
    }

    /// Every recipe of a secondary producer, in the order listed (the atelier has six,
    /// &cetera, art); empty for primary producers.
    pub fn recipes(self) -> Vec<Recipe> {
        match self {
            BuildingKind::Atelier => ATELIER.to_vec(),
            _ => self.recipe().into_iter().collect(),
        }
    }

    /// What a primary producer puts on its tile each turn (mines draw: see the rules).
    pub fn primary_output(self) -> Option<Good> {
        match self {
            BuildingKind::Woodcutter => Some(Good::Trunks),
            BuildingKind::Quarry => Some(Good::Stone),
            BuildingKind::ClayPit => Some(Good::Clay),
            BuildingKind::OilRig => Some(Good::Fuel),
            _ => None,
        }
    }

    /// The class of transporter a transporter factory makes.
    pub fn factory_class(self) -> Option<Class> {
        match self.recipe()?.output {
            Output::Transporter(k) => Some(k.class()),
            Output::Good(_) => None,
        }
    }

    /// Building cost (Quick Guide VI and VII).
    pub fn cost(self) -> Goods {
        let (boards, stone) = match self {
            BuildingKind::Woodcutter => (1, 0),
            BuildingKind::Quarry => (2, 0),
            BuildingKind::ClayPit | BuildingKind::CoalBurner => (3, 0),
            BuildingKind::Mine | BuildingKind::OilRig => (3, 1),
            BuildingKind::StoneFactory => (2, 0),
            BuildingKind::PaperMill | BuildingKind::RaftFactory => (1, 1),
            BuildingKind::Sawmill
            | BuildingKind::Mint
            | BuildingKind::WagonFactory
            | BuildingKind::RowboatFactory
            | BuildingKind::BombFactory => (2, 1),
            BuildingKind::TruckFactory | BuildingKind::SteamerFactory => (2, 2),
            BuildingKind::StockExchange => (0, 3),
            BuildingKind::Airport => (0, 2),
            BuildingKind::PowerPlant => (0, 3),
            BuildingKind::Atelier => (2, 1),
            BuildingKind::PearlFisherman => (3, 0),
            BuildingKind::MbaWoods
            | BuildingKind::MbaMountain
            | BuildingKind::MbaRock
            | BuildingKind::MbaPasture
            | BuildingKind::MbaCoast
            | BuildingKind::MbaDesert => (2, 0),
        };
        [(Good::Boards, boards), (Good::Stone, stone)]
            .into_iter()
            .collect()
    }

    /// The research a player needs before building it (Quick Guide IX).
    pub fn research_needed(self) -> Option<Research> {
        match self {
            BuildingKind::RowboatFactory => Some(Research::RowboatFactory),
            BuildingKind::TruckFactory => Some(Research::TruckFactory),
            BuildingKind::SteamerFactory => Some(Research::SteamerFactory),
            BuildingKind::OilRig => Some(Research::OilRig),
            _ => None,
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

impl Site {
    /// Does the tile `hex` of `map` offer this site? (Deserts are judged apart: before
    /// irrigation only roads and walls stand there.)
    pub fn allows(self, map: &Map, hex: Hex) -> bool {
        match (self, map.terrain(hex)) {
            (_, None) => false,
            // &cetera, city: "cities start out as pasture".
            (Site::Terrain(Terrain::Pasture), Some(Terrain::City)) => true,
            (Site::Terrain(t), Some(terrain)) => terrain == t,
            (Site::Shore, _) => map.is_shore(hex),
            (Site::AnyLand, Some(terrain)) => terrain.is_land(),
        }
    }
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
    type Err = WordError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let norm = s.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        let norm = match norm.as_str() {
            "papermill" => "paper-mill",
            "clay-digger" | "claypit" => "clay-pit",
            "oilrig" => "oil-rig",
            "steamship-factory" => "steamer-factory",
            "powerplant" | "power-station" | "power-station-plant" => "power-plant",
            "mba-forest" | "mba-dark-green" => "mba-woods",
            "mba-mountains" | "mba-brown" => "mba-mountain",
            "mba-grey" | "mba-gray" => "mba-rock",
            "mba-plains" | "mba-light-green" => "mba-pasture",
            "mba-blue" | "mba-shore" => "mba-coast",
            "mba-yellow" => "mba-desert",
            "pearl-fishermen" | "pearlfisherman" | "pearl-fishery" => "pearl-fisherman",
            other => other,
        }
        .to_string();
        BuildingKind::ALL
            .into_iter()
            .find(|k| k.name() == norm)
            .ok_or_else(|| WordError::NotABuilding(s.trim().to_string()))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The buildings' names as orders, reports, events and saved games have always spelled
    /// them, in the rules' order.
    const NAMES: [(BuildingKind, &str); 27] = [
        (BuildingKind::Woodcutter, "woodcutter"),
        (BuildingKind::Quarry, "quarry"),
        (BuildingKind::ClayPit, "clay-pit"),
        (BuildingKind::Mine, "mine"),
        (BuildingKind::OilRig, "oil-rig"),
        (BuildingKind::Sawmill, "sawmill"),
        (BuildingKind::CoalBurner, "coal-burner"),
        (BuildingKind::PaperMill, "paper-mill"),
        (BuildingKind::StoneFactory, "stone-factory"),
        (BuildingKind::Mint, "mint"),
        (BuildingKind::StockExchange, "stock-exchange"),
        (BuildingKind::WagonFactory, "wagon-factory"),
        (BuildingKind::TruckFactory, "truck-factory"),
        (BuildingKind::RaftFactory, "raft-factory"),
        (BuildingKind::RowboatFactory, "rowboat-factory"),
        (BuildingKind::SteamerFactory, "steamer-factory"),
        (BuildingKind::Airport, "airport"),
        (BuildingKind::BombFactory, "bomb-factory"),
        (BuildingKind::PowerPlant, "power-plant"),
        (BuildingKind::MbaWoods, "mba-woods"),
        (BuildingKind::MbaMountain, "mba-mountain"),
        (BuildingKind::MbaRock, "mba-rock"),
        (BuildingKind::MbaPasture, "mba-pasture"),
        (BuildingKind::MbaCoast, "mba-coast"),
        (BuildingKind::MbaDesert, "mba-desert"),
        (BuildingKind::Atelier, "atelier"),
        (BuildingKind::PearlFisherman, "pearl-fisherman"),
    ];

    #[test]
    fn building_names_are_serdes_and_parse_back() {
        crate::name_table::check(&BuildingKind::ALL, &NAMES, BuildingKind::name);
        for &(k, name) in &NAMES {
            assert_eq!(name.parse::<BuildingKind>(), Ok(k));
            let spaced = name.to_ascii_uppercase().replace('-', " ");
            assert_eq!(spaced.parse::<BuildingKind>(), Ok(k));
        }
        // The other words stay read; a near miss does not.
        assert_eq!(
            "papermill".parse::<BuildingKind>(),
            Ok(BuildingKind::PaperMill)
        );
        assert_eq!(
            "MBA gray".parse::<BuildingKind>(),
            Ok(BuildingKind::MbaRock)
        );
        assert!("saw-mill".parse::<BuildingKind>().is_err());
    }
}
