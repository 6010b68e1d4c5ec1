//! `judge completions` and `judge man`: made from the command line's own definition.

use std::io::Write;

use anyhow::Context as _;
use clap::CommandFactory;

use super::{Cli, CompletionsArgs, Failure};

pub fn completions(args: CompletionsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut cmd = Cli::command();
    // Made in memory first: clap_complete panics when its writer fails (a reader that
    // stopped reading, `judge completions zsh | head -3`), and the write below does not.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "judge", &mut script);
    out.write_all(&script).context("writing output")?;
    Ok(())
}

pub fn man(out: &mut dyn Write) -> Result<(), Failure> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .context("making the manual page")?;
    out.write_all(&page).context("writing output")?;
    Ok(())
}
