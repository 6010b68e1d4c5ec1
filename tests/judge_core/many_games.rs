//! "One mailbox, many games", without mail servers: a folder of games whose
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

/// The shared mailbox may be an mbox file, as a Maildir may ("from one
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

/// A mail into a Maildir, delivered at `at` (the time its name starts with, as a
/// delivering program writes it).
fn mail_at(dir: &Path, n: usize, at: &str, from: &str, body: &str) {
    let secs = humantime::parse_rfc3339(at)
        .expect("time")
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs();
    std::fs::write(
        dir.join(format!("new/{secs}.M{n}P1.test")),
        format!(
            "From: {from}\nTo: judge@example.org\nSubject: m{n}\nMessage-ID: <at{n}@example.org>\nDate: Tue, 01 Dec 2026 08:00:00 +0000\n\n{body}"
        ),
    )
    .expect("write");
}

/// A folder at `tmp/games` reading the Maildir `tmp/Maildir`, with one game `rivers`
/// (two-rivers: Ann red, Bob yellow) and `schedule` as its `[schedule]` (none: the GM
/// runs each turn). Returns the folder, the Maildir, and red's and yellow's secrets.
fn one_game_folder(
    tmp: &Path,
    schedule: Option<&str>,
) -> (std::path::PathBuf, std::path::PathBuf, String, String) {
    let maildir = tmp.join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("maildir");
    }
    let root = folder(tmp, &format!("maildir = \"{}\"", maildir.display()));
    let env = [("JUDGE_NOW", "2026-11-26T09:00:00Z")];
    let dir = root.join("rivers");
    let d = dir.to_str().expect("utf-8");
    let (code, out, err) = support::judge_text(
        &[
            "new",
            d,
            "--scenario",
            "two-rivers",
            "--seed",
            "3",
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Bob:bob@example.org",
        ],
        &env,
    );
    assert_eq!(code, 0, "{out}{err}");
    if let Some(s) = schedule {
        let toml = dir.join("game.toml");
        let mut text = std::fs::read_to_string(&toml).expect("game.toml");
        text.push_str(&format!("\n[schedule]\n{s}"));
        std::fs::write(&toml, text).expect("game.toml");
    }
    let (code, out, err) = support::judge_text(&["secret", d], &env);
    assert_eq!(code, 0, "{out}{err}");
    let secret = |colour: &str| {
        out.lines()
            .find_map(
                |l| match l.split_whitespace().collect::<Vec<_>>().as_slice() {
                    [c, _, "secret", s] if *c == colour => Some(s.to_string()),
                    _ => None,
                },
            )
            .expect("a secret")
    };
    let (red, yellow) = (secret("red"), secret("yellow"));
    (root, maildir, red, yellow)
}

/// The players whose orders turn `turn` of `game` played as they sent them, and those it
/// counted as missed.
fn played_with(root: &Path, game: &str, turn: u32) -> (Vec<String>, Vec<String>) {
    let path = root.join(format!("{game}/turns/{turn:03}/turn.json"));
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the turn was played"))
            .expect("json");
    let sent = rec["orders"]
        .as_object()
        .expect("orders")
        .iter()
        .filter(|(_, s)| s.as_str() == Some("sent"))
        .map(|(p, _)| p.clone())
        .collect();
    let missed = rec["missed"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|p| p.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    (sent, missed)
}

/// "150 strangers' 2 MB mails delivered at 17:00, the two players'
/// orders at 17:10 and 17:11, deadline 18:00: the first `judge turn --all` at 18:05 reads
/// one 64 MB batch, then plays turn 1 with 'No orders from red, yellow'". Here, smaller:
/// a pass holds four of the thirty strangers' mails. No pass plays the due turn while
/// the shared mailbox still holds mail delivered before its deadline; once it is all
/// read, the turn is played with both players' orders and nobody missed it.
#[test]
fn a_flood_before_the_deadline_never_makes_on_time_orders_miss_the_turn() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (root, maildir, red, yellow) = one_game_folder(
        tmp.path(),
        Some("first_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"2days\"\n"),
    );
    let flood = "buy cheap watches\n".repeat(3_600);
    for n in 0..30 {
        mail_at(
            &maildir,
            n,
            "2026-12-01T17:00:00Z",
            &format!("Spam <s{n}@spam.example>"),
            &flood,
        );
    }
    mail_at(
        &maildir,
        100,
        "2026-12-01T17:10:00Z",
        "Ann <ann@example.org>",
        &format!("game rivers\nplayer red\nturn 1\nsecret {red}\n"),
    );
    mail_at(
        &maildir,
        101,
        "2026-12-01T17:11:00Z",
        "Bob <bob@example.org>",
        &format!("game rivers\nplayer yellow\nturn 1\nsecret {yellow}\n"),
    );
    let h = pbem_judge::archive::house::House::open(&root).expect("the folder");
    let opts = options(4 * flood.len());
    let now = humantime::parse_rfc3339("2026-12-01T18:05:00Z").expect("time");
    let mut passes = 0;
    loop {
        let pass = house::run(&h, pbem_judge::games::registry(), now, opts).expect("a pass");
        passes += 1;
        let played = pass
            .games
            .iter()
            .any(|g| matches!(g.result, Ok(pbem_judge::pbem::turn::Done::Played(_))));
        assert!(
            !(played && pass.more),
            "pass {passes} played the turn with mail delivered before the deadline unread: {:?}",
            pass.games
        );
        if !pass.more {
            assert!(played, "the last pass plays the due turn: {:?}", pass.games);
            break;
        }
        assert!(passes < 40, "the passes end");
    }
    assert!(passes > 2, "the flood took several passes: {passes}");
    assert_eq!(
        played_with(&root, "rivers", 1),
        (vec!["red".to_string(), "yellow".to_string()], vec![]),
        "turn 1 played both players' on-time orders"
    );
}

