//! "Commands by mail" and "Sign-up" (docs/mail-commands.md), through the
//! judge's own command line on a folder of games whose shared mailbox is a Maildir and
//! whose mail goes to a pickup folder. (The same commands through the real mail
//! servers, under `judge serve`: tests/judge_core/house.rs.) Each test reads every mail the judge
//! sent, as a mail program shows it, and asks what each reader could see — not only
//! whether the expected words are there.

use std::path::{Path, PathBuf};

use crate::support;

/// A mail the judge sent, as its reader sees it.
#[derive(Debug, Clone)]
pub struct Sent {
    pub to: String,
    pub subject: String,
    pub body: String,
    /// The Message-ID, and what it answers (In-Reply-To, References).
    pub message_id: String,
    pub refs: String,
}

pub struct Folder {
    _tmp: tempfile::TempDir,
    pub root: PathBuf,
    maildir: PathBuf,
    pickup: PathBuf,
    n: usize,
}

const NOW: &str = "2026-11-26T09:00:00Z";

impl Folder {
    pub fn new() -> Folder {
        let tmp = tempfile::tempdir().expect("tmp");
        let root = tmp.path().join("games");
        let maildir = tmp.path().join("Maildir");
        let pickup = tmp.path().join("pickup");
        for d in [
            maildir.join("new"),
            maildir.join("cur"),
            maildir.join("tmp"),
            pickup.clone(),
            root.clone(),
        ] {
            std::fs::create_dir_all(d).expect("folder");
        }
        std::fs::write(
            root.join("judge.toml"),
            format!(
                "[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"{}\"\nmaildir = \"{}\"\n",
                pickup.display(),
                maildir.display()
            ),
        )
        .expect("judge.toml");
        Folder {
            _tmp: tmp,
            root,
            maildir,
            pickup,
            n: 0,
        }
    }

    pub fn judge(&self, args: &[&str]) -> String {
        let (code, out, err) = support::judge_text(args, &[("JUDGE_NOW", NOW)]);
        assert_eq!(code, 0, "judge {args:?}: {out}{err}");
        out
    }

    /// `judge new` in the folder; the players' secrets, by seat.
    pub fn game(&self, name: &str, args: &[&str]) -> Vec<(String, String)> {
        let dir = self.root.join(name);
        let d = dir.to_str().expect("utf-8");
        let mut a = vec!["new", d];
        a.extend(args);
        self.judge(&a);
        if args.contains(&"--open") {
            return Vec::new();
        }
        self.judge(&["secret", d])
            .lines()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                match w.as_slice() {
                    [seat, _, "secret", s] => Some((seat.to_string(), s.to_string())),
                    _ => None,
                }
            })
            .collect()
    }

    pub fn dir(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// A mail into the shared Maildir.
    pub fn send(&mut self, from: &str, body: &str) {
        self.n += 1;
        let n = self.n;
        std::fs::write(
            self.maildir
                .join(format!("new/{}.M{n}P1.test", 1_795_680_000 + n)),
            format!(
                "From: {from}\nTo: judge@example.org\nSubject: mail {n}\nMessage-ID: <c{n}@example.org>\nDate: Thu, 26 Nov 2026 08:00:00 +0000\n\n{body}"
            ),
        )
        .expect("mail");
    }

    /// A mail into the shared Maildir with its own subject (a reply: `Re: [island] join`).
    pub fn send_subject(&mut self, from: &str, subject: &str, body: &str) {
        self.n += 1;
        let n = self.n;
        std::fs::write(
            self.maildir
                .join(format!("new/{}.M{n}P1.test", 1_795_680_000 + n)),
            format!(
                "From: {from}\nTo: judge@example.org\nSubject: {subject}\nMessage-ID: <c{n}@example.org>\nDate: Thu, 26 Nov 2026 08:00:00 +0000\n\n{body}"
            ),
        )
        .expect("mail");
    }

    /// A mail into the shared Maildir, delivered at `at` (RFC 3339): its file is named
    /// for that second, as a delivery agent names it.
    pub fn send_delivered(&mut self, from: &str, body: &str, at: &str) {
        self.n += 1;
        let n = self.n;
        let secs = humantime::parse_rfc3339(at)
            .expect("a time")
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs();
        std::fs::write(
            self.maildir.join(format!("new/{secs}.M{n}P1.test")),
            format!(
                "From: {from}\nTo: judge@example.org\nSubject: mail {n}\nMessage-ID: <c{n}@example.org>\nDate: Thu, 26 Nov 2026 08:00:00 +0000\n\n{body}"
            ),
        )
        .expect("mail");
    }

    /// One `judge turn --all` pass at `now`.
    pub fn pass_at(&self, now: &str) -> String {
        let root = self.root.to_str().expect("utf-8");
        let (code, out, err) = support::judge_text(&["turn", "--all", root], &[("JUDGE_NOW", now)]);
        assert!(
            code == 0 || code == 3,
            "judge turn --all: {code} {out}{err}"
        );
        out
    }

    pub fn pass(&self) -> String {
        self.pass_at(NOW)
    }

    /// Every mail sent so far, in the order sent.
    pub fn sent(&self) -> Vec<Sent> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.pickup)
            .expect("pickup")
            .flatten()
            .map(|e| e.path())
            .collect();
        names.sort_by_key(|p| {
            std::fs::metadata(p)
                .and_then(|m| m.modified())
                .ok()
                .zip(Some(p.clone()))
        });
        names
            .iter()
            .map(|p| {
                let raw = std::fs::read(p).expect("mail");
                let m = mail_parser::MessageParser::default()
                    .parse(&raw)
                    .expect("a mail the judge sent reads");
                Sent {
                    to: m
                        .to()
                        .and_then(|a| a.first())
                        .and_then(|a| a.address())
                        .unwrap_or_default()
                        .to_ascii_lowercase(),
                    subject: m.subject().unwrap_or_default().to_string(),
                    body: m.body_text(0).unwrap_or_default().replace("\r\n", "\n"),
                    message_id: m.message_id().unwrap_or_default().to_string(),
                    refs: format!("{:?} {:?}", m.in_reply_to(), m.references()),
                }
            })
            .collect()
    }

    pub fn sent_to(&self, who: &str) -> Vec<Sent> {
        self.sent().into_iter().filter(|m| m.to == who).collect()
    }

    /// A copy of the whole folder (games, mailbox, pickup), its judge.toml pointed at
    /// the copy: the same world, to go two ways from here.
    pub fn copy(&self) -> Folder {
        let tmp = tempfile::tempdir().expect("tmp");
        let ok = std::process::Command::new("cp")
            .arg("-a")
            .arg(format!("{}/.", self._tmp.path().display()))
            .arg(tmp.path())
            .status()
            .expect("cp");
        assert!(ok.success());
        let root = tmp.path().join("games");
        let toml = root.join("judge.toml");
        let text = std::fs::read_to_string(&toml).expect("judge.toml").replace(
            self._tmp.path().to_str().expect("utf-8"),
            tmp.path().to_str().expect("utf-8"),
        );
        std::fs::write(&toml, text).expect("judge.toml");
        Folder {
            maildir: tmp.path().join("Maildir"),
            pickup: tmp.path().join("pickup"),
            root,
            _tmp: tmp,
            n: self.n,
        }
    }

    /// What `who` can see: every mail to them (subject and text), and every file of
    /// the folder's games that git keeps (the public record: the game's .gitignore
    /// keeps mail, pending orders and the secret seed out).
    pub fn view(&self, who: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .sent_to(who)
            .into_iter()
            .map(|m| (m.subject, m.body))
            .collect();
        out.sort();
        for (p, b) in every_file(&self.root) {
            let rel = p.strip_prefix(&self.root).expect("under the folder");
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let [game, inside @ ..] = parts.as_slice() else {
                continue;
            };
            if game == "mailroom" || inside.is_empty() {
                continue;
            }
            let ignore = std::fs::read_to_string(self.root.join(game).join(".gitignore"))
                .unwrap_or_default();
            if ignored(inside, &ignore) {
                continue;
            }
            out.push((
                rel.display().to_string(),
                String::from_utf8_lossy(&b).into_owned(),
            ));
        }
        out.sort();
        out
    }

    /// Forget the mails sent so far (each test step reads only its own).
    /// Where the judge's mail goes.
    pub fn pickup(&self) -> &Path {
        &self.pickup
    }

    pub fn clear(&self) {
        for e in std::fs::read_dir(&self.pickup).expect("pickup").flatten() {
            std::fs::remove_file(e.path()).expect("remove");
        }
    }
}

