//! The moments the pipeline posts a notice for, each queued once ([`super::queue`]):
//! a turn played, the deadline near, the game over, a seat open for a replacement, a
//! game open for sign-up. Every notice is made only of what everyone may know (the
//! turn's public report, the game's name, its seats, its deadline), and, for one
//! player's own webhook, of what that player may know of their own seat: whose orders
//! are missing is said to everyone only where the game says everyone may know it
//! ([`Game::orders_in_public`], the decision `status` by mail makes), else to each
//! player alone of their own.

use std::time::SystemTime;

use super::payload::Notice;
use super::queue::{self, Target};
use crate::archive::Archive;
use crate::archive::schedule::shown;
use crate::archive::schema::NotifyEvent;
use crate::pbem::error::Error;
use crate::pbem::game::Game;
use crate::pbem::preferences::Preferences;

/// The players with a webhook of their own, where the game lets players have one.
fn player_hooks(archive: &Archive) -> Result<Vec<String>, Error> {
    if archive
        .notify()
        .and_then(|n| n.players)
        .is_some_and(|allowed| !allowed)
    {
        return Ok(Vec::new());
    }
    Ok(Preferences::load(archive)?.with_webhooks())
}

/// Whether the game's own webhook takes notices of `event`.
fn game_wants(archive: &Archive, event: NotifyEvent) -> bool {
    archive
        .notify()
        .is_some_and(|n| n.url.is_some() && n.wants(event))
}

/// Queue `n` for the game's webhook, if it takes the event. A line for the GM if queued.
fn to_game(archive: &Archive, n: &Notice, lines: &mut Vec<String>) -> Result<(), Error> {
    if game_wants(archive, n.event) && queue::queue(archive, Target::Game, n.clone())? {
        lines.push(format!("notice queued: {}", queue::key(&Target::Game, n)));
    }
    Ok(())
}

/// The address of a turn's page on the game's site, if it has one (`[mail] site`).
pub fn turn_link(archive: &Archive, turn: u32) -> Option<String> {
    archive.mail().and_then(|m| m.site.as_deref()).map(|site| {
        format!(
            "{}/{}",
            site.trim_end_matches('/'),
            crate::site::turn_file(turn)
        )
    })
}

fn notice(archive: &Archive, game: &dyn Game, event: NotifyEvent, turn: u32) -> Notice {
    Notice {
        event,
        game: archive.name(),
        title: game.title().to_string(),
        turn,
        summary: String::new(),
        link: None,
        deadline: None,
        missing: Vec::new(),
        seats: Vec::new(),
    }
}

/// `text` up to the section headed `heading` (its heading's words, without its
/// numbering, underlined with `=`), with a line saying the rest is at the link; all of
/// it when it has no such section.
pub fn before_section(text: &str, heading: Option<&str>) -> String {
    let Some(heading) = heading else {
        return text.to_string();
    };
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.windows(2).position(|w| {
        let h = w[0].trim();
        let underlined = w[1].trim().len() >= 3 && w[1].trim().chars().all(|c| c == '=');
        underlined && (h == heading || h.ends_with(&format!(" {heading}")))
    });
    match at {
        Some(i) if i > 0 => format!(
            "{}\n\n({} and the rest of the report: on the turn's page.)",
            lines[..i].join("\n").trim_end(),
            heading
        ),
        _ => text.to_string(),
    }
}

/// Turn `turn` was played: its public summary and link to everyone's webhooks, and the
/// game's end if it ended.
pub fn turn_played(
    archive: &Archive,
    game: &dyn Game,
    turn: u32,
    lines: &mut Vec<String>,
) -> Result<(), Error> {
    let players = player_hooks(archive)?;
    let game_hook =
        game_wants(archive, NotifyEvent::Turn) || game_wants(archive, NotifyEvent::Over);
    if turn == 0 || (players.is_empty() && !game_hook) {
        return Ok(());
    }
    let report = crate::pbem::report::of_turn(archive, game, turn)?;
    let mut n = notice(archive, game, NotifyEvent::Turn, turn);
    // The report for everyone (no viewer): never a player's own part; up to its map,
    // which a chat cannot draw (the link shows it).
    n.summary = before_section(&report.digest(None)?, report.map_section());
    n.link = turn_link(archive, turn);
    let mut all = vec![n.clone()];
    if let Some(why) = crate::pbem::stage::position(archive, game, turn)?.over() {
        let mut over = notice(archive, game, NotifyEvent::Over, turn);
        over.summary = format!("The game is over: {why}.");
        over.link = n.link.clone();
        all.push(over);
    }
    for n in &all {
        to_game(archive, n, lines)?;
        for seat in &players {
            queue::queue(archive, Target::Player(seat.clone()), n.clone())?;
        }
    }
    Ok(())
}

