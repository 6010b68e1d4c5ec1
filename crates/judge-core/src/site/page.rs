//! The pages, as HTML: plain markup and one style sheet, readable without script; a
//! small script only for the arrow keys. Every link is relative, so the site works
//! opened from disk and from any static host.

use std::fmt::Write as _;

use super::chart::{self, Series};
use super::model::{Overview, Turn, WriterPage};
pub use crate::pbem::layout::GUIDE_FILE;
use crate::pbem::record::{Source, TurnRecord};
use crate::picture::escape;

pub const STYLE: &str = include_str!("../../../../assets/site/style.css");
pub const KEYS: &str = include_str!("../../../../assets/site/keys.js");
/// The order writer's script: the file being written, the checker, "mail it".
pub const WRITER: &str = include_str!("../../../../assets/site/writer.js");

/// `checker.js`: the order checker's WebAssembly module as a script, which a page
/// opened from a file may load (a page from a file may not fetch one).
pub fn checker_script(module: &[u8]) -> String {
    use base64::Engine as _;
    format!(
        "// The judge's order checker (crates/order-checker), compiled to WebAssembly.\nwindow.CHECKER_WASM = \"{}\";\n",
        base64::engine::general_purpose::STANDARD.encode(module)
    )
}

/// The position every writer page's checker reads, once for all seats.
pub const POSITION_FILE: &str = "position.js";

/// `position.js`: the position the checker reads (the state file, or a game's public
/// record), as a script a page opened from a file may load.
pub fn position_script(state: &str) -> String {
    format!(
        "// The game as it stands, for the order checker (public: judge site).\nwindow.WRITER_POSITION = {};\n",
        script_json(state)
    )
}

/// JSON inside a `<script>` element (or a script file): every `<`, `>` and `&` written
/// as its `\u` escape, as JSON allows inside a string (and JSON has them nowhere
/// else), so that no text in it (a game's name, `[mail] from`, a player's name, all
/// set by the GM) can end the element, open a comment (`<!--`) or a nested `<script`
/// that keeps the element open past its end. U+2028 and U+2029, line ends to older
/// JavaScript, are escaped too.
fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// A seat's order writer page: the map of the latest turn, the order file being written
/// (from the game's template, editable), what the checker says of it, and "mail it".
pub fn writer(ov: &Overview, w: &WriterPage, svg: &str) -> String {
    let mut o = String::new();
    let seat = seat_name(ov, &w.seat);
    head(
        &mut o,
        &format!("{}: orders of {seat}", ov.name),
        None,
        None,
    );
    let subject = format!("orders {} {} turn {}", ov.name, w.seat, w.turn);
    let writer = serde_json::json!({
        "seat": w.seat,
        "name": ov.name,
        "game": w.game,
        "public": w.public,
        "to": w.to,
        "subject": subject,
    });
    let _ = writeln!(
        o,
        "<nav class=\"turns\">\n<a href=\"index.html\">&larr; the overview</a>\n<a href=\"{GUIDE_FILE}\">the order guide</a>\n</nav>\n<main class=\"writer\">\n<h1>Orders of {} for turn {}</h1>\n<p class=\"sub\">{} The file beside the map is what you mail: edit it as you like. Fill in your secret before you send it; this page never sees it.</p>",
        escape(&seat),
        w.turn,
        escape(&w.writer.intro)
    );
    let _ = writeln!(
        o,
        "<div class=\"desk\">\n<div class=\"board\">\n<p class=\"zoom\" id=\"zoom\" hidden><button type=\"button\" data-zoom=\"out\" aria-label=\"zoom out\">&minus;</button> <button type=\"button\" data-zoom=\"in\" aria-label=\"zoom in\">+</button> <button type=\"button\" data-zoom=\"fit\">whole map</button> <button type=\"button\" data-zoom=\"read\">readable</button></p>\n<div class=\"map\" id=\"map\">{svg}</div>\n</div>\n<div class=\"file\">\n<div id=\"tools\" class=\"tools\"></div>\n<textarea id=\"orders\" spellcheck=\"false\" rows=\"24\" aria-label=\"your order file\">{}</textarea>\n<p class=\"actions\"><a id=\"mail\" class=\"button\" href=\"#\">Mail it</a> <span id=\"verdict\"></span></p>\n<pre id=\"checked\" class=\"checked\" aria-live=\"polite\"></pre>\n</div>\n</div>\n</main>",
        escape(&w.text)
    );
    let _ = writeln!(
        o,
        "<script>\nwindow.WRITER = {};\nwindow.WRITER.model = {};\n</script>\n<script src=\"{POSITION_FILE}\"></script>",
        script_json(&writer.to_string()),
        script_json(&w.writer.model)
    );
    if ov.checker.is_some() {
        o.push_str("<script src=\"checker.js\"></script>\n");
    }
    o.push_str("<script src=\"writer.js\"></script>\n<script src=\"game-writer.js\"></script>\n");
    foot(&mut o);
    o
}

