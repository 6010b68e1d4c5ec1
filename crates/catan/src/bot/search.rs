//! The searching player, the judge's Catan bot (`judge bot`, the caretaker, and
//! `judge selfplay catan --bots search`): the greedy player's turn with its builds
//! searched instead of taken in a fixed order of preference.
//!
//! The search is an expectimax of one turn over the rules engine. The chance node is
//! the roll: as the greedy player does, a plan is made for every total (a 7's own
//! discard and robber lines are the greedy player's). Under each total the player's
//! move is a **max node over sequences of builds** — a city, a settlement, a road
//! towards a site or one that makes its longest road longer, a development card, each
//! with the trades that pay for it — searched depth-first to three builds deep, at
//! most [`BUDGET`] positions per total, every step played on a copy of the state by the
//! rules' own checks. The trades are the bank's, and before them one-for-one offers to
//! the others' standing acceptances that have shown they take them, in a trade everyone
//! saw (`super::takers`; [`OFFERS`] a turn at most, one to each such player): an offer
//! is played on its own hand alone, since whether the taker holds the card is not
//! known, and every line after it in the file names the cards it needs (`if I have`),
//! with the bank in the offer's place where the hand can pay. (Counting every
//! acceptance on record, which the others may not see, it won 43 % of its games
//! against three greedy players; counting only those a trade has shown, 37 %: so it
//! counts only those.) A sequence ends where the
//! player would stop (stopping is always a choice), and its last position is scored by
//! [`value`]: points first, then production (a bonus for each resource it collects at
//! all, nothing under the robber), harbours, cards in hand (fewer than eight; nearer a
//! city or a settlement), sites its roads reach, development cards, and the race for
//! the longest road (its length, up to one beyond the best rival's; with that term it
//! won 35 % of its games against three greedy players, 33 % without). The budget is positions, not time, so the same
//! position always gives the same file; it stays well under 50 ms a decision
//! (benches/catan_selfplay.rs).
//!
//! What it may not know it never reads: others' hands and development cards are not in
//! the score, and a development card bought on the copy counts as a card, never by the
//! kind the copy's deck happened to deal.

use std::cmp::Reverse;

use super::greedy::Bot;
use super::lines::{Goal, Line, bank_trades, offer_line, trade_line};
use super::planner::Planner;
use crate::board::{Board, EdgeId, VertexId};
use crate::cards::{Cards, Resource};
use crate::rules::Action;
use crate::rules::longest_road::length_of;
use crate::state::{NOBODY, Phase, State};

/// Positions searched under each total of the dice.
const BUDGET: usize = 300;
/// Builds in one sequence, at most.
const DEPTH: u8 = 3;
/// Offers to other players' standing acceptances in one turn, at most.
const OFFERS: u8 = 2;

/// The offers the rest of a turn may still make: how many, and to how many players
/// whose standing acceptances have shown they take one `give` for one `get`
/// (`takes[give][get]`).
#[derive(Clone, Copy, Debug)]
struct Offers {
    left: u8,
    takes: [[u8; 5]; 5],
}

impl Offers {
    fn can(&self, give: Resource, get: Resource) -> bool {
        give != get && self.left > 0 && self.takes[give.index()][get.index()] > 0
    }

    fn make(&mut self, give: Resource, get: Resource) {
        self.left = self.left.saturating_sub(1);
        let n = &mut self.takes[give.index()][get.index()];
        *n = n.saturating_sub(1);
    }

    /// What is left after the offers among `trades`.
    fn after(mut self, trades: &[Trade]) -> Offers {
        for t in trades {
            if let Trade::Offer(give, get) = *t {
                self.make(give, get);
            }
        }
        self
    }
}

/// A trade that pays for part of a build.
#[derive(Clone, Copy, Debug)]
enum Trade {
    /// With the bank or a harbour: give `rate` of the first for one of the second.
    Bank(Resource, Resource, u8),
    /// One of the first for one of the second, offered to another player's standing
    /// acceptance that takes it.
    Offer(Resource, Resource),
}

impl Trade {
    fn bank((give, get, rate): (Resource, Resource, u8)) -> Trade {
        Trade::Bank(give, get, rate)
    }

    /// What the trade brings.
    fn get(self) -> Resource {
        match self {
            Trade::Bank(_, get, _) | Trade::Offer(_, get) => get,
        }
    }
}

/// A build, with the trades that pay for it first.
#[derive(Clone, Debug)]
struct Move {
    trades: Vec<Trade>,
    goal: Goal,
}

