//! The play-by-email loop, the same for every game: mail in ([`intake`]), a turn played
//! ([`turn`]), reports and answers out ([`send`]), and the archive checked again
//! ([`replay`]). Each step is a function over the archive that a GM may run alone; the
//! command line only calls them. A game is known here only through [`game::Game`].

#[cfg(feature = "shell")]
pub mod absent;
#[cfg(feature = "shell")]
pub mod by_mail;
#[cfg(feature = "shell")]
pub mod clock;
#[cfg(feature = "shell")]
pub mod commands;
#[cfg(feature = "shell")]
pub mod commit;
pub mod directives;
pub mod game;
#[cfg(feature = "shell")]
pub mod house;
#[cfg(feature = "shell")]
pub mod intake;
#[cfg(feature = "shell")]
pub mod limits;
#[cfg(feature = "shell")]
pub mod log;
#[cfg(feature = "shell")]
pub mod preferences;
#[cfg(feature = "shell")]
pub mod press;
#[cfg(feature = "shell")]
pub mod rate;
#[cfg(feature = "shell")]
pub mod replace;
#[cfg(feature = "shell")]
pub mod replay;
#[cfg(feature = "shell")]
pub mod report;
#[cfg(feature = "shell")]
pub mod round;
#[cfg(feature = "shell")]
pub mod route;
#[cfg(feature = "shell")]
pub mod send;
#[cfg(feature = "shell")]
pub mod signup;
#[cfg(feature = "shell")]
pub mod sources;
#[cfg(feature = "shell")]
pub mod status;
#[cfg(feature = "shell")]
pub mod turn;
#[cfg(feature = "shell")]
pub mod verify;
#[cfg(feature = "shell")]
pub mod welcome;

