//! Carrying out the decision on a mail: the writes that
//! [`super::decision`] decides — the kept copy, the orders filed or held, the answer
//! queued (a refusal within the limits of [`super::REFUSALS_PER_HOUR`]), the commands
//! carried out — and the log line, last, so that a mail interrupted halfway is simply
//! handled again. What the decision leaves to the writer is the wording of the answers
//! and what only writing tells (whether orders replace earlier ones, the check of the
//! orders filed, the preferences they change). A mail refused unread (`unreadable`)
//! is written here too, and every answer is queued here (`answer`, `refuse_answer`).

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime};

use super::decision::{Decision, Fate, Told};
use super::{
    COMMAND_MAILS_PER_HOUR, Filed, Intake, READING, REFUSALS_PER_HOUR, Reading, Unread, arrival,
    for_turn, kept_copy, kept_id,
};
use crate::archive::schedule::shown;
use crate::archive::{Archive, PENDING_DIR, PlayerEntry, atomic};
use crate::mail::inbound::{self, ReadError};
use crate::mail::outbox::{self, Outgoing};
use crate::mail::redact;
use crate::pbem::by_mail;
use crate::pbem::error::Error;
use crate::pbem::log::{Entry, Outcome};
use crate::pbem::sources::Mail;
use crate::text::count;

/// Whether a refusal was answered, or why not.
pub(super) enum Answered {
    Yes,
    /// Withheld, with what the log's reason adds.
    Withheld(String),
}

