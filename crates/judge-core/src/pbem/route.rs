//! Which game of a folder a mail from the shared mailbox is for (docs/gm-guide.md,
//! "Many games, one address"). A pure function of the mail's sender, subject and texts
//! and of the games' names and players: the same mail goes to the same game on every
//! run, so a mail read twice is filed once (the game's own log knows it).
//!
//! In order: a `game NAME` line names the game; else a subject that names one of the
//! sender's games (a reply to `[island] turn 3`); else the sender's only game. A mail
//! that names a game the sender does not play in, or none when they play in several,
//! is answered by the folder with their games; a mail from nobody who plays is kept and
//! never answered (no mail to strangers).

use crate::mail::inbound::plain_lines;

/// A game of the folder, as routing sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// What order files write after `game`.
    pub name: String,
    /// The players' addresses.
    pub players: Vec<String>,
    /// The game's kind and how it stands, for answers that list games (`TITLE, turn 4
    /// played`).
    pub about: String,
    /// The addresses of players whose seats the GM gave to others (`judge replace`):
    /// their mail goes to the game, which tells them so once.
    pub formers: Vec<String>,
}

impl Entry {
    /// A game as the folder's answers list it.
    pub fn of(archive: &crate::archive::Archive, game: &dyn super::game::Game) -> Entry {
        let stands = match super::stage::waiting(archive) {
            Some(why) if !super::stage::started(archive) => why,
            why => {
                let turn = archive.turns().ok().and_then(|t| t.last().copied());
                let played = turn.map_or("the set-up round".to_string(), |t| {
                    if t == 0 {
                        "turn 1 next".to_string()
                    } else {
                        format!("turn {t} played")
                    }
                });
                match why {
                    Some(w) => format!("{played}; {w}"),
                    None => played,
                }
            }
        };
        Entry {
            name: archive.name(),
            players: archive
                .game
                .players
                .iter()
                .filter(|p| !p.is_free())
                .map(|p| p.email.to_ascii_lowercase())
                .collect(),
            about: format!("{}, {stands}", game.title()),
            // A list the game cannot read is the game's to report when it opens: here it
            // only means no former player's mail is routed to it.
            formers: super::replace::formers(archive)
                .map(|all| {
                    all.into_iter()
                        .map(|f| f.email.to_ascii_lowercase())
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
}

/// Where a mail goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// To the game at this index: it files the mail and answers it, as it would a mail
    /// from its own mailbox.
    Game(usize),
    /// It names `named`, a game the sender does not play in (or that is not here), and
    /// the sender plays in `yours`: answered with them.
    NotYourGame { named: String, yours: Vec<usize> },
    /// It names no game, and the sender plays in several: answered with them.
    WhichGame { yours: Vec<usize> },
    /// It asks for the sender's games (`games`) and names none: answered with them.
    Games { yours: Vec<usize> },
    /// From nobody who plays here, naming no game of the folder: kept, not answered.
    Stranger,
    /// Not known while a game of the folder cannot be read (its players are not known):
    /// the mail waits, unread, for a pass that reads every game. Only a mail whose game
    /// line names a game that is read goes on.
    Wait,
}

/// The games a sender plays in, by index.
pub fn games_of(games: &[Entry], from: Option<&str>) -> Vec<usize> {
    let Some(from) = from else {
        return Vec::new();
    };
    games
        .iter()
        .enumerate()
        .filter(|(_, g)| g.players.iter().any(|p| p.eq_ignore_ascii_case(from)))
        .map(|(i, _)| i)
        .collect()
}

/// What a mail says of the games it is for.
#[derive(Debug, Default)]
struct Named {
    /// The game names `game NAME`, `join NAME as …` and `confirm NAME …` lines give, in
    /// the order they come (body first).
    names: Vec<String>,
    /// The game the first `join` or `confirm` names: a sign-up, which goes to that game
    /// whoever sends it.
    signup: Option<String>,
    /// The mail asks for the sender's `games`.
    games: bool,
}

/// What the mail's texts name ([`Named`]). The text of a press is not read for them.
fn named_games<'a>(texts: impl IntoIterator<Item = &'a str>) -> Named {
    let mut named = Named::default();
    for text in texts {
        let split = super::commands::split(text);
        for c in &split.commands {
            match &c.command {
                Ok(
                    super::commands::Command::Join { game, .. }
                    | super::commands::Command::Confirm { game, .. },
                ) => {
                    named.signup.get_or_insert_with(|| game.clone());
                    if !named.names.iter().any(|n| n == game) {
                        named.names.push(game.clone());
                    }
                }
                Ok(super::commands::Command::Games) => named.games = true,
                _ => {}
            }
        }
        for line in plain_lines(&split.rest) {
            let mut words = line.split_whitespace();
            if words.next().map(|w| w.trim_end_matches(':')) == Some("game")
                && let Some(name) = words.next()
                && !named.names.iter().any(|n| n == name)
            {
                named.names.push(name.to_string());
            }
        }
    }
    named
}

/// Route a mail from `from` (its address) with `subject` and `texts` (the body first,
/// then text attachments). `all_read`: every game of the folder is in `games` (else
/// only a game line decides, [`Route::Wait`]).
pub fn route<'a>(
    games: &[Entry],
    all_read: bool,
    from: Option<&str>,
    subject: &str,
    texts: impl IntoIterator<Item = &'a str>,
) -> Route {
    let yours = games_of(games, from);
    let by_name = |name: &str| games.iter().position(|g| g.name.eq_ignore_ascii_case(name));
    let Named {
        names: named,
        signup,
        games: asks_games,
    } = named_games(texts);
    // A `join` or `confirm` goes to the game it names, whoever sends it: a player of
    // other games of the folder signs up as a stranger would, and
    // that game answers them as it answers a stranger, within the same limits. Unless
    // the mail names another of the sender's games too: then it is that game's (its
    // orders are never lost to a sign-up), which says the line goes in a mail alone.
    if let Some(g) = signup.as_deref().and_then(by_name) {
        let own = named
            .iter()
            .filter_map(|n| by_name(n))
            .find(|n| *n != g && yours.contains(n));
        return Route::Game(own.unwrap_or(g));
    }
    let found = named.iter().find_map(|n| by_name(n));
    if !all_read {
        return match found {
            Some(g) if yours.contains(&g) || yours.is_empty() => Route::Game(g),
            _ => Route::Wait,
        };
    }
    if let Some(first) = named.first() {
        // The first game line that names a game of the folder decides.
        match found {
            // A stranger's mail to a game is the game's to keep (a player writing from
            // an address the GM has yet to correct gives the game's own answer).
            Some(g) if yours.contains(&g) || yours.is_empty() => return Route::Game(g),
            Some(g) => {
                return Route::NotYourGame {
                    named: games[g].name.clone(),
                    yours,
                };
            }
            None if yours.is_empty() => return Route::Stranger,
            None => {
                return Route::NotYourGame {
                    named: first.clone(),
                    yours,
                };
            }
        }
    }
    if asks_games && !yours.is_empty() {
        return Route::Games { yours };
    }
    // A reply keeps the subject the judge wrote: `Re: [island] turn 3: report`.
    let subject = subject.to_ascii_lowercase();
    let in_subject: Vec<usize> = yours
        .iter()
        .copied()
        .filter(|g| {
            let name = games[*g].name.to_ascii_lowercase();
            subject.contains(&format!("[{name}]"))
        })
        .collect();
    match (in_subject.as_slice(), yours.as_slice()) {
        ([g], _) | ([], [g]) => Route::Game(*g),
        (_, []) => formerly(games, from, &subject).map_or(Route::Stranger, Route::Game),
        _ => Route::WhichGame { yours },
    }
}

/// The game whose seat `from` played before the GM gave it to another player, for a mail
/// that names no game: the only such game, else the one the (lower-case) subject names.
/// It tells them, once, that their seat has another player.
fn formerly(games: &[Entry], from: Option<&str>, subject: &str) -> Option<usize> {
    let from = from?;
    let was: Vec<usize> = games
        .iter()
        .enumerate()
        .filter(|(_, g)| g.formers.iter().any(|f| f.eq_ignore_ascii_case(from)))
        .map(|(i, _)| i)
        .collect();
    match was.as_slice() {
        [g] => Some(*g),
        _ => was
            .into_iter()
            .find(|g| subject.contains(&format!("[{}]", games[*g].name.to_ascii_lowercase()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<Entry> {
        vec![
            Entry {
                name: "harbour".into(),
                players: vec!["bob@example.org".into(), "cat@example.org".into()],
                ..Entry::default()
            },
            Entry {
                name: "island".into(),
                players: vec!["ann@example.org".into(), "bob@example.org".into()],
                ..Entry::default()
            },
        ]
    }

    /// "Each mail goes to the game its `game` line names; with no game line,
    /// to the sender's only game". Bob plays in both: his Harbour orders go to harbour,
    /// never to island (the mail that island once refused and marked seen).
    #[test]
    fn the_game_line_decides_then_the_senders_only_game() {
        let t = table();
        let bob = Some("bob@example.org");
        assert_eq!(
            route(&t, true, bob, "orders", ["game harbour\nplayer blue\n"]),
            Route::Game(0)
        );
        assert_eq!(
            route(&t, true, bob, "orders", ["Game: Island\nplayer red\n"]),
            Route::Game(1)
        );
        assert_eq!(
            route(
                &t,
                true,
                Some("ann@example.org"),
                "orders",
                ["player red\nbuild x\n"]
            ),
            Route::Game(1)
        );
        assert_eq!(
            route(&t, true, Some("ANN@example.org"), "", ["hello"]),
            Route::Game(1),
            "addresses compare without case"
        );
    }

    /// A reply to a report names its game in the subject (`[island]`); a mail that
    /// names none from a player of several games is answered with them.
    #[test]
    fn a_reply_goes_to_the_game_of_its_subject_else_the_sender_is_asked() {
        let t = table();
        let bob = Some("bob@example.org");
        assert_eq!(
            route(&t, true, bob, "Re: [island] turn 3: report", ["status"]),
            Route::Game(1)
        );
        assert_eq!(
            route(&t, true, bob, "hello", ["status"]),
            Route::WhichGame { yours: vec![0, 1] }
        );
    }

    /// "A fault in one game ... never stops the others", and never costs it its mail:
    /// while a game cannot be read its players are unknown, so only a game line naming
    /// a game that is read routes a mail; the rest wait for a pass that reads them all.
    #[test]
    fn while_a_game_cannot_be_read_only_a_game_line_routes() {
        let t = table();
        let bob = Some("bob@example.org");
        assert_eq!(
            route(&t, false, bob, "", ["game harbour\n"]),
            Route::Game(0)
        );
        assert_eq!(
            route(&t, false, Some("ann@example.org"), "", ["hi"]),
            Route::Wait
        );
        assert_eq!(
            route(&t, false, bob, "Re: [valley] report", ["x"]),
            Route::Wait
        );
        assert_eq!(
            route(&t, false, Some("eve@example.org"), "", ["hi"]),
            Route::Wait
        );
    }

    /// "a replaced player's mail gets silence: tell them once that
    /// their seat now has another player". A mail with no game line from an address the
    /// GM replaced goes to the game it played in (which answers once), to the one its
    /// subject names when it played in several, and is a stranger's otherwise.
    #[test]
    fn a_replaced_players_mail_goes_to_the_game_they_played_in() {
        let mut t = table();
        let zed = Some("Zed@example.org");
        assert_eq!(
            route(&t, true, zed, "orders", ["move D1: C3\n"]),
            Route::Stranger
        );
        t[1].formers = vec!["zed@example.org".into()];
        assert_eq!(
            route(&t, true, zed, "orders", ["move D1: C3\n"]),
            Route::Game(1)
        );
        t[0].formers = vec!["zed@example.org".into()];
        assert_eq!(
            route(&t, true, zed, "Re: [harbour] turn 2: report", ["status\n"]),
            Route::Game(0)
        );
        assert_eq!(
            route(&t, true, zed, "orders", ["status\n"]),
            Route::Stranger
        );
        // A player of the folder is routed as before.
        let ann = Some("ann@example.org");
        assert_eq!(route(&t, true, ann, "orders", ["status\n"]), Route::Game(1));
    }

    /// A `join` or `confirm` goes to the game it names whoever sends
    /// it — a player of other games of the folder too, with a game line or in a reply —
    /// unless the mail names another of the sender's games, whose orders it may hold.
    #[test]
    fn a_sign_up_goes_to_its_game_whoever_sends_it() {
        let t = table();
        let ann = Some("ann@example.org");
        for (subject, text) in [
            ("hi", "join harbour as Ann\n"),
            ("hi", "game harbour\njoin harbour as Ann\n"),
            ("Re: [harbour] join", "join harbour as Ann\n"),
            ("hi", "confirm harbour abcd-efgh-jkmn\n"),
        ] {
            assert_eq!(
                route(&t, true, ann, subject, [text]),
                Route::Game(0),
                "{text}"
            );
            assert_eq!(
                route(&t, false, ann, subject, [text]),
                Route::Game(0),
                "{text}"
            );
        }
        assert_eq!(
            route(
                &t,
                true,
                ann,
                "",
                ["game island\nplayer red\njoin harbour as Ann\n"]
            ),
            Route::Game(1),
            "her island orders go to island"
        );
        // Without a sign-up, a game line naming a game not hers is answered as before.
        assert_eq!(
            route(&t, true, ann, "", ["game harbour\nstatus\n"]),
            Route::NotYourGame {
                named: "harbour".into(),
                yours: vec![1]
            }
        );
        assert_eq!(
            route(&t, true, ann, "", ["join atlantis as Ann\n"]),
            Route::NotYourGame {
                named: "atlantis".into(),
                yours: vec![1]
            }
        );
    }

    /// "a mail for no game the sender plays in gets one answer that lists their games";
    /// a stranger's mail is never answered, but one that names a game is that game's.
    #[test]
    fn a_mail_for_no_game_of_the_sender_is_answered_by_the_folder() {
        let t = table();
        assert_eq!(
            route(&t, true, Some("ann@example.org"), "", ["game harbour\n"]),
            Route::NotYourGame {
                named: "harbour".into(),
                yours: vec![1]
            }
        );
        assert_eq!(
            route(&t, true, Some("ann@example.org"), "", ["game atlantis\n"]),
            Route::NotYourGame {
                named: "atlantis".into(),
                yours: vec![1]
            }
        );
        assert_eq!(
            route(&t, true, Some("eve@example.org"), "", ["hi"]),
            Route::Stranger
        );
        assert_eq!(
            route(&t, true, Some("eve@example.org"), "", ["game island\n"]),
            Route::Game(1)
        );
        assert_eq!(
            route(&t, true, None, "", ["game atlantis"]),
            Route::Stranger
        );
    }
}
