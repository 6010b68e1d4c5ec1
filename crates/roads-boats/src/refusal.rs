//! Why a rule refuses an order: one variant per reason, with what the sentence needs.
//!
//! The rules return these; a phase that cannot carry out an order hands the refusal to
//! `ctx.fail`, which takes nothing else, and reports it in a `failed:` line: the event
//! keeps the refusal (`events::Reason`), the record its words, so an archive reads the
//! same whichever release wrote it. A module's refusals are its own type, in its file
//! (`modules::trade::TradeRefusal`), carried by `Refusal::Module`. A test may match the
//! variant; the wording lives in the snapshots and cases. Catan's `rules::Refusal` is the
//! same idea for the other game.

use std::fmt;

use crate::building::{BuildingKind, Input, Output, Recipe, Site};
use crate::goods::{Good, Goods};
use crate::map::{AreaId, Border, Dir, Hex, PlaceError, RiverEdges, Road, Terrain};
use crate::modules::{Module, ModuleRefusal};
use crate::player::{Colour, Research};
use crate::state::Phase;
use crate::transporter::{Kind, Location, Named, TransporterId};

/// What a link on the map is, for the sentence that refuses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    Road,
    PowerLine,
    Track,
    /// A transporter's step from one tile to the next.
    Step,
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Link::Road => "road",
            Link::PowerLine => "power line",
            Link::Track => "track",
            Link::Step => "step",
        })
    }
}

/// A good that is short: how many were needed and how many were there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shortage {
    pub good: Good,
    pub needed: u32,
    pub there: u32,
}

impl fmt::Display for Shortage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} needed, {} there",
            self.good.counted(self.needed),
            self.there
        )
    }
}

