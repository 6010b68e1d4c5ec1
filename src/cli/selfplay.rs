//! `judge selfplay NAME`: random legal-move games of a game that offers them
//! ([`Game::selfplay`](crate::pbem::game::Game::selfplay)), with a progress bar on a
//! terminal (quiet in pipes) and a summary of wins, turns, actions and speed.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use anyhow::Context as _;

use super::Failure;
use crate::pbem::game::{RandomGame, Selfplay};

/// What the games came to.
#[derive(Default)]
struct Summary {
    games: u32,
    wins: Vec<u32>,
    unfinished: u32,
    turns: u64,
    actions: u64,
}

impl Summary {
    fn add(&mut self, r: &RandomGame, players: usize) {
        if self.wins.len() < players {
            self.wins.resize(players, 0);
        }
        self.games += 1;
        match r.winner {
            Some(w) if w < self.wins.len() => self.wins[w] += 1,
            _ => self.unfinished += 1,
        }
        self.turns += u64::from(r.turns);
        self.actions += u64::from(r.actions);
    }
}

/// Every self-play the judge's games offer.
pub fn all() -> Vec<Selfplay> {
    crate::games::all()
        .iter()
        .flat_map(|g| g.selfplay())
        .collect()
}

/// Games with bots on the seats (`--bots`), the seats rotated each game: game k seats
/// bot i at seat (i + k) mod n.
fn with_bots(args: &SelfplayArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let n = args.bots.len();
    let found = crate::games::all().iter().find_map(|g| {
        let kind = g.selfplay().into_iter().find(|s| s.id == args.game)?;
        Some((kind, g.bots(&args.game), *g))
    });
    let Some((kind, names, game)) = found else {
        let ids: Vec<&str> = all().iter().map(|s| s.id).collect();
        return Err(Failure::user(format!(
            "self-play knows the games {}, not `{}`",
            ids.join(", "),
            args.game
        )));
    };
    if let Some(bad) = args.bots.iter().find(|b| !names.contains(&b.as_str())) {
        return Err(Failure::user(if names.is_empty() {
            format!("{} has no bots for self-play yet", kind.title)
        } else {
            format!(
                "--bots: `{bad}` is not one of {}'s bots ({})",
                kind.title,
                names.join(", ")
            )
        }));
    }
    if let Some(name) = &args.scenario {
        // A name the game does not know: its own message, with the names it does.
        game.scenario_text(name).map_err(Failure::from)?;
    }
    if !kind.players.contains(&n) {
        return Err(Failure::user(format!(
            "--bots: {} is for {} to {} players, not {n}",
            kind.title,
            kind.players.start(),
            kind.players.end()
        )));
    }
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(u64::from(args.games))
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut wins = vec![0u32; n];
    // Where the game ranks every seat: each bot's places, and how often it came last.
    let mut place_sum = vec![0u64; n];
    let mut last = vec![0u32; n];
    let mut ranked = 0u32;
    let mut unfinished = 0u32;
    let mut turns = 0u64;
    // Each tally the game counts (its name), summed per bot.
    let mut tallies: Vec<(&'static str, Vec<i64>)> = Vec::new();
    // Each figure on a scale the game names: per bot, how many games reached each step
    // (the last place: none).
    let mut steps: Vec<Reached> = Vec::new();
    let start = Instant::now();
    for g in 0..args.games {
        let shift = g as usize % n;
        // Seat s is played by bot (s + n - shift) mod n: bot i sits at (i + shift) mod n.
        let seated: Vec<String> = (0..n)
            .map(|seat| args.bots[(seat + n - shift) % n].clone())
            .collect();
        let mut play = game
            .bot_player(&args.game, &seated, args.scenario.as_deref())
            .map_err(Failure::from)?;
        let r = play(args.seed.wrapping_add(u64::from(g)));
        match r.winner {
            Some(w) if w < n => wins[(w + n - shift) % n] += 1,
            _ => unfinished += 1,
        }
        if r.places.len() == n {
            ranked += 1;
            for (place, seat) in r.places.iter().enumerate() {
                let bot = (seat + n - shift) % n;
                place_sum[bot] += place as u64 + 1;
                if n > 1 && place + 1 == n {
                    last[bot] += 1;
                }
            }
        }
        for (name, per_seat) in &r.tallies {
            let i = match tallies.iter().position(|t| t.0 == *name) {
                Some(i) => i,
                None => {
                    tallies.push((name, vec![0; n]));
                    tallies.len() - 1
                }
            };
            for (seat, v) in per_seat.iter().enumerate().take(n) {
                tallies[i].1[(seat + n - shift) % n] += v;
            }
        }
        for figure in &r.steps {
            let i = match steps.iter().position(|t| t.name == figure.name) {
                Some(i) => i,
                None => {
                    steps.push(Reached {
                        name: figure.name,
                        scale: figure.scale,
                        games: vec![vec![0; figure.scale.len() + 1]; n],
                    });
                    steps.len() - 1
                }
            };
            for (seat, step) in figure.reached.iter().enumerate().take(n) {
                let counts = &mut steps[i].games[(seat + n - shift) % n];
                let at = step.map_or(counts.len() - 1, |k| k.min(counts.len() - 1));
                counts[at] += 1;
            }
        }
        turns += u64::from(r.turns);
        bar.set_position(u64::from(g + 1));
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let games = f64::from(args.games.max(1));
    let mut w = |s: String| writeln!(out, "{s}").context("writing output");
    let on = args
        .scenario
        .as_deref()
        .map_or(String::new(), |name| format!(" on {name}"));
    w(format!(
        "{} games of {}{on}, bots {} (each seat to the next bot every game), {}",
        args.games,
        kind.title,
        args.bots.join(", "),
        seeds(args.seed, args.games)
    ))?;
    for (i, won) in wins.iter().enumerate() {
        let p = f64::from(*won) / games;
        let half = 1.96 * (p * (1.0 - p) / games).sqrt();
        let places = if ranked > 0 {
            format!(
                "; mean place {:.2}, last in {}",
                place_sum[i] as f64 / f64::from(ranked),
                last[i]
            )
        } else {
            String::new()
        };
        let means: String = tallies
            .iter()
            .map(|(name, sums)| format!("; mean {name} {:.1}", sums[i] as f64 / games))
            .collect();
        let reached: String = steps.iter().map(|f| f.line(i)).collect();
        w(format!(
            "  {:<7} {:<10} won {:>7} ({:.1}% ± {:.1}){places}{means}{reached}",
            kind.seats.get(i).copied().unwrap_or("?"),
            args.bots[i],
            won,
            100.0 * p,
            100.0 * half
        ))?;
    }
    if unfinished > 0 {
        w(format!("  unfinished (action limit): {unfinished}"))?;
    }
    w(format!(
        "  turns per game {:.1}; {:.2} s, {:.1} ms per game",
        turns as f64 / games,
        secs,
        secs * 1e3 / games
    ))?;
    Ok(())
}

/// A figure on a scale (the furthest good made): per bot, how many of its games reached
/// each step, the last count for the games that reached none.
struct Reached {
    name: &'static str,
    scale: &'static [&'static str],
    games: Vec<Vec<u32>>,
}

impl Reached {
    /// Bot `bot`'s part of its line: `; furthest good coins 3, paper 5, none 2`, the
    /// highest step first, the steps no game reached left out.
    fn line(&self, bot: usize) -> String {
        let Some(counts) = self.games.get(bot) else {
            return String::new();
        };
        // The steps from the highest down, then the games that reached none.
        let order = (0..self.scale.len()).rev().chain([self.scale.len()]);
        let said: Vec<String> = order
            .filter_map(|k| {
                let n = counts.get(k).copied().filter(|n| *n > 0)?;
                Some(format!(
                    "{} {n}",
                    self.scale.get(k).copied().unwrap_or("none")
                ))
            })
            .collect();
        let said = said.join(", ");
        format!("; {} {said}", self.name)
    }
}

pub fn run(args: SelfplayArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if !args.bots.is_empty() {
        return with_bots(&args, out);
    }
    let found = crate::games::all().iter().find_map(|g| {
        let kind = g.selfplay().into_iter().find(|s| s.id == args.game)?;
        Some((kind, g.random_player(&args.game), g.bots(&args.game)))
    });
    let Some((kind, play, bots)) = found else {
        let ids: Vec<&str> = all().iter().map(|s| s.id).collect();
        return Err(Failure::user(format!(
            "self-play knows the games {}, not `{}`",
            ids.join(", "),
            args.game
        )));
    };
    let Some(mut play) = play else {
        return Err(Failure::user(format!(
            "{} has no random self-play: seat its bots with --bots ({})",
            kind.title,
            bots.join(", ")
        )));
    };
    if !kind.players.contains(&args.players) {
        return Err(Failure::user(format!(
            "{} is for {} to {} players, not {}",
            kind.title,
            kind.players.start(),
            kind.players.end(),
            args.players
        )));
    }
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(u64::from(args.games))
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut summary = Summary::default();
    let start = Instant::now();
    for g in 0..args.games {
        let r = play(args.players, args.seed.wrapping_add(u64::from(g)));
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
        "{} random games of {}, {} players, {}",
        summary.games,
        kind.title,
        args.players,
        seeds(args.seed, args.games)
    ))?;
    for (seat, wins) in summary.wins.iter().enumerate() {
        w(format!(
            "  {:<7} won {:>7} ({:.1}%)",
            kind.seats.get(seat).copied().unwrap_or("?"),
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

/// The seeds `games` games from `first` were played with, first and last: game `g`
/// (from 0) plays seed `first + g` (not `first + games`).
fn seeds(first: u64, games: u32) -> String {
    match games {
        0 | 1 => format!("seed {first}"),
        n => format!("seeds {first} to {}", first.wrapping_add(u64::from(n - 1))),
    }
}

#[derive(Debug, clap::Args)]
pub struct SelfplayArgs {
    /// What to play; `judge selfplay --help` lists the self-play each game offers.
    #[arg(help = crate::games::selfplay_help())]
    pub game: String,
    /// Players per game (3 to 6; 5 and 6 play the extension).
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// How many games.
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Seed of the first game; game k uses seed + k.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bots on the seats instead of random legal moves, one per seat, comma-separated
    /// (`search,greedy,greedy,greedy`: Catan's bots are `search`, the judge's player,
    /// `greedy`, a simpler one, and `random`; Roads & Boats' are `planner`, the judge's
    /// player playing to win, `stand-in`, the same player as the caretaker of an absent
    /// player in a game by mail, `caretaker`, the simpler floor, `random` and `idle`).
    /// The seats rotate each game, so that each bot plays every seat; wins are counted
    /// per bot, with a 95 % interval.
    #[arg(long, value_delimiter = ',', conflicts_with = "players")]
    pub bots: Vec<String>,
    /// With --bots: the bundled scenario to play. Roads & Boats: `two-rivers` (for two
    /// players) when left out, another bundled one for as many players as --bots names
    /// (`judge scenarios` lists them), or a scenario file's path. Catan: the set-up, the beginners' board
    /// (`beginner`) when left out, or `random` for a board drawn from each game's seed.
    #[arg(long, requires = "bots")]
    pub scenario: Option<String>,
}
