//! "For each of the player's transporters: where it can get this turn", and
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
use pbem_judge::roads_boats::goods::Good;
use pbem_judge::roads_boats::map::{Coast, Hex};
use pbem_judge::roads_boats::modules::{planes, trains};
use pbem_judge::roads_boats::resolve::range;
use pbem_judge::roads_boats::scenario::bundled;
use pbem_judge::roads_boats::state::State;
use pbem_judge::roads_boats::transporter::{Class, Kind, Location, Transporter};

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
    order_errors(s, seat, &format!("move {id}: {}", steps.join("; ")))
}

/// The errors `judge check` finds in one movement order of `seat`'s.
fn order_errors(s: &State, seat: &str, order: &str) -> (usize, String) {
    let text = format!("player {seat}\nturn {}\nmovement\n{order}\n", s.turn + 1);
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

/// "Snapshots of the report's new part for a Roads & Boats ... player": the
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

/// Every place of tile `h` an order could name: its areas, its river, its sea, its docks.
fn places_of(s: &State, h: Hex) -> Vec<Location> {
    let mut out: Vec<Location> = s.map.areas(h).into_iter().map(Location::Land).collect();
    out.push(Location::River(h));
    if s.map.is_sea(h) {
        out.push(Location::Sea(h));
    }
    out.extend(
        s.map
            .coasts()
            .into_iter()
            .filter(|c| c.land.hex == h)
            .map(Location::Dock),
    );
    out
}

/// "for planes and trains their reach". Quick Guide IV: a plane flies anywhere
/// and lands "where there is no building and no unattended geese, or at an airport";
/// `planes::landings` lists each place it may land and each tile closed to it, and every
/// tile of the map is one or the other: each listed place, ordered as `fly P: land X`,
/// checks without an error; each closed tile is refused.
#[test]
fn every_landing_listed_is_accepted_and_every_closed_tile_refused() {
    let (mut open, mut closed) = (0, 0);
    for name in bundled().keys() {
        for seed in 0..2u64 {
            let s = support::rich_state(name, seed, 6);
            for (id, t) in s.transporters.iter().filter(|(_, t)| t.kind == Kind::Plane) {
                if matches!(t.at, Location::Carried(_)) {
                    continue;
                }
                let seat = t.owner.name();
                let l = planes::landings(&s, *id).expect("a plane");
                let (to, not) = (l.to, l.closed);
                let tiles: std::collections::BTreeSet<Hex> = to
                    .iter()
                    .filter_map(|l| l.hex())
                    .chain(not.iter().map(|(h, _)| *h))
                    .collect();
                assert_eq!(tiles.len(), s.map.tiles.len(), "{name}: every tile judged");
                for l in &to {
                    let (n, text) = order_errors(&s, seat, &format!("fly {id}: land {l}"));
                    assert_eq!(n, 0, "{name} seed {seed}: {id} may land at {l}:\n{text}");
                    open += 1;
                }
                for (h, why) in &not {
                    for l in places_of(&s, *h) {
                        let (n, text) = order_errors(&s, seat, &format!("fly {id}: land {l}"));
                        assert!(n > 0, "{name} seed {seed}: {id} at {l} ({why:?}):\n{text}");
                        closed += 1;
                    }
                }
            }
        }
    }
    eprintln!("{open} landings listed and accepted, {closed} on closed tiles refused");
    assert!(open > 500 && closed > 50, "{open} {closed}");
}

/// "for planes and trains their reach". Quick Guide V and &cetera, trains: a
/// transporter on a track tile, for one good already there, rides "to any tile along the
/// tracks"; a track on a river tile joins only the shores on its side (RULINGS R5).
/// A donkey on each side of each track tile, and a rowboat in each river and dock of it,
/// of the scenarios that have tracks: each place `trains::rides` lists, ordered as
/// `train X to P fare stone`, checks without an error; every other place of a tile with
/// track, or next to one, is refused.
#[test]
fn every_ride_listed_is_accepted_and_every_other_place_refused() {
    let (mut listed, mut refused) = (0, 0);
    for name in bundled().keys() {
        let base = support::rich_state(name, 7, 2);
        let hexes: std::collections::BTreeSet<Hex> = base
            .map
            .track_links()
            .into_iter()
            .flat_map(|(a, b)| [a.hex, b.hex])
            .collect();
        let mut near = hexes.clone();
        for h in &hexes {
            near.extend(base.map.neighbours(*h).map(|(_, n)| n));
        }
        for h in &hexes {
            for start in places_of(&base, *h) {
                let kind = match start {
                    Location::Land(_) => Kind::Donkey,
                    Location::River(_) if base.map.tile(*h).is_some_and(|t| t.has_river()) => {
                        Kind::Rowboat
                    }
                    Location::Dock(_) => Kind::Rowboat,
                    _ => continue,
                };
                let mut s = base.clone();
                let owner = *s.players.keys().next().expect("a player");
                let id = s.next_id(kind);
                s.transporters.insert(
                    id,
                    Transporter {
                        owner,
                        kind,
                        at: start,
                        cargo: [(Good::Stone, 1)].into_iter().collect(),
                        following_geese: 0,
                    },
                );
                let seat = owner.name();
                let rides = trains::rides(&s, id);
                for to in &rides {
                    let order = format!("train {id} to {to} fare stone from cargo");
                    let (n, text) = order_errors(&s, seat, &order);
                    assert_eq!(n, 0, "{name}: {id} at {start} rides to {to}:\n{text}");
                    listed += 1;
                }
                for x in &near {
                    for to in places_of(&s, *x) {
                        if rides.contains(&to) {
                            continue;
                        }
                        let order = format!("train {id} to {to} fare stone from cargo");
                        let (n, text) = order_errors(&s, seat, &order);
                        assert!(n > 0, "{name}: {id} at {start} to {to} not listed:\n{text}");
                        refused += 1;
                    }
                }
            }
        }
    }
    eprintln!("{listed} rides listed and accepted, {refused} others refused");
    assert!(listed > 50 && refused > 200, "{listed} {refused}");
}

/// The reach "for planes and trains" in the template: on four-shores (tracks
/// across the western desert neck, C4–C6) a donkey with a stone on the track at C5 and
/// a plane at red's home: where the plane may land (every tile but those with a
/// building or unattended geese) and where the train takes the donkey, with the goods
/// that could pay its fare.
#[test]
fn the_template_shows_flights_and_rides() {
    let mut s = support::rich_state("four-shores", 1, 0);
    s.settings
        .modules
        .insert(pbem_judge::roads_boats::state::Module::Planes);
    let red = *s.players.keys().next().expect("a player");
    let home = s.players[&red].home.expect("a home");
    let track = s
        .map
        .track_links()
        .into_iter()
        .map(|(a, _)| a)
        .next()
        .expect("a track");
    for (kind, at) in [
        (Kind::Donkey, Location::Land(track)),
        (Kind::Plane, Location::Land(home)),
    ] {
        let id = s.next_id(kind);
        s.transporters.insert(
            id,
            Transporter {
                owner: red,
                kind,
                at,
                cargo: [(Good::Stone, 1)].into_iter().collect(),
                following_geese: 0,
            },
        );
    }
    insta::assert_snapshot!(s.template(red.name()));
}

/// "For each tile the player can build on this turn: which buildings fit its
/// terrain and what is missing to pay for them (goods, research, the one-per-tile
/// rule ...)". Red at the start of the demo game (games/demo): on each tile where one of
/// red's transporters stands, what the building phase's own rule lets it build with the
/// goods there, what is short and by how much, and what needs research first.
#[test]
fn the_template_shows_what_each_tile_can_take() {
    let json = std::fs::read_to_string("games/demo/turns/000/state.json").expect("state");
    let s: State = serde_json::from_str(&json).expect("state");
    let text = s.template("red");
    let building = &text[text.find("\nbuilding\n").expect("a building section")..];
    insta::assert_snapshot!(building);
}

/// The table of what each tile can take: `resolve::buildable` judges each
/// building a transporter's tile fits by the building phase's own rule. Over rich
/// positions of every bundled scenario, each building it allows, ordered as `build K at
/// A with T`, checks without an error, and each it refuses is refused by `judge check`
/// (or accepted only if another player offers the goods it lacks).
#[test]
fn every_building_the_table_allows_is_accepted_and_every_other_refused() {
    let (mut allowed, mut refused) = (0, 0);
    for name in bundled().keys() {
        let s = support::rich_state(name, 11, 4);
        for (id, t) in &s.transporters {
            let Location::Land(at) = t.at else { continue };
            for (kind, verdict) in pbem_judge::roads_boats::resolve::buildable(&s, *id, at) {
                let order = format!("build {} at {at} with {id}", kind.name());
                let text = format!(
                    "player {}\nturn {}\nbuilding\n{order}\n",
                    t.owner.name(),
                    s.turn + 1
                );
                let checked = s.check(&text, "table", Some(t.owner.name()), None);
                match verdict {
                    Ok(()) => {
                        assert_eq!(checked.errors(), 0, "{name}: {order}\n{}", checked.text);
                        allowed += 1;
                    }
                    // The checker cannot know what others will offer: a build that other
                    // players' goods would pay is accepted "only if" they consent.
                    Err(why) => {
                        assert!(
                            checked.errors() > 0 || checked.text.contains("only if"),
                            "{name}: {order} ({why})\n{}",
                            checked.text
                        );
                        refused += 1;
                    }
                }
            }
        }
    }
    eprintln!("{allowed} builds allowed and accepted, {refused} refused");
    assert!(allowed > 20 && refused > 100, "{allowed} {refused}");
}
