//! The rules engine: a compact state, the actions a player can take, whether an action is
//! allowed now ([`State::check`], with a typed [`Refusal`]), what it does
//! ([`State::apply`]), and every action allowed now ([`State::legal_actions`], for
//! self-play). The order language of play by email compiles onto these same actions,
//! so there is one set of rules.
//!
//! One file per part of the rules: [`founding`], [`dice`] (roll, production, discards),
//! [`robber`], [`building`], [`development`], [`trade`], [`longest_road`], [`turn`]
//! (ending a turn, the special building phase, the win).

pub mod building;
pub mod development;
pub mod dice;
pub mod founding;
pub mod longest_road;
pub mod robber;
pub mod trade;
pub mod turn;

use serde::{Deserialize, Serialize};

use super::board::{EdgeId, HexId, VertexId};
use super::cards::{Cards, DevCard, Resource};
use super::colour::Colour;
use super::events::{Event, Piece};
use super::orders::Record;
use super::scenario;
use super::state::{Options, Phase, Player, State};
use judge_core::luck::{Luck, Rng};

pub const SETTLEMENTS: u8 = 5;
pub const CITIES: u8 = 4;
pub const ROADS: u8 = 15;

/// Where events go: a list for play by email, nowhere for self-play (the closure that
/// would make the event is then never called).
pub trait Log {
    fn event(&mut self, e: impl FnOnce() -> Event);
}

impl Log for Vec<Event> {
    #[inline]
    fn event(&mut self, e: impl FnOnce() -> Event) {
        self.push(e());
    }
}

impl Log for () {
    #[inline]
    fn event(&mut self, _: impl FnOnce() -> Event) {}
}

/// Something a player does. Places are board indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    FoundSettlement(VertexId),
    FoundRoad(EdgeId),
    Roll,
    /// One card, by a player who owes cards after a 7.
    Discard(Resource),
    /// Move the robber and steal from `victim` (a seat) if anyone there has cards.
    MoveRobber {
        hex: HexId,
        victim: Option<u8>,
    },
    BuildRoad(EdgeId),
    BuildSettlement(VertexId),
    BuildCity(VertexId),
    BuyDevelopment,
    PlayKnight,
    PlayRoadBuilding,
    PlayYearOfPlenty(Resource, Resource),
    PlayMonopoly(Resource),
    /// A road from a Road Building card.
    FreeRoad(EdgeId),
    /// Stop placing free roads.
    EndRoadBuilding,
    /// With the bank, at the player's best rate for `give` (4:1, 3:1 or 2:1).
    MaritimeTrade {
        give: Resource,
        get: Resource,
    },
    /// With another player (seat), who has agreed.
    DomesticTrade {
        with: u8,
        give: Cards,
        get: Cards,
    },
    /// End the turn (or one's special building phase).
    EndTurn,
    /// An action of the scenario's own (Catan Express: rail lines, ferries, stopovers,
    /// the locomotive).
    Scenario(super::scenario::Act),
}

/// Why an action is not allowed now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "refusal")]
pub enum Refusal {
    GameOver,
    NotYourTurn,
    /// Not at this step of the turn (before the roll, during founding, …).
    NotNow,
    NeedCards {
        need: Cards,
        have: Cards,
    },
    NoPiecesLeft {
        piece: Piece,
    },
    NotOnTheBoard,
    Taken,
    TooClose,
    NotConnected,
    NotYourSettlement,
    CityLimit,
    NotAtNewSettlement,
    DeckEmpty,
    BankShort {
        resource: Resource,
    },
    CardAlreadyPlayed,
    NoSuchCard {
        card: DevCard,
    },
    CardBoughtThisTurn {
        card: DevCard,
    },
    VictoryPointCardsAreNotPlayed,
    RobberMustMove,
    NotNextToHex,
    NoCardsToSteal,
    MustSteal,
    NothingOwed,
    RateIs {
        rate: u8,
        resource: Resource,
    },
    SameResource,
    EmptyTrade,
    NotAPartner,
    /// The other side of a trade cannot pay (what they hold is theirs to know).
    PartnerShort,
    NoTaker,
    /// Road Building names more than two pieces.
    RoadBuildingPieces,
    /// An order other than building or buying in the special building phase.
    OnlyBuildBetweenTurns,
    /// An order other than a development card before the roll.
    OnlyCardsBeforeRoll,
    ScenarioRule,
    /// The scenario's own reason.
    Scenario(super::scenario::Refusal),
}

