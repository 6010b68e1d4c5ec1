//! A turn's report and the files kept with it: `report.txt` (what everyone may read),
//! `reports/<seat>.txt` (what each player receives: the same with their own part),
//! `map.svg` and `map.png`, made by the game from what the archive holds.
//!
//! A game played one player at a time ([`Pace::OneAtATime`]) plays hundreds of short
//! steps, so its turns keep only `map.svg`: the PNG is rendered from it when a report is
//! mailed ([`super::send`]). A game played together keeps both.

use super::Error;
use super::game::{Game, OrderFile, Pace, Report, ReportInput};
use super::turn::{Source, TurnRecord, record};
use crate::archive::randomness::Secret;
use crate::archive::schedule::shown;
use crate::archive::{Archive, EVENTS_FILE, ORDERS_DIR, PUBLIC_FILE, STATE_FILE};

pub const REPORT_FILE: &str = "report.txt";
pub const REPORTS_DIR: &str = "reports";
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
pub fn deadline(archive: &Archive, game: &dyn Game, turn: u32) -> Option<String> {
    super::deadline(archive, game, turn)
        .ok()
        .flatten()
        .map(shown)
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

/// Everything a turn's report is made from.
pub struct Made<'a> {
    pub turn: u32,
    pub before: &'a str,
    pub events: &'a str,
    pub after: &'a str,
    pub orders: &'a [OrderFile],
    pub record: &'a TurnRecord,
}

fn build(game: &dyn Game, m: &Made<'_>) -> Result<Box<dyn Report>, Error> {
    let standing: Vec<String> = m
        .record
        .orders
        .iter()
        .filter(|(_, s)| **s == Source::Standing)
        .map(|(p, _)| p.clone())
        .collect();
    game.report(&ReportInput {
        game: &m.record.game,
        before: m.before,
        events: m.events,
        after: m.after,
        orders: m.orders,
        standing: &standing,
        deadline: m.record.deadline.clone(),
    })
    .map_err(|e| Error::User(format!("turn {}: {e}", m.turn)))
}

/// The report of a turn from what the archive holds, as it was made when the turn was
/// played (its `turn.json` keeps the name and deadline it showed).
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
    let rec = record(archive, turn).unwrap_or_else(|| TurnRecord {
        game: archive.name(),
        deadline: deadline(archive, game, turn + 1),
        played_at: None,
        orders: orders
            .iter()
            .map(|f| (f.player.clone(), Source::Sent))
            .collect(),
        acted: None,
        ended: None,
    });
    build(
        game,
        &Made {
            turn,
            before: &before,
            events: &events,
            after: &after,
            orders: &orders,
            record: &rec,
        },
    )
}

/// Whether a game's turns keep `map.png` beside `map.svg` (see the module's note).
pub fn keeps_png(game: &dyn Game) -> bool {
    game.pace() == Pace::Together
}

/// The paragraph the last report of a game ends with: its seed and salt, published,
/// so that anyone can check every draw (`judge verify`).
pub fn revealed(secret: &Secret) -> String {
    format!(
        "\n  THE DICE, REVEALED. The game is over, so the secret seed its hidden draws came\n  \
         from is published, with the salt of the commitment the players were sent when\n  \
         it began (docs/gm-guide.md, \"Dice anyone can check\"):\n\n    \
         seed        {}\n    salt        {}\n    commitment  {}\n\n  \
         `judge verify` on the game's folder, or on a clone of its public git, checks\n  \
         that SHA-256(seed, salt) is the commitment and that every roll came from the\n  \
         seed.\n",
        secret.luck.to_hex(),
        crate::luck::hex(&secret.salt),
        secret.commitment()
    )
}

/// The files kept with a turn: the reports (everyone's, and each player's when the game
/// has several players' views), the map pictures (the PNG only if [`keeps_png`]) and,
/// for a game whose state file is private, the position's public record. The turn that
/// ends the game ends its reports with the seed, `reveal`, when the game has a secret
/// one.
pub fn files(
    archive: &Archive,
    game: &dyn Game,
    report: &dyn Report,
    after: &dyn super::game::Position,
    reveal: Option<&Secret>,
) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let seats: Vec<String> = after.seats().into_iter().map(|s| s.id).collect();
    let template = template(archive)?;
    let tail = reveal.map(revealed).unwrap_or_default();
    let mut out = vec![(
        REPORT_FILE.to_string(),
        (report
            .text(template.as_deref(), None)
            .map_err(Error::User)?
            + &tail)
            .into_bytes(),
    )];
    for seat in &seats {
        out.push((
            format!("{REPORTS_DIR}/{seat}.txt"),
            (report
                .text(template.as_deref(), Some(seat))
                .map_err(Error::User)?
                + &tail)
                .into_bytes(),
        ));
    }
    out.push((SVG_FILE.to_string(), report.svg().into_bytes()));
    if keeps_png(game) {
        out.push((PNG_FILE.to_string(), report.png().map_err(Error::User)?));
    }
    if let Some(public) = after.public_record() {
        out.push((PUBLIC_FILE.to_string(), public.into_bytes()));
    }
    Ok(out)
}

/// The files of a turn being played.
pub fn files_for(
    archive: &Archive,
    game: &dyn Game,
    m: &Made<'_>,
) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let report = build(game, m)?;
    let after = game.position(m.after).map_err(Error::User)?;
    files(
        archive,
        game,
        report.as_ref(),
        after.as_ref(),
        reveal_at(archive, after.as_ref())?.as_ref(),
    )
}

/// The seed a turn's reports publish: the game's secret one, if the position is over
/// and the game has one (a game made before seeds were kept secret has none).
pub fn reveal_at(
    archive: &Archive,
    after: &dyn super::game::Position,
) -> Result<Option<Secret>, Error> {
    if after.over().is_none() {
        return Ok(None);
    }
    Ok(archive.secret()?)
}
