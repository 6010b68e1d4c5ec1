//! Issue 21: what reading one mail costs, for the worst shapes of mail at 2 MB. Run with
//! `cargo bench --bench mail`. Goal: each under 1 s (and under 100 MB of memory, measured
//! on `judge ingest` of each shape: see the closing note of issue 21 and
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
/// and the most elements allowed, each with long text.
fn within_limits() -> Vec<(&'static str, Vec<u8>)> {
    let head = "From: ann@example.org\r\nSubject: orders\r\nContent-Type: text/html\r\n\r\n";
    let deep = format!(
        "{}{}",
        "<div>".repeat(budget::MAX_HTML_DEPTH),
        "</div>".repeat(budget::MAX_HTML_DEPTH)
    );
    let mut html = String::new();
    while html.len() + deep.len() < 1_900_000
        && (html.matches("<div>").count() + budget::MAX_HTML_DEPTH) <= budget::MAX_HTML_ELEMENTS
    {
        html.push_str(&deep);
        html.push_str("move D1: load 1 board; C3\n");
    }
    let text = "x".repeat(1_900_000 / budget::MAX_HTML_ELEMENTS);
    let cells = format!(
        "<table><tr>{}</tr></table>",
        format!("<td>{text}</td>").repeat(budget::MAX_HTML_ELEMENTS - 2)
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
    vec![
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
    ]
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

/// Issue 37, point 2: what a pass over a folder of games does with one mail before its
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
        route::Entry {
            name: "island".into(),
            players: vec!["ann@example.org".into(), "bob@example.org".into()],
            about: "Catan, turn 1 next".into(),
        },
        route::Entry {
            name: "harbour".into(),
            players: vec!["bob@example.org".into()],
            about: "Roads & Boats, turn 1 next".into(),
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

criterion_group!(benches, worst_mails, worst_mails_in_a_folder);
criterion_main!(benches);
