//! Absent players (docs/gm-guide.md, "Absent players"): what the game does for a player
//! who sends nothing, as game.toml's `[absent]` says.
//!
//! - A budget of missed turns: each turn played records whose orders it waited for and
//!   did not get (`missed` in turn.json; standing orders count as orders). Once a
//!   player has missed `missed` turns since they took their seat, the GM and the other
//!   players are told the seat is open for a replacement (`judge replace`).
//! - `grace` by mail: the next deadline moves `grace` later for everyone, at most
//!   `graces` times per player in the game.
//! - `vacation until DATE` by mail: up to `vacation` in the whole game; the player is not
//!   reminded, and a turn they miss meanwhile is not counted against them.
//! - `late_notice = "2h"`: that long before a deadline, every player is told whose
//!   orders are not in yet (once a turn).
//! - `caretaker = true`: the game's bot (`judge bot`) writes the orders of a player a
//!   turn waits for in vain; they are played, kept (`turns/NNN/orders/`, source
//!   `caretaker` in turn.json) and replayed like a player's, and the report says so.
//!
//! What was asked is kept in `absent.toml` beside game.toml (committed: everybody is
//! told of it), so that the allowances are counted from the archive alone.

use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::error::Error;
use super::game::Game;
use crate::archive::schedule::{shown, stamp};
use crate::archive::{AbsentRules, Archive, atomic};

/// `absent.toml`.
pub const LEDGER: &str = "absent.toml";

/// What players asked for, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ledger {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grace: Vec<Grace>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vacation: Vec<Vacation>,
}

/// A grace asked for: by whom, for which turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grace {
    pub seat: String,
    pub turn: u32,
}

/// A vacation: from when the player asked, until when (RFC 3339).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vacation {
    pub seat: String,
    pub from: String,
    pub until: String,
}

impl Vacation {
    fn span(&self) -> Option<(SystemTime, SystemTime)> {
        Some((
            humantime::parse_rfc3339_weak(&self.from).ok()?,
            humantime::parse_rfc3339_weak(&self.until).ok()?,
        ))
    }
}

