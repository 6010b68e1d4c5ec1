//! `judge site`: a static web site of a game, made from its archive alone — a page per
//! turn (the map as inline SVG, the public report, and each player's orders once the
//! turn is played) and an overview (the players, their scores over the turns as a
//! chart, the game's progress, who sent orders each turn).
//!
//! What a page may show is what the public record holds: the turn's public
//! `report.txt`, its picture, its `turn.json`, and its played orders unless the game
//! keeps them private ([`Game::private_files`]: hidden hands). Pending, held
//! and standing orders, mail and secrets are never read, and no address but the
//! judge's own (`[mail] from`, for "Mail it") is published: the order writer's
//! position is the game's state without the players' addresses
//! ([`Position::site_state`](crate::pbem::game::Position::site_state)), and any
//! address game.toml names is taken out of what is published as JSON. The counts charted
//! come from each turn's report (`Report::tally`), which gives only what everyone may
//! see.
//!
//! Reading the archive ([`collect`]) is apart from making the pages ([`render`], a
//! pure function of what was read), so the same archive always gives the same bytes.
//! The game is reached only through the [`Game`] interface.

mod chart;
mod model;
mod page;

pub use page::{GUIDE_FILE, turn_file};
mod safe;

use crate::archive::Archive;
use crate::pbem::error::Error;
use crate::pbem::game::Game;
pub use crate::pbem::layout::writer_file;
use crate::pbem::layout::{REPORT_FILE, SVG_FILE};
use crate::pbem::record::record;
pub use model::{Files, FolderGame, Overview, RatedFamily, RatedPlayer, Seat, Turn, WriterPage};
pub use page::{KEYS, Pages, STYLE};

/// Does the game keep this path of its folder out of the public record?
/// `path` is relative to the game folder (`turns/001/orders/red.txt`); the patterns are
/// those of [`Game::private_files`], as in a `.gitignore` (`/turns/*/orders/`).
pub fn is_private(game: &dyn Game, path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    game.private_files().iter().any(|pattern| {
        let dir = pattern.ends_with('/');
        let pat: Vec<&str> = pattern.split('/').filter(|p| !p.is_empty()).collect();
        let fits = |n: usize| {
            pat.iter()
                .zip(&parts[..n])
                .all(|(p, s)| *p == "*" || p == s)
        };
        if dir {
            parts.len() > pat.len() && fits(pat.len())
        } else {
            parts.len() == pat.len() && fits(pat.len())
        }
    })
}

