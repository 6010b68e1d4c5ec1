//! Where a game stands (the pipeline's read side): begun or not, the
//! round by mail before turn 0, the position of the last turn (named as game.toml names
//! the players now), and why it waits. Read by the actions (intake, turn, commands by
//! mail, the site); it uses none of them.

use super::error::Error;
use super::game::{Checked, Game, GameError, Header, OrderFile, Played, Position, Round, Seat};
use super::layout::{ROUND_FILE, SETUP_DIR};
use super::record::{step_dir, steps};
use crate::archive::{Archive, PUBLIC_FILE, STATE_FILE};
use crate::diagnostic::Diagnostic;

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
    let seats = match round_standing(archive, game).ok()? {
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
    if !started(archive) {
        return Ok(Box::new(Unstarted::of(archive)));
    }
    if let Some((_, r)) = round_standing(archive, game)? {
        return Ok(Box::new(RoundPosition(r)));
    }
    let last = archive.pick_turn(None)?;
    // Named as game.toml names the players now: a newcomer from the replacement on.
    let kept = position(archive, game, last)?;
    let names = new_names(archive, kept.as_ref());
    Ok(named(game, kept, &names)?.0)
}

/// The seats game.toml names otherwise than `position` does (a
/// seat taken over with `judge replace`, a name the GM corrected): seat → name.
pub fn new_names(
    archive: &Archive,
    position: &dyn super::game::Position,
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

/// `position` with the players of these seats named anew ([`super::game::Position::renamed`]),
/// and its JSON (`None` when nothing changed, or the game keeps no names).
pub fn named(
    game: &dyn Game,
    position: Box<dyn super::game::Position>,
    names: &std::collections::BTreeMap<String, String>,
) -> Result<(Box<dyn super::game::Position>, Option<String>), Error> {
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
    if let Some((_, r)) = round_standing(archive, game)? {
        return Ok((Box::new(RoundPosition(r)), None));
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

/// Has the game begun (turn 0, or the round by mail before it)?
pub fn started(archive: &Archive) -> bool {
    archive.root().join("turns").join("000").is_dir() || archive.root().join(SETUP_DIR).is_dir()
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
            why: waiting(archive).unwrap_or_else(|| "the game has not begun".into()),
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

/// A round as it stands: its last step's number, and the round.
pub type Standing = (u32, Box<dyn Round>);

/// The round as it stands, while the game has no turn 0 yet. `None` once the game has
/// begun (or never had a round).
pub fn round_standing(archive: &Archive, game: &dyn Game) -> Result<Option<Standing>, Error> {
    let Some((last, text)) = round_text(archive)? else {
        return Ok(None);
    };
    let path = step_dir(archive, last).join(ROUND_FILE);
    let round = game
        .round(&text)
        .map_err(|e| Error::from(e.context(path.display())))?;
    Ok(Some((last, round)))
}

/// The round as it stands, as the archive keeps it (JSON): its last step's number and
/// `round.json`. `None` once the game has begun (or never had a round).
pub fn round_text(archive: &Archive) -> Result<Option<(u32, String)>, Error> {
    if archive.turn_dir(0).exists() {
        return Ok(None);
    }
    let Some(last) = steps(archive).last().copied() else {
        return Ok(None);
    };
    let path = step_dir(archive, last).join(ROUND_FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| {
        Error::Archive(crate::archive::ArchiveError::Io {
            path: path.clone(),
            source,
        })
    })?;
    Ok(Some((last, text)))
}

/// A round seen as the position the game is at, so that mail is checked and filed for it
/// as for a turn.
pub struct RoundPosition(pub Box<dyn Round>);

impl super::game::Position for RoundPosition {
    fn turn(&self) -> u32 {
        0
    }

    fn next_label(&self) -> String {
        "the set-up round".into()
    }

    fn over(&self) -> Option<String> {
        None
    }

    fn seats(&self) -> Vec<super::game::Seat> {
        self.0.seats()
    }

    fn header(&self, text: &str) -> super::game::Header {
        self.0.header(text)
    }

    /// Choices are for the round, before turn 1: `turn 0` or no turn line.
    fn fits_turn(&self, turn: u32) -> Option<super::game::Mismatch> {
        (turn != 0).then_some(super::game::Mismatch::LaterTurn(turn))
    }

    fn awaited(&self, files: &[super::game::OrderFile]) -> Vec<String> {
        self.0
            .next()
            .filter(|n| !files.iter().any(|f| &f.player == n))
            .into_iter()
            .collect()
    }

    fn check(
        &self,
        text: &str,
        file: &str,
        player: Option<&str>,
        game: Option<&str>,
    ) -> super::game::Checked {
        self.0.check(text, file, player, game)
    }

    fn play(
        &self,
        _files: &[super::game::OrderFile],
        _luck: &crate::luck::Luck,
    ) -> Result<super::game::Played, super::game::GameError> {
        Err(super::game::GameError::internal(
            "the set-up round is played a choice at a time, not as a turn",
        ))
    }

    fn show(&self, title: &str) -> String {
        format!("{title}\n\n{}", self.0.show())
    }

    fn template(&self, _seat: &str) -> String {
        let g = self.0.guide();
        format!(
            "# The set-up round: {}. When it is your turn, {}:\n{}\n",
            g.what, g.how, g.example
        )
    }
}
