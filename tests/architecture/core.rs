//! judge-core's own shape (the pipeline's read side under its actions).

#[allow(unused_imports)]
use super::{circles, imports, module_paths};

use std::path::Path;

/// No import circle anywhere in judge-core. Where a game stands (its
/// stage, turn records, held orders, the files of the layout, the site's) is read by
/// modules the actions use and which use none of them, so the pipeline is layers, not a
/// knot: a file never reaches itself through the files it imports. A `mod` line is
/// structure, not use; a re-export (`pub use stage::current;`) is use.
///
/// Shown failing: on a scratch change, `pbem/stage.rs` (the read side) given
/// `pub fn scratch() -> u64 { super::intake::EARLIEST }` (naming an action) made it fail
/// with "judge-core has an import circle: [\"pbem/absent.rs\", \"pbem/by_mail.rs\",
/// \"pbem/clock.rs\", \"pbem/due.rs\", \"pbem/in_hand.rs\", \"pbem/intake.rs\", …,
/// \"pbem/stage.rs\", \"pbem/status.rs\", \"pbem/verify.rs\", \"pbem/welcome.rs\"]"; on
/// main before this rule (dfe2fb15) the same reader finds four circles: 21 files of
/// `pbem/` and `site/` (19 of `pbem/`, `site/mod.rs`, `site/page.rs`), `archive/mod.rs`
/// with `atomic.rs` and `house.rs`, `mail/html.rs` with `inbound.rs`, and
/// `picture/mod.rs` with `legend.rs` and `paint.rs`.
#[test]
fn judge_core_has_no_import_circle() {
    let src = Path::new("crates/judge-core/src");
    let graph = imports(src);
    // The reader finds what it should: an action imports the read side, and the files of
    // a folder are read.
    let intake = src.join("pbem/intake.rs");
    assert!(
        graph[&intake].contains(&src.join("pbem/stage.rs")),
        "{:?}",
        graph[&intake]
    );
    assert!(graph.len() > 60, "{} files", graph.len());
    // A file's own tests (`#[cfg(test)] mod tests { use super::*; … }`) name the file,
    // not its parent: site/chart.rs's tests do not make it import site/mod.rs.
    let chart = src.join("site/chart.rs");
    let text = std::fs::read_to_string(&chart).expect("site/chart.rs");
    assert!(text.contains("mod tests {\n    use super::*;"));
    assert!(!graph[&chart].contains(&src.join("site/mod.rs")));
    let shown: Vec<Vec<String>> = circles(&graph)
        .into_iter()
        .map(|c| {
            c.iter()
                .map(|f| f.strip_prefix(src).unwrap_or(f).display().to_string())
                .collect()
        })
        .collect();
    assert!(
        shown.is_empty(),
        "judge-core has an import circle: {}",
        shown
            .iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>()
            .join("; ")
    );
}
