//! The robber: after a 7 or a knight the active player moves it to another land hex
//! (the desert too) and steals one random card from a player with a settlement or city
//! on that hex who holds any cards. A hex under the robber produces nothing.

use super::{Action, Log, Refusal};
use crate::board::HexId;
use crate::cards::{Cards, Resource};
use crate::events::Event;
use crate::state::{NOBODY, Phase, State};

impl State {
    /// Seats (not the active player) with a building on `hex` and cards in hand, as a
    /// bit set by seat.
    pub fn robbable(&self, hex: HexId) -> u8 {
        let mut set = 0u8;
        for &v in &self.board.topology.hexes[hex].corners {
            let o = self.vertex_owner[v];
            if o != NOBODY && o != self.active && self.players[o as usize].hand.total() > 0 {
                set |= 1 << o;
            }
        }
        set
    }

    /// Seats with a building on `hex` other than the active player.
    pub fn neighbours_of_hex(&self, hex: HexId) -> u8 {
        let mut set = 0u8;
        for &v in &self.board.topology.hexes[hex].corners {
            let o = self.vertex_owner[v];
            if o != NOBODY && o != self.active {
                set |= 1 << o;
            }
        }
        set
    }

    pub(crate) fn check_robber(&self, hex: HexId, victim: Option<u8>) -> Result<(), Refusal> {
        let Phase::Robber { .. } = self.phase else {
            return Err(Refusal::NotNow);
        };
        if !self.board.terrain.get(hex).is_some_and(|t| t.is_land()) {
            return Err(Refusal::NotOnTheBoard);
        }
        if hex == self.robber {
            return Err(Refusal::RobberMustMove);
        }
        let can = self.robbable(hex);
        match victim {
            None if can != 0 => Err(Refusal::MustSteal),
            None => Ok(()),
            Some(v) if v as usize >= self.players.len() || v == self.active => {
                Err(Refusal::NotAPartner)
            }
            Some(v) if self.neighbours_of_hex(hex) & (1 << v) == 0 => Err(Refusal::NotNextToHex),
            Some(v) if can & (1 << v) == 0 => Err(Refusal::NoCardsToSteal),
            Some(_) => Ok(()),
        }
    }

    pub(crate) fn legal_robber(&self, out: &mut Vec<Action>) {
        for &hex in &self.board.land {
            if hex == self.robber {
                continue;
            }
            let can = self.robbable(hex);
            if can == 0 {
                out.push(Action::MoveRobber { hex, victim: None });
            } else {
                for v in 0..self.players.len() as u8 {
                    if can & (1 << v) != 0 {
                        out.push(Action::MoveRobber {
                            hex,
                            victim: Some(v),
                        });
                    }
                }
            }
        }
    }

    pub(crate) fn move_robber(&mut self, hex: HexId, victim: Option<u8>, log: &mut impl Log) {
        let Phase::Robber { then } = self.phase else {
            return;
        };
        self.robber = hex;
        let thief = self.colour(self.active);
        log.event(|| Event::RobberMoved { player: thief, hex });
        match victim {
            Some(v) => {
                let hand = self.players[v as usize].hand;
                let step = u64::from(self.turn) << 8 | u64::from(self.steals);
                self.steals = self.steals.wrapping_add(1);
                let mut k = self
                    .luck
                    .draws(crate::rng::STEALS, step)
                    .below(hand.total());
                let mut card = Resource::Wood;
                for r in Resource::ALL {
                    let n = u32::from(hand.get(r));
                    if k < n {
                        card = r;
                        break;
                    }
                    k -= n;
                }
                let one = Cards::one(card, 1);
                self.players[v as usize].hand.take(&one);
                self.players[self.active as usize].hand.add(&one);
                let victim = self.colour(v);
                log.event(|| Event::Stole {
                    thief,
                    victim,
                    card,
                });
            }
            None => log.event(|| Event::NothingToSteal { player: thief }),
        }
        self.resume(then);
    }
}
