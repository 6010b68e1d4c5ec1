//! A game open for sign-up (`judge new --open`, docs/mail-commands.md "Sign-up"): it is
//! made with free seats (seats without an address in game.toml) and no turn 0. Each
//! `join GAME as NAME` by mail takes the next free seat, under the game's lock, read
//! again from the disk: a seat is never taken twice. When the last is taken, turn 0 is
//! made from the scenario and the game's seeds, with every player's name, and every
//! player is mailed the game as it begins.

use std::time::SystemTime;

use super::Error;
use super::game::{
    Checked, Game, GameError, Header, OrderFile, Played, Position, RoundGuide, Seat, SeatRequest,
    Seeds, Start,
};
use crate::archive::{Archive, PUBLIC_FILE, SCENARIO_FILE, STATE_FILE, atomic};
use crate::diagnostic::Diagnostic;

/// Has the game begun (turn 0, or the round by mail before it)?
pub fn started(archive: &Archive) -> bool {
    archive.root().join("turns").join("000").is_dir()
        || archive.root().join(super::round::SETUP_DIR).is_dir()
}

/// The files that begin a game, under its folder: turn 0's state (and public record),
/// or the first step of its round by mail. With the round's first chooser and guide.
pub struct Beginning {
    pub files: Vec<(String, Vec<u8>)>,
    pub round: Option<(String, RoundGuide)>,
}

/// What `game.start` made, as the files a game begins with.
pub fn beginning(game: &dyn Game, start: &Start, now: SystemTime) -> Result<Beginning, Error> {
    Ok(match start {
        Start::Ready(state) => {
            let mut files = vec![(
                format!("turns/000/{STATE_FILE}"),
                state.clone().into_bytes(),
            )];
            let position = game.position(state).map_err(Error::from)?;
            if let Some(public) = position.public_record() {
                files.push((format!("turns/000/{PUBLIC_FILE}"), public.into_bytes()));
            }
            Beginning { files, round: None }
        }
        Start::Round(round) => {
            let r = game.round(round).map_err(Error::from)?;
            Beginning {
                files: super::round::start_files(round, now)?,
                round: r.next().map(|first| (first, r.guide())),
            }
        }
    })
}

/// Begin an open game whose seats are all taken: turn 0 from its scenario and seeds,
/// with the players game.toml names. Written beside the game and moved into place in
/// one step, so that a game is begun whole or not at all.
pub fn begin(archive: &Archive, game: &dyn Game, now: SystemTime) -> Result<(), Error> {
    let scenario = std::fs::read_to_string(archive.root().join(SCENARIO_FILE))
        .map_err(|e| Error::input(format!("{SCENARIO_FILE}: {e}")))?;
    let seats: Vec<SeatRequest> = archive
        .game
        .players
        .iter()
        .map(|p| SeatRequest {
            name: p.name.clone(),
            email: p.email.clone(),
        })
        .collect();
    let seeds: Seeds = archive.seeds()?;
    let created = game
        .start(SCENARIO_FILE, &scenario, &archive.name(), &seats, &seeds)
        .map_err(Error::from)?;
    let b = beginning(game, &created.start, now)?;
    let stage = archive.root().join(".beginning");
    let _ = std::fs::remove_dir_all(&stage);
    let mut top = None;
    for (name, bytes) in &b.files {
        atomic::write_file(&stage.join(name), bytes)?;
        top = name.split('/').next().map(str::to_string);
    }
    let Some(top) = top else {
        return Err(Error::input("the game's start made no files"));
    };
    let to = archive.root().join(&top);
    std::fs::rename(stage.join(&top), &to).map_err(|source| crate::archive::ArchiveError::Io {
        path: to.clone(),
        source,
    })?;
    let _ = std::fs::remove_dir_all(&stage);
    Ok(())
}

