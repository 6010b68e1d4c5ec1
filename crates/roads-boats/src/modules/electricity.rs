//! Electricity (&cetera, Electricity): power lines, the power plant, and doubled output.
//!
//! "A primary producer that is connected to a working power plant produces two goods per
//! turn instead of one." Power lines are "built in the same way as roads, except they cost
//! one iron per stretch", "in the sea (and in polders) as well as on land", and "can only
//! cross a river if there is a bridge". A power plant costs 3 stone and works in a turn
//! when it gets a trunk or a board: "automatically … if it is available on the tile (if
//! both are there, it uses the board first)", or from a transporter on the tile as its
//! player says "at the start of the production phase".
//!
//! Readings (RULINGS R10): each plant is fired at the start of production, before primary
//! producers produce — first by the players' `fire` orders in move order, then from the
//! boards, else trunks, lying on its side of the tile; walls do not cut power lines; a
//! producer on the plant's own tile is connected. Connection follows lines from area to
//! area, and within a tile only across bridged rivers, like roads.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use judge_core::diagnostic::Diagnostic;
use serde::{Deserialize, Serialize};

use super::link;
use super::{Grammar, Hooks, Plugin};
use crate::building::{Building, BuildingKind};
use crate::events::Fact;
use crate::goods::Good;
use crate::map::{AreaId, Hex, Road};
use crate::order_text::{R, Reader};
use crate::orders::{ProductionOrder, TurnOrders};
use crate::refusal::{Link, Refusal};
use crate::state::{Module, Phase, State};
use crate::transporter::{Location, Named, TransporterId};
use crate::turn::{Ctx, reach, take_lying};
use crate::turn::{Purse, one};

/// Electricity's notes for the rest of a turn (`turn::Notes`).
#[derive(Clone, Debug, Default)]
pub struct Notes {
    /// The primary producers (by area) a working power plant powers.
    pub powered: BTreeSet<AreaId>,
}

pub static PLUGIN: Plugin = Plugin {
    module: Module::Electricity,
    rule: "&cetera, Electricity",
    buildings: &[BuildingKind::PowerPlant],
    goods: &[],
    transporters: &[],
    terrains: &[],
    orders: &[
        Grammar {
            phase: Phase::Production,
            words: "fire",
            read: read_fire,
            example: "fire C3 with D1 using trunks",
        },
        Grammar {
            phase: Phase::Building,
            words: "power line",
            read: read_power_line,
            example: "power line C3 C4 with D1",
        },
    ],
    before_turn_one: &[],
    steps: &[
        (
            Phase::Production,
            "before primary producers produce, each power plant burns a trunk or board: one a player feeds it (`fire`), else a board, else a trunk lying there",
        ),
        (
            Phase::Production,
            "a primary producer connected by power lines to a working plant produces two goods (a mine draws two)",
        ),
        (
            Phase::Building,
            "a power line between two neighbouring areas costs 1 iron; on land, sea and polders; across a river only by a bridge",
        ),
    ],
    map_legend: &["A . on an edge: a power line crosses it."],
    hooks: Hooks {
        before_primary: Some(fire),
        primary_yield: Some(yield_of),
        ..Hooks::NONE
    },
};

/// Is this building a primary producer (what power doubles)?
fn is_primary(kind: BuildingKind) -> bool {
    kind.primary_output().is_some() || kind == BuildingKind::Mine
}

/// The areas joined to `start` by power lines, and by bridges within a tile (walls do not
/// cut power lines, RULINGS R10). A line carries power only where it may stand: across a
/// river or a city's moat only by a bridge (`modules::link`), whoever built it.
pub fn network(s: &State, start: AreaId) -> BTreeSet<AreaId> {
    let map = &s.map;
    let mut ends: BTreeMap<AreaId, Vec<AreaId>> = BTreeMap::new();
    for l in &map.power_lines {
        if link(s, l.from, l.to, Link::PowerLine).is_err() {
            continue;
        }
        ends.entry(l.from).or_default().push(l.to);
        ends.entry(l.to).or_default().push(l.from);
    }
    let mut seen = BTreeSet::new();
    let mut todo = vec![start];
    while let Some(a) = todo.pop() {
        let side = if map.is_land(a.hex) {
            map.same_side(a)
        } else {
            BTreeSet::from([a])
        };
        for x in side {
            if seen.insert(x) {
                todo.extend(ends.get(&x).into_iter().flatten().copied());
            }
        }
    }
    seen
}

