//! The game's clock through `judge turn` with an injected clock (`JUDGE_NOW`):
//! the weekday mask (`[schedule] skip`). (`pause` and `resume`: tests/judge_core/mail_commands.rs.)

use crate::judge_core::mail_commands::Folder;
use crate::support;

fn turn_at(f: &Folder, now: &str) -> String {
    let d = f.dir("rivers");
    let (code, out, err) =
        support::judge_text(&["turn", d.to_str().expect("utf-8")], &[("JUDGE_NOW", now)]);
    assert_eq!(code, 0, "{out}{err}");
    out
}

/// "deadlines on a weekday mask (`skip = [\"sat\", \"sun\"]`)": with a deadline every day
/// from a Friday and weekends skipped, turn 2's deadline falls on Monday: a run on
/// Saturday evening plays nothing, the report and status say Monday, and Monday's run
/// plays it.
#[test]
fn a_deadline_on_a_skipped_weekday_is_put_off_to_the_next_day() {
    let f = Folder::new();
    let d = f.dir("rivers");
    f.judge(&[
        "new",
        d.to_str().expect("utf-8"),
        "--scenario",
        "two-rivers",
        "--seed",
        "3",
        "--player",
        "Ann:ann@example.org",
        "--player",
        "Bob:bob@example.org",
    ]);
    let mut toml = std::fs::read_to_string(d.join("game.toml")).expect("toml");
    toml.push_str(
        "\n[schedule]\nfirst_deadline = \"2026-12-04T18:00:00Z\"\nevery = \"1day\"\nskip = [\"sat\", \"sun\"]\n",
    );
    std::fs::write(d.join("game.toml"), toml).expect("toml");
    // Friday's deadline passes: turn 1 is played (with no orders).
    let out = turn_at(&f, "2026-12-04T18:00:01Z");
    assert!(d.join("turns/001").is_dir(), "{out}");
    let report = std::fs::read_to_string(d.join("turns/001/report.txt")).expect("report");
    assert!(
        report.contains("2026-12-07"),
        "turn 2 is due on Monday: {report}"
    );
    // Saturday and Sunday evenings: nothing is due.
    for now in ["2026-12-05T18:00:01Z", "2026-12-06T18:00:01Z"] {
        let out = turn_at(&f, now);
        assert!(!d.join("turns/002").exists(), "{now}: {out}");
        assert!(out.contains("2026-12-07"), "{out}");
    }
    // Monday's deadline: played.
    let out = turn_at(&f, "2026-12-07T18:00:01Z");
    assert!(d.join("turns/002").is_dir(), "{out}");
}

/// A two-player game of the folder with a daily deadline from Friday 4 December, the GM
/// Gina, and `[absent]` as given; the players' secrets.
fn absent_game(f: &Folder, absent: &str) -> (String, String) {
    let d = f.dir("rivers");
    f.judge(&[
        "new",
        d.to_str().expect("utf-8"),
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
    ]);
    let mut toml = std::fs::read_to_string(d.join("game.toml")).expect("toml");
    toml.push_str(&format!(
        "\n[schedule]\nfirst_deadline = \"2026-12-04T18:00:00Z\"\nevery = \"1day\"\nremind = \"12h\"\n\n[absent]\n{absent}\n"
    ));
    std::fs::write(d.join("game.toml"), toml).expect("toml");
    let out = f.judge(&["secret", d.to_str().expect("utf-8")]);
    let secret = |seat: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(seat))
            .and_then(|l| l.split("secret ").nth(1))
            .expect("a secret")
            .to_string()
    };
    (secret("red"), secret("yellow"))
}

