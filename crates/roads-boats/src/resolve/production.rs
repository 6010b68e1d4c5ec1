//! The production phase (RULINGS R1): reproduction, primary producers, each player's
//! production orders in move order, automatic processing of what is left on tiles, and
//! the transporter limits.

use std::collections::BTreeSet;

use crate::building::{BuildingKind, Input, MineBag, Output, Recipe};
use crate::events::Fact;
use crate::goods::{Good, Goods};
use crate::map::{AreaId, Coast, Hex, Terrain};
use crate::modules::{self, During};
use crate::orders::{ProductionOrder, TurnOrders};
use crate::player::{Colour, Research};
use crate::refusal::{Refusal, Short};
use crate::state::MineDraw;
use crate::transporter::{Class, Kind, Location, Transporter, TransporterId};
use crate::turn::consent::{self, Ledger};
pub(crate) use crate::turn::load_goods;
use crate::turn::{
    Ctx, hand_over, home_area, leave_game, lying, over_limit, pick_up, put, reach, take_lying,
};

pub(super) fn run(ctx: &mut Ctx, orders: &TurnOrders) {
    for b in &mut ctx.s.buildings {
        b.used = 0;
    }
    let before: BTreeSet<TransporterId> = ctx.s.transporters.keys().copied().collect();
    reproduce(ctx, orders);
    modules::each(ctx, orders, |h| h.before_primary);
    primary(ctx);
    let items = consent::of(
        orders.iter().map(|(c, o)| (*c, o.production.as_slice())),
        |o| match o {
            ProductionOrder::Consent(c) => Some(c),
            _ => None,
        },
    );
    ctx.consents = Ledger::gather(ctx, items);
    modules::each(ctx, orders, |h| h.before_orders);
    let mut researched: BTreeSet<(Colour, Research)> = BTreeSet::new();
    for player in ctx.in_move_order() {
        let Some(list) = orders.get(&player) else {
            continue;
        };
        ctx.player = Some(player);
        for o in &list.production {
            ctx.line = Some(o.line);
            order(ctx, &o.order, &mut researched);
        }
    }
    ctx.player = None;
    ctx.line = None;
    process_leftovers(ctx);
    enforce_limits(ctx, &before);
    ctx.player = None;
}

/// Step 5 (RULINGS R4): limits hold at the end of production. *Reading:* a player
/// still over a limit has not destroyed the excess at a transporter factory, so the
/// transporters they made this phase are destroyed, newest first, until the limits hold.
fn enforce_limits(ctx: &mut Ctx, before: &BTreeSet<TransporterId>) {
    for player in ctx.in_move_order() {
        ctx.player = Some(player);
        while let Some(why) = over_limit(&ctx.s, player) {
            let newest = ctx
                .s
                .transporters
                .iter()
                .filter(|(id, t)| t.owner == player && !before.contains(id))
                .max_by_key(|(id, _)| (ctx.s.last_ids.get(&id.kind).copied(), id.number))
                .map(|(id, t)| (*id, t.kind));
            let Some((id, kind)) = newest else {
                ctx.fail(Refusal::OverTheLimit { limit: why });
                break;
            };
            let lost = ctx
                .s
                .transporters
                .remove(&id)
                .map(|t| t.cargo)
                .unwrap_or_default();
            ctx.emit(Fact::Destroyed {
                transporter: id,
                kind,
                lost,
            });
            ctx.fail(Refusal::NewOneDestroyed {
                limit: why,
                kind,
                id,
            });
        }
    }
    ctx.player = None;
}

/// Is this tile pasture now (deserts are, after irrigation)?
fn is_pasture(ctx: &Ctx, hex: Hex) -> bool {
    matches!(
        ctx.s.terrain_now(hex),
        Some(Terrain::Pasture | Terrain::City)
    )
}

