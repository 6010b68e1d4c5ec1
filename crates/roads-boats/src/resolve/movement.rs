//! The movement phase (RULINGS R5; Quick Guide Ib, III–V; rulebook pp.10–12): each
//! player's movement orders in move order.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::production::unload_goods;
use crate::events::Fact;
use crate::goods::{Good, Goods};
use crate::map::{AreaId, Coast, Hex, Terrain};
use crate::modules::link;
use crate::modules::{self, During};
use crate::orders::{MovementOrder, Step, TurnOrders};
use crate::player::Colour;
use crate::refusal::{BoatPutDown, Link, NoFurther, Refusal};
use crate::state::State;
use crate::transporter::{Class, Kind, Location, TransporterId};
use crate::turn::consent::{self, Ledger};
use crate::turn::load_goods;
use crate::turn::moving::{Phase, blocked_reason, excluded, follow, sea_as_location};
use crate::turn::{Ctx, hand_over, home_area, pick_up, reach, reach_of};

pub(super) fn run(ctx: &mut Ctx, orders: &TurnOrders) {
    let mut ph = Phase {
        carried_at_start: ctx
            .s
            .transporters
            .iter()
            .filter(|(_, t)| matches!(t.at, Location::Carried(_)))
            .map(|(id, _)| *id)
            .collect(),
        ..Phase::default()
    };
    let items = consent::of(
        orders.iter().map(|(c, o)| (*c, o.movement.as_slice())),
        |o| match o {
            MovementOrder::Consent(c) => Some(c),
            _ => None,
        },
    );
    ctx.consents = Ledger::gather(ctx, items);
    // A player takes back their transporter that another player carries at the very
    // start of the phase, before anyone moves (Quick Guide III: a transporter is dropped
    // off at the beginning of the movement phase); in move order.
    let mut taken_back: BTreeSet<(Colour, u32)> = BTreeSet::new();
    for player in ctx.in_move_order() {
        let Some(list) = orders.get(&player) else {
            continue;
        };
        ctx.player = Some(player);
        for o in &list.movement {
            if let MovementOrder::Release {
                carrier,
                carried,
                at,
            } = &o.order
            {
                let owner = |id| ctx.s.transporters.get(id).map(|t| t.owner);
                if owner(carried) == Some(player) && owner(carrier) != Some(player) {
                    ctx.line = Some(o.line);
                    release(ctx, &ph, *carrier, *carried, *at);
                    taken_back.insert((player, o.line));
                }
            }
        }
    }
    for player in ctx.in_move_order() {
        let Some(list) = orders.get(&player) else {
            continue;
        };
        ctx.player = Some(player);
        for o in &list.movement {
            ctx.line = Some(o.line);
            if taken_back.contains(&(player, o.line)) {
                continue;
            }
            match &o.order {
                MovementOrder::Move { transporter, steps } => {
                    travel(ctx, &mut ph, *transporter, steps)
                }
                MovementOrder::Module(m) => modules::carry_out(ctx, During::Movement(&mut ph), m),
                MovementOrder::Release {
                    carrier,
                    carried,
                    at,
                } => release(ctx, &ph, *carrier, *carried, *at),
                // Gathered before the phase.
                MovementOrder::Consent(_) => {}
            }
        }
    }
    ctx.player = None;
    ctx.line = None;
    settle_geese(ctx);
}

/// Another player's wall on the border between two tiles bars `player` (RULINGS R3).
pub(crate) fn wall_bars(ctx: &Ctx, a: Hex, b: Hex, player: Colour) -> Result<(), Refusal> {
    let Some(border) = ctx.s.map.border(a, b) else {
        return Ok(());
    };
    match ctx.s.map.wall(border) {
        Some(w) if !w.lets_through(player) => Err(Refusal::WallBars {
            owner: w.owner,
            border,
        }),
        _ => Ok(()),
    }
}

