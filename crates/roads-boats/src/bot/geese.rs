//! Geese for the planner (RULINGS R4, "Reproduction": exactly 2 geese on an empty
//! pasture — no building, goods or other transporters anywhere on the tile; roads, walls
//! and a home marker allowed — make one more each production).
//!
//! Geese are not carried: they follow a transporter (`move D1: follow 2 geese; C5`,
//! docs/orders.md) and settle where it ends its move. So the bot:
//! - leads its two geese from home to a free pasture next to home (one a road joins to
//!   home first, then one where geese already lie), the leader ending there; with a
//!   stone at home it carries one and lays the road pasture-home as it goes;
//! - the next turn the leader leaves the pasture (it would keep the geese from
//!   breeding), bringing home any goose beyond the pair;
//! - each production the pair makes a third goose (the bot foresees it: the pair was
//!   alone there when the turn began), and a transporter at home goes to the pasture
//!   and back along the road in one move (two tiles on roads, RULINGS R5), the third
//!   goose following it home: a goose a turn (without the road, the leader stands on
//!   the pasture a turn, so a goose every other turn);
//! - the pasture is kept free: no producer is built there (no clay pit), and none of its
//!   transporters is sent there but the leader.
//!
//! Whom it plays for ([`Role`]) decides: as an opponent playing to win it breeds them and
//! pays the bred geese into wonder bricks (a goose pays a brick's share as a board
//! does), the pair on the pasture never. As the stand-in of an absent player it leaves
//! them where they lie, never paid into bricks ([`super::KEPT`]), and researches when a
//! paper is at hand: geese score nothing (RULINGS R8) and a stand-in may never spend
//! them, so breeding more tied a donkey, a pasture and the geese's road to goods that
//! paid nothing (the ladder, `--bots stand-in,caretaker`: two-rivers 53.6 against the
//! floor's 64.0 while it bred them, 62.0 against 58.0 since; docs/gm-guide.md).
//! Research (2 geese and a paper: a paper mill and two trunks or boards besides) does not
//! pay for this bot: its subjects are the mines' (more gold and iron from a mine, in games
//! of four, or of three as an opponent, and a few turns before the end) and the boat and
//! truck factories it does not build, each worth less than the bricks the geese pay
//! (docs/gm-guide.md, "The planner").

use std::collections::BTreeSet;

use super::{area_of, unload_clause};
use crate::goods::{Good, Goods};
use crate::map::{AreaId, Hex};
use crate::player::Colour;
use crate::state::State;
use crate::transporter::{Class, TransporterId};

/// How the bot plays its geese.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geese {
    /// Left where they lie and never paid into bricks: the floor (today's caretaker) and
    /// a stand-in.
    Off,
    /// Bred on a pasture next to home, and the bred ones paid into wonder bricks (an
    /// opponent playing to win).
    Spent,
}

/// Whom the planner plays for: an absent player it stands in for, who must come back no
/// poorer in what scores, or itself, playing to win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The caretaker of an absent player (`judge bot`, the caretaker of a game by mail):
    /// it never pays that player's gold, coins, stock or geese into bricks, and breeds
    /// no geese.
    StandIn,
    /// A player of its own (`judge selfplay`'s `planner`): it may play to win, paying
    /// the geese it breeds into bricks.
    Opponent,
}

impl Role {
    /// How it plays its geese in this role.
    pub fn geese(self) -> Geese {
        match self {
            Role::StandIn => Geese::Off,
            Role::Opponent => Geese::Spent,
        }
    }
}

/// What leading the geese asks of a turn.
#[derive(Default)]
pub struct Flock {
    /// The breeding pastures: nothing else is built or sent there.
    pub pastures: Vec<Hex>,
    /// The movement lines.
    pub movement: Vec<String>,
    /// The building lines (the road pasture-home).
    pub building: Vec<String>,
    /// The transporters these lines move.
    pub busy: Vec<TransporterId>,
    /// Those of them that end the movement at home.
    pub ends_home: Vec<TransporterId>,
    /// The pastures a road from home is still wanted to (a stone each, by a builder at
    /// home).
    pub roads: Vec<Hex>,
}

/// How many breeding pairs it keeps, each on a pasture of its own next to home.
pub const PAIRS: usize = 2;

