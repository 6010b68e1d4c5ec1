//! Filing an incoming mail: read it, find when it arrived, blank every secret in it,
//! authenticate it, file the orders for the next turn, keep a copy, queue an answer, and
//! log it — the log line last, so that a mail interrupted halfway is simply handled again.
//!
//! Every refusal is answered to the player's registered address, never to the mail's
//! From: or Reply-To:; mail from an unknown address is logged and not answered, unless
//! its X-Original-From: or Reply-To: names a player (a mailing list that rewrites From:):
//! then that player is told, at their own address. A list the GM trusts (`[mail]
//! lists`) speaks for the player it names, with that player's secret. A secret
//! is never echoed, logged, kept or filed: it is blanked by its value wherever it stands
//! in the decoded mail ([`crate::mail::redact`]) before anything is written, and the raw
//! mail itself is never kept.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::by_mail;
use super::error::Error;
use super::game::{Game, Header, Position};
use super::log::{Entry, Log, Outcome};
pub(crate) use super::sources::digest;
use super::sources::{Delivered, Mail};
use crate::archive::schedule::{Late, shown};
use crate::archive::{Archive, INBOX_DIR, PlayerEntry};
use crate::mail::inbound::{self, Incoming, ReadError};
use crate::mail::outbox;
use crate::mail::{budget, redact, secret};
use crate::text::count;

mod authorship;
mod carry;
mod decision;
mod verdict;

/// Where the mark of the mail being read is kept (its digest, and how many runs began
/// reading it): a run that stops while reading a mail leaves it, and once
/// [`STOPPED_RUNS`] runs stopped so, the next refuses that mail unread rather than read
/// it again.
const READING: &str = "mail/reading";

/// How much of orders too big to file is read for their header.
const HEADER_PART: usize = 16 * 1024;

/// After this many runs stopped while reading one mail, the next refuses it unread.
const STOPPED_RUNS: u32 = 2;

/// The limits on what one address is answered, shared with the folder's mailroom.
pub use super::rate::{COMMAND_MAILS_PER_HOUR, REFUSALS_PER_HOUR};

/// Why a mail is refused unread.
#[derive(Debug)]
enum Unread {
    /// It cannot be read, or not within the limits of one mail.
    Read(ReadError),
    /// A run stopped while reading it.
    Stopped,
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unread::Read(e) => e.fmt(f),
            Unread::Stopped => {
                f.write_str("reading it, or carrying out its commands, stopped the judge twice (it ran out of time or memory)")
            }
        }
    }
}

/// What a mail's reading gave before it reached its game: the folder of games reads
/// each mail of its shared mailbox once, to route it, and its game files that reading
/// rather than read the mail again.
#[derive(Debug)]
pub enum Prior {
    /// Read with HTML as given (used when the game would read it so).
    Read {
        html: inbound::Html,
        read: Result<Box<Incoming>, ReadError>,
    },
    /// Reading it stopped the folder's passes twice: refused unread.
    Stopped,
}

/// A mail filed again by the GM (`judge ingest --again`).
struct Again {
    /// Its line in the log.
    of: usize,
    /// The player whose secret it gave, checked when it was first filed.
    trusted: Option<String>,
}

/// Every value in a mail that may be a secret: what any `secret` line, the subject, the
/// Message-ID or a secret-shaped word says.
fn secret_values(m: &Incoming) -> BTreeSet<String> {
    redact::candidates(
        [
            m.subject.as_str(),
            m.from_line.as_str(),
            m.to_line.as_str(),
            m.message_id.as_str(),
            m.reply_to.as_deref().unwrap_or(""),
            m.original_from.as_deref().unwrap_or(""),
        ]
        .into_iter()
        .chain(m.parts.iter().map(|p| p.text.as_str())),
    )
}

/// The Message-ID to keep for a mail: its own, unless a secret could stand in it; then
/// one made from the mail's digest.
fn kept_id(id: &str, values: &BTreeSet<String>, digest: &str) -> String {
    if redact::blank(id, values) == id {
        id.to_string()
    } else {
        format!("<blanked-{}@pbem-judge>", &digest[..digest.len().min(16)])
    }
}

/// When a mail arrived, and how that is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub at: SystemTime,
    /// `maildir`, `imap`, `mbox` (the mailbox's record of delivery), `received` (the
    /// topmost `Received:` header), `date` (the sender's `Date:`) or `read` (none of
    /// these: when the judge read it).
    pub by: &'static str,
}

