//! Carrying out commands by mail (docs/mail-commands.md); reading them is
//! [`super::commands`]'. The answer to every command of a mail goes in one mail to the
//! address on file, never to the mail's From: — so a command that only answers
//! (`help`, `template`, `status`, `resend`, `games`) needs no secret: a forged one
//! tells its owner only what they may know. A command that acts (`press`, the GM's
//! `extend`, `pause`, `resume`) needs the sender's secret. No answer holds a secret.

use std::collections::BTreeSet;
use std::time::SystemTime;

use super::Error;
use super::commands::{Command, Found, PressTo};
use super::game::{Game, Position};
use super::route;
use crate::archive::{Archive, GmEntry, PlayerEntry, Press};
use crate::mail::outbox::{self, Outgoing};
use crate::mail::{redact, secret};

/// Who sent the commands, as the game knows them.
#[derive(Clone, Copy, Debug)]
pub enum Who<'a> {
    Player(&'a PlayerEntry),
    Gm(&'a GmEntry),
    /// An address the game does not know: only `join` is answered.
    Stranger(&'a str),
}

impl Who<'_> {
    /// Where the answer goes: the address on file.
    pub fn address(&self) -> &str {
        match self {
            Who::Player(p) => &p.email,
            Who::Gm(g) => &g.email,
            Who::Stranger(a) => a,
        }
    }
    fn name(&self) -> &str {
        match self {
            Who::Player(p) => &p.name,
            Who::Gm(g) => &g.name,
            Who::Stranger(_) => "",
        }
    }
}

/// What the commands of a mail need to know.
pub struct Ctx<'a> {
    pub archive: &'a Archive,
    pub game: &'a dyn Game,
    pub position: &'a dyn Position,
    /// The mail's number in the game's log (names what it keeps).
    pub seq: usize,
    pub now: SystemTime,
    /// Every value of the mail that may be a secret: blanked from whatever is relayed.
    pub secrets: &'a BTreeSet<String>,
    /// The mail gave the sender's secret (a player's, or the GM's for the GM).
    pub secret_ok: bool,
    /// The log line of this mail's orders, filed but not yet written (`status` counts
    /// it).
    pub filing: Option<&'a super::log::Entry>,
}

/// What the commands of a mail did.
#[derive(Debug, Default)]
pub struct Done {
    /// The answer's paragraphs, one per command.
    pub answer: Vec<String>,
    /// One line per command for the mail log and the GM (no press text, no secret).
    pub log: Vec<String>,
    /// The seat a `join` took, if one did.
    pub joined: Option<String>,
}

impl Done {
    fn say(&mut self, written: &str, log: impl Into<String>, answer: impl Into<String>) {
        self.log.push(log.into());
        self.answer
            .push(format!("> {written}\n\n{}", answer.into()));
    }
}

