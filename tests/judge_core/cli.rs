//! The `judge` command as a GM uses it: `new`, `show`, `scenarios`.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The bundled scenarios `judge new` starts at turn 0 (jumpstart-duel starts with its
/// auction instead).
const BUNDLED: [(&str, usize); 8] = [
    ("solo", 1),
    ("two-rivers", 2),
    ("power-valley", 2),
    ("three-valleys", 3),
    ("polder-cities", 3),
    ("four-shores", 4),
    ("five-ports", 5),
    ("six-isles", 6),
];

/// Run `judge` with a clean environment; return (exit code, stdout, stderr) with the
/// temporary folder replaced by `[TMP]`.
#[must_use]
fn judge(args: &[&str], tmp: &Path) -> (i32, String, String) {
    let (code, out, err) = support::judge_text(args, &[]);
    let clean = |s: &str| s.replace(&tmp.display().to_string(), "[TMP]");
    (code, clean(&out), clean(&err))
}

fn players(n: usize) -> Vec<String> {
    let names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"];
    names[..n]
        .iter()
        .flat_map(|name| {
            [
                "--player".to_string(),
                format!("{name}:{}@example.org", name.to_lowercase()),
            ]
        })
        .collect()
}

fn new_game(tmp: &Path, dir: &str, scenario: &str, n: usize, seed: &str) -> PathBuf {
    let path = tmp.join(dir);
    let mut args = vec![
        "new",
        path.to_str().expect("utf-8 path"),
        "--scenario",
        scenario,
        "--seed",
        seed,
    ];
    let ps = players(n);
    args.extend(ps.iter().map(String::as_str));
    let (code, out, err) = judge(&args, tmp);
    assert_eq!(code, 0, "judge new {scenario}: {out}{err}");
    path
}

/// Every file under `dir`, by relative path.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("under dir").to_path_buf();
                files.insert(rel, std::fs::read(&p).expect("read file"));
            }
        }
    }
    files
}

#[test]
fn scenarios_lists_the_bundled_ones_name_first() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (code, out, err) = judge(&["scenarios"], tmp.path());
    assert_eq!(code, 0, "{err}");
    let names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        names,
        [
            "five-ports",
            "four-shores",
            "jumpstart-duel",
            "polder-cities",
            "power-valley",
            "six-isles",
            "solo",
            "three-valleys",
            "two-rivers"
        ]
    );
    insta::assert_snapshot!(out);
}

#[test]
fn new_then_show_works_for_every_bundled_scenario() {
    let tmp = tempfile::tempdir().expect("tmp");
    for (name, n) in BUNDLED {
        let dir = new_game(tmp.path(), name, name, n, "11");
        let d = dir.to_str().expect("utf-8");
        let (code, text, err) = judge(&["show", d], tmp.path());
        assert_eq!(code, 0, "show {name}: {err}");
        assert!(text.contains("Turn 0") || text.contains("turn 0"), "{text}");
        assert!(
            text.lines().all(|l| l.chars().count() <= 78),
            "78 columns:\n{text}"
        );
        let (code, json, err) = judge(&["show", d, "--json", "--turn", "0"], tmp.path());
        assert_eq!(code, 0, "show --json {name}: {err}");
        let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        assert_eq!(value["scenario"], name);
        assert_eq!(value["players"].as_object().map(|p| p.len()), Some(n));
        // The JSON reads back as the same state.
        let state: pbem_judge::roads_boats::State = serde_json::from_str(&json).expect("state");
        assert_eq!(
            pbem_judge::archive::stable_json(&state).expect("json"),
            json
        );
    }
}

/// Deterministic: the same scenario, players and seed give the same archive, byte for
/// byte.
#[test]
fn two_new_games_with_the_same_seed_are_byte_identical() {
    let tmp = tempfile::tempdir().expect("tmp");
    // Two folders of the same name (the game's name is kept in game.toml).
    let a = new_game(tmp.path(), "a/spring", "four-shores", 4, "2026");
    let b = new_game(tmp.path(), "b/spring", "four-shores", 4, "2026");
    let (ta, tb) = (tree(&a), tree(&b));
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    assert_eq!(ta, tb);
    assert!(ta.contains_key(Path::new("turns/000/state.json")));
    assert!(ta.contains_key(Path::new("game.toml")));
    assert!(ta.contains_key(Path::new("scenario.toml")));
}

