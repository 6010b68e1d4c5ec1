//! "The club": who sits in a seat, who wrote
//! the orders played for it, and what the judge tells a player of it. Each test drives
//! the real `judge` over a folder of games whose shared mailbox is a Maildir and whose
//! mail goes to a pickup folder (tests/judge_core/mail_commands.rs), reads every mail it sent as a
//! mail program shows it, and failed on the judge before its fix.

use crate::judge_core::mail_commands::{Folder, schedule, secret_of, two_rivers};

/// The text of `judge report DIR --turn N`, for everyone, in `format`.
fn report(f: &Folder, game: &str, turn: u32, format: &str) -> String {
    let d = f.dir(game);
    f.judge(&[
        "report",
        d.to_str().expect("utf-8"),
        "--turn",
        &turn.to_string(),
        "--format",
        format,
    ])
}

/// "after `judge replace … --by Kim:…`, `judge status`, the `status`
/// mail to Kim herself, the reports' move order and standings and the map legend still
/// say" the old player's name. From the replacement on, the new name is used
/// everywhere; the turns played before it keep their reports as they were, and the
/// whole game still replays byte for byte.
#[test]
fn a_replacement_is_named_from_the_replacement_on() {
    let mut f = Folder::new();
    let _ = two_rivers(&f, "rivers", &[]);
    let dir = f.dir("rivers");
    let d = dir.to_str().expect("utf-8");
    f.judge(&["turn", d, "--force"]);
    let turn_1 = std::fs::read(dir.join("turns/001/report.txt")).expect("turn 1");
    let svg_1 = report(&f, "rivers", 1, "svg");
    assert!(svg_1.contains("Bob"), "the legend names Bob at first");
    f.judge(&["replace", d, "yellow", "--by", "Kim:kim@example.org"]);
    // The GM's status.
    let status = f.judge(&["status", d]);
    assert!(status.contains("yellow  Kim"), "{status}");
    assert!(!status.contains("Bob"), "{status}");
    // Kim's own status by mail (a command that only answers needs no secret).
    f.clear();
    f.send("Kim <kim@example.org>", "game rivers\nstatus\n");
    f.pass();
    let answers = f.sent_to("kim@example.org");
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!(
        answers[0].body.contains("yellow  Kim"),
        "{}",
        answers[0].body
    );
    assert!(!answers[0].body.contains("Bob"), "{}", answers[0].body);
    // The next turn's reports, for everyone and for Kim, and its map.
    f.clear();
    f.judge(&["turn", d, "--force"]);
    let text = std::fs::read_to_string(dir.join("turns/002/report.txt")).expect("turn 2");
    let move_order = text
        .lines()
        .find(|l| l.trim_start().starts_with("2. yellow"))
        .unwrap_or_default();
    assert_eq!(move_order.split_whitespace().last(), Some("Kim"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains("| yellow |") && l.contains("Kim")),
        "standings: {text}"
    );
    // Bob is named once: in the notice that Kim took his place.
    assert_eq!(text.matches("Bob").count(), 1, "{text}");
    assert!(text.contains("in place of Bob"), "{text}");
    let svg = report(&f, "rivers", 2, "svg");
    assert!(
        svg.contains("Kim") && !svg.contains("Bob"),
        "the map's legend"
    );
    let mailed = f.sent_to("kim@example.org");
    let kims = mailed
        .iter()
        .find(|m| m.subject.contains("turn 2"))
        .expect("Kim's report of turn 2");
    assert_eq!(kims.body.matches("Bob").count(), 1, "{}", kims.body);
    assert!(f.judge(&["status", d]).contains("yellow  Kim"));
    // The turn before stays as it was.
    assert_eq!(
        std::fs::read(dir.join("turns/001/report.txt")).expect("turn 1"),
        turn_1
    );
    assert_eq!(report(&f, "rivers", 1, "svg"), svg_1);
    // And every turn replays byte for byte, the renaming with it.
    f.judge(&["turn", d, "--force"]);
    let replay = f.judge(&["replay", d]);
    assert!(!replay.contains("differ"), "{replay}");
    let state_3 = std::fs::read_to_string(dir.join("turns/003/state.json")).expect("state");
    assert!(state_3.contains("\"Kim\"") && !state_3.contains("\"Bob\""));
}

