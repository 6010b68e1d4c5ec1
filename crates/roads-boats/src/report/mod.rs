//! The turn report: a model built from the previous state, the turn's events
//! and the new state, rendered to text through a template (`render`), and a picture of
//! the map (`picture`). The model is what tools and future web views read
//! (`judge report --format json`).

pub mod ascii_map;
pub mod changes;
pub mod picture;
// The text through its template (minijinja): the `reports` feature, which the order
// checker in the player's browser leaves off.
#[cfg(feature = "reports")]
pub mod render;

use std::collections::BTreeMap;

use serde::Serialize;

use super::State;
use super::events::Event;
use super::goods::Good;
use super::player::Colour;
use super::resolve::score::ranking;
use super::state::Phase;
use super::wonder::{Brick, ROWS};
use ascii_map::Panel;

/// Everything a report says, as plain data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    pub game: String,
    pub scenario: String,
    /// The turn this reports (0: the set-up).
    pub turn: u32,
    /// When the next orders are due, if a deadline is set.
    pub deadline: Option<String>,
    pub move_order: Vec<Seat>,
    pub phases: Vec<PhaseReport>,
    pub production: Vec<Vec<String>>,
    pub map: Vec<Panel>,
    pub map_legend: Vec<String>,
    pub walls: Vec<String>,
    pub transporters: Vec<Vec<String>>,
    pub goods: Vec<Vec<String>>,
    pub research: Vec<Vec<String>>,
    pub wonder: WonderReport,
    pub standings: Vec<Vec<String>>,
    /// Players who sent no orders this turn.
    pub silent: Vec<String>,
    /// Players whose standing orders were played (they sent none).
    pub standing: Vec<String>,
    /// Players whose orders the caretaker wrote (they sent none, and had none
    /// standing): their lines are the caretaker's, and the report says so.
    pub caretaker: Vec<String>,
    /// What became of every line of each player's orders (they are public once played):
    /// the first [`judge_core::text::SHOWN_LINES`] of each.
    pub orders: BTreeMap<String, Vec<OrderLine>>,
    /// How many more order lines of each player were left out of `orders`, and how
    /// many of those failed.
    pub orders_more: BTreeMap<String, More>,
    /// The player this copy is for, if it is one player's.
    pub viewer: Option<String>,
    pub result: Option<String>,
}

