//! The Roads & Boats board: tiles, rivers and their areas, roads, bridges, walls, coasts
//! and rail tracks, with the queries the rules ask of them. See `docs/map.md`.

mod hex;
mod tile;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use hex::{Dir, Hex, HexLabelError, MAX_COLUMNS, MAX_ROWS};
pub use tile::{AreaShape, Compass, Half, RiverEdges, Terrain, Tile};

use super::player::Colour;
use crate::refusal::{Link, Refusal};
use crate::word_error::WordError;

/// Why a place on the map does not read: an area (`C4`, `C4/E`), a border (`C4-C5`) or a
/// transporter's position (`river C4`, `dock C4/E E5`, `on D3`). Its Display is the
/// sentence the readers have always given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    #[error(transparent)]
    Hex(#[from] HexLabelError),
    /// A side of a tile, or a transporter's id, that does not read.
    #[error(transparent)]
    Word(#[from] WordError),
    #[error("`{0}` is not a border: write two neighbouring hexes, like `C4-C5`")]
    NotABorder(String),
    #[error("{a} and {b} are not neighbours")]
    NotNeighbours { a: Hex, b: Hex },
    #[error(
        "`{0}` is not a position: write an area (`C4`, `C4/E`), `river C4`, `sea E5`, `dock C4/E E5` or `on D3`"
    )]
    NotAPosition(String),
}

/// A place error's sentence, where a diagnostic quotes it.
impl From<PlaceError> for String {
    fn from(error: PlaceError) -> String {
        error.to_string()
    }
}

/// One area of one tile: the whole tile (`C4`) or one bank of a river through it (`C4/E`).
///
/// Every good, building, road end and land transporter is in exactly one area.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AreaId {
    pub hex: Hex,
    pub side: Option<Compass>,
}

impl AreaId {
    pub fn whole(hex: Hex) -> AreaId {
        AreaId { hex, side: None }
    }
}

impl fmt::Display for AreaId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.side {
            None => write!(f, "{}", self.hex),
            Some(side) => write!(f, "{}/{}", self.hex, side),
        }
    }
}

impl FromStr for AreaId {
    type Err = PlaceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        match s.split_once('/') {
            None => Ok(AreaId::whole(s.parse()?)),
            Some((h, side)) => Ok(AreaId {
                hex: h.parse()?,
                side: Some(side.parse()?),
            }),
        }
    }
}

impl Serialize for AreaId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for AreaId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// The border between two neighbouring tiles, named from the tile whose edge faces
/// N, NE or SE, so that each border has one name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Border {
    pub hex: Hex,
    pub dir: Dir,
}

impl Border {
    /// The border of `hex` in direction `dir`, if the hex across it has a label.
    pub fn new(hex: Hex, dir: Dir) -> Option<Border> {
        let across = hex.step(dir)?;
        if dir.index() < 3 {
            Some(Border { hex, dir })
        } else {
            Some(Border {
                hex: across,
                dir: dir.opposite(),
            })
        }
    }

    pub fn between(a: Hex, b: Hex) -> Option<Border> {
        Border::new(a, a.direction_to(b)?)
    }

    /// The two tiles either side.
    pub fn tiles(self) -> (Hex, Hex) {
        // `Border::new` only makes borders whose far side has a label.
        let other = self.hex.step(self.dir).unwrap_or(self.hex);
        (self.hex, other)
    }
}

impl fmt::Display for Border {
    /// The two tiles west to east, north to south: `C3-C4`, `C4-D4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = self.tiles();
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        write!(f, "{a}-{b}")
    }
}

impl FromStr for Border {
    type Err = PlaceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (a, b) = s
            .split_once('-')
            .ok_or_else(|| PlaceError::NotABorder(s.to_string()))?;
        let a: Hex = a.parse()?;
        let b: Hex = b.parse()?;
        Border::between(a, b).ok_or(PlaceError::NotNeighbours { a, b })
    }
}

