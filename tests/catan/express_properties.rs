//! Invariants of Catan Express over random legal play: resource and
//! development cards are conserved (fees and fares only move cards between players),
//! no piece limit is exceeded (15 lines, 8 or 15 ferries, 5 settlements, 4 cities — 2
//! before the race — water towers), the railway tables agree with the pieces, the same
//! seed gives the same game byte for byte, and every state written reads back exactly.

use std::collections::BTreeMap;

use pbem_judge::catan::board::layout::Layout;
use pbem_judge::catan::cards::DevCard;
use pbem_judge::catan::express::state::{CITIES_BEFORE_RACE, towers_per_player};
use pbem_judge::catan::express::{self, Kind, Map};
use pbem_judge::catan::rng::Rng;
use pbem_judge::catan::rules::{CITIES, SETTLEMENTS};
use pbem_judge::catan::{Colour, State, play};
use proptest::prelude::*;

fn start(map: Map, players: usize, seed: u64) -> State {
    let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
    express::new_game("prop", &names, seed, map, Layout::Random).expect("a game")
}

fn check_invariants(s: &State) -> Result<(), TestCaseError> {
    let per = if s.options.extension { 24u32 } else { 19 };
    for r in 0..5 {
        let held: u32 = s.players.iter().map(|p| u32::from(p.hand.0[r])).sum();
        prop_assert_eq!(
            held + u32::from(s.bank.0[r]),
            per,
            "resource {} not conserved",
            r
        );
    }
    let deck_total: u32 = DevCard::deck_counts(s.options.extension)
        .iter()
        .map(|&n| u32::from(n))
        .sum();
    let in_play: u32 = s
        .players
        .iter()
        .map(|p| p.devs.total() + p.new_devs.total() + p.played.total())
        .sum();
    prop_assert_eq!(
        s.deck.len() as u32 + in_play,
        deck_total,
        "development cards not conserved"
    );
    let x = s.scenario.as_deref().expect("an Express game");
    let racing = x.race.is_some();
    for (seat, p) in s.players.iter().enumerate() {
        let r = &x.players[seat];
        prop_assert!(p.settlements.len() <= SETTLEMENTS as usize);
        prop_assert!(p.cities.len() <= CITIES as usize);
        if !racing {
            prop_assert!(
                p.cities.len() <= CITIES_BEFORE_RACE as usize,
                "a third city before the race"
            );
        }
        prop_assert!(p.roads.is_empty(), "no roads in Catan Express");
        prop_assert!(
            p.devs.get(DevCard::VictoryPoint) + p.new_devs.get(DevCard::VictoryPoint) == 0,
            "victory point cards are played at once"
        );
        prop_assert!(r.lines.len() <= x.supply(Kind::Line) as usize);
        prop_assert!(r.ferries.len() <= x.supply(Kind::Ferry) as usize);
        let mut all: Vec<u16> = r.lines.iter().chain(&r.ferries).copied().collect();
        all.sort_unstable();
        let n = all.len();
        all.dedup();
        prop_assert_eq!(all.len(), n, "two pieces of one player on a stretch");
        for &st in &r.lines {
            prop_assert_eq!(x.rail.kind(st), Some(Kind::Line));
            prop_assert!(x.owners[st as usize] & (1 << seat) != 0);
        }
        for &st in &r.ferries {
            prop_assert_eq!(x.rail.kind(st), Some(Kind::Ferry));
            prop_assert!(x.owners[st as usize] & (1 << seat) != 0);
        }
    }
    let pieces: u32 = x.owners.iter().map(|o| o.count_ones()).sum();
    let listed: usize = x.players.iter().map(|p| p.pieces()).sum();
    prop_assert_eq!(
        pieces as usize,
        listed,
        "the owners table and the pieces disagree"
    );
    if let Some(race) = &x.race {
        prop_assert!(
            race.stopovers.len() <= towers_per_player(s.players.len()) as usize,
            "more stopovers than towers"
        );
        for st in &race.stopovers {
            prop_assert!(
                s.vertex_owner[st.vertex] != pbem_judge::catan::state::NOBODY,
                "a stopover without a building"
            );
        }
        let mut v: Vec<usize> = race.stopovers.iter().map(|st| st.vertex).collect();
        v.sort_unstable();
        v.dedup();
        prop_assert_eq!(v.len(), race.stopovers.len(), "a place chosen twice");
    }
    Ok(())
}

