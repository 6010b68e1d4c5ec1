//! Goods: the counters that lie on tiles and ride on transporters.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use super::word_error::WordError;
use serde::{Deserialize, Serialize};
use strum::{IntoStaticStr, VariantArray};

/// Every kind of good of the base game and Planes & Trains. Donkeys are transporters, not
/// goods; geese are goods that may follow a transporter. Their names (serde's, strum's and
/// [`Good::name`]) are one table, derived from the enum.
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
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Good {
    Trunks,
    Boards,
    Stone,
    Clay,
    Paper,
    Fuel,
    Gold,
    Iron,
    Coins,
    Stock,
    Geese,
    Bombs,
    Managers,
    Pearls,
    Marble,
    Carvings,
    Rings,
    Sketches,
    Pottery,
    Statues,
}

impl Good {
    /// Every good, in the rules' order: the enum's own list (a wrong length fails the
    /// build).
    #[allow(clippy::panic, reason = "a constant: a wrong length fails the build")]
    pub const ALL: [Good; 20] = match <Good as VariantArray>::VARIANTS.as_array() {
        Some(all) => *all,
        None => panic!("Good::ALL holds every variant"),
    };

    /// The works of art an atelier makes (&cetera, art).
    pub const ARTWORKS: [Good; 5] = [
        Good::Carvings,
        Good::Rings,
        Good::Sketches,
        Good::Pottery,
        Good::Statues,
    ];

    pub fn is_artwork(self) -> bool {
        Good::ARTWORKS.contains(&self)
    }

    /// The plural name, as reports print it and scenarios write it.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The name for one of it: `1 board`, `1 goose`.
    pub fn singular(self) -> &'static str {
        match self {
            Good::Trunks => "trunk",
            Good::Boards => "board",
            Good::Coins => "coin",
            Good::Geese => "goose",
            Good::Bombs => "bomb",
            Good::Managers => "manager",
            Good::Pearls => "pearl",
            Good::Carvings => "carving",
            Good::Rings => "ring",
            Good::Sketches => "sketch",
            Good::Statues => "statue",
            other => other.name(),
        }
    }

    /// `1 board`, `2 boards`, `0 boards`.
    pub fn counted(self, n: u32) -> String {
        format!("{n} {}", if n == 1 { self.singular() } else { self.name() })
    }

    /// Its short form, two letters: what the map picture writes (`10Tr`, `D5 2Bd`) and its
    /// legend explains, and what orders may write for it (`2 bd`, in any case). The one
    /// list of them.
    pub fn short(self) -> &'static str {
        match self {
            Good::Trunks => "Tr",
            Good::Boards => "Bd",
            Good::Stone => "St",
            Good::Clay => "Cl",
            Good::Paper => "Pa",
            Good::Fuel => "Fu",
            Good::Gold => "Au",
            Good::Iron => "Fe",
            Good::Coins => "Co",
            Good::Stock => "Sh",
            Good::Geese => "Gs",
            Good::Bombs => "Bm",
            Good::Managers => "Mg",
            Good::Pearls => "Pe",
            Good::Marble => "Ma",
            Good::Carvings => "Ca",
            Good::Rings => "Ri",
            Good::Sketches => "Sk",
            Good::Pottery => "Po",
            Good::Statues => "Su",
        }
    }

    /// `10Tr`: a count and the short form, as the map picture writes goods.
    pub fn counted_short(self, n: u32) -> String {
        format!("{n}{}", self.short())
    }

    /// Words people write for this good, singular and plural (and [`Good::short`]).
    fn spellings(self) -> &'static [&'static str] {
        match self {
            Good::Trunks => &["trunks", "trunk"],
            Good::Boards => &["boards", "board"],
            Good::Stone => &["stone", "stones"],
            Good::Clay => &["clay"],
            Good::Paper => &["paper", "papers"],
            Good::Fuel => &["fuel"],
            Good::Gold => &["gold"],
            Good::Iron => &["iron"],
            Good::Coins => &["coins", "coin"],
            Good::Stock => &["stock", "stocks", "shares", "share"],
            Good::Geese => &["geese", "goose"],
            Good::Bombs => &["bombs", "bomb"],
            Good::Managers => &["managers", "manager"],
            Good::Pearls => &["pearls", "pearl"],
            Good::Marble => &["marble", "marbles"],
            Good::Carvings => &["carvings", "carving", "wood-carving", "wood-carvings"],
            Good::Rings => &["rings", "ring"],
            Good::Sketches => &["sketches", "sketch"],
            Good::Pottery => &["pottery", "potteries"],
            Good::Statues => &["statues", "statue"],
        }
    }
}

impl fmt::Display for Good {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Good {
    type Err = WordError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        Good::ALL
            .into_iter()
            .find(|g| {
                g.short().eq_ignore_ascii_case(&lower) || g.spellings().contains(&lower.as_str())
            })
            .ok_or_else(|| WordError::NotAGood(s.trim().to_string()))
    }
}

/// A pile of goods: how many of each kind. Kinds with none are not stored, so two piles
/// with the same goods are equal and serialise the same.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "BTreeMap<Good, u32>", into = "BTreeMap<Good, u32>")]
pub struct Goods(BTreeMap<Good, u32>);

