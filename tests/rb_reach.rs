//! Issue 25, "For each of the player's transporters: where it can get this turn", and
//! its acceptance: "the reach of a donkey, a wagon on roads, a boat on a river and the
//! sea, a plane and a train, with walls and unbridged rivers, match the movement rules
//! (each reachable tile, when ordered, is accepted by `judge check`; each tile not
//! listed is refused) — a property test over random positions of every bundled
//! scenario." `roads_boats::resolve::range` lists each place with the path to it; here
//! every path, written as a `move` order, checks without an error, and every place next
//! to a listed one (or to the start) that is not listed is refused when the order goes
//! on to it.

use std::collections::BTreeSet;

use crate::support;

use pbem_judge::pbem::game::Position;
use pbem_judge::roads_boats::map::Coast;
use pbem_judge::roads_boats::resolve::range;
use pbem_judge::roads_boats::scenario::bundled;
use pbem_judge::roads_boats::state::State;
use pbem_judge::roads_boats::transporter::{Class, Location};

/// Every place next to `at` an order could name: areas of the tile and of its
/// neighbours; rivers, seas and docks.
fn next_to(s: &State, at: Location) -> Vec<Location> {
    let Some(h) = at.hex() else { return Vec::new() };
    let mut hexes = vec![h];
    hexes.extend(s.map.neighbours(h).map(|(_, n)| n));
    let mut out = Vec::new();
    for x in hexes {
        for a in s.map.areas(x) {
            out.push(Location::Land(a));
        }
        out.push(Location::River(x));
        out.push(Location::Sea(x));
        if let Location::Sea(y) = at {
            for a in s.map.areas(x) {
                out.push(Location::Dock(Coast { land: a, sea: y }));
            }
        }
    }
    out
}

fn errors(s: &State, seat: &str, id: &str, path: &[Location]) -> (usize, String) {
    let steps: Vec<String> = path.iter().map(ToString::to_string).collect();
    let text = format!(
        "player {seat}\nturn {}\nmovement\nmove {id}: {}\n",
        s.turn + 1,
        steps.join("; ")
    );
    let checked = s.check(&text, "reach", Some(seat), None);
    (checked.errors(), format!("{text}{}", checked.text))
}

#[test]
fn every_place_listed_is_accepted_and_every_place_beyond_refused() {
    let (mut listed, mut refused, mut kinds) = (0, 0, BTreeSet::new());
    for name in bundled().keys() {
        for seed in 0..3u64 {
            let s = support::rich_state(name, seed, 4);
            for (id, t) in &s.transporters {
                if matches!(t.at, Location::Carried(_)) {
                    continue;
                }
                let seat = t.owner.name();
                let (reached, stopped) = range(&s, *id);
                let places: BTreeSet<Location> = reached.iter().map(|r| r.at).collect();
                for r in &reached {
                    let (n, text) = errors(&s, seat, &id.to_string(), &r.path);
                    assert_eq!(
                        n, 0,
                        "{name} seed {seed}: {id} to {} is listed:\n{text}",
                        r.at
                    );
                    listed += 1;
                    kinds.insert(format!("{:?}", t.kind.class()));
                }
                for st in &stopped {
                    let (n, text) = errors(&s, seat, &id.to_string(), &[st.at]);
                    assert!(
                        n > 0,
                        "{name} seed {seed}: {id} stopped at {}:\n{text}",
                        st.at
                    );
                }
                // One step further than any listed place (or than the start) to a place
                // not listed: refused.
                let starts = std::iter::once((t.at, Vec::new()))
                    .chain(reached.iter().map(|r| (r.at, r.path.clone())));
                for (from, path) in starts {
                    for n in next_to(&s, from) {
                        if n == t.at || places.contains(&n) || n == from {
                            continue;
                        }
                        // A boat's (or a plane's at sea) bare tile name is the sea or
                        // river there (docs/map.md): the same places, named otherwise.
                        let afloat =
                            t.kind.class() == Class::Water || matches!(from, Location::Sea(_));
                        if afloat && matches!(n, Location::Land(_)) {
                            continue;
                        }
                        let mut p = path.clone();
                        p.push(n);
                        let (e, text) = errors(&s, seat, &id.to_string(), &p);
                        assert!(
                            e > 0,
                            "{name} seed {seed}: {id} to {n} is not listed:\n{text}"
                        );
                        refused += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "{listed} places listed and accepted, {refused} beyond them refused; classes {kinds:?}"
    );
    assert!(listed > 500 && refused > 500, "{listed} {refused}");
    assert!(kinds.len() >= 2, "{kinds:?}");
}

/// Issue 25, "Snapshots of the report's new part for a Roads & Boats ... player": the
/// order template of red in the archived two-rivers game after its last turn, each
/// transporter with where it can get, what lies there, and what stops it. It is what
/// the `template` command mails and what every report mail ends with.
#[test]
fn the_template_shows_each_transporters_reach() {
    let dir = std::path::Path::new("games/two-rivers-2p/turns");
    let last = std::fs::read_dir(dir).expect("turns").count() - 1;
    let json = std::fs::read_to_string(dir.join(format!("{last:03}/state.json"))).expect("state");
    let s: State = serde_json::from_str(&json).expect("state");
    insta::assert_snapshot!(s.template("red"));
}