/// Step 1, judged on the state the previous turn left (RULINGS R1, R4): exactly 2 geese,
/// or exactly 2 donkeys of one player, alone on an empty pasture. Donkeys breed by default
/// (Quick Guide Ia makes reproduction automatic); their owner may keep them from it with
/// `no breed` (rulebook, reproduction: "Donkeys do not reproduce if their owner does not
/// want them to"). A birth over a transporter limit happens: limits are checked at the end
/// of the phase (step 5), and the player may destroy a transporter before then.
fn reproduce(ctx: &mut Ctx, orders: &TurnOrders) {
    // Who keeps their donkeys from breeding, where (`None`: everywhere), with the line.
    let held: Vec<(Colour, Option<Hex>, u32)> = orders
        .iter()
        .flat_map(|(c, o)| {
            o.production.iter().filter_map(move |n| match n.order {
                ProductionOrder::NoBreed { at } => Some((*c, at, n.line)),
                _ => None,
            })
        })
        .collect();
    let hexes: Vec<Hex> = ctx.s.map.tiles.keys().copied().collect();
    for hex in hexes {
        if !is_pasture(ctx, hex) || ctx.s.buildings_on(hex).next().is_some() {
            continue;
        }
        let areas = ctx.s.map.areas(hex);
        let on_tile: Vec<(TransporterId, Transporter)> = ctx
            .s
            .transporters
            .iter()
            .filter(|(id, _)| ctx.s.tile_of(**id) == Some(hex))
            .map(|(id, t)| (*id, t.clone()))
            .collect();
        let goods_areas: Vec<(AreaId, Goods)> = areas
            .iter()
            .filter_map(|a| {
                ctx.s
                    .goods
                    .get(a)
                    .filter(|g| !g.is_empty())
                    .map(|g| (*a, g.clone()))
            })
            .collect();
        // Geese: two lying geese in one area, nothing else on the tile.
        if on_tile.is_empty()
            && let [(area, g)] = goods_areas.as_slice()
            && g.count(Good::Geese) == 2
            && g.total() == 2
        {
            let area = *area;
            put(&mut ctx.s, area, Good::Geese, 1);
            ctx.emit(Fact::GooseHatched { at: area });
            continue;
        }
        // Donkeys: two empty donkeys of one player, in one area, no goods on the tile.
        if goods_areas.is_empty()
            && let [(_, a), (_, b)] = on_tile.as_slice()
            && a.kind == Kind::Donkey
            && b.kind == Kind::Donkey
            && a.owner == b.owner
            && a.at == b.at
            && a.cargo.is_empty()
            && b.cargo.is_empty()
            && let Location::Land(area) = a.at
        {
            let owner = a.owner;
            ctx.player = Some(owner);
            let hold = held
                .iter()
                .find(|(c, at, _)| *c == owner && at.is_none_or(|h| h == hex));
            if let Some((_, _, line)) = hold {
                ctx.line = Some(*line);
                ctx.emit(Fact::BreedingWithheld { at: area });
            } else {
                let id = ctx.s.next_id(Kind::Donkey);
                ctx.s.transporters.insert(
                    id,
                    Transporter {
                        owner,
                        kind: Kind::Donkey,
                        at: Location::Land(area),
                        cargo: Goods::new(),
                        following_geese: 0,
                    },
                );
                ctx.emit(Fact::DonkeyBorn { at: area, id });
            }
            ctx.player = None;
            ctx.line = None;
        }
    }
}

/// Step 2: primary producers put their output on their tile (RULINGS R4 for mines); a
/// module may make one produce more than one good (electricity), each judged in turn, or
/// another good than its own (art: marble from a quarry).
fn primary(ctx: &mut Ctx) {
    for i in 0..ctx.s.buildings.len() {
        let b = ctx.s.buildings[i].clone();
        let times = modules::primary_yield(ctx, &b);
        if let Some(own) = b.kind.primary_output() {
            let mut made = Goods::new();
            for _ in 0..times {
                let good = modules::primary_good(ctx, &b, own);
                put(&mut ctx.s, b.at, good, 1);
                made.add(good, 1);
            }
            ctx.emit(Fact::Produced {
                building: b.kind,
                at: b.at,
                goods: made,
            });
        } else if b.kind == BuildingKind::Mine {
            for _ in 0..times {
                if !draw(ctx, i) {
                    break;
                }
            }
        }
    }
}

/// A mine yields one good from what it holds: gold or iron as the game draws (RULINGS
/// R4). False when it is empty.
fn draw(ctx: &mut Ctx, i: usize) -> bool {
    let b = ctx.s.buildings[i].clone();
    let bag = b.mine.unwrap_or_default();
    let draw_gold = match ctx.s.settings.mine_draw {
        _ if bag.gold + bag.iron == 0 => None,
        MineDraw::Most => Some(bag.gold >= bag.iron),
        MineDraw::Random => Some(ctx.mines.below(bag.gold + bag.iron) < bag.gold),
    };
    let Some(gold) = draw_gold else {
        ctx.emit(Fact::MineEmpty { at: b.at });
        return false;
    };
    let (good, left) = if gold {
        (
            Good::Gold,
            MineBag {
                gold: bag.gold - 1,
                ..bag
            },
        )
    } else {
        (
            Good::Iron,
            MineBag {
                iron: bag.iron - 1,
                ..bag
            },
        )
    };
    ctx.s.buildings[i].mine = Some(left);
    put(&mut ctx.s, b.at, good, 1);
    ctx.emit(Fact::MineYielded {
        at: b.at,
        good,
        left,
    });
    true
}

fn order(ctx: &mut Ctx, order: &ProductionOrder, researched: &mut BTreeSet<(Colour, Research)>) {
    match order {
        ProductionOrder::Make {
            count,
            output,
            at,
            from,
            launch,
            using,
        } => make(ctx, *count, *output, *at, from, *launch, *using),
        ProductionOrder::Load {
            transporter,
            goods,
            area,
        } => load(ctx, *transporter, goods, *area),
        ProductionOrder::Unload {
            transporter,
            goods,
            area,
        } => unload(ctx, *transporter, goods, *area),
        ProductionOrder::Research { subject, with } => research(ctx, *subject, *with, researched),
        ProductionOrder::Upgrade { at, from, to } => upgrade(ctx, *at, *from, *to, researched),
        ProductionOrder::Destroy { transporter } => destroy(ctx, *transporter),
        ProductionOrder::Give { from, to, goods } => give(ctx, *from, *to, goods),
        ProductionOrder::Carry { carrier, carried } => carry(ctx, *carrier, *carried),
        ProductionOrder::Module(m) => modules::carry_out(ctx, During::Production, m),
        // Judged in step 1 (`breed` is the default now and changes nothing); consents
        // were gathered before the orders ran.
        ProductionOrder::Breed { .. }
        | ProductionOrder::NoBreed { .. }
        | ProductionOrder::Consent(_) => {}
    }
}

