//! The pages, as HTML: plain markup and one style sheet, readable without script; a
//! small script only for the arrow keys. Every link is relative, so the site works
//! opened from disk and from any static host.

use minijinja::value::{Serde, Value};
use minijinja::{AutoEscape, Environment, Error, UndefinedBehavior, context};

use super::chart::{self, Series};
use super::model::{FolderGame, Overview, RatedFamily, Turn, WriterPage};
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

/// The pages' templates (`assets/site/*.html`): `page.html` is every page's frame.
const TEMPLATES: [(&str, &str); 7] = [
    (
        "page.html",
        include_str!("../../../../assets/site/page.html"),
    ),
    (
        "overview.html",
        include_str!("../../../../assets/site/overview.html"),
    ),
    (
        "turn.html",
        include_str!("../../../../assets/site/turn.html"),
    ),
    (
        "writer.html",
        include_str!("../../../../assets/site/writer.html"),
    ),
    (
        "guide.html",
        include_str!("../../../../assets/site/guide.html"),
    ),
    (
        "folder.html",
        include_str!("../../../../assets/site/folder.html"),
    ),
    (
        "ratings.html",
        include_str!("../../../../assets/site/ratings.html"),
    ),
];

/// The pages' templates, ready: every value a page shows is escaped for HTML (`&`, `<`,
/// `>` and `"`, as [`escape`] does: the templates quote every attribute with `"`) unless
/// the template marks it `|safe` (the judge's own pictures); `|script_json` writes JSON
/// for a `<script>` element. A name a template does not know is an error, not an
/// empty text.
pub struct Pages {
    env: Environment<'static>,
}

