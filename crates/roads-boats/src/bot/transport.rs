//! More goods per turn (the planner's style [`Style::sawmill`]; not the floor): a
//! sawmill at home first when two woods or more lie next door, its cost (2 boards, 1
//! stone) kept back from the producers on the first turn the goods for it lie at home,
//! and the woods next door first among the producers.
//! Then the transport: a donkey back from a producer goes on to the one next door
//! where most lies ([`back_to`], [`Style::rounds`]). The trunks brought home lie there
//! until the next production (the bricks pay from what lay at home as the turn began),
//! when the sawmill turns each into 2 boards (RULINGS R1 step 4, R4: 6 a turn).
//!
//! Why: a two-rivers game of the planner against the floor before this (at 195dbd0c),
//! watched turn by turn, made 3 goods a turn on each side from turn 3 to the end (two
//! woodcutters, a quarry; 1 each), its three donkeys carrying 1 good each and 2 of room:
//! the producers were the limit, not the transport, and no sawmill was ever built (its
//! 2 boards were always paid into bricks first).

use super::Style;
use crate::building::BuildingKind;
use crate::goods::{Good, Goods};
use std::collections::BTreeSet;

use crate::map::{AreaId, Hex, Terrain};
use crate::player::Colour;
use crate::state::State;
use crate::transporter::Location;

/// A sawmill at `home`.
pub fn sawmill_at(s: &State, home: AreaId) -> bool {
    s.buildings_on(home.hex)
        .any(|b| b.kind == BuildingKind::Sawmill)
}

/// In `style` with [`Style::sawmill`]: when home holds no building, takes a sawmill
/// there, two woods or more lie next door (two woodcutters to feed it) and `left` (the
/// goods at home not yet spoken for) pays its cost, that cost is taken from `left`
/// before any producer's, and the sawmill is due this turn (true).
pub fn reserve_sawmill(s: &State, home: AreaId, left: &mut Goods, style: Style) -> bool {
    // An atelier in its place with art (one woods next door is enough for its trunks).
    let sawmill = super::art::home_factory(style);
    let woods = if style.art { 1 } else { 2 };
    let cost = sawmill.cost();
    let due = style.sawmill
        && s.buildings_on(home.hex).next().is_none()
        && sawmill.site().allows(&s.map, home.hex)
        && s.map
            .neighbours(home.hex)
            .filter(|(_, h)| s.map.terrain(*h) == Some(Terrain::Woods))
            .count()
            >= woods
        && cost.iter().all(|(g, n)| left.count(g) >= n);
    if due {
        for (g, n) in cost.iter() {
            left.take(g, n);
        }
    }
    due
}

/// The goods at home once this turn's production has run, as far as a sawmill at
/// `home` goes (in `style` with [`Style::sawmill`]): the trunks lying there (up to 3, its
/// 6 boards a turn) become 2 boards each before the movement, so that the bricks and the
/// producers pay with the boards rather than the trunks (RULINGS R1: production first).
pub fn after_production(s: &State, home: AreaId, left: &mut Goods, style: Style) {
    // An atelier at home makes a wood carving of 3 trunks (capacity 1).
    if super::art::atelier_at(s, home) && left.count(Good::Trunks) >= 3 {
        left.take(Good::Trunks, 3);
        left.add(Good::Carvings, 1);
    }
    if !style.sawmill || !sawmill_at(s, home) {
        return;
    }
    // Its capacity, 6 a turn, counts the boards it makes: 3 trunks (R4).
    let trunks = left.count(Good::Trunks).min(3);
    if trunks > 0 {
        left.take(Good::Trunks, trunks);
        left.add(Good::Boards, 2 * trunks);
    }
}

/// In `style` with [`Style::sawmill`], while a sawmill stands at home or home holds no
/// building yet (one may come): the woods next door first among the tiles a producer
/// goes to (each trunk is 2 boards there), before the rock even in a style with
/// [`Style::stone_first`].
pub fn woods_first(s: &State, home: AreaId, next_door: &mut [Hex], style: Style) {
    if style.sawmill && (sawmill_at(s, home) || s.buildings_on(home.hex).next().is_none()) {
        next_door.sort_by_key(|h| s.map.terrain(*h) != Some(Terrain::Woods));
    }
}

