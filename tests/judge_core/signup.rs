//! "Sign-up": `join` through the judge's own command
//! line on a folder of games whose shared mailbox is a Maildir and whose mail goes to a
//! pickup folder (crate::judge_core::mail_commands::Folder). A seat is taken only when the address
//! confirms it with the code the judge mailed there; strangers are answered once a day
//! at most, never with their own words, and never at an address that cannot have
//! asked; a name that impersonates or confuses is refused with its reason.

use crate::judge_core::mail_commands::{Folder, Sent};

/// harbour: Catan Express, Ann at red, `free` seats open for sign-up, Gina its GM.
fn harbour(f: &Folder, free: &str) -> std::path::PathBuf {
    let dir = f.dir("harbour");
    f.judge(&[
        "new",
        dir.to_str().expect("utf-8"),
        "--game",
        "catan-express",
        "--seed",
        "9",
        "--player",
        "Ann:ann@example.org",
        "--open",
        free,
        "--gm",
        "Gina:gm@example.org",
    ]);
    dir
}

fn seats(dir: &std::path::Path) -> Vec<(String, String)> {
    pbem_judge::archive::Archive::open(dir)
        .expect("game")
        .game
        .players
        .iter()
        .filter(|p| !p.is_free())
        .map(|p| (p.name.clone(), p.email.clone()))
        .collect()
}

/// The line the confirm mail to `who` asks them to send back, if one came.
fn confirm_line(f: &Folder, who: &str) -> Option<String> {
    f.sent_to(who).iter().rev().find_map(|m| {
        m.body
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with("confirm harbour "))
            .map(str::to_string)
    })
}

fn all_mail(f: &Folder) -> Vec<Sent> {
    f.sent()
}

/// "30 answers to 30 forged addresses, each quoting the sender's
/// text; one mail of 10,000 such lines, a 1.55 MB answer." Each address is answered
/// once a day at most, in the judge's own words only; 10,000 join lines in one mail get
/// one short answer.
#[test]
fn a_join_is_answered_once_a_day_without_quoting() {
    let mut f = Folder::new();
    harbour(&f, "2");
    // A game that was never open, too.
    f.game(
        "rivers",
        &[
            "--scenario",
            "two-rivers",
            "--seed",
            "3",
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Bob:bob@example.org",
        ],
    );
    let spam = "BUY CHEAP WATCHES at http://watches.example.com";
    for i in 0..30 {
        let game = if i % 2 == 0 { "harbour" } else { "rivers" };
        let from = format!("Victim {i} <victim{i}@example.net>");
        f.send(&from, &format!("join {game} as {spam}\n{spam}\n"));
        f.send(&from, &format!("join {game} as Vic {i}\n"));
    }
    let flood = format!("join harbour as {spam}\n").repeat(10_000);
    f.send("Big <big@example.net>", &flood);
    // The new door, `confirm`, the same: 10,000 wrong codes in one mail.
    let flood = "confirm harbour abcd-efgh-jk2n\n".repeat(10_000);
    f.send("Guess <guess@example.net>", &flood);
    f.pass();
    let sent = all_mail(&f);
    for m in &sent {
        for word in ["CHEAP", "WATCHES", "watches.example", "Vic "] {
            assert!(
                !m.body.contains(word) && !m.subject.contains(word),
                "an answer quotes the sender: {m:?}"
            );
        }
        assert!(m.body.len() < 3000, "{} bytes to {}", m.body.len(), m.to);
    }
    for i in 0..30 {
        let who = format!("victim{i}@example.net");
        assert_eq!(f.sent_to(&who).len(), 1, "{who}: {:?}", f.sent_to(&who));
    }
    assert_eq!(f.sent_to("big@example.net").len(), 1);
    assert_eq!(f.sent_to("guess@example.net").len(), 1);
    // Later the same day: nothing more. The next day: one more answer.
    f.clear();
    f.send("Victim 0 <victim0@example.net>", "join harbour as Vic\n");
    f.send("Victim 1 <victim1@example.net>", "join rivers as Vic\n");
    f.pass_at("2026-11-26T20:00:00Z");
    assert!(all_mail(&f).is_empty(), "{:?}", all_mail(&f));
    f.send("Victim 0 <victim0@example.net>", "join harbour as Vic\n");
    f.pass_at("2026-11-27T09:00:00Z");
    assert_eq!(f.sent_to("victim0@example.net").len(), 1);
    // No seat was taken by any of them.
    assert_eq!(
        seats(&f.dir("harbour")),
        [("Ann".to_string(), "ann@example.org".to_string())]
    );
}

