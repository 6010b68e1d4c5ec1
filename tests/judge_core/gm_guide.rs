//! docs/gm-guide.md is run as written: every command in its `sh` blocks, in order, in a
//! scratch folder, against the real mail servers (tests/mail/servers.sh), and each must
//! succeed. The guide's `toml` block is appended to game.toml with the test servers put
//! in for the example ones. Hidden `<!-- guide-test: … -->` lines in the guide say what
//! happens between the commands: the clock (`JUDGE_NOW`), and players mailing orders;
//! `expect exit N` says the commands of the next `sh` block must fail with that exit
//! status, and the `text` block right after them shows what they say (each of its
//! lines must be in their standard error). `serve games` starts `judge serve games` on
//! the real clock (the `text` block after it shows the command), `soon TIME` puts a
//! time a few seconds from now for TIME in the next `sh` block and runs it on the real
//! clock, `wait for …` waits for what serve does, `late COLOUR` mails that player's
//! orders for the turn just played, now.

use std::path::{Path, PathBuf};

use crate::support::servers::Servers;

const GUIDE: &str = "docs/gm-guide.md";

/// Valid first-turn orders for each seat of three-valleys.
fn first_orders(colour: &str) -> &'static str {
    match colour {
        "red" => {
            "movement\nmove D1: load 1 board; B2\nmove D2: load 2 boards; C2\nbuilding\nbuild woodcutter at B2 with D1\nbuild quarry at C2 with D2\nbuild sawmill at C3 with D3\n"
        }
        "yellow" => {
            "movement\nmove D4: load 1 board; J2\nmove D5: load 2 boards; I2\nbuilding\nbuild woodcutter at J2 with D4\nbuild quarry at I2 with D5\nbuild sawmill at I3 with D6\n"
        }
        _ => {
            "movement\nmove D7: load 1 board; F8\nmove D8: load 2 boards; E7\nbuilding\nbuild woodcutter at F8 with D7\nbuild quarry at E7 with D8\nbuild sawmill at F7 with D9\n"
        }
    }
}

fn address(colour: &str) -> &'static str {
    match colour {
        "red" => "ann@example.org",
        "yellow" => "bob@example.org",
        _ => "cy@example.org",
    }
}

struct Run {
    tmp: tempfile::TempDir,
    srv: Servers,
    now: String,
    secrets: Vec<(String, String)>,
    again: Option<String>,
    /// The exit status the commands of the next `sh` block must have (0 by default).
    expect: Option<i32>,
    /// What the last block of failing commands wrote to standard error.
    failed: Option<String>,
    /// `judge serve games`, while it runs.
    serve: Option<std::process::Child>,
    /// A time of the guide, and the real time a few seconds from now put for it.
    soon: Option<(String, String)>,
}

impl Drop for Run {
    fn drop(&mut self) {
        if let Some(mut c) = self.serve.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The real time `ahead` from now, as the judge reads a time.
fn real_time(ahead: std::time::Duration) -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now() + ahead).to_string()
}

/// Wait up to a minute for `done`.
fn wait_for(what: &str, mut done: impl FnMut() -> bool, log: &Path) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "no {what} within a minute; judge serve said:\n{}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

impl Run {
    fn game(&self) -> PathBuf {
        self.tmp.path().join("games/spring")
    }

    /// Run one command; it must exit with `expect` (0: succeed). Returns its standard
    /// error.
    fn sh(&self, command: &str, expect: i32) -> String {
        let bin = Path::new(env!("CARGO_BIN_EXE_judge"))
            .parent()
            .expect("bin");
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(self.tmp.path())
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    bin.display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            )
            .env("JUDGE_NOW", &self.now)
            .env("GIT_AUTHOR_NAME", "GM")
            .env("GIT_AUTHOR_EMAIL", "gm@example.org")
            .env("GIT_COMMITTER_NAME", "GM")
            .env("GIT_COMMITTER_EMAIL", "gm@example.org")
            .output()
            .expect("sh");
        assert!(
            out.status.code() == Some(expect),
            "`{command}` at {} exited {:?}, not {expect}:\n{}{}",
            self.now,
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    }

