//! Checking a player's orders against the current state, before the turn: every
//! problem at once, with line, column and a suggestion, and a plain-language echo of
//! what each order will try to do (`judge check`, and the mail acknowledgement).
//!
//! Policy, the same here and in the turn: a line that does not read is left out; every
//! other order is carried out, and fails with its reason if it cannot be done when its
//! turn comes (a transporter made in production may be moved the same turn).

use std::collections::BTreeMap;

use serde::Serialize;

use super::events::Fact;
use super::order_text::{self, Parsed};
use super::orders::{
    BuildingOrder, Consent, MovementOrder, Numbered, Party, PlayerOrders, ProductionOrder,
    TurnOrders, WonderOrder,
};
use super::player::Colour;
use super::resolve;
use super::state::Phase;
use super::state::State;
use super::transporter::{Location, TransporterId};
use judge_core::diagnostic::{Diagnostic, did_you_mean};

pub use crate::order_text::Expect;

/// One order, in plain words, and what a dry run says it would do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Echo {
    pub phase: Phase,
    pub line: u32,
    pub order: String,
    pub outcome: Vec<String>,
}

#[derive(Clone, Debug)]
#[must_use]
pub struct Checked {
    pub player: Option<Colour>,
    /// The turn the orders are for: the next one.
    pub turn: u32,
    /// The orders that read, to be carried out.
    pub orders: PlayerOrders,
    pub diagnostics: Vec<Diagnostic>,
    pub echo: Vec<Echo>,
    /// The line of the file's `pass`, where it gives no orders: nothing to do this
    /// turn, on purpose.
    pub passes: Option<u32>,
}

/// What a turn passed does.
const PASSED: &str = "no orders this turn: your transporters stay where they are, and what the rules do by themselves (producers, breeding) still happens";

impl Checked {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    pub fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }
}

/// The span of the order on `line` (the parser keeps them in line order).
fn line_span(parsed: &Parsed, line: u32) -> Option<std::ops::Range<usize>> {
    parsed
        .lines
        .binary_search_by_key(&line, |(l, _)| *l)
        .ok()
        .map(|i| parsed.lines[i].1.clone())
}

/// Read a player's orders as the turn will carry them out: lines that do not read are
/// left out and reported; the rest are kept.
pub fn read(state: &State, text: &str) -> (PlayerOrders, Vec<Diagnostic>) {
    let parsed = order_text::parse(text, &state.map);
    (parsed.orders, parsed.problems)
}

/// Transporters named must exist by the time the order runs (or be made by the
/// player's own production this turn, as the dry run shows) and be the player's (but
/// for the other side of a `give`). Returns the problems and the lines they are on.
fn check_refs(
    state: &State,
    after: &State,
    player: Colour,
    parsed: &Parsed,
) -> (Vec<Diagnostic>, Vec<u32>) {
    let mut diags = Vec::new();
    let mut lines = Vec::new();
    let mine: Vec<String> = state
        .transporters_of(player)
        .map(|(id, _)| id.to_string())
        .collect();
    for r in &parsed.refs {
        let owner = state
            .transporters
            .get(&r.id)
            .or_else(|| after.transporters.get(&r.id))
            .map(|t| t.owner);
        match owner {
            None => {
                let mut d =
                    Diagnostic::new(format!("there is no transporter {}", r.id)).at(r.span.clone());
                let text = r.id.to_string();
                let same_kind: Vec<&str> = mine
                    .iter()
                    .map(String::as_str)
                    .filter(|m| m.starts_with(r.id.kind.letter()))
                    .collect();
                let guess = did_you_mean(&text, same_kind.iter().copied())
                    .or_else(|| same_kind.first().copied().filter(|_| same_kind.len() == 1))
                    .or_else(|| did_you_mean(&text, mine.iter().map(String::as_str)));
                d = match guess {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None if mine.is_empty() => d.help("you have no transporters"),
                    None => d.help(format!("your transporters are {}", mine.join(", "))),
                };
                diags.push(d);
                lines.push(r.line);
            }
            Some(o) if r.own && o != player => {
                diags.push(
                    Diagnostic::new(format!("{} is {o}'s, not yours", r.id.named()))
                        .at(r.span.clone())
                        .help(format!("your transporters are {}", mine.join(", "))),
                );
                lines.push(r.line);
            }
            Some(_) => {}
        }
    }
    (diags, lines)
}

