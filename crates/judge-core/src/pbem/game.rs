//! What the play-by-email pipeline needs from a game, and nothing more.
//!
//! The archive, mail intake, turn runner, outbox, replay and the command line know a game
//! only through [`Game`] (the rules of one kind of game: how to start one, how to read a
//! stored position) and [`Position`] (one stored position: whose orders it awaits, how to
//! check and play them). States and events cross this line as the JSON the archive keeps,
//! so the pipeline never names a game's own types. A game registers itself with one line
//! in the `judge` program's registry ([`crate::registry::Games`]).

use std::collections::BTreeMap;
use std::path::Path;

use crate::diagnostic::Diagnostic;
pub use crate::error::{GameError, Kind};
use crate::luck::Luck;

/// A player's place at the table, as the pipeline sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// How the game names the seat in files and orders (`red`).
    pub id: String,
    /// The player's name.
    pub name: String,
    /// The player's address, if the game keeps it in its state (game.toml is the
    /// authority for addresses).
    pub email: String,
}

/// A player asking for a seat in a new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRequest {
    pub name: String,
    pub email: String,
}

/// The seeds a game is made from: a public one for what everyone sees from the start
/// (a random map or board), and the secret [`Luck`] that hidden draws come from (dice,
/// a shuffled deck, the move order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seeds {
    pub public: u64,
    pub luck: Luck,
}

impl Seeds {
    /// Both from one number (`judge new --seed N`, tests): predictable by anyone who
    /// knows it.
    pub fn predictable(n: u64) -> Seeds {
        Seeds {
            public: n,
            luck: Luck::predictable(n),
        }
    }
}

/// A new game, ready for the archive.
#[derive(Clone, Debug)]
pub struct Created {
    /// The scenario's name, kept in game.toml.
    pub scenario: String,
    /// The scenario as written, kept beside the game.
    pub scenario_text: String,
    /// The seats taken, in the order the players were given.
    pub seats: Vec<Seat>,
    /// The position at turn 0, as JSON; or, for a game that begins with a round by mail
    /// (players choosing where they start, an auction), that round.
    pub start: Start,
}

/// How a new game begins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// At turn 0: the position, as JSON.
    Ready(String),
    /// With a round by mail before turn 1 ([`Round`]), as JSON.
    Round(String),
}

/// A round by mail before turn 1, in which players act one at a time (choosing where
/// they start, say): each step takes one player's choice, or a default when they miss the
/// deadline, and the last gives the turn-0 position.
pub trait Round {
    /// The seats, in the order they act.
    fn seats(&self) -> Vec<Seat>;
    /// Whose choice the round waits for; `None` when it is over.
    fn next(&self) -> Option<String>;
    /// The header lines of a mail.
    fn header(&self, text: &str) -> Header;
    /// Check a mail for the round (as [`Position::check`]).
    fn check(&self, text: &str, file: &str, player: Option<&str>, game: Option<&str>) -> Checked;
    /// One step: `player`'s mail, or `None` when they missed the deadline.
    fn step(&self, player: &str, text: Option<&str>) -> Result<RoundStep, GameError>;
    /// What the round is and how a player writes their part: what `judge new`, the
    /// welcome mail and the mail asking a player for their choice say of it.
    fn guide(&self) -> RoundGuide;
    /// The round so far, for people: what has been chosen, who chooses next.
    fn show(&self) -> String;
    /// A picture of the board as the round stands.
    fn picture(&self) -> crate::picture::Picture;
}

/// A round by mail explained to the players, in the round's own words (the shared code
/// knows none of its words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundGuide {
    /// What the players do, to follow "the game begins with a round by mail:": `the
    /// players choose where they start, one at a time`.
    pub what: String,
    /// How a player writes their part, to follow "when it is your turn,": `mail the
    /// header lines and one line naming your choice ...`.
    pub how: String,
    /// A line that would do as the round stands, for a mail's template.
    pub example: String,
}

/// What one step of a round did.
#[derive(Clone, Debug)]
#[must_use]
pub struct RoundStep {
    /// The round after the step, as JSON (unchanged when refused).
    pub round: String,
    /// The choice was taken (or the default given); `false`: refused, nothing changed.
    pub taken: bool,
    /// One sentence for the players.
    pub summary: String,
    /// Problems with the mail.
    pub diagnostics: Vec<Diagnostic>,
    /// The turn-0 position, when this step ended the round.
    pub finished: Option<String>,
}

