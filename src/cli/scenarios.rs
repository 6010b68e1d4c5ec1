//! `judge scenarios`: list the bundled scenarios, or check scenario files.

use std::io::Write;

use anyhow::Context as _;

use super::{Failure, ScenariosArgs};
use crate::roads_boats::scenario::{self, Scenario};

pub fn run(args: ScenariosArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if args.files.is_empty() {
        for (name, text) in scenario::bundled() {
            let s = Scenario::parse(&format!("scenarios/{name}.toml"), text)
                .map_err(|d| Failure::Other(anyhow::anyhow!("bundled scenario is broken:\n{d}")))?;
            writeln!(out, "{}", line(&s)).context("writing output")?;
        }
        return Ok(());
    }
    let mut reports = String::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::User(format!("cannot read {}: {e}", path.display())))?;
        match Scenario::parse(&path.display().to_string(), &text) {
            Ok(s) => {
                writeln!(out, "{}  ok: {}", path.display(), line(&s)).context("writing output")?
            }
            Err(d) => reports.push_str(&d.render()),
        }
    }
    if reports.is_empty() {
        Ok(())
    } else {
        Err(Failure::User(reports.trim_end().to_string()))
    }
}

fn line(s: &Scenario) -> String {
    let land = s
        .setup()
        .map
        .tiles
        .values()
        .filter(|t| t.terrain.is_land())
        .count();
    let seats = format!(
        "{} player{},",
        s.players,
        if s.players == 1 { "" } else { "s" }
    );
    format!(
        "{:<12} {seats:<11} {land:>2} land tiles: {}",
        s.name, s.title
    )
}