/// "A grace period after a deadline for a player who asked for it (`grace` by mail),
/// counted against a per-game allowance": the deadline moves `[absent] grace` later for
/// everyone, everyone is told, and a second ask past the allowance is refused.
#[test]
fn grace_by_mail_moves_the_deadline_within_the_allowance() {
    let mut f = Folder::new();
    let (ann, _) = absent_game(&f, "grace = \"12h\"\ngraces = 1");
    let d = f.dir("rivers");
    f.send(
        "Ann <ann@example.org>",
        &format!("game rivers\nsecret {ann}\ngrace\n"),
    );
    f.pass_at("2026-12-03T10:00:00Z");
    let bob = f.sent_to("bob@example.org");
    assert!(
        bob.iter()
            .any(|m| m.body.contains("red asked for grace")
                && m.body.contains("2026-12-05 at 06:00:00")),
        "{bob:?}"
    );
    // Grace without the secret does nothing; a second one is past the allowance.
    f.send("Ann <ann@example.org>", "game rivers\ngrace\n");
    f.send(
        "Ann <ann@example.org>",
        &format!("game rivers\nsecret {ann}\ngrace\n"),
    );
    f.pass_at("2026-12-03T11:00:00Z");
    let said: String = f
        .sent_to("ann@example.org")
        .iter()
        .map(|m| m.body.clone())
        .collect();
    assert!(said.contains("needs your secret"), "{said}");
    assert!(said.contains("you had grace for turn 1 already"), "{said}");
    // The old deadline passes: nothing is played; the new one: played.
    f.pass_at("2026-12-04T18:00:01Z");
    assert!(!d.join("turns/001").exists());
    f.pass_at("2026-12-05T06:00:01Z");
    assert!(d.join("turns/001").is_dir());
    let ledger = std::fs::read_to_string(d.join("absent.toml")).expect("the ledger");
    assert!(
        ledger.contains("seat = \"red\"") && ledger.contains("turn = 1"),
        "{ledger}"
    );
}

/// "A budget of missed turns per player: after it is spent the GM is told, the other
/// players are told the seat is open for a replacement"; "vacations (`vacation until
/// DATE` by mail, within a per-player allowance)": a player on vacation is not reminded
/// and the turns they miss meanwhile are not counted.
#[test]
fn missed_turns_open_the_seat_and_a_vacation_is_not_counted() {
    let mut f = Folder::new();
    let (ann, _) = absent_game(&f, "missed = 2\nvacation = \"3days\"");
    let d = f.dir("rivers");
    // Asking for more vacation than the game allows is refused.
    f.send(
        "Ann <ann@example.org>",
        &format!("game rivers\nsecret {ann}\nvacation until 2026-12-20\n"),
    );
    f.send(
        "Ann <ann@example.org>",
        &format!("game rivers\nsecret {ann}\nvacation until 2026-12-06\n"),
    );
    f.pass_at("2026-12-03T10:00:00Z");
    let said: String = f
        .sent_to("ann@example.org")
        .iter()
        .map(|m| m.body.clone())
        .collect();
    assert!(
        said.contains("more than the vacation you have left"),
        "{said}"
    );
    assert!(
        said.contains("You are on vacation until 2026-12-06"),
        "{said}"
    );
    // Reminders before Friday's deadline: Bob, not Ann.
    f.clear();
    let out = f.pass_at("2026-12-04T08:00:00Z");
    assert!(
        out.contains("reminded yellow") && !out.contains("reminded red"),
        "{out}"
    );
    // Friday and Saturday: nobody sends orders. Bob's two misses spend his budget.
    f.pass_at("2026-12-04T18:00:01Z");
    let out = f.pass_at("2026-12-05T18:00:01Z");
    assert!(d.join("turns/002").is_dir(), "{out}");
    assert!(out.contains("yellow (Bob) has missed 2 turns"), "{out}");
    let record = |t: u32| {
        let text =
            std::fs::read_to_string(d.join(format!("turns/{t:03}/turn.json"))).expect("turn.json");
        serde_json::from_str::<serde_json::Value>(&text).expect("json")["missed"].clone()
    };
    assert_eq!(record(1), serde_json::json!(["yellow"]), "Ann on vacation");
    for who in ["gm@example.org", "ann@example.org", "bob@example.org"] {
        assert!(
            f.sent_to(who)
                .iter()
                .any(|m| m.subject == "[rivers] yellow's seat is open for a replacement"),
            "{who}"
        );
    }
    assert!(
        f.sent_to("gm@example.org")[0]
            .body
            .contains("judge replace")
    );
    // Sunday: Ann is back, and misses; Bob's third miss tells nobody again.
    f.clear();
    let out = f.pass_at("2026-12-06T18:00:01Z");
    assert_eq!(record(3), serde_json::json!(["red", "yellow"]), "{out}");
    assert!(
        f.sent().iter().all(|m| !m.subject.contains("seat is open")),
        "{out}"
    );
    // The archive replays as played.
    let (code, out, err) = crate::support::judge_text(
        &["replay", d.to_str().expect("utf-8")],
        &[("JUDGE_NOW", "2026-12-06T19:00:00Z")],
    );
    assert_eq!(code, 0, "{out}{err}");
}

