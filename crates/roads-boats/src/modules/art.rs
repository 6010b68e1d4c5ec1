//! Art (&cetera, Art): the atelier, the pearl fisherman, marble, exhibition caravans,
//! exhibitions, and the art score.
//!
//! "The atelier … costs 2 boards+1 stone and can be built on any type of land (except
//! desert before irrigation). It is a multi-functional secondary producer with a capacity
//! of 1." Its six recipes are in `building.rs`. "The pearl fisherman is a new secondary
//! producer that can be built only on sea tiles. It costs 3 boards and produces pearls
//! for an input of 1 stone." Marble "is produced by a quarry if and only if there are at
//! least three pieces of stone on the quarry tile in the production phase, and there is
//! not yet any marble on the tile … Any marble held by transporters on the tile prevents
//! the production of marble. Any stone held by transporters counts towards the amount of
//! stone on the tile." The exhibition caravan "may move 1 step per turn on roads or
//! unpaved land … can freely move through walls … cannot carry anything except artwork …
//! and not more than 1 of each type"; "a player is limited to 3 exhibition caravans; of
//! course, they count towards the total transporter limit of 8. They do not count towards
//! the land transporter limit." "If an exhibition caravan reaches the starting tile of
//! another player, an exhibition takes place … it vanishes, along with any artwork it was
//! carrying." A show needs at least 3 different works of art and more than the last one
//! shown there; after a show of 5 no more; "each player can only show one exhibition at
//! each other player's starting tile". At the end "each artwork possessed by players
//! scores 20 points. This number is multiplied by 2 if the player has successfully staged
//! a show at one other player's starting tile, by 3 if he did so at 2 starting tiles".
//!
//! Readings (RULINGS R10, R8): unattended goods at an atelier are processed in the order
//! the recipes are listed (capacity 1 in all); the beauty to beat at a home is the best
//! shown there so far; a caravan that makes no show still vanishes with its art; a
//! powered quarry's two goods are judged one after the other. Artwork is "possessed" as
//! gold is for the score: aboard the player's transporters. A pearl fisherman, like an
//! oil rig, is built with everything carried in, and goods may lie at it.

use serde::{Deserialize, Serialize};

use super::{Hooks, Plugin};
use crate::building::{Building, BuildingKind};
use crate::events::Fact;
use crate::goods::{Good, Goods};
use crate::player::Colour;
use crate::state::{Module, Phase, State};
use crate::transporter::{Kind, TransporterId};
use crate::turn::Ctx;

/// An exhibition shown: by whom, at whose starting tile, how beautiful (the number of
/// different works of art), in which turn. Kept in `State::shows`, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Show {
    pub by: Colour,
    pub at: Colour,
    pub beauty: u32,
    pub turn: u32,
}

pub static PLUGIN: Plugin = Plugin {
    module: Module::Art,
    rule: "&cetera, Art",
    buildings: &[BuildingKind::Atelier, BuildingKind::PearlFisherman],
    goods: &[
        Good::Pearls,
        Good::Marble,
        Good::Carvings,
        Good::Rings,
        Good::Sketches,
        Good::Pottery,
        Good::Statues,
    ],
    transporters: &[Kind::Caravan],
    terrains: &[],
    orders: &[],
    before_turn_one: &[],
    steps: &[
        (
            Phase::Production,
            "a quarry with 3 stone and no marble on its tile yields marble instead of stone",
        ),
        (
            Phase::Movement,
            "a caravan that reaches another player's home holds an exhibition there and vanishes with its art",
        ),
    ],
    map_legend: &["Under a home: `art xN` when N exhibitions have been shown there."],
    hooks: Hooks {
        primary_good: Some(marble),
        after_move: Some(exhibition),
        score: Some(score),
        ..Hooks::NONE
    },
};

