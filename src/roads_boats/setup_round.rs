//! The rounds by mail before turn 1 as the play-by-email pipeline sees them
//! ([`crate::pbem::game::Round`]): choosing homes ([`super::setup`]) and Jumpstart's
//! auction ([`super::modules::jumpstart`]).

use super::check::Expect;
use super::player::Colour;
use super::report::picture;
use serde::{Deserialize, Serialize};

use super::modules::jumpstart::{self, Auction};
use super::setup::{Outcome, Setup};
use crate::archive::stable_json;
use crate::diagnostic::Diagnostics;
use crate::pbem::game::{Checked, Header, Position, Round, RoundStep, Seat};
use crate::text::count;

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
        let c = Setup::check(
            self,
            text,
            &Expect {
                player: player.and_then(|p| p.parse::<Colour>().ok()),
                game,
            },
        );
        let who = c
            .player
            .map_or("an unknown player".to_string(), |p| p.to_string());
        let mut out = format!("A home for {who}: {}.\n", count(c.errors(), "error"));
        if !c.diagnostics.is_empty() {
            let d = Diagnostics {
                file: file.to_string(),
                source: text.to_string(),
                items: c.diagnostics.clone(),
            };
            out.push_str(&format!("\n{}\n", d.render().trim_end()));
        }
        match (c.home, Setup::next(self)) {
            (Some(h), Some(n)) if Some(n) == c.player => {
                out.push_str(&format!("\nYour home will be {h}.\n"));
            }
            (Some(h), Some(n)) => out.push_str(&format!(
                "\n{h} is free now. It is {n}'s turn to choose first: your choice is taken when your turn comes, if it is still legal then.\n"
            )),
            _ => {}
        }
        Checked {
            player: c.player.map(|p| p.name().to_string()),
            turn: 0,
            text: out,
            echo: serde_json::Value::Array(Vec::new()),
            diagnostics: c.diagnostics,
        }
    }

    fn step(&self, player: &str, text: Option<&str>) -> Result<RoundStep, String> {
        let c: Colour = player
            .parse()
            .map_err(|_| format!("{player} does not play in this game"))?;
        let step = self.choose(c, text);
        let taken = matches!(step.outcome, Outcome::Chose(_) | Outcome::Defaulted(_));
        Ok(RoundStep {
            round: stable_json(&step.setup).map_err(|e| e.to_string())?,
            taken,
            summary: step.summary(),
            diagnostics: step.diagnostics.clone(),
            finished: step
                .state
                .as_ref()
                .map(stable_json)
                .transpose()
                .map_err(|e| e.to_string())?,
        })
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

    fn svg(&self) -> String {
        picture::svg(&self.state, "the set-up round")
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

    fn step(&self, player: &str, text: Option<&str>) -> Result<RoundStep, String> {
        let mut step = self.round().step(player, text)?;
        // Keep the kind of round in what is stored.
        step.round = match self {
            PreGame::Homes(_) => {
                let s: Setup = serde_json::from_str(&step.round).map_err(|e| e.to_string())?;
                stable_json(&PreGame::Homes(s))
            }
            PreGame::Auction(_) => {
                let a: Auction = serde_json::from_str(&step.round).map_err(|e| e.to_string())?;
                stable_json(&PreGame::Auction(a))
            }
        }
        .map_err(|e| e.to_string())?;
        Ok(step)
    }

    fn show(&self) -> String {
        self.round().show()
    }

    fn svg(&self) -> String {
        self.round().svg()
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
        let c = Auction::check(
            self,
            text,
            &Expect {
                player: player.and_then(|p| p.parse::<Colour>().ok()),
                game,
            },
        );
        let who = c
            .player
            .map_or("an unknown player".to_string(), |p| p.to_string());
        let mut out = format!("A bid for {who}: {}.\n", count(c.errors(), "error"));
        if !c.diagnostics.is_empty() {
            let d = Diagnostics {
                file: file.to_string(),
                source: text.to_string(),
                items: c.diagnostics.clone(),
            };
            out.push_str(&format!("\n{}\n", d.render().trim_end()));
        }
        if let Some((lot, price)) = c.bid {
            out.push_str(&format!("\nYour bid: {price} on lot {lot}.\n"));
        }
        Checked {
            player: c.player.map(|p| p.name().to_string()),
            turn: 0,
            text: out,
            echo: serde_json::Value::Array(Vec::new()),
            diagnostics: c.diagnostics,
        }
    }

    fn step(&self, player: &str, text: Option<&str>) -> Result<RoundStep, String> {
        let c: Colour = player
            .parse()
            .map_err(|_| format!("{player} does not play in this game"))?;
        let step = self.bid(c, text);
        let taken = matches!(step.outcome, jumpstart::Outcome::Bid { .. });
        Ok(RoundStep {
            round: stable_json(&step.auction).map_err(|e| e.to_string())?,
            taken,
            summary: step.summary(),
            diagnostics: step.diagnostics.clone(),
            finished: step
                .state
                .as_ref()
                .map(stable_json)
                .transpose()
                .map_err(|e| e.to_string())?,
        })
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

    fn svg(&self) -> String {
        picture::svg(&self.state, "the auction")
    }
}
