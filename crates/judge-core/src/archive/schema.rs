//! `game.toml`'s schema: what a GM edits by hand (apart from the
//! folder that holds it and the checks it passes). No secrets in plain text.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::schedule::{self, Schedule};

/// The file of the schema, at the top of a game's folder.
pub const GAME_FILE: &str = "game.toml";

/// `game.toml`: what a GM edits by hand. No secrets in plain text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    /// Which game the archive holds, by the name the judge knows it by
    /// ([`crate::pbem::game::Game::id`]).
    pub game: String,
    /// The game's name: what order files write after `game`, and what mails and reports
    /// call it. Archives made before it was kept take their folder's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Name of the scenario the game was made from.
    pub scenario: String,
    /// The public seed: what everyone sees from the start comes from it (a random map
    /// or board). Hidden draws come from the secret seed of
    /// `randomness.key` (`randomness`).
    pub seed: u64,
    #[serde(default)]
    pub players: Vec<PlayerEntry>,
    /// How mail comes in and goes out (docs/gm-guide.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mail: Option<MailSettings>,
    /// When orders are due.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Schedule>,
    /// Press between players by mail: `off`, `open` (under the sender's name, the
    /// default) or `anonymous` (a sender may also leave their name out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub press: Option<Press>,
    /// Set while the GM has paused the game (`pause` by mail): since when, RFC 3339.
    /// No deadline runs and no turn is played until `resume`, which moves the deadline
    /// on by the pause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<String>,
    /// `rated = false` leaves the game out of the folder's ratings (`judge ratings`): a
    /// friendly game, a game to learn the rules, one with stand-ins. Rated unless set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// The game master, for the GM's commands by mail (docs/mail-commands.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gm: Option<GmEntry>,
    /// What the game does for absent players (docs/gm-guide.md, "Absent players").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub absent: Option<AbsentRules>,
    /// Notices by webhook, beside the mail (docs/gm-guide.md, "Notices by webhook").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notify: Option<NotifySettings>,
}

/// `[notify]`, in game.toml or in a folder's judge.toml: where the game's notices are
/// posted, in which format, which events, and what players may ask for by mail
/// (`notify URL`). Like the mail's passwords, the JSON format's signing secret is never
/// written here: only the name of the environment variable that holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotifySettings {
    /// The webhook every notice of the game is posted to (http:// or https://).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// `discord`, `slack` or `json` (unless set: `json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<NotifyFormat>,
    /// The environment variable that holds the secret the `json` format is signed with
    /// (HMAC-SHA256 of the body, in the header `X-Judge-Signature-256`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_env: Option<String>,
    /// The events posted (unless set: all of them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<NotifyEvent>>,
    /// How long one post may take before it is tried again later (`10s` unless set,
    /// at most a minute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<String>,
    /// Whether players may have their own notices posted (`notify URL` by mail; unless
    /// set: yes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<bool>,
    /// Whether a player's webhook may be on this machine or a private network (an
    /// address like 127.0.0.1, 10.x, 192.168.x, `localhost`): no unless set, so that no
    /// player can make the judge post to what only its own machine reaches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_hosts: Option<bool>,
}

/// How a notice is laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NotifyFormat {
    /// `{"content": …}`, as a Discord webhook takes it.
    Discord,
    /// `{"text": …}`, as a Slack incoming webhook takes it.
    Slack,
    /// The notice's fields, signed with HMAC-SHA256.
    #[default]
    Json,
}

impl NotifyFormat {
    pub fn name(self) -> &'static str {
        match self {
            NotifyFormat::Discord => "discord",
            NotifyFormat::Slack => "slack",
            NotifyFormat::Json => "json",
        }
    }
}

/// The moments a notice is posted for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotifyEvent {
    /// A turn was played: its public summary and a link to its page.
    Turn,
    /// The deadline is near, and whose orders are missing where everyone may know it.
    Deadline,
    /// The game is over.
    Over,
    /// A seat is open for a replacement.
    SeatOpen,
    /// The game is open for sign-up.
    Signup,
}

impl NotifyEvent {
    pub const ALL: [NotifyEvent; 5] = [
        NotifyEvent::Turn,
        NotifyEvent::Deadline,
        NotifyEvent::Over,
        NotifyEvent::SeatOpen,
        NotifyEvent::Signup,
    ];

