//! The three ways a GM runs a game on a schedule, in deploy/, checked: the
//! cron line and the systemd units are read and their commands run against a demo game
//! (with a git remote to push to); the GitHub Actions workflow is parsed as YAML and
//! checked to run the turn step, one run at a time, keeping between runs exactly the
//! folders the game's .gitignore keeps out of git.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use yaml_rust2::{Yaml, YamlLoader};

/// A demo game called `spring` in `tmp`, in git with a bare remote, with both players'
/// orders waiting.
fn spring(tmp: &Path) -> PathBuf {
    let dir = tmp.join("spring");
    support::new_demo(&dir, "Ann", &[]);
    std::fs::create_dir_all(dir.join("pending")).expect("pending");
    for p in ["red", "yellow"] {
        let text = std::fs::read_to_string(format!("games/demo/pending/{p}.txt"))
            .expect("orders")
            .replace("game demo", "game spring");
        std::fs::write(dir.join(format!("pending/{p}.txt")), text).expect("write");
    }
    let bare = tmp.join("remote.git");
    let git = |cwd: &Path, args: &[&str]| {
        let ok = Command::new("git")
            .current_dir(cwd)
            .args(["-c", "user.name=GM", "-c", "user.email=gm@example.org"])
            .args(args)
            .status()
            .expect("git");
        assert!(ok.success(), "git {args:?}");
    };
    git(tmp, &["init", "-q", "--bare", "remote.git"]);
    git(&dir, &["init", "-q", "-b", "main"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "spring: turn 0"]);
    git(
        &dir,
        &["remote", "add", "origin", bare.to_str().expect("utf-8")],
    );
    git(&dir, &["push", "-q", "-u", "origin", "main"]);
    dir
}

fn run(cwd: &Path, command: &str) -> (bool, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_judge"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let out = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(cwd)
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("GIT_AUTHOR_NAME", "GM")
        .env("GIT_AUTHOR_EMAIL", "gm@example.org")
        .env("GIT_COMMITTER_NAME", "GM")
        .env("GIT_COMMITTER_EMAIL", "gm@example.org")
        .output()
        .expect("sh");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

fn pushed_turn_1(tmp: &Path) -> bool {
    let out = Command::new("git")
        .arg("-C")
        .arg(tmp.join("remote.git"))
        .args(["log", "--format=%s", "main"])
        .output()
        .expect("git log");
    String::from_utf8_lossy(&out.stdout).contains("spring: turn 1")
}

/// A cron field: `*`, `*/N`, or a number.
fn cron_field(f: &str) -> bool {
    f == "*"
        || f.strip_prefix("*/")
            .is_some_and(|n| n.parse::<u32>().is_ok())
        || f.parse::<u32>().is_ok()
}

#[test]
fn the_cron_line_plays_and_pushes_the_game() {
    let text = std::fs::read_to_string("deploy/cron/judge.crontab").expect("crontab");
    let line = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.contains('=') && !l.trim().is_empty())
        .expect("a schedule line");
    let fields: Vec<&str> = line.splitn(6, ' ').collect();
    assert_eq!(fields.len(), 6, "{line}");
    assert!(fields[..5].iter().all(|f| cron_field(f)), "{line}");
    let tmp = tempfile::tempdir().expect("tmp");
    spring(tmp.path());
    let command = fields[5].replace("$HOME", tmp.path().to_str().expect("utf-8"));
    let command = command.replace(
        &format!("{}/games", tmp.path().display()),
        tmp.path().to_str().expect("utf-8"),
    );
    let (ok, out) = run(tmp.path(), &command);
    assert!(ok, "{out}");
    assert!(
        out.contains("Turn 1 resolved") && out.contains("Committed spring: turn 1"),
        "{out}"
    );
    assert!(pushed_turn_1(tmp.path()));
    // The web site is made after the turn, turn 1's page with it.
    let site = tmp.path().join("public_html/spring");
    assert!(site.join("index.html").is_file() && site.join("turn-001.html").is_file());
    // The next run has nothing to do and still succeeds.
    let (ok, out) = run(tmp.path(), &command);
    assert!(ok, "{out}");
    assert!(out.contains("Nothing to play"), "{out}");
}

/// `judge turn` exits 3 when the turn is done but mail waits (the
/// mail server is down). The cron line pushes and publishes the game all the same, and
/// says what waits; the systemd unit counts 3 as done, so that its push and site follow.
#[test]
fn with_the_mail_server_down_the_game_is_still_pushed_and_published() {
    let text = std::fs::read_to_string("deploy/cron/judge.crontab").expect("crontab");
    let line = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.contains('=') && !l.trim().is_empty())
        .expect("a schedule line");
    let command = line.splitn(6, ' ').nth(5).expect("the command");
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = spring(tmp.path());
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str(&format!(
        "\n[mail]\nfrom = \"judge@example.org\"\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {dead}\nsmtp_security = \"none\"\n"
    ));
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    let command = command
        .replace("$HOME/games", tmp.path().to_str().expect("utf-8"))
        .replace("$HOME", tmp.path().to_str().expect("utf-8"));
    let (_, out) = run(tmp.path(), &command);
    assert!(
        out.contains("Committed spring: turn 1") && out.contains("still in the outbox"),
        "{out}"
    );
    assert!(pushed_turn_1(tmp.path()), "{out}");
    assert!(
        tmp.path()
            .join("public_html/spring/turn-001.html")
            .is_file(),
        "{out}"
    );
    let service = std::fs::read_to_string("deploy/systemd/judge-turn@.service").expect("service");
    assert!(
        section(&service, "Service")
            .iter()
            .any(|(k, v)| k == "SuccessExitStatus" && v.split_whitespace().any(|c| c == "3")),
        "{service}"
    );
}