/// The header lines every game reads alike (`game`, `player`, `turn`, `secret`, each
/// with an optional `:` or `=`), for a game that has not begun and so has no position
/// to read them.
pub fn plain_header(text: &str) -> Header {
    let mut h = Header::default();
    for line in text.lines() {
        let clean: String = line.chars().filter_map(crate::text::plain).collect();
        let mut it = clean
            .trim()
            .splitn(2, |c: char| c.is_whitespace() || c == ':' || c == '=');
        let key = it.next().unwrap_or("").to_ascii_lowercase();
        let value = it
            .next()
            .unwrap_or("")
            .trim_start_matches([':', '=', ' ', '\t'])
            .trim()
            .to_string();
        if value.is_empty() {
            continue;
        }
        match key.as_str() {
            "game" => h.game = Some(value.to_ascii_lowercase()),
            "player" => h.player = Some(value.to_ascii_lowercase()),
            "turn" => h.turn = value.parse().ok(),
            "secret" => h.secret = Some(value),
            _ => {}
        }
    }
    h
}

/// A game open for sign-up seen as a position: its seats as game.toml has them, and
/// no orders yet.
pub struct Unstarted {
    pub seats: Vec<Seat>,
    /// Why it waits, in a sentence.
    pub why: String,
}

impl Unstarted {
    pub fn of(archive: &Archive) -> Unstarted {
        Unstarted {
            seats: archive
                .game
                .players
                .iter()
                .map(|p| Seat {
                    id: p.id.clone(),
                    name: p.name.clone(),
                    email: p.email.clone(),
                })
                .collect(),
            why: super::waiting(archive).unwrap_or_else(|| "the game has not begun".into()),
        }
    }
}

impl Position for Unstarted {
    fn turn(&self) -> u32 {
        0
    }
    fn over(&self) -> Option<String> {
        None
    }
    fn next_label(&self) -> String {
        "the first turn".into()
    }
    fn seats(&self) -> Vec<Seat> {
        self.seats.clone()
    }
    fn header(&self, text: &str) -> Header {
        plain_header(text)
    }
    fn check(&self, _text: &str, file: &str, player: Option<&str>, _game: Option<&str>) -> Checked {
        let d = Diagnostic::new(format!(
            "the game has not begun: {}; orders are taken once it has",
            self.why
        ));
        Checked {
            player: player.map(str::to_string),
            turn: 1,
            text: format!("{file}: {}\n", d.message),
            diagnostics: vec![d],
            echo: serde_json::Value::Null,
        }
    }
    fn play(&self, _files: &[OrderFile], _luck: &crate::luck::Luck) -> Result<Played, GameError> {
        Err(GameError::input(format!(
            "the game has not begun: {}",
            self.why
        )))
    }
    fn show(&self, title: &str) -> String {
        format!("{title}\n\nThe game has not begun: {}.\n", self.why)
    }
}

