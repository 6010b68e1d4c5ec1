//! Issue 24, the game's clock through `judge turn` with an injected clock (`JUDGE_NOW`):
//! the weekday mask (`[schedule] skip`). (`pause` and `resume`: tests/mail_commands.rs.)

use crate::mail_commands::Folder;
use crate::support;

fn turn_at(f: &Folder, now: &str) -> String {
    let d = f.dir("rivers");
    let (code, out, err) =
        support::judge_text(&["turn", d.to_str().expect("utf-8")], &[("JUDGE_NOW", now)]);
    assert_eq!(code, 0, "{out}{err}");
    out
}

/// "deadlines on a weekday mask (`skip = [\"sat\", \"sun\"]`)": with a deadline every day
/// from a Friday and weekends skipped, turn 2's deadline falls on Monday: a run on
/// Saturday evening plays nothing, the report and status say Monday, and Monday's run
/// plays it.
#[test]
fn a_deadline_on_a_skipped_weekday_is_put_off_to_the_next_day() {
    let f = Folder::new();
    let d = f.dir("rivers");
    f.judge(&[
        "new",
        d.to_str().expect("utf-8"),
        "--scenario",
        "two-rivers",
        "--seed",
        "3",
        "--player",
        "Ann:ann@example.org",
        "--player",
        "Bob:bob@example.org",
    ]);
    let mut toml = std::fs::read_to_string(d.join("game.toml")).expect("toml");
    toml.push_str(
        "\n[schedule]\nfirst_deadline = \"2026-12-04T18:00:00Z\"\nevery = \"1day\"\nskip = [\"sat\", \"sun\"]\n",
    );
    std::fs::write(d.join("game.toml"), toml).expect("toml");
    // Friday's deadline passes: turn 1 is played (with no orders).
    let out = turn_at(&f, "2026-12-04T18:00:01Z");
    assert!(d.join("turns/001").is_dir(), "{out}");
    let report = std::fs::read_to_string(d.join("turns/001/report.txt")).expect("report");
    assert!(report.contains("2026-12-07"), "turn 2 is due on Monday: {report}");
    // Saturday and Sunday evenings: nothing is due.
    for now in ["2026-12-05T18:00:01Z", "2026-12-06T18:00:01Z"] {
        let out = turn_at(&f, now);
        assert!(!d.join("turns/002").exists(), "{now}: {out}");
        assert!(out.contains("2026-12-07"), "{out}");
    }
    // Monday's deadline: played.
    let out = turn_at(&f, "2026-12-07T18:00:01Z");
    assert!(d.join("turns/002").is_dir(), "{out}");
}
