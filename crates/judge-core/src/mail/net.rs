//! What SMTP and IMAP share about reaching a server: the port and security a setting
//! leaves out, host names and IPv6 literals, the one list of certificates trusted (the
//! system's, read by `rustls-native-certs`, which honours `SSL_CERT_FILE`), TLS failures
//! told with their fix, and the rule that a password goes over plain text only to this
//! machine.

use std::net::ToSocketAddrs;
use std::sync::Arc;

/// The port and security of an IMAP server from what the settings say: `tls` is port
/// 993, `starttls` and `none` 143; with no security, port 993 is `tls` and every other
/// `starttls`.
pub fn imap_defaults(port: Option<u16>, security: Option<&str>) -> (u16, String) {
    defaults(port, security, 993, 143)
}

/// The port and security of an SMTP server: `tls` is port 465, `starttls` and `none`
/// 25; with no security, port 465 is `tls` and every other `starttls`.
pub fn smtp_defaults(port: Option<u16>, security: Option<&str>) -> (u16, String) {
    defaults(port, security, 465, 25)
}

fn defaults(port: Option<u16>, security: Option<&str>, tls: u16, plain: u16) -> (u16, String) {
    match (port, security) {
        (Some(p), Some(s)) => (p, s.to_string()),
        (None, Some("tls")) => (tls, "tls".into()),
        (None, Some(s)) => (plain, s.to_string()),
        (Some(p), None) if p == tls => (p, "tls".into()),
        (Some(p), None) => (p, "starttls".into()),
        (None, None) => (plain, "starttls".into()),
    }
}

/// A host as written in a setting or on the command line, ready to connect to: an IPv6
/// literal may come in brackets (`[::1]`), as in a URL.
pub fn bare_host(host: &str) -> &str {
    host.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host)
}

/// Why a `HOST[:PORT]` does not name a server.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HostError {
    #[error("{0}: an IPv6 address in brackets needs its `]`")]
    Unclosed(String),
    #[error("{0}: the port is not a number from 1 to 65535")]
    Port(String),
    #[error("{0}: the host is missing")]
    NoHost(String),
    #[error("the host is missing")]
    Empty,
}

/// `HOST`, `HOST:PORT`, `[IPV6]`, `[IPV6]:PORT` or a bare IPv6 literal (`::1`, taken
/// whole: its colons are not a port's).
pub fn host_and_port(spec: &str) -> Result<(String, Option<u16>), HostError> {
    let bad_port = || HostError::Port(spec.to_string());
    if let Some(rest) = spec.strip_prefix('[') {
        let Some((host, after)) = rest.split_once(']') else {
            return Err(HostError::Unclosed(spec.to_string()));
        };
        return match after {
            "" => Ok((host.to_string(), None)),
            _ => match after.strip_prefix(':').map(str::parse::<u16>) {
                Some(Ok(p)) if p > 0 => Ok((host.to_string(), Some(p))),
                _ => Err(bad_port()),
            },
        };
    }
    if spec.matches(':').count() > 1 {
        return Ok((spec.to_string(), None));
    }
    match spec.split_once(':') {
        Some((host, port)) => match port.parse::<u16>() {
            Ok(p) if p > 0 && !host.is_empty() => Ok((host.to_string(), Some(p))),
            _ if host.is_empty() => Err(HostError::NoHost(spec.to_string())),
            _ => Err(bad_port()),
        },
        None if spec.is_empty() => Err(HostError::Empty),
        None => Ok((spec.to_string(), None)),
    }
}

/// Is every address the host names this machine's own (`localhost`, `127.0.0.1`,
/// `::1`)? A name that does not resolve is not.
pub fn is_loopback(host: &str, port: u16) -> bool {
    match (bare_host(host), port).to_socket_addrs() {
        Ok(addrs) => {
            let addrs: Vec<_> = addrs.collect();
            !addrs.is_empty() && addrs.iter().all(|a| a.ip().is_loopback())
        }
        Err(_) => false,
    }
}

/// Why a password may not go to `host` as it is set: over plain text, to another
/// machine, without `allow_plain_password = true` (point 16). `key` is the security
/// setting (`smtp_security` or `imap_security`).
pub fn plain_password_refused(
    key: &str,
    security: &str,
    host: &str,
    port: u16,
    allowed: bool,
) -> Option<String> {
    if security != "none" || allowed || is_loopback(host, port) {
        return None;
    }
    Some(format!(
        "[mail] {key} = \"none\" would send the password in clear over the network to {host}:{port}: use {key} = \"starttls\" or \"tls\" (docs/gm-guide.md), or, if the network to that host is private, set allow_plain_password = true in [mail]"
    ))
}

/// The certificates the judge trusts, for SMTP and IMAP alike: the system's list
/// (`/etc/ssl/certs`, what `update-ca-certificates` makes), or the file `SSL_CERT_FILE`
/// names.
pub fn root_store() -> rustls::RootCertStore {
    let mut roots = rustls::RootCertStore::empty();
    let found = rustls_native_certs::load_native_certs();
    roots.add_parsable_certificates(found.certs);
    roots
}

