//! Random positions and orders for property tests and benchmarks: every order names real
//! transporters, areas and buildings, so most of them do something.
#![allow(dead_code)]

pub mod catan;
pub mod catan_orders;
pub mod hooks;
pub mod servers;

use pbem_judge::roads_boats::State;
use pbem_judge::roads_boats::building::{Building, BuildingKind, MineBag, Output, Site};
use pbem_judge::roads_boats::goods::{Good, Goods};
use pbem_judge::roads_boats::map::{AreaId, Border, Dir, Hex, Road};
use pbem_judge::roads_boats::modules::trains::FareFrom;
use pbem_judge::roads_boats::modules::{
    self, bombs, electricity, management, planes, trade, trains,
};
use pbem_judge::roads_boats::orders::{
    BuildingOrder, Consent, MovementOrder, Numbered, Party, PlayerOrders, ProductionOrder, Step,
    TurnOrders, WonderOrder,
};
use pbem_judge::roads_boats::player::{Colour, Research};
use pbem_judge::roads_boats::rng::Rng;
use pbem_judge::roads_boats::scenario::{Scenario, Seat, bundled};
use pbem_judge::roads_boats::state::{Module, Phase};
use pbem_judge::roads_boats::transporter::TransporterId;
use pbem_judge::roads_boats::transporter::{Class, Kind, Location, Transporter};

pub fn pick<'a, T>(r: &mut Rng, items: &'a [T]) -> Option<&'a T> {
    if items.is_empty() {
        None
    } else {
        Some(&items[r.below(items.len() as u32) as usize])
    }
}

fn goods(r: &mut Rng, max: u32) -> Goods {
    (0..1 + r.below(3))
        .map(|_| {
            (
                Good::ALL[r.below(Good::ALL.len() as u32) as usize],
                1 + r.below(max),
            )
        })
        .collect()
}

