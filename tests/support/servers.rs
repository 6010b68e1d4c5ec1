//! Real mail servers on 127.0.0.1 for the tests: aiosmtpd (SMTP, delivering into a
//! Maildir) and dovecot (IMAP over the same Maildir), started by tests/mail/servers.sh,
//! which `.ci/run` installs.

use std::path::PathBuf;
use std::process::Command;

use lettre::{Message, SmtpTransport, Transport};

/// Real servers for one test; stopped when dropped.
pub struct Servers {
    dir: tempfile::TempDir,
    pub smtp: u16,
    pub imap: u16,
}

impl Servers {
    pub fn start() -> Servers {
        let dir = tempfile::Builder::new()
            .prefix("judge-mail-")
            .tempdir_in("/tmp")
            .expect("tmp");
        let out = Command::new("bash")
            .args(["tests/mail/servers.sh", "start"])
            .arg(dir.path())
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "the mail servers did not start (run `bash tests/mail/servers.sh install` as root, or `bash .ci/run`):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let port = |name: &str| -> u16 {
            text.lines()
                .find_map(|l| {
                    l.strip_prefix(&format!("{name}="))
                        .and_then(|p| p.trim().parse().ok())
                })
                .expect("port")
        };
        Servers {
            smtp: port("SMTP_PORT"),
            imap: port("IMAP_PORT"),
            dir,
        }
    }

    /// Stop both servers and start them again on the same ports, with the mail they
    /// hold (a mail server's restart, as a client sees it).
    pub fn restart(&self) {
        let out = Command::new("bash")
            .args(["tests/mail/servers.sh", "stop"])
            .arg(self.dir.path())
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = Command::new("bash")
            .args(["tests/mail/servers.sh", "start"])
            .arg(self.dir.path())
            .env("SMTP_PORT", self.smtp.to_string())
            .env("IMAP_PORT", self.imap.to_string())
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "the servers did not start again: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    pub fn maildir(&self) -> PathBuf {
        self.dir.path().join("Maildir")
    }

    /// Every message delivered so far, parsed: (To, Subject, body text, attachment count, In-Reply-To).
    pub fn delivered(&self) -> Vec<(String, String, String, usize, String)> {
        let mut out = Vec::new();
        {
            for (_, raw) in self.delivered_raw() {
                let m = mail_parser::MessageParser::default()
                    .parse(&raw)
                    .expect("a real RFC 5322 message");
                let to = m
                    .to()
                    .and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .unwrap_or("")
                    .to_string();
                let irt = m.in_reply_to().as_text().unwrap_or("").to_string();
                out.push((
                    to,
                    m.subject().unwrap_or("").to_string(),
                    m.body_text(0).unwrap_or_default().into_owned(),
                    m.attachment_count(),
                    irt,
                ));
            }
        }
        out.sort();
        out
    }

    /// The mails delivered to `who`: (subject, body text).
    pub fn mails_to(&self, who: &str) -> Vec<(String, String)> {
        self.delivered()
            .into_iter()
            .filter(|m| m.0 == who)
            .map(|m| (m.1, m.2))
            .collect()
    }

    /// A player sends a mail to the judge through the server.
    pub fn send(&self, from: &str, subject: &str, body: &str) {
        let m = Message::builder()
            .from(from.parse().expect("from"))
            .to("Judge <judge@example.org>".parse().expect("to"))
            .subject(subject)
            .body(body.to_string())
            .expect("message");
        SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.smtp)
            .build()
            .send(&m)
            .expect("sent through the server");
    }
}

impl Drop for Servers {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .args(["tests/mail/servers.sh", "stop"])
            .arg(self.dir.path())
            .output();
    }
}