impl Intake<'_> {
    /// Carry out the decision on a mail that the intake read (`reading`).
    pub(super) fn carry(
        &mut self,
        decision: Decision<'_>,
        reading: Reading<'_>,
    ) -> Result<Filed, Error> {
        let (fate, held_over, then_commands) = match decision {
            Decision::Commands(who) => return self.commands_only(who, reading),
            Decision::Orders {
                fate,
                held_over,
                then_commands,
            } => (fate, held_over, then_commands),
        };
        let Reading {
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
            commands,
            cmd_secret_ok,
            logged,
            former,
            deadline_read,
        } = reading;
        let archive = self.archive;
        let name = self.name.clone();
        let next = self.position.turn() + 1;
        let what = self.position.next_label();
        let key = format!("ack-{seq:06}");
        let original = if subject.is_empty() {
            String::new()
        } else {
            format!(" \"{subject}\"")
        };

        // Write the kept copy first: whatever follows refers to it.
        atomic::write_file(
            &archive.root().join(&kept_name),
            &kept_copy(m, &values, arrived),
        )?;
        // Filed with plain line ends and spaces: every echo of it later (the answer, the
        // GM's console, the reports) shows what the player wrote, not `␍` and tabs.
        let filed_text = crate::text::plain_layout(&redact::blank(&orders, &values));
        // Held over to the next turn: filed as its orders.
        let filed_text = match held_over {
            Some(_) => for_turn(&filed_text, next),
            None => filed_text,
        };

        // The key of an answer queued under a key of its own (not `ack-…`).
        let mut own_key = None;
        let (outcome, answered) = match fate {
            Fate::Refused {
                why,
                told:
                    Told::Player {
                        player: p,
                        secret_refused,
                    },
            } => {
                let mut body = format!(
                    "Your mail{original} to the judge of {name} was refused: {why}.\n\nNothing from it was filed."
                );
                if let Some((_, how, list)) = &via_list {
                    body.push_str(&format!(
                        " It came through the mailing list {list}, which the GM trusts to forward your mail; its {how} named you."
                    ));
                }
                if secret_refused {
                    body.push_str(if via_list.is_some() {
                        " If you did not send it, someone else wrote in your name: it did not give your secret, so nothing was done with it."
                    } else {
                        " If you did not send it, someone else used your address: it did not give your secret, so nothing was done with it."
                    });
                }
                body.push_str(&format!("\n\n{}\n", self.due(next)));
                match self.refuse_answer(
                    &key,
                    p,
                    Some(&message_id),
                    format!("[{name}] {what}: refused, nothing filed"),
                    body,
                )? {
                    Answered::Yes => (
                        Outcome::Refused {
                            reason: why.to_string(),
                            answered: Some(p.email.clone()),
                        },
                        true,
                    ),
                    Answered::Withheld(note) => (
                        Outcome::Refused {
                            reason: why.to_string() + &note,
                            answered: None,
                        },
                        false,
                    ),
                }
            }
            Fate::Refused { why, told } => match (former?, told) {
                // A player whose seat was given to another is told so, once for that
                // replacement, whatever comes from the address after: a flood forged from
                // it costs them one mail, never one a mail.
                (Some(f), Told::Former { already: told }) => {
                    if !told {
                        own_key = Some(f.answer_key());
                        self.answer(
                            &f.answer_key(),
                            &PlayerEntry {
                                id: f.seat.clone(),
                                name: f.name.clone(),
                                email: f.email.clone(),
                                secret_hash: None,
                            },
                            Some(&message_id),
                            format!("[{name}] your seat, {}, now has another player", f.seat),
                            format!(
                                "The GM of {name} gave your seat, {}, to another player from turn {} on. The judge takes no orders or commands for {name} from your address any more: nothing of your mail was filed, and further mail from this address is not answered.\n\nIf this is a mistake, write to the GM{}.\n",
                                f.seat,
                                f.from_turn,
                                archive
                                    .game
                                    .gm
                                    .as_ref()
                                    .map_or(String::new(), |g| format!(" ({})", g.email.trim()))
                            ),
                        )?;
                    }
                    (
                        Outcome::Refused {
                            reason: format!(
                                "{why}: it comes from {}'s address, who played {} until the seat was given to another player{}",
                                f.name,
                                f.seat,
                                if told { " (told so once already)" } else { "" }
                            ),
                            answered: (!told).then(|| f.email.clone()),
                        },
                        false,
                    )
                }
                // From an address that is no player's, naming a player in X-Original-From
                // or Reply-To: a mailing list the GM does not trust, a player's other
                // address, or a forger. Told — the player named, at the address the GM
                // has for them (never the list's, never one the mail gives), within the
                // same limits as any refusal: nothing filed, and why.
                (_, Told::Named { player: p, how }) => {
                    let from = redact::blank(m.from.as_deref().unwrap_or("?"), &values);
                    let trust = if self.archive.trusted_lists().is_empty() {
                        "The GM trusts no mailing list to forward mail for this game.".to_string()
                    } else {
                        format!(
                            "The GM trusts only these mailing lists to forward mail for this game: {}.",
                            self.archive.trusted_lists().join(", ")
                        )
                    };
                    let body = format!(
                        "Your mail{original} to the judge of {name} was refused: it came from {from}, not from your address ({}), though its {how} names you.\n\nNothing from it was filed. If it came through a mailing list that puts its own address in From: (\"{} via …\"), send your orders to the judge directly from {}, or ask the GM to add the list to `[mail] lists` in game.toml. {trust} If you did not send it, someone else wrote in your name: nothing was done with it.\n\n{}\n",
                        p.email.trim(),
                        p.name,
                        p.email.trim(),
                        self.due(next)
                    );
                    let reason = format!(
                        "{why}: it comes from {from}, and its {how} names {}'s address (not a mailing list the GM trusts)",
                        p.id
                    );
                    match self.refuse_answer(
                        &key,
                        p,
                        Some(&message_id),
                        format!("[{name}] {what}: refused, not from your address"),
                        body,
                    )? {
                        Answered::Yes => (
                            Outcome::Refused {
                                reason,
                                answered: Some(p.email.clone()),
                            },
                            true,
                        ),
                        Answered::Withheld(note) => (
                            Outcome::Refused {
                                reason: reason + &note,
                                answered: None,
                            },
                            false,
                        ),
                    }
                }
                _ => (
                    Outcome::Refused {
                        reason: why.to_string(),
                        answered: None,
                    },
                    false,
                ),
            },
            Fate::Late {
                player: p,
                turn,
                deadline: d,
                hold,
            } => {
                deadline_read?;
                let when = shown(d);
                let got = shown(arrived.at);
                if hold {
                    atomic::write_file(
                        &crate::pbem::layout::held_path(archive, turn + 1, &p.id),
                        for_turn(&filed_text, turn + 1).as_bytes(),
                    )?;
                    self.answer(
                                &key,
                                p,
                                Some(&message_id),
                                format!("[{name}] turn {turn}: late, held for turn {}", turn + 1),
                                format!(
                                    "Your orders arrived {got}, after the deadline for turn {turn} ({when}). They are held for turn {}: when turn {turn} has been played they are checked again against the new position, and you will get that check.\n",
                                    turn + 1
                                ),
                            )?;
                    (
                        Outcome::Held {
                            player: p.id.clone(),
                            turn: turn + 1,
                        },
                        true,
                    )
                } else {
                    let why =
                        format!("it arrived {got}, after the deadline for turn {turn} ({when})");
                    self.answer(
                                &key,
                                p,
                                Some(&message_id),
                                format!("[{name}] turn {turn}: late, refused"),
                                format!(
                                    "Your mail{original} to the judge of {name} was refused: {why}.\n\nNothing from it was filed. Orders for turn {} can be sent once turn {turn} has been played.\n",
                                    turn + 1
                                ),
                            )?;
                    (
                        Outcome::Refused {
                            reason: why,
                            answered: Some(p.email.clone()),
                        },
                        true,
                    )
                }
            }
            Fate::Filed { player: p } => {
                deadline_read?;
                let pending = archive
                    .root()
                    .join(PENDING_DIR)
                    .join(format!("{}.txt", p.id));
                let replaced = pending.is_file();
                atomic::write_file(&pending, filed_text.as_bytes())?;
                let checked =
                    self.position
                        .check(&filed_text, "your orders", Some(&p.id), Some(&name));
                let (errors, warnings) = (checked.errors(), checked.warnings());
                // Orders sent before the player's own step, in a game played one
                // player at a time, wait on record for that step: the answer
                // names it, not the next step, whose number and deadline are
                // another player's.
                let own = (self.round.is_none()
                    && held_over.is_none()
                    && self.game.pace() == crate::pbem::game::Pace::OneAtATime)
                    .then(|| self.position.next_step_of(&p.id))
                    .flatten()
                    .filter(|m| *m > next);
                let what = match own {
                    Some(m) => format!("turn {m}"),
                    None => what.clone(),
                };
                let due = match own {
                    Some(m) => format!(
                        "Turn {next}, the next step, is another player's: your own is turn {m}, and its deadline is set when the step before it is played."
                    ),
                    None => self.due(next),
                };
                let replacing = if replaced {
                    ", replacing the ones you sent before"
                } else {
                    ""
                };
                let mut body = match held_over {
                    Some(t) => format!(
                        "Your orders for turn {t} of {name} arrived {}, after turn {t} was played. The game holds late orders: they are filed for turn {next}{replacing}, checked below against the new position.\n{due} You may send new orders until then: the last ones received count.\n\n",
                        shown(arrived.at),
                    ),
                    None => format!(
                        "Your orders for {what} of {name} are filed{replacing}.\n{due} You may send new orders until then: the last ones received count.\n\n",
                    ),
                };
                if let Some((_, how, list)) = &via_list {
                    body.push_str(&format!(
                                "They came through the mailing list {list}, which the GM trusts to forward your mail: its {how} named you, and your secret was right.\n\n"
                            ));
                }
                body.push_str(&checked.text);
                // A file with `standing` is told that its orders stand, and one with
                // `standing off` that they stop.
                match self.position.header(&filed_text).standing {
                            Some(true) => body.push_str(&format!(
                                "\nThese orders stand (the line `standing`): once played for {what}, they are played again each turn you send no orders, until you send new standing orders or a file with `standing off`.\n"
                            )),
                            Some(false) => body.push_str(&format!(
                                "\n`standing off`: your standing orders stop; these orders are played once, for {what}.\n"
                            )),
                            None => {}
                        }
                let said = crate::pbem::directives::read(&filed_text);
                if let Some(changed) = crate::pbem::preferences::Preferences::load(archive)?
                    .take(archive, &p.id, &said)?
                {
                    body.push_str(&format!("\n{changed}\n"));
                }
                if errors > 0 && !said.as_is {
                    body.push_str(&format!(
                                "\nBecause of {}, these orders wait for a corrected file: the judge plays nothing from them before you send one, or until the deadline{} (then they are played as they are, without the lines in error). To have them played as they are now, send them again with a line `as is`.\n",
                                if errors == 1 { "the error" } else { "the errors" },
                                match archive.game.schedule.as_ref().and_then(|s| s.grace.as_ref()) {
                                    Some(g) => format!(" or for {g}"),
                                    None => String::new(),
                                }
                            ));
                }
                // A file with no orders in it is never
                // answered "filed, no errors".
                let read_none = errors == 0
                    && self.round.is_none()
                    && checked.echo.as_array().is_some_and(Vec::is_empty);
                if read_none {
                    body.push_str(&format!(
                                "\nNo orders were read in your mail: what it holds is filed for {what} as no orders. Lines quoted from an earlier mail (`> `), and everything below a reply separator (`-----Original Message-----`, `On ... wrote:`) or a signature line (`-- `), are not read: write your orders above them, in your own text.\n"
                            ));
                }
                let errors_said = if read_none {
                    "no orders read".to_string()
                } else if errors == 0 {
                    "no errors".to_string()
                } else {
                    count(errors, "error")
                };
                self.answer(
                    &key,
                    p,
                    Some(&message_id),
                    match held_over {
                        Some(t) => {
                            format!("[{name}] turn {t}: late, held for turn {next}, {errors_said}")
                        }
                        None => format!("[{name}] {what}: filed, {errors_said}"),
                    },
                    body,
                )?;
                let outcome = match held_over {
                    Some(_) => Outcome::Held {
                        player: p.id.clone(),
                        turn: next,
                    },
                    None => Outcome::Accepted {
                        player: p.id.clone(),
                        // Turn 0: the round before turn 1.
                        turn: if self.round.is_some() { 0 } else { next },
                        replaced,
                        errors,
                        warnings,
                    },
                };
                (outcome, true)
            }
        };
        let mut entry = Entry {
            answer: own_key.or(answered.then_some(key)),
            outcome: outcome.clone(),
            ..logged
        };
        // The commands of a mail that held orders too, once the orders are filed: what
        // they tell (`status`) counts this mail as filed.
        if let Some(who) = then_commands {
            self.filing = Some(entry.clone());
            let done = self.carry_out(who, commands, cmd_secret_ok, seq, &values, &message_id);
            self.filing = None;
            entry.commands = done?.0;
        }
        self.log.append(archive, entry)?;
        Ok(Filed {
            label: label.to_string(),
            from: m.from.clone(),
            seq: Some(seq),
            outcome,
        })
    }

    /// A mail of commands only: they are carried out (their answer goes in a mail of its
    /// own), then the copy is kept and the mail logged.
    fn commands_only(&mut self, who: by_mail::Who<'_>, r: Reading<'_>) -> Result<Filed, Error> {
        let archive = self.archive;
        let (command_log, command_answer) = self.carry_out(
            who,
            r.commands,
            r.cmd_secret_ok,
            r.seq,
            &r.values,
            &r.message_id,
        )?;
        atomic::write_file(
            &archive.root().join(&r.kept_name),
            &kept_copy(r.mail, &r.values, r.arrived),
        )?;
        let outcome = Outcome::Commands { done: command_log };
        self.log.append(
            archive,
            Entry {
                answer: command_answer,
                outcome: outcome.clone(),
                ..r.logged
            },
        )?;
        Ok(Filed {
            label: r.label.to_string(),
            from: r.mail.from.clone(),
            seq: Some(r.seq),
            outcome,
        })
    }

    /// Carry out a mail's commands and queue their answer: what each did, for the log,
    /// and the answer's outbox key.
    fn carry_out(
        &mut self,
        who: by_mail::Who<'_>,
        commands: &[crate::pbem::commands::Found],
        secret_ok: bool,
        seq: usize,
        values: &BTreeSet<String>,
        message_id: &str,
    ) -> Result<(Vec<String>, Option<String>), Error> {
        let archive = self.archive;
        // A flood of commands (forged or not) costs an address at most this many
        // answers an hour, and the other players at most this many press mails.
        let address = who.address();
        let recent = crate::pbem::rate::within_hour(
            self.log
                .entries
                .iter()
                .filter(|e| {
                    e.from
                        .as_deref()
                        .is_some_and(|f| f.eq_ignore_ascii_case(address))
                        && (matches!(e.outcome, Outcome::Commands { .. }) || !e.commands.is_empty())
                })
                .map(|e| e.handled.as_deref()),
            self.now,
        );
        if !crate::pbem::rate::commands_allowed(recent) {
            return Ok((
                vec![format!(
                    "not carried out: {COMMAND_MAILS_PER_HOUR} mails of commands came from this address within the hour"
                )],
                None,
            ));
        }
        let hour_ago = self.now.checked_sub(Duration::from_secs(3600));
        let day_ago = self.now.checked_sub(Duration::from_secs(24 * 3600));
        let ctx = by_mail::Ctx {
            archive,
            game: self.game,
            position: self.position.as_ref(),
            now: self.now,
            secrets: values,
            secret_ok,
            filing: self.filing.as_ref(),
            press_this_hour: self.done_since(address, hour_ago, by_mail::sent_press),
            resends_today: self.done_since(address, day_ago, by_mail::resent),
        };
        // A run stopped while carrying out a mail's commands counts as one stopped
        // while reading it: the mark is set again meanwhile, and a mail that stopped two
        // runs so is refused unread by the next. A run that ends,
        // even with an error, takes the mark away.
        let mark = self.archive.root().join(READING);
        if let Some((digest, stopped)) = &self.reading {
            std::fs::write(&mark, format!("{digest} {}\n", stopped + 1)).map_err(|source| {
                crate::archive::ArchiveError::Io {
                    path: mark.clone(),
                    source,
                }
            })?;
        }
        let key = format!("cmd-{seq:06}");
        let done = by_mail::carry_out(&ctx, who, commands).and_then(|done| {
            let answered = by_mail::answer(archive, who, &key, Some(message_id), &done)?;
            Ok((done, answered))
        });
        if self.reading.is_some() {
            let _ = std::fs::remove_file(&mark);
        }
        let (done, answered) = done?;
        if done.joined.is_some() {
            self.players = Archive::open(archive.root())?.game.players;
        }
        Ok((done.log, answered.then_some(key)))
    }

    /// How many commands of the mails from `address` handled after `since` did what
    /// `what` says of their line in the log.
    fn done_since(
        &self,
        address: &str,
        since: Option<SystemTime>,
        what: fn(&str) -> bool,
    ) -> usize {
        self.log
            .entries
            .iter()
            .filter(|e| {
                e.from
                    .as_deref()
                    .is_some_and(|f| f.eq_ignore_ascii_case(address))
                    && e.handled
                        .as_deref()
                        .and_then(|h| humantime::parse_rfc3339_weak(h).ok())
                        .is_some_and(|h| since.is_none_or(|s| h > s))
            })
            .flat_map(|e| {
                let done = match &e.outcome {
                    Outcome::Commands { done } => done.as_slice(),
                    _ => &[],
                };
                e.commands.iter().chain(done)
            })
            .filter(|l| what(l))
            .count()
    }

    /// A mail too large or too broken to read: logged, not kept; a player who sent a
    /// too-large one is told (its headers alone are read).
    pub(super) fn unreadable(
        &mut self,
        seq: usize,
        mail: &Mail,
        id: &str,
        digest: &str,
        e: Unread,
    ) -> Result<Filed, Error> {
        let head = inbound::read_headers(&mail.raw);
        let from = head.as_ref().and_then(|h| h.from.clone());
        let values = redact::candidates(
            head.iter()
                .flat_map(|h| [h.subject.as_str(), h.message_id.as_str()]),
        );
        let subject = redact::blank(
            &head.as_ref().map_or(String::new(), |h| h.subject.clone()),
            &values,
        );
        let id = kept_id(id, &values, digest);
        let player = self.player_by_address(from.as_deref());
        let player = player.as_ref();
        let key = format!("ack-{seq:06}");
        let (why, advice) = match &e {
            Unread::Read(ReadError::Unreadable) => (e.to_string(), ""),
            Unread::Read(ReadError::TooLarge(_)) => (
                e.to_string(),
                " Send your orders as plain text in the mail, or as a small text attachment.",
            ),
            _ => (
                e.to_string(),
                " Send your orders as plain text in the mail.",
            ),
        };
        let mut reason = why.clone();
        let answered = match player {
            Some(p) => {
                let next = self.position.turn() + 1;
                let body = format!(
                    "Your mail \"{subject}\" to the judge of {} was refused: {why}.\n\nNothing from it was filed, and it will not be read again.{advice}\n\n{}\n",
                    self.name,
                    self.due(next)
                );
                let subject_line = format!("[{}] your mail was refused, unread", self.name);
                match self.refuse_answer(&key, p, Some(&id), subject_line, body)? {
                    Answered::Yes => Some(p.email.clone()),
                    Answered::Withheld(note) => {
                        reason.push_str(&note);
                        None
                    }
                }
            }
            None => None,
        };
        let outcome = Outcome::Refused {
            reason,
            answered: answered.clone(),
        };
        let arrived = arrival(
            mail.delivered,
            head.as_ref().and_then(|h| h.received),
            head.as_ref().and_then(|h| h.date),
            self.now,
        );
        self.log.append(
            self.archive,
            Entry {
                seq,
                message_id: id,
                from: from.clone(),
                subject,
                arrived: Some(humantime::format_rfc3339_seconds(arrived.at).to_string()),
                arrived_by: Some(arrived.by.to_string()),
                seat: player.map(|p| p.id.clone()),
                secret_ok: false,
                kept: None,
                answer: answered.map(|_| key),
                digest: Some(digest.to_string()),
                handled: Some(self.handled()),
                again_of: None,
                commands: Vec::new(),
                outcome: outcome.clone(),
            },
        )?;
        Ok(Filed {
            label: mail.label.clone(),
            from,
            seq: Some(seq),
            outcome,
        })
    }

    /// Answer a refusal, unless this address had [`REFUSALS_PER_HOUR`] answered refusals
    /// within the hour: then the mail is refused without an answer, and the address gets
    /// one short note a day saying so (a mail bomb forged from a player's address
    /// costs that player at most a few mails an hour).
    fn refuse_answer(
        &self,
        key: &str,
        p: &PlayerEntry,
        in_reply_to: Option<&str>,
        subject: String,
        body: String,
    ) -> Result<Answered, Error> {
        let recent = crate::pbem::rate::within_hour(
            self.log
                .entries
                .iter()
                .filter(|e| matches!(&e.outcome, Outcome::Refused { answered: Some(a), .. } if a.eq_ignore_ascii_case(&p.email)))
                .map(|e| e.handled.as_deref()),
            self.now,
        );
        let note_key = match crate::pbem::rate::refusal(recent, self.now, &p.id) {
            crate::pbem::rate::Refusal::Answer => {
                self.answer(key, p, in_reply_to, subject, body)?;
                return Ok(Answered::Yes);
            }
            crate::pbem::rate::Refusal::Withhold { note_key } => note_key,
        };
        self.answer(
            &note_key,
            p,
            None,
            format!("[{}] more of your mails were refused, not answered one by one", self.name),
            format!(
                "More than {REFUSALS_PER_HOUR} mails from your address to the judge of {} were refused within an hour. The judge answers at most {REFUSALS_PER_HOUR} refusals an hour to one address, and this note at most once a day; the GM sees every mail in `judge status`.\n\nIf you did not send them, someone is sending mail in your name: none of it gave your secret, so nothing of it was filed.\n\n{}\n",
                self.name,
                self.due(self.position.turn() + 1)
            ),
        )?;
        Ok(Answered::Withheld(format!(
            "; not answered: {REFUSALS_PER_HOUR} refusals went to this address within the hour"
        )))
    }

    fn answer(
        &self,
        key: &str,
        p: &PlayerEntry,
        in_reply_to: Option<&str>,
        subject: String,
        body: String,
    ) -> Result<(), Error> {
        outbox::queue_unless_unaddressable(
            self.archive,
            &Outgoing {
                key: key.to_string(),
                to_name: p.name.clone(),
                to: p.email.clone(),
                subject,
                body,
                in_reply_to: in_reply_to.map(str::to_string),
                attachment: None,
            },
        )?;
        Ok(())
    }
}
