//! The game archive: a folder a GM keeps in git. See `docs/archive.md`.
//!
//! ```text
//! <game>/game.toml            the game: kind, scenario, seed, players and addresses
//! <game>/scenario.toml        the scenario it was made from, as written
//! <game>/turns/000/state.json the position after set-up
//! <game>/turns/001/...        each turn: orders as received, state, report
//! ```
//!
//! Nothing here knows the rules of any game: states are stored as the game serialises
//! them. Every write is atomic (see [`atomic`]).
//!
//! One idea a file — `game.toml`'s schema ([`schema`]), the folder
//! and the archive opened on it ([`folder`]), checking game.toml ([`check`]), and what
//! can go wrong ([`error`]); this file lists them and re-exports their items under
//! the old paths (`archive::Archive`, `archive::GameFile`, …).

pub mod atomic;
pub mod check;
pub mod error;
pub mod folder;
pub mod git;
pub mod house;
pub mod lock;
pub mod randomness;
pub mod schedule;
pub mod schema;

pub use check::{AddressError, Key, Slip, check_address, check_folder, read_game_file, span_of};
pub use error::{ArchiveError, NotAGame};
pub use folder::{
    Archive, DRAWS_FILE, EVENTS_FILE, GITIGNORE, HELD_DIR, INBOX_DIR, LOCK_FILE, MAIL_LOG,
    ORDERS_DIR, PENDING_DIR, PUBLIC_FILE, SCENARIO_FILE, STANDING_DIR, STATE_FILE, TURN_FILE,
    content_id, folder_name, gitignore,
};
pub use schedule::Schedule;
pub use schema::{
    AbsentRules, GAME_FILE, GameFile, GmEntry, IMAP_TIMEOUT, LONGEST_SEND_TIMEOUT, MailSettings,
    PlayerEntry, Press, SEND_TIMEOUT, SendTimeoutError,
};

pub use crate::json::stable_json;

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn game() -> GameFile {
        GameFile {
            game: "some-game".into(),
            name: None,
            scenario: "test".into(),
            seed: 1,
            players: vec![PlayerEntry {
                id: "red".into(),
                name: "Ann".into(),
                email: "ann@example.org".into(),
                secret_hash: None,
            }],
            mail: None,
            schedule: None,
            press: None,
            paused: None,
            rated: None,
            gm: None,
            absent: None,
            notify: None,
        }
    }

    #[test]
    fn an_archive_is_created_whole_and_reopened() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("g");
        Archive::create(
            &dir,
            game(),
            "x = 1\n",
            &[("turns/000/state.json", b"{}\n".to_vec())],
            &[],
        )
        .expect("create");
        let a = Archive::open(&dir).expect("open");
        assert_eq!(a.game, game());
        assert_eq!(a.turns().expect("turns"), vec![0]);
        assert_eq!(a.read(0, STATE_FILE).expect("read"), "{}\n");
        // No temporary folders are left beside it.
        let names: Vec<_> = fs::read_dir(tmp.path())
            .expect("ls")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("g")]);
    }

    /// `[mail] send_timeout` is read when game.toml is, and bounded.
    #[test]
    fn the_send_timeout_is_checked_with_the_file() {
        let mut g = game();
        let mut m = MailSettings {
            from: "judge@example.org".into(),
            pickup: Some("/var/spool/judge".into()),
            ..MailSettings::default()
        };
        assert_eq!(m.send_timeout(), Ok(SEND_TIMEOUT));
        m.send_timeout = Some("2min".into());
        assert_eq!(m.send_timeout(), Ok(std::time::Duration::from_secs(120)));
        for bad in ["0s", "1year", "soon"] {
            m.send_timeout = Some(bad.into());
            g.mail = Some(m.clone());
            let slips = g.slips();
            assert_eq!(slips.len(), 1, "{bad}");
            assert_eq!(
                slips[0].at,
                [Key::Name("mail".into()), Key::Name("send_timeout".into())]
            );
            assert!(
                slips[0].message.starts_with("[mail] send_timeout = "),
                "{bad}"
            );
        }
    }

    /// The typed errors of game.toml's settings say what the strings said.
    #[test]
    fn settings_errors_keep_their_words() {
        let mut m = MailSettings {
            send_timeout: Some("11min".into()),
            ..MailSettings::default()
        };
        assert_eq!(
            m.send_timeout().map_err(|e| e.to_string()),
            Err("[mail] send_timeout = \"11min\": write a duration from 1s to 10m".into())
        );
        m.send_timeout = Some("soon".into());
        let why = humantime::parse_duration("soon").expect_err("not a duration");
        assert_eq!(
            m.send_timeout().map_err(|e| e.to_string()),
            Err(format!(
                "[mail] send_timeout = \"soon\": {why}; write a duration like 30s or 2min"
            ))
        );
        let why = "ann"
            .parse::<lettre::Address>()
            .expect_err("not an address");
        assert_eq!(
            check_address("ann").map_err(|e| e.to_string()),
            Err(format!("`ann` is not a mail address ({why})"))
        );
        let mut g = game();
        assert_eq!(g.validate(), Ok(()));
        let ann = g.players[0].clone();
        g.players.push(ann);
        assert_eq!(
            g.validate().map_err(|s| s.to_string()),
            Err("two players are red: Ann and Ann; a seat is one player's".into())
        );
    }

    #[test]
    fn an_existing_game_is_never_overwritten() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("g");
        Archive::create(&dir, game(), "", &[], &[]).expect("create");
        let again = Archive::create(&dir, game(), "", &[], &[]);
        assert!(matches!(again, Err(ArchiveError::Exists(_))));
        let a = Archive::open(&dir).expect("open");
        a.write_turn(0, &[(STATE_FILE, b"0".to_vec())])
            .expect("turn 0");
        a.write_turn(1, &[(STATE_FILE, b"1".to_vec())])
            .expect("turn 1");
        assert!(matches!(
            a.write_turn(1, &[(STATE_FILE, b"2".to_vec())]),
            Err(ArchiveError::TurnExists { .. })
        ));
        assert_eq!(a.read(1, STATE_FILE).expect("read"), "1");
        assert_eq!(a.pick_turn(None).expect("latest"), 1);
        assert!(matches!(
            a.pick_turn(Some(7)),
            Err(ArchiveError::NoSuchTurn { .. })
        ));
    }
}
