//! "The new doors hold": commands, press and the GM's commands under hostile
//! mail. Each test drives the real `judge` over real RFC 5322 mails and reads every mail
//! it sent as a mail program shows it; each failed on the judge before its fix (what that
//! judge did is in the comment). The rows of docs/archive.md, "The doors opened since",
//! name these tests.

use std::time::Duration;

use crate::judge_core::hostile_mail::{game, judge_within, mail, orders};
use crate::judge_core::mail_commands::{Folder, Sent, every_file, schedule, secret_of, two_rivers};
use crate::support;

/// Each mail `g` sent to `who`, decoded.
fn decoded_to(g: &crate::judge_core::hostile_mail::Game, who: &str) -> Vec<(String, String)> {
    g.sent_to(who)
        .iter()
        .map(|raw| {
            let m = mail_parser::MessageParser::default()
                .parse(raw.as_bytes())
                .expect("a mail the judge sent reads");
            (
                m.subject().unwrap_or_default().to_string(),
                m.body_text(0).unwrap_or_default().replace("\r\n", "\n"),
            )
        })
        .collect()
}

/// A mail forged from Ann of 10,000 lines `help` took 27.5 s and
/// 86 MB and made a 14.5 MB answer (each line answered, the answer's line ends made
/// CRLF one insert at a time). Now at most `COMMANDS_PER_MAIL` commands are carried out,
/// the rest answered in one line; a command that only answers is answered once; and
/// the answer holds at most `ANSWER_BYTES`.
#[test]
fn ten_thousand_help_lines_are_answered_as_twenty() {
    let g = game("");
    let per_mail = pbem_judge::pbem::by_mail::COMMANDS_PER_MAIL;
    let body = "help\r\n".repeat(10_000) + &"template\r\nstatus\r\n".repeat(3_000);
    let out = g.ingest(&[mail("ann@example.org", "flood@x", "", &body)]);
    let answers = decoded_to(&g, "ann@example.org");
    assert_eq!(answers.len(), 1, "one answer: {answers:?}");
    let (subject, text) = &answers[0];
    assert!(
        text.len() <= pbem_judge::pbem::by_mail::ANSWER_BYTES + 200,
        "the answer is {} bytes",
        text.len()
    );
    assert_eq!(
        text.matches("Commands you can mail").count(),
        1,
        "help's guide once: {text}"
    );
    assert_eq!(
        text.matches("The same as the answer to line 1, above.")
            .count(),
        per_mail - 1,
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "The judge carries out at most {per_mail} commands from one mail: 15980 commands from line {} on were not carried out.",
            per_mail + 1
        )),
        "{text}"
    );
    assert!(subject.starts_with("[demo]"), "{subject}");
    // The GM's console and the mail log carry a line per command carried out, and one
    // for the rest.
    let log = g.log();
    assert!(log.len() < 4_000, "the log line is {} bytes", log.len());
    assert!(out.len() < 4_000, "the GM's console: {} bytes", out.len());
    assert!(
        out.contains("15980 more commands: not carried out (20 a mail)"),
        "{out}"
    );
}

/// "a 20,000-line command mail followed by a player's real orders,
/// with the run killed twice: no log line, no `mail/reading` mark, and the real orders
/// were never filed." Each run here is stopped after 20 s, as a cron job's time limit
/// would stop it; within three such runs the command mail is handled once and Ann's
/// real orders, in the mail after it, are filed.
#[test]
fn a_mail_of_commands_does_not_keep_the_real_orders_out() {
    let g = game("");
    let eml = g.root.join("eml");
    std::fs::create_dir_all(&eml).expect("mkdir");
    let flood = mail(
        "ann@example.org",
        "commands@x",
        "",
        &format!(
            "{}{}",
            "help\r\nstatus\r\ntemplate\r\nresend\r\n".repeat(5_000),
            "press to yellow: hello\r\n".repeat(100)
        ),
    );
    std::fs::write(eml.join("0001.eml"), flood).expect("write");
    std::fs::write(eml.join("0002.eml"), g.loading("real@x")).expect("write");
    let (first, second) = (eml.join("0001.eml"), eml.join("0002.eml"));
    let args = [
        "ingest",
        g.d(),
        first.to_str().expect("utf-8"),
        second.to_str().expect("utf-8"),
    ];
    let mut runs = 0;
    while !g.pending().contains("move D1: load 1 board; C3") && runs < 3 {
        runs += 1;
        let _ = support::run_judge_for(&args, Duration::from_secs(20));
    }
    assert!(
        g.pending().contains("move D1: load 1 board; C3"),
        "the real orders are filed within three runs"
    );
    assert_eq!(g.log().lines().count(), 2, "each mail logged once");
    assert!(!g.dir.join("mail/reading").exists());
}

