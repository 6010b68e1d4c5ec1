//! Mail out over SMTP: one conversation with the server for a whole run, every step of
//! it within a time limit. Each failure is told apart by where it happened, for what it
//! means to the mail:
//!
//! - the server cannot be talked to (not reached, no answer in time, TLS or the login
//!   refused, the judge's own address refused): nothing more is tried this run, and the
//!   mail waits for the next ([`Failed::Server`]);
//! - the server will not take this mail now (a 4xx answer): it waits ([`Failed::Later`]);
//! - the server refuses this mail for good (a 5xx answer to its recipient or to its
//!   content): it is given up, and the GM told ([`Failed::Refused`]).

use std::time::{Duration, Instant};

use lettre::Address;
use lettre::transport::smtp::Error as SmtpError;
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Quit, Rcpt, Rset};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};

use crate::archive::MailSettings;

/// Why a mail was not sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Failed {
    /// The server, not the mail: nothing more is tried this run; the mail waits.
    #[error("{0}")]
    Server(String),
    /// This mail, for now (a 4xx answer): it waits for the next run.
    #[error("{0}")]
    Later(String),
    /// This mail, for good (a 5xx answer to its recipient or its content).
    #[error("{0}")]
    Refused(String),
}

/// Why no conversation with the SMTP server could be opened: nothing is sent this run,
/// and the mail waits for the next.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("no smtp_host and no pickup folder in [mail]")]
    NoHost,
    #[error("smtp_security `{0}`: use none, starttls or tls")]
    Security(String),
    #[error("the SMTP password is read from ${var}, which is not set")]
    NoPassword { var: String },
    /// TLS could not be set up for the host.
    #[error("{0}")]
    Tls(SmtpError),
    /// The connection's time limit could not be set.
    #[error("{0}")]
    Timeout(std::io::Error),
    /// The server, once talked to: not reached, no answer in time, dropped (the words
    /// of `talk` or `out_of_time`): it may work later.
    #[error("{0}")]
    Server(String),
    /// The settings or the trust, found talking to the server: the login refused, a
    /// certificate not trusted, TLS asked of a plain port, a password that would go in
    /// clear. The GM's to fix (exit 1), said with the fix.
    #[error("{0}")]
    Settings(String),
}

impl ConnectError {
    /// Is this the GM's to put right (not the server's to come back)?
    pub fn is_settings(&self) -> bool {
        !matches!(self, ConnectError::Server(_) | ConnectError::Timeout(_))
    }
}

/// A failure of TLS the settings or the trust must fix, with the fix.
fn tls_settings(server: &str, implicit: bool, e: &SmtpError) -> Option<String> {
    let r = super::net::find_rustls(e)?;
    super::net::tls_failure(r, "SMTP", server, "smtp_security", implicit, 465)
}

/// An open conversation with the SMTP server.
pub struct Session {
    conn: SmtpConnection,
    server: String,
    /// Every step must be done by then.
    pub deadline: Instant,
    /// The time allowed, for messages.
    limit: Duration,
    /// The conversation cannot go on (a step failed half-way): open a new one.
    pub broken: bool,
}

/// Was this the network's time limit running out? (A read that times out is
/// `WouldBlock` on Linux, `TimedOut` elsewhere.)
fn timed_out(e: &SmtpError) -> bool {
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            return matches!(
                io.kind(),
                std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
            );
        }
        source = s.source();
    }
    false
}

fn left(deadline: Instant) -> Option<Duration> {
    deadline
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
}

/// What went wrong talking to the server, for the GM.
fn talk(server: &str, limit: Duration, doing: &str, e: &SmtpError) -> String {
    if timed_out(e) {
        format!(
            "the SMTP server at {server} did not answer within {} ({doing})",
            humantime::format_duration(limit)
        )
    } else {
        format!("the SMTP server at {server}, {doing}: {e}")
    }
}

fn out_of_time(server: &str, limit: Duration) -> String {
    format!(
        "the time for sending, {}, ran out before the SMTP server at {server} was done",
        humantime::format_duration(limit)
    )
}