/// The bundled demo game in games/demo is exactly what `judge new` makes today with the
/// arguments in README.md; if the state format changes, regenerate it (docs/archive.md).
#[test]
fn the_bundled_demo_game_is_what_judge_new_makes() {
    let tmp = tempfile::tempdir().expect("tmp");
    let fresh = tmp.path().join("demo");
    support::new_demo(&fresh, "Ann", &[]);
    let mut demo = tree(Path::new("games/demo"));
    demo.retain(|p, _| !p.starts_with("pending"));
    assert_eq!(demo, tree(&fresh));
}

/// The demo game's pending orders check clean.
#[test]
fn the_demo_games_pending_orders_check_clean() {
    let tmp = tempfile::tempdir().expect("tmp");
    for p in ["red", "yellow"] {
        let file = format!("games/demo/pending/{p}.txt");
        let (code, out, err) = judge(&["check", "games/demo", &file], tmp.path());
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("0 errors, 0 warnings"), "{out}");
    }
}

/// A typo in a good's name gets the right name suggested, at the word.
#[test]
fn check_suggests_the_good_meant() {
    let tmp = tempfile::tempdir().expect("tmp");
    let file = tmp.path().join("orders.txt");
    std::fs::write(
        &file,
        "player red\nturn 1\nmovement\nmove D1: load 2 bords; C3\n",
    )
    .expect("write");
    let (code, out, _) = judge(
        &["check", "games/demo", file.to_str().expect("utf-8")],
        tmp.path(),
    );
    assert_eq!(code, 1);
    insta::assert_snapshot!(out);
}

/// A turn of the demo game, played on a copy: judge turn writes it, judge replay finds
/// it identical, and a second judge turn with no orders does not rewrite it.
#[test]
fn a_demo_turn_is_played_and_replays_identically() {
    let tmp = tempfile::tempdir().expect("tmp");
    let game = tmp.path().join("demo");
    support::new_demo(&game, "Ann", &[]);
    std::fs::create_dir(game.join("pending")).expect("pending");
    for p in ["red", "yellow"] {
        std::fs::copy(
            format!("games/demo/pending/{p}.txt"),
            game.join(format!("pending/{p}.txt")),
        )
        .expect("copy");
    }
    let g = game.to_str().expect("utf-8");
    let (code, out, err) = judge(&["turn", g], tmp.path());
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Turn 1 resolved"), "{out}");
    assert!(game.join("turns/001/orders/red.txt").is_file());
    assert!(
        !game.join("pending/red.txt").exists(),
        "used orders leave pending/"
    );
    let (code, out, err) = judge(&["replay", g], tmp.path());
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("turn 1: identical"), "{out}");
    let before = tree(&game.join("turns/001"));
    let (code, out, err) = judge(&["turn", g], tmp.path());
    assert_eq!(
        code, 0,
        "a second run with no orders waiting has nothing to do: {err}"
    );
    assert!(
        out.contains("Nothing to play: no orders are waiting"),
        "{out}"
    );
    assert!(!game.join("turns/002").exists(), "no turn is played twice");
    assert_eq!(
        tree(&game.join("turns/001")),
        before,
        "turn 1 is never rewritten"
    );
    let (code, out, _) = judge(&["show", g, "--turn", "1"], tmp.path());
    assert_eq!(code, 0);
    assert!(out.contains("sawmill"), "{out}");
}

#[test]
fn show_prints_the_demo_for_people() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (code, out, err) = judge(&["show", "games/demo"], tmp.path());
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!(out);
}

#[test]
fn mistakes_on_the_command_line_get_a_helpful_error() {
    let tmp = tempfile::tempdir().expect("tmp");
    let g = tmp.path().join("g");
    let g = g.to_str().expect("utf-8");
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "typo in scenario",
            vec![
                "new",
                g,
                "--scenario",
                "two-river",
                "--player",
                "A:a@b.org",
                "--player",
                "B:b@b.org",
            ],
        ),
        (
            "wrong player count",
            vec![
                "new",
                g,
                "--scenario",
                "two-rivers",
                "--player",
                "A:a@b.org",
            ],
        ),
        (
            "player without address",
            vec!["new", g, "--scenario", "solo", "--player", "Ann"],
        ),
        (
            "bad address",
            vec![
                "new",
                g,
                "--scenario",
                "solo",
                "--player",
                "Ann:ann-at-example",
            ],
        ),
        ("not a game", vec!["show", "."]),
        ("no such turn", vec!["show", "games/demo", "--turn", "9"]),
    ];
    let mut report = String::new();
    for (what, args) in cases {
        let (code, out, err) = judge(&args, tmp.path());
        assert_eq!(code, 1, "{what}: {out}{err}");
        assert!(
            !Path::new(g).exists(),
            "{what}: nothing is written on failure"
        );
        report.push_str(&format!("## {what}\n{err}\n"));
    }
    insta::assert_snapshot!(report);
}

