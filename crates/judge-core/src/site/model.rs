//! What the site shows, as read from the archive (apart from the
//! reading in `site/mod.rs` and the pages in `page.rs`, which both use it).

use std::collections::BTreeMap;

use crate::pbem::game::{Tally, Writer};
use crate::pbem::record::TurnRecord;

/// The site's files, by their path inside the output folder.
pub type Files = BTreeMap<String, Vec<u8>>;

/// A seat at the table, as the site names it (never an address).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub id: String,
    pub name: String,
}

/// Everything the site shows of the game as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overview {
    /// The game's own name.
    pub name: String,
    /// The kind of game, for people ([`Game::title`](crate::pbem::game::Game::title)).
    pub title: String,
    pub scenario: String,
    pub seats: Vec<Seat>,
    /// How the game ended, if it has.
    pub over: Option<String>,
    /// Players' orders are shown once played (not in a game with hidden information).
    pub shows_orders: bool,
    /// What the players were told of the game's dice: the commitment to its secret
    /// seed, or the seed once published (never the secret while the game runs).
    pub dice: Option<String>,
    /// The game's order guide (its docs file's name, and its text), for `guide.html`.
    pub guide: Option<(String, String)>,
    /// The order writer's page of each seat, for the next turn (none once the game is
    /// over, or when the game has no writer).
    pub writers: Vec<WriterPage>,
    /// The order checker compiled to WebAssembly (`scripts/build-checker`), which the
    /// writer's pages run; without it they write orders but cannot check them.
    pub checker: Option<Vec<u8>>,
}

/// One seat's order writer page: the game's [`Writer`] and what the page's checker and
/// its "mail it" link need, all of it public.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriterPage {
    pub seat: String,
    /// The order file the page starts with: the header (the secret left as
    /// YOUR-SECRET) and the game's body.
    pub text: String,
    pub writer: Writer,
    /// The game's id, for the checker.
    pub game: String,
    /// The position the checker reads: the state file, or the public record of a game
    /// that keeps its state private (`public`).
    pub state: String,
    pub public: bool,
    /// The turn the orders are for.
    pub turn: u32,
    /// The judge's address, for "mail it".
    pub to: Option<String>,
}

/// Everything the site shows of one turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub number: u32,
    /// The map picture, as SVG.
    pub svg: String,
    /// The public report.
    pub report: String,
    /// Each player's orders as played, by seat (empty for turn 0, and in a game that
    /// keeps orders private).
    pub orders: Vec<(String, String)>,
    /// What the turn records about itself (where each player's orders came from).
    pub record: Option<TurnRecord>,
    pub tally: Tally,
}

/// One game on the page of a folder of games (`judge site --all`): as everyone may see
/// it (no address, no orders, whose orders are missing only where the game makes that
/// public).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FolderGame {
    pub name: String,
    /// The kind of game, for people.
    pub title: String,
    /// The seats' players' names.
    pub players: Vec<String>,
    pub turn: Option<u32>,
    /// `playing`, `over`, `open`, …, and why.
    pub state: String,
    pub why: Option<String>,
    /// When the next orders are due, as the judge shows a time.
    pub due: Option<String>,
    pub missing: String,
    /// The link to the game's own site, relative to the folder's page (none before
    /// turn 0: a game open for sign-up, or in its round by mail, has no site yet).
    pub site: Option<String>,
    /// The link to its latest map.
    pub map: Option<String>,
    /// Why the game could not be read (then it has no site here).
    pub cause: Option<String>,
}

/// One family's table of ratings, its numbers as the page shows them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RatedFamily {
    pub title: String,
    /// `3 games`.
    pub games: String,
    pub players: Vec<RatedPlayer>,
}

/// A player's line of a [`RatedFamily`]: shown by name, never their address.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RatedPlayer {
    pub name: String,
    pub rating: String,
    pub mu: String,
    pub sigma: String,
    pub games: u32,
    pub wins: u32,
}
