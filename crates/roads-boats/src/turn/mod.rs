//! The turn in hand: what every phase and every module works on while a turn is
//! resolved, and the rules they share — the working state ([`Ctx`]: the state, whose
//! order, the events so far, the turn's mine draws, the consents, the modules' notes),
//! what a transporter reaches, goods lying and handed over, carrying, loading, paying
//! for a building ([`purse`]), and what the movement phase remembers ([`moving`]).
//!
//! It sits below both the phases (`crate::resolve`) and the modules (`crate::modules`):
//! it imports neither, so that a module's rules and the phases that call them meet here
//! and never in a circle.

pub(crate) mod consent;
pub(crate) mod moving;
pub(crate) mod purse;

use std::any::{Any, TypeId};
use std::collections::BTreeMap;

use crate::events::{Event, Fact, Reason};
use crate::goods::{Good, Goods};
use crate::map::{AreaId, Hex};
use crate::player::Colour;
use crate::refusal::{Limit, NoPickUp, NotGiven, Refusal, Short};
use crate::rng::MINES;
use crate::state::{Phase, State};
use crate::transporter::{Kind, Location, TransporterId};

pub(crate) use purse::{Purse, building_at, one};

/// What the modules note during a turn for its later steps; gone at the end of it. One
/// place per module, each of a type the module defines in its own file
/// (`modules::electricity::Notes`, `modules::management::Notes`, `modules::trade::Notes`):
/// the turn in hand imports no module, so it keeps each module's notes by their type.
/// Never serialised, never iterated: only a module reads its own.
#[derive(Default)]
pub struct Notes(BTreeMap<TypeId, Box<dyn Any>>);

impl Notes {
    /// A module's notes, if it has noted anything this turn.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.get(&TypeId::of::<T>())?.downcast_ref()
    }

    /// Set a module's notes (fresh ones, at the start of its step).
    pub fn put<T: Any>(&mut self, notes: T) {
        self.0.insert(TypeId::of::<T>(), Box::new(notes));
    }

    /// Change a module's notes, empty ones if it has noted nothing yet.
    pub fn with<T: Any + Default, R>(&mut self, f: impl FnOnce(&mut T) -> R) -> R {
        let id = TypeId::of::<T>();
        if let Some(notes) = self.0.get_mut(&id).and_then(|b| b.downcast_mut::<T>()) {
            return f(notes);
        }
        let mut notes = T::default();
        let out = f(&mut notes);
        self.0.insert(id, Box::new(notes));
        out
    }
}

impl std::fmt::Debug for Notes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Notes({} modules)", self.0.len())
    }
}

/// How far a transporter's move had gone when one event of its order came about: the
/// event's index and the number of places of its path it had been through. A move is
/// one [`Fact::Moved`] in the record, emitted when the order is done; these marks let
/// `judge check` tell the steps in the order they happen ("moved", "unloaded", "moved
/// on"). Never part of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathMark {
    pub event: usize,
    pub transporter: TransporterId,
    pub reached: usize,
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
    pub notes: Notes,
    /// The turn's random mine draws.
    pub mines: judge_core::luck::Rng,
    /// Where each move stood at the events of its steps (for the check's echo).
    pub marks: Vec<PathMark>,
}

