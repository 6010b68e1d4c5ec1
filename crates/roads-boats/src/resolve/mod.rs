//! Turn resolution: a pure function of the state and everyone's orders, giving the new
//! state and the events that led to it (RULINGS R1). Nothing here reads files, mail or
//! the clock.

pub(crate) mod building;
mod consent;
pub(crate) mod movement;
pub(crate) mod production;
pub mod score;
pub(crate) mod wonder;

use std::collections::BTreeMap;

use super::events::{Event, Fact};
use super::goods::{Good, Goods};
use super::map::{AreaId, Hex};
use super::orders::TurnOrders;
use super::player::Colour;
use super::rng::MINES;
use super::state::{Phase, State};
use super::transporter::{Kind, Location, TransporterId};

/// The outcome of resolving a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub struct Resolution {
    pub state: State,
    pub events: Vec<Event>,
}

/// Resolve from the state's next phase to the end of the turn: each phase in turn, each
/// player's orders in move order (RULINGS R1). A finished game does not change. `luck`
/// is the game's secret seed, for random mine draws (`mine_draw = "random"`, R4): the
/// turn's draws are its stream [`MINES`] at the turn's number, one after another.
pub fn resolve(state: &State, orders: &TurnOrders, luck: &judge_core::luck::Luck) -> Resolution {
    let mut ctx = Ctx::new(state.clone(), luck);
    if ctx.s.game_over.is_some() {
        return ctx.finish();
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
    ctx.finish()
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
    ctx.finish()
}

/// The working state of a resolution.
pub(crate) struct Ctx {
    pub s: State,
    pub events: Vec<Event>,
    pub phase: Phase,
    /// Whose order is being carried out, and its line.
    pub player: Option<Colour>,
    pub line: Option<u32>,
    /// Every player's consents for the phase being resolved.
    pub consents: consent::Ledger,
    /// What the modules note for the rest of the turn (power plants fired, managers at
    /// work).
    pub notes: super::modules::Notes,
    /// The turn's random mine draws.
    pub mines: judge_core::luck::Rng,
}

impl Ctx {
    fn new(s: State, luck: &judge_core::luck::Luck) -> Ctx {
        let phase = s.phase;
        let mines = luck.draws(MINES, u64::from(s.turn) + 1);
        Ctx {
            mines,
            s,
            events: Vec::new(),
            phase,
            player: None,
            line: None,
            consents: consent::Ledger::default(),
            notes: super::modules::Notes::default(),
        }
    }

    fn finish(self) -> Resolution {
        Resolution {
            state: self.s,
            events: self.events,
        }
    }

    pub fn emit(&mut self, fact: Fact) {
        self.events.push(Event {
            phase: self.phase,
            player: self.player,
            line: self.line,
            fact,
        });
    }

    pub fn fail(&mut self, reason: impl Into<String>) {
        self.emit(Fact::Failed {
            reason: reason.into(),
        });
    }

    pub fn short(&mut self, reason: impl Into<String>) {
        self.emit(Fact::Shortfall {
            reason: reason.into(),
        });
    }

    /// The move order's players, each with their orders (none if they sent none).
    pub fn in_move_order(&self) -> Vec<Colour> {
        self.s.move_order.clone()
    }

    /// Check that `id` is one of the current player's transporters, not carried.
    pub fn own(&self, id: TransporterId) -> Result<(), String> {
        let me = self.player;
        match self.s.transporters.get(&id) {
            None => Err(format!("there is no transporter {id}", id = id.named())),
            Some(t) if Some(t.owner) != me => {
                Err(format!("{id} is {}'s, not yours", t.owner, id = id.named()))
            }
            Some(t) if matches!(t.at, Location::Carried(_)) => {
                Err(format!("{id} is being carried", id = id.named()))
            }
            Some(_) => Ok(()),
        }
    }
}

/// The areas a transporter can hand goods to and take them from: its side of the river
/// on land or docked, every bank from the river, an oil rig at sea (RULINGS R3, R5).
pub(crate) fn reach(s: &State, id: TransporterId) -> Vec<AreaId> {
    let Some(t) = s.transporters.get(&id) else {
        return Vec::new();
    };
    reach_of(s, t.at)
}

pub(crate) fn reach_of(s: &State, at: Location) -> Vec<AreaId> {
    match at {
        Location::Land(a) => s.map.same_side(a).into_iter().collect(),
        Location::Dock(c) => s.map.same_side(c.land).into_iter().collect(),
        Location::River(h) => s.map.areas(h),
        Location::Sea(h) if has_oil_rig(s, h) => vec![AreaId::whole(h)],
        // A boat on a polder interacts with the tile without docking (&cetera, polder).
        Location::Sea(h) if s.map.terrain(h) == Some(super::map::Terrain::Polder) => s.map.areas(h),
        Location::Sea(_) | Location::Carried(_) => Vec::new(),
    }
}

/// RULINGS R3: "nothing crosses a river on land without a bridge". One rule for every
/// link between areas of two neighbouring tiles — a land transporter's step, a road, a
/// power line (&cetera, Electricity: "Power lines can only cross a river if there is a
/// bridge"), a rail track (R10): its ends meet on the same bank where a river runs along
/// their border (the map's areas, [`Map::link_fits`]), and it crosses no city's moat but
/// by the bridge on that side (&cetera, City: the moat "counts as a river for all
/// practical purposes"). `what` names the link in the message.
///
/// [`Map::link_fits`]: super::map::Map::link_fits
pub(crate) fn link(s: &State, a: AreaId, b: AreaId, what: &str) -> Result<(), String> {
    super::modules::city::crossing(s, a.hex, b.hex)?;
    s.map.link_fits(a, b, what)
}

/// A transporter leaves the game (destroyed, made into another, gone with its
/// exhibition): it is taken off the board, and geese that follow it, being neither
/// carried nor its own, stay on its area. Its cargo is the caller's to place.
pub(crate) fn leave_game(
    s: &mut State,
    id: TransporterId,
) -> Option<super::transporter::Transporter> {
    let t = s.transporters.remove(&id)?;
    if t.following_geese > 0
        && let Ok(area) = home_area(s, t.at)
    {
        s.goods
            .entry(area)
            .or_default()
            .add(Good::Geese, t.following_geese);
    }
    Some(t)
}

/// Where a transporter puts goods down when no area is named: its own area, or the one
/// bank a river can offer.
pub(crate) fn home_area(s: &State, at: Location) -> Result<AreaId, String> {
    match at {
        Location::Land(a) => Ok(a),
        Location::Dock(c) => Ok(c.land),
        Location::Sea(h) if has_oil_rig(s, h) => Ok(AreaId::whole(h)),
        Location::Sea(h) if s.map.terrain(h) == Some(super::map::Terrain::Polder) => {
            Ok(AreaId::whole(h))
        }
        Location::Sea(h) => Err(format!(
            "goods are never left at sea, and there is no {} at {h}",
            // &cetera, art: a pearl fisherman holds goods at sea too.
            if s.settings.modules.contains(&super::state::Module::Art) {
                "oil rig or pearl fisherman"
            } else {
                "oil rig"
            }
        )),
        Location::River(h) => {
            let areas = s.map.areas(h);
            match areas.as_slice() {
                [one] => Ok(*one),
                _ => Err(format!(
                    "from the river in {h} say which bank: {}",
                    areas
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" or ")
                )),
            }
        }
        Location::Carried(t) => Err(format!("it is carried by {t}", t = t.named())),
    }
}

