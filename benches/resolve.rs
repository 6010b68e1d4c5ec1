//! How long a busy turn takes to resolve: the six-player scenario with every player at
//! 8 transporters and buildings on many tiles, every transporter given orders in every
//! phase, and every optional module (&cetera) in play: power plants,
//! MBAs, ateliers and caravans among the buildings and transporters, fire, manage,
//! power-line and trade orders among the orders. And the planner's decision on that
//! position. Run with `cargo bench`.

// Test code: a failed expectation stops the test where it failed (the judge's own code
// may not unwrap, expect or panic: Cargo.toml, [workspace.lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use pbem_judge::roads_boats::resolve::resolve;

fn busy_six_player_turn(c: &mut Criterion) {
    let state = support::rich_state("six-isles", 6, 8);
    let orders = support::random_orders(&state, 66, 8);
    let fleet: usize = state
        .players
        .keys()
        .map(|p| state.transporters_of(*p).count())
        .sum();
    let orders_total: usize = orders
        .values()
        .map(|o| o.production.len() + o.movement.len() + o.building.len() + o.wonder.len())
        .sum();
    eprintln!(
        "six-isles: {} players, {fleet} transporters, {} buildings, {orders_total} orders, {} modules",
        state.players.len(),
        state.buildings.len(),
        state.settings.modules.len()
    );
    c.bench_function("resolve a busy six-player turn", |b| {
        let luck = pbem_judge::luck::Luck::predictable(1);
        b.iter(|| resolve(black_box(&state), black_box(&orders), &luck))
    });
}

/// The planner's decision (`judge bot`, the caretaker: six styles, each four turns ahead
/// with the resolver) for a seat of the same busy six-player position: the budget is
/// 1 s a decision.
fn planner_decision_on_a_busy_six_player_position(c: &mut Criterion) {
    use pbem_judge::roads_boats::bot::{planner, refusals};
    let state = support::rich_state("six-isles", 6, 8);
    let me = state.move_order[0];
    let mut g = c.benchmark_group("planner");
    g.sample_size(10);
    g.bench_function("one decision on a busy six-player position", |b| {
        b.iter(|| planner::orders(black_box(&state), me, None, &refusals(&state, me)))
    });
    g.finish();
}

criterion_group!(
    benches,
    busy_six_player_turn,
    planner_decision_on_a_busy_six_player_position
);
criterion_main!(benches);
