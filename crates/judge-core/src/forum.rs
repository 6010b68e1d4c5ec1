//! A turn's public report laid out for a forum post (`judge report --format markdown`
//! or `bbcode`): play by forum, where a GM pastes each turn into a thread.
//!
//! Every game's plain-text report already follows one convention: a banner between two
//! rules of `=`, headings underlined with `=`, tables drawn with `+---+` borders and `|`
//! between cells, and the rest indented text, some of it aligned by hand (lists in
//! columns, the map). So the layout is read here, once, from that convention into a
//! game-neutral [`Doc`], and each format is one renderer of the [`Doc`]: no game gives a
//! model of its own, and a new game's report is laid out as soon as its text follows the
//! convention. The only thing a game says is which section is its map
//! ([`crate::pbem::game::Report::map_section`]), which becomes a link to the turn's page
//! on the game's site.
//!
//! Whatever the report quotes (players' names, press) is text, never markup: each
//! renderer escapes what its format would read as markup.

/// One part of a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// The report's title (the banner's first line).
    Title(String),
    /// A section's heading.
    Heading(String),
    /// Lines of prose, each kept as its own line.
    Paragraph(Vec<String>),
    /// A table: its header's cells and its rows' cells.
    Table {
        header: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// Lines laid out by hand (columns, a drawing): shown as they are, in a fixed font.
    Pre(Vec<String>),
    /// A link to the map's picture: the text and the address.
    MapLink { text: String, url: String },
    /// Where a map link would be, when the game has no site address.
    NoSite(String),
}

/// The report's parts, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Doc {
    pub blocks: Vec<Block>,
}

/// Where the map of a turn is on the web, if the game has a site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapAt {
    /// The address of the turn's page and the turn's number.
    Page { url: String, turn: u32 },
    /// The game has no site address: the sentence saying how to give it one.
    Nowhere(String),
}

fn is_rule(line: &str, c: char) -> bool {
    let t = line.trim();
    t.len() >= 3 && t.chars().all(|x| x == c)
}

fn is_table_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("+-") || (t.starts_with('|') && t.trim_end().ends_with('|') && t.len() > 1)
}

