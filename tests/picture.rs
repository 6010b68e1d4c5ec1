//! The map picture (issue 15): the SVG of every bundled scenario's board at the start
//! (snapshots, reviewed as pictures), with every tile's label and every rail track; every
//! hex label of the two-player game's picture in its SVG; Catan's boards through the same
//! drawing code; and the PNG being that SVG rendered, the same bytes each time.

mod support;

use std::path::Path;

use pbem_judge::catan::board::layout::Layout;
use pbem_judge::catan::express::{self, Map};
use pbem_judge::catan::{Options, new_game};
use pbem_judge::picture::{Picture, Shape};
use pbem_judge::roads_boats::State;
use pbem_judge::roads_boats::report::picture;
use pbem_judge::roads_boats::scenario::{Scenario, Seat, bundled};

fn start(name: &str) -> State {
    let s = Scenario::parse(name, bundled()[name]).expect("bundled scenario");
    let seats: Vec<Seat> = (0..s.players)
        .map(|i| Seat {
            name: format!("Player {}", i + 1),
            email: format!("p{i}@example.org"),
        })
        .collect();
    // A scenario that starts with an auction or a set-up round: its board before it.
    if s.has_auction() {
        s.start_auction(&seats, &pbem_judge::luck::Luck::predictable(5))
            .expect("auction")
            .state
    } else if s.homes_are_chosen() {
        s.start_setup(&seats, &pbem_judge::luck::Luck::predictable(5))
            .expect("set-up round")
            .state
    } else {
        s.start(&seats, &pbem_judge::luck::Luck::predictable(5))
            .expect("start")
    }
}