/// A folder with the four-player Catan game `isle` (anonymous press allowed) and its
/// secrets.
fn isle(press: &str) -> (Folder, Vec<(String, String)>) {
    let f = Folder::new();
    let secrets = f.game(
        "isle",
        &[
            &["--game", "catan", "--seed", "11", "--press", press][..],
            &support::ANN_BOB_CAT,
            &["--player", "Dan:dan@example.org"],
        ]
        .concat(),
    );
    (f, secrets)
}

const SEATS: [(&str, &str); 4] = [
    ("red", "ann@example.org"),
    ("blue", "bob@example.org"),
    ("white", "cat@example.org"),
    ("orange", "dan@example.org"),
];

fn from(f: &mut Folder, secrets: &[(String, String)], seat: usize, lines: &str) {
    let (id, address) = SEATS[seat];
    f.send(
        &format!("P <{address}>"),
        &format!("game isle\nsecret {}\n{lines}\n", secret_of(secrets, id)),
    );
}

/// One mail of 10,000 `press to all` lines queued 20,000 mails, and
/// `resend turn 1` … `resend turn 68`, each three times, sent 205 report mails. Now a
/// mail sends at most `PRESS_PER_MAIL` messages and a player at most `PRESS_PER_HOUR`
/// within an hour; a mail asks for at most `RESENDS_PER_MAIL` reports and a player gets
/// at most `RESENDS_PER_DAY` a day; a press longer than `PRESS_CHARS` is refused.
#[test]
fn press_and_resend_are_limited_by_messages_not_mails() {
    use pbem_judge::pbem::by_mail::{
        PRESS_CHARS, PRESS_PER_HOUR, PRESS_PER_MAIL, RESENDS_PER_DAY, RESENDS_PER_MAIL,
    };
    let (mut f, secrets) = isle("open");
    let lines: String = (0..10_000)
        .map(|n| format!("press to all: offer {n}\n"))
        .collect();
    from(&mut f, &secrets, 0, &lines);
    f.pass();
    let relayed = |f: &Folder| {
        f.sent()
            .iter()
            .filter(|m| m.subject.contains("press from"))
            .count()
    };
    assert_eq!(
        relayed(&f),
        PRESS_PER_MAIL * 3,
        "to each of the three others"
    );
    let answer = f.sent_to("ann@example.org");
    assert_eq!(answer.len(), 1);
    assert!(
        answer[0]
            .body
            .contains("The judge carries out at most 20 commands from one mail"),
        "{}",
        answer[0].body
    );
    assert!(
        answer[0].body.contains(&format!(
            "One mail sends at most {PRESS_PER_MAIL} press messages"
        )),
        "{}",
        answer[0].body
    );
    // Within the hour: more mails send at most PRESS_PER_HOUR messages in all.
    for n in 0..8 {
        from(
            &mut f,
            &secrets,
            0,
            &format!("press to blue: a {n}\npress to white: b {n}\npress to orange: c {n}\n"),
        );
    }
    f.pass();
    assert_eq!(
        relayed(&f),
        PRESS_PER_HOUR * 3 - 2 * (PRESS_PER_HOUR - PRESS_PER_MAIL)
    );
    let to_bob = f
        .sent_to("bob@example.org")
        .iter()
        .filter(|m| m.subject.contains("press from"))
        .count();
    assert!(to_bob <= PRESS_PER_HOUR, "{to_bob}");
    // A message over the length: refused, relayed to nobody.
    f.clear();
    from(
        &mut f,
        &secrets,
        1,
        &format!("press to all: {}", "x".repeat(PRESS_CHARS + 1)),
    );
    f.pass();
    assert_eq!(relayed(&f), 0);
    assert!(
        f.sent_to("bob@example.org")[0]
            .body
            .contains(&format!("press is at most {PRESS_CHARS}"))
    );
    // Resends: play three steps, then ask for many reports in one mail, and in many.
    let d = f.dir("isle");
    for _ in 0..3 {
        f.judge(&["turn", d.to_str().expect("utf-8"), "--force"]);
    }
    f.clear();
    let many: String = (0..68)
        .flat_map(|t| std::iter::repeat_n(format!("resend turn {t}\n"), 3))
        .collect();
    for _ in 0..5 {
        from(&mut f, &secrets, 2, &many);
    }
    f.pass();
    let resent = f
        .sent_to("cat@example.org")
        .iter()
        .filter(|m| !m.subject.contains("resend") && !m.subject.contains("commands"))
        .count();
    assert_eq!(resent, RESENDS_PER_DAY, "resent reports to Cat");
    let answers: Vec<Sent> = f
        .sent_to("cat@example.org")
        .into_iter()
        .filter(|m| m.body.contains("read 204 commands"))
        .collect();
    assert!(
        answers.iter().any(|m| m.body.contains(&format!(
            "One mail asks for at most {RESENDS_PER_MAIL} reports"
        ))),
        "{answers:?}"
    );
    assert!(
        answers.iter().any(|m| m
            .body
            .contains(&format!("{RESENDS_PER_DAY} reports were resent to you"))),
        "{answers:?}"
    );
}