/// Carry out `found`, in the order written.
pub fn carry_out(ctx: &Ctx<'_>, who: Who<'_>, found: &[Found]) -> Result<Done, Error> {
    let mut done = Done::default();
    for (n, f) in found.iter().enumerate() {
        // The answer quotes the line: never a secret written on it.
        let written = redact::blank(&f.written, ctx.secrets);
        let command = match &f.command {
            Ok(c) => c,
            Err(why) => {
                done.say(
                    &written,
                    format!("line {}: not read", f.line),
                    format!(
                        "Line {}: {}. Nothing was done for it.",
                        f.line,
                        redact::blank(why, ctx.secrets)
                    ),
                );
                continue;
            }
        };
        let name = command.name();
        // Only `join` is for a stranger.
        if let Who::Stranger(_) = who
            && !matches!(command, Command::Join { .. })
        {
            done.log
                .push(format!("{name}: not answered (not a player)"));
            continue;
        }
        if command.is_gm() && !matches!(who, Who::Gm(_)) {
            done.say(
                &written,
                format!("{name}: refused (not the GM)"),
                format!(
                    "`{name}` is the GM's, given from the GM's address with the GM's secret. Nothing was done."
                ),
            );
            continue;
        }
        if command.acts() && !ctx.secret_ok {
            done.say(
                &written,
                format!("{name}: refused (no secret, or a wrong one)"),
                format!(
                    "`{name}` acts in your name, so it needs your secret: add a line `secret …` to the mail. Nothing was done."
                ),
            );
            continue;
        }
        match command {
            Command::Help => {
                let (how, _) = ctx.game.order_guide();
                done.say(&written, "help: answered", help(ctx, how));
            }
            Command::Template => {
                let text = match who {
                    Who::Player(p) => template(ctx, &p.id),
                    _ => "A template is for a player's orders: the GM has none.".to_string(),
                };
                done.say(&written, "template: answered", text);
            }
            Command::Status => {
                let seat = match who {
                    Who::Player(p) => p.id.as_str(),
                    _ => "",
                };
                let text = super::status::for_player(ctx.archive, ctx.game, seat, ctx.filing)?;
                done.say(&written, "status: answered", text);
            }
            Command::Resend(turn) => {
                let (log, text) = resend(ctx, who, *turn)?;
                done.say(&written, log, text);
            }
            Command::Games => {
                done.say(&written, "games: answered", games(ctx, who.address()));
            }
            Command::Press {
                to,
                anonymous,
                text,
            } => {
                let Who::Player(p) = who else {
                    done.say(
                        &written,
                        "press: refused (the GM writes to players directly)",
                        "Press is between players; the GM writes to them directly.",
                    );
                    continue;
                };
                let (log, text) = press(ctx, p, n, to, *anonymous, text)?;
                done.say(&written, log, text);
            }
            Command::Join { game, name } => {
                let (log, text, seat) = super::signup::join(ctx, who, game, name)?;
                done.joined = seat.or(done.joined.take());
                done.say(&written, log, text);
            }
            Command::Extend(by) => {
                let (log, text) = match super::clock::extend(ctx.archive, ctx.game, *by, ctx.now) {
                    Ok((next, old, new)) => (
                        format!("extend: turn {next}'s deadline moved"),
                        format!(
                            "The deadline for turn {next} moved from {} to {}; every player is told.",
                            crate::archive::schedule::shown(old),
                            crate::archive::schedule::shown(new)
                        ),
                    ),
                    Err(e) => ("extend: refused".into(), format!("Not done: {e}.")),
                };
                done.say(&written, log, text);
            }
            Command::Pause => {
                let (log, text) = match super::clock::pause(ctx.archive, ctx.game, ctx.now) {
                    Ok(()) => (
                        "pause: paused".to_string(),
                        "The game is paused: no deadline runs and no turn is played until you send `resume`. Every player is told.".to_string(),
                    ),
                    Err(e) => ("pause: refused".into(), format!("Not done: {e}.")),
                };
                done.say(&written, log, text);
            }
            Command::Grace | Command::Vacation(_) => {
                let Who::Player(p) = who else {
                    done.say(
                        &written,
                        format!("{name}: refused (a player's)"),
                        format!("`{name}` is a player's: the GM moves deadlines with `extend`."),
                    );
                    continue;
                };
                let result = match command {
                    Command::Vacation(until) => {
                        super::absent::vacation(ctx.archive, &p.id, *until, ctx.now)
                    }
                    _ => super::absent::grace(ctx.archive, ctx.game, &p.id, ctx.now),
                };
                let (log, text) = match result {
                    Ok(text) => (format!("{name}: granted"), text),
                    Err(e) => (format!("{name}: refused"), format!("Not done: {e}.")),
                };
                done.say(&written, log, text);
            }
            Command::Start => {
                let (log, text) = match super::signup::start(ctx.archive, ctx.game, ctx.now) {
                    Ok(how) => (
                        "start: the game began".to_string(),
                        format!(
                            "The game begins: {how}. Every player is mailed the game as it stands."
                        ),
                    ),
                    Err(e) => ("start: refused".into(), format!("Not done: {e}.")),
                };
                done.say(&written, log, text);
            }
            Command::Resume => {
                let (log, text) = match super::clock::resume(ctx.archive, ctx.game, ctx.now) {
                    Ok(Some((next, at))) => (
                        "resume: resumed".to_string(),
                        format!(
                            "The game runs again: turn {next} is due by {}. Every player is told.",
                            crate::archive::schedule::shown(at)
                        ),
                    ),
                    Ok(None) => (
                        "resume: resumed".to_string(),
                        "The game runs again (it has no schedule: turns are played when you run them). Every player is told.".to_string(),
                    ),
                    Err(e) => ("resume: refused".into(), format!("Not done: {e}.")),
                };
                done.say(&written, log, text);
            }
        }
    }
    Ok(done)
}

