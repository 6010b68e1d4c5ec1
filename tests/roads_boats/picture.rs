//! The map picture: the SVG of every bundled scenario's board at the start
//! (snapshots, reviewed as pictures), with every tile's label and every rail track; every
//! hex label of the two-player game's picture in its SVG; Catan's boards through the same
//! drawing code; and the PNG being that SVG rendered, the same bytes each time. The
//! goods on the picture by kind, with the legend of exactly the short
//! forms it uses, and every bridge above the chips of its tile, seen in the PNG.

use crate::support;

use std::path::Path;

use pbem_judge::catan::board::layout::Layout;
use pbem_judge::catan::express::{self, Map};
use pbem_judge::catan::{Options, new_game};
use pbem_judge::picture::{Picture, Shape};
use pbem_judge::roads_boats::State;
use pbem_judge::roads_boats::goods::{Good, Goods};
use pbem_judge::roads_boats::map::{Bridge, Dir, Terrain};
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

/// "Hex labels (`C4`) on every tile … rail tracks … a legend that lists only
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

/// The acceptance's "a test that every hex label of the two-player game's
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
    let (_, again, _) =
        support::run_judge(&["report", "games/two-rivers-2p", "--format", "svg"], &[]);
    assert!(
        svg.as_bytes() == again.as_slice(),
        "the picture is drawn the same every time"
    );
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

/// "Catan boards … through the same drawing code": the base game's and the
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
    assert_painted_as_rendered(&drawing, &png);
}

/// `png` is `drawing` painted: at the SVG's size, and pixel for pixel what resvg makes
/// of the SVG, but for the letters' edges.
fn assert_painted_as_rendered(drawing: &Picture, png: &[u8]) {
    let (w, h, painted) = support::decode_png(png);
    assert_eq!((w, h), drawing.pixels());
    let (rw, rh, rendered) = resvg_pixels(&drawing.to_svg());
    assert_eq!((rw, rh), (w, h));
    let far = painted
        .chunks_exact(4)
        .zip(rendered.chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 96))
        .count();
    let all = (w * h) as usize;
    assert!(far * 100 < all * 2, "{far} of {all} pixels differ");
}

/// An SVG as resvg renders it with the bundled font, on white: (width, height, RGBA).
/// resvg is the tests' own, an independent renderer to hold the judge's painter against.
fn resvg_pixels(svg: &str) -> (u32, u32, Vec<u8>) {
    let mut fonts = resvg::usvg::fontdb::Database::new();
    fonts.load_font_data(pbem_judge::picture::FONT.to_vec());
    fonts.set_sans_serif_family(pbem_judge::picture::FONT_FAMILY);
    let opt = resvg::usvg::Options {
        font_family: pbem_judge::picture::FONT_FAMILY.to_string(),
        fontdb: std::sync::Arc::new(fonts),
        ..resvg::usvg::Options::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg, &opt).expect("the SVG reads");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a size");
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    (size.width(), size.height(), pixmap.data().to_vec())
}

/// The texts of one shape, in order.
fn texts_of(s: &Shape) -> Vec<String> {
    let p = Picture {
        shapes: vec![s.clone()],
        ..Picture::default()
    };
    texts(&p)
}

/// The drawn things that carry a note (chips, buildings, bridges …), in drawing order:
/// their place in the list, the note and the shape.
fn notes(p: &Picture) -> Vec<(usize, &str, &Shape)> {
    p.shapes
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Shape::Note { note, .. } => Some((i, note.as_str(), s)),
            _ => None,
        })
        .collect()
}

/// A rectangle's box: left, top, right, bottom.
type Box4 = (f32, f32, f32, f32);

/// The boxes of a shape's rectangles.
fn rects(s: &Shape) -> Vec<Box4> {
    match s {
        Shape::Rect { at, size, .. } => vec![(at.0, at.1, at.0 + size.0, at.1 + size.1)],
        Shape::Note { shapes, .. } => shapes.iter().flat_map(rects).collect(),
        _ => Vec::new(),
    }
}

/// A busy board: goods of many kinds everywhere, full fleets with cargo, and a bridge on
/// every river arm and every side of every city.
fn busy(scenario: &str, seed: u64) -> State {
    let mut st = support::rich_state(scenario, seed, 8);
    let bridges: Vec<Bridge> = st
        .map
        .tiles
        .iter()
        .flat_map(|(h, t)| {
            let sides: Vec<Dir> = if t.terrain == Terrain::City {
                Dir::ALL.to_vec()
            } else if t.terrain.is_land() && t.river.iter().count() >= 2 {
                t.river.iter().collect()
            } else {
                Vec::new()
            };
            sides.into_iter().map(|over| Bridge { hex: *h, over })
        })
        .collect();
    st.map.bridges.extend(bridges);
    st
}

