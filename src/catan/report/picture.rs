//! The board as shapes.
use crate::catan::state::State;
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picture;
pub fn draw(_s: &State) -> Picture {
    Picture
}