/// What `who` can see, with each mail's Message-ID and threading headers as well as
/// its subject and text: the anonymity of press must hold in every byte a reader gets.
fn seen_by(f: &Folder, who: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = f
        .sent_to(who)
        .into_iter()
        .map(|m| {
            (
                format!("{} {}", m.message_id, m.refs),
                format!("{}\n{}", m.subject, m.body),
            )
        })
        .collect();
    out.extend(f.view(who));
    out.sort();
    out
}

/// Anonymous press was kept as `press/001/000001-anonymous-all.txt`
/// beside `000001-red-all.txt`, and relayed as `press-000001-0-…` beside
/// `press-000001-1-…`: the number of the mail it came in named its sender. Now nothing
/// kept or sent carries a number, order or time of the mail: red sending a named press
/// and an anonymous one in one mail looks, to everyone else, exactly like red sending
/// the named one and another player the anonymous one. Anonymous press waits for the
/// hour to be out, and goes with all the anonymous press of that hour.
#[test]
fn anonymous_press_carries_no_number_order_or_time_of_its_mail() {
    let (base, secrets) = isle("anonymous");
    for other in 1..4 {
        let mut one = base.copy();
        let mut two = base.copy();
        // One world: red sends both. The other: red the named one, `other` the
        // anonymous one, in mails of their own (one after the other).
        from(
            &mut one,
            &secrets,
            0,
            "press to all: red here, wood for sale\nanonymous press to all: white cheats",
        );
        from(
            &mut two,
            &secrets,
            0,
            "press to all: red here, wood for sale",
        );
        from(
            &mut two,
            &secrets,
            other,
            "anonymous press to all: white cheats",
        );
        for w in [&one, &two] {
            w.pass_at("2026-11-26T09:10:00Z");
            // Held until the hour is out: no one has it yet (but its sender's answer).
            assert!(
                w.sent()
                    .iter()
                    .all(|m| !(m.body.contains("white cheats") && m.subject.contains("press from")))
            );
            w.pass_at("2026-11-26T10:00:05Z");
            w.judge(&["turn", w.dir("isle").to_str().expect("utf-8"), "--force"]);
        }
        for (i, (_, who)) in SEATS.iter().enumerate() {
            if i == 0 || i == other {
                continue;
            }
            let seen = seen_by(&one, who);
            assert!(
                seen.iter().any(|(_, t)| t.contains("white cheats")),
                "{who} got the anonymous press"
            );
            assert_eq!(seen, seen_by(&two, who), "{who} can tell who sent it");
        }
    }
}

