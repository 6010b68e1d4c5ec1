//! From the scenario as written to a checked set-up position.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use toml::Spanned;

use super::Scenario;
use super::raw::{RawPosition, RawScenario, RawStart, Text};
use crate::building::{Building, BuildingKind, MineBag};
use crate::goods::Good;
use crate::map::{AreaId, Border, Hex, MAX_COLUMNS, MAX_ROWS, Map, Road, Terrain, Tile, Wall};
use crate::player::{Colour, Player, Research};
use crate::setup::{ChooseHomes, StartKit};
use crate::state::{EndConditions, Phase, Settings, State};
use crate::transporter::{Class, Kind, Location, Transporter, TransporterId};
use crate::wonder::{Brick, ROWS, SIZE, Wonder};
use judge_core::diagnostic::{Diagnostic, did_you_mean};

struct Checker<'a> {
    text: &'a str,
    problems: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn error(&mut self, span: Range<usize>, message: impl Into<String>) -> &mut Diagnostic {
        self.problems.push(Diagnostic::new(message).at(span));
        let last = self.problems.len() - 1;
        &mut self.problems[last]
    }

    /// The span of one character inside a string value, if the value is written plainly
    /// (no escapes); otherwise the whole value.
    fn inside(&self, value: &Text, byte: usize, len: usize) -> Range<usize> {
        let span = value.span();
        let written = self.text.get(span.clone()).unwrap_or("");
        let plain = written.len() == value.get_ref().len() + 2;
        if plain {
            span.start + 1 + byte..span.start + 1 + byte + len
        } else {
            span
        }
    }
}

fn help(d: &mut Diagnostic, text: impl Into<String>) {
    d.help = Some(text.into());
}

pub(super) fn build(raw: RawScenario, text: &str) -> Result<Scenario, Vec<Diagnostic>> {
    let mut c = Checker {
        text,
        problems: Vec::new(),
    };
    let players = *raw.scenario.players.get_ref() as usize;
    if !(1..=6).contains(&players) {
        let d = c.error(
            raw.scenario.players.span(),
            format!("a game has 1 to 6 players, not {players}"),
        );
        help(
            d,
            "Roads & Boats is for 1 to 4 players; &cetera adds seats 5 and 6",
        );
        return Err(c.problems);
    }
    let colours: Vec<Colour> = Colour::SEATS[..players].to_vec();

    let mut map = read_map(&mut c, &raw);
    if !c.problems.is_empty() {
        return Err(c.problems);
    }
    read_rivers(&mut c, &raw, &mut map);
    read_tracks(&mut c, &raw, &mut map);
    if !c.problems.is_empty() {
        return Err(c.problems);
    }

    let settings = read_rules(&mut c, &raw, players);
    let skipped = raw.rules.skip_wonder_rows.as_ref().map_or(0, |s| {
        ROWS[..(*s.get_ref() as usize).min(ROWS.len())].iter().sum()
    });

    let mut state = State {
        scenario: raw.scenario.name.get_ref().clone(),
        turn: raw.position.turn.unwrap_or(0),
        phase: raw.position.phase.unwrap_or(Phase::Production),
        settings,
        map,
        players: BTreeMap::new(),
        move_order: colours.clone(),
        goods: BTreeMap::new(),
        transporters: BTreeMap::new(),
        last_ids: BTreeMap::new(),
        buildings: Vec::new(),
        shows: Vec::new(),
        bids: BTreeMap::new(),
        wonder: Wonder {
            bricks: vec![Brick::Skipped; skipped],
        },
        game_over: None,
    };

    read_wonder(&mut c, &raw.position, &colours, &mut state);
    let started = raw.position.turn.unwrap_or(0) > 0 || !raw.position.bids.is_empty();
    let mut modules = crate::modules::Start::default();
    crate::modules::read_start(&mut crate::modules::StartKeys {
        start: &raw.start,
        started,
        colours: &colours,
        state: &state,
        problems: &mut c.problems,
        read: &mut modules,
    });
    let choose = read_homes(&mut c, &raw.start, &colours, &mut state);
    read_research(&mut c, &raw.position, &colours, &mut state);
    let fixed_move_order = read_move_order(&mut c, &raw.position, &colours, &mut state);
    read_infrastructure(&mut c, &raw.position, &colours, &mut state);
    read_buildings(&mut c, &raw.position, &mut state);
    read_goods(&mut c, &raw.position, &mut state);
    let kit = read_transporters(&mut c, &raw.start, &raw.position, &colours, &mut state);
    for (who, price) in &raw.position.bids {
        if let Some(col) = colour_of(&mut c, who, &colours) {
            state.bids.insert(col, *price);
        }
    }
    for show in &raw.position.shows {
        let s = show.get_ref();
        let (Some(by), Some(at)) = (
            colour_of(&mut c, &s.by, &colours),
            colour_of(&mut c, &s.at, &colours),
        ) else {
            continue;
        };
        if by == at || !(3..=5).contains(&s.beauty) {
            c.error(
                show.span(),
                "a show is by one player at another's home, of 3 to 5 works of art",
            );
            continue;
        }
        state.shows.push(crate::state::Show {
            by,
            at,
            beauty: s.beauty,
            turn: state.turn,
        });
    }
    if !c.problems.is_empty() {
        return Err(c.problems);
    }
    crate::modules::settle(&mut state);
    state.normalise();
    Ok(Scenario {
        name: raw.scenario.name.into_inner(),
        title: raw.scenario.title,
        description: raw.scenario.description,
        players,
        setup: state,
        fixed_move_order,
        choose,
        kit,
        modules,
    })
}

