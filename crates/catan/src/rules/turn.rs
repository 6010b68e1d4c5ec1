//! The end of a turn, the special building phase of the 5–6 player extension (after
//! each turn every other player in turn, clockwise, may build and buy development cards,
//! but not trade or play cards), and the win: a player with 10 points (hidden victory
//! point cards included) during their own turn wins at once; points reached in someone
//! else's turn win at the start of one's own.

use super::Log;
use crate::cards::DevCards;
use crate::events::Event;
use crate::state::{Phase, State};

impl State {
    pub(crate) fn end_turn(&mut self, log: &mut impl Log) {
        match self.phase {
            Phase::Main | Phase::Scenario(_) => {
                let c = self.colour(self.active);
                log.event(|| Event::TurnEnded { player: c });
                if self.options.extension {
                    let seat = self.next_seat(self.active);
                    self.phase = Phase::SpecialBuild { seat };
                    let c = self.colour(seat);
                    log.event(|| Event::SpecialBuilding { player: c });
                } else {
                    self.next_turn(log);
                }
            }
            Phase::SpecialBuild { seat } => {
                let next = self.next_seat(seat);
                if next == self.active {
                    self.next_turn(log);
                } else {
                    self.phase = Phase::SpecialBuild { seat: next };
                    let c = self.colour(next);
                    log.event(|| Event::SpecialBuilding { player: c });
                }
            }
            _ => {}
        }
    }

    pub(crate) fn next_turn(&mut self, log: &mut impl Log) {
        self.active = self.next_seat(self.active);
        self.turn += 1;
        self.steals = 0;
        self.dice = None;
        self.dev_played = false;
        for p in &mut self.players {
            for i in 0..5 {
                p.devs.0[i] += p.new_devs.0[i];
            }
            p.new_devs = DevCards::default();
        }
        self.phase = Phase::BeforeRoll;
        let (c, turn) = (self.colour(self.active), self.turn);
        log.event(|| Event::TurnBegan { player: c, turn });
    }

    /// The GM ends the game (`judge end`): whoever has the most points wins, hidden
    /// victory point cards counted. *Reading:* base Catan has no rule for a game that
    /// stops before anyone reaches the target, so a tie goes to the player who comes
    /// first in turn order from the one who began the game; Catan Express has its own
    /// (RULINGS R9: the race winner, the starter, the closest after the starter).
    pub fn end_by_gm(&mut self, why: &str, log: &mut impl Log) {
        if self.phase == Phase::Over {
            return;
        }
        let why = why.to_string();
        log.event(|| Event::Ended { why });
        if self.scenario.is_some() {
            crate::scenario::end_by_gm(self, log);
            return;
        }
        let n = self.players.len() as u8;
        let first = self.first;
        let best = (0..n).map(|p| self.points(p)).max().unwrap_or(0);
        let winner = (0..n)
            .map(|k| (first + k) % n)
            .find(|&p| self.points(p) == best)
            .unwrap_or(first);
        self.winner = Some(winner);
        self.phase = Phase::Over;
        let (c, points, vp_cards) = (
            self.colour(winner),
            self.points(winner),
            self.players[winner as usize].vp_cards(),
        );
        log.event(|| Event::Won {
            player: c,
            points,
            vp_cards,
        });
    }

    pub(crate) fn check_win(&mut self, log: &mut impl Log) {
        match self.phase {
            Phase::Over | Phase::Founding { .. } | Phase::SpecialBuild { .. } => return,
            _ => {}
        }
        let points = self.points(self.active);
        if points >= self.options.points_to_win {
            self.winner = Some(self.active);
            self.phase = Phase::Over;
            let c = self.colour(self.active);
            let vp_cards = self.players[self.active as usize].vp_cards();
            log.event(|| Event::Won {
                player: c,
                points,
                vp_cards,
            });
        }
    }
}
