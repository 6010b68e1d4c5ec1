use super::*;
use crate::goods::Good;
use crate::orders::{Consent, Party, ProductionOrder};
use crate::scenario::Scenario;

fn map() -> Map {
    let text = include_str!("../../../../tests/scenarios/valid-base.toml");
    Scenario::parse("valid-base.toml", text)
        .expect("valid")
        .setup()
        .map
        .clone()
}

fn read(text: &str) -> Parsed {
    parse(text, &map())
}

/// docs/orders.md: quoted history in a reply is not read as orders.
#[test]
fn quoted_lines_are_ignored() {
    let p = read("movement\n> move D9: C3\nmove D1: C3\n");
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    assert_eq!(p.orders.movement.len(), 1);
    assert_eq!(p.orders.movement[0].line, 3);
}

/// docs/orders.md: a mail client's "On …, Ann wrote:" line above quoted history is
/// not an order; the same words elsewhere are.
#[test]
fn an_attribution_line_above_a_quote_is_ignored() {
    let p = read("movement\nmove D1: C3\nOn Mon, 3 Jan 2026, Ann wrote:\n> move D1: C4\n");
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    let p = read("movement\nOn Monday I wrote:\nmove D1: C3\n");
    assert_eq!(p.problems.len(), 1);
}

/// A move needs a step: `move D1:` alone would use up D1's move for nothing.
#[test]
fn an_empty_move_is_refused() {
    let p = read("movement\nmove D1:\n");
    assert_eq!(p.problems.len(), 1);
    assert!(p.orders.movement.is_empty());
}

/// The header is compared with where the file arrived: the game, the sender and
/// the next turn; lines left out match anything.
#[test]
fn header_mismatches() {
    let p = read("game other\nplayer yellow\nturn 2\n");
    assert_eq!(
        p.header.mismatches(Some("demo"), Some(Colour::Red), 4),
        vec![
            HeaderMismatch::Game("other".into()),
            HeaderMismatch::Player(Colour::Yellow),
            HeaderMismatch::EarlierTurn(2)
        ]
    );
    assert_eq!(
        p.header.mismatches(Some("OTHER"), Some(Colour::Yellow), 1),
        vec![HeaderMismatch::LaterTurn(2)]
    );
    assert!(
        read("movement\n")
            .header
            .mismatches(Some("demo"), Some(Colour::Red), 4)
            .is_empty()
    );
}

/// docs/orders.md: nothing after a signature line is read.
#[test]
fn the_signature_ends_the_orders() {
    let p = read("movement\nmove D1: C3\n-- \nAnn\nmove D2: C3\n");
    assert!(p.problems.is_empty());
    assert_eq!(p.orders.movement.len(), 1);
}

/// CRLF, tabs, non-breaking spaces, trailing spaces and non-ASCII comments read as
/// plain text would.
#[test]
fn mail_whitespace_reads_plainly() {
    let p = read(
        "player red\r\nturn 4\r\nmovement\r\n\tmove\u{a0}D1:\tload 2 bd;  C3   \r\n# déjà vu ☂\r\n",
    );
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    assert_eq!(p.header.turn, Some(4));
    assert_eq!(p.orders.movement.len(), 1);
}

/// Typographic dashes and quotes from a mail client are made plain: `C3–C4` is a
/// border.
#[test]
fn typographic_dashes_are_plain() {
    let p = read("building\nwall C3\u{2013}C4 with D1 # \u{201c}keep out\u{201d}\n");
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    assert_eq!(p.orders.building.len(), 1);
}

/// docs/orders.md: a line ending with `;`, `,` or `\` continues on the next, as a
/// mail client's wrapping leaves it; the order keeps its first line's number.
#[test]
fn wrapped_lines_continue() {
    let p = read("movement\nmove D1: load 2 boards;\nC3; unload 2 boards\nmove D2: C3 \\\n; C4\n");
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    assert_eq!(p.orders.movement.len(), 2);
    assert_eq!(p.orders.movement[0].line, 2);
    assert_eq!(p.orders.movement[1].line, 4);
}

/// A problem names the exact word: its span covers it in the original text, even on
/// a continued line.
#[test]
fn problems_point_at_the_word() {
    let text = "movement\nmove D1: load 2 boards;\nC3; load 1 bords\n";
    let p = read(text);
    let span = p.problems[0].span.clone().expect("span");
    assert_eq!(&text[span], "bords");
    assert_eq!(
        p.problems[0].help.as_deref(),
        Some("did you mean `boards`?")
    );
}

/// A good copied from the map picture (`2Bd`, its count and
/// short form together) is not read as an order's goods, but the help says how to
/// write it; the short form with its count apart reads.
#[test]
fn a_good_copied_from_the_picture_is_shown_how_to_write() {
    let p = read("movement\nmove D1: load 2Bd; C3\n");
    assert_eq!(p.problems.len(), 1, "{:?}", p.problems);
    assert_eq!(
        p.problems[0].help.as_deref(),
        Some("the map writes `2Bd`; an order writes the count apart: `2 bd`")
    );
    let p = read("movement\nmove D1: load 2 Bd, 1 st; C3\n");
    assert!(p.problems.is_empty(), "{:?}", p.problems);
}

