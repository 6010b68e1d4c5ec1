//! Setting up: choosing starting places by mail (rulebook, setting up: "Any land tile may
//! be chosen as a starting place, provided there is at least one empty tile between you
//! and your nearest neighbour … The players choose their starting places in the order as
//! indicated on the sequence chart"; Quick Guide i.: "Each player picks a starting hex,
//! or takes one of the indicated starting hexes from the scenario").
//!
//! A scenario with `[start] choose = "any"` or `"marked"` has no fixed homes. A game made
//! from it begins with a set-up round ([`Scenario::start_setup`]): in the starting
//! sequence (the move order), each player sends one `home C4` line; the judge checks it
//! ([`Setup::check`]) and records it ([`Setup::choose`]), or, when the player misses the
//! deadline, gives them the default ([`Setup::choose`] with no text). When all have
//! chosen, [`Setup::finish`] gives the turn-0 state: homes, starting transporters and
//! goods placed. Everything here is pure: mail, clocks and files are the caller's.
//!
//! [`Scenario::start_setup`]: super::scenario::Scenario::start_setup

use std::fmt;

use serde::{Deserialize, Serialize};

use super::goods::Goods;
use super::map::{AreaId, Terrain};
use super::order_text::Expect;
use super::order_text::{self, HeaderMismatch};
use super::player::Colour;
use super::refusal::Refusal;
use super::state::State;
use super::transporter::{Kind, Location, Transporter};
use judge_core::diagnostic::Diagnostic;

/// Where players may choose their homes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChooseHomes {
    /// Any land tile (rulebook); the scenario's listed homes are only suggestions, and
    /// the first defaults.
    Any,
    /// Only the tiles the scenario marks (Quick Guide: "one of the indicated starting
    /// hexes").
    Marked,
}

/// What each player starts with at home (rulebook: 3 donkeys, 5 boards, 1 stone, 2 geese,
/// unless the scenario says otherwise).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartKit {
    pub transporters: Vec<Kind>,
    pub goods: Goods,
}

impl StartKit {
    /// Put the kit on `home` for `colour`: land transporters and goods.
    pub(crate) fn place(&self, state: &mut State, colour: Colour, home: AreaId) {
        for &kind in &self.transporters {
            let id = state.next_id(kind);
            state.transporters.insert(
                id,
                Transporter {
                    owner: colour,
                    kind,
                    at: Location::Land(home),
                    cargo: Goods::new(),
                    following_geese: 0,
                },
            );
        }
        state.goods.entry(home).or_default().add_all(&self.goods);
    }
}

/// One player's home, as chosen or given by default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chosen {
    pub player: Colour,
    pub home: AreaId,
    /// The player missed the deadline and took the default.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_default: bool,
}

/// The set-up round of a game whose players choose their homes. Serialisable, so the
/// archive can keep it between mails.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The position before turn 1: the homes chosen so far, no starting kits yet. Its
    /// move order is the starting sequence.
    pub state: State,
    pub choose: ChooseHomes,
    /// The scenario's listed homes: the marked tiles, or the suggestions; defaults are
    /// taken from here first, in this order.
    pub listed: Vec<AreaId>,
    pub kit: StartKit,
    /// The homes chosen so far, in the order chosen.
    pub chosen: Vec<Chosen>,
}

/// What a set-up mail, or a missed deadline, did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player chose this home.
    Chose(AreaId),
    /// The player missed the deadline (or sent no valid choice): the default home.
    Defaulted(AreaId),
    /// The mail does not give a legal home; nothing changes, the player may send again.
    Refused,
    /// It is another player's turn to choose.
    NotYourTurn { next: Option<Colour> },
    /// No legal home is left for the player (the map is too crowded): the GM must step in.
    NoLegalHome,
}

/// The result of one step of the set-up round.
#[derive(Clone, Debug)]
#[must_use]
pub struct Step {
    /// The set-up after this step (unchanged when refused).
    pub setup: Setup,
    pub player: Colour,
    pub outcome: Outcome,
    /// Problems with the mail, each with line and column.
    pub diagnostics: Vec<Diagnostic>,
    /// The turn-0 state, once every player has a home.
    pub state: Option<State>,
}

impl Step {
    /// The sentence for the answer mail and the set-up report.
    pub fn summary(&self) -> String {
        let next = match self.setup.next() {
            Some(c) => format!(" {c} chooses next."),
            None if self.state.is_some() => " Every player has a home: turn 1 is next.".into(),
            None => String::new(),
        };
        let p = self.player;
        match &self.outcome {
            Outcome::Chose(a) => format!("{p} chose {a} as home.{next}"),
            Outcome::Defaulted(a) => {
                format!("{p} sent no valid choice in time and takes the default home {a}.{next}")
            }
            Outcome::Refused => {
                format!("{p}'s choice is refused: see the problems; send it again.")
            }
            Outcome::NotYourTurn { next: Some(n) } => {
                format!("It is {n}'s turn to choose a home, not {p}'s.")
            }
            Outcome::NotYourTurn { next: None } => "Every player has chosen a home.".into(),
            Outcome::NoLegalHome => {
                format!("No legal starting place is left for {p}: the GM must change the scenario.")
            }
        }
    }
}