/// Open a conversation with the server `mail` names: connected, encrypted as it says,
/// logged in, by `deadline` (`limit` from when the sending began).
pub fn connect(
    s: &MailSettings,
    deadline: Instant,
    limit: Duration,
) -> Result<Session, ConnectError> {
    let host = s.smtp_host.clone().ok_or(ConnectError::NoHost)?;
    // The port follows the security, and the security the port.
    let (port, security) = super::net::smtp_defaults(s.smtp_port, s.smtp_security.as_deref());
    let server = if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    };
    let bare = super::net::bare_host(&host).to_string();
    let tls = || TlsParameters::new(bare.clone()).map_err(ConnectError::Tls);
    let wrapper = match security.as_str() {
        "tls" => Some(tls()?),
        "none" | "starttls" => None,
        other => {
            return Err(ConnectError::Security(other.to_string()));
        }
    };
    let credentials = match &s.smtp_user {
        Some(user) => {
            let var = s
                .smtp_password_env
                .clone()
                .unwrap_or_else(|| "JUDGE_SMTP_PASSWORD".into());
            let pass =
                std::env::var(&var).map_err(|_| ConnectError::NoPassword { var: var.clone() })?;
            if let Some(why) = super::net::plain_password_refused(
                "smtp_security",
                &security,
                &host,
                port,
                s.allow_plain_password.unwrap_or(false),
            ) {
                return Err(ConnectError::Settings(why));
            }
            Some(Credentials::new(user.clone(), pass))
        }
        None => None,
    };
    let time = || left(deadline).ok_or_else(|| ConnectError::Server(out_of_time(&server, limit)));
    let hello = ClientId::default();
    let implicit = security == "tls";
    let mut conn = SmtpConnection::connect(
        (bare.as_str(), port),
        Some(time()?),
        &hello,
        wrapper.as_ref(),
        None,
    )
    .map_err(|e| match tls_settings(&server, implicit, &e) {
        Some(why) => ConnectError::Settings(why),
        None if !implicit && port == 465 && timed_out(&e) => ConnectError::Server(format!(
            "{} (port 465 starts with TLS: set smtp_security = \"tls\")",
            talk(&server, limit, "connecting", &e)
        )),
        None => ConnectError::Server(talk(&server, limit, "connecting", &e)),
    })?;
    if security == "starttls" {
        conn.set_timeout(Some(time()?))
            .map_err(ConnectError::Timeout)?;
        conn.starttls(&tls()?, &hello)
            .map_err(|e| match tls_settings(&server, false, &e) {
                Some(why) => ConnectError::Settings(why),
                None => ConnectError::Server(talk(&server, limit, "starting TLS", &e)),
            })?;
    }
    if let Some(c) = credentials {
        conn.set_timeout(Some(time()?))
            .map_err(ConnectError::Timeout)?;
        conn.auth(DEFAULT_MECHANISMS, &c).map_err(|e| {
            if e.is_permanent() {
                ConnectError::Settings(format!(
                    "the SMTP server at {server} refused the login as {}: {e}; check smtp_user and the password in ${} (docs/gm-guide.md)",
                    c_user(s),
                    s.smtp_password_env.as_deref().unwrap_or("JUDGE_SMTP_PASSWORD")
                ))
            } else {
                ConnectError::Server(talk(&server, limit, "logging in", &e))
            }
        })?;
    }
    Ok(Session {
        conn,
        server,
        deadline,
        limit,
        broken: false,
    })
}

fn c_user(s: &MailSettings) -> &str {
    s.smtp_user.as_deref().unwrap_or("")
}

impl Session {
    /// Time every step of the next command by what is left.
    fn arm(&mut self) -> Result<(), Failed> {
        let time = left(self.deadline).ok_or_else(|| {
            self.broken = true;
            Failed::Server(out_of_time(&self.server, self.limit))
        })?;
        self.conn.set_timeout(Some(time)).map_err(|e| {
            self.broken = true;
            Failed::Server(format!("the SMTP server at {}: {e}", self.server))
        })
    }

