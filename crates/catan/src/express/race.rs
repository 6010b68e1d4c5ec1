//! The race of the locomotives.
//!
//! - It **begins** the moment a player has 8 points during their own turn (before or
//!   after the roll; RULINGS R9): that player is the **starter**. The two cities set
//!   aside unlock at once.
//! - **Stopovers**: beginning with the starter and going clockwise, each player picks a
//!   settlement or city (anyone's) in their own railway — never a locomotive's starting
//!   place nor a place already picked — or none if they have no such place. Three
//!   players pick in two rounds. At each stopover every player has a water tower.
//! - **Movement**: after building, a player with at least 5 lines and ferries may move
//!   their locomotive as many steps as the higher die shows, vertex to centre to vertex
//!   (a ferry on the island map: vertex to vertex), one point a step. Their own pieces
//!   ride free; a rival's piece costs one resource card to its owner (on a parallel
//!   stretch, one owner of the mover's choice; a stretch with the mover's own piece is
//!   free). Reaching a stopover with one of their towers, the locomotive stops and the
//!   player takes the tower (1 point). Movement ends the turn.
//! - **The end**: the first to hold all their towers on the board — with their railway
//!   joined to every other player's — completes the race, takes the Fastest Locomotive
//!   Driver card (1 point) and ends the game. The most points win; ties go to the race
//!   winner, then the starter, then the player closest after the starter clockwise.

use super::events::{Event as XEvent, Refusal as XRefusal};
use super::rail::{Kind, Node, Stretch};
use super::state::{
    PIECES_TO_MOVE, RACE_POINTS, Race, Stopover, stopover_rounds, towers_per_player,
};
use super::{Act, Express, Step};
use crate::board::VertexId;
use crate::cards::{Cards, Resource};
use crate::events::Event;
use crate::rules::{Action, Log, Refusal};
use crate::state::{NOBODY, Phase, Resume, State};

/// Chips, water towers taken, and the Fastest Locomotive Driver card.
pub fn extra_points(x: &Express, seat: u8) -> u8 {
    let p = &x.players[seat as usize];
    let (towers, driver) = match &x.race {
        Some(r) => (r.collected(seat), u8::from(r.winner == Some(seat))),
        None => (0, 0),
    };
    p.chips + towers + driver
}

pub fn actor(s: &State, step: Step) -> u8 {
    match step {
        Step::Stopover { seat, .. } => seat,
        Step::Moving { .. } => s.active,
    }
}

/// After every action: the race begins, or its stopovers are chosen again.
pub fn after_action(s: &mut State, log: &mut impl Log) {
    let Some(x) = s.scenario.as_deref() else {
        return;
    };
    let then = match s.phase {
        Phase::BeforeRoll => Resume::BeforeRoll,
        Phase::Main => Resume::Main,
        _ => return,
    };
    match &x.race {
        None => {
            if s.points(s.active) >= RACE_POINTS {
                begin(s, then, log);
            }
        }
        Some(r) => {
            if r.stopovers.is_empty()
                && r.winner.is_none()
                && s.active == r.starter
                && s.turn > r.chosen_in
                && then == Resume::BeforeRoll
            {
                let starter = s.colour(r.starter);
                let turn = s.turn;
                if let Some(r) = s.scenario.as_deref_mut().and_then(|x| x.race.as_mut()) {
                    r.chosen_in = turn;
                }
                log.event(|| Event::Scenario(XEvent::ChooseAgain { starter }));
                choose_from(s, 0, then, log);
            }
        }
    }
}

fn begin(s: &mut State, then: Resume, log: &mut impl Log) {
    let starter = s.active;
    let turn = s.turn;
    if let Some(x) = s.scenario.as_deref_mut() {
        x.race = Some(Race {
            starter,
            stopovers: Vec::new(),
            chosen_in: turn,
            winner: None,
            lapsed: false,
        });
    }
    let c = s.colour(starter);
    log.event(|| Event::Scenario(XEvent::RaceBegan { starter: c }));
    choose_from(s, 0, then, log);
}

