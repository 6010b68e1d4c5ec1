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

fn site_all(root: &Path, out: &Path) -> (i32, String, String) {
    let (root, out) = (root.to_str().expect("utf-8"), out.to_str().expect("utf-8"));
    judge_text(&["site", "--all", root, "-o", out], &NOW)
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
            p.file_name().is_none_or(|n| n != "state.json")
                || p.parent().is_some_and(|d| d.ends_with("032"))
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
fn the_table_is_for_any_folder_of_games_and_json_needs_all() {
    // Reading needs no judge.toml: the bundled games, each with its own game.toml, are
    // a folder of games (a GM's archive of past games, each with its own [mail]).
    let (code, out, err) = judge_text(&["status", "--all", "games"], &NOW);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("catan-4p") && out.contains("polder-cities-3p"),
        "{out}"
    );
    let (code, out, err) = judge_text(&["ratings", "games"], &NOW);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty(), "{out}");
    // A game's own folder named with --all is told apart from a folder of games.
    let (code, _, err) = judge_text(&["status", "--all", "games/demo"], &NOW);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("this is a game, not a folder of games"),
        "{err}"
    );
    let (code, _, err) = judge_text(&["ratings", "games/demo"], &NOW);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("this is a game, not a folder of games"),
        "{err}"
    );
    let (code, _, err) = judge_text(&["status", "games/demo", "--format", "json"], &NOW);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--all"), "{err}");
}

// ---- judge ratings ---------------------------------------------------------------------

/// Weng-Lin's Bayesian update for a game of single players ranked `ranks` (1 best,
/// equal ranks a tie), as the paper gives it (Weng & Lin 2011, "A Bayesian
/// Approximation Method for Online Ranking", Algorithm 1, the Bradley-Terry model with
/// full pairing; β = 25/6, κ = 10⁻⁶): written here apart from the crate the judge rates
/// with, to check it. For player i against each other q:
/// c = √(σi² + σq² + 2β²), p = e^(μi/c) / (e^(μi/c) + e^(μq/c)), s = 1 for a win, ½ a
/// tie, 0 a loss; Ω = Σ σi²/c (s − p), Δ = Σ (σi/c) σi²/c² p (1 − p);
/// μi' = μi + Ω, σi'² = σi² max(1 − Δ, κ).
fn weng_lin(players: &[(f64, f64)], ranks: &[usize]) -> Vec<(f64, f64)> {
    let beta: f64 = 25.0 / 6.0;
    players
        .iter()
        .enumerate()
        .map(|(i, &(mu, sigma))| {
            let (mut omega, mut delta) = (0.0, 0.0);
            for (q, &(mu_q, sigma_q)) in players.iter().enumerate() {
                if q == i {
                    continue;
                }
                let c = (sigma * sigma + sigma_q * sigma_q + 2.0 * beta * beta).sqrt();
                let p = (mu / c).exp() / ((mu / c).exp() + (mu_q / c).exp());
                let s = match ranks[q].cmp(&ranks[i]) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
                omega += sigma * sigma / c * (s - p);
                delta += (sigma / c) * sigma * sigma / (c * c) * p * (1.0 - p);
            }
            (mu + omega, (sigma * sigma * (1.0 - delta).max(1e-6)).sqrt())
        })
        .collect()
}

/// `judge ratings`' table for `family`: each player's line, (rating, μ, σ, games,
/// wins), by name.
fn ratings_of(out: &str, family: &str) -> Vec<(String, [f64; 5])> {
    let mut lines = out
        .lines()
        .skip_while(|l| !l.starts_with(&format!("{family} (")))
        .skip(2);
    let mut rows = Vec::new();
    for l in lines.by_ref() {
        if !l.starts_with("  ") {
            break;
        }
        let cells: Vec<&str> = l.split_whitespace().collect();
        let n = |i: usize| cells[i].parse::<f64>().expect("a number");
        rows.push((cells[5..].join(" "), [n(0), n(1), n(2), n(3), n(4)]));
    }
    rows
}

