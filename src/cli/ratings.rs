//! `judge ratings GAMES`: the players of a folder of games, rated by their finished
//! games, a table per family of games (`pbem::league`).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::Failure;
use crate::pbem::{self, league};

/// What the folder's games give the ratings: the finished games, the games left out
/// (name, why), the games still played, and the games that could not be read (name,
/// failure).
pub struct League {
    pub finished: Vec<league::Finished>,
    pub left_out: Vec<(String, String)>,
    pub playing: usize,
    pub unreadable: Vec<(String, Failure)>,
}

/// Every game of the folder `dir` (each folder in it holding a game.toml).
pub fn gather(dir: &Path) -> Result<League, Failure> {
    let games = crate::archive::house::game_folders(dir)?;
    let mut league = League {
        finished: Vec::new(),
        left_out: Vec::new(),
        playing: 0,
        unreadable: Vec::new(),
    };
    for path in games {
        let name = crate::archive::folder_name(&path);
        let entry = pbem::open(crate::games::registry(), &path)
            .and_then(|(archive, game)| league::entry(&archive, game));
        match entry {
            Ok(league::Entry::Rated(g)) => league.finished.push(g),
            Ok(league::Entry::LeftOut(why)) => league.left_out.push((name, why)),
            Ok(league::Entry::Playing) => league.playing += 1,
            Err(e) => league.unreadable.push((name, e.into())),
        }
    }
    Ok(league)
}

/// A family's title, as the registry names its game.
pub fn title(family: &str) -> String {
    crate::games::registry()
        .by_id(family)
        .map_or(family.to_string(), |g| g.title().to_string())
}

pub fn run(args: RatingsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let league = gather(&args.dir)?;
    let tables = league::rate(&league.finished);
    if tables.is_empty() {
        writeln!(out, "No finished game to rate.").context("output")?;
    }
    for (family, players) in &tables {
        let games = league
            .finished
            .iter()
            .filter(|g| &g.family == family)
            .count();
        writeln!(
            out,
            "{} ({}):",
            title(family),
            crate::text::count(games, "game")
        )
        .context("output")?;
        writeln!(out, "  RATING      MU   SIGMA  GAMES  WINS  PLAYER").context("output")?;
        for p in players {
            writeln!(
                out,
                "  {:>6.2}  {:>6.2}  {:>6.2}  {:>5}  {:>4}  {}",
                p.rating, p.mu, p.sigma, p.games, p.wins, p.name
            )
            .context("output")?;
        }
    }
    for (name, why) in &league.left_out {
        writeln!(out, "Left out: {name}: {why}.").context("output")?;
    }
    if league.playing > 0 {
        writeln!(
            out,
            "Not rated until they end: {}.",
            crate::text::count(league.playing, "game")
        )
        .context("output")?;
    }
    for (name, f) in &league.unreadable {
        writeln!(
            out,
            "Not read: {name}: {} (`judge status {}` says more).",
            super::status::short_cause(f),
            args.dir.join(name).display()
        )
        .context("output")?;
    }
    match league.unreadable.first() {
        Some((_, f)) => Err(Failure::reported(f.kind)),
        None => Ok(()),
    }
}

#[derive(Debug, clap::Args)]
pub struct RatingsArgs {
    /// The folder of games: a folder per game, each with its game.toml (judge.toml is not needed).
    pub dir: PathBuf,
}
