//! The greedy player ([`Bot`]): the founding, the standing parts and a turn planned for
//! every total the dice can make (the module's doc in [`super`] says how it plays).

use std::fmt::Write as _;

use super::lines::{Goal, Line, robber_text, takers};
use super::planner::{Planner, dice, knight, settle};
use super::search;
use crate::board::{Board, EdgeId, HexId, VertexId};
use crate::cards::{Cards, DevCard, Resource};
use crate::colour::Colour;
use crate::orders::RobberChoice;
use crate::rules::Action;
use crate::state::{NOBODY, Phase, State};

/// The judge's Catan players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Each turn's builds in a fixed order of preference: cities, settlements, roads
    /// towards a site, development cards.
    Greedy,
    /// The same turn with its builds searched over the rules engine (`search`).
    Search,
}

pub(super) struct Bot<'a> {
    pub(super) s: &'a State,
    pub(super) me: u8,
    pub(super) player: Player,
    /// Dots per resource the player's buildings collect now (cities twice).
    pub(super) income: [u32; 5],
}

impl<'a> Bot<'a> {
    pub(super) fn new(s: &'a State, me: u8, player: Player) -> Bot<'a> {
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
    pub(super) fn site_value(&self, v: VertexId) -> f64 {
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
    pub(super) fn free_sites(&self) -> Vec<VertexId> {
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

    pub(super) fn founding(&self) -> String {
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

    pub(super) fn standing(&self) -> String {
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
    pub(super) fn robber_choices(&self) -> Vec<RobberChoice> {
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
    pub(super) fn victims(&self, hex: HexId) -> Vec<Colour> {
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
    pub(super) fn keep(&self) -> Cards {
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
    pub(super) fn discard_preference(&self) -> Vec<(Resource, u8)> {
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
    pub(super) fn acceptances(&self) -> Vec<(Resource, Resource)> {
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

    pub(super) fn turn(&self) -> String {
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
    pub(super) fn fallback_lines(&self) -> Vec<Line> {
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
    pub(super) fn immediate_sites(&self, s: &State) -> Vec<VertexId> {
        let p = &s.players[self.me as usize];
        let mut sites: Vec<VertexId> = p.road_ends.minus(s.blocked).iter().collect();
        sites.sort_by(|&a, &b| {
            self.site_value(b)
                .total_cmp(&self.site_value(a))
                .then(a.cmp(&b))
        });
        sites
    }

    pub(super) fn knight_before_roll(&self, robber: &[RobberChoice]) -> Option<RobberChoice> {
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
