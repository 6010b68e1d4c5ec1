//! The judge's order checker for the player's browser: the order writer's page
//! (`judge site`) hands it the game as it stands and the orders written so far, and it
//! answers with what `judge check` would print — the same diagnostics with line and
//! column, the same echo of what each order will do — because it is the same code: the
//! games' own `Position::check`, compiled to WebAssembly (`scripts/build-checker`).
//!
//! The page talks to it through four plain functions ([`ffi`]); no JavaScript
//! generator is needed. A request is JSON:
//!
//! ```json
//! {"game": "roads-and-boats", "name": "spring", "player": "red",
//!  "state": { ... the state.json of the turn ... }, "orders": "movement\n...",
//!  "file": "your orders", "public": false}
//! ```
//!
//! and the answer is JSON: `{"text": …, "errors": 1, "warnings": 0, "diagnostics":
//! [{"severity": "error", "line": 3, "column": 6, "message": …, "help": …}], "echo": …}`,
//! or `{"failure": "why"}` when the request itself is wrong.

use judge_core::error::GameError;
use judge_core::pbem::game::{Checked, Game, Position};
use serde::Deserialize;
use serde_json::{Value, json};

/// Every game, the default first: the one list that names them, which the judge
/// registers too (src/games.rs). The checker itself does not use it: it sees the games
/// through [`CHECKERS`], so that what a `&dyn Game` would keep (reports, pictures,
/// bots, self-play, cases, scenarios) stays out of the WebAssembly module.
pub const GAMES: &[&dyn Game] = &[
    &roads_boats::game::RoadsAndBoats,
    &catan::game::CATAN,
    &catan::game::CATAN_EXPRESS,
];

/// What the order checker needs of a game, and nothing more: checking an order file
/// against a position. A `&dyn Game` keeps every method of the game in its vtable (and
/// with it everything they call); a `&dyn Checks` keeps these two.
pub trait Checks: Sync {
    /// The game's id, as [`Game::id`].
    fn id(&self) -> &'static str;
    /// Check `orders` against the position `state` (the state file of the turn, or its
    /// public record when `public`), as `judge check` does: the same reading of the
    /// state, the same [`Position::check`].
    fn check(
        &self,
        state: &str,
        public: bool,
        orders: &str,
        file: &str,
        player: Option<&str>,
        game: Option<&str>,
    ) -> Result<Checked, GameError>;
}

impl Checks for roads_boats::game::RoadsAndBoats {
    fn id(&self) -> &'static str {
        Game::id(self)
    }

    fn check(
        &self,
        state: &str,
        public: bool,
        orders: &str,
        file: &str,
        player: Option<&str>,
        game: Option<&str>,
    ) -> Result<Checked, GameError> {
        if public {
            // Roads & Boats keeps no public record: the game's own refusal.
            return Game::public_position(self, state).map(|p| p.check(orders, file, player, game));
        }
        let position = roads_boats::game::read_state(state)?;
        Ok(Position::check(&position, orders, file, player, game))
    }
}

impl Checks for catan::game::Catan {
    fn id(&self) -> &'static str {
        Game::id(self)
    }

    fn check(
        &self,
        state: &str,
        public: bool,
        orders: &str,
        file: &str,
        player: Option<&str>,
        game: Option<&str>,
    ) -> Result<Checked, GameError> {
        let position = if public {
            catan::game::read_public(state)?
        } else {
            catan::game::read_state(state)?
        };
        Ok(Position::check(&position, orders, file, player, game))
    }
}

/// The games the checker checks, in the order of [`GAMES`] (a test holds them equal).
pub const CHECKERS: &[&dyn Checks] = &[
    &roads_boats::game::RoadsAndBoats,
    &catan::game::CATAN,
    &catan::game::CATAN_EXPRESS,
];

#[derive(Deserialize)]
struct Request {
    game: String,
    /// The game's name, as its `game` header line must say.
    name: String,
    player: String,
    state: Value,
    orders: String,
    /// What the diagnostics call the file (`your orders` unless given).
    #[serde(default)]
    file: Option<String>,
    /// `state` is the game's public record, not its state file (a game whose state is
    /// private: `Position::public_record`).
    #[serde(default)]
    public: bool,
}

/// The answer to one request (see the module's notes).
pub fn check(request: &str) -> String {
    answer(request).unwrap_or_else(|why| json!({ "failure": why.to_string() }).to_string())
}