    pub fn name(self) -> &'static str {
        match self {
            NotifyEvent::Turn => "turn",
            NotifyEvent::Deadline => "deadline",
            NotifyEvent::Over => "over",
            NotifyEvent::SeatOpen => "seat-open",
            NotifyEvent::Signup => "signup",
        }
    }
}

/// How long one post may take unless `[notify] timeout` says otherwise.
pub const NOTIFY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

impl NotifySettings {
    pub fn format(&self) -> NotifyFormat {
        self.format.unwrap_or_default()
    }

    /// Whether notices of `event` are posted.
    pub fn wants(&self, event: NotifyEvent) -> bool {
        self.events.as_ref().is_none_or(|e| e.contains(&event))
    }

    /// How long one post may take; a setting that does not read is refused when
    /// game.toml is read, so here it stands for the default.
    pub fn timeout(&self) -> std::time::Duration {
        self.timeout
            .as_deref()
            .and_then(|t| humantime::parse_duration(t).ok())
            .filter(|d| {
                *d >= std::time::Duration::from_millis(100)
                    && *d <= std::time::Duration::from_secs(60)
            })
            .unwrap_or(NOTIFY_TIMEOUT)
    }
}

/// `[absent]`: the budget of missed turns, grace and vacations.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbsentRules {
    /// Turns a player may miss before their seat is declared open for a replacement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missed: Option<u32>,
    /// How much later the next deadline moves when a player mails `grace`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace: Option<schedule::Length<schedule::AbsentGrace>>,
    /// How many times each player may ask for grace in the game (2 unless set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graces: Option<usize>,
    /// How much vacation each player may take in the game (`vacation until DATE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation: Option<schedule::Length<schedule::AbsentVacation>>,
    /// The game's bot plays for a player whose orders a turn waits for in vain (and who
    /// has no standing orders), where the game has a bot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caretaker: Option<bool>,
    /// This long before a deadline, every player is told whose orders are not in yet
    /// (once a turn, and only if someone's are missing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_notice: Option<schedule::Length<schedule::AbsentLateNotice>>,
}

impl AbsentRules {
    pub fn grace(&self) -> Option<std::time::Duration> {
        self.grace.as_ref().map(schedule::Length::get)
    }

    pub fn vacation(&self) -> Option<std::time::Duration> {
        self.vacation.as_ref().map(schedule::Length::get)
    }

    pub fn late_notice(&self) -> Option<std::time::Duration> {
        self.late_notice.as_ref().map(schedule::Length::get)
    }
}

/// Press between players (docs/mail-commands.md, `press`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Press {
    /// No press: a `press` command is refused.
    Off,
    /// Press under the sender's name.
    #[default]
    Open,
    /// Press under the sender's name, or with it left out (`anonymous press to …`).
    Anonymous,
}

/// The game master as commands by mail know them: their address and the salted hash
/// of their secret (`judge secret DIR --gm`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GmEntry {
    #[serde(default)]
    pub name: String,
    pub email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_hash: Option<String>,
}

/// Mail settings. Passwords are never stored: only the name of the environment variable
/// that holds one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailSettings {
    /// The judge's own address, as `Name <address>` or a bare address.
    pub from: String,
    /// Outgoing: an SMTP server…
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp_host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp_port: Option<u16>,
    /// `none`, `starttls` or `tls`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp_security: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp_user: Option<String>,
    /// The environment variable that holds the SMTP password.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp_password_env: Option<String>,
    /// …or a pickup folder another program sends from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pickup: Option<PathBuf>,
    /// How long one run may spend sending the outbox, all mails together (`30s` unless
    /// set): what is not sent by then waits for the next run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_timeout: Option<String>,
    /// Incoming: a Maildir `judge turn` reads before the turn…
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maildir: Option<PathBuf>,
    /// …or an mbox file another program delivers into (a mail is known again by its
    /// bytes, as in a Maildir)…
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mbox: Option<PathBuf>,
    /// …or an IMAP server (its INBOX's unseen mail).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_port: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_user: Option<String>,
    /// The environment variable that holds the IMAP password.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_password_env: Option<String>,
    /// `none`, `starttls` or `tls` (unless set: `tls` on port 993, else `starttls`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_security: Option<String>,
    /// How long the judge waits for the IMAP server at any one step (connecting, TLS,
    /// the greeting, the login, each command): `30s` unless set. A server silent that
    /// long is given up for this run (exit 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imap_timeout: Option<String>,
    /// Send the SMTP or IMAP password over a connection without TLS (`*_security =
    /// "none"`) to a host that is not this machine: refused unless this is `true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_plain_password: Option<bool>,
    /// Where the judge's docs are on the web (`https://judge.example.org`): `help` by
    /// mail links the order guide there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// Mailing lists the GM trusts to forward players' mail (`lists =
    /// ["club@lists.example"]`): a mail whose `From:` is one of them is taken as from the
    /// player its `X-Original-From:`, else `Reply-To:`, else its `player` line names —
    /// filed only with that player's right secret, and answered only to the player's
    /// own address (docs/gm-guide.md, "Players who write through a mailing list").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lists: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerEntry {
    /// How the game names the player's seat (a colour, say).
    pub id: String,
    pub name: String,
    pub email: String,
    /// The salted hash of the player's secret; never the secret itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_hash: Option<String>,
}