/// The pastures next to home where geese may breed: no building, nothing lying but
/// geese, no transporter of another player, one area (no river across it). Those where a
/// pair lies first, then those a road joins to home, then by name.
pub fn pastures(s: &State, me: Colour, home: AreaId) -> Vec<Hex> {
    let free = |h: Hex| super::breeding_pasture(s, me, h, |g| g == Good::Geese);
    let geese = |h: Hex| {
        s.goods_at(area_of(s, h))
            .map_or(0, |g| g.count(Good::Geese))
    };
    let mut all: Vec<Hex> = s
        .map
        .neighbours(home.hex)
        .map(|(_, h)| h)
        .filter(|h| free(*h))
        .collect();
    all.sort_by_key(|h| {
        (
            geese(*h) < 2,
            !s.map.road_connected(home, area_of(s, *h), Some(me)),
            *h,
        )
    });
    all
}

/// The geese's lines for `me` this turn, in `style`; the geese led from home are taken
/// from `home_left`, as are those a pair still needs (never paid into bricks). A second
/// pair only once the first breeds, and none while a producer of its own two tiles out
/// is joined to home by roads, when its transporters find their way
/// ([`super::Style::travels`]): the
/// donkey the second pair would tie fetches from that producer instead (two road tiles
/// there, two back: 2 goods every two turns, where the second pair's fetcher brought a
/// goose every other turn). A second pair already on its pasture is still tended.
pub fn lead(
    s: &State,
    me: Colour,
    home: AreaId,
    style: super::Style,
    busy: &BTreeSet<TransporterId>,
    home_left: &mut Goods,
) -> Flock {
    let mut flock = Flock::default();
    if style.geese == Geese::Off {
        return flock;
    }
    // Empty land transporters at home (what scores aboard may stay aboard).
    let mut at_home: Vec<TransporterId> = super::free_at_home(s, me, home, busy)
        .filter(|(_, t)| super::unloaded(&t.cargo).is_empty())
        .map(|(id, _)| *id)
        .collect();
    at_home.reverse();
    let far_producer = style.travels
        && s.buildings.iter().any(|b| {
            super::is_producer(b.kind)
                && b.at.hex.distance(home.hex) == 2
                && s.map.road_connected(home, b.at, Some(me))
        });
    for (k, hex) in pastures(s, me, home).into_iter().take(PAIRS).enumerate() {
        let begun = s
            .goods_at(area_of(s, hex))
            .is_some_and(|g| g.count(Good::Geese) > 0);
        if k > 0 && far_producer && !begun {
            break;
        }
        if !tend(
            s,
            me,
            home,
            hex,
            style,
            busy,
            &mut at_home,
            home_left,
            &mut flock,
        ) {
            break;
        }
    }
    flock
}

/// The lines for the pasture `hex`, added to `flock`, a transporter of `at_home` taken
/// for them; whether a pair is there.
#[allow(clippy::too_many_arguments)]
fn tend(
    s: &State,
    me: Colour,
    home: AreaId,
    hex: Hex,
    style: super::Style,
    busy: &BTreeSet<TransporterId>,
    at_home: &mut Vec<TransporterId>,
    home_left: &mut Goods,
    flock: &mut Flock,
) -> bool {
    flock.pastures.push(hex);
    let at = area_of(s, hex);
    let road = s.map.road_connected(home, at, Some(me));
    if !road {
        flock.roads.push(hex);
    }
    let on_pasture = s.goods_at(at).map_or(0, |g| g.count(Good::Geese));
    let mine_there: Vec<TransporterId> = s
        .transporters
        .iter()
        .filter(|(id, t)| t.owner == me && !busy.contains(id) && s.tile_of(**id) == Some(hex))
        // One carrying a producer's cost to a tile beyond ([`super::Style::far`]) builds
        // there this turn, leaving the pasture as the leader does.
        .filter(|(_, t)| {
            !(style.far && super::build_beside(s, hex, &t.cargo, &BTreeSet::new()).is_some())
        })
        .map(|(id, _)| *id)
        .collect();
    let follow = |n: u32| format!("follow {}; ", Good::Geese.counted(n));
    // Only where geese lie does a transporter of its own keep them from breeding (R4: no
    // other transporter on the tile); one on a pasture with none, such as one carrying a
    // producer's cost to the tile beyond, goes on with its errand. Turned back home, the
    // cost of a quarry two tiles out went there and back again, and the quarry was never
    // built (power-valley, where home has no rock next door).
    if !mine_there.is_empty() && on_pasture > 0 {
        // Off the pasture, any goose beyond the pair following home.
        let mut extra = on_pasture.saturating_sub(2);
        for id in mine_there {
            let Some(t) = s.transporters.get(&id) else {
                continue;
            };
            if t.kind.class() != Class::Land {
                continue;
            }
            let led = if extra > 0 {
                follow(extra)
            } else {
                String::new()
            };
            extra = 0;
            flock
                .movement
                .push(format!("move {id}: {led}{home}{}", unload_clause(&t.cargo)));
            flock.busy.push(id);
            flock.ends_home.push(id);
        }
        // The pair still to make up waits at home.
        let short = 2u32.saturating_sub(on_pasture);
        home_left.take(Good::Geese, short.min(home_left.count(Good::Geese)));
        return on_pasture >= 2;
    }
    if on_pasture < 2 {
        // The pair made up from home, the leader ending on the pasture.
        let short = 2 - on_pasture;
        let lying = home_left.count(Good::Geese);
        home_left.take(Good::Geese, short.min(lying));
        if lying >= short
            && let Some(id) = at_home.pop()
        {
            let stone = !road
                && home_left.count(Good::Stone) > 0
                && s.transporters
                    .get(&id)
                    .is_some_and(|t| t.kind.capacity() > t.cargo.total());
            if stone {
                home_left.take(Good::Stone, 1);
                flock.building.push(format!("road {at} {home} with {id}"));
                flock.roads.retain(|h| *h != hex);
            }
            let load = if stone { "load 1 stone; " } else { "" };
            flock
                .movement
                .push(format!("move {id}: {load}{}{at}", follow(short)));
            flock.busy.push(id);
        }
        return false;
    }
    // The pair alone on its pasture breeds in the coming production (it is judged on
    // the position this file is written from): the goose it makes, or any beyond the
    // pair, is fetched this movement.
    let bred = if on_pasture == 2 { 1 } else { on_pasture - 2 };
    if let Some(id) = at_home.pop() {
        if road {
            // To the pasture and back along the road, the goose following home.
            flock
                .movement
                .push(format!("move {id}: {at}; {}{home}", follow(bred)));
            flock.ends_home.push(id);
        } else {
            // No road yet: the leader goes there, and brings the goose home next turn.
            flock.movement.push(format!("move {id}: {at}"));
        }
        flock.busy.push(id);
    }
    true
}