/// "Joins forged from the judge's own address and from MAILER-DAEMON
/// took the last two seats." A join takes no seat: the judge mails a code to the
/// address, and the seat is taken only when a mail from there carries it back. The
/// judge's own address, a null sender, MAILER-DAEMON, postmaster and no-reply addresses
/// are never answered and never seated.
#[test]
fn a_seat_is_taken_only_when_the_address_confirms_it() {
    let mut f = Folder::new();
    let dir = harbour(&f, "2");
    let cannot_ask = [
        "judge@example.org",
        "MAILER-DAEMON@example.org",
        "postmaster@example.org",
        "no-reply@example.org",
        "noreply@example.com",
        "do-not-reply@example.com",
    ];
    for a in cannot_ask {
        f.send(&format!("X <{a}>"), "join harbour as Someone\n");
    }
    f.send("<>", "join harbour as Nobody\n");
    f.send("Zoe <zoe@example.org>", "join harbour as Zoe\n");
    f.pass();
    assert_eq!(seats(&dir).len(), 1, "a join alone takes no seat");
    for a in cannot_ask {
        assert!(
            f.sent_to(&a.to_ascii_lowercase()).is_empty(),
            "{a} was answered"
        );
    }
    let sent = all_mail(&f);
    assert_eq!(sent.len(), 1, "only Zoe is answered: {sent:?}");
    let line = confirm_line(&f, "zoe@example.org").expect("Zoe's confirm mail says what to send");
    let code = line.rsplit(' ').next().expect("the code").to_string();
    assert!(code.len() >= 12, "{line}");
    // The code is nowhere but in Zoe's mail: no file of the folder holds it.
    for (p, b) in crate::judge_core::mail_commands::every_file(&f.root) {
        assert!(
            !String::from_utf8_lossy(&b).contains(&code),
            "{} holds the code",
            p.display()
        );
    }
    // Sent back from another address, it takes nothing.
    f.clear();
    f.send("Mal <mal@example.org>", &format!("{line}\n"));
    f.pass();
    assert_eq!(seats(&dir).len(), 1);
    // A wrong code from Zoe's address takes nothing either.
    f.send("Zoe <zoe@example.org>", "confirm harbour abcd-efgh-jk2n\n");
    f.pass();
    assert_eq!(seats(&dir).len(), 1);
    // Zoe's reply: the seat is hers, and her welcome with her secret comes.
    f.clear();
    f.send(
        "Zoe <zoe@example.org>",
        &format!("{line}\n\n> Someone asked for a seat\n"),
    );
    f.pass();
    assert_eq!(
        seats(&dir),
        [
            ("Ann".to_string(), "ann@example.org".to_string()),
            ("Zoe".to_string(), "zoe@example.org".to_string())
        ]
    );
    let zoe = f.sent_to("zoe@example.org");
    assert!(
        zoe.iter()
            .any(|m| m.subject.contains("welcome")
                && crate::support::welcome_secret(&m.body).is_some()),
        "{zoe:?}"
    );
    // The code works once.
    f.clear();
    f.send("Zoe <zoe@example.org>", &format!("{line}\n"));
    f.pass();
    assert_eq!(seats(&dir).len(), 2);
    assert!(
        f.sent_to("zoe@example.org")
            .iter()
            .any(|m| m.body.contains("You play") && m.body.contains("already")),
        "{:?}",
        f.sent_to("zoe@example.org")
    );
    // Still nothing in any file of the folder holds the code.
    for (p, b) in crate::judge_core::mail_commands::every_file(&f.root) {
        assert!(
            !String::from_utf8_lossy(&b).contains(&code),
            "{} holds the code",
            p.display()
        );
    }
}