impl Refusal {
    /// In plain words.
    pub fn text(&self, _s: &State) -> String {
        use Refusal::*;
        match self {
            GameOver => "the game is over".into(),
            NotYourTurn => "it is not your turn".into(),
            NotNow => "not possible at this point of the turn".into(),
            NeedCards { need, have } => {
                format!("needs {need}, but you have {have}")
            }
            NoPiecesLeft { piece } => format!("you have no {piece:?} pieces left").to_lowercase(),
            NotOnTheBoard => "that place is not on the island".into(),
            Taken => "that place is taken".into(),
            TooClose => "too close to another settlement or city (the distance rule)".into(),
            NotConnected => "not connected to your roads".into(),
            NotYourSettlement => "there is no settlement of yours there".into(),
            CityLimit => "you may have no more cities".into(),
            NotAtNewSettlement => "a founding road must touch the settlement just placed".into(),
            DeckEmpty => "no development cards are left".into(),
            BankShort { resource } => format!("the bank is short of {resource}"),
            CardAlreadyPlayed => "you have already played a development card this turn".into(),
            NoSuchCard { card } => format!("you hold no {card} card"),
            CardBoughtThisTurn { card } => {
                format!("your {card} card was bought this turn and may be played from your next")
            }
            VictoryPointCardsAreNotPlayed => {
                "victory point cards are not played; they count when you win".into()
            }
            RobberMustMove => "the robber must move to another hex".into(),
            NotNextToHex => "that player has no settlement or city on the hex".into(),
            NoCardsToSteal => "that player has no cards".into(),
            MustSteal => "someone there has cards: name whom to rob".into(),
            NothingOwed => "you owe no cards".into(),
            RateIs { rate, resource } => {
                format!("your rate for {resource} is {rate}:1")
            }
            SameResource => "a trade never gives a resource for itself".into(),
            EmptyTrade => "a trade must give and get something".into(),
            NotAPartner => "not a player you can trade with".into(),
            PartnerShort => "the other player cannot pay it".into(),
            NoTaker => "no other player's standing acceptance took it".into(),
            RoadBuildingPieces => "road building places one or two pieces, no more".into(),
            OnlyBuildBetweenTurns => {
                "in the special building phase one may only build and buy development cards".into()
            }
            OnlyCardsBeforeRoll => "before the roll only a development card may be played".into(),
            ScenarioRule => "the scenario's rules do not allow it".into(),
            Scenario(r) => r.text(_s),
        }
    }
}

/// Problems setting up a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("Catan is for 3 or 4 players, or 5 or 6 with the extension; {0} is not possible")]
    Players(usize),
    #[error("5 or 6 players need the 5–6 player extension")]
    NeedExtension,
    #[error("points to win must be 3 to 20, not {0}")]
    Points(u8),
}

impl State {
    /// A new game at the first founding placement, all of it from one number: the
    /// board from `seed`, and the hidden draws from [`Luck::predictable`]`(seed)` — for
    /// tests, self-play and showcases; a game by mail uses [`State::with_luck`].
    pub fn new(
        name: &str,
        names: &[String],
        seed: u64,
        options: &Options,
    ) -> Result<State, SetupError> {
        State::with_luck(name, names, seed, Luck::predictable(seed), options)
    }

