//! `judge reveal` and `judge verify`: the seed a game's hidden draws came from, published,
//! and every draw checked against it (docs/gm-guide.md, "Dice anyone can check").

use std::io::Write;

use anyhow::Context as _;

use super::{Failure, RevealArgs, VerifyArgs};
use crate::pbem;

pub fn reveal(args: RevealArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let _lock = super::lock(&args.dir, "reveal", args.wait)?;
    let last = archive.pick_turn(None).ok();
    let over = match last {
        Some(t) => pbem::position(&archive, game, t)?.over().is_some(),
        None => false,
    };
    if !over && !args.now {
        return Err(Failure::User(format!(
            "{} is still running: once its seed is published anyone can tell every roll to come. Add --now to publish it anyway (to close an abandoned game, say); a game that ends publishes it by itself.",
            args.dir.display()
        )));
    }
    match archive.reveal()? {
        None => Err(Failure::User(format!(
            "{} was made before the judge kept seeds secret: its seed is game.toml's, {}, and always was public",
            args.dir.display(),
            archive.game.seed
        ))),
        Some((s, fresh)) => {
            writeln!(
                out,
                "{} {} (randomness.toml):\n  seed        {}\n  salt        {}\n  commitment  {}\nPlayers can now check every draw: judge verify {}",
                if fresh { "Published" } else { "Already published" },
                if over {
                    "the seed of this finished game"
                } else {
                    "the seed of this running game"
                },
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

pub fn verify(args: VerifyArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let v = pbem::verify::run(&archive, game)?;
    for l in &v.lines {
        writeln!(out, "{l}").context("writing output")?;
    }
    if v.ok() {
        writeln!(
            out,
            "verified: every draw checked came from the committed seed"
        )
        .context("writing output")?;
        Ok(())
    } else {
        let mut why = Vec::new();
        if v.commitment_broken {
            why.push("the published seed and salt do not match the commitment".to_string());
        }
        if let Some((t, _)) = &v.first_difference {
            why.push(format!("turn {t} is the first that differs"));
        }
        writeln!(out, "NOT VERIFIED: {}", why.join("; ")).context("writing output")?;
        Err(Failure::Reported(1))
    }
}
