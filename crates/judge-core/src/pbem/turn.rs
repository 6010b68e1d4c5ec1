//! Playing the next turn, the step a GM (or cron) runs again and again:
//!
//! 1. finish what an earlier run left (a turn written but its orders not cleared, held
//!    orders not yet moved, reports not yet queued);
//! 2. file new mail and answer it (the answers are queued: the caller sends the outbox,
//!    once it has let go of the game, [`super::send`]);
//! 3. remind players without orders, once, a set time before the deadline;
//! 4. if the turn is due (its deadline has passed, or every player's orders are in and
//!    the schedule says `early = true`), play it: the orders in `pending/` (or a player's
//!    standing orders), moved aside first so that a crash can never play them twice;
//!    the turn written whole; the reports queued.
//!
//! Every step can be repeated: a run killed at any point is finished by the next one.

use std::collections::BTreeMap;
use std::time::SystemTime;

use super::error::Error;
use super::game::{Game, OrderFile, Pace};
pub use super::in_hand::{EarlyWait, early_note, early_wait, gather};
use super::intake::Intake;
pub use super::layout::held_path;
pub use super::record::{Done, Source, TurnRecord, record};
use super::{intake, report, send, sources};
use crate::archive::schedule::shown;
use crate::archive::{
    Archive, EVENTS_FILE, ORDERS_DIR, STANDING_DIR, STATE_FILE, TURN_FILE, atomic, stable_json,
};
use crate::diagnostic::Diagnostics;
use crate::mail::outbox::{self, Outgoing};
use crate::text::{count, decode};

/// How to run a turn.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Play before the deadline, or with no orders waiting.
    pub force: bool,
    /// Open the mailbox read-only (a dry run): nothing is marked read on the server.
    pub read_only_mail: bool,
}

/// Where the pending orders of turn `turn` wait while it is played.
fn staging(archive: &Archive, turn: u32) -> std::path::PathBuf {
    archive.pending_dir().join(format!(".turn-{turn:03}"))
}

fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| {
        Error::Archive(crate::archive::ArchiveError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// Finish what an earlier run left undone; safe to run any number of times.
pub fn finish(archive: &Archive, game: &dyn Game, lines: &mut Vec<String>) -> Result<(), Error> {
    if archive.turns()?.is_empty() {
        return Ok(());
    }
    let last = archive.pick_turn(None)?;
    // Orders moved aside for a turn: cleared if the turn was written, put back if not
    // (unless the player has sent newer ones since).
    for entry in std::fs::read_dir(archive.pending_dir())
        .into_iter()
        .flatten()
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(turn) = name
            .strip_prefix(".turn-")
            .and_then(|t| t.parse::<u32>().ok())
        else {
            continue;
        };
        let dir = entry.path();
        if turn > last {
            for f in std::fs::read_dir(&dir).map_err(io(&dir))?.flatten() {
                let back = archive.pending_dir().join(f.file_name());
                if back.exists() {
                    std::fs::remove_file(f.path()).map_err(io(&f.path()))?;
                } else {
                    std::fs::rename(f.path(), &back).map_err(io(&back))?;
                }
            }
            lines.push(format!(
                "turn {turn} was not written by an earlier run: its orders are back in pending/"
            ));
        }
        std::fs::remove_dir_all(&dir).map_err(io(&dir))?;
    }
    if last == 0 {
        return Ok(());
    }
    // A game that is over publishes its seed (its last report already did).
    if super::stage::position(archive, game, last)?
        .over()
        .is_some()
        && let Some((s, true)) = archive.reveal()?
    {
        lines.push(format!(
            "The seed is published in randomness.toml: {} (judge verify checks the game).",
            s.luck.to_hex()
        ));
    }
    // Standing orders follow the orders the last turn played.
    if let Some(rec) = record(archive, last)? {
        for f in report::orders_of(archive, last)? {
            // A seat taken over since keeps nothing of its old player's: `judge replace`
            // set their standing orders aside.
            if rec.orders.get(&f.player) != Some(&Source::Sent)
                || super::replace::replaced_after(archive, last, &f.player)
            {
                continue;
            }
            let path = archive
                .root()
                .join(STANDING_DIR)
                .join(format!("{}.txt", f.player));
            let position = super::stage::position(archive, game, last)?;
            match position.header(&f.text).standing {
                Some(true) => atomic::write_file(&path, f.text.as_bytes())?,
                Some(false) if path.exists() => {
                    std::fs::remove_file(&path).map_err(io(&path))?;
                }
                _ => {}
            }
        }
    }
    // Held orders for the next turn join the pending ones, checked again.
    let next = last + 1;
    let position = super::stage::position(archive, game, last)?;
    let name = archive.name();
    for seat in position.seats() {
        let held = held_path(archive, next, &seat.id);
        let Some(bytes) = archive.read_own(&held)? else {
            continue;
        };
        let pending = archive.pending_dir().join(format!("{}.txt", seat.id));
        if !pending.exists() {
            atomic::write_file(&pending, &bytes)?;
        }
        let text = decode(&bytes).0;
        let checked = position.check(&text, "your held orders", Some(&seat.id), Some(&name));
        if archive.mail().is_some()
            && let Some(p) = archive.game.players.iter().find(|p| p.id == seat.id)
        {
            outbox::queue_unless_unaddressable(
                archive,
                &Outgoing {
                    key: format!("held-{next:03}-{}", seat.id),
                    to_name: p.name.clone(),
                    to: p.email.clone(),
                    subject: format!(
                        "[{name}] turn {next}: your held orders are filed, {}",
                        // No orders is never "no errors".
                        if checked.errors() == 0
                            && checked.echo.as_array().is_some_and(Vec::is_empty)
                        {
                            "no orders read".to_string()
                        } else if checked.errors() == 0 {
                            "no errors".to_string()
                        } else {
                            count(checked.errors(), "error")
                        }
                    ),
                    body: format!(
                        "Turn {last} has been played. The orders you sent after its deadline are now filed for turn {next}, and were checked again against the new position:\n\n{}\n{}\nYou may replace them until the deadline.\n",
                        checked.text,
                        super::due::due_line(archive, game, next)
                    ),
                    in_reply_to: None,
                    attachment: None,
                },
            )?;
        }
        std::fs::remove_file(&held).map_err(io(&held))?;
        lines.push(format!(
            "{}'s held orders are filed for turn {next}, checked again: {}",
            seat.id,
            count(checked.errors(), "error")
        ));
    }
    lines.extend(send::queue_reports(archive, game, last)?);
    // Notices by webhook never stop a turn: one that cannot be queued is said.
    if let Err(e) = crate::notify::events::turn_played(archive, game, last, lines) {
        lines.push(format!("notices of turn {last} not queued: {e}"));
    }
    Ok(())
}

/// File new mail from the sources game.toml names; a line per mail, and why the IMAP
/// server could not be read, if it could not (down, silent, dropped: the rest of the run
/// goes on without it).
pub fn read_mail(
    archive: &Archive,
    game: &dyn Game,
    now: SystemTime,
    read_only: bool,
) -> Result<(Vec<String>, Option<String>), Error> {
    let Some(settings) = archive.game.mail.clone() else {
        return Ok((Vec::new(), None));
    };
    // Before anything is read or written: no mail folder of the game may be committed
    // with it (a dry run's scratch copy is checked as the game itself, by its caller).
    if !read_only {
        crate::archive::git::check_mail_folders(archive)?;
    }
    if settings.maildir.is_none() && settings.mbox.is_none() && settings.imap_host.is_none() {
        return Ok((Vec::new(), None));
    }
    // A game whose mailbox is its folder's shared one leaves it to the folder, which
    // reads it once for all its games (`judge turn --all`): read here too, the mail of
    // the other games would be refused as this game's.
    if let Some(house) = crate::archive::house::House::beside(archive.root())?
        && house.shares_mailbox(&settings)
    {
        return Ok((Vec::new(), None));
    }
    // Nor may another game read it: each would answer the other's mail with refusals.
    // Neither reads it until the GM gives each its own mailbox
    // or puts them in one folder with a judge.toml.
    // (Not in a dry run: its scratch copy reads the game's own mailbox.)
    let others = if read_only {
        Vec::new()
    } else {
        crate::archive::house::other_readers(archive.root(), &settings, true)
    };
    if let Some((dir, how)) = others.first() {
        let what = if dir.join(crate::archive::GAME_FILE).is_file() {
            format!("the game {}", crate::archive::folder_name(dir))
        } else {
            "the folder of games".to_string()
        };
        return Err(Error::input(format!(
            "{}'s game.toml [mail] {how} names a mailbox that {what} ({}) reads too: two games reading one mailbox answer each other's mail with refusals, so this game reads none of it. Give each game a mailbox of its own, or put the games in one folder whose judge.toml names this mailbox and run them with `judge turn --all FOLDER` (docs/gm-guide.md, \"Many games, one address\")",
            archive.name(),
            dir.display()
        )));
    }
    let mut intake = Intake::open(archive, game, now)?;
    let mut lines = Vec::new();
    if let Some(dir) = &settings.maildir {
        let paths = sources::maildir(dir)?;
        lines.extend(intake::file_each(
            &mut intake,
            paths.iter().map(|p| sources::maildir_mail(p)),
        )?);
    }
    if let Some(path) = &settings.mbox {
        sources::mbox(path, |m| {
            lines.extend(intake.file(&m)?.news());
            Ok(())
        })?;
    }
    let mut down = None;
    if settings.imap_host.is_some() {
        let src = sources::imap(&settings, None, None, None, None)?;
        match intake::file_imap(&mut intake, &src, read_only) {
            Ok(l) => lines.extend(l),
            Err(Error::MailboxDown(why)) => down = Some(why),
            Err(e) => return Err(e),
        }
    }
    lines.extend(intake.skipped());
    Ok((lines, down))
}

/// What the GM reads of a due step held while the mailbox cannot be read.
fn down_line(what: &str, why: &str) -> String {
    format!(
        "{what} is due, but the mailbox could not be read ({why}): orders sent on time may wait there, so it is played once the mailbox is read again"
    )
}

/// The players whose mailed files had errors and must wait for a corrected one: the
/// player's last accepted mail (the file in `pending/`) had errors when it was checked
/// and answered, it has no `as is` line, and it was filed less than the schedule's grace
/// ago (with no grace, until the deadline). A file the GM put in `pending/` by hand
/// never waits.
fn waiting_for_correction(
    archive: &Archive,
    files: &[(String, OrderFile, Source)],
    now: SystemTime,
) -> Result<Vec<String>, Error> {
    let grace = archive.game.schedule.as_ref().and_then(|s| s.grace());
    let mut log = None;
    let mut out = Vec::new();
    for (_, f, src) in files {
        if *src != Source::Sent || super::directives::read(&f.text).as_is {
            continue;
        }
        let log = match &mut log {
            Some(l) => l,
            None => log.insert(super::log::Log::load(archive)?),
        };
        let Some(last) = log.entries.iter().rev().find(|e| {
            e.seat.as_deref() == Some(f.player.as_str())
                && matches!(e.outcome, super::log::Outcome::Accepted { .. })
        }) else {
            continue;
        };
        if !matches!(last.outcome, super::log::Outcome::Accepted { errors, .. } if errors > 0) {
            continue;
        }
        let filed = last
            .arrived
            .as_deref()
            .and_then(|a| humantime::parse_rfc3339_weak(a).ok());
        if let (Some(grace), Some(t)) = (grace, filed)
            && t.checked_add(grace).is_some_and(|end| end <= now)
        {
            continue;
        }
        out.push(f.player.clone());
    }
    Ok(out)
}

/// Remind each player whose orders the turn waits for, once per turn, when the deadline
/// is near.
fn remind(
    archive: &Archive,
    game: &dyn Game,
    waiting: &[String],
    standing: &[String],
    next: u32,
    now: SystemTime,
    lines: &mut Vec<String>,
) -> Result<(), Error> {
    let (Some(schedule), Some(_)) = (&archive.game.schedule, &archive.mail()) else {
        return Ok(());
    };
    let Some(before) = schedule.remind() else {
        return Ok(());
    };
    let Some(deadline) = super::due::deadline(archive, game, next)? else {
        return Ok(());
    };
    if now >= deadline || deadline.duration_since(now).is_ok_and(|left| left > before) {
        return Ok(());
    }
    let name = archive.name();
    let ledger = super::absent::Ledger::load(archive)?;
    for seat in waiting {
        let key = format!("remind-{next:03}-{seat}");
        if outbox::known(archive, &key) || ledger.on_vacation(seat, now) {
            continue;
        }
        let Some(p) = archive.game.players.iter().find(|p| &p.id == seat) else {
            continue;
        };
        let if_none = if standing.contains(seat) {
            "If you send none, your standing orders are played (the line `standing`), as each turn you send none."
        } else {
            "A player who sends none gives no orders that turn (the game's defaults stand in)."
        };
        outbox::queue_unless_unaddressable(
            archive,
            &Outgoing {
                key,
                to_name: p.name.clone(),
                to: p.email.clone(),
                subject: format!("[{name}] turn {next}: no orders from you yet"),
                body: format!(
                    "The judge of {name} has no orders from you for turn {next}. They are due by {}.\n{if_none}\n\nStart your orders with:\n\n  game {name}\n  player {}\n  turn {next}\n  secret YOUR-SECRET\n",
                    shown(deadline),
                    seat
                ),
                in_reply_to: None,
                attachment: None,
            },
        )?;
        lines.push(format!("reminded {seat} (no orders for turn {next} yet)"));
    }
    Ok(())
}

/// What a pass over a folder of games brings to one game's step ([`super::house`]).
#[derive(Debug, Default)]
pub struct InFolder {
    /// The mail the folder routed to this game from its shared mailbox, each with what
    /// the folder's reading of it gave: filed as it was read, never read again.
    pub routed: Vec<(sources::Mail, Option<intake::Prior>)>,
    /// Mail delivered at this time or later may still wait unread in the shared mailbox
    /// (a pass holds only so much; a mail waits for a game that cannot be read): a turn
    /// whose deadline is not before it is not played in this pass.
    pub unread_since: Option<SystemTime>,
}

/// Run the turn step. What a GM reads of it goes into `lines`, also when it fails.
pub fn run(
    archive: &Archive,
    game: &dyn Game,
    now: SystemTime,
    opts: Options,
    lines: &mut Vec<String>,
) -> Result<Done, Error> {
    run_with(archive, game, now, opts, None, lines)
}

/// [`run`], in a pass over the folder the game stands in: the mail the folder routed
/// to it is filed after the game's own mailbox. A game without `[schedule]` is run by
/// its GM (`judge turn DIR`): the pass files its mail and plays nothing. A due turn waits
/// while mail delivered before its deadline waits unread ([`InFolder::unread_since`]).
pub fn run_in_folder(
    archive: &Archive,
    game: &dyn Game,
    now: SystemTime,
    opts: Options,
    folder: InFolder,
    lines: &mut Vec<String>,
) -> Result<Done, Error> {
    run_with(archive, game, now, opts, Some(folder), lines)
}

fn run_with(
    archive: &Archive,
    game: &dyn Game,
    now: SystemTime,
    opts: Options,
    folder: Option<InFolder>,
    lines: &mut Vec<String>,
) -> Result<Done, Error> {
    let started = super::stage::started(archive);
    if started {
        finish(archive, game, lines)?;
    } else if let Err(e) = crate::notify::events::signup_open(archive, game, lines) {
        lines.push(format!("the sign-up notice was not queued: {e}"));
    }
    let (read, down) = read_mail(archive, game, now, opts.read_only_mail)?;
    lines.extend(read);
    let done = run_read(
        archive,
        game,
        now,
        opts,
        folder,
        started,
        down.as_deref(),
        lines,
    )?;
    // The rest is done (answers, reminders, reports queued): the mailbox down is said
    // last, for the exit code.
    match down {
        Some(why) => Err(Error::MailboxDown(why)),
        None => Ok(done),
    }
}

#[allow(clippy::too_many_arguments)]
fn run_read(
    archive: &Archive,
    game: &dyn Game,
    now: SystemTime,
    opts: Options,
    folder: Option<InFolder>,
    started: bool,
    down: Option<&str>,
    lines: &mut Vec<String>,
) -> Result<Done, Error> {
    let (in_folder, unread_since) = match folder {
        Some(f) => {
            if !f.routed.is_empty() {
                let mut intake = Intake::open(archive, game, now)?;
                for (mail, prior) in f.routed {
                    lines.extend(intake.file_with(&mail, prior)?.news());
                }
                lines.extend(intake.skipped());
            }
            (true, f.unread_since)
        }
        None => (false, None),
    };
    // Anonymous press whose hour is out goes to its readers (docs/mail-commands.md).
    if super::stage::started(archive) {
        let next = super::stage::current(archive, game)?.turn() + 1;
        lines.extend(super::press::relay_due(archive, next, now)?);
    }
    // A game open for sign-up waits for its seats. The `join` that takes the last one
    // begins it, and mails every player the game as it begins; the next run goes on
    // from there, with the players game.toml names now.
    if !started {
        return Ok(Done::Waiting(if super::stage::started(archive) {
            "the last free seat was taken: the game has begun".into()
        } else {
            super::stage::waiting(archive).unwrap_or_else(|| "the game has not begun".into())
        }));
    }
    // A game without a schedule is played when its GM says, never by a pass over the
    // folder (such a game was played at each first mail).
    if in_folder && archive.game.schedule.is_none() {
        return Ok(Done::Waiting(
            "it has no [schedule]: the GM plays each turn with `judge turn`, a pass over the folder never does".into(),
        ));
    }
    // Before turn 0: the round by mail goes first. Its next step, due by its deadline,
    // waits as a turn does for the mail before it.
    if let Some((last, _)) = super::stage::round_standing(archive, game)? {
        if let Some(why) = down
            && super::due::round_deadline(archive, last)?.is_some_and(|d| now >= d)
        {
            lines.push(down_line("the set-up round's next choice", why));
            return Ok(Done::Held(0));
        }
        if let Some(since) = unread_since
            && let Some(deadline) = super::due::round_deadline(archive, last)?
            && now >= deadline
            && since <= deadline
        {
            lines.push(held_line("the set-up round's next choice"));
            return Ok(Done::Held(0));
        }
        return super::round::run(archive, game, now, opts.force, lines);
    }
    let mut done = step(archive, game, now, opts, unread_since, down, lines)?;
    // A game played one player at a time plays on while the next step's orders are in.
    let mut played = 0;
    while let Done::Played(_) = done {
        if game.pace() != Pace::OneAtATime || played >= 10_000 {
            break;
        }
        played += 1;
        match step(
            archive,
            game,
            now,
            Options {
                force: false,
                ..opts
            },
            unread_since,
            down,
            lines,
        )? {
            Done::Played(t) => done = Done::Played(t),
            _ => break,
        }
    }
    Ok(done)
}

/// What the GM reads of a due step held for the mail still unread.
fn held_line(what: &str) -> String {
    format!(
        "{what} is due, but mail delivered before its deadline still waits unread in the shared mailbox: it is played once that mail is read"
    )
}

/// Play the next turn if it is due, and no mail delivered before its deadline waits
/// unread (`unread_since`, [`InFolder::unread_since`]).
fn step(
    archive: &Archive,
    game: &dyn Game,
    now: SystemTime,
    opts: Options,
    unread_since: Option<SystemTime>,
    down: Option<&str>,
    lines: &mut Vec<String>,
) -> Result<Done, Error> {
    let last = archive.pick_turn(None)?;
    // A seat's new player is named from this turn on.
    let kept = super::stage::position(archive, game, last)?;
    let renamed = super::stage::new_names(archive, kept.as_ref());
    let (state, renamed_json) = super::stage::named(game, kept, &renamed)?;
    let next = last + 1;
    if state.over().is_some() {
        return Ok(Done::Over);
    }
    if let Some(why) = super::stage::waiting(archive)
        && !opts.force
    {
        return Ok(Done::Waiting(why));
    }
    let mut files = gather(archive, state.as_ref(), next, lines)?;
    // A file with errors waits for its owner to send a corrected one (docs/gm-guide.md):
    // it does not count as in, and is not played, unless it says `as is`, its grace has
    // passed, or the deadline has come for a step that needs it.
    let waits = waiting_for_correction(archive, &files, now)?;
    let sent: Vec<OrderFile> = files
        .iter()
        .filter(|(_, f, s)| *s == Source::Sent && !waits.contains(&f.player))
        .map(|(_, f, _)| f.clone())
        .collect();
    let waiting = state.awaited(&sent);
    // Whose standing orders will be played: their orders are not missing, the late notice
    // does not name them, and their reminder says so.
    let standing: Vec<String> = files
        .iter()
        .filter(|(_, _, s)| *s == Source::Standing)
        .map(|(_, f, _)| f.player.clone())
        .collect();
    remind(archive, game, &waiting, &standing, next, now, lines)?;
    let missing: Vec<String> = waiting
        .iter()
        .filter(|p| !standing.contains(p))
        .cloned()
        .collect();
    super::absent::late_notice(archive, game, &missing, next, now, lines)?;
    if let Err(e) = crate::notify::events::deadline_near(archive, game, &missing, next, now, lines)
    {
        lines.push(format!("the deadline notice was not queued: {e}"));
    }
    let deadline = super::due::deadline(archive, game, next)?;
    let past = deadline.is_some_and(|d| now >= d);
    let early = early_wait(archive, &waiting, &standing, now)?;
    let due = opts.force
        || past
        || match (game.pace(), &archive.game.schedule) {
            (Pace::OneAtATime, _) => waiting.is_empty(),
            (Pace::Together, Some(s)) => s.early && early.waits_for.is_empty(),
            // Without a schedule, a turn is played when orders come in; a second run
            // finds none and plays nothing.
            (Pace::Together, None) => !sent.is_empty(),
        };
    // At the deadline (or when the GM forces the turn) a file with errors is played as it
    // is if the step needs it; otherwise it keeps waiting in pending/.
    let needed = |p: &str| opts.force || (past && waiting.iter().any(|w| w == p));
    for p in &waits {
        if due && needed(p) {
            lines.push(format!(
                "{p}'s orders have errors and no corrected file came: played as they are"
            ));
        } else {
            lines.push(format!(
                "{p}'s orders have errors: they wait for a corrected file (or a line `as is`)"
            ));
        }
    }
    files.retain(|(_, f, _)| !waits.contains(&f.player) || (due && needed(&f.player)));
    // The mailbox could not be read: orders sent on time may wait there; --force plays it
    // all the same.
    if due
        && !opts.force
        && let Some(why) = down
    {
        lines.push(down_line(&format!("turn {next}"), why));
        return Ok(Done::Held(next));
    }
    // Orders delivered on time may still be in the shared mailbox, unread: a due turn
    // (at its deadline, or early) waits for them.
    if due
        && let Some(since) = unread_since
        && deadline.is_none_or(|d| since <= d)
    {
        lines.push(held_line(&format!("turn {next}")));
        return Ok(Done::Held(next));
    }
    if !due
        && game.pace() == Pace::Together
        && archive.game.schedule.as_ref().is_some_and(|s| s.early)
        && let Some(why) = early.why(next)
    {
        lines.push(why);
    }
    if !due {
        return Ok(match deadline {
            Some(deadline) => Done::NotDue {
                turn: next,
                deadline,
            },
            None => Done::NothingToPlay(next),
        });
    }
    // Move the orders aside: from here, a crash can leave them only in the turn written,
    // or back in pending/ for the next run (see `finish`).
    let stage = staging(archive, next);
    std::fs::create_dir_all(&stage).map_err(io(&stage))?;
    for (name, _, src) in &files {
        if *src == Source::Sent {
            let from = archive.pending_dir().join(name);
            std::fs::rename(&from, stage.join(name)).map_err(io(&from))?;
        }
    }
    let ledger = super::absent::Ledger::load(archive)?;
    let silent: Vec<String> = waiting
        .iter()
        .filter(|p| !files.iter().any(|(_, f, _)| &f.player == *p))
        .cloned()
        .collect();
    let missed: Vec<String> = silent
        .iter()
        .filter(|p| !ledger.on_vacation(p, now))
        .cloned()
        .collect();
    // The caretaker plays for whoever the turn waited for in vain: its file is played,
    // kept and reported like a player's.
    for (seat, text) in super::absent::caretaker(archive, state.as_ref(), next, &silent, lines)? {
        files.push((
            format!("{seat}.txt"),
            OrderFile { player: seat, text },
            Source::Caretaker,
        ));
    }
    files.sort_by(|a, b| a.1.player.cmp(&b.1.player));
    let order_files: Vec<OrderFile> = files.iter().map(|(_, f, _)| f.clone()).collect();
    let played = state
        .play(&order_files, &archive.seeds()?.luck)
        .map_err(Error::from)?;
    for (player, problems) in &played.problems {
        let text = order_files
            .iter()
            .find(|f| &f.player == player)
            .map_or(String::new(), |f| f.text.clone());
        let d = Diagnostics {
            file: format!("{player}'s orders"),
            source: text,
            items: problems.clone(),
        };
        lines.push(d.render());
    }
    let name = archive.name();
    let one_at_a_time = game.pace() == Pace::OneAtATime;
    let rec = TurnRecord {
        game: name.clone(),
        deadline: super::due::deadline_after(archive, game, next + 1, Some(now))?.map(shown),
        played_at: one_at_a_time.then(|| crate::archive::schedule::stamp(now)),
        orders: files
            .iter()
            .map(|(_, f, src)| (f.player.clone(), *src))
            .collect(),
        acted: played.acted.clone(),
        ended: None,
        missed,
        renamed: if renamed_json.is_some() {
            renamed
        } else {
            BTreeMap::new()
        },
    };
    let mut turn_files: Vec<(String, Vec<u8>)> = order_files
        .iter()
        .map(|f| {
            (
                format!("{ORDERS_DIR}/{}.txt", f.player),
                f.text.clone().into_bytes(),
            )
        })
        .collect();
    turn_files.push((STATE_FILE.to_string(), played.state.clone().into_bytes()));
    turn_files.push((EVENTS_FILE.to_string(), played.events.clone().into_bytes()));
    turn_files.push((
        TURN_FILE.to_string(),
        stable_json(&rec)
            .map_err(|e| Error::input(e.to_string()))?
            .into_bytes(),
    ));
    let before = match renamed_json {
        Some(json) => json,
        None => archive.read(last, STATE_FILE)?,
    };
    turn_files.extend(report::files_for(
        archive,
        game,
        &report::Made {
            turn: next,
            before: &before,
            events: &played.events,
            after: &played.state,
            orders: &order_files,
            record: &rec,
        },
    )?);
    let refs: Vec<(&str, Vec<u8>)> = turn_files
        .iter()
        .map(|(n, b)| (n.as_str(), b.clone()))
        .collect();
    archive.write_turn(next, &refs)?;
    lines.push(played.summary.clone());
    let standing: Vec<&str> = files
        .iter()
        .filter(|(_, _, s)| *s == Source::Standing)
        .map(|(_, f, _)| f.player.as_str())
        .collect();
    if !standing.is_empty() {
        lines.push(format!(
            "Standing orders played for {}.",
            standing.join(", ")
        ));
    }
    if let Some(why) = &played.over {
        lines.push(format!("The game is over: {why}"));
    }
    super::absent::after_turn(archive, game, next, lines)?;
    finish(archive, game, lines)?;
    Ok(Done::Played(next))
}

/// End the game now (`judge end --why`): the next turn of the archive holds only the end,
/// scored by the game's own rules, with the GM's reason in its report; the reports are
/// queued, and the game's seed is published. Orders waiting in `pending/` are not played.
pub fn end(
    archive: &Archive,
    game: &dyn Game,
    now: SystemTime,
    why: &str,
    lines: &mut Vec<String>,
) -> Result<u32, Error> {
    finish(archive, game, lines)?;
    if super::stage::round_standing(archive, game)?.is_some() {
        return Err(Error::input(
            "the game has not begun: it is still in its round by mail before turn 1",
        ));
    }
    let why = why.trim();
    if why.is_empty() {
        return Err(Error::input(
            "say why the game ends: --why \"the players agreed to stop\"",
        ));
    }
    let last = archive.pick_turn(None)?;
    let kept = super::stage::position(archive, game, last)?;
    let renamed = super::stage::new_names(archive, kept.as_ref());
    let (state, renamed_json) = super::stage::named(game, kept, &renamed)?;
    if let Some(over) = state.over() {
        return Err(Error::input(format!("the game is over already: {over}")));
    }
    let next = last + 1;
    let played = state.end(why).map_err(Error::from)?;
    let rec = TurnRecord {
        game: archive.name(),
        deadline: None,
        played_at: Some(crate::archive::schedule::stamp(now)),
        orders: BTreeMap::new(),
        acted: played.acted.clone(),
        ended: Some(why.to_string()),
        missed: Vec::new(),
        renamed: if renamed_json.is_some() {
            renamed
        } else {
            BTreeMap::new()
        },
    };
    let before = match renamed_json {
        Some(json) => json,
        None => archive.read(last, STATE_FILE)?,
    };
    let mut files: Vec<(String, Vec<u8>)> = vec![
        (STATE_FILE.to_string(), played.state.clone().into_bytes()),
        (EVENTS_FILE.to_string(), played.events.clone().into_bytes()),
        (
            TURN_FILE.to_string(),
            stable_json(&rec)
                .map_err(|e| Error::input(e.to_string()))?
                .into_bytes(),
        ),
    ];
    files.extend(report::files_for(
        archive,
        game,
        &report::Made {
            turn: next,
            before: &before,
            events: &played.events,
            after: &played.state,
            orders: &[],
            record: &rec,
        },
    )?);
    let refs: Vec<(&str, Vec<u8>)> = files.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    archive.write_turn(next, &refs)?;
    lines.push(played.summary.clone());
    if let Some(why) = &played.over {
        lines.push(format!("The game is over: {why}"));
    }
    finish(archive, game, lines)?;
    Ok(next)
}
