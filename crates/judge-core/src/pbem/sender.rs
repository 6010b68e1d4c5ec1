//! Who sent a mail of commands, and what its commands need to know (named by the commands,
//! sign-up and the intake alike, apart from the commands'
//! actions).

use std::collections::BTreeSet;
use std::time::SystemTime;

use super::game::{Game, Position};
use crate::archive::{Archive, GmEntry, PlayerEntry};

/// Who sent the commands, as the game knows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who<'a> {
    Player(&'a PlayerEntry),
    Gm(&'a GmEntry),
    /// An address the game does not know: only `join` is answered.
    Stranger(&'a str),
}

impl Who<'_> {
    /// Where the answer goes: the address on file.
    pub fn address(&self) -> &str {
        match self {
            Who::Player(p) => &p.email,
            Who::Gm(g) => &g.email,
            Who::Stranger(a) => a,
        }
    }
    pub fn name(&self) -> &str {
        match self {
            Who::Player(p) => &p.name,
            Who::Gm(g) => &g.name,
            Who::Stranger(_) => "",
        }
    }
}

/// What the commands of a mail need to know.
pub struct Ctx<'a> {
    pub archive: &'a Archive,
    pub game: &'a dyn Game,
    pub position: &'a dyn Position,
    pub now: SystemTime,
    /// Every value of the mail that may be a secret: blanked from whatever is relayed.
    pub secrets: &'a BTreeSet<String>,
    /// The mail gave the sender's secret (a player's, or the GM's for the GM).
    pub secret_ok: bool,
    /// The log line of this mail's orders, filed but not yet written (`status` counts
    /// it).
    pub filing: Option<&'a super::log::Entry>,
    /// Press messages the sender sent within the last hour, before this mail
    /// ([`super::by_mail::PRESS_PER_HOUR`]).
    pub press_this_hour: usize,
    /// Reports resent to the sender within the last day, before this mail
    /// ([`super::by_mail::RESENDS_PER_DAY`]).
    pub resends_today: usize,
}
