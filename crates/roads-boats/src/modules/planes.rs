//! Planes (&cetera, Planes; Quick Guide IV): the airport, the plane, and flying. Planes
//! are air transporters: at most three, counted toward the limit of 8 only (RULINGS R4);
//! they load only at the start of the movement phase, fly anywhere, drop goods on land
//! and land where there is no building and no unattended geese, or at an airport.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{During, Grammar, Hooks, Plugin};
use crate::building::BuildingKind;
use crate::events::Fact;
use crate::goods::{Good, Goods};
use crate::map::{AreaId, Hex};
use crate::order_text::{R, Reader};
use crate::refusal::{Blocked, Refusal};
use crate::state::{Module, Phase, State};
use crate::transporter::{Kind, Location, Named, TransporterId};
use crate::turn::Ctx;
use crate::turn::load_goods;
use crate::turn::moving::{Phase as Movement, blocked_reason, excluded, follow, sea_as_location};
use crate::turn::reach;

pub static PLUGIN: Plugin = Plugin {
    module: Module::Planes,
    rule: "&cetera, Planes; Quick Guide IV",
    buildings: &[BuildingKind::Airport],
    goods: &[],
    transporters: &[Kind::Plane],
    terrains: &[],
    orders: &[Grammar {
        phase: Phase::Movement,
        words: "fly",
        read: read_fly,
        example: "fly P1: load 2 boards; drop 2 boards on C3; land C3",
    }],
    before_turn_one: &[],
    steps: &[(
        Phase::Movement,
        "a plane flies: loads at the start, drops goods on land, lands clear of buildings and unattended geese",
    )],
    map_legend: &[],
    hooks: Hooks {
        reach_line: Some(reach_line),
        ..Hooks::NONE
    },
};

/// Planes (Quick Guide IV; &cetera, planes): load at the start, drop on land tiles, land
/// where there is no building and no unattended geese, or at an airport. The landing
/// tile is judged after the drops, so a plane cannot land among geese it has just
/// dropped there; a flight that cannot land is not flown at all.
pub(crate) fn fly(
    ctx: &mut Ctx,
    ph: &mut Movement,
    plane: TransporterId,
    load: &Goods,
    geese: u32,
    drops: &[(AreaId, Goods)],
    land: Location,
) {
    if let Err(e) = ctx.own(plane) {
        return ctx.fail(e);
    }
    if ctx.s.transporters.get(&plane).map(|t| t.kind) != Some(Kind::Plane) {
        return ctx.fail(PlaneRefusal::NotAPlane {
            plane: plane.named(),
        });
    }
    if ph.moved.contains(&plane) {
        return ctx.fail(Refusal::AlreadyMoved { id: plane.named() });
    }
    let land = sea_as_location(ctx, land);
    let target_hex = match land {
        Location::Land(a) if ctx.s.map.has_area(a) => a.hex,
        Location::Sea(h) if ctx.s.map.is_sea(h) => h,
        Location::River(_) => {
            return ctx.fail(PlaneRefusal::InARiver);
        }
        other => {
            return ctx.fail(PlaneRefusal::CannotLandThere {
                plane: plane.named(),
                at: other,
            });
        }
    };
    if let Some(why) = blocked_reason(ph, plane) {
        return ctx.fail(PlaneRefusal::CannotFly {
            plane: plane.named(),
            why,
        });
    }
    // Fly on a copy of the state; keep it only if the plane can land.
    let (saved, events) = (ctx.s.clone(), ctx.events.len());
    if !load.is_empty() {
        let areas = reach(&ctx.s, plane);
        let ex = excluded(ctx, ph, &areas, plane);
        load_goods(ctx, plane, load, None, &ex);
    }
    // Geese on the tile when it takes off may follow it (Quick Guide IV; &cetera,
    // planes: only at the start).
    if geese > 0 {
        follow(ctx, plane, geese);
    }
    let mut arrived: Vec<(AreaId, Goods)> = Vec::new();
    for (area, goods) in drops {
        if !ctx.s.map.is_land(area.hex) || !ctx.s.map.has_area(*area) {
            ctx.fail(PlaneRefusal::DropOnLand { area: *area });
            continue;
        }
        let mut dropped = Goods::new();
        for (g, n) in goods.iter() {
            let k = ctx
                .s
                .transporters
                .get_mut(&plane)
                .map_or(0, |t| t.cargo.take(g, n));
            dropped.add(g, k);
        }
        // Dropped goods may be picked up at once by the same player's transporters.
        ctx.s.goods.entry(*area).or_default().add_all(&dropped);
        if !dropped.is_empty() {
            arrived.push((*area, dropped.clone()));
            ctx.emit(Fact::Dropped {
                plane,
                goods: dropped.clone(),
                at: *area,
            });
        }
        if dropped.total() < goods.total() {
            ctx.short(format!(
                "{plane} carried only {dropped} of {goods} to drop",
                plane = plane.named()
            ));
        }
    }
    if let Err(why) = landing(&ctx.s, target_hex, &arrived) {
        ctx.s = saved;
        ctx.events.truncate(events);
        return ctx.fail(PlaneRefusal::CannotLand {
            plane: plane.named(),
            hex: target_hex,
            why: Box::new(why),
        });
    }
    ph.moved.insert(plane);
    for (area, goods) in arrived {
        ph.arrived.entry(area).or_default().add_all(&goods);
    }
    if let Some(t) = ctx.s.transporters.get_mut(&plane) {
        t.at = land;
    }
    ctx.emit(Fact::Flew {
        plane,
        landed: land,
    });
}

