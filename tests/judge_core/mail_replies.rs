//! Mail as real mail programs write it: the text-level
//! conventions of mail programs (reply separators, attributions, quotes, the lines they
//! add, hard wraps, full-width punctuation), through the real `judge` over real mails.
//! The mails are the shapes of tests/mail/clients (each beside the order file the player
//! meant); docs/archive.md, "Mail as real clients and servers make it", has a
//! row for each point, with what the judge did before.

use crate::judge_core::hostile_mail::{Game, game, mail};
use crate::support;

/// The secret of red (Ann) in every shape of tests/mail/clients.
const RED: &str = "hm4k-7wqz-p2rd";

/// The demo game at turn 0 with red's secret that of the corpus.
fn corpus_game() -> Game {
    let g = game("");
    let path = g.dir.join("game.toml");
    let toml = std::fs::read_to_string(&path).expect("game.toml");
    let hash = pbem_judge::mail::secret::hash(RED).expect("hash");
    let mut red = false;
    let mut out = String::new();
    for line in toml.lines() {
        if line.starts_with("id = ") {
            red = line == "id = \"red\"";
        }
        if red && line.starts_with("secret_hash") {
            out.push_str(&format!("secret_hash = \"{hash}\"\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    std::fs::write(&path, out).expect("write");
    g
}

/// A mail the judge sent to `who`, decoded: its subject and text.
struct Sent {
    subject: String,
    body: String,
}

fn answers(g: &Game, who: &str) -> Vec<Sent> {
    let Ok(d) = std::fs::read_dir(g.root.join("pickup")) else {
        return Vec::new();
    };
    let mut names: Vec<_> = d.flatten().map(|e| e.path()).collect();
    names.sort();
    names
        .iter()
        .filter_map(|p| {
            let raw = std::fs::read(p).expect("mail");
            let m = mail_parser::MessageParser::default()
                .parse(&raw)
                .expect("a mail the judge sent reads");
            let to = m
                .to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or_default()
                .to_ascii_lowercase();
            (to == who).then(|| Sent {
                subject: m.subject().unwrap_or_default().to_string(),
                body: m.body_text(0).unwrap_or_default().replace("\r\n", "\n"),
            })
        })
        .collect()
}

/// What `judge check` makes of `text` as red's orders: its first line (errors and
/// warnings) and what the orders will do. Two files that give the same are the same
/// orders.
fn checked(g: &Game, text: &str) -> String {
    let f = g.root.join("check.txt");
    std::fs::write(&f, text).expect("write");
    let (_, out, err) = support::judge_text(
        &[
            "check",
            g.d(),
            f.to_str().expect("utf-8"),
            "--player",
            "red",
        ],
        &[],
    );
    let out = format!("{out}{err}");
    let first = out.lines().next().unwrap_or("").to_string();
    // Each order's echo, without the number of the line it stands on.
    let echo: Vec<&str> = out
        .split_once("What these orders will do")
        .map_or("", |(_, e)| e)
        .lines()
        .map(|l| {
            let t = l.trim_start();
            match t.strip_prefix("line ").and_then(|r| r.split_once(": ")) {
                Some((n, rest)) if n.chars().all(|c| c.is_ascii_digit()) => rest,
                _ => l,
            }
        })
        .collect();
    format!("{first}\n{}", echo.join("\n"))
}

/// Feed tests/mail/clients/`name`.eml to a fresh corpus game: the game, what was filed
/// for red, and the answer.
fn feed(name: &str) -> (Game, String, Sent) {
    let g = corpus_game();
    let raw = std::fs::read(format!("tests/mail/clients/{name}.eml")).expect("eml");
    let out = g.ingest(&[raw]);
    let filed = g.pending();
    let answer = answers(&g, "ann@example.org")
        .into_iter()
        .last()
        .unwrap_or_else(|| panic!("{name}: no answer: {out}\n{}", g.log()));
    (g, filed, answer)
}

/// The shape `name` is filed as the orders its .expect holds, answered "filed, no
/// errors".
fn reads_as_meant(name: &str) -> (String, Sent) {
    let (g, filed, answer) = feed(name);
    let expect =
        std::fs::read_to_string(format!("tests/mail/clients/{name}.expect")).expect("expect");
    let want = checked(&g, &expect);
    assert!(
        want.starts_with("Orders for red, turn 1: 0 errors"),
        "{name}: the .expect itself reads: {want}"
    );
    assert!(
        !filed.is_empty(),
        "{name}: nothing filed; answered {}:\n{}",
        answer.subject,
        answer.body
    );
    assert_eq!(checked(&g, &filed), want, "{name}: filed\n{filed}");
    // The secret, wherever the mail holds it (the welcome quoted below a separator
    // too), is blanked in what is filed, answered and logged.
    for (what, text) in [
        ("filed", &filed),
        ("answered", &answer.body),
        ("logged", &g.log()),
    ] {
        assert!(!text.contains(RED), "{name}: the secret is {what}");
    }
    assert_eq!(
        answer.subject, "[demo] turn 1: filed, no errors",
        "{name}: {}",
        answer.body
    );
    (filed, answer)
}

/// Outlook desktop quotes the welcome below `-----Original
/// Message-----` without `>`; its `secret YOUR-SECRET` was the last secret line, and the
/// mail was refused: "the secret is wrong ... someone else used your address".
#[test]
fn point_6_an_outlook_reply_with_the_history_unquoted_is_read() {
    let (filed, answer) = reads_as_meant("outlook-desktop-unquoted-reply");
    assert!(!answer.body.contains("secret is wrong"), "{}", answer.body);
    // The history is filed as it came, but not read: its placeholder is no secret.
    assert!(filed.contains("-----Original Message-----"), "{filed}");
}

/// Samsung Email's `-------- Original message --------`.
#[test]
fn point_6_a_samsung_email_reply_is_read() {
    reads_as_meant("samsung-email-reply");
}

/// Yahoo's `On …, … wrote:` with the history below it unquoted.
#[test]
fn point_6_a_yahoo_reply_is_read() {
    reads_as_meant("yahoo-reply");
}

/// Outlook for iOS adds `Get Outlook for iOS<…>` (on by
/// default) and quotes the history under a line of `_` and a `From: … Sent: …` block.
#[test]
fn point_7_outlook_for_ios_and_its_signature_line() {
    reads_as_meant("outlook-ios-signature");
}

/// A French attribution (`Le … a écrit :`) above the quote, the
/// orders below it.
#[test]
fn point_7_a_french_attribution_is_no_error() {
    reads_as_meant("thunderbird-fr-attribution");
}

/// A German attribution wrapped over two lines.
#[test]
fn point_7_a_wrapped_german_attribution_is_no_error() {
    reads_as_meant("thunderbird-de-attribution-wrapped");
}

/// Gmail's forward header block above the forwarded orders.
#[test]
fn point_7_a_gmail_forward_of_the_orders_is_read() {
    reads_as_meant("gmail-forward");
}

/// PGP armour (`-----BEGIN PGP SIGNED MESSAGE-----`, `Hash:`, the
/// signature block) and the dash-escaped signature line `- -- `.
#[test]
fn point_7_an_inline_pgp_signed_mail_is_read() {
    reads_as_meant("pgp-inline-signed");
}

/// Full-width `：` and `；` from a phone keyboard.
#[test]
fn point_10_full_width_punctuation_reads_plainly() {
    reads_as_meant("iphone-fullwidth-colon");
}

/// Gmail's plain-text mode wraps at 78 columns: the long last orders
/// are read whole (the consent on D1 stays on D1), and the sign-off stays a sign-off.
#[test]
fn point_2_orders_hard_wrapped_at_78_columns_are_read_whole() {
    let (_, answer) = reads_as_meant("gmail-plaintext-wrap78");
    assert!(answer.body.contains("onto D1"), "{}", answer.body);
    assert!(
        !answer.body.contains("onto your transporters"),
        "the consent is D1's only: {}",
        answer.body
    );
}

/// The orders written into the quoted template of the judge's
/// answer to `template` (inside `> `) are read; before, "no orders", filed as none.
#[test]
fn point_4_orders_written_into_the_quoted_template_are_read() {
    let (filed, answer) = reads_as_meant("reply-into-quoted-template");
    // Only the template was taken out of the quote, not the rest of the judge's mail.
    assert!(filed.contains("> Fill it in and mail it back"), "{filed}");
    assert!(
        !answer.body.contains("No orders were read"),
        "{}",
        answer.body
    );
}

/// A reply to the report: the report's own template quoted back with the
/// orders written into it (a Gmail reply to the report of turn 1) is read; quoted back
/// unchanged under "Thanks", it is no orders, and the subject says so (before: "filed,
/// no errors" over a "no orders" warning).
#[test]
fn point_4_a_reply_into_the_reports_template_and_the_subject_of_no_orders() {
    let g = game("");
    let pending = g.dir.join("pending");
    std::fs::create_dir_all(&pending).expect("mkdir");
    for who in ["red", "yellow"] {
        std::fs::copy(
            format!("games/demo/pending/{who}.txt"),
            pending.join(format!("{who}.txt")),
        )
        .expect("copy");
    }
    let (code, out, err) = support::judge_text(&["turn", g.d()], &[]);
    assert_eq!(code, 0, "{out}{err}");
    let report = answers(&g, "ann@example.org")
        .into_iter()
        .find(|s| s.subject.contains("turn 1: report"))
        .expect("the report of turn 1");
    assert!(report.body.contains("ready to fill"), "{}", report.body);
    // Gmail's reply: the text on top, the report quoted with `> ` below.
    let quote = |edit: &dyn Fn(&str) -> String| -> String {
        report
            .body
            .lines()
            .map(|l| {
                let l = edit(l);
                if l.is_empty() {
                    ">\r\n".to_string()
                } else {
                    format!("> {l}\r\n")
                }
            })
            .collect()
    };
    let secret = g.red.clone();
    let filled = quote(&|l: &str| {
        if l.trim() == "secret YOUR-SECRET" {
            l.replace("YOUR-SECRET", &secret)
        } else if l.trim() == "# move D1: C2" {
            "    move D1: C2".to_string()
        } else {
            l.to_string()
        }
    });
    let reply = |id: &str, top: &str, quoted: &str| {
        mail(
            "ann@example.org",
            id,
            "Content-Type: text/plain; charset=UTF-8\r\n",
            &format!(
                "{top}\r\n\r\nOn Sat, 28 Nov 2026 at 13:06, Judge <judge@example.org> wrote:\r\n\r\n{quoted}"
            ),
        )
    };
    g.ingest(&[reply("filled@x", "Here are my orders.", &filled)]);
    let answer = answers(&g, "ann@example.org")
        .into_iter()
        .rfind(|s| !s.subject.contains(": report"))
        .expect("answer");
    assert_eq!(
        answer.subject, "[demo] turn 2: filed, no errors",
        "{}",
        answer.body
    );
    let filed = g.pending();
    assert!(
        filed.lines().any(|l| l == "    move D1: C2"),
        "the order, read out of the quote: {filed}"
    );
    assert!(answer.body.contains("D1: go to C2"), "{}", answer.body);

    // The template quoted back unchanged: no orders, and the subject says so.
    let unchanged = quote(&|l: &str| l.to_string());
    g.ingest(&[reply(
        "unchanged@x",
        &format!("Thanks!\r\nsecret {secret}"),
        &unchanged,
    )]);
    let answer = answers(&g, "ann@example.org")
        .into_iter()
        .rfind(|s| !s.subject.contains(": report"))
        .expect("answer");
    assert_eq!(
        answer.subject, "[demo] turn 2: filed, no orders read",
        "{}",
        answer.body
    );
    assert!(
        answer.body.contains("No orders were read"),
        "{}",
        answer.body
    );
    assert!(!answer.subject.contains("no errors"));
}

/// docs/orders.md, "Header": a line `pass` gives no orders this turn on purpose. The
/// answer says the file is filed with no errors and what a pass does, never "no orders
/// read" (which reads as a mistake); a file with the header alone is still answered "no
/// orders read", its help naming `pass`; and `pass` beside orders warns that the orders
/// are played. A letter's line that only begins with the word ("Pass my thanks to
/// Bob.") is prose, not a pass.
#[test]
fn a_line_pass_is_answered_as_orders_filed_not_as_none_read() {
    let g = game("");
    let send = |id: &str, body: String| {
        g.ingest(&[mail(
            "ann@example.org",
            id,
            "Content-Type: text/plain; charset=UTF-8\r\n",
            &body,
        )]);
        answers(&g, "ann@example.org")
            .into_iter()
            .rfind(|s| !s.subject.contains(": report"))
            .expect("answer")
    };
    let head = format!("game demo\r\nplayer red\r\nsecret {}\r\nturn 1\r\n", g.red);
    let answer = send("pass@x", format!("Hello judge,\r\n{head}pass\r\n"));
    assert_eq!(
        answer.subject,
        "[demo] turn 1: filed, no errors",
        "{}\n---\n{}",
        answer.body,
        g.pending()
    );
    assert!(
        answer
            .body
            .contains("You pass (line 6): no orders this turn"),
        "{}",
        answer.body
    );
    assert!(
        !answer.body.contains("No orders were read"),
        "{}",
        answer.body
    );
    assert!(!answer.body.contains("warning:"), "{}", answer.body);
    assert!(g.pending().lines().any(|l| l == "pass"), "{}", g.pending());

    // `pass this turn` reads the same.
    let answer = send("pass-turn@x", format!("{head}Pass this turn.\r\n"));
    assert_eq!(
        answer.subject, "[demo] turn 1: filed, no errors",
        "{}",
        answer.body
    );

    // The header alone: "no orders read", and the help names `pass`.
    let answer = send("none@x", head.clone());
    assert_eq!(
        answer.subject, "[demo] turn 1: filed, no orders read",
        "{}",
        answer.body
    );
    assert!(
        answer
            .body
            .contains("a line `pass` says you mean to give none"),
        "{}",
        answer.body
    );

    // Beside orders, `pass` says nothing and the orders are played.
    let answer = send(
        "both@x",
        format!("{head}pass\r\nmovement\r\nmove D1: C3\r\n"),
    );
    assert_eq!(
        answer.subject, "[demo] turn 1: filed, no errors",
        "{}",
        answer.body
    );
    assert!(
        answer.body.contains("`pass` beside orders"),
        "{}",
        answer.body
    );
    assert!(
        answer.body.contains("donkey D1 moved C4 > C3"),
        "{}",
        answer.body
    );

    // A mail of 10,000 of them is one pass, answered in a few lines.
    let answer = send("many@x", format!("{head}{}", "pass\r\n".repeat(10_000)));
    assert_eq!(
        answer.subject, "[demo] turn 1: filed, no errors",
        "{}",
        answer.body
    );
    assert_eq!(
        answer.body.matches("You pass").count(),
        1,
        "{}",
        answer.body
    );
    assert!(answer.body.len() < 2_000, "{}", answer.body.len());

    // A letter's sentence that begins with the word is no pass.
    let answer = send(
        "prose@x",
        format!("{head}Pass my thanks to Bob.\r\nmovement\r\nmove D1: C3\r\n"),
    );
    assert!(!answer.body.contains("`pass`"), "{}", answer.body);
    assert!(
        answer.body.contains("donkey D1 moved C4 > C3"),
        "{}",
        answer.body
    );
}

/// A character no order is written with is named in the error.
#[test]
fn point_10_an_odd_character_is_named() {
    let g = game("");
    let body = format!(
        "game demo\r\nplayer red\r\nsecret {}\r\nturn 1\r\nmovement\r\nmove D1 \u{2192} D4\r\n",
        g.red
    );
    g.ingest(&[mail(
        "ann@example.org",
        "arrow@x",
        "Content-Type: text/plain; charset=UTF-8\r\n",
        &body,
    )]);
    let answer = answers(&g, "ann@example.org")
        .into_iter()
        .rfind(|s| !s.subject.contains(": report"))
        .expect("answer");
    assert!(answer.subject.contains("1 error"), "{}", answer.subject);
    assert!(
        answer.body.contains("U+2192 RIGHTWARDS ARROW"),
        "{}",
        answer.body
    );
}

/// Mail as mail programs write it, in Catan: its reader asks judge-core's letter too.
/// A hard-wrapped offer keeps its `to blue` (before: `to blue` was left out as a
/// sign-off, and the offer went to every player in silence); history below Outlook's
/// separator, a French attribution and PGP armour are left out; full-width `：` reads.
#[test]
fn catan_reads_mail_as_roads_and_boats_does() {
    use pbem_judge::catan::{Colour, Options, check_orders, new_game};
    let names: Vec<String> = ["Ann", "Bob", "Cy"].iter().map(|s| s.to_string()).collect();
    let s = new_game("demo", &names, 3, &Options::default()).expect("game");
    let read = |text: &str| {
        let c = check_orders(&s, Colour::Red, "orders.txt", text);
        // Each order's echo, without the number of its line.
        let echo: Vec<String> = c
            .echo
            .iter()
            .map(|e| {
                e.split_once(": ")
                    .map_or(e.as_str(), |(_, r)| r)
                    .to_string()
            })
            .collect();
        (c.errors(), echo)
    };
    let head = "game demo\nplayer red\nturn 1\nturn\n";
    let whole = read(&format!(
        "{head}if rolled 6 or 8: build city 13\noffer 1 wool, 1 grain for 2 ore to blue\n\nThanks,\nAnn\n"
    ));
    assert!(
        whole.1.iter().any(|e| e.contains("blue")),
        "the offer is blue's: {whole:?}"
    );
    for text in [
        // Gmail's plain-text wrap.
        format!(
            "{head}if rolled 6 or 8: build city 13\noffer 1 wool, 1 grain for 2 ore\nto blue\n\nThanks,\nAnn\n"
        ),
        // Outlook: history unquoted below its separator.
        format!(
            "{head}if rolled 6 or 8: build city 13\noffer 1 wool, 1 grain for 2 ore to blue\n\nThanks,\nAnn\n\n-----Original Message-----\nFrom: Judge <judge@example.org>\nSent: Monday, 30 November 2026 10:00\nTo: Ann\n\n    turn\n    build road 13-18\n    secret YOUR-SECRET\n"
        ),
        // A French attribution above the quote, and PGP armour.
        format!(
            "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n{head}if rolled 6 or 8: build city 13\noffer 1 wool, 1 grain for 2 ore to blue\n\nThanks,\nAnn\n\nLe 30/11/2026 à 10:00, Judge a écrit :\n> build road 13-18\n-----BEGIN PGP SIGNATURE-----\n\niQEz\n=Xq7d\n-----END PGP SIGNATURE-----\n"
        ),
        // A phone's full-width colon.
        format!(
            "{head}if rolled 6 or 8\u{ff1a} build city 13\noffer 1 wool\u{ff0c} 1 grain for 2 ore to blue\n\nThanks,\nAnn\n"
        ),
    ] {
        assert_eq!(read(&text), whole, "{text}");
    }
}
