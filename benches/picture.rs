//! How long the pictures take: `judge replay` of the archived two-player game
//! (32 turns, each played again and its reports and pictures made again and compared;
//! the target is under 0.15 s), and one busy six-player turn's map as PNG (drawn,
//! painted with the bundled font, and encoded; the target is under 10 ms), and as SVG.
//! Run with `cargo bench --bench picture`.

// Test code: a failed expectation stops the test where it failed (the judge's own code
// may not unwrap, expect or panic: Cargo.toml, [workspace.lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};

use pbem_judge::roads_boats::report::picture;

fn replay_two_player_game(c: &mut Criterion) {
    let (archive, game) = pbem_judge::pbem::open(
        pbem_judge::games::registry(),
        Path::new("games/two-rivers-2p"),
    )
    .expect("game");
    let checks = pbem_judge::pbem::replay::run(&archive, game).expect("replay");
    assert!(
        checks.len() > 30 && checks.iter().all(|c| c.problems.is_empty()),
        "the archive replays clean"
    );
    let mut g = c.benchmark_group("replay");
    g.sample_size(20);
    g.bench_function("two-rivers-2p", |b| {
        b.iter(|| black_box(pbem_judge::pbem::replay::run(&archive, game).expect("replay")))
    });
    g.finish();
}

fn six_player_png(c: &mut Criterion) {
    let state = support::rich_state("six-isles", 6, 8);
    let title = "six-isles: the board after turn 1";
    let drawing = picture::draw(&state, title);
    eprintln!(
        "six-isles: {} transporters, {} buildings, {}x{} pixels, {} shapes",
        state.transporters.len(),
        state.buildings.len(),
        drawing.width,
        drawing.height,
        drawing.shapes.len()
    );
    let mut g = c.benchmark_group("picture");
    g.bench_function("six-player turn: png", |b| {
        b.iter(|| black_box(picture::png(black_box(&state), title).expect("png")))
    });
    g.bench_function("six-player turn: svg", |b| {
        b.iter(|| black_box(picture::svg(black_box(&state), title)))
    });
    g.finish();
}

criterion_group!(benches, replay_two_player_game, six_player_png);
criterion_main!(benches);