impl Ctx {
    pub(crate) fn new(s: State, luck: &judge_core::luck::Luck) -> Ctx {
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
            notes: Notes::default(),
            marks: Vec::new(),
        }
    }

    /// The state and the events the turn ends with.
    pub(crate) fn into_parts(self) -> (State, Vec<Event>, Vec<PathMark>) {
        (self.s, self.events, self.marks)
    }

    pub fn emit(&mut self, fact: Fact) {
        self.events.push(Event {
            phase: self.phase,
            player: self.player,
            line: self.line,
            fact,
        });
    }

    /// The current order did nothing, for `reason`, a [`Refusal`] (or a module's, which
    /// becomes one); the event keeps it, and the record its words.
    pub fn fail(&mut self, reason: impl Into<Refusal>) {
        self.emit(Fact::Failed {
            reason: Reason::Refused(reason.into()),
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
    pub fn own(&self, id: TransporterId) -> Result<(), Refusal> {
        let me = self.player;
        match self.s.transporters.get(&id) {
            None => Err(Refusal::NoTransporter { id: id.named() }),
            Some(t) if Some(t.owner) != me => Err(Refusal::NotYours {
                id: id.named(),
                owner: t.owner,
            }),
            Some(t) if matches!(t.at, Location::Carried(_)) => {
                Err(Refusal::BeingCarried { id: id.named() })
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
pub(crate) fn home_area(s: &State, at: Location) -> Result<AreaId, Refusal> {
    match at {
        Location::Land(a) => Ok(a),
        Location::Dock(c) => Ok(c.land),
        Location::Sea(h) if has_oil_rig(s, h) => Ok(AreaId::whole(h)),
        Location::Sea(h) if s.map.terrain(h) == Some(super::map::Terrain::Polder) => {
            Ok(AreaId::whole(h))
        }
        Location::Sea(hex) => Err(Refusal::GoodsAtSea {
            hex,
            // &cetera, art: a pearl fisherman holds goods at sea too.
            art: s.settings.modules.contains(&super::state::Module::Art),
        }),
        Location::River(hex) => {
            let banks = s.map.areas(hex);
            match banks.as_slice() {
                [one] => Ok(*one),
                _ => Err(Refusal::WhichBank { hex, banks }),
            }
        }
        Location::Carried(t) => Err(Refusal::CarriedBy { by: t.named() }),
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
pub(crate) fn over_limit(s: &State, player: Colour) -> Option<Limit> {
    s.limit_broken(player).map(|(n, max, what)| Limit {
        player,
        n,
        max,
        what,
    })
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
        ctx.fail(Refusal::NoTransporter { id: to.named() });
        return Goods::new();
    };
    if id == to {
        ctx.fail(Refusal::HandToItself { id: id.named() });
        return Goods::new();
    }
    let together = a.at == b.at || {
        let ra = reach_of(&ctx.s, a.at);
        reach_of(&ctx.s, b.at).iter().any(|x| ra.contains(x))
    };
    if !together || matches!(b.at, Location::Carried(_)) {
        ctx.fail(Refusal::NotWhere {
            other: to.named(),
            id: id.named(),
        });
        return Goods::new();
    }
    if ctx
        .s
        .transporters
        .values()
        .any(|t| t.at == Location::Carried(to))
    {
        ctx.fail(Refusal::CarrierTakesNoGoods { to });
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
                NotGiven::NotAccepted {
                    owner: b.owner,
                    giver: a.owner,
                    phase: ctx.phase,
                }
            } else {
                NotGiven::AcceptsNoMore { owner: b.owner }
            }
        } else if let (Some(why), Kind::Caravan) = (no_room, b.kind) {
            NotGiven::CaravanRule {
                to: to.named(),
                why,
            }
        } else if can.total() < goods.total() && room == 0 {
            NotGiven::NoMoreRoom { to: to.named() }
        } else {
            NotGiven::NotCarried { id: id.named() }
        };
        let refusal = Refusal::GaveNone {
            id: id.named(),
            given: given.clone(),
            goods: goods.clone(),
            to: to.named(),
            why,
        };
        if given.is_empty() {
            ctx.fail(refusal)
        } else {
            ctx.short(refusal)
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
        ctx.fail(Refusal::NoTransporter { id: other.named() });
        return false;
    };
    let problem = if id == other {
        Some(NoPickUp::Itself { id: id.named() })
    } else if let Some(why) = a.kind.carries_no_transporter() {
        Some(NoPickUp::CarriesNone(why))
    } else if b.owner != a.owner && !ctx.consents.may_carry(a.owner, other, b.owner) {
        Some(NoPickUp::NotAllowed {
            other: other.named(),
            owner: b.owner,
            carrier: a.owner,
            id: other,
        })
    } else if let Location::Carried(by) = b.at {
        Some(NoPickUp::AlreadyCarried {
            other: other.named(),
            by: by.named(),
        })
    } else if a.at != b.at && {
        // A boat in the river reaches the banks; a transporter on a bank the river.
        let ra = reach_of(&ctx.s, a.at);
        !reach_of(&ctx.s, b.at).iter().any(|x| ra.contains(x))
    } {
        Some(NoPickUp::NotWhere {
            other: other.named(),
            id: id.named(),
        })
    } else if other_moved {
        Some(NoPickUp::Moved {
            other: other.named(),
        })
    } else if !a.cargo.is_empty() || !b.cargo.is_empty() {
        Some(NoPickUp::Laden)
    } else if ctx
        .s
        .transporters
        .values()
        .any(|t| t.at == Location::Carried(id) || t.at == Location::Carried(other))
    {
        Some(NoPickUp::OneAtATime)
    } else {
        None
    };
    if let Some(why) = problem {
        ctx.fail(Refusal::CannotPickUp {
            id: id.named(),
            other: other.named(),
            why,
        });
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

/// Load goods lying within reach onto a transporter (production and movement alike).
pub(crate) fn load_goods(
    ctx: &mut Ctx,
    id: TransporterId,
    goods: &Goods,
    area: Option<AreaId>,
    exclude: &Goods,
) -> Goods {
    let mut areas = reach(&ctx.s, id);
    if let Some(a) = area {
        if !areas.contains(&a) {
            ctx.fail(Refusal::CannotReach {
                id: id.named(),
                area: a,
            });
            return Goods::new();
        }
        areas = vec![a];
    }
    if !ctx.s.transporters.contains_key(&id) {
        return Goods::new();
    }
    if ctx
        .s
        .transporters
        .values()
        .any(|t| t.at == Location::Carried(id))
    {
        ctx.fail(Refusal::CarrierLoadsNothing { id: id.named() });
        return Goods::new();
    }
    let kind = ctx.s.transporters.get(&id).map(|t| t.kind);
    let mut aboard = ctx
        .s
        .transporters
        .get(&id)
        .map(|t| t.cargo.clone())
        .unwrap_or_default();
    let mut got = Goods::new();
    let mut missing = Vec::new();
    for (good, n) in goods.iter() {
        let available = lying(&ctx.s, &areas)
            .count(good)
            .saturating_sub(exclude.count(good));
        let room = kind.map_or(0, |k| k.room_for(&aboard, good));
        let want = n.min(room);
        let k = take_lying(&mut ctx.s, &areas, good, want.min(available));
        aboard.add(good, k);
        got.add(good, k);
        if k < n {
            missing.push(match kind {
                Some(kind) if want <= available => kind.no_room_for(&aboard, good, k),
                _ => Short::NoMoreThere {
                    good,
                    there: available,
                },
            });
        }
    }
    if let Some(t) = ctx.s.transporters.get_mut(&id) {
        t.cargo.add_all(&got);
    }
    let at = areas.first().copied();
    if !got.is_empty()
        && let Some(at) = at
    {
        ctx.emit(Fact::Loaded {
            transporter: id,
            goods: got.clone(),
            at,
        });
    }
    if !missing.is_empty() {
        let refusal = Refusal::LoadedNone {
            id: id.named(),
            got: got.clone(),
            missing,
        };
        if got.is_empty() {
            ctx.fail(refusal)
        } else {
            ctx.short(refusal)
        }
    }
    got
}

/// Own transporters on the home tile's side, whose cargo may pay for bricks.
pub(crate) fn at_home(ctx: &Ctx, player: Colour, home: AreaId) -> Vec<TransporterId> {
    ctx.s
        .transporters_of(player)
        .filter(|(id, _)| reach(&ctx.s, **id).contains(&home))
        .map(|(id, _)| *id)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Notes;

    #[derive(Debug, Default, PartialEq)]
    struct Powered(Vec<u32>);
    #[derive(Debug, Default, PartialEq)]
    struct Managed(Vec<u32>);

    /// Each module's notes are kept apart by their type: `with` starts
    /// from empty notes and keeps what it wrote, `put` replaces them (a fresh start), and
    /// one module's notes are never another's.
    #[test]
    fn each_module_keeps_its_own_notes() {
        let mut notes = Notes::default();
        assert_eq!(notes.get::<Powered>(), None);
        notes.with(|p: &mut Powered| p.0.push(1));
        notes.with(|p: &mut Powered| p.0.push(2));
        assert_eq!(notes.get::<Powered>(), Some(&Powered(vec![1, 2])));
        assert_eq!(notes.get::<Managed>(), None);
        let n = notes.with(|m: &mut Managed| {
            m.0.push(7);
            m.0.len()
        });
        assert_eq!(n, 1);
        notes.put(Powered::default());
        assert_eq!(notes.get::<Powered>(), Some(&Powered(vec![])));
        assert_eq!(notes.get::<Managed>(), Some(&Managed(vec![7])));
        assert_eq!(format!("{notes:?}"), "Notes(2 modules)");
    }
}
