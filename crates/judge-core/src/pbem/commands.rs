//! Commands by mail (docs/mail-commands.md): lines that ask the judge for something
//! rather than order pieces about, the same in every game. A mail may hold commands,
//! orders or both; the command lines are taken out of the orders before they are
//! filed (left as blank lines, so that every order keeps its line number).
//!
//! ```text
//! help                      the order guide, with links to the docs
//! template                  an order file for the next turn, ready to fill
//! status                    the turn, the deadline, whose orders are in, your own file
//! resend                    the last report again   (resend turn 3: that turn's)
//! games                     your games at this address and how each stands
//! press to red: text        a message to one player (or `all`), under your name
//! anonymous press to all: … the same without your name, where the game allows it
//! join island as Ann        ask for a seat of a game open for sign-up (a code is mailed)
//! confirm island CODE       take it: the line that mail asks to send back
//! extend 24h, pause, resume the GM's: move the deadline, stop and restart the clock
//! start                     the GM's: begin a game open for sign-up as it is
//! grace                     the next deadline later, as the game allows
//! vacation until 2026-12-20 away until then: not reminded, misses not counted
//! notify URL, notify off    your own notices posted to a webhook (Discord, Slack, JSON)
//! ```
//!
//! A press whose `:` ends the line goes on over the lines below it, up to a line
//! `end press` (or the end of the mail). Reading a mail is a pure function of its text:
//! what each command does is [`super::by_mail`]'s.

use std::time::Duration;

use crate::text::plain;

/// Who a press message is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PressTo {
    All,
    /// A seat, as the sender wrote it (lower case).
    Seat(String),
}

/// One command, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    Template,
    Status,
    /// The report of this turn again; `None`: the last one.
    Resend(Option<u32>),
    Games,
    Press {
        to: PressTo,
        anonymous: bool,
        /// The message as written, its lines joined with `\n`.
        text: String,
    },
    /// A seat for a player called `name` in `game`, asked for.
    Join {
        game: String,
        name: String,
    },
    /// The seat asked for, taken: the code the judge mailed to the address, sent back.
    Confirm {
        game: String,
        code: String,
    },
    /// The GM's: the next deadline this much later.
    Extend(Duration),
    Pause,
    Resume,
    /// The GM's: begin a game open for sign-up with the seats taken so far.
    Start,
    /// A player's: the next deadline later by the game's grace.
    Grace,
    /// A player's: away until then (RFC 3339, or a date: the day's start, UTC).
    Vacation(std::time::SystemTime),
    /// A player's: their own notices posted to this webhook (the address as written, and
    /// the format if named), or (`None`) no more.
    Notify(Option<(String, Option<crate::archive::schema::NotifyFormat>)>),
}

impl Command {
    /// The command's name, as the docs and the answers call it.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Help => "help",
            Command::Template => "template",
            Command::Status => "status",
            Command::Resend(_) => "resend",
            Command::Games => "games",
            Command::Press { .. } => "press",
            Command::Join { .. } => "join",
            Command::Confirm { .. } => "confirm",
            Command::Extend(_) => "extend",
            Command::Pause => "pause",
            Command::Resume => "resume",
            Command::Start => "start",
            Command::Grace => "grace",
            Command::Vacation(_) => "vacation",
            Command::Notify(_) => "notify",
        }
    }

    /// Only the GM may give it.
    pub fn is_gm(&self) -> bool {
        matches!(
            self,
            Command::Extend(_) | Command::Pause | Command::Resume | Command::Start
        )
    }

    /// It acts (for a player or the GM), so it needs the sender's secret; the others
    /// only answer to the address on file, which a forged mail cannot read.
    pub fn acts(&self) -> bool {
        self.is_gm()
            || matches!(
                self,
                Command::Press { .. } | Command::Grace | Command::Vacation(_) | Command::Notify(_)
            )
    }
}