/// Put goods from a transporter down within reach; returns what was put down and where.
pub(super) fn unload_goods(
    ctx: &mut Ctx,
    id: TransporterId,
    goods: &Goods,
    area: Option<AreaId>,
) -> Option<(AreaId, Goods)> {
    let at = ctx.s.transporters.get(&id)?.at;
    let target = match area {
        Some(a) if reach(&ctx.s, id).contains(&a) => a,
        Some(a) => {
            ctx.fail(Refusal::CannotReach {
                id: id.named(),
                area: a,
            });
            return None;
        }
        None => match home_area(&ctx.s, at) {
            Ok(a) => a,
            Err(why) => {
                ctx.fail(Refusal::CannotUnload {
                    id: id.named(),
                    why: Box::new(why),
                });
                return None;
            }
        },
    };
    let mut put_down = Goods::new();
    let mut missing = Vec::new();
    for (good, n) in goods.iter() {
        let k = ctx
            .s
            .transporters
            .get_mut(&id)
            .map_or(0, |t| t.cargo.take(good, n));
        put_down.add(good, k);
        if k < n {
            missing.push(Short::CarriedOnly { good, carried: k });
        }
    }
    ctx.s.goods.entry(target).or_default().add_all(&put_down);
    if !put_down.is_empty() {
        ctx.emit(Fact::Unloaded {
            transporter: id,
            goods: put_down.clone(),
            at: target,
        });
    }
    if !missing.is_empty() {
        let refusal = Refusal::UnloadedNone {
            id: id.named(),
            put_down: put_down.clone(),
            missing,
        };
        if put_down.is_empty() {
            ctx.fail(refusal)
        } else {
            ctx.short(refusal)
        }
    }
    Some((target, put_down))
}

fn load(ctx: &mut Ctx, id: TransporterId, goods: &Goods, area: Option<AreaId>) {
    if let Err(e) = ctx.own(id) {
        return ctx.fail(e);
    }
    if ctx
        .s
        .transporters
        .get(&id)
        .is_some_and(|t| t.kind == Kind::Plane)
    {
        return ctx.fail(Refusal::PlaneLoadsNothing { id: id.named() });
    }
    load_goods(ctx, id, goods, area, &Goods::new());
}

fn unload(ctx: &mut Ctx, id: TransporterId, goods: &Goods, area: Option<AreaId>) {
    if let Err(e) = ctx.own(id) {
        return ctx.fail(e);
    }
    unload_goods(ctx, id, goods, area);
}

/// Hand goods from one transporter to another on its tile (rulebook, production:
/// transporters on one tile exchange goods with the tile and each other freely, if their
/// owners want them to): one's own freely, another player's if accepted. A plane never
/// takes goods in the production phase (Quick Guide IV).
fn give(ctx: &mut Ctx, from: TransporterId, to: TransporterId, goods: &Goods) {
    if let Err(e) = ctx.own(from) {
        return ctx.fail(e);
    }
    if ctx
        .s
        .transporters
        .get(&to)
        .is_some_and(|t| t.kind == Kind::Plane)
    {
        return ctx.fail(Refusal::PlaneTakesNothing { to });
    }
    hand_over(ctx, from, to, goods);
}

/// Pick up a transporter in the production phase (Quick Guide III: "A transporter may be
/// picked up during the (Re)Production phase or the Movement phase"). Nothing has moved
/// yet; it may be put down at the start of this turn's movement phase.
fn carry(ctx: &mut Ctx, carrier: TransporterId, carried: TransporterId) {
    if let Err(e) = ctx.own(carrier) {
        return ctx.fail(e);
    }
    pick_up(ctx, carrier, carried, false);
}

/// The goods the current player may hand in from each transporter named after `from`:
/// all the cargo of their own, what another player offers them of theirs (consent).
fn usable(ctx: &Ctx, from: &[TransporterId]) -> Vec<(TransporterId, Goods)> {
    let Some(player) = ctx.player else {
        return Vec::new();
    };
    from.iter()
        .filter_map(|id| {
            let t = ctx.s.transporters.get(id)?;
            if t.owner == player {
                Some((*id, t.cargo.clone()))
            } else {
                ctx.consents
                    .offered(player, *id, t.owner, &t.cargo)
                    .map(|g| (*id, g))
            }
        })
        .collect()
}

