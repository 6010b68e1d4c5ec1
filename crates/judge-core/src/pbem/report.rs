//! A turn's report and the files kept with it. A turn keeps `report.txt` (what everyone
//! may read, as it was mailed) and, for a game whose states are private, `public.json`
//! (the position's public record) and `draws.json` (the draws everyone saw made in
//! it). What can be made again from those, the states and the events is not kept, but
//! made when it is wanted: each player's own report ([`player_text`], for their mail
//! and `judge report --player`) and the map pictures (`map.svg`, `map.png`: for the
//! mail, the site and `judge report --format`). An archive made before (with
//! `reports/<seat>.txt`, `map.svg`, `map.png`) keeps working: what it kept is used as
//! kept, and `judge replay` checks it byte for byte.

use super::error::Error;
use super::game::{Game, OrderFile, Report, ReportInput};
pub use super::layout::{PNG_FILE, REPORT_FILE, REPORTS_DIR, SVG_FILE};
use super::record::{Source, TurnRecord, record};
use crate::archive::randomness::Secret;
use crate::archive::schedule::shown;
use crate::archive::{Archive, DRAWS_FILE, EVENTS_FILE, ORDERS_DIR, PUBLIC_FILE, STATE_FILE};

/// The GM's template for this game, if they have one (`<game>/templates/report.txt`).
pub fn template(archive: &Archive) -> Result<Option<String>, Error> {
    let path = archive.root().join("templates").join(REPORT_FILE);
    if path.is_file() {
        return std::fs::read_to_string(&path)
            .map(Some)
            .map_err(|e| Error::input(format!("{}: {e}", path.display())));
    }
    Ok(None)
}

/// When a turn's orders are due, as a report shows it, if the game has a schedule.
pub fn deadline(archive: &Archive, game: &dyn Game, turn: u32) -> Option<String> {
    super::due::deadline(archive, game, turn)
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
    let caretaker: Vec<String> = m
        .record
        .orders
        .iter()
        .filter(|(_, s)| **s == Source::Caretaker)
        .map(|(p, _)| p.clone())
        .collect();
    game.report(&ReportInput {
        game: &m.record.game,
        before: m.before,
        events: m.events,
        after: m.after,
        orders: m.orders,
        standing: &standing,
        caretaker: &caretaker,
        deadline: m.record.deadline.clone(),
    })
    .map_err(|e| Error::from(e.context(format!("turn {}", m.turn))))
}

/// What happened in a turn, as JSON: its kept `events.json`, or, in an archive that
/// leaves events out (the showcase games, docs/archive.md), made again by playing the
/// turn from the state kept before it, its kept orders and the game's seed.
pub fn events(archive: &Archive, game: &dyn Game, turn: u32) -> Result<String, Error> {
    if turn == 0 {
        return Ok("[]".to_string());
    }
    if archive.turn_dir(turn).join(EVENTS_FILE).exists() {
        return Ok(archive.read(turn, EVENTS_FILE)?);
    }
    let luck = archive.seeds()?.luck;
    Ok(play_again(archive, game, turn, &luck)?.events)
}

