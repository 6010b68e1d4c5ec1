//! No stranger can stop a game. Each test drives the real `judge`
//! over real RFC 5322 mails, and each fails on the judge before the fix (the figures in
//! the comments are what that judge did). Limits: docs/archive.md, "Limits on one mail";
//! answers: docs/gm-guide.md, "What the judge does with odd mail".

use crate::support;

use std::path::PathBuf;
use std::time::Duration;

pub(crate) struct Game {
    _tmp: tempfile::TempDir,
    pub(crate) root: PathBuf,
    pub(crate) dir: PathBuf,
    pub(crate) red: String,
}

pub(crate) fn game(schedule: &str) -> Game {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().to_path_buf();
    let dir = root.join("demo");
    support::new_demo(&dir, "Ann", &[]);
    let (red, _) = support::new_secrets(&dir, &[]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str(&format!(
        "\n[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"{}\"\n{schedule}",
        root.join("pickup").display()
    ));
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    Game {
        _tmp: tmp,
        root,
        dir,
        red,
    }
}

/// Run `judge` with a watchdog: a run that does not end within `limit` is killed and
/// the test fails (this is no timing of the judge: that is `cargo bench --bench mail`;
/// it only stops a test that would otherwise hang for hours).
pub(crate) fn judge_within(args: &[&str], limit: Duration) -> (i32, String, String) {
    judge_at(args, limit, &[])
}

pub(crate) fn judge_at(
    args: &[&str],
    limit: Duration,
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("judge runs");
    let started = std::time::Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("judge {args:?} was still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

impl Game {
    pub(crate) fn d(&self) -> &str {
        self.dir.to_str().expect("utf-8")
    }

    /// `judge ingest` over these mails, as .eml files in this order.
    pub(crate) fn ingest(&self, mails: &[Vec<u8>]) -> String {
        let dir = self.root.join("eml");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("mkdir");
        let mut args = vec!["ingest".to_string(), self.d().to_string()];
        for (i, m) in mails.iter().enumerate() {
            let f = dir.join(format!("{i:04}.eml"));
            std::fs::write(&f, m).expect("write");
            args.push(f.to_string_lossy().into_owned());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = judge_within(&args, Duration::from_secs(120));
        assert_eq!(code, 0, "{out}{err}");
        out
    }

    /// Ann's real orders, loading a board: the mail a player sends.
    pub(crate) fn loading(&self, id: &str) -> Vec<u8> {
        mail(
            "ann@example.org",
            id,
            "",
            &orders(&self.red, "move D1: load 1 board; C3"),
        )
    }

    /// `judge ingest --maildir`, which must end within `secs` and succeed.
    pub(crate) fn ingest_maildir(&self, maildir: &std::path::Path, secs: u64) -> String {
        let args = [
            "ingest",
            self.d(),
            "--maildir",
            maildir.to_str().expect("utf-8"),
        ];
        let (code, out, err) = judge_within(&args, Duration::from_secs(secs));
        assert_eq!(code, 0, "{out}{err}");
        out
    }

    pub(crate) fn sent_to(&self, who: &str) -> Vec<String> {
        let Ok(d) = std::fs::read_dir(self.root.join("pickup")) else {
            return Vec::new();
        };
        d.flatten()
            .map(|e| String::from_utf8_lossy(&std::fs::read(e.path()).expect("read")).into_owned())
            .filter(|m| m.lines().any(|l| l.starts_with("To:") && l.contains(who)))
            .collect()
    }

    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("mail/log.jsonl")).unwrap_or_default()
    }

    pub(crate) fn pending(&self) -> String {
        std::fs::read_to_string(self.dir.join("pending/red.txt")).unwrap_or_default()
    }
}

pub(crate) fn mail(from: &str, id: &str, headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n{headers}\r\n{body}"
    )
    .into_bytes()
}

pub(crate) fn html_mail(from: &str, id: &str, html: &str) -> Vec<u8> {
    mail(
        from,
        id,
        "MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n",
        html,
    )
}

pub(crate) fn orders(secret: &str, line: &str) -> String {
    format!("game demo\r\nplayer red\r\nsecret {secret}\r\nturn 1\r\nmovement\r\n{line}\r\n")
}

/// A Maildir of 200 hostile mails, from strangers and
/// forged from a player, each near 2 MB, with Ann's real orders last. Before: one mail of
/// 390,000 nested `<div>` ran past 600 s, so the run never ended and the real orders were
/// never filed. Now the run ends, each hostile mail is refused once (logged with a short
/// line), the real orders are filed, and the next run reads none of them again.
#[test]
fn a_maildir_of_200_hostile_mails_is_read_and_the_real_orders_filed() {
    let g = game("");
    let maildir = g.root.join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("mkdir");
    }
    for n in 0..200 {
        let from = if n % 2 == 0 {
            "mallory@evil.example"
        } else {
            "ann@example.org"
        };
        let raw = pbem_judge::fuzzing::hostile_mail(n, n, from);
        assert!(raw.len() <= 2 * 1024 * 1024, "{n}: {} bytes", raw.len());
        std::fs::write(maildir.join(format!("new/1764558000.M{n}P1.host")), raw).expect("write");
    }
    std::fs::write(
        maildir.join("new/1764558999.M1P1.host"),
        g.loading("real@x"),
    )
    .expect("write");
    let out = g.ingest_maildir(&maildir, 180);
    assert!(g.pending().contains("move D1: load 1 board; C3"), "{out}");
    let log = g.log();
    assert_eq!(log.lines().count(), 201, "each mail logged once");
    assert!(
        log.lines().all(|l| l.len() < 2_000),
        "no header goes whole into the log: the longest line is {} bytes",
        log.lines().map(str::len).max().unwrap_or(0)
    );
    for why in [
        "its HTML nests 390000 elements deep",
        "its HTML nests 240000 elements deep",
        "its HTML has 1900",
        "its headers do not end within 64 KB",
        "it holds 130000 words that may be secrets",
        "MIME parts, and the judge reads at most 200",
        // HTML counted as the parser builds it, and an order file's size.
        "at most 5000 elements in a mail",
        "order files are read up to 1048576 bytes",
    ] {
        assert!(log.contains(why), "{why}: {log}");
    }
    // Forged from Ann: at most five refusals answered, and one note.
    let to_ann = g.sent_to("ann@example.org");
    assert!(to_ann.len() <= 5 + 1 + 1, "{} mails to Ann", to_ann.len());
    // The next run reads none of them again.
    let out = g.ingest_maildir(&maildir, 60);
    assert!(out.contains("skipped 201 mails already filed"), "{out}");
    assert_eq!(g.log().lines().count(), 201);
}

