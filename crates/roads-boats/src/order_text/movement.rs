//! The movement phase's orders (RULINGS R5): moves and their steps; a module's (`fly`,
//! `train`) by the grammar it registers.

use crate::modules;
use crate::order_words;
use crate::orders::{MovementOrder, Step};
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
            verb => match modules::read(Phase::Movement, verb, self) {
                Some(order) => order.map(MovementOrder::Module),
                None => Err(self.missing(&order_words::sentence(Phase::Movement))),
            },
        }
    }
}
