//! The code the fuzz targets run (fuzz/, `scripts/fuzz`), here so that the normal test run
//! replays every saved input through exactly the same calls (tests/judge_core/fuzz_corpus.rs). Each
//! takes arbitrary bytes and must return without panicking, whatever they are.

// The positions the targets start from are fixed and bundled: one that did not read
// would be the harness's own fault, found by the first run, so the harness may expect.
#![allow(clippy::expect_used)]

use std::sync::OnceLock;

use crate::games;
use crate::pbem::game::Position;

/// The demo game's turn 0, the position orders are checked against.
fn demo() -> &'static dyn Position {
    static DEMO: OnceLock<Box<dyn Position + Send + Sync>> = OnceLock::new();
    DEMO.get_or_init(|| {
        let text = include_str!("../games/demo/turns/000/state.json");
        let state: crate::roads_boats::State =
            serde_json::from_str(text).expect("the bundled demo state reads");
        Box::new(state)
    })
    .as_ref()
}

/// A Catan game after a few steps, for its orders.
fn catan() -> &'static crate::catan::State {
    static GAME: OnceLock<crate::catan::State> = OnceLock::new();
    GAME.get_or_init(|| {
        let names: Vec<String> = ["A", "B", "C", "D"].iter().map(|s| s.to_string()).collect();
        crate::catan::new_game("fuzz", &names, 1, &crate::catan::Options::default())
            .expect("a new game")
    })
}

/// Roads & Boats orders: read and checked (the check plays them in a dry run).
pub fn roads_boats_orders(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let p = demo();
    let _ = p.header(&text);
    let c = p.check(&text, "fuzz", Some("red"), Some("demo"));
    let _ = c.errors();
}

/// Catan orders: checked and played.
pub fn catan_orders(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let s = catan();
    let _ = crate::catan::check_orders(s, crate::catan::Colour::Red, "fuzz", &text);
    let files = std::collections::BTreeMap::from([(crate::catan::Colour::Red, text.into_owned())]);
    let _ = crate::catan::play(s, &files);
}

/// A scenario file, for every game that reads them.
pub fn scenario(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for g in games::all() {
        let _ = g.check_scenario("fuzz.toml", &text);
    }
}

/// One raw mail through everything the intake does before it writes: the MIME reading,
/// the secrets found and blanked, the header and the check of the orders.
pub fn mail(data: &[u8]) {
    // What the intake reads of a stranger's mail first, then of a player's.
    let _ = crate::mail::inbound::read_with(data, crate::mail::inbound::Html::Skip);
    let Ok(m) = crate::mail::inbound::read(data) else {
        let _ = crate::mail::inbound::read_headers(data);
        return;
    };
    let texts = [m.subject.as_str(), m.message_id.as_str()]
        .into_iter()
        .chain(m.parts.iter().map(|p| p.text.as_str()));
    let values = crate::mail::redact::candidates(texts);
    for p in &m.parts {
        // The mark put in a secret's place may itself spell a short claimed secret
        // (`secret cret`): what is left besides the marks must not, in any form the
        // blanking compares (without white space and dashes, in any case). A mark
        // becomes a character no value holds, so that what stood either side of it
        // does not join.
        use crate::mail::redact::{BLANK, blank, squeezed};
        let blanked = squeezed(&blank(&p.text, &values).replace(BLANK, "\u{FFFF}"));
        for v in &values {
            let v = squeezed(v);
            if v.chars().count() >= 4 && !v.contains('\u{FFFF}') {
                assert!(
                    !blanked.contains(&v),
                    "the secret {v:?} left in {blanked:?}"
                );
            }
        }
    }
    if let Some(o) = m.orders() {
        let p = demo();
        let _ = p.header(&o);
        let _ = p.check(&o, "mail", Some("red"), Some("demo"));
    }
}

/// The shapes of mail that once cost the judge minutes or gigabytes each: what the
/// hostile-mail test, the mail benchmark and the fuzzing seeds are made
/// of. (An odd number of them, so that the hostile-mail test sends each from a player
/// and from a stranger.)
pub const HOSTILE: [&str; 17] = [
    "nested <div>",
    "nested <ul><li>",
    "table cells",
    "secret-shaped words",
    "a huge Subject",
    "a huge Message-ID",
    "many MIME parts",
    "<rt> in 100 parts",
    "<optgroup> in 100 parts",
    "<div/> in 100 parts",
    "a <b> left open over paragraphs",
    "one 2 MB line",
    "100 secret-shaped words over 2 MB",
    "text and pictures in 199 parts",
    "forwarded mails nested 90 deep",
    "2 MB of flowed one-letter lines",
    "a UTF-16 attachment of 2 MB",
];

