//! The optional rules modules: Planes & Trains' three and &cetera's others, each in a
//! file of its own (`&cetera`: "We have divided the optional rules into 11 modules, which
//! are described one by one below").
//!
//! Each file declares what its module adds to the game — buildings, goods, transporters,
//! terrains, orders — and the steps it adds to the phases, as a [`Plugin`]. The phases
//! call those steps through one table, [`PLUGINS`], for the modules a game plays with;
//! nothing else needs to know which modules exist. A scenario that names a module with no
//! entry here is refused when it is read.

pub mod art;
pub mod bombs;
pub mod city;
pub mod electricity;
pub mod fundamental_research;
pub mod jumpstart;
pub mod management;
pub mod planes;
pub mod polder;
pub mod trade;
pub mod trains;

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};
use strum::{IntoStaticStr, VariantArray};

use super::building::{Building, BuildingKind};
use super::goods::Good;
use super::map::{Dir, Hex, Terrain};
use super::order_text::{R, Reader};
use super::orders::TurnOrders;
use super::player::{Colour, Research};
use super::refusal::{Link, Refusal};
use super::scenario::raw::RawStart;
use super::scenario::{Scenario, Seat, StartError};
use super::state::{Phase, Settings, State};
use super::transporter::{Class, Kind, Location};
use crate::turn::Ctx;
use crate::turn::moving::Phase as Movement;
use judge_core::luck::Luck;

/// Optional rules: Planes & Trains' three and &cetera's others — the closed set the
/// rulebook fixes, each a variant here, a name a scenario writes in `modules = [...]`,
/// and an entry in [`PLUGINS`]. Its names (serde's, strum's and [`Module::name`]) are one
/// table, derived from the enum.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    VariantArray,
    IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Module {
    Planes,
    Trains,
    Bombs,
    Electricity,
    Management,
    Art,
    Trade,
    Polder,
    City,
    Jumpstart,
    FundamentalResearch,
}

impl Module {
    /// Every module, in the rulebooks' order: the enum's own list (a wrong length fails
    /// the build).
    #[allow(clippy::panic, reason = "a constant: a wrong length fails the build")]
    pub const ALL: [Module; 11] = match <Module as VariantArray>::VARIANTS.as_array() {
        Some(all) => *all,
        None => panic!("Module::ALL holds every variant"),
    };

    pub fn name(self) -> &'static str {
        self.into()
    }
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one module adds, and the steps of the phases it takes part in.
pub struct Plugin {
    pub module: Module,
    /// Where its rules are written.
    pub rule: &'static str,
    pub buildings: &'static [BuildingKind],
    pub goods: &'static [Good],
    pub transporters: &'static [Kind],
    pub terrains: &'static [Terrain],
    /// The orders it adds, each with its phase, its leading words as written (`fire`,
    /// `power line`), its reader and an example: the one place they are declared. The
    /// reader, its messages and the test of
    /// docs/orders.md take them from here ([`crate::order_words`], `read`); a module
    /// that only widens an order of the base game (`bridge C3 over N`, `make carving`)
    /// adds none.
    pub orders: &'static [Grammar],
    /// The words of the lines it adds before turn 1, outside any phase (`bid`).
    pub before_turn_one: &'static [&'static str],
    /// The steps it adds to the phases, in words (docs/rules.md).
    pub steps: &'static [(Phase, &'static str)],
    /// Lines it adds to the plain-text map's legend.
    pub map_legend: &'static [&'static str],
    pub hooks: Hooks,
}

/// A rule on a transporter of a class at a place (hooks `leaving`, `entering`).
type PlaceRule = fn(&State, Class, Location) -> Result<(), Refusal>;
/// A rule on a border between two tiles (hook `crossing`).
type BorderRule = fn(&State, Hex, Hex) -> Result<(), Refusal>;
/// A rule on a wall built from a tile toward its neighbour (hook `wall_from`).
type WallRule = fn(&State, Hex, Hex, Dir) -> Result<(), Refusal>;
/// A step after a good is made from unattended goods (hook `leftover_made`).
type LeftoverStep = fn(&mut Ctx, &Building, Good, &[BuildingKind]);
/// Why a research subject is refused in a game (hook `research_refused`).
type ResearchRule = fn(&Settings, Research) -> Option<&'static str>;
/// What a research point costs, in geese (hook `research_geese`).
type ResearchCost = fn(&BTreeSet<Research>) -> Option<u32>;

