//! "every example in a player's template names that player's own
//! pieces and a place where it works." Over every seat of the bundled Roads & Boats
//! games (games/*) at each of the archive's turns, each example line of the template
//! (a comment line whose first word is an order word: `# make …`, `# move D1: C3`,
//! `# build …`, `# road …`, `# bricks …`), uncommented and put under its phase's
//! heading, is read as an order and passes `judge check` for that seat against that
//! state, and names no other player's transporter.

use pbem_judge::pbem::game::Position;
use pbem_judge::roads_boats::check::{Expect, check, render_text};
use pbem_judge::roads_boats::order_text::parse;
use pbem_judge::roads_boats::order_words;
use pbem_judge::roads_boats::player::Colour;
use pbem_judge::roads_boats::state::State;

/// Every archived state of the bundled Roads & Boats games: (name, state).
fn archived_states() -> Vec<(String, State)> {
    let mut out = Vec::new();
    let mut games: Vec<_> = std::fs::read_dir("games")
        .expect("games/")
        .map(|e| e.expect("an entry").path())
        .collect();
    games.sort();
    for game in games {
        let toml = std::fs::read_to_string(game.join("game.toml")).unwrap_or_default();
        if !toml.contains("game = \"roads-and-boats\"") {
            continue;
        }
        let mut turns: Vec<_> = std::fs::read_dir(game.join("turns"))
            .expect("turns/")
            .map(|e| e.expect("a turn").path())
            .collect();
        turns.sort();
        for turn in turns {
            let Ok(json) = std::fs::read_to_string(turn.join("state.json")) else {
                continue;
            };
            let s: State = serde_json::from_str(&json).expect("a state");
            out.push((turn.display().to_string(), s));
        }
    }
    out
}

/// The example lines of a template, each with the heading it stands under.
fn examples(template: &str) -> Vec<(String, String)> {
    let verbs = order_words::all_verbs();
    let mut heading = String::new();
    let mut out = Vec::new();
    for line in template.lines() {
        if matches!(line, "production" | "movement" | "building" | "wonder") {
            heading = line.to_string();
        }
        let Some(rest) = line.strip_prefix('#') else {
            continue;
        };
        let code = rest.split("  ").next().unwrap_or("").trim().to_string();
        let first = code
            .split([' ', ':'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if verbs.contains(&first.as_str()) {
            out.push((heading.clone(), code));
        }
    }
    out
}

#[test]
fn every_example_of_every_template_is_a_valid_order_of_the_seats_own() {
    let (mut states, mut tried) = (0, 0);
    for (name, s) in archived_states() {
        if s.game_over.is_some() {
            continue;
        }
        states += 1;
        for me in s.players.keys().copied().collect::<Vec<Colour>>() {
            let template = s.template(me.name());
            for (heading, line) in examples(&template) {
                let text = format!(
                    "player {}\nturn {}\n{heading}\n{line}\n",
                    me.name(),
                    s.turn + 1
                );
                let c = check(
                    &s,
                    &text,
                    &Expect {
                        player: Some(me),
                        game: None,
                    },
                );
                assert_eq!(
                    c.errors(),
                    0,
                    "{name}, {me}: the template's example `{line}` does not check:\n{}\n--- the template:\n{template}",
                    render_text(&c, "template", &text)
                );
                // It works: the dry run says what it does.
                assert!(
                    c.echo.iter().any(|e| !e.outcome.is_empty()),
                    "{name}, {me}: the example `{line}` does nothing:\n{}",
                    render_text(&c, "template", &text)
                );
                let p = parse(&text, &s.map);
                assert_eq!(
                    p.lines.len(),
                    1,
                    "{name}, {me}: `{line}` is not read as an order"
                );
                for r in &p.refs {
                    let owner = s.transporters.get(&r.id).map(|t| t.owner);
                    assert_eq!(
                        owner,
                        Some(me),
                        "{name}, {me}: `{line}` names {}, not {me}'s\n{template}",
                        r.id
                    );
                }
                tried += 1;
            }
        }
    }
    eprintln!("{states} states, {tried} example lines checked");
    assert!(
        states >= 20 && tried >= 100,
        "{states} states, {tried} examples"
    );
}
