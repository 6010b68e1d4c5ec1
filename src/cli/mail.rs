//! The play-by-email commands: `judge secret`, `judge ingest`, `judge mail`,
//! `judge status`, and the mail steps of `judge turn`.

use std::io::Write;
use std::time::SystemTime;

use anyhow::Context as _;

use super::{Failure, IngestArgs, MailArgs, SecretArgs, StatusArgs};
use crate::archive::{Archive, PENDING_DIR};
use crate::mail::outbox;
use crate::mail::secret;
use crate::pbem::{self, intake, send, sources};

/// The clock, read only here at the edge: `JUDGE_NOW` (RFC 3339) stands in for it in
/// tests and dry runs.
pub fn now() -> Result<SystemTime, Failure> {
    match std::env::var("JUDGE_NOW") {
        Ok(t) => humantime::parse_rfc3339_weak(&t)
            .map_err(|e| Failure::User(format!("JUDGE_NOW `{t}`: {e}"))),
        Err(_) => Ok(SystemTime::now()),
    }
}

pub fn secret_cmd(args: SecretArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut archive = Archive::open(&args.dir)?;
    let mut game = archive.game.clone();
    let wanted: Vec<String> = args
        .players
        .iter()
        .map(|p| p.to_ascii_lowercase())
        .collect();
    for w in &wanted {
        if !game.players.iter().any(|p| &p.id == w) {
            return Err(Failure::User(format!("{w} does not play in this game")));
        }
    }
    let mut shown = Vec::new();
    for p in &mut game.players {
        if !wanted.is_empty() && !wanted.contains(&p.id) {
            continue;
        }
        if p.secret_hash.is_some() && wanted.is_empty() && !args.reset {
            continue;
        }
        let s = secret::generate();
        p.secret_hash = Some(secret::hash(&s).map_err(|e| Failure::Other(anyhow::anyhow!(e)))?);
        shown.push(format!("{:<7} {:<20} secret {s}", p.id, p.email));
    }
    archive.save_game_file(game)?;
    if shown.is_empty() {
        writeln!(
            out,
            "Every player already has a secret (use --reset, or name a player, to make a new one)."
        )
        .context("output")?;
    } else {
        writeln!(out, "New secrets, shown this once (only their hashes are kept). Give each player theirs privately:").context("output")?;
        for l in shown {
            writeln!(out, "  {l}").context("output")?;
        }
    }
    Ok(())
}

pub fn ingest(args: IngestArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(&args.dir)?;
    let mut mails = Vec::new();
    if let Some(d) = &args.maildir {
        mails.extend(sources::maildir(d)?);
    }
    if let Some(m) = &args.mbox {
        mails.extend(sources::mbox(m)?);
    }
    mails.extend(sources::files(&args.files)?);
    if mails.is_empty() && args.maildir.is_none() && args.mbox.is_none() && args.imap.is_none() {
        return Err(Failure::User(
            "give mails to read: --maildir DIR, --mbox FILE, --imap HOST or .eml files".into(),
        ));
    }
    let now = now()?;
    let mut lines = intake::file_all(&archive, game, mails, now)?;
    if let Some(spec) = &args.imap {
        let (host, port) = match spec.rsplit_once(':') {
            Some((h, p)) => (
                h.to_string(),
                p.parse().map_err(|_| {
                    Failure::User(format!("--imap {spec}: the port is not a number"))
                })?,
            ),
            None => (spec.clone(), 143),
        };
        let settings = archive.game.mail.clone().unwrap_or_default();
        let src = sources::imap(
            &settings,
            Some(host),
            Some(port),
            args.user.clone(),
            args.imap_security.clone(),
        )?;
        lines.extend(intake::file_imap(&archive, game, &src, now)?);
    }
    if !args.no_send && archive.game.mail.is_some() {
        lines.extend(send::describe(&send::send(&archive)?));
    }
    for l in lines {
        writeln!(out, "{l}").context("output")?;
    }
    Ok(())
}

pub fn mail(args: MailArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let archive = Archive::open(&args.dir)?;
    let last = archive.pick_turn(None)?;
    if last > 0 {
        send::queue_reports(&archive, last)?;
    }
    let before = outbox::waiting(&archive).len();
    for l in send::describe(&send::send(&archive)?) {
        writeln!(out, "{l}").context("output")?;
    }
    if before == 0 {
        writeln!(out, "The outbox is empty.").context("output")?;
    }
    if !outbox::waiting(&archive).is_empty() {
        return Err(Failure::Reported(1));
    }
    Ok(())
}

pub fn status(args: StatusArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(&args.dir)?;
    let last = archive.pick_turn(None)?;
    let state = pbem::position(&archive, game, last)?;
    let next = last + 1;
    writeln!(
        out,
        "{}: {} turn(s) played; turn {next} is next.",
        archive.root().display(),
        last
    )
    .context("output")?;
    if let Some(why) = state.over() {
        writeln!(out, "The game is over: {why}.").context("output")?;
    }
    match &archive.game.schedule {
        Some(s) => {
            let d = s.deadline(next).map_err(Failure::User)?;
            let when = humantime::format_rfc3339_seconds(d);
            let left = d.duration_since(now()?).map_or("passed".to_string(), |l| {
                format!(
                    "in {}",
                    humantime::format_duration(std::time::Duration::from_secs(l.as_secs()))
                )
            });
            writeln!(
                out,
                "Deadline for turn {next}: {when} ({left}); late orders: {}.",
                s.late
            )
            .context("output")?;
        }
        None => writeln!(out, "No deadline is set: the GM runs each turn.").context("output")?,
    }
    for seat in state.seats() {
        let has = archive
            .root()
            .join(PENDING_DIR)
            .join(format!("{}.txt", seat.id))
            .is_file();
        let secret = archive
            .game
            .players
            .iter()
            .find(|p| p.id == seat.id)
            .is_some_and(|p| p.secret_hash.is_some());
        writeln!(
            out,
            "  {:<7} {:<12} {}{}",
            seat.id,
            seat.name,
            if has {
                "orders received"
            } else {
                "no orders yet"
            },
            if secret { "" } else { " (no secret set)" }
        )
        .context("output")?;
    }
    let waiting = outbox::waiting(&archive);
    writeln!(
        out,
        "Outbox: {} mail(s) waiting{}",
        waiting.len(),
        if waiting.is_empty() {
            "."
        } else {
            ": judge mail sends them."
        }
    )
    .context("output")?;
    Ok(())
}
