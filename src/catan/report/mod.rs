//! The report of a step, for one player, in the house style: plain text, 78 columns.

pub mod ascii;
pub mod picture;

use super::events::Event;
use super::state::{Colour, State};

pub fn text(_before: &State, _events: &[Event], _after: &State, _viewer: Option<Colour>) -> String {
    String::new()
}