/// Several `press to all` lines in one mail were all relayed, but
/// only the last was kept in the record (each file was named by the mail). Now each is
/// kept, and printed in the turn's report.
#[test]
fn every_press_of_a_mail_is_kept_in_the_record() {
    let (mut f, secrets) = isle("open");
    from(
        &mut f,
        &secrets,
        0,
        "press to all: first word\npress to all: second word\npress to all: third word",
    );
    f.pass();
    let kept: Vec<String> = every_file(&f.dir("isle").join("press"))
        .into_iter()
        .map(|(_, b)| String::from_utf8_lossy(&b).into_owned())
        .collect();
    for w in ["first word", "second word", "third word"] {
        assert_eq!(
            kept.iter().filter(|t| t.contains(w)).count(),
            1,
            "{w}: {kept:?}"
        );
    }
    f.judge(&["turn", f.dir("isle").to_str().expect("utf-8"), "--force"]);
    let report =
        std::fs::read_to_string(f.dir("isle").join("turns/001/report.txt")).expect("the report");
    for w in ["first word", "second word", "third word"] {
        assert!(report.contains(w), "{w}: {report}");
    }
}

/// Several GM commands in one mail acted on game.toml as it was
/// before the mail: `pause, pause` was answered "paused" twice, and `resume, pause` on
/// a paused game left it running. Now each sees what the one before it did.
#[test]
fn the_gms_commands_in_one_mail_act_one_after_the_other() {
    let mut f = Folder::new();
    two_rivers(&f, "rivers", &[]);
    let dir = f.dir("rivers");
    schedule(&dir);
    let out = f.judge(&["secret", dir.to_str().expect("utf-8"), "--gm"]);
    let gm = support::gm_secret(&out);
    let paused = || {
        pbem_judge::archive::Archive::open(&dir)
            .expect("game")
            .game
            .paused
            .is_some()
    };
    f.send(
        "Gina <gm@example.org>",
        &format!("game rivers\nsecret {gm}\npause\npause\n"),
    );
    f.pass();
    assert!(paused());
    let answer = &f.sent_to("gm@example.org")[0].body;
    assert_eq!(answer.matches("The game is paused:").count(), 1, "{answer}");
    assert!(answer.contains("the game is paused already"), "{answer}");
    f.clear();
    f.send(
        "Gina <gm@example.org>",
        &format!("game rivers\nsecret {gm}\nresume\npause\n"),
    );
    f.pass_at("2026-11-26T10:00:00Z");
    assert!(paused(), "resume, then pause: paused");
    let answer = &f.sent_to("gm@example.org")[0].body;
    assert!(answer.contains("The game runs again"), "{answer}");
    assert!(answer.contains("The game is paused:"), "{answer}");
    f.clear();
    f.send(
        "Gina <gm@example.org>",
        &format!("game rivers\nsecret {gm}\nresume\nextend 24h\nextend 24h\n"),
    );
    f.pass_at("2026-11-26T11:00:00Z");
    assert!(!paused());
    let answer = &f.sent_to("gm@example.org")[0].body;
    assert_eq!(
        answer.matches("The deadline for turn 1 moved").count(),
        2,
        "each extend moves on from the last: {answer}"
    );
}

