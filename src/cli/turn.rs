//! `judge turn`: the step cron runs (`pbem::turn`), optionally committing the game.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::{Failure, Wait};
use crate::archive::schedule::shown;
use crate::pbem;
use crate::pbem::turn::Done;

pub fn run(args: TurnArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if args.dry_run {
        return dry_run(args, out);
    }
    if args.all {
        return all(args, out);
    }
    let lock = super::lock(&args.dir, "judge turn", args.wait)?;
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let now = super::outbox::now()?;
    let mut lines = Vec::new();
    let result = pbem::turn::run(
        &archive,
        game,
        now,
        pbem::turn::Options {
            force: args.force,
            read_only_mail: false,
        },
        &mut lines,
    );
    for l in &lines {
        writeln!(out, "{}", l.trim_end()).context("writing output")?;
    }
    // The mailbox down: everything else was done (answers, reminders, reports queued)
    // and is committed and sent; the command then exits 3 with the reason.
    let (done, down) = match result {
        Err(pbem::Error::MailboxDown(why)) => (Done::Held(0), Some(why)),
        other => (other?, None),
    };
    match &done {
        Done::Played(_) => {}
        Done::NotDue { turn, deadline } => {
            let left = deadline
                .duration_since(now)
                .map(|d| humantime::format_duration(std::time::Duration::from_secs(d.as_secs())))
                .map_or(String::new(), |d| format!(", in {d}"));
            let what = if *turn == 0 {
                "the set-up round's next choice".to_string()
            } else {
                format!("turn {turn}")
            };
            writeln!(
                out,
                "Nothing to play yet: {what} is due {}{left}. {}",
                shown(*deadline),
                waiting_for(&archive, game)?
            )
            .context("writing output")?;
        }
        Done::NothingToPlay(turn) => writeln!(
            out,
            "Nothing to play: no orders are waiting for turn {turn} (--force plays it with none)."
        )
        .context("writing output")?,
        Done::Over => writeln!(out, "The game is over: there is no next turn to play.")
            .context("writing output")?,
        Done::Waiting(why) => writeln!(out, "Nothing to play: {why} (docs/mail-commands.md).")
            .context("writing output")?,
        // Only a pass over a folder holds a turn for its shared mailbox.
        Done::Held(_) => {}
    }
    if args.commit {
        let message = pbem::commit::message(
            &archive,
            match done {
                Done::Played(t) => Some(t),
                _ => None,
            },
        );
        if pbem::commit::commit(&archive, &message)? {
            writeln!(out, "Committed {message}.").context("writing output")?;
        }
    }
    let down = down.map(|why| {
        Failure::later(anyhow::anyhow!(
            "{why}: no mail was read from it this run; the next `judge turn` tries again"
        ))
    });
    if args.no_send {
        return down.map_or(Ok(()), Err);
    }
    // The game is written: let it go before the mail, so that a slow server holds up
    // no other command (the outbox has its own lock).
    drop(lock);
    let sent = super::outbox::send_outbox(&archive, out);
    match (down, sent) {
        // The outbox's own trouble is said too; the exit code is the one to act on
        // first: settings to fix (1) before a server to wait for (3).
        (Some(down), Err(e)) => {
            if e.exit_code() == 1 {
                writeln!(out, "{down}").context("writing output")?;
                Err(e)
            } else {
                writeln!(out, "{e}").context("writing output")?;
                Err(down)
            }
        }
        (Some(down), Ok(())) => Err(down),
        (None, sent) => sent,
    }
}

/// `Orders from red and yellow; waiting for green.`
fn waiting_for(
    archive: &crate::archive::Archive,
    game: &dyn pbem::game::Game,
) -> Result<String, Failure> {
    let state = pbem::current(archive, game)?;
    let files: Vec<pbem::game::OrderFile> = archive
        .files_in(&archive.pending_dir())?
        .into_iter()
        .map(|(name, text)| pbem::game::OrderFile {
            player: name.strip_suffix(".txt").unwrap_or(&name).to_string(),
            text,
        })
        .collect();
    let standing: Vec<String> = state
        .seats()
        .into_iter()
        .map(|s| s.id)
        .filter(|id| {
            archive
                .root()
                .join(crate::archive::STANDING_DIR)
                .join(format!("{id}.txt"))
                .is_file()
        })
        .collect();
    let missing: Vec<String> = state
        .awaited(&files)
        .into_iter()
        .filter(|id| !standing.contains(id))
        .collect();
    let have: Vec<String> = files.iter().map(|f| f.player.clone()).collect();
    Ok(match (have.is_empty(), missing.is_empty()) {
        (_, true) => "Everything it waits for is in.".to_string(),
        (true, false) => format!("Waiting for {}.", missing.join(", ")),
        (false, false) => format!(
            "Orders from {}; waiting for {}.",
            have.join(", "),
            missing.join(", ")
        ),
    })
}