/// Record and report goods (or a whole transporter, `goods` empty) of other players'
/// transporters that the current player used as offered.
fn note_offers(ctx: &mut Ctx, taken: &[(TransporterId, Goods)]) {
    let Some(player) = ctx.player else { return };
    for (id, goods) in taken {
        let Some(owner) = ctx.s.transporters.get(id).map(|t| t.owner) else {
            continue;
        };
        if owner != player && !goods.is_empty() {
            ctx.consents.use_offer(player, *id, owner, goods);
            ctx.emit(Fact::OfferUsed {
                transporter: *id,
                owner,
                goods: goods.clone(),
            });
        }
    }
}

/// Which building on the tile makes `output`.
fn factory_for(ctx: &Ctx, hex: Hex, output: Output) -> Result<(usize, Recipe), Refusal> {
    let mut kinds = Vec::new();
    for (i, b) in ctx
        .s
        .buildings
        .iter()
        .enumerate()
        .filter(|(_, b)| b.at.hex == hex)
    {
        kinds.push(b.kind);
        if let Some(r) = b.kind.recipes().into_iter().find(|r| r.output == output) {
            return Ok((i, r));
        }
    }
    Err(if kinds.is_empty() {
        Refusal::NoBuilding { hex }
    } else {
        Refusal::DoesNotMake { kinds, hex, output }
    })
}

/// Trunks before boards when either will do: a player's hand-in keeps the boards unless
/// the player says otherwise (`using boards`).
const TRUNKS_FIRST: &[Good] = &[Good::Trunks, Good::Boards];
/// Boards before trunks: goods left on a tile (RULINGS R1, step 4).
const BOARDS_FIRST: &[Good] = &[Good::Boards, Good::Trunks];

/// The wood a hand-in may use where trunks or boards will do: what the player chose,
/// or trunks first, then boards.
fn wood_order(using: Option<Good>) -> &'static [Good] {
    match using {
        Some(Good::Boards) => &[Good::Boards],
        Some(Good::Trunks) => &[Good::Trunks],
        _ => TRUNKS_FIRST,
    }
}

/// Take one run's inputs from the transporters' usable goods (`sources`, in order), then
/// the tile; all or nothing. Where trunks or boards will do, `wood` says which, in which
/// order. Returns the goods used, and what came from each transporter.
fn take_inputs(
    ctx: &mut Ctx,
    recipe: &Recipe,
    sources: &[(TransporterId, Goods)],
    areas: &[AreaId],
    donkey: Option<TransporterId>,
    wood: &[Good],
) -> Option<(Goods, Vec<(TransporterId, Goods)>)> {
    // Check first, on a copy.
    let mut pool = Goods::new();
    for (_, g) in sources {
        pool.add_all(g);
    }
    pool.add_all(&lying(&ctx.s, areas));
    let mut need = Goods::new();
    for (input, n) in recipe.inputs {
        match input {
            Input::Good(g) => need.add(*g, *n),
            Input::Donkey => {
                donkey?;
            }
            Input::Wood => {
                // Source by source (the named cargo first, then the tile), in
                // the order `wood` gives within each.
                let mut sources_goods: Vec<Goods> =
                    sources.iter().map(|(_, g)| g.clone()).collect();
                sources_goods.push(lying(&ctx.s, areas));
                let mut left = *n;
                for g in &sources_goods {
                    for wood in wood {
                        let k = g.count(*wood).min(left);
                        need.add(*wood, k);
                        left -= k;
                    }
                }
                if left > 0 {
                    return None;
                }
            }
        }
    }
    if need.iter().any(|(g, n)| pool.count(g) < n) {
        return None;
    }
    // Then take.
    let mut per_source: Vec<(TransporterId, Goods)> =
        sources.iter().map(|(id, _)| (*id, Goods::new())).collect();
    for (good, n) in need.iter() {
        let mut left = n;
        for (i, (id, usable)) in sources.iter().enumerate() {
            if left == 0 {
                break;
            }
            let can = usable
                .count(good)
                .saturating_sub(per_source[i].1.count(good))
                .min(left);
            if let Some(t) = ctx.s.transporters.get_mut(id) {
                let k = t.cargo.take(good, can);
                left -= k;
                per_source[i].1.add(good, k);
            }
        }
        take_lying(&mut ctx.s, areas, good, left);
    }
    Some((need, per_source))
}

