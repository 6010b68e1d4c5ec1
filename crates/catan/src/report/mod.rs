//! The report of one step, for one player, in the house style of the Roads & Boats
//! reports: plain text within 78 columns, a banner, numbered sections underlined with
//! `=`, ruled tables. What each reader may see is docs/catan.md's table ("What each
//! player sees"): a player sees their own cards and their own orders; the others see
//! counts and what the orders did; a stolen card is named only to the thief and the
//! victim ([`Event::seen_by`], [`Event::text`]).

pub mod ascii;
pub mod draws;
pub mod kit;
pub mod picture;

use std::fmt::Write as _;

pub use kit::ruled;
use kit::{section, wrap, wrap_hanging};

use super::board::Harbour;
use super::cards::{DevCard, Resource};
use super::colour::Colour;
use super::events::Event;
use super::orders::resolve::awaited;
use super::rules::{CITIES, ROADS, SETTLEMENTS};
use super::state::{Phase, State};

fn phase_words(s: &State) -> String {
    match s.phase {
        Phase::Over => "The game is over.".into(),
        Phase::Founding { index, .. } => format!(
            "Founding placement {} of {}: {} places a settlement{}.",
            index + 1,
            2 * s.players.len(),
            s.colour(s.actor()),
            match (
                super::scenario::founding_road(s, index),
                super::scenario::uses_roads(s)
            ) {
                (true, true) => " and a road",
                (true, false) => " and its first rail line",
                (false, _) => "",
            }
        ),
        _ => format!("It is {}'s turn {}.", s.colour(s.active), s.turn),
    }
}

/// The text report of a step.
pub fn text(before: &State, events: &[Event], after: &State, viewer: Option<Colour>) -> String {
    text_with(before, events, after, viewer, &[])
}

/// The text report of a step in which the caretaker wrote the orders of `caretaker`
/// (they sent none): "What happened" says their lines are the caretaker's.
pub fn text_with(
    before: &State,
    events: &[Event],
    after: &State,
    viewer: Option<Colour>,
    caretaker: &[Colour],
) -> String {
    let mut o = String::new();
    let bar = "=".repeat(78);
    let _ = writeln!(o, "{bar}");
    let _ = writeln!(
        o,
        " {}  --  {}  --  turn {}{}",
        if after.scenario.is_some() {
            "CATAN EXPRESS"
        } else {
            "CATAN"
        },
        after.name,
        after.step,
        match viewer {
            Some(c) => format!("  --  report for {c}"),
            None => String::new(),
        }
    );
    let _ = writeln!(o);
    let ended = events.iter().any(|e| matches!(e, Event::Ended { .. }));
    let what = match before.phase {
        _ if ended => "the end of the game: the GM ended it".into(),
        Phase::Founding { .. } => format!("{}'s founding placement", before.colour(before.actor())),
        Phase::Over => "nothing: the game was over".into(),
        _ => format!("{}'s turn {}", before.colour(before.active), before.turn),
    };
    let _ = writeln!(o, " This report: {what}.");
    let _ = writeln!(o, " Now: {}", phase_words(after));
    // Whether the judge waits for a player's orders depends on what they have on
    // record, which is theirs to know: only their own report says it.
    if let Some(v) = viewer
        && awaited(after).contains(&v)
    {
        let _ = writeln!(o, " Your orders are wanted (turn {}).", after.step + 1);
        // A founding list whose places are all taken: say so, and ask for new ones.
        if let Some(places) = crate::orders::resolve::founding_list_spent(after) {
            let names: Vec<String> = places.iter().map(|v| after.vertex_name(*v)).collect();
            let _ = writeln!(
                o,
                " None of the places in your founding list ({}) is free now: send a new\n founding list with free places (`template` by mail lists them).",
                names.join(", ")
            );
        }
    }
    let _ = writeln!(o, "{bar}\n");
    let mut n = 0;
    section(&mut o, &mut n, "What happened");
    o.push_str(&happened(events, after, viewer));
    if !caretaker.is_empty() {
        let _ = writeln!(o);
        let seats: Vec<&str> = caretaker.iter().map(|c| c.name()).collect();
        wrap(
            &mut o,
            &if viewer.is_some_and(|v| caretaker.contains(&v)) {
                "You sent no orders, so the caretaker played for you: the lines above under your colour are its orders, not yours; the caretaker wrote them.".to_string()
            } else {
                format!(
                    "The caretaker wrote the orders of {}: they sent none.",
                    seats.join(", ")
                )
            },
            2,
        );
    }
    let _ = writeln!(o);
    section(&mut o, &mut n, "The board");
    for l in ascii::board(after) {
        let _ = writeln!(o, "{l}");
    }
    let _ = writeln!(o);
    let pieces = if after.scenario.is_some() {
        "Rail lines (vertex to hex centre) and ferries are listed under The railway."
    } else {
        "Roads are drawn in their owner's letter (r, b, w, o, g, p)."
    };
    wrap(
        &mut o,
        &format!(
            "Each hex: its letter, what it yields, its number and dots (how many of the 36 rolls make it), or the robber. Vertices are numbered; r12 is red's settlement at 12, R12 a city. {pieces} Harbours: 3:1 any resource, 2wd 2:1 wood, 2br brick, 2wl wool, 2gr grain, 2or ore."
        ),
        2,
    );
    let harbours: Vec<String> = after
        .board
        .harbours
        .iter()
        .map(|&(e, h)| format!("{} at {}", h.label(), after.edge_name(e)))
        .collect();
    wrap(&mut o, &format!("Harbours: {}.", harbours.join("; ")), 2);
    let _ = writeln!(o);
    if after.scenario.is_some() {
        super::scenario::report_sections(after, viewer, &mut o, &mut n);
    } else {
        players(after, viewer, &mut o, &mut n);
    }
    your_hand(after, viewer, &mut o, &mut n);
    section(&mut o, &mut n, "The bank");
    let _ = writeln!(o, "  Resources: {}", after.bank);
    let _ = writeln!(o, "  Development cards left: {}", after.deck.len());
    let _ = writeln!(o);
    if let (Phase::Over, Some(w)) = (after.phase, after.winner) {
        let p = &after.players[w as usize];
        wrap(
            &mut o,
            &format!(
                "FINAL RESULT: {} ({}) wins with {} points{}.",
                p.colour,
                p.name,
                after.points(w),
                if p.vp_cards() > 0 {
                    format!(", {} of them from victory point cards", p.vp_cards())
                } else {
                    String::new()
                }
            ),
            2,
        );
    }
    let _ = DevCard::ALL;
    o
}