/// The lines every order file may start with, whatever the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    pub game: Option<String>,
    pub player: Option<String>,
    pub turn: Option<u32>,
    pub secret: Option<String>,
    /// `standing`: these orders repeat each turn the player sends none, until replaced;
    /// `standing off`: they stop. `None` when the file says neither.
    pub standing: Option<bool>,
}

/// Something a file's header says that does not fit where the file arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// `game` names another game.
    Game(String),
    /// `player` names another player than the one the file comes from.
    Player(String),
    /// `turn` names a turn already played.
    EarlierTurn(u32),
    /// `turn` names a turn after the next one.
    LaterTurn(u32),
}

impl Header {
    /// Compare the header with the game, the player the file comes from (if known) and
    /// the turns the position can play: every mismatch, in that order. Lines left out
    /// match anything.
    pub fn mismatches(
        &self,
        game: Option<&str>,
        player: Option<&str>,
        at: &dyn Position,
    ) -> Vec<Mismatch> {
        let mut out = Vec::new();
        if let (Some(want), Some(got)) = (game, &self.game)
            && !got.eq_ignore_ascii_case(want)
        {
            out.push(Mismatch::Game(got.clone()));
        }
        if let (Some(want), Some(got)) = (player, &self.player)
            && !got.eq_ignore_ascii_case(want)
        {
            out.push(Mismatch::Player(got.clone()));
        }
        out.extend(self.turn.and_then(|t| at.fits_turn(t)));
        out
    }
}

/// What checking an order file found.
#[derive(Clone, Debug)]
#[must_use]
pub struct Checked {
    /// Whose orders these are, when known.
    pub player: Option<String>,
    /// The turn they are for (the next one).
    pub turn: u32,
    pub diagnostics: Vec<Diagnostic>,
    /// For people: a summary, every problem, and what each order will do.
    pub text: String,
    /// The same echo for tools.
    pub echo: serde_json::Value,
}

impl Checked {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    pub fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }
}

/// One player's order file for a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderFile {
    /// The seat id.
    pub player: String,
    pub text: String,
}

/// A turn played.
#[derive(Clone, Debug)]
#[must_use]
pub struct Played {
    /// The new position, as JSON.
    pub state: String,
    /// What happened, as JSON.
    pub events: String,
    /// Problems per player: lines left out.
    pub problems: BTreeMap<String, Vec<Diagnostic>>,
    /// One line for the GM: how many events, how many orders failed.
    pub summary: String,
    /// Set when the game has ended, with why.
    pub over: Option<String>,
    /// Whose orders the turn played, where that is not simply every file given (a game
    /// played one player at a time plays the orders of the player whose step it is, and
    /// of those whose standing orders ran): what the web site says of the turn.
    pub acted: Option<Vec<String>>,
}

/// Everything a turn's report is made from: all of it is in the archive.
#[derive(Clone, Debug)]
pub struct ReportInput<'a> {
    /// The game's name (what order files write after `game`).
    pub game: &'a str,
    /// The position the turn started from (for turn 0, the set-up itself).
    pub before: &'a str,
    /// The turn's events (`[]` for turn 0).
    pub events: &'a str,
    /// The position the turn left.
    pub after: &'a str,
    /// The order files played.
    pub orders: &'a [OrderFile],
    /// The players whose standing orders were played (they sent none).
    pub standing: &'a [String],
    /// The players whose orders the caretaker wrote (they sent none, and had none
    /// standing): a report says the lines are the caretaker's.
    pub caretaker: &'a [String],
    /// When the next orders are due, as the report shows it.
    pub deadline: Option<String>,
}

/// How a game stands after a turn, as everyone may see it (the public report's numbers,
/// never a hidden card): what the web site's overview charts, turn by turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// What is counted per seat, the score first: `score`, `points`, …
    pub measures: Vec<Measure>,
    /// How far the game has come toward its end, if it has such a count.
    pub progress: Option<Progress>,
    /// Each seat's colour as the game's pictures draw it (`#d32f2f`).
    pub colours: BTreeMap<String, String>,
}

/// One count, per seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Measure {
    pub name: String,
    pub values: BTreeMap<String, i64>,
}

/// The game's way toward its end: `done` of `goal` (what is built toward the mark that
/// ends the game).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// What is counted.
    pub name: String,
    pub done: i64,
    pub goal: Option<i64>,
}

