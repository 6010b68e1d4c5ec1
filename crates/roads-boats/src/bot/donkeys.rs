//! Donkeys bred for the planner (RULINGS R4, reproduction: "exactly 2 donkeys of one
//! player, alone on an empty pasture" make a third each production; Quick Guide Ia: "For
//! livestock to reproduce, they cannot be carrying any goods").
//!
//! Each land transporter more carries two goods more a turn, or holds two wood carvings
//! more aboard where art is in play. So, while it has fewer land transporters than
//! [`super::Style::herd`] (at most 5 land, 8 in all: RULINGS, limits):
//! - two empty donkeys at home go to a pasture next to home where nothing lies, nothing
//!   is built and no other transporter stands (not the geese's);
//! - the pair alone there breeds in the coming production (it is judged on the position
//!   the file is written from); the newborn cannot be ordered before it is born, so one
//!   of the pair goes home with this movement and the newborn stays with the other: a
//!   pair again, and a donkey a turn;
//! - once the next birth makes the number, both go home, and the last born follows the
//!   next turn (an empty transporter where nothing is made goes home: mod.rs).

use std::collections::BTreeSet;

use super::area_of;
use crate::map::{AreaId, Hex, Terrain};
use crate::player::Colour;
use crate::state::State;
use crate::transporter::{Class, Kind, Location, Transporter, TransporterId};

/// The most land transporters a player may have at the end of production (RULINGS R4).
pub const LAND_LIMIT: usize = 5;
/// The most transporters in all.
pub const ALL_LIMIT: usize = 8;

/// What breeding donkeys asks of a turn.
#[derive(Default)]
pub struct Herd {
    /// The breeding pasture: nothing else is built or sent there.
    pub pasture: Option<Hex>,
    /// The movement lines.
    pub movement: Vec<String>,
    /// The transporters these lines move, or keep where they are.
    pub busy: Vec<TransporterId>,
    /// Those that end the movement at home.
    pub ends_home: Vec<TransporterId>,
}

/// A pasture next to home where a pair may breed: one area, no building, nothing lying,
/// no transporter of another player; and not one of `kept` (the geese's, the targets).
fn free(s: &State, me: Colour, h: Hex, kept: &BTreeSet<Hex>) -> bool {
    s.map.terrain(h) == Some(Terrain::Pasture)
        && !kept.contains(&h)
        && s.map.areas(h).len() == 1
        && s.buildings_on(h).next().is_none()
        && s.map
            .areas(h)
            .iter()
            .all(|a| s.goods_at(*a).is_none_or(|g| g.is_empty()))
        && !s
            .transporters
            .iter()
            .any(|(id, t)| t.owner != me && s.tile_of(*id) == Some(h))
}

/// The herd's lines for `me` this turn, breeding up to `want` land transporters;
/// transporters in `busy` are left alone.
pub fn breed(
    s: &State,
    me: Colour,
    home: AreaId,
    want: usize,
    busy: &BTreeSet<TransporterId>,
    kept: &BTreeSet<Hex>,
) -> Herd {
    let mut herd = Herd::default();
    let want = want.min(LAND_LIMIT);
    let mine: Vec<(&TransporterId, &Transporter)> = s
        .transporters
        .iter()
        .filter(|(_, t)| t.owner == me)
        .collect();
    let land = mine
        .iter()
        .filter(|(_, t)| t.kind.class() == Class::Land)
        .count();
    if want == 0 || land >= want || mine.len() >= ALL_LIMIT {
        return herd;
    }
    let empty_donkey = |id: &TransporterId, t: &Transporter| {
        t.kind == Kind::Donkey && t.cargo.is_empty() && t.following_geese == 0 && !busy.contains(id)
    };
    // The pasture: where a pair of its own already stands, else the first free one (a
    // road from home first).
    let on = |h: Hex| -> Vec<TransporterId> {
        mine.iter()
            .filter(|(id, t)| s.tile_of(**id) == Some(h) && empty_donkey(id, t))
            .map(|(id, _)| **id)
            .collect()
    };
    let mut pastures: Vec<Hex> = s
        .map
        .neighbours(home.hex)
        .map(|(_, h)| h)
        .filter(|h| free(s, me, *h, kept))
        .collect();
    pastures.sort_by_key(|h| {
        (
            std::cmp::Reverse(on(*h).len().min(2)),
            !s.map.road_connected(home, area_of(s, *h), Some(me)),
            *h,
        )
    });
    let Some(hex) = pastures.first().copied() else {
        return herd;
    };
    let at = area_of(s, hex);
    let there = on(hex);
    let others_there = s
        .transporters
        .iter()
        .any(|(id, _)| s.tile_of(*id) == Some(hex) && !there.contains(id));
    if others_there {
        return herd;
    }
    herd.pasture = Some(hex);
    // Empty donkeys at home, free to join the pair.
    let mut at_home = mine
        .iter()
        .filter(|(id, t)| {
            matches!(t.at, Location::Land(a) if a.hex == home.hex) && empty_donkey(id, t)
        })
        .map(|(id, _)| **id);
    match there.as_slice() {
        [first, second] => {
            // A birth in the coming production: one goes home and the newborn stays with
            // the other, unless that birth makes the number.
            let leaving: Vec<TransporterId> = if land + 1 >= want {
                vec![*first, *second]
            } else {
                vec![*second]
            };
            for id in &there {
                herd.busy.push(*id);
                if leaving.contains(id) {
                    herd.movement.push(format!("move {id}: {home}"));
                    herd.ends_home.push(*id);
                }
            }
        }
        [one] => {
            // A second from home.
            herd.busy.push(*one);
            if let Some(id) = at_home.next() {
                herd.movement.push(format!("move {id}: {at}"));
                herd.busy.push(id);
            }
        }
        [] => {
            let pair: Vec<TransporterId> = at_home.take(2).collect();
            if pair.len() == 2 {
                for id in pair {
                    herd.movement.push(format!("move {id}: {at}"));
                    herd.busy.push(id);
                }
            } else {
                herd.pasture = None;
            }
        }
        _ => {
            // More than a pair (one came back): all but two go home.
            for id in &there[2..] {
                herd.movement.push(format!("move {id}: {home}"));
                herd.busy.push(*id);
                herd.ends_home.push(*id);
            }
            herd.busy.extend(there[..2].iter().copied());
        }
    }
    herd
}

/// What a move line does with the herd, in words for the player the bot stood in for
/// ([`super::summary`]): `sent D2 to C4 to breed donkeys`, for an empty donkey of `me`'s
/// at home sent to a free pasture next door; nothing for any other line.
pub fn said(s: &State, me: Colour, line: &str) -> Option<String> {
    let (head, steps) = line.split_once(": ")?;
    let id = head.strip_prefix("move ")?.trim();
    let home = s.players.get(&me)?.home?;
    let (_, t) = s
        .transporters
        .iter()
        .find(|(k, t)| k.to_string() == id && t.owner == me)?;
    let to = steps.trim();
    let hex = s
        .map
        .neighbours(home.hex)
        .map(|(_, h)| h)
        .find(|h| area_of(s, *h).to_string() == to)?;
    let at_home = matches!(t.at, Location::Land(a) if a.hex == home.hex);
    (t.kind == Kind::Donkey && t.cargo.is_empty() && at_home && free(s, me, hex, &BTreeSet::new()))
        .then(|| format!("sent {id} to {to} to breed donkeys"))
}
