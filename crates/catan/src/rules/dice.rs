//! The roll: two dice from the game's stream. On any total but 7 each land hex with that
//! number (not under the robber) pays its resource: one card per settlement, two per
//! city, from the bank. If the bank cannot pay everyone owed a resource, nobody gets
//! it, unless only one player is owed it: that player takes what is left. On a 7 every
//! player holding more than 7 cards discards half of them (rounded down), then the
//! active player moves the robber.

use super::{Log, Refusal};
use crate::cards::{Cards, Resource};
use crate::events::Event;
use crate::state::{Phase, Resume, State};

impl State {
    pub(crate) fn roll(&mut self, log: &mut impl Log) {
        let dice = if self.loaded_dice.is_empty() {
            let mut d = self.luck.draws(crate::rng::ROLLS, u64::from(self.turn));
            [d.die(), d.die()]
        } else {
            self.loaded_dice.remove(0)
        };
        self.dice = Some(dice);
        let c = self.colour(self.active);
        log.event(|| Event::Rolled { player: c, dice });
        let total = dice[0] + dice[1];
        if total == 7 {
            self.seven(log);
        } else {
            self.produce(total, log);
            self.phase = Phase::Main;
        }
    }

    fn produce(&mut self, total: u8, log: &mut impl Log) {
        let n = self.players.len();
        let mut owed = [[0u8; 5]; 6];
        let board = &self.board;
        for &(h, r) in &board.producing[total as usize] {
            if h == self.robber {
                continue;
            }
            for &v in &board.topology.hexes[h].corners {
                let o = self.vertex_owner[v];
                if (o as usize) < n {
                    let k = if self.players[o as usize].cities.has(v) {
                        2
                    } else {
                        1
                    };
                    owed[o as usize][r.index()] += k;
                }
            }
        }
        for r in Resource::ALL {
            let i = r.index();
            let total: u32 = (0..n).map(|s| u32::from(owed[s][i])).sum();
            if total == 0 || total <= u32::from(self.bank.0[i]) {
                continue;
            }
            let takers: Vec<usize> = (0..n).filter(|&s| owed[s][i] > 0).collect();
            let mut paid = 0;
            if let [one] = takers[..] {
                owed[one][i] = self.bank.0[i];
                paid = u32::from(self.bank.0[i]);
            } else {
                for row in owed.iter_mut() {
                    row[i] = 0;
                }
            }
            log.event(|| Event::Shortage {
                resource: r,
                owed: total,
                paid,
            });
        }
        for s in self.from_seat(self.active) {
            let cards = Cards(owed[s as usize]);
            if cards.is_empty() {
                continue;
            }
            self.bank.take(&cards);
            self.players[s as usize].hand.add(&cards);
            let c = self.colour(s);
            log.event(|| Event::Produced { player: c, cards });
        }
    }

    fn seven(&mut self, log: &mut impl Log) {
        let mut owed = [0u8; 6];
        let mut any = false;
        for s in self.from_seat(self.active) {
            let held = self.players[s as usize].hand.total();
            if held > 7 {
                owed[s as usize] = (held / 2) as u8;
                any = true;
                let c = self.colour(s);
                let count = owed[s as usize];
                log.event(|| Event::MustDiscard { player: c, count });
            }
        }
        self.phase = if any {
            Phase::Discard { owed }
        } else {
            Phase::Robber { then: Resume::Main }
        };
    }

    pub(crate) fn check_discard(&self, seat: u8, r: Resource) -> Result<(), Refusal> {
        let Phase::Discard { owed } = self.phase else {
            return Err(Refusal::NotNow);
        };
        if owed[seat as usize] == 0 {
            return Err(Refusal::NothingOwed);
        }
        let have = self.players[seat as usize].hand;
        if have.get(r) == 0 {
            return Err(Refusal::NeedCards {
                need: Cards::one(r, 1),
                have,
            });
        }
        Ok(())
    }

    pub(crate) fn discard(&mut self, seat: u8, r: Resource, log: &mut impl Log) {
        let Phase::Discard { mut owed } = self.phase else {
            return;
        };
        let one = Cards::one(r, 1);
        self.players[seat as usize].hand.take(&one);
        self.bank.add(&one);
        owed[seat as usize] -= 1;
        let c = self.colour(seat);
        log.event(|| Event::Discarded {
            player: c,
            cards: one,
        });
        self.phase = if owed.iter().all(|&k| k == 0) {
            Phase::Robber { then: Resume::Main }
        } else {
            Phase::Discard { owed }
        };
    }
}
