//! Orders by mail (docs/catan-orders.md): what a player writes, read into lines of
//! orders ([`parse`]), checked against the game ([`check`]), and carried out when the
//! judge plays a turn ([`resolve`]) by compiling each order onto the rules' actions.
//!
//! Each player has one order file **on record**: the latest received replaces the
//! previous one whole. Its standing parts (robber choices, discard preference, accepted
//! trades, special building orders) apply whenever needed; its turn part is played at
//! the player's next turn and then used up.

pub mod check;
pub mod kit;
pub mod parse;
pub mod resolve;
pub mod template;
pub mod text;

use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::board::{EdgeId, HexId, VertexId};
use super::cards::{Cards, Resource};
use super::colour::Colour;

/// A player's orders on record: the file as received and what of it is used up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The latest order file (empty: none yet).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// The play at which it was recorded.
    #[serde(default)]
    pub since: u32,
    /// Lines used up (founding placements, special building orders done, accepted
    /// trades), with how many times.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub used: BTreeMap<u32, u8>,
    /// The turn part has been played.
    #[serde(default)]
    pub turn_played: bool,
    /// The trades this file's standing acceptances took, as every report showed them:
    /// what the offering player gave and got. All that the others may know of the
    /// acceptances (the file's lines are its player's alone), and all that the judge's
    /// bots count of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub took: Vec<Took>,
}

/// A trade a standing acceptance took: what the offering player gave (the accepting
/// player got) and what it got in return.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Took {
    pub gave: Cards,
    pub got: Cards,
}

/// Where an order line belongs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Section {
    Founding,
    BeforeRoll,
    Turn,
    Between,
}

impl Section {
    pub fn name(self) -> &'static str {
        match self {
            Section::Founding => "founding",
            Section::BeforeRoll => "before the roll",
            Section::Turn => "turn",
            Section::Between => "between turns",
        }
    }
}

/// A robber choice: the hex, and whom to rob there, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RobberChoice {
    pub hex: HexId,
    pub rob: Vec<Colour>,
}

/// A standing acceptance of a domestic trade: "I take any offer that gives me at least
/// `get` and asks of me no more than `give`".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acceptance {
    pub get: Cards,
    pub give: Cards,
    pub times: u8,
    pub from: Option<Colour>,
}

/// A condition on a turn order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    /// The dice total is one of these.
    Rolled(Vec<u8>),
    NotRolled(Vec<u8>),
    /// The player holds at least these cards.
    Have(Cards),
}

/// One order a player can give in a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    Road(EdgeId),
    Settlement(VertexId),
    City(VertexId),
    Buy(u8),
    Knight(Option<RobberChoice>),
    RoadBuilding(Vec<EdgeId>),
    YearOfPlenty(Resource, Resource),
    Monopoly(Resource),
    /// With the bank: `give` cards of one resource for `get` of another.
    Trade {
        give: Resource,
        gives: u8,
        get: Resource,
        gets: u8,
    },
    /// To the other players' standing acceptances.
    Offer {
        give: Cards,
        get: Cards,
        to: Option<Colour>,
    },
    /// Stop here; the turn ends.
    End,
    /// An order that reads but can never be done here (a place no piece may go, a
    /// trade in the special building phase): played, it is refused with this reason,
    /// and the player's later orders still run (RULINGS R1).
    Refused(super::rules::Refusal),
    /// An order of the scenario's own (Catan Express: lines, ferries, the locomotive).
    Scenario(super::scenario::Order),
}

/// What a line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Founding {
        settlement: VertexId,
        road: Option<EdgeId>,
        /// Catan Express: the second settlement's first rail line (a stretch), or why
        /// the line written cannot be one.
        line: Option<Result<u16, super::rules::Refusal>>,
    },
    Robber(RobberChoice),
    Discard(Vec<(Resource, Option<u8>)>),
    Accept(Acceptance),
    /// A standing order of the scenario's own (Catan Express: stopovers, fares).
    Scenario(super::scenario::Standing),
    /// A turn order: conditions, then alternatives (the first that can be done is done).
    Turn {
        conds: Vec<Cond>,
        if_can: bool,
        alts: Vec<Order>,
    },
}

/// One line of orders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the file.
    pub line: u32,
    /// Byte range of the line in the file.
    pub span: Range<usize>,
    /// The line as written (cleaned).
    pub text: String,
    pub section: Section,
    pub kind: Kind,
}

/// The header of an order file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    pub game: Option<(String, Range<usize>)>,
    pub player: Option<(Colour, Range<usize>)>,
    pub turn: Option<(u32, Range<usize>)>,
}

/// An order file, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Orders {
    pub header: Header,
    pub lines: Vec<Line>,
}

impl Orders {
    /// Lines of one kind of section.
    pub fn section(&self, s: Section) -> impl Iterator<Item = &Line> {
        self.lines.iter().filter(move |l| l.section == s)
    }

    /// Does the file hold orders for the player's own turn (so the judge need not wait)?
    pub fn has_turn(&self) -> bool {
        self.lines.iter().any(|l| {
            matches!(l.kind, Kind::Turn { .. })
                && matches!(l.section, Section::Turn | Section::BeforeRoll)
        })
    }

    pub fn robber(&self) -> impl Iterator<Item = &RobberChoice> {
        self.lines.iter().filter_map(|l| match &l.kind {
            Kind::Robber(r) => Some(r),
            _ => None,
        })
    }

    pub fn discard(&self) -> Vec<(Resource, Option<u8>)> {
        self.lines
            .iter()
            .filter_map(|l| match &l.kind {
                Kind::Discard(d) => Some(d.iter().copied()),
                _ => None,
            })
            .flatten()
            .collect()
    }
}