impl Pages {
    pub fn new() -> Result<Pages, Error> {
        let mut env = Environment::new();
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .trim_blocks(true)
                .lstrip_blocks(true)
                .keep_trailing_newline(true)
                .build()?,
        );
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_auto_escape_callback(|_| AutoEscape::Custom("html".into()));
        env.set_formatter(|out, _, value| {
            let written = if value.is_safe() {
                write!(out, "{value}")
            } else {
                out.write_str(&escape(&value.to_string()))
            };
            written.map_err(Error::from)
        });
        env.add_filter("script_json", |json: &str| {
            Value::from_safe_string(script_json(json))
        });
        env.add_global("version", env!("CARGO_PKG_VERSION"));
        for (name, source) in TEMPLATES {
            env.add_template(name, source)?;
        }
        Ok(Pages { env })
    }

    /// The pages, their templates compiled once for the process: the templates are the
    /// judge's own (compiled into it), so every `Pages::new` makes the same pages, and a
    /// site written for each game of a folder, or again after each turn, need not
    /// compile them again.
    pub fn shared() -> Result<&'static Pages, Error> {
        static PAGES: std::sync::OnceLock<Pages> = std::sync::OnceLock::new();
        if let Some(pages) = PAGES.get() {
            return Ok(pages);
        }
        let pages = Pages::new()?;
        Ok(PAGES.get_or_init(|| pages))
    }

    fn render(&self, name: &str, page: Value) -> Result<String, Error> {
        self.env.get_template(name)?.render(page)
    }

    /// A seat's order writer page: the map of the latest turn, the order file being
    /// written (from the game's template, editable), what the checker says of it, and
    /// "mail it".
    pub fn writer(&self, ov: &Overview, w: &WriterPage, svg: &str) -> Result<String, Error> {
        let seat = seat_name(ov, &w.seat);
        let subject = format!("orders {} {} turn {}", ov.name, w.seat, w.turn);
        let facts = serde_json::json!({
            "seat": w.seat,
            "name": ov.name,
            "game": w.game,
            "public": w.public,
            "to": w.to,
            "subject": subject,
        });
        self.render(
            "writer.html",
            context! {
                title => format!("{}: orders of {seat}", ov.name),
                prev => None::<String>,
                next => None::<String>,
                guide => GUIDE_FILE,
                seat,
                turn => w.turn,
                intro => &w.writer.intro,
                svg,
                text => &w.text,
                facts => facts.to_string(),
                model => &w.writer.model,
                position => POSITION_FILE,
                checker => ov.checker.is_some(),
            },
        )
    }

    /// The game's order guide (`doc`, its docs file), as its plain text: what the
    /// report mails link to.
    pub fn guide(&self, ov: &Overview, doc: &str, text: &str) -> Result<String, Error> {
        self.render(
            "guide.html",
            context! {
                title => format!("{}: the order guide", ov.name),
                prev => None::<String>,
                next => None::<String>,
                game_title => &ov.title,
                doc,
                text,
            },
        )
    }

    /// A turn's page: the map, the public report, and the orders played.
    pub fn turn(
        &self,
        overview: &Overview,
        t: &Turn,
        prev: Option<u32>,
        next: Option<u32>,
        last: u32,
    ) -> Result<String, Error> {
        // Who played, or where each seat's orders came from; none for a turn that
        // records nothing.
        let said = t.record.as_ref().map(said);
        let orders: Vec<(String, &str)> = t
            .orders
            .iter()
            .map(|(seat, text)| (seat_name(overview, seat), text.as_str()))
            .collect();
        self.render(
            "turn.html",
            context! {
                title => turn_title(overview, t),
                prev => prev.map(turn_file),
                next => next.map(turn_file),
                prev_number => prev,
                next_number => next,
                number => t.number,
                last,
                said => Value::from(Serde(said)),
                played => t.record.as_ref().and_then(|r| r.played_at.as_deref()),
                svg => t.svg.trim_end(),
                report => &t.report,
                shows_orders => overview.shows_orders,
                orders => Value::from(Serde(orders)),
            },
        )
    }

    /// The overview: the players, the counts over the turns, the progress, and who sent
    /// orders each turn.
    pub fn overview(&self, ov: &Overview, turns: &[Turn]) -> Result<String, Error> {
        let first = turns.first().map_or(0, |t| t.number);
        let last = turns.last().map_or(0, |t| t.number);
        let end = turns.last().map(|t| &t.tally);
        let measures = end.map_or(&[][..], |t| &t.measures[..]);
        // A seat's colour as the latest turn gives it, for its swatch.
        let colour = |id: &str| {
            turns
                .last()
                .and_then(|t| t.tally.colours.get(id))
                .map(String::as_str)
        };
        let seats: Vec<Value> = ov
            .seats
            .iter()
            .map(|s| {
                let values: Vec<Option<i64>> = measures
                    .iter()
                    .map(|m| m.values.get(&s.id).copied())
                    .collect();
                context! { id => &s.id, name => &s.name, colour => colour(&s.id), values }
            })
            .collect();
        // The counts over the turns: a chart per measure, a line per seat.
        let charts: Vec<Value> = end
            .map_or(&[][..], |t| &t.measures[..])
            .iter()
            .enumerate()
            .map(|(k, m)| {
                let series: Vec<Series<'_>> = ov
                    .seats
                    .iter()
                    .map(|s| Series {
                        name: &s.id,
                        colour: colour(&s.id).unwrap_or("#888888"),
                        points: turns
                            .iter()
                            .filter_map(|t| {
                                let v = t.tally.measures.get(k)?.values.get(&s.id)?;
                                Some((t.number, *v))
                            })
                            .collect(),
                    })
                    .collect();
                context! { name => &m.name, svg => chart::svg(&m.name, first, last, &series) }
            })
            .collect();
        // How far the game has come.
        let progress = end.and_then(|t| t.progress.as_ref()).map(|p| {
            let goal = p.goal.filter(|g| *g > 0);
            let series = [Series {
                name: &p.name,
                colour: "#8d6e63",
                points: turns
                    .iter()
                    .filter_map(|t| t.tally.progress.as_ref().map(|p| (t.number, p.done)))
                    .collect(),
            }];
            context! {
                name => &p.name,
                done => p.done,
                goal,
                percent => goal.map(|g| (p.done.clamp(0, g) * 100 / g) as u32),
                svg => chart::svg(&p.name, first, last, &series),
            }
        });
        // Who sent orders, turn by turn, and when each turn was played where the
        // archive says (games played before turn.json kept it do not).
        let dated = turns
            .iter()
            .any(|t| t.record.as_ref().is_some_and(|r| r.played_at.is_some()));
        let rows: Vec<Value> = turns
            .iter()
            .map(|t| {
                let words: Vec<&str> = ov
                    .seats
                    .iter()
                    .map(|s| orders_word(t.record.as_ref(), &s.id))
                    .collect();
                context! {
                    number => t.number,
                    file => turn_file(t.number),
                    words,
                    played => t.record.as_ref().and_then(|r| r.played_at.as_deref()).unwrap_or(""),
                }
            })
            .collect();
        let writers: Vec<(String, String)> = ov
            .writers
            .iter()
            .map(|w| {
                (
                    crate::pbem::layout::writer_file(&w.seat),
                    seat_name(ov, &w.seat),
                )
            })
            .collect();
        let due = turns
            .last()
            .and_then(|t| t.record.as_ref())
            .and_then(|r| r.deadline.as_deref());
        self.render(
            "overview.html",
            context! {
                title => &ov.name,
                prev => None::<String>,
                next => turn_file(first),
                latest => turn_file(last),
                last,
                game_title => &ov.title,
                scenario => &ov.scenario,
                played => crate::text::count(last as usize, "turn"),
                over => ov.over.as_deref().map(|why| why.trim_end_matches('.')),
                due,
                guide => ov.guide.as_ref().map(|_| GUIDE_FILE),
                writers,
                dice => Value::from(Serde(ov.dice.as_deref().map(|d| d.split("\n\n").collect::<Vec<_>>()))),
                measures => Value::from(Serde(measures.iter().map(|m| &m.name).collect::<Vec<_>>())),
                seats,
                charts,
                progress,
                dated,
                turns => rows,
            },
        )
    }
}

