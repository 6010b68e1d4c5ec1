//! Nothing lost, nothing twice — crashes, hostile input and a replay that cannot
//! be fooled. Each test names the point it proves; each failed before its fix.

use crate::support;

use std::path::{Path, PathBuf};

fn judge(args: &[&str], now: &str) -> (i32, String, String) {
    support::judge_text(args, &[("JUDGE_NOW", now)])
}

const NOW: &str = "2026-12-01T12:00:00Z";

/// The demo game in `tmp/demo`, mail going to a pickup folder; returns the folder.
fn demo(tmp: &Path) -> PathBuf {
    let dir = tmp.join("demo");
    support::new_demo(&dir, "Ann", &[]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str("\n[mail]\nfrom = \"judge@example.org\"\npickup = \"pickup\"\n");
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    support::ignore_pickup(&dir);
    dir
}

fn copy_pending(dir: &Path) {
    std::fs::create_dir_all(dir.join("pending")).expect("pending");
    for p in ["red", "yellow"] {
        std::fs::copy(
            format!("games/demo/pending/{p}.txt"),
            dir.join(format!("pending/{p}.txt")),
        )
        .expect("copy");
    }
}

/// 10.5: a turn killed after it was written but before its orders left pending/ is
/// finished by the next run, which never plays those orders again.
#[test]
fn p5_a_turn_killed_before_clearing_its_orders_is_finished_not_played_again() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = demo(tmp.path());
    let d = dir.to_str().expect("utf-8");
    copy_pending(&dir);
    assert_eq!(judge(&["turn", d], NOW).0, 0);
    // Put the state back as a kill between writing turn 1 and clearing would leave it:
    // the orders moved aside for turn 1, still there.
    let stage = dir.join("pending/.turn-001");
    std::fs::create_dir_all(&stage).expect("stage");
    for p in ["red", "yellow"] {
        std::fs::copy(
            dir.join(format!("turns/001/orders/{p}.txt")),
            stage.join(format!("{p}.txt")),
        )
        .expect("copy");
    }
    let (code, out, err) = judge(&["turn", d], NOW);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Nothing to play"), "{out}");
    assert!(
        !dir.join("turns/002").exists(),
        "turn 1's orders are not played as turn 2"
    );
    assert!(!stage.exists(), "the next run finishes the clearing");
    // Killed before the turn was written: the orders go back to pending/.
    std::fs::create_dir_all(dir.join("pending/.turn-002")).expect("stage");
    std::fs::copy(
        "games/demo/pending/red.txt",
        dir.join("pending/.turn-002/red.txt"),
    )
    .expect("copy");
    let (_, out, _) = judge(&["turn", d], NOW);
    assert!(
        out.contains("turn 2 was not written by an earlier run"),
        "{out}"
    );
    assert!(
        dir.join("pending/red.txt").is_file(),
        "back where they were"
    );
    assert!(!dir.join("pending/.turn-002").exists());
}

/// 10.8: one file per player; a second for the same player is refused, not played, and
/// left where it is.
#[test]
fn p8_a_second_pending_file_for_a_player_is_refused() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = demo(tmp.path());
    let d = dir.to_str().expect("utf-8");
    copy_pending(&dir);
    let other = std::fs::read_to_string("games/demo/pending/red.txt")
        .expect("red")
        .replace("move D1: load 1 board; C3", "move D1: C3");
    std::fs::write(dir.join("pending/zz-red-again.txt"), other).expect("write");
    let (code, out, err) = judge(&["turn", d], NOW);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("refused pending/zz-red-again.txt: it is a second file for red; only pending/red.txt is played"),
        "{out}"
    );
    assert!(
        dir.join("pending/zz-red-again.txt").is_file(),
        "left for the GM"
    );
    let played = std::fs::read_to_string(dir.join("turns/001/orders/red.txt")).expect("red");
    assert!(
        played.contains("load 1 board; C3"),
        "the player's own file was played"
    );
}

