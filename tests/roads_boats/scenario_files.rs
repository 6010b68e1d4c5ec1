//! Scenario files a GM might get wrong: each is refused with a message that names the
//! file, the line and the problem (snapshots reviewed by hand), and none panics.

use std::path::Path;

use pbem_judge::roads_boats::scenario::Scenario;

fn display_name(path: &Path) -> String {
    let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
    format!("tests/scenarios/bad/{file}")
}

#[test]
fn the_base_of_the_malformed_files_is_itself_valid() {
    let text = std::fs::read_to_string("tests/scenarios/valid-base.toml").expect("read");
    if let Err(d) = Scenario::parse("valid-base.toml", &text) {
        panic!("the base file must be valid:\n{d}");
    }
}

#[test]
fn every_malformed_scenario_is_refused_with_file_line_and_problem() {
    let mut count = 0;
    insta::glob!("../scenarios/bad", "*.toml", |path| {
        count += 1;
        let text = std::fs::read_to_string(path).expect("read");
        let name = display_name(path);
        let Err(problems) = Scenario::parse(&name, &text) else {
            panic!("{name} should be refused");
        };
        let rendered = problems.render();
        assert!(
            rendered.contains(&format!("--> {name}:")),
            "{name}: the message must name the file and line:\n{rendered}"
        );
        insta::assert_snapshot!(rendered);
    });
    assert!(
        count >= 15,
        "at least 15 malformed scenarios, found {count}"
    );
}

/// The complete example in docs/scenarios.md is a valid scenario.
#[test]
fn the_example_in_the_scenario_docs_is_valid() {
    let doc = std::fs::read_to_string("docs/scenarios.md").expect("read docs");
    let start = doc.find("```toml\n").expect("a toml example") + "```toml\n".len();
    let end = start + doc[start..].find("```").expect("end of example");
    let example = &doc[start..end];
    match Scenario::parse("docs/scenarios.md", example) {
        Ok(s) => {
            assert_eq!(s.name, "two-rivers");
            assert_eq!(s.setup().turn, 7);
        }
        Err(d) => panic!("the documented example must be valid:\n{d}"),
    }
}

/// `judge new --map random --players N --modules … --seed S`: the map
/// generator's scenario is kept in the archive as scenario.toml, reads as a valid
/// scenario with the modules asked for, and the same seed makes the same archive.
#[test]
fn a_random_map_is_kept_as_the_games_scenario() {
    let tmp = tempfile::tempdir().expect("tmp");
    let make = |dir: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
            .args([
                "new",
                dir,
                "--map",
                "random",
                "--players",
                "3",
                "--modules",
                "polder,city,electricity",
                "--seed",
                "12",
                "--player",
                "Ann:ann@example.org",
                "--player",
                "Bob:bob@example.org",
                "--player",
                "Cy:cy@example.org",
            ])
            .current_dir(tmp.path())
            .output()
            .expect("judge runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(tmp.path().join(dir).join("scenario.toml")).expect("scenario")
    };
    let a = make("a");
    assert_eq!(a, make("b"), "the same seed, the same map");
    let s = Scenario::parse("scenario.toml", &a).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(s.players, 3);
    let modules: Vec<String> = s
        .setup()
        .settings
        .modules
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(modules, ["electricity", "polder", "city"]);
    let wrong = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .args([
            "new",
            "c",
            "--map",
            "random",
            "--players",
            "2",
            "--player",
            "Ann:a@example.org",
        ])
        .current_dir(tmp.path())
        .output()
        .expect("judge runs");
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("--players 2 but 1 --player seat"));
}