    /// A step of one mail failed: what that means for the mail, and for the session.
    fn failed(&mut self, doing: &str, e: SmtpError) -> Failed {
        if e.is_permanent() || e.is_transient() {
            // The server answered: the conversation goes on from a clean state.
            if self.arm().is_err() || self.conn.command(Rset).is_err() {
                self.broken = true;
            }
            if e.is_permanent() {
                Failed::Refused(e.to_string())
            } else {
                Failed::Later(e.to_string())
            }
        } else {
            self.broken = true;
            Failed::Server(talk(&self.server, self.limit, doing, &e))
        }
    }

    /// Hand one mail to the server.
    pub fn send(&mut self, from: &Address, to: &Address, raw: &[u8]) -> Result<(), Failed> {
        self.arm()?;
        let info = self.conn.server_info();
        let mut params = Vec::new();
        if !AsRef::<str>::as_ref(from).is_ascii() || !AsRef::<str>::as_ref(to).is_ascii() {
            if !info.supports_feature(Extension::SmtpUtfEight) {
                return Err(Failed::Refused(format!(
                    "the SMTP server at {} takes no addresses outside ASCII (SMTPUTF8)",
                    self.server
                )));
            }
            params.push(MailParameter::SmtpUtfEight);
        }
        if !raw.is_ascii() {
            if !info.supports_feature(Extension::EightBitMime) {
                return Err(Failed::Refused(format!(
                    "the SMTP server at {} takes no 8-bit mail (8BITMIME)",
                    self.server
                )));
            }
            params.push(MailParameter::Body(MailBodyParameter::EightBitMime));
        }
        // The judge's own address refused is the server's rule for every mail, not this
        // mail's fault: nothing more is tried, and the mail waits.
        if let Err(e) = self.conn.command(Mail::new(Some(from.clone()), params)) {
            return Err(match self.failed("taking the judge's address", e) {
                Failed::Refused(why) | Failed::Later(why) => Failed::Server(format!(
                    "the SMTP server at {} does not take mail from {from}: {why}",
                    self.server
                )),
                server => server,
            });
        }
        self.arm()?;
        if let Err(e) = self.conn.command(Rcpt::new(to.clone(), Vec::new())) {
            return Err(self.failed("taking the recipient", e));
        }
        self.arm()?;
        if let Err(e) = self.conn.command(Data) {
            return Err(self.failed("taking the mail", e));
        }
        self.arm()?;
        if let Err(e) = self.conn.message(raw) {
            return Err(self.failed("taking the mail", e));
        }
        Ok(())
    }

    /// Say goodbye (briefly: whatever the server says, the run is over).
    pub fn quit(mut self) {
        if !self.broken && self.arm().is_ok() {
            let _ = self.conn.command(Quit);
        }
        self.conn.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Settings that open no conversation are told in the same words as
    /// before, and nothing is dialled.
    #[test]
    fn settings_that_cannot_connect_are_told_as_before() {
        let limit = Duration::from_secs(1);
        let said = |s: &MailSettings| {
            connect(s, Instant::now() + limit, limit)
                .err()
                .map(|e| e.to_string())
        };
        let mut s = MailSettings::default();
        assert_eq!(
            said(&s).as_deref(),
            Some("no smtp_host and no pickup folder in [mail]")
        );
        s.smtp_host = Some("mail.example.org".into());
        s.smtp_security = Some("ssl".into());
        assert_eq!(
            said(&s).as_deref(),
            Some("smtp_security `ssl`: use none, starttls or tls")
        );
        s.smtp_security = Some("none".into());
        s.smtp_user = Some("judge".into());
        s.smtp_password_env = Some("JUDGE_TEST_NEVER_SET_22".into());
        assert_eq!(
            said(&s).as_deref(),
            Some("the SMTP password is read from $JUDGE_TEST_NEVER_SET_22, which is not set")
        );
    }
}
