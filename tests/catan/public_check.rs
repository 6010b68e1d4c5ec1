//! A player checks Catan orders on a clone of the game's public git.
//!
//! The state files of a Catan game are the GM's (they hold every hand and the deck), so
//! each turn also keeps its position's public record, `public.json`, and `judge check`
//! reads that where the state file is not. Two properties make that safe and right, each
//! proven over random positions reached by random order files (base Catan, the 5–6
//! player extension and Catan Express):
//!
//! 1. The public record holds nothing hidden: positions that differ only in hidden
//!    parts (every hand and unplayed development card, the same counts; the deck's order
//!    and cards, the same size; the orders on record) give it byte for byte the same.
//! 2. Checking against it is the judge's own check: for random order files of every
//!    player, the public record's check says exactly what the state's check says (every
//!    diagnostic, the text and the echo).
//!
//! `CATAN_PUBLIC_CHECK_CASES` positions per variant (default 300).

use crate::support;

use crate::support::catan::Variant;

use pbem_judge::catan::State;
use pbem_judge::catan::cards::{Cards, DevCard, DevCards};
use pbem_judge::luck::{Luck, Rng};

fn cases() -> usize {
    std::env::var("CATAN_PUBLIC_CHECK_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300)
}

/// A random position of the variant: a new game walked on by random order files.
fn position(v: Variant, seed: u64) -> State {
    let (mut s, mut r) = v.new_game("public", seed, Luck::predictable(seed));
    for _ in 0..r.below(90) {
        if s.winner.is_some() {
            break;
        }
        let mut files = std::collections::BTreeMap::new();
        for c in pbem_judge::catan::awaited(&s) {
            let seat = s.seat_of(c).expect("seat");
            files.insert(c, support::catan_orders::file(&s, seat, &mut r));
        }
        s = pbem_judge::catan::play(&s, &files).state;
    }
    s
}

/// `n` cards of random kinds.
fn random_cards(n: u32, r: &mut Rng) -> Cards {
    let mut c = Cards::NONE;
    for _ in 0..n {
        c.0[r.below(5) as usize] += 1;
    }
    c
}

fn random_devs(n: u32, r: &mut Rng) -> DevCards {
    let mut c = DevCards::default();
    for _ in 0..n {
        c.0[r.below(5) as usize] += 1;
    }
    c
}

/// The same position with every hidden part made up again: what no player can tell
/// from the public record.
fn hidden_changed(s: &State, r: &mut Rng) -> State {
    let mut o = s.clone();
    for p in &mut o.players {
        p.hand = random_cards(p.hand.total(), r);
        p.devs = random_devs(p.devs.total(), r);
        p.new_devs = random_devs(p.new_devs.total(), r);
    }
    for d in &mut o.deck {
        *d = DevCard::ALL[r.below(5) as usize];
    }
    for rec in &mut o.records {
        rec.text = format!("player red\n# made up {}\n", r.below(1000));
    }
    o
}

fn run(v: Variant) {
    let game = v.game();
    let mut changed_anything = 0;
    let mut checked = 0;
    for case in 0..cases() as u64 {
        let seed = 0x5EC0_0000 + case * 7919 + v as u64;
        let s = position(v, seed);
        let mut r = Rng::new(seed ^ 0xFACE);
        let public = s.public_json();

        // 1. Nothing hidden in it.
        let other = hidden_changed(&s, &mut r);
        if other.to_json() != s.to_json() {
            changed_anything += 1;
        }
        assert_eq!(
            other.public_json(),
            public,
            "{v:?} case {case}: the public record shows a hidden part"
        );

        // 2. Its check is the judge's check, for every player's random orders.
        let full = game.position(&s.to_json()).expect("state reads");
        let open = game.public_position(&public).expect("public record reads");
        assert_eq!(open.turn(), full.turn());
        for seat in 0..s.players.len() as u8 {
            let text = support::catan_orders::file(&s, seat, &mut r);
            let who = s.colour(seat).name();
            let a = full.check(&text, "orders.txt", Some(who), Some("public"));
            let b = open.check(&text, "orders.txt", Some(who), Some("public"));
            assert_eq!(
                (&a.text, &a.echo, &a.diagnostics, a.turn, &a.player),
                (&b.text, &b.echo, &b.diagnostics, b.turn, &b.player),
                "{v:?} case {case}, {who}: the public record checks differently\n{text}"
            );
            checked += 1;
        }
    }
    // The comparison had hidden parts to change, and orders to check.
    assert!(
        changed_anything > cases() / 2,
        "{v:?}: only {changed_anything} positions had hidden parts"
    );
    assert!(checked >= cases() * 3);
}

#[test]
fn base_catan_public_record_hides_hands_and_checks_as_the_judge() {
    run(Variant::Base);
}

#[test]
fn extension_public_record_hides_hands_and_checks_as_the_judge() {
    run(Variant::Extension);
}

#[test]
fn express_public_record_hides_hands_and_checks_as_the_judge() {
    run(Variant::Express);
}