/// The searched plan after a known roll: the greedy player's development cards first
/// (a year of plenty or road building that serves a build), then the best sequence of
/// builds, then a monopoly as the greedy player plays it. `takers` are the one-for-one
/// offers others' standing acceptances take, and how often ([`super::takers`]).
pub(super) fn plan(bot: &Bot<'_>, sim: State, takers: &[[u8; 5]; 5]) -> Vec<Line> {
    let mut planner = Planner::new(bot, sim, false);
    if planner.sim.phase == Phase::Main {
        planner.development();
    }
    let mut search = Search {
        bot,
        nodes: 0,
        roads: Vec::new(),
    };
    let offers = Offers {
        left: OFFERS,
        takes: *takers,
    };
    let (_, moves) = search.best(&planner.sim, DEPTH, offers);
    for m in moves {
        let Some(next) = search.play(&planner.sim, &m) else {
            break;
        };
        let mut hand = planner.sim.players[bot.me as usize].hand;
        for &trade in &m.trades {
            match trade {
                Trade::Bank(give, get, rate) => {
                    let order = trade_line(&planner.sim, bot.me, (give, get, rate));
                    planner.push(order, Cards::one(give, rate));
                    hand.0[give.index()] -= rate;
                }
                Trade::Offer(give, get) => {
                    // Whether the taker still holds the card is theirs to know: from
                    // here on each line is played only if its cards are held, and the
                    // bank takes the offer's place when the hand can pay it.
                    planner.guard = true;
                    let rate = planner.sim.rate(bot.me, give);
                    let order = offer_line(give, get, (hand.get(give) >= rate).then_some(rate));
                    planner.push(order, Cards::one(give, 1));
                    hand.0[give.index()] -= 1;
                }
            }
            hand.0[trade.get().index()] += 1;
        }
        planner.push(m.goal.order(bot.s), m.goal.cost());
        planner.sim = next;
    }
    if planner.sim.phase == Phase::Main {
        planner.monopoly();
    }
    planner.lines
}

struct Search<'a, 'b> {
    bot: &'b Bot<'a>,
    nodes: usize,
    /// Scratch for legal roads.
    roads: Vec<Action>,
}

impl Search<'_, '_> {
    fn me(&self) -> u8 {
        self.bot.me
    }

    /// The best value reachable from `sim` within `depth` builds and the `offers` left,
    /// and the builds.
    fn best(&mut self, sim: &State, depth: u8, offers: Offers) -> (f64, Vec<Move>) {
        let here = value(sim, self.me());
        let mut best = (here, Vec::new());
        if depth == 0 || self.nodes >= BUDGET {
            return best;
        }
        // The most promising first, so that the budget goes where it matters.
        let mut children: Vec<(f64, Move, State)> = self
            .moves(sim, offers)
            .into_iter()
            .filter_map(|m| {
                let next = self.play(sim, &m)?;
                Some((value(&next, self.me()), m, next))
            })
            .collect();
        children.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (_, m, next) in children {
            if self.nodes >= BUDGET {
                break;
            }
            self.nodes += 1;
            let (v, mut rest) = self.best(&next, depth - 1, offers.after(&m.trades));
            if v > best.0 + 1e-9 {
                rest.insert(0, m);
                best = (v, rest);
            }
        }
        best
    }

    /// `m` played on a copy of `sim`, if the rules allow it. An offer is played on
    /// this player's hand alone: the taker's is not known.
    fn play(&self, sim: &State, m: &Move) -> Option<State> {
        let mut next = sim.clone();
        for &t in &m.trades {
            match t {
                Trade::Bank(give, get, _) => next
                    .apply(Action::MaritimeTrade { give, get }, &mut ())
                    .ok()?,
                Trade::Offer(give, get) => {
                    let hand = &mut next.players[self.me() as usize].hand;
                    hand.0[give.index()] = hand.get(give).checked_sub(1)?;
                    hand.0[get.index()] += 1;
                }
            }
        }
        next.apply(m.goal.action(), &mut ()).ok()?;
        Some(next)
    }