/// A command line and what it reads as: the command, or why it does not read (in a
/// sentence with the fix).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// 1-based, in the text it came from.
    pub line: usize,
    /// The line as written (for a press, its first line).
    pub written: String,
    pub command: Result<Command, CommandError>,
}

/// Why a command line does not read, said with the fix (the answer quotes it as
/// "Line N: …. Nothing was done for it.").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("`{word}` stands alone on its line; leave out `{rest}`")]
    StandsAlone { word: String, rest: String },
    #[error("`vacation until {0}`: write a date, like `vacation until 2026-12-20`")]
    VacationDate(String),
    #[error("write until when, like `vacation until 2026-12-20`")]
    VacationUntil,
    #[error("`resend turn {0}`: the turn is a number, like `resend turn 3`")]
    ResendTurn(String),
    #[error("write `resend` for the last report, or `resend turn 3` for turn 3's")]
    Resend,
    #[error("`extend {0}`: write a duration up to a year, like `extend 24h` or `extend 2days`")]
    ExtendBy(String),
    #[error("write how much longer, like `extend 24h`")]
    Extend,
    #[error("the name after `as` is at most 60 characters, without `<`, `>` or `\"`")]
    JoinName,
    #[error("write the game and your name, like `join island as Ann`")]
    Join,
    #[error("write the line the judge mailed you, like `confirm island abcd-efgh-jkmn`")]
    Confirm,
    #[error("{PRESS}; `anonymous press to all: …` leaves your name out")]
    PressForm,
    #[error("the press has no `:` before its text: {PRESS}")]
    PressColon,
    #[error("say who the press is for: {PRESS}")]
    PressTo,
    #[error(
        "the press has no text: write it after the `:`, or on the lines below up to a line `end press`"
    )]
    PressText,
    #[error(
        "write `notify` and your webhook's address (`notify https://discord.com/api/webhooks/…`), optionally its format (`discord`, `slack` or `json`), or `notify off`"
    )]
    Notify,
    #[error("not a command")]
    NotACommand,
}

/// How a press is written, as the answers to a press that does not read say it.
const PRESS: &str = "write `press to red: your text` (or `press to all: …`)";

/// A text with its commands taken out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    pub commands: Vec<Found>,
    /// The text without the command lines (each left as an empty line).
    pub rest: String,
}

/// The words every command begins with; a line beginning with any other is no command.
const FIRST_WORDS: &[&str] = &[
    "help",
    "template",
    "status",
    "resend",
    "games",
    "press",
    "anonymous",
    "anon",
    "join",
    "confirm",
    "extend",
    "pause",
    "resume",
    "start",
    "grace",
    "vacation",
    "notify",
];

