//! `judge site`: the game's web site, written to a folder.

use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

use anyhow::Context as _;

use super::Failure;
use crate::pbem;

/// Where a checker module comes from, for the GM who gave a wrong one.
const BUILD_CHECKER: &str = "`scripts/build-checker` builds the checker and prints its path";

pub fn run(args: SiteArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    check_output(&args.dir, &args.output)?;
    let turns = archive.turns()?.len() as u64;
    let bar = super::progress(turns, "reading turns");
    let (mut overview, pages) = crate::site::collect(&archive, game, &mut || bar.inc(1))?;
    bar.finish_and_clear();
    if let Some(path) = &args.checker {
        let module = std::fs::read(path).map_err(|e| {
            Failure::user(format!("{}: {e}", path.display())).with_hint(BUILD_CHECKER)
        })?;
        if !module.starts_with(b"\0asm") {
            return Err(
                Failure::user(format!("{} is not a WebAssembly module", path.display()))
                    .with_hint(BUILD_CHECKER),
            );
        }
        overview.checker = Some(module);
    }
    let files = crate::site::render(&overview, &pages)?;
    std::fs::create_dir_all(&args.output)
        .map_err(|e| Failure::user(format!("{}: {e}", args.output.display())))?;
    // One run at a time writes the web root; what a run killed while writing left there
    // (`.tmp-…` files, never renamed into place) is removed first.
    let _lock = crate::archive::lock::GameLock::acquire_dir(
        &args.output,
        "judge site",
        crate::archive::lock::DEFAULT_WAIT,
    )?;
    remove_leftovers(&args.output)?;
    let before = what_it_wrote(&args.output, &overview);
    let list_path = args.output.join(SITE_LIST);
    // Before any page, the list names what this run is about to write beside what the
    // last run wrote: a run killed part-way (even its first, before `index.html`) leaves
    // a folder the next run knows as the site's, and forgets no page it may later remove.
    let mut about_to: Vec<&str> = files.keys().map(String::as_str).collect();
    about_to.extend(before.iter().map(String::as_str));
    about_to.sort_unstable();
    about_to.dedup();
    let list: String = about_to.iter().map(|n| format!("{n}\n")).collect();
    if !std::fs::read(&list_path).is_ok_and(|old| old == list.as_bytes()) {
        crate::archive::atomic::write_file(&list_path, list.as_bytes())?;
        readable(&list_path)?;
    }
    let mut written = 0;
    for (name, bytes) in &files {
        let path = args.output.join(name);
        // Files that are already right are left alone (a static host's upload sees only
        // the new turn's page and the overview change).
        if std::fs::read(&path).is_ok_and(|old| &old == bytes) {
            readable(&path)?;
            continue;
        }
        crate::archive::atomic::write_file(&path, bytes)?;
        readable(&path)?;
        written += 1;
    }
    // The list of what this run wrote goes in before anything is removed, so that a run
    // killed in between leaves a list of what is there.
    let list: String = files.keys().map(|n| format!("{n}\n")).collect();
    if !std::fs::read(&list_path).is_ok_and(|old| old == list.as_bytes()) {
        crate::archive::atomic::write_file(&list_path, list.as_bytes())?;
        readable(&list_path)?;
    }
    let mut removed = 0;
    for name in before.iter().filter(|n| !files.contains_key(*n)) {
        let path = args.output.join(name);
        // Only a plain file: never a folder, nor what a link points to.
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            std::fs::remove_file(&path)
                .map_err(|e| Failure::later(anyhow::anyhow!("{}: {e}", path.display())))?;
            removed += 1;
        }
    }
    writeln!(
        out,
        "{}: {} pages ({} written, {} unchanged{}); open {}",
        args.output.display(),
        pages.len() + 1,
        written,
        files.len() - written,
        if removed > 0 {
            format!(", {removed} removed: pages the game no longer has")
        } else {
            String::new()
        },
        args.output.join("index.html").display()
    )
    .context("writing output")?;
    Ok(())
}

