//! Turn resolution: a pure function of the state and everyone's orders, giving the new
//! state and the events that led to it (RULINGS R1). Nothing here reads files, mail or
//! the clock.

pub(crate) mod building;
pub(crate) mod movement;
pub(crate) mod production;
pub mod score;
pub(crate) mod wonder;

pub use building::buildable;
pub use movement::{Reached, Stopped, range};

use super::events::Event;
use super::orders::TurnOrders;
use super::state::{Phase, State};

// The turn in hand and the rules every phase shares live below the phases and the
// modules alike (crate::turn), and each phase names them there: this file runs the
// phases, and no phase imports it.
use crate::turn::Ctx;

/// The outcome of resolving a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub struct Resolution {
    pub state: State,
    pub events: Vec<Event>,
    /// How far each move had gone at the events of its steps: for `judge check`'s echo
    /// only, never part of the record.
    pub marks: Vec<crate::turn::PathMark>,
}

/// Resolve from the state's next phase to the end of the turn: each phase in turn, each
/// player's orders in move order (RULINGS R1). A finished game does not change. `luck`
/// is the game's secret seed, for random mine draws (`mine_draw = "random"`, R4): the
/// turn's draws are its stream [`MINES`](crate::rng::MINES) at the turn's number, one after another.
pub fn resolve(state: &State, orders: &TurnOrders, luck: &judge_core::luck::Luck) -> Resolution {
    let mut ctx = Ctx::new(state.clone(), luck);
    if ctx.s.game_over.is_some() {
        return finish(ctx);
    }
    let phases = [
        Phase::Production,
        Phase::Movement,
        Phase::Building,
        Phase::Wonder,
    ];
    for phase in phases.into_iter().filter(|p| *p >= state.phase) {
        ctx.phase = phase;
        match phase {
            Phase::Production => production::run(&mut ctx, orders),
            Phase::Movement => movement::run(&mut ctx, orders),
            Phase::Building => building::run(&mut ctx, orders),
            Phase::Wonder => wonder::run(&mut ctx, orders),
        }
        ctx.player = None;
        ctx.line = None;
    }
    ctx.s.turn += 1;
    ctx.s.phase = Phase::Production;
    wonder::check_end(&mut ctx);
    ctx.s.normalise();
    finish(ctx)
}

/// The GM ends the game before the next turn is played (`judge end`): the next turn of
/// the archive holds nothing but the end, scored by the rules (RULINGS R8).
pub fn end(state: &State, why: &str) -> Resolution {
    let mut ctx = Ctx::new(state.clone(), &judge_core::luck::Luck::predictable(0));
    if ctx.s.game_over.is_none() {
        wonder::end_now(&mut ctx, why);
        ctx.s.turn += 1;
        ctx.s.phase = Phase::Production;
    }
    finish(ctx)
}

fn finish(ctx: Ctx) -> Resolution {
    let (state, events, marks) = ctx.into_parts();
    Resolution {
        state,
        events,
        marks,
    }
}
