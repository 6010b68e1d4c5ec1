//! `judge new`: create a game archive at turn 0.

use std::io::Write;
use std::path::Path;

use anyhow::Context as _;

use super::{Failure, NewArgs};
use crate::archive::{Archive, GameFile, GameKind, PlayerEntry, STATE_FILE, stable_json};
use crate::diagnostic::did_you_mean;
use crate::roads_boats::player::Colour;
use crate::roads_boats::scenario::{self, Scenario, Seat};

pub fn run(args: NewArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (file, text) = scenario_text(&args.scenario)?;
    let scenario = Scenario::parse(&file, &text).map_err(|d| Failure::User(d.render()))?;
    let seats = args
        .players
        .iter()
        .map(|p| parse_seat(p))
        .collect::<Result<Vec<_>, _>>()?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let state = scenario
        .start(&seats, seed)
        .map_err(|e| Failure::User(e.to_string()))?;
    let game = GameFile {
        game: GameKind::RoadsAndBoats,
        scenario: scenario.name.clone(),
        seed,
        players: Colour::SEATS
            .iter()
            .zip(&seats)
            .map(|(c, s)| PlayerEntry {
                id: c.name().to_string(),
                name: s.name.clone(),
                email: s.email.clone(),
                secret_hash: None,
            })
            .collect(),
        mail: None,
        schedule: None,
    };
    let json = stable_json(&state).context("serialising the state")?;
    Archive::create(&args.dir, game, &text, &[(STATE_FILE, json.into_bytes())])?;
    let order: Vec<String> = state
        .move_order
        .iter()
        .map(|c| {
            let name = state.players.get(c).map_or("", |p| p.name.as_str());
            format!("{c} ({name})")
        })
        .collect();
    writeln!(
        out,
        "Created {} from scenario `{}` with seed {seed}.\nMove order: {}.\nNext: judge show {}; to play by mail, judge secret (docs/gm-guide.md)",
        args.dir.display(),
        scenario.name,
        order.join(", "),
        args.dir.display()
    )
    .context("writing output")?;
    Ok(())
}

/// A bundled scenario by name, or a scenario file by path: (name for messages, text).
pub(super) fn scenario_text(name: &str) -> Result<(String, String), Failure> {
    let bundled = scenario::bundled();
    if let Some(text) = bundled.get(name) {
        return Ok((format!("scenarios/{name}.toml"), (*text).to_string()));
    }
    let path = Path::new(name);
    if path.is_file() {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::User(format!("cannot read {}: {e}", path.display())))?;
        return Ok((path.display().to_string(), text));
    }
    let mut msg = format!("there is no bundled scenario `{name}` and no file of that name");
    if let Some(s) = did_you_mean(name, bundled.keys().copied()) {
        msg.push_str(&format!("\nhelp: did you mean `{s}`?"));
    } else {
        let names: Vec<&str> = bundled.keys().copied().collect();
        msg.push_str(&format!(
            "\nhelp: the bundled scenarios are {}; or give the path of a .toml file",
            names.join(", ")
        ));
    }
    Err(Failure::User(msg))
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
