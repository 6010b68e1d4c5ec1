//! `judge show`: the state of a game for people, as plain text.

use std::fmt::Write as _;

use super::map::{Hex, Terrain};
use super::player::Colour;
use super::state::State;
use super::wonder::{Brick, SIZE};

/// Render a state as text, 78 columns at most.
pub fn render(state: &State, title: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    let _ = writeln!(
        out,
        "Scenario {}, after turn {}; next: turn {}, {} phase",
        state.scenario,
        state.turn,
        state.turn + 1,
        state.phase
    );
    let modules: Vec<&str> = state.settings.modules.iter().map(|m| m.name()).collect();
    let _ = writeln!(
        out,
        "Modules: {}",
        if modules.is_empty() {
            "none".to_string()
        } else {
            modules.join(", ")
        }
    );
    out.push('\n');

    section(&mut out, "Players, in move order");
    for (i, colour) in state.move_order.iter().enumerate() {
        let Some(p) = state.players.get(colour) else {
            continue;
        };
        let (land, water, air, all) = state.fleet(*colour);
        let _ = writeln!(
            out,
            "  {}. {:<7} {} <{}>",
            i + 1,
            colour.name(),
            p.name,
            p.email
        );
        let research: Vec<&str> = p.research.iter().map(|r| r.name()).collect();
        let line = format!(
            "home {}; {all} transporters ({land} land, {water} water, {air} air); research: {}",
            p.home
                .map_or_else(|| "not chosen yet".to_string(), |h| h.to_string()),
            if research.is_empty() {
                "none".to_string()
            } else {
                research.join(", ")
            }
        );
        wrapped(&mut out, &line, "     ");
    }
    out.push('\n');

    section(&mut out, "Transporters");
    if state.transporters.is_empty() {
        out.push_str("  none\n");
    }
    for (id, t) in &state.transporters {
        let mut line = format!(
            "  {:<4} {:<7} {:<8} {:<17} carrying {}",
            id.to_string(),
            t.owner.name(),
            t.kind.name(),
            match t.at {
                crate::transporter::Location::Carried(_) => t.at.to_string(),
                at => format!("at {at}"),
            },
            t.cargo
        );
        if t.following_geese > 0 {
            let _ = write!(line, "; {} geese follow", t.following_geese);
        }
        let _ = writeln!(out, "{line}");
    }
    out.push('\n');

    section(&mut out, "Goods lying on the board");
    if state.goods.is_empty() {
        out.push_str("  none\n");
    }
    for (area, goods) in &state.goods {
        let _ = writeln!(out, "  {:<6} {goods}", area.to_string());
    }
    out.push('\n');

    section(&mut out, "Buildings");
    if state.buildings.is_empty() {
        out.push_str("  none\n");
    }
    for b in &state.buildings {
        let mut line = format!("  {:<6} {}", b.at.to_string(), b.kind);
        if let Some(m) = b.mine {
            let _ = write!(line, " (holds {} gold, {} iron)", m.gold, m.iron);
        }
        if b.bomb_proof {
            line.push_str(", bomb-proof");
        }
        let _ = writeln!(out, "{line}");
    }
    out.push('\n');

    let map = &state.map;
    if !map.roads.is_empty() || !map.bridges.is_empty() || !map.walls.is_empty() {
        section(&mut out, "Roads, bridges and walls");
        for r in &map.roads {
            let _ = writeln!(out, "  road   {r}");
        }
        for b in &map.bridges {
            let _ = writeln!(out, "  bridge {} over the arm toward {}", b.hex, b.over);
        }
        for (border, w) in &map.walls {
            let owner = w.owner.map_or("neutral", Colour::name);
            let _ = writeln!(
                out,
                "  wall   {border}: {owner}, {}",
                judge_core::text::count(usize::from(w.tokens), "token")
            );
        }
        out.push('\n');
    }

    section(&mut out, "Wonder");
    let placed = state
        .wonder
        .bricks
        .iter()
        .filter(|b| **b != Brick::Skipped)
        .count();
    let _ = writeln!(
        out,
        "  {} placed ({} neutral) of {SIZE}; {} skipped",
        judge_core::text::count(placed, "brick"),
        state.wonder.neutral_bricks(),
        judge_core::text::count(state.wonder.placed() - placed, "place")
    );
    let end = &state.settings.end;
    let mut ends = Vec::new();
    if let Some(b) = end.wonder_brick {
        ends.push(format!("brick {b} is placed"));
    }
    ends.push(format!(
        "the {} neutral brick is placed",
        ordinal(end.neutral_bricks)
    ));
    if let Some(t) = end.turn_limit {
        ends.push(format!("turn {t} is over"));
    }
    let _ = writeln!(out, "  The game ends when {}.", ends.join(", or "));
    out.push('\n');

    section(&mut out, "Score");
    for (colour, sc) in super::resolve::score::ranking(state) {
        let modules = match sc.modules {
            0 => String::new(),
            n => format!(", {n:+} for art and bids"),
        };
        let _ = writeln!(
            out,
            "  {:<7} {:>4}  ({} for goods carried, {} for the wonder{modules})",
            colour.name(),
            sc.total,
            sc.goods,
            sc.wonder
        );
    }
    if let Some(why) = &state.game_over {
        wrapped(&mut out, &format!("The game is over: {why}."), "  ");
    }
    out.push('\n');

    section(&mut out, "Map");
    out.push_str(&terrain_grid(state));
    out
}

