//! Against real servers with TLS and logins
//! (tests/mail/servers.sh start-tls): a test CA made by the set-up, dovecot with
//! STARTTLS and implicit TLS, aiosmtpd with STARTTLS and implicit TLS and AUTH. The judge
//! trusts the system's certificate list for SMTP and IMAP alike, here the test CA through
//! SSL_CERT_FILE; what it does not trust, and a refused login, exit 1 with the fix named.

use crate::support;
use crate::support::servers::TlsServers;

use std::path::{Path, PathBuf};

const IMAP_PASS: &str = "judge-pass";
const SMTP_PASS: &str = "judge-smtp-pass";

fn judge(args: &[&str], ca: Option<&Path>, smtp: &str, imap: &str) -> (i32, String, String) {
    let ca = ca.map(|p| p.display().to_string());
    let mut env = vec![("JUDGE_SMTP_PASSWORD", smtp), ("JUDGE_IMAP_PASSWORD", imap)];
    if let Some(ca) = &ca {
        env.push(("SSL_CERT_FILE", ca.as_str()));
    }
    support::judge_text(args, &env)
}

/// The demo game with secrets, its [mail] set to `mail`; returns it and red's secret.
fn game(tmp: &Path, mail: &str) -> (PathBuf, String) {
    let dir = tmp.join("demo");
    support::new_demo(&dir, "Ann", &[]);
    let (red, _) = support::new_secrets(&dir, &[]);
    set_mail(&dir, mail);
    (dir, red)
}

fn set_mail(dir: &Path, mail: &str) {
    let path = dir.join("game.toml");
    let toml = std::fs::read_to_string(&path).expect("toml");
    let kept = toml.split("\n[mail]").next().unwrap_or(&toml).to_string();
    std::fs::write(
        &path,
        format!("{kept}\n[mail]\nfrom = \"Judge <judge@example.org>\"\n{mail}\n"),
    )
    .expect("write");
}

fn orders_mail(secret: &str, id: &str) -> String {
    let orders = std::fs::read_to_string("games/demo/pending/red.txt")
        .expect("demo orders")
        .replacen("player red\n", &format!("player red\nsecret {secret}\n"), 1);
    format!(
        "From: Ann <ann@example.org>\nTo: Judge <judge@example.org>\nSubject: orders\nMessage-ID: <{id}@example.org>\nDate: Sun, 01 Nov 2026 00:00:00 +0000\nContent-Type: text/plain; charset=utf-8\n\n{orders}"
    )
}

/// Implicit TLS (IMAPS and SMTPS) and STARTTLS, with
/// logins, against a private CA. Not trusted: refused before any password is sent,
/// exit 1, the fix named (update-ca-certificates, SSL_CERT_FILE) — for SMTP as for IMAP,
/// one trust store. Trusted (SSL_CERT_FILE, as after update-ca-certificates): orders are
/// read and answered over both modes. A wrong password: exit 1, naming the setting.
#[test]
fn tls_and_starttls_with_a_private_ca_and_logins() {
    let srv = TlsServers::start();
    let tmp = tempfile::tempdir().expect("tmp");
    let implicit = format!(
        "smtp_host = \"localhost\"\nsmtp_port = {}\nsmtp_security = \"tls\"\nsmtp_user = \"judge\"\nimap_host = \"localhost\"\nimap_port = {}\nimap_security = \"tls\"\nimap_user = \"judge\"\nimap_timeout = \"5s\"",
        srv.smtps, srv.imaps
    );
    let (dir, red) = game(tmp.path(), &implicit);
    let d = dir.to_str().expect("utf-8");
    srv.deliver("1.orders1.host", &orders_mail(&red, "one"));

    // IMAP over TLS with a CA the judge does not trust.
    let (code, out, err) = judge(&["ingest", d], None, SMTP_PASS, IMAP_PASS);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("does not trust"), "{err}");
    assert!(err.contains("update-ca-certificates"), "{err}");
    assert!(err.contains("SSL_CERT_FILE"), "{err}");
    assert!(!dir.join("pending/red.txt").exists(), "nothing filed");

    // Trusted: filed over IMAPS, answered over SMTPS.
    let before = srv.sent_count();
    let (code, out, err) = judge(&["ingest", d], Some(&srv.ca), SMTP_PASS, IMAP_PASS);
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.join("pending/red.txt").is_file(), "{out}");
    assert_eq!(
        srv.sent_count(),
        before + 1,
        "the answer went over SMTPS: {out}"
    );

    // SMTP with the same untrusted CA: the same words, exit 1 (it was 3).
    srv.deliver("2.orders2.host", &orders_mail(&red, "two"));
    let (code, out, err) = judge(
        &["ingest", d, "--no-send"],
        Some(&srv.ca),
        SMTP_PASS,
        IMAP_PASS,
    );
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = judge(&["mail", d], None, SMTP_PASS, IMAP_PASS);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("does not trust"), "{err}");
    assert!(err.contains("update-ca-certificates"), "{err}");

    // A wrong SMTP password: exit 1 (it was 3), the mail waits.
    let (code, out, err) = judge(&["mail", d], Some(&srv.ca), "wrong", IMAP_PASS);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("refused the login as judge"), "{err}");
    // A wrong IMAP password: exit 1.
    let (code, out, err) = judge(&["ingest", d], Some(&srv.ca), SMTP_PASS, "wrong");
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("refused the login as judge"), "{err}");

    // STARTTLS on the plain ports, with the port and security as a GM writes them.
    set_mail(
        &dir,
        &format!(
            "smtp_host = \"localhost\"\nsmtp_port = {}\nsmtp_user = \"judge\"\nimap_host = \"localhost\"\nimap_port = {}\nimap_user = \"judge\"\nimap_timeout = \"5s\"",
            srv.smtp, srv.imap
        ),
    );
    srv.deliver("3.orders3.host", &orders_mail(&red, "three"));
    let before = srv.sent_count();
    let (code, out, err) = judge(&["ingest", d], Some(&srv.ca), SMTP_PASS, IMAP_PASS);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        srv.sent_count() >= before + 2,
        "the waiting answer and the new one went: {out}"
    );

    // TLS asked of the STARTTLS ports: what is wrong and the fix, exit 1, at once.
    set_mail(
        &dir,
        &format!(
            "smtp_host = \"localhost\"\nsmtp_port = {}\nsmtp_security = \"tls\"\nsmtp_user = \"judge\"\nimap_host = \"localhost\"\nimap_port = {}\nimap_security = \"tls\"\nimap_user = \"judge\"",
            srv.smtp, srv.imap
        ),
    );
    let (code, out, err) = judge(&["ingest", d], Some(&srv.ca), SMTP_PASS, IMAP_PASS);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("does not speak TLS at once"), "{err}");
    assert!(err.contains("imap_security = \"starttls\""), "{err}");
    // STARTTLS aimed at the IMAPS port: the greeting's wait (5s), and the hint.
    set_mail(
        &dir,
        &format!(
            "smtp_host = \"localhost\"\nsmtp_port = {}\nsmtp_user = \"judge\"\nimap_host = \"localhost\"\nimap_port = {}\nimap_security = \"starttls\"\nimap_user = \"judge\"\nimap_timeout = \"2s\"",
            srv.smtp, srv.imaps
        ),
    );
    let started = std::time::Instant::now();
    let (code, out, err) = judge(&["ingest", d], Some(&srv.ca), SMTP_PASS, IMAP_PASS);
    assert_eq!(code, 3, "{out}{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert!(err.contains("imap_security = \"tls\""), "{err}");
}
