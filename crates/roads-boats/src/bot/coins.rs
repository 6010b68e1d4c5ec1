//! The gold project ([`Style::coins`](super::Style::coins), the planner's in games of
//! two): gold made into a coin, kept aboard, where it scores 40 (RULINGS R8).
//!
//! The bot is stateless (`judge bot` reads only the position), so the project is a plan
//! whose stage is read each turn from what already stands, and played before the rest
//! of the economy, which never takes its transporters, its sites or the goods it holds
//! back:
//! 1. a **sawmill** at home (2 boards, 1 stone): trunks brought home become boards, which
//!    the buildings below cost;
//! 2. a **mine** on a free mountain next door or two tiles out (3 boards, 1 stone, more
//!    than a donkey carries): its cost held back from bricks, then carried by two empty
//!    transporters at home together — to the tile next door beside the mountain, and
//!    the next turn onto it, where the first builds;
//! 3. a **coal burner** (3 boards) and a **mint** (2 boards, 1 stone) on free land tiles
//!    next to home, the mint the nearer to the mine: their cost held back, carried there
//!    (two transporters when one has too little room) and left lying, and built once
//!    all of it is there (building takes goods from the tile, RULINGS R6);
//! 4. **fuel**: 2 boards (or trunks) left on the coal burner's tile become a fuel in the
//!    next production (goods left on a factory's tile are its input, RULINGS R1 (4),
//!    R4), which a transporter there takes to the mint;
//! 5. **gold**: a transporter waits at the mine and loads the gold it makes (gold and
//!    iron by turns, R4's default draw), and with two aboard walks to the mint and
//!    leaves them there; 2 gold and 1 fuel there make a coin in the next production;
//! 6. the **coin** is loaded by a transporter of its own and kept aboard for good.
//!
//! A transporter of its own on the mine, the coal burner or the mint is the project's:
//! it is moved on from there (home when it has nothing left to do), never left standing.

use std::collections::BTreeSet;

use super::{area_of, room_for, written};
use crate::building::BuildingKind;
use crate::goods::{Good, Goods};
use crate::map::{AreaId, Hex, Terrain};
use crate::player::Colour;
use crate::state::State;
use crate::transporter::{Class, Location, TransporterId};

/// What the project may change of the turn's orders being written.
pub(super) struct Turn<'a> {
    /// What lies at home and is not yet spoken for: the project takes what it carries
    /// away and what it holds back.
    pub home_left: &'a mut Goods,
    /// Tiles no other building goes to this turn.
    pub targets: &'a mut BTreeSet<Hex>,
    /// Transporters the rest of the economy leaves alone.
    pub busy: &'a mut BTreeSet<TransporterId>,
    pub movement: &'a mut Vec<String>,
    pub building: &'a mut Vec<String>,
}

/// A land tile next to `home`, free of buildings, one area (no river to cross), where
/// a factory may stand.
fn free_site(s: &State, h: Hex) -> bool {
    s.map
        .terrain(h)
        .is_some_and(|t| t.is_land() && t != Terrain::Desert)
        && s.map.areas(h).len() == 1
        && s.buildings_on(h).next().is_none()
}

/// My land transporters, by id.
fn mine_on(s: &State, me: Colour, hex: Hex) -> Vec<TransporterId> {
    s.transporters
        .iter()
        .filter(|(_, t)| {
            t.owner == me
                && t.kind.class() == Class::Land
                && matches!(t.at, Location::Land(a) if a.hex == hex)
        })
        .map(|(id, _)| *id)
        .collect()
}

/// The sites of the project: the mountain (its mine, or a free one next door or two
/// tiles out with the tile next door to carry its cost to), the mint's and the coal
/// burner's tiles next to home.
struct Sites {
    /// The mine's tile, and whether it stands.
    mine: Option<(Hex, bool)>,
    /// The tile next to home beside a free mountain two tiles out.
    step: Option<Hex>,
    mint: Option<(Hex, bool)>,
    burner: Option<(Hex, bool)>,
}

