//! Scenarios: a map, the players' starting places and goods, the rules in play, and
//! optionally any position at all, written by hand in TOML (`docs/scenarios.md`).
//!
//! A scenario is checked when it is read; every problem is reported at once, with the
//! file, line and offending text.

mod build;
pub mod generate;
pub(crate) mod raw;

pub use generate::generate;

use std::collections::BTreeMap;
use std::ops::Range;

use judge_core::diagnostic::{Diagnostic, Diagnostics};

use super::map::AreaId;
use super::player::Colour;
use super::rng::ORDER;
use super::setup::{ChooseHomes, Setup, StartKit};
use super::state::State;
use judge_core::luck::{Luck, Rng};

/// A checked scenario, ready to start games from.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub title: String,
    pub description: String,
    pub players: usize,
    /// The position at set-up, players named after their colours.
    setup: State,
    /// Whether the scenario fixes the move order (else it is drawn at the start).
    fixed_move_order: bool,
    /// Whether players choose their homes in a set-up round, where, and the homes the
    /// scenario lists for it (marked tiles or suggestions).
    choose: Option<(ChooseHomes, Vec<AreaId>)>,
    /// What each player starts with at home.
    pub(crate) kit: StartKit,
    /// What the modules read from `[start]` for the start of a game (their hook
    /// `read_start`), and start it with (`start_refused`, `start_by_default`).
    pub(crate) modules: super::modules::Start,
}

/// A person taking a seat at `judge new`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub name: String,
    pub email: String,
}

/// Why a game could not be started from a valid scenario.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("scenario `{scenario}` is for {wanted} player{}, but {given} {} given", plural(*wanted), if *given == 1 { "was" } else { "were" })]
    WrongPlayerCount {
        scenario: String,
        wanted: usize,
        given: usize,
    },
    #[error(
        "in scenario `{scenario}` the players choose their homes: the game starts with a set-up round (Scenario::start_setup), not at turn 0"
    )]
    HomesToChoose { scenario: String },
    #[error("scenario `{scenario}` has fixed homes: there is no set-up round to play")]
    HomesFixed { scenario: String },
    #[error(
        "scenario `{scenario}` plays jumpstart: the game starts with an auction of the lots (Scenario::start_auction), not at turn 0"
    )]
    Auction { scenario: String },
    #[error("scenario `{scenario}` has no jumpstart lots: there is no auction to play")]
    NoAuction { scenario: String },
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl Scenario {
    /// Read and check a scenario. `file` names it in messages.
    pub fn parse(file: &str, text: &str) -> Result<Scenario, Diagnostics> {
        let fail = |items: Vec<Diagnostic>| Diagnostics {
            file: file.to_string(),
            source: text.to_string(),
            items,
        };
        let raw: raw::RawScenario = toml::from_str(text).map_err(|e| {
            fail(vec![
                Diagnostic::new(toml_message(&e)).at_opt(e.span().map(|s| widen(s, text))),
            ])
        })?;
        build::build(raw, text).map_err(fail)
    }

    /// Check a scenario already read from TOML (a case's prestate); spans refer to `text`.
    pub(crate) fn from_raw(raw: raw::RawScenario, text: &str) -> Result<Scenario, Vec<Diagnostic>> {
        build::build(raw, text)
    }

    /// The set-up position, before seats are filled and the move order drawn.
    pub fn setup(&self) -> &State {
        &self.setup
    }

    /// Do the players choose their homes in a set-up round (`[start] choose`)?
    pub fn homes_are_chosen(&self) -> bool {
        self.choose.is_some()
    }

    /// Start a game: seat the players (in seat order: red, yellow, green, …) and draw the
    /// move order from the game's secret `luck` unless the scenario fixes it (RULINGS R2).
    /// A scenario whose players choose their homes starts with [`Scenario::start_setup`]
    /// instead.
    pub fn start(&self, seats: &[Seat], luck: &Luck) -> Result<State, StartError> {
        if let Some(e) = super::modules::start_refused(self) {
            return Err(e);
        }
        if self.choose.is_some() {
            return Err(StartError::HomesToChoose {
                scenario: self.name.clone(),
            });
        }
        Ok(self.seat(seats, luck)?.0)
    }

    /// Start a game whose players choose their homes: seats filled and the move order
    /// drawn as in [`Scenario::start`]; the move order is the starting sequence in which
    /// they choose (rulebook, setting up). Play the round with [`Setup::choose`]; its
    /// last step gives the turn-0 state.
    pub fn start_setup(&self, seats: &[Seat], luck: &Luck) -> Result<Setup, StartError> {
        let Some((choose, listed)) = self.choose.clone() else {
            return Err(StartError::HomesFixed {
                scenario: self.name.clone(),
            });
        };
        Ok(Setup {
            state: self.seat(seats, luck)?.0,
            choose,
            listed,
            kit: self.kit.clone(),
            chosen: Vec::new(),
        })
    }

    /// The turn-0 state of any scenario: a set-up round (homes chosen, or the jumpstart
    /// auction) is played as for players who let every deadline pass, each taking the
    /// round's default (the default home; the default bid). Self-play and the tests
    /// reach the positions of every bundled scenario this way.
    pub fn start_by_default(&self, seats: &[Seat], luck: &Luck) -> Result<State, StartError> {
        if let Some(started) = super::modules::start_by_default(self, seats, luck) {
            return started;
        }
        if self.homes_are_chosen() {
            let mut setup = self.start_setup(seats, luck)?;
            for _ in 0..1000 {
                let Some(next) = setup.next() else { break };
                let step = setup.choose(next, None);
                if let Some(state) = step.state {
                    return Ok(state);
                }
                setup = step.setup;
            }
            return setup.finish().ok_or(StartError::HomesToChoose {
                scenario: self.name.clone(),
            });
        }
        self.start(seats, luck)
    }

    /// The seated state, and the stream of the start's draws (the move order's, then the
    /// auction's starting bidder): [`ORDER`] at step 0.
    pub(crate) fn seat(&self, seats: &[Seat], luck: &Luck) -> Result<(State, Rng), StartError> {
        if seats.len() != self.players {
            return Err(StartError::WrongPlayerCount {
                scenario: self.name.clone(),
                wanted: self.players,
                given: seats.len(),
            });
        }
        let mut state = self.setup.clone();
        for (colour, seat) in Colour::SEATS.iter().zip(seats) {
            if let Some(p) = state.players.get_mut(colour) {
                p.name = seat.name.clone();
                p.email = seat.email.clone();
            }
        }
        let mut draws = luck.draws(ORDER, 0);
        if !self.fixed_move_order {
            let mut order: Vec<Colour> = state.players.keys().copied().collect();
            draws.shuffle(&mut order);
            state.move_order = order;
        }
        Ok((state, draws))
    }
}