/// Whether a game's `.gitignore` (the judge's own: anchored patterns, `*` for one
/// name, a trailing `/` for a folder) keeps the path `inside` the game out of git.
fn ignored(inside: &[String], gitignore: &str) -> bool {
    gitignore
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .any(|pattern| {
            let dir = pattern.ends_with('/');
            let pat: Vec<&str> = pattern.split('/').filter(|p| !p.is_empty()).collect();
            let fits = pat.len() <= inside.len()
                && pat.iter().zip(inside).all(|(p, s)| *p == "*" || p == s);
            fits && (if dir {
                inside.len() > pat.len()
            } else {
                inside.len() == pat.len()
            })
        })
}

/// Every file under `dir`, as text where it is text.
pub(crate) fn every_file(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(b) = std::fs::read(&p) {
                out.push((p, b));
            }
        }
    }
    out
}

pub(crate) fn two_rivers(f: &Folder, name: &str, extra: &[&str]) -> Vec<(String, String)> {
    let mut a = vec![
        "--scenario",
        "two-rivers",
        "--seed",
        "3",
        "--player",
        "Ann:ann@example.org",
        "--player",
        "Bob:bob@example.org",
        "--gm",
        "Gina:gm@example.org",
    ];
    a.extend(extra);
    f.game(name, &a)
}

/// A schedule, so that a turn is played at its deadline (not as soon as orders come).
pub(crate) fn schedule(dir: &Path) {
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str("\n[schedule]\nfirst_deadline = \"2026-11-28T18:00:00Z\"\nevery = \"2days\"\n");
    std::fs::write(dir.join("game.toml"), toml).expect("toml");
}

pub(crate) fn secret_of(secrets: &[(String, String)], seat: &str) -> String {
    secrets
        .iter()
        .find(|(s, _)| s == seat)
        .map(|(_, s)| s.clone())
        .expect("a secret")
}

/// docs/mail-commands.md, `help`, `template`, `status`, `resend`: "answered to the
/// address on file without a secret"; a mail of commands alone is no order mail (it is
/// not refused for want of orders), and nothing of another player's file is shown.
#[test]
fn help_template_status_and_resend_answer_the_address_on_file() {
    let mut f = Folder::new();
    let secrets = two_rivers(&f, "rivers", &[]);
    schedule(&f.dir("rivers"));
    let ann = secret_of(&secrets, "red");
    let bob = secret_of(&secrets, "yellow");
    // Bob's orders are in, with a line Ann must never see.
    f.send(
        "Bob <bob@example.org>",
        &format!("game rivers\nplayer yellow\nturn 1\nsecret {bob}\n# my plan: the quarry at E3\n"),
    );
    f.pass();
    f.clear();
    // A forged mail in Ann's name asks for status: the answer goes to Ann, not to the forger.
    f.send("Ann <ann@example.org>", "help\ntemplate\nstatus\nresend\n");
    let out = f.pass();
    assert!(out.contains("commands:"), "{out}");
    let mails = f.sent();
    assert!(mails.iter().all(|m| m.to == "ann@example.org"), "{mails:?}");
    let answer = mails
        .iter()
        .find(|m| m.subject.contains("help, template, status, resend"))
        .unwrap_or_else(|| panic!("the answer: {mails:?}"));
    let b = &answer.body;
    assert!(
        b.contains("docs/orders.md"),
        "help names the order guide: {b}"
    );
    assert!(
        b.contains("    game rivers\n    player red\n    turn 1\n    secret YOUR-SECRET"),
        "{b}"
    );
    assert!(
        b.contains("    movement\n") && b.contains("# move D"),
        "the template lists Ann's transporters: {b}"
    );
    assert!(
        b.contains("yellow") && b.contains("orders in"),
        "status says whose orders are in: {b}"
    );
    assert!(!b.contains("quarry"), "nothing of Bob's file: {b}");
    assert!(
        !b.contains(&ann) && !b.contains(&bob),
        "no secret in any answer"
    );
    assert!(
        mails
            .iter()
            .any(|m| m.subject.contains("turn 0") || m.subject.contains("report")),
        "the report again, in a mail of its own: {mails:?}"
    );
    let log = std::fs::read_to_string(f.dir("rivers").join("mail/log.jsonl")).expect("log");
    assert!(log.contains("\"outcome\":\"commands\""), "{log}");
    // The template, filled and sent back, is filed as orders.
    let filled = b
        .split("Fill it in")
        .nth(1)
        .expect("template")
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with("    ") || l.is_empty() || l.starts_with('#'))
        .map(|l| l.trim_start())
        .collect::<Vec<_>>()
        .join("\n")
        .replace("YOUR-SECRET", &ann);
    // With a `status` in the same mail: the orders are filed first, then the status
    // shows them; the command line is not in the filed orders.
    f.clear();
    f.send("Ann <ann@example.org>", &format!("{filled}\nstatus\n"));
    let out = f.pass();
    assert!(
        out.contains("accepted: red's orders for turn 1"),
        "{out}\n{filled}"
    );
    let pending = std::fs::read_to_string(f.dir("rivers").join("pending/red.txt")).expect("filed");
    assert!(!pending.contains("status"), "{pending}");
    assert!(
        f.sent_to("ann@example.org")
            .iter()
            .any(|m| m.subject == "[rivers] status"
                && m.body.contains("Your orders as filed")
                && m.body.contains("red     Ann          orders in, arrived")),
        "{:?}",
        f.sent_to("ann@example.org")
    );
}

