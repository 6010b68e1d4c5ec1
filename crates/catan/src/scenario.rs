//! Where scenario rules hook into the base game. The base game asks these functions at
//! each point a scenario may change; a scenario (Catan Express, in `express/`) adds a
//! [`Variant`], its own state, steps, actions, refusals and events in its folder, and one
//! arm to each hook it changes. Nothing else in the rules names a scenario.
//!
//! The hooks:
//! - set-up: [`make_board`], [`setup`];
//! - the founding: [`founding_road`] (does a piece follow this founding settlement?);
//! - building: [`uses_roads`], [`settlement_site`], [`settlement_candidates`],
//!   [`settlement_needs_road`], [`city_site`], [`city_allowance`], [`free_pieces_left`]
//!   (what a Road Building card may still place);
//! - cards and points: [`vp_played_at_once`], [`vp_cards_hidden`], [`uses_longest_road`],
//!   [`extra_points`], [`wins_at_points`];
//! - the scenario's own steps and actions: [`actor`], [`check`], [`execute`],
//!   [`legal`], [`turn_may_end`], [`after_action`] (after every action: the race);
//! - its state file: [`from_file`], [`new_extra`] and the file types ([`ExtraFile`] …);
//! - the grammar (on the orders' toolkit, `crate::orders::kit`): `orders_active`,
//!   `read_build`, `read_movement`, `read_road_building`, `read_standing`,
//!   `read_founding_line`; the checker's words: [`describe`], [`describe_standing`],
//!   [`warnings`], [`refusal_help`]; the template's: [`site`], [`fee`], [`cost`];
//! - the resolution: `carry_out`, [`default_founding_line`], [`after_act`] (after an
//!   order's action: the standing orders);
//! - the report and the picture (on the report's toolkit, `crate::report::kit`):
//!   [`report_sections`], [`draw_rails`], [`draw_locomotives_and_towers`],
//!   [`legend`], [`node_at`];
//! - the GM's end: [`end_by_gm`], [`options`], [`RACE_POINTS`], [`play_random`];
//! - the bot: [`bot_orders`].
//!
//! The graph a scenario needs is on [`crate::board::Topology`]: vertices, edges,
//! hex centres and the spokes joining a vertex to a hex centre, land and sea alike.
//!
//! This is the one file of the base that names `express` (tests/architecture/catan.rs): the
//! base reaches the scenario through these hooks, and
//! the scenario's types through the names below.

use serde::{Deserialize, Serialize};

use super::bits::Bits;
use super::board::{Board, VertexId, layout};
use super::express;
use super::orders::kit::{Cursor, Flow, Reader, Res};
use super::orders::{Line, Order as BaseOrder, Orders};
use super::report::kit::Frame;
use super::rng::Rng;
use super::rules::{Action, Log, Refusal as BaseRefusal};
use super::state::{Options, Phase, State};
use judge_core::picture::{Legend, Picture};

/// The rules in play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// The base game (with the 5–6 extension if the options say so).
    #[default]
    Base,
    /// Catan Express (docs/catan-express.md) on this map.
    Express(express::Map),
}

/// A scenario's part of the state.
pub type Extra = Option<Box<express::Express>>;
/// A scenario's own step of a turn (see [`Phase::Scenario`]).
pub type Step = express::Step;
/// A scenario's own actions.
pub type Act = express::Act;
/// Why a scenario's rules refuse an action.
pub type Refusal = express::Refusal;
/// What a scenario's rules tell.
pub type Event = express::Event;
/// A scenario's own orders by mail.
pub type Order = express::orders::Order;
/// A scenario's own standing orders by mail.
pub type Standing = express::orders::Standing;
/// The scenario's types the base's report, picture, template and cases speak of: a
/// map, a rail piece's kind, a stretch of railway, a node of the rail graph, the
/// scenario's part of the state and its part of the state file.
pub use express::state::{ExpressFile as ExtraFile, ExpressFileError as ExtraFileError};
pub use express::state::{RACE_POINTS, RaceFile, RailwayFile, StepFile};
pub use express::{Express, Kind as RailKind, Map, Node, Stretch};

