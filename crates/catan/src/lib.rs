//! *The Settlers of Catan* by mail: the base game for 3–4 players and the 5–6 player
//! extension (docs/catan.md), played one player's turn at a time (docs/catan-orders.md).
//!
//! This folder is a game of its own: nothing here reaches into another game, and the
//! pipeline (archive, mail, CLI) calls only the small, pure API below.
//!
//! ```text
//! new_game(name, players, seed, &options)        -> Result<State, SetupError>
//! check_orders(&state, colour, file, text)       -> Checked   (diagnostics + echo)
//! play(&state, &files_by_colour)                 -> Outcome   (state, events, problems)
//! awaited(&state)                                -> Vec<Colour>
//! report(&before, &events, &after, viewer)       -> String    (plain text, 78 columns)
//! picture(&state) -> Picture;  picture(&state).to_svg() -> String
//! State::to_json / State::from_json                          (stable, exact round trip)
//! ```
//!
//! - A game starts at the founding; each [`play`] is one step: a founding placement, or
//!   one player's whole turn (roll, what the 7 brings, their orders, the end of the turn,
//!   and — with 5–6 players — the others' special building phases).
//! - Every file passed to [`play`] goes on record for its player, replacing the one
//!   before; [`awaited`] says whose orders the judge still needs (normally just the
//!   player whose turn it is; nobody if their orders are already on record). When the
//!   deadline passes, call [`play`] anyway: the documented defaults stand in.
//! - Same state and same files in, same bytes out: the dice come from the seeded stream
//!   kept in the state.
//!
//! **Catan Express** (docs/catan-express.md) is the same API with the variant set in the
//! options: `Options { variant: Variant::Express(Map::Island | Map::Beyond), .. }` (five
//! and six players also set `extension`), or the shortcut
//! `express::new_game(name, players, seed, map, layout)`, which does both. Everything
//! else — `check_orders`, `play`, `awaited`, `report`, `picture`, the state file (whose
//! `options.variant` says `{"express": "island"}`) — is the same calls. A pipeline
//! registering `catan-express` maps `judge new … --game catan-express` to
//! `express::new_game(…, Map::Island, Layout::Beginner)` (or `Map::Beyond` with a base
//! layout for "beyond the island").
//!
//! Inside: [`board`] (graph, layouts), [`rules`] (the engine: actions, checks, legal
//! moves — also used by [`selfplay`]), [`orders`] (the order language), [`events`],
//! [`report`](mod@report) (text and picture), [`cases`] (adjudication cases), [`scenario`] (hooks
//! for scenarios) and [`express`] (Catan Express, built on those hooks).

pub mod bits;
pub mod board;
pub mod bot;
pub mod cards;
pub mod cases;
pub mod colour;
pub mod events;
pub mod express;
pub mod game;
pub mod orders;
pub mod report;
pub mod rng;
pub mod rules;
pub mod scenario;
pub mod selfplay;
pub mod state;

use std::collections::BTreeMap;

pub use board::layout::Layout;
pub use colour::Colour;
pub use events::Event;
pub use judge_core::picture::Picture;
pub use orders::check::Checked;
pub use orders::resolve::Outcome;
pub use rules::SetupError;
pub use state::{Options, State};

/// A new game at its first founding placement. `players` are the names in seat order
/// (red, blue, white, orange, green, purple): 3–4, or 5–6 with `options.extension`.
pub fn new_game(
    name: &str,
    players: &[String],
    seed: u64,
    options: &Options,
) -> Result<State, SetupError> {
    State::new(name, players, seed, options)
}

/// Check an order file of `player` against the game as it stands: diagnostics with file,
/// line and column (never a panic), and each order in plain words.
pub fn check_orders(state: &State, player: Colour, file: &str, text: &str) -> Checked {
    orders::check::check(state, player, file, text)
}

/// Play the next step with these order files (any players'; each goes on record).
pub fn play(state: &State, files: &BTreeMap<Colour, String>) -> Outcome {
    orders::resolve::play(state, files)
}

/// These files put on record, nothing played: with [`awaited`], whether they let the
/// next step be played at once.
pub fn record(state: &State, files: &BTreeMap<Colour, String>) -> Outcome {
    orders::resolve::record(state, files)
}

/// Whose orders the judge waits for before it can play the next step (empty when the
/// game is over or the orders needed are on record).
pub fn awaited(state: &State) -> Vec<Colour> {
    orders::resolve::awaited(state)
}

/// The plain-text report of a step for one player (`None`: the public report, with no
/// hidden cards).
pub fn report(before: &State, events: &[Event], after: &State, viewer: Option<Colour>) -> String {
    report::text(before, events, after, viewer)
}

/// The board as a list of shapes (see [`Picture::to_svg`]).
pub fn picture(state: &State) -> Picture {
    report::picture::draw(state)
}

/// The board after a step, with what the step did marked: the pieces placed,
/// the robber's move, the locomotives' ways. Public, as the board is.
pub fn step_picture(before: &State, events: &[Event], after: &State) -> Picture {
    report::picture::draw_step(after, &report::picture::changes(before, events))
}