/// The texts a picture writes.
fn texts(p: &Picture) -> Vec<String> {
    fn walk(s: &Shape, out: &mut Vec<String>) {
        match s {
            Shape::Text(t) => out.push(t.text.clone()),
            Shape::Note { shapes, .. } => shapes.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    p.shapes.iter().for_each(|s| walk(s, &mut out));
    out
}

/// A rail track is drawn as its ties (a dashed wide line) under its rails: the ties'
/// stroke, one per track.
const TIES: &str = "stroke=\"#263238\" stroke-width=\"8\" stroke-dasharray=\"2 4\"";

/// Issue 15: "Hex labels (`C4`) on every tile … rail tracks … a legend that lists only
/// what is on the map." Every bundled scenario's board at the start, as SVG.
#[test]
fn every_bundled_scenario_is_drawn_with_its_labels_and_tracks() {
    let names: Vec<&str> = bundled().keys().copied().collect();
    assert!(names.len() >= 9, "{names:?}");
    for name in names {
        let state = start(name);
        let drawing = picture::draw(&state, &format!("{name}: the start"));
        let svg = drawing.to_svg();
        let words = texts(&drawing);
        for h in state.map.tiles.keys() {
            let label = h.to_string();
            assert!(words.contains(&label), "{name}: no label {label}");
            assert!(svg.contains(&format!(">{label}</text>")), "{name}: {label}");
        }
        assert_eq!(
            svg.matches(TIES).count(),
            state.map.tracks.len() + usize::from(!state.map.tracks.is_empty()),
            "{name}: one drawn track per track on the map, and one in the legend"
        );
        // The legend names a rail track only where there is one.
        assert_eq!(
            words.iter().any(|w| w == "rail track"),
            !state.map.tracks.is_empty(),
            "{name}"
        );
        assert_eq!(
            words.iter().any(|w| w == "road"),
            !state.map.roads.is_empty(),
            "{name}"
        );
        insta::assert_snapshot!(format!("svg-{name}"), svg);
    }
}

/// Issue 15: the acceptance's "a test that every hex label of the two-player game's
/// picture appears in the SVG": the archived game's last turn, as `judge report` draws
/// it, and as the archive keeps it.
#[test]
fn every_hex_label_of_the_two_player_game_is_in_its_svg() {
    let game = Path::new("games/two-rivers-2p");
    let scenario = std::fs::read_to_string(game.join("scenario.toml")).expect("scenario");
    let s = Scenario::parse("two-rivers", &scenario).expect("scenario");
    let tiles: Vec<String> = s
        .start(
            &[
                Seat {
                    name: "Ann".into(),
                    email: "a@example.org".into(),
                },
                Seat {
                    name: "Bob".into(),
                    email: "b@example.org".into(),
                },
            ],
            &pbem_judge::luck::Luck::predictable(2026),
        )
        .expect("start")
        .map
        .tiles
        .keys()
        .map(ToString::to_string)
        .collect();
    assert!(tiles.len() >= 40, "{}", tiles.len());
    let (code, out, err) =
        support::run_judge(&["report", "games/two-rivers-2p", "--format", "svg"], &[]);
    assert_eq!(code, 0, "{err}");
    let svg = String::from_utf8(out).expect("utf-8");
    let kept = std::fs::read_to_string(game.join("turns/032/map.svg")).expect("kept svg");
    assert!(svg == kept, "the archive keeps the picture the judge draws");
    for label in &tiles {
        // Bold, with a white rim: `<text … font-weight="bold" …>C4</text>`.
        assert!(
            svg.contains(&format!(">{label}</text>")),
            "no label {label}"
        );
    }
    // No building's name is cut short (the old bitmap font wrote `stockex`).
    assert!(!svg.contains(">stockex<") && !svg.contains(">woodcut<"));
    assert!(svg.contains(">woodcutter</text>"));
}

/// Issue 15: "Catan boards … through the same drawing code": the base game's and the
/// Express island's boards at the start, as the shared picture writes them.
#[test]
fn catan_boards_are_drawn_by_the_same_code() {
    let names: Vec<String> = ["Ann", "Bob", "Cy", "Di"].map(String::from).to_vec();
    let base = new_game("base", &names, 7, &Options::default()).expect("catan");
    let island =
        express::new_game("island", &names, 7, Map::Island, Layout::Beginner).expect("express");
    for (what, state) in [("catan", base), ("catan-express", island)] {
        let drawing = pbem_judge::catan::picture(&state);
        let svg = drawing.to_svg();
        // The shared picture's document: the bundled font asked for, a white ground.
        assert!(svg.contains("font-family=\"DejaVu Sans"), "{what}");
        let words = texts(&drawing);
        for letter in ["A", "B", "C", "J"] {
            assert!(words.iter().any(|w| w == letter), "{what}: hex {letter}");
        }
        let png = drawing.png().expect("png");
        assert_eq!(png, drawing.png().expect("png"), "{what}: same bytes");
        insta::assert_snapshot!(format!("svg-{what}"), svg);
    }
}

/// One drawing for SVG and PNG: the PNG is the picture's shapes painted, the same
/// bytes every time, at the SVG's size, and pixel for pixel what an SVG renderer
/// (resvg, with the same font) makes of the SVG, but for the letters' edges.
#[test]
fn the_png_is_the_svg_painted() {
    let state = start("six-isles");
    let drawing = picture::draw(&state, "six-isles");
    let png = drawing.png().expect("png");
    assert_eq!(png, drawing.png().expect("png"), "the same bytes");
    assert_eq!(png, picture::png(&state, "six-isles").expect("png"));
    let (w, h, painted) = support::decode_png(&png);
    assert_eq!((w, h), drawing.pixels());
    let (rw, rh, rendered) =
        support::decode_png(&pbem_judge::picture::png(&drawing.to_svg()).expect("png"));
    assert_eq!((rw, rh), (w, h));
    let far = painted
        .chunks_exact(4)
        .zip(rendered.chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 96))
        .count();
    let all = (w * h) as usize;
    assert!(far * 100 < all * 2, "{far} of {all} pixels differ");
}
