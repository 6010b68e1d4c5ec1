#![no_main]
// See src/fuzzing.rs: the same code replays the saved corpus in the normal test run.
libfuzzer_sys::fuzz_target!(|data: &[u8]| pbem_judge::fuzzing::route(data));
