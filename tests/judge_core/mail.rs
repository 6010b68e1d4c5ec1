//! The play-by-email round trip against real servers on 127.0.0.1: an SMTP
//! server (aiosmtpd) delivering into a Maildir, started by tests/mail/servers.sh, which
//! `.ci/run` installs. Players mail orders, the judge files them, plays the turn and
//! mails the reports, which are read back and parsed. Then the attacks and failures.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::servers::Servers;

fn judge(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    support::judge_text(args, env)
}

/// A two-player game with secrets and mail set up; returns (dir, red secret, yellow secret).
fn game(tmp: &Path, name: &str, mail: &str) -> (PathBuf, String, String) {
    let dir = tmp.join(name);
    support::new_demo(&dir, "Ann", &[]);
    let (red, yellow) = support::new_secrets(&dir, &[]);
    let toml_path = dir.join("game.toml");
    let mut toml = std::fs::read_to_string(&toml_path).expect("game.toml");
    toml.push_str(mail);
    std::fs::write(&toml_path, toml).expect("write");
    (dir, red, yellow)
}

fn orders(player: &str, secret: &str) -> String {
    let mut o =
        std::fs::read_to_string(format!("games/demo/pending/{player}.txt")).expect("demo orders");
    o = o.replacen(
        &format!("player {player}\n"),
        &format!("player {player}\nsecret {secret}\n"),
        1,
    );
    o
}

/// Two players mail orders to the server; judge ingest reads them from the
/// Maildir; judge turn plays the turn; both players' reports arrive at the server and
/// are read back and parsed; the archive holds the turn.
#[test]
fn orders_by_mail_in_reports_by_mail_out() {
    let srv = Servers::start();
    let tmp = tempfile::tempdir().expect("tmp");
    let mail = format!(
        "\n[mail]\nfrom = \"Judge <judge@example.org>\"\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {}\nsmtp_security = \"none\"\n",
        srv.smtp
    );
    let (dir, red, yellow) = game(tmp.path(), "demo", &mail);
    let d = dir.to_str().expect("utf-8");

    srv.send(
        "Ann <ann@example.org>",
        "orders for turn 1",
        &orders("red", &red),
    );
    srv.send(
        "Bob <bob@example.org>",
        "my orders",
        &orders("yellow", &yellow),
    );
    let (code, out, err) = judge(
        &[
            "ingest",
            d,
            "--maildir",
            srv.maildir().to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches("accepted:").count(), 2, "{out}");
    assert!(
        out.contains("sent 2 mails"),
        "the acknowledgements went out: {out}"
    );

    // Reading the same Maildir again files nothing twice.
    let (_, again, _) = judge(
        &[
            "ingest",
            d,
            "--maildir",
            srv.maildir().to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_eq!(again.matches("accepted:").count(), 0, "{again}");

    let (code, out, err) = judge(&["turn", d], &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Turn 1 resolved"), "{out}");
    assert!(
        dir.join("turns/001/state.json").is_file()
            && dir.join("turns/001/orders/red.txt").is_file()
    );

    let got = srv.delivered();
    let reports: Vec<_> = got
        .iter()
        .filter(|m| m.1 == "[demo] turn 1: report")
        .collect();
    assert_eq!(reports.len(), 2, "{got:?}");
    for (to, _, body, attachments, _) in &reports {
        assert!(to == "ann@example.org" || to == "bob@example.org");
        assert!(
            body.contains("ROADS & BOATS  --  demo  --  turn 1"),
            "{body}"
        );
        assert!(body.contains("sawmill"));
        assert_eq!(*attachments, 1, "the map picture is attached");
    }
    let acks: Vec<_> = got
        .iter()
        .filter(|m| m.1 == "[demo] turn 1: filed, no errors")
        .collect();
    assert_eq!(acks.len(), 2, "{got:?}");
    for (_, _, body, _, in_reply_to) in &acks {
        assert!(
            body.contains("are filed") && body.contains("0 errors"),
            "{body}"
        );
        assert!(!in_reply_to.is_empty(), "threaded");
        assert!(
            !body.contains(&red) && !body.contains(&yellow),
            "a secret is never echoed"
        );
    }
    // The secrets are nowhere in the archive.
    for f in walk(&dir) {
        let bytes = std::fs::read(&f).expect("read");
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains(&red) && !text.contains(&yellow),
            "a secret in {}",
            f.display()
        );
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p))
        } else {
            out.push(p)
        }
    }
    out
}