/// A mail of one of the [`HOSTILE`] shapes, near 2 MB; `n` makes each one different.
pub fn hostile_mail(shape: usize, n: usize, from: &str) -> Vec<u8> {
    let id = format!("hostile-{shape}-{n}@x");
    let html = |body: String| {
        format!(
            "From: {from}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{body}"
        )
        .into_bytes()
    };
    match shape % HOSTILE.len() {
        0 => html(format!("{n}{}", "<div>".repeat(390_000))),
        1 => html(format!("{n}{}", "<ul><li>".repeat(240_000))),
        2 => html(format!(
            "<table><tr>{n}{}</tr></table>",
            "<td>x</td>".repeat(190_000)
        )),
        3 => {
            let words: Vec<String> = (0..130_000u32)
                .map(|w| {
                    // Letters and digits of the secrets' alphabet (no 0 or 1).
                    let d = format!("{w:08}{:04}", n % 10_000)
                        .replace('0', "a")
                        .replace('1', "b");
                    format!("{}-{}-{}", &d[..4], &d[4..8], &d[8..])
                })
                .collect();
            format!(
                "From: {from}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n\r\n{}",
                words.join(" ")
            )
            .into_bytes()
        }
        4 => format!(
            "From: {from}\r\nSubject: {n}{}\r\nMessage-ID: <{id}>\r\n\r\nx\r\n",
            "s".repeat(1_900_000)
        )
        .into_bytes(),
        5 => format!(
            "From: {from}\r\nSubject: orders\r\nMessage-ID: <{n}{}@x>\r\n\r\nx\r\n",
            "i".repeat(1_900_000)
        )
        .into_bytes(),
        6 => {
            let mut body = String::from(
                "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n",
            );
            for _ in 0..40_000 {
                body.push_str("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n");
            }
            body.push_str("--b--\r\n");
            format!("From: {from}\r\nSubject: {n}\r\nMessage-ID: <{id}>\r\n{body}").into_bytes()
        }
        // Tags the parser nests though a scan of the text takes them as closed, in as
        // many HTML attachments as fit.
        k @ 7..=9 => {
            let tag = ["<rt>", "<optgroup>", "<div/>"][k - 7];
            let part = format!("{n}{}", tag.repeat(4_999));
            let mut body = String::from(
                "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n",
            );
            let mut p = 0;
            while p < 100 && body.len() + part.len() < 1_900_000 {
                body.push_str(&format!(
                    "--b\r\nContent-Type: text/html\r\nContent-Disposition: attachment; filename=p{p}.html\r\n\r\n{part}\r\n"
                ));
                p += 1;
            }
            body.push_str("--b--\r\n");
            format!("From: {from}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n{body}").into_bytes()
        }
        // A formatting element left open, which the parser builds again in every
        // paragraph after it (a stray `</x>`, which it ignores, closes it for a scan).
        10 => html(
            (0..2_400)
                .map(|i| format!("<p><b id={i}-{n}></p></x>"))
                .collect::<String>()
                + &"<p>x".repeat(2_500),
        ),
        11 => format!(
            "From: {from}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n\r\ngame demo\r\n{n}{}\r\n",
            "x".repeat(1_990_000)
        )
        .into_bytes(),
        // Every text part of the body is read, and joined.
        13 => {
            let mut body = String::from(
                "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n",
            );
            let text = format!("move D1: load 1 board; C3 {n}\r\n").repeat(360);
            for p in 0..199 {
                if p % 2 == 0 {
                    body.push_str(&format!(
                        "--b\r\nContent-Type: text/plain; format=flowed\r\n\r\n{text}"
                    ));
                } else {
                    body.push_str("--b\r\nContent-Type: image/png\r\nContent-Disposition: inline\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n");
                }
            }
            body.push_str("--b--\r\n");
            format!("From: {from}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n{body}").into_bytes()
        }
        // A forwarded mail's text is read, however deep.
        14 => {
            let mut body = String::new();
            for d in 0..90 {
                body.push_str(&format!(
                    "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b{d}\r\n\r\n--b{d}\r\nContent-Type: message/rfc822\r\n\r\nFrom: {from}\r\nSubject: {d}\r\n"
                ));
            }
            body.push_str(&format!(
                "Content-Type: text/plain\r\n\r\n{}\r\n",
                format!("game demo {n}\r\n").repeat(100_000)
            ));
            for d in (0..90).rev() {
                body.push_str(&format!("--b{d}--\r\n"));
            }
            format!("From: {from}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n{body}").into_bytes()
        }
        // Every line flowed into one.
        15 => format!(
            "From: {from}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; format=flowed; delsp=yes\r\n\r\ngame demo\r\n{n}{}\r\n",
            "x \r\n".repeat(490_000)
        )
        .into_bytes(),
        // UTF-16 without a charset, decoded again from its bytes.
        16 => {
            let mut mail = format!(
                "From: {from}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nattached\r\n--b\r\nContent-Type: text/plain; name=orders.txt\r\nContent-Disposition: attachment; filename=orders.txt\r\nContent-Transfer-Encoding: binary\r\n\r\n"
            )
            .into_bytes();
            mail.extend([0xFF, 0xFE]);
            let text = format!(
                "game demo {n}\r\n{}",
                "move D1: load 1 board; C3\r\n".repeat(34_000)
            );
            mail.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
            mail.extend(b"\r\n--b--\r\n");
            mail
        }
        _ => {
            let words: Vec<String> = (0..100).map(|w| format!("abcd-efgh-{w:04}")).collect();
            let mut text = String::new();
            while text.len() < 1_900_000 {
                text.push_str(&words.join(" "));
                text.push_str(&format!(" move D1: load 1 board; C3 {n}\n"));
            }
            format!("From: {from}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n\r\n{text}")
                .into_bytes()
        }
    }
}

