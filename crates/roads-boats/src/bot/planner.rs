//! The planner: the judge's Roads & Boats player (`judge bot`, the caretaker of a game
//! by mail, `planner` in `judge selfplay`). It plays the caretaker's economy
//! ([`super::styled`]) in one of a handful of styles — producers next door or two tiles
//! out (a quarry first when home has no rock), how many bricks a turn, how much boards
//! and stone it keeps back, its transporters finding their way over two tiles
//! ([`Style::travels`]), a mine next door built by two transporters together
//! ([`Style::mines`]), in every one a sawmill at home first where two woods lie next
//! door ([`Style::sawmill`], transport.rs) and donkeys going round the producers
//! next door ([`Style::rounds`]) — and chooses among them by playing each a few turns ahead
//! with the judge's own resolver (pure: state and orders in, state out), every other
//! seat played by today's caretaker ([`super::Style::FLOOR`]) as the rollout policy.
//! Each ending is valued by the game's score (its own less the best rival's) and an
//! economy estimate (the goods at home and aboard, by how far along the chain they
//! are, its transporters, the producers near home).
//!
//! Where the &cetera art module is in play, every style puts an atelier at home in the
//! sawmill's place and keeps its wood carvings aboard ([`super::art`]); once the atelier
//! stands, donkeys are bred on the pasture next to home up to the limit, each holding two
//! carvings more ([`super::donkeys`]), and the geese, in either role, are left where they
//! lie.
//!
//! What it does with its geese depends on whom it plays for ([`Role`], [`orders_as`]): as
//! an opponent (`judge selfplay`), where art is not in play, they breed on a pasture
//! next to home in every style and the bred ones are paid into wonder bricks
//! ([`super::geese`]); as the stand-in of an absent player ([`orders`]: `judge bot`,
//! the caretaker of a game by mail) it leaves them where they lie and keeps them, as
//! gold, coins and stock.
//!
//! It knows only the public position: the rollouts draw from a luck of their own,
//! never the game's secret seed.

use std::collections::BTreeSet;

use super::geese::Geese;
pub use super::geese::Role;
use super::{Style, styled};
use crate::building::BuildingKind;
use crate::goods::Good;
use crate::map::Terrain;
use crate::play::{self, OrderFile};
use crate::player::Colour;
use crate::resolve::score;
use crate::state::State;

/// The styles it tries; the first is the floor's, its transporters finding their way.
pub const STYLES: [Style; 7] = [
    Style {
        travels: true,
        sawmill: true,
        rounds: true,
        ..Style::FLOOR
    },
    // A mine on a mountain next door, two transporters carrying its cost together.
    Style {
        travels: true,
        mines: true,
        sawmill: true,
        rounds: true,
        ..Style::FLOOR
    },
    Style {
        far: true,
        stone_first: true,
        travels: true,
        sawmill: true,
        rounds: true,
        ..Style::FLOOR
    },
    Style {
        far: true,
        bricks: 3,
        reserve: 2,
        stone_first: true,
        travels: true,
        sawmill: true,
        rounds: true,
        ..Style::FLOOR
    },
    Style {
        far: true,
        bricks: 1,
        reserve: 4,
        travels: true,
        sawmill: true,
        rounds: true,
        ..Style::FLOOR
    },
    Style {
        far: true,
        bricks: 0,
        stone_first: true,
        travels: true,
        sawmill: true,
        rounds: true,
        ..Style::FLOOR
    },
    Style {
        bricks: 2,
        reserve: 2,
        stone_first: true,
        travels: true,
        sawmill: true,
        rounds: true,
        ..Style::FLOOR
    },
];

/// How many turns each style is played ahead.
pub const HORIZON: u32 = 4;

/// The order file `me` would send for the next turn as the stand-in of an absent player
/// ([`Role::StandIn`]: `judge bot`, the caretaker of a game by mail).
pub fn orders(
    s: &State,
    me: Colour,
    game: Option<&str>,
    check: &dyn Fn(&str) -> BTreeSet<usize>,
) -> String {
    orders_as(s, me, game, check, Role::StandIn)
}

/// The order file `me` would send for the next turn in `role`: the caretaker's economy
/// in the style that plays best ahead ([`choose`]), its geese played as the role asks
/// ([`Role::geese`]); every line checked as the caretaker's.
pub fn orders_as(
    s: &State,
    me: Colour,
    game: Option<&str>,
    check: &dyn Fn(&str) -> BTreeSet<usize>,
    role: Role,
) -> String {
    styled(s, me, game, check, choose_as(s, me, role))
}

/// `style` played in `role`: its geese as the role asks.
fn in_role(style: Style, role: Role) -> Style {
    Style {
        geese: role.geese(),
        ..style
    }
}

/// The style whose rollout ends best for `me` as a stand-in (the first of equals).
pub fn choose(s: &State, me: Colour) -> Style {
    choose_as(s, me, Role::StandIn)
}