/// Start of production (RULINGS R10): fire every power plant, and note the primary
/// producers each working one powers.
fn fire(ctx: &mut Ctx, orders: &TurnOrders) {
    ctx.notes.put(Notes::default());
    let plants: Vec<usize> = (0..ctx.s.buildings.len())
        .filter(|i| ctx.s.buildings[*i].kind == BuildingKind::PowerPlant)
        .collect();
    let mut fired: BTreeSet<usize> = BTreeSet::new();
    // The players' own wood first, in move order.
    for player in ctx.in_move_order() {
        let Some(list) = orders.get(&player) else {
            continue;
        };
        for o in &list.production {
            let ProductionOrder::Module(super::Order::Electricity(Order::Fire { at, with, using })) =
                o.order
            else {
                continue;
            };
            ctx.player = Some(player);
            ctx.line = Some(o.line);
            let here: Vec<usize> = plants
                .iter()
                .copied()
                .filter(|i| ctx.s.buildings[*i].at.hex == at)
                .collect();
            if here.is_empty() {
                ctx.fail(PowerRefusal::NoPowerPlant { at });
                continue;
            }
            let Some(&i) = here.iter().find(|i| !fired.contains(i)) else {
                ctx.fail(PowerRefusal::AlreadyFired { at });
                continue;
            };
            if let Err(e) = ctx.own(with) {
                ctx.fail(e);
                continue;
            }
            let plant = ctx.s.buildings[i].at;
            if !reach(&ctx.s, with).contains(&plant) {
                ctx.fail(PowerRefusal::NotAtThePlant {
                    with: with.named(),
                    plant,
                });
                continue;
            }
            let wood: &[Good] = match using {
                Some(Good::Trunks) => &[Good::Trunks],
                Some(_) => &[Good::Boards],
                None => &[Good::Boards, Good::Trunks],
            };
            let burnt = wood.iter().copied().find(|g| {
                ctx.s
                    .transporters
                    .get_mut(&with)
                    .is_some_and(|t| t.cargo.take(*g, 1) == 1)
            });
            let Some(burnt) = burnt else {
                ctx.fail(PowerRefusal::NoWood {
                    with: with.named(),
                    wood: wood.to_vec(),
                });
                continue;
            };
            fired.insert(i);
            powered(ctx, i, burnt, Some(with));
        }
    }
    ctx.player = None;
    ctx.line = None;
    // Then what lies there: a board first, else a trunk.
    for i in plants {
        if fired.contains(&i) {
            continue;
        }
        let at = ctx.s.buildings[i].at;
        let side: Vec<AreaId> = ctx.s.map.same_side(at).into_iter().collect();
        let burnt = [Good::Boards, Good::Trunks]
            .into_iter()
            .find(|g| take_lying(&mut ctx.s, &side, *g, 1) == 1);
        match burnt {
            Some(g) => powered(ctx, i, g, None),
            None => ctx.emit(Fact::PlantCold { at }),
        }
    }
}

/// The plant `i` works this turn: note and report the producers it powers.
fn powered(ctx: &mut Ctx, i: usize, burnt: Good, from: Option<TransporterId>) {
    let at = ctx.s.buildings[i].at;
    let net = network(&ctx.s, at);
    let powers: Vec<AreaId> = ctx
        .s
        .buildings
        .iter()
        .filter(|b| is_primary(b.kind) && net.contains(&b.at))
        .map(|b| b.at)
        .collect();
    ctx.notes
        .with(|n: &mut Notes| n.powered.extend(powers.iter().copied()));
    ctx.emit(Fact::PlantFired {
        at,
        burnt,
        from,
        powers,
    });
}

/// "All primary producers that are connected to the plant by power lines produce two
/// goods instead of one."
fn yield_of(ctx: &Ctx, b: &Building) -> u32 {
    if is_primary(b.kind)
        && ctx
            .notes
            .get::<Notes>()
            .is_some_and(|n| n.powered.contains(&b.at))
    {
        2
    } else {
        1
    }
}