/// A small league of Roads & Boats, hand-checked: three rated games between Ann, Bob
/// and Cy, played in this order —
///   first:  Bob beats Ann (the bundled two-rivers game: yellow wins),
///   second: Ann beats Cy (the same game with Cy in red and Ann in yellow),
///   third:  Bob beats Cy, the GM ending the game at once: both score 0, and the tie
///           goes to the player later in the move order (RULINGS R2), Bob;
/// beside a finished game the GM left out (`rated = false`), a game still played, and
/// a Catan game of the same players, which is rated in a table of its own.
/// Expected by [`weng_lin`] above (worked by hand for the first game: c = √(2·(25/3)² +
/// 2·(25/6)²) = 13.176, p = ½, so Bob's μ = 25 + (25/3)²/13.176 · ½ = 27.635 and Ann's
/// 22.365; Δ = (8.333/13.176) · 0.4 · ¼ = 0.0632, σ = 8.333 · √(1 − 0.0632) = 8.065),
/// and after the three: Bob μ 29.628 σ 7.823 (rating μ − 3σ = 6.16), Ann 25.118 /
/// 7.824 (1.65), Cy 20.073 / 7.816 (−3.38).
#[test]
fn a_small_league_is_rated_as_weng_lins_formulas_say_game_by_game() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("games");
    std::fs::create_dir_all(&root).expect("games");
    std::fs::write(
        root.join("judge.toml"),
        "[mail]\nfrom = \"Judge <judge@example.org>\"\n",
    )
    .expect("judge.toml");
    let bundled = Path::new("games/two-rivers-2p");
    let copy = |name: &str, edit: &dyn Fn(String) -> String| {
        let dir = root.join(name);
        copy_dir(bundled, &dir, &|_| true);
        let toml = dir.join("game.toml");
        let text = std::fs::read_to_string(&toml).expect("game.toml");
        std::fs::write(&toml, edit(text)).expect("game.toml");
    };
    copy("first", &|t| t);
    copy("second", &|t| {
        t.replace("name = \"Ann\"", "name = \"Cy\"")
            .replace("ann@example.org", "cy@example.org")
            .replace("name = \"Bob\"", "name = \"Ann\"")
            .replace("bob@example.org", "ann@example.org")
    });
    // Left out by the GM: Cy beating Bob here would change every number.
    // Left out by the GM: here Cy (yellow) beats Bob (red), which would change every
    // number.
    copy("friendly", &|t| {
        format!(
            "rated = false\n{}",
            t.replace("name = \"Bob\"", "name = \"Cy\"")
                .replace("bob@example.org", "cy@example.org")
                .replace("name = \"Ann\"", "name = \"Bob\"")
                .replace("ann@example.org", "bob@example.org")
        )
    });
    let two = |name: &str| {
        let dir = root.join(name);
        let (code, _, err) = judge_text(
            &[
                "new",
                dir.to_str().expect("utf-8"),
                "--seed",
                "7",
                "--scenario",
                "two-rivers",
                "--player",
                "Cy:cy@example.org",
                "--player",
                "Bob:bob@example.org",
            ],
            &NOW,
        );
        assert_eq!(code, 0, "{err}");
        dir
    };
    let third = two("third");
    let (code, out, err) = judge_text(
        &[
            "end",
            third.to_str().expect("utf-8"),
            "--why",
            "the club closes",
            "--no-send",
        ],
        &NOW,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final score yellow 0, red 0"), "{out}");
    two("ongoing");
    copy_dir(Path::new("games/catan-4p"), &root.join("island"), &|_| true);

    let (code, out, err) = judge_text(&["ratings", root.to_str().expect("utf-8")], &NOW);
    assert_eq!(code, 0, "{out}{err}");

    let start = (25.0, 25.0 / 3.0);
    let (mut ann, mut bob, mut cy) = (start, start, start);
    let r = weng_lin(&[bob, ann], &[1, 2]);
    (bob, ann) = (r[0], r[1]);
    assert!(
        (bob.0 - 27.635).abs() < 1e-3 && (bob.1 - 8.065).abs() < 1e-3,
        "{bob:?}"
    );
    let r = weng_lin(&[ann, cy], &[1, 2]);
    (ann, cy) = (r[0], r[1]);
    let r = weng_lin(&[bob, cy], &[1, 2]);
    (bob, cy) = (r[0], r[1]);
    let want = [
        ("Bob", bob, 2.0, 2.0),
        ("Ann", ann, 2.0, 1.0),
        ("Cy", cy, 2.0, 0.0),
    ];
    let got = ratings_of(&out, "Roads & Boats");
    assert_eq!(got.len(), 3, "{out}");
    for ((name, (mu, sigma), games, wins), (got_name, g)) in want.iter().zip(&got) {
        assert_eq!(name, got_name, "best first:\n{out}");
        let close = |a: f64, b: f64| (a - b).abs() <= 0.006;
        assert!(close(g[0], mu - 3.0 * sigma), "{name}'s rating:\n{out}");
        assert!(close(g[1], *mu) && close(g[2], *sigma), "{name}:\n{out}");
        assert_eq!((g[3], g[4]), (*games, *wins), "{name}:\n{out}");
    }
    // The numbers worked out in the comment above, as the table prints them.
    assert!(
        out.contains("6.16   29.63    7.82      2     2  Bob"),
        "{out}"
    );
    assert!(
        out.contains("1.65   25.12    7.82      2     1  Ann"),
        "{out}"
    );
    assert!(
        out.contains("-3.38   20.07    7.82      2     0  Cy"),
        "{out}"
    );
    assert!(out.contains("Roads & Boats (3 games):"), "{out}");
    assert!(
        out.contains("Left out: friendly: rated = false in its game.toml."),
        "{out}"
    );
    assert!(out.contains("Not rated until they end: 1 game."), "{out}");
    // Catan apart: its four players, the winner alone first and the three others
    // sharing second place (its rules name only a winner), so those three stand alike.
    let catan = ratings_of(&out, "Catan");
    assert_eq!(catan.len(), 4, "{out}");
    assert_eq!(catan[0].1[4], 1.0, "{out}");
    let (w, rest) = weng_lin(&[start, start, start, start], &[1, 2, 2, 2])
        .split_first()
        .map(|(w, r)| (*w, r.to_vec()))
        .expect("four");
    assert!((catan[0].1[1] - w.0).abs() <= 0.006, "{out}");
    for (_, r) in &catan[1..] {
        assert!((r[1] - rest[0].0).abs() <= 0.006 && r[4] == 0.0, "{out}");
    }
}

