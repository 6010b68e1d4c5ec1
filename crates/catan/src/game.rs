//! Catan as the play-by-email pipeline sees it ([`judge_core::pbem::game`]): the one place
//! where this game's own types meet the pipeline's. A "turn" of the archive is one step
//! of the judge: a founding placement, or one player's whole turn.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::Deserialize;

use super::board::layout::Layout;
use super::colour::Colour;
use super::events::Event;
use super::state::{Options, State};
use judge_core::diagnostic::did_you_mean;
use judge_core::pbem::game::{
    CaseOutcome, Checked, Created, Game, GameError, Header, Mismatch, OrderFile, Pace, Played,
    Position, RandomGame, Report, ReportInput, ScenarioInfo, Seat, SeatRequest, Seeds, Selfplay,
    Start,
};

/// The Settlers of Catan, base game with the 5–6 player extension; or the Catan Express
/// scenario on top of it (one registration each in src/games.rs).
pub struct Catan {
    express: bool,
}

/// Base Catan.
pub static CATAN: Catan = Catan { express: false };
/// Catan Express (docs/catan-express.md).
pub static CATAN_EXPRESS: Catan = Catan { express: true };

/// A Catan "scenario": the board and the points that win; for Catan Express, its map.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Setup {
    name: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    layout: Layout,
    #[serde(default = "ten")]
    points_to_win: u8,
    /// Catan Express on this map (`island` or `beyond`).
    #[serde(default)]
    express: Option<super::scenario::Map>,
}

fn ten() -> u8 {
    10
}

/// The bundled Catan Express set-ups, by name.
const EXPRESS_BUNDLED: [(&str, &str); 3] = [
    (
        "island",
        "# Catan Express on the judge's island: a main island and an ore islet across a\n# strait, where ferries matter (docs/catan-express.md).\nname = \"island\"\ntitle = \"Catan Express: the island and the ore islet\"\nexpress = \"island\"\n",
    ),
    (
        "beyond",
        "# Catan Express beyond the island, on a board drawn from the seed: ferries run to\n# the centres of sea hexes.\nname = \"beyond\"\ntitle = \"Catan Express beyond the island (random board)\"\nlayout = \"random\"\nexpress = \"beyond\"\n",
    ),
    (
        "beyond-beginner",
        "# Catan Express beyond the island, on the beginners' board.\nname = \"beyond-beginner\"\ntitle = \"Catan Express beyond the island (beginners' board)\"\nlayout = \"beginner\"\nexpress = \"beyond\"\n",
    ),
];

/// The bundled set-ups, by name.
const BUNDLED: [(&str, &str); 2] = [
    (
        "beginner",
        "# The board for a first game: fixed terrain, numbers and harbours.\nname = \"beginner\"\ntitle = \"The beginners' board\"\nlayout = \"beginner\"\npoints_to_win = 10\n",
    ),
    (
        "random",
        "# A board drawn from the game's seed: terrain, numbers (no 6 or 8 side by side)\n# and harbours.\nname = \"random\"\ntitle = \"A random board\"\nlayout = \"random\"\npoints_to_win = 10\n",
    ),
];

fn read_setup(file: &str, text: &str) -> Result<Setup, GameError> {
    toml::from_str(text).map_err(|e| GameError::input(format!("{file}: {}", e.message())))
}

/// Read a state file: what [`Game::position`] reads, and the order checker in the
/// player's browser (crates/order-checker) checks from.
pub fn read_state(json: &str) -> Result<State, GameError> {
    State::from_json(json)
        .map_err(|e| GameError::corrupt(format!("the state does not read as a Catan game: {e}")))
}

/// Read a position's public record: what [`Game::public_position`] reads, and the order
/// checker in the player's browser (crates/order-checker) checks from.
pub fn read_public(record: &str) -> Result<State, GameError> {
    State::from_public_json(record).map_err(|e| GameError::corrupt(e.to_string()))
}

fn colour(id: &str) -> Option<Colour> {
    Colour::parse(id)
}

