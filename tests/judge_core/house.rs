//! "One mailbox, many games": three games — Roads & Boats, Catan, Catan
//! Express — under one judge address (games/judge.toml), run by `judge turn --all`
//! against the real mail servers, once with the shared Maildir and once over IMAP. Bob
//! plays in two of them and his mails cross; a mail names no game, one names a game its
//! sender does not play in, a stranger writes; one game is busy and one is broken. Each
//! mail goes to its game and only there, is filed and answered once however many passes
//! run, and no game's fault stops the others.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::support;
use crate::support::servers::Servers;

struct House {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    srv: Servers,
}

const BEFORE: &str = "2026-11-27T12:00:00Z";

impl House {
    fn d(&self) -> &str {
        self.root.to_str().expect("utf-8")
    }

    fn game(&self, name: &str) -> String {
        self.root.join(name).to_str().expect("utf-8").to_string()
    }

    fn judge(&self, args: &[&str], now: &str) -> (i32, String, String) {
        support::judge_text(
            args,
            &[("JUDGE_NOW", now), ("JUDGE_IMAP_PASSWORD", "judge-pass")],
        )
    }

    /// One pass of `judge turn --all`.
    fn pass(&self, now: &str) -> (i32, String) {
        let (code, out, err) = self.judge(&["turn", "--all", self.d()], now);
        (code, format!("{out}{err}"))
    }

    /// The mails delivered to `who`: (subject, body).
    fn to(&self, who: &str) -> Vec<(String, String)> {
        self.srv.mails_to(who)
    }