/// SMTP down during judge turn: the turn is written, the mails wait in the outbox, and
/// judge mail sends them once the server is back.
#[test]
fn smtp_down_the_mail_waits_in_the_outbox() {
    let tmp = tempfile::tempdir().expect("tmp");
    // A port nothing listens on: take one, then free it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let mail = format!(
        "\n[mail]\nfrom = \"judge@example.org\"\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {port}\nsmtp_security = \"none\"\n"
    );
    let (dir, _, _) = game(tmp.path(), "g", &mail);
    let d = dir.to_str().expect("utf-8");
    std::fs::create_dir_all(dir.join("pending")).expect("pending");
    std::fs::copy("games/demo/pending/red.txt", dir.join("pending/red.txt")).expect("copy");
    let (code, out, err) = judge(&["turn", d], &[]);
    assert_eq!(
        code, 3,
        "the turn is played even if mail is down, and the exit status says the mail waits: {out}{err}"
    );
    assert!(dir.join("turns/001/state.json").is_file());
    assert!(out.contains("left in the outbox"), "{out}");
    let (code, _, _) = judge(&["mail", d], &[]);
    assert_eq!(code, 3, "still waiting: a failure that may work later");
    assert_eq!(
        std::fs::read_dir(dir.join("outbox"))
            .expect("outbox")
            .flatten()
            // The outbox's own lock beside them.
            .filter(|e| e.file_name() != ".judge.lock")
            .count(),
        4,
        "2 mails, each with its envelope"
    );

    let srv = Servers::start();
    let toml = std::fs::read_to_string(dir.join("game.toml"))
        .expect("toml")
        .replace(
            &format!("smtp_port = {port}"),
            &format!("smtp_port = {}", srv.smtp),
        );
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    let (code, out, err) = judge(&["mail", d], &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        srv.delivered()
            .iter()
            .filter(|m| m.1 == "[g] turn 1: report")
            .count(),
        2
    );
    let (_, status, _) = judge(&["status", d], &[]);
    assert!(status.contains("Outbox: 0 mails waiting."), "{status}");
}

/// Killing judge turn at random points leaves the old turn or the new one,
/// never a mix, and the next run completes it, with the same result as an uninterrupted
/// run.
#[test]
fn a_killed_turn_leaves_the_old_turn_or_the_new_one() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (reference, _, _) = game(tmp.path(), "reference", "");
    std::fs::create_dir_all(reference.join("pending")).expect("pending");
    for p in ["red", "yellow"] {
        std::fs::copy(
            format!("games/demo/pending/{p}.txt"),
            reference.join(format!("pending/{p}.txt")),
        )
        .expect("copy");
    }
    let template = tmp.path().join("template");
    copy(&reference, &template);
    let (code, _, err) = judge(&["turn", reference.to_str().expect("utf-8")], &[]);
    assert_eq!(code, 0, "{err}");
    let want = std::fs::read(reference.join("turns/001/state.json")).expect("state");

    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut interrupted = 0;
    for round in 0..30 {
        let g = tmp.path().join(format!("g{round}"));
        copy(&template, &g);
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let delay = std::time::Duration::from_micros(rng % 40_000);
        let mut child = Command::new(env!("CARGO_BIN_EXE_judge"))
            .args(["turn", g.to_str().expect("utf-8")])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(delay);
        if child.try_wait().expect("wait").is_none() {
            interrupted += 1;
        }
        let _ = child.kill();
        let _ = child.wait();
        // Old or new, never a mix.
        let turns: Vec<String> = std::fs::read_dir(g.join("turns"))
            .expect("turns")
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| !n.starts_with('.'))
            .collect();
        assert!(turns.iter().all(|t| t == "000" || t == "001"), "{turns:?}");
        if g.join("turns/001").exists() {
            for f in ["state.json", "events.json", "report.txt", "orders/red.txt"] {
                assert!(
                    g.join("turns/001").join(f).is_file(),
                    "round {round}: turn 1 is whole ({f})"
                );
            }
        }
        // The next run completes it (or finds it complete and refuses to play twice).
        let (code, _, err) = judge(&["turn", g.to_str().expect("utf-8")], &[]);
        assert!(
            code == 0 || err.contains("no orders are waiting"),
            "round {round}: {err}"
        );
        assert_eq!(
            std::fs::read(g.join("turns/001/state.json")).expect("state"),
            want,
            "round {round}"
        );
        assert!(
            !g.join("turns/002").exists(),
            "round {round}: never two turns"
        );
    }
    assert!(interrupted > 0, "some runs were really interrupted");
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read").flatten() {
        let t = to.join(e.file_name());
        if e.path().is_dir() {
            copy(&e.path(), &t)
        } else {
            std::fs::copy(e.path(), t).expect("copy");
        }
    }
}