#[test]
fn new_refuses_a_folder_that_is_already_a_game() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = new_game(tmp.path(), "g", "solo", 1, "1");
    let before = tree(&dir);
    let mut args = vec![
        "new",
        dir.to_str().expect("utf-8"),
        "--scenario",
        "solo",
        "--seed",
        "2",
    ];
    let ps = players(1);
    args.extend(ps.iter().map(String::as_str));
    let (code, _, err) = judge(&args, tmp.path());
    assert_eq!(code, 1);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(tree(&dir), before, "the old game is untouched");
}

#[test]
fn a_malformed_scenario_file_is_reported_not_created() {
    let tmp = tempfile::tempdir().expect("tmp");
    let g = tmp.path().join("g");
    let (code, _, err) = judge(
        &[
            "new",
            g.to_str().expect("utf-8"),
            "--scenario",
            "tests/scenarios/bad/river-ends-nowhere.toml",
            "--player",
            "A:a@b.org",
            "--player",
            "B:b@b.org",
        ],
        tmp.path(),
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("tests/scenarios/bad/river-ends-nowhere.toml:18:"),
        "{err}"
    );
    assert!(!g.exists());
}

/// The command line's help names the games from the registry, not
/// from a list of its own: every game's title in `judge --help`, its name under `--game`,
/// and every self-play a game offers under `judge selfplay`, which plays each.
#[test]
fn the_help_names_every_registered_game_and_self_play() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (_, top, _) = judge(&["--help"], tmp.path());
    let (_, new, _) = judge(&["new", "--help"], tmp.path());
    let (_, selfplay, _) = judge(&["selfplay", "--help"], tmp.path());
    // clap wraps long lines: compare with the whitespace run together.
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (top, new, selfplay) = (flat(&top), flat(&new), flat(&selfplay));
    for game in pbem_judge::games::all() {
        assert!(top.contains(game.title()), "{}: {top}", game.title());
        assert!(
            new.contains(&format!("`{}`", game.id())),
            "{}: {new}",
            game.id()
        );
        for kind in game.selfplay() {
            assert!(
                selfplay.contains(&format!("`{}` for {}", kind.id, kind.title)),
                "{selfplay}"
            );
            // A game without random legal-move games (Roads & Boats) plays its bots.
            if game.random_player(kind.id).is_none() {
                // Two of its bots: the first and the last (Roads & Boats' default
                // scenario is for two players).
                let names = game.bots(kind.id);
                let bots = format!("{},{}", names[0], names[names.len() - 1]);
                let (code, out, err) = judge(
                    &["selfplay", kind.id, "--games", "3", "--bots", &bots],
                    tmp.path(),
                );
                assert_eq!(code, 0, "{err}");
                assert!(
                    out.starts_with(&format!("3 games of {}", kind.title)),
                    "{out}"
                );
                continue;
            }
            let (code, out, err) = judge(
                &["selfplay", kind.id, "--games", "3", "--players", "4"],
                tmp.path(),
            );
            assert_eq!(code, 0, "{err}");
            assert!(
                out.starts_with(&format!("3 random games of {}", kind.title)),
                "{out}"
            );
        }
    }
}

/// A turn whose `events.json` is left out (as the Catan showcase
/// games leave it, docs/archive.md) has its events made again by playing the turn from
/// the state before it: the same bytes the turn kept, the same report, and `judge replay`
/// still finds every other file identical.
#[test]
fn events_left_out_of_an_archive_are_made_again_identical() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("two-rivers-2p");
    support::copy_dir(Path::new("games/two-rivers-2p"), &dir, &|_| true);
    let d = dir.to_str().expect("utf-8");
    let archive = pbem_judge::archive::Archive::open(&dir).expect("archive");
    let game = pbem_judge::games::by_id(&archive.game.game).expect("game");
    for turn in [1, 17, 32] {
        let (_, report, _) = judge(&["report", d, "--turn", &turn.to_string()], tmp.path());
        let file = archive.turn_dir(turn).join("events.json");
        let kept = std::fs::read_to_string(&file).expect("events.json");
        std::fs::remove_file(&file).expect("remove");
        let made = pbem_judge::pbem::report::events(&archive, game, turn).expect("events");
        assert_eq!(made, kept, "turn {turn}");
        let (code, again, err) = judge(&["report", d, "--turn", &turn.to_string()], tmp.path());
        assert_eq!((code, again), (0, report), "turn {turn}: {err}");
    }
    let (code, out, err) = judge(&["replay", d], tmp.path());
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("32 turns replayed, all identical"), "{out}");
}

