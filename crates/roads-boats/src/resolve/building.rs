//! The building phase (RULINGS R3, R6; Quick Guide VI–VIII; rulebook pp.12–15): each
//! player's building orders in move order.

use crate::building::{Building, BuildingKind, MineBag};
use crate::events::Fact;
use crate::goods::{Good, Goods};
use crate::map::{AreaId, Border, Dir, Hex, Road, Terrain, Wall};
use crate::modules::link;
use crate::modules::{self, During};
use crate::orders::{BuildingOrder, TurnOrders};
use crate::player::Research;
use crate::refusal::{Link, Refusal};
use crate::transporter::{Location, TransporterId};
use crate::turn::consent::{self, Ledger};
use crate::turn::{Ctx, reach};
pub(crate) use crate::turn::{Purse, building_at, one};

pub(super) fn run(ctx: &mut Ctx, orders: &TurnOrders) {
    let items = consent::of(
        orders.iter().map(|(c, o)| (*c, o.building.as_slice())),
        |o| match o {
            BuildingOrder::Consent(c) => Some(c),
            _ => None,
        },
    );
    ctx.consents = Ledger::gather(ctx, items);
    for player in ctx.in_move_order() {
        let Some(list) = orders.get(&player) else {
            continue;
        };
        ctx.player = Some(player);
        for o in &list.building {
            ctx.line = Some(o.line);
            order(ctx, &o.order);
        }
    }
}

fn order(ctx: &mut Ctx, order: &BuildingOrder) {
    let with = match order {
        // Gathered before the phase.
        BuildingOrder::Consent(_) => return,
        BuildingOrder::Module(m) => return modules::carry_out(ctx, During::Building, m),
        BuildingOrder::Build { with, .. }
        | BuildingOrder::Road { with, .. }
        | BuildingOrder::Bridge { with, .. }
        | BuildingOrder::Wall { with, .. }
        | BuildingOrder::Demolish { with, .. }
        | BuildingOrder::Shaft { with, .. } => *with,
    };
    if let Err(e) = ctx.own(with) {
        return ctx.fail(e);
    }
    let result = match order {
        BuildingOrder::Build {
            kind, at, mixture, ..
        } => build(ctx, *kind, *at, with, *mixture),
        BuildingOrder::Road { from, to, .. } => road(ctx, *from, *to, with),
        BuildingOrder::Bridge { at, over, .. } => bridge(ctx, *at, *over, with),
        BuildingOrder::Wall { border, tokens, .. } => walls(ctx, *border, with, *tokens),
        BuildingOrder::Demolish { border, .. } => demolish(ctx, *border, with),
        BuildingOrder::Shaft { at, mixture, .. } => shaft(ctx, *at, *mixture, with),
        BuildingOrder::Consent(_) | BuildingOrder::Module(_) => Ok(()),
    };
    if let Err(e) = result {
        ctx.fail(e);
    }
}

fn researched(ctx: &Ctx, r: Research) -> bool {
    ctx.player
        .and_then(|p| ctx.s.players.get(&p))
        .is_some_and(|p| p.research.contains(&r))
}

/// The mixture a new mine or shaft gets (RULINGS R4; rulebook p.16).
fn mixture(ctx: &Ctx, wanted: Option<MineBag>) -> Result<MineBag, Refusal> {
    match wanted {
        None => Ok(MineBag::ORDINARY),
        Some(m) if m == MineBag::ORDINARY => Ok(m),
        Some(MineBag { gold: 4, iron: 0 } | MineBag { gold: 0, iron: 4 }) => {
            if researched(ctx, Research::SpecialisedMines) {
                Ok(wanted.unwrap_or_default())
            } else {
                Err(Refusal::SpecialisedMixture)
            }
        }
        Some(MineBag { gold: 5, iron: 5 }) => {
            if researched(ctx, Research::LargeMines) {
                Ok(MineBag { gold: 5, iron: 5 })
            } else {
                Err(Refusal::LargeMixture)
            }
        }
        Some(m) => Err(Refusal::NoSuchMixture {
            gold: m.gold,
            iron: m.iron,
        }),
    }
}

