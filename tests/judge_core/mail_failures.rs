//! Mail that cannot be sent. The exit status says so (3: it waits
//! and may go later; 1: the server refused it for good and the GM must act); a refused
//! mail is given up, not tried forever, and `judge status` names it; a server that takes
//! the connection and never answers costs one short, configurable time, with the game's
//! lock free all the while. The servers are real sockets on 127.0.0.1: a port nobody
//! listens on, a tiny scripted SMTP server, one that accepts and never answers.

use crate::support;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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

/// With the SMTP server down, `judge turn` played the turn and
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

/// A tiny SMTP server on 127.0.0.1 for one test: it answers as a real server does,
/// refuses the recipients it is told to for good (550), and keeps what it saw
/// (`RCPT address`, `DELIVERED address`).
struct Scripted {
    port: u16,
    refuse: Arc<Mutex<Vec<String>>>,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Scripted {
    fn start(refuse: &[&str]) -> Scripted {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let srv = Scripted {
            port,
            refuse: Arc::new(Mutex::new(Vec::new())),
            seen: Arc::new(Mutex::new(Vec::new())),
        };
        srv.set_refused(refuse);
        let (refuse, log) = (srv.refuse.clone(), srv.seen.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (refuse, log) = (refuse.clone(), log.clone());
                std::thread::spawn(move || serve(stream, &refuse, &log));
            }
        });
        srv
    }

    /// From now on, refuse these recipients for good.
    fn set_refused(&self, refuse: &[&str]) {
        *self.refuse.lock().expect("lock") = refuse.iter().map(|r| r.to_string()).collect();
    }

    /// How many times it saw `what` (`RCPT ann@example.org`).
    fn count(&self, what: &str) -> usize {
        self.seen
            .lock()
            .expect("lock")
            .iter()
            .filter(|s| *s == what)
            .count()
    }
}

fn serve(
    stream: TcpStream,
    refuse: &Mutex<Vec<String>>,
    seen: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    let mut w = stream.try_clone()?;
    let mut r = BufReader::new(stream);
    w.write_all(b"220 scripted ESMTP\r\n")?;
    let mut to = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let upper = line.trim_end().to_ascii_uppercase();
        let reply: String = if upper.starts_with("EHLO") {
            "250-scripted\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n".into()
        } else if upper.starts_with("HELO") || upper.starts_with("MAIL FROM") {
            "250 OK\r\n".into()
        } else if upper.starts_with("RCPT TO") {
            let addr = line
                .split_once('<')
                .and_then(|(_, a)| a.split_once('>'))
                .map_or(String::new(), |(a, _)| a.to_ascii_lowercase());
            seen.lock().expect("lock").push(format!("RCPT {addr}"));
            if refuse.lock().expect("lock").contains(&addr) {
                format!("550 5.1.1 <{addr}>: Recipient address rejected: no such user\r\n")
            } else {
                to = addr;
                "250 OK\r\n".into()
            }
        } else if upper == "DATA" {
            w.write_all(b"354 go on\r\n")?;
            loop {
                line.clear();
                if r.read_line(&mut line)? == 0 {
                    return Ok(());
                }
                if line == ".\r\n" {
                    break;
                }
            }
            seen.lock().expect("lock").push(format!("DELIVERED {to}"));
            "250 OK queued\r\n".into()
        } else if upper == "QUIT" {
            w.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else if upper == "RSET" || upper == "NOOP" {
            "250 OK\r\n".into()
        } else {
            "502 not here\r\n".into()
        };
        w.write_all(reply.as_bytes())?;
    }
}

