//! Jumpstart (&cetera, Jumpstart): the auction of starting lots before turn 1.
//!
//! "The scenario gives a number of "lots", consisting of 1 or more goods and/or a
//! starting tile … Randomly determine who starts the bidding. The players then take
//! turns, going clockwise. In your turn, you either bid or pass. If you do not yet have
//! any active bid, you must bid; if you do, you must pass. A bid must be at least 5 points
//! higher than the last bid on a specific pile … The player who makes the bid puts a
//! donkey on the pile. Any donkey already present is returned to its owner. As soon as
//! all players have a donkey on a pile, the bidding stops … Each player then takes his
//! pile, and the game starts. At the end of the game, each player subtracts the amount
//! bid from his final score."
//!
//! By mail the auction is played in rounds, like the set-up round of homes
//! (`setup.rs`): [`Scenario::start_auction`] gives an [`Auction`]; [`Auction::next`]
//! says whose turn it is (a player with an active bid passes without a mail, as the rule
//! makes them); the player sends one `bid 15 on lot 2` line, read and checked by
//! [`Auction::check`] and played by [`Auction::bid`]; a missed deadline (`None`) bids the
//! default; when every player has a lot, [`Auction::finish`] gives the turn-0 state with
//! each lot's goods (and home) given to its winner and each winning bid kept in
//! `State::bids` for the final score. Everything here is pure and serialisable.
//!
//! Readings (RULINGS R10): the first bid on a lot may be 0, each later bid on it at least
//! 5 more; a final score may be negative. "Clockwise" is seat order (red, yellow, green,
//! …) from a starting bidder drawn from the game's seed. The default bid at a deadline is
//! the cheapest: 0 on the first lot nobody has bid on, else 5 more than the lowest price.
//!
//! [`Scenario::start_auction`]: crate::scenario::Scenario::start_auction

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Hooks, Plugin, StartKeys};
use crate::goods::Goods;
use crate::map::AreaId;
use crate::order_text;
use crate::order_text::Expect;
use crate::player::Colour;
use crate::refusal::Refusal;
use crate::scenario::{Scenario, Seat, StartError};
use crate::setup::{PreGameMail, StartKit, pre_game_header};
use crate::state::State;
use crate::state::{Module, Phase};
use judge_core::diagnostic::Diagnostic;
use judge_core::luck::Luck;

pub static PLUGIN: Plugin = Plugin {
    module: Module::Jumpstart,
    rule: "&cetera, Jumpstart",
    buildings: &[],
    goods: &[],
    transporters: &[],
    terrains: &[],
    orders: &[],
    before_turn_one: &["bid"],
    steps: &[(
        Phase::Wonder,
        "at the end of the game each player's winning bid is taken from the score",
    )],
    map_legend: &[],
    hooks: Hooks {
        score: Some(score),
        read_start: Some(read_lots),
        start_refused: Some(start_refused),
        start_by_default: Some(start_by_default),
        ..Hooks::NONE
    },
};

/// Each player's winning bid, taken from the final score (`State::bids`).
pub type Bids = std::collections::BTreeMap<Colour, u32>;

/// The least a later bid on a lot must add to the last (the first may be 0).
pub const RAISE: u32 = 5;

/// One lot: goods, and perhaps a starting tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lot {
    #[serde(default, skip_serializing_if = "Goods::is_empty")]
    pub goods: Goods,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home: Option<AreaId>,
}

impl fmt::Display for Lot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.goods)?;
        if let Some(h) = self.home {
            write!(f, " and the starting tile {h}")?;
        }
        Ok(())
    }
}

/// A bid: the lot (1-based, as players write it) and the price.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bid {
    pub player: Colour,
    pub lot: usize,
    pub price: u32,
    /// The deadline passed and the default was bid.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_default: bool,
}

