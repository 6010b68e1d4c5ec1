//! `judge turn`: resolve the next turn from the orders waiting in the game's `pending/`
//! folder, and write it into the archive whole.

use std::io::Write;

use anyhow::Context as _;

use super::{Failure, TurnArgs};
use crate::archive::{Archive, EVENTS_FILE, GameKind, ORDERS_DIR, STATE_FILE, stable_json};
use crate::diagnostic::Diagnostics;
use crate::roads_boats::State;
use crate::roads_boats::order_text;
use crate::roads_boats::play::{OrderFile, play};
use crate::roads_boats::player::Colour;

pub fn run(args: TurnArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if args.dry_run {
        return dry_run(args, out);
    }
    let archive = Archive::open(&args.dir)?;
    let GameKind::RoadsAndBoats = archive.game.game;
    let now = super::mail::now()?;
    // Finish what an interrupted run left: the last turn's reports go out first.
    let last = archive.pick_turn(None)?;
    if last > 0 && super::mail::queue_reports(&archive, last)? > 0 && !args.no_send {
        super::mail::send(&archive, out)?;
    }
    if let Some(dir) = archive.game.mail.as_ref().and_then(|m| m.maildir.clone()) {
        let mails = super::mail::maildir_mails(&dir)?;
        super::mail::ingest_all(&archive, mails, now, out)?;
    }
    if let Some(s) = archive.game.mail.clone().filter(|m| m.imap_host.is_some()) {
        let src = super::mail::imap_source(&s, None, None, None, None)?;
        super::mail::ingest_imap(&archive, &src, now, out)?;
    }
    let state = load_state(&archive, last)?;
    if let Some(why) = &state.game_over {
        return Err(Failure::User(format!(
            "the game is over ({why}); there is no next turn"
        )));
    }
    let next = last + 1;
    if let Some(s) = &archive.game.schedule {
        let deadline = s.deadline(next).map_err(Failure::User)?;
        if now < deadline && !args.force {
            return Err(Failure::User(format!(
                "turn {next} is not due until {} (its deadline); --force plays it now",
                humantime::format_rfc3339_seconds(deadline)
            )));
        }
    }
    let pending = archive.files_in(&archive.pending_dir())?;
    let mut files = Vec::new();
    let mut used = Vec::new();
    for (name, text) in &pending {
        match order_file(name, text, &state, next) {
            Ok(f) => {
                files.push(f);
                used.push(name.clone());
            }
            Err(why) => writeln!(out, "skipped pending/{name}: {why}").context("writing output")?,
        }
    }
    // Without a schedule, a turn with no usable orders is not played by accident (a
    // second run, or one after a crash, finds only the last turn's orders).
    if files.is_empty() && archive.game.schedule.is_none() && !args.force {
        return Err(Failure::User(format!(
            "no orders are waiting for turn {next}: nothing to play (--force plays it with no orders)"
        )));
    }
    let played = play(&state, &files);
    for (player, problems) in &played.problems {
        let file = format!("pending/{player}.txt");
        let text = files
            .iter()
            .find(|f| f.player == *player)
            .map_or(String::new(), |f| f.text.clone());
        let d = Diagnostics {
            file,
            source: text,
            items: problems.clone(),
        };
        writeln!(out, "{}", d.render()).context("writing output")?;
    }
    let mut turn_files: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| {
            (
                format!("{ORDERS_DIR}/{}.txt", f.player),
                f.text.clone().into_bytes(),
            )
        })
        .collect();
    turn_files.push((
        STATE_FILE.to_string(),
        stable_json(&played.resolution.state)
            .context("state")?
            .into_bytes(),
    ));
    turn_files.push((
        EVENTS_FILE.to_string(),
        stable_json(&played.resolution.events)
            .context("events")?
            .into_bytes(),
    ));
    let sent: Vec<Colour> = files.iter().map(|f| f.player).collect();
    let game = archive.name();
    let report = crate::roads_boats::report::build(
        &game,
        &state,
        &played.resolution.events,
        &played.resolution.state,
        &sent,
        super::report::deadline(&archive, next + 1),
    );
    turn_files.extend(super::report::files(
        &archive,
        &report,
        &played.resolution.state,
    )?);
    let refs: Vec<(&str, Vec<u8>)> = turn_files
        .iter()
        .map(|(n, b)| (n.as_str(), b.clone()))
        .collect();
    archive.write_turn(next, &refs)?;
    for name in used {
        let _ = std::fs::remove_file(archive.pending_dir().join(name));
    }
    // Orders held because they came late are the next turn's.
    for (name, text) in archive.files_in(&archive.root().join(crate::mail::intake::HELD))? {
        crate::archive::atomic::write_file(&archive.pending_dir().join(&name), text.as_bytes())?;
        let _ = std::fs::remove_file(archive.root().join(crate::mail::intake::HELD).join(name));
    }
    let failures = played
        .resolution
        .events
        .iter()
        .filter(|e| e.is_failure())
        .count();
    let silent: Vec<&str> = state
        .move_order
        .iter()
        .filter(|c| !files.iter().any(|f| f.player == **c))
        .map(|c| c.name())
        .collect();
    writeln!(
        out,
        "Turn {next} resolved: {} events, {failures} orders failed or partly done.{}",
        played.resolution.events.len(),
        if silent.is_empty() {
            String::new()
        } else {
            format!(" No orders from {}.", silent.join(", "))
        }
    )
    .context("writing output")?;
    if let Some(why) = &played.resolution.state.game_over {
        writeln!(out, "The game is over: {why}").context("writing output")?;
    }
    if super::mail::queue_reports(&archive, next)? > 0 && !args.no_send {
        super::mail::send(&archive, out)?;
    }
    if args.commit {
        commit(&archive, next, out)?;
    }
    Ok(())
}

