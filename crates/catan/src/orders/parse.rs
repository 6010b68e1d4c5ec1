//! Reading an order file into [`Orders`]. A line that does not read is left out with a
//! diagnostic (file, line and column, the word, a suggestion); the rest are kept.

use std::ops::Range;

use super::kit::{Cursor, Reader, Res};
use super::text::{self, CleanLine};
use super::{Acceptance, Cond, Kind, Line, Order, Orders, RobberChoice, Section};
use crate::cards::{Cards, Resource};
use crate::colour::Colour;
use crate::rules::Refusal;
use crate::scenario;
use crate::state::State;
use judge_core::diagnostic::{Diagnostic, did_you_mean};

/// An order file read, with the problems found reading it.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub orders: Orders,
    pub problems: Vec<Diagnostic>,
}

/// Words that may begin a line, for suggestions.
const FIRST_WORDS: [&str; 26] = [
    "build",
    "road",
    "settlement",
    "city",
    "buy",
    "play",
    "trade",
    "offer",
    "end",
    "pass",
    "stop",
    "discard",
    "accept",
    "robber",
    "place",
    "if",
    "game",
    "player",
    "turn",
    "secret",
    "founding",
    "before",
    "after",
    "between",
    "special",
    "main",
];

impl Reader<'_> {
    /// `2 wool, 1 ore` / `wool and ore` / `3 wool`.
    fn cards(&self, c: &mut Cursor) -> Res<Cards> {
        let mut cards = Cards::NONE;
        loop {
            let n = match c.peek() {
                Some("a" | "an" | "one") => {
                    c.at += 1;
                    1
                }
                Some("two") => {
                    c.at += 1;
                    2
                }
                Some("three") => {
                    c.at += 1;
                    3
                }
                Some("four") => {
                    c.at += 1;
                    4
                }
                _ => match self.number(c) {
                    Some(n) if (1..=99).contains(&n) => n as u8,
                    Some(n) => {
                        return Err(
                            Diagnostic::new(format!("{n} cards is not a sensible count"))
                                .at(c.words[c.at - 1].1.clone()),
                        );
                    }
                    None => 1,
                },
            };
            let r = self.resource(c)?;
            cards.0[r.index()] = cards.0[r.index()].saturating_add(n);
            if !c.eat_any(&[",", "and", "+"]) {
                break;
            }
            // `and` may join conditions instead: go on only if cards follow.
            let more = c.peek().is_some_and(|w| {
                Resource::parse(w).is_some()
                    || w.parse::<u32>().is_ok()
                    || matches!(w, "a" | "an" | "one" | "two" | "three" | "four")
            });
            if !more {
                c.at -= 1;
                break;
            }
        }
        Ok(cards)
    }

    fn robber_choice(&self, c: &mut Cursor) -> Res<RobberChoice> {
        c.eat_any(&["to", "on", "at"]);
        let hex = self.hex(c)?;
        let mut rob = Vec::new();
        if c.eat_any(&["rob", "steal", "from"]) {
            c.eat("from");
            loop {
                if c.eat_any(&["nobody", "none"]) {
                    break;
                }
                rob.push(self.colour(c)?);
                if !c.eat_any(&[",", "or", "then", "and"]) {
                    break;
                }
            }
        }
        Ok(RobberChoice { hex, rob })
    }

    fn rolls(&self, c: &mut Cursor) -> Res<Vec<u8>> {
        let mut v = Vec::new();
        loop {
            let span = c.span();
            match self.number(c) {
                Some(n) if (2..=12).contains(&n) => v.push(n as u8),
                Some(n) => {
                    return Err(Diagnostic::new(format!("two dice cannot roll {n}"))
                        .at(span)
                        .help("a roll is 2 to 12"));
                }
                None => return Err(c.missing("a dice total (2 to 12)")),
            }
            if !c.eat_any(&[",", "or"]) {
                return Ok(v);
            }
        }
    }

    fn cond(&self, c: &mut Cursor) -> Res<Option<Cond>> {
        let not = c.eat("not");
        c.eat("the");
        if c.eat_any(&["rolled", "roll", "rolls", "dice", "roll's"]) {
            c.eat_any(&["is", "are", "was"]);
            let not = not | c.eat("not");
            let r = self.rolls(c)?;
            return Ok(Some(if not {
                Cond::NotRolled(r)
            } else {
                Cond::Rolled(r)
            }));
        }
        c.eat("i");
        if c.eat_any(&["have", "hold", "has"]) {
            return Ok(Some(Cond::Have(self.cards(c)?)));
        }
        if c.eat_any(&["can", "possible"]) {
            c.eat_any(&["afford", "do"]);
            c.eat_any(&["it", "so"]);
            return Ok(None);
        }
        Err(c.missing("a condition (`rolled 6`, `not rolled 7`, `I have 2 ore`, `I can`)"))
    }

    fn order(&self, c: &mut Cursor) -> Res<Order> {
        let start = c.span();
        let Some(w) = c.next() else {
            return Err(c.missing("an order"));
        };
        let express = scenario::orders_active(self);
        if express {
            if let Some(o) = scenario::read_build(self, c, w) {
                return o;
            }
            if matches!(w, "move" | "drive" | "go" | "ride") {
                return Ok(Order::Scenario(scenario::read_movement(self, c)?));
            }
            if w == "road" || (w == "build" && c.peek() == Some("road")) {
                return Err(no_roads(start));
            }
        }
        let o = match w {
            "build" => {
                let span = c.span();
                if express
                    && let Some(kind) = c.peek()
                    && let Some(o) = {
                        c.at += 1;
                        let o = scenario::read_build(self, c, kind);
                        if o.is_none() {
                            c.at -= 1;
                        }
                        o
                    }
                {
                    return o;
                }
                match c.next() {
                    Some("road") => Order::Road(self.edge(c)?),
                    Some("settlement") => {
                        c.eat_any(&["at", "on"]);
                        Order::Settlement(self.vertex(c)?)
                    }
                    Some("city") => {
                        c.eat_any(&["at", "on"]);
                        Order::City(self.vertex(c)?)
                    }
                    Some(other) => {
                        let d = Diagnostic::new(format!("cannot build `{other}`"))
                            .at(span)
                            .label("not a piece");
                        let pieces: &[&str] = if express {
                            &["line", "ferry", "settlement", "city"]
                        } else {
                            &["road", "settlement", "city"]
                        };
                        return Err(match did_you_mean(other, pieces.iter().copied()) {
                            Some(m) => d.help(format!("did you mean `{m}`?")),
                            None => d.help(format!("build {}", pieces.join(", "))),
                        });
                    }
                    None => return Err(c.missing("road, settlement or city")),
                }
            }
            "road" => {
                c.eat_any(&["at", "on"]);
                Order::Road(self.edge(c)?)
            }
            "settlement" => {
                c.eat_any(&["at", "on"]);
                Order::Settlement(self.vertex(c)?)
            }
            "city" | "upgrade" => {
                c.eat_any(&["at", "on"]);
                Order::City(self.vertex(c)?)
            }
            "buy" => {
                let n = match c.peek() {
                    Some("a" | "an" | "one") => {
                        c.at += 1;
                        1
                    }
                    _ => match self.number(c) {
                        Some(n) if (1..=25).contains(&n) => n as u8,
                        Some(_) => return Err(Diagnostic::new("buy 1 to 25 cards").at(start)),
                        None => 1,
                    },
                };
                let mut any = false;
                while c.eat_any(&[
                    "development",
                    "dev",
                    "devs",
                    "card",
                    "cards",
                    "development-card",
                    "development-cards",
                ]) {
                    any = true;
                }
                if !any {
                    return Err(c.missing("`development card`"));
                }
                Order::Buy(n)
            }
            "play" => self.play(c)?,
            "trade" | "bank" => {
                let gives = match self.number(c) {
                    Some(n) if (1..=20).contains(&n) => n as u8,
                    Some(_) => return Err(Diagnostic::new("trade 2 to 20 cards").at(start)),
                    None => 0,
                };
                let give = self.resource(c)?;
                if !c.eat("for") {
                    return Err(c.missing("`for`"));
                }
                let gets = match self.number(c) {
                    Some(n) if (1..=10).contains(&n) => n as u8,
                    Some(_) => return Err(Diagnostic::new("get 1 to 10 cards").at(start)),
                    None => 1,
                };
                let get = self.resource(c)?;
                if c.eat_any(&["with", "at"]) {
                    c.eat("the");
                    if !c.eat_any(&["bank", "harbour", "harbor", "port"]) {
                        return Err(c.missing("`bank` or `harbour`"));
                    }
                }
                if give == get {
                    // Reads, but can never be done: refused when played (RULINGS R1).
                    Order::Refused(Refusal::SameResource)
                } else {
                    Order::Trade {
                        give,
                        gives,
                        get,
                        gets,
                    }
                }
            }
            "offer" => {
                let give = self.cards(c)?;
                if !c.eat("for") {
                    return Err(c.missing("`for`"));
                }
                let get = self.cards(c)?;
                let to = if c.eat("to") {
                    Some(self.colour(c)?)
                } else {
                    None
                };
                if (0..5).any(|i| give.0[i] > 0 && get.0[i] > 0) {
                    // Never a resource for itself (docs/catan-orders.md): refused when
                    // played (RULINGS R1).
                    Order::Refused(Refusal::SameResource)
                } else {
                    Order::Offer { give, get, to }
                }
            }
            "end" | "pass" | "stop" | "done" => {
                c.eat_any(&["turn", "the"]);
                c.eat("turn");
                Order::End
            }
            other => {
                let d = Diagnostic::new(format!("`{other}` is not an order"))
                    .at(start)
                    .label("unknown order");
                let mut words = FIRST_WORDS.to_vec();
                if express {
                    words.extend(EXPRESS_WORDS);
                }
                return Err(match did_you_mean(other, words) {
                    Some(m) => d.help(format!("did you mean `{m}`?")),
                    None => d.help("see docs/catan-orders.md for the orders"),
                });
            }
        };
        Ok(o)
    }

    fn play(&self, c: &mut Cursor) -> Res<Order> {
        let span = c.span();
        c.eat_any(&["a", "the"]);
        let Some(w) = c.next() else {
            return Err(c.missing("a development card"));
        };
        Ok(match w {
            "knight" | "soldier" => {
                c.eat_any(&[":", ","]);
                if c.eat("robber") {
                    Order::Knight(Some(self.robber_choice(c)?))
                } else {
                    Order::Knight(None)
                }
            }
            "road" | "roads" | "road-building" if scenario::orders_active(self) => {
                c.eat("building");
                c.eat_any(&[":", ","]);
                scenario::read_road_building(self, c)?
            }
            "road" | "roads" | "road-building" => {
                c.eat("building");
                c.eat_any(&[":", ","]);
                let mut edges = Vec::new();
                while !c.done() && c.peek() != Some("or") {
                    edges.push(self.edge(c)?);
                    c.eat_any(&[",", "and"]);
                }
                if edges.is_empty() {
                    return Err(Diagnostic::new(
                        "road building places one or two roads: name them",
                    )
                    .at(span)
                    .help("play road building 12-13, 13-14"));
                }
                if edges.len() > 2 {
                    // Reads, but can never be done: refused when played (RULINGS R1).
                    Order::Refused(Refusal::RoadBuildingPieces)
                } else {
                    Order::RoadBuilding(edges)
                }
            }
            "year" | "yop" | "year-of-plenty" => {
                if w == "year" && !(c.eat("of") && c.eat("plenty")) {
                    return Err(c.missing("`of plenty`"));
                }
                c.eat_any(&[":", ","]);
                let cards = self.cards(c)?;
                let picked: Vec<Resource> = cards
                    .iter()
                    .flat_map(|(r, n)| std::iter::repeat_n(r, n as usize))
                    .collect();
                match picked[..] {
                    [a, b] => Order::YearOfPlenty(a, b),
                    _ => {
                        return Err(Diagnostic::new("year of plenty takes exactly two cards")
                            .at(span)
                            .help("play year of plenty ore, wool"));
                    }
                }
            }
            "monopoly" => {
                c.eat_any(&[":", ",", "on"]);
                Order::Monopoly(self.resource(c)?)
            }
            "victory" | "vp" => {
                return Err(Diagnostic::new(
                    "victory point cards are not played: they count by themselves and are shown when you win",
                )
                .at(span));
            }
            other => {
                let d = Diagnostic::new(format!("`{other}` is not a development card to play"))
                    .at(c.words[c.at - 1].1.clone())
                    .label("unknown card");
                let cards = ["knight", "road", "year", "monopoly"];
                return Err(match did_you_mean(other, cards) {
                    Some(m) => d.help(format!("did you mean `{m}`?")),
                    None => d.help("play knight, road building, year of plenty or monopoly"),
                });
            }
        })
    }

    fn line(&self, c: &mut Cursor, section: Section) -> Res<Kind> {
        let first = c.peek().unwrap_or("");
        if scenario::orders_active(self)
            && let Some(st) = scenario::read_standing(self, c)
        {
            let st = st?;
            c.finish()?;
            return Ok(Kind::Scenario(st));
        }
        let kind = match first {
            "discard" => {
                c.at += 1;
                c.eat_any(&[":", "first"]);
                let mut list = Vec::new();
                loop {
                    let max = match self.number(c) {
                        Some(n) if n <= 99 => Some(n as u8),
                        Some(_) => return Err(Diagnostic::new("a count up to 99").at(c.span())),
                        None => None,
                    };
                    list.push((self.resource(c)?, max));
                    if !c.eat_any(&[",", "then", "and"]) {
                        break;
                    }
                }
                Kind::Discard(list)
            }
            "accept" => {
                c.at += 1;
                let get = self.cards(c)?;
                if !c.eat("for") {
                    return Err(c.missing("`for`"));
                }
                let give = self.cards(c)?;
                let mut times = 1;
                let mut from = None;
                loop {
                    if c.eat("from") {
                        from = Some(self.colour(c)?);
                    } else if let Some(n) = self.number(c) {
                        if !c.eat_any(&["times", "time", "x"]) {
                            return Err(c.missing("`times`"));
                        }
                        times = n.clamp(1, 99) as u8;
                    } else if c.eat("once") {
                        times = 1;
                    } else if c.eat("twice") {
                        times = 2;
                    } else {
                        break;
                    }
                }
                Kind::Accept(Acceptance {
                    get,
                    give,
                    times,
                    from,
                })
            }
            "robber" => {
                c.at += 1;
                Kind::Robber(self.robber_choice(c)?)
            }
            "place" | "found" => {
                c.at += 1;
                c.eat("settlement");
                self.placement(c)?
            }
            "settlement"
                if section == Section::Founding
                    || c.words.iter().skip(1).any(|w| {
                        w.0 == "road" || (w.0 == "line" && scenario::orders_active(self))
                    }) =>
            {
                c.at += 1;
                self.placement(c)?
            }
            _ if section == Section::Founding => {
                return Err(Diagnostic::new(
                    "the founding takes placements: `settlement 12 road 12-13`",
                )
                .at(c.span()));
            }
            _ => {
                let mut conds = Vec::new();
                let mut if_can = false;
                if c.eat("if") {
                    loop {
                        match self.cond(c)? {
                            Some(k) => conds.push(k),
                            None => if_can = true,
                        }
                        if !c.eat("and") {
                            break;
                        }
                    }
                    if !c.eat_any(&[":", ",", "then"]) {
                        return Err(c.missing("`:` after the condition"));
                    }
                }
                let mut alts = vec![self.order(c)?];
                while c.eat_any(&["or", "else", "otherwise"]) {
                    c.eat_any(&["else", ","]);
                    alts.push(self.order(c)?);
                }
                c.finish()?;
                self.fits_section(&conds, &mut alts, section, c)?;
                return Ok(Kind::Turn {
                    conds,
                    if_can,
                    alts,
                });
            }
        };
        c.finish()?;
        Ok(kind)
    }

    fn placement(&self, c: &mut Cursor) -> Res<Kind> {
        c.eat_any(&["at", "on"]);
        let settlement = self.vertex(c)?;
        c.eat_any(&[",", "and", "with"]);
        let express = scenario::orders_active(self);
        let road = if c.peek() == Some("road") && express {
            return Err(no_roads(c.span()));
        } else if c.eat("road") {
            c.eat_any(&["at", "on"]);
            Some(self.edge(c)?)
        } else {
            None
        };
        let line = if express && c.eat_any(&["line", "rail"]) {
            c.eat_any(&["line", "to", "at", "into"]);
            Some(scenario::read_founding_line(self, c, settlement)?)
        } else {
            None
        };
        Ok(Kind::Founding {
            settlement,
            road,
            line,
        })
    }

    /// Does the line belong in its section? A condition on the roll before the roll
    /// does not read; an order the section does not allow (a trade between turns, a
    /// build before the roll) reads, and is refused with its reason when played
    /// (RULINGS R1: the player's later orders still run).
    fn fits_section(
        &self,
        conds: &[Cond],
        alts: &mut [Order],
        section: Section,
        c: &Cursor,
    ) -> Res<()> {
        let whole = c.words.first().map_or(0..0, |f| {
            f.1.start..c.words.last().map_or(f.1.end, |l| l.1.end)
        });
        match section {
            Section::BeforeRoll => {
                if conds
                    .iter()
                    .any(|k| matches!(k, Cond::Rolled(_) | Cond::NotRolled(_)))
                {
                    return Err(
                        Diagnostic::new("before the roll, the roll is not known yet").at(whole),
                    );
                }
                for o in alts.iter_mut() {
                    if !matches!(
                        o,
                        Order::Knight(_)
                            | Order::RoadBuilding(_)
                            | Order::YearOfPlenty(..)
                            | Order::Monopoly(_)
                            | Order::Refused(_)
                            | Order::Scenario(scenario::Order::RoadBuilding(_))
                    ) {
                        *o = Order::Refused(Refusal::OnlyCardsBeforeRoll);
                    }
                }
            }
            Section::Between => {
                for o in alts.iter_mut() {
                    if !matches!(
                        o,
                        Order::Road(_)
                            | Order::Settlement(_)
                            | Order::City(_)
                            | Order::Buy(_)
                            | Order::Refused(_)
                            | Order::Scenario(scenario::Order::Build { .. })
                    ) {
                        *o = Order::Refused(Refusal::OnlyBuildBetweenTurns);
                    }
                }
            }
            Section::Turn | Section::Founding => {}
        }
        Ok(())
    }
}