/// 10.10: junk, and a forged mail, are each logged and answered once, not on every run.
#[test]
fn p10_every_mail_is_handled_once_however_it_ends() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = demo(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let junk = format!(
        "From: ann@example.org\r\nSubject: junk\r\nMessage-ID: <junk@x>\r\n\r\n{}",
        "nonsense line of junk\r\n".repeat(80_000)
    );
    let forged = format!(
        "From: ann@example.org\r\nSubject: big\r\nMessage-ID: <big@x>\r\n\r\n{}",
        "x".repeat(3 * 1024 * 1024)
    );
    let a = tmp.path().join("junk.eml");
    let b = tmp.path().join("big.eml");
    std::fs::write(&a, junk).expect("write");
    std::fs::write(&b, forged).expect("write");
    let args = [
        "ingest",
        d,
        a.to_str().expect("utf-8"),
        b.to_str().expect("utf-8"),
    ];
    let (code, out, err) = judge(&args, NOW);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("refused"), "{out}");
    let (code, again, _) = judge(&args, NOW);
    assert_eq!(code, 0);
    assert_eq!(
        again.trim(),
        "skipped 2 mails already filed",
        "one line for both"
    );
    let log = std::fs::read_to_string(dir.join("mail/log.jsonl")).expect("log");
    assert_eq!(log.lines().count(), 2, "{log}");
    let answers = std::fs::read_dir(dir.join("pickup"))
        .expect("pickup")
        .count();
    assert_eq!(answers, 2, "each answered once");
}

/// 10.9: a 50 MB order file is refused at once, without reading it all.
#[test]
fn p9_a_huge_order_file_is_refused_quickly() {
    let tmp = tempfile::tempdir().expect("tmp");
    let big = tmp.path().join("big.txt");
    let f = std::fs::File::create(&big).expect("create");
    f.set_len(50 * 1024 * 1024).expect("size");
    let start = std::time::Instant::now();
    let (code, _, err) = judge(&["check", "games/demo", big.to_str().expect("utf-8")], NOW);
    assert_eq!(code, 1);
    assert!(
        err.contains("order files are read up to 1048576 bytes"),
        "{err}"
    );
    // Not a timing test of speed, only that it did not read 50 MB line by line.
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
}

/// 10.11: absurd durations in [schedule] are refused when game.toml is read, naming the
/// key, never a panic.
#[test]
fn p11_absurd_schedules_name_their_key() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = demo(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let toml = dir.join("game.toml");
    let base = std::fs::read_to_string(&toml).expect("toml");
    for every in ["500000000000years", "1000000000years"] {
        std::fs::write(
            &toml,
            format!("{base}\n[schedule]\nfirst_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"{every}\"\n"),
        )
        .expect("write");
        for cmd in ["status", "turn", "show"] {
            let (code, _, err) = judge(&[cmd, d], NOW);
            assert_eq!(code, 1, "{cmd}: {err}");
            assert!(
                err.contains(&format!("[schedule] every = \"{every}\"")),
                "{err}"
            );
            assert!(!err.contains("panicked"), "{err}");
        }
    }
}

/// 10.12: judge new refuses an address the mail library cannot use, and two seats with
/// one address; a bad address edited into game.toml stops only that player's mail.
#[test]
fn p12_addresses_are_checked_by_the_mail_library() {
    let tmp = tempfile::tempdir().expect("tmp");
    let g = tmp.path().join("g");
    let g = g.to_str().expect("utf-8");
    let (code, _, err) = judge(
        &[
            "new",
            g,
            "--scenario",
            "two-rivers",
            "--player",
            "A:b..ob@example.org",
            "--player",
            "B:b@example.org",
        ],
        NOW,
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("`b..ob@example.org` is not a mail address"),
        "{err}"
    );
    let (code, _, err) = judge(
        &[
            "new",
            g,
            "--scenario",
            "two-rivers",
            "--player",
            "A:same@example.org",
            "--player",
            "B:Same@example.org",
        ],
        NOW,
    );
    assert_eq!(code, 1);
    assert!(err.contains("have the same address"), "{err}");
    assert!(!Path::new(g).exists(), "nothing written");
    // A bad address in game.toml: the other player still gets their report.
    let dir = demo(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let toml = dir.join("game.toml");
    let t = std::fs::read_to_string(&toml)
        .expect("toml")
        .replace("ann@example.org", "b..ob@example.org");
    std::fs::write(&toml, t).expect("write");
    copy_pending(&dir);
    let (code, out, err) = judge(&["turn", d], NOW);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("red's report was not queued"), "{out}");
    assert!(dir.join("pickup/report-001-yellow.eml").is_file());
    let (_, status, _) = judge(&["status", d], NOW);
    assert!(
        status.contains("warning: red's address in game.toml"),
        "{status}"
    );
}

