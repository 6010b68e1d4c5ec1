//! The state survives JSON unchanged, whatever it holds: archives never lose anything.

use std::collections::BTreeMap;

use proptest::collection::{btree_map, btree_set, vec};
use proptest::prelude::*;

use pbem_judge::archive::stable_json;
use pbem_judge::roads_boats::building::{Building, BuildingKind, MineBag};
use pbem_judge::roads_boats::goods::{Good, Goods};
use pbem_judge::roads_boats::map::{
    AreaId, Border, Bridge, Coast, Compass, Dir, Hex, Map, RiverEdges, Road, Terrain, Tile, Wall,
};
use pbem_judge::roads_boats::player::{Colour, Player, Research};
use pbem_judge::roads_boats::state::{
    EndConditions, MineDraw, Module, Phase, Settings, Show, State,
};
use pbem_judge::roads_boats::transporter::{Kind, Location, Transporter, TransporterId};
use pbem_judge::roads_boats::wonder::{Brick, Wonder};

fn pick<T: Copy + std::fmt::Debug + 'static>(all: &'static [T]) -> impl Strategy<Value = T> {
    proptest::sample::select(all)
}

fn hex() -> impl Strategy<Value = Hex> {
    (0u8..26, 0u8..99).prop_map(|(c, r)| Hex::new(c, r))
}

fn area() -> impl Strategy<Value = AreaId> {
    (hex(), proptest::option::of(pick(&Compass::ALL))).prop_map(|(hex, side)| AreaId { hex, side })
}

fn goods() -> impl Strategy<Value = Goods> {
    vec((pick(&Good::ALL), 0u32..20), 0..5).prop_map(|v| v.into_iter().collect())
}

fn id() -> impl Strategy<Value = TransporterId> {
    (pick(&Kind::ALL), 1u32..500).prop_map(|(kind, number)| TransporterId { kind, number })
}

fn border() -> impl Strategy<Value = Border> {
    (hex(), pick(&Dir::ALL)).prop_filter_map("on the labelled grid", |(h, d)| Border::new(h, d))
}

fn location() -> impl Strategy<Value = Location> {
    prop_oneof![
        area().prop_map(Location::Land),
        hex().prop_map(Location::River),
        hex().prop_map(Location::Sea),
        (area(), hex()).prop_map(|(land, sea)| Location::Dock(Coast { land, sea })),
        id().prop_map(Location::Carried),
    ]
}

fn map() -> impl Strategy<Value = Map> {
    (
        btree_map(
            hex(),
            (pick(&Terrain::ALL), btree_set(pick(&Dir::ALL), 0..4)),
            0..30,
        ),
        btree_set((area(), area()).prop_map(|(a, b)| Road::new(a, b)), 0..6),
        btree_set(
            (hex(), pick(&Dir::ALL)).prop_map(|(hex, over)| Bridge { hex, over }),
            0..4,
        ),
        btree_map(
            border(),
            (proptest::option::of(pick(&Colour::SEATS)), 1u8..5),
            0..5,
        ),
        btree_set(border(), 0..5),
    )
        .prop_map(|(tiles, roads, bridges, walls, tracks)| Map {
            tiles: tiles
                .into_iter()
                .map(|(h, (terrain, river))| {
                    (
                        h,
                        Tile {
                            terrain,
                            river: river.into_iter().collect::<RiverEdges>(),
                        },
                    )
                })
                .collect(),
            // Power lines (electricity) are stored like roads.
            power_lines: roads.iter().copied().take(3).collect(),
            polders_dry: tracks.len() % 2 == 1,
            roads,
            bridges,
            walls: walls
                .into_iter()
                .map(|(b, (owner, tokens))| (b, Wall { owner, tokens }))
                .collect(),
            tracks,
        })
}