/// A three-player Catan game `isle` (seed 5: white, red, blue; Cy plays white), its
/// secrets.
fn isle(f: &Folder) -> Vec<(String, String)> {
    f.game(
        "isle",
        &[
            "--game",
            "catan",
            "--seed",
            "5",
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Bob:bob@example.org",
            "--player",
            "Cy:cy@example.org",
            "--gm",
            "Gina:gm@example.org",
        ],
    )
}

/// In Catan: the seat's new player is named in the status, the next
/// step's report and its state; the steps before keep the old name; replay agrees.
#[test]
fn a_catan_replacement_is_named_from_the_next_step_on() {
    let f = Folder::new();
    let _ = isle(&f);
    let dir = f.dir("isle");
    let d = dir.to_str().expect("utf-8");
    f.judge(&["turn", d, "--force"]);
    let step_1 = std::fs::read(dir.join("turns/001/report.txt")).expect("step 1");
    f.judge(&["replace", d, "blue", "--by", "Kim:kim@example.org"]);
    let status = f.judge(&["status", d]);
    assert!(
        status.contains("Kim") && !status.contains("Bob"),
        "{status}"
    );
    f.judge(&["turn", d, "--force"]);
    let text = std::fs::read_to_string(dir.join("turns/002/report.txt")).expect("step 2");
    assert_eq!(text.matches("Bob").count(), 1, "only the notice: {text}");
    assert!(text.contains("Kim"), "{text}");
    assert_eq!(
        std::fs::read(dir.join("turns/001/report.txt")).expect("step 1"),
        step_1
    );
    let replay = f.judge(&["replay", d]);
    assert!(!replay.contains("differ"), "{replay}");
}

/// The section of a report headed `title` (`II. Your orders`), up to the next heading
/// (a line over a rule of `=`).
fn section(text: &str, title: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines.iter().position(|l| *l == title) else {
        return String::new();
    };
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate().skip(start + 2) {
        if lines.get(i + 1).is_some_and(|n| n.starts_with("===")) {
            break;
        }
        out.push(*l);
    }
    out.join("\n")
}

/// "a silent player's report lists the caretaker's lines under
/// 'II. Your orders'" as if they were the player's own. Now the report says plainly that
/// the caretaker wrote them: in the player's own section, and wherever the public report
/// shows that seat's orders.
#[test]
fn the_caretakers_orders_are_said_to_be_the_caretakers() {
    let f = Folder::new();
    let _ = two_rivers(&f, "rivers", &[]);
    let dir = f.dir("rivers");
    let d = dir.to_str().expect("utf-8");
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str("\n[absent]\ncaretaker = true\n");
    std::fs::write(dir.join("game.toml"), toml).expect("toml");
    let played = f.judge(&["turn", d, "--force"]);
    assert!(
        played.contains("the caretaker played for yellow"),
        "{played}"
    );
    let bob = f.judge(&["report", d, "--turn", "1", "--player", "yellow"]);
    let own = section(&bob, "II. Your orders");
    assert!(
        own.contains("line "),
        "the caretaker's lines are listed: {bob}"
    );
    let said = own
        .find("the caretaker wrote them")
        .expect("the section says whose lines they are");
    assert!(said < own.find("line ").unwrap_or(0), "{own}");
    assert!(!own.contains("received no orders"), "{own}");
    // The public report: each phase's lines of a seat the caretaker played say so.
    let public = report(&f, "rivers", 1, "text");
    for seat in ["red", "yellow"] {
        assert!(
            !public.contains(&format!("\n  {seat}:\n")),
            "{seat}'s lines in a phase, unmarked: {public}"
        );
    }
    assert!(
        public.contains("  yellow (the caretaker's orders):\n"),
        "{public}"
    );
    assert!(
        public.contains("The caretaker wrote the orders of red, yellow: they sent none."),
        "{public}"
    );
    // The report mailed to Bob is his own report.
    let mailed = f.sent_to("bob@example.org");
    let m = mailed
        .iter()
        .find(|m| m.subject.contains("turn 1"))
        .expect("Bob's report");
    assert!(section(&m.body, "II. Your orders").contains("the caretaker wrote them"));
}

