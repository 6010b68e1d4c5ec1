//! The one list of order words. The base game's orders are here;
//! each module declares its own once, with their phase, in its [`Plugin::orders`]. The
//! reader (`order_text`: which verbs a phase reads, which phase a line without a heading
//! is in, whether a line that does not read is a mistyped order or a letter's prose) and
//! its messages ("use make, load, … or manage") all take them from here, so that an
//! order a module adds can never be missing from one of them.
//!
//! [`Plugin::orders`]: crate::modules::Plugin::orders

use crate::modules::PLUGINS;
use crate::state::Phase;

/// An order: the phase it belongs to and its leading words as written (`no breed`,
/// `power line`, `move order`). Its first word is the verb a line starts with.
pub type OrderWord = (Phase, &'static str);

/// The base game's orders (docs/orders.md), and the judge's own consents.
pub const BASE: &[OrderWord] = &[
    (Phase::Production, "make"),
    (Phase::Production, "load"),
    (Phase::Production, "unload"),
    (Phase::Production, "give"),
    (Phase::Production, "carry"),
    (Phase::Production, "research"),
    (Phase::Production, "upgrade"),
    (Phase::Production, "destroy"),
    (Phase::Production, "no breed"),
    (Phase::Production, "accept"),
    (Phase::Production, "offer"),
    (Phase::Production, "allow"),
    // The old order (donkeys breed by default now): read, and warned of.
    (Phase::Production, "breed"),
    (Phase::Movement, "move"),
    (Phase::Movement, "release"),
    (Phase::Movement, "accept"),
    (Phase::Movement, "allow"),
    (Phase::Building, "build"),
    (Phase::Building, "road"),
    (Phase::Building, "bridge"),
    (Phase::Building, "wall"),
    (Phase::Building, "demolish"),
    (Phase::Building, "shaft"),
    (Phase::Building, "offer"),
    (Phase::Wonder, "bricks"),
    (Phase::Wonder, "move order"),
];

/// Other spellings the reader takes as the order word itself.
pub const SPELLINGS: &[(&str, &str)] = &[("brick", "bricks")];

/// Words people use for orders, which the reader answers with the order word meant
/// (`go D1: C3`: "did you mean `move`?").
pub const SYNONYMS: &[(&str, &str)] = &[
    ("go", "move"),
    ("sail", "move"),
    ("walk", "move"),
    ("drive", "move"),
    ("produce", "make"),
    ("manufacture", "make"),
    ("process", "make"),
    ("construct", "build"),
    ("erect", "build"),
    ("buy", "bricks"),
    ("take", "load"),
    ("pickup", "load"),
    ("pick", "load"),
    ("drop", "unload"),
    ("put", "unload"),
];

/// A word as the order word it is spelt for (`brick` is `bricks`), lower case.
pub fn canonical(word: &str) -> String {
    let w = word.to_ascii_lowercase();
    SPELLINGS
        .iter()
        .find(|(s, _)| *s == w)
        .map_or(w, |(_, o)| (*o).to_string())
}

/// The words of the lines before turn 1, outside any phase: `home`, and the modules'
/// (`bid`).
pub fn before_turn_one() -> Vec<&'static str> {
    std::iter::once("home")
        .chain(
            PLUGINS
                .iter()
                .flat_map(|p| p.before_turn_one.iter().copied()),
        )
        .collect()
}

/// Every phase, in a turn's order.
pub const PHASES: [Phase; 4] = [
    Phase::Production,
    Phase::Movement,
    Phase::Building,
    Phase::Wonder,
];

/// Every order of the base game and of every module (whether a game plays with it or
/// not: the reader reads them all, and the check says when a module is not in play).
pub fn all() -> impl Iterator<Item = OrderWord> {
    BASE.iter().copied().chain(
        PLUGINS
            .iter()
            .flat_map(|p| p.orders.iter().map(|g| (g.phase, g.words))),
    )
}

/// The verb of an order: its first word.
pub fn verb(order: &str) -> &str {
    order.split(' ').next().unwrap_or(order)
}

/// A phase's orders as written (`no breed`, `power line`), each once, in table order.
pub fn of(phase: Phase) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (p, o) in all() {
        if p == phase && !out.contains(&o) {
            out.push(o);
        }
    }
    out
}

/// A phase's verbs, each once.
pub fn verbs(phase: Phase) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for o in of(phase) {
        let v = verb(o);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Every verb of every phase, each once.
pub fn all_verbs() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (_, o) in all() {
        let v = verb(o);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// A phase's orders in a sentence: `make, load, … fire or manage`.
pub fn sentence(phase: Phase) -> String {
    match of(phase).as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The phases a line starting with these words is an order of: an order whose every
/// word is written there counts first (`move order 1, 2` is a wonder order, `move D1:
/// C3` a movement one).
pub fn phases_of(first: &str, second: Option<&str>) -> Vec<Phase> {
    let first = canonical(first);
    let second = second.map(str::to_ascii_lowercase);
    let candidates: Vec<OrderWord> = all().filter(|(_, o)| verb(o) == first).collect();
    let full = |o: &str| match o.split_once(' ') {
        None => true,
        Some((_, rest)) => second.as_deref() == Some(rest),
    };
    let longest: Vec<OrderWord> = candidates
        .iter()
        .copied()
        .filter(|(_, o)| o.contains(' ') && full(o))
        .collect();
    let single: Vec<OrderWord> = candidates
        .iter()
        .copied()
        .filter(|(_, o)| !o.contains(' '))
        .collect();
    let chosen = if !longest.is_empty() {
        longest
    } else if !single.is_empty() {
        single
    } else {
        candidates
    };
    let mut out: Vec<Phase> = Vec::new();
    for (p, _) in chosen {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The orders the modules declare are in the reader's lists.
    #[test]
    fn the_modules_orders_are_in_the_phases_lists() {
        assert!(verbs(Phase::Production).contains(&"fire"));
        assert!(verbs(Phase::Production).contains(&"manage"));
        assert!(verbs(Phase::Building).contains(&"power"));
        assert!(verbs(Phase::Wonder).contains(&"trade"));
        assert_eq!(phases_of("move", Some("order")), vec![Phase::Wonder]);
        assert_eq!(phases_of("move", Some("D1")), vec![Phase::Movement]);
        assert_eq!(phases_of("power", Some("C3")), vec![Phase::Building]);
        assert_eq!(
            phases_of("load", None),
            vec![Phase::Production, Phase::Wonder]
        );
        assert_eq!(phases_of("fire", None), vec![Phase::Production]);
    }
}