fn help(ctx: &Ctx<'_>, how: &str) -> String {
    let name = ctx.archive.name();
    format!(
        "{name} is a game of {} played by mail. Mail your orders to this address as plain text (in the mail, or a text attachment), starting with the header:\n\n    game {name}\n    player YOUR-SEAT\n    turn N\n    secret YOUR-SECRET\n\n{how}\n\nThe whole order guide: {}. Send `template` for an order file ready to fill.\n\nCommands you can mail (each on a line of its own; several in one mail are fine):\n\n    help                      this guide\n    template                  an order file for the next turn, ready to fill\n    status                    the turn, the deadline, whose orders are in, yours as filed\n    resend                    the last report again (resend turn 3: turn 3's)\n    games                     your games at this address\n    press to red: text        a message to one player (or `all`); needs your secret\n    grace                     the next deadline later, if the game allows; needs your secret\n    vacation until 2026-12-20 away until then, if the game allows; needs your secret\n\nThe commands are in docs/mail-commands.md.",
        ctx.game.title(),
        super::guide_named(ctx.archive, ctx.game),
    )
}

fn template(ctx: &Ctx<'_>, seat: &str) -> String {
    format!(
        "Fill it in and mail it back; your secret goes where it says (the judge never mails it).\n\n{}",
        super::order_template(ctx.archive, ctx.game, ctx.position, seat)
    )
}

/// `resend`: a player's report again, to the address on file. At most three times for
/// one turn, so that the command is no way to flood an address.
fn resend(ctx: &Ctx<'_>, who: Who<'_>, turn: Option<u32>) -> Result<(String, String), Error> {
    let Who::Player(p) = who else {
        return Ok((
            "resend: refused (the GM uses judge mail --resend)".into(),
            "A report is resent to a player: as the GM, use `judge mail DIR --resend PLAYER`."
                .into(),
        ));
    };
    let last = ctx.archive.turns()?.last().copied();
    let Some(last) = last else {
        return Ok((
            "resend: nothing yet".into(),
            "No report has been made yet: the game has not begun.".into(),
        ));
    };
    let turn = turn.unwrap_or(last);
    if turn > last {
        return Ok((
            format!("resend turn {turn}: refused (not played)"),
            format!("Turn {turn} has not been played: the last report is turn {last}'s."),
        ));
    }
    if outbox::known(ctx.archive, &format!("report-{turn:03}-{}-again-3", p.id)) {
        return Ok((
            format!("resend turn {turn}: refused (three times already)"),
            format!(
                "Turn {turn}'s report was resent to you three times already: if it does not arrive, ask the GM."
            ),
        ));
    }
    super::send::resend(ctx.archive, ctx.game, turn, &p.id)?;
    Ok((
        format!("resend turn {turn}: queued"),
        format!("Turn {turn}'s report is mailed to you again, in a mail of its own."),
    ))
}

/// `games` in a mail for this game: how it stands. (A mail of a folder of games that
/// asks `games` and names no game is answered by the folder, with all of them.)
fn games(ctx: &Ctx<'_>, address: &str) -> String {
    let here = route::Entry::of(ctx.archive, ctx.game);
    let plays = route::games_of(std::slice::from_ref(&here), Some(address));
    let mut out = if plays.is_empty() {
        format!("You do not play in {}.\n", here.name)
    } else {
        format!("    game {:<16} {}\n", here.name, here.about)
    };
    if crate::archive::house::House::beside(ctx.archive.root())
        .ok()
        .flatten()
        .is_some()
    {
        out.push_str("\nThis judge runs other games too: a mail with `games` and no game line lists all of yours.\n");
    }
    out
}