/// "a replaced player's mail gets silence". Now the first mail from
/// their address after the replacement is answered, once, that their seat has another
/// player; nothing of it is filed. Every door: a flood forged from the address (30
/// mails, one of 10,000 `status` lines) costs the old player no more mail; the answer
/// quotes nothing of the mail and names neither the newcomer nor their address; and the
/// newcomer is told nothing.
#[test]
fn a_replaced_player_is_told_once_that_the_seat_has_another_player() {
    let mut f = Folder::new();
    let secrets = two_rivers(&f, "rivers", &[]);
    let bob = secret_of(&secrets, "yellow");
    let dir = f.dir("rivers");
    let d = dir.to_str().expect("utf-8");
    f.judge(&["replace", d, "yellow", "--by", "Kim:kim@example.org"]);
    f.clear();
    // Bob, not yet aware, mails his orders with his old secret.
    f.send(
        "Bob <bob@example.org>",
        &format!(
            "game rivers\nplayer yellow\nturn 1\nsecret {bob}\nmovement\n# BUY CHEAP WATCHES\n"
        ),
    );
    f.pass();
    let told = f.sent_to("bob@example.org");
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(
        told[0].subject,
        "[rivers] your seat, yellow, now has another player"
    );
    let body = &told[0].body;
    assert!(
        body.contains("gave your seat, yellow, to another player from turn 1 on"),
        "{body}"
    );
    assert!(body.contains("nothing of your mail was filed"), "{body}");
    for absent in ["Kim", "kim@", "WATCHES", &bob] {
        assert!(
            !body.contains(absent),
            "the answer holds `{absent}`: {body}"
        );
    }
    assert!(!dir.join("pending/yellow.txt").exists(), "nothing filed");
    // A flood forged from Bob's address: commands, orders, a mail of 10,000 lines.
    for n in 0..30 {
        f.send(
            "Bob <bob@example.org>",
            &format!("game rivers\nstatus\nhelp\n# forged {n}\n"),
        );
    }
    f.send(
        "Bob <bob@example.org>",
        &"game rivers\nstatus\n".repeat(10_000),
    );
    f.pass();
    assert_eq!(
        f.sent_to("bob@example.org").len(),
        1,
        "still the one answer"
    );
    assert!(
        f.sent_to("kim@example.org").is_empty(),
        "Kim is told nothing"
    );
    assert!(!dir.join("pending/yellow.txt").exists());
    // The GM sees every one of them in the log.
    let log = std::fs::read_to_string(dir.join("mail/log.jsonl")).expect("log");
    assert_eq!(
        log.matches("who played yellow until the seat was given to another player")
            .count(),
        32,
        "{log}"
    );
}

/// In a folder of games: a replaced player's mail that names no game
/// (a reply to the last report, or a bare note) was routed as a stranger's and met
/// silence. Now it goes to the game they played in, which tells them once; a flood of
/// such mail still makes that one answer, and nothing is filed.
#[test]
fn a_replaced_players_mail_with_no_game_line_is_answered_once() {
    let mut f = Folder::new();
    let _ = two_rivers(&f, "rivers", &[]);
    let dir = f.dir("rivers");
    let d = dir.to_str().expect("utf-8");
    f.judge(&["replace", d, "yellow", "--by", "Kim:kim@example.org"]);
    f.clear();
    f.send_subject(
        "Bob <bob@example.org>",
        "Re: [rivers] turn 1: report",
        "movement\nmove D4: E4\n",
    );
    for n in 0..20 {
        f.send("Bob <bob@example.org>", &format!("status\n# {n}\n"));
    }
    f.pass();
    let told = f.sent_to("bob@example.org");
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(
        told[0].subject,
        "[rivers] your seat, yellow, now has another player"
    );
    assert!(
        f.sent_to("kim@example.org").is_empty(),
        "Kim is told nothing"
    );
    assert!(!dir.join("pending/yellow.txt").exists(), "nothing filed");
}