/// When a mail arrived, from the most trustworthy source it has: the time the mailbox
/// recorded its delivery (set by the receiving system, not the sender); else the stamp
/// of the topmost `Received:` header (the last server's); else, as a last resort, the
/// sender's `Date:`.
///
/// A stamp that cannot be true is not trusted: one before [`EARLIEST`] (an mbox `From `
/// line's placeholder 1970), one after `now`, and a delivery before the last server
/// handed the mail on (more than an hour before its `Received:` stamp). An impossible
/// delivery stamp gives way to the `Received:` stamp, else to the time the judge read
/// the mail — never to the sender's `Date:`, which the sender writes.
pub fn arrival(
    delivered: Option<Delivered>,
    received: Option<SystemTime>,
    date: Option<SystemTime>,
    now: SystemTime,
) -> Arrival {
    let earliest = UNIX_EPOCH + Duration::from_secs(EARLIEST);
    let possible = |t: SystemTime| t >= earliest && t <= now;
    let hour = Duration::from_secs(3600);
    let had_stamp = delivered.is_some();
    let delivered = delivered.filter(|d| {
        possible(d.at) && received.is_none_or(|r| d.at.checked_add(hour).is_some_and(|l| l >= r))
    });
    match (delivered, received, date) {
        (Some(d), _, _) => Arrival { at: d.at, by: d.by },
        (None, Some(r), _) if possible(r) => Arrival {
            at: r,
            by: "received",
        },
        (None, None, Some(d)) if !had_stamp && possible(d) => Arrival { at: d, by: "date" },
        _ => Arrival {
            at: now,
            by: "read",
        },
    }
}

/// No mail to this judge was delivered before 2000-01-01 (seconds since 1970): a stamp
/// before it is a placeholder.
pub const EARLIEST: u64 = 946_684_800;

/// What became of a mail, with where it came from and its number in the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filed {
    pub label: String,
    /// The sender's address, as the mail gives it.
    pub from: Option<String>,
    /// Its line in the log (none for a duplicate).
    pub seq: Option<usize>,
    pub outcome: Outcome,
}

impl Filed {
    /// The line a GM reads for what became of a mail.
    pub fn describe(&self) -> String {
        let what = match &self.outcome {
            Outcome::Accepted {
                player,
                turn,
                replaced,
                errors,
                warnings,
            } => format!(
                "accepted: {player}'s {}{} ({}, {})",
                if *turn == 0 {
                    "choice for the set-up round".to_string()
                } else {
                    format!("orders for turn {turn}")
                },
                if *replaced {
                    ", replacing earlier ones"
                } else {
                    ""
                },
                count(*errors, "error"),
                count(*warnings, "warning")
            ),
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
            Outcome::Commands { done } => format!("commands: {}", done.join("; ")),
        };
        let from = self
            .from
            .as_deref()
            .map_or(String::new(), |f| format!(", from {f}"));
        match self.seq {
            Some(s) => format!("mail {s} ({}{from}): {what}", self.label),
            None => format!("{}{from}: {what}", self.label),
        }
    }
}

/// Filing mails into one game: what a run reads once and then uses for every mail.
pub struct Intake<'a> {
    archive: &'a Archive,
    game: &'a dyn Game,
    now: SystemTime,
    name: String,
    log: Log,
    position: Box<dyn Position>,
    /// The last step of the round before turn 1, while the game is in one.
    round: Option<u32>,
    /// Mails skipped as already filed (a Maildir is read whole every run).
    duplicates: usize,
    /// Secrets checked against a player's stored hash in this run, and the answer: a
    /// player who sends ten mails costs one slow hash, not ten (argon2 is slow on
    /// purpose, and a folder of games reads thousands of mails in one pass).
    checked: BTreeMap<(String, String), bool>,
    /// The players as game.toml has them now: read again after a `join` took a seat,
    /// so that the newcomer's next mail of the same run is theirs.
    players: Vec<PlayerEntry>,
    /// The log line of the mail being filed, while its commands run (it is written
    /// once they have).
    filing: Option<Entry>,
    /// The mail being filed (its digest) and how many runs stopped with it in hand:
    /// the mark [`READING`] is set again while its commands are carried out.
    reading: Option<(String, u32)>,
}