/// "A game without `[schedule]` is played at the first mail": under
/// `judge serve` or cron (`judge turn --all`) such a game, where `judge status` says "the
/// GM runs each turn", played turns 1–7 in 11 s, each "No orders from yellow". A pass
/// over the folder files its mail and answers it, and never plays it; the GM's own
/// `judge turn DIR` does.
#[test]
fn a_pass_over_the_folder_never_plays_a_game_the_gm_runs_by_hand() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (root, maildir, red, _) = one_game_folder(tmp.path(), None);
    let h = pbem_judge::archive::house::House::open(&root).expect("the folder");
    let now = humantime::parse_rfc3339("2026-11-26T10:00:00Z").expect("time");
    for turn in 1..=3 {
        mail_at(
            &maildir,
            turn,
            "2026-11-26T09:30:00Z",
            "Ann <ann@example.org>",
            &format!("game rivers\nplayer red\nturn 1\nsecret {red}\n"),
        );
        let pass = house::run(
            &h,
            pbem_judge::games::registry(),
            now,
            options(house::PASS_BYTES),
        )
        .expect("a pass");
        assert!(
            pass.games
                .iter()
                .all(|g| !matches!(g.result, Ok(pbem_judge::pbem::turn::Done::Played(_)))),
            "a pass played a game without [schedule]: {:?}",
            pass.games
        );
    }
    assert!(
        !root.join("rivers/turns/001").exists(),
        "no turn was played by a pass"
    );
    let filed = std::fs::read_to_string(root.join("rivers/mail/log.jsonl")).expect("the log");
    assert_eq!(filed.lines().count(), 3, "each mail filed: {filed}");
    assert!(
        root.join("rivers/pending/red.txt").is_file(),
        "red's orders wait"
    );
    // The GM's own `judge turn DIR` plays the turn.
    let d = root.join("rivers");
    let (code, out, err) = support::judge_text(
        &["turn", d.to_str().expect("utf-8"), "--no-send"],
        &[("JUDGE_NOW", "2026-11-26T10:05:00Z")],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(root.join("rivers/turns/001").is_dir(), "{out}");
}