/// judge ingest over IMAP as the test mailbox's user.
fn ingest_imap(game: &str, imap: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    judge(
        &[
            "ingest",
            game,
            "--imap",
            imap,
            "--user",
            "judge",
            "--imap-security",
            "none",
        ],
        env,
    )
}

/// Over IMAP: the players' mails are read from the server's INBOX (user
/// `judge`), filed, and marked seen, so a second read files nothing; the turn is played
/// and the reports go out through SMTP.
#[test]
fn orders_read_over_imap() {
    let srv = Servers::start();
    let tmp = tempfile::tempdir().expect("tmp");
    let mail = format!(
        "\n[mail]\nfrom = \"Judge <judge@example.org>\"\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {}\nsmtp_security = \"none\"\nimap_host = \"127.0.0.1\"\nimap_port = {}\nimap_user = \"judge\"\nimap_security = \"none\"\n",
        srv.smtp, srv.imap
    );
    let (dir, red, yellow) = game(tmp.path(), "imapgame", &mail);
    let d = dir.to_str().expect("utf-8");
    srv.send(
        "Ann <ann@example.org>",
        "orders",
        &orders("red", &red).replace("game demo", "game imapgame"),
    );
    srv.send(
        "Bob <bob@example.org>",
        "orders",
        &orders("yellow", &yellow).replace("game demo", "game imapgame"),
    );
    let imap = format!("127.0.0.1:{}", srv.imap);
    let env = [("JUDGE_IMAP_PASSWORD", "judge-pass")];
    let (code, out, err) = ingest_imap(d, &imap, &env);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches("accepted:").count(), 2, "{out}");
    // Seen now: reading again files nothing new (the judge's own answers, which land in
    // the same test mailbox, are refused as strangers' mail).
    let (_, again, _) = ingest_imap(d, &imap, &env);
    assert_eq!(again.matches("accepted:").count(), 0, "{again}");
    // judge turn reads the IMAP server itself, as [mail] says, then plays the turn.
    let (code, out, err) = judge(&["turn", d], &env);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        dir.join("turns/001/orders/red.txt").is_file()
            && dir.join("turns/001/orders/yellow.txt").is_file()
    );
    let reports = srv
        .delivered()
        .into_iter()
        .filter(|m| m.1 == "[imapgame] turn 1: report")
        .count();
    assert_eq!(reports, 2);
    let (code, _, err) = ingest_imap(d, &imap, &[("JUDGE_IMAP_PASSWORD", "wrong")]);
    assert_eq!(code, 1, "a wrong password is a clear error: {err}");
    assert!(err.contains("refused the login as judge"), "{err}");
}
