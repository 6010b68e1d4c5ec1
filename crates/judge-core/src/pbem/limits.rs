//! How much the judge reads: documented limits that keep a run fast and small whatever a
//! player (or a broken mail program) sends. See docs/orders.md.

use std::io::Read;
use std::path::Path;

use super::error::Error;

/// The largest order file read, in bytes (1 MiB).
pub const ORDER_BYTES: usize = 1024 * 1024;
/// The most lines an order file may have.
pub const ORDER_LINES: usize = 20_000;
/// The most problems reported for one order file; the rest are counted.
pub const DIAGNOSTICS: usize = 100;

/// Why an order file is not read at all.
pub fn too_big(text: &str) -> Option<String> {
    if text.len() > ORDER_BYTES {
        return Some(format!(
            "it is {} bytes; order files are read up to {ORDER_BYTES} bytes (1 MiB)",
            text.len()
        ));
    }
    let lines = text.lines().count();
    if lines > ORDER_LINES {
        return Some(format!(
            "it has {lines} lines; order files are read up to {ORDER_LINES} lines"
        ));
    }
    None
}

/// Read an order file from disk, refusing one larger than [`ORDER_BYTES`] without reading
/// more of it than that.
pub fn read_order_file(path: &Path) -> Result<Vec<u8>, Error> {
    let f =
        std::fs::File::open(path).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    let mut bytes = Vec::new();
    f.take(ORDER_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    if bytes.len() > ORDER_BYTES {
        return Err(Error::input(format!(
            "{}: order files are read up to {ORDER_BYTES} bytes (1 MiB); this one is larger",
            path.display()
        )));
    }
    Ok(bytes)
}