/// A bundled scenario started with `seed`, then enriched: goods everywhere, buildings on
/// fitting tiles, each player's fleet filled up to the limits, roads, walls, research.
pub fn rich_state(scenario: &str, seed: u64, transporters_each: usize) -> State {
    let text = bundled()[scenario];
    let s = Scenario::parse(scenario, text).expect("bundled scenario");
    let seats: Vec<Seat> = (0..s.players)
        .map(|i| Seat {
            name: format!("P{i}"),
            email: format!("p{i}@example.org"),
        })
        .collect();
    // A set-up round (homes chosen, an auction) is played with every player's default.
    let mut st = s
        .start_by_default(&seats, &pbem_judge::luck::Luck::predictable(seed))
        .expect("start");
    // Every module with rules, whatever the scenario says: the new goods,
    // buildings, transporters and orders are exercised too.
    st.settings.modules = Module::ALL.into_iter().collect();
    let mut r = Rng::new(seed ^ 0x5eed);
    let land: Vec<AreaId> = st
        .map
        .tiles
        .iter()
        .filter(|(_, t)| t.terrain.is_land())
        .flat_map(|(h, _)| st.map.areas(*h))
        .collect();
    for a in &land {
        if r.below(2) == 0 {
            st.goods.entry(*a).or_default().add_all(&goods(&mut r, 4));
        }
    }
    for a in &land {
        if r.below(3) == 0 || st.buildings_on(a.hex).next().is_some() {
            continue;
        }
        for _ in 0..8 {
            let kind = BuildingKind::ALL[r.below(BuildingKind::ALL.len() as u32) as usize];
            let terrain = st.map.terrain(a.hex).expect("tile");
            let fits = kind.site().allows(&st.map, a.hex)
                && !(kind.site() == Site::AnyLand
                    && terrain == pbem_judge::roads_boats::map::Terrain::Desert);
            if fits {
                let mine = (kind == BuildingKind::Mine)
                    .then_some(pbem_judge::roads_boats::building::MineBag { gold: 3, iron: 3 });
                st.buildings.push(Building {
                    kind,
                    at: *a,
                    mine,
                    used: 0,
                    bomb_proof: r.below(4) == 0,
                });
                break;
            }
        }
    }
    let rivers: Vec<Hex> = st
        .map
        .tiles
        .iter()
        .filter(|(_, t)| t.terrain.is_land() && t.has_river())
        .map(|(h, _)| *h)
        .collect();
    let colours: Vec<Colour> = st.players.keys().copied().collect();
    for c in &colours {
        let home = st.players[c].home.expect("a home");
        while st.transporters_of(*c).count() < transporters_each.min(8) {
            let kind = Kind::ALL[r.below(Kind::ALL.len() as u32) as usize];
            let (l, w, a, _) = st.fleet(*c);
            let caravans = st
                .transporters_of(*c)
                .filter(|(_, t)| t.kind == Kind::Caravan)
                .count();
            let room = match kind.class() {
                _ if kind == Kind::Caravan => caravans < 3,
                Class::Land => l < 5,
                Class::Water => w < 5 && !rivers.is_empty(),
                Class::Air => a < 3,
            };
            if !room {
                if l >= 5 && (w >= 5 || rivers.is_empty()) && a >= 3 {
                    break;
                }
                continue;
            }
            let at = match kind.class() {
                Class::Water => Location::River(*pick(&mut r, &rivers).expect("river")),
                _ => Location::Land(if r.below(2) == 0 {
                    home
                } else {
                    *pick(&mut r, &land).expect("land")
                }),
            };
            let id = st.next_id(kind);
            let mut cargo = Goods::new();
            for (g, n) in goods(&mut r, 2).iter() {
                let k = n.min(kind.room_for(&cargo, g));
                cargo.add(g, k);
            }
            st.transporters.insert(
                id,
                Transporter {
                    owner: *c,
                    kind,
                    at,
                    cargo,
                    following_geese: 0,
                },
            );
        }
        for _ in 0..3 {
            if let Some(res) = pick(&mut r, &Research::ALL) {
                st.players.get_mut(c).expect("player").research.insert(*res);
            }
        }
    }
    for a in &land {
        for d in Dir::ALL {
            if r.below(6) != 0 {
                continue;
            }
            if let Some(n) = a.hex.step(d)
                && let Some(b) = st.map.areas(n).first().copied()
                && st.map.road_fits(*a, b).is_ok()
            {
                st.map.roads.insert(Road::new(*a, b));
            }
            if r.below(3) == 0
                && let Some(border) = Border::new(a.hex, d)
                && st.map.border(border.tiles().0, border.tiles().1).is_some()
                && st.map.wall_allowed(border).is_ok()
            {
                let owner = pick(&mut r, &colours).copied().filter(|_| r.below(3) != 0);
                st.map.walls.insert(
                    border,
                    pbem_judge::roads_boats::map::Wall {
                        owner,
                        tokens: 1 + r.below(2) as u8,
                    },
                );
            }
        }
    }
    st.normalise();
    st
}

/// Some of what a transporter carries (or, if nothing, any goods).
fn some_of(r: &mut Rng, cargo: &Goods) -> Goods {
    let held: Vec<(Good, u32)> = cargo.iter().collect();
    match pick(r, &held) {
        Some((g, n)) => [(*g, 1 + r.below(*n))].into_iter().collect(),
        None => goods(r, 2),
    }
}

/// A random consent by `colour` about one of `mine` (accept, offer, allow).
fn consent(r: &mut Rng, st: &State, colour: Colour, mine: &[TransporterId]) -> Option<Consent> {
    let others: Vec<Colour> = st
        .players
        .keys()
        .copied()
        .filter(|c| *c != colour)
        .collect();
    let party = match pick(r, &others) {
        Some(c) if r.below(3) != 0 => Party::Player(*c),
        _ => Party::Anyone,
    };
    let id = *pick(r, mine)?;
    let limit = (r.below(2) == 0).then(|| goods(r, 3));
    Some(match r.below(3) {
        0 => Consent::Accept {
            from: party,
            goods: limit,
            onto: (r.below(2) == 0).then_some(id),
        },
        1 => Consent::Offer {
            transporter: id,
            goods: limit,
            to: party,
        },
        _ => Consent::Carry {
            transporter: id,
            by: party,
        },
    })
}