/// A set-up mail, read and checked.
#[derive(Clone, Debug)]
#[must_use]
pub struct Checked {
    pub player: Option<Colour>,
    /// The home asked for, if the mail reads and the home is legal now.
    pub home: Option<AreaId>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

impl Setup {
    /// The starting sequence: players choose in the order of the sequence chart, which is
    /// the move order (rulebook, setting up).
    pub fn sequence(&self) -> &[Colour] {
        &self.state.move_order
    }

    /// Whose turn it is to choose, or `None` when all have.
    pub fn next(&self) -> Option<Colour> {
        self.sequence()
            .iter()
            .copied()
            .find(|c| !self.chosen.iter().any(|x| x.player == *c))
    }

    /// Is `area` a legal home for the next chooser, with the homes chosen so far?
    /// A land tile of the map (not a polder, which starts flooded), on the scenario's
    /// marked tiles if it has them, with at least one tile between it and every chosen
    /// home (rulebook: two homes at least two steps apart).
    pub fn legal(&self, area: AreaId) -> Result<(), Refusal> {
        let map = &self.state.map;
        let area = map.check_area(area)?;
        let hex = area.hex;
        match map.terrain(hex) {
            Some(Terrain::Sea) => return Err(Refusal::HomeAtSea { hex }),
            Some(Terrain::Polder) => return Err(Refusal::HomeOnAPolder { hex }),
            _ => {}
        }
        if self.choose == ChooseHomes::Marked
            && !self
                .listed
                .iter()
                .any(|m| *m == area || (m.side.is_none() && m.hex == area.hex))
        {
            return Err(Refusal::NotAStartingPlace {
                area,
                listed: self.listed.clone(),
            });
        }
        for c in &self.chosen {
            if c.home.hex.distance(area.hex) < 2 {
                return Err(Refusal::TooClose {
                    hex,
                    player: c.player,
                    home: c.home,
                });
            }
        }
        Ok(())
    }

    /// Every legal home now, in the order defaults are taken: the scenario's listed
    /// homes first, as listed; then, where any land tile will do, every land area in
    /// reading order (north to south, west to east; a split tile's areas clockwise from
    /// the north).
    pub fn legal_homes(&self) -> Vec<AreaId> {
        let map = &self.state.map;
        let mut all: Vec<AreaId> = self.listed.clone();
        if self.choose == ChooseHomes::Any {
            let mut hexes: Vec<_> = map.tiles.keys().copied().collect();
            hexes.sort_by_key(|h| (h.row, h.col));
            all.extend(hexes.into_iter().flat_map(|h| map.areas(h)));
        }
        let mut out: Vec<AreaId> = Vec::new();
        for a in all {
            if !out.contains(&a) && self.legal(a).is_ok() {
                out.push(a);
            }
        }
        out
    }

    /// The home a player who misses the deadline takes: the first legal one, in the
    /// order of [`Setup::legal_homes`].
    pub fn default_home(&self) -> Option<AreaId> {
        self.legal_homes().first().copied()
    }

    /// Read a set-up mail (a header and one `home C4` line; docs/orders.md) and check it
    /// against the set-up as it stands: every problem at once, with line and column.
    pub fn check(&self, text: &str, expect: &Expect<'_>) -> Checked {
        let mut parsed = order_text::parse(text, &self.state.map);
        let mut diags = std::mem::take(&mut parsed.problems);
        let first_line = 0..text
            .find('\n')
            .unwrap_or(text.len())
            .max(1)
            .min(text.len().max(1));
        let player = pre_game_header(
            &parsed.header,
            expect,
            &first_line,
            &PreGameMail {
                what: "choice",
                when: "homes are chosen before turn 1, in the set-up round",
            },
            &mut diags,
        );
        let o = &parsed.orders;
        if let Some((line, _)) = parsed.lines.first()
            && !(o.production.is_empty()
                && o.movement.is_empty()
                && o.building.is_empty()
                && o.wonder.is_empty())
        {
            let span = parsed.lines.first().map(|(_, s)| s.clone());
            diags.push(
                Diagnostic::new(format!(
                    "line {line}: the set-up round takes only a `home` line; turn orders come after it"
                ))
                .at_opt(span),
            );
        }
        let mut home = None;
        match &parsed.home {
            None if diags.iter().all(|d| !d.is_error()) => diags.push(
                Diagnostic::new("no `home` line: say where your home is, like `home C4`")
                    .at(first_line),
            ),
            None => {}
            Some(h) => match self.legal(h.area) {
                Ok(()) => home = Some(h.area),
                Err(e) => {
                    let mut d = Diagnostic::new(e).at(h.span.clone());
                    if let Some(first) = self.legal_homes().first() {
                        d = d.help(format!(
                            "{} legal places are left; the first is {first}",
                            self.legal_homes().len()
                        ));
                    }
                    diags.push(d);
                }
            },
        }
        Checked {
            player,
            home,
            diagnostics: diags,
        }
    }