/// What a game gives the order writer's page of one seat (`judge site`). The page (the
/// site's, game-neutral) holds the map, the order file being written, the checker and a
/// "mail it" link; the game's script draws on the map (the page's `svg` element) and
/// puts order lines into the file through the page's `WRITER.put(heading, line,
/// replacing)`, reading its model as `WRITER.model`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Writer {
    /// The order file's body the page starts from, below the header: as the
    /// [`Position::template`], but from public facts only.
    pub body: String,
    /// What the game's script works from, as JSON: public facts only.
    pub model: String,
    /// The game's script.
    pub script: &'static str,
    /// What the page says under its title: how to write orders on it.
    pub intro: String,
}

/// A turn's report, rendered on demand.
pub trait Report {
    /// The text report for everyone (`viewer` none), or the one a player receives:
    /// with their own part (what became of each of their orders, the header to start
    /// their next orders with) and whatever only they may see. `template` is a GM's own
    /// template, if any.
    fn text(&self, template: Option<&str>, viewer: Option<&str>) -> Result<String, GameError>;
    /// What happened in the turn as `viewer` may read it, in a few lines: one entry of
    /// a digest of several turns (a player who is mailed only their own turns). By
    /// default the whole report.
    fn digest(&self, viewer: Option<&str>) -> Result<String, GameError> {
        self.text(None, viewer)
    }
    /// The map picture as SVG.
    fn svg(&self) -> String;
    /// The map picture as PNG.
    fn png(&self) -> Result<Vec<u8>, GameError>;
    /// The report model for tools.
    fn json(&self) -> Result<String, GameError>;
    /// How the game stands after the turn, as everyone may see it.
    fn tally(&self) -> Tally {
        Tally::default()
    }
    /// The draws everyone saw made in the turn, as the structured public record keeps
    /// them (`draws.json`, beside `public.json`): what `judge verify` checks on a clone
    /// of the game's public git, where the states are not. `None` for a game whose
    /// states are public (its draws are checked by playing every turn again).
    fn draws(&self) -> Option<String> {
        None
    }
    /// The heading (without its numbering) of the text report's section that draws
    /// the map: a forum post of the report (`judge report --format markdown`) links
    /// the turn's page on the game's site there. `None`: no section is the map.
    fn map_section(&self) -> Option<&'static str> {
        None
    }
}

/// One turn of a game's public record, as a clone of its public git holds it: each
/// file `None` when the turn lacks it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PublicTurn<'a> {
    /// The turn's number (0: the position the game began with).
    pub turn: u32,
    /// `public.json`: the position as everyone may know it ([`Position::public_record`]).
    pub record: Option<&'a str>,
    /// `draws.json`: the draws everyone saw made in the turn ([`Report::draws`]).
    pub draws: Option<&'a str>,
    /// `report.txt`: the report for everyone.
    pub report: Option<&'a str>,
}

/// Checks a game's public record against its revealed seed, one turn after another from
/// turn 0 ([`Game::draw_check`]).
pub trait DrawCheck {
    /// The next turn of the record: how many draws it shows, each found to be the
    /// seed's at its place in the seed's streams; or, in a sentence, the first thing
    /// in it that is not (a draw that differs, a file or a roll missing, a turn out of
    /// its place).
    fn turn(&mut self, turn: &PublicTurn<'_>) -> Result<usize, GameError>;
}

/// One line of `judge scenarios`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioInfo {
    pub name: String,
    /// Name, players, size, title, aligned for a listing.
    pub line: String,
}

/// The outcome of one adjudication case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseOutcome {
    /// The rule text the case cites.
    pub rule: String,
    /// What did not come out as expected; empty when the case passed.
    pub problems: Vec<String>,
}

/// How a game's turns go by mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Every player sends orders for the same turn, played at its deadline (Roads &
    /// Boats): the schedule's deadlines are `every` apart.
    Together,
    /// One player acts at a time: each step is played as soon as the orders it
    /// waits for are in, and its deadline is `every` after the step before.
    OneAtATime,
}

impl Pace {
    /// What one folder of the archive (`turns/NNN`) is called: a turn where everyone
    /// plays it together, a step where one player acts at a time (whose players then
    /// play turns of their own).
    pub fn unit(self) -> &'static str {
        match self {
            Pace::Together => "turn",
            Pace::OneAtATime => "step",
        }
    }
}

