//! `judge man`: the manual page.

use std::io::Write;

use anyhow::Context as _;
use clap::CommandFactory;

use super::{Cli, Failure};

pub fn run(out: &mut dyn Write) -> Result<(), Failure> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .context("making the manual page")?;
    out.write_all(&page).context("writing output")?;
    Ok(())
}
