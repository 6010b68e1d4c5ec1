//! Deadlines, replacing orders, dry runs and commits, with the clock injected
//! through JUDGE_NOW and mail going to a pickup folder.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

fn judge(args: &[&str], now: &str) -> (i32, String, String) {
    support::judge_text(args, &[("JUDGE_NOW", now)])
}

const BEFORE: &str = "2026-12-01T12:00:00Z";
const AFTER: &str = "2026-12-01T19:00:00Z";

/// A game with a deadline of 2026-12-01 18:00 for turn 1, weekly after; returns the
/// folder and red's secret.
fn game(tmp: &Path, late: &str) -> (PathBuf, String) {
    let dir = tmp.join("demo");
    support::new_demo(&dir, "Ann", &[("JUDGE_NOW", BEFORE)]);
    let (red, _) = support::new_secrets(&dir, &[("JUDGE_NOW", BEFORE)]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str(&format!(
        "\n[mail]\nfrom = \"judge@example.org\"\npickup = \"pickup\"\n\n[schedule]\nfirst_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"7days\"\nlate = \"{late}\"\n"
    ));
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    support::ignore_pickup(&dir);
    (dir, red)
}

fn mail(id: &str, body: &str) -> Vec<u8> {
    format!("From: ann@example.org\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <{id}@test>\r\n\r\n{body}").into_bytes()
}

fn ingest(dir: &Path, raw: &[u8], now: &str) -> String {
    let f = dir.parent().expect("parent").join("m.eml");
    std::fs::write(&f, raw).expect("write");
    let (code, out, err) = judge(
        &[
            "ingest",
            dir.to_str().expect("utf-8"),
            f.to_str().expect("utf-8"),
        ],
        now,
    );
    assert_eq!(code, 0, "{out}{err}");
    out
}

fn orders(secret: &str, moves: &str) -> String {
    format!("game demo\nplayer red\nsecret {secret}\nturn 1\nmovement\n{moves}\n")
}

/// A later valid submission before the deadline replaces the earlier one; both mails are
/// kept. judge turn refuses before the deadline and plays after it; a late mail is
/// refused.
#[test]
fn deadlines_and_replacements() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let d = dir.to_str().expect("utf-8");
    assert!(
        ingest(&dir, &mail("a", &orders(&red, "move D1: C3")), BEFORE)
            .contains("accepted: red's orders for turn 1 (0 errors")
    );
    let second = ingest(&dir, &mail("b", &orders(&red, "move D2: D3")), BEFORE);
    assert!(second.contains("replacing earlier ones"), "{second}");
    let filed = std::fs::read_to_string(dir.join("pending/red.txt")).expect("pending");
    assert!(filed.contains("move D2: D3") && !filed.contains("move D1: C3"));
    assert!(filed.contains("secret [secret]") && !filed.contains(&red));
    assert_eq!(
        std::fs::read_dir(dir.join("mail/inbox"))
            .expect("inbox")
            .count(),
        2,
        "both mails kept"
    );

    let (code, _, err) = judge(&["status", d], BEFORE);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = judge(&["turn", d], BEFORE);
    assert_eq!(code, 0, "nothing to do yet is not a failure: {err}");
    assert!(
        out.contains("Nothing to play yet: turn 1 is due 2026-12-01 at 18:00:00 UTC"),
        "{out}"
    );
    let (code, out, err) = judge(&["turn", d], AFTER);
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.join("turns/001/orders/red.txt").is_file());
    let (code, out, err) = judge(&["turn", d], AFTER);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("turn 2 is due 2026-12-08 at 18:00:00 UTC"),
        "never twice: turn 2 is due a week later: {out}"
    );
    assert!(!dir.join("turns/002").exists());
    // Late for turn 2 (its deadline is 2026-12-08 18:00): refused.
    let late = ingest(
        &dir,
        &mail(
            "c",
            &orders(&red, "move D1: C4").replace("turn 1", "turn 2"),
        ),
        "2026-12-09T10:00:00Z",
    );
    assert!(
        late.contains("refused: it arrived 2026-12-09 at 10:00:00 UTC, after the deadline for turn 2 (2026-12-08 at 18:00:00 UTC)"),
        "{late}"
    );
}

