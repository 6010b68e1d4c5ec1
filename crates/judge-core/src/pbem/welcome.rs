//! The welcome mail of a new player: their secret, how to start their orders, and the
//! game as it begins. Sent by `judge secret --mail` and by a `join` by mail; its
//! secret goes only into the mail sent, never into a file.

use super::error::Error;
use super::game::Game;
use crate::archive::Archive;
use crate::archive::schedule::shown;
use crate::mail::outbox::{self, Outgoing};

/// The welcome mail of a new player: their secret, how to start their orders, and the
/// game as it begins.
pub fn mail(
    archive: &Archive,
    game: &dyn Game,
    seat: &str,
    secret: Option<&str>,
) -> Result<Outgoing, Error> {
    let name = archive.name();
    let p = archive
        .game
        .players
        .iter()
        .find(|p| p.id == seat)
        .ok_or_else(|| Error::input(format!("{seat} does not play in this game")))?;
    let s = outbox::settings(archive)?;
    // A game open for sign-up has no position yet: the seat and the secret, and the
    // game as it stands when it begins.
    if !super::stage::started(archive) {
        let free = archive.game.free_seats().len();
        return Ok(waiting_welcome(
            archive,
            game,
            p,
            secret.unwrap_or("the one the judge mailed you"),
            free,
        ));
    }
    // The game as it stands: turn 0's report, or the round before it.
    let (text, png, next, due, start, how) = match super::stage::round_standing(archive, game)? {
        Some((last, round)) => {
            let due = match super::due::round_deadline(archive, last)? {
                Some(d) => format!(
                    "Each choice of the round is due by the deadline its mail names; the first by {}.",
                    shown(d)
                ),
                None => "The GM says when each choice is due.".to_string(),
            };
            let png = round
                .picture()
                .png()
                .map_err(|e| Error::input(format!("the map cannot be drawn: {e}")))?;
            // The round's own words for what it is and how to write one's part.
            let guide = round.guide();
            (
                round.show(),
                png,
                0,
                due,
                format!("    {}\n", guide.example),
                format!(
                    "The game begins with a round by mail before turn 1: {}. {} {}. Mail it to {} as plain text, like this:",
                    guide.what,
                    if round.next().as_deref() == Some(seat) {
                        "You are first, so now"
                    } else {
                        "When it is your turn you are mailed, and then"
                    },
                    guide.how,
                    s.from
                ),
            )
        }
        None => {
            let last = archive.pick_turn(None)?;
            let report = super::report::of_turn(archive, game, last)?;
            let text = report
                .text(super::report::template(archive)?.as_deref(), Some(seat))
                .map_err(Error::from)?;
            let png = report.png().map_err(Error::from)?;
            let next = last + 1;
            (
                text,
                png,
                next,
                super::due::due_line(archive, game, next),
                String::new(),
                format!(
                    "Mail your orders to {} as plain text (in the mail, or a text attachment), starting with:",
                    s.from
                ),
            )
        }
    };
    // A game played one player at a time: each player's orders wait on record for
    // their own turn, so their first mail needs no `turn` line.
    let one_at_a_time = game.pace() == super::game::Pace::OneAtATime;
    let turn_line = if next == 0 || one_at_a_time {
        String::new()
    } else {
        format!("    turn {next}\n")
    };
    let which_count = if next == 0 {
        "in your turn, the first mail that is right is taken at once, and a player who sends none in time gets the default."
    } else if one_at_a_time {
        "the last orders received count, and wait on record until your turn comes; the game moves on as soon as the orders it waits for are in."
    } else {
        "the last orders received before the deadline count."
    };
    let body = format!(
        "Welcome to {name}, a game of {} played by mail.\n\n\
         {yours}\
         {how}\n\n    game {name}\n    player {seat}\n{turn_line}    secret {shown_secret}\n{start}\n\
         Every mail is answered at once with what the judge made of it; {which_count} \
         {due}\n\n\
         The order guide: {guide}. Mail the judge `help` for a short one, or `template` for \
         an order file ready to fill; docs/mail-commands.md has every command.\n\n{dice}\
         {site}The game as it stands follows; the map is attached.\n\n{text}",
        game.title(),
        yours = match secret {
            Some(secret) => format!(
                "You play {seat}. Your secret is:\n\n    {secret}\n\n\
                 Keep it to yourself: it goes on the `secret` line of every order mail, and tells \
                 the judge the orders are yours. The judge keeps only a salted hash of it and \
                 never sends it again; if you lose it, ask the GM for a new one.\n\n"
            ),
            None => format!(
                "Every seat is taken: the game begins. You play {seat}, with the secret the judge mailed you when you joined.\n\n"
            ),
        },
        shown_secret = secret.unwrap_or("YOUR-SECRET"),
        guide = super::order_form::guide_named(archive, game),
        site = s
            .site
            .as_deref()
            .map(|u| format!("The game's pages, with every turn's report and map: {u}\n\n"))
            .unwrap_or_default(),
        dice = super::verify::announcement(archive)?
            .map(|a| format!("{a}\n\n"))
            .unwrap_or_default(),
    );
    Ok(Outgoing {
        key: match secret {
            Some(_) => format!(
                "welcome-{seat}-{}",
                crate::archive::content_id(p.email.as_bytes())
            ),
            None => format!("begins-{seat}"),
        },
        to_name: p.name.clone(),
        to: p.email.clone(),
        subject: match secret {
            Some(_) => format!("[{name}] welcome: you play {seat}"),
            None => format!("[{name}] the game begins: you play {seat}"),
        },
        body,
        in_reply_to: None,
        attachment: Some((format!("{name}-map.png"), png, "image/png".into())),
    })
}

/// The welcome of a player who joined a game that waits for more: their seat and
/// secret; the game as it stands comes when it begins.
pub fn waiting_welcome(
    archive: &Archive,
    game: &dyn Game,
    p: &crate::archive::PlayerEntry,
    secret: &str,
    left: usize,
) -> crate::mail::outbox::Outgoing {
    let name = archive.name();
    let seat = &p.id;
    crate::mail::outbox::Outgoing {
        key: format!(
            "welcome-{seat}-{}",
            crate::archive::content_id(p.email.as_bytes())
        ),
        to_name: p.name.clone(),
        to: p.email.clone(),
        subject: format!("[{name}] welcome: you play {seat}"),
        body: format!(
            "Welcome to {name}, a game of {} played by mail.\n\n\
             You play {seat}. Your secret is:\n\n    {secret}\n\n\
             Keep it to yourself: it goes on the `secret` line of every order mail, and tells \
             the judge the mail is yours. The judge keeps only a salted hash of it and never \
             sends it again; if you lose it, ask the GM for a new one.\n\n\
             The game begins when every seat is taken ({} still free). You are mailed then, \
             with the game as it stands and when your first orders are due. Meanwhile you may \
             mail the judge `help`, `status` or `press to all: …` (with your secret).\n",
            game.title(),
            crate::text::count(left, "seat")
        ),
        in_reply_to: None,
        attachment: None,
    }
}
