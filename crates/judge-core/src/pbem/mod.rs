//! The play-by-email loop, the same for every game: mail in ([`intake`]), a turn played
//! ([`turn`]), reports and answers out ([`send`]), and the archive checked again
//! ([`replay`]). Each step is a function over the archive that a GM may run alone; the
//! command line only calls them. A game is known here only through [`game::Game`].
//!
//! The pipeline has a read side under its actions. Where a game
//! stands ([`stage`]), when orders are due ([`due`]), what a turn records ([`record`]),
//! the files of the layout ([`layout`]), the order file a player fills ([`order_form`])
//! and the pipeline's [`error`] are read by the actions and use none of them; no file
//! here imports another in a circle (tests/architecture/core.rs). This file only lists
//! the modules and re-exports, under their old names, what the read side holds.

#[cfg(feature = "shell")]
pub mod absent;
#[cfg(feature = "shell")]
pub mod by_mail;
#[cfg(feature = "shell")]
pub mod clock;
#[cfg(feature = "shell")]
pub mod commands;
#[cfg(feature = "shell")]
pub mod commit;
#[cfg(feature = "shell")]
pub mod compare;
pub mod directives;
#[cfg(feature = "shell")]
pub mod due;
#[cfg(feature = "shell")]
pub mod error;
pub mod game;
#[cfg(feature = "shell")]
pub mod glance;
#[cfg(feature = "shell")]
pub mod house;
#[cfg(feature = "shell")]
pub mod in_hand;
#[cfg(feature = "shell")]
pub mod intake;
#[cfg(feature = "shell")]
pub mod layout;
#[cfg(feature = "shell")]
pub mod league;
#[cfg(feature = "shell")]
pub mod limits;
#[cfg(feature = "shell")]
pub mod log;
#[cfg(feature = "shell")]
pub mod order_form;
#[cfg(feature = "shell")]
pub mod preferences;
#[cfg(feature = "shell")]
pub mod press;
#[cfg(feature = "shell")]
pub mod rate;
#[cfg(feature = "shell")]
pub mod record;
#[cfg(feature = "shell")]
pub mod replace;
#[cfg(feature = "shell")]
pub mod replay;
pub mod reply;
#[cfg(feature = "shell")]
pub mod report;
#[cfg(feature = "shell")]
pub mod round;
#[cfg(feature = "shell")]
pub mod route;
#[cfg(feature = "shell")]
pub mod send;
#[cfg(feature = "shell")]
pub mod sender;
#[cfg(feature = "shell")]
pub mod signup;
#[cfg(feature = "shell")]
pub mod sources;
#[cfg(feature = "shell")]
pub mod stage;
#[cfg(feature = "shell")]
pub mod status;
#[cfg(feature = "shell")]
pub mod turn;
#[cfg(feature = "shell")]
pub mod verify;
#[cfg(feature = "shell")]
pub mod welcome;

crate::shell! {
pub use due::{deadline, deadline_after, due_line};
pub use error::Error;
pub use order_form::{guide_named, order_body, order_header, order_template, writer_named};
pub use stage::{current, current_for_check, named, new_names, open, position, waiting};
}
