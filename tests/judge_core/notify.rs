//! Notices by webhook (docs/gm-guide.md, "Notices by webhook"), through a real HTTP
//! server on 127.0.0.1 that each test starts (tests/support/hooks.rs): each format and
//! each event, the JSON format's signature checked by an HMAC written in the test from
//! SHA-256, a notice posted once however often the judge runs, tried again after a 500
//! or a refused connection and only once its wait is over, a slow webhook costing the
//! turn nothing, a redirect never followed, an address that is not http(s) refused
//! when game.toml is read; and `notify URL` by mail: a player's own webhook, set only
//! with their secret, getting only their notices.

use crate::support;
use crate::support::hooks::{Answer, Hook, hmac_sha256, refused_url};

use std::path::{Path, PathBuf};

use pbem_judge::archive::schema::{NotifyEvent, NotifyFormat};
use pbem_judge::notify::payload::{self, Notice};

const BEFORE: &str = "2026-12-01T12:00:00Z";
const AFTER: &str = "2026-12-01T19:00:00Z";
const SECRET: &str = "the GM's webhook secret";

fn judge(args: &[&str], now: &str) -> (i32, String, String) {
    support::judge_text(args, &[("JUDGE_NOW", now), ("HOOK_SECRET", SECRET)])
}

/// The demo game (Roads & Boats, red Ann, yellow Bob) with mail to a pickup folder, a
/// site, turn 1 due 2026-12-01 18:00 with reminders 12 hours before, a seat open after
/// one missed turn, and `notify` as its `[notify]`. Returns the folder and red's secret.
fn game(tmp: &Path, notify: &str) -> (PathBuf, String) {
    let dir = tmp.join("demo");
    support::new_demo(&dir, "Ann", &[("JUDGE_NOW", BEFORE)]);
    let (red, _) = support::new_secrets(&dir, &[("JUDGE_NOW", BEFORE)]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str(&format!(
        "\n[mail]\nfrom = \"judge@example.org\"\npickup = \"pickup\"\nsite = \"https://judge.example.org/demo\"\n\n[schedule]\nfirst_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"7days\"\nremind = \"12h\"\n\n[absent]\nmissed = 1\n\n[notify]\n{notify}\n"
    ));
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    support::ignore_pickup(&dir);
    (dir, red)
}

fn d(dir: &Path) -> &str {
    dir.to_str().expect("utf-8")
}

fn turn(dir: &Path, now: &str) -> String {
    let (code, out, err) = judge(&["turn", d(dir)], now);
    assert_eq!(code, 0, "judge turn: {out}{err}");
    out
}

/// The events of the requests, in order.
fn events(hook: &Hook) -> Vec<String> {
    hook.received()
        .iter()
        .map(|r| r.header("x-judge-event").unwrap_or("?").to_string())
        .collect()
}

/// Every event of a game reaches its JSON webhook once, signed: the deadline near with
/// whose orders are missing (Roads & Boats lets everyone know), the turn played with
/// its public report and its page on the site, each seat open for a replacement, and
/// the game over; a second run posts nothing again.
#[test]
fn every_event_reaches_a_json_webhook_once_signed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let hook = Hook::start(vec![]);
    let (dir, _) = game(
        tmp.path(),
        &format!(
            "url = \"{}\"\nformat = \"json\"\nsecret_env = \"HOOK_SECRET\"",
            hook.url("/game")
        ),
    );
    let out = turn(&dir, BEFORE);
    assert!(out.contains("posted 1 notice"), "{out}");
    turn(&dir, BEFORE);
    assert_eq!(events(&hook), ["deadline"], "posted once");

    turn(&dir, AFTER);
    turn(&dir, AFTER);
    let (code, out, err) = judge(&["end", d(&dir), "--why", "the club stops here"], AFTER);
    assert_eq!(code, 0, "{out}{err}");
    judge(&["turn", d(&dir)], AFTER);
    assert_eq!(
        events(&hook),
        ["deadline", "seat-open", "seat-open", "turn", "over", "turn"],
        "each event once"
    );
    let received = hook.received();
    for r in &received {
        assert_eq!(r.method, "POST");
        assert_eq!(r.path, "/game");
        assert_eq!(r.header("content-type"), Some("application/json"));
        assert_eq!(
            r.header("x-judge-signature-256"),
            Some(hmac_sha256(SECRET.as_bytes(), &r.body).as_str()),
            "the signature is HMAC-SHA256 of the body"
        );
        assert!(!String::from_utf8_lossy(&r.body).contains(SECRET));
    }
    let deadline = received[0].json();
    assert_eq!(deadline["event"], "deadline");
    assert_eq!(deadline["game"], "demo");
    assert_eq!(deadline["turn"], 1);
    assert_eq!(deadline["missing"], serde_json::json!(["red", "yellow"]));
    assert_eq!(deadline["deadline"], "2026-12-01 at 18:00:00 UTC");
    let opened: Vec<serde_json::Value> = received[1..3]
        .iter()
        .map(|r| r.json()["seats"].clone())
        .collect();
    assert_eq!(
        opened,
        [serde_json::json!(["red"]), serde_json::json!(["yellow"])]
    );
    let played = received[3].json();
    assert_eq!(played["event"], "turn");
    assert_eq!(played["turn"], 1);
    assert_eq!(
        played["link"],
        "https://judge.example.org/demo/turn-001.html"
    );
    let public = std::fs::read_to_string(dir.join("turns/001/report.txt")).unwrap_or_default();
    let summary = played["summary"].as_str().unwrap();
    assert!(!summary.is_empty());
    if !public.is_empty() {
        assert!(
            public.contains(summary.lines().next().unwrap()),
            "the public report"
        );
    }
    let over = received[4].json();
    assert_eq!(over["event"], "over");
    assert!(
        over["summary"]
            .as_str()
            .unwrap()
            .contains("the club stops here"),
        "{over}"
    );
}

