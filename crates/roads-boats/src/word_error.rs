//! Why a word does not read as the thing it should name: the `FromStr` error of the
//! game's plain words (a good, a building, a colour, a brick, a compass point, a
//! direction, a kind of transporter, a transporter's id). Places on the map (an area, a
//! border, a position), which are read from these and from hexes, have their own
//! `PlaceError` (in `map`).
//!
//! Each variant keeps the words it quotes (trimmed, as the reader saw them); its Display
//! is the sentence a player or GM reads, the same words the scenario reader, the order
//! reader and the archive's JSON have always given. It names no type of the crate, so
//! that every file of words can use it without an import circle.

/// Why a plain word of the game does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WordError {
    #[error("`{0}` is not a good")]
    NotAGood(String),
    #[error("`{0}` is not a building")]
    NotABuilding(String),
    #[error("`{0}` is not a player colour: use red, yellow, green, blue, purple or orange")]
    NotAColour(String),
    #[error("`{0}` is not a brick: use a player colour or `neutral`")]
    NotABrick(String),
    #[error("`{0}` is not a compass point")]
    NotACompassPoint(String),
    #[error("`{0}` is not a direction: use N, NE, SE, S, SW or NW")]
    NotADirection(String),
    #[error("`{0}` is not a kind of transporter")]
    NotAKind(String),
    #[error(
        "`{0}` is not a transporter id: write a kind letter (D, W, T, R, B, S, P, E) and a number, like `D2`"
    )]
    NotATransporterId(String),
}

/// A word error's sentence, where a diagnostic quotes it (the order reader's, a
/// scenario's).
impl From<WordError> for String {
    fn from(error: WordError) -> String {
        error.to_string()
    }
}
