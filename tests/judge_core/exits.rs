//! The judge's failures as a script sees them: each exit code of the one table
//! (`EXIT_TABLE`) has a real command line that exits with it, and hints reach the GM one
//! way only, `hint: …` after the message.

use std::path::{Path, PathBuf};

/// Every `.rs` file of the judge's own code (src/ and each crate's src/), tests left out.
fn judge_sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![root.join("src")];
    for e in std::fs::read_dir(root.join("crates")).expect("crates/") {
        roots.push(e.expect("entry").path().join("src"));
    }
    let mut files = Vec::new();
    while let Some(dir) = roots.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries {
            let p = e.expect("entry").path();
            if p.is_dir() {
                roots.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// A hint is added with `with_hint` (of `Failure` or `GameError`) and printed by them,
/// `hint: …` on a line after the message; none is written into a message's text as
/// `\nhelp: …` (a second style, and a hint a command cannot tell from the message).
#[test]
fn no_message_writes_its_own_hint() {
    let files = judge_sources();
    assert!(
        files.len() > 100,
        "the judge's sources are found: {}",
        files.len()
    );
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("source reads");
        for (n, line) in text.lines().enumerate() {
            if line.contains("\\nhelp:") || line.contains("\\n  hint:") || line.contains("\\nhint:")
            {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    // The two Display impls that print hints (`Failure`'s and `GameError`'s) are the one
    // place `\nhint:` is written, and GameError's unit test says what it prints.
    found.retain(|f| {
        let display = f.ends_with("write!(f, \"\\nhint: {hint}\")?;");
        let unit_test = f.contains("judge-core/src/error.rs") && f.contains("turns/004/state.json");
        !display && !unit_test
    });
    assert!(
        found.is_empty(),
        "hints written into messages:\n{}",
        found.join("\n")
    );
}

/// Errors inside the judge are typed (`thiserror`), so that a caller can tell one from
/// another and the exit code follows its kind: no function of the judge's code fails
/// with a bare `String`, and no `FromStr` has `type Err = String` (errors are for
/// people, and their words are each type's `Display`).
#[test]
fn no_error_of_the_judge_is_a_bare_string() {
    let mut found = Vec::new();
    for path in &judge_sources() {
        let text = std::fs::read_to_string(path).expect("source reads");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or(line);
            if result_errors(code).iter().any(|e| e == "String")
                || code.contains("type Err = String")
            {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "errors as bare strings (give them a type of their own):\n{}",
        found.join("\n")
    );
}

/// The error type of each `Result<T, E>` written on a line: `E`, the last of its
/// arguments at the top level of its brackets (`Result<BTreeMap<String, String>, E>`
/// has `E`, not `String`).
fn result_errors(code: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("Result<") {
        let open = from + at + "Result<".len();
        let (mut depth, mut last) = (0usize, open);
        for (i, c) in code[open..].char_indices() {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' | ')' | ']' if depth > 0 => depth -= 1,
                ',' if depth == 0 => last = open + i + 1,
                '>' => {
                    if last > open {
                        errors.push(code[last..open + i].trim().to_string());
                    }
                    break;
                }
                _ => {}
            }
        }
        from = open;
    }
    errors
}

/// The reader of `Result`'s error type, on the shapes the judge's code writes.
#[test]
fn the_error_type_of_a_result_is_read_at_the_top_level_of_its_brackets() {
    assert_eq!(result_errors("fn f() -> Result<(), String> {"), ["String"]);
    assert_eq!(
        result_errors("-> Option<Result<String, GameError>>"),
        ["GameError"]
    );
    assert_eq!(
        result_errors(
            "fn g(m: &BTreeMap<String, String>) -> Result<(String, Option<u16>), String>"
        ),
        ["String"]
    );
    assert_eq!(
        result_errors("Result<BTreeMap<String, String>, Error>"),
        ["Error"]
    );
    assert!(result_errors("io::Result<String>").is_empty());
}

use crate::support;

use pbem_judge::cli::Exit;

const NOW: &str = "2026-12-01T12:00:00Z";

fn judge(args: &[&str]) -> (i32, String, String) {
    support::judge_text(args, &[("JUDGE_NOW", NOW)])
}

/// The demo game in `tmp/name`, its mail going to a pickup folder, with turn 1 played
/// (so it has a turn.json, events and a mail log of its own).
fn played_demo(tmp: &Path, name: &str) -> PathBuf {
    let dir = tmp.join(name);
    support::new_demo(&dir, "Ann", &[]);
    let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
    toml.push_str("\n[mail]\nfrom = \"judge@example.org\"\npickup = \"pickup\"\n");
    std::fs::write(dir.join("game.toml"), toml).expect("write");
    support::ignore_pickup(&dir);
    std::fs::create_dir_all(dir.join("pending")).expect("pending");
    for p in ["red", "yellow"] {
        std::fs::copy(
            format!("games/demo/pending/{p}.txt"),
            dir.join(format!("pending/{p}.txt")),
        )
        .expect("copy");
    }
    let (code, out, err) = judge(&["turn", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "turn 1 is played: {out}{err}");
    assert!(dir.join("turns/001/turn.json").is_file());
    dir
}

/// A command line that exits with `exit`, made in `tmp` (and what it printed), or None
/// for the one exit no command line reaches in a judge without a fault.
fn exits_with(exit: Exit, tmp: &Path) -> Option<(i32, String)> {
    let run = |args: &[&str]| {
        let (code, out, err) = judge(args);
        Some((code, format!("judge {args:?}: {out}{err}")))
    };
    match exit {
        Exit::Done => run(&["scenarios"]),
        Exit::Input => {
            let d = tmp.join("typo");
            run(&[
                "new",
                d.to_str().expect("utf-8"),
                "--scenario",
                "two-river",
                "--player",
                "Ann:ann@example.org",
            ])
        }
        Exit::Usage => run(&["scenarios", "--no-such-option"]),
        Exit::Later => {
            // A mail server nothing listens on: the turn is played, its mail waits.
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .expect("bind")
                .local_addr()
                .expect("addr")
                .port();
            let dir = tmp.join("later");
            support::new_demo(&dir, "Ann", &[]);
            let mut toml = std::fs::read_to_string(dir.join("game.toml")).expect("toml");
            toml.push_str(&format!(
                "\n[mail]\nfrom = \"judge@example.org\"\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {port}\nsmtp_security = \"none\"\n"
            ));
            std::fs::write(dir.join("game.toml"), toml).expect("write");
            std::fs::create_dir_all(dir.join("pending")).expect("pending");
            std::fs::copy("games/demo/pending/red.txt", dir.join("pending/red.txt")).expect("copy");
            run(&["turn", dir.to_str().expect("utf-8")])
        }
        Exit::Busy => {
            // Another judge command holds the game's lock.
            let dir = tmp.join("busy");
            support::new_demo(&dir, "Ann", &[]);
            let lock = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(dir.join(".judge.lock"))
                .expect("lock file");
            lock.lock().expect("the test holds the lock");
            let done = run(&["turn", dir.to_str().expect("utf-8"), "--wait", "0"]);
            drop(lock);
            done
        }
        Exit::Damaged => {
            let dir = tmp.join("damaged");
            support::new_demo(&dir, "Ann", &[]);
            std::fs::write(dir.join("turns/000/state.json"), "{\"players\": [").expect("write");
            run(&["show", dir.to_str().expect("utf-8")])
        }
        // A fault of the judge's own: no command line reaches it unless the judge has a
        // bug (the conversions into it are proven below).
        Exit::Fault => None,
    }
}

/// Every exit code of the table, driven from it: for each, a real command line exits
/// with that code (a fault of the judge's own aside, which only a bug reaches: its
/// errors are shown to convert to it instead).
#[test]
fn every_exit_code_of_the_table_has_a_command_line_that_exits_with_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut wrong = Vec::new();
    for exit in Exit::ALL {
        match exits_with(exit, tmp.path()) {
            Some((code, said)) => {
                if code != exit.code() {
                    wrong.push(format!(
                        "{exit:?} is {}, but {said}exited {code}",
                        exit.code()
                    ));
                }
            }
            None => {
                let faults = [
                    pbem_judge::cli::Failure::from(pbem_judge::error::GameError::internal(
                        "a rule it cannot apply",
                    )),
                    pbem_judge::cli::Failure::from(pbem_judge::archive::ArchiveError::Unwritable {
                        path: "game.toml".into(),
                        message: "cannot be put into words".into(),
                    }),
                ];
                for f in faults {
                    assert_eq!(f.exit_code(), exit.code(), "{f}");
                    assert!(f.to_string().starts_with("a fault in the judge"), "{f}");
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Files the judge writes into a game's archive, each with damage done to it.
const DAMAGED: [(&str, &str); 6] = [
    ("turns/001/state.json", "{\"players\": ["),
    ("turns/001/turn.json", "{\"game\": 7"),
    ("turns/001/events.json", "[{\"kind\""),
    ("mail/log.jsonl", "{\"not\": \"an entry\"\n"),
    ("mail/preferences.toml", "[red\n"),
    ("randomness.toml", "commitment = \n"),
];

/// Exit 5, for every command: a file the judge wrote into the archive that does not
/// read (damaged, or edited by hand) makes every command that reads it exit 5, naming
/// the file (or its turn) — never 1 (the user's input), 3 (try later) or 6, and never read as a file
/// that is not there (a damaged turn.json once was). A command that does not read the
/// file does its work (exit 0, as on the undamaged game).
#[test]
fn a_damaged_archive_file_exits_5_from_every_command_that_reads_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let game = played_demo(tmp.path(), "game");
    let commands: [&[&str]; 9] = [
        &["show", "DIR"],
        &["show", "DIR", "--json"],
        &["status", "DIR"],
        &["report", "DIR", "--turn", "1"],
        &["replay", "DIR"],
        &["verify", "DIR"],
        &["site", "DIR", "-o", "OUT"],
        &["turn", "DIR"],
        &["mail", "DIR"],
    ];
    let mut n = 0;
    let mut run = |dir: &Path, command: &[&str]| {
        n += 1;
        let out = tmp.path().join(format!("site{n}"));
        let args: Vec<&str> = command
            .iter()
            .map(|a| match *a {
                "DIR" => dir.to_str().expect("utf-8"),
                "OUT" => out.to_str().expect("utf-8"),
                a => a,
            })
            .collect();
        judge(&args)
    };
    let mut wrong = Vec::new();
    for (i, (file, damage)) in DAMAGED.iter().enumerate() {
        let mut readers = Vec::new();
        for (j, command) in commands.iter().enumerate() {
            let dir = tmp.path().join(format!("d{i}-{j}"));
            support::copy_dir(&game, &dir, &|_| true);
            let (code, out, err) = run(&dir, command);
            if code != 0 {
                wrong.push(format!(
                    "undamaged, judge {command:?} exited {code}: {out}{err}"
                ));
                continue;
            }
            let path = dir.join(file);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
            std::fs::write(&path, damage).expect("damage");
            let (code, out, err) = run(&dir, command);
            // The file by its name, or a turn's by its turn ("turn 1: the events: …").
            let name = file.rsplit('/').next().unwrap_or(file);
            let named =
                err.contains(name) || (file.starts_with("turns/001/") && err.contains("turn 1"));
            match code {
                0 => {}
                5 if err.starts_with("error: the game's archive is damaged: ") && named => {
                    readers.push(command[0]);
                }
                _ => wrong.push(format!(
                    "{file} damaged: judge {command:?} exited {code}: {out}{err}"
                )),
            }
        }
        if readers.is_empty() {
            wrong.push(format!("{file} damaged: no command read it"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The GM's guide lists the exit codes for cron as the table says them, row by row
/// (code, name, meaning), and nothing else: it cannot fall behind the judge.
#[test]
fn the_gm_guide_lists_the_exit_codes_of_the_table() {
    let guide =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/gm-guide.md"))
            .expect("docs/gm-guide.md reads");
    let section = guide
        .split("\nExit status, for cron and scripts")
        .nth(1)
        .expect("docs/gm-guide.md lists the exit codes");
    let listed: Vec<&str> = section
        .lines()
        .skip_while(|l| !l.starts_with("- `"))
        .take_while(|l| l.starts_with("- `"))
        .collect();
    let table: Vec<String> = pbem_judge::cli::EXIT_TABLE
        .iter()
        .map(|row| format!("- `{}` {}: {}", row.code, row.name, row.meaning.join(" ")))
        .collect();
    assert_eq!(listed, table);
}
