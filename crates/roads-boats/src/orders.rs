//! What players order, as the resolver takes it. The text syntax is in `order_text`;
//! every action of the base game has a type here, and each phase carries a module's
//! orders (Planes & Trains', &cetera's) in one variant, `Module`: their types are the
//! modules' own (`modules::electricity::Order`).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

pub use super::building::Output;
use super::building::{BuildingKind, MineBag};
use super::goods::{Good, Goods};
use super::map::{AreaId, Border, Dir, Hex};
use super::modules::Order;
use super::player::{Colour, Research};
use super::transporter::{Location, TransporterId};

/// One player's orders for one turn, phase by phase, each in the order written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerOrders {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub production: Vec<Numbered<ProductionOrder>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub movement: Vec<Numbered<MovementOrder>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub building: Vec<Numbered<BuildingOrder>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wonder: Vec<Numbered<WonderOrder>>,
}

/// Everyone's orders for a turn. A player with no entry gives no orders.
pub type TurnOrders = BTreeMap<Colour, PlayerOrders>;

/// An order with the line it was written on, so events can point back at it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Numbered<T> {
    pub line: u32,
    pub order: T,
}

/// Production phase (RULINGS R1, step 3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order")]
pub enum ProductionOrder {
    /// Hand inputs to the factory on `at` to make `count` of `output`, taking them from
    /// the listed transporters first (in order), then from the tile. Goods made go onto
    /// the first listed transporter with room; a transporter made is the player's, a
    /// boat launched at `launch`.
    Make {
        count: u32,
        output: Output,
        at: Hex,
        from: Vec<TransporterId>,
        launch: Option<Location>,
        /// Coal burners and paper mills: hand in only this wood (`using boards`); `None`
        /// takes trunks first, then boards.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        using: Option<Good>,
    },
    /// Take goods lying on the tile onto a transporter (from `area` if given).
    Load {
        transporter: TransporterId,
        goods: Goods,
        area: Option<AreaId>,
    },
    /// Put goods from a transporter onto the tile (into `area` if given).
    Unload {
        transporter: TransporterId,
        goods: Goods,
        area: Option<AreaId>,
    },
    /// Make one research point from geese and paper where `with` is, and allocate it.
    Research {
        subject: Research,
        with: TransporterId,
    },
    /// Upgrade transporter factories at `at` to the kind just researched: every factory
    /// there of its class, or, when `from` names one, one factory of that kind (a city
    /// holds two: RULINGS R10, added 2026-11-28).
    Upgrade {
        at: Hex,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<BuildingKind>,
        to: BuildingKind,
    },
    /// Destroy one of one's own transporters on a tile with a transporter factory.
    Destroy { transporter: TransporterId },
    /// Old orders' way to let donkeys breed. Donkeys breed by default now (Quick Guide
    /// Ia; RULINGS R4): the order still reads, so old order files do, and changes nothing.
    Breed { at: Hex },
    /// Keep one's donkeys from breeding, at `at` or (`None`) everywhere: judged at the
    /// start of the phase, before anything else (rulebook: donkeys do not reproduce if
    /// their owner does not want them to).
    NoBreed { at: Option<Hex> },
    /// Hand goods from one transporter to another on its tile: freely between one's own
    /// (rulebook, production: transporters on one tile exchange goods with the tile and
    /// each other freely), to another player's if that player accepts them.
    Give {
        from: TransporterId,
        to: TransporterId,
        goods: Goods,
    },
    /// Pick up a transporter to carry (Quick Guide III: in the production phase too).
    Carry {
        carrier: TransporterId,
        carried: TransporterId,
    },
    /// A consent for this phase: accept goods, offer goods or transporters, allow
    /// carrying.
    Consent(Consent),
    /// A module's order (`fire`, `manage` …): its own type, read by the grammar it
    /// registers.
    #[serde(untagged)]
    Module(Order),
}

/// Whom a consent is for: one player, or anyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Party {
    Player(Colour),
    Anyone,
}

impl Party {
    pub fn includes(self, c: Colour) -> bool {
        match self {
            Party::Player(p) => p == c,
            Party::Anyone => true,
        }
    }
}

impl fmt::Display for Party {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Party::Player(c) => write!(f, "{c}"),
            Party::Anyone => f.write_str("anyone"),
        }
    }
}

