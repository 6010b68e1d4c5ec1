//! The rounds by mail before turn 1 as the play-by-email pipeline sees them
//! ([`judge_core::pbem::game::Round`]): choosing homes ([`super::setup`]) and Jumpstart's
//! auction ([`super::modules::jumpstart`]).

use super::order_text::Expect;
use super::player::Colour;
use super::report::picture;
use serde::{Deserialize, Serialize};

use super::modules::jumpstart::{self, Auction};
use super::setup::{ChooseHomes, Outcome, Setup};
use judge_core::diagnostic::Diagnostics;
use judge_core::json::stable_json;
use judge_core::pbem::game::{
    Checked, GameError, Header, Position, Round, RoundGuide, RoundStep, Seat,
};
use judge_core::text::count;

fn expect<'a>(player: Option<&str>, game: Option<&'a str>) -> Expect<'a> {
    Expect {
        player: player.and_then(|p| p.parse::<Colour>().ok()),
        game,
    }
}

/// The answer to a mail for a round: a summary line, every problem, then `after`.
fn answer(
    what: &str,
    player: Option<Colour>,
    diagnostics: Vec<judge_core::diagnostic::Diagnostic>,
    file: &str,
    text: &str,
    after: String,
) -> Checked {
    let who = player.map_or("an unknown player".to_string(), |p| p.to_string());
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let mut out = format!("{what} for {who}: {}.\n", count(errors, "error"));
    if !diagnostics.is_empty() {
        let d = Diagnostics {
            file: file.to_string(),
            source: text.to_string(),
            items: diagnostics.clone(),
        };
        out.push_str(&format!("\n{}\n", d.render().trim_end()));
    }
    out.push_str(&after);
    Checked {
        player: player.map(|p| p.name().to_string()),
        turn: 0,
        text: out,
        echo: serde_json::Value::Array(Vec::new()),
        diagnostics,
    }
}

/// A step of a round, for the pipeline: the round after it, whether the choice was
/// taken, and the turn-0 state when it ended the round.
fn step_of<R: Serialize>(
    round: &R,
    taken: bool,
    summary: String,
    diagnostics: &[judge_core::diagnostic::Diagnostic],
    finished: Option<&super::State>,
) -> Result<RoundStep, GameError> {
    Ok(RoundStep {
        round: stable_json(round).map_err(|e| GameError::internal(e.to_string()))?,
        taken,
        summary,
        diagnostics: diagnostics.to_vec(),
        finished: finished
            .map(stable_json)
            .transpose()
            .map_err(|e| GameError::internal(e.to_string()))?,
    })
}

fn colour(player: &str) -> Result<Colour, GameError> {
    player
        .parse()
        .map_err(|_| GameError::input(format!("{player} does not play in this game")))
}

impl Round for Setup {
    fn seats(&self) -> Vec<Seat> {
        Position::seats(&self.state)
    }

    fn next(&self) -> Option<String> {
        Setup::next(self).map(|c| c.name().to_string())
    }

    fn header(&self, text: &str) -> Header {
        Position::header(&self.state, text)
    }

    fn check(&self, text: &str, file: &str, player: Option<&str>, game: Option<&str>) -> Checked {
        let c = Setup::check(self, text, &expect(player, game));
        let after = match (c.home, Setup::next(self)) {
            (Some(h), Some(n)) if Some(n) == c.player => format!("\nYour home will be {h}.\n"),
            (Some(h), Some(n)) => format!(
                "\n{h} is free now. It is {n}'s turn to choose first: your choice is taken when your turn comes, if it is still legal then.\n"
            ),
            _ => String::new(),
        };
        answer("A home", c.player, c.diagnostics, file, text, after)
    }

    fn step(&self, player: &str, text: Option<&str>) -> Result<RoundStep, GameError> {
        let step = self.choose(colour(player)?, text);
        let taken = matches!(step.outcome, Outcome::Chose(_) | Outcome::Defaulted(_));
        step_of(
            &step.setup,
            taken,
            step.summary(),
            &step.diagnostics,
            step.state.as_ref(),
        )
    }

    fn guide(&self) -> RoundGuide {
        RoundGuide {
            what: "the players choose their homes, one at a time".into(),
            how: format!(
                "mail the header lines and one line `home HEX` (a tile split by a river needs its side, `home E4/W`) naming {} at least two steps from every home chosen before",
                match self.choose {
                    ChooseHomes::Marked => "one of the scenario's starting places",
                    ChooseHomes::Any => "any land tile",
                }
            ),
            example: format!(
                "home {}",
                self.default_home()
                    .map_or("C4".to_string(), |a| a.to_string())
            ),
        }
    }