const TERRAIN_HELP: &str = "terrain codes: p pasture, w woods, r rock, m mountain, d desert, s sea, o polder, c city, . no tile";

fn read_map(c: &mut Checker<'_>, raw: &RawScenario) -> Map {
    let mut map = Map::default();
    let rows = raw.map.rows.get_ref();
    if rows.len() > MAX_ROWS as usize {
        c.error(
            raw.map.rows.span(),
            format!(
                "the map has {} rows; at most {MAX_ROWS} fit the labels",
                rows.len()
            ),
        );
        return map;
    }
    for (r, row) in rows.iter().enumerate() {
        let mut col = 0usize;
        for (i, ch) in row.get_ref().char_indices() {
            if ch.is_whitespace() {
                continue;
            }
            if ch != '.' {
                match Terrain::from_code(ch) {
                    Some(t) if col < MAX_COLUMNS as usize => {
                        let hex = Hex::new(col as u8, r as u8);
                        map.tiles.insert(hex, Tile::new(t));
                    }
                    Some(_) => {}
                    None => {
                        let span = c.inside(row, i, ch.len_utf8());
                        let d =
                            c.error(span, format!("unknown terrain `{ch}` in map row {}", r + 1));
                        d.label = Some("not a terrain code".into());
                        help(d, TERRAIN_HELP);
                    }
                }
            }
            col += 1;
        }
        if col > MAX_COLUMNS as usize {
            c.error(
                row.span(),
                format!(
                    "map row {} has {col} columns; at most {MAX_COLUMNS} (A to Z) fit the labels",
                    r + 1
                ),
            );
        }
    }
    if map.tiles.is_empty() && c.problems.is_empty() {
        let d = c.error(raw.map.rows.span(), "the map has no tiles");
        help(d, TERRAIN_HELP);
    }
    map
}

/// Read a list of neighbouring hexes on the map (a river or track path).
fn read_path(
    c: &mut Checker<'_>,
    map: &Map,
    path: &Spanned<Vec<Text>>,
    what: &str,
) -> Option<Vec<Hex>> {
    let mut hexes = Vec::new();
    let mut ok = true;
    for item in path.get_ref() {
        match item.get_ref().parse::<Hex>() {
            Ok(h) if map.tiles.contains_key(&h) => hexes.push(h),
            Ok(h) => {
                let d = c.error(
                    item.span(),
                    format!("the {what} runs off the map: {h} is not a tile of the map"),
                );
                d.label = Some("not on the map".into());
                help(
                    d,
                    format!(
                        "a {what} must stay on the map (rulebook: a river may not run off the map)"
                    ),
                );
                ok = false;
            }
            Err(e) => {
                c.error(item.span(), e.to_string());
                ok = false;
            }
        }
    }
    if !ok {
        return None;
    }
    if hexes.len() < 2 {
        let d = c.error(path.span(), format!("a {what} needs at least two tiles"));
        help(
            d,
            format!("list the tiles the {what} passes, in order, like [\"C2\", \"C3\", \"D4\"]"),
        );
        return None;
    }
    for (i, pair) in hexes.windows(2).enumerate() {
        if pair[0].direction_to(pair[1]).is_none() {
            let d = c.error(
                path.get_ref()[i + 1].span(),
                format!(
                    "{} and {} are not neighbours: a {what} goes from tile to neighbouring tile",
                    pair[0], pair[1]
                ),
            );
            d.label = Some(format!("not next to {}", pair[0]));
            return None;
        }
    }
    Some(hexes)
}

