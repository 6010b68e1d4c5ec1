//! Building: a road (1 wood, 1 brick) on a free edge touching one's own road, settlement
//! or city — not through a vertex where another player's building stands; a settlement
//! (1 wood, 1 brick, 1 wool, 1 grain) on a free vertex touching one's own road, with no
//! building on any neighbouring vertex (the distance rule); a city (2 grain, 3 ore) in
//! place of one's own settlement. Pieces are limited: 15 roads, 5 settlements, 4 cities
//! (a settlement upgraded to a city goes back to its owner's supply).

use super::{Action, Log, Refusal};
use crate::board::{EdgeId, VertexId};
use crate::cards::Cards;
use crate::events::{Event, Piece};
use crate::scenario;
use crate::state::{Phase, State};

impl State {
    pub fn roads_left(&self, seat: u8) -> u8 {
        super::ROADS.saturating_sub(self.players[seat as usize].roads.len() as u8)
    }

    pub fn settlements_left(&self, seat: u8) -> u8 {
        super::SETTLEMENTS.saturating_sub(self.players[seat as usize].settlements.len() as u8)
    }

    pub fn cities_left(&self, seat: u8) -> u8 {
        let p = &self.players[seat as usize];
        scenario::city_allowance(self, seat)
            .min(super::CITIES)
            .saturating_sub(p.cities.len() as u8)
    }

    pub(crate) fn can_build_now(&self, seat: u8) -> Result<(), Refusal> {
        match self.phase {
            Phase::Main => Ok(()),
            Phase::SpecialBuild { seat: s } if s == seat => Ok(()),
            _ => Err(Refusal::NotNow),
        }
    }

    pub(crate) fn pay(&self, seat: u8, cost: &Cards) -> Result<(), Refusal> {
        let have = self.players[seat as usize].hand;
        if have.covers(cost) {
            Ok(())
        } else {
            Err(Refusal::NeedCards { need: *cost, have })
        }
    }

    /// May a road of `seat` run along `e` (place only, not cost)?
    pub(crate) fn road_site(&self, seat: u8, e: EdgeId) -> Result<(), Refusal> {
        let t = &self.board.topology;
        if !t.land_edges.has(e) {
            return Err(Refusal::NotOnTheBoard);
        }
        if self.all_roads.has(e) {
            return Err(Refusal::Taken);
        }
        let p = &self.players[seat as usize];
        let touches = t.edges[e]
            .ends
            .iter()
            .any(|&v| p.buildings().has(v) || (p.road_ends.has(v) && !self.occupied.has(v)));
        if touches {
            Ok(())
        } else {
            Err(Refusal::NotConnected)
        }
    }

    pub(crate) fn check_road(&self, seat: u8, e: EdgeId, free: bool) -> Result<(), Refusal> {
        if !scenario::uses_roads(self) {
            return Err(Refusal::Scenario(scenario::Refusal::NoRoads));
        }
        if free {
            let Phase::RoadBuilding { .. } = self.phase else {
                return Err(Refusal::NotNow);
            };
        } else {
            self.can_build_now(seat)?;
        }
        self.road_place(seat, e)?;
        if !free {
            self.pay(seat, &Cards::ROAD)?;
        }
        Ok(())
    }

    /// May `seat` put a road on `e` as the board stands: roads in this game, a piece
    /// left, the place (`road_site`). Not when, not the cost: what a player's
    /// order file may count on for a later turn (and what its template lists).
    pub fn road_place(&self, seat: u8, e: EdgeId) -> Result<(), Refusal> {
        if !scenario::uses_roads(self) {
            return Err(Refusal::Scenario(scenario::Refusal::NoRoads));
        }
        if self.roads_left(seat) == 0 {
            return Err(Refusal::NoPiecesLeft { piece: Piece::Road });
        }
        self.road_site(seat, e)
    }

    /// Calls `f` for every edge where `seat` may put a road now (place only).
    pub(crate) fn for_each_road_site(&self, seat: u8, mut f: impl FnMut(EdgeId)) {
        if self.roads_left(seat) == 0 {
            return;
        }
        let t = &self.board.topology;
        let p = &self.players[seat as usize];
        let reach = p.buildings().or(p.road_ends.minus(self.occupied));
        let mut edges = crate::bits::Bits::EMPTY;
        for v in reach.iter() {
            edges = edges.or(t.vertex_edges[v]);
        }
        for e in edges.and(t.land_edges).minus(self.all_roads).iter() {
            f(e);
        }
    }

    pub(crate) fn check_settlement(&self, seat: u8, v: VertexId) -> Result<(), Refusal> {
        self.can_build_now(seat)?;
        self.settlement_place(seat, v)?;
        self.pay(seat, &Cards::SETTLEMENT)
    }

    /// May `seat` build a settlement at `v` as the board stands: a piece left, a free
    /// site keeping the distance rule (`check_site`), on the builder's road
    /// where the game asks it. Not when, not the cost (see `road_place`).
    pub fn settlement_place(&self, seat: u8, v: VertexId) -> Result<(), Refusal> {
        if self.settlements_left(seat) == 0 {
            return Err(Refusal::NoPiecesLeft {
                piece: Piece::Settlement,
            });
        }
        self.check_site(seat, v)?;
        if scenario::settlement_needs_road(self) && !self.players[seat as usize].road_ends.has(v) {
            return Err(Refusal::NotConnected);
        }
        Ok(())
    }

