//! The map generator: a random scenario by the rulebook's map rules, for `judge new DIR
//! --map random --players N --modules … --seed S`. A pure function of its arguments: the
//! same seed gives the same map, byte for byte. It writes the scenario as TOML text, so
//! that the game's archive keeps it as `scenario.toml` like any other and a replay can
//! rebuild turn 0 from it.
//!
//! The rules it follows (rulebook, building the map; docs/scenarios.md):
//! - about ten land tiles per player, one island ringed by sea;
//! - rivers rise at a source inland (a mountain when there is one) and run downhill to
//!   the sea, never off the map; where one meets another they join;
//! - each starting place is a land tile with at least one tile between it and every
//!   other (and off the rivers, so that it needs no side named), a pasture with woods
//!   and rock beside it;
//! - with the polder module some coastal tiles are polders, with the city module some
//!   pastures are cities; with jumpstart the kit is auctioned in lots.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;

use crate::map::{Dir, Hex, Terrain};
use crate::state::Module;
use judge_core::luck::Rng;

/// Land tiles per player.
pub const LAND_PER_PLAYER: usize = 10;

/// Why a map could not be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GenerateError {
    #[error("a game has 1 to 6 players, not {0}")]
    Players(usize),
}

struct Grid {
    cols: u8,
    rows: u8,
    land: BTreeMap<Hex, Terrain>,
}

impl Grid {
    fn inner(&self, h: Hex) -> bool {
        h.col >= 1 && h.row >= 1 && h.col + 1 < self.cols && h.row + 1 < self.rows
    }

    fn on_map(&self, h: Hex) -> bool {
        h.col < self.cols && h.row < self.rows
    }

    fn neighbours(&self, h: Hex) -> Vec<Hex> {
        Dir::ALL
            .into_iter()
            .filter_map(|d| h.step(d))
            .filter(|n| self.on_map(*n))
            .collect()
    }

    fn coastal(&self, h: Hex) -> bool {
        self.neighbours(h)
            .iter()
            .any(|n| !self.land.contains_key(n))
    }
}

/// Make a random scenario for `players` players with these modules, from `seed`.
pub fn generate(players: usize, modules: &[Module], seed: u64) -> Result<String, GenerateError> {
    if !(1..=6).contains(&players) {
        return Err(GenerateError::Players(players));
    }
    let mut rng = Rng::new(seed);
    let target = LAND_PER_PLAYER * players;
    // A box of about 1.7 tiles per land tile, with a ring of sea around it.
    let side = ((target as f64 * 1.7).sqrt().ceil() as u8).max(4);
    let cols = side + 3;
    let rows = ((target as f64 * 1.7 / f64::from(side)).ceil() as u8).max(4) + 2;
    let mut g = Grid {
        cols,
        rows,
        land: BTreeMap::new(),
    };
    // Grow one island from the middle, a random tile of its edge at a time.
    let start = Hex::new(cols / 2, rows / 2);
    g.land.insert(start, Terrain::Pasture);
    while g.land.len() < target {
        let edge: Vec<Hex> = g
            .land
            .keys()
            .flat_map(|h| g.neighbours(*h))
            .filter(|n| g.inner(*n) && !g.land.contains_key(n))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if edge.is_empty() {
            break;
        }
        let pick = edge[rng.below(edge.len() as u32) as usize];
        g.land.insert(pick, Terrain::Pasture);
    }
    // Terrain: woods, rock, mountain, pasture and a little desert.
    let weights = [
        (Terrain::Pasture, 4),
        (Terrain::Woods, 3),
        (Terrain::Rock, 2),
        (Terrain::Mountain, 2),
        (Terrain::Desert, 1),
    ];
    let total: u32 = weights.iter().map(|(_, w)| w).sum();
    let hexes: Vec<Hex> = g.land.keys().copied().collect();
    for h in &hexes {
        let mut r = rng.below(total);
        for (t, w) in weights {
            if r < w {
                g.land.insert(*h, t);
                break;
            }
            r -= w;
        }
    }
    let homes = place_homes(&mut g, &mut rng, players);
    let rivers = run_rivers(&mut g, &mut rng, players, &homes);
    let on_river: BTreeSet<Hex> = rivers.iter().flatten().copied().collect();
    // Module terrains (each module's `generate` hook: polders on the coast, cities);
    // never on a home, a home's neighbour, or a river tile.
    let near_home = |h: Hex| homes.iter().any(|x| x.distance(h) <= 1);
    let free: Vec<Hex> = g
        .land
        .keys()
        .copied()
        .filter(|h| !near_home(*h) && !on_river.contains(h))
        .collect();
    let coast: BTreeSet<Hex> = free.iter().copied().filter(|h| g.coastal(*h)).collect();
    crate::modules::generate(
        modules,
        &mut crate::modules::Draft {
            land: &mut g.land,
            free: &free,
            coast: &coast,
            rng: &mut rng,
            players,
        },
    );
    Ok(write(&g, players, modules, seed, &homes, &rivers))
}

