//! Adjudication test cases as data (`docs/cases.md`): a prestate written as a
//! scenario, each player's orders in the order language, and the facts and failures
//! expected after resolution. `judge cases` and `cargo test` run them.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::building::{BuildingKind, MineBag};
use super::goods::Goods;
use super::map::{AreaId, Border, Road};
use super::order_text;
use super::orders::TurnOrders;
use super::player::{Colour, Research};
use super::resolve::{self, score};
use super::scenario::raw::RawScenario;
use super::scenario::{self, Scenario, Seat};
use super::state::State;
use super::transporter::{Kind, Location, TransporterId};
use super::wonder::Brick;
use judge_core::diagnostic::{Diagnostic, Diagnostics};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    case: Header,
    prestate: RawScenario,
    #[serde(default)]
    orders: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    expect: Expect,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    /// The game the case is for, when it is not Roads & Boats (`judge cases` runs each
    /// case with its own game).
    #[serde(default)]
    game: Option<String>,
    /// The rule the case checks: Quick Guide section, rulebook page or ruling.
    rule: String,
    #[serde(default)]
    description: String,
    /// Seed of the game's random numbers (default 1).
    seed: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    #[serde(default)]
    goods: BTreeMap<String, Goods>,
    #[serde(default)]
    transporters: BTreeMap<String, ExpectTransporter>,
    #[serde(default)]
    gone: Vec<String>,
    #[serde(default)]
    fleet: BTreeMap<Colour, usize>,
    #[serde(default)]
    buildings: BTreeMap<String, String>,
    #[serde(default)]
    mines: BTreeMap<String, MineBag>,
    #[serde(default)]
    research: BTreeMap<Colour, Vec<Research>>,
    wonder: Option<Vec<String>>,
    #[serde(default)]
    walls: BTreeMap<String, ExpectWall>,
    roads: Option<Vec<[String; 2]>>,
    /// Electricity: exactly these power lines.
    power_lines: Option<Vec<[String; 2]>>,
    bridges: Option<Vec<String>>,
    move_order: Option<Vec<Colour>>,
    /// Each player's home (after a set-up round, docs/cases.md).
    #[serde(default)]
    homes: BTreeMap<Colour, String>,
    #[serde(default)]
    score: BTreeMap<Colour, i64>,
    /// Jumpstart: each player's winning bid, kept for the final score.
    #[serde(default)]
    bids: BTreeMap<Colour, u32>,
    game_over: Option<bool>,
    turn: Option<u32>,
    /// Every failure or shortfall, in order, each matched by a piece of its text. Left
    /// out: no order may fail.
    failures: Option<Vec<String>>,
    /// Pieces of text that must each appear in some event.
    #[serde(default)]
    events: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectTransporter {
    at: Option<String>,
    cargo: Option<Goods>,
    owner: Option<Colour>,
    kind: Option<Kind>,
    following_geese: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectWall {
    owner: Option<String>,
    tokens: u8,
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

/// Where a TOML string's content starts in the file (for multi-line strings too).
fn content_start(text: &str, value: &Spanned<String>) -> Option<usize> {
    let span = value.span();
    let written = text.get(span.clone())?;
    let quote = if written.starts_with("\"\"\"") || written.starts_with("'''") {
        3
    } else {
        1
    };
    let mut start = span.start + quote;
    if quote == 3 && text.get(start..start + 1) == Some("\n") {
        start += 1;
    } else if quote == 3 && text.get(start..start + 2) == Some("\r\n") {
        start += 2;
    }
    let content = value.get_ref();
    (text.get(start..start + content.len()) == Some(content.as_str())).then_some(start)
}

/// Read a case and resolve it; problems reading it are returned as diagnostics.
pub fn run(file: &str, text: &str) -> Result<CaseResult, Diagnostics> {
    let fail = |items: Vec<Diagnostic>| Diagnostics {
        file: file.to_string(),
        source: text.to_string(),
        items,
    };
    let raw: RawCase = toml::from_str(text).map_err(|e| {
        fail(vec![
            Diagnostic::new(scenario::toml_message(&e))
                .at_opt(e.span().map(|s| scenario::widen(s, text))),
        ])
    })?;
    if let Some(g) = raw.case.game.as_deref().filter(|g| *g != "roads-and-boats") {
        return Err(fail(vec![Diagnostic::new(format!(
            "this case is for the game `{g}`, not Roads & Boats"
        ))]));
    }
    let scenario = Scenario::from_raw(raw.prestate, text).map_err(fail)?;
    let seats: Vec<Seat> = Colour::SEATS[..scenario.players]
        .iter()
        .map(|c| Seat {
            name: c.name().to_string(),
            email: format!("{c}@example.org"),
        })
        .collect();
    let seed = raw.case.seed.unwrap_or(1);
    let luck = judge_core::luck::Luck::predictable(seed);
    if scenario.has_auction() {
        let round = Round {
            case: &raw.case,
            orders: &raw.orders,
            expect: &raw.expect,
        };
        return run_auction(file, text, &round, &scenario, &seats, &luck);
    }
    if scenario.homes_are_chosen() {
        let round = Round {
            case: &raw.case,
            orders: &raw.orders,
            expect: &raw.expect,
        };
        return run_setup(file, text, &round, &scenario, &seats, &luck);
    }
    let state = scenario
        .start(&seats, &luck)
        .map_err(|e| fail(vec![Diagnostic::new(e.to_string())]))?;
    let mut orders = TurnOrders::new();
    let mut problems = Vec::new();
    for (who, body) in &raw.orders {
        let colour: Colour = match who.get_ref().parse() {
            Ok(c) if state.players.contains_key(&c) => c,
            _ => {
                problems.push(
                    Diagnostic::new(format!("`{}` does not play in this case", who.get_ref()))
                        .at(who.span()),
                );
                continue;
            }
        };
        let parsed = order_text::parse(body.get_ref(), &state.map);
        let base = content_start(text, body);
        for mut d in parsed.problems {
            d.span = match (base, d.span) {
                (Some(b), Some(s)) => Some(b + s.start..b + s.end),
                _ => Some(body.span()),
            };
            problems.push(d);
        }
        orders.insert(colour, parsed.orders);
    }
    if !problems.is_empty() {
        return Err(fail(problems));
    }
    let outcome = resolve::resolve(&state, &orders, &luck);
    let events: Vec<(String, bool)> = outcome
        .events
        .iter()
        .map(|e| (e.to_string(), e.is_failure()))
        .collect();
    let problems = check(&raw.expect, &outcome.state, &events);
    Ok(CaseResult {
        file: file.to_string(),
        rule: raw.case.rule,
        description: raw.case.description,
        problems,
    })
}

/// A case whose prestate lets players choose their homes: play the set-up round, each
/// player in the starting sequence sending their orders text as their set-up mail (no
/// text: the deadline passes and they take the default; a refused choice is a failure,
/// then the default), and check the turn-0 state.
/// The parts of a case a set-up round reads.
struct Round<'a> {
    case: &'a Header,
    orders: &'a BTreeMap<Spanned<String>, Spanned<String>>,
    expect: &'a Expect,
}

/// The colour an `[orders]` key of a round case names, if that player plays.
fn seat_of(who: &Spanned<String>, state: &State) -> Result<Colour, Diagnostic> {
    match who.get_ref().parse::<Colour>() {
        Ok(c) if state.players.contains_key(&c) => Ok(c),
        _ => Err(
            Diagnostic::new(format!("`{}` does not play in this case", who.get_ref()))
                .at(who.span()),
        ),
    }
}

fn run_setup(
    file: &str,
    text: &str,
    raw: &Round<'_>,
    scenario: &Scenario,
    seats: &[Seat],
    luck: &judge_core::luck::Luck,
) -> Result<CaseResult, Diagnostics> {
    let fail = |items: Vec<Diagnostic>| Diagnostics {
        file: file.to_string(),
        source: text.to_string(),
        items,
    };
    let mut setup = scenario
        .start_setup(seats, luck)
        .map_err(|e| fail(vec![Diagnostic::new(e.to_string())]))?;
    let mut mails: BTreeMap<Colour, &str> = BTreeMap::new();
    for (who, body) in raw.orders {
        let c = seat_of(who, &setup.state).map_err(|d| fail(vec![d]))?;
        mails.insert(c, body.get_ref().as_str());
    }
    let mut events: Vec<(String, bool)> = Vec::new();
    while let Some(p) = setup.next() {
        let mut step = setup.choose(p, mails.get(&p).copied());
        if step.outcome == crate::setup::Outcome::Refused {
            let why: Vec<String> = step.diagnostics.iter().map(|d| d.message.clone()).collect();
            events.push((format!("set-up {p}: failed: {}", why.join("; ")), true));
            step = setup.choose(p, None);
        }
        let failed = !matches!(
            step.outcome,
            crate::setup::Outcome::Chose(_) | crate::setup::Outcome::Defaulted(_)
        );
        events.push((format!("set-up {p}: {}", step.outcome), failed));
        if failed {
            break;
        }
        setup = step.setup;
    }
    let state = setup.finish().unwrap_or(setup.state);
    let problems = check(raw.expect, &state, &events);
    Ok(CaseResult {
        file: file.to_string(),
        rule: raw.case.rule.clone(),
        description: raw.case.description.clone(),
        problems,
    })
}

/// A case whose prestate plays jumpstart: the auction, each player's orders text holding
/// their bid mails in turn, separated by lines `---` (a missing or empty one: the
/// deadline passes and they bid the default; a refused bid is a failure, then the
/// default), and check the turn-0 state.
fn run_auction(
    file: &str,
    text: &str,
    raw: &Round<'_>,
    scenario: &Scenario,
    seats: &[Seat],
    luck: &judge_core::luck::Luck,
) -> Result<CaseResult, Diagnostics> {
    use crate::modules::jumpstart::Outcome;
    let fail = |items: Vec<Diagnostic>| Diagnostics {
        file: file.to_string(),
        source: text.to_string(),
        items,
    };
    let mut auction = scenario
        .start_auction(seats, luck)
        .map_err(|e| fail(vec![Diagnostic::new(e.to_string())]))?;
    let mut mails: BTreeMap<Colour, Vec<String>> = BTreeMap::new();
    for (who, body) in raw.orders {
        let c = seat_of(who, &auction.state).map_err(|d| fail(vec![d]))?;
        let chunks = body
            .get_ref()
            .split("\n---\n")
            .map(|s| s.trim().to_string())
            .collect();
        mails.insert(c, chunks);
    }
    let mut events: Vec<(String, bool)> = vec![(
        format!(
            "auction: {} bids first",
            auction
                .order
                .first()
                .map_or("nobody".to_string(), ToString::to_string)
        ),
        false,
    )];
    let mut sent: BTreeMap<Colour, usize> = BTreeMap::new();
    // Each bid returns at most one donkey, so the bidding ends; the bound is a guard.
    for _ in 0..1000 {
        let Some(p) = auction.next() else { break };
        let k = sent.entry(p).or_insert(0);
        let mail = mails
            .get(&p)
            .and_then(|m| m.get(*k))
            .filter(|m| !m.is_empty())
            .cloned();
        *k += 1;
        let mut step = auction.bid(p, mail.as_deref());
        if step.outcome == Outcome::Refused {
            let why: Vec<String> = step.diagnostics.iter().map(|d| d.message.clone()).collect();
            events.push((format!("auction {p}: failed: {}", why.join("; ")), true));
            step = auction.bid(p, None);
        }
        let failed = !matches!(step.outcome, Outcome::Bid { .. });
        events.push((format!("auction {p}: {}", step.outcome), failed));
        if failed {
            break;
        }
        auction = step.auction;
    }
    let state = auction.finish().unwrap_or(auction.state);
    let problems = check(raw.expect, &state, &events);
    Ok(CaseResult {
        file: file.to_string(),
        rule: raw.case.rule.clone(),
        description: raw.case.description.clone(),
        problems,
    })
}

/// The rule a case file says it checks.
pub fn rule_of(path: &Path) -> Result<String, Diagnostics> {
    #[derive(Deserialize)]
    struct Only {
        case: Header,
    }
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let doc: toml::Table = toml::from_str(&text).map_err(|e| Diagnostics {
        file: name.clone(),
        source: text.clone(),
        items: vec![Diagnostic::new(scenario::toml_message(&e)).at_opt(e.span())],
    })?;
    let case = doc
        .get("case")
        .cloned()
        .unwrap_or(toml::Value::Table(toml::Table::new()));
    let only: Only = toml::Value::Table(toml::Table::from_iter([("case".to_string(), case)]))
        .try_into()
        .map_err(|e: toml::de::Error| Diagnostics {
            file: name,
            source: text,
            items: vec![Diagnostic::new(e.message().to_string())],
        })?;
    Ok(only.case.rule)
}

/// Read and run a case file.
pub fn run_file(path: &Path) -> Result<CaseResult, Diagnostics> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Diagnostics {
        file: name.clone(),
        source: String::new(),
        items: vec![Diagnostic::new(format!("cannot read the case: {e}"))],
    })?;
    run(&name, &text)
}