/// "What runs for a player who sent nothing: their standing orders; else a caretaker bot
/// (if the game allows it); else nothing. Everything a bot plays is written as an
/// ordinary order file in the archive, marked as the caretaker's, checked like a
/// player's, in the report, and replayed byte for byte." A Catan game where nobody
/// mails: at each deadline the caretaker plays for the player the step waits for; the
/// budget of missed turns still counts them (the player was absent), and when it is
/// spent the GM is told. (`judge replace`, which seats a newcomer: tests/judge_core/house.rs.)
#[test]
fn the_caretaker_plays_for_an_absent_catan_player_and_the_archive_replays() {
    let f = Folder::new();
    let d = f.dir("isle");
    let ds = d.to_str().expect("utf-8").to_string();
    f.judge(
        &[
            &["new", &ds, "--game", "catan", "--seed", "6"][..],
            &support::ANN_BOB_CAT,
            &["--gm", "Gina:gm@example.org"],
        ]
        .concat(),
    );
    let mut toml = std::fs::read_to_string(d.join("game.toml")).expect("toml");
    toml.push_str(
        "\n[schedule]\nfirst_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"1day\"\n\n[absent]\ncaretaker = true\nmissed = 2\n",
    );
    std::fs::write(d.join("game.toml"), toml).expect("toml");
    f.judge(&["secret", &ds]);
    // Four founding steps, a day apart, with no mail at all.
    for day in 1..=4 {
        f.pass_at(&format!("2026-12-0{day}T18:00:01Z"));
    }
    assert!(d.join("turns/004").is_dir());
    let mut caretaker_seats = Vec::new();
    for t in 1..=4u32 {
        let rec: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(d.join(format!("turns/{t:03}/turn.json"))).expect("turn.json"),
        )
        .expect("json");
        let orders = rec["orders"].as_object().expect("orders");
        let (seat, source) = orders.iter().next().expect("the caretaker's file");
        assert_eq!(source, "caretaker", "turn {t}: {rec}");
        assert_eq!(rec["missed"], serde_json::json!([seat]), "turn {t}");
        let file = std::fs::read_to_string(d.join(format!("turns/{t:03}/orders/{seat}.txt")))
            .expect("the caretaker's file is kept");
        assert!(file.starts_with("# The caretaker's orders for"), "{file}");
        let report =
            std::fs::read_to_string(d.join(format!("turns/{t:03}/report.txt"))).expect("report");
        assert!(
            report.contains(&format!("The caretaker played for {seat}")),
            "{report}"
        );
        assert!(
            !report.contains("sent no orders: the judge"),
            "the caretaker's founding, not the judge's default: {report}"
        );
        caretaker_seats.push(seat.clone());
    }
    // Whoever missed two steps first spent the budget: the GM was told.
    let gm: Vec<String> = f
        .sent_to("gm@example.org")
        .iter()
        .map(|m| m.subject.clone())
        .collect();
    assert!(
        gm.iter()
            .any(|s| s.contains("seat is open for a replacement")),
        "{gm:?} {caretaker_seats:?}"
    );
    let (code, out, err) =
        support::judge_text(&["replay", &ds], &[("JUDGE_NOW", "2026-12-05T00:00:00Z")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("all identical"), "{out}");
}