fn read_rivers(c: &mut Checker<'_>, raw: &RawScenario, map: &mut Map) {
    let mut paths: Vec<(usize, Vec<Hex>)> = Vec::new();
    for (i, path) in raw.map.rivers.iter().enumerate() {
        let Some(hexes) = read_path(c, map, path, "river") else {
            continue;
        };
        let mut ok = true;
        for (j, h) in hexes
            .iter()
            .enumerate()
            .skip(1)
            .take(hexes.len().saturating_sub(2))
        {
            if map.is_sea(*h) {
                let d = c.error(
                    path.get_ref()[j].span(),
                    format!("the river flows through the sea tile {h}"),
                );
                help(
                    d,
                    "a river ends where it reaches the sea: end this river there and start another",
                );
                ok = false;
            }
        }
        if ok {
            paths.push((i, hexes));
        }
    }
    // Which rivers pass through each land tile.
    let mut touched: BTreeMap<Hex, BTreeSet<usize>> = BTreeMap::new();
    for (i, hexes) in &paths {
        for pair in hexes.windows(2) {
            for (a, b) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                if map.is_land(a) {
                    let dir = a.direction_to(b).unwrap_or(crate::map::Dir::N);
                    if let Some(t) = map.tiles.get_mut(&a) {
                        t.river.insert(dir);
                    }
                    touched.entry(a).or_default().insert(*i);
                }
            }
        }
    }
    for (i, hexes) in &paths {
        let path = &raw.map.rivers[*i];
        let last = hexes[hexes.len() - 1];
        let first = hexes[0];
        if map.is_sea(first) && map.is_sea(last) && hexes.len() == 2 {
            let d = c.error(
                path.span(),
                format!("the river runs from sea to sea without touching land ({first} to {last})"),
            );
            help(d, "a river runs through land tiles");
            continue;
        }
        if map.is_land(last) && touched.get(&last).is_none_or(|s| s.len() < 2) {
            let d = c.error(
                path.get_ref()[hexes.len() - 1].span(),
                format!("the river ends nowhere: it stops in {last}, a land tile no other river passes through"),
            );
            d.label = Some("river ends here".into());
            help(
                d,
                "end a river on a sea tile (its mouth) or on a tile of another river (a junction); a river starts at its first tile, the source",
            );
        }
    }
    for (hex, rivers) in &touched {
        let arms = map.tile(*hex).map_or(0, |t| t.river.len());
        if arms > 3
            && let Some(&first) = rivers.iter().next()
        {
            let span = raw.map.rivers[first].span();
            let d = c.error(
                span,
                format!("{hex} has {arms} river arms; a tile holds at most three (a junction)"),
            );
            help(
                d,
                "move one river so that it meets the others in a tile where only two arms were",
            );
        }
    }
    if !c.problems.is_empty() {
        return;
    }
    // Every river system reaches the sea.
    let mut seen: BTreeSet<Hex> = BTreeSet::new();
    for (i, hexes) in &paths {
        let start = hexes.iter().copied().find(|h| map.is_land(*h));
        let Some(start) = start else { continue };
        if seen.contains(&start) {
            continue;
        }
        let mut system = BTreeSet::from([start]);
        let mut stack = vec![start];
        let mut reaches_sea = false;
        while let Some(h) = stack.pop() {
            let edges = map.tile(h).map(|t| t.river).unwrap_or_default();
            for d in edges.iter() {
                let Some(n) = h.step(d) else { continue };
                if map.is_sea(n) {
                    reaches_sea = true;
                } else if system.insert(n) {
                    stack.push(n);
                }
            }
        }
        seen.extend(system.iter().copied());
        if !reaches_sea {
            let d = c.error(
                raw.map.rivers[*i].span(),
                format!("the river through {start} never reaches the sea"),
            );
            help(
                d,
                "rivers flow to the sea: end one of its paths on a sea tile",
            );
        }
    }
}

fn read_tracks(c: &mut Checker<'_>, raw: &RawScenario, map: &mut Map) {
    for path in &raw.map.tracks {
        if let Some(hexes) = read_path(c, map, path, "track") {
            for pair in hexes.windows(2) {
                if let Some(b) = Border::between(pair[0], pair[1]) {
                    map.tracks.insert(b);
                }
            }
        }
    }
}

