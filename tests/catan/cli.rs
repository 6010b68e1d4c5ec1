//! Catan through the `judge` command, as a GM runs it: `new` for
//! three to six players, `check`, `turn` from pending files (several steps in one run
//! when their orders are on record), `report` per player with hidden hands, `replay`,
//! `status`, `ingest` of an order mail, `cases`, and the archived four-player game.

use crate::support;

use std::path::{Path, PathBuf};

use crate::support::catan::{events, judge, ok, pending, state};
use pbem_judge::catan::state::Phase;

fn players(n: usize) -> Vec<String> {
    ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"][..n]
        .iter()
        .flat_map(|name| {
            [
                "--player".to_string(),
                format!("{name}:{}@example.org", name.to_lowercase()),
            ]
        })
        .collect()
}

/// `judge new DIR --game catan` with `n` players and any further arguments.
fn new_catan(dir: &Path, n: usize, more: &[&str]) -> (i32, String, String) {
    let mut args = vec!["new", dir.to_str().expect("utf-8"), "--game", "catan"];
    args.extend_from_slice(more);
    let ps = players(n);
    args.extend(ps.iter().map(String::as_str));
    judge(&args)
}

/// The founding placements of the three-player beginner game below (seed 3: blue
/// begins, so the snake is blue, white, red, red, white, blue). Red and blue share hexes
/// E (brick 6) and L (ore 8); white sits alone in the south.
const FOUNDING: [(&str, &str); 3] = [
    (
        "blue",
        "founding\nsettlement 24 road 19-24\nsettlement 38 road 33-38\n",
    ),
    (
        "white",
        "founding\nsettlement 40 road 40-45\nsettlement 42 road 42-47\n",
    ),
    (
        "red",
        "founding\nsettlement 13 road 9-13\nsettlement 26 road 21-26\n",
    ),
];

/// Each player's turn: red and blue rob each other on the hexes they share; white puts
/// the robber where nobody lives.
fn turn_orders(colour: &str) -> &'static str {
    match colour {
        "red" => "robber E rob blue\nrobber L rob blue\ndiscard wool, grain\npass\n",
        "blue" => "robber E rob red\nrobber L rob red\ndiscard wool, grain\npass\n",
        _ => "robber B\nrobber C\npass\n",
    }
}

/// A three-player game on the beginner board with the founding played from pending
/// files by one `judge turn`; returns the folder and that run's output.
fn founded(tmp: &Path) -> (PathBuf, String) {
    let dir = tmp.join("isle");
    let (code, out, err) = new_catan(&dir, 3, &["--scenario", "beginner", "--seed", "3"]);
    assert_eq!(code, 0, "{out}{err}");
    for (colour, orders) in FOUNDING {
        pending(&dir, colour, &format!("player {colour}\n{orders}"));
    }
    let out = ok(&["turn", dir.to_str().expect("utf-8")]);
    (dir, out)
}

/// `judge new --game catan` for 3 to 6 players; 5 and 6 get the extension's
/// larger board (30 land hexes rather than 19). Two or seven players are refused.
#[test]
fn new_makes_catan_games_for_three_to_six_players() {
    let tmp = tempfile::tempdir().expect("tmp");
    for n in 3..=6 {
        let dir = tmp.path().join(format!("g{n}"));
        let (code, out, err) = new_catan(&dir, n, &["--seed", "9"]);
        assert_eq!(code, 0, "{n} players: {out}{err}");
        assert!(out.contains("from scenario `random`"), "{out}");
        let toml = std::fs::read_to_string(dir.join("game.toml")).expect("game.toml");
        assert!(toml.contains("game = \"catan\""), "{toml}");
        let s = state(&dir, 0);
        assert_eq!(s.players.len(), n);
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
        assert!(shown.contains("Founding placement 1 of"), "{shown}");
    }
    for n in [2, 7] {
        let dir = tmp.path().join(format!("bad{n}"));
        let (code, out, err) = new_catan(&dir, n, &["--seed", "9"]);
        assert_eq!(code, 1, "{n} players: {out}{err}");
        assert!(!dir.join("game.toml").exists(), "nothing written for {n}");
    }
}

