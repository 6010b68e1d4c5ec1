//! The wonder phase's orders (RULINGS R7, R2).

use crate::modules;
use crate::order_words;
use crate::orders::WonderOrder;
use crate::state::Phase;

use super::reader::{R, Reader};

impl Reader<'_> {
    pub(super) fn wonder(&mut self) -> R<WonderOrder> {
        let at = self.pos;
        let verb = self.verb(Phase::Wonder).map_err(|d| {
            let word = self
                .toks
                .get(at)
                .map(|t| t.text.to_ascii_lowercase())
                .unwrap_or_default();
            if matches!(word.as_str(), "buy" | "build" | "pay") {
                d.help("did you mean `bricks 2 paying 3 boards`?")
            } else {
                d
            }
        })?;
        match verb.as_str() {
            "bricks" => {
                let count = self.number()?;
                self.expect("paying")?;
                let paying = self.goods()?;
                Ok(WonderOrder::Bricks { count, paying })
            }
            "move" => {
                self.expect("order")?;
                let mut preferences = vec![self.number()?];
                while self.eat(",") {
                    preferences.push(self.number()?);
                }
                Ok(WonderOrder::MoveOrder { preferences })
            }
            verb => match modules::read(Phase::Wonder, verb, self) {
                Some(order) => order.map(WonderOrder::Module),
                None => Err(self.missing(&order_words::sentence(Phase::Wonder))),
            },
        }
    }
}
