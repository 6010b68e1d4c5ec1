//! The wonder phase (RULINGS R7, R2): bricks bought in move order, one neutral brick,
//! move-order requests; then the check for the end of the game.

use std::collections::BTreeMap;

use super::score::ranking;
use crate::events::Fact;
use crate::goods::{Good, Goods};
use crate::map::AreaId;
use crate::modules::{self, During};
use crate::orders::{TurnOrders, WonderOrder};
use crate::player::Colour;
use crate::refusal::{FewerBricks, Refusal};
use crate::turn::at_home;
use crate::turn::{Ctx, lying, take_lying};
use crate::wonder::{Brick, IRRIGATION_BRICK, SIZE};

pub(super) fn run(ctx: &mut Ctx, orders: &TurnOrders) {
    let mut requests: BTreeMap<Colour, Vec<u32>> = BTreeMap::new();
    modules::each(ctx, orders, |h| h.before_bricks);
    for player in ctx.in_move_order() {
        let Some(list) = orders.get(&player) else {
            continue;
        };
        ctx.player = Some(player);
        let mut bought = 0;
        for o in &list.wonder {
            ctx.line = Some(o.line);
            match &o.order {
                WonderOrder::Bricks { count, paying } => bricks(ctx, *count, paying, &mut bought),
                WonderOrder::MoveOrder { preferences } => {
                    requests.insert(player, preferences.clone());
                }
                WonderOrder::Module(m) => modules::carry_out(ctx, During::Wonder, m),
            }
        }
    }
    ctx.player = None;
    ctx.line = None;
    if ctx.s.wonder.placed() < SIZE {
        ctx.s.wonder.bricks.push(Brick::Neutral);
        ctx.emit(Fact::NeutralBrick {
            place: ctx.s.wonder.placed() as u32,
        });
        irrigate(ctx);
        let place = ctx.s.wonder.placed() - 1;
        modules::after_bricks(ctx, place..place + 1);
    }
    if !requests.is_empty() {
        new_move_order(ctx, &requests);
    }
}

fn irrigate(ctx: &mut Ctx) {
    if ctx.s.wonder.placed() == IRRIGATION_BRICK {
        ctx.emit(Fact::Irrigation);
    }
}

/// RULINGS R7: the k-th brick of a turn costs k goods (k+1 after the first four rows),
/// paid with goods on the home tile, where one of the player's transporters must be.
fn bricks(ctx: &mut Ctx, count: u32, paying: &Goods, bought: &mut u32) {
    let Some(player) = ctx.player else { return };
    let Some(home) = ctx.s.players.get(&player).and_then(|p| p.home) else {
        return;
    };
    let carriers = at_home(ctx, player, home);
    if carriers.is_empty() {
        return ctx.fail(Refusal::BricksAtHome { home });
    }
    let side: Vec<AreaId> = ctx.s.map.same_side(home).into_iter().collect();
    let mut available = lying(&ctx.s, &side);
    for id in &carriers {
        if let Some(t) = ctx.s.transporters.get(id) {
            available.add_all(&t.cargo);
        }
    }
    // The purse: what the player offers, as far as it is there.
    let mut purse = Goods::new();
    for (g, n) in paying.iter() {
        purse.add(g, n.min(available.count(g)));
    }
    let first_place = ctx.s.wonder.placed() as u32 + 1;
    let mut placed = 0;
    let mut paid = Goods::new();
    while placed < count && ctx.s.wonder.placed() < SIZE {
        let price = crate::wonder::price(ctx.s.wonder.placed(), *bought);
        if purse.total() < price {
            break;
        }
        let mut left = price;
        let kinds: Vec<_> = purse.iter().map(|(g, _)| g).collect();
        for g in kinds {
            let k = purse.take(g, left);
            paid.add(g, k);
            left -= k;
        }
        ctx.s.wonder.bricks.push(Brick::Player(player));
        *bought += 1;
        placed += 1;
        irrigate(ctx);
    }
    // Take the payment: lying goods first, then cargo.
    for (g, n) in paid.iter() {
        let mut left = n - take_lying(&mut ctx.s, &side, g, n);
        for id in &carriers {
            if left == 0 {
                break;
            }
            if let Some(t) = ctx.s.transporters.get_mut(id) {
                left -= t.cargo.take(g, left);
            }
        }
    }
    if placed > 0 {
        ctx.emit(Fact::BricksPlaced {
            count: placed,
            paid: paid.clone(),
            from: first_place,
        });
        let first = first_place as usize - 1;
        modules::after_bricks(ctx, first..first + placed as usize);
    }
    if placed < count {
        let why = if ctx.s.wonder.placed() >= SIZE {
            FewerBricks::Finished
        } else {
            let short: Vec<(Good, u32)> = paying
                .iter()
                .filter(|(g, n)| available.count(*g) < *n)
                .map(|(g, _)| (g, available.count(g)))
                .collect();
            if short.is_empty() {
                FewerBricks::NotPaidFor
            } else {
                FewerBricks::ShortAtHome { short }
            }
        };
        let refusal = Refusal::PlacedNone { placed, count, why };
        if placed == 0 {
            ctx.fail(refusal)
        } else {
            ctx.short(refusal)
        }
    }
}