/// A folder with nothing finished says so; a game that cannot be read (here one
/// address in two seats, which game.toml refuses: a player is never rated against
/// themselves) is named with its cause, rates nobody, and the exit code is its own
/// (1: game.toml to fix).
#[test]
fn a_game_that_cannot_be_read_is_named_and_rates_nobody() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("games");
    std::fs::create_dir_all(&root).expect("games");
    std::fs::write(
        root.join("judge.toml"),
        "[mail]\nfrom = \"Judge <judge@example.org>\"\n",
    )
    .expect("judge.toml");
    let (code, out, _) = judge_text(&["ratings", root.to_str().expect("utf-8")], &NOW);
    assert_eq!((code, out.trim()), (0, "No finished game to rate."));
    let dir = root.join("solo");
    copy_dir(Path::new("games/two-rivers-2p"), &dir, &|_| true);
    let toml = dir.join("game.toml");
    let text = std::fs::read_to_string(&toml).expect("game.toml");
    std::fs::write(&toml, text.replace("bob@example.org", "ann@example.org")).expect("x");
    let (code, out, _) = judge_text(&["ratings", root.to_str().expect("utf-8")], &NOW);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Not read: solo: "), "{out}");
    assert!(out.contains("have the same address"), "{out}");
    assert!(!out.contains("RATING"), "{out}");
}

// ---- judge site --all ------------------------------------------------------------------

/// The tags the folder's pages are made of: anything else in them would be markup a
/// name made.
const FOLDER_TAGS: [&str; 23] = [
    "html", "head", "meta", "title", "link", "script", "body", "main", "nav", "h1", "h2", "p",
    "span", "table", "tr", "th", "td", "a", "br", "img", "footer", "!DOCTYPE", "!--",
];

