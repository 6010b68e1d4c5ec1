//! Resource cards, hands of them, and development cards.

use std::fmt;

use serde::{Deserialize, Serialize};
use strum::{IntoStaticStr, VariantArray, VariantNames};

/// The five resources, in the order the rules list them (and hands print them). Their
/// names (serde's, strum's and [`Resource::name`]) are one table, derived from the enum.
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
    VariantNames,
    IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Resource {
    Wood,
    Brick,
    Wool,
    Grain,
    Ore,
}

impl Resource {
    /// Every resource, in the rules' order: the enum's own list (a wrong length fails the
    /// build).
    #[allow(clippy::panic, reason = "a constant: a wrong length fails the build")]
    pub const ALL: [Resource; 5] = match <Resource as VariantArray>::VARIANTS.as_array() {
        Some(all) => *all,
        None => panic!("Resource::ALL holds every variant"),
    };

    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Resource {
        Resource::ALL[i % 5]
    }

    /// Reads the usual names and a few synonyms (lumber, sheep, wheat, …).
    pub fn parse(word: &str) -> Option<Resource> {
        Some(match word.to_ascii_lowercase().as_str() {
            "wood" | "woods" | "lumber" | "timber" => Resource::Wood,
            "brick" | "bricks" | "clay" => Resource::Brick,
            "wool" | "wools" | "sheep" => Resource::Wool,
            "grain" | "grains" | "wheat" => Resource::Grain,
            "ore" | "ores" | "rock" | "stone" => Resource::Ore,
            _ => return None,
        })
    }

    /// The words suggested for what [`Resource::parse`] does not read: the names.
    #[allow(clippy::panic, reason = "a constant: a wrong length fails the build")]
    pub const WORDS: [&'static str; 5] = match <Resource as VariantNames>::VARIANTS.as_array() {
        Some(words) => *words,
        None => panic!("Resource::WORDS holds every name"),
    };
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A handful of resource cards: how many of each.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cards(pub [u8; 5]);

impl Cards {
    pub const NONE: Cards = Cards([0; 5]);
    pub const ROAD: Cards = Cards([1, 1, 0, 0, 0]);
    pub const SETTLEMENT: Cards = Cards([1, 1, 1, 1, 0]);
    pub const CITY: Cards = Cards([0, 0, 0, 2, 3]);
    pub const DEVELOPMENT: Cards = Cards([0, 0, 1, 1, 1]);

    pub fn one(r: Resource, n: u8) -> Cards {
        let mut c = Cards::NONE;
        c.0[r.index()] = n;
        c
    }

    #[inline]
    pub fn get(&self, r: Resource) -> u8 {
        self.0[r.index()]
    }

    #[inline]
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    #[inline]
    pub fn covers(&self, o: &Cards) -> bool {
        (0..5).all(|i| self.0[i] >= o.0[i])
    }

    #[inline]
    pub fn add(&mut self, o: &Cards) {
        for i in 0..5 {
            self.0[i] = self.0[i].saturating_add(o.0[i]);
        }
    }

    /// Takes `o` away; the caller has checked [`Cards::covers`].
    #[inline]
    pub fn take(&mut self, o: &Cards) {
        for i in 0..5 {
            self.0[i] = self.0[i].saturating_sub(o.0[i]);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; 5]
    }

    /// What is missing to cover `need`.
    pub fn short_of(&self, need: &Cards) -> Cards {
        let mut m = Cards::NONE;
        for i in 0..5 {
            m.0[i] = need.0[i].saturating_sub(self.0[i]);
        }
        m
    }

    pub fn iter(&self) -> impl Iterator<Item = (Resource, u8)> + '_ {
        Resource::ALL
            .into_iter()
            .map(|r| (r, self.get(r)))
            .filter(|(_, n)| *n > 0)
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("nothing");
        }
        let parts: Vec<String> = self.iter().map(|(r, n)| format!("{n} {r}")).collect();
        f.write_str(&parts.join(", "))
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cards({self})")
    }
}

impl Serialize for Cards {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        for (r, n) in self.iter() {
            m.serialize_entry(r.name(), &n)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Cards, D::Error> {
        let m = std::collections::BTreeMap::<String, u8>::deserialize(d)?;
        let mut c = Cards::NONE;
        for (k, v) in m {
            let r = Resource::parse(&k).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "`{k}` is not a resource (wood, brick, wool, grain, ore)"
                ))
            })?;
            c.0[r.index()] = c.0[r.index()].saturating_add(v);
        }
        Ok(c)
    }
}

/// The development cards. Serde's names (`road-building`) are kebab-case; the name the
/// reports and hands print ([`DevCard::name`], `road building`) is strum's, and both are
/// derived from the enum.
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
pub enum DevCard {
    #[strum(serialize = "knight")]
    Knight,
    #[strum(serialize = "road building")]
    RoadBuilding,
    #[strum(serialize = "year of plenty")]
    YearOfPlenty,
    #[strum(serialize = "monopoly")]
    Monopoly,
    #[strum(serialize = "victory point")]
    VictoryPoint,
}