/// The points in a turn where a module's own rules run. A module leaves the rest `None`.
#[derive(Clone, Copy)]
pub struct Hooks {
    /// Production, after reproduction and before primary producers produce.
    pub(crate) before_primary: Option<fn(&mut Ctx, &TurnOrders)>,
    /// Production: how many goods a primary producer puts out this turn (1 by default;
    /// the largest any module gives counts).
    pub(crate) primary_yield: Option<fn(&Ctx, &Building) -> u32>,
    /// Production: the good a primary producer puts out, one at a time, instead of its
    /// own (art: a quarry's marble).
    pub(crate) primary_good: Option<fn(&Ctx, &Building, Good) -> Good>,
    /// Production, before the players' orders: set up what holds for the whole phase.
    pub(crate) before_orders: Option<fn(&mut Ctx, &TurnOrders)>,
    /// Production: a secondary producer's capacity this turn, from its printed one.
    pub(crate) capacity: Option<fn(&Ctx, &Building, u32) -> u32>,
    /// Wonder phase, before the bricks.
    pub(crate) before_bricks: Option<fn(&mut Ctx, &TurnOrders)>,
    /// Wonder phase, after bricks are placed (a player's order, or the neutral brick):
    /// the places they took (from 0), in the order placed, so that a module sees each
    /// brick, not only the last.
    pub(crate) after_bricks: Option<fn(&mut Ctx, std::ops::Range<usize>)>,
    /// Movement: a transporter has ended a move (on foot, on water or by train).
    pub(crate) after_move: Option<fn(&mut Ctx, super::transporter::TransporterId)>,
    /// Points added to (or taken from) a player's final score.
    pub(crate) score: Option<fn(&State, Colour) -> i64>,
    /// Movement: may a transporter of this class leave where it is (polder: stranded by
    /// the tide)? Every way of leaving asks: a step, a sail, the train.
    pub(crate) leaving: Option<PlaceRule>,
    /// Movement: may a transporter of this class come to this place? Every way of
    /// arriving asks.
    pub(crate) entering: Option<PlaceRule>,
    /// Is this land tile sea now, for boats and taxiing planes (polder: flooded)?
    pub(crate) sea_now: Option<fn(&State, Hex) -> bool>,
    /// Is this land tile ringed by water that counts as a river on every side (city: its
    /// moat)? Boats sail onto it, boats are launched onto it, a bridge crosses it.
    pub(crate) moat: Option<fn(&State, Hex) -> bool>,
    /// May a link (a step, a road, a power line, a track) cross the border between these
    /// two tiles (city: over the moat only by its bridge)?
    pub(crate) crossing: Option<BorderRule>,
    /// Building: may a wall be built from this tile toward its neighbour in `Dir` (city:
    /// only where a moat bridge stands)?
    pub(crate) wall_from: Option<WallRule>,
    /// Production, step 4: where a building comes among its tile's buildings when they
    /// process unattended goods (city: the listed order); 0 by default.
    pub(crate) leftover_rank: Option<fn(&State, &Building) -> Option<usize>>,
    /// Production, step 4: a building has made this good from unattended goods; `later`
    /// are the kinds of its tile's producers still to process (management: a manager
    /// made in a city works at once).
    pub(crate) leftover_made: Option<LeftoverStep>,
    /// A scenario's starting position is read: set what the module derives from it
    /// (polder: the tide, from the wonder).
    pub(crate) settle: Option<fn(&mut State)>,
    /// The picture and the plain-text map: how a tile looks now, if the module says
    /// (polder: a flooded one).
    pub(crate) look: Option<fn(&State, Hex) -> Option<Look>>,
    /// Production: why a research subject cannot be researched in a game with these
    /// settings, if it cannot (fundamental research: only with its module). Asked of
    /// every module, in play or not: a subject a module adds is refused without it.
    pub(crate) research_refused: Option<ResearchRule>,
    /// Production: the geese a research point costs a player who has researched these
    /// subjects, if the module says (fundamental research: 1 once researched). Asked of
    /// every module: a subject once researched keeps its effect.
    pub(crate) research_geese: Option<ResearchCost>,
    /// The random map generator: put the module's terrains on the map in the making
    /// (polder: on the coast; city: on pastures), for a map made with the module.
    pub(crate) generate: Option<fn(&mut Draft<'_>)>,
    /// The scenario reader: read the module's own keys of `[start]` into [`Start`]
    /// (jumpstart: its lots). Asked of every module, in play or not: a key a module adds
    /// is refused without it.
    pub(crate) read_start: Option<fn(&mut StartKeys<'_>)>,
    /// Starting a game at turn 0: why this scenario cannot, if the module starts it with
    /// a round of its own (jumpstart: the auction of its lots).
    pub(crate) start_refused: Option<fn(&Scenario) -> Option<StartError>>,
    /// The turn-0 state, the module's round before turn 1 played by default, if the
    /// scenario starts with one (jumpstart: default bids).
    pub(crate) start_by_default: Option<StartByDefault>,
    /// The template's echo of where a transporter can get this turn: a line of its own
    /// for a way of moving the module adds (planes: where it may fly; trains: where it
    /// may ride, and the fare), `None` if it has none for this transporter. Asked of
    /// every module, in play or not.
    pub(crate) reach_line: Option<fn(&State, super::transporter::TransporterId) -> Option<String>>,
}

/// The turn-0 state, a module's round before turn 1 played by default (hook
/// `start_by_default`).
type StartByDefault = fn(&Scenario, &[Seat], &Luck) -> Option<Result<State, StartError>>;

/// What the modules read from a scenario's `[start]` and keep with the scenario for the
/// start of a game: one field per module that reads a key, its type its own.
#[derive(Clone, Debug, Default)]
pub struct Start {
    /// Jumpstart: the lots auctioned before turn 1.
    pub(crate) jumpstart: Option<Vec<jumpstart::Lot>>,
}

/// A scenario's `[start]` as a module reads it (hook `read_start`).
pub(crate) struct StartKeys<'a> {
    pub start: &'a RawStart,
    /// The position is past the start (a turn played, or bids written down).
    pub started: bool,
    pub colours: &'a [Colour],
    /// The position read so far: the map, the settings, the wonder.
    pub state: &'a State,
    pub problems: &'a mut Vec<judge_core::diagnostic::Diagnostic>,
    /// What the modules read.
    pub read: &'a mut Start,
}

/// The random map generator's map in the making, as a module's `generate` hook sees it.
pub(crate) struct Draft<'a> {
    /// The land tiles and their terrains.
    pub land: &'a mut std::collections::BTreeMap<Hex, Terrain>,
    /// The land tiles free for a module's terrain, in order: no home, no home's
    /// neighbour, no river tile.
    pub free: &'a [Hex],
    /// Of those, the ones with the sea beside them.
    pub coast: &'a BTreeSet<Hex>,
    pub rng: &'a mut judge_core::luck::Rng,
    pub players: usize,
}

