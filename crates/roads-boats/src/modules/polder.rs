//! Polder (&cetera, Polder): land that is sometimes sea.
//!
//! "The polders start out flooded. Each time the first brick is placed on a new wonder
//! row, they change. So, when a brick is built on the second row, the polders become
//! land. When a brick is built on the third row, they become sea again." On a dry polder
//! "land transporters can move freely in and out …, but water transporters cannot leave
//! on their own, and can enter only by docking at the tile. When the polder floods, any
//! water transporter docked there is put on the tile itself." On a flooded one "land
//! transporters cannot enter or leave … Water transporters, however, can enter freely and
//! build or interact with the tile without docking." "Any transporter stranded on a
//! polder must wait until the tide turns … It can still carry goods." No woodcutters,
//! quarries, mines, oil rigs or pearl fishermen, no reproduction, no bridges; shoreline
//! buildings and roads are allowed; no wall between two polders or a polder and the sea,
//! and a wall built or demolished from a polder costs 2 more, "even in the land phase".
//!
//! Reading (RULINGS R10): a flooded polder is a sea tile for boats (entering or leaving
//! costs 1, and a boat may pass through); a boat on a polder when it dries is stranded
//! until the next flood. The state of the tide is `Map::polders_dry`, set from the wonder.

use super::{Draft, Hooks, Look, Plugin};
use crate::events::Fact;
use crate::map::{Hex, Terrain};
use crate::refusal::Refusal;
use crate::state::{Module, Phase, State};
use crate::transporter::{Class, Location, TransporterId};
use crate::turn::Ctx;
use crate::wonder::Wonder;

pub static PLUGIN: Plugin = Plugin {
    module: Module::Polder,
    rule: "&cetera, Polder",
    buildings: &[],
    goods: &[],
    transporters: &[],
    terrains: &[Terrain::Polder],
    orders: &[],
    before_turn_one: &[],
    steps: &[
        (
            Phase::Wonder,
            "when a new wonder row gets its first brick the polders turn: flooded (boats docked there float on them) or dry",
        ),
        (
            Phase::Movement,
            "a dry polder is land (boats on it are stranded, boats enter only by docking); a flooded one is sea for boats, and land transporters neither enter nor leave it",
        ),
    ],
    map_legend: &["Polders: pold when dry, flod when flooded."],
    hooks: Hooks {
        after_bricks: Some(after_bricks),
        leaving: Some(stranded),
        entering: Some(may_enter),
        sea_now: Some(flooded),
        settle: Some(settle_tide),
        look: Some(look),
        generate: Some(generate),
        ..Hooks::NONE
    },
};

/// Are the polders dry with this wonder? Flooded before any brick and while the last
/// brick is on an odd row (the first, third, …); dry on an even row.
pub fn dry_for(wonder: &Wonder) -> bool {
    wonder.placed().checked_sub(1).is_some_and(dry_after)
}

/// Are the polders dry once a brick is at `place` (from 0)? Dry on an even row.
fn dry_after(place: usize) -> bool {
    Wonder::row_of(place).is_some_and(|row| row % 2 == 1)
}

/// Set the tide from the wonder (a scenario's starting position).
fn settle_tide(state: &mut State) {
    state.map.polders_dry =
        state.settings.modules.contains(&Module::Polder) && dry_for(&state.wonder);
}

/// A flooded polder is drawn as water: light blue in the picture, `flod` on the
/// plain-text map.
const FLOODED: Look = Look {
    fill: judge_core::picture::Rgb(79, 195, 247),
    name: "polder (flooded)",
    word: "flod",
};

/// How a polder looks now: flooded, or as its terrain.
fn look(s: &State, hex: Hex) -> Option<Look> {
    flooded(s, hex).then_some(FLOODED)
}

/// Is `hex` a polder that is flooded now (with the module in play)?
fn flooded(s: &State, hex: Hex) -> bool {
    s.settings.modules.contains(&Module::Polder)
        && s.map.terrain(hex) == Some(Terrain::Polder)
        && !s.map.polders_dry
}

