//! Bombs (&cetera, Bombs): the bomb factory, bombs (a good), blowing up a building in
//! the building phase, and strengthening a building against them.

use super::{Hooks, Plugin};
use crate::building::BuildingKind;
use crate::events::Fact;
use crate::goods::Good;
use crate::map::Hex;
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
    orders: &[(Phase::Building, "bomb"), (Phase::Building, "bomb-proof")],
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
