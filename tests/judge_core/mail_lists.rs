//! A mailing list that rewrites `From:` (`"Ann via Club"
//! <club@lists.example>`, the author in `Reply-To:` or `X-Original-From:`) was refused
//! with no answer. Now a GM may trust a list (`[mail] lists` in game.toml, or judge.toml
//! for a folder of games): its mail is the mail of the player it names, filed only with
//! that player's right secret and answered only to that player's own address. A list
//! not trusted is answered too — to the named player's own address, saying why.
//!
//! The door's three questions: what 10,000 of it cost (10,000 lists, a mail naming
//! thousands of players), what a forged sender can make it do (a forged Reply-To to
//! another player's address, a list mail with a wrong secret, the trusted address used
//! by a stranger), what it tells a rival (nothing: no answer goes to the list, to the
//! mail's own addresses, or says whether a secret was right).

use crate::judge_core::mail_clients::{NOW, RED_SECRET, YELLOW_SECRET, ingest, template};
use crate::support;

use std::path::Path;

const LIST: &str = "club@lists.example";
const TRUST: &str = "lists = [\"club@lists.example\"]\n";

/// A list's mail as Mailman sends it with DMARC munging: From: "NAME via Club" <list>,
/// the author in the headers `author` gives (`Reply-To: …`, `X-Original-From: …`).
fn list_mail(id: &str, author: &str, body: &str) -> Vec<u8> {
    format!(
        "From: Ann Smith via Club <{LIST}>\r\n{author}To: judge@example.org\r\nCc: {LIST}\r\nSubject: [Club] orders\r\nMessage-ID: <{id}@example.org>\r\nList-Id: <club.lists.example>\r\nPrecedence: list\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

fn orders(player: &str, secret: &str) -> String {
    format!(
        "game demo\nplayer {player}\nsecret {secret}\nturn 1\n\nmovement\nmove D1: load 2 boards; D4; unload 2 boards\n"
    )
}

/// No answer goes anywhere but to `to`, and none holds either player's secret.
fn only_to(got: &crate::judge_core::mail_clients::Outcome, to: &str) {
    for (t, a) in got.to.iter().zip(&got.answers) {
        assert_eq!(t, to, "an answer to {t}: {a}");
        assert!(
            !a.contains(RED_SECRET) && !a.contains(YELLOW_SECRET),
            "a secret in an answer: {a}"
        );
    }
}

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    let t = template(tmp.path());
    (tmp, t)
}

/// One mail into a fresh copy of the game (the copy is gone once it is read: the
/// outcome holds what was filed and answered).
fn run(template: &Path, raw: &[u8], extra: &str) -> crate::judge_core::mail_clients::Outcome {
    let dir = tempfile::tempdir().expect("tmp");
    ingest(template, dir.path(), raw, extra)
}

/// Point 8: from a trusted list, with the right secret, the mail is filed as the named
/// player's — whether the list names them in Reply-To (Mailman) or X-Original-From
/// (Google Groups) — and answered to the player's own address alone.
#[test]
fn p8_a_trusted_lists_mail_with_the_right_secret_is_its_players() {
    let (_tmp, t) = setup();
    for (i, author) in [
        "Reply-To: Ann Smith <ann@example.org>\r\n",
        "X-Original-From: Ann Smith <ANN@example.org>\r\n",
        "X-Original-From: \"Smith, Ann\" <ann@example.org>\r\nReply-To: club@lists.example\r\n",
    ]
    .iter()
    .enumerate()
    {
        let got = run(
            &t,
            &list_mail(&format!("ok{i}"), author, &orders("red", RED_SECRET)),
            TRUST,
        );
        let filed: Vec<&str> = got.filed.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(filed, ["red.txt"], "{author}: {}", got.said);
        assert!(got.filed[0].1.contains("move D1: load 2 boards; D4"));
        assert_eq!(got.to, ["ann@example.org"], "{author}");
        assert!(got.answers[0].contains("filed"), "{}", got.answers[0]);
        assert!(
            got.answers[0].contains("mailing list club@lists.example"),
            "the answer says how the mail came: {}",
            got.answers[0]
        );
        only_to(&got, "ann@example.org");
    }
}

/// Point 8: a list the GM does not trust — its mail is refused, nothing filed, and the
/// player it names is told why at their own address (before: no answer at all); never
/// the list, never the address the mail gives.
#[test]
fn p8_an_untrusted_lists_mail_is_answered_to_the_named_players_own_address() {
    let (_tmp, t) = setup();
    // Reply-To with another spelling of Ann's address: the answer goes to the one the GM
    // has, not to the mail's.
    let got = run(
        &t,
        &list_mail(
            "untrusted",
            "Reply-To: Ann <Ann@Example.org>\r\n",
            &orders("red", RED_SECRET),
        ),
        "",
    );
    assert!(got.filed.is_empty(), "{:?}", got.filed);
    assert_eq!(got.to, ["ann@example.org"], "{}", got.said);
    let a = &got.answers[0];
    for words in [
        "refused",
        "not from your address",
        "club@lists.example",
        "[mail] lists",
        "Nothing from it was filed",
    ] {
        assert!(a.contains(words), "{words:?} in {a}");
    }
    assert!(
        got.said.contains("answered to ann@example.org"),
        "{}",
        got.said
    );
    only_to(&got, "ann@example.org");
}

/// Point 8, what it tells a rival: the answer to an untrusted list's mail is the same
/// whether its secret was right, wrong or missing (a rival who forges it learns
/// nothing, and Ann learns only that a mail came in her name).
#[test]
fn p8_the_untrusted_answer_never_says_whether_the_secret_was_right() {
    let (_tmp, t) = setup();
    let answer = |secret: Option<&str>| {
        let body = match secret {
            Some(s) => orders("red", s),
            None => orders("red", "x").replace("secret x\n", ""),
        };
        let got = run(
            &t,
            &list_mail("same", "Reply-To: ann@example.org\r\n", &body),
            "",
        );
        assert!(got.filed.is_empty());
        assert_eq!(got.to, ["ann@example.org"]);
        got.answers[0].clone()
    };
    let right = answer(Some(RED_SECRET));
    assert_eq!(answer(Some("abcd-efgh-jkmn")), right);
    assert_eq!(answer(None), right);
    assert!(!right.to_lowercase().contains("secret is"), "{right}");
}

/// Point 8, a forged sender: through a trusted list, a mail naming Ann (Reply-To or
/// X-Original-From) files nothing without Ann's secret — not with a wrong one, not with
/// Bob's, and not as Bob's orders either — and only Ann is told, at her own address.
#[test]
fn p8_a_forged_reply_to_or_a_wrong_secret_files_nothing() {
    let (_tmp, t) = setup();
    for (i, (author, body, says)) in [
        (
            "Reply-To: ann@example.org\r\n",
            orders("red", "hm4k-7wqz-p2rf"),
            "the secret is wrong",
        ),
        (
            "X-Original-From: ann@example.org\r\n",
            orders("red", YELLOW_SECRET),
            "the secret is wrong",
        ),
        // Bob's own orders and secret, Ann's address in Reply-To: not filed as Bob's.
        (
            "Reply-To: ann@example.org\r\n",
            orders("yellow", YELLOW_SECRET),
            "the orders are for yellow",
        ),
        (
            "Reply-To: ann@example.org\r\n",
            orders("red", "x").replace("secret x\n", ""),
            "the secret is missing",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let got = run(&t, &list_mail(&format!("forged{i}"), author, &body), TRUST);
        assert!(got.filed.is_empty(), "{i}: {:?}", got.filed);
        assert_eq!(got.to, ["ann@example.org"], "{i}: {}", got.said);
        assert!(got.answers[0].contains(says), "{i}: {}", got.answers[0]);
        assert!(
            got.answers[0].contains("someone else wrote in your name")
                || got.answers[0].contains("the orders are for yellow"),
            "{i}: {}",
            got.answers[0]
        );
        only_to(&got, "ann@example.org");
    }
}

/// Point 8, the trusted list's address used by a stranger: with no author header and no
/// `player` line, nothing is filed and nobody is mailed (not the list, not the stranger
/// a Reply-To names); naming a player, it is that player's only with their secret, and
/// only they are told.
#[test]
fn p8_the_trusted_address_used_by_a_stranger_mails_no_stranger() {
    let (_tmp, t) = setup();
    let got = run(
        &t,
        &list_mail(
            "stranger0",
            "Reply-To: eve@elsewhere.example\r\n",
            "movement\nmove D1: load 2 boards; D4\n",
        ),
        TRUST,
    );
    assert!(got.filed.is_empty());
    assert!(got.answers.is_empty(), "{:?} to {:?}", got.answers, got.to);
    assert!(got.said.contains("not answered"), "{}", got.said);
    // A `player` line and a wrong secret: Ann is told, at her own address; Eve never.
    let got = run(
        &t,
        &list_mail(
            "stranger1",
            "Reply-To: eve@elsewhere.example\r\n",
            &orders("red", "abcd-efgh-jkmn"),
        ),
        TRUST,
    );
    assert!(got.filed.is_empty());
    assert_eq!(got.to, ["ann@example.org"]);
    assert!(got.answers[0].contains("the secret is wrong"));
    assert!(got.answers[0].contains("player line"), "{}", got.answers[0]);
    // The same from an untrusted list: not answered at all (it names no player's
    // address, and a `player` line alone never makes a stranger's mail answered).
    let got = run(
        &t,
        &list_mail(
            "stranger2",
            "Reply-To: eve@elsewhere.example\r\n",
            &orders("red", "abcd-efgh-jkmn"),
        ),
        "",
    );
    assert!(got.filed.is_empty());
    assert!(got.answers.is_empty(), "{:?}", got.answers);
}

/// Point 8, what 10,000 of it cost: a game.toml trusting 10,000 lists, and a list mail
/// whose Reply-To names 3,000 addresses, players' among them, is read as any mail is:
/// one player (the first named), one answer, to that player's own address.
#[test]
fn p8_ten_thousand_lists_and_a_reply_to_of_thousands_cost_one_answer() {
    let (_tmp, t) = setup();
    let many: Vec<String> = (0..10_000)
        .map(|i| format!("\"list{i}@lists.example\""))
        .chain([format!("\"{LIST}\"")])
        .collect();
    let trust = format!("lists = [{}]\n", many.join(", "));
    let reply: Vec<String> = (0..3_000)
        .map(|i| match i % 3 {
            0 => "ann@example.org".to_string(),
            1 => "bob@example.org".to_string(),
            _ => format!("x{i}@elsewhere.example"),
        })
        .collect();
    let author = format!("Reply-To: {}\r\n", reply.join(",\r\n "));
    let got = run(
        &t,
        &list_mail("many", &author, &orders("red", RED_SECRET)),
        &trust,
    );
    let filed: Vec<&str> = got.filed.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(filed, ["red.txt"], "{}", got.said);
    assert_eq!(got.to, ["ann@example.org"]);
    only_to(&got, "ann@example.org");
}

/// Point 8: a list that is no mail address, or the judge's own or a player's address,
/// is the GM's slip, named before anything is read.
#[test]
fn p8_a_list_that_is_no_lists_address_is_a_slip() {
    let (_tmp, t) = setup();
    for (bad, says) in [
        ("lists = [\"not an address\"]\n", "[mail] lists"),
        (
            "lists = [\"ann@example.org\"]\n",
            "the judge's own address or a player's",
        ),
        (
            "lists = [\"judge@example.org\"]\n",
            "the judge's own address or a player's",
        ),
    ] {
        let dir = tempfile::tempdir().expect("tmp");
        let game = crate::judge_core::mail_clients::game_from(&t, dir.path(), bad);
        let file = dir.path().join("orders.txt");
        std::fs::write(&file, orders("red", RED_SECRET)).expect("write");
        let (code, out, err) = support::judge_text(
            &[
                "check",
                game.to_str().expect("utf-8"),
                file.to_str().expect("utf-8"),
            ],
            &[("JUDGE_NOW", NOW)],
        );
        assert_ne!(code, 0, "{bad}: {out}");
        assert!(
            err.contains(says) || out.contains(says),
            "{bad}: {out}{err}"
        );
    }
}

/// Point 8, judge.toml's side: a folder's `[mail] lists` that names no address, or the
/// judge's own, is the GM's slip, named (with the file) before any mail is read, as
/// game.toml's is; before, it was taken as written.
#[test]
fn p8_a_folders_list_that_is_no_lists_address_is_a_slip() {
    let tmp = tempfile::tempdir().expect("tmp");
    for (bad, says) in [
        ("not an address", "[mail] lists names `not an address`"),
        ("judge@example.org", "the judge's own address"),
    ] {
        let root = tmp.path().join(bad.replace([' ', '@', '.'], "-"));
        std::fs::create_dir_all(&root).expect("games");
        std::fs::write(
            root.join("judge.toml"),
            format!(
                "[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"{}\"\nlists = [\"{bad}\"]\n",
                tmp.path().join("pickup").display()
            ),
        )
        .expect("judge.toml");
        let (code, out, err) = support::judge_text(
            &["turn", "--all", root.to_str().expect("utf-8"), "--no-send"],
            &[("JUDGE_NOW", NOW)],
        );
        assert_eq!(code, 1, "{bad}: {out}{err}");
        assert!(
            err.contains(says) && err.contains("judge.toml"),
            "{bad}: {err}"
        );
    }
}

/// Point 8 in a folder of games: judge.toml's `[mail] lists` is trusted by its games,
/// and a list mail naming a player goes to that player's game (before: a stranger's,
/// kept and never answered).
#[test]
fn p8_a_folders_trusted_list_routes_to_the_players_game() {
    use pbem_judge::pbem::house;
    let (tmp, t) = setup();
    let root = tmp.path().join("games");
    let maildir = tmp.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("maildir");
    }
    std::fs::create_dir_all(tmp.path().join("pickup")).expect("pickup");
    std::fs::create_dir_all(&root).expect("games");
    std::fs::write(
        root.join("judge.toml"),
        format!(
            "[mail]\nfrom = \"judge@example.org\"\npickup = \"{}\"\nmaildir = \"{}\"\n{TRUST}",
            tmp.path().join("pickup").display(),
            maildir.display()
        ),
    )
    .expect("judge.toml");
    support::copy_dir(&t, &root.join("demo"), &|_| true);
    std::fs::write(
        maildir.join("new/1795680000.M1P1.test"),
        list_mail(
            "folder",
            "X-Original-From: Ann <ann@example.org>\r\n",
            &orders("red", RED_SECRET),
        ),
    )
    .expect("write");
    let h = pbem_judge::archive::house::House::open(&root).expect("the folder");
    let now = humantime::parse_rfc3339(NOW).expect("now");
    let opts = house::Options {
        turn: pbem_judge::pbem::turn::Options {
            force: false,
            read_only_mail: false,
        },
        wait: std::time::Duration::from_secs(5),
        commit: false,
        budget: 1 << 20,
    };
    house::run(&h, pbem_judge::games::registry(), now, opts).expect("a pass");
    let filed = std::fs::read_to_string(root.join("demo/pending/red.txt")).expect("filed");
    assert!(filed.contains("move D1: load 2 boards; D4"), "{filed}");
}

/// Point 8, the GM's way out: a list's mail refused while the list was not trusted is
/// filed once the GM trusts it, with `judge ingest --again` (its secret was checked right
/// when it came; the kept copy keeps the headers that name its player).
#[test]
fn p8_a_list_mail_refused_before_the_gm_trusted_the_list_is_filed_again() {
    let (tmp, t) = setup();
    let dir = tmp.path().join("again");
    let game = crate::judge_core::mail_clients::game_from(&t, &dir, "");
    let mail = dir.join("list.eml");
    std::fs::write(
        &mail,
        list_mail(
            "again",
            "Reply-To: ann@example.org\r\n",
            &orders("red", RED_SECRET),
        ),
    )
    .expect("write");
    let g = game.to_str().expect("utf-8");
    let (_, out, err) = support::judge_text(
        &["ingest", g, mail.to_str().expect("utf-8")],
        &[("JUDGE_NOW", NOW)],
    );
    assert!(out.contains("refused"), "{out}{err}");
    assert!(!game.join("pending/red.txt").exists());
    let kept = std::fs::read_to_string(game.join("mail/inbox/000001.eml")).expect("kept");
    assert!(kept.contains("Reply-To: ann@example.org"), "{kept}");
    assert!(!kept.contains(RED_SECRET), "{kept}");
    let toml = std::fs::read_to_string(game.join("game.toml")).expect("toml");
    std::fs::write(
        game.join("game.toml"),
        toml.replace("[mail]\n", &format!("[mail]\n{TRUST}")),
    )
    .expect("write");
    let (code, out, err) =
        support::judge_text(&["ingest", g, "--again", "1"], &[("JUDGE_NOW", NOW)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("accepted: red's orders"), "{out}{err}");
    let filed = std::fs::read_to_string(game.join("pending/red.txt")).expect("filed");
    assert!(filed.contains("move D1: load 2 boards; D4"), "{filed}");
}

/// Point 8, a flood: forty mails from strangers' addresses, each naming Ann in Reply-To
/// (an untrusted list, or a forger), cost Ann what a flood forged from her own address
/// costs her: at most the refusals answered to one address in an hour, then one note.
#[test]
fn p8_a_flood_naming_a_player_costs_them_a_few_mails() {
    let (tmp, t) = setup();
    let dir = tmp.path().join("flood");
    let game = crate::judge_core::mail_clients::game_from(&t, &dir, "");
    let mut files = Vec::new();
    for i in 0..40 {
        let f = dir.join(format!("m{i}.eml"));
        let raw = format!(
            "From: Eve {i} <eve{i}@elsewhere.example>\r\nReply-To: ann@example.org\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <flood{i}@example.org>\r\n\r\n{}",
            orders("red", "abcd-efgh-jkmn").replace('\n', "\r\n")
        );
        std::fs::write(&f, raw).expect("write");
        files.push(f.to_str().expect("utf-8").to_string());
    }
    let mut args = vec!["ingest", game.to_str().expect("utf-8")];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = support::judge_text(&args, &[("JUDGE_NOW", NOW)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!game.join("pending/red.txt").exists());
    let sent: Vec<String> = std::fs::read_dir(dir.join("pickup"))
        .expect("pickup")
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).expect("a mail"))
        .collect();
    let limit = pbem_judge::pbem::intake::REFUSALS_PER_HOUR;
    assert!(
        !sent.is_empty() && sent.len() <= limit + 1,
        "{} mails sent",
        sent.len()
    );
    for m in &sent {
        assert!(m.contains("To: Ann <ann@example.org>"), "{m}");
    }
}
