//! Longest road: the longest trail (no edge used twice; vertices may repeat) along one
//! player's roads, which cannot pass through a vertex where another player's settlement
//! or city stands. The first to have a trail of 5 or more takes the card (2 points);
//! another player takes it only with a strictly longer trail. If the holder's road is
//! broken and no longer the longest, the longest player takes it — unless several tie,
//! or nobody has 5, and then it is set aside until someone is alone at the top.

use super::Log;
use crate::bits::Bits;
use crate::board::{Topology, VertexId};
use crate::events::Event;
use crate::state::State;

/// The longest trail in `roads`, not continuing through any vertex in `breaks`.
pub fn length_of(t: &Topology, roads: Bits, breaks: Bits) -> u8 {
    let total = roads.len() as u8;
    if total <= 1 {
        return total;
    }
    let mut ends = Bits::EMPTY;
    for e in roads.iter() {
        for v in t.edges[e].ends {
            ends.insert(v);
        }
    }
    let mut best = 0;
    for v in ends.iter() {
        dfs(t, roads, breaks, v, Bits::EMPTY, 0, &mut best);
        if best == total {
            break;
        }
    }
    best
}

fn dfs(t: &Topology, roads: Bits, breaks: Bits, v: VertexId, used: Bits, len: u8, best: &mut u8) {
    if len > *best {
        *best = len;
    }
    if len > 0 && breaks.has(v) {
        return;
    }
    for e in t.vertex_edges[v].and(roads).minus(used).iter() {
        let mut u = used;
        u.insert(e);
        dfs(t, roads, breaks, t.other_end(e, v), u, len + 1, best);
    }
}

/// A player's longest trail as the board stands.
pub fn length(s: &State, seat: u8) -> u8 {
    let p = &s.players[seat as usize];
    length_of(&s.board.topology, p.roads, s.occupied.minus(p.buildings()))
}

impl State {
    /// Gives the Longest Road card to whom it belongs after a change.
    pub(crate) fn update_longest_road(&mut self, log: &mut impl Log) {
        let n = self.players.len();
        let max = (0..n)
            .map(|s| self.players[s].road_length)
            .max()
            .unwrap_or(0);
        let holder = match self.longest_road {
            Some(h)
                if self.players[h as usize].road_length >= 5
                    && self.players[h as usize].road_length == max =>
            {
                Some(h)
            }
            _ => {
                let top: Vec<u8> = (0..n as u8)
                    .filter(|&s| self.players[s as usize].road_length == max)
                    .collect();
                (max >= 5 && top.len() == 1).then(|| top[0])
            }
        };
        if holder != self.longest_road {
            self.longest_road = holder;
            let player = holder.map(|h| self.colour(h));
            let length = holder.map_or(max, |h| self.players[h as usize].road_length);
            log.event(|| Event::LongestRoad { player, length });
        }
    }
}
