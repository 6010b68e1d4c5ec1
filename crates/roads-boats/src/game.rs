//! Roads & Boats as the play-by-email pipeline sees it ([`judge_core::pbem::game`]): the one
//! place where the game's own types meet the pipeline's.

use std::path::Path;

use std::collections::BTreeSet;

use super::State;
use super::events::Event;
use super::goods::Good;
use super::player::Colour;
#[cfg(feature = "reports")]
use super::report::render;
use super::report::{self as turn_report, changes, picture};
use super::scenario::{self, Scenario};
use super::setup_round::PreGame;
use super::{cases, check, order_text, play, show};
use judge_core::diagnostic::did_you_mean;
use judge_core::json::stable_json;
use judge_core::pbem::game::{
    CaseOutcome, Checked, Created, Game, GameError, Header, OrderFile, Played, Position,
    RandomGame, Report, ReportInput, Round, ScenarioInfo, Seat, SeatRequest, Seeds, Selfplay,
    Start,
};

/// Roads & Boats, with Planes & Trains and the &cetera modules.
pub struct RoadsAndBoats;

/// The most of anything a state may hold in one place: far more than any game makes, far
/// less than where arithmetic on counts could overflow.
const MOST: u32 = 1_000_000;

/// Read a state file, refusing one no game can reach: what [`Game::position`] reads, and
/// the order checker in the player's browser (crates/order-checker) checks from.
pub fn read_state(json: &str) -> Result<State, GameError> {
    let state: State = serde_json::from_str(json).map_err(|e| {
        GameError::corrupt(format!(
            "the state does not read as a Roads & Boats game: {e}"
        ))
    })?;
    possible(&state)?;
    Ok(state)
}

/// Refuse a state no game can reach (hand-edited counts at the top of the range, say):
/// every count of goods, cargo, geese and mine contents stays under [`MOST`].
fn possible(state: &State) -> Result<(), GameError> {
    let too_many = |n: u32, what: String| {
        (n > MOST).then(|| {
            format!(
                "{n} {what}: no game holds that many (at most {MOST}); the state was edited by hand"
            )
        })
    };
    let mut problems = Vec::new();
    for (area, goods) in &state.goods {
        for (g, n) in goods.iter() {
            problems.extend(too_many(n, format!("{g} at {area}")));
        }
    }
    for (id, t) in &state.transporters {
        for (g, n) in t.cargo.iter() {
            problems.extend(too_many(n, format!("{g} on {id}")));
        }
        problems.extend(too_many(t.following_geese, format!("geese following {id}")));
    }
    for b in &state.buildings {
        if let Some(m) = &b.mine {
            problems.extend(too_many(
                m.gold.max(m.iron),
                format!("gold or iron in the mine at {}", b.at),
            ));
        }
    }
    match problems.first() {
        Some(p) => Err(GameError::corrupt(p.clone())),
        None => Ok(()),
    }
}

fn colour(id: &str) -> Option<Colour> {
    id.parse().ok()
}

fn info(s: &Scenario) -> ScenarioInfo {
    let land = s
        .setup()
        .map
        .tiles
        .values()
        .filter(|t| t.terrain.is_land())
        .count();
    let seats = format!(
        "{} player{},",
        s.players,
        if s.players == 1 { "" } else { "s" }
    );
    let modules: Vec<String> = s
        .setup()
        .settings
        .modules
        .iter()
        .map(|m| m.to_string())
        .collect();
    ScenarioInfo {
        name: s.name.clone(),
        line: format!(
            "{:<14} {seats:<11} {land:>2} land tiles  {}  [{}]",
            s.name,
            s.title,
            if modules.is_empty() {
                "no modules".to_string()
            } else {
                modules.join(", ")
            }
        ),
    }
}

/// A bundled scenario by name, or a scenario file by path: (name for messages, text).
fn scenario_by_name(name: &str) -> Result<(String, String), GameError> {
    let bundled = scenario::bundled();
    if let Some(text) = bundled.get(name) {
        return Ok((format!("scenarios/{name}.toml"), (*text).to_string()));
    }
    let path = Path::new(name);
    if path.is_file() {
        let text = std::fs::read_to_string(path)
            .map_err(|e| GameError::input(format!("cannot read {}: {e}", path.display())))?;
        return Ok((path.display().to_string(), text));
    }
    let hint = match did_you_mean(name, bundled.keys().copied()) {
        Some(s) => format!("did you mean `{s}`?"),
        None => {
            let names: Vec<&str> = bundled.keys().copied().collect();
            format!(
                "the bundled scenarios are {}; or give the path of a .toml file",
                names.join(", ")
            )
        }
    };
    Err(GameError::input(format!(
        "there is no bundled scenario `{name}` and no file of that name"
    ))
    .with_hint(hint))
}

/// A scenario for self-play by name, bundled or a file's path: as `judge new` reads it.
fn selfplay_scenario(name: &str) -> Result<Scenario, GameError> {
    let (file, text) = scenario_by_name(name)?;
    Scenario::parse(&file, &text).map_err(|d| GameError::input(d.render()))
}

/// Why `bots` seats cannot play `name`, a scenario for `players`: with the bundled
/// scenarios that would seat them.
fn seats_mismatch(name: &str, players: usize, bots: usize) -> GameError {
    let fits: Vec<&str> = scenario::bundled()
        .into_iter()
        .filter(|(n, text)| Scenario::parse(n, text).is_ok_and(|s| s.players == bots))
        .map(|(n, _)| n)
        .collect();
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let error = GameError::input(format!(
        "--bots: the scenario {name} is for {}, and --bots names {bots}",
        plural(players, "player")
    ));
    let name_them = format!("name {}", plural(players, "bot"));
    if fits.is_empty() {
        error.with_hint(name_them)
    } else {
        error.with_hint(format!(
            "for {}: --scenario {}; or {name_them}",
            plural(bots, "player"),
            fits.join(" or --scenario ")
        ))
    }
}