fn sites(s: &State, home: Hex) -> Sites {
    let built = |kind: BuildingKind, far: u32| {
        s.buildings
            .iter()
            .filter(|b| b.kind == kind && b.at.hex.distance(home) <= far)
            .map(|b| b.at.hex)
            .min_by_key(|h| (h.distance(home), *h))
    };
    let next_door: Vec<Hex> = s.map.neighbours(home).map(|(_, h)| h).collect();
    // The free tiles next door for the factories, those a producer wants least first:
    // pasture (a clay pit), then rock or woods when another of the kind is next door
    // (its quarry or woodcutter goes there), the rest last.
    let rank = |h: Hex| {
        let t = s.map.terrain(h);
        let alike = next_door.iter().filter(|o| s.map.terrain(**o) == t).count();
        match t {
            Some(Terrain::Pasture) => 0,
            Some(Terrain::Rock | Terrain::Woods) if alike >= 2 => 1,
            Some(Terrain::Mountain) => 3,
            _ => 2,
        }
    };
    let mut free: Vec<Hex> = next_door
        .iter()
        .copied()
        .filter(|h| free_site(s, *h))
        .collect();
    free.sort_by_key(|h| (rank(*h), *h));
    let mut mine = built(BuildingKind::Mine, 2).map(|h| (h, true));
    let mut step = None;
    if mine.is_none() {
        // A free mountain next door, else two tiles out beside a land tile next door.
        let free_mountain = |h: Hex| {
            s.map.terrain(h) == Some(Terrain::Mountain)
                && s.buildings_on(h).next().is_none()
                && s.map.areas(h).len() == 1
        };
        let mut best: Option<(u32, Hex, Option<Hex>)> = None;
        for st in next_door.iter().copied() {
            if free_mountain(st) {
                let c = (1, st, None);
                if best.is_none_or(|b| c < b) {
                    best = Some(c);
                }
                continue;
            }
            if !s.map.is_land(st) || s.map.areas(st).len() != 1 {
                continue;
            }
            for (_, far) in s.map.neighbours(st) {
                let c = (2, far, Some(st));
                if far.distance(home) == 2 && free_mountain(far) && best.is_none_or(|b| c < b) {
                    best = Some(c);
                }
            }
        }
        if let Some((_, far, st)) = best {
            mine = Some((far, false));
            step = st;
        }
    }
    // The mint next to the mine when a free tile next door is, so that the gold walks
    // one step.
    let near = |h: Hex| mine.map_or(0, |(m, _)| h.distance(m));
    let mint = built(BuildingKind::Mint, 1).map(|h| (h, true)).or_else(|| {
        free.iter()
            .copied()
            .min_by_key(|h| (near(*h), rank(*h), *h))
            .map(|h| (h, false))
    });
    // A mountain two tiles out: its cost is carried to the mint's tile when that is
    // beside it (nothing stands there yet).
    if let (Some((m, false)), Some((site, false)), Some(_)) = (mine, mint, step)
        && site.distance(m) == 1
    {
        step = Some(site);
    }
    let burner = built(BuildingKind::CoalBurner, 1)
        .map(|h| (h, true))
        .or_else(|| {
            free.iter()
                .copied()
                .filter(|h| Some(*h) != mint.map(|m| m.0))
                .min_by_key(|h| (mint.is_none_or(|m| h.distance(m.0) > 1), rank(*h), *h))
                .map(|h| (h, false))
        });
    Sites {
        mine,
        step,
        mint,
        burner,
    }
}

/// The land area next to `from` on the way to `to` (nearest it), a tile of one area.
fn toward(s: &State, from: Hex, to: Hex) -> Option<AreaId> {
    if from.distance(to) <= 1 {
        return Some(area_of(s, to));
    }
    s.map
        .neighbours(from)
        .map(|(_, h)| h)
        .filter(|h| s.map.is_land(*h) && s.map.areas(*h).len() == 1)
        .min_by_key(|h| (h.distance(to), *h))
        .map(|h| area_of(s, h))
}