/// The auction of a jumpstart game, between mails. Serialisable, so the archive keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Auction {
    /// The position before turn 1: homes fixed by the scenario (or none, when the lots
    /// carry them), no starting kits yet.
    pub state: State,
    pub lots: Vec<Lot>,
    pub kit: StartKit,
    /// The bidding order: the starting bidder, then clockwise (seat order).
    pub order: Vec<Colour>,
    /// Each lot's standing bid, if any: whose donkey is on the pile, and the price.
    pub standing: Vec<Option<Bid>>,
    /// Whose turn it is, as an index into `order`.
    pub turn: usize,
    /// Every bid made, in order.
    pub history: Vec<Bid>,
}

/// What a bid mail, or a missed deadline, did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The bid stands; a donkey it displaced (the player who held the lot) is returned.
    Bid { bid: Bid, displaced: Option<Colour> },
    /// The mail gives no legal bid: nothing changes, the player may send again.
    Refused,
    /// It is another player's turn (or the auction is over).
    NotYourTurn { next: Option<Colour> },
}

/// The result of one step of the auction.
#[derive(Clone, Debug)]
#[must_use]
pub struct Step {
    pub auction: Auction,
    pub player: Colour,
    pub outcome: Outcome,
    pub diagnostics: Vec<Diagnostic>,
    /// The turn-0 state, once every player holds a lot.
    pub state: Option<State>,
}

/// A bid mail, read and checked.
#[derive(Clone, Debug)]
#[must_use]
pub struct Checked {
    pub player: Option<Colour>,
    /// The bid asked for, if the mail reads and the bid is legal now: (lot, price).
    pub bid: Option<(usize, u32)>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

impl Auction {
    /// Start an auction: `state` is the seated position before turn 1, its move order
    /// already drawn from `draws`, whose next draw gives the starting bidder.
    pub fn new(
        state: State,
        draws: &mut judge_core::luck::Rng,
        lots: Vec<Lot>,
        kit: StartKit,
    ) -> Auction {
        let seats: Vec<Colour> = state.players.keys().copied().collect();
        let first = draws.below(seats.len().max(1) as u32) as usize;
        let order: Vec<Colour> = (0..seats.len())
            .map(|i| seats[(first + i) % seats.len()])
            .collect();
        let standing = vec![None; lots.len()];
        Auction {
            state,
            lots,
            kit,
            order,
            standing,
            turn: 0,
            history: Vec::new(),
        }
    }

    /// The lot `player` holds now, if any (1-based).
    pub fn holding(&self, player: Colour) -> Option<usize> {
        self.standing
            .iter()
            .position(|b| b.is_some_and(|b| b.player == player))
            .map(|i| i + 1)
    }

    /// Whose turn it is to bid: the next player in the bidding order with no active bid
    /// (one with a bid must pass, and does so without a mail). `None` when every player
    /// holds a lot: the bidding stops.
    pub fn next(&self) -> Option<Colour> {
        let n = self.order.len();
        (0..n)
            .map(|k| self.order[(self.turn + k) % n])
            .find(|c| self.holding(*c).is_none())
    }

    /// The least bid a lot takes now: 0 if nobody has bid on it, else 5 more than its
    /// price.
    pub fn minimum(&self, lot: usize) -> Option<u32> {
        let s = self.standing.get(lot.checked_sub(1)?)?;
        Some(s.map_or(0, |b| b.price + RAISE))
    }

    /// Is a bid of `price` on `lot` legal for the next bidder?
    pub fn legal(&self, lot: usize, price: u32) -> Result<(), Refusal> {
        let Some(least) = self.minimum(lot) else {
            return Err(Refusal::NoLot {
                lot,
                lots: self.lots.len(),
            });
        };
        if price < least {
            let last = self.standing[lot - 1].map_or(0, |b| b.price);
            return Err(Refusal::BidTooLow {
                lot,
                last,
                raise: RAISE,
                least,
            });
        }
        Ok(())
    }

    /// The bid a player who misses the deadline makes: 0 on the first lot nobody has bid
    /// on, else the lowest minimum (the first such lot).
    pub fn default_bid(&self) -> Option<(usize, u32)> {
        (1..=self.lots.len())
            .filter_map(|lot| self.minimum(lot).map(|m| (lot, m)))
            .min_by_key(|(lot, m)| (*m, *lot))
    }