/// The "What happened" lines of a step as `viewer` may read them (`None`: the public):
/// each event [`Event::seen_by`] them, wrapped to 78 columns; then who sent new orders.
pub fn happened(events: &[Event], after: &State, viewer: Option<Colour>) -> String {
    let mut o = String::new();
    let shown: Vec<&Event> = events
        .iter()
        .filter(|e| !matches!(e, Event::Recorded { .. }) && e.seen_by(viewer))
        .collect();
    if shown.is_empty() {
        let _ = writeln!(o, "  Nothing happened.");
    }
    for e in shown {
        let (mark, indent, text) = match e {
            Event::Order { player, line, text } => {
                ("+", 2, format!("{player}, line {line}: {text}"))
            }
            Event::Failed { player, line, .. } => (
                "!",
                2,
                format!("{player}, line {line}: {}", e.text(after, viewer)),
            ),
            Event::Skipped { player, line, .. } => (
                "-",
                2,
                format!("{player}, line {line}: {}", e.text(after, viewer)),
            ),
            Event::TurnBegan { .. } | Event::SpecialBuilding { .. } => {
                ("*", 2, e.text(after, viewer))
            }
            _ => (" ", 4, e.text(after, viewer)),
        };
        wrap_hanging(&mut o, &format!("{mark} {text}"), indent, 2);
    }
    let received: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Recorded { player } => Some(player.name()),
            _ => None,
        })
        .collect();
    if !received.is_empty() {
        let _ = writeln!(o);
        wrap(
            &mut o,
            &format!("New orders went on record for: {}.", received.join(", ")),
            2,
        );
    }
    o
}

fn players(after: &State, viewer: Option<Colour>, o: &mut String, n: &mut usize) {
    section(o, n, "Players");
    let mut rows = Vec::new();
    for (seat, p) in after.players.iter().enumerate() {
        let seat = seat as u8;
        let mine = viewer == Some(p.colour);
        let points = if mine || after.phase == Phase::Over {
            after.points(seat).to_string()
        } else {
            after.public_points(seat).to_string()
        };
        let mut badges = Vec::new();
        if after.longest_road == Some(seat) {
            badges.push("LR");
        }
        if after.largest_army == Some(seat) {
            badges.push("LA");
        }
        rows.push(vec![
            p.colour.to_string(),
            p.name.chars().take(10).collect(),
            points,
            p.hand.total().to_string(),
            p.dev_count().to_string(),
            p.knights().to_string(),
            p.road_length.to_string(),
            format!(
                "{}/{}/{}",
                SETTLEMENTS as usize - p.settlements.len(),
                CITIES as usize - p.cities.len(),
                ROADS as usize - p.roads.len()
            ),
            badges.join(" "),
        ]);
    }
    o.push_str(&ruled(
        &[
            "Player", "Name", "Pts", "Cards", "Dev", "Kn", "Road", "S/C/R", "LR/LA",
        ],
        &rows,
    ));
    wrap(
        o,
        &format!(
            "Pts: points (settlements 1, cities 2, longest road LR 2, largest army LA 2; hidden victory point cards count too and are shown at the win; {} win, on one's own turn). Cards: resource cards held. Dev: development cards held. Kn: knights played. Road: longest road. S/C/R: settlements, cities and roads left in supply.",
            after.options.points_to_win
        ),
        2,
    );
    let _ = writeln!(o);
}