/// Words that begin a line only in orders (never a greeting): how a mail's text is known
/// for Catan orders without its header lines ([`crate::game`]'s `looks_like_orders`).
pub(crate) const ORDER_LINE_WORDS: [&str; 12] = [
    "roll",
    "build",
    "buy",
    "trade",
    "offer",
    "discard",
    "accept",
    "robber",
    "settlement",
    "city",
    "road",
    "founding",
];

/// The Catan Express words of [`ORDER_LINE_WORDS`].
pub(crate) const EXPRESS_LINE_WORDS: [&str; 5] = ["line", "rail", "ferry", "stopover", "fares"];

/// Catan Express words that may begin a line, for suggestions.
const EXPRESS_WORDS: [&str; 6] = ["line", "ferry", "move", "stopover", "fares", "rail"];

/// Every word a Catan Express order line may begin with (crates/catan/src/express/orders.rs),
/// beside [`FIRST_WORDS`].
const EXPRESS_FIRST_WORDS: [&str; 18] = [
    "line",
    "rail",
    "railway",
    "track",
    "ferry",
    "ship",
    "boat",
    "move",
    "drive",
    "go",
    "ride",
    "stopover",
    "stopovers",
    "tower",
    "towers",
    "fares",
    "fare",
    "pay",
];

fn no_roads(span: Range<usize>) -> Diagnostic {
    Diagnostic::new("Catan Express has no roads")
        .at(span)
        .label("no roads")
        .help("build rail lines (`line 13-F`) and ferries; found with `settlement 40 line J`")
}