/// With `late = "hold"`, late orders are kept for the turn after, and used then.
#[test]
fn late_orders_can_be_held() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "hold");
    let d = dir.to_str().expect("utf-8");
    let out = ingest(&dir, &mail("late", &orders(&red, "move D1: C3")), AFTER);
    assert!(out.contains("held: red's late orders, for turn 2"), "{out}");
    assert!(!dir.join("pending/red.txt").exists());
    let (code, _, err) = judge(&["turn", d, "--force"], AFTER);
    assert_eq!(code, 0, "{err}");
    assert!(
        !dir.join("turns/001/orders/red.txt").exists(),
        "not used for turn 1"
    );
    assert!(dir.join("pending/red.txt").is_file(), "waiting for turn 2");
    // Checked again against the turn they will run in, and the player told.
    let answer =
        std::fs::read_to_string(dir.join("pickup/held-002-red.eml")).expect("a fresh answer");
    assert!(
        answer.contains("Subject: [demo] turn 2: your held orders are filed"),
        "{answer}"
    );
    assert!(
        answer.contains("checked again against the new position"),
        "{answer}"
    );
}

/// --dry-run plays the turn in a scratch copy: the game is unchanged and nothing sent.
#[test]
fn a_dry_run_changes_nothing() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let d = dir.to_str().expect("utf-8");
    ingest(&dir, &mail("a", &orders(&red, "move D1: C3")), BEFORE);
    let before = std::fs::read_dir(&dir).expect("dir").count();
    let (code, out, err) = judge(&["turn", d, "--dry-run"], AFTER);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Dry run") && out.contains("ROADS & BOATS  --  demo  --  turn 1"),
        "{out}"
    );
    assert!(!dir.join("turns/001").exists());
    assert!(dir.join("pending/red.txt").is_file());
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), before);
    let pickup = dir.join("pickup");
    let sent_before = std::fs::read_dir(&pickup).map(|d| d.count()).unwrap_or(0);
    assert_eq!(sent_before, 1, "only the acknowledgement, sent at ingest");
}

/// --commit commits the new turn to git.
#[test]
fn commit_makes_a_git_commit() {
    let tmp = tempfile::tempdir().expect("tmp");
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(tmp.path())
            .args(args)
            .output()
            .expect("git")
    };
    assert!(git(&["init", "-q"]).status.success());
    assert!(
        git(&["config", "user.email", "gm@example.org"])
            .status
            .success()
    );
    assert!(git(&["config", "user.name", "GM"]).status.success());
    let (dir, red) = game(tmp.path(), "refuse");
    ingest(&dir, &mail("a", &orders(&red, "move D1: C3")), BEFORE);
    let (code, out, err) = judge(&["turn", dir.to_str().expect("utf-8"), "--commit"], AFTER);
    assert_eq!(code, 0, "{out}{err}");
    let log = String::from_utf8(git(&["log", "--oneline"]).stdout).expect("utf-8");
    assert!(log.contains("demo: turn 1"), "{log}");
    let files = String::from_utf8(git(&["show", "--stat", "HEAD"]).stdout).expect("utf-8");
    assert!(files.contains("turns/001/state.json"), "{files}");
}

/// The report says when the next orders are due.
#[test]
fn the_report_names_the_next_deadline() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    ingest(&dir, &mail("a", &orders(&red, "move D1: C3")), BEFORE);
    let (code, _, err) = judge(&["turn", dir.to_str().expect("utf-8")], AFTER);
    assert_eq!(code, 0, "{err}");
    let report = std::fs::read_to_string(dir.join("turns/001/report.txt")).expect("report");
    assert!(
        report.contains("Orders for turn 2 are due 2026-12-08 at 18:00:00 UTC."),
        "{}",
        &report[..400]
    );
}

