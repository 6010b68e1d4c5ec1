//! The ratings of a folder's players (`judge ratings`, the folder's site): every
//! finished game, its seats by place as the game's rules score them
//! ([`Position::places`](super::game::Position::places)), rated with the Weng-Lin
//! Bayesian rating (OpenSkill's; the crate `skillratings`), which takes a game of any
//! number of players with places and ties. A player is their address (a name may
//! change, or be shared); each family of games (each game the registry knows, by its
//! id) is rated apart. Rating is a pure function of the games, in the order they
//! ended.

use std::collections::BTreeMap;

use serde::Serialize;
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use super::error::Error;
use super::game::Game;
use crate::archive::Archive;

/// A seat's player at the end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Their address, as game.toml has it (compared without case).
    pub address: String,
    /// Their name, as game.toml has it.
    pub name: String,
}

/// A finished game, to be rated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The game's name.
    pub name: String,
    /// Its game: the family it is rated in.
    pub family: String,
    /// When its last turn was played (RFC 3339), which orders the games.
    pub ended: Option<String>,
    /// Its players by place, best first; players sharing a place together.
    pub places: Vec<Vec<Player>>,
}

/// What becomes of a game in the ratings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Rated(Finished),
    /// Over, and left out, with why.
    LeftOut(String),
    /// Not over yet (or not begun).
    Playing,
}

/// The game of `archive`, as the ratings take it.
pub fn entry(archive: &Archive, game: &dyn Game) -> Result<Entry, Error> {
    if !super::stage::started(archive) || super::stage::round_standing(archive, game)?.is_some() {
        return Ok(Entry::Playing);
    }
    let state = super::stage::current(archive, game)?;
    if state.over().is_none() {
        return Ok(Entry::Playing);
    }
    if archive.game.rated == Some(false) {
        return Ok(Entry::LeftOut("rated = false in its game.toml".to_string()));
    }
    let places = state.places();
    if places.is_empty() {
        return Ok(Entry::LeftOut(format!(
            "{} does not rank its players",
            game.title()
        )));
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut players = Vec::new();
    for place in places {
        let mut these = Vec::new();
        for seat in place {
            let Some(p) = archive
                .game
                .players
                .iter()
                .find(|p| p.id == seat && !p.is_free())
            else {
                return Ok(Entry::LeftOut(format!(
                    "seat {seat} has no address in game.toml"
                )));
            };
            let address = p.email.trim().to_lowercase();
            if !seen.insert(address.clone()) {
                return Ok(Entry::LeftOut(format!(
                    "{address} holds more than one seat"
                )));
            }
            these.push(Player {
                address,
                name: p.name.clone(),
            });
        }
        players.push(these);
    }
    let last = archive.pick_turn(None)?;
    let ended = super::record::record(archive, last)?.and_then(|r| r.played_at);
    Ok(Entry::Rated(Finished {
        name: archive.name().to_string(),
        family: game.id().to_string(),
        ended,
        places: players,
    }))
}

/// One player's rating in a family of games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rated {
    /// The name of their latest game.
    pub name: String,
    #[serde(skip)]
    pub address: String,
    /// What the table sorts by: the skill less three times its uncertainty, which a
    /// player with few games reaches only by winning (OpenSkill's "ordinal").
    pub rating: f64,
    /// The skill (μ) and its uncertainty (σ).
    pub mu: f64,
    pub sigma: f64,
    pub games: u32,
    /// Games in which they took first place (alone or shared).
    pub wins: u32,
}

/// Every family's players, best first (by rating, then name, then address).
pub fn rate(games: &[Finished]) -> BTreeMap<String, Vec<Rated>> {
    let mut order: Vec<&Finished> = games.iter().collect();
    order.sort_by(|a, b| a.ended.cmp(&b.ended).then(a.name.cmp(&b.name)));
    let config = WengLinConfig::new();
    let mut families: BTreeMap<String, BTreeMap<String, Rated>> = BTreeMap::new();
    for g in order {
        let table = families.entry(g.family.clone()).or_default();
        let mut teams: Vec<(Vec<WengLinRating>, MultiTeamOutcome, &Player)> = Vec::new();
        for (place, players) in g.places.iter().enumerate() {
            for p in players {
                let now =
                    table
                        .get(&p.address)
                        .map_or_else(WengLinRating::new, |r| WengLinRating {
                            rating: r.mu,
                            uncertainty: r.sigma,
                        });
                teams.push((vec![now], MultiTeamOutcome::new(place + 1), p));
            }
        }
        let input: Vec<(&[WengLinRating], MultiTeamOutcome)> =
            teams.iter().map(|(r, o, _)| (r.as_slice(), *o)).collect();
        let after = weng_lin_multi_team(&input, &config);
        for ((_, outcome, p), new) in teams.iter().zip(after) {
            let Some(new) = new.first() else { continue };
            let r = table.entry(p.address.clone()).or_insert_with(|| Rated {
                name: p.name.clone(),
                address: p.address.clone(),
                rating: 0.0,
                mu: 0.0,
                sigma: 0.0,
                games: 0,
                wins: 0,
            });
            r.name = p.name.clone();
            r.mu = new.rating;
            r.sigma = new.uncertainty;
            r.rating = new.rating - 3.0 * new.uncertainty;
            r.games += 1;
            r.wins += u32::from(outcome.rank() == 1);
        }
    }
    families
        .into_iter()
        .map(|(family, table)| {
            let mut list: Vec<Rated> = table.into_values().collect();
            list.sort_by(|a, b| {
                b.rating
                    .total_cmp(&a.rating)
                    .then_with(|| a.name.cmp(&b.name))
                    .then_with(|| a.address.cmp(&b.address))
            });
            (family, list)
        })
        .collect()
}