/// A real game of the bundled two-player scenario, played to its end, kept as
/// an archive; judge replay re-resolves every turn and finds each state identical.
#[test]
fn the_two_player_showcase_game_replays_identically() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (code, out, err) = judge(&["replay", "games/two-rivers-2p"], tmp.path());
    assert_eq!(code, 0, "{out}{err}");
    let turns = out.lines().filter(|l| l.ends_with(": identical")).count();
    assert!(turns >= 20, "{turns} turns");
    // It reached a rich position: mines, a mint and a stock exchange, research, coins
    // made, and wonder bricks from both players.
    let (_, json, _) = judge(&["show", "games/two-rivers-2p", "--json"], tmp.path());
    let state: pbem_judge::roads_boats::State = serde_json::from_str(&json).expect("state");
    use pbem_judge::roads_boats::building::BuildingKind as B;
    for kind in [
        B::Mine,
        B::Mint,
        B::StockExchange,
        B::PaperMill,
        B::CoalBurner,
    ] {
        assert!(state.buildings.iter().any(|b| b.kind == kind), "no {kind}");
    }
    for c in state.players.keys() {
        let bricks = state
            .wonder
            .bricks
            .iter()
            .filter(|b| **b == pbem_judge::roads_boats::wonder::Brick::Player(*c))
            .count();
        assert!(bricks >= 5, "{c} has {bricks} bricks");
        assert!(
            !state.players[c].research.is_empty(),
            "{c} researched nothing"
        );
    }
    assert!(state.game_over.is_some());
}

/// `judge check --format json` is for tools; exit 0 clean, 1 errors, 2 usage.
#[test]
fn check_speaks_json_and_exits_by_outcome() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (code, out, _) = judge(
        &[
            "check",
            "games/demo",
            "games/demo/pending/red.txt",
            "--format",
            "json",
        ],
        tmp.path(),
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        (
            v["errors"].as_u64(),
            v["player"].as_str(),
            v["turn"].as_u64()
        ),
        (Some(0), Some("red"), Some(1))
    );
    assert!(v["echo"].as_array().is_some_and(|e| e.len() == 5), "{out}");

    let bad = tmp.path().join("bad.txt");
    std::fs::write(
        &bad,
        "player red\nturn 1\nbuilding\nbuild sawmil at C4 with D3\n",
    )
    .expect("write");
    let (code, out, _) = judge(
        &[
            "check",
            "games/demo",
            bad.to_str().expect("utf-8"),
            "--format",
            "json",
        ],
        tmp.path(),
    );
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let d = &v["diagnostics"][0];
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(4), Some(7)),
        "{out}"
    );
    assert_eq!(d["help"].as_str(), Some("did you mean `sawmill`?"));

    let (code, _, err) = judge(&["check", "games/demo"], tmp.path());
    assert_eq!(code, 2, "usage error: {err}");
}

/// `judge cases DIR` runs the `*.toml` files under DIR, as its help says,
/// not a README or notes beside them; a file named on the command line is run whatever
/// it is called.
#[test]
fn cases_in_a_folder_are_its_toml_files_only() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("mine");
    std::fs::create_dir_all(dir.join("more")).expect("mkdir");
    let case = "tests/cases/movement/a-move-to-where-it-stands-says-it-stayed.toml";
    std::fs::copy(case, dir.join("more/stayed.toml")).expect("copy");
    std::fs::write(dir.join("README.md"), "# My cases\n\nWhat they check.\n").expect("write");
    std::fs::write(dir.join("more/notes.txt"), "to do: rivers\n").expect("write");
    let d = dir.to_str().expect("utf-8");
    let (code, out, err) = judge(&["cases", d], tmp.path());
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
    assert!(!out.contains("README") && !out.contains("notes"), "{out}");
    let (code, _, err) = judge(&["cases", &format!("{d}/nothing-here")], tmp.path());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no such file or folder"), "{err}");
}

