//! `judge replace`: give a seat to a new player.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::new::parse_seat;
use super::{Failure, Wait};

pub fn run(args: ReplaceArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let by = parse_seat(&args.by)?;
    let _lock = super::lock(&args.dir, "judge replace", args.wait)?;
    let (mut archive, game) = crate::pbem::open(crate::games::registry(), &args.dir)?;
    crate::mail::outbox::settings(&archive).map_err(|e| Failure::user(e.to_string()))?;
    let r = crate::pbem::replace::replace(
        &mut archive,
        game,
        &args.seat,
        &by.name,
        &by.email,
        super::outbox::now()?,
    )?;
    writeln!(
        out,
        "{} now plays {} in place of {}: a new secret went to {} in a welcome mail (the judge's copy in sent/ has it blanked); the old secret no longer works. Turn {}'s report says so.",
        r.by, r.seat, r.was, by.email, r.told_in
    )
    .context("writing output")?;
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct ReplaceArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// The seat (its colour) to give to the new player.
    pub seat: String,
    /// The new player, as NAME:EMAIL.
    #[arg(long, value_name = "NAME:EMAIL")]
    pub by: String,
    #[command(flatten)]
    pub wait: Wait,
}
