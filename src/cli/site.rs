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
    if args.all {
        return all(&args, out);
    }
    write_site(&args.dir, &args.output, args.checker.as_deref(), out).map(|_| ())
}

/// Write the site of the game at `dir` into `output`: what `judge site` does. Returns
/// the map of its latest turn (SVG).
fn write_site(
    dir: &Path,
    output: &Path,
    checker: Option<&Path>,
    out: &mut dyn Write,
) -> Result<Option<String>, Failure> {
    let args = SiteArgs {
        dir: dir.to_path_buf(),
        output: output.to_path_buf(),
        checker: checker.map(Path::to_path_buf),
        all: false,
    };
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
    Ok(pages.last().map(|t| t.svg.clone()))
}

/// The files of a folder's site beside the games' own folders: a game folder of one of
/// these names would be overwritten, so it gets no site there.
const FOLDER_FILES: [&str; 5] = ["index.html", "ratings.html", "style.css", "keys.js", "maps"];

/// A name as one segment of a relative link: every byte but letters, digits and
/// `-._~` percent-encoded, after `./`, so that no name (`javascript:…`, `//host`)
/// becomes a link of another kind.
fn link_segment(name: &str) -> String {
    let mut out = String::from("./");
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The site's templates are the judge's own: an error in one is the judge's.
fn fault(e: impl std::fmt::Display) -> Failure {
    Failure::new(
        super::Exit::Fault,
        anyhow::anyhow!("the site's page templates: {e}"),
    )
}

/// `judge site --all GAMES -o OUT`: each game's own site in `OUT/<game>/`, its latest
/// map in `OUT/maps/<game>.svg`, the page of the folder (`OUT/index.html`: every game
/// as `judge status --all` reads it) and the players' ratings (`OUT/ratings.html`).
fn all(args: &SiteArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let root = args.dir.as_path();
    let same = match (args.dir.canonicalize(), args.output.canonicalize()) {
        (Ok(a), Ok(b)) => a == b || a.starts_with(&b),
        _ => false,
    };
    if same {
        return Err(Failure::user(format!(
            "{} holds the games: give the folder's site a folder of its own",
            args.output.display()
        ))
        .with_hint(format!("judge site --all {} -o site", args.dir.display())));
    }
    check_output(&args.dir, &args.output)?;
    let maps = args.output.join("maps");
    std::fs::create_dir_all(&maps)
        .map_err(|e| Failure::user(format!("{}: {e}", maps.display())))?;
    let rows = super::status::rows(root)?;
    let mut failed = None;
    let mut games = Vec::new();
    for (name, row) in rows {
        let dir = root.join(&name);
        let mut game = crate::site::FolderGame {
            name: name.clone(),
            title: String::new(),
            players: Vec::new(),
            turn: None,
            state: String::new(),
            why: None,
            due: None,
            missing: String::new(),
            site: None,
            map: None,
            cause: None,
        };
        let written = match row {
            Ok(g) if !FOLDER_FILES.contains(&name.as_str()) => {
                game.title = super::ratings::title(&g.family);
                game.turn = g.turn;
                game.state = g.stage.word().to_string();
                game.why = match &g.stage {
                    pbem::glance::Stage::Open(w)
                    | pbem::glance::Stage::Paused(w)
                    | pbem::glance::Stage::Over(w) => Some(w.clone()),
                    _ => None,
                };
                game.due = g.due.map(crate::archive::schedule::shown);
                game.missing = match &g.missing {
                    pbem::glance::Missing::None => String::new(),
                    pbem::glance::Missing::Seats(s) => s.join(", "),
                    pbem::glance::Missing::Private => "(not public)".to_string(),
                };
                game.players = pbem::open(crate::games::registry(), &dir)
                    .and_then(|(archive, game)| {
                        Ok(pbem::current(&archive, game)?
                            .seats()
                            .into_iter()
                            .map(|s| s.name)
                            // A free seat has no name until it is taken.
                            .filter(|n| !n.is_empty())
                            .collect())
                    })
                    .unwrap_or_default();
                // A game not begun, or in its round by mail, has no turn 0 and so no
                // site yet: its line says where it stands.
                if g.turn.is_none() {
                    Ok(None)
                } else {
                    game.site = Some(format!("{}/index.html", link_segment(&name)));
                    write_site(&dir, &args.output.join(&name), args.checker.as_deref(), out)
                }
            }
            Ok(_) => Err(Failure::user(format!(
                "its name is one of the folder site's own files ({})",
                FOLDER_FILES.join(", ")
            ))),
            Err(f) => Err(f),
        };
        match written {
            Ok(svg) => {
                if let Some(svg) = svg {
                    let file = format!("{name}.svg");
                    let path = maps.join(&file);
                    if !std::fs::read(&path).is_ok_and(|old| old == svg.as_bytes()) {
                        crate::archive::atomic::write_file(&path, svg.as_bytes())?;
                    }
                    readable(&path)?;
                    game.map = Some(format!("maps/{}", &link_segment(&file)[2..]));
                }
            }
            Err(f) => {
                writeln!(out, "{name}: no site: {f}").context("writing output")?;
                game.cause = Some(super::status::short_cause(&f));
                failed.get_or_insert(f.kind);
            }
        }
        games.push(game);
    }
    let league = super::ratings::gather(root)?;
    let families: Vec<crate::site::RatedFamily> = crate::pbem::league::rate(&league.finished)
        .into_iter()
        .map(|(family, players)| crate::site::RatedFamily {
            title: super::ratings::title(&family),
            games: crate::text::count(
                league
                    .finished
                    .iter()
                    .filter(|g| g.family == family)
                    .count(),
                "game",
            ),
            players: players
                .into_iter()
                .map(|p| crate::site::RatedPlayer {
                    name: p.name,
                    rating: format!("{:.2}", p.rating),
                    mu: format!("{:.2}", p.mu),
                    sigma: format!("{:.2}", p.sigma),
                    games: p.games,
                    wins: p.wins,
                })
                .collect(),
        })
        .collect();
    let pages = crate::site::Pages::shared().map_err(fault)?;
    let title = format!("The games of {}", crate::archive::folder_name(root));
    let files = [
        (
            "index.html",
            pages
                .folder(&title, &games, Some("ratings.html"))
                .map_err(fault)?,
        ),
        (
            "ratings.html",
            pages
                .ratings(&format!("{title}: ratings"), &families)
                .map_err(fault)?,
        ),
        ("style.css", crate::site::STYLE.to_string()),
        ("keys.js", crate::site::KEYS.to_string()),
    ];
    for (name, text) in files {
        let path = args.output.join(name);
        if !std::fs::read(&path).is_ok_and(|old| old == text.as_bytes()) {
            crate::archive::atomic::write_file(&path, text.as_bytes())?;
        }
        readable(&path)?;
    }
    writeln!(
        out,
        "{}: {}; open {}",
        args.output.display(),
        crate::text::count(games.len(), "game"),
        args.output.join("index.html").display()
    )
    .context("writing output")?;
    match failed {
        Some(kind) => Err(Failure::reported(kind)),
        None => Ok(()),
    }
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
    /// The game's folder; with --all, the folder of games (a folder per game; judge.toml is not needed).
    pub dir: PathBuf,
    /// The site of a folder of games: each game's own site in OUT/GAME/, and a page of
    /// them all (OUT/index.html: each game's turn, state and latest map, linking to its
    /// site) and of the players' ratings (OUT/ratings.html). A game that cannot be read
    /// has its line with the cause, the others are written, and the command exits with
    /// the first such game's code.
    #[arg(long)]
    pub all: bool,
    /// The folder to write the site to: new, empty, or holding this site already.
    #[arg(long, short, value_name = "OUT")]
    pub output: PathBuf,
    /// The order checker compiled to WebAssembly (the path `scripts/build-checker`
    /// prints), which the order writer's pages run to check orders in the player's
    /// browser. Without it they write orders and leave the checking to the judge.
    #[arg(long, value_name = "FILE")]
    pub checker: Option<PathBuf>,
}