/// The tiles `flock` keeps free of building and of other errands.
pub fn keep_free(flock: &Flock, targets: &mut BTreeSet<Hex>) {
    targets.extend(flock.pastures.iter().copied());
}

/// What a move line does with geese, in words for the player the bot stood in for
/// ([`super::summary`]): `led 2 geese to C5 to breed`, `brought 1 goose home from C5`
/// (`start`, where the transporter stands as the turn begins, names the pasture when
/// no position comes before `follow`); nothing for a move without `follow`.
pub fn said(line: &str, home: Option<AreaId>, start: Option<AreaId>) -> Option<String> {
    let (_, steps) = line.split_once(": ")?;
    let steps: Vec<&str> = steps.split("; ").map(str::trim).collect();
    let at = steps.iter().position(|p| p.starts_with("follow "))?;
    let geese = steps[at].trim_start_matches("follow ");
    let is_position = |p: &&&str| {
        !["load ", "unload ", "give ", "follow ", "carry "]
            .iter()
            .any(|w| p.starts_with(w))
    };
    let start = start.map(|a| a.to_string());
    let from = steps[..at]
        .iter()
        .rev()
        .find(is_position)
        .copied()
        .or(start.as_deref());
    let to = steps[at..].iter().rev().find(is_position)?;
    if home.is_some_and(|h| h.to_string() == *to) {
        Some(match from {
            Some(from) => format!("brought {geese} home from {from}"),
            None => format!("brought {geese} home"),
        })
    } else {
        Some(format!("led {geese} to {to} to breed"))
    }
}

#[cfg(test)]
mod tests {
    use super::said;
    use crate::map::{AreaId, Hex};

    /// The notice's words for the geese's moves (docs/orders.md: `follow 2 geese`).
    #[test]
    fn the_notice_says_where_the_geese_went() {
        let home = Some(AreaId::whole(Hex { col: 2, row: 3 }));
        let c4 = home;
        let c5 = Some(AreaId::whole(Hex { col: 2, row: 4 }));
        assert_eq!(
            said("move D1: load 1 stone; follow 2 geese; C5", home, c4).as_deref(),
            Some("led 2 geese to C5 to breed")
        );
        assert_eq!(
            said("move D1: C5; follow 1 goose; C4", home, c4).as_deref(),
            Some("brought 1 goose home from C5")
        );
        // The leader leaving the pasture, a goose following it.
        assert_eq!(
            said("move D1: follow 1 goose; C4", home, c5).as_deref(),
            Some("brought 1 goose home from C5")
        );
        assert_eq!(said("move D1: C5; load 1 stone; C4", home, c4), None);
    }
}