/// A mail whose reading stopped two runs (killed by a time limit, out
/// of memory) is refused unread on the next run, logged and answered once — never read
/// again on every run. One stopped run (a reboot) only reads it again.
#[test]
fn a_mail_whose_reading_stopped_a_run_is_refused_once() {
    use sha2::Digest;
    let g = game("");
    let raw = html_mail("ann@example.org", "poison@x", "<div>game demo</div>");
    // What a run killed while reading this mail leaves behind.
    let digest: String = sha2::Sha256::digest(&raw)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    std::fs::create_dir_all(g.dir.join("mail")).expect("mkdir");
    std::fs::write(g.dir.join("mail/reading"), format!("{digest} 2\n")).expect("write");
    let out = g.ingest(std::slice::from_ref(&raw));
    assert!(
        out.contains("refused: reading it, or carrying out its commands, stopped the judge twice"),
        "{out}"
    );
    assert!(!g.dir.join("mail/reading").exists());
    assert_eq!(g.sent_to("ann@example.org").len(), 1);
    let out = g.ingest(&[raw]);
    assert!(out.contains("skipped 1 mail already filed"), "{out}");
    assert_eq!(g.sent_to("ann@example.org").len(), 1, "answered once");
    // One stopped run is a kill or a reboot: the mail is read again, and filed.
    let good = mail(
        "ann@example.org",
        "good@x",
        "",
        &orders(&g.red, "move D1: load 1 board; C3"),
    );
    let digest: String = sha2::Sha256::digest(&good)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    std::fs::write(g.dir.join("mail/reading"), format!("{digest} 1\n")).expect("write");
    let out = g.ingest(&[good]);
    assert!(out.contains("accepted: red's orders"), "{out}");
}

/// 200 mails forged from Ann made 200 refusals to Ann. Now at most
/// five refusals an hour are answered to one address, then one note for the day.
#[test]
fn forged_mails_cost_the_player_a_few_answers_an_hour() {
    let g = game("");
    let forged: Vec<Vec<u8>> = (0..40)
        .map(|n| {
            mail(
                "ann@example.org",
                &format!("forged-{n}@x"),
                "",
                &orders("wrong-secret", "move D1: C3"),
            )
        })
        .collect();
    let out = g.ingest(&forged);
    assert_eq!(
        out.matches("refused: the secret is wrong").count(),
        40,
        "{out}"
    );
    assert_eq!(
        out.matches("(answered to ann@example.org)").count(),
        5,
        "{out}"
    );
    let to_ann = g.sent_to("ann@example.org");
    assert_eq!(to_ann.len(), 6, "five refusals and the day's note");
    assert_eq!(
        to_ann
            .iter()
            .filter(|m| m.contains("not answered one by one"))
            .count(),
        1
    );
    // A stranger is never answered.
    let out = g.ingest(&[mail("eve@evil.example", "s@x", "", "hello")]);
    assert!(out.contains("(not answered)"), "{out}");
    assert!(g.sent_to("eve@evil.example").is_empty());
}