/// A `secret` line's value blanked, whatever a file holds (the archive keeps orders
/// with their secrets blanked already: this makes sure).
fn blank_secrets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_start();
        let first = body.split_whitespace().next().unwrap_or("");
        if first.eq_ignore_ascii_case("secret") {
            let indent = &line[..line.len() - body.len()];
            out.push_str(indent);
            out.push_str(&body[..first.len()]);
            out.push(' ');
            out.push_str(crate::mail::redact::BLANK);
            if line.ends_with('\n') {
                out.push('\n');
            }
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Every address game.toml names but the judge's own (`[mail] from`, which "Mail it"
/// goes to): the players', the GM's, the mail servers' user names where they are
/// addresses. Lower-cased.
fn addresses(file: &crate::archive::GameFile) -> Vec<String> {
    let mail = file.mail.as_ref();
    file.players
        .iter()
        .map(|p| p.email.as_str())
        .chain(file.gm.as_ref().map(|g| g.email.as_str()))
        .chain(mail.and_then(|m| m.smtp_user.as_deref()))
        .chain(mail.and_then(|m| m.imap_user.as_deref()))
        .map(|a| a.trim().to_lowercase())
        .filter(|a| a.contains('@'))
        .collect()
}

/// A JSON text the site publishes (a position for the checker, a writer's model) with
/// every string that holds one of `hidden` (lower-cased addresses) made empty, keys
/// and values alike, however the game laid it out: the site shows no address.
fn without_addresses(json: &str, hidden: &[String]) -> Result<String, Error> {
    fn clean(v: &mut serde_json::Value, hidden: &[String]) {
        let holds = |s: &str| {
            let s = s.to_lowercase();
            hidden.iter().any(|a| s.contains(a.as_str()))
        };
        match v {
            serde_json::Value::String(s) if holds(s) => s.clear(),
            serde_json::Value::Array(items) => items.iter_mut().for_each(|i| clean(i, hidden)),
            serde_json::Value::Object(map) => {
                let named: Vec<String> = map.keys().filter(|k| holds(k)).cloned().collect();
                for k in named {
                    map.remove(&k);
                }
                map.values_mut().for_each(|i| clean(i, hidden));
            }
            _ => {}
        }
    }
    let lower = json.to_lowercase();
    if !hidden.iter().any(|a| lower.contains(a.as_str())) {
        return Ok(json.to_string());
    }
    let mut v: serde_json::Value = serde_json::from_str(json).map_err(|e| {
        Error::Game(crate::error::GameError::internal(format!(
            "the site's position is no JSON: {e}"
        )))
    })?;
    clean(&mut v, hidden);
    Ok(v.to_string())
}

/// Read what the site shows from the archive: the game, and each turn (calling `tick`
/// after each, for a progress bar).
pub fn collect(
    archive: &Archive,
    game: &dyn Game,
    tick: &mut dyn FnMut(),
) -> Result<(Overview, Vec<Turn>), Error> {
    let numbers = archive.turns()?;
    let Some(&last) = numbers.last() else {
        return Err(Error::input(format!(
            "{} has no turns yet: its site can be made once turn 0 is (after its round by mail)",
            archive.root().display()
        )));
    };
    let template = crate::pbem::report::template(archive)?;
    let shows_orders = !is_private(game, "turns/001/orders/red.txt");
    let mut turns = Vec::new();
    for &number in &numbers {
        let report = crate::pbem::report::of_turn(archive, game, number)?;
        let dir = archive.turn_dir(number);
        // What the players were sent, as kept; turn 0 keeps neither file.
        // A file that is a symbolic link is refused, never published (Archive::no_link).
        let kept = |name: &str| -> Result<Option<String>, Error> {
            Ok(archive
                .read_own(&dir.join(name))?
                .and_then(|b| String::from_utf8(b).ok()))
        };
        let svg = match kept(SVG_FILE)? {
            Some(kept) if safe::is_plain_svg(&kept) => kept,
            _ => report.svg(),
        };
        let text = match kept(REPORT_FILE)? {
            Some(kept) => kept,
            None => report
                .text(template.as_deref(), None)
                .map_err(Error::from)?,
        };
        let orders = if shows_orders && number > 0 {
            crate::pbem::report::orders_of(archive, number)?
                .into_iter()
                .map(|f| (f.player, blank_secrets(&f.text)))
                .collect()
        } else {
            Vec::new()
        };
        turns.push(Turn {
            number,
            svg,
            report: text,
            orders,
            record: record(archive, number)?,
            tally: report.tally(),
        });
        tick();
    }
    let at_end = crate::pbem::stage::position(archive, game, last)?;
    let seats = archive
        .game
        .players
        .iter()
        .map(|p| Seat {
            id: p.id.clone(),
            name: p.name.clone(),
        })
        .collect();
    let writers = if at_end.over().is_some() {
        Vec::new()
    } else {
        writer_pages(archive, game, &*at_end, last)?
    };
    let overview = Overview {
        name: archive.name(),
        title: game.title().to_string(),
        scenario: archive.game.scenario.clone(),
        seats,
        over: at_end.over(),
        shows_orders,
        dice: crate::pbem::verify::announcement(archive)?,
        guide: Some(game.order_guide_text())
            .filter(|t| !t.is_empty())
            .map(|t| (game.order_guide().1.to_string(), t.to_string())),
        writers,
        checker: None,
    };
    Ok((overview, turns))
}

/// Each seat's order writer page for the turn after `last`: only what is public (the
/// state file, or the game's public record where the state is private).
fn writer_pages(
    archive: &Archive,
    game: &dyn Game,
    position: &dyn crate::pbem::game::Position,
    last: u32,
) -> Result<Vec<WriterPage>, Error> {
    let (state, public) = match position.public_record() {
        Some(record) => (record, true),
        None => match position.site_state() {
            Some(state) => (state?, false),
            None => (
                archive
                    .read(last, crate::archive::STATE_FILE)
                    .map_err(Error::from)?,
                false,
            ),
        },
    };
    let hidden = addresses(&archive.game);
    let state = without_addresses(&state, &hidden)?;
    let to = archive.mail().map(|m| m.from.clone());
    let mut pages = Vec::new();
    for seat in &archive.game.players {
        let Some(mut writer) = position.writer(&seat.id) else {
            continue;
        };
        writer.model = without_addresses(&writer.model, &hidden)?;
        let mut text = crate::pbem::order_form::order_header(archive, game, position, &seat.id);
        text.push('\n');
        text.push_str(&writer.body);
        pages.push(WriterPage {
            seat: seat.id.clone(),
            text,
            writer,
            game: game.id().to_string(),
            state: state.clone(),
            public,
            turn: position.turn() + 1,
            to: to.clone(),
        });
    }
    Ok(pages)
}

/// The site's files: `index.html` (the overview), `turn-NNN.html` per turn, the style
/// sheet and the keyboard script.
pub fn render(overview: &Overview, turns: &[Turn]) -> Result<Files, Error> {
    // The pages' templates are the judge's own: an error in one is the judge's.
    let internal = |e: minijinja::Error| {
        Error::Game(crate::error::GameError::internal(format!(
            "the site's page templates: {e:#}"
        )))
    };
    let pages = page::Pages::shared().map_err(internal)?;
    let mut files = Files::new();
    files.insert("style.css".into(), page::STYLE.as_bytes().to_vec());
    files.insert("keys.js".into(), page::KEYS.as_bytes().to_vec());
    files.insert(
        "index.html".into(),
        pages
            .overview(overview, turns)
            .map_err(internal)?
            .into_bytes(),
    );
    if let Some((doc, text)) = &overview.guide {
        files.insert(
            page::GUIDE_FILE.into(),
            pages
                .guide(overview, doc, text)
                .map_err(internal)?
                .into_bytes(),
        );
    }
    if !overview.writers.is_empty() {
        files.insert("writer.js".into(), page::WRITER.as_bytes().to_vec());
        // The position the checker reads and the game's own script: the same for every
        // seat.
        files.insert(
            page::POSITION_FILE.into(),
            page::position_script(&overview.writers[0].state).into_bytes(),
        );
        files.insert(
            "game-writer.js".into(),
            overview.writers[0].writer.script.as_bytes().to_vec(),
        );
        if let Some(module) = &overview.checker {
            files.insert(
                "checker.js".into(),
                page::checker_script(module).into_bytes(),
            );
        }
    }
    let svg = turns.last().map_or("", |t| t.svg.as_str());
    for w in &overview.writers {
        files.insert(
            writer_file(&w.seat),
            pages
                .writer(overview, w, svg)
                .map_err(internal)?
                .into_bytes(),
        );
    }
    let last = turns.last().map_or(0, |t| t.number);
    for (i, t) in turns.iter().enumerate() {
        let prev = i.checked_sub(1).map(|k| turns[k].number);
        let next = turns.get(i + 1).map(|t| t.number);
        files.insert(
            page::turn_file(t.number),
            pages
                .turn(overview, t, prev, next, last)
                .map_err(internal)?
                .into_bytes(),
        );
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::escape;

    /// Whatever a game puts in what the site publishes as JSON, no
    /// string holding an address game.toml names is left, in any case, as a value or
    /// a key; the rest stays, and JSON without one is left as it is, byte for byte.
    #[test]
    fn no_address_is_left_in_what_the_site_publishes_as_json() {
        let hidden = vec!["ann@example.org".to_string(), "gm@example.org".to_string()];
        let json = r#"{"players":{"red":{"name":"Ann","email":"ANN@Example.org"}},"note":["Gail <gm@example.org>",7],"ann@example.org":1,"keep":"bob@example.org"}"#;
        let out = without_addresses(json, &hidden).expect("json");
        let v: serde_json::Value = serde_json::from_str(&out).expect("json");
        assert!(
            !out.to_lowercase().contains("ann@") && !out.contains("gm@"),
            "{out}"
        );
        assert_eq!(v["players"]["red"]["name"], "Ann");
        assert_eq!(v["players"]["red"]["email"], "");
        assert_eq!(v["note"], serde_json::json!(["", 7]));
        assert_eq!(v["keep"], "bob@example.org");
        let plain = r#"{"b":1, "a":"x"}"#;
        assert_eq!(without_addresses(plain, &hidden).expect("json"), plain);
    }

    #[test]
    fn a_secret_line_is_blanked_whatever_its_case_and_indent() {
        let text = "game g\nplayer red\n  Secret abcd-efgh-jkmn\nsecret\norders\n";
        let out = blank_secrets(text);
        assert!(!out.contains("abcd-efgh-jkmn"), "{out}");
        assert!(out.contains("  Secret [secret]\n"), "{out}");
        assert!(out.contains("game g\nplayer red\n"));
        assert!(out.ends_with("orders\n"));
    }

    /// Every branch of every page, with text a GM or a game sets made of markup, script
    /// and template syntax: each page is whole, and holds that text only escaped.
    #[test]
    fn every_page_holds_what_it_is_given_as_text_only() {
        use crate::pbem::game::{Measure, Progress, Tally, Writer};
        use crate::pbem::record::{Source, TurnRecord};
        let hostile = "</script><!--<script> & 'q' \"x\" {{ y }} \u{2028}";
        let tally = |p: Option<Progress>, colours: &[(&str, &str)]| Tally {
            measures: vec![
                Measure {
                    name: format!("score {hostile}"),
                    values: [("red".to_string(), 3), ("blue".to_string(), -2)].into(),
                },
                Measure {
                    name: "points".into(),
                    values: [("white".to_string(), 9)].into(),
                },
            ],
            progress: p,
            colours: colours
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
        };
        for variant in 0..6 {
            let progress = match variant {
                0 => Some(Progress {
                    name: "progress <w>".into(),
                    done: 7,
                    goal: Some(5),
                }),
                1 => Some(Progress {
                    name: "bricks".into(),
                    done: 3,
                    goal: Some(0),
                }),
                2 => Some(Progress {
                    name: "bricks".into(),
                    done: -3,
                    goal: None,
                }),
                3 => Some(Progress {
                    name: "b".into(),
                    done: 2,
                    goal: Some(9),
                }),
                _ => None,
            };
            let mut turns = vec![
                Turn {
                    number: 0,
                    svg: "<svg/>\n\n".into(),
                    report: format!("start {hostile}"),
                    orders: vec![],
                    record: None,
                    tally: tally(progress.clone(), &[]),
                },
                Turn {
                    number: 1,
                    svg: "<svg><text>1</text></svg>".into(),
                    report: hostile.into(),
                    orders: if variant == 1 {
                        vec![]
                    } else {
                        vec![
                            ("red".into(), format!("orders {hostile}")),
                            ("zed".into(), "x".into()),
                        ]
                    },
                    record: Some(TurnRecord {
                        deadline: Some(format!("2028-01-01 {hostile}")),
                        played_at: Some(if variant == 2 {
                            String::new()
                        } else {
                            format!("now {hostile}")
                        }),
                        orders: [
                            ("red".to_string(), Source::Sent),
                            ("blue".to_string(), Source::Caretaker),
                            ("white".to_string(), Source::Standing),
                        ]
                        .into(),
                        ..TurnRecord::default()
                    }),
                    tally: tally(progress.clone(), &[("red", "#d32f2f"), ("blue", "")]),
                },
                Turn {
                    number: 2,
                    svg: "<svg/>".into(),
                    report: String::new(),
                    orders: vec![],
                    record: Some(TurnRecord {
                        deadline: if variant == 3 {
                            None
                        } else {
                            Some(String::new())
                        },
                        acted: Some(if variant == 0 {
                            vec![]
                        } else {
                            vec!["blue".into()]
                        }),
                        orders: [("blue".to_string(), Source::Caretaker)].into(),
                        ..TurnRecord::default()
                    }),
                    tally: if variant >= 4 {
                        Tally::default()
                    } else {
                        tally(progress.clone(), &[("red", "#d32f2f"), ("blue", "<\"b\">")])
                    },
                },
            ];
            if variant == 5 {
                turns.truncate(1);
            }
            let writer = |seat: &str| WriterPage {
                seat: seat.into(),
                text: format!("game g\n{hostile}\n"),
                writer: Writer {
                    body: String::new(),
                    model: format!("{{\"a\":{}}}", serde_json::json!(hostile)),
                    script: "",
                    intro: format!("Click {hostile}."),
                },
                game: "g".into(),
                state: "{}".into(),
                public: variant == 2,
                turn: 3,
                to: if variant == 1 {
                    None
                } else {
                    Some(format!("\"{hostile}\" <j@example.org>"))
                },
            };
            let ov = Overview {
                name: format!("g {hostile}"),
                title: format!("T {hostile}"),
                scenario: hostile.into(),
                seats: vec![
                    Seat {
                        id: "red".into(),
                        name: "Ann".into(),
                    },
                    Seat {
                        id: "blue".into(),
                        name: hostile.into(),
                    },
                    Seat {
                        id: "white".into(),
                        name: "W".into(),
                    },
                ],
                over: match variant {
                    1 => Some("won.. ".into()),
                    2 => Some(format!("{hostile}.")),
                    _ => None,
                },
                shows_orders: variant != 3,
                dice: match variant {
                    0 => Some("a\n\nb & <c>\n\n\nd\n".into()),
                    1 => Some(String::new()),
                    _ => None,
                },
                guide: if variant == 4 {
                    None
                } else {
                    Some((format!("docs/{hostile}"), format!("guide {hostile}")))
                },
                writers: if variant == 3 {
                    vec![]
                } else {
                    vec![writer("red"), writer("blue")]
                },
                checker: if variant == 0 {
                    Some(b"\0asm".to_vec())
                } else {
                    None
                },
            };
            let files = render(&ov, &turns).expect("pages");
            let html: Vec<(&String, String)> = files
                .iter()
                .filter(|(name, _)| name.ends_with(".html"))
                .map(|(name, bytes)| (name, String::from_utf8(bytes.clone()).expect("utf-8")))
                .collect();
            assert!(html.len() > turns.len(), "{variant}: {:?}", files.keys());
            for (name, page) in &html {
                assert!(
                    !page.contains(hostile),
                    "{variant}: {name} holds the text raw"
                );
                assert!(!page.contains("<!--"), "{variant}: {name}");
                assert!(page.ends_with("</body>\n</html>\n"), "{variant}: {name}");
            }
            let index = &html
                .iter()
                .find(|(n, _)| *n == "index.html")
                .expect("index")
                .1;
            assert!(
                index.contains(&escape(&format!("g {hostile}"))),
                "{variant}"
            );
            if variant < 4 {
                assert!(index.contains("<td class=\"n\">&ndash;</td>"), "{variant}");
            }
            if variant == 1 {
                let turn = &html
                    .iter()
                    .find(|(n, _)| *n == "turn-001.html")
                    .expect("turn")
                    .1;
                assert!(turn.contains("<p>No one sent orders for this turn.</p>\n"));
            }
        }
    }
}