    /// The lines of a game's mail log.
    fn log(&self, game: &str) -> Vec<String> {
        std::fs::read_to_string(self.root.join(game).join("mail/log.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// Make the folder: judge.toml with the shared mailbox, three games without [mail] of
/// their own, each player's secret by welcome mail.
fn house(imap: bool) -> (House, BTreeMap<(String, String), String>) {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("games");
    std::fs::create_dir_all(&root).expect("mkdir");
    let srv = Servers::start();
    let mailbox = if imap {
        format!(
            "imap_host = \"127.0.0.1\"\nimap_port = {}\nimap_user = \"judge\"\nimap_security = \"none\"\n",
            srv.imap
        )
    } else {
        format!("maildir = \"{}\"\n", srv.maildir().display())
    };
    std::fs::write(
        root.join("judge.toml"),
        format!(
            "[mail]\nfrom = \"Judge <judge@example.org>\"\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {}\nsmtp_security = \"none\"\n{mailbox}",
            srv.smtp
        ),
    )
    .expect("judge.toml");
    let h = House {
        _tmp: tmp,
        root,
        srv,
    };
    for (name, game, players) in [
        (
            "rivers",
            "roads-and-boats",
            ["Ann:ann@example.org", "Bob:bob@example.org"].as_slice(),
        ),
        (
            "island",
            "catan",
            [
                "Ann:ann@example.org",
                "Cat:cat@example.org",
                "Dan:dan@example.org",
            ]
            .as_slice(),
        ),
        (
            "express",
            "catan-express",
            [
                "Bob:bob@example.org",
                "Cat:cat@example.org",
                "Eve:eve@example.org",
            ]
            .as_slice(),
        ),
    ] {
        let dir = h.game(name);
        let mut args = vec!["new", dir.as_str(), "--game", game, "--seed", "5"];
        if game == "roads-and-boats" {
            args.extend(["--scenario", "two-rivers"]);
        }
        for p in players {
            args.extend(["--player", p]);
        }
        let (code, out, err) = h.judge(&args, BEFORE);
        assert_eq!(code, 0, "{out}{err}");
        let toml = Path::new(&dir).join("game.toml");
        let mut text = std::fs::read_to_string(&toml).expect("game.toml");
        text.push_str(
            "\n[schedule]\nfirst_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"2days\"\n",
        );
        std::fs::write(&toml, text).expect("write");
        // The game sends with the folder's [mail]: it has none of its own.
        let (code, out, err) = h.judge(&["secret", &dir, "--mail"], BEFORE);
        assert_eq!(code, 0, "{name}: {out}{err}");
    }
    let mut secrets = BTreeMap::new();
    for m in h.srv.delivered() {
        let Some(game) = m.1.strip_prefix('[').and_then(|s| s.split(']').next()) else {
            continue;
        };
        if let Some(secret) = crate::support::welcome_secret(&m.2) {
            secrets.insert((m.0.clone(), game.to_string()), secret);
        }
    }
    assert_eq!(secrets.len(), 8, "every player's welcome mail: {secrets:?}");
    (h, secrets)
}

fn one_address_for_three_games(imap: bool) {
    let (h, secrets) = house(imap);
    let secret = |who: &str, game: &str| secrets[&(who.to_string(), game.to_string())].clone();
    let yellow = std::fs::read_to_string("games/demo/pending/yellow.txt")
        .expect("the demo's orders")
        .replace("game demo\nplayer yellow\nturn 1\n", "");
    // Bob's Roads & Boats orders and his Catan Express orders cross in the mailbox.
    h.srv.send(
        "Bob <bob@example.org>",
        "my turn",
        &format!(
            "game rivers\nplayer yellow\nturn 1\nsecret {}\n{yellow}",
            secret("bob@example.org", "rivers")
        ),
    );
    h.srv.send(
        "Bob <bob@example.org>",
        "express",
        &format!(
            "game express\nplayer red\nturn 1\nsecret {}\nfounding\n",
            secret("bob@example.org", "express")
        ),
    );
    // Bob names no game: he plays in two. Ann names one she is not in. A stranger.
    h.srv.send("Bob <bob@example.org>", "hello", "status\n");
    h.srv.send(
        "Ann <ann@example.org>",
        "oops",
        "game express\nplayer red\n",
    );
    h.srv.send("Zed <zed@example.org>", "offer", "cheap dice\n");
    // Cat, in two games, replies to a report of island: its subject names the game.
    h.srv.send(
        "Cat <cat@example.org>",
        "Re: [island] welcome: you play blue",
        &format!(
            "game island\nplayer blue\nturn 1\nsecret {}\n",
            secret("cat@example.org", "island")
        ),
    );
    // A busy game: another command holds island's lock for this pass.
    let lock = std::fs::File::create(h.root.join("island/.judge.lock")).expect("lock");
    lock.try_lock().expect("the lock is free");

    let (code, out) = {
        let (code, out, err) = h.judge(
            &["turn", "--all", h.d(), "--wait", "1"],
            "2026-11-28T10:00:00Z",
        );
        (code, format!("{out}{err}"))
    };
    assert_ne!(code, 0, "a busy game is a failure for cron to show: {out}");
    assert!(out.contains("island: not run:"), "{out}");
    assert!(out.contains("1 mail wait for the next pass"), "{out}");
    // Every other game went on: Bob's orders were filed by each of his games.
    assert!(
        out.contains("rivers: ") && out.contains("accepted: yellow's orders for turn 1"),
        "{out}"
    );
    assert!(
        out.contains("express: ") && out.contains("red's orders"),
        "{out}"
    );
    for g in ["rivers", "express"] {
        let log = h.log(g);
        assert!(
            log.iter().all(|l| !l.contains("judge@example.org")),
            "the judge's own mail is no game's: {log:?}"
        );
        assert_eq!(
            log.iter().filter(|l| l.contains("bob@example.org")).count(),
            1,
            "{g} filed Bob's mail for it, and only that: {log:?}"
        );
    }
    assert!(h.log("island").is_empty(), "a busy game is not touched");
    // The two mails for no game of their senders were answered with their games; the
    // stranger was not answered.
    let bob: Vec<(String, String)> = h
        .to("bob@example.org")
        .into_iter()
        .filter(|m| m.0 == "Which game is your mail for?")
        .collect();
    assert_eq!(bob.len(), 1, "{bob:?}");
    assert!(
        bob[0].1.contains("game express") && bob[0].1.contains("game rivers"),
        "{}",
        bob[0].1
    );
    assert!(
        !bob[0].1.contains("island"),
        "only his own games: {}",
        bob[0].1
    );
    let ann: Vec<(String, String)> = h
        .to("ann@example.org")
        .into_iter()
        .filter(|m| m.0.contains("a game you do not play in"))
        .collect();
    assert_eq!(ann.len(), 1, "{:?}", h.to("ann@example.org"));
    assert!(ann[0].1.contains("game island") && ann[0].1.contains("game rivers"));
    assert!(h.to("zed@example.org").is_empty(), "no mail to strangers");
    // No answer anywhere echoes a secret (the players' own mails to the judge hold
    // theirs, and the welcome mails carry them).
    for m in h.srv.delivered() {
        if m.0 == "judge@example.org" || m.1.contains("welcome") {
            continue;
        }
        for s in secrets.values() {
            assert!(!m.2.contains(s.as_str()), "a secret in {:?}", m.1);
        }
    }

    // The lock is let go; a broken game appears. The next pass files island's mail,
    // reports the broken game, and files nothing twice.
    drop(lock);
    std::fs::create_dir_all(h.root.join("broken")).expect("mkdir");
    std::fs::write(
        h.root.join("broken/game.toml"),
        "game = \"roads-and-boats\"\nseed = \n",
    )
    .expect("write");
    let before: Vec<usize> = ["rivers", "express"]
        .iter()
        .map(|g| h.log(g).len())
        .collect();
    let answers = h.srv.delivered().len();
    // Bob writes again with no game line: while a game cannot be read, whose players
    // are unknown, such a mail waits, unread; a mail whose game line names a game that
    // is read goes on (Cat's, above).
    h.srv.send("Bob <bob@example.org>", "again", "hello\n");
    let which = |h: &House| {
        h.to("bob@example.org")
            .iter()
            .filter(|m| m.0 == "Which game is your mail for?")
            .count()
    };
    let (code, out) = h.pass("2026-11-28T10:05:00Z");
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("broken: not run:"), "{out}");
    assert!(
        out.contains("1 mail wait unread until every game of the folder can be read"),
        "{out}"
    );
    assert_eq!(which(&h), 1, "Bob's second mail waits: {out}");
    assert!(
        out.contains("island: ") && out.contains("from cat@example.org"),
        "{out}"
    );
    let after: Vec<usize> = ["rivers", "express"]
        .iter()
        .map(|g| h.log(g).len())
        .collect();
    assert_eq!(before, after, "nothing filed twice: {out}");
    assert_eq!(
        h.to("cat@example.org")
            .iter()
            .filter(|m| m.0.starts_with("[island]") && !m.0.contains("welcome"))
            .count(),
        1,
        "island answered Cat once: {:?}",
        h.to("cat@example.org")
    );
    assert!(
        h.srv.delivered().len() > answers,
        "island's answer went out: {out}"
    );
    // The broken game is put away: the next pass answers Bob's waiting mail, once.
    std::fs::remove_dir_all(h.root.join("broken")).expect("rm");
    let (code, out) = h.pass("2026-11-28T10:08:00Z");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("from bob@example.org, names no game"), "{out}");
    let start = Instant::now();
    while which(&h) < 2 && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(which(&h), 2, "{out}");
    // And a pass after it is quiet: every mail is done.
    let delivered = h.srv.delivered().len();
    let logs: Vec<usize> = ["rivers", "island", "express"]
        .iter()
        .map(|g| h.log(g).len())
        .collect();
    let (code, out) = h.pass("2026-11-28T10:10:00Z");
    assert_eq!(code, 0, "{out}");
    assert!(
        !out.contains("mailroom: "),
        "no mail for no game twice: {out}"
    );
    assert_eq!(
        logs,
        ["rivers", "island", "express"]
            .iter()
            .map(|g| h.log(g).len())
            .collect::<Vec<_>>(),
        "{out}"
    );
    assert_eq!(
        delivered,
        h.srv.delivered().len(),
        "nothing answered twice: {out}"
    );
}

#[test]
fn one_address_for_three_games_by_maildir() {
    one_address_for_three_games(false);
}

#[test]
fn one_address_for_three_games_by_imap() {
    one_address_for_three_games(true);
}

/// The answers `who` got from `game` but the welcome mail.
fn answers(h: &House, who: &str, game: &str) -> usize {
    h.to(who)
        .iter()
        .filter(|m| m.0.starts_with(&format!("[{game}]")) && !m.0.contains("welcome"))
        .count()
}

/// Wait until `who` has more than `before` answers from `game`; how long that took.
fn answered_after(h: &House, who: &str, game: &str, before: usize, limit: Duration) -> Duration {
    let start = Instant::now();
    while answers(h, who, game) <= before {
        assert!(
            start.elapsed() < limit,
            "no answer to {who} from {game} within {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    start.elapsed()
}

/// `judge serve` running as a test's child: its output in `serve.log`, killed if the
/// test fails before it stops it (a server left running would hold what the test run
/// holds, the build's lock among them).
struct Serve {
    child: std::process::Child,
    log: PathBuf,
}

impl Serve {
    /// Start `command` (the judge and its arguments) in the folder, and wait until it
    /// says it is serving.
    fn start(h: &House, command: &[String]) -> Serve {
        let log = h.root.join("serve.log");
        let child = std::process::Command::new(&command[0])
            .args(&command[1..])
            .current_dir(&h.root)
            .env("JUDGE_IMAP_PASSWORD", "judge-pass")
            .env("GIT_AUTHOR_NAME", "GM")
            .env("GIT_AUTHOR_EMAIL", "gm@example.org")
            .env("GIT_COMMITTER_NAME", "GM")
            .env("GIT_COMMITTER_EMAIL", "gm@example.org")
            .env_remove("JUDGE_NOW")
            .stdout(std::fs::File::create(&log).expect("log"))
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect("judge serve starts");
        let serve = Serve { child, log };
        let start = Instant::now();
        while !serve.said().contains("serving") {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{}",
                serve.said()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        serve
    }

    fn said(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGTERM, and the exit status, which must come `within`.
    fn stop(&mut self, within: Duration) -> std::process::ExitStatus {
        let ok = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill");
        assert!(ok.success());
        let start = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                return s;
            }
            assert!(
                start.elapsed() < within,
                "no exit within {within:?}: {}",
                self.said()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// "Answers in seconds": `judge serve` over IMAP IDLE answers each order mail
/// within seconds of its delivery (the figures are printed; 10 mails by default,
/// `JUDGE_SERVE_MAILS=100` for a hundred), answers again after the
/// mail server restarts, and
/// on SIGTERM finishes the mail in hand and exits 0; a cron pass after it finds every
/// mail answered exactly once.
#[test]
fn judge_serve_answers_in_seconds_survives_a_restart_and_stops_cleanly() {
    let (h, secrets) = house(true);
    let island = secrets[&("ann@example.org".to_string(), "island".to_string())].clone();
    // The server runs as deploy/systemd/judge-serve.service runs it: its ExecStart, in
    // its WorkingDirectory, stopped by its KillSignal within its TimeoutStopSec.
    let unit = std::fs::read_to_string("deploy/systemd/judge-serve.service").expect("unit");
    let key = |k: &str| {
        unit.lines()
            .find_map(|l| l.strip_prefix(&format!("{k}=")))
            .unwrap_or_else(|| panic!("{k} in the unit"))
            .to_string()
    };
    assert_eq!(key("Type"), "simple");
    assert_eq!(key("KillSignal"), "SIGTERM");
    assert_eq!(key("WorkingDirectory"), "/srv/judge");
    let stop_within: u64 = key("TimeoutStopSec").parse().expect("seconds");
    let command: Vec<String> = key("ExecStart")
        .split_whitespace()
        .map(|w| match w {
            "/usr/local/bin/judge" => env!("CARGO_BIN_EXE_judge").to_string(),
            "/srv/judge" => h.d().to_string(),
            w => w.to_string(),
        })
        .collect();
    assert!(command.contains(&"--commit".to_string()), "{command:?}");
    // Committed games: each folder is in git, as the GM keeps it.
    for g in ["rivers", "island", "express"] {
        for args in [
            vec!["init", "-q"],
            vec!["add", "-A"],
            vec!["commit", "-q", "-m", "turn 0"],
        ] {
            let ok = std::process::Command::new("git")
                .current_dir(h.root.join(g))
                .args(["-c", "user.name=GM", "-c", "user.email=gm@example.org"])
                .args(&args)
                .status()
                .expect("git");
            assert!(ok.success(), "git {args:?}");
        }
    }
    let mut serve = Serve::start(&h, &command);
    // The first pass files the welcome mails' echoes (the servers keep one Maildir for
    // everybody); let it finish before timing.
    std::thread::sleep(Duration::from_secs(2));
    let orders = |n: usize| {
        format!("game island\nplayer red\nturn 1\nsecret {island}\nfounding\n# try {n}\n")
    };
    let count: usize = std::env::var("JUDGE_SERVE_MAILS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let mut times = Vec::new();
    for n in 0..count {
        let before = answers(&h, "ann@example.org", "island");
        h.srv.send("Ann <ann@example.org>", "orders", &orders(n));
        times.push(answered_after(
            &h,
            "ann@example.org",
            "island",
            before,
            Duration::from_secs(10),
        ));
    }
    times.sort();
    let median = times[times.len() / 2];
    let worst = times[times.len() - 1];
    eprintln!(
        "judge serve, {count} order mails one after another, delivery to answer: median {median:?}, worst {worst:?}"
    );
    assert!(median < Duration::from_secs(2), "median {median:?}");
    assert!(worst < Duration::from_secs(10), "worst {worst:?}");

    // The mail server restarts: the server reconnects and answers the next mail.
    h.srv.restart();
    let before = answers(&h, "ann@example.org", "island");
    h.srv
        .send("Ann <ann@example.org>", "orders", &orders(count));
    answered_after(
        &h,
        "ann@example.org",
        "island",
        before,
        Duration::from_secs(60),
    );

    // SIGTERM with a mail just delivered: the server finishes its pass and exits 0.
    h.srv
        .send("Ann <ann@example.org>", "orders", &orders(count + 1));
    std::thread::sleep(Duration::from_millis(100));
    let status = serve.stop(Duration::from_secs(stop_within));
    assert!(status.success(), "{status:?}: {}", serve.said());
    assert!(serve.said().contains("stopped"), "{}", serve.said());
    // With --commit every pass went through (filed mail is private until its turn is
    // played: nothing of it is for git yet), and no game failed.
    assert!(!serve.said().contains("not run"), "{}", serve.said());
    // Whatever the moment of the stop, a cron pass leaves every mail answered once.
    let (code, out) = h.pass("2026-11-28T10:00:00Z");
    assert_eq!(code, 0, "{out}");
    let sent = count + 2;
    let start = Instant::now();
    while answers(&h, "ann@example.org", "island") < sent
        && start.elapsed() < Duration::from_secs(10)
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        answers(&h, "ann@example.org", "island"),
        sent,
        "each of Ann's {sent} mails answered exactly once: {}{out}",
        serve.said()
    );
}

/// "scale": scripts/bench-many-games, run by hand at full size (200 games, 2,000
/// mails, a release build), runs here small, so that it keeps
/// working: every mail filed by its game in one pass.
#[test]
fn the_scale_benchmark_files_every_mail_in_one_pass() {
    let out = std::process::Command::new("python3")
        .args([
            "scripts/bench-many-games",
            "--judge",
            env!("CARGO_BIN_EXE_judge"),
            "--games",
            "4",
            "--mails",
            "16",
            "--due",
        ])
        .output()
        .expect("python3 runs the script");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("4 games, 16 mails waiting (turns due): one pass ")
            && said.contains("16 mails filed, 4 turns played"),
        "{said}"
    );
}

/// Put `line` at the top of a game's game.toml (a key before its tables).
fn set_top(h: &House, game: &str, line: &str) {
    let toml = h.root.join(game).join("game.toml");
    let text = std::fs::read_to_string(&toml).expect("game.toml");
    std::fs::write(&toml, format!("{line}\n{text}")).expect("game.toml");
}

/// Wait until every `(who, subject start)` has at least one mail; the mails then.
fn wait_for(h: &House, wanted: &[(&str, &str)], limit: Duration) -> Vec<(String, String, String)> {
    let start = Instant::now();
    loop {
        let all: Vec<(String, String, String)> = h
            .srv
            .delivered()
            .into_iter()
            .map(|m| (m.0, m.1, m.2))
            .collect();
        let missing: Vec<&(&str, &str)> = wanted
            .iter()
            .filter(|(who, subject)| !all.iter().any(|m| m.0 == *who && m.1.starts_with(subject)))
            .collect();
        if missing.is_empty() {
            return all;
        }
        assert!(
            start.elapsed() < limit,
            "still waiting for {missing:?}; delivered: {:?}",
            all.iter().map(|m| (&m.0, &m.1)).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One mailbox, many games, end to end: under `judge serve`, three games (Roads & Boats, Catan,
/// Catan Express) and a fourth open for sign-up, from one mailbox: crossing mails, a
/// mail for no game, command mails, press in each mode (`open` in rivers, `anonymous`
/// in island, `off` in express), a sign-up that fills a game and one to the full game,
/// a mail server restart and a SIGTERM with a mail just delivered. Nothing is lost,
/// nothing filed or answered twice, nothing answered by the wrong game.
#[test]
fn judge_serve_runs_commands_press_and_sign_up_for_every_game_of_one_address() {
    let (h, secrets) = house(true);
    let secret = |who: &str, game: &str| secrets[&(who.to_string(), game.to_string())].clone();
    set_top(&h, "island", "press = \"anonymous\"");
    set_top(&h, "express", "press = \"off\"");
    let harbour = h.game("harbour");
    let (code, out, err) = h.judge(
        &[
            "new",
            &harbour,
            "--game",
            "catan",
            "--seed",
            "8",
            "--player",
            "Hal:hal@example.org",
            "--player",
            "Ivy:ivy@example.org",
            "--open",
            "1",
        ],
        BEFORE,
    );
    assert_eq!(code, 0, "{out}{err}");
    let judge = env!("CARGO_BIN_EXE_judge").to_string();
    let command = vec![judge.clone(), "serve".into(), h.d().to_string()];
    let mut serve = Serve::start(&h, &command);
    // The first pass files the welcome mails' echoes (one Maildir holds everybody's).
    std::thread::sleep(Duration::from_secs(2));
    let yellow = std::fs::read_to_string("games/demo/pending/yellow.txt")
        .expect("the demo's orders")
        .replace("game demo\nplayer yellow\nturn 1\n", "");
    // Bob's two games' orders cross; a stranger writes; Ann asks for her games; Ann
    // sends commands to island; press in each mode; two strangers join harbour and
    // confirm.
    h.srv.send(
        "Bob <bob@example.org>",
        "my turn",
        &format!(
            "game rivers\nplayer yellow\nturn 1\nsecret {}\n{yellow}",
            secret("bob@example.org", "rivers")
        ),
    );
    h.srv.send(
        "Bob <bob@example.org>",
        "express",
        &format!(
            "game express\nplayer red\nturn 1\nsecret {}\nfounding\n",
            secret("bob@example.org", "express")
        ),
    );
    h.srv.send("Zed <zed@example.org>", "offer", "cheap dice\n");
    h.srv.send("Ann <ann@example.org>", "mine?", "games\n");
    h.srv.send(
        "Ann <ann@example.org>",
        "status",
        "game island\nstatus\ntemplate\n",
    );
    h.srv.send(
        "Ann <ann@example.org>",
        "press",
        &format!(
            "game rivers\nsecret {}\npress to all: Shall we share the river?\n",
            secret("ann@example.org", "rivers")
        ),
    );
    h.srv.send(
        "Ann <ann@example.org>",
        "press",
        &format!(
            "game island\nsecret {}\nanonymous press to all: Cat hoards ore\n",
            secret("ann@example.org", "island")
        ),
    );
    h.srv.send(
        "Cat <cat@example.org>",
        "press",
        &format!(
            "game express\nsecret {}\npress to all: hello express\n",
            secret("cat@example.org", "express")
        ),
    );
    h.srv
        .send("Fay <fay@example.org>", "seat", "join harbour as Fay\n");
    h.srv
        .send("Gus <gus@example.org>", "seat", "join harbour as Gus\n");
    let all = wait_for(
        &h,
        &[
            ("bob@example.org", "[rivers] turn 1: filed"),
            // Red founds second: its founding, sent early, is answered as its own step.
            ("bob@example.org", "[express] turn 2: filed"),
            ("ann@example.org", "Your games"),
            ("ann@example.org", "[island] status, template"),
            ("bob@example.org", "[rivers] press from red (Ann)"),
            ("ann@example.org", "[island] anonymous press"),
            ("cat@example.org", "[express] press"),
            ("fay@example.org", "[harbour] sign-up: confirm your seat"),
            ("gus@example.org", "[harbour] sign-up: confirm your seat"),
        ],
        Duration::from_secs(60),
    );
    // Each sends back the line the judge mailed: Fay first takes
    // the last seat, and the game begins; Gus's comes too late.
    let line = |who: &str| {
        all.iter()
            .filter(|m| m.0 == who)
            .find_map(|m| {
                m.2.lines()
                    .map(str::trim)
                    .find(|l| l.starts_with("confirm harbour "))
                    .map(str::to_string)
            })
            .expect("the line to send back")
    };
    h.srv.send(
        "Fay <fay@example.org>",
        "Re: seat",
        &format!("{}\n", line("fay@example.org")),
    );
    wait_for(
        &h,
        &[("fay@example.org", "[harbour] welcome: you play")],
        Duration::from_secs(60),
    );
    h.srv.send(
        "Gus <gus@example.org>",
        "Re: seat",
        &format!("{}\n", line("gus@example.org")),
    );
    let all = wait_for(
        &h,
        &[
            ("gus@example.org", "[harbour] sign-up: not taken"),
            ("hal@example.org", "[harbour] the game begins"),
        ],
        Duration::from_secs(60),
    );
    let body = |who: &str, subject: &str| {
        all.iter()
            .find(|m| m.0 == who && m.1.starts_with(subject))
            .map(|m| m.2.clone())
            .unwrap_or_default()
    };
    assert!(body("ann@example.org", "Your games").contains("game rivers"));
    assert!(body("ann@example.org", "Your games").contains("game island"));
    assert!(
        !body("ann@example.org", "Your games").contains("express"),
        "only her games"
    );
    assert!(body("cat@example.org", "[express] press").contains("This game has no press"));
    assert!(body("gus@example.org", "[harbour] sign-up: not taken").contains("is full"));
    // Anonymous press waits for the hour to be out (docs/mail-commands.md): its sender
    // is told when it goes.
    assert!(
        body("ann@example.org", "[island] anonymous press")
            .contains("Held, to be relayed without your name"),
        "{}",
        body("ann@example.org", "[island] anonymous press")
    );
    assert!(h.to("zed@example.org").is_empty(), "no mail to strangers");
    assert!(
        all.iter().all(|m| !m.2.contains("hello express")
            || m.0 == "judge@example.org"
            || m.0 == "cat@example.org"),
        "press where it is off is relayed to nobody"
    );

    // The mail server restarts; a command mail after it is answered.
    h.srv.restart();
    h.srv
        .send("Dan <dan@example.org>", "help", "game island\nhelp\n");
    wait_for(
        &h,
        &[("dan@example.org", "[island] help")],
        Duration::from_secs(60),
    );

    // SIGTERM with a mail just delivered: the pass in hand is finished, exit 0.
    h.srv
        .send("Eve <eve@example.org>", "status", "game express\nstatus\n");
    std::thread::sleep(Duration::from_millis(100));
    let status = serve.stop(Duration::from_secs(120));
    assert!(status.success(), "{status:?}: {}", serve.said());
    let (code, out) = h.pass("2026-11-28T10:00:00Z");
    assert_eq!(code, 0, "{out}");
    wait_for(
        &h,
        &[("eve@example.org", "[express] status")],
        Duration::from_secs(10),
    );
    // Once more, a pass that finds nothing new: nothing is answered twice.
    let before = h.srv.delivered();
    let (code, out) = h.pass("2026-11-28T10:05:00Z");
    assert_eq!(code, 0, "{out}");
    std::thread::sleep(Duration::from_millis(500));
    let after = h.srv.delivered();
    assert_eq!(before.len(), after.len(), "{out}");
    // Each answer once, and from the game the mail was for.
    let mut seen = BTreeMap::new();
    for m in &after {
        if m.0 == "judge@example.org" {
            continue;
        }
        *seen
            .entry((m.0.clone(), m.1.clone(), m.2.clone()))
            .or_insert(0) += 1;
    }
    for ((to, subject, _), n) in &seen {
        assert_eq!(*n, 1, "{to} got {subject:?} {n} times");
    }
    for (to, subject) in [
        ("eve@example.org", "[express] status"),
        ("dan@example.org", "[island] help"),
        ("ann@example.org", "[island] status, template"),
        ("gus@example.org", "[harbour] sign-up: not taken"),
    ] {
        assert_eq!(
            after
                .iter()
                .filter(|m| m.0 == to && m.1.starts_with(subject))
                .count(),
            1,
            "{to}: {subject}"
        );
    }
    // Every game's log has each mail once.
    for g in ["rivers", "island", "express", "harbour"] {
        let ids: Vec<String> = h
            .log(g)
            .iter()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).expect("json")["message_id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        let unique: std::collections::BTreeSet<&String> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "{g}: {ids:?}");
    }
    // No secret in any mail but the welcome that carries it.
    for m in &after {
        if m.0 == "judge@example.org" || m.1.contains("welcome") {
            continue;
        }
        for s in secrets.values() {
            assert!(!m.2.contains(s.as_str()), "a secret in {:?}", m.1);
        }
    }
}

/// "Replacement", through the real mail servers: `judge replace DIR SEAT --by
/// NAME:EMAIL` keeps the seat's colour, pieces and history; the new player gets a fresh
/// secret and a welcome mail with the game as it stands and its map; the old secret
/// stops working at once; the next report says who took over.
#[test]
fn judge_replace_gives_a_seat_to_a_new_player_and_the_old_secret_stops() {
    let (h, secrets) = house(false);
    let ann = secrets[&("ann@example.org".to_string(), "rivers".to_string())].clone();
    let bob = secrets[&("bob@example.org".to_string(), "rivers".to_string())].clone();
    let rivers = h.game("rivers");
    let (code, out, err) = h.judge(
        &["replace", &rivers, "red", "--by", "Zoe Q:zoe@example.org"],
        BEFORE,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Zoe Q now plays red in place of Ann"), "{out}");
    let welcome = h
        .srv
        .delivered()
        .into_iter()
        .find(|m| m.0 == "zoe@example.org" && m.1 == "[rivers] welcome: you take over red")
        .expect("Zoe's welcome");
    assert!(welcome.3 >= 1, "the map is attached");
    let zoe = crate::support::welcome_secret(&welcome.2).expect("the new secret");
    assert!(
        welcome.2.contains("I. ") || welcome.2.contains("the game begins"),
        "the game as it stands"
    );
    let orders = std::fs::read_to_string("games/demo/pending/red.txt")
        .expect("the demo's orders")
        .replace("game demo\nplayer red\nturn 1\n", "");
    let yellow = std::fs::read_to_string("games/demo/pending/yellow.txt")
        .expect("the demo's orders")
        .replace("game demo\nplayer yellow\nturn 1\n", "");
    // Ann's old secret, from her address: no longer red's.
    h.srv.send(
        "Ann <ann@example.org>",
        "orders",
        &format!("game rivers\nplayer red\nturn 1\nsecret {ann}\n{orders}"),
    );
    // Ann's old secret from Zoe's address: refused too.
    h.srv.send(
        "Zoe Q <zoe@example.org>",
        "orders",
        &format!("game rivers\nplayer red\nturn 1\nsecret {ann}\n{orders}"),
    );
    let (code, out) = h.pass("2026-11-28T10:00:00Z");
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("accepted: red's"), "{out}");
    assert!(out.contains("secret is wrong"), "{out}");
    // Zoe's own secret, and Bob's orders: filed; the turn is played at its deadline.
    h.srv.send(
        "Zoe Q <zoe@example.org>",
        "orders",
        &format!("game rivers\nplayer red\nturn 1\nsecret {zoe}\n{orders}"),
    );
    h.srv.send(
        "Bob <bob@example.org>",
        "orders",
        &format!("game rivers\nplayer yellow\nturn 1\nsecret {bob}\n{yellow}"),
    );
    let (code, out) = h.pass("2026-11-28T11:00:00Z");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("accepted: red's orders for turn 1"), "{out}");
    let (code, out) = h.pass("2026-12-01T18:00:01Z");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("rivers: played turn 1"), "{out}");
    let report =
        std::fs::read_to_string(h.root.join("rivers/turns/001/report.txt")).expect("report");
    assert!(
        report.contains("red is played by Zoe Q from turn 1 on, in place of Ann."),
        "{report}"
    );
    let start = Instant::now();
    while !h
        .to("bob@example.org")
        .iter()
        .any(|m| m.0.starts_with("[rivers] turn 1") && m.1.contains("in place of Ann"))
    {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            h.to("bob@example.org")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The archive replays as it was played.
    let (code, out, err) = h.judge(&["replay", &rivers], "2026-12-01T18:05:00Z");
    assert_eq!(code, 0, "{out}{err}");
}

/// A silent player, for Catan, by real mail: Ann goes silent in island. At each
/// of her steps' deadlines the caretaker plays for her (in the archive as such, and in
/// the report); her budget of missed turns runs out and the GM and the players are told;
/// `judge replace` seats Zoe, who gets her secret by mail and then plays her own steps;
/// the other players play theirs by mail with the judge's bot as their hint; the game
/// replays identically.
#[test]
fn a_silent_catan_player_is_played_by_the_caretaker_then_replaced() {
    let (h, secrets) = house(false);
    let island = h.game("island");
    let dir = Path::new(&island).to_path_buf();
    let toml = dir.join("game.toml");
    let mut text = std::fs::read_to_string(&toml).expect("game.toml");
    text.push_str("\n[absent]\ncaretaker = true\nmissed = 1\n\n[gm]\nname = \"Gina\"\nemail = \"gm@example.org\"\n");
    std::fs::write(&toml, text).expect("game.toml");
    let address = |seat: &str| -> String {
        pbem_judge::archive::Archive::open(&dir)
            .expect("game")
            .game
            .players
            .iter()
            .find(|p| p.id == seat)
            .map(|p| p.email.clone())
            .expect("a seat")
    };
    let mut zoe: Option<String> = None;
    let mut now = humantime::parse_rfc3339("2026-12-01T18:00:01Z").expect("t");
    let stamp = |t: std::time::SystemTime| humantime::format_rfc3339_seconds(t).to_string();
    let mut caretaker_steps = 0;
    let mut zoe_steps = 0;
    for _ in 0..8 {
        let last = h.srv.delivered().len();
        let turns = std::fs::read_dir(dir.join("turns")).expect("turns").count() as u32 - 1;
        let s = crate::support::catan::state(&dir, turns);
        if s.winner.is_some() {
            break;
        }
        let awaited: Vec<String> = pbem_judge::catan::awaited(&s)
            .iter()
            .map(|c| c.name().to_string())
            .collect();
        let seat = awaited.first().cloned().expect("a step waits for someone");
        let who = address(&seat);
        let secret = if who == "zoe@example.org" {
            zoe.clone()
        } else if who == "ann@example.org" {
            None // Ann is silent.
        } else {
            Some(secrets[&(who.clone(), "island".to_string())].clone())
        };
        if let Some(secret) = secret {
            // The player's own orders: the judge's bot as their hint, with their secret.
            let (code, hint, err) = h.judge(&["bot", &island, &seat], &stamp(now));
            assert_eq!(code, 0, "{hint}{err}");
            let orders = hint.replacen('\n', &format!("\nsecret {secret}\n"), 1);
            h.srv.send(&format!("P <{who}>"), "orders", &orders);
            let (code, out) = h.pass(&stamp(now));
            assert_eq!(code, 0, "{out}");
            assert!(out.contains(&format!("accepted: {seat}'s")), "{out}");
            if who == "zoe@example.org" {
                zoe_steps += 1;
            }
        } else {
            // Nobody writes for the seat: its deadline passes, two days after the step
            // before.
            now += Duration::from_secs(2 * 86_400);
            let (code, out) = h.pass(&stamp(now));
            assert_eq!(code, 0, "{out}");
            assert!(
                out.contains(&format!("the caretaker played for {seat}")),
                "{out}"
            );
            caretaker_steps += 1;
            let t = turns + 1;
            let rec = std::fs::read_to_string(dir.join(format!("turns/{t:03}/turn.json")))
                .expect("turn.json");
            assert!(rec.contains("\"caretaker\""), "{rec}");
            let report = std::fs::read_to_string(dir.join(format!("turns/{t:03}/report.txt")))
                .expect("report");
            assert!(
                report.contains(&format!("The caretaker played for {seat} (Ann)")),
                "{report}"
            );
            // The budget (one missed step) is spent: the GM and the players are told,
            // and the GM seats Zoe.
            let start = Instant::now();
            while !h
                .to("gm@example.org")
                .iter()
                .any(|m| m.0 == format!("[island] {seat}'s seat is open for a replacement"))
            {
                assert!(start.elapsed() < Duration::from_secs(10), "{out}");
                std::thread::sleep(Duration::from_millis(50));
            }
            assert!(
                h.to("cat@example.org")
                    .iter()
                    .any(|m| m.0.contains("seat is open"))
            );
            let (code, out, err) = h.judge(
                &["replace", &island, &seat, "--by", "Zoe:zoe@example.org"],
                &stamp(now),
            );
            assert_eq!(code, 0, "{out}{err}");
            let welcome = h
                .to("zoe@example.org")
                .into_iter()
                .find(|m| m.0.contains("welcome: you take over"))
                .expect("Zoe's welcome");
            zoe = crate::support::welcome_secret(&welcome.1);
            assert!(zoe.is_some(), "{}", welcome.1);
        }
        assert!(
            h.srv.delivered().len() > last,
            "every step mails its reports"
        );
        now += Duration::from_secs(60);
    }
    assert_eq!(
        caretaker_steps, 1,
        "the caretaker played Ann's one silent step"
    );
    assert!(zoe_steps >= 1, "Zoe played the seat after it");
    let (code, out, err) = h.judge(&["replay", &island], &stamp(now));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("all identical"), "{out}");
}

/// The Roads & Boats half: in `rivers` (two-rivers, a turn for
/// both players at once) Ann goes silent. At the deadline the caretaker plays her turn
/// (its file kept in the turn, marked as the caretaker's, and said in the report); the
/// budget of one missed turn is spent, so the GM and Bob are told the seat is open; the
/// GM runs `judge replace`, Zoe's welcome brings her secret, and from then on Zoe and
/// Bob play by mail (the judge's bot as their hint) until turns resolve without a
/// deadline; the game replays identically.
#[test]
fn a_silent_roads_and_boats_player_is_played_by_the_caretaker_then_replaced() {
    let (h, secrets) = house(false);
    let rivers = h.game("rivers");
    let dir = Path::new(&rivers).to_path_buf();
    let toml = dir.join("game.toml");
    // A turn is played as soon as both players' orders are in.
    let text = std::fs::read_to_string(&toml)
        .expect("game.toml")
        .replace("every = \"2days\"\n", "every = \"2days\"\nearly = true\n");
    let text = format!(
        "{text}\n[absent]\ncaretaker = true\nmissed = 1\n\n[gm]\nname = \"Gina\"\nemail = \"gm@example.org\"\n"
    );
    std::fs::write(&toml, text).expect("game.toml");
    let bob = secrets[&("bob@example.org".to_string(), "rivers".to_string())].clone();
    let stamp = |t: std::time::SystemTime| humantime::format_rfc3339_seconds(t).to_string();
    let turns = || std::fs::read_dir(dir.join("turns")).expect("turns").count() as u32 - 1;
    // A player's orders: the judge's bot for the seat, with the player's secret.
    let send = |seat: &str, who: &str, secret: &str, now: &str| {
        let (code, hint, err) = h.judge(&["bot", &rivers, seat], now);
        assert_eq!(code, 0, "{hint}{err}");
        let orders = hint.replacen('\n', &format!("\nsecret {secret}\n"), 1);
        h.srv.send(&format!("P <{who}>"), "orders", &orders);
    };
    // Turn 1: Bob's orders come; Ann's never do.
    let now = humantime::parse_rfc3339("2026-11-30T10:00:00Z").expect("t");
    send("yellow", "bob@example.org", &bob, &stamp(now));
    let (code, out) = h.pass(&stamp(now));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("accepted: yellow's"), "{out}");
    assert_eq!(turns(), 0, "the turn waits for Ann: {out}");
    // The deadline passes: the caretaker plays for red.
    let now = humantime::parse_rfc3339("2026-12-01T18:00:01Z").expect("t");
    let (code, out) = h.pass(&stamp(now));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("the caretaker played for red"), "{out}");
    assert_eq!(turns(), 1, "{out}");
    let rec = std::fs::read_to_string(dir.join("turns/001/turn.json")).expect("turn.json");
    assert!(rec.contains("\"caretaker\""), "{rec}");
    let kept = std::fs::read_dir(dir.join("turns/001"))
        .expect("turn 1")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect::<Vec<_>>();
    let report = std::fs::read_to_string(dir.join("turns/001/report.txt")).expect("report");
    assert!(
        report.contains("The caretaker played for red (Ann)"),
        "{report}"
    );
    // The notice says what it did for her, in a sentence.
    assert!(
        report.contains("did not come. It did: "),
        "what the caretaker did for red: {report}"
    );
    // What the caretaker played is in the report as the orders of red: it did something.
    let wait = |who: &str, subject: &str| {
        let start = Instant::now();
        while !h.to(who).iter().any(|m| m.0 == subject) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "{who}: {subject}: {:?}",
                h.to(who).iter().map(|m| &m.0).collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait(
        "gm@example.org",
        "[rivers] red's seat is open for a replacement",
    );
    assert!(
        h.to("bob@example.org")
            .iter()
            .any(|m| m.0.contains("seat is open")),
        "Bob is told: {kept:?}"
    );
    // The GM seats Zoe; her welcome brings her secret.
    let (code, out, err) = h.judge(
        &["replace", &rivers, "red", "--by", "Zoe:zoe@example.org"],
        &stamp(now),
    );
    assert_eq!(code, 0, "{out}{err}");
    let welcome = h
        .to("zoe@example.org")
        .into_iter()
        .find(|m| m.0.contains("welcome: you take over"))
        .expect("Zoe's welcome");
    let zoe = crate::support::welcome_secret(&welcome.1).unwrap_or_else(|| panic!("{}", welcome.1));
    // Turns 2 and 3: Zoe and Bob both write; each turn resolves when both are in.
    for t in 2..=3u32 {
        let now = stamp(humantime::parse_rfc3339("2026-12-02T09:00:00Z").expect("t"));
        send("red", "zoe@example.org", &zoe, &now);
        send("yellow", "bob@example.org", &bob, &now);
        let (code, out) = h.pass(&now);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("accepted: red's"), "{out}");
        assert_eq!(turns(), t, "{out}");
        let report =
            std::fs::read_to_string(dir.join(format!("turns/{t:03}/report.txt"))).expect("report");
        assert!(!report.contains("caretaker played"), "{report}");
        if t == 2 {
            assert!(
                report.contains("Zoe"),
                "the report says who took over: {report}"
            );
        }
    }
    let (code, out, err) = h.judge(&["replay", &rivers], "2026-12-03T09:00:00Z");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("all identical"), "{out}");
}

/// "Commands by mail ... each has a test through the real servers": the ones
/// the test under `judge serve` does not send — `resend`, `resend turn N`, and the GM's
/// `extend`, `pause`, `resume` and `start` — sent through the real SMTP server and read
/// from the Maildir it delivers to, answered through it.
#[test]
fn resend_and_the_gms_commands_through_the_real_servers() {
    let (h, secrets) = house(false);
    let rivers = h.game("rivers");
    let toml = Path::new(&rivers).join("game.toml");
    let text = std::fs::read_to_string(&toml).expect("game.toml");
    std::fs::write(
        &toml,
        format!("{text}\n[gm]\nname = \"Gina\"\nemail = \"gm@example.org\"\n"),
    )
    .expect("game.toml");
    let (code, out, err) = h.judge(&["secret", &rivers, "--gm"], BEFORE);
    assert_eq!(code, 0, "{out}{err}");
    let gm = crate::support::gm_secret(&out);
    let wait = |who: &str, subject: &str| {
        let start = Instant::now();
        while !h.to(who).iter().any(|m| m.0.starts_with(subject)) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "{who}: {subject}: {:?}",
                h.to(who)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    // resend: the report of turn 0 again, to the address on file.
    h.srv.send(
        "Ann <ann@example.org>",
        "again",
        "game rivers\nresend\nresend turn 0\n",
    );
    let (code, out) = h.pass("2026-11-28T10:00:00Z");
    assert_eq!(code, 0, "{out}");
    wait("ann@example.org", "[rivers] resend");
    let reports = h
        .to("ann@example.org")
        .iter()
        .filter(|m| m.0.starts_with("[rivers]") && m.0.contains("game begins"))
        .count();
    assert!(
        reports >= 2,
        "turn 0's report resent: {:?}",
        h.to("ann@example.org")
    );
    // The GM: extend, pause, resume, each told to every player.
    for (command, told) in [
        ("extend 24h", "[rivers] turn 1: the deadline moved"),
        ("pause", "[rivers] the GM paused the game"),
        ("resume", "[rivers] the GM resumed the game"),
    ] {
        h.srv.send(
            "Gina <gm@example.org>",
            command,
            &format!("game rivers\nsecret {gm}\n{command}\n"),
        );
        let (code, out) = h.pass("2026-11-28T11:00:00Z");
        assert_eq!(code, 0, "{out}");
        wait("bob@example.org", told);
    }
    let a = pbem_judge::archive::Archive::open(Path::new(&rivers)).expect("game");
    assert_eq!(a.game.paused, None);
    assert!(a.game.schedule.expect("schedule").moved.contains_key("1"));
    // start: a game open for sign-up begins with the seats it has.
    let cove = h.game("cove");
    let (code, out, err) = h.judge(
        &[
            &["new", &cove, "--game", "catan", "--seed", "2"][..],
            &support::ANN_BOB_CAT,
            &["--open", "1", "--gm", "Gina:gm@example.org"],
        ]
        .concat(),
        BEFORE,
    );
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = h.judge(&["secret", &cove, "--gm"], BEFORE);
    assert_eq!(code, 0, "{out}{err}");
    let gm_cove = crate::support::gm_secret(&out);
    h.srv.send(
        "Gina <gm@example.org>",
        "start",
        &format!("game cove\nsecret {gm_cove}\nstart\n"),
    );
    let (code, out) = h.pass("2026-11-28T12:00:00Z");
    assert_eq!(code, 0, "{out}");
    wait("gm@example.org", "[cove] start");
    wait("cat@example.org", "[cove] the game begins");
    assert!(Path::new(&cove).join("turns/000").is_dir());
    // No answer holds a secret.
    for m in h.srv.delivered() {
        if m.0 == "judge@example.org" || m.1.contains("welcome") {
            continue;
        }
        for s in secrets.values().chain([&gm, &gm_cove]) {
            assert!(!m.2.contains(s.as_str()), "a secret in {:?}", m.1);
        }
    }
}

/// A crowded mailbox at the deadline: strangers' 2 MB mails delivered at 17:00
/// (here 40 of them, 80 MB: more than one pass holds), the two players' orders at 17:10
/// and 17:11 through the real SMTP server, deadline 18:00. The one `judge turn --all` at
/// 18:05 reads the mailbox in passes of at most 64 MB and plays turn 1 with both
/// players' orders, nobody missed; Ann and Bob get their reports.
#[test]
fn a_flood_before_the_deadline_costs_no_on_time_order_in_one_cron_run() {
    let (h, secrets) = house(false);
    let secret = |who: &str| secrets[&(who.to_string(), "rivers".to_string())].clone();
    let at = |t: &str| {
        humantime::parse_rfc3339(t)
            .expect("time")
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs()
    };
    let flood = format!("{}\n", "buy cheap watches ".repeat(105_000));
    let new = h.srv.maildir().join("new");
    for n in 0..40 {
        std::fs::write(
            new.join(format!("{}.M{n}P9.flood", at("2026-12-01T17:00:00Z"))),
            format!(
                "From: Spam <s{n}@spam.example>\r\nTo: judge@example.org\r\nSubject: deal {n}\r\nMessage-ID: <flood{n}@spam.example>\r\n\r\n{flood}"
            ),
        )
        .expect("a flood mail");
    }
    for (who, seat, t) in [
        ("Ann <ann@example.org>", "red", "2026-12-01T17:10:00Z"),
        ("Bob <bob@example.org>", "yellow", "2026-12-01T17:11:00Z"),
    ] {
        let address = who.split(['<', '>']).nth(1).expect("address");
        h.srv.send_at(
            who,
            "orders",
            &format!(
                "game rivers\nplayer {seat}\nturn 1\nsecret {}\n",
                secret(address)
            ),
            t,
        );
    }
    let (code, out) = h.pass("2026-12-01T18:05:00Z");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("more mail waits than one pass reads"),
        "the flood took more than one pass: {out}"
    );
    assert_eq!(out.matches("rivers: played turn 1").count(), 1, "{out}");
    assert!(
        !out.lines()
            .any(|l| l.starts_with("rivers:") && l.contains("No orders from")),
        "{out}"
    );
    let rec: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(h.root.join("rivers/turns/001/turn.json")).expect("turn.json"),
    )
    .expect("json");
    assert_eq!(rec["orders"]["red"], "sent", "{rec}");
    assert_eq!(rec["orders"]["yellow"], "sent", "{rec}");
    assert!(rec.get("missed").is_none(), "{rec}");
    for who in ["ann@example.org", "bob@example.org"] {
        assert!(
            h.to(who)
                .iter()
                .any(|(s, _)| s.starts_with("[rivers] turn 1")),
            "{who}'s report"
        );
    }
}
