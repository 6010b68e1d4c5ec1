//! The integration tests: one binary (as jj's tests/runner.rs), so the suite links the
//! judge once, not once per file. Its modules are in folders by crate (judge_core/,
//! roads_boats/, catan/), each test file a module; tests/support is what they share. Every test drives the `judge` binary or the library as a user
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
mod judge_core {
    pub(crate) mod cli;
    pub(crate) mod clock;
    pub(crate) mod club;
    pub(crate) mod dice;
    pub(crate) mod doors;
    pub(crate) mod exits;
    pub(crate) mod files_and_folders;
    pub(crate) mod forum;
    pub(crate) mod fuzz_corpus;
    pub(crate) mod gm_slips;
    pub(crate) mod hidden_pipeline;
    pub(crate) mod hostile_mail;
    pub(crate) mod mail_client_properties;
    pub(crate) mod mail_clients;
    pub(crate) mod mail_commands;
    pub(crate) mod mail_failures;
    pub(crate) mod mail_lists;
    pub(crate) mod mail_mime;
    pub(crate) mod mail_replies;
    pub(crate) mod mail_security;
    pub(crate) mod mail_server_faults;
    pub(crate) mod mail_turn;
    pub(crate) mod many_games;
    pub(crate) mod notify;
    pub(crate) mod robustness;
    pub(crate) mod seats;
    pub(crate) mod secrets;
    pub(crate) mod signup;
    pub(crate) mod site;
    pub(crate) mod unattended;
}
mod roads_boats {
    pub(crate) mod bot;
    pub(crate) mod order_words;
    pub(crate) mod orders;
    pub(crate) mod orders_fuzz;
    pub(crate) mod picture;
    pub(crate) mod properties;
    pub(crate) mod reach;
    pub(crate) mod report;
    pub(crate) mod scenario_files;
    pub(crate) mod state_json;
    pub(crate) mod template;
}
mod catan {
    pub(crate) mod bot;
    pub(crate) mod cli;
    pub(crate) mod express;
    pub(crate) mod express_cli;
    pub(crate) mod express_game;
    pub(crate) mod express_orders;
    pub(crate) mod express_properties;
    pub(crate) mod express_report;
    pub(crate) mod hidden;
    pub(crate) mod orders_fuzz;
    pub(crate) mod properties;
    pub(crate) mod public_check;
    pub(crate) mod public_record;
    pub(crate) mod report;
    pub(crate) mod template;
}