    fn show(&self) -> String {
        let mut out =
            String::from("The set-up round: each player chooses a home, in this order.\n\n");
        for c in self.sequence() {
            let line = match self.chosen.iter().find(|x| x.player == *c) {
                Some(x) if x.by_default => {
                    format!(
                        "  {:<7} {} (the default: no choice in time)\n",
                        c.name(),
                        x.home
                    )
                }
                Some(x) => format!("  {:<7} {}\n", c.name(), x.home),
                None if Setup::next(self) == Some(*c) => format!("  {:<7} chooses now\n", c.name()),
                None => format!("  {:<7} chooses later\n", c.name()),
            };
            out.push_str(&line);
        }
        if let Some(n) = Setup::next(self) {
            out.push_str(&format!(
                "\n{n} chooses next: `home HEX` (a tile split by a river with its side: `home E4/W`).\n"
            ));
            let legal = self.legal_homes();
            let some: Vec<String> = legal.iter().take(12).map(|a| a.to_string()).collect();
            out.push_str(&format!(
                "\n{} left{}{}.\n",
                count(legal.len(), "legal place"),
                if some.is_empty() { "" } else { ", among them " },
                some.join(", ")
            ));
        }
        out
    }

    fn picture(&self) -> judge_core::picture::Picture {
        picture::draw(&self.state, "the set-up round")
    }
}

/// The round a Roads & Boats game begins with, as the archive keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PreGame {
    /// Players choose their homes.
    Homes(Setup),
    /// Jumpstart: players bid for the starting lots.
    Auction(Auction),
}

impl PreGame {
    fn round(&self) -> &dyn Round {
        match self {
            PreGame::Homes(s) => s,
            PreGame::Auction(a) => a,
        }
    }
}

impl Round for PreGame {
    fn seats(&self) -> Vec<Seat> {
        self.round().seats()
    }

    fn next(&self) -> Option<String> {
        self.round().next()
    }

    fn header(&self, text: &str) -> Header {
        self.round().header(text)
    }

    fn check(&self, text: &str, file: &str, player: Option<&str>, game: Option<&str>) -> Checked {
        self.round().check(text, file, player, game)
    }

    fn step(&self, player: &str, text: Option<&str>) -> Result<RoundStep, GameError> {
        let mut step = self.round().step(player, text)?;
        // Keep the kind of round in what is stored.
        step.round = match self {
            PreGame::Homes(_) => {
                let s: Setup = serde_json::from_str(&step.round)
                    .map_err(|e| GameError::internal(e.to_string()))?;
                stable_json(&PreGame::Homes(s))
            }
            PreGame::Auction(_) => {
                let a: Auction = serde_json::from_str(&step.round)
                    .map_err(|e| GameError::internal(e.to_string()))?;
                stable_json(&PreGame::Auction(a))
            }
        }
        .map_err(|e| GameError::internal(e.to_string()))?;
        Ok(step)
    }

    fn guide(&self) -> RoundGuide {
        self.round().guide()
    }

    fn show(&self) -> String {
        self.round().show()
    }

    fn picture(&self) -> judge_core::picture::Picture {
        self.round().picture()
    }
}

/// Jumpstart's auction (rulebook &cetera, Jumpstart) by mail: a player whose turn it is
/// mails `bid 5 on lot 2`.
impl Round for Auction {
    fn seats(&self) -> Vec<Seat> {
        Position::seats(&self.state)
    }

    fn next(&self) -> Option<String> {
        Auction::next(self).map(|c| c.name().to_string())
    }

    fn header(&self, text: &str) -> Header {
        Position::header(&self.state, text)
    }

    fn check(&self, text: &str, file: &str, player: Option<&str>, game: Option<&str>) -> Checked {
        let c = Auction::check(self, text, &expect(player, game));
        let after = c.bid.map_or(String::new(), |(lot, price)| {
            format!("\nYour bid: {price} on lot {lot}.\n")
        });
        answer("A bid", c.player, c.diagnostics, file, text, after)
    }

    fn step(&self, player: &str, text: Option<&str>) -> Result<RoundStep, GameError> {
        let step = self.bid(colour(player)?, text);
        let taken = matches!(step.outcome, jumpstart::Outcome::Bid { .. });
        step_of(
            &step.auction,
            taken,
            step.summary(),
            &step.diagnostics,
            step.state.as_ref(),
        )
    }

    fn guide(&self) -> RoundGuide {
        let (lot, price) = self.default_bid().unwrap_or((1, 0));
        RoundGuide {
            what: "the players bid for the starting lots (each a starting tile and goods), one at a time (&cetera, Jumpstart)".into(),
            how: format!(
                "mail the header lines and one line `bid PRICE on lot N` (the first bid on a lot may be 0, each later one at least {} more). A player who holds a lot passes without a mail; the bidding ends when every player holds one, and each winning bid is taken from its winner's final score",
                jumpstart::RAISE
            ),
            example: format!("bid {price} on lot {lot}"),
        }
    }

    fn show(&self) -> String {
        let mut out = String::from("The auction of the starting lots (Jumpstart).\n\n");
        for (i, lot) in self.lots.iter().enumerate() {
            let standing = self
                .standing
                .get(i)
                .copied()
                .flatten()
                .map_or("no bid yet".to_string(), |b| {
                    format!("{} bids {}", b.player, b.price)
                });
            out.push_str(&format!("  lot {}: {lot}: {standing}\n", i + 1));
        }
        if let Some(n) = Auction::next(self) {
            out.push_str(&format!(
                "\n{n} bids next: `bid PRICE on lot N` (the first bid on a lot may be 0, each later one at least {} more).\n",
                jumpstart::RAISE
            ));
        }
        out
    }

    fn picture(&self) -> judge_core::picture::Picture {
        picture::draw(&self.state, "the auction")
    }
}
