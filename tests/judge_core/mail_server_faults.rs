//! The GM's own mail servers when they fail — silent, down,
//! refusing the login, spoken to in the wrong TLS mode — and a password that would go in
//! clear. Each command ends within its documented time (`[mail] imap_timeout`, here 2s),
//! exits with the documented code (1: the settings are the GM's to fix; 3: the server
//! may come back), and leaves the game's lock free. The servers are sockets on
//! 127.0.0.1 run by the test: one that accepts and never answers, tiny scripted IMAP and
//! SMTP servers. (TLS with real servers and a test CA: tests/judge_core/mail.rs, the slow tier.)

use crate::support;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const NOW: &str = "2026-11-01T00:00:00Z";
const PASS: &str = "imap-pass";

fn judge(args: &[&str]) -> (i32, String, String, Duration) {
    let started = Instant::now();
    let (code, out, err) = support::judge_text(
        args,
        &[
            ("JUDGE_NOW", NOW),
            ("JUDGE_IMAP_PASSWORD", PASS),
            ("JUDGE_SMTP_PASSWORD", "smtp-pass"),
        ],
    );
    (code, out, err, started.elapsed())
}

/// A server that accepts every connection and never says a word; its port.
fn silent() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in l.incoming().flatten() {
            held.push(c);
        }
    });
    port
}

/// A port nobody listens on.
fn dead_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

/// A line server: `greeting` first, then each line read is answered by `answer`
/// (nothing when it gives an empty string).
fn scripted(greeting: &'static str, answer: fn(&str) -> String) -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for c in l.incoming().flatten() {
            std::thread::spawn(move || serve_lines(c, greeting, answer));
        }
    });
    port
}

fn serve_lines(mut c: TcpStream, greeting: &str, answer: fn(&str) -> String) {
    let _ = c.write_all(greeting.as_bytes());
    let Ok(read) = c.try_clone() else { return };
    for line in BufReader::new(read).lines() {
        let Ok(line) = line else { return };
        let a = answer(&line);
        if !a.is_empty() && c.write_all(a.as_bytes()).is_err() {
            return;
        }
    }
}

/// An IMAP server that refuses every login.
fn imap_refusing_logins(line: &str) -> String {
    let tag = line.split(' ').next().unwrap_or("*");
    if line.to_ascii_uppercase().contains("CAPABILITY") {
        format!("* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n{tag} OK done\r\n")
    } else {
        format!("{tag} NO [AUTHENTICATIONFAILED] Authentication failed.\r\n")
    }
}

/// An SMTP server that refuses every login (535).
fn smtp_refusing_logins(line: &str) -> String {
    let up = line.to_ascii_uppercase();
    if up.starts_with("EHLO") {
        "250-test.example\r\n250 AUTH PLAIN LOGIN\r\n".into()
    } else if up.starts_with("AUTH") {
        "535 5.7.8 Authentication credentials invalid\r\n".into()
    } else if up.starts_with("QUIT") {
        "221 bye\r\n".into()
    } else {
        "500 what?\r\n".into()
    }
}

/// The demo game (red Ann, yellow Bob) with secrets, turn 1 due at `deadline`, red's
/// demo orders waiting, mail sent into a pickup folder (or as `smtp` says), read from
/// IMAP as `imap` says (lines of [mail]).
fn game(tmp: &Path, deadline: &str, imap: &str, smtp: Option<&str>) -> (PathBuf, PathBuf) {
    let dir = tmp.join("demo");
    support::new_demo(&dir, "Ann", &[("JUDGE_NOW", NOW)]);
    support::new_secrets(&dir, &[("JUDGE_NOW", NOW)]);
    let pickup = tmp.join("pickup");
    std::fs::create_dir_all(&pickup).expect("pickup");
    let send = match smtp {
        Some(s) => s.to_string(),
        None => format!("pickup = \"{}\"", pickup.display()),
    };
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str(&format!(
        "\n[schedule]\nfirst_deadline = \"{deadline}\"\nevery = \"7days\"\nremind = \"2days\"\n\n[mail]\nfrom = \"Judge <judge@example.org>\"\n{send}\nimap_user = \"judge\"\nimap_timeout = \"2s\"\n{imap}\n"
    ));
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    std::fs::create_dir_all(dir.join("pending")).expect("pending");
    std::fs::copy("games/demo/pending/red.txt", dir.join("pending/red.txt")).expect("copy");
    (dir, pickup)
}

fn files_in(dir: &Path) -> Vec<String> {
    support::file_names(dir)
}