fn cells(line: &str) -> Vec<String> {
    let t = line.trim();
    let inner = t
        .strip_prefix('|')
        .and_then(|s| s.strip_suffix('|'))
        .unwrap_or(t);
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

/// Lines laid out by hand: indented unevenly, or with a run of spaces inside.
fn is_laid_out(lines: &[&str]) -> bool {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let first = lines.first().map_or(0, |l| indent(l));
    lines.iter().any(|l| {
        // A wrapped line of prose may be indented less than the first, never more
        // (a hanging indent is a list's, laid out by hand).
        indent(l) > first || l.trim().contains("  ")
    }) || lines
        .iter()
        .map(|l| indent(l))
        .collect::<std::collections::BTreeSet<_>>()
        .len()
        > 2
}

/// Reads a plain-text report into its parts. `map_section` is the heading of the
/// section holding the map (without its numbering); `map` where its picture is.
pub fn read(text: &str, map_section: Option<&str>, map: &MapAt) -> Doc {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    // The banner: between two rules of `=`.
    if lines.first().is_some_and(|l| is_rule(l, '=')) {
        let end = lines[1..]
            .iter()
            .position(|l| is_rule(l, '='))
            .map(|p| p + 1);
        if let Some(end) = end {
            let inner: Vec<&str> = lines[1..end]
                .iter()
                .copied()
                .filter(|l| !l.trim().is_empty())
                .collect();
            if let Some((title, rest)) = inner.split_first() {
                blocks.push(Block::Title(title.trim().to_string()));
                if !rest.is_empty() {
                    blocks.push(Block::Paragraph(
                        rest.iter().map(|l| l.trim().to_string()).collect(),
                    ));
                }
            }
            i = end + 1;
        }
    }
    let mut in_map = false;
    while i < lines.len() {
        let line = lines[i];
        if line.trim().is_empty() {
            i += 1;
            continue;
        }
        // A heading: a line underlined with `=` (or `-`) of its own length.
        if is_heading_at(&lines, i) {
            let heading = line.trim().to_string();
            in_map = map_section.is_some_and(|m| section_name(&heading) == m);
            blocks.push(Block::Heading(heading));
            if in_map {
                blocks.push(match map {
                    MapAt::Page { url, turn } => Block::MapLink {
                        text: format!("The map of turn {turn}"),
                        url: url.clone(),
                    },
                    MapAt::Nowhere(how) => Block::NoSite(how.clone()),
                });
            }
            i += 2;
            continue;
        }
        // The map's section: every line up to the next heading, as drawn.
        if in_map {
            let start = i;
            while i < lines.len() && !is_heading_at(&lines, i) {
                i += 1;
            }
            let body = &lines[start..i];
            let end = body
                .iter()
                .rposition(|l| !l.trim().is_empty())
                .map_or(0, |p| p + 1);
            blocks.push(pre(&body[..end]));
            continue;
        }
        if line.trim_start().starts_with("+-") {
            let start = i;
            while i < lines.len() && is_table_line(lines[i]) {
                i += 1;
            }
            blocks.push(table(&lines[start..i]));
            continue;
        }
        // A chunk: lines up to a blank line, a table or a heading.
        let start = i;
        while i < lines.len()
            && !lines[i].trim().is_empty()
            && !lines[i].trim_start().starts_with("+-")
            && !is_heading_at(&lines, i)
        {
            i += 1;
        }
        if i == start {
            // A line alone that the loop cannot take (never expected): keep it as text.
            blocks.push(Block::Paragraph(vec![line.trim().to_string()]));
            i += 1;
            continue;
        }
        let chunk = &lines[start..i];
        if is_laid_out(chunk) {
            blocks.push(pre(chunk));
        } else {
            blocks.push(Block::Paragraph(
                chunk.iter().map(|l| l.trim().to_string()).collect(),
            ));
        }
    }
    Doc { blocks }
}

/// Lines shown as they are, less the indent they share.
fn pre(lines: &[&str]) -> Block {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    Block::Pre(
        lines
            .iter()
            .map(|l| l.get(indent..).unwrap_or("").trim_end().to_string())
            .collect(),
    )
}

/// A heading: a line of words underlined with `=` (or `-`) of its own length.
fn is_heading_at(lines: &[&str], i: usize) -> bool {
    let line = lines[i];
    !line.trim().is_empty()
        && !line.trim_start().starts_with(['+', '|'])
        && lines.get(i + 1).is_some_and(|next| {
            (is_rule(next, '=') || is_rule(next, '-')) && next.trim().len() == line.trim().len()
        })
}

/// A heading without its numbering: `VI. The map` is `The map`.
fn section_name(heading: &str) -> &str {
    match heading.split_once(". ") {
        Some((n, rest)) if !n.is_empty() && n.chars().all(|c| "IVXLCDM0123456789".contains(c)) => {
            rest
        }
        _ => heading,
    }
}

fn table(lines: &[&str]) -> Block {
    // The columns are where the border's `+` stand: a `|` inside a cell (a player's
    // name) splits nothing. A row that does not fit the border (a character drawn
    // wider) is split at its `|`.
    let border: Option<Vec<usize>> =
        lines
            .iter()
            .find(|l| l.trim_start().starts_with("+-"))
            .map(|l| {
                l.chars()
                    .enumerate()
                    .filter(|(_, c)| *c == '+')
                    .map(|(k, _)| k)
                    .collect()
            });
    let split = |l: &str| -> Vec<String> {
        let chars: Vec<char> = l.chars().collect();
        match &border {
            Some(cols)
                if cols.len() >= 2
                    && cols.iter().all(|&k| chars.get(k) == Some(&'|'))
                    && chars.len() == cols[cols.len() - 1] + 1 =>
            {
                cols.windows(2)
                    .map(|w| {
                        chars[w[0] + 1..w[1]]
                            .iter()
                            .collect::<String>()
                            .trim()
                            .to_string()
                    })
                    .collect()
            }
            _ => cells(l),
        }
    };
    let mut header = Vec::new();
    let mut rows = Vec::new();
    let mut borders = 0;
    for l in lines {
        if l.trim_start().starts_with("+-") {
            borders += 1;
            continue;
        }
        // The row before the second border is the header.
        if borders <= 1 && header.is_empty() {
            header = split(l.trim_end());
        } else {
            rows.push(split(l.trim_end()));
        }
    }
    Block::Table { header, rows }
}

/// Markdown escapes: every ASCII punctuation mark that CommonMark or a forum's
/// Markdown reads as markup inside a line is written with a backslash, and `<`, `>`
/// and `&` as entities (so no HTML, no autolink).
fn md(text: &str) -> String {
    let mut o = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '&' => o.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '~' | '!' | '(' | ')' => {
                o.push('\\');
                o.push(c);
            }
            _ => o.push(c),
        }
    }
    o
}