/// The text a player reads: a summary line, every problem, and the echo.
pub fn render_text(checked: &Checked, file: &str, text: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let who = checked
        .player
        .map_or("unknown player".to_string(), |p| p.to_string());
    let count = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let _ = writeln!(
        out,
        "Orders for {who}, turn {}: {}, {}.",
        checked.turn,
        count(checked.errors(), "error"),
        count(checked.warnings(), "warning")
    );
    if !checked.diagnostics.is_empty() {
        let d = judge_core::diagnostic::Diagnostics {
            file: file.to_string(),
            source: text.to_string(),
            items: checked.diagnostics.clone(),
        };
        let _ = writeln!(out, "\n{}", d.render().trim_end());
    }
    if let Some(line) = checked.passes {
        let _ = writeln!(out, "\nYou pass (line {line}): {PASSED}.");
    } else if !checked.echo.is_empty() {
        let _ = writeln!(
            out,
            "\nWhat these orders will do, if nothing changes before your turn:"
        );
        let mut phase = None;
        for e in checked.echo.iter().take(judge_core::text::SHOWN_LINES) {
            if phase != Some(e.phase) {
                let name = e.phase.to_string();
                let mut c = name.chars();
                let cap = c.next().map_or_else(String::new, |f| {
                    f.to_uppercase().collect::<String>() + c.as_str()
                });
                let _ = writeln!(out, "\n{cap}");
                phase = Some(e.phase);
            }
            let _ = writeln!(out, "  line {}: {}", e.line, e.order);
            for o in &e.outcome {
                let _ = writeln!(out, "      -> {o}");
            }
        }
        if let Some(more) = judge_core::text::not_shown(checked.echo.len()) {
            let _ = writeln!(out, "\n{more}");
        }
    }
    out
}

/// The dry run assumes every other player consents to everything this player's orders
/// might need — accepting goods, offering their transporters, letting them be carried —
/// and gives no other orders; the echo then says which outcomes rest on a consent.
fn assumed_consents(state: &State, p: Colour) -> TurnOrders {
    let mut all = TurnOrders::new();
    for other in state.players.keys().filter(|c| **c != p) {
        let theirs: Vec<_> = state.transporters_of(*other).map(|(id, _)| *id).collect();
        let accept = Consent::Accept {
            from: Party::Player(p),
            goods: None,
            onto: None,
        };
        let offers = theirs.iter().map(|id| Consent::Offer {
            transporter: *id,
            goods: None,
            to: Party::Player(p),
        });
        let carries = theirs.iter().map(|id| Consent::Carry {
            transporter: *id,
            by: Party::Player(p),
        });
        let mut o = PlayerOrders::default();
        for c in std::iter::once(accept.clone())
            .chain(offers.clone())
            .chain(carries.clone())
        {
            o.production.push(Numbered {
                line: 0,
                order: ProductionOrder::Consent(c),
            });
        }
        for c in std::iter::once(accept).chain(carries) {
            o.movement.push(Numbered {
                line: 0,
                order: MovementOrder::Consent(c),
            });
        }
        for c in offers {
            o.building.push(Numbered {
                line: 0,
                order: BuildingOrder::Consent(c),
            });
        }
        all.insert(*other, o);
    }
    all
}

/// What an outcome of the dry run needs from another player, in words.
fn consent_note(
    before: &State,
    after: &State,
    p: Colour,
    phase: Phase,
    fact: &Fact,
) -> Option<String> {
    let owner = |id: &TransporterId| {
        before
            .transporters
            .get(id)
            .or_else(|| after.transporters.get(id))
            .map(|t| t.owner)
    };
    let (who, wanted) = match fact {
        Fact::Gave { to, .. } => {
            let o = owner(to).filter(|o| *o != p)?;
            (o, format!("accept goods from {p}"))
        }
        Fact::PickedUp { carried, .. } => {
            let o = owner(carried).filter(|o| *o != p)?;
            (o, format!("allow {p} to carry {carried}"))
        }
        Fact::OfferUsed {
            transporter, owner, ..
        } => (*owner, format!("offer {transporter} to {p}")),
        _ => return None,
    };
    Some(format!(
        "only if {who} consents: {who}'s {phase} orders must say `{wanted}`"
    ))
}