/// After `judge replace`, Ann's standing orders were played again
/// for Zed's seat, and his welcome did not say so. Now what Ann had on record (standing
/// orders, orders for the coming turn) is set aside for the GM, the welcome says so, and
/// the next turn plays nothing of Ann's for the seat.
#[test]
fn a_replacement_plays_nothing_the_old_player_left() {
    let g = game("");
    // Ann's standing orders, played in turn 1.
    let standing =
        orders(&g.red, "move D1: load 1 board; C3").replace("turn 1\r\n", "turn 1\r\nstanding\r\n");
    g.ingest(&[mail("ann@example.org", "standing@x", "", &standing)]);
    let (code, out, err) = judge_within(&["turn", g.d(), "--force"], Duration::from_secs(60));
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        g.dir.join("standing/red.txt").exists(),
        "Ann's orders stand"
    );
    let (code, out, err) = judge_within(
        &["replace", g.d(), "red", "--by", "Zed:zed@example.org"],
        Duration::from_secs(60),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(!g.dir.join("standing/red.txt").exists());
    assert!(g.dir.join("mail/replaced").is_dir(), "set aside for the GM");
    let welcome = decoded_to(&g, "zed@example.org");
    assert_eq!(welcome.len(), 1);
    assert!(
        welcome[0]
            .1
            .contains("What Ann had on record for red (standing orders) was set aside"),
        "{}",
        welcome[0].1
    );
    let (code, out, err) = judge_within(&["turn", g.d(), "--force"], Duration::from_secs(60));
    assert_eq!(code, 0, "{out}{err}");
    let played = std::fs::read_to_string(g.dir.join("turns/002/turn.json")).expect("turn 2");
    assert!(
        !played.contains("\"red\": \"standing\""),
        "no standing orders of Ann's for Zed: {played}"
    );
    assert!(!g.dir.join("turns/002/orders/red.txt").exists());
}

/// An order file within the limits (19,990 lines, 320 KB) took 9.5 s
/// to play and made a 2.2 MB report for each player (each problem found its line by
/// scanning from the start, and every line was repeated). Now lines are found through an
/// index made once, and a check or a report repeats at most `SHOWN_LINES` of one
/// player's lines in a section, counting the rest.
#[test]
fn an_order_file_of_20000_lines_is_answered_in_a_few_pages() {
    let shown = pbem_judge::text::SHOWN_LINES;
    let g = game("");
    let body = orders(&g.red, &"move D1: C3 C4\r\n".repeat(19_990));
    assert!(body.len() > 300_000);
    let out = g.ingest(&[mail("ann@example.org", "big@x", "", &body)]);
    assert!(out.contains("accepted: red's orders for turn 1"), "{out}");
    let filed = decoded_to(&g, "ann@example.org");
    assert_eq!(filed.len(), 1);
    assert!(filed[0].1.len() < 64 * 1024, "{} bytes", filed[0].1.len());
    assert!(
        filed[0].1.contains(&format!(
            "... and {} more orders, not shown here",
            19_990 - shown
        )),
        "{}",
        filed[0].1
    );
    let (code, out, err) = judge_within(&["turn", g.d(), "--force"], Duration::from_secs(60));
    assert_eq!(code, 0, "{out}{err}");
    let report = std::fs::read_to_string(g.dir.join("turns/001/report.txt")).expect("report");
    assert!(report.len() < 64 * 1024, "{} bytes", report.len());
    assert!(
        report.contains(&format!("... and {} more, not shown here", 19_990 - shown)),
        "{report}"
    );
    // Every event is still on record.
    let events = std::fs::read_to_string(g.dir.join("turns/001/events.json")).expect("events");
    assert!(events.matches("\"line\": ").count() >= 19_990);
    let mailed = decoded_to(&g, "ann@example.org");
    let own = mailed
        .iter()
        .find(|(s, _)| s.contains("turn 1") && s.contains("report"))
        .map(|(_, b)| b.clone())
        .unwrap_or_default();
    assert!(own.len() < 100 * 1024, "red's report: {} bytes", own.len());
    assert!(
        own.contains(&format!(
            "... and {} more lines, not shown here",
            19_990 - shown
        )),
        "{own}"
    );
    // Catan's check repeats as little.
    let cat = g.root.join("cat");
    let c = cat.to_str().expect("utf-8");
    let (code, _, err) = support::judge_text(
        &[
            &["new", c, "--game", "catan", "--seed", "5"][..],
            &support::ANN_BOB_CAT,
        ]
        .concat(),
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let file = g.root.join("catan.txt");
    std::fs::write(
        &file,
        format!(
            "game cat\nplayer white\nturn 1\n{}",
            "settlement 5 road 5-9\n".repeat(19_990)
        ),
    )
    .expect("write");
    let (_, out, _) = support::judge_text(&["check", c, file.to_str().expect("utf-8")], &[]);
    assert!(out.len() < 64 * 1024, "{} bytes", out.len());
    assert!(out.contains("more orders, not shown here"), "{out}");
}

/// A mail from `from` whose HTML attachments are each `part`, as many as fit in 2 MB
/// (at most 100).
fn html_parts(from: &str, id: &str, part: &str) -> Vec<u8> {
    let mut body = String::new();
    let mut n = 0;
    while n < 100 && body.len() + part.len() < 1_900_000 {
        body.push_str(&format!(
            "--b\r\nContent-Type: text/html\r\nContent-Disposition: attachment; filename=p{n}.html\r\n\r\n{part}\r\n"
        ));
        n += 1;
    }
    body.push_str("--b--\r\n");
    mail(
        from,
        id,
        "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n",
        &body,
    )
}

/// HTML the parser nests but the scan counted as flat — `<rt>`,
/// `<optgroup>`, `<div/>` repeated 4,999 times in ~100 parts — took 6.5–8.4 s a mail
/// (each part turned into text, the depth of each squared); and a formatting element the
/// parser builds again in every paragraph makes elements no tag spells out. Now what the
/// parser builds is counted as it builds it, in all the mail's parts together, and its
/// depth measured before the tree is turned into text: each such mail is refused, with
/// the reason, and the real orders after them are filed.
#[test]
fn html_is_counted_as_the_parser_builds_it() {
    let g = game("");
    let formatting: String = (0..2_400)
        .map(|i| format!("<p><b id={i}></p></x>"))
        .collect::<String>()
        + &"<p>x".repeat(2_500);
    let mails = vec![
        html_parts("ann@example.org", "rt@x", &"<rt>".repeat(4_999)),
        html_parts("ann@example.org", "optgroup@x", &"<optgroup>".repeat(4_999)),
        html_parts("ann@example.org", "div@x", &"<div/>".repeat(4_999)),
        html_parts("ann@example.org", "shallow@x", &"<rt>".repeat(60)),
        crate::judge_core::hostile_mail::html_mail("ann@example.org", "formatting@x", &formatting),
        g.loading("real@x"),
    ];
    let out = g.ingest(&mails);
    let refused: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("refused: its HTML"))
        .collect();
    assert_eq!(refused.len(), 5, "{out}");
    assert!(
        refused.iter().all(
            |l| l.contains("at most 5000 elements in a mail") || l.contains("at most 100 deep")
        ),
        "{out}"
    );
    assert!(g.pending().contains("move D1: load 1 board; C3"), "{out}");
}

