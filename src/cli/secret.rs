//! `judge secret`: give players (or the GM) their secrets, with a welcome mail.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::{Failure, Wait};
use crate::mail::outbox::{self, Outgoing};
use crate::mail::secret;
use crate::pbem::{self};

pub fn run(args: SecretArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let _lock = super::lock(&args.dir, "judge secret", args.wait)?;
    let (mut archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    if args.gm {
        let Some(gm) = archive.game.gm.clone() else {
            return Err(Failure::user(
                "the game has no GM for commands by mail: add [gm] to game.toml (name and email), or make the game with judge new --gm NAME:EMAIL".into(),
            ));
        };
        let s = secret::generate();
        let hash = secret::hash(&s).map_err(|e| Failure::later(anyhow::anyhow!(e)))?;
        let mut file = archive.game.clone();
        file.gm = Some(crate::archive::GmEntry {
            secret_hash: Some(hash),
            ..gm.clone()
        });
        archive.save_game_file(file)?;
        writeln!(
            out,
            "The GM's new secret, shown this once (only its hash is kept): {s}\nIt goes on a line `secret {s}` of a mail from {} with the GM's commands (docs/mail-commands.md).",
            gm.email
        )
        .context("output")?;
        return Ok(());
    }
    if args.mail {
        outbox::settings(&archive).map_err(|e| Failure::user(e.to_string()))?;
    }
    let wanted: Vec<String> = args
        .players
        .iter()
        .map(|p| p.to_ascii_lowercase())
        .collect();
    for w in &wanted {
        if !archive.game.players.iter().any(|p| &p.id == w) {
            return Err(Failure::user(format!("{w} does not play in this game")));
        }
    }
    let seats: Vec<String> = archive
        .game
        .players
        .iter()
        .filter(|p| !p.is_free())
        .filter(|p| wanted.is_empty() || wanted.contains(&p.id))
        .filter(|p| p.secret_hash.is_none() || !wanted.is_empty() || args.reset)
        .map(|p| p.id.clone())
        .collect();
    if seats.is_empty() {
        writeln!(
            out,
            "Every player already has a secret (use --reset, or name a player, to make a new one)."
        )
        .context("output")?;
        return Ok(());
    }
    let mut shown_lines = Vec::new();
    for seat in &seats {
        let s = secret::generate();
        let hash = secret::hash(&s).map_err(|e| Failure::later(anyhow::anyhow!(e)))?;
        if args.mail {
            // Sent at once, or not at all: if it cannot be sent, the player keeps their
            // old secret (or none) and nothing of the new one is written anywhere.
            let mail = pbem::welcome::mail(&archive, game, seat, Some(&s))?;
            let kept = Outgoing {
                body: mail.body.replace(&s, crate::mail::redact::BLANK),
                ..mail.clone()
            };
            outbox::send_now(&archive, &mail, &kept).map_err(|e| match e {
                outbox::MailError::Send(why) => Failure::later(anyhow::anyhow!(
                    "the welcome mail to {seat} was not sent ({why}); {seat}'s secret is unchanged"
                )),
                outbox::MailError::Refused(why) => Failure::user(format!(
                    "the mail server refused the welcome mail to {seat} for good ({why}); {seat}'s secret is unchanged: check {seat}'s address in game.toml"
                )),
                other => Failure::user(other.to_string()),
            })?;
        }
        let mut file = archive.game.clone();
        if let Some(p) = file.players.iter_mut().find(|p| &p.id == seat) {
            p.secret_hash = Some(hash);
            let line = if args.mail {
                format!(
                    "{:<7} {:<24} a new secret, sent in a welcome mail",
                    p.id, p.email
                )
            } else {
                format!("{:<7} {:<24} secret {s}", p.id, p.email)
            };
            shown_lines.push(line);
        }
        archive.save_game_file(file)?;
    }
    if args.mail {
        writeln!(
            out,
            "Welcome mails sent (the judge's copies in sent/ have the secret blanked):"
        )
        .context("output")?;
    } else {
        writeln!(out, "New secrets, shown this once (only their hashes are kept). Give each player theirs privately, or use --mail:").context("output")?;
    }
    for l in shown_lines {
        writeln!(out, "  {l}").context("output")?;
    }
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct SecretArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Players (colours) to give new secrets; default: every player without one.
    pub players: Vec<String>,
    /// Replace secrets that are already set.
    #[arg(long)]
    pub reset: bool,
    /// Give the GM (`[gm]` in game.toml, `judge new --gm`) a new secret, for the GM's
    /// commands by mail; shown once.
    #[arg(long, conflicts_with_all = ["players", "mail"])]
    pub gm: bool,
    /// Mail each player a welcome: their secret, an order template and the turn-0
    /// report. The secret goes only into that mail (sent at once, never queued); the
    /// judge's copy of it has the secret blanked.
    #[arg(long)]
    pub mail: bool,
    #[command(flatten)]
    pub wait: Wait,
}