/// Discord takes `content`, Slack `text`: each gets its own, and nothing signed.
#[test]
fn discord_and_slack_webhooks_get_their_own_format() {
    for (format, field) in [("discord", "content"), ("slack", "text")] {
        let tmp = tempfile::tempdir().expect("tmp");
        let hook = Hook::start(vec![]);
        let (dir, _) = game(
            tmp.path(),
            &format!("url = \"{}\"\nformat = \"{format}\"", hook.url("/chat")),
        );
        turn(&dir, BEFORE);
        turn(&dir, AFTER);
        let received = hook.received();
        assert_eq!(received.len(), 4, "{format}: deadline, two seats, the turn");
        for r in &received {
            let v = r.json();
            let text = v[field].as_str().expect("the message");
            assert!(text.starts_with("demo (Roads "), "{format}: {text}");
            assert_eq!(
                v.as_object().unwrap().len(),
                if format == "discord" { 2 } else { 1 }
            );
            assert!(r.header("x-judge-signature-256").is_none());
        }
        let last = received[3].json();
        assert!(last[field].as_str().unwrap().contains("turn 1 played"));
        assert!(last[field].as_str().unwrap().ends_with("turn-001.html"));
    }
}

/// `[notify] events` chooses what is posted.
#[test]
fn only_the_events_chosen_are_posted() {
    let tmp = tempfile::tempdir().expect("tmp");
    let hook = Hook::start(vec![]);
    let (dir, _) = game(
        tmp.path(),
        &format!("url = \"{}\"\nevents = [\"turn\"]", hook.url("/game")),
    );
    turn(&dir, BEFORE);
    turn(&dir, AFTER);
    assert_eq!(events(&hook), ["turn"]);
}

fn queued(dir: &Path, key: &str) -> serde_json::Value {
    serde_json::from_slice(
        &std::fs::read(dir.join("outbox/notices").join(format!("{key}.json"))).expect("queued"),
    )
    .expect("json")
}

