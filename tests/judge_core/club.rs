//! A folder of games at a glance (`judge status --all`): the command line run on real
//! game folders — the bundled games, games open for sign-up, paused, on a deadline,
//! hundreds of games, a damaged one.

use std::path::{Path, PathBuf};

use crate::support::{copy_dir, judge_text};

const NOW: [(&str, &str); 1] = [("JUDGE_NOW", "2026-11-26T09:00:00Z")];

/// A folder of games at `tmp/games` with its judge.toml, holding a copy of each
/// bundled game (games/).
fn club(tmp: &Path) -> PathBuf {
    let root = tmp.join("games");
    copy_dir(Path::new("games"), &root, &|_| true);
    std::fs::write(
        root.join("judge.toml"),
        "[mail]\nfrom = \"Judge <judge@example.org>\"\n",
    )
    .expect("judge.toml");
    root
}

fn status(root: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["status", "--all", root.to_str().expect("utf-8")];
    args.extend(extra);
    judge_text(&args, &NOW)
}

/// The line of the table that begins with `game`, its cells.
fn row(table: &str, game: &str) -> Vec<String> {
    table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(game))
        .unwrap_or_else(|| panic!("no line for {game} in\n{table}"))
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_bundled_games_are_a_line_each_with_their_turn_and_state() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = club(tmp.path());
    let (code, out, err) = status(&root, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out.lines()
            .next()
            .map(|l| l.split_whitespace().collect::<Vec<_>>()),
        Some(vec![
            "GAME", "FAMILY", "TURN", "STATE", "DEADLINE", "MISSING", "OUTBOX"
        ])
    );
    // Finished games: their last turn, no deadline, nobody missing.
    for (game, family, turn) in [
        ("catan-4p", "catan", "68"),
        ("catan-express-4p", "catan-express", "89"),
        ("catan-express-5p", "catan-express", "61"),
        ("two-rivers-2p", "roads-and-boats", "32"),
    ] {
        assert_eq!(
            row(&out, game),
            [game, family, turn, "over", "-", "-", "0"],
            "{out}"
        );
    }
    // Roads & Boats says whose orders are in to everyone: polder-cities waits for all
    // three, in the move order; the demo has both its players' orders in pending/.
    assert_eq!(
        row(&out, "polder-cities-3p"),
        [
            "polder-cities-3p",
            "roads-and-boats",
            "15",
            "playing",
            "-",
            "red, green, yellow",
            "0"
        ]
    );
    assert_eq!(
        row(&out, "demo"),
        ["demo", "roads-and-boats", "0", "playing", "-", "-", "0"]
    );
    assert_eq!(out.lines().last(), Some("6 games."));
    // The same as JSON, for scripts.
    let (code, json, err) = status(&root, &["--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let list: serde_json::Value = serde_json::from_str(&json).expect("json");
    let list = list.as_array().expect("a list");
    assert_eq!(list.len(), 6);
    let polder = list
        .iter()
        .find(|g| g["name"] == "polder-cities-3p")
        .expect("polder-cities-3p");
    assert_eq!(polder["turn"], 15);
    assert_eq!(polder["state"], "playing");
    assert_eq!(
        polder["seats"],
        serde_json::json!(["red", "green", "yellow"])
    );
    assert_eq!(list[0]["why"], "white won with 10 points");
}

#[test]
fn open_paused_scheduled_and_hidden_games_say_so_and_what_waits_in_the_outbox() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("games");
    std::fs::create_dir_all(&root).expect("games");
    let pickup = tmp.path().join("pickup");
    std::fs::create_dir_all(&pickup).expect("pickup");
    std::fs::write(
        root.join("judge.toml"),
        format!(
            "[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"{}\"\n",
            pickup.display()
        ),
    )
    .expect("judge.toml");
    let new = |name: &str, extra: &[&str]| {
        let dir = root.join(name);
        let mut args = vec!["new", dir.to_str().expect("utf-8"), "--seed", "3"];
        args.extend(extra);
        let (code, out, err) = judge_text(&args, &NOW);
        assert_eq!(code, 0, "judge new {name}: {out}{err}");
        dir
    };
    let two = [
        "--scenario",
        "two-rivers",
        "--player",
        "Ann:ann@example.org",
        "--player",
        "Bob:bob@example.org",
    ];
    new("open", &["--scenario", "two-rivers", "--open", "2"]);
    let paused = new("paused", &two);
    let (code, _, err) = judge_text(&["pause", paused.to_str().expect("utf-8")], &NOW);
    assert_eq!(code, 0, "{err}");
    let timed = new("timed", &two);
    let toml = timed.join("game.toml");
    let mut text = std::fs::read_to_string(&toml).expect("game.toml");
    text.push_str("\n[schedule]\nfirst_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"2days\"\n");
    std::fs::write(&toml, text).expect("game.toml");
    // Ann's orders are in: only Bob's are missing.
    std::fs::create_dir_all(timed.join("pending")).expect("pending");
    std::fs::write(
        timed.join("pending/red.txt"),
        "game timed\nplayer red\nturn 1\n",
    )
    .expect("orders");
    // A mail waiting to go out.
    std::fs::create_dir_all(timed.join("outbox")).expect("outbox");
    std::fs::write(
        timed.join("outbox/answer-1.eml"),
        "From: judge@example.org\nTo: ann@example.org\nSubject: x\n\nx\n",
    )
    .expect("mail");
    new(
        "island",
        &[
            "--game",
            "catan",
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Cat:cat@example.org",
            "--player",
            "Dan:dan@example.org",
        ],
    );
    let (code, out, err) = status(&root, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        row(&out, "open"),
        ["open", "roads-and-boats", "-", "open", "-", "-", "0"]
    );
    assert_eq!(
        row(&out, "paused"),
        ["paused", "roads-and-boats", "0", "paused", "-", "-", "0"]
    );
    assert_eq!(
        row(&out, "timed"),
        [
            "timed",
            "roads-and-boats",
            "0",
            "playing",
            "2026-12-01 at 18:00:00 UTC",
            "yellow",
            "1"
        ]
    );
    // Catan tells each player only whether their own orders are in: the table,
    // which anyone may be shown, names nobody.
    let island = row(&out, "island");
    assert_eq!(island[5], "(not public)", "{out}");
    for seat in ["red", "blue", "white", "orange"] {
        assert!(!island.iter().any(|c| c.contains(seat)), "{out}");
    }
}