/// Orders for every player in every phase, naming real things: their own transporters,
/// and other players' where an order may (give to, hand in from, carry).
pub fn random_orders(st: &State, seed: u64, per_phase: u32) -> TurnOrders {
    let mut r = Rng::new(seed);
    // The kinds of order added later, from a stream of their own.
    let mut x = Rng::new(seed ^ 0x0040_5eed);
    let mut all = TurnOrders::new();
    let hexes: Vec<Hex> = st.map.tiles.keys().copied().collect();
    let building_hexes: Vec<Hex> = st.buildings.iter().map(|b| b.at.hex).collect();
    let everyone: Vec<TransporterId> = st.transporters.keys().copied().collect();
    let track_hexes: Vec<Hex> = st
        .map
        .tracks
        .iter()
        .flat_map(|b| {
            let (x, y) = b.tiles();
            [x, y]
        })
        .filter(|h| st.map.is_land(*h))
        .collect();
    // Transporters on the same tile as `id`, else any: gives, hand-ins and pick-ups
    // mostly name a transporter that is there, so they do something.
    let near = |r: &mut Rng, id: TransporterId| -> Option<TransporterId> {
        let here = st.tile_of(id);
        let close: Vec<TransporterId> = everyone
            .iter()
            .copied()
            .filter(|o| *o != id && here.is_some() && st.tile_of(*o) == here)
            .collect();
        if close.is_empty() || r.below(5) == 0 {
            pick(r, &everyone).copied()
        } else {
            pick(r, &close).copied()
        }
    };
    for colour in st.players.keys() {
        let ids: Vec<TransporterId> = st.transporters_of(*colour).map(|(id, _)| *id).collect();
        let mine: Vec<_> = st
            .transporters_of(*colour)
            .map(|(id, t)| (*id, t.clone()))
            .collect();
        let mut o = PlayerOrders::default();
        let mut line = 0;
        let mut n = || {
            line += 1;
            line
        };
        for _ in 0..per_phase {
            let Some((id, t)) = pick(&mut r, &mine).cloned() else {
                break;
            };
            let area = match t.at {
                Location::Land(a) => Some(a),
                Location::Dock(c) => Some(c.land),
                Location::River(h) => st.map.areas(h).first().copied(),
                _ => None,
            };
            let order = match r.below(11) {
                9 => {
                    ProductionOrder::Module(modules::Order::Electricity(electricity::Order::Fire {
                        at: pick(&mut r, &building_hexes).copied().unwrap_or(hexes[0]),
                        with: id,
                        using: None,
                    }))
                }
                10 => {
                    ProductionOrder::Module(modules::Order::Management(management::Order::Manage {
                        at: t.at.hex().unwrap_or(hexes[0]),
                        with: id,
                    }))
                }
                5 => ProductionOrder::Give {
                    from: id,
                    to: near(&mut r, id).unwrap_or(id),
                    goods: some_of(&mut r, &t.cargo),
                },
                6 => ProductionOrder::Carry {
                    carrier: id,
                    carried: near(&mut r, id).unwrap_or(id),
                },
                7 => match consent(&mut r, st, *colour, &ids) {
                    Some(c) => ProductionOrder::Consent(c),
                    None => continue,
                },
                8 => ProductionOrder::NoBreed {
                    at: (r.below(2) == 0).then(|| hexes[r.below(hexes.len() as u32) as usize]),
                },
                0 => ProductionOrder::Load {
                    transporter: id,
                    goods: goods(&mut r, 3),
                    area: None,
                },
                1 => ProductionOrder::Unload {
                    transporter: id,
                    goods: goods(&mut r, 3),
                    area,
                },
                2 | 3 => {
                    let at = pick(&mut r, &building_hexes).copied().unwrap_or(hexes[0]);
                    let output = if r.below(4) == 0 {
                        Output::Transporter(Kind::ALL[r.below(Kind::ALL.len() as u32) as usize])
                    } else {
                        Output::Good(Good::ALL[r.below(Good::ALL.len() as u32) as usize])
                    };
                    let mut from = vec![id];
                    if r.below(3) == 0
                        && let Some(other) = near(&mut r, id)
                    {
                        from.push(other);
                    }
                    ProductionOrder::Make {
                        count: 1 + r.below(6),
                        output,
                        at,
                        from,
                        launch: None,
                        using: match r.below(4) {
                            0 => Some(Good::Boards),
                            1 => Some(Good::Trunks),
                            _ => None,
                        },
                    }
                }
                _ => ProductionOrder::Research {
                    subject: Research::ALL[r.below(8) as usize],
                    with: id,
                },
            };
            o.production.push(Numbered { line: n(), order });
        }
        for _ in 0..per_phase {
            let Some((id, t)) = pick(&mut r, &mine).cloned() else {
                break;
            };
            let mut steps = Vec::new();
            let mut here = t.at;
            for _ in 0..1 + r.below(4) {
                match r.below(4) {
                    0 => steps.push(Step::Load {
                        goods: goods(&mut r, 2),
                        area: None,
                    }),
                    1 => steps.push(Step::Unload {
                        goods: goods(&mut r, 2),
                        area: None,
                    }),
                    _ => {
                        let Some(h) = here.hex() else { break };
                        let d = Dir::ALL[r.below(6) as usize];
                        let Some(nh) = h.step(d).filter(|n| st.map.tiles.contains_key(n)) else {
                            continue;
                        };
                        let next = match (t.kind.class(), st.map.is_sea(nh)) {
                            (Class::Water, true) => Location::Sea(nh),
                            (Class::Water, false) => Location::River(nh),
                            (_, true) => Location::Sea(nh),
                            (_, false) => {
                                Location::Land(*pick(&mut r, &st.map.areas(nh)).expect("area"))
                            }
                        };
                        steps.push(Step::To(next));
                        here = next;
                    }
                }
            }
            if r.below(5) == 0 {
                steps.push(Step::Follow(1 + r.below(2)));
            }
            if r.below(4) == 0
                && let Some(to) = near(&mut r, id)
            {
                steps.insert(
                    r.below(steps.len() as u32 + 1) as usize,
                    Step::Give {
                        to,
                        goods: some_of(&mut r, &t.cargo),
                    },
                );
            }
            if r.below(6) == 0
                && let Some(other) = near(&mut r, id)
            {
                steps.insert(0, Step::Carry(other));
            }
            let land_at = |r: &mut Rng| {
                let h = hexes[r.below(hexes.len() as u32) as usize];
                if st.map.is_sea(h) {
                    Location::Sea(h)
                } else {
                    Location::Land(*pick(r, &st.map.areas(h)).expect("area"))
                }
            };
            let order = match (t.kind, r.below(6)) {
                (Kind::Plane, 0..=2) => {
                    let h = hexes[r.below(hexes.len() as u32) as usize];
                    let drop = pick(&mut r, &st.map.areas(h))
                        .copied()
                        .map(|a| (a, goods(&mut r, 2)));
                    MovementOrder::Module(modules::Order::Planes(planes::Order::Fly {
                        plane: id,
                        load: goods(&mut r, 3),
                        follow: r.below(3),
                        drops: drop.into_iter().collect(),
                        land: land_at(&mut r),
                    }))
                }
                (_, 3 | 4) if t.at.hex().is_some_and(|h| track_hexes.contains(&h)) => {
                    MovementOrder::Module(modules::Order::Trains(trains::Order::Train {
                        transporter: id,
                        to: {
                            let h = track_hexes[r.below(track_hexes.len() as u32) as usize];
                            match t.kind.class() {
                                Class::Water => Location::River(h),
                                _ => Location::Land(*pick(&mut r, &st.map.areas(h)).expect("area")),
                            }
                        },
                        fare: Good::ALL[r.below(Good::ALL.len() as u32) as usize],
                        fare_from: match r.below(3) {
                            0 => Some(FareFrom::Tile),
                            1 => Some(FareFrom::Cargo),
                            _ => None,
                        },
                        follow: r.below(3),
                    }))
                }
                (_, 4) => match st
                    .transporters
                    .iter()
                    .find(|(_, x)| x.at == Location::Carried(id))
                {
                    Some((carried, _)) => MovementOrder::Release {
                        carrier: id,
                        carried: *carried,
                        at: t.at,
                    },
                    None => match consent(&mut r, st, *colour, &ids) {
                        Some(c) => MovementOrder::Consent(c),
                        None => continue,
                    },
                },
                _ => MovementOrder::Move {
                    transporter: id,
                    steps,
                },
            };
            o.movement.push(Numbered { line: n(), order });
        }
        for _ in 0..per_phase {
            let Some((id, t)) = pick(&mut r, &mine).cloned() else {
                break;
            };
            let Some(h) = t.at.hex() else { continue };
            let area = st.map.areas(h).first().copied().unwrap_or(AreaId::whole(h));
            let order = match r.below(4) {
                0 => BuildingOrder::Build {
                    kind: BuildingKind::ALL[r.below(BuildingKind::ALL.len() as u32) as usize],
                    at: area,
                    with: id,
                    mixture: None,
                },
                1 => {
                    let d = Dir::ALL[r.below(6) as usize];
                    match h.step(d).and_then(|n| st.map.areas(n).first().copied()) {
                        Some(b) => BuildingOrder::Road {
                            from: area,
                            to: b,
                            with: id,
                        },
                        None => continue,
                    }
                }
                2 => match Border::new(h, Dir::ALL[r.below(6) as usize]) {
                    Some(border) => BuildingOrder::Wall {
                        border,
                        with: id,
                        tokens: None,
                    },
                    None => continue,
                },
                3 if r.below(3) == 0 => {
                    let d = Dir::ALL[r.below(6) as usize];
                    match h.step(d).and_then(|n| st.map.areas(n).first().copied()) {
                        Some(b) => BuildingOrder::Module(modules::Order::Electricity(
                            electricity::Order::PowerLine {
                                from: area,
                                to: b,
                                with: id,
                            },
                        )),
                        None => continue,
                    }
                }
                3 if r.below(2) == 0 => match consent(&mut r, st, *colour, &ids) {
                    Some(c) => BuildingOrder::Consent(c),
                    None => continue,
                },
                _ => BuildingOrder::Module(modules::Order::Bombs(bombs::Order::BombProof {
                    at: h,
                    // In a city, which holds two, the second building by name.
                    building: st.buildings_on(h).nth(1).map(|b| b.kind),
                    with: id,
                })),
            };
            o.building.push(Numbered { line: n(), order });
        }
        // Trade with another player, both sides sometimes agreeing (they write the mirror
        // below), and loading at home.
        if r.below(2) == 0
            && let Some(other) =
                pick(&mut r, &st.players.keys().copied().collect::<Vec<_>>()).copied()
        {
            // Mostly goods that lie at the two homes, so that some trades happen.
            let at_home = |c: Colour| {
                st.players[&c]
                    .home
                    .and_then(|h| st.goods.get(&h))
                    .cloned()
                    .unwrap_or_default()
            };
            let (mine_home, theirs) = (at_home(*colour), at_home(other));
            let give = if r.below(4) == 0 {
                goods(&mut r, 2)
            } else {
                some_of(&mut r, &mine_home)
            };
            let get = if r.below(3) == 0 {
                Goods::new()
            } else {
                some_of(&mut r, &theirs)
            };
            o.wonder.push(Numbered {
                line: n(),
                order: WonderOrder::Module(modules::Order::Trade(trade::Order::Trade {
                    give,
                    get,
                    with: other,
                })),
            });
        }
        if r.below(3) == 0
            && let Some((id, _)) = pick(&mut r, &mine).cloned()
        {
            o.wonder.push(Numbered {
                line: n(),
                order: WonderOrder::Module(modules::Order::Trade(trade::Order::Load {
                    transporter: id,
                    goods: goods(&mut r, 3),
                })),
            });
        }
        if r.below(2) == 0 {
            o.wonder.push(Numbered {
                line: n(),
                order: WonderOrder::Bricks {
                    count: 1 + r.below(3),
                    paying: goods(&mut r, 4),
                },
            });
        }
        // The kinds of order the draws above never make (upgrades,
        // destroying, breeding, releasing, bridges, demolition, shafts, bombs, the wonder
        // phase's move order), from a stream of their own, so that the orders above stay as they
        // were; `random_orders_give_every_kind_of_order` (tests/roads_boats/properties.rs) sees that
        // every kind of every phase is made.
        if let Some((id, t)) = pick(&mut x, &mine).cloned() {
            let h = t.at.hex().unwrap_or(hexes[0]);
            let at = pick(&mut x, &building_hexes).copied().unwrap_or(h);
            if x.below(2) == 0 {
                let from = if x.below(3) == 0 {
                    st.buildings_on(at).next().map(|b| b.kind)
                } else {
                    None
                };
                let to = BuildingKind::ALL[x.below(BuildingKind::ALL.len() as u32) as usize];
                o.production.push(Numbered {
                    line: n(),
                    order: ProductionOrder::Upgrade { at, from, to },
                });
            }
            if x.below(4) == 0 {
                o.production.push(Numbered {
                    line: n(),
                    order: ProductionOrder::Destroy { transporter: id },
                });
            }
            if x.below(3) == 0 {
                o.production.push(Numbered {
                    line: n(),
                    order: ProductionOrder::Breed { at: h },
                });
            }
            // A release of a transporter not carried (the draws above release only
            // what is carried, which a random position seldom holds): refused.
            if x.below(3) == 0
                && let Some(carried) = pick(&mut x, &everyone).copied()
            {
                o.movement.push(Numbered {
                    line: n(),
                    order: MovementOrder::Release {
                        carrier: id,
                        carried,
                        at: t.at,
                    },
                });
            }
            if x.below(2) == 0 {
                let over = if x.below(2) == 0 {
                    Some(Dir::ALL[x.below(6) as usize])
                } else {
                    None
                };
                o.building.push(Numbered {
                    line: n(),
                    order: BuildingOrder::Bridge {
                        at: h,
                        over,
                        with: id,
                    },
                });
            }
            if x.below(2) == 0
                && let Some(border) = Border::new(h, Dir::ALL[x.below(6) as usize])
            {
                o.building.push(Numbered {
                    line: n(),
                    order: BuildingOrder::Demolish { border, with: id },
                });
            }
            if x.below(2) == 0 {
                let mixture = MineBag {
                    gold: x.below(4),
                    iron: x.below(4),
                };
                o.building.push(Numbered {
                    line: n(),
                    order: BuildingOrder::Shaft {
                        at,
                        mixture,
                        with: id,
                    },
                });
            }
            if x.below(2) == 0 {
                o.building.push(Numbered {
                    line: n(),
                    order: BuildingOrder::Module(modules::Order::Bombs(bombs::Order::Bomb {
                        at: if x.below(2) == 0 { at } else { h },
                        with: id,
                    })),
                });
            }
        }
        if x.below(3) == 0 {
            let seats = st.players.len() as u32;
            let mut preferences = vec![1 + x.below(seats.max(1))];
            if x.below(2) == 0 {
                preferences.push(1 + x.below(seats.max(1)));
            }
            o.wonder.push(Numbered {
                line: n(),
                order: WonderOrder::MoveOrder { preferences },
            });
        }
        all.insert(*colour, o);
    }
    consent_to_some(st, &mut r, &mut all);
    agree_to_some_trades(&mut r, &mut all);
    all
}