/// Check one order file against the state before the next turn.
pub fn check(state: &State, text: &str, expect: &Expect<'_>) -> Checked {
    let mut parsed = order_text::parse(text, &state.map);
    let mut diags = std::mem::take(&mut parsed.problems);
    let turn = state.turn + 1;
    let first_line = 0..text
        .find('\n')
        .unwrap_or(text.len())
        .max(1)
        .min(text.len().max(1));

    // The header.
    let h = &parsed.header;
    let player = match (h.player, expect.player) {
        (Some(p), Some(e)) if p != e => {
            diags.push(
                Diagnostic::new(format!(
                    "these orders say `player {p}`, but they come from {e}"
                ))
                .at_opt(h.player_at.clone())
                .help(format!(
                    "write `player {e}`, or send the orders from {p}'s address"
                )),
            );
            None
        }
        (Some(p), _) | (None, Some(p)) => Some(p),
        (None, None) if h.player_written => None,
        (None, None) => {
            diags.push(
                Diagnostic::new("the orders do not say whose they are")
                    .at(first_line.clone())
                    .help("start the file with a line naming your colour, like `player red`"),
            );
            None
        }
    };
    if let Some(p) = player
        && !state.players.contains_key(&p)
    {
        let seats: Vec<&str> = state.move_order.iter().map(|c| c.name()).collect();
        diags.push(
            Diagnostic::new(format!("{p} does not play in this game"))
                .at_opt(h.player_at.clone())
                .help(format!("the players are {}", seats.join(", "))),
        );
    }
    use super::order_text::HeaderMismatch as M;
    for m in h.mismatches(expect.game, None, turn) {
        diags.push(match m {
            M::EarlierTurn(t) | M::LaterTurn(t) => Diagnostic::new(format!(
                "these orders are for turn {t}, but turn {turn} is next"
            ))
            .at_opt(h.turn_at.clone())
            .help(format!("write `turn {turn}`")),
            M::Game(got) => Diagnostic::new(format!(
                "these orders are for the game `{got}`, not `{}`",
                expect.game.unwrap_or_default()
            ))
            .at_opt(h.game_at.clone())
            .help(format!("write `game {}`", expect.game.unwrap_or_default())),
            M::Player(_) => continue,
        });
    }
    if h.turn.is_none() {
        diags.push(
            Diagnostic::new(format!(
                "no `turn` line: these orders will be used for turn {turn}"
            ))
            .at(first_line.clone())
            .help(format!(
                "add `turn {turn}` so that late or early orders are caught"
            ))
            .warning(),
        );
    }

    // `pass`: no orders this turn, on purpose. With orders beside it, the orders count.
    if let Some((_, at)) = &parsed.pass
        && !parsed.lines.is_empty()
    {
        diags.push(
            Diagnostic::new("`pass` beside orders: the orders are played, and `pass` says nothing")
                .at(at.clone())
                .help("leave out `pass`, or the orders if you mean to give none this turn")
                .warning(),
        );
    }
    let passes = parsed
        .pass
        .as_ref()
        .filter(|_| parsed.lines.is_empty())
        .map(|(line, _)| *line);
    if parsed.lines.is_empty()
        && parsed.home.is_none()
        && passes.is_none()
        && !diags.iter().any(|d| d.is_error())
    {
        diags.push(
            Diagnostic::new(
                "these orders hold no orders: your transporters will stay where they are",
            )
            .at(first_line.clone())
            .help("orders follow a phase heading: `production`, `movement`, `building` or `wonder`; a line `pass` says you mean to give none")
            .warning(),
        );
    }

    let orders = std::mem::take(&mut parsed.orders);
    if let Some(h) = &parsed.home {
        diags.push(
            Diagnostic::new("`home` is chosen only in the set-up round, before turn 1")
                .at(h.span.clone())
                .help("leave it out: your home is where it is"),
        );
    }

    // Old order files may still say `breed`: it reads, and changes nothing.
    for o in &orders.production {
        if let ProductionOrder::Breed { at } = o.order {
            diags.push(
                Diagnostic::new("donkeys breed by default now: `breed` changes nothing")
                    .at_opt(line_span(&parsed, o.line))
                    .help(format!(
                        "leave it out; to keep your donkeys at {at} from breeding, write `no breed {at}`"
                    ))
                    .warning(),
            );
        }
    }

    // A dry run of these orders alone, as if nobody else moved.
    let mut echo = Vec::new();
    if let Some(p) = player.filter(|p| state.players.contains_key(p)) {
        let mut all = assumed_consents(state, p);
        // The dry run assumes each partner writes the reply a module's order expects (a
        // trade's mirror: modules::Order::assumed_reply).
        for o in &orders.wonder {
            if let WonderOrder::Module(m) = &o.order
                && let Some((with, reply)) = m.assumed_reply(p)
                && let Some(theirs) = all.get_mut(&with)
            {
                theirs.wonder.push(Numbered {
                    line: 0,
                    order: WonderOrder::Module(reply),
                });
            }
        }
        all.insert(p, orders.clone());
        // The checker has no secret seed: a random mine draw in this rehearsal is only a
        // stand-in, and the echo never shows one.
        let run = resolve::resolve(state, &all, &judge_core::luck::Luck::predictable(0));
        let (ref_problems, flagged) = check_refs(state, &run.state, p, &parsed);
        let flagged: std::collections::BTreeSet<u32> = flagged.into_iter().collect();
        diags.extend(ref_problems);
        let mut outcomes: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        let earlier: Vec<Colour> = state
            .move_order
            .iter()
            .take_while(|c| **c != p)
            .copied()
            .collect();
        // A move is one fact, written when its order is done; the echo tells it in parts,
        // each before what the transporter did where that part ends.
        let marks: BTreeMap<usize, &crate::turn::PathMark> =
            run.marks.iter().map(|m| (m.event, m)).collect();
        let paths: BTreeMap<(u32, TransporterId), &Vec<Location>> = run
            .events
            .iter()
            .filter(|e| e.player == Some(p))
            .filter_map(|e| match (&e.fact, e.line) {
                (Fact::Moved { transporter, path }, Some(line)) => {
                    Some(((line, *transporter), path))
                }
                _ => None,
            })
            .collect();
        let mut told: BTreeMap<(u32, TransporterId), usize> = BTreeMap::new();
        for (index, e) in run.events.iter().enumerate() {
            if e.player != Some(p) {
                continue;
            }
            let Some(line) = e.line else { continue };
            let span = line_span(&parsed, line);
            match &e.fact {
                Fact::Failed { .. } if flagged.contains(&line) => {}
                Fact::Failed { reason } => diags.push(
                    Diagnostic::new(format!("this order would fail: {reason}"))
                        .at_opt(span)
                        .label("as things stand before the turn"),
                ),
                Fact::Shortfall { reason } => diags.push(
                    Diagnostic::new(format!("this order would only partly work: {reason}"))
                        .at_opt(span)
                        .warning(),
                ),
                fact => {
                    if let Fact::Loaded { at, .. } = fact {
                        let near: Vec<&str> = earlier
                            .iter()
                            .filter(|c| {
                                state.transporters_of(**c).any(|(id, _)| {
                                    state.tile_of(*id).is_some_and(|h| h.distance(at.hex) <= 1)
                                })
                            })
                            .map(|c| c.name())
                            .collect();
                        if !near.is_empty() {
                            diags.push(
                                Diagnostic::new(format!(
                                    "{} move{} before you and {} transporters near {}: these goods may be gone by your turn",
                                    near.join(" and "),
                                    if near.len() == 1 { "s" } else { "" },
                                    if near.len() == 1 { "has" } else { "have" },
                                    at.hex
                                ))
                                .at_opt(span)
                                .warning(),
                            );
                        }
                    }
                    let out = outcomes.entry(line).or_default();
                    if let Some(m) = marks.get(&index)
                        && let Some(path) = paths.get(&(line, m.transporter))
                    {
                        let since = told.entry((line, m.transporter)).or_insert(1);
                        if m.reached > *since && m.reached <= path.len() {
                            out.push(
                                Fact::Moved {
                                    transporter: m.transporter,
                                    path: path[*since - 1..m.reached].to_vec(),
                                }
                                .to_string(),
                            );
                            *since = m.reached;
                        }
                    }
                    match fact {
                        Fact::Moved { transporter, path } => {
                            let since = told.get(&(line, *transporter)).copied().unwrap_or(1);
                            if since < path.len() {
                                out.push(
                                    Fact::Moved {
                                        transporter: *transporter,
                                        path: path[since - 1..].to_vec(),
                                    }
                                    .to_string(),
                                );
                            }
                        }
                        fact => out.push(fact.to_string()),
                    }
                    if let Some(note) = consent_note(state, &run.state, p, e.phase, fact) {
                        out.push(note);
                    }
                }
            }
        }
        let inferred = parsed.inferred.clone();
        let mut push = |phase: Phase, line: u32, order: String| {
            let outcome = outcomes.remove(&line).unwrap_or_default();
            // An order read in its phase without a heading above it says so.
            let order = if inferred.iter().any(|(l, _)| *l == line) {
                format!("{order} (no heading above it: read as a {phase} order)")
            } else {
                order
            };
            echo.push(Echo {
                phase,
                line,
                order,
                outcome,
            });
        };
        for o in &orders.production {
            push(Phase::Production, o.line, o.order.to_string());
        }
        for o in &orders.movement {
            push(Phase::Movement, o.line, o.order.to_string());
        }
        for o in &orders.building {
            push(Phase::Building, o.line, o.order.to_string());
        }
        for o in &orders.wonder {
            push(Phase::Wonder, o.line, o.order.to_string());
        }
    }
    // A pass is echoed, so that it is answered as orders filed, not as none read.
    if let Some(line) = passes {
        echo.push(Echo {
            phase: Phase::Production,
            line,
            order: "pass".to_string(),
            outcome: vec![PASSED.to_string()],
        });
    }
    diags.sort_by_key(|d| d.span.as_ref().map_or(0, |s| s.start));
    Checked {
        player,
        turn,
        orders,
        diagnostics: diags,
        echo,
        passes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Scenario, Seat};

    fn state(position: &str) -> State {
        let base = include_str!("../../../tests/scenarios/valid-base.toml");
        let text = format!("{base}\n{position}");
        let s = Scenario::parse("t.toml", &text).unwrap_or_else(|d| panic!("{d}"));
        let seats: Vec<Seat> = ["A", "B"]
            .iter()
            .map(|n| Seat {
                name: n.to_string(),
                email: format!("{n}@x.org"),
            })
            .collect();
        s.start(&seats, &judge_core::luck::Luck::predictable(1))
            .expect("start")
    }

    /// RULINGS R1: a transporter claimed in production exists when movement comes, so an
    /// order may move it the same turn; check does not call it unknown.
    #[test]
    fn a_transporter_made_this_turn_may_be_ordered() {
        let st = state(
            "[position]\nmove_order = [\"red\", \"yellow\"]\nbuildings = [{ kind = \"raft-factory\", at = \"D4/E\" }]\n\
             [[position.transporters]]\nid = \"D9\"\nowner = \"red\"\nkind = \"donkey\"\nat = \"D4/E\"\ncargo = { trunks = 2 }\n",
        );
        let orders = "player red\nturn 1\nproduction\nmake raft at D4 from D9 launch river D4\nmovement\nmove R1: sea D5\n";
        let c = check(&st, orders, &Expect::default());
        assert_eq!(c.errors(), 0, "{:?}", c.diagnostics);
        assert!(
            c.echo
                .iter()
                .any(|e| e.outcome.iter().any(|o| o.contains("R1 moved"))),
            "{:?}",
            c.echo
        );
    }

    /// The echo tells a transporter's steps in the order they happen:
    /// a donkey that moves, unloads and moves on "moved", then "unloaded", then "moved"
    /// on — never "unloaded" before the move that took it there.
    #[test]
    fn the_echo_tells_the_steps_in_their_order() {
        let st = state(
            "[position]\nmove_order = [\"red\", \"yellow\"]\nroads = [[\"D4/E\", \"E4\"], [\"E4\", \"E3\"]]\n\
             [[position.transporters]]\nid = \"D9\"\nowner = \"red\"\nkind = \"donkey\"\nat = \"D4/E\"\ncargo = { trunks = 2 }\n",
        );
        let orders = "player red\nturn 1\nmovement\nmove D9: E4; unload 1 trunk; E3\n";
        let c = check(&st, orders, &Expect::default());
        assert_eq!(c.errors(), 0, "{:?}", c.diagnostics);
        let said: Vec<&str> = c
            .echo
            .iter()
            .flat_map(|e| e.outcome.iter().map(String::as_str))
            .collect();
        assert_eq!(
            said,
            [
                "donkey D9 moved D4/E > E4",
                "donkey D9 unloaded 1 trunk at E4",
                "donkey D9 moved E4 > E3",
            ],
            "{said:?}"
        );
    }

    #[test]
    fn an_unknown_transporter_is_an_error_with_a_suggestion() {
        let st = state("");
        let c = check(
            &st,
            "player red\nturn 1\nmovement\nmove D4: C3\nmove D7: C3\n",
            &Expect::default(),
        );
        let msgs: Vec<String> = c.diagnostics.iter().map(|d| d.message.clone()).collect();
        assert!(
            msgs.contains(&"donkey D4 is yellow's, not yours".to_string()),
            "{msgs:?}"
        );
        assert!(
            msgs.contains(&"there is no transporter D7".to_string()),
            "{msgs:?}"
        );
        assert_eq!(c.errors(), 2, "no second error from the dry run: {msgs:?}");
    }
}
