//! Where order mail comes from: a Maildir, an mbox file, single `.eml` files, or an IMAP
//! INBOX. Reading a source never changes it (IMAP marks a mail seen only once it is
//! filed, see [`crate::mail::imap`]).

use std::path::{Path, PathBuf};

use super::Error;
use crate::archive::MailSettings;

/// Every message in a Maildir (`new/` and `cur/`), by file name.
pub fn maildir(dir: &Path) -> Result<Vec<Vec<u8>>, Error> {
    let mut files: Vec<PathBuf> = Vec::new();
    for sub in ["new", "cur"] {
        if let Ok(d) = std::fs::read_dir(dir.join(sub)) {
            files.extend(
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.is_file()),
            );
        }
    }
    if files.is_empty() && !dir.join("new").is_dir() {
        return Err(Error::User(format!(
            "{} is not a Maildir (it has no new/ folder)",
            dir.display()
        )));
    }
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read(p).map_err(|e| Error::User(format!("{}: {e}", p.display()))))
        .collect()
}

/// Every message in an mbox file.
pub fn mbox(path: &Path) -> Result<Vec<Vec<u8>>, Error> {
    let f =
        std::fs::File::open(path).map_err(|e| Error::User(format!("{}: {e}", path.display())))?;
    mail_parser::mailbox::mbox::MessageIterator::new(std::io::BufReader::new(f))
        .map(|m| {
            m.map(|m| m.unwrap_contents())
                .map_err(|e| Error::User(format!("{}: {e}", path.display())))
        })
        .collect()
}

/// Single mails, one per file.
pub fn files(paths: &[PathBuf]) -> Result<Vec<Vec<u8>>, Error> {
    paths
        .iter()
        .map(|f| std::fs::read(f).map_err(|e| Error::User(format!("{}: {e}", f.display()))))
        .collect()
}

/// The IMAP source from the command line and game.toml, the password from the
/// environment.
pub fn imap(
    s: &MailSettings,
    host: Option<String>,
    port: Option<u16>,
    user: Option<String>,
    security: Option<String>,
) -> Result<crate::mail::imap::Source, Error> {
    let host = host
        .or_else(|| s.imap_host.clone())
        .ok_or_else(|| Error::User("no IMAP host".into()))?;
    let port = port.or(s.imap_port).unwrap_or(143);
    let user = user.or_else(|| s.imap_user.clone()).ok_or_else(|| {
        Error::User("give the IMAP user: --user NAME, or imap_user in [mail]".into())
    })?;
    let var = s
        .imap_password_env
        .clone()
        .unwrap_or_else(|| "JUDGE_IMAP_PASSWORD".into());
    let password = std::env::var(&var).map_err(|_| {
        Error::User(format!(
            "the IMAP password is read from ${var}, which is not set"
        ))
    })?;
    let security = security
        .or_else(|| s.imap_security.clone())
        .unwrap_or_else(|| {
            if port == 993 {
                "tls".into()
            } else {
                "starttls".into()
            }
        });
    Ok(crate::mail::imap::Source {
        host,
        port,
        user,
        password,
        security,
    })
}