/// The orders that pass goods and transporters between players (`give`, `carry`, `accept`,
/// `offer`, `allow`), and Planes & Trains', read as docs/orders.md shows them.
#[test]
fn the_new_orders_read() {
    let p = read(
        "production\nno breed C3\nno breed\ngive D1 2 boards to D2\ngive 1 stone from D2 to D1\n\
             carry D2 on D1\nmake 1 fuel at C3 from D1 using boards\naccept goods from yellow\n\
             accept 2 boards from anyone on D1\noffer D1 to yellow\noffer 1 board from D1 to yellow\n\
             allow yellow to carry D1\nmovement\ntrain D1 to C3 fare 1 stone from cargo; follow 2 geese\n\
             fly P1: load 1 board; follow 2 geese; land C3\naccept goods from red\nallow anyone to carry D1\n\
             building\noffer 2 boards from D1 to red\n",
    );
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    assert_eq!(p.orders.production.len(), 11);
    assert_eq!(p.orders.movement.len(), 4);
    assert_eq!(p.orders.building.len(), 1);
    assert_eq!(
        p.orders.production[9].order,
        ProductionOrder::Consent(Consent::Offer {
            transporter: "D1".parse().expect("id"),
            goods: Some([(Good::Boards, 1)].into_iter().collect()),
            to: Party::Player(Colour::Yellow),
        })
    );
    // A module's order, read by the grammar Trains registers (the reader
    // names no module, so its shape is checked here as it serializes).
    let train = serde_json::to_value(&p.orders.movement[0].order).expect("json");
    assert_eq!(train["order"], "train", "{train}");
    assert_eq!(train["fare_from"], "cargo", "{train}");
    assert_eq!(train["follow"], 2, "{train}");
}

/// Consents go in the phases they are for; elsewhere the line is refused with a hint.
#[test]
fn a_consent_in_the_wrong_phase_is_refused_with_a_hint() {
    let p = read("movement\noffer D1 to yellow\nbuilding\naccept goods from red\n");
    assert_eq!(p.problems.len(), 2);
    assert!(
        p.problems[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("production or building")),
        "{:?}",
        p.problems
    );
    let p = read("production\nmake 2 boards at C3 from D1 using boards\n");
    assert_eq!(p.problems.len(), 1, "`using` is for fuel and paper");
}

/// docs/orders.md: a mail is a letter; a greeting before the orders and a
/// sign-off after them are not errors. Words in the middle of the orders still are.
#[test]
fn a_greeting_and_a_sign_off_are_not_errors() {
    let p = read(
        "Hi judge,\n\ngame demo\nplayer red\nturn 1\nHere are my orders:\nmovement\nmove D1: C3\n\nThanks!\nBob\n",
    );
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    assert_eq!(
        p.header.game.as_deref(),
        Some("demo"),
        "the greeting's comma swallows nothing"
    );
    assert_eq!(p.orders.movement.len(), 1);
    // Mail as phones send it: iOS and Android type `’` and `—` for `'` and
    // `-`; a greeting or sign-off written so is as plain as one typed with `'`.
    for letter in [
        "Hello judge, here’s my turn:\nplayer red\nmovement\nmove D1: C3\nThat’s all, thanks!\n",
        "Here’s turn 1:\nplayer red\nmovement\nmove D1: C3\nThanks – that’s all!\n",
        "Hi! Orders below — grüße\nplayer red\nmovement\nmove D1: C3\n",
        "hier meine Züge – schöne Grüße:\nplayer red\nmovement\nmove D1: C3\n",
    ] {
        let p = read(letter);
        assert!(p.problems.is_empty(), "{letter}: {:?}", p.problems);
        assert_eq!(p.orders.movement.len(), 1, "{letter}");
    }
    let p = read("player red\nmovement\nmove D1: C3\nplease be kind\nmove D2: C3\n");
    assert_eq!(p.problems.len(), 1, "prose between orders is reported");
    let p = read("player red\nmovement\nmove D1: C3\nmvoe D2: C3\n");
    assert_eq!(
        p.problems.len(),
        1,
        "a misspelt last order is still an error"
    );
}

/// A wrapped order's door: it is joined from a few lines (a mail
/// program's wrap), never from hundreds, so that 20,000 continuation lines cost
/// linear time; the lines beyond are reported, never dropped.
#[test]
fn a_wrapped_order_joins_a_few_lines_and_reports_the_rest() {
    let mut text = String::from("player red\nmovement\nmove D1: C3\n");
    for i in 0..10 {
        text.push_str(if i % 2 == 0 { "; C4\n" } else { "; C3\n" });
    }
    let p = read(&text);
    assert_eq!(p.orders.movement.len(), 1, "{:?}", p.problems);
    assert!(!p.problems.is_empty(), "the lines beyond are reported");
}

/// A misspelt verb gets "did you mean", also one of another phase.
#[test]
fn a_misspelt_verb_is_named() {
    let p =
        read("player red\nproduction\nlaod D1 1 board\nmovement\nmvoe D1: C3\nlaod D2 1 board\n");
    let helps: Vec<&str> = p
        .problems
        .iter()
        .filter_map(|d| d.help.as_deref())
        .collect();
    assert_eq!(helps[0], "did you mean `load`?");
    assert_eq!(helps[1], "did you mean `move`?");
    assert!(
        helps[2].starts_with("did you mean `load`? That is a production order"),
        "{helps:?}"
    );
}

/// A line that does not read is left out; the others are kept (docs/orders.md).
#[test]
fn bad_lines_are_left_out_and_good_ones_kept() {
    let p = read("building\nbuild sawmil at C3 with D1\nroad C3 C4 with D1\n");
    assert_eq!(p.problems.len(), 1);
    assert_eq!(p.orders.building.len(), 1);
}