fn read_rules(c: &mut Checker<'_>, raw: &RawScenario, players: usize) -> Settings {
    let rules = &raw.rules;
    let skipped_rows = rules
        .skip_wonder_rows
        .as_ref()
        .map_or(0, |s| *s.get_ref() as usize);
    if let Some(s) = &rules.skip_wonder_rows
        && skipped_rows >= ROWS.len()
    {
        c.error(
            s.span(),
            format!(
                "the wonder has {} rows; skipping {skipped_rows} leaves none",
                ROWS.len()
            ),
        );
    }
    let skipped: usize = ROWS[..skipped_rows.min(ROWS.len())].iter().sum();
    let wonder_brick = match &rules.end_brick {
        Some(b) => {
            let n = *b.get_ref() as usize;
            if n == 0 || n > SIZE || n <= skipped {
                c.error(
                    b.span(),
                    format!("end_brick must be a place on the wonder after the skipped rows ({} to {SIZE})", skipped + 1),
                );
            }
            Some(*b.get_ref())
        }
        None => EndConditions::wonder_mark(players),
    };
    if wonder_brick.is_none() && rules.turn_limit.is_none() {
        let d = c.error(
            raw.scenario.players.span(),
            format!("a game for {players} player{} needs an end: set `turn_limit` or `end_brick` in [rules]", if players == 1 { "" } else { "s" }),
        );
        help(
            d,
            "the one-player game ends after a number of turns (RULINGS R7): `turn_limit = 20`",
        );
    }
    for m in &rules.modules {
        if crate::modules::plugin(*m.get_ref()).is_none() {
            let have: Vec<&str> = crate::modules::PLUGINS
                .iter()
                .map(|p| p.module.name())
                .collect();
            let d = c.error(
                m.span(),
                format!(
                    "the {} module has no rules in this judge yet: a game with it would silently play without them",
                    m.get_ref()
                ),
            );
            help(
                d,
                format!(
                    "take it out of `modules`; the modules with rules are {}",
                    have.join(", ")
                ),
            );
        }
    }
    Settings {
        modules: rules.modules.iter().map(|m| *m.get_ref()).collect(),
        mine_draw: rules.mine_draw,
        end: EndConditions {
            wonder_brick,
            neutral_bricks: rules.neutral_bricks.unwrap_or(33),
            turn_limit: rules.turn_limit,
        },
    }
}

fn colour_of(c: &mut Checker<'_>, text: &Text, colours: &[Colour]) -> Option<Colour> {
    match text.get_ref().parse::<Colour>() {
        Ok(col) if colours.contains(&col) => Some(col),
        Ok(col) => {
            let list: Vec<&str> = colours.iter().map(|c| c.name()).collect();
            let d = c.error(text.span(), format!("{col} does not play in this scenario"));
            help(d, format!("the seats are {}", list.join(", ")));
            None
        }
        Err(e) => {
            let d = c.error(text.span(), e);
            if let Some(s) = did_you_mean(text.get_ref(), Colour::SEATS.iter().map(|c| c.name())) {
                help(d, format!("did you mean `{s}`?"));
            }
            None
        }
    }
}

fn area_of(c: &mut Checker<'_>, map: &Map, text: &Text) -> Option<AreaId> {
    match map.resolve_area(text.get_ref()) {
        Ok(a) => Some(a),
        Err(e) => {
            c.error(text.span(), e);
            None
        }
    }
}

fn read_wonder(c: &mut Checker<'_>, pos: &RawPosition, colours: &[Colour], state: &mut State) {
    for b in &pos.wonder {
        match b.get_ref().parse::<Brick>() {
            Ok(Brick::Player(col)) if !colours.contains(&col) => {
                c.error(b.span(), format!("{col} does not play in this scenario"));
            }
            Ok(Brick::Skipped) => {
                let d = c.error(
                    b.span(),
                    "skipped places are set with `skip_wonder_rows` in [rules]",
                );
                help(d, "list only coloured and neutral bricks here");
            }
            Ok(brick) => state.wonder.bricks.push(brick),
            Err(e) => {
                c.error(b.span(), e);
            }
        }
    }
    if state.wonder.bricks.len() > SIZE
        && let Some(last) = pos.wonder.last()
    {
        c.error(
            last.span(),
            format!(
                "the wonder holds {SIZE} bricks; this scenario places {}",
                state.wonder.bricks.len()
            ),
        );
    }
}