/// RULINGS R2: beginning with the player currently last, each takes the best free
/// position on their list (no list: the first free position).
fn new_move_order(ctx: &mut Ctx, requests: &BTreeMap<Colour, Vec<u32>>) {
    let old = ctx.s.move_order.clone();
    let n = old.len();
    let mut seats: Vec<Option<Colour>> = vec![None; n];
    for player in old.iter().rev() {
        let wanted = requests.get(player).cloned().unwrap_or_default();
        let pick = wanted
            .iter()
            .filter_map(|p| (*p as usize).checked_sub(1))
            .find(|i| *i < n && seats[*i].is_none())
            .or_else(|| seats.iter().position(Option::is_none));
        if let Some(i) = pick {
            seats[i] = Some(*player);
        }
    }
    let order: Vec<Colour> = seats.into_iter().flatten().collect();
    if order.len() == n {
        ctx.s.move_order = order.clone();
        ctx.emit(Fact::MoveOrder { order });
    }
}

/// The GM ends the game (`judge end`): it is scored as at its natural end (RULINGS R8:
/// goods on transporters and the wonder's rows), with the GM's reason.
pub(super) fn end_now(ctx: &mut Ctx, why: &str) {
    if ctx.s.game_over.is_some() {
        return;
    }
    let table: Vec<String> = ranking(&ctx.s)
        .iter()
        .map(|(c, s)| format!("{c} {}", s.total))
        .collect();
    let reason = format!("the GM ended it ({why}); final score {}", table.join(", "));
    ctx.s.game_over = Some(reason.clone());
    ctx.emit(Fact::GameOver { reason });
}

/// The game ends when the mark is covered, the last neutral brick placed, the wonder
/// full, or the turn limit reached (RULINGS R7).
pub(super) fn check_end(ctx: &mut Ctx) {
    if ctx.s.game_over.is_some() {
        return;
    }
    let end = ctx.s.settings.end.clone();
    let placed = ctx.s.wonder.placed();
    let played = ctx.s.turn;
    let reason = if end.wonder_brick.is_some_and(|b| placed >= b as usize) {
        Some(format!(
            "brick {} is on the wonder",
            end.wonder_brick.unwrap_or(0)
        ))
    } else if ctx.s.wonder.neutral_bricks() >= end.neutral_bricks as usize {
        Some(format!(
            "the {} neutral brick is on the wonder",
            crate::show::ordinal(end.neutral_bricks)
        ))
    } else if placed >= SIZE {
        Some("the wonder is finished".to_string())
    } else if end.turn_limit.is_some_and(|t| played >= t) {
        Some(format!("turn {played} was the last"))
    } else {
        None
    };
    if let Some(reason) = reason {
        let table: Vec<String> = ranking(&ctx.s)
            .iter()
            .map(|(c, s)| format!("{c} {}", s.total))
            .collect();
        let reason = format!("{reason}; final score {}", table.join(", "));
        ctx.s.game_over = Some(reason.clone());
        ctx.emit(Fact::GameOver { reason });
    }
}
