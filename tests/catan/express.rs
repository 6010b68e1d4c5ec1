//! Catan Express as a whole: the API sets games up (3–6 players, both maps), the engine
//! offers only legal actions, reports keep to 78 columns and show the railway, and the
//! picture draws it. The rules themselves are proven by the cases (tests/catan-express).

use pbem_judge::catan::board::layout::Layout;
use pbem_judge::catan::express::{self, Map};
use pbem_judge::catan::rng::Rng;
use pbem_judge::catan::rules::{Action, Refusal};
use pbem_judge::catan::scenario::Variant;
use pbem_judge::catan::{Colour, Options, State, new_game, picture, report};

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("Player {i}")).collect()
}

fn random_state(
    map: Map,
    players: usize,
    seed: u64,
    steps: usize,
) -> (State, State, Vec<pbem_judge::catan::Event>) {
    let mut s =
        express::new_game("demo", &names(players), seed, map, Layout::Random).expect("a game");
    let mut r = Rng::new(seed + 1);
    let mut acts = Vec::new();
    for _ in 0..steps {
        s.legal_actions(&mut acts);
        if acts.is_empty() {
            break;
        }
        let a = acts[r.below(acts.len() as u32) as usize];
        s.execute(a, &mut ());
    }
    let before = s.clone();
    let mut ev = Vec::new();
    for _ in 0..30 {
        s.legal_actions(&mut acts);
        if acts.is_empty() {
            break;
        }
        let a = acts[r.below(acts.len() as u32) as usize];
        s.execute(a, &mut ev);
    }
    (before, s, ev)
}

/// `catan::express::new_game` and base `new_game` with the Express variant make the same
/// game; 3 to 6 players; five and six play the large island with the extension's cards.
#[test]
fn games_are_set_up_for_three_to_six() {
    for n in 3..=6 {
        for map in [Map::Island, Map::Beyond] {
            let a = express::new_game("g", &names(n), 5, map, Layout::Beginner).expect("a game");
            let options = Options {
                extension: n > 4,
                variant: Variant::Express(map),
                ..Options::default()
            };
            let b = new_game("g", &names(n), 5, &options).expect("a game");
            assert_eq!(a.to_json(), b.to_json());
            assert_eq!(a.board.topology.land_hexes, if n > 4 { 30 } else { 19 });
            assert_eq!(a.deck.len(), if n > 4 { 34 } else { 25 });
        }
    }
    assert!(express::new_game("g", &names(2), 5, Map::Island, Layout::Beginner).is_err());
    assert!(express::new_game("g", &names(7), 5, Map::Island, Layout::Beginner).is_err());
}

/// "Catan Express beyond the Island": any base board, a random one from the seed too.
#[test]
fn beyond_the_island_on_a_random_board() {
    let a = express::new_game("g", &names(4), 11, Map::Beyond, Layout::Random).expect("a game");
    let b = express::new_game("g", &names(4), 12, Map::Beyond, Layout::Random).expect("a game");
    assert_ne!(a.board, b.board, "the board comes from the seed");
    let x = a.scenario.as_deref().expect("express");
    assert_eq!(x.supply(express::Kind::Ferry), 15);
    let island =
        express::new_game("g", &names(4), 11, Map::Island, Layout::Random).expect("a game");
    assert_eq!(
        island
            .scenario
            .as_deref()
            .map(|x| x.supply(express::Kind::Ferry)),
        Some(8)
    );
}

/// Every action the engine offers passes its own check, through founding, race and end.
#[test]
fn legal_actions_are_all_allowed() {
    for (i, map) in [Map::Island, Map::Beyond].into_iter().enumerate() {
        for seed in 0..8u64 {
            let players = 3 + (seed % 4) as usize;
            let mut s =
                express::new_game("t", &names(players), seed, map, Layout::Random).expect("a game");
            let mut r = Rng::new(seed + 100 + i as u64);
            let mut acts = Vec::new();
            for _ in 0..6000 {
                s.legal_actions(&mut acts);
                if acts.is_empty() {
                    break;
                }
                for a in &acts {
                    assert_eq!(s.check(*a), Ok(()), "{a:?} in {:?}", s.phase);
                }
                let a = acts[r.below(acts.len() as u32) as usize];
                s.execute(a, &mut ());
            }
        }
    }
}

/// "Players may not build Roads as in the basic game": the engine refuses roads.
#[test]
fn the_engine_refuses_roads() {
    let mut s =
        express::new_game("t", &names(4), 3, Map::Island, Layout::Beginner).expect("a game");
    let mut acts = Vec::new();
    for _ in 0..5000 {
        s.legal_actions(&mut acts);
        assert!(
            !acts.iter().any(|a| matches!(
                a,
                Action::BuildRoad(_) | Action::FoundRoad(_) | Action::FreeRoad(_)
            )),
            "roads offered in {:?}",
            s.phase
        );
        if acts.is_empty() {
            break;
        }
        let a = acts[acts.len() / 2];
        s.execute(a, &mut ());
    }
    assert_eq!(
        s.check(Action::BuildRoad(0)),
        if s.phase == pbem_judge::catan::state::Phase::Over {
            Err(Refusal::GameOver)
        } else {
            s.check(Action::BuildRoad(0))
        }
    );
    let fresh =
        express::new_game("t", &names(4), 3, Map::Island, Layout::Beginner).expect("a game");
    let mut main = fresh.clone();
    main.phase = pbem_judge::catan::state::Phase::Main;
    assert_eq!(
        main.check(Action::BuildRoad(0)),
        Err(Refusal::Scenario(express::Refusal::NoRoads))
    );
}