impl DevCard {
    /// Every kind of card, in the deck's order: the enum's own list (a wrong length fails
    /// the build).
    #[allow(clippy::panic, reason = "a constant: a wrong length fails the build")]
    pub const ALL: [DevCard; 5] = match <DevCard as VariantArray>::VARIANTS.as_array() {
        Some(all) => *all,
        None => panic!("DevCard::ALL holds every variant"),
    };

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        self.into()
    }

    /// How many of each are in the deck: base game (25) or with the 5–6 extension (34).
    pub fn deck_counts(extension: bool) -> [u8; 5] {
        if extension {
            [20, 3, 3, 3, 5]
        } else {
            [14, 2, 2, 2, 5]
        }
    }
}

impl fmt::Display for DevCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How many cards of each development kind: a small count per kind.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct DevCards(pub [u8; 5]);

impl DevCards {
    #[inline]
    pub fn get(&self, c: DevCard) -> u8 {
        self.0[c.index()]
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    pub fn iter(&self) -> impl Iterator<Item = (DevCard, u8)> + '_ {
        DevCard::ALL
            .into_iter()
            .map(|c| (c, self.get(c)))
            .filter(|(_, n)| *n > 0)
    }
}

impl fmt::Display for DevCards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.total() == 0 {
            return f.write_str("none");
        }
        let parts: Vec<String> = self.iter().map(|(c, n)| format!("{n} {c}")).collect();
        f.write_str(&parts.join(", "))
    }
}

impl fmt::Debug for DevCards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DevCards({self})")
    }
}

impl Serialize for DevCards {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        for (c, n) in self.iter() {
            m.serialize_entry(&c, &n)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for DevCards {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DevCards, D::Error> {
        let m = std::collections::BTreeMap::<DevCard, u8>::deserialize(d)?;
        let mut c = DevCards::default();
        for (k, v) in m {
            c.0[k.index()] = v;
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::DeserializeOwned;

    /// The resources' names as hands, orders, events and saved games have always spelled
    /// them, in the rules' order.
    const RESOURCE_NAMES: [(Resource, &str); 5] = [
        (Resource::Wood, "wood"),
        (Resource::Brick, "brick"),
        (Resource::Wool, "wool"),
        (Resource::Grain, "grain"),
        (Resource::Ore, "ore"),
    ];

    /// The check both name tables pass: `all` (derived by strum) is the table's
    /// variants in order, each at its index; each prints as its word and is written and
    /// read by serde as its serde name.
    fn check_names<T>(all: &[T], table: &[(T, &str, &str)], name: fn(T) -> &'static str)
    where
        T: Copy + PartialEq + std::fmt::Debug + fmt::Display + Serialize + DeserializeOwned,
    {
        let listed: Vec<T> = table.iter().map(|&(t, _, _)| t).collect();
        assert_eq!(
            all,
            listed.as_slice(),
            "every variant, in the table's order"
        );
        for &(t, word, serde_name) in table {
            assert_eq!(name(t), word);
            assert_eq!(t.to_string(), word);
            assert_eq!(
                serde_json::to_value(t).unwrap(),
                serde_json::json!(serde_name)
            );
            assert_eq!(serde_json::from_value::<T>(serde_name.into()).unwrap(), t);
        }
    }

    #[test]
    fn resource_names_are_serdes_and_parse_back() {
        let table: Vec<_> = RESOURCE_NAMES.iter().map(|&(r, w)| (r, w, w)).collect();
        check_names(&Resource::ALL, &table, Resource::name);
        let words: Vec<&str> = RESOURCE_NAMES.iter().map(|&(_, w)| w).collect();
        assert_eq!(Resource::WORDS.as_slice(), words.as_slice());
        for (i, &(r, name)) in RESOURCE_NAMES.iter().enumerate() {
            assert_eq!(r.index(), i);
            assert_eq!(Resource::from_index(i), r);
            assert_eq!(Resource::parse(name), Some(r));
            assert_eq!(Resource::parse(&name.to_ascii_uppercase()), Some(r));
        }
        // The synonyms stay read, beside the names.
        assert_eq!(Resource::parse("Lumber"), Some(Resource::Wood));
        assert_eq!(Resource::parse("sheep"), Some(Resource::Wool));
        assert_eq!(Resource::parse("stones"), None);
    }

    /// The development cards' names: what reports and hands print (words), and what
    /// events and saved games hold (serde's kebab-case), in the deck's order.
    const DEV_NAMES: [(DevCard, &str, &str); 5] = [
        (DevCard::Knight, "knight", "knight"),
        (DevCard::RoadBuilding, "road building", "road-building"),
        (DevCard::YearOfPlenty, "year of plenty", "year-of-plenty"),
        (DevCard::Monopoly, "monopoly", "monopoly"),
        (DevCard::VictoryPoint, "victory point", "victory-point"),
    ];

    #[test]
    fn development_card_names_keep_their_spellings() {
        check_names(&DevCard::ALL, &DEV_NAMES, DevCard::name);
        for (i, &(c, _, _)) in DEV_NAMES.iter().enumerate() {
            assert_eq!(c.index(), i);
        }
    }
}
