//! Building the railway. A **rail line** (1 wood, 1 ore) runs from a vertex to the
//! centre of one of its land hexes and must join the builder's own railway system (the
//! vertices and centres their lines and ferries touch): from a far vertex in to a
//! centre, or from a centre out. A **ferry** (1 wood, 1 wool) continues the railway at
//! sea or along the coast. A piece may lie **parallel** to others' on the same stretch,
//! for one brick more to each player already there; who cannot pay cannot build. At
//! most one piece of a player lies on a stretch.
//!
//! Connection chips (1 point each): for bringing another player's settlement onto the
//! railway (the first piece to touch it), and for joining one's railway to a piece of
//! the net it was not yet joined to — one chip a piece, however many players that
//! piece of the net holds (RULINGS R9).

use super::events::{Event as XEvent, Refusal as XRefusal};
use super::rail::{Kind, Stretch};
use super::{Act, Express};
use crate::cards::{Cards, Resource};
use crate::events::Event;
use crate::rules::{Action, Log, Refusal};
use crate::state::{NOBODY, Phase, State};

/// 1 wood (the ties), 1 ore (the rails).
pub const LINE: Cards = Cards([1, 0, 0, 0, 1]);
/// 1 wood, 1 wool.
pub const FERRY: Cards = Cards([1, 0, 1, 0, 0]);

pub fn cost(kind: Kind) -> Cards {
    match kind {
        Kind::Line => LINE,
        Kind::Ferry => FERRY,
    }
}

fn x(s: &State) -> Result<&Express, Refusal> {
    s.scenario.as_deref().ok_or(Refusal::ScenarioRule)
}

/// May `seat` lay a piece on `st` (place and supply only, not cost)? The kind of piece.
pub fn site(s: &State, seat: u8, st: Stretch) -> Result<Kind, Refusal> {
    let x = x(s)?;
    let Some(kind) = x.rail.kind(st) else {
        return Err(Refusal::Scenario(XRefusal::NotAPlace { kind: Kind::Line }));
    };
    if x.left(seat, kind) == 0 {
        return Err(Refusal::Scenario(XRefusal::NoPieces { kind }));
    }
    let bit = 1u8 << seat;
    if x.owners[st as usize] & bit != 0 {
        return Err(Refusal::Scenario(XRefusal::AlreadyThere));
    }
    let [a, b] = x.rail.ends[st as usize];
    if x.touch[a as usize] & bit == 0 && x.touch[b as usize] & bit == 0 {
        return Err(Refusal::Scenario(XRefusal::NotAttached));
    }
    Ok(kind)
}

/// Bricks a piece on `st` costs in parallel fees: one per player already there.
pub fn fee(x: &Express, st: Stretch) -> u8 {
    x.owners[st as usize].count_ones() as u8
}

/// Is building on `st` allowed now for `seat`: paid, or free from a Road Building card
/// (which waives the materials, not the parallel fee: RULINGS R9)?
pub fn check(s: &State, seat: u8, st: Stretch, free: bool) -> Result<(), Refusal> {
    if free {
        if !matches!(s.phase, Phase::RoadBuilding { .. }) {
            return Err(Refusal::NotNow);
        }
    } else {
        s.can_build_now(seat)?;
    }
    let kind = site(s, seat, st)?;
    let bricks = fee(x(s)?, st);
    let base = if free { Cards::NONE } else { cost(kind) };
    let mut all = base;
    all.add(&Cards::one(Resource::Brick, bricks));
    let have = s.players[seat as usize].hand;
    if have.covers(&all) {
        Ok(())
    } else if have.covers(&base) {
        Err(Refusal::Scenario(XRefusal::CannotPayFee {
            bricks,
            have: have.get(Resource::Brick),
        }))
    } else {
        Err(Refusal::NeedCards { need: all, have })
    }
}

