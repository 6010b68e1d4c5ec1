//! pbem-judge: a play-by-email judge for Roads & Boats (with Planes & Trains and &cetera),
//! Catan and Catan Express.
//!
//! The rules live in [`roads_boats`] and [`catan`] as pure functions of the state; files, mail and the
//! clock sit at the edges ([`archive`], [`cli`]).

pub mod archive;
pub mod catan;
pub mod cli;
pub mod diagnostic;
#[doc(hidden)]
pub mod fuzzing;
pub mod games;
pub mod luck;
pub mod mail;
pub mod pbem;
pub mod picture;
pub mod roads_boats;
pub mod site;
pub mod text;
