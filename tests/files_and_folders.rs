//! Issue 21, point 14: symbolic links in the game's folder are never followed out of it.
//! Each test failed before its fix.

mod support;

use std::path::Path;

const NOW: &str = "2026-12-01T12:00:00Z";

fn judge(args: &[&str]) -> (i32, String, String) {
    support::judge_text(args, &[("JUDGE_NOW", NOW)])
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
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