/// A deadline moved into the past is refused (the next `judge turn` would
/// play the turn at once, while the players were just told they may still send
/// orders), by `--at` or by a negative `--extend`; `--past` means it, and the players
/// are told the turn is played now.
#[test]
fn a_deadline_in_the_past_is_refused_unless_the_gm_says_past() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("demo");
    let d = dir.to_str().expect("utf-8");
    let now = [("JUDGE_NOW", "2026-12-06T00:00:00Z")];
    support::new_demo(&dir, "Ann", &now);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str("\n[mail]\nfrom = \"judge@example.org\"\npickup = \"pickup\"\n\n[schedule]\nfirst_deadline = \"2026-12-10T18:00:00Z\"\nevery = \"2days\"\n");
    std::fs::write(dir.join("game.toml"), &toml).expect("write");
    support::ignore_pickup(&dir);
    for when in [
        ["--at", "2026-12-01T00:00:00Z"],
        ["--extend", "-5days"],
        ["--at", "2026-12-06T00:00:00Z"],
    ] {
        let (code, out, err) = support::judge_text(&["deadline", d, when[0], when[1]], &now);
        assert_eq!(code, 1, "{when:?}: {out}{err}");
        assert!(
            err.contains("has already passed") && err.contains("--past"),
            "{when:?}: {err}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("game.toml")).expect("toml"),
            toml,
            "{when:?}: nothing changed"
        );
        assert!(!dir.join("pickup").exists(), "{when:?}: nobody told");
    }
    let (code, out, err) = support::judge_text(&["deadline", d, "--extend", "-2days"], &now);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("to 2026-12-08 at 18:00:00 UTC"), "{out}");
    let (code, out, err) = support::judge_text(
        &["deadline", d, "--at", "2026-12-01T00:00:00Z", "--past"],
        &now,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("to 2026-12-01 at 00:00:00 UTC"), "{out}");
    let told: Vec<String> = std::fs::read_dir(dir.join("pickup"))
        .expect("pickup")
        .map(|e| std::fs::read_to_string(e.expect("entry").path()).expect("mail"))
        .filter(|m| m.contains("2026-12-01 at 00:00:00 UTC"))
        .collect();
    assert_eq!(told.len(), 2, "both players told");
    assert!(
        told.iter()
            .all(|m| m.contains("the turn is played now") && !m.contains("you may replace")),
        "{told:?}"
    );
}

/// `judge deadline --help` documents `--past`.
#[test]
fn deadline_help_names_past() {
    let (code, out, _) = support::judge_text(&["deadline", "--help"], &[]);
    assert_eq!(code, 0);
    assert!(
        out.contains("--past") && out.contains("already passed"),
        "{out}"
    );
}

/// No command panics when the reader of its output stops reading
/// (`judge completions zsh | head -3`): a closed pipe ends the run quietly, exit 0.
/// Each command here writes to a pipe whose reading end is already closed, so its first
/// write fails, however short the output.
#[test]
fn a_closed_pipe_is_a_quiet_exit_for_every_command_that_prints() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("demo");
    support::new_demo(&dir, "Ann", &[]);
    let d = dir.to_str().expect("utf-8");
    let orders = "games/demo/pending/red.txt";
    let case = "tests/cases/movement/a-move-to-where-it-stands-says-it-stayed.toml";
    let commands: Vec<Vec<&str>> = vec![
        vec!["completions", "bash"],
        vec!["completions", "zsh"],
        vec!["completions", "fish"],
        vec!["completions", "elvish"],
        vec!["completions", "powershell"],
        vec!["man"],
        vec!["--help"],
        vec!["turn", "--help"],
        vec!["--version"],
        vec!["scenarios"],
        vec!["scenarios", "--game", "catan"],
        vec!["show", d],
        vec!["show", d, "--json"],
        vec!["status", d],
        vec!["report", d],
        vec!["report", d, "--format", "svg"],
        vec!["check", d, orders],
        vec!["check", d, orders, "--format", "json"],
        vec!["cases", case],
        vec!["cases", "--table", case],
        vec!["replay", d],
        vec!["verify", d],
        vec!["selfplay", "catan", "--games", "1"],
    ];
    for args in commands {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
            .args(&args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("judge runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !err.contains("panicked") && err.is_empty(),
            "judge {args:?}: {err}"
        );
        assert_eq!(out.status.code(), Some(0), "judge {args:?}: {err}");
    }
}

