//! Issue 23, "One mailbox, many games", without mail servers: a folder of games whose
//! shared mailbox is a Maildir and whose mail goes to a pickup folder, driven through
//! the library's pass (`pbem::house`) with a tiny budget, so that each pass reads one
//! mail: however the mail is cut into passes, each mail is filed once, by its game, and
//! the mailroom logs it once.

use std::path::Path;

use crate::support;
use pbem_judge::pbem::house;

fn mail(dir: &Path, n: usize, from: &str, body: &str) {
    std::fs::write(
        dir.join(format!("new/{}.M{n}P1.test", 1_795_680_000 + n)),
        format!(
            "From: {from}\nTo: judge@example.org\nSubject: m{n}\nMessage-ID: <m{n}@example.org>\nDate: Thu, 26 Nov 2026 08:00:00 +0000\n\n{body}"
        ),
    )
    .expect("write");
}

/// A folder of games at `tmp/games` whose judge.toml sends into `tmp/pickup` and reads
/// the mailbox line `mailbox` (`maildir = "…"`, `mbox = "…"`).
fn folder(tmp: &Path, mailbox: &str) -> std::path::PathBuf {
    let root = tmp.join("games");
    std::fs::create_dir_all(tmp.join("pickup")).expect("pickup");
    std::fs::create_dir_all(&root).expect("games");
    std::fs::write(
        root.join("judge.toml"),
        format!(
            "[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"{}\"\n{mailbox}\n",
            tmp.join("pickup").display()
        ),
    )
    .expect("judge.toml");
    root
}

/// A pass as `judge turn --all` runs it, holding at most `budget` bytes of mail.
fn options(budget: usize) -> house::Options {
    house::Options {
        turn: pbem_judge::pbem::turn::Options {
            force: false,
            read_only_mail: false,
        },
        wait: std::time::Duration::from_secs(5),
        commit: false,
        budget,
    }
}

#[test]
fn a_pass_at_a_time_files_each_mail_once_by_its_game() {
    let tmp = tempfile::tempdir().expect("tmp");
    let maildir = tmp.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("maildir");
    }
    let root = folder(tmp.path(), &format!("maildir = \"{}\"", maildir.display()));
    let env = [("JUDGE_NOW", "2026-11-26T09:00:00Z")];
    let mut secrets = Vec::new();
    for (name, extra) in [
        ("rivers", vec!["--scenario", "two-rivers"]),
        ("island", vec!["--game", "catan"]),
    ] {
        let dir = root.join(name);
        let d = dir.to_str().expect("utf-8");
        let mut args = vec!["new", d, "--seed", "3"];
        args.extend(extra);
        let players: &[&str] = if name == "rivers" {
            &["Ann:ann@example.org", "Bob:bob@example.org"]
        } else {
            &[
                "Ann:ann@example.org",
                "Cat:cat@example.org",
                "Dan:dan@example.org",
            ]
        };
        for p in players {
            args.extend(["--player", p]);
        }
        let (code, out, err) = support::judge_text(&args, &env);
        assert_eq!(code, 0, "{out}{err}");
        let (code, out, err) = support::judge_text(&["secret", d], &env);
        assert_eq!(code, 0, "{out}{err}");
        for l in out.lines() {
            let w: Vec<&str> = l.split_whitespace().collect();
            if let [colour, _, "secret", s] = w.as_slice() {
                secrets.push((name.to_string(), colour.to_string(), s.to_string()));
            }
        }
    }
    let secret = |game: &str, colour: &str| {
        secrets
            .iter()
            .find(|(g, c, _)| g == game && c == colour)
            .map(|(_, _, s)| s.clone())
            .expect("a secret")
    };
    let red = std::fs::read_to_string("games/demo/pending/red.txt")
        .expect("orders")
        .replace("game demo\nplayer red\nturn 1\n", "");
    // Ann plays in both games and writes to each; Bob to his one; a stranger; Ann once
    // with no game line (she is in two: answered by the mailroom).
    mail(
        &maildir,
        0,
        "Ann <ann@example.org>",
        &format!(
            "game rivers\nplayer red\nturn 1\nsecret {}\n{red}",
            secret("rivers", "red")
        ),
    );
    mail(
        &maildir,
        1,
        "Ann <ann@example.org>",
        &format!(
            "game island\nplayer red\nturn 1\nsecret {}\nfounding\n",
            secret("island", "red")
        ),
    );
    mail(
        &maildir,
        2,
        "Bob <bob@example.org>",
        "player yellow\nturn 1\n",
    );
    mail(&maildir, 3, "Eve <eve@example.org>", "hello\n");
    mail(&maildir, 4, "Ann <ann@example.org>", "status\n");

    let h = pbem_judge::archive::house::House::open(&root).expect("the folder");
    let opts = options(1);
    let now = humantime::parse_rfc3339("2026-11-26T10:00:00Z").expect("time");
    let mut passes = 0;
    loop {
        let pass = house::run(&h, pbem_judge::games::registry(), now, opts).expect("a pass");
        passes += 1;
        assert!(
            pass.games.iter().all(|g| g.result.is_ok()),
            "{:?}",
            pass.games
        );
        if !pass.more {
            break;
        }
        assert!(passes < 20, "the passes end");
    }
    assert_eq!(
        passes, 5,
        "one mail a pass, and a last one that finds none left"
    );
    let lines = |p: &Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(p)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect()
    };
    let room = lines(&root.join("mailroom/log.jsonl"));
    assert_eq!(room.len(), 5, "each mail logged once: {room:?}");
    let routes: Vec<(&str, Option<&str>)> = room
        .iter()
        .map(|l| (l["route"].as_str().expect("route"), l["to"].as_str()))
        .collect();
    assert_eq!(
        routes,
        [
            ("game", Some("rivers")),
            ("game", Some("island")),
            ("game", Some("rivers")),
            ("stranger", None),
            ("which-game", None),
        ]
    );
    let rivers = lines(&root.join("rivers/mail/log.jsonl"));
    let island = lines(&root.join("island/mail/log.jsonl"));
    assert_eq!(
        (rivers.len(), island.len()),
        (2, 1),
        "{rivers:?} {island:?}"
    );
    // A pass more reads nothing again.
    let pass = house::run(&h, pbem_judge::games::registry(), now, opts).expect("a pass");
    assert!(!pass.more && pass.lines.is_empty(), "{:?}", pass.lines);
    assert_eq!(lines(&root.join("rivers/mail/log.jsonl")).len(), 2);
    assert_eq!(lines(&root.join("mailroom/log.jsonl")).len(), 5);
}

