//! Rendering the report model through a template (minijinja). The default template is
//! `templates/report.txt`, built in; a GM may override it per game by putting a file of
//! the same name in the game's `templates/` folder.

use minijinja::{Environment, Error, ErrorKind, UndefinedBehavior, Value};

use super::Report;

/// The built-in report template.
pub const DEFAULT_TEMPLATE: &str = include_str!("../../../../templates/report.txt");

/// Every report line fits in this many columns.
pub const WIDTH: usize = 78;

/// A ruled table: `+----+` rules, a header row, aligned columns; the last column wraps to
/// keep the table within 78 columns.
pub fn ruled(rows: &[Vec<String>], headers: &[String]) -> String {
    let n = headers.len();
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, cell) in r.iter().enumerate().take(n) {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    // Borders take 3 per column plus 1; indent 2.
    let fixed: usize = 2 + 1 + 3 * n + widths[..n.saturating_sub(1)].iter().sum::<usize>();
    if let Some(last) = widths.last_mut() {
        *last = (*last).min(WIDTH.saturating_sub(fixed)).max(4);
    }
    let rule = {
        let mut s = String::from("  +");
        for w in &widths {
            s.push_str(&"-".repeat(w + 2));
            s.push('+');
        }
        s
    };
    let row = |cells: &[String]| -> Vec<String> {
        let last = n.saturating_sub(1);
        let wrapped: Vec<String> = textwrap::wrap(
            cells.get(last).map_or("", String::as_str),
            widths[last].max(1),
        )
        .into_iter()
        .map(|c| c.into_owned())
        .collect();
        let height = wrapped.len().max(1);
        (0..height)
            .map(|k| {
                let mut s = String::from("  |");
                for (i, w) in widths.iter().enumerate() {
                    let text = if i == last {
                        wrapped.get(k).cloned().unwrap_or_default()
                    } else if k == 0 {
                        cells.get(i).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    };
                    let pad = w.saturating_sub(text.chars().count());
                    s.push(' ');
                    s.push_str(&text);
                    s.push_str(&" ".repeat(pad));
                    s.push_str(" |");
                }
                s
            })
            .collect()
    };
    let mut out = vec![rule.clone()];
    out.extend(row(headers));
    out.push(rule.clone());
    for r in rows {
        out.extend(row(r));
    }
    out.push(rule);
    out.join("\n")
}

fn ruled_filter(rows: Value, headers: Vec<String>) -> Result<String, Error> {
    let rows: Vec<Vec<String>> = rows
        .try_iter()?
        .map(|r| r.try_iter().map(|c| c.map(|v| v.to_string()).collect()))
        .collect::<Result<_, _>>()?;
    if headers.is_empty() {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "ruled needs the column headings",
        ));
    }
    Ok(ruled(&rows, &headers))
}

/// Wrap text to the report width, each line indented.
fn wrap_filter(text: String, indent: Option<usize>) -> String {
    let pad = " ".repeat(indent.unwrap_or(2));
    let options = textwrap::Options::new(WIDTH)
        .initial_indent(&pad)
        .subsequent_indent(&pad);
    textwrap::wrap(&text, options).join("\n")
}

/// `{{ n|counted("brick") }}`: `1 brick`, `2 bricks` (`judge_core::text::count`).
fn counted_filter(n: usize, noun: String) -> String {
    judge_core::text::count(n, &noun)
}

/// A numbered section heading, underlined with `=`.
fn section(number: usize, title: String) -> String {
    const ROMAN: [&str; 16] = [
        "", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
        "XIV", "XV",
    ];
    let head = format!("{}. {title}", ROMAN.get(number).copied().unwrap_or("?"));
    format!("{head}\n{}", "=".repeat(head.chars().count()))
}

/// Render a report with a template (the built-in one unless a GM's is given).
pub fn text(report: &Report, template: Option<&str>) -> Result<String, Error> {
    let mut env = Environment::new();
    env.set_syntax(
        minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .build()?,
    );
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.add_filter("ruled", ruled_filter);
    env.add_filter("wrap", wrap_filter);
    env.add_filter("counted", counted_filter);
    env.add_function("section", section);
    env.add_template("report.txt", template.unwrap_or(DEFAULT_TEMPLATE))?;
    let mut out = env
        .get_template("report.txt")?
        .render(minijinja::context! { r => Value::from(minijinja::value::Serde(report)) })?;
    // One final newline, no trailing spaces.
    out = out
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n");
    while out.ends_with("\n\n") {
        out.pop();
    }
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_ruled_aligned_and_fit() {
        let rows = vec![
            vec!["D1".to_string(), "red".to_string(), "carrying nothing at all and then some more words to wrap around the edge of the table".to_string()],
            vec!["S12".to_string(), "yellow".to_string(), "2 boards".to_string()],
        ];
        let t = ruled(
            &rows,
            &[
                "Id".to_string(),
                "Owner".to_string(),
                "Carrying".to_string(),
            ],
        );
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines.iter().all(|l| l.chars().count() <= WIDTH), "{t}");
        assert!(
            lines
                .iter()
                .all(|l| l.chars().count() == lines[0].chars().count()),
            "{t}"
        );
        assert!(lines[0].starts_with("  +-----+--------+"), "{t}");
        assert!(t.contains("| S12 | yellow |"));
    }
}