/// The board a game starts on.
pub fn make_board(options: &Options, rng: &mut Rng) -> Board {
    match options.variant {
        Variant::Express(express::Map::Island) => express::map::island(options.extension),
        Variant::Base | Variant::Express(express::Map::Beyond) => {
            layout::make(options.layout, options.extension, rng)
        }
    }
}

/// The scenario's own state at the start of a game.
pub fn setup(s: &mut State) {
    if let Variant::Express(map) = s.options.variant {
        s.scenario = Some(Box::new(express::Express::new(
            &s.board,
            map,
            s.players.len(),
        )));
    }
}

/// Does the founding settlement placed at step `index` get a piece (a road; in Catan
/// Express, the second settlement's first rail line)?
pub fn founding_road(s: &State, index: u8) -> bool {
    match s.options.variant {
        Variant::Base => true,
        Variant::Express(_) => index >= s.players.len() as u8,
    }
}

/// Are roads built in this game?
pub fn uses_roads(s: &State) -> bool {
    matches!(s.options.variant, Variant::Base)
}

/// A scenario's extra condition on a settlement site (the distance rule and the land
/// are checked by the base game): in Catan Express, no rail line or ferry touches it.
pub fn settlement_site(s: &State, _seat: u8, v: VertexId) -> Result<(), BaseRefusal> {
    match &s.scenario {
        Some(x) if x.touched.has(v) => Err(BaseRefusal::Scenario(Refusal::LineAtVertex)),
        _ => Ok(()),
    }
}

/// Must a new settlement touch the builder's road?
pub fn settlement_needs_road(s: &State) -> bool {
    matches!(s.options.variant, Variant::Base)
}

/// The vertices where `seat` might build a settlement (before the distance rule and
/// `settlement_site_ok`).
pub fn settlement_candidates(s: &State, seat: u8) -> Bits {
    let land = s.board.topology.land_vertices;
    match &s.scenario {
        None => s.players[seat as usize].road_ends.and(land),
        Some(x) => land.minus(x.touched),
    }
}

/// A scenario's extra condition on upgrading the settlement at `v` to a city.
pub fn city_site(s: &State, _seat: u8, v: VertexId) -> Result<(), BaseRefusal> {
    match &s.scenario {
        None => Ok(()),
        Some(x) if x.touched.has(v) => Ok(()),
        Some(_) => Err(BaseRefusal::Scenario(Refusal::NotOnRailway)),
    }
}

/// How many cities a player may have at this point of the game.
pub fn city_allowance(s: &State, _seat: u8) -> u8 {
    match &s.scenario {
        None => super::rules::CITIES,
        Some(x) if x.race.is_some() => super::rules::CITIES,
        Some(_) => express::state::CITIES_BEFORE_RACE,
    }
}

/// Pieces a Road Building card may still place for `seat`.
pub fn free_pieces_left(s: &State, seat: u8) -> u8 {
    match &s.scenario {
        None => s.roads_left(seat),
        Some(x) => x
            .left(seat, express::Kind::Line)
            .saturating_add(x.left(seat, express::Kind::Ferry)),
    }
}

pub fn uses_longest_road(s: &State) -> bool {
    matches!(s.options.variant, Variant::Base)
}

/// Points a scenario adds (Catan Express: connection chips, water towers, the Fastest
/// Locomotive Driver card).
pub fn extra_points(s: &State, seat: u8) -> u8 {
    match &s.scenario {
        None => 0,
        Some(x) => express::race::extra_points(x, seat),
    }
}

/// Are victory point cards kept hidden until the win?
pub fn vp_cards_hidden(s: &State) -> bool {
    matches!(s.options.variant, Variant::Base)
}

/// Is a victory point card played (shown, counted) the moment it is bought?
pub fn vp_played_at_once(s: &State) -> bool {
    !vp_cards_hidden(s)
}

/// Does a player win by reaching the points target on their turn?
pub fn wins_at_points(s: &State) -> bool {
    matches!(s.options.variant, Variant::Base)
}

