//! The judge's Catan players (`judge bot`, and the caretaker that plays for an absent
//! player): one player's order file for the step the game waits for
//! (docs/catan-orders.md), written from what that player may know — the board,
//! everyone's pieces, card counts, the orders others have played, its own hand; never
//! another's hand, nor the dice to come.
//!
//! Two players: the **greedy** one described here, and the **searching** one
//! ([`search`]), the judge's bot, which plays the same founding, 7s, knights and
//! standing parts but searches its builds over the rules engine, paying for them with
//! bank trades and offers to others' standing acceptances that have shown, in a trade
//! everyone saw, that they take them (against three greedy players it wins about 37 %
//! of its games, where a quarter is an equal share).
//!
//! How the greedy player plays:
//! - **Founding**: the free site with the most dots, weighted towards resources it does
//!   not yet produce and harbours it can use; the road towards the best site beyond.
//! - **A turn** is planned for every total the dice can make. For each total but 7 the
//!   production is known, so the bot plays the turn through on a copy of the state with
//!   the rules' own checks — cities first, then settlements, bank trades (or an offer
//!   to another player's standing acceptance that has taken one like it) that complete
//!   one of those, roads towards
//!   the best site within four roads, development cards — and writes it as
//!   `if rolled 6, 8: build city 13` lines. On a 7 its own discard and robber lines are
//!   played the same way; the card it steals is unknown, so the plan does without it,
//!   and lines for each build `if I have` its cards follow. A knight is played before
//!   the roll when the robber sits on one of its hexes, for the largest army, or when
//!   it holds no other card that may serve better after the roll.
//! - **Standing parts**: robber lines on the hexes that hurt the leader most (never
//!   its own), a discard preference keeping what its next build needs, and one
//!   acceptance offering its surplus for what it lacks.
//!
//! Every file is checked with the judge's own checker before it is given: a file that
//! does not check is an error of the bot's, never sent. In a **Catan Express** game the
//! orders are the scripted Express player's ([`crate::express::bot`]).
//!
//! That it reads nothing it may not know is a property, tested: its file is the same
//! whatever the other players hold, whatever their files on record say and whatever
//! the dice will be (tests/catan_bot.rs). Of the others' standing acceptances it counts
//! only the trades they took ([`crate::orders::Record::took`]), as every report showed
//! them: an acceptance that never took a trade is a line of its player's file, theirs
//! alone (issue 37, point 14).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::board::{Board, EdgeId, HexId, VertexId};
use crate::cards::{Cards, DevCard, Resource};
use crate::events::Event;
use crate::orders::RobberChoice;
use crate::orders::resolve::{discard_choice, on_record, robber_choice};
use crate::rules::Action;
use crate::state::{NOBODY, Phase};
use crate::{Colour, State};
use judge_core::error::GameError;

mod search;

/// The judge's Catan players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Each turn's builds in a fixed order of preference: cities, settlements, roads
    /// towards a site, development cards.
    Greedy,
    /// The same turn with its builds searched over the rules engine ([`search`]).
    Search,
}

/// The order file of `colour` for the next step, its secret line (if given) below the
/// header: the judge's bot, the searching player's (what `judge bot` prints and the
/// caretaker plays).
pub fn orders(s: &State, colour: Colour, secret: Option<&str>) -> Result<String, GameError> {
    orders_of(Player::Search, s, colour, secret)
}

/// The order file `player` writes for `colour` for the next step.
pub fn orders_of(
    player: Player,
    s: &State,
    colour: Colour,
    secret: Option<&str>,
) -> Result<String, GameError> {
    let me = s
        .seat_of(colour)
        .ok_or_else(|| GameError::input(format!("{colour} does not play in this game")))?;
    if s.scenario.is_some() {
        return express(s, me, secret);
    }
    let mut out = format!(
        "# {colour}'s orders, written by the judge's Catan player (judge bot)\ngame {}\nplayer {colour}\nturn {}\n",
        s.name,
        s.step + 1
    );
    if let Some(secret) = secret {
        let _ = writeln!(out, "secret {secret}");
    }
    let bot = Bot::new(s, me, player);
    let body = match s.phase {
        Phase::Founding { .. } if s.actor() == me => bot.founding(),
        Phase::Over => return Err(GameError::input("the game is over")),
        _ if s.active == me => bot.turn(),
        // Not this player's step: only the standing parts.
        _ => bot.standing(),
    };
    out.push_str(&body);
    let checked = crate::check_orders(s, colour, "orders", &out);
    if checked.errors() > 0 {
        return Err(GameError::internal(format!(
            "the bot's orders do not check:\n{}\n{out}",
            checked.diagnostics.render()
        )));
    }
    Ok(out)
}

