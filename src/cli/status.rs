//! `judge status`: who has sent orders, what waits, what was refused.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::Failure;
use super::outbox::now;
use crate::archive::schedule::shown;
use crate::mail::outbox::{self};
use crate::pbem::game::{OrderFile, Pace, Position};
use crate::pbem::log::{Log, Outcome};
use crate::pbem::turn::Source;
use crate::pbem::{self};
use crate::text::count;

/// For a game played one player at a time: whose orders the next step waits for, or
/// that they are in and the next `judge turn` plays it.
fn one_at_a_time(
    archive: &crate::archive::Archive,
    state: &dyn Position,
    next: u32,
) -> Result<String, Failure> {
    let mut notes = Vec::new();
    let sent: Vec<OrderFile> = pbem::turn::gather(archive, state, next, &mut notes)?
        .into_iter()
        .filter(|(_, _, source)| *source == Source::Sent)
        .map(|(_, f, _)| f)
        .collect();
    let waiting = state.awaited(&sent);
    if !waiting.is_empty() {
        return Ok(format!(
            "Played one player at a time: turn {next} waits for {}.",
            waiting.join(", ")
        ));
    }
    let needed = state.awaited(&[]);
    Ok(if needed.is_empty() {
        format!(
            "Played one player at a time: the orders turn {next} needs are on record; the next `judge turn` plays it."
        )
    } else {
        format!(
            "Played one player at a time: {}'s orders are in; the next `judge turn` plays turn {next}.",
            needed.join(", ")
        )
    })
}

