//! The files of a game's folder that the pipeline and the site name (the pipeline's read
//! side): a turn's report and map, the press and notices, the round
//! by mail, held orders, the site's pages. Named here once, used by the actions, and
//! using none of them.

use crate::archive::{Archive, HELD_DIR};

pub const REPORT_FILE: &str = "report.txt";
pub const REPORTS_DIR: &str = "reports";
pub const SVG_FILE: &str = "map.svg";
pub const PNG_FILE: &str = "map.png";
/// Where press to everyone is kept, by the turn whose orders were due.
pub const PUBLIC_DIR: &str = "press";
/// Where the GM's notices are kept, by the turn whose report prints them.
pub const NOTICES_DIR: &str = "notices";
/// Where private press is kept (under `mail/`, out of git).
pub const PRIVATE_DIR: &str = "mail/press";
/// Where anonymous press waits for its hour to be out (with the mail, out of git).
pub const WAITING_DIR: &str = "mail/press/waiting";
pub const SETUP_DIR: &str = "setup";
pub const ROUND_FILE: &str = "round.json";
pub const STEP_FILE: &str = "step.json";
pub const CHOICE_FILE: &str = "choice.txt";

fn held_name(turn: u32, seat: &str) -> String {
    format!("{turn:03}-{seat}.txt")
}

/// Held orders are kept for the turn they will be played in.
pub fn held_path(archive: &Archive, turn: u32, seat: &str) -> std::path::PathBuf {
    archive.root().join(HELD_DIR).join(held_name(turn, seat))
}

/// The order guide's page.
pub const GUIDE_FILE: &str = "guide.html";

/// A seat's order writer page.
pub fn writer_file(seat: &str) -> String {
    format!("write-{seat}.html")
}
