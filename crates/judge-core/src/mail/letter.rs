//! The lines mail programs put around what a player writes,
//! known in one place for every reader of a mail's text: the order readers of each game
//! and the commands (docs/orders.md, "A mail is a letter").
//!
//! A mail's text is read line by line; [`read`] says, for each line, whether it is the
//! player's own text (and which bytes of it), or something a mail program added:
//! - a quote of an earlier mail (`> …`), and the attribution above it (`On …, Ann
//!   wrote:`, `Le … a écrit :`, `Am … schrieb …:`, `El … escribió:`, `Il … ha
//!   scritto:`, `Op … schreef …:`, `Em … escreveu:`, also wrapped over two lines);
//! - the history below a reply separator, quoted without `>`: Outlook's
//!   `-----Original Message-----` or `From: … Sent: …` block (under a line of `_`),
//!   Samsung Email's and Android's `-------- Original message --------`, Yahoo's
//!   `On …, … wrote:` with no `>` below it;
//! - everything below a signature line (`-- `), or below a mailing list's footer (a line
//!   of `_` over `Club mailing list -- …` or `To unsubscribe …`);
//! - Gmail's forward header (`---------- Forwarded message ---------` and its
//!   `From:`/`Date:`/`Subject:`/`To:` lines: the forwarded text below it is read);
//! - PGP armour (`-----BEGIN PGP SIGNED MESSAGE-----`, `Hash:`, the signature block),
//!   and the `- ` of a dash-escaped line (RFC 4880, section 7.1) is left out;
//! - a line a mail program adds below the text (`Get Outlook for iOS<https://…>`), the
//!   link list html2text makes of a signature (`[1]: https://…`) and its markers (`[1]`)
//!   at a line's end;
//! - the placeholder `secret YOUR-SECRET` the judge mails in its templates, which is no
//!   one's secret.
//!
//! Reading is a pure function of the text, and costs one pass over it (with a look at
//! the next few lines): a mail of 10,000 such lines costs what 10,000 lines of orders do.

use std::ops::Range;

/// Each line of `text` (split at `\n`, a `\r` before it kept): the bytes of it that are
/// the player's own text, or `None` for a line a mail program added or quoted.
pub fn read(text: &str) -> Vec<Option<Range<usize>>> {
    let lines: Vec<&str> = text.split('\n').collect();
    let n = lines.len();
    let mut out: Vec<Option<Range<usize>>> = vec![None; n];
    let mut signed = false;
    let mut i = 0;
    while i < n {
        let line = lines[i].trim_end_matches('\r');
        let t = line.trim();
        // PGP armour: the header of a signed text, and the signature block.
        if t == "-----BEGIN PGP SIGNED MESSAGE-----" {
            signed = true;
            i += 1;
            while i < n && starts_with_ci(lines[i].trim(), "hash:") {
                i += 1;
            }
            continue;
        }
        if t == "-----BEGIN PGP SIGNATURE-----" {
            while i < n && lines[i].trim() != "-----END PGP SIGNATURE-----" {
                i += 1;
            }
            signed = false;
            i += 1;
            continue;
        }
        // A dash-escaped line of a signed text: `- move …` is `move …`.
        let from = if signed && line.starts_with("- ") {
            2
        } else {
            0
        };
        let own = &line[from..];
        if own.trim_end() == "--" {
            break;
        }
        if own.trim_start().starts_with('>') {
            i += 1;
            continue;
        }
        if separator(&lines, i) || list_footer(&lines, i) {
            break;
        }
        if let Some(span) = attribution(&lines, i) {
            match next_text(&lines, i + span) {
                // Above a quote (or nothing): the attribution alone is left out.
                None => {
                    i += span;
                    continue;
                }
                Some(next) if lines[next].trim_start().starts_with('>') => {
                    i += span;
                    continue;
                }
                // Above history quoted without `>` (Yahoo): everything below is it.
                Some(_) if dated(&lines[i..i + span]) => break,
                // "On Monday I wrote:" above more text is the player's own.
                Some(_) => {}
            }
        }
        if forwarded(t) {
            i += 1;
            while i < n && header_field(lines[i].trim()).is_some() {
                i += 1;
            }
            continue;
        }
        if added(t) {
            i += 1;
            continue;
        }
        let end = from + own.len() - trailing_link_markers(own);
        out[i] = Some(from..end);
        i += 1;
    }
    out
}

