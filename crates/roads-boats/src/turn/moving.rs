//! What the movement phase remembers between orders — which transporters have moved,
//! which goods each moved — and the rules of it that the modules' own ways of moving
//! (planes, trains) share with the phase: goods another transporter moved are not moved
//! again, geese follow, a boat at sea is where it is (RULINGS R5).

use std::collections::{BTreeMap, BTreeSet};

use super::{Ctx, Moved, reach, take_lying};
use crate::events::Fact;
use crate::goods::{Good, Goods};
use crate::map::AreaId;
use crate::refusal::{Blocked, Refusal};
use crate::state::State;
use crate::transporter::{Location, TransporterId};

/// What the phase remembers between orders.
#[derive(Default)]
pub(crate) struct Phase {
    /// Transporters that have had their move (or were carried, or took the train).
    pub(crate) moved: BTreeSet<TransporterId>,
    /// Transporters being carried when the phase began.
    pub(crate) carried_at_start: BTreeSet<TransporterId>,
    /// Goods lying where they were put down this phase after a transporter moved them:
    /// (area, its owner, the transporter that moved them).
    pub(crate) dropped: Moved,
    /// Every good that came into an area this phase, by anyone (a train fare must have
    /// been there when the phase began).
    pub(crate) arrived: BTreeMap<AreaId, Goods>,
    /// Goods aboard a transporter that one of its owner's transporters has moved this
    /// phase: (holder, good, mover) -> how many (RULINGS R5: no good is moved by two
    /// transporters of one player in a movement phase). Goods aboard not counted here
    /// have not been moved by the owner's transporters this phase.
    pub(crate) moved_by: BTreeMap<(TransporterId, Good, TransporterId), u32>,
    /// Goods handed to a transporter this phase (they cannot pay its train fare: the
    /// fare must be there when the phase begins).
    pub(crate) received: BTreeMap<TransporterId, Goods>,
}

impl Phase {
    /// Goods aboard `id` that another of its owner's transporters moved this phase:
    /// `id` may not move them on.
    pub(crate) fn blocked(&self, id: TransporterId) -> Vec<(Good, TransporterId, u32)> {
        self.moved_by
            .iter()
            .filter(|((h, _, m), n)| *h == id && *m != id && **n > 0)
            .map(|((_, g, m), n)| (*g, *m, *n))
            .collect()
    }

    /// After a step, everything aboard has been moved by `id`.
    pub(crate) fn mark_moved(&mut self, id: TransporterId, cargo: &Goods) {
        for (g, n) in cargo.iter() {
            self.moved_by.insert((id, g, id), n);
        }
    }

    /// `n` of `good` leave `id` (which held `held` of them before): say which movers'
    /// goods they were. The freest goods stay aboard: goods others moved go first, then
    /// goods `id` moved, then goods not moved this phase (`None`).
    pub(crate) fn take(
        &mut self,
        id: TransporterId,
        good: Good,
        n: u32,
        held: u32,
    ) -> Vec<(Option<TransporterId>, u32)> {
        let mut tagged: Vec<(TransporterId, u32)> = self
            .moved_by
            .iter()
            .filter(|((h, g, _), _)| *h == id && *g == good)
            .map(|((_, _, m), k)| (*m, *k))
            .collect();
        tagged.sort_by_key(|(m, _)| *m == id);
        let untagged = held.saturating_sub(tagged.iter().map(|(_, k)| k).sum());
        let mut left = n;
        let mut out = Vec::new();
        for (m, k) in tagged {
            let t = k.min(left);
            if t > 0 {
                left -= t;
                out.push((Some(m), t));
                if let Some(v) = self.moved_by.get_mut(&(id, good, m)) {
                    *v -= t;
                }
            }
        }
        if left > 0 {
            out.push((None, left.min(untagged)));
        }
        out
    }
}

/// Goods lying in `areas` that the current player's *other* transporters moved this phase
/// and put down: `id` may not move them again (RULINGS R5: no good is moved by two
/// transporters of the same player in one phase), though it may pick up what it moved
/// itself. Goods put down without having been moved are free.
pub(crate) fn excluded(ctx: &Ctx, ph: &Phase, areas: &[AreaId], id: TransporterId) -> Goods {
    let mut g = Goods::new();
    if let Some(p) = ctx.player {
        for ((a, who, by), d) in &ph.dropped {
            if *who == p && *by != id && areas.contains(a) {
                g.add_all(d);
            }
        }
    }
    g
}

/// Goods that came into `areas` this phase, by anyone.
pub(crate) fn arrived(ph: &Phase, areas: &[AreaId]) -> Goods {
    let mut g = Goods::new();
    for a in areas {
        if let Some(d) = ph.arrived.get(a) {
            g.add_all(d);
        }
    }
    g
}

pub(crate) fn sea_as_location(ctx: &Ctx, at: Location) -> Location {
    sea_place(&ctx.s, at)
}

/// A place named by a sea tile's name is that sea.
pub(crate) fn sea_place(s: &State, at: Location) -> Location {
    match at {
        Location::Land(a) if s.map.is_sea(a.hex) => Location::Sea(a.hex),
        other => other,
    }
}

/// Why a transporter may not move on: goods aboard that another of its owner's
/// transporters moved this phase.
pub(crate) fn blocked_reason(ph: &Phase, id: TransporterId) -> Option<Blocked> {
    let blocked = ph.blocked(id);
    if blocked.is_empty() {
        return None;
    }
    Some(Blocked {
        goods: blocked.into_iter().map(|(g, m, n)| (g, n, m)).collect(),
    })
}

/// Geese here follow the transporter: lying geese first, then geese following another
/// player's transporter here, which it takes over (RULINGS R5).
pub(crate) fn follow(ctx: &mut Ctx, id: TransporterId, n: u32) {
    let Some(at) = ctx.s.transporters.get(&id).map(|t| t.at) else {
        return;
    };
    let areas = reach(&ctx.s, id);
    let mut got = take_lying(&mut ctx.s, &areas, Good::Geese, n);
    let others: Vec<TransporterId> = ctx
        .s
        .transporters
        .iter()
        .filter(|(o, t)| **o != id && t.at == at && t.following_geese > 0)
        .map(|(o, _)| *o)
        .collect();
    for o in others {
        if got == n {
            break;
        }
        if let Some(t) = ctx.s.transporters.get_mut(&o) {
            let k = t.following_geese.min(n - got);
            t.following_geese -= k;
            got += k;
        }
    }
    if let Some(t) = ctx.s.transporters.get_mut(&id) {
        t.following_geese += got;
    }
    if got > 0 {
        ctx.emit(Fact::GeeseFollow {
            transporter: id,
            geese: got,
        });
    }
    if got < n {
        let refusal = Refusal::NoGeeseToFollow {
            got,
            n,
            id: id.named(),
        };
        if got == 0 {
            ctx.fail(refusal)
        } else {
            ctx.short(refusal)
        }
    }
}
