//! `judge report`, and the report files `judge turn` keeps with each turn.

use std::io::{IsTerminal, Write};

use anyhow::Context as _;

use super::turn::load_state;
use super::{Failure, ReportArgs, ReportFormat};
use crate::archive::{Archive, EVENTS_FILE, ORDERS_DIR, stable_json};
use crate::roads_boats::State;
use crate::roads_boats::events::Event;
use crate::roads_boats::player::Colour;
use crate::roads_boats::report::{self, Report, picture, render};

pub const REPORT_FILE: &str = "report.txt";

/// The GM's template for this game, if they have one.
fn template(archive: &Archive) -> Result<Option<String>, Failure> {
    let path = archive.root().join("templates").join(REPORT_FILE);
    if path.is_file() {
        return std::fs::read_to_string(&path)
            .map(Some)
            .map_err(|e| Failure::User(format!("{}: {e}", path.display())));
    }
    Ok(None)
}

/// When a turn's orders are due, if the game has a schedule.
pub(super) fn deadline(archive: &Archive, turn: u32) -> Option<String> {
    let d = archive.game.schedule.as_ref()?.deadline(turn).ok()?;
    Some(
        humantime::format_rfc3339_seconds(d)
            .to_string()
            .replace('T', " at ")
            .replace('Z', " UTC"),
    )
}

/// The report model of a turn from what the archive holds.
pub(super) fn model(archive: &Archive, turn: u32) -> Result<(Report, State), Failure> {
    let after = load_state(archive, turn)?;
    let (before, events, sent) = if turn == 0 {
        (after.clone(), Vec::new(), Vec::new())
    } else {
        let turns = archive.turns()?;
        let prev = turns
            .iter()
            .copied()
            .filter(|t| *t < turn)
            .max()
            .unwrap_or(0);
        let events: Vec<Event> = serde_json::from_str(&archive.read(turn, EVENTS_FILE)?)
            .map_err(|e| Failure::User(format!("turn {turn}, {EVENTS_FILE}: {e}")))?;
        let sent: Vec<Colour> = archive
            .files_in(&archive.turn_dir(turn).join(ORDERS_DIR))?
            .iter()
            .filter_map(|(n, _)| n.strip_suffix(".txt").and_then(|c| c.parse().ok()))
            .collect();
        (load_state(archive, prev)?, events, sent)
    };
    Ok((
        report::build(
            &archive.name(),
            &before,
            &events,
            &after,
            &sent,
            deadline(archive, turn + 1),
        ),
        after,
    ))
}

/// The files kept beside a turn's state: the text report and the map pictures.
pub(super) fn files(
    archive: &Archive,
    report: &Report,
    after: &State,
) -> Result<Vec<(String, Vec<u8>)>, Failure> {
    let text = render::text(report, template(archive)?.as_deref())
        .map_err(|e| Failure::User(format!("the report template: {e}")))?;
    let title = title(report);
    let png = picture::png(after, &title).map_err(|e| Failure::Other(anyhow::anyhow!(e)))?;
    Ok(vec![
        (REPORT_FILE.to_string(), text.into_bytes()),
        (
            "map.svg".to_string(),
            picture::svg(after, &title).into_bytes(),
        ),
        ("map.png".to_string(), png),
    ])
}

fn title(r: &Report) -> String {
    if r.turn == 0 {
        format!("{}: the board at the start", r.game)
    } else {
        format!("{}: the board after turn {}", r.game, r.turn)
    }
}

pub fn run(args: ReportArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let archive = Archive::open(&args.dir)?;
    let turn = archive.pick_turn(args.turn)?;
    let (report, after) = model(&archive, turn)?;
    let bytes = match args.format {
        ReportFormat::Text => render::text(&report, template(&archive)?.as_deref())
            .map_err(|e| Failure::User(format!("the report template: {e}")))?
            .into_bytes(),
        ReportFormat::Json => stable_json(&report).context("json")?.into_bytes(),
        ReportFormat::Svg => picture::svg(&after, &title(&report)).into_bytes(),
        ReportFormat::Png => {
            if args.output.is_none() && std::io::stdout().is_terminal() {
                return Err(Failure::User(
                    "a PNG is not for the terminal: add --output map.png".into(),
                ));
            }
            picture::png(&after, &title(&report)).map_err(|e| Failure::Other(anyhow::anyhow!(e)))?
        }
    };
    match &args.output {
        Some(path) => std::fs::write(path, bytes)
            .map_err(|e| Failure::User(format!("{}: {e}", path.display())))?,
        None => out.write_all(&bytes).context("writing output")?,
    }
    Ok(())
}