/// docs/mail-commands.md, `press`: "relayed to the other players under the sender's
/// name"; press to everyone goes into the public record of the turn (its report), private
/// press reaches its receiver and nobody else, and the public record never holds it.
#[test]
fn press_open_is_relayed_under_the_senders_name_and_private_press_to_one_reader() {
    let mut f = Folder::new();
    let secrets = f.game(
        "island",
        &[
            &["--game", "catan", "--seed", "5"][..],
            &support::ANN_BOB_CAT,
        ]
        .concat(),
    );
    let s = |seat: &str| secret_of(&secrets, seat);
    f.send(
        "Ann <ann@example.org>",
        &format!("secret {}\npress to all: Wood for sheep, anyone?\npress to white:\nBetween us: I block Cat.\nend press\n", s("red")),
    );
    f.pass();
    let mails = f.sent();
    let public_words = "Wood for sheep";
    let private_words = "I block Cat";
    for who in ["bob@example.org", "cat@example.org"] {
        let got: String = f.sent_to(who).iter().map(|m| m.body.clone()).collect();
        assert!(
            got.contains(public_words) && got.contains("red (Ann)"),
            "{who}: {got}"
        );
    }
    let whites = f
        .sent_to("bob@example.org")
        .iter()
        .chain(f.sent_to("cat@example.org").iter())
        .filter(|m| m.body.contains(private_words))
        .map(|m| m.to.clone())
        .collect::<Vec<_>>();
    let white = pbem_judge::archive::Archive::open(&f.dir("island"))
        .expect("game")
        .game
        .players
        .iter()
        .find(|p| p.id == "white")
        .map(|p| p.email.clone())
        .expect("white");
    assert_eq!(
        whites,
        vec![white.clone()],
        "private press reaches white alone"
    );
    assert!(
        mails.iter().all(|m| !m.body.contains(&s("red"))),
        "no secret relayed"
    );
    // The public record: press to everyone kept for turn 1; the private one only under mail/.
    let island = f.dir("island");
    let public = every_file(&island.join("press"));
    assert!(
        public
            .iter()
            .any(|(_, b)| String::from_utf8_lossy(b).contains(public_words))
    );
    for (p, b) in every_file(&island) {
        if String::from_utf8_lossy(&b).contains(private_words) {
            // mail/ (the kept press), sent/ and outbox/ (the mails relaying it): all
            // kept out of git by the game's .gitignore.
            assert!(
                ["mail", "sent", "outbox"]
                    .iter()
                    .any(|d| p.starts_with(island.join(d))),
                "private press only where git never keeps it: {}",
                p.display()
            );
        }
    }
    // Without the secret nothing is relayed.
    f.clear();
    f.send("Bob <bob@example.org>", "press to all: forged?\n");
    f.pass();
    assert!(
        f.sent()
            .iter()
            .all(|m| !m.body.contains("forged?") || m.to == "bob@example.org")
    );
    assert!(
        f.sent_to("bob@example.org")[0]
            .body
            .contains("needs your secret")
    );
}

/// `[press] = "anonymous"`: "anonymously where the game allows it": the readers and
/// the public record never learn the sender; where the game does not allow it
/// (`open`), it is refused; `off` refuses all press.
#[test]
fn anonymous_press_hides_the_sender_and_off_refuses_it() {
    let mut f = Folder::new();
    let anon = two_rivers(&f, "masks", &["--press", "anonymous"]);
    let open = two_rivers(&f, "faces", &["--press", "open"]);
    let off = two_rivers(&f, "quiet", &["--press", "off"]);
    let red = |s: &[(String, String)]| secret_of(s, "red");
    f.send(
        "Ann <ann@example.org>",
        &format!(
            "game masks\nsecret {}\nanonymous press to all: the river is mine\n",
            red(&anon)
        ),
    );
    f.send(
        "Ann <ann@example.org>",
        &format!(
            "game faces\nsecret {}\nanonymous press to all: who am I\n",
            red(&open)
        ),
    );
    f.send(
        "Ann <ann@example.org>",
        &format!("game quiet\nsecret {}\npress to all: hello\n", red(&off)),
    );
    f.pass();
    // Anonymous press goes out once the hour it came in is out.
    f.pass_at("2026-11-26T10:00:00Z");
    let bob = f.sent_to("bob@example.org");
    let relayed: Vec<&Sent> = bob
        .iter()
        .filter(|m| m.body.contains("the river is mine"))
        .collect();
    assert_eq!(relayed.len(), 1, "{bob:?}");
    for m in &relayed {
        assert!(
            !m.body.contains("Ann") && !m.body.contains("red") && !m.subject.contains("red"),
            "{m:?}"
        );
        assert!(m.body.contains("anonymous"), "{m:?}");
    }
    for (p, b) in every_file(&f.dir("masks").join("press")) {
        let t = String::from_utf8_lossy(&b);
        assert!(
            !t.contains("Ann") && !t.contains("red") && !p.to_string_lossy().contains("red"),
            "{}: {t}",
            p.display()
        );
    }
    assert!(
        bob.iter()
            .all(|m| !m.body.contains("who am I") && !m.body.contains("hello\n"))
    );
    let ann: String = f
        .sent_to("ann@example.org")
        .iter()
        .map(|m| m.body.clone())
        .collect();
    assert!(ann.contains("This game's press is open"), "{ann}");
    assert!(ann.contains("This game has no press"), "{ann}");
}

