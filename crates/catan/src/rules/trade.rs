//! Trade, only by the active player after the roll: with the bank at 4:1, or 3:1 with a
//! settlement or city on a 3:1 harbour, or 2:1 in a resource with that resource's
//! harbour; and with other players, any cards for any cards (not nothing, not the same
//! resource both ways). The bank pays only what it holds.

use super::{Action, Log, Refusal};
use crate::board::Harbour;
use crate::cards::{Cards, Resource};
use crate::events::Event;
use crate::state::{Phase, State};

impl State {
    /// How many of `r` the player gives the bank for one card.
    pub fn rate(&self, seat: u8, r: Resource) -> u8 {
        let h = self.players[seat as usize].harbours;
        if h & Harbour::for_resource(r).bit() != 0 {
            2
        } else if h & Harbour::Generic.bit() != 0 {
            3
        } else {
            4
        }
    }

    pub(crate) fn check_maritime(
        &self,
        seat: u8,
        give: Resource,
        get: Resource,
    ) -> Result<(), Refusal> {
        if self.phase != Phase::Main {
            return Err(Refusal::NotNow);
        }
        if give == get {
            return Err(Refusal::SameResource);
        }
        let rate = self.rate(seat, give);
        let have = self.players[seat as usize].hand;
        if have.get(give) < rate {
            return Err(Refusal::NeedCards {
                need: Cards::one(give, rate),
                have,
            });
        }
        if self.bank.get(get) == 0 {
            return Err(Refusal::BankShort { resource: get });
        }
        Ok(())
    }

    pub(crate) fn legal_maritime(&self, seat: u8, out: &mut Vec<Action>) {
        let hand = self.players[seat as usize].hand;
        for give in Resource::ALL {
            if hand.get(give) < 2 || hand.get(give) < self.rate(seat, give) {
                continue;
            }
            for get in Resource::ALL {
                if get != give && self.bank.get(get) > 0 {
                    out.push(Action::MaritimeTrade { give, get });
                }
            }
        }
    }

    pub(crate) fn maritime(&mut self, seat: u8, give: Resource, get: Resource, log: &mut impl Log) {
        let gave = Cards::one(give, self.rate(seat, give));
        let got = Cards::one(get, 1);
        let p = &mut self.players[seat as usize];
        p.hand.take(&gave);
        p.hand.add(&got);
        self.bank.add(&gave);
        self.bank.take(&got);
        let c = p.colour;
        log.event(|| Event::MaritimeTrade {
            player: c,
            gave,
            got,
        });
    }

    /// What a trade with another player asks of the offering player alone: the time,
    /// the cards named, and the offerer's own hand. An offer by mail is checked by this
    /// before anyone's standing acceptance is looked at, so that why it fails never
    /// hangs on what another player holds (docs/catan.md, "What each
    /// player sees").
    pub(crate) fn check_offer(&self, seat: u8, give: &Cards, get: &Cards) -> Result<(), Refusal> {
        if self.phase != Phase::Main {
            return Err(Refusal::NotNow);
        }
        if give.is_empty() || get.is_empty() {
            return Err(Refusal::EmptyTrade);
        }
        if (0..5).any(|i| give.0[i] > 0 && get.0[i] > 0) {
            return Err(Refusal::SameResource);
        }
        let have = self.players[seat as usize].hand;
        if !have.covers(give) {
            return Err(Refusal::NeedCards { need: *give, have });
        }
        Ok(())
    }

    pub(crate) fn check_domestic(
        &self,
        seat: u8,
        with: u8,
        give: &Cards,
        get: &Cards,
    ) -> Result<(), Refusal> {
        if self.phase != Phase::Main {
            return Err(Refusal::NotNow);
        }
        if with == seat || with as usize >= self.players.len() {
            return Err(Refusal::NotAPartner);
        }
        self.check_offer(seat, give, get)?;
        let theirs = self.players[with as usize].hand;
        if !theirs.covers(get) {
            return Err(Refusal::PartnerShort);
        }
        Ok(())
    }

    pub(crate) fn domestic(
        &mut self,
        seat: u8,
        with: u8,
        give: Cards,
        get: Cards,
        log: &mut impl Log,
    ) {
        self.players[seat as usize].hand.take(&give);
        self.players[seat as usize].hand.add(&get);
        self.players[with as usize].hand.take(&get);
        self.players[with as usize].hand.add(&give);
        let (c, w) = (self.colour(seat), self.colour(with));
        log.event(|| Event::DomesticTrade {
            player: c,
            with: w,
            gave: give,
            got: get,
        });
    }
}
