//! How long the judge takes over the largest inputs it accepts, and that a
//! huge one is refused at once. Run with `cargo bench --bench check`.
//!
//! - `judge check` of a 1 MiB order file (20,000 lines of orders, each with a comment:
//!   the most an order file may hold), against the demo game: goal under 0.5 s.
//! - reading a 50 MB order file: refused after reading 1 MiB of it (goal: under 2 s and
//!   under 100 MB of memory; the memory is measured on the command, not
//!   here).

// Test code: a failed expectation stops the test where it failed (the judge's own code
// may not unwrap, expect or panic: Cargo.toml, [workspace.lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::io::Write;

use criterion::{Criterion, criterion_group, criterion_main};

use pbem_judge::pbem::game::Position;
use pbem_judge::pbem::limits;

fn big_orders() -> String {
    let mut text = String::from("game demo\nplayer red\nturn 1\nmovement\n");
    let mut i = 0;
    while text.lines().count() < limits::ORDER_LINES {
        let order = if i % 2 == 0 {
            "move D1: load 1 board; C3"
        } else {
            "move D2: C4"
        };
        text.push_str(&format!("{order:<30} # shuttle {i:>6}\n"));
        i += 1;
    }
    text
}

fn check_a_full_order_file(c: &mut Criterion) {
    let state: pbem_judge::roads_boats::State =
        serde_json::from_str(include_str!("../games/demo/turns/000/state.json")).expect("demo");
    let text = big_orders();
    assert!(
        limits::too_big(&text).is_none(),
        "the file is within the limits"
    );
    eprintln!(
        "order file: {} bytes, {} lines",
        text.len(),
        text.lines().count()
    );
    let mut g = c.benchmark_group("check");
    g.sample_size(10);
    g.bench_function("check a 1 MiB order file", |b| {
        b.iter(|| state.check(black_box(&text), "big.txt", Some("red"), Some("demo")))
    });
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("huge.txt");
    let mut f = std::fs::File::create(&path).expect("create");
    let line = b"move D1: load 1 board; C3\n";
    for _ in 0..(50 * 1024 * 1024 / line.len()) {
        f.write_all(line).expect("write");
    }
    drop(f);
    g.bench_function("refuse a 50 MB order file", |b| {
        b.iter(|| assert!(limits::read_order_file(black_box(&path)).is_err()))
    });
    g.finish();
}

criterion_group!(benches, check_a_full_order_file);
criterion_main!(benches);