impl Serialize for Border {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Border {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A road from the centre of one area to the centre of an area of a neighbouring tile.
/// Both ends are on the same bank where the river crosses the border, so roads may run in
/// parallel on either bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Road {
    pub from: AreaId,
    pub to: AreaId,
}

impl Road {
    /// A road with its ends in canonical order.
    pub fn new(a: AreaId, b: AreaId) -> Road {
        if a <= b {
            Road { from: a, to: b }
        } else {
            Road { from: b, to: a }
        }
    }
}

impl fmt::Display for Road {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// A bridge over one arm of the river in a tile (the arm from the centre to `over`). It
/// joins the two areas either side of that arm; a junction needs two to join all three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Bridge {
    pub hex: Hex,
    pub over: Dir,
}

/// A wall on a border: a player's (`owner`) or neutral (`None`), one or more tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wall {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Colour>,
    pub tokens: u8,
}

impl Wall {
    /// May `player` pass through this wall? Only its owner passes a coloured wall; anyone
    /// passes a neutral one (RULINGS R3).
    pub fn lets_through(&self, player: Colour) -> bool {
        self.owner.is_none_or(|o| o == player)
    }
}

/// A docking position: the stretch of coast between a land area and a neighbouring sea
/// tile. Near a river mouth a land tile has two coasts toward the same sea tile, one per
/// bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Coast {
    pub land: AreaId,
    pub sea: Hex,
}

impl fmt::Display for Coast {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} facing {}", self.land, self.sea)
    }
}