    /// Read a bid mail (a header and one `bid 15 on lot 2` line; docs/orders.md) and
    /// check it against the auction as it stands: every problem at once.
    pub fn check(&self, text: &str, expect: &Expect<'_>) -> Checked {
        let mut parsed = order_text::parse(text, &self.state.map);
        let mut diags = std::mem::take(&mut parsed.problems);
        let first_line = 0..text
            .find('\n')
            .unwrap_or(text.len())
            .max(1)
            .min(text.len().max(1));
        let player = pre_game_header(
            &parsed.header,
            expect,
            &first_line,
            &PreGameMail {
                what: "bid",
                when: "the auction is before turn 1",
            },
            &mut diags,
        );
        if let Some((line, span)) = parsed.lines.first() {
            diags.push(
                Diagnostic::new(format!(
                    "line {line}: the auction takes only a `bid` line; turn orders come after it"
                ))
                .at(span.clone()),
            );
        }
        if parsed.home.is_some() {
            diags.push(Diagnostic::new(
                "a `home` line has no place in the auction: a lot with a starting tile gives its winner that home",
            ));
        }
        let mut bid = None;
        match &parsed.bid {
            None if diags.iter().all(|d| !d.is_error()) => diags.push(
                Diagnostic::new("no `bid` line: say which lot and how much, like `bid 5 on lot 2`")
                    .at(first_line),
            ),
            None => {}
            Some(b) => match self.legal(b.lot, b.price) {
                Ok(()) => bid = Some((b.lot, b.price)),
                Err(e) => {
                    let mut d = Diagnostic::new(e).at(b.span.clone());
                    if let Some((lot, price)) = self.default_bid() {
                        d = d.help(format!(
                            "the cheapest bid now is `bid {price} on lot {lot}`"
                        ));
                    }
                    diags.push(d);
                }
            },
        }
        Checked {
            player,
            bid,
            diagnostics: diags,
        }
    }

    /// One step of the auction for `player`: `Some(text)` is their bid mail, `None` means
    /// the deadline passed without a valid bid (the default is bid). Pure.
    pub fn bid(&self, player: Colour, text: Option<&str>) -> Step {
        let unchanged = |outcome, diagnostics| Step {
            auction: self.clone(),
            player,
            outcome,
            diagnostics,
            state: None,
        };
        if self.next() != Some(player) {
            return unchanged(Outcome::NotYourTurn { next: self.next() }, Vec::new());
        }
        let (lot, price, by_default, diagnostics) = match text {
            Some(t) => {
                let c = self.check(
                    t,
                    &Expect {
                        player: Some(player),
                        game: None,
                    },
                );
                match c.bid {
                    Some((lot, price)) if c.errors() == 0 => (lot, price, false, c.diagnostics),
                    _ => return unchanged(Outcome::Refused, c.diagnostics),
                }
            }
            None => match self.default_bid() {
                Some((lot, price)) => (lot, price, true, Vec::new()),
                None => return unchanged(Outcome::Refused, Vec::new()),
            },
        };
        let mut a = self.clone();
        let bid = Bid {
            player,
            lot,
            price,
            by_default,
        };
        let displaced = a.standing[lot - 1].map(|b| b.player);
        a.standing[lot - 1] = Some(bid);
        a.history.push(bid);
        if let Some(i) = a.order.iter().position(|c| *c == player) {
            a.turn = (i + 1) % a.order.len();
        }
        let state = a.finish();
        Step {
            auction: a,
            player,
            outcome: Outcome::Bid { bid, displaced },
            diagnostics,
            state,
        }
    }

