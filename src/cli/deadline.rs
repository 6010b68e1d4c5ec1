//! `judge deadline`: move the next deadline, and tell the players.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::{Failure, Wait};
use crate::archive::schedule::shown;
use crate::pbem;

pub fn run(args: DeadlineArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let lock = super::lock(&args.dir, "judge deadline", args.wait)?;
    let (mut archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    let Some(mut schedule) = archive.game.schedule.clone() else {
        return Err(Failure::user(
            "the game has no [schedule] in game.toml: add one first (docs/gm-guide.md)".into(),
        ));
    };
    let last = archive.pick_turn(None)?;
    if pbem::position(&archive, game, last)?.over().is_some() {
        return Err(Failure::user(
            "the game is over: there is no deadline to move".into(),
        ));
    }
    let next = last + 1;
    let old = pbem::deadline(&archive, game, next)?
        .ok_or_else(|| Failure::user("the game has no deadline to move".into()))?;
    let new = match (&args.extend, &args.at) {
        (Some(d), _) => {
            let (minus, text) = match d.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, d.as_str()),
            };
            let by = humantime::parse_duration(text)
                .ok()
                .filter(|b| *b <= crate::archive::schedule::LONGEST)
                .ok_or_else(|| {
                    Failure::user(format!(
                        "--extend {d}: write a duration up to a year, like 24h or 2days"
                    ))
                })?;
            if minus {
                old.checked_sub(by)
            } else {
                old.checked_add(by)
            }
            .ok_or_else(|| Failure::user(format!("--extend {d}: that is out of range")))?
        }
        (None, Some(t)) => humantime::parse_rfc3339_weak(t).map_err(|e| {
            Failure::user(format!(
                "--at {t}: {e}; write a time like 2026-12-05T18:00:00Z"
            ))
        })?,
        (None, None) => return Err(Failure::user("give --extend DURATION or --at TIME".into())),
    };
    let now = super::outbox::now()?;
    // A deadline is moved at most a year (the longest `every`) past now or past where it
    // stands, and at most a year back: `--at 9999-12-31T23:59:59Z` is a slip.
    let given = match (&args.extend, &args.at) {
        (Some(d), _) => format!("--extend {d}"),
        (None, Some(t)) => format!("--at {t}"),
        (None, None) => String::new(),
    };
    let year = crate::archive::schedule::LONGEST;
    if now
        .max(old)
        .checked_add(year)
        .is_none_or(|latest| new > latest)
    {
        return Err(Failure::user(format!(
            "{given}: turn {next}'s deadline would be more than a year away ({}): a deadline moves at most a year (366 days, the longest `every`) past now ({}) or past where it stands ({}). Give a nearer time; to pause the game for longer, move it again later",
            shown(new),
            shown(now),
            shown(old)
        )));
    }
    if now.checked_sub(year).is_none_or(|earliest| new < earliest) {
        return Err(Failure::user(format!(
            "{given}: turn {next}'s deadline would be more than a year ago ({}; it is now {}): give a time within the last year (with --past) or to come",
            shown(new),
            shown(now)
        )));
    }
    let passed = new <= now;
    if passed && !args.past {
        return Err(Failure::user(format!(
            "the new deadline for turn {next}, {}, has already passed (it is now {}): the next `judge turn` would play the turn at once. Give a later time, or add --past to play it with the orders that are in",
            shown(new),
            shown(now)
        )));
    }
    schedule
        .move_deadline(next, new)
        .map_err(|e| Failure::user(e.to_string()))?;
    let mut file = archive.game.clone();
    file.schedule = Some(schedule);
    file.validate()
        .map_err(|slip| Failure::user(slip.to_string()))?;
    archive.save_game_file(file)?;
    writeln!(
        out,
        "The deadline for turn {next} moved from {} to {}.",
        shown(old),
        shown(new)
    )
    .context("output")?;
    if args.quiet || archive.mail().is_none() {
        return Ok(());
    }
    let name = archive.name();
    let problems = pbem::clock::tell(
        &archive,
        &format!(
            "deadline-{next:03}-{}",
            crate::archive::content_id(shown(new).as_bytes())
        ),
        &format!("[{name}] turn {next}: the deadline moved to {}", shown(new)),
        &format!(
            "The GM moved the deadline for turn {next} of {name} from {} to {}.\n\n{}\n",
            shown(old),
            shown(new),
            if passed {
                "That time has passed: the turn is played now, with the orders already sent."
            } else {
                "Orders already sent stand; you may replace them until the new deadline."
            }
        ),
    );
    for l in problems {
        writeln!(out, "{l}").context("output")?;
    }
    // The game is written: let it go before the mail, so that a slow server holds up
    // no other command (the outbox has its own lock).
    drop(lock);
    super::outbox::send_outbox(&archive, out)
}

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("when").required(true).args(["extend", "at"])))]
pub struct DeadlineArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Move the next deadline later (or earlier, with a minus: `-2h`) by this much:
    /// `24h`, `2days`.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub extend: Option<String>,
    /// Set the next deadline to this time, RFC 3339: `2026-12-05T18:00:00Z`.
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
    /// Change it without mailing the players.
    #[arg(long)]
    pub quiet: bool,
    /// Allow a deadline that has already passed: the next `judge turn` plays the turn
    /// with the orders that are in (the players are told so).
    #[arg(long)]
    pub past: bool,
    #[command(flatten)]
    pub wait: Wait,
}
