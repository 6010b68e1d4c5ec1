//! `judge turn`: play the next turn (`pbem::turn`), optionally commit it.

use std::io::Write;

use anyhow::Context as _;

use super::{Failure, TurnArgs};
use crate::pbem;

pub fn run(args: TurnArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if args.dry_run {
        return dry_run(args, out);
    }
    let (archive, game) = pbem::open(&args.dir)?;
    let now = super::mail::now()?;
    let mut lines = Vec::new();
    let result = pbem::turn::run(
        &archive,
        game,
        now,
        pbem::turn::Options {
            force: args.force,
            send: !args.no_send,
        },
        &mut lines,
    );
    for l in lines {
        writeln!(out, "{l}").context("writing output")?;
    }
    result?;
    if args.commit {
        let turn = archive.pick_turn(None)?;
        let name = archive.name();
        crate::archive::git::commit(archive.root(), &format!("{name}: turn {turn}"))
            .map_err(Failure::User)?;
        writeln!(out, "Committed {name}: turn {turn}.").context("writing output")?;
    }
    Ok(())
}

/// Everything `judge turn` would do, in a scratch copy of the game; nothing is sent.
fn dry_run(args: TurnArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let scratch = tempfile::tempdir().map_err(|e| Failure::Other(e.into()))?;
    let copy = scratch
        .path()
        .join(args.dir.file_name().unwrap_or_default());
    copy_dir(&args.dir, &copy)
        .map_err(|e| Failure::User(format!("copying {}: {e}", args.dir.display())))?;
    writeln!(
        out,
        "Dry run in a scratch copy; the game is not changed and no mail is sent."
    )
    .context("writing output")?;
    let inner = TurnArgs {
        dir: copy.clone(),
        dry_run: false,
        no_send: true,
        commit: false,
        force: args.force,
    };
    run(inner, out)?;
    let archive = crate::archive::Archive::open(&copy)?;
    let last = archive.pick_turn(None)?;
    let report = archive
        .read(last, pbem::report::REPORT_FILE)
        .unwrap_or_default();
    writeln!(out, "\n{report}").context("writing output")?;
    Ok(())
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let target = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            if e.file_name() == ".git" {
                continue;
            }
            copy_dir(&e.path(), &target)?;
        } else {
            std::fs::copy(e.path(), target)?;
        }
    }
    Ok(())
}