/// One step on land: to a neighbouring tile's area, or across a bridge in the tile.
/// Returns whether the step ran along a road and whether it cost a movement point.
fn land_step(
    ctx: &Ctx,
    (player, kind): (Colour, Kind),
    from: AreaId,
    to: Location,
) -> Result<(AreaId, bool, bool), Refusal> {
    let map = &ctx.s.map;
    let Location::Land(to) = to else {
        return Err(Refusal::NotLand { to });
    };
    if !map.has_area(to) {
        return Err(Refusal::NoSuchArea { area: to });
    }
    if to.hex != from.hex && kind.class() == Class::Land {
        // &cetera, polder: "land transporters cannot enter or leave" a flooded polder (a
        // plane is no land transporter: RULINGS R10, Planes and the tide; `taxi_step`).
        modules::leaving(&ctx.s, Class::Land, Location::Land(from))?;
        modules::entering(&ctx.s, Class::Land, Location::Land(to))?;
    }
    if to.hex == from.hex {
        return if map.on_same_side(from, to) {
            Ok((to, true, false))
        } else {
            Err(Refusal::RiverBetween { from, to })
        };
    }
    if from.hex.direction_to(to.hex).is_none() {
        return Err(Refusal::NotNextTo {
            to: to.hex,
            from: from.hex,
        });
    }
    if !map.is_land(to.hex) {
        return Err(Refusal::IsSea { hex: to.hex });
    }
    // &cetera, art: "exhibition caravans can freely move through walls".
    if kind != Kind::Caravan {
        wall_bars(ctx, from.hex, to.hex, player)?;
    }
    // RULINGS R3: no river, and no city's moat, is crossed without a bridge (`link`); a
    // moat bars every bank of the border, and says so.
    modules::crossing(&ctx.s, from.hex, to.hex)?;
    let here = map.same_side(from);
    let there = map.same_side(to);
    let road = map.roads.iter().any(|r| {
        (here.contains(&r.from) && there.contains(&r.to))
            || (here.contains(&r.to) && there.contains(&r.from))
    });
    let crossing = road
        || here.iter().any(|a| {
            there
                .iter()
                .any(|b| link(&ctx.s, *a, *b, Link::Step).is_ok())
        });
    if !crossing {
        return Err(Refusal::NoBridgeAcross { from, to });
    }
    Ok((to, road, true))
}

/// One step on water (RULINGS R5): along a river like a road, river to sea, sea to sea,
/// docking (which ends the move), and leaving a dock to the sea it faces.
fn water_step(
    ctx: &Ctx,
    player: Colour,
    from: Location,
    to: Location,
) -> Result<(Location, bool), Refusal> {
    let map = &ctx.s.map;
    let arm_toward = |x: Hex, y: Hex| {
        x.direction_to(y)
            .is_some_and(|d| map.tile(x).is_some_and(|t| t.river.contains(d)))
    };
    // A city's moat is a river joined to the sea beside it and to rivers that flow into
    // it (&cetera, city).
    let moat = |h: Hex| modules::moat(&ctx.s, h);
    let river_toward = |x: Hex, y: Hex| {
        x.direction_to(y).is_some()
            && (arm_toward(x, y)
                || (moat(x) && (moat(y) || arm_toward(y, x) || map.is_sea(y)))
                || (moat(y) && arm_toward(x, y)))
    };
    let check_wall = |a: Hex, b: Hex| wall_bars(ctx, a, b, player);
    // &cetera, polder: a boat on a dry polder, or docked at one, is stranded; a flooded
    // one is sea for boats.
    modules::leaving(&ctx.s, Class::Water, from)?;
    if let Location::Dock(_) = to {
        modules::entering(&ctx.s, Class::Water, to)?;
    }
    let is_sea = |h: Hex| map.is_sea(h) || modules::sea_now(&ctx.s, h);
    match (from, to) {
        (Location::River(x), Location::River(y)) => {
            if !river_toward(x, y) || !map.is_land(y) {
                return Err(Refusal::NoRiverRuns { from: x, to: y });
            }
            check_wall(x, y)?;
            Ok((to, false))
        }
        (Location::River(x), Location::Sea(y)) | (Location::Sea(y), Location::River(x)) => {
            if !river_toward(x, y) || !map.is_sea(y) {
                return Err(Refusal::NoOutflow { river: x, sea: y });
            }
            check_wall(x, y)?;
            Ok((to, false))
        }
        (Location::Sea(y), Location::Sea(z)) => {
            if y.direction_to(z).is_none() || !is_sea(z) {
                return Err(Refusal::NotSeaNextTo { to: z, from: y });
            }
            Ok((to, false))
        }
        (Location::Sea(y), Location::Dock(c)) => {
            if c.sea != y || !map.is_coast(c) {
                return Err(Refusal::CannotDock {
                    sea: y,
                    land: c.land,
                });
            }
            if let Err(Refusal::WallBars { owner, border }) = wall_bars(ctx, c.land.hex, y, player)
            {
                return Err(Refusal::DockBarred { owner, border });
            }
            Ok((to, true))
        }
        (Location::Dock(c), Location::Sea(y)) => {
            if c.sea != y {
                return Err(Refusal::LeaveDock { sea: c.sea });
            }
            Ok((to, false))
        }
        (from, to) => Err(Refusal::BoatCannotGo { from, to }),
    }
}

