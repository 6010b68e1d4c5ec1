//! How a game stands, for the GM (`judge status`) and for a player (`status` by mail):
//! the turn, the deadline, and whose orders are in. A player sees whether each seat's
//! orders are in where the game makes that public ([`Game::orders_in_public`]: a game
//! whose turns are played together), else only whether their own are (a game with
//! hidden hands, played a player at a time), and never what another's say:
//! their own file is the only one they are shown.

use super::error::Error;
use super::game::{Game, Position};
use super::log::{Log, Outcome};
use crate::archive::schedule::shown;
use crate::archive::{Archive, PENDING_DIR, STANDING_DIR};
use crate::mail::outbox;
use crate::text::count;

/// One seat's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatLine {
    pub id: String,
    pub name: String,
    /// Whether the seat's orders for the next turn are in, and since when (empty once
    /// the game is over).
    pub what: String,
    /// The seat has no secret yet (shown to the GM only).
    pub no_secret: bool,
}

/// Every seat's line for the next turn, `next`.
pub fn seats(archive: &Archive, state: &dyn Position, next: u32, log: &Log) -> Vec<SeatLine> {
    let over = state.over().is_some();
    let last = next.saturating_sub(1);
    state
        .seats()
        .into_iter()
        .map(|seat| {
            let has = |d: &str| {
                archive
                    .root()
                    .join(d)
                    .join(format!("{}.txt", seat.id))
                    .is_file()
            };
            // The mail the file in pending/ came from: the last accepted for this turn, or
            // late orders held for it (None: the errors were not counted then).
            let filed = log.entries.iter().rev().find_map(|e| match &e.outcome {
                Outcome::Accepted {
                    player,
                    turn,
                    errors,
                    ..
                } if player == &seat.id && *turn == next => Some((e, Some(*errors))),
                Outcome::Held { player, turn } if player == &seat.id && *turn == next => {
                    Some((e, None))
                }
                _ => None,
            });
            let mut what = if over {
                String::new()
            } else if has(PENDING_DIR) {
                match filed {
                    Some((e, errors)) => format!(
                        "orders in, {}arrived {}{}",
                        if errors.is_none() {
                            format!("held after turn {last}'s deadline, ")
                        } else {
                            String::new()
                        },
                        e.arrived
                            .as_deref()
                            .and_then(|a| humantime::parse_rfc3339_weak(a).ok())
                            .map_or("at an unknown time".to_string(), shown),
                        errors.map_or(String::new(), |n| format!(", {}", count(n, "error")))
                    ),
                    None => "orders in (put there by hand)".to_string(),
                }
            } else if has(STANDING_DIR) {
                "no new orders; standing orders will be played".to_string()
            } else {
                "no orders yet".to_string()
            };
            if outbox::known(archive, &format!("remind-{next:03}-{}", seat.id)) {
                what.push_str("; reminded");
            }
            let no_secret = archive
                .game
                .players
                .iter()
                .find(|p| p.id == seat.id)
                .is_none_or(|p| p.secret_hash.is_none());
            // The name game.toml gives the seat now: a newcomer's from the replacement
            // on.
            let name = archive
                .game
                .players
                .iter()
                .find(|p| p.id == seat.id && !p.is_free())
                .map_or(seat.name, |p| p.name.clone());
            SeatLine {
                id: seat.id,
                name,
                what,
                no_secret: no_secret && !over,
            }
        })
        .collect()
}

/// The game as `seat` may see it, for the answer to `status` by mail: the turn, the
/// deadline, whose orders are in (not what they say; in a game where that is each
/// player's own business, only whether `seat`'s are), and their own file as filed.
/// `seat` empty: the GM, who is told every seat's line.
pub fn for_player(
    archive: &Archive,
    game: &dyn Game,
    seat: &str,
    filing: Option<&super::log::Entry>,
    now: std::time::SystemTime,
) -> Result<String, Error> {
    let name = archive.name();
    let mut out = String::new();
    if let Some(why) = super::stage::waiting(archive) {
        out.push_str(&format!("{name} ({}): {why}.\n", game.title()));
        if !super::stage::started(archive) {
            out.push_str("\nSeats:\n");
            for line in super::signup::seat_lines(archive, false) {
                out.push_str(&line);
                out.push('\n');
            }
            return Ok(out);
        }
    }
    let state = super::stage::current(archive, game)?;
    let next = state.turn() + 1;
    let over = state.over();
    out.push_str(&format!(
        "{name} ({}): {} played{}.\n",
        game.title(),
        count(state.turn() as usize, "turn"),
        if over.is_some() {
            String::new()
        } else {
            format!("; {} is next", state.next_label())
        }
    ));
    if let Some(why) = &over {
        out.push_str(&format!("The game is over: {why}.\n"));
        return Ok(out);
    }
    out.push_str(&format!("{}\n", super::due::due_line(archive, game, next)));
    if let Some(why) = super::in_hand::early_note(archive, game, state.as_ref(), now)? {
        out.push_str(&format!("{why}\n"));
    }
    let mut log = Log::load(archive)?;
    log.entries.extend(filing.cloned());
    // Whether another seat's orders are in is told to everyone where the game says so;
    // else to that seat alone, and to the GM (`seat` empty).
    let told = game.orders_in_public() || seat.is_empty();
    out.push_str(if told {
        "\nWhose orders are in:\n"
    } else {
        "\nWhether your orders are in (each player is told of their own alone):\n"
    });
    for l in seats(archive, state.as_ref(), next, &log) {
        if !told && l.id != seat {
            continue;
        }
        // Another seat's line says only whether its orders are in.
        let what = if l.id == seat {
            l.what
        } else if l.what.starts_with("orders in") {
            "orders in".to_string()
        } else if l.what.starts_with("no new orders; standing") {
            "standing orders".to_string()
        } else {
            "no orders yet".to_string()
        };
        let line = format!("  {:<7} {:<12} {what}", l.id, l.name);
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let own = archive.root().join(PENDING_DIR).join(format!("{seat}.txt"));
    match std::fs::read_to_string(&own) {
        Ok(text) => {
            out.push_str("\nYour orders as filed:\n\n");
            for l in text.trim_end().lines() {
                if l.trim().is_empty() {
                    out.push('\n');
                } else {
                    out.push_str(&format!("    {l}\n"));
                }
            }
        }
        Err(_) => out.push_str(&format!(
            "\nNo orders of yours are filed for {}.\n",
            state.next_label()
        )),
    }
    Ok(out)
}
