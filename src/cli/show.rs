//! `judge show`: print a turn's state for people or tools.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::Failure;
use crate::archive::STATE_FILE;
use crate::pbem;

pub fn run(args: ShowArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    if args.turn.is_none()
        && let Some((step, kept)) = pbem::round::current_text(&archive)?
    {
        let round = game.round(&kept).map_err(|e| {
            Failure::user(format!("setup/{step:03}/{}: {e}", pbem::round::ROUND_FILE))
        })?;
        let text = if args.json {
            // A game still in its set-up round has no state yet: the round as the
            // archive keeps it (docs/archive.md).
            let value = serde_json::json!({
                "setup": {
                    "step": step,
                    "next": round.next(),
                    "round": serde_json::from_str::<serde_json::Value>(&kept)
                        .context("the set-up round")?,
                }
            });
            crate::archive::stable_json(&value).context("JSON")?
        } else {
            let title = format!("{} ({})", archive.name(), game.title());
            let shown = pbem::round::RoundPosition(round);
            pbem::game::Position::show(&shown, &title)
        };
        out.write_all(text.as_bytes()).context("writing output")?;
        return Ok(());
    }
    let turn = archive.pick_turn(args.turn)?;
    let position = pbem::position(&archive, game, turn)?;
    if args.json {
        let text = archive.read(turn, STATE_FILE)?;
        out.write_all(text.as_bytes()).context("writing output")?;
    } else {
        let title = format!("{} ({})", archive.name(), game.title());
        out.write_all(position.show(&title).as_bytes())
            .context("writing output")?;
    }
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Which turn to show (default: the latest).
    #[arg(long, short)]
    pub turn: Option<u32>,
    /// Print the state as JSON for tools (the schema is in docs/archive.md).
    #[arg(long)]
    pub json: bool,
}
