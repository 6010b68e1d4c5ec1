//! Development cards: bought for 1 wool, 1 grain, 1 ore from the deck; at most one
//! played per turn (before or after the roll), never in the turn it was bought.
//! Knight: move the robber and steal; the first with 3 knights played takes Largest Army
//! (2 points), lost only to a player with strictly more. Road Building: two free roads.
//! Year of Plenty: any two resources from the bank. Monopoly: every other player hands
//! over all their cards of one resource. Victory point cards are never played: they
//! count, hidden, and are shown when their holder wins.

use super::{Action, Log, Refusal};
use crate::cards::{Cards, DevCard, Resource};
use crate::events::{Event, Piece};
use crate::scenario;
use crate::state::{Phase, Resume, State};

impl State {
    pub(crate) fn check_buy(&self, seat: u8) -> Result<(), Refusal> {
        match self.phase {
            Phase::Main => {}
            Phase::SpecialBuild { seat: s } if s == seat => {}
            _ => return Err(Refusal::NotNow),
        }
        if self.deck.is_empty() {
            return Err(Refusal::DeckEmpty);
        }
        let have = self.players[seat as usize].hand;
        if !have.covers(&Cards::DEVELOPMENT) {
            return Err(Refusal::NeedCards {
                need: Cards::DEVELOPMENT,
                have,
            });
        }
        Ok(())
    }

    pub(crate) fn buy(&mut self, seat: u8, log: &mut impl Log) {
        let Some(card) = self.deck.pop() else {
            return;
        };
        let played_at_once = card == DevCard::VictoryPoint && scenario::vp_played_at_once(self);
        let p = &mut self.players[seat as usize];
        p.hand.take(&Cards::DEVELOPMENT);
        p.new_devs.0[card.index()] += 1;
        self.bank.add(&Cards::DEVELOPMENT);
        let c = p.colour;
        log.event(|| Event::Bought { player: c, card });
        if played_at_once {
            // Shown and counted at once; it is not the turn's one card played.
            p.new_devs.0[card.index()] -= 1;
            p.played.0[card.index()] += 1;
            log.event(|| Event::Played { player: c, card });
        }
    }

    fn resume_point(&self) -> Option<Resume> {
        match self.phase {
            Phase::BeforeRoll => Some(Resume::BeforeRoll),
            Phase::Main => Some(Resume::Main),
            _ => None,
        }
    }

    pub(crate) fn check_play(&self, card: DevCard) -> Result<(), Refusal> {
        if self.resume_point().is_none() {
            return Err(Refusal::NotNow);
        }
        if card == DevCard::VictoryPoint {
            return Err(Refusal::VictoryPointCardsAreNotPlayed);
        }
        if self.dev_played {
            return Err(Refusal::CardAlreadyPlayed);
        }
        let p = &self.players[self.active as usize];
        if p.devs.get(card) == 0 {
            return Err(if p.new_devs.get(card) > 0 {
                Refusal::CardBoughtThisTurn { card }
            } else {
                Refusal::NoSuchCard { card }
            });
        }
        Ok(())
    }

    pub(crate) fn check_year_of_plenty(&self, a: Resource, b: Resource) -> Result<(), Refusal> {
        let want = if a == b {
            Cards::one(a, 2)
        } else {
            let mut c = Cards::one(a, 1);
            c.add(&Cards::one(b, 1));
            c
        };
        for r in [a, b] {
            if self.bank.get(r) < want.get(r) {
                return Err(Refusal::BankShort { resource: r });
            }
        }
        Ok(())
    }

    pub(crate) fn legal_plays(&self, seat: u8, out: &mut Vec<Action>) {
        if self.dev_played {
            return;
        }
        let devs = self.players[seat as usize].devs;
        if devs.get(DevCard::Knight) > 0 {
            out.push(Action::PlayKnight);
        }
        if devs.get(DevCard::RoadBuilding) > 0 && scenario::free_pieces_left(self, seat) > 0 {
            out.push(Action::PlayRoadBuilding);
        }
        if devs.get(DevCard::Monopoly) > 0 {
            for r in Resource::ALL {
                out.push(Action::PlayMonopoly(r));
            }
        }
        if devs.get(DevCard::YearOfPlenty) > 0 {
            for (i, a) in Resource::ALL.into_iter().enumerate() {
                for b in Resource::ALL.into_iter().skip(i) {
                    if self.check_year_of_plenty(a, b).is_ok() {
                        out.push(Action::PlayYearOfPlenty(a, b));
                    }
                }
            }
        }
    }

    fn spend_card(&mut self, card: DevCard, log: &mut impl Log) {
        let p = &mut self.players[self.active as usize];
        p.devs.0[card.index()] -= 1;
        p.played.0[card.index()] += 1;
        self.dev_played = true;
        let c = p.colour;
        log.event(|| Event::Played { player: c, card });
    }

    pub(crate) fn play_knight(&mut self, log: &mut impl Log) {
        let Some(then) = self.resume_point() else {
            return;
        };
        self.spend_card(DevCard::Knight, log);
        let seat = self.active;
        let k = self.players[seat as usize].knights();
        let holder_k = self
            .largest_army
            .map_or(0, |h| self.players[h as usize].knights());
        if k >= 3 && self.largest_army != Some(seat) && k > holder_k {
            self.largest_army = Some(seat);
            let c = self.colour(seat);
            log.event(|| Event::LargestArmy {
                player: c,
                knights: k,
            });
        }
        self.phase = Phase::Robber { then };
    }

    pub(crate) fn play_road_building(&mut self, log: &mut impl Log) {
        let Some(then) = self.resume_point() else {
            return;
        };
        self.spend_card(DevCard::RoadBuilding, log);
        let left = scenario::free_pieces_left(self, self.active).min(2);
        self.phase = Phase::RoadBuilding { left, then };
    }

    pub(crate) fn after_free_road(&mut self) {
        if let Phase::RoadBuilding { left, then } = self.phase {
            if left <= 1 || scenario::free_pieces_left(self, self.active) == 0 {
                self.resume(then);
            } else {
                self.phase = Phase::RoadBuilding {
                    left: left - 1,
                    then,
                };
            }
        }
    }

    pub(crate) fn play_year_of_plenty(&mut self, a: Resource, b: Resource, log: &mut impl Log) {
        self.spend_card(DevCard::YearOfPlenty, log);
        let mut cards = Cards::one(a, 1);
        cards.add(&Cards::one(b, 1));
        self.bank.take(&cards);
        self.players[self.active as usize].hand.add(&cards);
        let c = self.colour(self.active);
        log.event(|| Event::YearOfPlenty { player: c, cards });
    }

    pub(crate) fn play_monopoly(&mut self, r: Resource, log: &mut impl Log) {
        self.spend_card(DevCard::Monopoly, log);
        let mut taken = 0u32;
        let active = self.active as usize;
        for s in 0..self.players.len() {
            if s != active {
                let k = self.players[s].hand.get(r);
                self.players[s].hand.0[r.index()] = 0;
                taken += u32::from(k);
            }
        }
        let p = &mut self.players[active];
        p.hand.0[r.index()] = p.hand.0[r.index()].saturating_add(taken as u8);
        let c = p.colour;
        log.event(|| Event::Monopoly {
            player: c,
            resource: r,
            taken,
        });
    }

    /// The piece kind a Road Building card makes, for messages.
    pub fn free_piece(&self) -> Piece {
        Piece::Road
    }
}