/// May a plane land on `hex` as it stands now, after its drops (`dropped`)? Always at an
/// airport; elsewhere not on a tile with a building or unattended geese (Quick Guide IV;
/// &cetera, planes: a building or geese on either side of a river close the tile).
fn landing(s: &State, hex: Hex, dropped: &[(AreaId, Goods)]) -> Result<(), Refusal> {
    if s.buildings_on(hex).any(|b| b.kind == BuildingKind::Airport) {
        return Ok(());
    }
    if s.buildings_on(hex).next().is_some() {
        return Err(PlaneRefusal::LandingOnABuilding.into());
    }
    let geese: u32 = s
        .map
        .areas(hex)
        .iter()
        .filter_map(|a| s.goods.get(a))
        .map(|g| g.count(Good::Geese))
        .sum();
    let own: u32 = dropped
        .iter()
        .filter(|(a, _)| a.hex == hex)
        .map(|(_, g)| g.count(Good::Geese))
        .sum();
    match (geese, own) {
        (0, _) => Ok(()),
        (n, k) if n == k => Err(PlaneRefusal::DroppedGeese { geese: k }.into()),
        _ => Err(PlaneRefusal::UnattendedGeese.into()),
    }
}

/// Where plane `id` may land if it flies this turn with no drops, by the same rule a
/// `fly` order is judged by (`landing`): the places it may name (each area of a land
/// tile, or the sea), and the tiles closed to it, with why (a building; unattended
/// geese). `None` when `id` is no plane (Quick Guide IV; &cetera, planes).
pub fn landings(s: &State, id: TransporterId) -> Option<Landings> {
    if s.transporters.get(&id)?.kind != Kind::Plane {
        return None;
    }
    let (mut to, mut not) = (Vec::new(), Vec::new());
    for &h in s.map.tiles.keys() {
        match landing(s, h, &[]) {
            Err(why) => not.push((h, why)),
            Ok(()) if s.map.is_sea(h) => to.push(Location::Sea(h)),
            Ok(()) => to.extend(s.map.areas(h).into_iter().map(Location::Land)),
        }
    }
    Some(Landings { to, closed: not })
}

