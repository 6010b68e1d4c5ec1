//! The Catan adjudication suite: every case under tests/catan passes (docs/catan.md),
//! a deliberately wrong expectation fails, and docs/catan.md's rule → case table is
//! current.

use std::path::{Path, PathBuf};

use pbem_judge::catan::cases;

fn case_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("tests/catan exists") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            case_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

fn all() -> Vec<PathBuf> {
    let mut files = Vec::new();
    case_files(Path::new("tests/catan"), &mut files);
    files.sort();
    files
}

#[test]
fn every_catan_case_passes() {
    let files = all();
    let mut report = String::new();
    for f in &files {
        match cases::run_case_file(f) {
            Ok(r) if r.passed() => {}
            Ok(r) => report.push_str(&format!(
                "FAIL {} [{}]\n  {}\n",
                f.display(),
                r.rule,
                r.problems.join("\n  ")
            )),
            Err(d) => report.push_str(&format!(
                "FAIL {} (does not read)\n{}\n",
                f.display(),
                d.render()
            )),
        }
    }
    assert!(report.is_empty(), "{report}");
    assert!(files.len() >= 150, "only {} cases", files.len());
}

/// Every case cites a rule.
#[test]
fn every_case_names_its_rule() {
    for f in all() {
        let rule = cases::rule_of(&f).expect("has a rule");
        assert!(
            rule.len() > 10,
            "{}: the rule is too short to cite anything",
            f.display()
        );
    }
}

/// The runner is not a rubber stamp: the same case with one expectation changed fails,
/// and says which.
#[test]
fn a_wrong_expectation_fails() {
    let path = "tests/catan/building/city-replaces-settlement.toml";
    let text = std::fs::read_to_string(path).expect("the case exists");
    let good = cases::run(path, &text).expect("reads");
    assert!(good.passed(), "{:?}", good.problems);
    let wrong = text.replace("cities = { red = [13] }", "cities = { red = [18] }");
    assert_ne!(wrong, text, "the case changed");
    let bad = cases::run(path, &wrong).expect("reads");
    assert!(!bad.passed());
    assert!(
        bad.problems.iter().any(|p| p.contains("red's cities")),
        "{:?}",
        bad.problems
    );
    let wrong = text.replace("failures", "# failures");
    let wrong = wrong.replace(
        "[expect]",
        "[expect]\nfailures = [\"something that did not fail\"]",
    );
    let bad = cases::run(path, &wrong).expect("reads");
    assert!(!bad.passed());
}

/// docs/catan.md ends with the rule → case table, as `judge cases --table tests/catan`
/// (that is, `cases::table`) prints it.
#[test]
fn the_case_table_in_the_rules_doc_is_current() {
    let table = cases::table(&all()).expect("every case has a rule");
    let doc = std::fs::read_to_string("docs/catan.md").expect("docs/catan.md");
    let start =
        doc.find("<!-- cases:begin -->\n").expect("begin marker") + "<!-- cases:begin -->\n".len();
    let end = doc.find("<!-- cases:end -->").expect("end marker");
    assert!(
        doc[start..end] == table,
        "docs/catan.md's case table is out of date: regenerate it (cases::table) and paste it between the markers"
    );
}
