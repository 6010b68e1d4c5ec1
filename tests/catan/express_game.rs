//! A whole four-player Catan Express game on the island, played through the order
//! language from founding to a won race: at every play of the judge the player to move
//! sends an order file written by the scripted player (`catan::express::bot`), and the
//! judge plays it. The files are kept in `scripts/catan-express-game/` (one per play,
//! `NNN-colour.txt`), so the game can be replayed by mail; this test checks that they
//! are exactly what the game produces, and that they win the race.
//!
//! To write the folder again after a rules change: `UPDATE_EXPRESS_GAME=1 cargo test
//! --test catan_express_game`, then review the diff.

use std::collections::BTreeMap;
use std::path::Path;

use pbem_judge::catan::board::layout::Layout;
use pbem_judge::catan::express::{self, Map, bot};
use pbem_judge::catan::state::Phase;
use pbem_judge::catan::{Colour, State, check_orders, play, report};

const DIR: &str = "scripts/catan-express-game";
const SEED: u64 = 2;
const NAMES: [&str; 4] = ["Ann", "Bob", "Cy", "Di"];

/// A game played: the files sent (play number, sender, text), the final state, and the
/// last play's state before and events (for its report).
struct Played {
    sent: Vec<(u32, Colour, String)>,
    end: State,
    before: State,
    events: Vec<pbem_judge::catan::Event>,
}

fn play_game() -> Played {
    let names: Vec<String> = NAMES.iter().map(|s| s.to_string()).collect();
    let mut s = express::new_game("express-demo", &names, SEED, Map::Island, Layout::Beginner)
        .expect("a game");
    let mut sent = Vec::new();
    let mut last = (s.clone(), Vec::new());
    for _ in 0..4000 {
        if s.phase == Phase::Over {
            break;
        }
        let seat = match s.phase {
            Phase::Founding { .. } => s.actor(),
            _ => s.active,
        };
        let c = s.colour(seat);
        let text = bot::orders(&s, seat);
        let checked = check_orders(&s, c, "bot.txt", &text);
        assert_eq!(
            checked.errors(),
            0,
            "play {}: {}\n{text}",
            s.step + 1,
            checked.diagnostics.render()
        );
        sent.push((s.step + 1, c, text.clone()));
        let out = play(&s, &BTreeMap::from([(c, text)]));
        last = (s.clone(), out.events.clone());
        s = out.state;
    }
    Played {
        sent,
        end: s,
        before: last.0,
        events: last.1,
    }
}

#[test]
fn a_whole_game_by_mail_wins_the_race() {
    let Played {
        sent,
        end,
        before,
        events,
    } = play_game();
    assert_eq!(
        end.phase,
        Phase::Over,
        "the game did not end in {} plays",
        sent.len()
    );
    let x = end.scenario.as_deref().expect("express");
    let race = x.race.as_ref().expect("the race began");
    let racer = race.winner.expect("someone completed the race");
    let winner = end.winner.expect("a winner");
    assert!(race.all_collected(racer));
    assert!(!race.stopovers.is_empty());
    assert!(express::race::joined_to_all(x, racer));
    // Every file of the folder is the one the game sends at that play, and no other.
    let summary = format!(
        "Seed {SEED}, four players (red {}, blue {}, white {}, orange {}), the Express island: {} plays; {} completed the race, {} won with {} points.\n",
        NAMES[0],
        NAMES[1],
        NAMES[2],
        NAMES[3],
        sent.len(),
        end.colour(racer),
        end.colour(winner),
        end.points(winner)
    );
    let dir = Path::new(DIR);
    if std::env::var("UPDATE_EXPRESS_GAME").is_ok() {
        // The order files go; README.md stays.
        std::fs::create_dir_all(dir).expect("the folder");
        for e in std::fs::read_dir(dir).expect("the folder").flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".txt") && name.as_bytes()[0].is_ascii_digit() {
                std::fs::remove_file(e.path()).expect("an old order file");
            }
        }
        for (step, c, text) in &sent {
            std::fs::write(dir.join(format!("{step:03}-{c}.txt")), text).expect("a file");
        }
        std::fs::write(dir.join("RESULT.txt"), &summary).expect("the result");
        std::fs::write(
            dir.join("final-report.txt"),
            report(&before, &events, &end, None),
        )
        .expect("the report");
    }
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("scripts/catan-express-game exists")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt") && n.as_bytes()[0].is_ascii_digit())
        .collect();
    names.sort();
    assert_eq!(names.len(), sent.len(), "one file per play");
    for ((step, c, text), name) in sent.iter().zip(&names) {
        assert_eq!(name, &format!("{step:03}-{c}.txt"));
        let kept = std::fs::read_to_string(dir.join(name)).expect("readable");
        assert!(kept == *text, "{name} differs from the game's file");
    }
    let kept = std::fs::read_to_string(dir.join("RESULT.txt")).expect("RESULT.txt");
    assert_eq!(kept, summary);
    let final_report = std::fs::read_to_string(dir.join("final-report.txt")).expect("report");
    assert_eq!(final_report, report(&before, &events, &end, None));
}