/// The places `seat` may pick as a stopover now.
pub fn suitable(s: &State, seat: u8) -> Vec<VertexId> {
    let Some(x) = s.scenario.as_deref() else {
        return Vec::new();
    };
    let mut out: Vec<VertexId> = x.players[seat as usize]
        .nodes
        .iter()
        .filter_map(|&n| x.rail.vertex_of(n))
        .filter(|&v| stopover_ok(s, x, seat, v).is_ok())
        .collect();
    out.sort_unstable();
    out
}

fn stopover_ok(s: &State, x: &Express, seat: u8, v: VertexId) -> Result<(), XRefusal> {
    if s.vertex_owner.get(v).is_none_or(|&o| o == NOBODY) {
        return Err(XRefusal::NotABuilding);
    }
    if x.touch[v] & (1 << seat) == 0 {
        return Err(XRefusal::NotInYourRailway);
    }
    if x.players.iter().any(|p| p.start == Some(v)) {
        return Err(XRefusal::StartingPlace);
    }
    if x.race
        .as_ref()
        .is_some_and(|r| r.stopovers.iter().any(|st| st.vertex == v))
    {
        return Err(XRefusal::AlreadyChosen);
    }
    Ok(())
}

/// Hands the choice to the next player (position `k` counts from the starter, round by
/// round) who has a place; when the rounds are over, the turn resumes.
fn choose_from(s: &mut State, mut k: usize, then: Resume, log: &mut impl Log) {
    let n = s.players.len();
    let rounds = stopover_rounds(n) as usize;
    let towers = towers_per_player(n) as usize;
    let Some(starter) = s
        .scenario
        .as_deref()
        .and_then(|x| x.race.as_ref())
        .map(|r| r.starter)
    else {
        return;
    };
    while k < rounds * n {
        let chosen = s
            .scenario
            .as_deref()
            .and_then(|x| x.race.as_ref())
            .map_or(0, |r| r.stopovers.len());
        if chosen >= towers {
            break;
        }
        let seat = ((starter as usize + k) % n) as u8;
        if suitable(s, seat).is_empty() {
            let c = s.colour(seat);
            log.event(|| Event::Scenario(XEvent::NoStopover { player: c }));
            k += 1;
            continue;
        }
        s.phase = Phase::Scenario(Step::Stopover {
            seat,
            round: (k / n) as u8,
            then,
        });
        return;
    }
    s.resume(then);
    // The stopovers are known: a race that can no longer be won ends here.
    check_end(s, log);
}

pub fn check_stopover(s: &State, v: VertexId) -> Result<(), Refusal> {
    let Phase::Scenario(Step::Stopover { seat, .. }) = s.phase else {
        return Err(Refusal::NotNow);
    };
    let x = s.scenario.as_deref().ok_or(Refusal::ScenarioRule)?;
    stopover_ok(s, x, seat, v).map_err(Refusal::Scenario)
}

pub fn choose(s: &mut State, v: VertexId, log: &mut impl Log) {
    let Phase::Scenario(Step::Stopover { seat, round, then }) = s.phase else {
        return;
    };
    let n = s.players.len();
    let turn = s.turn;
    let Some(race) = s.scenario.as_deref_mut().and_then(|x| x.race.as_mut()) else {
        return;
    };
    race.stopovers.push(Stopover {
        vertex: v,
        chosen_by: seat,
        collected: 0,
    });
    race.chosen_in = turn;
    let k = round as usize * n + (seat as usize + n - race.starter as usize) % n;
    let c = s.colour(seat);
    log.event(|| {
        Event::Scenario(XEvent::StopoverChosen {
            player: c,
            vertex: v,
        })
    });
    choose_from(s, k + 1, then, log);
}

// ---- Movement ------------------------------------------------------------------------

