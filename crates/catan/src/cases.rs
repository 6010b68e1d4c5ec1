//! Adjudication cases for Catan as data (docs/catan.md, "Cases"): the same spirit and
//! format as the Roads & Boats cases — a TOML file with `[case]` (the rule it checks,
//! in words, with its name), a `[prestate]`, the order files of the first play
//! (`[orders]`) and of any further plays (`[[then]]`), and `[expect]`: the facts after
//! the last play. `judge cases tests/catan` and `cargo test --test catan_cases` run them.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::board::layout::Layout;
use super::cards::{Cards, DevCard, DevCards};
use super::colour::Colour;
use super::events::Event;
use super::orders::Record;
use super::orders::parse::parse;
use super::rules::SetupError;
use super::scenario::Variant;
use super::scenario::{Express, ExtraFile as ExpressFile, ExtraFileError as ExpressFileError};
use super::scenario::{Map, RaceFile, RailwayFile};
use super::state::{Options, Phase, Resume, State};
use judge_core::diagnostic::{Diagnostic, Diagnostics};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    case: Header,
    #[serde(default)]
    prestate: Prestate,
    #[serde(default)]
    orders: BTreeMap<Colour, String>,
    #[serde(default)]
    then: Vec<BTreeMap<Colour, String>>,
    #[serde(default)]
    expect: Expect,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    /// The game the case is for (`judge cases` runs each with its own game); this
    /// runner reads only its own.
    #[serde(default)]
    game: Option<String>,
    rule: String,
    #[serde(default)]
    description: String,
    seed: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Prestate {
    players: Option<usize>,
    layout: Option<Layout>,
    #[serde(default)]
    extension: bool,
    points_to_win: Option<u8>,
    /// `founding`, `turn` (before the roll; the default) or `main` (after it).
    phase: Option<String>,
    founding_index: Option<u8>,
    first: Option<Colour>,
    active: Option<Colour>,
    turn: Option<u32>,
    #[serde(default)]
    dice: Vec<[u8; 2]>,
    robber: Option<String>,
    /// The development cards to be drawn, first drawn first (the deck is only these).
    deck: Option<Vec<DevCard>>,
    bank: Option<Cards>,
    longest_road: Option<String>,
    largest_army: Option<String>,
    /// Catan Express on this map (`island` or `beyond`).
    express: Option<Map>,
    /// Catan Express: the race, if it has begun.
    race: Option<RaceFile>,
    red: Option<RawPlayer>,
    blue: Option<RawPlayer>,
    white: Option<RawPlayer>,
    orange: Option<RawPlayer>,
    green: Option<RawPlayer>,
    purple: Option<RawPlayer>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlayer {
    #[serde(default)]
    hand: Cards,
    #[serde(default)]
    development: DevCards,
    #[serde(default)]
    new_development: DevCards,
    #[serde(default)]
    played: DevCards,
    #[serde(default)]
    settlements: Vec<usize>,
    #[serde(default)]
    cities: Vec<usize>,
    #[serde(default)]
    roads: Vec<String>,
    /// Catan Express: rail lines (`13-F`), ferries, the locomotive (a vertex or hex; by
    /// default at `start`), the starting place, connection chips.
    #[serde(default)]
    lines: Vec<String>,
    #[serde(default)]
    ferries: Vec<String>,
    locomotive: Option<String>,
    start: Option<usize>,
    #[serde(default)]
    chips: u8,
    /// Orders on record before the first play.
    orders: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    #[serde(default)]
    hands: BTreeMap<Colour, Cards>,
    /// Number of resource cards held.
    #[serde(default)]
    cards: BTreeMap<Colour, u32>,
    #[serde(default)]
    development: BTreeMap<Colour, DevCards>,
    #[serde(default)]
    played: BTreeMap<Colour, DevCards>,
    #[serde(default)]
    points: BTreeMap<Colour, u8>,
    #[serde(default)]
    settlements: BTreeMap<Colour, Vec<usize>>,
    #[serde(default)]
    cities: BTreeMap<Colour, Vec<usize>>,
    #[serde(default)]
    roads: BTreeMap<Colour, Vec<String>>,
    #[serde(default)]
    road_length: BTreeMap<Colour, u8>,
    bank: Option<Cards>,
    deck: Option<usize>,
    robber: Option<String>,
    longest_road: Option<String>,
    largest_army: Option<String>,
    active: Option<Colour>,
    phase: Option<String>,
    winner: Option<String>,
    turn: Option<u32>,
    awaited: Option<Vec<Colour>>,
    /// Every failed order, in order, each matched by a piece of its text.
    failures: Option<Vec<String>>,
    /// Pieces of text that must appear in some event (as the public sees it).
    #[serde(default)]
    events: Vec<String>,
    /// Pieces of text no event may show.
    #[serde(default)]
    no_events: Vec<String>,
    /// Pieces of text that must appear in a player's report (`public`: the public one).
    #[serde(default)]
    report_has: BTreeMap<String, Vec<String>>,
    /// Pieces of text that must not appear in that report.
    #[serde(default)]
    report_lacks: BTreeMap<String, Vec<String>>,
    // ---- Catan Express ----
    /// Rail lines and ferries by player (any order).
    #[serde(default)]
    lines: BTreeMap<Colour, Vec<String>>,
    #[serde(default)]
    ferries: BTreeMap<Colour, Vec<String>>,
    /// Where the locomotives stand.
    #[serde(default)]
    locomotive: BTreeMap<Colour, String>,
    #[serde(default)]
    chips: BTreeMap<Colour, u8>,
    /// Water towers taken.
    #[serde(default)]
    towers: BTreeMap<Colour, u8>,
    /// The stopovers, in the order chosen.
    stopovers: Option<Vec<usize>>,
    /// Who started the race (`nobody`: it has not begun).
    starter: Option<String>,
    /// Who completed the race (`nobody`: nobody yet).
    race_winner: Option<String>,
}

/// The outcome of one case.
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub struct CaseResult {
    pub file: String,
    pub rule: String,
    pub description: String,
    /// Empty when the case passes.
    pub problems: Vec<String>,
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }
}

