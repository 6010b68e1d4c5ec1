//! Writes that either happen whole or not at all: a temporary folder beside the target,
//! synced to disk, then renamed into place.

use std::fs::{self, File};
use std::io::Write;
use std::path::Path;

use super::error::ArchiveError;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ArchiveError + '_ {
    move |source| ArchiveError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Flush a folder's entries (new names, renames) to disk.
fn sync_dir(dir: &Path) -> Result<(), ArchiveError> {
    File::open(dir).and_then(|d| d.sync_all()).map_err(io(dir))
}

/// Replace `path` with `bytes` atomically: a temporary file beside it, synced, renamed.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), ArchiveError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(io(dir))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .map_err(io(dir))?;
    tmp.write_all(bytes).map_err(io(path))?;
    tmp.as_file().sync_all().map_err(io(path))?;
    tmp.persist(path).map_err(|e| ArchiveError::Io {
        path: path.to_path_buf(),
        source: e.error,
    })?;
    sync_dir(dir)
}

/// A new file readable by its owner alone (0600 on Unix), as [`write_file`]'s are: a
/// new game's files include its secret seed (`randomness.key`) and its players' secrets'
/// hashes, which no other user of a shared host may read.
fn private_file(path: &Path) -> std::io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    options.open(path)
}

/// Create the folder `target` holding `files` (relative paths → contents), atomically:
/// it appears whole or not at all. Refuses a `target` that already exists, unless it is
/// an empty folder.
pub fn create_dir(target: &Path, files: &[(String, Vec<u8>)]) -> Result<(), ArchiveError> {
    if target.exists() {
        let empty = fs::read_dir(target)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if !empty {
            return Err(ArchiveError::Exists(target.to_path_buf()));
        }
        fs::remove_dir(target).map_err(io(target))?;
    }
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    fs::create_dir_all(parent).map_err(io(parent))?;
    let tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempdir_in(parent)
        .map_err(io(parent))?;
    for (name, bytes) in files {
        let path = tmp.path().join(name);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(io(dir))?;
        }
        let mut f = private_file(&path).map_err(io(&path))?;
        f.write_all(bytes).map_err(io(&path))?;
        f.sync_all().map_err(io(&path))?;
    }
    for (name, _) in files {
        let mut dir = tmp.path().join(name);
        while dir.pop() && dir.starts_with(tmp.path()) {
            sync_dir(&dir)?;
        }
    }
    let kept = tmp.keep();
    fs::rename(&kept, target).map_err(|e| {
        let _ = fs::remove_dir_all(&kept);
        ArchiveError::Io {
            path: target.to_path_buf(),
            source: e,
        }
    })?;
    sync_dir(parent)
}