/// Homes: one per seat, fixed; or, with `choose`, the listed homes players choose from
/// (`marked`) or are offered as suggestions (`any`), and players with no home yet.
fn read_homes(
    c: &mut Checker<'_>,
    start: &RawStart,
    colours: &[Colour],
    state: &mut State,
) -> Option<(ChooseHomes, Vec<AreaId>)> {
    // Jumpstart: the lots carry the homes, won in the auction.
    if start.lots.iter().any(|l| l.get_ref().home.is_some()) {
        for colour in colours {
            state.players.insert(
                *colour,
                Player {
                    name: colour.name().to_string(),
                    email: String::new(),
                    home: None,
                    research: BTreeSet::new(),
                },
            );
        }
        return None;
    }
    if let Some(choose) = &start.choose {
        let mut listed = Vec::new();
        for text in &start.homes {
            let Some(area) = area_of(c, &state.map, text) else {
                continue;
            };
            if !state.map.is_land(area.hex) {
                c.error(
                    text.span(),
                    format!("{} is not land: a home is on a land tile", area.hex),
                );
                continue;
            }
            listed.push(area);
        }
        if *choose.get_ref() == ChooseHomes::Marked && start.homes.len() < colours.len() {
            let d = c.error(
                choose.span(),
                format!(
                    "players choose among the marked starting places, but {} listed for {}",
                    match start.homes.len() {
                        1 => "only 1 is".to_string(),
                        n => format!("{n} are"),
                    },
                    judge_core::text::count(colours.len(), "player")
                ),
            );
            help(
                d,
                "list at least one starting place per player in `homes`, or write choose = \"any\"",
            );
        }
        for colour in colours {
            state.players.insert(
                *colour,
                Player {
                    name: colour.name().to_string(),
                    email: String::new(),
                    home: None,
                    research: BTreeSet::new(),
                },
            );
        }
        return Some((*choose.get_ref(), listed));
    }
    if start.homes.len() != colours.len() {
        let span = start.homes.last().map_or(0..0, |h| h.span());
        let msg = format!(
            "the scenario is for {} player{} but lists {} home{}",
            colours.len(),
            if colours.len() == 1 { "" } else { "s" },
            start.homes.len(),
            if start.homes.len() == 1 { "" } else { "s" }
        );
        let d = if span.is_empty() {
            c.problems.push(Diagnostic::new(msg));
            let last = c.problems.len() - 1;
            &mut c.problems[last]
        } else {
            c.error(span, msg)
        };
        help(
            d,
            "give one starting place per seat in [start], like homes = [\"C3\", \"H6/E\"] (red first, then yellow, green, blue, purple, orange), or let players choose: choose = \"any\"",
        );
        return None;
    }
    let mut placed: Vec<(AreaId, &Text)> = Vec::new();
    for (text, colour) in start.homes.iter().zip(colours) {
        let Some(area) = area_of(c, &state.map, text) else {
            continue;
        };
        if state.map.is_sea(area.hex) {
            let d = c.error(
                text.span(),
                format!("{} is sea: a home is on a land tile", area.hex),
            );
            d.label = Some(format!("{colour}'s home"));
            continue;
        }
        for (other, other_text) in &placed {
            if other.hex.distance(area.hex) < 2 {
                let d = c.error(
                    text.span(),
                    format!("homes {} and {} are too close: there must be at least one tile between two homes", other_text.get_ref(), text.get_ref()),
                );
                help(
                    d,
                    "rulebook, starting places: keep one empty tile between neighbours",
                );
            }
        }
        placed.push((area, text));
        state.players.insert(
            *colour,
            Player {
                name: colour.name().to_string(),
                email: String::new(),
                home: Some(area),
                research: BTreeSet::new(),
            },
        );
    }
    None
}

fn read_research(c: &mut Checker<'_>, pos: &RawPosition, colours: &[Colour], state: &mut State) {
    for (who, subjects) in &pos.research {
        if subjects.contains(&Research::SpecialisedMines)
            && subjects.contains(&Research::LargeMines)
        {
            let d = c.error(
                who.span(),
                format!(
                    "{} has both specialised-mines and large-mines research",
                    who.get_ref()
                ),
            );
            help(
                d,
                "Quick Guide IX: a player cannot combine specialised mines with large mines; keep one",
            );
        }
        if let Some(col) = colour_of(c, who, colours)
            && let Some(p) = state.players.get_mut(&col)
        {
            p.research.extend(subjects.iter().copied());
        }
    }
}

fn read_move_order(
    c: &mut Checker<'_>,
    pos: &RawPosition,
    colours: &[Colour],
    state: &mut State,
) -> bool {
    let Some(order) = &pos.move_order else {
        return false;
    };
    let mut seen = Vec::new();
    for text in order.get_ref() {
        if let Some(col) = colour_of(c, text, colours) {
            if seen.contains(&col) {
                c.error(
                    text.span(),
                    format!("{col} is listed twice in the move order"),
                );
            }
            seen.push(col);
        }
    }
    let missing: Vec<&str> = colours
        .iter()
        .filter(|col| !seen.contains(col))
        .map(|col| col.name())
        .collect();
    if !missing.is_empty() {
        let d = c.error(
            order.span(),
            format!("the move order leaves out {}", missing.join(", ")),
        );
        help(d, "list every player once, first to move first");
    }
    state.move_order = seen;
    true
}