fn travel(ctx: &mut Ctx, ph: &mut Phase, id: TransporterId, steps: &[Step]) {
    let Some(player) = ctx.player else { return };
    if let Err(e) = ctx.own(id) {
        return ctx.fail(e);
    }
    // An order with no position in it moves nothing: loading, unloading, handing over,
    // picking up and calling geese cost no movement (Quick Guide Ib: "Players may
    // pickup/drop off goods in a hex without expending movement points"). So it is not
    // the transporter's move: it may come before its move or its train ride, or after
    // them, where it is (&cetera, Trains: the ride is its whole move, and no goods are
    // dropped out of a running train — at the end of the ride the train has stopped).
    let moves = steps.iter().any(|s| matches!(s, Step::To(_)));
    if moves && ph.moved.contains(&id) {
        return ctx.fail(Refusal::AlreadyMoved { id: id.named() });
    }
    let Some(t) = ctx.s.transporters.get(&id).cloned() else {
        return;
    };
    let kind = t.kind;
    let points = points(kind);
    if moves && kind == Kind::Plane && !t.cargo.is_empty() {
        return ctx.fail(Refusal::TaxiingPlaneLaden { id });
    }
    if moves {
        ph.moved.insert(id);
    }
    let mut pos = t.at;
    let mut path = vec![pos];
    let mut used = 0u32;
    let mut going = Going::default();
    // Did a step fail (and say so)?
    let mut stopped = false;
    for step in steps {
        // The events of a step that is not a move are marked with how far the move had
        // gone.
        let from = ctx.events.len();
        let reached = path.len();
        match step {
            Step::To(target) => {
                let mut target = sea_as_location(ctx, *target);
                // A boat goes onto a flooded polder as onto the sea (&cetera, polder).
                if let Location::Land(a) = target
                    && kind.class() == Class::Water
                    && modules::sea_now(&ctx.s, a.hex)
                {
                    target = Location::Sea(a.hex);
                }
                // A step to where it already is goes nowhere: no point, no path.
                if target == pos {
                    continue;
                }
                let result = one_step(ctx, (player, kind), pos, target, &mut going);
                match result {
                    Ok((next, costs)) => {
                        if costs {
                            used += 1;
                        }
                        let allowed = allowed(kind, going);
                        if used > allowed {
                            let why = if kind == Kind::Donkey && going.offroad {
                                NoFurther::DonkeyOffTheRoad
                            } else {
                                NoFurther::OutOfPoints { kind, points }
                            };
                            ctx.fail(Refusal::CannotGoOn {
                                id: id.named(),
                                target,
                                why,
                                pos,
                            });
                            stopped = true;
                            break;
                        }
                        if let Some(why) = blocked_reason(ph, id) {
                            ctx.fail(Refusal::CannotGoOn {
                                id: id.named(),
                                target,
                                why: NoFurther::Blocked(why),
                                pos,
                            });
                            stopped = true;
                            break;
                        }
                        pos = next;
                        path.push(pos);
                        if let Some(t) = ctx.s.transporters.get_mut(&id) {
                            t.at = pos;
                            let cargo = t.cargo.clone();
                            ph.mark_moved(id, &cargo);
                        }
                    }
                    Err(why) => {
                        ctx.fail(Refusal::CannotGoTo {
                            id,
                            target,
                            why: Box::new(why),
                            pos,
                        });
                        stopped = true;
                        break;
                    }
                }
            }
            Step::Load { goods, area } => {
                if kind == Kind::Plane {
                    ctx.fail(Refusal::TaxiingCarriesNothing { id: id.named() });
                    continue;
                }
                let areas = match area {
                    Some(a) => vec![*a],
                    None => reach(&ctx.s, id),
                };
                let ex = excluded(ctx, ph, &areas, id);
                let got = load_goods(ctx, id, goods, *area, &ex);
                reload_own(ph, &areas, player, id, &got);
            }
            Step::Unload { goods, area } => {
                let before = cargo_of(ctx, id);
                if let Some((at, put)) = unload_goods(ctx, id, goods, *area) {
                    for (g, n) in put.iter() {
                        for (mover, k) in ph.take(id, g, n, before.count(g)) {
                            if let Some(m) = mover {
                                ph.dropped.entry((at, player, m)).or_default().add(g, k);
                            }
                        }
                    }
                    ph.arrived.entry(at).or_default().add_all(&put);
                }
            }
            Step::Give { to, goods } => give(ctx, ph, id, *to, goods),
            Step::Follow(_) if kind == Kind::Plane && path.len() > 1 => {
                ctx.fail(Refusal::GeeseFollowAPlane { id });
            }
            Step::Follow(n) => follow(ctx, id, *n),
            Step::Carry(other) => carry(ctx, ph, id, *other),
        }
        if !matches!(step, Step::To(_)) {
            for event in from..ctx.events.len() {
                ctx.marks.push(crate::turn::PathMark {
                    event,
                    transporter: id,
                    reached,
                });
            }
        }
    }
    if path.len() > 1 {
        ctx.emit(Fact::Moved {
            transporter: id,
            path,
        });
        modules::after_move(ctx, id);
    } else if moves && !stopped {
        // Every step was to where it stood (a standing order, say): it stayed.
        ctx.emit(Fact::Stayed {
            transporter: id,
            at: pos,
        });
    }
}