    /// Every build worth trying now, each with the trades that pay for it.
    fn moves(&mut self, sim: &State, offers: Offers) -> Vec<Move> {
        let me = self.me();
        let p = &sim.players[me as usize];
        let mut goals = Vec::new();
        if sim.cities_left(me) > 0 {
            goals.extend(p.settlements.iter().map(Goal::City));
        }
        if sim.settlements_left(me) > 0 {
            goals.extend(
                p.road_ends
                    .minus(sim.blocked)
                    .and(sim.board.topology.land_vertices)
                    .iter()
                    .map(Goal::Settlement),
            );
        }
        goals.extend(self.road_goals(sim).into_iter().map(Goal::Road));
        if !sim.deck.is_empty() {
            goals.push(Goal::Development);
        }
        goals
            .into_iter()
            .filter_map(|goal| {
                Some(Move {
                    trades: self.payment(sim, goal.cost(), offers)?,
                    goal,
                })
            })
            .collect()
    }

    /// The trades that pay for `cost` (at most three cards missing): first one-for-one
    /// offers to standing acceptances that take them (as `offers` allows), each giving
    /// a card the build does not use, then bank trades for the rest; bank trades alone
    /// when that leaves no way to pay.
    fn payment(&self, sim: &State, cost: Cards, mut offers: Offers) -> Option<Vec<Trade>> {
        let me = self.me();
        let hand = sim.players[me as usize].hand;
        let short = hand.short_of(&cost);
        let mut after = hand;
        let mut trades = Vec::new();
        for get in Resource::ALL {
            for _ in 0..short.get(get) {
                let Some(give) = Resource::ALL
                    .into_iter()
                    .filter(|&r| offers.can(r, get) && after.get(r) > cost.get(r))
                    .max_by_key(|&r| (after.get(r) - cost.get(r), Reverse(r.index())))
                else {
                    break;
                };
                offers.make(give, get);
                after.0[give.index()] -= 1;
                after.0[get.index()] += 1;
                trades.push(Trade::Offer(give, get));
            }
        }
        if !trades.is_empty()
            && let Some(bank) = bank_trades(sim, me, after, cost, 3)
        {
            trades.extend(bank.into_iter().map(Trade::bank));
            return Some(trades);
        }
        bank_trades(sim, me, hand, cost, 3).map(|bank| bank.into_iter().map(Trade::bank).collect())
    }

    /// Roads worth a look: towards a free site within three roads (the three best such
    /// sites), or on to a free site beyond; and every road that makes the seat's longest
    /// road longer (the race for the longest road).
    fn road_goals(&mut self, sim: &State) -> Vec<EdgeId> {
        let me = self.me();
        sim.legal_actions(&mut self.roads);
        let mut goals = if sim.settlements_left(me) > 0 {
            self.site_roads(sim)
        } else {
            Vec::new()
        };
        // The length as the building rules count it, with the road added.
        let p = &sim.players[me as usize];
        let breaks = sim.occupied.minus(p.buildings());
        for a in &self.roads {
            if let Action::BuildRoad(e) = *a
                && !goals.contains(&e)
            {
                let mut roads = p.roads;
                roads.insert(e);
                if length_of(&sim.board.topology, roads, breaks) > p.road_length {
                    goals.push(e);
                }
            }
        }
        goals
    }

    /// The roads of [`Search::road_goals`] towards free sites (`self.roads` holds the
    /// legal actions).
    fn site_roads(&self, sim: &State) -> Vec<EdgeId> {
        let me = self.me();
        let t = &sim.board.topology;
        let mut scored: Vec<(f64, EdgeId)> = self
            .roads
            .iter()
            .filter_map(|a| match a {
                Action::BuildRoad(e) => Some(*e),
                _ => None,
            })
            .map(|e| {
                // The best free site one or two roads beyond.
                let [a, b] = t.edges[e].ends;
                let far = if sim.players[me as usize].road_ends.has(a)
                    || sim.players[me as usize].buildings().has(a)
                {
                    b
                } else {
                    a
                };
                let mut best = 0.0f64;
                if t.land_vertices.has(far) && !sim.blocked.has(far) {
                    best = best.max(self.bot.site_value(far));
                }
                if sim.vertex_owner[far] == NOBODY {
                    for &w in &t.vertices[far].neighbours {
                        if t.land_vertices.has(w) && !sim.blocked.has(w) {
                            best = best.max(self.bot.site_value(w) - 2.0);
                        }
                    }
                }
                (best, e)
            })
            .filter(|(v, _)| *v > 0.0)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().take(3).map(|(_, e)| e).collect()
    }
}