impl PlayerEntry {
    /// A seat of a game open for sign-up that nobody has taken yet (`judge new --open`):
    /// it has no address.
    pub fn is_free(&self) -> bool {
        self.email.trim().is_empty()
    }
}

impl GameFile {
    /// The seats nobody has taken yet, in seat order (a game open for sign-up).
    pub fn free_seats(&self) -> Vec<&str> {
        self.players
            .iter()
            .filter(|p| p.is_free())
            .map(|p| p.id.as_str())
            .collect()
    }
}

/// How long a run may spend sending unless `[mail] send_timeout` says otherwise.
pub const SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The longest `send_timeout`: sending happens outside the game's lock, but a run that
/// cron starts every few minutes should end before the next.
pub const LONGEST_SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);

/// Why `[mail] send_timeout` in game.toml cannot be used: the GM's to put right.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SendTimeoutError {
    /// Not a duration.
    #[error("[mail] send_timeout = \"{text}\": {error}; write a duration like 30s or 2min")]
    Unreadable {
        text: String,
        error: humantime::DurationError,
    },
    /// A duration too short, or longer than [`LONGEST_SEND_TIMEOUT`].
    #[error(
        "[mail] send_timeout = \"{text}\": write a duration from 1s to {}",
        humantime::format_duration(LONGEST_SEND_TIMEOUT)
    )]
    OutOfRange { text: String },
}

/// How long the judge waits for the IMAP server at one step unless `[mail] imap_timeout`
/// says otherwise.
pub const IMAP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Why `[mail] imap_timeout` in game.toml cannot be used: the GM's to put right.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ImapTimeoutError {
    /// Not a duration.
    #[error("[mail] imap_timeout = \"{text}\": {error}; write a duration like 30s or 2min")]
    Unreadable {
        text: String,
        error: humantime::DurationError,
    },
    /// A duration too short, or longer than [`LONGEST_SEND_TIMEOUT`].
    #[error(
        "[mail] imap_timeout = \"{text}\": write a duration from 1s to {}",
        humantime::format_duration(LONGEST_SEND_TIMEOUT)
    )]
    OutOfRange { text: String },
}

impl MailSettings {
    /// How long the judge waits for the IMAP server at one step: `imap_timeout`, or
    /// [`IMAP_TIMEOUT`]; from 1s to 10min.
    pub fn imap_timeout(&self) -> Result<std::time::Duration, ImapTimeoutError> {
        let Some(t) = &self.imap_timeout else {
            return Ok(IMAP_TIMEOUT);
        };
        let d = humantime::parse_duration(t).map_err(|error| ImapTimeoutError::Unreadable {
            text: t.clone(),
            error,
        })?;
        if d < std::time::Duration::from_secs(1) || d > LONGEST_SEND_TIMEOUT {
            return Err(ImapTimeoutError::OutOfRange { text: t.clone() });
        }
        Ok(d)
    }

    /// How long one run may spend sending: `send_timeout`, or [`SEND_TIMEOUT`].
    pub fn send_timeout(&self) -> Result<std::time::Duration, SendTimeoutError> {
        let Some(t) = &self.send_timeout else {
            return Ok(SEND_TIMEOUT);
        };
        let d = humantime::parse_duration(t).map_err(|error| SendTimeoutError::Unreadable {
            text: t.clone(),
            error,
        })?;
        if d < std::time::Duration::from_secs(1) || d > LONGEST_SEND_TIMEOUT {
            return Err(SendTimeoutError::OutOfRange { text: t.clone() });
        }
        Ok(d)
    }
}