/// An oil rig — or a pearl fisherman (&cetera, art) — is a platform at sea where goods
/// may lie and boats hand them in without docking.
pub(crate) fn has_oil_rig(s: &State, h: Hex) -> bool {
    use super::building::BuildingKind;
    s.buildings_on(h)
        .any(|b| matches!(b.kind, BuildingKind::OilRig | BuildingKind::PearlFisherman))
}

/// Take up to `n` of `good` from the goods lying in `areas`, in order; how many taken.
pub(crate) fn take_lying(s: &mut State, areas: &[AreaId], good: Good, n: u32) -> u32 {
    let mut taken = 0;
    for a in areas {
        if taken == n {
            break;
        }
        if let Some(g) = s.goods.get_mut(a) {
            taken += g.take(good, n - taken);
        }
    }
    taken
}

pub(crate) fn lying(s: &State, areas: &[AreaId]) -> Goods {
    let mut all = Goods::new();
    for a in areas {
        if let Some(g) = s.goods.get(a) {
            all.add_all(g);
        }
    }
    all
}

pub(crate) fn put(s: &mut State, area: AreaId, good: Good, n: u32) {
    s.goods.entry(area).or_default().add(good, n);
}

/// Is a player over a transporter limit (RULINGS R4)? Says which.
pub(crate) fn over_limit(s: &State, player: Colour) -> Option<String> {
    s.limit_broken(player)
        .map(|(n, max, what)| format!("{player} would have {n} {what}; the limit is {max}"))
}

