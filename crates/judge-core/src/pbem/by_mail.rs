//! Carrying out commands by mail (docs/mail-commands.md); reading them is
//! [`super::commands`]'. The answer to every command of a mail goes in one mail to the
//! address on file, never to the mail's From: — so a command that only answers
//! (`help`, `template`, `status`, `resend`, `games`) needs no secret: a forged one
//! tells its owner only what they may know. A command that acts (`press`, the GM's
//! `extend`, `pause`, `resume`) needs the sender's secret. No answer holds a secret.

use super::commands::{Command, Found, PressTo};
use super::error::Error;
use super::route;
pub use super::sender::{Ctx, Who};
use crate::archive::{Archive, GmEntry, PlayerEntry, Press};
use crate::mail::outbox::{self, Outgoing};
use crate::mail::{redact, secret};

/// What the commands of a mail did.
#[derive(Debug, Default)]
pub struct Done {
    /// The answer's paragraphs, one per command.
    pub answer: Vec<String>,
    /// One line per command for the mail log and the GM (no press text, no secret).
    pub log: Vec<String>,
    /// The seat a `join` took, if one did.
    pub joined: Option<String>,
    /// How many command lines the mail held (more than were carried out, when it held
    /// more than [`COMMANDS_PER_MAIL`]).
    pub read: usize,
}

impl Done {
    fn say(&mut self, written: &str, log: impl Into<String>, answer: impl Into<String>) {
        self.log.push(log.into());
        self.answer
            .push(format!("> {written}\n\n{}", answer.into()));
    }
}

/// The most commands carried out from one mail: the rest are answered in one line, so
/// that one mail of 10,000 `help` lines costs what 20 do.
pub const COMMANDS_PER_MAIL: usize = 20;

/// The most an answer to a mail's commands holds, in bytes of its text: more is cut,
/// with a line saying so.
pub const ANSWER_BYTES: usize = 64 * 1024;

/// How much of a command line an answer quotes, in characters.
const QUOTED: usize = 200;

