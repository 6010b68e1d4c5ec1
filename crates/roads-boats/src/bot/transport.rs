//! More goods per turn (the planner's style [`Style::sawmill`]; not the floor): a
//! sawmill at home first when two woods or more lie next door, its cost (2 boards, 1
//! stone) kept back from the producers on the first turn the goods for it lie at home,
//! and the woods next door first among the producers. The trunks brought home lie there
//! until the next production (the bricks pay from what lay at home as the turn began),
//! when the sawmill turns each into 2 boards (RULINGS R1 step 4, R4: 6 a turn).
//!
//! A two-rivers game of the planner against the floor, watched turn by turn, made 3
//! goods a turn on each side from turn 3 to the end (two woodcutters, a quarry; 1 each),
//! its three donkeys carrying 1 good each and 2 of room: the producers were the limit,
//! not the transport, and no sawmill was ever built (its 2 boards were always paid
//! into bricks first).

use super::Style;
use crate::building::BuildingKind;
use crate::goods::{Good, Goods};
use crate::map::{AreaId, Hex, Terrain};
use crate::state::State;

/// A sawmill at `home`.
pub fn sawmill_at(s: &State, home: AreaId) -> bool {
    s.buildings_on(home.hex)
        .any(|b| b.kind == BuildingKind::Sawmill)
}

/// In `style` with [`Style::sawmill`]: when home holds no building, takes a sawmill
/// there, two woods or more lie next door (two woodcutters to feed it) and `left` (the goods at home not yet spoken for) pays
/// its cost, that cost is taken from `left` before any producer's, and the sawmill is
/// due this turn (true).
pub fn reserve_sawmill(s: &State, home: AreaId, left: &mut Goods, style: Style) -> bool {
    let sawmill = BuildingKind::Sawmill;
    let cost = sawmill.cost();
    let due = style.sawmill
        && s.buildings_on(home.hex).next().is_none()
        && sawmill.site().allows(&s.map, home.hex)
        && s.map
            .neighbours(home.hex)
            .filter(|(_, h)| s.map.terrain(*h) == Some(Terrain::Woods))
            .count()
            >= 2
        && cost.iter().all(|(g, n)| left.count(g) >= n);
    if due {
        for (g, n) in cost.iter() {
            left.take(g, n);
        }
    }
    due
}

/// The goods at home once this turn's production has run, as far as a sawmill at
/// `home` goes (in `style` with [`Style::sawmill`]): the trunks lying there (up to its
/// 6 a turn) become 2 boards each before the movement, so that the bricks and the
/// producers pay with the boards rather than the trunks (RULINGS R1: production first).
pub fn after_production(s: &State, home: AreaId, left: &mut Goods, style: Style) {
    if !style.sawmill || !sawmill_at(s, home) {
        return;
    }
    let trunks = left.count(Good::Trunks).min(6);
    if trunks > 0 {
        left.take(Good::Trunks, trunks);
        left.add(Good::Boards, 2 * trunks);
    }
}

/// In `style` with [`Style::sawmill`], while a sawmill stands at home: the woods next
/// door first among the tiles a producer goes to (each trunk is 2 boards there).
pub fn woods_first(s: &State, home: AreaId, next_door: &mut [Hex], style: Style) {
    if style.sawmill && (sawmill_at(s, home) || s.buildings_on(home.hex).next().is_none()) {
        next_door.sort_by_key(|h| s.map.terrain(*h) != Some(Terrain::Woods));
    }
}