/// Starting places: spread apart (each next one the farthest from those chosen), at
/// least two steps from each other, each made a pasture with woods and rock beside it.
fn place_homes(g: &mut Grid, rng: &mut Rng, players: usize) -> Vec<Hex> {
    let hexes: Vec<Hex> = g.land.keys().copied().collect();
    let mut homes: Vec<Hex> = Vec::new();
    let first = hexes[rng.below(hexes.len() as u32) as usize];
    homes.push(first);
    while homes.len() < players {
        let best = hexes
            .iter()
            .copied()
            .filter(|h| homes.iter().all(|x| x.distance(*h) >= 2))
            .max_by_key(|h| {
                (
                    homes.iter().map(|x| x.distance(*h)).min().unwrap_or(0),
                    std::cmp::Reverse(*h),
                )
            });
        match best {
            Some(h) => homes.push(h),
            None => break,
        }
    }
    for h in &homes {
        g.land.insert(*h, Terrain::Pasture);
        let mut around: Vec<Hex> = g
            .neighbours(*h)
            .into_iter()
            .filter(|n| g.land.contains_key(n) && !homes.contains(n))
            .collect();
        rng.shuffle(&mut around);
        for (n, t) in around.into_iter().zip([Terrain::Woods, Terrain::Rock]) {
            g.land.insert(n, t);
        }
    }
    homes
}

/// Rivers: from a source inland, each step to a neighbour nearer the sea, until the sea;
/// a river that reaches another joins it there. Never through a home.
fn run_rivers(g: &mut Grid, rng: &mut Rng, players: usize, homes: &[Hex]) -> Vec<Vec<Hex>> {
    // Steps from each land tile to the sea.
    let mut depth: BTreeMap<Hex, u32> = BTreeMap::new();
    let mut queue: VecDeque<Hex> = VecDeque::new();
    for h in g.land.keys() {
        if g.coastal(*h) {
            depth.insert(*h, 1);
            queue.push_back(*h);
        }
    }
    while let Some(h) = queue.pop_front() {
        let d = depth[&h];
        for n in g.neighbours(h) {
            if g.land.contains_key(&n) && !depth.contains_key(&n) {
                depth.insert(n, d + 1);
                queue.push_back(n);
            }
        }
    }
    let mut rivers: Vec<Vec<Hex>> = Vec::new();
    let mut arms: BTreeMap<Hex, usize> = BTreeMap::new();
    let wanted = 1 + players / 2;
    let mut sources: Vec<Hex> = depth
        .iter()
        .filter(|(h, d)| **d >= 2 && !homes.contains(h))
        .map(|(h, _)| *h)
        .collect();
    rng.shuffle(&mut sources);
    // Mountains first: rivers rise in the hills.
    sources.sort_by_key(|h| g.land.get(h) != Some(&Terrain::Mountain));
    for source in sources {
        if rivers.len() >= wanted {
            break;
        }
        if arms.contains_key(&source) || g.neighbours(source).iter().any(|n| arms.contains_key(n)) {
            continue;
        }
        let mut path = vec![source];
        let mut at = source;
        let ok = loop {
            let d = depth.get(&at).copied().unwrap_or(0);
            let mut next: Vec<Hex> = g
                .neighbours(at)
                .into_iter()
                .filter(|n| !path.contains(n) && !homes.contains(n))
                .filter(|n| !g.land.contains_key(n) || depth.get(n).is_some_and(|x| *x < d))
                .collect();
            if next.is_empty() {
                break false;
            }
            // The sea if it is beside, else a random lower tile.
            next.sort_by_key(|n| g.land.contains_key(n));
            let step = if !g.land.contains_key(&next[0]) {
                next[0]
            } else {
                next[rng.below(next.len() as u32) as usize]
            };
            path.push(step);
            if !g.land.contains_key(&step) {
                break true;
            }
            if let Some(n) = arms.get(&step) {
                // Joining another river: a junction of at most three arms.
                break *n < 3;
            }
            at = step;
        };
        if !ok {
            continue;
        }
        for (i, h) in path.iter().enumerate() {
            if g.land.contains_key(h) {
                // A source or the junction it ends in gains one arm, a tile it runs
                // through two.
                let a = arms.entry(*h).or_insert(0);
                *a += if i == 0 || i + 1 == path.len() { 1 } else { 2 };
            }
        }
        rivers.push(path);
    }
    rivers
}

