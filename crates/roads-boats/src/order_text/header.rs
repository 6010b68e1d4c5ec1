//! The header of an order file: the lines that say which game, player and turn the
//! orders are for, and how they fit where the file arrived.

use std::ops::Range;

use crate::player::Colour;

/// The header lines of an order file, with where each was written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    pub game: Option<String>,
    pub player: Option<Colour>,
    pub turn: Option<u32>,
    pub secret: Option<String>,
    /// `standing` (the orders repeat until replaced) or `standing off`.
    pub standing: Option<bool>,
    pub player_at: Option<Range<usize>>,
    /// A `player` line was written, even if it did not read.
    pub player_written: bool,
    pub turn_at: Option<Range<usize>>,
    pub game_at: Option<Range<usize>>,
}

/// Something a file's header says that does not fit where the file arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderMismatch {
    /// `game` names another game.
    Game(String),
    /// `player` names another player than the one the file comes from.
    Player(Colour),
    /// `turn` names a turn already played.
    EarlierTurn(u32),
    /// `turn` names a turn after the next one.
    LaterTurn(u32),
}

impl Header {
    /// Compare the header with the game, the player the file comes from (if known) and
    /// the next turn: every mismatch, in that order. Lines left out match anything.
    pub fn mismatches(
        &self,
        game: Option<&str>,
        player: Option<Colour>,
        next: u32,
    ) -> Vec<HeaderMismatch> {
        let mut out = Vec::new();
        if let (Some(want), Some(got)) = (game, &self.game)
            && !got.eq_ignore_ascii_case(want)
        {
            out.push(HeaderMismatch::Game(got.clone()));
        }
        if let (Some(from), Some(said)) = (player, self.player)
            && from != said
        {
            out.push(HeaderMismatch::Player(said));
        }
        match self.turn {
            Some(t) if t < next => out.push(HeaderMismatch::EarlierTurn(t)),
            Some(t) if t > next => out.push(HeaderMismatch::LaterTurn(t)),
            _ => {}
        }
        out
    }
}
