//! *Catan Express* (the Settler's Book scenario, `shared/rules/catan-express.txt`) on the
//! base game: rail lines instead of roads, ferries, connection chips, and the race of
//! the locomotives to the water towers. docs/catan-express.md has every rule as the
//! judge plays it, with the reading chosen where the text is unclear and the sentence it
//! rests on; docs/catan-express-orders.md has the orders by mail.
//!
//! A game is a base Catan game whose options say `variant = express(MAP)`: the base
//! rules run it, asking the hooks in [`crate::scenario`] where Express differs,
//! and this folder holds what Express adds:
//!
//! ```text
//! new_game(name, players, seed, map, layout) -> Result<State, SetupError>
//!     (or catan::new_game with Options { variant: Variant::Express(map), .. })
//! ```
//!
//! then the base API as for any Catan game (`check_orders`, `play`, `awaited`, `report`,
//! `picture`, `State::to_json`/`from_json`).
//!
//! Inside: [`map`] (the island boards), [`rail`] (nodes and stretches), [`state`]
//! (railways and the race), [`building`] (lines, ferries, fees, chips), [`race`]
//! (stopovers, movement, the end), [`events`], [`orders`] (the order language's
//! Express part), [`report`] (the railway in reports and pictures), [`selfplay`].

pub mod bot;
pub mod building;
pub mod events;
pub mod map;
pub mod orders;
pub mod race;
pub mod rail;
pub mod report;
pub mod selfplay;
pub mod state;

use super::board::VertexId;
use super::board::layout::Layout;
use super::cards::Resource;
use super::colour::Colour;
use super::rules::{Action, Log, Refusal as BaseRefusal, SetupError};
use super::scenario::Variant;
use super::state::{NotPlaying, Options, Phase, Resume, State};

pub use events::{Event, Refusal};
pub use map::Map;
pub use rail::{Kind, Node, Rail, Stretch};
pub use state::{Express, Race, Railway, Stopover};

/// A new Catan Express game at its first founding placement: `players` in seat order
/// (3 to 6; five and six play the large island or board and its special building
/// phase), the map, and for "beyond the island" the base board's layout (beginner or
/// drawn from the seed).
pub fn new_game(
    name: &str,
    players: &[String],
    seed: u64,
    map: Map,
    layout: Layout,
) -> Result<State, SetupError> {
    State::new(name, players, seed, &options(players.len(), map, layout))
}

/// The options of an Express game for this many players.
pub fn options(players: usize, map: Map, layout: Layout) -> Options {
    Options {
        layout,
        extension: players > 4,
        variant: Variant::Express(map),
        ..Options::default()
    }
}

/// Steps of a turn that Express adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// The race has begun: `seat` picks a stopover (round 0, or 1 with three players);
    /// then the turn resumes where it was.
    Stopover { seat: u8, round: u8, then: Resume },
    /// The active player's locomotive is moving, with these points left.
    Moving { left: u8 },
}

impl Step {
    pub fn to_file(self, colour: &impl Fn(u8) -> Colour) -> state::StepFile {
        match self {
            Step::Stopover { seat, round, then } => state::StepFile::Stopover {
                seat: colour(seat),
                round,
                then,
            },
            Step::Moving { left } => state::StepFile::Moving { left },
        }
    }
}

impl state::StepFile {
    pub fn to_step(
        self,
        seat_of: &impl Fn(Colour) -> Result<u8, NotPlaying>,
    ) -> Result<Step, NotPlaying> {
        Ok(match self {
            state::StepFile::Stopover { seat, round, then } => Step::Stopover {
                seat: seat_of(seat)?,
                round,
                then,
            },
            state::StepFile::Moving { left } => Step::Moving { left },
        })
    }
}

/// What a player does in Catan Express beyond the base game's actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Act {
    /// The founding: the first rail line, from the second settlement just placed.
    FoundLine(Stretch),
    /// A rail line or ferry (the stretch says which), paid.
    Build(Stretch),
    /// A rail line or ferry from a Road Building card.
    Free(Stretch),
    /// Pick a stopover.
    Stopover(VertexId),
    /// One step of the locomotive along `stretch`, paying `fare` (to whom, what) on a
    /// rival's piece.
    Step {
        stretch: Stretch,
        fare: Option<(u8, Resource)>,
    },
}

