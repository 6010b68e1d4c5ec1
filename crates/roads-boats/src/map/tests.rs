//! The map's queries on rulebook situations. Test maps are written as scenarios, the one
//! way maps are made.

use super::*;
use crate::scenario::Scenario;

/// ```text
///       A B C D E F        C2 is a river source; the river runs C2-C3-C4 into the
///    1  s   s   s          sea at C5. A tributary rises in E3 and joins at C3 through
///         s   s   s        D3, so C3 is a junction of three areas: C3/NE, C3/SE, C3/W.
///    2  s   W   r
///         p   p   s
///    3  s   P   P
///         p   W   s
///    4  s   P   w
///         m   p   s
///    5  s   s   s
///         s   s   s
/// ```
const TEST_MAP: &str = r#"
[scenario]
name = "map-test"
title = "Map test"
players = 1
[rules]
turn_limit = 1
[map]
rows = [
  "s s s s s s",
  "s p w p r s",
  "s p p w p s",
  "s m p p w s",
  "s s s s s s",
]
rivers = [["C2", "C3", "C4", "C5"], ["E3", "D3", "C3"]]
[start]
homes = ["B3"]
"#;

fn test_map() -> Map {
    match Scenario::parse("map-test.toml", TEST_MAP) {
        Ok(s) => s.setup().map.clone(),
        Err(d) => panic!("test map does not read:\n{d}"),
    }
}

fn hex(s: &str) -> Hex {
    s.parse().expect("hex label")
}

fn area(s: &str) -> AreaId {
    s.parse().expect("area label")
}

fn road(map: &mut Map, a: &str, b: &str) {
    map.road_fits(area(a), area(b)).expect("road fits");
    map.roads.insert(Road::new(area(a), area(b)));
}

/// Rulebook p.14: "River springs never need a bridge": the source tile C2 is one area.
#[test]
fn a_source_tile_is_not_split() {
    let map = test_map();
    assert!(map.tile(hex("C2")).expect("C2").is_source());
    assert_eq!(map.areas(hex("C2")), vec![area("C2")]);
    assert_eq!(map.resolve_area("C2"), Ok(area("C2")));
}

/// RULINGS R3: a river splits a land tile into areas; a split tile must be named with
/// its side.
#[test]
fn a_river_splits_a_tile_into_areas() {
    let map = test_map();
    assert_eq!(map.areas(hex("C4")), vec![area("C4/E"), area("C4/W")]);
    assert!(
        map.resolve_area("C4")
            .is_err_and(|e| e.to_string().contains("C4/E or C4/W"))
    );
    assert!(
        map.resolve_area("B3/E")
            .is_err_and(|e| e.to_string().contains("not split"))
    );
    assert_eq!(map.resolve_area("c4/e"), Ok(area("C4/E")));
}

/// Rulebook p.10: "The river blocks any road movement except on source tiles or if a
/// bridge is present." Roads on the two banks of C4 are not connected until a bridge
/// is built in C4.
#[test]
fn a_river_cuts_road_connectivity_and_a_bridge_restores_it() {
    let mut map = test_map();
    road(&mut map, "B4", "C4/W");
    road(&mut map, "C4/E", "D4");
    assert!(!map.road_connected(area("B4"), area("D4"), None));
    assert!(!map.on_same_side(area("C4/W"), area("C4/E")));
    let bridge = map.bridge_at(hex("C4"), None).expect("C4 can be bridged");
    map.bridges.insert(bridge);
    assert!(map.on_same_side(area("C4/W"), area("C4/E")));
    assert!(map.road_connected(area("B4"), area("D4"), None));
}

/// Rulebook p.14: a source tile needs no bridge: roads into C2 from both sides of the
/// river's course meet there.
#[test]
fn roads_meet_on_a_source_tile() {
    let mut map = test_map();
    road(&mut map, "B2", "C2");
    road(&mut map, "C2", "D2");
    assert!(map.road_connected(area("B2"), area("D2"), None));
    assert!(
        map.bridge_at(hex("C2"), None)
            .is_err_and(|e| e.to_string().contains("never needs a bridge"))
    );
}