/// One line of a player's orders and what became of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrderLine {
    pub line: u32,
    /// The order as written.
    pub text: String,
    /// What it did, event by event.
    pub outcomes: Vec<String>,
    /// Why it was left out, when it did not read.
    pub left_out: Option<String>,
    /// It failed, wholly or in part.
    pub failed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seat {
    pub position: usize,
    pub colour: String,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PhaseReport {
    pub name: String,
    /// What happened without anyone's order (primary producers, leftovers, …).
    pub automatic: Vec<String>,
    pub players: Vec<PlayerPhase>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerPhase {
    pub colour: String,
    /// The first [`judge_core::text::SHOWN_LINES`] lines.
    pub lines: Vec<Line>,
    /// The lines left out of `lines`, counted.
    pub more: More,
}

/// Lines of a report left out, counted (a report repeats at most
/// [`judge_core::text::SHOWN_LINES`] of one player's lines in one section).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct More {
    pub lines: usize,
    /// Of them, the ones that failed.
    pub failed: usize,
}

/// The first [`judge_core::text::SHOWN_LINES`] of `items`, and the rest counted.
fn shown<T>(mut items: Vec<T>, failed: impl Fn(&T) -> bool) -> (Vec<T>, More) {
    let rest = items.split_off(items.len().min(judge_core::text::SHOWN_LINES));
    let more = More {
        lines: rest.len(),
        failed: rest.iter().filter(|l| failed(l)).count(),
    };
    (items, more)
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    pub order_line: Option<u32>,
    pub text: String,
    pub failed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WonderReport {
    /// Rows from the top (row 15) down, each drawn as `[R][Y][ ][ ]`.
    pub rows: Vec<String>,
    pub placed: usize,
    pub neutral: usize,
    pub irrigated: bool,
    /// The price of each player's first brick next turn.
    pub next_price: u32,
    pub ends: String,
}

fn phase_name(p: Phase) -> String {
    let s = p.to_string();
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// What the report says of one event: the fact itself, without who and when.
fn describe(e: &Event) -> String {
    e.fact.to_string()
}

/// What became of every line of one player's orders: each order line with the events
/// it caused, each line that did not read with why it was left out. Headers, phase
/// headings, comments and blank lines are not orders and are not listed.
fn order_lines(before: &State, player: Colour, text: &str, events: &[Event]) -> Vec<OrderLine> {
    let parsed = super::order_text::parse(text, &before.map);
    // Every line found once, and every event by its line once: a file of 20,000 lines
    // costs what its size does, not its size squared.
    let text_lines: Vec<&str> = text.lines().collect();
    let source_line = |n: u32| {
        text_lines
            .get(n.saturating_sub(1) as usize)
            .copied()
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let index = judge_core::diagnostic::LineIndex::new(text);
    let mut by_line: BTreeMap<u32, Vec<&Event>> = BTreeMap::new();
    for e in events.iter().filter(|e| e.player == Some(player)) {
        if let Some(l) = e.line {
            by_line.entry(l).or_default().push(e);
        }
    }
    let mut out: BTreeMap<u32, OrderLine> = BTreeMap::new();
    for (line, span) in &parsed.lines {
        let outcomes: &[&Event] = by_line.get(line).map_or(&[], Vec::as_slice);
        out.insert(
            *line,
            OrderLine {
                line: *line,
                text: text.get(span.clone()).unwrap_or("").trim().to_string(),
                failed: outcomes.iter().any(|e| e.is_failure()),
                outcomes: if outcomes.is_empty() {
                    vec!["nothing came of it".to_string()]
                } else {
                    outcomes.iter().map(|e| describe(e)).collect()
                },
                left_out: None,
            },
        );
    }
    for d in parsed.problems.iter().filter(|d| d.is_error()) {
        let Some(span) = &d.span else { continue };
        let line = index.line_col(text, span.start).0 as u32;
        let why = match &d.help {
            Some(h) => format!("{} ({h})", d.message),
            None => d.message.clone(),
        };
        out.entry(line)
            .and_modify(|l| {
                l.left_out.get_or_insert_with(|| why.clone());
            })
            .or_insert_with(|| OrderLine {
                line,
                text: source_line(line),
                outcomes: Vec::new(),
                left_out: Some(why.clone()),
                failed: true,
            });
    }
    out.into_values().collect()
}

/// Whose orders were not sent by their players this turn: standing orders played for
/// them, or orders the caretaker wrote.
#[derive(Clone, Copy, Debug, Default)]
pub struct Others<'a> {
    pub standing: &'a [Colour],
    pub caretaker: &'a [Colour],
}

/// Build the report of a turn: `before` the state it started from (for turn 0, the
/// set-up itself), `events` what happened, `after` the state it left; `orders` the
/// players' order files as played; `by` whose were not their players' own.
pub fn build(
    game: &str,
    before: &State,
    events: &[Event],
    after: &State,
    orders: &[(Colour, &str)],
    by: &Others<'_>,
    deadline: Option<String>,
) -> Report {
    let (standing, caretaker) = (by.standing, by.caretaker);
    let move_order = after
        .move_order
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            position: i + 1,
            colour: c.to_string(),
            name: after
                .players
                .get(c)
                .map(|p| p.name.clone())
                .unwrap_or_default(),
        })
        .collect();
    let mut phases = Vec::new();
    for phase in [
        Phase::Production,
        Phase::Movement,
        Phase::Building,
        Phase::Wonder,
    ] {
        let in_phase: Vec<&Event> = events.iter().filter(|e| e.phase == phase).collect();
        if in_phase.is_empty() {
            continue;
        }
        let automatic: Vec<String> = in_phase
            .iter()
            .filter(|e| e.player.is_none())
            .map(|e| describe(e))
            .collect();
        let mut players = Vec::new();
        for c in &after.move_order {
            let lines: Vec<Line> = in_phase
                .iter()
                .filter(|e| e.player == Some(*c))
                .map(|e| Line {
                    order_line: e.line,
                    text: describe(e),
                    failed: e.is_failure(),
                })
                .collect();
            if !lines.is_empty() {
                let (lines, more) = shown(lines, |l| l.failed);
                players.push(PlayerPhase {
                    colour: c.to_string(),
                    lines,
                    more,
                });
            }
        }
        phases.push(PhaseReport {
            name: phase_name(phase),
            automatic,
            players,
        });
    }
    let production = after
        .buildings
        .iter()
        .filter_map(|b| {
            let r = b.kind.recipe()?;
            Some(vec![
                b.kind.to_string(),
                b.at.to_string(),
                format!("{} of {}", b.used, r.capacity),
            ])
        })
        .collect();
    let walls = after
        .map
        .walls
        .iter()
        .map(|(border, w)| {
            format!(
                "{border}: {} ({} token{})",
                w.owner.map_or("neutral", |c| c.name()),
                w.tokens,
                if w.tokens == 1 { "" } else { "s" }
            )
        })
        .collect();
    let transporters = after
        .transporters
        .iter()
        .map(|(id, t)| {
            let mut cargo = t.cargo.to_string();
            if t.following_geese > 0 {
                cargo.push_str(&format!(
                    "; {} follow{}",
                    Good::Geese.counted(t.following_geese),
                    if t.following_geese == 1 { "s" } else { "" }
                ));
            }
            vec![
                id.to_string(),
                t.owner.to_string(),
                t.kind.to_string(),
                t.at.to_string(),
                cargo,
            ]
        })
        .collect();
    let goods = after
        .goods
        .iter()
        .map(|(a, g)| vec![a.to_string(), g.to_string()])
        .collect();
    let research = after
        .move_order
        .iter()
        .filter_map(|c| after.players.get(c).map(|p| (c, p)))
        .map(|(c, p)| {
            let r: Vec<&str> = p.research.iter().map(|r| r.name()).collect();
            vec![
                c.to_string(),
                if r.is_empty() {
                    "none".to_string()
                } else {
                    r.join(", ")
                },
            ]
        })
        .collect();
    let standings = ranking(after)
        .iter()
        .enumerate()
        .map(|(i, (c, s))| {
            vec![
                (i + 1).to_string(),
                c.to_string(),
                after
                    .players
                    .get(c)
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
                // Art points and jumpstart bids (&cetera) ride with the goods.
                if s.modules == 0 {
                    s.goods.to_string()
                } else {
                    format!("{} ({:+} &cetera)", s.goods, s.modules)
                },
                s.wonder.to_string(),
                s.total.to_string(),
            ]
        })
        .collect();
    let silent = after
        .move_order
        .iter()
        .filter(|c| !orders.iter().any(|(o, _)| o == *c))
        .map(|c| c.to_string())
        .collect();
    let mut order_outcomes = BTreeMap::new();
    let mut orders_more = BTreeMap::new();
    for (c, text) in orders {
        let (lines, more) = shown(order_lines(before, *c, text, events), |l| l.failed);
        order_outcomes.insert(c.to_string(), lines);
        if more.lines > 0 {
            orders_more.insert(c.to_string(), more);
        }
    }
    Report {
        game: game.to_string(),
        scenario: after.scenario.clone(),
        turn: after.turn,
        deadline,
        move_order,
        phases,
        production,
        map: ascii_map::panels(after),
        map_legend: ascii_map::legend(after),
        walls,
        transporters,
        goods,
        research,
        wonder: wonder(after),
        standings,
        silent: if after.turn == 0 { Vec::new() } else { silent },
        standing: standing.iter().map(|c| c.to_string()).collect(),
        caretaker: caretaker.iter().map(|c| c.to_string()).collect(),
        orders: order_outcomes,
        orders_more,
        viewer: None,
        result: after.game_over.clone(),
    }
}

fn wonder(s: &State) -> WonderReport {
    let mut rows = Vec::new();
    let mut start = 0;
    let mut drawn = Vec::new();
    for (i, len) in ROWS.iter().enumerate() {
        let cells: String = (start..start + len)
            .map(|k| match s.wonder.bricks.get(k) {
                None => "[ ]".to_string(),
                Some(Brick::Neutral) => "[n]".to_string(),
                Some(Brick::Skipped) => "[-]".to_string(),
                Some(Brick::Player(c)) => format!(
                    "[{}]",
                    c.name().chars().next().unwrap_or('?').to_ascii_uppercase()
                ),
            })
            .collect();
        drawn.push(format!("{:>2} {cells}", i + 1));
        start += len;
    }
    for d in drawn.into_iter().rev() {
        rows.push(d);
    }
    let end = &s.settings.end;
    let mut ends = Vec::new();
    if let Some(b) = end.wonder_brick {
        ends.push(format!("brick {b}"));
    }
    ends.push(format!(
        "the {} neutral brick",
        crate::show::ordinal(end.neutral_bricks)
    ));
    if let Some(t) = end.turn_limit {
        ends.push(format!("the end of turn {t}"));
    }
    WonderReport {
        rows,
        placed: s
            .wonder
            .bricks
            .iter()
            .filter(|b| **b != Brick::Skipped)
            .count(),
        neutral: s.wonder.neutral_bricks(),
        irrigated: s.wonder.irrigated(),
        next_price: 1 + u32::from(s.wonder.placed() >= 17),
        ends: format!("The game ends at {}.", ends.join(", at ")),
    }
}

/// How the game stands after a turn, for the web site's charts: each player's score,
/// bricks on the wonder and transporters, and the wonder's way to the brick that ends
/// the game. All of it is on the public map and in the public report.
pub fn tally(after: &State) -> judge_core::pbem::game::Tally {
    use judge_core::pbem::game::{Measure, Progress, Tally};
    let seats = || after.move_order.iter();
    let scores = super::resolve::score::scores(after);
    let score = seats()
        .map(|c| (c.to_string(), scores.get(c).map_or(0, |s| s.total)))
        .collect();
    let bricks = seats()
        .map(|c| {
            let n = after
                .wonder
                .bricks
                .iter()
                .filter(|b| **b == Brick::Player(*c))
                .count();
            (c.to_string(), n as i64)
        })
        .collect();
    let transporters = seats()
        .map(|c| {
            let n = after
                .transporters
                .values()
                .filter(|t| t.owner == *c)
                .count();
            (c.to_string(), n as i64)
        })
        .collect();
    Tally {
        measures: vec![
            Measure {
                name: "score".into(),
                values: score,
            },
            Measure {
                name: "wonder bricks".into(),
                values: bricks,
            },
            Measure {
                name: "transporters".into(),
                values: transporters,
            },
        ],
        progress: Some(Progress {
            name: "places filled on the wonder".into(),
            done: after.wonder.placed() as i64,
            goal: after.settings.end.wonder_brick.map(i64::from),
        }),
        colours: seats()
            .map(|c| (c.to_string(), picture::player_colour(*c).to_string()))
            .collect(),
    }
}