/// What a quarry yields: marble instead of stone when its tile holds at least 3 stone
/// and no marble, counting what transporters on the tile hold.
fn marble(ctx: &Ctx, b: &Building, own: Good) -> Good {
    if b.kind != BuildingKind::Quarry || own != Good::Stone {
        return own;
    }
    let hex = b.at.hex;
    let mut on_tile = Goods::new();
    for a in ctx.s.map.areas(hex) {
        if let Some(g) = ctx.s.goods.get(&a) {
            on_tile.add_all(g);
        }
    }
    for (id, t) in &ctx.s.transporters {
        if ctx.s.tile_of(*id) == Some(hex) {
            on_tile.add_all(&t.cargo);
        }
    }
    if on_tile.count(Good::Stone) >= 3 && on_tile.count(Good::Marble) == 0 {
        Good::Marble
    } else {
        own
    }
}

/// The best exhibition shown at `home_of`'s starting tile so far (0: none).
pub fn best_at(s: &State, home_of: Colour) -> u32 {
    s.shows
        .iter()
        .filter(|x| x.at == home_of)
        .map(|x| x.beauty)
        .max()
        .unwrap_or(0)
}

/// After a move: a caravan on another player's starting tile holds its exhibition.
fn exhibition(ctx: &mut Ctx, id: TransporterId) {
    let Some(t) = ctx.s.transporters.get(&id).cloned() else {
        return;
    };
    if t.kind != Kind::Caravan {
        return;
    }
    let Some(hex) = ctx.s.tile_of(id) else { return };
    let Some(home_of) = ctx
        .s
        .players
        .iter()
        .find(|(c, p)| **c != t.owner && p.home.is_some_and(|h| h.hex == hex))
        .map(|(c, _)| *c)
    else {
        return;
    };
    let art: Goods = t.cargo.iter().filter(|(g, _)| g.is_artwork()).collect();
    let beauty = Good::ARTWORKS.iter().filter(|g| art.count(**g) > 0).count() as u32;
    let best = best_at(&ctx.s, home_of);
    let already = ctx
        .s
        .shows
        .iter()
        .any(|x| x.by == t.owner && x.at == home_of);
    let (shown, why) = if already {
        (
            false,
            format!(
                "{} has shown at {home_of}'s home already (one show a home)",
                t.owner
            ),
        )
    } else if best >= 5 {
        (
            false,
            "an exhibition of 5 has been held there: no more are possible".to_string(),
        )
    } else if beauty < 3 {
        (
            false,
            "an exhibition needs at least 3 different works of art".to_string(),
        )
    } else if beauty <= best {
        (
            false,
            format!(
                "the best shown there had {best} works of art: it needs {}",
                best + 1
            ),
        )
    } else {
        (
            true,
            format!(
                "{} has shown at {} home{} now",
                t.owner,
                shows_by(&ctx.s, t.owner) + 1,
                if shows_by(&ctx.s, t.owner) == 0 {
                    ""
                } else {
                    "s"
                }
            ),
        )
    };
    if shown {
        ctx.s.shows.push(Show {
            by: t.owner,
            at: home_of,
            beauty,
            turn: ctx.s.turn + 1,
        });
    }
    // Geese that followed it are neither art nor carried: they stay where it vanished.
    crate::turn::leave_game(&mut ctx.s, id);
    // Anything it carried that is not art (it carries none) would go with it too.
    ctx.emit(Fact::Exhibition {
        caravan: id,
        home_of,
        art: t.cargo.clone(),
        beauty,
        shown,
        why,
    });
}

/// At how many other players' homes `player` has shown an exhibition.
pub fn shows_by(s: &State, player: Colour) -> u32 {
    let mut homes: Vec<Colour> = s
        .shows
        .iter()
        .filter(|x| x.by == player)
        .map(|x| x.at)
        .collect();
    homes.dedup();
    homes.len() as u32
}

/// "Each artwork possessed by players scores 20 points", times (shows + 1).
fn score(s: &State, player: Colour) -> i64 {
    let art: u32 = s
        .transporters_of(player)
        .map(|(_, t)| {
            t.cargo
                .iter()
                .filter(|(g, _)| g.is_artwork())
                .map(|(_, n)| n)
                .sum::<u32>()
        })
        .sum();
    i64::from(20 * art * (shows_by(s, player) + 1))
}