pub fn run(args: StatusArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if args.all {
        return all(&args, out);
    }
    if args.format != StatusFormat::Text {
        return Err(Failure::new(
            super::Exit::Usage,
            anyhow::anyhow!("--format json is for a folder of games (--all)"),
        )
        .with_hint(format!(
            "judge status --all GAMES --format json; judge status {} for this game",
            args.dir.display()
        )));
    }
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let now = now()?;
    if !pbem::signup::started(&archive) {
        writeln!(
            out,
            "{} ({}): not begun: {}.\nSeats:",
            archive.name(),
            game.title(),
            pbem::waiting(&archive).unwrap_or_default()
        )
        .context("output")?;
        for line in pbem::signup::seat_lines(&archive, true) {
            writeln!(out, "{line}").context("output")?;
        }
        return Ok(());
    }
    let waits = pbem::waiting(&archive);
    if let Some(why) = &waits {
        writeln!(
            out,
            "The game waits: {why} (`judge resume`, or `resume` by mail, starts it again)."
        )
        .context("output")?;
    }
    if let Some((last, round)) = pbem::round::current(&archive, game)? {
        writeln!(
            out,
            "{} ({}): the set-up round, before turn 1.
",
            archive.name(),
            game.title()
        )
        .context("output")?;
        out.write_all(round.show().as_bytes()).context("output")?;
        if let (Some(next), Some(d)) = (round.next(), pbem::round::deadline(&archive, last)?) {
            writeln!(
                out,
                "
{next}'s choice is due by {}.",
                shown(d)
            )
            .context("output")?;
        }
        return Ok(());
    }
    let last = archive.pick_turn(None)?;
    let state = pbem::current(&archive, game)?;
    let next = last + 1;
    let over = state.over();
    // A finished game has no next turn, no deadline and nobody's orders to wait for.
    let what_next = if over.is_some() {
        String::new()
    } else {
        format!("; turn {next} is next")
    };
    writeln!(
        out,
        "{} ({}): {} played{what_next}.",
        archive.name(),
        game.title(),
        count(last as usize, "turn")
    )
    .context("output")?;
    if let Some(why) = &over {
        writeln!(out, "The game is over: {why}.").context("output")?;
    } else if game.pace() == Pace::OneAtATime {
        writeln!(out, "{}", one_at_a_time(&archive, state.as_ref(), next)?).context("output")?;
    }
    match (
        &archive.game.schedule,
        pbem::deadline(&archive, game, next)?,
    ) {
        _ if over.is_some() => {}
        // Paused, no deadline runs: the line above says why, and how it goes on.
        (Some(_), None) if archive.game.paused.is_some() => writeln!(
            out,
            "No deadline runs while the game is paused: `judge resume {}` starts the clock again, and moves the deadline on by the pause.",
            args.dir.display()
        )
        .context("output")?,
        (Some(_), None) if waits.is_some() => {
            writeln!(out, "No deadline runs while the game waits.").context("output")?;
        }
        (Some(s), Some(d)) => {
            let left = d.duration_since(now).map_or("passed".to_string(), |l| {
                format!(
                    "in {}",
                    humantime::format_duration(std::time::Duration::from_secs(l.as_secs()))
                )
            });
            let remind = s
                .remind
                .as_ref()
                .map_or(String::new(), |r| format!("; reminders {r} before"));
            writeln!(
                out,
                "Deadline for turn {next}: {} ({left}); late orders: {}{remind}.",
                shown(d),
                s.late
            )
            .context("output")?;
        }
        _ => writeln!(out, "No deadline is set: the GM runs each turn.").context("output")?,
    }
    if over.is_none()
        && let Some(why) = pbem::turn::early_note(&archive, game, state.as_ref(), now)?
    {
        writeln!(out, "{why}").context("output")?;
    }
    let log = Log::load(&archive)?;
    writeln!(out, "Players:").context("output")?;
    for l in pbem::status::seats(&archive, state.as_ref(), next, &log) {
        let line = format!(
            "  {:<7} {:<12} {}{}",
            l.id,
            l.name,
            l.what,
            if l.no_secret { " (no secret set)" } else { "" }
        );
        writeln!(out, "{}", line.trim_end()).context("output")?;
    }
    let refused: Vec<_> = log
        .entries
        .iter()
        .filter(|e| matches!(e.outcome, Outcome::Refused { .. }))
        .filter(|e| !log.entries.iter().any(|a| a.again_of == Some(e.seq)))
        .collect();
    if !refused.is_empty() {
        writeln!(
            out,
            "Refused mails (once the cause is fixed, `judge ingest DIR --again N` files one again):"
        )
        .context("output")?;
        for e in refused.iter().rev().take(10).rev() {
            let Outcome::Refused { reason, .. } = &e.outcome else {
                continue;
            };
            writeln!(
                out,
                "  {:>4}  {}  {}: {reason}",
                e.seq,
                e.arrived
                    .as_deref()
                    .and_then(|a| humantime::parse_rfc3339_weak(a).ok())
                    .map_or("?".to_string(), shown),
                e.from.as_deref().unwrap_or("unknown sender"),
            )
            .context("output")?;
        }
    }
    for (id, why) in archive.game.bad_addresses() {
        writeln!(
            out,
            "warning: {id}'s address in game.toml: {why}: no mail reaches {id} until it is fixed"
        )
        .context("output")?;
    }
    let refused = outbox::refused(&archive);
    if !refused.is_empty() {
        writeln!(
            out,
            "Mail refused for good, not tried again (`judge mail {dir} --retry` once the cause is fixed; for a wrong address, put it right in game.toml and `judge mail {dir} --resend PLAYER`):",
            dir = archive.root().display()
        )
        .context("output")?;
        for (key, r) in &refused {
            writeln!(out, "  {key} to {}: {}", r.to, r.why).context("output")?;
        }
    }
    let waiting = outbox::waiting(&archive);
    writeln!(
        out,
        "Outbox: {} waiting{}",
        count(waiting.len(), "mail"),
        if waiting.is_empty() {
            "."
        } else {
            ": judge mail sends them."
        }
    )
    .context("output")?;
    Ok(())
}

/// One row of `judge status --all`: a game at a glance, or why its folder cannot be
/// read.
pub type Row = (String, Result<pbem::glance::Glance, Failure>);

/// Every game of the folder `dir` (as `judge turn --all` finds them: each folder in it
/// holding a game.toml; a judge.toml is not needed to read them), at a glance, by name.
/// A game that cannot be read is a row with its failure, and never stops the others.
pub fn rows(dir: &std::path::Path) -> Result<Vec<Row>, Failure> {
    Ok(crate::archive::house::game_folders(dir)?
        .into_iter()
        .map(|path| {
            let name = crate::archive::folder_name(&path);
            let row = pbem::open(crate::games::registry(), &path)
                .and_then(|(archive, game)| pbem::glance::glance(&archive, game))
                .map_err(Failure::from);
            (name, row)
        })
        .collect())
}