/// Step 3: hand goods to a factory and take its output (RULINGS R1, R4).
fn make(
    ctx: &mut Ctx,
    count: u32,
    output: Output,
    hex: Hex,
    from: &[TransporterId],
    launch: Option<Location>,
    using: Option<Good>,
) {
    let Some(player) = ctx.player else { return };
    let (index, recipe) = match factory_for(ctx, hex, output) {
        Ok(x) => x,
        Err(e) => return ctx.fail(e),
    };
    let building = ctx.s.buildings[index].clone();
    for id in from {
        // One's own transporter, or one another player offers (consent).
        let offered = ctx.s.transporters.get(id).is_some_and(|t| {
            t.owner != player
                && !matches!(t.at, Location::Carried(_))
                && (ctx
                    .consents
                    .offered(player, *id, t.owner, &t.cargo)
                    .is_some())
        });
        if !offered && let Err(e) = ctx.own(*id) {
            let e = match ctx.s.transporters.get(id) {
                Some(t) if t.owner != player => Refusal::NotOffered {
                    why: Box::new(e),
                    owner: t.owner,
                    id: *id,
                    user: player,
                },
                _ => e,
            };
            return ctx.fail(e);
        }
        if !reach(&ctx.s, *id).contains(&building.at) {
            return ctx.fail(Refusal::CannotReachBuilding {
                id: id.named(),
                kind: building.kind,
                at: building.at,
            });
        }
    }
    let present = ctx
        .s
        .transporters_of(player)
        .any(|(id, _)| reach(&ctx.s, *id).contains(&building.at));
    if !present {
        return ctx.fail(Refusal::NoTransporterAtBuilding {
            kind: building.kind,
            at: building.at,
        });
    }
    let areas: Vec<AreaId> = ctx.s.map.same_side(building.at).into_iter().collect();
    let capacity = modules::capacity(ctx, &building, recipe.capacity);
    let room_left = capacity.saturating_sub(building.used);
    let runs_wanted = count.div_ceil(recipe.per_run);
    let runs_room = room_left / recipe.per_run;
    if runs_room == 0 {
        return ctx.fail(Refusal::AtCapacity {
            kind: building.kind,
            at: building.at,
            used: building.used,
            capacity,
        });
    }
    match recipe.output {
        Output::Good(good) => {
            let mut runs = 0;
            let mut used = Goods::new();
            while runs < runs_wanted.min(runs_room) {
                let sources = usable(ctx, from);
                match take_inputs(ctx, &recipe, &sources, &areas, None, wood_order(using)) {
                    Some((g, taken)) => {
                        used.add_all(&g);
                        note_offers(ctx, &taken);
                    }
                    None => break,
                }
                runs += 1;
            }
            if runs == 0 {
                return ctx.fail(Refusal::NotEnoughInputs {
                    kind: building.kind,
                    at: building.at,
                    recipe,
                    using,
                });
            }
            let made = runs * recipe.per_run;
            ctx.s.buildings[index].used += made;
            // Output onto the first transporter with room; planes leave it on the tile.
            let mut left = made;
            let mut onto = None;
            let carriers: Vec<TransporterId> = ctx
                .s
                .transporters
                .values()
                .filter_map(|t| match t.at {
                    Location::Carried(c) => Some(c),
                    _ => None,
                })
                .collect();
            for id in from {
                // Onto the player's own transporters: what others offered is theirs no
                // more, and the output belongs to whoever handed the inputs in.
                if let Some(t) = ctx.s.transporters.get_mut(id)
                    && t.kind != Kind::Plane
                    && Some(t.owner) == ctx.player
                    && !carriers.contains(id)
                {
                    let k = left.min(t.kind.room_for(&t.cargo, good));
                    if k > 0 {
                        t.cargo.add(good, k);
                        left -= k;
                        onto.get_or_insert(*id);
                    }
                }
            }
            put(&mut ctx.s, building.at, good, left);
            let used_now = ctx.s.buildings[index].used;
            ctx.emit(Fact::Made {
                building: building.kind,
                at: building.at,
                inputs: used,
                goods: [(good, made)].into_iter().collect(),
                onto,
                used: used_now,
                capacity,
            });
            if runs < runs_wanted {
                let why = if runs == runs_room {
                    "capacity reached"
                } else {
                    "inputs ran out"
                };
                ctx.short(format!(
                    "made {made} of {} {good}: {why}",
                    runs_wanted * recipe.per_run
                ));
            }
        }
        Output::Transporter(kind) => {
            make_transporter(ctx, index, &recipe, kind, from, launch, count)
        }
    }
}

/// Make up to `count` transporters, one at a time, as far as capacity (1 a turn, more
/// with a manager) and inputs allow.
fn make_transporter(
    ctx: &mut Ctx,
    index: usize,
    recipe: &Recipe,
    kind: Kind,
    from: &[TransporterId],
    launch: Option<Location>,
    count: u32,
) {
    let building = ctx.s.buildings[index].clone();
    let capacity = modules::capacity(ctx, &building, recipe.capacity);
    let mut made = 0;
    while made < count.max(1) && ctx.s.buildings[index].used < capacity {
        if !make_one_transporter(ctx, index, recipe, kind, from, launch) {
            break;
        }
        made += 1;
    }
    if made > 0 && made < count && ctx.s.buildings[index].used >= capacity {
        ctx.short(format!(
            "made {made} of {count} {kind}s: capacity reached ({capacity} a turn)"
        ));
    }
}