fn colour_list(p: &Prestate) -> [(Colour, &Option<RawPlayer>); 6] {
    [
        (Colour::Red, &p.red),
        (Colour::Blue, &p.blue),
        (Colour::White, &p.white),
        (Colour::Orange, &p.orange),
        (Colour::Green, &p.green),
        (Colour::Purple, &p.purple),
    ]
}

/// Why a case's `[prestate]` makes no position: the case's author is told, after
/// `prestate: `.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum PrestateError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("{0} does not play in this case")]
    NotInCase(Colour),
    #[error("no vertex {0}")]
    NoVertex(usize),
    #[error("no edge {0}")]
    NoEdge(String),
    #[error("no land hex {0}")]
    NoLandHex(String),
    #[error("unknown phase `{0}` (founding, turn, main, robber, road-building)")]
    Phase(String),
    #[error(transparent)]
    Express(#[from] ExpressFileError),
    /// A holder of the longest road or the largest army that is no colour.
    #[error("`{0}` is not a colour or `nobody`")]
    NotAColour(String),
    /// A holder of the longest road or the largest army whose colour is not in the case.
    #[error("{0} does not play")]
    NotPlaying(Colour),
}

fn build(p: &Prestate, seed: u64) -> Result<State, PrestateError> {
    let n = p.players.unwrap_or(if p.extension { 5 } else { 4 });
    let names: Vec<String> = Colour::SEATS[..n.min(6)]
        .iter()
        .map(|c| {
            let mut s = c.name().to_string();
            if let Some(f) = s.get_mut(0..1) {
                f.make_ascii_uppercase();
            }
            s
        })
        .collect();
    let options = Options {
        layout: p.layout.unwrap_or_default(),
        extension: p.extension || (p.express.is_some() && n > 4),
        points_to_win: p.points_to_win.unwrap_or(10),
        variant: p.express.map_or(Variant::Base, Variant::Express),
    };
    let mut s = State::new("case", &names, seed, &options)?;
    let seat = |c: Colour, s: &State| s.seat_of(c).ok_or(PrestateError::NotInCase(c));
    s.first = seat(p.first.unwrap_or(Colour::Red), &s)?;
    s.active = seat(p.active.unwrap_or(Colour::Red), &s)?;
    let t = s.board.topology.clone();
    for (c, raw) in colour_list(p) {
        let Some(raw) = raw else { continue };
        let i = seat(c, &s)? as usize;
        let pl = &mut s.players[i];
        pl.hand = raw.hand;
        pl.devs = raw.development;
        pl.new_devs = raw.new_development;
        pl.played = raw.played;
        for &v in &raw.settlements {
            let id = t
                .parse_vertex(&v.to_string())
                .ok_or(PrestateError::NoVertex(v))?;
            pl.settlements.insert(id);
        }
        for &v in &raw.cities {
            let id = t
                .parse_vertex(&v.to_string())
                .ok_or(PrestateError::NoVertex(v))?;
            pl.cities.insert(id);
        }
        for e in &raw.roads {
            let id = t
                .parse_edge(e)
                .ok_or_else(|| PrestateError::NoEdge(e.clone()))?;
            pl.roads.insert(id);
        }
        if let Some(o) = &raw.orders {
            s.records[i] = Record {
                text: o.clone(),
                ..Record::default()
            };
        }
    }
    let mut bank = Cards([if p.extension { 24 } else { 19 }; 5]);
    for pl in &s.players {
        bank.take(&pl.hand);
    }
    s.bank = p.bank.unwrap_or(bank);
    if let Some(deck) = &p.deck {
        s.deck = deck.iter().rev().copied().collect();
    }
    if let Some(r) = &p.robber {
        s.robber = t
            .parse_hex(r)
            .filter(|&h| t.hexes[h].land)
            .ok_or_else(|| PrestateError::NoLandHex(r.clone()))?;
    }
    s.loaded_dice = p.dice.clone();
    s.turn = p.turn.unwrap_or(1);
    s.phase = match p.phase.as_deref().unwrap_or("turn") {
        "founding" => {
            let index = p.founding_index.unwrap_or(0);
            s.turn = p.turn.unwrap_or(0);
            s.active = s.founding_seat(index);
            Phase::Founding {
                index,
                settlement: None,
            }
        }
        "turn" | "before-roll" => Phase::BeforeRoll,
        "main" => Phase::Main,
        "robber" => Phase::Robber { then: Resume::Main },
        "road-building" => Phase::RoadBuilding {
            left: 2,
            then: Resume::Main,
        },
        other => {
            return Err(PrestateError::Phase(other.to_string()));
        }
    };
    if let Some(map) = p.express {
        let mut file = ExpressFile::default();
        for (c, raw) in colour_list(p) {
            let Some(raw) = raw else { continue };
            seat(c, &s)?;
            file.railways.insert(
                c,
                RailwayFile {
                    lines: raw.lines.clone(),
                    ferries: raw.ferries.clone(),
                    locomotive: raw.locomotive.clone().or(raw.start.map(|v| v.to_string())),
                    start: raw.start,
                    chips: raw.chips,
                },
            );
        }
        file.race = p.race.clone();
        let colours: Vec<Colour> = s.players.iter().map(|q| q.colour).collect();
        s.scenario = Some(Box::new(Express::from_file(
            &file, &s.board, map, &colours,
        )?));
    }
    s.rebuild_derived();
    s.update_longest_road(&mut ());
    if let Some(h) = &p.longest_road {
        s.longest_road = holder(h, &s)?;
    }
    s.largest_army = match &p.largest_army {
        Some(h) => holder(h, &s)?,
        None => {
            let k: Vec<u8> = s.players.iter().map(|p| p.knights()).collect();
            let max = k.iter().copied().max().unwrap_or(0);
            (max >= 3 && k.iter().filter(|&&x| x == max).count() == 1)
                .then(|| k.iter().position(|&x| x == max).unwrap_or(0) as u8)
        }
    };
    Ok(s)
}