fn your_hand(after: &State, viewer: Option<Colour>, o: &mut String, n: &mut usize) {
    let Some(me) = viewer.and_then(|c| after.seat_of(c)) else {
        return;
    };
    let p = &after.players[me as usize];
    section(o, n, "Your hand");
    let _ = writeln!(o, "  Resources: {}", p.hand);
    wrap(o, &format!("Development cards: {}", p.devs), 2);
    if p.new_devs.total() > 0 {
        let _ = writeln!(
            o,
            "  Bought this turn (playable from your next): {}",
            p.new_devs
        );
    }
    wrap(o, &format!("Played: {}", p.played), 2);
    let rates: Vec<String> = Resource::ALL
        .iter()
        .map(|&r| format!("{r} {}:1", after.rate(me, r)))
        .collect();
    let _ = writeln!(o, "  Bank trade: {}", rates.join(", "));
    let harb: Vec<String> = [
        Harbour::Generic,
        Harbour::Wood,
        Harbour::Brick,
        Harbour::Wool,
        Harbour::Grain,
        Harbour::Ore,
    ]
    .iter()
    .filter(|h| p.harbours & h.bit() != 0)
    .map(|h| h.label())
    .collect();
    if !harb.is_empty() {
        let _ = writeln!(o, "  Your harbours: {}", harb.join(", "));
    }
    let rec = &after.records[me as usize];
    if rec.text.trim().is_empty() {
        let _ = writeln!(o, "  Orders on record: none.");
    } else {
        wrap(
            o,
            &format!(
                "Orders on record: the file received for turn {}{}.",
                rec.since,
                if rec.turn_played {
                    " (its turn part has been played)"
                } else {
                    ""
                }
            ),
            2,
        );
    }
    let _ = writeln!(o);
}

/// The points everyone may see after a step, as the public report shows them: hidden
/// victory point cards count only once the game is over (Catan Express shows them at
/// once).
pub fn public_points(after: &State, seat: u8) -> u8 {
    if after.scenario.is_some() || after.phase == Phase::Over {
        after.points(seat)
    } else {
        after.public_points(seat)
    }
}

/// How the game stands after a step, for the web site's chart: each player's points,
/// as the public report shows them.
pub fn tally(after: &State) -> judge_core::pbem::game::Tally {
    use judge_core::pbem::game::{Measure, Tally};
    Tally {
        measures: vec![Measure {
            name: "points".into(),
            values: after
                .players
                .iter()
                .enumerate()
                .map(|(seat, p)| {
                    (
                        p.colour.to_string(),
                        i64::from(public_points(after, seat as u8)),
                    )
                })
                .collect(),
        }],
        progress: None,
        colours: after
            .players
            .iter()
            .map(|p| {
                (
                    p.colour.to_string(),
                    picture::player_colour(p.colour).to_string(),
                )
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Options;

    fn midgame(players: usize, seed: u64, steps: usize) -> (State, State, Vec<Event>) {
        let names: Vec<String> = (0..players).map(|i| format!("Player {i}")).collect();
        let opts = Options {
            extension: players > 4,
            ..Options::default()
        };
        let mut s = State::new("demo", &names, seed, &opts).expect("game");
        let mut r = crate::rng::Rng::new(seed);
        let mut acts = Vec::new();
        for _ in 0..steps {
            s.legal_actions(&mut acts);
            if acts.is_empty() {
                break;
            }
            let a = acts[r.below(acts.len() as u32) as usize];
            s.execute(a, &mut ());
        }
        let before = s.clone();
        let mut ev = Vec::new();
        for _ in 0..20 {
            s.legal_actions(&mut acts);
            if acts.is_empty() {
                break;
            }
            let a = acts[r.below(acts.len() as u32) as usize];
            s.execute(a, &mut ev);
        }
        (before, s, ev)
    }

    /// House style: every line of the report, board included, fits 78 columns.
    #[test]
    fn reports_fit_78_columns() {
        for (players, seed) in [(4, 1), (3, 2), (6, 3), (5, 4)] {
            let (b, a, ev) = midgame(players, seed, 300);
            for viewer in [None, Some(Colour::Red)] {
                let t = text(&b, &ev, &a, viewer);
                if std::env::var("SHOW_REPORT").is_ok() {
                    println!("{t}");
                }
                for l in t.lines() {
                    assert!(l.chars().count() <= 78, "too wide: {l:?}");
                }
            }
            let svg = picture::draw(&a).to_svg();
            assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        }
    }
}
