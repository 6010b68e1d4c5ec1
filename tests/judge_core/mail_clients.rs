//! The corpus of mails as real mail programs send them
//! (tests/mail/clients, described in its README.md), each run through the judge's intake
//! as a GM runs it — a fresh demo game, the mail handed to `judge ingest`, the `judge`
//! binary run — and each either read exactly as the player meant (the orders filed are
//! the `.expect` file's orders, as the game reads them, and no more errors than it has),
//! or refused with an answer to the player that names the real cause. None is changed or
//! loses an order in silence.
//!
//! New shapes are added as new pairs in the same folder;
//! this runner reads every pair there.

use crate::support;

use std::path::{Path, PathBuf};

use pbem_judge::roads_boats::map::Map;
use pbem_judge::roads_boats::order_text::parse;
use pbem_judge::roads_boats::orders::{
    BuildingOrder, MovementOrder, PlayerOrders, ProductionOrder, WonderOrder,
};

/// The players' secrets in every game of the corpus: the runner writes their hashes into
/// game.toml, so that a mail can hold them as its client encodes them (base64, QP).
pub const RED_SECRET: &str = "hm4k-7wqz-p2rd";
pub const YELLOW_SECRET: &str = "yq8t-3ncv-6bxe";

/// The clock of every run: before any deadline.
pub const NOW: &str = "2026-12-01T12:00:00Z";

/// The folder of the corpus.
pub fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail/clients")
}

/// Other secrets red's shapes were written with: i39-mime's shapes (and
/// tests/judge_core/mail_mime.rs) give red this one. A shape whose decoded text holds one of them
/// is run in a game where it is red's.
pub const OTHER_RED_SECRETS: &[&str] = &["ab23-cd45-ef67"];

/// The demo game of the corpus in `dir/demo`, made once for a test (copied for each
/// mail): two-rivers, seed 7, Ann red and Bob yellow, with the fixed secrets.
pub fn template(dir: &Path) -> PathBuf {
    template_with(dir, RED_SECRET)
}

/// Red's secret for a shape: [`RED_SECRET`], or another of [`OTHER_RED_SECRETS`] its
/// text (decoded, or as sent) holds.
fn red_secret_of(raw: &[u8]) -> &'static str {
    let mut text = String::from_utf8_lossy(raw).into_owned();
    if let Ok(m) = pbem_judge::mail::inbound::read(raw) {
        text.extend(m.parts.iter().map(|p| p.text.clone()));
    }
    OTHER_RED_SECRETS
        .iter()
        .find(|s| text.contains(**s))
        .copied()
        .unwrap_or(RED_SECRET)
}

/// The template with red's secret `red`, made under `root` the first time it is asked.
fn template_for(root: &Path, red: &str) -> PathBuf {
    let dir = root.join(red);
    if dir.join("demo").is_dir() {
        return dir.join("demo");
    }
    std::fs::create_dir_all(&dir).expect("mkdir");
    template_with(&dir, red)
}

/// [`template`] with red's secret `red`.
pub fn template_with(dir: &Path, red: &str) -> PathBuf {
    let game = dir.join("demo");
    support::new_demo(&game, "Ann", &[("JUDGE_NOW", NOW)]);
    let toml_path = game.join("game.toml");
    let toml = std::fs::read_to_string(&toml_path).expect("game.toml");
    let mut doc: toml::Table = toml.parse().expect("game.toml is TOML");
    let players = doc
        .get_mut("players")
        .and_then(|p| p.as_array_mut())
        .expect("players");
    for p in players.iter_mut() {
        let t = p.as_table_mut().expect("a player");
        let secret = match t.get("id").and_then(|i| i.as_str()) {
            Some("red") => red,
            Some("yellow") => YELLOW_SECRET,
            other => panic!("a player {other:?} in the demo game"),
        };
        let hash = pbem_judge::mail::secret::hash(secret).expect("hash");
        t.insert("secret_hash".into(), toml::Value::String(hash));
    }
    std::fs::write(&toml_path, toml::to_string(&doc).expect("toml")).expect("write");
    game
}