    fn secret(&mut self, colour: &str) -> String {
        if self.secrets.is_empty() {
            for (c, to) in [
                ("red", "ann@example.org"),
                ("yellow", "bob@example.org"),
                ("green", "cy@example.org"),
            ] {
                let (_, _, body, _, _) = self
                    .srv
                    .delivered()
                    .into_iter()
                    .find(|m| m.0 == to && m.1.contains("welcome"))
                    .expect("a welcome mail");
                let s = crate::support::welcome_secret(&body).expect("the secret");
                self.secrets.push((c.to_string(), s));
            }
        }
        self.secrets
            .iter()
            .find(|(c, _)| c == colour)
            .map(|(_, s)| s.clone())
            .expect("a secret")
    }

    /// `mail COLOUR [with an error] [from ADDRESS], at TIME`.
    fn mail(&mut self, what: &str) {
        let (who, at) = what.split_once(", at ").expect("`, at TIME`");
        let mut words = who.split_whitespace();
        let colour = words.next().expect("a colour").to_string();
        let rest: Vec<&str> = words.collect();
        let from = rest
            .iter()
            .position(|w| *w == "from")
            .and_then(|i| rest.get(i + 1))
            .map_or(address(&colour).to_string(), |a| a.to_string());
        let turn = std::fs::read_dir(self.game().join("turns"))
            .expect("turns")
            .count();
        let mut body = first_orders(&colour).to_string();
        if turn > 1 {
            body = "movement\nmove D1: C3\n".to_string();
        }
        if rest.contains(&"error") {
            body = body.replace("build woodcutter", "build wodcutter");
        }
        let secret = self.secret(&colour);
        let text = format!("game spring\nplayer {colour}\nturn {turn}\nsecret {secret}\n{body}");
        self.srv.send_at(&from, "orders", &text, at);
    }

    fn append(&self, file: &str, toml: &str) {
        let text = toml
            .replace("smtp.example.org", "127.0.0.1")
            .replace("smtp_port = 587", &format!("smtp_port = {}", self.srv.smtp))
            .replace("smtp_security = \"starttls\"", "smtp_security = \"none\"")
            .replace(
                "/home/judge/Maildir",
                self.srv.maildir().to_str().expect("utf-8"),
            )
            .lines()
            .filter(|l| !l.starts_with("smtp_user"))
            .collect::<Vec<_>>()
            .join("\n");
        let path = self.tmp.path().join(file);
        // A file the guide writes whole (games/judge.toml) starts empty.
        let mut old = std::fs::read_to_string(&path).unwrap_or_default();
        old.push('\n');
        old.push_str(&text);
        old.push('\n');
        std::fs::write(path, old).expect("write");
    }