impl Game for RoadsAndBoats {
    /// Self-play with bots only (`judge selfplay roads-boats --bots caretaker,random`):
    /// there are no random legal-move games of Roads & Boats on an engine of actions.
    fn selfplay(&self) -> Vec<Selfplay> {
        vec![Selfplay {
            id: "roads-boats",
            title: "Roads & Boats",
            players: 1..=6,
            seats: &["red", "yellow", "green", "blue", "purple", "orange"],
        }]
    }

    fn bots(&self, id: &str) -> &'static [&'static str] {
        match id {
            "roads-boats" => &["planner", "stand-in", "caretaker", "random", "idle"],
            _ => &[],
        }
    }

    /// Whole games on a scenario, bundled or a file (two-rivers unless named): each turn
    /// the caretakers' files (`crate::bot`), the random players' and nothing from the
    /// idle seats, played by the judge's resolver as by mail, to the game's end (or 200 turns); the winner is the
    /// first of the final ranking.
    fn bot_player(
        &self,
        id: &str,
        bots: &[String],
        scenario_name: Option<&str>,
    ) -> Result<Box<dyn FnMut(u64) -> RandomGame>, GameError> {
        if id != "roads-boats" {
            return Err(GameError::input(format!(
                "`{id}` is not a self-play of Roads & Boats (roads-boats is)"
            )));
        }
        // 0 idle, 1 caretaker, 2 random, 3 planner, 4 the planner as a stand-in (the
        // caretaker of a game by mail: `judge bot`), which keeps what scores.
        let kinds: Vec<u8> = bots
            .iter()
            .map(|b| match b.as_str() {
                "idle" => Some(0),
                "caretaker" => Some(1),
                "random" => Some(2),
                "planner" => Some(3),
                "stand-in" => Some(4),
                _ => None,
            })
            .collect::<Option<_>>()
            .ok_or_else(|| {
                GameError::input(format!(
                    "--bots: Roads & Boats's bots are {}",
                    self.bots(id).join(", ")
                ))
            })?;
        let name = scenario_name.unwrap_or("two-rivers").to_string();
        let parsed = selfplay_scenario(&name)?;
        if parsed.players != bots.len() {
            return Err(seats_mismatch(&name, parsed.players, bots.len()));
        }
        Ok(Box::new(move |seed| {
            let seats: Vec<scenario::Seat> = (0..kinds.len())
                .map(|i| scenario::Seat {
                    name: format!("bot{i}"),
                    email: format!("bot{i}@example.org"),
                })
                .collect();
            let luck = judge_core::luck::Luck::predictable(seed);
            // A set-up round is played with the defaults of players who miss it.
            let Ok(mut s) = parsed.start_by_default(&seats, &luck) else {
                return RandomGame::default();
            };
            let mut orders = 0;
            // Each seat's furthest good along the chain, as a step of CHAIN.
            let mut furthest: Vec<Option<usize>> = vec![None; kinds.len()];
            while s.game_over.is_none() && s.turn < 200 {
                let files: Vec<play::OrderFile> = Colour::SEATS
                    .iter()
                    .zip(&kinds)
                    .enumerate()
                    .filter(|(_, (c, kind))| **kind > 0 && s.players.contains_key(c))
                    .map(|(i, (c, kind))| play::OrderFile {
                        player: *c,
                        text: if *kind == 1 {
                            bot_orders(&s, *c)
                        } else if *kind >= 3 {
                            crate::bot::planner::orders_as(
                                &s,
                                *c,
                                None,
                                &crate::bot::refusals(&s, *c),
                                if *kind == 3 {
                                    crate::bot::planner::Role::Opponent
                                } else {
                                    crate::bot::planner::Role::StandIn
                                },
                            )
                        } else {
                            crate::bot::random_orders(
                                &s,
                                *c,
                                seed ^ (u64::from(s.turn) << 8) ^ i as u64,
                                &crate::bot::refusals(&s, *c),
                            )
                        },
                    })
                    .collect();
                orders += files.len() as u32;
                let r = play::play(&s, &files, &luck).resolution;
                for (i, c) in Colour::SEATS.iter().enumerate().take(kinds.len()) {
                    for g in goods_in_hand(&s, &r.state, &r.events, *c) {
                        let step = CHAIN.iter().position(|x| *x == g);
                        furthest[i] = furthest[i].max(step);
                    }
                }
                s = r.state;
            }
            let places: Vec<usize> = super::resolve::score::ranking(&s)
                .iter()
                .filter_map(|(c, _)| Colour::SEATS.iter().position(|x| x == c))
                .collect();
            // Each seat's score and the bricks it laid on the wonder.
            let scores = super::resolve::score::scores(&s);
            let seated = &Colour::SEATS[..kinds.len()];
            let score: Vec<i64> = seated
                .iter()
                .map(|c| scores.get(c).map_or(0, |sc| sc.total))
                .collect();
            let bricks: Vec<i64> = seated
                .iter()
                .map(|c| {
                    s.wonder
                        .bricks
                        .iter()
                        .filter(|b| **b == crate::wonder::Brick::Player(*c))
                        .count() as i64
                })
                .collect();
            let research: Vec<i64> = seated
                .iter()
                .map(|c| s.players.get(c).map_or(0, |p| p.research.len() as i64))
                .collect();
            let mut tallies = vec![
                ("score", score),
                ("wonder bricks", bricks),
                ("research", research),
            ];
            // Where &cetera art is in play: the artwork aboard at the end (20 points each;
            // a carving is not on CHAIN, the goods of production).
            if s.settings.modules.contains(&super::state::Module::Art) {
                let art: Vec<i64> = seated
                    .iter()
                    .map(|c| {
                        s.transporters
                            .values()
                            .filter(|t| t.owner == *c)
                            .flat_map(|t| t.cargo.iter())
                            .filter(|(g, _)| g.is_artwork())
                            .map(|(_, n)| i64::from(n))
                            .sum()
                    })
                    .collect();
                tallies.push(("artwork aboard", art));
            }
            RandomGame {
                winner: places.first().copied().filter(|_| s.game_over.is_some()),
                turns: s.turn,
                actions: orders,
                places: if s.game_over.is_some() {
                    places
                } else {
                    Vec::new()
                },
                tallies,
                steps: vec![judge_core::pbem::game::Steps {
                    name: "furthest good",
                    scale: &CHAIN_NAMES,
                    reached: furthest,
                }],
            }
        }))
    }

    fn order_guide(&self) -> (&'static str, &'static str) {
        (
            "One order per line, under a phase's heading (`production`, `movement`, `building`, `wonder`); `#` starts a comment. For example `move D1: load 2 boards; C4; unload 2 boards`, `build sawmill at C3 with D1`, `bricks 2 paying 1 board, 2 stone`. `judge check` (and every answer) says what each line will do.",
            "docs/orders.md",
        )
    }

    fn order_guide_text(&self) -> &'static str {
        include_str!("../../../docs/orders.md")
    }

    fn id(&self) -> &'static str {
        "roads-and-boats"
    }

    fn title(&self) -> &'static str {
        "Roads & Boats"
    }

    /// Header lines, or a phase heading: `production`, `movement`, `building`, `wonder`.
    fn looks_like_orders(&self, text: &str) -> bool {
        judge_core::text::has_header_line(text)
            || judge_core::text::plain_lines(text).any(|w| {
                matches!(
                    w.as_str(),
                    "production" | "movement" | "building" | "wonder"
                )
            })
    }

    fn scenarios(&self) -> Result<Vec<ScenarioInfo>, GameError> {
        scenario::bundled()
            .into_iter()
            .map(|(name, text)| {
                Scenario::parse(&format!("scenarios/{name}.toml"), text)
                    .map(|s| info(&s))
                    .map_err(|d| GameError::internal(format!("bundled scenario is broken:\n{d}")))
            })
            .collect()
    }

    fn check_scenario(&self, file: &str, text: &str) -> Result<ScenarioInfo, GameError> {
        Scenario::parse(file, text)
            .map(|s| info(&s))
            .map_err(|d| GameError::input(d.render()))
    }

    fn generate(&self, players: usize, options: &[String], seed: u64) -> Result<String, GameError> {
        use super::state::Module;
        let mut modules = Vec::new();
        for name in options {
            let m = Module::ALL
                .into_iter()
                .find(|m| m.name() == name.trim())
                .ok_or_else(|| {
                    let all: Vec<&str> = Module::ALL.iter().map(|m| m.name()).collect();
                    GameError::input(format!("--modules: `{name}` is not a module"))
                        .with_hint(format!("the modules are {}", all.join(", ")))
                })?;
            modules.push(m);
        }
        scenario::generate(players, &modules, seed).map_err(|e| GameError::input(e.to_string()))
    }

    fn scenario_text(&self, scenario: &str) -> Result<(String, String), GameError> {
        scenario_by_name(scenario)
    }

    fn start(
        &self,
        file: &str,
        text: &str,
        _name: &str,
        seats: &[SeatRequest],
        seeds: &Seeds,
    ) -> Result<Created, GameError> {
        let s = Scenario::parse(file, text).map_err(|d| GameError::input(d.render()))?;
        let requests: Vec<scenario::Seat> = seats
            .iter()
            .map(|r| scenario::Seat {
                name: r.name.clone(),
                email: r.email.clone(),
            })
            .collect();
        // A scenario whose players choose their homes, or bid for their starting lots,
        // begins with a round by mail.
        let start = if s.has_auction() {
            let round = s
                .start_auction(&requests, &seeds.luck)
                .map_err(|e| GameError::input(e.to_string()))?;
            Start::Round(
                stable_json(&PreGame::Auction(round))
                    .map_err(|e| GameError::internal(e.to_string()))?,
            )
        } else if s.homes_are_chosen() {
            let round = s
                .start_setup(&requests, &seeds.luck)
                .map_err(|e| GameError::input(e.to_string()))?;
            Start::Round(
                stable_json(&PreGame::Homes(round))
                    .map_err(|e| GameError::internal(e.to_string()))?,
            )
        } else {
            let state = s
                .start(&requests, &seeds.luck)
                .map_err(|e| GameError::input(e.to_string()))?;
            Start::Ready(stable_json(&state).map_err(|e| GameError::internal(e.to_string()))?)
        };
        Ok(Created {
            scenario: s.name.clone(),
            scenario_text: text.to_string(),
            seats: Colour::SEATS
                .iter()
                .zip(seats)
                .map(|(c, r)| Seat {
                    id: c.name().to_string(),
                    name: r.name.clone(),
                    email: r.email.clone(),
                })
                .collect(),
            start,
        })
    }

    fn position(&self, state: &str) -> Result<Box<dyn Position>, GameError> {
        Ok(Box::new(read_state(state)?))
    }

    fn round(&self, round: &str) -> Result<Box<dyn Round>, GameError> {
        let r: PreGame = serde_json::from_str(round).map_err(|e| {
            GameError::corrupt(format!("the round before turn 1 does not read: {e}"))
        })?;
        Ok(Box::new(r))
    }

    fn report(&self, input: &ReportInput<'_>) -> Result<Box<dyn Report>, GameError> {
        let before = read_state(input.before)?;
        let after = read_state(input.after)?;
        let events: Vec<Event> = serde_json::from_str(input.events)
            .map_err(|e| GameError::corrupt(format!("the events: {e}")))?;
        let orders: Vec<(Colour, &str)> = input
            .orders
            .iter()
            .filter_map(|f| Some((colour(&f.player)?, f.text.as_str())))
            .collect();
        let standing: Vec<Colour> = input.standing.iter().filter_map(|s| colour(s)).collect();
        let caretaker: Vec<Colour> = input.caretaker.iter().filter_map(|s| colour(s)).collect();
        let model = turn_report::build(
            input.game,
            &before,
            &events,
            &after,
            &orders,
            &turn_report::Others {
                standing: &standing,
                caretaker: &caretaker,
            },
            input.deadline.clone(),
        );
        // What the turn did, marked on its picture.
        let changes = changes::of_turn(&before, &events, &after);
        Ok(Box::new(TurnReport {
            model,
            after,
            changes,
        }))
    }

    fn run_case(&self, path: &Path) -> Result<CaseOutcome, GameError> {
        let r = cases::run_file(path).map_err(|d| GameError::input(d.render()))?;
        Ok(CaseOutcome {
            rule: r.rule,
            problems: r.problems,
        })
    }

    fn case_rule(&self, path: &Path) -> Result<String, GameError> {
        cases::rule_of(path).map_err(|d| GameError::input(d.render()))
    }
}