/// May the active player move now? Their movement points if so. (A locomotive that has
/// used its points, or stopped at a tower, waits for the end of the turn.)
pub fn can_move(s: &State) -> Result<u8, Refusal> {
    let x = s.scenario.as_deref().ok_or(Refusal::ScenarioRule)?;
    if x.race.as_ref().is_none_or(|r| r.winner.is_some()) {
        return Err(Refusal::Scenario(XRefusal::RaceNotStarted));
    }
    let points = match s.phase {
        Phase::Main => s.dice.map_or(0, |d| d[0].max(d[1])),
        Phase::Scenario(Step::Moving { left }) => left,
        _ => return Err(Refusal::NotNow),
    };
    let have = x.players[s.active as usize].pieces();
    if have < PIECES_TO_MOVE {
        return Err(Refusal::Scenario(XRefusal::TooFewPieces {
            have: have as u8,
        }));
    }
    if points == 0 {
        return Err(Refusal::Scenario(XRefusal::NoPointsLeft));
    }
    if x.players[s.active as usize].locomotive.is_none() {
        return Err(Refusal::Scenario(XRefusal::NotAtLocomotive));
    }
    Ok(points)
}

pub fn check_step(s: &State, st: Stretch, fare: Option<(u8, Resource)>) -> Result<(), Refusal> {
    can_move(s)?;
    let x = s.scenario.as_deref().ok_or(Refusal::ScenarioRule)?;
    let seat = s.active;
    let here = x.players[seat as usize].locomotive.unwrap_or(Node::MAX);
    if st as usize >= x.rail.stretches() || !x.rail.ends[st as usize].contains(&here) {
        return Err(Refusal::Scenario(XRefusal::NotAtLocomotive));
    }
    let owners = x.owners[st as usize];
    if owners == 0 {
        return Err(Refusal::Scenario(XRefusal::NoTrack));
    }
    if owners & (1 << seat) != 0 {
        return match fare {
            None => Ok(()),
            Some(_) => Err(Refusal::Scenario(XRefusal::NoFare)),
        };
    }
    let Some((o, r)) = fare else {
        return Err(Refusal::Scenario(XRefusal::FareNeeded));
    };
    if o == seat || (o as usize) >= s.players.len() || owners & (1 << o) == 0 {
        return Err(Refusal::Scenario(XRefusal::NotAnOwner));
    }
    let have = s.players[seat as usize].hand;
    if have.get(r) == 0 {
        return Err(Refusal::NeedCards {
            need: Cards::one(r, 1),
            have,
        });
    }
    Ok(())
}

pub fn step(s: &mut State, st: Stretch, fare: Option<(u8, Resource)>, log: &mut impl Log) {
    let Ok(points) = can_move(s) else {
        return;
    };
    let seat = s.active;
    if let Some((o, r)) = fare {
        let one = Cards::one(r, 1);
        s.players[seat as usize].hand.take(&one);
        s.players[o as usize].hand.add(&one);
    }
    let c = s.colour(seat);
    let fare_c = fare.map(|(o, r)| (s.colour(o), r));
    let Some(x) = s.scenario.as_deref_mut() else {
        return;
    };
    let from = x.players[seat as usize].locomotive.unwrap_or(0);
    let to = x.rail.other(st, from);
    x.players[seat as usize].locomotive = Some(to);
    log.event(|| {
        Event::Scenario(XEvent::Moved {
            player: c,
            from,
            to,
            fare: fare_c,
        })
    });
    let tower = x
        .rail
        .vertex_of(to)
        .filter(|&v| x.race.as_ref().is_some_and(|r| r.tower_of(seat, v)));
    if let Some(v) = tower {
        if let Some(r) = x.race.as_mut() {
            for stop in r.stopovers.iter_mut().filter(|st| st.vertex == v) {
                stop.collected |= 1 << seat;
            }
        }
        log.event(|| {
            Event::Scenario(XEvent::TowerTaken {
                player: c,
                vertex: v,
            })
        });
        let done = x.race.as_ref().is_some_and(|r| r.all_collected(seat));
        if done && !joined_to_all(x, seat) {
            log.event(|| Event::Scenario(XEvent::RaceWaits { player: c }));
        }
        check_end(s, log);
        if s.phase != Phase::Over {
            // It stops: the rest of the points are lost; only the end of the turn is left.
            s.phase = Phase::Scenario(Step::Moving { left: 0 });
        }
        return;
    }
    s.phase = Phase::Scenario(Step::Moving {
        left: points.saturating_sub(1),
    });
}