/// Movement points of each kind of transporter (Quick Guide III; &cetera, art: a
/// caravan 1; Planes & Trains: a taxiing plane 1).
fn points(kind: Kind) -> u32 {
    match kind {
        Kind::Donkey => 2,
        Kind::Wagon | Kind::Raft => 3,
        Kind::Truck | Kind::Rowboat => 4,
        Kind::Steamer => 6,
        Kind::Plane | Kind::Caravan => 1,
    }
}

/// How a move has gone so far: a donkey that stepped off the road goes only one tile
/// (RULINGS R5), and a boat that docked goes no further.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Going {
    offroad: bool,
    docked: bool,
}

/// The movement points a move may use, as it has gone.
fn allowed(kind: Kind, going: Going) -> u32 {
    if kind == Kind::Donkey && going.offroad {
        1
    } else {
        points(kind)
    }
}

/// One step of a transporter of `kind` from `pos` to `target` (RULINGS R5): where it
/// gets, and whether the step cost a movement point; `going` notes an off-road step and
/// docking.
fn one_step(
    ctx: &Ctx,
    (player, kind): (Colour, Kind),
    pos: Location,
    target: Location,
    going: &mut Going,
) -> Result<(Location, bool), Refusal> {
    match (kind.class(), pos) {
        (Class::Water, _) if going.docked => Err(Refusal::AlreadyDocked),
        (Class::Water, _) => water_step(ctx, player, pos, target).map(|(l, d)| {
            going.docked = d;
            (l, true)
        }),
        (Class::Air, _) => taxi_step(ctx, (player, kind), pos, target),
        (_, Location::Land(from)) => {
            land_step(ctx, (player, kind), from, target).and_then(|(a, road, costs)| {
                if costs && !road {
                    match kind {
                        Kind::Donkey => going.offroad = true,
                        // &cetera, art: 1 step "on roads or unpaved land".
                        Kind::Caravan => {}
                        _ => return Err(Refusal::OnlyOnRoads { kind }),
                    }
                }
                Ok((Location::Land(a), costs))
            })
        }
        (_, at) => Err(Refusal::CannotMoveOnLand { kind, at }),
    }
}

