//! One `#[test]` per adjudication case file, for tests/cases.rs: a failing case names
//! itself (`cases::files::catan::trade::bank_four_to_one`), and `cargo test trade` runs
//! the trade cases alone. The case folders are read here, at build time; Cargo runs this
//! again whenever a file in them changes.

// A build script stops the build by panicking, with the message Cargo shows.
#![allow(clippy::panic)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The folders of case files, each a game's (docs/cases.md).
const FOLDERS: [&str; 3] = ["tests/cases", "tests/catan", "tests/catan-express"];

/// A folder of the tree of tests: its files' tests and its subfolders.
#[derive(Default)]
struct Folder {
    cases: BTreeMap<String, String>,
    folders: BTreeMap<String, Folder>,
}

fn main() {
    let mut root = Folder::default();
    let mut count = 0;
    for top in FOLDERS {
        println!("cargo::rerun-if-changed={top}");
        let mut files = Vec::new();
        collect(Path::new(top), &mut files);
        files.sort();
        for file in files {
            let path = file.to_string_lossy().replace('\\', "/");
            let mut parts: Vec<&str> = path.trim_end_matches(".toml").split('/').collect();
            parts.remove(0); // tests/
            let stem = parts.pop().unwrap_or("case");
            let mut here = &mut root;
            for p in parts {
                here = here.folders.entry(ident(p)).or_default();
            }
            let mut name = ident(stem);
            while here.cases.contains_key(&name) {
                name.push('_');
            }
            here.cases.insert(name, path);
            count += 1;
        }
    }
    let mut out = format!(
        "/// How many case files there were when the tests were made.\npub const COUNT: usize = {count};\n"
    );
    write(&root, 0, &mut out);
    let dir = std::env::var_os("OUT_DIR")
        .map(PathBuf::from)
        .unwrap_or_default();
    if let Err(e) = std::fs::write(dir.join("case_tests.rs"), out) {
        panic!("writing the case tests: {e}");
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

/// A name Rust takes for a test or a module: `bank-4:1` is `bank_4_1`, `3-player` is
/// `n3_player`, `loop` is `loop_`.
fn ident(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'n');
    }
    const KEYWORDS: [&str; 52] = [
        "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
        "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
        "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub",
        "ref", "return", "self", "static", "struct", "super", "trait", "true", "try", "type",
        "typeof", "union", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
    ];
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

fn write(folder: &Folder, depth: usize, out: &mut String) {
    let pad = "    ".repeat(depth);
    for (name, path) in &folder.cases {
        let _ = writeln!(
            out,
            "{pad}#[test]\n{pad}fn {name}() {{\n{pad}    crate::cases::passes({path:?});\n{pad}}}"
        );
    }
    for (name, sub) in &folder.folders {
        let _ = writeln!(out, "{pad}mod {name} {{");
        write(sub, depth + 1, out);
        let _ = writeln!(out, "{pad}}}");
    }
}
