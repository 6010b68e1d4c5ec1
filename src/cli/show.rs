//! `judge show`: print a turn's state for people or tools.

use std::io::Write;

use anyhow::Context as _;

use super::{Failure, ShowArgs};
use crate::archive::{Archive, GameKind, STATE_FILE};
use crate::roads_boats;

pub fn run(args: ShowArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let archive = Archive::open(&args.dir)?;
    let turn = archive.pick_turn(args.turn)?;
    let text = archive.read(turn, STATE_FILE)?;
    match archive.game.game {
        GameKind::RoadsAndBoats => {
            let state: roads_boats::State = serde_json::from_str(&text).map_err(|e| {
                Failure::User(format!(
                    "{}: the state does not read as a Roads & Boats game: {e}",
                    archive.turn_dir(turn).join(STATE_FILE).display()
                ))
            })?;
            if args.json {
                out.write_all(text.as_bytes()).context("writing output")?;
            } else {
                let title = format!(
                    "{} ({})",
                    args.dir.file_name().map_or_else(
                        || args.dir.display().to_string(),
                        |n| n.to_string_lossy().into_owned()
                    ),
                    archive.game.game
                );
                out.write_all(roads_boats::show::render(&state, &title).as_bytes())
                    .context("writing output")?;
            }
        }
    }
    Ok(())
}