/// A copy of the template in `dir/demo`, with `[mail]` answering into `dir/pickup` and
/// `extra` (a shape's own `.toml`: its lines before any table are keys of `[mail]`).
pub fn game_from(template: &Path, dir: &Path, extra: &str) -> PathBuf {
    let game = dir.join("demo");
    support::copy_dir(template, &game, &|_| true);
    let pickup = dir.join("pickup");
    let mut toml = std::fs::read_to_string(game.join("game.toml")).expect("game.toml");
    toml.push_str(&format!(
        "\n[mail]\nfrom = \"judge@example.org\"\npickup = \"{}\"\n{extra}\n",
        pickup.display()
    ));
    std::fs::write(game.join("game.toml"), toml).expect("write");
    game
}

/// What a shape must give.
#[derive(Debug)]
pub enum Expect {
    /// The order file the player meant.
    Orders(String),
    /// Refused, the answer holding each of these words.
    Refused(Vec<String>),
}

pub fn expect_of(text: &str) -> Expect {
    match text.strip_prefix("refused:") {
        Some(rest) => Expect::Refused(
            rest.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect(),
        ),
        None => Expect::Orders(text.to_string()),
    }
}

/// What the judge did with one mail in a fresh game.
#[derive(Debug)]
pub struct Outcome {
    /// What `judge ingest` printed.
    pub said: String,
    /// The files filed in pending/, by name.
    pub filed: Vec<(String, String)>,
    /// Each answer queued: its subject and body, decoded.
    pub answers: Vec<String>,
    /// Whom each answer is addressed to (its `To:` address, lower case), in the same order.
    pub to: Vec<String>,
    /// The game's folder (in the run's tempdir).
    pub game: PathBuf,
}

/// Run `raw` through `judge ingest` in a copy of `template` under `dir`.
pub fn ingest(template: &Path, dir: &Path, raw: &[u8], extra: &str) -> Outcome {
    let game = game_from(template, dir, extra);
    let mail = dir.join("mail.eml");
    std::fs::write(&mail, raw).expect("write");
    let (code, out, err) = support::judge_text(
        &[
            "ingest",
            game.to_str().expect("utf-8"),
            mail.to_str().expect("utf-8"),
        ],
        &[("JUDGE_NOW", NOW)],
    );
    assert!(code == 0 || code == 1, "judge ingest: {code}\n{out}{err}");
    let mut filed = Vec::new();
    if let Ok(entries) = std::fs::read_dir(game.join("pending")) {
        for e in entries.flatten() {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            filed.push((e.file_name().to_string_lossy().into_owned(), text));
        }
    }
    filed.sort();
    let mut answers = Vec::new();
    let mut to = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir.join("pickup")) {
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            let raw = std::fs::read(&p).expect("an answer");
            let m = pbem_judge::mail::inbound::read(&raw).expect("an answer is a mail");
            let body: String = m.parts.iter().map(|p| p.text.as_str()).collect();
            answers.push(format!("{}\n{body}", m.subject));
            to.push(m.to_line.to_ascii_lowercase());
        }
    }
    Outcome {
        said: format!("{out}{err}"),
        filed,
        answers,
        to,
        game,
    }
}

/// The demo game's map, for reading order files as the game reads them.
pub fn map() -> &'static Map {
    static M: std::sync::OnceLock<Map> = std::sync::OnceLock::new();
    M.get_or_init(|| support::rich_state("two-rivers", 7, 0).map)
}

/// A player's orders as the game plays them: each phase's orders in the order written,
/// without the lines they stand on (a greeting above them moves every line).
pub type Orders = (
    Vec<ProductionOrder>,
    Vec<MovementOrder>,
    Vec<BuildingOrder>,
    Vec<WonderOrder>,
);

pub fn orders_only(o: &PlayerOrders) -> Orders {
    (
        o.production.iter().map(|n| n.order.clone()).collect(),
        o.movement.iter().map(|n| n.order.clone()).collect(),
        o.building.iter().map(|n| n.order.clone()).collect(),
        o.wonder.iter().map(|n| n.order.clone()).collect(),
    )
}

