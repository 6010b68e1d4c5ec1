//! Fundamental research (&cetera, Fundamental research): the eighth research subject,
//! the lightbulb. "Once you have researched it, all further research costs only 1 goose
//! plus 1 paper instead of 2 geese plus 1 paper. Researching fundamental research costs
//! 2 geese plus 1 paper." It takes effect at once (RULINGS R10): the next research point,
//! even in the same phase, is the cheaper one.

use std::collections::BTreeSet;

use super::{Hooks, Plugin};
use crate::player::Research;
use crate::state::{Module, Phase, Settings};

pub static PLUGIN: Plugin = Plugin {
    module: Module::FundamentalResearch,
    rule: "&cetera, Fundamental research",
    buildings: &[],
    goods: &[],
    transporters: &[],
    terrains: &[],
    orders: &[],
    before_turn_one: &[],
    steps: &[(
        Phase::Production,
        "research costs 1 goose + 1 paper for a player who has researched fundamental research",
    )],
    map_legend: &[],
    hooks: Hooks {
        research_refused: Some(refused),
        research_geese: Some(geese_per_point),
        ..Hooks::NONE
    },
};

/// Why `subject` cannot be researched in a game with these settings: fundamental
/// research only with its module in play.
fn refused(settings: &Settings, subject: Research) -> Option<&'static str> {
    (subject == Research::FundamentalResearch
        && !settings.modules.contains(&Module::FundamentalResearch))
    .then_some("fundamental research is not in play in this game")
}

/// The geese a research point costs a player who has researched `done` (with the paper,
/// always 1): 1 once fundamental research is done; otherwise the module says nothing,
/// and the rulebook's 2 stand.
fn geese_per_point(done: &BTreeSet<Research>) -> Option<u32> {
    done.contains(&Research::FundamentalResearch).then_some(1)
}
