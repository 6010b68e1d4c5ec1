//! Filing an incoming mail: read it, authenticate it, file the orders for the next turn,
//! keep the mail, log it, and queue an answer. Every refusal is logged and answered to
//! the player's registered address, never to the From: or Reply-To: of the mail; mail
//! from an unknown address is logged and not answered. The secret is never echoed,
//! logged, or kept: it is cut from the filed orders and blanked in the kept mail.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::time::SystemTime;

use serde::Serialize;

use super::game::{Game, Mismatch};
use crate::archive::{Archive, ArchiveError, PENDING_DIR, PlayerEntry, atomic};
use crate::mail::inbound::{self, Incoming, ReadError};
use crate::mail::outbox::{self, MailError, Outgoing};
use crate::mail::secret;

pub const INBOX: &str = "mail/inbox";
pub const LOG: &str = "mail/log.jsonl";
pub const HELD: &str = "held";

/// What became of a mail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "outcome")]
pub enum Outcome {
    /// Filed as the player's orders for the turn (replacing earlier ones if any).
    Accepted {
        player: String,
        turn: u32,
        replaced: bool,
        errors: usize,
        warnings: usize,
    },
    /// Late, and kept for the turn after (the game's `late = "hold"`).
    Held { player: String, turn: u32 },
    /// Refused, with why; answered to the registered address when there is one.
    Refused {
        reason: String,
        answered: Option<String>,
    },
    /// A Message-ID already filed: ignored.
    Duplicate,
}

#[derive(Serialize)]
struct LogLine<'a> {
    seq: usize,
    message_id: &'a str,
    from: Option<&'a str>,
    subject: &'a str,
    #[serde(flatten)]
    outcome: &'a Outcome,
}

fn already_filed(archive: &Archive, message_id: &str) -> bool {
    let needle = serde_json::to_string(message_id).unwrap_or_default();
    fs::read_to_string(archive.root().join(LOG))
        .map(|log| {
            log.lines()
                .any(|l| l.contains(&format!("\"message_id\":{needle}")))
        })
        .unwrap_or(false)
}

fn next_seq(archive: &Archive) -> usize {
    fs::read_to_string(archive.root().join(LOG))
        .map(|l| l.lines().count() + 1)
        .unwrap_or(1)
}

fn log(archive: &Archive, line: &LogLine<'_>) -> Result<(), ArchiveError> {
    let path = archive.root().join(LOG);
    let io = |source| ArchiveError::Io {
        path: path.clone(),
        source,
    };
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io)?;
    }
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(io)?;
    let mut text = serde_json::to_string(line).unwrap_or_default();
    text.push('\n');
    f.write_all(text.as_bytes()).map_err(io)?;
    f.sync_all().map_err(io)
}