    fn directive(&mut self, d: &str) {
        if d == "clock real" {
            self.now = real_time(std::time::Duration::ZERO);
        } else if let Some(t) = d.strip_prefix("clock ") {
            self.now = t.to_string();
        } else if let Some(m) = d.strip_prefix("mail ") {
            self.mail(m);
        } else if let Some(r) = d.strip_prefix("replace ") {
            let mut w = r.split_whitespace();
            let (file, from, to) = (
                w.next().expect("file"),
                w.next().expect("from"),
                w.next().expect("to"),
            );
            let path = self.tmp.path().join(file);
            let text = std::fs::read_to_string(&path)
                .expect(file)
                .replace(from, to);
            std::fs::write(path, text).expect("write");
        } else if d == "again is the last refused mail" {
            let log = std::fs::read_to_string(self.game().join("mail/log.jsonl")).expect("log");
            let seq = log
                .lines()
                .rev()
                .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("json"))
                .find(|e| e["outcome"] == "refused")
                .and_then(|e| e["seq"].as_u64())
                .expect("a refused mail");
            self.again = Some(seq.to_string());
        } else if let Some(m) = d.strip_prefix("send ") {
            // `send ADDRESS: TEXT`: somebody mails the judge a line.
            let (from, text) = m.split_once(": ").expect("`send ADDRESS: TEXT`");
            self.srv
                .send_at(from, "mail", &format!("{text}\n"), &self.now);
        } else if let Some(who) = d.strip_prefix("confirm ") {
            // `confirm ADDRESS`: the address sends back the line its sign-up mail asks
            // for (`confirm GAME CODE`).
            let line = self
                .srv
                .delivered()
                .into_iter()
                .filter(|m| m.0 == who)
                .find_map(|m| {
                    m.2.lines()
                        .map(str::trim)
                        .find(|l| l.starts_with("confirm "))
                        .map(str::to_string)
                })
                .expect("a sign-up mail with a line to send back");
            self.srv
                .send_at(who, "Re: sign-up", &format!("{line}\n"), &self.now);
        } else if d == "serve games" {
            self.story_so_far();
            let bin = Path::new(env!("CARGO_BIN_EXE_judge"));
            let log = self.tmp.path().join("serve.log");
            let child = std::process::Command::new(bin)
                .args(["serve", "games"])
                .current_dir(self.tmp.path())
                .env_remove("JUDGE_NOW")
                .stdout(std::fs::File::create(&log).expect("log"))
                .stderr(std::process::Stdio::inherit())
                .spawn()
                .expect("judge serve starts");
            self.serve = Some(child);
            wait_for(
                "`serving`",
                || {
                    std::fs::read_to_string(&log)
                        .unwrap_or_default()
                        .contains("serving")
                },
                &log,
            );
        } else if d == "serve stop" {
            let mut child = self.serve.take().expect("judge serve runs");
            let ok = std::process::Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status()
                .expect("kill");
            assert!(ok.success());
            let status = child.wait().expect("wait");
            assert!(status.success(), "judge serve stopped with {status}");
        } else if let Some(t) = d.strip_prefix("soon ") {
            self.now = real_time(std::time::Duration::ZERO);
            self.soon = Some((t.to_string(), real_time(std::time::Duration::from_secs(6))));
        } else if let Some(what) = d.strip_prefix("wait for mail to ") {
            let (to, subject) = what.split_once(": ").expect("`ADDRESS: SUBJECT`");
            let log = self.tmp.path().join("serve.log");
            wait_for(
                what,
                || {
                    self.srv
                        .delivered()
                        .iter()
                        .any(|m| m.0 == to && m.1.starts_with(subject))
                },
                &log,
            );
        } else if let Some(path) = d.strip_prefix("wait for ") {
            let log = self.tmp.path().join("serve.log");
            let path = self.tmp.path().join(path);
            wait_for(&path.display().to_string(), || path.exists(), &log);
        } else if let Some(colour) = d.strip_prefix("late ") {
            let turns = std::fs::read_dir(self.game().join("turns"))
                .expect("turns")
                .count();
            let secret = self.secret(colour);
            let text = format!(
                "game spring\nplayer {colour}\nturn {}\nsecret {secret}\nmovement\nmove D4: J3\n",
                turns - 1
            );
            self.srv.send(address(colour), "late orders", &text);
        } else if let Some(n) = d.strip_prefix("expect exit ") {
            self.expect = Some(n.parse().expect("an exit status"));
        } else if !d.starts_with("append ") {
            panic!("unknown guide-test directive: {d}");
        }
    }
}

impl Run {
    /// The story the guide tells up to `judge serve`, which plays on by the real clock:
    /// turn 1 played with everyone's orders, the refused mail filed again, reports sent.
    fn story_so_far(&self) {
        for p in ["red", "yellow", "green"] {
            assert!(
                self.game()
                    .join(format!("turns/001/orders/{p}.txt"))
                    .is_file(),
                "{p}"
            );
        }
        assert!(
            self.game().join("pending/green.txt").is_file(),
            "filed again for turn 2"
        );
        assert!(
            self.srv
                .delivered()
                .iter()
                .any(|m| m.0 == "bob@example.org" && m.1 == "[spring] turn 1: report"),
            "reports sent"
        );
    }
}

