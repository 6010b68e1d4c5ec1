//! Roads & Boats' shape (a module is one door; the phases, the report and the
//! scenario reader never name a module).

#[allow(unused_imports)]
use super::{circles, imports, module_paths};

use std::path::Path;

/// The modules with a file of their own under `modules/` (`electricity`, `polder` …).
fn module_names(src: &Path) -> Vec<String> {
    module_paths(src)
        .into_keys()
        .filter(|p| p.len() == 2 && p[0] == "modules")
        .map(|p| p[1].clone())
        .collect()
}

/// Does `code` name `name::` as a path of its own (not `start::` for `art`)?
fn names_path(code: &str, name: &str) -> bool {
    let needle = format!("{name}::");
    code.match_indices(&needle).any(|(i, _)| {
        !code[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The order reader (`order_text`, one file per idea)
/// never names one module: a module's orders are read by the grammar it registers in its
/// `Plugin`, so the reader imports no `modules/<one>.rs` (only the registry,
/// `modules/mod.rs`) and writes no `electricity::`, `modules::planes::` … path.
///
/// Shown failing: with `use crate::modules::electricity;` and
/// `let _ = electricity::PLUGIN.module;` added to `order_text/production.rs` on a scratch
/// change, the test failed with
/// "crates/roads-boats/src/order_text/production.rs imports crates/roads-boats/src/modules/electricity.rs:
/// the order reader names one module, not the registry".
#[test]
fn the_order_reader_names_no_module() {
    let src = Path::new("crates/roads-boats/src");
    let graph = imports(src);
    let modules = module_names(src);
    assert!(
        modules.iter().any(|m| m == "electricity") && modules.iter().any(|m| m == "polder"),
        "the module files are found: {modules:?}"
    );
    let reader: Vec<_> = graph
        .keys()
        .filter(|f| {
            f.strip_prefix(src)
                .is_ok_and(|r| r.starts_with("order_text") || r == Path::new("order_text.rs"))
        })
        .collect();
    // The rule reads what it should: the reader's files, which import the word list.
    assert!(reader.len() > 1, "{reader:?}");
    assert!(
        reader
            .iter()
            .any(|f| graph[*f].contains(&src.join("order_words.rs"))),
        "the import reader sees order_text's imports"
    );
    for file in reader {
        for to in &graph[file] {
            let one = to
                .strip_prefix(src.join("modules"))
                .is_ok_and(|r| r != Path::new("mod.rs"));
            assert!(
                !one,
                "{} imports {}: the order reader names one module, not the registry",
                file.display(),
                to.display()
            );
        }
        let text = std::fs::read_to_string(file).expect("source");
        let code = super::without_comments(&text);
        for m in &modules {
            assert!(
                !names_path(&code, m),
                "{} names `{m}::`: the order reader names one module, not the registry",
                file.display()
            );
        }
    }
}

/// Where a file of Roads & Boats names one module by its path: `(line, module)` for each
/// `polder::…`, `modules::city::…` or `modules::{…, bombs, …}` outside comments, with
/// `modules` the names of the files of `crates/roads-boats/src/modules/`.
fn modules_named(text: &str, modules: &[String]) -> Vec<(usize, String)> {
    let code = super::without_comments(text);
    let lines: Vec<&str> = code.lines().collect();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out: Vec<(usize, String)> = Vec::new();
    // `name::`, the name standing alone (not the end of a longer word).
    for (n, line) in lines.iter().enumerate() {
        for m in modules {
            let pat = format!("{m}::");
            for (i, _) in line.match_indices(&pat) {
                if !line[..i].ends_with(ident) {
                    out.push((n + 1, m.clone()));
                }
            }
        }
    }
    // `modules::{self, bombs, electricity}`, over as many lines as it takes.
    for (start, _) in code.match_indices("modules::{") {
        let group = &code[start + "modules::{".len()..];
        let mut depth = 1;
        let end = group
            .char_indices()
            .find(|(_, c)| {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .map_or(group.len(), |(i, _)| i);
        let line = code[..start].lines().count().max(1);
        for word in group[..end].split(|c: char| !ident(c)) {
            if modules.iter().any(|m| m == word) {
                out.push((line, word.to_string()));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The phases (`resolve/`), the report (`report/`), the
/// scenario reader (`scenario/`), the game's face to the judge (`game.rs`) and the
/// checker (`check.rs`) never name one module — no `polder::flooded`, no
/// `modules::city::moat`, no `use crate::modules::{bombs}` — but reach every module
/// through the registry's hooks (`modules::Hooks`: `leaving`, `entering`, `sea_now`,
/// `moat`, `crossing`, `wall_from`, `leftover_rank`, `leftover_made`, `settle`, `look`,
/// `read_start`, `reach_line`, and the older ones), so that a module's rules, drawing and scenario keys are in its
/// own file.
///
/// None is left: the last, jumpstart's lots and auction, moved into
/// `modules/jumpstart.rs`, which reads `[start] lots` through the hook
/// `read_start` and starts the game with its auction through `start_refused` and
/// `start_by_default`.
///
/// Shown failing (on scratch changes, undone): with `let _ = &crate::modules::polder::PLUGIN;`
/// put into `resolve/movement.rs`'s `water_step`, the test failed with
/// "crates/roads-boats/src/resolve/movement.rs:220 names the module `polder`: reach it
/// through a hook of modules::Hooks"; with its import written
/// `use crate::modules::{\n    self,\n    city,\n};` over four lines, with
/// "crates/roads-boats/src/resolve/movement.rs:13 names the module `city`: …"; and with
/// `let _ = crate::modules::trains::rides(s, id);` put back into `game.rs`'s
/// `reach_lines`, with "crates/roads-boats/src/game.rs:791 names the module `trains`: …".
#[test]
fn the_phases_the_report_and_the_scenario_reader_name_no_module() {
    let src = Path::new("crates/roads-boats/src");
    let modules: Vec<String> = module_paths(&src.join("modules"))
        .keys()
        .filter_map(|k| k.first().cloned())
        .collect();
    assert!(
        modules.iter().any(|m| m == "polder") && modules.iter().any(|m| m == "city"),
        "the modules are found: {modules:?}"
    );
    let mut wrong: Vec<String> = Vec::new();
    let mut files: Vec<std::path::PathBuf> = ["resolve", "report", "scenario"]
        .iter()
        .flat_map(|dir| crate::support::all_files(&src.join(dir)))
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
        .collect();
    // The game's face to the judge (`game.rs`: the template's echo of where a transporter
    // can get) and the checker (`check.rs`) too.
    files.extend(["game.rs", "check.rs"].iter().map(|f| src.join(f)));
    for file in files {
        let text = std::fs::read_to_string(&file).expect("source");
        for (line, m) in modules_named(&text, &modules) {
            wrong.push(format!(
                "{}:{line} names the module `{m}`: reach it through a hook of modules::Hooks",
                file.display()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