/// Who acts in a scenario step.
pub fn actor(s: &State, step: Step) -> u8 {
    express::race::actor(s, step)
}

/// May the turn end in this step (the base `end` of a turn)?
pub fn turn_may_end(step: Step) -> bool {
    matches!(step, express::Step::Moving { .. })
}

/// Is a scenario action allowed now?
pub fn check(s: &State, a: Act) -> Result<(), BaseRefusal> {
    if s.scenario.is_none() {
        return Err(BaseRefusal::ScenarioRule);
    }
    express::check(s, a)
}

/// Carry out a scenario action already checked.
pub fn execute(s: &mut State, a: Act, log: &mut impl Log) {
    express::execute(s, a, log);
}

/// The scenario's actions allowed now, added to `out`.
pub fn legal(s: &State, out: &mut Vec<Action>) {
    if s.scenario.is_some() {
        express::legal(s, out);
    }
}

/// After an order's action is carried out (`crate::orders::kit::act`): what the
/// scenario's standing orders do (Catan Express: once the race has begun, the stopover
/// choices).
pub fn after_act(s: &mut State, ev: &mut Vec<super::events::Event>) {
    express::orders::choose_stopovers(s, ev);
}

/// After every action: what the scenario does on its own (Catan Express: the race
/// starts).
pub fn after_action(s: &mut State, log: &mut impl Log) {
    if s.scenario.is_some() && s.phase != Phase::Over {
        express::race::after_action(s, log);
    }
}

// ---- The state file -------------------------------------------------------------------

/// The scenario's part of the state read back from its file.
pub fn from_file(
    x: &ExtraFile,
    board: &Board,
    map: Map,
    colours: &[super::colour::Colour],
) -> Result<Express, ExtraFileError> {
    Express::from_file(x, board, map, colours)
}

/// The scenario's part of a new state on `board` for `players` players.
pub fn new_extra(board: &Board, map: Map, players: usize) -> Express {
    Express::new(board, map, players)
}

// ---- The grammar (on crate::orders::kit) ------------------------------------------------

/// Does the scenario's grammar apply to this game?
pub(crate) fn orders_active(r: &Reader) -> bool {
    express::orders::active(r)
}

/// What of the scenario's state its grammar consults, besides the board's graph and
/// the seats (Catan Express: its rail net, the places lines and ferries may go, made of
/// the board and the map, never of pieces): two states with the same reading context
/// read an order file alike (`orders::resolve` keeps the files it read by it).
pub(crate) struct ReadingContext(Option<std::sync::Arc<express::rail::Rail>>);

/// The reading context of this state.
pub(crate) fn reading_context(s: &State) -> ReadingContext {
    ReadingContext(
        s.scenario
            .as_deref()
            .map(|x| std::sync::Arc::clone(&x.rail)),
    )
}

impl ReadingContext {
    /// Does this state read order files as the state this was taken from did?
    pub(crate) fn reads_as(&self, s: &State) -> bool {
        match (&self.0, s.scenario.as_deref()) {
            (None, None) => true,
            (Some(a), Some(x)) => std::sync::Arc::ptr_eq(a, &x.rail) || **a == *x.rail,
            _ => false,
        }
    }
}

/// A scenario build order (`line 12-13`, `ferry …`) after the word `word`, if it is one.
pub(crate) fn read_build(r: &Reader, c: &mut Cursor, word: &str) -> Option<Res<BaseOrder>> {
    express::orders::build(r, c, word)
}

/// The scenario's movement order (`move …`).
pub(crate) fn read_movement(r: &Reader, c: &mut Cursor) -> Res<Order> {
    express::orders::movement(r, c)
}

/// The pieces a Road Building card places in the scenario.
pub(crate) fn read_road_building(r: &Reader, c: &mut Cursor) -> Res<BaseOrder> {
    express::orders::road_building(r, c)
}

/// A scenario standing order, if the line is one.
pub(crate) fn read_standing(r: &Reader, c: &mut Cursor) -> Option<Res<Standing>> {
    express::orders::standing(r, c)
}