/// A stranger who used a Message-ID first made the player's real mail
/// "skipped: already filed". A mail is a duplicate only when it is the same mail.
#[test]
fn a_message_id_taken_first_does_not_stop_the_real_mail() {
    let g = game("");
    let out = g.ingest(&[
        mail("eve@evil.example", "ann-1@example.org", "", "taken"),
        mail(
            "ann@example.org",
            "ann-1@example.org",
            "",
            &orders(&g.red, "move D1: load 1 board; C3"),
        ),
    ]);
    assert!(out.contains("accepted: red's orders for turn 1"), "{out}");
    assert!(g.pending().contains("load 1 board"));
}

/// Two mails delivered in the same second are filed in the order the
/// server delivered them: `M999` then `M1000`, so the later orders count.
#[test]
fn same_second_mails_count_in_delivery_order() {
    let g = game("");
    let maildir = g.root.join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("mkdir");
    }
    std::fs::write(
        maildir.join("new/1764558152.M999P7.host"),
        mail(
            "ann@example.org",
            "older@x",
            "",
            &orders(&g.red, "move D1: C3"),
        ),
    )
    .expect("write");
    std::fs::write(
        maildir.join("new/1764558152.M1000P7.host"),
        g.loading("newer@x"),
    )
    .expect("write");
    let out = g.ingest_maildir(&maildir, 60);
    assert!(
        g.pending().contains("load 1 board"),
        "the newer orders count: {out}"
    );
}

/// A secret used as the Message-ID went into log.jsonl and the
/// answer's In-Reply-To; one folded over two lines, spaced or without its dashes stayed
/// in mail/inbox. Now no form of it is anywhere the judge writes, and the orders are
/// still read (the secret written with spaces is the secret).
#[test]
fn no_form_of_a_secret_is_kept_anywhere() {
    let g = game("");
    let s = g.red.clone();
    let squeezed = s.replace('-', "");
    let spaced = s.replace('-', " ");
    let folded = s.replacen('-', "-\r\n", 1);
    let body = format!(
        "game demo\r\nplayer red\r\nsecret {spaced}\r\nturn 1\r\nmovement\r\nmove D1: C3\r\n# mine is {squeezed}, or {}, folded: {folded}\r\n",
        s.to_uppercase()
    );
    let out = g.ingest(&[mail(
        "ann@example.org",
        &format!("{s}@mail.example.org"),
        "",
        &body,
    )]);
    assert!(out.contains("accepted: red's orders"), "{out}");
    let mut files = support::all_files(&g.dir);
    files.extend(support::all_files(&g.root.join("pickup")));
    assert!(files.len() > 10, "{files:?}");
    for f in files {
        let text = String::from_utf8_lossy(&std::fs::read(&f).expect("read")).to_lowercase();
        let text: String = text.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
        assert!(
            !text.contains(&squeezed),
            "the secret in some form is kept in {}",
            f.display()
        );
    }
    assert!(g.log().contains("<blanked-"), "{}", g.log());
}

/// An mbox `From ` line with a placeholder 1970 date made a late mail
/// count as on time under `late = "refuse"`. The stamp is not trusted: the `Received:`
/// stamp, after the deadline, is.
#[test]
fn a_placeholder_delivery_date_does_not_make_a_late_mail_on_time() {
    let g = game(
        "\n[schedule]\nfirst_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"7days\"\nlate = \"refuse\"\n",
    );
    let raw = mail(
        "ann@example.org",
        "late@x",
        "",
        &orders(&g.red, "move D1: C3"),
    );
    let mut mbox = b"From ann@example.org Thu Jan  1 00:00:00 1970\n".to_vec();
    mbox.extend_from_slice(
        b"Received: from mx by judge.example.org; Wed, 2 Dec 2026 09:00:00 +0000\r\n",
    );
    mbox.extend_from_slice(&raw);
    let f = g.root.join("mbox");
    std::fs::write(&f, mbox).expect("write");
    let args = ["ingest", g.d(), "--mbox", f.to_str().expect("utf-8")];
    let (code, out, err) = judge_at(
        &args,
        Duration::from_secs(60),
        &[("JUDGE_NOW", "2026-12-03T00:00:00Z")],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("after the deadline"), "{out}");
    assert!(g.pending().is_empty());
}
