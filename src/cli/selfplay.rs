//! `judge selfplay catan` (and `catan-express`, on the Express island, or
//! `catan-express-beyond`, beyond the island on the beginner board): random legal-move
//! games on the Catan rules engine, with a progress bar on a terminal (quiet in pipes)
//! and a summary of wins, turns, actions and speed.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use anyhow::Context as _;

use super::{Failure, SelfplayArgs};
use crate::catan::express::{self, Map};
use crate::catan::selfplay::{GameResult, Summary, play_random};
use crate::catan::state::Colour;

/// The games self-play knows, and how to play one of each.
const GAMES: [&str; 3] = ["catan", "catan-express", "catan-express-beyond"];

pub fn run(args: SelfplayArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let play: fn(usize, u64, &mut Vec<crate::catan::rules::Action>) -> GameResult = match args
        .game
        .as_str()
    {
        "catan" => play_random,
        "catan-express" => |p, s, b| express::selfplay::play_random(p, s, Map::Island, b),
        "catan-express-beyond" => |p, s, b| express::selfplay::play_random(p, s, Map::Beyond, b),
        other => {
            return Err(Failure::User(format!(
                "self-play knows the games {}, not `{other}`",
                GAMES.join(", ")
            )));
        }
    };
    if !(3..=6).contains(&args.players) {
        return Err(Failure::User(format!(
            "Catan is for 3 to 6 players, not {}",
            args.players
        )));
    }
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(u64::from(args.games))
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut summary = Summary::default();
    let mut buf = Vec::new();
    let start = Instant::now();
    for g in 0..args.games {
        let r = play(args.players, args.seed.wrapping_add(u64::from(g)), &mut buf);
        summary.add(&r, args.players);
        if g % 64 == 0 {
            bar.set_position(u64::from(g));
        }
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let games = f64::from(summary.games.max(1));
    let mut w = |s: String| writeln!(out, "{s}").context("writing output");
    w(format!(
        "{} random games of {}, {} players, seeds {}..{}",
        summary.games,
        match args.game.as_str() {
            "catan-express" => "Catan Express (the island)",
            "catan-express-beyond" => "Catan Express beyond the island",
            _ => "Catan",
        },
        args.players,
        args.seed,
        args.seed.wrapping_add(u64::from(args.games))
    ))?;
    for (seat, wins) in summary.wins.iter().enumerate() {
        w(format!(
            "  {:<7} won {:>7} ({:.1}%)",
            Colour::SEATS[seat].name(),
            wins,
            100.0 * f64::from(*wins) / games
        ))?;
    }
    if summary.unfinished > 0 {
        w(format!(
            "  unfinished (action limit): {}",
            summary.unfinished
        ))?;
    }
    w(format!(
        "  turns per game {:.1}, actions per game {:.1}",
        summary.turns as f64 / games,
        summary.actions as f64 / games
    ))?;
    w(format!(
        "  {:.2} s: {:.0} games/s, {:.1} µs per game, {:.0} ns per action (one core)",
        secs,
        games / secs,
        secs * 1e6 / games,
        secs * 1e9 / (summary.actions.max(1) as f64)
    ))?;
    Ok(())
}
