//! What the Catan and Catan Express CLI tests both do with a game's folder: run `judge`,
//! read a step's state and events, leave orders pending, and see what git would keep.

use std::path::Path;

use pbem_judge::catan::State;

/// Run `judge` with a clean environment: (exit code, stdout, stderr).
#[must_use]
pub fn judge(args: &[&str]) -> (i32, String, String) {
    super::judge_text(args, &[])
}

/// `judge`, which must succeed: its standard output.
pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = judge(args);
    assert_eq!(code, 0, "judge {args:?}: {out}{err}");
    out
}

/// The state a step left.
pub fn state(dir: &Path, turn: u32) -> State {
    let text = std::fs::read_to_string(dir.join(format!("turns/{turn:03}/state.json")))
        .expect("state.json");
    State::from_json(&text).expect("a Catan state")
}

/// The events of a step, as JSON.
pub fn events(dir: &Path, turn: u32) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join(format!("turns/{turn:03}/events.json")))
        .expect("events.json");
    serde_json::from_str(&text).expect("events")
}

/// `colour`'s orders, waiting in `pending/`.
pub fn pending(dir: &Path, colour: &str, text: &str) {
    let p = dir.join("pending");
    std::fs::create_dir_all(&p).expect("pending/");
    std::fs::write(p.join(format!("{colour}.txt")), text).expect("write orders");
}

/// The files a new repository in `dir` holds after `git add -A`, one a line.
pub fn git_kept(dir: &Path) -> String {
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=GM", "-c", "user.email=gm@example.org"])
            .args(args)
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["ls-files", "--cached"])
}