/// Every step the active player may take now.
pub fn legal_steps(s: &State, out: &mut Vec<Action>) {
    if can_move(s).is_err() {
        return;
    }
    let Some(x) = s.scenario.as_deref() else {
        return;
    };
    let seat = s.active;
    let Some(here) = x.players[seat as usize].locomotive else {
        return;
    };
    let hand = s.players[seat as usize].hand;
    for &st in &x.rail.at[here as usize] {
        let owners = x.owners[st as usize];
        if owners == 0 {
            continue;
        }
        if owners & (1 << seat) != 0 {
            out.push(Action::Scenario(Act::Step {
                stretch: st,
                fare: None,
            }));
            continue;
        }
        for o in 0..s.players.len() as u8 {
            if owners & (1 << o) == 0 {
                continue;
            }
            for r in Resource::ALL {
                if hand.get(r) > 0 {
                    out.push(Action::Scenario(Act::Step {
                        stretch: st,
                        fare: Some((o, r)),
                    }));
                }
            }
        }
    }
}

/// Is `seat`'s railway in one piece of the net with every other player's railway (a
/// player with no piece on the board has no railway to join)?
pub fn joined_to_all(x: &Express, seat: u8) -> bool {
    (0..x.players.len() as u8)
        .all(|o| o == seat || x.players[o as usize].nodes.is_empty() || x.connected(seat, o))
}

/// Ends the game if someone has completed the race: all their towers taken, and their
/// railway joined to everyone's. Checked after every step and every piece built (a
/// connection made by anyone may complete a waiting race), and once the stopovers are
/// chosen.
///
/// RULINGS R9, "a race that can no longer be won": the text says the race "cannot be
/// won until the connection to the other networks is made", and pieces are limited.
/// Once the separate railways can no longer be joined with the lines and ferries left
/// in all supplies ([`can_still_join`]), the connection lapses, and a player who takes
/// all their towers completes the race without it. If then nobody can still take all
/// their towers ([`can_still_collect`]), the game ends at once: the most points win,
/// ties broken as the text orders them (the race winner — there is none — the starter,
/// then the player closest after the starter).
pub fn check_end(s: &mut State, log: &mut impl Log) {
    let Some(x) = s.scenario.as_deref() else {
        return;
    };
    let Some(race) = x.race.as_ref() else {
        return;
    };
    if race.winner.is_some() || s.phase == Phase::Over {
        return;
    }
    let mut lapsed = race.lapsed;
    if !lapsed && !can_still_join(x) {
        lapsed = true;
        if let Some(r) = s.scenario.as_deref_mut().and_then(|x| x.race.as_mut()) {
            r.lapsed = true;
        }
        log.event(|| Event::Scenario(XEvent::ConnectionLapsed));
    }
    let Some(x) = s.scenario.as_deref() else {
        return;
    };
    let Some(race) = x.race.as_ref() else {
        return;
    };
    let done = s
        .from_seat(s.active)
        .find(|&p| race.all_collected(p) && (lapsed || joined_to_all(x, p)));
    if let Some(p) = done {
        finish(s, p, log);
        return;
    }
    if lapsed && !(0..s.players.len() as u8).any(|p| can_still_collect(x, p)) {
        log.event(|| Event::Scenario(XEvent::RaceStalled));
        decide(s, None, log);
    }
}

