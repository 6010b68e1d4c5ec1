//! `judge serve GAMES`: the judge as a long-running process for a folder of games under
//! one address (docs/gm-guide.md, "Many games, one address"). It runs a pass over the
//! games (`judge turn --all`) whenever mail comes — woken by the kernel for a Maildir,
//! by IMAP IDLE for an INBOX (`mail::watch`) — and when a game's reminder or deadline
//! falls due by the clock, and at least every `--poll` seconds. A game's clock moved by
//! another command (`judge deadline`, `pause`, `resume`, an edit of game.toml) wakes it
//! too: that game's deadline is read again at once. SIGTERM or SIGINT lets
//! the pass in hand finish (each mail in it is filed and answered, or left for the next
//! run whole), then exits 0.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context as _;

use super::{Failure, Wait};
use crate::archive::house::House;
use crate::mail::watch::{self, Wake};
use crate::pbem;

/// Mail left in an outbox (its server was down) is tried again this soon.
const RETRY: Duration = Duration::from_secs(30);
/// Mail delivered together wakes one pass: the wake-ups of this long after the first
/// are taken with it.
const GATHER: Duration = Duration::from_millis(50);

pub fn run(args: ServeArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let house = House::open(&args.dir)?;
    let (tx, rx) = mpsc::channel::<Wake>();
    let stop = Arc::new(AtomicBool::new(false));

    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
    ])
    .context("listening for SIGTERM")?;
    {
        let tx = tx.clone();
        let stop = stop.clone();
        std::thread::spawn(move || {
            if signals.forever().next().is_some() {
                stop.store(true, Ordering::Relaxed);
                // A wait on a silent IMAP server ends within a second.
                crate::mail::imap::stop_waiting();
                let _ = tx.send(Wake::Stop);
            }
        });
    }
    let settings = &house.file.mail;
    let _maildir = match &settings.maildir {
        Some(dir) => Some(watch::maildir(dir, tx.clone()).map_err(anyhow::Error::from)?),
        None => None,
    };
    let _mbox = match &settings.mbox {
        Some(path) => Some(watch::mbox(path, tx.clone()).map_err(anyhow::Error::from)?),
        None => None,
    };
    if settings.imap_host.is_some() {
        let src = pbem::sources::imap(settings, None, None, None, None)?;
        watch::imap(src, tx.clone(), stop.clone());
    }
    // A game's clock moved by another command wakes a pass that reads every game's
    // clock again.
    let mut clocks = watch::Clocks::new(tx.clone()).map_err(anyhow::Error::from)?;
    let poll = Duration::from_secs(args.poll.max(1));
    let opts = pbem::house::Options {
        turn: pbem::turn::Options {
            force: false,
            read_only_mail: false,
        },
        wait: args.wait.duration(),
        commit: args.commit,
        budget: pbem::house::PASS_BYTES,
    };
    let mut boxes: Vec<String> = Vec::new();
    if let Some(d) = &settings.maildir {
        boxes.push(format!("the Maildir {}", d.display()));
    }
    if let Some(p) = &settings.mbox {
        boxes.push(format!("the mbox {}", p.display()));
    }
    if let Some(h) = &settings.imap_host {
        boxes.push(format!("the IMAP INBOX at {h}"));
    }
    let watching = if boxes.is_empty() {
        "no mailbox ([mail] in judge.toml names none)".to_string()
    } else {
        boxes.join(" and ")
    };
    say(
        out,
        &format!(
            "serving {} for {}: waiting on {watching}",
            house.root().display(),
            settings.from
        ),
    )?;
    let mut said: BTreeSet<String> = BTreeSet::new();
    // Games with nothing to do until their time: a pass woken by mail passes them over
    // unless the mail is theirs. Every --poll seconds a pass visits them all.
    let mut idle = pbem::house::Idle::new();
    let mut full_pass_at = Instant::now();
    let mut clock_moved = false;
    loop {
        let mut lines = Vec::new();
        if Instant::now() >= full_pass_at {
            idle.clear();
            full_pass_at = Instant::now() + poll;
        }
        if std::mem::take(&mut clock_moved) {
            idle.clear();
        }
        // Watched before the pass: a clock moved while it runs wakes the next.
        match house.games() {
            Ok(games) => {
                for l in clocks.follow(&games) {
                    lines.extend(format!("{l}\n").into_bytes());
                }
            }
            Err(e) => {
                lines.extend(format!("the games' clocks are not watched: {e}\n").into_bytes())
            }
        }
        let next = match super::turn::pass(&house, opts, true, &mut idle, &mut lines) {
            Ok(done) => {
                let mut next = Instant::now() + poll;
                if let Some(at) = done.wake {
                    let left = at
                        .duration_since(SystemTime::now())
                        .unwrap_or(Duration::ZERO);
                    // A second after the deadline, so that it has passed.
                    next = next.min(Instant::now() + left + Duration::from_secs(1));
                }
                if done.unsent {
                    next = next.min(Instant::now() + RETRY);
                }
                if done.more {
                    next = Instant::now();
                }
                next
            }
            Err(e) => {
                // The mailroom busy, the mailbox down: said, and tried again soon.
                lines.extend(format!("the pass stopped: {e}\n").into_bytes());
                Instant::now() + RETRY.min(poll)
            }
        };
        // What a pass says again unchanged (orders still waiting for a correction) is
        // said once, not at every wake-up.
        let text = String::from_utf8_lossy(&lines).into_owned();
        let now_said: BTreeSet<String> = text.lines().map(str::to_string).collect();
        for l in text.lines() {
            if !said.contains(l) {
                say(out, l)?;
            }
        }
        said = now_said;
        if stop.load(Ordering::Relaxed) {
            break;
        }
        match rx.recv_timeout(next.saturating_duration_since(Instant::now())) {
            Ok(Wake::Stop) => break,
            Ok(w @ (Wake::Mail | Wake::Clock)) => {
                clock_moved |= w == Wake::Clock;
                // Take the rest of a burst with it.
                std::thread::sleep(GATHER);
                while let Ok(w) = rx.try_recv() {
                    match w {
                        Wake::Stop => stop.store(true, Ordering::Relaxed),
                        Wake::Clock => clock_moved = true,
                        Wake::Mail => {}
                    }
                }
                if stop.load(Ordering::Relaxed) {
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    say(
        out,
        "stopped: the pass in hand was finished; nothing is left half done",
    )?;
    Ok(())
}

/// A line of the server's log, with the time.
fn say(out: &mut dyn Write, line: &str) -> Result<(), Failure> {
    let now = humantime::format_rfc3339_seconds(SystemTime::now());
    writeln!(out, "{now} {line}").context("writing output")?;
    out.flush().context("writing output")?;
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The folder of games (it holds judge.toml).
    pub dir: PathBuf,
    /// Commit each game that changed to git, as `judge turn --commit` does.
    #[arg(long)]
    pub commit: bool,
    /// Run a pass at least this often (seconds), mail or not.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    pub poll: u64,
    #[command(flatten)]
    pub wait: Wait,
}
