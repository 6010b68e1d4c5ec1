//! Issue 40: Roads & Boats' shape (a module is one door; the phases, the report and the
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

/// Issue 40, point 4: the order reader (`order_text`, one file per idea since point 5)
/// never names one module: a module's orders are read by the grammar it registers in its
/// `Plugin`, so the reader imports no `modules/<one>.rs` (only the registry,
/// `modules/mod.rs`) and writes no `electricity::`, `modules::planes::` … path.
///
/// Shown failing (issue 40): with `use crate::modules::electricity;` and
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
        let code: String = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        for m in &modules {
            assert!(
                !names_path(&code, m),
                "{} names `{m}::`: the order reader names one module, not the registry",
                file.display()
            );
        }
    }
}
