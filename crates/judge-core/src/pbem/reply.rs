//! A player who answers the judge's report (or its answer to
//! `template`) by writing the orders into the template the mail quotes (inside `> `),
//! where the report says "ready to fill". Quoted text is an earlier mail, never read as
//! orders ([`crate::mail::letter`]); this is the one exception, and it is narrow:
//! - the player's own text (what is not quoted) holds no orders;
//! - the quote holds one of the judge's own sentences that end its mails above the
//!   template ([`REPORT_ABOVE`], [`TEMPLATE_ABOVE`]);
//! - and below that sentence, in the same quote, there is a line the judge did not
//!   write there: not a line of the template it mails the player now, nor blank, nor a
//!   comment. A template quoted back unchanged is still no orders.
//!
//! Then the template as the player left it is read: the lines below the sentence to the
//! end of that quote, and the header lines the report shows above it (`game`, `player`,
//! `turn`, `secret`, indented), each with its one level of `>` taken off. Every line
//! keeps its number; the rest of the quote is left as it is (not read).

use std::collections::BTreeSet;

/// The sentence a report ends with, above the template (pbem/send.rs writes it).
pub const REPORT_ABOVE: &str = "Below the header lines above, ready to fill:";

/// The sentence the answer to `template` begins with (pbem/by_mail.rs writes it).
pub const TEMPLATE_ABOVE: &str =
    "Fill it in and mail it back; your secret goes where it says (the judge never mails it).";

/// The words a header line begins with.
const HEADER_WORDS: &[&str] = &["game", "player", "turn", "secret"];

/// A quoted line without its one level of quoting (`> ` or `>`), or `None` for a line
/// that is not quoted.
fn unquoted(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('>')?;
    Some(rest.strip_prefix(' ').unwrap_or(rest))
}

fn first_word(line: &str) -> String {
    line.split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches(':')
        .to_ascii_lowercase()
}

/// `text` with the template written into a quote of the judge's mail read as the
/// player's own, when it holds one (see the module's doc); `None` when it does not.
/// Whether the player's own text holds orders is the game's to say: the caller asks it
/// first (intake: the check of the text echoes no order).
/// `sent`: the lines of the template the judge mails this player now (header and
/// body), each trimmed.
pub fn filled_template(text: &str, sent: &BTreeSet<String>) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let plain = |l: &str| l.trim_end_matches('\r').trim().to_string();
    // The last quoted line that is one of the judge's sentences.
    let anchor = (0..lines.len()).rev().find(|&k| {
        unquoted(lines[k]).is_some_and(|u| {
            let u = plain(u);
            u.ends_with(REPORT_ABOVE) || u == TEMPLATE_ABOVE
        })
    })?;
    // The quote it is in: the quoted lines around it.
    let mut top = anchor;
    while top > 0 && unquoted(lines[top - 1]).is_some() {
        top -= 1;
    }
    let mut bottom = anchor + 1;
    while bottom < lines.len() && unquoted(lines[bottom]).is_some() {
        bottom += 1;
    }
    let below = anchor + 1..bottom;
    let written = below.clone().any(|k| {
        unquoted(lines[k]).is_some_and(|u| {
            let u = plain(u);
            !(u.is_empty() || u.starts_with('#') || u.starts_with('>') || sent.contains(&u))
        })
    });
    if !written {
        return None;
    }
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_string()).collect();
    for k in below {
        if let Some(u) = unquoted(lines[k])
            && !u.trim_start().starts_with('>')
        {
            out[k] = u.to_string();
        }
    }
    // The report's header lines, indented above its sentence.
    for k in top..anchor {
        if let Some(u) = unquoted(lines[k])
            && u.starts_with("  ")
            && HEADER_WORDS.contains(&first_word(u).as_str())
        {
            out[k] = u.to_string();
        }
    }
    Some(out.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent() -> BTreeSet<String> {
        [
            "game demo",
            "player red",
            "turn 2",
            "secret YOUR-SECRET",
            "movement",
        ]
        .iter()
        .map(|s| (*s).to_string())
        .collect()
    }

    #[test]
    fn orders_written_into_the_quoted_template_are_read() {
        let mail = "Here you go\n\nOn Mon, Judge wrote:\n> The standings\n>     game demo\n>     player red\n>     turn 2\n>     secret s3cr3t\n>\n> Your order file\n> The order guide: x. Below the header lines above, ready to fill:\n>\n>     movement\n>     move D1: C2\n";
        let got = filled_template(mail, &sent()).expect("read");
        let lines: Vec<&str> = got.lines().collect();
        assert_eq!(lines[4], "    game demo");
        assert_eq!(lines[7], "    secret s3cr3t");
        assert_eq!(lines[9], "> Your order file");
        assert_eq!(lines[13], "    move D1: C2");
        assert_eq!(got.lines().count(), mail.lines().count());
    }

    #[test]
    fn an_unchanged_template_or_own_orders_are_left_alone() {
        let unchanged = "thanks\n> x. Below the header lines above, ready to fill:\n>\n>     movement\n>     # move D1: C2\n";
        assert_eq!(filled_template(unchanged, &sent()), None);
        let no_anchor = "thanks\n>     move D1: C2\n";
        assert_eq!(filled_template(no_anchor, &sent()), None);
    }
}
