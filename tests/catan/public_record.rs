//! What each player may see, on the archived games (games/catan-4p, catan-express-4p,
//! catan-express-5p, played again by mail with the fixed judge): in none of their public
//! reports, other players' reports or site pages does a player's hand, discard, stolen
//! card or order text appear; each game's seed, published at its end, verifies.
//!
//! What is private is read from each step's events (the judge's full record): every
//! order line of a player (done, refused or skipped), every stolen card, every card
//! discarded, and each player's hand after the step. Then every page a player other
//! than the owner can read — the public `report.txt`, the other players' own reports
//! (as mailed), and every page `judge site` makes — is searched for them.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use pbem_judge::catan::{Event, State};

const GAMES: [&str; 3] = [
    "games/catan-4p",
    "games/catan-express-4p",
    "games/catan-express-5p",
];

/// What must not be read in a page seen by someone other than `owner`.
struct Secret {
    owner: Vec<String>,
    text: String,
    what: String,
}

fn secrets_of(step: u32, events: &[Event], after: &State) -> Vec<Secret> {
    let mut out = Vec::new();
    for e in events {
        match e {
            Event::Order { player, line, .. }
            | Event::Failed { player, line, .. }
            | Event::Skipped { player, line, .. } => out.push(Secret {
                owner: vec![player.name().into()],
                text: format!("{player}, line {line}:"),
                what: format!("step {step}: {player}'s order on line {line}"),
            }),
            Event::Stole {
                thief,
                victim,
                card,
            } => out.push(Secret {
                owner: vec![thief.name().into(), victim.name().into()],
                text: format!("stole 1 {card}"),
                what: format!("step {step}: the card {thief} stole"),
            }),
            Event::Discarded { player, cards } => out.push(Secret {
                owner: vec![player.name().into()],
                text: format!("{player} discarded {cards}"),
                what: format!("step {step}: what {player} discarded"),
            }),
            Event::Bought { player, card } => out.push(Secret {
                owner: vec![player.name().into()],
                text: format!("bought a development card: {card}"),
                what: format!("step {step}: the card {player} bought"),
            }),
            _ => {}
        }
    }
    for p in &after.players {
        if p.hand.total() > 0 {
            // A reader who holds the very same hand reads these words about their own.
            out.push(Secret {
                owner: after
                    .players
                    .iter()
                    .filter(|o| o.hand == p.hand)
                    .map(|o| o.colour.name().to_string())
                    .collect(),
                text: format!("Resources: {}\n", p.hand),
                what: format!("step {step}: {}'s hand", p.colour),
            });
        }
    }
    out
}

#[test]
fn no_archived_catan_page_shows_another_players_hidden_parts() {
    for game in GAMES {
        let dir = Path::new(game);
        let archive = pbem_judge::archive::Archive::open(dir).expect("archive");
        let turns = archive.turns().expect("turns");
        assert!(turns.len() > 60, "{game}: {} steps", turns.len());
        // The site, made into memory.
        let g = pbem_judge::games::by_id(&archive.game.game).expect("game");
        let (ov, site_turns) = pbem_judge::site::collect(&archive, g, &mut || {}).expect("site");
        let site = pbem_judge::site::render(&ov, &site_turns).expect("site");
        let site_text: BTreeMap<String, String> = site
            .iter()
            .map(|(k, v)| (k.clone(), String::from_utf8_lossy(v).replace("&#39;", "'")))
            .collect();
        let mut checked = 0;
        for t in turns.iter().copied().skip(1) {
            let events: Vec<Event> =
                serde_json::from_str(&support::catan::events_text(dir, t)).expect("events read");
            let after = State::from_json(&archive.read(t, "state.json").expect("state"))
                .expect("state reads");
            let secrets = secrets_of(t, &events, &after);
            let public = archive.read(t, "report.txt").expect("public report");
            let mut pages: Vec<(String, Option<String>, String)> =
                vec![(format!("{game} turn {t} report.txt"), None, public)];
            for p in &after.players {
                let seat = p.colour.name();
                let text = pbem_judge::pbem::report::player_text(&archive, g, t, seat)
                    .expect("a player's report");
                pages.push((
                    format!("{game} turn {t} reports/{seat}.txt"),
                    Some(seat.to_string()),
                    text,
                ));
            }
            for s in &secrets {
                for (name, reader, text) in &pages {
                    if reader.as_ref().is_some_and(|r| s.owner.contains(r)) {
                        continue;
                    }
                    assert!(!text.contains(&s.text), "{name} shows {}", s.what);
                    checked += 1;
                }
                for (name, text) in &site_text {
                    assert!(
                        !text.contains(&s.text),
                        "{game}'s site page {name} shows {}",
                        s.what
                    );
                }
            }
            // The owner does read their own: the test looks for the right thing.
            for s in secrets.iter().filter(|s| s.text.contains(", line ")) {
                let own = pbem_judge::pbem::report::player_text(&archive, g, t, &s.owner[0])
                    .expect("own report");
                assert!(
                    own.contains(&s.text),
                    "{}: the owner's report lacks it",
                    s.what
                );
            }
        }
        assert!(checked > 1000, "{game}: only {checked} checks");
    }
}

/// Each finished archived game's seed is published, fits its commitment, and gives every
/// draw of the game (`judge verify` exits 0); the whole archive replays.
#[test]
fn every_finished_archived_catan_game_verifies() {
    for game in GAMES {
        let (code, out, err) = support::judge_text(&["verify", game], &[]);
        assert_eq!(code, 0, "{game}: {out}{err}");
        assert!(
            out.contains("SHA-256 of the published seed and salt matches"),
            "{out}"
        );
        assert!(
            out.contains("every draw and every state identical"),
            "{out}"
        );
    }
}
