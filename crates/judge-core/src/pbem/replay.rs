//! Replay: the whole archive re-made from its inputs and compared with what it holds,
//! byte for byte. Turn 0 is made again from the kept scenario, the players and the seed;
//! every later turn is played again from its kept orders, and its state, events, reports
//! and pictures made again (with the name and deadline its `turn.json` says the report
//! showed). A missing turn is reported as missing.

pub use super::compare::first_difference;
use super::error::Error;
use super::game::{Game, SeatRequest, Start};
use super::report;
use crate::archive::{Archive, EVENTS_FILE, PUBLIC_FILE, SCENARIO_FILE, STATE_FILE};

/// What replaying one turn found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnCheck {
    pub turn: u32,
    /// What differs; empty when the turn is identical.
    pub problems: Vec<String>,
}

/// Replay every turn of the archive.
pub fn run(archive: &Archive, game: &dyn Game) -> Result<Vec<TurnCheck>, Error> {
    run_with(archive, game, &mut |_| {})
}

/// Replay every turn of the archive, calling `tick` with each turn as it is checked
/// (for a progress bar).
pub fn run_with(
    archive: &Archive,
    game: &dyn Game,
    tick: &mut dyn FnMut(u32),
) -> Result<Vec<TurnCheck>, Error> {
    run_seeded(archive, game, &archive.seeds()?, tick)
}

/// Replay every turn with these seeds (`judge verify` replays with the revealed ones).
pub fn run_seeded(
    archive: &Archive,
    game: &dyn Game,
    seeds: &super::game::Seeds,
    tick: &mut dyn FnMut(u32),
) -> Result<Vec<TurnCheck>, Error> {
    let turns = archive.turns()?;
    let mut out = Vec::new();
    // Turn 0, from the scenario and the seed, with the players as turn 0 named them (a
    // GM may have corrected an address in game.toml since).
    let kept_zero = super::stage::position(archive, game, 0).ok();
    let seats: Vec<SeatRequest> = archive
        .game
        .players
        .iter()
        .map(|p| {
            let then = kept_zero
                .as_ref()
                .and_then(|z| z.seats().into_iter().find(|s| s.id == p.id));
            SeatRequest {
                name: then.as_ref().map_or(p.name.clone(), |s| s.name.clone()),
                email: then.map_or(p.email.clone(), |s| s.email),
            }
        })
        .collect();
    let scenario = std::fs::read_to_string(archive.root().join(SCENARIO_FILE)).map_err(|e| {
        Error::input(format!(
            "{}: {e}",
            archive.root().join(SCENARIO_FILE).display()
        ))
    })?;
    let zero = game
        .start(SCENARIO_FILE, &scenario, &archive.name(), &seats, seeds)
        .map_err(|e| Error::from(e.context("turn 0 cannot be made again")))?;
    let mut problems = Vec::new();
    // A game that began with a round by mail: the round again, step by step, gives turn 0.
    let zero_state = match &zero.start {
        Start::Ready(state) => Some(state.clone()),
        Start::Round(round) => {
            let (p, finished) = super::round::replay(archive, game, round)?;
            problems.extend(p);
            finished
        }
    };
    match (archive.read(0, STATE_FILE), zero_state) {
        (Ok(kept), Some(state)) => {
            problems.extend(first_difference(
                STATE_FILE,
                kept.as_bytes(),
                state.as_bytes(),
            ));
            let public = game.position(&state).map_err(Error::from)?.public_record();
            if let (Ok(kept), Some(public)) = (archive.read(0, PUBLIC_FILE), public) {
                problems.extend(first_difference(
                    PUBLIC_FILE,
                    kept.as_bytes(),
                    public.as_bytes(),
                ));
            }
        }
        (Err(_), None) => {}
        (Err(_), Some(_)) => problems.push("turn 0 is missing".to_string()),
        (Ok(_), None) => {
            problems.push("turn 0 is kept, but the set-up round does not end".to_string())
        }
    }
    out.push(TurnCheck { turn: 0, problems });
    tick(0);
    // Every turn is played from the state the archive keeps before it, so the turns are
    // independent: they are checked on every core at once, and reported in turn order.
    let last = turns.last().copied().unwrap_or(0);
    let todo: Vec<u32> = (1..=last).collect();
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .clamp(1, todo.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut checked: Vec<Option<Result<TurnCheck, Error>>> = todo.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let (done, finished) = std::sync::mpsc::channel();
        for _ in 0..workers {
            let done = done.clone();
            let (next, todo, turns, luck) = (&next, &todo, &turns, &seeds.luck);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&turn) = todo.get(i) else { break };
                    if done
                        .send((i, check_turn(archive, game, turns, turn, luck)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(done);
        for (i, result) in finished {
            tick(todo[i]);
            checked[i] = Some(result);
        }
    });
    for result in checked.into_iter().flatten() {
        out.push(result?);
    }
    Ok(out)
}

/// One turn played again from the state kept before it, and compared with the archive.
fn check_turn(
    archive: &Archive,
    game: &dyn Game,
    turns: &[u32],
    turn: u32,
    luck: &crate::luck::Luck,
) -> Result<TurnCheck, Error> {
    let unit = game.pace().unit();
    if !turns.contains(&turn) {
        return Ok(TurnCheck {
            turn,
            problems: vec![format!("{unit} {turn} is missing from the archive")],
        });
    }
    if !turns.contains(&(turn - 1)) {
        return Ok(TurnCheck {
            turn,
            problems: vec![format!(
                "{unit} {turn} cannot be replayed: {unit} {} is missing",
                turn - 1
            )],
        });
    }
    let played = report::play_again(archive, game, turn, luck)?;
    let mut problems = Vec::new();
    let kept = archive.read(turn, STATE_FILE)?;
    problems.extend(first_difference(
        STATE_FILE,
        kept.as_bytes(),
        played.state.as_bytes(),
    ));
    // An archive may leave a turn's events out (the showcase games do): they are made
    // again from the state before and the orders, so there is nothing to compare.
    if archive.turn_dir(turn).join(EVENTS_FILE).exists() {
        let kept = archive.read(turn, EVENTS_FILE)?;
        problems.extend(first_difference(
            EVENTS_FILE,
            kept.as_bytes(),
            played.events.as_bytes(),
        ));
    }
    // The files a turn keeps are made again and checked byte for byte, and so is what
    // an older archive kept beside them (each player's report, the pictures).
    let r = report::of_turn(archive, game, turn)?;
    let after = game.position(&played.state).map_err(Error::from)?;
    let reveal = match after.over() {
        Some(_) => archive.secret()?,
        None => None,
    };
    let dir = archive.turn_dir(turn);
    for (name, bytes) in report::files(archive, r.as_ref(), after.as_ref(), reveal.as_ref())? {
        if let Ok(kept) = std::fs::read(dir.join(&name)) {
            problems.extend(first_difference(&name, &kept, &bytes));
        }
    }
    for name in report::made_again_names(after.as_ref()) {
        if let Ok(kept) = std::fs::read(dir.join(&name))
            && let Some(bytes) =
                report::made_again(archive, r.as_ref(), after.as_ref(), reveal.as_ref(), &name)?
        {
            problems.extend(first_difference(&name, &kept, &bytes));
        }
    }
    Ok(TurnCheck { turn, problems })
}