/// The GM's commands: "from the GM's address with the GM's secret: `extend 24h`,
/// `pause`, `resume`". Without the secret nothing moves; a pause keeps the turn from
/// being played at its deadline; `resume` moves the deadline on by the pause.
#[test]
fn the_gms_extend_pause_and_resume_need_the_gms_secret() {
    let mut f = Folder::new();
    two_rivers(&f, "rivers", &[]);
    let dir = f.dir("rivers");
    schedule(&dir);
    let out = f.judge(&["secret", dir.to_str().expect("utf-8"), "--gm"]);
    let gm = crate::support::gm_secret(&out);
    let deadline = || {
        let a = pbem_judge::archive::Archive::open(&dir).expect("game");
        (
            a.game.schedule.clone().expect("schedule").moved,
            a.game.paused.clone(),
        )
    };
    // Without the secret: refused, nothing moves.
    f.send("Gina <gm@example.org>", "game rivers\nextend 24h\n");
    f.pass();
    assert!(deadline().0.is_empty());
    assert!(
        f.sent_to("gm@example.org")[0]
            .body
            .contains("needs your secret")
    );
    // A player cannot, even with their own secret.
    f.send("Ann <ann@example.org>", "game rivers\npause\n");
    f.pass();
    assert!(deadline().1.is_none());
    // With it: the deadline moves a day, and every player is told.
    f.clear();
    f.send(
        "Gina <gm@example.org>",
        &format!("game rivers\nsecret {gm}\nextend 24h\n"),
    );
    f.pass();
    assert_eq!(
        deadline().0.get("1").map(String::as_str),
        Some("2026-11-29T18:00:00Z")
    );
    for who in ["ann@example.org", "bob@example.org"] {
        assert!(
            f.sent_to(who)
                .iter()
                .any(|m| m.subject.contains("deadline moved")),
            "{who}"
        );
    }
    assert!(
        f.sent().iter().all(|m| !m.body.contains(&gm)),
        "the GM's secret never echoed"
    );
    // Paused on the 27th: the deadline of the 29th passes, and nothing is played.
    f.send(
        "Gina <gm@example.org>",
        &format!("game rivers\nsecret {gm}\npause\n"),
    );
    f.pass_at("2026-11-27T18:00:00Z");
    assert!(deadline().1.is_some());
    let out = f.pass_at("2026-11-30T18:00:00Z");
    assert!(!dir.join("turns/001").exists(), "{out}");
    // Resumed on the 1st, after four days: the deadline moves on by them.
    f.send(
        "Gina <gm@example.org>",
        &format!("game rivers\nsecret {gm}\nresume\n"),
    );
    f.pass_at("2026-12-01T18:00:00Z");
    assert_eq!(deadline().1, None);
    assert_eq!(
        deadline().0.get("1").map(String::as_str),
        Some("2026-12-03T18:00:00Z")
    );
}

/// "Sign-up": `judge new --open` makes a game with free seats and an announcement;
/// `join GAME as NAME` is answered with a code, and the line `confirm GAME CODE` sent
/// back from that address takes the next free seat (answered with the welcome mail and
/// the secret); the game begins when the seats are full; a full game
/// answers that it is full; a seat is never taken twice, however many confirms come in
/// one pass.
#[test]
fn joins_take_each_free_seat_once_and_the_game_begins_when_full() {
    let mut f = Folder::new();
    let dir = f.dir("harbour");
    let out = f.judge(&[
        "new",
        dir.to_str().expect("utf-8"),
        "--game",
        "catan-express",
        "--seed",
        "9",
        "--player",
        "Ann:ann@example.org",
        "--open",
        "2",
    ]);
    assert!(out.contains("join harbour as YOUR NAME"), "{out}");
    assert!(
        std::fs::read_to_string(dir.join("announce.txt"))
            .expect("announce")
            .contains("join harbour as")
    );
    assert!(
        !dir.join("turns").exists(),
        "no turn 0 before the seats are full"
    );
    let ann = f
        .judge(&["secret", dir.to_str().expect("utf-8")])
        .lines()
        .find_map(|l| l.split("secret ").nth(1).map(str::to_string))
        .expect("Ann's secret");
    // Orders before the game begins are refused, not filed.
    f.send(
        "Ann <ann@example.org>",
        "game harbour\nplayer red\nsettlement 13\n",
    );
    // Three strangers ask, one twice: each is mailed one code.
    f.send("Zoe <zoe@example.org>", "join harbour as Zoe Q\n");
    f.send("Zoe <zoe@example.org>", "join harbour as Zoe Q\n");
    f.send("Yan <yan@example.org>", "Join Harbour as Yan\n");
    f.send("Xia <xia@example.org>", "join harbour as Xia\n");
    f.pass();
    assert!(!dir.join("turns").exists(), "a join alone takes no seat");
    let confirm = |who: &str| {
        let mails = f.sent_to(who);
        assert_eq!(mails.len(), 1, "{who}: {mails:?}");
        mails[0]
            .body
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with("confirm harbour "))
            .expect("the line to send back")
            .to_string()
    };
    let (zoe_line, yan_line, xia_line) = (
        confirm("zoe@example.org"),
        confirm("yan@example.org"),
        confirm("xia@example.org"),
    );
    // All three send their line back in one pass, Zoe twice: two seats, one full answer.
    f.send("Zoe <zoe@example.org>", &format!("{zoe_line}\n"));
    f.send("Zoe <zoe@example.org>", &format!("{zoe_line}\n"));
    f.send("Yan <yan@example.org>", &format!("{yan_line}\n"));
    f.send("Xia <xia@example.org>", &format!("{xia_line}\n"));
    // In the same run, after the confirms: press to everyone reaches the newcomers.
    f.send(
        "Ann <ann@example.org>",
        &format!("game harbour\nsecret {ann}\npress to all: welcome aboard\n"),
    );
    f.pass();
    for who in ["zoe@example.org", "yan@example.org"] {
        assert!(
            f.sent_to(who)
                .iter()
                .any(|m| m.body.contains("welcome aboard")),
            "{who} got the press sent after they joined"
        );
    }
    assert!(
        f.sent_to("xia@example.org")
            .iter()
            .all(|m| !m.body.contains("welcome aboard"))
    );
    let a = pbem_judge::archive::Archive::open(&dir).expect("game");
    let emails: Vec<&str> = a.game.players.iter().map(|p| p.email.as_str()).collect();
    assert_eq!(
        emails,
        ["ann@example.org", "zoe@example.org", "yan@example.org"]
    );
    assert!(a.game.players.iter().all(|p| !p.is_free()));
    assert!(
        dir.join("turns/000").is_dir(),
        "the last join began the game"
    );
    let zoe = f.sent_to("zoe@example.org");
    let welcome = zoe
        .iter()
        .find(|m| m.subject.contains("welcome"))
        .expect("welcome");
    let secret = welcome
        .body
        .split("Your secret is:\n\n    ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .expect("the secret")
        .to_string();
    assert!(
        zoe.iter()
            .any(|m| m.body.contains("You play") && m.body.contains("already")),
        "{zoe:?}"
    );
    assert!(
        f.sent_to("xia@example.org")
            .iter()
            .any(|m| m.body.contains("is full"))
    );
    assert!(
        f.sent_to("ann@example.org")
            .iter()
            .any(|m| m.subject.contains("the game begins"))
    );
    assert!(
        f.sent_to("ann@example.org")
            .iter()
            .any(|m| m.body.contains("has not begun"))
    );
    // The secret is in Zoe's welcome alone: in no file of the folder, no other mail.
    for (p, b) in every_file(&f.root) {
        assert!(
            !String::from_utf8_lossy(&b).contains(&secret),
            "{}",
            p.display()
        );
    }
    for m in f.sent() {
        assert!(m.to == "zoe@example.org" || !m.body.contains(&secret));
    }
    // Zoe's secret works.
    f.clear();
    f.send(
        "Zoe <zoe@example.org>",
        &format!("game harbour\nsecret {secret}\nstatus\n"),
    );
    f.pass();
    // (Catan Express: the answer tells Zoe of her own orders alone.)
    assert!(
        f.sent_to("zoe@example.org")[0]
            .body
            .contains("Whether your orders are in")
    );
}