fn read_infrastructure(
    c: &mut Checker<'_>,
    pos: &RawPosition,
    colours: &[Colour],
    state: &mut State,
) {
    for road in &pos.roads {
        let ends = road.get_ref();
        if ends.len() != 2 {
            let d = c.error(
                road.span(),
                format!("a road joins two areas, not {}", ends.len()),
            );
            help(
                d,
                "write a road as [\"C4\", \"C5\"], or with sides: [\"C4/E\", \"D4/W\"]",
            );
            continue;
        }
        let (Some(a), Some(b)) = (
            area_of(c, &state.map, &ends[0]),
            area_of(c, &state.map, &ends[1]),
        ) else {
            continue;
        };
        match state.map.road_fits(a, b) {
            Ok(()) => {
                if !state.map.roads.insert(Road::new(a, b)) {
                    c.error(road.span(), format!("the road {a}-{b} is listed twice"));
                }
            }
            Err(e) => {
                c.error(road.span(), e);
            }
        }
    }
    for line in &pos.power_lines {
        let ends = line.get_ref();
        if ends.len() != 2 {
            let d = c.error(
                line.span(),
                format!("a power line joins two areas, not {}", ends.len()),
            );
            help(d, "write a power line as [\"C4\", \"C5\"], like a road");
            continue;
        }
        let (Some(a), Some(b)) = (
            area_of(c, &state.map, &ends[0]),
            area_of(c, &state.map, &ends[1]),
        ) else {
            continue;
        };
        // Like a road (both ends on the same bank where a river runs along the border),
        // but on sea too, where the land end must face the sea (&cetera, electricity);
        // in play a line must also not cross a city's moat without its bridge (`link`).
        match state.map.link_fits(a, b, crate::refusal::Link::PowerLine) {
            Ok(()) => {
                if !state.map.power_lines.insert(Road::new(a, b)) {
                    c.error(
                        line.span(),
                        format!("the power line {a}-{b} is listed twice"),
                    );
                }
            }
            Err(e) => {
                c.error(line.span(), e);
            }
        }
    }
    for text in &pos.bridges {
        let mut words = text.get_ref().split_whitespace();
        let hex = words.next().unwrap_or("").parse::<Hex>();
        let over = words.next().map(str::parse).transpose();
        match (hex, over, words.next()) {
            (Ok(hex), Ok(over), None) => match state.map.bridge_at(hex, over) {
                Ok(b) => {
                    if !state.map.bridges.insert(b) {
                        c.error(text.span(), format!("the bridge in {hex} is listed twice"));
                    }
                }
                Err(e) => {
                    c.error(text.span(), e);
                }
            },
            (Err(e), _, _) => {
                c.error(text.span(), e.to_string());
            }
            (_, Err(e), _) => {
                c.error(text.span(), e);
            }
            _ => {
                let d = c.error(text.span(), format!("`{}` is not a bridge", text.get_ref()));
                help(
                    d,
                    "write the tile, and for a junction the arm it spans: \"C4\" or \"D5 N\"",
                );
            }
        }
    }
    for wall in &pos.walls {
        let w = wall.get_ref();
        let border = match w.between.get_ref().parse::<Border>() {
            Ok(b) => b,
            Err(e) => {
                c.error(w.between.span(), e);
                continue;
            }
        };
        let (a, b) = border.tiles();
        if state.map.border(a, b).is_none() {
            c.error(
                w.between.span(),
                format!("the border {border} is not between two tiles of the map"),
            );
            continue;
        }
        if let Err(e) = state.map.wall_allowed(border) {
            let d = c.error(w.between.span(), e);
            help(
                d,
                "rulebook, walls: a wall can be built between any two tiles except two sea tiles",
            );
            continue;
        }
        let owner = match &w.owner {
            None => None,
            Some(t) if t.get_ref().eq_ignore_ascii_case("neutral") => None,
            Some(t) => match colour_of(c, t, colours) {
                Some(col) => Some(col),
                None => continue,
            },
        };
        let tokens = w.tokens.as_ref().map_or(1, |t| *t.get_ref());
        if tokens == 0 {
            let span = w.tokens.as_ref().map_or(wall.span(), |t| t.span());
            c.error(span, "a wall has at least one token");
            continue;
        }
        if state
            .map
            .walls
            .insert(border, Wall { owner, tokens })
            .is_some()
        {
            let d = c.error(
                w.between.span(),
                format!("two walls on the border {border}"),
            );
            help(
                d,
                "there can never be walls of more than one colour on one border: give one wall with its tokens",
            );
        }
    }
}

