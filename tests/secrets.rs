//! Issue 9, point 3: a secret is never written anywhere, nor echoed. A corpus of hostile
//! and ordinary mails — quoted, folded, HTML-only, quoted-printable, base64, attachments,
//! a byte-order mark, zero-width spaces, soft hyphens, typographic dashes, the subject,
//! the sender's name, refused mails whose secret line is never read — is filed; a turn is
//! played and committed; then every file of the game, every object of its git history,
//! and every mail the judge sent (raw and decoded) is searched for every secret.

use crate::support;

use std::path::{Path, PathBuf};

struct Game {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    red: String,
    yellow: String,
}

fn game() -> Game {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("demo");
    support::new_demo(&dir, "Ann", &[]);
    let (red, yellow) = support::new_secrets(&dir, &[]);
    let toml = dir.join("game.toml");
    let mut t = std::fs::read_to_string(&toml).expect("toml");
    t.push_str("\n[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"../pickup\"\n");
    std::fs::write(&toml, t).expect("toml");
    Game {
        _tmp: tmp,
        dir,
        red,
        yellow,
    }
}

fn b64(s: &str) -> String {
    const T: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let b = s.as_bytes();
    let mut out = String::new();
    for c in b.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(T[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The corpus: (what it is, the raw mail).
fn corpus(g: &Game) -> Vec<(&'static str, String)> {
    let (r, y) = (g.red.as_str(), g.yellow.as_str());
    let head = |id: &str, subject: &str| {
        format!(
            "From: Ann <ann@example.org>\r\nTo: judge@example.org\r\nSubject: {subject}\r\nMessage-ID: <{id}@corpus>\r\nMIME-Version: 1.0\r\n"
        )
    };
    let orders = |secret_line: &str| {
        format!("game demo\r\nplayer red\r\nturn 1\r\n{secret_line}\r\nmovement\r\nmove D1: C3\r\n")
    };
    let plain = |id: &str, subject: &str, body: String| {
        format!(
            "{}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}",
            head(id, subject)
        )
    };
    let upper = r.to_uppercase();
    let (r1, r2) = r.split_at(10);
    let en_dash = r.replace('-', "\u{2013}");
    let qp_folded = format!(
        "game demo\r\nplayer red\r\nturn 1\r\nsecret {}=\r\n{}\r\nmovement\r\nmove D1: C3\r\n",
        &r[..7],
        &r[7..]
    );
    vec![
        (
            "plain",
            plain("1", "orders", orders(&format!("secret {r}"))),
        ),
        (
            "colon and comment",
            plain("2", "orders", orders(&format!("Secret: {r}   # mine"))),
        ),
        (
            "a reply quoting the old secret line",
            plain(
                "3",
                "Re: orders",
                format!(
                    "{}\r\nOn Monday, Ann wrote:\r\n> secret {r}\r\n> move D2: D3\r\n",
                    orders(&format!("secret {r}"))
                ),
            ),
        ),
        (
            "HTML only, a div per line",
            format!(
                "{}Content-Type: text/html; charset=utf-8\r\n\r\n<html><body><div>game demo</div><div>player red</div><div>turn 1</div><div>secret {r}</div><div>movement</div><div>move D1: C3</div><blockquote><div>secret {r}</div></blockquote><span title=\"{r}\">x</span></body></html>\r\n",
                head("4", "orders")
            ),
        ),
        (
            "multipart alternative",
            format!(
                "{}Content-Type: multipart/alternative; boundary=alt\r\n\r\n--alt\r\nContent-Type: text/plain\r\n\r\n{}\r\n--alt\r\nContent-Type: text/html\r\n\r\n<p>secret {r}</p>\r\n--alt--\r\n",
                head("5", "orders"),
                orders(&format!("secret {r}"))
            ),
        ),
        (
            "quoted-printable, the secret folded by a soft break",
            format!(
                "{}Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n{qp_folded}",
                head("6", "orders")
            ),
        ),
        (
            "base64 body",
            format!(
                "{}Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n",
                head("7", "orders"),
                b64(&orders(&format!("secret {r}")))
            ),
        ),
        (
            "a Notepad attachment with a byte-order mark, base64",
            format!(
                "{}Content-Type: multipart/mixed; boundary=mix\r\n\r\n--mix\r\nContent-Type: text/plain\r\n\r\nMy orders are attached.\r\n--mix\r\nContent-Type: text/plain; charset=utf-8; name=orders.txt\r\nContent-Disposition: attachment; filename=orders.txt\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--mix--\r\n",
                head("8", "orders"),
                b64(&format!("\u{FEFF}{}", orders(&format!("secret {r}"))))
            ),
        ),
        (
            "the secret in the subject",
            plain(
                "9",
                &format!("orders, secret {r}"),
                orders(&format!("secret {r}")),
            ),
        ),
        (
            "a zero-width space before the line",
            plain("10", "orders", orders(&format!("\u{200B}secret {r}"))),
        ),
        (
            "a soft hyphen in the word",
            plain("11", "orders", orders(&format!("se\u{00AD}cret {r}"))),
        ),
        (
            "folded over two lines",
            plain(
                "12",
                "orders",
                format!(
                    "{}\r\nps: my secret is {r1}\r\n{r2}\r\n",
                    orders(&format!("secret {r}"))
                ),
            ),
        ),
        (
            "in upper case",
            plain("13", "orders", orders(&format!("SECRET {upper}"))),
        ),
        (
            "typographic dashes",
            plain("14", "orders", orders(&format!("secret {en_dash}"))),
        ),
        (
            "for another game: refused before the secret is read",
            plain(
                "15",
                "orders",
                orders(&format!("secret {r}")).replace("game demo", "game other"),
            ),
        ),
        (
            "for an old turn: refused",
            plain(
                "16",
                "orders",
                orders(&format!("secret {r}")).replace("turn 1", "turn 0"),
            ),
        ),
        (
            "from a stranger",
            format!(
                "From: Eve <eve@attacker.example>\r\nSubject: orders {r}\r\nMessage-ID: <17@corpus>\r\n\r\n{}",
                orders(&format!("secret {r}"))
            ),
        ),
        (
            "another player's secret",
            plain("18", "orders", orders(&format!("secret {y}"))),
        ),
        (
            "the secret in the sender's name",
            format!(
                "From: Ann {r} <ann@example.org>\r\nSubject: orders\r\nMessage-ID: <19@corpus>\r\n\r\n{}",
                orders(&format!("secret {r}"))
            ),
        ),
        (
            "latin-1",
            format!(
                "{}Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n# caf=E9\r\n{}",
                head("20", "orders"),
                orders(&format!("secret {r}"))
            ),
        ),
        (
            "a second text attachment that is not the orders",
            format!(
                "{}Content-Type: multipart/mixed; boundary=mix\r\n\r\n--mix\r\nContent-Type: text/plain\r\n\r\n{}\r\n--mix\r\nContent-Type: text/plain; name=notes.txt\r\nContent-Disposition: attachment; filename=notes.txt\r\n\r\nnotes: {y} and {r}\r\n--mix--\r\n",
                head("21", "orders"),
                orders(&format!("secret {r}"))
            ),
        ),
        (
            "too large: refused unread",
            format!(
                "{}Content-Type: text/plain\r\n\r\nsecret {r}\r\n{}",
                head("22", &format!("big {r}")),
                "x".repeat(3 * 1024 * 1024)
            ),
        ),
        (
            "broken MIME",
            format!(
                "{}Content-Type: multipart/mixed; boundary=\r\n\r\n--\r\nsecret {r}\r\n",
                head("23", "orders")
            ),
        ),
        (
            "no secret line, the secret in the text",
            plain(
                "24",
                "orders",
                format!("game demo\r\nplayer red\r\nturn 1\r\nmovement\r\nmove D1: C3 # {r}\r\n"),
            ),
        ),
        (
            "the good one, last",
            plain("25", "orders", orders(&format!("secret {r}"))),
        ),
    ]
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Every place a secret could hide, as (where, lower-cased text).
fn places(g: &Game) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let root = g.dir.parent().expect("tmp");
    for p in files(root) {
        if p.components().any(|c| c.as_os_str() == ".git") {
            continue;
        }
        let raw = std::fs::read(&p).expect("read");
        let mut text = String::from_utf8_lossy(&raw).to_lowercase();
        // Sent mail: the decoded body and attachments too.
        if p.extension().is_some_and(|x| x == "eml")
            && let Some(m) = mail_parser::MessageParser::default().parse(&raw)
        {
            for i in 0..m.text_body_count() {
                text.push_str(&m.body_text(i).unwrap_or_default().to_lowercase());
            }
            for a in m.attachments() {
                text.push_str(&String::from_utf8_lossy(a.contents()).to_lowercase());
            }
        }
        out.push((p.display().to_string(), text));
    }
    let git = std::process::Command::new("git")
        .arg("-C")
        .arg(&g.dir)
        .args(["cat-file", "--batch-all-objects", "--batch"])
        .output()
        .expect("git");
    out.push((
        "the git objects".into(),
        String::from_utf8_lossy(&git.stdout).to_lowercase(),
    ));
    out
}

#[test]
fn no_secret_is_kept_logged_answered_filed_or_committed() {
    let g = game();
    let mails = corpus(&g);
    assert!(mails.len() >= 20);
    let mail_dir = g.dir.parent().expect("tmp").join("incoming");
    std::fs::create_dir_all(&mail_dir).expect("mkdir");
    let mut paths = Vec::new();
    for (i, (_, raw)) in mails.iter().enumerate() {
        let p = mail_dir.join(format!("{i:02}.eml"));
        std::fs::write(&p, raw).expect("write");
        paths.push(p);
    }
    let d = g.dir.to_str().expect("utf-8");
    let mut args = vec!["ingest", d];
    args.extend(paths.iter().map(|p| p.to_str().expect("utf-8")));
    let (code, out, err) = support::judge_text(&args, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("mail ")).count(),
        mails.len(),
        "every mail handled once: {out}"
    );
    assert!(out.contains("accepted: red's orders"), "{out}");
    // The mails are no longer needed to find a secret in: only what the judge wrote counts.
    std::fs::remove_dir_all(&mail_dir).expect("rm");
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .arg("-C")
            .arg(&g.dir)
            .args(["-c", "user.name=GM", "-c", "user.email=gm@example.org"])
            .args(args)
            .status()
            .expect("git");
        assert!(ok.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    // Everything, even what .gitignore keeps out, to search the history for it.
    git(&["add", "-A", "-f", "."]);
    git(&["commit", "-q", "-m", "all"]);
    let (code, out, err) = support::judge_text(
        &["turn", d, "--force", "--commit"],
        &[
            ("GIT_AUTHOR_NAME", "GM"),
            ("GIT_AUTHOR_EMAIL", "gm@example.org"),
            ("GIT_COMMITTER_NAME", "GM"),
            ("GIT_COMMITTER_EMAIL", "gm@example.org"),
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let places = places(&g);
    assert!(places.iter().any(|(p, _)| p.contains("mail/inbox")));
    assert!(
        places.iter().any(|(p, _)| p.contains("pickup")),
        "mail was sent"
    );
    assert!(
        places
            .iter()
            .any(|(p, _)| p.contains("turns/001/orders/red.txt"))
    );
    for (place, text) in &places {
        for s in [&g.red, &g.yellow] {
            let s = s.to_lowercase();
            let flat: String = text.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
            let needle: String = s.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
            assert!(
                !text.contains(&s) && !flat.contains(&needle),
                "a secret in {place}"
            );
        }
    }
}