/// Half the time, the other side of a trade writes the mirror order.
fn agree_to_some_trades(r: &mut Rng, all: &mut TurnOrders) {
    let mut mirrors: Vec<(Colour, Colour, Goods, Goods)> = Vec::new();
    for (c, o) in all.iter() {
        for n in &o.wonder {
            if let WonderOrder::Module(modules::Order::Trade(trade::Order::Trade {
                give,
                get,
                with,
            })) = &n.order
                && r.below(2) == 0
            {
                mirrors.push((*with, *c, get.clone(), give.clone()));
            }
        }
    }
    for (who, with, give, get) in mirrors {
        if let Some(o) = all.get_mut(&who) {
            o.wonder.insert(
                0,
                Numbered {
                    line: 90,
                    order: WonderOrder::Module(modules::Order::Trade(trade::Order::Trade {
                        give,
                        get,
                        with,
                    })),
                },
            );
        }
    }
}

/// Half the time, the other player consents to what an order asks of them (a give, a
/// hand-in, a pick-up), so consents are exercised, not only refused.
fn consent_to_some(st: &State, r: &mut Rng, all: &mut TurnOrders) {
    let owner = |id: &TransporterId| st.transporters.get(id).map(|t| t.owner);
    let mut wanted: Vec<(Colour, Colour, TransporterId, Phase)> = Vec::new();
    for (c, o) in all.iter() {
        for n in &o.production {
            match &n.order {
                ProductionOrder::Give { to, .. } => {
                    wanted.push((*c, owner(to).unwrap_or(*c), *to, Phase::Production))
                }
                ProductionOrder::Carry { carried, .. } => wanted.push((
                    *c,
                    owner(carried).unwrap_or(*c),
                    *carried,
                    Phase::Production,
                )),
                ProductionOrder::Make { from, .. } => {
                    for id in from {
                        wanted.push((*c, owner(id).unwrap_or(*c), *id, Phase::Production));
                    }
                }
                _ => {}
            }
        }
        for n in &o.movement {
            if let MovementOrder::Move { steps, .. } = &n.order {
                for s in steps {
                    if let Step::Give { to: id, .. } | Step::Carry(id) = s {
                        wanted.push((*c, owner(id).unwrap_or(*c), *id, Phase::Movement));
                    }
                }
            }
        }
    }
    for (asker, giver, id, phase) in wanted {
        if asker == giver || r.below(2) == 0 {
            continue;
        }
        let who = Party::Player(asker);
        let list = all.entry(giver).or_default();
        let consents = [
            Consent::Accept {
                from: who,
                goods: None,
                onto: Some(id),
            },
            Consent::Offer {
                transporter: id,
                goods: None,
                to: who,
            },
            Consent::Carry {
                transporter: id,
                by: who,
            },
        ];
        for c in consents {
            match phase {
                Phase::Production => list.production.push(Numbered {
                    line: 99,
                    order: ProductionOrder::Consent(c),
                }),
                _ if matches!(c, Consent::Offer { .. }) => {}
                _ => list.movement.push(Numbered {
                    line: 99,
                    order: MovementOrder::Consent(c),
                }),
            }
        }
    }
}