fn build(
    ctx: &mut Ctx,
    kind: BuildingKind,
    at: AreaId,
    with: TransporterId,
    wanted: Option<MineBag>,
) -> Result<(), Refusal> {
    let hex = at.hex;
    if let Some(module) = crate::modules::of_building(kind)
        && !ctx.s.settings.modules.contains(&module)
    {
        return Err(Refusal::NotInPlay { module });
    }
    if let Some(research) = kind.research_needed()
        && !researched(ctx, research)
    {
        return Err(Refusal::NeedsResearch { kind, research });
    }
    // The terrain as it is now: an irrigated desert is pasture in every message.
    let terrain = ctx.s.terrain_now(hex).ok_or(Refusal::NotOnMap { hex })?;
    if !kind.site().allows(&ctx.s.map, hex) {
        return Err(Refusal::WrongSite {
            kind,
            site: kind.site(),
            hex,
            terrain,
        });
    }
    // &cetera, management: "the desert MBA can be built in the desert before
    // irrigation is invented!"
    if terrain == Terrain::Desert && kind != BuildingKind::MbaDesert {
        return Err(Refusal::Desert { hex });
    }
    let (limit, rule) = crate::building::room_on(terrain);
    if ctx.s.buildings_on(hex).count() >= limit {
        return Err(Refusal::NoRoom {
            hex,
            city: terrain == Terrain::City,
            rule,
        });
    }
    if wanted.is_some() && kind != BuildingKind::Mine {
        return Err(Refusal::MixtureForAMine { kind });
    }
    let mine = (kind == BuildingKind::Mine)
        .then(|| mixture(ctx, wanted))
        .transpose()?;
    let purse = if matches!(kind, BuildingKind::OilRig | BuildingKind::PearlFisherman) {
        // Rulebook p.13: all the material for an oil rig is carried in (and for a pearl
        // fisherman, the other building at sea: &cetera, art).
        let t = ctx.s.transporters.get(&with).map(|t| t.at);
        if t != Some(Location::Sea(at.hex)) {
            return Err(Refusal::BuildFromTheSea {
                with: with.named(),
                hex,
                kind,
            });
        }
        Purse::carried(ctx, with)
    } else {
        if !reach(&ctx.s, with).contains(&at) {
            return Err(Refusal::NotAtBuildSite {
                with: with.named(),
                at,
            });
        }
        Purse::at(ctx, with, at)
    };
    purse.pay(ctx, &kind.cost())?;
    ctx.s.buildings.push(Building {
        kind,
        at,
        mine,
        used: 0,
        bomb_proof: false,
    });
    ctx.s.normalise();
    ctx.emit(Fact::Built { building: kind, at });
    Ok(())
}

fn road(ctx: &mut Ctx, from: AreaId, to: AreaId, with: TransporterId) -> Result<(), Refusal> {
    ctx.s.map.road_fits(from, to)?;
    if !reach(&ctx.s, with).contains(&from) {
        return Err(Refusal::NotAtRoadStart {
            with: with.named(),
            from,
        });
    }
    // A road crosses no river, nor a city's moat, without a bridge (&cetera, city: a road
    // out of a city needs the moat bridge on that side).
    link(&ctx.s, from, to, Link::Road)?;
    let r = Road::new(from, to);
    if ctx.s.map.roads.contains(&r) {
        return Err(Refusal::RoadThere { road: r });
    }
    Purse::at(ctx, with, from).pay(ctx, &one(Good::Stone, 1))?;
    ctx.s.map.roads.insert(r);
    ctx.emit(Fact::RoadBuilt {
        from: r.from,
        to: r.to,
    });
    Ok(())
}

fn bridge(ctx: &mut Ctx, at: Hex, over: Option<Dir>, with: TransporterId) -> Result<(), Refusal> {
    if modules::moat(&ctx.s, at) {
        return moat_bridge(ctx, at, over, with);
    }
    if ctx.s.map.terrain(at) == Some(Terrain::Polder) {
        return Err(Refusal::BridgeInPolder);
    }
    if ctx.s.terrain_now(at) == Some(Terrain::Desert) {
        return Err(Refusal::Desert { hex: at });
    }
    let b = ctx.s.map.bridge_at(at, over)?;
    if ctx.s.map.bridges.contains(&b) {
        return Err(Refusal::BridgeThere { hex: at });
    }
    let beside = ctx.s.map.tile(at).and_then(|t| t.areas_beside_arm(b.over));
    let reached = reach(&ctx.s, with);
    let banks: Vec<AreaId> = beside
        .into_iter()
        .flat_map(|(x, y)| [x, y])
        .map(|side| AreaId {
            hex: at,
            side: Some(side),
        })
        .filter(|a| reached.contains(a))
        .collect();
    if banks.is_empty() {
        return Err(Refusal::NotBesideTheRiver {
            with: with.named(),
            hex: at,
        });
    }
    Purse::over(ctx, with, &banks).pay(ctx, &one(Good::Stone, 1))?;
    ctx.s.map.bridges.insert(b);
    ctx.emit(Fact::BridgeBuilt { at });
    Ok(())
}