/// How a module draws a tile: its fill and legend name in the picture, its four
/// letters on the plain-text map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    pub fill: judge_core::picture::Rgb,
    pub name: &'static str,
    pub word: &'static str,
}

impl Hooks {
    pub const NONE: Hooks = Hooks {
        before_primary: None,
        primary_yield: None,
        primary_good: None,
        before_orders: None,
        capacity: None,
        before_bricks: None,
        after_bricks: None,
        after_move: None,
        score: None,
        leaving: None,
        entering: None,
        sea_now: None,
        moat: None,
        crossing: None,
        wall_from: None,
        leftover_rank: None,
        leftover_made: None,
        settle: None,
        look: None,
        generate: None,
        research_refused: None,
        research_geese: None,
        read_start: None,
        start_refused: None,
        start_by_default: None,
        reach_line: None,
    };
}

/// Every module with code, in the rulebook's order.
pub static PLUGINS: &[&Plugin] = &[
    &fundamental_research::PLUGIN,
    &planes::PLUGIN,
    &trains::PLUGIN,
    &bombs::PLUGIN,
    &electricity::PLUGIN,
    &management::PLUGIN,
    &trade::PLUGIN,
    &polder::PLUGIN,
    &city::PLUGIN,
    &art::PLUGIN,
    &jumpstart::PLUGIN,
];