/// A webhook that answers 500 gets the notice again, once its wait (a minute after the
/// first failure) is over, and not before; the turn's run is not failed by it.
#[test]
fn a_notice_is_tried_again_after_a_500_once_its_wait_is_over() {
    let tmp = tempfile::tempdir().expect("tmp");
    let hook = Hook::start(vec![Answer::Status(500)]);
    let (dir, _) = game(
        tmp.path(),
        &format!("url = \"{}\"\nevents = [\"deadline\"]", hook.url("/game")),
    );
    let out = turn(&dir, BEFORE);
    assert!(
        out.contains("not posted, tried again later: the webhook answered 500"),
        "{out}"
    );
    assert_eq!(queued(&dir, "deadline-001")["tries"], 1);
    turn(&dir, "2026-12-01T12:00:30Z");
    assert_eq!(hook.received().len(), 1, "not before its wait is over");
    let out = turn(&dir, "2026-12-01T12:01:01Z");
    assert!(out.contains("posted 1 notice"), "{out}");
    assert_eq!(hook.received().len(), 2);
    assert!(dir.join("outbox/notices/sent/deadline-001.json").is_file());
}

/// A webhook nobody answers at (the connection refused): the notice waits, the turn
/// is played and its run ends well; the wait doubles with each try.
#[test]
fn a_refused_connection_leaves_the_notice_waiting_and_the_turn_played() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = game(tmp.path(), &format!("url = \"{}\"", refused_url()));
    let out = turn(&dir, AFTER);
    assert!(
        out.contains("notice turn-001 not posted, tried again later"),
        "{out}"
    );
    assert!(dir.join("turns/001").is_dir(), "the turn is played");
    let q = queued(&dir, "turn-001");
    assert_eq!(q["tries"], 1);
    let first = q["not_before"].as_u64().unwrap();
    turn(&dir, "2026-12-01T19:01:01Z");
    let q = queued(&dir, "turn-001");
    assert_eq!(q["tries"], 2);
    // The second wait, from the second try (a second after the first wait ended): two minutes.
    assert_eq!(q["not_before"].as_u64().unwrap() - first, 1 + 120);
}

/// A webhook slower than `[notify] timeout` costs the run that long and no more: the
/// run ends (exit 0), the turn played, the notice waiting for a later run.
#[test]
fn a_slow_webhook_does_not_hold_up_the_turn() {
    let tmp = tempfile::tempdir().expect("tmp");
    let hook = Hook::start(vec![Answer::Slow(std::time::Duration::from_secs(20))]);
    let (dir, _) = game(
        tmp.path(),
        &format!(
            "url = \"{}\"\nevents = [\"turn\"]\ntimeout = \"300ms\"",
            hook.url("/slow")
        ),
    );
    // run_judge_for runs on the real clock: --force plays the turn whenever that is.
    let (code, out, err) = support::run_judge_for(
        &["turn", d(&dir), "--force"],
        std::time::Duration::from_secs(15),
    )
    .unwrap_or((-1, String::new(), "still running after 15 s".into()));
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.join("turns/001").is_dir());
    assert!(
        out.contains("notice turn-001 not posted, tried again later"),
        "{out}"
    );
    assert_eq!(hook.received().len(), 1);
}

/// A redirect is never followed, to another host or any: the notice is given up, kept
/// with why, and the address it names receives nothing.
#[test]
fn a_redirect_is_never_followed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let elsewhere = Hook::start(vec![]);
    let hook = Hook::start(vec![Answer::Redirect(elsewhere.url("/stolen"))]);
    let (dir, _) = game(
        tmp.path(),
        &format!("url = \"{}\"\nevents = [\"turn\"]", hook.url("/game")),
    );
    let out = turn(&dir, AFTER);
    assert!(out.contains("notice turn-001 given up"), "{out}");
    assert!(out.contains("a redirect"), "{out}");
    assert_eq!(hook.received().len(), 1);
    assert!(elsewhere.received().is_empty(), "the redirect was followed");
    assert!(dir.join("outbox/notices/failed/turn-001.json").is_file());
    turn(&dir, "2026-12-02T19:00:00Z");
    assert_eq!(
        hook.received().len(),
        1,
        "a notice given up is not tried again"
    );
}