fn check_express(x: &Expect, s: &State, p: &mut Vec<String>) {
    let wants_express = !x.lines.is_empty()
        || !x.ferries.is_empty()
        || !x.locomotive.is_empty()
        || !x.chips.is_empty()
        || !x.towers.is_empty()
        || x.stopovers.is_some()
        || x.starter.is_some()
        || x.race_winner.is_some();
    let Some(ex) = s.scenario.as_deref() else {
        if wants_express {
            p.push("expect: Catan Express facts, but this is not an Express game".into());
        }
        return;
    };
    let t = &s.board.topology;
    let rail = &ex.rail;
    let seat = |c: &Colour, p: &mut Vec<String>| {
        let r = s.seat_of(*c);
        if r.is_none() {
            p.push(format!("expect: {c} does not play"));
        }
        r
    };
    for (what, want_map, ferry) in [
        ("rail lines", &x.lines, false),
        ("ferries", &x.ferries, true),
    ] {
        for (c, want) in want_map {
            let Some(i) = seat(c, p) else { continue };
            let r = &ex.players[i as usize];
            let have = if ferry { &r.ferries } else { &r.lines };
            let mut got: Vec<u16> = have.clone();
            got.sort_unstable();
            let mut w = Vec::new();
            for name in want {
                match rail.parse_stretch(t, name) {
                    Some(st) => w.push(st),
                    None => p.push(format!("expect: `{name}` is not a stretch")),
                }
            }
            w.sort_unstable();
            if got != w {
                let g: Vec<String> = got.iter().map(|&st| rail.stretch_name(t, st)).collect();
                p.push(format!("{c}'s {what}: expected {want:?}, found {g:?}"));
            }
        }
    }
    for (c, want) in &x.locomotive {
        let Some(i) = seat(c, p) else { continue };
        let got = ex.players[i as usize]
            .locomotive
            .map_or("nowhere".to_string(), |n| rail.node_name(t, n));
        if !got.eq_ignore_ascii_case(want) {
            p.push(format!(
                "{c}'s locomotive: expected at {want}, found at {got}"
            ));
        }
    }
    for (c, want) in &x.chips {
        let Some(i) = seat(c, p) else { continue };
        let got = ex.players[i as usize].chips;
        if got != *want {
            p.push(format!("{c}'s chips: expected {want}, found {got}"));
        }
    }
    for (c, want) in &x.towers {
        let Some(i) = seat(c, p) else { continue };
        let got = ex.race.as_ref().map_or(0, |r| r.collected(i));
        if got != *want {
            p.push(format!(
                "{c}'s water towers taken: expected {want}, found {got}"
            ));
        }
    }
    if let Some(want) = &x.stopovers {
        let got: Vec<usize> = ex
            .race
            .as_ref()
            .map(|r| r.stopovers.iter().map(|st| st.vertex + 1).collect())
            .unwrap_or_default();
        if got != *want {
            p.push(format!("stopovers: expected {want:?}, found {got:?}"));
        }
    }
    let name = |h: Option<u8>| h.map_or("nobody".to_string(), |h| s.colour(h).to_string());
    if let Some(w) = &x.starter {
        let got = name(ex.race.as_ref().map(|r| r.starter));
        if got != *w {
            p.push(format!("starter: expected {w}, found {got}"));
        }
    }
    if let Some(w) = &x.race_winner {
        let got = name(ex.race.as_ref().and_then(|r| r.winner));
        if got != *w {
            p.push(format!("race winner: expected {w}, found {got}"));
        }
    }
}