/// A line's words made plain and lower case, a trailing `.` or `,` dropped.
fn words(line: &str) -> Vec<String> {
    let clean: String = line.chars().filter_map(plain).collect();
    clean
        .split_whitespace()
        .map(|w| w.trim_end_matches(['.', ',']).to_ascii_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Take the commands out of `text`. What a mail program added or quoted (quotes, the
/// history below a reply separator, everything below a signature line `-- `:
/// [`crate::mail::letter`]) is left as it is, as order readers leave it.
pub fn split(text: &str) -> Split {
    let lines: Vec<&str> = text.lines().collect();
    let own = crate::mail::letter::read(text);
    let mut out = Split::default();
    let mut rest: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let Some(Some(at)) = own.get(i) else {
            rest.push(line.to_string());
            i += 1;
            continue;
        };
        let w = words(line.get(at.clone()).unwrap_or(line));
        let first = w.first().map(|s| s.trim_end_matches(':'));
        if !first.is_some_and(|f| FIRST_WORDS.contains(&f)) {
            rest.push(line.to_string());
            i += 1;
            continue;
        }
        let mut found = Found {
            line: i + 1,
            written: line.trim().to_string(),
            command: read(line, &w),
        };
        rest.push(String::new());
        i += 1;
        // A press whose text is empty on its line takes the lines below, to `end press`.
        if let Ok(Command::Press { text, .. }) = &mut found.command
            && text.is_empty()
        {
            let mut body = Vec::new();
            while i < lines.len() {
                let l = lines[i];
                let lw = words(l);
                // The signature, or history a mail program put below the text.
                if own.get(i).is_some_and(Option::is_none) && !l.trim_start().starts_with('>') {
                    break;
                }
                rest.push(String::new());
                i += 1;
                if matches!(
                    lw.iter().map(String::as_str).collect::<Vec<_>>()[..],
                    ["end", "press"] | ["endpress"]
                ) {
                    break;
                }
                body.push(l.trim_end());
            }
            while body.last().is_some_and(|l| l.trim().is_empty()) {
                body.pop();
            }
            *text = body.join("\n");
            if text.trim().is_empty() {
                found.command = Err(CommandError::PressText);
            }
        }
        out.commands.push(found);
    }
    out.rest = rest.join("\n");
    if text.ends_with('\n') && !out.rest.is_empty() {
        out.rest.push('\n');
    }
    out
}

/// Read one command line (its words `w`, already plain and lower case).
fn read(line: &str, w: &[String]) -> Result<Command, CommandError> {
    let w: Vec<&str> = w.iter().map(|s| s.trim_end_matches(':')).collect();
    let alone = |c: Command| {
        if w.len() == 1 {
            Ok(c)
        } else {
            Err(CommandError::StandsAlone {
                word: w[0].to_string(),
                rest: w[1..].join(" "),
            })
        }
    };
    match w[0] {
        "help" => alone(Command::Help),
        "template" => alone(Command::Template),
        "status" => alone(Command::Status),
        "games" => alone(Command::Games),
        "pause" => alone(Command::Pause),
        "resume" => alone(Command::Resume),
        "start" => alone(Command::Start),
        "grace" => alone(Command::Grace),
        "vacation" => match w[1..] {
            ["until", date] => {
                let full = if date.len() == 10 {
                    format!("{date}T00:00:00Z")
                } else {
                    date.to_ascii_uppercase()
                };
                humantime::parse_rfc3339_weak(&full)
                    .map(Command::Vacation)
                    .map_err(|_| CommandError::VacationDate(date.to_string()))
            }
            _ => Err(CommandError::VacationUntil),
        },
        "resend" => match w[1..] {
            [] => Ok(Command::Resend(None)),
            ["turn", n] => n
                .parse()
                .map(|n| Command::Resend(Some(n)))
                .map_err(|_| CommandError::ResendTurn(n.to_string())),
            _ => Err(CommandError::Resend),
        },
        "extend" => match w[1..] {
            [by] => humantime::parse_duration(by)
                .ok()
                .filter(|d| *d > Duration::ZERO && *d <= crate::archive::schedule::LONGEST)
                .map(Command::Extend)
                .ok_or_else(|| CommandError::ExtendBy(by.to_string())),
            _ => Err(CommandError::Extend),
        },
        "join" => match w[1..] {
            [game, "as", _, ..] => {
                // The name as written, case kept: everything after ` as `.
                let name = after_word(line, "as").unwrap_or_default();
                let name = name.trim().trim_end_matches('.').trim().to_string();
                if name.chars().count() > 60
                    || name
                        .chars()
                        .any(|c| c.is_control() || c == '<' || c == '>' || c == '"')
                {
                    Err(CommandError::JoinName)
                } else {
                    Ok(Command::Join {
                        game: game.to_string(),
                        name,
                    })
                }
            }
            _ => Err(CommandError::Join),
        },
        "confirm" => match w[1..] {
            [game, ref code @ ..] if !code.is_empty() => Ok(Command::Confirm {
                game: game.to_string(),
                code: code.join(" "),
            }),
            _ => Err(CommandError::Confirm),
        },
        "press" | "anonymous" | "anon" => press(line, &w),
        "notify" => notify(line, &w),
        _ => Err(CommandError::NotACommand),
    }
}

/// What follows the first `word` of `line` (case as written), if it is there.
fn after_word<'a>(line: &'a str, word: &str) -> Option<&'a str> {
    let lower = line.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find(word) {
        let start = from + at;
        let end = start + word.len();
        let before = lower[..start].chars().next_back();
        let after = lower[end..].chars().next();
        if before.is_none_or(char::is_whitespace) && after.is_none_or(char::is_whitespace) {
            return line.get(end..);
        }
        from = end;
    }
    None
}