/// Why an order (or a scenario's or a set-up round's choice) was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    // Whose transporter, and where it is.
    #[error("there is no transporter {id}")]
    NoTransporter { id: Named },
    #[error("{id} is {owner}'s, not yours")]
    NotYours { id: Named, owner: Colour },
    #[error("{id} is being carried")]
    BeingCarried { id: Named },
    #[error("it is carried by {by}")]
    CarriedBy { by: Named },

    // Tiles and areas.
    #[error("{a} and {b} are not neighbours")]
    NotNeighbours { a: Hex, b: Hex },
    #[error("{to} is not next to {from}")]
    NotNextTo { to: Hex, from: Hex },
    #[error("{area} is not an area of the map")]
    NoSuchArea { area: AreaId },
    #[error("{hex} is not on the map")]
    NotOnMap { hex: Hex },
    #[error("{hex} is not a tile of this map")]
    NotATile { hex: Hex },
    #[error("{hex} is split by a river: say which side, {}", or_list(areas))]
    SplitTile { hex: Hex, areas: Vec<AreaId> },
    #[error("{hex} is not split by a river: write just {hex}")]
    NotSplit { hex: Hex },
    #[error("{hex} has no area {area}: write {}", or_list(areas))]
    NoSuchSide {
        hex: Hex,
        area: AreaId,
        areas: Vec<AreaId>,
    },
    /// An area's words that do not read as one (the reader's own sentence).
    #[error("{0}")]
    UnreadableArea(PlaceError),
    #[error("{hex} is sea")]
    IsSea { hex: Hex },
    #[error("{to} is not land")]
    NotLand { to: Location },
    #[error("{hex} is desert: only roads and walls until irrigation (brick 45)")]
    Desert { hex: Hex },

    // Roads, lines and tracks (RULINGS R3).
    #[error("{hex} is sea: roads are built on land")]
    RoadOnSea { hex: Hex },
    #[error("a {link} from {a} to {b} would cross the river: both ends must be on the same bank")]
    AcrossTheRiver { link: Link, a: AreaId, b: AreaId },
    #[error(
        "a {link} from {a} to {b} would cross the river: the land end must be on the bank that faces the sea"
    )]
    LandEndAcrossTheRiver { link: Link, a: AreaId, b: AreaId },
    #[error("{with} is not at {from}: a road is built from the tile where you have a transporter")]
    NotAtRoadStart { with: Named, from: AreaId },
    #[error(
        "{with} is not at {from}: a power line is built from the tile where you have a transporter"
    )]
    NotAtLineStart { with: Named, from: AreaId },
    #[error("there is already a road {road}")]
    RoadThere { road: Road },
    #[error("there is already a power line {line}")]
    PowerLineThere { line: Road },

    // Bridges.
    #[error("{hex} is a city: say which side of its moat the bridge spans (`{hex} N`)")]
    CityBridgeSide { hex: Hex },
    #[error("{hex} is a city: say which side of its moat the bridge spans (`bridge {hex} over N`)")]
    MoatBridgeSide { hex: Hex },
    #[error("{hex} has no river to bridge{}", if *at_source { " (a river source never needs a bridge)" } else { "" })]
    NoRiverToBridge { hex: Hex, at_source: bool },
    #[error("the river in {hex} does not run toward {dir}: its arms run toward {}", dirs(*arms))]
    RiverNotToward {
        hex: Hex,
        dir: Dir,
        arms: RiverEdges,
    },
    #[error("{hex} is a river junction: say which arm the bridge spans ({})", dirs(*arms))]
    RiverJunction { hex: Hex, arms: RiverEdges },
    #[error("bridges cannot be built in polders")]
    BridgeInPolder,
    #[error("there is already a bridge there in {hex}")]
    BridgeThere { hex: Hex },
    #[error("{with} is not beside that river in {hex}")]
    NotBesideTheRiver { with: Named, hex: Hex },
    #[error("{hex} has no neighbour toward {dir}")]
    NoNeighbourToward { hex: Hex, dir: Dir },
    #[error("there is already a bridge on the {dir} side of {hex}")]
    MoatBridgeThere { hex: Hex, dir: Dir },
    #[error("{with} is neither in the city {city} nor on {across} beside that side of its moat")]
    NotBesideTheMoat { with: Named, city: Hex, across: Hex },
    #[error(
        "the moat of the city {city} has no bridge toward {other} (`bridge {city} over {dir}`)"
    )]
    MoatUnbridged { city: Hex, other: Hex, dir: Dir },

    // Buildings (rulebook p.13-16; RULINGS R4).
    #[error("{module} {} not in play in this game", verb(*module))]
    NotInPlay { module: Module },
    #[error("a {kind} needs the {research} research first")]
    NeedsResearch {
        kind: BuildingKind,
        research: Research,
    },
    #[error("a 4/0 or 0/4 mixture needs the specialised-mines research")]
    SpecialisedMixture,
    #[error("a 5/5 mixture needs the large-mines research")]
    LargeMixture,
    #[error(
        "a mine holds 3 gold and 3 iron, 4/0 or 0/4 (specialised), or 5/5 (large), not {gold}/{iron}"
    )]
    NoSuchMixture { gold: u32, iron: u32 },
    #[error("only a mine takes a mixture, not a {kind}")]
    MixtureForAMine { kind: BuildingKind },
    #[error("new shafts need the new-shafts research")]
    NewShaftsUnresearched,
    #[error("a {kind} is built on {site}, and {hex} is {terrain}")]
    WrongSite {
        kind: BuildingKind,
        site: Site,
        hex: Hex,
        terrain: Terrain,
    },
    #[error("{}{hex} already has {}: {rule}", if *city { "the city " } else { "" }, if *city { "two buildings" } else { "a building" })]
    NoRoom {
        hex: Hex,
        city: bool,
        rule: &'static str,
    },
    #[error("{with} must be on the sea at {hex} to build a {kind}")]
    BuildFromTheSea {
        with: Named,
        hex: Hex,
        kind: BuildingKind,
    },
    #[error(
        "{with} is not at {at}: build where you have a transporter, on the same side of the river"
    )]
    NotAtBuildSite { with: Named, at: AreaId },
    #[error("not enough goods: {}", comma_list(missing))]
    NotEnoughGoods { missing: Vec<Shortage> },
    #[error("{with} is at no building in {hex}")]
    AtNoBuilding { with: Named, hex: Hex },
    #[error("the building at {hex} is not a mine")]
    NotAMine { hex: Hex },
    #[error("there is no building at {hex}")]
    NoBuilding { hex: Hex },
    #[error("the {} at {hex} does not make {output}", and_list(kinds))]
    DoesNotMake {
        kinds: Vec<BuildingKind>,
        hex: Hex,
        output: Output,
    },
    #[error("a boat made at {area} cannot be launched at {at}")]
    CannotLaunchAt { area: AreaId, at: Location },
    #[error("every shore of {hex} is walled off by other players: the boat cannot be launched")]
    ShoresWalledOff { hex: Hex },

    // Production (Quick Guide III, IV, VII, IX; RULINGS R4).
    #[error("over the limit at the end of production: {limit}")]
    OverTheLimit { limit: Limit },
    #[error("{limit} at the end of production: the new {kind} {id} is destroyed")]
    NewOneDestroyed {
        limit: Limit,
        kind: Kind,
        id: TransporterId,
    },
    #[error("{id} cannot unload: {why}")]
    CannotUnload { id: Named, why: Box<Refusal> },
    #[error("{id} unloaded {put_down}: {}", comma_list(missing))]
    UnloadedNone {
        id: Named,
        put_down: Goods,
        missing: Vec<Short>,
    },
    #[error("{id} is a plane: planes never load goods in the production phase")]
    PlaneLoadsNothing { id: Named },
    #[error("{to} is a plane: planes never take goods in the production phase")]
    PlaneTakesNothing { to: TransporterId },
    #[error(
        "{why}, and {owner} offers you nothing from it (its owner's production orders would say `offer {id} to {user}`)"
    )]
    NotOffered {
        why: Box<Refusal>,
        owner: Colour,
        id: TransporterId,
        user: Colour,
    },
    #[error("{id} cannot reach the {kind} at {at}")]
    CannotReachBuilding {
        id: Named,
        kind: BuildingKind,
        at: AreaId,
    },
    #[error("you have no transporter at the {kind} at {at}")]
    NoTransporterAtBuilding { kind: BuildingKind, at: AreaId },
    #[error("the {kind} at {at} is at capacity ({used} of {capacity} used)")]
    AtCapacity {
        kind: BuildingKind,
        at: AreaId,
        used: u32,
        capacity: u32,
    },
    #[error("not enough inputs for the {kind} at {at}: it needs {}{}", recipe_inputs(recipe), using.map_or(String::new(), |w| format!(", and you said {w} only")))]
    NotEnoughInputs {
        kind: BuildingKind,
        at: AreaId,
        recipe: Recipe,
        using: Option<Good>,
    },
    #[error("a {kind} is made from a donkey: name one of your donkeys here after `from`")]
    MadeFromADonkey { kind: Kind },
    #[error(
        "not enough inputs for a {kind} at {at}: it needs {}",
        recipe_inputs(recipe)
    )]
    NotEnoughToMake {
        kind: Kind,
        at: AreaId,
        recipe: Recipe,
    },
    #[error("you have already researched {subject}")]
    AlreadyResearched { subject: Research },
    #[error(
        "you have researched {rival}, and a player cannot combine specialised mines with large mines (Quick Guide IX)"
    )]
    RivalResearch { rival: Research },
    /// A module's rule against a research subject (its words).
    #[error("{0}")]
    ResearchRefused(&'static str),
    #[error("{with} is not on a tile where it could research")]
    NowhereToResearch { with: Named },
    #[error("research takes {} and 1 paper where {with} is", Good::Geese.counted(*geese))]
    ResearchCost { geese: u32, with: Named },
    #[error("you may upgrade to a {to} only in the production phase you research it")]
    UpgradeUnresearched { to: BuildingKind },
    #[error("there is no transporter factory at {hex}")]
    NoFactory { hex: Hex },
    #[error("there is no {named} at {hex}: there is {}", and_list(there))]
    NoSuchFactory {
        named: BuildingKind,
        hex: Hex,
        there: Vec<BuildingKind>,
    },
    #[error("the factory at {hex} is already a {to}")]
    AlreadyUpgraded { hex: Hex, to: BuildingKind },
    #[error("a {from} cannot become a {to}: upgrades stay land or water")]
    UpgradeAcross {
        from: BuildingKind,
        to: BuildingKind,
    },
    #[error("a {from} cannot become a {to}: an upgrade goes forward, never back")]
    UpgradeBack {
        from: BuildingKind,
        to: BuildingKind,
    },
    #[error("you have no transporter at {hex}")]
    NoTransporterAt { hex: Hex },
    #[error("{id} can be destroyed only on a tile with a transporter factory")]
    DestroyedOnlyAtAFactory { id: Named },
    #[error("{id} carries a transporter: put it down first")]
    DestroyCarrier { id: Named },

    // The wonder (RULINGS R2).
    #[error("bricks are paid at home ({home}), where you have no transporter")]
    BricksAtHome { home: AreaId },
    #[error("placed {placed} of {}: {why}", judge_core::text::count(*count as usize, "brick"))]
    PlacedNone {
        placed: u32,
        count: u32,
        why: FewerBricks,
    },

    // Walls (rulebook p.13-14).
    #[error("a wall must stand between two tiles of the map")]
    WallOffTheMap,
    #[error("walls cannot be built between two sea tiles")]
    WallAtSea,
    #[error("walls cannot be built between two polders or a polder and the sea")]
    WallInTheWater,
    #[error("{with} is not on either side of {border}")]
    NotBesideTheBorder { with: Named, border: Border },
    #[error(
        "a wall is built from the city {city} only where a bridge crosses its moat: there is none toward {other}"
    )]
    CityWallUnbridged { city: Hex, other: Hex },
    #[error("{with} cannot reach {border} from its side of the river")]
    WallOutOfReach { with: Named, border: Border },
    #[error("your wall on {border} already has {}", judge_core::text::count(*tokens, "token"))]
    WallHasTokens { border: Border, tokens: usize },
    #[error("{border} has a {owner} wall: demolish it first (one colour per border)")]
    OthersWall { border: Border, owner: Colour },
    #[error("there is no wall on {border}")]
    NoWall { border: Border },
    #[error("the wall on {border} is already neutral")]
    WallNeutral { border: Border },
    #[error("a {} wall on {border} bars the way", wall_owner(*owner))]
    WallBars {
        owner: Option<Colour>,
        border: Border,
    },

    // Moving on land and water (Quick Guide I; RULINGS R3, R5).
    #[error("the river lies between {from} and {to}, with no bridge")]
    RiverBetween { from: AreaId, to: AreaId },
    #[error("no land transporter crosses the river between {from} and {to} without a bridge")]
    NoBridgeAcross { from: AreaId, to: AreaId },
    #[error("no river runs from {from} to {to}")]
    NoRiverRuns { from: Hex, to: Hex },
    #[error("the river in {river} does not flow into the sea at {sea}")]
    NoOutflow { river: Hex, sea: Hex },
    #[error("{to} is not a sea tile next to {from}")]
    NotSeaNextTo { to: Hex, from: Hex },
    #[error("a boat at sea in {sea} cannot dock at {land}")]
    CannotDock { sea: Hex, land: AreaId },
    #[error("a {} wall on {border} bars the way: only its owner docks behind it", wall_owner(*owner))]
    DockBarred {
        owner: Option<Colour>,
        border: Border,
    },
    #[error("a docked boat leaves only to the sea it came from, {sea}")]
    LeaveDock { sea: Hex },
    #[error("a boat that has docked moves no further this turn")]
    AlreadyDocked,
    #[error("a taxiing plane goes from sea only to sea or a flooded polder")]
    TaxiSeaToSea,
    #[error(
        "{hex} is a flooded polder, sea to a taxiing plane; a taxiing plane goes from land only to land"
    )]
    TaxiOntoAFlood { hex: Hex },
    #[error("{hex} is sea; a taxiing plane goes from land only to land")]
    TaxiLandToSea { hex: Hex },
    #[error("a taxiing plane moves only along roads")]
    TaxiOnRoads,
    #[error("a {kind} moves only on roads")]
    OnlyOnRoads { kind: Kind },
    #[error("a {kind} at {at} cannot move on land")]
    CannotMoveOnLand { kind: Kind, at: Location },
    #[error("a boat cannot go from {from} to {to}")]
    BoatCannotGo { from: Location, to: Location },
    #[error("{id} has already moved this phase")]
    AlreadyMoved { id: Named },
    #[error("{id} is a plane: a taxiing plane carries nothing (use fly)")]
    TaxiingPlaneLaden { id: TransporterId },
    #[error("{id} cannot go on to {target}: {why}; it stops at {pos}")]
    CannotGoOn {
        id: Named,
        target: Location,
        why: NoFurther,
        pos: Location,
    },
    #[error("{id} cannot go to {target}: {why}; it stops at {pos}")]
    CannotGoTo {
        id: TransporterId,
        target: Location,
        why: Box<Refusal>,
        pos: Location,
    },
    #[error("{id} is taxiing and carries nothing")]
    TaxiingCarriesNothing { id: Named },
    #[error("{id} is a plane: geese follow a plane only from where it starts (&cetera, planes)")]
    GeeseFollowAPlane { id: TransporterId },
    #[error(
        "{to} is a plane that has moved: planes pick up goods only at the start of the movement phase"
    )]
    PlaneHasMoved { to: TransporterId },

    // Putting down a transporter carried since an earlier turn (Quick Guide III).
    #[error("{carrier} has carried {carried} since no earlier turn")]
    NotCarriedSince {
        carrier: TransporterId,
        carried: TransporterId,
    },
    #[error("{carried} is put down only at the start of the phase, before {carrier} moves")]
    PutDownFirst {
        carried: TransporterId,
        carrier: TransporterId,
    },
    #[error("{carried} cannot be put down at {at} from {carrier} at {from}{why}")]
    CannotPutDown {
        carried: TransporterId,
        at: Location,
        carrier: TransporterId,
        from: Location,
        why: BoatPutDown,
    },
    #[error("{carried} cannot be put down at {at}: {why}: only its owner docks behind it")]
    PutDownBehindAWall {
        carried: TransporterId,
        at: Location,
        why: Box<Refusal>,
    },

    // Polders (&cetera, polder; RULINGS R10).
    #[error("{hex} is a flooded polder: a land transporter there is stranded until the tide turns")]
    StrandedByTheFlood { hex: Hex },
    #[error("{hex} is a dry polder: a boat there is stranded until it floods again")]
    StrandedDry { hex: Hex },
    #[error("{hex} is a dry polder: a boat docked there is stranded until it floods again")]
    StrandedDocked { hex: Hex },
    #[error("{hex} is a flooded polder: land transporters cannot enter it")]
    FloodedPolder { hex: Hex },
    #[error("{hex} is a flooded polder: sail onto it (`sea {hex}`) instead of docking")]
    DockAtAFlood { hex: Hex },
    #[error("{hex} is a dry polder: boats only dock at it (`dock {hex} …`)")]
    DryPolder { hex: Hex },

    // Where a transporter may stand (a scenario's, a set-up's or a new one's place).
    #[error(
        "a {kind} is a boat and cannot stand on land at {area}: put it in a river (`river {}`), at a dock, or at sea",
        area.hex
    )]
    BoatOnLand { kind: Kind, area: AreaId },
    #[error("there is no river in {hex}")]
    NoRiver { hex: Hex },
    #[error("planes are never allowed in rivers")]
    PlaneInARiver,
    #[error("a {kind} cannot be in a river")]
    NotInARiver { kind: Kind },
    #[error("{hex} is not a sea tile")]
    NotASeaTile { hex: Hex },
    #[error("a {kind} cannot be at sea")]
    NotAtSea { kind: Kind },
    #[error(
        "{land} has no coast facing {sea}: a dock is between a land area and a neighbouring sea tile"
    )]
    NoCoast { land: AreaId, sea: Hex },
    #[error("only boats dock; a {kind} cannot")]
    OnlyBoatsDock { kind: Kind },
    #[error("a {} wall stands on that coast: only its owner may dock behind it", wall_owner(*owner))]
    CoastWalled { owner: Option<Colour> },

    // Handing over, carrying and loading (Quick Guide III; consents, RULINGS R5).
    #[error("{id} cannot hand goods to itself")]
    HandToItself { id: Named },
    #[error("{other} is not where {id} is")]
    NotWhere { other: Named, id: Named },
    #[error("{to} carries a transporter and takes no goods")]
    CarrierTakesNoGoods { to: TransporterId },
    #[error("{id} gave {given} of {goods} to {to}: {why}")]
    GaveNone {
        id: Named,
        given: Goods,
        goods: Goods,
        to: Named,
        why: NotGiven,
    },
    #[error("{id} cannot pick up {other}: {why}")]
    CannotPickUp {
        id: Named,
        other: Named,
        why: NoPickUp,
    },
    #[error("{id} cannot reach {area}")]
    CannotReach { id: Named, area: AreaId },
    #[error("{id} carries a transporter and may carry nothing else")]
    CarrierLoadsNothing { id: Named },
    #[error("{id} loaded {got}: {}", comma_list(missing))]
    LoadedNone {
        id: Named,
        got: Goods,
        missing: Vec<Short>,
    },
    #[error("{id} is {owner}'s: you consent only for your own transporters")]
    ConsentForOthers { id: Named, owner: Colour },
    #[error("only {got} of {n} geese here to follow {id}")]
    NoGeeseToFollow { got: u32, n: u32, id: Named },

    // Goods put down (RULINGS R1, R5).
    #[error("goods are never left at sea, and there is no {} at {hex}", if *art { "oil rig or pearl fisherman" } else { "oil rig" })]
    GoodsAtSea { hex: Hex, art: bool },
    #[error("from the river in {hex} say which bank: {}", or_list(banks))]
    WhichBank { hex: Hex, banks: Vec<AreaId> },

    // Homes (rulebook set-up; the set-up round).
    #[error("{hex} is sea: a home is on land")]
    HomeAtSea { hex: Hex },
    #[error("{hex} is a polder, flooded at the start: a home is on land")]
    HomeOnAPolder { hex: Hex },
    #[error(
        "{area} is not one of the scenario's starting places: choose one of {}",
        comma_list(listed)
    )]
    NotAStartingPlace { area: AreaId, listed: Vec<AreaId> },
    #[error(
        "{hex} is too close to {player}'s home {home}: there must be at least one tile between two homes"
    )]
    TooClose {
        hex: Hex,
        player: Colour,
        home: AreaId,
    },
    #[error("{player} has no home")]
    NoHome { player: Colour },

    // &cetera modules (jumpstart's auction, bombs).
    #[error("there is no lot {lot}: the lots are 1 to {lots}")]
    NoLot { lot: usize, lots: usize },
    #[error("lot {lot} stands at {last}: a bid must be at least {raise} higher, {least} or more")]
    BidTooLow {
        lot: usize,
        last: u32,
        raise: u32,
        least: u32,
    },
    #[error("{with} carries no bomb")]
    NoBomb { with: Named },
    #[error("the {kind} at {hex} is bomb-proof")]
    BombProof { kind: BuildingKind, hex: Hex },
    #[error("there is no {} at {hex} (it holds {})", named.map_or_else(|| "building".to_string(), |k| k.to_string()), holds.iter().map(|k| format!("a {k}")).collect::<Vec<_>>().join(" and "))]
    NoSuchBuilding {
        named: Option<BuildingKind>,
        hex: Hex,
        holds: Vec<BuildingKind>,
    },
    #[error("both buildings at {hex} are already bomb-proof")]
    BothBombProof { hex: Hex },
    #[error("the {kind} at {hex} is already bomb-proof")]
    AlreadyBombProof { kind: BuildingKind, hex: Hex },

    /// A module's own refusal, in its words (each module's refusal type, in its file).
    #[error(transparent)]
    Module(ModuleRefusal),
}