/// Standing orders, vacation and the late notice. Before: the late
/// notice named Bob as missing though his standing orders would be played (and he was
/// on vacation); with `early = true` a turn whose missing players were all covered by
/// standing orders waited for its deadline and nothing said why; and the answer to a
/// file with `standing` did not say the orders stand. Now: the answer says they stand;
/// the late notice names only players whose orders are missing; the early turn that
/// waits for a player with standing orders (who may still send new ones) says so, to
/// the GM and in `status`; and once that player is on vacation it is played early.
#[test]
fn standing_orders_are_not_missing_and_an_early_turn_says_why_it_waits() {
    let mut f = Folder::new();
    let secrets = two_rivers(&f, "rivers", &[]);
    let (ann, bob) = (secret_of(&secrets, "red"), secret_of(&secrets, "yellow"));
    let dir = f.dir("rivers");
    let d = dir.to_str().expect("utf-8");
    schedule(&dir);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str(
        "early = true\nremind = \"2h\"\n\n[absent]\nvacation = \"14days\"\nlate_notice = \"2h\"\n",
    );
    std::fs::write(dir.join("game.toml"), toml).expect("toml");
    let orders = |seat: &str, secret: &str, turn: u32, extra: &str| {
        format!("game rivers\nplayer {seat}\nturn {turn}\nsecret {secret}\n{extra}")
    };
    // Turn 1: Bob's orders stand; both are in, and the turn is played early.
    f.send(
        "Bob <bob@example.org>",
        &orders("yellow", &bob, 1, "standing\n"),
    );
    f.send("Ann <ann@example.org>", &orders("red", &ann, 1, ""));
    f.pass();
    assert!(dir.join("turns/001").is_dir(), "turn 1 played early");
    let filed = f.sent_to("bob@example.org");
    let answer = filed
        .iter()
        .find(|m| m.subject.contains("filed"))
        .expect("Bob's orders are answered");
    assert!(
        answer.body.contains("These orders stand (the line `standing`): once played for turn 1, they are played again each turn you send no orders"),
        "{}",
        answer.body
    );
    let ann_filed = f
        .sent_to("ann@example.org")
        .into_iter()
        .find(|m| m.subject.contains("filed"))
        .expect("Ann's orders are answered");
    assert!(!ann_filed.body.contains("stand"), "{}", ann_filed.body);
    // Turn 2: Ann's orders are in; Bob sends none, his standing orders will be played.
    f.judge(&["deadline", d, "--at", "2026-11-27T12:00:00Z"]);
    f.clear();
    f.send("Ann <ann@example.org>", &orders("red", &ann, 2, ""));
    f.send("Ann <ann@example.org>", "game rivers\nstatus\n");
    let out = f.pass();
    assert!(!dir.join("turns/002").exists(), "turn 2 waits: {out}");
    let why = "turn 2 waits for its deadline: yellow has standing orders, played then unless new orders come first";
    assert!(out.contains(why), "the GM is told why: {out}");
    let status = f.judge(&["status", d]);
    assert!(status.contains(&format!("T{}", &why[1..])), "{status}");
    let ann_status = f
        .sent_to("ann@example.org")
        .into_iter()
        .find(|m| m.body.contains("Whose orders are in"))
        .expect("Ann's status");
    assert!(
        ann_status.body.contains(&format!("T{}", &why[1..])),
        "{}",
        ann_status.body
    );
    // An hour before the deadline, within `late_notice`: nobody's orders are missing.
    f.clear();
    let out = f.pass_at("2026-11-27T11:00:00Z");
    assert!(
        !f.sent()
            .iter()
            .any(|m| m.subject.contains("orders not in yet")),
        "no late notice names yellow: {:?} {out}",
        f.sent()
    );
    // Bob's reminder says what happens if he sends nothing: his standing orders are
    // played (it said "a player who sends none gives no orders that turn").
    let reminder = f
        .sent_to("bob@example.org")
        .into_iter()
        .find(|m| m.subject.contains("no orders from you yet"))
        .expect("Bob is reminded");
    assert!(
        reminder.body.contains("your standing orders are played")
            && !reminder.body.contains("gives no orders that turn"),
        "{}",
        reminder.body
    );
    // Bob goes on vacation: his standing orders are what he chose, and the turn is
    // played early.
    f.send(
        "Bob <bob@example.org>",
        &format!("game rivers\nsecret {bob}\nvacation until 2026-12-05\n"),
    );
    let out = f.pass_at("2026-11-27T11:05:00Z");
    assert!(dir.join("turns/002").is_dir(), "turn 2 played early: {out}");
    let rec = std::fs::read_to_string(dir.join("turns/002/turn.json")).expect("turn.json");
    assert!(rec.contains("\"yellow\": \"standing\""), "{rec}");
}