fn state() -> impl Strategy<Value = State> {
    let players = btree_map(
        pick(&Colour::SEATS),
        (".*", ".*", area(), btree_set(pick(&Research::ALL), 0..4)),
        1..6,
    );
    let transporters = btree_map(
        id(),
        (
            pick(&Colour::SEATS),
            pick(&Kind::ALL),
            location(),
            goods(),
            0u32..4,
        ),
        0..12,
    );
    let buildings = vec(
        (
            pick(&BuildingKind::ALL),
            area(),
            proptest::option::of((0u32..6, 0u32..6)),
            0u32..6,
            any::<bool>(),
        ),
        0..8,
    );
    (
        (
            any::<u32>(),
            pick(&[
                Phase::Production,
                Phase::Movement,
                Phase::Building,
                Phase::Wonder,
            ]),
            "[a-z-]{1,12}",
        ),
        (
            btree_set(pick(&Module::ALL), 0..5),
            any::<bool>(),
            proptest::option::of(1u32..84),
            1u32..40,
            proptest::option::of(1u32..50),
        ),
        map(),
        players,
        btree_map(area(), goods(), 0..10),
        transporters,
        buildings,
        vec(
            prop_oneof![
                pick(&Colour::SEATS).prop_map(Brick::Player),
                Just(Brick::Neutral),
                Just(Brick::Skipped)
            ],
            0..83,
        ),
        btree_map(pick(&Kind::ALL), 0u32..1000, 0..4),
    )
        .prop_map(
            |(
                (turn, phase, scenario),
                (modules, random, brick, neutral, limit),
                map,
                players,
                goods,
                transporters,
                buildings,
                bricks,
                last_ids,
            )| {
                let players: BTreeMap<Colour, Player> = players
                    .into_iter()
                    .map(|(c, (name, email, home, research))| {
                        (
                            c,
                            Player {
                                name,
                                email,
                                home: Some(home),
                                research,
                            },
                        )
                    })
                    .collect();
                State {
                    scenario,
                    turn,
                    phase,
                    settings: Settings {
                        modules,
                        mine_draw: if random {
                            MineDraw::Random
                        } else {
                            MineDraw::Most
                        },
                        end: EndConditions {
                            wonder_brick: brick,
                            neutral_bricks: neutral,
                            turn_limit: limit,
                        },
                    },
                    map,
                    // Jumpstart: a winning bid for each player.
                    bids: players.keys().map(|c| (*c, turn % 40)).collect(),
                    // Art: exhibitions shown, between the players in turn.
                    shows: players
                        .keys()
                        .zip(players.keys().skip(1))
                        .map(|(by, at)| Show {
                            by: *by,
                            at: *at,
                            beauty: 3 + turn % 3,
                            turn,
                        })
                        .collect(),
                    move_order: players.keys().rev().copied().collect(),
                    players,
                    goods: goods.into_iter().filter(|(_, g)| !g.is_empty()).collect(),
                    transporters: transporters
                        .into_iter()
                        .map(|(id, (owner, kind, at, cargo, following_geese))| {
                            (
                                id,
                                Transporter {
                                    owner,
                                    kind,
                                    at,
                                    cargo,
                                    following_geese,
                                },
                            )
                        })
                        .collect(),
                    last_ids,
                    buildings: buildings
                        .into_iter()
                        .map(|(kind, at, mine, used, bomb_proof)| Building {
                            kind,
                            at,
                            mine: mine.map(|(gold, iron)| MineBag { gold, iron }),
                            used,
                            bomb_proof,
                        })
                        .collect(),
                    wonder: Wonder { bricks },
                    game_over: if turn % 7 == 0 {
                        Some(format!("reason {turn}"))
                    } else {
                        None
                    },
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// State → JSON → state is lossless, and the JSON is stable: writing the state read
    /// back gives the same bytes.
    #[test]
    fn state_to_json_and_back_is_lossless(s in state()) {
        let json = stable_json(&s).expect("serialises");
        let back: State = serde_json::from_str(&json).expect("reads back");
        prop_assert_eq!(&back, &s);
        prop_assert_eq!(stable_json(&back).expect("serialises"), json);
    }
}

#[test]
fn json_keys_are_sorted() {
    let text = stable_json(&serde_json::json!({"b": 1, "a": {"d": 2, "c": 3}})).expect("json");
    assert_eq!(
        text,
        "{\n  \"a\": {\n    \"c\": 3,\n    \"d\": 2\n  },\n  \"b\": 1\n}\n"
    );
}
