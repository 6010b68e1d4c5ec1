//! Transporters: donkeys, wagons, trucks, rafts, rowboats, steamers and planes.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use strum::{IntoStaticStr, VariantArray};

use super::goods::Goods;
use super::map::{AreaId, Coast, Hex, Map, PlaceError};
use super::player::Colour;
use super::refusal::{Refusal, Short};
use super::word_error::WordError;

/// Land, water or air: the three classes the transporter limits count (RULINGS R4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Land,
    Water,
    Air,
}

/// A transporter's kind. Its names (serde's, strum's and [`Kind::name`]) are one table,
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
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Kind {
    Donkey,
    Wagon,
    Truck,
    Raft,
    Rowboat,
    Steamer,
    Plane,
    /// &cetera, art: the exhibition caravan.
    Caravan,
}

impl Kind {
    /// How many of `good` may go aboard a transporter of this kind carrying `cargo`: an
    /// exhibition caravan carries only artwork, one of each kind (&cetera, art).
    pub fn room_for(self, cargo: &Goods, good: super::goods::Good) -> u32 {
        match self {
            Kind::Caravan if !good.is_artwork() || cargo.count(good) > 0 => 0,
            Kind::Caravan => u32::from(cargo.total() < self.capacity()),
            _ => self.capacity().saturating_sub(cargo.total()),
        }
    }

    /// Why no more of `good` went aboard a transporter of this kind now carrying `cargo`,
    /// `took` of it having just gone aboard: a caravan's own rule where it is the reason
    /// (&cetera, art: "They cannot carry anything except artwork …, and not more than 1
    /// of each type"), else the room left.
    pub fn no_room_for(self, cargo: &Goods, good: super::goods::Good, took: u32) -> Short {
        match self {
            Kind::Caravan if !good.is_artwork() => Short::ArtworkOnly { good },
            Kind::Caravan if cargo.count(good) > 0 && cargo.total() < self.capacity() => {
                Short::OneOfEach { good }
            }
            _ => Short::RoomFor { good, took },
        }
    }

    /// Why a transporter of this kind never carries another, if it does not: a plane
    /// (&cetera, Planes: "A plane may never carry another transporter"), an exhibition
    /// caravan (&cetera, Art: "They cannot carry anything except artwork"; RULINGS R10).
    pub fn carries_no_transporter(self) -> Option<&'static str> {
        match self {
            Kind::Plane => Some("planes never carry other transporters"),
            Kind::Caravan => Some("a caravan carries only artwork, never another transporter"),
            _ => None,
        }
    }

    /// Every kind, in the rules' order: the enum's own list (a wrong length fails the
    /// build).
    #[allow(clippy::panic, reason = "a constant: a wrong length fails the build")]
    pub const ALL: [Kind; 8] = match <Kind as VariantArray>::VARIANTS.as_array() {
        Some(all) => *all,
        None => panic!("Kind::ALL holds every variant"),
    };

    pub fn class(self) -> Class {
        match self {
            // A caravan moves on land; it is not counted as a land transporter (art).
            Kind::Donkey | Kind::Wagon | Kind::Truck | Kind::Caravan => Class::Land,
            Kind::Raft | Kind::Rowboat | Kind::Steamer => Class::Water,
            Kind::Plane => Class::Air,
        }
    }

    /// Goods it can carry (Quick Guide III).
    pub fn capacity(self) -> u32 {
        match self {
            Kind::Donkey => 2,
            Kind::Wagon | Kind::Raft => 3,
            Kind::Plane => 4,
            // One of each of the five kinds of artwork (art).
            Kind::Rowboat | Kind::Caravan => 5,
            Kind::Truck => 6,
            Kind::Steamer => 8,
        }
    }

    /// The letter that starts its id: D2 is a donkey, B1 a rowboat.
    pub fn letter(self) -> char {
        match self {
            Kind::Donkey => 'D',
            Kind::Wagon => 'W',
            Kind::Truck => 'T',
            Kind::Raft => 'R',
            Kind::Rowboat => 'B',
            Kind::Steamer => 'S',
            Kind::Plane => 'P',
            Kind::Caravan => 'E',
        }
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_uppercase())
    }

    pub fn name(self) -> &'static str {
        self.into()
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = WordError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        // Plurals read too: `make 2 rafts`.
        let lower = lower.strip_suffix('s').unwrap_or(&lower).to_string();
        // Beside the names, a few other words for them.
        let kind = match lower.as_str() {
            "cart" => Some(Kind::Wagon),
            "rowing-boat" => Some(Kind::Rowboat),
            "steamship" => Some(Kind::Steamer),
            "airplane" | "aeroplane" => Some(Kind::Plane),
            "exhibition-caravan" | "exhibition" => Some(Kind::Caravan),
            name => Kind::ALL.into_iter().find(|k| k.name() == name),
        };
        kind.ok_or_else(|| WordError::NotAKind(s.trim().to_string()))
    }
}

/// A transporter's id: its kind's letter and a number that is never given twice in a game
/// (`D2`, `S1`). Ids are what players type in their orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TransporterId {
    pub kind: Kind,
    pub number: u32,
}