/// Why a transporter moving step by step goes no further.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoFurther {
    #[error("a donkey off the road moves only one tile")]
    DonkeyOffTheRoad,
    #[error("a {kind} has {points} movement point{}", if *points == 1 { "" } else { "s" })]
    OutOfPoints { kind: Kind, points: u32 },
    #[error("{0}")]
    Blocked(Blocked),
}

/// Goods aboard a transporter that another of its owner's transporters moved this
/// phase: no good is moved by two of a player's transporters in one phase (RULINGS R5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    /// Each good, how many, and the transporter that moved them.
    pub goods: Vec<(Good, u32, TransporterId)>,
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what: Vec<String> = self
            .goods
            .iter()
            .map(|(g, n, m)| format!("{} that {} moved", g.counted(*n), m.named()))
            .collect();
        write!(
            f,
            "it carries {} this phase, and no good may be moved by two of your transporters in one phase (put them down first)",
            what.join(" and ")
        )
    }
}

/// Where a boat carried from the water may be put down, when it was put down elsewhere.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoatPutDown {
    /// Not a boat from the water: nothing more to say.
    #[error("")]
    Anywhere,
    #[error(": from the river a boat is put down only into that river (`river {hex}`)")]
    River { hex: Hex },
    #[error(": from a dock a boat is put down only on the same shore (`dock {land} {sea}`)")]
    Dock { land: AreaId, sea: Hex },
}

