//! Players: colour, name, address, home, research.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use strum::{EnumString, IntoStaticStr, VariantArray};

use super::map::AreaId;
use super::word_error::WordError;

/// A player's colour, which is also how the rules and the orders name the player. Seats
/// take colours in this order: the boxed game's four, then &cetera's two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Red,
    Yellow,
    Green,
    Blue,
    Purple,
    Orange,
}

impl Colour {
    pub const SEATS: [Colour; 6] = [
        Colour::Red,
        Colour::Yellow,
        Colour::Green,
        Colour::Blue,
        Colour::Purple,
        Colour::Orange,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
            Colour::Blue => "blue",
            Colour::Purple => "purple",
            Colour::Orange => "orange",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Colour {
    type Err = WordError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        Colour::SEATS
            .into_iter()
            .find(|c| c.name() == lower)
            .ok_or_else(|| WordError::NotAColour(s.trim().to_string()))
    }
}

/// The research table's eight subjects (rulebook p.16; the eighth slot is &cetera's
/// fundamental research). Their names (serde's, strum's and [`Research::name`]) are one
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
    EnumString,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Research {
    RowboatFactory,
    TruckFactory,
    SteamerFactory,
    OilRig,
    SpecialisedMines,
    LargeMines,
    NewShafts,
    FundamentalResearch,
}

impl Research {
    /// Every subject, in the table's order: the enum's own list (a wrong length fails
    /// the build).
    #[allow(clippy::panic, reason = "a constant: a wrong length fails the build")]
    pub const ALL: [Research; 8] = match <Research as VariantArray>::VARIANTS.as_array() {
        Some(all) => *all,
        None => panic!("Research::ALL holds every variant"),
    };

    pub fn name(self) -> &'static str {
        self.into()
    }
}

impl fmt::Display for Research {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One player of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    pub email: String,
    /// The area of the home tile where the home marker and starting goods lie; `None`
    /// only during the set-up round of a scenario whose players choose their homes,
    /// until this player has chosen (`setup`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home: Option<AreaId>,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub research: BTreeSet<Research>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The research subjects' names as the rules' table, orders, events and saved games
    /// have always spelled them, in the table's order.
    const NAMES: [(Research, &str); 8] = [
        (Research::RowboatFactory, "rowboat-factory"),
        (Research::TruckFactory, "truck-factory"),
        (Research::SteamerFactory, "steamer-factory"),
        (Research::OilRig, "oil-rig"),
        (Research::SpecialisedMines, "specialised-mines"),
        (Research::LargeMines, "large-mines"),
        (Research::NewShafts, "new-shafts"),
        (Research::FundamentalResearch, "fundamental-research"),
    ];

    #[test]
    fn research_names_are_serdes_and_parse_back() {
        crate::name_table::check(&Research::ALL, &NAMES, Research::name);
        for &(r, name) in &NAMES {
            assert_eq!(name.parse::<Research>(), Ok(r));
        }
        assert!("Oil-Rig".parse::<Research>().is_err(), "the table is exact");
        assert!("oil rig".parse::<Research>().is_err());
    }
}
