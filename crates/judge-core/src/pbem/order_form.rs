//! The order file a player fills (the pipeline's read side): its
//! header and the game's template, and where the order guide and the order writer are.

use super::game::{Game, Pace, Position};
use crate::archive::Archive;

/// Where players read the game's order guide: its page on the game's site
/// (`guide.html`, which `judge site` writes) when the game has a site, else the docs
/// file's name.
pub fn guide_named(archive: &Archive, game: &dyn Game) -> String {
    match archive.mail().and_then(|m| m.site.clone()) {
        Some(site) if !game.order_guide_text().is_empty() => {
            format!(
                "{}/{}",
                site.trim_end_matches('/'),
                super::layout::GUIDE_FILE
            )
        }
        _ => format!("{} (ask the GM for a copy)", game.order_guide().1),
    }
}

/// Where `seat` writes orders on the map: their order writer page on the game's site
/// (`write-SEAT.html`, which `judge site` writes while the game runs), when the game has
/// a site and a writer for the position.
pub fn writer_named(archive: &Archive, position: &dyn Position, seat: &str) -> Option<String> {
    let site = archive.mail().and_then(|m| m.site.clone())?;
    position.writer(seat)?;
    Some(format!(
        "{}/{}",
        site.trim_end_matches('/'),
        super::layout::writer_file(seat)
    ))
}

/// An order file for `seat`'s next orders, ready to fill, indented as a mail quotes it:
/// the header (the secret left as YOUR-SECRET, which the judge never mails) and the
/// game's template (each phase's heading, and what the game lists for the seat).
pub fn order_template(
    archive: &Archive,
    game: &dyn Game,
    position: &dyn Position,
    seat: &str,
) -> String {
    let mut t: String = order_header(archive, game, position, seat)
        .lines()
        .map(|l| format!("    {l}\n"))
        .collect();
    t.push('\n');
    t.push_str(&order_body(position, seat));
    t
}

/// The header lines of `seat`'s next order file (`game`, `player`, `turn`), the secret
/// left as YOUR-SECRET for the player to fill.
pub fn order_header(
    archive: &Archive,
    game: &dyn Game,
    position: &dyn Position,
    seat: &str,
) -> String {
    let name = archive.name();
    let next = position.turn() + 1;
    let mut t = format!("game {name}\nplayer {seat}\n");
    if archive.turn_dir(0).is_dir() && game.pace() == Pace::Together {
        t.push_str(&format!("turn {next}\n"));
    }
    t.push_str("secret YOUR-SECRET\n");
    t
}

/// The game's template for `seat` below the header lines (each phase's heading, and
/// what the game lists for the seat), indented as a mail quotes it.
pub fn order_body(position: &dyn Position, seat: &str) -> String {
    let mut t = String::new();
    for l in position.template(seat).lines() {
        if l.trim().is_empty() {
            t.push('\n');
        } else {
            t.push_str(&format!("    {l}\n"));
        }
    }
    t
}
