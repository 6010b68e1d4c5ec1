//! The judge's failures as a script sees them: each exit code of the one table
//! (`EXIT_TABLE`) has a real command line that exits with it, and hints reach the GM one
//! way only, `hint: …` after the message.

use std::path::{Path, PathBuf};

/// Every `.rs` file of the judge's own code (src/ and each crate's src/), tests left out.
fn judge_sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![root.join("src")];
    for e in std::fs::read_dir(root.join("crates")).expect("crates/") {
        roots.push(e.expect("entry").path().join("src"));
    }
    let mut files = Vec::new();
    while let Some(dir) = roots.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries {
            let p = e.expect("entry").path();
            if p.is_dir() {
                roots.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// A hint is added with `with_hint` (of `Failure` or `GameError`) and printed by them,
/// `hint: …` on a line after the message; none is written into a message's text as
/// `\nhelp: …` (a second style, and a hint a command cannot tell from the message).
#[test]
fn no_message_writes_its_own_hint() {
    let files = judge_sources();
    assert!(
        files.len() > 100,
        "the judge's sources are found: {}",
        files.len()
    );
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("source reads");
        for (n, line) in text.lines().enumerate() {
            if line.contains("\\nhelp:") || line.contains("\\n  hint:") || line.contains("\\nhint:")
            {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    // The two Display impls that print hints (`Failure`'s and `GameError`'s) are the one
    // place `\nhint:` is written, and GameError's unit test says what it prints.
    found.retain(|f| {
        let display = f.ends_with("write!(f, \"\\nhint: {hint}\")?;");
        let unit_test = f.contains("judge-core/src/error.rs") && f.contains("turns/004/state.json");
        !display && !unit_test
    });
    assert!(
        found.is_empty(),
        "hints written into messages:\n{}",
        found.join("\n")
    );
}
