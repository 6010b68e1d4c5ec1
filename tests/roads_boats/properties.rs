//! Invariants of turn resolution, over random positions and random orders:
//! goods are conserved except by events that make or use them; no player ever exceeds
//! a transporter limit; the same input gives the same bytes.

use crate::support;

use proptest::prelude::*;

use pbem_judge::archive::stable_json;
use pbem_judge::luck::Luck;
use pbem_judge::roads_boats::goods::{Good, Goods};
use pbem_judge::roads_boats::resolve::resolve;

/// The seed of the random mine draws (the scenarios draw by the default rule).
fn luck() -> Luck {
    Luck::predictable(1)
}

const SCENARIOS: [&str; 6] = [
    "solo",
    "two-rivers",
    "four-shores",
    "six-isles",
    "polder-cities",
    "five-ports",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every good after the turn = every good before + what events made − what they
    /// used (Fact::goods_delta), good by good.
    #[test]
    fn goods_are_conserved(which in 0usize..6, seed in any::<u64>(), orders in any::<u64>(), fleet in 3usize..9) {
        let st = support::rich_state(SCENARIOS[which], seed, fleet);
        let o = support::random_orders(&st, orders, 5);
        let out = resolve(&st, &o, &luck());
        let mut expected = support::all_goods(&st);
        let mut consumed = Goods::new();
        for e in &out.events {
            let (made, used) = e.fact.goods_delta();
            expected.add_all(&made);
            consumed.add_all(&used);
        }
        for g in Good::ALL {
            let want = expected.count(g).checked_sub(consumed.count(g));
            prop_assert_eq!(Some(support::all_goods(&out.state).count(g)), want, "{} after the turn", g);
        }
    }

    /// RULINGS R4: at most 8 transporters, 5 land, 5 water, 3 planes, whatever is
    /// ordered; &cetera, art: at most 3 exhibition caravans, not counted as land.
    #[test]
    fn limits_hold(which in 0usize..6, seed in any::<u64>(), orders in any::<u64>()) {
        let st = support::rich_state(SCENARIOS[which], seed, 8);
        let o = support::random_orders(&st, orders, 8);
        let out = resolve(&st, &o, &luck());
        for c in out.state.players.keys() {
            let (land, water, air, all) = out.state.fleet(*c);
            prop_assert!(land <= 5 && water <= 5 && air <= 3 && all <= 8, "{c}: {land}/{water}/{air}/{all}");
            prop_assert!(out.state.limit_broken(*c).is_none(), "{c}: {:?}", out.state.limit_broken(*c));
        }
    }

    /// Deterministic: resolving the same state and orders twice gives the same bytes.
    #[test]
    fn the_same_input_gives_the_same_bytes(which in 0usize..6, seed in any::<u64>(), orders in any::<u64>()) {
        let st = support::rich_state(SCENARIOS[which], seed, 6);
        let o = support::random_orders(&st, orders, 5);
        let a = resolve(&st, &o, &luck());
        let b = resolve(&st.clone(), &o.clone(), &luck());
        prop_assert_eq!(stable_json(&a.state).expect("json"), stable_json(&b.state).expect("json"));
        prop_assert_eq!(stable_json(&a.events).expect("json"), stable_json(&b.events).expect("json"));
    }
}

/// The random orders above are not vacuous: across a few seeds they move, load, make,
/// build, buy bricks, hand goods over, pick transporters up and fly (with the consents
/// another player's transporter needs), and build bridges, demolish walls, destroy
/// transporters and ask for a new move order, so the invariants are tested on real work.
#[test]
fn random_orders_do_real_work() {
    use pbem_judge::roads_boats::events::Fact;
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for seed in 0..48u64 {
        let st = support::rich_state(SCENARIOS[(seed % 6) as usize], seed, 6);
        let out = resolve(&st, &support::random_orders(&st, seed * 7, 6), &luck());
        for e in &out.events {
            let kind = match e.fact {
                Fact::Moved { .. } => "moved",
                Fact::Loaded { .. } => "loaded",
                Fact::Made { .. } | Fact::MadeTransporter { .. } | Fact::Processed { .. } => "made",
                Fact::Built { .. }
                | Fact::RoadBuilt { .. }
                | Fact::WallBuilt { .. }
                | Fact::BombProofed { .. } => "built",
                Fact::BricksPlaced { .. } => "bricks",
                Fact::Gave { .. } => "gave",
                Fact::PickedUp { .. } => "picked up",
                Fact::OfferUsed { .. } => "offer used",
                Fact::Flew { .. } => "flew",
                Fact::TookTrain { .. } => "train",
                Fact::PlantFired { .. } | Fact::PlantCold { .. } => "power",
                Fact::ManagerAtWork { .. } => "manager",
                Fact::Traded { .. } => "trade",
                Fact::PowerLineBuilt { .. } => "power line",
                Fact::Upgraded { .. } => "upgraded",
                Fact::Destroyed { .. } => "destroyed",
                Fact::BridgeBuilt { .. } => "bridge",
                Fact::WallDemolished { .. } => "demolished",
                Fact::ShaftBuilt { .. } => "shaft",
                Fact::BuildingBombed { .. } => "bombed",
                Fact::PutDown { .. } => "put down",
                Fact::MoveOrder { .. } => "move order",
                Fact::Failed { .. } | Fact::Shortfall { .. } => "failed",
                _ => "other",
            };
            *seen.entry(kind).or_default() += 1;
        }
    }
    eprintln!("{seen:?}");
    for kind in [
        "moved",
        "loaded",
        "made",
        "built",
        "bricks",
        "gave",
        "picked up",
        "flew",
        "power",
        "manager",
        "trade",
        // Kinds of order the generator learnt later.
        "bridge",
        "demolished",
        "destroyed",
        "move order",
    ] {
        assert!(
            seen.get(kind).copied().unwrap_or(0) > 0,
            "no `{kind}` events: {seen:?}"
        );
    }
}

