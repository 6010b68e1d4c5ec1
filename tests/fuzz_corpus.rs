//! Every input the fuzzers kept (fuzz/corpus/<target>/, grown by `scripts/fuzz`) and
//! every input that once crashed a target (fuzz/regressions/<target>/, kept by hand
//! under a name that says what it found, so minimising the corpus never drops it) runs
//! through the same code in the normal test run, in seconds.

#[test]
fn every_saved_fuzz_input_runs_clean() {
    let mut n = 0;
    for (name, target) in pbem_judge::fuzzing::TARGETS {
        let dir = std::path::Path::new("fuzz/corpus").join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .collect();
        assert!(!files.is_empty(), "{} is empty", dir.display());
        let regressions = std::path::Path::new("fuzz/regressions").join(name);
        if let Ok(found) = std::fs::read_dir(&regressions) {
            files.extend(found.flatten().map(|e| e.path()));
        }
        files.sort();
        for f in files {
            let data = std::fs::read(&f).expect("read");
            target(&data);
            n += 1;
        }
    }
    assert!(n > 100, "{n} inputs");
}