/// Everything `judge turn` would do now, in a scratch copy of the game: the mailbox is
/// opened read-only, nothing is sent, and the game is not changed.
fn dry_run(args: TurnArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let scratch = tempfile::tempdir().map_err(|e| Failure::later(e.into()))?;
    let copy = scratch.path().join(crate::archive::folder_name(&args.dir));
    {
        let _lock = super::lock(&args.dir, "judge turn --dry-run", args.wait)?;
        crate::archive::git::check_mail_folders(
            &pbem::open(crate::games::registry(), &args.dir)?.0,
        )?;
        copy_dir(&args.dir, &copy)
            .map_err(|e| Failure::user(format!("copying {}: {e}", args.dir.display())))?;
    }
    writeln!(
        out,
        "Dry run in a scratch copy: the game is not changed, no mail is marked read or sent."
    )
    .context("writing output")?;
    let (archive, game) = pbem::open(crate::games::registry(), &copy)?;
    let before = archive.pick_turn(None)?;
    let now = super::outbox::now()?;
    let mut lines = Vec::new();
    let result = pbem::turn::run(
        &archive,
        game,
        now,
        pbem::turn::Options {
            force: args.force,
            read_only_mail: true,
        },
        &mut lines,
    );
    for l in &lines {
        writeln!(out, "{}", l.trim_end()).context("writing output")?;
    }
    let (done, down) = match result {
        Err(pbem::Error::MailboxDown(why)) => (Done::Held(0), Some(why)),
        other => (other?, None),
    };
    if let Some(why) = down {
        writeln!(out, "The mailbox could not be read: {why}").context("writing output")?;
    }
    match done {
        Done::Played(t) if t > before => {
            let report = archive
                .read(t, pbem::report::REPORT_FILE)
                .unwrap_or_default();
            writeln!(out, "\n{report}").context("writing output")?;
        }
        Done::NotDue { turn, deadline } => writeln!(
            out,
            "Nothing would be played: turn {turn} is due {}.",
            shown(deadline)
        )
        .context("writing output")?,
        _ => writeln!(out, "Nothing would be played.").context("writing output")?,
    }
    Ok(())
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let target = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            if e.file_name() == ".git" {
                continue;
            }
            copy_dir(&e.path(), &target)?;
        } else if e.file_name() != crate::archive::LOCK_FILE {
            // Mail is sent outside the game's lock: a mail moved from outbox/ to sent/
            // while this copies is simply not in the copy.
            match std::fs::copy(e.path(), target) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                r => {
                    r?;
                }
            }
        }
    }
    Ok(())
}

/// `judge turn --all GAMES`: passes over a folder of games under one address, until the
/// shared mailbox holds no more unread mail than a pass reads (each pass holds at most
/// [`pbem::house::PASS_BYTES`] of it: a flood costs time, never memory, and a turn due
/// is played once the mail before its deadline is read). Every game
/// is reported; the first failure is the exit code, after all of them ran.
fn all(args: TurnArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let house = crate::archive::house::House::open(&args.dir)?;
    let opts = pbem::house::Options {
        turn: pbem::turn::Options {
            force: args.force,
            read_only_mail: false,
        },
        wait: args.wait.duration(),
        commit: args.commit,
        budget: pbem::house::PASS_BYTES,
    };
    let mut idle = pbem::house::Idle::new();
    let mut failed = None;
    loop {
        let done = pass(&house, opts, !args.no_send, &mut idle, out)?;
        if let Some(f) = done.failed {
            failed.get_or_insert(f);
        }
        if !done.more {
            break;
        }
    }
    match failed {
        Some(f) => Err(f),
        None => Ok(()),
    }
}

/// What a pass over a folder of games left to do.
pub struct PassDone {
    /// The first game that failed.
    pub failed: Option<Failure>,
    /// When a game next acts by the clock.
    pub wake: Option<std::time::SystemTime>,
    /// Mail still waiting in an outbox (the server was down).
    pub unsent: bool,
    /// Mail still waiting in the shared mailbox, more than a pass reads.
    pub more: bool,
}

