//! The seat colours: a player's name in the game, in seat order. A leaf, below the state
//! and the toolkits that name a player (`report/kit.rs`'s inks).

use std::fmt;

use serde::{Deserialize, Serialize};

/// Seat colours, in seat order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Red,
    Blue,
    White,
    Orange,
    Green,
    Purple,
}

impl Colour {
    pub const SEATS: [Colour; 6] = [
        Colour::Red,
        Colour::Blue,
        Colour::White,
        Colour::Orange,
        Colour::Green,
        Colour::Purple,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::White => "white",
            Colour::Orange => "orange",
            Colour::Green => "green",
            Colour::Purple => "purple",
        }
    }

    /// The letter the ASCII board uses (upper case for cities).
    pub fn initial(self) -> char {
        match self {
            Colour::Red => 'r',
            Colour::Blue => 'b',
            Colour::White => 'w',
            Colour::Orange => 'o',
            Colour::Green => 'g',
            Colour::Purple => 'p',
        }
    }

    pub fn parse(s: &str) -> Option<Colour> {
        let s = s.trim().to_ascii_lowercase();
        Colour::SEATS.into_iter().find(|c| c.name() == s)
    }

    pub fn seat(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