/// Every tag that opens in `page`, by name.
fn tags(page: &str) -> Vec<String> {
    page.split('<')
        .skip(1)
        .filter(|t| !t.starts_with('/'))
        .map(|t| {
            t.split(|c: char| c.is_whitespace() || c == '>')
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

/// A game folder and a player named to be markup (`"><b onmouseover=…>`, `<img
/// onerror=…>`) and a folder named like a link of another kind (`javascript:…`): on
/// the folder's pages each is text, every tag is one the templates write, every link
/// stays in the site, and the game's own site is written under its name.
#[test]
fn a_hostile_game_or_player_name_never_becomes_markup_on_the_folders_pages() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("games");
    std::fs::create_dir_all(&root).expect("games");
    std::fs::write(
        root.join("judge.toml"),
        "[mail]\nfrom = \"Judge <judge@example.org>\"\n",
    )
    .expect("judge.toml");
    let hostile = "x\"><b onmouseover=alert(1)>";
    let scheme = "javascript:alert(2)";
    for name in [hostile, scheme] {
        copy_dir(Path::new("games/two-rivers-2p"), &root.join(name), &|_| {
            true
        });
    }
    let toml = root.join(hostile).join("game.toml");
    let text = std::fs::read_to_string(&toml).expect("game.toml");
    std::fs::write(
        &toml,
        text.replace("name = \"Ann\"", "name = \"<img src=x onerror=alert(3)>\""),
    )
    .expect("game.toml");
    let out = tmp.path().join("site");
    let (code, said, err) = site_all(&root, &out);
    assert_eq!(code, 0, "{said}{err}");
    for page in ["index.html", "ratings.html"] {
        let html = std::fs::read_to_string(out.join(page)).expect(page);
        for tag in tags(&html) {
            assert!(FOLDER_TAGS.contains(&tag.as_str()), "{page}: <{tag}");
        }
        for raw in ["<b ", "<img src=x", "href=\"javascript"] {
            assert!(!html.contains(raw), "{page} holds {raw}:\n{html}");
        }
        // The names' handlers are text, between tags or inside a quoted value (whose
        // `"` a name cannot close: it is written `&quot;`), never an attribute.
        for tag in html.split('<').skip(1) {
            let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
            let names: String = tag.split('"').step_by(2).collect();
            assert!(
                !names.contains("onmouseover") && !names.contains("onerror"),
                "{page}: <{tag}>"
            );
        }
        // Every link and picture is the site's own file.
        for attr in ["href=\"", "src=\""] {
            for v in html.split(attr).skip(1) {
                let v = &v[..v.find('"').expect("quoted")];
                assert!(!v.contains(':') || v == "data:,", "{page}: {attr}{v}");
            }
        }
    }
    let index = std::fs::read_to_string(out.join("index.html")).expect("index");
    assert!(
        index.contains("x&quot;&gt;&lt;b onmouseover=alert(1)&gt;"),
        "{index}"
    );
    assert!(
        index.contains("&lt;img src=x onerror=alert(3)&gt;"),
        "{index}"
    );
    assert!(
        index.contains("href=\"./javascript%3Aalert%282%29/index.html\""),
        "{index}"
    );
    let ratings = std::fs::read_to_string(out.join("ratings.html")).expect("ratings");
    assert!(
        ratings.contains("&lt;img src=x onerror=alert(3)&gt;"),
        "{ratings}"
    );
    // Each game's own site, by the code of `judge site`, under its folder's name.
    for name in [hostile, scheme] {
        assert!(out.join(name).join("index.html").is_file(), "{name}");
        assert!(
            out.join("maps").join(format!("{name}.svg")).is_file(),
            "{name}"
        );
    }
}

/// A game that cannot be read has its line on the folder's page, with the cause and no
/// link, the other games their sites, and the command exits with its code.
#[test]
fn the_folders_site_is_written_around_a_damaged_game() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = club(tmp.path());
    std::fs::write(
        root.join("polder-cities-3p/turns/015/state.json"),
        "{ not json",
    )
    .expect("damage");
    let out = tmp.path().join("site");
    let (code, said, err) = site_all(&root, &out);
    assert_eq!(code, 5, "{said}{err}");
    assert!(said.contains("polder-cities-3p: no site:"), "{said}");
    let index = std::fs::read_to_string(out.join("index.html")).expect("index");
    assert!(
        index.contains(
            "<tr class=\"unreadable\"><td>polder-cities-3p</td><td colspan=\"6\">not shown: "
        ),
        "{index}"
    );
    assert!(!index.contains("./polder-cities-3p/index.html"), "{index}");
    for game in [
        "catan-4p",
        "catan-express-4p",
        "catan-express-5p",
        "demo",
        "two-rivers-2p",
    ] {
        assert!(
            index.contains(&format!("href=\"./{game}/index.html\"")),
            "{game}"
        );
        assert!(out.join(game).join("index.html").is_file(), "{game}");
    }
    // The site's folder is never the games' own.
    let (code, _, err) = site_all(&root, &root);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("holds the games"), "{err}");
}

/// A game not begun (open for sign-up) has no turn 0 and so no site yet: its line on
/// the folder's page says where it stands, links nowhere and names no free seat; the
/// others have their sites, and the command succeeds.
#[test]
fn a_game_open_for_sign_up_has_its_line_and_no_site_yet() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("games");
    copy_dir(
        Path::new("games/two-rivers-2p"),
        &root.join("two-rivers-2p"),
        &|_| true,
    );
    std::fs::write(
        root.join("judge.toml"),
        "[mail]\nfrom = \"Judge <judge@example.org>\"\n",
    )
    .expect("judge.toml");
    let open = root.join("open");
    let (code, _, err) = judge_text(
        &[
            "new",
            open.to_str().expect("utf-8"),
            "--seed",
            "3",
            "--scenario",
            "two-rivers",
            "--open",
            "2",
        ],
        &NOW,
    );
    assert_eq!(code, 0, "{err}");
    let out = tmp.path().join("site");
    let (code, said, err) = site_all(&root, &out);
    assert_eq!(code, 0, "{said}{err}");
    let index = std::fs::read_to_string(out.join("index.html")).expect("index");
    assert!(
        index
            .contains("<tr><td>open<br><span class=\"sub\">Roads &amp; Boats</span></td><td></td>"),
        "{index}"
    );
    assert!(
        index.contains(
            "<td>open: the game is open for sign-up and 2 seats are free (red, yellow)</td>"
        ),
        "{index}"
    );
    assert!(!index.contains("./open/"), "{index}");
    assert!(!out.join("open").exists());
    assert!(out.join("two-rivers-2p/index.html").is_file());
}