/// `judge check` on Catan orders: exit 0 for good orders (with what each will
/// do), 1 with file, line and column and a suggestion for bad ones; JSON for tools.
#[test]
fn check_reads_good_and_bad_catan_orders() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("isle");
    let (code, out, err) = new_catan(&dir, 3, &["--scenario", "beginner", "--seed", "3"]);
    assert_eq!(code, 0, "{out}{err}");
    let d = dir.to_str().expect("utf-8");
    let good = tmp.path().join("good.txt");
    std::fs::write(
        &good,
        "game isle\nplayer blue\nturn 1\nfounding\nsettlement 24 road 19-24\nsettlement 38 road 33-38\n",
    )
    .expect("write");
    let (code, out, err) = judge(&["check", d, good.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Orders for blue, turn 1: 0 errors, 0 warnings."),
        "{out}"
    );
    assert!(
        out.contains("a settlement at 38 with a road at 33-38"),
        "{out}"
    );

    let bad = tmp.path().join("bad.txt");
    std::fs::write(
        &bad,
        "player red\nif rolled 6: trade 4 wod for ore\nbuild road 13-99\nbuild city 13\n",
    )
    .expect("write");
    let (code, out, _) = judge(&["check", d, bad.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("bad.txt:2:22"), "line and column: {out}");
    assert!(out.contains("did you mean `wood`?"), "{out}");
    assert!(out.contains("bad.txt:3:12"), "{out}");
    assert!(
        out.contains("the edges at vertex 13 are 8-13, 9-13, 13-18"),
        "{out}"
    );
    assert!(
        out.contains("warning: city 13: you have no settlement there"),
        "{out}"
    );
    let (code, out, _) = judge(&["check", d, bad.to_str().expect("utf-8"), "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        (v["errors"].as_u64(), v["warnings"].as_u64()),
        (Some(2), Some(1))
    );
    let first = &v["diagnostics"][0];
    assert_eq!(
        (
            first["line"].as_u64(),
            first["column"].as_u64(),
            first["help"].as_str()
        ),
        (Some(2), Some(22), Some("did you mean `wood`?")),
        "{out}"
    );
    // A file for another game: one error, with the fix.
    std::fs::write(&bad, "game other\nplayer red\npass\n").expect("write");
    let (code, out, _) = judge(&["check", d, bad.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}");
    // Named by red's own founding step, the third, not the next.
    assert!(out.contains("red, turn 3: 1 error, 0 warnings."), "{out}");
    assert!(out.contains("help: write `game isle`"), "{out}");
    // Orders for a step already played are refused.
    let played = tmp.path().join("played");
    std::fs::create_dir_all(&played).expect("mkdir");
    let (dir, _) = founded(&played);
    std::fs::write(&good, "player blue\nturn 3\npass\n").expect("write");
    let (code, out, _) = judge(&[
        "check",
        dir.to_str().expect("utf-8"),
        good.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("turn 3 has been played; the next is 7"),
        "{out}"
    );
}

/// docs/catan-orders.md, domestic trade: "never a resource for
/// itself, never a gift". `judge check` calls an offer, a bank trade or an acceptance of a
/// resource for itself an error (it used to pass them), naming the line.
#[test]
fn check_refuses_a_trade_of_a_resource_for_itself() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = founded(tmp.path());
    let orders = tmp.path().join("same.txt");
    std::fs::write(
        &orders,
        "player red\noffer 1 wool for 1 wool\naccept 1 ore for 1 ore\ntrade 4 ore for 1 ore with the bank\noffer 1 wool for 1 ore\n",
    )
    .expect("write");
    let (code, out, _) = judge(&[
        "check",
        dir.to_str().expect("utf-8"),
        orders.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("3 errors"), "{out}");
    for line in [2, 3, 4] {
        assert!(
            out.contains(&format!("same.txt:{line}:1")),
            "line {line}: {out}"
        );
    }
    assert!(!out.contains("same.txt:5:"), "a fair offer is fine: {out}");
    assert_eq!(
        out.matches("a trade never gives a resource for itself")
            .count(),
        5,
        "three errors and two lines of what the orders will do: {out}"
    );
}

/// One `judge turn` plays every founding step whose orders are on record, in
/// snake order (first to last, then back); the second settlement yields its cards; the
/// run stops at the first turn, whose orders are not in.
#[test]
fn turn_plays_the_founding_in_snake_order_in_one_run() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, out) = founded(tmp.path());
    for t in 1..=6 {
        assert!(out.contains(&format!("Turn {t} played")), "{out}");
    }
    assert!(!out.contains("Turn 7 played"), "{out}");
    assert!(out.contains("Next: blue."), "{out}");
    let placed: Vec<(String, u64)> = (1..=6)
        .map(|t| {
            events(&dir, t)
                .iter()
                .find(|e| e["event"] == "founded")
                .map(|e| {
                    (
                        e["player"].as_str().unwrap_or("").to_string(),
                        e["vertex"].as_u64().unwrap_or(0) + 1,
                    )
                })
                .expect("a founding")
        })
        .collect();
    let want = [
        ("blue", 24),
        ("white", 40),
        ("red", 13),
        ("red", 26),
        ("white", 42),
        ("blue", 38),
    ];
    assert_eq!(
        placed,
        want.iter()
            .map(|(c, v)| (c.to_string(), *v))
            .collect::<Vec<_>>()
    );
    // Red's second settlement (26: G brick, K wood, L ore) yields one card of each.
    let yields: Vec<_> = events(&dir, 4)
        .into_iter()
        .filter(|e| e["event"] == "founding-yield")
        .collect();
    assert_eq!(yields.len(), 1, "{yields:?}");
    assert_eq!(
        yields[0]["cards"],
        serde_json::json!({"brick": 1, "ore": 1, "wood": 1})
    );
    let s = state(&dir, 6);
    assert_eq!(
        (s.phase, s.colour(s.active).name()),
        (Phase::BeforeRoll, "blue")
    );
    // Every step keeps its report for everyone and its public record; each player's own
    // report and the map are made again when wanted, not kept.
    for t in 1..=6 {
        let turn = dir.join(format!("turns/{t:03}"));
        for f in ["report.txt", "public.json", "draws.json", "turn.json"] {
            assert!(turn.join(f).is_file(), "turn {t}: {f}");
        }
        for f in ["reports", "map.svg", "map.png"] {
            assert!(!turn.join(f).exists(), "turn {t} keeps {f}");
        }
    }
    // Orders for the next two turns, sent early, are played in one run.
    pending(&dir, "blue", turn_orders("blue"));
    pending(&dir, "white", turn_orders("white"));
    let out = ok(&["turn", dir.to_str().expect("utf-8")]);
    assert!(
        out.contains("Turn 7 played") && out.contains("Turn 8 played"),
        "{out}"
    );
    assert!(
        !out.contains("Turn 9 played"),
        "red's orders are not in: {out}"
    );
    assert!(out.contains("Next: red."), "{out}");
    // With nothing new, nothing is played.
    let out = ok(&["turn", dir.to_str().expect("utf-8")]);
    assert!(!out.contains("played"), "{out}");
}

/// Plays rounds of turns (each player's orders put in pending/, one `judge turn` each
/// round) until a card is stolen; returns the step it was stolen in, the thief and the
/// victim.
fn play_until_a_steal(dir: &Path) -> (u32, String, String) {
    let d = dir.to_str().expect("utf-8");
    for _round in 0..40 {
        for c in ["blue", "white", "red"] {
            pending(dir, c, turn_orders(c));
        }
        let out = ok(&["turn", d]);
        assert!(out.contains("played"), "{out}");
        let last = state_step(dir);
        for t in (last.saturating_sub(2)).max(7)..=last {
            if let Some(e) = events(dir, t).iter().find(|e| e["event"] == "stole") {
                return (
                    t,
                    e["thief"].as_str().unwrap_or("").to_string(),
                    e["victim"].as_str().unwrap_or("").to_string(),
                );
            }
        }
    }
    panic!("no card was stolen in 40 rounds");
}

fn state_step(dir: &Path) -> u32 {
    std::fs::read_dir(dir.join("turns"))
        .expect("turns/")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .max()
        .unwrap_or(0)
}

/// Hidden hands: `judge report --player red` shows red's own cards and the
/// others' counts only; blue's shows blue's; the public report shows no hand. A stolen
/// card is named in the thief's and the victim's reports only.
#[test]
fn reports_hide_hands_and_name_a_stolen_card_only_to_the_two() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = founded(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let (t, thief, victim) = play_until_a_steal(&dir);
    assert!(
        [thief.as_str(), victim.as_str()] == ["red", "blue"]
            || [thief.as_str(), victim.as_str()] == ["blue", "red"],
        "{thief} robbed {victim}"
    );
    let turn = t.to_string();
    let report = |player: Option<&str>| {
        let mut args = vec!["report", d, "--turn", &turn];
        if let Some(p) = player {
            args.extend(["--player", p]);
        }
        ok(&args)
    };
    let (red, blue, white, public) = (
        report(Some("red")),
        report(Some("blue")),
        report(Some("white")),
        report(None),
    );
    let after = state(&dir, t);
    let hand = |c: &str| {
        let seat = after
            .players
            .iter()
            .position(|p| p.colour.name() == c)
            .expect("seat");
        format!("  Resources: {}\n", after.players[seat].hand)
    };
    assert!(
        red.contains("Your hand") && red.contains(&hand("red")),
        "{red}"
    );
    assert!(
        blue.contains("Your hand") && blue.contains(&hand("blue")),
        "{blue}"
    );
    assert_ne!(
        hand("red"),
        hand("blue"),
        "the hands differ, so the test tells them apart"
    );
    assert!(!red.contains(&hand("blue")) && !blue.contains(&hand("red")));
    for text in [&white, &public] {
        assert!(
            !text.contains(&hand("red")) && !text.contains(&hand("blue")),
            "{text}"
        );
    }
    assert!(!public.contains("Your hand"), "{public}");
    let named = format!("{thief} stole 1 ");
    let unnamed = format!("{thief} stole a card from {victim}");
    for (who, text) in [("red", &red), ("blue", &blue)] {
        assert!(text.contains(&named), "{who} sees the card: {text}");
    }
    for (who, text) in [("white", &white), ("everyone", &public)] {
        assert!(
            text.contains(&unnamed) && !text.contains(&named),
            "{who} sees only that a card was stolen: {text}"
        );
    }
    // What each player is mailed is the same as `judge report --player` prints.
    let archive = pbem_judge::archive::Archive::open(&dir).expect("archive");
    let game = pbem_judge::games::by_id(&archive.game.game).expect("game");
    let mailed =
        pbem_judge::pbem::report::player_text(&archive, game, t, "white").expect("white's report");
    assert_eq!(mailed, white);
    let kept = std::fs::read_to_string(dir.join(format!("turns/{t:03}/report.txt")))
        .expect("the public report");
    assert_eq!(kept, public);
}

/// `judge replay` plays every step again from its orders and finds each
/// identical; `judge status` tells the game and whose orders the next step waits for.
#[test]
fn replay_finds_every_catan_step_identical_and_status_tells_who_is_next() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = founded(tmp.path());
    let d = dir.to_str().expect("utf-8");
    for _ in 0..2 {
        for c in ["blue", "white", "red"] {
            pending(&dir, c, turn_orders(c));
        }
        ok(&["turn", d]);
    }
    let last = state_step(&dir);
    assert_eq!(last, 12, "six founding steps and two rounds of three turns");
    let out = ok(&["replay", d]);
    assert_eq!(
        out.lines().filter(|l| l.ends_with(": identical")).count(),
        13,
        "{out}"
    );
    assert!(
        out.contains("turn 0 and 12 turns replayed, all identical"),
        "{out}"
    );
    // A step changed by hand is found.
    let events = dir.join("turns/009/events.json");
    let text = std::fs::read_to_string(&events).expect("events");
    std::fs::write(
        &events,
        text.replacen("\"turn-began\"", "\"turn-ended\"", 1),
    )
    .expect("write");
    let (code, out, _) = judge(&["replay", d]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("events.json differs"), "{out}");

    let out = ok(&["status", d]);
    assert!(
        out.contains("isle (Catan): 12 turns played; turn 13 is next."),
        "{out}"
    );
    assert!(out.contains("waits for blue"), "{out}");
    pending(&dir, "blue", turn_orders("blue"));
    let out = ok(&["status", d]);
    assert!(out.contains("blue's orders are in"), "{out}");
}

/// `judge ingest` of a Catan order mail (.eml) from a player with a secret set
/// by `judge secret`: accepted, answered, filed without the secret, and played by the
/// next `judge turn` since the step waited for that player.
#[test]
fn ingest_files_a_catan_order_mail() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("isle");
    let (code, out, err) = new_catan(&dir, 3, &["--scenario", "beginner", "--seed", "3"]);
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
        .find(|l| l.trim_start().starts_with("blue"))
        .and_then(|l| l.split_whitespace().last())
        .expect("blue's secret")
        .to_string();
    let mail = tmp.path().join("blue.eml");
    std::fs::write(
        &mail,
        format!(
            "From: Bob <bob@example.org>\r\nTo: Judge <judge@example.org>\r\nSubject: my founding\r\nMessage-ID: <founding-1@example.org>\r\nDate: Mon, 2 Nov 2026 10:00:00 +0000\r\n\r\ngame isle\r\nplayer blue\r\nturn 1\r\nsecret {secret}\r\nfounding\r\nsettlement 24 road 19-24\r\n\r\n-- \r\nBob\r\n"
        ),
    )
    .expect("write");
    let out = ok(&["ingest", d, mail.to_str().expect("utf-8")]);
    assert!(
        out.contains("accepted: blue's orders for turn 1 (0 errors, 0 warnings)"),
        "{out}"
    );
    let filed = std::fs::read_to_string(dir.join("pending/blue.txt")).expect("filed");
    assert!(filed.contains("settlement 24 road 19-24"), "{filed}");
    let answers: Vec<String> = std::fs::read_dir(&pickup)
        .expect("pickup")
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).expect("answer"))
        .collect();
    assert_eq!(answers.len(), 1, "one answer");
    assert!(answers[0].contains("bob@example.org"), "{}", answers[0]);
    let out = ok(&["turn", d]);
    assert!(out.contains("Turn 1 played"), "{out}");
    assert!(out.contains("Next: white."), "{out}");
    let s = state(&dir, 1);
    assert!(
        s.players[1].settlements.has(23),
        "blue's settlement stands at 24"
    );
    for f in support::all_files(&dir) {
        let text = String::from_utf8_lossy(&std::fs::read(&f).expect("read")).into_owned();
        assert!(!text.contains(&secret), "the secret in {}", f.display());
    }
}

