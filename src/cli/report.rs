//! `judge report`: print a turn's report again, as text, picture or model.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context as _;

use super::Failure;
use crate::pbem;

pub fn run(args: ReportArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let turn = archive.pick_turn(args.turn)?;
    let report = pbem::report::of_turn(&archive, game, turn)?;
    let bytes = match args.format {
        ReportFormat::Text => report
            .text(
                pbem::report::template(&archive)?.as_deref(),
                args.player.as_deref(),
            )
            .map_err(Failure::from)?
            .into_bytes(),
        ReportFormat::Json => report.json().map_err(Failure::from)?.into_bytes(),
        ReportFormat::Svg => report.svg().into_bytes(),
        ReportFormat::Png => {
            if args.output.is_none() && std::io::stdout().is_terminal() {
                return Err(Failure::user(
                    "a PNG is not for the terminal: add --output map.png".into(),
                ));
            }
            report.png().map_err(Failure::from)?
        }
    };
    match &args.output {
        Some(path) => std::fs::write(path, bytes)
            .map_err(|e| Failure::user(format!("{}: {e}", path.display())))?,
        None => out.write_all(&bytes).context("writing output")?,
    }
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Which turn (default: the latest).
    #[arg(long, short)]
    pub turn: Option<u32>,
    /// `text`, `svg`, `png` or `json` (the report model).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Write to this file instead of standard output (needed for png on a terminal).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The copy one player received: with what became of their orders.
    #[arg(long, value_name = "PLAYER")]
    pub player: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    Text,
    Svg,
    Png,
    Json,
}