/// The board: static terrain and rivers, with what players and scenarios build on it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Map {
    pub tiles: BTreeMap<Hex, Tile>,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub roads: BTreeSet<Road>,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub bridges: BTreeSet<Bridge>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub walls: BTreeMap<Border, Wall>,
    /// Rail tracks (Planes & Trains), placed by the scenario, never built in play.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub tracks: BTreeSet<Border>,
    /// Power lines (&cetera, electricity), built like roads, on land, sea and polders.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub power_lines: BTreeSet<Road>,
    /// Polder (&cetera): the polders are dry land now (they start flooded, and turn
    /// each time a new wonder row gets its first brick).
    #[serde(default, skip_serializing_if = "is_false")]
    pub polders_dry: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Map {
    /// How many columns the map spans (from A to its last column).
    pub fn columns(&self) -> u8 {
        self.tiles.keys().map(|h| h.col).max().map_or(0, |c| c + 1)
    }

    /// How many rows the map spans (from 1 to its last row).
    pub fn rows(&self) -> u8 {
        self.tiles.keys().map(|h| h.row).max().map_or(0, |r| r + 1)
    }

    pub fn tile(&self, hex: Hex) -> Option<&Tile> {
        self.tiles.get(&hex)
    }

    pub fn terrain(&self, hex: Hex) -> Option<Terrain> {
        self.tile(hex).map(|t| t.terrain)
    }

    pub fn is_sea(&self, hex: Hex) -> bool {
        self.terrain(hex).is_some_and(Terrain::is_sea)
    }

    pub fn is_land(&self, hex: Hex) -> bool {
        self.terrain(hex).is_some_and(Terrain::is_land)
    }

    /// Neighbouring tiles that are on the map, with the direction to each.
    pub fn neighbours(&self, hex: Hex) -> impl Iterator<Item = (Dir, Hex)> + '_ {
        Dir::ALL.into_iter().filter_map(move |d| {
            let n = hex.step(d)?;
            self.tiles.contains_key(&n).then_some((d, n))
        })
    }

    /// The areas of a tile, clockwise from the north.
    pub fn areas(&self, hex: Hex) -> Vec<AreaId> {
        self.tile(hex)
            .map(|t| {
                t.areas()
                    .into_iter()
                    .map(|a| AreaId { hex, side: a.side })
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn has_area(&self, area: AreaId) -> bool {
        self.areas(area.hex).contains(&area)
    }

    fn shape(&self, area: AreaId) -> Option<AreaShape> {
        self.tile(area.hex)?
            .areas()
            .into_iter()
            .find(|a| a.side == area.side)
    }

    /// The area of `hex` that holds the given half of its edge toward `dir`.
    pub fn area_at(&self, hex: Hex, dir: Dir, half: Half) -> Option<AreaId> {
        let tile = self.tile(hex)?;
        let side = tile
            .areas()
            .into_iter()
            .find(|a| a.touches(dir, half))?
            .side;
        Some(AreaId { hex, side })
    }

    /// Does `area` reach the border of its tile toward `dir`?
    pub fn area_touches(&self, area: AreaId, dir: Dir) -> bool {
        self.shape(area).is_some_and(|s| s.touches_edge(dir))
    }

    /// Shore: a tile with a river, or next to a sea tile or a polder (RULINGS R3). A tile
    /// stays shore when walls surround it.
    pub fn is_shore(&self, hex: Hex) -> bool {
        let Some(tile) = self.tile(hex) else {
            return false;
        };
        tile.terrain.is_land()
            && (tile.has_river()
                || matches!(tile.terrain, Terrain::Polder | Terrain::City)
                || self
                    .neighbours(hex)
                    .any(|(_, n)| matches!(self.terrain(n), Some(Terrain::Sea | Terrain::Polder))))
    }

    /// The border between two neighbouring tiles on the map.
    pub fn border(&self, a: Hex, b: Hex) -> Option<Border> {
        if !self.tiles.contains_key(&a) || !self.tiles.contains_key(&b) {
            return None;
        }
        Border::between(a, b)
    }

    pub fn wall(&self, border: Border) -> Option<&Wall> {
        self.walls.get(&border)
    }

    /// Can a wall stand on this border? Never between two sea tiles (rulebook p.13), and
    /// with &cetera polders never between two polders or a polder and the sea.
    pub fn wall_allowed(&self, border: Border) -> Result<(), Refusal> {
        let (a, b) = border.tiles();
        let (Some(ta), Some(tb)) = (self.terrain(a), self.terrain(b)) else {
            return Err(Refusal::WallOffTheMap);
        };
        let watery = |t: Terrain| matches!(t, Terrain::Sea | Terrain::Polder);
        match (ta, tb) {
            (Terrain::Sea, Terrain::Sea) => Err(Refusal::WallAtSea),
            (x, y) if watery(x) && watery(y) => Err(Refusal::WallInTheWater),
            _ => Ok(()),
        }
    }

    /// Do two ends of a would-be road meet across their border on the same bank?
    pub fn road_fits(&self, a: AreaId, b: AreaId) -> Result<(), Refusal> {
        self.link_on_land(a, b, Link::Road)
    }

    /// [`Map::road_fits`] for any link between two land areas.
    fn link_on_land(&self, a: AreaId, b: AreaId, link: Link) -> Result<(), Refusal> {
        let dir = a
            .hex
            .direction_to(b.hex)
            .ok_or(Refusal::NotNeighbours { a: a.hex, b: b.hex })?;
        for end in [a, b] {
            if !self.has_area(end) {
                return Err(Refusal::NoSuchArea { area: end });
            }
            if !self.is_land(end.hex) {
                return Err(Refusal::RoadOnSea { hex: end.hex });
            }
        }
        let meets = [Half::First, Half::Second].into_iter().any(|h| {
            self.area_at(a.hex, dir, h) == Some(a)
                && self.area_at(b.hex, dir.opposite(), h.across()) == Some(b)
        });
        if meets {
            Ok(())
        } else {
            Err(Refusal::AcrossTheRiver { link, a, b })
        }
    }

    /// Do the ends of a link on the map — a road, a power line, a rail track — meet across
    /// their border on the same bank, where a river runs along it? Like a road between two
    /// land areas; at sea a link may run too (power lines, tracks), and its land end must
    /// be on the bank that faces the sea. `what` names the link in the message. The moat
    /// of a city is not the map's: see `modules::link`, which every link on land asks.
    pub fn link_fits(&self, a: AreaId, b: AreaId, link: Link) -> Result<(), Refusal> {
        let dir = a
            .hex
            .direction_to(b.hex)
            .ok_or(Refusal::NotNeighbours { a: a.hex, b: b.hex })?;
        for end in [a, b] {
            if !self.has_area(end) {
                return Err(Refusal::NoSuchArea { area: end });
            }
        }
        match (self.is_land(a.hex), self.is_land(b.hex)) {
            (true, true) => self.link_on_land(a, b, link),
            (false, false) => Ok(()),
            (true, false) if self.area_touches(a, dir) => Ok(()),
            (false, true) if self.area_touches(b, dir.opposite()) => Ok(()),
            _ => Err(Refusal::LandEndAcrossTheRiver { link, a, b }),
        }
    }

    /// The bridges in `hex`, as pairs of areas they join.
    fn bridged_pairs(&self, hex: Hex) -> Vec<(AreaId, AreaId)> {
        let Some(tile) = self.tile(hex) else {
            return Vec::new();
        };
        self.bridges
            .range(Bridge { hex, over: Dir::N }..=Bridge { hex, over: Dir::NW })
            .filter_map(|b| tile.areas_beside_arm(b.over))
            .map(|(x, y)| (AreaId { hex, side: Some(x) }, AreaId { hex, side: Some(y) }))
            .collect()
    }

    /// The areas of `area`'s tile that can be reached from it without crossing an
    /// unbridged river: its own side of the river (RULINGS R3).
    pub fn same_side(&self, area: AreaId) -> BTreeSet<AreaId> {
        let mut side = BTreeSet::from([area]);
        let pairs = self.bridged_pairs(area.hex);
        loop {
            let before = side.len();
            for &(x, y) in &pairs {
                if side.contains(&x) || side.contains(&y) {
                    side.insert(x);
                    side.insert(y);
                }
            }
            if side.len() == before {
                return side;
            }
        }
    }

    /// Are two areas of one tile on the same side of every river?
    pub fn on_same_side(&self, a: AreaId, b: AreaId) -> bool {
        a.hex == b.hex && self.same_side(a).contains(&b)
    }

    /// The bridge a scenario or an order means by "a bridge in `hex`": over `over` if
    /// given, else over the first arm of a two-area river. A junction must name the arm.
    pub fn bridge_at(&self, hex: Hex, over: Option<Dir>) -> Result<Bridge, Refusal> {
        let tile = self.tile(hex).ok_or(Refusal::NotOnMap { hex })?;
        // &cetera, city: the moat counts as a river on every side; a bridge spans one.
        if tile.terrain == Terrain::City {
            return match over {
                Some(d) => Ok(Bridge { hex, over: d }),
                None => Err(Refusal::CityBridgeSide { hex }),
            };
        }
        if tile.river.len() < 2 {
            return Err(Refusal::NoRiverToBridge {
                hex,
                at_source: tile.is_source(),
            });
        }
        match over {
            Some(d) if tile.river.contains(d) => Ok(Bridge { hex, over: d }),
            Some(dir) => Err(Refusal::RiverNotToward {
                hex,
                dir,
                arms: tile.river,
            }),
            None if tile.river.len() == 2 => Ok(Bridge {
                hex,
                over: tile.river.iter().next().unwrap_or(Dir::N),
            }),
            None => Err(Refusal::RiverJunction {
                hex,
                arms: tile.river,
            }),
        }
    }

    /// Is a road end in `from` joined by roads to `to`, for `player`? Roads within one
    /// area are linked; rivers cut them unless bridged; a road through another player's
    /// wall does not serve `player` (RULINGS R3). With `player` `None`, walls are ignored.
    pub fn road_connected(&self, from: AreaId, to: AreaId, player: Option<Colour>) -> bool {
        self.road_network(from, player).contains(&to)
    }

    /// Every area reachable from `from` along roads and bridges, for `player`.
    pub fn road_network(&self, from: AreaId, player: Option<Colour>) -> BTreeSet<AreaId> {
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::new();
        for a in self.same_side(from) {
            if seen.insert(a) {
                queue.push_back(a);
            }
        }
        while let Some(area) = queue.pop_front() {
            for road in self.roads.iter().filter(|r| r.from == area || r.to == area) {
                let next = if road.from == area {
                    road.to
                } else {
                    road.from
                };
                if let (Some(p), Some(border)) = (player, self.border(area.hex, next.hex))
                    && self.walls.get(&border).is_some_and(|w| !w.lets_through(p))
                {
                    continue;
                }
                for a in self.same_side(next) {
                    if seen.insert(a) {
                        queue.push_back(a);
                    }
                }
            }
        }
        seen
    }

    /// The stretches of rail track, each as the two areas it joins across a border. On a
    /// border a river crosses, the track runs on both banks, like parallel roads; where
    /// it does not, both halves give the same pair.
    pub fn track_links(&self) -> BTreeSet<(AreaId, AreaId)> {
        let mut links = BTreeSet::new();
        for border in &self.tracks {
            let (x, y) = border.tiles();
            let Some(dir) = x.direction_to(y) else {
                continue;
            };
            for half in [Half::First, Half::Second] {
                if let (Some(a), Some(b)) = (
                    self.area_at(x, dir, half),
                    self.area_at(y, dir.opposite(), half.across()),
                ) {
                    links.insert((a, b));
                }
            }
        }
        links
    }

    /// Every area a train reaches from `from` (Quick Guide V; &cetera, trains). A track
    /// on a river tile joins only the shores on its own side of the river (RULINGS R5):
    /// within a tile the train stays in the area it came into, and a road bridge does
    /// not carry it across. Areas of `from` that no track touches are left out, so an
    /// empty set means there is no track there.
    pub fn rail_network(&self, from: &[AreaId]) -> BTreeSet<AreaId> {
        self.rail_network_where(from, |_, _| true)
    }

    /// [`Map::rail_network`] over the stretches of track `open` lets through (what the
    /// map alone does not know: a city's moat, `modules::link`).
    pub fn rail_network_where(
        &self,
        from: &[AreaId],
        open: impl Fn(AreaId, AreaId) -> bool,
    ) -> BTreeSet<AreaId> {
        let links: BTreeSet<(AreaId, AreaId)> = self
            .track_links()
            .into_iter()
            .filter(|(a, b)| open(*a, *b))
            .collect();
        let on_track = |a: &AreaId| links.iter().any(|(x, y)| x == a || y == a);
        let mut seen: BTreeSet<AreaId> = from.iter().copied().filter(on_track).collect();
        let mut queue: VecDeque<AreaId> = seen.iter().copied().collect();
        while let Some(a) = queue.pop_front() {
            for (x, y) in &links {
                let next = if *x == a {
                    *y
                } else if *y == a {
                    *x
                } else {
                    continue;
                };
                if seen.insert(next) {
                    queue.push_back(next);
                }
            }
        }
        seen
    }

    /// Every coast of the map: each land area that touches a neighbouring sea tile.
    pub fn coasts(&self) -> Vec<Coast> {
        let mut coasts = Vec::new();
        for (&hex, tile) in &self.tiles {
            if tile.terrain.is_sea() {
                continue;
            }
            for (dir, n) in self.neighbours(hex) {
                if !self.is_sea(n) {
                    continue;
                }
                for area in self.areas(hex) {
                    if self.area_touches(area, dir) {
                        coasts.push(Coast { land: area, sea: n });
                    }
                }
            }
        }
        coasts
    }

    pub fn is_coast(&self, coast: Coast) -> bool {
        self.is_sea(coast.sea)
            && self.is_land(coast.land.hex)
            && coast
                .land
                .hex
                .direction_to(coast.sea)
                .is_some_and(|d| self.area_touches(coast.land, d))
    }
}

impl Map {
    /// Read an area as people write it (`C4`, `C4/E`) and check it against the map: a
    /// split tile needs its side, an unsplit one must not have one.
    pub fn resolve_area(&self, text: &str) -> Result<AreaId, Refusal> {
        self.check_area(text.parse().map_err(Refusal::UnreadableArea)?)
    }

    /// Check that an area is on the map, as [`Map::resolve_area`] does.
    pub fn check_area(&self, area: AreaId) -> Result<AreaId, Refusal> {
        let hex = area.hex;
        if !self.tiles.contains_key(&hex) {
            return Err(Refusal::NotATile { hex });
        }
        let areas = self.areas(hex);
        if areas.contains(&area) {
            return Ok(area);
        }
        Err(match area.side {
            None => Refusal::SplitTile { hex, areas },
            Some(_) if areas.len() == 1 => Refusal::NotSplit { hex },
            Some(_) => Refusal::NoSuchSide { hex, area, areas },
        })
    }
}

#[cfg(test)]
mod tests;
