//! The words an order is made of: numbers, colours, transporters, places, goods, consents,
//! and the verb that starts each phase's orders.

use std::ops::Range;

use judge_core::diagnostic::{Diagnostic, did_you_mean};

use crate::building::{BuildingKind, MineBag};
use crate::goods::{Good, Goods};
use crate::map::{AreaId, Coast, Hex, Map};
use crate::order_words::{self, PHASES};
use crate::orders::{Consent, Party};
use crate::player::Colour;
use crate::state::Phase;
use crate::transporter::{Location, TransporterId};
use crate::word_error::WordError;

use super::lexer::Token;
use super::{Ref, heading_of};

pub(crate) struct Reader<'b> {
    pub(super) toks: &'b [Token],
    pub(super) pos: usize,
    pub(super) map: &'b Map,
    pub(super) end: usize,
    pub(super) refs: Vec<Ref>,
    pub(super) line: u32,
}

pub(crate) type R<T> = Result<T, Diagnostic>;

impl Reader<'_> {
    pub(crate) fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    pub(crate) fn next(&mut self) -> Option<Token> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    pub(crate) fn here(&self) -> Range<usize> {
        self.peek()
            .map_or(self.end..self.end + 1, |t| t.span.clone())
    }

    pub(crate) fn missing(&self, what: &str) -> Diagnostic {
        Diagnostic::new(format!("expected {what} here")).at(self.here())
    }

    pub(crate) fn word(&mut self, what: &str) -> R<Token> {
        match self.peek().cloned() {
            Some(t) if !matches!(t.text.as_str(), "," | ";" | ":") => {
                self.pos += 1;
                Ok(t)
            }
            _ => Err(self.missing(what)),
        }
    }

    pub(crate) fn is(&self, word: &str) -> bool {
        self.peek()
            .is_some_and(|t| t.text.eq_ignore_ascii_case(word))
    }

    pub(crate) fn eat(&mut self, word: &str) -> bool {
        if self.is(word) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, word: &str) -> R<()> {
        if self.eat(word) {
            Ok(())
        } else {
            Err(self.missing(&format!("`{word}`")))
        }
    }

    pub(crate) fn finished(&self) -> R<()> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(Diagnostic::new(format!(
                "unexpected `{}` at the end of the order",
                t.text
            ))
            .at(t.span.clone())),
        }
    }

    /// The rest of a header line after its keyword (and a `:` or `=` after that).
    pub(crate) fn rest_text(&mut self) -> R<String> {
        self.next();
        if !self.eat(":") {
            self.eat("=");
        }
        let t = self.word("a value")?;
        let mut s = t.text.to_string();
        while let Some(t) = self.next() {
            s.push(' ');
            s.push_str(&t.text);
        }
        Ok(s)
    }

    pub(crate) fn number(&mut self) -> R<u32> {
        let t = self.word("a number")?;
        t.text
            .parse()
            .map_err(|_| Diagnostic::new(format!("`{}` is not a number", t.text)).at(t.span))
    }

    pub(crate) fn colour(&mut self) -> R<Colour> {
        let t = self.word("a colour")?;
        if t.text.parse::<Colour>().is_err()
            && let Some(s) = did_you_mean(&t.text, Colour::SEATS.iter().map(|c| c.name()))
        {
            return Err(
                Diagnostic::new(format!("`{}` is not a player colour", t.text))
                    .at(t.span)
                    .help(format!("did you mean `{s}`?")),
            );
        }
        t.text
            .parse()
            .map_err(|e: WordError| Diagnostic::new(e).at(t.span))
    }

    pub(crate) fn transporter(&mut self) -> R<TransporterId> {
        self.transporter_ref(true)
    }

    /// A transporter id, remembered with where it was written.
    pub(crate) fn transporter_ref(&mut self, own: bool) -> R<TransporterId> {
        let t = self.word("a transporter id, like `D2`")?;
        let id: TransporterId = t
            .text
            .parse()
            .map_err(|e: WordError| Diagnostic::new(e).at(t.span.clone()))?;
        self.refs.push(Ref {
            line: self.line,
            id,
            span: t.span,
            own,
        });
        Ok(id)
    }

    pub(crate) fn hex(&mut self) -> R<Hex> {
        let t = self.word("a hex, like `C4`")?;
        let h: Hex = t.text.parse().map_err(|e: crate::map::HexLabelError| {
            Diagnostic::new(e.to_string()).at(t.span.clone())
        })?;
        if !self.map.tiles.contains_key(&h) {
            return Err(Diagnostic::new(format!("{h} is not a tile of this map")).at(t.span));
        }
        Ok(h)
    }

    /// A tile, written as a hex (`F3`) or as one of its areas (`F3/SW`).
    pub(crate) fn hex_or_area(&mut self) -> R<Hex> {
        if self.peek().is_some_and(|t| t.text.contains('/')) {
            Ok(self.area()?.hex)
        } else {
            self.hex()
        }
    }

    /// Two areas, `C3 C4`, `C3 to C4` or `C3-C4` (a border of two whole tiles).
    pub(crate) fn area_pair(&mut self) -> R<(AreaId, AreaId)> {
        if let Some(t) = self.peek().cloned()
            && let Some((a, b)) = t.text.split_once('-')
            && !a.is_empty()
            && !b.is_empty()
        {
            self.next();
            let read = |x: &str| {
                self.map
                    .resolve_area(x)
                    .map_err(|e| Diagnostic::new(e).at(t.span.clone()))
            };
            return Ok((read(a)?, read(b)?));
        }
        let from = self.area()?;
        self.eat("to");
        Ok((from, self.area()?))
    }

    pub(crate) fn area(&mut self) -> R<AreaId> {
        let t = self.word("an area, like `C4` or `C4/E`")?;
        self.map
            .resolve_area(&t.text)
            .map_err(|e| Diagnostic::new(e).at(t.span))
    }

    pub(crate) fn good_word(&mut self, t: &Token) -> R<Good> {
        t.text.parse().map_err(|e: WordError| {
            let mut d = Diagnostic::new(e).at(t.span.clone());
            // `2Bd` copied from the map picture: the count stands apart in an order.
            let word = t.text.trim_start_matches(|c: char| c.is_ascii_digit());
            let count = &t.text[..t.text.len() - word.len()];
            let names = Good::ALL.iter().map(|g| g.name());
            if !count.is_empty() && word.parse::<Good>().is_ok() {
                d = d.help(format!(
                    "the map writes `{}`; an order writes the count apart: `{count} {}`",
                    t.text,
                    word.to_ascii_lowercase()
                ));
            } else if let Some(s) = did_you_mean(&t.text, names) {
                d = d.help(format!("did you mean `{s}`?"));
            }
            d
        })
    }

    /// `2 boards, 1 stone` (a count may be left out for one).
    /// Goods, or the word `nothing`.
    pub(crate) fn goods_or_nothing(&mut self) -> R<Goods> {
        if self.eat("nothing") {
            Ok(Goods::new())
        } else {
            self.goods()
        }
    }

    pub(crate) fn goods(&mut self) -> R<Goods> {
        let mut g = Goods::new();
        loop {
            let t = self.word("goods, like `2 boards`")?;
            let (n, good_tok) = match t.text.parse::<u32>() {
                Ok(n) => (n, self.word("a good, like `boards`")?),
                Err(_) => (1, t),
            };
            g.add(self.good_word(&good_tok)?, n);
            let more = self
                .peek()
                .is_some_and(|t| t.text == "," || t.text.eq_ignore_ascii_case("and"))
                && self.toks.get(self.pos + 1).is_some_and(|t| {
                    t.text.parse::<u32>().is_ok() || t.text.parse::<Good>().is_ok()
                });
            if more {
                self.pos += 1;
                continue;
            }
            // Also `2 boards 1 stone`.
            if self.peek().is_some_and(|t| t.text.parse::<u32>().is_ok()) {
                continue;
            }
            return Ok(g);
        }
    }

    pub(crate) fn location(&mut self) -> R<Location> {
        let first = self.word("a position")?;
        let loc = match first.text.to_ascii_lowercase().as_str() {
            "river" => Location::River(self.hex()?),
            "sea" => Location::Sea(self.hex()?),
            "dock" => {
                let land = self.area()?;
                let sea = self.hex()?;
                Location::Dock(Coast { land, sea })
            }
            _ => {
                self.pos -= 1;
                let h: Result<Hex, _> = first.text.split('/').next().unwrap_or("").parse();
                match h {
                    Ok(h) if self.map.is_sea(h) => {
                        self.pos += 1;
                        Location::Sea(h)
                    }
                    _ => Location::Land(self.area()?),
                }
            }
        };
        Ok(loc)
    }

    pub(crate) fn building_kind(&mut self) -> R<BuildingKind> {
        let t = self.word("a building, like `sawmill`")?;
        t.text.parse().map_err(|e: WordError| {
            let mut d = Diagnostic::new(e).at(t.span.clone());
            if let Some(s) = did_you_mean(&t.text, BuildingKind::ALL.iter().map(|k| k.name())) {
                d = d.help(format!("did you mean `{s}`?"));
            }
            d
        })
    }

    pub(crate) fn mixture(&mut self) -> R<MineBag> {
        let t = self.word("a mixture, like `3/3`")?;
        let bad = || {
            Diagnostic::new(format!(
                "`{}` is not a mixture: write gold/iron, like `4/0`",
                t.text
            ))
            .at(t.span.clone())
        };
        let (g, i) = t.text.split_once('/').ok_or_else(bad)?;
        Ok(MineBag {
            gold: g.parse().map_err(|_| bad())?,
            iron: i.parse().map_err(|_| bad())?,
        })
    }

    /// A colour, or `anyone`.
    pub(crate) fn party(&mut self) -> R<Party> {
        if self.eat("anyone") || self.eat("anybody") || self.eat("everyone") {
            Ok(Party::Anyone)
        } else {
            Ok(Party::Player(self.colour()?))
        }
    }

    /// `accept [GOODS] from yellow [on D3]`, `offer D3 to yellow`, `offer 2 boards from D3
    /// to yellow`, `allow yellow to carry D3` (docs/orders.md, consent).
    pub(crate) fn consent(&mut self, verb: &str) -> R<Consent> {
        match verb {
            "accept" => {
                let any = self.is("from") || self.eat("goods") || self.eat("anything");
                let goods = if any { None } else { Some(self.goods()?) };
                self.expect("from")?;
                let from = self.party()?;
                let onto = if self.eat("on") || self.eat("onto") {
                    Some(self.transporter()?)
                } else {
                    None
                };
                Ok(Consent::Accept { from, goods, onto })
            }
            "offer" => {
                let whole = self
                    .peek()
                    .is_some_and(|t| t.text.parse::<TransporterId>().is_ok())
                    && self
                        .toks
                        .get(self.pos + 1)
                        .is_some_and(|t| t.text.eq_ignore_ascii_case("to"));
                let (transporter, goods) = if whole {
                    (self.transporter()?, None)
                } else {
                    let goods = self.goods()?;
                    if !(self.eat("from") || self.eat("on")) {
                        return Err(self
                            .missing("`from` and your transporter")
                            .help("write `offer 2 boards from D3 to yellow`, or `offer D3 to yellow` for all it carries"));
                    }
                    (self.transporter()?, Some(goods))
                };
                self.expect("to")?;
                let to = self.party()?;
                Ok(Consent::Offer {
                    transporter,
                    goods,
                    to,
                })
            }
            _ => {
                let by = self.party()?;
                self.expect("to")?;
                self.expect("carry")?;
                let transporter = self.transporter()?;
                Ok(Consent::Carry { transporter, by })
            }
        }
    }

    /// `2 geese` after `follow` (the word may be left out).
    pub(crate) fn follow_count(&mut self) -> R<u32> {
        let n = self.number()?;
        self.eat("geese");
        self.eat("goose");
        Ok(n)
    }

    pub(crate) fn with(&mut self) -> R<TransporterId> {
        if !(self.eat("with") || self.eat("by")) {
            return Err(self.missing("`with` and the transporter that builds"));
        }
        self.transporter()
    }

    /// The verb of an order of `phase`: one of its words in the one list of order words
    /// ([`order_words`]), or an error that says which are, and the one likely meant.
    pub(crate) fn verb(&mut self, phase: Phase) -> R<String> {
        let t = self.word("an order")?;
        let v = order_words::canonical(&t.text);
        let known = order_words::verbs(phase);
        if known.contains(&v.as_str()) {
            Ok(v)
        } else {
            let list = order_words::sentence(phase);
            let mut d = Diagnostic::new(format!(
                "`{}` is not an order of this phase: use {list}",
                t.text
            ))
            .at(t.span);
            let synonym = order_words::SYNONYMS
                .iter()
                .find(|(s, _)| *s == v)
                .map(|(_, meant)| {
                    if order_words::verbs(phase).contains(meant) {
                        (*meant).to_string()
                    } else {
                        let (p, _) = order_words::all()
                            .find(|(_, o)| order_words::verb(o) == *meant)
                            .unwrap_or((phase, meant));
                        format!("{meant} (in the {p} phase)")
                    }
                });
            let elsewhere = match v.as_str() {
                "offer" => Some(
                    "an offer goes in the production or building orders, where the other player hands goods in or builds with them; in movement, give the goods (the other player accepts them)",
                ),
                "accept" => Some(
                    "`accept` goes in the production or movement orders, where goods are handed over",
                ),
                "allow" => Some(
                    "`allow … to carry` goes in the production or movement orders, where transporters are picked up",
                ),
                "give" | "carry" => Some(
                    "in the movement phase, give and carry are steps of a move: `move D1: give 1 stone to D2`, `move T1: carry R1`",
                ),
                _ => None,
            };
            if let Some(h) = elsewhere {
                return Err(d.help(h));
            }
            if let Some(s) =
                synonym.or_else(|| did_you_mean(&v, known.iter().copied()).map(str::to_string))
            {
                d = d.help(format!("did you mean `{s}`?"));
            } else if let Some((s, phase)) = PHASES
                .iter()
                .filter(|p| **p != phase)
                .find_map(|p| did_you_mean(&v, order_words::verbs(*p)).map(|s| (s, heading_of(*p))))
            {
                let aside = if s == "load" || s == "unload" {
                    " (in movement, loading is a step of a move: `move D1: load 1 board; C3`)"
                } else {
                    ""
                };
                // The word itself is an order of another phase: no "did you mean" it.
                d = d.help(if s.eq_ignore_ascii_case(&v) {
                    format!("`{s}` is a {phase} order: write it below the `{phase}` heading{aside}")
                } else {
                    format!(
                        "did you mean `{s}`? That is a {phase} order: write it below the `{phase}` heading{aside}"
                    )
                });
            }
            Err(d)
        }
    }
}