/// "Optionally, a short 'who is late' notice to all players when a deadline is near":
/// `[absent] late_notice = "2h"` tells every player, once, two hours before the
/// deadline, whose orders are not in yet — and a player on vacation is said to be.
#[test]
fn a_late_notice_names_whose_orders_are_missing_once() {
    let mut f = Folder::new();
    let (ann, _) = absent_game(&f, "late_notice = \"2h\"\nvacation = \"3days\"");
    f.send(
        "Ann <ann@example.org>",
        &format!("game rivers\nsecret {ann}\nvacation until 2026-12-05\n"),
    );
    f.pass_at("2026-12-04T15:00:00Z");
    assert!(
        f.sent()
            .iter()
            .all(|m| !m.subject.contains("orders not in yet"))
    );
    let out = f.pass_at("2026-12-04T16:30:00Z");
    assert!(
        out.contains("told everyone whose orders are not in: red, yellow"),
        "{out}"
    );
    for who in ["ann@example.org", "bob@example.org"] {
        let late: Vec<_> = f
            .sent_to(who)
            .into_iter()
            .filter(|m| m.subject == "[rivers] turn 1: orders not in yet from red, yellow")
            .collect();
        assert_eq!(late.len(), 1, "{who}");
        assert!(
            late[0].body.contains("red (Ann), on vacation")
                && late[0].body.contains("yellow (Bob)")
        );
    }
    let out = f.pass_at("2026-12-04T17:00:00Z");
    assert!(!out.contains("told everyone"), "once a turn: {out}");
}

/// "`late = \"hold\"` holds nothing under serve. Turn 5 played at
/// its deadline; Ann's turn-5 orders delivered 3 s later were refused `turn 5 is
/// over`, not held for turn 6 as the GM guide says." A pass that runs at the deadline
/// (as `judge serve` does) plays the turn before the late mail comes; the mail is then
/// held for the next turn all the same: filed for it, checked against the new
/// position, and played with it.
#[test]
fn late_orders_for_a_turn_just_played_are_held_for_the_next() {
    let mut f = Folder::new();
    let secrets = crate::judge_core::mail_commands::two_rivers(&f, "rivers", &[]);
    let d = f.dir("rivers");
    let mut toml = std::fs::read_to_string(d.join("game.toml")).expect("toml");
    toml.push_str(
        "\n[schedule]\nfirst_deadline = \"2026-11-28T18:00:00Z\"\nevery = \"2days\"\nlate = \"hold\"\n",
    );
    std::fs::write(d.join("game.toml"), toml).expect("toml");
    let ann = crate::judge_core::mail_commands::secret_of(&secrets, "red");
    // The pass at the deadline plays turn 1; Ann's turn-1 orders come 3 s after it.
    let out = f.pass_at("2026-11-28T18:00:01Z");
    assert!(d.join("turns/001").is_dir(), "{out}");
    f.clear();
    f.send_delivered(
        "Ann <ann@example.org>",
        &format!("game rivers\nplayer red\nturn 1\nsecret {ann}\n# late, but meant\n"),
        "2026-11-28T18:00:04Z",
    );
    let out = f.pass_at("2026-11-28T18:00:05Z");
    let told = f.sent_to("ann@example.org");
    assert_eq!(told.len(), 1, "{out}\n{told:?}");
    assert!(
        told[0].subject.contains("late, held for turn 2"),
        "{out}\n{told:?}"
    );
    assert!(
        !told[0].body.contains("which is over") && told[0].body.contains("turn 2"),
        "{}",
        told[0].body
    );
    let pending = std::fs::read_to_string(d.join("pending/red.txt")).expect("filed for turn 2");
    assert!(
        pending.contains("turn 2") && pending.contains("# late, but meant"),
        "{pending}"
    );
    // A forged copy without the secret holds nothing.
    f.clear();
    f.send_delivered(
        "Ann <ann@example.org>",
        "game rivers\nplayer red\nturn 1\nsecret nope-nope-nope\n# forged\n",
        "2026-11-28T18:01:00Z",
    );
    f.pass_at("2026-11-28T18:01:05Z");
    let pending = std::fs::read_to_string(d.join("pending/red.txt")).expect("still filed");
    assert!(!pending.contains("forged"), "{pending}");
    // Turn 2 plays them as Ann's own.
    f.pass_at("2026-11-30T18:00:01Z");
    let played = std::fs::read_to_string(d.join("turns/002/orders/red.txt")).expect("played");
    assert!(played.contains("# late, but meant"), "{played}");
}