impl Pages {
    /// The page of a folder of games (`judge site --all`): each game's line, its latest
    /// map and the link to its own site.
    pub fn folder(
        &self,
        title: &str,
        games: &[FolderGame],
        ratings: Option<&str>,
    ) -> Result<String, Error> {
        self.render(
            "folder.html",
            context! {
                title,
                prev => None::<String>,
                next => None::<String>,
                count => crate::text::count(games.len(), "game"),
                ratings,
                games => Value::from(Serde(games)),
            },
        )
    }

    /// The page of the folder's ratings, a table per family of games.
    pub fn ratings(&self, title: &str, families: &[RatedFamily]) -> Result<String, Error> {
        self.render(
            "ratings.html",
            context! {
                title,
                prev => None::<String>,
                next => None::<String>,
                families => Value::from(Serde(families)),
            },
        )
    }
}

/// A turn's page.
pub fn turn_file(turn: u32) -> String {
    format!("turn-{turn:03}.html")
}

/// Who played a turn (a game played one player at a time), or where each seat's orders
/// came from.
fn said(r: &TurnRecord) -> Vec<(&str, &'static str)> {
    match &r.acted {
        Some(acted) => acted.iter().map(|seat| (seat.as_str(), "played")).collect(),
        None => r
            .orders
            .iter()
            .map(|(seat, s)| (seat.as_str(), source_word(Some(s))))
            .collect(),
    }
}

fn seat_name(overview: &Overview, id: &str) -> String {
    overview
        .seats
        .iter()
        .find(|s| s.id == id)
        .map_or(id.to_string(), |s| format!("{id} ({})", s.name))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// JSON in a `<script>` element can neither end it (`</script`), open a comment
    /// (`<!--`) or a nested `<script` that keeps it open, nor hold a line end older
    /// JavaScript breaks on (U+2028, U+2029), whatever its strings hold; and it reads
    /// back as the very same value.
    #[test]
    fn json_in_a_script_element_holds_no_markup_and_reads_back_the_same() {
        let pieces = [
            "</script>",
            "</SCRIPT ",
            "<!--",
            "-->",
            "<script",
            "<\\/",
            "&lt;",
            "&",
            "\u{2028}",
            "\u{2029}",
            "\\u003c",
            "\"",
            "'",
            "]]>",
            "<![CDATA[",
            "x",
        ];
        let mut texts: Vec<String> = pieces.iter().map(|p| (*p).to_string()).collect();
        for a in pieces {
            for b in pieces {
                texts.push(format!("{a}{b}"));
            }
        }
        for text in texts {
            let value = serde_json::json!({ text.clone(): [text.clone(), { "k": text }] });
            let out = script_json(&value.to_string());
            for bad in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
                assert!(!out.contains(bad), "{bad:?} in {out}");
            }
            let back: serde_json::Value = serde_json::from_str(&out).expect("JSON");
            assert_eq!(back, value, "{out}");
        }
    }
}
