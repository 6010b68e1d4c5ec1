//! The Catan Express adjudication suite: every case under tests/catan-express passes
//! (docs/catan-express.md), there are at least 150 of them, each cites a rule, a wrong
//! expectation fails, and docs/catan-express.md's rule → case table is current.

use std::path::{Path, PathBuf};

use pbem_judge::catan::cases;

fn case_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("tests/catan-express exists") {
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
    case_files(Path::new("tests/catan-express"), &mut files);
    files.sort();
    files
}

#[test]
fn every_catan_express_case_passes() {
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

/// Every case cites a rule of the scenario (or a reading of RULINGS R9, or the orders
/// by mail) and is an Express game.
#[test]
fn every_case_names_its_rule_and_plays_express() {
    for f in all() {
        let rule = cases::rule_of(&f).expect("has a rule");
        assert!(
            rule.len() > 20,
            "{}: the rule is too short to cite anything",
            f.display()
        );
        let text = std::fs::read_to_string(&f).expect("readable");
        assert!(
            text.contains("express = \"island\"") || text.contains("express = \"beyond\""),
            "{}: not a Catan Express case",
            f.display()
        );
    }
}

/// The runner checks Express facts: the same case with a wrong expectation fails.
#[test]
fn a_wrong_expectation_fails() {
    let path = "tests/catan-express/lines/line-joins-own-system.toml";
    let text = std::fs::read_to_string(path).expect("the case exists");
    let good = cases::run(path, &text).expect("reads");
    assert!(good.passed(), "{:?}", good.problems);
    let wrong = text.replace("chips = { red = 0 }", "chips = { red = 1 }");
    assert_ne!(wrong, text, "the case changed");
    let bad = cases::run(path, &wrong).expect("reads");
    assert!(!bad.passed());
    assert!(
        bad.problems.iter().any(|p| p.contains("red's chips")),
        "{:?}",
        bad.problems
    );
}

/// docs/catan-express.md ends with the rule → case table, as `cases::table` prints it.
#[test]
fn the_case_table_in_the_rules_doc_is_current() {
    let table = cases::table(&all()).expect("every case has a rule");
    let doc = std::fs::read_to_string("docs/catan-express.md").expect("docs/catan-express.md");
    let start =
        doc.find("<!-- cases:begin -->\n").expect("begin marker") + "<!-- cases:begin -->\n".len();
    let end = doc.find("<!-- cases:end -->").expect("end marker");
    if doc[start..end] != table && std::env::var("UPDATE_CASE_TABLE").is_ok() {
        let new = format!("{}{}{}", &doc[..start], table, &doc[end..]);
        std::fs::write("docs/catan-express.md", new).expect("write the doc");
        return;
    }
    assert!(
        doc[start..end] == table,
        "docs/catan-express.md's case table is out of date: rerun with UPDATE_CASE_TABLE=1, then review the diff"
    );
}