/// The deadline of turn `next` is near (the time `[schedule] remind` says): the game's
/// webhook is told whose orders are `missing` where everyone may know it (and only if
/// someone's are), else only that the turn is due; each missing player's own webhook
/// is told of their own.
pub fn deadline_near(
    archive: &Archive,
    game: &dyn Game,
    missing: &[String],
    next: u32,
    now: SystemTime,
    lines: &mut Vec<String>,
) -> Result<(), Error> {
    let Some(before) = archive.game.schedule.as_ref().and_then(|s| s.remind()) else {
        return Ok(());
    };
    let players = player_hooks(archive)?;
    if players.is_empty() && !game_wants(archive, NotifyEvent::Deadline) {
        return Ok(());
    }
    if crate::pbem::stage::waiting(archive).is_some() {
        return Ok(());
    }
    let Some(deadline) = crate::pbem::due::deadline(archive, game, next)? else {
        return Ok(());
    };
    if now >= deadline || deadline.duration_since(now).is_ok_and(|left| left > before) {
        return Ok(());
    }
    // Whose orders are in is what `status` by mail says: a file filed counts as in,
    // whatever its errors (they are its player's business; a file waiting for a
    // correction must not tell anyone else it had some).
    let missing: Vec<String> = missing
        .iter()
        .filter(|s| !archive.pending_dir().join(format!("{s}.txt")).is_file())
        .cloned()
        .collect();
    let missing = missing.as_slice();
    let mut n = notice(archive, game, NotifyEvent::Deadline, next);
    n.deadline = Some(shown(deadline));
    if game.orders_in_public() {
        if !missing.is_empty() {
            n.missing = missing.to_vec();
            n.summary = format!("Orders are not in yet from {}.", missing.join(", "));
            to_game(archive, &n, lines)?;
        }
    } else {
        n.summary = "Orders are due soon.".to_string();
        to_game(archive, &n, lines)?;
    }
    for seat in players.iter().filter(|s| missing.contains(s)) {
        let mut own = n.clone();
        own.missing = vec![seat.clone()];
        own.summary = format!("Your orders ({seat}) are not in yet.");
        queue::queue(archive, Target::Player(seat.clone()), own)?;
    }
    Ok(())
}

/// `seat`'s seat is open for a replacement, after turn `turn`.
pub fn seat_open(
    archive: &Archive,
    game_title: &str,
    seat: &str,
    turn: u32,
    lines: &mut Vec<String>,
) -> Result<(), Error> {
    let n = Notice {
        event: NotifyEvent::SeatOpen,
        game: archive.name(),
        title: game_title.to_string(),
        turn,
        summary: format!(
            "The seat {seat} is open for a new player: ask the GM of {} to take it.",
            archive.name()
        ),
        link: None,
        deadline: None,
        missing: Vec::new(),
        seats: vec![seat.to_string()],
    };
    to_game(archive, &n, lines)
}

/// The game is open for sign-up, with seats free: once.
pub fn signup_open(
    archive: &Archive,
    game: &dyn Game,
    lines: &mut Vec<String>,
) -> Result<(), Error> {
    let free: Vec<String> = archive
        .game
        .free_seats()
        .into_iter()
        .map(str::to_string)
        .collect();
    if free.is_empty() || crate::pbem::stage::started(archive) {
        return Ok(());
    }
    let mut n = notice(archive, game, NotifyEvent::Signup, 0);
    n.summary = format!(
        "To play, mail the judge{} one line: join {} as YOUR NAME",
        archive
            .mail()
            .map_or(String::new(), |m| format!(" ({})", m.from)),
        archive.name()
    );
    n.seats = free;
    to_game(archive, &n, lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_stops_before_the_map_section() {
        let text =
            "BANNER\n\nI. Moves\n========\n  red moved\n\nII. The map\n===========\n  /\\_/\\\n";
        let s = before_section(text, Some("The map"));
        assert_eq!(
            s,
            "BANNER\n\nI. Moves\n========\n  red moved\n\n(The map and the rest of the report: on the turn's page.)"
        );
        assert_eq!(before_section(text, None), text);
        assert_eq!(before_section(text, Some("Nowhere")), text);
    }
}
