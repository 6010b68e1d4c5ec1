//! When orders are due (the pipeline's read side): a turn's deadline
//! from the schedule, the round's next choice's, and the sentence every answer ends
//! with. It uses none of the pipeline's actions.

use std::time::SystemTime;

use super::error::Error;
use super::game::{Game, Pace};
use super::layout::STEP_FILE;
use super::record::step_record;
use super::stage::waiting;
use crate::archive::Archive;
use crate::archive::schedule::shown;

/// When the orders for turn `next` are due, if the game has a schedule. A game played
/// together has a deadline every `every` from the first; one played one player at a
/// time has each step's deadline `every` after the step before was played (the first
/// no earlier than `first_deadline`). A deadline the GM moved stands either way.
pub fn deadline(
    archive: &Archive,
    game: &dyn Game,
    next: u32,
) -> Result<Option<SystemTime>, Error> {
    let before = match next.checked_sub(1).filter(|t| *t > 0) {
        Some(t) => super::record::record(archive, t)?,
        None => None,
    };
    let played = before
        .and_then(|r| r.played_at)
        .and_then(|t| humantime::parse_rfc3339_weak(&t).ok());
    deadline_after(archive, game, next, played)
}

/// As [`deadline`], with the time the turn before was played given.
pub fn deadline_after(
    archive: &Archive,
    game: &dyn Game,
    next: u32,
    before_played: Option<SystemTime>,
) -> Result<Option<SystemTime>, Error> {
    let Some(s) = &archive.game.schedule else {
        return Ok(None);
    };
    // No clock runs while the game waits for the GM or for players.
    if waiting(archive).is_some() {
        return Ok(None);
    }
    let user = |e: crate::archive::schedule::ScheduleError| Error::input(e.to_string());
    if let Some(at) = s.moved(next).map_err(user)? {
        return Ok(Some(at));
    }
    match game.pace() {
        Pace::Together => Ok(Some(s.deadline(next).map_err(user)?)),
        Pace::OneAtATime => {
            let first = s.deadline(1).map_err(user)?;
            let after = match before_played {
                Some(t) => t
                    .checked_add(s.every())
                    .filter(|at| crate::archive::schedule::in_range(*at))
                    .ok_or_else(|| {
                        Error::input(format!(
                            "turn {next}'s deadline, [schedule] every = \"{}\" after the step before it was played, would fall after {}",
                            s.every,
                            crate::archive::schedule::LATEST
                        ))
                    })?,
                None => first,
            };
            Ok(Some(s.off_skipped_days(after.max(first)).map_err(user)?))
        }
    }
}

/// The sentence every answer and reminder ends with: when the next orders are due.
pub fn due_line(archive: &Archive, game: &dyn Game, next: u32) -> String {
    if let Some(why) = waiting(archive) {
        return format!(
            "No deadline runs now: {why}. Orders for turn {next} are due by the deadline the judge mails when the game goes on."
        );
    }
    match deadline(archive, game, next).ok().flatten() {
        Some(d) => format!("Orders for turn {next} are due by {}.", shown(d)),
        None => format!("Orders for turn {next} are due when the GM plays the turn."),
    }
}

/// When the next choice of the round is due: `every` after the step before (or after
/// the round was made).
pub fn round_deadline(archive: &Archive, last: u32) -> Result<Option<SystemTime>, Error> {
    let Some(s) = &archive.game.schedule else {
        return Ok(None);
    };
    if waiting(archive).is_some() {
        return Ok(None);
    }
    let every = s.every();
    let before = step_record(archive, last)
        .and_then(|r| humantime::parse_rfc3339_weak(&r.at).ok())
        .ok_or_else(|| {
            Error::input(format!(
                "setup/{last:03}/{STEP_FILE} does not say when it was"
            ))
        })?;
    Ok(before.checked_add(every))
}