    pub(crate) fn check_city(&self, seat: u8, v: VertexId) -> Result<(), Refusal> {
        self.can_build_now(seat)?;
        self.city_place(seat, v)?;
        self.pay(seat, &Cards::CITY)
    }

    /// May `seat` make the settlement at `v` a city as the board stands: their
    /// settlement, the scenario's condition, a city allowed and left. Not when, not the
    /// cost (see `road_place`).
    pub fn city_place(&self, seat: u8, v: VertexId) -> Result<(), Refusal> {
        if !self.players[seat as usize].settlements.has(v) {
            return Err(Refusal::NotYourSettlement);
        }
        scenario::city_site(self, seat, v)?;
        if self.cities_left(seat) == 0 {
            return Err(
                if self.players[seat as usize].cities.len() as u8 >= super::CITIES {
                    Refusal::NoPiecesLeft { piece: Piece::City }
                } else {
                    Refusal::CityLimit
                },
            );
        }
        Ok(())
    }

    pub(crate) fn legal_builds(&self, seat: u8, out: &mut Vec<Action>) {
        let p = &self.players[seat as usize];
        let hand = p.hand;
        if hand.covers(&Cards::ROAD) && scenario::uses_roads(self) {
            self.for_each_road_site(seat, |e| out.push(Action::BuildRoad(e)));
        }
        if hand.covers(&Cards::SETTLEMENT) && self.settlements_left(seat) > 0 {
            let sites = scenario::settlement_candidates(self, seat);
            for v in sites.minus(self.blocked).iter() {
                if scenario::settlement_site(self, seat, v).is_ok() {
                    out.push(Action::BuildSettlement(v));
                }
            }
        }
        if hand.covers(&Cards::CITY) && self.cities_left(seat) > 0 {
            for v in p.settlements.iter() {
                if scenario::city_site(self, seat, v).is_ok() {
                    out.push(Action::BuildCity(v));
                }
            }
        }
        if hand.covers(&Cards::DEVELOPMENT) && !self.deck.is_empty() {
            out.push(Action::BuyDevelopment);
        }
    }

    /// Puts a settlement down (no cost, no checks).
    pub(crate) fn place_building(&mut self, seat: u8, v: VertexId) {
        let t = &self.board.topology;
        let p = &mut self.players[seat as usize];
        p.settlements.insert(v);
        if let Some(h) = self.board.vertex_harbour[v] {
            p.harbours |= h.bit();
        }
        self.vertex_owner[v] = seat;
        self.occupied.insert(v);
        self.blocked.insert(v);
        self.blocked = self.blocked.or(t.vertex_neighbours[v]);
    }

    pub(crate) fn place_road(&mut self, seat: u8, e: EdgeId) {
        let t = &self.board.topology;
        let p = &mut self.players[seat as usize];
        p.roads.insert(e);
        for v in t.edges[e].ends {
            p.road_ends.insert(v);
        }
        self.edge_owner[e] = seat;
        self.all_roads.insert(e);
    }

    pub(crate) fn build_road(&mut self, seat: u8, e: EdgeId, free: bool, log: &mut impl Log) {
        if !free {
            self.players[seat as usize].hand.take(&Cards::ROAD);
            self.bank.add(&Cards::ROAD);
        }
        self.place_road(seat, e);
        let c = self.colour(seat);
        log.event(|| Event::Built {
            player: c,
            piece: Piece::Road,
            at: e,
            free,
        });
        let p = &mut self.players[seat as usize];
        p.road_length = super::longest_road::length_of(&self.board.topology, p.roads, {
            let own = p.settlements.or(p.cities);
            self.occupied.minus(own)
        });
        self.update_longest_road(log);
    }

    pub(crate) fn build_settlement(&mut self, seat: u8, v: VertexId, log: &mut impl Log) {
        self.players[seat as usize].hand.take(&Cards::SETTLEMENT);
        self.bank.add(&Cards::SETTLEMENT);
        self.place_building(seat, v);
        let c = self.colour(seat);
        log.event(|| Event::Built {
            player: c,
            piece: Piece::Settlement,
            at: v,
            free: false,
        });
        // A settlement may break another player's road through this vertex.
        let mut broke = false;
        for s in 0..self.players.len() {
            if s as u8 != seat && self.players[s].road_ends.has(v) {
                self.players[s].road_length = super::longest_road::length(self, s as u8);
                broke = true;
            }
        }
        if broke {
            self.update_longest_road(log);
        }
    }

    pub(crate) fn build_city(&mut self, seat: u8, v: VertexId, log: &mut impl Log) {
        self.players[seat as usize].hand.take(&Cards::CITY);
        self.bank.add(&Cards::CITY);
        let p = &mut self.players[seat as usize];
        p.settlements.remove(v);
        p.cities.insert(v);
        let c = self.colour(seat);
        log.event(|| Event::Built {
            player: c,
            piece: Piece::City,
            at: v,
            free: false,
        });
    }
}