/// &cetera, city: a bridge over the city's moat on one side, built from the city or from
/// the neighbour on that side; "a city can have up to six bridges".
fn moat_bridge(
    ctx: &mut Ctx,
    at: Hex,
    over: Option<Dir>,
    with: TransporterId,
) -> Result<(), Refusal> {
    let Some(dir) = over else {
        return Err(Refusal::MoatBridgeSide { hex: at });
    };
    let Some(across) = at.step(dir).filter(|h| ctx.s.map.tiles.contains_key(h)) else {
        return Err(Refusal::NoNeighbourToward { hex: at, dir });
    };
    let b = crate::map::Bridge { hex: at, over: dir };
    if ctx.s.map.bridges.contains(&b) {
        return Err(Refusal::MoatBridgeThere { hex: at, dir });
    }
    let reached = reach(&ctx.s, with);
    let mut sites: Vec<AreaId> = ctx
        .s
        .map
        .areas(at)
        .into_iter()
        .filter(|a| reached.contains(a))
        .collect();
    if sites.is_empty() {
        // From the neighbouring tile: the bank of it that faces the city.
        sites = reached
            .into_iter()
            .filter(|a| a.hex == across && ctx.s.map.area_touches(*a, dir.opposite()))
            .collect();
    }
    if sites.is_empty() {
        return Err(Refusal::NotBesideTheMoat {
            with: with.named(),
            city: at,
            across,
        });
    }
    Purse::over(ctx, with, &sites).pay(ctx, &one(Good::Stone, 1))?;
    ctx.s.map.bridges.insert(b);
    ctx.emit(Fact::BridgeBuilt { at });
    Ok(())
}

/// Where a builder stands for a wall: the tile whose border it builds on, the areas of
/// it that it reaches, and whether it is an undocked boat or plane at sea (+2).
fn wall_site(
    ctx: &Ctx,
    border: Border,
    with: TransporterId,
) -> Result<(Vec<AreaId>, bool, Hex), Refusal> {
    let t = ctx
        .s
        .transporters
        .get(&with)
        .ok_or(Refusal::NoTransporter { id: with.named() })?;
    let (a, b) = border.tiles();
    let (hex, at_sea) = match t.at {
        Location::Land(x) => (x.hex, false),
        Location::River(h) => (h, false),
        Location::Dock(c) => (c.land.hex, false),
        Location::Sea(h) => (h, true),
        Location::Carried(_) => {
            return Err(Refusal::BeingCarried { id: with.named() });
        }
    };
    if hex != a && hex != b {
        return Err(Refusal::NotBesideTheBorder {
            with: with.named(),
            border,
        });
    }
    let other = if hex == a { b } else { a };
    let dir = hex
        .direction_to(other)
        .ok_or(Refusal::NotNeighbours { a: hex, b: other })?;
    modules::wall_from(&ctx.s, hex, other, dir)?;
    let areas = if at_sea {
        Vec::new()
    } else {
        // Material comes from this side of the wall: the banks that touch the border.
        let touching: Vec<AreaId> = reach(&ctx.s, with)
            .into_iter()
            .filter(|x| ctx.s.map.area_touches(*x, dir))
            .collect();
        if touching.is_empty() {
            return Err(Refusal::WallOutOfReach {
                with: with.named(),
                border,
            });
        }
        touching
    };
    let polder_side = ctx.s.map.terrain(hex) == Some(Terrain::Polder);
    Ok((areas, at_sea || polder_side, hex))
}

/// Build or strengthen a wall token by token, up to `target` tokens (one if not given).
fn walls(
    ctx: &mut Ctx,
    border: Border,
    with: TransporterId,
    target: Option<u8>,
) -> Result<(), Refusal> {
    let Some(target) = target else {
        return wall(ctx, border, with);
    };
    let now = |ctx: &Ctx| {
        ctx.s
            .map
            .wall(border)
            .filter(|w| w.owner == ctx.player)
            .map_or(0, |w| w.tokens)
    };
    if now(ctx) >= target {
        return Err(Refusal::WallHasTokens {
            border,
            tokens: usize::from(now(ctx)),
        });
    }
    let mut built = 0;
    while now(ctx) < target {
        if let Err(e) = wall(ctx, border, with) {
            if built == 0 {
                return Err(e);
            }
            ctx.short(format!(
                "the wall on {border} has {} of {target} tokens: {e}",
                now(ctx)
            ));
            return Ok(());
        }
        built += 1;
    }
    Ok(())
}