    /// The turn-0 state, once every player holds a lot: each takes their pile — its
    /// goods on their home, and its starting tile as their home — with the starting kit,
    /// and their winning bid is kept for the final score. `None` while the bidding goes
    /// on.
    pub fn finish(&self) -> Option<State> {
        if self.next().is_some() {
            return None;
        }
        let mut state = self.state.clone();
        for (lot, b) in self.lots.iter().zip(&self.standing) {
            let Some(b) = b else { continue };
            if let Some(home) = lot.home
                && let Some(p) = state.players.get_mut(&b.player)
            {
                p.home = Some(home);
            }
            state.bids.insert(b.player, b.price);
        }
        let homes: Vec<(Colour, AreaId)> = state
            .players
            .iter()
            .filter_map(|(c, p)| p.home.map(|h| (*c, h)))
            .collect();
        for (colour, home) in homes {
            self.kit.place(&mut state, colour, home);
            if let Some(i) = self.holding(colour) {
                state
                    .goods
                    .entry(home)
                    .or_default()
                    .add_all(&self.lots[i - 1].goods);
            }
        }
        state.normalise();
        Some(state)
    }
}

impl Step {
    /// The sentence for the answer mail and the auction report.
    pub fn summary(&self) -> String {
        let p = self.player;
        let next = match self.auction.next() {
            Some(c) => format!(" {c} bids next."),
            None if self.state.is_some() => {
                " Every player holds a lot: the bidding stops, and turn 1 is next.".into()
            }
            None => String::new(),
        };
        match &self.outcome {
            Outcome::Bid { bid, displaced } => {
                let how = if bid.by_default {
                    "sent no valid bid in time and bids the default,"
                } else {
                    "bids"
                };
                let back = displaced.map_or(String::new(), |d| {
                    format!(" {d}'s donkey is returned: {d} must bid again.")
                });
                format!("{p} {how} {} on lot {}.{back}{next}", bid.price, bid.lot)
            }
            Outcome::Refused => format!("{p}'s bid is refused: see the problems; send it again."),
            Outcome::NotYourTurn { next: Some(n) } => {
                format!("It is {n}'s turn to bid, not {p}'s.")
            }
            Outcome::NotYourTurn { next: None } => "The bidding is over.".into(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Bid { bid, displaced } => {
                write!(f, "bid {} on lot {}", bid.price, bid.lot)?;
                if bid.by_default {
                    f.write_str(" (the default)")?;
                }
                if let Some(d) = displaced {
                    write!(f, ", returning {d}'s donkey")?;
                }
                Ok(())
            }
            Outcome::Refused => f.write_str("failed: the bid is refused"),
            Outcome::NotYourTurn { .. } => f.write_str("failed: not this player's turn to bid"),
        }
    }
}

/// Jumpstart's scenario key, `[start] lots`: the lots auctioned before turn 1, each goods
/// and perhaps a starting tile (either every lot has one, and `homes` is empty, or none
/// has). Asked of the module in play or not: lots need it. (Hook `read_start`.)
fn read_lots(k: &mut StartKeys<'_>) {
    let start = k.start;
    let on = k.state.settings.modules.contains(&Module::Jumpstart);
    if start.lots.is_empty() {
        // A position after the auction (bids written down, or turns played) needs none.
        if on && !k.started {
            let msg = "jumpstart is in play, but [start] lists no lots to auction";
            k.problems.push(Diagnostic::new(msg).help(
                "list the lots in [start], like lots = [{ goods = { boards = 3 } }, { goods = { stone = 2 } }]",
            ));
        }
        return;
    }
    if !on {
        k.problems.push(
            Diagnostic::new("lots are auctioned only with the jumpstart module")
                .at(start.lots[0].span())
                .help("add \"jumpstart\" to `modules` in [rules]"),
        );
        return;
    }
    if start.lots.len() < k.colours.len() {
        k.problems.push(
            Diagnostic::new(format!(
                "{} for {}: every player must be able to win one",
                judge_core::text::count(start.lots.len(), "lot"),
                judge_core::text::count(k.colours.len(), "player")
            ))
            .at(start.lots[0].span()),
        );
    }
    let with_home = start
        .lots
        .iter()
        .filter(|l| l.get_ref().home.is_some())
        .count();
    if with_home > 0
        && (with_home < start.lots.len() || !start.homes.is_empty() || start.choose.is_some())
    {
        k.problems.push(
            Diagnostic::new(
                "when lots carry starting tiles, every lot has one, and [start] lists no `homes` and no `choose`",
            )
            .at(start.lots[0].span()),
        );
    }
    let mut lots = Vec::new();
    let mut placed: Vec<AreaId> = Vec::new();
    for raw in &start.lots {
        let l = raw.get_ref();
        let home = match &l.home {
            Some(text) => {
                let area = match k.state.map.resolve_area(text.get_ref()) {
                    Ok(a) => a,
                    Err(e) => {
                        k.problems.push(Diagnostic::new(e).at(text.span()));
                        continue;
                    }
                };
                if !k.state.map.is_land(area.hex) {
                    k.problems.push(
                        Diagnostic::new(format!(
                            "{} is not land: a home is on a land tile",
                            area.hex
                        ))
                        .at(text.span()),
                    );
                    continue;
                }
                if placed.iter().any(|p| p.hex.distance(area.hex) < 2) {
                    k.problems.push(
                        Diagnostic::new(
                            "two lots' starting tiles are too close: there must be at least one tile between two homes",
                        )
                        .at(text.span()),
                    );
                }
                placed.push(area);
                Some(area)
            }
            None => None,
        };
        lots.push(Lot {
            goods: l.goods.clone().unwrap_or_default(),
            home,
        });
    }
    k.read.jumpstart = Some(lots);
}

/// A scenario with lots starts with their auction, not at turn 0. (Hook `start_refused`.)
fn start_refused(s: &Scenario) -> Option<StartError> {
    s.modules.jumpstart.as_ref().map(|_| StartError::Auction {
        scenario: s.name.clone(),
    })
}

/// The turn-0 state of a scenario with lots, the auction played as for players who let
/// every deadline pass: default bids take lots nobody has bid on, one step per player.
/// (Hook `start_by_default`.)
fn start_by_default(
    s: &Scenario,
    seats: &[Seat],
    luck: &Luck,
) -> Option<Result<State, StartError>> {
    if !s.has_auction() {
        return None;
    }
    let mut auction = match s.start_auction(seats, luck) {
        Ok(a) => a,
        Err(e) => return Some(Err(e)),
    };
    for _ in 0..1000 {
        let Some(next) = auction.next() else { break };
        let step = auction.bid(next, None);
        if let Some(state) = step.state {
            return Some(Ok(state));
        }
        auction = step.auction;
    }
    Some(auction.finish().ok_or(StartError::Auction {
        scenario: s.name.clone(),
    }))
}

/// Jumpstart's start of a game, which the scenario holds the lots of.
impl Scenario {
    /// Does the game start with a jumpstart auction ([`Scenario::start_auction`])?
    pub fn has_auction(&self) -> bool {
        self.modules.jumpstart.is_some()
    }