/// 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st, …
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Write `text` wrapped to 78 columns, each line indented.
fn wrapped(out: &mut String, text: &str, indent: &str) {
    let options = textwrap::Options::new(78)
        .initial_indent(indent)
        .subsequent_indent(indent);
    for line in textwrap::wrap(text, options) {
        let _ = writeln!(out, "{line}");
    }
}

fn section(out: &mut String, name: &str) {
    let _ = writeln!(out, "{name}\n{}", "=".repeat(name.len()));
}

/// A compact terrain grid: each map row on two lines, even columns on the first, odd
/// columns (which sit half a hex lower) on the second. Capitals mark a river.
fn terrain_grid(state: &State) -> String {
    let map = &state.map;
    let cols = map.columns();
    let rows = map.rows();
    let mut out = String::new();
    let mut header = String::from("      ");
    for c in 0..cols {
        let _ = write!(header, "{:<2}", Hex::new(c, 0).column_letter());
    }
    let _ = writeln!(out, "{}", header.trim_end());
    for r in 0..rows {
        for parity in [0u8, 1] {
            let mut line = if parity == 0 {
                format!("  {:>2}  ", r + 1)
            } else {
                "      ".to_string()
            };
            for c in 0..cols {
                let cell = if c % 2 == parity {
                    map.tile(Hex::new(c, r)).map_or(' ', |t| {
                        // After irrigation a desert is pasture (RULINGS R3).
                        let code = state
                            .terrain_now(Hex::new(c, r))
                            .unwrap_or(t.terrain)
                            .code();
                        if t.has_river() {
                            code.to_ascii_uppercase()
                        } else {
                            code
                        }
                    })
                } else {
                    ' '
                };
                let home = state
                    .players
                    .values()
                    .any(|p| p.home.is_some_and(|h| h.hex == Hex::new(c, r)));
                line.push(cell);
                line.push(if home && c % 2 == parity { '*' } else { ' ' });
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    let legend: Vec<String> = Terrain::ALL
        .iter()
        .map(|t| format!("{} {}", t.code(), t.name()))
        .collect();
    let _ = writeln!(out, "  {}", legend.join(", "));
    let _ = writeln!(
        out,
        "  A capital letter: a river runs through the tile. *: a home.\n  Odd columns sit half a hex lower (docs/map.md)."
    );
    out
}
