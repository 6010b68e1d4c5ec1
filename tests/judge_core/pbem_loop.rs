//! Three turns of a three-player game run by a cron-like loop against
//! the real mail servers (tests/mail/servers.sh), with an injected clock (`JUDGE_NOW`).
//! Welcome mails carry the secrets; answers arrive before the deadline; a mail delivered
//! on time but read after the deadline is accepted; only the silent player is reminded;
//! a deadline is extended; a refused mail is filed again; a held late mail is checked
//! again; a dry run over IMAP leaves the mailbox unread; standing orders are played; and
//! at the end no secret is anywhere in the game folder, its git history, or the mail the
//! judge sent (but the welcome mails, whose point is to carry it).

use crate::support;

use std::path::PathBuf;

use crate::support::servers::Servers;

const GAME: &str = "valley";

struct Loop {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    srv: Servers,
}

impl Loop {
    fn d(&self) -> &str {
        self.dir.to_str().expect("utf-8")
    }

    fn judge(&self, args: &[&str], now: &str) -> (i32, String, String) {
        support::judge_text(
            args,
            &[
                ("JUDGE_NOW", now),
                ("JUDGE_IMAP_PASSWORD", "judge-pass"),
                ("GIT_AUTHOR_NAME", "GM"),
                ("GIT_AUTHOR_EMAIL", "gm@example.org"),
                ("GIT_COMMITTER_NAME", "GM"),
                ("GIT_COMMITTER_EMAIL", "gm@example.org"),
            ],
        )
    }

    /// What cron runs, at `now`: it must never fail.
    fn cron(&self, now: &str) -> String {
        let (code, out, err) = self.judge(&["turn", self.d(), "--commit"], now);
        assert_eq!(code, 0, "cron at {now}: {out}{err}");
        out
    }

    /// A player mails the judge; the server delivers it, and the Maildir file is named
    /// for the (injected) time of delivery, as a delivery agent names it.
    fn mail_at(&self, from: &str, subject: &str, body: &str, at: &str) {
        self.srv.send_at(from, subject, body, at);
    }

    /// Mails the judge sent, as delivered: (to, subject, body).
    fn sent_to(&self, who: &str) -> Vec<(String, String)> {
        self.srv.mails_to(who)
    }

    fn subjects_to(&self, who: &str) -> Vec<String> {
        self.sent_to(who).into_iter().map(|m| m.0).collect()
    }
}

fn orders(player: &str, secret: &str, turn: u32, body: &str) -> String {
    format!("game {GAME}\nplayer {player}\nturn {turn}\nsecret {secret}\n{body}")
}

const RED_1: &str = "movement\nmove D1: load 1 board; B2\nmove D2: load 2 boards; C2\nbuilding\nbuild woodcutter at B2 with D1\nbuild quarry at C2 with D2\nbuild sawmill at C3 with D3\n";
const YELLOW_1: &str = "movement\nmove D4: load 1 board; J2\nmove D5: load 2 boards; I2\nbuilding\nbuild woodcutter at J2 with D4\nbuild quarry at I2 with D5\nbuild sawmill at I3 with D6\n";
const GREEN_1: &str = "movement\nmove D7: load 1 board; F8\nmove D8: load 2 boards; E7\nbuilding\nbuild woodcutter at F8 with D7\nbuild quarry at E7 with D8\nbuild sawmill at F7 with D9\n";