/// Commit the game folder to git (it is in a git work tree).
fn commit(archive: &Archive, turn: u32, out: &mut dyn Write) -> Result<(), Failure> {
    let dir = archive.root();
    let name = archive.name();
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .map_err(|e| Failure::User(format!("git: {e}")))
    };
    let add = git(&["add", "-A", "."])?;
    if !add.status.success() {
        return Err(Failure::User(format!(
            "git add: {}",
            String::from_utf8_lossy(&add.stderr).trim()
        )));
    }
    let c = git(&[
        "commit",
        "-q",
        "-m",
        &format!("{name}: turn {turn}"),
        "--",
        ".",
    ])?;
    if !c.status.success() {
        return Err(Failure::User(format!(
            "git commit: {}",
            String::from_utf8_lossy(&c.stderr).trim()
        )));
    }
    writeln!(out, "Committed {name}: turn {turn}.").context("writing output")?;
    Ok(())
}

/// Everything `judge turn` would do, in a scratch copy of the game; nothing is sent.
fn dry_run(args: TurnArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let scratch = tempfile::tempdir().map_err(|e| Failure::Other(e.into()))?;
    let copy = scratch
        .path()
        .join(args.dir.file_name().unwrap_or_default());
    copy_dir(&args.dir, &copy)
        .map_err(|e| Failure::User(format!("copying {}: {e}", args.dir.display())))?;
    writeln!(
        out,
        "Dry run in a scratch copy; the game is not changed and no mail is sent."
    )
    .context("writing output")?;
    let inner = TurnArgs {
        dir: copy.clone(),
        dry_run: false,
        no_send: true,
        commit: false,
        force: args.force,
    };
    run(inner, out)?;
    let archive = Archive::open(&copy)?;
    let last = archive.pick_turn(None)?;
    let report = archive.read(last, "report.txt").unwrap_or_default();
    writeln!(out, "\n{report}").context("writing output")?;
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
        } else {
            std::fs::copy(e.path(), target)?;
        }
    }
    Ok(())
}

pub(super) fn load_state(archive: &Archive, turn: u32) -> Result<State, Failure> {
    let text = archive.read(turn, STATE_FILE)?;
    serde_json::from_str(&text).map_err(|e| {
        Failure::User(format!(
            "{}: the state does not read as a Roads & Boats game: {e}",
            archive.turn_dir(turn).join(STATE_FILE).display()
        ))
    })
}

/// Whose orders a pending file holds (its name, `red.txt`, or its `player` line), and
/// whether they are for this turn.
fn order_file(name: &str, text: &str, state: &State, turn: u32) -> Result<OrderFile, String> {
    let header = order_text::parse(text, &state.map).header;
    let stem = name.strip_suffix(".txt").unwrap_or(name);
    let player = match (header.player, stem.parse::<Colour>()) {
        (Some(h), Ok(f)) if h != f => {
            return Err(format!("the file is named for {f} but says `player {h}`"));
        }
        (Some(p), _) | (None, Ok(p)) => p,
        (None, Err(_)) => {
            return Err("name the file after the player's colour, or give a `player` line".into());
        }
    };
    if !state.players.contains_key(&player) {
        return Err(format!("{player} does not play in this game"));
    }
    let late_or_early = header
        .mismatches(None, None, turn)
        .into_iter()
        .find_map(|m| match m {
            order_text::HeaderMismatch::EarlierTurn(t)
            | order_text::HeaderMismatch::LaterTurn(t) => Some(t),
            _ => None,
        });
    if let Some(t) = late_or_early {
        return Err(format!(
            "the orders are for turn {t}, and turn {turn} is next"
        ));
    }
    Ok(OrderFile {
        player,
        text: text.to_string(),
    })
}