/// The shared mailbox may be an mbox file, as a Maildir may (issue 23: "from one
/// mailbox (IMAP, Maildir, mbox)"): each mail is filed by its game once, and a pass
/// after more mail was appended files only the new one.
#[test]
fn an_mbox_file_is_a_folders_mailbox_too() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mbox = tmp.path().join("judge.mbox");
    let root = folder(tmp.path(), &format!("mbox = \"{}\"", mbox.display()));
    let env = [("JUDGE_NOW", "2026-11-26T09:00:00Z")];
    for (name, a, b) in [
        ("north", "Ann:ann@example.org", "Bob:bob@example.org"),
        ("south", "Cat:cat@example.org", "Dan:dan@example.org"),
    ] {
        let d = root.join(name);
        let d = d.to_str().expect("utf-8");
        let (code, out, err) = support::judge_text(
            &[
                "new",
                d,
                "--scenario",
                "two-rivers",
                "--player",
                a,
                "--player",
                b,
            ],
            &env,
        );
        assert_eq!(code, 0, "{out}{err}");
    }
    let entry = |n: usize, from: &str, body: &str| {
        format!(
            "From {from} Thu Nov 26 08:0{n}:00 2026\nFrom: {from}\nTo: judge@example.org\nSubject: m{n}\nMessage-ID: <mb{n}@example.org>\n\n{body}\n"
        )
    };
    std::fs::write(
        &mbox,
        entry(0, "ann@example.org", "game north\nplayer red\n")
            + &entry(1, "cat@example.org", "player red\n")
            + &entry(2, "eve@example.org", "hello\n"),
    )
    .expect("mbox");
    let h = pbem_judge::archive::house::House::open(&root).expect("the folder");
    let opts = options(house::PASS_BYTES);
    let now = humantime::parse_rfc3339("2026-11-26T10:00:00Z").expect("time");
    let log_len = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap_or_default()
            .lines()
            .count()
    };
    house::run(&h, pbem_judge::games::registry(), now, opts).expect("a pass");
    assert_eq!(log_len(&root.join("north/mail/log.jsonl")), 1);
    assert_eq!(log_len(&root.join("south/mail/log.jsonl")), 1);
    assert_eq!(log_len(&root.join("mailroom/log.jsonl")), 3);
    // Another mail is appended: the next pass files it, and only it.
    let mut text = std::fs::read_to_string(&mbox).expect("mbox");
    text.push_str(&entry(3, "bob@example.org", "game north\nplayer yellow\n"));
    std::fs::write(&mbox, text).expect("mbox");
    house::run(&h, pbem_judge::games::registry(), now, opts).expect("a pass");
    assert_eq!(log_len(&root.join("north/mail/log.jsonl")), 2);
    assert_eq!(log_len(&root.join("south/mail/log.jsonl")), 1);
    assert_eq!(log_len(&root.join("mailroom/log.jsonl")), 4);
}