/// An IMAP server that accepts and never answers hung `judge turn`
/// for good while it held the game's lock. Now the wait for its greeting ends at
/// `imap_timeout`, the command exits 3 naming the wait and the setting, the due turn is
/// not played, and a second command right after gets the lock (it is not 4, "busy").
#[test]
fn p12_a_silent_imap_server_costs_its_timeout_and_frees_the_lock() {
    let tmp = tempfile::tempdir().expect("tmp");
    let port = silent();
    let imap = format!("imap_host = \"127.0.0.1\"\nimap_port = {port}\nimap_security = \"none\"");
    let (dir, _) = game(tmp.path(), "2026-10-31T18:00:00Z", &imap, None);
    let d = dir.to_str().expect("utf-8");
    for run in 0..2 {
        let (code, out, err, took) = judge(&["turn", d]);
        assert_eq!(code, 3, "run {run}: {out}{err}");
        assert!(took < Duration::from_secs(10), "run {run} took {took:?}");
        assert!(
            took >= Duration::from_secs(2),
            "the wait is the setting's: {took:?}"
        );
        assert!(err.contains("did not answer within 2s"), "{err}");
        assert!(err.contains("imap_timeout"), "{err}");
        assert!(
            out.contains("turn 1 is due, but the mailbox could not be read"),
            "{out}"
        );
        assert!(!dir.join("turns/001").exists(), "no turn is played: {out}");
    }
    // STARTTLS (the default) aimed at a port that waits for TLS first: the same wait,
    // and the hint of the fix.
    let (code, out, err, took) = judge(&[
        "ingest",
        d,
        "--imap",
        &format!("127.0.0.1:{port}"),
        "--user",
        "judge",
        "--imap-security",
        "starttls",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert!(err.contains("imap_security = \"tls\""), "{err}");
}

/// With the IMAP server down, nothing else happened: no reminder, no
/// outbox. Now the reminders due go out (here into the pickup folder), the turn that is
/// not due yet stays so, and the run exits 3 with the reason.
#[test]
fn p14_with_imap_down_the_reminders_and_the_outbox_still_go() {
    let tmp = tempfile::tempdir().expect("tmp");
    let imap = format!(
        "imap_host = \"127.0.0.1\"\nimap_port = {}\nimap_security = \"none\"",
        dead_port()
    );
    // The deadline in a day: inside the two days of `remind`.
    let (dir, pickup) = game(tmp.path(), "2026-11-02T00:00:00Z", &imap, None);
    let d = dir.to_str().expect("utf-8");
    let (code, out, err, _) = judge(&["turn", d]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("cannot be reached"), "{err}");
    assert!(out.contains("reminded yellow"), "{out}");
    let sent = files_in(&pickup);
    assert!(
        sent.iter().any(|f| f.contains("remind")),
        "the reminder went out: {sent:?}\n{out}"
    );
    assert!(
        files_in(&dir.join("outbox"))
            .iter()
            .all(|f| !f.ends_with(".eml"))
    );
}

/// IMAP down exited 1 ("fix your input"); a refused IMAP login is
/// the GM's to fix. Down: 3; refused login: 1, naming the user and the setting.
#[test]
fn p13_imap_down_is_3_and_a_refused_login_is_1() {
    let tmp = tempfile::tempdir().expect("tmp");
    let imap = format!(
        "imap_host = \"127.0.0.1\"\nimap_port = {}\nimap_security = \"none\"",
        dead_port()
    );
    let (dir, _) = game(tmp.path(), "2026-11-20T00:00:00Z", &imap, None);
    let d = dir.to_str().expect("utf-8");
    let (code, out, err, _) = judge(&["ingest", d]);
    assert_eq!(code, 3, "judge ingest DIR reads [mail]'s INBOX: {out}{err}");
    assert!(err.contains("cannot be reached"), "{err}");

    let port = scripted("* OK ready\r\n", imap_refusing_logins);
    let (code, out, err, _) = judge(&[
        "ingest",
        d,
        "--imap",
        &format!("127.0.0.1:{port}"),
        "--imap-security",
        "none",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("refused the login as judge"), "{err}");
    assert!(err.contains("imap_user"), "{err}");
}

/// A wrong SMTP password exited 3, so cron retried a settings error
/// for ever. Now 1, naming the user and the variable the password is read from; the
/// mail waits in the outbox.
#[test]
fn p13_a_refused_smtp_login_exits_1() {
    let tmp = tempfile::tempdir().expect("tmp");
    let port = scripted("220 test.example ESMTP\r\n", smtp_refusing_logins);
    let smtp = format!(
        "smtp_host = \"127.0.0.1\"\nsmtp_port = {port}\nsmtp_security = \"none\"\nsmtp_user = \"judge\""
    );
    let (dir, _) = game(tmp.path(), "2026-10-31T18:00:00Z", "", Some(&smtp));
    let d = dir.to_str().expect("utf-8");
    let (code, out, err, _) = judge(&["turn", d]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("refused the login as judge"), "{err}");
    assert!(err.contains("JUDGE_SMTP_PASSWORD"), "{err}");
    assert!(
        dir.join("turns/001/state.json").is_file(),
        "the turn is played: {out}"
    );
    assert!(
        files_in(&dir.join("outbox"))
            .iter()
            .any(|f| f.ends_with(".eml")),
        "the reports wait"
    );
}

/// `*_security = "none"` sent the password in clear to any host.
/// Now a password goes over plain text only to the loopback; to another host it is
/// refused before anything is dialled (exit 1, at once), naming the key and the fix;
/// `allow_plain_password = true` lets it go.
#[test]
fn p16_a_password_in_clear_to_another_host_is_refused() {
    let tmp = tempfile::tempdir().expect("tmp");
    // 192.0.2.1 (TEST-NET-1) answers nothing: a command that dialled it would hang.
    let imap = "imap_host = \"192.0.2.1\"\nimap_security = \"none\"";
    let smtp = "smtp_host = \"192.0.2.1\"\nsmtp_security = \"none\"\nsmtp_user = \"judge\"";
    let (dir, _) = game(tmp.path(), "2026-11-20T00:00:00Z", imap, Some(smtp));
    let d = dir.to_str().expect("utf-8");
    let (code, out, err, took) = judge(&["ingest", d]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(took < Duration::from_secs(2), "nothing dialled: {took:?}");
    assert!(err.contains("imap_security = \"none\""), "{err}");
    assert!(err.contains("allow_plain_password = true"), "{err}");
    assert!(!err.contains(PASS), "{err}");
    // SMTP likewise: the turn is played, its reports wait, the run exits 1 at once.
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = game(tmp.path(), "2026-10-31T18:00:00Z", "", Some(smtp));
    let d = dir.to_str().expect("utf-8");
    let (code, out, err, took) = judge(&["turn", d]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(took < Duration::from_secs(5), "nothing dialled: {took:?}");
    assert!(err.contains("smtp_security = \"none\""), "{err}");
    assert!(err.contains("allow_plain_password = true"), "{err}");
    assert!(dir.join("turns/001/state.json").is_file(), "{out}");
}

/// `imap_security = "tls"` aimed at a plain port said only
/// "received corrupt message of type InvalidContentType". Now it says what is wrong and
/// the fix, and exits 1 (the settings').
#[test]
fn p15_tls_aimed_at_a_plain_port_names_the_fix() {
    let tmp = tempfile::tempdir().expect("tmp");
    let port = scripted("* OK ready\r\n", imap_refusing_logins);
    let imap = format!("imap_host = \"127.0.0.1\"\nimap_port = {port}\nimap_security = \"tls\"");
    let (dir, _) = game(tmp.path(), "2026-11-20T00:00:00Z", &imap, None);
    let d = dir.to_str().expect("utf-8");
    let (code, out, err, _) = judge(&["ingest", d]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("does not speak TLS at once"), "{err}");
    assert!(err.contains("imap_security = \"starttls\""), "{err}");
}

/// `--imap ::1` was split into host `:` and port 1, and `[::1]`
/// failed. Both are the IPv6 loopback now (here with no server on the port: "cannot be
/// reached", exit 3, the address shown in brackets).
#[test]
fn p15_ipv6_literals_are_hosts() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = game(tmp.path(), "2026-11-20T00:00:00Z", "", None);
    let d = dir.to_str().expect("utf-8");
    let port = dead_port().to_string();
    for spec in [format!("[::1]:{port}"), "::1".to_string()] {
        let (code, out, err, took) = judge(&[
            "ingest",
            d,
            "--imap",
            &spec,
            "--user",
            "judge",
            "--imap-security",
            "none",
        ]);
        assert_eq!(code, 3, "{spec}: {out}{err}");
        assert!(took < Duration::from_secs(10), "{took:?}");
        assert!(err.contains("[::1]:"), "{spec}: {err}");
        assert!(!err.contains("port is not a number"), "{spec}: {err}");
    }
}

/// `judge serve` on an IMAP server that accepts and never answers
/// said nothing and ignored SIGTERM (its pass waited on the server for good). Now
/// SIGTERM ends the wait within a second: the server logs why the pass stopped and
/// exits 0 within seconds, though `imap_timeout` here is a minute.
#[test]
fn p12_judge_serve_on_a_silent_imap_server_stops_on_sigterm() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("games");
    let pickup = tmp.path().join("pickup");
    std::fs::create_dir_all(&root).expect("mkdir");
    std::fs::create_dir_all(&pickup).expect("mkdir");
    std::fs::write(
        root.join("judge.toml"),
        format!(
            "[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"{}\"\nimap_host = \"127.0.0.1\"\nimap_port = {}\nimap_user = \"judge\"\nimap_security = \"none\"\nimap_timeout = \"1min\"\n",
            pickup.display(),
            silent()
        ),
    )
    .expect("judge.toml");
    let log = tmp.path().join("serve.log");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["serve", root.to_str().expect("utf-8")])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("JUDGE_IMAP_PASSWORD", PASS)
        .stdout(std::fs::File::create(&log).expect("log"))
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("judge serve starts");
    let said = || std::fs::read_to_string(&log).unwrap_or_default();
    let start = Instant::now();
    while !said().contains("serving") {
        assert!(start.elapsed() < Duration::from_secs(20), "{}", said());
        std::thread::sleep(Duration::from_millis(50));
    }
    // The first pass is now waiting for the silent server's greeting.
    std::thread::sleep(Duration::from_millis(1500));
    let ok = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(ok.success());
    let stopped = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if stopped.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no exit within 10s of SIGTERM: {}", said());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        stopped.elapsed() < Duration::from_secs(5),
        "{:?}",
        stopped.elapsed()
    );
    assert_eq!(status.code(), Some(0), "{}", said());
    let text = said();
    // The pass goes on without the mailbox (point 14: the games' other work is done,
    // every due turn waits), and says why.
    assert!(
        text.contains("the shared mailbox could not be read"),
        "the failure is logged: {text}"
    );
    assert!(text.contains("127.0.0.1"), "{text}");
    assert!(text.contains("stopped:"), "{text}");
}

/// For a folder of games under one address (`judge turn --all`,
/// as `judge serve` runs it): with the shared mailbox's server down, the pass stepped
/// no game at all, so no reminder and no outbox went. Now every game is stepped: the
/// reminder of a game whose deadline is near goes out, a game whose turn is due waits
/// for the mailbox (orders sent on time may be there), and the pass exits 3 with why.
#[test]
fn p14_a_folder_with_its_mailbox_down_still_reminds_and_holds_the_due_turn() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("games");
    let pickup = tmp.path().join("pickup");
    std::fs::create_dir_all(&pickup).expect("pickup");
    std::fs::create_dir_all(&root).expect("games");
    std::fs::write(
        root.join("judge.toml"),
        format!(
            "[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"{}\"\nimap_host = \"127.0.0.1\"\nimap_port = {}\nimap_security = \"none\"\nimap_user = \"judge\"\nimap_timeout = \"2s\"\n",
            pickup.display(),
            dead_port()
        ),
    )
    .expect("judge.toml");
    // `near`: its deadline in a day, inside `remind`; `due`: its deadline passed.
    for (name, deadline) in [
        ("near", "2026-11-02T00:00:00Z"),
        ("due", "2026-10-31T00:00:00Z"),
    ] {
        let dir = root.join(name);
        support::new_demo(&dir, "Ann", &[("JUDGE_NOW", NOW)]);
        support::new_secrets(&dir, &[("JUDGE_NOW", NOW)]);
        let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
        toml.push_str(&format!(
            "\n[schedule]\nfirst_deadline = \"{deadline}\"\nevery = \"7days\"\nremind = \"2days\"\n"
        ));
        std::fs::write(dir.join("game.toml"), toml).expect("write");
    }
    let r = root.to_str().expect("utf-8");
    let (code, out, err, took) = judge(&["turn", "--all", r]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    assert!(out.contains("could not be read"), "{out}");
    assert!(err.contains("cannot be reached"), "{err}");
    assert!(out.contains("near: reminded"), "{out}");
    assert!(
        files_in(&pickup).iter().any(|f| f.contains("remind")),
        "the reminder went out: {:?}\n{out}",
        files_in(&pickup)
    );
    assert!(
        !root.join("due/turns/001").exists(),
        "the due turn waits for the mailbox: {out}"
    );
    assert!(!root.join("near/turns/001").exists(), "{out}");
}
