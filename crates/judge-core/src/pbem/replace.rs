//! A seat taken over by a new player (`judge replace DIR SEAT --by NAME:EMAIL`): the
//! seat keeps its colour, pieces and history; the newcomer gets a fresh secret in a
//! welcome mail with the game as it stands, sent at once (the secret is kept nowhere);
//! the old secret stops working the moment game.toml is written; the next report says
//! who took over (a notice of the GM's, [`super::press::notice`]).

use std::time::SystemTime;

use super::Error;
use super::game::Game;
use crate::archive::{Archive, check_address};
use crate::mail::outbox::{self, Outgoing};
use crate::mail::{redact, secret};

/// Who took over a seat, and in which turn's report that is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replaced {
    pub seat: String,
    pub was: String,
    pub by: String,
    pub told_in: u32,
}

/// Give `seat` to `name` at `email`. Nothing changes unless the welcome mail was sent.
pub fn replace(
    archive: &mut Archive,
    game: &dyn Game,
    seat: &str,
    name: &str,
    email: &str,
    now: SystemTime,
) -> Result<Replaced, Error> {
    let _ = now;
    let seat = seat.to_ascii_lowercase();
    let Some(old) = archive.game.players.iter().find(|p| p.id == seat).cloned() else {
        let seats: Vec<&str> = archive.game.players.iter().map(|p| p.id.as_str()).collect();
        return Err(Error::input(format!(
            "there is no seat `{seat}` in {}: its seats are {}",
            archive.name(),
            seats.join(", ")
        )));
    };
    if old.is_free() {
        return Err(Error::input(format!(
            "{seat} is a free seat of a game open for sign-up: it is taken by `join` by mail, not replaced"
        )));
    }
    check_address(email).map_err(|e| Error::input(e.to_string()))?;
    if let Some(other) = archive
        .game
        .players
        .iter()
        .find(|p| p.id != seat && p.email.trim().eq_ignore_ascii_case(email.trim()))
    {
        return Err(Error::input(format!(
            "{email} is {}'s address already: every player needs their own",
            other.id
        )));
    }
    let position = super::current(archive, game)?;
    if let Some(why) = position.over() {
        return Err(Error::input(format!(
            "the game is over ({why}): no seat is taken over"
        )));
    }
    let told_in = position.turn() + 1;
    let new_secret = secret::generate();
    let hash = secret::hash(&new_secret)
        .map_err(|e| Error::input(format!("the secret could not be made: {e}")))?;
    let mut file = archive.game.clone();
    if let Some(p) = file.players.iter_mut().find(|p| p.id == seat) {
        p.name = name.to_string();
        p.email = email.trim().to_string();
        p.secret_hash = Some(hash);
    }
    file.validate()
        .map_err(|slip| Error::input(slip.to_string()))?;
    // The welcome, as the game will stand with the newcomer in the seat: sent now, or
    // nothing changes.
    let mut after = archive.clone();
    after.game = file.clone();
    let welcome = super::welcome::mail(&after, game, &seat, Some(&new_secret))?;
    let welcome = Outgoing {
        key: format!("{}-takes-over", welcome.key),
        subject: format!("[{}] welcome: you take over {seat}", archive.name()),
        ..welcome
    };
    let kept = Outgoing {
        body: welcome.body.replace(&new_secret, redact::BLANK),
        ..welcome.clone()
    };
    outbox::send_now(archive, &welcome, &kept)?;
    archive.save_game_file(file)?;
    super::press::notice(
        archive,
        told_in,
        &format!("replace-{seat}"),
        &format!(
            "{seat} is played by {name} from turn {told_in} on, in place of {}.",
            old.name
        ),
    )?;
    Ok(Replaced {
        seat,
        was: old.name,
        by: name.to_string(),
        told_in,
    })
}
