//! Scoring (RULINGS R8; Quick Guide XI).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::goods::Good;
use crate::player::Colour;
use crate::state::State;
use crate::wonder::Brick;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Gold 10, coins 40, stock 120, on the player's transporters.
    pub goods: u32,
    /// Each wonder row's 10 points shared by coloured bricks.
    pub wonder: u32,
    /// What the modules in play add (art) or take away (a jumpstart bid).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub modules: i64,
    /// May be negative with a jumpstart bid (RULINGS R10).
    pub total: i64,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// Every player's score as the state stands.
pub fn scores(s: &State) -> BTreeMap<Colour, Score> {
    let mut out: BTreeMap<Colour, Score> =
        s.players.keys().map(|c| (*c, Score::default())).collect();
    for t in s.transporters.values() {
        if let Some(sc) = out.get_mut(&t.owner) {
            sc.goods += 10 * t.cargo.count(Good::Gold)
                + 40 * t.cargo.count(Good::Coins)
                + 120 * t.cargo.count(Good::Stock);
        }
    }
    for row in s.wonder.rows() {
        let coloured = row.iter().filter(|b| matches!(b, Brick::Player(_))).count() as u32;
        if coloured == 0 {
            continue;
        }
        for (c, sc) in &mut out {
            let own = row.iter().filter(|b| **b == Brick::Player(*c)).count() as u32;
            sc.wonder += 10 * own / coloured;
        }
    }
    for (c, sc) in &mut out {
        sc.modules = crate::modules::score(s, *c);
        sc.total = i64::from(sc.goods) + i64::from(sc.wonder) + sc.modules;
    }
    out
}

/// Players best first; a tie goes to the player later in the move order (RULINGS R2).
pub fn ranking(s: &State) -> Vec<(Colour, Score)> {
    let all = scores(s);
    let position = |c: &Colour| s.move_order.iter().position(|m| m == c).unwrap_or(0);
    let mut list: Vec<(Colour, Score)> = all.into_iter().collect();
    list.sort_by(|(a, sa), (b, sb)| sb.total.cmp(&sa.total).then(position(b).cmp(&position(a))));
    list
}

#[cfg(test)]
mod tests {
    /// RULINGS R8: floor(10 × own / all coloured on the row) is the Quick Guide's table
    /// (XI): rows = own bricks 1..5, columns = others' coloured bricks 0..5.
    #[test]
    fn row_shares_match_the_quick_guide_table() {
        let table: [[Option<u32>; 6]; 5] = [
            [Some(10), Some(5), Some(3), Some(2), Some(2), Some(1)],
            [Some(10), Some(6), Some(5), Some(4), Some(3), Some(2)],
            [Some(10), Some(7), Some(6), Some(5), Some(4), None],
            [Some(10), Some(8), Some(6), Some(5), None, None],
            [Some(10), Some(8), Some(7), None, None, None],
        ];
        for (own, row) in table.iter().enumerate() {
            for (others, want) in row.iter().enumerate() {
                let own = own as u32 + 1;
                let others = others as u32;
                if let Some(w) = want {
                    assert_eq!(10 * own / (own + others), *w, "own {own} others {others}");
                }
            }
        }
    }
}