/// One taxiing step of a plane (&cetera, Planes: "one step over roads", or "from one sea
/// tile onto an adjacent sea tile, but not from land onto sea or from sea onto land"; never
/// into a river). RULINGS R10 (Planes and the tide): a plane is neither a land nor a water
/// transporter, so the tide never strands it; taxiing, a dry polder is land (one step
/// over a road) and a flooded polder is sea (a taxi to an adjacent sea tile or flooded
/// polder, never onto land). A plane on a polder stands on its land, flooded or not (as
/// where it lands), so a polder named as a sea is the polder's land.
fn taxi_step(
    ctx: &Ctx,
    (player, kind): (Colour, Kind),
    pos: Location,
    target: Location,
) -> Result<(Location, bool), Refusal> {
    let s = &ctx.s;
    let target = match target {
        Location::Sea(hex) if s.map.terrain(hex) == Some(Terrain::Polder) => {
            Location::Land(AreaId { hex, side: None })
        }
        t => t,
    };
    // The tile a place is, when it is sea to a taxiing plane.
    let sea = |l: Location| match l {
        Location::Sea(h) if s.map.is_sea(h) => Some(h),
        Location::Land(a) if modules::sea_now(s, a.hex) => Some(a.hex),
        _ => None,
    };
    match (sea(pos), sea(target), pos) {
        (Some(from), Some(to), _) => {
            if let Location::Land(a) = target
                && !s.map.has_area(a)
            {
                return Err(Refusal::NoSuchArea { area: a });
            }
            if from.direction_to(to).is_none() {
                return Err(Refusal::NotSeaNextTo { to, from });
            }
            Ok((target, true))
        }
        (Some(_), None, _) => Err(Refusal::TaxiSeaToSea),
        (None, Some(hex), Location::Land(_)) => Err(if s.map.is_land(hex) {
            Refusal::TaxiOntoAFlood { hex }
        } else {
            Refusal::TaxiLandToSea { hex }
        }),
        (None, _, Location::Land(from)) => {
            let (a, road, costs) = land_step(ctx, (player, kind), from, target)?;
            if costs && !road {
                return Err(Refusal::TaxiOnRoads);
            }
            Ok((Location::Land(a), costs))
        }
        (None, _, at) => Err(Refusal::CannotMoveOnLand { kind, at }),
    }
}

/// A place a transporter can get to in one movement phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    pub at: Location,
    /// Movement points left there.
    pub left: u32,
    /// The places it goes through, after where it stands, ending at `at`: the steps of
    /// a `move` order.
    pub path: Vec<Location>,
}

/// A first step that the rules refuse, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    pub at: Location,
    pub why: Refusal,
}

/// Where transporter `id` can get in a movement phase from where it stands, judged by
/// the movement rules step by step (the same `one_step` a `move` order runs): each place
/// once, with the most points left, best paths first; and the neighbouring places its
/// first step cannot go to, with why (a wall, a river without a bridge, land for a boat,
/// a road a wagon needs). A plane's flight and a train's ride are not steps: a plane is
/// listed where it may taxi.
pub fn range(s: &State, id: TransporterId) -> (Vec<Reached>, Vec<Stopped>) {
    let Some(t) = s.transporters.get(&id) else {
        return (Vec::new(), Vec::new());
    };
    // A taxiing plane carries nothing (Quick Guide IV).
    if t.kind == Kind::Plane && !t.cargo.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let ctx = Ctx::new(s.clone(), &judge_core::luck::Luck::predictable(0));
    let who = (t.owner, t.kind);
    // Best first: the most points left, then on the road (a donkey off it goes no
    // further), then not docked.
    let mut best: BTreeMap<Location, (u32, Going, Vec<Location>)> = BTreeMap::new();
    let mut stopped = Vec::new();
    let mut queue: VecDeque<(Location, u32, Going, Vec<Location>)> =
        VecDeque::from([(t.at, 0, Going::default(), Vec::new())]);
    while let Some((pos, used, going, path)) = queue.pop_front() {
        for target in neighbours(&ctx.s, t.kind, pos) {
            let mut g = going;
            let (next, costs) = match one_step(&ctx, who, pos, target, &mut g) {
                Ok(r) => r,
                Err(why) => {
                    if path.is_empty() && !stopped.iter().any(|s: &Stopped| s.at == target) {
                        stopped.push(Stopped { at: target, why });
                    }
                    continue;
                }
            };
            let used = used + u32::from(costs);
            if used > allowed(t.kind, g) || next == t.at {
                continue;
            }
            let left = allowed(t.kind, g) - used;
            let better = match best.get(&next) {
                None => true,
                Some((l, bg, p)) => {
                    (left, !g.offroad, !g.docked) > (*l, !bg.offroad, !bg.docked)
                        || (left == *l && g == *bg && path.len() + 1 < p.len())
                }
            };
            if !better {
                continue;
            }
            let mut p = path.clone();
            p.push(next);
            best.insert(next, (left, g, p.clone()));
            queue.push_back((next, used, g, p));
        }
    }
    // A place reached is no stop.
    stopped.retain(|s| !best.contains_key(&s.at));
    let reached = best
        .into_iter()
        .map(|(at, (left, _, path))| Reached { at, left, path })
        .collect();
    (reached, stopped)
}