pub(crate) fn check(s: &State, a: Act) -> Result<(), BaseRefusal> {
    if s.phase == Phase::Over {
        return Err(BaseRefusal::GameOver);
    }
    match a {
        Act::FoundLine(st) => check_found_line(s, st),
        Act::Build(st) => building::check(s, s.actor(), st, false),
        Act::Free(st) => building::check(s, s.active, st, true),
        Act::Stopover(v) => race::check_stopover(s, v),
        Act::Step { stretch, fare } => race::check_step(s, stretch, fare),
    }
}

pub(crate) fn execute(s: &mut State, a: Act, log: &mut impl Log) {
    match a {
        Act::FoundLine(st) => found_line(s, st, log),
        Act::Build(st) => building::build(s, s.actor(), st, false, log),
        Act::Free(st) => {
            building::build(s, s.active, st, true, log);
            if s.phase != Phase::Over {
                s.after_free_road();
            }
        }
        Act::Stopover(v) => race::choose(s, v, log),
        Act::Step { stretch, fare } => race::step(s, stretch, fare, log),
    }
}

pub(crate) fn legal(s: &State, out: &mut Vec<Action>) {
    match s.phase {
        Phase::Founding {
            settlement: Some(v),
            ..
        } => {
            if let Some(x) = s.scenario.as_deref() {
                for &st in &x.rail.at[v] {
                    if x.rail.kind(st) == Some(Kind::Line) {
                        out.push(Action::Scenario(Act::FoundLine(st)));
                    }
                }
            }
        }
        Phase::Main => {
            building::legal(s, s.active, false, out);
            race::legal_steps(s, out);
        }
        Phase::SpecialBuild { seat } => building::legal(s, seat, false, out),
        Phase::RoadBuilding { .. } => building::legal(s, s.active, true, out),
        Phase::Scenario(Step::Stopover { seat, .. }) => {
            for v in race::suitable(s, seat) {
                out.push(Action::Scenario(Act::Stopover(v)));
            }
        }
        Phase::Scenario(Step::Moving { .. }) => race::legal_steps(s, out),
        _ => {}
    }
}

// ---- The founding --------------------------------------------------------------------

/// The second founding settlement's first rail line: from that settlement to the centre
/// of one of its land hexes, free. The locomotive stands at that settlement.
fn check_found_line(s: &State, st: Stretch) -> Result<(), BaseRefusal> {
    let Phase::Founding {
        settlement: Some(v),
        ..
    } = s.phase
    else {
        return Err(BaseRefusal::NotNow);
    };
    let x = s.scenario.as_deref().ok_or(BaseRefusal::ScenarioRule)?;
    if x.rail.kind(st) != Some(Kind::Line) {
        return Err(BaseRefusal::Scenario(Refusal::NotAPlace {
            kind: Kind::Line,
        }));
    }
    if x.rail.ends[st as usize][0] as usize != v {
        return Err(BaseRefusal::Scenario(Refusal::NotAtNewSettlement));
    }
    Ok(())
}

fn found_line(s: &mut State, st: Stretch, log: &mut impl Log) {
    let Phase::Founding {
        index,
        settlement: Some(v),
    } = s.phase
    else {
        return;
    };
    let seat = s.actor();
    let c = s.colour(seat);
    log.event(|| {
        super::events::Event::Scenario(Event::Built {
            player: c,
            kind: Kind::Line,
            stretch: st,
            free: true,
            fee: Vec::new(),
        })
    });
    building::place(s, seat, st, log);
    if let Some(x) = s.scenario.as_deref_mut() {
        let p = &mut x.players[seat as usize];
        p.locomotive = Some(Rail::vertex_node(v));
        p.start = Some(v);
    }
    s.next_founding(index);
}
