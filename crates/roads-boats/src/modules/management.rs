//! Management (&cetera, Management): the six MBAs, managers, and doubled capacity.
//!
//! "An MBA costs 2 boards to build. Note that there are 6 different MBA's. Each has to be
//! built on its own type of land: dark green on forest, brown on mountain, grey on rock,
//! light green on pasture, blue on the coast (sea or river), yellow on desert. Note that
//! the desert MBA can be built in the desert before irrigation is invented!" An MBA "is a
//! secondary producer; it produces managers for an input of 1 gold at a capacity of 1 per
//! turn". "Managers can be used to double the capacity of any secondary producer on the
//! tile they are on … You cannot use more than one manager per tile … Managers are not
//! used up … If they are on a transporter, the owner of the transporter decides whether to
//! use the manager or not."
//!
//! Readings (RULINGS R10): the blue MBA stands on a shore land tile, not at sea; a
//! manager aboard a transporter works only when its owner's production orders say so
//! (`manage C3 with D1`), for the whole phase; an unattended manager always works. Which
//! tiles have a working manager is settled once, before the players' production orders
//! run (a manager made or brought this phase works from the next) — but a manager an
//! MBA makes in a city from unattended gold works at once for the city's buildings after
//! the MBA in the city's order, in that same step (R10, added 2026-11-28: an earlier
//! building's output feeds a later one), as an unattended manager always works.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Grammar, Hooks, Plugin};
use crate::building::{Building, BuildingKind};
use crate::events::Fact;
use crate::goods::Good;
use crate::map::Hex;
use crate::order_text::{R, Reader};
use crate::orders::{ProductionOrder, TurnOrders};
use crate::state::{Module, Phase};
use crate::transporter::{Named, TransporterId};
use crate::turn::Ctx;

/// Management's notes for the rest of a turn (`turn::Notes`).
#[derive(Clone, Debug, Default)]
pub struct Notes {
    /// The tiles where a manager works this production phase.
    pub managed: std::collections::BTreeSet<Hex>,
}

/// Does a manager work at `at` this production phase?
fn managed(ctx: &Ctx, at: Hex) -> bool {
    ctx.notes
        .get::<Notes>()
        .is_some_and(|n| n.managed.contains(&at))
}

pub static PLUGIN: Plugin = Plugin {
    module: Module::Management,
    rule: "&cetera, Management",
    buildings: &[
        BuildingKind::MbaWoods,
        BuildingKind::MbaMountain,
        BuildingKind::MbaRock,
        BuildingKind::MbaPasture,
        BuildingKind::MbaCoast,
        BuildingKind::MbaDesert,
    ],
    goods: &[Good::Managers],
    transporters: &[],
    terrains: &[],
    orders: &[Grammar {
        phase: Phase::Production,
        words: "manage",
        read: read_manage,
        example: "manage C3 with D1",
    }],
    before_turn_one: &[],
    steps: &[
        (
            Phase::Production,
            "an MBA turns 1 gold into 1 manager (capacity 1)",
        ),
        (
            Phase::Production,
            "before the orders run, a tile with a manager lying there, or aboard a transporter whose owner orders `manage`, has its secondary producers' capacity doubled for the phase",
        ),
    ],
    map_legend: &["An M after a tile's terrain: a manager is there."],
    hooks: Hooks {
        before_orders: Some(settle),
        capacity: Some(capacity),
        leftover_made: Some(made_in_city),
        ..Hooks::NONE
    },
};

