//! Deadlines, replacing orders, dry runs and commits (issue 6), with the clock injected
//! through JUDGE_NOW and mail going to a pickup folder.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

fn judge(args: &[&str], now: &str) -> (i32, String, String) {
    support::judge_text(args, &[("JUDGE_NOW", now)])
}

const BEFORE: &str = "2026-12-01T12:00:00Z";
const AFTER: &str = "2026-12-01T19:00:00Z";

/// A game with a deadline of 2026-12-01 18:00 for turn 1, weekly after; returns the
/// folder and red's secret.
fn game(tmp: &Path, late: &str) -> (PathBuf, String) {
    let dir = tmp.join("demo");
    support::new_demo(&dir, "Ann", &[("JUDGE_NOW", BEFORE)]);
    let (red, _) = support::new_secrets(&dir, &[("JUDGE_NOW", BEFORE)]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str(&format!(
        "\n[mail]\nfrom = \"judge@example.org\"\npickup = \"pickup\"\n\n[schedule]\nfirst_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"7days\"\nlate = \"{late}\"\n"
    ));
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    (dir, red)
}

fn mail(id: &str, body: &str) -> Vec<u8> {
    format!("From: ann@example.org\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <{id}@test>\r\n\r\n{body}").into_bytes()
}

fn ingest(dir: &Path, raw: &[u8], now: &str) -> String {
    let f = dir.parent().expect("parent").join("m.eml");
    std::fs::write(&f, raw).expect("write");
    let (code, out, err) = judge(
        &[
            "ingest",
            dir.to_str().expect("utf-8"),
            f.to_str().expect("utf-8"),
        ],
        now,
    );
    assert_eq!(code, 0, "{out}{err}");
    out
}

fn orders(secret: &str, moves: &str) -> String {
    format!("game demo\nplayer red\nsecret {secret}\nturn 1\nmovement\n{moves}\n")
}

/// A later valid submission before the deadline replaces the earlier one; both mails are
/// kept. judge turn refuses before the deadline and plays after it; a late mail is
/// refused.
#[test]
fn deadlines_and_replacements() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let d = dir.to_str().expect("utf-8");
    assert!(
        ingest(&dir, &mail("a", &orders(&red, "move D1: C3")), BEFORE)
            .contains("accepted: red's orders for turn 1 (0 errors")
    );
    let second = ingest(&dir, &mail("b", &orders(&red, "move D2: D3")), BEFORE);
    assert!(second.contains("replacing earlier ones"), "{second}");
    let filed = std::fs::read_to_string(dir.join("pending/red.txt")).expect("pending");
    assert!(filed.contains("move D2: D3") && !filed.contains("move D1: C3"));
    assert!(filed.contains("secret [secret]") && !filed.contains(&red));
    assert_eq!(
        std::fs::read_dir(dir.join("mail/inbox"))
            .expect("inbox")
            .count(),
        2,
        "both mails kept"
    );

    let (code, _, err) = judge(&["status", d], BEFORE);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = judge(&["turn", d], BEFORE);
    assert_eq!(code, 0, "nothing to do yet is not a failure: {err}");
    assert!(
        out.contains("Nothing to play yet: turn 1 is due 2026-12-01 at 18:00:00 UTC"),
        "{out}"
    );
    let (code, out, err) = judge(&["turn", d], AFTER);
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.join("turns/001/orders/red.txt").is_file());
    let (code, out, err) = judge(&["turn", d], AFTER);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("turn 2 is due 2026-12-08 at 18:00:00 UTC"),
        "never twice: turn 2 is due a week later: {out}"
    );
    assert!(!dir.join("turns/002").exists());
    // Late for turn 2 (its deadline is 2026-12-08 18:00): refused.
    let late = ingest(
        &dir,
        &mail(
            "c",
            &orders(&red, "move D1: C4").replace("turn 1", "turn 2"),
        ),
        "2026-12-09T10:00:00Z",
    );
    assert!(
        late.contains("refused: it arrived 2026-12-09 at 10:00:00 UTC, after the deadline for turn 2 (2026-12-08 at 18:00:00 UTC)"),
        "{late}"
    );
}

/// With `late = "hold"`, late orders are kept for the turn after, and used then.
#[test]
fn late_orders_can_be_held() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "hold");
    let d = dir.to_str().expect("utf-8");
    let out = ingest(&dir, &mail("late", &orders(&red, "move D1: C3")), AFTER);
    assert!(out.contains("held: red's late orders, for turn 2"), "{out}");
    assert!(!dir.join("pending/red.txt").exists());
    let (code, _, err) = judge(&["turn", d, "--force"], AFTER);
    assert_eq!(code, 0, "{err}");
    assert!(
        !dir.join("turns/001/orders/red.txt").exists(),
        "not used for turn 1"
    );
    assert!(dir.join("pending/red.txt").is_file(), "waiting for turn 2");
}

/// --dry-run plays the turn in a scratch copy: the game is unchanged and nothing sent.
#[test]
fn a_dry_run_changes_nothing() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let d = dir.to_str().expect("utf-8");
    ingest(&dir, &mail("a", &orders(&red, "move D1: C3")), BEFORE);
    let before = std::fs::read_dir(&dir).expect("dir").count();
    let (code, out, err) = judge(&["turn", d, "--dry-run"], AFTER);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Dry run") && out.contains("ROADS & BOATS  --  demo  --  turn 1"),
        "{out}"
    );
    assert!(!dir.join("turns/001").exists());
    assert!(dir.join("pending/red.txt").is_file());
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), before);
    let pickup = dir.join("pickup");
    let sent_before = std::fs::read_dir(&pickup).map(|d| d.count()).unwrap_or(0);
    assert_eq!(sent_before, 1, "only the acknowledgement, sent at ingest");
}

/// --commit commits the new turn to git.
#[test]
fn commit_makes_a_git_commit() {
    let tmp = tempfile::tempdir().expect("tmp");
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(tmp.path())
            .args(args)
            .output()
            .expect("git")
    };
    assert!(git(&["init", "-q"]).status.success());
    assert!(
        git(&["config", "user.email", "gm@example.org"])
            .status
            .success()
    );
    assert!(git(&["config", "user.name", "GM"]).status.success());
    let (dir, red) = game(tmp.path(), "refuse");
    ingest(&dir, &mail("a", &orders(&red, "move D1: C3")), BEFORE);
    let (code, out, err) = judge(&["turn", dir.to_str().expect("utf-8"), "--commit"], AFTER);
    assert_eq!(code, 0, "{out}{err}");
    let log = String::from_utf8(git(&["log", "--oneline"]).stdout).expect("utf-8");
    assert!(log.contains("demo: turn 1"), "{log}");
    let files = String::from_utf8(git(&["show", "--stat", "HEAD"]).stdout).expect("utf-8");
    assert!(files.contains("turns/001/state.json"), "{files}");
}

/// The report says when the next orders are due.
#[test]
fn the_report_names_the_next_deadline() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    ingest(&dir, &mail("a", &orders(&red, "move D1: C3")), BEFORE);
    let (code, _, err) = judge(&["turn", dir.to_str().expect("utf-8")], AFTER);
    assert_eq!(code, 0, "{err}");
    let report = std::fs::read_to_string(dir.join("turns/001/report.txt")).expect("report");
    assert!(
        report.contains("Orders for turn 2 are due 2026-12-08 at 18:00:00 UTC."),
        "{}",
        &report[..400]
    );
}
