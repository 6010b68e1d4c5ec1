//! A turn's report and the files kept with it (`report.txt`, `map.svg`, `map.png`), made
//! by the game from what the archive holds.

use super::Error;
use super::game::{Game, OrderFile, Report, ReportInput};
use crate::archive::{Archive, EVENTS_FILE, ORDERS_DIR, STATE_FILE};

pub const REPORT_FILE: &str = "report.txt";
pub const SVG_FILE: &str = "map.svg";
pub const PNG_FILE: &str = "map.png";

/// The GM's template for this game, if they have one (`<game>/templates/report.txt`).
pub fn template(archive: &Archive) -> Result<Option<String>, Error> {
    let path = archive.root().join("templates").join(REPORT_FILE);
    if path.is_file() {
        return std::fs::read_to_string(&path)
            .map(Some)
            .map_err(|e| Error::User(format!("{}: {e}", path.display())));
    }
    Ok(None)
}

/// When a turn's orders are due, as a report shows it, if the game has a schedule.
pub fn deadline(archive: &Archive, turn: u32) -> Option<String> {
    let d = archive.game.schedule.as_ref()?.deadline(turn).ok()?;
    Some(
        humantime::format_rfc3339_seconds(d)
            .to_string()
            .replace('T', " at ")
            .replace('Z', " UTC"),
    )
}

/// The order files a played turn keeps, by seat.
pub fn orders_of(archive: &Archive, turn: u32) -> Result<Vec<OrderFile>, Error> {
    Ok(archive
        .files_in(&archive.turn_dir(turn).join(ORDERS_DIR))?
        .into_iter()
        .map(|(name, text)| OrderFile {
            player: name.strip_suffix(".txt").unwrap_or(&name).to_string(),
            text,
        })
        .collect())
}

/// The report of a turn from what the archive holds.
pub fn of_turn(archive: &Archive, game: &dyn Game, turn: u32) -> Result<Box<dyn Report>, Error> {
    let after = archive.read(turn, STATE_FILE)?;
    let (before, events, orders) = if turn == 0 {
        (after.clone(), "[]".to_string(), Vec::new())
    } else {
        let prev = archive
            .turns()?
            .into_iter()
            .filter(|t| *t < turn)
            .max()
            .unwrap_or(0);
        (
            archive.read(prev, STATE_FILE)?,
            archive.read(turn, EVENTS_FILE)?,
            orders_of(archive, turn)?,
        )
    };
    let name = archive.name();
    game.report(&ReportInput {
        game: &name,
        before: &before,
        events: &events,
        after: &after,
        orders: &orders,
        deadline: deadline(archive, turn + 1),
    })
    .map_err(|e| Error::User(format!("turn {turn}: {e}")))
}

/// The files kept beside a turn's state: the text report and the map pictures.
pub fn files(archive: &Archive, report: &dyn Report) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let text = report
        .text(template(archive)?.as_deref())
        .map_err(Error::User)?;
    let png = report.png().map_err(Error::User)?;
    Ok(vec![
        (REPORT_FILE.to_string(), text.into_bytes()),
        (SVG_FILE.to_string(), report.svg().into_bytes()),
        (PNG_FILE.to_string(), png),
    ])
}