/// Goods lying in an area that one of a player's transporters moved this phase, keyed by
/// (area, player, the transporter that moved them) (RULINGS R5: no good may be moved by
/// two transporters of the same player in one movement phase).
pub(crate) type Moved = BTreeMap<(AreaId, Colour, TransporterId), Goods>;

/// Hand goods from one transporter to another where both are (RULINGS R5; rulebook,
/// production and movement: transporters exchange goods if their owners want them to):
/// to one's own freely, to another player's only as far as that player's orders accept
/// them. Returns what was handed over; shortfalls are reported.
pub(crate) fn hand_over(
    ctx: &mut Ctx,
    id: TransporterId,
    to: TransporterId,
    goods: &Goods,
) -> Goods {
    let (Some(a), Some(b)) = (
        ctx.s.transporters.get(&id).cloned(),
        ctx.s.transporters.get(&to).cloned(),
    ) else {
        ctx.fail(format!("there is no transporter {to}", to = to.named()));
        return Goods::new();
    };
    if id == to {
        ctx.fail(format!("{id} cannot hand goods to itself", id = id.named()));
        return Goods::new();
    }
    let together = a.at == b.at || {
        let ra = reach_of(&ctx.s, a.at);
        reach_of(&ctx.s, b.at).iter().any(|x| ra.contains(x))
    };
    if !together || matches!(b.at, Location::Carried(_)) {
        ctx.fail(format!(
            "{to} is not where {id} is",
            to = to.named(),
            id = id.named()
        ));
        return Goods::new();
    }
    if ctx
        .s
        .transporters
        .values()
        .any(|t| t.at == Location::Carried(to))
    {
        ctx.fail(format!("{to} carries a transporter and takes no goods"));
        return Goods::new();
    }
    // What can pass: what the giver has, as far as the receiver has room (a caravan
    // takes artwork only, one of each kind).
    let mut aboard = b.cargo.clone();
    let mut can = Goods::new();
    // Why the receiver took less than the giver had: its own rule, or its room.
    let mut no_room = None;
    for (g, n) in goods.iter() {
        let has = n.min(a.cargo.count(g));
        let k = has.min(b.kind.room_for(&aboard, g));
        aboard.add(g, k);
        can.add(g, k);
        if k < has && no_room.is_none() {
            no_room = Some(b.kind.no_room_for(&aboard, g, k));
        }
    }
    let room = b.kind.capacity().saturating_sub(aboard.total());
    let given = if a.owner == b.owner {
        can.clone()
    } else {
        ctx.consents.accept(a.owner, to, b.owner, &can)
    };
    for (g, n) in given.iter() {
        if let Some(t) = ctx.s.transporters.get_mut(&id) {
            t.cargo.take(g, n);
        }
        if let Some(t) = ctx.s.transporters.get_mut(&to) {
            t.cargo.add(g, n);
        }
    }
    if !given.is_empty() {
        ctx.emit(Fact::Gave {
            from: id,
            to,
            goods: given.clone(),
        });
    }
    if given.total() < goods.total() {
        let why = if given.total() < can.total() {
            if given.is_empty() {
                format!(
                    "{} has not accepted goods from {} ({})",
                    b.owner,
                    a.owner,
                    consent::how_to_accept(b.owner, a.owner, &ctx.phase.to_string())
                )
            } else {
                format!("{} accepts no more", b.owner)
            }
        } else if let (Some(why), Kind::Caravan) = (&no_room, b.kind) {
            format!(
                "{to} {}",
                why.trim_start_matches("a caravan "),
                to = to.named()
            )
        } else if can.total() < goods.total() && room == 0 {
            format!("{to} has no more room", to = to.named())
        } else {
            format!("{id} does not carry it all", id = id.named())
        };
        let msg = format!(
            "{id} gave {given} of {goods} to {to}: {why}",
            id = id.named(),
            to = to.named()
        );
        if given.is_empty() {
            ctx.fail(msg)
        } else {
            ctx.short(msg)
        }
    }
    given
}