/// A copy of a mail fit to keep: the headers people read and every text part, decoded,
/// with the secrets blanked; other attachments are named, not kept.
fn kept_copy(m: &Incoming, values: &BTreeSet<String>, arrived: Arrival) -> Vec<u8> {
    let b = |s: &str| redact::blank(s, values);
    let texts: String = m.parts.iter().map(|p| p.text.as_str()).collect();
    let boundary = format!(
        "pbem-judge-kept-{}",
        crate::archive::content_id(texts.as_bytes())
    );
    let mut out = String::new();
    out.push_str(&format!("From: {}\r\n", b(&m.from_line)));
    // Whose mail a mailing list says it is: a mail filed again (`judge ingest --again`)
    // is read from this copy.
    if let Some(r) = &m.reply_to {
        out.push_str(&format!("Reply-To: {}\r\n", b(r)));
    }
    if let Some(o) = &m.original_from {
        out.push_str(&format!("X-Original-From: {}\r\n", b(o)));
    }
    if !m.to_line.is_empty() {
        out.push_str(&format!("To: {}\r\n", b(&m.to_line)));
    }
    out.push_str(&format!("Subject: {}\r\n", b(&m.subject)));
    if let Some(d) = m.date {
        out.push_str(&format!(
            "Date: {}\r\n",
            humantime::format_rfc3339_seconds(d)
        ));
    }
    out.push_str(&format!("Message-ID: {}\r\n", b(&m.message_id)));
    out.push_str(&format!(
        "X-Judge-Arrived: {} ({})\r\n",
        humantime::format_rfc3339_seconds(arrived.at),
        arrived.by
    ));
    out.push_str(
        "X-Judge-Kept: the decoded text of the mail, secrets blanked; the mail as sent is not kept\r\n",
    );
    out.push_str(&format!(
        "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"{boundary}\"\r\n\r\n"
    ));
    for p in &m.parts {
        let disposition = match p.label.strip_prefix("attachment ") {
            Some(name) => format!("attachment; filename=\"{}\"", name.replace('"', "'")),
            None => "inline".to_string(),
        };
        out.push_str(&format!(
            "--{boundary}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\nContent-Disposition: {disposition}\r\n\r\n{}\r\n",
            b(&p.text).replace("\r\n", "\n").replace('\n', "\r\n")
        ));
    }
    for o in &m.others {
        out.push_str(&format!(
            "--{boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n[attachment {} ({}, {} bytes) not kept]\r\n",
            b(&o.name),
            b(&o.mime),
            o.size
        ));
    }
    out.push_str(&format!("--{boundary}--\r\n"));
    out.into_bytes()
}

/// Whom the game knows, for [`authorship`]: its players, the GM and the lists the GM
/// trusts (`lists`, from [`Archive::trusted_lists`]).
fn book<'b>(
    players: &'b [PlayerEntry],
    lists: &'b [String],
    archive: &'b Archive,
) -> authorship::Book<'b> {
    authorship::Book {
        players,
        lists,
        gm: archive.game.gm.as_ref(),
    }
}

impl<'a> Intake<'a> {
    /// Ready to file mail into `archive`. Refuses at once, writing nothing, when the game
    /// has no `[mail]` settings (answers could not be sent).
    pub fn open(archive: &'a Archive, game: &'a dyn Game, now: SystemTime) -> Result<Self, Error> {
        outbox::settings(archive)?;
        let round = super::stage::round_standing(archive, game)?.map(|(last, _)| last);
        Ok(Intake {
            archive,
            game,
            now,
            name: archive.name(),
            log: Log::load(archive)?,
            position: super::stage::current(archive, game)?,
            round,
            duplicates: 0,
            checked: BTreeMap::new(),
            players: archive.game.players.clone(),
            filing: None,
            reading: None,
        })
    }

    /// The mails skipped as already filed, in one line for the GM (none when there
    /// were none): a line per mail would list every mail of the game on every run.
    pub fn skipped(&self) -> Option<String> {
        (self.duplicates > 0).then(|| {
            format!(
                "skipped {} already filed",
                crate::text::count(self.duplicates, "mail")
            )
        })
    }