/// The plug-in of a module, `None` if it has no code.
pub fn plugin(module: Module) -> Option<&'static Plugin> {
    PLUGINS.iter().copied().find(|p| p.module == module)
}

/// The plug-ins of the modules a game plays with.
pub fn in_play(s: &State) -> impl Iterator<Item = &'static Plugin> + '_ {
    PLUGINS
        .iter()
        .copied()
        .filter(|p| s.settings.modules.contains(&p.module))
}

/// The module a building belongs to, if any.
pub fn of_building(kind: BuildingKind) -> Option<Module> {
    PLUGINS
        .iter()
        .find(|p| p.buildings.contains(&kind))
        .map(|p| p.module)
}

/// The module a good belongs to, if any.
pub fn of_good(good: Good) -> Option<Module> {
    PLUGINS
        .iter()
        .find(|p| p.goods.contains(&good))
        .map(|p| p.module)
}

/// The module a kind of transporter belongs to, if any.
pub fn of_transporter(kind: Kind) -> Option<Module> {
    PLUGINS
        .iter()
        .find(|p| p.transporters.contains(&kind))
        .map(|p| p.module)
}

/// The module a terrain belongs to, if any.
pub fn of_terrain(t: Terrain) -> Option<Module> {
    PLUGINS
        .iter()
        .find(|p| p.terrains.contains(&t))
        .map(|p| p.module)
}

/// One kind of hook of every module in play that has it, in table order, taken out of
/// the state first, so that each may then change the state it was picked from.
fn picked<F>(s: &State, pick: impl Fn(&Hooks) -> Option<F>) -> Vec<F> {
    in_play(s).filter_map(|p| pick(&p.hooks)).collect()
}

/// Run one kind of step for every module in play, in table order.
/// A step that takes the turn's orders.
type OrdersStep = fn(&mut Ctx, &TurnOrders);

pub(crate) fn each(ctx: &mut Ctx, orders: &TurnOrders, pick: fn(&Hooks) -> Option<OrdersStep>) {
    for h in picked(&ctx.s, pick) {
        h(ctx, orders);
    }
}

/// How many goods a primary producer puts out this turn: 1, or more where a module says.
pub(crate) fn primary_yield(ctx: &Ctx, b: &Building) -> u32 {
    in_play(&ctx.s)
        .filter_map(|p| p.hooks.primary_yield)
        .map(|f| f(ctx, b))
        .max()
        .unwrap_or(1)
        .max(1)
}

/// The good a primary producer puts out next, `own` unless a module says otherwise.
pub(crate) fn primary_good(ctx: &Ctx, b: &Building, own: Good) -> Good {
    in_play(&ctx.s)
        .filter_map(|p| p.hooks.primary_good)
        .fold(own, |g, f| f(ctx, b, g))
}

/// A secondary producer's capacity this turn.
pub(crate) fn capacity(ctx: &Ctx, b: &Building, printed: u32) -> u32 {
    in_play(&ctx.s)
        .filter_map(|p| p.hooks.capacity)
        .fold(printed, |c, f| f(ctx, b, c))
}

/// After bricks are placed on the wonder, at these places.
pub(crate) fn after_bricks(ctx: &mut Ctx, places: std::ops::Range<usize>) {
    for h in picked(&ctx.s, |k| k.after_bricks) {
        h(ctx, places.clone());
    }
}

/// A transporter has ended a move.
pub(crate) fn after_move(ctx: &mut Ctx, id: super::transporter::TransporterId) {
    for h in picked(&ctx.s, |k| k.after_move) {
        h(ctx, id);
    }
}

/// What the modules in play add to a player's score.
pub fn score(s: &State, player: Colour) -> i64 {
    in_play(s)
        .filter_map(|p| p.hooks.score)
        .map(|f| f(s, player))
        .sum()
}

