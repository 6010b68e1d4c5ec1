//! Attacks on the mail intake, each with its documented answer
//! (docs/gm-guide.md, "What the judge does with odd mail"): nothing is written outside
//! the archive, nothing panics, and answers go only to registered addresses.

use crate::support;

use std::path::PathBuf;

fn judge(args: &[&str]) -> (i32, String, String) {
    support::judge_text(args, &[])
}

struct Game {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    dir: PathBuf,
    red: String,
    yellow: String,
}

/// A game whose mail goes to a pickup folder inside it; names and addresses as given.
fn game(red_name: &str) -> Game {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().to_path_buf();
    let dir = root.join("demo");
    support::new_demo(&dir, red_name, &[]);
    let (red, yellow) = support::new_secrets(&dir, &[]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str("\n[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"pickup\"\n");
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    support::ignore_pickup(&dir);
    Game {
        _tmp: tmp,
        root,
        dir,
        red,
        yellow,
    }
}

impl Game {
    fn ingest(&self, raw: &[u8]) -> String {
        let f = self.root.join("mail.eml");
        std::fs::write(&f, raw).expect("write");
        let (code, out, err) = judge(&[
            "ingest",
            self.dir.to_str().expect("utf-8"),
            f.to_str().expect("utf-8"),
        ]);
        std::fs::remove_file(&f).expect("rm");
        assert_eq!(code, 0, "{out}{err}");
        out
    }

    /// The mails the judge sent, raw.
    fn sent(&self) -> Vec<String> {
        let Ok(d) = std::fs::read_dir(self.dir.join("pickup")) else {
            return Vec::new();
        };
        let mut v: Vec<String> = d
            .flatten()
            .map(|e| String::from_utf8_lossy(&std::fs::read(e.path()).expect("read")).into_owned())
            .collect();
        v.sort();
        v
    }

    fn pending(&self, who: &str) -> bool {
        self.dir.join(format!("pending/{who}.txt")).is_file()
    }

    /// Everything in the temporary folder outside the game: must stay just the game.
    fn outside(&self) -> Vec<String> {
        std::fs::read_dir(&self.root)
            .expect("root")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    }
}

fn mail(from: &str, extra_headers: &str, subject: &str, body: &str) -> Vec<u8> {
    // A Message-ID from the whole mail, so different mails differ.
    let id = format!("{from}{extra_headers}{subject}{body}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("From: {from}\r\nTo: judge@example.org\r\n{extra_headers}Subject: {subject}\r\nMessage-ID: <{id:x}@test>\r\n\r\n{body}").into_bytes()
}

fn orders(player: &str, secret: &str, turn: u32) -> String {
    format!(
        "game demo\r\nplayer {player}\r\nsecret {secret}\r\nturn {turn}\r\nmovement\r\nmove D1: load 1 board; C3\r\n"
    )
}

fn to_line(m: &str) -> &str {
    m.lines().find(|l| l.starts_with("To:")).unwrap_or("")
}

/// A forged From: line with no (or a wrong) secret is refused and answered to the real
/// player's registered address; the Reply-To is ignored; nothing is filed.
#[test]
fn forged_from_is_refused_and_the_real_player_told() {
    let g = game("Ann");
    let out = g.ingest(&mail(
        "ann@example.org",
        "Reply-To: evil@attacker.example\r\n",
        "orders",
        &orders("red", "guessed-secret", 1),
    ));
    assert!(
        out.contains("refused: the secret is wrong (answered to ann@example.org)"),
        "{out}"
    );
    assert!(!g.pending("red"));
    let sent = g.sent();
    assert_eq!(sent.len(), 1);
    assert!(
        to_line(&sent[0]).contains("ann@example.org") && !sent[0].contains("attacker"),
        "{}",
        sent[0]
    );
}

/// Yellow's secret does not open red's orders.
#[test]
fn another_players_secret_is_wrong() {
    let g = game("Ann");
    let out = g.ingest(&mail(
        "ann@example.org",
        "",
        "orders",
        &orders("red", &g.yellow, 1),
    ));
    assert!(out.contains("refused: the secret is wrong"), "{out}");
}

/// Orders for another player, even with that player's secret, from red's address.
#[test]
fn orders_for_another_player_are_refused() {
    let g = game("Ann");
    let out = g.ingest(&mail(
        "ann@example.org",
        "",
        "orders",
        &orders("yellow", &g.yellow, 1),
    ));
    assert!(
        out.contains("refused: the orders are for yellow, but they come from red's address"),
        "{out}"
    );
    assert!(!g.pending("yellow"));
}

/// A stranger is logged and not answered (no backscatter).
#[test]
fn a_stranger_is_not_answered() {
    let g = game("Ann");
    let out = g.ingest(&mail(
        "someone@else.example",
        "",
        "hello",
        &orders("red", &g.red, 1),
    ));
    assert!(
        out.contains("refused: the sender is not a player of this game (not answered)"),
        "{out}"
    );
    assert!(g.sent().is_empty());
}

/// Good orders are filed; the same mail again is skipped; a replayed mail for an earlier
/// turn is refused.
#[test]
fn replays_are_refused() {
    let g = game("Ann");
    let good = mail(
        "Ann <ann@example.org>",
        "",
        "turn 1",
        &orders("red", &g.red, 1),
    );
    assert!(
        g.ingest(&good)
            .contains("accepted: red's orders for turn 1")
    );
    assert!(g.ingest(&good).contains("skipped 1 mail already filed"));
    let d = g.dir.to_str().expect("utf-8");
    let (code, _, err) = judge(&["turn", d]);
    assert_eq!(code, 0, "{err}");
    let replay = mail(
        "Ann <ann@example.org>",
        "",
        "turn 1 again",
        &orders("red", &g.red, 1),
    );
    assert!(
        g.ingest(&replay)
            .contains("refused: the orders are for turn 1, which is over; turn 2 is next")
    );
    let future = mail(
        "Ann <ann@example.org>",
        "",
        "turn 5",
        &orders("red", &g.red, 5),
    );
    assert!(
        g.ingest(&future)
            .contains("refused: the orders are for turn 5, but turn 2 is next")
    );
}

/// A 20 MB attachment is refused unread, and answered.
#[test]
fn a_huge_mail_is_refused() {
    let g = game("Ann");
    let mut raw = mail(
        "ann@example.org",
        "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n",
        "big",
        "--b\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n",
    );
    raw.extend(std::iter::repeat_n(b'A', 20 * 1024 * 1024));
    raw.extend_from_slice(b"\r\n--b--\r\n");
    let out = g.ingest(&raw);
    assert!(
        out.contains("refused: the mail is") && out.contains("answered to ann@example.org"),
        "{out}"
    );
    let kept: u64 = std::fs::read_dir(g.dir.join("mail"))
        .map(|d| {
            d.flatten()
                .map(|e| e.metadata().map_or(0, |m| m.len()))
                .sum()
        })
        .unwrap_or(0);
    assert!(kept < 1024 * 1024, "the huge mail is not kept");
}

/// An attachment named ../../x never becomes a file name: the orders in it are read,
/// and nothing appears outside the game.
#[test]
fn an_attachment_name_never_becomes_a_path() {
    let g = game("Ann");
    let body = format!(
        "--b\r\nContent-Type: text/plain\r\n\r\nMy orders are attached.\r\n--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=\"../../x\"\r\n\r\n{}\r\n--b--\r\n",
        orders("red", &g.red, 1)
    );
    let out = g.ingest(&mail(
        "ann@example.org",
        "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n",
        "attached",
        &body,
    ));
    assert!(out.contains("accepted"), "{out}");
    assert_eq!(g.outside(), vec!["demo".to_string()]);
}

/// Broken MIME does not panic; a non-UTF-8 charset is decoded.
#[test]
fn broken_mime_and_other_charsets() {
    let g = game("Ann");
    let out = g.ingest(b"\xff\xfe\x00garbage\r\n\r\n\x00\x01");
    assert!(out.contains("refused"), "{out}");
    let body = format!("{}# d\u{e9}j\u{e0} vu\r\n", orders("red", &g.red, 1));
    let mut raw = b"From: ann@example.org\r\nSubject: latin-1\r\nMessage-ID: <l1@test>\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n".to_vec();
    raw.extend(body.chars().map(|c| c as u32 as u8));
    assert!(
        g.ingest(&raw).contains("accepted"),
        "latin-1 orders are read"
    );
}

/// CRLF in a player's name or in a mail's subject never becomes a header.
#[test]
fn header_injection_is_harmless() {
    let g = game("Ann");
    // A name with a line break, written into game.toml by a careless GM.
    let toml = std::fs::read_to_string(g.dir.join("game.toml"))
        .expect("toml")
        .replace(
            "name = \"Ann\"",
            "name = \"Ann\\r\\nBcc: evil@attacker.example\"",
        );
    std::fs::write(g.dir.join("game.toml"), toml).expect("write");
    let subject = "=?utf-8?q?orders=0D=0ABcc=3A_evil2=40attacker.example?=";
    let out = g.ingest(&mail(
        "ann@example.org",
        "",
        subject,
        &orders("red", &g.red, 1),
    ));
    assert!(out.contains("accepted"), "{out}");
    for m in g.sent() {
        assert!(
            !m.lines()
                .any(|l| l.to_ascii_lowercase().starts_with("bcc:")),
            "{m}"
        );
        assert!(
            !m.contains("evil@attacker.example\r\n") || !m.contains("\r\nBcc"),
            "{m}"
        );
    }
}
