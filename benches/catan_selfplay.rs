//! Random self-play of base Catan on one core: games per second (the speed goal:
//! 1,500 four-player games a second; catanatron 3.2.1's random players do about 15), and
//! of Catan Express beside it, on the Express island and beyond the island.
//! And the judge's players' decisions (the searching player within 50 ms a
//! decision): one order file for the active seat of positions from greedy games.

// Test code: a failed expectation stops the test where it failed (the judge's own code
// may not unwrap, expect or panic: Cargo.toml, [workspace.lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pbem_judge::catan::bot::{Player, orders_of};
use pbem_judge::catan::express::{self, Map};
use pbem_judge::catan::selfplay::play_random;
use pbem_judge::catan::{Options, State};

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

/// Positions of four-player games the greedy player plays, every fifth step from the
/// tenth (the turns after the founding), twenty in all.
fn positions() -> Vec<State> {
    let mut out = Vec::new();
    let names: Vec<String> = (0..4).map(|i| format!("p{i}")).collect();
    let mut seed = 0;
    while out.len() < 20 {
        seed += 1;
        let mut s = pbem_judge::catan::new_game("bench", &names, seed, &Options::default())
            .expect("a game");
        for step in 0..120 {
            if s.winner.is_some() {
                break;
            }
            let c = pbem_judge::catan::awaited(&s)[0];
            if step >= 10 && step % 5 == 0 && s.active == s.seat_of(c).expect("seat") {
                out.push(s.clone());
            }
            let text = orders_of(Player::Greedy, &s, c, None).expect("orders");
            s = pbem_judge::catan::play(&s, &[(c, text)].into_iter().collect()).state;
        }
    }
    out.truncate(20);
    out
}

fn decisions(c: &mut Criterion) {
    let mut g = c.benchmark_group("catan_bot");
    g.throughput(Throughput::Elements(1));
    g.sample_size(20);
    let all = positions();
    for (name, player) in [("greedy", Player::Greedy), ("search", Player::Search)] {
        g.bench_function(format!("{name}_one_turn"), |b| {
            let mut k = 0;
            b.iter(|| {
                k = (k + 1) % all.len();
                let s = &all[k];
                orders_of(player, s, s.colour(s.active), None).expect("orders")
            });
        });
    }
    g.finish();
}

criterion_group!(benches, selfplay, decisions);
criterion_main!(benches);
