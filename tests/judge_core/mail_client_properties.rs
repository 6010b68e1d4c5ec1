//! For random valid order files of the demo game,
//! each transformation a mail program makes — format=flowed at 72 (RFC 3676 soft line
//! breaks), a hard wrap at 76 and at 78, quoted-printable soft breaks, a picture part
//! between two lines (multipart/mixed text, image, text), an unquoted Outlook-style reply
//! history below (`-----Original Message-----` and the judge's report with `secret
//! YOUR-SECRET`), HTML with a `<div>` per line — gives, through the judge's intake, the
//! same orders or an error the player is told; NEVER other orders.
//!
//! "The same orders" is compared as the game reads them (each phase's orders, parsed,
//! without their line numbers), never as text. "An error the player is told" is a
//! refusal answered to the player (rate limits aside: a refusal of this harness is never
//! one of a stranger), or a filed file with more errors than the file sent: the answer
//! lists them and the file waits for a corrected one.
//!
//! Five of them the judge undoes whole (flowed, quoted-printable, the picture, the
//! unquoted reply, the divs): there every case must be read as meant, filed with the very
//! orders sent and no error ([`read_as_meant`]); only a hard wrap may leave an error.
//!
//! Each transformation is a test of its own, 256 cases in the fast tier, each case a
//! real mail filed by `Intake` into one demo game (the same secret each time, so one
//! argon2 check per test).

use crate::judge_core::mail_clients::{NOW, RED_SECRET, game_from, map, orders_only, template};
use crate::roads_boats::order_words::VALID;

use std::cell::RefCell;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use pbem_judge::pbem::intake::Intake;
use pbem_judge::pbem::log::Outcome;
use pbem_judge::pbem::sources::Mail;
use pbem_judge::roads_boats::order_text::parse;
use pbem_judge::roads_boats::state::Phase;

/// Cases per transformation in the fast tier.
const CASES: u32 = 256;

/// The demo game's places and pieces: red's donkeys D1 and D2 on C4, its neighbour D4.
fn fill(line: &str) -> String {
    line.replace("{h}", "C4")
        .replace("{n}", "D4")
        .replace("{t}", "D1")
        .replace("{u}", "D2")
}

/// The valid lines of every order of the base game and the modules (tests/roads_boats/order_words.rs),
/// by phase, those the demo map reads without a problem.
fn valid_lines() -> &'static [(Phase, String)] {
    static L: std::sync::OnceLock<Vec<(Phase, String)>> = std::sync::OnceLock::new();
    L.get_or_init(|| {
        let v: Vec<(Phase, String)> = VALID
            .iter()
            .map(|(p, l)| (*p, fill(l)))
            .filter(|(p, l)| {
                let text = format!("{}\n{l}\n", heading(*p));
                parse(&text, map()).problems.is_empty()
            })
            .collect();
        assert!(v.len() >= 30, "only {} valid lines", v.len());
        v
    })
}

fn heading(p: Phase) -> &'static str {
    match p {
        Phase::Production => "production",
        Phase::Movement => "movement",
        Phase::Building => "building",
        _ => "wonder",
    }
}

/// The steps a long movement order is made of.
const STEPS: &[&str] = &[
    "load 2 boards",
    "unload 1 board",
    "D4",
    "C4",
    "load 1 stone",
    "unload 1 stone",
    "give 1 board to D2",
    "carry D2",
];

/// The goods a long consent lists (`accept 2 boards, 1 stone, … from yellow on D1`: the
/// issue's order whose tail `on D8` a wrap cut off).
const GOODS: &[&str] = &[
    "1 board", "2 boards", "1 stone", "2 geese", "1 trunk", "1 clay", "1 gold", "1 coin", "1 fuel",
    "1 paper",
];

