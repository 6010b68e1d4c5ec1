//! A secret is never written anywhere, nor echoed. A corpus of hostile
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

/// A secret folded over two or more `#` comment lines
/// (`# my secret: abcd-ef` / `# gh-jkmn`) was not blanked: all its characters reached
/// `turns/001/orders/red.txt`, git and the site.
mod folded_over_comments {
    use super::*;
    use pbem_judge::mail::redact::{BLANK, blank, candidates};
    use proptest::prelude::*;

    /// The lines around the folded secret, in letters no secret has (`i`, `l`, `o`).
    const BEGIN: &str = "# FOLD-BEGIN-OLIO";
    const END: &str = "# FOLD-END-OLIO";
    /// The words a fold's first line may begin with: letters no secret has, or
    /// `secret` itself (a `secret` line in a comment).
    const LEADS: [&str; 5] = ["", "mine is ", "secret: ", "secret ", "oil "];

    /// One folded secret: the secret (as `judge secret` makes them, any case and
    /// dashes or none), where it is cut, how each comment line begins, what stands
    /// before it on its first line, and each line's end.
    #[derive(Debug, Clone)]
    struct Fold {
        secret: String,
        cuts: Vec<usize>,
        marks: Vec<&'static str>,
        lead: &'static str,
        crlf: Vec<bool>,
    }

    fn secret_letters() -> impl Strategy<Value = String> {
        let letter = prop::sample::select(
            "abcdefghjkmnpqrstuvwxyz23456789"
                .chars()
                .collect::<Vec<_>>(),
        );
        (
            prop::collection::vec(letter, 12),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(c, dashed, upper)| {
                let mut s = String::new();
                for (k, ch) in c.iter().enumerate() {
                    if dashed && (k == 4 || k == 8) {
                        s.push('-');
                    }
                    s.push(if upper { ch.to_ascii_uppercase() } else { *ch });
                }
                s
            })
    }

    fn fold() -> impl Strategy<Value = Fold> {
        (
            secret_letters(),
            prop::collection::btree_set(1usize..14, 1..4),
            prop::collection::vec(
                prop::sample::select(vec!["#", "# ", "#  ", "> # ", " # ", "##"]),
                4,
            ),
            prop::sample::select(LEADS.to_vec()),
            prop::collection::vec(any::<bool>(), 8),
        )
            .prop_map(|(secret, cuts, marks, lead, crlf)| {
                let cuts: Vec<usize> = cuts.into_iter().filter(|c| *c < secret.len()).collect();
                Fold {
                    secret,
                    cuts,
                    marks,
                    lead,
                    crlf,
                }
            })
            .prop_filter("cut at least once", |f| !f.cuts.is_empty())
    }

    impl Fold {
        /// The secret's pieces, in order.
        fn pieces(&self) -> Vec<&str> {
            let mut out = Vec::new();
            let mut at = 0;
            for &c in &self.cuts {
                out.push(&self.secret[at..c]);
                at = c;
            }
            out.push(&self.secret[at..]);
            out
        }

        fn end(&self, k: usize) -> &'static str {
            if self.crlf[k % self.crlf.len()] {
                "\r\n"
            } else {
                "\n"
            }
        }

