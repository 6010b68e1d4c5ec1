//! `judge site`: a static web site of a game, made from its archive alone — a page per
//! turn (the map as inline SVG, the public report, and each player's orders once the
//! turn is played) and an overview (the players, their scores over the turns as a
//! chart, the game's progress, who sent orders each turn).
//!
//! What a page may show is what the public record holds: the turn's public
//! `report.txt`, its picture, its `turn.json`, and its played orders unless the game
//! keeps them private ([`Game::private_files`]: hidden hands). Pending, held
//! and standing orders, mail, secrets and addresses are never read. The counts charted
//! come from each turn's report ([`Report::tally`]), which gives only what everyone may
//! see.
//!
//! Reading the archive ([`collect`]) is apart from making the pages ([`render`], a
//! pure function of what was read), so the same archive always gives the same bytes.
//! The game is reached only through the [`Game`] interface.

mod chart;
mod page;

pub use page::GUIDE_FILE;
mod safe;

use std::collections::BTreeMap;

use crate::archive::Archive;
use crate::pbem::Error;
use crate::pbem::game::{Game, Tally};
use crate::pbem::report::{REPORT_FILE, SVG_FILE};
use crate::pbem::turn::{TurnRecord, record};

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
    /// The kind of game, for people ([`Game::title`]).
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

/// Does the game keep this path of its folder out of the public record?
/// `path` is relative to the game folder (`turns/001/orders/red.txt`); the patterns are
/// those of [`Game::private_files`], as in a `.gitignore` (`/turns/*/orders/`).
pub fn is_private(game: &dyn Game, path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    game.private_files().iter().any(|pattern| {
        let dir = pattern.ends_with('/');
        let pat: Vec<&str> = pattern.split('/').filter(|p| !p.is_empty()).collect();
        let fits = |n: usize| {
            pat.iter()
                .zip(&parts[..n])
                .all(|(p, s)| *p == "*" || p == s)
        };
        if dir {
            parts.len() > pat.len() && fits(pat.len())
        } else {
            parts.len() == pat.len() && fits(pat.len())
        }
    })
}

/// A `secret` line's value blanked, whatever a file holds (the archive keeps orders
/// with their secrets blanked already: this makes sure).
fn blank_secrets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_start();
        let first = body.split_whitespace().next().unwrap_or("");
        if first.eq_ignore_ascii_case("secret") {
            let indent = &line[..line.len() - body.len()];
            out.push_str(indent);
            out.push_str(&body[..first.len()]);
            out.push(' ');
            out.push_str(crate::mail::redact::BLANK);
            if line.ends_with('\n') {
                out.push('\n');
            }
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Read what the site shows from the archive: the game, and each turn (calling `tick`
/// after each, for a progress bar).
pub fn collect(
    archive: &Archive,
    game: &dyn Game,
    tick: &mut dyn FnMut(),
) -> Result<(Overview, Vec<Turn>), Error> {
    let numbers = archive.turns()?;
    let Some(&last) = numbers.last() else {
        return Err(Error::input(format!(
            "{} has no turns yet: its site can be made once turn 0 is (after its round by mail)",
            archive.root().display()
        )));
    };
    let template = crate::pbem::report::template(archive)?;
    let shows_orders = !is_private(game, "turns/001/orders/red.txt");
    let mut turns = Vec::new();
    for &number in &numbers {
        let report = crate::pbem::report::of_turn(archive, game, number)?;
        let dir = archive.turn_dir(number);
        // What the players were sent, as kept; turn 0 keeps neither file.
        // A file that is a symbolic link is refused, never published (Archive::no_link).
        let kept = |name: &str| -> Result<Option<String>, Error> {
            Ok(archive
                .read_own(&dir.join(name))?
                .and_then(|b| String::from_utf8(b).ok()))
        };
        let svg = match kept(SVG_FILE)? {
            Some(kept) if safe::is_plain_svg(&kept) => kept,
            _ => report.svg(),
        };
        let text = match kept(REPORT_FILE)? {
            Some(kept) => kept,
            None => report
                .text(template.as_deref(), None)
                .map_err(Error::from)?,
        };
        let orders = if shows_orders && number > 0 {
            crate::pbem::report::orders_of(archive, number)?
                .into_iter()
                .map(|f| (f.player, blank_secrets(&f.text)))
                .collect()
        } else {
            Vec::new()
        };
        turns.push(Turn {
            number,
            svg,
            report: text,
            orders,
            record: record(archive, number),
            tally: report.tally(),
        });
        tick();
    }
    let at_end = crate::pbem::position(archive, game, last)?;
    let seats = archive
        .game
        .players
        .iter()
        .map(|p| Seat {
            id: p.id.clone(),
            name: p.name.clone(),
        })
        .collect();
    let overview = Overview {
        name: archive.name(),
        title: game.title().to_string(),
        scenario: archive.game.scenario.clone(),
        seats,
        over: at_end.over(),
        shows_orders,
        dice: crate::pbem::verify::announcement(archive)?,
        guide: Some(game.order_guide_text())
            .filter(|t| !t.is_empty())
            .map(|t| (game.order_guide().1.to_string(), t.to_string())),
    };
    Ok((overview, turns))
}

/// The site's files: `index.html` (the overview), `turn-NNN.html` per turn, the style
/// sheet and the keyboard script.
pub fn render(overview: &Overview, turns: &[Turn]) -> Files {
    let mut files = Files::new();
    files.insert("style.css".into(), page::STYLE.as_bytes().to_vec());
    files.insert("keys.js".into(), page::KEYS.as_bytes().to_vec());
    files.insert(
        "index.html".into(),
        page::overview(overview, turns).into_bytes(),
    );
    if let Some((doc, text)) = &overview.guide {
        files.insert(
            page::GUIDE_FILE.into(),
            page::guide(overview, doc, text).into_bytes(),
        );
    }
    let last = turns.last().map_or(0, |t| t.number);
    for (i, t) in turns.iter().enumerate() {
        let prev = i.checked_sub(1).map(|k| turns[k].number);
        let next = turns.get(i + 1).map(|t| t.number);
        files.insert(
            page::turn_file(t.number),
            page::turn(overview, t, prev, next, last).into_bytes(),
        );
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_line_is_blanked_whatever_its_case_and_indent() {
        let text = "game g\nplayer red\n  Secret abcd-efgh-jkmn\nsecret\norders\n";
        let out = blank_secrets(text);
        assert!(!out.contains("abcd-efgh-jkmn"), "{out}");
        assert!(out.contains("  Secret [secret]\n"), "{out}");
        assert!(out.contains("game g\nplayer red\n"));
        assert!(out.ends_with("orders\n"));
    }
}