/// A random valid order file: the header, then each phase's orders in the phase's order,
/// some of them long movement orders and consents (up to ~300 characters on one line).
fn order_file() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(0..valid_lines().len(), 1..10),
        prop::collection::vec(prop::collection::vec(0..STEPS.len(), 2..30), 0..3),
        prop::collection::vec(prop::collection::vec(0..GOODS.len(), 1..14), 0..2),
    )
        .prop_map(|(picked, long, consents)| {
            let lines = valid_lines();
            let mut text = format!("game demo\nplayer red\nsecret {RED_SECRET}\nturn 1\n");
            for phase in [
                Phase::Production,
                Phase::Movement,
                Phase::Building,
                Phase::Wonder,
            ] {
                let mut these: Vec<String> = picked
                    .iter()
                    .map(|i| &lines[*i])
                    .filter(|(p, _)| *p == phase)
                    .map(|(_, l)| l.clone())
                    .collect();
                if phase == Phase::Movement {
                    these.extend(long.iter().map(|steps| {
                        let s: Vec<&str> = steps.iter().map(|i| STEPS[*i]).collect();
                        format!("move D1: {}", s.join("; "))
                    }));
                    these.extend(consents.iter().map(|goods| {
                        let g: Vec<&str> = goods.iter().map(|i| GOODS[*i]).collect();
                        format!("accept {} from yellow on D1", g.join(", "))
                    }));
                }
                if !these.is_empty() {
                    text.push('\n');
                    text.push_str(heading(phase));
                    text.push('\n');
                    for l in these {
                        text.push_str(&l);
                        text.push('\n');
                    }
                }
            }
            text
        })
}

/// A mail program's transformation of the orders it sends.
#[derive(Clone, Copy, Debug)]
enum Client {
    /// format=flowed, lines over 72 broken at a space, each broken line ending in a space.
    Flowed72,
    /// A hard wrap at a space before this column (Gmail's plain-text mode: 78).
    HardWrap(usize),
    /// Quoted-printable, soft breaks `=` at this width (76 at most).
    QuotedPrintable(usize),
    /// A picture between line `n` (mod the lines) and the next: text, image, text.
    Picture(usize),
    /// Outlook's reply history below, without `>`: the judge's report holding `secret
    /// YOUR-SECRET`.
    UnquotedReply,
    /// HTML only, a `<div>` per line.
    HtmlDivs,
}