crate::shell! {
use std::time::SystemTime;

use crate::archive::schedule::shown;
use crate::archive::{Archive, ArchiveError, PUBLIC_FILE, STATE_FILE};
use crate::mail::outbox::MailError;
use game::{Game, Pace, Position};

/// What went wrong in a pipeline step.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A problem of a kind: the player's or the GM's input (the message says how to fix
    /// it), a damaged archive, or a fault in the judge.
    #[error("{0}")]
    Game(#[from] crate::error::GameError),
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    #[error(transparent)]
    Mail(#[from] MailError),
    #[error(transparent)]
    Git(#[from] crate::archive::git::GitError),
    /// The mailbox's server cannot be read now (down, silent, dropped): it may work
    /// later (exit 3). The settings' faults are [`Error::Game`] input errors.
    #[error("{0}")]
    MailboxDown(String),
}

#[cfg(feature = "shell")]
impl From<crate::mail::imap::ImapError> for Error {
    fn from(e: crate::mail::imap::ImapError) -> Self {
        if e.is_settings() {
            Error::input(e.to_string())
        } else {
            Error::MailboxDown(e.to_string())
        }
    }
}

impl Error {
    /// Something the GM or a player can fix; the message says how.
    pub fn input(message: impl Into<String>) -> Error {
        Error::Game(crate::error::GameError::input(message))
    }
}

/// An archive and the game it holds, found among `games`.
pub fn open(
    games: crate::registry::Games,
    dir: &std::path::Path,
) -> Result<(Archive, &'static dyn Game), Error> {
    let archive = Archive::open(dir)?;
    let game = games.by_id(&archive.game.game).map_err(|e| {
        Error::input(format!(
            "{}: {e}",
            dir.join(crate::archive::GAME_FILE).display()
        ))
    })?;
    if let Some(seats) = seats(&archive, game) {
        archive.check_seats(&seats)?;
    }
    Ok((archive, game))
}

/// The seats the game has, by id: the round's before turn 0, else the latest turn's
/// (its state, or on a public clone its public record). `None` when they cannot be read
/// here; the command that needs them says why.
fn seats(archive: &Archive, game: &dyn Game) -> Option<Vec<String>> {
    let seats = match round::current(archive, game).ok()? {
        Some((_, r)) => r.seats(),
        None => {
            let last = *archive.turns().ok()?.last()?;
            match position(archive, game, last) {
                Ok(p) => p.seats(),
                Err(_) => game
                    .public_position(&archive.read(last, PUBLIC_FILE).ok()?)
                    .ok()?
                    .seats(),
            }
        }
    };
    Some(seats.into_iter().map(|s| s.id).collect())
}

/// Where the game stands now, for checking and filing orders: the last turn's position,
/// or, before turn 0 (a round by mail), the round.
pub fn current(archive: &Archive, game: &dyn Game) -> Result<Box<dyn Position>, Error> {
    if !signup::started(archive) {
        return Ok(Box::new(signup::Unstarted::of(archive)));
    }
    if let Some((_, r)) = round::current(archive, game)? {
        return Ok(Box::new(round::RoundPosition(r)));
    }
    let last = archive.pick_turn(None)?;
    // Named as game.toml names the players now: a newcomer from the replacement on.
    let kept = position(archive, game, last)?;
    let names = new_names(archive, kept.as_ref());
    Ok(named(game, kept, &names)?.0)
}

/// The seats game.toml names otherwise than `position` does (issue 38, point 13: a
/// seat taken over with `judge replace`, a name the GM corrected): seat → name.
pub fn new_names(
    archive: &Archive,
    position: &dyn game::Position,
) -> std::collections::BTreeMap<String, String> {
    position
        .seats()
        .into_iter()
        .filter_map(|s| {
            let p = archive.game.players.iter().find(|p| p.id == s.id)?;
            (!p.is_free() && p.name != s.name).then(|| (s.id, p.name.clone()))
        })
        .collect()
}

/// `position` with the players of these seats named anew ([`game::Position::renamed`]),
/// and its JSON (`None` when nothing changed, or the game keeps no names).
pub fn named(
    game: &dyn Game,
    position: Box<dyn game::Position>,
    names: &std::collections::BTreeMap<String, String>,
) -> Result<(Box<dyn game::Position>, Option<String>), Error> {
    if names.is_empty() {
        return Ok((position, None));
    }
    match position.renamed(names) {
        None => Ok((position, None)),
        Some(json) => {
            let json = json.map_err(Error::from)?;
            Ok((game.position(&json).map_err(Error::from)?, Some(json)))
        }
    }
}

/// The position `judge check` checks orders against: the latest turn's state or, on a
/// clone of a game's public git (whose state files are private), that turn's public
/// record, named in the second value.
pub fn current_for_check(
    archive: &Archive,
    game: &dyn Game,
) -> Result<(Box<dyn Position>, Option<std::path::PathBuf>), Error> {
    if let Some((_, r)) = round::current(archive, game)? {
        return Ok((Box::new(round::RoundPosition(r)), None));
    }
    let last = archive.pick_turn(None)?;
    let dir = archive.turn_dir(last);
    if dir.join(STATE_FILE).is_file() {
        return Ok((position(archive, game, last)?, None));
    }
    let public = dir.join(PUBLIC_FILE);
    if !public.is_file() {
        return Err(Error::input(format!(
            "{}: this copy of the game has neither {STATE_FILE} (the judge's, kept private in a game with hidden cards) nor {PUBLIC_FILE} (the public record, which a game's git keeps from this version of the judge on): `git pull` the game, or ask the GM to check your orders",
            dir.display()
        )));
    }
    let text = archive.read(last, PUBLIC_FILE)?;
    let p = game
        .public_position(&text)
        .map_err(|e| Error::from(e.context(public.display())))?;
    Ok((p, Some(public)))
}

/// The position a turn of the archive holds.
pub fn position(archive: &Archive, game: &dyn Game, turn: u32) -> Result<Box<dyn Position>, Error> {
    let dir = archive.turn_dir(turn);
    if !dir.join(STATE_FILE).exists() && dir.join(PUBLIC_FILE).is_file() {
        return Err(Error::input(format!(
            "{}: not in this copy of the game: a game with hidden cards keeps its states out of git, for the GM alone; this copy has the public record (each turn's report.txt and {PUBLIC_FILE}), against which `judge check` checks orders",
            dir.join(STATE_FILE).display()
        )));
    }
    let text = archive.read(turn, STATE_FILE)?;
    game.position(&text)
        .map_err(|e| Error::from(e.context(archive.turn_dir(turn).join(STATE_FILE).display())))
}

/// When the orders for turn `next` are due, if the game has a schedule. A game played
/// together has a deadline every `every` from the first; one played one player at a
/// time has each step's deadline `every` after the step before was played (the first
/// no earlier than `first_deadline`). A deadline the GM moved stands either way.
pub fn deadline(
    archive: &Archive,
    game: &dyn Game,
    next: u32,
) -> Result<Option<SystemTime>, Error> {
    let played = next
        .checked_sub(1)
        .filter(|t| *t > 0)
        .and_then(|t| turn::record(archive, t))
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
                    .checked_add(s.every().map_err(user)?)
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

/// Why the game waits, if it does: the GM paused it, or seats of a game open for
/// sign-up are free. No deadline runs then, and no turn is played but by the GM's
/// `judge turn --force`.
pub fn waiting(archive: &Archive) -> Option<String> {
    if let Some(since) = &archive.game.paused {
        let since = humantime::parse_rfc3339_weak(since)
            .map(crate::archive::schedule::shown)
            .unwrap_or_else(|_| since.clone());
        return Some(format!("the GM paused the game on {since}"));
    }
    let free = archive.game.free_seats();
    (!free.is_empty()).then(|| {
        format!(
            "the game is open for sign-up and {} free ({})",
            if free.len() == 1 {
                "a seat is".to_string()
            } else {
                format!("{} seats are", free.len())
            },
            free.join(", ")
        )
    })
}

/// Where players read the game's order guide: its page on the game's site
/// (`guide.html`, which `judge site` writes) when the game has a site, else the docs
/// file's name.
pub fn guide_named(archive: &Archive, game: &dyn Game) -> String {
    match archive.mail().and_then(|m| m.site.clone()) {
        Some(site) if !game.order_guide_text().is_empty() => {
            format!("{}/{}", site.trim_end_matches('/'), crate::site::GUIDE_FILE)
        }
        _ => format!("{} (ask the GM for a copy)", game.order_guide().1),
    }
}

/// Where `seat` writes orders on the map: their order writer page on the game's site
/// (`write-SEAT.html`, which `judge site` writes while the game runs), when the game has
/// a site and a writer for the position.
pub fn writer_named(archive: &Archive, position: &dyn Position, seat: &str) -> Option<String> {
    let site = archive.mail().and_then(|m| m.site.clone())?;
    position.writer(seat)?;
    Some(format!(
        "{}/{}",
        site.trim_end_matches('/'),
        crate::site::writer_file(seat)
    ))
}

/// An order file for `seat`'s next orders, ready to fill, indented as a mail quotes it:
/// the header (the secret left as YOUR-SECRET, which the judge never mails) and the
/// game's template (each phase's heading, and what the game lists for the seat).
pub fn order_template(
    archive: &Archive,
    game: &dyn Game,
    position: &dyn Position,
    seat: &str,
) -> String {
    let mut t: String = order_header(archive, game, position, seat)
        .lines()
        .map(|l| format!("    {l}\n"))
        .collect();
    t.push('\n');
    t.push_str(&order_body(position, seat));
    t
}

/// The header lines of `seat`'s next order file (`game`, `player`, `turn`), the secret
/// left as YOUR-SECRET for the player to fill.
pub fn order_header(
    archive: &Archive,
    game: &dyn Game,
    position: &dyn Position,
    seat: &str,
) -> String {
    let name = archive.name();
    let next = position.turn() + 1;
    let mut t = format!("game {name}\nplayer {seat}\n");
    if archive.turn_dir(0).is_dir() && game.pace() == Pace::Together {
        t.push_str(&format!("turn {next}\n"));
    }
    t.push_str("secret YOUR-SECRET\n");
    t
}

/// The game's template for `seat` below the header lines (each phase's heading, and
/// what the game lists for the seat), indented as a mail quotes it.
pub fn order_body(position: &dyn Position, seat: &str) -> String {
    let mut t = String::new();
    for l in position.template(seat).lines() {
        if l.trim().is_empty() {
            t.push('\n');
        } else {
            t.push_str(&format!("    {l}\n"));
        }
    }
    t
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
}