/// TLS could not be set up (no protocol version the crypto provider supports).
#[derive(Debug, thiserror::Error)]
#[error("setting up TLS: {0}")]
pub struct TlsSetupError(#[from] rustls::Error);

/// A TLS client set up with [`root_store`].
pub fn tls_config() -> Result<Arc<rustls::ClientConfig>, TlsSetupError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(root_store())
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// What to do about a certificate the judge does not trust.
pub const TRUST_FIX: &str = "the judge trusts the system's list of certificate authorities: add the server's CA to it (on Debian and Ubuntu: copy it, as a .crt file, into /usr/local/share/ca-certificates/ and run update-ca-certificates), or point the environment variable SSL_CERT_FILE at a file holding it";

/// The rustls error somewhere in an error's chain (an I/O error may carry one).
pub fn find_rustls<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    let mut at: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = at {
        if let Some(r) = err.downcast_ref::<rustls::Error>() {
            return Some(r);
        }
        if let Some(io) = err.downcast_ref::<std::io::Error>()
            && let Some(inner) = io.get_ref()
            && let Some(r) = inner.downcast_ref::<rustls::Error>()
        {
            return Some(r);
        }
        at = err.source();
    }
    None
}

/// A TLS failure for the GM, with its fix: `Some` when it is the settings' (or the
/// trust's) to put right, not the server's to come back. `what` is `SMTP` or `IMAP`,
/// `key` the security setting, `tls_port` the port that speaks TLS at once.
pub fn tls_failure(
    e: &rustls::Error,
    what: &str,
    server: &str,
    key: &str,
    implicit: bool,
    tls_port: u16,
) -> Option<String> {
    match e {
        rustls::Error::InvalidCertificate(why) => Some(format!(
            "the {what} server at {server} sent a certificate the judge does not trust ({why:?}): {TRUST_FIX}"
        )),
        rustls::Error::InvalidMessage(_) if implicit => Some(format!(
            "the {what} server at {server} does not speak TLS at once (it answered in plain text): with {key} = \"tls\" the port must be one that starts with TLS ({tls_port}); for this port use {key} = \"starttls\""
        )),
        rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. } => {
            Some(format!(
                "the {what} server at {server} did not answer STARTTLS with TLS ({e}): check {key} and the port"
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The port follows the security, and the security the port.
    #[test]
    fn ports_and_security_fill_each_other_in() {
        let imap = |p, s| imap_defaults(p, s);
        assert_eq!(imap(None, Some("tls")), (993, "tls".into()));
        assert_eq!(imap(None, Some("starttls")), (143, "starttls".into()));
        assert_eq!(imap(None, Some("none")), (143, "none".into()));
        assert_eq!(imap(Some(993), None), (993, "tls".into()));
        assert_eq!(imap(Some(1143), None), (1143, "starttls".into()));
        assert_eq!(imap(None, None), (143, "starttls".into()));
        assert_eq!(imap(Some(993), Some("starttls")), (993, "starttls".into()));
        let smtp = |p, s| smtp_defaults(p, s);
        assert_eq!(smtp(None, Some("tls")), (465, "tls".into()));
        assert_eq!(smtp(Some(465), None), (465, "tls".into()));
        assert_eq!(smtp(Some(587), None), (587, "starttls".into()));
        assert_eq!(smtp(None, Some("none")), (25, "none".into()));
        assert_eq!(smtp(None, None), (25, "starttls".into()));
    }

    /// IPv6 literals, bracketed or bare, are hosts, not a host `:`
    /// and a port.
    #[test]
    fn hosts_and_ports_are_read_with_ipv6_literals() {
        let ok = |s: &str| host_and_port(s).expect(s);
        assert_eq!(ok("mail.example.org"), ("mail.example.org".into(), None));
        assert_eq!(
            ok("mail.example.org:993"),
            ("mail.example.org".into(), Some(993))
        );
        assert_eq!(ok("::1"), ("::1".into(), None));
        assert_eq!(ok("[::1]"), ("::1".into(), None));
        assert_eq!(ok("[::1]:1143"), ("::1".into(), Some(1143)));
        assert_eq!(ok("2001:db8::7"), ("2001:db8::7".into(), None));
        assert_eq!(ok("127.0.0.1:143"), ("127.0.0.1".into(), Some(143)));
        for bad in [
            "host:x",
            "host:0",
            "host:70000",
            "[::1",
            "[::1]x",
            ":143",
            "",
        ] {
            assert!(host_and_port(bad).is_err(), "{bad}");
        }
        assert_eq!(bare_host("[::1]"), "::1");
        assert_eq!(bare_host("::1"), "::1");
        assert_eq!(bare_host("example.org"), "example.org");
    }

    /// A password over plain text goes to this machine only, unless
    /// the GM says the network is private; the refusal names the key and the fix.
    #[test]
    fn a_password_in_clear_goes_only_to_the_loopback() {
        for host in ["127.0.0.1", "::1", "[::1]", "localhost"] {
            assert_eq!(
                plain_password_refused("imap_security", "none", host, 143, false),
                None,
                "{host}"
            );
        }
        let why = plain_password_refused("smtp_security", "none", "192.0.2.7", 25, false)
            .expect("refused");
        assert!(why.contains("smtp_security = \"none\""), "{why}");
        assert!(why.contains("allow_plain_password = true"), "{why}");
        assert!(why.contains("starttls"), "{why}");
        assert_eq!(
            plain_password_refused("smtp_security", "none", "192.0.2.7", 25, true),
            None
        );
        assert_eq!(
            plain_password_refused("smtp_security", "starttls", "192.0.2.7", 25, false),
            None
        );
    }
}