/// The template's line for where plane `id` may fly this turn: any tile, but the ones
/// closed to it and why. (Hook `reach_line`.)
fn reach_line(s: &State, id: TransporterId) -> Option<String> {
    let l = landings(s, id)?;
    let (built, geese): (Vec<_>, Vec<_>) = l
        .closed
        .iter()
        .partition(|(_, why)| *why == PlaneRefusal::LandingOnABuilding.into());
    let names = |v: Vec<&(Hex, Refusal)>| {
        v.iter()
            .map(|(h, _)| h.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut but = Vec::new();
    if !built.is_empty() {
        but.push(format!("{} (a building)", names(built)));
    }
    if !geese.is_empty() {
        but.push(format!("{} (unattended geese)", names(geese)));
    }
    Some(if but.is_empty() {
        "flies to: any tile".to_string()
    } else {
        format!("flies to: any tile except {}", but.join(", "))
    })
}

/// Where a plane may land: the places it may name, and the tiles closed to it with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Landings {
    pub to: Vec<Location>,
    pub closed: Vec<(Hex, Refusal)>,
}

// ---- Orders: `fly`, read and carried out here. ----

/// Planes' order (movement phase).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order")]
pub enum Order {
    /// Fly a plane: load at the start, with `follow` geese following it from there,
    /// drop goods on land tiles, land.
    Fly {
        plane: TransporterId,
        load: Goods,
        #[serde(default, skip_serializing_if = "crate::orders::is_zero")]
        follow: u32,
        drops: Vec<(AreaId, Goods)>,
        land: Location,
    },
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Fly {
                plane,
                load,
                follow,
                drops,
                land,
            } => {
                write!(f, "{plane} flies")?;
                if !load.is_empty() {
                    write!(f, " with {load}")?;
                }
                if *follow > 0 {
                    write!(f, ", {follow} geese following")?;
                }
                for (a, g) in drops {
                    write!(f, ", drops {g} on {a}")?;
                }
                write!(f, ", lands at {land}")
            }
        }
    }
}

/// `fly P1: load 2 boards; follow 2 geese; drop 1 board on C3; land C4`
fn read_fly(r: &mut Reader<'_>) -> R<super::Order> {
    let plane = r.transporter()?;
    r.eat(":");
    let mut load = Goods::new();
    let mut follow = 0;
    let mut drops = Vec::new();
    let mut land = None;
    loop {
        if r.eat("load") {
            load.add_all(&r.goods()?);
        } else if r.eat("follow") {
            follow += r.follow_count()?;
        } else if r.eat("drop") {
            let goods = r.goods()?;
            r.expect("on")?;
            drops.push((r.area()?, goods));
        } else if r.eat("land") {
            r.eat("at");
            land = Some(r.location()?);
        } else {
            return Err(r.missing("`load`, `follow`, `drop` or `land`"));
        }
        if !(r.eat(";") || r.eat(",")) {
            break;
        }
    }
    let land = land.ok_or_else(|| r.missing("`land` and where the plane lands"))?;
    Ok(super::Order::Planes(Order::Fly {
        plane,
        load,
        follow,
        drops,
        land,
    }))
}

/// Where the movement phase comes to the order.
pub(crate) fn carry_out(ctx: &mut Ctx, during: During<'_>, order: &Order) {
    let (
        During::Movement(ph),
        Order::Fly {
            plane,
            load,
            follow: geese,
            drops,
            land,
        },
    ) = (during, order)
    else {
        return;
    };
    fly(ctx, ph, *plane, load, *geese, drops, *land);
}

/// Why a flight was refused (&cetera, Planes; Quick Guide IV).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaneRefusal {
    #[error("there is a building")]
    LandingOnABuilding,
    #[error("the {} it dropped there would be unattended", Good::Geese.counted(*geese))]
    DroppedGeese { geese: u32 },
    #[error("there are unattended geese")]
    UnattendedGeese,
    #[error("{plane} is not a plane")]
    NotAPlane { plane: Named },
    #[error("planes are never allowed in rivers: land on a bank")]
    InARiver,
    #[error("{plane} cannot land at {at}")]
    CannotLandThere { plane: Named, at: Location },
    #[error("{plane} cannot fly: {why}")]
    CannotFly { plane: Named, why: Blocked },
    #[error("goods are dropped only on land tiles, not {area}")]
    DropOnLand { area: AreaId },
    #[error("{plane} cannot land at {hex}: {why}")]
    CannotLand {
        plane: Named,
        hex: Hex,
        why: Box<Refusal>,
    },
}