    /// When the next orders (or the round's next choice) are due, in a sentence.
    fn due(&self, next: u32) -> String {
        match self.round {
            Some(last) => match super::due::round_deadline(self.archive, last)
                .ok()
                .flatten()
            {
                Some(d) => format!(
                    "The next choice of the set-up round is due by {}.",
                    shown(d)
                ),
                None => "The next choice of the set-up round is due when the GM says.".into(),
            },
            None => super::due::due_line(self.archive, self.game, next),
        }
    }

    pub fn log(&self) -> &Log {
        &self.log
    }

    fn player_by_address(&self, from: Option<&str>) -> Option<PlayerEntry> {
        book(&self.players, &[], self.archive)
            .by_address(from)
            .cloned()
    }

    /// See [`authorship::Authorship::named`].
    fn named_player(&self, m: &Incoming) -> Option<(PlayerEntry, &'static str)> {
        let e = authorship::Envelope {
            from: m.from.as_deref(),
            original_from: m.original_from.as_deref(),
            reply_to: m.reply_to.as_deref(),
            ..authorship::Envelope::default()
        };
        book(&self.players, &[], self.archive).named(&e)
    }

    /// File one mail. What is cheap is done first: a mail already handled is known by
    /// the digest of its bytes, and a mail from an address that is no player's is read
    /// without its HTML. A mail whose reading stopped a run before (killed, out of
    /// memory) twice is refused unread; every other one is read within the limits of
    /// [`crate::mail::budget`].
    pub fn file(&mut self, mail: &Mail) -> Result<Filed, Error> {
        self.file_with(mail, None)
    }

    /// [`Intake::file`], with what reading the mail gave already, if it was read.
    pub fn file_with(&mut self, mail: &Mail, prior: Option<Prior>) -> Result<Filed, Error> {
        let digest = digest(&mail.raw);
        let id = inbound::message_id(&mail.raw);
        if self.log.has(&digest, &id) {
            self.duplicates += 1;
            return Ok(Filed {
                label: mail.label.clone(),
                from: inbound::read_headers(&mail.raw).and_then(|h| h.from),
                seq: None,
                outcome: Outcome::Duplicate,
            });
        }
        let seq = self.log.next_seq();
        let marker = self.archive.root().join(READING);
        // How many runs stopped while reading this mail: a kill or a reboot may stop one
        // anywhere, a mail that costs more than a run can give stops every run.
        let stopped = std::fs::read_to_string(&marker)
            .ok()
            .and_then(|t| {
                let (d, n) = t.trim().split_once(' ')?;
                (d == digest).then(|| n.parse::<u32>().ok()).flatten()
            })
            .unwrap_or(0);
        if matches!(prior, Some(Prior::Stopped)) {
            return self.unreadable(seq, mail, &id, &digest, Unread::Stopped);
        }
        if stopped >= STOPPED_RUNS {
            let _ = std::fs::remove_file(&marker);
            return self.unreadable(seq, mail, &id, &digest, Unread::Stopped);
        }
        let head = inbound::read_headers(&mail.raw);
        let html = if head.as_ref().is_some_and(|h| {
            self.player_by_address(h.from.as_deref()).is_some() || self.named_player(h).is_some()
        }) {
            inbound::Html::Read
        } else {
            inbound::Html::Skip
        };
        // Not synced: the mark counts runs stopped while reading this mail; one lost
        // with the machine's power costs a mail one more try, nothing else.
        let io = |source| crate::archive::ArchiveError::Io {
            path: marker.clone(),
            source,
        };
        if let Some(dir) = marker.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        std::fs::write(&marker, format!("{digest} {}\n", stopped + 1)).map_err(io)?;
        let read = match prior {
            Some(Prior::Read { html: h, read }) if h == html => read.map(|m| *m),
            _ => inbound::read_with(&mail.raw, html),
        };
        let read = read.and_then(|m| {
            // Every value that may be a secret is blanked wherever it stands: a mail
            // with more than an order mail ever holds is refused unread.
            let n = secret_values(&m).len();
            if n > budget::MAX_SECRET_VALUES {
                Err(ReadError::TooManySecrets(n))
            } else {
                Ok(m)
            }
        });
        // Only a run that stops while reading leaves the mark behind. One stopped while
        // filing (killed between two writes) did nothing the next run does not do again:
        // a player's good mail is never refused for it.
        let _ = std::fs::remove_file(&marker);
        match read {
            Ok(m) => {
                let arrived = arrival(mail.delivered, m.received, m.date, self.now);
                self.reading = Some((digest.clone(), stopped));
                let filed = self.decide(seq, &mail.label, &m, arrived, None, Some(digest));
                self.reading = None;
                filed
            }
            Err(e) => self.unreadable(seq, mail, &id, &digest, Unread::Read(e)),
        }
    }

