//! "the GM's slips are caught before they hurt": a deadline moved absurdly far,
//! a hand-edited game.toml that seats one player twice, a stray folder under turns/.
//! Each is refused with exit 1, naming what is wrong and where, and no command panics.

use crate::support;

use std::path::{Path, PathBuf};

const NOW: &str = "2026-11-01T00:00:00Z";

fn judge(args: &[&str]) -> (i32, String, String) {
    support::judge_text(args, &[("JUDGE_NOW", NOW)])
}

/// The demo game (red Ann, yellow Bob) with turn 1 due 2026-12-01 18:00, weekly after.
fn game(tmp: &Path) -> PathBuf {
    let dir = tmp.join("demo");
    support::new_demo(&dir, "Ann", &[("JUDGE_NOW", NOW)]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str("\n[schedule]\nfirst_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"7days\"\n");
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    dir
}

/// No run ends in a panic (exit 101) or says nothing.
fn no_panic(what: &str, code: i32, err: &str) {
    assert_ne!(code, 101, "{what} panicked: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

/// `deadline --at 9999-12-31T23:59:59Z` was accepted, and then
/// `deadline --extend 365days` and `turn --force` panicked formatting a time past the
/// year 9999. A deadline more than a year away is refused (exit 1) saying why, game.toml
/// is left as it was, and the game plays on.
#[test]
fn p11_a_far_deadline_is_refused_and_nothing_panics() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = game(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let before = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    for args in [
        ["deadline", d, "--at", "9999-12-31T23:59:59Z", "--quiet"],
        ["deadline", d, "--at", "2028-06-01T00:00:00Z", "--quiet"],
        ["deadline", d, "--at", "2025-06-01T00:00:00Z", "--past"],
    ] {
        let (code, out, err) = judge(&args);
        no_panic(&args.join(" "), code, &err);
        assert_eq!(code, 1, "{args:?} is refused as the GM's slip: {out}{err}");
        assert!(err.contains("more than a year"), "{args:?}: {err}");
        assert!(err.contains("turn 1"), "{args:?} names the turn: {err}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("game.toml")).expect("toml"),
        before,
        "a refused deadline changes nothing"
    );
    // A year past the current deadline is allowed; the next is a year past that one.
    let (code, out, err) = judge(&["deadline", d, "--extend", "365days", "--quiet"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("to 2027-12-01 at 18:00:00 UTC"), "{out}");
    let (code, out, err) = judge(&["turn", d, "--force"]);
    no_panic("turn --force", code, &err);
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.join("turns/001/state.json").is_file(), "{out}");
    let (code, out, err) = judge(&["status", d]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Deadline for turn 2: 2027-12-08 at 18:00:00 UTC"),
        "later deadlines follow on from the moved one: {out}"
    );
}

/// A game.toml edited by hand to a deadline out of range is named with
/// its line, for every command that reads it; the turn after a far deadline is an error,
/// not a panic.
#[test]
fn p11_a_hand_edited_far_deadline_is_named_with_its_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = game(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let path = dir.join("game.toml");
    let good = std::fs::read_to_string(&path).expect("toml");
    for (edit, key) in [
        (
            good.replace("2026-12-01T18:00:00Z", "9999-12-31T23:59:59Z"),
            "first_deadline",
        ),
        (
            format!("{good}\n[schedule.moved]\n1 = \"9999-12-31T23:59:59Z\"\n"),
            "moved.1",
        ),
    ] {
        std::fs::write(&path, &edit).expect("write");
        let line = edit
            .lines()
            .position(|l| l.contains("9999"))
            .expect("the line")
            + 1;
        for args in [
            vec!["status", d],
            vec!["turn", d, "--force"],
            vec!["deadline", d, "--extend", "1h", "--quiet"],
        ] {
            let (code, out, err) = judge(&args);
            no_panic(&args.join(" "), code, &err);
            assert_eq!(code, 1, "{args:?} with {key}: {out}{err}");
            assert!(
                err.contains(&format!("game.toml:{line}:")),
                "{args:?} names the file and line {line}: {err}"
            );
            assert!(err.contains(key), "{args:?} names {key}: {err}");
        }
    }
}

/// The demo game with secrets and mail to a pickup folder; returns it and yellow's
/// (Bob's) secret.
fn mail_game(tmp: &Path) -> (PathBuf, String) {
    let dir = game(tmp);
    let (_, yellow) = support::new_secrets(&dir, &[("JUDGE_NOW", NOW)]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str("\n[mail]\nfrom = \"judge@example.org\"\npickup = \"pickup\"\n");
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    support::ignore_pickup(&dir);
    (dir, yellow)
}

/// The line (1-based) where `what` starts in `text`.
fn line_of(text: &str, what: &str) -> usize {
    let at = text
        .find(what)
        .unwrap_or_else(|| panic!("`{what}` in {text}"));
    text[..at].matches('\n').count() + 1
}

/// A GM's edit of game.toml that seats a player twice (Bob's entry
/// given red's id: his mail was "accepted: red's orders", and yellow was locked out),
/// names a seat the game does not have, leaves a seat without a player or gives two
/// players one address is refused by every command that reads it (exit 1), naming the
/// file, the line and what is wrong; nothing is filed.
#[test]
fn p12_every_seat_has_exactly_one_player_in_game_toml() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, bob) = mail_game(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let path = dir.join("game.toml");
    let good = std::fs::read_to_string(&path).expect("toml");
    let bobs = good.find("id = \"yellow\"").expect("yellow's entry");
    let mail = tmp.path().join("bob.eml");
    std::fs::write(
        &mail,
        format!(
            "From: bob@example.org\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <bob-1@test>\r\n\r\ngame demo\nplayer red\nsecret {bob}\nturn 1\nmovement\nmove D1: C3\n"
        ),
    )
    .expect("mail");
    let m = mail.to_str().expect("utf-8");
    let yellow_block = good
        .find("[[players]]\nid = \"yellow\"")
        .expect("yellow's block");
    let without_yellow = {
        let end = good[yellow_block..]
            .find("\n\n")
            .map_or(good.len(), |e| yellow_block + e + 2);
        format!("{}{}", &good[..yellow_block], &good[end..])
    };
    let cases = [
        (
            format!("{}id = \"red\"{}", &good[..bobs], &good[bobs + 13..]),
            "two players are red",
            Some("id = \"red\"\nname = \"Bob\""),
        ),
        (
            format!("{}id = \"Red\"{}", &good[..bobs], &good[bobs + 13..]),
            "two players are red",
            Some("id = \"Red\""),
        ),
        (
            format!("{}id = \"yelow\"{}", &good[..bobs], &good[bobs + 13..]),
            "`yelow` is not a seat of this game",
            Some("id = \"yelow\""),
        ),
        (
            good.replace("bob@example.org", "ANN@example.org"),
            "have the same address",
            Some("ANN@example.org"),
        ),
        (without_yellow, "yellow's seat has no player", None),
    ];
    for (text, what, at) in &cases {
        std::fs::write(&path, text).expect("write");
        for args in [
            vec!["ingest", d, m],
            vec!["turn", d, "--force"],
            vec!["status", d],
            vec!["secret", d, "--reset"],
            vec!["deadline", d, "--extend", "1h", "--quiet"],
            vec!["mail", d],
        ] {
            let (code, out, err) = judge(&args);
            no_panic(&args.join(" "), code, &err);
            assert_eq!(code, 1, "{args:?} with {what}: {out}{err}");
            assert!(err.contains(what), "{args:?} says {what}: {err}");
            let place = match at {
                Some(at) => format!("game.toml:{}:", line_of(text, at)),
                None => "game.toml:".to_string(),
            };
            assert!(err.contains(&place), "{args:?} names {place}: {err}");
        }
        assert!(
            !dir.join("pending/red.txt").exists() && !dir.join("turns/001").exists(),
            "nothing is filed or played while game.toml is wrong"
        );
        assert!(
            !dir.join("mail/log.jsonl").exists(),
            "Bob's mail is left for when game.toml is right"
        );
    }
    // Put right, the same mail is Bob's (yellow's), and says he is not red.
    std::fs::write(&path, &good).expect("write");
    let (code, out, err) = judge(&["ingest", d, m]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!dir.join("pending/red.txt").exists(), "{out}");
}

/// A stray folder under turns/ (`turns/999`, a gap, a turn named `1`,
/// a file where a turn should be) made every command fail with exit 3, as if a disk had
/// failed. It is the GM's slip: exit 1, naming the folder and how turns are numbered.
#[test]
fn p13_a_stray_turn_folder_is_named_with_exit_1() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = mail_game(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let (code, out, err) = judge(&["turn", d, "--force"]);
    assert_eq!(code, 0, "turn 1 is played: {out}{err}");
    let turns = dir.join("turns");
    let site = tmp.path().join("site");
    let s = site.to_str().expect("utf-8");
    let strays: [(&str, bool, &str); 4] = [
        ("999", true, "turns/999"),
        ("003", true, "turns/003"),
        ("1", true, "turns/1"),
        ("002", false, "turns/002"),
    ];
    for (name, folder, named) in strays {
        let stray = turns.join(name);
        if folder {
            std::fs::create_dir(&stray).expect("mkdir");
            std::fs::write(stray.join("state.json"), "{}").expect("a file in it");
        } else {
            std::fs::write(&stray, "stray").expect("a file");
        }
        for args in [
            vec!["status", d],
            vec!["turn", d, "--force"],
            vec!["show", d],
            vec!["report", d],
            vec!["mail", d],
            vec!["deadline", d, "--extend", "1h", "--quiet"],
            vec!["replay", d],
            vec!["site", d, "-o", s],
        ] {
            let (code, out, err) = judge(&args);
            no_panic(&args.join(" "), code, &err);
            assert_eq!(code, 1, "{args:?} with {named}: {out}{err}");
            assert!(err.contains(named), "{args:?} names {named}: {err}");
            assert!(
                err.contains("000, 001, 002"),
                "{args:?} says how turns are numbered: {err}"
            );
        }
        if folder {
            std::fs::remove_dir_all(&stray).expect("rm");
        } else {
            std::fs::remove_file(&stray).expect("rm");
        }
        assert!(
            !turns.join("002").exists(),
            "no turn was played over the stray"
        );
    }
    // Leftover temporary folders of a killed run, and other names, are still ignored.
    std::fs::create_dir(turns.join(".tmp-x1")).expect("mkdir");
    std::fs::write(turns.join("README"), "notes").expect("write");
    let (code, out, err) = judge(&["status", d]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 turn played"), "{out}");
}

/// Found while catching the GM's slips: a `[mail]` with neither `smtp_host` nor `pickup` was taken,
/// and every report and answer then waited in the outbox for good, each run saying only
/// that mail waits. It is the GM's slip: every command that reads game.toml refuses it
/// (exit 1), naming the file, the `[mail]` line and the two ways to send.
#[test]
fn mail_settings_without_a_way_to_send_are_named() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = mail_game(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let path = dir.join("game.toml");
    let text = std::fs::read_to_string(&path)
        .expect("toml")
        .replace("pickup = \"pickup\"\n", "maildir = \"/var/mail/judge\"\n");
    std::fs::write(&path, &text).expect("write");
    // The table's own line, not the file's comment that mentions it.
    let place = format!("game.toml:{}:", line_of(&text, "\n[mail]\n") + 1);
    for args in [
        vec!["status", d],
        vec!["turn", d, "--force"],
        vec!["mail", d],
    ] {
        let (code, out, err) = judge(&args);
        no_panic(&args.join(" "), code, &err);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(err.contains("no way to send mail"), "{args:?}: {err}");
        assert!(err.contains(&place), "{args:?} names {place}: {err}");
        assert!(
            err.contains("smtp_host") && err.contains("pickup"),
            "{args:?} says how to put it right: {err}"
        );
    }
    assert!(!dir.join("turns/001").exists(), "nothing was played");
}

/// A duration in `[schedule]` the judge cannot read is refused as game.toml is read, by
/// every command: the error names the file, the line and the key, quotes the text, and
/// says the form to write.
#[test]
fn a_bad_schedule_duration_is_named_with_its_file_line_and_key() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = game(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let path = dir.join("game.toml");
    let good = std::fs::read_to_string(&path).expect("toml");
    let edit = good.replace("every = \"7days\"", "every = \"3 dais\"");
    std::fs::write(&path, &edit).expect("write");
    let line = edit
        .lines()
        .position(|l| l.contains("3 dais"))
        .expect("the line")
        + 1;
    for args in [
        vec!["status", d],
        vec!["turn", d, "--force"],
        vec!["deadline", d, "--extend", "1h", "--quiet"],
    ] {
        let (code, out, err) = judge(&args);
        no_panic(&args.join(" "), code, &err);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(
            err.contains(&format!("game.toml:{line}:")),
            "{args:?} names the file and line {line}: {err}"
        );
        assert!(
            err.contains("[schedule] every = \"3 dais\""),
            "{args:?} names the key and quotes the text: {err}"
        );
        assert!(
            err.contains("write a duration like 7days, 48h or 30min"),
            "{args:?} says the form: {err}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(&path).expect("toml"),
        edit,
        "a refused game.toml is left as it was"
    );
}

/// Durations and times are kept as the GM wrote them: a command that writes game.toml
/// back (moving a deadline) leaves every other line of `[schedule]` and `[absent]`
/// byte for byte, however unusual the spelling.
#[test]
fn schedule_durations_are_written_back_as_the_gm_wrote_them() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = game(tmp.path());
    let d = dir.to_str().expect("utf-8");
    let path = dir.join("game.toml");
    let good = std::fs::read_to_string(&path).expect("toml");
    let edit = good.replace(
        "every = \"7days\"\n",
        "every = \"1week\"\nremind = \"720min\"\ngrace = \"2 hours\"\n\n[absent]\ngrace = \"1day 12h\"\nlate_notice = \"90 min\"\n",
    );
    std::fs::write(&path, &edit).expect("write");
    let (code, out, err) = judge(&["status", d]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("reminders 720min before"), "{out}");
    let (code, out, err) = judge(&["deadline", d, "--extend", "1h", "--quiet"]);
    assert_eq!(code, 0, "{out}{err}");
    let after = std::fs::read_to_string(&path).expect("toml");
    assert_ne!(after, edit, "the moved deadline is written");
    for line in [
        "first_deadline = \"2026-12-01T18:00:00Z\"",
        "every = \"1week\"",
        "remind = \"720min\"",
        "grace = \"2 hours\"",
        "grace = \"1day 12h\"",
        "late_notice = \"90 min\"",
    ] {
        assert!(
            after.lines().any(|l| l == line),
            "`{line}` is written back as written: {after}"
        );
    }
    let (code, out, err) = judge(&["status", d]);
    assert_eq!(code, 0, "{out}{err}");
}
