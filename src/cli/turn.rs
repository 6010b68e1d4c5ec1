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
    let archive = Archive::open(&args.dir)?;
    let GameKind::RoadsAndBoats = archive.game.game;
    let last = archive.pick_turn(None)?;
    let state = load_state(&archive, last)?;
    if let Some(why) = &state.game_over {
        return Err(Failure::User(format!(
            "the game is over ({why}); there is no next turn"
        )));
    }
    let next = last + 1;
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
    let game = archive
        .root()
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("game")
        .to_string();
    let report = crate::roads_boats::report::build(
        &game,
        &state,
        &played.resolution.events,
        &played.resolution.state,
        &sent,
        None,
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
    if let Some(t) = header.turn
        && t != turn
    {
        return Err(format!(
            "the orders are for turn {t}, and turn {turn} is next"
        ));
    }
    Ok(OrderFile {
        player,
        text: text.to_string(),
    })
}
