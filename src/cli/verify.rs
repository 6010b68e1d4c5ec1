//! `judge verify`: every draw of a game checked against its published seed
//! (docs/gm-guide.md, "Dice anyone can check").

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::Failure;
use crate::pbem;

pub fn run(args: VerifyArgs, out: &mut dyn Write) -> Result<(), Failure> {
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
            why.push(format!("{} {t} is the first that differs", v.unit));
        }
        writeln!(out, "NOT VERIFIED: {}", why.join("; ")).context("writing output")?;
        Err(Failure::reported(super::Exit::Input))
    }
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The game's folder, or a clone of its public git.
    pub dir: PathBuf,
}