/// "`status` while paused contradicts itself (`The game waits: the
/// GM paused …` then `No deadline is set: the GM runs each turn`)." Paused, it says
/// that no deadline runs until the game is resumed, and how to resume it; never that
/// the GM runs each turn.
#[test]
fn status_while_paused_says_one_thing() {
    let f = Folder::new();
    crate::judge_core::mail_commands::two_rivers(&f, "rivers", &[]);
    let dir = f.dir("rivers");
    crate::judge_core::mail_commands::schedule(&dir);
    let d = dir.to_str().expect("utf-8");
    let at = |now: &str, args: &[&str]| {
        let (code, out, err) = support::judge_text(args, &[("JUDGE_NOW", now)]);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        out
    };
    at("2026-11-27T18:00:00Z", &["pause", d]);
    let status = at("2026-11-27T19:00:00Z", &["status", d]);
    assert!(
        status.contains("The game waits: the GM paused the game"),
        "{status}"
    );
    assert!(
        !status.contains("No deadline is set") && !status.contains("the GM runs each turn"),
        "{status}"
    );
    assert!(
        status.contains("No deadline runs while the game is paused")
            && status.contains("judge resume"),
        "{status}"
    );
    // Resumed, the deadline is back.
    at("2026-11-27T20:00:00Z", &["resume", d]);
    let status = at("2026-11-27T21:00:00Z", &["status", d]);
    assert!(status.contains("Deadline for turn 1:"), "{status}");
    assert!(!status.contains("waits"), "{status}");
}

/// "`judge deadline` (and `judge mail`) count the whole outbox after
/// sending, including mail another process queued meanwhile: `error: 3 mails are still
/// in the outbox` though all arrived." Another process (as `judge serve` would) queues
/// mail into the game's outbox while `judge mail` sends 300: every mail this run tried
/// went, so it exits 0, and the mail queued meanwhile waits for the next run.
#[test]
fn a_run_counts_only_the_mail_it_tried_to_send() {
    let f = Folder::new();
    crate::judge_core::mail_commands::two_rivers(&f, "rivers", &[]);
    let dir = f.dir("rivers");
    let d = dir.to_str().expect("utf-8");
    let archive = pbem_judge::archive::Archive::open(&dir).expect("game");
    let mail = |key: String| pbem_judge::mail::outbox::Outgoing {
        key,
        to_name: "Ann".into(),
        to: "ann@example.org".into(),
        subject: "[rivers] a note".into(),
        body: "A note.\n".into(),
        in_reply_to: None,
        attachment: None,
    };
    for i in 0..300 {
        pbem_judge::mail::outbox::queue(&archive, &mail(format!("note-{i:03}"))).expect("queued");
    }
    f.clear();
    // Mail queued by another process while this run sends: as soon as the first of
    // the 300 is delivered.
    let pickup = f.pickup().to_path_buf();
    let other = std::thread::spawn(move || {
        let start = std::time::Instant::now();
        while std::fs::read_dir(&pickup).map_or(0, |d| d.count()) == 0 {
            assert!(start.elapsed() < std::time::Duration::from_secs(60));
            std::thread::yield_now();
        }
        for i in 0..3 {
            pbem_judge::mail::outbox::queue(&archive, &mail(format!("meanwhile-{i}")))
                .expect("queued");
        }
        // How many had gone then: fewer than all, or the run was over already.
        std::fs::read_dir(&pickup).map_or(0, |d| d.count())
    });
    let (code, out, err) =
        support::judge_text(&["mail", d], &[("JUDGE_NOW", "2026-11-27T18:00:00Z")]);
    let gone_then = other.join().expect("the other process");
    assert!(
        gone_then < 300,
        "queued while the run sent ({gone_then} gone)"
    );
    let left =
        pbem_judge::mail::outbox::waiting(&pbem_judge::archive::Archive::open(&dir).expect("game"));
    assert_eq!(f.sent().len(), 300, "{out}{err}");
    assert!(
        left.iter().all(|k| k.starts_with("meanwhile-")),
        "only the mail queued meanwhile waits: {left:?}"
    );
    assert_eq!(code, 0, "every mail this run tried went: {out}{err}");
}
