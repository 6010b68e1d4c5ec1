//! Trains (&cetera, Trains; Quick Guide V): rail tracks the scenario draws, and the
//! train service along them, for one good a ride.

use std::fmt;

use judge_core::diagnostic::Diagnostic;
use serde::{Deserialize, Serialize};

use super::{During, Grammar, Hooks, Plugin};
use crate::events::Fact;
use crate::goods::Good;
use std::collections::BTreeSet;

use super::link;
use super::{crossing, entering, leaving, moat};
use crate::map::{AreaId, Hex};
use crate::order_text::{R, Reader};
use crate::refusal::{Blocked, Link, Refusal};
use crate::state::{Module, Phase, State};
use crate::transporter::{Class, Kind, Location, Named, TransporterId};
use crate::turn::moving::{Phase as Movement, arrived, blocked_reason, follow, sea_place};
use crate::turn::{Ctx, lying, reach, take_lying};

pub static PLUGIN: Plugin = Plugin {
    module: Module::Trains,
    rule: "&cetera, Trains; Quick Guide V",
    buildings: &[],
    goods: &[],
    transporters: &[],
    terrains: &[],
    orders: &[Grammar {
        phase: Phase::Movement,
        words: "train",
        read: read_train,
        example: "train D1 to C3 fare stone from tile",
    }],
    before_turn_one: &[],
    steps: &[(
        Phase::Movement,
        "a transporter on a track pays one good already there and rides to any tile along the track",
    )],
    map_legend: &[],
    hooks: Hooks {
        reach_line: Some(reach_line),
        ..Hooks::NONE
    },
};

/// Trains (Quick Guide V; &cetera, trains): from a track tile at the start of the phase,
/// for one good already there, to any tile along the tracks; a whole move.
pub(crate) fn train(
    ctx: &mut Ctx,
    ph: &mut Movement,
    id: TransporterId,
    to: Location,
    (fare, fare_from): (Good, Option<FareFrom>),
    geese: u32,
) {
    if let Err(e) = ctx.own(id) {
        return ctx.fail(e);
    }
    if ph.moved.contains(&id) {
        return ctx.fail(TrainRefusal::MovedBeforeTheTrain { id: id.named() });
    }
    if let Some(why) = blocked_reason(ph, id) {
        return ctx.fail(TrainRefusal::Blocked {
            id: id.named(),
            why,
        });
    }
    let Some(t) = ctx.s.transporters.get(&id).cloned() else {
        return;
    };
    let to = match ride(&ctx.s, id, to) {
        Ok(Some(to)) => to,
        Ok(None) => return,
        Err(why) => return ctx.fail(why),
    };
    // The fare: a good that was there when the phase began, lying within reach (as in
    // &cetera's example, the donkey pays with stone on the tile and keeps its load) or on
    // the transporter, as the player says; by default lying first, then cargo.
    let areas = reach(&ctx.s, id);
    let on_tile = lying(&ctx.s, &areas)
        .count(fare)
        .saturating_sub(arrived(ph, &areas).count(fare));
    // Goods handed to it this phase were not there when the phase began.
    let in_cargo = t
        .cargo
        .count(fare)
        .saturating_sub(ph.received.get(&id).map_or(0, |g| g.count(fare)));
    let source = match fare_from {
        Some(FareFrom::Tile) if on_tile > 0 => FareFrom::Tile,
        Some(FareFrom::Cargo) if in_cargo > 0 => FareFrom::Cargo,
        None if on_tile > 0 => FareFrom::Tile,
        None if in_cargo > 0 => FareFrom::Cargo,
        Some(from) => {
            return ctx.fail(TrainRefusal::NoFareFrom {
                id: id.named(),
                fare,
                from,
            });
        }
        None => {
            return ctx.fail(TrainRefusal::NoFare {
                id: id.named(),
                fare,
            });
        }
    };
    match source {
        FareFrom::Tile => {
            take_lying(&mut ctx.s, &areas, fare, 1);
        }
        FareFrom::Cargo => {
            if let Some(x) = ctx.s.transporters.get_mut(&id) {
                x.cargo.take(fare, 1);
            }
        }
    }
    // Geese may follow it onto the train and get off with it (Quick Guide V; &cetera,
    // trains).
    if geese > 0 {
        follow(ctx, id, geese);
    }
    ph.moved.insert(id);
    if let Some(x) = ctx.s.transporters.get_mut(&id) {
        x.at = to;
    }
    ctx.emit(Fact::TookTrain {
        transporter: id,
        to,
        fare,
    });
    super::after_move(ctx, id);
}

