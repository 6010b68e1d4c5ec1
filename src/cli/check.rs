//! `judge check`: what a player runs before sending orders.

use std::io::{Read, Write};

use anyhow::Context as _;
use serde::Serialize;

use super::turn::load_state;
use super::{CheckArgs, Failure, Format};
use crate::archive::Archive;
use crate::diagnostic::{Diagnostics, Severity, line_col};
use crate::roads_boats::check::{Echo, Expect, check};
use crate::roads_boats::player::Colour;

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
    player: Option<Colour>,
    turn: u32,
    errors: usize,
    warnings: usize,
    diagnostics: Vec<JsonDiagnostic>,
    echo: &'a [Echo],
}

pub fn run(args: CheckArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let archive = Archive::open(&args.dir)?;
    let last = archive.pick_turn(None)?;
    let state = load_state(&archive, last)?;
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
    let player = args
        .player
        .as_deref()
        .map(str::parse::<Colour>)
        .transpose()
        .map_err(Failure::User)?;
    let game = args
        .dir
        .file_name()
        .and_then(|n| n.to_str())
        .map(str::to_string);
    let checked = check(
        &state,
        &text,
        &Expect {
            player,
            game: game.as_deref(),
        },
    );
    match args.format {
        Format::Json => {
            let report = JsonReport {
                file: &file,
                player: checked.player,
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
            let who = checked
                .player
                .map_or("unknown player".to_string(), |p| p.to_string());
            let count = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
            writeln!(
                out,
                "Orders for {who}, turn {}: {}, {}.",
                checked.turn,
                count(checked.errors(), "error"),
                count(checked.warnings(), "warning")
            )
            .context("writing output")?;
            if !checked.diagnostics.is_empty() {
                let d = Diagnostics {
                    file: file.clone(),
                    source: text.clone(),
                    items: checked.diagnostics.clone(),
                };
                writeln!(out, "\n{}", d.render().trim_end()).context("writing output")?;
            }
            if !checked.echo.is_empty() {
                writeln!(
                    out,
                    "\nWhat these orders will do, if nothing changes before your turn:"
                )
                .context("writing output")?;
                let mut phase = None;
                for e in &checked.echo {
                    if phase != Some(e.phase) {
                        writeln!(out, "\n{}", capitalise(&e.phase.to_string()))
                            .context("writing output")?;
                        phase = Some(e.phase);
                    }
                    writeln!(out, "  line {}: {}", e.line, e.order).context("writing output")?;
                    for o in &e.outcome {
                        writeln!(out, "      -> {o}").context("writing output")?;
                    }
                }
            }
        }
    }
    if checked.errors() > 0 {
        Err(Failure::Reported(1))
    } else {
        Ok(())
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}