fn holder(h: &str, s: &State) -> Result<Option<u8>, PrestateError> {
    if h == "nobody" {
        return Ok(None);
    }
    let c = Colour::parse(h).ok_or_else(|| PrestateError::NotAColour(h.to_string()))?;
    s.seat_of(c).map(Some).ok_or(PrestateError::NotPlaying(c))
}

/// Read a case and play it; problems reading it come back as diagnostics.
pub fn run(file: &str, text: &str) -> Result<CaseResult, Diagnostics> {
    let fail = |msg: String, span: Option<std::ops::Range<usize>>| Diagnostics {
        file: file.to_string(),
        source: text.to_string(),
        items: vec![Diagnostic::new(msg).at_opt(span)],
    };
    let raw: RawCase = toml::from_str(text).map_err(|e| fail(e.message().to_string(), e.span()))?;
    if let Some(g) = raw
        .case
        .game
        .as_deref()
        .filter(|g| !matches!(*g, "catan" | "catan-express"))
    {
        return Err(fail(
            format!("this case is for the game `{g}`, not Catan"),
            None,
        ));
    }
    let seed = raw.case.seed.unwrap_or(1);
    let mut state = build(&raw.prestate, seed).map_err(|m| fail(format!("prestate: {m}"), None))?;
    let mut plays = vec![raw.orders.clone()];
    plays.extend(raw.then.iter().cloned());
    let mut bad = Vec::new();
    for files in &plays {
        for (c, body) in files {
            for d in parse(body, &state).problems {
                bad.push(format!("orders of {c}: {}", d.message));
            }
        }
    }
    if !bad.is_empty() {
        return Err(fail(
            format!("the orders do not read: {}", bad.join("; ")),
            None,
        ));
    }
    let mut events = Vec::new();
    let mut before = state.clone();
    let mut last_events = Vec::new();
    for files in &plays {
        before = state.clone();
        let out = super::play(&state, files);
        state = out.state;
        last_events = out.events.clone();
        events.extend(out.events);
    }
    let problems = check(&raw.expect, &before, &last_events, &state, &events);
    Ok(CaseResult {
        file: file.to_string(),
        rule: raw.case.rule,
        description: raw.case.description,
        problems,
    })
}

