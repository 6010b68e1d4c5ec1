//! `judge reveal`: the seed a game's hidden draws came from, published once the game is
//! over (docs/gm-guide.md, "Dice anyone can check").

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::{Failure, Wait};
use crate::pbem;

pub fn run(args: RevealArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let _lock = super::lock(&args.dir, "reveal", args.wait)?;
    let last = archive.pick_turn(None).ok();
    let over = match last {
        Some(t) => pbem::position(&archive, game, t)?.over().is_some(),
        None => false,
    };
    // Never on a running game, --now or not: whoever reads the seed
    // knows every roll to come, and the game would play on. A game is closed by ending
    // it, which tells every player and publishes the seed with the last report.
    if !over {
        return Err(Failure::user(format!(
            "{dir} is still running: once its seed is published anyone can tell every roll to come, so it is published only when the game is over. To close the game (an abandoned one, say), end it: `judge end {dir} --why \"…\"` tells every player, scores the game and publishes the seed{now}",
            dir = args.dir.display(),
            now = if args.now {
                " (--now no longer publishes the seed of a running game)"
            } else {
                ""
            }
        )));
    }
    match archive.reveal()? {
        None => Err(Failure::user(format!(
            "{} was made before the judge kept seeds secret: its seed is game.toml's, {}, and always was public",
            args.dir.display(),
            archive.game.seed
        ))),
        Some((s, fresh)) => {
            writeln!(
                out,
                "{} the seed of this finished game (randomness.toml):\n  seed        {}\n  salt        {}\n  commitment  {}\nPlayers can now check every draw: judge verify {}",
                if fresh { "Published" } else { "Already published" },
                s.luck.to_hex(),
                crate::luck::hex(&s.salt),
                s.commitment(),
                args.dir.display()
            )
            .context("writing output")?;
            Ok(())
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct RevealArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Once published the seed of a running game; now refused, as without it: a
    /// running game is closed with `judge end`, which publishes the seed (kept so that
    /// old scripts are told so).
    #[arg(long, hide = true)]
    pub now: bool,
    #[command(flatten)]
    pub wait: Wait,
}
