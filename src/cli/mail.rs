//! The play-by-email commands: `judge secret`, `judge ingest`, `judge mail`,
//! `judge status`, and the mail steps of `judge turn`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::Context as _;

use super::turn::load_state;
use super::{Failure, IngestArgs, MailArgs, SecretArgs, StatusArgs};
use crate::archive::{Archive, PENDING_DIR};
use crate::mail::intake::{self, Outcome};
use crate::mail::outbox::{self, Outgoing};
use crate::mail::secret;

/// The clock, read only here at the edge: `JUDGE_NOW` (RFC 3339) stands in for it in
/// tests and dry runs.
pub fn now() -> Result<SystemTime, Failure> {
    match std::env::var("JUDGE_NOW") {
        Ok(t) => humantime::parse_rfc3339_weak(&t)
            .map_err(|e| Failure::User(format!("JUDGE_NOW `{t}`: {e}"))),
        Err(_) => Ok(SystemTime::now()),
    }
}

fn mail_failure(e: crate::mail::outbox::MailError) -> Failure {
    match e {
        crate::mail::outbox::MailError::Archive(a) => a.into(),
        other => Failure::User(other.to_string()),
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

/// Every message in a Maildir (`new/` and `cur/`), by file name.
pub(super) fn maildir_mails(dir: &Path) -> Result<Vec<Vec<u8>>, Failure> {
    maildir(dir)
}

fn maildir(dir: &Path) -> Result<Vec<Vec<u8>>, Failure> {
    let mut files: Vec<PathBuf> = Vec::new();
    for sub in ["new", "cur"] {
        if let Ok(d) = std::fs::read_dir(dir.join(sub)) {
            files.extend(
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.is_file()),
            );
        }
    }
    if files.is_empty() && !dir.join("new").is_dir() {
        return Err(Failure::User(format!(
            "{} is not a Maildir (it has no new/ folder)",
            dir.display()
        )));
    }
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read(p).map_err(|e| Failure::User(format!("{}: {e}", p.display()))))
        .collect()
}

fn mbox(path: &Path) -> Result<Vec<Vec<u8>>, Failure> {
    let f =
        std::fs::File::open(path).map_err(|e| Failure::User(format!("{}: {e}", path.display())))?;
    mail_parser::mailbox::mbox::MessageIterator::new(std::io::BufReader::new(f))
        .map(|m| {
            m.map(|m| m.unwrap_contents())
                .map_err(|e| Failure::User(format!("{}: {e}", path.display())))
        })
        .collect()
}

/// File every mail given; print one line per mail.
pub fn ingest_all(
    archive: &Archive,
    mails: Vec<Vec<u8>>,
    now: SystemTime,
    out: &mut dyn Write,
) -> Result<usize, Failure> {
    let mut filed = 0;
    for raw in mails {
        let outcome = intake::file(archive, &raw, now).map_err(mail_failure)?;
        let line = match &outcome {
            Outcome::Accepted {
                player,
                turn,
                replaced,
                errors,
                warnings,
            } => {
                filed += 1;
                format!(
                    "accepted: {player}'s orders for turn {turn}{} ({errors} errors, {warnings} warnings)",
                    if *replaced {
                        ", replacing earlier ones"
                    } else {
                        ""
                    }
                )
            }
            Outcome::Held { player, turn } => {
                format!("held: {player}'s late orders, for turn {turn}")
            }
            Outcome::Refused { reason, answered } => format!(
                "refused: {reason}{}",
                answered
                    .as_ref()
                    .map_or(" (not answered)".to_string(), |a| format!(
                        " (answered to {a})"
                    ))
            ),
            Outcome::Duplicate => "skipped: already filed".to_string(),
        };
        writeln!(out, "{line}").context("output")?;
    }
    Ok(filed)
}

pub fn ingest(args: IngestArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let archive = Archive::open(&args.dir)?;
    let mut mails = Vec::new();
    if let Some(d) = &args.maildir {
        mails.extend(maildir(d)?);
    }
    if let Some(m) = &args.mbox {
        mails.extend(mbox(m)?);
    }
    for f in &args.files {
        mails.push(std::fs::read(f).map_err(|e| Failure::User(format!("{}: {e}", f.display())))?);
    }
    if mails.is_empty() && args.maildir.is_none() && args.mbox.is_none() && args.imap.is_none() {
        return Err(Failure::User(
            "give mails to read: --maildir DIR, --mbox FILE, --imap HOST or .eml files".into(),
        ));
    }
    let now = now()?;
    ingest_all(&archive, mails, now, out)?;
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
        let src = imap_source(
            &settings,
            Some(host),
            Some(port),
            args.user.clone(),
            args.imap_security.clone(),
        )?;
        ingest_imap(&archive, &src, now, out)?;
    }
    if !args.no_send && archive.game.mail.is_some() {
        send(&archive, out)?;
    }
    Ok(())
}

