//! `judge end`: the GM ends a game now, scored by its own rules (`pbem::turn::end`).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::{Failure, Wait};
use crate::pbem;

pub fn run(args: EndArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let lock = super::lock(&args.dir, "judge end", args.wait)?;
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let now = super::outbox::now()?;
    let mut lines = Vec::new();
    let result = pbem::turn::end(&archive, game, now, &args.why, &mut lines);
    for l in &lines {
        writeln!(out, "{}", l.trim_end()).context("writing output")?;
    }
    let turn = result?;
    if args.commit {
        let message = format!("{}: turn {turn}, the GM ended the game", archive.name());
        if pbem::commit::commit(&archive, &message)? {
            writeln!(out, "Committed {message}.").context("writing output")?;
        }
    }
    if args.no_send {
        return Ok(());
    }
    // The game is written: let it go before the mail, so that a slow server holds up
    // no other command (the outbox has its own lock).
    drop(lock);
    super::outbox::send_outbox(&archive, out)
}

#[derive(Debug, clap::Args)]
pub struct EndArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Why the game ends: said in every player's last report.
    #[arg(long, value_name = "TEXT")]
    pub why: String,
    /// Queue the report mails but do not send them.
    #[arg(long)]
    pub no_send: bool,
    /// Commit the game folder to git afterwards.
    #[arg(long)]
    pub commit: bool,
    #[command(flatten)]
    pub wait: Wait,
}
