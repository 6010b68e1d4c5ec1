//! The map in plain text, for the report: flat-topped hexes drawn with `_ / \`, split
//! into panels of at most ten columns so that every line fits in 78 columns.
//!
//! ```text
//!    _____          Each hex holds its label and home marker, its terrain with
//!   /C4  R\_____    `~` for a river and `b` per bridge, and its building.
//!  /past ~ \       Edges: `#` a player's wall, `:` neutral wall tokens,
//!  \sawmill/       `~` a river crossing, `=` a road crossing, `H` a rail track.
//!   \_____/
//! ```

use super::super::building::BuildingKind;
use super::super::map::{Border, Dir, Hex, Terrain};
use super::super::player::Colour;
use crate::state::State;

/// Columns per panel: 7 characters each, plus 2, within 78.
const PANEL_COLUMNS: u8 = 10;

fn terrain4(t: Terrain) -> &'static str {
    match t {
        Terrain::Pasture => "past",
        Terrain::Woods => "wood",
        Terrain::Rock => "rock",
        Terrain::Mountain => "mntn",
        Terrain::Desert => "dsrt",
        Terrain::Sea => "sea ",
        Terrain::Polder => "pold",
        Terrain::City => "city",
    }
}

/// A building's name in seven characters.
pub fn building7(k: BuildingKind) -> &'static str {
    match k {
        BuildingKind::Woodcutter => "woodcut",
        BuildingKind::Quarry => "quarry",
        BuildingKind::ClayPit => "claypit",
        BuildingKind::Mine => "mine",
        BuildingKind::OilRig => "oil rig",
        BuildingKind::Sawmill => "sawmill",
        BuildingKind::CoalBurner => "coalbrn",
        BuildingKind::PaperMill => "papermi",
        BuildingKind::StoneFactory => "stonefy",
        BuildingKind::Mint => "mint",
        BuildingKind::StockExchange => "stockex",
        BuildingKind::WagonFactory => "wagonfy",
        BuildingKind::TruckFactory => "truckfy",
        BuildingKind::RaftFactory => "raftfy",
        BuildingKind::RowboatFactory => "rowbtfy",
        BuildingKind::SteamerFactory => "steamfy",
        BuildingKind::Airport => "airport",
        BuildingKind::BombFactory => "bombfy",
        BuildingKind::PowerPlant => "power",
        BuildingKind::MbaWoods
        | BuildingKind::MbaMountain
        | BuildingKind::MbaRock
        | BuildingKind::MbaPasture
        | BuildingKind::MbaCoast
        | BuildingKind::MbaDesert => "MBA",
        BuildingKind::Atelier => "atelier",
        BuildingKind::PearlFisherman => "pearlfi",
    }
}

/// Is a manager on the tile, lying or aboard a transporter (management)?
pub fn manager_on(state: &State, hex: Hex) -> bool {
    use super::super::goods::Good;
    state.map.areas(hex).iter().any(|a| {
        state
            .goods
            .get(a)
            .is_some_and(|g| g.count(Good::Managers) > 0)
    }) || state
        .transporters
        .iter()
        .any(|(id, t)| state.tile_of(*id) == Some(hex) && t.cargo.count(Good::Managers) > 0)
}

fn initial(c: Colour) -> char {
    c.name().chars().next().unwrap_or('?').to_ascii_uppercase()
}

struct Canvas {
    cells: Vec<Vec<char>>,
}

impl Canvas {
    fn put(&mut self, x: i32, y: i32, c: char) {
        if x < 0 || y < 0 {
            return;
        }
        if let Some(row) = self.cells.get_mut(y as usize)
            && let Some(cell) = row.get_mut(x as usize)
        {
            *cell = c;
        }
    }

    fn text(&mut self, x: i32, y: i32, s: &str, width: usize) {
        for (i, c) in s.chars().take(width).enumerate() {
            self.put(x + i as i32, y, c);
        }
    }
}

/// Where a hex's top-left corner of its box is drawn, relative to the panel.
fn origin(hex: Hex, first_col: u8) -> (i32, i32) {
    let x = 7 * (i32::from(hex.col) - i32::from(first_col));
    let y = 4 * i32::from(hex.row) + 2 * i32::from(hex.col & 1) + 1;
    (x, y)
}

