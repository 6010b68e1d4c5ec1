//! `judge check`: what a player runs before sending orders.

use std::io::{Read, Write};

use anyhow::Context as _;
use serde::Serialize;

use super::{CheckArgs, Failure, Format};
use crate::diagnostic::{Severity, line_col};
use crate::pbem;

#[derive(Serialize)]
struct JsonDiagnostic {
    severity: Severity,
    line: Option<usize>,
    column: Option<usize>,
    message: String,
    help: Option<String>,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    file: &'a str,
    player: Option<String>,
    turn: u32,
    errors: usize,
    warnings: usize,
    diagnostics: Vec<JsonDiagnostic>,
    echo: &'a serde_json::Value,
}

pub fn run(args: CheckArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(&args.dir)?;
    let state = pbem::current(&archive, game)?;
    let (file, text) = if args.orders == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| Failure::User(format!("cannot read standard input: {e}")))?;
        ("<stdin>".to_string(), s)
    } else {
        let text = std::fs::read(&args.orders)
            .map_err(|e| Failure::User(format!("cannot read {}: {e}", args.orders)))?;
        (
            args.orders.clone(),
            String::from_utf8_lossy(&text).into_owned(),
        )
    };
    let player = args.player.as_deref().map(str::to_ascii_lowercase);
    if let Some(p) = &player
        && !state.seats().iter().any(|s| &s.id == p)
    {
        let ids: Vec<String> = state.seats().into_iter().map(|s| s.id).collect();
        return Err(Failure::User(format!(
            "--player {p}: no such seat in this game (the players are {})",
            ids.join(", ")
        )));
    }
    let name = archive.name();
    let checked = state.check(&text, &file, player.as_deref(), Some(&name));
    match args.format {
        Format::Json => {
            let report = JsonReport {
                file: &file,
                player: checked.player.clone(),
                turn: checked.turn,
                errors: checked.errors(),
                warnings: checked.warnings(),
                diagnostics: checked
                    .diagnostics
                    .iter()
                    .map(|d| {
                        let at = d.span.as_ref().map(|s| line_col(&text, s.start));
                        JsonDiagnostic {
                            severity: d.severity,
                            line: at.map(|a| a.0),
                            column: at.map(|a| a.1),
                            message: d.message.clone(),
                            help: d.help.clone(),
                        }
                    })
                    .collect(),
                echo: &checked.echo,
            };
            let json = crate::archive::stable_json(&report).context("json")?;
            out.write_all(json.as_bytes()).context("writing output")?;
        }
        Format::Text => {
            out.write_all(checked.text.as_bytes())
                .context("writing output")?;
        }
    }
    if checked.errors() > 0 {
        Err(Failure::Reported(1))
    } else {
        Ok(())
    }
}
