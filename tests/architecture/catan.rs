//! Catan's shape (the base reaches Express only through the scenario's hooks).

use std::path::{Path, PathBuf};

#[allow(unused_imports)]
use super::{circles, imports, module_paths};

/// The hook table: the one file of Catan's base that names Express.
const HOOK_TABLE: &str = "scenario.rs";

/// The toolkits the base and Express both build on.
const TOOLKITS: [&str; 2] = ["orders/kit.rs", "report/kit.rs"];

/// A file's code with its comments (`//`, `//!`, `///`) left out.
fn code(file: &Path) -> String {
    super::without_comments(&std::fs::read_to_string(file).expect("source"))
}

/// Does `code` name the module `express` in a path (`express::`, `crate::express`,
/// `super::{express, …}`)? A field or a local called `express`, or the words
/// "catan-express" in a string, are not the module.
fn names_express(code: &str) -> bool {
    let chars: Vec<char> = code.chars().collect();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut at = 0;
    while let Some(k) = code[at..].find("express") {
        let i = code[..at + k].chars().count();
        let before = (i > 0).then(|| chars[i - 1]);
        let after: String = chars[i + 7..].iter().take(2).collect();
        let whole = !before.is_some_and(word) && !chars.get(i + 7).is_some_and(|c| word(*c));
        let in_path = after == "::" || (i >= 2 && chars[i - 2] == ':' && before == Some(':'));
        // `use super::{express, …}` / `use crate::{…, express}`.
        let in_group = {
            let open = code[..at + k].rfind('{');
            let close = code[..at + k].rfind('}');
            open.is_some_and(|o| close.is_none_or(|c| c < o) && code[..o].ends_with("::"))
        };
        // `play_random as express`: a local name, not the module.
        let alias = code[..at + k].trim_end().ends_with(" as");
        if whole && !alias && (in_path || in_group) {
            return true;
        }
        at += k + 7;
    }
    false
}

/// Catan's base reaches Catan Express only through the
/// scenario's hook table (`crates/catan/src/scenario.rs`: grammar, resolution, report
/// and picture, the GM's end, the bot): no other file outside `express/` imports a file
/// of `express/` or names `express::` in its code; and the toolkits (`orders/kit.rs`,
/// `report/kit.rs`) import neither the base's grammar and report nor Express.
///
/// Shown failing (on a scratch change, undone): `rules/turn.rs`'s GM's end
/// calling `crate::express::race::decide(self, None, log)` again, as it did before, and
/// `orders/kit.rs` importing `super::parse::Parsed`; the test failed with
/// `[…"crates/catan/src/rules/turn.rs imports crates/catan/src/express/race.rs",
/// "crates/catan/src/rules/turn.rs names `express`", "the toolkit
/// crates/catan/src/orders/kit.rs imports crates/catan/src/orders/parse.rs"]`. On
/// main before this rule it listed eleven files of the base (parse, check, template,
/// resolve, report, picture, bot, turn, state, cases, game).
#[test]
fn catans_base_reaches_express_only_through_the_hook_table() {
    let src = Path::new("crates/catan/src");
    let graph = imports(src);
    let under = |f: &Path, dir: &str| f.strip_prefix(src).is_ok_and(|r| r.starts_with(dir));
    // The reader finds what it should: the hook table imports Express, Express's grammar
    // imports the toolkit.
    assert!(
        graph[&src.join(HOOK_TABLE)]
            .iter()
            .any(|f| under(f, "express")),
        "{:?}",
        graph[&src.join(HOOK_TABLE)]
    );
    assert!(graph[&src.join("express/orders.rs")].contains(&src.join(TOOLKITS[0])));
    assert!(names_express("use super::express;"));
    assert!(names_express("use super::{board, express};"));
    assert!(names_express("let m = express::Map::Island;"));
    assert!(!names_express(
        "let express = true; \"catan-express\"; x.express"
    ));
    assert!(!names_express(
        "use super::scenario::{Map, play_random as express};"
    ));

    let mut offenders: Vec<String> = Vec::new();
    for (file, to) in &graph {
        if under(file, "express") || file == &src.join(HOOK_TABLE) {
            continue;
        }
        let lib = file == &src.join("lib.rs");
        for t in to.iter().filter(|t| under(t, "express")) {
            // lib.rs's `pub mod express;` is structure, not use.
            if !lib {
                offenders.push(format!("{} imports {}", file.display(), t.display()));
            }
        }
        let text = code(file);
        let text = if lib {
            text.replace("pub mod express;", "")
        } else {
            text
        };
        if names_express(&text) {
            offenders.push(format!("{} names `express`", file.display()));
        }
    }
    for kit in TOOLKITS {
        let kit: PathBuf = src.join(kit);
        for t in &graph[&kit] {
            if under(t, "express") || under(t, "orders") || under(t, "report") {
                offenders.push(format!(
                    "the toolkit {} imports {}",
                    kit.display(),
                    t.display()
                ));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}
