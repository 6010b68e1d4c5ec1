//! Where order mail comes from: a Maildir, an mbox file, single `.eml` files, or an IMAP
//! INBOX. Mail is read one message at a time, and never more of one than
//! [`MAX_BYTES`] and a byte: a huge or endless file
//! costs no memory. Reading a source never changes it (IMAP marks a mail seen only once
//! it is filed, and never in a dry run, see [`crate::mail::imap`]); the one file the
//! judge writes into a Maildir is the list of the folders that read it, beside `new/`
//! ([`crate::archive::house::READERS_FILE`]).
//!
//! Each mail carries the time it was delivered when the mailbox records one: the time in
//! a Maildir file's name (written by the program that delivered it), the IMAP server's
//! INTERNALDATE, or an mbox `From ` line. See [`crate::pbem::intake::arrival`].

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::error::Error;
use crate::archive::MailSettings;
use crate::mail::inbound::MAX_BYTES;

/// When and how the mailbox says a mail was delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivered {
    pub at: SystemTime,
    /// `maildir`, `imap` or `mbox`.
    pub by: &'static str,
}

/// One mail as read from a source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mail {
    /// The message, cut after `MAX_BYTES + 1` bytes.
    pub raw: Vec<u8>,
    /// Where it came from, for the GM: a file name, `IMAP uid 7`.
    pub label: String,
    pub delivered: Option<Delivered>,
}

/// Read at most `MAX_BYTES + 1` bytes of a file.
fn read_capped(path: &Path) -> Result<Vec<u8>, Error> {
    let f =
        std::fs::File::open(path).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    let mut raw = Vec::new();
    f.take(MAX_BYTES as u64 + 1)
        .read_to_end(&mut raw)
        .map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    Ok(raw)
}

fn secs(s: u64) -> Option<SystemTime> {
    UNIX_EPOCH.checked_add(Duration::from_secs(s))
}

/// A Maildir file's delivery time: the seconds its name starts with (`1764558152.M…`),
/// else the file's modification time.
pub fn maildir_delivered(path: &Path) -> Option<Delivered> {
    let name = path.file_name()?.to_str()?;
    let digits: String = name.chars().take_while(char::is_ascii_digit).collect();
    let at = (name[digits.len()..].starts_with('.') && !digits.is_empty())
        .then(|| digits.parse().ok().and_then(secs))
        .flatten()
        .or_else(|| std::fs::metadata(path).ok()?.modified().ok())?;
    Some(Delivered { at, by: "maildir" })
}

/// How Maildir names sort: the delivery second they start with, then the rest of the
/// name with its numbers compared as numbers (`1764558152.M999P7` before
/// `1764558152.M1000P7`: the microsecond, then the delivering process and its count),
/// and last the name as it is. Mails delivered in the same second are thus filed in the
/// order the server wrote them (docs/archive.md, "Which mail counts").
fn maildir_order(name: &str) -> Vec<(u8, String)> {
    let mut key = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        let (part, kind) = if digits > 0 {
            let n = rest[..digits].trim_start_matches('0');
            // A number sorts by its length first, then its digits: as a number would.
            (format!("{:020}{n}", n.len()), 0)
        } else {
            let other = rest
                .char_indices()
                .find(|(_, c)| c.is_ascii_digit())
                .map_or(rest.len(), |(i, _)| i);
            (rest[..other].to_string(), 1)
        };
        let len = if digits > 0 { digits } else { part.len() };
        key.push((kind, part));
        rest = &rest[len..];
    }
    key
}

/// The messages of a Maildir (`new/` and `cur/`), oldest first (`maildir_order`):
/// their paths only, read one at a time by [`maildir_mail`].
pub fn maildir(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    if !dir.join("new").is_dir() {
        return Err(Error::input(format!(
            "{} is not a Maildir (it has no new/ folder)",
            dir.display()
        )));
    }
    let mut files: Vec<PathBuf> = Vec::new();
    for sub in ["new", "cur"] {
        if let Ok(d) = std::fs::read_dir(dir.join(sub)) {
            files.extend(
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.is_file()),
            );
        }
    }
    files.sort_by_cached_key(|p| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        (maildir_order(&name), name, p.clone())
    });
    Ok(files)
}