/// A turn's page.
pub fn turn_file(turn: u32) -> String {
    format!("turn-{turn:03}.html")
}

fn head(o: &mut String, title: &str, prev: Option<&str>, next: Option<&str>) {
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" href=\"style.css\">\n",
        escape(title)
    );
    if let Some(p) = prev {
        let _ = writeln!(o, "<link rel=\"prev\" href=\"{p}\">");
    }
    if let Some(n) = next {
        let _ = writeln!(o, "<link rel=\"next\" href=\"{n}\">");
    }
    o.push_str("<script src=\"keys.js\" defer></script>\n</head>\n<body>\n");
}

fn foot(o: &mut String) {
    let _ = write!(
        o,
        "<footer>Made by pbem-judge {} from the game's archive.</footer>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION")
    );
}

/// The game's order guide (`doc`, its docs file), as its plain text: what the report
/// mails link to.
pub fn guide(ov: &Overview, doc: &str, text: &str) -> String {
    let mut o = String::new();
    head(&mut o, &format!("{}: the order guide", ov.name), None, None);
    let _ = writeln!(
        o,
        "<nav class=\"turns\">\n<a href=\"index.html\">&larr; the overview</a>\n</nav>\n<main>\n<h1>The order guide</h1>\n<p class=\"sub\">{} ({}, as this judge reads orders).</p>\n<pre class=\"guide\">{}</pre>\n</main>",
        escape(&ov.title),
        escape(doc),
        escape(text)
    );
    foot(&mut o);
    o
}

fn seat_name(overview: &Overview, id: &str) -> String {
    overview
        .seats
        .iter()
        .find(|s| s.id == id)
        .map_or(id.to_string(), |s| format!("{id} ({})", s.name))
}

fn swatch(turns: &[Turn], id: &str) -> String {
    turns
        .last()
        .and_then(|t| t.tally.colours.get(id))
        .map_or(String::new(), |c| {
            format!(
                "<span class=\"swatch\" style=\"background:{}\"></span>",
                escape(c)
            )
        })
}

fn source_word(s: Option<&Source>) -> &'static str {
    match s {
        Some(Source::Sent) => "sent",
        Some(Source::Standing) => "standing",
        Some(Source::Caretaker) => "caretaker",
        None => "none",
    }
}

/// What a turn did with a seat's orders: `sent`, `standing` or `caretaker` (the files a
/// turn played together, or the caretaker's in any game), or `played` (a game played one player at a time says whose orders its
/// step played, not who mailed during it); `none`.
fn orders_word(r: Option<&TurnRecord>, seat: &str) -> &'static str {
    match r {
        Some(r) => match &r.acted {
            Some(_) if r.orders.get(seat) == Some(&Source::Caretaker) => "caretaker",
            Some(acted) if acted.iter().any(|a| a == seat) => "played",
            Some(_) => "none",
            None => source_word(r.orders.get(seat)),
        },
        None => "none",
    }
}

fn turn_title(overview: &Overview, t: &Turn) -> String {
    if t.number == 0 {
        format!("{}: the start", overview.name)
    } else {
        format!("{}: turn {}", overview.name, t.number)
    }
}

