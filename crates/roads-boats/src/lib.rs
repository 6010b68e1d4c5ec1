//! Roads & Boats, with Planes & Trains and the &cetera modules.

pub mod bot;
pub mod building;
pub mod cases;
pub mod check;
pub mod events;
pub mod game;
pub mod goods;
pub mod map;
pub mod modules;
#[cfg(test)]
mod name_table;
pub mod order_text;
pub mod order_words;
pub mod orders;
pub mod play;
pub mod player;
pub mod refusal;
pub mod report;
pub mod resolve;
pub mod rng;
pub mod scenario;
pub mod setup;
pub mod setup_round;
pub mod show;
pub mod state;
pub mod transporter;
pub(crate) mod turn;
pub mod wonder;
pub mod word_error;

pub use refusal::Refusal;
pub use state::State;
pub use word_error::WordError;
