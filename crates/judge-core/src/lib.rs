//! The judge's shared parts, which know no game: the archive, mail in and out, the
//! play-by-email pipeline, diagnostics, pictures, text and the web site. A game plugs in
//! through [`pbem::game::Game`]; the `judge` program registers the games it runs
//! ([`registry::Games`]) and hands them down. docs/architecture.md has the map.

//!
//! The feature `shell` (on by default) is the imperative shell: the archive on disk,
//! mail, the pipeline, the site. Without it the crate is what the games build on —
//! diagnostics, errors, luck, pictures, text, the game interface — and it compiles to
//! WebAssembly, for the checker in the player's browser.

/// Items of the shell: each compiled only with the feature `shell`.
macro_rules! shell {
    ($($item:item)*) => {
        $(
            #[cfg(feature = "shell")]
            $item
        )*
    };
}
pub(crate) use shell;

#[cfg(feature = "shell")]
pub mod archive;
pub mod diagnostic;
pub mod error;
pub mod forum;
pub mod json;
pub mod luck;
pub mod mail;
#[cfg(feature = "shell")]
pub mod notify;
pub mod pbem;
pub mod picture;
#[cfg(feature = "shell")]
pub mod registry;
#[cfg(feature = "shell")]
pub mod site;
pub mod text;