/// A turn's page: the map, the public report, and the orders played.
pub fn turn(
    overview: &Overview,
    t: &Turn,
    prev: Option<u32>,
    next: Option<u32>,
    last: u32,
) -> String {
    let mut o = String::with_capacity(t.svg.len() + t.report.len() + 4096);
    let prev_file = prev.map(turn_file);
    let next_file = next.map(turn_file);
    head(
        &mut o,
        &turn_title(overview, t),
        prev_file.as_deref(),
        next_file.as_deref(),
    );
    o.push_str("<nav class=\"turns\">\n<a href=\"index.html\">Overview</a>\n");
    match (&prev_file, prev) {
        (Some(f), Some(p)) => {
            let _ = writeln!(o, "<a rel=\"prev\" href=\"{f}\">&larr; turn {p}</a>");
        }
        _ => o.push_str("<span>&larr; (the start)</span>\n"),
    }
    let _ = writeln!(o, "<span class=\"here\">turn {} of {last}</span>", t.number);
    match (&next_file, next) {
        (Some(f), Some(n)) => {
            let _ = writeln!(o, "<a rel=\"next\" href=\"{f}\">turn {n} &rarr;</a>");
        }
        _ => o.push_str("<span>(the latest turn) &rarr;</span>\n"),
    }
    o.push_str("<span class=\"keys\">arrow keys: previous, next</span>\n</nav>\n<main>\n");
    let _ = writeln!(o, "<h1>{}</h1>", escape(&turn_title(overview, t)));
    if let Some(r) = &t.record {
        let mut said: Vec<String> = match &r.acted {
            Some(acted) => acted
                .iter()
                .map(|seat| format!("{} played", escape(seat)))
                .collect(),
            None => r
                .orders
                .iter()
                .map(|(seat, s)| format!("{} {}", escape(seat), source_word(Some(s))))
                .collect(),
        };
        if said.is_empty() {
            said.push("no orders".into());
        }
        let played = r
            .played_at
            .as_deref()
            .map_or(String::new(), |p| format!("; played {}", escape(p)));
        let _ = writeln!(
            o,
            "<p class=\"sub\">Orders: {}{played}.</p>",
            said.join(", ")
        );
    }
    let _ = writeln!(o, "<figure class=\"map\">\n{}</figure>", t.svg.trim_end());
    let _ = writeln!(
        o,
        "<h2 id=\"report\">The report</h2>\n<pre>{}</pre>",
        escape(&t.report)
    );
    if t.number > 0 {
        o.push_str("<h2 id=\"orders\">The orders played</h2>\n");
        if !overview.shows_orders {
            o.push_str("<p>This game keeps each player's orders to themselves (they hold hidden cards): the report above says what was done.</p>\n");
        } else if t.orders.is_empty() {
            o.push_str("<p>No one sent orders for this turn.</p>\n");
        }
        for (seat, text) in &t.orders {
            let _ = writeln!(
                o,
                "<details open>\n<summary>{}</summary>\n<pre>{}</pre>\n</details>",
                escape(&seat_name(overview, seat)),
                escape(text)
            );
        }
    }
    o.push_str("</main>\n");
    foot(&mut o);
    o
}