#[test]
fn three_turns_of_a_three_player_game_run_by_cron() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join(GAME);
    let srv = Servers::start();
    let l = Loop {
        _tmp: tmp,
        dir,
        srv,
    };
    let d = l.d().to_string();
    // The GM makes the game, puts it in git, sets up mail and the schedule.
    let (code, out, err) = l.judge(
        &[
            "new",
            &d,
            "--scenario",
            "three-valleys",
            "--seed",
            "11",
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Bob:bob@example.org",
            "--player",
            "Cy:cy@example.org",
        ],
        "2026-11-27T12:00:00Z",
    );
    assert_eq!(code, 0, "{out}{err}");
    let toml = l.dir.join("game.toml");
    let mut text = std::fs::read_to_string(&toml).expect("game.toml");
    text.push_str(&l.srv.mail_toml());
    text.push_str("\n[schedule]\nfirst_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"2days\"\nlate = \"hold\"\nremind = \"12h\"\n");
    std::fs::write(&toml, text).expect("write");
    for args in [
        vec!["init", "-q"],
        vec!["add", "-A"],
        vec![
            "-c",
            "user.name=GM",
            "-c",
            "user.email=gm@example.org",
            "commit",
            "-q",
            "-m",
            "valley: turn 0",
        ],
    ] {
        let ok = std::process::Command::new("git")
            .arg("-C")
            .arg(&l.dir)
            .args(&args)
            .status()
            .expect("git");
        assert!(ok.success(), "git {args:?}");
    }

    // Welcome mails: each player's secret, an order template, the turn-0 report.
    let (code, out, err) = l.judge(&["secret", &d, "--mail"], "2026-11-28T00:00:00Z");
    assert_eq!(code, 0, "{out}{err}");
    let secret_of = |who: &str, colour: &str| -> String {
        let (_, body) = l
            .sent_to(who)
            .into_iter()
            .find(|m| m.0 == format!("[{GAME}] welcome: you play {colour}"))
            .expect("a welcome mail");
        assert!(body.contains("ROADS & BOATS"), "the turn-0 report: {body}");
        assert!(
            body.contains(&format!("player {colour}\n    turn 1")),
            "{body}"
        );
        crate::support::welcome_secret(&body).expect("the secret line")
    };
    let red = secret_of("ann@example.org", "red");
    let yellow = secret_of("bob@example.org", "yellow");
    let green = secret_of("cy@example.org", "green");
    let secrets = [red.clone(), yellow.clone(), green.clone()];

    // Turn 1. Red mails orders with a mistake, and hears back at once.
    l.mail_at(
        "Ann <ann@example.org>",
        "turn 1",
        &orders(
            "red",
            &red,
            1,
            &RED_1.replace("build woodcutter", "build wodcutter"),
        ),
        "2026-11-30T10:00:00Z",
    );
    let out = l.cron("2026-11-30T10:05:00Z");
    assert!(
        out.contains("accepted: red's orders for turn 1 (1 error"),
        "{out}"
    );
    assert!(
        out.contains("Nothing to play yet: turn 1 is due 2026-12-01 at 18:00:00 UTC"),
        "{out}"
    );
    assert!(
        l.subjects_to("ann@example.org")
            .contains(&format!("[{GAME}] turn 1: filed, 1 error")),
        "the answer is delivered before the deadline"
    );
    // She fixes it; yellow sends his.
    l.mail_at(
        "Ann <ann@example.org>",
        "turn 1 again",
        &orders("red", &red, 1, RED_1),
        "2026-11-30T11:00:00Z",
    );
    l.mail_at(
        "Bob <bob@example.org>",
        "orders",
        &orders("yellow", &yellow, 1, YELLOW_1),
        "2026-11-30T12:00:00Z",
    );
    let out = l.cron("2026-11-30T12:05:00Z");
    assert!(out.contains("replacing earlier ones"), "{out}");
    // Twelve hours before the deadline, only green (no orders yet) is reminded, once.
    let out = l.cron("2026-12-01T06:00:00Z");
    assert!(out.contains("reminded green"), "{out}");
    assert!(
        !out.contains("reminded red") && !out.contains("reminded yellow"),
        "{out}"
    );
    l.cron("2026-12-01T06:05:00Z");
    let reminders = |who: &str| {
        l.subjects_to(who)
            .iter()
            .filter(|s| s.contains("no orders from you yet"))
            .count()
    };
    assert_eq!(
        (
            reminders("cy@example.org"),
            reminders("ann@example.org"),
            reminders("bob@example.org")
        ),
        (1, 0, 0)
    );
    // Green's mail is delivered 30 seconds before the deadline; yellow changes his mind a
    // minute after it. Cron runs three minutes after the deadline.
    l.mail_at(
        "Cy <cy@example.org>",
        "orders",
        &orders("green", &green, 1, GREEN_1),
        "2026-12-01T17:59:30Z",
    );
    l.mail_at(
        "Bob <bob@example.org>",
        "late",
        &orders(
            "yellow",
            &yellow,
            1,
            "movement\nmove D4: load 1 board; J2\nmove D5: J3\n",
        ),
        "2026-12-01T18:01:00Z",
    );
    let out = l.cron("2026-12-01T18:03:00Z");
    assert!(
        out.contains("accepted: green's orders for turn 1"),
        "on time by its delivery: {out}"
    );
    assert!(
        out.contains("held: yellow's late orders, for turn 2"),
        "{out}"
    );
    assert!(out.contains("Turn 1 resolved"), "{out}");
    assert!(
        out.contains("yellow's held orders are filed for turn 2, checked again"),
        "{out}"
    );
    for p in ["red", "yellow", "green"] {
        assert!(
            l.dir.join(format!("turns/001/orders/{p}.txt")).is_file(),
            "{p} played"
        );
    }
    let yellow_mail = l.subjects_to("bob@example.org");
    assert!(
        yellow_mail.contains(&format!("[{GAME}] turn 1: late, held for turn 2")),
        "{yellow_mail:?}"
    );
    assert!(
        yellow_mail
            .iter()
            .any(|s| s.starts_with(&format!("[{GAME}] turn 2: your held orders are filed"))),
        "the held orders are checked again against turn 1's result: {yellow_mail:?}"
    );
    let (_, red_report) = l
        .sent_to("ann@example.org")
        .into_iter()
        .find(|m| m.0 == format!("[{GAME}] turn 1: report"))
        .expect("red's report");
    assert!(red_report.contains("Your orders"), "{red_report}");
    assert!(
        red_report.contains("player red\n    turn 2\n    secret YOUR-SECRET"),
        "{red_report}"
    );

    // Turn 2 is read over IMAP. A dry run leaves the new mail unread on the server.
    let text = std::fs::read_to_string(&toml).expect("toml").replace(
        &format!("maildir = \"{}\"\n", l.srv.maildir().display()),
        &format!("imap_host = \"127.0.0.1\"\nimap_port = {}\nimap_user = \"judge\"\nimap_security = \"none\"\n", l.srv.imap),
    );
    std::fs::write(&toml, text).expect("toml");
    // Red's turn-2 orders stand until she replaces them.
    l.srv.send(
        "Ann <ann@example.org>",
        "standing",
        &orders("red", &red, 2, "standing\nmovement\nmove D1: B3\n"),
    );
    let seen = |l: &Loop| -> usize {
        support::all_files(&l.srv.maildir().join("cur"))
            .iter()
            .filter(|p| {
                p.to_string_lossy()
                    .rsplit_once(":2,")
                    .is_some_and(|(_, f)| f.contains('S'))
            })
            .count()
    };
    let seen_before = seen(&l);
    let (code, out, err) = l.judge(&["turn", &d, "--dry-run"], "2026-12-02T09:00:00Z");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("accepted: red's orders for turn 2"), "{out}");
    assert_eq!(seen(&l), seen_before, "the dry run marked nothing read");
    let out = l.cron("2026-12-02T09:05:00Z");
    assert!(
        out.contains("accepted: red's orders for turn 2"),
        "the real run finds the mail: {out}"
    );
    assert!(seen(&l) > seen_before);
    // Cy writes from a new address: refused unanswered. The GM fixes game.toml and
    // files the mail again.
    l.srv.send(
        "Cy <cy@new.example>",
        "orders from my new address",
        &orders("green", &green, 2, "movement\nmove D7: F7\n"),
    );
    let out = l.cron("2026-12-02T10:00:00Z");
    let refused = out
        .lines()
        .find(|x| {
            x.contains("from cy@new.example): refused: the sender is not a player of this game")
        })
        .unwrap_or_else(|| panic!("{out}"));
    let n = refused
        .strip_prefix("mail ")
        .and_then(|r| r.split_whitespace().next())
        .expect("the mail's number");
    let (_, status, _) = l.judge(&["status", &d], "2026-12-02T10:01:00Z");
    assert!(
        status.contains(&format!("  {n}  ")) && status.contains("--again"),
        "{status}"
    );
    let text = std::fs::read_to_string(&toml)
        .expect("toml")
        .replace("cy@example.org", "cy@new.example");
    std::fs::write(&toml, text).expect("toml");
    let (code, out, err) = l.judge(&["ingest", &d, "--again", n], "2026-12-02T10:05:00Z");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("accepted: green's orders for turn 2"), "{out}");
    // The deadline (Dec 3 18:00) is extended a day: cron after the old one plays nothing.
    let (code, out, err) = l.judge(&["deadline", &d, "--extend", "24h"], "2026-12-03T12:00:00Z");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("to 2026-12-04 at 18:00:00 UTC"), "{out}");
    assert!(
        l.subjects_to("bob@example.org")
            .iter()
            .any(|s| s.contains("the deadline moved")),
        "players are told"
    );
    let out = l.cron("2026-12-03T19:00:00Z");
    assert!(
        out.contains("Nothing to play yet: turn 2 is due 2026-12-04 at 18:00:00 UTC"),
        "{out}"
    );
    let out = l.cron("2026-12-04T18:01:00Z");
    assert!(out.contains("Turn 2 resolved"), "{out}");

    // Turn 3: red sends nothing; her standing orders are played, and the report says so.
    let out = l.cron("2026-12-06T18:01:00Z");
    assert!(out.contains("Turn 3 resolved"), "{out}");
    assert!(out.contains("Standing orders played for red"), "{out}");
    let report = std::fs::read_to_string(l.dir.join("turns/003/report.txt")).expect("report");
    assert!(
        report.contains("Standing orders were played for red"),
        "{report}"
    );
    let (code, out, err) = l.judge(&["replay", &d], "2026-12-07T00:00:00Z");
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("turn 0 and 3 turns replayed, all identical"),
        "{out}"
    );

    // Git kept every turn, and never a pending order.
    let log = std::process::Command::new("git")
        .arg("-C")
        .arg(&l.dir)
        .args(["log", "--all", "--name-only", "--format=%s"])
        .output()
        .expect("git log");
    let log = String::from_utf8_lossy(&log.stdout);
    for t in 1..=3 {
        assert!(log.contains(&format!("valley: turn {t}")), "{log}");
    }
    assert!(
        !log.contains("pending/") && !log.contains("held/") && !log.contains("mail/"),
        "{log}"
    );

    // No secret anywhere: the game folder, its git objects, the judge's copies of what
    // it sent, and every mail the server delivered from the judge but the welcomes.
    let mut places: Vec<(String, String)> = support::all_files(&l.dir)
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == ".git"))
        .map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).expect("read")).into_owned();
            (p.display().to_string(), text)
        })
        .collect();
    places.push(("git objects".into(), support::git_objects(&l.dir)));
    for (name, raw) in l.srv.delivered_raw() {
        let m = mail_parser::MessageParser::default()
            .parse(&raw)
            .expect("mail");
        let from = m
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or("");
        if from != "judge@example.org" || m.subject().unwrap_or("").contains("welcome") {
            continue;
        }
        let decoded = m.body_text(0).unwrap_or_default().into_owned();
        places.push((
            format!("sent mail {name}"),
            format!("{}{decoded}", String::from_utf8_lossy(&raw)),
        ));
    }
    assert!(places.len() > 50, "{}", places.len());
    for (place, text) in &places {
        for s in &secrets {
            assert!(!text.contains(s.as_str()), "a secret in {place}");
        }
    }
}