/// The folder's half: "in a folder, where the mail is read twice:
/// routing, then the game". A pass reads each mail once, to route it, and its game files
/// that reading; so the mark of a mail being read is the mailroom's. A mail whose reading
/// stopped two passes (killed by a time limit, out of memory) is not read a third time:
/// its game refuses it unread, once, and the folder goes on. One stopped pass (a reboot)
/// only reads it again.
#[test]
fn a_mail_whose_reading_stopped_two_passes_is_refused_once_by_its_game() {
    use sha2::Digest as _;
    let tmp = tempfile::tempdir().expect("tmp");
    let (root, maildir, red, yellow) = one_game_folder(tmp.path(), None);
    let digest_of = |path: &Path| -> String {
        sha2::Sha256::digest(std::fs::read(path).expect("the mail"))
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    mail_at(
        &maildir,
        1,
        "2026-11-26T09:30:00Z",
        "Ann <ann@example.org>",
        &format!("game rivers\nplayer red\nturn 1\nsecret {red}\n"),
    );
    mail_at(
        &maildir,
        2,
        "2026-11-26T09:31:00Z",
        "Bob <bob@example.org>",
        &format!("game rivers\nplayer yellow\nturn 1\nsecret {yellow}\n"),
    );
    let mut files: Vec<_> = std::fs::read_dir(maildir.join("new"))
        .expect("new/")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    // What two passes killed while reading Ann's mail leave behind.
    std::fs::create_dir_all(root.join("mailroom")).expect("mailroom");
    std::fs::write(
        root.join("mailroom/reading"),
        format!("{} 2\n", digest_of(&files[0])),
    )
    .expect("the mark");
    let h = pbem_judge::archive::house::House::open(&root).expect("the folder");
    let now = humantime::parse_rfc3339("2026-11-26T10:00:00Z").expect("time");
    let pass = house::run(
        &h,
        pbem_judge::games::registry(),
        now,
        options(house::PASS_BYTES),
    )
    .expect("a pass");
    let said = format!("{:?}", pass.games);
    assert!(
        said.contains("refused: reading it, or carrying out its commands, stopped the judge twice"),
        "{said}"
    );
    assert!(
        said.contains("accepted: yellow's orders"),
        "the folder goes on: {said}"
    );
    assert!(!root.join("rivers/pending/red.txt").exists());
    assert!(
        !root.join("mailroom/reading").exists(),
        "the mark is cleared"
    );
    let filed = std::fs::read_to_string(root.join("rivers/mail/log.jsonl")).expect("log");
    assert_eq!(filed.lines().count(), 2, "{filed}");
    // Never read again: the next pass finds both done.
    let pass = house::run(
        &h,
        pbem_judge::games::registry(),
        now,
        options(house::PASS_BYTES),
    )
    .expect("a pass");
    assert!(
        pass.games.iter().all(|g| g.lines.is_empty()),
        "{:?}",
        pass.games
    );
    // One stopped pass is a kill or a reboot: the mail is read again, and filed.
    mail_at(
        &maildir,
        3,
        "2026-11-26T09:40:00Z",
        "Ann <ann@example.org>",
        &format!("game rivers\nplayer red\nturn 1\nsecret {red}\n\n"),
    );
    let third = std::fs::read_dir(maildir.join("new"))
        .expect("new/")
        .map(|e| e.expect("entry").path())
        .find(|p| !files.contains(p))
        .expect("the third mail");
    std::fs::write(
        root.join("mailroom/reading"),
        format!("{} 1\n", digest_of(&third)),
    )
    .expect("the mark");
    let pass = house::run(
        &h,
        pbem_judge::games::registry(),
        now,
        options(house::PASS_BYTES),
    )
    .expect("a pass");
    let said = format!("{:?}", pass.games);
    assert!(said.contains("accepted: red's orders"), "{said}");
}

/// "300 forged mails (`games`, no game line, an unknown game) got 300
/// answers from the mailroom". The limits that hold inside a game hold for the folder
/// too: to one address, at most five answers an hour to mail for no game of theirs
/// (then one note a day), and `games` carried out for at most twenty mails an hour.
/// The hour over, the address is answered again.
#[test]
fn the_mailrooms_answers_to_one_address_are_limited_as_a_games_are() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (root, maildir, _, _) = one_game_folder(tmp.path(), None);
    // Ann plays in a second game: a mail with no game line is then for neither.
    let d = root.join("harbour");
    let (code, out, err) = support::judge_text(
        &[
            "new",
            d.to_str().expect("utf-8"),
            "--scenario",
            "two-rivers",
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Cat:cat@example.org",
        ],
        &[("JUDGE_NOW", "2026-11-26T09:00:00Z")],
    );
    assert_eq!(code, 0, "{out}{err}");
    for n in 0..300 {
        let body = match n % 3 {
            0 => "games\n".to_string(),
            1 => "hello, judge\n".to_string(),
            _ => format!("game atlantis{n}\nplayer red\n"),
        };
        mail_at(
            &maildir,
            n,
            "2026-11-26T09:30:00Z",
            "Ann <ann@example.org>",
            &body,
        );
    }
    let h = pbem_judge::archive::house::House::open(&root).expect("the folder");
    let outbox = |root: &Path| -> Vec<String> {
        std::fs::read_dir(root.join("mailroom/outbox"))
            .map(|d| {
                d.map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".eml"))
                    .collect()
            })
            .unwrap_or_default()
    };
    let now = humantime::parse_rfc3339("2026-11-26T10:00:00Z").expect("time");
    let pass = house::run(
        &h,
        pbem_judge::games::registry(),
        now,
        options(house::PASS_BYTES),
    )
    .expect("a pass");
    let queued = outbox(&root);
    let notes = queued.iter().filter(|n| n.starts_with("withheld-")).count();
    assert_eq!(notes, 1, "one note for the day: {queued:?}");
    assert_eq!(
        queued.len(),
        pbem_judge::pbem::intake::REFUSALS_PER_HOUR
            + 1
            + pbem_judge::pbem::intake::COMMAND_MAILS_PER_HOUR,
        "five answers to mail for no game, a note, twenty `games`: {queued:?}"
    );
    assert_eq!(
        pass.lines
            .iter()
            .filter(|l| l.contains("not answered"))
            .count(),
        300 - 25,
        "the GM sees each mail not answered: {:?}",
        pass.lines
    );
    let logged = std::fs::read_to_string(root.join("mailroom/log.jsonl")).expect("log");
    assert_eq!(logged.lines().count(), 300, "each mail logged");
    // An hour later Ann is answered again; the note is not sent twice that day.
    mail_at(
        &maildir,
        400,
        "2026-11-26T11:00:00Z",
        "Ann <ann@example.org>",
        "game atlantis\n",
    );
    for n in 401..410 {
        mail_at(
            &maildir,
            n,
            "2026-11-26T11:00:00Z",
            "Ann <ann@example.org>",
            &format!("game atlantis{n}\n"),
        );
    }
    let later = humantime::parse_rfc3339("2026-11-26T11:01:00Z").expect("time");
    house::run(
        &h,
        pbem_judge::games::registry(),
        later,
        options(house::PASS_BYTES),
    )
    .expect("a pass");
    let again = outbox(&root);
    assert_eq!(
        again.len() - queued.len(),
        pbem_judge::pbem::intake::REFUSALS_PER_HOUR,
        "five more answers, no second note: {again:?}"
    );
}