impl fmt::Display for TransporterId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.letter(), self.number)
    }
}

/// A transporter named for people: its kind, then its id (`donkey D3`), so that it is
/// never taken for a tile (`D3`) in a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Named(pub TransporterId);

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.0.kind.name(), self.0)
    }
}

impl TransporterId {
    /// The transporter named for a message: `donkey D3`.
    pub fn named(self) -> Named {
        Named(self)
    }
}

impl FromStr for TransporterId {
    type Err = WordError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let bad = || WordError::NotATransporterId(t.to_string());
        let mut chars = t.chars();
        let kind = chars.next().and_then(Kind::from_letter).ok_or_else(bad)?;
        let number: u32 = chars.as_str().parse().map_err(|_| bad())?;
        if number == 0 {
            return Err(bad());
        }
        Ok(TransporterId { kind, number })
    }
}

impl Serialize for TransporterId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TransporterId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// Where a transporter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Location {
    /// On land, in one area (planes on land too).
    Land(AreaId),
    /// In the river of a tile; it can reach every area of the tile.
    River(Hex),
    /// Docked on a coast.
    Dock(Coast),
    /// On a sea tile, not docked (boats, and planes that landed at sea).
    Sea(Hex),
    /// Carried by another transporter.
    Carried(TransporterId),
}

impl Location {
    /// The tile it is on, unless it is carried.
    pub fn hex(self) -> Option<Hex> {
        match self {
            Location::Land(a) => Some(a.hex),
            Location::River(h) | Location::Sea(h) => Some(h),
            Location::Dock(c) => Some(c.land.hex),
            Location::Carried(_) => None,
        }
    }
}

impl fmt::Display for Location {
    /// The position syntax of docs/map.md: `C4/E`, `river C4`, `dock C4/E D5`, `sea E5`,
    /// `on D3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Land(a) => write!(f, "{a}"),
            Location::River(h) => write!(f, "river {h}"),
            Location::Dock(c) => write!(f, "dock {} {}", c.land, c.sea),
            Location::Sea(h) => write!(f, "sea {h}"),
            Location::Carried(t) => write!(f, "on {t}"),
        }
    }
}

impl FromStr for Location {
    type Err = PlaceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let hex = |w: &str| w.parse::<Hex>();
        match words.as_slice() {
            [area] => Ok(Location::Land(area.parse()?)),
            [w, h] if w.eq_ignore_ascii_case("river") => Ok(Location::River(hex(h)?)),
            [w, h] if w.eq_ignore_ascii_case("sea") => Ok(Location::Sea(hex(h)?)),
            [w, t] if w.eq_ignore_ascii_case("on") => Ok(Location::Carried(t.parse()?)),
            [w, land, sea] if w.eq_ignore_ascii_case("dock") => Ok(Location::Dock(Coast {
                land: land.parse()?,
                sea: hex(sea)?,
            })),
            _ => Err(PlaceError::NotAPosition(s.trim().to_string())),
        }
    }
}

