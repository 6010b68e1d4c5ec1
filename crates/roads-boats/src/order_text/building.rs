//! The building phase's orders (RULINGS R6; rulebook pp.12-15).

use judge_core::diagnostic::Diagnostic;

use crate::building::MineBag;
use crate::map::{Border, Dir, PlaceError};
use crate::modules;
use crate::order_words;
use crate::orders::BuildingOrder;
use crate::state::Phase;

use super::reader::{R, Reader};

impl Reader<'_> {
    pub(super) fn building(&mut self) -> R<BuildingOrder> {
        match self.verb(Phase::Building)?.as_str() {
            "build" => {
                let kind = self.building_kind()?;
                self.expect("at")?;
                let at = self.area()?;
                let mut mixture = None;
                if self.eat("mixture") {
                    mixture = Some(self.mixture()?);
                }
                let with = self.with()?;
                if mixture.is_none() && self.eat("mixture") {
                    mixture = Some(self.mixture()?);
                }
                Ok(BuildingOrder::Build {
                    kind,
                    at,
                    with,
                    mixture,
                })
            }
            "road" => {
                let from = self.area()?;
                self.eat("to");
                let to = self.area()?;
                Ok(BuildingOrder::Road {
                    from,
                    to,
                    with: self.with()?,
                })
            }
            "bridge" => {
                let at = self.hex()?;
                let over = if self.is("with") || self.is("by") {
                    None
                } else {
                    self.eat("over");
                    let t = self.word("the river arm, like `N`")?;
                    Some(
                        t.text
                            .parse::<Dir>()
                            .map_err(|e| Diagnostic::new(e).at(t.span))?,
                    )
                };
                Ok(BuildingOrder::Bridge {
                    at,
                    over,
                    with: self.with()?,
                })
            }
            v @ ("wall" | "demolish") => {
                let t = self.word("a border, like `C4-C5`")?;
                let border: Border = t
                    .text
                    .parse()
                    .map_err(|e: PlaceError| Diagnostic::new(e).at(t.span))?;
                let mut tokens = None;
                if v == "wall" && (self.eat("tokens") || self.eat("to")) {
                    let n = self.number()?;
                    tokens = Some(u8::try_from(n).unwrap_or(u8::MAX));
                    self.eat("tokens");
                }
                let with = self.with()?;
                Ok(if v == "wall" {
                    BuildingOrder::Wall {
                        border,
                        with,
                        tokens,
                    }
                } else {
                    BuildingOrder::Demolish { border, with }
                })
            }
            "shaft" => {
                let at = self.hex()?;
                self.eat("mixture");
                let mixture = if self.is("with") || self.is("by") {
                    MineBag::ORDINARY
                } else {
                    self.mixture()?
                };
                Ok(BuildingOrder::Shaft {
                    at,
                    mixture,
                    with: self.with()?,
                })
            }
            "offer" => Ok(BuildingOrder::Consent(self.consent("offer")?)),
            verb => match modules::read(Phase::Building, verb, self) {
                Some(order) => order.map(BuildingOrder::Module),
                None => Err(self.missing(&order_words::sentence(Phase::Building))),
            },
        }
    }
}