/// A Catan Express player's orders: the scripted Express player's file, with the
/// secret below its `turn` line, checked by the judge's own checker.
fn express(s: &State, me: u8, secret: Option<&str>) -> Result<String, GameError> {
    if s.phase == Phase::Over {
        return Err(GameError::input("the game is over"));
    }
    let written = crate::scenario::bot_orders(s, me);
    let mut out = format!(
        "# {}'s orders, written by the judge's Catan Express player (judge bot)\n",
        s.colour(me)
    );
    for line in written.lines() {
        out.push_str(line);
        out.push('\n');
        if let Some(secret) = secret
            && line.starts_with("turn ")
            && !out.contains("\nsecret ")
        {
            let _ = writeln!(out, "secret {secret}");
        }
    }
    let checked = crate::check_orders(s, s.colour(me), "orders", &out);
    if checked.errors() > 0 {
        return Err(GameError::internal(format!(
            "the bot's orders do not check:\n{}\n{out}",
            checked.diagnostics.render()
        )));
    }
    Ok(out)
}

/// Play the file once for every total on a copy of the state through the judge's own
/// resolver: each of its lines that would fail, with the roll.
pub fn failures(s: &State, colour: Colour, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for total in 2..=12 {
        let mut copy = s.clone();
        copy.loaded_dice = vec![dice(total)];
        let files = BTreeMap::from([(colour, text.to_string())]);
        let played = crate::play(&copy, &files);
        for e in &played.events {
            if let Event::Failed { player, .. } = e
                && *player == colour
            {
                out.push(format!(
                    "on a roll of {total}, {}",
                    e.text(&played.state, Some(colour))
                ));
            }
        }
    }
    out
}

/// Two dice making `total`.
fn dice(total: u8) -> [u8; 2] {
    let a = (total - 1).min(6);
    [a, total - a]
}

/// One line of a plan: an order, with the cards it needs when the plan cannot be
/// sure they are held (after a 7's unknown steal, or a monopoly).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    have: Option<Cards>,
    order: String,
}

impl Line {
    fn plain(order: String) -> Line {
        Line { have: None, order }
    }

    fn holding(cards: Cards, order: String) -> Line {
        Line {
            have: Some(cards),
            order,
        }
    }
}

/// What a build costs, and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goal {
    City(VertexId),
    Settlement(VertexId),
    Road(EdgeId),
    Development,
}

impl Goal {
    fn cost(self) -> Cards {
        match self {
            Goal::City(_) => Cards::CITY,
            Goal::Settlement(_) => Cards::SETTLEMENT,
            Goal::Road(_) => Cards::ROAD,
            Goal::Development => Cards::DEVELOPMENT,
        }
    }

    fn action(self) -> Action {
        match self {
            Goal::City(v) => Action::BuildCity(v),
            Goal::Settlement(v) => Action::BuildSettlement(v),
            Goal::Road(e) => Action::BuildRoad(e),
            Goal::Development => Action::BuyDevelopment,
        }
    }

    fn order(self, s: &State) -> String {
        match self {
            Goal::City(v) => format!("build city {}", s.vertex_name(v)),
            Goal::Settlement(v) => format!("build settlement {}", s.vertex_name(v)),
            Goal::Road(e) => format!("build road {}", s.edge_name(e)),
            Goal::Development => "buy development card".into(),
        }
    }
}

struct Bot<'a> {
    s: &'a State,
    me: u8,
    player: Player,
    /// Dots per resource the player's buildings collect now (cities twice).
    income: [u32; 5],
}