fn section_header(words: &[(String, Range<usize>)]) -> Option<Section> {
    let mut w: Vec<&str> = words.iter().map(|w| w.0.as_str()).collect();
    if w.last() == Some(&":") {
        w.pop();
    }
    Some(match w[..] {
        ["founding"] | ["founding", "phase"] | ["founding", "placements"] => Section::Founding,
        ["before", "roll"] | ["before", "the", "roll"] | ["before", "rolling"] => {
            Section::BeforeRoll
        }
        ["turn"] | ["after", "roll"] | ["after", "the", "roll"] | ["main"] | ["my", "turn"] => {
            Section::Turn
        }
        ["between", "turns"]
        | ["special", "building"]
        | ["special", "building", "phase"]
        | ["special", "build"] => Section::Between,
        _ => return None,
    })
}

/// Reads an order file against the game it is for.
pub fn parse(source: &str, s: &State) -> Parsed {
    let reader = Reader { s };
    let mut out = Parsed::default();
    let mut section = Section::Turn;
    let mut seen_founding = false;
    // A mail is a letter: lines of words no order word resembles ("Hello judge,",
    // "Cheers, Ann") are not mistakes before the first order and after the last.
    let mut prose: Vec<(usize, u32)> = Vec::new();
    let (mut first_real, mut last_real) = (None::<u32>, None::<u32>);
    // The words an order line may begin with in this game: a line that begins with one
    // (or with a near miss) is never prose.
    let mut order_words = FIRST_WORDS.to_vec();
    if scenario::orders_active(&reader) {
        order_words.extend(EXPRESS_FIRST_WORDS);
    }
    let lines = text::lines(source);
    let mut k = 0;
    while k < lines.len() {
        let mut cl = lines[k].clone();
        k += 1;
        let mut words = cl.words();
        if words.is_empty() {
            continue;
        }
        // The tail of a long order a mail program wrapped onto the
        // line below (no blank line between) is read with it, when the two do not both
        // read alone and read together as one order.
        if let Some(below) = lines.get(k)
            && below.number == cl.number + 1
            && section_header(&words).is_none()
            && !header_word(&words)
        {
            let below_words = below.words();
            let whole = cl.joined(below);
            let whole_words = whole.words();
            if section_header(&below_words).is_none()
                && !header_word(&below_words)
                && !(reads(&reader, &below_words, below.span.end, section)
                    && reads(&reader, &words, cl.span.end, section))
                && reads(&reader, &whole_words, whole.span.end, section)
            {
                cl = whole;
                words = whole_words;
                k += 1;
            }
        }
        if let Some(sec) = section_header(&words) {
            section = sec;
            seen_founding |= sec == Section::Founding;
            first_real.get_or_insert(cl.number);
            last_real = Some(cl.number);
            continue;
        }
        if header(&cl, &words, s, &mut out)
            || judge_core::pbem::directives::is_directive_words(
                &words.iter().map(|w| w.0.as_str()).collect::<Vec<_>>(),
            )
        {
            continue;
        }
        let mut c = Cursor {
            words: &words,
            at: 0,
            line_end: cl.span.end,
        };
        let looks_like_prose = judge_core::text::is_words(&cl.text)
            && words.first().is_some_and(|(w, _)| {
                let w = w.trim_matches(|c: char| !c.is_alphanumeric());
                !order_words.contains(&w)
                    && (w.chars().count() <= 3
                        || did_you_mean(w, order_words.iter().copied()).is_none())
            });
        if !looks_like_prose {
            first_real.get_or_insert(cl.number);
            last_real = Some(cl.number);
        }
        match reader.line(&mut c, section) {
            Err(d) if looks_like_prose => {
                prose.push((out.problems.len(), cl.number));
                out.problems.push(d);
            }
            Ok(kind) => out.orders.lines.push(Line {
                line: cl.number,
                span: cl.span.clone(),
                text: cl.written.clone(),
                section: match kind {
                    Kind::Founding { .. } => Section::Founding,
                    _ if section == Section::Founding => Section::Turn,
                    _ => section,
                },
                kind,
            }),
            // An odd character is named.
            Err(d) => out
                .problems
                .push(match judge_core::text::odd_characters(&cl.written) {
                    Some(odd) => d.more_help(odd),
                    None => d,
                }),
        }
    }
    let _ = seen_founding;
    let drop: Vec<usize> = prose
        .iter()
        .filter(|(_, line)| {
            first_real.is_none_or(|f| *line < f) || last_real.is_none_or(|l| *line > l)
        })
        .map(|(i, _)| *i)
        .collect();
    let mut i = 0;
    out.problems.retain(|_| {
        let keep = !drop.contains(&i);
        i += 1;
        keep
    });
    out
}

