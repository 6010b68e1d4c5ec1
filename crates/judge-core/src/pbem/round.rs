//! A round by mail before turn 1 (choosing where to start; docs/gm-guide.md): players act one at
//! a time, in the game's order. Each player's choice is mailed, checked and answered
//! like orders; the choice of the player whose turn it is is taken as soon as it is in,
//! or, when they miss the deadline, the game's default is. When the last player has
//! chosen, the round becomes turn 0 and the game begins.
//!
//! ```text
//! setup/000/round.json   the round as `judge new` made it, and step.json (when)
//! setup/001/choice.txt   each step taken: the mail's text (secret blanked; none for a
//! setup/001/round.json   default), the round after it, what happened (step.json) and
//! setup/001/report.txt   the report everyone got
//! turns/000/...          written by the last step
//! ```

use std::time::SystemTime;

pub use super::due::round_deadline as deadline;
use super::error::Error;
use super::game::{Game, Round, RoundStep};
pub use super::layout::{CHOICE_FILE, ROUND_FILE, SETUP_DIR, STEP_FILE};
use super::record::Done;
use super::record::step_dir;
pub use super::record::{StepRecord, step_record as record, steps};
pub use super::stage::{
    RoundPosition, Standing, round_standing as current, round_text as current_text,
};
use crate::archive::schedule::shown;
use crate::archive::{Archive, STATE_FILE, TURN_FILE, atomic, stable_json};
use crate::mail::outbox::{self, Outgoing};
use crate::text::decode;

/// The files of the round as `judge new` makes it.
pub fn start_files(round: &str, now: SystemTime) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let rec = StepRecord {
        at: crate::archive::schedule::stamp(now),
        ..StepRecord::default()
    };
    Ok(vec![
        (
            format!("{SETUP_DIR}/000/{ROUND_FILE}"),
            round.as_bytes().to_vec(),
        ),
        (
            format!("{SETUP_DIR}/000/{STEP_FILE}"),
            stable_json(&rec)
                .map_err(|e| Error::input(e.to_string()))?
                .into_bytes(),
        ),
    ])
}

/// The report of a step: what happened, and the round as it stands.
fn step_report(name: &str, summary: &str, round: &dyn Round, due: Option<SystemTime>) -> String {
    let mut out = format!(
        "{}\n {name}  --  the set-up round\n{}\n\n {summary}\n\n{}",
        "=".repeat(78),
        "=".repeat(78),
        round.show()
    );
    if let (Some(next), Some(d)) = (round.next(), due) {
        out.push_str(&format!("\n{next}'s choice is due by {}.\n", shown(d)));
    }
    out
}

/// Tell every player what a step did (and the next one that it is their turn).
fn queue_step_mail(
    archive: &Archive,
    step: u32,
    summary: &str,
    report: &str,
    round: &dyn Round,
) -> Result<Vec<String>, Error> {
    let mut problems = Vec::new();
    if archive.mail().is_none() {
        return Ok(problems);
    }
    let next = round.next();
    let guide = round.guide();
    let name = archive.name();
    for p in &archive.game.players {
        let yours = next.as_deref() == Some(p.id.as_str());
        let mail = Outgoing {
            key: format!("setup-{step:03}-{}", p.id),
            to_name: p.name.clone(),
            to: p.email.clone(),
            subject: if yours {
                format!("[{name}] set-up: your choice next")
            } else {
                format!("[{name}] set-up: {summary}")
            },
            body: if yours {
                format!(
                    "{report}\nIt is your turn: {}. Like this, with your secret:\n\n    game {name}\n    player {}\n    secret YOUR-SECRET\n    {}\n",
                    guide.how, p.id, guide.example
                )
            } else {
                report.to_string()
            },
            in_reply_to: None,
            attachment: None,
        };
        if let Err(e) = outbox::queue(archive, &mail) {
            problems.push(format!("{} was not told of the set-up step: {e}", p.id));
        }
    }
    Ok(problems)
}