/// Every command given a folder that is not a game's — one that does not
/// exist, a file, a folder without game.toml — says so and exits 1 ("your input needs
/// fixing", `judge --help`), never 3 ("try again later") from the lock it could not
/// take; and it leaves nothing behind in that folder. The table names every subcommand:
/// a new one must be added here (or to those that take no game folder).
#[test]
fn a_folder_that_is_not_a_game_is_exit_1_for_every_command() {
    use clap::CommandFactory;
    let tmp = tempfile::tempdir().expect("tmp");
    let file = tmp.path().join("notes.txt");
    std::fs::write(&file, "not a game\n").expect("write");
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).expect("mkdir");
    let missing = tmp.path().join("missing");
    let out = tmp.path().join("site");
    let o = out.to_str().expect("utf-8");
    // Each command with DIR standing for the folder given.
    let table: Vec<(&str, Vec<&str>)> = vec![
        ("show", vec!["show", "DIR"]),
        ("show", vec!["show", "DIR", "--json"]),
        ("status", vec!["status", "DIR"]),
        ("check", vec!["check", "DIR", "-"]),
        ("turn", vec!["turn", "DIR"]),
        ("turn", vec!["turn", "DIR", "--dry-run"]),
        ("report", vec!["report", "DIR"]),
        ("replay", vec!["replay", "DIR"]),
        ("secret", vec!["secret", "DIR"]),
        ("ingest", vec!["ingest", "DIR", "--again", "1"]),
        ("mail", vec!["mail", "DIR"]),
        ("deadline", vec!["deadline", "DIR", "--extend", "1h"]),
        ("site", vec!["site", "DIR", "-o", o]),
        ("reveal", vec!["reveal", "DIR", "--now"]),
        ("verify", vec!["verify", "DIR"]),
        ("end", vec!["end", "DIR", "--why", "stalled"]),
        ("pause", vec!["pause", "DIR"]),
        ("resume", vec!["resume", "DIR"]),
        ("bot", vec!["bot", "DIR", "red"]),
        (
            "replace",
            vec!["replace", "DIR", "red", "--by", "Zoe:zoe@example.org"],
        ),
    ];
    // Commands that take no game folder, and how they meet a wrong path.
    let others: Vec<(&str, Vec<&str>, &Path)> = vec![
        (
            "new",
            vec!["new", "DIR", "--scenario", "solo", "--player", "A:a@b.org"],
            &file,
        ),
        ("cases", vec!["cases", "DIR"], &missing),
        ("serve", vec!["serve", "DIR"], &missing),
        ("ratings", vec!["ratings", "DIR"], &missing),
        ("scenarios", vec!["scenarios", "DIR"], &missing),
    ];
    let no_folder = ["completions", "man", "selfplay", "help"];
    let all: std::collections::BTreeSet<String> = pbem_judge::cli::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .chain(["help".to_string()])
        .collect();
    let covered: std::collections::BTreeSet<String> = table
        .iter()
        .map(|(n, _)| *n)
        .chain(others.iter().map(|(n, _, _)| *n))
        .chain(no_folder)
        .map(str::to_string)
        .collect();
    assert_eq!(all, covered, "every subcommand is in the table");
    let help = pbem_judge::cli::exit_codes();
    assert!(help.contains("1  your input needs fixing"), "{help}");
    let mut report = String::new();
    for (_, args) in &table {
        for (kind, dir) in [
            ("missing", &missing),
            ("a file", &file),
            ("no game.toml", &empty),
        ] {
            let d = dir.to_str().expect("utf-8");
            let args: Vec<&str> = args
                .iter()
                .map(|a| if *a == "DIR" { d } else { a })
                .collect();
            let (code, out, err) = judge(&args, tmp.path());
            if code != 1 || !out.is_empty() {
                report.push_str(&format!(
                    "judge {args:?} ({kind}) exited {code}: {out}{err}\n"
                ));
            }
            let said = match kind {
                "missing" => "there is no folder",
                "a file" => "is a file, not a game's folder",
                _ => "it has no game.toml",
            };
            if !err.contains(said) {
                report.push_str(&format!("judge {args:?} ({kind}) said: {err}\n"));
            }
        }
    }
    for (_, args, dir) in &others {
        let d = dir.to_str().expect("utf-8");
        let args: Vec<&str> = args
            .iter()
            .map(|a| if *a == "DIR" { d } else { a })
            .collect();
        let (code, out, err) = judge(&args, tmp.path());
        if code != 1 {
            report.push_str(&format!("judge {args:?} exited {code}: {out}{err}\n"));
        }
    }
    assert!(report.is_empty(), "{report}");
    assert!(!missing.exists(), "nothing made where nothing was");
    assert_eq!(
        std::fs::read_dir(&empty).expect("empty").count(),
        0,
        "nothing left in a folder that is not a game's (no lock file)"
    );
    assert!(!out.exists(), "no site made");
}