fn read_buildings(c: &mut Checker<'_>, pos: &RawPosition, state: &mut State) {
    let irrigated = state.wonder.irrigated();
    for raw in &pos.buildings {
        let b = raw.get_ref();
        let Some(at) = area_of(c, &state.map, &b.at) else {
            continue;
        };
        let terrain = state.map.terrain(at.hex).unwrap_or(Terrain::Sea);
        if !b.kind.site().allows(&state.map, at.hex) {
            let d = c.error(
                b.at.span(),
                format!("a {} cannot stand on {} ({terrain})", b.kind, at.hex),
            );
            help(d, format!("a {} is built on {}", b.kind, b.kind.site()));
            continue;
        }
        if let Some(m) = crate::modules::of_building(b.kind)
            && !state.settings.modules.contains(&m)
        {
            let d = c.error(
                b.at.span(),
                format!(
                    "a {} belongs to the {m} module, which this scenario does not use",
                    b.kind
                ),
            );
            help(d, format!("add \"{m}\" to `modules` in [rules]"));
            continue;
        }
        if terrain == Terrain::Desert && !irrigated {
            let d = c.error(
                b.at.span(),
                format!(
                    "{} is desert: nothing but roads and walls stand there before irrigation",
                    at.hex
                ),
            );
            help(
                d,
                "deserts become pasture when the 45th wonder brick is placed (RULINGS R3)",
            );
            continue;
        }
        let (limit, _) = crate::building::room_on(terrain);
        if state.buildings_on(at.hex).count() >= limit {
            if terrain != Terrain::City {
                let d = c.error(
                    raw.span(),
                    format!(
                        "two buildings on {}: only one building may stand on a tile",
                        at.hex
                    ),
                );
                help(
                    d,
                    "this holds even when a river splits the tile (RULINGS R6); only a city holds two",
                );
            } else {
                let d = c.error(
                    raw.span(),
                    format!(
                        "a third building in the city {}: a city holds two buildings",
                        at.hex
                    ),
                );
                help(
                    d,
                    "&cetera, City: \"the city is a special tile that may contain two buildings\"",
                );
            }
            continue;
        }
        let mine = match (b.kind, b.gold, b.iron) {
            (BuildingKind::Mine, None, None) => Some(MineBag::ORDINARY),
            (BuildingKind::Mine, gold, iron) => Some(MineBag {
                gold: gold.unwrap_or(0),
                iron: iron.unwrap_or(0),
            }),
            (_, None, None) => None,
            (kind, _, _) => {
                c.error(
                    raw.span(),
                    format!("only a mine holds gold and iron, not a {kind}"),
                );
                continue;
            }
        };
        state.buildings.push(Building {
            kind: b.kind,
            at,
            mine,
            used: b.used,
            bomb_proof: b.bomb_proof,
        });
    }
}

/// A platform at sea where goods may lie: an oil rig, or a pearl fisherman (&cetera, art).
fn has_oil_rig(state: &State, hex: Hex) -> bool {
    crate::turn::has_oil_rig(state, hex)
}

fn read_goods(c: &mut Checker<'_>, pos: &RawPosition, state: &mut State) {
    for (where_, goods) in &pos.goods {
        let Some(area) = area_of(c, &state.map, where_) else {
            continue;
        };
        if state.map.is_sea(area.hex) && !has_oil_rig(state, area.hex) {
            let d = c.error(where_.span(), format!("goods on open sea at {}", area.hex));
            help(
                d,
                "goods are never left at sea; only an oil rig (or, with art, a pearl fisherman) holds them (rulebook, movement)",
            );
            continue;
        }
        state.goods.entry(area).or_default().add_all(goods);
    }
}

