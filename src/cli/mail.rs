//! `judge mail`: send a report again, or try again the mails a server refused.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::outbox::send_outbox;
use super::{Failure, Wait};
use crate::mail::outbox::{self};
use crate::pbem::{self, send};

pub fn run(args: MailArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let lock = super::lock(&args.dir, "judge mail", args.wait)?;
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    outbox::settings(&archive).map_err(|e| Failure::user(e.to_string()))?;
    let last = archive.pick_turn(None)?;
    for problem in send::queue_reports(&archive, game, last)? {
        writeln!(out, "{problem}").context("output")?;
    }
    if args.retry {
        let keys = outbox::retry(&archive).map_err(pbem::Error::from)?;
        writeln!(
            out,
            "{}",
            match keys.len() {
                0 => "No mail was refused for good: nothing to try again.".to_string(),
                _ => format!("trying again: {}", keys.join(", ")),
            }
        )
        .context("output")?;
    }
    if let Some(player) = &args.resend {
        let player = player.to_ascii_lowercase();
        let turn = archive.pick_turn(args.turn.or(Some(last)))?;
        let key = send::resend(&archive, game, turn, &player)?;
        writeln!(
            out,
            "queued turn {turn}'s report for {player} again ({key})"
        )
        .context("output")?;
    }
    if outbox::waiting(&archive).is_empty() {
        writeln!(out, "The outbox is empty.").context("output")?;
    }
    drop(lock);
    send_outbox(&archive, out)
}

#[derive(Debug, clap::Args)]
pub struct MailArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Send a turn's report to this player again (their colour).
    #[arg(long, value_name = "PLAYER")]
    pub resend: Option<String>,
    /// With --resend: which turn's report (default: the latest).
    #[arg(long, short, requires = "resend")]
    pub turn: Option<u32>,
    /// Try again the mails the server refused for good (`judge status` lists them), once
    /// the cause is fixed at the server. Each goes as it was made, to the same address:
    /// for an address put right in game.toml, --resend makes a report anew.
    #[arg(long)]
    pub retry: bool,
    #[command(flatten)]
    pub wait: Wait,
}
