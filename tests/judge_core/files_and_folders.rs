//! The GM's slips with files and folders are caught
//! before they hurt. A mail folder inside the game that git would keep, a file holding a
//! secret about to be committed, two games sharing one pickup folder, symbolic links in
//! the game's folder, and the temporary files a killed `judge site` leaves in the web
//! root. Each test failed before its fix.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

const NOW: &str = "2026-12-01T12:00:00Z";

fn judge(args: &[&str]) -> (i32, String, String) {
    support::judge_text(args, &[("JUDGE_NOW", NOW)])
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Run git in `dir` (as a GM with a name), asserting it worked; its output.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=GM", "-c", "user.email=gm@example.org"])
        .args(args)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The demo game in `dir`, kept in git as the GM guide says (a repository of its own,
/// with a name for the judge's commits), and `mail` added to its game.toml.
fn demo_in_git(dir: &Path, red: &str, mail: &str) {
    support::new_demo(dir, red, &[]);
    git(dir, &["init", "-q"]);
    git(dir, &["config", "user.name", "GM"]);
    git(dir, &["config", "user.email", "gm@example.org"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "demo: turn 0"]);
    append(&dir.join("game.toml"), mail);
}

fn append(path: &Path, text: &str) {
    let mut t = std::fs::read_to_string(path).unwrap_or_default();
    t.push_str(text);
    std::fs::write(path, t).expect("write");
}

fn copy_pending(dir: &Path) {
    std::fs::create_dir_all(dir.join("pending")).expect("pending");
    for p in ["red", "yellow"] {
        std::fs::copy(
            format!("games/demo/pending/{p}.txt"),
            dir.join(format!("pending/{p}.txt")),
        )
        .expect("copy");
    }
}

fn names(dir: &Path) -> Vec<String> {
    support::file_names(dir)
}

/// 21.9: `pickup = "spool"` lies inside the game's folder, where `judge secret --mail`
/// would write the welcome mails (each with a player's secret) and `judge turn --commit`
/// commit them. It is refused, naming the setting and the two ways out, until git
/// ignores the folder; then the mails are written and never committed. A Maildir inside
/// the game is refused the same way, and so is either in a game not yet in git.
#[test]
fn p9_a_mail_folder_inside_the_game_is_refused_until_git_ignores_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("demo");
    let d = s(&dir);
    demo_in_git(
        &dir,
        "Ann",
        "\n[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"spool\"\n",
    );
    let (code, out, err) = judge(&["secret", d, "--mail"]);
    assert_eq!(code, 1, "{out}{err}");
    for said in [
        "game.toml",
        "[mail] pickup = \"spool\"",
        "inside the game's folder",
        "absolute path",
        "/spool/",
        ".gitignore",
    ] {
        assert!(err.contains(said), "{said:?} not in: {err}");
    }
    assert!(!dir.join("spool").exists(), "nothing written into it");
    let toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    assert!(!toml.contains("secret_hash"), "no secret was given: {toml}");

    // As the message says: git ignores the folder, and all is well.
    append(&dir.join(".gitignore"), "/spool/\n");
    let (code, out, err) = judge(&["secret", d, "--mail"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(names(&dir.join("spool")).len(), 2, "two welcome mails");
    copy_pending(&dir);
    let (code, out, err) = judge(&["turn", d, "--commit"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Committed demo: turn 1."), "{out}");
    let kept = git(&dir, &["ls-files"]);
    assert!(kept.contains("turns/001/report.txt"), "{kept}");
    assert!(!kept.contains("spool"), "{kept}");

    // A Maildir inside the game holds the players' raw mail, secrets and all.
    let maildir = dir.join("Maildir");
    append(
        &dir.join("game.toml"),
        &format!("maildir = \"{}\"\n", s(&maildir)),
    );
    let (code, out, err) = judge(&["turn", d]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(&format!("[mail] maildir = \"{}\"", s(&maildir))),
        "{err}"
    );
    assert!(err.contains("`/Maildir/`"), "{err}");

    // A game not (yet) in git: refused as git will see it once the GM runs git init.
    let bare = tmp.path().join("bare");
    support::new_demo(&bare, "Ann", &[]);
    append(
        &bare.join("game.toml"),
        "\n[mail]\nfrom = \"judge@example.org\"\npickup = \"out/mail\"\n",
    );
    let (code, _, err) = judge(&["secret", s(&bare), "--mail"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("[mail] pickup = \"out/mail\""), "{err}");
    append(&bare.join(".gitignore"), "/out/\n");
    let (code, out, err) = judge(&["secret", s(&bare), "--mail"]);
    assert_eq!(code, 0, "{out}{err}");
    // Outside the game, as the guide advises: no question asked.
    let outside = tmp.path().join("outside");
    support::new_demo(&outside, "Ann", &[]);
    append(
        &outside.join("game.toml"),
        "\n[mail]\nfrom = \"judge@example.org\"\npickup = \"../spool-outside\"\n",
    );
    let (code, out, err) = judge(&["secret", s(&outside), "--mail"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(names(&tmp.path().join("spool-outside")).len(), 2);
}

/// 21.9: before every commit it makes, the judge looks for a player's secret in what it
/// is about to commit: in plain text, or encoded in a mail (base64). A file holding one
/// is refused by name before anything is staged (no object of the repository holds the
/// secret, not even one no commit reaches), and nothing is committed; once it is gone,
/// the commit goes through.
#[test]
fn p9_a_commit_that_would_hold_a_secret_is_refused_naming_the_file() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("demo");
    let d = s(&dir);
    demo_in_git(&dir, "Ann", "");
    let (red, yellow) = support::new_secrets(&dir, &[]);
    git(&dir, &["commit", "-q", "-am", "secrets"]);
    std::fs::create_dir_all(dir.join("notes")).expect("notes");
    std::fs::write(
        dir.join("notes/secrets.txt"),
        format!("Ann: {red}\nthe rest of my notes\n"),
    )
    .expect("notes");
    let b64 = base64(&format!("Welcome! Your secret: {yellow}\r\n"));
    std::fs::write(
        dir.join("welcome.eml"),
        format!(
            "From: judge@example.org\r\nTo: bob@example.org\r\nSubject: welcome\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n{b64}\r\n"
        ),
    )
    .expect("eml");
    assert!(
        !std::fs::read_to_string(dir.join("welcome.eml"))
            .expect("eml")
            .contains(&yellow)
    );
    copy_pending(&dir);
    let commits = git(&dir, &["rev-list", "--count", "HEAD"]);
    let (code, out, err) = judge(&["turn", d, "--commit"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("Turn 1 resolved"), "the turn is played: {out}");
    for said in [
        "notes/secrets.txt",
        "red's secret",
        "welcome.eml",
        "yellow's secret",
    ] {
        assert!(err.contains(said), "{said:?} not in: {err}");
    }
    assert!(err.contains("Nothing was staged or committed"), "{err}");
    assert_eq!(git(&dir, &["rev-list", "--count", "HEAD"]), commits);
    let staged = git(&dir, &["diff", "--cached", "--name-only"]);
    assert!(
        !staged.contains("notes/") && !staged.contains("welcome.eml"),
        "left staged: {staged}"
    );
    let history = support::git_objects(&dir);
    assert!(!history.contains(&red) && !history.contains(&yellow));

    // The GM takes them away: the turn is committed.
    std::fs::remove_dir_all(dir.join("notes")).expect("rm");
    std::fs::remove_file(dir.join("welcome.eml")).expect("rm");
    let (code, out, err) = judge(&["turn", d, "--commit"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Committed demo: "), "{out}");
    assert!(git(&dir, &["ls-files"]).contains("turns/001/report.txt"));
}

/// 21.9: the game's secret seed (`randomness.key`, which knows every roll to come) is a
/// secret too: a copy of it is never committed while the game runs.
#[test]
fn p9_a_copy_of_the_secret_seed_is_never_committed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("g");
    let d = s(&dir);
    let (code, _, err) = judge(&[
        "new",
        d,
        "--scenario",
        "two-rivers",
        "--player",
        "Ann:ann@example.org",
        "--player",
        "Bob:bob@example.org",
    ]);
    assert_eq!(code, 0, "{err}");
    git(&dir, &["init", "-q"]);
    git(&dir, &["config", "user.name", "GM"]);
    git(&dir, &["config", "user.email", "gm@example.org"]);
    std::fs::copy(
        dir.join("randomness.key"),
        dir.join("backup-of-the-key.txt"),
    )
    .expect("cp");
    let (code, out, err) = judge(&["turn", d, "--commit"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("backup-of-the-key.txt"), "{err}");
    assert!(err.contains("secret seed"), "{err}");
    std::fs::remove_file(dir.join("backup-of-the-key.txt")).expect("rm");
    let (code, out, err) = judge(&["turn", d, "--commit"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Committed g: mail."), "{out}");
}

fn base64(s: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(s)
}

/// The demo game in `parent/demo` (so called, whatever the parent), its red player
/// called `red`, mailing into `pickup`, with both players' orders for turn 1 waiting.
fn sharing(parent: &Path, red: &str, pickup: &Path) -> PathBuf {
    let dir = parent.join("demo");
    support::new_demo(&dir, red, &[]);
    append(
        &dir.join("game.toml"),
        &format!(
            "\n[mail]\nfrom = \"judge@example.org\"\npickup = \"{}\"\n",
            s(pickup)
        ),
    );
    copy_pending(&dir);
    dir
}

/// 21.10: two games (both called `demo`) mail into one pickup folder. Neither overwrites
/// the other's mail: each report is there, as its game wrote it, and each game marks as
/// sent only what it wrote. A mail handed over again (a run killed before it marked it
/// sent) is found already there and not written twice.
#[test]
fn p10_two_games_sharing_a_pickup_folder_never_overwrite_each_others_mail() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pickup = tmp.path().join("pickup");
    let a = sharing(&tmp.path().join("a"), "Ann", &pickup);
    let b = sharing(&tmp.path().join("b"), "Cyd", &pickup);
    for g in [&a, &b] {
        let (code, out, err) = judge(&["turn", s(g)]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("sent 2 mails"), "{out}");
    }
    let dropped = names(&pickup);
    let eml: Vec<&String> = dropped.iter().filter(|n| n.ends_with(".eml")).collect();
    assert_eq!(eml.len(), 4, "each game's two reports: {dropped:?}");
    let texts: Vec<String> = eml
        .iter()
        .map(|n| std::fs::read_to_string(pickup.join(n)).expect("mail"))
        .collect();
    let to_red = |who: &str| {
        texts
            .iter()
            .filter(|t| t.contains(&format!("To: {who} <ann@example.org>")))
            .count()
    };
    assert_eq!((to_red("Ann"), to_red("Cyd")), (1, 1), "{dropped:?}");
    // Each game's sent copy is the very mail in the pickup folder.
    for g in [&a, &b] {
        for sent in names(&g.join("sent"))
            .iter()
            .filter(|n| n.ends_with(".eml"))
        {
            let mine = std::fs::read_to_string(g.join("sent").join(sent)).expect("sent");
            assert!(
                texts.contains(&mine),
                "{sent} of {} is not in pickup",
                g.display()
            );
        }
    }

    // Game A is killed after handing its mail over, before marking it sent: the next
    // run finds it there, and writes nothing again.
    for ext in ["eml", "env.json"] {
        let name = format!("report-001-red.{ext}");
        std::fs::rename(a.join("sent").join(&name), a.join("outbox").join(&name)).expect("mv");
    }
    let (code, out, err) = judge(&["mail", s(&a)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("sent 1 mail"), "{out}");
    assert_eq!(names(&pickup), dropped, "nothing written twice");
    assert!(a.join("sent/report-001-red.eml").is_file());
}

/// 21.14: a `.judge.lock` that is a symbolic link is refused (exit 1, saying what to
/// do); the file it points to is never written.
#[test]
fn p14_a_symlinked_lock_is_refused_and_its_target_kept() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("demo");
    support::new_demo(&dir, "Ann", &[]);
    let precious = tmp.path().join("precious.txt");
    std::fs::write(&precious, "the GM's notes\n").expect("write");
    std::os::unix::fs::symlink(&precious, dir.join(".judge.lock")).expect("symlink");
    let (code, out, err) = judge(&["turn", s(&dir)]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains(".judge.lock"), "{err}");
    assert!(err.contains("symbolic link"), "{err}");
    assert!(err.contains("Delete it"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&precious).expect("read"),
        "the GM's notes\n"
    );
}

/// 21.14: a played turn's orders file that is a symbolic link to a file out of the game
/// is never published: `judge site` refuses it by name, and writes nothing of it. A
/// pending orders file that is a link is refused the same way, and never played (a
/// played file would be published with its turn).
#[test]
fn p14_a_symlinked_file_in_the_game_is_never_published() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("demo");
    let d = s(&dir);
    support::new_demo(&dir, "Ann", &[]);
    copy_pending(&dir);
    let (code, out, err) = judge(&["turn", d]);
    assert_eq!(code, 0, "{out}{err}");
    let private = tmp.path().join("private.txt");
    std::fs::write(
        &private,
        "game demo\nplayer red\nturn 1\n# PRIVATE-OUTSIDE-THE-GAME\n",
    )
    .expect("write");
    let orders = dir.join("turns/001/orders/red.txt");
    std::fs::remove_file(&orders).expect("rm");
    std::os::unix::fs::symlink(&private, &orders).expect("symlink");
    let site = tmp.path().join("site");
    let (code, out, err) = judge(&["site", d, "-o", s(&site)]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("turns/001/orders/red.txt"), "{err}");
    assert!(err.contains("symbolic link"), "{err}");
    let published = if site.exists() {
        support::all_files(&site)
    } else {
        Vec::new()
    };
    for f in published {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        assert!(
            !text.contains("PRIVATE-OUTSIDE"),
            "{} shows it",
            f.display()
        );
    }
    // Put back as the message says: the site is made.
    std::fs::remove_file(&orders).expect("rm");
    std::fs::copy("games/demo/pending/red.txt", &orders).expect("cp");
    let (code, out, err) = judge(&["site", d, "-o", s(&site)]);
    assert_eq!(code, 0, "{out}{err}");

    // A link in pending/: refused by name, not played.
    let turn2 = "game demo\nplayer red\nturn 2\n# PRIVATE-OUTSIDE-THE-GAME\n";
    std::fs::write(&private, turn2).expect("write");
    std::os::unix::fs::symlink(&private, dir.join("pending/red.txt")).expect("symlink");
    let (code, out, err) = judge(&["turn", d, "--force"]);
    assert!(
        out.contains("refused pending/red.txt") && out.contains("symbolic link"),
        "{code} {out}{err}"
    );
    let played = std::fs::read_dir(dir.join("turns/002/orders"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(played, 0, "the linked file is not played");
}

/// 21.15: a `judge site` killed while it writes leaves `.tmp-…` files in the web root;
/// the next run removes them, also when the first run was killed before it wrote
/// `index.html` (the folder then holds only such leftovers, and is still the site's).
#[test]
fn p15_leftovers_of_a_killed_site_run_are_removed_by_the_next() {
    let tmp = tempfile::tempdir().expect("tmp");
    let site = tmp.path().join("site");
    std::fs::create_dir_all(&site).expect("mkdir");
    // What a run killed while writing its first file leaves.
    std::fs::write(site.join(".tmp-a1B2c3"), "<!doctype html><title>half").expect("w");
    let game = "games/demo";
    let (code, out, err) = judge(&["site", game, "-o", s(&site)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(site.join("index.html").is_file());
    // Ten kills later.
    for i in 0..10 {
        std::fs::write(site.join(format!(".tmp-k{i}ll3d")), "half a page").expect("w");
    }
    let (code, out, err) = judge(&["site", game, "-o", s(&site)]);
    assert_eq!(code, 0, "{out}{err}");
    let left: Vec<String> = names(&site)
        .into_iter()
        .filter(|n| n.starts_with(".tmp-"))
        .collect();
    assert!(left.is_empty(), "left in the web root: {left:?}");
    assert!(
        out.contains("0 written"),
        "the pages themselves were right: {out}"
    );
}

/// 21.15, the first run: `judge site` killed after its first page and before
/// `index.html` (on a busy machine, where each page waits on the disk, CI once struck
/// there) left a folder every later run refused as "other files and no site". The
/// list of what it is about to write goes in first, so the folder it leaves is the
/// site's: the next run makes the site.
#[test]
fn p15_a_first_site_run_killed_before_its_front_page_is_finished_by_the_next() {
    let tmp = tempfile::tempdir().expect("tmp");
    let site = tmp.path().join("site");
    let game = "games/two-rivers-2p";
    // What the whole run writes, and the list it writes before anything else.
    let (code, out, err) = judge(&["site", game, "-o", s(&site)]);
    assert_eq!(code, 0, "{out}{err}");
    let list = std::fs::read_to_string(site.join(".judge-site")).expect("the list");
    assert!(list.lines().any(|n| n == "guide.html"), "{list}");
    // The folder as a kill after `guide.html` leaves it.
    for name in names(&site) {
        if name != ".judge-site" && name != "guide.html" {
            std::fs::remove_file(site.join(&name)).expect("rm");
        }
    }
    std::fs::write(site.join(".tmp-k1ll3d"), "half of index.html").expect("w");
    let (code, out, err) = judge(&["site", game, "-o", s(&site)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(site.join("index.html").is_file());
    assert!(!names(&site).iter().any(|n| n.starts_with(".tmp-")));
    // A folder of someone else's files is still refused.
    let other = tmp.path().join("photos");
    std::fs::create_dir_all(&other).expect("mkdir");
    std::fs::write(other.join("guide.html"), "mine").expect("w");
    let (code, _, err) = judge(&["site", game, "-o", s(&other)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no site"), "{err}");
}

/// 21.15, for real: `judge site` killed at random moments while it rewrites every page,
/// 30 times, then run once: no temporary file is left in the web root. (Before the fix
/// this failed only when a kill struck mid-write, as it mostly did; the test above is
/// the one that always did.)
#[test]
fn p15_a_site_killed_again_and_again_leaves_no_temporary_file() {
    let tmp = tempfile::tempdir().expect("tmp");
    let site = tmp.path().join("site");
    let game = "games/two-rivers-2p";
    let mut x: u64 = 21;
    for _ in 0..30 {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        // Each time every page is out of date, so that the run writes them all.
        for name in names(&site).iter().filter(|n| !n.starts_with(".tmp-")) {
            std::fs::write(site.join(name), "old").expect("write");
        }
        let mut c = Command::new(env!("CARGO_BIN_EXE_judge"))
            .args(["site", game, "-o", s(&site)])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("judge");
        std::thread::sleep(std::time::Duration::from_millis(5 + (x >> 33) % 300));
        let _ = c.kill();
        let _ = c.wait();
    }
    let (code, out, err) = judge(&["site", game, "-o", s(&site)]);
    assert_eq!(code, 0, "{out}{err}");
    let left: Vec<String> = names(&site)
        .into_iter()
        .filter(|n| n.starts_with(".tmp-"))
        .collect();
    assert!(left.is_empty(), "left in the web root: {left:?}");
}

/// "a cron pass committed the GM's `judge end` turn as \"island:
/// mail\"". `judge end` without `--commit` leaves its turn for the next `--commit`,
/// which says what it holds — the turn, and that the GM ended the game, as `judge end
/// --commit` would have — whether it is a pass over the folder (`judge turn --all`) or
/// over the one game; a pass with only mail to commit still says mail.
#[test]
fn a_commit_of_the_gms_end_says_so() {
    let f = crate::judge_core::mail_commands::Folder::new();
    f.game(
        "island",
        &[
            &["--game", "catan", "--seed", "4"][..],
            &support::ANN_BOB_CAT,
        ]
        .concat(),
    );
    git(&f.root, &["init", "-q"]);
    git(&f.root, &["config", "user.name", "GM"]);
    git(&f.root, &["config", "user.email", "gm@example.org"]);
    git(&f.root, &["add", "-A"]);
    git(&f.root, &["commit", "-q", "-m", "island: turn 0"]);
    let island = f.dir("island");
    let (code, out, err) = judge(&["end", s(&island), "--why", "the club closed"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = judge(&["turn", "--all", s(&f.root), "--commit"]);
    assert!(code == 0 || code == 3, "{out}{err}");
    let subject = git(&f.root, &["log", "-1", "--format=%s"]);
    assert_eq!(
        subject.trim(),
        "island: turn 1, the GM ended the game",
        "{out}"
    );
    // The one game's pass, the same.
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("demo");
    demo_in_git(&dir, "Ann", "");
    let (code, out, err) = judge(&["end", s(&dir), "--why", "we stop", "--no-send"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = judge(&["turn", s(&dir), "--commit", "--no-send"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Committed demo: turn 1, the GM ended the game."),
        "{out}"
    );
    let subject = git(&dir, &["log", "-1", "--format=%s"]);
    assert_eq!(subject.trim(), "demo: turn 1, the GM ended the game");
    // Mail alone, once the end is in git: "mail".
    std::fs::write(dir.join("notes.txt"), "the GM's own note\n").expect("note");
    let (code, out, err) = judge(&["turn", s(&dir), "--commit", "--no-send"]);
    assert_eq!(code, 0, "{out}{err}");
    let subject = git(&dir, &["log", "-1", "--format=%s"]);
    assert_eq!(subject.trim(), "demo: mail", "{out}");
}

/// "`judge site` into the same folder after the game ended leaves
/// the old writer pages published". The site keeps the list of what it wrote
/// (`.judge-site` in the web root); a page it wrote that the game no longer has (each
/// seat's order writer, its scripts, once the game is over) is removed, and nothing it
/// did not write is ever touched: the GM's own files beside the site stay, a GM's page
/// named like a writer's included. A site written before the list was kept loses its
/// seats' writer pages (pages of the judge's own making) and nothing else.
#[test]
fn the_site_of_an_ended_game_drops_its_writer_pages() {
    for kept_list in [true, false] {
        let tmp = tempfile::tempdir().expect("tmp");
        let game = tmp.path().join("demo");
        support::copy_dir(Path::new("games/demo"), &game, &|_| true);
        let site = tmp.path().join("site");
        let (code, out, err) = judge(&["site", s(&game), "-o", s(&site)]);
        assert_eq!(code, 0, "{out}{err}");
        let writers = [
            "write-red.html",
            "write-yellow.html",
            "writer.js",
            "game-writer.js",
            "position.js",
        ];
        for w in writers {
            assert!(site.join(w).is_file(), "{w} while the game runs");
        }
        // The GM's own files beside the site.
        let own = [
            "notes.html",
            "write-up.html",
            "writer-notes.js",
            "robots.txt",
        ];
        for o in own {
            std::fs::write(site.join(o), "<p>the GM's own, window.WRITER</p>").expect("own");
        }
        if !kept_list {
            std::fs::remove_file(site.join(".judge-site")).expect("the site's list");
        }
        let (code, out, err) = judge(&["end", s(&game), "--why", "we stop", "--no-send"]);
        assert_eq!(code, 0, "{out}{err}");
        let (code, out, err) = judge(&["site", s(&game), "-o", s(&site)]);
        assert_eq!(code, 0, "{out}{err}");
        for w in ["write-red.html", "write-yellow.html"] {
            assert!(
                !site.join(w).exists(),
                "{w} after the end (list kept: {kept_list})"
            );
        }
        if kept_list {
            for w in writers {
                assert!(!site.join(w).exists(), "{w} after the end");
            }
            assert!(out.contains("5 removed"), "{out}");
        }
        for o in own {
            assert!(site.join(o).is_file(), "the GM's {o} is kept");
        }
        assert!(site.join("index.html").is_file());
        let index = std::fs::read_to_string(site.join("index.html")).expect("index");
        assert!(
            !index.contains("write-red.html"),
            "no link to a removed page"
        );
    }
}

/// "the game's secret seed (`randomness.key`) is created readable by
/// every user (0644 …): on a shared host anyone can read every roll to come". A new game's
/// files are all its owner's alone (0600), as every file the judge rewrites already was;
/// a key an older judge left readable is made private when the judge next reads it.
#[cfg(unix)]
#[test]
fn the_secret_seed_is_readable_by_its_owner_alone() {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = |p: &Path| {
        std::fs::metadata(p)
            .map(|m| m.permissions().mode() & 0o777)
            .unwrap_or(0)
    };
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("g");
    let (code, out, err) = judge(&[
        "new",
        s(&dir),
        "--scenario",
        "two-rivers",
        "--player",
        "Ann:ann@example.org",
        "--player",
        "Bob:bob@example.org",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let key = dir.join("randomness.key");
    assert!(
        key.is_file(),
        "a game made without --seed has a secret seed"
    );
    for f in support::all_files(&dir) {
        assert_eq!(
            mode(&f) & 0o077,
            0,
            "{} is readable by others ({:o})",
            f.display(),
            mode(&f)
        );
    }
    assert_eq!(mode(&key), 0o600);
    // As an older judge left it: the next turn makes it private again.
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let (code, out, err) = judge(&["turn", s(&dir), "--force", "--no-send"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.join("turns/001").is_dir(), "the turn was played: {out}");
    assert_eq!(mode(&key), 0o600, "{out}");
}