/// Every good in the game: lying, carried, and geese following.
pub fn all_goods(st: &State) -> Goods {
    let mut g = Goods::new();
    for x in st.goods.values() {
        g.add_all(x);
    }
    for t in st.transporters.values() {
        g.add_all(&t.cargo);
        g.add(Good::Geese, t.following_geese);
    }
    g
}

/// `judge new`'s arguments seating Ann, Bob and Cat (red, blue, white): the three-player
/// table of the Catan tests.
pub const ANN_BOB_CAT: [&str; 6] = [
    "--player",
    "Ann:ann@example.org",
    "--player",
    "Bob:bob@example.org",
    "--player",
    "Cat:cat@example.org",
];

/// Run the `judge` binary with a clean environment (only PATH) plus `env`: its exit
/// code, standard output and standard error.
pub fn run_judge(args: &[&str], env: &[(&str, &str)]) -> (i32, Vec<u8>, String) {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_judge"));
    c.args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().expect("judge runs");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run the `judge` binary as [`run_judge`] does, stopping it after `limit` as a cron
/// job's time limit would: its exit code and output, or `None` if it was stopped.
pub fn run_judge_for(args: &[&str], limit: std::time::Duration) -> Option<(i32, String, String)> {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("judge runs");
    let started = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// Run the `judge` binary as [`run_judge`] does, and measure it: its exit code and the
/// most memory it held at once, in KB (its peak resident set, `VmHWM` in
/// /proc/PID/status, read every few milliseconds while it runs; the peak only grows, so
/// the last reading is the run's peak but for its last milliseconds). Not wait4(2)'s
/// `ru_maxrss`: a process spawned from this one starts out counted with this one's
/// memory, which in the whole test run is over 100 MB.
pub fn judge_peak_kb(args: &[&str]) -> (i32, u64) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("judge runs");
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status)
            && let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kb);
        }
        if let Some(done) = child.try_wait().expect("wait") {
            return (done.code().unwrap_or(-1), peak);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// As [`run_judge`], with standard output as text.
pub fn judge_text(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let (code, out, err) = run_judge(args, env);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

/// Make the demo game at `dir` as README.md does: two-rivers, seed 7, Bob yellow, and
/// red called `red` (Ann in the demo).
pub fn new_demo(dir: &std::path::Path, red: &str, env: &[(&str, &str)]) {
    let d = dir.to_str().expect("utf-8 path");
    let red = format!("{red}:ann@example.org");
    let args = [
        "new",
        d,
        "--scenario",
        "two-rivers",
        "--player",
        &red,
        "--player",
        "Bob:bob@example.org",
        "--seed",
        "7",
    ];
    let (code, _, err) = judge_text(&args, env);
    assert_eq!(code, 0, "judge new: {err}");
}

/// Give every player of the game at `dir` a secret (judge secret); returns red's and
/// yellow's, read from what it shows.
pub fn new_secrets(dir: &std::path::Path, env: &[(&str, &str)]) -> (String, String) {
    let (code, out, err) = judge_text(&["secret", dir.to_str().expect("utf-8 path")], env);
    assert_eq!(code, 0, "judge secret: {err}");
    let secret = |who: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(who))
            .and_then(|l| l.split_whitespace().last())
            .expect("a secret is shown")
            .to_string()
    };
    (secret("red"), secret("yellow"))
}