/// `text` with every line that is not the player's own left empty (so that each line
/// keeps its number), and the rest as [`read`] reads them.
pub fn own_text(text: &str) -> String {
    let kept = read(text);
    let mut out = String::with_capacity(text.len());
    for (k, line) in text.split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
        }
        if let Some(Some(r)) = kept.get(k) {
            out.push_str(&line[r.clone()]);
        }
    }
    out
}

fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.get(..prefix.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(prefix))
}

/// The first line at or after `from` that is not blank.
fn next_text(lines: &[&str], from: usize) -> Option<usize> {
    (from..lines.len()).find(|&k| !lines[k].trim().is_empty())
}

/// A mail header line quoted in the text (`From: Ann <ann@…>`): its field's name.
fn header_field(t: &str) -> Option<String> {
    let (name, _) = t.split_once(':')?;
    let name = name.trim().to_lowercase();
    [
        "from",
        "sent",
        "date",
        "to",
        "cc",
        "subject",
        "reply-to",
        "von",
        "gesendet",
        "an",
        "betreff",
        "de",
        "envoyé",
        "à",
        "objet",
        "enviado",
        "para",
        "asunto",
        "da",
        "inviato",
        "oggetto",
        "van",
        "verzonden",
        "aan",
        "onderwerp",
    ]
    .contains(&name.as_str())
    .then_some(name)
}

/// Does history quoted without `>` begin at line `i`: `-----Original Message-----`
/// (Outlook, in several languages), `-------- Original message --------` (Samsung
/// Email, Android), or a quoted mail header: `From: …` with `Sent:` or `Date:` in the
/// lines below it (Outlook, under a line of `_` or not)?
fn separator(lines: &[&str], i: usize) -> bool {
    let t = lines[i].trim();
    if t.starts_with("--") && t.ends_with("--") {
        let words = t.trim_matches('-').trim().to_lowercase();
        if [
            "original message",
            "ursprüngliche nachricht",
            "message d'origine",
            "mensaje original",
            "messaggio originale",
            "oorspronkelijk bericht",
            "mensagem original",
        ]
        .contains(&words.as_str())
        {
            return true;
        }
    }
    let start = if t.len() >= 10 && t.chars().all(|c| c == '_') {
        match next_text(lines, i + 1) {
            Some(k) => k,
            None => return false,
        }
    } else {
        i
    };
    let first = header_field(lines[start].trim());
    if !matches!(first.as_deref(), Some("from" | "von" | "de" | "da" | "van")) {
        return false;
    }
    lines
        .iter()
        .skip(start + 1)
        .take(4)
        .filter_map(|l| header_field(l.trim()))
        .any(|f| {
            matches!(
                f.as_str(),
                "sent" | "date" | "gesendet" | "envoyé" | "enviado" | "inviato" | "verzonden"
            )
        })
}

/// Does a mailing list's footer begin at line `i`: Mailman's line of `_` over
/// `Club mailing list -- club@…` (Mailman 3) or `Club mailing list` and a `listinfo`
/// link (Mailman 2), or `To unsubscribe …`? A list adds it below every mail it relays.
fn list_footer(lines: &[&str], i: usize) -> bool {
    let t = lines[i].trim();
    if t.len() < 10 || !t.chars().all(|c| c == '_') {
        return false;
    }
    next_text(lines, i + 1).is_some_and(|k| {
        let next = lines[k].trim().to_lowercase();
        next.contains("mailing list") || next.starts_with("to unsubscribe")
    })
}

/// The words that open an attribution, in the languages mail programs write it in.
const OPENERS: &[&str] = &["on ", "le ", "am ", "el ", "il ", "op ", "em "];