/// Every place next to `pos` a transporter of `kind` might step to: the areas of the
/// tile and of its neighbours on land; rivers, seas and docks on water.
fn neighbours(s: &State, kind: Kind, pos: Location) -> Vec<Location> {
    let map = &s.map;
    let areas = |h: Hex| map.areas(h).into_iter().map(Location::Land);
    let mut out = Vec::new();
    match (kind.class(), pos) {
        (Class::Water, Location::River(x)) => {
            for (_, y) in map.neighbours(x) {
                out.push(if map.is_land(y) {
                    Location::River(y)
                } else {
                    Location::Sea(y)
                });
            }
        }
        // A plane at sea, or on a flooded polder, taxis as at sea: to the seas and
        // polders around (RULINGS R10, Planes and the tide); it stands on a polder's land.
        (Class::Air, Location::Sea(y)) => {
            for (_, z) in map.neighbours(y) {
                match map.terrain(z) {
                    Some(Terrain::Polder) => out.extend(areas(z)),
                    _ => out.push(Location::Sea(z)),
                }
            }
        }
        (Class::Air, Location::Land(a)) if modules::sea_now(s, a.hex) => {
            for (_, z) in map.neighbours(a.hex) {
                if map.is_sea(z) {
                    out.push(Location::Sea(z));
                } else {
                    out.extend(areas(z));
                }
            }
        }
        (Class::Water, Location::Sea(y)) => {
            for (_, z) in map.neighbours(y) {
                out.push(Location::Sea(z));
                if map.is_land(z) {
                    out.push(Location::River(z));
                    for a in map.areas(z) {
                        out.push(Location::Dock(Coast { land: a, sea: y }));
                    }
                }
            }
        }
        (Class::Water, Location::Dock(c)) => out.push(Location::Sea(c.sea)),
        (_, Location::Land(a)) => {
            out.extend(areas(a.hex).filter(|l| *l != pos));
            for (_, n) in map.neighbours(a.hex) {
                out.extend(areas(n));
            }
        }
        _ => {}
    }
    out
}

/// Hand goods to another transporter at the same place (RULINGS R5): to one's own
/// freely — but what the giver moved this phase is then blocked aboard the receiver,
/// which may not move it on — and to another player's as far as that player accepts.
/// A plane takes goods only before it moves.
fn give(ctx: &mut Ctx, ph: &mut Phase, id: TransporterId, to: TransporterId, goods: &Goods) {
    if ctx
        .s
        .transporters
        .get(&to)
        .is_some_and(|t| t.kind == Kind::Plane)
        && ph.moved.contains(&to)
    {
        return ctx.fail(Refusal::PlaneHasMoved { to });
    }
    let before = cargo_of(ctx, id);
    let same_owner = ctx.s.transporters.get(&id).map(|t| t.owner)
        == ctx.s.transporters.get(&to).map(|t| t.owner);
    let given = hand_over(ctx, id, to, goods);
    for (g, n) in given.iter() {
        for (mover, k) in ph.take(id, g, n, before.count(g)) {
            if let (true, Some(m)) = (same_owner, mover) {
                *ph.moved_by.entry((to, g, m)).or_default() += k;
            }
        }
    }
    if !given.is_empty() {
        ph.received.entry(to).or_default().add_all(&given);
    }
}

fn cargo_of(ctx: &Ctx, id: TransporterId) -> Goods {
    ctx.s
        .transporters
        .get(&id)
        .map(|t| t.cargo.clone())
        .unwrap_or_default()
}

/// Goods `id` loads that it moved and put down itself this phase are again goods it
/// moved (and no longer lie there for the exclusion of others).
fn reload_own(ph: &mut Phase, areas: &[AreaId], player: Colour, id: TransporterId, got: &Goods) {
    for (g, n) in got.iter() {
        let mut left = n;
        for a in areas {
            if left == 0 {
                break;
            }
            if let Some(d) = ph.dropped.get_mut(&(*a, player, id)) {
                let k = d.take(g, left);
                left -= k;
                *ph.moved_by.entry((id, g, id)).or_default() += k;
            }
        }
    }
}

