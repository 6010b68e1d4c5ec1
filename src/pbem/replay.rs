//! Replay: every turn re-played from its archived orders and compared with what the
//! archive holds, byte for byte: state, events, report and pictures.

use super::Error;
use super::game::Game;
use super::report;
use crate::archive::{Archive, EVENTS_FILE, STATE_FILE};

/// What replaying one turn found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnCheck {
    pub turn: u32,
    /// What differs; empty when the turn is identical.
    pub problems: Vec<String>,
}

/// Replay every turn of the archive.
pub fn run(archive: &Archive, game: &dyn Game) -> Result<Vec<TurnCheck>, Error> {
    let turns = archive.turns()?;
    let mut out = Vec::new();
    for pair in turns.windows(2) {
        let (before, turn) = (pair[0], pair[1]);
        let state = super::position(archive, game, before)?;
        let files = report::orders_of(archive, turn)?;
        let played = state
            .play(&files)
            .map_err(|e| Error::User(format!("turn {turn}: {e}")))?;
        let mut problems = Vec::new();
        for (name, now) in [(STATE_FILE, &played.state), (EVENTS_FILE, &played.events)] {
            let kept = archive.read(turn, name)?;
            if &kept != now {
                let line = kept
                    .lines()
                    .zip(now.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0)
                    + 1;
                problems.push(format!("{name} differs from line {line}"));
            }
        }
        // The report and pictures kept with the turn, where the archive has them.
        let r = report::of_turn(archive, game, turn)?;
        for (name, bytes) in report::files(archive, r.as_ref())? {
            let path = archive.turn_dir(turn).join(&name);
            if let Ok(kept) = std::fs::read(&path)
                && kept != bytes
            {
                problems.push(format!("{name} differs"));
            }
        }
        out.push(TurnCheck { turn, problems });
    }
    Ok(out)
}
