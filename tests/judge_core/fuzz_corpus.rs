//! Every fuzzing seed (the folders fuzz/seeds/list names), every input that once crashed
//! or slowed a target (fuzz/regressions/<target>/, kept by hand under a name that says
//! what it found; a large one gzipped, `<name>.gz`, and run as it was before) and, on a machine that has fuzzed, every input the fuzzers kept
//! (fuzz/corpus/<target>/, grown by `scripts/fuzz`, not in git) runs through the same
//! code in the normal test run, in seconds.

use std::path::{Path, PathBuf};

/// Every file under `dir`, none if there is no such folder (a machine that never fuzzed
/// has no corpus).
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.is_dir() {
        out.extend(crate::support::all_files(dir));
    }
}

/// The seed folders of `target`, as fuzz/seeds/list gives them.
fn seeds(target: &str) -> Vec<PathBuf> {
    let list = std::fs::read_to_string("fuzz/seeds/list").expect("fuzz/seeds/list");
    list.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            (w.next()? == target).then(|| PathBuf::from(w.next().unwrap_or_default()))
        })
        .collect()
}

#[test]
fn every_saved_fuzz_input_runs_clean() {
    for (name, target) in pbem_judge::fuzzing::TARGETS {
        let folders = seeds(name);
        assert!(
            !folders.is_empty(),
            "{name} has no seeds in fuzz/seeds/list"
        );
        let mut files = Vec::new();
        for f in &folders {
            assert!(
                f.is_dir(),
                "fuzz/seeds/list: {} is not a folder",
                f.display()
            );
            files_under(f, &mut files);
        }
        let seeded = files.len();
        assert!(seeded > 3, "{name}: {seeded} seeds");
        files_under(&Path::new("fuzz/regressions").join(name), &mut files);
        files_under(&Path::new("fuzz/corpus").join(name), &mut files);
        files.sort();
        for f in files {
            // A file the fuzzer is replacing as the test runs is gone: nothing to run.
            let Ok(data) = std::fs::read(&f) else {
                continue;
            };
            if f.starts_with("fuzz/regressions") && f.extension().is_some_and(|x| x == "gz") {
                use std::io::Read as _;
                let mut raw = Vec::new();
                flate2::read::GzDecoder::new(data.as_slice())
                    .read_to_end(&mut raw)
                    .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                target(&raw);
            } else {
                target(&data);
            }
        }
    }
}
