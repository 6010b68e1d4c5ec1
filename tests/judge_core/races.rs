//! One writer at a time. Every pair of the commands that change a
//! game (new, secret, ingest, turn, mail, deadline) is run at once, 20 times, against one
//! game whose mail goes through a real SMTP server; a new order mail arrives before each
//! round. Afterwards nothing was lost (every mail is in the log, exactly once, under its
//! own number), nothing was sent twice (every Message-ID the server received is
//! different), and no turn was played twice (no orders appear in two turns).

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::servers::Servers;

const COMMANDS: [&str; 6] = ["new", "secret", "ingest", "turn", "mail", "deadline"];
const ROUNDS: usize = 20;
const NOW: &str = "2026-12-01T12:00:00Z";

fn args(cmd: &str, game: &Path, maildir: &Path, fresh: &Path) -> Vec<String> {
    let g = game.display().to_string();
    match cmd {
        "new" => vec![
            "new".into(),
            fresh.display().to_string(),
            "--scenario".into(),
            "two-rivers".into(),
            "--seed".into(),
            "1".into(),
            "--player".into(),
            "A:a@example.org".into(),
            "--player".into(),
            "B:b@example.org".into(),
        ],
        "secret" => vec!["secret".into(), g, "red".into(), "--reset".into()],
        "ingest" => vec![
            "ingest".into(),
            g,
            "--maildir".into(),
            maildir.display().to_string(),
        ],
        "turn" => vec!["turn".into(), g],
        "mail" => vec!["mail".into(), g],
        _ => vec![
            "deadline".into(),
            g,
            "--extend".into(),
            "1min".into(),
            "--quiet".into(),
            // The game's deadlines, a minute apart, are long past by the clock.
            "--past".into(),
        ],
    }
}

fn spawn(a: &[String]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(a)
        .env("JUDGE_NOW", NOW)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("judge")
}

