//! Mail out: each turn's report queued once per player, and the outbox sent.

use super::Error;
use super::game::{Game, Pace};
use super::report::{PNG_FILE, REPORT_FILE, REPORTS_DIR};
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
        lines.push(format!("sent {}", crate::text::count(r.sent.len(), "mail")));
    }
    for (k, why) in &r.failed {
        lines.push(format!("not sent, left in the outbox: {k}: {why}"));
    }
    lines
}

/// The report mail of a turn for one player; `their_turn` when the next step waits for
/// them (a game played one player at a time).
fn report_mail(
    archive: &Archive,
    turn: u32,
    seat: &str,
    key: String,
    their_turn: bool,
) -> Result<Outgoing, Error> {
    let p = archive
        .game
        .players
        .iter()
        .find(|p| p.id == seat)
        .ok_or_else(|| Error::User(format!("{seat} does not play in this game")))?;
    let game = archive.name();
    let dir = archive.turn_dir(turn);
    let own = dir.join(REPORTS_DIR).join(format!("{seat}.txt"));
    let body = std::fs::read_to_string(&own)
        .or_else(|_| std::fs::read_to_string(dir.join(REPORT_FILE)))
        .map_err(|e| Error::User(format!("the report of turn {turn}: {e}")))?;
    let png = std::fs::read(dir.join(PNG_FILE)).ok();
    Ok(Outgoing {
        key,
        to_name: p.name.clone(),
        to: p.email.clone(),
        subject: match (turn, their_turn) {
            (0, _) => format!("[{game}] the game begins"),
            (t, false) => format!("[{game}] turn {t}: report"),
            (t, true) => format!("[{game}] turn {t}: report; your move next"),
        },
        body,
        in_reply_to: None,
        attachment: png.map(|b| {
            (
                format!("{game}-turn-{turn:03}.png"),
                b,
                "image/png".to_string(),
            )
        }),
    })
}

/// Queue the report of `turn` for every player, once (safe to call again after a crash).
/// A player whose mail cannot be queued (a bad address) is reported and skipped; the
/// others still get theirs.
pub fn queue_reports(archive: &Archive, game: &dyn Game, turn: u32) -> Result<Vec<String>, Error> {
    let mut problems = Vec::new();
    if archive.game.mail.is_none() || turn == 0 {
        return Ok(problems);
    }
    let next: Vec<String> = match game.pace() {
        Pace::OneAtATime => super::position(archive, game, turn)?.awaited(&[]),
        Pace::Together => Vec::new(),
    };
    for p in &archive.game.players {
        let key = format!("report-{turn:03}-{}", p.id);
        if outbox::known(archive, &key) {
            continue;
        }
        let mail = report_mail(archive, turn, &p.id, key, next.contains(&p.id))?;
        if let Err(e) = outbox::queue(archive, &mail) {
            problems.push(format!("{}'s report was not queued: {e}", p.id));
        }
    }
    Ok(problems)
}

/// Queue a turn's report for one player again (`judge mail --resend`).
pub fn resend(archive: &Archive, turn: u32, seat: &str) -> Result<String, Error> {
    let mut n = 1;
    let key = loop {
        let k = format!("report-{turn:03}-{seat}-again-{n}");
        if !outbox::known(archive, &k) {
            break k;
        }
        n += 1;
    };
    let mail = report_mail(archive, turn, seat, key.clone(), false)?;
    outbox::queue(archive, &mail)?;
    Ok(key)
}
