//! Where scenario rules hook into the base game. The base game asks these functions at
//! each point a scenario may change; a scenario (Catan Express, in `express/`) adds a
//! [`Variant`], its own state and actions in its folder, and one arm to each hook it
//! changes. Nothing else in the rules names a scenario.
//!
//! The hooks:
//! - [`founding_road`]: does a road follow this founding settlement?
//! - [`settlement_site_ok`]: an extra condition on settlement sites;
//! - [`city_allowance`]: how many cities a player may have now;
//! - [`uses_longest_road`]: is the Longest Road card in play?
//! - [`extra_points`]: points a scenario adds (chips, towers);
//! - [`vp_cards_hidden`]: are victory point cards kept hidden until the win?
//!
//! The graph a scenario needs is on [`crate::catan::board::Topology`]: vertices, edges,
//! hex centres and the spokes joining a vertex to a hex centre, land and sea alike.

use serde::{Deserialize, Serialize};

use super::board::VertexId;
use super::state::State;

/// The rules in play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// The base game (with the 5–6 extension if the options say so).
    #[default]
    Base,
}

/// Does the founding settlement placed at step `index` get a road?
pub fn founding_road(s: &State, _index: u8) -> bool {
    match s.options.variant {
        Variant::Base => true,
    }
}

/// A scenario's extra condition on a settlement site (the distance rule and the land
/// are checked by the base game).
pub fn settlement_site_ok(s: &State, _seat: u8, _v: VertexId) -> bool {
    match s.options.variant {
        Variant::Base => true,
    }
}

/// How many cities a player may have at this point of the game.
pub fn city_allowance(s: &State, _seat: u8) -> u8 {
    match s.options.variant {
        Variant::Base => super::rules::CITIES,
    }
}

pub fn uses_longest_road(s: &State) -> bool {
    match s.options.variant {
        Variant::Base => true,
    }
}

pub fn extra_points(s: &State, _seat: u8) -> u8 {
    match s.options.variant {
        Variant::Base => 0,
    }
}

pub fn vp_cards_hidden(s: &State) -> bool {
    match s.options.variant {
        Variant::Base => true,
    }
}
