//! Every input the fuzzers kept (fuzz/corpus/<target>/, grown by `scripts/fuzz`) runs
//! through the same code in the normal test run, in seconds: an input that once found a
//! new path, or crashed before a fix, keeps being checked.

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
        files.sort();
        assert!(!files.is_empty(), "{} is empty", dir.display());
        for f in files {
            let data = std::fs::read(&f).expect("read");
            target(&data);
            n += 1;
        }
    }
    assert!(n > 100, "{n} inputs");
}