/// Write a mail into a Maildir as a delivery agent would, named for its delivery time.
fn deliver(maildir: &Path, at: &str, n: u32, raw: &[u8]) {
    let secs = humantime::parse_rfc3339(at)
        .expect("time")
        .duration_since(std::time::UNIX_EPOCH)
        .expect("epoch")
        .as_secs();
    std::fs::create_dir_all(maildir.join("new")).expect("new");
    std::fs::create_dir_all(maildir.join("cur")).expect("cur");
    std::fs::write(maildir.join(format!("new/{secs}.M{n}P1.host")), raw).expect("write");
}

/// A deadline is judged by when the mail arrived. Both mails are read at
/// 18:03, after the 18:00 deadline: the one delivered at 17:59:30 is on time, the one
/// delivered at 18:00:30 is late; a Received: stamp counts when the mailbox has none.
#[test]
fn p1_a_mail_is_on_time_by_its_delivery_not_by_when_it_is_read() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let md = tmp.path().join("Maildir");
    deliver(
        &md,
        "2026-12-01T17:59:30Z",
        1,
        &mail("early", &orders(&red, "move D1: C3")),
    );
    deliver(
        &md,
        "2026-12-01T18:00:30Z",
        2,
        &mail("late", &orders(&red, "move D2: D3")),
    );
    let (code, out, err) = judge(
        &[
            "ingest",
            dir.to_str().expect("utf-8"),
            "--maildir",
            md.to_str().expect("utf-8"),
        ],
        "2026-12-01T18:03:00Z",
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].contains("accepted: red's orders for turn 1"),
        "{out}"
    );
    assert!(
        lines[1].contains("refused: it arrived 2026-12-01 at 18:00:30 UTC, after the deadline"),
        "{out}"
    );
    let log = std::fs::read_to_string(dir.join("mail/log.jsonl")).expect("log");
    assert!(
        log.contains(r#""arrived":"2026-12-01T17:59:30Z","arrived_by":"maildir""#),
        "{log}"
    );
    // An .eml has no mailbox time: the topmost Received: stamp is used.
    let received = format!(
        "Received: from mx by judge; Tue, 1 Dec 2026 17:58:00 +0000\r\n{}",
        String::from_utf8(mail("rcvd", &orders(&red, "move D1: C3"))).expect("utf-8")
    );
    let out = ingest(&dir, received.as_bytes(), "2026-12-01T18:05:00Z");
    assert!(out.contains("accepted"), "{out}");
}

/// Before the deadline a run files mail, answers at once and exits 0 saying
/// there is nothing to do yet; the exit codes are in --help.
#[test]
fn p2_a_run_before_the_deadline_answers_at_once_and_exits_0() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let md = tmp.path().join("Maildir");
    deliver(&md, BEFORE, 1, &mail("a", &orders(&red, "move D1: C3")));
    let toml = dir.join("game.toml");
    let t = std::fs::read_to_string(&toml).expect("toml").replace(
        "pickup = \"pickup\"",
        &format!("pickup = \"pickup\"\nmaildir = \"{}\"", md.display()),
    );
    std::fs::write(&toml, t).expect("toml");
    let (code, out, err) = judge(&["turn", dir.to_str().expect("utf-8")], BEFORE);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("accepted: red's orders for turn 1"), "{out}");
    assert!(out.contains("sent 1 mail"), "answered at once: {out}");
    assert!(
        out.contains("Nothing to play yet: turn 1 is due 2026-12-01 at 18:00:00 UTC, in 6h. Orders from red; waiting for yellow."),
        "{out}"
    );
    let (_, help, _) = judge(&["turn", "--help"], BEFORE);
    for line in [
        "0  done, or nothing to do yet",
        "1  your input needs fixing",
        "3  something failed that may work later",
        "4  another judge command is changing the game",
    ] {
        assert!(help.contains(line), "{help}");
    }
}