#[test]
fn every_command_in_the_gm_guide_runs() {
    let guide = std::fs::read_to_string(GUIDE).expect("the guide");
    let mut run = Run {
        tmp: tempfile::tempdir().expect("tmp"),
        srv: Servers::start(),
        now: "2026-11-27T00:00:00Z".into(),
        secrets: Vec::new(),
        again: None,
        expect: None,
        failed: None,
        serve: None,
        soon: None,
    };
    std::fs::create_dir_all(run.tmp.path().join("games")).expect("games");
    let mut commands = 0;
    let mut lines = guide.lines();
    let mut append_to: Option<String> = None;
    while let Some(line) = lines.next() {
        if let Some(d) = line
            .strip_prefix("<!-- guide-test: ")
            .and_then(|l| l.strip_suffix(" -->"))
        {
            if let Some(f) = d.strip_prefix("append ") {
                append_to = Some(f.to_string());
            }
            run.directive(d);
            continue;
        }
        let Some(lang) = line.strip_prefix("```") else {
            continue;
        };
        let block: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        match lang {
            "sh" => {
                let expect = run.expect.take().unwrap_or(0);
                let mut said = String::new();
                let mut command = String::new();
                for l in block {
                    if let Some(part) = l.strip_suffix('\\') {
                        command.push_str(part);
                        continue;
                    }
                    command.push_str(l);
                    let mut c = command.trim().to_string();
                    command.clear();
                    if c.is_empty() || c.starts_with('#') {
                        continue;
                    }
                    if let Some(n) = run.again.take() {
                        c = c.replace("--again 9", &format!("--again {n}"));
                    }
                    if let Some((guide, real)) = &run.soon {
                        c = c.replace(guide.as_str(), real);
                    }
                    said.push_str(&run.sh(&c, expect));
                    commands += 1;
                }
                run.failed = (expect != 0).then_some(said);
                run.soon = None;
            }
            "text" => {
                if let Some(said) = run.failed.take() {
                    for l in block.iter().map(|l| l.trim()).filter(|l| !l.is_empty()) {
                        assert!(
                            said.contains(l),
                            "the guide shows `{l}`, but it said:\n{said}"
                        );
                    }
                }
            }
            "toml" => {
                run.failed = None;
                if let Some(f) = append_to.take() {
                    run.append(&f, &block.join("\n"));
                }
            }
            _ => {}
        }
    }
    assert!(commands >= 15, "{commands} commands run");
    assert!(run.serve.is_none(), "the guide stops judge serve");
    // Section 13: under judge serve, the deadline moved to
    // a few seconds from now played turn 2 then, with green's orders filed again, and
    // yellow's orders for turn 2, mailed after it, were held for turn 3.
    assert!(
        run.game().join("turns/002/orders/green.txt").is_file(),
        "turn 2 played by serve at the moved deadline"
    );
    let held = std::fs::read_to_string(run.game().join("pending/yellow.txt"))
        .expect("yellow's late orders are filed for turn 3");
    assert!(held.contains("turn 3"), "{held}");
    // Section 11: island, with no [mail] of its own, welcomed its players with the
    // folder's, and the folder's pass ran every game.
    assert!(
        run.srv
            .delivered()
            .iter()
            .any(|m| m.0 == "cy@example.org" && m.1.starts_with("[island] welcome")),
        "island's welcome mails"
    );
    assert!(
        run.tmp.path().join("games/mailroom/log.jsonl").is_file(),
        "the folder's pass read the shared mailbox"
    );
    // Section 12: Fay's join and Ann's (she plays spring, a game of the same
    // folder), confirmed, took harbour's free seats and began the game.
    let harbour = run.tmp.path().join("games/harbour");
    assert!(harbour.join("turns/000").is_dir(), "harbour began");
    let delivered = run.srv.delivered();
    assert!(
        delivered
            .iter()
            .any(|m| m.0 == "fay@example.org" && m.1.starts_with("[harbour] welcome")),
        "Fay's welcome"
    );
    assert!(
        delivered
            .iter()
            .any(|m| m.0 == "ann@example.org" && m.1.starts_with("[harbour] welcome")),
        "Ann's welcome: a player of spring joined harbour"
    );
    assert!(
        delivered
            .iter()
            .any(|m| m.0 == "hal@example.org" && m.1.starts_with("[harbour] the game begins")),
        "Hal is told the game began"
    );
    // The jumpstart game's welcome explains its auction and gives a bid to send.
    let welcome = run
        .srv
        .delivered()
        .into_iter()
        .find(|m| m.0 == "dee@example.org" && m.1.contains("[duel] welcome"))
        .expect("the duel's welcome mail");
    assert!(
        welcome.2.contains("bid for the starting lots")
            && welcome.2.contains("bid 0 on lot 1")
            && !welcome.2.contains("home"),
        "{}",
        welcome.2
    );
}