/// House style: every line of an Express report fits 78 columns, on every map and
/// player count, and the picture draws rail lines, ferries and locomotives.
#[test]
fn reports_fit_and_pictures_draw_the_railway() {
    let mut drew_ferry = false;
    let mut drew_race = false;
    for (map, players, seed) in [
        (Map::Island, 4, 1),
        (Map::Island, 3, 2),
        (Map::Island, 6, 3),
        (Map::Beyond, 5, 4),
        (Map::Beyond, 4, 5),
    ] {
        for steps in [200, 1500, 4000] {
            let (b, a, ev) = random_state(map, players, seed, steps);
            for viewer in [None, Some(Colour::Red)] {
                let t = report(&b, &ev, &a, viewer);
                if std::env::var("SHOW_REPORT").is_ok() {
                    println!("{t}");
                }
                for l in t.lines() {
                    assert!(l.chars().count() <= 78, "too wide: {l:?}");
                }
                assert!(t.contains("CATAN EXPRESS"));
                assert!(t.contains("The railway"));
            }
            let svg = picture(&a).to_svg();
            assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
            let x = a.scenario.as_deref().expect("express");
            if x.players.iter().any(|p| !p.ferries.is_empty()) {
                drew_ferry = true;
            }
            if x.race.is_some() {
                drew_race = true;
            }
        }
    }
    assert!(
        drew_ferry && drew_race,
        "the random games reach ferries and the race"
    );
}

/// RULINGS R9, "a race that can no longer be won" (the text: the race "cannot be won
/// until the connection to the other networks is made", and pieces are limited): before
/// it, 58 of 200 random four-player games on the island never ended (pieces ran out
/// with the railways apart). Now every one ends. A game that ends with the connection
/// lapsed is won by the race (someone took all their towers) or, if nobody could still,
/// by the most points, ties going to the starter, then the closest after the starter.
#[test]
fn a_race_that_can_no_longer_be_won_ends_the_game() {
    use pbem_judge::catan::express::Event as X;
    use pbem_judge::catan::state::Phase;
    let (mut lapsed, mut stalled, mut by_race) = (0, 0, 0);
    for seed in 1..=200u64 {
        let mut s =
            express::new_game("r9", &names(4), seed, Map::Island, Layout::Beginner).expect("game");
        let mut r = Rng::new(seed ^ 0x5EED_5EED_5EED_5EED);
        let mut acts = Vec::new();
        let mut ev = Vec::new();
        for _ in 0..express::selfplay::ACTION_LIMIT {
            s.legal_actions(&mut acts);
            if acts.is_empty() || s.phase == Phase::Over {
                break;
            }
            let a = acts[r.below(acts.len() as u32) as usize];
            s.execute(a, &mut ev);
        }
        assert_eq!(s.phase, Phase::Over, "seed {seed}: the game never ended");
        let has = |want: &X| {
            ev.iter()
                .any(|e| matches!(e, pbem_judge::catan::Event::Scenario(x) if x == want))
        };
        if !has(&X::ConnectionLapsed) {
            continue;
        }
        lapsed += 1;
        let x = s.scenario.as_deref().expect("express");
        let race = x.race.as_ref().expect("a race");
        let winner = s.winner.expect("a winner");
        let n = s.players.len() as u8;
        let best = (0..n).map(|p| s.points(p)).max().unwrap_or(0);
        assert_eq!(s.points(winner), best, "seed {seed}: the most points win");
        if has(&X::RaceStalled) {
            stalled += 1;
            assert!(race.winner.is_none(), "seed {seed}");
            // Ties: the starter, then the closest after the starter.
            let first_best = (0..n)
                .map(|k| (race.starter + k) % n)
                .find(|&p| s.points(p) == best)
                .expect("someone has the most");
            assert_eq!(
                winner, first_best,
                "seed {seed}: ties go to the starter's side"
            );
            for p in 0..n {
                assert!(
                    !express::race::can_still_collect(x, p),
                    "seed {seed}: {p} could still collect"
                );
            }
        } else {
            by_race += 1;
            let racer = race.winner.expect("the race was won");
            assert!(race.all_collected(racer), "seed {seed}");
        }
    }
    assert!(
        lapsed > 20 && stalled > 0 && by_race > 0,
        "{lapsed} lapsed: {stalled} stalled, {by_race} won by the race"
    );
}
