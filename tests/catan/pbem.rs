//! A Catan game played by real mail through the servers
//! (tests/mail/servers.sh), by a cron-like loop with an injected clock (`JUDGE_NOW`), as
//! tests/judge_core/pbem_loop.rs does for Roads & Boats. Catan is played one player at a time: the
//! awaited player's orders are answered at once and their step is played by the next
//! `judge turn --commit`, days before the deadline; the next player's report says the
//! move is theirs; a step whose player stays silent is played at its deadline with the
//! default; and at the end no secret is anywhere but in the welcome mails.
//!
//! A file with an error is not played until its owner sends a corrected one
//! (or writes `as is`); a player is mailed when their orders are wanted, with a digest
//! of what happened since, unless they ask for every step.

use crate::support;

use std::path::PathBuf;

use crate::support::servers::Servers;

const GAME: &str = "isle";

struct Game {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    srv: Servers,
}

impl Game {
    fn d(&self) -> &str {
        self.dir.to_str().expect("utf-8")
    }

    fn judge(&self, args: &[&str], now: &str) -> (i32, String, String) {
        support::judge_text(
            args,
            &[
                ("JUDGE_NOW", now),
                ("GIT_AUTHOR_NAME", "GM"),
                ("GIT_AUTHOR_EMAIL", "gm@example.org"),
                ("GIT_COMMITTER_NAME", "GM"),
                ("GIT_COMMITTER_EMAIL", "gm@example.org"),
            ],
        )
    }

    /// What cron runs, at `now`: it must never fail.
    fn cron(&self, now: &str) -> String {
        let (code, out, err) = self.judge(&["turn", self.d(), "--commit"], now);
        assert_eq!(code, 0, "cron at {now}: {out}{err}");
        out
    }

    fn subjects_to(&self, who: &str) -> Vec<String> {
        self.srv.sent_to(who).into_iter().map(|m| m.0).collect()
    }

    /// The body of the one mail to `who` with this subject.
    fn mail(&self, who: &str, subject: &str) -> String {
        let found: Vec<String> = self
            .srv
            .sent_to(who)
            .into_iter()
            .filter(|m| m.0 == subject)
            .map(|m| m.1)
            .collect();
        assert_eq!(
            found.len(),
            1,
            "one mail `{subject}` to {who}: {:?}",
            self.subjects_to(who)
        );
        found[0].clone()
    }
}

fn orders(player: &str, secret: &str, turn: u32, body: &str) -> String {
    format!("game {GAME}\nplayer {player}\nturn {turn}\nsecret {secret}\n{body}")
}