impl From<BTreeMap<Good, u32>> for Goods {
    fn from(mut map: BTreeMap<Good, u32>) -> Self {
        map.retain(|_, n| *n > 0);
        Goods(map)
    }
}

impl From<Goods> for BTreeMap<Good, u32> {
    fn from(g: Goods) -> Self {
        g.0
    }
}

impl Goods {
    pub fn new() -> Goods {
        Goods::default()
    }

    pub fn count(&self, good: Good) -> u32 {
        self.0.get(&good).copied().unwrap_or(0)
    }

    /// Add goods. Counts never wrap around: a state holding impossible counts is refused
    /// when it is read (see `roads_boats::game`), and this saturates besides.
    pub fn add(&mut self, good: Good, n: u32) {
        if n > 0 {
            let c = self.0.entry(good).or_insert(0);
            *c = c.saturating_add(n);
        }
    }

    /// Take up to `n`; returns how many were taken.
    pub fn take(&mut self, good: Good, n: u32) -> u32 {
        let have = self.count(good);
        let taken = have.min(n);
        if taken == have {
            self.0.remove(&good);
        } else {
            self.0.insert(good, have - taken);
        }
        taken
    }

    pub fn add_all(&mut self, other: &Goods) {
        for (g, n) in other.iter() {
            self.add(g, n);
        }
    }

    pub fn total(&self) -> u32 {
        self.0.values().fold(0u32, |a, n| a.saturating_add(*n))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (Good, u32)> + '_ {
        self.0.iter().map(|(&g, &n)| (g, n))
    }
}

impl FromIterator<(Good, u32)> for Goods {
    fn from_iter<I: IntoIterator<Item = (Good, u32)>>(iter: I) -> Self {
        let mut g = Goods::new();
        for (good, n) in iter {
            g.add(good, n);
        }
        g
    }
}

impl fmt::Display for Goods {
    /// `2 boards, 1 stone`; `nothing` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("nothing");
        }
        let parts: Vec<String> = self.iter().map(|(g, n)| g.counted(n)).collect();
        f.write_str(&parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The goods' names as reports, orders, events and saved games have always spelled
    /// them, in the rules' order.
    const NAMES: [(Good, &str); 20] = [
        (Good::Trunks, "trunks"),
        (Good::Boards, "boards"),
        (Good::Stone, "stone"),
        (Good::Clay, "clay"),
        (Good::Paper, "paper"),
        (Good::Fuel, "fuel"),
        (Good::Gold, "gold"),
        (Good::Iron, "iron"),
        (Good::Coins, "coins"),
        (Good::Stock, "stock"),
        (Good::Geese, "geese"),
        (Good::Bombs, "bombs"),
        (Good::Managers, "managers"),
        (Good::Pearls, "pearls"),
        (Good::Marble, "marble"),
        (Good::Carvings, "carvings"),
        (Good::Rings, "rings"),
        (Good::Sketches, "sketches"),
        (Good::Pottery, "pottery"),
        (Good::Statues, "statues"),
    ];

    #[test]
    fn good_names_are_serdes_and_parse_back() {
        crate::name_table::check(&Good::ALL, &NAMES, Good::name);
        for &(g, name) in &NAMES {
            assert_eq!(g.spellings().first(), Some(&name), "the name is read first");
            assert_eq!(name.parse::<Good>(), Ok(g));
            assert_eq!(name.to_ascii_uppercase().parse::<Good>(), Ok(g));
            assert_eq!(g.short().parse::<Good>(), Ok(g));
        }
    }

    #[test]
    fn spellings_are_forgiving() {
        assert_eq!("Board".parse(), Ok(Good::Boards));
        assert_eq!("goose".parse(), Ok(Good::Geese));
        assert_eq!(" shares ".parse(), Ok(Good::Stock));
        assert!("boardz".parse::<Good>().is_err());
    }

    /// The short forms the picture writes are read back as orders, in any case, and
    /// name one good each: two letters, never another good's word.
    #[test]
    fn short_forms_are_two_letters_and_read_back() {
        let mut seen = std::collections::BTreeSet::new();
        for g in Good::ALL {
            let s = g.short();
            assert_eq!(s.len(), 2, "{g}: {s}");
            assert!(s.starts_with(|c: char| c.is_ascii_uppercase()), "{s}");
            assert!(seen.insert(s.to_ascii_lowercase()), "{s} twice");
            for t in [
                s.to_string(),
                s.to_ascii_lowercase(),
                s.to_ascii_uppercase(),
            ] {
                assert_eq!(t.parse(), Ok(g), "{t}");
            }
            for other in Good::ALL.into_iter().filter(|o| *o != g) {
                assert!(!other.spellings().contains(&s.to_ascii_lowercase().as_str()));
            }
        }
        assert_eq!(Good::Trunks.counted_short(10), "10Tr");
    }

    #[test]
    fn taking_never_goes_below_zero_and_empties_cleanly() {
        let mut g: Goods = [(Good::Boards, 2)].into_iter().collect();
        assert_eq!(g.take(Good::Boards, 5), 2);
        assert!(g.is_empty());
        assert_eq!(g, Goods::new());
        assert_eq!(g.to_string(), "nothing");
    }
}