/// A kind of game the judge can run.
pub trait Game: Sync {
    /// The name game.toml uses (`game = "…"`).
    fn id(&self) -> &'static str;
    /// The name for people.
    fn title(&self) -> &'static str;
    /// How its turns go by mail.
    fn pace(&self) -> Pace {
        Pace::Together
    }
    /// Paths of the game folder git must not keep, beyond the mail and pending orders
    /// every game keeps out: for a game with hidden information (cards in hand, a deck,
    /// dice to come), its states, events and each player's own report and orders.
    fn private_files(&self) -> &'static [&'static str] {
        &[]
    }
    /// Whether every player may know, before the turn is played, whose orders for it
    /// are in (`status` by mail). Yes by default: in a game whose turns are played
    /// together, who has sent orders is no secret (docs/mail-commands.md). A game that
    /// tells it to each player alone (its docs' table of what each player sees) says
    /// no, and `status` then shows each player only their own line.
    fn orders_in_public(&self) -> bool {
        true
    }
    /// Whether a text of a mail looks like this game's orders: the mail's body, or else
    /// the first of its text attachments that does, is read as the orders. By default,
    /// a text with a header line (`game …`, `player …`); a game adds the words its
    /// orders begin with, so that orders without header lines are found too.
    /// The game's order guide, for `help` by mail: a few lines on how an order file is
    /// written, and the name of the docs file that has the whole of it.
    fn order_guide(&self) -> (&'static str, &'static str) {
        (
            "One order per line, under the header lines; `#` starts a comment.",
            "docs/orders.md",
        )
    }
    /// The whole order guide (the docs file [`Game::order_guide`] names), for the
    /// game's site: `judge site` writes it as `guide.html`, and report mails link it.
    fn order_guide_text(&self) -> &'static str {
        ""
    }
    fn looks_like_orders(&self, text: &str) -> bool {
        crate::text::has_header_line(text)
    }
    /// The scenario a new game gets when none is named, if there is one.
    fn default_scenario(&self) -> Option<&'static str> {
        None
    }
    /// The bundled scenarios, name first.
    fn scenarios(&self) -> Result<Vec<ScenarioInfo>, GameError>;
    /// Check a scenario file; `Err` holds every problem, rendered.
    fn check_scenario(&self, file: &str, text: &str) -> Result<ScenarioInfo, GameError>;
    /// A scenario made by the game's map generator (`judge new --map random`): for this
    /// many players, with these optional rules, from the seed; the same seed gives the
    /// same text.
    fn generate(&self, players: usize, options: &[String], seed: u64) -> Result<String, GameError> {
        let _ = (players, options, seed);
        Err(GameError::input(format!(
            "{} has no map generator",
            self.title()
        )))
    }
    /// A bundled scenario's text by its name, or a scenario file's by its path: (a name
    /// for messages, the text).
    fn scenario_text(&self, scenario: &str) -> Result<(String, String), GameError>;
    /// Start a game called `name` from a scenario's text (`file` names it in messages).
    /// The same scenario, name, seats and seeds always give the same turn 0: replay
    /// checks it.
    fn start(
        &self,
        file: &str,
        scenario: &str,
        name: &str,
        seats: &[SeatRequest],
        seeds: &Seeds,
    ) -> Result<Created, GameError>;
    /// Read a stored position.
    fn position(&self, state: &str) -> Result<Box<dyn Position>, GameError>;
    /// Read a position's public record ([`Position::public_record`]): for `judge check`
    /// on a clone of a game's public git, where the state file is not.
    fn public_position(&self, record: &str) -> Result<Box<dyn Position>, GameError> {
        let _ = record;
        Err(GameError::input(format!(
            "{} keeps no public record: its state file is public",
            self.title()
        )))
    }
    /// Read a stored round before turn 1 (for a game whose start is [`Start::Round`]).
    fn round(&self, round: &str) -> Result<Box<dyn Round>, GameError> {
        let _ = round;
        Err(GameError::corrupt(format!(
            "{} has no round before turn 1",
            self.title()
        )))
    }
    /// The report of a turn, from what the archive holds.
    fn report(&self, input: &ReportInput<'_>) -> Result<Box<dyn Report>, GameError>;
    /// What checks the draws of the game's structured public record (`public.json`,
    /// `draws.json`: never the reports' prose, nor press) against the revealed seed,
    /// turn by turn: what `judge verify` does on a clone of the game's public git.
    /// `None` for a game whose states are public: its draws are checked by playing
    /// every turn again.
    fn draw_check(&self, luck: &Luck) -> Option<Box<dyn DrawCheck>> {
        let _ = luck;
        None
    }
    /// Run one adjudication case file.
    fn run_case(&self, path: &Path) -> Result<CaseOutcome, GameError>;
    /// The rule a case file cites, without running it.
    fn case_rule(&self, path: &Path) -> Result<String, GameError>;
    /// The games of random legal moves this game can play fast (`judge selfplay`), to
    /// measure its rules engine and find positions it cannot get out of; none by default.
    fn selfplay(&self) -> Vec<Selfplay> {
        Vec::new()
    }
    /// The bots the self-play `id` can seat (`judge selfplay ID --bots a,b,…`).
    fn bots(&self, id: &str) -> &'static [&'static str] {
        let _ = id;
        &[]
    }
    /// A player of whole games of the self-play `id` with these bots on the seats, in
    /// seat order (names from [`Game::bots`]), on `scenario` where the game has
    /// scenarios (its default when `None`): each call plays one game from `seed`. An
    /// input error says why these bots cannot be seated there (a scenario for another
    /// number of players, say) and, where it can, which would do.
    fn bot_player(
        &self,
        id: &str,
        bots: &[String],
        scenario: Option<&str>,
    ) -> Result<Box<dyn FnMut(u64) -> RandomGame>, GameError> {
        let _ = (bots, scenario);
        Err(GameError::input(format!(
            "`{id}` has no bots for self-play"
        )))
    }
    /// A player of random legal moves for the self-play `id` (one of
    /// [`Game::selfplay`]): each call plays a whole game of `players` from `seed`.
    fn random_player(&self, id: &str) -> Option<Box<dyn FnMut(usize, u64) -> RandomGame>> {
        let _ = id;
        None
    }
}