/// Two mails of 2 MB each took more than 100 MB to file: 100
/// secret-shaped words repeated over 2 MB (125 MB), and one 2 MB line (129 MB: looking
/// for a `secret` line, each line was made a list of its characters, 24 bytes each).
/// Now every hostile shape of mail is filed within the goal, from a player (whose HTML
/// is read) and from a stranger, measured as the kernel counts the run's memory
/// (`support::judge_peak_kb`).
#[test]
fn no_mail_of_2_mb_costs_100_mb() {
    use pbem_judge::fuzzing::{HOSTILE, hostile_mail};
    let g = game("");
    let eml = g.root.join("eml");
    std::fs::create_dir_all(&eml).expect("mkdir");
    for (k, shape) in HOSTILE.iter().enumerate() {
        for from in ["ann@example.org", "mallory@evil.example"] {
            let file = eml.join(format!("{k}-{from}.eml"));
            std::fs::write(&file, hostile_mail(k, 1, from)).expect("write");
            let (code, kb) =
                support::judge_peak_kb(&["ingest", g.d(), file.to_str().expect("utf-8")]);
            assert_eq!(code, 0, "{shape} from {from}");
            eprintln!("{shape} from {from}: {kb} KB");
            assert!(kb < 100 * 1024, "{shape} from {from}: {kb} KB");
        }
    }
}