fn random_game(
    map: Map,
    players: usize,
    seed: u64,
    limit: usize,
    each: impl Fn(&State) -> Result<(), TestCaseError>,
) -> Result<State, TestCaseError> {
    let mut s = start(map, players, seed);
    let mut choose = Rng::new(seed.wrapping_mul(31) + 7);
    let mut acts = Vec::new();
    for _ in 0..limit {
        s.legal_actions(&mut acts);
        if acts.is_empty() {
            break;
        }
        let a = acts[choose.below(acts.len() as u32) as usize];
        s.apply(a, &mut ())
            .map_err(|r| TestCaseError::fail(format!("{a:?}: {r:?}")))?;
        each(&s)?;
    }
    Ok(s)
}

fn map_of(island: bool) -> Map {
    if island { Map::Island } else { Map::Beyond }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Cards conserved and piece limits kept after every action of a random game.
    #[test]
    fn cards_conserved_and_limits_kept(island in any::<bool>(), players in 3usize..=6, seed in any::<u64>()) {
        random_game(map_of(island), players, seed, 4000, check_invariants)?;
    }

    /// Same seed, same game: two runs end in the same bytes.
    #[test]
    fn the_same_seed_gives_the_same_game(island in any::<bool>(), players in 3usize..=6, seed in any::<u64>()) {
        let a = random_game(map_of(island), players, seed, 2500, |_| Ok(()))?;
        let b = random_game(map_of(island), players, seed, 2500, |_| Ok(()))?;
        prop_assert_eq!(a.to_json(), b.to_json());
    }

    /// Any state reached (the race, a moving locomotive, stopovers being chosen) reads
    /// back from its JSON exactly, and plays on the same.
    #[test]
    fn states_round_trip_through_json(island in any::<bool>(), players in 3usize..=6, seed in any::<u64>(), steps in 0usize..3000) {
        let s = random_game(map_of(island), players, seed, steps, |_| Ok(()))?;
        let text = s.to_json();
        let mut back = State::from_json(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        // The secret seed is never written into the state: the pipeline hands it back.
        prop_assert!(!text.contains(&s.luck.to_hex()));
        back.luck = s.luck.clone();
        prop_assert_eq!(back.to_json(), text.clone());
        prop_assert!(back == s);
        let (mut a, mut b) = (s, back);
        let mut acts = Vec::new();
        a.legal_actions(&mut acts);
        let mut acts_b = Vec::new();
        b.legal_actions(&mut acts_b);
        prop_assert_eq!(&acts, &acts_b);
        if let Some(&act) = acts.first() {
            a.execute(act, &mut ());
            b.execute(act, &mut ());
            prop_assert_eq!(a.to_json(), b.to_json());
        }
    }

    /// By mail too: the same state and files give the same state and events.
    #[test]
    fn plays_by_mail_repeat_exactly(island in any::<bool>(), seed in any::<u64>()) {
        let mut s = start(map_of(island), 4, seed);
        for step in 0..40 {
            let active = s.players[s.actor() as usize].colour;
            let files: BTreeMap<Colour, String> = if step % 3 == 0 {
                [(active, "stopover 13, 40\nfares ore\nrobber A\ndiscard ore\nif I can: line 13-A\nmove to tower\n".to_string())].into()
            } else {
                BTreeMap::new()
            };
            let a = play(&s, &files);
            let b = play(&s, &files);
            prop_assert_eq!(a.state.to_json(), b.state.to_json());
            prop_assert_eq!(serde_json::to_string(&a.events).ok(), serde_json::to_string(&b.events).ok());
            check_invariants(&a.state)?;
            s = a.state;
        }
    }
}
