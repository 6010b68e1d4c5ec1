//! The integration tests: one binary (as jj's tests/runner.rs), so the suite links the
//! judge once, not once per file. Each file beside this one is a module; tests/support
//! is what they share. Every test drives the `judge` binary or the library as a user
//! would; the adjudication cases are tests of their own (tests/cases.rs).
//!
//! Two tiers: `cargo test` runs this one, the fast one. The slow tier (real mail
//! servers, races and kills, the browser) is its own binary, tests/slow.rs, which a
//! plain `cargo test` leaves out (`test = false`): `cargo test --test slow` runs it, and
//! `bash .ci/run` runs both, the slow one beside this one, after provisioning what the
//! slow tier needs.

// Test code: a failed expectation stops the test where it failed (the judge's own code
// may not unwrap, expect or panic: Cargo.toml, [workspace.lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

mod architecture;
mod cases;
mod catan_bot;
mod catan_cli;
mod catan_express;
mod catan_express_cli;
mod catan_express_game;
mod catan_express_orders;
mod catan_express_properties;
mod catan_express_report;
mod catan_hidden;
mod catan_orders_fuzz;
mod catan_properties;
mod catan_public_check;
mod catan_public_record;
mod catan_report;
mod catan_template;
mod cli;
mod clock;
mod dice;
mod doors;
mod files_and_folders;
mod fuzz_corpus;
mod gm_slips;
mod hidden_pipeline;
mod hostile_mail;
mod mail_client_properties;
mod mail_clients;
mod mail_commands;
mod mail_failures;
mod mail_lists;
mod mail_mime;
mod mail_replies;
mod mail_security;
mod mail_server_faults;
mod mail_turn;
mod many_games;
mod order_words;
mod orders;
mod orders_fuzz;
mod picture;
mod properties;
mod rb_bot;
mod rb_reach;
mod rb_template;
mod report;
mod robustness;
mod scenario_files;
mod seats;
mod secrets;
mod signup;
mod site;
mod state_json;
mod unattended;