/// An address that is not http(s) is refused when game.toml is read, with its line.
#[test]
fn a_webhook_that_is_not_http_is_refused_with_its_line() {
    for url in [
        "ftp://example.org/hook",
        "file:///etc/passwd",
        "example.org/hook",
    ] {
        let tmp = tempfile::tempdir().expect("tmp");
        let (dir, _) = game(tmp.path(), &format!("url = \"{url}\""));
        let (code, out, err) = judge(&["status", d(&dir)], BEFORE);
        assert_eq!(code, 1, "{url}: {out}{err}");
        let line = std::fs::read_to_string(dir.join("game.toml"))
            .unwrap()
            .lines()
            .position(|l| l.starts_with("url = "))
            .unwrap()
            + 1;
        assert!(err.contains("[notify] url"), "{err}");
        assert!(err.contains(&format!("game.toml:{line}:")), "{url}: {err}");
    }
}

/// The folder's webhook (judge.toml's `[notify]`) hears of a game opened for sign-up
/// in it, at once, and of no game twice.
#[test]
fn a_game_open_for_sign_up_is_posted_to_the_folders_webhook() {
    let tmp = tempfile::tempdir().expect("tmp");
    let hook = Hook::start(vec![]);
    let root = tmp.path();
    std::fs::write(
        root.join("judge.toml"),
        format!(
            "[mail]\nfrom = \"judge@example.org\"\npickup = \"pickup\"\n\n[notify]\nurl = \"{}\"\nformat = \"slack\"\n",
            hook.url("/club")
        ),
    )
    .unwrap();
    let dir = root.join("harbour");
    let (code, out, err) = judge(
        &[
            "new",
            d(&dir),
            "--game",
            "catan-express",
            "--seed",
            "9",
            "--player",
            "Ann:ann@example.org",
            "--open",
            "2",
        ],
        BEFORE,
    );
    assert_eq!(code, 0, "{out}{err}");
    let received = hook.received();
    assert_eq!(received.len(), 1, "{out}");
    assert_eq!(received[0].header("x-judge-event"), Some("signup"));
    let text = received[0].json()["text"].as_str().unwrap().to_string();
    assert!(
        text.contains("harbour (Catan Express): open for sign-up"),
        "{text}"
    );
    assert!(text.contains("join harbour as YOUR NAME"), "{text}");
    turn(&dir, BEFORE);
    assert_eq!(hook.received().len(), 1);
}

fn mail(id: &str, from: &str, body: &str) -> Vec<u8> {
    format!("From: {from}\r\nTo: judge@example.org\r\nSubject: notices\r\nMessage-ID: <{id}@test>\r\n\r\n{body}").into_bytes()
}

fn ingest(dir: &Path, raw: &[u8]) -> String {
    let f = dir.parent().expect("parent").join("m.eml");
    std::fs::write(&f, raw).expect("write");
    let (code, out, err) = judge(&["ingest", d(dir), f.to_str().unwrap()], BEFORE);
    assert_eq!(code, 0, "{out}{err}");
    out
}

/// The answer mailed to `to` last.
fn last_answer(dir: &Path, to: &str) -> String {
    let mut names = support::file_names(&dir.join("pickup"));
    names.sort();
    names
        .iter()
        .rev()
        .map(|n| std::fs::read_to_string(dir.join("pickup").join(n)).unwrap())
        .find(|m| m.contains(&format!("To: {to}")) || m.contains(&format!("<{to}>")))
        .unwrap_or_default()
}