struct TurnReport {
    model: turn_report::Report,
    after: State,
    /// What the turn did, for its picture.
    changes: changes::Changes,
}

impl TurnReport {
    fn title(&self) -> String {
        if self.model.turn == 0 {
            format!("{}: the board at the start", self.model.game)
        } else {
            format!(
                "{}: the board after turn {}",
                self.model.game, self.model.turn
            )
        }
    }
}

/// The report's text through its template.
#[cfg(feature = "reports")]
fn report_text(model: &turn_report::Report, template: Option<&str>) -> Result<String, GameError> {
    render::text(model, template).map_err(|e| GameError::input(format!("the report template: {e}")))
}

/// Built without the `reports` feature (the order checker, which never asks for one):
/// no template engine to render it with.
#[cfg(not(feature = "reports"))]
fn report_text(model: &turn_report::Report, template: Option<&str>) -> Result<String, GameError> {
    let _ = (model, template);
    Err(GameError::internal(
        "this build of Roads & Boats writes no reports (its `reports` feature is off)",
    ))
}

impl Report for TurnReport {
    fn text(&self, template: Option<&str>, viewer: Option<&str>) -> Result<String, GameError> {
        let model = match viewer {
            None => std::borrow::Cow::Borrowed(&self.model),
            Some(v) => std::borrow::Cow::Owned(turn_report::Report {
                viewer: Some(v.to_string()),
                ..self.model.clone()
            }),
        };
        report_text(&model, template)
    }

