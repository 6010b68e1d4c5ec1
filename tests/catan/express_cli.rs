//! Catan Express through the `judge` command, as a GM runs it:
//! `new` for three to six players, `check` of the order examples, `turn` from pending
//! files (the founding in two runs), `report` per player with hidden hands, `replay` and
//! `status` of the two games archived by mail (games/catan-express-4p, played to a won
//! race, and games/catan-express-5p, ten rounds of five players), `ingest` of an order
//! mail, `cases`, `selfplay`, and what git keeps.

use crate::support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::support::catan::{events, judge, ok, pending, state};
use pbem_judge::catan::express::Map;
use pbem_judge::catan::scenario::Variant;
use pbem_judge::catan::state::Phase;

/// The seats of the archived four-player game (and of scripts/catan-express-game/).
const NAMES_4P: [&str; 4] = ["Ann", "Bob", "Cy", "Di"];

fn players(names: &[&str]) -> Vec<String> {
    names
        .iter()
        .flat_map(|name| {
            [
                "--player".to_string(),
                format!("{name}:{}@example.org", name.to_lowercase()),
            ]
        })
        .collect()
}

/// `judge new DIR --game catan-express` with these players and any further arguments.
fn new_express(dir: &Path, names: &[&str], more: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "new",
        dir.to_str().expect("utf-8"),
        "--game",
        "catan-express",
    ];
    args.extend_from_slice(more);
    let ps = players(names);
    args.extend(ps.iter().map(String::as_str));
    judge(&args)
}

/// An event's kind; Catan Express's own events as `express:KIND`.
fn kind(e: &serde_json::Value) -> String {
    match (e["event"].as_str(), e["express"].as_str()) {
        (Some("scenario"), Some(x)) => format!("express:{x}"),
        (Some(k), _) => k.to_string(),
        _ => String::new(),
    }
}

fn last_step(dir: &Path) -> u32 {
    std::fs::read_dir(dir.join("turns"))
        .expect("turns/")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .max()
        .unwrap_or(0)
}

/// The order file of scripts/catan-express-game/ for play `step`, sent by `colour`.
fn scripted(step: u32, colour: &str) -> String {
    std::fs::read_to_string(format!("scripts/catan-express-game/{step:03}-{colour}.txt"))
        .expect("a scripted order file")
}

