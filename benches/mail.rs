//! What reading one mail costs, for the worst shapes of mail at 2 MB,
//! and what carrying out one mail of commands costs. Run with `cargo bench --bench
//! mail`. Goal: each under 1 s (and under 100 MB of memory, measured
//! on `judge ingest` of each shape: see
//! docs/archive.md, "Limits on one mail").
//!
//! Each mail is read as the intake reads a player's (HTML too), then every secret-shaped
//! value in it is found and blanked. The shapes over a limit are refused by the first
//! linear scan (or, for secret-shaped words, by counting them); the ones just within the
//! limits are read whole and blanked.

// Test code: a failed expectation stops the test where it failed (the judge's own code
// may not unwrap, expect or panic: Cargo.toml, [workspace.lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use pbem_judge::fuzzing::{HOSTILE, hostile_mail};
use pbem_judge::mail::{budget, inbound, redact};
use pbem_judge::pbem::{house, intake, route};

/// What the intake does with a mail before it writes anything.
fn read_and_blank(raw: &[u8]) -> usize {
    match inbound::read(raw) {
        Ok(m) => {
            let values = redact::candidates(
                [m.subject.as_str(), m.message_id.as_str()]
                    .into_iter()
                    .chain(m.parts.iter().map(|p| p.text.as_str())),
            );
            if values.len() > budget::MAX_SECRET_VALUES {
                return values.len(); // refused unread
            }
            m.parts
                .iter()
                .map(|p| redact::blank(&p.text, &values).len())
                .sum()
        }
        Err(e) => e.to_string().len(),
    }
}

/// HTML just within the limits, padded to 2 MB: the deepest nesting allowed, repeated;
/// and the most elements allowed, each with long text. The limits count what the parser
/// builds, which adds `<html>`, `<head>` and `<body>` to every document (and `<tbody>`
/// to a table): the shapes leave room for them, and each is read whole.
fn within_limits() -> Vec<(&'static str, Vec<u8>)> {
    let head = "From: ann@example.org\r\nSubject: orders\r\nContent-Type: text/html\r\n\r\n";
    // Inside <html> and <body>.
    let depth = budget::MAX_HTML_DEPTH - 2;
    let deep = format!("{}{}", "<div>".repeat(depth), "</div>".repeat(depth));
    let mut html = String::new();
    while html.len() + deep.len() < 1_900_000
        && (html.matches("<div>").count() + depth + 3) <= budget::MAX_HTML_ELEMENTS
    {
        html.push_str(&deep);
        html.push_str("move D1: load 1 board; C3\n");
    }
    let text = "x".repeat(1_900_000 / budget::MAX_HTML_ELEMENTS);
    let cells = format!(
        "<table><tr>{}</tr></table>",
        format!("<td>{text}</td>").repeat(budget::MAX_HTML_ELEMENTS - 6)
    );
    // As many secret-shaped words as a mail may hold, each many times over 2 MB.
    let plain = "From: ann@example.org\r\nSubject: orders\r\n\r\n";
    let words: Vec<String> = (0..budget::MAX_SECRET_VALUES)
        .map(|w| format!("abcd-efgh-{w:04}"))
        .collect();
    let mut secrets = String::new();
    while secrets.len() < 1_900_000 {
        secrets.push_str(&words.join(" "));
        secrets.push_str(" move D1: load 1 board; C3\n");
    }
    let shapes = vec![
        (
            "secret-shaped words at the limit",
            format!("{plain}{secrets}").into_bytes(),
        ),
        (
            "HTML at the depth limit",
            format!("{head}{html}").into_bytes(),
        ),
        (
            "HTML at the element limit",
            format!("{head}{cells}").into_bytes(),
        ),
    ];
    for (name, raw) in &shapes {
        assert!(inbound::read(raw).is_ok(), "{name} is read whole");
    }
    shapes
}

fn worst_mails(c: &mut Criterion) {
    let mut mails: Vec<(&str, Vec<u8>)> = HOSTILE
        .iter()
        .enumerate()
        .map(|(k, name)| (*name, hostile_mail(k, 1, "ann@example.org")))
        .collect();
    mails.extend(within_limits());
    let mut g = c.benchmark_group("one mail of 2 MB");
    g.sample_size(10);
    for (name, raw) in &mails {
        assert!(raw.len() <= inbound::MAX_BYTES, "{name}: {}", raw.len());
        g.bench_function(*name, |b| b.iter(|| read_and_blank(black_box(raw))));
    }
    g.finish();
}