/// The list of the files `judge site` wrote into the web root, one name a line: what a
/// later run may remove when the game no longer has them (the order writer's pages once
/// the game is over). Nothing else in the folder is ever removed.
const SITE_LIST: &str = ".judge-site";

/// What an earlier run wrote into `output`, as its list says. A site written before the
/// list was kept names its seats' writer pages, where they hold the judge's writer (a
/// page of the GM's own is never taken for one).
fn what_it_wrote(output: &Path, overview: &crate::site::Overview) -> Vec<String> {
    let plain = |n: &str| {
        !n.is_empty() && !n.starts_with('.') && !n.contains(['/', '\\']) && n != SITE_LIST
    };
    if let Ok(list) = std::fs::read_to_string(output.join(SITE_LIST)) {
        return list
            .lines()
            .map(str::trim)
            .filter(|n| plain(n))
            .map(str::to_string)
            .collect();
    }
    overview
        .seats
        .iter()
        .map(|seat| crate::site::writer_file(&seat.id))
        .filter(|n| plain(n))
        .filter(|n| {
            std::fs::read_to_string(output.join(n)).is_ok_and(|page| {
                page.contains("<main class=\"writer\">") && page.contains("window.WRITER")
            })
        })
        .collect()
}

/// The site goes into a folder of its own: a new or empty one, or one that holds a site
/// already; never the game's own folder.
fn check_output(game: &Path, output: &Path) -> Result<(), Failure> {
    let same = match (game.canonicalize(), output.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Err(Failure::user(format!(
            "{} is the game's own folder: give the site a folder of its own",
            output.display()
        ))
        .with_hint(format!("judge site {} -o site", game.display())));
    }
    let Ok(entries) = std::fs::read_dir(output) else {
        return Ok(());
    };
    // A folder holding only what a killed first run left is the site's.
    let mut others = entries
        .flatten()
        .filter(|e| !is_leftover(&e.file_name().to_string_lossy()));
    if others.next().is_some()
        && !output.join("index.html").is_file()
        && !output.join(SITE_LIST).is_file()
    {
        return Err(Failure::user(format!(
            "{} holds other files and no site (no index.html): give the site a new or empty folder",
            output.display()
        )));
    }
    Ok(())
}

/// A temporary file of an atomic write ([`crate::archive::atomic`]) that was never
/// renamed into place.
fn is_leftover(name: &str) -> bool {
    name.starts_with(".tmp-")
}

/// Remove the temporary files runs killed while writing left in the site's folder (the
/// caller holds the folder's lock, so none is a live run's).
fn remove_leftovers(output: &Path) -> Result<(), Failure> {
    let entries = std::fs::read_dir(output)
        .map_err(|e| Failure::user(format!("{}: {e}", output.display())))?;
    for e in entries.flatten() {
        if is_leftover(&e.file_name().to_string_lossy())
            && e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink())
        {
            let path = e.path();
            std::fs::remove_file(&path)
                .map_err(|e| Failure::later(anyhow::anyhow!("{}: {e}", path.display())))?;
        }
    }
    Ok(())
}

/// A page anyone may read, as a web server must (a new file is written private to
/// its owner, as the archive's are).
fn readable(path: &Path) -> Result<(), Failure> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644))
            .map_err(|e| Failure::user(format!("{}: {e}", path.display())))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct SiteArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// The folder to write the site to: new, empty, or holding this site already.
    #[arg(long, short, value_name = "OUT")]
    pub output: PathBuf,
    /// The order checker compiled to WebAssembly (the path `scripts/build-checker`
    /// prints), which the order writer's pages run to check orders in the player's
    /// browser. Without it they write orders and leave the checking to the judge.
    #[arg(long, value_name = "FILE")]
    pub checker: Option<PathBuf>,
}