/// Break `line` at spaces into pieces of at most `width` characters (a word longer than
/// the width stands alone), each piece but the last keeping its space when `keep`.
fn wrap(line: &str, width: usize, keep: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for w in line.split(' ') {
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > width {
            out.push(if keep { format!("{cur} ") } else { cur.clone() });
            cur.clear();
        } else if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    out.push(cur);
    out
}

fn crlf(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\r\n")).collect()
}

/// Quoted-printable (RFC 2045) with soft breaks at `width`.
fn qp(text: &str, width: usize) -> String {
    let width = width.clamp(4, 76);
    let mut out = String::new();
    for line in text.lines() {
        let mut enc: Vec<String> = Vec::new();
        let chars: Vec<char> = line.chars().collect();
        for (i, c) in chars.iter().enumerate() {
            let last = i + 1 == chars.len();
            if *c == '=' || !c.is_ascii() || (last && (*c == ' ' || *c == '\t')) {
                let mut b = [0u8; 4];
                for byte in c.encode_utf8(&mut b).bytes() {
                    enc.push(format!("={byte:02X}"));
                }
            } else {
                enc.push(c.to_string());
            }
        }
        let mut col = 0;
        for e in enc {
            if col + e.len() > width - 1 {
                out.push_str("=\r\n");
                col = 0;
            }
            col += e.len();
            out.push_str(&e);
        }
        out.push_str("\r\n");
    }
    out
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The report a player replies to, as the judge mails it (the template's secret left as
/// YOUR-SECRET).
const REPORT: &str = "Demo, turn 0: the game begins.\n\nYour next orders start with these lines:\n\n    game demo\n    player red\n    turn 1\n    secret YOUR-SECRET\n\n    production\n\n    movement\n\n    building\n";

/// A small picture, as a phone pastes one.
fn picture() -> String {
    use base64::Engine;
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0".to_vec();
    png.extend((0u8..=255).cycle().take(600));
    let b = base64::engine::general_purpose::STANDARD.encode(&png);
    b.as_bytes()
        .chunks(76)
        .map(|c| format!("{}\r\n", String::from_utf8_lossy(c)))
        .collect()
}

/// The mail `client` sends for `file`.
fn mail(client: Client, file: &str, n: usize) -> Vec<u8> {
    let head = format!(
        "From: Ann <ann@example.org>\r\nTo: judge@example.org\r\nSubject: orders\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\nMessage-ID: <prop-{n}@example.org>\r\nMIME-Version: 1.0\r\n"
    );
    let lines: Vec<String> = file.lines().map(str::to_string).collect();
    let plain = "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n";
    let out = match client {
        Client::Flowed72 => {
            let body: Vec<String> = lines
                .iter()
                .flat_map(|l| wrap(l, 72, true))
                .map(|l| {
                    // Space-stuffing (RFC 3676, 4.4).
                    if l.starts_with(' ') || l.starts_with('>') || l.starts_with("From ") {
                        format!(" {l}")
                    } else {
                        l
                    }
                })
                .collect();
            format!(
                "{head}Content-Type: text/plain; charset=utf-8; format=flowed\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
                crlf(&body)
            )
        }
        Client::HardWrap(w) => {
            let body: Vec<String> = lines.iter().flat_map(|l| wrap(l, w, false)).collect();
            format!("{head}{plain}\r\n{}", crlf(&body))
        }
        Client::QuotedPrintable(w) => format!(
            "{head}Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n{}",
            qp(file, w)
        ),
        Client::Picture(k) => {
            let at = 1 + k % (lines.len() - 1).max(1);
            let (a, b) = lines.split_at(at.min(lines.len()));
            format!(
                "{head}Content-Type: multipart/mixed; boundary=\"Apple-Mail=_B1\"\r\n\r\n\
                 --Apple-Mail=_B1\r\n{plain}\r\n{}\r\n\
                 --Apple-Mail=_B1\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: inline; filename=\"IMG_0042.png\"\r\nContent-Type: image/png; name=\"IMG_0042.png\"\r\n\r\n{}\r\n\
                 --Apple-Mail=_B1\r\n{plain}\r\n{}\r\n--Apple-Mail=_B1--\r\n",
                crlf(a),
                picture(),
                crlf(b)
            )
        }
        Client::UnquotedReply => {
            let history = format!(
                "\n-----Original Message-----\nFrom: judge@example.org <judge@example.org>\nSent: Monday, November 30, 2026 6:00 PM\nTo: Ann <ann@example.org>\nSubject: [demo] turn 0: the game begins\n\n{REPORT}"
            );
            let all: Vec<String> = format!("{file}{history}")
                .lines()
                .map(str::to_string)
                .collect();
            format!("{head}{plain}\r\n{}", crlf(&all))
        }
        Client::HtmlDivs => {
            let divs: String = lines
                .iter()
                .map(|l| {
                    if l.is_empty() {
                        "<div><br></div>\r\n".to_string()
                    } else {
                        format!("<div>{}</div>\r\n", html_escape(l))
                    }
                })
                .collect();
            format!(
                "{head}Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n<html><body>\r\n{divs}</body></html>\r\n"
            )
        }
    };
    out.into_bytes()
}

/// The errors of a file as the game reads it.
fn errors(text: &str) -> usize {
    parse(text, map())
        .problems
        .iter()
        .filter(|d| d.is_error())
        .count()
}

/// Run `cases` random order files through `client` into one demo game; fail with the
/// first (shrunk) file whose mail files other orders than the file's, without an error.
fn same_orders_or_an_error(client: &dyn Fn(usize) -> Client) {
    run(client, false);
}

/// The stronger side, for the transformations the judge undoes whole (flowed, QP soft
/// breaks, a picture between lines, an unquoted reply below, HTML divs): every case is
/// filed, with the very orders sent and no error. (A harness where every case is an
/// error would pass [`same_orders_or_an_error`] without reading anything.)
fn read_as_meant(client: &dyn Fn(usize) -> Client) {
    run(client, true);
}

fn run(client: &dyn Fn(usize) -> Client, exact: bool) {
    let tmp = tempfile::tempdir().expect("tmp");
    let template = template(tmp.path());
    let play = tmp.path().join("play");
    std::fs::create_dir_all(&play).expect("mkdir");
    let dir = game_from(&template, &play, "");
    let now = humantime::parse_rfc3339(NOW).expect("now");
    let (archive, game) =
        pbem_judge::pbem::open(pbem_judge::games::registry(), &dir).expect("game");
    let intake = RefCell::new(Intake::open(&archive, game, now).expect("intake"));
    let n = RefCell::new(0usize);
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&(order_file(), any::<usize>()), |(file, k)| {
        let sent = parse(&file, map());
        prop_assert_eq!(errors(&file), 0, "the file sent is valid:\n{}", file);
        let c = client(k);
        let seq = {
            let mut n = n.borrow_mut();
            *n += 1;
            *n
        };
        let raw = mail(c, &file, seq);
        let filed = intake
            .borrow_mut()
            .file(&Mail {
                raw: raw.clone(),
                label: format!("{c:?}"),
                delivered: None,
            })
            .map_err(|e| TestCaseError::fail(format!("intake: {e}")))?;
        match &filed.outcome {
            Outcome::Accepted { .. } => {
                let text = std::fs::read_to_string(dir.join("pending/red.txt"))
                    .map_err(|e| TestCaseError::fail(format!("pending/red.txt: {e}")))?;
                let read = parse(&text, map());
                let same = orders_only(&read.orders) == orders_only(&sent.orders);
                let told = errors(&text) > 0;
                prop_assert!(
                    !exact || (same && !told),
                    "{:?}: not read as meant\n--- sent\n{}\n--- filed\n{}",
                    c,
                    file,
                    text
                );
                prop_assert!(
                    same || told,
                    "{:?}: other orders filed, and no error said so\n--- sent\n{}\n--- filed\n{}\n--- the mail\n{}",
                    c,
                    file,
                    text,
                    String::from_utf8_lossy(&raw)
                );
            }
            Outcome::Refused { reason, .. } => {
                prop_assert!(!exact, "{:?}: refused: {}", c, reason);
                prop_assert!(
                    !reason.contains("not a player"),
                    "{:?}: refused as a stranger's: {}",
                    c,
                    reason
                );
            }
            other => {
                return Err(TestCaseError::fail(format!(
                    "{c:?}: neither filed nor refused: {other:?}"
                )));
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// `format=flowed` at 72 (Thunderbird's default).
#[test]
fn flowed_at_72_gives_the_same_orders_or_an_error() {
    read_as_meant(&|_| Client::Flowed72);
}

/// A hard wrap at 76.
#[test]
fn a_hard_wrap_at_76_gives_the_same_orders_or_an_error() {
    same_orders_or_an_error(&|_| Client::HardWrap(76));
}

/// A hard wrap at 78 (Gmail's plain-text mode).
#[test]
fn a_hard_wrap_at_78_gives_the_same_orders_or_an_error() {
    same_orders_or_an_error(&|_| Client::HardWrap(78));
}

/// Quoted-printable soft breaks, at any width up to 76.
#[test]
fn quoted_printable_soft_breaks_give_the_same_orders_or_an_error() {
    read_as_meant(&|k| Client::QuotedPrintable(10 + k % 67));
}

/// A picture between any two lines (Apple Mail's text, image,
/// text).
#[test]
fn a_picture_between_two_lines_gives_the_same_orders_or_an_error() {
    read_as_meant(&Client::Picture);
}

/// An unquoted reply history below (Outlook), holding the judge's
/// report and its `secret YOUR-SECRET`.
#[test]
fn an_unquoted_reply_below_gives_the_same_orders_or_an_error() {
    read_as_meant(&|_| Client::UnquotedReply);
}

/// HTML with a `<div>` per line.
#[test]
fn html_with_a_div_per_line_gives_the_same_orders_or_an_error() {
    read_as_meant(&|_| Client::HtmlDivs);
}

/// The harness itself: each transformation changes the mail (it is not the file sent as
/// it is), and a mail that files other orders is caught (the property can fail).
#[test]
fn the_transformations_transform_and_the_harness_can_fail() {
    let long = format!(
        "game demo\nplayer red\nsecret {RED_SECRET}\nturn 1\n\nmovement\nmove D1: {}\n",
        ["load 2 boards", "D4", "unload 1 board", "C4"]
            .repeat(6)
            .join("; ")
    );
    for c in [
        Client::Flowed72,
        Client::HardWrap(76),
        Client::HardWrap(78),
        Client::QuotedPrintable(40),
        Client::Picture(3),
        Client::UnquotedReply,
        Client::HtmlDivs,
    ] {
        let raw = String::from_utf8(mail(c, &long, 1)).expect("utf-8");
        let body = raw.split_once("\r\n\r\n").expect("a body").1;
        assert_ne!(body.replace("\r\n", "\n"), long, "{c:?} changes nothing");
        let m = pbem_judge::mail::inbound::read(raw.as_bytes()).expect("a mail");
        assert!(m.from.is_some(), "{c:?}: {raw}");
    }
    // Wrapped at 76 without a mark, the long order's tail is a line of its own: what the
    // judge must never file as other orders in silence.
    let wrapped: Vec<String> = long.lines().flat_map(|l| wrap(l, 76, false)).collect();
    assert!(wrapped.len() > long.lines().count(), "{wrapped:?}");
    let cut = parse(&wrapped[..7].join("\n"), map());
    assert_ne!(
        orders_only(&cut.orders),
        orders_only(&parse(&long, map()).orders),
        "a file cut short reads as other orders"
    );
}