/// A mail's text as the command reader reads it (docs/mail-commands.md): every line is a
/// command, a slip answered with its fix, or left to the orders, which keep their line
/// numbers; what a command needs (the GM's, acts) is known for each.
pub fn commands(data: &[u8]) {
    use crate::pbem::commands::{holds_orders, split};
    let text = String::from_utf8_lossy(data);
    let s = split(&text);
    // A line ending in `\r\r\n` keeps one `\r` as a line, none once the rest is joined
    // again with `\n`: a carriage return at a line's end is no part of an order.
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    for (i, l) in s.rest.lines().enumerate() {
        let l = l.trim_end_matches('\r');
        assert!(
            l.is_empty() || lines.get(i) == Some(&l),
            "the orders keep their line numbers: line {} became {l:?}",
            i + 1
        );
    }
    let mut last = 0;
    for f in &s.commands {
        assert!(f.line > last, "commands in the order written");
        last = f.line;
        if let Ok(c) = &f.command {
            let _ = (c.name(), c.is_gm(), c.acts());
        }
    }
    let _ = holds_orders(&s.rest);
}

/// The games of a folder as its router sees them: Bob plays in both, Ann in one.
fn folder() -> &'static [crate::pbem::route::Entry] {
    static GAMES: OnceLock<Vec<crate::pbem::route::Entry>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let entry = |name: &str, players: &[&str]| crate::pbem::route::Entry {
            name: name.into(),
            players: players.iter().map(|p| p.to_string()).collect(),
            about: format!("{name}, turn 1 next"),
            formers: vec!["zed@example.org".into()],
        };
        vec![
            entry("harbour", &["bob@example.org", "cat@example.org"]),
            entry("island", &["ann@example.org", "bob@example.org"]),
        ]
    })
}

/// One raw mail through the folder's router: read once as the pass reads it,
/// routed with every game read and with one that could not be. Whatever it is, it goes
/// to a game of the folder or to the mailroom, its reading is kept only for a game, a
/// game named is one of the sender's or the sender plays in none, and the same mail is
/// routed the same way again.
pub fn route(data: &[u8]) {
    use crate::pbem::house::route_mail;
    use crate::pbem::route::{self, Route};
    let games = folder();
    let judge = "judge@example.org";
    let first = route_mail(games, true, judge, data, true);
    let yours = route::games_of(games, first.from.as_deref());
    match &first.route {
        Route::Game(g) => {
            assert!(*g < games.len(), "{:?}", first.route);
            assert!(
                yours.is_empty() || yours.contains(g),
                "a mail went to {g}, not one of the sender's games {yours:?}"
            );
        }
        Route::NotYourGame { yours: y, .. }
        | Route::WhichGame { yours: y }
        | Route::Games { yours: y } => {
            assert!(
                !y.is_empty() && *y == yours,
                "{:?} for {yours:?}",
                first.route
            );
        }
        Route::Stranger => {}
        Route::Wait => unreachable!("every game was read, yet the mail waits"),
    }
    assert_eq!(
        first.prior.is_some(),
        matches!(first.route, Route::Game(_)),
        "the reading is kept for a game's mail only"
    );
    let again = route_mail(games, true, judge, data, true);
    assert_eq!(again.route, first.route, "routed the same way twice");
    // Not read (its reading stopped passes): routed by its headers alone.
    let unread = route_mail(games, true, judge, data, false);
    assert!(!matches!(unread.route, Route::Wait), "{:?}", unread.route);
    // A game that cannot be read: only a game line decides, the rest waits.
    let partial = route_mail(games, false, judge, data, true);
    assert!(
        matches!(
            partial.route,
            Route::Game(_) | Route::Wait | Route::Stranger
        ),
        "{:?}",
        partial.route
    );
}

/// A stored state, for every game.
pub fn state(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for g in games::all() {
        if let Ok(p) = g.position(&text) {
            let _ = p.seats();
            let _ = p.show("fuzz");
        }
    }
}

/// A fuzz target: bytes in, no panic.
pub type Target = fn(&[u8]);

/// The targets by name, for the corpus test.
pub const TARGETS: [(&str, Target); 7] = [
    ("roads_boats_orders", roads_boats_orders),
    ("catan_orders", catan_orders),
    ("scenario", scenario),
    ("mail", mail),
    ("state", state),
    ("commands", commands),
    ("route", route),
];