/// Why fewer bricks were placed than ordered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FewerBricks {
    #[error("the wonder is finished")]
    Finished,
    /// Each good short at home, and how many there are.
    #[error("{}", short.iter().map(|(g, n)| format!("only {} at home", g.counted(*n))).collect::<Vec<_>>().join(", "))]
    ShortAtHome { short: Vec<(Good, u32)> },
    #[error("the goods offered do not pay for more")]
    NotPaidFor,
}

/// Why a transporter took fewer of a good than it was asked to.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Short {
    #[error("a caravan carries only artwork, not {}", good.name())]
    ArtworkOnly { good: Good },
    #[error("a caravan carries one {} at most", good.singular())]
    OneOfEach { good: Good },
    #[error("room for only {}", good.counted(*took))]
    RoomFor { good: Good, took: u32 },
    #[error("only {} to take", good.counted(*there))]
    NoMoreThere { good: Good, there: u32 },
    #[error("it carried only {}", good.counted(*carried))]
    CarriedOnly { good: Good, carried: u32 },
}

/// A limit a player is over (RULINGS R4): how many of what, and the limit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{player} would have {n} {what}; the limit is {max}")]
pub struct Limit {
    pub player: Colour,
    pub n: usize,
    pub max: usize,
    pub what: &'static str,
}