/// The IMAP source from the command line and game.toml, the password from the
/// environment.
pub(super) fn imap_source(
    s: &crate::archive::MailSettings,
    host: Option<String>,
    port: Option<u16>,
    user: Option<String>,
    security: Option<String>,
) -> Result<crate::mail::imap::Source, Failure> {
    let host = host
        .or_else(|| s.imap_host.clone())
        .ok_or_else(|| Failure::User("no IMAP host".into()))?;
    let port = port.or(s.imap_port).unwrap_or(143);
    let user = user.or_else(|| s.imap_user.clone()).ok_or_else(|| {
        Failure::User("give the IMAP user: --user NAME, or imap_user in [mail]".into())
    })?;
    let var = s
        .imap_password_env
        .clone()
        .unwrap_or_else(|| "JUDGE_IMAP_PASSWORD".into());
    let password = std::env::var(&var).map_err(|_| {
        Failure::User(format!(
            "the IMAP password is read from ${var}, which is not set"
        ))
    })?;
    let security = security
        .or_else(|| s.imap_security.clone())
        .unwrap_or_else(|| {
            if port == 993 {
                "tls".into()
            } else {
                "starttls".into()
            }
        });
    Ok(crate::mail::imap::Source {
        host,
        port,
        user,
        password,
        security,
    })
}

/// File the unseen mail of an IMAP INBOX; each is marked seen once filed.
pub(super) fn ingest_imap(
    archive: &Archive,
    src: &crate::mail::imap::Source,
    now: SystemTime,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut problem = None;
    let mut lines: Vec<u8> = Vec::new();
    crate::mail::imap::ingest(src, |raw| {
        match ingest_all(archive, vec![raw.to_vec()], now, &mut lines) {
            Ok(_) => true,
            Err(e) => {
                problem.get_or_insert(e);
                false
            }
        }
    })
    .map_err(Failure::User)?;
    out.write_all(&lines).context("output")?;
    problem.map_or(Ok(()), Err)
}

pub(super) fn send(archive: &Archive, out: &mut dyn Write) -> Result<(), Failure> {
    let r = outbox::send_all(archive).map_err(mail_failure)?;
    if !r.sent.is_empty() {
        writeln!(out, "sent {} mail(s)", r.sent.len()).context("output")?;
    }
    for (k, why) in &r.failed {
        writeln!(out, "not sent, left in the outbox: {k}: {why}").context("output")?;
    }
    Ok(())
}

/// Queue the report of `turn` for every player, once (safe to call again after a crash).
pub(super) fn queue_reports(archive: &Archive, turn: u32) -> Result<usize, Failure> {
    if archive.game.mail.is_none() {
        return Ok(0);
    }
    let game = archive.name();
    let dir = archive.turn_dir(turn);
    let report = std::fs::read_to_string(dir.join("report.txt")).unwrap_or_default();
    let png = std::fs::read(dir.join("map.png")).ok();
    let mut queued = 0;
    for p in &archive.game.players {
        let key = format!("report-{turn:03}-{}", p.id);
        if outbox::known(archive, &key) {
            continue;
        }
        outbox::queue(
            archive,
            &Outgoing {
                key,
                to_name: p.name.clone(),
                to: p.email.clone(),
                subject: format!("{game}: report for turn {turn}"),
                body: report.clone(),
                in_reply_to: None,
                attachment: png.clone().map(|b| {
                    (
                        format!("{game}-turn-{turn:03}.png"),
                        b,
                        "image/png".to_string(),
                    )
                }),
            },
        )
        .map_err(mail_failure)?;
        queued += 1;
    }
    Ok(queued)
}

pub fn mail(args: MailArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let archive = Archive::open(&args.dir)?;
    let last = archive.pick_turn(None)?;
    if last > 0 {
        queue_reports(&archive, last)?;
    }
    let before = outbox::waiting(&archive).len();
    send(&archive, out)?;
    if before == 0 {
        writeln!(out, "The outbox is empty.").context("output")?;
    }
    if !outbox::waiting(&archive).is_empty() {
        return Err(Failure::Reported(1));
    }
    Ok(())
}

pub fn status(args: StatusArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let archive = Archive::open(&args.dir)?;
    let last = archive.pick_turn(None)?;
    let state = load_state(&archive, last)?;
    let next = last + 1;
    writeln!(
        out,
        "{}: {} turn(s) played; turn {next} is next.",
        archive.root().display(),
        last
    )
    .context("output")?;
    if let Some(why) = &state.game_over {
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
    for c in &state.move_order {
        let has = archive
            .root()
            .join(PENDING_DIR)
            .join(format!("{c}.txt"))
            .is_file();
        let name = state.players.get(c).map_or("", |p| p.name.as_str());
        let secret = archive
            .game
            .players
            .iter()
            .find(|p| p.id == c.name())
            .is_some_and(|p| p.secret_hash.is_some());
        writeln!(
            out,
            "  {:<7} {:<12} {}{}",
            c.name(),
            name,
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