/// The style whose rollout ends best for `me` in `role` (the first of equals).
pub fn choose_as(s: &State, me: Colour, role: Role) -> Style {
    // Its own luck: the rollouts never see the game's seed.
    let luck = judge_core::luck::Luck::predictable(0x706c_616e);
    // Home with no rock next door and no quarry near: stone comes only from a quarry
    // further out, so the styles that build one there are the candidates (the rollout
    // is too short to see the stone pay).
    let stoneless = s.players.get(&me).and_then(|p| p.home).is_some_and(|home| {
        !s.map
            .neighbours(home.hex)
            .any(|(_, h)| s.map.terrain(h) == Some(Terrain::Rock))
            && !s
                .buildings
                .iter()
                .any(|b| b.kind == BuildingKind::Quarry && b.at.hex.distance(home.hex) <= 2)
    });
    // A mine's gold fills the transporters that keep it aboard for good, so that they
    // fetch nothing more: in games of two it cost more bricks than it scored, so it is
    // tried in games of four or more (shorter for each, a smaller share of each wonder
    // row per brick), and by an opponent in games of three. Three-valleys (a mountain
    // next to each home) once won no game in 60 with it; with the producers before
    // bricks, an opponent's mine won all 60, 58.8 / 46.5 against 46.6 / 37.9 without (a
    // stand-in's won a third, 33.3 % against 48.3 %: docs/gm-guide.md).
    let many = s.players.len() >= 4 || (s.players.len() == 3 && role == Role::Opponent);
    // Producers before bricks and a full transporter left home: in games of three or
    // more. In games of two they cost an opponent (two-rivers 65.8 -> 63.8, power-valley
    // 84.0 -> 75.4; the early bricks given up weigh more in a shorter game with fewer
    // rivals; docs/gm-guide.md). A stand-in builds first in every game: the player it
    // stands in for comes back to producers rather than to a few early bricks.
    let three = s.players.len() >= 3;
    let builds_first = three || role == Role::StandIn;
    let mut best = (i64::MIN, in_role(Style::FLOOR, role));
    // The gold project (super::coins) is not played: in games of two it made a coin in
    // every two-rivers game but won none (its bricks fell to half the caretaker's;
    // docs/gm-guide.md). Were it on, it would be on in every style, so that a choice
    // made afresh each turn never abandons it once begun.
    let coins = false;
    // Where &cetera art is in play, each land transporter more holds two wood carvings
    // more aboard (20 points each at the end) and fetches the stone that piles at the
    // quarries while the others hold art: donkeys are bred on the pasture next to home
    // once the atelier stands there, up to the limit, in every style, and the geese
    // are left where they lie (they bred on that pasture, and paid a share of a brick
    // each). Polder-cities, 60 games of three: the stand-in 107.7 -> 161.1 points (art
    // aboard 4.7 -> 7.0), an opponent 85.9 -> 161.1 (docs/gm-guide.md). Without art,
    // the two donkeys idle for the turns they breed cost more than the third carries
    // (two-rivers, bred from the first turn: the stand-in won 22 of 60 games, not 60).
    let art = super::art::in_play(s);
    let home = s.players.get(&me).and_then(|p| p.home);
    let herd = art && home.is_some_and(|h| super::art::atelier_at(s, h));
    for style in STYLES
        .into_iter()
        .map(|st| in_role(st, role))
        .filter(|st| !stoneless || (st.far && st.stone_first))
        .filter(|st| many || !st.mines)
        .map(|st| Style {
            coins,
            holds_home: true,
            priced: true,
            builds_first,
            room_aware: three,
            art,
            keeps_managers: true,
            herd,
            geese: if art { Geese::Off } else { st.geese },
            ..st
        })
    {
        let v = rollout(s, me, style, &luck);
        if v > best.0 {
            best = (v, style);
        }
    }
    best.1
}

/// The value for `me` of `style` played [`HORIZON`] turns, the others as the floor.
fn rollout(s: &State, me: Colour, style: Style, luck: &judge_core::luck::Luck) -> i64 {
    let mut st = s.clone();
    for _ in 0..HORIZON {
        if st.game_over.is_some() {
            break;
        }
        let files: Vec<OrderFile> = st
            .players
            .keys()
            .map(|c| OrderFile {
                player: *c,
                text: styled(
                    &st,
                    *c,
                    None,
                    &super::refusals(&st, *c),
                    if *c == me { style } else { Style::FLOOR },
                ),
            })
            .collect();
        st = play::play(&st, &files, luck).resolution.state;
    }
    value(&st, me)
}

/// What a good is worth to the economy estimate: how far along the chain it is.
fn worth(g: Good) -> i64 {
    match g {
        Good::Trunks | Good::Clay => 1,
        Good::Stone | Good::Boards | Good::Geese => 2,
        Good::Paper | Good::Fuel => 3,
        Good::Iron => 4,
        Good::Gold => 10,
        Good::Coins => 40,
        Good::Stock => 120,
        _ => 1,
    }
}

/// The game's score (its own less the best rival's, tenfold) and the economy estimate
/// (left out near a turn limit).
pub fn value(s: &State, me: Colour) -> i64 {
    let scores = score::scores(s);
    let mine = scores.get(&me).map_or(0, |x| x.total);
    let rival = scores
        .iter()
        .filter(|(c, _)| **c != me)
        .map(|(_, x)| x.total)
        .max()
        .unwrap_or(0);
    let mut economy = 0;
    if let Some(home) = s.players.get(&me).and_then(|p| p.home) {
        if let Some(g) = s.goods_at(home) {
            economy += g.iter().map(|(g, n)| worth(g) * i64::from(n)).sum::<i64>();
        }
        // The producers and factories within two tiles of home.
        economy += 15
            * s.buildings
                .iter()
                .filter(|b| b.at.hex.distance(home.hex) <= 2 && b.kind != BuildingKind::Woodcutter)
                .count() as i64;
        economy += 8 * s
            .buildings
            .iter()
            .filter(|b| b.at.hex.distance(home.hex) <= 2 && b.kind == BuildingKind::Woodcutter)
            .count() as i64;
    }
    for t in s.transporters.values().filter(|t| t.owner == me) {
        economy += 5 + t
            .cargo
            .iter()
            .map(|(g, n)| worth(g) * i64::from(n))
            .sum::<i64>();
    }
    // Near the end, only the score counts.
    let late = s
        .settings
        .end
        .turn_limit
        .is_some_and(|limit| s.turn + HORIZON >= limit);
    let w = if late || s.game_over.is_some() { 0 } else { 1 };
    10 * (mine - rival) + w * economy
}
