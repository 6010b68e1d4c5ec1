//! `judge resume`: start the game's clock again (pbem::clock).

use std::io::Write;

use anyhow::Context as _;

use super::{ClockArgs, Failure};
use crate::archive::schedule::shown;
use crate::pbem;

pub fn run(args: ClockArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let lock = super::lock(&args.dir, "judge resume", args.wait)?;
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let now = super::outbox::now()?;
    let said = match pbem::clock::resume(&archive, game, now)? {
        Some((next, at)) => format!(
            "{} runs again: turn {next} is due by {}. The players are told.",
            archive.name(),
            shown(at)
        ),
        None => format!(
            "{} runs again (it has no schedule). The players are told.",
            archive.name()
        ),
    };
    writeln!(out, "{said}").context("output")?;
    drop(lock);
    super::outbox::send_outbox(&archive, out)
}