/// The verbs that close one (before its `:`).
const VERBS: &[&str] = &[
    "wrote",
    "écrit",
    "schrieb",
    "escribió",
    "scritto",
    "schreef",
    "escreveu",
    "skrev",
];

/// Is line `i` a reply's attribution (`On Mon, 3 Jan 2026, Ann <ann@…> wrote:`), alone
/// or wrapped onto the line below it? The number of its lines.
fn attribution(lines: &[&str], i: usize) -> Option<usize> {
    let t = lines[i].trim();
    let closes = |s: &str| {
        let Some(body) = s.trim_end().strip_suffix(':') else {
            return false;
        };
        let lower = body.to_lowercase();
        VERBS.iter().any(|v| {
            lower.trim_end().ends_with(v)
                || lower.contains(&format!(" {v} "))
                || lower.contains(&format!(" {v}\u{a0}"))
        })
    };
    let lower = t.to_lowercase();
    // Any line ending `wrote:` (as before: a quote follows it, checked by the caller).
    if lower.ends_with("wrote:") {
        return Some(1);
    }
    if !OPENERS.iter().any(|o| lower.starts_with(o)) {
        return None;
    }
    if closes(t) {
        return Some(1);
    }
    let next = lines.get(i + 1)?.trim();
    (!next.is_empty() && next.len() < 80 && closes(&format!("{t} {next}"))).then_some(2)
}

/// An attribution with a date and a sender in it (`On Mon, 3 Jan 2026 at 10:00, Judge
/// <judge@…> wrote:`), as a mail program writes it, not a player's "On Monday I wrote:".
fn dated(lines: &[&str]) -> bool {
    let all = lines.join(" ");
    all.chars().any(|c| c.is_ascii_digit()) && (all.contains('@') || all.contains(','))
}

/// Gmail's `---------- Forwarded message ---------`, Yahoo's `----- Forwarded Message
/// -----` and the like.
fn forwarded(t: &str) -> bool {
    t.starts_with("--")
        && t.ends_with("--")
        && matches!(
            t.trim_matches('-').trim().to_lowercase().as_str(),
            "forwarded message" | "weitergeleitete nachricht" | "message transféré"
        )
}

/// A line a mail program adds: `Get Outlook for iOS<https://aka.ms/o0ukef>`, the link
/// list html2text makes (`[1]: https://…`, `[1] https://…`), the judge's own placeholder
/// `secret YOUR-SECRET`.
fn added(t: &str) -> bool {
    let lower = t.to_lowercase();
    if lower.starts_with("get outlook for ") && t.split_whitespace().count() <= 4 {
        return true;
    }
    if let Some(rest) = t.strip_prefix('[')
        && let Some((n, url)) = rest.split_once(']')
        && !n.is_empty()
        && n.chars().all(|c| c.is_ascii_digit())
    {
        let url = url.trim_start_matches(':').trim();
        if url.contains("://") || url.starts_with("mailto:") {
            return true;
        }
    }
    let words: Vec<&str> = lower.split_whitespace().collect();
    words.len() == 2 && words[0] == "secret" && words[1] == "your-secret"
}