/// Rulebook p.14: "At river splittings, two bridges are needed to connect all parts of
/// the tile." One bridge at the junction C3 joins two of its three areas; the second
/// joins the third.
#[test]
fn a_junction_needs_two_bridges_to_join_its_three_areas() {
    let mut map = test_map();
    let areas = map.areas(hex("C3"));
    assert_eq!(areas, vec![area("C3/NE"), area("C3/SE"), area("C3/W")]);
    assert!(
        map.bridge_at(hex("C3"), None)
            .is_err_and(|e| e.to_string().contains("junction"))
    );

    map.bridges
        .insert(map.bridge_at(hex("C3"), Some(Dir::SE)).expect("arm SE"));
    assert!(map.on_same_side(area("C3/NE"), area("C3/SE")));
    assert!(!map.on_same_side(area("C3/NE"), area("C3/W")));
    assert_eq!(map.same_side(area("C3/W")).len(), 1);

    map.bridges
        .insert(map.bridge_at(hex("C3"), Some(Dir::S)).expect("arm S"));
    for a in &areas {
        assert_eq!(map.same_side(*a).len(), 3, "{a} joins all three");
    }
}

/// Rulebook p.13: "Parallel roads can be built on river shores": along the river
/// C3-C4 a road may run on each bank, and the two roads are not connected. A road
/// across the river at the border is refused.
#[test]
fn parallel_roads_run_on_either_bank() {
    let mut map = test_map();
    road(&mut map, "C3/W", "C4/W");
    road(&mut map, "C3/SE", "C4/E");
    assert!(!map.road_connected(area("C3/W"), area("C4/E"), None));
    assert!(
        map.road_fits(area("C3/W"), area("C4/E"))
            .is_err_and(|e| e.to_string().contains("cross the river"))
    );
}

/// RULINGS R3: shore is a tile with a river, or next to a sea tile; an inland tile with
/// neither is not shore; sea itself is not shore.
#[test]
fn shore_detection() {
    let map = test_map();
    assert!(map.is_shore(hex("C2")), "a source tile has a river");
    assert!(map.is_shore(hex("D3")), "river tile");
    assert!(map.is_shore(hex("B2")), "next to the sea");
    assert!(
        !map.is_sea(hex("D4")) && map.is_shore(hex("D4")),
        "D4 borders sea at D5"
    );
    assert!(!map.is_shore(hex("A1")), "sea is not shore");
    // Walls do not change shore (rulebook p.12).
    let mut walled = map.clone();
    for (d, _) in map.neighbours(hex("B2")) {
        if let Some(b) = Border::new(hex("B2"), d) {
            walled.walls.insert(
                b,
                Wall {
                    owner: Some(Colour::Red),
                    tokens: 1,
                },
            );
        }
    }
    assert!(walled.is_shore(hex("B2")));
}

