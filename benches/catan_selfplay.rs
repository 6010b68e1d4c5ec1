//! Random self-play of base Catan on one core: games per second (issue 13's speed goal:
//! 1,500 four-player games a second; catanatron 3.2.1's random players do about 15), and
//! of Catan Express beside it (issue 14), on the Express island and beyond the island.

// Test code: a failed expectation stops the test where it failed (the judge's own code
// may not unwrap, expect or panic: Cargo.toml, [workspace.lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pbem_judge::catan::express::{self, Map};
use pbem_judge::catan::selfplay::play_random;

fn selfplay(c: &mut Criterion) {
    let mut g = c.benchmark_group("catan_selfplay");
    g.throughput(Throughput::Elements(1));
    g.sample_size(30);
    for players in [4usize, 6] {
        g.bench_function(format!("{players}_players_one_game"), |b| {
            let mut buf = Vec::with_capacity(128);
            let mut seed = 0u64;
            b.iter(|| {
                seed += 1;
                play_random(players, seed, &mut buf)
            });
        });
    }
    for (name, map) in [("island", Map::Island), ("beyond", Map::Beyond)] {
        g.bench_function(format!("express_{name}_4_players_one_game"), |b| {
            let mut buf = Vec::with_capacity(128);
            let mut seed = 0u64;
            b.iter(|| {
                seed += 1;
                express::selfplay::play_random(4, seed, map, &mut buf)
            });
        });
    }
    g.finish();
}

criterion_group!(benches, selfplay);
criterion_main!(benches);
