//! The greedy plan of one turn after a known roll ([`Planner`]), played on a copy of the
//! state through the rules' own checks, and what a knight and a 7 do on that copy.

use super::greedy::Bot;
use super::lines::{Goal, Line, bank_trades, trade_line};
use crate::board::{EdgeId, VertexId};
use crate::cards::{Cards, DevCard, Resource};
use crate::orders::RobberChoice;
use crate::orders::resolve::{discard_choice, on_record, robber_choice};
use crate::rules::Action;
use crate::state::{Phase, State};

/// Play a knight on the copy as the judge would with this choice; the card stolen is
/// not known when the orders are written, so the plan goes on without it.
pub(super) fn knight(sim: &mut State, me: u8, choice: &RobberChoice, prefs: &[RobberChoice]) {
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
pub(super) fn settle(
    sim: &mut State,
    me: u8,
    prefs: &[(Resource, Option<u8>)],
    robber: &[RobberChoice],
) {
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
pub(super) struct Planner<'a, 'b> {
    pub(super) bot: &'b Bot<'a>,
    pub(super) sim: State,
    pub(super) lines: Vec<Line>,
    /// Each line names the cards it needs (`if I have`): after a knight's unknown
    /// steal, a 7 may make the player discard more than planned.
    pub(super) guard: bool,
}

impl<'a, 'b> Planner<'a, 'b> {
    pub(super) fn new(bot: &'b Bot<'a>, sim: State, guard: bool) -> Planner<'a, 'b> {
        Planner {
            bot,
            sim,
            lines: Vec::new(),
            guard,
        }
    }

    /// A line of the plan, which needs `need` in hand.
    pub(super) fn push(&mut self, order: String, need: Cards) {
        self.lines.push(if self.guard && !need.is_empty() {
            Line::holding(need, order)
        } else {
            Line::plain(order)
        });
    }

    pub(super) fn me(&self) -> u8 {
        self.bot.me
    }

    pub(super) fn hand(&self) -> Cards {
        self.sim.players[self.me() as usize].hand
    }

    pub(super) fn try_do(&mut self, a: Action, line: String, need: Cards) -> bool {
        if self.sim.phase == Phase::Main && self.sim.apply(a, &mut ()).is_ok() {
            self.push(line, need);
            true
        } else {
            false
        }
    }

    pub(super) fn plan(mut self) -> Vec<Line> {
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
    pub(super) fn city_site(&self) -> Option<VertexId> {
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

    pub(super) fn settlement_site(&self) -> Option<VertexId> {
        if self.sim.settlements_left(self.me()) == 0 {
            return None;
        }
        self.bot.immediate_sites(&self.sim).first().copied()
    }

    /// One thing done; false when nothing more can be: a city, a settlement, or a road
    /// towards the next site, built with the cards in hand, else after bank trades
    /// (for a road only with cards to spare); then a development card.
    pub(super) fn step(&mut self) -> bool {
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
    pub(super) fn trade_for(&mut self, goal: Goal) -> bool {
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
    pub(super) fn road_site(&self) -> Option<EdgeId> {
        if self.sim.settlements_left(self.me()) == 0 || self.settlement_site().is_some() {
            return None;
        }
        self.target_path()?.first().copied()
    }

    /// Roads to lay, in order, to reach the best free site within four roads.
    pub(super) fn target_path(&self) -> Option<Vec<EdgeId>> {
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
    pub(super) fn development(&mut self) -> bool {
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
    pub(super) fn monopoly(&mut self) {
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

/// Two dice making `total`.
pub(super) fn dice(total: u8) -> [u8; 2] {
    let a = (total - 1).min(6);
    [a, total - a]
}