/// A Markdown paragraph line: escaped, and a line that would start a list, a quote or
/// a heading has its first mark escaped.
fn md_line(text: &str) -> String {
    let e = md(text);
    let starts_block = e.starts_with(['-', '+', '=', '>'])
        || e.split_once('.')
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    if starts_block {
        match e.split_once('.') {
            Some((n, rest)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => {
                format!("{n}\\.{rest}")
            }
            _ => format!("\\{e}"),
        }
    } else {
        e
    }
}

/// The report as Markdown (CommonMark with GitHub's tables, as Discourse and most
/// forums read it).
pub fn markdown(doc: &Doc) -> String {
    let mut o = String::new();
    for b in &doc.blocks {
        match b {
            Block::Title(t) => o.push_str(&format!("# {}\n\n", md(t))),
            Block::Heading(h) => o.push_str(&format!("## {}\n\n", md(h))),
            Block::Paragraph(lines) => {
                let body: Vec<String> = lines.iter().map(|l| md_line(l)).collect();
                // A backslash at a line's end is a hard line break.
                o.push_str(&body.join("\\\n"));
                o.push_str("\n\n");
            }
            Block::Table { header, rows } => {
                let width = header
                    .len()
                    .max(rows.iter().map(Vec::len).max().unwrap_or(0));
                let row = |cells: &[String]| {
                    let mut s = String::from("|");
                    for k in 0..width {
                        let c = cells.get(k).map_or(String::new(), |c| md(c));
                        s.push_str(&format!(" {c} |"));
                    }
                    s.push('\n');
                    s
                };
                o.push_str(&row(header));
                o.push('|');
                for _ in 0..width {
                    o.push_str(" --- |");
                }
                o.push('\n');
                for r in rows {
                    o.push_str(&row(r));
                }
                o.push('\n');
            }
            Block::Pre(lines) => {
                // A fence longer than any run of backticks inside: nothing closes it.
                let longest = lines
                    .iter()
                    .flat_map(|l| l.split(|c| c != '`'))
                    .map(str::len)
                    .max()
                    .unwrap_or(0);
                let fence = "`".repeat((longest + 1).max(3));
                o.push_str(&format!("{fence}text\n{}\n{fence}\n\n", lines.join("\n")));
            }
            Block::MapLink { text, url } => {
                o.push_str(&format!("[{}](<{}>)\n\n", md(text), url_text(url)));
            }
            Block::NoSite(how) => o.push_str(&format!("*{}*\n\n", md(how))),
        }
    }
    o
}

/// An address as the link's target: only what a URL may hold is kept (no space, no
/// `<`, `>`, `[`, `]`, quote), so it can close neither the link nor a tag.
fn url_text(url: &str) -> String {
    url.chars()
        .filter(|c| c.is_ascii_graphic() && !"<>[]\"'`\\".contains(*c))
        .collect()
}

/// BBCode escapes: a `[` opens no tag when an empty tag follows it (`[[b][/b]`), the
/// way phpBB's and other forums' users write a bracket; nothing else is markup.
fn bb(text: &str) -> String {
    text.replace('[', "[[b][/b]")
}

/// Inside `[code]` no tag is read but the one closing it: its bracket is made
/// unreadable with a zero-width space after it.
fn bb_code(text: &str) -> String {
    text.replace("[/", "[\u{200b}/")
}

/// The report as BBCode (phpBB, vBulletin, SMF, BoardGameGeek's forums).
pub fn bbcode(doc: &Doc) -> String {
    let mut o = String::new();
    for b in &doc.blocks {
        match b {
            Block::Title(t) => o.push_str(&format!("[size=150][b]{}[/b][/size]\n\n", bb(t))),
            Block::Heading(h) => o.push_str(&format!("[b]{}[/b]\n\n", bb(h))),
            Block::Paragraph(lines) => {
                let body: Vec<String> = lines.iter().map(|l| bb(l)).collect();
                o.push_str(&body.join("\n"));
                o.push_str("\n\n");
            }
            Block::Table { header, rows } => {
                let width = header
                    .len()
                    .max(rows.iter().map(Vec::len).max().unwrap_or(0));
                let row = |cells: &[String], cell: &str| {
                    let mut s = String::from("[tr]");
                    for k in 0..width {
                        let c = cells.get(k).map_or(String::new(), |c| bb(c));
                        s.push_str(&format!("[{cell}]{c}[/{cell}]"));
                    }
                    s.push_str("[/tr]\n");
                    s
                };
                o.push_str("[table]\n");
                o.push_str(&row(header, "th"));
                for r in rows {
                    o.push_str(&row(r, "td"));
                }
                o.push_str("[/table]\n\n");
            }
            Block::Pre(lines) => {
                o.push_str(&format!("[code]{}[/code]\n\n", bb_code(&lines.join("\n"))));
            }
            Block::MapLink { text, url } => {
                o.push_str(&format!("[url={}]{}[/url]\n\n", url_text(url), bb(text)));
            }
            Block::NoSite(how) => o.push_str(&format!("[i]{}[/i]\n\n", bb(how))),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOWHERE: MapAt = MapAt::Nowhere(String::new());

    fn report(name: &str) -> String {
        format!(
            "======\n REPORT -- x\n Now: {name}\n======\n\nI. Players\n==========\n  +-{rule}-+\n  | Name{pad} |\n  +-{rule}-+\n  | {name} |\n  +-{rule}-+\n\n  {name} wrote.\n",
            rule = "-".repeat(name.chars().count()),
            pad = " ".repeat(name.chars().count() - 4),
        )
    }

    /// A name full of each format's markup is read as text: in Markdown nothing of it
    /// is left unescaped that opens emphasis, a link, a table cell, a tag or HTML; in
    /// BBCode no `[` opens a tag.
    #[test]
    fn hostile_names_are_text_not_markup() {
        let name = "*a*_b_|c|[d](http://x)[url=http://evil]e[/url]<script>`f`";
        let doc = read(&report(name), None, &NOWHERE);
        let m = markdown(&doc);
        let escaped = "\\*a\\*\\_b\\_\\|c\\|\\[d\\]\\(http://x\\)\\[url=http://evil\\]e\\[/url\\]&lt;script&gt;\\`f\\`";
        // In the banner, the table's cell and the prose: each time escaped, never bare.
        assert_eq!(m.matches(escaped).count(), 3, "{m}");
        assert!(!m.contains("<script"), "{m}");
        let b = bbcode(&doc);
        assert!(!b.contains("[url=http://evil]"), "{b}");
        assert_eq!(b.matches("[[b][/b]url=http://evil]").count(), 3, "{b}");
        // Each `[` of the name is broken; the only tags left are the renderer's own.
        let tags: std::collections::BTreeSet<&str> = b
            .split('[')
            .skip(1)
            .filter_map(|t| t.split_once(']').map(|(tag, _)| tag))
            .filter(|t| !t.is_empty())
            .collect();
        for t in tags {
            assert!(
                [
                    "b", "/b", "size=150", "/size", "table", "/table", "tr", "/tr", "th", "/th",
                    "td", "/td", "code", "/code"
                ]
                .contains(&t),
                "a tag {t:?} in:\n{b}"
            );
        }
    }

    /// Laid-out text cannot close its `[code]` or its fence.
    #[test]
    fn preformatted_text_cannot_close_its_block() {
        let text = "Hed\n===\n  a  [/code] b\n  ```` c\n";
        let doc = read(text, None, &NOWHERE);
        assert!(matches!(doc.blocks[1], Block::Pre(_)), "{doc:?}");
        let b = bbcode(&doc);
        assert_eq!(b.matches("[/code]").count(), 1, "{b}");
        let m = markdown(&doc);
        assert!(m.contains("`````text\n"), "{m}");
    }

    /// The convention: banner, underlined headings, bordered tables, prose and
    /// laid-out lines.
    #[test]
    fn the_plain_text_convention_is_read_into_parts() {
        let text = "====\n T -- g\n Now: x\n====\n\nI. A\n====\n  one line\n  more\n\n  1. red   Ann\n  2. blue  Bob\n\nII. The map\n===========\n  /\\_/\\\n";
        let doc = read(
            text,
            Some("The map"),
            &MapAt::Page {
                url: "https://s/turn-003.html".into(),
                turn: 3,
            },
        );
        assert_eq!(
            doc.blocks,
            vec![
                Block::Title("T -- g".into()),
                Block::Paragraph(vec!["Now: x".into()]),
                Block::Heading("I. A".into()),
                Block::Paragraph(vec!["one line".into(), "more".into()]),
                Block::Pre(vec!["1. red   Ann".into(), "2. blue  Bob".into()]),
                Block::Heading("II. The map".into()),
                Block::MapLink {
                    text: "The map of turn 3".into(),
                    url: "https://s/turn-003.html".into()
                },
                Block::Pre(vec!["/\\_/\\".into()]),
            ]
        );
    }
}
