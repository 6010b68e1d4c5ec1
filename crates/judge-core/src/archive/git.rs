//! Committing a game folder to git (the GM keeps the archive there), and asking git
//! whether it keeps a folder. What must never be committed (a player's secret, the
//! secret seed) is looked for by the caller in the files [`to_commit`] names, before
//! anything is staged: `crate::pbem::commit`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::error::ArchiveError;
use super::folder::Archive;
use super::schema::GAME_FILE;

/// What went wrong asking git.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// git could not be run at all (not installed, say).
    #[error("git: {0}")]
    Run(#[source] std::io::Error),
    /// git ran and refused: what it said.
    #[error("{what}: {said}")]
    Refused { what: String, said: String },
}

fn git(dir: &Path, args: &[&str]) -> Result<Output, GitError> {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(GitError::Run)
}

fn failed(what: &str, out: &Output) -> GitError {
    GitError::Refused {
        what: what.to_string(),
        said: String::from_utf8_lossy(&out.stderr).trim().to_string(),
    }
}

/// The files a commit of the folder would hold that differ from its last commit (new or
/// changed, not deleted), relative to the folder: those `git add -A` would stage (git's
/// ignore rules keep private folders out), and those staged already. Nothing is written
/// into the repository to tell.
pub fn to_commit(dir: &Path) -> Result<Vec<PathBuf>, GitError> {
    let mut files = Vec::new();
    for args in [
        &[
            "ls-files",
            "-z",
            "--others",
            "--exclude-standard",
            "--modified",
            "--",
            ".",
        ][..],
        &[
            "diff",
            "--cached",
            "--name-only",
            "--relative",
            "--no-renames",
            "--diff-filter=d",
            "-z",
            "--",
            ".",
        ][..],
    ] {
        let out = git(dir, args)?;
        if !out.status.success() {
            return Err(failed(&format!("git {}", args[0]), &out));
        }
        files.extend(
            out.stdout
                .split(|b| *b == 0)
                .filter(|p| !p.is_empty())
                .map(|p| PathBuf::from(String::from_utf8_lossy(p).into_owned())),
        );
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// Is `rel` (relative to `dir`) in git's index: committed, or staged?
pub fn tracked(dir: &Path, rel: &Path) -> Result<bool, GitError> {
    let path = rel.to_string_lossy();
    let out = git(dir, &["ls-files", "--error-unmatch", "--", &path])?;
    Ok(out.status.success())
}

/// `git add -A` the folder.
pub fn stage(dir: &Path) -> Result<(), GitError> {
    let add = git(dir, &["add", "-A", "."])?;
    if !add.status.success() {
        return Err(failed("git add", &add));
    }
    Ok(())
}

/// Put git's index back as the last commit has these files (a new file leaves it; the
/// working files are left as they are).
pub fn unstage(dir: &Path, files: &[PathBuf]) -> Result<(), GitError> {
    if files.is_empty() {
        return Ok(());
    }
    let mut args: Vec<String> = ["reset", "-q", "--"].map(String::from).to_vec();
    args.extend(files.iter().map(|f| f.to_string_lossy().into_owned()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = git(dir, &args)?;
    if !out.status.success() {
        return Err(failed("git reset", &out));
    }
    Ok(())
}

/// Commit what is staged in the folder, if anything. Returns whether it committed.
pub fn commit_staged(dir: &Path, message: &str) -> Result<bool, GitError> {
    let staged = git(dir, &["diff", "--cached", "--quiet", "--", "."])?;
    if staged.status.success() {
        return Ok(false);
    }
    let c = git(dir, &["commit", "-q", "-m", message, "--", "."])?;
    if !c.status.success() {
        return Err(failed("git commit", &c));
    }
    Ok(true)
}

/// Does git keep `rel` (a folder, relative to `dir`) out of the repository? Asked of the
/// repository `dir` is in; for a folder not (yet) in one, of a scratch repository over
/// it, so that the answer is the one git will give once the GM runs `git init` there
/// (the game's own `.gitignore` and the user's global excludes count).
pub fn ignores(dir: &Path, rel: &Path) -> Result<bool, GitError> {
    let mut path = rel.to_string_lossy().into_owned();
    if !path.ends_with('/') {
        path.push('/');
    }
    let ask = |c: &mut Command| -> Result<Option<bool>, GitError> {
        let out = c
            .args(["check-ignore", "-q", "--", &path])
            .output()
            .map_err(GitError::Run)?;
        Ok(match out.status.code() {
            Some(0) => Some(true),
            Some(1) => Some(false),
            _ => None,
        })
    };
    if let Some(answer) = ask(Command::new("git").arg("-C").arg(dir))? {
        return Ok(answer);
    }
    let scratch = tempfile::tempdir().map_err(GitError::Run)?;
    let init = Command::new("git")
        .args(["init", "-q", "--bare"])
        .arg(scratch.path())
        .output()
        .map_err(GitError::Run)?;
    if !init.status.success() {
        return Err(failed("git init", &init));
    }
    ask(Command::new("git")
        .arg("--git-dir")
        .arg(scratch.path())
        .arg("--work-tree")
        .arg(dir)
        .arg("-C")
        .arg(dir))?
    .ok_or_else(|| GitError::Refused {
        what: "git check-ignore".to_string(),
        said: format!("it could not tell whether it keeps {path}"),
    })
}

/// `path` made absolute and without `.` or `..`, through the links of the part of it
/// that exists (so that `spool/../spool` and a link to the game's folder are seen for
/// what they are).
fn resolved(path: &Path) -> PathBuf {
    use std::path::Component;
    let parts: Vec<Component> = path.components().collect();
    let (mut out, rest) = (1..=parts.len())
        .rev()
        .find_map(|n| {
            let prefix: PathBuf = parts[..n].iter().collect();
            prefix.canonicalize().ok().map(|real| (real, &parts[n..]))
        })
        .unwrap_or((PathBuf::new(), &parts[..]));
    for part in rest {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The game's mail folders (`[mail] pickup`, where the welcome mails with the players'
/// secrets are written, and `maildir`, the players' raw mail) must not be committed with
/// the game: one inside the game's folder is refused unless git keeps it out. The error
/// names the setting and the two ways out.
pub fn check_mail_folders(archive: &Archive) -> Result<(), ArchiveError> {
    let Some(mail) = &archive.game.mail else {
        return Ok(());
    };
    // A relative pickup folder is the game folder's; a relative Maildir is read from
    // where the judge runs.
    let cwd = std::env::current_dir().unwrap_or_default();
    let folders = [
        ("pickup", mail.pickup.as_ref(), archive.root().to_path_buf()),
        ("maildir", mail.maildir.as_ref(), cwd.clone()),
        ("mbox", mail.mbox.as_ref(), cwd),
    ];
    let game = resolved(archive.root());
    for (key, setting, base) in folders {
        let Some(setting) = setting else { continue };
        let folder = resolved(&base.join(setting));
        let Ok(rel) = folder.strip_prefix(&game) else {
            continue;
        };
        let gitignore = archive.root().join(".gitignore");
        let fix = if rel.as_os_str().is_empty() {
            String::new()
        } else {
            format!(
                ", or add the line `/{}/` to {}",
                rel.display(),
                gitignore.display()
            )
        };
        let kept_out = !rel.as_os_str().is_empty()
            && ignores(archive.root(), rel).map_err(|message| ArchiveError::Invalid {
                path: archive.root().join(GAME_FILE),
                message: format!(
                    "[mail] {key} = \"{}\" is inside the game's folder, and git cannot say whether it keeps it out: {message}",
                    setting.display()
                ),
            })?;
        if !kept_out {
            let (what, example) = if key == "pickup" {
                (
                    "the mail the judge sends (welcome mails hold the players' secrets)",
                    format!("/var/spool/judge/{}", archive.name()),
                )
            } else {
                (
                    "the players' mail as it came (with their secrets)",
                    "/home/judge/Maildir".to_string(),
                )
            };
            return Err(ArchiveError::Invalid {
                path: archive.root().join(GAME_FILE),
                message: format!(
                    "[mail] {key} = \"{}\" is inside the game's folder, and git does not ignore it: {what} would be committed with the game. Set {key} to a folder outside the game, as an absolute path (such as \"{example}\"){fix}",
                    setting.display(),
                ),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_resolved_through_what_exists_and_lexically_beyond() {
        let tmp = tempfile::tempdir().expect("tmp");
        let real = tmp.path().canonicalize().expect("real");
        std::fs::create_dir(real.join("game")).expect("mkdir");
        assert_eq!(
            resolved(&real.join("game/./spool/../out/x")),
            real.join("game/out/x")
        );
        assert_eq!(resolved(&real.join("game/../game")), real.join("game"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(real.join("game"), real.join("link")).expect("link");
            assert_eq!(resolved(&real.join("link/spool")), real.join("game/spool"));
        }
    }
}