/// What `judge check` of `text` in `game` says, if it finds errors.
fn check_errors(game: &Path, text: &str, at: &Path) -> Option<String> {
    std::fs::write(at, text).expect("write");
    let (code, out, err) = support::judge_text(
        &[
            "check",
            game.to_str().expect("utf-8"),
            at.to_str().expect("utf-8"),
        ],
        &[("JUDGE_NOW", NOW)],
    );
    assert!(code == 0 || code == 1, "judge check: {code}\n{out}{err}");
    (code == 1).then_some(out)
}

/// Whitespace made single spaces, lower case: answers are compared by their words.
fn words(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Why the judge's handling of one shape is wrong, if it is. Its game is made under
/// `templates` (one for each secret of red's the shapes give).
pub fn judge_shape(templates: &Path, eml: &Path) -> Result<(), String> {
    let raw = std::fs::read(eml).map_err(|e| format!("{e}"))?;
    let template = template_for(templates, red_secret_of(&raw));
    let expect_path = eml.with_extension("expect");
    let expect = std::fs::read_to_string(&expect_path)
        .map_err(|e| format!("{}: {e}", expect_path.display()))?;
    let extra = std::fs::read_to_string(eml.with_extension("toml")).unwrap_or_default();
    let tmp = tempfile::tempdir().expect("tmp");
    let got = ingest(&template, tmp.path(), &raw, &extra);
    match expect_of(&expect) {
        Expect::Orders(meant) => {
            let want = parse(&meant, map());
            let seat = want
                .header
                .player
                .map(|c| c.to_string())
                .ok_or("the .expect has no `player` line")?;
            let file = format!("{seat}.txt");
            let Some((_, text)) = got.filed.iter().find(|(n, _)| *n == file) else {
                return Err(format!(
                    "nothing filed for {seat}; the judge said: {}; answers: {:?}",
                    got.said.trim(),
                    got.answers
                ));
            };
            let read = parse(text, map());
            if (
                read.header.game.as_deref(),
                read.header.player,
                read.header.turn,
            ) != (
                want.header.game.as_deref(),
                want.header.player,
                want.header.turn,
            ) {
                return Err(format!(
                    "the header read is {:?}, meant {:?}",
                    (read.header.game, read.header.player, read.header.turn),
                    (want.header.game, want.header.player, want.header.turn)
                ));
            }
            if orders_only(&read.orders) != orders_only(&want.orders) {
                return Err(format!(
                    "other orders were filed than meant:\n--- filed\n{text}\n--- meant\n{meant}"
                ));
            }
            let filed_errors = check_errors(&got.game, text, &tmp.path().join("filed.txt"));
            let meant_errors = check_errors(&got.game, &meant, &tmp.path().join("meant.txt"));
            if let (Some(said), None) = (filed_errors, meant_errors) {
                let said: String = said
                    .lines()
                    .filter(|l| l.starts_with("error"))
                    .collect::<Vec<_>>()
                    .join("\n");
                return Err(format!(
                    "the orders were read, but the file filed has errors the meant file has not:\n{said}\n--- filed\n{text}"
                ));
            }
            if !got.answers.iter().any(|a| words(a).contains("filed")) {
                return Err(format!(
                    "no answer says the orders are filed: {:?}",
                    got.answers
                ));
            }
            Ok(())
        }
        Expect::Refused(needed) => {
            if !got.filed.is_empty() {
                return Err(format!(
                    "meant to be refused, but filed {:?}",
                    got.filed.iter().map(|(n, _)| n).collect::<Vec<_>>()
                ));
            }
            let all = words(&got.answers.join("\n"));
            let missing: Vec<&String> =
                needed.iter().filter(|w| !all.contains(&words(w))).collect();
            if got.answers.is_empty() || !missing.is_empty() {
                return Err(format!(
                    "refused, but the answer lacks {missing:?}; the judge said: {}; answers: {:?}",
                    got.said.trim(),
                    got.answers
                ));
            }
            Ok(())
        }
    }
}

/// Every `.eml` of the corpus, sorted.
pub fn shapes() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(clients_dir())
        .expect("tests/mail/clients")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    v.sort();
    v
}