/// `games` with no game line: "the sender's games and their state", answered by the
/// folder once for all of them.
#[test]
fn games_lists_the_senders_games_in_the_folder() {
    let mut f = Folder::new();
    two_rivers(&f, "north", &[]);
    two_rivers(&f, "south", &[]);
    f.send("Ann <ann@example.org>", "games\n");
    f.pass();
    let ann = f.sent_to("ann@example.org");
    assert_eq!(ann.len(), 1, "{ann:?}");
    assert!(
        ann[0].body.contains("game north") && ann[0].body.contains("game south"),
        "{ann:?}"
    );
    assert!(ann[0].body.contains("Roads & Boats"), "{ann:?}");
}

/// "Test the absence of everything else" (DEVELOPERS.md): private press is seen by its
/// sender, its receiver and the GM, and nobody else. Over random senders, receivers and
/// texts, the two worlds that differ only in the text of a private message look the
/// same, byte for byte, to every other player: the mails they get and every file of
/// the public record, the report of the turn played after it included. And anonymous
/// press: the worlds where two different players sent the same anonymous message look
/// the same to everyone else.
mod non_interference {
    use super::*;
    use proptest::prelude::*;

    const SEATS: [(&str, &str); 4] = [
        ("red", "ann@example.org"),
        ("blue", "bob@example.org"),
        ("white", "cat@example.org"),
        ("orange", "dan@example.org"),
    ];

    fn world() -> (Folder, Vec<(String, String)>) {
        let f = Folder::new();
        let secrets = f.game(
            "isle",
            &[
                &["--game", "catan", "--seed", "11", "--press", "anonymous"][..],
                &support::ANN_BOB_CAT,
                &["--player", "Dan:dan@example.org"],
            ]
            .concat(),
        );
        (f, secrets)
    }

    fn press(f: &mut Folder, secrets: &[(String, String)], from: usize, line: &str) {
        let (seat, address) = SEATS[from];
        f.send(
            &format!("P <{address}>"),
            &format!("game isle\nsecret {}\n{line}\n", secret_of(secrets, seat)),
        );
        f.pass();
        // Anonymous press goes out once the hour it came in is out.
        f.pass_at("2026-11-26T10:00:00Z");
        // The turn played after it: its report is the public record of the press.
        f.judge(&["turn", f.dir("isle").to_str().expect("utf-8"), "--force"]);
    }

    /// The seat the first step of `world()` waits for (the first to found): its orders
    /// would play the step, and who sent orders is public once a step has played them.
    fn awaited(f: &Folder) -> usize {
        let text = std::fs::read_to_string(f.dir("isle").join("turns/000/state.json"))
            .expect("turn 0's state");
        let state: serde_json::Value = serde_json::from_str(&text).expect("json");
        let active = state["active"].as_str().expect("the active seat");
        SEATS
            .iter()
            .position(|(seat, _)| *seat == active)
            .expect("a seat")
    }

    /// Orders by mail from seat `i` (a standing discard preference: the step does not
    /// wait for them).
    fn orders(f: &mut Folder, secrets: &[(String, String)], i: usize) {
        let (seat, address) = SEATS[i];
        f.send(
            &format!("P <{address}>"),
            &format!(
                "game isle\nplayer {seat}\nturn 1\nsecret {}\ndiscard 2 wood\n",
                secret_of(secrets, seat)
            ),
        );
        f.pass();
    }

    /// `status` by mail from seat `i`; its answer.
    fn status(f: &mut Folder, secrets: &[(String, String)], i: usize) -> String {
        let (seat, address) = SEATS[i];
        f.send(
            &format!("P <{address}>"),
            &format!("game isle\nsecret {}\nstatus\n", secret_of(secrets, seat)),
        );
        f.pass();
        f.sent_to(address)
            .into_iter()
            .rev()
            .find(|m| m.subject.contains("status"))
            .map(|m| m.body)
            .expect("the status answer")
    }