/// `notify URL [FORMAT]` or `notify off`: the address as written (its case kept: a
/// webhook's token is case-sensitive), without the `<…>` a mail program may put round it.
fn notify(line: &str, w: &[&str]) -> Result<Command, CommandError> {
    use crate::archive::schema::NotifyFormat;
    if w[1..] == ["off"] {
        return Ok(Command::Notify(None));
    }
    let raw: Vec<&str> = after_word(line, "notify")
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    let (url, format) = match raw[..] {
        [url] => (url, None),
        [url, f] => (
            url,
            Some(match f.to_ascii_lowercase().trim_end_matches(['.', ',']) {
                "discord" => NotifyFormat::Discord,
                "slack" => NotifyFormat::Slack,
                "json" => NotifyFormat::Json,
                _ => return Err(CommandError::Notify),
            }),
        ),
        _ => return Err(CommandError::Notify),
    };
    let url = url
        .trim_end_matches(['.', ','])
        .trim_start_matches('<')
        .trim_end_matches('>');
    if url.is_empty() {
        return Err(CommandError::Notify);
    }
    Ok(Command::Notify(Some((url.to_string(), format))))
}

fn press(line: &str, w: &[&str]) -> Result<Command, CommandError> {
    let (anonymous, w) = match w {
        ["anonymous" | "anon", rest @ ..] => (true, rest),
        _ => (false, w),
    };
    if w.first() != Some(&"press") {
        return Err(CommandError::PressForm);
    }
    // The text is what follows the first `:`, as written.
    let Some((head, text)) = line.split_once(':') else {
        return Err(CommandError::PressColon);
    };
    let head = words(head);
    let head: Vec<&str> = head.iter().map(String::as_str).collect();
    let to = match head[..] {
        [.., "press", "to", who] => who,
        _ => return Err(CommandError::PressTo),
    };
    let to = if to == "all" || to == "everyone" {
        PressTo::All
    } else {
        PressTo::Seat(to.to_string())
    };
    Ok(Command::Press {
        to,
        anonymous,
        text: text.trim().to_string(),
    })
}

