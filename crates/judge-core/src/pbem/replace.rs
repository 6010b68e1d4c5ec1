//! A seat taken over by a new player (`judge replace DIR SEAT --by NAME:EMAIL`): the
//! seat keeps its colour, pieces and history; the newcomer gets a fresh secret in a
//! welcome mail with the game as it stands, sent at once (the secret is kept nowhere);
//! the old secret stops working the moment game.toml is written; the next report says
//! who took over (a notice of the GM's, [`super::press::notice`]).

use std::time::SystemTime;

use super::error::Error;
use super::game::Game;
use crate::archive::{Archive, ArchiveError, HELD_DIR, STANDING_DIR, check_address};
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
    let position = super::stage::current(archive, game)?;
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
    // What the old player left on record for the seat is set aside, not played for the
    // newcomer: their standing orders, the orders they sent for
    // the coming turn, and late ones held for a later turn.
    let left = left_on_record(archive, &seat)?;
    let mut body = welcome.body;
    if !left.is_empty() {
        body.push_str(&format!(
            "\nWhat {} had on record for {seat} ({}) was set aside: none of it is played for you. The seat plays only the orders you send{}.\n",
            old.name,
            left.iter().map(|(what, _)| *what).collect::<Vec<_>>().join(", "),
            if left.iter().any(|(what, _)| *what == "standing orders") {
                " (and standing orders once you send some)"
            } else {
                ""
            }
        ));
    }
    let welcome = Outgoing {
        key: format!("{}-takes-over", welcome.key),
        subject: format!("[{}] welcome: you take over {seat}", archive.name()),
        body,
        ..welcome
    };
    let kept = Outgoing {
        body: welcome.body.replace(&new_secret, redact::BLANK),
        ..welcome.clone()
    };
    outbox::send_now(archive, &welcome, &kept)?;
    set_aside(archive, &seat, told_in, &left)?;
    remember(
        archive,
        Former {
            seat: seat.clone(),
            name: old.name.clone(),
            email: old.email.trim().to_string(),
            from_turn: told_in,
        },
    )?;
    archive.save_game_file(file)?;
    super::press::notice(
        archive,
        told_in,
        &notice_name(&seat),
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

/// Whether `seat` was taken over by a new player after turn `turn` was played (its
/// notice is kept for the report of the turn after).
pub fn replaced_after(archive: &Archive, turn: u32, seat: &str) -> bool {
    archive
        .root()
        .join(super::layout::NOTICES_DIR)
        .join(format!("{:03}", turn + 1))
        .join(format!("{}.txt", notice_name(seat)))
        .is_file()
}

/// Where the addresses of replaced players are kept (out of git, with the mail): a
/// mail from one is answered once that the seat has another player.
pub const FORMER_FILE: &str = "mail/replaced/former.json";

/// A player who was replaced.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Former {
    pub seat: String,
    pub name: String,
    pub email: String,
    /// The first turn the seat's new player plays.
    pub from_turn: u32,
}

impl Former {
    /// The key of the one answer a replaced player gets: one per replacement, whatever
    /// comes from their address (the outbox never queues a key twice).
    pub fn answer_key(&self) -> String {
        format!("former-{}-{:03}", self.seat, self.from_turn)
    }
}

/// Every player replaced so far, the first first.
pub fn formers(archive: &Archive) -> Result<Vec<Former>, Error> {
    let path = archive.root().join(FORMER_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map_err(|e| Error::input(format!("{}: {e}", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(source) => Err(ArchiveError::Io { path, source }.into()),
    }
}

/// The replaced player who wrote from `from`, if one did (the last replaced from it):
/// `None` for an address that plays in the game now.
pub fn former(archive: &Archive, from: Option<&str>) -> Result<Option<Former>, Error> {
    let Some(from) = from.map(str::trim).filter(|f| !f.is_empty()) else {
        return Ok(None);
    };
    if archive
        .game
        .players
        .iter()
        .any(|p| p.email.trim().eq_ignore_ascii_case(from))
    {
        return Ok(None);
    }
    Ok(formers(archive)?
        .into_iter()
        .rev()
        .find(|f| f.email.eq_ignore_ascii_case(from)))
}

fn remember(archive: &Archive, former: Former) -> Result<(), Error> {
    let mut all = formers(archive)?;
    all.push(former);
    let path = archive.root().join(FORMER_FILE);
    let text = crate::json::stable_json(&all).map_err(|e| Error::input(e.to_string()))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|source| ArchiveError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    crate::archive::atomic::write_file(&path, text.as_bytes())?;
    Ok(())
}

/// The name of the notice that tells who took over `seat`.
fn notice_name(seat: &str) -> String {
    format!("replace-{seat}")
}

/// Where the orders a replaced player left are set aside, for the GM (out of git).
pub const SET_ASIDE_DIR: &str = "mail/replaced";

/// The files the player of `seat` has on record: what each is, and where.
fn left_on_record(
    archive: &Archive,
    seat: &str,
) -> Result<Vec<(&'static str, std::path::PathBuf)>, Error> {
    let root = archive.root();
    let mut out = Vec::new();
    let standing = root.join(STANDING_DIR).join(format!("{seat}.txt"));
    if standing.is_file() {
        out.push(("standing orders", standing));
    }
    let pending = archive.pending_dir().join(format!("{seat}.txt"));
    if pending.is_file() {
        out.push(("orders for the coming turn", pending));
    }
    let held = root.join(HELD_DIR);
    let mine = format!("-{seat}.txt");
    match std::fs::read_dir(&held) {
        Ok(rd) => {
            let mut names: Vec<_> = rd
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.ends_with(&mine))
                })
                .collect();
            names.sort();
            out.extend(
                names
                    .into_iter()
                    .map(|p| ("late orders held for a later turn", p)),
            );
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(source) => return Err(ArchiveError::Io { path: held, source }.into()),
    }
    Ok(out)
}

/// Move what [`left_on_record`] found into [`SET_ASIDE_DIR`], named by the seat and the
/// turn it was replaced in.
fn set_aside(
    archive: &Archive,
    seat: &str,
    turn: u32,
    left: &[(&'static str, std::path::PathBuf)],
) -> Result<(), Error> {
    let dir = archive.root().join(SET_ASIDE_DIR);
    for (_, path) in left {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let kind = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let to = dir.join(format!("{seat}-turn-{turn:03}-{kind}-{name}"));
        let io = |source| ArchiveError::Io {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(&dir).map_err(io)?;
        std::fs::rename(path, &to).map_err(io)?;
    }
    Ok(())
}
