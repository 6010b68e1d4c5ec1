//! `judge scenarios`: list the bundled scenarios, or check scenario files.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::Failure;

pub fn run(args: ScenariosArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let game = match &args.game {
        Some(id) => crate::games::by_id(id).map_err(|e| Failure::of_option("--game", e))?,
        None => crate::games::default(),
    };
    if args.files.is_empty() {
        for s in game.scenarios().map_err(Failure::from)? {
            writeln!(out, "{}", s.line).context("writing output")?;
        }
        return Ok(());
    }
    let mut reports = String::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::user(format!("cannot read {}: {e}", path.display())))?;
        match game.check_scenario(&path.display().to_string(), &text) {
            Ok(s) => {
                writeln!(out, "{}  ok: {}", path.display(), s.line).context("writing output")?
            }
            Err(d) => reports.push_str(&d.to_string()),
        }
    }
    if reports.is_empty() {
        Ok(())
    } else {
        Err(Failure::user(reports.trim_end().to_string()))
    }
}

#[derive(Debug, clap::Args)]
pub struct ScenariosArgs {
    /// Scenario files to check instead of listing the bundled ones.
    pub files: Vec<PathBuf>,
    /// The game whose scenarios to list or check.
    #[arg(long, help = crate::games::game_help())]
    pub game: Option<String>,
}