// ---- Orders: a module's orders are its own type, read by the
// grammar it registers in its `Plugin::orders` and carried out through one door,
// [`carry_out`]. The phases' orders hold them in one variant each (`ProductionOrder::
// Module`); the reader, the word lists and the phases' help take them from here. ----

/// One order a module adds: its phase, its leading words as written (`fire`, `power
/// line`: the first is the verb a line starts with), how the rest of the line reads, and
/// a line a player writes (docs/orders.md).
pub struct Grammar {
    pub phase: Phase,
    pub words: &'static str,
    /// Reads the order after its verb (the reader stands on the word after it).
    pub(crate) read: fn(&mut Reader<'_>) -> R<Order>,
    pub example: &'static str,
}

/// A module's order, as the phases hold it: one variant per module with orders (the
/// registration line). Each module's own type is tagged with its order word, as the
/// phases' orders are (`{"order": "fire", …}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Order {
    Planes(planes::Order),
    Trains(trains::Order),
    Bombs(bombs::Order),
    Electricity(electricity::Order),
    Management(management::Order),
    Trade(trade::Order),
}

impl fmt::Display for Order {
    /// The plain-language echo of the order (`judge check`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Planes(o) => o.fmt(f),
            Order::Trains(o) => o.fmt(f),
            Order::Bombs(o) => o.fmt(f),
            Order::Electricity(o) => o.fmt(f),
            Order::Management(o) => o.fmt(f),
            Order::Trade(o) => o.fmt(f),
        }
    }
}

/// Why a module refused an order: each module's own refusal type, in its file; a
/// [`crate::Refusal`] carries it (`Refusal::Module`), so `ctx.fail` takes it as it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModuleRefusal {
    #[error(transparent)]
    Planes(planes::PlaneRefusal),
    #[error(transparent)]
    Trains(trains::TrainRefusal),
    #[error(transparent)]
    Electricity(electricity::PowerRefusal),
    #[error(transparent)]
    Management(management::ManagementRefusal),
    #[error(transparent)]
    Trade(trade::TradeRefusal),
}

macro_rules! refusal_of {
    ($($module:ident::$refusal:ident => $variant:ident),* $(,)?) => {$(
        impl From<$module::$refusal> for Refusal {
            fn from(refusal: $module::$refusal) -> Self {
                Refusal::Module(ModuleRefusal::$variant(refusal))
            }
        }
    )*};
}

refusal_of! {
    planes::PlaneRefusal => Planes,
    trains::TrainRefusal => Trains,
    electricity::PowerRefusal => Electricity,
    management::ManagementRefusal => Management,
    trade::TradeRefusal => Trade,
}

/// Where a phase stands when it hands a module's order over.
pub(crate) enum During<'a> {
    Production,
    Movement(&'a mut Movement),
    Building,
    Wonder,
}

/// Carry out a module's order where its phase has come to it (in the player's move
/// order, on its line); an order a module settles at a step of its own (power plants
/// fired, managers at work, trades) does nothing more here.
pub(crate) fn carry_out(ctx: &mut Ctx, during: During<'_>, order: &Order) {
    match order {
        Order::Planes(o) => planes::carry_out(ctx, during, o),
        Order::Trains(o) => trains::carry_out(ctx, during, o),
        Order::Bombs(o) => bombs::carry_out(ctx, o),
        Order::Electricity(o) => electricity::carry_out(ctx, o),
        Order::Management(_) => {}
        Order::Trade(o) => trade::carry_out(ctx, o),
    }
}

impl Order {
    /// `judge check`'s rehearsal of a player's orders alone: the order each other player
    /// is assumed to write with it (a trade's partner writes the mirror), for whom.
    pub(crate) fn assumed_reply(&self, me: Colour) -> Option<(Colour, Order)> {
        match self {
            Order::Trade(o) => o.mirror(me).map(|(c, o)| (c, Order::Trade(o))),
            _ => None,
        }
    }
}

/// Read the module order of `phase` whose verb (`verb`, already read) a module
/// registers, `None` if none does.
pub(crate) fn read(phase: Phase, verb: &str, r: &mut Reader<'_>) -> Option<R<Order>> {
    PLUGINS
        .iter()
        .flat_map(|p| p.orders)
        .find(|g| g.phase == phase && crate::order_words::verb(g.words) == verb)
        .map(|g| (g.read)(r))
}