fn write(
    g: &Grid,
    players: usize,
    modules: &[Module],
    seed: u64,
    homes: &[Hex],
    rivers: &[Vec<Hex>],
) -> String {
    let mut out = String::new();
    let mods: Vec<String> = modules.iter().map(|m| format!("\"{m}\"")).collect();
    let _ = writeln!(
        out,
        "# A random map made by `judge new --map random --players {players} --seed {seed}`:\n# {} land tiles, homes at least one tile apart, rivers from a source to the sea.",
        g.land.len()
    );
    let _ = writeln!(out, "[scenario]");
    let _ = writeln!(out, "name = \"random-{players}p-{seed}\"");
    let _ = writeln!(out, "title = \"A random map for {players}\"");
    let _ = writeln!(
        out,
        "description = \"Made by the map generator from seed {seed}.\""
    );
    let _ = writeln!(out, "players = {players}\n");
    let _ = writeln!(out, "[rules]");
    let _ = writeln!(out, "modules = [{}]", mods.join(", "));
    if players == 1 {
        let _ = writeln!(out, "turn_limit = 20");
    }
    let _ = writeln!(out, "\n[map]\nrows = [");
    for r in 0..g.rows {
        let row: Vec<String> = (0..g.cols)
            .map(|c| {
                g.land
                    .get(&Hex::new(c, r))
                    .map_or('s', |t| t.code())
                    .to_string()
            })
            .collect();
        let _ = writeln!(out, "  \"{}\",", row.join(" "));
    }
    let _ = writeln!(out, "]");
    let list: Vec<String> = rivers
        .iter()
        .map(|r| {
            let hexes: Vec<String> = r.iter().map(|h| format!("\"{h}\"")).collect();
            format!("[{}]", hexes.join(", "))
        })
        .collect();
    let _ = writeln!(out, "rivers = [{}]\n", list.join(", "));
    let _ = writeln!(out, "[start]");
    let hs: Vec<String> = homes.iter().map(|h| format!("\"{h}\"")).collect();
    let _ = writeln!(out, "homes = [{}]", hs.join(", "));
    if modules.contains(&Module::Jumpstart) {
        let lots: Vec<&str> = [
            "{ goods = { boards = 3 } }",
            "{ goods = { stone = 2 } }",
            "{ goods = { trunks = 3 } }",
            "{ goods = { geese = 2 } }",
            "{ goods = { boards = 2, stone = 1 } }",
            "{ goods = { clay = 3 } }",
            "{ goods = { gold = 1 } }",
        ]
        .into_iter()
        .take(players + 1)
        .collect();
        let _ = writeln!(out, "lots = [{}]", lots.join(", "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    /// The same seed gives the same map; another seed another.
    #[test]
    fn the_same_seed_gives_the_same_map() {
        let a = generate(3, &[], 7).expect("map");
        assert_eq!(a, generate(3, &[], 7).expect("map"));
        assert_ne!(a, generate(3, &[], 8).expect("map"));
    }

    /// For every player count and many seeds, with every module: the map reads as a
    /// valid scenario (rivers from a source to the sea, never off the map, homes on
    /// land at least one tile apart: the scenario checker's rules), about ten land
    /// tiles a player, and homes off the rivers.
    #[test]
    fn generated_maps_keep_the_map_rules() {
        let all: Vec<Module> = Module::ALL.to_vec();
        for players in 1..=6 {
            for seed in 0..25u64 {
                let modules: &[Module] = if seed % 2 == 0 { &all } else { &[] };
                let text = generate(players, modules, seed).expect("map");
                let s = Scenario::parse("random.toml", &text)
                    .unwrap_or_else(|d| panic!("players {players} seed {seed}:\n{d}\n{text}"));
                let map = &s.setup().map;
                let land = map.tiles.values().filter(|t| t.terrain.is_land()).count();
                assert!(
                    (LAND_PER_PLAYER * players).abs_diff(land) <= 1,
                    "{land} land tiles for {players}"
                );
                assert!(
                    !map.tiles
                        .values()
                        .any(|t| t.terrain == Terrain::City && !modules.contains(&Module::City)),
                    "cities only with the module"
                );
                let homes: Vec<Hex> = text
                    .lines()
                    .find(|l| l.starts_with("homes"))
                    .map(|l| {
                        l.split('"')
                            .skip(1)
                            .step_by(2)
                            .filter_map(|x| x.parse().ok())
                            .collect()
                    })
                    .unwrap_or_default();
                assert_eq!(homes.len(), players);
                for (i, a) in homes.iter().enumerate() {
                    assert!(map.is_land(*a));
                    assert!(!map.tile(*a).is_some_and(|t| t.has_river()));
                    for b in &homes[i + 1..] {
                        assert!(a.distance(*b) >= 2, "{a} and {b} too close");
                    }
                }
            }
        }
    }

    #[test]
    fn a_seventh_player_is_refused() {
        assert_eq!(generate(7, &[], 1), Err(GenerateError::Players(7)));
    }
}