fn read_transporters(
    c: &mut Checker<'_>,
    start: &RawStart,
    pos: &RawPosition,
    colours: &[Colour],
    state: &mut State,
) -> StartKit {
    // Ids the scenario gives are reserved first; the others are numbered after them.
    let mut given: Vec<Option<TransporterId>> = Vec::new();
    for raw in &pos.transporters {
        let t = raw.get_ref();
        let id = match &t.id {
            None => None,
            Some(text) => match text.get_ref().parse::<TransporterId>() {
                Ok(id) if id.kind != t.kind => {
                    let d = c.error(
                        text.span(),
                        format!(
                            "{id} is the id of a {}, but this transporter is a {}",
                            id.kind, t.kind
                        ),
                    );
                    help(
                        d,
                        format!(
                            "ids start with the kind's letter: a {} is {}…",
                            t.kind,
                            t.kind.letter()
                        ),
                    );
                    None
                }
                Ok(id) => {
                    if given.contains(&Some(id)) {
                        c.error(text.span(), format!("two transporters are called {id}"));
                    }
                    let last = state.last_ids.entry(id.kind).or_insert(0);
                    *last = (*last).max(id.number);
                    Some(id)
                }
                Err(e) => {
                    c.error(text.span(), e);
                    None
                }
            },
        };
        given.push(id);
    }

    // Starting transporters and goods, at each home, in seat order (homes chosen in a
    // set-up round get theirs when the round ends: setup::Setup::finish).
    let kit = StartKit {
        transporters: start
            .transporters
            .as_ref()
            .map_or_else(|| vec![Kind::Donkey; 3], |t| t.get_ref().clone()),
        goods: start.goods.clone().unwrap_or_else(|| {
            [(Good::Boards, 5), (Good::Stone, 1), (Good::Geese, 2)]
                .into_iter()
                .collect()
        }),
    };
    if let Some(kind) = kit.transporters.iter().find(|k| k.class() == Class::Water) {
        let span = start
            .transporters
            .as_ref()
            .map(|t| t.span())
            .or_else(|| start.homes.first().map(|h| h.span()))
            .unwrap_or(0..0);
        let d = c.error(span, format!("a {kind} cannot start on land at a home"));
        help(
            d,
            "start boats in [[position.transporters]], in a river, at a dock or at sea",
        );
        return kit;
    }
    // Jumpstart: the kits are placed when the auction ends, with the lots.
    if start.lots.is_empty() {
        for colour in colours {
            if let Some(home) = state.players.get(colour).and_then(|p| p.home) {
                kit.place(state, *colour, home);
            }
        }
    }

    // Scenario transporters.
    let mut carried: Vec<(TransporterId, TransporterId, Range<usize>)> = Vec::new();
    for (raw, id) in pos.transporters.iter().zip(given) {
        let t = raw.get_ref();
        let Some(owner) = colour_of(c, &t.owner, colours) else {
            continue;
        };
        let at = match t.at.get_ref().parse::<Location>() {
            Ok(loc) => loc,
            Err(e) => {
                c.error(t.at.span(), e);
                continue;
            }
        };
        let at = match at.place(&state.map, t.kind, owner) {
            Ok(at) => at,
            Err(e) => {
                let d = c.error(t.at.span(), e);
                d.label = Some(format!("{}'s {}", owner, t.kind));
                continue;
            }
        };
        let cargo = t
            .cargo
            .as_ref()
            .map(|c| c.get_ref().clone())
            .unwrap_or_default();
        if cargo.total() > t.kind.capacity() {
            let span = t.cargo.as_ref().map_or(raw.span(), |c| c.span());
            c.error(
                span,
                format!(
                    "a {} carries at most {} goods, not {}",
                    t.kind,
                    t.kind.capacity(),
                    cargo.total()
                ),
            );
            continue;
        }
        let id = id.unwrap_or_else(|| state.next_id(t.kind));
        if let Location::Carried(carrier) = at {
            carried.push((id, carrier, t.at.span()));
        }
        state.transporters.insert(
            id,
            Transporter {
                owner,
                kind: t.kind,
                at,
                cargo,
                following_geese: t.following_geese,
            },
        );
    }
    for (id, carrier, span) in carried {
        let problem = match state.transporters.get(&carrier) {
            None => Some(format!("there is no transporter {carrier} to carry {id}")),
            Some(_) if carrier == id => Some(format!("{id} cannot carry itself")),
            Some(t) if t.kind.carries_no_transporter().is_some() => {
                t.kind.carries_no_transporter().map(str::to_string)
            }
            Some(t) if !t.cargo.is_empty() => Some(format!(
                "{carrier} carries goods, so it cannot carry {id} too: neither may carry anything else"
            )),
            Some(_)
                if state
                    .transporters
                    .values()
                    .filter(|o| o.at == Location::Carried(carrier))
                    .count()
                    > 1 =>
            {
                Some(format!("{carrier} carries more than one transporter"))
            }
            Some(_)
                if state
                    .transporters
                    .get(&id)
                    .is_some_and(|t| !t.cargo.is_empty()) =>
            {
                Some(format!("{id} carries goods, so it cannot be carried"))
            }
            Some(_) if state.tile_of(id).is_none() => {
                Some(format!("{id} and {carrier} carry each other"))
            }
            Some(_) => None,
        };
        if let Some(p) = problem {
            c.error(span, p);
        }
    }

    // Limits (RULINGS R4).
    for colour in colours {
        if let Some((n, max, what)) = state.limit_broken(*colour) {
            let span = pos
                .transporters
                .last()
                .map(|t| t.span())
                .or_else(|| start.transporters.as_ref().map(|t| t.span()))
                .unwrap_or(0..0);
            let d = c.error(span, format!("{colour} has {n} {what}; the limit is {max}"));
            help(
                d,
                "a player may have 8 transporters: at most 5 land, 5 water and 3 planes (RULINGS R4)",
            );
        }
    }
    kit
}