/// Where a ride on the train from where transporter `id` stands to `to` gets it, by the
/// rules of the tracks and of the tiles it leaves and reaches (Quick Guide V; &cetera,
/// trains; RULINGS R10): `to` as a place, or why not. The fare and the phase's other moves
/// are the caller's. `None`: no such transporter, or it is carried.
pub(crate) fn ride(
    s: &State,
    id: TransporterId,
    to: Location,
) -> Result<Option<Location>, Refusal> {
    let Some(t) = s.transporters.get(&id) else {
        return Ok(None);
    };
    let Some(start) = t.at.hex() else {
        return Ok(None);
    };
    // RULINGS R10: the train never lets a transporter break the rules of the tile it
    // leaves: one stranded on a polder stays.
    leaving(s, t.kind.class(), t.at)?;
    let map = &s.map;
    // Where it boards: its own area; a docked boat its land area; a boat in the river
    // every bank (Quick Guide V: docked ships and ships in rivers may use the train).
    let boarding = match t.at {
        Location::Land(a) => vec![a],
        Location::Dock(c) => vec![c.land],
        Location::River(h) => map.areas(h),
        Location::Sea(h) => vec![AreaId::whole(h)],
        Location::Carried(_) => Vec::new(),
    };
    // A track crosses a river, or a city's moat, only where the map lets a link on land
    // cross it (`modules::link`): the moat only by a bridge (RULINGS R10).
    let network = map.rail_network_where(&boarding, |a, b| link(s, a, b, Link::Track).is_ok());
    let to = sea_place(s, to);
    let Some(dest) = to.hex() else {
        return Err(TrainRefusal::NoTrainTo { to }.into());
    };
    if let Some(city) = moat_in_the_way(s, &boarding, &network, to) {
        return Err(TrainRefusal::MoatAcrossTheTrack { start, city }.into());
    }
    if network.is_empty() {
        let elsewhere_on_tile = !map.rail_network(&map.areas(start)).is_empty();
        return Err(if elsewhere_on_tile {
            TrainRefusal::TrackAcrossTheRiver {
                start,
                id,
                at: t.at,
            }
        } else {
            TrainRefusal::NoTrack {
                from: start,
                to: dest,
            }
        }
        .into());
    }
    let arrives = match to {
        Location::Land(a) => network.contains(&a),
        Location::Dock(c) => network.contains(&c.land),
        Location::River(h) => map.areas(h).iter().any(|a| network.contains(a)),
        Location::Sea(h) => network.contains(&AreaId::whole(h)),
        Location::Carried(_) => false,
    };
    if !arrives || to == t.at {
        let other_bank = map
            .areas(dest)
            .iter()
            .any(|a| map.rail_network(&[*a]).iter().any(|x| x.hex == start));
        return Err(if arrives || !other_bank {
            TrainRefusal::NoTrack {
                from: start,
                to: dest,
            }
        } else {
            TrainRefusal::NoTrackOnThisBank { from: t.at, to }
        }
        .into());
    }
    let fits = match (t.kind.class(), to) {
        (Class::Land, Location::Land(a)) => s.map.is_land(a.hex) && s.map.has_area(a),
        (Class::Water, Location::River(h)) => s.map.tile(h).is_some_and(|x| x.has_river()),
        (Class::Water, Location::Dock(c)) => s.map.is_coast(c),
        (Class::Water | Class::Air, Location::Sea(_)) => true,
        (Class::Air, Location::Land(a)) => s.map.has_area(a),
        _ => false,
    };
    if !fits {
        return Err(TrainRefusal::CannotLeaveTheTrain { kind: t.kind, to }.into());
    }
    // Nor the rules of the tile it reaches (RULINGS R10): no land transporter gets off on
    // a flooded polder, no boat docks at one, nor floats on a dry one.
    entering(s, t.kind.class(), to)?;
    Ok(Some(to))
}