/// What a new GM reads says what the judge does. `judge --help` and the
/// crate name every game; `JUDGE_NOW` (how to try a deadline out, and how the tests set
/// the clock) is in `judge turn --help` and the GM guide, and so are the IMAP keys of
/// `[mail]`; docs/rules.md does not call the &cetera modules unimplemented; docs/orders.md
/// says what happens to a greeting (it is left out), not that it is an error.
#[test]
fn the_docs_say_what_the_judge_does() {
    let (_, help, _) = support::judge_text(&["--help"], &[]);
    let (_, turn, _) = support::judge_text(&["turn", "--help"], &[]);
    let description = env!("CARGO_PKG_DESCRIPTION");
    let lib = std::fs::read_to_string("src/lib.rs").expect("lib.rs");
    let crate_doc: String = lib
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .collect::<Vec<_>>()
        .join(" ");
    for (what, text) in [
        ("judge --help", help.as_str()),
        ("Cargo.toml", description),
        ("src/lib.rs", crate_doc.as_str()),
    ] {
        assert!(
            text.contains("Roads & Boats")
                && text.contains("Catan")
                && text.contains("Catan Express"),
            "{what}: {text}"
        );
    }
    assert!(turn.contains("JUDGE_NOW"), "{turn}");
    let guide = std::fs::read_to_string("docs/gm-guide.md").expect("guide");
    for key in ["JUDGE_NOW", "imap_port", "imap_security", "--past"] {
        assert!(guide.contains(key), "the GM guide names {key}");
    }
    let rules = std::fs::read_to_string("docs/rules.md").expect("rules");
    assert!(!rules.contains("not implemented yet"), "docs/rules.md");
    let orders = std::fs::read_to_string("docs/orders.md").expect("orders");
    assert!(
        !orders.contains("on its own line is an error")
            && orders.to_lowercase().contains("a greeting before"),
        "docs/orders.md"
    );
}

/// `judge end DIR --why TEXT` ends a Roads & Boats game before its next turn,
/// scored as at its natural end (RULINGS R8), the reason in the report; it replays, and
/// nothing more is played.
#[test]
fn the_gm_ends_a_roads_and_boats_game_scored_by_its_rules() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("demo");
    support::new_demo(&dir, "Ann", &[]);
    let d = dir.to_str().expect("utf-8");
    let (code, out, err) = support::judge_text(&["end", d, "--why", "a short test game"], &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Turn 1: the GM ended the game."), "{out}");
    assert!(
        out.contains("the GM ended it (a short test game); final score"),
        "{out}"
    );
    let report = std::fs::read_to_string(dir.join("turns/001/report.txt")).expect("report");
    assert!(
        report.contains("the GM ended it (a short test game)"),
        "{report}"
    );
    let (code, out, _) = support::judge_text(&["replay", d], &[]);
    assert_eq!(code, 0, "{out}");
    let (code, _, err) = support::judge_text(&["end", d, "--why", "again"], &[]);
    assert_eq!(code, 1);
    assert!(err.contains("over already"), "{err}");
    let (code, _, err) = support::judge_text(&["end", d, "--why", "  "], &[]);
    assert_eq!(code, 1, "{err}");
}