/// `press`: relay a message, and keep it.
fn press(
    ctx: &Ctx<'_>,
    p: &PlayerEntry,
    n: usize,
    to: &PressTo,
    anonymous: bool,
    text: &str,
) -> Result<(String, String), Error> {
    let mode = ctx.archive.game.press.unwrap_or_default();
    match mode {
        Press::Off => {
            return Ok((
                "press: refused (off in this game)".into(),
                "This game has no press: the GM turned it off. Nothing was sent.".into(),
            ));
        }
        Press::Open if anonymous => {
            return Ok((
                "press: refused (no anonymous press here)".into(),
                "This game's press is open: it goes under your name. Write `press to …` without `anonymous`. Nothing was sent.".into(),
            ));
        }
        _ => {}
    }
    // The players as game.toml has them now (a `join` earlier in this run may have
    // seated one).
    let now = Archive::open(ctx.archive.root())?;
    let seated: Vec<&PlayerEntry> = now.game.players.iter().filter(|q| !q.is_free()).collect();
    let to_seat: Option<&PlayerEntry> = match to {
        PressTo::All => None,
        PressTo::Seat(s) => match seated.iter().find(|q| q.id.eq_ignore_ascii_case(s)) {
            Some(q) if q.id == p.id => {
                return Ok((
                    "press: refused (to oneself)".into(),
                    "That press is to yourself. Nothing was sent.".into(),
                ));
            }
            Some(q) => Some(q),
            None => {
                let ids: Vec<&str> = seated.iter().map(|q| q.id.as_str()).collect();
                return Ok((
                    "press: refused (no such player)".into(),
                    format!(
                        "There is no player `{}` in {}: write one of {}, or `all`. Nothing was sent.",
                        redact::blank(s, ctx.secrets),
                        ctx.archive.name(),
                        ids.join(", ")
                    ),
                ));
            }
        },
    };
    // A secret given anywhere in the mail is never relayed.
    let text = redact::blank(text, ctx.secrets);
    let from = super::press::signed(&p.id, &p.name, anonymous);
    let name = ctx.archive.name();
    let turn = ctx.position.turn() + 1;
    super::press::keep(
        ctx.archive,
        turn,
        ctx.seq,
        &p.id,
        to_seat.map(|q| q.id.as_str()),
        &from,
        &text,
    )?;
    let readers: Vec<&PlayerEntry> = match to_seat {
        Some(q) => vec![q],
        None => seated.into_iter().filter(|q| q.id != p.id).collect(),
    };
    let whom = to_seat.map_or("everyone".to_string(), |q| q.id.clone());
    for r in &readers {
        let body = format!(
            "Press in {name} from {from}, to {}:\n\n{}\n\n{}\n",
            if to_seat.is_some() {
                "you alone"
            } else {
                "everyone"
            },
            text.lines()
                .map(|l| format!("    {l}"))
                .collect::<Vec<_>>()
                .join("\n"),
            if to_seat.is_some() {
                "To answer, mail the judge a line `press to SEAT: your text` with your secret."
            } else {
                "Press to everyone is also printed at the end of this turn's report."
            }
        );
        outbox::queue_unless_unaddressable(
            ctx.archive,
            &Outgoing {
                key: format!("press-{:06}-{n}-{}", ctx.seq, r.id),
                to_name: r.name.clone(),
                to: r.email.clone(),
                subject: format!("[{name}] press from {from}"),
                body,
                in_reply_to: None,
                attachment: None,
            },
        )?;
    }
    Ok((
        format!("press to {whom}: relayed"),
        format!(
            "Relayed to {whom}{}.{}",
            if anonymous {
                " without your name"
            } else {
                " under your name"
            },
            if to_seat.is_none() {
                " It is printed at the end of this turn's report."
            } else {
                ""
            }
        ),
    ))
}

/// Whether `given` is the GM's secret.
pub fn gm_secret_ok(gm: &GmEntry, given: Option<&str>) -> bool {
    match (given, gm.secret_hash.as_deref()) {
        (Some(s), Some(hash)) => secret::verify(s, hash),
        _ => false,
    }
}

/// The answer to a mail's commands, to the address on file.
pub fn answer(
    archive: &Archive,
    who: Who<'_>,
    key: &str,
    in_reply_to: Option<&str>,
    done: &Done,
) -> Result<bool, Error> {
    if done.answer.is_empty() {
        return Ok(false);
    }
    let name = archive.name();
    let mut what: Vec<&str> = Vec::new();
    for w in done.log.iter().filter_map(|l| l.split(':').next()) {
        if !what.contains(&w) {
            what.push(w);
        }
    }
    let what = if what.len() > 4 {
        format!("{} commands", done.log.len())
    } else {
        what.join(", ")
    };
    let mut body = format!(
        "The judge of {name} read {} in your mail:\n\n",
        if done.answer.len() == 1 {
            "one command".to_string()
        } else {
            format!("{} commands", done.answer.len())
        }
    );
    body.push_str(&done.answer.join("\n\n"));
    body.push('\n');
    let queued = outbox::queue_unless_unaddressable(
        archive,
        &Outgoing {
            key: key.to_string(),
            to_name: who.name().to_string(),
            to: who.address().to_string(),
            subject: format!("[{name}] {what}"),
            body,
            in_reply_to: in_reply_to.map(str::to_string),
            attachment: None,
        },
    )?;
    Ok(queued)
}