/// The city whose unbridged moat keeps the train from `to`: one the tracks would reach
/// from `boarding` if moats were no rivers, and do not.
fn moat_in_the_way(
    s: &State,
    boarding: &[AreaId],
    network: &BTreeSet<AreaId>,
    to: Location,
) -> Option<Hex> {
    let map = &s.map;
    let whole = map.rail_network(boarding);
    let reaches = |net: &BTreeSet<AreaId>| match to {
        Location::Land(a) => net.contains(&a),
        Location::Dock(c) => net.contains(&c.land),
        Location::River(h) => map.areas(h).iter().any(|a| net.contains(a)),
        Location::Sea(h) => net.contains(&AreaId::whole(h)),
        Location::Carried(_) => false,
    };
    if !reaches(&whole) || reaches(network) {
        return None;
    }
    map.track_links()
        .into_iter()
        .filter(|(a, b)| whole.contains(a) && whole.contains(b))
        .filter(|(a, b)| crossing(s, a.hex, b.hex).is_err())
        .flat_map(|(a, b)| [a.hex, b.hex])
        .find(|h| moat(s, *h))
}

/// The template's line for where transporter `id` could ride the train this turn, and
/// the goods it could pay the fare with. (Hook `reach_line`.)
fn reach_line(s: &State, id: TransporterId) -> Option<String> {
    let rides = rides(s, id);
    if rides.is_empty() {
        return None;
    }
    let mut fares = lying(s, &reach(s, id));
    if let Some(t) = s.transporters.get(&id) {
        fares.add_all(&t.cargo);
    }
    let goods: Vec<&str> = fares.iter().map(|(g, _)| g.name()).collect();
    let fare = if goods.is_empty() {
        "no good here or aboard to pay the fare".to_string()
    } else {
        format!("fare 1 of: {}", goods.join(", "))
    };
    let to: Vec<String> = rides.iter().map(ToString::to_string).collect();
    Some(format!("by train ({fare}): {}", to.join("; ")))
}

/// Every place transporter `id` could ride the train to from where it stands, by the same
/// rule a `train` order is judged by (`ride`): each place of every tile a track touches
/// (its areas, its river, its docks and its sea), kept where the ride is allowed. The
/// fare is not judged here: the goods lying within its reach and its cargo are.
pub fn rides(s: &State, id: TransporterId) -> Vec<Location> {
    let hexes: BTreeSet<Hex> = s
        .map
        .track_links()
        .into_iter()
        .flat_map(|(a, b)| [a.hex, b.hex])
        .collect();
    let coasts = s.map.coasts();
    let mut out = Vec::new();
    for h in hexes {
        let mut places: Vec<Location> = s.map.areas(h).into_iter().map(Location::Land).collect();
        places.push(Location::River(h));
        if s.map.is_sea(h) {
            places.push(Location::Sea(h));
        }
        places.extend(
            coasts
                .iter()
                .filter(|c| c.land.hex == h)
                .map(|c| Location::Dock(*c)),
        );
        for p in places {
            if let Ok(Some(to)) = ride(s, id, p)
                && !out.contains(&to)
            {
                out.push(to);
            }
        }
    }
    out
}

// ---- Orders: `train`, read and carried out here. ----

/// Trains' order (movement phase).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order")]
pub enum Order {
    /// Take the train along the tracks, paying one good: from the goods lying within
    /// reach or from the cargo, as `fare_from` says (`None`: lying first, then cargo).
    Train {
        transporter: TransporterId,
        to: Location,
        fare: Good,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fare_from: Option<FareFrom>,
        /// Geese from the starting tile that follow it onto the train.
        #[serde(default, skip_serializing_if = "crate::orders::is_zero")]
        follow: u32,
    },
}

/// Where a train fare comes from (&cetera, trains: goods lying on the tile may pay it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FareFrom {
    /// Goods lying within the transporter's reach.
    Tile,
    /// The transporter's own cargo.
    Cargo,
}