    /// File again a mail the log holds (refused or held before), after the GM fixed
    /// what was wrong. Its secret was blanked when it was kept, so it counts as given
    /// only if it was checked right the first time.
    pub fn again(&mut self, seq: usize) -> Result<Filed, Error> {
        let entry = self.log.get(seq).cloned().ok_or_else(|| {
            Error::input(format!(
                "there is no mail {seq} in the log (judge status lists them)"
            ))
        })?;
        if matches!(entry.outcome, Outcome::Accepted { .. }) {
            return Err(Error::input(format!(
                "mail {seq} was accepted; there is nothing to file again"
            )));
        }
        let kept = entry.kept.clone().ok_or_else(|| {
            Error::input(format!(
                "mail {seq} was not kept (it could not be read, or was too large): ask the player to send it again"
            ))
        })?;
        let path = self.archive.root().join(&kept);
        let raw =
            std::fs::read(&path).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
        let m =
            inbound::read(&raw).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
        let at = entry
            .arrived
            .as_deref()
            .and_then(|a| humantime::parse_rfc3339_weak(a).ok())
            .unwrap_or(self.now);
        let by = match entry.arrived_by.as_deref() {
            Some("maildir") => "maildir",
            Some("imap") => "imap",
            Some("mbox") => "mbox",
            Some("received") => "received",
            Some("date") => "date",
            _ => "read",
        };
        let trusted = entry.secret_ok.then(|| entry.seat.clone()).flatten();
        let next = self.log.next_seq();
        self.decide(
            next,
            &format!("mail {seq} again"),
            &m,
            Arrival { at, by },
            Some(Again { of: seq, trusted }),
            entry.digest.clone(),
        )
    }

    /// The time this run handles its mails, as the log keeps it.
    fn handled(&self) -> String {
        humantime::format_rfc3339_seconds(self.now).to_string()
    }

    /// The mail's text with the orders `seat` wrote into the quoted template of the
    /// judge's mail read as theirs, when its own text holds no orders ([`super::reply`]);
    /// `None` when it holds none so written.
    fn filled_template(&self, text: &str, seat: &str) -> Option<String> {
        if super::limits::too_big(text).is_some() {
            return None;
        }
        let sent: BTreeSet<String> = super::order_form::order_template(
            self.archive,
            self.game,
            self.position.as_ref(),
            seat,
        )
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
        let filled = super::reply::filled_template(text, &sent)?;
        let own = self
            .position
            .check(text, "your orders", Some(seat), Some(&self.name));
        own.echo
            .as_array()
            .is_none_or(Vec::is_empty)
            .then_some(filled)
    }

