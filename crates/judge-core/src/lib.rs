//! The judge's shared parts, which know no game: the archive, mail in and out, the
//! play-by-email pipeline, diagnostics, pictures, text and the web site. A game plugs in
//! through [`pbem::game::Game`]; the `judge` program registers the games it runs
//! ([`registry::Games`]) and hands them down. docs/architecture.md has the map.

pub mod archive;
pub mod diagnostic;
pub mod error;
pub mod luck;
pub mod mail;
pub mod pbem;
pub mod picture;
pub mod registry;
pub mod site;
pub mod text;