/// Builds on `st`: pays the materials (unless free) and the parallel fee, lays the
/// piece, and gives the chips it earns.
pub fn build(s: &mut State, seat: u8, st: Stretch, free: bool, log: &mut impl Log) {
    let Some(x) = s.scenario.as_deref() else {
        return;
    };
    let Some(kind) = x.rail.kind(st) else {
        return;
    };
    let owners = x.owners[st as usize];
    if !free {
        let c = cost(kind);
        s.players[seat as usize].hand.take(&c);
        s.bank.add(&c);
    }
    let brick = Cards::one(Resource::Brick, 1);
    let mut fee = Vec::new();
    for o in 0..s.players.len() {
        if owners & (1 << o) != 0 {
            s.players[seat as usize].hand.take(&brick);
            s.players[o].hand.add(&brick);
            fee.push(s.colour(o as u8));
        }
    }
    let c = s.colour(seat);
    log.event(|| {
        Event::Scenario(XEvent::Built {
            player: c,
            kind,
            stretch: st,
            free,
            fee,
        })
    });
    place(s, seat, st, log);
}

/// Lays `seat`'s piece on `st` and gives its connection chips.
pub fn place(s: &mut State, seat: u8, st: Stretch, log: &mut impl Log) {
    let n_players = s.players.len();
    let c = s.colour(seat);
    let colours: Vec<_> = (0..n_players).map(|i| s.colour(i as u8)).collect();
    let Some(x) = s.scenario.as_deref_mut() else {
        return;
    };
    let [a, b] = x.rail.ends[st as usize];
    // Another player's settlement brought onto the railway.
    for n in [a, b] {
        if let Some(v) = x.rail.vertex_of(n) {
            let o = s.vertex_owner[v];
            if x.touch[n as usize] == 0 && o != NOBODY && o != seat {
                x.players[seat as usize].chips += 1;
                let owner = colours[o as usize];
                log.event(|| {
                    Event::Scenario(XEvent::ConnectedSettlement {
                        player: c,
                        owner,
                        vertex: v,
                    })
                });
            }
        }
    }
    // The railway joined to pieces of the net it was not joined to.
    let own = x.component(seat);
    let mut joined = 0u8;
    let mut roots = Vec::new();
    for n in [a, b] {
        if x.touch[n as usize] != 0 {
            let r = x.find(n);
            if Some(r) != own && !roots.contains(&r) {
                roots.push(r);
                joined |= x.seats_in(r);
            }
        }
    }
    x.lay(seat, st);
    if !roots.is_empty() {
        x.players[seat as usize].chips += 1;
        let with: Vec<_> = (0..n_players)
            .filter(|&o| joined & (1 << o) != 0)
            .map(|o| colours[o])
            .collect();
        log.event(|| Event::Scenario(XEvent::JoinedNet { player: c, with }));
    }
    super::race::check_end(s, log);
}

/// Every piece `seat` may build now (paid or free), into `out`.
pub fn legal(s: &State, seat: u8, free: bool, out: &mut Vec<Action>) {
    let Some(x) = s.scenario.as_deref() else {
        return;
    };
    let hand = s.players[seat as usize].hand;
    let bit = 1u8 << seat;
    let bricks = hand.get(Resource::Brick);
    for kind in [Kind::Line, Kind::Ferry] {
        if x.left(seat, kind) == 0 || (!free && !hand.covers(&cost(kind))) {
            continue;
        }
        // Bricks left for fees once the materials are paid.
        let spare = if free {
            bricks
        } else {
            bricks - cost(kind).get(Resource::Brick)
        };
        for &n in &x.players[seat as usize].nodes {
            for &st in &x.rail.at[n as usize] {
                let owners = x.owners[st as usize];
                if x.rail.kind(st) != Some(kind) || owners & bit != 0 {
                    continue;
                }
                if owners.count_ones() as u8 > spare {
                    continue;
                }
                // A stretch between two of one's nodes is met twice: keep it once.
                let other = x.rail.other(st, n);
                if x.touch[other as usize] & bit != 0 && other < n {
                    continue;
                }
                out.push(Action::Scenario(if free {
                    Act::Free(st)
                } else {
                    Act::Build(st)
                }));
            }
        }
    }
}
