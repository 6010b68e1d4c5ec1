//! Unit tests of the engine; the rules themselves are proven by the cases in
//! tests/catan/.

use super::*;
use crate::state::Phase;

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("P{i}")).collect()
}

fn game(n: usize, seed: u64) -> State {
    let opts = Options {
        extension: n > 4,
        ..Options::default()
    };
    State::new("t", &names(n), seed, &opts).expect("a game")
}

/// Every action the enumeration offers passes the check, in random games.
#[test]
fn legal_actions_are_all_allowed() {
    for seed in 0..20 {
        let mut s = game(4, seed);
        let mut rng = crate::rng::Rng::new(seed + 100);
        let mut acts = Vec::new();
        for _ in 0..3000 {
            s.legal_actions(&mut acts);
            if acts.is_empty() {
                break;
            }
            for a in &acts {
                assert_eq!(s.check(*a), Ok(()), "{a:?} in {:?}", s.phase);
            }
            let a = acts[rng.below(acts.len() as u32) as usize];
            s.execute(a, &mut ());
        }
    }
}

/// Snake order: with 4 players the founding goes 1 2 3 4 4 3 2 1 from the first player.
#[test]
fn founding_is_in_snake_order() {
    let s = game(4, 3);
    let order: Vec<u8> = (0..8).map(|i| s.founding_seat(i)).collect();
    let f = s.first;
    assert_eq!(
        order,
        vec![
            f,
            (f + 1) % 4,
            (f + 2) % 4,
            (f + 3) % 4,
            (f + 3) % 4,
            (f + 2) % 4,
            (f + 1) % 4,
            f
        ]
    );
    assert!(matches!(s.phase, Phase::Founding { index: 0, .. }));
}

#[test]
fn a_state_round_trips_through_json() {
    let mut s = game(4, 5);
    let mut rng = crate::rng::Rng::new(9);
    let mut acts = Vec::new();
    for _ in 0..400 {
        s.legal_actions(&mut acts);
        if acts.is_empty() {
            break;
        }
        let a = acts[rng.below(acts.len() as u32) as usize];
        s.execute(a, &mut ());
    }
    let text = s.to_json();
    let mut back = State::from_json(&text).expect("reads back");
    assert_eq!(back.to_json(), text);
    // The secret seed is never written into the state file (docs/catan.md, "What each
    // player sees"): the pipeline hands it to each play.
    assert!(!text.contains(&s.luck.to_hex()));
    back.luck = s.luck.clone();
    assert!(
        back == s,
        "the state read back differs from the one written"
    );
}
