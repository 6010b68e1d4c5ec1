//! The turn report: the text of every turn of the archived two-player game and
//! of turn 0 of every bundled scenario (snapshots, reviewed), the 78-column limit, the
//! map picture, and byte-identical output.

use crate::support;

use std::path::Path;

fn judge(args: &[&str]) -> (i32, Vec<u8>, String) {
    support::run_judge(args, &[])
}

fn text(args: &[&str]) -> String {
    let (code, out, err) = judge(args);
    assert_eq!(code, 0, "judge {args:?}: {err}");
    String::from_utf8(out).expect("utf-8")
}

fn assert_fits(report: &str, what: &str) {
    for (i, line) in report.lines().enumerate() {
        assert!(
            line.chars().count() <= 78,
            "{what}, line {}: {} columns:\n{line}",
            i + 1,
            line.chars().count()
        );
    }
}

const GAME: &str = "games/two-rivers-2p";

#[test]
fn every_turn_of_the_two_player_game() {
    let turns: Vec<u32> = std::fs::read_dir(Path::new(GAME).join("turns"))
        .expect("turns")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    assert!(turns.len() > 20);
    for t in 0..turns.len() as u32 {
        let report = text(&["report", GAME, "--turn", &t.to_string()]);
        assert_fits(&report, &format!("turn {t}"));
        // The archive keeps the report written when the turn was played.
        if t > 0 {
            let kept =
                std::fs::read_to_string(Path::new(GAME).join(format!("turns/{t:03}/report.txt")))
                    .expect("kept");
            assert_eq!(
                report, kept,
                "turn {t}: the report is made the same way every time"
            );
        }
        insta::assert_snapshot!(format!("two-rivers-2p-turn-{t:03}"), report);
    }
}

#[test]
fn turn_zero_of_every_bundled_scenario() {
    let tmp = tempfile::tempdir().expect("tmp");
    for (name, n) in [
        ("solo", 1),
        ("two-rivers", 2),
        ("four-shores", 4),
        ("six-isles", 6),
    ] {
        let dir = tmp.path().join(name);
        let mut args = vec![
            "new".to_string(),
            dir.display().to_string(),
            "--scenario".into(),
            name.into(),
            "--seed".into(),
            "5".into(),
        ];
        for i in 0..n {
            args.push("--player".into());
            args.push(format!("Player {}:p{i}@example.org", i + 1));
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let _ = text(&refs);
        let report = text(&["report", dir.to_str().expect("utf-8")]);
        assert_fits(&report, name);
        let again = text(&["report", dir.to_str().expect("utf-8")]);
        assert_eq!(report, again, "{name}: byte-identical across runs");
        insta::assert_snapshot!(format!("{name}-turn-000"), report);
    }
}

/// The PNG decodes, at the size the drawing says; the SVG is the same size.
#[test]
fn the_map_picture_decodes_at_its_size() {
    let tmp = tempfile::tempdir().expect("tmp");
    let png_path = tmp.path().join("map.png");
    let (code, _, err) = judge(&[
        "report",
        GAME,
        "--turn",
        "32",
        "--format",
        "png",
        "--output",
        png_path.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).expect("png"),
    ));
    let reader = decoder.read_info().expect("a PNG");
    let (w, h) = (reader.info().width, reader.info().height);
    assert!(w >= 560 && h >= 400, "{w}x{h}");
    let svg = text(&["report", GAME, "--turn", "32", "--format", "svg"]);
    assert!(
        svg.starts_with(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\""
        )),
        "{}",
        &svg[..120]
    );
    // Drawn again, the same bytes.
    let first = std::fs::read(&png_path).expect("png");
    let (code, _, err) = judge(&[
        "report",
        GAME,
        "--turn",
        "32",
        "--format",
        "png",
        "--output",
        png_path.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(&png_path).expect("png"),
        first,
        "PNG bytes are the same every time"
    );
}

/// A GM's own template replaces the built-in one.
#[test]
fn a_game_template_overrides_the_built_in_one() {
    let tmp = tempfile::tempdir().expect("tmp");
    let game = tmp.path().join("g");
    let _ = text(&[
        "new",
        game.to_str().expect("utf-8"),
        "--scenario",
        "solo",
        "--player",
        "A:a@example.org",
        "--seed",
        "1",
    ]);
    std::fs::create_dir(game.join("templates")).expect("dir");
    std::fs::write(
        game.join("templates/report.txt"),
        "{{ r.game }} after turn {{ r.turn }}: {{ r.standings|length }} player(s)\n",
    )
    .expect("write");
    assert_eq!(
        text(&["report", game.to_str().expect("utf-8")]),
        "g after turn 0: 1 player(s)\n"
    );
}

#[test]
fn the_report_model_is_json() {
    let json = text(&["report", GAME, "--turn", "5", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["turn"], 5);
    assert!(v["phases"].as_array().is_some_and(|p| !p.is_empty()));
    assert!(
        v["map"][0]["lines"]
            .as_array()
            .is_some_and(|l| l.len() > 10)
    );
}

const ETCETERA: &str = "games/polder-cities-3p";

/// A real three-player game with six &cetera modules, 15 turns, replays byte
/// for byte, and its reports show each module at work: power doubling a clay pit, a
/// manager doubling a sawmill, a trade, an exhibition, the polders flooding, and a city
/// with two buildings on the map.
#[test]
fn the_etcetera_game_shows_every_module_at_work() {
    let (code, out, err) = judge(&["replay", ETCETERA]);
    let out = String::from_utf8_lossy(&out);
    assert_eq!(code, 0, "{out}{err}");
    let turns = out.lines().filter(|l| l.ends_with(": identical")).count();
    assert!(turns >= 15, "{turns} turns");
    let mut all = String::new();
    for t in 1..=15u32 {
        let report = text(&["report", ETCETERA, "--turn", &t.to_string()]);
        assert_fits(&report, &format!("{ETCETERA} turn {t}"));
        all.push_str(&report);
    }
    // Lines wrap at 78 columns: compare the words.
    let all = all.split_whitespace().collect::<Vec<_>>().join(" ");
    for shown in [
        "power doubles the output at D4",
        "clay-pit at D4 produced 2 clay",
        "a manager works at J3: the sawmill has double capacity",
        "(8 of 12 used)",
        "traded 2 boards for 4 clay with green",
        "exhibition at green's home: caravan E1 shows 1 carving, 1 pottery, 1 statue (beauty 3): a show!",
        "the polders flood",
        "the polders fall dry",
        "cla+pow",
    ] {
        assert!(all.contains(shown), "no report says `{shown}`");
    }
}