impl<'a> Bot<'a> {
    fn new(s: &'a State, me: u8, player: Player) -> Bot<'a> {
        let mut income = [0u32; 5];
        let p = &s.players[me as usize];
        for v in p.buildings().iter() {
            let k = if p.cities.has(v) { 2 } else { 1 };
            for &(h, _) in &s.board.topology.vertices[v].hexes {
                if let Some(r) = s.board.terrain[h].resource() {
                    income[r.index()] += k * Board::pips(s.board.number[h]);
                }
            }
        }
        Bot {
            s,
            me,
            player,
            income,
        }
    }

    /// What a site is worth to this player: its dots, more for resources it lacks, and
    /// a harbour it could use.
    fn site_value(&self, v: VertexId) -> f64 {
        let s = self.s;
        let mut value = 0.0;
        let mut kinds = 0;
        for &(h, _) in &s.board.topology.vertices[v].hexes {
            let Some(r) = s.board.terrain[h].resource() else {
                continue;
            };
            let pips = f64::from(Board::pips(s.board.number[h]));
            let weight = match r {
                Resource::Wood | Resource::Brick => 1.1,
                Resource::Grain | Resource::Ore => 1.05,
                Resource::Wool => 0.9,
            };
            let lacking = if self.income[r.index()] == 0 {
                1.4
            } else {
                1.0
            };
            value += pips * weight * lacking;
            kinds += 1;
        }
        value += f64::from(kinds) * 0.3;
        if let Some(h) = s.board.vertex_harbour[v] {
            value += match h.resource() {
                None => 1.0,
                Some(r) => f64::from(self.income[r.index()]) / 4.0,
            };
        }
        value
    }

    /// Free sites where anyone may found or build (the distance rule), best first.
    fn free_sites(&self) -> Vec<VertexId> {
        let s = self.s;
        let mut sites: Vec<VertexId> = s
            .board
            .topology
            .land_vertices
            .minus(s.blocked)
            .iter()
            .collect();
        sites.sort_by(|&a, &b| {
            self.site_value(b)
                .total_cmp(&self.site_value(a))
                .then(a.cmp(&b))
        });
        sites
    }

    // ---- Founding ---------------------------------------------------------------------

    fn founding(&self) -> String {
        let s = self.s;
        let t = &s.board.topology;
        let Some(&v) = self.free_sites().first() else {
            return "founding\n".into();
        };
        // The road towards the best free site two steps away.
        let mut best: Option<(f64, EdgeId)> = None;
        for &e in &t.vertices[v].edges {
            if !t.land_edges.has(e) || s.all_roads.has(e) {
                continue;
            }
            let w = t.other_end(e, v);
            let beyond = t.vertices[w]
                .neighbours
                .iter()
                .filter(|&&u| u != v && t.land_vertices.has(u) && !s.blocked.has(u))
                .map(|&u| self.site_value(u))
                .fold(0.0, f64::max);
            if best.is_none_or(|(b, _)| beyond > b) {
                best = Some((beyond, e));
            }
        }
        match best {
            Some((_, e)) => format!(
                "founding\nsettlement {} road {}\n",
                s.vertex_name(v),
                s.edge_name(e)
            ),
            None => format!("founding\nsettlement {}\n", s.vertex_name(v)),
        }
    }

    // ---- Standing parts ---------------------------------------------------------------

    fn standing(&self) -> String {
        let mut out = String::new();
        for c in self.robber_choices() {
            let _ = write!(out, "robber {}", self.s.hex_name(c.hex));
            if !c.rob.is_empty() {
                let names: Vec<&str> = c.rob.iter().map(|c| c.name()).collect();
                let _ = write!(out, " rob {}", names.join(", "));
            }
            out.push('\n');
        }
        let discard = self.discard_preference();
        if !discard.is_empty() {
            let list: Vec<String> = discard.iter().map(|(r, n)| format!("{n} {r}")).collect();
            let _ = writeln!(out, "discard {}", list.join(", "));
        }
        for (want, give) in self.acceptances() {
            let _ = writeln!(out, "accept 1 {want} for 1 {give} 2 times");
        }
        out
    }

    /// The robber's best places: hexes without a building of this player, by how much
    /// they take from the others (more from those ahead), with whom to rob there.
    fn robber_choices(&self) -> Vec<RobberChoice> {
        let s = self.s;
        let t = &s.board.topology;
        let mut scored: Vec<(f64, HexId)> = Vec::new();
        for &h in &s.board.land {
            if h == s.robber {
                continue;
            }
            let corners = &t.hexes[h].corners;
            if corners.iter().any(|&v| s.vertex_owner[v] == self.me) {
                continue;
            }
            let pips = f64::from(Board::pips(s.board.number[h]));
            let mut score = 0.0;
            for &v in corners {
                let o = s.vertex_owner[v];
                if o == NOBODY {
                    continue;
                }
                let k = if s.players[o as usize].cities.has(v) {
                    2.0
                } else {
                    1.0
                };
                score += pips * k * (1.0 + 0.3 * f64::from(s.public_points(o)));
            }
            scored.push((score, h));
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored
            .into_iter()
            .take(3)
            .map(|(_, hex)| RobberChoice {
                hex,
                rob: self.victims(hex),
            })
            .collect()
    }

    /// Whom to rob on a hex: the others with a building there, the most points first,
    /// then the most cards (both public).
    fn victims(&self, hex: HexId) -> Vec<Colour> {
        let s = self.s;
        let mut seats: Vec<u8> = s.board.topology.hexes[hex]
            .corners
            .iter()
            .map(|&v| s.vertex_owner[v])
            .filter(|&o| o != NOBODY && o != self.me)
            .collect();
        seats.sort_by_key(|&o| {
            (
                std::cmp::Reverse(s.public_points(o)),
                std::cmp::Reverse(s.players[o as usize].hand.total()),
                o,
            )
        });
        seats.dedup();
        seats.into_iter().map(|o| s.colour(o)).collect()
    }

    /// What the player wants to keep: the cards of its next city and settlement.
    fn keep(&self) -> Cards {
        let mut keep = Cards::NONE;
        for r in Resource::ALL {
            let n = Cards::CITY.get(r).max(Cards::SETTLEMENT.get(r));
            keep.0[r.index()] = n;
        }
        keep
    }

    /// On a 7 with more than 7 cards: which cards go first (the most beyond what the
    /// next builds need; wool before the rest on a tie), as counts per resource in the
    /// order first chosen.
    fn discard_preference(&self) -> Vec<(Resource, u8)> {
        let mut hand = self.s.players[self.me as usize].hand;
        let keep = self.keep();
        let owe = hand.total() / 2;
        let mut list: Vec<(Resource, u8)> = Vec::new();
        for _ in 0..owe.max(4) {
            let pick = [
                Resource::Wool,
                Resource::Wood,
                Resource::Brick,
                Resource::Grain,
                Resource::Ore,
            ]
            .into_iter()
            .filter(|r| hand.get(*r) > 0)
            .max_by_key(|r| {
                (
                    i32::from(hand.get(*r)) - i32::from(keep.get(*r)),
                    std::cmp::Reverse(r.index()),
                )
            });
            let Some(r) = pick else { break };
            hand.0[r.index()] -= 1;
            match list.iter_mut().find(|(x, _)| *x == r) {
                Some((_, n)) => *n += 1,
                None => list.push((r, 1)),
            }
        }
        list
    }

    /// Standing acceptances: 1 of each resource the player lacks for its next builds
    /// (the one it earns least first, at most two) for 1 of its largest surplus.
    fn acceptances(&self) -> Vec<(Resource, Resource)> {
        let hand = self.s.players[self.me as usize].hand;
        let keep = self.keep();
        let Some(surplus) = Resource::ALL
            .into_iter()
            .filter(|r| hand.get(*r) >= keep.get(*r) + 2)
            .max_by_key(|r| (hand.get(*r), std::cmp::Reverse(r.index())))
        else {
            return Vec::new();
        };
        let mut wants: Vec<Resource> = Resource::ALL
            .into_iter()
            .filter(|r| *r != surplus && hand.get(*r) < keep.get(*r))
            .collect();
        wants.sort_by_key(|r| (self.income[r.index()], r.index()));
        wants.into_iter().take(2).map(|w| (w, surplus)).collect()
    }

    // ---- A turn -----------------------------------------------------------------------

    fn turn(&self) -> String {
        let s = self.s;
        let mut out = String::new();
        let robber = self.robber_choices();
        let prefs: Vec<(Resource, Option<u8>)> = self
            .discard_preference()
            .into_iter()
            .map(|(r, n)| (r, Some(n)))
            .collect();
        // Before the roll: a knight against the robber on our best hex, or for the army.
        let mut start = s.clone();
        let mut knight_played = false;
        if let Some(choice) = self.knight_before_roll(&robber) {
            knight_played = true;
            let _ = writeln!(out, "before roll\nplay knight {}", robber_text(s, &choice));
            knight(&mut start, self.me, &choice, &robber);
        }
        let _ = writeln!(out, "turn");
        // A plan for every total.
        let takers = match self.player {
            Player::Search => takers(s, self.me),
            Player::Greedy => [[0; 5]; 5],
        };
        let mut plans: Vec<(u8, Vec<Line>)> = Vec::new();
        for total in 2..=12u8 {
            let mut sim = start.clone();
            sim.loaded_dice = vec![dice(total)];
            if sim.apply(Action::Roll, &mut ()).is_err() {
                continue;
            }
            if total == 7 {
                settle(&mut sim, self.me, &prefs, &robber);
            }
            if sim.phase != Phase::Main {
                continue;
            }
            let mut lines = match self.player {
                Player::Search if total != 7 => search::plan(self, sim, &takers),
                _ => Planner::new(self, sim, total == 7 && knight_played).plan(),
            };
            if total == 7 {
                // The card stolen is not known: try the builds once more.
                for l in self.fallback_lines() {
                    if !lines.iter().any(|m| m.order == l.order) {
                        lines.push(l);
                    }
                }
            }
            plans.push((total, lines));
        }
        // Totals with the same plan share their lines.
        let mut groups: Vec<(Vec<u8>, Vec<Line>)> = Vec::new();
        for (total, lines) in plans {
            match groups.iter_mut().find(|g| g.1 == lines) {
                Some(g) => g.0.push(total),
                None => groups.push((vec![total], lines)),
            }
        }
        let mut wrote = false;
        for (totals, lines) in &groups {
            for l in lines {
                let mut conds = Vec::new();
                if totals.len() < 11 {
                    let t: Vec<String> = totals.iter().map(u8::to_string).collect();
                    conds.push(format!("rolled {}", t.join(", ")));
                }
                if let Some(cards) = l.have {
                    conds.push(format!("I have {cards}"));
                }
                if conds.is_empty() {
                    let _ = writeln!(out, "{}", l.order);
                } else {
                    let _ = writeln!(out, "if {}: {}", conds.join(" and "), l.order);
                }
                wrote = true;
            }
        }
        if !wrote {
            let _ = writeln!(out, "pass");
        }
        out.push('\n');
        out.push_str(&self.standing());
        out
    }

    /// Lines for a plan that may hold a card more than planned: each build, if its
    /// cards are held then.
    fn fallback_lines(&self) -> Vec<Line> {
        let s = self.s;
        let p = &s.players[self.me as usize];
        let mut lines = Vec::new();
        if s.cities_left(self.me) > 0
            && let Some(v) = p.settlements.iter().max_by(|&a, &b| {
                self.site_value(a)
                    .total_cmp(&self.site_value(b))
                    .then(b.cmp(&a))
            })
        {
            let g = Goal::City(v);
            lines.push(Line::holding(g.cost(), g.order(s)));
        }
        if s.settlements_left(self.me) > 0
            && let Some(&v) = self.immediate_sites(s).first()
        {
            let g = Goal::Settlement(v);
            lines.push(Line::holding(g.cost(), g.order(s)));
        }
        lines
    }

    /// Sites at the end of the player's roads where a settlement may stand, best first.
    fn immediate_sites(&self, s: &State) -> Vec<VertexId> {
        let p = &s.players[self.me as usize];
        let mut sites: Vec<VertexId> = p.road_ends.minus(s.blocked).iter().collect();
        sites.sort_by(|&a, &b| {
            self.site_value(b)
                .total_cmp(&self.site_value(a))
                .then(a.cmp(&b))
        });
        sites
    }

    fn knight_before_roll(&self, robber: &[RobberChoice]) -> Option<RobberChoice> {
        let s = self.s;
        let p = &s.players[self.me as usize];
        if p.devs.get(DevCard::Knight) == 0 || s.dev_played {
            return None;
        }
        let blocked = s.board.topology.hexes[s.robber]
            .corners
            .iter()
            .any(|&v| s.vertex_owner[v] == self.me)
            && Board::pips(s.board.number[s.robber]) >= 3;
        let army = p.knights() + 1 >= 3
            && s.largest_army != Some(self.me)
            && s.players
                .iter()
                .enumerate()
                .all(|(i, q)| i == self.me as usize || q.knights() < p.knights() + 1);
        // Otherwise a knight is played whenever the player holds no other card that
        // may serve better after the roll.
        let other = [
            DevCard::RoadBuilding,
            DevCard::YearOfPlenty,
            DevCard::Monopoly,
        ]
        .iter()
        .any(|&c| p.devs.get(c) > 0);
        if blocked || army || !other {
            robber.first().cloned()
        } else {
            None
        }
    }
}

fn robber_text(s: &State, c: &RobberChoice) -> String {
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
fn bank_trades(
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
fn trade_line(s: &State, me: u8, (give, want, rate): (Resource, Resource, u8)) -> String {
    if someone_accepts(s, me, give, want) {
        offer_line(give, want, Some(rate))
    } else {
        format!("trade {rate} {give} for {want}")
    }
}

/// An offer of 1 `give` for 1 `want` as an order line, with the bank trade at `rate`
/// as its alternative when given.
fn offer_line(give: Resource, want: Resource, rate: Option<u8>) -> String {
    match rate {
        Some(rate) => format!("offer 1 {give} for 1 {want} or trade {rate} {give} for {want}"),
        None => format!("offer 1 {give} for 1 {want}"),
    }
}

/// Has another player's standing acceptance shown, in a trade everyone saw, that it
/// takes 1 `give` for 1 `want` from seat `me`?
fn someone_accepts(s: &State, me: u8, give: Resource, want: Resource) -> bool {
    takers(s, me)[give.index()][want.index()] > 0
}

/// Which one-for-one offers the other players' standing acceptances have shown they
/// take: `takers(..)[give][get]`, the number of players (after `me`, in turn order)
/// whose file on record took a trade in which the offering player gave exactly one
/// `give` and got at least one `get` — an acceptance takes any offer that gives at
/// least what it asks and asks no more than it gives, so that one takes 1 `give` for
/// 1 `get` too. Only what the reports showed counts (issue 37, point 14): never the
/// lines of another's file, which are theirs alone, so neither an acceptance that never
/// took a trade, nor how many more times one may take. Whether it still does (used up,
/// or `from` another player only) is not known: an offer is always written with a
/// bank trade or `if I have` lines after it.
fn takers(s: &State, me: u8) -> [[u8; 5]; 5] {
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

/// Play a knight on the copy as the judge would with this choice; the card stolen is
/// not known when the orders are written, so the plan goes on without it.
fn knight(sim: &mut State, me: u8, choice: &RobberChoice, prefs: &[RobberChoice]) {
    let hand = sim.players[me as usize].hand;
    if sim.apply(Action::PlayKnight, &mut ()).is_err() {
        return;
    }
    let (a, _) = robber_choice(sim, Some(choice), prefs);
    let _ = sim.apply(a, &mut ());
    sim.players[me as usize].hand = hand;
}

/// After a 7 on the copy: everyone's discards by their preferences on record (this
/// player's by the one it is writing), then this player's robber line; the card
/// stolen is left out.
fn settle(sim: &mut State, me: u8, prefs: &[(Resource, Option<u8>)], robber: &[RobberChoice]) {
    let mut done = [Cards::NONE; 6];
    for _ in 0..200 {
        match sim.phase {
            Phase::Discard { .. } => {
                let seat = sim.actor();
                let theirs = if seat == me {
                    prefs.to_vec()
                } else {
                    on_record(sim, seat).discard()
                };
                let r = discard_choice(sim, seat, &theirs, &done[seat as usize]);
                if sim.apply(Action::Discard(r), &mut ()).is_err() {
                    return;
                }
                done[seat as usize].add(&Cards::one(r, 1));
            }
            Phase::Robber { .. } => {
                let hand = sim.players[me as usize].hand;
                let (a, _) = robber_choice(sim, None, robber);
                if sim.apply(a, &mut ()).is_err() {
                    return;
                }
                sim.players[me as usize].hand = hand;
            }
            _ => return,
        }
    }
}

/// The greedy plan of one turn after a known roll, played on a copy of the state.
struct Planner<'a, 'b> {
    bot: &'b Bot<'a>,
    sim: State,
    lines: Vec<Line>,
    /// Each line names the cards it needs (`if I have`): after a knight's unknown
    /// steal, a 7 may make the player discard more than planned.
    guard: bool,
}

impl<'a, 'b> Planner<'a, 'b> {
    fn new(bot: &'b Bot<'a>, sim: State, guard: bool) -> Planner<'a, 'b> {
        Planner {
            bot,
            sim,
            lines: Vec::new(),
            guard,
        }
    }

    /// A line of the plan, which needs `need` in hand.
    fn push(&mut self, order: String, need: Cards) {
        self.lines.push(if self.guard && !need.is_empty() {
            Line::holding(need, order)
        } else {
            Line::plain(order)
        });
    }

    fn me(&self) -> u8 {
        self.bot.me
    }

    fn hand(&self) -> Cards {
        self.sim.players[self.me() as usize].hand
    }

    fn try_do(&mut self, a: Action, line: String, need: Cards) -> bool {
        if self.sim.phase == Phase::Main && self.sim.apply(a, &mut ()).is_ok() {
            self.push(line, need);
            true
        } else {
            false
        }
    }

    fn plan(mut self) -> Vec<Line> {
        for _ in 0..40 {
            if self.sim.phase != Phase::Main || !self.step() {
                break;
            }
        }
        if self.sim.phase == Phase::Main {
            self.monopoly();
        }
        self.lines
    }

    /// The best city site: the player's settlement on the most dots.
    fn city_site(&self) -> Option<VertexId> {
        let p = &self.sim.players[self.me() as usize];
        if self.sim.cities_left(self.me()) == 0 {
            return None;
        }
        p.settlements.iter().max_by(|&a, &b| {
            self.bot
                .site_value(a)
                .total_cmp(&self.bot.site_value(b))
                .then(b.cmp(&a))
        })
    }

    fn settlement_site(&self) -> Option<VertexId> {
        if self.sim.settlements_left(self.me()) == 0 {
            return None;
        }
        self.bot.immediate_sites(&self.sim).first().copied()
    }

    /// One thing done; false when nothing more can be: a city, a settlement, or a road
    /// towards the next site, built with the cards in hand, else after bank trades
    /// (for a road only with cards to spare); then a development card.
    fn step(&mut self) -> bool {
        let s = self.bot.s;
        if self.development() {
            return true;
        }
        let goals: Vec<Goal> = [
            self.city_site().map(Goal::City),
            self.settlement_site().map(Goal::Settlement),
            self.road_site().map(Goal::Road),
        ]
        .into_iter()
        .flatten()
        .collect();
        for g in &goals {
            if self.try_do(g.action(), g.order(s), g.cost()) {
                return true;
            }
        }
        for g in &goals {
            let spare = !matches!(g, Goal::Road(_)) || self.hand().total() >= 6;
            if spare && self.trade_for(*g) {
                return true;
            }
        }
        // Cards for later once the board is served: a development card, unless the
        // city is near (its ore and grain are worth more kept).
        let near_city = self
            .city_site()
            .is_some_and(|_| self.hand().short_of(&Cards::CITY).total() <= 1);
        !near_city
            && self.try_do(
                Action::BuyDevelopment,
                Goal::Development.order(s),
                Cards::DEVELOPMENT,
            )
    }

    /// Bank trades (each first offered to another player's standing acceptance) that
    /// complete `goal`; all or none.
    fn trade_for(&mut self, goal: Goal) -> bool {
        let cost = goal.cost();
        let short = self.hand().short_of(&cost);
        if short.total() == 0 || short.total() > 4 {
            return false;
        }
        let Some(trades) = bank_trades(&self.sim, self.me(), self.hand(), cost, 4) else {
            return false;
        };
        let mut trial = self.sim.clone();
        let mut lines = Vec::new();
        for (give, want, rate) in trades {
            let order = trade_line(&self.sim, self.me(), (give, want, rate));
            if trial
                .apply(Action::MaritimeTrade { give, get: want }, &mut ())
                .is_err()
            {
                return false;
            }
            lines.push((order, Cards::one(give, rate)));
        }
        if trial.apply(goal.action(), &mut ()).is_err() {
            return false;
        }
        lines.push((goal.order(self.bot.s), cost));
        self.sim = trial;
        for (order, need) in lines {
            self.push(order, need);
        }
        true
    }

    /// The next road towards the best site within four roads, when the player has a
    /// settlement left and no site to put it on yet.
    fn road_site(&self) -> Option<EdgeId> {
        if self.sim.settlements_left(self.me()) == 0 || self.settlement_site().is_some() {
            return None;
        }
        self.target_path()?.first().copied()
    }

    /// Roads to lay, in order, to reach the best free site within four roads.
    fn target_path(&self) -> Option<Vec<EdgeId>> {
        let s = &self.sim;
        let t = &s.board.topology;
        let me = self.me();
        let p = &s.players[me as usize];
        let mut dist: Vec<Option<(u8, Option<EdgeId>)>> = vec![None; t.vertices.len()];
        let mut frontier: Vec<VertexId> = Vec::new();
        for v in p.buildings().or(p.road_ends.minus(s.occupied)).iter() {
            dist[v] = Some((0, None));
            frontier.push(v);
        }
        for d in 1..=4u8 {
            let mut next = Vec::new();
            for &v in &frontier {
                if s.occupied.has(v) && s.vertex_owner[v] != me {
                    continue;
                }
                for &e in &t.vertices[v].edges {
                    if !t.land_edges.has(e) || s.all_roads.has(e) {
                        continue;
                    }
                    let w = t.other_end(e, v);
                    if dist[w].is_none() {
                        dist[w] = Some((d, Some(e)));
                        next.push(w);
                    }
                }
            }
            frontier = next;
        }
        let target = t
            .land_vertices
            .minus(s.blocked)
            .iter()
            .filter(|&v| dist[v].is_some_and(|(d, _)| d > 0))
            .max_by(|&a, &b| {
                let score = |v: VertexId| {
                    self.bot.site_value(v) - 2.0 * f64::from(dist[v].map_or(9, |(d, _)| d))
                };
                score(a).total_cmp(&score(b)).then(b.cmp(&a))
            })?;
        let mut path = Vec::new();
        let mut v = target;
        while let Some((_, Some(e))) = dist[v] {
            path.push(e);
            v = t.other_end(e, v);
        }
        path.reverse();
        Some(path)
    }

    /// A development card worth playing now: a year of plenty that completes a city or
    /// settlement, or road building towards a site.
    fn development(&mut self) -> bool {
        let me = self.me();
        let (devs, played) = (self.sim.players[me as usize].devs, self.sim.dev_played);
        if played {
            return false;
        }
        if devs.get(DevCard::YearOfPlenty) > 0 {
            let goals = [
                self.city_site().map(Goal::City),
                self.settlement_site().map(Goal::Settlement),
            ];
            for g in goals.into_iter().flatten() {
                let short = self.hand().short_of(&g.cost());
                if !(1..=2).contains(&short.total()) {
                    continue;
                }
                // The cards missing; with one missing, the second card is the
                // resource the player earns least.
                let mut take = short
                    .iter()
                    .flat_map(|(r, n)| std::iter::repeat_n(r, n.into()));
                let Some(a) = take.next() else { continue };
                let b = take.next().unwrap_or_else(|| {
                    Resource::ALL
                        .into_iter()
                        .min_by_key(|r| (self.bot.income[r.index()], r.index()))
                        .unwrap_or(a)
                });
                let mut trial = self.sim.clone();
                if trial
                    .apply(Action::PlayYearOfPlenty(a, b), &mut ())
                    .and_then(|()| trial.apply(g.action(), &mut ()))
                    .is_ok()
                {
                    self.lines
                        .push(Line::plain(format!("play year of plenty {a}, {b}")));
                    self.push(g.order(self.bot.s), g.cost());
                    self.sim = trial;
                    return true;
                }
            }
        }
        if devs.get(DevCard::RoadBuilding) > 0
            && self.settlement_site().is_none()
            && self.sim.settlements_left(me) > 0
            && let Some(path) = self.target_path()
        {
            let edges: Vec<EdgeId> = path.into_iter().take(2).collect();
            let mut trial = self.sim.clone();
            if trial.apply(Action::PlayRoadBuilding, &mut ()).is_ok() {
                for &e in &edges {
                    let _ = trial.apply(Action::FreeRoad(e), &mut ());
                }
                if matches!(trial.phase, Phase::RoadBuilding { .. }) {
                    let _ = trial.apply(Action::EndRoadBuilding, &mut ());
                }
                let names: Vec<String> = edges.iter().map(|&e| trial.edge_name(e)).collect();
                self.lines.push(Line::plain(format!(
                    "play road building {}",
                    names.join(", ")
                )));
                self.sim = trial;
                return true;
            }
        }
        false
    }

    /// A monopoly, last (what it brings is hidden until played): the resource the next
    /// city or settlement lacks most, then those builds if the cards now allow.
    fn monopoly(&mut self) {
        let me = self.me();
        if self.sim.dev_played || self.sim.players[me as usize].devs.get(DevCard::Monopoly) == 0 {
            return;
        }
        let goal = self
            .city_site()
            .map(Goal::City)
            .or(self.settlement_site().map(Goal::Settlement));
        let Some(goal) = goal else { return };
        let short = self.hand().short_of(&goal.cost());
        let Some((r, _)) = short
            .iter()
            .max_by_key(|(r, n)| (*n, std::cmp::Reverse(r.index())))
        else {
            return;
        };
        self.lines.push(Line::plain(format!("play monopoly {r}")));
        self.lines
            .push(Line::holding(goal.cost(), goal.order(self.bot.s)));
    }
}
