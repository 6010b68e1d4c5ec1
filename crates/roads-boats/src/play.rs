//! Playing a turn from the order files players sent: read each, keep the good lines,
//! resolve. Pure: the files' texts come in, the new state and events go out.

use std::collections::BTreeMap;

use super::check;
use super::orders::TurnOrders;
use super::player::Colour;
use super::resolve::{self, Resolution};
use super::state::State;
use judge_core::diagnostic::Diagnostic;

/// One player's order file as received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderFile {
    /// Whose orders these are (from the file's name or its `player` line).
    pub player: Colour,
    pub text: String,
}

/// The outcome of a turn, with what was wrong in each player's orders.
#[derive(Clone, Debug)]
#[must_use]
pub struct Played {
    pub resolution: Resolution,
    /// Problems per player; lines with problems were left out, the rest carried out.
    pub problems: BTreeMap<Colour, Vec<Diagnostic>>,
}

/// Read every order file and resolve the turn (RULINGS R1). A line that does not read
/// is left out and reported ([`check::read`]); the player's other orders still count.
/// `luck` is the game's secret seed (random mine draws).
pub fn play(state: &State, files: &[OrderFile], luck: &judge_core::luck::Luck) -> Played {
    let mut orders = TurnOrders::new();
    let mut problems = BTreeMap::new();
    for f in files {
        let (o, p) = check::read(state, &f.text);
        orders.insert(f.player, o);
        if !p.is_empty() {
            problems.insert(f.player, p);
        }
    }
    Played {
        resolution: resolve::resolve(state, &orders, luck),
        problems,
    }
}
