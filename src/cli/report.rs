//! `judge report`: print a turn's report again, as text, picture or model.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context as _;

use super::Failure;
use crate::pbem;
use judge_core::forum as pbem_judge_forum;

pub fn run(args: ReportArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if args.player.is_some() && matches!(args.format, ReportFormat::Markdown | ReportFormat::Bbcode)
    {
        return Err(Failure::new(
            super::Exit::Usage,
            anyhow::Error::msg(
                "--format markdown and bbcode lay out the public report, for a forum everyone \
                 reads; a player's own copy is for their mail only: leave out --player",
            ),
        ));
    }
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
        ReportFormat::Markdown | ReportFormat::Bbcode => {
            let text = report
                .text(pbem::report::template(&archive)?.as_deref(), None)
                .map_err(Failure::from)?;
            let map = match archive.mail().and_then(|m| m.site.clone()) {
                Some(site) => pbem_judge_forum::MapAt::Page {
                    url: format!(
                        "{}/{}",
                        site.trim_end_matches('/'),
                        crate::site::turn_file(turn)
                    ),
                    turn,
                },
                None => pbem_judge_forum::MapAt::Nowhere(
                    "No link to the map: the game has no site address. To add one, publish \
                     the site (judge site) and set site = \"https://...\" in game.toml's \
                     [mail]."
                        .into(),
                ),
            };
            let doc = pbem_judge_forum::read(&text, report.map_section(), &map);
            match args.format {
                ReportFormat::Markdown => pbem_judge_forum::markdown(&doc),
                _ => pbem_judge_forum::bbcode(&doc),
            }
            .into_bytes()
        }
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
    /// `text` (the report as mailed), `svg` or `png` (the map), `json` (the report
    /// model for tools), or `markdown` / `bbcode`: the public report laid out for a
    /// forum post (Markdown for Discourse, GitHub and most new forums; BBCode for phpBB,
    /// vBulletin, BoardGameGeek), with a link to the turn's map on the game's site.
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
    Markdown,
    Bbcode,
}
