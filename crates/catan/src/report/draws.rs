//! The draws everyone sees made in a step, as the structured public record keeps them
//! (`turns/NNN/draws.json`, beside `public.json`), and their check against a game's
//! revealed seed: what `judge verify` does on a clone of the game's public git, where
//! the states are not (docs/archive.md, "The seed, the commitment, and the draws").
//!
//! ```json
//! { "rolls": [ { "turn": 32, "player": "orange", "dice": [1, 5] } ] }
//! ```
//!
//! Two kinds of the seed's draws are public ([`crate::rng`]): the first player (stream
//! `FIRST`, shown by turn 0's `public.json`) and the dice of each player's turn (stream
//! `ROLLS` at the turn's number). The deck and the steals are hidden: only the whole
//! archive shows them. The check reads the record, never a report's prose (nor the
//! press printed under it); it only asks that each step's report show the step's rolls
//! as the judge writes them.

use serde::{Deserialize, Serialize};

use crate::colour::Colour;
use crate::events::Event;
use crate::state::State;
use judge_core::luck::Luck;
use judge_core::pbem::game::{DrawCheck, GameError, PublicTurn};

/// The files of a step's public record, by the names the judge keeps them under.
const PUBLIC: &str = "public.json";
const DRAWS: &str = "draws.json";

/// `draws.json`: the rolls of one step, in the order they were made.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Draws {
    pub rolls: Vec<Roll>,
}

/// One roll: whose turn (Catan's count: 1 is the first player's first turn), who
/// rolled, and the dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roll {
    pub turn: u32,
    pub player: Colour,
    pub dice: [u8; 2],
}

impl Draws {
    /// The rolls a step made: from its events, each at the turn it was made in.
    pub fn of_step(before: &State, events: &[Event]) -> Draws {
        let mut turn = before.turn;
        let mut rolls = Vec::new();
        for e in events {
            match e {
                Event::TurnBegan { turn: t, .. } => turn = *t,
                Event::Rolled { player, dice } => rolls.push(Roll {
                    turn,
                    player: *player,
                    dice: *dice,
                }),
                _ => {}
            }
        }
        Draws { rolls }
    }

    /// The file's text: stable JSON, one roll to a line.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\n  \"rolls\": [");
        for (i, r) in self.rolls.iter().enumerate() {
            out.push_str(if i == 0 { "\n    " } else { ",\n    " });
            out.push_str(&format!(
                "{{ \"turn\": {}, \"player\": \"{}\", \"dice\": [{}, {}] }}",
                r.turn, r.player, r.dice[0], r.dice[1]
            ));
        }
        if !self.rolls.is_empty() {
            out.push_str("\n  ");
        }
        out.push_str("]\n}\n");
        out
    }
}

/// The seed's dice for a player's turn.
pub fn dice_of(luck: &Luck, turn: u32) -> [u8; 2] {
    let mut d = luck.draws(crate::rng::ROLLS, u64::from(turn));
    [d.die(), d.die()]
}

/// Checks a public record's steps, in order, against a revealed seed.
pub struct Checker {
    luck: Luck,
    /// The seats' colours and the first player's seat, from turn 0.
    seats: Vec<Colour>,
    first: usize,
    /// The player's turn whose roll comes next.
    next_roll: u32,
    /// The player's turn the last step's record was at.
    at: u32,
}

impl Checker {
    pub fn new(luck: Luck) -> Checker {
        Checker {
            luck,
            seats: Vec::new(),
            first: 0,
            next_roll: 1,
            at: 0,
        }
    }

    /// Whose turn `turn` is.
    fn roller(&self, turn: u32) -> Option<Colour> {
        let n = self.seats.len();
        (n > 0 && turn > 0).then(|| self.seats[(self.first + (turn as usize - 1)) % n])
    }

    /// A player's turn as the reports name it: `red's turn 9`.
    fn named(&self, turn: u32) -> String {
        match self.roller(turn) {
            Some(c) => format!("{c}'s turn {turn}"),
            None => format!("turn {turn}"),
        }
    }
}

fn wrong(why: String) -> GameError {
    GameError::corrupt(why)
}