/// How many pieces it takes at least to reach each node from `from` along the net:
/// stretches with a piece on them are free, an empty place for a piece costs one — if
/// a piece of its kind may still be built at all ([`kinds_left`]): a line never leaves
/// the land, so when no ferry is left to anyone, railways on land masses that share no
/// hex and no corner can never meet.
fn distances(x: &Express, from: impl Iterator<Item = Node>) -> Vec<u32> {
    let r = &x.rail;
    let (lines, ferries) = kinds_left(x);
    let mut dist = vec![u32::MAX; r.nodes];
    let mut queue = std::collections::VecDeque::new();
    for n in from {
        if dist[n as usize] != 0 {
            dist[n as usize] = 0;
            queue.push_front(n);
        }
    }
    while let Some(n) = queue.pop_front() {
        let d = dist[n as usize];
        for &st in &r.at[n as usize] {
            let empty = x.owners[st as usize] == 0;
            let may = match r.kind(st) {
                None => continue,
                Some(_) if !empty => true,
                Some(Kind::Line) => lines,
                Some(Kind::Ferry) => ferries,
            };
            if !may {
                continue;
            }
            let cost = u32::from(empty);
            let m = r.other(st, n);
            if d + cost < dist[m as usize] {
                dist[m as usize] = d + cost;
                if cost == 0 {
                    queue.push_front(m);
                } else {
                    queue.push_back(m);
                }
            }
        }
    }
    dist
}

/// The lines and ferries `seat` may still build: those left in their supply, if there
/// is a place at all for one next to their railway ("each further railroad line must
/// always attach to the player's own railway system"), else none (a railway hemmed in
/// stays so: pieces are never taken up).
fn buildable(x: &Express, seat: u8) -> u32 {
    let (lines, ferries) = (x.left(seat, Kind::Line), x.left(seat, Kind::Ferry));
    if lines == 0 && ferries == 0 {
        return 0;
    }
    let r = &x.rail;
    let room = x.players[seat as usize].nodes.iter().any(|&n| {
        r.at[n as usize].iter().any(|&st| {
            x.owners[st as usize] & (1 << seat) == 0
                && match r.kind(st) {
                    Some(Kind::Line) => lines > 0,
                    Some(Kind::Ferry) => ferries > 0,
                    None => false,
                }
        })
    });
    if room {
        u32::from(lines) + u32::from(ferries)
    } else {
        0
    }
}

/// Which kinds of piece anyone may still build, lines and ferries: a kind some player
/// still has in their supply, with room for a piece next to their railway. Lines and
/// ferries are not counted alike: a line goes only from a vertex into a land hex, so it
/// never crosses the sea (RULINGS R9, a race that can no longer be won).
fn kinds_left(x: &Express) -> (bool, bool) {
    (0..x.players.len() as u8)
        .filter(|&p| buildable(x, p) > 0)
        .fold((false, false), |(lines, ferries), p| {
            (
                lines || x.left(p, Kind::Line) > 0,
                ferries || x.left(p, Kind::Ferry) > 0,
            )
        })
}

/// What the players whose railways lie in the piece of the net rooted at `root` may
/// still build.
fn buildable_in(x: &Express, root: Node) -> u32 {
    (0..x.players.len() as u8)
        .filter(|&p| x.component(p) == Some(root))
        .map(|p| buildable(x, p))
        .sum()
}

/// Lines and ferries all players may still build.
fn pieces_left(x: &Express) -> u32 {
    (0..x.players.len() as u8).map(|p| buildable(x, p)).sum()
}