/// The overview: the players, the counts over the turns, the progress, and who sent
/// orders each turn.
pub fn overview(ov: &Overview, turns: &[Turn]) -> String {
    let mut o = String::new();
    let first = turns.first().map_or(0, |t| t.number);
    let last = turns.last().map_or(0, |t| t.number);
    head(&mut o, &ov.name, None, Some(&turn_file(first)));
    let _ = writeln!(
        o,
        "<nav class=\"turns\">\n<span class=\"here\">Overview</span>\n<a rel=\"next\" href=\"{}\">the start &rarr;</a>\n<a href=\"{}\">the latest turn ({last})</a>\n<span class=\"keys\">arrow keys: previous, next</span>\n</nav>\n<main>",
        turn_file(first),
        turn_file(last)
    );
    let _ = writeln!(o, "<h1>{}</h1>", escape(&ov.name));
    let state = match &ov.over {
        Some(why) => format!("Over: {}.", escape(why.trim_end_matches('.'))),
        None => {
            let due = turns
                .last()
                .and_then(|t| t.record.as_ref())
                .and_then(|r| r.deadline.as_deref())
                .map_or(String::new(), |d| {
                    format!(" The next orders are due {}.", escape(d))
                });
            format!("In play.{due}")
        }
    };
    let _ = writeln!(
        o,
        "<p class=\"sub\">{}, scenario {}: {} played. {state}</p>",
        escape(&ov.title),
        escape(&ov.scenario),
        crate::text::count(last as usize, "turn"),
    );
    if ov.guide.is_some() {
        let _ = writeln!(
            o,
            "<p class=\"sub\">How orders are written: <a href=\"{GUIDE_FILE}\">the order guide</a>.</p>"
        );
    }
    if !ov.writers.is_empty() {
        let links: Vec<String> = ov
            .writers
            .iter()
            .map(|w| {
                format!(
                    "<a href=\"{}\">{}</a>",
                    escape(&crate::pbem::layout::writer_file(&w.seat)),
                    escape(&seat_name(ov, &w.seat))
                )
            })
            .collect();
        let _ = writeln!(
            o,
            "<p class=\"sub\">Write your orders on the map: {}.</p>",
            links.join(", ")
        );
    }
    if let Some(dice) = &ov.dice {
        let _ = writeln!(
            o,
            "<h2 id=\"dice\">The dice</h2>\n<p class=\"dice\">{}</p>",
            escape(dice).replace("\n\n", "</p>\n<p class=\"dice\">")
        );
    }
    // The players, with where they stand now.
    let end = turns.last().map(|t| &t.tally);
    o.push_str("<h2 id=\"players\">The players</h2>\n<table>\n<tr><th>Seat</th><th>Player</th>");
    for m in end.map_or(&[][..], |t| &t.measures[..]) {
        let _ = write!(o, "<th>{}</th>", escape(&m.name));
    }
    o.push_str("</tr>\n");
    for s in &ov.seats {
        let _ = write!(
            o,
            "<tr><td>{}{}</td><td>{}</td>",
            swatch(turns, &s.id),
            escape(&s.id),
            escape(&s.name)
        );
        for m in end.map_or(&[][..], |t| &t.measures[..]) {
            let v = m
                .values
                .get(&s.id)
                .map_or("&ndash;".to_string(), |v| v.to_string());
            let _ = write!(o, "<td class=\"n\">{v}</td>");
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</table>\n");
    // The counts over the turns.
    if let Some(end) = end.filter(|t| !t.measures.is_empty()) {
        o.push_str("<h2 id=\"charts\">Over the turns</h2>\n<p class=\"key\">");
        for s in &ov.seats {
            let _ = write!(
                o,
                "<span>{}{} ({})</span> ",
                swatch(turns, &s.id),
                escape(&s.id),
                escape(&s.name)
            );
        }
        o.push_str("</p>\n<div class=\"charts\">\n");
        for (k, m) in end.measures.iter().enumerate() {
            let series: Vec<Series<'_>> = ov
                .seats
                .iter()
                .map(|s| Series {
                    name: &s.id,
                    colour: end.colours.get(&s.id).map_or("#888888", String::as_str),
                    points: turns
                        .iter()
                        .filter_map(|t| {
                            let v = t.tally.measures.get(k)?.values.get(&s.id)?;
                            Some((t.number, *v))
                        })
                        .collect(),
                })
                .collect();
            let _ = writeln!(
                o,
                "<figure id=\"chart-{k}\">\n<figcaption>{} by turn</figcaption>\n{}</figure>",
                escape(&m.name),
                chart::svg(&m.name, first, last, &series)
            );
        }
        o.push_str("</div>\n");
    }
    // How far the game has come.
    if let Some(p) = end.and_then(|t| t.progress.as_ref()) {
        let _ = writeln!(o, "<h2 id=\"progress\">The game's progress</h2>");
        let words = match p.goal {
            Some(g) if g > 0 => {
                let pct = (p.done.clamp(0, g) * 100 / g) as u32;
                let _ = writeln!(
                    o,
                    "<div class=\"bar\"><span style=\"width:{pct}%\"></span></div>"
                );
                format!(
                    "{} {} of the {g} that end the game.",
                    p.done,
                    escape(&p.name)
                )
            }
            _ => format!("{} {}.", p.done, escape(&p.name)),
        };
        let _ = writeln!(o, "<p>{words}</p>");
        let series = [Series {
            name: &p.name,
            colour: "#8d6e63",
            points: turns
                .iter()
                .filter_map(|t| t.tally.progress.as_ref().map(|p| (t.number, p.done)))
                .collect(),
        }];
        let _ = writeln!(
            o,
            "<div class=\"charts\"><figure id=\"chart-progress\">\n<figcaption>{} by turn</figcaption>\n{}</figure></div>",
            escape(&p.name),
            chart::svg(&p.name, first, last, &series)
        );
    }
    // Who sent orders, turn by turn.
    o.push_str("<h2 id=\"orders\">Orders, turn by turn</h2>\n<table>\n<tr><th>Turn</th>");
    for s in &ov.seats {
        let _ = write!(o, "<th>{}{}</th>", swatch(turns, &s.id), escape(&s.id));
    }
    // When each turn was played, where the archive says (games played before
    // turn.json kept it do not).
    let dated = turns
        .iter()
        .any(|t| t.record.as_ref().is_some_and(|r| r.played_at.is_some()));
    if dated {
        o.push_str("<th>Played</th>");
    }
    o.push_str("</tr>\n");
    for t in turns {
        let _ = write!(
            o,
            "<tr><td><a href=\"{}\">{}</a></td>",
            turn_file(t.number),
            if t.number == 0 {
                "the start".to_string()
            } else {
                t.number.to_string()
            }
        );
        for s in &ov.seats {
            if t.number == 0 {
                o.push_str("<td></td>");
                continue;
            }
            let word = orders_word(t.record.as_ref(), &s.id);
            let _ = write!(o, "<td class=\"{word}\">{word}</td>");
        }
        if dated {
            let played = t
                .record
                .as_ref()
                .and_then(|r| r.played_at.as_deref())
                .unwrap_or("");
            let _ = write!(o, "<td>{}</td>", escape(played));
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</table>\n</main>\n");
    foot(&mut o);
    o
}
