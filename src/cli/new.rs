//! `judge new`: create a game archive at turn 0.

use std::io::Write;

use anyhow::Context as _;

use super::{Failure, NewArgs};
use crate::archive::{Archive, GameFile, PlayerEntry, STATE_FILE};
use crate::pbem::game::SeatRequest as Seat;

pub fn run(args: NewArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let game = crate::games::default();
    let seats = args
        .players
        .iter()
        .map(|p| parse_seat(p))
        .collect::<Result<Vec<_>, _>>()?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let (file, text) = match &args.scenario {
        Some(name) => game.scenario_text(name).map_err(Failure::User)?,
        None => random_map(&args, seats.len(), seed)?,
    };
    let created = game
        .start(&file, &text, &seats, seed)
        .map_err(Failure::User)?;
    let file = GameFile {
        game: game.id().to_string(),
        name: Some(crate::archive::folder_name(&args.dir)),
        scenario: created.scenario.clone(),
        seed,
        players: created
            .seats
            .iter()
            .zip(&seats)
            .map(|(seat, s)| PlayerEntry {
                id: seat.id.clone(),
                name: s.name.clone(),
                email: s.email.clone(),
                secret_hash: None,
            })
            .collect(),
        mail: None,
        schedule: None,
    };
    Archive::create(
        &args.dir,
        file,
        &created.scenario_text,
        &[(STATE_FILE, created.state.clone().into_bytes())],
    )?;
    let position = game
        .position(&created.state)
        .map_err(|e| Failure::Other(anyhow::anyhow!(e)))?;
    let order: Vec<String> = position
        .seats()
        .iter()
        .map(|s| format!("{} ({})", s.id, s.name))
        .collect();
    writeln!(
        out,
        "Created {} from scenario `{}` with seed {seed}.\nMove order: {}.\nNext: judge show {}; to play by mail, judge secret (docs/gm-guide.md)",
        args.dir.display(),
        created.scenario,
        order.join(", "),
        args.dir.display()
    )
    .context("writing output")?;
    Ok(())
}

/// `--map random`: the Roads & Boats map generator's scenario, as (file name, text).
fn random_map(args: &NewArgs, seats: usize, seed: u64) -> Result<(String, String), Failure> {
    use crate::roads_boats::state::Module;
    let players = args.player_count.unwrap_or(seats);
    if players != seats {
        return Err(Failure::User(format!(
            "--players {players} but {seats} --player seat{} given: give one --player per seat",
            if seats == 1 { "" } else { "s" }
        )));
    }
    let mut modules = Vec::new();
    for name in &args.modules {
        let m = Module::ALL
            .into_iter()
            .find(|m| m.name() == name.trim())
            .ok_or_else(|| {
                let all: Vec<&str> = Module::ALL.iter().map(|m| m.name()).collect();
                Failure::User(format!(
                    "--modules: `{name}` is not a module\nhelp: the modules are {}",
                    all.join(", ")
                ))
            })?;
        modules.push(m);
    }
    let text = crate::roads_boats::scenario::generate(players, &modules, seed)
        .map_err(|e| Failure::User(e.to_string()))?;
    Ok((format!("random map (seed {seed})"), text))
}

/// `NAME:EMAIL` → a seat. Names and addresses go into mail headers later, so control
/// characters are refused here.
fn parse_seat(text: &str) -> Result<Seat, Failure> {
    let bad = |why: &str| {
        Failure::User(format!(
            "--player `{text}`: {why}\nhelp: write NAME:EMAIL, like --player 'Ann Smith:ann@example.org'"
        ))
    };
    let (name, email) = text
        .rsplit_once(':')
        .ok_or_else(|| bad("no `:` between name and address"))?;
    let (name, email) = (name.trim(), email.trim());
    if name.is_empty() {
        return Err(bad("the name is empty"));
    }
    if name.chars().any(char::is_control) || email.chars().any(char::is_control) {
        return Err(bad("control characters are not allowed"));
    }
    let valid_email = email.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty() && domain.contains('.') && !domain.starts_with('.')
    }) && !email
        .chars()
        .any(|c| c.is_whitespace() || "<>,;\"".contains(c));
    if !valid_email {
        return Err(bad(&format!("`{email}` is not a mail address")));
    }
    Ok(Seat {
        name: name.to_string(),
        email: email.to_string(),
    })
}

/// A seed for a game when the GM gives none: the imperative shell may read the clock.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