/// `judge cases tests/catan` through the command line: at least 150 cases,
/// all pass; `--table` prints the rule → case table with one row per case.
#[test]
fn catan_cases_pass_through_the_cli() {
    let out = ok(&["cases", "tests/catan", "--quiet"]);
    let summary = out.lines().last().expect("a summary");
    let passed: usize = summary
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count");
    assert!(passed >= 150, "{summary}");
    assert!(summary.ends_with("passed, 0 failed"), "{out}");
    let table = ok(&["cases", "--table", "tests/catan"]);
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("`tests/catan/"))
        .collect();
    assert_eq!(rows.len(), passed, "{table}");
    assert!(table.starts_with("| rule | case |\n|---|---|\n"), "{table}");
    assert!(
        rows.iter()
            .any(|r| r.contains("tests/catan/robber/") && r.contains("robber")),
        "{table}"
    );
}

/// A real four-player game played by mail to a win (scripts/play-catan-game,
/// every player the bot of examples/catan_bot.rs), archived under games/catan-4p:
/// `judge replay` makes every step again, byte for byte.
#[test]
fn the_four_player_catan_game_by_mail_replays_identically() {
    let dir = Path::new("games/catan-4p");
    let out = ok(&["replay", "games/catan-4p"]);
    let last = state_step(dir);
    assert!(last >= 60, "{last} steps");
    assert!(
        out.contains(&format!("turn 0 and {last} turns replayed, all identical")),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.ends_with(": identical")).count() as u32,
        last + 1
    );
    // Played to a win, by four players, every step's orders sent by mail with their
    // secret blanked.
    let end = state(dir, last);
    assert_eq!(end.players.len(), 4);
    let winner = end.winner.expect("a winner");
    assert!(end.points(winner) >= 10);
    let status = ok(&["status", "games/catan-4p"]);
    assert!(status.contains("The game is over: "), "{status}");
    for t in 1..=last {
        let record = std::fs::read_to_string(dir.join(format!("turns/{t:03}/turn.json")))
            .expect("turn.json");
        assert!(record.contains("\"sent\""), "turn {t}: {record}");
        for f in std::fs::read_dir(dir.join(format!("turns/{t:03}/orders")))
            .expect("orders")
            .flatten()
        {
            let text = std::fs::read_to_string(f.path()).expect("orders");
            assert!(text.contains("\nsecret [secret]\n"), "turn {t}: {text}");
        }
    }
    // A real game: the robber, trades with the bank and between players, development
    // cards, the largest army and the longest road all happened.
    let mut seen = std::collections::BTreeSet::new();
    for t in 1..=last {
        for e in events(dir, t) {
            seen.insert(e["event"].as_str().unwrap_or("").to_string());
        }
    }
    for kind in [
        "stole",
        "discarded",
        "maritime-trade",
        "domestic-trade",
        "bought",
        "played",
        "monopoly",
        "year-of-plenty",
        "largest-army",
        "longest-road",
        "won",
    ] {
        assert!(seen.contains(kind), "no {kind} in the game: {seen:?}");
    }
}

