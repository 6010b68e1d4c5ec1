//! How the MIME parts of a mail become the text the
//! judge reads. Each mail of `tests/mail/clients/` named here is fed to the real `judge
//! ingest` of a demo game whose red player (Ann) has the corpus's secret; then what was
//! filed (`pending/red.txt`) and what Ann was answered are checked against its `.expect`:
//! the order file she meant, or `refused:` and the words the answer must hold. Each
//! failed on the judge before the fix (what it did is said by each shape below).

use crate::judge_core::hostile_mail::{self, Game};
use crate::support;

/// The secret the corpus's mails give for red.
const SECRET: &str = "ab23-cd45-ef67";

/// The shapes of this part, and what the judge did with each before.
const SHAPES: &[&str] = &[
    // Point 1: the orders after the picture dropped, "filed, no errors".
    "apple-mail-picture-between",
    // Point 1 (and 9): every order after the picture: "the secret is missing".
    "apple-mail-picture-first",
    // Point 5: the long order split in two: an error, its tail an order of its own.
    "thunderbird-flowed",
    "apple-mail-flowed-delsp",
    "thunderbird-html-flowed-alternative",
    // Point 4: the indented orders read as a quote: "no orders".
    "html-only-indent-button",
    // Point 3: the body of header lines filed, the attached orders never read.
    "header-body-orders-attached",
    "header-body-empty-attachment",
    // Point 9: each "the secret is missing".
    "forwarded-rfc822",
    "outlook-utf16-attachment",
    "octet-stream-orders-txt",
    "outlook-winmail-dat",
];

fn corpus(name: &str) -> (Vec<u8>, String) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail/clients");
    let eml = std::fs::read(dir.join(format!("{name}.eml"))).expect("the .eml");
    let expect = std::fs::read_to_string(dir.join(format!("{name}.expect"))).expect(".expect");
    (eml, expect)
}

/// A demo game whose red player has the corpus's secret.
fn game() -> Game {
    let g = hostile_mail::game("");
    let path = g.dir.join("game.toml");
    let toml = std::fs::read_to_string(&path).expect("toml");
    std::fs::write(&path, support::with_red_secret(&toml, SECRET)).expect("toml");
    g
}

/// The lines of an order file as compared: trimmed, blank lines and the `secret` line
/// (blanked in what is filed) left out.
fn order_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("secret"))
        .map(str::to_string)
        .collect()
}

/// The whole answer (subject and body), for the words an `.expect` names.
fn answers(g: &Game) -> String {
    g.sent_to("ann@example.org")
        .join("\n---\n")
        .replace("=\r\n", "")
        .replace("=\n", "")
}

#[test]
fn every_shape_is_read_as_meant_or_refused_with_its_cause() {
    let mut failed = Vec::new();
    for name in SHAPES {
        let (eml, expect) = corpus(name);
        let g = game();
        g.ingest(&[eml]);
        let said = answers(&g);
        let pending = g.pending();
        let mut fail = |why: String| failed.push(format!("{name}: {why}\n{said}"));
        match expect.strip_prefix("refused:") {
            Some(words) => {
                if !said.contains("refused, nothing filed") {
                    fail("not refused".into());
                }
                if said.contains("the secret is missing") {
                    fail("the part not read is not named".into());
                }
                let flat = said.split_whitespace().collect::<Vec<_>>().join(" ");
                for w in words.lines().map(str::trim).filter(|w| !w.is_empty()) {
                    if !flat.contains(w) {
                        fail(format!("{w:?} not in the answer"));
                    }
                }
                if !pending.is_empty() {
                    fail(format!("filed: {pending}"));
                }
            }
            None => {
                if order_lines(&pending) != order_lines(&expect) {
                    fail(format!("filed {:?}", order_lines(&pending)));
                }
                if !said.contains("filed, no errors") {
                    fail("not answered \"filed, no errors\"".into());
                }
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

/// An empty attachment under a body of header lines never replaces
/// the orders a player sent before: refused, and the earlier file stands.
#[test]
fn an_empty_attachment_never_replaces_earlier_orders() {
    let g = game();
    let earlier = hostile_mail::mail(
        "ann@example.org",
        "earlier@example.org",
        "",
        &format!(
            "game demo\r\nplayer red\r\nsecret {SECRET}\r\nturn 1\r\nmovement\r\nmove D1: load 1 board; C3\r\n"
        ),
    );
    g.ingest(&[earlier]);
    let before = g.pending();
    assert!(before.contains("move D1: load 1 board; C3"), "{before}");
    let (eml, _) = corpus("header-body-empty-attachment");
    g.ingest(&[eml]);
    assert_eq!(g.pending(), before, "the earlier orders stand");
    let said = answers(&g);
    assert!(said.contains("refused, nothing filed"), "{said}");
    let log = g.log();
    assert!(log.contains("holds no orders (it is empty)"), "{log}");
}

/// The limits on one mail: the hostile shapes of what this
/// part reads (every text part, forwarded mails, flowed lines, UTF-16) are under 2 MB
/// and read, not refused unread; `doors::no_mail_of_2_mb_costs_100_mb` and `cargo bench
/// --bench mail` measure what each costs.
#[test]
fn the_hostile_shapes_of_mime_are_read_within_the_limits() {
    use pbem_judge::fuzzing::{HOSTILE, hostile_mail};
    for (k, shape) in HOSTILE.iter().enumerate().skip(13) {
        let raw = hostile_mail(k, 1, "ann@example.org");
        assert!(raw.len() < pbem_judge::mail::inbound::MAX_BYTES, "{shape}");
        let m = pbem_judge::mail::inbound::read(&raw).expect(shape);
        let text: usize = m.parts.iter().map(|p| p.text.len()).sum();
        assert!(text > 400_000, "{shape}: {text} bytes of text read");
    }
}