/// 10.13: a byte that is not UTF-8 in a pending file: judge check and judge turn agree
/// (both read it as Windows-1252, and say so, naming the file and the player).
#[test]
fn p13_check_and_turn_agree_on_a_latin1_file() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = demo(tmp.path());
    let d = dir.to_str().expect("utf-8");
    copy_pending(&dir);
    let mut bytes = std::fs::read(dir.join("pending/red.txt")).expect("red");
    bytes.extend_from_slice(b"# caf\xe9\n");
    std::fs::write(dir.join("pending/red.txt"), &bytes).expect("write");
    let red = dir.join("pending/red.txt");
    let (code, out, _) = judge(&["check", d, red.to_str().expect("utf-8")], NOW);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("not UTF-8") && out.contains("0 errors"),
        "{out}"
    );
    let (code, out, err) = judge(&["turn", d], NOW);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("pending/red.txt (red's orders): the file is not UTF-8"),
        "{out}"
    );
    assert!(dir.join("turns/001/orders/red.txt").is_file());
}

/// 10.14: counts at the top of the integer range are refused with a message, not
/// wrapped around.
#[test]
fn p14_impossible_counts_are_refused() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = demo(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let state = dir.join("turns/000/state.json");
    let text = std::fs::read_to_string(&state).expect("state").replacen(
        "\"boards\": 5",
        "\"boards\": 4294967295",
        1,
    );
    std::fs::write(&state, text).expect("write");
    copy_pending(&dir);
    let (code, _, err) = judge(&["turn", d], NOW);
    // A state the judge did not write is a damaged archive, not the player's input: exit 5,
    // said so first.
    assert_eq!(code, 5, "{err}");
    assert!(
        err.starts_with("error: the game's archive is damaged: ")
            && err.contains("4294967295 boards at")
            && err.contains("edited by hand"),
        "{err}"
    );
}

/// The kind of a problem decides the exit code, in one place. A
/// player's or GM's slip exits 1; a state file that does not read (either game's) exits 5
/// and names the file; neither is taken for the other.
#[test]
fn a_damaged_state_exits_5_and_a_slip_exits_1() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = demo(tmp.path());
    let d = dir.to_str().expect("utf-8");
    // A slip: a turn the archive does not have.
    let (code, _, err) = judge(&["show", d, "--turn", "9"], NOW);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("damaged"), "{err}");
    let state = dir.join("turns/000/state.json");
    std::fs::write(&state, "{\"players\": [").expect("write");
    let (code, _, err) = judge(&["show", d], NOW);
    assert_eq!(code, 5, "{err}");
    assert!(
        err.starts_with("error: the game's archive is damaged: ")
            && err.contains("turns/000/state.json")
            && err.contains("does not read as a Roads & Boats game"),
        "{err}"
    );
    // The same for Catan.
    let catan = tmp.path().join("catan");
    let c = catan.to_str().expect("utf-8");
    let (code, out, err) = judge(
        &[
            "new",
            c,
            "--game",
            "catan",
            "--seed",
            "3",
            "--player",
            "A:a@example.org",
            "--player",
            "B:b@example.org",
            "--player",
            "C:c@example.org",
        ],
        NOW,
    );
    assert_eq!(code, 0, "{out}{err}");
    std::fs::write(catan.join("turns/000/state.json"), "[]").expect("write");
    let (code, _, err) = judge(&["show", c], NOW);
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("does not read as a Catan game"), "{err}");
}

/// 10.15: replay rebuilds turn 0 from the scenario and the seed: a hand-edited turn 0 is
/// found out.
#[test]
fn p15_a_tampered_turn_0_does_not_replay() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = demo(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let state = dir.join("turns/000/state.json");
    let text = std::fs::read_to_string(&state).expect("state").replacen(
        "\"boards\": 5",
        "\"boards\": 50",
        1,
    );
    std::fs::write(&state, text).expect("write");
    let (code, out, _) = judge(&["replay", d], NOW);
    assert_eq!(code, 1);
    assert!(
        out.contains("turn 0: state.json differs from line"),
        "{out}"
    );
}

/// 10.16 and 10.17: a renamed folder replays identically (the name is the archive's);
/// a deleted middle turn is reported as missing (by every
/// command, naming the turn after the gap).
#[test]
fn p16_17_replay_of_a_renamed_folder_and_a_missing_turn() {
    let tmp = tempfile::tempdir().expect("tmp");
    let copy = tmp.path().join("renamed-copy");
    let status = std::process::Command::new("cp")
        .args(["-r", "games/two-rivers-2p"])
        .arg(&copy)
        .status()
        .expect("cp");
    assert!(status.success());
    let c = copy.to_str().expect("utf-8");
    let (code, out, err) = judge(&["replay", c], NOW);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::remove_dir_all(copy.join("turns/016")).expect("rm");
    let (code, out, err) = judge(&["replay", c], NOW);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("turns/017: turn 016 is missing before it"),
        "{err}"
    );
    assert!(err.contains("put it back (from git)"), "{err}");
}