/// The scenarios that come with the judge, by name.
pub fn bundled() -> BTreeMap<&'static str, &'static str> {
    BTreeMap::from([
        ("solo", include_str!("../../../../scenarios/solo.toml")),
        (
            "two-rivers",
            include_str!("../../../../scenarios/two-rivers.toml"),
        ),
        (
            "three-valleys",
            include_str!("../../../../scenarios/three-valleys.toml"),
        ),
        (
            "four-shores",
            include_str!("../../../../scenarios/four-shores.toml"),
        ),
        (
            "six-isles",
            include_str!("../../../../scenarios/six-isles.toml"),
        ),
        (
            "five-ports",
            include_str!("../../../../scenarios/five-ports.toml"),
        ),
        (
            "polder-cities",
            include_str!("../../../../scenarios/polder-cities.toml"),
        ),
        (
            "power-valley",
            include_str!("../../../../scenarios/power-valley.toml"),
        ),
        (
            "jumpstart-duel",
            include_str!("../../../../scenarios/jumpstart-duel.toml"),
        ),
    ])
}

/// toml's message without its own rendering of the source, which we do ourselves.
pub(crate) fn toml_message(e: &toml::de::Error) -> String {
    let m = e.message().trim();
    let mut m = m.to_string();
    if let Some(first) = m.get(..1) {
        m.replace_range(..1, &first.to_lowercase());
    }
    m
}

/// An empty span (toml gives them at the end of input) is widened to one character so the
/// caret shows.
pub(crate) fn widen(span: Range<usize>, text: &str) -> Range<usize> {
    if span.is_empty() {
        let start = span.start.min(text.len().saturating_sub(1));
        start..(start + 1).min(text.len())
    } else {
        span
    }
}

#[cfg(test)]
mod tests;