    /// The late notice, found beside `status`: `[absent] late_notice`
    /// told every player "orders not in yet from …", in Catan too, where "whether the
    /// judge already holds that player's orders ... is told to that player alone"
    /// (docs/catan.md, "Hidden information"); a discard step waits only for players
    /// with no discard preference on record, so the notice told who had one. Now the
    /// awaited player alone is told, of their own orders; no other player gets any mail
    /// from the notice, and the one they get names no other seat.
    #[test]
    fn catan_late_notice_goes_to_the_awaited_player_alone() {
        let (f, _) = world();
        let d = f.dir("isle");
        let mut toml = std::fs::read_to_string(d.join("game.toml")).expect("toml");
        toml.push_str(
            "\n[schedule]\nfirst_deadline = \"2026-12-04T18:00:00Z\"\nevery = \"1day\"\n\n[absent]\nlate_notice = \"2h\"\n",
        );
        std::fs::write(d.join("game.toml"), toml).expect("toml");
        let first = awaited(&f);
        f.pass_at("2026-12-04T15:00:00Z");
        let before = f.sent().len();
        let out = f.pass_at("2026-12-04T16:30:00Z");
        let (seat, address) = SEATS[first];
        assert!(
            out.contains(&format!(
                "told each player whose orders are not in, alone: {seat}"
            )),
            "{out}"
        );
        let notices: Vec<Sent> = f.sent().into_iter().skip(before).collect();
        assert_eq!(notices.len(), 1, "one notice, to {seat} alone: {notices:?}");
        assert!(notices[0].to.contains(address), "{}", notices[0].to);
        assert_eq!(
            notices[0].subject,
            "[isle] turn 1: your orders are not in yet"
        );
        for (other, _) in SEATS.iter().filter(|(s, _)| *s != seat) {
            assert!(
                !notices[0].body.contains(other),
                "{other} named: {:?}",
                notices[0]
            );
        }
        let out = f.pass_at("2026-12-04T17:00:00Z");
        assert!(!out.contains("told each player"), "once a turn: {out}");
    }

    /// "`status` by mail tells every player whether another
    /// player's orders are on record". In Catan that is the other player's alone
    /// (docs/catan.md, "Hidden information": "whether the judge already holds that
    /// player's orders ... is told to that player alone"): one player's answer names
    /// another's orders neither when they are in nor when they are not, and is the
    /// same, byte for byte, in both worlds; the asker's own line is told.
    #[test]
    fn catan_status_tells_a_player_of_their_own_orders_alone() {
        let (base, secrets) = world();
        let first = awaited(&base);
        // Two seats that are not the first to found: one asks, the other's orders are
        // in or not.
        let mut others = (0..4).filter(|i| *i != first);
        let (asker, other) = (
            others.next().expect("a seat"),
            others.next().expect("a seat"),
        );
        let mut one = base.copy();
        let mut two = base.copy();
        orders(&mut one, &secrets, asker);
        orders(&mut two, &secrets, asker);
        orders(&mut one, &secrets, other);
        let a = status(&mut one, &secrets, asker);
        let b = status(&mut two, &secrets, asker);
        assert_eq!(a, b, "the answer hangs on whether another's orders are in");
        assert!(
            a.contains(&format!("  {:<7}", SEATS[asker].0)) && a.contains("orders in"),
            "the asker's own line: {a}"
        );
        for (i, (seat, _)) in SEATS.iter().enumerate() {
            if i != asker {
                assert!(
                    !a.lines().any(|l| l.trim_start().starts_with(seat)),
                    "{seat}'s line in {}'s answer: {a}",
                    SEATS[asker].0
                );
            }
        }
        // The comparison has teeth: the GM's `judge status` does show white's orders.
        let gm = |f: &Folder| f.judge(&["status", f.dir("isle").to_str().expect("utf-8")]);
        assert_ne!(gm(&one), gm(&two), "the worlds do differ");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

        /// The non-interference of `status` answers: over random askers, random sets of
        /// other players whose
        /// Catan orders are in (in each of two worlds), and the asker's own orders in or
        /// not, everything the asker sees — the `status` answer, every mail, the public
        /// record — is the same byte for byte.
        #[test]
        fn status_tells_no_player_whether_anothers_catan_orders_are_in(
            asker in 0usize..4,
            one_in in proptest::collection::vec(any::<bool>(), 4),
            two_in in proptest::collection::vec(any::<bool>(), 4),
            own in any::<bool>(),
        ) {
            let (base, secrets) = world();
            let first = awaited(&base);
            let mut one = base.copy();
            let mut two = base.copy();
            for (f, sent) in [(&mut one, &one_in), (&mut two, &two_in)] {
                if own && asker != first {
                    orders(f, &secrets, asker);
                }
                for (i, sent) in sent.iter().enumerate() {
                    if *sent && i != asker && i != first {
                        orders(f, &secrets, i);
                    }
                }
            }
            let a = status(&mut one, &secrets, asker);
            let b = status(&mut two, &secrets, asker);
            prop_assert_eq!(&a, &b);
            prop_assert!(a.contains(SEATS[asker].0), "{}", a);
            let who = SEATS[asker].1;
            prop_assert_eq!(one.view(who), two.view(who), "{} sees a difference", who);
        }

        #[test]
        fn private_press_is_invisible_to_every_other_player(
            from in 0usize..4,
            to_offset in 1usize..4,
            a in "[a-z]{4,12}( [a-z]{2,8}){0,4}",
            b in "[A-Z]{3,9}",
        ) {
            let to = (from + to_offset) % 4;
            let (base, secrets) = world();
            let mut one = base.copy();
            let mut two = base.copy();
            press(&mut one, &secrets, from, &format!("press to {}: {a}", SEATS[to].0));
            press(&mut two, &secrets, from, &format!("press to {}: {b}", SEATS[to].0));
            // The receiver saw each text.
            prop_assert!(one.sent_to(SEATS[to].1).iter().any(|m| m.body.contains(&a)));
            for (i, (_, who)) in SEATS.iter().enumerate() {
                if i == from || i == to {
                    continue;
                }
                prop_assert_eq!(one.view(who), two.view(who), "{} sees a difference", who);
            }
        }

        #[test]
        fn anonymous_press_does_not_tell_who_sent_it(
            first in 0usize..4,
            other_offset in 1usize..4,
            text in "[a-z]{4,12}( [a-z]{2,8}){0,4}",
        ) {
            let second = (first + other_offset) % 4;
            let (base, secrets) = world();
            let mut one = base.copy();
            let mut two = base.copy();
            let line = format!("anonymous press to all: {text}");
            press(&mut one, &secrets, first, &line);
            press(&mut two, &secrets, second, &line);
            for (i, (_, who)) in SEATS.iter().enumerate() {
                if i == first || i == second {
                    continue;
                }
                let seen = one.view(who);
                prop_assert!(seen.iter().any(|(_, t)| t.contains(&text)), "{} got the press", who);
                prop_assert_eq!(seen, two.view(who), "{} can tell who sent it", who);
            }
        }
    }
}

