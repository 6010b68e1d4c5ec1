//! The play-by-email commands: `judge secret`, `judge ingest`, `judge mail` and
//! `judge status`. The steps themselves are in `pbem`; these only run them and print.

use std::io::Write;
use std::time::SystemTime;

use anyhow::Context as _;

use super::{Failure, IngestArgs, MailArgs, SecretArgs, StatusArgs};
use crate::archive::schedule::shown;
use crate::mail::outbox::{self, Outgoing};
use crate::mail::secret;
use crate::pbem::game::{OrderFile, Pace, Position};
use crate::pbem::log::{Log, Outcome};
use crate::pbem::turn::Source;
use crate::pbem::{self, intake, send, sources};
use crate::text::count;

/// The clock, read only here at the edge: `JUDGE_NOW` (RFC 3339) stands in for it in
/// tests and dry runs.
pub fn now() -> Result<SystemTime, Failure> {
    match std::env::var("JUDGE_NOW") {
        Ok(t) => humantime::parse_rfc3339_weak(&t)
            .map_err(|e| Failure::User(format!("JUDGE_NOW `{t}`: {e}"))),
        Err(_) => Ok(SystemTime::now()),
    }
}

/// Send what waits in the outbox and say what became of it; call it once the game's
/// lock is let go, so that a slow or silent server holds up no other command (sending
/// takes the outbox's own lock, and at most `[mail] send_timeout`). The exit status tells a
/// script or cron what was not sent: 1 when the server refused a mail for good (the GM
/// must act; the mail is not tried again by itself), else 3 while mail is still waiting
/// (the server may be down: it goes on a later run). Nothing to send, or no [mail], is
/// no failure.
pub fn send_outbox(archive: &crate::archive::Archive, out: &mut dyn Write) -> Result<(), Failure> {
    if archive.mail().is_none() {
        return Ok(());
    }
    let report = send::send(archive)?;
    for l in send::describe(&report) {
        writeln!(out, "{l}").context("output")?;
    }
    if !report.refused.is_empty() {
        let keys: Vec<String> = report.refused.iter().map(|r| r.0.clone()).collect();
        return Err(Failure::User(format!(
            "the mail server refused {} for good ({}); {} not tried again by itself. A wrong address: put it right in game.toml, then `judge mail {dir} --resend PLAYER` sends a report anew; a cause at the server: once fixed, `judge mail {dir} --retry` tries again. `judge status` lists what was refused",
            count(keys.len(), "mail"),
            keys.join(", "),
            if keys.len() == 1 { "it is" } else { "they are" },
            dir = archive.root().display()
        )));
    }
    unsent(&report)
}

/// Exit 3 while mail this run tried to send is still waiting in the outbox, saying how
/// much. Mail another process queued meanwhile (`judge serve`, cron) is not this run's
/// to count: it goes on that process's run, or the next (issue 38, point 17).
fn unsent(report: &outbox::SendReport) -> Result<(), Failure> {
    let left = report.failed.len() + report.left.len();
    // A login refused or a certificate not trusted does not go away by trying again:
    // the GM's to fix, with the words that say how (issue 39, point 13).
    if report.stopped_by_settings
        && let Some(why) = &report.stopped
    {
        return Err(Failure::User(format!(
            "{why}. {} in the outbox until then: the next `judge turn` or `judge mail` sends {}",
            match left {
                1 => "1 mail waits".to_string(),
                n => format!("{n} mails wait"),
            },
            if left == 1 { "it" } else { "them" }
        )));
    }
    if left > 0 {
        return Err(Failure::Other(anyhow::anyhow!(
            "{} still in the outbox: the next `judge turn` or `judge mail` sends {}",
            match left {
                1 => "1 mail is".to_string(),
                n => format!("{n} mails are"),
            },
            if left == 1 { "it" } else { "them" }
        )));
    }
    Ok(())
}