/// Does the line begin with a header word (`game`, `player`, `turn`, `secret`)?
fn header_word(words: &[(String, Range<usize>)]) -> bool {
    words
        .first()
        .is_some_and(|w| matches!(w.0.as_str(), "game" | "player" | "turn" | "secret"))
}

/// Do these words read as an order line of `section`?
fn reads(
    reader: &Reader<'_>,
    words: &[(String, Range<usize>)],
    line_end: usize,
    section: Section,
) -> bool {
    let mut c = Cursor {
        words,
        at: 0,
        line_end,
    };
    reader.line(&mut c, section).is_ok()
}

/// Header lines: `game`, `player`, `turn`, `secret`. True if it was one, whether or not it
/// was well written (a badly written one has its problem in `out`).
fn header(cl: &CleanLine, words: &[(String, Range<usize>)], s: &State, out: &mut Parsed) -> bool {
    let Some((first, rest)) = words.split_first() else {
        return false;
    };
    let rest: Vec<&(String, Range<usize>)> = rest.iter().filter(|w| w.0 != ":").collect();
    match first.0.as_str() {
        "game" => {
            let name = rest
                .iter()
                .map(|w| w.0.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            let span = rest.first().map_or(first.1.clone(), |f| {
                f.1.start..rest.last().map_or(f.1.end, |l| l.1.end)
            });
            out.orders.header.game = Some((name, span));
            true
        }
        "player" => {
            match rest[..] {
                [w] => match Colour::parse(&w.0) {
                    Some(c) => out.orders.header.player = Some((c, w.1.clone())),
                    None => {
                        let names: Vec<&str> = s.players.iter().map(|p| p.colour.name()).collect();
                        let mut d = Diagnostic::new(format!("`{}` is not a player's colour", w.0))
                            .at(w.1.clone());
                        if let Some(m) = did_you_mean(&w.0, names.iter().copied()) {
                            d = d.help(format!("did you mean `{m}`?"));
                        }
                        out.problems.push(d);
                    }
                },
                _ => out.problems.push(
                    Diagnostic::new("write `player` and your colour, like `player red`")
                        .at(cl.span.clone()),
                ),
            }
            true
        }
        "turn" => match rest[..] {
            [w] => match w.0.parse::<u32>() {
                Ok(n) => {
                    out.orders.header.turn = Some((n, w.1.clone()));
                    true
                }
                Err(_) => {
                    out.problems.push(
                        Diagnostic::new(format!("`{}` is not a turn number", w.0)).at(w.1.clone()),
                    );
                    true
                }
            },
            _ => false,
        },
        "secret" | "password" => true,
        _ => false,
    }
}