/// A demo game with a `[mail]` pickup folder, made by the judge itself: its folder, and
/// red's secret.
fn demo_game(root: &std::path::Path) -> (std::path::PathBuf, String) {
    let judge = env!("CARGO_BIN_EXE_judge");
    let dir = root.join("demo");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(judge)
            .args(args)
            .output()
            .expect("judge runs");
        assert!(out.status.success(), "judge {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let d = dir.to_str().expect("utf-8");
    run(&[
        "new",
        d,
        "--scenario",
        "two-rivers",
        "--player",
        "Ann:ann@example.org",
        "--player",
        "Bob:bob@example.org",
        "--seed",
        "7",
        "--press",
        "anonymous",
    ]);
    let shown = run(&["secret", d]);
    let secret = shown
        .lines()
        .find(|l| l.trim_start().starts_with("red"))
        .and_then(|l| l.split_whitespace().last())
        .expect("red's secret")
        .to_string();
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("game.toml");
    toml.push_str(&format!(
        "\n[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"{}\"\n",
        root.join("pickup").display()
    ));
    std::fs::write(dir.join("game.toml"), toml).expect("game.toml");
    (dir, secret)
}

/// One mail of commands (forged from a player, or with their
/// secret), filed as `judge ingest` files it — read, its commands carried out, their
/// answer and any press queued, the log written — into a fresh copy of a demo game.
fn command_mails(c: &mut Criterion) {
    use pbem_judge::pbem::{self, sources};
    let tmp = tempfile::tempdir().expect("tmp");
    let (template, secret) = demo_game(tmp.path());
    let head = "From: ann@example.org\r\nTo: judge@example.org\r\nSubject: commands\r\nMessage-ID: <c@x>\r\n\r\n";
    let resends: String = (0..68)
        .flat_map(|t| std::iter::repeat_n(format!("resend turn {t}\n"), 3))
        .collect();
    let shapes: Vec<(&str, String)> = vec![
        ("10,000 lines `help`", "help\n".repeat(10_000)),
        ("3,000 lines `template`", "template\n".repeat(3_000)),
        (
            "10,000 lines `press to all`, with the secret",
            format!(
                "secret {secret}\n{}",
                "press to all: hello\n".repeat(10_000)
            ),
        ),
        (
            "10,000 lines `anonymous press to all`, with the secret",
            format!(
                "secret {secret}\n{}",
                "anonymous press to all: who\n".repeat(10_000)
            ),
        ),
        (
            "`resend turn 0` … `resend turn 67`, each three times",
            resends,
        ),
    ];
    let now = humantime::parse_rfc3339("2026-11-26T09:00:00Z").expect("time");
    let mut g = c.benchmark_group("one mail of commands");
    g.sample_size(10);
    for (name, body) in &shapes {
        let raw = format!("{head}{body}").into_bytes();
        assert!(raw.len() <= inbound::MAX_BYTES, "{name}: {}", raw.len());
        g.bench_function(*name, |b| {
            b.iter_batched(
                || {
                    let copy = tempfile::tempdir().expect("tmp");
                    let dir = copy.path().join("demo");
                    let ok = std::process::Command::new("cp")
                        .arg("-a")
                        .arg(&template)
                        .arg(&dir)
                        .status()
                        .expect("cp");
                    assert!(ok.success());
                    (copy, dir)
                },
                |(_copy, dir)| {
                    let (archive, game) =
                        pbem::open(pbem_judge::games::registry(), &dir).expect("the game");
                    let mut intake = intake::Intake::open(&archive, game, now).expect("intake");
                    let filed = intake
                        .file(&sources::Mail {
                            raw: raw.clone(),
                            label: "bench".into(),
                            delivered: None,
                        })
                        .expect("filed");
                    black_box(filed)
                },
                criterion::BatchSize::PerIteration,
            );
        });
    }
    g.finish();
}

/// What a pass over a folder of games does with one mail before its
/// game writes anything — read once to route it (as the game reads it: HTML too, from a
/// player), then its secrets found and blanked in that same reading, which the game files
/// (`intake::Prior`) instead of reading the mail again.
fn folder_read(games: &[route::Entry], raw: &[u8]) -> usize {
    let routing = house::route_mail(games, true, "judge@example.org", raw, true);
    match routing.prior {
        Some(intake::Prior::Read { read: Ok(m), .. }) => {
            let values = redact::candidates(
                [m.subject.as_str(), m.message_id.as_str()]
                    .into_iter()
                    .chain(m.parts.iter().map(|p| p.text.as_str())),
            );
            if values.len() > budget::MAX_SECRET_VALUES {
                return values.len(); // refused unread
            }
            m.parts
                .iter()
                .map(|p| redact::blank(&p.text, &values).len())
                .sum()
        }
        Some(intake::Prior::Read { read: Err(e), .. }) => e.to_string().len(),
        _ => panic!(
            "a player's mail goes to their only game: {:?}",
            routing.route
        ),
    }
}

fn worst_mails_in_a_folder(c: &mut Criterion) {
    let games = vec![
        // Named as the hostile mails name their game (`game demo`, in some shapes).
        route::Entry {
            name: "demo".into(),
            players: vec!["ann@example.org".into(), "bob@example.org".into()],
            about: "Catan, turn 1 next".into(),
            formers: Vec::new(),
        },
        route::Entry {
            name: "harbour".into(),
            players: vec!["bob@example.org".into()],
            about: "Roads & Boats, turn 1 next".into(),
            formers: Vec::new(),
        },
    ];
    let mut mails: Vec<(&str, Vec<u8>)> = HOSTILE
        .iter()
        .enumerate()
        .map(|(k, name)| (*name, hostile_mail(k, 1, "ann@example.org")))
        .collect();
    mails.extend(within_limits());
    let mut g = c.benchmark_group("one mail of 2 MB in a folder of games");
    g.sample_size(10);
    for (name, raw) in &mails {
        g.bench_function(*name, |b| b.iter(|| folder_read(&games, black_box(raw))));
    }
    g.finish();
}

criterion_group!(benches, worst_mails, worst_mails_in_a_folder, command_mails);
criterion_main!(benches);
