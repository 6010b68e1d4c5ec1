//! Mail out: each turn's report queued once per player, and the outbox sent.

use super::Error;
use super::report::{PNG_FILE, REPORT_FILE};
use crate::archive::Archive;
use crate::mail::outbox::{self, Outgoing, SendReport};

/// Send every waiting mail; those that fail stay in the outbox.
pub fn send(archive: &Archive) -> Result<SendReport, Error> {
    Ok(outbox::send_all(archive)?)
}

/// What a send run did, in lines for the GM.
pub fn describe(r: &SendReport) -> Vec<String> {
    let mut lines = Vec::new();
    if !r.sent.is_empty() {
        lines.push(format!("sent {} mail(s)", r.sent.len()));
    }
    for (k, why) in &r.failed {
        lines.push(format!("not sent, left in the outbox: {k}: {why}"));
    }
    lines
}

/// Queue the report of `turn` for every player, once (safe to call again after a crash).
pub fn queue_reports(archive: &Archive, turn: u32) -> Result<usize, Error> {
    if archive.game.mail.is_none() {
        return Ok(0);
    }
    let game = archive.name();
    let dir = archive.turn_dir(turn);
    let report = std::fs::read_to_string(dir.join(REPORT_FILE)).unwrap_or_default();
    let png = std::fs::read(dir.join(PNG_FILE)).ok();
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
        )?;
        queued += 1;
    }
    Ok(queued)
}
