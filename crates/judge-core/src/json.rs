//! The archive's JSON, written the same way wherever it is made (the judge, the games,
//! the checker in the browser).

use serde::Serialize;

/// Serialise as stable, pretty JSON: keys sorted, two-space indent, final newline, so
/// that two turns differ by small diffs.
pub fn stable_json<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    let v = serde_json::to_value(value)?;
    let mut s = serde_json::to_string_pretty(&v)?;
    s.push('\n');
    Ok(s)
}