/// Why goods handed to a transporter were not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotGiven {
    #[error(
        "{owner} has not accepted goods from {giver} ({owner}'s {phase} orders would say `accept goods from {giver}`)"
    )]
    NotAccepted {
        owner: Colour,
        giver: Colour,
        phase: Phase,
    },
    #[error("{owner} accepts no more")]
    AcceptsNoMore { owner: Colour },
    /// A caravan's own rule, said of the caravan by name.
    #[error("{to} {}", why.to_string().trim_start_matches("a caravan "))]
    CaravanRule { to: Named, why: Short },
    #[error("{to} has no more room")]
    NoMoreRoom { to: Named },
    #[error("{id} does not carry it all")]
    NotCarried { id: Named },
}

/// Why one transporter cannot pick up another (Quick Guide III).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoPickUp {
    #[error("{id} cannot carry itself")]
    Itself { id: Named },
    /// The carrier's kind never carries a transporter (its rule's words).
    #[error("{0}")]
    CarriesNone(&'static str),
    #[error(
        "{other} is {owner}'s, and {owner} has not allowed you to carry it (its owner's orders would say `allow {carrier} to carry {id}`)"
    )]
    NotAllowed {
        other: Named,
        owner: Colour,
        carrier: Colour,
        id: TransporterId,
    },
    #[error("{other} is already carried, by {by}")]
    AlreadyCarried { other: Named, by: Named },
    #[error("{other} is not where {id} is")]
    NotWhere { other: Named, id: Named },
    #[error("{other} has moved this phase and cannot be carried")]
    Moved { other: Named },
    #[error("neither transporter may carry anything else")]
    Laden,
    #[error("a transporter carries one transporter at a time, and a carried one carries nothing")]
    OneAtATime,
}