impl Ledger {
    pub fn load(archive: &Archive) -> Result<Ledger, Error> {
        let path = archive.root().join(LEDGER);
        match std::fs::read_to_string(&path) {
            Ok(text) => toml::from_str(&text)
                .map_err(|e| Error::input(format!("{}: {}", path.display(), e.message()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Ledger::default()),
            Err(e) => Err(Error::input(format!("{}: {e}", path.display()))),
        }
    }

    fn save(&self, archive: &Archive) -> Result<(), Error> {
        let text = toml::to_string(self).map_err(|e| Error::input(e.to_string()))?;
        atomic::write_file(
            &archive.root().join(LEDGER),
            format!(
                "# What players asked for by mail: grace and vacations (docs/gm-guide.md,\n# \"Absent players\"). Written by the judge.\n\n{text}"
            )
            .as_bytes(),
        )?;
        Ok(())
    }

    /// Is `seat` on vacation at `at`?
    pub fn on_vacation(&self, seat: &str, at: SystemTime) -> bool {
        self.vacation
            .iter()
            .filter(|v| v.seat == seat)
            .filter_map(Vacation::span)
            .any(|(from, until)| from <= at && at < until)
    }

    /// How much vacation `seat` has taken (asked for) in the game.
    fn vacation_taken(&self, seat: &str) -> Duration {
        self.vacation
            .iter()
            .filter(|v| v.seat == seat)
            .filter_map(Vacation::span)
            .map(|(from, until)| until.duration_since(from).unwrap_or_default())
            .sum()
    }
}

/// A duration `[absent]` sets (`None`: the game says nothing of it).
fn setting(
    archive: &Archive,
    get: fn(&AbsentRules) -> Option<Duration>,
) -> Result<Option<Duration>, Error> {
    Ok(archive.game.absent.as_ref().and_then(get))
}

/// Ask for grace: the next deadline moves `[absent] grace` later, for everyone.
pub fn grace(
    archive: &Archive,
    game: &dyn Game,
    seat: &str,
    now: SystemTime,
) -> Result<String, Error> {
    let by = setting(archive, AbsentRules::grace)?
        .ok_or_else(|| Error::input("this game gives no grace (the GM has set none)"))?;
    let position = super::stage::current(archive, game)?;
    let next = position.turn() + 1;
    let deadline = super::due::deadline(archive, game, next)?
        .ok_or_else(|| Error::input("there is no deadline to give grace for"))?;
    if now >= deadline {
        return Err(Error::input(format!(
            "turn {next}'s deadline has passed ({}): grace is asked for before it",
            shown(deadline)
        )));
    }
    let mut ledger = Ledger::load(archive)?;
    if ledger
        .grace
        .iter()
        .any(|g| g.seat == seat && g.turn == next)
    {
        return Err(Error::input(format!(
            "you had grace for turn {next} already"
        )));
    }
    let used = ledger.grace.iter().filter(|g| g.seat == seat).count();
    let allowed = archive
        .game
        .absent
        .as_ref()
        .and_then(|a| a.graces)
        .unwrap_or(DEFAULT_GRACES);
    if used >= allowed {
        return Err(Error::input(format!(
            "you have had grace {} already, all this game allows",
            crate::text::count(used, "time")
        )));
    }
    let (next, _, new) =
        super::clock::extend_for(archive, game, by, now, &format!("{seat} asked for grace"))?;
    ledger.grace.push(Grace {
        seat: seat.to_string(),
        turn: next,
    });
    ledger.save(archive)?;
    Ok(format!(
        "Turn {next} is now due by {} ({} of grace; {} of {allowed} used). Every player is told.",
        shown(new),
        humantime::format_duration(by),
        used + 1
    ))
}

/// The graces a player may ask for in a game when `[absent]` says nothing of it.
pub const DEFAULT_GRACES: usize = 2;

/// Go on vacation until `until`.
pub fn vacation(
    archive: &Archive,
    seat: &str,
    until: SystemTime,
    now: SystemTime,
) -> Result<String, Error> {
    let allowance = setting(archive, AbsentRules::vacation)?
        .ok_or_else(|| Error::input("this game gives no vacations (the GM has set none)"))?;
    let Ok(wanted) = until.duration_since(now) else {
        return Err(Error::input(format!("{} has passed", shown(until))));
    };
    let mut ledger = Ledger::load(archive)?;
    let taken = ledger.vacation_taken(seat);
    if taken + wanted > allowance {
        let left = allowance.saturating_sub(taken);
        return Err(Error::input(format!(
            "that is more than the vacation you have left ({} of {})",
            humantime::format_duration(Duration::from_secs(left.as_secs())),
            humantime::format_duration(allowance)
        )));
    }
    ledger.vacation.push(Vacation {
        seat: seat.to_string(),
        from: stamp(now),
        until: stamp(until),
    });
    ledger.save(archive)?;
    Ok(format!(
        "You are on vacation until {}: you are not reminded, and a turn you miss meanwhile is not counted against you (your standing orders, if you have some, are played).",
        shown(until)
    ))
}

/// The turns `seat` missed since they took the seat (standing orders count as orders;
/// a turn missed on vacation does not count).
pub fn missed(archive: &Archive, seat: &str) -> Result<u32, Error> {
    let since = took_seat(archive, seat);
    let mut n = 0;
    for t in archive.turns()?.into_iter().filter(|t| *t >= since.max(1)) {
        if let Some(r) = super::record::record(archive, t)?
            && r.missed.iter().any(|m| m == seat)
        {
            n += 1;
        }
    }
    Ok(n)
}

/// The turn from which the seat's player plays it: 0, or the turn a replacement's
/// notice was kept for.
fn took_seat(archive: &Archive, seat: &str) -> u32 {
    let dir = archive.root().join(super::layout::NOTICES_DIR);
    std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join(format!("replace-{seat}.txt")).is_file())
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .max()
        .unwrap_or(0)
}

/// After a turn was played: tell the GM and the other players of each seat whose
/// player has just spent their budget of missed turns (once).
pub fn after_turn(
    archive: &Archive,
    game: &dyn Game,
    turn: u32,
    lines: &mut Vec<String>,
) -> Result<(), Error> {
    let Some(budget) = archive.game.absent.as_ref().and_then(|a| a.missed) else {
        return Ok(());
    };
    let Some(record) = super::record::record(archive, turn)? else {
        return Ok(());
    };
    let name = archive.name();
    for seat in &record.missed {
        let n = missed(archive, seat)?;
        if n != budget {
            continue;
        }
        let who = archive
            .game
            .players
            .iter()
            .find(|p| &p.id == seat)
            .map_or(seat.clone(), |p| format!("{seat} ({})", p.name));
        lines.push(format!(
            "{who} has missed {}: the seat is open for a replacement (judge replace)",
            crate::text::count(n as usize, "turn")
        ));
        let key = format!("open-seat-{seat}-{turn:03}");
        let subject = format!("[{name}] {seat}'s seat is open for a replacement");
        let body = format!(
            "{who} has sent no orders for {} of {name}, all this game allows ([absent] missed = {budget}). Their seat is open for a new player: the GM seats one with `judge replace`. Until then the seat plays what it has on record (standing orders), or nothing.\n",
            crate::text::count(n as usize, "turn")
        );
        super::clock::tell(archive, &key, &subject, &body);
        if let Err(e) = crate::notify::events::seat_open(archive, game.title(), seat, turn, lines) {
            lines.push(format!(
                "the notice of {seat}'s open seat was not queued: {e}"
            ));
        }
        if let Some(gm) = &archive.game.gm {
            crate::mail::outbox::queue_unless_unaddressable(
                archive,
                &crate::mail::outbox::Outgoing {
                    key: format!("{key}-gm"),
                    to_name: gm.name.clone(),
                    to: gm.email.clone(),
                    subject,
                    body: format!(
                        "{body}\nTo seat a new player: judge replace {} {seat} --by 'NAME:EMAIL'\n",
                        archive.root().display()
                    ),
                    in_reply_to: None,
                    attachment: None,
                },
            )?;
        }
    }
    Ok(())
}

/// The caretaker's files for the seats a turn waited for in vain (`silent`), when the
/// game says `[absent] caretaker = true` and has a bot: (seat, order file). Each is
/// told in the turn's report by a notice (written again on every try, so that a turn
/// played after a crash tells only what it played).
pub fn caretaker(
    archive: &Archive,
    state: &dyn super::game::Position,
    next: u32,
    silent: &[String],
    lines: &mut Vec<String>,
) -> Result<Vec<(String, String)>, Error> {
    let dir = archive
        .root()
        .join(super::layout::NOTICES_DIR)
        .join(format!("{next:03}"));
    for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        if e.file_name().to_string_lossy().starts_with("caretaker-") {
            let _ = std::fs::remove_file(e.path());
        }
    }
    let on = archive
        .game
        .absent
        .as_ref()
        .and_then(|a| a.caretaker)
        .unwrap_or(false);
    if !on {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for seat in silent {
        match state.bot(&archive.name(), seat) {
            None => {}
            Some(Err(e)) => lines.push(format!("the caretaker could not play for {seat}: {e}")),
            Some(Ok(text)) => {
                let who = archive
                    .game
                    .players
                    .iter()
                    .find(|p| &p.id == seat)
                    .map_or(seat.clone(), |p| format!("{seat} ({})", p.name));
                super::press::notice(
                    archive,
                    next,
                    &format!("caretaker-{seat}"),
                    &format!(
                        "The caretaker played for {who}: the turn waited for orders of theirs that did not come.{}",
                        state
                            .bot_summary(seat, &text)
                            .map_or(String::new(), |did| format!(" It did: {did}"))
                    ),
                )?;
                lines.push(format!("the caretaker played for {seat}"));
                out.push((
                    seat.clone(),
                    format!(
                        "# The caretaker's orders for {seat}, who sent none (docs/gm-guide.md, \"Absent players\").\n{text}"
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// `[absent] late_notice`: once a turn, this long before its deadline, tell every
/// player whose orders are still missing (`waiting`: the players the turn waits for
/// but those whose standing orders will be played; those on vacation are said to be).
pub fn late_notice(
    archive: &Archive,
    game: &dyn Game,
    waiting: &[String],
    next: u32,
    now: SystemTime,
    lines: &mut Vec<String>,
) -> Result<(), Error> {
    let Some(before) = setting(archive, AbsentRules::late_notice)? else {
        return Ok(());
    };
    let Some(deadline) = super::due::deadline(archive, game, next)? else {
        return Ok(());
    };
    // Whose orders are in is what `status` by mail says: a file filed is in, whatever
    // its errors (a file waiting for its player's correction must not tell everyone it
    // had some).
    let waiting: Vec<String> = waiting
        .iter()
        .filter(|s| !archive.pending_dir().join(format!("{s}.txt")).is_file())
        .cloned()
        .collect();
    let waiting = waiting.as_slice();
    let key = format!("late-{next:03}");
    if waiting.is_empty()
        || now >= deadline
        || deadline.duration_since(now).is_ok_and(|left| left > before)
        || archive
            .game
            .players
            .iter()
            .any(|p| crate::mail::outbox::known(archive, &format!("{key}-{}", p.id)))
    {
        return Ok(());
    }
    let ledger = Ledger::load(archive)?;
    let name = archive.name();
    if !game.orders_in_public() {
        // A game that tells each player alone whether their orders are in tells each
        // awaited player alone that theirs are not: nobody else
        // learns it from a notice.
        for seat in waiting {
            let Some(p) = archive.game.players.iter().find(|p| &p.id == seat) else {
                continue;
            };
            crate::mail::outbox::queue_unless_unaddressable(
                archive,
                &crate::mail::outbox::Outgoing {
                    key: format!("{key}-{seat}"),
                    to_name: p.name.clone(),
                    to: p.email.clone(),
                    subject: format!("[{name}] turn {next}: your orders are not in yet"),
                    body: format!(
                        "Turn {next} of {name} is due by {}, and your orders for it are not in yet.\n",
                        shown(deadline)
                    ),
                    in_reply_to: None,
                    attachment: None,
                },
            )?;
        }
        lines.push(format!(
            "told each player whose orders are not in, alone: {}",
            waiting.join(", ")
        ));
        return Ok(());
    }
    let who: Vec<String> = waiting
        .iter()
        .map(|seat| {
            let name = archive
                .game
                .players
                .iter()
                .find(|p| &p.id == seat)
                .map_or(seat.clone(), |p| format!("{seat} ({})", p.name));
            if ledger.on_vacation(seat, now) {
                format!("{name}, on vacation")
            } else {
                name
            }
        })
        .collect();
    super::clock::tell(
        archive,
        &key,
        &format!(
            "[{name}] turn {next}: orders not in yet from {}",
            waiting.join(", ")
        ),
        &format!(
            "Turn {next} of {name} is due by {}. Orders are not in yet from:\n\n{}\n",
            shown(deadline),
            who.iter()
                .map(|w| format!("  {w}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    );
    lines.push(format!(
        "told everyone whose orders are not in: {}",
        waiting.join(", ")
    ));
    Ok(())
}
