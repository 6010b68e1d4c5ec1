//! What a turn did to the board, for the picture drawn after it ("what
//! changed, on the map"): each transporter's way (moved, flew, took the train), the
//! roads, bridges, walls, power lines and buildings built, and where goods changed
//! hands (given, used as offered, dropped by a plane, traded home to home). Read from
//! the turn's events and the board before it — a pure function, so the picture is the
//! same bytes every time. Everything here is public: the events are the public report's.

use std::collections::{BTreeMap, BTreeSet};

use super::super::building::BuildingKind;
use super::super::events::{Event, Fact};
use super::super::map::{AreaId, Border, Bridge, Road};
use super::super::player::Colour;
use super::super::transporter::{Location, TransporterId};
use crate::state::State;

/// How a transporter went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Way {
    /// Moved, place by place.
    Moved,
    /// Flew (a plane), straight.
    Flew,
    /// Took the train, along the tracks.
    Train,
}

/// One transporter's way this turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trip {
    pub transporter: TransporterId,
    pub owner: Colour,
    pub way: Way,
    /// Where it was, then each place it passed, to where it stopped.
    pub path: Vec<Location>,
}

/// Goods that changed hands, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handed {
    pub at: Location,
    /// What happened, for the picture's tooltip.
    pub what: String,
}

/// What the turn did to the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub trips: Vec<Trip>,
    pub roads: BTreeSet<Road>,
    pub bridges: BTreeSet<Bridge>,
    pub walls: BTreeSet<Border>,
    pub power_lines: BTreeSet<Road>,
    pub buildings: BTreeSet<(AreaId, BuildingKind)>,
    pub handed: Vec<Handed>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }
}

/// What the turn from `before` to `after` did, by its `events`.
pub fn of_turn(before: &State, events: &[Event], after: &State) -> Changes {
    let mut c = Changes::default();
    // Where each transporter is, as the events move it.
    let mut at: BTreeMap<TransporterId, Location> = before
        .transporters
        .iter()
        .map(|(id, t)| (*id, t.at))
        .collect();
    let owner = |id: TransporterId, e: &Event| {
        after
            .transporters
            .get(&id)
            .or_else(|| before.transporters.get(&id))
            .map(|t| t.owner)
            .or(e.player)
    };
    // Where a transporter is on the board: where its carrier is, if carried.
    let place = |at: &BTreeMap<TransporterId, Location>, id: TransporterId| {
        let mut loc = *at.get(&id)?;
        for _ in 0..4 {
            match loc {
                Location::Carried(by) => loc = *at.get(&by)?,
                l => return Some(l),
            }
        }
        None
    };
    let home = |who: Colour| {
        after
            .players
            .get(&who)
            .and_then(|p| p.home)
            .map(Location::Land)
    };
    for e in events {
        match &e.fact {
            Fact::Moved { transporter, path } => {
                if let (Some(last), Some(o)) = (path.last(), owner(*transporter, e)) {
                    at.insert(*transporter, *last);
                    c.trips.push(Trip {
                        transporter: *transporter,
                        owner: o,
                        way: Way::Moved,
                        path: path.clone(),
                    });
                }
            }
            Fact::Flew { plane, landed } => {
                trip(
                    &mut c,
                    place(&at, *plane),
                    *plane,
                    owner(*plane, e),
                    Way::Flew,
                    *landed,
                );
                at.insert(*plane, *landed);
            }
            Fact::TookTrain {
                transporter, to, ..
            } => {
                let from = place(&at, *transporter);
                trip(
                    &mut c,
                    from,
                    *transporter,
                    owner(*transporter, e),
                    Way::Train,
                    *to,
                );
                at.insert(*transporter, *to);
            }
            Fact::PickedUp { carrier, carried } => {
                at.insert(*carried, Location::Carried(*carrier));
            }
            Fact::PutDown {
                carried, at: to, ..
            } => {
                at.insert(*carried, *to);
            }
            Fact::DonkeyBorn { at: a, id } => {
                at.insert(*id, Location::Land(*a));
            }
            Fact::MadeTransporter { id, at: a, .. } => {
                at.insert(*id, *a);
            }
            Fact::Gave { from, to, goods } => {
                if let Some(l) = place(&at, *from) {
                    c.handed.push(Handed {
                        at: l,
                        what: format!("{from} gave {goods} to {to}"),
                    });
                }
            }
            Fact::OfferUsed {
                transporter,
                owner: whose,
                goods,
            } => {
                if let Some(l) = place(&at, *transporter) {
                    let what = if goods.is_empty() {
                        format!("{whose}'s {transporter} was handed in, as offered")
                    } else {
                        format!("{goods} of {whose}'s {transporter} used, as offered")
                    };
                    c.handed.push(Handed { at: l, what });
                }
            }
            Fact::Dropped {
                plane,
                goods,
                at: a,
            } => c.handed.push(Handed {
                at: Location::Land(*a),
                what: format!("{plane} dropped {goods} at {a}"),
            }),
            Fact::Traded { with, gave, got } => {
                let Some(me) = e.player else { continue };
                let what = match (gave.is_empty(), got.is_empty()) {
                    (false, true) => format!("{me} gave {gave} to {with}, home to home"),
                    (true, false) => format!("{me} received {got} from {with}, home to home"),
                    _ => format!("{me} traded {gave} for {got} with {with}, home to home"),
                };
                // Each side's event marks its own home.
                if let Some(l) = home(me) {
                    c.handed.push(Handed { at: l, what });
                }
            }
            Fact::RoadBuilt { from, to } => {
                c.roads.insert(Road::new(*from, *to));
            }
            Fact::PowerLineBuilt { from, to } => {
                c.power_lines.insert(Road::new(*from, *to));
            }
            Fact::BridgeBuilt { at: hex } => {
                // The event names the tile; the bridge is the one the tile did not have.
                let new: Vec<Bridge> = after
                    .map
                    .bridges
                    .iter()
                    .filter(|b| b.hex == *hex && !before.map.bridges.contains(b))
                    .copied()
                    .collect();
                c.bridges.extend(new);
            }
            Fact::WallBuilt { border, .. } => {
                c.walls.insert(*border);
            }
            Fact::Built { building, at: a } => {
                c.buildings.insert((*a, *building));
            }
            Fact::Upgraded { at: a, to, .. } => {
                c.buildings.insert((*a, *to));
            }
            _ => {}
        }
    }
    // Only what still stands after the turn is marked (a wall built and then pulled
    // down, a building built and then bombed, is not on the board).
    c.roads.retain(|r| after.map.roads.contains(r));
    c.power_lines.retain(|r| after.map.power_lines.contains(r));
    c.walls.retain(|b| after.map.walls.contains_key(b));
    c.buildings
        .retain(|(a, k)| after.buildings.iter().any(|b| b.at == *a && b.kind == *k));
    c
}

/// A straight trip (flown, by train) from where it was to where it stopped.
fn trip(
    c: &mut Changes,
    from: Option<Location>,
    id: TransporterId,
    owner: Option<Colour>,
    way: Way,
    to: Location,
) {
    if let (Some(from), Some(owner)) = (from, owner) {
        c.trips.push(Trip {
            transporter: id,
            owner,
            way,
            path: vec![from, to],
        });
    }
}
