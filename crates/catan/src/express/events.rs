//! What Catan Express tells: pieces built (and parallel fees paid), connection chips,
//! the race beginning, stopovers chosen, the locomotives' steps and fares, water towers
//! taken, and the race won. Everything here is public.

use serde::{Deserialize, Serialize};

use super::rail::{Kind, Node, Stretch};
use crate::board::VertexId;
use crate::cards::Resource;
use crate::colour::Colour;
use crate::state::State;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "express")]
pub enum Event {
    /// A rail line or ferry built; `fee`: the players paid one brick each for a
    /// parallel piece.
    Built {
        player: Colour,
        kind: Kind,
        stretch: Stretch,
        free: bool,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fee: Vec<Colour>,
    },
    /// A connection chip for bringing another player's settlement onto the railway.
    ConnectedSettlement {
        player: Colour,
        owner: Colour,
        vertex: VertexId,
    },
    /// A connection chip for joining one's railway to others' it was not joined to.
    JoinedNet {
        player: Colour,
        with: Vec<Colour>,
    },
    /// The race begins.
    RaceBegan {
        starter: Colour,
    },
    /// The stopovers are to be chosen again (none could be).
    ChooseAgain {
        starter: Colour,
    },
    StopoverChosen {
        player: Colour,
        vertex: VertexId,
    },
    NoStopover {
        player: Colour,
    },
    /// One step of a locomotive, with the fare paid (to whom, what).
    Moved {
        player: Colour,
        from: Node,
        to: Node,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fare: Option<(Colour, Resource)>,
    },
    /// The locomotive reached one of its water towers, took it and stopped.
    TowerTaken {
        player: Colour,
        vertex: VertexId,
    },
    /// All towers taken, but the railway is not yet joined to every other player's.
    RaceWaits {
        player: Colour,
    },
    /// The race is complete: the game ends.
    RaceWon {
        player: Colour,
    },
    /// The separate railways can no longer be joined with the pieces left: the
    /// connection the race needs lapses (RULINGS R9).
    ConnectionLapsed,
    /// The race can no longer be won: nobody can still collect all their towers. The
    /// game ends, the most points winning (RULINGS R9).
    RaceStalled,
}

impl Event {
    pub fn player(&self) -> Option<Colour> {
        use Event::*;
        Some(match self {
            Built { player, .. }
            | ConnectedSettlement { player, .. }
            | JoinedNet { player, .. }
            | StopoverChosen { player, .. }
            | NoStopover { player }
            | Moved { player, .. }
            | TowerTaken { player, .. }
            | RaceWaits { player }
            | RaceWon { player } => *player,
            RaceBegan { starter } | ChooseAgain { starter } => *starter,
            ConnectionLapsed | RaceStalled => return None,
        })
    }

    pub fn text(&self, s: &State, _viewer: Option<Colour>) -> String {
        use Event::*;
        let t = &s.board.topology;
        let rail = s.scenario.as_deref().map(|x| x.rail.clone());
        let stretch = |st: Stretch| {
            rail.as_ref()
                .map_or(st.to_string(), |r| r.stretch_name(t, st))
        };
        let node = |n: Node| rail.as_ref().map_or(n.to_string(), |r| r.node_name(t, n));
        let list = |cs: &[Colour]| {
            cs.iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(" and ")
        };
        match self {
            Built {
                player,
                kind,
                stretch: st,
                free,
                fee,
            } => {
                let free = if *free { " (free)" } else { "" };
                let fee = if fee.is_empty() {
                    String::new()
                } else {
                    format!(", paying 1 brick to {} (parallel)", list(fee))
                };
                format!(
                    "{player} built a {} at {}{free}{fee}",
                    kind.name(),
                    stretch(*st)
                )
            }
            ConnectedSettlement {
                player,
                owner,
                vertex,
            } => format!(
                "{player} takes a connection chip: {owner}'s settlement at {} is now on the railway",
                t.vertex_name(*vertex)
            ),
            JoinedNet { player, with } => format!(
                "{player} takes a connection chip: their railway now joins {}'s",
                list(with)
            ),
            RaceBegan { starter } => format!(
                "{starter} has 8 points: THE RACE BEGINS, with {starter} as the starter; everyone may now have 4 cities"
            ),
            ChooseAgain { starter } => {
                format!("no stopover could be chosen: they are chosen again, from {starter}")
            }
            StopoverChosen { player, vertex } => format!(
                "{player} chose {} as a stopover: every player has a water tower there",
                t.vertex_name(*vertex)
            ),
            NoStopover { player } => {
                format!("{player} has no place for a stopover in their railway")
            }
            Moved {
                player,
                from,
                to,
                fare,
            } => {
                let fare = match fare {
                    Some((c, r)) => format!(", paying 1 {r} to {c}"),
                    None => String::new(),
                };
                format!(
                    "{player}'s locomotive: {} to {}{fare}",
                    node(*from),
                    node(*to)
                )
            }
            TowerTaken { player, vertex } => format!(
                "{player} takes their water tower at {} (1 point); the locomotive stops",
                t.vertex_name(*vertex)
            ),
            RaceWaits { player } => format!(
                "{player} has all their water towers, but their railway is not joined to everyone's: the race cannot be won until it is"
            ),
            RaceWon { player } => format!(
                "{player} completes the race and takes the Fastest Locomotive Driver card (1 point): the game ends"
            ),
            ConnectionLapsed => "the separate railways can no longer be joined with the pieces left in all supplies: from now on a player who takes all their water towers completes the race without that connection".into(),
            RaceStalled => "nobody can still take all their water towers: the race can no longer be won, and the game ends; the most points win".into(),
        }
    }
}