/// A standing consent, for the phase whose orders it is written in: every player's
/// consents are known before the phase resolves (all order files are in), so an offer
/// in a later player's orders serves an earlier player (RULINGS R1, R5, R6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "consent")]
pub enum Consent {
    /// `accept [GOODS] from yellow [on D3]`: goods may be given to one's transporters
    /// (to `onto` only, if named), up to `goods` in all this phase (`None`: any).
    Accept {
        from: Party,
        goods: Option<Goods>,
        onto: Option<TransporterId>,
    },
    /// `offer D3 to yellow` / `offer 2 boards from D3 to yellow`: the player may hand in
    /// (production) or build with (building) these goods of one's transporter (`None`:
    /// all it carries; a whole donkey may then be handed in for a wagon).
    Offer {
        transporter: TransporterId,
        goods: Option<Goods>,
        to: Party,
    },
    /// `allow yellow to carry D3`: the player's transporters may pick it up.
    Carry {
        transporter: TransporterId,
        by: Party,
    },
}

/// Movement phase (RULINGS R5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order")]
pub enum MovementOrder {
    /// Move over land or water, loading and unloading on the way.
    Move {
        transporter: TransporterId,
        steps: Vec<Step>,
    },
    /// At the start of the phase, put down a transporter carried since an earlier turn.
    Release {
        carrier: TransporterId,
        carried: TransporterId,
        at: Location,
    },
    /// A consent for this phase (accept goods, allow carrying).
    Consent(Consent),
    /// A module's order (`fly`, `train`).
    #[serde(untagged)]
    Module(Order),
}

/// One step of a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Go to a neighbouring position (or across a bridge to another area of the tile).
    To(Location),
    /// Take goods lying here (from `area` if given: a river boat names the bank).
    Load { goods: Goods, area: Option<AreaId> },
    /// Put goods down here (into `area` if given).
    Unload { goods: Goods, area: Option<AreaId> },
    /// Hand goods to another transporter here (another player's accepts them).
    Give { to: TransporterId, goods: Goods },
    /// Geese here follow the transporter from now on.
    Follow(u32),
    /// Pick up another transporter here, to carry it.
    Carry(TransporterId),
}

/// Building phase (RULINGS R6; rulebook pp.12–15).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order")]
pub enum BuildingOrder {
    Build {
        kind: BuildingKind,
        at: AreaId,
        with: TransporterId,
        mixture: Option<MineBag>,
    },
    Road {
        from: AreaId,
        to: AreaId,
        with: TransporterId,
    },
    Bridge {
        at: Hex,
        over: Option<Dir>,
        with: TransporterId,
    },
    /// Build a wall, or strengthen one's own (or neutral tokens) by a token — or up to
    /// `tokens` tokens — with material from `with`'s side.
    Wall {
        border: Border,
        with: TransporterId,
        tokens: Option<u8>,
    },
    Demolish {
        border: Border,
        with: TransporterId,
    },
    Shaft {
        at: Hex,
        mixture: MineBag,
        with: TransporterId,
    },
    /// A consent for this phase (offer goods for others' building).
    Consent(Consent),
    /// A module's order (`bomb`, `bomb-proof`, `power line`).
    #[serde(untagged)]
    Module(Order),
}

/// Wonder phase (RULINGS R7, R2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order")]
pub enum WonderOrder {
    /// Buy up to `count` bricks with the goods listed (from the home tile).
    Bricks { count: u32, paying: Goods },
    /// Ask for a new move order, with the positions wanted, best first (1 = first).
    MoveOrder { preferences: Vec<u32> },
    /// A module's order (`trade`, `load`).
    #[serde(untagged)]
    Module(Order),
}

/// Serde: leave a zero count out (a module's order uses it too).
pub(crate) fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn list<T: fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Plain-language echoes of orders: what `judge check` says each order will try to do.
impl fmt::Display for ProductionOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProductionOrder::Make {
                count,
                output,
                at,
                from,
                launch,
                using,
            } => {
                write!(
                    f,
                    "hand inputs to the factory at {at} to make {count} {output}"
                )?;
                if !from.is_empty() {
                    write!(f, ", from {} first, then the tile", list(from))?;
                }
                if let Some(w) = using {
                    write!(f, ", using {w} only where trunks or boards will do")?;
                }
                if let Some(l) = launch {
                    write!(f, ", launching it at {l}")?;
                }
                Ok(())
            }
            ProductionOrder::Load {
                transporter,
                goods,
                area,
            } => {
                write!(f, "{transporter} takes {goods} from the tile")?;
                area.map_or(Ok(()), |a| write!(f, " ({a})"))
            }
            ProductionOrder::Unload {
                transporter,
                goods,
                area,
            } => {
                write!(f, "{transporter} puts {goods} on the tile")?;
                area.map_or(Ok(()), |a| write!(f, " ({a})"))
            }
            ProductionOrder::Research { subject, with } => {
                write!(
                    f,
                    "research {subject} with the geese and paper where {with} is"
                )
            }
            ProductionOrder::Upgrade { at, from: None, to } => {
                write!(f, "upgrade every factory of its class at {at} to a {to}")
            }
            ProductionOrder::Upgrade {
                at,
                from: Some(from),
                to,
            } => {
                write!(f, "upgrade the {from} at {at} to a {to}")
            }
            ProductionOrder::Destroy { transporter } => write!(f, "destroy {transporter}"),
            ProductionOrder::Breed { at } => write!(
                f,
                "let your donkeys at {at} breed: they do so by default, so this changes nothing"
            ),
            ProductionOrder::NoBreed { at: Some(at) } => {
                write!(f, "keep your donkeys at {at} from breeding this turn")
            }
            ProductionOrder::NoBreed { at: None } => {
                write!(f, "keep all your donkeys from breeding this turn")
            }
            ProductionOrder::Give { from, to, goods } => {
                write!(f, "{from} hands {goods} to {to}")
            }
            ProductionOrder::Carry { carrier, carried } => {
                write!(f, "{carrier} picks up {carried} to carry it")
            }
            ProductionOrder::Consent(c) => write!(f, "{c} this production phase"),
            ProductionOrder::Module(o) => o.fmt(f),
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::To(l) => write!(f, "go to {l}"),
            Step::Load { goods, area } => {
                write!(f, "load {goods}")?;
                area.map_or(Ok(()), |a| write!(f, " from {a}"))
            }
            Step::Unload { goods, area } => {
                write!(f, "unload {goods}")?;
                area.map_or(Ok(()), |a| write!(f, " to {a}"))
            }
            Step::Give { to, goods } => write!(f, "give {goods} to {to}"),
            Step::Follow(n) => write!(f, "have {n} geese follow"),
            Step::Carry(t) => write!(f, "pick up {t}"),
        }
    }
}

