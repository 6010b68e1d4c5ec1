//! `judge check`: what a player runs before sending orders.

use std::io::{Read, Write};

use anyhow::Context as _;
use serde::Serialize;

use super::turn::load_state;
use super::{CheckArgs, Failure, Format};
use crate::archive::Archive;
use crate::diagnostic::{Severity, line_col};
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
            out.write_all(
                crate::roads_boats::check::render_text(&checked, &file, &text).as_bytes(),
            )
            .context("writing output")?;
        }
    }
    if checked.errors() > 0 {
        Err(Failure::Reported(1))
    } else {
        Ok(())
    }
}
