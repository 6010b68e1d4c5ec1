//! `judge show`: print a turn's state for people or tools.

use std::io::Write;

use anyhow::Context as _;

use super::{Failure, ShowArgs};
use crate::archive::STATE_FILE;
use crate::pbem;

pub fn run(args: ShowArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (archive, game) = pbem::open(&args.dir)?;
    if args.turn.is_none()
        && !args.json
        && let Some((_, round)) = pbem::round::current(&archive, game)?
    {
        let title = format!("{} ({})", archive.name(), game.title());
        let shown = pbem::round::RoundPosition(round);
        out.write_all(pbem::game::Position::show(&shown, &title).as_bytes())
            .context("writing output")?;
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
