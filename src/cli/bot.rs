//! `judge bot`: the order file the game's bot would send for a seat.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::Failure;
use crate::pbem;

pub fn run(args: BotArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let position = pbem::current(&archive, game)?;
    let seat = args.seat.to_ascii_lowercase();
    if !position.seats().iter().any(|s| s.id == seat) {
        let seats: Vec<String> = position.seats().into_iter().map(|s| s.id).collect();
        return Err(Failure::user(format!(
            "there is no seat `{seat}` in {}: its seats are {}",
            archive.name(),
            seats.join(", ")
        )));
    }
    match position.bot(&archive.name(), &seat) {
        Some(orders) => {
            let text = orders.map_err(pbem::Error::from)?;
            out.write_all(text.as_bytes()).context("output")?;
            Ok(())
        }
        None => Err(Failure::user(format!(
            "{} has no bot yet: there is nothing to print for {seat}",
            game.title()
        ))),
    }
}

#[derive(Debug, clap::Args)]
pub struct BotArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// The seat (its colour).
    pub seat: String,
}