/// The orders with their `secret` line cut out.
fn without_secret(orders: &str) -> String {
    orders
        .lines()
        .map(|l| {
            if l.trim_start().to_ascii_lowercase().starts_with("secret") {
                "secret (checked)"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The raw mail with every plain occurrence of the secret blanked out.
fn redacted(raw: &[u8], secret: Option<&str>) -> Vec<u8> {
    let Some(s) = secret.map(str::trim).filter(|s| s.len() >= 4) else {
        return raw.to_vec();
    };
    let mut out = raw.to_vec();
    let n = s.len();
    let mut i = 0;
    while i + n <= out.len() {
        if &out[i..i + n] == s.as_bytes() {
            out[i..i + n].fill(b'*');
            i += n;
        } else {
            i += 1;
        }
    }
    out
}

fn reply(
    archive: &Archive,
    p: &PlayerEntry,
    incoming: &Incoming,
    seq: usize,
    body: String,
) -> Result<String, MailError> {
    let subject = if incoming.subject.to_ascii_lowercase().starts_with("re:") {
        incoming.subject.clone()
    } else {
        format!(
            "Re: {}",
            if incoming.subject.is_empty() {
                "your orders"
            } else {
                &incoming.subject
            }
        )
    };
    outbox::queue(
        archive,
        &Outgoing {
            key: format!("ack-{seq:06}"),
            to_name: p.name.clone(),
            to: p.email.clone(),
            subject,
            body,
            in_reply_to: Some(incoming.message_id.clone()),
            attachment: None,
        },
    )?;
    Ok(p.email.clone())
}

/// File one mail. `now` is the clock (injected, for tests).
pub fn file(
    archive: &Archive,
    game_rules: &dyn Game,
    raw: &[u8],
    now: SystemTime,
) -> Result<Outcome, MailError> {
    let seq = next_seq(archive);
    let game = archive.name();
    let incoming = match inbound::read(raw) {
        Ok(m) => m,
        Err(e) => {
            // Unreadable or too large: kept out of the archive (it may be huge), logged.
            // A too-large mail from a player is answered: its headers alone are read.
            let head = inbound::read_headers(raw);
            let player = head.as_ref().and_then(|h| h.from.as_deref()).and_then(|f| {
                archive
                    .game
                    .players
                    .iter()
                    .find(|p| p.email.eq_ignore_ascii_case(f))
            });
            let answered = match (player, &head, &e) {
                (Some(p), Some(h), ReadError::TooLarge(_)) => Some(reply(
                    archive,
                    p,
                    h,
                    seq,
                    format!(
                        "Your mail \"{}\" to the judge of {game} was refused: {e}.\n\nSend your orders as plain text in the mail, or as a small text attachment.\n",
                        h.subject
                    ),
                )?),
                _ => None,
            };
            let outcome = Outcome::Refused {
                reason: e.to_string(),
                answered,
            };
            let id = head.as_ref().map_or_else(
                || format!("<unreadable-{seq}@pbem-judge>"),
                |h| h.message_id.clone(),
            );
            let from = head.as_ref().and_then(|h| h.from.clone());
            let subject = head.as_ref().map_or(String::new(), |h| h.subject.clone());
            log(
                archive,
                &LogLine {
                    seq,
                    message_id: &id,
                    from: from.as_deref(),
                    subject: &subject,
                    outcome: &outcome,
                },
            )?;
            return Ok(outcome);
        }
    };
    if already_filed(archive, &incoming.message_id) {
        return Ok(Outcome::Duplicate);
    }
    let sender = incoming.from.as_deref().and_then(|f| {
        archive
            .game
            .players
            .iter()
            .find(|p| p.email.eq_ignore_ascii_case(f))
    });
    let orders = incoming.orders.clone().unwrap_or_default();
    let header = {
        let last = archive.pick_turn(None)?;
        super::position(archive, game_rules, last)
            .ok()
            .map(|p| (p.header(&orders), p))
    };
    let secret_given = header.as_ref().and_then(|(h, _)| h.secret.clone());
    let finish = |outcome: Outcome, kept_secret: Option<&str>| -> Result<Outcome, MailError> {
        atomic::write_file(
            &archive.root().join(INBOX).join(format!("{seq:06}.eml")),
            &redacted(raw, kept_secret),
        )?;
        log(
            archive,
            &LogLine {
                seq,
                message_id: &incoming.message_id,
                from: incoming.from.as_deref(),
                subject: &incoming.subject,
                outcome: &outcome,
            },
        )?;
        Ok(outcome)
    };
    let refuse = |why: String, to: Option<&PlayerEntry>| -> Result<Outcome, MailError> {
        let answered = match to {
            Some(p) => Some(reply(
                archive,
                p,
                &incoming,
                seq,
                format!(
                    "Your mail \"{}\" to the judge of {game} was refused: {why}.\n\nNothing from it was filed. If you did not send it, someone else used your address; your secret was not accepted.\n",
                    incoming.subject
                ),
            )?),
            None => None,
        };
        Ok(Outcome::Refused {
            reason: why,
            answered,
        })
    };
    let Some(player) = sender else {
        let o = refuse("the sender is not a player of this game".into(), None)?;
        return finish(o, secret_given.as_deref());
    };
    let Some((h, state)) = header else {
        let o = refuse(
            "the game has no state to check orders against".into(),
            Some(player),
        )?;
        return finish(o, secret_given.as_deref());
    };
    let seat = state
        .seats()
        .into_iter()
        .find(|s| s.id == player.id)
        .map(|s| s.id);
    let next = state.turn() + 1;
    use Mismatch as M;
    let mismatches = h.mismatches(Some(&game), Some(&player.id), next);
    let before_secret = mismatches.iter().find_map(|m| match m {
        M::Game(g) => Some(format!("it is for the game `{g}`, and this is {game}")),
        M::Player(p) => Some(format!(
            "the orders are for {p}, but they come from {}'s address",
            player.id
        )),
        _ => None,
    });
    let after_secret = mismatches.iter().find_map(|m| match m {
        M::EarlierTurn(t) => Some(format!(
            "the orders are for turn {t}, which is over; turn {next} is next"
        )),
        M::LaterTurn(t) => Some(format!(
            "the orders are for turn {t}, but turn {next} is next"
        )),
        _ => None,
    });
    let problem = if incoming.orders.is_none() {
        Some("no orders were found in it".to_string())
    } else if before_secret.is_some() {
        before_secret
    } else if player.secret_hash.is_none() {
        Some("no secret has been set for you yet: ask the GM".to_string())
    } else if !secret_given.as_deref().is_some_and(|s| {
        player
            .secret_hash
            .as_deref()
            .is_some_and(|hash| secret::verify(s, hash))
    }) {
        Some(
            "the secret is missing or wrong (it goes on a line `secret ...` in the orders)"
                .to_string(),
        )
    } else if after_secret.is_some() {
        after_secret
    } else {
        None
    };
    if let Some(why) = problem {
        let o = refuse(why, Some(player))?;
        return finish(o, secret_given.as_deref());
    }
    let Some(seat_id) = seat else {
        let o = refuse(
            format!("the seat `{}` in game.toml is not in the game", player.id),
            Some(player),
        )?;
        return finish(o, secret_given.as_deref());
    };
    let filed = without_secret(&orders);
    // Late?
    let late = archive
        .game
        .schedule
        .as_ref()
        .and_then(|s| s.deadline(next).ok().map(|d| (d, s.late.clone())))
        .filter(|(d, _)| now > *d);
    if let Some((deadline, policy)) = late {
        let when = humantime::format_rfc3339_seconds(deadline);
        if policy == "hold" {
            let held: String = filed
                .lines()
                .filter(|l| !l.trim_start().to_ascii_lowercase().starts_with("turn"))
                .collect::<Vec<_>>()
                .join("\n")
                + "\n";
            atomic::write_file(
                &archive.root().join(HELD).join(format!("{seat_id}.txt")),
                held.as_bytes(),
            )?;
            reply(
                archive,
                player,
                &incoming,
                seq,
                format!(
                    "Your orders came after the deadline for turn {next} ({when}). They are held and will be used for turn {}.\n",
                    next + 1
                ),
            )?;
            return finish(
                Outcome::Held {
                    player: seat_id.to_string(),
                    turn: next + 1,
                },
                secret_given.as_deref(),
            );
        }
        let o = refuse(
            format!("it came after the deadline for turn {next} ({when})"),
            Some(player),
        )?;
        return finish(o, secret_given.as_deref());
    }
    let pending = archive
        .root()
        .join(PENDING_DIR)
        .join(format!("{seat_id}.txt"));
    let replaced = pending.is_file();
    atomic::write_file(&pending, filed.as_bytes())?;
    let checked = state.check(&filed, "your orders", Some(&seat_id), Some(&game));
    let (errors, warnings) = (checked.errors(), checked.warnings());
    let mut body = format!(
        "Your orders for turn {next} of {game} are filed{}.\n\n",
        if replaced {
            ", replacing the ones you sent before"
        } else {
            ""
        }
    );
    body.push_str(&checked.text);
    body.push_str("\nYou may send new orders until the deadline: the last ones received count.\n");
    reply(archive, player, &incoming, seq, body)?;
    finish(
        Outcome::Accepted {
            player: seat_id.to_string(),
            turn: next,
            replaced,
            errors,
            warnings,
        },
        secret_given.as_deref(),
    )
}

/// The line a GM reads for what became of a mail.
pub fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Accepted {
            player,
            turn,
            replaced,
            errors,
            warnings,
        } => format!(
            "accepted: {player}'s orders for turn {turn}{} ({errors} errors, {warnings} warnings)",
            if *replaced {
                ", replacing earlier ones"
            } else {
                ""
            }
        ),
        Outcome::Held { player, turn } => format!("held: {player}'s late orders, for turn {turn}"),
        Outcome::Refused { reason, answered } => format!(
            "refused: {reason}{}",
            answered
                .as_ref()
                .map_or(" (not answered)".to_string(), |a| format!(
                    " (answered to {a})"
                ))
        ),
        Outcome::Duplicate => "skipped: already filed".to_string(),
    }
}

/// File every mail given; a line per mail for the GM.
pub fn file_all(
    archive: &Archive,
    game: &dyn Game,
    mails: Vec<Vec<u8>>,
    now: SystemTime,
) -> Result<Vec<String>, super::Error> {
    mails
        .iter()
        .map(|raw| Ok(describe(&file(archive, game, raw, now)?)))
        .collect()
}

/// File the unseen mail of an IMAP INBOX; each is marked seen once filed.
pub fn file_imap(
    archive: &Archive,
    game: &dyn Game,
    src: &crate::mail::imap::Source,
    now: SystemTime,
) -> Result<Vec<String>, super::Error> {
    let mut problem = None;
    let mut lines = Vec::new();
    crate::mail::imap::ingest(src, |raw| match file(archive, game, raw, now) {
        Ok(o) => {
            lines.push(describe(&o));
            true
        }
        Err(e) => {
            problem.get_or_insert(e);
            false
        }
    })
    .map_err(super::Error::User)?;
    match problem {
        Some(e) => Err(e.into()),
        None => Ok(lines),
    }
}