/// Building phase: a power line from `from` (where `with` is) to `to`, for 1 iron.
pub(crate) fn power_line(
    ctx: &mut Ctx,
    from: crate::map::AreaId,
    to: AreaId,
    with: TransporterId,
) -> Result<(), Refusal> {
    if !ctx.s.settings.modules.contains(&Module::Electricity) {
        return Err(Refusal::NotInPlay {
            module: Module::Electricity,
        });
    }
    link(&ctx.s, from, to, Link::PowerLine)?;
    let at = ctx.s.transporters.get(&with).map(|t| t.at);
    let purse = if reach(&ctx.s, with).contains(&from) {
        Purse::at(ctx, with, from)
    } else if at == Some(Location::Sea(from.hex)) {
        // From a boat (or a plane) on the sea tile itself: what it carries.
        Purse::carried(ctx, with)
    } else {
        return Err(Refusal::NotAtLineStart {
            with: with.named(),
            from,
        });
    };
    let line = Road::new(from, to);
    if ctx.s.map.power_lines.contains(&line) {
        return Err(Refusal::PowerLineThere { line });
    }
    purse.pay(ctx, &one(Good::Iron, 1))?;
    ctx.s.map.power_lines.insert(line);
    ctx.emit(Fact::PowerLineBuilt {
        from: line.from,
        to: line.to,
    });
    Ok(())
}

// ---- Orders: `fire` and `power line`, read and carried out here. ----

/// Electricity's orders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order")]
pub enum Order {
    /// Production: feed the power plant at `at` a trunk or board from `with`, at the
    /// start of the phase (`using` says which; boards first if not).
    Fire {
        at: Hex,
        with: TransporterId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        using: Option<Good>,
    },
    /// Building: a power line between two neighbouring areas, for 1 iron.
    PowerLine {
        from: AreaId,
        to: AreaId,
        with: TransporterId,
    },
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Fire { at, with, using } => {
                write!(f, "fire the power plant at {at} with ")?;
                match using {
                    Some(g) => write!(f, "1 {} from {with}", g.singular()),
                    None => write!(f, "a board (else a trunk) from {with}"),
                }
            }
            Order::PowerLine { from, to, with } => {
                write!(f, "build a power line {from}-{to} with {with}")
            }
        }
    }
}

/// `fire C3 with D1` / `fire C3 with D1 using trunks`
fn read_fire(r: &mut Reader<'_>) -> R<super::Order> {
    r.eat("plant");
    r.eat("at");
    let at = r.hex_or_area()?;
    let with = r.with()?;
    let using = if r.eat("using") {
        let t = r.word("`trunks` or `boards`")?;
        match r.good_word(&t)? {
            g @ (Good::Trunks | Good::Boards) => Some(g),
            _ => {
                return Err(Diagnostic::new(format!(
                    "`{}` will not do: a power plant burns a trunk or a board",
                    t.text
                ))
                .at(t.span)
                .help("write `using trunks` or `using boards`"));
            }
        }
    } else {
        None
    };
    Ok(super::Order::Electricity(Order::Fire { at, with, using }))
}

/// `power line C3 C4 with D1`, `power line C3-C4 with D1`
fn read_power_line(r: &mut Reader<'_>) -> R<super::Order> {
    r.eat("line");
    let (from, to) = r.area_pair()?;
    Ok(super::Order::Electricity(Order::PowerLine {
        from,
        to,
        with: r.with()?,
    }))
}

/// Where its phase comes to the order: a power line is built; a plant was fired at the
/// start of the phase ([`fire`]).
pub(crate) fn carry_out(ctx: &mut Ctx, order: &Order) {
    match *order {
        Order::Fire { .. } => {}
        Order::PowerLine { from, to, with } => {
            if let Err(e) = ctx.own(with).and_then(|()| power_line(ctx, from, to, with)) {
                ctx.fail(e);
            }
        }
    }
}

/// Why firing a power plant was refused (&cetera, Electricity).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PowerRefusal {
    #[error("there is no power plant at {at}")]
    NoPowerPlant { at: Hex },
    #[error("the power plant at {at} has its wood this turn already")]
    AlreadyFired { at: Hex },
    #[error("{with} is not at the power plant at {plant}")]
    NotAtThePlant { with: Named, plant: AreaId },
    #[error("{with} carries no {} for the power plant", wood.iter().map(|g| g.singular()).collect::<Vec<_>>().join(" or "))]
    NoWood { with: Named, wood: Vec<Good> },
}
