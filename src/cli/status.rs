//! `judge status`: who has sent orders, what waits, what was refused.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::Failure;
use super::outbox::now;
use crate::archive::schedule::shown;
use crate::mail::outbox::{self};
use crate::pbem::game::{OrderFile, Pace, Position};
use crate::pbem::log::{Log, Outcome};
use crate::pbem::turn::Source;
use crate::pbem::{self};
use crate::text::count;

/// For a game played one player at a time: whose orders the next step waits for, or
/// that they are in and the next `judge turn` plays it.
fn one_at_a_time(
    archive: &crate::archive::Archive,
    state: &dyn Position,
    next: u32,
) -> Result<String, Failure> {
    let mut notes = Vec::new();
    let sent: Vec<OrderFile> = pbem::turn::gather(archive, state, next, &mut notes)?
        .into_iter()
        .filter(|(_, _, source)| *source == Source::Sent)
        .map(|(_, f, _)| f)
        .collect();
    let waiting = state.awaited(&sent);
    if !waiting.is_empty() {
        return Ok(format!(
            "Played one player at a time: turn {next} waits for {}.",
            waiting.join(", ")
        ));
    }
    let needed = state.awaited(&[]);
    Ok(if needed.is_empty() {
        format!(
            "Played one player at a time: the orders turn {next} needs are on record; the next `judge turn` plays it."
        )
    } else {
        format!(
            "Played one player at a time: {}'s orders are in; the next `judge turn` plays turn {next}.",
            needed.join(", ")
        )
    })
}

pub fn run(args: StatusArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let now = now()?;
    if !pbem::signup::started(&archive) {
        writeln!(
            out,
            "{} ({}): not begun: {}.\nSeats:",
            archive.name(),
            game.title(),
            pbem::waiting(&archive).unwrap_or_default()
        )
        .context("output")?;
        for line in pbem::signup::seat_lines(&archive, true) {
            writeln!(out, "{line}").context("output")?;
        }
        return Ok(());
    }
    let waits = pbem::waiting(&archive);
    if let Some(why) = &waits {
        writeln!(
            out,
            "The game waits: {why} (`judge resume`, or `resume` by mail, starts it again)."
        )
        .context("output")?;
    }
    if let Some((last, round)) = pbem::round::current(&archive, game)? {
        writeln!(
            out,
            "{} ({}): the set-up round, before turn 1.
",
            archive.name(),
            game.title()
        )
        .context("output")?;
        out.write_all(round.show().as_bytes()).context("output")?;
        if let (Some(next), Some(d)) = (round.next(), pbem::round::deadline(&archive, last)?) {
            writeln!(
                out,
                "
{next}'s choice is due by {}.",
                shown(d)
            )
            .context("output")?;
        }
        return Ok(());
    }
    let last = archive.pick_turn(None)?;
    let state = pbem::current(&archive, game)?;
    let next = last + 1;
    let over = state.over();
    // A finished game has no next turn, no deadline and nobody's orders to wait for.
    let what_next = if over.is_some() {
        String::new()
    } else {
        format!("; turn {next} is next")
    };
    writeln!(
        out,
        "{} ({}): {} played{what_next}.",
        archive.name(),
        game.title(),
        count(last as usize, "turn")
    )
    .context("output")?;
    if let Some(why) = &over {
        writeln!(out, "The game is over: {why}.").context("output")?;
    } else if game.pace() == Pace::OneAtATime {
        writeln!(out, "{}", one_at_a_time(&archive, state.as_ref(), next)?).context("output")?;
    }
    match (
        &archive.game.schedule,
        pbem::deadline(&archive, game, next)?,
    ) {
        _ if over.is_some() => {}
        // Paused, no deadline runs: the line above says why, and how it goes on.
        (Some(_), None) if archive.game.paused.is_some() => writeln!(
            out,
            "No deadline runs while the game is paused: `judge resume {}` starts the clock again, and moves the deadline on by the pause.",
            args.dir.display()
        )
        .context("output")?,
        (Some(_), None) if waits.is_some() => {
            writeln!(out, "No deadline runs while the game waits.").context("output")?;
        }
        (Some(s), Some(d)) => {
            let left = d.duration_since(now).map_or("passed".to_string(), |l| {
                format!(
                    "in {}",
                    humantime::format_duration(std::time::Duration::from_secs(l.as_secs()))
                )
            });
            let remind = s
                .remind
                .as_ref()
                .map_or(String::new(), |r| format!("; reminders {r} before"));
            writeln!(
                out,
                "Deadline for turn {next}: {} ({left}); late orders: {}{remind}.",
                shown(d),
                s.late
            )
            .context("output")?;
        }
        _ => writeln!(out, "No deadline is set: the GM runs each turn.").context("output")?,
    }
    if over.is_none()
        && let Some(why) = pbem::turn::early_note(&archive, game, state.as_ref(), now)?
    {
        writeln!(out, "{why}").context("output")?;
    }
    let log = Log::load(&archive)?;
    writeln!(out, "Players:").context("output")?;
    for l in pbem::status::seats(&archive, state.as_ref(), next, &log) {
        let line = format!(
            "  {:<7} {:<12} {}{}",
            l.id,
            l.name,
            l.what,
            if l.no_secret { " (no secret set)" } else { "" }
        );
        writeln!(out, "{}", line.trim_end()).context("output")?;
    }
    let refused: Vec<_> = log
        .entries
        .iter()
        .filter(|e| matches!(e.outcome, Outcome::Refused { .. }))
        .filter(|e| !log.entries.iter().any(|a| a.again_of == Some(e.seq)))
        .collect();
    if !refused.is_empty() {
        writeln!(
            out,
            "Refused mails (once the cause is fixed, `judge ingest DIR --again N` files one again):"
        )
        .context("output")?;
        for e in refused.iter().rev().take(10).rev() {
            let Outcome::Refused { reason, .. } = &e.outcome else {
                continue;
            };
            writeln!(
                out,
                "  {:>4}  {}  {}: {reason}",
                e.seq,
                e.arrived
                    .as_deref()
                    .and_then(|a| humantime::parse_rfc3339_weak(a).ok())
                    .map_or("?".to_string(), shown),
                e.from.as_deref().unwrap_or("unknown sender"),
            )
            .context("output")?;
        }
    }
    for (id, why) in archive.game.bad_addresses() {
        writeln!(
            out,
            "warning: {id}'s address in game.toml: {why}: no mail reaches {id} until it is fixed"
        )
        .context("output")?;
    }
    let refused = outbox::refused(&archive);
    if !refused.is_empty() {
        writeln!(
            out,
            "Mail refused for good, not tried again (`judge mail {dir} --retry` once the cause is fixed; for a wrong address, put it right in game.toml and `judge mail {dir} --resend PLAYER`):",
            dir = archive.root().display()
        )
        .context("output")?;
        for (key, r) in &refused {
            writeln!(out, "  {key} to {}: {}", r.to, r.why).context("output")?;
        }
    }
    let waiting = outbox::waiting(&archive);
    writeln!(
        out,
        "Outbox: {} waiting{}",
        count(waiting.len(), "mail"),
        if waiting.is_empty() {
            "."
        } else {
            ": judge mail sends them."
        }
    )
    .context("output")?;
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// The game's folder.
    pub dir: PathBuf,
}