fn make_one_transporter(
    ctx: &mut Ctx,
    index: usize,
    recipe: &Recipe,
    kind: Kind,
    from: &[TransporterId],
    launch: Option<Location>,
) -> bool {
    let Some(player) = ctx.player else {
        return false;
    };
    let building = ctx.s.buildings[index].clone();
    let areas: Vec<AreaId> = ctx.s.map.same_side(building.at).into_iter().collect();
    let areas = &areas;
    let donkey = if recipe.inputs.iter().any(|(i, _)| *i == Input::Donkey) {
        // The player's own donkey, or one its owner offers whole (`offer D3 to red`).
        let d = from.iter().copied().find(|id| {
            ctx.s.transporters.get(id).is_some_and(|t| {
                t.kind == Kind::Donkey
                    && (t.owner == player || ctx.consents.whole_offered(player, *id, t.owner))
            })
        });
        match d {
            Some(d) => Some(d),
            None => {
                ctx.fail(Refusal::MadeFromADonkey { kind });
                return false;
            }
        }
    } else {
        None
    };
    // Where it will stand.
    let at = match kind.class() {
        Class::Water => match launch_site(ctx, &building.at, launch) {
            Ok(l) => l,
            Err(e) => {
                ctx.fail(e);
                return false;
            }
        },
        _ => Location::Land(building.at),
    };
    let sources = usable(ctx, from);
    let Some((used, taken)) = take_inputs(ctx, recipe, &sources, areas, donkey, TRUNKS_FIRST)
    else {
        ctx.fail(Refusal::NotEnoughToMake {
            kind,
            at: building.at,
            recipe: *recipe,
        });
        return false;
    };
    note_offers(ctx, &taken);
    // A new transporter is whoever's handed the inputs in: a wagon the donkey's owner's
    // (rulebook: wagons are always assigned to the player who handed in the donkey).
    let owner = donkey
        .and_then(|d| ctx.s.transporters.get(&d))
        .map_or(player, |t| t.owner);
    if let Some(d) = donkey
        && owner != player
    {
        ctx.emit(Fact::OfferUsed {
            transporter: d,
            owner,
            goods: Goods::new(),
        });
    }
    if let Some(d) = donkey {
        // The donkey goes into the wagon; anything else it carried is left on the tile.
        if let Some(t) = leave_game(&mut ctx.s, d) {
            ctx.s
                .goods
                .entry(building.at)
                .or_default()
                .add_all(&t.cargo);
        }
    }
    ctx.s.buildings[index].used += 1;
    let id = ctx.s.next_id(kind);
    ctx.s.transporters.insert(
        id,
        Transporter {
            owner,
            kind,
            at,
            cargo: Goods::new(),
            following_geese: 0,
        },
    );
    ctx.emit(Fact::MadeTransporter {
        building: building.kind,
        inputs: used,
        id,
        kind,
        at,
    });
    true
}

/// Where a new boat goes: into the tile's river or onto a coast of the factory's side
/// that no other player's wall closes (RULINGS R4).
fn launch_site(ctx: &Ctx, area: &AreaId, wanted: Option<Location>) -> Result<Location, Refusal> {
    let player = ctx.player;
    let map = &ctx.s.map;
    let side = map.same_side(*area);
    let open = |c: &Coast| {
        map.border(c.land.hex, c.sea)
            .and_then(|b| map.wall(b))
            .is_none_or(|w| player.is_some_and(|p| w.lets_through(p)))
    };
    let mut options: Vec<Location> = Vec::new();
    if map.tile(area.hex).is_some_and(|t| t.has_river()) || modules::moat(&ctx.s, area.hex) {
        options.push(Location::River(area.hex));
    }
    for c in map.coasts() {
        if side.contains(&c.land) && open(&c) {
            options.push(Location::Dock(c));
        }
    }
    match wanted {
        Some(w) if options.contains(&w) => Ok(w),
        Some(at) => Err(Refusal::CannotLaunchAt { area: *area, at }),
        None => options
            .first()
            .copied()
            .ok_or(Refusal::ShoresWalledOff { hex: area.hex }),
    }
}

fn research(
    ctx: &mut Ctx,
    subject: Research,
    with: TransporterId,
    researched: &mut BTreeSet<(Colour, Research)>,
) {
    let Some(player) = ctx.player else { return };
    if let Err(e) = ctx.own(with) {
        return ctx.fail(e);
    }
    let done = ctx
        .s
        .players
        .get(&player)
        .map(|p| p.research.clone())
        .unwrap_or_default();
    if done.contains(&subject) {
        return ctx.fail(Refusal::AlreadyResearched { subject });
    }
    // Quick Guide IX (it outranks the rulebook, RULINGS): "A player cannot combine
    // Specialized Mines with Large Mines."
    let rival = match subject {
        Research::SpecialisedMines => Some(Research::LargeMines),
        Research::LargeMines => Some(Research::SpecialisedMines),
        _ => None,
    };
    if let Some(r) = rival
        && done.contains(&r)
    {
        return ctx.fail(Refusal::RivalResearch { rival: r });
    }
    if let Err(e) = modules::research_allowed(&ctx.s.settings, subject) {
        return ctx.fail(Refusal::ResearchRefused(e));
    }
    let geese = modules::research_geese(&done);
    let recipe_inputs: &'static [(Input, u32)] = if geese == 1 {
        &[(Input::Good(Good::Geese), 1), (Input::Good(Good::Paper), 1)]
    } else {
        &[(Input::Good(Good::Geese), 2), (Input::Good(Good::Paper), 1)]
    };
    let recipe = Recipe {
        inputs: recipe_inputs,
        output: Output::Good(Good::Paper),
        per_run: 0,
        capacity: 0,
    };
    let areas = reach(&ctx.s, with);
    let Some(at) = areas.first().copied() else {
        return ctx.fail(Refusal::NowhereToResearch { with: with.named() });
    };
    let sources = usable(ctx, &[with]);
    let Some((paid, _)) = take_inputs(ctx, &recipe, &sources, &areas, None, TRUNKS_FIRST) else {
        return ctx.fail(Refusal::ResearchCost {
            geese,
            with: with.named(),
        });
    };
    if let Some(p) = ctx.s.players.get_mut(&player) {
        p.research.insert(subject);
    }
    researched.insert((player, subject));
    ctx.emit(Fact::Researched { subject, at, paid });
}