    /// The report's section "The map" (the default template's, a GM's own too when
    /// it keeps the heading).
    fn map_section(&self) -> Option<&'static str> {
        Some("The map")
    }

    fn svg(&self) -> String {
        picture::turn_svg(&self.after, &self.title(), &self.changes)
    }

    fn png(&self) -> Result<Vec<u8>, GameError> {
        picture::turn_png(&self.after, &self.title(), &self.changes)
            .map_err(|e| GameError::internal(e.to_string()))
    }

    fn json(&self) -> Result<String, GameError> {
        stable_json(&self.model).map_err(|e| GameError::internal(e.to_string()))
    }

    fn tally(&self) -> judge_core::pbem::game::Tally {
        super::report::tally(&self.after)
    }
}

impl Position for State {
    fn turn(&self) -> u32 {
        self.turn
    }

    fn over(&self) -> Option<String> {
        self.game_over.clone()
    }

    /// The final ranking (rulebook, end of the game: the most points wins; RULINGS R2:
    /// a tie goes to the player later in the move order), so no two share a place.
    fn places(&self) -> Vec<Vec<String>> {
        if self.game_over.is_none() {
            return Vec::new();
        }
        super::resolve::score::ranking(self)
            .into_iter()
            .map(|(c, _)| vec![c.name().to_string()])
            .collect()
    }

    fn seats(&self) -> Vec<Seat> {
        self.move_order
            .iter()
            .map(|c| {
                let p = self.players.get(c);
                Seat {
                    id: c.name().to_string(),
                    name: p.map(|p| p.name.clone()).unwrap_or_default(),
                    email: p.map(|p| p.email.clone()).unwrap_or_default(),
                }
            })
            .collect()
    }

    fn header(&self, text: &str) -> Header {
        let h = order_text::parse(text, &self.map).header;
        Header {
            game: h.game,
            player: h.player.map(|c| c.name().to_string()),
            turn: h.turn,
            secret: h.secret,
            standing: h.standing,
        }
    }

    fn check(&self, text: &str, file: &str, player: Option<&str>, game: Option<&str>) -> Checked {
        let checked = check::check(
            self,
            text,
            &check::Expect {
                player: player.and_then(colour),
                game,
            },
        );
        Checked {
            player: checked.player.map(|c| c.name().to_string()),
            turn: checked.turn,
            text: check::render_text(&checked, file, text),
            echo: serde_json::to_value(&checked.echo).unwrap_or_default(),
            diagnostics: checked.diagnostics,
        }
    }

    fn renamed(
        &self,
        names: &std::collections::BTreeMap<String, String>,
    ) -> Option<Result<String, GameError>> {
        let mut me = self.clone();
        for (seat, name) in names {
            if let Some(p) = colour(seat).and_then(|c| me.players.get_mut(&c)) {
                p.name.clone_from(name);
            }
        }
        Some(stable_json(&me).map_err(|e| GameError::internal(e.to_string())))
    }

