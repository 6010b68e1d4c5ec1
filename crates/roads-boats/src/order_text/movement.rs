//! The movement phase's orders (RULINGS R5): moves and their steps, flights, trains.

use judge_core::diagnostic::Diagnostic;

use crate::goods::Goods;
use crate::order_words;
use crate::orders::{FareFrom, MovementOrder, Step};
use crate::state::Phase;

use super::reader::{R, Reader};

impl Reader<'_> {
    pub(super) fn steps(&mut self) -> R<Vec<Step>> {
        let mut steps = Vec::new();
        loop {
            let step = match self.peek().map(|t| t.text.to_ascii_lowercase()) {
                None => break,
                Some(w) if w == "load" || w == "unload" => {
                    self.next();
                    let goods = self.goods()?;
                    let area = if self.eat("from") || self.eat("to") || self.eat("at") {
                        Some(self.area()?)
                    } else {
                        None
                    };
                    if w == "load" {
                        Step::Load { goods, area }
                    } else {
                        Step::Unload { goods, area }
                    }
                }
                Some(w) if w == "give" => {
                    self.next();
                    let goods = self.goods()?;
                    self.expect("to")?;
                    Step::Give {
                        to: self.transporter_ref(false)?,
                        goods,
                    }
                }
                Some(w) if w == "follow" => {
                    self.next();
                    Step::Follow(self.follow_count()?)
                }
                Some(w) if w == "carry" => {
                    self.next();
                    Step::Carry(self.transporter_ref(false)?)
                }
                Some(w) if w == "to" => {
                    self.next();
                    Step::To(self.location()?)
                }
                Some(_) => Step::To(self.location()?),
            };
            steps.push(step);
            if !(self.eat(";") || self.eat(",")) {
                break;
            }
        }
        Ok(steps)
    }

    pub(super) fn movement(&mut self) -> R<MovementOrder> {
        match self.verb(Phase::Movement)?.as_str() {
            "move" => {
                let transporter = self.transporter()?;
                self.eat(":");
                if self.peek().is_none() {
                    return Err(self
                        .missing("where to go or what to do: a move needs at least one step")
                        .help("write the steps after the id, like `move D1: load 2 boards; C4`"));
                }
                let steps = self.steps()?;
                Ok(MovementOrder::Move { transporter, steps })
            }
            "fly" => {
                let plane = self.transporter()?;
                self.eat(":");
                let mut load = Goods::new();
                let mut follow = 0;
                let mut drops = Vec::new();
                let mut land = None;
                loop {
                    if self.eat("load") {
                        load.add_all(&self.goods()?);
                    } else if self.eat("follow") {
                        follow += self.follow_count()?;
                    } else if self.eat("drop") {
                        let goods = self.goods()?;
                        self.expect("on")?;
                        drops.push((self.area()?, goods));
                    } else if self.eat("land") {
                        self.eat("at");
                        land = Some(self.location()?);
                    } else {
                        return Err(self.missing("`load`, `follow`, `drop` or `land`"));
                    }
                    if !(self.eat(";") || self.eat(",")) {
                        break;
                    }
                }
                let land = land.ok_or_else(|| self.missing("`land` and where the plane lands"))?;
                Ok(MovementOrder::Fly {
                    plane,
                    load,
                    follow,
                    drops,
                    land,
                })
            }
            "train" => {
                let transporter = self.transporter()?;
                self.expect("to")?;
                let to = self.location()?;
                self.expect("fare")?;
                // `fare 1 stone` reads too: the fare is always one good.
                if self.peek().is_some_and(|t| t.text == "1") {
                    self.next();
                }
                let t = self.word("the good that pays the fare")?;
                let fare = self.good_word(&t)?;
                let fare_from = if self.eat("from") {
                    self.eat("the");
                    self.eat("its");
                    let w = self.word("`tile` or `cargo`")?;
                    match w.text.to_ascii_lowercase().as_str() {
                        "tile" | "ground" => Some(FareFrom::Tile),
                        "cargo" => Some(FareFrom::Cargo),
                        _ if w.text.eq_ignore_ascii_case(&transporter.to_string()) => {
                            Some(FareFrom::Cargo)
                        }
                        _ => {
                            return Err(Diagnostic::new(format!(
                                "`{}`: a fare comes from the tile or from the transporter's cargo",
                                w.text
                            ))
                            .at(w.span)
                            .help("write `fare stone from tile` or `fare stone from cargo`"));
                        }
                    }
                } else {
                    None
                };
                // `; follow 2 geese`: geese from the starting tile ride along.
                let mut follow = 0;
                while self.eat(";") || self.eat(",") {
                    if !self.eat("follow") {
                        return Err(self
                            .missing("`follow`")
                            .help("a train takes only `; follow 2 geese` after its fare"));
                    }
                    follow += self.follow_count()?;
                }
                Ok(MovementOrder::Train {
                    transporter,
                    to,
                    fare,
                    fare_from,
                    follow,
                })
            }
            v @ ("accept" | "allow") => Ok(MovementOrder::Consent(self.consent(v)?)),
            "release" => {
                // Either may be another player's: the carrier's owner puts the carried
                // one down, or its owner takes it back.
                let carried = self.transporter_ref(false)?;
                self.expect("from")?;
                let carrier = self.transporter_ref(false)?;
                self.expect("at")?;
                let at = self.location()?;
                Ok(MovementOrder::Release {
                    carrier,
                    carried,
                    at,
                })
            }
            _ => Err(self.missing(&order_words::sentence(Phase::Movement))),
        }
    }
}