/// The first line of a failure, cut to a table's width.
pub fn short_cause(f: &Failure) -> String {
    let text = f.to_string();
    let first = text.lines().next().unwrap_or_default().trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    // A diagnostic's place is on its `--> file:line:column` line.
    let line = match text.lines().find_map(|l| l.trim().strip_prefix("--> ")) {
        Some(at) => format!("{at}: {first}"),
        None => first.to_string(),
    };
    match line.char_indices().nth(100) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

/// `judge status --all GAMES`: the folder's games, a line each.
fn all(args: &StatusArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let rows = rows(&args.dir)?;
    let failed = rows
        .iter()
        .find_map(|(_, r)| r.as_ref().err().map(|f| f.kind));
    match args.format {
        StatusFormat::Json => {
            let list: Vec<serde_json::Value> = rows
                .iter()
                .map(|(name, r)| match r {
                    Ok(g) => serde_json::to_value(g).unwrap_or_default(),
                    Err(f) => serde_json::json!({
                        "name": name,
                        "state": "unreadable",
                        "why": short_cause(f),
                        "exit": f.exit_code(),
                    }),
                })
                .collect();
            let text = serde_json::to_string_pretty(&list).context("output")?;
            writeln!(out, "{text}").context("output")?;
        }
        StatusFormat::Text => table(&rows, out)?,
    }
    match failed {
        Some(kind) => Err(Failure::reported(kind)),
        None => Ok(()),
    }
}

fn table(rows: &[Row], out: &mut dyn Write) -> Result<(), Failure> {
    let head = [
        "GAME", "FAMILY", "TURN", "STATE", "DEADLINE", "MISSING", "OUTBOX",
    ];
    let lines: Vec<[String; 7]> = rows
        .iter()
        .map(|(name, r)| match r {
            Ok(g) => [
                name.clone(),
                g.family.clone(),
                g.turn.map_or("-".to_string(), |t| t.to_string()),
                g.stage.word().to_string(),
                g.due.map_or("-".to_string(), shown),
                match &g.missing {
                    pbem::glance::Missing::None => "-".to_string(),
                    pbem::glance::Missing::Seats(s) => s.join(", "),
                    pbem::glance::Missing::Private => "(not public)".to_string(),
                },
                g.outbox.to_string(),
            ],
            Err(f) => [
                name.clone(),
                "?".to_string(),
                "-".to_string(),
                "unreadable".to_string(),
                short_cause(f),
                String::new(),
                String::new(),
            ],
        })
        .collect();
    let mut width = head.map(str::len);
    for l in &lines {
        // The cause of an unreadable game runs on; it widens no column.
        if l[3] == "unreadable" {
            for (w, c) in width.iter_mut().zip(l.iter()).take(4) {
                *w = (*w).max(c.chars().count());
            }
            continue;
        }
        for (w, c) in width.iter_mut().zip(l.iter()) {
            *w = (*w).max(c.chars().count());
        }
    }
    let heads = head.map(str::to_string);
    for l in std::iter::once(&heads).chain(lines.iter()) {
        let mut line = String::new();
        for (i, (c, w)) in l.iter().zip(width).enumerate() {
            if i == 4 && l[3] == "unreadable" {
                line.push_str(c);
                break;
            }
            line.push_str(&format!("{c:<w$}  "));
        }
        writeln!(out, "{}", line.trim_end()).context("output")?;
    }
    let games = rows.len();
    let bad = rows.iter().filter(|(_, r)| r.is_err()).count();
    writeln!(
        out,
        "{}{}.",
        count(games, "game"),
        if bad > 0 {
            format!(", {bad} unreadable (`judge status GAMES/NAME` says more)")
        } else {
            String::new()
        }
    )
    .context("output")?;
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StatusFormat {
    Text,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// The game's folder; with --all, the folder of games (a folder per game; judge.toml is not needed).
    pub dir: PathBuf,
    /// Every game of the folder, a line each: its game, turn, state, deadline, whose
    /// orders are missing (where the game lets everyone know it; else "(not public)"),
    /// and the mails in its outbox. A game that cannot be read has its line, with the
    /// cause, and the others are shown; the command then exits with the first such
    /// game's code (5 for a damaged file, 1 for game.toml to fix).
    #[arg(long)]
    pub all: bool,
    /// With --all: `text` (a table) or `json` (a list of the games, for scripts).
    #[arg(long, value_enum, default_value_t = StatusFormat::Text)]
    pub format: StatusFormat,
}
