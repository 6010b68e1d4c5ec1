//! Consent between players. Goods go onto another player's transporter only if its owner
//! is willing to accept them (rulebook, movement and production); another player's goods
//! are used for production or building only if their owner puts them at one's disposal
//! (rulebook, building; RULINGS R6); another player's transporter is carried only with
//! its owner's consent.
//!
//! A consent is a standing order for the phase it is written in. Every player's consents
//! for a phase are gathered before the phase resolves — all order files are in — so an
//! offer in a later player's orders serves an earlier player (RULINGS R1). Limits
//! (`accept 2 boards from red`) are used up as the goods pass.

use super::Ctx;
use crate::goods::Goods;
use crate::orders::Consent;
use crate::player::Colour;
use crate::refusal::Refusal;
use crate::transporter::TransporterId;

/// One player's consent, with what of its limit is used.
#[derive(Clone, Debug)]
struct Entry {
    author: Colour,
    consent: Consent,
    used: Goods,
}

impl Entry {
    /// What is left of a limited consent; `None` for no limit.
    fn left(&self, limit: &Option<Goods>) -> Option<Goods> {
        limit.as_ref().map(|l| {
            l.iter()
                .map(|(g, n)| (g, n.saturating_sub(self.used.count(g))))
                .filter(|(_, n)| *n > 0)
                .collect()
        })
    }
}

/// Every player's consents for the phase being resolved.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ledger {
    entries: Vec<Entry>,
}

impl Ledger {
    /// Gather the phase's consents, each with its author and line. A consent naming a
    /// transporter of another player fails at once (one consents only for one's own);
    /// one naming a transporter that does not exist yet is kept, as the author's
    /// production may make it.
    pub fn gather(ctx: &mut Ctx, items: Vec<(Colour, u32, Consent)>) -> Ledger {
        let mut entries = Vec::new();
        for (author, line, consent) in items {
            let named = match &consent {
                Consent::Accept { onto, .. } => *onto,
                Consent::Offer { transporter, .. } | Consent::Carry { transporter, .. } => {
                    Some(*transporter)
                }
            };
            if let Some(id) = named
                && let Some(t) = ctx.s.transporters.get(&id)
                && t.owner != author
            {
                let (player, l) = (ctx.player, ctx.line);
                ctx.player = Some(author);
                ctx.line = Some(line);
                ctx.fail(Refusal::ConsentForOthers {
                    id: id.named(),
                    owner: t.owner,
                });
                ctx.player = player;
                ctx.line = l;
                continue;
            }
            entries.push(Entry {
                author,
                consent,
                used: Goods::new(),
            });
        }
        Ledger { entries }
    }

    /// How much of `goods` the owner of `receiver` accepts from `giver` now; the amount
    /// is recorded against the consents that allow it.
    pub fn accept(
        &mut self,
        giver: Colour,
        receiver: TransporterId,
        owner: Colour,
        goods: &Goods,
    ) -> Goods {
        let mut accepted = Goods::new();
        for e in &mut self.entries {
            let Consent::Accept {
                from,
                goods: limit,
                onto,
            } = &e.consent
            else {
                continue;
            };
            if e.author != owner || !from.includes(giver) || onto.is_some_and(|o| o != receiver) {
                continue;
            }
            let left = e.left(limit);
            for (g, n) in goods.iter() {
                let want = n.saturating_sub(accepted.count(g));
                let k = left.as_ref().map_or(want, |l| want.min(l.count(g)));
                if k > 0 {
                    accepted.add(g, k);
                    e.used.add(g, k);
                }
            }
        }
        accepted
    }

    /// What of `cargo` the owner of `transporter` offers `user` now, or `None` if they
    /// offer nothing from it.
    pub fn offered(
        &self,
        user: Colour,
        transporter: TransporterId,
        owner: Colour,
        cargo: &Goods,
    ) -> Option<Goods> {
        let mut any = false;
        let mut total = Goods::new();
        for e in self.offers(user, transporter, owner) {
            any = true;
            let Consent::Offer { goods: limit, .. } = &e.consent else {
                continue;
            };
            match e.left(limit) {
                None => return Some(cargo.clone()),
                Some(l) => total.add_all(&l),
            }
        }
        any.then(|| {
            cargo
                .iter()
                .map(|(g, n)| (g, n.min(total.count(g))))
                .filter(|(_, n)| *n > 0)
                .collect()
        })
    }

    /// Is the whole transporter offered (`offer D3 to red`), so that it may be handed in
    /// itself (a donkey for a wagon)?
    pub fn whole_offered(&self, user: Colour, transporter: TransporterId, owner: Colour) -> bool {
        self.offers(user, transporter, owner)
            .any(|e| matches!(e.consent, Consent::Offer { goods: None, .. }))
    }

    /// Record that `user` used `goods` of an offered transporter.
    pub fn use_offer(
        &mut self,
        user: Colour,
        transporter: TransporterId,
        owner: Colour,
        goods: &Goods,
    ) {
        let mut left = goods.clone();
        for e in &mut self.entries {
            let Consent::Offer {
                transporter: t,
                goods: limit,
                to,
            } = &e.consent
            else {
                continue;
            };
            if e.author != owner || *t != transporter || !to.includes(user) {
                continue;
            }
            let room = e.left(limit);
            let here: Goods = left
                .iter()
                .map(|(g, n)| (g, room.as_ref().map_or(n, |r| n.min(r.count(g)))))
                .filter(|(_, n)| *n > 0)
                .collect();
            for (g, n) in here.iter() {
                e.used.add(g, n);
                left.take(g, n);
            }
        }
    }

    /// May `carrier_owner`'s transporters pick up `carried`, which `owner` owns?
    pub fn may_carry(&self, carrier_owner: Colour, carried: TransporterId, owner: Colour) -> bool {
        self.entries.iter().any(|e| {
            e.author == owner
                && matches!(e.consent, Consent::Carry { transporter, by }
                    if transporter == carried && by.includes(carrier_owner))
        })
    }

    fn offers(
        &self,
        user: Colour,
        transporter: TransporterId,
        owner: Colour,
    ) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(move |e| {
            e.author == owner
                && matches!(&e.consent, Consent::Offer { transporter: t, to, .. }
                    if *t == transporter && to.includes(user))
        })
    }
}

/// Everyone's consents in one phase's orders, with author and line.
pub(crate) fn of<'a, O: 'a>(
    orders: impl Iterator<Item = (Colour, &'a [crate::orders::Numbered<O>])>,
    consent: impl Fn(&O) -> Option<&Consent>,
) -> Vec<(Colour, u32, Consent)> {
    let mut out = Vec::new();
    for (c, list) in orders {
        for n in list {
            if let Some(x) = consent(&n.order) {
                out.push((c, n.line, x.clone()));
            }
        }
    }
    out
}
