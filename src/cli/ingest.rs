//! `judge ingest`: file the mail waiting for a game and answer it.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::outbox::{now, send_outbox};
use super::{Failure, Wait};
use crate::pbem::{self, intake, sources};

pub fn run(args: IngestArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let lock = super::lock(&args.dir, "judge ingest", args.wait)?;
    let (archive, game) = pbem::open(crate::games::registry(), &args.dir)?;
    // No source named: the mailboxes [mail] names, as `judge turn` reads them.
    let from_settings = args.maildir.is_none()
        && args.mbox.is_none()
        && args.imap.is_none()
        && args.files.is_empty()
        && args.again.is_none();
    if from_settings
        && archive
            .mail()
            .is_none_or(|m| m.maildir.is_none() && m.mbox.is_none() && m.imap_host.is_none())
    {
        return Err(Failure::user(
            "give mails to read: --maildir DIR, --mbox FILE, --imap HOST or .eml files (or --again N), or name the game's mailbox in game.toml's [mail] (maildir, mbox or imap_host)".into(),
        ));
    }
    // Check every source before filing anything from any of them.
    let maildir = args.maildir.as_deref().map(sources::maildir).transpose()?;
    for f in args.files.iter().chain(args.mbox.iter()) {
        if !f.is_file() && !f.exists() {
            return Err(Failure::user(format!("{}: no such file", f.display())));
        }
    }
    let imap = match &args.imap {
        Some(spec) => {
            // `HOST`, `HOST:PORT`, `[::1]:993` or a bare `::1`; without a port, [mail]
            // imap_port, else the security's own.
            let (host, port) = crate::mail::net::host_and_port(spec)
                .map_err(|e| Failure::user(format!("--imap {e}")))?;
            let settings = archive.mail().cloned().unwrap_or_default();
            Some(sources::imap(
                &settings,
                Some(host),
                port,
                args.user.clone(),
                args.imap_security.clone(),
            )?)
        }
        None => None,
    };
    let now = now()?;
    let mut lines = Vec::new();
    let result = (|| -> Result<(), pbem::Error> {
        pbem::turn::finish(&archive, game, &mut lines)?;
        let mut intake = intake::Intake::open(&archive, game, now)?;
        if let Some(n) = args.again {
            lines.push(intake.again(n)?.describe());
        }
        if let Some(paths) = &maildir {
            lines.extend(intake::file_each(
                &mut intake,
                paths.iter().map(|p| sources::maildir_mail(p)),
            )?);
        }
        if let Some(m) = &args.mbox {
            sources::mbox(m, |mail| {
                lines.extend(intake.file(&mail)?.news());
                Ok(())
            })?;
        }
        lines.extend(intake::file_each(
            &mut intake,
            args.files.iter().map(|f| sources::file(f)),
        )?);
        if let Some(src) = &imap {
            lines.extend(intake::file_imap(&mut intake, src, false)?);
        }
        lines.extend(intake.skipped());
        if from_settings {
            drop(intake);
            let (read, down) = pbem::turn::read_mail(&archive, game, now, false)?;
            lines.extend(read);
            if let Some(why) = down {
                return Err(pbem::Error::MailboxDown(why));
            }
        }
        Ok(())
    })();
    for l in &lines {
        writeln!(out, "{l}").context("output")?;
    }
    result?;
    if lines.is_empty() {
        writeln!(out, "No new mail.").context("output")?;
    }
    if args.no_send {
        return Ok(());
    }
    // Everything is filed: the game is let go before the mail (see `send_outbox`).
    drop(lock);
    send_outbox(&archive, out)
}

#[derive(Debug, clap::Args)]
pub struct IngestArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// A Maildir to read (its new/ and cur/ messages; it is not changed).
    #[arg(long)]
    pub maildir: Option<PathBuf>,
    /// An mbox file to read.
    #[arg(long)]
    pub mbox: Option<PathBuf>,
    /// An IMAP server to read unseen mail from, as HOST or HOST:PORT (an IPv6 address
    /// as `::1` or `[::1]:993`; without a port, [mail] imap_port, else 993 for tls and
    /// 143 otherwise). The password is read from $JUDGE_IMAP_PASSWORD, or the variable
    /// [mail] imap_password_env names. With no source at all, the mailboxes [mail] names
    /// are read.
    #[arg(long, value_name = "HOST[:PORT]")]
    pub imap: Option<String>,
    /// The IMAP user.
    #[arg(long, requires = "imap")]
    pub user: Option<String>,
    /// `none`, `starttls` or `tls` (default: starttls; tls on port 993).
    #[arg(long, requires = "imap")]
    pub imap_security: Option<String>,
    /// Single mails (.eml files).
    pub files: Vec<PathBuf>,
    /// Queue the answers but do not send them.
    #[arg(long)]
    pub no_send: bool,
    /// File again a refused or held mail (its number in `judge status` and
    /// mail/log.jsonl), once you have fixed what was wrong.
    #[arg(long, value_name = "N", conflicts_with_all = ["maildir", "mbox", "imap", "files"])]
    pub again: Option<usize>,
    #[command(flatten)]
    pub wait: Wait,
}
