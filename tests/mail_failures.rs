//! Issue 21, point 16: mail that cannot be sent. The exit status says so (3: it waits
//! and may go later; 1: the server refused it for good and the GM must act); a refused
//! mail is given up, not tried forever, and `judge status` names it; a server that takes
//! the connection and never answers costs one short, configurable time, with the game's
//! lock free all the while. The servers are real sockets on 127.0.0.1: a port nobody
//! listens on, a tiny scripted SMTP server, one that accepts and never answers.

mod support;

use std::path::{Path, PathBuf};

const NOW: &str = "2026-11-01T00:00:00Z";

fn judge(args: &[&str]) -> (i32, String, String) {
    support::judge_text(args, &[("JUDGE_NOW", NOW)])
}

/// A port nobody listens on: taken, then freed.
fn dead_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

/// The demo game (red Ann, yellow Bob) with secrets, turn 1 due (its deadline passed),
/// sending through 127.0.0.1:`port` (and `extra` lines in [mail]), red's demo orders
/// waiting; returns it and Bob's secret.
fn game(tmp: &Path, port: u16, extra: &str) -> (PathBuf, String) {
    let dir = tmp.join("demo");
    support::new_demo(&dir, "Ann", &[("JUDGE_NOW", NOW)]);
    let (_, yellow) = support::new_secrets(&dir, &[("JUDGE_NOW", NOW)]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str(&format!(
        "\n[schedule]\nfirst_deadline = \"2026-10-31T18:00:00Z\"\nevery = \"7days\"\n\n[mail]\nfrom = \"Judge <judge@example.org>\"\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {port}\nsmtp_security = \"none\"\n{extra}"
    ));
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    std::fs::create_dir_all(dir.join("pending")).expect("pending");
    std::fs::copy("games/demo/pending/red.txt", dir.join("pending/red.txt")).expect("copy");
    (dir, yellow)
}

/// Keys of the mails waiting in the outbox.
fn waiting(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.join("outbox"))
        .map(|d| {
            d.flatten()
                .filter_map(|e| {
                    e.file_name()
                        .to_str()
                        .and_then(|n| n.strip_suffix(".eml"))
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Issue 21, point 16: with the SMTP server down, `judge turn` played the turn and
/// exited 0 while the reports stayed unsent; `judge mail` exited 3. Every command that
/// sends now says so the same way: exit 3, naming how many mails wait. With --no-send
/// nothing was meant to go, and the run exits 0.
#[test]
fn p16_every_command_that_sends_exits_3_while_mail_waits() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, bob) = game(tmp.path(), dead_port(), "");
    let d = dir.to_str().expect("utf-8");
    let (code, out, err) = judge(&["turn", d]);
    assert_eq!(code, 3, "the turn is played, its reports wait: {out}{err}");
    assert!(dir.join("turns/001/state.json").is_file(), "{out}");
    assert!(err.contains("2 mails are still in the outbox"), "{err}");
    assert_eq!(waiting(&dir), ["report-001-red", "report-001-yellow"]);
    // A run with nothing to play still has mail that did not go.
    let (code, out, err) = judge(&["turn", d]);
    assert_eq!(code, 3, "{out}{err}");
    let (code, out, err) = judge(&["mail", d]);
    assert_eq!(code, 3, "{out}{err}");
    let (code, out, err) = judge(&["turn", d, "--no-send"]);
    assert_eq!(code, 0, "--no-send sends nothing on purpose: {out}{err}");
    let mail = tmp.path().join("bob.eml");
    std::fs::write(
        &mail,
        format!(
            "From: bob@example.org\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <bob-1@test>\r\n\r\ngame demo\nplayer yellow\nsecret {bob}\nturn 2\n"
        ),
    )
    .expect("mail");
    let m = mail.to_str().expect("utf-8");
    let (code, out, err) = judge(&["ingest", d, m]);
    assert_eq!(code, 3, "the answer waits: {out}{err}");
    assert!(
        out.contains("accepted"),
        "the mail is filed all the same: {out}"
    );
    assert!(err.contains("3 mails are still in the outbox"), "{err}");
    let (code, out, err) = judge(&["deadline", d, "--extend", "1h"]);
    assert_eq!(code, 3, "the deadline moved, the notices wait: {out}{err}");
    assert!(out.contains("The deadline for turn 2 moved"), "{out}");
    let (code, out, err) = judge(&["end", d, "--why", "a test"]);
    assert_eq!(code, 3, "the game ended, the reports wait: {out}{err}");
    assert!(dir.join("turns/002/state.json").is_file(), "{out}");
    let (code, out, _) = judge(&["status", d]);
    assert_eq!(code, 0);
    assert!(out.contains("Outbox: 7 mails waiting"), "{out}");
    // The exit codes are documented where a GM looks.
    let (_, help, _) = judge(&["turn", "--help"]);
    assert!(
        help.contains("3  something failed that may work later")
            && help.contains("mail that could not be sent"),
        "{help}"
    );
    let guide = std::fs::read_to_string("docs/gm-guide.md").expect("guide");
    assert!(
        guide.contains("still in the outbox: exit 3"),
        "docs/gm-guide.md"
    );
}