/// The rule a case file says it checks.
pub fn rule_of(path: &Path) -> Result<String, Diagnostics> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let doc: toml::Table = toml::from_str(&text).map_err(|e| Diagnostics {
        file: name.clone(),
        source: text.clone(),
        items: vec![Diagnostic::new(e.message().to_string()).at_opt(e.span())],
    })?;
    doc.get("case")
        .and_then(|c| c.get("rule"))
        .and_then(|r| r.as_str())
        .map(str::to_string)
        .ok_or(Diagnostics {
            file: name,
            source: text,
            items: vec![Diagnostic::new("the case has no [case] rule")],
        })
}

/// Read and run a case file.
pub fn run_case_file(path: &Path) -> Result<CaseResult, Diagnostics> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Diagnostics {
        file: name.clone(),
        source: String::new(),
        items: vec![Diagnostic::new(format!("cannot read the case: {e}"))],
    })?;
    run(&name, &text)
}

/// The rule → case table (Markdown) for these case files, sorted by rule.
pub fn table(files: &[std::path::PathBuf]) -> Result<String, Diagnostics> {
    let mut rows = Vec::new();
    for f in files {
        rows.push((rule_of(f)?, f.display().to_string()));
    }
    rows.sort();
    let mut out = String::from("| rule | case |\n|---|---|\n");
    for (rule, file) in rows {
        out.push_str(&format!("| {} | `{file}` |\n", rule.replace('|', "/")));
    }
    Ok(out)
}

fn names(s: &State, list: impl Iterator<Item = usize>) -> Vec<usize> {
    let _ = s;
    let mut v: Vec<usize> = list.map(|i| i + 1).collect();
    v.sort_unstable();
    v
}