/// Whether a text (its commands taken out) still holds orders: a line that is not
/// blank, a comment, a quote, a header line (`game`, `player`, `turn`, `secret`), one
/// of the judge's own lines (`as is`, `mail …`), or below a signature.
pub fn holds_orders(text: &str) -> bool {
    let own = crate::mail::letter::read(text);
    for (k, line) in text.lines().enumerate() {
        let Some(Some(at)) = own.get(k) else {
            continue;
        };
        let t = line.get(at.clone()).unwrap_or(line).trim();
        if t.is_empty() || t.starts_with('#') || super::directives::is_directive(t) {
            continue;
        }
        let w = words(t);
        let first = w.first().map_or("", |f| f.trim_end_matches([':', '=']));
        if matches!(first, "game" | "player" | "turn" | "secret") {
            continue;
        }
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(text: &str) -> Result<Command, CommandError> {
        let s = split(text);
        assert_eq!(s.commands.len(), 1, "{text:?}: {:?}", s.commands);
        s.commands[0].command.clone()
    }

    /// docs/mail-commands.md: every command of the table reads, in any case, with a
    /// trailing full stop.
    #[test]
    fn every_documented_command_reads() {
        assert_eq!(only("Help."), Ok(Command::Help));
        assert_eq!(only("template"), Ok(Command::Template));
        assert_eq!(only("STATUS"), Ok(Command::Status));
        assert_eq!(only("resend"), Ok(Command::Resend(None)));
        assert_eq!(only("resend turn 3"), Ok(Command::Resend(Some(3))));
        assert_eq!(only("games"), Ok(Command::Games));
        assert_eq!(
            only("extend 24h"),
            Ok(Command::Extend(Duration::from_secs(86_400)))
        );
        assert_eq!(only("pause"), Ok(Command::Pause));
        assert_eq!(only("resume"), Ok(Command::Resume));
        assert_eq!(only("start"), Ok(Command::Start));
        assert_eq!(only("grace"), Ok(Command::Grace));
        assert_eq!(
            only("vacation until 2026-12-20"),
            Ok(Command::Vacation(
                humantime::parse_rfc3339("2026-12-20T00:00:00Z").expect("t")
            ))
        );
        assert!(
            only("vacation until soon")
                .unwrap_err()
                .to_string()
                .contains("2026-12-20")
        );
        assert_eq!(
            only("join island as Ann Smith"),
            Ok(Command::Join {
                game: "island".into(),
                name: "Ann Smith".into()
            })
        );
        assert_eq!(
            only("Confirm island ABCD-efgh-jkmn."),
            Ok(Command::Confirm {
                game: "island".into(),
                code: "abcd-efgh-jkmn".into()
            })
        );
        assert_eq!(
            only("press to Red: Shall we share the river?"),
            Ok(Command::Press {
                to: PressTo::Seat("red".into()),
                anonymous: false,
                text: "Shall we share the river?".into()
            })
        );
        assert_eq!(
            only("anonymous press to all: blue is lying"),
            Ok(Command::Press {
                to: PressTo::All,
                anonymous: true,
                text: "blue is lying".into()
            })
        );
    }

    /// A press whose `:` ends its line runs to `end press`; its lines are taken out of
    /// the orders, and the orders keep their line numbers.
    #[test]
    fn a_long_press_runs_to_end_press_and_orders_keep_their_lines() {
        let s = split(
            "game g\npress to all:\nDear all,\n\nmove D1: C3 is my plan\nend press\nmove D1: C3\n",
        );
        assert_eq!(s.commands.len(), 1);
        assert_eq!(
            s.commands[0].command,
            Ok(Command::Press {
                to: PressTo::All,
                anonymous: false,
                text: "Dear all,\n\nmove D1: C3 is my plan".into()
            })
        );
        assert_eq!(s.rest, "game g\n\n\n\n\n\nmove D1: C3\n");
    }

    /// Orders, quotes and signatures are no commands; a wrong command says how to write it.
    #[test]
    fn orders_quotes_and_signatures_are_left_alone() {
        let s = split("move D1: C3\n> status\nOn Mon, Ann wrote:\n-- \nhelp\n");
        assert!(s.commands.is_empty());
        assert_eq!(
            s.rest,
            "move D1: C3\n> status\nOn Mon, Ann wrote:\n-- \nhelp\n"
        );
        assert!(
            only("resend turn three")
                .unwrap_err()
                .to_string()
                .contains("resend turn 3")
        );
        assert!(
            only("extend forever")
                .unwrap_err()
                .to_string()
                .contains("extend 24h")
        );
        assert!(
            only("press hello")
                .unwrap_err()
                .to_string()
                .contains("press to red")
        );
        assert!(
            only("status please")
                .unwrap_err()
                .to_string()
                .contains("leave out `please`")
        );
        assert!(
            only("press to all:\n\nend press")
                .unwrap_err()
                .to_string()
                .contains("no text")
        );
    }

    /// A mail of commands and its header alone holds no orders; one line more does.
    #[test]
    fn header_lines_comments_and_signatures_are_no_orders() {
        let s = split("game g\nplayer red\nsecret x\nstatus\n# hi\n> quoted\n\n-- \nAnn\n");
        assert!(!holds_orders(&s.rest));
        assert!(holds_orders(&split("status\nmove D1: C3\n").rest));
    }
}
