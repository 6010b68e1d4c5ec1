//! What the commands share at the edge: the clock (`JUDGE_NOW` in tests) and sending
//! the outbox once the game's lock is let go.

use std::io::Write;
use std::time::SystemTime;

use anyhow::Context as _;

use super::Failure;
use crate::mail::outbox::{self};
use crate::pbem::send;
use crate::text::count;

/// The clock, read only here at the edge: `JUDGE_NOW` (RFC 3339) stands in for it in
/// tests and dry runs.
pub fn now() -> Result<SystemTime, Failure> {
    match std::env::var("JUDGE_NOW") {
        Ok(t) => humantime::parse_rfc3339_weak(&t)
            .map_err(|e| Failure::user(format!("JUDGE_NOW `{t}`: {e}"))),
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
    post_notices(archive, out)?;
    if archive.mail().is_none() {
        return Ok(());
    }
    let report = send::send(archive)?;
    for l in send::describe(&report) {
        writeln!(out, "{l}").context("output")?;
    }
    if !report.refused.is_empty() {
        let keys: Vec<String> = report.refused.iter().map(|r| r.0.clone()).collect();
        return Err(Failure::user(format!(
            "the mail server refused {} for good ({}); {} not tried again by itself. A wrong address: put it right in game.toml, then `judge mail {dir} --resend PLAYER` sends a report anew; a cause at the server: once fixed, `judge mail {dir} --retry` tries again. `judge status` lists what was refused",
            count(keys.len(), "mail"),
            keys.join(", "),
            if keys.len() == 1 { "it is" } else { "they are" },
            dir = archive.root().display()
        )));
    }
    unsent(&report)
}

/// Post the notices whose time has come (`outbox/notices/`), and say what became of
/// them. A webhook down or refusing never changes the exit status: notices are beside
/// the mail, and what is not posted is tried again, after a while, by a later run.
pub fn post_notices(archive: &crate::archive::Archive, out: &mut dyn Write) -> Result<(), Failure> {
    let report = judge_core::notify::queue::send_all(archive, now()?);
    for l in report.lines() {
        writeln!(out, "{l}").context("output")?;
    }
    Ok(())
}

/// Exit 3 while mail this run tried to send is still waiting in the outbox, saying how
/// much. Mail another process queued meanwhile (`judge serve`, cron) is not this run's
/// to count: it goes on that process's run, or the next.
fn unsent(report: &outbox::SendReport) -> Result<(), Failure> {
    let left = report.failed.len() + report.left.len();
    // A login refused or a certificate not trusted does not go away by trying again:
    // the GM's to fix, with the words that say how.
    if report.stopped_by_settings
        && let Some(why) = &report.stopped
    {
        return Err(Failure::user(format!(
            "{why}. {} in the outbox until then: the next `judge turn` or `judge mail` sends {}",
            match left {
                1 => "1 mail waits".to_string(),
                n => format!("{n} mails wait"),
            },
            if left == 1 { "it" } else { "them" }
        )));
    }
    if left > 0 {
        return Err(Failure::later(anyhow::anyhow!(
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