/// "the game starts when the seats are full (or when the GM says)": the GM's `start`
/// begins an open game with the seats taken so far, giving up the free ones, if the
/// game can be played by so few; otherwise nothing changes and the GM is told why.
#[test]
fn the_gm_may_start_an_open_game_before_it_is_full() {
    let mut f = Folder::new();
    let dir = f.dir("cove");
    let d = dir.to_str().expect("utf-8").to_string();
    f.judge(&[
        "new",
        &d,
        "--game",
        "catan",
        "--seed",
        "4",
        "--player",
        "Ann:ann@example.org",
        "--player",
        "Bob:bob@example.org",
        "--open",
        "2",
        "--gm",
        "Gina:gm@example.org",
    ]);
    let out = f.judge(&["secret", &d, "--gm"]);
    let gm = crate::support::gm_secret(&out);
    // Two players cannot play Catan: refused, the game still open.
    f.send(
        "Gina <gm@example.org>",
        &format!("game cove\nsecret {gm}\nstart\n"),
    );
    f.pass();
    assert!(!dir.join("turns").exists());
    let told = f.sent_to("gm@example.org");
    assert!(
        told.iter()
            .any(|m| m.body.contains("cannot begin with 2 players")),
        "{told:?}"
    );
    // A third joins (and confirms); the GM starts it: the fourth seat is given up.
    f.send("Cy <cy@example.org>", "join cove as Cy\n");
    f.pass();
    let line = f
        .sent_to("cy@example.org")
        .iter()
        .find_map(|m| {
            m.body
                .lines()
                .map(str::trim)
                .find(|l| l.starts_with("confirm cove "))
                .map(str::to_string)
        })
        .expect("Cy's code");
    f.send("Cy <cy@example.org>", &format!("{line}\n"));
    f.send(
        "Gina <gm@example.org>",
        &format!("game cove\nsecret {gm}\nstart\n"),
    );
    f.pass();
    assert!(dir.join("turns/000").is_dir());
    let a = pbem_judge::archive::Archive::open(&dir).expect("game");
    assert_eq!(a.game.players.len(), 3);
    assert!(a.game.players.iter().all(|p| !p.is_free()));
    for who in ["ann@example.org", "bob@example.org", "cy@example.org"] {
        assert!(
            f.sent_to(who)
                .iter()
                .any(|m| m.subject.contains("the game begins") || m.subject.contains("welcome")),
            "{who}"
        );
    }
    let (code, out, err) = support::judge_text(&["replay", &d], &[("JUDGE_NOW", NOW)]);
    assert_eq!(
        code, 0,
        "turn 0 replays from the seats the game began with: {out}{err}"
    );
}

/// A flood of commands — forged in a player's name or not — costs that address at most
/// `COMMAND_MAILS_PER_HOUR` answers an hour (and the other players as many press
/// mails); the rest are logged, not carried out.
#[test]
fn a_flood_of_commands_is_answered_at_most_so_often_an_hour() {
    let mut f = Folder::new();
    two_rivers(&f, "rivers", &[]);
    let limit = pbem_judge::pbem::intake::COMMAND_MAILS_PER_HOUR;
    for _ in 0..limit + 3 {
        f.send("Ann <ann@example.org>", "status\n");
    }
    let out = f.pass();
    let answers = f
        .sent_to("ann@example.org")
        .iter()
        .filter(|m| m.subject == "[rivers] status")
        .count();
    assert_eq!(answers, limit, "{out}");
    assert_eq!(
        out.matches("not carried out").count(),
        3,
        "the GM sees each one held back: {out}"
    );
}

/// "`judge pause DIR` / `judge resume DIR` (the deadline moves by the pause;
/// players are told)" — the same clock as the GM's `pause` and `resume` by mail.
#[test]
fn judge_pause_and_resume_stop_the_clock_and_move_the_deadline_by_the_pause() {
    let f = Folder::new();
    two_rivers(&f, "rivers", &[]);
    let dir = f.dir("rivers");
    schedule(&dir);
    let d = dir.to_str().expect("utf-8");
    let at = |now: &str, args: &[&str]| {
        let (code, out, err) = support::judge_text(args, &[("JUDGE_NOW", now)]);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        out
    };
    let out = at("2026-11-27T18:00:00Z", &["pause", d]);
    assert!(out.contains("is paused"), "{out}");
    for who in ["ann@example.org", "bob@example.org"] {
        assert!(
            f.sent_to(who)
                .iter()
                .any(|m| m.subject == "[rivers] the GM paused the game")
        );
    }
    // Past the deadline (the 28th): nothing is played while paused.
    let out = at("2026-11-29T18:00:00Z", &["turn", d]);
    assert!(out.contains("the GM paused the game"), "{out}");
    assert!(!dir.join("turns/001").exists());
    let status = at("2026-11-29T18:00:00Z", &["status", d]);
    assert!(
        status.contains("The game waits: the GM paused the game"),
        "{status}"
    );
    // Resumed three days later: the deadline of the 28th moves to 1 December.
    let out = at("2026-11-30T18:00:00Z", &["resume", d]);
    assert!(out.contains("turn 1 is due by"), "{out}");
    let a = pbem_judge::archive::Archive::open(&dir).expect("game");
    assert_eq!(a.game.paused, None);
    assert_eq!(
        a.game
            .schedule
            .expect("schedule")
            .moved
            .get("1")
            .map(String::as_str),
        Some("2026-12-01T18:00:00Z")
    );
    assert!(
        f.sent_to("bob@example.org")
            .iter()
            .any(|m| m.subject == "[rivers] the GM resumed the game"
                && m.body.contains("2026-12-01"))
    );
}