#[test]
fn an_inland_tile_is_not_shore() {
    // A map with one tile surrounded by land and no river in it.
    let text = TEST_MAP
        .replace(
            r#"rivers = [["C2", "C3", "C4", "C5"], ["E3", "D3", "C3"]]"#,
            "",
        )
        .replace(r#""s p p w p s","#, r#""s p p w p p","#)
        .replace(r#""s m p p w s","#, r#""s m p p w p","#);
    let map = Scenario::parse("inland.toml", &text)
        .expect("reads")
        .setup()
        .map
        .clone();
    // D3 has neighbours D2, E3, E4, D4, C3, C4: all land.
    assert!(map.neighbours(hex("D3")).all(|(_, n)| map.is_land(n)));
    assert!(!map.is_shore(hex("D3")));
}

/// Rulebook p.13: "A wall can be built between any two tiles, except between two sea
/// tiles."
#[test]
fn walls_between_two_sea_tiles_are_impossible() {
    let map = test_map();
    let sea = Border::between(hex("A1"), hex("B1")).expect("neighbours");
    assert!(map.wall_allowed(sea).is_err());
    let coast = Border::between(hex("B1"), hex("B2")).expect("neighbours");
    assert_eq!(map.wall_allowed(coast), Ok(()));
    let land = Border::between(hex("B2"), hex("C2")).expect("neighbours");
    assert_eq!(map.wall_allowed(land), Ok(()));
}

/// RULINGS R3: only the owner passes a coloured wall, anyone a neutral one; a road
/// through a wall serves only its owner.
#[test]
fn a_road_through_a_wall_serves_only_its_owner() {
    let mut map = test_map();
    road(&mut map, "B2", "C2");
    let border = map.border(hex("B2"), hex("C2")).expect("border");
    map.walls.insert(
        border,
        Wall {
            owner: Some(Colour::Red),
            tokens: 1,
        },
    );
    assert!(map.road_connected(area("B2"), area("C2"), Some(Colour::Red)));
    assert!(!map.road_connected(area("B2"), area("C2"), Some(Colour::Yellow)));
    map.walls.insert(
        border,
        Wall {
            owner: None,
            tokens: 2,
        },
    );
    assert!(map.road_connected(area("B2"), area("C2"), Some(Colour::Yellow)));
}

/// Rulebook p.11: near a river mouth a boat "has to choose at which side to dock": C4
/// has two coasts toward the sea tile C5, one per bank.
#[test]
fn a_river_mouth_has_a_coast_on_each_bank() {
    let map = test_map();
    let toward_c5: Vec<Coast> = map
        .coasts()
        .into_iter()
        .filter(|c| c.sea == hex("C5"))
        .collect();
    assert!(toward_c5.contains(&Coast {
        land: area("C4/E"),
        sea: hex("C5")
    }));
    assert!(toward_c5.contains(&Coast {
        land: area("C4/W"),
        sea: hex("C5")
    }));
    assert!(
        !map.is_coast(Coast {
            land: area("C3/W"),
            sea: hex("C5")
        }),
        "not neighbours"
    );
}

/// Borders have one name whichever side they are named from.
#[test]
fn a_border_has_one_name() {
    for (a, b) in [("C3", "C4"), ("C3", "D3"), ("D3", "C3"), ("B2", "A2")] {
        let x = Border::between(hex(a), hex(b)).expect("neighbours");
        let y = Border::between(hex(b), hex(a)).expect("neighbours");
        assert_eq!(x, y);
        assert_eq!(x.to_string().parse::<Border>(), Ok(x));
    }
    assert!("C3-C5".parse::<Border>().is_err());
}

/// A border needs a tile on both sides: an edge facing off the labelled grid is none.
#[test]
fn an_edge_off_the_grid_is_no_border() {
    assert_eq!(Border::new(hex("Z41"), Dir::NE), None);
    assert_eq!(Border::new(hex("A1"), Dir::N), None);
    assert!(Border::new(hex("A1"), Dir::S).is_some());
}

/// Quick Guide V, &cetera Trains, RULINGS R5: a track on a river tile joins only the
/// shores on its own side of the river. A track B2-C2-D2 crosses nothing (C2 is a
/// source); a track B4-C4-D4 crosses the river at C4, so it is cut there, even with a
/// road bridge.
#[test]
fn a_track_on_a_river_tile_joins_only_its_own_side() {
    let mut map = test_map();
    for (a, b) in [("B2", "C2"), ("C2", "D2"), ("B4", "C4"), ("C4", "D4")] {
        map.tracks
            .insert(Border::between(hex(a), hex(b)).expect("neighbours"));
    }
    let from_b2 = map.rail_network(&[area("B2")]);
    assert!(from_b2.contains(&area("D2")), "{from_b2:?}");
    let from_b4 = map.rail_network(&[area("B4")]);
    let c4: Vec<AreaId> = map.areas(hex("C4"));
    assert_eq!(c4.len(), 2, "C4 is split by the river");
    assert_eq!(
        from_b4.iter().filter(|a| a.hex == hex("C4")).count(),
        1,
        "the train from B4 reaches one bank of C4: {from_b4:?}"
    );
    assert!(!from_b4.contains(&area("D4")), "{from_b4:?}");
    map.bridges
        .insert(map.bridge_at(hex("C4"), None).expect("bridge"));
    assert!(!map.rail_network(&[area("B4")]).contains(&area("D4")));
    // A tile with no track gives no network.
    assert!(map.rail_network(&[area("B3")]).is_empty());
}