impl DrawCheck for Checker {
    fn turn(&mut self, t: &PublicTurn<'_>) -> Result<usize, GameError> {
        let record = t.record.ok_or_else(|| {
            wrong(format!(
                "its {} is missing: every step of a game with hidden cards keeps the position as everyone may know it",
                PUBLIC
            ))
        })?;
        let s = State::from_public_json(record)
            .map_err(|e| wrong(format!("its {} does not read: {e}", PUBLIC)))?;
        if s.step != t.turn {
            return Err(wrong(format!(
                "its {} is the position after step {}, not after step {}: the record's steps are out of order",
                PUBLIC, s.step, t.turn
            )));
        }
        if t.turn == 0 {
            // The first player: the seed's draw below the number of seats.
            self.seats = s.players.iter().map(|p| p.colour).collect();
            let n = self.seats.len() as u32;
            let drawn = self.luck.draws(crate::rng::FIRST, 0).below(n) as usize;
            if usize::from(s.first) != drawn {
                return Err(wrong(format!(
                    "its {} says {} plays first; the seed draws {}",
                    PUBLIC,
                    s.colour(s.first),
                    self.seats[drawn]
                )));
            }
            self.first = drawn;
            self.at = s.turn;
            return Ok(1);
        }
        if self.seats.is_empty() {
            return Err(wrong("the record has no step 0 before it".into()));
        }
        let text = t.draws.ok_or_else(|| {
            wrong(format!(
                "its {} is missing: every step of a game with hidden cards keeps the draws everyone saw made in it (a game played before the judge kept them is checked on the GM's whole archive)",
                DRAWS
            ))
        })?;
        let draws: Draws = serde_json::from_str(text)
            .map_err(|e| wrong(format!("its {} does not read: {e}", DRAWS)))?;
        if s.turn < self.at {
            return Err(wrong(format!(
                "its {PUBLIC} is at {}, after {} before it: the record's steps are out of order",
                self.named(s.turn),
                self.named(self.at)
            )));
        }
        let report = t.report.unwrap_or("");
        for r in &draws.rolls {
            if r.turn != self.next_roll {
                return Err(wrong(format!(
                    "its {DRAWS} shows the roll of {}, but the roll of {} comes next: a roll is missing, or out of its place",
                    self.named(r.turn),
                    self.named(self.next_roll)
                )));
            }
            if self.roller(r.turn) != Some(r.player) {
                return Err(wrong(format!(
                    "its {DRAWS} shows {} rolling in {}",
                    r.player,
                    self.named(r.turn)
                )));
            }
            let seed = dice_of(&self.luck, r.turn);
            if r.dice != seed {
                return Err(wrong(format!(
                    "its {DRAWS} says {} rolled {} + {}; the seed's dice for that turn are {} + {}",
                    self.named(r.turn),
                    r.dice[0],
                    r.dice[1],
                    seed[0],
                    seed[1]
                )));
            }
            let line = crate::events::roll_text(r.player, r.dice);
            if !report.lines().any(|l| l.trim() == line) {
                return Err(wrong(format!(
                    "its report does not show the roll of {} as the record has it (`{line}`)",
                    self.named(r.turn)
                )));
            }
            self.next_roll += 1;
        }
        // Every turn before the one the step ends in has rolled; that one has rolled
        // exactly when the position shows its dice (they are cleared as a turn begins);
        // none after it. So a roll is at the very step it was made in, not one before
        // or after it.
        let rolled = s.dice.is_some();
        let expected = (s.turn + u32::from(rolled)).max(1);
        if self.next_roll < expected {
            return Err(wrong(format!(
                "its {PUBLIC} is at {}{}, but the record has no roll of {}: a roll is missing",
                self.named(s.turn),
                if rolled { ", after its roll" } else { "" },
                self.named(self.next_roll)
            )));
        }
        if self.next_roll > expected {
            return Err(wrong(format!(
                "its {DRAWS} shows the roll of {}, but its {PUBLIC} is at {}{}",
                self.named(self.next_roll - 1),
                self.named(s.turn),
                if rolled { "" } else { ", before its roll" }
            )));
        }
        // A step that ends with the dice on the table (a 7 that awaits discards, the
        // winning turn) shows the turn's roll.
        if let Some(d) = s.dice {
            let seed = dice_of(&self.luck, s.turn);
            if self.next_roll != s.turn + 1 || d != seed {
                return Err(wrong(format!(
                    "its {PUBLIC} shows the dice {} + {} for {}; the seed's are {} + {}",
                    d[0],
                    d[1],
                    self.named(s.turn),
                    seed[0],
                    seed[1]
                )));
            }
        }
        self.at = s.turn;
        Ok(draws.rolls.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `draws.json` as written reads back as the same rolls (an empty step too).
    #[test]
    fn the_file_reads_back_as_written() {
        for rolls in [
            vec![],
            vec![
                Roll {
                    turn: 7,
                    player: Colour::Blue,
                    dice: [6, 1],
                },
                Roll {
                    turn: 8,
                    player: Colour::White,
                    dice: [2, 2],
                },
            ],
        ] {
            let d = Draws { rolls };
            let back: Draws = serde_json::from_str(&d.to_json()).expect("reads");
            assert_eq!(back, d);
        }
    }
}