/// Every mail of the corpus is read exactly as meant, or refused
/// with an answer naming the real cause. All are run; the failures are listed together.
#[test]
fn every_client_shape_is_read_as_meant_or_refused_with_its_cause() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut failed = Vec::new();
    let all = shapes();
    for eml in &all {
        let name = eml
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        match judge_shape(tmp.path(), eml) {
            Ok(()) => eprintln!("ok      {name}"),
            Err(why) => {
                eprintln!("FAILED  {name}: {why}");
                failed.push(format!("{name}: {why}"));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} shapes of tests/mail/clients failed:\n\n{}",
        failed.len(),
        all.len(),
        failed.join("\n\n")
    );
}

/// The corpus is whole — at least the baseline shapes of this
/// runner, each `.eml` with its `.expect` and each `.expect` with its `.eml`, each mail
/// a real RFC 5322 message with CRLF line ends.
#[test]
fn the_corpus_is_whole() {
    let all = shapes();
    assert!(all.len() >= 18, "only {} shapes", all.len());
    for eml in &all {
        assert!(
            eml.with_extension("expect").is_file(),
            "{} has no .expect",
            eml.display()
        );
        let raw = std::fs::read(eml).expect("read");
        let bare_lf = raw
            .iter()
            .enumerate()
            .any(|(i, b)| *b == b'\n' && (i == 0 || raw[i - 1] != b'\r'));
        assert!(!bare_lf, "{}: a line end without CR", eml.display());
        let m = pbem_judge::mail::inbound::read(&raw)
            .unwrap_or_else(|e| panic!("{}: {e}", eml.display()));
        assert!(m.from.is_some(), "{}: no From:", eml.display());
        assert!(
            !m.message_id.starts_with("<no-id-"),
            "{}: no Message-ID",
            eml.display()
        );
    }
    for e in std::fs::read_dir(clients_dir()).expect("dir").flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "expect" || x == "toml") {
            assert!(
                p.with_extension("eml").is_file(),
                "{} has no .eml",
                p.display()
            );
        }
    }
}

/// The runner itself: a shape whose mail files other orders than its `.expect` says, or
/// is refused when orders were meant, or is filed when a refusal was meant, is reported
/// as failed (the runner is not a test that always passes).
#[test]
fn the_runner_catches_a_changed_order_and_a_wrong_refusal() {
    let tmp = tempfile::tempdir().expect("tmp");
    let templates = tmp.path().join("templates");
    let dir = tmp.path().join("case");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let head = "From: Ann <ann@example.org>\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <runner-self@example.org>\r\n\r\n";
    let orders = format!(
        "game demo\nplayer red\nsecret {RED_SECRET}\nturn 1\n\nmovement\nmove D1: load 2 boards; D4; unload 2 boards\n"
    );
    let eml = dir.join("x.eml");
    std::fs::write(&eml, format!("{head}{}", orders.replace('\n', "\r\n"))).expect("write");
    // The orders as sent: passes.
    std::fs::write(dir.join("x.expect"), &orders).expect("write");
    assert_eq!(judge_shape(&templates, &eml), Ok(()));
    // Meant another order: fails.
    std::fs::write(dir.join("x.expect"), orders.replace("2 boards", "1 board")).expect("write");
    let why = judge_shape(&templates, &eml).expect_err("a changed order is caught");
    assert!(why.contains("other orders"), "{why}");
    // Meant a refusal: fails.
    std::fs::write(dir.join("x.expect"), "refused:\nthe secret is wrong\n").expect("write");
    let why = judge_shape(&templates, &eml).expect_err("a filed mail meant refused is caught");
    assert!(why.contains("filed"), "{why}");
    // A refusal whose answer lacks the words: fails.
    std::fs::write(
        &eml,
        format!(
            "{head}{}",
            orders.replace(RED_SECRET, "wrong").replace('\n', "\r\n")
        ),
    )
    .expect("write");
    std::fs::write(dir.join("x.expect"), "refused:\nthe secret is missing\n").expect("write");
    let why = judge_shape(&templates, &eml).expect_err("a refusal for another cause is caught");
    assert!(why.contains("lacks"), "{why}");
    std::fs::write(dir.join("x.expect"), "refused:\nthe secret is wrong\n").expect("write");
    assert_eq!(judge_shape(&templates, &eml), Ok(()));
}
