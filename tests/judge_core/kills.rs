//! `kill -9` of `judge ingest` (25 times) and of `judge mail` (15 times) at
//! random moments, then one run to the end. Every mail is filed exactly once, every
//! answer is sent, and a mail is sent twice only if a kill struck in the instant between
//! the server taking it and the judge marking it sent (docs/archive.md, "What can go
//! wrong"): never more often than there were kills during sending.

use crate::support;

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::servers::Servers;

const NOW: &str = "2026-12-01T12:00:00Z";

/// A small, repeatable stream of delays.
fn delays(seed: u64, n: usize) -> Vec<Duration> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            Duration::from_millis(5 + (x >> 33) % 120)
        })
        .collect()
}

fn killed(args: &[&str], after: Duration) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .env("JUDGE_NOW", NOW)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("judge");
    std::thread::sleep(after);
    let _ = c.kill();
    let _ = c.wait();
}

fn deliveries(srv: &Servers) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for (_, raw) in srv.delivered_raw() {
        let m = mail_parser::MessageParser::default()
            .parse(&raw)
            .expect("mail");
        *out.entry(m.message_id().unwrap_or("").to_string())
            .or_default() += 1;
    }
    out
}

#[test]
fn killed_ingest_and_mail_lose_nothing_and_resend_at_most_the_mail_in_flight() {
    let srv = Servers::start();
    let tmp = tempfile::tempdir().expect("tmp");
    let game = tmp.path().join("demo");
    support::new_demo(&game, "Ann", &[]);
    let (red, yellow) = support::new_secrets(&game, &[]);
    let toml = game.join("game.toml");
    let mut t = std::fs::read_to_string(&toml).expect("toml");
    t.push_str(&format!(
        "\n[mail]\nfrom = \"Judge <judge@example.org>\"\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {}\nsmtp_security = \"none\"\n",
        srv.smtp
    ));
    std::fs::write(&toml, t).expect("write");
    let incoming = tmp.path().join("incoming");
    std::fs::create_dir_all(incoming.join("new")).expect("new");
    std::fs::create_dir_all(incoming.join("cur")).expect("cur");
    let mails = 40;
    for n in 0..mails {
        let (who, colour, secret) = if n % 2 == 0 {
            ("ann", "red", &red)
        } else {
            ("bob", "yellow", &yellow)
        };
        let body = format!(
            "From: {who}@example.org\r\nSubject: orders {n}\r\nMessage-ID: <k{n}@kill>\r\n\r\ngame demo\r\nplayer {colour}\r\nsecret {secret}\r\nmovement\r\nmove D1: C3 # {n}\r\n"
        );
        std::fs::write(incoming.join(format!("new/{n:03}.M{n}.kill")), body).expect("write");
    }
    let g = game.to_str().expect("utf-8");
    let m = incoming.to_str().expect("utf-8");
    let ingest = ["ingest", g, "--maildir", m];
    for d in delays(7, 25) {
        killed(&ingest, d);
    }
    let (code, out, err) = support::judge_text(&ingest, &[("JUDGE_NOW", NOW)]);
    assert_eq!(code, 0, "{out}{err}");
    // Every mail filed exactly once, under its own number.
    let log = std::fs::read_to_string(game.join("mail/log.jsonl")).expect("log");
    let mut per_id: BTreeMap<String, usize> = BTreeMap::new();
    let mut seqs = Vec::new();
    for l in log.lines() {
        let e: serde_json::Value = serde_json::from_str(l).expect("a whole line");
        // A kill between two writes of a good mail's filing is done again by the next
        // run: the mail is never refused for it (as it was when a kill in the filing
        // counted as a run stopped by the mail's reading).
        assert_eq!(e["outcome"], "accepted", "{l}");
        *per_id
            .entry(e["message_id"].as_str().unwrap_or("").into())
            .or_default() += 1;
        seqs.push(e["seq"].as_u64().unwrap_or(0));
    }
    assert_eq!(per_id.len(), mails, "{per_id:?}");
    assert!(per_id.values().all(|c| *c == 1), "{per_id:?}");
    let mut sorted = seqs.clone();
    sorted.dedup();
    assert_eq!(sorted.len(), seqs.len());
    let after_ingest = deliveries(&srv);
    assert_eq!(
        after_ingest.len(),
        mails,
        "every answer sent: {}",
        after_ingest.len()
    );
    let resent: usize = after_ingest.values().map(|c| c - 1).sum();
    assert!(resent <= 25, "{resent} resent");

    // Forty more answers queued but not sent (`--no-send`), then `judge mail` killed 15
    // times while it sends them.
    for n in mails..2 * mails {
        let (who, colour, secret) = if n % 2 == 0 {
            ("ann", "red", &red)
        } else {
            ("bob", "yellow", &yellow)
        };
        let body = format!(
            "From: {who}@example.org\r\nSubject: orders {n}\r\nMessage-ID: <k{n}@kill>\r\n\r\ngame demo\r\nplayer {colour}\r\nsecret {secret}\r\nmovement\r\nmove D1: C3 # {n}\r\n"
        );
        std::fs::write(incoming.join(format!("new/{n:03}.M{n}.kill")), body).expect("write");
    }
    let (code, out, err) = support::judge_text(
        &["ingest", g, "--maildir", m, "--no-send"],
        &[("JUDGE_NOW", NOW)],
    );
    assert_eq!(code, 0, "{out}{err}");
    let outbox = game.join("outbox");
    let queued = std::fs::read_dir(&outbox)
        .expect("outbox")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".eml"))
        .count();
    assert_eq!(queued, mails);
    let mail = ["mail", g];
    for d in delays(11, 15) {
        killed(&mail, d);
    }
    let (code, out, err) = support::judge_text(&mail, &[("JUDGE_NOW", NOW)]);
    assert_eq!(code, 0, "{out}{err}");
    let after = deliveries(&srv);
    assert_eq!(after.len(), 2 * mails, "every queued mail was sent");
    let twice: usize = after.values().map(|c| c - 1).sum::<usize>() - resent;
    assert!(twice <= 15, "{twice} sent twice with 15 kills");
    let left: Vec<String> = std::fs::read_dir(&outbox)
        .expect("outbox")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        // The outbox's own lock stays, as the game's does.
        .filter(|n| !n.starts_with(".tmp-") && n != ".judge.lock")
        .collect();
    assert!(left.is_empty(), "the outbox is empty: {left:?}");
}
