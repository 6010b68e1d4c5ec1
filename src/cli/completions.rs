//! `judge completions`: shell completions.

use std::io::Write;

use anyhow::Context as _;
use clap::CommandFactory;

use super::{Cli, Failure};

pub fn run(args: CompletionsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut cmd = Cli::command();
    // Made in memory first: clap_complete panics when its writer fails (a reader that
    // stopped reading, `judge completions zsh | head -3`), and the write below does not.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "judge", &mut script);
    out.write_all(&script).context("writing output")?;
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: clap_complete::Shell,
}