#[test]
fn every_pair_of_writers_at_once_loses_nothing_and_does_nothing_twice() {
    let srv = Servers::start();
    let tmp = tempfile::tempdir().expect("tmp");
    let game = tmp.path().join("demo");
    support::new_demo(&game, "Ann", &[]);
    let (_, yellow) = support::new_secrets(&game, &[]);
    let toml = game.join("game.toml");
    let mut t = std::fs::read_to_string(&toml).expect("toml");
    t.push_str(&format!(
        "\n[mail]\nfrom = \"Judge <judge@example.org>\"\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {}\nsmtp_security = \"none\"\n\n[schedule]\nfirst_deadline = \"2026-01-01T00:00:00Z\"\nevery = \"1min\"\n",
        srv.smtp
    ));
    std::fs::write(&toml, t).expect("write");
    // Incoming order mail goes into a Maildir of its own.
    let maildir = tmp.path().join("incoming");
    std::fs::create_dir_all(maildir.join("new")).expect("new");
    std::fs::create_dir_all(maildir.join("cur")).expect("cur");
    let mut sent_ids = Vec::new();
    let mut n = 0;
    for (i, a) in COMMANDS.iter().enumerate() {
        for b in &COMMANDS[i..] {
            for round in 0..ROUNDS {
                n += 1;
                let id = format!("<m{n}@race>");
                let mail = format!(
                    "From: bob@example.org\r\nSubject: orders\r\nMessage-ID: {id}\r\n\r\ngame demo\r\nplayer yellow\r\nsecret {yellow}\r\nmovement\r\nmove D4: I3 # race {n}\r\n"
                );
                std::fs::write(maildir.join(format!("new/{n}.M{n}.race")), mail).expect("mail");
                sent_ids.push(id);
                let fresh_a = tmp.path().join(format!("fresh-{n}"));
                let fresh_b = if a == b {
                    fresh_a.clone()
                } else {
                    tmp.path().join(format!("fresh-{n}-b"))
                };
                let mut pa = spawn(&args(a, &game, &maildir, &fresh_a));
                let mut pb = spawn(&args(b, &game, &maildir, &fresh_b));
                let (ra, rb) = (pa.wait().expect("a"), pb.wait().expect("b"));
                let out = |c: std::process::Child| {
                    let o = c.wait_with_output().expect("output");
                    format!(
                        "{}{}",
                        String::from_utf8_lossy(&o.stdout),
                        String::from_utf8_lossy(&o.stderr)
                    )
                };
                let (oa, ob) = (out(pa), out(pb));
                // Two `judge new` of one folder: one makes it, the other is told it exists.
                if *a == "new" && *b == "new" {
                    let made = [ra.success(), rb.success()];
                    assert_eq!(
                        made.iter().filter(|m| **m).count(),
                        1,
                        "{a}/{b} round {round}: {oa}{ob}"
                    );
                    assert!(
                        oa.contains("already exists") || ob.contains("already exists"),
                        "{oa}{ob}"
                    );
                    continue;
                }
                // Turns are due every minute, so the game ends (33 neutral bricks) long
                // before the last round: from then on, moving a deadline is refused.
                let ok = |r: std::process::ExitStatus, o: &str| {
                    r.success() || o.contains("the game is over: there is no deadline to move")
                };
                assert!(ok(ra, &oa), "{a} (with {b}, round {round}) failed: {oa}");
                assert!(ok(rb, &ob), "{b} (with {a}, round {round}) failed: {ob}");
            }
        }
    }
    // Let the last mails in and out.
    let g = game.to_str().expect("utf-8");
    let m = maildir.to_str().expect("utf-8");
    let (code, out, err) =
        support::judge_text(&["ingest", g, "--maildir", m], &[("JUDGE_NOW", NOW)]);
    assert_eq!(code, 0, "{out}{err}");

    // Nothing lost: every mail is in the log once, and the numbers never repeat.
    let log = std::fs::read_to_string(game.join("mail/log.jsonl")).expect("log");
    let entries: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let seqs: Vec<u64> = entries.iter().filter_map(|e| e["seq"].as_u64()).collect();
    let unique: BTreeSet<u64> = seqs.iter().copied().collect();
    assert_eq!(unique.len(), seqs.len(), "a number was given twice");
    let mut per_id: BTreeMap<String, usize> = BTreeMap::new();
    for e in &entries {
        if e.get("again_of").is_none() {
            *per_id
                .entry(e["message_id"].as_str().unwrap_or("").to_string())
                .or_default() += 1;
        }
    }
    for id in &sent_ids {
        assert_eq!(
            per_id.get(id),
            Some(&1),
            "{id} logged {:?} times",
            per_id.get(id)
        );
    }
    // Nothing sent twice.
    let mut delivered: BTreeMap<String, usize> = BTreeMap::new();
    for (_, raw) in srv.delivered_raw() {
        let m = mail_parser::MessageParser::default()
            .parse(&raw)
            .expect("mail");
        *delivered
            .entry(m.message_id().unwrap_or("").to_string())
            .or_default() += 1;
    }
    assert!(!delivered.is_empty());
    let twice: Vec<_> = delivered.iter().filter(|(_, c)| **c > 1).collect();
    assert!(twice.is_empty(), "sent twice: {twice:?}");
    // No turn played twice: each round's orders are in one turn at most, the turns are
    // numbered without a gap, and nothing was left half-done.
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    let turns: Vec<u32> = std::fs::read_dir(game.join("turns"))
        .expect("turns")
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse().ok()))
        .collect();
    let max = turns.iter().copied().max().unwrap_or(0);
    assert_eq!(turns.len() as u32, max + 1, "turns 0..{max} without a gap");
    assert!(max > 10, "turns were played: {max}");
    for t in 1..=max {
        if let Ok(text) =
            std::fs::read_to_string(game.join(format!("turns/{t:03}/orders/yellow.txt")))
        {
            for mark in text.lines().filter_map(|l| l.split("# race ").nth(1)) {
                if let Some(first) = seen.insert(mark.to_string(), t) {
                    panic!("the orders of round {mark} were played in turn {first} and turn {t}");
                }
            }
        }
    }
    let leftovers: Vec<_> = std::fs::read_dir(game.join("pending"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