/// One pass (`pbem::house`), what it did printed a line each (`game: …`), then each
/// game's mail and the mailroom's sent (`send`).
pub fn pass(
    house: &crate::archive::house::House,
    opts: pbem::house::Options,
    send: bool,
    idle: &mut pbem::house::Idle,
    out: &mut dyn Write,
) -> Result<PassDone, Failure> {
    let now = super::outbox::now()?;
    let pass = pbem::house::run_busy(house, crate::games::registry(), now, opts, idle)?;
    let mut done = PassDone {
        failed: None,
        wake: None,
        unsent: false,
        more: false,
    };
    // What the next pass may pass over: the games this one found with nothing to do
    // and no mail waiting to go out.
    let was_idle = std::mem::take(idle);
    for run in &pass.games {
        if run.idle {
            idle.insert(run.dir.clone(), was_idle.get(&run.dir).copied().flatten());
        }
    }
    for l in &pass.lines {
        writeln!(out, "mailroom: {l}").context("writing output")?;
    }
    if let Some(why) = &pass.down {
        writeln!(
            out,
            "mailroom: the shared mailbox could not be read ({why}): each game's other work is done and its mail sent, and every turn due waits, as orders sent on time may wait there"
        )
        .context("writing output")?;
        done.failed
            .get_or_insert(pbem::Error::MailboxDown(why.clone()).into());
    }
    if pass.more {
        writeln!(
            out,
            "mailroom: more mail waits than one pass reads; the next pass reads it"
        )
        .context("writing output")?;
        // Unless this pass marked none done (their games busy): the next would read
        // the same mail again, at once.
        done.more = pass.marked > 0;
    }
    for run in pass.games {
        for l in &run.lines {
            writeln!(out, "{}: {}", run.name, l.trim_end()).context("writing output")?;
        }
        if let Some(w) = run.wake {
            done.wake = Some(done.wake.map_or(w, |d| d.min(w)));
        }
        if run.idle {
            continue;
        }
        let resting = matches!(
            run.result,
            Ok(Done::NotDue { .. } | Done::NothingToPlay(_) | Done::Over | Done::Waiting(_))
        );
        match run.result {
            Ok(Done::Played(t)) => {
                writeln!(out, "{}: played turn {t}", run.name).context("writing output")?;
            }
            Ok(_) => {}
            Err(e) => {
                writeln!(out, "{}: not run: {e}", run.name).context("writing output")?;
                done.failed.get_or_insert(e.into());
                continue;
            }
        }
        if !send {
            continue;
        }
        let mut said = Vec::new();
        let mut waiting = true;
        let sent = pbem::open(crate::games::registry(), &run.dir)
            .map_err(Failure::from)
            .and_then(|(archive, _)| {
                let r = super::outbox::send_outbox(&archive, &mut said);
                waiting = !crate::mail::outbox::waiting(&archive).is_empty();
                r
            });
        done.unsent |= waiting;
        if resting && !waiting {
            idle.insert(run.dir.clone(), run.wake);
        }
        for l in String::from_utf8_lossy(&said).lines() {
            writeln!(out, "{}: {l}", run.name).context("writing output")?;
        }
        if let Err(e) = sent {
            writeln!(out, "{}: {e}", run.name).context("writing output")?;
            done.failed.get_or_insert(e);
        }
    }
    if send {
        let room = pbem::house::Mailroom::new(house);
        match crate::mail::outbox::send_all(&room) {
            Ok(report) => {
                for l in pbem::send::describe(&report) {
                    writeln!(out, "mailroom: {l}").context("writing output")?;
                }
                done.unsent |= !report.failed.is_empty() || report.stopped.is_some();
            }
            Err(e) => {
                writeln!(out, "mailroom: {e}").context("writing output")?;
                done.unsent = true;
            }
        }
    }
    Ok(done)
}

#[derive(Debug, clap::Args)]
pub struct TurnArgs {
    /// The game's folder (with --all: the folder of games).
    pub dir: PathBuf,
    /// Every game of the folder DIR, which shares one mailbox (DIR/judge.toml).
    #[arg(long, conflicts_with = "dry_run")]
    pub all: bool,
    /// Play the turn before its deadline, or with no orders waiting.
    #[arg(long)]
    pub force: bool,
    /// Queue the report mails but do not send them.
    #[arg(long)]
    pub no_send: bool,
    /// Commit the game folder to git after the turn.
    #[arg(long)]
    pub commit: bool,
    /// Do everything in a scratch copy and print the report; change and send nothing
    /// (the mailbox is opened read-only).
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub wait: Wait,
}