/// `join GAME as NAME` by mail: the next free seat for the sender's address, with a
/// new secret sent at once in the welcome mail (and nowhere else). The game is read
/// again from the disk, under the lock the caller holds: two joins never get one seat.
/// For the log, the answer, and the seat taken.
pub fn join(
    ctx: &super::by_mail::Ctx<'_>,
    who: super::by_mail::Who<'_>,
    wanted: &str,
    name: &str,
) -> Result<(String, String, Option<String>), Error> {
    use super::by_mail::Who;
    let here = ctx.archive.name();
    if !wanted.eq_ignore_ascii_case(&here) {
        return Ok((
            format!("join {wanted}: refused (this is {here})"),
            format!("This mail came to {here}, not {wanted}: nothing was done."),
            None,
        ));
    }
    let address = match who {
        Who::Player(p) => {
            return Ok((
                "join: refused (plays already)".into(),
                format!("You play {} in {here} already.", p.id),
                None,
            ));
        }
        Who::Gm(_) => {
            return Ok((
                "join: refused (the GM)".into(),
                "The GM's address cannot take a seat: join from the address you will play from."
                    .into(),
                None,
            ));
        }
        Who::Stranger(a) => a.trim().to_string(),
    };
    if crate::archive::check_address(&address).is_err() {
        return Ok((
            "join: refused (address)".into(),
            "The judge cannot mail your address: nothing was done.".into(),
            None,
        ));
    }
    let mut fresh = Archive::open(ctx.archive.root())?;
    if let Some(p) = fresh
        .game
        .players
        .iter()
        .find(|p| p.email.trim().eq_ignore_ascii_case(&address))
    {
        return Ok((
            "join: refused (plays already)".into(),
            format!("You play {} in {here} already.", p.id),
            None,
        ));
    }
    let Some(free) = fresh.game.players.iter().position(|p| p.is_free()) else {
        return Ok((
            "join: refused (full)".into(),
            format!(
                "{here} is full: every seat is taken, so you could not join. Ask the GM whether another game is open."
            ),
            None,
        ));
    };
    let secret = crate::mail::secret::generate();
    let hash = crate::mail::secret::hash(&secret)
        .map_err(|e| Error::input(format!("the secret could not be made: {e}")))?;
    let mut file = fresh.game.clone();
    let seat = file.players[free].id.clone();
    file.players[free].name = name.to_string();
    file.players[free].email = address.clone();
    file.players[free].secret_hash = Some(hash);
    file.validate()
        .map_err(|slip| Error::input(slip.to_string()))?;
    fresh.save_game_file(file)?;
    let left = fresh.game.free_seats().len();
    let began = left == 0;
    if began {
        begin(&fresh, ctx.game, ctx.now)?;
    }
    // The welcome, with the secret: sent now, never queued (the kept copy blanks it).
    let welcome = super::welcome::mail(&fresh, ctx.game, &seat, Some(&secret))?;
    let kept = crate::mail::outbox::Outgoing {
        body: welcome.body.replace(&secret, crate::mail::redact::BLANK),
        ..welcome.clone()
    };
    let sent = crate::mail::outbox::send_now(&fresh, &welcome, &kept);
    // The others learn that the game began, each with the game as it stands.
    if began {
        tell_begun(&fresh, ctx.game, Some(&seat))?;
    }
    let begun = if began {
        " Every seat is taken now: the game begins, and every player is mailed the game as it stands."
    } else {
        ""
    };
    Ok(match sent {
        Ok(()) => (
            format!(
                "join: took {seat}{}",
                if began { "; the game began" } else { "" }
            ),
            format!(
                "You have the seat {seat} in {here}. Your welcome mail, with your secret, comes in a mail of its own.{begun}"
            ),
            Some(seat),
        ),
        Err(e) => (
            format!("join: took {seat}, the welcome was not sent ({e})"),
            format!(
                "You have the seat {seat} in {here}, but the mail with your secret could not be sent ({e}): ask the GM to send you a new one (judge secret --mail).{begun}"
            ),
            Some(seat),
        ),
    })
}

/// Mail every player but `except` the game as it begins (no secret in it).
fn tell_begun(archive: &Archive, game: &dyn Game, except: Option<&str>) -> Result<(), Error> {
    for p in archive
        .game
        .players
        .iter()
        .filter(|p| Some(p.id.as_str()) != except)
    {
        let m = super::welcome::mail(archive, game, &p.id, None)?;
        crate::mail::outbox::queue_unless_unaddressable(archive, &m)?;
    }
    Ok(())
}