/// Is `hex` a polder that is dry now (with the module in play)?
fn dry(s: &State, hex: Hex) -> bool {
    s.settings.modules.contains(&Module::Polder)
        && s.map.terrain(hex) == Some(Terrain::Polder)
        && s.map.polders_dry
}

/// Is a transporter of `class` at `at` stranded on a polder, and why? "Any transporter
/// stranded on a polder must wait until the tide turns … before it can leave": a land
/// transporter on a flooded polder ("land transporters cannot enter or leave"), and a
/// boat on a dry one or docked at it ("water transporters cannot leave on their own";
/// "when the polder floods, any water transporter docked there is put on the tile
/// itself", so until then it stays). Every way of leaving asks this: a step, a sail,
/// the train (RULINGS R10).
fn stranded(s: &State, class: Class, at: Location) -> Result<(), Refusal> {
    match (class, at) {
        (Class::Land, Location::Land(a)) if flooded(s, a.hex) => {
            Err(Refusal::StrandedByTheFlood { hex: a.hex })
        }
        (Class::Water, Location::Sea(hex)) if dry(s, hex) => Err(Refusal::StrandedDry { hex }),
        (Class::Water, Location::Dock(c)) if dry(s, c.land.hex) => {
            Err(Refusal::StrandedDocked { hex: c.land.hex })
        }
        _ => Ok(()),
    }
}

/// May a transporter of `class` come to `at`, as far as the polders go? "In the water
/// phase, land transporters cannot enter … a polder"; in the land phase water
/// transporters "can enter only by docking at the tile", and a flooded polder has no dock
/// (RULINGS R10: it is a sea tile for boats). Every way of arriving asks this: a step,
/// a sail, the train (R10).
fn may_enter(s: &State, class: Class, at: Location) -> Result<(), Refusal> {
    match (class, at) {
        (Class::Land, Location::Land(a)) if flooded(s, a.hex) => {
            Err(Refusal::FloodedPolder { hex: a.hex })
        }
        (Class::Water, Location::Dock(c)) if flooded(s, c.land.hex) => {
            Err(Refusal::DockAtAFlood { hex: c.land.hex })
        }
        (Class::Water, Location::Sea(hex)) if dry(s, hex) => Err(Refusal::DryPolder { hex }),
        _ => Ok(()),
    }
}

/// After bricks: "each time the first brick is placed on a new wonder row, they change",
/// so the tide turns at each brick that begins a row, as many times as one order begins
/// rows (flooded, dry, flooded …), each turn with its own effects.
fn after_bricks(ctx: &mut Ctx, places: std::ops::Range<usize>) {
    for place in places {
        turn_tide(ctx, dry_after(place));
    }
}

/// Make the polders dry (or flooded), if they are not already.
fn turn_tide(ctx: &mut Ctx, now_dry: bool) {
    if now_dry == ctx.s.map.polders_dry {
        return;
    }
    ctx.s.map.polders_dry = now_dry;
    let mut afloat: Vec<TransporterId> = Vec::new();
    if !now_dry {
        for (id, t) in ctx.s.transporters.iter_mut() {
            if let Location::Dock(c) = t.at
                && ctx.s.map.tiles.get(&c.land.hex).map(|x| x.terrain) == Some(Terrain::Polder)
            {
                t.at = Location::Sea(c.land.hex);
                afloat.push(*id);
            }
        }
    }
    let (player, line) = (ctx.player.take(), ctx.line.take());
    ctx.emit(Fact::PoldersTurned {
        flooded: !now_dry,
        afloat,
    });
    ctx.player = player;
    ctx.line = line;
}

/// The random map generator: polders on the coast, as many as the players (at least 2).
fn generate(d: &mut Draft<'_>) {
    let mut coast: Vec<Hex> = d
        .free
        .iter()
        .copied()
        .filter(|h| d.coast.contains(h))
        .collect();
    d.rng.shuffle(&mut coast);
    for h in coast.into_iter().take(d.players.max(2)) {
        d.land.insert(h, Terrain::Polder);
    }
}