/// One kind of random self-play a game offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selfplay {
    /// The name `judge selfplay` takes.
    pub id: &'static str,
    /// What it plays, for the summary's first line.
    pub title: &'static str,
    /// How many players it takes.
    pub players: std::ops::RangeInclusive<usize>,
    /// The seats in order, as the game names them (who won is counted by seat).
    pub seats: &'static [&'static str],
}

/// How one random game ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RandomGame {
    /// The winner's seat (an index into [`Selfplay::seats`]), if someone won before the
    /// game's limit of actions.
    pub winner: Option<usize>,
    pub turns: u32,
    pub actions: u32,
    /// Every seat, best first, where the game ranks them all at its end (empty where it
    /// names only a winner).
    pub places: Vec<usize>,
    /// Numbers the game counts for every seat at the end, each with its name (a score,
    /// bricks laid): self-play prints each bot's mean.
    pub tallies: Vec<(&'static str, Vec<i64>)>,
    /// Figures that are a step on a scale the game names (the furthest good made
    /// along a chain of goods), for every seat at the end: self-play prints how often
    /// each bot reached each step.
    pub steps: Vec<Steps>,
}

/// One figure of [`RandomGame::steps`]: its name, its scale (lowest step first) and,
/// per seat, the step reached (an index into `scale`), if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Steps {
    pub name: &'static str,
    pub scale: &'static [&'static str],
    pub reached: Vec<Option<usize>>,
}