    /// Start a jumpstart game: seats filled and the move order drawn as in
    /// [`Scenario::start`], then the auction of the scenario's lots, its starting bidder
    /// the next draw of the same stream. Play it with [`Auction::bid`]; its last step
    /// gives the turn-0 state.
    pub fn start_auction(&self, seats: &[Seat], luck: &Luck) -> Result<Auction, StartError> {
        let Some(lots) = self.modules.jumpstart.clone() else {
            return Err(StartError::NoAuction {
                scenario: self.name.clone(),
            });
        };
        let (state, mut draws) = self.seat(seats, luck)?;
        Ok(Auction::new(state, &mut draws, lots, self.kit.clone()))
    }
}

/// "At the end of the game, each player subtracts the amount bid from his final score."
fn score(s: &State, player: Colour) -> i64 {
    -i64::from(s.bids.get(&player).copied().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Scenario, Seat};

    const SCENARIO: &str = r#"
[scenario]
name = "js"
title = "Jumpstart"
players = 2
[rules]
turn_limit = 9
modules = ["jumpstart"]
[map]
rows = ["s s s s s", "s p p p s", "s p w r s", "s s s s s"]
[start]
homes = ["B2", "D3"]
lots = [{ goods = { boards = 3 } }, { goods = { stone = 2 } }]
"#;

    fn seats() -> Vec<Seat> {
        ["Ann", "Bob"]
            .iter()
            .map(|n| Seat {
                name: n.to_string(),
                email: format!("{n}@example.org"),
            })
            .collect()
    }

    fn auction(text: &str) -> Auction {
        let s = Scenario::parse("js.toml", text).unwrap_or_else(|d| panic!("{d}"));
        assert!(s.has_auction());
        assert!(
            s.start(&seats(), &judge_core::luck::Luck::predictable(1))
                .is_err(),
            "a jumpstart game starts with its auction, not at turn 0"
        );
        s.start_auction(&seats(), &judge_core::luck::Luck::predictable(1))
            .expect("auction")
    }

    /// Jumpstart: "the players then take turns … If you do not yet have any active bid,
    /// you must bid": the one whose turn it is not is told whose it is, and nothing
    /// changes; a player holding a lot is never asked.
    #[test]
    fn players_bid_in_turn_and_holders_pass() {
        let a = auction(SCENARIO);
        let first = a.next().expect("someone bids first");
        let other = a.order[1];
        let early = a.bid(other, Some("bid 0 on lot 1"));
        assert_eq!(early.outcome, Outcome::NotYourTurn { next: Some(first) });
        assert_eq!(early.auction, a);
        let step = a.bid(first, Some(&format!("player {first}\nbid 0 on lot 1\n")));
        assert!(matches!(step.outcome, Outcome::Bid { .. }));
        assert_eq!(step.auction.next(), Some(other));
        assert!(step.summary().contains(&format!("{other} bids next")));
        let outbid = step.auction.bid(other, Some("bid 5 on lot 1"));
        assert_eq!(
            outbid.auction.next(),
            Some(first),
            "the displaced player bids again"
        );
        assert!(outbid.summary().contains("donkey is returned"));
        let done = outbid.auction.bid(first, None);
        let state = done
            .state
            .clone()
            .expect("every player holds a lot: turn 0");
        assert_eq!(state.bids.get(&other), Some(&5));
        assert_eq!(state.bids.get(&first), Some(&0));
        assert!(done.summary().contains("turn 1 is next"));
    }

    /// A mail with no bid, a bid too low, or turn orders is refused with reasons.
    #[test]
    fn refusals_say_why() {
        let a = auction(SCENARIO);
        let p = a.next().expect("a bidder");
        let c = a.check("player red\n", &Expect::default());
        assert!(c.diagnostics[0].message.contains("no `bid` line"));
        let c = a.check(
            &format!("player {p}\nbid 0 on lot 1\nmovement\nmove D1: C2\n"),
            &Expect::default(),
        );
        assert_eq!(c.errors(), 1, "{:?}", c.diagnostics);
        let b = a.bid(p, Some("bid 0 on lot 1")).auction;
        let q = b.next().expect("the other bidder");
        let low = b.bid(q, Some("bid 4 on lot 1"));
        assert_eq!(low.outcome, Outcome::Refused);
        assert!(low.diagnostics[0].message.contains("5 or more"));
    }

    /// The auction is kept in the archive between mails: it reads back as written.
    #[test]
    fn the_auction_serialises() {
        let a = auction(SCENARIO);
        let p = a.next().expect("a bidder");
        let a = a.bid(p, Some("bid 10 on lot 2")).auction;
        let json = serde_json::to_string(&a).expect("json");
        let back: Auction = serde_json::from_str(&json).expect("reads");
        assert_eq!(back, a);
    }

    /// Lots are refused without the module, and too few lots, or lots carrying homes
    /// beside fixed homes, are refused with reasons.
    #[test]
    fn malformed_lots_are_refused() {
        let without = SCENARIO.replace("modules = [\"jumpstart\"]", "");
        let d = Scenario::parse("js.toml", &without).expect_err("refused");
        assert!(d.render().contains("only with the jumpstart module"));
        let few = SCENARIO.replace(", { goods = { stone = 2 } }", "");
        let d = Scenario::parse("js.toml", &few).expect_err("refused");
        assert!(d.render().contains("1 lot for 2 players"));
        let mixed = SCENARIO.replace("{ goods = { boards = 3 } }", "{ home = \"C2\" }");
        let d = Scenario::parse("js.toml", &mixed).expect_err("refused");
        assert!(d.render().contains("every lot has one"));
    }
}
