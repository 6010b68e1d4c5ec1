//! Diagnostics for people: what is wrong, where (file, line, column), the offending text
//! with a caret under it, and a suggestion when one is likely.

use std::fmt;
use std::ops::Range;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

/// How bad a problem is: an error stops the line; a warning only says what may go wrong.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

/// One problem found in a file a person wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// Byte range of the offending text in the file, when it can be pointed at.
    pub span: Option<Range<usize>>,
    /// A short note printed under the caret.
    pub label: Option<String>,
    /// How to fix it, when that is likely.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn new(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: None,
            label: None,
            help: None,
        }
    }

    pub fn at(mut self, span: Range<usize>) -> Diagnostic {
        self.span = Some(span);
        self
    }

    pub fn at_opt(mut self, span: Option<Range<usize>>) -> Diagnostic {
        self.span = span;
        self
    }

    pub fn label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(label.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn warning(mut self) -> Diagnostic {
        self.severity = Severity::Warning;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = source.get(..offset).unwrap_or(source);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// All the problems found in one file, ready to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics {
    pub file: String,
    pub source: String,
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Render every problem, rustc style, without colour.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for d in &self.items {
            let level = match d.severity {
                Severity::Error => Level::ERROR,
                Severity::Warning => Level::WARNING,
            };
            let mut group: Group<'_> =
                level
                    .primary_title(d.message.as_str())
                    .element(match &d.span {
                        Some(span) => {
                            let span = clamp(span.clone(), &self.source);
                            let mut ann = AnnotationKind::Primary.span(span);
                            if let Some(l) = &d.label {
                                ann = ann.label(l.as_str());
                            }
                            Snippet::source(self.source.as_str())
                                .path(self.file.as_str())
                                .fold(true)
                                .annotation(ann)
                        }
                        None => Snippet::source("")
                            .path(self.file.as_str())
                            .line_numbering(false),
                    });
            if let Some(h) = &d.help {
                group = group.element(Level::HELP.message(h.as_str()));
            }
            out.push_str(&Renderer::plain().render(&[group]));
            out.push_str("\n\n");
        }
        let errors = self.items.iter().filter(|d| d.is_error()).count();
        let warnings = self.items.len() - errors;
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        out.push_str(&match (errors, warnings) {
            (_, 0) => format!("{} in {}\n", plural(errors, "problem"), self.file),
            (0, _) => format!("{} in {}\n", plural(warnings, "warning"), self.file),
            _ => format!(
                "{} and {} in {}\n",
                plural(errors, "error"),
                plural(warnings, "warning"),
                self.file
            ),
        });
        out
    }
}

fn clamp(span: Range<usize>, source: &str) -> Range<usize> {
    let mut start = span.start.min(source.len());
    let mut end = span.end.clamp(start, source.len());
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    while !source.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for Diagnostics {}

/// The candidate closest to `word` by edit distance, if it is close enough to be a
/// likely typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::osa_distance(&word, &c.to_ascii_lowercase()), c))
        .filter(|(d, c)| *d <= (c.len().max(word.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let s = "ab\ncé d\n";
        assert_eq!(line_col(s, 0), (1, 1));
        assert_eq!(line_col(s, 3), (2, 1));
        assert_eq!(line_col(s, 7), (2, 4));
    }

    #[test]
    fn suggestions_catch_typos_only() {
        let goods = ["boards", "trunks", "stone"];
        assert_eq!(did_you_mean("boardz", goods), Some("boards"));
        assert_eq!(did_you_mean("Stones", goods), Some("stone"));
        assert_eq!(did_you_mean("xyz", goods), None);
    }
}
