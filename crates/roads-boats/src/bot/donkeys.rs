//! Donkeys bred for the planner (RULINGS R4, reproduction: "exactly 2 donkeys of one
//! player, alone on an empty pasture" make a third each production; Quick Guide Ia: "For
//! livestock to reproduce, they cannot be carrying any goods").
//!
//! Each land transporter more carries two goods more a turn, or holds two wood carvings
//! more aboard where art is in play. So, in a style with [`super::Style::herd`], while
//! its fleet takes one more land transporter within the limits (at most 5 land, 8 in
//! all: RULINGS R4, [`crate::state::broken_limit`]):
//! - two empty donkeys at home go to a pasture next to home where nothing lies, nothing
//!   is built and no other transporter stands (not the geese's);
//! - the pair alone there breeds in the coming production (it is judged on the position
//!   the file is written from); the newborn cannot be ordered before it is born, so one
//!   of the pair goes home with this movement and the newborn stays with the other: a
//!   pair again, and a donkey a turn;
//! - once the fleet takes no more after the coming birth, both go home, and the last born follows the
//!   next turn (an empty transporter where nothing is made goes home: mod.rs).

use std::collections::BTreeSet;

use super::{area_of, breeding_pasture};
use crate::map::{AreaId, Hex};
use crate::player::Colour;
use crate::state::{State, broken_limit};
use crate::transporter::{Kind, Location, Transporter, TransporterId};

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

/// A pasture next to home where a pair may breed ([`breeding_pasture`], nothing lying
/// there) and not one of `kept` (the geese's, the targets).
fn free(s: &State, me: Colour, h: Hex, kept: &BTreeSet<Hex>) -> bool {
    !kept.contains(&h) && breeding_pasture(s, me, h, |_| false)
}

/// Whether `me`'s fleet takes `more` land transporters within the limits (RULINGS R4).
fn room_for(s: &State, me: Colour, more: usize) -> bool {
    let (land, water, air, all) = s.fleet(me);
    broken_limit((land + more, water, air, all + more)).is_none()
}

/// The herd's lines for `me` this turn, breeding while its fleet takes one more land
/// transporter; transporters in `busy` are left alone.
pub fn breed(
    s: &State,
    me: Colour,
    home: AreaId,
    busy: &BTreeSet<TransporterId>,
    kept: &BTreeSet<Hex>,
) -> Herd {
    let mut herd = Herd::default();
    if !room_for(s, me, 1) {
        return herd;
    }
    let mine: Vec<(&TransporterId, &Transporter)> = s.transporters_of(me).collect();
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
            // the other, unless the fleet takes no more after that birth.
            let leaving: Vec<TransporterId> = if !room_for(s, me, 2) {
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
    let (_, t) = s.transporters_of(me).find(|(k, _)| k.to_string() == id)?;
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