/// "Two standalone games reading one Maildir still answer each
/// other's mail with refusals." The judge refuses the set-up instead: a game whose
/// mailbox another game reads (beside it, or anywhere: the Maildir keeps its readers)
/// reads none of it, and says which game, which setting, and the way out (a folder with
/// judge.toml). Nobody gets a refusal meant for another game.
#[test]
fn two_standalone_games_never_read_one_mailbox() {
    let tmp = tempfile::tempdir().expect("tmp");
    let maildir = tmp.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("maildir");
    }
    let pickup = tmp.path().join("pickup");
    std::fs::create_dir_all(&pickup).expect("pickup");
    let env = [("JUDGE_NOW", "2026-11-26T09:00:00Z")];
    let mbox = tmp.path().join("z/shared.mbox");
    let mut secrets = Vec::new();
    // Two games in folders of their own, far apart: only the Maildir knows both.
    for (dir, mailbox) in [
        (
            tmp.path().join("x/spring"),
            format!("maildir = \"{}\"", maildir.display()),
        ),
        (
            tmp.path().join("y/duel"),
            format!("maildir = \"{}\"", maildir.display()),
        ),
        (
            tmp.path().join("z/north"),
            format!("mbox = \"{}\"", mbox.display()),
        ),
        (
            tmp.path().join("z/south"),
            format!("mbox = \"{}\"", mbox.display()),
        ),
    ] {
        let d = dir.to_str().expect("utf-8");
        let (code, out, err) = support::judge_text(
            &[
                "new",
                d,
                "--scenario",
                "two-rivers",
                "--player",
                "Ann:ann@example.org",
                "--player",
                "Bob:bob@example.org",
            ],
            &env,
        );
        assert_eq!(code, 0, "{out}{err}");
        let toml = dir.join("game.toml");
        let mut text = std::fs::read_to_string(&toml).expect("game.toml");
        text.push_str(&format!(
            "\n[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"{}\"\n{mailbox}\n",
            pickup.display()
        ));
        std::fs::write(&toml, text).expect("game.toml");
        let (code, out, _) = support::judge_text(&["secret", d], &env);
        assert_eq!(code, 0, "{out}");
        secrets.push(
            out.lines()
                .find_map(
                    |l| match l.split_whitespace().collect::<Vec<_>>().as_slice() {
                        ["red", _, "secret", s] => Some(s.to_string()),
                        _ => None,
                    },
                )
                .expect("red's secret"),
        );
    }
    mail_at(
        &maildir,
        1,
        "2026-11-26T09:30:00Z",
        "Ann <ann@example.org>",
        &format!("game spring\nplayer red\nturn 1\nsecret {}\n", secrets[0]),
    );
    let turn = |dir: &Path| {
        support::judge_text(
            &["turn", dir.to_str().expect("utf-8")],
            &[("JUDGE_NOW", "2026-11-26T10:00:00Z")],
        )
    };
    let spring = tmp.path().join("x/spring");
    let duel = tmp.path().join("y/duel");
    // Spring reads its mail while it is the Maildir's only reader.
    let (code, out, err) = turn(&spring);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("accepted: red's orders"), "{out}");
    let sent_before = std::fs::read_dir(&pickup).expect("pickup").count();
    // Duel reads the same Maildir: refused, naming spring, the setting and the way out.
    let (code, out, err) = turn(&duel);
    assert_eq!(code, 1, "the GM's set-up to fix: {out}{err}");
    for said in [
        "[mail] maildir",
        "the game spring",
        "judge.toml",
        "judge turn --all",
    ] {
        assert!(err.contains(said), "{said}: {err}");
    }
    assert!(
        !duel.join("mail/log.jsonl").exists(),
        "duel read none of spring's mail"
    );
    assert_eq!(
        std::fs::read_dir(&pickup).expect("pickup").count(),
        sent_before,
        "nobody was answered by the wrong game"
    );
    // And spring, which now knows of duel, stops reading it too until the GM chooses.
    let (code, _, err) = turn(&spring);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the game duel"), "{err}");
    // Games side by side sharing an mbox are found without any note.
    std::fs::write(
        &mbox,
        "From ann@example.org Thu Nov 26 09:30:00 2026\nFrom: ann@example.org\nSubject: x\nMessage-ID: <mb@x>\n\ngame north\n",
    )
    .expect("mbox");
    let cwd_turn = |dir: &str| {
        let (code, out, err) = support::judge_text(
            &["turn", tmp.path().join(dir).to_str().expect("utf-8")],
            &[("JUDGE_NOW", "2026-11-26T10:00:00Z")],
        );
        (code, format!("{out}{err}"))
    };
    let (code, out) = cwd_turn("z/north");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("[mail] mbox") && out.contains("the game south"),
        "{out}"
    );
}