/// Pick up a transporter to carry it (Quick Guide III): the carrier is the player's and
/// not a plane; the carried one is the player's, or its owner allows it (consent); they
/// are together; the carried one has not moved this phase; neither carries anything
/// else. Returns whether it was picked up; a refusal is reported.
pub(crate) fn pick_up(
    ctx: &mut Ctx,
    id: TransporterId,
    other: TransporterId,
    other_moved: bool,
) -> bool {
    let (Some(a), Some(b)) = (
        ctx.s.transporters.get(&id).cloned(),
        ctx.s.transporters.get(&other).cloned(),
    ) else {
        ctx.fail(format!(
            "there is no transporter {other}",
            other = other.named()
        ));
        return false;
    };
    let problem = if id == other {
        Some(format!("{id} cannot carry itself", id = id.named()))
    } else if let Some(why) = a.kind.carries_no_transporter() {
        Some(why.to_string())
    } else if b.owner != a.owner && !ctx.consents.may_carry(a.owner, other, b.owner) {
        Some(format!(
            "{other} is {}'s, and {} has not allowed you to carry it ({})",
            b.owner,
            b.owner,
            consent::how_to_allow_carry(other, a.owner),
            other = other.named()
        ))
    } else if let Location::Carried(by) = b.at {
        Some(format!(
            "{other} is already carried, by {by}",
            other = other.named(),
            by = by.named()
        ))
    } else if a.at != b.at && {
        // A boat in the river reaches the banks; a transporter on a bank the river.
        let ra = reach_of(&ctx.s, a.at);
        !reach_of(&ctx.s, b.at).iter().any(|x| ra.contains(x))
    } {
        Some(format!(
            "{other} is not where {id} is",
            other = other.named(),
            id = id.named()
        ))
    } else if other_moved {
        Some(format!(
            "{other} has moved this phase and cannot be carried",
            other = other.named()
        ))
    } else if !a.cargo.is_empty() || !b.cargo.is_empty() {
        Some("neither transporter may carry anything else".to_string())
    } else if ctx
        .s
        .transporters
        .values()
        .any(|t| t.at == Location::Carried(id) || t.at == Location::Carried(other))
    {
        Some(
            "a transporter carries one transporter at a time, and a carried one carries nothing"
                .to_string(),
        )
    } else {
        None
    };
    if let Some(p) = problem {
        ctx.fail(format!(
            "{id} cannot pick up {other}: {p}",
            id = id.named(),
            other = other.named()
        ));
        return false;
    }
    if let Some(t) = ctx.s.transporters.get_mut(&other) {
        t.at = Location::Carried(id);
    }
    ctx.emit(Fact::PickedUp {
        carrier: id,
        carried: other,
    });
    true
}