/// The game's name is the archive's own, whatever its folder is
/// called or however it is given.
#[test]
fn p4_the_games_name_is_the_archives_not_the_folders() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let renamed = tmp.path().join("copy-of-the-game");
    std::fs::rename(&dir, &renamed).expect("rename");
    std::fs::write(
        tmp.path().join("m.eml"),
        mail("a", &orders(&red, "move D1: C3")),
    )
    .expect("write");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_judge"))
            .current_dir(&renamed)
            .args(args)
            .env("JUDGE_NOW", BEFORE)
            .output()
            .expect("judge");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, out) = run(&["show", "."]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("demo (Roads & Boats)"), "{out}");
    let (code, out) = run(&["ingest", ".", "../m.eml"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("accepted: red's orders for turn 1"), "{out}");
}

/// A command that fails writes nothing; a report can be sent again.
#[test]
fn p5_a_failed_command_writes_nothing_and_a_report_is_sent_again() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("demo");
    support::new_demo(&dir, "Ann", &[]);
    let (red, _) = support::new_secrets(&dir, &[]);
    let before: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    std::fs::write(
        tmp.path().join("m.eml"),
        mail("a", &orders(&red, "move D1: C3")),
    )
    .expect("write");
    let (code, _, err) = judge(
        &[
            "ingest",
            dir.to_str().expect("utf-8"),
            tmp.path().join("m.eml").to_str().expect("utf-8"),
        ],
        BEFORE,
    );
    assert_eq!(code, 1);
    assert!(err.contains("no [mail] settings"), "{err}");
    let after: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(before, after, "nothing new: {after:?}");
    assert!(!dir.join("pending").exists() && !dir.join("mail").exists());

    let (dir, red) = game(&tmp.path().join("b"), "refuse");
    ingest(&dir, &mail("a", &orders(&red, "move D1: C3")), BEFORE);
    let d = dir.to_str().expect("utf-8");
    assert_eq!(judge(&["turn", d], AFTER).0, 0);
    let (code, out, err) = judge(&["mail", d, "--resend", "red", "--turn", "1"], AFTER);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("queued turn 1's report for red again"),
        "{out}"
    );
    let reports = std::fs::read_dir(dir.join("pickup"))
        .expect("pickup")
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("report-001-red")
        })
        .count();
    assert_eq!(reports, 2, "the report and its second copy");
}

/// The GM changes [schedule] after a turn: replay still finds it identical,
/// because the turn keeps what its report showed. A real difference is named with its
/// file and first differing line.
#[test]
fn p6_replay_survives_a_schedule_change_and_names_a_difference() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let d = dir.to_str().expect("utf-8");
    ingest(&dir, &mail("a", &orders(&red, "move D1: C3")), BEFORE);
    assert_eq!(judge(&["turn", d], AFTER).0, 0);
    let toml = dir.join("game.toml");
    let t = std::fs::read_to_string(&toml)
        .expect("toml")
        .replace("every = \"7days\"", "every = \"3days\"");
    std::fs::write(&toml, t).expect("toml");
    let (code, out, err) = judge(&["replay", d], AFTER);
    assert_eq!(code, 0, "{out}{err}");
    let report = dir.join("turns/001/report.txt");
    let text = std::fs::read_to_string(&report)
        .expect("report")
        .replace("Move order", "Move ordre");
    std::fs::write(&report, text).expect("write");
    let (code, out, _) = judge(&["replay", d], AFTER);
    assert_eq!(code, 1);
    assert!(
        out.contains("turn 1: report.txt differs from line 7: the archive has \"I. Move ordre\", the replay \"I. Move order\""),
        "{out}"
    );
}