fn boards() -> Vec<(String, State)> {
    let mut out: Vec<(String, State)> = [("two-rivers", 3), ("polder-cities", 4), ("six-isles", 5)]
        .into_iter()
        .map(|(s, seed)| (format!("{s} (busy)"), busy(s, seed)))
        .collect();
    for (game, turn) in [
        ("polder-cities-3p", 8),
        ("polder-cities-3p", 15),
        ("two-rivers-2p", 30),
    ] {
        let path = format!("games/{game}/turns/{turn:03}/state.json");
        let json = std::fs::read_to_string(&path).expect("archived state");
        out.push((path, serde_json::from_str(&json).expect("a state")));
    }
    out
}

/// "Show the kinds of goods … with the legend … on the PNG." Every
/// pile of goods lying and every transporter's cargo is written on its chip, each kind by
/// its short form and count (`7Bd 2St`, `D5 2Bd`), and the legend explains exactly the
/// short forms the map uses, each beside its good's name. The PNG paints these shapes
/// (`the_png_is_the_svg_painted`).
#[test]
fn the_picture_names_the_goods_by_kind_and_its_legend_explains_each() {
    let words = |first: Option<String>, g: &Goods| -> String {
        first
            .into_iter()
            .chain(g.iter().map(|(g, n)| g.counted_short(n)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    for (what, st) in boards() {
        let drawing = picture::draw(&st, &what);
        let notes = notes(&drawing);
        // A chip's lines, read together.
        let chip = |note: &str| -> Option<String> {
            notes
                .iter()
                .find(|(_, n, _)| *n == note)
                .map(|(_, _, s)| texts_of(s).join(" "))
        };
        // Past eight chips in one place, a `+N` chip names the rest in its note.
        let counted_in_rest = |note: &str| {
            notes.iter().any(|(_, n, s)| {
                n.contains(note) && texts_of(s).first().is_some_and(|t| t.starts_with('+'))
            })
        };
        let mut used = std::collections::BTreeSet::new();
        let mut chips = 0;
        for (a, g) in st.goods.iter().filter(|(_, g)| !g.is_empty()) {
            let note = format!("lying at {a}: {g}");
            match chip(&note) {
                Some(text) => {
                    assert_eq!(text, words(None, g), "{what}: {note}");
                    chips += 1;
                }
                None => assert!(counted_in_rest(&note), "{what}: no chip for {note}"),
            }
            used.extend(g.iter().map(|(g, _)| g));
        }
        for (id, t) in &st.transporters {
            let Some((_, note, s)) = notes
                .iter()
                .find(|(_, n, _)| n.starts_with(&format!("{id}: ")))
            else {
                assert!(
                    counted_in_rest(&format!("{id}: ")),
                    "{what}: no chip for {id}"
                );
                used.extend(t.cargo.iter().map(|(g, _)| g));
                continue;
            };
            assert_eq!(
                texts_of(s).join(" "),
                words(Some(id.to_string()), &t.cargo),
                "{what}: {note}"
            );
            chips += 1;
            used.extend(t.cargo.iter().map(|(g, _)| g));
        }
        assert!(
            chips > 5 && used.len() > 3,
            "{what}: {chips} chips, {used:?}"
        );
        // The legend: a good's short form alone is written only there, followed by its
        // name; one for each kind the map shows, and none else, in the letters' order.
        let all = texts(&drawing);
        let legend: Vec<Good> = all
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                let g = Good::ALL.into_iter().find(|g| g.short() == t)?;
                assert_eq!(all.get(i + 1).map(String::as_str), Some(g.name()), "{what}");
                Some(g)
            })
            .collect();
        let mut used: Vec<Good> = used.into_iter().collect();
        used.sort_by_key(|g| g.short());
        assert_eq!(
            legend, used,
            "{what}: the legend's short forms, by their letters"
        );
    }
}

/// A bridge's plank (the last line of its note): its two ends.
fn plank_of(s: &Shape) -> ((f32, f32), (f32, f32)) {
    let Shape::Note { shapes, .. } = s else {
        panic!("a bridge is a note")
    };
    let Some(Shape::Line { points, .. }) = shapes.last() else {
        panic!("a bridge without its plank")
    };
    (points[0], points[1])
}

fn is_bridge(note: &str) -> bool {
    note.starts_with("a bridge at ")
}

/// "keep the bridge visible when transporter chips stand on its
/// tile." Every bridge is drawn after (above) every chip and building, so in the PNG the
/// middle of each bridge's plank is the plank's colour, even on busy boards with a bridge
/// on every river arm and every side of every city.
#[test]
fn every_bridge_is_drawn_above_the_chips_and_shows_in_the_png() {
    for (what, st) in boards() {
        let drawing = picture::draw(&st, &what);
        let notes = notes(&drawing);
        let bridges: Vec<&(usize, &str, &Shape)> =
            notes.iter().filter(|(_, n, _)| is_bridge(n)).collect();
        assert_eq!(bridges.len(), st.map.bridges.len(), "{what}");
        let last_chip = notes
            .iter()
            .filter(|(_, n, _)| !is_bridge(n))
            .map(|(i, _, _)| *i)
            .max()
            .expect("chips");
        let (w, _, pixels) = support::decode_png(&drawing.png().expect("png"));
        for (i, note, s) in bridges {
            assert!(*i > last_chip, "{what}: {note} is drawn under a chip");
            let (a, b) = plank_of(s);
            let Shape::Note { shapes, .. } = s else {
                unreachable!("a note")
            };
            let Some(Shape::Line { stroke, .. }) = shapes.last() else {
                unreachable!("a plank")
            };
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            let at = 4 * (mid.1 as usize * w as usize + mid.0 as usize);
            let c = stroke.colour;
            assert_eq!(
                &pixels[at..at + 3],
                &[c.0, c.1, c.2],
                "{what}: {note}: the PNG shows the plank at {mid:?}"
            );
        }
    }
}

/// Beyond showing through, a bridge is not drawn over a chip either:
/// in every turn of every archived Roads & Boats game with a bridge (the polder-cities
/// game's city D4, its buildings, goods and donkeys around two bridges), the chips move
/// aside, so no chip or building box touches a bridge's plank and both can be read.
#[test]
fn no_chip_lies_on_a_bridge_in_the_archived_games() {
    let mut checked = 0;
    for game in std::fs::read_dir("games").expect("games") {
        let game = game.expect("a game").path();
        let toml = std::fs::read_to_string(game.join("game.toml")).expect("game.toml");
        if !toml.contains("game = \"roads-and-boats\"") {
            continue;
        }
        for turn in std::fs::read_dir(game.join("turns")).expect("turns") {
            let path = turn.expect("a turn").path().join("state.json");
            let Ok(json) = std::fs::read_to_string(&path) else {
                continue;
            };
            let st: State = serde_json::from_str(&json).expect("a state");
            if st.map.bridges.is_empty() {
                continue;
            }
            let what = path.display().to_string();
            let drawing = picture::draw(&st, &what);
            let notes = notes(&drawing);
            for (_, note, s) in notes.iter().filter(|(_, n, _)| is_bridge(n)) {
                let (a, b) = plank_of(s);
                let plank = (a.0.min(b.0), a.1.min(b.1), a.0.max(b.0), a.1.max(b.1));
                for (_, n, chip) in notes.iter().filter(|(_, n, _)| !is_bridge(n)) {
                    for r in rects(chip) {
                        let covers =
                            r.0 < plank.2 && plank.0 < r.2 && r.1 < plank.3 && plank.1 < r.3;
                        assert!(!covers, "{what}: `{n}` lies on {note}");
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "only {checked} bridges drawn");
}

/// The docs say what the picture's letters mean. docs/report.md
/// (the picture) names every good's short form as the map writes it, and docs/orders.md
/// the same forms as orders read them.
#[test]
fn the_docs_explain_every_short_form() {
    let report = std::fs::read_to_string("docs/report.md").expect("docs/report.md");
    let orders = std::fs::read_to_string("docs/orders.md").expect("docs/orders.md");
    // The docs wrap lines: read them as one.
    let one = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (report, orders) = (one(&report), one(&orders));
    for g in Good::ALL {
        let (short, name) = (g.short(), g.name());
        assert!(
            report.contains(&format!("`{short}` {name}")),
            "docs/report.md: `{short}` {name}"
        );
        assert!(
            orders.contains(&format!("`{}` {name}", short.to_ascii_lowercase())),
            "docs/orders.md: `{}` {name}",
            short.to_ascii_lowercase()
        );
    }
}

/// A small board for a turn that does a bit of everything: red's donkey D1 walks B3 to
/// C3 and builds a road from there; red's raft R1 comes in from the sea up the river;
/// red's D2 builds a woodcutter where it stands, D3 a bridge, D6 gives D7 a board;
/// yellow's D4 walks F4 to F3 and walls F2-F3. What was there before (a road B3-B4,
/// yellow's wall F3-G3, a woodcutter at G2) and who does not move (yellow's D5) stay
/// as they were.
const TURN: &str = r#"
[scenario]
name = "turn"
title = "turn"
players = 2

[rules]
turn_limit = 99

[map]
rows = [
  "s s s s s s s s s",
  "s p w p p p w s s",
  "s p p p p p p s s",
  "s r p p p p p s s",
  "s p p p p d m s s",
  "s s s s s s s s s",
  "s s s s s s s s s",
]
rivers = [["E2", "E3", "E4", "E5", "E6"]]

[start]
homes = ["B2", "G3"]
transporters = []
goods = {}

[position]
roads = [["B3", "B4"]]
walls = [{ between = "F3-G3", owner = "yellow" }]
buildings = [{ kind = "woodcutter", at = "G2" }]

[[position.transporters]]
id = "D1"
owner = "red"
kind = "donkey"
at = "B3"
cargo = { stone = 1 }

[[position.transporters]]
id = "R1"
owner = "red"
kind = "raft"
at = "sea E6"

[[position.transporters]]
id = "D2"
owner = "red"
kind = "donkey"
at = "C2"
cargo = { boards = 1 }

[[position.transporters]]
id = "D3"
owner = "red"
kind = "donkey"
at = "E3/W"
cargo = { stone = 1 }

[[position.transporters]]
id = "D6"
owner = "red"
kind = "donkey"
at = "B2"
cargo = { boards = 1 }

[[position.transporters]]
id = "D7"
owner = "red"
kind = "donkey"
at = "B2"

[[position.transporters]]
id = "D4"
owner = "yellow"
kind = "donkey"
at = "F4"
cargo = { stone = 1 }

[[position.transporters]]
id = "D5"
owner = "yellow"
kind = "donkey"
at = "G3"
"#;

const RED: &str = "
movement
move D1: C3
move R1: river E5; river E4
move D6: give 1 board to D7

building
road C3 D3 with D1
build woodcutter at C2 with D2
bridge E3 with D3
";

const YELLOW: &str = "
movement
move D4: F3

building
wall F2-F3 with D4
";

/// The turn above played: the board before, the events, the board after.
fn played_turn() -> (State, Vec<pbem_judge::roads_boats::events::Event>, State) {
    use pbem_judge::roads_boats::orders::TurnOrders;
    use pbem_judge::roads_boats::player::Colour;
    use pbem_judge::roads_boats::{order_text, resolve};
    let s = Scenario::parse("turn", TURN).expect("the scenario");
    let seats: Vec<Seat> = ["Ann", "Bob"]
        .map(|n| Seat {
            name: n.into(),
            email: format!("{n}@example.org"),
        })
        .to_vec();
    let luck = pbem_judge::luck::Luck::predictable(1);
    let before = s.start(&seats, &luck).expect("start");
    let mut orders = TurnOrders::new();
    for (c, text) in [(Colour::Red, RED), (Colour::Yellow, YELLOW)] {
        let parsed = order_text::parse(text, &before.map);
        assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        orders.insert(c, parsed.orders);
    }
    let out = resolve::resolve(&before, &orders, &luck);
    let failed: Vec<String> = out
        .events
        .iter()
        .filter(|e| e.is_failure())
        .map(ToString::to_string)
        .collect();
    assert!(failed.is_empty(), "every order is carried out: {failed:?}");
    (before, out.events, out.state)
}

/// Every shape of a picture, notes opened, with the note each is in ("" for none).
fn all_shapes(p: &Picture) -> Vec<(&str, &Shape)> {
    fn walk<'a>(note: &'a str, s: &'a Shape, out: &mut Vec<(&'a str, &'a Shape)>) {
        match s {
            Shape::Note { note, shapes } => shapes.iter().for_each(|s| walk(note, s, out)),
            s => out.push((note, s)),
        }
    }
    let mut out = Vec::new();
    p.shapes.iter().for_each(|s| walk("", s, &mut out));
    out
}

/// Whether a shape is drawn in the colour of what is new.
fn is_new(s: &Shape) -> bool {
    use pbem_judge::picture::mark::NEW;
    match s {
        Shape::Polygon { fill, stroke, .. }
        | Shape::Rect { fill, stroke, .. }
        | Shape::Circle { fill, stroke, .. } => {
            *fill == Some(NEW) || stroke.is_some_and(|s| s.colour == NEW)
        }
        Shape::Line { stroke, .. } => stroke.colour == NEW,
        _ => false,
    }
}

/// "What changed, on the map": "each transporter's route as a line with an
/// arrow (in its owner's colour), new roads, bridges, walls, buildings … highlighted,
/// goods that changed hands marked, with legend entries for each"; acceptance: "a turn
/// with moves, builds and a wall shows each route and new piece in the SVG, and the PNG
/// matches it". A donkey's walk and a raft's voyage up the river are each a line ending
/// in an arrowhead, both in red, yellow's walk in yellow; the new road, woodcutter,
/// bridge and wall glow, and the give is marked; and nothing else is: not what stood
/// before, nor a transporter that did not move.
#[test]
fn a_turns_picture_shows_each_route_and_new_piece_and_nothing_else() {
    use pbem_judge::roads_boats::player::Colour;
    use pbem_judge::roads_boats::report::changes;
    let (before, events, after) = played_turn();
    let changes = changes::of_turn(&before, &events, &after);
    let drawing = picture::draw_turn(&after, "turn: the board after turn 1", &changes);
    let svg = drawing.to_svg();
    let shapes = all_shapes(&drawing);
    let red = picture::player_colour(Colour::Red);
    let yellow = picture::player_colour(Colour::Yellow);
    // Each route: a line in its owner's colour over a dark casing, and an arrowhead
    // filled in that colour; in the SVG, its tooltip.
    for (note, colour) in [
        ("red's D1 moved: B3 > C3", red),
        ("red's R1 moved: sea E6 > river E5 > river E4", red),
        ("yellow's D4 moved: F4 > F3", yellow),
    ] {
        let of: Vec<&Shape> = shapes
            .iter()
            .filter(|(n, _)| *n == note)
            .map(|(_, s)| *s)
            .collect();
        assert!(
            of.iter()
                .any(|s| matches!(s, Shape::Line { stroke, .. } if stroke.colour == colour)),
            "{note}: its line"
        );
        assert!(
            of.iter()
                .any(|s| matches!(s, Shape::Polygon { fill, points, .. }
                if *fill == Some(colour) && points.len() == 3)),
            "{note}: its arrowhead"
        );
        let escaped = note.replace('>', "&gt;");
        assert_eq!(
            svg.matches(&format!("<title>{escaped}</title>")).count(),
            2,
            "{note}: line and arrowhead in the SVG"
        );
    }
    // Nobody else moved: three routes, no more.
    let routes: std::collections::BTreeSet<&str> = shapes
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| {
            n.contains(" moved: ") || n.contains(" flew: ") || n.contains(" took the train: ")
        })
        .collect();
    assert_eq!(routes.len(), 3, "{routes:?}");
    // The new pieces glow; what stood before, and what did not change, does not.
    let new: std::collections::BTreeSet<&str> = shapes
        .iter()
        .filter(|(_, s)| is_new(s))
        .map(|(n, _)| *n)
        .collect();
    let expected: std::collections::BTreeSet<&str> = [
        "road C3-D3, built this turn",
        "woodcutter at C2, built this turn",
        "wall F3-F2: yellow, 1 token, built this turn",
        "a bridge at E3 over its N side, built this turn",
        "D6 gave 1 board to D7",
        // The legend's keys are in no note.
        "",
    ]
    .into_iter()
    .collect();
    assert_eq!(new, expected, "exactly the new pieces glow");
    for old in ["woodcutter at G2", "wall F3-G3: yellow, 1 token"] {
        assert!(
            shapes.iter().any(|(n, _)| *n == old),
            "{old} is drawn as before"
        );
    }
    // One glow per new piece and the give's diamond, and one of each in the legend.
    assert_eq!(
        shapes.iter().filter(|(_, s)| is_new(s)).count(),
        10,
        "five marks on the map, five keys in the legend"
    );
    assert_eq!(svg.matches("#ff17a8").count(), 10);
    // The legend: a key for each kind of mark shown, and for none other.
    let words = texts(&drawing);
    for key in [
        "moved this turn (owner's colour)",
        "new road",
        "new bridge",
        "new wall",
        "new building",
        "goods changed hands",
    ] {
        assert!(words.iter().any(|w| w == key), "the legend: {key}");
    }
    for key in [
        "flew this turn",
        "took the train this turn",
        "new power line",
    ] {
        assert!(!words.iter().any(|w| w == key), "no {key} in the legend");
    }
    // The PNG a player receives is this picture painted.
    let png = picture::turn_png(&after, "turn: the board after turn 1", &changes).expect("png");
    assert_eq!(png, drawing.png().expect("png"), "the same bytes");
    assert_painted_as_rendered(&drawing, &png);
}

/// A state without a turn's events (turn 0, the set-up round) is drawn as
/// before: nothing marked, no key for marks.
#[test]
fn a_board_without_a_turn_is_drawn_as_before() {
    use pbem_judge::roads_boats::report::changes::{self, Changes};
    let (before, _, _) = played_turn();
    let none = changes::of_turn(&before, &[], &before);
    assert!(none.is_empty());
    assert_eq!(
        picture::draw_turn(&before, "t", &Changes::default()),
        picture::draw(&before, "t")
    );
    let svg = picture::draw(&before, "t").to_svg();
    assert!(
        !svg.contains("#ff17a8") && !svg.contains(" moved: "),
        "{svg}"
    );
}

/// A Catan board after its founding placements, then step after step (each player's
/// file: a robber line, build what they can, pass) until a 7 moves the robber: the
/// states around that step and its events.
fn catan_robber_step() -> (
    pbem_judge::catan::State,
    Vec<pbem_judge::catan::Event>,
    pbem_judge::catan::State,
) {
    use pbem_judge::catan::{Event, play};
    use std::collections::BTreeMap;
    let names: Vec<String> = ["Ann", "Bob", "Cy", "Di"].map(String::from).to_vec();
    let mut s = new_game("demo", &names, 7, &Options::default()).expect("catan");
    let picks = [
        "13 road 13-18",
        "40 road 40-45",
        "26 road 26-32",
        "42 road 37-42",
    ];
    let seconds = [
        "29 road 23-29",
        "46 road 46-50",
        "10 road 10-15",
        "1 road 1-4",
    ];
    for _ in 0..8 {
        let who = s.players[s.actor() as usize].colour;
        let file = format!(
            "settlement {}\nsettlement {}\n",
            picks[who.seat()],
            seconds[who.seat()]
        );
        s = play(&s, &BTreeMap::from([(who, file)])).state;
    }
    for _ in 0..60 {
        let files: BTreeMap<_, _> = pbem_judge::catan::awaited(&s)
            .into_iter()
            .map(|c| (c, "robber E\nrobber K\npass\n".to_string()))
            .collect();
        let out = play(&s, &files);
        if out
            .events
            .iter()
            .any(|e| matches!(e, Event::RobberMoved { .. }))
        {
            return (s, out.events, out.state);
        }
        s = out.state;
    }
    panic!("no 7 in 60 steps")
}

/// "Catan: the pieces placed this step and the robber's move": a founding
/// step's settlement and road glow, and nothing else does; a step that moves the robber
/// shows its move as an arrow from the old hex to the new, in the mover's colour; each
/// with its legend key, and the PNG is the SVG painted. No card is drawn.
#[test]
fn a_catan_steps_picture_marks_the_pieces_placed_and_the_robbers_move() {
    use pbem_judge::catan::report::picture::{changes, draw_step, player_colour};
    use pbem_judge::catan::{Event, play, step_picture};
    use std::collections::BTreeMap;
    let names: Vec<String> = ["Ann", "Bob", "Cy", "Di"].map(String::from).to_vec();
    let s0 = new_game("demo", &names, 7, &Options::default()).expect("catan");
    let who = s0.players[s0.actor() as usize].colour;
    let out = play(
        &s0,
        &BTreeMap::from([(who, "settlement 13 road 13-18\n".to_string())]),
    );
    let drawing = step_picture(&s0, &out.events, &out.state);
    assert_eq!(drawing, draw_step(&out.state, &changes(&s0, &out.events)));
    let shapes = all_shapes(&drawing);
    let new: std::collections::BTreeSet<&str> = shapes
        .iter()
        .filter(|(_, s)| is_new(s))
        .map(|(n, _)| *n)
        .collect();
    let settlement = format!("{who}'s settlement at 13, placed this step");
    let road = format!("{who}'s road 13-18, placed this step");
    assert_eq!(
        new,
        [settlement.as_str(), road.as_str(), ""]
            .into_iter()
            .collect(),
        "only the pieces placed glow (and the legend's keys)"
    );
    let words = texts(&drawing);
    for key in ["new road", "new settlement"] {
        assert!(words.iter().any(|w| w == key), "the legend: {key}");
    }
    for key in ["new city", "the robber's move (mover's colour)"] {
        assert!(!words.iter().any(|w| w == key), "no {key} in the legend");
    }
    // The same board with no step: nothing marked.
    assert!(
        !pbem_judge::catan::picture(&out.state)
            .to_svg()
            .contains("#ff17a8")
    );

    let (before, events, after) = catan_robber_step();
    let mover = events
        .iter()
        .find_map(|e| match e {
            Event::RobberMoved { player, .. } => Some(*player),
            _ => None,
        })
        .expect("a robber move");
    let labels = |h: usize| before.board.topology.hexes[h].label.clone();
    let note = format!(
        "{mover} moved the robber: {} > {}",
        labels(before.robber),
        labels(after.robber)
    );
    let drawing = step_picture(&before, &events, &after);
    let shapes = all_shapes(&drawing);
    let colour = player_colour(mover);
    let arrow: Vec<&Shape> = shapes
        .iter()
        .filter(|(n, _)| *n == note)
        .map(|(_, s)| *s)
        .collect();
    assert!(
        arrow
            .iter()
            .any(|s| matches!(s, Shape::Line { stroke, .. } if stroke.colour == colour)),
        "{note}: its line, in the mover's colour"
    );
    assert!(
        arrow
            .iter()
            .any(|s| matches!(s, Shape::Polygon { fill, points, .. }
            if *fill == Some(colour) && points.len() == 3)),
        "{note}: its arrowhead"
    );
    assert!(
        texts(&drawing)
            .iter()
            .any(|w| w == "the robber's move (mover's colour)")
    );
    let png = drawing.png().expect("png");
    assert_painted_as_rendered(&drawing, &png);
}

/// A plane's flight is a dashed route, a train ride a dotted one, each from
/// where the transporter was; goods a plane drops and goods traded home to home are
/// marked where they changed hands; and the legend keys each. (Events made by hand on
/// the small board: what the picture makes of each fact.)
#[test]
fn flights_train_rides_drops_and_trades_are_marked_too() {
    use pbem_judge::roads_boats::events::{Event, Fact};
    use pbem_judge::roads_boats::goods::Goods;
    use pbem_judge::roads_boats::player::Colour;
    use pbem_judge::roads_boats::report::changes::{self, Way};
    use pbem_judge::roads_boats::state::Phase;
    use pbem_judge::roads_boats::transporter::Location;
    let (before, _, _) = played_turn();
    let id = |s: &str| s.parse().expect("an id");
    let area = |s: &str| s.parse().expect("an area");
    let boards: Goods = [(Good::Boards, 1)].into_iter().collect();
    let event = |player, fact| Event {
        phase: Phase::Movement,
        player: Some(player),
        line: None,
        fact,
    };
    let events = vec![
        event(
            Colour::Red,
            Fact::Flew {
                plane: id("D1"),
                landed: Location::Land(area("E2")),
            },
        ),
        event(
            Colour::Red,
            Fact::Dropped {
                plane: id("D1"),
                goods: boards.clone(),
                at: area("C3"),
            },
        ),
        event(
            Colour::Yellow,
            Fact::TookTrain {
                transporter: id("D4"),
                to: Location::Land(area("F2")),
                fare: Good::Stone,
            },
        ),
        event(
            Colour::Yellow,
            Fact::Traded {
                with: Colour::Red,
                gave: boards.clone(),
                got: Goods::new(),
            },
        ),
    ];
    let c = changes::of_turn(&before, &events, &before);
    let ways: Vec<(Way, String, String)> = c
        .trips
        .iter()
        .map(|t| (t.way, t.path[0].to_string(), t.path[1].to_string()))
        .collect();
    assert_eq!(
        ways,
        [
            (Way::Flew, "B3".to_string(), "E2".to_string()),
            (Way::Train, "F4".to_string(), "F2".to_string()),
        ]
    );
    let drawing = picture::draw_turn(&before, "t", &c);
    let shapes = all_shapes(&drawing);
    let dashed = |note: &str| {
        shapes.iter().any(|(n, s)| {
            *n == note && matches!(s, Shape::Line { stroke, .. } if stroke.dash.is_some())
        })
    };
    assert!(dashed("red's D1 flew: B3 > E2"));
    assert!(dashed("yellow's D4 took the train: F4 > F2"));
    for marked in [
        "D1 dropped 1 board at C3",
        "yellow gave 1 board to red, home to home",
    ] {
        assert!(
            shapes.iter().any(|(n, s)| *n == marked && is_new(s)),
            "{marked}"
        );
    }
    let words = texts(&drawing);
    for key in [
        "flew this turn",
        "took the train this turn",
        "goods changed hands",
    ] {
        assert!(words.iter().any(|w| w == key), "the legend: {key}");
    }
    assert!(
        !words
            .iter()
            .any(|w| w == "moved this turn (owner's colour)")
    );
}

/// A home crowded with donkeys (the planner breeds them to five where art is in play,
/// three holding carvings, beside the goods lying there) keeps its chips off the
/// neighbouring tiles' buildings: in every turn of a polder-cities game of three
/// stand-ins, no chip of a transporter or of goods lying at a home covers the box of a
/// building on another tile, so that both can be read (a home's fifth donkey once hid
/// the woodcutter on the tile below). The chips that do not fit are counted in one
/// ("+2"), and nothing is lost: every transporter at home is named in a chip's note.
#[test]
fn a_crowded_homes_chips_cover_no_building_on_the_next_tile() {
    use pbem_judge::roads_boats::bot::{planner, refusals};
    use pbem_judge::roads_boats::play::{OrderFile, play};
    use pbem_judge::roads_boats::transporter::Location;
    let luck = pbem_judge::luck::Luck::predictable(4);
    let mut st = start("polder-cities");
    let mut crowded = 0;
    let mut counted = 0;
    for _ in 0..16 {
        let files: Vec<OrderFile> = st
            .move_order
            .iter()
            .map(|c| OrderFile {
                player: *c,
                text: planner::orders_as(&st, *c, None, &refusals(&st, *c), planner::Role::StandIn),
            })
            .collect();
        st = play(&st, &files, &luck).resolution.state;
        let what = format!("polder-cities after turn {}", st.turn);
        let drawing = picture::draw(&st, &what);
        let notes = notes(&drawing);
        // Buildings by the tile they stand on: "woodcutter at B4".
        let buildings: Vec<(&str, Vec<Box4>)> = notes
            .iter()
            .filter_map(|(_, n, s)| {
                let (_, at) = n.split_once(" at ")?;
                let tile = at.split([':', ',', ' ']).next()?;
                st.buildings
                    .iter()
                    .any(|b| b.at.hex.to_string() == tile && n.starts_with(b.kind.name()))
                    .then(|| (tile, rects(s)))
            })
            .collect();
        // The legend explains the count where, and only where, one is drawn.
        let counts = notes.iter().any(|(_, n, _)| n.contains(" more here: "));
        assert_eq!(
            texts(&drawing)
                .iter()
                .any(|w| w == "2 more here, too many to draw (the report lists them)"),
            counts,
            "{what}"
        );
        for (c, p) in &st.players {
            let Some(home) = p.home else { continue };
            let at_home: Vec<String> = st
                .transporters
                .iter()
                .filter(|(_, t)| matches!(t.at, Location::Land(a) if a == home))
                .map(|(id, _)| id.to_string())
                .collect();
            let lying = st.goods.get(&home).is_some_and(|g| !g.is_empty());
            if at_home.len() + usize::from(lying) >= 5 {
                crowded += 1;
            }
            let here: Vec<&(usize, &str, &Shape)> = notes
                .iter()
                .filter(|(_, n, _)| {
                    n.starts_with(&format!("lying at {home}:"))
                        || at_home.iter().any(|id| {
                            n.starts_with(&format!("{id}: "))
                                || (n.contains(" more here: ") && n.contains(&format!("{id}: ")))
                        })
                })
                .collect();
            for id in &at_home {
                assert!(
                    here.iter()
                        .any(|(_, n, _)| n.starts_with(&format!("{id}: "))
                            || (n.contains(" more here: ") && n.contains(&format!("{id}: ")))),
                    "{what}: {c:?}'s {id} at home is in no chip's note"
                );
            }
            counted += here
                .iter()
                .filter(|(_, _, s)| texts_of(s).iter().any(|t| t.starts_with('+')))
                .count();
            for (_, n, chip) in &here {
                for r in rects(chip) {
                    for (tile, boxes) in
                        buildings.iter().filter(|(t, _)| *t != home.hex.to_string())
                    {
                        for b in boxes {
                            let covers = r.0 < b.2 && b.0 < r.2 && r.1 < b.3 && b.1 < r.3;
                            assert!(
                                !covers,
                                "{what}: {c:?}'s `{n}` covers the building on {tile}"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(crowded >= 3, "only {crowded} crowded homes drawn");
    assert!(counted >= 1, "no home's chips were counted in one");
}
