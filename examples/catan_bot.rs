//! The judge's Catan player (`pbem_judge::catan::bot`, what `judge bot` runs) as a
//! program of its own, for scripts/play-catan-game: it reads a game's latest state and
//! prints one player's order file for the step the game waits for
//! (docs/catan-orders.md), with the secret if given, and reports on standard error each
//! line of it that would fail on some roll.
//!
//! ```text
//! cargo run --example catan_bot -- GAME_DIR COLOUR [--secret S]   the orders
//! cargo run --example catan_bot -- GAME_DIR --awaited              whose step is next
//! ```
//!
//! How it plays: crates/catan/src/bot.rs.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{anyhow, bail};

use pbem_judge::archive::{Archive, STATE_FILE};
use pbem_judge::catan::state::Phase;
use pbem_judge::catan::{Colour, State};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("catan_bot: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> anyhow::Result<String> {
    let usage = "usage: catan_bot GAME_DIR COLOUR [--secret S] | catan_bot GAME_DIR --awaited";
    let dir = args.first().ok_or_else(|| anyhow!(usage))?;
    let s = latest(Path::new(dir))?;
    match args.get(1).map(String::as_str) {
        Some("--awaited") => Ok(match s.winner {
            Some(w) => format!("over: {} won\n", s.colour(w)),
            None => {
                let who: Vec<&str> = pbem_judge::catan::awaited(&s)
                    .iter()
                    .map(|c| c.name())
                    .collect();
                format!("{}\n", who.join(" "))
            }
        }),
        Some(c) => {
            let colour = Colour::parse(c).ok_or_else(|| anyhow!("`{c}` is not a colour"))?;
            let secret = match args.get(2).map(String::as_str) {
                Some("--secret") => Some(args.get(3).ok_or_else(|| anyhow!(usage))?.as_str()),
                Some(other) => bail!("`{other}`: {usage}"),
                None => None,
            };
            let text = pbem_judge::catan::bot::orders(&s, colour, secret)?;
            if s.seat_of(colour) == Some(s.active) && !matches!(s.phase, Phase::Founding { .. }) {
                for f in pbem_judge::catan::bot::failures(&s, colour, &text) {
                    eprintln!("catan_bot: {f}");
                }
            }
            Ok(text)
        }
        None => bail!(usage),
    }
}

/// The state of the latest step in the archive.
fn latest(dir: &Path) -> anyhow::Result<State> {
    let archive = Archive::open(dir)?;
    let turn = archive.pick_turn(None)?;
    let text = archive.read(turn, STATE_FILE)?;
    State::from_json(&text).map_err(|e| anyhow!("{}: {e}", dir.display()))
}