    /// A new game at the first founding placement. `names` in seat order (red, blue,
    /// white, orange, green, purple). The board comes from the public `board_seed`; the
    /// development deck's order and the first player from the secret `luck` (docs/catan.md,
    /// "What each player sees").
    pub fn with_luck(
        name: &str,
        names: &[String],
        board_seed: u64,
        luck: Luck,
        options: &Options,
    ) -> Result<State, SetupError> {
        let n = names.len();
        let extension = options.extension;
        if !(3..=6).contains(&n) {
            return Err(SetupError::Players(n));
        }
        if n >= 5 && !extension {
            return Err(SetupError::NeedExtension);
        }
        if !(3..=20).contains(&options.points_to_win) {
            return Err(SetupError::Points(options.points_to_win));
        }
        let board = super::scenario::make_board(options, &mut Rng::new(board_seed));
        let per = if extension { 24 } else { 19 };
        let mut deck: Vec<DevCard> = DevCard::ALL
            .iter()
            .zip(DevCard::deck_counts(extension))
            .flat_map(|(&c, k)| std::iter::repeat_n(c, k as usize))
            .collect();
        luck.draws(super::rng::DECK, 0).shuffle(&mut deck);
        let first = luck.draws(super::rng::FIRST, 0).below(n as u32) as u8;
        let robber = board.desert().unwrap_or(0);
        let players = names
            .iter()
            .enumerate()
            .map(|(i, nm)| Player::new(Colour::SEATS[i], nm.clone()))
            .collect();
        let mut s = State {
            name: name.to_string(),
            options: options.clone(),
            board,
            players,
            first,
            active: first,
            phase: Phase::Founding {
                index: 0,
                settlement: None,
            },
            dice: None,
            dev_played: false,
            turn: 0,
            step: 0,
            bank: Cards([per; 5]),
            deck,
            robber,
            longest_road: None,
            largest_army: None,
            winner: None,
            luck,
            steals: 0,
            loaded_dice: Vec::new(),
            records: vec![Record::default(); n],
            vertex_owner: Vec::new(),
            edge_owner: Vec::new(),
            occupied: super::bits::Bits::EMPTY,
            blocked: super::bits::Bits::EMPTY,
            all_roads: super::bits::Bits::EMPTY,
            scenario: None,
        };
        super::scenario::setup(&mut s);
        s.rebuild_derived();
        Ok(s)
    }

    /// Is `a` allowed now, for the player whose move it is ([`State::actor`])?
    pub fn check(&self, a: Action) -> Result<(), Refusal> {
        if self.phase == Phase::Over {
            return Err(Refusal::GameOver);
        }
        let seat = self.actor();
        match a {
            Action::FoundSettlement(v) => self.check_found_settlement(v),
            Action::FoundRoad(e) => self.check_found_road(e),
            Action::Roll => match self.phase {
                Phase::BeforeRoll => Ok(()),
                _ => Err(Refusal::NotNow),
            },
            Action::Discard(r) => self.check_discard(seat, r),
            Action::MoveRobber { hex, victim } => self.check_robber(hex, victim),
            Action::BuildRoad(e) => self.check_road(seat, e, false),
            Action::FreeRoad(e) => self.check_road(seat, e, true),
            Action::EndRoadBuilding => match self.phase {
                Phase::RoadBuilding { .. } => Ok(()),
                _ => Err(Refusal::NotNow),
            },
            Action::BuildSettlement(v) => self.check_settlement(seat, v),
            Action::BuildCity(v) => self.check_city(seat, v),
            Action::BuyDevelopment => self.check_buy(seat),
            Action::PlayKnight => self.check_play(DevCard::Knight),
            Action::PlayRoadBuilding => self.check_play(DevCard::RoadBuilding).and_then(|()| {
                if scenario::free_pieces_left(self, seat) == 0 {
                    Err(Refusal::NoPiecesLeft { piece: Piece::Road })
                } else {
                    Ok(())
                }
            }),
            Action::PlayYearOfPlenty(a, b) => self
                .check_play(DevCard::YearOfPlenty)
                .and_then(|()| self.check_year_of_plenty(a, b)),
            Action::PlayMonopoly(_) => self.check_play(DevCard::Monopoly),
            Action::MaritimeTrade { give, get } => self.check_maritime(seat, give, get),
            Action::DomesticTrade { with, give, get } => {
                self.check_domestic(seat, with, &give, &get)
            }
            Action::EndTurn => match self.phase {
                Phase::Main | Phase::SpecialBuild { .. } => Ok(()),
                Phase::Scenario(step) if scenario::turn_may_end(step) => Ok(()),
                _ => Err(Refusal::NotNow),
            },
            Action::Scenario(a) => scenario::check(self, a),
        }
    }