/// The transporter factory a research subject allows.
fn factory_of(subject: Research) -> Option<BuildingKind> {
    match subject {
        Research::RowboatFactory => Some(BuildingKind::RowboatFactory),
        Research::TruckFactory => Some(BuildingKind::TruckFactory),
        Research::SteamerFactory => Some(BuildingKind::SteamerFactory),
        _ => None,
    }
}

/// How far along its line a transporter factory is (raft, rowboat, steamer; wagon,
/// truck): an upgrade goes forward, never back.
fn stage(kind: BuildingKind) -> u8 {
    match kind {
        BuildingKind::RowboatFactory | BuildingKind::TruckFactory => 1,
        BuildingKind::SteamerFactory => 2,
        _ => 0,
    }
}

/// RULINGS R6: after researching a factory type, upgrade factories of its class (land or
/// water) where you have a transporter, free, in the same production phase. The rulebook:
/// "he or she may upgrade all (or some) transporter factories of the appropriate type";
/// RULINGS R10 (added 2026-11-28): an order naming only the tile upgrades every factory
/// there of the researched class (a city holds two), and one naming a factory (`from`)
/// upgrades that one; a factory of the other class beside them is left alone.
fn upgrade(
    ctx: &mut Ctx,
    hex: Hex,
    from: Option<BuildingKind>,
    to: BuildingKind,
    researched: &BTreeSet<(Colour, Research)>,
) {
    let Some(player) = ctx.player else { return };
    let just = researched
        .iter()
        .any(|(p, r)| *p == player && factory_of(*r) == Some(to));
    if !just {
        return ctx.fail(Refusal::UpgradeUnresearched { to });
    }
    let factories: Vec<usize> = ctx
        .s
        .buildings
        .iter()
        .enumerate()
        .filter(|(_, b)| b.at.hex == hex && b.kind.factory_class().is_some())
        .map(|(i, _)| i)
        .collect();
    let kind_of = |ctx: &Ctx, i: usize| ctx.s.buildings[i].kind;
    let chosen: Vec<usize> = match from {
        Some(named) => {
            let Some(i) = factories
                .iter()
                .copied()
                .find(|i| kind_of(ctx, *i) == named)
            else {
                return ctx.fail(match factories.first() {
                    None => Refusal::NoFactory { hex },
                    Some(_) => Refusal::NoSuchFactory {
                        named,
                        hex,
                        there: factories.iter().map(|i| kind_of(ctx, *i)).collect(),
                    },
                });
            };
            vec![i]
        }
        None => {
            let Some(&first) = factories.first() else {
                return ctx.fail(Refusal::NoFactory { hex });
            };
            let of_class: Vec<usize> = factories
                .iter()
                .copied()
                .filter(|i| kind_of(ctx, *i).factory_class() == to.factory_class())
                .collect();
            if of_class.is_empty() {
                // Only factories of the other class: say why the first cannot.
                vec![first]
            } else {
                let to_do: Vec<usize> = of_class
                    .iter()
                    .copied()
                    .filter(|i| stage(kind_of(ctx, *i)) < stage(to))
                    .collect();
                if to_do.is_empty() {
                    // Nothing to upgrade: say why, of the first.
                    vec![of_class[0]]
                } else {
                    to_do
                }
            }
        }
    };
    for &i in &chosen {
        let from = kind_of(ctx, i);
        if from == to {
            return ctx.fail(Refusal::AlreadyUpgraded { hex, to });
        }
        if from.factory_class() != to.factory_class() {
            return ctx.fail(Refusal::UpgradeAcross { from, to });
        }
        if stage(from) > stage(to) {
            return ctx.fail(Refusal::UpgradeBack { from, to });
        }
    }
    let present = ctx
        .s
        .transporters_of(player)
        .any(|(id, _)| ctx.s.tile_of(*id) == Some(hex));
    if !present {
        return ctx.fail(Refusal::NoTransporterAt { hex });
    }
    for i in chosen {
        let from = ctx.s.buildings[i].kind;
        ctx.s.buildings[i].kind = to;
        let at = ctx.s.buildings[i].at;
        ctx.emit(Fact::Upgraded { at, from, to });
    }
}