impl fmt::Display for FareFrom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FareFrom::Tile => "from the goods lying there",
            FareFrom::Cargo => "from its cargo",
        })
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Train {
                transporter,
                to,
                fare,
                fare_from,
                follow,
            } => {
                write!(
                    f,
                    "{transporter} takes the train to {to}, paying 1 {}",
                    fare.singular()
                )?;
                match fare_from {
                    Some(from) => write!(f, " {from}")?,
                    None => f.write_str(" (lying there if any, else from its cargo)")?,
                }
                if *follow > 0 {
                    write!(f, ", {follow} geese following")?;
                }
                Ok(())
            }
        }
    }
}

/// `train D1 to C3 fare stone [from tile|cargo] [; follow 2 geese]`
fn read_train(r: &mut Reader<'_>) -> R<super::Order> {
    let transporter = r.transporter()?;
    r.expect("to")?;
    let to = r.location()?;
    r.expect("fare")?;
    // `fare 1 stone` reads too: the fare is always one good.
    if r.peek().is_some_and(|t| t.text == "1") {
        r.next();
    }
    let t = r.word("the good that pays the fare")?;
    let fare = r.good_word(&t)?;
    let fare_from = if r.eat("from") {
        r.eat("the");
        r.eat("its");
        let w = r.word("`tile` or `cargo`")?;
        match w.text.to_ascii_lowercase().as_str() {
            "tile" | "ground" => Some(FareFrom::Tile),
            "cargo" => Some(FareFrom::Cargo),
            _ if w.text.eq_ignore_ascii_case(&transporter.to_string()) => Some(FareFrom::Cargo),
            _ => {
                return Err(Diagnostic::new(format!(
                    "`{}`: a fare comes from the tile or from the transporter's cargo",
                    w.text
                ))
                .at(w.span)
                .help("write `fare stone from tile` or `fare stone from cargo`"));
            }
        }
    } else {
        None
    };
    // `; follow 2 geese`: geese from the starting tile ride along.
    let mut follow = 0;
    while r.eat(";") || r.eat(",") {
        if !r.eat("follow") {
            return Err(r
                .missing("`follow`")
                .help("a train takes only `; follow 2 geese` after its fare"));
        }
        follow += r.follow_count()?;
    }
    Ok(super::Order::Trains(Order::Train {
        transporter,
        to,
        fare,
        fare_from,
        follow,
    }))
}

/// Where the movement phase comes to the order.
pub(crate) fn carry_out(ctx: &mut Ctx, during: During<'_>, order: &Order) {
    let (
        During::Movement(ph),
        Order::Train {
            transporter,
            to,
            fare,
            fare_from,
            follow: geese,
        },
    ) = (during, order)
    else {
        return;
    };
    train(ctx, ph, *transporter, *to, (*fare, *fare_from), *geese);
}

/// Why a train ride was refused (&cetera, Trains; Quick Guide V; RULINGS R5, R10): the
/// tracks' and the fare's reasons; the tiles' own rules (left, reached) give the crate's
/// [`Refusal`]s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrainRefusal {
    #[error("the train does not go to {to}")]
    NoTrainTo { to: Location },
    #[error(
        "the track from {start} crosses the moat of the city {city} where no bridge spans it: a train reaches a city only across a bridge"
    )]
    MoatAcrossTheTrack { start: Hex, city: Hex },
    #[error(
        "the rail track in {start} is on the other side of the river from {id} at {at}: a track on a river tile joins only the shores on its side"
    )]
    TrackAcrossTheRiver {
        start: Hex,
        id: TransporterId,
        at: Location,
    },
    #[error("no track joins {from} to {to}")]
    NoTrack { from: Hex, to: Hex },
    #[error(
        "no track joins {from} to {to}: a track on a river tile joins only the shores on its side of the river"
    )]
    NoTrackOnThisBank { from: Location, to: Location },
    #[error("{id} has moved: the train is a whole move, taken from the start")]
    MovedBeforeTheTrain { id: Named },
    #[error("{id} has no {fare} to pay the fare with (it must be there when the phase begins)")]
    NoFare { id: Named, fare: Good },
    #[error("a {kind} cannot leave the train at {to}")]
    CannotLeaveTheTrain { kind: Kind, to: Location },
    #[error("{id} cannot take the train: {why}")]
    Blocked { id: Named, why: Blocked },
    #[error(
        "{id} has no {fare} to pay the fare with {from} (it must be there when the phase begins)"
    )]
    NoFareFrom {
        id: Named,
        fare: Good,
        from: FareFrom,
    },
}