impl Serialize for Location {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Location {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

impl Location {
    /// Check a position read from text against the map for a transporter of `kind`
    /// owned by `owner`, and put it in canonical form: a plain sea hex means open sea.
    /// Carried positions are checked by the caller, who knows the other transporters.
    pub fn place(self, map: &Map, kind: Kind, owner: Colour) -> Result<Location, Refusal> {
        let class = kind.class();
        match self {
            Location::Land(area) if map.is_sea(area.hex) => {
                Location::Sea(area.hex).place(map, kind, owner)
            }
            Location::Land(area) => {
                let area = map.check_area(area)?;
                if class == Class::Water {
                    return Err(Refusal::BoatOnLand { kind, area });
                }
                Ok(Location::Land(area))
            }
            Location::River(hex) => {
                if !map.tiles.contains_key(&hex) {
                    return Err(Refusal::NotATile { hex });
                }
                // A city's moat counts as a river (&cetera, city).
                if !map
                    .tile(hex)
                    .is_some_and(|t| t.has_river() || t.terrain == super::map::Terrain::City)
                {
                    return Err(Refusal::NoRiver { hex });
                }
                match class {
                    Class::Water => Ok(self),
                    Class::Air => Err(Refusal::PlaneInARiver),
                    Class::Land => Err(Refusal::NotInARiver { kind }),
                }
            }
            Location::Sea(hex) => {
                // A boat may float on a (flooded) polder (&cetera, polder).
                if !map.is_sea(hex) && map.terrain(hex) != Some(super::map::Terrain::Polder) {
                    return Err(Refusal::NotASeaTile { hex });
                }
                match class {
                    Class::Land => Err(Refusal::NotAtSea { kind }),
                    _ => Ok(self),
                }
            }
            Location::Dock(coast) => {
                let land = map.check_area(coast.land)?;
                let coast = Coast {
                    land,
                    sea: coast.sea,
                };
                if !map.is_coast(coast) {
                    return Err(Refusal::NoCoast {
                        land,
                        sea: coast.sea,
                    });
                }
                if class != Class::Water {
                    return Err(Refusal::OnlyBoatsDock { kind });
                }
                if let Some(border) = map.border(land.hex, coast.sea)
                    && let Some(wall) = map.wall(border)
                    && !wall.lets_through(owner)
                {
                    return Err(Refusal::CoastWalled { owner: wall.owner });
                }
                Ok(Location::Dock(coast))
            }
            Location::Carried(_) => Ok(self),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transporter {
    pub owner: Colour,
    pub kind: Kind,
    pub at: Location,
    #[serde(default, skip_serializing_if = "Goods::is_empty")]
    pub cargo: Goods,
    /// Geese following this transporter (not carried, not counted against capacity).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub following_geese: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kinds' names as reports, orders, events and saved games have always spelled
    /// them, with their letters, in the rules' order.
    const NAMES: [(Kind, &str, char); 8] = [
        (Kind::Donkey, "donkey", 'D'),
        (Kind::Wagon, "wagon", 'W'),
        (Kind::Truck, "truck", 'T'),
        (Kind::Raft, "raft", 'R'),
        (Kind::Rowboat, "rowboat", 'B'),
        (Kind::Steamer, "steamer", 'S'),
        (Kind::Plane, "plane", 'P'),
        (Kind::Caravan, "caravan", 'E'),
    ];

    #[test]
    fn kind_names_are_serdes_and_parse_back() {
        let names: Vec<(Kind, &str)> = NAMES.iter().map(|&(k, n, _)| (k, n)).collect();
        crate::name_table::check(&Kind::ALL, &names, Kind::name);
        for &(k, name, letter) in &NAMES {
            assert_eq!(name.parse::<Kind>(), Ok(k));
            assert_eq!(
                format!(" {}S ", name.to_ascii_uppercase()).parse::<Kind>(),
                Ok(k)
            );
            assert_eq!(Kind::from_letter(letter), Some(k));
        }
        // The other words stay read; a near miss does not.
        assert_eq!("carts".parse::<Kind>(), Ok(Kind::Wagon));
        assert_eq!("aeroplane".parse::<Kind>(), Ok(Kind::Plane));
        assert_eq!("exhibition".parse::<Kind>(), Ok(Kind::Caravan));
        assert!("donkeyz".parse::<Kind>().is_err());
    }

    #[test]
    fn ids_read_and_print_alike() {
        let id: TransporterId = "d12".parse().expect("id");
        assert_eq!(id.kind, Kind::Donkey);
        assert_eq!(id.to_string(), "D12");
        assert!("X1".parse::<TransporterId>().is_err());
        assert!("D0".parse::<TransporterId>().is_err());
        assert!("D".parse::<TransporterId>().is_err());
    }

    #[test]
    fn positions_read_and_print_alike() {
        for text in ["C4", "C4/E", "river C4", "sea E5", "dock C4/E E5", "on D3"] {
            let loc: Location = text.parse().expect(text);
            assert_eq!(loc.to_string(), text);
        }
        assert!("dock C4".parse::<Location>().is_err());
    }
}

#[cfg(test)]
mod word_error_tests {
    use crate::goods::Good;
    use crate::map::{AreaId, Border, Dir, Hex, HexLabelError, PlaceError};
    use crate::player::Colour;
    use crate::transporter::{Location, TransporterId};
    use crate::word_error::WordError;

    /// Typed parse errors: each word's error is its variant, and says the sentence the
    /// readers gave when the error was a `String`, byte for byte.
    #[test]
    fn a_word_that_does_not_read_is_its_variant_with_the_old_sentence() {
        let good = " gravel ".parse::<Good>();
        assert_eq!(good, Err(WordError::NotAGood("gravel".to_string())));
        assert_eq!(good.unwrap_err().to_string(), "`gravel` is not a good");
        let colour = "pink".parse::<Colour>().unwrap_err();
        assert_eq!(
            colour.to_string(),
            "`pink` is not a player colour: use red, yellow, green, blue, purple or orange"
        );
        assert_eq!(
            "up".parse::<Dir>().unwrap_err().to_string(),
            "`up` is not a direction: use N, NE, SE, S, SW or NW"
        );
        assert_eq!(
            "D0".parse::<TransporterId>(),
            Err(WordError::NotATransporterId("D0".to_string()))
        );
        let far = "C4-C9".parse::<Border>();
        assert_eq!(
            far,
            Err(PlaceError::NotNeighbours {
                a: Hex::new(2, 3),
                b: Hex::new(2, 8)
            })
        );
        assert_eq!(far.unwrap_err().to_string(), "C4 and C9 are not neighbours");
        assert_eq!(
            "C4/Q".parse::<AreaId>(),
            Err(PlaceError::Word(WordError::NotACompassPoint(
                "Q".to_string()
            )))
        );
        assert_eq!(
            "river 44".parse::<Location>(),
            Err(PlaceError::Hex(HexLabelError::Malformed("44".to_string())))
        );
        assert_eq!(
            "fly to C4".parse::<Location>().unwrap_err().to_string(),
            "`fly to C4` is not a position: write an area (`C4`, `C4/E`), `river C4`, `sea E5`, `dock C4/E E5` or `on D3`"
        );
    }
}
