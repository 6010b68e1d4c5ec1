//! `judge completions` and `judge man`: made from the command line's own definition.

use std::io::Write;

use anyhow::Context as _;
use clap::CommandFactory;

use super::{Cli, CompletionsArgs, Failure};

pub fn completions(args: CompletionsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut cmd = Cli::command();
    clap_complete::generate(args.shell, &mut cmd, "judge", out);
    Ok(())
}

pub fn man(out: &mut dyn Write) -> Result<(), Failure> {
    clap_mangen::Man::new(Cli::command())
        .render(out)
        .context("writing output")?;
    Ok(())
}