/// Write a step taken into the archive, and, when it ends the round, turn 0.
/// One step taken: whose, with what mail (none for a default), and what it did.
struct Taken<'a> {
    step: u32,
    player: &'a str,
    choice: Option<&'a str>,
    result: &'a RoundStep,
}

fn write_step(
    archive: &Archive,
    game: &dyn Game,
    t: &Taken<'_>,
    now: SystemTime,
    lines: &mut Vec<String>,
) -> Result<(), Error> {
    let Taken {
        step,
        player,
        choice,
        result: taken,
    } = *t;
    let name = archive.name();
    let round = game.round(&taken.round).map_err(Error::from)?;
    let due = archive
        .game
        .schedule
        .as_ref()
        .map(|s| s.every())
        .and_then(|e| now.checked_add(e));
    let report = step_report(&name, &taken.summary, round.as_ref(), due);
    let rec = StepRecord {
        player: Some(player.to_string()),
        by_default: choice.is_none(),
        summary: taken.summary.clone(),
        at: crate::archive::schedule::stamp(now),
    };
    let mut files: Vec<(String, Vec<u8>)> = vec![
        (ROUND_FILE.to_string(), taken.round.clone().into_bytes()),
        (
            STEP_FILE.to_string(),
            stable_json(&rec)
                .map_err(|e| Error::input(e.to_string()))?
                .into_bytes(),
        ),
        ("report.txt".to_string(), report.clone().into_bytes()),
    ];
    if let Some(c) = choice {
        files.push((CHOICE_FILE.to_string(), c.as_bytes().to_vec()));
    }
    let refs: Vec<(String, Vec<u8>)> = files;
    atomic::create_dir(&step_dir(archive, step), &refs)?;
    lines.push(format!("set-up step {step}: {}", taken.summary));
    lines.extend(queue_step_mail(
        archive,
        step,
        &taken.summary,
        &report,
        round.as_ref(),
    )?);
    if let Some(state) = &taken.finished {
        write_turn_zero(archive, game, state)?;
        lines.push("The set-up round is over: turn 0 is written and turn 1 is next.".into());
    }
    Ok(())
}

/// Turn 0, from the round's last step: the state, its reports and pictures.
pub fn turn_zero_files(
    archive: &Archive,
    game: &dyn Game,
    state: &str,
) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let name = archive.name();
    let rec = super::record::TurnRecord {
        game: name.clone(),
        deadline: super::report::deadline(archive, game, 1),
        played_at: None,
        orders: Default::default(),
        acted: None,
        ended: None,
        missed: Vec::new(),
        renamed: Default::default(),
    };
    let mut files = vec![
        (STATE_FILE.to_string(), state.as_bytes().to_vec()),
        (
            TURN_FILE.to_string(),
            stable_json(&rec)
                .map_err(|e| Error::input(e.to_string()))?
                .into_bytes(),
        ),
    ];
    files.extend(super::report::files_for(
        archive,
        game,
        &super::report::Made {
            turn: 0,
            before: state,
            events: "[]",
            after: state,
            orders: &[],
            record: &rec,
        },
    )?);
    Ok(files)
}

fn write_turn_zero(archive: &Archive, game: &dyn Game, state: &str) -> Result<(), Error> {
    let files = turn_zero_files(archive, game, state)?;
    let refs: Vec<(&str, Vec<u8>)> = files.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    archive.write_turn(0, &refs)?;
    Ok(())
}

