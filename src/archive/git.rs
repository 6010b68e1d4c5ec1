//! Committing a game folder to git (the GM keeps the archive there).

use std::path::Path;

/// `git add -A` and commit the folder with `message`, if anything changed that git keeps
/// (the game's `.gitignore` keeps private folders out). Returns whether it committed.
pub fn commit(dir: &Path, message: &str) -> Result<bool, String> {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .map_err(|e| format!("git: {e}"))
    };
    let add = git(&["add", "-A", "."])?;
    if !add.status.success() {
        return Err(format!(
            "git add: {}",
            String::from_utf8_lossy(&add.stderr).trim()
        ));
    }
    let staged = git(&["diff", "--cached", "--quiet", "--", "."])?;
    if staged.status.success() {
        return Ok(false);
    }
    let c = git(&["commit", "-q", "-m", message, "--", "."])?;
    if !c.status.success() {
        return Err(format!(
            "git commit: {}",
            String::from_utf8_lossy(&c.stderr).trim()
        ));
    }
    Ok(true)
}