/// `judge new DIR --game catan-express` for 3 to 6 players, on the Express
/// island (the default set-up; the larger island with the extension for 5–6); two or
/// seven players are refused with a message saying why, and nothing is written.
#[test]
fn new_makes_express_games_for_three_to_six_players() {
    let tmp = tempfile::tempdir().expect("tmp");
    let all = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"];
    for n in 3..=6 {
        let dir = tmp.path().join(format!("g{n}"));
        let (code, out, err) = new_express(&dir, &all[..n], &["--seed", "9"]);
        assert_eq!(code, 0, "{n} players: {out}{err}");
        assert!(out.contains("from scenario `island`"), "{out}");
        let toml = std::fs::read_to_string(dir.join("game.toml")).expect("game.toml");
        assert!(toml.contains("game = \"catan-express\""), "{toml}");
        let s = state(&dir, 0);
        assert_eq!(s.players.len(), n);
        assert_eq!(s.options.variant, Variant::Express(Map::Island));
        assert!(s.scenario.is_some(), "{n} players: the Express railways");
        let land = s.board.terrain.iter().filter(|t| t.is_land()).count();
        assert_eq!(
            (land, s.options.extension),
            if n <= 4 { (19, false) } else { (30, true) },
            "{n} players"
        );
        assert_eq!(
            s.players
                .iter()
                .map(|p| p.colour.name())
                .collect::<Vec<_>>(),
            ["red", "blue", "white", "orange", "green", "purple"][..n]
        );
        let shown = ok(&["show", dir.to_str().expect("utf-8")]);
        assert!(shown.contains("CATAN EXPRESS"), "{shown}");
        assert!(
            shown.contains(&format!("Founding placement 1 of {}", 2 * n)),
            "{shown}"
        );
        let status = ok(&["status", dir.to_str().expect("utf-8")]);
        assert!(
            status.contains(&format!("g{n} (Catan Express)")),
            "{status}"
        );
    }
    for n in [2, 7] {
        let dir = tmp.path().join(format!("bad{n}"));
        let (code, out, err) = new_express(&dir, &all[..n], &["--seed", "9"]);
        assert_eq!(code, 1, "{n} players: {out}{err}");
        assert!(
            err.contains("3 or 4 players, or 5 or 6 with the extension")
                && err.contains(&format!("{n} is not possible")),
            "{err}"
        );
        assert!(!dir.join("game.toml").exists(), "nothing written for {n}");
    }
    // Beyond the island, on the beginners' board; a base-game set-up is no Express one.
    let dir = tmp.path().join("beyond");
    let (code, out, err) = new_express(&dir, &all[..4], &["--scenario", "beyond-beginner"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        state(&dir, 0).options.variant,
        Variant::Express(Map::Beyond)
    );
    let dir = tmp.path().join("base");
    let (code, out, err) = new_express(&dir, &all[..4], &["--scenario", "random"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("there is no Catan set-up `random`") && err.contains("island"),
        "{err}"
    );
}

/// Every example of orders/examples/catan-express checks clean through
/// `judge check` against a fresh game (beyond.txt against a game beyond the island);
/// mistakes get file, line, column and a suggestion; a played step is refused.
#[test]
fn check_reads_the_express_order_examples_and_mistakes() {
    let tmp = tempfile::tempdir().expect("tmp");
    let island = tmp.path().join("island").join("demo");
    let beyond = tmp.path().join("beyond").join("demo");
    let (code, out, err) = new_express(&island, &NAMES_4P, &["--seed", "1"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = new_express(
        &beyond,
        &NAMES_4P,
        &["--seed", "1", "--scenario", "beyond-beginner"],
    );
    assert_eq!(code, 0, "{out}{err}");
    let mut checked = 0;
    for e in std::fs::read_dir("orders/examples/catan-express").expect("examples") {
        let path = e.expect("entry").path();
        let game = if path.ends_with("beyond.txt") {
            &beyond
        } else {
            &island
        };
        let (code, out, err) = judge(&[
            "check",
            game.to_str().expect("utf-8"),
            path.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 0, "{}: {out}{err}", path.display());
        // Named by the player's own next step: the founding
        // placements go round, so an example's player may place first or later.
        assert!(
            [1, 2, 3, 4, 5, 6]
                .iter()
                .any(|t| out.contains(&format!(", turn {t}: 0 errors"))),
            "{out}"
        );
        assert!(out.contains("What these orders will do:"), "{out}");
        checked += 1;
    }
    assert!(checked >= 6, "{checked} examples");

    let d = island.to_str().expect("utf-8");
    let bad = tmp.path().join("bad.txt");
    std::fs::write(
        &bad,
        "game demo\nplayer red\nfounding\nsettlement 38 road 38-45\nturn\nline 16-Z\nferry 16-24 paying oer\n",
    )
    .expect("write");
    let (code, out, _) = judge(&["check", d, bad.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Catan Express has no roads"), "{out}");
    assert!(out.contains("bad.txt:4:"), "line and column: {out}");
    let (code, out, _) = judge(&["check", d, bad.to_str().expect("utf-8"), "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(v["errors"].as_u64() >= Some(1), "{out}");
    let first = &v["diagnostics"][0];
    assert_eq!(first["line"].as_u64(), Some(4), "{out}");

    // A file for another game: one error, with the fix.
    std::fs::write(
        &bad,
        "game other\nplayer red\nfounding\nsettlement 38 line I\n",
    )
    .expect("write");
    let (code, out, _) = judge(&["check", d, bad.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(": 1 error, 0 warnings."), "{out}");
    assert!(out.contains("help: write `game demo`"), "{out}");

    // Orders for a step already played are refused.
    let played = founded(tmp.path());
    std::fs::write(&bad, "player blue\nturn 2\nturn\nline 22-G\n").expect("write");
    let (code, out, _) = judge(&[
        "check",
        played.to_str().expect("utf-8"),
        bad.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("turn 2 has been played; the next is 9"),
        "{out}"
    );
}

/// The founding of the archived four-player game played again from pending files: the
/// order files of scripts/catan-express-game/ for plays 1 to 4 in one `judge turn`,
/// then blue's and red's second files in another. Returns the game's folder.
fn founded(tmp: &Path) -> PathBuf {
    // Named as the scripted files say, so they are sent as they are.
    let dir = tmp.join("express-demo");
    let (code, out, err) = new_express(&dir, &NAMES_4P, &["--seed", "2"]);
    assert_eq!(code, 0, "{out}{err}");
    let d = dir.to_str().expect("utf-8");
    for (step, colour) in [(1, "red"), (2, "blue"), (3, "white"), (4, "orange")] {
        pending(&dir, colour, &scripted(step, colour));
    }
    let out = ok(&["turn", d]);
    // Orange's and white's files still hold a free place for their second settlement,
    // so plays 5 and 6 follow at once; blue's places are taken by then.
    for t in 1..=6 {
        assert!(out.contains(&format!("Turn {t} played")), "{out}");
    }
    assert!(!out.contains("Turn 7 played"), "{out}");
    assert!(out.contains("Next: blue."), "{out}");
    pending(&dir, "blue", &scripted(7, "blue"));
    pending(&dir, "red", &scripted(8, "red"));
    let out = ok(&["turn", d]);
    assert!(
        out.contains("Turn 7 played") && out.contains("Turn 8 played"),
        "{out}"
    );
    assert!(!out.contains("Turn 9 played"), "red's turn waits: {out}");
    assert!(out.contains("Next: red."), "{out}");
    dir
}

/// The founding by mail: the snake order (red to orange, then back); the first
/// settlement has no line, the second gets the first rail line, free, and the
/// locomotive. The places are the archived game's, step by step.
#[test]
fn turn_plays_the_express_founding_from_pending_files() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = founded(tmp.path());
    let archive = Path::new("games/catan-express-4p");
    let founded_at = |dir: &Path, t: u32| {
        events(dir, t)
            .into_iter()
            .find(|e| e["event"] == "founded")
            .map(|e| {
                (
                    e["player"].as_str().unwrap_or("").to_string(),
                    e["vertex"].clone(),
                )
            })
            .expect("a founding")
    };
    let order: Vec<String> = (1..=8).map(|t| founded_at(&dir, t).0).collect();
    assert_eq!(
        order,
        [
            "red", "blue", "white", "orange", "orange", "white", "blue", "red"
        ]
    );
    for t in 1..=8 {
        assert_eq!(founded_at(&dir, t), founded_at(archive, t), "play {t}");
        let lines: Vec<_> = events(&dir, t)
            .into_iter()
            .filter(|e| kind(e) == "express:built")
            .collect();
        if t <= 4 {
            assert!(
                lines.is_empty(),
                "play {t}: the first settlement has no line"
            );
        } else {
            assert_eq!(lines.len(), 1, "play {t}: {lines:?}");
            assert_eq!(
                (lines[0]["kind"].as_str(), lines[0]["free"].as_bool()),
                (Some("line"), Some(true))
            );
        }
    }
    let s = state(&dir, 8);
    assert_eq!(
        (s.phase, s.colour(s.active).name()),
        (Phase::BeforeRoll, "red")
    );
    let x = s.scenario.as_deref().expect("express");
    for (seat, p) in x.players.iter().enumerate() {
        assert_eq!(p.lines.len(), 1, "seat {seat}");
        let start = p.start.expect("a starting place");
        assert!(s.players[seat].settlements.has(start));
        assert_eq!(
            p.locomotive.and_then(|n| x.rail.vertex_of(n)),
            Some(start),
            "seat {seat}: the locomotive stands at the second settlement"
        );
    }
    // Every step keeps its public report and record; the pictures and each player's
    // report are made again when wanted.
    for t in 1..=8 {
        let turn = dir.join(format!("turns/{t:03}"));
        for f in ["report.txt", "public.json", "turn.json"] {
            assert!(turn.join(f).is_file(), "turn {t}: {f}");
        }
        for f in ["reports", "map.svg", "map.png"] {
            assert!(!turn.join(f).exists(), "turn {t} keeps {f}");
        }
    }
}

/// The four-player game played by mail (scripts/play-catan-game sending the
/// order files of scripts/catan-express-game/), archived under games/catan-express-4p:
/// `judge replay` makes every step again, byte for byte, from the founding to a won
/// race that ends the game.
#[test]
fn the_four_player_express_game_by_mail_replays_to_a_won_race() {
    let dir = Path::new("games/catan-express-4p");
    let d = dir.to_str().expect("utf-8");
    let out = ok(&["replay", d]);
    let last = last_step(dir);
    // RESULT.txt is what the engine made of the scripted files (tests/catan/express_game.rs):
    // `…: 89 plays; red completed the race, red won with 13 points.`
    let result =
        std::fs::read_to_string("scripts/catan-express-game/RESULT.txt").expect("RESULT.txt");
    let words: Vec<&str> = result.split_whitespace().collect();
    let plays: u32 = words
        .iter()
        .position(|w| *w == "plays;")
        .and_then(|i| words[i - 1].parse().ok())
        .expect("RESULT.txt names the plays");
    let racer_name = words[words.iter().position(|w| *w == "completed").expect("racer") - 1];
    let winner_name = words[words.iter().position(|w| *w == "won").expect("winner") - 1];
    let points: u8 = words[words.iter().position(|w| *w == "points.").expect("points") - 1]
        .parse()
        .expect("points");
    assert_eq!(
        last, plays,
        "the game of scripts/catan-express-game/RESULT.txt"
    );
    assert!(
        out.contains(&format!("turn 0 and {last} turns replayed, all identical")),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.ends_with(": identical")).count() as u32,
        last + 1
    );
    // The race was won and ended the game; the winner is the one with most points.
    let end = state(dir, last);
    assert_eq!(end.players.len(), 4);
    assert_eq!(end.phase, Phase::Over);
    let x = end.scenario.as_deref().expect("express");
    let race = x.race.as_ref().expect("the race began");
    let racer = race.winner.expect("someone completed the race");
    assert!(race.all_collected(racer));
    assert!(pbem_judge::catan::express::race::joined_to_all(x, racer));
    let winner = end.winner.expect("a winner");
    assert_eq!(
        (
            end.colour(racer).name(),
            end.colour(winner).name(),
            end.points(winner)
        ),
        (racer_name, winner_name, points),
        "scripts/catan-express-game/RESULT.txt"
    );
    for seat in 0..4 {
        assert!(end.points(seat) <= end.points(winner));
    }
    let status = ok(&["status", d]);
    assert!(
        status.contains(&format!(
            "The game is over: {winner_name} won with {points} points."
        )),
        "{status}"
    );
    // A finished game has no next turn, deadline or orders to wait for.
    for not_said in ["is next", "Deadline", "no orders yet", "no secret set"] {
        assert!(!status.contains(not_said), "{not_said:?} in\n{status}");
    }
    let report = std::fs::read_to_string(dir.join(format!("turns/{last:03}/report.txt")))
        .expect("the last report");
    for said in [
        format!("{racer_name} completes the race and takes the Fastest Locomotive Driver card"),
        format!("{winner_name} WINS with {points} points"),
    ] {
        assert!(report.contains(&said), "{said}: {report}");
    }
    // Every file mailed is the scripted one for that play, with this game's name and
    // the secret blanked; the only plays without a mail are founding placements played
    // from a file already on record.
    for t in 1..=last {
        let record = std::fs::read_to_string(dir.join(format!("turns/{t:03}/turn.json")))
            .expect("turn.json");
        let v: serde_json::Value = serde_json::from_str(&record).expect("turn.json");
        let sent: Vec<&String> = v["orders"]
            .as_object()
            .expect("orders")
            .iter()
            .filter(|(_, how)| *how == "sent")
            .map(|(c, _)| c)
            .collect();
        if sent.is_empty() {
            assert!(
                matches!(state(dir, t - 1).phase, Phase::Founding { .. }),
                "play {t} was played with no orders sent: {record}"
            );
            continue;
        }
        assert_eq!(sent.len(), 1, "play {t}: {record}");
        let colour = sent[0];
        let kept = std::fs::read_to_string(dir.join(format!("turns/{t:03}/orders/{colour}.txt")))
            .expect("the orders");
        let want = scripted(t, colour)
            .replace("game express-demo\n", "game catan-express-4p\n")
            .replace(
                &format!("\nturn {t}\n"),
                &format!("\nturn {t}\nsecret [secret]\n"),
            );
        assert_eq!(kept, want, "play {t}");
    }
    // A real game: every part of the race happened.
    let mut seen = BTreeSet::new();
    for t in 1..=last {
        for e in events(dir, t) {
            if kind(&e) == "express:moved" && e["fare"].is_array() {
                seen.insert("a fare paid to a rival".to_string());
            }
            seen.insert(kind(&e));
        }
    }
    for k in [
        "express:built",
        "express:joined-net",
        "express:connected-settlement",
        "express:race-began",
        "express:stopover-chosen",
        "express:moved",
        "a fare paid to a rival",
        "express:tower-taken",
        "express:race-won",
        "stole",
        "maritime-trade",
        "won",
    ] {
        assert!(seen.contains(k), "no {k} in the game: {seen:?}");
    }
}

/// A five-player game of at least ten rounds by mail (scripts/play-catan-game,
/// every player the Express bot of examples/catan_bot.rs), archived under
/// games/catan-express-5p: it replays byte for byte; every player had ten turns after
/// the founding, and the special building phases between turns were played.
#[test]
fn the_five_player_express_game_by_mail_replays_ten_rounds() {
    let dir = Path::new("games/catan-express-5p");
    let d = dir.to_str().expect("utf-8");
    let out = ok(&["replay", d]);
    let last = last_step(dir);
    assert!(
        out.contains(&format!("turn 0 and {last} turns replayed, all identical")),
        "{out}"
    );
    let start = state(dir, 0);
    assert_eq!(start.players.len(), 5);
    assert!(start.options.extension);
    let mut turns = [0u32; 5];
    let mut between = 0;
    for t in 1..=last {
        // Step t is the turn of the player to move after step t - 1, with the special
        // building phases of the others that follow it.
        let before = state(dir, t - 1);
        if matches!(before.phase, Phase::Founding { .. }) {
            continue;
        }
        turns[before.active as usize] += 1;
        let active = before.colour(before.active).name();
        // A piece built by another player: built in a special building phase, from
        // `between turns` orders on record.
        between += events(dir, t)
            .iter()
            .filter(|e| {
                matches!(kind(e).as_str(), "built" | "express:built")
                    && e["player"].as_str() != Some(active)
            })
            .count();
    }
    assert!(
        turns.iter().all(|&n| n >= 10),
        "ten turns of every player: {turns:?}"
    );
    assert!(between > 0, "nothing was built between turns");
    let status = ok(&["status", d]);
    assert!(
        status.contains("catan-express-5p (Catan Express)"),
        "{status}"
    );
}

/// Hidden hands: in the archived game `judge report --player` shows that
/// player's own cards, as mailed to them, and the public report shows no hand.
#[test]
fn express_reports_hide_hands() {
    let dir = Path::new("games/catan-express-4p");
    let d = dir.to_str().expect("utf-8");
    let t = 40;
    let turn = t.to_string();
    let s = state(dir, t);
    let public = ok(&["report", d, "--turn", &turn]);
    assert!(!public.contains("Your hand"), "{public}");
    let mut hands = BTreeSet::new();
    for (seat, p) in s.players.iter().enumerate() {
        let c = p.colour.name();
        let own = ok(&["report", d, "--turn", &turn, "--player", c]);
        let hand = format!("  Resources: {}\n", s.players[seat].hand);
        assert!(
            own.contains("Your hand") && own.contains(&hand),
            "{c}: {own}"
        );
        hands.insert(hand);
        let archive = pbem_judge::archive::Archive::open(dir).expect("archive");
        let game = pbem_judge::games::by_id(&archive.game.game).expect("game");
        let mailed = pbem_judge::pbem::report::player_text(&archive, game, t, c)
            .expect("the player's report");
        assert_eq!(own, mailed, "{c}");
    }
    assert!(
        hands.len() > 1,
        "the hands differ, so the test tells them apart"
    );
    for hand in &hands {
        assert!(!public.contains(hand.as_str()), "{public}");
    }
}

/// None of the archived games' files is ignored by the project's git: a clone has the
/// whole record, which `judge replay` needs (a Catan game's own .gitignore, which keeps
/// the hands out of a shared repository, is not part of the archive).
#[test]
fn the_archived_express_games_are_kept_whole_by_git() {
    for game in ["games/catan-express-4p", "games/catan-express-5p"] {
        assert!(!Path::new(game).join(".gitignore").exists(), "{game}");
        let files: Vec<String> = support::all_files(Path::new(game))
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        assert!(files.iter().any(|f| f.ends_with("state.json")), "{game}");
        let out = std::process::Command::new("git")
            .args(["check-ignore", "--no-index", "--"])
            .args(&files)
            .output()
            .expect("git");
        // Exit 1: none of the paths is ignored.
        assert_eq!(
            out.status.code(),
            Some(1),
            "{game}: ignored: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

/// A fresh Express game's git keeps only the public record, as base Catan's does.
#[test]
fn git_keeps_only_the_public_record_of_an_express_game() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = founded(tmp.path());
    let kept = support::catan::git_kept(&dir);
    assert!(
        kept.contains("turns/008/report.txt") && kept.contains("turns/008/public.json"),
        "{kept}"
    );
    for hidden in [
        "state.json",
        "events.json",
        "reports/",
        "orders/",
        "randomness.key",
    ] {
        assert!(!kept.contains(hidden), "{hidden} is in git: {kept}");
    }
    assert!(kept.lines().any(|l| l == "randomness.toml"), "{kept}");
}

/// `judge ingest` of a Catan Express order mail from a player with a secret:
/// accepted, filed without the secret, and played by the next `judge turn`.
#[test]
fn ingest_files_an_express_order_mail() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("express-demo");
    let (code, out, err) = new_express(&dir, &NAMES_4P, &["--seed", "2"]);
    assert_eq!(code, 0, "{out}{err}");
    let d = dir.to_str().expect("utf-8");
    let pickup = tmp.path().join("pickup");
    std::fs::create_dir_all(&pickup).expect("pickup");
    let toml = dir.join("game.toml");
    let mut text = std::fs::read_to_string(&toml).expect("game.toml");
    text.push_str(&format!(
        "\n[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"{}\"\n",
        pickup.display()
    ));
    std::fs::write(&toml, text).expect("write");
    let out = ok(&["secret", d]);
    let secret = out
        .lines()
        .find(|l| l.trim_start().starts_with("red"))
        .and_then(|l| l.split_whitespace().last())
        .expect("red's secret")
        .to_string();
    let body = scripted(1, "red").replace("turn 1\n", &format!("turn 1\nsecret {secret}\n"));
    let mail = tmp.path().join("red.eml");
    std::fs::write(
        &mail,
        format!(
            "From: Ann <ann@example.org>\r\nTo: Judge <judge@example.org>\r\nSubject: my founding\r\nMessage-ID: <founding-1@example.org>\r\nDate: Mon, 2 Mar 2026 10:00:00 +0000\r\n\r\n{}\r\n-- \r\nAnn\r\n",
            body.replace('\n', "\r\n")
        ),
    )
    .expect("write");
    let out = ok(&["ingest", d, mail.to_str().expect("utf-8")]);
    assert!(
        out.contains("accepted: red's orders for turn 1 (0 errors, 0 warnings)"),
        "{out}"
    );
    let out = ok(&["turn", d]);
    assert!(out.contains("Turn 1 played"), "{out}");
    assert!(out.contains("Next: blue."), "{out}");
    let archived = events(Path::new("games/catan-express-4p"), 1);
    let played = events(&dir, 1);
    let at = |evs: &[serde_json::Value]| {
        evs.iter()
            .find(|e| e["event"] == "founded")
            .map(|e| e["vertex"].clone())
    };
    assert_eq!(at(&played), at(&archived));
    for f in support::all_files(&dir) {
        let text = String::from_utf8_lossy(&std::fs::read(&f).expect("read")).into_owned();
        assert!(!text.contains(&secret), "the secret in {}", f.display());
    }
}

/// `judge cases tests/catan-express` through the command line: at least 150
/// cases, all pass; `--table` prints one row per case.
#[test]
fn express_cases_pass_through_the_cli() {
    let out = ok(&["cases", "tests/catan-express", "--quiet"]);
    let summary = out.lines().last().expect("a summary");
    let passed: usize = summary
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count");
    assert!(passed >= 150, "{summary}");
    assert!(summary.ends_with("passed, 0 failed"), "{out}");
    let table = ok(&["cases", "--table", "tests/catan-express"]);
    let rows = table
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("`tests/catan-express/"))
        .count();
    assert_eq!(rows, passed, "{table}");
}

/// `judge selfplay catan-express` plays random games on the island (and
/// beyond it) and says how they went; 2 players are refused, and so is the other map's
/// set-up for bots.
#[test]
fn selfplay_plays_express_games() {
    for (game, title) in [
        ("catan-express", "Catan Express (the island)"),
        ("catan-express-beyond", "Catan Express beyond the island"),
    ] {
        let out = ok(&[
            "selfplay",
            game,
            "--players",
            "4",
            "--games",
            "5",
            "--seed",
            "3",
        ]);
        assert!(
            out.starts_with(&format!("5 random games of {title}, 4 players")),
            "{out}"
        );
        let mut counted = 0;
        for line in out.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [_, "won", n, ..] => counted += n.parse::<u32>().expect("a count"),
                ["unfinished", "(action", "limit):", n] => {
                    counted += n.parse::<u32>().expect("a count");
                }
                _ => {}
            }
        }
        assert_eq!(counted, 5, "every game won or counted unfinished: {out}");
    }
    let (code, out, err) = judge(&["selfplay", "catan-express", "--players", "2"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("3 to 6 players"), "{err}");
    // A set-up of the other map is refused with the self-play it belongs to.
    let (code, out, err) = judge(&[
        "selfplay",
        "catan-express",
        "--bots",
        "greedy,greedy,greedy",
        "--scenario",
        "beyond",
        "--games",
        "1",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(
            "beyond is a set-up for Catan Express beyond the island (catan-express-beyond), not for `catan-express`"
        ),
        "{err}"
    );
}

/// catan-express.txt: the race begins when a player reaches 8 points, and the game ends
/// when the race is won, not at a score: `judge scenarios` says so for every Express map.
#[test]
fn the_scenario_list_names_the_race_not_a_score_to_win() {
    let list = ok(&["scenarios", "--game", "catan-express"]);
    for name in ["island", "beyond", "beyond-beginner"] {
        let line = list
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} missing in\n{list}"));
        assert!(line.contains("race at 8 points"), "{line}");
    }
    assert!(!list.contains("points to win"), "{list}");
}