    /// One step of the set-up round for `player`: `Some(text)` is their mail, `None`
    /// means the deadline passed without a valid choice (the default home is taken).
    /// Pure: the set-up comes back changed, or unchanged with the reasons why.
    pub fn choose(&self, player: Colour, text: Option<&str>) -> Step {
        let unchanged = |outcome, diagnostics| Step {
            setup: self.clone(),
            player,
            outcome,
            diagnostics,
            state: None,
        };
        if self.next() != Some(player) {
            return unchanged(Outcome::NotYourTurn { next: self.next() }, Vec::new());
        }
        let (home, outcome, diagnostics) = match text {
            Some(t) => {
                let c = self.check(
                    t,
                    &Expect {
                        player: Some(player),
                        game: None,
                    },
                );
                match c.home {
                    Some(h) if c.errors() == 0 => (h, Outcome::Chose(h), c.diagnostics),
                    _ => return unchanged(Outcome::Refused, c.diagnostics),
                }
            }
            None => match self.default_home() {
                Some(h) => (h, Outcome::Defaulted(h), Vec::new()),
                None => return unchanged(Outcome::NoLegalHome, Vec::new()),
            },
        };
        let mut setup = self.clone();
        if let Some(p) = setup.state.players.get_mut(&player) {
            p.home = Some(home);
        }
        setup.chosen.push(Chosen {
            player,
            home,
            by_default: matches!(outcome, Outcome::Defaulted(_)),
        });
        let state = setup.finish();
        Step {
            setup,
            player,
            outcome,
            diagnostics,
            state,
        }
    }

    /// The turn-0 state, once every player has a home: each player's starting
    /// transporters and goods on their home, in seat order (as in a scenario with fixed
    /// homes). `None` while someone has still to choose.
    pub fn finish(&self) -> Option<State> {
        if self.next().is_some() {
            return None;
        }
        let mut state = self.state.clone();
        let seats: Vec<(Colour, AreaId)> = state
            .players
            .iter()
            .filter_map(|(c, p)| p.home.map(|h| (*c, h)))
            .collect();
        for (colour, home) in seats {
            self.kit.place(&mut state, colour, home);
        }
        state.normalise();
        Some(state)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Chose(a) => write!(f, "chose {a} as home"),
            Outcome::Defaulted(a) => write!(f, "took the default home {a}"),
            Outcome::Refused => f.write_str("failed: the choice is refused"),
            Outcome::NotYourTurn { .. } => f.write_str("failed: not this player's turn to choose"),
            Outcome::NoLegalHome => f.write_str("failed: no legal starting place is left"),
        }
    }
}

/// A mail before turn 1 (a set-up choice, a jumpstart bid): what it holds, and when that
/// is chosen, for the messages about its header.
pub(crate) struct PreGameMail<'a> {
    /// `choice`, `bid`.
    pub what: &'a str,
    /// `the auction is before turn 1`: said to a `turn` line naming a turn.
    pub when: &'a str,
}