/// One turn played again from the state the archive keeps before it and the turn's kept
/// orders (a turn the GM ended the game with plays only the end).
pub fn play_again(
    archive: &Archive,
    game: &dyn Game,
    turn: u32,
    luck: &crate::luck::Luck,
) -> Result<super::game::Played, Error> {
    let rec = record(archive, turn)?;
    let kept = super::stage::position(archive, game, turn - 1)?;
    let renamed = rec.as_ref().map(|r| r.renamed.clone()).unwrap_or_default();
    let (state, _) = super::stage::named(game, kept, &renamed)?;
    let files = orders_of(archive, turn)?;
    match rec.and_then(|r| r.ended) {
        Some(why) => state.end(&why),
        None => state.play(&files, luck),
    }
    .map_err(|e| Error::from(e.context(format!("turn {turn}"))))
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
        // The position before, with the names the turn was played under.
        let kept = archive.read(prev, STATE_FILE)?;
        let renamed = record(archive, turn)?
            .map(|r| r.renamed)
            .unwrap_or_default();
        let before = match super::stage::named(
            game,
            game.position(&kept).map_err(Error::from)?,
            &renamed,
        )? {
            (_, Some(json)) => json,
            (_, None) => kept,
        };
        (
            before,
            events(archive, game, turn)?,
            orders_of(archive, turn)?,
        )
    };
    let rec = record(archive, turn)?.unwrap_or_else(|| TurnRecord {
        game: archive.name(),
        deadline: deadline(archive, game, turn + 1),
        played_at: None,
        orders: orders
            .iter()
            .map(|f| (f.player.clone(), Source::Sent))
            .collect(),
        acted: None,
        ended: None,
        missed: Vec::new(),
        renamed: Default::default(),
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

/// What a turn's report ends with, from what the game's folder keeps for that turn:
/// the GM's notices (a seat taken over) and press to everyone. Empty for a turn with
/// neither, so that a game without them reports as before.
fn kept_sections(archive: &Archive, turn: u32) -> Result<String, Error> {
    Ok(super::press::notices(archive, turn)? + &super::press::section(archive, turn)?)
}

/// The files a turn keeps: the report for everyone and, for a game whose state file is
/// private, the position's public record. The turn that ends the game ends its report
/// with the seed, `reveal`, when the game has a secret one.
pub fn files(
    archive: &Archive,
    report: &dyn Report,
    after: &dyn super::game::Position,
    reveal: Option<&Secret>,
) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let template = template(archive)?;
    let tail = reveal.map(revealed).unwrap_or_default();
    let press = kept_sections(archive, after.turn())?;
    let mut out = vec![(
        REPORT_FILE.to_string(),
        (report
            .text(template.as_deref(), None)
            .map_err(Error::from)?
            + &press
            + &tail)
            .into_bytes(),
    )];
    if let Some(public) = after.public_record() {
        out.push((PUBLIC_FILE.to_string(), public.into_bytes()));
    }
    if let Some(draws) = report.draws() {
        out.push((DRAWS_FILE.to_string(), draws.into_bytes()));
    }
    Ok(out)
}

/// What a turn no longer keeps but can make again, by the name an older archive kept it
/// under: each player's report (`reports/<seat>.txt`), `map.svg` and `map.png`. `judge
/// replay` makes the ones an archive still has, to check them.
pub fn made_again(
    archive: &Archive,
    report: &dyn Report,
    after: &dyn super::game::Position,
    reveal: Option<&Secret>,
    name: &str,
) -> Result<Option<Vec<u8>>, Error> {
    if name == SVG_FILE {
        return Ok(Some(report.svg().into_bytes()));
    }
    if name == PNG_FILE {
        return Ok(Some(report.png().map_err(Error::from)?));
    }
    let Some(seat) = name
        .strip_prefix(REPORTS_DIR)
        .and_then(|n| n.strip_prefix('/'))
        .and_then(|n| n.strip_suffix(".txt"))
    else {
        return Ok(None);
    };
    if !after.seats().iter().any(|s| s.id == seat) {
        return Ok(None);
    }
    let tail = reveal.map(revealed).unwrap_or_default();
    let text = report
        .text(template(archive)?.as_deref(), Some(seat))
        .map_err(Error::from)?;
    let press = kept_sections(archive, after.turn())?;
    Ok(Some((text + &press + &tail).into_bytes()))
}

/// The names [`made_again`] answers to, for a turn of these seats.
pub fn made_again_names(after: &dyn super::game::Position) -> Vec<String> {
    let mut names: Vec<String> = after
        .seats()
        .into_iter()
        .map(|s| format!("{REPORTS_DIR}/{}.txt", s.id))
        .collect();
    names.push(SVG_FILE.to_string());
    names.push(PNG_FILE.to_string());
    names
}

/// The report `seat` receives for `turn`: the public one with their own part (what
/// became of each of their orders, the header to start their next orders with) and what
/// only they may see, ending with the seed when the turn ended the game. Made from the
/// archive; an older archive's kept copy (`reports/<seat>.txt`) is used as kept.
pub fn player_text(
    archive: &Archive,
    game: &dyn Game,
    turn: u32,
    seat: &str,
) -> Result<String, Error> {
    let kept = archive
        .turn_dir(turn)
        .join(REPORTS_DIR)
        .join(format!("{seat}.txt"));
    if let Some(bytes) = archive.read_own(&kept)? {
        return String::from_utf8(bytes)
            .map_err(|_| Error::input(format!("{}: not UTF-8", kept.display())));
    }
    let report = of_turn(archive, game, turn)?;
    let after = super::stage::position(archive, game, turn)?;
    let reveal = reveal_at(archive, after.as_ref())?;
    let name = format!("{REPORTS_DIR}/{seat}.txt");
    match made_again(
        archive,
        report.as_ref(),
        after.as_ref(),
        reveal.as_ref(),
        &name,
    )? {
        Some(bytes) => String::from_utf8(bytes)
            .map_err(|_| Error::input(format!("turn {turn}: {seat}'s report is not UTF-8"))),
        None => Err(Error::input(format!("{seat} does not play in this game"))),
    }
}

/// The map of `turn` as a PNG, for a report's mail: an older archive's kept `map.png`
/// as kept, or drawn now from the turn's position by the one painter.
pub fn map_png(archive: &Archive, game: &dyn Game, turn: u32) -> Result<Vec<u8>, Error> {
    if let Some(png) = archive.read_own(&archive.turn_dir(turn).join(PNG_FILE))? {
        return Ok(png);
    }
    of_turn(archive, game, turn)?
        .png()
        .map_err(|e| Error::from(e.context(format!("the map of turn {turn} cannot be drawn"))))
}

/// The files of a turn being played.
pub fn files_for(
    archive: &Archive,
    game: &dyn Game,
    m: &Made<'_>,
) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let report = build(game, m)?;
    let after = game.position(m.after).map_err(Error::from)?;
    files(
        archive,
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