    /// Read what the decision on a readable mail weighs (the mail, who sent it, where
    /// the game stands: [`decision::Facts`]), decide (a pure verdict)
    /// and carry the decision out (`carry.rs`).
    fn decide(
        &mut self,
        seq: usize,
        label: &str,
        m: &Incoming,
        arrived: Arrival,
        again: Option<Again>,
        digest: Option<String>,
    ) -> Result<Filed, Error> {
        let (trusted, again_of) = match again {
            Some(a) => (a.trusted, Some(a.of)),
            None => (None, None),
        };
        let archive = self.archive;
        let name = self.name.clone();
        let found_at = m.orders_found(&|t| self.game.looks_like_orders(t));
        let found = found_at.as_ref().map(|f| f.text.as_ref());
        // Commands (docs/mail-commands.md) are taken out of the orders: from the part the
        // orders are in and, when that is an attachment, from the mail's body too.
        let split = super::commands::split(found.unwrap_or(""));
        let mut commands = Vec::new();
        if let Some(body) = m.parts.iter().find(|p| !p.attachment)
            && found_at
                .as_ref()
                .is_some_and(|f| !std::ptr::eq(f.part, body))
        {
            commands.extend(super::commands::split(&body.text).commands);
        }
        commands.extend(split.commands);
        let orders = if commands.is_empty() {
            found.unwrap_or("").to_string()
        } else {
            split.rest
        };
        // Orders written into the quoted template of the judge's mail.
        let orders = match self.player_by_address(m.from.as_deref()) {
            Some(p) => self.filled_template(&orders, &p.id).unwrap_or(orders),
            None => orders,
        };
        let commands_only = !commands.is_empty() && !super::commands::holds_orders(&orders);
        // The header of orders too big to file is read from their first lines only
        // (headers come first): reading the whole of them costs more than one mail may.
        let header: Header = if super::limits::too_big(&orders).is_some() {
            let mut end = orders.len().min(HEADER_PART);
            while !orders.is_char_boundary(end) {
                end -= 1;
            }
            self.position.header(&orders[..end])
        } else {
            self.position.header(&orders)
        };
        // Every value that may be a secret: what any `secret` line, the subject or a
        // secret-shaped word says.
        let mut values = secret_values(m);
        values.extend(
            header
                .secret
                .iter()
                .filter(|s| !s.trim().is_empty())
                .cloned(),
        );
        let subject = redact::blank(&m.subject, &values);
        // The Message-ID the log keeps and answers refer to: never one that holds a
        // secret.
        let message_id = kept_id(
            &m.message_id,
            &values,
            digest
                .as_deref()
                .unwrap_or(&crate::archive::content_id(m.message_id.as_bytes())),
        );
        // Who the mail is from (`authorship.rs`).
        let lists = archive.trusted_lists();
        let players = self.players.clone();
        let book = book(&players, &lists, archive);
        let envelope = authorship::Envelope {
            from: m.from.as_deref(),
            original_from: m.original_from.as_deref(),
            reply_to: m.reply_to.as_deref(),
            player_line: header.player.as_deref(),
            secret: header.secret.as_deref(),
            trusted: trusted.as_deref(),
        };
        let checked = &mut self.checked;
        let auth = book.authorship(&envelope, &mut |s, hash| {
            *checked
                .entry((s.to_string(), hash.to_string()))
                .or_insert_with(|| secret::verify(s, hash))
        });
        let via_list = &auth.via_list;
        let sender = auth.sender.as_ref();
        let claimed = auth.claimed();
        let secret_ok = auth.secret_ok;
        let next = self.position.turn() + 1;
        let kept_name = format!("{INBOX_DIR}/{seq:06}.eml");

        // Whom its commands are from (`authorship.rs`).
        let asks_gm = commands.iter().any(|c| {
            c.command
                .as_ref()
                .is_ok_and(super::commands::Command::is_gm)
        });
        let who = book.who(&auth, m.from.as_deref(), asks_gm);
        let joins = commands.iter().any(|c| {
            matches!(
                c.command,
                Ok(super::commands::Command::Join { .. }
                    | super::commands::Command::Confirm { .. })
            )
        });
        let cmd_secret_ok = match who {
            Some(by_mail::Who::Gm(g)) => by_mail::gm_secret_ok(g, header.secret.as_deref()),
            _ => secret_ok,
        };
        // What the log keeps of the mail, whatever becomes of it (its answer and
        // outcome are set when the decision is carried out).
        let logged = Entry {
            seq,
            message_id: message_id.clone(),
            from: m.from.clone(),
            subject: subject.clone(),
            arrived: Some(humantime::format_rfc3339_seconds(arrived.at).to_string()),
            arrived_by: Some(arrived.by.to_string()),
            seat: claimed.map(|p| p.id.clone()),
            secret_ok,
            kept: Some(kept_name.clone()),
            answer: None,
            digest: digest.clone(),
            handled: Some(self.handled()),
            again_of,
            commands: Vec::new(),
            outcome: Outcome::Duplicate,
        };
        let seats = self.position.seats();
        let mismatches = header.mismatches(
            Some(&name),
            sender.map(|p| p.id.as_str()),
            self.position.as_ref(),
        );
        // The parts of the mail not read that may have held the
        // orders, named in a refusal instead of its cause in the rest.
        let unread = {
            let named: Vec<String> = m.unread().map(inbound::Other::describe).collect();
            (!named.is_empty()).then(|| named.join(", "))
        };
        // Where the game stands for this mail, read before deciding: whether a mail from
        // no player comes from a player whose seat was given to another, and the
        // deadline of a player's orders. What goes wrong reading them is told where the
        // decision needs them, after the kept copy is written (`carry.rs`).
        let former = match sender {
            None => super::replace::former(archive, m.from.as_deref()),
            Some(_) => Ok(None),
        };
        let told = match &former {
            Ok(Some(f)) => Some(outbox::known(archive, &f.answer_key())),
            _ => None,
        };
        let late = archive.game.schedule.as_ref().and_then(|s| s.late().ok());
        // A game played one player at a time has no late orders: a file that comes
        // after a step was played is on record for the next.
        let deadline = match (sender, self.game.pace(), self.round) {
            (Some(_), super::game::Pace::Together, None) => {
                super::due::deadline(archive, self.game, next).map(|d| d.zip(late))
            }
            _ => Ok(None),
        };
        // The decision, a pure verdict on what is known of the mail:
        // `decision.rs`, with the refusal policy of `verdict.rs`.
        let facts = decision::Facts {
            game: &name,
            next,
            mail: verdict::Facts {
                sender,
                orders_found: found.is_some(),
                split: found_at.as_ref().and_then(|f| f.problem.clone()),
                header_only: unread.is_some() && inbound::header_only(&orders),
                unread,
                too_big: super::limits::too_big(&orders),
                before_secret: None,
                secret_given: header.secret.is_some(),
                secret_ok,
                after_secret: None,
                over: self.position.over().is_some(),
                not_begun: (!super::stage::started(archive)).then(|| {
                    super::stage::waiting(archive)
                        .unwrap_or_else(|| "it waits for its players".into())
                }),
                seated: sender.is_some_and(|p| seats.iter().any(|s| s.id == p.id)),
            },
            mismatches: &mismatches,
            holds_late: self.round.is_none()
                && self.game.pace() == super::game::Pace::Together
                && late == Some(Late::Hold),
            former: told,
            named: auth.named.as_ref().map(|(p, how)| (p, *how)),
            commands: decision::Commands {
                any: !commands.is_empty(),
                only: commands_only,
                joins,
                who,
            },
            deadline: deadline.as_ref().ok().copied().flatten(),
            arrived: arrived.at,
        };
        let decided = decision::decide(&facts);
        self.carry(
            decided,
            Reading {
                seq,
                label,
                mail: m,
                arrived,
                values,
                subject,
                message_id,
                kept_name,
                orders,
                via_list,
                commands: &commands,
                cmd_secret_ok,
                logged,
                former,
                deadline_read: deadline.map(|_| ()),
            },
        )
    }
}