/// Dots a seat's buildings collect per resource (cities twice), the robber's hex left
/// out.
fn production(s: &State, me: u8) -> [f64; 5] {
    let mut out = [0.0; 5];
    let p = &s.players[me as usize];
    for v in p.buildings().iter() {
        let k = if p.cities.has(v) { 2.0 } else { 1.0 };
        for &(h, _) in &s.board.topology.vertices[v].hexes {
            if h == s.robber {
                continue;
            }
            if let Some(r) = s.board.terrain[h].resource() {
                out[r.index()] += k * f64::from(Board::pips(s.board.number[h]));
            }
        }
    }
    out
}

/// What a position is worth to seat `me`, from what it may know (see the module's
/// notes). A point is worth as much as twenty dots of production, and a development card
/// (whatever it is) a sixth of a point: the weights self-play found best.
pub(super) fn value(s: &State, me: u8) -> f64 {
    let p = &s.players[me as usize];
    let t = &s.board.topology;
    let mut v = 30.0 * f64::from(s.public_points(me));
    // Production: every resource, with less for dots beyond ten of one kind, and a
    // bonus for each kind the seat collects at all.
    let prod = production(s, me);
    for r in Resource::ALL {
        let x = prod[r.index()];
        let k = if r == Resource::Wool { 0.8 } else { 1.0 };
        v += 1.5 * k * (x.min(10.0) + 0.5 * (x - 10.0).max(0.0));
        if x > 0.0 {
            v += 2.5;
        }
        // A harbour for what it collects.
        match s.rate(me, r) {
            2 => v += 0.15 * x,
            3 => v += 0.05 * x,
            _ => {}
        }
    }
    // Cards in hand: each worth a little, up to seven; beyond, a 7 takes half.
    let n = f64::from(p.hand.total());
    v += 0.5 * n.min(7.0) - 1.0 * (n - 7.0).max(0.0);
    // How near the hand is to a city and to a settlement with a site for it (a small
    // pull: at twice this weight the player kept cards it should have spent, and won
    // 35 % of its games against three greedy players rather than 37 %).
    let sites = p.road_ends.minus(s.blocked).and(t.land_vertices);
    if s.cities_left(me) > 0 && !p.settlements.is_empty() {
        let short = f64::from(p.hand.short_of(&Cards::CITY).total());
        v += 3.0 * (1.0 - short / 5.0);
    }
    if s.settlements_left(me) > 0 && !sites.is_empty() {
        let short = f64::from(p.hand.short_of(&Cards::SETTLEMENT).total());
        v += 3.0 * (1.0 - short / 4.0);
    }
    // Sites its roads reach (two count), and free sites one road further.
    if s.settlements_left(me) > 0 {
        let mut reached: Vec<f64> = sites.iter().map(|w| site_dots(s, w)).collect();
        reached.sort_by(|a, b| b.total_cmp(a));
        for (i, d) in reached.iter().take(2).enumerate() {
            v += if i == 0 { 4.0 } else { 2.0 } + 0.3 * d;
        }
        let mut near = 0.0f64;
        for u in p.road_ends.or(p.buildings()).iter() {
            if s.vertex_owner[u] != NOBODY && s.vertex_owner[u] != me {
                continue;
            }
            for &w in &t.vertices[u].neighbours {
                if t.land_vertices.has(w) && !s.blocked.has(w) && !sites.has(w) {
                    near = near.max(site_dots(s, w));
                }
            }
        }
        v += 0.1 * near;
    }
    // Development cards, whatever they are (a card bought on a copy is not known).
    v += 5.0 * f64::from(p.devs.total() + p.new_devs.total());
    v += 0.5 * f64::from(p.knights());
    v += 0.2 * f64::from(p.road_length);
    // The race for the longest road (two points): each road of its longest counts, up
    // to one beyond the longest of the others' (at least five in all), one more while
    // the seat holds the card.
    let rival = (0..s.players.len() as u8)
        .filter(|&o| o != me)
        .map(|o| s.players[o as usize].road_length)
        .max()
        .unwrap_or(0);
    let target = rival.max(4) + 1 + u8::from(s.longest_road == Some(me));
    v += 4.0 * f64::from(p.road_length.min(target));
    v
}

/// The dots of a site (its resources' numbers).
fn site_dots(s: &State, v: VertexId) -> f64 {
    s.board.topology.vertices[v]
        .hexes
        .iter()
        .filter(|(h, _)| s.board.terrain[*h].resource().is_some())
        .map(|&(h, _)| f64::from(Board::pips(s.board.number[h])))
        .sum()
}