impl fmt::Display for MovementOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MovementOrder::Move { transporter, steps } => {
                write!(f, "{transporter}: {}", list(steps))
            }
            MovementOrder::Release {
                carrier,
                carried,
                at,
            } => write!(f, "{carrier} puts down {carried} at {at}"),
            MovementOrder::Consent(c) => write!(f, "{c} this movement phase"),
            MovementOrder::Module(o) => o.fmt(f),
        }
    }
}

impl fmt::Display for Consent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Consent::Accept { from, goods, onto } => {
                write!(f, "accept ")?;
                match goods {
                    Some(g) => write!(f, "up to {g}")?,
                    None => write!(f, "any goods")?,
                }
                write!(f, " from {from}")?;
                match onto {
                    Some(t) => write!(f, " onto {t}"),
                    None => write!(f, " onto your transporters"),
                }
            }
            Consent::Offer {
                transporter,
                goods,
                to,
            } => match goods {
                Some(g) => write!(f, "offer {to} up to {g} from {transporter}"),
                None => write!(f, "offer {to} everything {transporter} carries"),
            },
            Consent::Carry { transporter, by } => {
                write!(f, "allow {by} to pick up and carry {transporter}")
            }
        }
    }
}

impl fmt::Display for BuildingOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildingOrder::Build {
                kind,
                at,
                with,
                mixture,
            } => {
                let article = if kind.name().starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                };
                write!(f, "build {article} {kind} at {at} with {with}")?;
                mixture.map_or(Ok(()), |m| write!(f, ", mixture {}/{}", m.gold, m.iron))
            }
            BuildingOrder::Road { from, to, with } => {
                write!(f, "build a road {from}-{to} with {with}")
            }
            BuildingOrder::Bridge { at, over, with } => {
                write!(f, "build a bridge at {at}")?;
                if let Some(d) = over {
                    write!(f, " over the arm toward {d}")?;
                }
                write!(f, " with {with}")
            }
            BuildingOrder::Wall {
                border,
                with,
                tokens,
            } => match tokens {
                Some(n) => write!(
                    f,
                    "build the wall on {border} up to {} with {with}",
                    judge_core::text::count(usize::from(*n), "token")
                ),
                None => write!(f, "build or strengthen the wall on {border} with {with}"),
            },
            BuildingOrder::Demolish { border, with } => {
                write!(f, "demolish the wall on {border} with {with}")
            }
            BuildingOrder::Shaft { at, mixture, with } => {
                write!(
                    f,
                    "sink a new shaft at {at} ({}/{}) with {with}",
                    mixture.gold, mixture.iron
                )
            }
            BuildingOrder::Consent(c) => write!(f, "{c} this building phase"),
            BuildingOrder::Module(o) => o.fmt(f),
        }
    }
}

impl fmt::Display for WonderOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WonderOrder::Bricks { count, paying } => write!(
                f,
                "buy up to {count} brick{}, paying with {paying}",
                if *count == 1 { "" } else { "s" }
            ),
            WonderOrder::MoveOrder { preferences } => write!(
                f,
                "ask for a new move order, wanting position {}",
                list(preferences)
            ),
            WonderOrder::Module(o) => o.fmt(f),
        }
    }
}