/// RULINGS R3: "nothing crosses a river on land without a bridge". One rule for every
/// link between areas of two neighbouring tiles — a land transporter's step, a road, a
/// power line (&cetera, Electricity: "Power lines can only cross a river if there is a
/// bridge"), a rail track (R10): its ends meet on the same bank where a river runs along
/// their border (the map's areas, [`Map::link_fits`]), and it crosses no city's moat but
/// by the bridge on that side (&cetera, City: the moat "counts as a river for all
/// practical purposes"). `what` names the link in the message.
///
/// [`Map::link_fits`]: crate::map::Map::link_fits
pub(crate) fn link(
    s: &State,
    a: crate::map::AreaId,
    b: crate::map::AreaId,
    what: Link,
) -> Result<(), Refusal> {
    crossing(s, a.hex, b.hex)?;
    s.map.link_fits(a, b, what)
}

/// May a transporter of `class` leave `at`? (Hook `leaving`.)
pub(crate) fn leaving(s: &State, class: Class, at: Location) -> Result<(), Refusal> {
    in_play(s)
        .filter_map(|p| p.hooks.leaving)
        .try_for_each(|f| f(s, class, at))
}

/// May a transporter of `class` come to `at`? (Hook `entering`.)
pub(crate) fn entering(s: &State, class: Class, at: Location) -> Result<(), Refusal> {
    in_play(s)
        .filter_map(|p| p.hooks.entering)
        .try_for_each(|f| f(s, class, at))
}

/// Is the land tile `hex` sea now? (Hook `sea_now`.)
pub(crate) fn sea_now(s: &State, hex: Hex) -> bool {
    in_play(s)
        .filter_map(|p| p.hooks.sea_now)
        .any(|f| f(s, hex))
}

/// Is `hex` ringed by a moat? (Hook `moat`.)
pub(crate) fn moat(s: &State, hex: Hex) -> bool {
    in_play(s).filter_map(|p| p.hooks.moat).any(|f| f(s, hex))
}

/// May a link cross the border between `a` and `b`? (Hook `crossing`.)
pub(crate) fn crossing(s: &State, a: Hex, b: Hex) -> Result<(), Refusal> {
    in_play(s)
        .filter_map(|p| p.hooks.crossing)
        .try_for_each(|f| f(s, a, b))
}

/// May a wall be built from `hex` toward `other`, its neighbour in `dir`? (Hook
/// `wall_from`.)
pub(crate) fn wall_from(s: &State, hex: Hex, other: Hex, dir: Dir) -> Result<(), Refusal> {
    in_play(s)
        .filter_map(|p| p.hooks.wall_from)
        .try_for_each(|f| f(s, hex, other, dir))
}

/// Where a building comes among its tile's when they process unattended goods: 0
/// unless a module ranks it. (Hook `leftover_rank`.)
pub(crate) fn leftover_rank(s: &State, b: &Building) -> usize {
    in_play(s)
        .filter_map(|p| p.hooks.leftover_rank)
        .find_map(|f| f(s, b))
        .unwrap_or(0)
}

/// A building has made `good` from unattended goods. (Hook `leftover_made`.)
pub(crate) fn leftover_made(ctx: &mut Ctx, b: &Building, good: Good, later: &[BuildingKind]) {
    for h in picked(&ctx.s, |k| k.leftover_made) {
        h(ctx, b, good, later);
    }
}

/// A scenario's starting position has been read. (Hook `settle`.)
pub(crate) fn settle(s: &mut State) {
    for h in picked(s, |k| k.settle) {
        h(s);
    }
}

/// The scenario reader: each module reads its own keys of `[start]`, in table order, in
/// play or not. (Hook `read_start`.)
pub(crate) fn read_start(keys: &mut StartKeys<'_>) {
    for f in PLUGINS.iter().filter_map(|p| p.hooks.read_start) {
        f(keys);
    }
}