/// `notify URL` by mail sets a player's own webhook, with their secret only: a forged
/// mail (no secret) changes nothing; 10,000 lines of it in one mail carry out one and
/// answer in one mail; an address on this machine is refused unless the GM allows it.
/// The player's webhook then gets their notices only: the public turn, and their own
/// orders missing, never another's.
#[test]
fn notify_by_mail_sets_a_players_own_webhook_with_their_secret() {
    let tmp = tempfile::tempdir().expect("tmp");
    let game_hook = Hook::start(vec![]);
    let ann = Hook::start(vec![]);
    let (dir, red) = game(
        tmp.path(),
        &format!("url = \"{}\"\nprivate_hosts = true", game_hook.url("/game")),
    );
    let prefs = || std::fs::read_to_string(dir.join("mail/preferences.toml")).unwrap_or_default();

    ingest(
        &dir,
        &mail(
            "forged",
            "ann@example.org",
            &format!("notify {}\n", ann.url("/Ann/Token")),
        ),
    );
    assert!(
        !prefs().contains("webhook"),
        "a mail without the secret sets nothing"
    );
    assert!(last_answer(&dir, "ann@example.org").contains("needs your secret"));

    let many = format!(
        "secret {red}\n{}",
        format!("notify {}\n", ann.url("/Ann/Token")).repeat(10_000)
    );
    let out = ingest(&dir, &mail("many", "ann@example.org", &many));
    assert!(out.contains("notify"), "{out}");
    assert!(
        prefs().contains(&format!("webhook = \"{}\"", ann.url("/Ann/Token"))),
        "{}",
        prefs()
    );
    let answer = last_answer(&dir, "ann@example.org");
    assert!(
        answer.contains("From now on your notices are posted to the webhook at 127.0.0.1"),
        "{answer}"
    );
    assert!(
        answer.contains("Only the first `notify` of a mail is carried out"),
        "{answer}"
    );
    assert!(answer.len() < 64 * 1024);

    turn(&dir, BEFORE);
    turn(&dir, AFTER);
    let own: Vec<serde_json::Value> = ann.received().iter().map(|r| r.json()).collect();
    assert_eq!(own.len(), 2, "{own:?}");
    assert_eq!(own[0]["event"], "deadline");
    assert_eq!(
        own[0]["missing"],
        serde_json::json!(["red"]),
        "her own seat only"
    );
    assert_eq!(own[1]["event"], "turn");
    assert!(
        ann.received().iter().all(|r| r.path == "/Ann/Token"),
        "the address as written"
    );
    assert!(
        ann.received()
            .iter()
            .all(|r| r.header("x-judge-signature-256").is_none())
    );
    assert_eq!(
        game_hook.received().len(),
        4,
        "the game's own webhook as before"
    );

    ingest(
        &dir,
        &mail(
            "off",
            "ann@example.org",
            &format!("secret {red}\nnotify off\n"),
        ),
    );
    assert!(!prefs().contains("webhook"));
}

/// Without `[notify] private_hosts = true`, a player's webhook on this machine or a
/// private network is refused: no player makes the judge post inside its network.
#[test]
fn a_players_webhook_on_a_private_network_is_refused() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "");
    for url in [
        "http://127.0.0.1:8080/x",
        "http://169.254.169.254/latest",
        "http://localhost/x",
        "ftp://example.org/x",
    ] {
        ingest(
            &dir,
            &mail(
                &format!("m{}", url.len()),
                "ann@example.org",
                &format!("secret {red}\nnotify {url}\n"),
            ),
        );
        let answer = last_answer(&dir, "ann@example.org");
        assert!(answer.contains("Not done:"), "{url}: {answer}");
        assert!(
            !std::fs::read_to_string(dir.join("mail/preferences.toml"))
                .unwrap_or_default()
                .contains("webhook"),
            "{url}"
        );
    }
}