/// Rounds (the planner's style [`Style::rounds`]; not the floor): where a donkey that
/// brings home what lay at the producer on `area` goes back to along the roads. Its own
/// producer, unless a producer next door joined to home by road, with none of `me`'s
/// transporters on it and not among `targets`, holds more than `left` (what stays at
/// its own once loaded): then that one, which joins `targets` (no second goes there).
/// A quarry or woodcutter makes one good a turn and a donkey carries two, so a
/// producer no donkey waits at fills up while another's donkey carries one a turn.
/// In a style with [`Style::rounds`], the producer next door a donkey at home fetches
/// from: of those `free` says it may go to, the one where most lies (a road joining it
/// to home first, then the first in the map's order), rather than the first. A
/// producer makes one good a turn and a donkey carries two (RULINGS R4, R5), so one
/// that no donkey has fetched from fills up while the donkeys go to the first.
pub fn fullest(s: &State, me: Colour, home: AreaId, free: impl Fn(Hex) -> bool) -> Option<Hex> {
    s.map
        .neighbours(home.hex)
        .map(|(_, h)| h)
        .filter(|h| free(*h))
        .enumerate()
        .max_by_key(|(i, h)| {
            let a = super::area_of(s, *h);
            (
                s.map.road_connected(home, a, Some(me)),
                s.goods_at(a).map_or(0, |g| g.total()),
                std::cmp::Reverse(*i),
            )
        })
        .map(|(_, h)| h)
}

pub fn back_to(
    s: &State,
    me: Colour,
    home: AreaId,
    area: AreaId,
    left: u32,
    style: Style,
    targets: &mut BTreeSet<Hex>,
) -> AreaId {
    if !style.rounds {
        return area;
    }
    let best =
        s.map
            .neighbours(home.hex)
            .map(|(_, h)| super::area_of(s, h))
            .filter(|a| {
                a.hex != area.hex
                    && !targets.contains(&a.hex)
                    && s.buildings_on(a.hex).any(|b| super::is_producer(b.kind))
                    && s.map.road_connected(home, *a, Some(me))
                    && !s.transporters.values().any(|t| {
                        t.owner == me && matches!(t.at, Location::Land(x) if x.hex == a.hex)
                    })
            })
            .map(|a| (s.goods_at(a).map_or(0, |g| g.total()), a))
            .filter(|(n, _)| *n > left)
            .max_by_key(|(n, a)| (*n, std::cmp::Reverse(*a)));
    match best {
        Some((_, a)) => {
            targets.insert(a.hex);
            a
        }
        None => area,
    }
}

/// Whether a transporter of `me`'s own is at home at the wonder (RULINGS R7: the goods
/// come from the home tile, "which must hold one of their transporters"): one of
/// `ends_home`, or one at home that no line of `movement` moves. If neither, the last
/// that only goes from home to a position, loading nothing and building nothing
/// (`move D2: C3`, to wait at a producer), is kept home: its line is taken out of
/// `movement`, and it is true again.
pub fn hold_one_home(
    s: &State,
    me: Colour,
    home: AreaId,
    ends_home: &[crate::transporter::TransporterId],
    movement: &mut Vec<String>,
    building: &[String],
) -> bool {
    let mover = |line: &str| -> Option<String> {
        line.strip_prefix("move ")
            .and_then(|l| l.split_once(": "))
            .map(|(id, _)| id.to_string())
    };
    let moved: BTreeSet<String> = movement.iter().filter_map(|l| mover(l)).collect();
    let at_home: Vec<String> = s
        .transporters
        .iter()
        .filter(|(_, t)| t.owner == me && matches!(t.at, Location::Land(a) if a.hex == home.hex))
        .map(|(id, _)| id.to_string())
        .collect();
    if !ends_home.is_empty() || at_home.iter().any(|id| !moved.contains(id)) {
        return true;
    }
    let waiting = movement.iter().rposition(|line| {
        let Some((id, way)) = line.strip_prefix("move ").and_then(|l| l.split_once(": ")) else {
            return false;
        };
        at_home.iter().any(|h| h == id)
            && !way.contains(';')
            && !way.starts_with("load")
            && !building.iter().any(|b| b.ends_with(&format!(" with {id}")))
    });
    match waiting {
        Some(i) => {
            movement.remove(i);
            true
        }
        None => false,
    }
}

/// Producers before bricks (the planner's [`Style::builds_first`]; not the floor): the
/// cost of the producer a transporter at home builds next (`next_producer` in bot/mod.rs),
/// paid by `left` (the goods at home not yet spoken for); not a mine (its gold fills
/// the transporters that keep it: [`Style::mines`]). Those goods
/// stay home, not paid into bricks, until a transporter takes them there: a woodcutter
/// or a quarry makes a good every turn to the end (RULINGS R4), where its boards laid
/// as bricks pay once.
pub fn held(s: &State, home: AreaId, left: &Goods, targets: &BTreeSet<Hex>, style: Style) -> Goods {
    super::next_producer(s, home, left, targets, style, |kind, _| {
        kind != BuildingKind::Mine
    })
    .map(|(_, _, cost)| cost)
    .unwrap_or_default()
}