/// The value of a `secret` line, read as every order reader reads it.
fn secret_of(text: &str) -> Option<String> {
    text.lines()
        .find_map(judge_core::mail::redact::secret_line_value)
}

impl Catan {
    fn bundled(&self) -> &'static [(&'static str, &'static str)] {
        if self.express {
            &EXPRESS_BUNDLED
        } else {
            &BUNDLED
        }
    }
}

impl Game for Catan {
    fn order_guide_text(&self) -> &'static str {
        if self.express {
            include_str!("../../../docs/catan-express-orders.md")
        } else {
            include_str!("../../../docs/catan-orders.md")
        }
    }

    fn order_guide(&self) -> (&'static str, &'static str) {
        if self.express {
            (
                "One file on record per player: under the header, `founding` for your placements, then the turn's orders (`line`, `ferry`, `settlement`, `city`, `buy card`, `move to …`), carried out in the order written; standing lines (`stopover`, `fares`) hold until replaced.",
                "docs/catan-express-orders.md",
            )
        } else {
            (
                "One file on record per player: under the header, `founding` for your placements, `before roll` for a card played before the dice, then the turn's orders (build, buy, trade, play), carried out in the order written; standing lines (robber, discards, acceptances) hold until replaced.",
                "docs/catan-orders.md",
            )
        }
    }

    fn id(&self) -> &'static str {
        if self.express {
            "catan-express"
        } else {
            "catan"
        }
    }

    fn title(&self) -> &'static str {
        if self.express {
            "Catan Express"
        } else {
            "Catan"
        }
    }

    fn pace(&self) -> Pace {
        Pace::OneAtATime
    }

    /// docs/catan.md, "Hidden information": whether the judge already holds a
    /// player's orders (so that the step may come at once) is told to that player
    /// alone; who sent orders is public once a step has played them.
    fn orders_in_public(&self) -> bool {
        false
    }

    /// Hands and the development deck are in every state; each player's cards in their
    /// report and orders: all stay out of git (as does the secret seed, randomness.key,
    /// for every game). What git keeps is the public record: game.toml (the players,
    /// the public seed of the board), the commitment to the secret seed, and each
    /// step's public report and picture.
    /// Header lines, or a line that begins as only an order does (`roll`, `build road
    /// 12-13`, `trade 4 wool for ore`; in Catan Express also `line`, `ferry`, …): so an
    /// attachment of bare orders is found beside a body of greetings.
    fn looks_like_orders(&self, text: &str) -> bool {
        judge_core::text::has_header_line(text)
            || judge_core::text::plain_lines(text).any(|w| {
                let first = w.split_whitespace().next().unwrap_or("");
                crate::orders::parse::ORDER_LINE_WORDS.contains(&first)
                    || (self.express && crate::orders::parse::EXPRESS_LINE_WORDS.contains(&first))
            })
    }

    fn private_files(&self) -> &'static [&'static str] {
        &[
            "/turns/*/state.json",
            "/turns/*/events.json",
            "/turns/*/reports/",
            "/turns/*/orders/",
        ]
    }

    fn default_scenario(&self) -> Option<&'static str> {
        Some(if self.express { "island" } else { "random" })
    }

    fn scenarios(&self) -> Result<Vec<ScenarioInfo>, GameError> {
        self.bundled()
            .iter()
            .map(|(name, text)| self.check_scenario(name, text))
            .collect()
    }

    fn check_scenario(&self, file: &str, text: &str) -> Result<ScenarioInfo, GameError> {
        let s = read_setup(file, text)?;
        // In Catan Express no score ends the game: 8 points start the race, whose end
        // ends it.
        let goal = if s.express.is_some() {
            format!("race at {} points", super::scenario::RACE_POINTS)
        } else {
            format!("{} points to win", s.points_to_win)
        };
        Ok(ScenarioInfo {
            name: s.name.clone(),
            line: format!("{:<16} 3-6 players  {goal}  {}", s.name, s.title),
        })
    }

    fn scenario_text(&self, scenario: &str) -> Result<(String, String), GameError> {
        if let Some((name, text)) = self.bundled().iter().find(|(n, _)| *n == scenario) {
            return Ok((format!("{}:{name}", self.id()), (*text).to_string()));
        }
        let path = Path::new(scenario);
        if path.is_file() {
            let text = std::fs::read_to_string(path)
                .map_err(|e| GameError::input(format!("cannot read {}: {e}", path.display())))?;
            return Ok((path.display().to_string(), text));
        }
        let names: Vec<&str> = self.bundled().iter().map(|(n, _)| *n).collect();
        Err(GameError::input(format!(
            "there is no Catan set-up `{scenario}` and no file of that name"
        ))
        .with_hint(match did_you_mean(scenario, names.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!("the set-ups are {}", names.join(", ")),
        }))
    }

    fn start(
        &self,
        file: &str,
        text: &str,
        name: &str,
        seats: &[SeatRequest],
        seeds: &Seeds,
    ) -> Result<Created, GameError> {
        let setup = read_setup(file, text)?;
        if setup.express.is_some() != self.express {
            return Err(GameError::input(format!(
                "{file}: this set-up is for {}, not {}",
                if setup.express.is_some() {
                    "Catan Express"
                } else {
                    "base Catan"
                },
                self.title()
            )));
        }
        let options = match setup.express {
            Some(map) => super::scenario::options(seats.len(), map, setup.layout),
            None => Options {
                layout: setup.layout,
                extension: seats.len() > 4,
                points_to_win: setup.points_to_win,
                ..Options::default()
            },
        };
        let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
        let state = State::with_luck(name, &names, seeds.public, seeds.luck.clone(), &options)
            .map_err(|e| GameError::input(e.to_string()))?;
        Ok(Created {
            scenario: setup.name,
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
            start: Start::Ready(state.to_json()),
        })
    }

    fn position(&self, state: &str) -> Result<Box<dyn Position>, GameError> {
        Ok(Box::new(read_state(state)?))
    }

    fn public_position(&self, record: &str) -> Result<Box<dyn Position>, GameError> {
        Ok(Box::new(read_public(record)?))
    }

    fn report(&self, input: &ReportInput<'_>) -> Result<Box<dyn Report>, GameError> {
        let before = read_state(input.before)?;
        let after = read_state(input.after)?;
        let events: Vec<Event> = serde_json::from_str(input.events)
            .map_err(|e| GameError::corrupt(format!("the events: {e}")))?;
        Ok(Box::new(StepReport {
            before,
            events,
            after,
            deadline: input.deadline.clone(),
            caretaker: input.caretaker.iter().filter_map(|s| colour(s)).collect(),
        }))
    }

    /// The first player (turn 0's `public.json`) and every roll (each step's
    /// `draws.json`), in order, each at its place in the seed's streams
    /// ([`crate::report::draws`]).
    fn draw_check(
        &self,
        luck: &judge_core::luck::Luck,
    ) -> Option<Box<dyn judge_core::pbem::game::DrawCheck>> {
        Some(Box::new(super::report::draws::Checker::new(luck.clone())))
    }

    fn run_case(&self, path: &Path) -> Result<CaseOutcome, GameError> {
        let r = super::cases::run_case_file(path).map_err(|d| GameError::input(d.render()))?;
        Ok(CaseOutcome {
            rule: r.rule,
            problems: r.problems,
        })
    }

    fn case_rule(&self, path: &Path) -> Result<String, GameError> {
        super::cases::rule_of(path).map_err(|d| GameError::input(d.render()))
    }

    fn selfplay(&self) -> Vec<Selfplay> {
        let one = |id, title| Selfplay {
            id,
            title,
            players: 3..=6,
            seats: &SEAT_NAMES,
        };
        if self.express {
            vec![
                one("catan-express", "Catan Express (the island)"),
                one("catan-express-beyond", "Catan Express beyond the island"),
            ]
        } else {
            vec![one("catan", "Catan")]
        }
    }

    fn bots(&self, id: &str) -> &'static [&'static str] {
        match (self.express, id) {
            (false, "catan") | (true, "catan-express" | "catan-express-beyond") => {
                &super::bot::selfplay::Bot::NAMES
            }
            _ => &[],
        }
    }

    /// On the beginners' board unless `scenario` names another bundled set-up (`judge
    /// selfplay catan --scenario random`: a board drawn from each game's seed).
    fn bot_player(
        &self,
        id: &str,
        bots: &[String],
        scenario: Option<&str>,
    ) -> Result<Box<dyn FnMut(u64) -> RandomGame>, GameError> {
        use super::scenario::Map;
        if !(3..=6).contains(&bots.len()) {
            return Err(GameError::input(format!(
                "--bots: Catan is for 3 to 6 players, not {}",
                bots.len()
            )));
        }
        let bots: Vec<super::bot::selfplay::Bot> = bots
            .iter()
            .map(|b| {
                super::bot::selfplay::Bot::parse(b).ok_or_else(|| {
                    GameError::input(format!(
                        "--bots: `{b}` is not one of Catan's bots ({})",
                        super::bot::selfplay::Bot::NAMES.join(", ")
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        let setup = match scenario {
            Some(name) => {
                let (_, text) =
                    self.bundled()
                        .iter()
                        .find(|(n, _)| *n == name)
                        .ok_or_else(|| {
                            GameError::input(format!(
                                "--scenario: there is no bundled set-up `{name}`"
                            ))
                        })?;
                Some((name, read_setup(name, text)?))
            }
            None => None,
        };
        let layout = setup.as_ref().map_or(Layout::Beginner, |(_, s)| s.layout);
        let express = |map: Map| {
            if let Some((name, s)) = setup.as_ref().filter(|(_, s)| s.express != Some(map)) {
                let what = match s.express {
                    Some(Map::Island) => "Catan Express on the island (catan-express)",
                    Some(Map::Beyond) => "Catan Express beyond the island (catan-express-beyond)",
                    None => "base Catan (catan)",
                };
                return Err(GameError::input(format!(
                    "--scenario: {name} is a set-up for {what}, not for `{id}`"
                )));
            }
            Ok(super::scenario::options(bots.len(), map, layout))
        };
        let options = match (self.express, id) {
            (false, "catan") => super::state::Options {
                layout,
                extension: bots.len() > 4,
                points_to_win: setup.as_ref().map_or(10, |(_, s)| s.points_to_win),
                ..super::state::Options::default()
            },
            (true, "catan-express") => express(Map::Island)?,
            (true, "catan-express-beyond") => express(Map::Beyond)?,
            _ => {
                return Err(GameError::input(format!(
                    "`{id}` is not a self-play of {}",
                    if self.express {
                        "Catan Express"
                    } else {
                        "Catan"
                    }
                )));
            }
        };
        let mut buf = Vec::new();
        Ok(Box::new(move |seed| {
            let r = super::bot::selfplay::play_bots(
                &options,
                &bots,
                seed,
                super::selfplay::ACTION_LIMIT,
                &mut buf,
            );
            RandomGame {
                winner: r.winner.map(usize::from),
                turns: r.turns,
                actions: r.actions,
                places: Vec::new(),
                tallies: Vec::new(),
                steps: Vec::new(),
            }
        }))
    }

    fn random_player(&self, id: &str) -> Option<Box<dyn FnMut(usize, u64) -> RandomGame>> {
        use super::scenario::{Map, play_random as express};
        let ended = |r: super::selfplay::GameResult| RandomGame {
            winner: r.winner.map(usize::from),
            turns: r.turns,
            actions: r.actions,
            places: Vec::new(),
            tallies: Vec::new(),
            steps: Vec::new(),
        };
        // Each player keeps one buffer of legal actions for all its games.
        let mut buf = Vec::new();
        match (self.express, id) {
            (false, "catan") => Some(Box::new(move |p, s| {
                ended(super::selfplay::play_random(p, s, &mut buf))
            })),
            (true, "catan-express") => Some(Box::new(move |p, s| {
                ended(express(p, s, Map::Island, &mut buf))
            })),
            (true, "catan-express-beyond") => Some(Box::new(move |p, s| {
                ended(express(p, s, Map::Beyond, &mut buf))
            })),
            _ => None,
        }
    }
}

/// The seats' names in seat order.
const SEAT_NAMES: [&str; 6] = {
    let mut names = [""; 6];
    let mut i = 0;
    while i < 6 {
        names[i] = Colour::SEATS[i].name();
        i += 1;
    }
    names
};

struct StepReport {
    before: State,
    events: Vec<Event>,
    after: State,
    deadline: Option<String>,
    /// The seats whose orders the caretaker wrote.
    caretaker: Vec<Colour>,
}

impl Report for StepReport {
    fn text(&self, _template: Option<&str>, viewer: Option<&str>) -> Result<String, GameError> {
        let mut text = super::report::text_with(
            &self.before,
            &self.events,
            &self.after,
            viewer.and_then(colour),
            &self.caretaker,
        );
        if let Some(d) = &self.deadline
            && self.after.winner.is_none()
        {
            // Whom the judge waits for depends on the orders on record: the public
            // and the others read only when the next step is due.
            let mine = viewer
                .and_then(colour)
                .is_some_and(|v| super::awaited(&self.after).contains(&v));
            let _ = writeln!(
                text,
                "\n  Next: turn {} is due by {d}{}.",
                self.after.step + 1,
                if mine { ": your orders, please" } else { "" }
            );
        }
        if let Some(v) = viewer.and_then(colour)
            && self.after.winner.is_none()
        {
            let _ = writeln!(
                text,
                "\n  Your next orders start with these lines, with your secret in place of\n  YOUR-SECRET (the judge never sends it):\n\n    game {}\n    player {v}\n    turn {}\n    secret YOUR-SECRET",
                self.after.name,
                self.after.step + 1
            );
        }
        Ok(text)
    }

    fn digest(&self, viewer: Option<&str>) -> Result<String, GameError> {
        let what = match self.before.phase {
            super::state::Phase::Founding { .. } => format!(
                "{}'s founding placement",
                self.before.colour(self.before.actor())
            ),
            _ => format!(
                "{}'s turn {}",
                self.before.colour(self.before.active),
                self.before.turn
            ),
        };
        Ok(format!(
            "Turn {} ({what}):\n{}",
            self.after.step,
            super::report::happened(&self.events, &self.after, viewer.and_then(colour))
        ))
    }

    fn svg(&self) -> String {
        super::step_picture(&self.before, &self.events, &self.after).to_svg()
    }

    fn png(&self) -> Result<Vec<u8>, GameError> {
        super::step_picture(&self.before, &self.events, &self.after)
            .png()
            .map_err(|e| GameError::internal(e.to_string()))
    }

    fn tally(&self) -> judge_core::pbem::game::Tally {
        super::report::tally(&self.after)
    }

    /// The report's section "II. The board" (`report::text_with`), Express's too.
    fn map_section(&self) -> Option<&'static str> {
        Some("The board")
    }

    /// The step's rolls (`draws.json`): public, as the report shows them.
    fn draws(&self) -> Option<String> {
        Some(super::report::draws::Draws::of_step(&self.before, &self.events).to_json())
    }

    fn json(&self) -> Result<String, GameError> {
        serde_json::to_string_pretty(&self.events)
            .map(|mut s| {
                s.push('\n');
                s
            })
            .map_err(|e| GameError::internal(e.to_string()))
    }
}

impl Position for State {
    // The archive's turns are the judge's steps (each founding placement or player's
    // turn is one), not Catan's count of player turns.
    #[allow(clippy::misnamed_getters)]
    fn turn(&self) -> u32 {
        self.step
    }

    fn over(&self) -> Option<String> {
        self.winner
            .map(|w| format!("{} won with {} points", self.colour(w), self.points(w)))
    }

    /// The rules name a winner and no other place (the first to reach the points
    /// wins; ended by the GM, the most points, a tie to the first in turn order):
    /// the winner, then everyone else together.
    fn places(&self) -> Vec<Vec<String>> {
        let Some(w) = self.winner else {
            return Vec::new();
        };
        let rest: Vec<String> = self
            .players
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != usize::from(w))
            .map(|(_, p)| p.colour.name().to_string())
            .collect();
        let mut places = vec![vec![self.colour(w).name().to_string()]];
        if !rest.is_empty() {
            places.push(rest);
        }
        places
    }

    fn seats(&self) -> Vec<Seat> {
        self.players
            .iter()
            .map(|p| Seat {
                id: p.colour.name().to_string(),
                name: p.name.clone(),
                email: String::new(),
            })
            .collect()
    }

    fn header(&self, text: &str) -> Header {
        let h = super::orders::parse::parse(text, self).orders.header;
        Header {
            game: h.game.map(|g| g.0),
            player: h.player.map(|p| p.0.name().to_string()),
            turn: h.turn.map(|t| t.0),
            secret: secret_of(text),
            standing: None,
        }
    }

    /// Orders may come early, for a later step: they wait on record.
    fn fits_turn(&self, turn: u32) -> Option<Mismatch> {
        (turn <= self.step).then_some(Mismatch::EarlierTurn(turn))
    }

    fn awaited(&self, files: &[OrderFile]) -> Vec<String> {
        let files: BTreeMap<Colour, String> = files
            .iter()
            .filter_map(|f| Some((colour(&f.player)?, f.text.clone())))
            .collect();
        let recorded = super::record(self, &files).state;
        super::awaited(&recorded)
            .into_iter()
            .map(|c| c.name().to_string())
            .collect()
    }

    fn check(&self, text: &str, file: &str, player: Option<&str>, game: Option<&str>) -> Checked {
        let header = super::orders::parse::parse(text, self).orders.header;
        let who = player
            .and_then(colour)
            .or(header.player.as_ref().map(|p| p.0));
        let Some(c) = who else {
            let d = judge_core::diagnostic::Diagnostic::new("the orders do not say whose they are")
                .at(0..text.find('\n').unwrap_or(text.len()))
                .help("start the file with a line naming your colour, like `player red`");
            return Checked {
                player: None,
                turn: self.step + 1,
                text: judge_core::diagnostic::Diagnostics {
                    file: file.to_string(),
                    source: text.to_string(),
                    items: vec![d.clone()],
                }
                .render(),
                echo: serde_json::Value::Array(Vec::new()),
                diagnostics: vec![d],
            };
        };
        let checked = super::check_orders(self, c, file, text);
        let mut items = checked.diagnostics.items.clone();
        // The checker has named a file for another game than the state's already.
        if let (Some(want), Some((got, span))) = (game, &header.game)
            && !got.eq_ignore_ascii_case(want)
            && !want.eq_ignore_ascii_case(&self.name)
        {
            items.push(
                judge_core::diagnostic::Diagnostic::new(format!(
                    "these orders are for the game `{got}`, not `{want}`"
                ))
                .at(span.clone())
                .help(format!("write `game {want}`")),
            );
        }
        let errors = items.iter().filter(|d| d.is_error()).count();
        let warnings = items.len() - errors;
        let count = judge_core::text::count;
        // Named by the player's own next step, not the next step's, when theirs comes
        // later.
        let mut out = format!(
            "Orders for {c}, turn {}: {}, {}.\n",
            self.next_step_of(c.name())
                .filter(|own| *own > self.step + 1)
                .unwrap_or(self.step + 1),
            count(errors, "error"),
            count(warnings, "warning")
        );
        if !items.is_empty() {
            let d = judge_core::diagnostic::Diagnostics {
                file: file.to_string(),
                source: text.to_string(),
                items: items.clone(),
            };
            let _ = writeln!(out, "\n{}", d.render().trim_end());
        }
        if !checked.echo.is_empty() {
            let _ = writeln!(out, "\nWhat these orders will do:");
            for e in checked.echo.iter().take(judge_core::text::SHOWN_LINES) {
                let _ = writeln!(out, "  {e}");
            }
            if let Some(more) = judge_core::text::not_shown(checked.echo.len()) {
                let _ = writeln!(out, "\n{more}");
            }
        }
        Checked {
            player: Some(c.name().to_string()),
            turn: self.step + 1,
            text: out,
            echo: serde_json::to_value(&checked.echo).unwrap_or_default(),
            diagnostics: items,
        }
    }

    /// Orders sent before one's own step are answered with that
    /// step's number. Each step is one founding placement, then one player's whole turn
    /// (the special building phase is played within it); a step of Catan Express's own
    /// cannot be told ahead.
    fn next_step_of(&self, seat: &str) -> Option<u32> {
        use super::state::Phase;
        let me = self.seat_of(colour(seat)?)?;
        let n = self.players.len() as u8;
        let after = |k: u8| self.step + 1 + u32::from(k);
        match self.phase {
            Phase::Founding { index, .. } => {
                if let Some(k) = (index..2 * n).find(|&k| self.founding_seat(k) == me) {
                    return Some(after(k - index));
                }
                if self.scenario.is_some() {
                    return None;
                }
                Some(after(2 * n - index + (me + n - self.first) % n))
            }
            Phase::BeforeRoll | Phase::Main if self.scenario.is_none() => {
                Some(after((me + n - self.active) % n))
            }
            _ => None,
        }
    }

    fn renamed(&self, names: &BTreeMap<String, String>) -> Option<Result<String, GameError>> {
        let mut me = self.clone();
        for p in &mut me.players {
            if let Some(name) = names.get(p.colour.name()) {
                p.name.clone_from(name);
            }
        }
        Some(Ok(me.to_json()))
    }

    fn play(
        &self,
        files: &[OrderFile],
        luck: &judge_core::luck::Luck,
    ) -> Result<Played, GameError> {
        let mut by: BTreeMap<Colour, String> = BTreeMap::new();
        for f in files {
            let c = colour(&f.player).ok_or_else(|| {
                GameError::input(format!("{} does not play in this game", f.player))
            })?;
            by.insert(c, f.text.clone());
        }
        let mut me = self.clone();
        me.luck = luck.clone();
        let out = super::play(&me, &by);
        let summary = format!(
            "Turn {} played: {} events.{}",
            out.state.step,
            out.events.len(),
            match super::awaited(&out.state).as_slice() {
                [] => String::new(),
                w => format!(
                    " Next: {}.",
                    w.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
                ),
            }
        );
        let over = out.state.over();
        // Whose orders were played: anyone with an order done, and the player whose step
        // it was unless the judge stood in for them. (An order that was not done is that
        // player's secret: it names no one here.)
        let owner = match self.phase {
            super::state::Phase::Founding { .. } => self.colour(self.actor()),
            _ => self.colour(self.active),
        };
        let mut acted: Vec<String> = out
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Order { player, .. } => Some(player.name().to_string()),
                _ => None,
            })
            .collect();
        if self.phase != super::state::Phase::Over
            && !out
                .events
                .iter()
                .any(|e| matches!(e, Event::Default { player, .. } if *player == owner))
        {
            acted.push(owner.name().to_string());
        }
        acted.sort();
        acted.dedup();
        Ok(Played {
            state: out.state.to_json(),
            events: {
                let mut s = serde_json::to_string_pretty(&out.events)
                    .map_err(|e| GameError::internal(e.to_string()))?;
                s.push('\n');
                s
            },
            problems: out
                .problems
                .into_iter()
                .map(|(c, p)| (c.name().to_string(), p))
                .collect(),
            summary,
            over,
            acted: Some(acted),
        })
    }

    fn public_record(&self) -> Option<String> {
        Some(self.public_json())
    }

    fn show(&self, title: &str) -> String {
        format!("{title}\n\n{}", super::report(self, &[], self, None))
    }

    /// The state keeps the game's name, for the `game` line.
    fn bot(&self, _game: &str, seat: &str) -> Option<Result<String, GameError>> {
        Some(match Colour::parse(seat) {
            Some(c) => crate::bot::orders(self, c, None),
            None => Err(GameError::input(format!(
                "`{seat}` is not a seat of this game"
            ))),
        })
    }

    /// docs/catan-orders.md and docs/catan-express-orders.md, "The template": the
    /// sections an order file has (founding, before the roll, the turn), each with an
    /// example as a comment, and what the seat may do as things stand (free founding
    /// places; where each piece may go, what the seat's hand can pay, its bank trades:
    /// [`crate::orders::template`]). It names the seat's own hand, so it goes to that
    /// seat alone (its report mail, its `template` answer).
    fn template(&self, seat: &str) -> String {
        match colour(seat).and_then(|c| self.seat_of(c)) {
            Some(s) => super::orders::template::template(self, s),
            None => String::new(),
        }
    }

    /// The order writer "for Catan, the board's legal places and the order
    /// syntax, since the hand is private": made from the public record alone (the
    /// hands hidden), so nothing private can reach the site. Base Catan only: Catan
    /// Express's rail lines are written by hand.
    fn writer(&self, seat: &str) -> Option<judge_core::pbem::game::Writer> {
        if matches!(self.options.variant, super::scenario::Variant::Express(_)) {
            return None;
        }
        let public = State::from_public_json(&self.public_json()).ok()?;
        let me = public.seat_of(colour(seat)?)?;
        Some(judge_core::pbem::game::Writer {
            body: super::orders::template::public_template(&public, me),
            model: writer_model(&public, me).to_string(),
            script: include_str!("writer.js"),
            intro: "The board lights where you may build as it stands: click a corner or an edge to write the order. Your hand is private: what it can pay is in your own report mail."
                .to_string(),
        })
    }

    fn end(&self, why: &str) -> Result<Played, GameError> {
        if self.phase == super::state::Phase::Over {
            return Err(GameError::input("the game is over already"));
        }
        let mut s = self.clone();
        let mut events = Vec::new();
        s.step += 1;
        s.end_by_gm(why, &mut events);
        let over = s.over();
        Ok(Played {
            state: s.to_json(),
            events: {
                let mut t = serde_json::to_string_pretty(&events)
                    .map_err(|e| GameError::internal(e.to_string()))?;
                t.push('\n');
                t
            },
            problems: BTreeMap::new(),
            summary: format!("Turn {}: the GM ended the game.", s.step),
            over,
            acted: Some(Vec::new()),
        })
    }
}

/// What the order writer's script works from (see `writer`): where the seat may found,
/// or build a settlement, a city or a road, as the public board stands, each place with
/// its name and where the picture draws it.
fn writer_model(s: &State, seat: u8) -> serde_json::Value {
    use super::report::picture::vertex_point;
    use serde_json::json;
    let t = &s.board.topology;
    let corner = |v: usize| json!({ "name": s.vertex_name(v), "xy": vertex_point(s, v) });
    let road = |e: usize| {
        let [a, b] = t.edges[e].ends;
        json!({ "name": s.edge_name(e), "ends": [vertex_point(s, a), vertex_point(s, b)] })
    };
    let founding = matches!(s.phase, super::state::Phase::Founding { .. });
    if founding {
        let places: Vec<_> = super::orders::template::founding_places(s, seat)
            .into_iter()
            .map(|v| {
                let mut c = corner(v);
                c["roads"] = t.vertices[v]
                    .edges
                    .iter()
                    .filter(|e| t.edges[**e].land)
                    .map(|e| road(*e))
                    .collect();
                c
            })
            .collect();
        return json!({ "founding": true, "settlements": places, "cities": [], "roads": [] });
    }
    let p = super::orders::template::places(s, seat);
    json!({
        "founding": false,
        "settlements": p.settlements.into_iter().map(corner).collect::<Vec<_>>(),
        "cities": p.cities.into_iter().map(corner).collect::<Vec<_>>(),
        "roads": p.roads.into_iter().map(road).collect::<Vec<_>>(),
    })
}
