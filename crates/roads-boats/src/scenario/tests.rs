use super::*;
use crate::goods::Good;
use crate::transporter::{Kind, Location};

fn seats(n: usize) -> Vec<Seat> {
    (0..n)
        .map(|i| Seat {
            name: format!("Player {i}"),
            email: format!("p{i}@example.org"),
        })
        .collect()
}

const SMALL: &str = r#"
[scenario]
name = "small"
title = "Small"
players = 3
[map]
rows = [
  "s s s s s s s s",
  "s p w r p m w s",
  "s w p m p w p s",
  "s r p w p r r s",
  "s s s s s s s s",
]
rivers = [["D2", "D3", "D4", "D5"]]
[start]
homes = ["B2", "F2", "C4"]
"#;

fn small() -> Scenario {
    Scenario::parse("small.toml", SMALL).unwrap_or_else(|d| panic!("{d}"))
}

/// Rulebook, starting places and resources: "each player gets 3 donkeys, 5 sets of
/// boards, 1 pile of stones and 2 geese", placed on the home tile.
#[test]
fn each_player_starts_with_three_donkeys_five_boards_a_stone_and_two_geese_at_home() {
    let state = small()
        .start(&seats(3), &judge_core::luck::Luck::predictable(1))
        .expect("start");
    for (colour, player) in &state.players {
        let donkeys = state
            .transporters_of(*colour)
            .filter(|(_, t)| {
                t.kind == Kind::Donkey && Some(t.at) == player.home.map(Location::Land)
            })
            .count();
        assert_eq!(donkeys, 3, "{colour}");
        let goods = player
            .home
            .and_then(|h| state.goods_at(h))
            .expect("goods at home");
        assert_eq!(goods.count(Good::Boards), 5);
        assert_eq!(goods.count(Good::Stone), 1);
        assert_eq!(goods.count(Good::Geese), 2);
    }
    // Seats take colours in order, and ids are numbered in seat order.
    let red = state
        .transporters_of(Colour::Red)
        .map(|(id, _)| id.to_string())
        .collect::<Vec<_>>();
    assert_eq!(red, ["D1", "D2", "D3"]);
    assert_eq!(state.players[&Colour::Red].name, "Player 0");
}

/// RULINGS R2: the move order is drawn from the game's seed ("random from the game's
/// seed"); the same seed draws the same order.
#[test]
fn the_move_order_is_drawn_from_the_seed() {
    let s = small();
    let a = s
        .start(&seats(3), &judge_core::luck::Luck::predictable(42))
        .expect("start");
    let b = s
        .start(&seats(3), &judge_core::luck::Luck::predictable(42))
        .expect("start");
    assert_eq!(a, b);
    let mut sorted = a.move_order.clone();
    sorted.sort();
    assert_eq!(sorted, vec![Colour::Red, Colour::Yellow, Colour::Green]);
    let orders: std::collections::BTreeSet<Vec<Colour>> = (0..40)
        .map(|seed| {
            s.start(&seats(3), &judge_core::luck::Luck::predictable(seed))
                .expect("start")
                .move_order
        })
        .collect();
    assert!(orders.len() > 1, "different seeds draw different orders");
}

/// RULINGS R2: "or as the game file lists it".
#[test]
fn a_scenario_may_fix_the_move_order() {
    let text = format!("{SMALL}[position]\nmove_order = [\"green\", \"red\", \"yellow\"]\n");
    let s = Scenario::parse("fixed.toml", &text).unwrap_or_else(|d| panic!("{d}"));
    let state = s
        .start(&seats(3), &judge_core::luck::Luck::predictable(9))
        .expect("start");
    assert_eq!(
        state.move_order,
        vec![Colour::Green, Colour::Red, Colour::Yellow]
    );
}

#[test]
fn a_game_needs_exactly_one_person_per_seat() {
    let err = small()
        .start(&seats(2), &judge_core::luck::Luck::predictable(1))
        .expect_err("two people for three seats");
    assert_eq!(
        err.to_string(),
        "scenario `small` is for 3 players, but 2 were given"
    );
}