/// A name is no way around the rule either: a player's webhook named by a host name
/// that leads to this machine (here the machine's own name, which the system resolves
/// to itself) is set, as its name says nothing, but nothing is ever posted to it: the
/// notice is given up with where the name led, and the test's server, listening
/// there, receives nothing.
#[test]
fn a_players_webhook_whose_name_leads_to_this_machine_is_never_posted_to() {
    let own = std::process::Command::new("hostname")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let leads_here = std::net::ToSocketAddrs::to_socket_addrs(&(own.as_str(), 80))
        .map(|mut a| a.any(|a| a.ip().is_loopback()))
        .unwrap_or(false);
    if own.is_empty() || !leads_here {
        eprintln!("this machine's name ({own:?}) does not lead to a loopback address here");
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let ann = Hook::start(vec![]);
    let (dir, red) = game(tmp.path(), "");
    let by_name = ann.url("/Ann").replace("127.0.0.1", &own);
    ingest(
        &dir,
        &mail(
            "name",
            "ann@example.org",
            &format!("secret {red}\nnotify {by_name}\n"),
        ),
    );
    assert!(
        std::fs::read_to_string(dir.join("mail/preferences.toml"))
            .unwrap_or_default()
            .contains("webhook"),
        "the address as written names no private host"
    );
    turn(&dir, BEFORE);
    turn(&dir, AFTER);
    assert!(ann.received().is_empty(), "{:?}", ann.received().len());
    let failed = dir.join("outbox/notices/failed");
    let why: String = support::file_names(&failed)
        .iter()
        .map(|n| std::fs::read_to_string(failed.join(n)).unwrap_or_default())
        .collect();
    assert!(why.contains("leads to 127.0.0.1"), "{why}");
}

/// The notice outbox is inside outbox/, which the game's .gitignore keeps out of git.
#[test]
fn the_notice_outbox_is_kept_out_of_git() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = game(tmp.path(), &format!("url = \"{}\"", refused_url()));
    turn(&dir, AFTER);
    assert!(dir.join("outbox/notices/turn-001.json").is_file());
    let init = std::process::Command::new("git")
        .arg("-C")
        .arg(&dir)
        .args(["init", "-q"])
        .status()
        .expect("git");
    assert!(init.success());
    let ignored = std::process::Command::new("git")
        .arg("-C")
        .arg(&dir)
        .args([
            "check-ignore",
            "-q",
            "--no-index",
            "outbox/notices/turn-001.json",
        ])
        .status()
        .expect("git");
    assert!(ignored.success(), "git would keep the notice outbox");
}

/// Each event in each format, as it is laid out (a snapshot).
#[test]
fn each_event_in_each_format() {
    let mut out = String::new();
    for event in NotifyEvent::ALL {
        let mut n = Notice {
            event,
            game: "island".into(),
            title: "Roads & Boats".into(),
            turn: 3,
            summary: "Red built a woodcutter.".into(),
            link: Some("https://judge.example.org/island/turn-003.html".into()),
            deadline: None,
            missing: vec![],
            seats: vec![],
        };
        match event {
            NotifyEvent::Deadline => {
                n.summary = "Orders are not in yet from red.".into();
                n.deadline = Some("2026-12-01 at 18:00:00 UTC".into());
                n.missing = vec!["red".into()];
                n.link = None;
            }
            NotifyEvent::SeatOpen | NotifyEvent::Signup => {
                n.summary = "Mail `join island as NAME` to the judge.".into();
                n.seats = vec!["blue".into()];
                n.link = None;
            }
            NotifyEvent::Over => n.summary = "The game is over: red wins.".into(),
            NotifyEvent::Turn => {}
        }
        for format in [
            NotifyFormat::Discord,
            NotifyFormat::Slack,
            NotifyFormat::Json,
        ] {
            out.push_str(&format!(
                "{} {}:\n{}\n\n",
                event.name(),
                format.name(),
                String::from_utf8(payload::body(format, &n)).unwrap()
            ));
        }
    }
    insta::assert_snapshot!(out);
}

/// A JSON notice whose secret is not set where the judge runs is never posted unsigned:
/// it waits, and goes signed once the variable is set.
#[test]
fn a_json_notice_waits_for_its_secret() {
    let tmp = tempfile::tempdir().expect("tmp");
    let hook = Hook::start(vec![]);
    let (dir, _) = game(
        tmp.path(),
        &format!(
            "url = \"{}\"\nsecret_env = \"HOOK_SECRET\"\nevents = [\"turn\"]",
            hook.url("/game")
        ),
    );
    let (code, out, err) = support::judge_text(&["turn", d(&dir)], &[("JUDGE_NOW", AFTER)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("HOOK_SECRET, which is not set"), "{out}");
    assert!(hook.received().is_empty(), "posted unsigned");
    turn(&dir, AFTER);
    let received = hook.received();
    assert_eq!(received.len(), 1);
    assert_eq!(
        received[0].header("x-judge-signature-256"),
        Some(hmac_sha256(SECRET.as_bytes(), &received[0].body).as_str())
    );
}