/// "a command never echoes one [a secret]" — proven over random mails of commands, with
/// the sender's secret (and the other player's) put anywhere in them: in a press text,
/// after a command, on a line that does not read. No mail the judge sends and no file of
/// the folder holds a byte-for-byte copy of either secret afterwards.
mod no_secret_echoed {
    use super::*;
    use proptest::prelude::*;

    const LINES: [&str; 12] = [
        "help",
        "status",
        "template",
        "resend",
        "games",
        "press to yellow: SECRET",
        "press to all: the word is SECRET, pass it on",
        "anonymous press to all: SECRET",
        "status SECRET",
        "vacation until SECRET",
        "press to SECRET: hello",
        "grace",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

        #[test]
        fn no_command_answer_or_file_holds_a_secret(
            picks in proptest::collection::vec(0usize..LINES.len(), 1..6),
            whose in 0usize..2,
            with_secret in any::<bool>(),
        ) {
            let mut f = Folder::new();
            let secrets = two_rivers(&f, "rivers", &["--press", "anonymous"]);
            let ann = secret_of(&secrets, "red");
            let bob = secret_of(&secrets, "yellow");
            let leaked = if whose == 0 { &ann } else { &bob };
            let mut body = String::from("game rivers\n");
            if with_secret {
                body.push_str(&format!("secret {ann}\n"));
            }
            for p in &picks {
                body.push_str(&LINES[*p].replace("SECRET", leaked));
                body.push('\n');
            }
            f.send("Ann <ann@example.org>", &body);
            f.pass();
            for m in f.sent() {
                for s in [&ann, &bob] {
                    prop_assert!(!m.subject.contains(s.as_str()) && !m.body.contains(s.as_str()),
                        "a secret in {:?} to {}: {}", m.subject, m.to, m.body);
                }
            }
            for (p, b) in every_file(&f.root) {
                let t = String::from_utf8_lossy(&b);
                prop_assert!(!t.contains(ann.as_str()) && !t.contains(bob.as_str()), "a secret in {}", p.display());
            }
        }
    }
}

/// "The welcome mail and each report name the order guide (a link to the
/// site's copy of docs/orders.md or docs/catan-orders.md) and carry the `template` for
/// the next turn." With the site's address in the folder's [mail], the welcome and the
/// report of turn 1 link `guide.html` on it (the page `judge site` writes); the report
/// ends with the order file for turn 2, Ann's transporters listed, her secret nowhere.
#[test]
fn the_welcome_and_each_report_name_the_order_guide_and_carry_the_template() {
    let mut f = Folder::new();
    let toml = f.root.join("judge.toml");
    let mut text = std::fs::read_to_string(&toml).expect("judge.toml");
    text.push_str("site = \"https://games.example.org/rivers/\"\n");
    std::fs::write(&toml, text).expect("judge.toml");
    two_rivers(&f, "rivers", &[]);
    // The players' secrets, by welcome mail.
    let said = f.judge(&[
        "secret",
        f.dir("rivers").to_str().expect("utf-8"),
        "--mail",
        "--reset",
    ]);
    assert!(said.contains("Welcome mails sent"), "{said}");
    let link = "The order guide: https://games.example.org/rivers/guide.html";
    let welcome = |who: &str| {
        let m = f
            .sent_to(who)
            .into_iter()
            .find(|m| m.body.contains("Welcome to rivers"))
            .unwrap_or_else(|| panic!("{who}'s welcome: {said}: {:?}", f.sent()));
        assert!(m.body.contains(link), "{}", m.body);
        crate::support::welcome_secret(&m.body).unwrap_or_else(|| panic!("{}", m.body))
    };
    let (ann, bob) = (welcome("ann@example.org"), welcome("bob@example.org"));
    for (who, seat, secret) in [
        ("Ann <ann@example.org>", "red", &ann),
        ("Bob <bob@example.org>", "yellow", &bob),
    ] {
        f.send(
            who,
            &format!("game rivers\nplayer {seat}\nturn 1\nsecret {secret}\nmovement\n"),
        );
    }
    f.pass();
    // A game without [schedule] is played by its GM, never by a pass.
    let out = f.judge(&["turn", f.dir("rivers").to_str().expect("utf-8")]);
    assert!(out.contains("Turn 1"), "{out}");
    let report = f
        .sent_to("ann@example.org")
        .into_iter()
        .find(|m| m.subject == "[rivers] turn 1: report")
        .unwrap_or_else(|| panic!("Ann's report: {out}"));
    let b = &report.body;
    let footer = b
        .split("Your order file for turn 2\n")
        .nth(1)
        .unwrap_or_else(|| panic!("{b}"));
    assert!(footer.contains(link), "{footer}");
    // And the page where Ann writes them by pointing at the map (docs/order-writer.md).
    let page = "Or write it on the map: https://games.example.org/rivers/write-red.html.";
    assert!(footer.contains(page), "{footer}");
    // The header lines come just before it, at the end of the report itself.
    assert!(
        b.contains("    game rivers\n    player red\n    turn 2\n    secret YOUR-SECRET\n"),
        "{b}"
    );
    assert!(
        !footer.contains("secret YOUR-SECRET"),
        "said once: {footer}"
    );
    assert!(
        footer.contains("    movement\n") && footer.contains("# move D"),
        "the template lists Ann's transporters: {footer}"
    );
    assert!(
        !b.contains(&ann) && !b.contains(&bob),
        "no secret in the report mail"
    );
    // An older report sent again carries no template: its next orders are past.
    f.clear();
    f.send("Ann <ann@example.org>", "game rivers\nresend turn 0\n");
    f.pass();
    let again = f
        .sent_to("ann@example.org")
        .into_iter()
        .find(|m| m.subject.contains("begins"))
        .unwrap_or_else(|| panic!("turn 0 again: {:?}", f.sent()));
    assert!(!again.body.contains("Your order file"), "{}", again.body);
    // The site has the page the link names.
    let site = f.root.join("site");
    f.judge(&[
        "site",
        f.dir("rivers").to_str().expect("utf-8"),
        "-o",
        site.to_str().expect("utf-8"),
    ]);
    let guide = std::fs::read_to_string(site.join("guide.html")).expect("guide.html");
    assert!(guide.contains("The order language"), "{guide}");
    assert!(
        site.join("write-red.html").is_file(),
        "the writer page the link names"
    );
}
