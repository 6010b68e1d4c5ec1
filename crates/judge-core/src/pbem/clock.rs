//! The game's clock, as the GM moves it: a later deadline (`judge deadline`, `extend`
//! by mail), and `pause` / `resume` by mail. Each writes game.toml whole, and tells
//! every player.

use std::time::{Duration, SystemTime};

use super::error::Error;
use super::game::Game;
use crate::archive::schedule::{LONGEST, shown, stamp};
use crate::archive::{Archive, GameFile};
use crate::mail::outbox::{self, Outgoing};

/// Mail every seated player the same note; what could not be queued, a line each.
pub fn tell(archive: &Archive, key: &str, subject: &str, body: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if archive.mail().is_none() {
        return problems;
    }
    for p in archive.game.players.iter().filter(|p| !p.is_free()) {
        let mail = Outgoing {
            key: format!("{key}-{}", p.id),
            to_name: p.name.clone(),
            to: p.email.clone(),
            subject: subject.to_string(),
            body: body.to_string(),
            in_reply_to: None,
            attachment: None,
        };
        if let Err(e) = outbox::queue(archive, &mail) {
            problems.push(format!("{} was not told: {e}", p.id));
        }
    }
    problems
}

/// game.toml as on the disk now, changed by `change`, checked, and written whole.
fn rewrite(archive: &Archive, change: impl FnOnce(&mut GameFile)) -> Result<Archive, Error> {
    let mut fresh = Archive::open(archive.root())?;
    let mut file = fresh.game.clone();
    change(&mut file);
    file.validate()
        .map_err(|slip| Error::input(slip.to_string()))?;
    fresh.save_game_file(file)?;
    Ok(fresh)
}

/// The next turn's number, unless the game is over.
fn next_turn(archive: &Archive, game: &dyn Game) -> Result<u32, Error> {
    let position = super::stage::current(archive, game)?;
    if position.over().is_some() {
        return Err(Error::input(
            "the game is over: its clock has stopped for good",
        ));
    }
    Ok(position.turn() + 1)
}

/// Move the next deadline `by` later, and tell the players. The moved deadline, from
/// and to.
pub fn extend(
    archive: &Archive,
    game: &dyn Game,
    by: Duration,
    now: SystemTime,
) -> Result<(u32, SystemTime, SystemTime), Error> {
    extend_for(archive, game, by, now, "The GM")
}

/// [`extend`], saying who moved it (`The GM`, `red asked for grace:`).
pub fn extend_for(
    archive: &Archive,
    game: &dyn Game,
    by: Duration,
    now: SystemTime,
    who: &str,
) -> Result<(u32, SystemTime, SystemTime), Error> {
    let next = next_turn(archive, game)?;
    if super::stage::waiting(archive).is_some() {
        return Err(Error::input(
            "the game is paused (or waits for players): there is no deadline to extend; `resume` starts the clock again",
        ));
    }
    let Some(mut schedule) = archive.game.schedule.clone() else {
        return Err(Error::input(
            "the game has no [schedule] in game.toml: there is no deadline to extend",
        ));
    };
    let old = super::due::deadline(archive, game, next)?
        .ok_or_else(|| Error::input("the game has no deadline to extend"))?;
    let new = old
        .checked_add(by)
        .filter(|n| now.max(old).checked_add(LONGEST).is_some_and(|l| *n <= l))
        .ok_or_else(|| Error::input("a deadline moves at most a year past now"))?;
    schedule
        .move_deadline(next, new)
        .map_err(|e| Error::input(e.to_string()))?;
    let fresh = rewrite(archive, |f| f.schedule = Some(schedule))?;
    let name = archive.name();
    tell(
        &fresh,
        &format!(
            "deadline-{next:03}-{}",
            crate::archive::content_id(shown(new).as_bytes())
        ),
        &format!("[{name}] turn {next}: the deadline moved to {}", shown(new)),
        &format!(
            "{} the deadline for turn {next} of {name} from {} to {}.\n\nOrders already sent stand; you may replace them until the new deadline.\n",
            if who == "The GM" {
                "The GM moved".to_string()
            } else {
                format!("{who}: it moved")
            },
            shown(old),
            shown(new)
        ),
    );
    Ok((next, old, new))
}

/// Stop the clock: no deadline runs and no turn is played until [`resume`].
pub fn pause(archive: &Archive, game: &dyn Game, now: SystemTime) -> Result<(), Error> {
    next_turn(archive, game)?;
    if archive.game.paused.is_some() {
        return Err(Error::input(
            "the game is paused already; `resume` starts it again",
        ));
    }
    let fresh = rewrite(archive, |f| f.paused = Some(stamp(now)))?;
    let name = archive.name();
    tell(
        &fresh,
        &format!("pause-{}", stamp(now)),
        &format!("[{name}] the GM paused the game"),
        &format!(
            "The GM paused {name} on {}. No deadline runs and no turn is played until the GM resumes it; then the deadline moves on by as long as the pause lasted, and you are told the new one.\n\nOrders you send meanwhile are filed as always.\n",
            shown(now)
        ),
    );
    Ok(())
}

/// Start the clock again: the next deadline moves on by as long as the pause lasted.
/// The new deadline, if the game has a schedule.
pub fn resume(
    archive: &Archive,
    game: &dyn Game,
    now: SystemTime,
) -> Result<Option<(u32, SystemTime)>, Error> {
    let next = next_turn(archive, game)?;
    let Some(since) = archive.game.paused.clone() else {
        return Err(Error::input("the game is not paused"));
    };
    let paused_for = humantime::parse_rfc3339_weak(&since)
        .ok()
        .and_then(|s| now.duration_since(s).ok())
        .unwrap_or_default();
    // The deadline as it stood when the clock stopped, moved on by the pause.
    let mut unpaused = archive.clone();
    unpaused.game.paused = None;
    let moved = match (
        super::due::deadline(&unpaused, game, next)?,
        &archive.game.schedule,
    ) {
        (Some(d), Some(s)) => {
            let mut s = s.clone();
            let new = d.checked_add(paused_for).unwrap_or(d);
            s.move_deadline(next, new)
                .map_err(|e| Error::input(e.to_string()))?;
            Some((s, new))
        }
        _ => None,
    };
    let fresh = rewrite(archive, |f| {
        f.paused = None;
        if let Some((s, _)) = &moved {
            f.schedule = Some(s.clone());
        }
    })?;
    let name = archive.name();
    tell(
        &fresh,
        &format!("resume-{}", stamp(now)),
        &format!("[{name}] the GM resumed the game"),
        &format!(
            "The GM resumed {name}: the clock runs again.\n\n{}\n",
            super::due::due_line(&fresh, game, next)
        ),
    );
    Ok(moved.map(|(_, new)| (next, new)))
}
