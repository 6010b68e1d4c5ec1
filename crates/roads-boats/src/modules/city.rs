//! City (&cetera, City): a tile with two buildings, ringed by a moat.
//!
//! "The city is a special tile that may contain two buildings. Cities start out as
//! pasture, so they cannot contain woodcutters, quarries or mines. They are however
//! shorelines and can thus contain a clay digger. They can also be used to reproduce. It
//! is allowed to build the same building twice." Unattended goods are processed "in the
//! following order: sawmill, power plant, paper mill, coal burner, mint, stock, raft
//! factory, cart factory, row boat factory, truck factory, steam ship factory, airport,
//! MBA, bomb factory, atelier, research". "If you bomb a city, both buildings are
//! destroyed. If you have a manager present, it doubles the production of two secondary
//! producers." Landing and reproducing need the city "completely empty" (an airport lets
//! planes land). "All cities are surrounded by water. This water counts as a river for
//! all practical purposes": a bridge on a side joins the city to that neighbour (built
//! from the city or from the neighbour), a road out costs the bridge's stone and its own,
//! a wall is built from the city only where a bridge is, and "any ship on the city moat
//! can interact with the tile as if it were on a river on that tile, but it cannot
//! interact with an adjacent tile".
//!
//! Readings (RULINGS R10): the listed order is the order in which the city's buildings
//! process unattended goods, one after the other, so an earlier building's output feeds
//! a later one in the same step; "research" is the rule that 2 geese + 1 paper left
//! unattended are used up (it comes last anyway); the power plant's place in the list
//! does not arise, as plants are fired at the start of production (R10, electricity); a
//! building the list leaves out (the stone factory, the pearl fisherman) comes after
//! the listed ones. A bomb destroys both buildings except a strengthened one. The moat
//! joins the sea on the city's coasts and the rivers that flow into it: a boat goes
//! from the sea or such a river onto the moat (`river C3`) for 1 point, like a river step.

use super::{Draft, Hooks, Plugin};
use crate::building::{Building, BuildingKind};
use crate::map::{Bridge, Dir, Hex, Terrain};
use crate::refusal::Refusal;
use crate::state::{Module, Phase, State};

pub static PLUGIN: Plugin = Plugin {
    module: Module::City,
    rule: "&cetera, City",
    buildings: &[],
    goods: &[],
    transporters: &[],
    terrains: &[Terrain::City],
    orders: &[],
    before_turn_one: &[],
    steps: &[
        (
            Phase::Production,
            "a city's two buildings process unattended goods in the listed order, the first's output feeding the second",
        ),
        (
            Phase::Movement,
            "the moat counts as a river: land transporters cross it only by a bridge; boats sail onto it from the sea or a river",
        ),
        (
            Phase::Building,
            "a moat bridge on any side; a road out needs it; a wall from the city only where it stands; a bomb destroys both buildings",
        ),
    ],
    map_legend: &["A city shows both its buildings: the first three letters of each."],
    hooks: Hooks {
        moat: Some(moat),
        crossing: Some(crossing),
        wall_from: Some(wall_from),
        leftover_rank: Some(leftover_rank),
        generate: Some(generate),
        ..Hooks::NONE
    },
};

/// Is `hex` a city ringed by its moat (the module in play)?
fn moat(s: &State, hex: Hex) -> bool {
    s.settings.modules.contains(&Module::City) && s.map.terrain(hex) == Some(Terrain::City)
}

/// Is there a bridge over the moat of the city `city` on its side toward `dir`?
pub fn bridged(s: &State, city: Hex, dir: Dir) -> bool {
    s.map.bridges.contains(&Bridge {
        hex: city,
        over: dir,
    })
}

/// May a land transporter (or a road) cross the border from `a` to `b`? Over a city's
/// moat only by a bridge on that side.
fn crossing(s: &State, a: Hex, b: Hex) -> Result<(), Refusal> {
    for (city, other) in [(a, b), (b, a)] {
        if moat(s, city)
            && let Some(dir) = city.direction_to(other)
            && !bridged(s, city, dir)
        {
            return Err(Refusal::MoatUnbridged { city, other, dir });
        }
    }
    Ok(())
}

/// A wall is built from a city only where a bridge crosses its moat on that side.
fn wall_from(s: &State, hex: Hex, other: Hex, dir: Dir) -> Result<(), Refusal> {
    if moat(s, hex) && !bridged(s, hex, dir) {
        return Err(Refusal::CityWallUnbridged { city: hex, other });
    }
    Ok(())
}

/// A city's buildings process unattended goods one after the other, in the listed
/// order; elsewhere the module says nothing.
fn leftover_rank(s: &State, b: &Building) -> Option<usize> {
    moat(s, b.at.hex).then(|| rank(b.kind))
}

/// The random map generator: a city for every two players, on free tiles (not a polder)
/// at least two steps apart.
fn generate(d: &mut Draft<'_>) {
    let mut spots: Vec<Hex> = d
        .free
        .iter()
        .copied()
        .filter(|h| d.land.get(h) != Some(&Terrain::Polder))
        .collect();
    d.rng.shuffle(&mut spots);
    let mut cities: Vec<Hex> = Vec::new();
    for h in spots {
        if cities.len() >= d.players.div_ceil(2) {
            break;
        }
        if cities.iter().all(|c| c.distance(h) >= 2) {
            d.land.insert(h, Terrain::City);
            cities.push(h);
        }
    }
}

/// Where a building comes in a city's processing of unattended goods: the list's order
/// ("sawmill, power plant, paper mill, coal burner, mint, stock, raft factory, cart
/// factory, row boat factory, truck factory, steam ship factory, airport, MBA, bomb
/// factory, atelier, research"; research is the geese-and-paper rule, last anyway), then
/// the buildings it leaves out (the stone factory).
pub fn rank(kind: BuildingKind) -> usize {
    use BuildingKind as B;
    const LIST: &[&[BuildingKind]] = &[
        &[B::Sawmill],
        &[B::PowerPlant],
        &[B::PaperMill],
        &[B::CoalBurner],
        &[B::Mint],
        &[B::StockExchange],
        &[B::RaftFactory],
        &[B::WagonFactory],
        &[B::RowboatFactory],
        &[B::TruckFactory],
        &[B::SteamerFactory],
        &[B::Airport],
        &[
            B::MbaWoods,
            B::MbaMountain,
            B::MbaRock,
            B::MbaPasture,
            B::MbaCoast,
            B::MbaDesert,
        ],
        &[B::BombFactory],
        &[B::Atelier],
    ];
    LIST.iter()
        .position(|group| group.contains(&kind))
        .unwrap_or(LIST.len())
}