/// RULINGS R4: excess transporters can be destroyed only at a transporter factory.
fn destroy(ctx: &mut Ctx, id: TransporterId) {
    if let Err(e) = ctx.own(id) {
        return ctx.fail(e);
    }
    let Some(hex) = ctx.s.tile_of(id) else { return };
    if !ctx
        .s
        .buildings_on(hex)
        .any(|b| b.kind.factory_class().is_some())
    {
        return ctx.fail(Refusal::DestroyedOnlyAtAFactory { id: id.named() });
    }
    if ctx
        .s
        .transporters
        .values()
        .any(|t| t.at == Location::Carried(id))
    {
        return ctx.fail(Refusal::DestroyCarrier { id: id.named() });
    }
    let Some(t) = leave_game(&mut ctx.s, id) else {
        return;
    };
    // Its cargo is left on the tile (at sea, where goods are never left, it is lost).
    let lost = match home_area(&ctx.s, t.at) {
        Ok(area) => {
            ctx.s.goods.entry(area).or_default().add_all(&t.cargo);
            Goods::new()
        }
        Err(_) => t.cargo.clone(),
    };
    ctx.emit(Fact::Destroyed {
        transporter: id,
        kind: t.kind,
        lost,
    });
}

/// Step 4: every factory processes complete input sets left on its tile, up to its
/// remaining capacity (boards before trunks); unclaimed transporters are destroyed with
/// their inputs; 2 geese and 1 paper left together are used up (RULINGS R1).
fn process_leftovers(ctx: &mut Ctx) {
    // A city's buildings one after the other, in the listed order (&cetera, city).
    let mut order: Vec<usize> = (0..ctx.s.buildings.len()).collect();
    order.sort_by_key(|i| {
        let b = &ctx.s.buildings[*i];
        (b.at, modules::leftover_rank(&ctx.s, b))
    });
    // Each building's recipes in the order listed (an atelier's six share its
    // capacity, and take unattended goods in that order: RULINGS R10).
    let steps: Vec<(usize, Recipe)> = order
        .iter()
        .copied()
        .flat_map(|i| {
            ctx.s.buildings[i]
                .kind
                .recipes()
                .into_iter()
                .map(move |r| (i, r))
        })
        .collect();
    for (i, recipe) in steps {
        let b = ctx.s.buildings[i].clone();
        if recipe.inputs.iter().any(|(inp, _)| *inp == Input::Donkey) {
            continue; // a wagon or a caravan needs a donkey handed in
        }
        let areas: Vec<AreaId> = ctx.s.map.same_side(b.at).into_iter().collect();
        let capacity = modules::capacity(ctx, &b, recipe.capacity);
        let mut runs = 0;
        let mut used = Goods::new();
        while (b.used + (runs + 1) * recipe.per_run) <= capacity {
            let Some((need, _)) = take_inputs(ctx, &recipe, &[], &areas, None, BOARDS_FIRST) else {
                break;
            };
            used.add_all(&need);
            runs += 1;
        }
        if runs == 0 {
            continue;
        }
        match recipe.output {
            Output::Good(good) => {
                let made = runs * recipe.per_run;
                ctx.s.buildings[i].used += made;
                put(&mut ctx.s, b.at, good, made);
                ctx.emit(Fact::Processed {
                    building: b.kind,
                    at: b.at,
                    inputs: used.clone(),
                    goods: [(good, made)].into_iter().collect(),
                    used: ctx.s.buildings[i].used,
                    capacity,
                });
                // What the modules do with it (a manager made in a city works at once
                // for the buildings after the MBA: management), told the producers of
                // its tile still to process.
                let mine = order.iter().position(|j| *j == i).unwrap_or(order.len());
                let later: Vec<BuildingKind> = order
                    .iter()
                    .skip(mine + 1)
                    .map(|j| &ctx.s.buildings[*j])
                    .filter(|l| l.at.hex == b.at.hex && l.kind.recipe().is_some())
                    .map(|l| l.kind)
                    .collect();
                modules::leftover_made(ctx, &b, good, &later);
            }
            Output::Transporter(kind) => {
                ctx.s.buildings[i].used += runs;
                ctx.emit(Fact::InputsLost {
                    building: b.kind,
                    at: b.at,
                    goods: used,
                    unclaimed: kind,
                });
            }
        }
    }
    let areas: Vec<AreaId> = ctx.s.goods.keys().copied().collect();
    for a in areas {
        loop {
            let g = ctx.s.goods.get(&a).cloned().unwrap_or_default();
            if g.count(Good::Geese) >= 2 && g.count(Good::Paper) >= 1 {
                take_lying(&mut ctx.s, &[a], Good::Geese, 2);
                take_lying(&mut ctx.s, &[a], Good::Paper, 1);
                ctx.emit(Fact::ResearchLost { at: a });
            } else {
                break;
            }
        }
    }
}