/// The GM's `start`: begin a game open for sign-up with the seats taken so far (the
/// free ones are given up), if the game can be played by that many.
pub fn start(archive: &Archive, game: &dyn Game, now: SystemTime) -> Result<String, Error> {
    let mut fresh = Archive::open(archive.root())?;
    if started(&fresh) {
        return Err(Error::input("the game has begun already"));
    }
    let mut file = fresh.game.clone();
    let given_up: Vec<String> = file.free_seats().into_iter().map(str::to_string).collect();
    file.players.retain(|p| !p.is_free());
    // Tried first, in memory: a game that cannot be played by so few is left as it is.
    let scenario = std::fs::read_to_string(fresh.root().join(SCENARIO_FILE))
        .map_err(|e| Error::input(format!("{SCENARIO_FILE}: {e}")))?;
    let seats: Vec<SeatRequest> = file
        .players
        .iter()
        .map(|p| SeatRequest {
            name: p.name.clone(),
            email: p.email.clone(),
        })
        .collect();
    game.start(
        SCENARIO_FILE,
        &scenario,
        &fresh.name(),
        &seats,
        &fresh.seeds()?,
    )
    .map_err(|e| {
        Error::input(format!(
            "it cannot begin with {}: {}",
            crate::text::count(seats.len(), "player"),
            e.message
        ))
    })?;
    file.validate()
        .map_err(|slip| Error::input(slip.to_string()))?;
    fresh.save_game_file(file)?;
    begin(&fresh, game, now)?;
    tell_begun(&fresh, game, None)?;
    Ok(if given_up.is_empty() {
        "every seat was taken".to_string()
    } else {
        format!("the free seats ({}) are given up", given_up.join(", "))
    })
}

/// The welcome of a player who joined a game that waits for more: their seat and
/// secret; the game as it stands comes when it begins.
pub fn waiting_welcome(
    archive: &Archive,
    game: &dyn Game,
    p: &crate::archive::PlayerEntry,
    secret: &str,
    left: usize,
) -> crate::mail::outbox::Outgoing {
    let name = archive.name();
    let seat = &p.id;
    crate::mail::outbox::Outgoing {
        key: format!(
            "welcome-{seat}-{}",
            crate::archive::content_id(p.email.as_bytes())
        ),
        to_name: p.name.clone(),
        to: p.email.clone(),
        subject: format!("[{name}] welcome: you play {seat}"),
        body: format!(
            "Welcome to {name}, a game of {} played by mail.\n\n\
             You play {seat}. Your secret is:\n\n    {secret}\n\n\
             Keep it to yourself: it goes on the `secret` line of every order mail, and tells \
             the judge the mail is yours. The judge keeps only a salted hash of it and never \
             sends it again; if you lose it, ask the GM for a new one.\n\n\
             The game begins when every seat is taken ({} still free). You are mailed then, \
             with the game as it stands and when your first orders are due. Meanwhile you may \
             mail the judge `help`, `status` or `press to all: …` (with your secret).\n",
            game.title(),
            crate::text::count(left, "seat")
        ),
        in_reply_to: None,
        attachment: None,
    }
}

/// The seats of a game not begun, a line each: who took it, or `free` (with the
/// players' addresses, for the GM).
pub fn seat_lines(archive: &Archive, addresses: bool) -> Vec<String> {
    archive
        .game
        .players
        .iter()
        .map(|p| match (p.is_free(), addresses) {
            (true, _) => format!("  {:<7} free", p.id),
            (false, true) => format!("  {:<7} {:<12} {}", p.id, p.name, p.email),
            (false, false) => format!("  {:<7} {}", p.id, p.name),
        })
        .collect()
}

/// The announcement of a game open for sign-up, for the GM to post.
pub fn announcement(archive: &Archive, game: &dyn Game) -> String {
    let name = archive.name();
    let free = archive.game.free_seats();
    let to = archive
        .mail()
        .map_or("the judge's address".to_string(), |m| m.from.clone());
    format!(
        "{name}: a game of {} by mail, open for sign-up ({} free: {}).\n\nTo play, mail {to} one line:\n\n    join {name} as YOUR NAME\n\nThe judge answers at once with your seat and your secret. The game begins when\nevery seat is taken; a game that is full answers so.\n",
        game.title(),
        crate::text::count(free.len(), "seat"),
        free.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_header_reads_each_line_as_games_do() {
        let h = plain_header("Game: Island\nplayer = red\nturn 1\nsecret  a b\nmove x\n");
        assert_eq!(h.game.as_deref(), Some("island"));
        assert_eq!(h.player.as_deref(), Some("red"));
        assert_eq!(h.turn, Some(1));
        assert_eq!(h.secret.as_deref(), Some("a b"));
    }
}
