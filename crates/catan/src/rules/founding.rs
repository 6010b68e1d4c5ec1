//! The founding: in snake order (first to last, then last to first) each player places
//! a settlement and a road touching it; the second settlement yields one card for each
//! land hex around it.

use super::{Action, Log, Refusal};
use crate::board::{EdgeId, VertexId};
use crate::cards::Cards;
use crate::events::{Event, Piece};
use crate::scenario;
use crate::state::{Phase, State};

impl State {
    pub(crate) fn check_found_settlement(&self, v: VertexId) -> Result<(), Refusal> {
        let Phase::Founding {
            settlement: None, ..
        } = self.phase
        else {
            return Err(Refusal::NotNow);
        };
        self.check_site(self.actor(), v)
    }

    /// A free land vertex that keeps the distance rule.
    pub(crate) fn check_site(&self, seat: u8, v: VertexId) -> Result<(), Refusal> {
        if !self.board.topology.land_vertices.has(v) {
            return Err(Refusal::NotOnTheBoard);
        }
        if self.occupied.has(v) {
            return Err(Refusal::Taken);
        }
        if self.blocked.has(v) {
            return Err(Refusal::TooClose);
        }
        scenario::settlement_site(self, seat, v)
    }

    pub(crate) fn check_found_road(&self, e: EdgeId) -> Result<(), Refusal> {
        let Phase::Founding {
            settlement: Some(v),
            ..
        } = self.phase
        else {
            return Err(Refusal::NotNow);
        };
        if !scenario::uses_roads(self) {
            return Err(Refusal::Scenario(scenario::Refusal::NoRoads));
        }
        let t = &self.board.topology;
        if !t.land_edges.has(e) {
            return Err(Refusal::NotOnTheBoard);
        }
        if self.all_roads.has(e) {
            return Err(Refusal::Taken);
        }
        if !t.edges[e].ends.contains(&v) {
            return Err(Refusal::NotAtNewSettlement);
        }
        Ok(())
    }

    pub(crate) fn legal_founding(&self, settlement: Option<VertexId>, out: &mut Vec<Action>) {
        let t = &self.board.topology;
        match settlement {
            None => {
                let seat = self.actor();
                for v in t.land_vertices.minus(self.blocked).iter() {
                    if scenario::settlement_site(self, seat, v).is_ok() {
                        out.push(Action::FoundSettlement(v));
                    }
                }
            }
            Some(_) if !scenario::uses_roads(self) => {}
            Some(v) => {
                for e in t.vertex_edges[v]
                    .and(t.land_edges)
                    .minus(self.all_roads)
                    .iter()
                {
                    out.push(Action::FoundRoad(e));
                }
            }
        }
    }

    pub(crate) fn found_settlement(&mut self, v: VertexId, log: &mut impl Log) {
        let Phase::Founding { index, .. } = self.phase else {
            return;
        };
        let seat = self.actor();
        self.place_building(seat, v);
        for s in 0..self.players.len() {
            if s as u8 != seat && self.players[s].road_ends.has(v) {
                self.players[s].road_length = super::longest_road::length(self, s as u8);
            }
        }
        let c = self.colour(seat);
        log.event(|| Event::Founded {
            player: c,
            vertex: v,
        });
        if index >= self.players.len() as u8 {
            let mut cards = Cards::NONE;
            for &(h, _) in &self.board.topology.vertices[v].hexes {
                if let Some(r) = self.board.terrain[h].resource()
                    && self.bank.get(r) > cards.get(r)
                {
                    cards.0[r.index()] += 1;
                }
            }
            self.bank.take(&cards);
            self.players[seat as usize].hand.add(&cards);
            log.event(|| Event::FoundingYield { player: c, cards });
        }
        if scenario::founding_road(self, index) {
            self.phase = Phase::Founding {
                index,
                settlement: Some(v),
            };
        } else {
            self.next_founding(index);
        }
    }

    pub(crate) fn found_road(&mut self, e: EdgeId, log: &mut impl Log) {
        let Phase::Founding { index, .. } = self.phase else {
            return;
        };
        let seat = self.actor();
        self.place_road(seat, e);
        self.players[seat as usize].road_length = super::longest_road::length(self, seat);
        let c = self.colour(seat);
        log.event(|| Event::Built {
            player: c,
            piece: Piece::Road,
            at: e,
            free: true,
        });
        self.update_longest_road(log);
        self.next_founding(index);
    }

    pub(crate) fn next_founding(&mut self, index: u8) {
        let next = index + 1;
        if next >= 2 * self.players.len() as u8 {
            self.active = self.first;
            self.turn = 1;
            self.phase = Phase::BeforeRoll;
        } else {
            self.phase = Phase::Founding {
                index: next,
                settlement: None,
            };
            self.active = self.founding_seat(next);
        }
    }
}