/// A player's report shows what became of every line of their orders, with
/// lines left out and why, and ends with the header of their next orders; answers say
/// what happened in the subject, with the deadline, and a right secret is never called
/// wrong.
#[test]
fn p8_what_players_receive() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let d = dir.to_str().expect("utf-8");
    ingest(
        &dir,
        &mail("a", &orders(&red, "move D1: C3\nmove D2: load 2 bords; D3")),
        BEFORE,
    );
    let pickup = dir.join("pickup");
    let ack = std::fs::read_to_string(pickup.join("ack-000001.eml")).expect("ack");
    assert!(
        ack.contains("Subject: [demo] turn 1: filed, 1 error"),
        "{ack}"
    );
    assert!(ack.contains("due by 2026-12-01 at 18:00:00 UTC"), "{ack}");
    // A refusal for the wrong turn, with the right secret, does not doubt the secret.
    let out = ingest(
        &dir,
        &mail(
            "b",
            &orders(&red, "move D1: C3").replace("turn 1", "turn 7"),
        ),
        BEFORE,
    );
    assert!(out.contains("refused: the orders are for turn 7"), "{out}");
    let refusal = std::fs::read_to_string(pickup.join("ack-000002.eml")).expect("refusal");
    assert!(!refusal.contains("secret"), "{refusal}");
    assert_eq!(judge(&["turn", d], AFTER).0, 0);
    let (_, mine, _) = judge(&["report", d, "--turn", "1", "--player", "red"], AFTER);
    assert!(mine.contains("II. Your orders"), "{mine}");
    assert!(
        mine.contains("line 6: move D1: C3\n    + donkey D1 moved C4 > C3"),
        "{mine}"
    );
    assert!(
        mine.contains("line 7: move D2: load 2 bords; D3\n    ! left out: `bords` is not a good"),
        "{mine}"
    );
    assert!(
        mine.ends_with("    game demo\n    player red\n    turn 2\n    secret YOUR-SECRET\n"),
        "{mine}"
    );
    let everyone = std::fs::read_to_string(dir.join("turns/001/report.txt")).expect("report");
    assert!(
        !everyone.contains("Your orders"),
        "the public report has no one's own part"
    );
}

/// Status per player; a deadline set to a time; a welcome mail per player.
#[test]
fn p9_the_gms_daily_tools() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let d = dir.to_str().expect("utf-8");
    ingest(
        &dir,
        &mail("a", &orders(&red, "move D1: C3\nmove D2: load 2 bords; D3")),
        "2026-11-30T09:00:00Z",
    );
    let (code, out, err) = judge(&["status", d], BEFORE);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("red     Ann          orders in, arrived 2026-11-30 at 09:00:00 UTC, 1 error"),
        "{out}"
    );
    assert!(out.contains("yellow  Bob          no orders yet"), "{out}");
    let (code, out, err) = judge(&["deadline", d, "--at", "2026-12-02T12:00:00Z"], BEFORE);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("from 2026-12-01 at 18:00:00 UTC to 2026-12-02 at 12:00:00 UTC"),
        "{out}"
    );
    let (_, out, _) = judge(&["turn", d], AFTER);
    assert!(
        out.contains("turn 1 is due 2026-12-02 at 12:00:00 UTC"),
        "{out}"
    );
    let (code, out, err) = judge(&["secret", d, "yellow", "--mail"], BEFORE);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("a new secret, sent in a welcome mail"),
        "{out}"
    );
    let welcome = std::fs::read_dir(dir.join("pickup"))
        .expect("pickup")
        .flatten()
        .find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("welcome-yellow")
        })
        .expect("the welcome mail");
    let text = std::fs::read_to_string(welcome.path()).expect("read");
    assert!(
        text.contains("Subject: [demo] welcome: you play yellow"),
        "{text}"
    );
    let kept = std::fs::read_to_string(dir.join("sent").join(welcome.file_name())).expect("kept");
    assert!(
        kept.contains("[secret]"),
        "the judge's copy has the secret blanked"
    );
}