/// `Key=value` lines of one section of a unit file.
fn section(unit: &str, name: &str) -> Vec<(String, String)> {
    unit.lines()
        .skip_while(|l| l.trim() != format!("[{name}]"))
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .filter(|l| !l.starts_with('#') && l.contains('='))
        .filter_map(|l| {
            l.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

#[test]
fn the_systemd_units_play_and_push_the_game() {
    let service = std::fs::read_to_string("deploy/systemd/judge-turn@.service").expect("service");
    let timer = std::fs::read_to_string("deploy/systemd/judge-turn@.timer").expect("timer");
    let s = section(&service, "Service");
    let get = |k: &str| {
        s.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("{k} in the service"))
    };
    assert_eq!(get("Type"), "oneshot");
    let t = section(&timer, "Timer");
    assert!(
        t.iter().any(|(k, v)| k == "OnCalendar" && v == "*:0/5"),
        "{t:?}"
    );
    assert!(
        section(&timer, "Install")
            .iter()
            .any(|(k, v)| k == "WantedBy" && v == "timers.target")
    );
    let tmp = tempfile::tempdir().expect("tmp");
    spring(tmp.path());
    assert_eq!(get("WorkingDirectory"), "/srv/judge");
    // Every command, in order: the turn, the push, the web site.
    let www = tmp.path().join("www");
    for (key, command) in s
        .iter()
        .filter(|(k, _)| k == "ExecStart" || k == "ExecStartPost")
    {
        let command = command
            .replace("%i", "spring")
            .replace("/usr/local/bin/judge", "judge")
            .replace("/usr/bin/git", "git")
            .replace("/var/www/judge", www.to_str().expect("utf-8"));
        let (ok, out) = run(tmp.path(), &command);
        assert!(ok, "{key}: {out}");
    }
    assert!(pushed_turn_1(tmp.path()));
    assert!(www.join("spring/turn-001.html").is_file(), "the web site");
}

#[test]
fn the_github_workflow_runs_the_turn_step_and_keeps_what_git_does_not() {
    let text = std::fs::read_to_string("deploy/github-actions/judge.yml").expect("workflow");
    let docs = YamlLoader::load_from_str(&text).expect("valid YAML");
    let w = &docs[0];
    let cron = w["on"]["schedule"][0]["cron"].as_str().expect("a schedule");
    let fields: Vec<&str> = cron.split_whitespace().collect();
    assert_eq!(fields.len(), 5);
    assert!(fields.iter().all(|f| cron_field(f)), "{cron}");
    assert_eq!(w["concurrency"]["cancel-in-progress"], Yaml::Boolean(false));
    assert!(w["concurrency"]["group"].as_str().is_some());
    assert_eq!(w["permissions"]["contents"].as_str(), Some("write"));
    let steps = w["jobs"]["turn"]["steps"].as_vec().expect("steps");
    let runs: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(
        runs.iter()
            .any(|r| r.contains("judge turn \"$GAME\" --commit") && r.contains("git push")),
        "{runs:?}"
    );
    // The private folders go to the cache, restored before and saved after (always).
    let game_private: Vec<String> = pbem_judge::archive::GITIGNORE
        .lines()
        .filter(|l| l.starts_with('/') && l.ends_with('/'))
        .map(|l| format!("${{{{ env.GAME }}}}{}", l.trim_end_matches('/')))
        .collect();
    assert!(game_private.len() >= 5);
    let cached = |uses: &str| -> Vec<String> {
        let step = steps
            .iter()
            .find(|s| s["uses"].as_str() == Some(uses))
            .unwrap_or_else(|| panic!("a step using {uses}"));
        step["with"]["path"]
            .as_str()
            .expect("paths")
            .lines()
            .map(str::to_string)
            .collect()
    };
    for uses in ["actions/cache/restore@v4", "actions/cache/save@v4"] {
        let mut paths = cached(uses);
        paths.sort();
        let mut want = game_private.clone();
        want.sort();
        assert_eq!(paths, want, "{uses} keeps what .gitignore keeps out of git");
    }
    let save = steps
        .iter()
        .find(|s| s["uses"].as_str() == Some("actions/cache/save@v4"))
        .expect("save");
    assert_eq!(save["if"].as_str(), Some("always()"));
    // The web site, made after the turn and published on GitHub Pages.
    let at = |pred: &dyn Fn(&Yaml) -> bool| steps.iter().position(pred);
    let turn = at(&|s| s["run"].as_str().is_some_and(|r| r.contains("judge turn")));
    let site = at(&|s| s["run"].as_str() == Some("judge site \"$GAME\" -o site"));
    let upload = at(&|s| {
        s["uses"].as_str() == Some("actions/upload-pages-artifact@v3")
            && s["with"]["path"].as_str() == Some("site")
    });
    let deploy = at(&|s| s["uses"].as_str() == Some("actions/deploy-pages@v4"));
    assert!(turn < site && site < upload && upload < deploy, "{steps:?}");
    assert!(turn.is_some() && site.is_some());
    assert_eq!(w["permissions"]["pages"].as_str(), Some("write"));
    assert_eq!(w["permissions"]["id-token"].as_str(), Some("write"));
}