/// Have git ignore the game's `pickup/` folder (a line in its `.gitignore`): the judge
/// refuses a pickup folder inside the game that git would commit.
pub fn ignore_pickup(dir: &std::path::Path) {
    let path = dir.join(".gitignore");
    let mut text = std::fs::read_to_string(&path).expect(".gitignore");
    text.push_str("/pickup/\n");
    std::fs::write(&path, text).expect(".gitignore");
}

/// Copy the folder `from` to `to`, each file for which `keep` says yes.
pub fn copy_dir(
    from: &std::path::Path,
    to: &std::path::Path,
    keep: &dyn Fn(&std::path::Path) -> bool,
) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()), keep);
        } else if keep(&p) {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

/// Every file under `dir`, in every subfolder.
pub fn all_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(all_files(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Every object git holds for the folder, decompressed.
pub fn git_objects(dir: &std::path::Path) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["cat-file", "--batch-all-objects", "--batch"])
        .output()
        .expect("git");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A PNG decoded: (width, height, its pixels as the file has them, RGBA for ours).
pub fn decode_png(png: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .expect("a png");
    let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

/// The GM's secret from what `judge secret DIR --gm` printed.
/// The secret a welcome mail gives its player: the indented 14-letter line after
/// "You play …".
pub fn welcome_secret(body: &str) -> Option<String> {
    body.lines()
        .skip_while(|l| !l.starts_with("You play"))
        .find(|l| l.starts_with("    ") && l.trim().len() == 14)
        .map(|l| l.trim().to_string())
}

pub fn gm_secret(printed: &str) -> String {
    printed
        .split("shown this once (only its hash is kept): ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .expect("the GM's secret")
        .to_string()
}

/// `toml` (a game.toml) with the first player's (red's) `secret_hash` made the hash of
/// `secret`: a game whose red player has a secret a test knows.
pub fn with_red_secret(toml: &str, secret: &str) -> String {
    let hash = pbem_judge::mail::secret::hash(secret).expect("hash");
    let mut seen = false;
    let lines: Vec<String> = toml
        .lines()
        .map(|l| {
            if l.starts_with("secret_hash") && !seen {
                seen = true;
                format!("secret_hash = \"{hash}\"")
            } else {
                l.to_string()
            }
        })
        .collect();
    lines.join("\n") + "\n"
}

/// The names of the files in `dir`, sorted (none when it cannot be read).
pub fn file_names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