fn check(x: &Expect, before: &State, last: &[Event], s: &State, events: &[Event]) -> Vec<String> {
    let mut p = Vec::new();
    let pl = |c: &Colour, p: &mut Vec<String>| {
        let r = s.seat_of(*c);
        if r.is_none() {
            p.push(format!("expect: {c} does not play"));
        }
        r
    };
    for (c, want) in &x.hands {
        if let Some(i) = pl(c, &mut p) {
            let got = s.players[i as usize].hand;
            if got != *want {
                p.push(format!("{c}'s hand: expected {want}, found {got}"));
            }
        }
    }
    for (c, want) in &x.cards {
        if let Some(i) = pl(c, &mut p) {
            let got = s.players[i as usize].hand.total();
            if got != *want {
                p.push(format!("{c}'s cards: expected {want}, found {got}"));
            }
        }
    }
    for (c, want) in &x.development {
        if let Some(i) = pl(c, &mut p) {
            let q = &s.players[i as usize];
            let mut got = q.devs;
            for k in 0..5 {
                got.0[k] += q.new_devs.0[k];
            }
            if got != *want {
                p.push(format!(
                    "{c}'s development cards: expected {want}, found {got}"
                ));
            }
        }
    }
    for (c, want) in &x.played {
        if let Some(i) = pl(c, &mut p) {
            let got = s.players[i as usize].played;
            if got != *want {
                p.push(format!("{c}'s played cards: expected {want}, found {got}"));
            }
        }
    }
    for (c, want) in &x.points {
        if let Some(i) = pl(c, &mut p) {
            let got = s.points(i);
            if got != *want {
                p.push(format!("{c}'s points: expected {want}, found {got}"));
            }
        }
    }
    for (c, want) in &x.settlements {
        if let Some(i) = pl(c, &mut p) {
            let got = names(s, s.players[i as usize].settlements.iter());
            let mut w = want.clone();
            w.sort_unstable();
            if got != w {
                p.push(format!("{c}'s settlements: expected {w:?}, found {got:?}"));
            }
        }
    }
    for (c, want) in &x.cities {
        if let Some(i) = pl(c, &mut p) {
            let got = names(s, s.players[i as usize].cities.iter());
            let mut w = want.clone();
            w.sort_unstable();
            if got != w {
                p.push(format!("{c}'s cities: expected {w:?}, found {got:?}"));
            }
        }
    }
    for (c, want) in &x.roads {
        if let Some(i) = pl(c, &mut p) {
            let t = &s.board.topology;
            let got: Vec<usize> = s.players[i as usize].roads.iter().collect();
            let mut w = Vec::new();
            for e in want {
                match t.parse_edge(e) {
                    Some(id) => w.push(id),
                    None => p.push(format!("expect: no edge {e}")),
                }
            }
            w.sort_unstable();
            if got != w {
                let g: Vec<String> = got.iter().map(|&e| t.edge_name(e)).collect();
                p.push(format!("{c}'s roads: expected {want:?}, found {g:?}"));
            }
        }
    }
    for (c, want) in &x.road_length {
        if let Some(i) = pl(c, &mut p) {
            let got = s.players[i as usize].road_length;
            if got != *want {
                p.push(format!("{c}'s longest road: expected {want}, found {got}"));
            }
        }
    }
    if let Some(b) = x.bank
        && b != s.bank
    {
        p.push(format!("bank: expected {b}, found {}", s.bank));
    }
    if let Some(d) = x.deck
        && d != s.deck.len()
    {
        p.push(format!("deck: expected {d} cards, found {}", s.deck.len()));
    }
    if let Some(r) = &x.robber
        && !s.hex_name(s.robber).eq_ignore_ascii_case(r)
    {
        p.push(format!(
            "robber: expected on {r}, found on {}",
            s.hex_name(s.robber)
        ));
    }
    let holder_name = |h: Option<u8>| h.map_or("nobody".to_string(), |h| s.colour(h).to_string());
    if let Some(w) = &x.longest_road
        && holder_name(s.longest_road) != *w
    {
        p.push(format!(
            "longest road: expected {w}, found {}",
            holder_name(s.longest_road)
        ));
    }
    if let Some(w) = &x.largest_army
        && holder_name(s.largest_army) != *w
    {
        p.push(format!(
            "largest army: expected {w}, found {}",
            holder_name(s.largest_army)
        ));
    }
    if let Some(w) = &x.winner
        && holder_name(s.winner) != *w
    {
        p.push(format!(
            "winner: expected {w}, found {}",
            holder_name(s.winner)
        ));
    }
    if let Some(a) = x.active
        && s.colour(s.active) != a
    {
        p.push(format!(
            "active: expected {a}, found {}",
            s.colour(s.active)
        ));
    }
    if let Some(t) = x.turn
        && t != s.turn
    {
        p.push(format!("turn: expected {t}, found {}", s.turn));
    }
    if let Some(ph) = &x.phase {
        let got = match s.phase {
            Phase::Founding { .. } => "founding",
            Phase::BeforeRoll => "before-roll",
            Phase::Main => "main",
            Phase::Discard { .. } => "discard",
            Phase::Robber { .. } => "robber",
            Phase::RoadBuilding { .. } => "road-building",
            Phase::SpecialBuild { .. } => "special-build",
            Phase::Scenario(crate::scenario::Step::Stopover { .. }) => "stopover",
            Phase::Scenario(crate::scenario::Step::Moving { .. }) => "moving",
            Phase::Over => "over",
        };
        if got != ph {
            p.push(format!("phase: expected {ph}, found {got}"));
        }
    }
    check_express(x, s, &mut p);
    if let Some(w) = &x.awaited {
        let got = super::awaited(s);
        if got != *w {
            p.push(format!("awaited: expected {w:?}, found {got:?}"));
        }
    }
    // Each event as its own player reads it (the whole of it: a stolen card as the thief
    // reads it, a discard as the one who discarded): what the judge knows.
    let texts: Vec<String> = events
        .iter()
        .map(|e| e.text(s, e.player()).to_lowercase())
        .collect();
    let failed: Vec<String> = events
        .iter()
        .filter(|e| e.is_failure())
        .map(|e| e.text(s, e.player()))
        .collect();
    let wanted = x.failures.clone().unwrap_or_default();
    if failed.len() != wanted.len()
        || failed
            .iter()
            .zip(&wanted)
            .any(|(f, w)| !f.to_lowercase().contains(&w.to_lowercase()))
    {
        p.push(format!("failures: expected {wanted:?}, found {failed:?}"));
    }
    for w in &x.events {
        if !texts.iter().any(|t| t.contains(&w.to_lowercase())) {
            p.push(format!("no event says `{w}`; events: {texts:?}"));
        }
    }
    for w in &x.no_events {
        if texts.iter().any(|t| t.contains(&w.to_lowercase())) {
            p.push(format!("an event says `{w}`; events: {texts:?}"));
        }
    }
    let report_for = |who: &str, p: &mut Vec<String>| -> Option<String> {
        let viewer = if who == "public" {
            None
        } else {
            match Colour::parse(who) {
                Some(c) => Some(c),
                None => {
                    p.push(format!("expect: `{who}` is not a colour or `public`"));
                    return None;
                }
            }
        };
        Some(super::report(before, last, s, viewer).to_lowercase())
    };
    for (who, pieces) in &x.report_has {
        if let Some(r) = report_for(who, &mut p) {
            for w in pieces {
                if !r.contains(&w.to_lowercase()) {
                    p.push(format!("{who}'s report does not say `{w}`"));
                }
            }
        }
    }
    for (who, pieces) in &x.report_lacks {
        if let Some(r) = report_for(who, &mut p) {
            for w in pieces {
                if r.contains(&w.to_lowercase()) {
                    p.push(format!("{who}'s report says `{w}`, which it must not"));
                }
            }
        }
    }
    p
}