/// One position of a game, as stored in a turn of the archive.
pub trait Position {
    /// Turns played so far (0: the set-up).
    fn turn(&self) -> u32;
    /// Set when the game has ended, with why.
    fn over(&self) -> Option<String>;
    /// Once the game is over, its seats by place as its rules score them, best first,
    /// seats the rules do not part sharing a place (a game that names only a winner:
    /// the winner, then everyone else together). Empty while the game goes on, and for
    /// a game that does not say (its games are not rated: `judge ratings`).
    fn places(&self) -> Vec<Vec<String>> {
        Vec::new()
    }
    /// What the next orders are for, in answers: `turn 4`.
    fn next_label(&self) -> String {
        format!("turn {}", self.turn() + 1)
    }
    /// The seats, in the order they act.
    fn seats(&self) -> Vec<Seat>;
    /// The header lines of an order file.
    fn header(&self, text: &str) -> Header;
    /// Whether orders whose `turn` line says `turn` may be played from here: a turn
    /// already played never; by default only the next one.
    fn fits_turn(&self, turn: u32) -> Option<Mismatch> {
        let next = self.turn() + 1;
        match turn {
            t if t < next => Some(Mismatch::EarlierTurn(t)),
            t if t > next => Some(Mismatch::LaterTurn(t)),
            _ => None,
        }
    }
    /// Whose orders the next turn still waits for, if these files were in: for a
    /// game played together, everyone without a file; for one played one player at a
    /// time, the players the next step needs (none: play it now).
    fn awaited(&self, files: &[OrderFile]) -> Vec<String> {
        self.seats()
            .into_iter()
            .map(|s| s.id)
            .filter(|id| !files.iter().any(|f| &f.player == id))
            .collect()
    }
    /// Check an order file for the next turn. `file` names it in messages; `player` and
    /// `game` are what the caller knows of where it came from.
    fn check(&self, text: &str, file: &str, player: Option<&str>, game: Option<&str>) -> Checked;
    /// For a game played one player at a time: the number of the step in which `seat`
    /// next acts (its own turn or placement), as [`Position::next_label`] numbers
    /// steps; `None` when it cannot be told, or for a game played together.
    fn next_step_of(&self, seat: &str) -> Option<u32> {
        let _ = seat;
        None
    }
    /// The position with the players of these seats named anew (`seat` → name), as
    /// JSON: a seat taken over by a new player (`judge replace`), or a name the GM
    /// corrected in game.toml, is named so from the next turn on. `None`: the game keeps
    /// no players' names in its positions.
    fn renamed(&self, names: &BTreeMap<String, String>) -> Option<Result<String, GameError>> {
        let _ = names;
        None
    }
    /// Play the next turn with these order files (players without one give no orders);
    /// `luck` is the game's secret seed, for the turn's hidden draws.
    fn play(&self, files: &[OrderFile], luck: &Luck) -> Result<Played, GameError>;
    /// The position as everyone may know it, kept in the public record beside a
    /// private state file (`turns/N/public.json`); `None` when the state file itself is
    /// public. Read back by [`Game::public_position`], it must check order files as the
    /// position itself does.
    fn public_record(&self) -> Option<String> {
        None
    }
    /// The position the site's order checker reads where the state file is public
    /// ([`Position::public_record`] is `None`): what [`Game::position`] reads back,
    /// with what is no part of the game's play left out — the players' addresses,
    /// which the site never shows. `None`: the state file as
    /// kept holds nothing of that kind. (The site leaves out every address game.toml
    /// names in any case; this is for what game.toml no longer names, a replaced
    /// player's.)
    fn site_state(&self) -> Option<Result<String, GameError>> {
        None
    }
    /// The position for people (`judge show`).
    fn show(&self, title: &str) -> String;
    /// The order writer's page for `seat` on the game's site (`judge site`): what its
    /// script works from, made from what everyone may know (the site is public); `None`
    /// when the game has no writer.
    fn writer(&self, seat: &str) -> Option<Writer> {
        let _ = seat;
        None
    }
    /// The body of `seat`'s next order file, ready to fill (`template` by mail): the
    /// headings its orders go under and the seat's own pieces, as comments (`#`). Only
    /// what the seat may know. Empty: the header alone.
    fn template(&self, seat: &str) -> String {
        let _ = seat;
        String::new()
    }
    /// The order file the game's bot would send for `seat` now (`judge bot`, and the
    /// caretaker that plays for an absent player), written from what that seat may
    /// know, with `game` (the archive's name) on its `game` line; `None` when the game
    /// has no bot yet.
    fn bot(&self, game: &str, seat: &str) -> Option<Result<String, GameError>> {
        let _ = (game, seat);
        None
    }
    /// What the bot's order file `file` for `seat` does, in a sentence for the player
    /// the caretaker stood in for (what it built, paid, kept), told in the turn's
    /// notice; `None` where the game says nothing more than that it played.
    fn bot_summary(&self, seat: &str, file: &str) -> Option<String> {
        let _ = (seat, file);
        None
    }
    /// End the game now, before the next turn is played (`judge end --why`): the next
    /// turn of the archive holds only the end, scored by the game's own rules, with the
    /// GM's reason in its report.
    fn end(&self, why: &str) -> Result<Played, GameError> {
        let _ = why;
        Err(GameError::input("this game cannot be ended by the GM"))
    }
}
