//! `judge replay`: re-resolve every turn of an archive from its archived orders and
//! confirm each archived state and event list byte for byte.

use std::io::Write;

use anyhow::Context as _;

use super::turn::load_state;
use super::{Failure, ReplayArgs};
use crate::archive::{Archive, EVENTS_FILE, ORDERS_DIR, STATE_FILE, stable_json};
use crate::roads_boats::play::{OrderFile, play};
use crate::roads_boats::player::Colour;

pub fn run(args: ReplayArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let archive = Archive::open(&args.dir)?;
    let turns = archive.turns()?;
    let mut differ = Vec::new();
    for pair in turns.windows(2) {
        let (before, turn) = (pair[0], pair[1]);
        let state = load_state(&archive, before)?;
        let mut files = Vec::new();
        for (name, text) in archive.files_in(&archive.turn_dir(turn).join(ORDERS_DIR))? {
            let player: Colour = name
                .strip_suffix(".txt")
                .unwrap_or(&name)
                .parse()
                .map_err(|e: String| Failure::User(format!("turn {turn}, orders/{name}: {e}")))?;
            files.push(OrderFile { player, text });
        }
        let played = play(&state, &files);
        let state_now = stable_json(&played.resolution.state).context("state")?;
        let events_now = stable_json(&played.resolution.events).context("events")?;
        let mut problems = Vec::new();
        for (name, now) in [(STATE_FILE, &state_now), (EVENTS_FILE, &events_now)] {
            let kept = archive.read(turn, name)?;
            if &kept != now {
                let line = kept
                    .lines()
                    .zip(now.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0)
                    + 1;
                problems.push(format!("{name} differs from line {line}"));
            }
        }
        // The report and pictures kept with the turn, where the archive has them.
        let (report, after) = super::report::model(&archive, turn)?;
        for (name, bytes) in super::report::files(&archive, &report, &after)? {
            let path = archive.turn_dir(turn).join(&name);
            if let Ok(kept) = std::fs::read(&path)
                && kept != bytes
            {
                problems.push(format!("{name} differs"));
            }
        }
        if problems.is_empty() {
            writeln!(out, "turn {turn}: identical").context("writing output")?;
        } else {
            writeln!(out, "turn {turn}: {}", problems.join("; ")).context("writing output")?;
            differ.push(turn);
        }
    }
    if differ.is_empty() {
        writeln!(
            out,
            "{} turns replayed, all identical",
            turns.len().saturating_sub(1)
        )
        .context("writing output")?;
        Ok(())
    } else {
        Err(Failure::User(format!(
            "turns {differ:?} do not replay to the archived result"
        )))
    }
}