/// The character cells of one edge of a hex.
fn edge_cells(x: i32, y: i32, d: Dir) -> Vec<(i32, i32, char)> {
    match d {
        Dir::N => (2..=6).map(|i| (x + i, y, '_')).collect(),
        Dir::NE => vec![(x + 7, y + 1, '\\'), (x + 8, y + 2, '\\')],
        Dir::SE => vec![(x + 8, y + 3, '/'), (x + 7, y + 4, '/')],
        Dir::S => (2..=6).map(|i| (x + i, y + 4, '_')).collect(),
        Dir::SW => vec![(x + 1, y + 4, '\\'), (x, y + 3, '\\')],
        Dir::NW => vec![(x, y + 2, '/'), (x + 1, y + 1, '/')],
    }
}

/// One panel of the map: the tiles in columns `first..first + PANEL_COLUMNS`.
fn panel(state: &State, first: u8, last: u8) -> Vec<String> {
    let map = &state.map;
    let rows = map.rows();
    let width = 7 * usize::from(last - first + 1) + 2;
    let height = 4 * usize::from(rows) + 4;
    let mut cv = Canvas {
        cells: vec![vec![' '; width]; height],
    };
    // Column letters above the top row.
    for c in first..=last {
        let (x, _) = origin(Hex::new(c, 0), first);
        cv.put(x + 4, 0, Hex::new(c, 0).column_letter());
    }
    let in_panel = |h: Hex| h.col >= first && h.col <= last;
    // Hex outlines and contents.
    for (&hex, tile) in map.tiles.iter().filter(|(h, _)| in_panel(**h)) {
        let (x, y) = origin(hex, first);
        for d in Dir::ALL {
            for (cx, cy, ch) in edge_cells(x, y, d) {
                cv.put(cx, cy, ch);
            }
        }
        let home = state
            .players
            .iter()
            .find(|(_, p)| p.home.is_some_and(|h| h.hex == hex))
            .map(|(c, _)| initial(*c));
        let label = format!("{:<4}{}", hex.to_string(), home.unwrap_or(' '));
        cv.text(x + 2, y + 1, &label, 5);
        let terrain = state.terrain_now(hex).unwrap_or(tile.terrain);
        let bridges = map.bridges.iter().filter(|b| b.hex == hex).count();
        let water = if tile.terrain.is_sea() {
            "  ~ ~  ".to_string()
        } else {
            let name =
                crate::modules::look(state, hex).map_or_else(|| terrain4(terrain), |l| l.word);
            format!(
                "{} {}{}",
                name,
                if tile.has_river() { '~' } else { ' ' },
                "b".repeat(bridges)
            )
        };
        cv.text(x + 1, y + 2, &water, 7);
        if manager_on(state, hex) {
            // Management: a manager lies here or rides a transporter here.
            cv.put(x + 7, y + 2, 'M');
        }
        let building: Vec<&str> = state.buildings_on(hex).map(|b| building7(b.kind)).collect();
        // Art: how many exhibitions have been shown at this home.
        let shows = state
            .players
            .iter()
            .find(|(_, p)| p.home.is_some_and(|h| h.hex == hex))
            .map_or(0, |(c, _)| {
                state.shows.iter().filter(|s| s.at == *c).count()
            });
        match building.as_slice() {
            [] if shows > 0 => cv.text(x + 1, y + 3, &format!("art x{shows}"), 7),
            [] => {}
            [b] => cv.text(x + 1, y + 3, b, 7),
            // A city's two buildings (&cetera, city): three letters each.
            [a, b, ..] => {
                let both = format!("{:.3}+{:.3}", a, b);
                cv.text(x + 1, y + 3, &both, 7);
            }
        }
    }
    // Marks on borders, each border once, drawn from the tile it is named by:
    // rivers, roads, walls.
    let mut borders: Vec<(Border, bool)> = Vec::new();
    for (&hex, tile) in &map.tiles {
        for d in Dir::ALL {
            let Some(border) = Border::new(hex, d) else {
                continue;
            };
            let (a, b) = border.tiles();
            if !map.tiles.contains_key(&a)
                || !map.tiles.contains_key(&b)
                || !(in_panel(a) || in_panel(b))
            {
                continue;
            }
            let river = tile.river.contains(d);
            match borders.iter_mut().find(|(x, _)| *x == border) {
                Some(entry) => entry.1 |= river,
                None => borders.push((border, river)),
            }
        }
    }
    for (border, river) in borders {
        let (a, b) = border.tiles();
        let (x, y) = origin(a, first);
        let cells = edge_cells(x, y, border.dir);
        let road = map
            .roads
            .iter()
            .any(|r| (r.from.hex == a && r.to.hex == b) || (r.to.hex == a && r.from.hex == b));
        let power = map
            .power_lines
            .iter()
            .any(|r| (r.from.hex == a && r.to.hex == b) || (r.to.hex == a && r.from.hex == b));
        let track = map.tracks.contains(&border);
        match map.wall(border) {
            Some(w) => {
                let c = if w.owner.is_some() { '#' } else { ':' };
                for (cx, cy, _) in &cells {
                    cv.put(*cx, *cy, c);
                }
            }
            None => {
                // The river at the edge's middle; a road beside it.
                let mid = if cells.len() > 2 { 2 } else { 0 };
                if river {
                    let (cx, cy, _) = cells[mid];
                    cv.put(cx, cy, '~');
                }
                if road {
                    let k = if river { 1 } else { mid };
                    let (cx, cy, _) = cells[k];
                    cv.put(cx, cy, '=');
                }
                if power {
                    // Electricity: a power line crossing, beside the road's mark.
                    let k = if cells.len() > 2 { 3 } else { 1 };
                    let (cx, cy, _) = cells[k];
                    cv.put(cx, cy, '.');
                }
                if track {
                    // Trains: a rail track crossing, at the end of the edge (on a
                    // slanted edge of two cells, wherever the river or road leave room).
                    let k = if cells.len() > 2 {
                        4
                    } else if !(road || power) {
                        1
                    } else {
                        0
                    };
                    let (cx, cy, _) = cells[k];
                    cv.put(cx, cy, 'H');
                }
            }
        }
    }
    let mut lines: Vec<String> = cv
        .cells
        .into_iter()
        .map(|r| r.into_iter().collect::<String>().trim_end().to_string())
        .collect();
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    // No blank lines between the column letters and the first tiles.
    while lines.len() > 1 && lines[1].is_empty() {
        lines.remove(1);
    }
    lines
}

