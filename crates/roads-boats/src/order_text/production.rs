//! The production phase's orders (RULINGS R1, step 3).

use judge_core::diagnostic::{Diagnostic, did_you_mean};

use crate::building::Output;
use crate::goods::Good;
use crate::modules;
use crate::order_words;
use crate::orders::ProductionOrder;
use crate::player::Research;
use crate::state::Phase;
use crate::transporter::{Kind, TransporterId};

use super::lexer::Token;
use super::reader::{R, Reader};

impl Reader<'_> {
    pub(super) fn production(&mut self) -> R<ProductionOrder> {
        match self.verb(Phase::Production)?.as_str() {
            "make" => {
                let count = if self.peek().is_some_and(|t| t.text.parse::<u32>().is_ok()) {
                    self.number()?
                } else {
                    1
                };
                let t = self.word("what to make, like `boards` or `wagon`")?;
                let output = match t.text.parse::<Kind>() {
                    Ok(k) => Output::Transporter(k),
                    Err(_) => Output::Good(self.good_word(&t)?),
                };
                self.expect("at")?;
                let at = self.hex_or_area()?;
                let mut from = Vec::new();
                if self.eat("from") {
                    // Another player's transporter if its owner offers it (consent).
                    from.push(self.transporter_ref(false)?);
                    while self.eat(",") || self.eat("and") {
                        from.push(self.transporter_ref(false)?);
                    }
                }
                let launch = if self.eat("launch") {
                    Some(self.location()?)
                } else {
                    None
                };
                let using = if self.is("using") {
                    let u = self.here();
                    self.next();
                    if !matches!(output, Output::Good(Good::Fuel | Good::Paper)) {
                        return Err(Diagnostic::new(
                            "`using` chooses trunks or boards for a coal burner (fuel) or a paper mill (paper)",
                        )
                        .at(u)
                        .help("leave `using …` out for other factories"));
                    }
                    let t = self.word("`trunks` or `boards`")?;
                    match self.good_word(&t)? {
                        g @ (Good::Trunks | Good::Boards) => Some(g),
                        _ => {
                            return Err(Diagnostic::new(format!(
                                "`{}` will not do: a coal burner or paper mill takes trunks or boards",
                                t.text
                            ))
                            .at(t.span)
                            .help("write `using trunks` or `using boards`"));
                        }
                    }
                } else {
                    None
                };
                Ok(ProductionOrder::Make {
                    count,
                    output,
                    at,
                    from,
                    launch,
                    using,
                })
            }
            v @ ("load" | "unload") => {
                let transporter = self.transporter()?;
                let goods = self.goods()?;
                let area = if self.eat("from") || self.eat("to") || self.eat("at") {
                    Some(self.area()?)
                } else {
                    None
                };
                Ok(if v == "load" {
                    ProductionOrder::Load {
                        transporter,
                        goods,
                        area,
                    }
                } else {
                    ProductionOrder::Unload {
                        transporter,
                        goods,
                        area,
                    }
                })
            }
            "research" => {
                let t = self.word("a research subject")?;
                let subject = parse_research(&t)?;
                let with = self.with()?;
                Ok(ProductionOrder::Research { subject, with })
            }
            "upgrade" => {
                // `upgrade C3 to rowboat-factory`: every factory of the class at C3; or,
                // naming one (a city holds two), `upgrade C3 raft-factory to rowboat-factory`.
                let at = self.hex()?;
                let from = if self.is("to") {
                    None
                } else {
                    Some(self.building_kind()?)
                };
                self.expect("to")?;
                let to = self.building_kind()?;
                Ok(ProductionOrder::Upgrade { at, from, to })
            }
            "destroy" => Ok(ProductionOrder::Destroy {
                transporter: self.transporter()?,
            }),
            "breed" => {
                self.eat("donkeys");
                self.eat("at");
                Ok(ProductionOrder::Breed { at: self.hex()? })
            }
            "give" => {
                // `give D1 2 boards to D2`, or `give 2 boards from D1 to D2`.
                let (from, goods) = if self
                    .peek()
                    .is_some_and(|t| t.text.parse::<TransporterId>().is_ok())
                {
                    let from = self.transporter()?;
                    (from, self.goods()?)
                } else {
                    let goods = self.goods()?;
                    self.expect("from")?;
                    (self.transporter()?, goods)
                };
                self.expect("to")?;
                let to = self.transporter_ref(false)?;
                Ok(ProductionOrder::Give { from, to, goods })
            }
            "carry" => {
                let carried = self.transporter_ref(false)?;
                if !(self.eat("on") || self.eat("onto") || self.eat("with")) {
                    return Err(self
                        .missing("`on` and the transporter that carries it")
                        .help("write `carry R1 on T1`: T1 picks up R1"));
                }
                let carrier = self.transporter()?;
                Ok(ProductionOrder::Carry { carrier, carried })
            }
            v @ ("accept" | "offer" | "allow") => Ok(ProductionOrder::Consent(self.consent(v)?)),
            "no" => {
                if !(self.eat("breed") || self.eat("breeding")) {
                    return Err(self
                        .missing("`breed`")
                        .help("write `no breed C3` (or `no breed` for everywhere)"));
                }
                self.eat("donkeys");
                self.eat("at");
                self.eat("on");
                let at = if self.peek().is_some() {
                    Some(self.hex_or_area()?)
                } else {
                    None
                };
                Ok(ProductionOrder::NoBreed { at })
            }
            verb => match modules::read(Phase::Production, verb, self) {
                Some(order) => order.map(ProductionOrder::Module),
                None => Err(self.missing(&order_words::sentence(Phase::Production))),
            },
        }
    }
}

fn parse_research(t: &Token) -> R<Research> {
    let v = t.text.to_ascii_lowercase();
    v.parse::<Research>().map_err(|_| {
        let mut d =
            Diagnostic::new(format!("`{}` is not a research subject", t.text)).at(t.span.clone());
        if let Some(s) = did_you_mean(&v, Research::ALL.iter().map(|r| r.name())) {
            d = d.help(format!("did you mean `{s}`?"));
        }
        d
    })
}
