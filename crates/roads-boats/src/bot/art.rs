//! Art for the planner (&cetera, Art; the planner's [`Style::art`], on where the module
//! is): an atelier at home in the sawmill's place, the trunks brought home kept from
//! bricks for it, and its wood carvings kept aboard.
//!
//! "The atelier … costs 2 boards+1 stone … It can produce: 3 trunks → Wood carving",
//! and "at the end of the game, each artwork possessed by players scores 20 points"
//! (aboard the player's transporters, as gold: RULINGS R8, R10). Three trunks are a
//! carving, 20 points; as bricks they are one or two bricks' share of a row (a row is
//! worth 10, shared). The atelier stands at home, where the trunks come anyway, so that
//! no transport is added: goods left on a secondary producer's tile are its input (R4),
//! 3 trunks a production (its capacity is 1).
//!
//! Each carving made is loaded at once by a transporter at home that stays there (the
//! bricks need one there, R7), one already holding art first, so that art fills as few
//! transporters as it can: a donkey holds 2. Two land transporters are always left
//! free of it for the transport; once the others are full, the trunks go to bricks
//! again, and what carvings the atelier still makes lie at home until the end is near,
//! when every transporter at home takes what it has room for.

use std::collections::BTreeSet;

use super::Style;
use crate::building::BuildingKind;
use crate::goods::{Good, Goods};
use crate::map::AreaId;
use crate::player::Colour;
use crate::state::{Module, State};
use crate::transporter::{Class, TransporterId};

/// The land transporters always left free of art, for the transport.
pub const FREE: usize = 2;

/// Whether the game has the &cetera art module.
pub fn in_play(s: &State) -> bool {
    s.settings.modules.contains(&Module::Art)
}

/// The building it puts at home first: an atelier in a style with [`Style::art`], else
/// a sawmill (transport.rs).
pub fn home_factory(style: Style) -> BuildingKind {
    if style.art {
        BuildingKind::Atelier
    } else {
        BuildingKind::Sawmill
    }
}

/// An atelier at `home`.
pub fn atelier_at(s: &State, home: AreaId) -> bool {
    s.buildings_on(home.hex)
        .any(|b| b.kind == BuildingKind::Atelier)
}

/// Artwork aboard a transporter.
fn art_aboard(cargo: &Goods) -> u32 {
    cargo
        .iter()
        .filter(|(g, _)| g.is_artwork())
        .map(|(_, n)| n)
        .sum()
}

/// `me`'s land transporters: whether each holds art, and its room.
fn land(s: &State, me: Colour) -> Vec<(TransporterId, bool, u32)> {
    s.transporters
        .iter()
        .filter(|(_, t)| t.owner == me && t.kind.class() == Class::Land)
        .map(|(id, t)| {
            (
                *id,
                art_aboard(&t.cargo) > 0,
                t.kind.capacity().saturating_sub(t.cargo.total()),
            )
        })
        .collect()
}

/// How many more of `me`'s land transporters may take art aboard: all but [`FREE`]
/// may hold it.
fn new_keepers(s: &State, me: Colour) -> usize {
    let land = land(s, me);
    let holding = land.iter().filter(|(_, art, _)| *art).count();
    land.len().saturating_sub(FREE).saturating_sub(holding)
}

/// The room for art: that of the transporters holding some, and of as many more as may.
fn room(s: &State, me: Colour) -> u32 {
    let land = land(s, me);
    let holding: u32 = land
        .iter()
        .filter(|(_, art, _)| *art)
        .map(|(_, _, r)| r)
        .sum();
    let mut others: Vec<u32> = land
        .iter()
        .filter(|(_, art, _)| !*art)
        .map(|(_, _, r)| *r)
        .collect();
    others.sort_unstable_by(|a, b| b.cmp(a));
    holding + others.iter().take(new_keepers(s, me)).sum::<u32>()
}

/// In `style` with [`Style::art`] and an atelier at home: whether the trunks at home are
/// kept from bricks for the next carving (room aboard is left for it).
pub fn wants_trunks(s: &State, me: Colour, home: AreaId, style: Style) -> bool {
    style.art && atelier_at(s, home) && room(s, me) > 0
}

/// The end is near: the bricks still to be laid before the mark (R7) are fewer than
/// the players lay in about a turn and a half, three each and the neutral one.
fn end_near(s: &State) -> bool {
    let placed = s.wonder.placed() as u32;
    let mark = s.settings.end.wonder_brick;
    let limit_near = s
        .settings
        .end
        .turn_limit
        .is_some_and(|limit| s.turn + 2 >= limit);
    limit_near
        || mark.is_some_and(|m| {
            let per_turn = 3 * s.players.len() as u32 + 1;
            m.saturating_sub(placed) * 2 <= per_turn * 3
        })
}

/// The lines that take the artwork lying at home (`at_home`, after this turn's
/// production) aboard transporters of `me`'s there that no other part of the file has
/// taken (`busy`): each stays home, its `move … : load …` line with no position in it.
#[allow(clippy::too_many_arguments)]
pub fn keep(
    s: &State,
    me: Colour,
    home: AreaId,
    at_home: &Goods,
    style: Style,
    busy: &mut BTreeSet<TransporterId>,
    ends_home: &mut Vec<TransporterId>,
    movement: &mut Vec<String>,
) {
    if !style.art {
        return;
    }
    let mut lying: Vec<(Good, u32)> = at_home.iter().filter(|(g, _)| g.is_artwork()).collect();
    if lying.is_empty() {
        return;
    }
    let near = end_near(s);
    // Those at home with room: the ones holding art first, then (while fewer than all
    // but FREE hold it, or the end is near) the others.
    let mut more = if near { usize::MAX } else { new_keepers(s, me) };
    let mut free: Vec<(TransporterId, u32, u32)> = super::free_at_home(s, me, home, busy)
        .map(|(id, t)| {
            (
                *id,
                art_aboard(&t.cargo),
                t.kind.capacity().saturating_sub(t.cargo.total()),
            )
        })
        .filter(|(_, _, r)| *r > 0)
        .collect();
    free.sort_by_key(|(id, art, _)| (std::cmp::Reverse(*art), *id));
    for (id, art, r) in free {
        if lying.iter().all(|(_, n)| *n == 0) {
            break;
        }
        if art == 0 {
            if more == 0 {
                continue;
            }
            more -= 1;
        }
        let mut load = Goods::new();
        let mut can = r;
        for (g, n) in lying.iter_mut() {
            let k = (*n).min(can);
            if k > 0 {
                load.add(*g, k);
                *n -= k;
                can -= k;
            }
        }
        if load.is_empty() {
            continue;
        }
        busy.insert(id);
        ends_home.push(id);
        movement.push(format!("move {id}: load {}", super::written(&load)));
    }
}