/// The project's orders for `me` this turn (see the module's text). Does nothing
/// when the map offers no mountain within two tiles or no free tiles for the mint and
/// the coal burner.
pub(super) fn gold_project(s: &State, me: Colour, home: AreaId, t: Turn) {
    let Turn {
        home_left,
        targets,
        busy,
        movement,
        building,
    } = t;
    let sites = sites(s, home.hex);
    let (
        Some((mine_hex, mine_built)),
        Some((mint_hex, mint_built)),
        Some((burner_hex, burner_built)),
    ) = (sites.mine, sites.mint, sites.burner)
    else {
        return;
    };
    for h in [mine_hex, mint_hex, burner_hex] {
        targets.insert(h);
    }
    let mine_at = area_of(s, mine_hex);
    let mint_at = area_of(s, mint_hex);
    let burner_at = area_of(s, burner_hex);
    // Empty land transporters of its own at home, free for a carry.
    let at_home = |busy: &BTreeSet<TransporterId>| -> Vec<(TransporterId, u32)> {
        super::free_at_home(s, me, home, busy)
            .map(|(id, t)| (*id, t.kind.capacity().saturating_sub(t.cargo.total())))
            .filter(|(_, room)| *room > 0)
            .collect()
    };
    let hold = |home_left: &mut Goods, cost: &Goods| {
        for (g, n) in cost.iter() {
            home_left.take(g, n);
        }
    };
    let covers = |have: &Goods, cost: &Goods| cost.iter().all(|(g, n)| have.count(g) >= n);

    // 1. The sawmill at home, built by a transporter that stays there.
    let sawmill = BuildingKind::Sawmill;
    let has_sawmill = s
        .buildings_on(home.hex)
        .any(|b| b.kind == BuildingKind::Sawmill);
    if !has_sawmill {
        if s.buildings_on(home.hex).next().is_some() || !sawmill.site().allows(&s.map, home.hex) {
            return;
        }
        let cost = sawmill.cost();
        if covers(home_left, &cost)
            && let Some((id, _)) = at_home(busy).first().copied()
        {
            busy.insert(id);
            targets.insert(home.hex);
            building.push(format!("build sawmill at {home} with {id}"));
        }
        hold(home_left, &cost);
        return;
    }

    // 2. The mine.
    // While the first is being saved for, carried and built, nothing else of the project
    // goes on; a later one (the first spent) goes on beside the rest.
    let first_mine = !(mint_built || burner_built);
    'mine: {
        if mine_built {
            break 'mine;
        }
        let cost = BuildingKind::Mine.cost();
        // Two (or more) of its own together beside the mountain with its cost aboard.
        if let Some(step) = sites.step {
            // Those beside the mountain carrying boards or stone (the cost).
            let team: Vec<TransporterId> = mine_on(s, me, step)
                .into_iter()
                .filter(|id| {
                    s.transporters.get(id).is_some_and(|t| {
                        t.cargo.count(Good::Boards) + t.cargo.count(Good::Stone) > 0
                    })
                })
                .collect();
            let mut aboard = Goods::new();
            for id in &team {
                if let Some(t) = s.transporters.get(id) {
                    aboard.add_all(&t.cargo);
                }
            }
            if covers(&aboard, &cost) && !team.iter().any(|id| busy.contains(id)) {
                for id in &team {
                    busy.insert(*id);
                    movement.push(format!("move {id}: {mine_at}"));
                }
                if let Some(first) = team.first() {
                    building.push(format!("build mine at {mine_at} with {first}"));
                }
                if first_mine {
                    return;
                }
                break 'mine;
            }
        }
        if covers(home_left, &cost) {
            let free = at_home(busy);
            let room: u32 = free.iter().take(2).map(|(_, r)| r).sum();
            if free.len() >= 2 && room >= cost.total() {
                let to = sites.step.map_or(mine_at, |h| area_of(s, h));
                let mut left = cost.clone();
                for (id, r) in free.iter().take(2) {
                    let load = room_for(&left, *r);
                    for (g, n) in load.iter() {
                        left.take(g, n);
                        home_left.take(g, n);
                    }
                    busy.insert(*id);
                    movement.push(format!("move {id}: load {}; {to}", written(&load)));
                }
                if sites.step.is_none()
                    && let Some((first, _)) = free.first()
                {
                    building.push(format!("build mine at {mine_at} with {first}"));
                }
                if first_mine {
                    return;
                }
                break 'mine;
            }
        }
        hold(home_left, &cost);
        if first_mine {
            return;
        }
    }

    // 5. Gold: one of its own waits at the mine and loads what it makes; with two gold
    // aboard (or the mine's gold all made) it walks to the mint. Others there go home
    // with the iron.
    let gold_left = s
        .buildings_on(mine_hex)
        .filter_map(|b| b.mine)
        .map(|m| m.gold)
        .sum::<u32>();
    let lying_at_mine = s.goods_at(mine_at).cloned().unwrap_or_default();
    let mut gold_lying = lying_at_mine.count(Good::Gold);
    let mut iron_lying = lying_at_mine.count(Good::Iron);
    for (k, id) in mine_on(s, me, mine_hex).into_iter().enumerate() {
        let Some(t) = s.transporters.get(&id) else {
            continue;
        };
        busy.insert(id);
        let room = t.kind.capacity().saturating_sub(t.cargo.total());
        if k == 0 {
            let take = gold_lying.min(room);
            gold_lying -= take;
            let gold = t.cargo.count(Good::Gold) + take;
            let load = if take > 0 {
                format!("load {}; ", Good::Gold.counted(take))
            } else {
                String::new()
            };
            if gold >= 2 || (gold > 0 && gold_left == 0 && gold_lying == 0) {
                if let Some(next) = toward(s, mine_hex, mint_hex) {
                    let there = s.goods_at(mint_at).map_or(0, |g| g.count(Good::Gold));
                    let unload = gold_for_the_mint(next.hex == mint_hex && mint_built, gold, there);
                    movement.push(format!("move {id}: {load}{next}{unload}"));
                }
            } else if take > 0 {
                movement.push(format!("move {id}: {load}{mine_at}"));
            }
        } else {
            let take = iron_lying.min(room);
            iron_lying -= take;
            let load = if take > 0 {
                format!("load {}; ", Good::Iron.counted(take))
            } else {
                String::new()
            };
            if let Some(next) = toward(s, mine_hex, home.hex) {
                movement.push(format!("move {id}: {load}{next}"));
            }
        }
    }
    // Gold aboard elsewhere (not at home, the mine or the mint) goes on to the mint.
    let mint_lying = s.goods_at(mint_at).cloned().unwrap_or_default();
    let carriers: Vec<_> = s
        .transporters
        .iter()
        .filter(|(id, t)| {
            t.owner == me
                && t.kind.class() == Class::Land
                && !busy.contains(id)
                && t.cargo.count(Good::Gold) > 0
        })
        .collect();
    for (id, t) in carriers {
        let Location::Land(at) = t.at else {
            continue;
        };
        // At the mint's site it waits for the mint; once the mint stands, the mint's
        // own orders below leave the gold there. At home before the mint stands, the
        // gold stays aboard where it is.
        if at.hex == mint_hex {
            if !mint_built {
                busy.insert(*id);
            }
            continue;
        }
        if at.hex == home.hex && !mint_built {
            continue;
        }
        if let Some(next) = toward(s, at.hex, mint_hex) {
            busy.insert(*id);
            let unload = gold_for_the_mint(
                next.hex == mint_hex && mint_built,
                t.cargo.count(Good::Gold),
                mint_lying.count(Good::Gold),
            );
            movement.push(format!("move {id}: {next}{unload}"));
        }
    }

    // 4. Fuel to the mint, and 6. the coin aboard.
    let fuel_at_mint = mint_lying.count(Good::Fuel) > 0;
    let burner_lying = s.goods_at(burner_at).cloned().unwrap_or_default();
    let wood_at_burner = burner_lying.count(Good::Boards) + burner_lying.count(Good::Trunks);
    let mut fuel_on_way = s.transporters.values().any(|t| {
        t.owner == me
            && t.cargo.count(Good::Fuel) > 0
            && !matches!(t.at, Location::Land(a) if a.hex == burner_hex)
    });
    for id in mine_on(s, me, burner_hex)
        .into_iter()
        .filter(|_| burner_built)
    {
        let Some(t) = s.transporters.get(&id) else {
            continue;
        };
        if !busy.insert(id) {
            continue;
        }
        let room = t.kind.capacity().saturating_sub(t.cargo.total());
        let fuel = burner_lying.count(Good::Fuel).min(room) + t.cargo.count(Good::Fuel);
        if fuel > 0 && mint_built && !fuel_at_mint && !fuel_on_way {
            fuel_on_way = true;
            let load = burner_lying.count(Good::Fuel).min(room);
            let load = if load > 0 {
                format!("load {}; ", Good::Fuel.counted(load))
            } else {
                String::new()
            };
            match toward(s, burner_hex, mint_hex) {
                Some(next) if next.hex == mint_hex => movement.push(format!(
                    "move {id}: {load}{next}; unload {}",
                    Good::Fuel.counted(1)
                )),
                Some(next) => movement.push(format!("move {id}: {load}{next}")),
                None => {}
            }
        } else if wood_at_burner < 2 || fuel > 0 {
            // Nothing to wait for here (a fuel lies for the mint to come): home.
            movement.push(format!("move {id}: {home}"));
        }
        // (Else it waits for the fuel the wood there makes.)
    }
    // Fuel lying at the coal burner with none of its own there: one fetches it (and
    // takes it on to the mint the next turn).
    if burner_built
        && mint_built
        && burner_lying.count(Good::Fuel) > 0
        && !fuel_at_mint
        && !fuel_on_way
        && mine_on(s, me, burner_hex).is_empty()
        && let Some((id, _)) = at_home(busy).first().copied()
    {
        busy.insert(id);
        fuel_on_way = true;
        movement.push(format!(
            "move {id}: {burner_at}; load {}",
            Good::Fuel.counted(1)
        ));
    }
    let coin_lying = mint_lying.count(Good::Coins);
    let mut coin_taken = false;
    for id in mine_on(s, me, mint_hex).into_iter().filter(|_| mint_built) {
        let Some(t) = s.transporters.get(&id) else {
            continue;
        };
        if !busy.insert(id) {
            continue;
        }
        let room = t.kind.capacity().saturating_sub(t.cargo.total());
        let mut lines = Vec::new();
        if coin_lying > 0 && !coin_taken && room > 0 {
            coin_taken = true;
            lines.push(format!(
                "load {}",
                Good::Coins.counted(coin_lying.min(room))
            ));
        }
        let gold = t.cargo.count(Good::Gold);
        let there = mint_lying.count(Good::Gold);
        let give = gold.min(2u32.saturating_sub(there));
        let give = if there + give >= 2 { give } else { 0 };
        let fuel = t.cargo.count(Good::Fuel);
        if give > 0 {
            lines.push(format!("unload {}", Good::Gold.counted(give)));
        }
        if fuel > 0 && !fuel_at_mint {
            lines.push(format!("unload {}", Good::Fuel.counted(1)));
        }
        if lines.is_empty() || coin_taken {
            lines.push(home.to_string());
        }
        movement.push(format!("move {id}: {}", lines.join("; ")));
    }
    if coin_lying > 0
        && mint_built
        && !coin_taken
        && let Some((id, _)) = at_home(busy).first().copied()
    {
        busy.insert(id);
        let back = if s.map.road_connected(home, mint_at, Some(me)) {
            format!("; {home}")
        } else {
            String::new()
        };
        movement.push(format!(
            "move {id}: {mint_at}; load {}{back}",
            Good::Coins.counted(1)
        ));
    }
    // 3. The coal burner, then the mint: the cost carried to the site and left lying,
    // built once all of it is there.
    let factories = [
        (BuildingKind::CoalBurner, burner_at, burner_built),
        (BuildingKind::Mint, mint_at, mint_built),
    ];
    'deliver: {
        let Some((kind, at, _)) = factories.iter().find(|f| !f.2).copied() else {
            break 'deliver;
        };
        let cost = kind.cost();
        let mut have = s.goods_at(at).cloned().unwrap_or_default();
        let team = mine_on(s, me, at.hex);
        for id in &team {
            if let Some(t) = s.transporters.get(id) {
                have.add_all(&t.cargo);
            }
        }
        let mut need = Goods::new();
        for (g, n) in cost.iter() {
            need.add(g, n.saturating_sub(have.count(g)));
        }
        // Those of its own there: build when all is there, else go home for more.
        if need.is_empty()
            && let Some(first) = team.iter().find(|id| !busy.contains(id))
        {
            busy.insert(*first);
            building.push(format!("build {} at {at} with {first}", kind.name()));
            break 'deliver;
        }
        for id in &team {
            if busy.insert(*id) {
                movement.push(format!("move {id}: {home}"));
            }
        }
        if need.is_empty() {
            // Nobody there to build: one goes.
            if let Some((id, _)) = at_home(busy).first().copied() {
                busy.insert(id);
                movement.push(format!("move {id}: {at}"));
                building.push(format!("build {} at {at} with {id}", kind.name()));
            }
            break 'deliver;
        }
        let mut left = Goods::new();
        for (g, n) in need.iter() {
            left.add(g, n.min(home_left.count(g)));
        }
        let free = at_home(busy);
        let mut carried = Goods::new();
        for (id, r) in free.iter().take(2) {
            let load = room_for(&left, *r);
            if load.is_empty() {
                break;
            }
            for (g, n) in load.iter() {
                left.take(g, n);
                home_left.take(g, n);
                carried.add(g, n);
            }
            busy.insert(*id);
            // Along a road, back home in the same move.
            let back = if s.map.road_connected(home, at, Some(me)) && !covers(&carried, &need) {
                format!("; {home}")
            } else {
                String::new()
            };
            movement.push(format!(
                "move {id}: load {}; {at}; unload {}{back}",
                written(&load),
                written(&load)
            ));
        }
        if covers(&carried, &need)
            && let Some((first, _)) = free.first()
        {
            building.push(format!("build {} at {at} with {first}", kind.name()));
        }
        // What is still missing is held back for the next turns.
        let mut rest = need.clone();
        for (g, n) in carried.iter() {
            rest.take(g, n);
        }
        hold(home_left, &rest);
        break 'deliver;
    }

    // Wood to the coal burner, while the mint lacks fuel and none is on its way.
    let fuel_at_burner = burner_lying.count(Good::Fuel) > 0;
    let want_coin = gold_left > 0
        || s.transporters
            .values()
            .any(|t| t.owner == me && t.cargo.count(Good::Gold) >= 1)
        || mint_lying.count(Good::Gold) > 0
        || lying_at_mine.count(Good::Gold) > 0;
    if want_coin
        && burner_built
        && !fuel_at_mint
        && !fuel_on_way
        && !fuel_at_burner
        && wood_at_burner < 2
    {
        let mut wood = Goods::new();
        let mut need = 2 - wood_at_burner;
        for g in [Good::Boards, Good::Trunks] {
            let k = home_left.count(g).min(need);
            if k > 0 {
                wood.add(g, k);
                need -= k;
            }
        }
        if need == 0 {
            if let Some((id, _)) = at_home(busy).into_iter().find(|(_, r)| *r >= 2) {
                busy.insert(id);
                hold(home_left, &wood);
                let w = written(&wood);
                let back = if s.map.road_connected(home, burner_at, Some(me)) {
                    format!("; {home}")
                } else {
                    String::new()
                };
                movement.push(format!(
                    "move {id}: load {w}; {burner_at}; unload {w}{back}"
                ));
            } else {
                hold(home_left, &wood);
            }
        }
    }
}

/// `; unload N gold` for a transporter with `gold` aboard arriving at a standing mint
/// (`at_mint`) where `there` gold already lies: as much as makes the 2 a coin takes
/// (RULINGS R4: mint 2 gold + 1 fuel), and only if it makes them; else nothing.
fn gold_for_the_mint(at_mint: bool, gold: u32, there: u32) -> String {
    let give = gold.min(2u32.saturating_sub(there));
    if at_mint && give > 0 && there + give >= 2 {
        format!("; unload {}", Good::Gold.counted(give))
    } else {
        String::new()
    }
}