fn wall(ctx: &mut Ctx, border: Border, with: TransporterId) -> Result<(), Refusal> {
    let Some(player) = ctx.player else {
        return Ok(());
    };
    ctx.s.map.wall_allowed(border)?;
    let (areas, from_sea, _) = wall_site(ctx, border, with)?;
    let existing = ctx.s.map.wall(border).copied();
    let tokens = match existing {
        None => 1,
        Some(Wall { owner: Some(o), .. }) if o != player => {
            return Err(Refusal::OthersWall { border, owner: o });
        }
        Some(w) => w.tokens + 1,
    };
    let cost = u32::from(tokens) + if from_sea { 2 } else { 0 };
    let purse = if areas.is_empty() {
        Purse::carried(ctx, with)
    } else {
        Purse::over(ctx, with, &areas)
    };
    purse.pay(ctx, &one(Good::Stone, cost))?;
    ctx.s.map.walls.insert(
        border,
        Wall {
            owner: Some(player),
            tokens,
        },
    );
    ctx.emit(Fact::WallBuilt {
        border,
        owner: player,
        tokens,
        cost,
    });
    push_out(ctx, border);
    Ok(())
}

/// Rulebook p.14: a wall that cuts off a docked boat pushes it back to its sea tile.
fn push_out(ctx: &mut Ctx, border: Border) {
    let Some(wall) = ctx.s.map.wall(border).copied() else {
        return;
    };
    let (a, b) = border.tiles();
    let ids: Vec<TransporterId> = ctx
        .s
        .transporters
        .iter()
        .filter(|(_, t)| {
            matches!(t.at, Location::Dock(c) if (c.land.hex, c.sea) == (a, b) || (c.land.hex, c.sea) == (b, a))
                && !wall.lets_through(t.owner)
        })
        .map(|(id, _)| *id)
        .collect();
    for id in ids {
        if let Some(t) = ctx.s.transporters.get_mut(&id)
            && let Location::Dock(c) = t.at
        {
            t.at = Location::Sea(c.sea);
            ctx.emit(Fact::PushedOut {
                transporter: id,
                to: c.sea,
            });
        }
    }
}

fn demolish(ctx: &mut Ctx, border: Border, with: TransporterId) -> Result<(), Refusal> {
    let Some(w) = ctx.s.map.wall(border).copied() else {
        return Err(Refusal::NoWall { border });
    };
    if w.owner.is_none() {
        return Err(Refusal::WallNeutral { border });
    }
    let (areas, from_sea, _) = wall_site(ctx, border, with)?;
    let cost = u32::from(w.tokens) + 1 + if from_sea { 2 } else { 0 };
    let purse = if areas.is_empty() {
        Purse::carried(ctx, with)
    } else {
        Purse::over(ctx, with, &areas)
    };
    purse.pay(ctx, &one(Good::Boards, cost))?;
    ctx.s.map.walls.insert(
        border,
        Wall {
            owner: None,
            tokens: w.tokens,
        },
    );
    ctx.emit(Fact::WallDemolished {
        border,
        tokens: w.tokens,
        cost,
    });
    Ok(())
}

fn shaft(ctx: &mut Ctx, at: Hex, wanted: MineBag, with: TransporterId) -> Result<(), Refusal> {
    if !researched(ctx, Research::NewShafts) {
        return Err(Refusal::NewShaftsUnresearched);
    }
    let i = building_at(ctx, at, with)?;
    if ctx.s.buildings[i].kind != BuildingKind::Mine {
        return Err(Refusal::NotAMine { hex: at });
    }
    let mix = mixture(ctx, Some(wanted))?;
    let area = ctx.s.buildings[i].at;
    let cost: Goods = [(Good::Iron, 1), (Good::Fuel, 1)].into_iter().collect();
    Purse::at(ctx, with, area).pay(ctx, &cost)?;
    let bag = ctx.s.buildings[i].mine.unwrap_or_default();
    ctx.s.buildings[i].mine = Some(MineBag {
        gold: bag.gold + mix.gold,
        iron: bag.iron + mix.iron,
    });
    ctx.emit(Fact::ShaftBuilt { at, mixture: mix });
    Ok(())
}

/// What transporter `with` could build on `at` as the goods lie now, judged by the
/// building phase's own rule (`build`) on a copy of the position: for each building
/// whose module is in play and whose site the tile is (Quick Guide VI–VIII), `Ok`, or why
/// not (goods short, research missing, the tile full).
pub fn buildable(
    s: &crate::state::State,
    with: TransporterId,
    at: AreaId,
) -> Vec<(BuildingKind, Result<(), Refusal>)> {
    let Some(owner) = s.transporters.get(&with).map(|t| t.owner) else {
        return Vec::new();
    };
    let luck = judge_core::luck::Luck::predictable(0);
    BuildingKind::ALL
        .into_iter()
        .filter(|k| {
            crate::modules::of_building(*k).is_none_or(|m| s.settings.modules.contains(&m))
                && k.site().allows(&s.map, at.hex)
        })
        .map(|kind| {
            let mut ctx = Ctx::new(s.clone(), &luck);
            ctx.player = Some(owner);
            (kind, build(&mut ctx, kind, at, with, None))
        })
        .collect()
}
