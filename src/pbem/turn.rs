//! Playing the next turn: new mail filed, the orders in `pending/` played, the turn
//! written whole into the archive, the pending files used removed, the reports queued.

use std::time::SystemTime;

use super::Error;
use super::game::{Game, Mismatch, OrderFile, Position};
use super::{intake, report, send, sources};
use crate::archive::{Archive, EVENTS_FILE, ORDERS_DIR, STATE_FILE};
use crate::diagnostic::Diagnostics;

/// How to run a turn.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Play before the deadline, or with no orders waiting.
    pub force: bool,
    /// Send the queued mail at once.
    pub send: bool,
}

/// Read new mail from the sources game.toml names; a line per mail.
pub fn read_mail(
    archive: &Archive,
    game: &dyn Game,
    now: SystemTime,
) -> Result<Vec<String>, Error> {
    let mut lines = Vec::new();
    if let Some(dir) = archive.game.mail.as_ref().and_then(|m| m.maildir.clone()) {
        lines.extend(intake::file_all(
            archive,
            game,
            sources::maildir(&dir)?,
            now,
        )?);
    }
    if let Some(s) = archive.game.mail.clone().filter(|m| m.imap_host.is_some()) {
        let src = sources::imap(&s, None, None, None, None)?;
        lines.extend(intake::file_imap(archive, game, &src, now)?);
    }
    Ok(lines)
}

/// Play the next turn. What a GM reads of it goes into `lines`, also when it fails.
pub fn run(
    archive: &Archive,
    game: &dyn Game,
    now: SystemTime,
    opts: Options,
    lines: &mut Vec<String>,
) -> Result<(), Error> {
    // Finish what an interrupted run left: the last turn's reports go out first.
    let last = archive.pick_turn(None)?;
    if last > 0 && send::queue_reports(archive, last)? > 0 && opts.send {
        lines.extend(send::describe(&send::send(archive)?));
    }
    lines.extend(read_mail(archive, game, now)?);
    let state = super::position(archive, game, last)?;
    if let Some(why) = state.over() {
        return Err(Error::User(format!(
            "the game is over ({why}); there is no next turn"
        )));
    }
    let next = last + 1;
    if let Some(s) = &archive.game.schedule {
        let deadline = s.deadline(next).map_err(Error::User)?;
        if now < deadline && !opts.force {
            return Err(Error::User(format!(
                "turn {next} is not due until {} (its deadline); --force plays it now",
                humantime::format_rfc3339_seconds(deadline)
            )));
        }
    }
    let pending = archive.files_in(&archive.pending_dir())?;
    let mut files = Vec::new();
    let mut used = Vec::new();
    for (name, text) in &pending {
        match order_file(name, text, state.as_ref(), next) {
            Ok(f) => {
                files.push(f);
                used.push(name.clone());
            }
            Err(why) => lines.push(format!("skipped pending/{name}: {why}")),
        }
    }
    // Without a schedule, a turn with no usable orders is not played by accident (a
    // second run, or one after a crash, finds only the last turn's orders).
    if files.is_empty() && archive.game.schedule.is_none() && !opts.force {
        return Err(Error::User(format!(
            "no orders are waiting for turn {next}: nothing to play (--force plays it with no orders)"
        )));
    }
    let played = state.play(&files).map_err(Error::User)?;
    for (player, problems) in &played.problems {
        let text = files
            .iter()
            .find(|f| &f.player == player)
            .map_or(String::new(), |f| f.text.clone());
        let d = Diagnostics {
            file: format!("pending/{player}.txt"),
            source: text,
            items: problems.clone(),
        };
        lines.push(d.render());
    }
    let mut turn_files: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| {
            (
                format!("{ORDERS_DIR}/{}.txt", f.player),
                f.text.clone().into_bytes(),
            )
        })
        .collect();
    turn_files.push((STATE_FILE.to_string(), played.state.clone().into_bytes()));
    turn_files.push((EVENTS_FILE.to_string(), played.events.clone().into_bytes()));
    let before = archive.read(last, STATE_FILE)?;
    let name = archive.name();
    let r = game
        .report(&super::game::ReportInput {
            game: &name,
            before: &before,
            events: &played.events,
            after: &played.state,
            orders: &files,
            deadline: report::deadline(archive, next + 1),
        })
        .map_err(Error::User)?;
    turn_files.extend(report::files(archive, r.as_ref())?);
    let refs: Vec<(&str, Vec<u8>)> = turn_files
        .iter()
        .map(|(n, b)| (n.as_str(), b.clone()))
        .collect();
    archive.write_turn(next, &refs)?;
    for name in used {
        let _ = std::fs::remove_file(archive.pending_dir().join(name));
    }
    // Orders held because they came late are the next turn's.
    for (name, text) in archive.files_in(&archive.root().join(intake::HELD))? {
        crate::archive::atomic::write_file(&archive.pending_dir().join(&name), text.as_bytes())?;
        let _ = std::fs::remove_file(archive.root().join(intake::HELD).join(name));
    }
    lines.push(played.summary.clone());
    if let Some(why) = &played.over {
        lines.push(format!("The game is over: {why}"));
    }
    if send::queue_reports(archive, next)? > 0 && opts.send {
        lines.extend(send::describe(&send::send(archive)?));
    }
    Ok(())
}

/// Whose orders a pending file holds (its name, `red.txt`, or its `player` line), and
/// whether they are for this turn.
fn order_file(
    name: &str,
    text: &str,
    state: &dyn Position,
    turn: u32,
) -> Result<OrderFile, String> {
    let header = state.header(text);
    let stem = name.strip_suffix(".txt").unwrap_or(name);
    let seats = state.seats();
    let by_name = seats.iter().find(|s| s.id.eq_ignore_ascii_case(stem));
    let player = match (&header.player, by_name) {
        (Some(h), Some(f)) if !h.eq_ignore_ascii_case(&f.id) => {
            return Err(format!(
                "the file is named for {} but says `player {h}`",
                f.id
            ));
        }
        (Some(p), _) => p.clone(),
        (None, Some(f)) => f.id.clone(),
        (None, None) => {
            return Err("name the file after the player's seat, or give a `player` line".into());
        }
    };
    if !seats.iter().any(|s| s.id == player) {
        return Err(format!("{player} does not play in this game"));
    }
    let late_or_early = header
        .mismatches(None, None, turn)
        .into_iter()
        .find_map(|m| match m {
            Mismatch::EarlierTurn(t) | Mismatch::LaterTurn(t) => Some(t),
            _ => None,
        });
    if let Some(t) = late_or_early {
        return Err(format!(
            "the orders are for turn {t}, and turn {turn} is next"
        ));
    }
    Ok(OrderFile {
        player,
        text: text.to_string(),
    })
}