    /// Carry out `a` if it is allowed now.
    pub fn apply(&mut self, a: Action, log: &mut impl Log) -> Result<(), Refusal> {
        self.check(a)?;
        self.execute(a, log);
        Ok(())
    }

    /// Carry out an action already checked (self-play takes it from
    /// [`State::legal_actions`]).
    pub fn execute(&mut self, a: Action, log: &mut impl Log) {
        debug_assert_eq!(self.check(a), Ok(()), "{a:?} in {:?}", self.phase);
        let seat = self.actor();
        match a {
            Action::FoundSettlement(v) => self.found_settlement(v, log),
            Action::FoundRoad(e) => self.found_road(e, log),
            Action::Roll => self.roll(log),
            Action::Discard(r) => self.discard(seat, r, log),
            Action::MoveRobber { hex, victim } => self.move_robber(hex, victim, log),
            Action::BuildRoad(e) => self.build_road(seat, e, false, log),
            Action::FreeRoad(e) => {
                self.build_road(seat, e, true, log);
                self.after_free_road();
            }
            Action::EndRoadBuilding => {
                if let Phase::RoadBuilding { then, .. } = self.phase {
                    self.resume(then);
                }
            }
            Action::BuildSettlement(v) => self.build_settlement(seat, v, log),
            Action::BuildCity(v) => self.build_city(seat, v, log),
            Action::BuyDevelopment => self.buy(seat, log),
            Action::PlayKnight => self.play_knight(log),
            Action::PlayRoadBuilding => self.play_road_building(log),
            Action::PlayYearOfPlenty(a, b) => self.play_year_of_plenty(a, b, log),
            Action::PlayMonopoly(r) => self.play_monopoly(r, log),
            Action::MaritimeTrade { give, get } => self.maritime(seat, give, get, log),
            Action::DomesticTrade { with, give, get } => self.domestic(seat, with, give, get, log),
            Action::EndTurn => self.end_turn(log),
            Action::Scenario(a) => scenario::execute(self, a, log),
        }
        self.after_action(log);
    }

    /// What follows any action: a scenario's own steps, then the win.
    pub(crate) fn after_action(&mut self, log: &mut impl Log) {
        scenario::after_action(self, log);
        if scenario::wins_at_points(self) {
            self.check_win(log);
        }
    }

    pub(crate) fn resume(&mut self, then: super::state::Resume) {
        self.phase = match then {
            super::state::Resume::BeforeRoll => Phase::BeforeRoll,
            super::state::Resume::Main => Phase::Main,
        };
    }

    /// Every action allowed now, into `out` (cleared first).
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        let seat = self.actor();
        match self.phase {
            Phase::Over => {}
            Phase::Founding { settlement, .. } => {
                self.legal_founding(settlement, out);
                if settlement.is_some() {
                    scenario::legal(self, out);
                }
            }
            Phase::BeforeRoll => {
                out.push(Action::Roll);
                self.legal_plays(seat, out);
            }
            Phase::Discard { .. } => {
                let hand = self.players[seat as usize].hand;
                for r in Resource::ALL {
                    if hand.get(r) > 0 {
                        out.push(Action::Discard(r));
                    }
                }
            }
            Phase::Robber { .. } => self.legal_robber(out),
            Phase::Main => {
                out.push(Action::EndTurn);
                self.legal_builds(seat, out);
                self.legal_plays(seat, out);
                self.legal_maritime(seat, out);
                scenario::legal(self, out);
            }
            Phase::RoadBuilding { .. } => {
                out.push(Action::EndRoadBuilding);
                if scenario::uses_roads(self) {
                    self.for_each_road_site(seat, |e| out.push(Action::FreeRoad(e)));
                }
                scenario::legal(self, out);
            }
            Phase::SpecialBuild { .. } => {
                out.push(Action::EndTurn);
                self.legal_builds(seat, out);
                scenario::legal(self, out);
            }
            Phase::Scenario(step) => {
                if scenario::turn_may_end(step) {
                    out.push(Action::EndTurn);
                }
                scenario::legal(self, out);
            }
        }
    }
}

#[cfg(test)]
mod tests;
