//! The judge's Catan players (`judge bot`, and the caretaker that plays for an absent
//! player): one player's order file for the step the game waits for
//! (docs/catan-orders.md), written from what that player may know — the board,
//! everyone's pieces, card counts, the orders others have played, its own hand; never
//! another's hand, nor the dice to come.
//!
//! Two players: the **greedy** one described here, and the **searching** one
//! (`search`), the judge's bot, which plays the same founding, 7s, knights and
//! standing parts but searches its builds over the rules engine, paying for them with
//! bank trades and offers to others' standing acceptances that have shown, in a trade
//! everyone saw, that they take them (against three greedy players it wins about 37 %
//! of its games, where a quarter is an equal share).
//!
//! How the greedy player plays:
//! - **Founding**: the free site with the most dots, weighted towards resources it does
//!   not yet produce and harbours it can use; the road towards the best site beyond.
//! - **A turn** is planned for every total the dice can make. For each total but 7 the
//!   production is known, so the bot plays the turn through on a copy of the state with
//!   the rules' own checks — cities first, then settlements, bank trades (or an offer
//!   to another player's standing acceptance that has taken one like it) that complete
//!   one of those, roads towards
//!   the best site within four roads, development cards — and writes it as
//!   `if rolled 6, 8: build city 13` lines. On a 7 its own discard and robber lines are
//!   played the same way; the card it steals is unknown, so the plan does without it,
//!   and lines for each build `if I have` its cards follow. A knight is played before
//!   the roll when the robber sits on one of its hexes, for the largest army, or when
//!   it holds no other card that may serve better after the roll.
//! - **Standing parts**: robber lines on the hexes that hurt the leader most (never
//!   its own), a discard preference keeping what its next build needs, and one
//!   acceptance offering its surplus for what it lacks.
//!
//! Every file is checked with the judge's own checker before it is given: a file that
//! does not check is an error of the bot's, never sent. In a **Catan Express** game the
//! orders are the scripted Express player's, reached through the scenario's hook
//! ([`crate::scenario::bot_orders`]).
//!
//! That it reads nothing it may not know is a property, tested: its file is the same
//! whatever the other players hold, whatever their files on record say and whatever
//! the dice will be (tests/catan/bot.rs). Of the others' standing acceptances it counts
//! only the trades they took ([`crate::orders::Record::took`]), as every report showed
//! them: an acceptance that never took a trade is a line of its player's file, theirs
//! alone.
//!
//! Where it lives, one idea a file: this file is the dispatch (the
//! file's header, the check before it is given); `greedy.rs` the greedy player (and
//! [`Player`], which of the two writes); `planner.rs` its plan of one turn on a copy of
//! the state (and the dice it plans for); `lines.rs` the line writers (a plan's line, a
//! build, the robber, trade and offer lines); `search.rs` the searching player;
//! `selfplay.rs` the players against each other (`judge selfplay --bots`). The dispatch
//! imports the players, and no player imports it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::colour::Colour;
use crate::events::Event;
use crate::state::{Phase, State};
use judge_core::error::GameError;

mod greedy;
mod lines;
mod planner;
mod search;
pub mod selfplay;

use greedy::Bot;
pub use greedy::Player;
use planner::dice;

/// The order file of `colour` for the next step, its secret line (if given) below the
/// header: the judge's bot, the searching player's (what `judge bot` prints and the
/// caretaker plays).
pub fn orders(s: &State, colour: Colour, secret: Option<&str>) -> Result<String, GameError> {
    orders_of(Player::Search, s, colour, secret)
}

/// The order file `player` writes for `colour` for the next step.
pub fn orders_of(
    player: Player,
    s: &State,
    colour: Colour,
    secret: Option<&str>,
) -> Result<String, GameError> {
    let me = s
        .seat_of(colour)
        .ok_or_else(|| GameError::input(format!("{colour} does not play in this game")))?;
    if s.scenario.is_some() {
        return express(s, me, secret);
    }
    let mut out = format!(
        "# {colour}'s orders, written by the judge's Catan player (judge bot)\ngame {}\nplayer {colour}\nturn {}\n",
        s.name,
        s.step + 1
    );
    if let Some(secret) = secret {
        let _ = writeln!(out, "secret {secret}");
    }
    let bot = Bot::new(s, me, player);
    let body = match s.phase {
        Phase::Founding { .. } if s.actor() == me => bot.founding(),
        Phase::Over => return Err(GameError::input("the game is over")),
        _ if s.active == me => bot.turn(),
        // Not this player's step: only the standing parts.
        _ => bot.standing(),
    };
    out.push_str(&body);
    let checked = crate::orders::check::check(s, colour, "orders", &out);
    if checked.errors() > 0 {
        return Err(GameError::internal(format!(
            "the bot's orders do not check:\n{}\n{out}",
            checked.diagnostics.render()
        )));
    }
    Ok(out)
}

/// A Catan Express player's orders: the scripted Express player's file, with the
/// secret below its `turn` line, checked by the judge's own checker.
fn express(s: &State, me: u8, secret: Option<&str>) -> Result<String, GameError> {
    if s.phase == Phase::Over {
        return Err(GameError::input("the game is over"));
    }
    let written = crate::scenario::bot_orders(s, me);
    let mut out = format!(
        "# {}'s orders, written by the judge's Catan Express player (judge bot)\n",
        s.colour(me)
    );
    for line in written.lines() {
        out.push_str(line);
        out.push('\n');
        if let Some(secret) = secret
            && line.starts_with("turn ")
            && !out.contains("\nsecret ")
        {
            let _ = writeln!(out, "secret {secret}");
        }
    }
    let checked = crate::orders::check::check(s, s.colour(me), "orders", &out);
    if checked.errors() > 0 {
        return Err(GameError::internal(format!(
            "the bot's orders do not check:\n{}\n{out}",
            checked.diagnostics.render()
        )));
    }
    Ok(out)
}

/// Play the file once for every total on a copy of the state through the judge's own
/// resolver: each of its lines that would fail, with the roll.
pub fn failures(s: &State, colour: Colour, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for total in 2..=12 {
        let mut copy = s.clone();
        copy.loaded_dice = vec![dice(total)];
        let files = BTreeMap::from([(colour, text.to_string())]);
        let played = crate::orders::resolve::play(&copy, &files);
        for e in &played.events {
            if let Event::Failed { player, .. } = e
                && *player == colour
            {
                out.push(format!(
                    "on a roll of {total}, {}",
                    e.text(&played.state, Some(colour))
                ));
            }
        }
    }
    out
}