        /// The order file: header lines with the secret on its own line (so the
        /// judge knows it), then the fold between [`BEGIN`] and [`END`].
        fn orders(&self) -> String {
            let mut o = String::new();
            for (k, line) in [
                "game demo".to_string(),
                "player red".into(),
                format!("secret {}", self.secret),
                "turn 1".into(),
                "movement".into(),
                "move D1: C3".into(),
                BEGIN.into(),
            ]
            .iter()
            .enumerate()
            {
                o.push_str(line);
                o.push_str(self.end(k));
            }
            for (k, piece) in self.pieces().iter().enumerate() {
                o.push_str(self.marks[k % self.marks.len()]);
                if k == 0 {
                    o.push_str(self.lead);
                }
                o.push_str(piece);
                o.push_str(self.end(k + 1));
            }
            o.push_str(END);
            o.push_str(self.end(7));
            o
        }
    }

    /// What is left of the fold in `text` (every stretch between [`BEGIN`] and [`END`],
    /// the blank marks taken out), as letters and digits; `None` if the text holds no
    /// fold. Only the lead's own letters may be there: no character of the secret.
    fn left_of_fold(text: &str) -> Option<Vec<String>> {
        let lower = text.to_ascii_uppercase();
        let mut out = Vec::new();
        for part in lower.split("FOLD-BEGIN-OLIO").skip(1) {
            let Some((inside, _)) = part.split_once("FOLD-END-OLIO") else {
                continue;
            };
            let inside = inside.replace(&BLANK.to_ascii_uppercase(), " ");
            out.push(
                inside
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .collect::<String>()
                    .to_ascii_lowercase(),
            );
        }
        (!out.is_empty()).then_some(out)
    }

    /// Whether what is left of a fold is only what its lead says.
    fn only_the_lead(left: &str) -> bool {
        LEADS.iter().any(|l| {
            left == l
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

        /// The blanking itself, over many folds: no character of the secret is left
        /// where it was folded, and the rest of the text stays.
        #[test]
        fn no_character_of_a_folded_secret_is_left(f in fold()) {
            let text = f.orders();
            let out = blank(&text, &candidates([text.as_str()]));
            let left = left_of_fold(&out).expect("the fold's lines stay");
            for l in &left {
                prop_assert!(only_the_lead(l), "{:?} left of {:?} in {:?}", l, f.secret, out);
            }
            prop_assert!(out.contains("move D1: C3"), "{}", out);
        }
    }

    /// The raw mail of `orders`: plain, or quoted-printable with a soft line break
    /// (`=` at a line's end) at each of `soft`'s places.
    fn mail_of(orders: &str, soft: Option<&[usize]>) -> String {
        let head = "From: Ann <ann@example.org>\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <fold@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n";
        match soft {
            None => format!("{head}\r\n{orders}"),
            Some(at) => {
                let mut body = String::new();
                for (k, c) in orders.chars().enumerate() {
                    if at.contains(&k) && c != '\r' && c != '\n' {
                        body.push_str("=\r\n");
                    }
                    body.push(c);
                }
                format!("{head}Content-Transfer-Encoding: quoted-printable\r\n\r\n{body}")
            }
        }
    }

    /// The same, through the judge: a game whose red player has the fold's secret
    /// gets the mail (plain or quoted-printable, soft breaks anywhere, even inside the
    /// secret), files it, plays the turn, commits it and makes its site. Then the fold's
    /// lines are looked for in every file of the game, of the mail the judge sent
    /// (decoded), of the site, and in every object of the game's git: wherever they are
    /// (the filed order file, the kept mail, the site's turn page, git's copy of the
    /// order file), no character of the secret is left in them, and nowhere is the
    /// secret in any form.
    #[test]
    fn no_character_of_a_folded_secret_reaches_the_orders_git_or_the_site() {
        use proptest::test_runner::{Config, TestRunner};
        let tmp = tempfile::tempdir().expect("tmp");
        // Named `demo`, as the orders say.
        let template = tmp.path().join("template").join("demo");
        support::new_demo(&template, "Ann", &[]);
        support::new_secrets(&template, &[]);
        let toml = std::fs::read_to_string(template.join("game.toml")).expect("toml");
        let toml = format!(
            "{toml}\n[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"../pickup\"\n"
        );
        let cases = std::cell::Cell::new(0);
        let mut runner = TestRunner::new(Config {
            cases: 8,
            failure_persistence: None,
            ..Config::default()
        });
        let soft = prop::option::of(prop::collection::vec(0usize..200, 1..12));
        runner
            .run(&(fold(), soft), |(f, soft)| {
                cases.set(cases.get() + 1);
                let root = tmp.path().join(format!("case-{}", cases.get()));
                let dir = root.join("demo");
                support::copy_dir(&template, &dir, &|_| true);
                // Red's secret is the fold's.
                std::fs::write(
                    dir.join("game.toml"),
                    support::with_red_secret(&toml, &f.secret),
                )
                .expect("toml");
                let d = dir.to_str().expect("utf-8");
                let git = |args: &[&str]| {
                    let ok = std::process::Command::new("git")
                        .arg("-C")
                        .arg(&dir)
                        .args(["-c", "user.name=GM", "-c", "user.email=gm@example.org"])
                        .args(args)
                        .output()
                        .expect("git");
                    assert!(ok.status.success(), "git {args:?}");
                };
                git(&["init", "-q"]);
                git(&["add", "-A", "."]);
                git(&["commit", "-q", "-m", "turn 0"]);
                let raw = root.join("orders.eml");
                std::fs::write(&raw, mail_of(&f.orders(), soft.as_deref())).expect("mail");
                let (code, out, err) =
                    support::judge_text(&["ingest", d, raw.to_str().expect("utf-8")], &[]);
                prop_assert_eq!(code, 0, "{}{}", out, err);
                prop_assert!(out.contains("accepted: red's orders"), "{}", out);
                std::fs::remove_file(&raw).expect("rm");
                let env = [
                    ("GIT_AUTHOR_NAME", "GM"),
                    ("GIT_AUTHOR_EMAIL", "gm@example.org"),
                    ("GIT_COMMITTER_NAME", "GM"),
                    ("GIT_COMMITTER_EMAIL", "gm@example.org"),
                ];
                let (code, out, err) =
                    support::judge_text(&["turn", d, "--force", "--commit"], &env);
                prop_assert_eq!(code, 0, "{}{}", out, err);
                let site = root.join("site");
                let (code, out, err) =
                    support::judge_text(&["site", d, "-o", site.to_str().expect("utf-8")], &[]);
                prop_assert_eq!(code, 0, "{}{}", out, err);

                // Each place: its raw text, and its text as read (a mail decoded).
                let mut places: Vec<(String, String, String)> = Vec::new();
                for p in files(&root) {
                    if p.components().any(|c| c.as_os_str() == ".git") {
                        continue;
                    }
                    let bytes = std::fs::read(&p).expect("read");
                    let raw = String::from_utf8_lossy(&bytes).into_owned();
                    let mut read = raw.clone();
                    if p.extension().is_some_and(|x| x == "eml")
                        && let Some(m) = mail_parser::MessageParser::default().parse(&bytes)
                    {
                        read = (0..m.text_body_count())
                            .map(|i| m.body_text(i).unwrap_or_default().into_owned())
                            .collect();
                    }
                    if p.extension().is_some_and(|x| x == "html") {
                        read = read
                            .replace("&lt;", "<")
                            .replace("&gt;", ">")
                            .replace("&quot;", "\"")
                            .replace("&amp;", "&");
                    }
                    places.push((p.display().to_string(), raw.clone() + &read, read));
                }
                let objects = support::git_objects(&dir);
                places.push(("the git objects".into(), objects.clone(), objects));
                let secret: String = f
                    .secret
                    .to_lowercase()
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .collect();
                let mut folds = Vec::new();
                for (place, text, read) in &places {
                    let flat: String = text
                        .to_lowercase()
                        .chars()
                        .filter(char::is_ascii_alphanumeric)
                        .collect();
                    prop_assert!(!flat.contains(&secret), "the secret in {}", place);
                    if let Some(left) = left_of_fold(read) {
                        for l in &left {
                            prop_assert!(
                                only_the_lead(l),
                                "{:?} of the secret {:?} is left in {}",
                                l,
                                f.secret,
                                place
                            );
                        }
                        folds.push(place.clone());
                    }
                }
                // The fold was looked for where it went: the filed order file, the
                // kept mail, the site's page of turn 1 and git.
                for want in [
                    "turns/001/orders/red.txt",
                    "mail/inbox",
                    "site/turn-001.html",
                    "the git objects",
                ] {
                    prop_assert!(
                        folds.iter().any(|p| p.contains(want)),
                        "no fold in {}: {:?}",
                        want,
                        folds
                    );
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
}
