//! What becomes of a readable mail, as a pure decision (issue 40, point 3): the facts
//! [`super::Intake`] read beforehand — who sent the mail (`authorship.rs`), what it
//! holds, how its header lines fit the game, where the game stands (its next turn, its
//! deadline, its replaced players) — in; a [`Decision`] out: carry out its commands,
//! refuse it (why, and who is told), hold it as late, refuse it as late, or file it. The
//! refusal policy itself is `verdict.rs`'s; this file adds the routes around it. It reads
//! nothing and writes nothing (no archive, no clock): `carry.rs` carries the decision
//! out, so every route is tested here on plain facts.

use std::time::SystemTime;

use super::verdict::{self, Refusal};
use crate::archive::PlayerEntry;
use crate::archive::schedule::Late;
use crate::pbem::game::Mismatch;
use crate::pbem::sender::Who;

/// The commands a mail holds (docs/mail-commands.md), as far as the decision needs them.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Commands<'a> {
    /// Whether the mail holds any.
    pub any: bool,
    /// Whether it holds nothing else: no orders beside them.
    pub only: bool,
    /// Whether one of them is a `join` or a `confirm` (a stranger's only commands).
    pub joins: bool,
    /// Whom they are from: the GM, a player or a stranger.
    pub who: Option<Who<'a>>,
}

/// What the judge knows of a readable mail, and of the game, when it decides.
#[derive(Clone, Debug)]
pub(super) struct Facts<'a> {
    /// The game's name.
    pub game: &'a str,
    /// The turn orders are taken for now (the position's turn, plus one).
    pub next: u32,
    /// What the refusal policy weighs (`verdict.rs`). Its `before_secret` and
    /// `after_secret` are decided here, from `mismatches`: what is given there is not
    /// read.
    pub mail: verdict::Facts<'a>,
    /// Where the orders' header lines do not fit the game, in the order
    /// [`crate::pbem::game::Header::mismatches`] gives them.
    pub mismatches: &'a [Mismatch],
    /// Whether orders for the turn just played are held for the next (a game played
    /// together, out of its set-up round, with `late = "hold"`).
    pub holds_late: bool,
    /// For a mail from no player's address: `Some(told)` when it is the address of a
    /// player whose seat was given to another, `told` when they were told so already.
    pub former: Option<bool>,
    /// For a mail from no player's address: the player its `X-Original-From:` or
    /// `Reply-To:` names, and which header did.
    pub named: Option<(&'a PlayerEntry, &'static str)>,
    pub commands: Commands<'a>,
    /// The deadline of turn `next` and what becomes of orders after it, in a game
    /// played together, out of its set-up round, whose clock runs (none while it waits:
    /// paused, or open for sign-up).
    pub deadline: Option<(SystemTime, Late)>,
    /// When the mail arrived.
    pub arrived: SystemTime,
}

/// Who is told of a refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Told<'a> {
    /// No one: a stranger.
    Nobody,
    /// A player whose seat was given to another, writing from their old address: told
    /// once for that replacement (`already`: they were).
    Former { already: bool },
    /// The player a header names, at the address the GM has for them (never the
    /// mail's): the mail came from an address that is no player's.
    Named {
        player: &'a PlayerEntry,
        how: &'static str,
    },
    /// The player it is from; `secret_refused`: the refusal is about the secret (they
    /// are told someone may have written in their name).
    Player {
        player: &'a PlayerEntry,
        secret_refused: bool,
    },
}

/// What becomes of a mail that is not only commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Fate<'a> {
    /// Refused: nothing is filed.
    Refused { why: Refusal, told: Told<'a> },
    /// Orders after the deadline of turn `turn`: held for the turn after (`hold`), or
    /// refused.
    Late {
        player: &'a PlayerEntry,
        turn: u32,
        deadline: SystemTime,
        hold: bool,
    },
    /// Orders filed for the next turn.
    Filed { player: &'a PlayerEntry },
}

/// The decision on a mail: what to do with it, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Decision<'a> {
    /// Only commands: carry them out; nothing is filed.
    Commands(Who<'a>),
    /// A mail of orders, or of nothing the judge takes: its fate, then its commands.
    Orders {
        fate: Fate<'a>,
        /// Orders for the turn just played, held over to the next (issue 38, point
        /// 11): the turn their header names. Whatever is filed of them is filed as the
        /// next turn's.
        held_over: Option<u32>,
        /// Commands to carry out once the orders are routed, and for whom.
        then_commands: Option<Who<'a>>,
    },
}

/// Decide what becomes of the mail.
pub(super) fn decide<'a>(f: &Facts<'a>) -> Decision<'a> {
    let c = &f.commands;
    // A stranger's commands are not answered, but for a `join` or `confirm`.
    let asks = c
        .who
        .filter(|w| c.any && (c.joins || !matches!(w, Who::Stranger(_))));
    if c.only
        && let Some(who) = asks
    {
        return Decision::Commands(who);
    }
    let next = f.next;
    let sender = f.mail.sender;
    let before_secret = f.mismatches.iter().find_map(|mm| match mm {
        Mismatch::Game(g) => Some(format!("it is for the game `{g}`, and this is {}", f.game)),
        Mismatch::Player(p) => Some(format!(
            "the orders are for {p}, but they come from {}'s address",
            sender.map_or("", |s| s.id.as_str())
        )),
        _ => None,
    });
    // Orders for the turn just played, in a game that holds late orders: late, so
    // held for the next turn, as they would have been had they come before it was
    // played (issue 38, point 11: `judge serve` plays a turn at its deadline, and the
    // mail of a few seconds later found it played).
    let held_over = f
        .holds_late
        .then(|| {
            f.mismatches.iter().find_map(|mm| match mm {
                Mismatch::EarlierTurn(t) if t.checked_add(1) == Some(next) => Some(*t),
                _ => None,
            })
        })
        .flatten();
    let after_secret = f.mismatches.iter().find_map(|mm| match mm {
        Mismatch::EarlierTurn(_) if held_over.is_some() => None,
        Mismatch::EarlierTurn(t) => Some(format!(
            "the orders are for turn {t}, which is over; turn {next} is next"
        )),
        Mismatch::LaterTurn(t) => Some(format!(
            "the orders are for turn {t}, but turn {next} is next"
        )),
        _ => None,
    });
    let verdict = verdict::decide(&verdict::Facts {
        before_secret,
        after_secret,
        ..f.mail.clone()
    });
    let fate = match (verdict.filed, sender) {
        (Err(why), None) => Fate::Refused {
            why,
            told: match (f.former, f.named) {
                (Some(already), _) => Told::Former { already },
                (None, Some((player, how))) => Told::Named { player, how },
                (None, None) => Told::Nobody,
            },
        },
        (Err(why), Some(player)) => Fate::Refused {
            why,
            told: Told::Player {
                player,
                secret_refused: verdict.secret_refused,
            },
        },
        (Ok(player), _) => match f.deadline {
            Some((deadline, late)) if f.arrived > deadline => Fate::Late {
                player,
                turn: next,
                deadline,
                hold: late == Late::Hold,
            },
            _ => Fate::Filed { player },
        },
    };
    Decision::Orders {
        fate,
        held_over,
        then_commands: asks,
    }
}