/// One message of a Maildir.
pub fn maildir_mail(path: &Path) -> Result<Mail, Error> {
    Ok(Mail {
        raw: read_capped(path)?,
        label: path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        delivered: maildir_delivered(path),
    })
}

/// A single mail file (`.eml`): no delivery time but what its headers say.
pub fn file(path: &Path) -> Result<Mail, Error> {
    Ok(Mail {
        raw: read_capped(path)?,
        label: path.display().to_string(),
        delivered: None,
    })
}

/// The time on an mbox `From ` line (`From ann@example.org Tue Dec  1 03:02:32 2026`).
fn mbox_time(line: &str) -> Option<SystemTime> {
    let words: Vec<&str> = line.split_whitespace().collect();
    // From SENDER Www Mmm D HH:MM:SS YYYY
    let [_, _, _, month, day, clock, year, ..] = words.as_slice() else {
        return None;
    };
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let m = MONTHS.iter().position(|x| x.eq_ignore_ascii_case(month))? + 1;
    let text = format!("{year}-{m:02}-{:02}T{clock}Z", day.parse::<u32>().ok()?);
    humantime::parse_rfc3339(&text).ok()
}

/// Every message of an mbox file, one at a time, each cut at `MAX_BYTES + 1` bytes.
pub fn mbox(path: &Path, mut each: impl FnMut(Mail) -> Result<(), Error>) -> Result<(), Error> {
    let f =
        std::fs::File::open(path).map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    let mut reader = BufReader::new(f);
    let mut current: Option<Mail> = None;
    let mut n = 0;
    let mut line = Vec::new();
    loop {
        line.clear();
        // A line is read whole only up to the size limit; the rest of it is skipped.
        let got = (&mut reader)
            .take(MAX_BYTES as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
        if got == 0 {
            break;
        }
        if !line.ends_with(b"\n") && got > MAX_BYTES {
            let mut skip = Vec::new();
            while reader
                .by_ref()
                .take(64 * 1024)
                .read_until(b'\n', &mut skip)
                .map_err(|e| Error::input(format!("{}: {e}", path.display())))?
                > 0
                && !skip.ends_with(b"\n")
            {
                skip.clear();
            }
        }
        if line.starts_with(b"From ") {
            if let Some(m) = current.take() {
                each(m)?;
            }
            n += 1;
            let text = String::from_utf8_lossy(&line);
            current = Some(Mail {
                raw: Vec::new(),
                label: format!("{} message {n}", path.display()),
                delivered: mbox_time(&text).map(|at| Delivered { at, by: "mbox" }),
            });
            continue;
        }
        let m = current.get_or_insert_with(|| Mail {
            raw: Vec::new(),
            label: format!("{} message 1", path.display()),
            delivered: None,
        });
        if m.raw.len() <= MAX_BYTES {
            // `>From ` at a line's start is an escaped `From `.
            let body = if line.starts_with(b">From ") {
                &line[1..]
            } else {
                &line[..]
            };
            let room = MAX_BYTES + 1 - m.raw.len();
            m.raw.extend_from_slice(&body[..body.len().min(room)]);
        }
    }
    if let Some(m) = current {
        each(m)?;
    }
    Ok(())
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
        .ok_or_else(|| Error::input("no IMAP host"))?;
    let user = user
        .or_else(|| s.imap_user.clone())
        .ok_or_else(|| Error::input("give the IMAP user: --user NAME, or imap_user in [mail]"))?;
    let var = s
        .imap_password_env
        .clone()
        .unwrap_or_else(|| "JUDGE_IMAP_PASSWORD".into());
    let password = std::env::var(&var).map_err(|_| {
        Error::input(format!(
            "the IMAP password is read from ${var}, which is not set"
        ))
    })?;
    // The port follows the security, and the security the port.
    let (port, security) = crate::mail::net::imap_defaults(
        port.or(s.imap_port),
        security.or_else(|| s.imap_security.clone()).as_deref(),
    );
    let timeout = s.imap_timeout().map_err(|e| Error::input(e.to_string()))?;
    Ok(crate::mail::imap::Source {
        host,
        port,
        user,
        password,
        security,
        timeout,
        allow_plain_password: s.allow_plain_password.unwrap_or(false),
    })
}

/// The SHA-256 of a mail's bytes, in hex: how a mail read again is known.
pub(crate) fn digest(raw: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(raw)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delivery_times_are_read_from_the_mailbox() {
        let at = |t: SystemTime| humantime::format_rfc3339_seconds(t).to_string();
        let d = maildir_delivered(Path::new("/x/new/1764558152.M1P2Q3.host:2,S"))
            .expect("time in the name");
        assert_eq!(at(d.at), "2025-12-01T03:02:32Z");
        assert_eq!(
            mbox_time("From ann@example.org Tue Dec  1 03:02:32 2026").map(at),
            Some("2026-12-01T03:02:32Z".to_string())
        );
        assert_eq!(mbox_time("From nobody"), None);
    }

    /// Two mails delivered in the same second are filed in the order
    /// the server delivered them (its microsecond and count), not by their names as
    /// text (`M1000` before `M999`), and `new/` and `cur/` mix by time.
    #[test]
    fn same_second_mails_are_filed_in_delivery_order() {
        let tmp = tempfile::tempdir().expect("tmp");
        for (sub, name) in [
            ("new", "1764558152.M1000P7.host"),
            ("cur", "1764558152.M999P7.host:2,S"),
            ("new", "1764558151.M5P7.host"),
            ("cur", "1764558153.M1P7.host:2,S"),
            ("new", "1764558152.M1000P7Q2.host"),
        ] {
            std::fs::create_dir_all(tmp.path().join(sub)).expect("mkdir");
            std::fs::write(tmp.path().join(sub).join(name), "From: a@x\n\nx\n").expect("write");
        }
        let names: Vec<String> = maildir(tmp.path())
            .expect("maildir")
            .iter()
            .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "1764558151.M5P7.host",
                "1764558152.M999P7.host:2,S",
                "1764558152.M1000P7.host",
                "1764558152.M1000P7Q2.host",
                "1764558153.M1P7.host:2,S",
            ]
        );
    }

    #[test]
    fn an_mbox_is_read_a_mail_at_a_time_and_huge_ones_are_cut() {
        let tmp = tempfile::tempdir().expect("tmp");
        let path = tmp.path().join("mbox");
        let mut text = b"From a@x Tue Dec  1 03:02:32 2026\nFrom: a@x\n\n>From here\nhi\n".to_vec();
        text.extend_from_slice(b"From b@x Tue Dec  1 04:00:00 2026\nFrom: b@x\n\n");
        text.extend(std::iter::repeat_n(b'z', MAX_BYTES * 2));
        text.extend_from_slice(b"\nFrom c@x Tue Dec  1 05:00:00 2026\nFrom: c@x\n\nbye\n");
        std::fs::write(&path, text).expect("write");
        let mut got = Vec::new();
        mbox(&path, |m| {
            got.push(m);
            Ok(())
        })
        .expect("read");
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].raw, b"From: a@x\n\nFrom here\nhi\n");
        assert!(got[1].raw.len() == MAX_BYTES + 1, "cut at the limit");
        assert_eq!(got[2].raw, b"From: c@x\n\nbye\n");
        assert_eq!(got[2].delivered.map(|d| d.by), Some("mbox"));
    }
}