/// Run the round: take the choice of the player whose turn it is if it has come (or the
/// default once the deadline has passed), and go on while the next is in too.
pub fn run(
    archive: &Archive,
    game: &dyn Game,
    now: SystemTime,
    force: bool,
    lines: &mut Vec<String>,
) -> Result<Done, Error> {
    loop {
        let Some((last, round)) = current(archive, game)? else {
            return Ok(Done::Played(0));
        };
        let Some(next) = round.next() else {
            return Ok(Done::Played(0));
        };
        let pending = archive.pending_dir().join(format!("{next}.txt"));
        let due = deadline(archive, last)?;
        let (choice, taken) = if let Ok(bytes) = std::fs::read(&pending) {
            let text = decode(&bytes).0;
            let step = round.step(&next, Some(&text)).map_err(Error::from)?;
            if !step.taken {
                answer_refusal(archive, last, &next, &text, &step)?;
                std::fs::remove_file(&pending).map_err(|source| {
                    Error::Archive(crate::archive::ArchiveError::Io {
                        path: pending.clone(),
                        source,
                    })
                })?;
                lines.push(format!("{next}'s choice was refused: {}", step.summary));
                continue;
            }
            (Some(text), step)
        } else if force || due.is_some_and(|d| now >= d) {
            let step = round.step(&next, None).map_err(Error::from)?;
            if !step.taken {
                lines.push(step.summary);
                return Ok(Done::NothingToPlay(0));
            }
            (None, step)
        } else {
            return Ok(match due {
                Some(deadline) => Done::NotDue { turn: 0, deadline },
                None => Done::NothingToPlay(0),
            });
        };
        write_step(
            archive,
            game,
            &Taken {
                step: last + 1,
                player: &next,
                choice: choice.as_deref(),
                result: &taken,
            },
            now,
            lines,
        )?;
        let _ = std::fs::remove_file(&pending);
    }
}

fn answer_refusal(
    archive: &Archive,
    last: u32,
    seat: &str,
    text: &str,
    step: &RoundStep,
) -> Result<(), Error> {
    let Some(p) = archive.game.players.iter().find(|p| p.id == seat) else {
        return Ok(());
    };
    if archive.mail().is_none() {
        return Ok(());
    }
    let d = crate::diagnostic::Diagnostics {
        file: "your choice".into(),
        source: text.to_string(),
        items: step.diagnostics.clone(),
    };
    let name = archive.name();
    outbox::queue_unless_unaddressable(
        archive,
        &Outgoing {
            key: format!(
                "setup-refused-{last:03}-{seat}-{}",
                crate::archive::content_id(text.as_bytes())
            ),
            to_name: p.name.clone(),
            to: p.email.clone(),
            subject: format!("[{name}] set-up: your choice is refused"),
            body: format!(
                "{}\n\n{}\nSend your choice again.\n",
                step.summary,
                d.render()
            ),
            in_reply_to: None,
            attachment: None,
        },
    )?;
    Ok(())
}

/// Replay the round: made again from the scenario and the seed, each step taken again
/// from its kept choice (or the default), and compared with what the archive keeps.
/// Returns the problems, and turn 0 as the round makes it.
pub fn replay(
    archive: &Archive,
    game: &dyn Game,
    start: &str,
) -> Result<(Vec<String>, Option<String>), Error> {
    let mut problems = Vec::new();
    let steps = steps(archive);
    let read =
        |step: u32, file: &str| std::fs::read_to_string(step_dir(archive, step).join(file)).ok();
    if let Some(kept) = read(0, ROUND_FILE) {
        problems.extend(super::compare::first_difference(
            &format!("setup/000/{ROUND_FILE}"),
            kept.as_bytes(),
            start.as_bytes(),
        ));
    }
    let mut round = start.to_string();
    let mut finished = None;
    for step in steps.into_iter().filter(|s| *s > 0) {
        let Some(rec) = record(archive, step) else {
            problems.push(format!("setup/{step:03} has no {STEP_FILE}"));
            break;
        };
        let player = rec.player.unwrap_or_default();
        let r = game.round(&round).map_err(Error::from)?;
        let choice = read(step, CHOICE_FILE);
        let taken = r.step(&player, choice.as_deref()).map_err(Error::from)?;
        if let Some(kept) = read(step, ROUND_FILE) {
            problems.extend(super::compare::first_difference(
                &format!("setup/{step:03}/{ROUND_FILE}"),
                kept.as_bytes(),
                taken.round.as_bytes(),
            ));
        }
        round = taken.round;
        finished = taken.finished;
    }
    Ok((problems, finished))
}
