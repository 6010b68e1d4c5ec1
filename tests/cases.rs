//! The adjudication suites of every game, through one runner: each case file under
//! tests/cases (Roads & Boats, docs/cases.md), tests/catan (docs/catan.md) and
//! tests/catan-express (docs/catan-express.md) is a test of its own, named by its path
//! (`cases::files::catan::trade::bank_four_to_one`), run by the game its `[case] game`
//! names through the game interface, as `judge cases` runs it. Beside them: every case
//! cites a rule, a wrong expectation fails, and each rules doc's rule → case table is
//! current.

use std::path::{Path, PathBuf};

/// One test per case file, made by build.rs from the case folders.
mod files {
    include!(concat!(env!("OUT_DIR"), "/case_tests.rs"));
}

/// The case folders, with the rules doc whose table lists them and how long a rule a
/// case of the folder cites at least.
const SUITES: [(&str, &str, usize); 3] = [
    ("tests/cases", "docs/rules.md", 10),
    ("tests/catan", "docs/catan.md", 10),
    ("tests/catan-express", "docs/catan-express.md", 20),
];

/// The case at `path` passes: its game runs it and every expectation holds.
pub fn passes(path: &str) {
    let outcome =
        pbem_judge::games::of_case(Path::new(path)).and_then(|game| game.run_case(Path::new(path)));
    match outcome {
        Ok(o) => assert!(
            o.problems.is_empty(),
            "{path} [{}]\n  {}",
            o.rule,
            o.problems.join("\n  ")
        ),
        Err(e) => panic!("{path} does not read:\n{e}"),
    }
}

fn files_of(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = crate::support::all_files(Path::new(dir))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

/// Every case file on disk has its test: the tests were made from the folders as they
/// are (build.rs runs again when they change), none is left out.
#[test]
fn every_case_file_has_its_test() {
    let on_disk: usize = SUITES.iter().map(|(d, _, _)| files_of(d).len()).sum();
    assert_eq!(files::COUNT, on_disk);
    assert!(files_of("tests/cases").len() >= 500);
    assert!(files_of("tests/catan").len() >= 150);
    assert!(files_of("tests/catan-express").len() >= 150);
}

/// Every case cites a rule long enough to be one; every case under tests/catan-express
/// plays Catan Express (an island or beyond variant).
#[test]
fn every_case_names_its_rule() {
    for (dir, _, shortest) in SUITES {
        for f in files_of(dir) {
            let game = pbem_judge::games::of_case(&f).expect("a game");
            let rule = game.case_rule(&f).expect("has a rule");
            assert!(
                rule.len() > shortest,
                "{}: the rule is too short to cite anything",
                f.display()
            );
            if dir == "tests/catan-express" {
                let text = std::fs::read_to_string(&f).expect("readable");
                assert!(
                    text.contains("express = \"island\"") || text.contains("express = \"beyond\""),
                    "{}: not a Catan Express case",
                    f.display()
                );
            }
        }
    }
}

/// The case `path` with `from` replaced by `to`, run from a copy: its problems.
fn problems_when(path: &str, from: &str, to: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("the case exists");
    let wrong = text.replace(from, to);
    assert!(
        from.is_empty() || wrong != text,
        "{path}: `{from}` is in the case"
    );
    let tmp = tempfile::tempdir().expect("tmp");
    let copy = tmp.path().join("wrong.toml");
    std::fs::write(&copy, wrong).expect("write");
    let game = pbem_judge::games::of_case(&copy).expect("a game");
    game.run_case(&copy).expect("reads").problems
}

/// The runner is not a rubber stamp: in each game, the same case with one expectation
/// changed fails, and says which.
#[test]
fn a_wrong_expectation_fails() {
    for (path, from, to, said) in [
        (
            "tests/catan/building/city-replaces-settlement.toml",
            "cities = { red = [13] }",
            "cities = { red = [18] }",
            "red's cities",
        ),
        (
            "tests/catan/building/city-replaces-settlement.toml",
            "[expect]",
            "[expect]\nfailures = [\"something that did not fail\"]",
            "",
        ),
        (
            "tests/catan-express/lines/line-joins-own-system.toml",
            "chips = { red = 0 }",
            "chips = { red = 1 }",
            "red's chips",
        ),
    ] {
        let good = problems_when(path, "", "");
        assert!(good.is_empty(), "{path}: {good:?}");
        let bad = problems_when(path, from, to);
        assert!(!bad.is_empty(), "{path} with {to}");
        assert!(bad.iter().any(|p| p.contains(said)), "{path}: {bad:?}");
    }
}

/// Each rules doc ends with its rule → case table as `judge cases --table FOLDER` prints
/// it. `UPDATE_CASE_TABLE=1` writes the tables into the docs (then review the diff).
#[test]
fn the_case_tables_in_the_rules_docs_are_current() {
    for (dir, doc_path, _) in SUITES {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
            .args(["cases", "--table", dir])
            .output()
            .expect("judge runs");
        assert!(out.status.success(), "{dir}");
        let table = String::from_utf8(out.stdout).expect("utf-8");
        let doc = std::fs::read_to_string(doc_path).expect("the doc");
        let start = doc.find("<!-- cases:begin -->\n").expect("begin marker")
            + "<!-- cases:begin -->\n".len();
        let end = doc.find("<!-- cases:end -->").expect("end marker");
        if doc[start..end] != table && std::env::var("UPDATE_CASE_TABLE").is_ok() {
            let new = format!("{}{}{}", &doc[..start], table, &doc[end..]);
            std::fs::write(doc_path, new).expect("write the doc");
            continue;
        }
        assert!(
            doc[start..end] == table,
            "{doc_path}'s case table is out of date: rerun with UPDATE_CASE_TABLE=1, then review the diff"
        );
    }
}

/// A case is filed under the module it tests. A case in one of the base
/// game's folders (`building/`, `movement/`, `production/`, `wonder/`, `setup/`,
/// `players-5-6/`) plays no optional module; a case that plays one is in that module's
/// folder (`tests/cases/bombs/`, `planes/`, `trains/`, …). Shown failing: before this rule,
/// 72 cases were not (Bombs' in `building/`, 34 of Planes' in `movement/` and
/// `production/` beside a `trains/` folder).
#[test]
fn a_case_is_filed_under_the_module_it_tests() {
    let base = [
        "building",
        "movement",
        "production",
        "wonder",
        "setup",
        "players-5-6",
    ];
    let mut astray = Vec::new();
    for file in crate::support::all_files(Path::new("tests/cases")) {
        if file.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let folder = file
            .parent()
            .and_then(Path::file_name)
            .and_then(|f| f.to_str())
            .unwrap_or_default()
            .to_string();
        let case: toml::Table =
            toml::from_str(&std::fs::read_to_string(&file).expect("case")).expect("a case reads");
        let modules: Vec<String> = case
            .get("prestate")
            .and_then(|p| p.get("rules"))
            .and_then(|r| r.get("modules"))
            .and_then(toml::Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|m| m.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let in_base = base.contains(&folder.as_str());
        if in_base && !modules.is_empty() {
            astray.push(format!("{} plays {modules:?}", file.display()));
        }
        if !in_base && !modules.is_empty() && !modules.contains(&folder) {
            astray.push(format!(
                "{} is in {folder}/ and plays {modules:?}",
                file.display()
            ));
        }
    }
    assert!(astray.is_empty(), "{}", astray.join("\n"));
}
