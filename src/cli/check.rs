//! `judge check`: what a player runs before sending orders.

use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::Context as _;
use serde::Serialize;

use super::Failure;
use crate::diagnostic::Severity;
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
    /// Problems not listed (after the first 100).
    more: usize,
    /// The public record checked against, on a clone of a game's public git.
    #[serde(skip_serializing_if = "Option::is_none")]
    public_record: Option<&'a str>,
    echo: &'a serde_json::Value,
}

pub fn run(args: CheckArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let (state, public) = pbem::current_for_check(&archive, game)?;
    // Read as the turn reads it: at most the size limit, UTF-8 or else Windows-1252.
    let (file, bytes) = if args.orders == "-" {
        let mut b = Vec::new();
        std::io::stdin()
            .take(pbem::limits::ORDER_BYTES as u64 + 1)
            .read_to_end(&mut b)
            .map_err(|e| Failure::user(format!("cannot read standard input: {e}")))?;
        if b.len() > pbem::limits::ORDER_BYTES {
            return Err(Failure::user(format!(
                "<stdin>: order files are read up to {} bytes (1 MiB); this one is larger",
                pbem::limits::ORDER_BYTES
            )));
        }
        ("<stdin>".to_string(), b)
    } else {
        let path = std::path::Path::new(&args.orders);
        (args.orders.clone(), pbem::limits::read_order_file(path)?)
    };
    let (text, note) = crate::text::decode(&bytes);
    if let Some(why) = pbem::limits::too_big(&text) {
        return Err(Failure::user(format!("{file}: {why}")));
    }
    let player = args.player.as_deref().map(str::to_ascii_lowercase);
    if let Some(p) = &player
        && !state.seats().iter().any(|s| &s.id == p)
    {
        let ids: Vec<String> = state.seats().into_iter().map(|s| s.id).collect();
        return Err(Failure::user(format!(
            "--player {p}: no such seat in this game (the players are {})",
            ids.join(", ")
        )));
    }
    let name = archive.name();
    let mut checked = state.check(&text, &file, player.as_deref(), Some(&name));
    if let Some(n) = note {
        checked.text = format!("warning: {file}: {n}\n{}", checked.text);
    }
    // On a clone of the game's public git: say what was read (a check never needs the
    // cards in anyone's hand, so it is the check the judge makes).
    let public = public.map(|p| {
        p.strip_prefix(archive.root())
            .unwrap_or(&p)
            .display()
            .to_string()
    });
    if let Some(p) = &public {
        checked.text = format!(
            "note: checked against the game's public record, {p}\n{}",
            checked.text
        );
    }
    match args.format {
        Format::Json => {
            let index = crate::diagnostic::LineIndex::new(&text);
            let report = JsonReport {
                file: &file,
                player: checked.player.clone(),
                turn: checked.turn,
                errors: checked.errors(),
                warnings: checked.warnings(),
                more: checked
                    .diagnostics
                    .len()
                    .saturating_sub(crate::diagnostic::Diagnostics::MAX_SHOWN),
                diagnostics: checked
                    .diagnostics
                    .iter()
                    .take(crate::diagnostic::Diagnostics::MAX_SHOWN)
                    .map(|d| {
                        let at = d.span.as_ref().map(|s| index.line_col(&text, s.start));
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
                public_record: public.as_deref(),
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
        Err(Failure::reported(super::Exit::Input))
    } else {
        Ok(())
    }
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// The order file, or `-` for standard input.
    pub orders: String,
    /// Whose orders these are, if the file has no `player` line.
    #[arg(long)]
    pub player: Option<String>,
    /// `text` for people, `json` for tools.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}
