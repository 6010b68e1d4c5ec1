//! The slow tier of the integration tests: what needs real mail servers
//! (tests/mail/servers.sh), kills and races between judge processes, or headless
//! Chromium (tests/browser/setup.sh). A plain `cargo test` leaves it out; `cargo test
//! --test slow` runs it once the two scripts have installed what it needs, and `bash
//! .ci/run` runs it beside the fast tier, its output shown after. The fast tier is
//! tests/runner.rs.

// Test code: a failed expectation stops the test where it failed (the judge's own code
// may not unwrap, expect or panic: Cargo.toml, [workspace.lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;
mod judge_core {
    pub(crate) mod gm_guide;
    pub(crate) mod house;
    pub(crate) mod kills;
    pub(crate) mod mail;
    pub(crate) mod mail_tls;
    pub(crate) mod pbem_loop;
    pub(crate) mod races;
    pub(crate) mod site_browser;
}
mod catan {
    pub(crate) mod pbem;
}