/// A titled panel of the map.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Panel {
    pub title: String,
    pub lines: Vec<String>,
}

/// The whole map, in panels of at most ten columns.
pub fn panels(state: &State) -> Vec<Panel> {
    let cols = state.map.columns();
    let count = cols.div_ceil(PANEL_COLUMNS).max(1);
    // Share the columns evenly between the panels.
    let per = cols.div_ceil(count).max(1);
    (0..count)
        .map(|i| {
            let first = i * per;
            let last = ((i + 1) * per).min(cols).saturating_sub(1);
            let a = Hex::new(first, 0).column_letter();
            let b = Hex::new(last, 0).column_letter();
            let title = if count == 1 {
                format!("Columns {a} to {b}")
            } else {
                format!("Panel {} of {count}: columns {a} to {b}", i + 1)
            };
            Panel {
                title,
                lines: panel(state, first, last),
            }
        })
        .collect()
}

/// What the marks mean.
pub const LEGEND: &[&str] = &[
    "Each hex: its label and the initial of the player whose home it is; its",
    "terrain (past, wood, rock, mntn, dsrt, sea), ~ if a river runs through it",
    "and b for each bridge; its building. On the edges: ~ a river crossing,",
    "= a road crossing, # a player's wall, : neutral wall tokens.",
];

/// What the marks mean, with the lines the modules in play add.
pub fn legend(state: &State) -> Vec<String> {
    let mut out: Vec<String> = LEGEND.iter().map(|s| s.to_string()).collect();
    if !state.map.tracks.is_empty() {
        out.push("An H on an edge: a rail track crosses it.".to_string());
    }
    for p in crate::modules::in_play(state) {
        out.extend(p.map_legend.iter().map(|s| s.to_string()));
    }
    out
}