/// Carry out `found`, in the order written: at most [`COMMANDS_PER_MAIL`] of them, and
/// each command that only answers once, however often it is written.
pub fn carry_out(ctx: &Ctx<'_>, who: Who<'_>, found: &[Found]) -> Result<Done, Error> {
    if let Who::Stranger(address) = who {
        return stranger(ctx, address, found);
    }
    let mut done = Done {
        read: found.len(),
        ..Done::default()
    };
    // The answers given so far, by what they answer: the line that had it.
    let mut answered: std::collections::BTreeMap<String, usize> = Default::default();
    // Press messages and resent reports this mail sent so far.
    let (mut press_sent, mut resends) = (0, 0);
    // The line of the mail's first `notify`: the only one carried out.
    let mut notified: Option<usize> = None;
    for (n, f) in found.iter().enumerate() {
        if n == COMMANDS_PER_MAIL {
            let rest = found.len() - n;
            done.log.push(format!(
                "{}: not carried out ({COMMANDS_PER_MAIL} a mail)",
                crate::text::count(rest, "more command")
            ));
            done.answer.push(format!(
                "The judge carries out at most {COMMANDS_PER_MAIL} commands from one mail: {} from line {} on {} not carried out. Send what you need in another mail.",
                crate::text::count(rest, "command"),
                f.line,
                if rest == 1 { "was" } else { "were" }
            ));
            break;
        }
        // The answer quotes the line: never a secret written on it, and not more of it
        // than a reader needs to know which line it was.
        let written = crate::mail::budget::cut(&redact::blank(&f.written, ctx.secrets), QUOTED);
        let command = match &f.command {
            Ok(c) => c,
            Err(why) => {
                done.say(
                    &written,
                    format!("line {}: not read", f.line),
                    format!(
                        "Line {}: {}. Nothing was done for it.",
                        f.line,
                        redact::blank(&why.to_string(), ctx.secrets)
                    ),
                );
                continue;
            }
        };
        let name = command.name();
        // A command that only answers is answered once a mail.
        if !command.acts()
            && !matches!(
                command,
                Command::Join { .. } | Command::Confirm { .. } | Command::Resend(_)
            )
        {
            let key = format!("{command:?}");
            if let Some(first) = answered.get(&key) {
                done.say(
                    &written,
                    format!("{name}: answered above"),
                    format!("The same as the answer to line {first}, above."),
                );
                continue;
            }
            answered.insert(key, f.line);
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
        // A command that changes the game sees it as the commands before it in this
        // mail left it: game.toml read again (`pause, pause` was
        // "paused" twice, `resume, pause` left a paused game running).
        let fresh = if command.acts() {
            Some(Archive::open(ctx.archive.root())?)
        } else {
            None
        };
        let archive = fresh.as_ref().unwrap_or(ctx.archive);
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
                let text =
                    super::status::for_player(ctx.archive, ctx.game, seat, ctx.filing, ctx.now)?;
                done.say(&written, "status: answered", text);
            }
            Command::Resend(turn) => {
                let (log, text) = resend(ctx, who, *turn, resends)?;
                if resent(&log) {
                    resends += 1;
                }
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
                let (log, text) = press(ctx, p, to, *anonymous, text, press_sent)?;
                if sent_press(&log) {
                    press_sent += 1;
                }
                done.say(&written, log, text);
            }
            Command::Join { game, .. } | Command::Confirm { game, .. } => {
                let (log, text) = super::signup::known(ctx.archive, who, name, game);
                done.say(&written, log, text);
            }
            Command::Extend(by) => {
                let (log, text) = match super::clock::extend(archive, ctx.game, *by, ctx.now) {
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
                let (log, text) = match super::clock::pause(archive, ctx.game, ctx.now) {
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
                        super::absent::vacation(archive, &p.id, *until, ctx.now)
                    }
                    _ => super::absent::grace(archive, ctx.game, &p.id, ctx.now),
                };
                let (log, text) = match result {
                    Ok(text) => (format!("{name}: granted"), text),
                    Err(e) => (format!("{name}: refused"), format!("Not done: {e}.")),
                };
                done.say(&written, log, text);
            }
            Command::Notify(hook) => {
                let Who::Player(p) = who else {
                    done.say(
                        &written,
                        "notify: refused (a player's)",
                        "`notify` sets a player's own webhook; the game's is [notify] in game.toml.",
                    );
                    continue;
                };
                if let Some(first) = notified {
                    done.say(
                        &written,
                        "notify: not carried out (one a mail)",
                        format!(
                            "Only the first `notify` of a mail is carried out: line {first}'s."
                        ),
                    );
                    continue;
                }
                notified = Some(f.line);
                let (log, text) = notify(archive, &p.id, hook.as_ref())?;
                done.say(&written, log, text);
            }
            Command::Start => {
                let (log, text) = match super::signup::start(archive, ctx.game, ctx.now) {
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
                let (log, text) = match super::clock::resume(archive, ctx.game, ctx.now) {
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

/// The commands of an address the game does not know: only the first `join` or
/// `confirm` of the mail, answered (if at all) by [`super::signup`] in the judge's own
/// words and at most once a day; nothing else is carried out, quoted or answered
/// (`join` must be no way to mail a stranger's text to anyone).
fn stranger(ctx: &Ctx<'_>, address: &str, found: &[Found]) -> Result<Done, Error> {
    let mut done = Done {
        read: found.len(),
        ..Done::default()
    };
    let first = found.iter().find_map(|f| match &f.command {
        Ok(c @ (Command::Join { .. } | Command::Confirm { .. })) => Some(c),
        _ => None,
    });
    let said = match first {
        Some(Command::Join { game, name }) => Some(super::signup::ask(ctx, address, game, name)?),
        Some(Command::Confirm { game, code }) => {
            Some(super::signup::confirm(ctx, address, game, code)?)
        }
        _ => None,
    };
    if let Some(s) = said {
        done.log.push(s.log);
        done.joined = s.seat;
    }
    let rest = found.len() - usize::from(first.is_some());
    if rest > 0 {
        done.log.push(format!(
            "{}: not answered (not a player)",
            crate::text::count(rest, "command")
        ));
    }
    Ok(done)
}

/// `notify URL` / `notify off`: a player's own webhook set or taken away. The answer
/// names the webhook's host only (its address is the player's own secret, and mail is
/// kept); nothing is posted to it until the next notice.
fn notify(
    archive: &Archive,
    seat: &str,
    hook: Option<&(String, Option<crate::archive::schema::NotifyFormat>)>,
) -> Result<(String, String), Error> {
    use crate::archive::schema::NotifyFormat;
    let settings = archive.notify();
    if settings.and_then(|n| n.players) == Some(false) {
        return Ok((
            "notify: refused (the game takes no players' webhooks)".into(),
            "This game posts no player's notices: its GM set [notify] players = false. Nothing was done.".into(),
        ));
    }
    let mut prefs = super::preferences::Preferences::load(archive)?;
    let Some((url, format)) = hook else {
        let had = prefs.webhook(seat).is_some();
        prefs.set_webhook(archive, seat, None)?;
        return Ok((
            "notify: off".into(),
            if had {
                "Your notices are no longer posted to a webhook; the judge's mail goes on as before."
            } else {
                "You had no webhook: nothing changed. The judge's mail goes on as before."
            }
            .into(),
        ));
    };
    let private_ok = settings.and_then(|n| n.private_hosts).unwrap_or(false);
    if let Err(e) = crate::notify::url::check_player(url, private_ok) {
        return Ok((
            "notify: refused (the address)".into(),
            format!("Not done: {e}."),
        ));
    }
    let host = crate::notify::url::host(url).unwrap_or_default();
    // The format the address says, unless the player named one.
    let format = format.unwrap_or(
        if (host == "discord.com" || host == "discordapp.com") && url.contains("/api/webhooks/") {
            NotifyFormat::Discord
        } else if host == "hooks.slack.com" {
            NotifyFormat::Slack
        } else {
            NotifyFormat::Json
        },
    );
    prefs.set_webhook(archive, seat, Some((url.clone(), format)))?;
    Ok((
        format!("notify: set ({})", format.name()),
        format!(
            "From now on your notices are posted to the webhook at {host}, as {}: each turn played, the game's end, and your orders missing near a deadline. The judge's mail goes on as before. `notify off` stops them.",
            match format {
                NotifyFormat::Discord => "Discord messages",
                NotifyFormat::Slack => "Slack messages",
                NotifyFormat::Json =>
                    "JSON (unsigned: the judge holds no secret it shares with you)",
            }
        ),
    ))
}

fn help(ctx: &Ctx<'_>, how: &str) -> String {
    let name = ctx.archive.name();
    format!(
        "{name} is a game of {} played by mail. Mail your orders to this address as plain text (in the mail, or a text attachment), starting with the header:\n\n    game {name}\n    player YOUR-SEAT\n    turn N\n    secret YOUR-SECRET\n\n{how}\n\nThe whole order guide: {}. Send `template` for an order file ready to fill.\n\nCommands you can mail (each on a line of its own; several in one mail are fine):\n\n    help                      this guide\n    template                  an order file for the next turn, ready to fill\n    status                    the turn, the deadline, whose orders are in, yours as filed\n    resend                    the last report again (resend turn 3: turn 3's)\n    games                     your games at this address\n    press to red: text        a message to one player (or `all`); needs your secret\n    grace                     the next deadline later, if the game allows; needs your secret\n    vacation until 2026-12-20 away until then, if the game allows; needs your secret\n    notify URL                your notices posted to a webhook (notify off: no more); needs your secret\n\nThe commands are in docs/mail-commands.md.",
        ctx.game.title(),
        super::order_form::guide_named(ctx.archive, ctx.game),
    )
}

fn template(ctx: &Ctx<'_>, seat: &str) -> String {
    format!(
        "{}\n\n{}",
        super::reply::TEMPLATE_ABOVE,
        super::order_form::order_template(ctx.archive, ctx.game, ctx.position, seat)
    )
}

/// `resend`: a player's report again, to the address on file. At most three times for
/// one turn, so that the command is no way to flood an address.
fn resend(
    ctx: &Ctx<'_>,
    who: Who<'_>,
    turn: Option<u32>,
    in_mail: usize,
) -> Result<(String, String), Error> {
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
    if in_mail >= RESENDS_PER_MAIL {
        return Ok((
            format!("resend turn {turn}: refused ({RESENDS_PER_MAIL} a mail)"),
            format!(
                "One mail asks for at most {RESENDS_PER_MAIL} reports: turn {turn}'s was not resent. Ask for it in another mail."
            ),
        ));
    }
    if ctx.resends_today + in_mail >= RESENDS_PER_DAY {
        return Ok((
            format!("resend turn {turn}: refused ({RESENDS_PER_DAY} a day)"),
            format!(
                "{RESENDS_PER_DAY} reports were resent to you within the last day, all the judge resends to one player: turn {turn}'s was not. Ask again tomorrow, or ask the GM."
            ),
        ));
    }
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

/// The most press messages one mail may send; more are refused, each in a line.
pub const PRESS_PER_MAIL: usize = 5;
/// The most press messages one player may send within an hour.
pub const PRESS_PER_HOUR: usize = 20;
/// The longest press message, in characters.
pub const PRESS_CHARS: usize = 10_000;
/// The most reports one mail may ask to be resent.
pub const RESENDS_PER_MAIL: usize = 2;
/// The most reports resent to one player within a day.
pub const RESENDS_PER_DAY: usize = 6;

/// Whether a line of the mail log says a press message went out or waits for its hour
/// (what [`PRESS_PER_HOUR`] counts).
pub fn sent_press(log_line: &str) -> bool {
    log_line.starts_with("press to ") && log_line.ends_with(": relayed")
        || log_line.starts_with("anonymous press to ") && log_line.ends_with(": held")
}

/// Whether a line of the mail log says a report was resent (what [`RESENDS_PER_DAY`]
/// counts).
pub fn resent(log_line: &str) -> bool {
    log_line.starts_with("resend turn ") && log_line.ends_with(": queued")
}

/// `press`: relay a message, and keep it; anonymous press waits for its hour.
fn press(
    ctx: &Ctx<'_>,
    p: &PlayerEntry,
    to: &PressTo,
    anonymous: bool,
    text: &str,
    sent_in_mail: usize,
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
    if sent_in_mail >= PRESS_PER_MAIL {
        return Ok((
            format!("press: refused ({PRESS_PER_MAIL} a mail)"),
            format!(
                "One mail sends at most {PRESS_PER_MAIL} press messages: this one was not sent. Send it in another mail."
            ),
        ));
    }
    if ctx.press_this_hour + sent_in_mail >= PRESS_PER_HOUR {
        return Ok((
            format!("press: refused ({PRESS_PER_HOUR} an hour)"),
            format!(
                "You sent {PRESS_PER_HOUR} press messages within the last hour, all one player may: this one was not sent. Send it again in an hour."
            ),
        ));
    }
    let chars = text.chars().count();
    if chars > PRESS_CHARS {
        return Ok((
            "press: refused (too long)".into(),
            format!(
                "The message has {chars} characters, and press is at most {PRESS_CHARS}: nothing was sent. Shorten it, or send it in parts."
            ),
        ));
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
                        crate::mail::budget::cut(&redact::blank(s, ctx.secrets), 60),
                        ctx.archive.name(),
                        ids.join(", ")
                    ),
                ));
            }
        },
    };
    // A secret given anywhere in the mail is never relayed.
    let text = redact::blank(text, ctx.secrets);
    let to_id = to_seat.map(|q| q.id.as_str());
    let whom = to_id.unwrap_or("all");
    let turn = ctx.position.turn() + 1;
    if anonymous {
        let at = super::press::hold(
            ctx.archive,
            &super::press::Waiting {
                seat: p.id.clone(),
                to: to_id.map(str::to_string),
                text,
                came: crate::archive::schedule::stamp(ctx.now),
            },
            ctx.now,
        )?;
        return Ok((
            format!("anonymous press to {whom}: held"),
            format!(
                "Held, to be relayed without your name at {} with all the anonymous press of this hour: so the time it arrives does not tell who sent it.{}",
                crate::archive::schedule::shown(at),
                if to_id.is_none() {
                    " It is printed at the end of the report of the turn then due."
                } else {
                    ""
                }
            ),
        ));
    }
    let from = super::press::signed(&p.id, &p.name, false);
    super::press::relay(ctx.archive, turn, &p.id, to_id, &from, &text)?;
    Ok((
        format!("press to {whom}: relayed"),
        format!(
            "Relayed to {} under your name.{}",
            to_id.unwrap_or("everyone"),
            if to_id.is_none() {
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
        if done.read == 1 {
            "one command".to_string()
        } else {
            format!("{} commands", done.read)
        }
    );
    for (i, a) in done.answer.iter().enumerate() {
        if i > 0 {
            body.push_str("\n\n");
        }
        if body.len() + a.len() > ANSWER_BYTES {
            // As much of this paragraph as there is room for, to the end of a line.
            let mut end = ANSWER_BYTES.saturating_sub(body.len()).min(a.len());
            while !a.is_char_boundary(end) {
                end -= 1;
            }
            let part = &a[..end];
            let part = part.rfind('\n').map_or("", |nl| &part[..nl]);
            if !part.is_empty() {
                body.push_str(part);
                body.push_str("\n…\n\n");
            }
            body.push_str(&format!(
                "The rest of this answer is left out: an answer to one mail holds at most {} KB. Send the commands left unanswered in another mail.",
                ANSWER_BYTES / 1024
            ));
            break;
        }
        body.push_str(a);
    }
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