/// A recipe's inputs, for the sentence that says it was not met.
fn recipe_inputs(recipe: &Recipe) -> String {
    let parts: Vec<String> = recipe
        .inputs
        .iter()
        .map(|(i, n)| match i {
            Input::Good(g) => g.counted(*n),
            Input::Wood if *n == 1 => "1 trunk or board".to_string(),
            Input::Wood => format!("{n} trunks or boards"),
            Input::Donkey => judge_core::text::count(*n as usize, "donkey"),
        })
        .collect();
    parts.join(" and ")
}

fn or_list(areas: &[AreaId]) -> String {
    joined(areas, " or ")
}

fn comma_list<T: fmt::Display>(items: &[T]) -> String {
    joined(items, ", ")
}

fn and_list<T: fmt::Display>(items: &[T]) -> String {
    joined(items, " and ")
}

fn joined<T: fmt::Display>(items: &[T], between: &str) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(between)
}

fn dirs(edges: RiverEdges) -> String {
    edges.iter().map(Dir::name).collect::<Vec<_>>().join(", ")
}

fn wall_owner(owner: Option<Colour>) -> &'static str {
    owner.map_or("neutral", Colour::name)
}

/// "bombs are", "electricity is".
fn verb(module: Module) -> &'static str {
    if module.name().ends_with('s') {
        "are"
    } else {
        "is"
    }
}

/// A refusal's words, where a diagnostic quotes it (a scenario's, a set-up choice's).
impl From<Refusal> for String {
    fn from(refusal: Refusal) -> String {
        refusal.to_string()
    }
}