/// The code runs out; a confirm for a seat taken meanwhile, or for a
/// game that has begun, is answered so, and takes nothing.
#[test]
fn a_late_or_stale_confirm_is_answered_sensibly() {
    let mut f = Folder::new();
    let dir = harbour(&f, "2");
    for who in ["vi", "yan", "xia", "wu"] {
        f.send(
            &format!("P <{who}@example.org>"),
            &format!("join harbour as {}\n", who.to_uppercase()),
        );
    }
    f.pass();
    let line = |who: &str| confirm_line(&f, &format!("{who}@example.org")).expect("a code");
    let (vi, yan, xia, wu) = (line("vi"), line("yan"), line("xia"), line("wu"));
    // Vi and Yan take the two seats: the game begins. Xia's confirm comes after.
    f.clear();
    f.send("Vi <vi@example.org>", &format!("{vi}\n"));
    f.send("Yan <yan@example.org>", &format!("{yan}\n"));
    f.send("Xia <xia@example.org>", &format!("{xia}\n"));
    f.pass_at("2026-11-26T10:00:00Z");
    assert!(
        dir.join("turns/000").is_dir(),
        "the last seat began the game"
    );
    assert_eq!(seats(&dir).len(), 3);
    let told = f.sent_to("xia@example.org");
    assert!(
        told.iter().any(|m| m.body.contains("has begun")),
        "{told:?}"
    );
    assert!(seats(&dir).iter().all(|(_, a)| a != "xia@example.org"));
    // Wu waits four days: the code has run out (and the game is full besides).
    f.send("Wu <wu@example.org>", &format!("{wu}\n"));
    f.pass_at("2026-11-30T10:00:00Z");
    let told = f.sent_to("wu@example.org");
    assert!(
        told.iter()
            .any(|m| m.body.contains("run out") && m.body.contains("join harbour as")),
        "{told:?}"
    );
    assert_eq!(seats(&dir).len(), 3);
}

/// "Names that impersonate or confuse are accepted." Each is refused
/// with its reason, and takes no seat (nor a code); a name in one script of another
/// alphabet, or with accents, is welcome.
#[test]
fn names_that_impersonate_or_confuse_are_refused() {
    let mut f = Folder::new();
    let dir = harbour(&f, "4");
    let refused = [
        ("Ann", "another player"),
        ("ANN", "another player"),
        ("A\u{0578}\u{0578}", "another player"), // Armenian letters that look like "nn"
        ("red (Ann)", "`(`"),
        ("Gina", "the GM"),
        ("anonymous", "anonymous"),
        ("blue", "a seat"),
        ("\u{0410}lex", "two scripts"), // a Cyrillic А
        ("Al\u{200B}ex", "U+200B"),
        ("\u{202E}xelA", "U+202E"),
        ("Alex\u{2028}Bob", "U+2028"),
        ("abcd-efgh-jk2n", "secret"),
    ];
    for (i, (name, _)) in refused.iter().enumerate() {
        f.send(
            &format!("P{i} <p{i}@example.org>"),
            &format!("join harbour as {name}\n"),
        );
    }
    f.send("Olga <olga@example.org>", "join harbour as Ольга\n");
    f.send("José <jose@example.org>", "join harbour as José Núñez\n");
    f.pass();
    for (i, (name, why)) in refused.iter().enumerate() {
        let who = format!("p{i}@example.org");
        let told = f.sent_to(&who);
        assert_eq!(told.len(), 1, "{name:?}: {told:?}");
        assert!(
            told[0].body.contains("not taken") && told[0].body.contains(why),
            "{name:?} is refused saying {why:?}: {}",
            told[0].body
        );
        assert!(confirm_line(&f, &who).is_none(), "{name:?} got a code");
    }
    for who in ["olga@example.org", "jose@example.org"] {
        let line = confirm_line(&f, who).expect("a code");
        f.send(&format!("X <{who}>"), &format!("{line}\n"));
    }
    f.pass();
    let names: Vec<String> = seats(&dir).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["Ann", "Ольга", "José Núñez"]);
}