/// How many bytes at the end of `line` are html2text's link markers (`Ann [1]`,
/// `Club[2][3]`), which point at the link list it puts below the text.
fn trailing_link_markers(line: &str) -> usize {
    let trimmed = line.trim_end();
    let mut rest = trimmed;
    while let Some(body) = rest.strip_suffix(']') {
        let Some(open) = body.rfind('[') else { break };
        let n = &body[open + 1..];
        if n.is_empty() || !n.chars().all(|c| c.is_ascii_digit()) {
            break;
        }
        rest = body[..open].trim_end();
    }
    if rest.len() == trimmed.len() || rest.is_empty() {
        line.len() - trimmed.len()
    } else {
        line.len() - rest.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(text: &str) -> Vec<String> {
        own_text(text)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn quotes_and_attributions_are_left_out() {
        assert_eq!(
            own("move a\nOn Mon, 3 Jan 2026, Ann <a@x> wrote:\n> old\nmove b\n"),
            ["move a", "move b"]
        );
        // Other languages, and wrapped over two lines.
        for attr in [
            "Le lun. 3 janv. 2026 à 10:00, Judge <j@x> a écrit :",
            "Am 03.01.2026 um 10:00 schrieb Judge <j@x>:",
            "El lun, 3 ene 2026 a las 10:00, Judge (<j@x>) escribió:",
            "Il giorno lun 3 gen 2026 alle ore 10:00 Judge <j@x> ha scritto:",
            "Op ma 3 jan. 2026 om 10:00 schreef Judge <j@x>:",
            "On Mon, 3 Jan 2026 at 10:00, Judge of demo <judge@example.org>\nwrote:",
            "Am Mo., 3. Jan. 2026 um 10:00 Uhr schrieb Judge of demo <\njudge@example.org>:",
        ] {
            assert_eq!(
                own(&format!("move a\n\n{attr}\n\n> old\n> more\n")),
                ["move a"],
                "{attr}"
            );
        }
        // A player's own "On Monday I wrote:" above more orders is theirs.
        assert_eq!(
            own("On Monday I wrote:\nmove b\n"),
            ["On Monday I wrote:", "move b"]
        );
    }

    /// History quoted without `>` is left out, whatever it holds.
    #[test]
    fn unquoted_history_is_left_out() {
        for sep in [
            "-----Original Message-----\nFrom: Judge <j@x>\nSent: Monday",
            "________________________________\nFrom: Judge <j@x>\nSent: Monday, 3 January 2026 10:00\nTo: Ann",
            "From: Judge <j@x>\nSent: Monday\nTo: Ann\nSubject: x",
            "-------- Original message --------\nFrom: Judge <j@x>\nDate: 3/1/26 10:00",
            "On Monday, January 3, 2026, 10:00:00 AM GMT+1, Judge <j@x> wrote:",
        ] {
            assert_eq!(
                own(&format!("move a\n\n{sep}\n\ngame demo\nsecret OLD\n")),
                ["move a"],
                "{sep}"
            );
        }
    }

    /// The lines mail programs add are no errors, for lists either: Mailman
    /// puts its footer below every mail it relays (found by the corpus's
    /// `mailman-footer-trusted`); a player's own line of `_` above orders is theirs.
    #[test]
    fn a_mailing_lists_footer_is_left_out() {
        assert_eq!(
            own(
                "move a\n_______________________________________________\nClub mailing list -- club@lists.example\nTo unsubscribe send an email to club-leave@lists.example\n"
            ),
            ["move a"]
        );
        assert_eq!(
            own(
                "move a\n__________\nClub mailing list\nClub@lists.example\nhttps://lists.example/mailman/listinfo/club\n"
            ),
            ["move a"]
        );
        assert_eq!(own("__________\nmove a\n"), ["__________", "move a"]);
    }

    /// The lines mail programs add are left out.
    #[test]
    fn added_lines_are_left_out() {
        assert_eq!(
            own("move a\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n"),
            ["move a"]
        );
        assert_eq!(
            own("move a\nAnn Smith [1]\n\n[1]: https://ann.example/\n"),
            ["move a", "Ann Smith"]
        );
        assert_eq!(
            own(
                "---------- Forwarded message ---------\nFrom: Ann <a@x>\nDate: Mon\nSubject: orders\nTo: <j@x>\n\nmove a\n"
            ),
            ["move a"]
        );
        assert_eq!(
            own(
                "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nmove a\n- -- move b\n- - c\n-----BEGIN PGP SIGNATURE-----\n\niQEz\n-----END PGP SIGNATURE-----\n"
            ),
            ["move a", "-- move b", "- c"]
        );
        assert_eq!(own("secret YOUR-SECRET\nsecret real\n"), ["secret real"]);
        // `-- ` ends the text, also dash-escaped.
        assert_eq!(
            own("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA1\n\nmove a\n- -- \nAnn\n"),
            ["move a"]
        );
    }
}