/// A reader that stops reading ends the run quietly.
#[test]
fn p11_a_closed_pipe_ends_quietly() {
    let out = Command::new("bash")
        .args([
            "-c",
            &format!(
                "set -o pipefail; {} report games/two-rivers-2p --format svg | head -c 10 >/dev/null",
                env!("CARGO_BIN_EXE_judge")
            ),
        ])
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Shell completions and a man page, made from the command line itself.
#[test]
fn p12_completions_and_a_man_page() {
    let (code, bash, _) = judge(&["completions", "bash"], BEFORE);
    assert_eq!(code, 0);
    assert!(
        bash.contains("_judge()") && bash.contains("ingest"),
        "{bash}"
    );
    let (code, man, _) = judge(&["man"], BEFORE);
    assert_eq!(code, 0);
    assert!(
        man.contains(".TH judge 1") && man.contains("deadline"),
        "{man}"
    );
}

/// A scenario without fixed homes begins with a set-up round by mail. In the
/// starting sequence each player mails a `home` line; the choice is checked and answered,
/// the next player told it is their turn; a player who misses the deadline takes the
/// default; the last choice writes turn 0, and replay makes the whole round again.
#[test]
fn p11_15_homes_are_chosen_by_mail_before_turn_1() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("og");
    let d = dir.to_str().expect("utf-8");
    let now = "2026-11-28T00:00:00Z";
    let (code, out, err) = judge(
        &[
            "new",
            d,
            "--scenario",
            "tests/orders/setup-position.toml",
            "--seed",
            "3",
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Bob:bob@example.org",
        ],
        now,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("set-up round")
            && out.contains("the players choose their homes")
            && out.contains("red is first"),
        "{out}"
    );
    assert!(
        !dir.join("turns").exists(),
        "no turn 0 until homes are chosen"
    );
    let (red, yellow) = support::new_secrets(&dir, &[("JUDGE_NOW", now)]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str("\n[mail]\nfrom = \"judge@example.org\"\npickup = \"pickup\"\n\n[schedule]\nfirst_deadline = \"2026-12-10T18:00:00Z\"\nevery = \"2days\"\n");
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    support::ignore_pickup(&dir);
    let (_, status, _) = judge(&["status", d], now);
    assert!(
        status.contains("red     chooses now")
            && status.contains("red's choice is due by 2026-11-30 at 00:00:00 UTC"),
        "{status}"
    );
    let choice = |id: &str, who: &str, secret: &str, home: &str| {
        format!("From: {who}@example.org\r\nSubject: home\r\nMessage-ID: <{id}@t>\r\n\r\nHi judge,\ngame og\nplayer {}\nsecret {secret}\nhome {home}\n", if who == "ann" { "red" } else { "yellow" }).into_bytes()
    };
    // Red's choice, with a greeting: filed, then taken by the next run.
    let out = ingest(
        &dir,
        &choice("r", "ann", &red, "C4"),
        "2026-11-28T10:00:00Z",
    );
    assert!(
        out.contains("accepted: red's choice for the set-up round"),
        "{out}"
    );
    let (code, out, err) = judge(&["turn", d], "2026-11-28T10:05:00Z");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("set-up step 1: red chose C4 as home. yellow chooses next."),
        "{out}"
    );
    let told =
        std::fs::read_to_string(dir.join("pickup/setup-001-yellow.eml")).expect("yellow told");
    assert!(
        told.contains("Subject: [og] set-up: your choice next"),
        "{told}"
    );
    // Yellow asks for D4, next to red's C4: refused with the reason; nothing changes.
    let out = ingest(
        &dir,
        &choice("y1", "bob", &yellow, "D4"),
        "2026-11-28T11:00:00Z",
    );
    assert!(out.contains("accepted: yellow's choice"), "{out}");
    let (_, out, _) = judge(&["turn", d], "2026-11-28T11:05:00Z");
    assert!(out.contains("yellow's choice was refused"), "{out}");
    assert!(!dir.join("setup/002").exists());
    // Then says nothing: at the deadline, two days after red's choice, the default.
    let (_, out, _) = judge(&["turn", d], "2026-11-30T10:05:00Z");
    assert!(
        out.contains("yellow sent no valid choice in time and takes the default home H3"),
        "{out}"
    );
    assert!(out.contains("turn 0 is written"), "{out}");
    assert!(dir.join("turns/000/state.json").is_file());
    let (code, out, err) = judge(&["replay", d], "2026-11-30T10:06:00Z");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("turn 0: identical"), "{out}");
    let (_, show, _) = judge(&["show", d], "2026-11-30T10:06:00Z");
    assert!(
        show.contains("home C4") && show.contains("home H3"),
        "{show}"
    );
}

