//! pbem-judge: a play-by-email judge for Roads & Boats (with Planes & Trains and &cetera),
//! Catan and Catan Express.
//!
//! The workspace's crates are its architecture (docs/architecture.md): `judge-core`
//! (archive, mail, the pbem pipeline, diagnostics, pictures, site) knows no game;
//! `roads-boats` and `catan` are the games, each its own crate; this one is the `judge`
//! program, which registers the games ([`games`]) and hands them down to the command
//! line ([`cli`]). The shared parts and the games are re-exported under their old names.

pub use judge_core::forum as judge_core_forum;
pub use judge_core::{
    archive, diagnostic, error, luck, mail, notify, pbem, picture, registry, site, text,
};

pub use catan;
pub use roads_boats;

pub mod cli;
#[doc(hidden)]
pub mod fuzzing;
pub mod games;