/// Why a request got no check: the page's `failure`, in these words.
#[derive(Debug, thiserror::Error)]
enum Failure {
    #[error("the request is not one: {0}")]
    Request(#[from] serde_json::Error),
    #[error("no game `{0}`")]
    NoGame(String),
    /// The game's own refusal (a state it cannot read, a record it keeps none of).
    #[error(transparent)]
    Game(#[from] GameError),
}

fn answer(request: &str) -> Result<String, Failure> {
    let r: Request = serde_json::from_str(request)?;
    let game = CHECKERS
        .iter()
        .find(|g| g.id() == r.game)
        .ok_or_else(|| Failure::NoGame(r.game.clone()))?;
    let state = r.state.to_string();
    let file = r.file.as_deref().unwrap_or("your orders");
    let checked = game.check(
        &state,
        r.public,
        &r.orders,
        file,
        Some(&r.player),
        Some(&r.name),
    )?;
    let index = judge_core::diagnostic::LineIndex::new(&r.orders);
    let diagnostics: Vec<Value> = checked
        .diagnostics
        .iter()
        .map(|d| {
            let (line, column) = d.span.as_ref().map_or((None, None), |s| {
                let (l, c) = index.line_col(&r.orders, s.start);
                (Some(l), Some(c))
            });
            json!({
                "severity": if d.is_error() { "error" } else { "warning" },
                "line": line,
                "column": column,
                "message": d.message,
                "help": d.help,
            })
        })
        .collect();
    Ok(json!({
        "text": checked.text,
        "errors": checked.errors(),
        "warnings": checked.diagnostics.len() - checked.errors(),
        "diagnostics": diagnostics,
        "echo": checked.echo,
    })
    .to_string())
}

/// The module's four functions, for the page's script: `checker_alloc(n)` gives a
/// buffer of `n` bytes for the request; `checker_run(ptr, n)` reads the request there
/// (and frees it) and gives a pointer to the answer: its length as 4 bytes, little
/// endian, then its UTF-8 bytes; `checker_free(ptr)` frees an answer.
pub mod ffi {
    // The one place the judge reads raw memory: what the page's script wrote into a
    // buffer this module gave it.
    #![allow(unsafe_code)]

    /// A buffer of `len` bytes for the page to write a request into.
    #[unsafe(no_mangle)]
    pub extern "C" fn checker_alloc(len: usize) -> *mut u8 {
        let mut v: Vec<u8> = Vec::with_capacity(len);
        let p = v.as_mut_ptr();
        std::mem::forget(v);
        p
    }

    /// Check the request of `len` bytes at `ptr` (a buffer from `checker_alloc`, freed
    /// here) and give the answer.
    ///
    /// # Safety
    /// `ptr` must come from `checker_alloc(len)`, with `len` bytes written.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn checker_run(ptr: *mut u8, len: usize) -> *mut u8 {
        // SAFETY: the buffer was made by checker_alloc with this capacity, and the page
        // wrote `len` bytes into it.
        let bytes = unsafe { Vec::from_raw_parts(ptr, len, len) };
        let request = String::from_utf8_lossy(&bytes);
        let answer = super::check(&request).into_bytes();
        let mut out = Vec::with_capacity(4 + answer.len());
        out.extend_from_slice(&(answer.len() as u32).to_le_bytes());
        out.extend_from_slice(&answer);
        let boxed = out.into_boxed_slice();
        Box::into_raw(boxed) as *mut u8
    }

    /// Free an answer `checker_run` gave.
    ///
    /// # Safety
    /// `ptr` must be an answer of `checker_run`, freed once.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn checker_free(ptr: *mut u8) {
        // SAFETY: the answer starts with its length, and was a boxed slice of 4 + that
        // many bytes.
        unsafe {
            let len = u32::from_le_bytes([*ptr, *ptr.add(1), *ptr.add(2), *ptr.add(3)]) as usize;
            drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                ptr,
                4 + len,
            )));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checker knows the games the judge knows, in the same order: the two lists
    /// cannot drift apart (a game the judge plays and the page cannot check, or the
    /// other way round).
    #[test]
    fn the_checkers_are_the_judges_games_in_order() {
        let games: Vec<&str> = GAMES.iter().map(|g| g.id()).collect();
        let checkers: Vec<&str> = CHECKERS.iter().map(|c| c.id()).collect();
        assert_eq!(checkers, games);
        assert_eq!(games, ["roads-and-boats", "catan", "catan-express"]);
    }

    /// What `Checks` answers is what the judge's own way through `&dyn Game` answers
    /// (`Game::position` or `Game::public_position`, then `Position::check`): the same
    /// text and echo for orders good and broken, on the archived games' last states, on
    /// their public records (Catan), and the same refusal of a public record Roads &
    /// Boats does not keep and of a state that does not read.
    #[test]
    fn checks_answers_as_the_games_own_position_does() {
        fn same(
            game: &dyn Game,
            checker: &dyn Checks,
            state: &str,
            public: bool,
            orders: &str,
        ) -> usize {
            let by_game = if public {
                game.public_position(state)
            } else {
                game.position(state)
            }
            .map(|p| p.check(orders, "orders.txt", Some("red"), Some("g")));
            let by_checker =
                checker.check(state, public, orders, "orders.txt", Some("red"), Some("g"));
            match (by_game, by_checker) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.text, b.text, "{}: {orders:?}", game.id());
                    assert_eq!(a.echo, b.echo, "{}: {orders:?}", game.id());
                    assert_eq!(a.errors(), b.errors());
                    1
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a.to_string(), b.to_string(), "{}", game.id());
                    0
                }
                (a, b) => panic!(
                    "{}: the game says {:?}, the checker {:?}",
                    game.id(),
                    a.map(|c| c.text),
                    b.map(|c| c.text)
                ),
            }
        }
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/");
        let orders = [
            "",
            "game g\nplayer red\nturn 1\n",
            "move D9: Z99\nbuild castle at Q1 with D1\nfly\n",
            "game g\nplayer red\nturn 999\nroad 1 2\nbuy card\n",
        ];
        let mut checked = 0;
        for (i, (dir, turn)) in [
            ("two-rivers-2p", "008"),
            ("catan-4p", "001"),
            ("catan-express-4p", "068"),
        ]
        .into_iter()
        .enumerate()
        {
            let (game, checker) = (GAMES[i], CHECKERS[i]);
            let state =
                std::fs::read_to_string(format!("{root}{dir}/turns/{turn}/state.json")).unwrap();
            for o in orders {
                checked += same(game, checker, &state, false, o);
                checked += same(game, checker, &state, true, o);
                checked += same(game, checker, "{}", false, o);
            }
            if let Some(record) = game.position(&state).unwrap().public_record() {
                for o in orders {
                    checked += same(game, checker, &record, true, o);
                }
            }
        }
        // At least: every game's state and both Catan games' records, with each file of
        // orders (a state file read as a record may read or not: the same either way).
        assert!(
            checked >= 4 * 3 + 4 * 2,
            "only {checked} answers were compared"
        );
    }
}
