//! Issue 21, "the GM's slips are caught before they hurt": a deadline moved absurdly far,
//! a hand-edited game.toml that seats one player twice, a stray folder under turns/.
//! Each is refused with exit 1, naming what is wrong and where, and no command panics.

mod support;

use std::path::{Path, PathBuf};

const NOW: &str = "2026-11-01T00:00:00Z";

fn judge(args: &[&str]) -> (i32, String, String) {
    support::judge_text(args, &[("JUDGE_NOW", NOW)])
}

/// The demo game (red Ann, yellow Bob) with turn 1 due 2026-12-01 18:00, weekly after.
fn game(tmp: &Path) -> PathBuf {
    let dir = tmp.join("demo");
    support::new_demo(&dir, "Ann", &[("JUDGE_NOW", NOW)]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str("\n[schedule]\nfirst_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"7days\"\n");
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    dir
}

/// No run ends in a panic (exit 101) or says nothing.
fn no_panic(what: &str, code: i32, err: &str) {
    assert_ne!(code, 101, "{what} panicked: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

/// Issue 21, point 11: `deadline --at 9999-12-31T23:59:59Z` was accepted, and then
/// `deadline --extend 365days` and `turn --force` panicked formatting a time past the
/// year 9999. A deadline more than a year away is refused (exit 1) saying why, game.toml
/// is left as it was, and the game plays on.
#[test]
fn p11_a_far_deadline_is_refused_and_nothing_panics() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = game(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let before = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    for args in [
        ["deadline", d, "--at", "9999-12-31T23:59:59Z", "--quiet"],
        ["deadline", d, "--at", "2028-06-01T00:00:00Z", "--quiet"],
        ["deadline", d, "--at", "2025-06-01T00:00:00Z", "--past"],
    ] {
        let (code, out, err) = judge(&args);
        no_panic(&args.join(" "), code, &err);
        assert_eq!(code, 1, "{args:?} is refused as the GM's slip: {out}{err}");
        assert!(err.contains("more than a year"), "{args:?}: {err}");
        assert!(err.contains("turn 1"), "{args:?} names the turn: {err}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("game.toml")).expect("toml"),
        before,
        "a refused deadline changes nothing"
    );
    // A year past the current deadline is allowed; the next is a year past that one.
    let (code, out, err) = judge(&["deadline", d, "--extend", "365days", "--quiet"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("to 2027-12-01 at 18:00:00 UTC"), "{out}");
    let (code, out, err) = judge(&["turn", d, "--force"]);
    no_panic("turn --force", code, &err);
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.join("turns/001/state.json").is_file(), "{out}");
    let (code, out, err) = judge(&["status", d]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Deadline for turn 2: 2027-12-08 at 18:00:00 UTC"),
        "later deadlines follow on from the moved one: {out}"
    );
}

/// Issue 21, point 11: game.toml edited by hand to a deadline out of range is named with
/// its line, for every command that reads it; the turn after a far deadline is an error,
/// not a panic.
#[test]
fn p11_a_hand_edited_far_deadline_is_named_with_its_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = game(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let path = dir.join("game.toml");
    let good = std::fs::read_to_string(&path).expect("toml");
    for (edit, key) in [
        (
            good.replace("2026-12-01T18:00:00Z", "9999-12-31T23:59:59Z"),
            "first_deadline",
        ),
        (
            format!("{good}\n[schedule.moved]\n1 = \"9999-12-31T23:59:59Z\"\n"),
            "moved.1",
        ),
    ] {
        std::fs::write(&path, &edit).expect("write");
        let line = edit
            .lines()
            .position(|l| l.contains("9999"))
            .expect("the line")
            + 1;
        for args in [
            vec!["status", d],
            vec!["turn", d, "--force"],
            vec!["deadline", d, "--extend", "1h", "--quiet"],
        ] {
            let (code, out, err) = judge(&args);
            no_panic(&args.join(" "), code, &err);
            assert_eq!(code, 1, "{args:?} with {key}: {out}{err}");
            assert!(
                err.contains(&format!("game.toml:{line}:")),
                "{args:?} names the file and line {line}: {err}"
            );
            assert!(err.contains(key), "{args:?} names {key}: {err}");
        }
    }
}