/// The header of a mail before turn 1: whose it is, with a problem in `diags` for a
/// player line that is not the sender's, a missing one, another game, or a turn.
pub(crate) fn pre_game_header(
    h: &order_text::Header,
    expect: &Expect<'_>,
    first_line: &std::ops::Range<usize>,
    mail: &PreGameMail<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Colour> {
    let what = mail.what;
    let player = match (h.player, expect.player) {
        (Some(p), Some(e)) if p != e => {
            diags.push(
                Diagnostic::new(format!(
                    "this {what} says `player {p}`, but it comes from {e}"
                ))
                .at_opt(h.player_at.clone())
                .help(format!("write `player {e}`")),
            );
            None
        }
        (Some(p), _) | (None, Some(p)) => Some(p),
        (None, None) => {
            diags.push(
                Diagnostic::new(format!("the mail does not say whose {what} it is"))
                    .at(first_line.clone())
                    .help("start it with a line naming your colour, like `player red`"),
            );
            None
        }
    };
    for m in h.mismatches(expect.game, None, 0) {
        match m {
            HeaderMismatch::Game(got) => diags.push(
                Diagnostic::new(format!(
                    "this {what} is for the game `{got}`, not `{}`",
                    expect.game.unwrap_or_default()
                ))
                .at_opt(h.game_at.clone()),
            ),
            HeaderMismatch::LaterTurn(t) | HeaderMismatch::EarlierTurn(t) => diags.push(
                Diagnostic::new(format!("{}, not in turn {t}", mail.when))
                    .at_opt(h.turn_at.clone())
                    .help("leave the `turn` line out, or write `turn 0`"),
            ),
            HeaderMismatch::Player(_) => {}
        }
    }
    player
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Scenario, Seat};

    const SCENARIO: &str = r#"
[scenario]
name = "choose"
title = "Homes by mail"
players = 2
[rules]
turn_limit = 9
[map]
rows = ["s s s s s", "s p p p s", "s p w r s", "s s s s s"]
[start]
choose = "any"
[position]
move_order = ["red", "yellow"]
"#;

    fn round() -> Setup {
        round_of(SCENARIO)
    }

    fn round_of(text: &str) -> Setup {
        let s = Scenario::parse("choose.toml", text).unwrap_or_else(|d| panic!("{d}"));
        let seats: Vec<Seat> = ["Ann", "Bob"]
            .iter()
            .map(|n| Seat {
                name: n.to_string(),
                email: format!("{n}@example.org"),
            })
            .collect();
        assert!(
            s.start(&seats, &judge_core::luck::Luck::predictable(1))
                .is_err(),
            "no turn 0 without homes"
        );
        s.start_setup(&seats, &judge_core::luck::Luck::predictable(1))
            .expect("set-up")
    }

    /// Rulebook, setting up: players choose in the starting sequence; the one whose turn
    /// it is not is told whose it is, and nothing changes.
    #[test]
    fn players_choose_in_sequence() {
        let s = round();
        assert_eq!(s.next(), Some(Colour::Red));
        let early = s.choose(Colour::Yellow, Some("home D2"));
        assert_eq!(
            early.outcome,
            Outcome::NotYourTurn {
                next: Some(Colour::Red)
            }
        );
        assert_eq!(early.setup, s);
        let red = s.choose(Colour::Red, Some("player red\nhome B2\n"));
        assert_eq!(red.outcome, Outcome::Chose("B2".parse().expect("area")));
        assert!(red.state.is_none(), "yellow has still to choose");
        assert_eq!(red.setup.next(), Some(Colour::Yellow));
        assert_eq!(red.summary(), "red chose B2 as home. yellow chooses next.");
    }

    /// The round ends in the turn-0 state: homes set, starting kits placed.
    #[test]
    fn the_last_choice_gives_turn_zero() {
        let s = round().choose(Colour::Red, Some("home B2")).setup;
        let done = s.choose(Colour::Yellow, None);
        assert!(done.summary().contains("turn 1 is next"));
        let state = done.state.expect("turn 0");
        assert_eq!(state.turn, 0);
        assert_eq!(
            state.players[&Colour::Yellow].home,
            Some("D2".parse().expect("area")),
            "the first land area in reading order with a tile between it and B2"
        );
        assert_eq!(state.transporters.len(), 6);
    }

    /// A mail with turn orders, or no home, is refused with reasons; a crowded map
    /// leaves no default.
    #[test]
    fn refusals_say_why() {
        let s = round();
        let c = s.check(
            "player red\nhome B2\nmovement\nmove D1: C2\n",
            &Expect::default(),
        );
        assert_eq!(c.errors(), 1, "{:?}", c.diagnostics);
        let c = s.check("player red\n", &Expect::default());
        assert!(c.diagnostics[0].message.contains("no `home` line"));
        let step = s.choose(Colour::Red, Some("home A1"));
        assert_eq!(step.outcome, Outcome::Refused);
        assert!(step.diagnostics[0].message.contains("A1 is sea"));
        // Two marked places next to each other: once red has one, yellow has none.
        let marked = SCENARIO.replace(
            "choose = \"any\"",
            "choose = \"marked\"\nhomes = [\"B2\", \"C2\"]",
        );
        let crowded = round_of(&marked).choose(Colour::Red, Some("home B2")).setup;
        assert_eq!(crowded.default_home(), None);
        assert_eq!(
            crowded.choose(Colour::Yellow, None).outcome,
            Outcome::NoLegalHome
        );
    }

    /// The set-up is kept in the archive between mails: it reads back as written.
    #[test]
    fn the_setup_serialises() {
        let s = round().choose(Colour::Red, Some("home B2")).setup;
        let json = serde_json::to_string(&s).expect("json");
        let back: Setup = serde_json::from_str(&json).expect("reads");
        assert_eq!(back, s);
    }
}