/// Hidden hands stay hidden from a shared repository: for a Catan game git keeps only the
/// public record (game.toml, the commitment to the seed, each step's public report and
/// record), never a state, events, a player's own report or orders, or the
/// secret seed (randomness.key).
#[test]
fn git_keeps_only_the_public_record_of_a_catan_game() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = founded(tmp.path());
    let kept = support::catan::git_kept(&dir);
    assert!(
        kept.contains("turns/001/report.txt") && kept.contains("turns/001/public.json"),
        "{kept}"
    );
    for hidden in [
        "state.json",
        "events.json",
        "reports/",
        "orders/",
        "randomness.key",
        "pending/",
    ] {
        assert!(!kept.contains(hidden), "{hidden} is in git: {kept}");
    }
    assert!(kept.lines().any(|l| l == "randomness.toml"), "{kept}");
}

/// A player checks orders on a clone of the game's public git. The
/// states are the GM's, so each turn keeps its public record (`public.json`) in git and
/// `judge check` reads it there: good orders pass, bad ones are named by line and
/// column, and the check says exactly what the GM's own check says, with a note naming
/// the record it read. Commands that need the state say why it is not there.
#[test]
fn a_player_checks_catan_orders_on_a_clone_of_the_public_git() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = founded(tmp.path());
    let kept = support::catan::git_kept(&dir);
    assert!(kept.lines().any(|l| l.ends_with("/public.json")), "{kept}");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=GM", "-c", "user.email=gm@example.org"])
            .args(args)
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}");
    };
    let d = dir.to_str().expect("utf-8");
    git(&["-C", d, "add", "-A"]);
    git(&["-C", d, "commit", "-q", "-m", "the founding"]);
    let clone = tmp.path().join("clone");
    let c = clone.to_str().expect("utf-8");
    git(&["clone", "-q", d, c]);
    let last = state_step(&dir);
    assert!(!clone.join(format!("turns/{last:03}/state.json")).exists());

    let next = last + 1;
    let who = state(&dir, last).colour(state(&dir, last).active);
    let good = tmp.path().join("good.txt");
    std::fs::write(
        &good,
        format!("game isle\nplayer {who}\nturn {next}\nrobber E\npass\n"),
    )
    .expect("write");
    let bad = tmp.path().join("bad.txt");
    std::fs::write(
        &bad,
        format!("player {who}\nturn {next}\ntrade 4 wod for ore\nbuild road 13-99\n"),
    )
    .expect("write");
    for (file, want) in [(&good, 0), (&bad, 1)] {
        let f = file.to_str().expect("utf-8");
        let (gm_code, gm, _) = judge(&["check", d, f]);
        let (code, out, err) = judge(&["check", c, f]);
        assert_eq!((gm_code, code), (want, want), "{out}{err}");
        let note = format!(
            "note: checked against the game's public record, turns/{last:03}/public.json\n"
        );
        assert_eq!(
            out,
            format!("{note}{gm}"),
            "the clone checks as the GM does"
        );
        let (_, json, _) = judge(&["check", c, f, "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&json).expect("json");
        assert_eq!(
            v["public_record"].as_str(),
            Some(format!("turns/{last:03}/public.json").as_str())
        );
    }
    let (_, out, _) = judge(&["check", c, bad.to_str().expect("utf-8")]);
    assert!(out.contains("bad.txt:3:9"), "line and column: {out}");
    assert!(out.contains("did you mean `wood`?"), "{out}");
    let (code, _, err) = judge(&["show", c]);
    assert_eq!(code, 1);
    assert!(
        err.contains("not in this copy of the game") && err.contains("`judge check`"),
        "{err}"
    );
}

/// `judge end DIR --why TEXT` ends any game, scored by its own rules, with the
/// GM's reason in every report; the end is a turn of the archive that replays, the
/// seed is published, and nothing more is played.
#[test]
fn the_gm_ends_a_catan_game_scored_by_its_rules() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = founded(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let last = std::fs::read_dir(dir.join("turns"))
        .expect("turns")
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()))
        .max()
        .expect("a turn");
    let before = state(&dir, last);
    let out = ok(&["end", d, "--why", "the players agreed to stop"]);
    let end = last + 1;
    assert!(
        out.contains(&format!("Turn {end}: the GM ended the game.")),
        "{out}"
    );
    let after = state(&dir, end);
    let winner = after.winner.expect("a winner");
    let best = (0..after.players.len() as u8)
        .map(|p| after.points(p))
        .max()
        .unwrap_or(0);
    assert_eq!(after.points(winner), best, "the most points win");
    assert_eq!(after.players, before.players, "nothing else was played");
    let report =
        std::fs::read_to_string(dir.join(format!("turns/{end:03}/report.txt"))).expect("report");
    assert!(
        report.contains("the GM ended the game: the players agreed to stop"),
        "{report}"
    );
    assert!(report.contains("THE DICE, REVEALED"), "{report}");
    assert!(ok(&["replay", d]).contains("all identical"));
    assert!(ok(&["verify", d]).contains("verified"));
    let (code, _, err) = judge(&["end", d, "--why", "again"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("over already"), "{err}");
    let (code, out, err) = judge(&["turn", d, "--force"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("The game is over"), "{out}");
}

/// Recognising an order mail is the game's to say. The shared code
/// knew only Roads & Boats's phase headings, so a Catan attachment of bare orders (no
/// header lines) beside a body of greetings was not found: the body was read as the
/// orders. Catan knows the words its orders begin with.
#[test]
fn a_catan_attachment_of_bare_orders_is_found_beside_a_greeting() {
    use pbem_judge::pbem::game::Game;
    let raw = "From: ann@example.org\r\nTo: judge@example.org\r\nSubject: my turn\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nHi judge, my orders are attached.\r\nCheers, Ann\r\n--B\r\nContent-Type: text/plain; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\n\r\nroll\r\nbuild road 12-13\r\nend\r\n--B--\r\n";
    let m = pbem_judge::mail::inbound::read(raw.as_bytes()).expect("a mail");
    let catan = &pbem_judge::catan::game::CATAN;
    let orders = m
        .orders_by(&|t| catan.looks_like_orders(t))
        .expect("orders");
    assert_eq!(
        orders.lines().next().map(str::trim),
        Some("roll"),
        "{orders}"
    );
    // Roads & Boats does not take Catan's words for its orders: the body stays the text.
    let rb = &pbem_judge::roads_boats::game::RoadsAndBoats;
    let body = m.orders_by(&|t| rb.looks_like_orders(t)).expect("text");
    assert!(body.trim_start().starts_with("Hi judge"), "{body}");
    // Greetings alone are no orders, header lines always are.
    assert!(!catan.looks_like_orders("Hi judge,\nplay well!\nAnn"));
    assert!(catan.looks_like_orders("game catan-4p\nplayer red\n"));
    assert!(rb.looks_like_orders("Movement:\nmove D1: C3\n"));
}
