//! Mail out: each turn's report queued once per player, and the outbox sent.

use super::error::Error;
use super::game::{Game, Pace, Position};
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
    for (k, to, why) in &r.refused {
        lines.push(format!("refused for good: {k} to {to}: {why}"));
    }
    if let Some(why) = &r.stopped {
        lines.push(format!(
            "not sent, left in the outbox: {}: {why}",
            crate::text::count(r.left.len(), "mail")
        ));
    }
    lines
}

/// One player's report mail of a turn, as it is to be made.
struct ReportMail<'a> {
    turn: u32,
    seat: &'a str,
    /// The outbox's name for the mail.
    key: String,
    /// The next step waits for them (a game played one player at a time).
    their_turn: bool,
    /// The map it carries.
    png: Option<&'a [u8]>,
    /// What happened since their last report, for a player mailed only their own turns.
    digest: Option<String>,
    /// The position the next orders are for, when they are the next turn's (not for a
    /// game over, nor an older report sent again): the mail ends with its template.
    next: Option<&'a dyn Position>,
}

/// The report mail of a turn for one player.
fn report_mail(archive: &Archive, game: &dyn Game, m: ReportMail<'_>) -> Result<Outgoing, Error> {
    let ReportMail {
        turn,
        seat,
        key,
        their_turn,
        png,
        digest,
        next,
    } = m;
    let p = archive
        .game
        .players
        .iter()
        .find(|p| p.id == seat)
        .ok_or_else(|| Error::input(format!("{seat} does not play in this game")))?;
    let report = super::report::player_text(archive, game, turn, seat)?;
    // Each report names the order guide and carries the next turn's template:
    // what goes below the header lines the report ends with.
    let footer = next.map_or(String::new(), |position| {
        let title = format!("Your order file for turn {}", position.turn() + 1);
        let map = super::order_form::writer_named(archive, position, seat)
            .map_or(String::new(), |page| {
                format!(" Or write it on the map: {page}.")
            });
        format!(
            "\n\n{title}\n{}\nThe order guide: {}.{map} {}\n\n{}",
            "=".repeat(title.len()),
            super::order_form::guide_named(archive, game),
            super::reply::REPORT_ABOVE,
            super::order_form::order_body(position, seat)
        )
    });
    let game = archive.name();
    let body = match digest {
        Some(d) => format!("{d}\n{report}{footer}"),
        None => format!("{report}{footer}"),
    };
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
                b.to_vec(),
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
    if archive.mail().is_none() || turn == 0 {
        return Ok(problems);
    }
    let position = super::stage::position(archive, game, turn)?;
    let next: Vec<String> = match game.pace() {
        Pace::OneAtATime => position.awaited(&[]),
        Pace::Together => Vec::new(),
    };
    let over = position.over().is_some();
    let prefs = super::preferences::Preferences::load(archive)?;
    let mut png = None;
    for p in &archive.game.players {
        let key = format!("report-{turn:03}-{}", p.id);
        if outbox::known(archive, &key) {
            continue;
        }
        // In a game played one player at a time, a player who asked only for their own
        // turns (the default) is mailed when their orders are wanted, and at the end,
        // with what happened since their last report.
        let digest = match (game.pace(), prefs.reports(&p.id)) {
            (Pace::OneAtATime, super::directives::Reports::MyTurns) => {
                if !next.contains(&p.id) && !over {
                    continue;
                }
                digest(archive, game, turn, &p.id)?
            }
            _ => None,
        };
        let picture = if prefs.picture(&p.id) {
            if png.is_none() {
                png = Some(super::report::map_png(archive, game, turn)?);
            }
            png.as_deref()
        } else {
            None
        };
        let mail = report_mail(
            archive,
            game,
            ReportMail {
                turn,
                seat: &p.id,
                key,
                their_turn: next.contains(&p.id),
                png: picture,
                digest,
                next: (!over).then_some(position.as_ref()),
            },
        )?;
        if let Err(e) = outbox::queue(archive, &mail) {
            problems.push(format!("{}'s report was not queued: {e}", p.id));
        }
    }
    Ok(problems)
}

/// What happened in the turns since `seat`'s last report mail, before `turn`, as they
/// may read it; `None` when there were none.
fn digest(
    archive: &Archive,
    game: &dyn Game,
    turn: u32,
    seat: &str,
) -> Result<Option<String>, Error> {
    let last = (1..turn)
        .rev()
        .find(|t| outbox::known(archive, &format!("report-{t:03}-{seat}")))
        .unwrap_or(0);
    let mut parts = Vec::new();
    for t in archive
        .turns()?
        .into_iter()
        .filter(|t| *t > last && *t < turn)
    {
        let r = super::report::of_turn(archive, game, t)?;
        parts.push(r.digest(Some(seat)).map_err(Error::from)?);
    }
    if parts.is_empty() {
        return Ok(None);
    }
    Ok(Some(format!(
        "What happened since your last report (turns {} to {}):\n\n{}\n{}\n",
        last + 1,
        turn - 1,
        parts.join("\n"),
        "=".repeat(78)
    )))
}

/// Queue a turn's report for one player again (`judge mail --resend`). The copies the
/// server refused for good are forgotten: this one is made anew, to the address
/// game.toml gives now.
pub fn resend(archive: &Archive, game: &dyn Game, turn: u32, seat: &str) -> Result<String, Error> {
    let mut n = 1;
    let key = loop {
        let k = format!("report-{turn:03}-{seat}-again-{n}");
        if !outbox::known(archive, &k) {
            break k;
        }
        n += 1;
    };
    let refused = outbox::refused(archive);
    for (k, _) in &refused {
        let base = format!("report-{turn:03}-{seat}");
        if *k == base || k.starts_with(&format!("{base}-again-")) {
            outbox::forget(archive, k)?;
        }
    }
    let png = super::report::map_png(archive, game, turn)?;
    // The next orders' template only with the latest report of a game in play.
    let latest = archive.turns()?.last() == Some(&turn);
    let position = super::stage::position(archive, game, turn)?;
    let next = (latest && position.over().is_none()).then_some(position.as_ref());
    let mail = report_mail(
        archive,
        game,
        ReportMail {
            turn,
            seat,
            key: key.clone(),
            their_turn: false,
            png: Some(&png),
            digest: None,
            next,
        },
    )?;
    outbox::queue(archive, &mail)?;
    Ok(key)
}