fn check(x: &Expect, s: &State, events: &[(String, bool)]) -> Vec<String> {
    let mut p = Vec::new();
    let area = |text: &str, p: &mut Vec<String>| -> Option<AreaId> {
        s.map
            .resolve_area(text)
            .map_err(|e| p.push(format!("expect: {e}")))
            .ok()
    };
    for (a, want) in &x.goods {
        if let Some(id) = area(a, &mut p) {
            let got = s.goods.get(&id).cloned().unwrap_or_default();
            if &got != want {
                p.push(format!("goods at {id}: expected {want}, found {got}"));
            }
        }
    }
    for (name, want) in &x.transporters {
        let Ok(id) = name.parse::<TransporterId>() else {
            p.push(format!("expect: `{name}` is not a transporter id"));
            continue;
        };
        let Some(t) = s.transporters.get(&id) else {
            p.push(format!("{id}: expected to exist, but it does not"));
            continue;
        };
        if let Some(at) = &want.at {
            match at
                .parse::<Location>()
                .and_then(|l| l.place(&s.map, t.kind, t.owner).or(Ok(l)))
            {
                Ok(l) if l != t.at => p.push(format!("{id}: expected at {l}, found at {}", t.at)),
                Ok(_) => {}
                Err(e) => p.push(format!("expect: {e}")),
            }
        }
        if let Some(c) = &want.cargo
            && c != &t.cargo
        {
            p.push(format!("{id}: expected carrying {c}, found {}", t.cargo));
        }
        if want.owner.is_some_and(|o| o != t.owner) {
            p.push(format!(
                "{id}: expected owner {:?}, found {}",
                want.owner, t.owner
            ));
        }
        if want.kind.is_some_and(|k| k != t.kind) {
            p.push(format!(
                "{id}: expected a {:?}, found a {}",
                want.kind, t.kind
            ));
        }
        if want.following_geese.is_some_and(|g| g != t.following_geese) {
            p.push(format!(
                "{id}: expected {:?} geese following, found {}",
                want.following_geese, t.following_geese
            ));
        }
    }
    for name in &x.gone {
        if let Ok(id) = name.parse::<TransporterId>()
            && s.transporters.contains_key(&id)
        {
            p.push(format!(
                "{id}: expected gone, but it is still at {}",
                s.transporters[&id].at
            ));
        }
    }
    for (c, n) in &x.fleet {
        let got = s.transporters_of(*c).count();
        if got != *n {
            p.push(format!("{c}: expected {n} transporters, found {got}"));
        }
    }
    for (h, want) in &x.buildings {
        let Ok(hex) = h.parse() else {
            p.push(format!("expect: `{h}` is not a hex"));
            continue;
        };
        let got: Vec<BuildingKind> = s.buildings_on(hex).map(|b| b.kind).collect();
        let got_text = if got.is_empty() {
            "none".to_string()
        } else {
            got.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        if got_text != want.to_ascii_lowercase() {
            p.push(format!(
                "building at {hex}: expected {want}, found {got_text}"
            ));
        }
    }
    for (h, want) in &x.mines {
        let got = h
            .parse()
            .ok()
            .and_then(|hex| s.buildings_on(hex).find_map(|b| b.mine));
        if got != Some(*want) {
            p.push(format!(
                "mine at {h}: expected {}/{}, found {got:?}",
                want.gold, want.iron
            ));
        }
    }
    for (c, want) in &x.research {
        let got: Vec<Research> = s
            .players
            .get(c)
            .map(|pl| pl.research.iter().copied().collect())
            .unwrap_or_default();
        let mut want = want.clone();
        want.sort();
        if got != want {
            p.push(format!("{c} research: expected {want:?}, found {got:?}"));
        }
    }
    if let Some(want) = &x.wonder {
        let got: Vec<String> = s
            .wonder
            .bricks
            .iter()
            .filter(|b| **b != Brick::Skipped)
            .map(ToString::to_string)
            .collect();
        let want: Vec<String> = want.iter().map(|w| w.to_ascii_lowercase()).collect();
        if got != want {
            p.push(format!("wonder: expected {want:?}, found {got:?}"));
        }
    }
    for (b, want) in &x.walls {
        let Ok(border) = b.parse::<Border>() else {
            p.push(format!("expect: `{b}` is not a border"));
            continue;
        };
        let got = s.map.wall(border).copied();
        let ok = match got {
            None => want.tokens == 0,
            Some(w) => {
                w.tokens == want.tokens
                    && want.owner.as_deref().unwrap_or("neutral")
                        == w.owner.map_or("neutral", |o| o.name())
            }
        };
        if !ok {
            p.push(format!(
                "wall on {border}: expected {want:?}, found {got:?}"
            ));
        }
    }
    if let Some(want) = &x.roads {
        let mut w = Vec::new();
        for [a, b] in want {
            if let (Some(a), Some(b)) = (area(a, &mut p), area(b, &mut p)) {
                w.push(Road::new(a, b));
            }
        }
        w.sort();
        let got: Vec<Road> = s.map.roads.iter().copied().collect();
        if got != w {
            p.push(format!("roads: expected {w:?}, found {got:?}"));
        }
    }
    if let Some(want) = &x.power_lines {
        let mut w = Vec::new();
        for [a, b] in want {
            if let (Some(a), Some(b)) = (area(a, &mut p), area(b, &mut p)) {
                w.push(Road::new(a, b));
            }
        }
        w.sort();
        let got: Vec<Road> = s.map.power_lines.iter().copied().collect();
        if got != w {
            p.push(format!("power lines: expected {w:?}, found {got:?}"));
        }
    }
    if let Some(want) = &x.bridges {
        let got: Vec<String> = s.map.bridges.iter().map(|b| b.hex.to_string()).collect();
        let mut want: Vec<String> = want.iter().map(|w| w.to_ascii_uppercase()).collect();
        want.sort();
        if got != want {
            p.push(format!("bridges: expected {want:?}, found {got:?}"));
        }
    }
    if let Some(want) = &x.move_order
        && want != &s.move_order
    {
        p.push(format!(
            "move order: expected {want:?}, found {:?}",
            s.move_order
        ));
    }
    for (c, want) in &x.bids {
        let got = s.bids.get(c).copied().unwrap_or(0);
        if got != *want {
            p.push(format!("{c} bid: expected {want}, found {got}"));
        }
    }
    let scores = score::scores(s);
    for (c, want) in &x.score {
        let got = scores.get(c).map_or(0, |sc| sc.total);
        if got != *want {
            p.push(format!("{c} score: expected {want}, found {got}"));
        }
    }
    if let Some(want) = x.game_over
        && want != s.game_over.is_some()
    {
        p.push(format!(
            "game over: expected {want}, found {:?}",
            s.game_over
        ));
    }
    if let Some(want) = x.turn
        && want != s.turn
    {
        p.push(format!("turn: expected {want}, found {}", s.turn));
    }
    for (c, want) in &x.homes {
        let got = s.players.get(c).and_then(|pl| pl.home);
        match s.map.resolve_area(want) {
            Ok(a) if got != Some(a) => p.push(format!(
                "{c}'s home: expected {a}, found {}",
                got.map_or("none".to_string(), |h| h.to_string())
            )),
            Ok(_) => {}
            Err(e) => p.push(format!("expect: {e}")),
        }
    }
    let texts: Vec<String> = events.iter().map(|(t, _)| t.to_lowercase()).collect();
    let failed: Vec<String> = events
        .iter()
        .filter(|(_, f)| *f)
        .map(|(t, _)| t.clone())
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
            p.push(format!(
                "no event says `{w}`; events: {:?}",
                events.iter().map(|(t, _)| t).collect::<Vec<_>>()
            ));
        }
    }
    p
}
