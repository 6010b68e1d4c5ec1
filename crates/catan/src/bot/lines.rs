//! The bot's line writers: a line of a plan ([`Line`]) and what a build is ([`Goal`]),
//! and the order lines it writes for the robber, bank trades and offers, with what it
//! knows of the others' standing acceptances ([`takers`]).

use std::fmt::Write as _;

use crate::board::{EdgeId, VertexId};
use crate::cards::{Cards, Resource};
use crate::orders::RobberChoice;
use crate::rules::Action;
use crate::state::State;

/// One line of a plan: an order, with the cards it needs when the plan cannot be
/// sure they are held (after a 7's unknown steal, or a monopoly).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Line {
    pub(super) have: Option<Cards>,
    pub(super) order: String,
}

impl Line {
    pub(super) fn plain(order: String) -> Line {
        Line { have: None, order }
    }

    pub(super) fn holding(cards: Cards, order: String) -> Line {
        Line {
            have: Some(cards),
            order,
        }
    }
}

/// What a build costs, and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Goal {
    City(VertexId),
    Settlement(VertexId),
    Road(EdgeId),
    Development,
}

impl Goal {
    pub(super) fn cost(self) -> Cards {
        match self {
            Goal::City(_) => Cards::CITY,
            Goal::Settlement(_) => Cards::SETTLEMENT,
            Goal::Road(_) => Cards::ROAD,
            Goal::Development => Cards::DEVELOPMENT,
        }
    }

    pub(super) fn action(self) -> Action {
        match self {
            Goal::City(v) => Action::BuildCity(v),
            Goal::Settlement(v) => Action::BuildSettlement(v),
            Goal::Road(e) => Action::BuildRoad(e),
            Goal::Development => Action::BuyDevelopment,
        }
    }

    pub(super) fn order(self, s: &State) -> String {
        match self {
            Goal::City(v) => format!("build city {}", s.vertex_name(v)),
            Goal::Settlement(v) => format!("build settlement {}", s.vertex_name(v)),
            Goal::Road(e) => format!("build road {}", s.edge_name(e)),
            Goal::Development => "buy development card".into(),
        }
    }
}

pub(super) fn robber_text(s: &State, c: &RobberChoice) -> String {
    let mut t = format!("robber {}", s.hex_name(c.hex));
    if !c.rob.is_empty() {
        let names: Vec<&str> = c.rob.iter().map(|c| c.name()).collect();
        let _ = write!(t, " rob {}", names.join(", "));
    }
    t
}

/// Bank trades (give, get, rate) that complete `cost` from `hand`, seat `me`'s, each
/// giving the resource with the most to spare beyond the cost; `None` if more than
/// `most` cards are missing or the hand cannot pay.
pub(super) fn bank_trades(
    sim: &State,
    me: u8,
    mut hand: Cards,
    cost: Cards,
    most: u32,
) -> Option<Vec<(Resource, Resource, u8)>> {
    let short = hand.short_of(&cost);
    if short.total() > most {
        return None;
    }
    let mut trades = Vec::new();
    for want in Resource::ALL {
        for _ in 0..short.get(want) {
            let give = Resource::ALL
                .into_iter()
                .filter(|&r| r != want && hand.get(r) >= cost.get(r) + sim.rate(me, r))
                .max_by_key(|&r| {
                    (
                        hand.get(r) - cost.get(r) - sim.rate(me, r),
                        std::cmp::Reverse(r.index()),
                    )
                })?;
            let rate = sim.rate(me, give);
            hand.0[give.index()] -= rate;
            hand.0[want.index()] += 1;
            trades.push((give, want, rate));
        }
    }
    Some(trades)
}

/// A bank trade as an order line: first offered 1 for 1 to the other players' standing
/// acceptances when one has shown it takes such an offer ([`takers`]; whether they
/// still hold the card is theirs to know), the bank trade the alternative.
pub(super) fn trade_line(
    s: &State,
    me: u8,
    (give, want, rate): (Resource, Resource, u8),
) -> String {
    if someone_accepts(s, me, give, want) {
        offer_line(give, want, Some(rate))
    } else {
        format!("trade {rate} {give} for {want}")
    }
}

/// An offer of 1 `give` for 1 `want` as an order line, with the bank trade at `rate`
/// as its alternative when given.
pub(super) fn offer_line(give: Resource, want: Resource, rate: Option<u8>) -> String {
    match rate {
        Some(rate) => format!("offer 1 {give} for 1 {want} or trade {rate} {give} for {want}"),
        None => format!("offer 1 {give} for 1 {want}"),
    }
}

/// Has another player's standing acceptance shown, in a trade everyone saw, that it
/// takes 1 `give` for 1 `want` from seat `me`?
pub(super) fn someone_accepts(s: &State, me: u8, give: Resource, want: Resource) -> bool {
    takers(s, me)[give.index()][want.index()] > 0
}

/// Which one-for-one offers the other players' standing acceptances have shown they
/// take: `takers(..)[give][get]`, the number of players (after `me`, in turn order)
/// whose file on record took a trade in which the offering player gave exactly one
/// `give` and got at least one `get` — an acceptance takes any offer that gives at
/// least what it asks and asks no more than it gives, so that one takes 1 `give` for
/// 1 `get` too. Only what the reports showed counts: never the
/// lines of another's file, which are theirs alone, so neither an acceptance that never
/// took a trade, nor how many more times one may take. Whether it still does (used up,
/// or `from` another player only) is not known: an offer is always written with a
/// bank trade or `if I have` lines after it.
pub(super) fn takers(s: &State, me: u8) -> [[u8; 5]; 5] {
    let mut out = [[0u8; 5]; 5];
    for q in s.after(me) {
        let mut shown = [[false; 5]; 5];
        for t in &s.records[q as usize].took {
            let Some(give) = Resource::ALL
                .into_iter()
                .find(|&r| t.gave == Cards::one(r, 1))
            else {
                continue;
            };
            for get in Resource::ALL {
                if t.got.get(get) > 0 {
                    shown[give.index()][get.index()] = true;
                }
            }
        }
        for (row, shown) in out.iter_mut().zip(shown) {
            for (n, shown) in row.iter_mut().zip(shown) {
                *n = n.saturating_add(u8::from(shown));
            }
        }
    }
    out
}
