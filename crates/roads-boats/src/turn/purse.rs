//! Paying for a building: the goods a builder may use, lying within reach of the
//! transporter that builds and aboard it, and another player's only as their owner
//! allows (rulebook, building; RULINGS R6).

use super::{Ctx, lying, reach, take_lying};
use crate::events::Fact;
use crate::goods::{Good, Goods};
use crate::map::{AreaId, Hex};
use crate::refusal::{Refusal, Shortage};
use crate::transporter::TransporterId;

/// The goods a builder may use: its own cargo, the goods lying on its side of `area`,
/// then the cargo of the player's other transporters there, then what other players
/// offer from their transporters there (RULINGS R6: others' transporters only if their
/// owner offers them).
pub(crate) struct Purse {
    carriers: Vec<TransporterId>,
    areas: Vec<AreaId>,
    /// Other players' transporters there that their owners offer the builder.
    offered: Vec<TransporterId>,
}

impl Purse {
    pub(crate) fn at(ctx: &Ctx, with: TransporterId, area: AreaId) -> Purse {
        Purse::over(ctx, with, &[area])
    }

    /// Goods on any of `areas` (with the rest of their side of the river), where the
    /// builder reaches more than one bank (a boat in the river).
    pub(crate) fn over(ctx: &Ctx, with: TransporterId, areas: &[AreaId]) -> Purse {
        let mut sides: Vec<AreaId> = Vec::new();
        for a in areas {
            for x in ctx.s.map.same_side(*a) {
                if !sides.contains(&x) {
                    sides.push(x);
                }
            }
        }
        let mut carriers = vec![with];
        let mut offered = Vec::new();
        if let Some(p) = ctx.player {
            for (id, t) in &ctx.s.transporters {
                if *id == with || !reach(&ctx.s, *id).iter().any(|x| sides.contains(x)) {
                    continue;
                }
                if t.owner == p {
                    carriers.push(*id);
                } else if ctx.consents.offered(p, *id, t.owner, &t.cargo).is_some() {
                    offered.push(*id);
                }
            }
        }
        Purse {
            carriers,
            areas: sides,
            offered,
        }
    }

    /// What another player offers the builder from `id` now.
    fn offer_of(ctx: &Ctx, id: TransporterId) -> Goods {
        match (ctx.player, ctx.s.transporters.get(&id)) {
            (Some(p), Some(t)) => ctx
                .consents
                .offered(p, id, t.owner, &t.cargo)
                .unwrap_or_default(),
            _ => Goods::new(),
        }
    }

    /// Only what is carried (an oil rig, or building from open sea).
    pub(crate) fn carried(ctx: &Ctx, with: TransporterId) -> Purse {
        let at = ctx.s.transporters.get(&with).map(|t| t.at);
        let mut carriers = vec![with];
        if let Some(p) = ctx.player {
            for (id, t) in ctx.s.transporters_of(p) {
                if *id != with && Some(t.at) == at {
                    carriers.push(*id);
                }
            }
        }
        Purse {
            carriers,
            areas: Vec::new(),
            offered: Vec::new(),
        }
    }

    pub(crate) fn holds(&self, ctx: &Ctx) -> Goods {
        let mut g = Goods::new();
        g.add_all(&lying(&ctx.s, &self.areas));
        for id in &self.carriers {
            if let Some(t) = ctx.s.transporters.get(id) {
                g.add_all(&t.cargo);
            }
        }
        for id in &self.offered {
            g.add_all(&Purse::offer_of(ctx, *id));
        }
        g
    }

    /// Pay `cost` in full, or nothing and say what is missing.
    pub(crate) fn pay(&self, ctx: &mut Ctx, cost: &Goods) -> Result<(), Refusal> {
        let have = self.holds(ctx);
        let missing: Vec<Shortage> = cost
            .iter()
            .filter(|(g, n)| have.count(*g) < *n)
            .map(|(good, needed)| Shortage {
                good,
                needed,
                there: have.count(good),
            })
            .collect();
        if !missing.is_empty() {
            return Err(Refusal::NotEnoughGoods { missing });
        }
        for (g, n) in cost.iter() {
            let mut left = n;
            // The builder's own cargo first, then the tile, then other transporters.
            if let Some(t) = ctx.s.transporters.get_mut(&self.carriers[0]) {
                left -= t.cargo.take(g, left);
            }
            left -= take_lying(&mut ctx.s, &self.areas, g, left);
            for id in &self.carriers[1..] {
                if let Some(t) = ctx.s.transporters.get_mut(id) {
                    left -= t.cargo.take(g, left);
                }
            }
            // Last, what others offer.
            for id in &self.offered {
                if left == 0 {
                    break;
                }
                let can = Purse::offer_of(ctx, *id).count(g).min(left);
                let (Some(p), Some(t)) = (ctx.player, ctx.s.transporters.get_mut(id)) else {
                    continue;
                };
                let k = t.cargo.take(g, can);
                let owner = t.owner;
                left -= k;
                if k > 0 {
                    let used: Goods = [(g, k)].into_iter().collect();
                    ctx.consents.use_offer(p, *id, owner, &used);
                    ctx.emit(Fact::OfferUsed {
                        transporter: *id,
                        owner,
                        goods: used,
                    });
                }
            }
        }
        Ok(())
    }
}

pub(crate) fn one(good: Good, n: u32) -> Goods {
    [(good, n)].into_iter().collect()
}

pub(crate) fn building_at(ctx: &Ctx, at: Hex, with: TransporterId) -> Result<usize, Refusal> {
    let reached = reach(&ctx.s, with);
    ctx.s
        .buildings
        .iter()
        .position(|b| b.at.hex == at && reached.contains(&b.at))
        .ok_or(Refusal::AtNoBuilding {
            with: with.named(),
            hex: at,
        })
}