/// The piece a founding settlement at `settlement` brings in the scenario.
pub(crate) fn read_founding_line(
    r: &Reader,
    c: &mut Cursor,
    settlement: VertexId,
) -> Res<Result<Stretch, BaseRefusal>> {
    express::orders::founding_line(r, c, settlement)
}

/// A scenario order in plain words (the checker's echo).
pub fn describe(s: &State, o: &Order) -> String {
    express::orders::describe(s, o)
}

/// A scenario standing order in plain words.
pub fn describe_standing(s: &State, st: &Standing) -> String {
    express::orders::describe_standing(s, st)
}

/// What the checker warns of a scenario order.
pub fn warnings(s: &State, seat: u8, o: &Order) -> Vec<String> {
    express::orders::warnings(s, seat, o)
}

/// The help the checker adds to a refusal, if the scenario has one.
pub fn refusal_help(s: &State, r: &BaseRefusal) -> Option<String> {
    express::orders::refusal_help(s, r)
}

/// What piece `seat` may build on stretch `st` (the template's list).
pub fn site(s: &State, seat: u8, st: Stretch) -> Result<RailKind, BaseRefusal> {
    express::building::site(s, seat, st)
}

/// The fee for building on stretch `st`.
pub fn fee(x: &Express, st: Stretch) -> u8 {
    express::building::fee(x, st)
}

/// What a piece of this kind costs.
pub fn cost(kind: RailKind) -> crate::cards::Cards {
    express::building::cost(kind)
}

// ---- The resolution ---------------------------------------------------------------------

/// Carry out a scenario order of a turn.
pub(crate) fn carry_out(
    s: &mut State,
    ev: &mut Vec<super::events::Event>,
    seat: u8,
    o: &Order,
    l: &Line,
    orders: &Orders,
) -> Result<Flow, BaseRefusal> {
    express::orders::try_order(s, ev, seat, o, l, orders)
}

/// The piece a founding settlement at `v` gets when its orders name none.
pub fn default_founding_line(s: &State, v: VertexId) -> Option<Stretch> {
    express::orders::default_founding_line(s, v)
}

// ---- The report and the picture (on crate::report::kit) ---------------------------------

/// The scenario's sections of the report.
pub fn report_sections(
    s: &State,
    viewer: Option<super::colour::Colour>,
    o: &mut String,
    n: &mut usize,
) {
    express::report::sections(s, viewer, o, n);
}

/// The railways drawn; true if one built this step was.
pub fn draw_rails(
    s: &State,
    p: &mut Picture,
    f: &Frame,
    new: &[(Stretch, super::colour::Colour)],
) -> bool {
    express::report::rails(s, p, f, new)
}

/// The locomotives and water towers drawn.
pub fn draw_locomotives_and_towers(s: &State, p: &mut Picture, f: &Frame) {
    express::report::locomotives_and_towers(s, p, f);
}

/// The scenario's keys of the legend.
pub fn legend(s: &State, l: &mut Legend) {
    express::report::legend(s, l);
}

/// Where a rail node is in the picture.
pub fn node_at(s: &State, x: &Express, n: Node, f: &Frame) -> (f32, f32) {
    express::report::node_at(s, x, n, f)
}

// ---- The GM's end -----------------------------------------------------------------------

/// The game ended by the GM: who wins by the scenario's rule (RULINGS R9).
pub fn end_by_gm(s: &mut State, log: &mut impl Log) {
    express::race::decide(s, None, log);
}

/// The options of a scenario game on `map`.
pub fn options(players: usize, map: Map, layout: layout::Layout) -> Options {
    express::options(players, map, layout)
}

/// A random game of the scenario (the judge's self-play).
pub fn play_random(
    players: usize,
    seed: u64,
    map: Map,
    buf: &mut Vec<Action>,
) -> super::selfplay::GameResult {
    express::selfplay::play_random(players, seed, map, buf)
}

// ---- The bot ----------------------------------------------------------------------------

/// The scripted scenario player's orders for `seat`.
pub fn bot_orders(s: &State, seat: u8) -> String {
    express::bot::orders(s, seat)
}
