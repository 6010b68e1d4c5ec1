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

    /// More help after what the diagnostic has (`; ` between).
    pub fn more_help(mut self, more: impl Into<String>) -> Diagnostic {
        let more = more.into();
        self.help = Some(match self.help.take() {
            Some(h) => format!("{h}; {more}"),
            None => more,
        });
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

/// All the problems found in one file, ready to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics {
    pub file: String,
    pub source: String,
    pub items: Vec<Diagnostic>,
}

/// Where each line of a text starts: line and column of any offset in O(log n), so that
/// pointing at a thousand problems in a large file stays linear. The one way the judge
/// finds a line: made once per file, never a scan from the start per problem.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(source: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// 0-based line of a byte offset.
    fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|s| *s <= offset)
            .saturating_sub(1)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, source: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(source.len());
        let line = self.line_of(offset);
        let start = self.starts[line].min(offset);
        let col = source.get(start..offset).map_or(0, |t| t.chars().count()) + 1;
        (line + 1, col)
    }

    /// The whole lines a span touches: their byte range and the first one's number.
    fn lines_of(&self, source: &str, span: &Range<usize>) -> (Range<usize>, usize) {
        let first = self.line_of(span.start);
        let last = self.line_of(span.end.saturating_sub(1).max(span.start));
        let start = self.starts[first];
        let mut end = self
            .starts
            .get(last + 1)
            .map_or(source.len(), |next| next.saturating_sub(1))
            .max(start)
            .min(source.len());
        // A Windows line end's CR is not part of the line: shown, it would be `␍`.
        if end > start && source.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        (start..end, first + 1)
    }
}

impl Diagnostics {
    /// Render the problems, rustc style, without colour: the first
    /// [`MAX_SHOWN`](Diagnostics::MAX_SHOWN), then how many more there are. Each problem
    /// is shown with only the lines it points at, so the time taken grows with the
    /// number of problems, not with it times the file's size.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let index = LineIndex::new(&self.source);
        for d in self.items.iter().take(Self::MAX_SHOWN) {
            let level = match d.severity {
                Severity::Error => Level::ERROR,
                Severity::Warning => Level::WARNING,
            };
            let (lines, span, line_no) = match &d.span {
                Some(span) => {
                    let span = clamp(span.clone(), &self.source);
                    let (lines, first) = index.lines_of(&self.source, &span);
                    let rel = span.start - lines.start..span.end.min(lines.end) - lines.start;
                    (lines, Some(rel), first)
                }
                None => (0..0, None, 1),
            };
            let text = self.source.get(lines).unwrap_or("");
            let mut group: Group<'_> =
                level
                    .primary_title(d.message.as_str())
                    .element(match &span {
                        Some(span) => {
                            let mut ann = AnnotationKind::Primary.span(span.clone());
                            if let Some(l) = &d.label {
                                ann = ann.label(l.as_str());
                            }
                            Snippet::source(text)
                                .line_start(line_no)
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
        if self.items.len() > Self::MAX_SHOWN {
            out.push_str(&format!(
                "... and {} more, not shown (the first {} are)\n\n",
                self.items.len() - Self::MAX_SHOWN,
                Self::MAX_SHOWN
            ));
        }
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

    /// Problems shown one by one; the rest are counted (docs/orders.md, limits).
    pub const MAX_SHOWN: usize = 100;
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
        let index = LineIndex::new(s);
        assert_eq!(index.line_col(s, 0), (1, 1));
        assert_eq!(index.line_col(s, 3), (2, 1));
        assert_eq!(index.line_col(s, 7), (2, 4));
    }

    /// A file with Windows line ends shows its lines without `␍`.
    #[test]
    fn a_crlf_line_is_shown_without_its_cr() {
        let source = "game demo\r\nmvoe D2: C3\r\nmove D1: C3\r\n".to_string();
        let at = source.find("mvoe").expect("mvoe");
        let d = Diagnostics {
            file: "o.txt".into(),
            source,
            items: vec![Diagnostic::new("`mvoe` is not an order").at(at..at + 4)],
        };
        let shown = d.render();
        assert!(shown.contains("2 | mvoe D2: C3\n"), "{shown}");
        assert!(
            !shown.contains('\u{240D}') && !shown.contains('\r'),
            "{shown}"
        );
    }

    #[test]
    fn suggestions_catch_typos_only() {
        let goods = ["boards", "trunks", "stone"];
        assert_eq!(did_you_mean("boardz", goods), Some("boards"));
        assert_eq!(did_you_mean("Stones", goods), Some("stone"));
        assert_eq!(did_you_mean("xyz", goods), None);
    }
}