/// Why Catan Express refuses an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "express")]
pub enum Refusal {
    NoRoads,
    /// Not a place where this piece may lie.
    NotAPlace {
        kind: Kind,
    },
    /// One's own piece already lies there.
    AlreadyThere,
    /// It does not join the builder's railway system.
    NotAttached,
    /// The founding line must run from the new settlement.
    NotAtNewSettlement,
    NoPieces {
        kind: Kind,
    },
    /// The parallel fee (one brick to each player on the stretch) cannot be paid.
    CannotPayFee {
        bricks: u8,
        have: u8,
    },
    /// A settlement on a vertex a line or ferry touches.
    LineAtVertex,
    /// A city on a settlement not on any railway.
    NotOnRailway,
    RaceNotStarted,
    TooFewPieces {
        have: u8,
    },
    /// Nothing to move along between these places.
    NoTrack,
    /// The stretch does not start where the locomotive stands.
    NotAtLocomotive,
    /// The fare named goes to a player with no piece there.
    NotAnOwner,
    /// One's own piece lies there: the ride is free.
    NoFare,
    /// A rival's piece: a fare must be paid.
    FareNeeded,
    /// Nothing to pay the fare with.
    CannotPayFare,
    /// The movement points are used up.
    NoPointsLeft,
    /// Stopovers: not a settlement or city.
    NotABuilding,
    /// Stopovers: not in one's own railway.
    NotInYourRailway,
    /// Stopovers: a locomotive's starting place.
    StartingPlace,
    /// Stopovers: chosen already.
    AlreadyChosen,
    /// Movement ends the turn: orders after it are refused.
    MovementEnded,
    /// The place is for the other kind of piece.
    PlaceIsFor {
        kind: Kind,
    },
    /// A founding placement's rail line named for the first settlement, which has none.
    FirstHasNoLine,
    /// No way along the railway to that place.
    NoRoute,
    /// No water tower of the player's left standing.
    NoTowerLeft,
}

impl Refusal {
    pub fn text(&self, _s: &State) -> String {
        use Refusal::*;
        match self {
            NoRoads => {
                "Catan Express has no roads: build rail lines (`line 13-F`) and ferries".into()
            }
            NotAPlace { kind: Kind::Line } => {
                "a rail line runs from a vertex to the centre of one of its land hexes".into()
            }
            NotAPlace { kind: Kind::Ferry } => "not a place for a ferry on this map".into(),
            AlreadyThere => "you already have a piece there".into(),
            NotAttached => "it does not join your railway system".into(),
            NotAtNewSettlement => {
                "the first rail line must start at the settlement just founded".into()
            }
            NoPieces { kind } => format!("you have no {} left", kind.plural()),
            CannotPayFee { bricks, have } => format!(
                "a parallel piece costs 1 brick to each player already there ({bricks} in all), and you have {have}"
            ),
            LineAtVertex => "a rail line or ferry touches that vertex".into(),
            NotOnRailway => "that settlement is not on a railway yet".into(),
            RaceNotStarted => "the race has not started".into(),
            TooFewPieces { have } => {
                format!("a locomotive moves only with 5 rail lines and ferries; you have {have}")
            }
            NoTrack => "no rail line or ferry joins those places".into(),
            NotAtLocomotive => "that is not where your locomotive stands".into(),
            NotAnOwner => "that player has no piece there".into(),
            NoFare => "your own piece lies there: the ride is free".into(),
            FareNeeded => "that is another player's piece: name the fare".into(),
            CannotPayFare => "you have no resource card to pay the fare".into(),
            NoPointsLeft => "no movement points are left".into(),
            NotABuilding => "there is no settlement or city there".into(),
            NotInYourRailway => "that place is not in your railway".into(),
            StartingPlace => "a locomotive started there".into(),
            AlreadyChosen => "that place is a stopover already".into(),
            MovementEnded => "movement ended the turn".into(),
            PlaceIsFor { kind } => format!(
                "that is a place for a {}, not a {}",
                kind.name(),
                match kind {
                    Kind::Line => Kind::Ferry.name(),
                    Kind::Ferry => Kind::Line.name(),
                }
            ),
            FirstHasNoLine => {
                "the first settlement has no rail line (only the second gets one): it is not built"
                    .into()
            }
            NoRoute => "there is no way along the railway to that place".into(),
            NoTowerLeft => "you have no water tower left to collect".into(),
        }
    }
}