/// Every file of the repository that a `--help` text names exists.
/// `judge serve --help` named `deploy/systemd/judge-serve@.service`, a file the repository
/// never had (it is `deploy/systemd/judge-serve.service`). Every help text of every
/// command and subcommand is read; a word that names a path under one of the
/// repository's own top folders, or a Markdown file, must be there.
#[test]
fn every_path_a_help_text_names_exists() {
    use clap::CommandFactory;
    fn all_help(cmd: &mut clap::Command, out: &mut Vec<(String, String)>, name: &str) {
        let text = cmd.render_long_help().to_string();
        out.push((name.to_string(), text));
        for sub in cmd.get_subcommands_mut() {
            let sub_name = format!("{name} {}", sub.get_name());
            all_help(sub, out, &sub_name);
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tops: Vec<String> = std::fs::read_dir(root)
        .expect("the repository")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        // `games/spring` in the examples is the GM's own folder of games, not the
        // repository's `games/`.
        .filter(|n| !n.starts_with('.') && n != "target" && n != "games")
        .collect();
    let mut helps = Vec::new();
    let mut cmd = pbem_judge::cli::Cli::command();
    cmd.build();
    all_help(&mut cmd, &mut helps, "judge");
    let mut named = Vec::new();
    let mut missing = Vec::new();
    for (command, text) in &helps {
        for word in text.split_whitespace() {
            let word = word.trim_matches(|c: char| "()[]{},.;:'\"`<>".contains(c));
            let first = word.split('/').next().unwrap_or("");
            let is_path = (word.contains('/') && tops.iter().any(|t| t == first))
                || (word.ends_with(".md") && !word.contains(' '));
            if !is_path {
                continue;
            }
            named.push(word.to_string());
            if !root.join(word).exists() {
                missing.push(format!("`{command} --help` names {word}"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    // The check reads what it means to: the help names these, and they are found.
    for known in ["docs/gm-guide.md", "deploy/systemd/judge-serve.service"] {
        assert!(
            named.iter().any(|n| n == known),
            "{known} not seen in {named:?}"
        );
    }
}

/// "`selfplay --games 20` says \"seeds 1..21\"": games are played
/// with the seeds `--seed`, `--seed` + 1, … , `--seed` + games − 1, and the summary names
/// those, first and last (one game, its one seed), in random self-play and with bots.
#[test]
fn selfplay_names_the_seeds_it_played() {
    let tmp = tempfile::tempdir().expect("tmp");
    for (args, said) in [
        (
            vec!["selfplay", "catan", "--games", "20", "--seed", "1"],
            "seeds 1 to 20\n",
        ),
        (
            vec!["selfplay", "catan", "--games", "1", "--seed", "5"],
            "seed 5\n",
        ),
        (
            vec![
                "selfplay",
                "catan",
                "--bots",
                "greedy,random,random",
                "--games",
                "3",
                "--seed",
                "7",
            ],
            "seeds 7 to 9\n",
        ),
    ] {
        let (code, out, err) = judge(&args, tmp.path());
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        let first = out.lines().next().unwrap_or("");
        assert!(
            format!("{first}\n").ends_with(&format!(", {said}")),
            "{args:?}: {out}"
        );
    }
}

/// The exit codes are written once, in `EXIT_TABLE`; the table in
/// docs/architecture.md ("Exit codes") must list every row of it, code, name and meaning
/// (its lines joined), and nothing else — so the docs cannot fall behind the judge again
/// (they listed only 1, 5 and 6).
#[test]
fn the_exit_code_table_in_the_docs_is_the_judges() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .expect("docs/architecture.md reads");
    let section = docs
        .split("\n### Exit codes\n")
        .nth(1)
        .expect("docs/architecture.md has a section \"Exit codes\"");
    let section = section.split("\n#").next().unwrap_or(section);
    let documented: Vec<String> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| code "))
        .map(str::to_string)
        .collect();
    let judges: Vec<String> = pbem_judge::cli::EXIT_TABLE
        .iter()
        .map(|row| {
            format!(
                "| {} | {} | {} |",
                row.code,
                row.name,
                row.meaning.join(" ")
            )
        })
        .collect();
    assert_eq!(documented, judges);
}

/// The table is the one source of the exit codes, so each exit
/// has exactly one row, the numbers run 0, 1, 2, … in order, and names are unique.
#[test]
fn every_exit_has_one_row_and_the_codes_run_in_order() {
    for exit in pbem_judge::cli::Exit::ALL {
        let rows = pbem_judge::cli::EXIT_TABLE
            .iter()
            .filter(|row| row.exit == exit)
            .count();
        assert_eq!(rows, 1, "{exit:?} has {rows} rows");
        assert_eq!(exit.row().exit, exit);
    }
    for (i, row) in pbem_judge::cli::EXIT_TABLE.iter().enumerate() {
        assert_eq!(usize::try_from(row.code), Ok(i), "{row:?}");
        assert_eq!(row.exit, pbem_judge::cli::Exit::ALL[i], "{row:?}");
        assert!(!row.meaning.is_empty(), "{row:?}");
        let same = pbem_judge::cli::EXIT_TABLE
            .iter()
            .filter(|r| r.name == row.name)
            .count();
        assert_eq!(same, 1, "the name {} is used {same} times", row.name);
    }
}

/// `--help` says every row of the table, its number before its
/// first line and its other lines indented under it.
#[test]
fn the_help_text_is_made_from_the_table() {
    let help = pbem_judge::cli::exit_codes();
    let mut lines = help.lines();
    assert_eq!(lines.next(), Some("Exit status (for scripts and cron):"));
    for row in &pbem_judge::cli::EXIT_TABLE {
        for (i, meaning) in row.meaning.iter().enumerate() {
            let want = if i == 0 {
                format!("  {}  {meaning}", row.code)
            } else {
                format!("     {meaning}")
            };
            assert_eq!(lines.next(), Some(want.as_str()));
        }
    }
    assert_eq!(lines.next(), None);
}