/// "Club members cannot join an open game." In a folder where Ann
/// plays `rivers` and `express`, `join island as Ann` (also with `game island`, and as
/// `Re: [island] join`) was answered "a game you do not play in": only addresses with
/// no game in the folder could join. Now a `join` or `confirm` goes to the game it
/// names whoever sends it, and the sign-up's protections hold for the club's members
/// as for strangers: the seat only for the code sent back from the same address, one
/// answer a day, no name that passes for another player's.
#[test]
fn club_members_join_an_open_game() {
    let mut f = Folder::new();
    f.game(
        "rivers",
        &[
            "--scenario",
            "two-rivers",
            "--seed",
            "3",
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Bob:bob@example.org",
        ],
    );
    f.game(
        "express",
        &[
            "--game",
            "catan-express",
            "--seed",
            "4",
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Cy:cy@example.org",
            "--player",
            "Dan:dan@example.org",
        ],
    );
    let island = f.dir("island");
    f.judge(&[
        "new",
        island.to_str().expect("utf-8"),
        "--game",
        "catan",
        "--seed",
        "5",
        "--open",
        "4",
        "--gm",
        "Gina:gm@example.org",
    ]);
    // Ann with the join alone, Bob with a game line, Cy in a reply to the announcement.
    f.send("Ann <ann@example.org>", "join island as Ann\n");
    f.send("Bob <bob@example.org>", "game island\njoin island as Bob\n");
    f.send_subject(
        "Cy <cy@example.org>",
        "Re: [island] join",
        "join island as Cy\n",
    );
    // A club member's other mail for a game they do not play in is answered as before.
    f.send("Ann <ann@example.org>", "game island\nstatus\n");
    f.pass();
    let island_line = |f: &Folder, who: &str| {
        f.sent_to(who).iter().rev().find_map(|m| {
            m.body
                .lines()
                .map(str::trim)
                .find(|l| l.starts_with("confirm island "))
                .map(str::to_string)
        })
    };
    for who in ["ann", "bob", "cy"] {
        let address = format!("{who}@example.org");
        let told = f.sent_to(&address);
        assert!(
            island_line(&f, &address).is_some(),
            "{who} is mailed a code: {told:?}"
        );
        let not_yours = told
            .iter()
            .filter(|m| m.subject.contains("a game you do not play in"))
            .count();
        assert_eq!(
            not_yours,
            usize::from(who == "ann"),
            "{who}'s join is no mail for a game they do not play in (Ann's `status` is): {told:?}"
        );
    }
    assert!(
        f.sent_to("ann@example.org")
            .iter()
            .any(|m| m.subject.contains("island, a game you do not play in")
                && m.body.contains("You play in:")),
        "{:?}",
        f.sent_to("ann@example.org")
    );
    assert!(seats(&island).is_empty(), "a join alone takes no seat");
    let (ann, bob, cy) = (
        island_line(&f, "ann@example.org").expect("code"),
        island_line(&f, "bob@example.org").expect("code"),
        island_line(&f, "cy@example.org").expect("code"),
    );
    // Ann's code sent back from Bob's address takes nothing; a second join of Bob's
    // the same day is not answered again.
    f.clear();
    f.send("Bob <bob@example.org>", &format!("game island\n{ann}\n"));
    f.send("Bob <bob@example.org>", "join island as Bobby\n");
    f.pass();
    assert!(seats(&island).is_empty(), "{:?}", seats(&island));
    assert!(
        island_line(&f, "bob@example.org").is_none(),
        "{:?}",
        f.sent_to("bob@example.org")
    );
    // Each sends back their own: the seats are theirs, their welcomes come.
    f.clear();
    f.send("Ann <ann@example.org>", &format!("{ann}\n"));
    f.send_subject(
        "Bob <bob@example.org>",
        "Re: [island] sign-up: confirm your seat",
        &format!("{bob}\n\n> Someone, we hope you, asked\n"),
    );
    f.send("Cy <cy@example.org>", &format!("game island\n{cy}\n"));
    f.pass();
    assert_eq!(
        seats(&island),
        [
            ("Ann".to_string(), "ann@example.org".to_string()),
            ("Bob".to_string(), "bob@example.org".to_string()),
            ("Cy".to_string(), "cy@example.org".to_string()),
        ]
    );
    for who in ["ann", "bob", "cy"] {
        let told = f.sent_to(&format!("{who}@example.org"));
        assert!(
            told.iter()
                .any(|m| m.subject.starts_with("[island] welcome")
                    && crate::support::welcome_secret(&m.body).is_some()),
            "{who}: {told:?}"
        );
    }
    // A club member may not take a name that passes for a player of the game: Dan,
    // who plays express, asks for Ann's.
    f.clear();
    f.send("Dan <dan@example.org>", "join island as ANN\n");
    f.pass();
    let told = f.sent_to("dan@example.org");
    assert!(
        told.iter()
            .any(|m| m.body.contains("not taken") && m.body.contains("another player")),
        "{told:?}"
    );
    assert_eq!(seats(&island).len(), 3);
}