/// Before the production orders: the tiles where a manager works this phase.
fn settle(ctx: &mut Ctx, orders: &TurnOrders) {
    ctx.notes.put(Notes::default());
    // Managers aboard transporters, as their owners order, in move order.
    for player in ctx.in_move_order() {
        let Some(list) = orders.get(&player) else {
            continue;
        };
        for o in &list.production {
            let ProductionOrder::Module(super::Order::Management(Order::Manage { at, with })) =
                o.order
            else {
                continue;
            };
            ctx.player = Some(player);
            ctx.line = Some(o.line);
            if let Err(e) = ctx.own(with) {
                ctx.fail(e);
                continue;
            }
            if ctx.s.tile_of(with) != Some(at) {
                ctx.fail(ManagementRefusal::NotAt {
                    with: with.named(),
                    at,
                });
                continue;
            }
            let carries = ctx
                .s
                .transporters
                .get(&with)
                .is_some_and(|t| t.cargo.count(Good::Managers) > 0);
            if !carries {
                ctx.fail(ManagementRefusal::NoManager { with: with.named() });
                continue;
            }
            if managed(ctx, at) {
                ctx.fail(ManagementRefusal::AlreadyManaged { at });
                continue;
            }
            at_work(ctx, at, Some(with));
        }
    }
    ctx.player = None;
    ctx.line = None;
    // Unattended managers always work.
    let lying: Vec<_> = ctx
        .s
        .goods
        .iter()
        .filter(|(_, g)| g.count(Good::Managers) > 0)
        .map(|(a, _)| a.hex)
        .collect();
    for hex in lying {
        if !managed(ctx, hex) {
            at_work(ctx, hex, None);
        }
    }
}

/// A good a building has just left unattended: a manager an MBA made in a city, while the city's
/// buildings process what lies there one after the other (RULINGS R10, "a manager made
/// in a city in a step works at once for the buildings after the MBA in the city's order
/// in that same step"): it works from now on for `later`, the buildings still to come.
/// Nothing changes where a manager works already (one per tile counts), nor where no
/// secondary producer comes after the MBA.
fn made_in_city(ctx: &mut Ctx, b: &Building, good: Good, later: &[BuildingKind]) {
    let at = b.at.hex;
    if good != Good::Managers || !super::moat(&ctx.s, at) || managed(ctx, at) || later.is_empty() {
        return;
    }
    ctx.notes.with(|n: &mut Notes| n.managed.insert(at));
    let (player, line) = (ctx.player.take(), ctx.line.take());
    ctx.emit(Fact::ManagerAtWork {
        at,
        by: None,
        doubles: later.to_vec(),
    });
    ctx.player = player;
    ctx.line = line;
}

fn at_work(ctx: &mut Ctx, at: crate::map::Hex, by: Option<crate::transporter::TransporterId>) {
    ctx.notes.with(|n: &mut Notes| n.managed.insert(at));
    let doubles: Vec<BuildingKind> = ctx
        .s
        .buildings_on(at)
        .filter(|b| b.kind.recipe().is_some())
        .map(|b| b.kind)
        .collect();
    ctx.emit(Fact::ManagerAtWork { at, by, doubles });
}

/// "A manager present on a tile with a mint, the mint can produce 2 coins per turn."
fn capacity(ctx: &Ctx, b: &Building, printed: u32) -> u32 {
    if managed(ctx, b.at.hex) {
        printed * 2
    } else {
        printed
    }
}

// ---- Orders: `manage`, read here; settled before the orders run
// ([`settle`]). ----

/// Management's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order")]
pub enum Order {
    /// Production: the manager aboard `with`, on the tile `at`, works there this phase.
    Manage { at: Hex, with: TransporterId },
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Manage { at, with } => write!(
                f,
                "let the manager aboard {with} double the capacity of the producers at {at} this phase"
            ),
        }
    }
}

/// `manage C3 with D1`
fn read_manage(r: &mut Reader<'_>) -> R<super::Order> {
    r.eat("at");
    let at = r.hex_or_area()?;
    Ok(super::Order::Management(Order::Manage {
        at,
        with: r.with()?,
    }))
}

/// Why a manager's order was refused (&cetera, Management; RULINGS R10).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ManagementRefusal {
    #[error("{with} is not at {at}")]
    NotAt { with: Named, at: Hex },
    #[error("{with} carries no manager")]
    NoManager { with: Named },
    #[error("a manager already works at {at}: no more than one manager per tile counts")]
    AlreadyManaged { at: Hex },
}