/// With a folder: a game on its own that reads the folder's shared
/// Maildir would answer the folder's games' mail with refusals; it reads none of it and
/// names the folder (which the Maildir lists among its readers once a pass has run).
#[test]
fn a_game_on_its_own_never_reads_a_folders_mailbox() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (root, maildir, red, _) = one_game_folder(tmp.path(), None);
    mail_at(
        &maildir,
        1,
        "2026-11-26T09:30:00Z",
        "Ann <ann@example.org>",
        &format!("game rivers\nplayer red\nturn 1\nsecret {red}\n"),
    );
    let h = pbem_judge::archive::house::House::open(&root).expect("the folder");
    let now = humantime::parse_rfc3339("2026-11-26T10:00:00Z").expect("time");
    house::run(
        &h,
        pbem_judge::games::registry(),
        now,
        options(house::PASS_BYTES),
    )
    .expect("a pass");
    let solo = tmp.path().join("elsewhere/solo");
    let d = solo.to_str().expect("utf-8");
    let env = [("JUDGE_NOW", "2026-11-26T10:00:00Z")];
    let (code, out, err) = support::judge_text(
        &[
            "new",
            d,
            "--scenario",
            "two-rivers",
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Bob:bob@example.org",
        ],
        &env,
    );
    assert_eq!(code, 0, "{out}{err}");
    let toml = solo.join("game.toml");
    let mut text = std::fs::read_to_string(&toml).expect("game.toml");
    text.push_str(&format!(
        "\n[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"{}\"\nmaildir = \"{}\"\n",
        tmp.path().join("pickup").display(),
        maildir.display()
    ));
    std::fs::write(&toml, text).expect("game.toml");
    let (code, out, err) = support::judge_text(&["turn", d], &env);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("the folder of games") && err.contains(root.to_str().expect("utf-8")),
        "{err}"
    );
    assert!(!solo.join("mail/log.jsonl").exists(), "it read nothing");
}