pub fn secret_cmd(args: SecretArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let _lock = super::lock(&args.dir, "judge secret", args.wait)?;
    let (mut archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    if args.gm {
        let Some(gm) = archive.game.gm.clone() else {
            return Err(Failure::User(
                "the game has no GM for commands by mail: add [gm] to game.toml (name and email), or make the game with judge new --gm NAME:EMAIL".into(),
            ));
        };
        let s = secret::generate();
        let hash = secret::hash(&s).map_err(|e| Failure::Other(anyhow::anyhow!(e)))?;
        let mut file = archive.game.clone();
        file.gm = Some(crate::archive::GmEntry {
            secret_hash: Some(hash),
            ..gm.clone()
        });
        archive.save_game_file(file)?;
        writeln!(
            out,
            "The GM's new secret, shown this once (only its hash is kept): {s}\nIt goes on a line `secret {s}` of a mail from {} with the GM's commands (docs/mail-commands.md).",
            gm.email
        )
        .context("output")?;
        return Ok(());
    }
    if args.mail {
        outbox::settings(&archive).map_err(|e| Failure::User(e.to_string()))?;
    }
    let wanted: Vec<String> = args
        .players
        .iter()
        .map(|p| p.to_ascii_lowercase())
        .collect();
    for w in &wanted {
        if !archive.game.players.iter().any(|p| &p.id == w) {
            return Err(Failure::User(format!("{w} does not play in this game")));
        }
    }
    let seats: Vec<String> = archive
        .game
        .players
        .iter()
        .filter(|p| !p.is_free())
        .filter(|p| wanted.is_empty() || wanted.contains(&p.id))
        .filter(|p| p.secret_hash.is_none() || !wanted.is_empty() || args.reset)
        .map(|p| p.id.clone())
        .collect();
    if seats.is_empty() {
        writeln!(
            out,
            "Every player already has a secret (use --reset, or name a player, to make a new one)."
        )
        .context("output")?;
        return Ok(());
    }
    let mut shown_lines = Vec::new();
    for seat in &seats {
        let s = secret::generate();
        let hash = secret::hash(&s).map_err(|e| Failure::Other(anyhow::anyhow!(e)))?;
        if args.mail {
            // Sent at once, or not at all: if it cannot be sent, the player keeps their
            // old secret (or none) and nothing of the new one is written anywhere.
            let mail = pbem::welcome::mail(&archive, game, seat, Some(&s))?;
            let kept = Outgoing {
                body: mail.body.replace(&s, crate::mail::redact::BLANK),
                ..mail.clone()
            };
            outbox::send_now(&archive, &mail, &kept).map_err(|e| match e {
                outbox::MailError::Send(why) => Failure::Other(anyhow::anyhow!(
                    "the welcome mail to {seat} was not sent ({why}); {seat}'s secret is unchanged"
                )),
                outbox::MailError::Refused(why) => Failure::User(format!(
                    "the mail server refused the welcome mail to {seat} for good ({why}); {seat}'s secret is unchanged: check {seat}'s address in game.toml"
                )),
                other => Failure::User(other.to_string()),
            })?;
        }
        let mut file = archive.game.clone();
        if let Some(p) = file.players.iter_mut().find(|p| &p.id == seat) {
            p.secret_hash = Some(hash);
            let line = if args.mail {
                format!(
                    "{:<7} {:<24} a new secret, sent in a welcome mail",
                    p.id, p.email
                )
            } else {
                format!("{:<7} {:<24} secret {s}", p.id, p.email)
            };
            shown_lines.push(line);
        }
        archive.save_game_file(file)?;
    }
    if args.mail {
        writeln!(
            out,
            "Welcome mails sent (the judge's copies in sent/ have the secret blanked):"
        )
        .context("output")?;
    } else {
        writeln!(out, "New secrets, shown this once (only their hashes are kept). Give each player theirs privately, or use --mail:").context("output")?;
    }
    for l in shown_lines {
        writeln!(out, "  {l}").context("output")?;
    }
    Ok(())
}

pub fn ingest(args: IngestArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let lock = super::lock(&args.dir, "judge ingest", args.wait)?;
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    // No source named: the mailboxes [mail] names, as `judge turn` reads them (issue
    // 39, point 15).
    let from_settings = args.maildir.is_none()
        && args.mbox.is_none()
        && args.imap.is_none()
        && args.files.is_empty()
        && args.again.is_none();
    if from_settings
        && archive
            .mail()
            .is_none_or(|m| m.maildir.is_none() && m.mbox.is_none() && m.imap_host.is_none())
    {
        return Err(Failure::User(
            "give mails to read: --maildir DIR, --mbox FILE, --imap HOST or .eml files (or --again N), or name the game's mailbox in game.toml's [mail] (maildir, mbox or imap_host)".into(),
        ));
    }
    // Check every source before filing anything from any of them.
    let maildir = args.maildir.as_deref().map(sources::maildir).transpose()?;
    for f in args.files.iter().chain(args.mbox.iter()) {
        if !f.is_file() && !f.exists() {
            return Err(Failure::User(format!("{}: no such file", f.display())));
        }
    }
    let imap = match &args.imap {
        Some(spec) => {
            // `HOST`, `HOST:PORT`, `[::1]:993` or a bare `::1`; without a port, [mail]
            // imap_port, else the security's own (issue 39, point 15).
            let (host, port) = crate::mail::net::host_and_port(spec)
                .map_err(|e| Failure::User(format!("--imap {e}")))?;
            let settings = archive.mail().cloned().unwrap_or_default();
            Some(sources::imap(
                &settings,
                Some(host),
                port,
                args.user.clone(),
                args.imap_security.clone(),
            )?)
        }
        None => None,
    };
    let now = now()?;
    let mut lines = Vec::new();
    let result = (|| -> Result<(), pbem::Error> {
        pbem::turn::finish(&archive, game, &mut lines)?;
        let mut intake = intake::Intake::open(&archive, game, now)?;
        if let Some(n) = args.again {
            lines.push(intake.again(n)?.describe());
        }
        if let Some(paths) = &maildir {
            lines.extend(intake::file_each(
                &mut intake,
                paths.iter().map(|p| sources::maildir_mail(p)),
            )?);
        }
        if let Some(m) = &args.mbox {
            sources::mbox(m, |mail| {
                lines.extend(intake.file(&mail)?.news());
                Ok(())
            })?;
        }
        lines.extend(intake::file_each(
            &mut intake,
            args.files.iter().map(|f| sources::file(f)),
        )?);
        if let Some(src) = &imap {
            lines.extend(intake::file_imap(&mut intake, src, false)?);
        }
        lines.extend(intake.skipped());
        if from_settings {
            drop(intake);
            let (read, down) = pbem::turn::read_mail(&archive, game, now, false)?;
            lines.extend(read);
            if let Some(why) = down {
                return Err(pbem::Error::MailboxDown(why));
            }
        }
        Ok(())
    })();
    for l in &lines {
        writeln!(out, "{l}").context("output")?;
    }
    result?;
    if lines.is_empty() {
        writeln!(out, "No new mail.").context("output")?;
    }
    if args.no_send {
        return Ok(());
    }
    // Everything is filed: the game is let go before the mail (see `send_outbox`).
    drop(lock);
    send_outbox(&archive, out)
}

pub fn mail(args: MailArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let lock = super::lock(&args.dir, "judge mail", args.wait)?;
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    outbox::settings(&archive).map_err(|e| Failure::User(e.to_string()))?;
    let last = archive.pick_turn(None)?;
    for problem in send::queue_reports(&archive, game, last)? {
        writeln!(out, "{problem}").context("output")?;
    }
    if args.retry {
        let keys = outbox::retry(&archive).map_err(pbem::Error::from)?;
        writeln!(
            out,
            "{}",
            match keys.len() {
                0 => "No mail was refused for good: nothing to try again.".to_string(),
                _ => format!("trying again: {}", keys.join(", ")),
            }
        )
        .context("output")?;
    }
    if let Some(player) = &args.resend {
        let player = player.to_ascii_lowercase();
        let turn = archive.pick_turn(args.turn.or(Some(last)))?;
        let key = send::resend(&archive, game, turn, &player)?;
        writeln!(
            out,
            "queued turn {turn}'s report for {player} again ({key})"
        )
        .context("output")?;
    }
    if outbox::waiting(&archive).is_empty() {
        writeln!(out, "The outbox is empty.").context("output")?;
    }
    drop(lock);
    send_outbox(&archive, out)
}

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

pub fn status(args: StatusArgs, out: &mut dyn Write) -> Result<(), Failure> {
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
        // Paused, no deadline runs: the line above says why, and how it goes on
        // (issue 38, point 16).
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
                .as_deref()
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