/// Why a game of this scenario cannot start at turn 0: a module in play starts it with a
/// round of its own. (Hook `start_refused`.)
pub(crate) fn start_refused(s: &Scenario) -> Option<StartError> {
    in_play(s.setup())
        .filter_map(|p| p.hooks.start_refused)
        .find_map(|f| f(s))
}

/// The turn-0 state of a scenario a module starts with a round of its own, the round
/// played by default; `None` if none does. (Hook `start_by_default`.)
pub(crate) fn start_by_default(
    s: &Scenario,
    seats: &[Seat],
    luck: &Luck,
) -> Option<Result<State, StartError>> {
    in_play(s.setup())
        .filter_map(|p| p.hooks.start_by_default)
        .find_map(|f| f(s, seats, luck))
}

/// Where a transporter can get this turn by the ways of moving the modules add, a line
/// each, in table order (planes' flight, then trains' ride). (Hook `reach_line`, asked
/// of every module.)
pub(crate) fn reach_lines(s: &State, id: super::transporter::TransporterId) -> Vec<String> {
    PLUGINS
        .iter()
        .filter_map(|p| p.hooks.reach_line)
        .filter_map(|f| f(s, id))
        .collect()
}

/// The random map generator, for a map made with `modules`: each module's terrains, in
/// table order. (Hook `generate`.)
pub(crate) fn generate(modules: &[Module], draft: &mut Draft<'_>) {
    for p in PLUGINS.iter().filter(|p| modules.contains(&p.module)) {
        if let Some(f) = p.hooks.generate {
            f(draft);
        }
    }
}