/// What the intake read of a mail beside the facts it decides on: what carrying the
/// decision out writes (`carry.rs`).
struct Reading<'r> {
    seq: usize,
    label: &'r str,
    mail: &'r Incoming,
    arrived: Arrival,
    /// Every value in the mail that may be a secret: blanked in whatever is written.
    values: BTreeSet<String>,
    /// Its subject, secrets blanked.
    subject: String,
    /// The Message-ID the log keeps and answers refer to.
    message_id: String,
    /// Where its copy is kept.
    kept_name: String,
    /// Its orders, commands taken out (as the player wrote them, secrets not blanked).
    orders: String,
    /// The trusted mailing list it came through: the player it names, how, the list.
    via_list: &'r Option<(PlayerEntry, &'static str, String)>,
    commands: &'r [super::commands::Found],
    /// Whether its commands come with their sender's right secret.
    cmd_secret_ok: bool,
    /// Its line in the log, but for its answer and outcome.
    logged: Entry,
    /// The replaced player whose address it comes from, if any (read for a mail from no
    /// player only).
    former: Result<Option<super::replace::Former>, Error>,
    /// Whether the deadline of a player's orders was read.
    deadline_read: Result<(), Error>,
}

/// Held orders are for a later turn than their `turn` line says: it is set to the turn
/// they are held for, so that their check then neither refuses nor warns of it, and every
/// other line keeps its number (what the player is told points at the lines they wrote).
fn for_turn(text: &str, turn: u32) -> String {
    text.lines()
        .map(|l| {
            let plain = l
                .chars()
                .filter_map(crate::text::plain)
                .collect::<String>()
                .trim_start()
                .to_ascii_lowercase();
            if plain.starts_with("turn") {
                format!("turn {turn}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

impl Filed {
    /// The line for the GM, unless the mail was only skipped as already filed (those
    /// are counted once: [`Intake::skipped`]).
    pub fn news(&self) -> Option<String> {
        (self.outcome != Outcome::Duplicate).then(|| self.describe())
    }
}

/// File every mail of a source; a line for the GM per mail filed now.
pub fn file_each(
    intake: &mut Intake<'_>,
    mails: impl IntoIterator<Item = Result<Mail, Error>>,
) -> Result<Vec<String>, Error> {
    let mut lines = Vec::new();
    for m in mails {
        lines.extend(intake.file(&m?)?.news());
    }
    Ok(lines)
}

/// File the unseen mail of an IMAP INBOX; each is marked seen once filed (never in a
/// read-only run).
pub fn file_imap(
    intake: &mut Intake<'_>,
    src: &crate::mail::imap::Source,
    read_only: bool,
) -> Result<Vec<String>, Error> {
    let mut problem = None;
    let mut lines = Vec::new();
    crate::mail::imap::ingest(src, read_only, |raw, uid, delivered| {
        let mail = Mail {
            raw: raw.to_vec(),
            label: format!("IMAP uid {uid}"),
            delivered: delivered.map(|at| Delivered { at, by: "imap" }),
        };
        match intake.file(&mail) {
            Ok(f) => {
                lines.extend(f.news());
                true
            }
            Err(e) => {
                problem.get_or_insert(e);
                false
            }
        }
    })
    .map_err(Error::from)?;
    match problem {
        Some(e) => Err(e),
        None => Ok(lines),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> SystemTime {
        humantime::parse_rfc3339(s).expect("time")
    }

    #[test]
    fn arrival_prefers_the_mailbox_then_received_then_date() {
        let now = t("2026-12-01T03:03:10Z");
        let d = Some(Delivered {
            at: t("2026-12-01T03:02:32Z"),
            by: "maildir",
        });
        let early = Some(t("2026-12-01T01:00:00Z"));
        assert_eq!(arrival(d, early, early, now).by, "maildir");
        assert_eq!(arrival(d, early, early, now).at, t("2026-12-01T03:02:32Z"));
        assert_eq!(
            arrival(None, Some(t("2026-12-01T03:02:00Z")), early, now).by,
            "received"
        );
        assert_eq!(arrival(None, None, early, now).by, "date");
        // A Date: after the time the mail was read is not believed.
        let future = Some(t("2026-12-02T00:00:00Z"));
        assert_eq!(
            arrival(None, None, future, now),
            Arrival {
                at: now,
                by: "read"
            }
        );
        assert_eq!(arrival(None, None, None, now).by, "read");
    }

    /// A delivery stamp that cannot be true (an mbox `From ` line's
    /// 1970, a time after the mail was read, a delivery before the last server handed
    /// the mail on) is not trusted; the `Received:` stamp is, else the time of reading,
    /// never the sender's `Date:`.
    #[test]
    fn an_impossible_delivery_stamp_is_not_trusted() {
        let now = t("2026-12-01T12:00:00Z");
        let stamp = |s: &str| {
            Some(Delivered {
                at: t(s),
                by: "mbox",
            })
        };
        let received = Some(t("2026-12-01T11:00:00Z"));
        let early_date = Some(t("2026-11-01T00:00:00Z"));
        let at = |a: Arrival| (humantime::format_rfc3339_seconds(a.at).to_string(), a.by);
        for bad in [
            "1970-01-01T00:00:00Z",
            "2026-12-02T00:00:00Z",
            "2026-12-01T09:00:00Z",
        ] {
            assert_eq!(
                at(arrival(stamp(bad), received, early_date, now)),
                ("2026-12-01T11:00:00Z".to_string(), "received"),
                "{bad}"
            );
        }
        for bad in ["1970-01-01T00:00:00Z", "2026-12-02T00:00:00Z"] {
            assert_eq!(
                at(arrival(stamp(bad), None, early_date, now)).1,
                "read",
                "{bad}: not the sender's date"
            );
        }
        assert_eq!(
            at(arrival(None, Some(t("1970-01-01T00:00:00Z")), None, now)).1,
            "read"
        );
        // A true stamp is kept, a little before the Received: stamp or after it.
        assert_eq!(
            arrival(stamp("2026-12-01T10:30:00Z"), received, None, now).by,
            "mbox"
        );
    }
}