    fn play(
        &self,
        files: &[OrderFile],
        luck: &judge_core::luck::Luck,
    ) -> Result<Played, GameError> {
        let files = files
            .iter()
            .map(|f| {
                colour(&f.player)
                    .filter(|c| self.players.contains_key(c))
                    .map(|player| play::OrderFile {
                        player,
                        text: f.text.clone(),
                    })
                    .ok_or_else(|| {
                        GameError::input(format!("{} does not play in this game", f.player))
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let played = play::play(self, &files, luck);
        let r = &played.resolution;
        let failures = r.events.iter().filter(|e| e.is_failure()).count();
        let silent: Vec<&str> = self
            .move_order
            .iter()
            .filter(|c| !files.iter().any(|f| f.player == **c))
            .map(|c| c.name())
            .collect();
        let summary = format!(
            "Turn {} resolved: {}, {} failed or partly done.{}",
            self.turn + 1,
            judge_core::text::count(r.events.len(), "event"),
            judge_core::text::count(failures, "order"),
            if silent.is_empty() {
                String::new()
            } else {
                format!(" No orders from {}.", silent.join(", "))
            }
        );
        Ok(Played {
            state: stable_json(&r.state).map_err(|e| GameError::internal(e.to_string()))?,
            events: stable_json(&r.events).map_err(|e| GameError::internal(e.to_string()))?,
            problems: played
                .problems
                .into_iter()
                .map(|(c, p)| (c.name().to_string(), p))
                .collect(),
            summary,
            over: r.state.game_over.clone(),
            acted: None,
        })
    }

    fn show(&self, title: &str) -> String {
        show::render(self, title)
    }

    /// The state with every player's address left out (the order checker reads none):
    /// the site shows no address.
    fn site_state(&self) -> Option<Result<String, GameError>> {
        let mut s = self.clone();
        for p in s.players.values_mut() {
            p.email.clear();
        }
        Some(stable_json(&s).map_err(|e| GameError::internal(e.to_string())))
    }

    fn bot_summary(&self, seat: &str, file: &str) -> Option<String> {
        let me = colour(seat).filter(|c| self.players.contains_key(c))?;
        Some(crate::bot::summary(self, me, file))
    }

    fn bot(&self, game: &str, seat: &str) -> Option<Result<String, GameError>> {
        Some(
            match colour(seat).filter(|c| self.players.contains_key(c)) {
                Some(me) => Ok(crate::bot::planner::orders(
                    self,
                    me,
                    Some(game),
                    &crate::bot::refusals(self, me),
                )),
                None => Err(GameError::input(format!(
                    "`{seat}` is not a seat of this game"
                ))),
            },
        )
    }

    /// docs/orders.md: "A line holding only a phase name — `production`, `movement`,
    /// `building` or `wonder` — starts that phase's orders"; the seat's transporters are
    /// listed under movement as comments, where they stand and what they carry.
    ///
    /// Each example line (`# make …`, `# move D1: C3`, `# build …`,
    /// `# road …`, `# bricks …`) names the seat's own transporters and a place where it
    /// works as things stand: it is made from the seat's pieces and the rules' own
    /// tables (`resolve::range`, `resolve::buildable`) and kept only if `judge check`
    /// accepts it alone; where none works, a comment says so instead.
    fn template(&self, seat: &str) -> String {
        let Some(me) = colour(seat) else {
            return String::new();
        };
        kept_template(self, me, || fresh_template(self, me))
    }

    /// The order writer: the template, and what the page's script draws on
    /// the map, all public (the state file is): each of the seat's transporters with
    /// where it stands, what it carries and what lies there, each place it reaches and
    /// the path there (the template's own `resolve::range`), and each place where it can
    /// build what (`resolve::buildable`), with the goods at home for the wonder.
    fn writer(&self, seat: &str) -> Option<judge_core::pbem::game::Writer> {
        let me = colour(seat)?;
        Some(judge_core::pbem::game::Writer {
            body: self.template(seat),
            model: writer_model(self, me).to_string(),
            script: include_str!("writer.js"),
            intro: "Click one of your transporters on the map: the places it reaches light up; click one to move there. Click a green + where your transporters can build for what fits there."
                .to_string(),
        })
    }

    fn end(&self, why: &str) -> Result<Played, GameError> {
        if self.game_over.is_some() {
            return Err(GameError::input("the game is over already"));
        }
        let r = super::resolve::end(self, why);
        Ok(Played {
            state: stable_json(&r.state).map_err(|e| GameError::internal(e.to_string()))?,
            events: stable_json(&r.events).map_err(|e| GameError::internal(e.to_string()))?,
            problems: Default::default(),
            summary: format!("Turn {}: the GM ended the game.", self.turn + 1),
            over: r.state.game_over.clone(),
            acted: None,
        })
    }
}

/// The bot's file for `me`, every line of it checked by the judge's checker.
/// Where a transporter can get this turn (each place with the movement points
/// left there, and the goods lying there) and what stops its first step (a wall, a river
/// without a bridge, a tile with no road for a wagon), as comment lines of the template.
/// Also the steps of a `move` to the first place listed (`C3; C4`), if any.
fn reach_lines(
    s: &State,
    id: crate::transporter::TransporterId,
    at: crate::transporter::Location,
) -> (String, Option<String>) {
    use crate::refusal::Refusal;
    let (reached, stopped) = super::resolve::range(s, id);
    let first = reached.first().map(|r| {
        r.path
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    });
    let kind = s.transporters.get(&id).map(|t| t.kind);
    let mut out = String::new();
    let lying = |l: crate::transporter::Location| match l {
        crate::transporter::Location::Land(a) => s.goods_at(a).filter(|g| !g.is_empty()),
        _ => None,
    };
    if let Some(g) = lying(at) {
        out.push_str(&format!("#   here: {g}\n"));
    }
    let plane = kind == Some(crate::transporter::Kind::Plane);
    // The modules' ways of moving (planes' flight, trains' ride), a line each.
    let module_lines = crate::modules::reach_lines(s, id);
    if reached.is_empty() {
        if module_lines.is_empty() {
            out.push_str("#   goes nowhere this turn\n");
        }
    } else {
        let places: Vec<String> = reached
            .iter()
            .map(|r| {
                let mut notes = Vec::new();
                match r.left {
                    0 => {}
                    1 => notes.push("1 step left".to_string()),
                    n => notes.push(format!("{n} steps left")),
                }
                if let Some(g) = lying(r.at) {
                    notes.push(format!("{g} there"));
                }
                if notes.is_empty() {
                    r.at.to_string()
                } else {
                    format!("{} ({})", r.at, notes.join(", "))
                }
            })
            .collect();
        let verb = if plane { "taxis to" } else { "reaches" };
        out.push_str(&format!("#   {verb}: {}\n", places.join("; ")));
    }
    for line in module_lines {
        out.push_str(&format!("#   {line}\n"));
    }
    let stops: Vec<String> = stopped
        .iter()
        .filter_map(|st| {
            let why = match &st.why {
                Refusal::WallBars { owner: Some(o), .. } => format!("{o}'s wall"),
                Refusal::WallBars { owner: None, .. } => "a wall".to_string(),
                Refusal::NoBridgeAcross { .. } | Refusal::RiverBetween { .. } => {
                    "the river, no bridge".to_string()
                }
                Refusal::OnlyOnRoads { .. } => "no road".to_string(),
                _ => return None,
            };
            Some(format!("{} ({why})", st.at))
        })
        .collect();
    if !stops.is_empty() {
        out.push_str(&format!("#   not to: {}\n", stops.join("; ")));
    }
    (out, first)
}

/// How many lines an example is chosen from at most: each is checked in full.
const EXAMPLES_TRIED: usize = 24;

/// The first of `candidates` that works as things stand: `judge
/// check` accepts it alone under `heading`, as `me`'s orders against this state, and
/// its dry run says what it does (an order that would do nothing, as in a game that is
/// over, is no example).
fn first_that_checks(
    s: &State,
    me: Colour,
    heading: &str,
    candidates: impl IntoIterator<Item = String>,
) -> Option<String> {
    candidates.into_iter().take(EXAMPLES_TRIED).find(|line| {
        let text = format!(
            "player {}\nturn {}\n{heading}\n{line}\n",
            me.name(),
            s.turn + 1
        );
        let c = check::check(
            s,
            &text,
            &check::Expect {
                player: Some(me),
                game: None,
            },
        );
        c.errors() == 0 && c.echo.iter().any(|e| !e.outcome.is_empty())
    })
}

/// The land areas where `me`'s transporters stand, each with the first of them there.
fn stands(s: &State, me: Colour) -> Vec<(crate::map::AreaId, crate::transporter::TransporterId)> {
    let mut out: Vec<(crate::map::AreaId, crate::transporter::TransporterId)> = Vec::new();
    for (id, t) in s.transporters_of(me) {
        if let crate::transporter::Location::Land(a) = t.at
            && !out.iter().any(|(b, _)| *b == a)
        {
            out.push((a, *id));
        }
    }
    out
}

/// A `make` at a factory where one of `me`'s transporters stands,
/// one of its recipes, from that transporter, that `judge check` accepts.
fn make_example(s: &State, me: Colour) -> Option<String> {
    use crate::building::Output;
    let mut candidates = Vec::new();
    for (id, t) in s.transporters_of(me) {
        let crate::transporter::Location::Land(a) = t.at else {
            continue;
        };
        for b in s.buildings_on(a.hex).filter(|b| b.at == a) {
            for r in b.kind.recipes() {
                candidates.push(match r.output {
                    Output::Good(g) => format!("make {} at {a} from {id}", g.counted(1)),
                    Output::Transporter(k) => format!("make {} at {a} from {id}", k.name()),
                });
            }
        }
    }
    first_that_checks(s, me, "production", candidates)
}

/// A road from where one of `me`'s transporters stands, with a
/// stone there or aboard, to a neighbouring area, that `judge check` accepts.
fn road_example(s: &State, me: Colour) -> Option<String> {
    use crate::goods::Good;
    let mut candidates = Vec::new();
    for (a, _) in stands(s, me) {
        let stone_there = s.goods_at(a).is_some_and(|g| g.count(Good::Stone) > 0);
        let Some(with) = s
            .transporters_of(me)
            .find(|(_, t)| {
                t.at == crate::transporter::Location::Land(a)
                    && (stone_there || t.cargo.count(Good::Stone) > 0)
            })
            .map(|(id, _)| *id)
        else {
            continue;
        };
        for (_, n) in s.map.neighbours(a.hex) {
            for b in s.map.areas(n) {
                candidates.push(format!("road {a} {b} with {with}"));
            }
        }
    }
    first_that_checks(s, me, "building", candidates)
}

/// A brick paid with one good lying at `me`'s home, that `judge
/// check` accepts.
fn bricks_example(s: &State, me: Colour) -> Option<String> {
    let home = s.players.get(&me)?.home?;
    let candidates: Vec<String> = s
        .goods_at(home)?
        .iter()
        .map(|(g, _)| format!("bricks 1 paying {}", g.counted(1)))
        .collect();
    first_that_checks(s, me, "wonder", candidates)
}

/// "for each tile the player can build on this turn: which buildings fit its
/// terrain and what is missing to pay for them". Each place where one of `me`'s
/// transporters stands, with the buildings the building phase's own rule
/// (`resolve::buildable`) lets it build there as the goods lie now, those short of goods
/// (and of how many), those that need research first, or that the tile is full; and
/// each build it allows, as an order (the template's example).
fn build_lines(s: &State, me: Colour) -> (String, Vec<String>) {
    use crate::refusal::Refusal;
    use crate::transporter::Location;
    let mut sites: std::collections::BTreeMap<
        crate::map::AreaId,
        crate::transporter::TransporterId,
    > = std::collections::BTreeMap::new();
    for (id, t) in s.transporters_of(me) {
        let areas = match t.at {
            Location::Land(a) => vec![a],
            Location::Dock(c) => vec![c.land],
            Location::River(h) => s.map.areas(h),
            Location::Sea(h) => vec![crate::map::AreaId::whole(h)],
            Location::Carried(_) => Vec::new(),
        };
        for a in areas {
            sites.entry(a).or_insert(*id);
        }
    }
    let (mut out, mut examples) = (String::new(), Vec::new());
    for (at, with) in sites {
        let (mut can, mut short, mut research, mut other) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut full = None;
        for (kind, verdict) in super::resolve::buildable(s, with, at) {
            match verdict {
                Ok(()) => can.push(kind.name().to_string()),
                Err(Refusal::NotEnoughGoods { missing }) => {
                    let lack: Vec<String> = missing
                        .iter()
                        .map(|m| m.good.counted(m.needed.saturating_sub(m.there)))
                        .collect();
                    short.push(format!("{} ({})", kind.name(), lack.join(", ")));
                }
                Err(Refusal::NeedsResearch { research: r, .. }) => {
                    research.push(if r.to_string() == kind.name() {
                        kind.name().to_string()
                    } else {
                        format!("{} ({r})", kind.name())
                    });
                }
                Err(Refusal::NoRoom { rule, .. }) => full = Some(rule),
                Err(Refusal::Desert { .. } | Refusal::NotInPlay { .. }) => {}
                Err(why) => other.push(format!("{} ({why})", kind.name())),
            }
        }
        examples.extend(can.iter().map(|k| format!("build {k} at {at} with {with}")));
        let rows = match full {
            Some(why) => vec![format!("full ({why})")],
            None => [
                ("can build", can),
                ("short of goods", short),
                ("research first", research),
                ("not", other),
            ]
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(what, v)| format!("{what}: {}", v.join(", ")))
            .collect(),
        };
        match rows.as_slice() {
            [] => {}
            [one] => out.push_str(&format!("# {at} with {with}: {one}\n")),
            more => {
                out.push_str(&format!("# {at} with {with}:\n"));
                for r in more {
                    out.push_str(&format!("#   {r}\n"));
                }
            }
        }
    }
    if !out.is_empty() {
        out.insert_str(
            0,
            "# where your transporters stand, as the goods lie now:\n",
        );
    }
    (out, examples)
}

/// What the order writer's script works from (see `writer`).
fn writer_model(s: &State, me: Colour) -> serde_json::Value {
    use crate::report::picture::{point, writer_mark};
    use crate::transporter::{Kind, Location};
    use serde_json::json;
    let goods = |g: Option<&crate::goods::Goods>| -> Vec<serde_json::Value> {
        g.map(|g| g.iter().map(|(g, n)| json!([g.name(), n])).collect())
            .unwrap_or_default()
    };
    let lying = |at: Location| match at {
        Location::Land(a) => goods(s.goods_at(a)),
        _ => Vec::new(),
    };
    let xy = |at: Location| point(s, at).map(|(x, y)| json!([x, y]));
    // The marks writer.js draws, clear of the tiles' names: a place reached is a ring of
    // radius 12 (its stroke 3 wide) on the place; a place to build, an 18-unit square `+`
    // (stroke 2) above it.
    let mark =
        |at: Location, lift: f32, r: f32| writer_mark(s, at, lift, r).map(|(x, y)| json!([x, y]));
    let mut transporters = Vec::new();
    for (id, t) in s.transporters_of(me) {
        if matches!(t.at, Location::Carried(_)) {
            continue;
        }
        let (reached, _) = super::resolve::range(s, *id);
        let reach: Vec<_> = reached
            .iter()
            .map(|r| {
                json!({
                    "at": r.at.to_string(),
                    "xy": mark(r.at, 0.0, 13.5),
                    "left": r.left,
                    "path": r.path.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    "goods": lying(r.at),
                })
            })
            .collect();
        transporters.push(json!({
            "id": id.to_string(),
            "kind": t.kind.name(),
            "at": t.at.to_string(),
            "xy": xy(t.at),
            "cargo": goods(Some(&t.cargo)),
            "here": lying(t.at),
            "plane": t.kind == Kind::Plane,
            "reach": reach,
        }));
    }
    // Each place where the seat's transporters stand on land, with all of them (the page
    // builds with one that is not moving away).
    let mut standing: std::collections::BTreeMap<crate::map::AreaId, Vec<_>> =
        std::collections::BTreeMap::new();
    for (id, t) in s.transporters_of(me) {
        if let Location::Land(at) = t.at {
            standing.entry(at).or_default().push(*id);
        }
    }
    let mut sites = Vec::new();
    for (at, with) in standing {
        let can: Vec<&str> = super::resolve::buildable(s, with[0], at)
            .into_iter()
            .filter(|(_, v)| v.is_ok())
            .map(|(k, _)| k.name())
            .collect();
        if !can.is_empty() {
            sites.push(json!({
                "at": at.to_string(),
                "xy": mark(Location::Land(at), 21.0, 10.0),
                "with": with.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "can": can,
            }));
        }
    }
    let home = s
        .players
        .get(&me)
        .and_then(|p| p.home)
        .map(|h| goods(s.goods_at(h)))
        .unwrap_or_default();
    // The name of one of each good (`1 board`, not `1 boards`).
    let one: serde_json::Map<String, serde_json::Value> = crate::goods::Good::ALL
        .iter()
        .map(|g| (g.name().to_string(), json!(g.singular())))
        .collect();
    json!({ "transporters": transporters, "sites": sites, "home": home, "one": one })
}

/// The chain of goods self-play follows a player along, lowest first: the primary
/// goods, then each made from those before (rulebook: production).
const CHAIN: [Good; 10] = [
    Good::Trunks,
    Good::Clay,
    Good::Stone,
    Good::Boards,
    Good::Paper,
    Good::Fuel,
    Good::Iron,
    Good::Gold,
    Good::Coins,
    Good::Stock,
];

/// [`CHAIN`]'s goods by name.
const CHAIN_NAMES: [&str; 10] = [
    "trunks", "clay", "stone", "boards", "paper", "fuel", "iron", "gold", "coins", "stock",
];

/// The goods in `me`'s hands after a turn (`before`: the state it began from): carried
/// by its transporters, come to its home (more of them than lay there before: the
/// goods it starts with are not its making), and loaded, unloaded, paid into bricks or
/// research by its orders.
fn goods_in_hand(before: &State, s: &State, events: &[Event], me: Colour) -> BTreeSet<Good> {
    use crate::events::Fact;
    let mut seen = BTreeSet::new();
    for t in s.transporters.values().filter(|t| t.owner == me) {
        seen.extend(t.cargo.iter().map(|(g, _)| g));
    }
    if let Some(home) = s.players.get(&me).and_then(|p| p.home)
        && let Some(now) = s.goods_at(home)
    {
        let was = before.goods_at(home).cloned().unwrap_or_default();
        seen.extend(
            now.iter()
                .filter(|(g, n)| *n > was.count(*g))
                .map(|(g, _)| g),
        );
    }
    for e in events.iter().filter(|e| e.player == Some(me)) {
        match &e.fact {
            Fact::Loaded { goods, .. }
            | Fact::Unloaded { goods, .. }
            | Fact::BricksPlaced { paid: goods, .. }
            | Fact::Researched { paid: goods, .. } => seen.extend(goods.iter().map(|(g, _)| g)),
            _ => {}
        }
    }
    seen
}

fn bot_orders(s: &State, me: Colour) -> String {
    crate::bot::orders(s, me, None, &crate::bot::refusals(s, me))
}

/// The template of `me`'s order file (`Position::template`), made afresh: its examples
/// are each checked by a dry run of the turn.
fn fresh_template(s: &State, me: Colour) -> String {
    let mut out = String::new();
    // A finished game plays no more orders: no example works.
    if let Some(why) = &s.game_over {
        out.push_str(&format!(
            "# the game is over ({why}): no order is played\n\n"
        ));
    }
    out.push_str("production\n");
    out.push_str(&match make_example(s, me) {
        Some(line) => format!("# {line}     (docs/orders.md, Production)\n"),
        None => "# nothing to make where your transporters stand (docs/orders.md, Production)\n"
            .to_string(),
    });
    out.push_str("\nmovement\n");
    let mine: Vec<_> = s
        .transporters
        .iter()
        .filter(|(_, t)| t.owner == me)
        .collect();
    if mine.is_empty() {
        out.push_str("# you have no transporters\n");
    }
    for (id, t) in mine {
        let at = match t.at {
            crate::transporter::Location::Carried(_) => t.at.to_string(),
            at => format!("at {at}"),
        };
        let cargo = if t.cargo.is_empty() {
            String::new()
        } else {
            format!(", carrying {}", t.cargo)
        };
        out.push_str(&format!("# {} {at}{cargo}\n", t.kind.name()));
        let (reach, first) = reach_lines(s, *id, t.at);
        out.push_str(&reach);
        // The way to the first place listed: a move that works as things stand.
        // A plane lands where it stands, else on a tile next to it that takes it.
        let examples: Vec<String> = if t.kind == crate::transporter::Kind::Plane {
            let near = t.at.hex().into_iter().flat_map(|h| s.map.neighbours(h));
            std::iter::once(format!("fly {id}: land"))
                .chain(near.map(|(_, n)| format!("fly {id}: land {n}")))
                .collect()
        } else {
            first
                .map(|path| format!("move {id}: {path}"))
                .into_iter()
                .collect()
        };
        if let Some(line) = first_that_checks(s, me, "movement", examples) {
            out.push_str(&format!("# {line}\n"));
        }
    }
    out.push_str("\nbuilding\n");
    let (table, builds) = build_lines(s, me);
    out.push_str(&table);
    out.push_str(&match first_that_checks(s, me, "building", builds) {
        Some(line) => format!("# {line}\n"),
        None => "# nothing your transporters can build where they stand\n".to_string(),
    });
    out.push_str(&match road_example(s, me) {
        Some(line) => format!("# {line}\n"),
        None => "# nowhere a road can be built from where your transporters stand\n".to_string(),
    });
    out.push_str("\nwonder\n");
    out.push_str(&match bricks_example(s, me) {
        Some(line) => format!("# {line}\n"),
        None => "# nothing at your home to pay for a brick\n".to_string(),
    });
    out
}

/// `make` for `me` in `s`, or what it made last for the same position and seat. A
/// step asks for a seat's template more than once (the answer to each mail of the
/// seat's, the order writer's page), and making one dry-runs the turn for each example:
/// the last few are kept, each with the whole position it was made of. The template is
/// a pure function of the position and the seat, so keeping it changes no result.
fn kept_template(s: &State, me: Colour, make: impl FnOnce() -> String) -> String {
    /// Templates kept per thread: every seat of a game.
    const KEPT: usize = 6;
    thread_local! {
        static KEPT_TEMPLATES: std::cell::RefCell<Vec<(State, Colour, String)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let found = KEPT_TEMPLATES.with(|kept| {
        kept.borrow()
            .iter()
            .find(|(k, c, _)| *c == me && k == s)
            .map(|(_, _, t)| t.clone())
    });
    if let Some(t) = found {
        return t;
    }
    let t = make();
    KEPT_TEMPLATES.with(|kept| {
        let mut kept = kept.borrow_mut();
        if kept.len() >= KEPT {
            kept.remove(0);
        }
        kept.push((s.clone(), me, t.clone()));
    });
    t
}