/// The random orders are made from the order types. Across a few
/// seeds every kind of order of every phase is generated, the modules' included
/// (bombs, bridges, demolition, shafts, upgrades, breeding and the wonder phase's move
/// order were missing before), so the conservation and limit properties above meet
/// them all. The matches below name every kind with no catch-all: a new kind of order
/// does not build until it is named here, and then this test fails until
/// `support::random_orders` makes it.
#[test]
fn random_orders_give_every_kind_of_order() {
    use pbem_judge::roads_boats::modules::{
        self, bombs, electricity, management, planes, trade, trains,
    };
    use pbem_judge::roads_boats::orders::{
        BuildingOrder as B, MovementOrder as M, ProductionOrder as P, WonderOrder as W,
    };
    fn module(o: &modules::Order) -> &'static str {
        match o {
            modules::Order::Planes(planes::Order::Fly { .. }) => "fly",
            modules::Order::Trains(trains::Order::Train { .. }) => "train",
            modules::Order::Bombs(bombs::Order::Bomb { .. }) => "bomb",
            modules::Order::Bombs(bombs::Order::BombProof { .. }) => "bomb-proof",
            modules::Order::Electricity(electricity::Order::Fire { .. }) => "fire",
            modules::Order::Electricity(electricity::Order::PowerLine { .. }) => "power line",
            modules::Order::Management(management::Order::Manage { .. }) => "manage",
            modules::Order::Trade(trade::Order::Trade { .. }) => "trade",
            modules::Order::Trade(trade::Order::Load { .. }) => "load at home",
        }
    }
    let mut seen = std::collections::BTreeSet::<&str>::new();
    for seed in 0..48u64 {
        let st = support::rich_state(SCENARIOS[(seed % 6) as usize], seed, 6);
        for o in support::random_orders(&st, seed * 7, 6).values() {
            for n in &o.production {
                seen.insert(match &n.order {
                    P::Make { .. } => "make",
                    P::Load { .. } => "load",
                    P::Unload { .. } => "unload",
                    P::Research { .. } => "research",
                    P::Upgrade { .. } => "upgrade",
                    P::Destroy { .. } => "destroy",
                    P::Breed { .. } => "breed",
                    P::NoBreed { .. } => "no breed",
                    P::Give { .. } => "give",
                    P::Carry { .. } => "carry",
                    P::Consent(_) => "production consent",
                    P::Module(m) => module(m),
                });
            }
            for n in &o.movement {
                seen.insert(match &n.order {
                    M::Move { .. } => "move",
                    M::Release { .. } => "release",
                    M::Consent(_) => "movement consent",
                    M::Module(m) => module(m),
                });
            }
            for n in &o.building {
                seen.insert(match &n.order {
                    B::Build { .. } => "build",
                    B::Road { .. } => "road",
                    B::Bridge { .. } => "bridge",
                    B::Wall { .. } => "wall",
                    B::Demolish { .. } => "demolish",
                    B::Shaft { .. } => "shaft",
                    B::Consent(_) => "building consent",
                    B::Module(m) => module(m),
                });
            }
            for n in &o.wonder {
                seen.insert(match &n.order {
                    W::Bricks { .. } => "bricks",
                    W::MoveOrder { .. } => "move order",
                    W::Module(m) => module(m),
                });
            }
        }
    }
    for kind in [
        "make",
        "load",
        "unload",
        "research",
        "upgrade",
        "destroy",
        "breed",
        "no breed",
        "give",
        "carry",
        "production consent",
        "move",
        "release",
        "movement consent",
        "build",
        "road",
        "bridge",
        "wall",
        "demolish",
        "shaft",
        "building consent",
        "bricks",
        "move order",
        "fly",
        "train",
        "bomb",
        "bomb-proof",
        "fire",
        "power line",
        "manage",
        "trade",
        "load at home",
    ] {
        assert!(seen.contains(kind), "no `{kind}` order generated: {seen:?}");
    }
}
