//! `judge pause`: stop the game's clock (pbem::clock).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::{Failure, Wait};
use crate::archive::schedule::shown;
use crate::pbem;

pub fn run(args: ClockArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let lock = super::lock(&args.dir, "judge pause", args.wait)?;
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let now = super::outbox::now()?;
    pbem::clock::pause(&archive, game, now)?;
    writeln!(
        out,
        "{} is paused from {}: no deadline runs and no turn is played until judge resume. The players are told.",
        archive.name(),
        shown(now)
    )
    .context("output")?;
    drop(lock);
    super::outbox::send_outbox(&archive, out)
}

#[derive(Debug, clap::Args)]
pub struct ClockArgs {
    /// The game's folder.
    pub dir: PathBuf,
    #[command(flatten)]
    pub wait: Wait,
}