/// The text of a mail the judge wrote into the pickup folder, decoded.
fn body_of(path: &Path) -> String {
    let raw = std::fs::read(path).expect("mail");
    let m = mail_parser::MessageParser::default()
        .parse(&raw)
        .expect("a mail");
    m.body_text(0).unwrap_or_default().replace("\r\n", "\n")
}

/// A game that begins with Jumpstart's auction says so — `judge new`, the
/// welcome mail and the mail asking the next bidder all explain the auction and give a
/// `bid` line to send, never a `home` line — and `judge show --json` prints JSON during
/// the auction too.
#[test]
fn a_jumpstart_game_explains_its_auction_and_shows_json() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("duel");
    let d = dir.to_str().expect("utf-8");
    let now = "2026-11-28T00:00:00Z";
    let (code, out, err) = judge(
        &[
            "new",
            d,
            "--scenario",
            "jumpstart-duel",
            "--seed",
            "3",
            "--player",
            "Ann:ann@example.org",
            "--player",
            "Bob:bob@example.org",
        ],
        now,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("bid for the starting lots") && !out.contains("home"),
        "{out}"
    );
    let (code, json, err) = judge(&["show", d, "--json"], now);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let first = v["setup"]["next"]
        .as_str()
        .expect("a next bidder")
        .to_string();
    assert_eq!(v["setup"]["step"], 0, "{json}");
    assert!(v["setup"]["round"]["auction"].is_object(), "{json}");
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str("\n[mail]\nfrom = \"judge@example.org\"\npickup = \"pickup\"\n\n[schedule]\nfirst_deadline = \"2026-12-10T18:00:00Z\"\nevery = \"2days\"\n");
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    support::ignore_pickup(&dir);
    let (code, out, err) = judge(&["secret", d, "--mail"], now);
    assert_eq!(code, 0, "{out}{err}");
    for (colour, who) in [("red", "ann"), ("yellow", "bob")] {
        let welcome = std::fs::read_dir(dir.join("pickup"))
            .expect("pickup")
            .map(|e| e.expect("entry").path())
            .find(|p| p.to_string_lossy().contains(&format!("welcome-{colour}")))
            .expect("a welcome mail");
        let body = body_of(&welcome);
        assert!(
            body.contains("bid for the starting lots")
                && body.contains("`bid PRICE on lot N`")
                && body.contains(&format!("    player {colour}\n    secret "))
                && body.contains("    bid 0 on lot 1\n")
                && !body.contains("home"),
            "{who}'s welcome:\n{body}"
        );
        assert_eq!(
            body.contains("You are first"),
            colour == first,
            "{who}'s welcome:\n{body}"
        );
    }
    // The first bidder misses the deadline: the default bid, and the next is asked, in
    // the auction's words.
    let (code, out, err) = judge(&["turn", d], "2026-11-30T00:05:00Z");
    assert_eq!(code, 0, "{out}{err}");
    let second = if first == "red" { "yellow" } else { "red" };
    let asked = body_of(&dir.join(format!("pickup/setup-001-{second}.eml")));
    assert!(
        asked.contains("It is your turn")
            && asked.contains("`bid PRICE on lot N`")
            && asked.contains("    bid 0 on lot 2\n"),
        "{asked}"
    );
    let (code, json, err) = judge(&["show", d, "--json"], "2026-11-30T00:06:00Z");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["setup"]["next"], second, "{json}");
}