/// May `subject` be researched in a game with these settings? (Hook
/// `research_refused`, asked of every module.)
pub(crate) fn research_allowed(settings: &Settings, subject: Research) -> Result<(), &'static str> {
    match PLUGINS
        .iter()
        .filter_map(|p| p.hooks.research_refused)
        .find_map(|f| f(settings, subject))
    {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

/// The geese a research point costs a player who has researched `done` (with the
/// paper, always 1): 2 unless a module says. (Hook `research_geese`, asked of every
/// module.)
pub(crate) fn research_geese(done: &BTreeSet<Research>) -> u32 {
    PLUGINS
        .iter()
        .filter_map(|p| p.hooks.research_geese)
        .find_map(|f| f(done))
        .unwrap_or(2)
}

/// How a module draws the tile `hex` now, if one does. (Hook `look`.)
pub fn look(s: &State, hex: Hex) -> Option<Look> {
    in_play(s)
        .filter_map(|p| p.hooks.look)
        .find_map(|f| f(s, hex))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The modules' names as scenarios, settings and saved games have always spelled
    /// them, in the rulebooks' order.
    const NAMES: [(Module, &str); 11] = [
        (Module::Planes, "planes"),
        (Module::Trains, "trains"),
        (Module::Bombs, "bombs"),
        (Module::Electricity, "electricity"),
        (Module::Management, "management"),
        (Module::Art, "art"),
        (Module::Trade, "trade"),
        (Module::Polder, "polder"),
        (Module::City, "city"),
        (Module::Jumpstart, "jumpstart"),
        (Module::FundamentalResearch, "fundamental-research"),
    ];

    #[test]
    fn module_names_are_serdes() {
        crate::name_table::check(&Module::ALL, &NAMES, Module::name);
    }

    /// Each building, good, transporter and terrain belongs to one module at most.
    #[test]
    fn nothing_is_declared_twice() {
        for (i, a) in PLUGINS.iter().enumerate() {
            for b in &PLUGINS[i + 1..] {
                assert_ne!(a.module, b.module);
                for k in a.buildings {
                    assert!(
                        !b.buildings.contains(k),
                        "{k} in {} and {}",
                        a.module,
                        b.module
                    );
                }
                for g in a.goods {
                    assert!(!b.goods.contains(g), "{g} in {} and {}", a.module, b.module);
                }
                for k in a.transporters {
                    assert!(!b.transporters.contains(k), "{k}");
                }
                for t in a.terrains {
                    assert!(!b.terrains.contains(t), "{t}");
                }
            }
        }
    }

    /// A module's orders are its own, read by the grammar it
    /// registers. Each registered example reads, under its phase's heading, as one
    /// module order of that phase, tagged (as it serializes) with the order's words, and
    /// echoes in plain words; a module registers each order word once.
    #[test]
    fn each_registered_order_reads_as_its_modules_order() {
        use crate::orders::{BuildingOrder, MovementOrder, ProductionOrder, WonderOrder};
        use crate::scenario::Scenario;
        let text = include_str!("../../../../tests/scenarios/valid-base.toml");
        let map = Scenario::parse("valid-base.toml", text)
            .expect("valid")
            .setup()
            .map
            .clone();
        let mut seen = Vec::new();
        for p in PLUGINS {
            for g in p.orders {
                assert!(
                    !seen.contains(&(g.phase, g.words)),
                    "{} registers `{}` twice",
                    p.module,
                    g.words
                );
                seen.push((g.phase, g.words));
                let file = format!("{}\n{}\n", g.phase, g.example);
                let parsed = crate::order_text::parse(&file, &map);
                assert!(parsed.problems.is_empty(), "{file}: {:?}", parsed.problems);
                let o = &parsed.orders;
                let order = match g.phase {
                    Phase::Production => match o.production.as_slice() {
                        [n] => match &n.order {
                            ProductionOrder::Module(m) => m.clone(),
                            other => panic!("{file}: {other:?}"),
                        },
                        all => panic!("{file}: {all:?}"),
                    },
                    Phase::Movement => match o.movement.as_slice() {
                        [n] => match &n.order {
                            MovementOrder::Module(m) => m.clone(),
                            other => panic!("{file}: {other:?}"),
                        },
                        all => panic!("{file}: {all:?}"),
                    },
                    Phase::Building => match o.building.as_slice() {
                        [n] => match &n.order {
                            BuildingOrder::Module(m) => m.clone(),
                            other => panic!("{file}: {other:?}"),
                        },
                        all => panic!("{file}: {all:?}"),
                    },
                    Phase::Wonder => match o.wonder.as_slice() {
                        [n] => match &n.order {
                            WonderOrder::Module(m) => m.clone(),
                            other => panic!("{file}: {other:?}"),
                        },
                        all => panic!("{file}: {all:?}"),
                    },
                };
                let json = serde_json::to_value(&order).expect("json");
                assert_eq!(json["order"], g.words.replace(' ', "-"), "{file}: {json}");
                assert!(!order.to_string().is_empty());
                let back: Order = serde_json::from_value(json).expect("reads back");
                assert_eq!(back, order, "{file}");
            }
        }
        assert!(seen.len() >= 9, "the modules' orders are found: {seen:?}");
    }

    const BASE: &str = r#"
[scenario]
name = "m"
title = "m"
players = 2
[rules]
modules = ["MODULE"]
[map]
rows = ["s s s s s s s", "s p w r p m s", "s w p m p w s", "s r p w d r s", "s s s s s s s"]
[start]
homes = ["B2", "F4"]
"#;

    /// A scenario that names a module is played with that module's rules, or
    /// refused: never accepted and then silently played without them.
    #[test]
    fn a_module_without_rules_is_refused_and_one_with_rules_accepted() {
        use crate::scenario::Scenario;
        for m in Module::ALL {
            let mut text = BASE.replace("MODULE", m.name());
            if m == Module::Jumpstart {
                text = text.replace(
                    "homes = [\"B2\", \"F4\"]",
                    "homes = [\"B2\", \"F4\"]\nlots = [{ goods = { boards = 1 } }, { goods = { stone = 1 } }]",
                );
            }
            let read = Scenario::parse("m.toml", &text);
            assert!(plugin(m).is_some(), "every &cetera module has its rules");
            match plugin(m) {
                Some(_) => {
                    if let Err(d) = read {
                        panic!("{m} has rules and must be accepted:\n{d}");
                    }
                }
                None => {
                    let d = read
                        .err()
                        .unwrap_or_else(|| panic!("{m} has no rules: refuse it"));
                    let text = d.render();
                    assert!(text.contains("has no rules in this judge yet"), "{text}");
                    assert!(text.contains("m.toml:7"), "points at the line: {text}");
                }
            }
        }
    }
}