/// Can the separate railways still be joined into one with the pieces left in all
/// supplies? What is needed at least is compared with what may still be built, so a
/// join that might still be made is never ruled out: each piece of the net must reach
/// another, with the pieces the players in the two may still build (a player builds
/// only onward from their own railway); and all of them together need at least half
/// the pieces of the cheapest tree of shortest ways between them.
pub fn can_still_join(x: &Express) -> bool {
    let mut roots: Vec<Node> = (0..x.players.len() as u8)
        .filter_map(|p| x.component(p))
        .collect();
    roots.sort_unstable();
    roots.dedup();
    if roots.len() <= 1 {
        return true;
    }
    let left = pieces_left(x);
    if left == 0 {
        return false;
    }
    let nodes_of = |root: Node| {
        (0..x.rail.nodes as Node).filter(move |&n| x.touch[n as usize] != 0 && x.find(n) == root)
    };
    let k = roots.len();
    let mut d = vec![vec![u32::MAX; k]; k];
    for (i, &a) in roots.iter().enumerate() {
        let dist = distances(x, nodes_of(a));
        for (j, &b) in roots.iter().enumerate() {
            d[i][j] = nodes_of(b)
                .map(|n| dist[n as usize])
                .min()
                .unwrap_or(u32::MAX);
        }
    }
    // Each piece of the net must reach another, built from one side or both.
    let can = |i: usize| buildable_in(x, roots[i]);
    let stranded = (0..k).any(|i| {
        !(0..k)
            .filter(|&j| j != i)
            .any(|j| u64::from(d[i][j]) <= u64::from(can(i)) + u64::from(can(j)))
    });
    if stranded {
        return false;
    }
    // Each railway must reach another.
    let nearest = (0..k)
        .map(|i| {
            (0..k)
                .filter(|&j| j != i)
                .map(|j| d[i][j])
                .min()
                .unwrap_or(0)
        })
        .max()
        .unwrap_or(0);
    // The cheapest tree over the shortest ways (Prim); a join of all costs at least half.
    let mut in_tree = vec![false; k];
    let mut best = vec![u32::MAX; k];
    best[0] = 0;
    let mut tree: u64 = 0;
    for _ in 0..k {
        let Some(i) = (0..k).filter(|&i| !in_tree[i]).min_by_key(|&i| best[i]) else {
            break;
        };
        if best[i] == u32::MAX {
            return false;
        }
        in_tree[i] = true;
        tree += u64::from(best[i]);
        for j in 0..k {
            if !in_tree[j] && d[i][j] < best[j] {
                best[j] = d[i][j];
            }
        }
    }
    let need = u64::from(nearest).max(tree.div_ceil(2));
    need <= u64::from(left)
}

/// Can `seat` still take every tower of theirs on the board? They need a locomotive
/// that may move (5 lines and ferries, built or still in their supply), and a way along
/// the net to each such tower, or one the pieces left in all supplies might build.
pub fn can_still_collect(x: &Express, seat: u8) -> bool {
    let Some(race) = x.race.as_ref() else {
        return true;
    };
    if race.stopovers.is_empty() {
        // They are chosen again at the starter's next turn.
        return true;
    }
    let p = &x.players[seat as usize];
    let could_move =
        p.pieces() + usize::from(x.left(seat, Kind::Line)) + usize::from(x.left(seat, Kind::Ferry))
            >= PIECES_TO_MOVE;
    let Some(loco) = p.locomotive else {
        return false;
    };
    if !could_move {
        return false;
    }
    let left = pieces_left(x);
    let dist = distances(x, std::iter::once(loco));
    race.stopovers
        .iter()
        .filter(|st| st.collected & (1 << seat) == 0)
        .all(|st| dist[super::rail::Rail::vertex_node(st.vertex) as usize] <= left)
}

/// The race is complete: the Fastest Locomotive Driver card, and the winner.
fn finish(s: &mut State, racer: u8, log: &mut impl Log) {
    let Some(race) = s.scenario.as_deref_mut().and_then(|x| x.race.as_mut()) else {
        return;
    };
    race.winner = Some(racer);
    let c = s.colour(racer);
    log.event(|| Event::Scenario(XEvent::RaceWon { player: c }));
    decide(s, Some(racer), log);
}

/// The game ends: "the winner is then the player with the most victory points. In case
/// of a tie … the winner of the Race; the starter of the Race; the closest to the
/// starter of the Race (in clockwise order)". Without a race (a game the GM ends before
/// it begins), the first player stands in for the starter.
pub fn decide(s: &mut State, racer: Option<u8>, log: &mut impl Log) {
    let n = s.players.len() as u8;
    let starter = s
        .scenario
        .as_deref()
        .and_then(|x| x.race.as_ref())
        .map_or(s.first, |r| r.starter);
    let winner = (0..n)
        .max_by_key(|&p| {
            (
                s.points(p),
                Some(p) == racer,
                p == starter,
                std::cmp::Reverse((p + n - starter) % n),
            )
        })
        .unwrap_or(starter);
    s.winner = Some(winner);
    s.phase = Phase::Over;
    let (w, points) = (s.colour(winner), s.points(winner));
    log.event(|| Event::Won {
        player: w,
        points,
        vp_cards: 0,
    });
}
