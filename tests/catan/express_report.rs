//! Snapshots of Catan Express reports (for a player and for the public) and of order
//! diagnostics: the house style, 78 columns, the railway, the race.

use std::collections::BTreeMap;

use pbem_judge::catan::board::layout::Layout;
use pbem_judge::catan::express::{self, Map};
use pbem_judge::catan::rng::Rng;
use pbem_judge::catan::state::Phase;
use pbem_judge::catan::{Colour, State, check_orders, play, report};

fn names() -> Vec<String> {
    ["Ann", "Bob", "Cy", "Di"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// The island after a founding by mail (tests/catan/template.rs plays on from it).
pub(crate) fn founded() -> State {
    let mut s =
        express::new_game("demo", &names(), 7, Map::Island, Layout::Beginner).expect("game");
    let picks = [
        ["13", "38 line I"],
        ["3", "59 line P"],
        ["1", "42 line K"],
        ["25", "44 line M"],
    ];
    for _ in 0..8 {
        let who = s.players[s.actor() as usize].colour;
        let [a, b] = picks[who.seat()];
        let file = format!("founding\nsettlement {a}\nsettlement {b}\n");
        s = play(&s, &BTreeMap::from([(who, file)])).state;
    }
    s
}

#[test]
fn a_turn_report_after_the_founding() {
    let s = founded();
    let active = s.players[s.active as usize].colour;
    let files = BTreeMap::from([(
        active,
        "robber E\nline 42-P\nif I can: line 35-K\npass\n".to_string(),
    )]);
    let out = play(&s, &files);
    let mine = report(&s, &out.events, &out.state, Some(active));
    let public = report(&s, &out.events, &out.state, None);
    for l in mine.lines().chain(public.lines()) {
        assert!(l.chars().count() <= 78, "{l}");
    }
    insta::assert_snapshot!("express_report_player", mine);
    insta::assert_snapshot!("express_report_public", public);
}

/// A random game played until the race has begun and the player to move has a railway
/// of five pieces, then a turn by mail that moves to the nearest tower.
#[test]
fn a_race_turn_report() {
    let mut s =
        express::new_game("race", &names(), 3, Map::Beyond, Layout::Beginner).expect("game");
    let mut r = Rng::new(3);
    let mut acts = Vec::new();
    loop {
        let ready = s.phase == Phase::BeforeRoll
            && s.scenario.as_deref().is_some_and(|x| {
                x.race
                    .as_ref()
                    .is_some_and(|race| !race.stopovers.is_empty())
                    && x.players[s.active as usize].pieces() >= 5
            })
            && express::orders::plan(&s, s.active, &express::orders::Route::Tower)
                .is_ok_and(|(p, _)| p.len() >= 2);
        if ready {
            break;
        }
        s.legal_actions(&mut acts);
        assert!(
            !acts.is_empty() && s.phase != Phase::Over,
            "the race never began"
        );
        let a = acts[r.below(acts.len() as u32) as usize];
        s.execute(a, &mut ());
    }
    let active = s.players[s.active as usize].colour;
    let files = BTreeMap::from([(active, "move to tower\nfares ore\n".to_string())]);
    let out = play(&s, &files);
    let public = report(&s, &out.events, &out.state, None);
    for l in public.lines() {
        assert!(l.chars().count() <= 78, "{l}");
    }
    insta::assert_snapshot!("express_report_race", public);
    let svg = pbem_judge::catan::picture(&out.state).to_svg();
    insta::assert_snapshot!("express_picture_race", svg);
    // The step's picture shows the locomotive's way, in its owner's colour:
    // a line and an arrowhead, each with the way in its tooltip, and the legend's key.
    use pbem_judge::picture::Shape;
    let step = pbem_judge::catan::step_picture(&s, &out.events, &out.state);
    let colour = pbem_judge::catan::report::picture::player_colour(active);
    let way = format!("{active}'s locomotive: ");
    let drawn: Vec<&Shape> = step
        .shapes
        .iter()
        .filter_map(|sh| match sh {
            Shape::Note { note, shapes } if note.starts_with(&way) => Some(shapes),
            _ => None,
        })
        .flatten()
        .collect();
    assert!(
        drawn
            .iter()
            .any(|sh| matches!(sh, Shape::Line { stroke, .. } if stroke.colour == colour)),
        "the way's line"
    );
    assert!(
        drawn
            .iter()
            .any(|sh| matches!(sh, Shape::Polygon { fill, .. } if *fill == Some(colour))),
        "the way's arrowhead"
    );
    assert!(
        step.to_svg()
            .contains(">locomotive's way (owner's colour)</text>")
    );
}

#[test]
fn order_diagnostics() {
    let s = founded();
    let text = "player red\nroad 13-14\nline 29-36\nferry 38-I\nfery 16-24\nmove to 24 paying wol\nsettlement 38 line Q\nstopover 999\n";
    let c = check_orders(&s, Colour::Red, "red.txt", text);
    insta::assert_snapshot!("express_order_diagnostics", c.diagnostics.render());
}