#[test]
fn catan_steps_by_mail_are_played_as_soon_as_the_awaited_orders_arrive() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join(GAME);
    let g = Game {
        _tmp: tmp,
        dir,
        srv: Servers::start(),
    };
    let d = g.d().to_string();
    // The GM makes a three-player game on the beginner board (from a number, so that
    // blue begins: the snake is blue, white, red, red, white, blue), sets up mail and the
    // schedule.
    let seed = (0u64..)
        .find(|n| {
            pbem_judge::luck::Luck::predictable(*n)
                .draws(pbem_judge::catan::rng::FIRST, 0)
                .below(3)
                == 1
        })
        .expect("a seed where blue begins")
        .to_string();
    let (code, out, err) = g.judge(
        &[
            "new",
            &d,
            "--game",
            "catan",
            "--scenario",
            "beginner",
            "--seed",
            &seed,
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Bob:bob@example.org",
            "--player",
            "Cy:cy@example.org",
        ],
        "2026-11-27T12:00:00Z",
    );
    assert_eq!(code, 0, "{out}{err}");
    let toml = g.dir.join("game.toml");
    let mut text = std::fs::read_to_string(&toml).expect("game.toml");
    text.push_str(&g.srv.mail_toml());
    text.push_str("\n[schedule]\nfirst_deadline = \"2026-11-29T18:00:00Z\"\nevery = \"2days\"\nremind = \"12h\"\n");
    std::fs::write(&toml, text).expect("write");
    for args in [
        vec!["init", "-q"],
        vec!["add", "-A"],
        vec![
            "-c",
            "user.name=GM",
            "-c",
            "user.email=gm@example.org",
            "commit",
            "-q",
            "-m",
            "isle: turn 0",
        ],
    ] {
        let ok = std::process::Command::new("git")
            .arg("-C")
            .arg(&g.dir)
            .args(&args)
            .status()
            .expect("git");
        assert!(ok.success(), "git {args:?}");
    }

    // Welcome mails: each player's secret, the lines to start orders with, the board.
    let (code, out, err) = g.judge(&["secret", &d, "--mail"], "2026-11-28T00:00:00Z");
    assert_eq!(code, 0, "{out}{err}");
    let secret_of = |who: &str, colour: &str| -> String {
        let body = g.mail(who, &format!("[{GAME}] welcome: you play {colour}"));
        assert!(body.contains("a game of Catan played by mail"), "{body}");
        assert!(body.contains("CATAN  --  isle  --  turn 0"), "{body}");
        // Only blue's welcome says blue's orders are wanted; the others' say whose turn
        // it is, not whether the judge holds blue's orders.
        assert_eq!(
            body.contains("Your orders are wanted (turn 1)"),
            colour == "blue",
            "{body}"
        );
        assert!(!body.contains("Orders wanted from"), "{body}");
        // A game made from a number says its dice are predictable.
        assert!(body.contains("anyone who knows it can tell them"), "{body}");
        // One player at a time: orders wait on record for their own turn, so the lines
        // to start with have no `turn` line, and the mail says when orders count.
        let start = body
            .split("Every mail is answered")
            .next()
            .unwrap_or_default();
        assert!(!start.contains("\n    turn "), "{start}");
        assert!(
            body.contains("wait on record until your turn comes"),
            "{body}"
        );
        crate::support::welcome_secret(&body).expect("the secret line")
    };
    let red = secret_of("ann@example.org", "red");
    let blue = secret_of("bob@example.org", "blue");
    let white = secret_of("cy@example.org", "white");
    let secrets = [red.clone(), blue.clone(), white.clone()];

    // Nothing to play before blue's orders come: the run says whom it waits for.
    let out = g.cron("2026-11-28T09:00:00Z");
    assert!(
        out.contains("Nothing to play yet: turn 1 is due 2026-11-29 at 18:00:00 UTC"),
        "{out}"
    );

    // Step 1: blue mails the founding placement (and asks for every step's report);
    // the next cron answers it and plays the step at once, three days before the
    // deadline.
    g.srv.send_at(
        "Bob <bob@example.org>",
        "founding",
        &orders(
            "blue",
            &blue,
            1,
            "founding\nsettlement 24 road 19-24\nsettlement 38 road 33-38\nmail every step\nmail no picture\n",
        ),
        "2026-11-28T10:00:00Z",
    );
    let out = g.cron("2026-11-28T10:05:00Z");
    assert!(
        out.contains("accepted: blue's orders for turn 1 (0 errors, 0 warnings)"),
        "{out}"
    );
    assert!(out.contains("Turn 1 played: "), "{out}");
    assert!(out.contains("Next: white."), "{out}");
    assert!(!out.contains("Turn 2 played"), "{out}");
    assert!(
        g.subjects_to("bob@example.org")
            .contains(&format!("[{GAME}] turn 1: filed, no errors")),
        "blue's orders are answered: {:?}",
        g.subjects_to("bob@example.org")
    );
    let answer = g.mail(
        "bob@example.org",
        &format!("[{GAME}] turn 1: filed, no errors"),
    );
    assert!(
        answer.contains("From now on the judge mails you every report, without the map picture"),
        "{answer}"
    );
    // White hears at once that the move is theirs; red, who did not ask for every step,
    // gets nothing yet; blue, who did, gets the report.
    let report = g.mail(
        "cy@example.org",
        &format!("[{GAME}] turn 1: report; your move next"),
    );
    assert!(
        report.contains("blue founded a settlement at 24"),
        "{report}"
    );
    assert!(
        report.contains("Your orders are wanted (turn 2)"),
        "{report}"
    );
    assert!(
        report.contains("Next: turn 2 is due by 2026-11-30 at 10:05:00 UTC: your orders, please"),
        "the next deadline counts from the step played: {report}"
    );
    assert!(
        report.contains("player white\n    turn 2\n    secret YOUR-SECRET"),
        "{report}"
    );
    assert!(
        !g.subjects_to("ann@example.org")
            .iter()
            .any(|s| s.contains("turn 1: report")),
        "red is mailed only when her orders are wanted: {:?}",
        g.subjects_to("ann@example.org")
    );
    let blues = g.mail("bob@example.org", &format!("[{GAME}] turn 1: report"));
    assert!(blues.contains("Next: turn 2 is due by"), "{blues}");
    assert!(!blues.contains("your orders, please"), "{blues}");
    for (subject, _, attachments) in g.srv.sent_to("bob@example.org") {
        if subject.contains("report") {
            assert_eq!(attachments, 0, "blue asked for no picture: {subject}");
        }
    }
    for (_, _, attachments) in g.srv.sent_to("cy@example.org") {
        assert_eq!(attachments, 1, "every report and welcome carries the map");
    }

    // Step 2: white's mail has a misspelt order; the answer says so at once, and
    // nothing of the file is played: it waits for a corrected one.
    g.srv.send_at(
        "Cy <cy@example.org>",
        "my placement",
        &orders(
            "white",
            &white,
            2,
            "founding\nsettlement 40 road 40-45\nsettlment 42 road 42-47\n",
        ),
        "2026-11-28T11:00:00Z",
    );
    let out = g.cron("2026-11-28T11:05:00Z");
    assert!(
        out.contains("accepted: white's orders for turn 2 (1 error, 0 warnings)"),
        "{out}"
    );
    assert!(!out.contains("Turn 2 played"), "{out}");
    assert!(
        out.contains("white's orders have errors: they wait for a corrected file"),
        "{out}"
    );
    let answer = g.mail(
        "cy@example.org",
        &format!("[{GAME}] turn 2: filed, 1 error"),
    );
    assert!(answer.contains("settlment 42"), "{answer}");
    assert!(
        answer.contains("these orders wait for a corrected file")
            && answer.contains("a line `as is`"),
        "{answer}"
    );
    assert!(!g.dir.join("turns/002").exists(), "nothing played from it");
    // The corrected file comes: played at once.
    g.srv.send_at(
        "Cy <cy@example.org>",
        "my placement, corrected",
        &orders(
            "white",
            &white,
            2,
            "founding\nsettlement 40 road 40-45\nsettlement 42 road 42-47\n",
        ),
        "2026-11-28T11:30:00Z",
    );
    let out = g.cron("2026-11-28T11:35:00Z");
    assert!(
        out.contains("accepted: white's orders for turn 2, replacing earlier ones (0 errors"),
        "{out}"
    );
    assert!(out.contains("Turn 2 played: "), "{out}");
    assert!(out.contains("Next: red."), "{out}");
    // Red's first mail since the welcome: her move, with what happened since.
    let report = g.mail(
        "ann@example.org",
        &format!("[{GAME}] turn 2: report; your move next"),
    );
    assert!(
        report.contains("What happened since your last report (turns 1 to 1)"),
        "{report}"
    );
    assert!(
        report.contains("blue founded a settlement at 24"),
        "the digest: {report}"
    );
    assert!(
        report.contains("white founded a settlement at 40"),
        "{report}"
    );
    assert!(
        report.contains("Your orders are wanted (turn 3)"),
        "{report}"
    );

    // Red stays silent: the step waits for the deadline (two days after step 2), then
    // the judge places for her by the documented default.
    let out = g.cron("2026-11-30T11:30:00Z");
    assert!(
        out.contains("Nothing to play yet: turn 3 is due 2026-11-30 at 11:35:00 UTC"),
        "{out}"
    );
    // Twelve hours before it only she, whom the step waits for, was reminded.
    assert!(out.contains("reminded red"), "{out}");
    assert!(
        !out.contains("reminded blue") && !out.contains("reminded white"),
        "{out}"
    );
    let reminder = g.mail(
        "ann@example.org",
        &format!("[{GAME}] turn 3: no orders from you yet"),
    );
    assert!(
        reminder.contains("2026-11-30 at 11:35:00 UTC"),
        "{reminder}"
    );
    let out = g.cron("2026-11-30T11:36:00Z");
    assert!(out.contains("Turn 3 played: "), "{out}");
    let events = std::fs::read_to_string(g.dir.join("turns/003/events.json")).expect("events");
    assert!(
        events.contains("the judge founded a settlement at"),
        "{events}"
    );
    // Her second placement is hers again: the report tells her so.
    let report = g.mail(
        "ann@example.org",
        &format!("[{GAME}] turn 3: report; your move next"),
    );
    assert!(
        report.contains("Your orders are wanted (turn 4)"),
        "{report}"
    );
    // Step 4: red's file has an error, and a line `as is`: played at once, without the
    // line in error.
    g.srv.send_at(
        "Ann <ann@example.org>",
        "second placement",
        &orders(
            "red",
            &red,
            4,
            "as is\nfounding\nsettlment 99\nsettlement 11 road 11-16\n",
        ),
        "2026-11-30T12:00:00Z",
    );
    let out = g.cron("2026-11-30T12:05:00Z");
    assert!(
        out.contains("accepted: red's orders for turn 4 (1 error, 0 warnings)"),
        "{out}"
    );
    assert!(out.contains("Turn 4 played: "), "{out}");
    let answer = g.mail(
        "ann@example.org",
        &format!("[{GAME}] turn 4: filed, 1 error"),
    );
    assert!(!answer.contains("wait for a corrected file"), "{answer}");
    let events = std::fs::read_to_string(g.dir.join("turns/004/events.json")).expect("events");
    assert!(events.contains("\"founded\""), "{events}");

    let (code, out, err) = g.judge(&["replay", &d], "2026-11-30T13:00:00Z");
    assert_eq!(code, 0, "{out}{err}");
    // White's and blue's second placements were on record in their first files: steps 5
    // and 6 were played at once after red's, and blue's first turn is next.
    assert!(
        out.contains("turn 0 and 6 turns replayed, all identical"),
        "{out}"
    );
    let (_, status, _) = g.judge(&["status", &d], "2026-11-30T13:00:00Z");
    assert!(status.contains("turn 7 waits for blue"), "{status}");

    // Git kept every step's public record, and never a pending order, a mail, or
    // anything that shows a hand, the deck or the dice to come (Game::private_files).
    let log = std::process::Command::new("git")
        .arg("-C")
        .arg(&g.dir)
        .args(["log", "--all", "--name-only", "--format=%s"])
        .output()
        .expect("git log");
    let log = String::from_utf8_lossy(&log.stdout);
    for t in 1..=6 {
        assert!(log.contains(&format!("turns/{t:03}/report.txt")), "{log}");
    }
    for private in [
        "pending/",
        "mail/",
        "sent/",
        "state.json",
        "events.json",
        "/reports/",
        "/orders/",
        "randomness.key",
    ] {
        assert!(!log.contains(private), "{private} in git:\n{log}");
    }

    // No secret anywhere: the game folder, its git objects, and every mail the judge
    // sent but the welcomes.
    let mut places: Vec<(String, String)> = support::all_files(&g.dir)
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == ".git"))
        .map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).expect("read")).into_owned();
            (p.display().to_string(), text)
        })
        .collect();
    places.push(("git objects".into(), support::git_objects(&g.dir)));
    for (name, raw) in g.srv.delivered_raw() {
        let m = mail_parser::MessageParser::default()
            .parse(&raw)
            .expect("mail");
        let from = m
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or("");
        if from != "judge@example.org" || m.subject().unwrap_or("").contains("welcome") {
            continue;
        }
        let decoded = m.body_text(0).unwrap_or_default().into_owned();
        places.push((
            format!("sent mail {name}"),
            format!("{}{decoded}", String::from_utf8_lossy(&raw)),
        ));
    }
    assert!(places.len() > 30, "{}", places.len());
    for (place, text) in &places {
        for s in &secrets {
            assert!(!text.contains(s.as_str()), "a secret in {place}");
        }
    }
}
