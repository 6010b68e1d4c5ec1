//! Bombs (&cetera, Bombs): the bomb factory, bombs (a good), blowing up a building in
//! the building phase, and strengthening a building against them.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Grammar, Hooks, Plugin};
use crate::building::BuildingKind;
use crate::events::Fact;
use crate::goods::Good;
use crate::map::Hex;
use crate::order_text::{R, Reader};
use crate::refusal::Refusal;
use crate::state::{Module, Phase};
use crate::transporter::TransporterId;
use crate::turn::{Ctx, reach};
use crate::turn::{Purse, building_at, one};

pub static PLUGIN: Plugin = Plugin {
    module: Module::Bombs,
    rule: "&cetera, Bombs",
    buildings: &[BuildingKind::BombFactory],
    goods: &[Good::Bombs],
    transporters: &[],
    terrains: &[],
    orders: &[
        Grammar {
            phase: Phase::Building,
            words: "bomb",
            read: read_bomb,
            example: "bomb C3 with D1",
        },
        Grammar {
            phase: Phase::Building,
            words: "bomb-proof",
            read: read_bomb_proof,
            example: "bomb-proof C3 with D1",
        },
    ],
    before_turn_one: &[],
    steps: &[(
        Phase::Building,
        "a transporter carrying a bomb blows up a building on its tile; a stone makes a building bomb-proof",
    )],
    map_legend: &[],
    hooks: Hooks::NONE,
};

pub(crate) fn bomb(ctx: &mut Ctx, at: Hex, with: TransporterId) -> Result<(), Refusal> {
    if !ctx.s.settings.modules.contains(&Module::Bombs) {
        return Err(Refusal::NotInPlay {
            module: Module::Bombs,
        });
    }
    let carries = ctx
        .s
        .transporters
        .get(&with)
        .is_some_and(|t| t.cargo.count(Good::Bombs) > 0);
    if !carries {
        return Err(Refusal::NoBomb { with: with.named() });
    }
    let i = building_at(ctx, at, with)?;
    // &cetera, city: "If you bomb a city, both buildings are destroyed" (RULINGS R10:
    // but for a strengthened one).
    let mut targets: Vec<usize> = if super::moat(&ctx.s, at) {
        (0..ctx.s.buildings.len())
            .filter(|j| ctx.s.buildings[*j].at.hex == at)
            .collect()
    } else {
        vec![i]
    };
    let b = ctx.s.buildings[i].clone();
    targets.retain(|j| !ctx.s.buildings[*j].bomb_proof);
    if targets.is_empty() {
        return Err(Refusal::BombProof {
            kind: b.kind,
            hex: at,
        });
    }
    if let Some(t) = ctx.s.transporters.get_mut(&with) {
        t.cargo.take(Good::Bombs, 1);
    }
    let gone: Vec<_> = targets
        .iter()
        .map(|j| ctx.s.buildings[*j].clone())
        .collect();
    for j in targets.into_iter().rev() {
        ctx.s.buildings.remove(j);
    }
    ctx.emit(Fact::BuildingBombed {
        building: gone[0].kind,
        at: gone[0].at,
        also: gone.get(1).map(|x| x.kind),
    });
    Ok(())
}

/// Strengthen a building (&cetera, Bombs: "any building can be made bomb-proof … at the
/// cost of one stone"): the one named — a city holds two (&cetera, City), and the player
/// says which — or, unnamed, the first on the tile not yet strengthened.
pub(crate) fn bomb_proof(
    ctx: &mut Ctx,
    at: Hex,
    named: Option<BuildingKind>,
    with: TransporterId,
) -> Result<(), Refusal> {
    building_at(ctx, at, with)?;
    let reached = reach(&ctx.s, with);
    let here: Vec<usize> = (0..ctx.s.buildings.len())
        .filter(|j| {
            let b = &ctx.s.buildings[*j];
            b.at.hex == at && reached.contains(&b.at)
        })
        .collect();
    let candidates: Vec<usize> = match named {
        None => here.clone(),
        Some(kind) => here
            .iter()
            .copied()
            .filter(|j| ctx.s.buildings[*j].kind == kind)
            .collect(),
    };
    let Some(&first) = candidates.first() else {
        return Err(Refusal::NoSuchBuilding {
            named,
            hex: at,
            holds: here.iter().map(|j| ctx.s.buildings[*j].kind).collect(),
        });
    };
    // The first of them not yet strengthened (a city may hold the same building twice).
    let i = candidates
        .iter()
        .copied()
        .find(|j| !ctx.s.buildings[*j].bomb_proof)
        .unwrap_or(first);
    let b = ctx.s.buildings[i].clone();
    if b.bomb_proof {
        return Err(if candidates.len() > 1 {
            Refusal::BothBombProof { hex: at }
        } else {
            Refusal::AlreadyBombProof {
                kind: b.kind,
                hex: at,
            }
        });
    }
    Purse::at(ctx, with, b.at).pay(ctx, &one(Good::Stone, 1))?;
    ctx.s.buildings[i].bomb_proof = true;
    ctx.emit(Fact::BombProofed {
        building: b.kind,
        at: b.at,
    });
    Ok(())
}

// ---- Orders: `bomb` and `bomb-proof`, read and carried out here. ----

/// Bombs' orders (building phase).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order")]
pub enum Order {
    Bomb {
        at: Hex,
        with: TransporterId,
    },
    BombProof {
        at: Hex,
        /// Which building (&cetera, City: a city holds two); `None`: the first not yet
        /// strengthened.
        building: Option<BuildingKind>,
        with: TransporterId,
    },
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Bomb { at, with } => {
                write!(f, "blow up the building at {at} with {with}'s bomb")
            }
            Order::BombProof {
                at,
                building: None,
                with,
            } => {
                write!(f, "make the building at {at} bomb-proof with {with}")
            }
            Order::BombProof {
                at,
                building: Some(kind),
                with,
            } => {
                write!(f, "make the {kind} at {at} bomb-proof with {with}")
            }
        }
    }
}

/// `bomb C3 with D1`
fn read_bomb(r: &mut Reader<'_>) -> R<super::Order> {
    let at = r.hex()?;
    Ok(super::Order::Bombs(Order::Bomb {
        at,
        with: r.with()?,
    }))
}

/// `bomb-proof C3 with D1`, or, in a city, `bomb-proof C3 mint with D1`.
fn read_bomb_proof(r: &mut Reader<'_>) -> R<super::Order> {
    let at = r.hex()?;
    let building = if r.is("with") || r.is("by") {
        None
    } else {
        Some(r.building_kind()?)
    };
    Ok(super::Order::Bombs(Order::BombProof {
        at,
        building,
        with: r.with()?,
    }))
}

/// Where the building phase comes to the order, with the player's own transporter.
pub(crate) fn carry_out(ctx: &mut Ctx, order: &Order) {
    let result = match *order {
        Order::Bomb { at, with } => ctx.own(with).and_then(|()| bomb(ctx, at, with)),
        Order::BombProof { at, building, with } => ctx
            .own(with)
            .and_then(|()| bomb_proof(ctx, at, building, with)),
    };
    if let Err(e) = result {
        ctx.fail(e);
    }
}