/// Pick up a transporter that has not moved this phase; neither may carry anything else
/// (Quick Guide III).
fn carry(ctx: &mut Ctx, ph: &mut Phase, id: TransporterId, other: TransporterId) {
    if pick_up(ctx, id, other, ph.moved.contains(&other)) {
        ph.moved.insert(other);
    }
}

/// Put down a transporter carried since an earlier turn, at the start of the phase,
/// where the carrier is; a boat only into water there (Quick Guide III).
fn release(
    ctx: &mut Ctx,
    ph: &Phase,
    carrier: TransporterId,
    carried: TransporterId,
    at: Location,
) {
    let Some(c) = ctx.s.transporters.get(&carrier).cloned() else {
        return ctx.fail(Refusal::NoTransporter {
            id: carrier.named(),
        });
    };
    let Some(t) = ctx.s.transporters.get(&carried).cloned() else {
        return ctx.fail(Refusal::NoTransporter {
            id: carried.named(),
        });
    };
    // The carrier's owner puts it down, or the carried one's owner takes it back.
    if ctx.player != Some(t.owner)
        && let Err(e) = ctx.own(carrier)
    {
        return ctx.fail(e);
    }
    if t.at != Location::Carried(carrier) || !ph.carried_at_start.contains(&carried) {
        return ctx.fail(Refusal::NotCarriedSince { carrier, carried });
    }
    if ph.moved.contains(&carrier) {
        return ctx.fail(Refusal::PutDownFirst { carried, carrier });
    }
    let at = sea_as_location(ctx, at);
    let here = reach_of(&ctx.s, c.at);
    let map = &ctx.s.map;
    // A boat goes only into water its carrier touches (rulebook, carrying transporters:
    // a boat in a river unloads another boat only in that river, a boat on shore only on
    // the same shore); a land carrier reaches its tile's river and its side's coasts.
    let ok = match (t.kind.class(), at, c.at) {
        (Class::Water, Location::River(h), Location::River(x)) => h == x,
        (Class::Water, Location::River(h), Location::Land(a)) => {
            a.hex == h && map.tile(h).is_some_and(|x| x.has_river())
        }
        (Class::Water, Location::Dock(coast), Location::Dock(x)) => coast == x,
        (Class::Water, Location::Dock(coast), Location::Land(_)) => {
            map.is_coast(coast) && here.contains(&coast.land)
        }
        (Class::Water | Class::Air, Location::Sea(h), _) => c.at == Location::Sea(h),
        (Class::Land | Class::Air, Location::Land(a), _) => here.contains(&a),
        _ => false,
    };
    if !ok {
        let why = match (t.kind.class(), c.at) {
            (Class::Water, Location::River(hex)) => BoatPutDown::River { hex },
            (Class::Water, Location::Dock(x)) => BoatPutDown::Dock {
                land: x.land,
                sea: x.sea,
            },
            _ => BoatPutDown::Anywhere,
        };
        return ctx.fail(Refusal::CannotPutDown {
            carried,
            at,
            carrier,
            from: c.at,
            why,
        });
    }
    if let (Class::Water, Location::Dock(coast)) = (t.kind.class(), at)
        && let Err(why) = wall_bars(ctx, coast.land.hex, coast.sea, t.owner)
    {
        return ctx.fail(Refusal::PutDownBehindAWall {
            carried,
            at,
            why: Box::new(why),
        });
    }
    if let Some(x) = ctx.s.transporters.get_mut(&carried) {
        x.at = at;
    }
    ctx.emit(Fact::PutDown {
        carrier,
        carried,
        at,
    });
}

/// At the end of the phase, geese following a transporter on land settle on its area;
/// at sea they stay with it.
fn settle_geese(ctx: &mut Ctx) {
    let ids: Vec<TransporterId> = ctx
        .s
        .transporters
        .iter()
        .filter(|(_, t)| t.following_geese > 0)
        .map(|(id, _)| *id)
        .collect();
    for id in ids {
        let Some(t) = ctx.s.transporters.get(&id).cloned() else {
            continue;
        };
        if matches!(t.at, Location::Sea(_) | Location::Carried(_)) {
            continue;
        }
        if let Ok(area) = home_area(&ctx.s, t.at) {
            ctx.s
                .goods
                .entry(area)
                .or_default()
                .add(Good::Geese, t.following_geese);
            if let Some(x) = ctx.s.transporters.get_mut(&id) {
                x.following_geese = 0;
            }
        }
    }
}