/// A mail the server refused for good (550 for Ann's address) was
/// tried again on every run, forever. It is given up: kept aside in outbox/failed/ and
/// never tried again by itself; the run that gives it up exits 1 saying what to do;
/// `judge status` names it with the server's answer; the other mails go. A wrong address
/// put right, `judge mail --resend` makes the report anew (and the refusal is
/// forgotten); a cause at the server fixed, `judge mail --retry` tries again.
#[test]
fn p16_a_mail_refused_for_good_is_given_up_and_named_in_status() {
    let srv = Scripted::start(&["ann@example.org"]);
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, _) = game(tmp.path(), srv.port, "");
    let d = dir.to_str().expect("utf-8");
    let (code, out, err) = judge(&["turn", d]);
    assert_eq!(code, 1, "the GM must act: {out}{err}");
    assert!(dir.join("turns/001/state.json").is_file(), "{out}");
    assert!(
        out.contains("refused for good: report-001-red to ann@example.org: ")
            && out.contains("550"),
        "{out}"
    );
    assert!(
        err.contains("refused 1 mail for good (report-001-red)")
            && err.contains(&format!("judge mail {d} --retry")),
        "{err}"
    );
    assert_eq!(srv.count("RCPT ann@example.org"), 1);
    assert_eq!(
        srv.count("DELIVERED bob@example.org"),
        1,
        "Bob's report went"
    );
    assert!(
        waiting(&dir).is_empty(),
        "nothing is left to be tried again"
    );
    for args in [vec!["turn", d], vec!["mail", d]] {
        let (code, out, err) = judge(&args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
    }
    assert_eq!(
        srv.count("RCPT ann@example.org"),
        1,
        "never tried again by itself"
    );
    let (code, out, err) = judge(&["status", d]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Mail refused for good")
            && out.contains("report-001-red to ann@example.org: ")
            && out.contains("no such user"),
        "{out}"
    );
    // Tried again while the cause is still there: given up again, and said so.
    let (code, out, err) = judge(&["mail", d, "--retry"]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(srv.count("RCPT ann@example.org"), 2);
    // A wrong address put right in game.toml: the report is made anew, to it, once.
    let path = dir.join("game.toml");
    let toml = std::fs::read_to_string(&path).expect("toml");
    std::fs::write(&path, toml.replace("ann@example.org", "ann@new.example")).expect("write");
    let (code, out, err) = judge(&["mail", d, "--resend", "red", "--turn", "1"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(srv.count("DELIVERED ann@new.example"), 1);
    let (_, out, _) = judge(&["status", d]);
    assert!(!out.contains("refused for good"), "forgotten: {out}");
    let (code, out, err) = judge(&["turn", d]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        srv.count("DELIVERED ann@new.example"),
        1,
        "the report is not queued a second time"
    );
    // A cause at the server: refused, then fixed, and tried again with --retry.
    srv.set_refused(&["ann@new.example"]);
    let (code, out, err) = judge(&["end", d, "--why", "a test"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("refused for good: report-002-red"), "{out}");
    srv.set_refused(&[]);
    let (code, out, err) = judge(&["mail", d, "--retry"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("trying again: report-002-red") && out.contains("sent 1 mail"),
        "{out}"
    );
    assert_eq!(srv.count("DELIVERED ann@new.example"), 2);
    let (_, out, _) = judge(&["status", d]);
    assert!(!out.contains("refused for good"), "{out}");
}

/// A server that takes the connection and never answers cost 20 s
/// per queued mail, with the game's lock held all the while (103 s for five). Sending
/// has one short limit for the whole run (`[mail] send_timeout`, here 2 s), and the
/// game's lock is let go before the first mail is sent: other commands go on meanwhile.
#[test]
fn p16_a_hung_server_costs_one_short_limit_with_the_game_free() {
    let hung = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = hung.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in hung.incoming().flatten() {
            held.push(stream);
        }
    });
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, bob) = game(tmp.path(), port, "send_timeout = \"2s\"\n");
    let d = dir.to_str().expect("utf-8");
    let (code, out, err) = judge(&["turn", d, "--no-send"]);
    assert_eq!(code, 0, "{out}{err}");
    let mails: Vec<String> = (1..=3)
        .map(|n| {
            let path = tmp.path().join(format!("bob-{n}.eml"));
            std::fs::write(
                &path,
                format!(
                    "From: bob@example.org\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <bob-{n}@test>\r\n\r\ngame demo\nplayer yellow\nsecret {bob}\nturn 2\n"
                ),
            )
            .expect("mail");
            path.to_str().expect("utf-8").to_string()
        })
        .collect();
    let mut args = vec!["ingest", d, "--no-send"];
    args.extend(mails.iter().map(String::as_str));
    let (code, out, err) = judge(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(waiting(&dir).len(), 5, "five mails queued");

    let start = std::time::Instant::now();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["mail", d])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("JUDGE_NOW", NOW)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("judge mail runs");
    std::thread::sleep(std::time::Duration::from_millis(700));
    let (code, out, err) = judge(&["deadline", d, "--extend", "1h", "--quiet", "--wait", "1"]);
    assert_eq!(
        code, 0,
        "the game's lock is free while the mail waits on the server: {out}{err}"
    );
    let done = child.wait_with_output().expect("judge mail ends");
    let took = start.elapsed();
    let (out, err) = (
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr),
    );
    assert!(
        took < std::time::Duration::from_secs(6),
        "one limit of 2 s for the whole run, not 20 s a mail: {took:?}\n{out}{err}"
    );
    assert_eq!(done.status.code(), Some(3), "{out}{err}");
    assert!(
        out.contains("not sent, left in the outbox: 5 mails: ")
            && out.contains("did not answer within 2s"),
        "{out}"
    );
    assert_eq!(waiting(&dir).len(), 5, "nothing is lost");
    let guide = std::fs::read_to_string("docs/gm-guide.md").expect("guide");
    assert!(guide.contains("send_timeout = \"30s\""), "documented");
}