/// RULINGS R7: the end mark depends on the player count (3 players: brick 66), and 33
/// neutral bricks end the game too.
#[test]
fn the_end_mark_follows_the_player_count() {
    let state = small()
        .start(&seats(3), &judge_core::luck::Luck::predictable(1))
        .expect("start");
    assert_eq!(state.settings.end.wonder_brick, Some(66));
    assert_eq!(state.settings.end.neutral_bricks, 33);
}

/// A position written by hand: ids given by the scenario are kept, and new ones are
/// numbered after them; a mine with no mixture given holds 3 gold and 3 iron (R4).
#[test]
fn a_hand_written_position_is_kept() {
    let text = format!(
        r#"{SMALL}
[position]
turn = 7
phase = "movement"
wonder = ["red", "neutral", "yellow"]
research = {{ red = ["oil-rig", "new-shafts"] }}
roads = [["B2", "C2"]]
bridges = ["D3"]
walls = [{{ between = "B2-B3", owner = "red", tokens = 2 }}]
buildings = [{{ kind = "mine", at = "F2" }}, {{ kind = "sawmill", at = "B3" }}]
goods = {{ "B3" = {{ trunks = 2 }} }}

[[position.transporters]]
id = "D7"
owner = "yellow"
kind = "donkey"
at = "C2"
cargo = {{ boards = 2 }}

[[position.transporters]]
owner = "red"
kind = "raft"
at = "river D3"
"#
    );
    let s = Scenario::parse("position.toml", &text).unwrap_or_else(|d| panic!("{d}"));
    let state = s.setup();
    assert_eq!(
        (state.turn, state.phase),
        (7, crate::state::Phase::Movement)
    );
    assert_eq!(state.wonder.placed(), 3);
    assert_eq!(state.map.roads.len(), 1);
    assert_eq!(state.map.walls.values().next().map(|w| w.tokens), Some(2));
    let mine = state
        .buildings
        .iter()
        .find(|b| b.kind == crate::building::BuildingKind::Mine);
    assert_eq!(
        mine.and_then(|m| m.mine),
        Some(crate::building::MineBag::ORDINARY)
    );
    let ids: Vec<String> = state.transporters.keys().map(ToString::to_string).collect();
    // The scenario reserved D7, so the starting donkeys are D8 to D16; the raft is R1.
    assert!(ids.contains(&"D7".to_string()) && ids.contains(&"R1".to_string()));
    assert_eq!(state.transporters.len(), 11);
    assert_eq!(state.last_ids[&Kind::Donkey], 16);
}

/// Every bundled scenario reads cleanly and has what the rulebook recommends: rivers,
/// sea, coasts, and about ten land tiles per player.
#[test]
fn bundled_scenarios_are_real_maps() {
    for (name, text) in bundled() {
        let s = Scenario::parse(name, text).unwrap_or_else(|d| panic!("{d}"));
        assert_eq!(s.name, name);
        let map = &s.setup().map;
        let land = map.tiles.values().filter(|t| t.terrain.is_land()).count();
        assert!(
            (8 * s.players..=14 * s.players).contains(&land),
            "{name}: {land} land tiles for {} players",
            s.players
        );
        assert!(
            map.tiles.values().any(|t| t.terrain.is_sea()),
            "{name}: sea"
        );
        assert!(
            map.tiles.values().filter(|t| t.river.len() >= 2).count() >= 2,
            "{name}: rivers"
        );
        assert!(!map.coasts().is_empty(), "{name}: coasts");
        for terrain in [
            crate::map::Terrain::Woods,
            crate::map::Terrain::Rock,
            crate::map::Terrain::Pasture,
            crate::map::Terrain::Mountain,
        ] {
            assert!(
                map.tiles.values().any(|t| t.terrain == terrain),
                "{name}: {terrain}"
            );
        }
    }
}