/// Two hundred games are read from their last turn alone: every earlier turn's state
/// is gone from each, and the table still has every game's line (a replay would fail
/// on the first missing file).
#[test]
fn a_folder_of_two_hundred_games_is_read_from_each_games_last_turn() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("games");
    std::fs::create_dir_all(&root).expect("games");
    std::fs::write(
        root.join("judge.toml"),
        "[mail]\nfrom = \"Judge <judge@example.org>\"\n",
    )
    .expect("judge.toml");
    let source = Path::new("games/two-rivers-2p");
    for i in 0..200 {
        let dir = root.join(format!("g{i:03}"));
        copy_dir(source, &dir, &|p| {
            // Only the last turn (032) keeps its state.
            !(p.file_name().is_some_and(|n| n == "state.json")
                && !p.parent().is_some_and(|d| d.ends_with("032")))
        });
    }
    let (code, out, err) = status(&root, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().count(), 1 + 200 + 1, "{out}");
    for i in [0, 117, 199] {
        assert_eq!(row(&out, &format!("g{i:03}"))[3], "over");
    }
    assert_eq!(out.lines().last(), Some("200 games."));
}

#[test]
fn a_damaged_game_has_its_line_with_the_cause_and_the_others_are_shown() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = club(tmp.path());
    std::fs::write(
        root.join("polder-cities-3p/turns/015/state.json"),
        "{ not json",
    )
    .expect("damage");
    let (code, out, err) = status(&root, &[]);
    // Exit 5: a file the judge wrote does not read (the exit-code table).
    assert_eq!(code, 5, "{out}{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("polder-cities-3p"))
        .expect("its line");
    assert!(line.contains("unreadable"), "{line}");
    assert!(line.contains("turns/015/state.json"), "{line}");
    assert_eq!(row(&out, "catan-4p")[3], "over");
    assert_eq!(row(&out, "demo")[3], "playing");
    assert_eq!(
        out.lines().last(),
        Some("6 games, 1 unreadable (`judge status GAMES/NAME` says more).")
    );
    // A game.toml the GM broke: exit 1 (input to fix), the rest still shown.
    std::fs::write(root.join("polder-cities-3p/turns/015/state.json"), "").expect("x");
    let damaged_toml = root.join("demo/game.toml");
    std::fs::write(&damaged_toml, "game = \n").expect("game.toml");
    let (code, out, _) = status(&root, &["--format", "json"]);
    let list: serde_json::Value = serde_json::from_str(&out).expect("json");
    let demo = list
        .as_array()
        .expect("list")
        .iter()
        .find(|g| g["name"] == "demo")
        .expect("demo");
    assert_eq!(demo["state"], "unreadable");
    assert!(
        demo["why"]
            .as_str()
            .is_some_and(|w| w.contains("game.toml")),
        "{demo}"
    );
    assert_ne!(code, 0);
}

#[test]
fn the_table_is_for_a_folder_with_judge_toml_and_json_needs_all() {
    let (code, _, err) = judge_text(&["status", "--all", "games"], &NOW);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("judge.toml"), "{err}");
    let (code, _, err) = judge_text(&["status", "games/demo", "--format", "json"], &NOW);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--all"), "{err}");
}