/// Catan: "a founding list with no free place leaves the player
/// awaited with no reason (say none of their places is free and ask for new ones);
/// early orders are acknowledged under the current step's number and deadline, not the
/// player's own." White places first, then red, then blue. Blue's founding list, sent
/// during white's step, is answered as blue's own step (turn 3), with no word of turn
/// 1's deadline; red's list names only the place white takes, and red's report, which
/// asks for red's orders, says that none of red's places is free and asks for new ones.
#[test]
fn early_founding_orders_and_a_spent_founding_list_are_explained() {
    let mut f = Folder::new();
    let secrets = isle(&f);
    let dir = f.dir("isle");
    let d = dir.to_str().expect("utf-8");
    schedule(&dir);
    let status = f.judge(&["status", d]);
    assert!(status.contains("turn 1 waits for white"), "{status}");
    let founding = |seat: &str| {
        f.judge(&["bot", d, seat])
            .lines()
            .find(|l| l.starts_with("settlement "))
            .expect("a founding line")
            .to_string()
    };
    let white = founding("white");
    let blue = "settlement 40".to_string();
    let file = |seat: &str, line: &str| {
        format!(
            "game isle\nplayer {seat}\nsecret {}\nfounding\n{line}\n",
            secret_of(&secrets, seat)
        )
    };
    // Blue's list, sent during white's step.
    f.send("Bob <bob@example.org>", &file("blue", &blue));
    f.pass();
    let answers = f.sent_to("bob@example.org");
    let filed = answers
        .iter()
        .find(|m| m.subject.contains("filed"))
        .expect("Bob's orders are answered");
    assert!(
        filed.subject.starts_with("[isle] turn 3: filed"),
        "{}",
        filed.subject
    );
    assert!(
        filed
            .body
            .contains("Your orders for turn 3 of isle are filed"),
        "{}",
        filed.body
    );
    assert!(
        filed
            .body
            .contains("Turn 1, the next step, is another player's: your own is turn 3"),
        "{}",
        filed.body
    );
    assert!(
        !filed.body.contains("Orders for turn 1 are due"),
        "{}",
        filed.body
    );
    assert!(
        filed.body.contains("Orders for blue, turn 3: 0 errors"),
        "{}",
        filed.body
    );
    // Red lists only the place white takes; white places.
    f.clear();
    f.send("Ann <ann@example.org>", &file("red", &white));
    f.send("Cy <cy@example.org>", &file("white", &white));
    f.pass();
    assert!(
        dir.join("turns/001").is_dir(),
        "white's placement is played"
    );
    let status = f.judge(&["status", d]);
    assert!(status.contains("turn 2 waits for red"), "{status}");
    let place = white.split_whitespace().nth(1).expect("the place");
    let red = f.judge(&["report", d, "--player", "red"]);
    assert!(
        red.contains(&format!(
            "None of the places in your founding list ({place}) is free now: send a new\n founding list with free places"
        )),
        "{red}"
    );
    // The others' reports say nothing of red's list.
    for seat in ["blue", "white"] {
        let theirs = f.judge(&["report", d, "--player", seat]);
        assert!(!theirs.contains("founding list"), "{theirs}");
    }
    let public = std::fs::read_to_string(dir.join("turns/001/report.txt")).expect("report");
    assert!(!public.contains("founding list"), "{public}");
}