impl Servers {
    /// Every message delivered so far, as delivered (file name, bytes), by name.
    /// A mail the IMAP server marks seen moves from new/ to cur/ (its name gains `:2,S`)
    /// while this reads: each is taken once, by its name without the flags, and a
    /// listing that loses a file on the way is read again.
    pub fn delivered_raw(&self) -> Vec<(String, Vec<u8>)> {
        'again: loop {
            let mut out: std::collections::BTreeMap<String, Vec<u8>> = Default::default();
            for sub in ["new", "cur"] {
                let Ok(d) = std::fs::read_dir(self.maildir().join(sub)) else {
                    continue;
                };
                for e in d.flatten() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let base = name.split(":2,").next().unwrap_or(&name).to_string();
                    match std::fs::read(e.path()) {
                        Ok(raw) => {
                            out.entry(base).or_insert(raw);
                        }
                        Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue 'again,
                        Err(err) => panic!("read {name}: {err}"),
                    }
                }
            }
            return out.into_iter().collect();
        }
    }

    /// A player mails the judge at `at` (RFC 3339): the server delivers it, and the
    /// Maildir file is renamed for that time of delivery, as a delivery agent names it
    /// (so a test's injected clock, `JUDGE_NOW`, and the mail's arrival agree).
    pub fn send_at(&self, from: &str, subject: &str, body: &str, at: &str) {
        let before: Vec<String> = self.delivered_raw().into_iter().map(|m| m.0).collect();
        self.send(from, subject, body);
        let fresh: Vec<String> = self
            .delivered_raw()
            .into_iter()
            .map(|m| m.0)
            .filter(|n| !before.contains(n))
            .collect();
        assert_eq!(fresh.len(), 1, "one mail delivered");
        let secs = humantime::parse_rfc3339(at)
            .expect("an RFC 3339 time")
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs();
        let new = self.maildir().join("new");
        let name = &fresh[0];
        let rest = name.split_once('.').map_or(name.as_str(), |(_, r)| r);
        std::fs::rename(new.join(name), new.join(format!("{secs}.{rest}"))).expect("rename");
    }

    /// Mails delivered to `to`: (subject, body text, attachment count).
    pub fn sent_to(&self, to: &str) -> Vec<(String, String, usize)> {
        self.delivered()
            .into_iter()
            .filter(|m| m.0 == to)
            .map(|m| (m.1, m.2, m.3))
            .collect()
    }

    /// Send a message exactly as given (any MIME a mail program makes) through the server.
    pub fn send_raw(&self, from: &str, raw: &[u8]) {
        let envelope = lettre::address::Envelope::new(
            Some(from.parse().expect("from")),
            vec!["judge@example.org".parse().expect("to")],
        )
        .expect("envelope");
        SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.smtp)
            .build()
            .send_raw(&envelope, raw)
            .expect("sent through the server");
    }

    /// The `[mail]` section of a game that sends through this server and reads its
    /// Maildir.
    pub fn mail_toml(&self) -> String {
        format!(
            "\n[mail]\nfrom = \"Judge <judge@example.org>\"\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {}\nsmtp_security = \"none\"\nmaildir = \"{}\"\n",
            self.smtp,
            self.maildir().display()
        )
    }
}

/// Real servers with TLS and logins for one test (tests/mail/servers.sh start-tls): a
/// test CA made for them (`ca`), dovecot with STARTTLS on `imap` and implicit TLS on
/// `imaps` (user judge, password judge-pass), aiosmtpd with STARTTLS on `smtp` and
/// implicit TLS on `smtps` (user judge, password judge-smtp-pass), every mail into one
/// Maildir. Stopped when dropped.
pub struct TlsServers {
    dir: tempfile::TempDir,
    pub smtp: u16,
    pub imap: u16,
    pub smtps: u16,
    pub imaps: u16,
    pub ca: PathBuf,
}

impl TlsServers {
    pub fn start() -> TlsServers {
        let dir = tempfile::Builder::new()
            .prefix("judge-tls-")
            .tempdir_in("/tmp")
            .expect("tmp");
        let out = Command::new("bash")
            .args(["tests/mail/servers.sh", "start-tls"])
            .arg(dir.path())
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "the TLS mail servers did not start (run `bash tests/mail/servers.sh install` as root, or `bash .ci/run`):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let value = |name: &str| -> String {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("{name}=")).map(str::to_string))
                .expect("a value")
        };
        let port = |name: &str| value(name).trim().parse::<u16>().expect("a port");
        TlsServers {
            smtp: port("SMTP_PORT"),
            imap: port("IMAP_PORT"),
            smtps: port("SMTPS_PORT"),
            imaps: port("IMAPS_PORT"),
            ca: PathBuf::from(value("CA_FILE")),
            dir,
        }
    }

    /// A mail delivered into the INBOX as a delivery agent does (a file in new/).
    pub fn deliver(&self, name: &str, raw: &str) {
        let new = self.dir.path().join("Maildir/new");
        let tmp = self.dir.path().join("Maildir/tmp").join(name);
        std::fs::write(&tmp, raw.replace('\n', "\r\n")).expect("write");
        std::fs::rename(&tmp, new.join(name)).expect("deliver");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ =
                std::fs::set_permissions(new.join(name), std::fs::Permissions::from_mode(0o666));
        }
    }

    /// How many mails the SMTP servers have delivered (those with aiosmtpd's
    /// X-MailFrom header), in new/ and cur/.
    pub fn sent_count(&self) -> usize {
        ["new", "cur"]
            .iter()
            .flat_map(|sub| {
                std::fs::read_dir(self.dir.path().join("Maildir").join(sub))
                    .into_iter()
                    .flatten()
                    .flatten()
            })
            .filter(|e| {
                std::fs::read(e.path())
                    .map(|b| String::from_utf8_lossy(&b).contains("X-MailFrom:"))
                    .unwrap_or(false)
            })
            .count()
    }
}

impl Drop for TlsServers {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .args(["tests/mail/servers.sh", "stop"])
            .arg(self.dir.path())
            .output();
    }
}
