//! `judge replay`: re-resolve every turn of an archive from its archived orders and
//! confirm each archived state and event list byte for byte.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::Failure;
use crate::pbem;

pub fn run(args: ReplayArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    if !pbem::signup::started(&archive) {
        // Nothing to replay yet: say why, as every command does for a game not begun.
        archive.pick_turn(None)?;
    }
    let turns = archive.turns()?.last().map_or(1, |t| u64::from(*t) + 1);
    let bar = super::progress(turns, "replaying");
    let checks = pbem::replay::run_with(&archive, game, &mut |_| bar.inc(1))?;
    bar.finish_and_clear();
    let mut differ = Vec::new();
    for c in &checks {
        if c.problems.is_empty() {
            writeln!(out, "turn {}: identical", c.turn).context("writing output")?;
        } else {
            writeln!(out, "turn {}: {}", c.turn, c.problems.join("; "))
                .context("writing output")?;
            differ.push(c.turn);
        }
    }
    if differ.is_empty() {
        writeln!(
            out,
            "turn 0 and {} replayed, all identical",
            crate::text::count(checks.len().saturating_sub(1), "turn")
        )
        .context("writing output")?;
        Ok(())
    } else {
        Err(Failure::user(format!(
            "turns {differ:?} do not replay to the archived result"
        )))
    }
}

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The game's folder.
    pub dir: PathBuf,
}
