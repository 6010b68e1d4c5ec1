//! Orders come from strangers' mail: whatever bytes arrive, checking them never panics.
//! Random bytes, and random mutations of valid order files.

use crate::support;

use proptest::prelude::*;

use pbem_judge::roads_boats::check::{Expect, check};
use pbem_judge::roads_boats::player::Colour;

const VALID: &str = "game demo\nplayer red\nturn 1\nproduction\nmake 2 boards at C3 from D1\nload D1 2 boards\n\
no breed C4\ngive D1 1 board to D4\ncarry D2 on D1\nmake 1 fuel at C3 from D1, D4 using boards\n\
accept 2 boards from yellow on D1\noffer D1 to anyone\nallow yellow to carry D2\n\
movement\nmove D1: load 2 boards; C3; unload 1 board; give 1 board to D2; carry D3; C4\n\
fly P1: load 2 stone; follow 2 geese; drop 1 stone on C3; land C4\n\
train D2 to F4 fare stone from cargo; follow 1 goose\nrelease D3 from D1 at C4\n\
building\nbuild sawmill at C3 with D1\nwall C3-C4 tokens 2 with D2\nbridge D3 over N with D1\n\
offer 1 stone from D2 to yellow\nwonder\nbricks 2 paying 1 board, 2 stone\nmove order 1, 2\n";

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600), seed in 0u64..50) {
        let state = support::rich_state("two-rivers", seed, 6);
        let text = String::from_utf8_lossy(&bytes);
        let c = check(&state, &text, &Expect { player: Some(Colour::Red), game: None });
        prop_assert!(c.errors() + c.warnings() == c.diagnostics.len());
    }

    /// A set-up mail is read and checked the same way: never a panic.
    #[test]
    fn random_setup_mails_never_panic(text in "(home |player red\n|setup\n|\\PC){0,60}", which in 0usize..3) {
        let setup = setup_round();
        let p = [Colour::Red, Colour::Yellow, Colour::Red][which];
        let c = setup.check(&text, &Expect { player: Some(p), game: Some("demo") });
        prop_assert!(c.errors() <= c.diagnostics.len());
        let step = setup.choose(p, Some(&text));
        prop_assert!(step.setup.chosen.len() <= 1);
    }

    #[test]
    fn random_unicode_never_panics(text in "\\PC{0,400}", seed in 0u64..50) {
        let state = support::rich_state("two-rivers", seed, 6);
        let _ = check(&state, &text, &Expect::default());
    }

    /// Delete, insert or replace characters anywhere in a valid file.
    #[test]
    fn mutations_of_valid_orders_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<char>()), 1..12),
        seed in 0u64..50,
    ) {
        let state = support::rich_state("two-rivers", seed, 6);
        let mut text: Vec<char> = VALID.chars().collect();
        for (at, op, c) in edits {
            let i = at.index(text.len().max(1)).min(text.len());
            match op {
                0 if i < text.len() => { text.remove(i); }
                1 => text.insert(i, c),
                _ if i < text.len() => text[i] = c,
                _ => {}
            }
        }
        let text: String = text.into_iter().collect();
        let c = check(&state, &text, &Expect { player: Some(Colour::Red), game: Some("demo") });
        for d in &c.diagnostics {
            if let Some(s) = &d.span {
                prop_assert!(s.start <= s.end && s.end <= text.len() + 1, "span {s:?} in {} bytes", text.len());
            }
        }
    }
}

/// The set-up round of the two-rivers map with homes to choose, red first.
fn setup_round() -> pbem_judge::roads_boats::setup::Setup {
    use pbem_judge::roads_boats::scenario::{Scenario, Seat, bundled};
    let text = bundled()["two-rivers"].replace("[start]", "[start]\nchoose = \"any\"");
    let s = Scenario::parse("two-rivers", &text).expect("reads");
    let seats: Vec<Seat> = ["A", "B"]
        .iter()
        .map(|n| Seat {
            name: n.to_string(),
            email: format!("{n}@example.org"),
        })
        .collect();
    s.start_setup(&seats, &pbem_judge::luck::Luck::predictable(3))
        .expect("set-up")
}