/// Held late orders, once filed for the next turn, are shown by `judge
/// status` as what they are (not "put there by hand"); their check again does not warn
/// of a missing `turn` line the player did write (the judge set it to the turn they are
/// now for), and the orders played say that turn.
#[test]
fn held_orders_are_named_as_held_and_keep_a_turn_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "hold");
    let d = dir.to_str().expect("utf-8");
    let out = ingest(&dir, &mail("late", &orders(&red, "move D1: C3")), AFTER);
    assert!(out.contains("held: red's late orders, for turn 2"), "{out}");
    let (code, _, err) = judge(&["turn", d, "--force"], AFTER);
    assert_eq!(code, 0, "{err}");
    let answer = body_of(&dir.join("pickup/held-002-red.eml"));
    assert!(
        !answer.contains("no `turn` line") && !answer.contains("add `turn"),
        "{answer}"
    );
    let pending = std::fs::read_to_string(dir.join("pending/red.txt")).expect("pending");
    assert!(pending.contains("\nturn 2\n"), "{pending}");
    let (code, status, err) = judge(&["status", d], AFTER);
    assert_eq!(code, 0, "{err}");
    let line = status
        .lines()
        .find(|l| l.trim_start().starts_with("red"))
        .expect("red's line");
    assert!(
        !line.contains("by hand")
            && line.contains("held after turn 1's deadline")
            && line.contains("arrived 2026-12-01 at 19:00:00 UTC"),
        "{status}"
    );
}

/// Orders mailed with Windows line ends and tabs are echoed clean — no `␍`
/// under a diagnostic and no raw tab — in the answer, on the GM's console and in the
/// report; the lines keep their numbers.
#[test]
fn crlf_and_tabs_from_mail_are_not_echoed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let d = dir.to_str().expect("utf-8");
    let body = format!(
        "game demo\r\nplayer red\r\nsecret {red}\r\nturn 1\r\nmovement\r\nmove\tD1:\tC3\r\nmvoe D2: C3\r\n"
    );
    let out = ingest(&dir, &mail("crlf", &body), BEFORE);
    assert!(
        out.contains("accepted: red's orders for turn 1 (1 error"),
        "{out}"
    );
    let answer = body_of(&dir.join("pickup/ack-000001.eml"));
    let (code, turn, err) = judge(&["turn", d, "--force"], AFTER);
    assert_eq!(code, 0, "{err}");
    let (_, report, _) = judge(&["report", d, "--turn", "1", "--player", "red"], AFTER);
    for (what, text) in [("answer", &answer), ("console", &turn), ("report", &report)] {
        assert!(
            !text.contains('\u{240D}') && !text.contains('\t') && !text.contains('\r'),
            "{what}:\n{text}"
        );
        assert!(
            text.contains("7 | mvoe D2: C3\n") || what == "report",
            "{what}:\n{text}"
        );
    }
    assert!(report.contains("line 6: move D1: C3"), "{report}");
}

/// `judge turn` reads the whole Maildir every run; the mails it filed
/// before are said once, as a count, not a line each (61 lines by the end of a short
/// game).
#[test]
fn mails_already_filed_are_one_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (dir, red) = game(tmp.path(), "refuse");
    let d = dir.to_str().expect("utf-8");
    let maildir = tmp.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("mkdir");
    }
    for (i, moves) in ["move D1: C3", "move D2: C3", "move D3: C3"]
        .iter()
        .enumerate()
    {
        std::fs::write(
            maildir.join(format!("new/176400000{i}.M{i}P1.host")),
            mail(&format!("m{i}"), &orders(&red, moves)),
        )
        .expect("write");
    }
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml = toml.replace(
        "pickup = \"pickup\"\n",
        &format!(
            "pickup = \"pickup\"\nmaildir = {:?}\n",
            maildir.to_str().expect("utf-8")
        ),
    );
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    let (code, first, err) = judge(&["turn", d], BEFORE);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        first.matches("accepted: red's orders").count(),
        3,
        "{first}"
    );
    assert!(!first.contains("already filed"), "{first}");
    let (code, again, err) = judge(&["turn", d], BEFORE);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        again.matches("already filed").count(),
        1,
        "one line for all:\n{again}"
    );
    assert!(again.contains("skipped 3 mails already filed"), "{again}");
}
