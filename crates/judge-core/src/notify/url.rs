//! A webhook's address, checked before anything is queued for it: `http://` or
//! `https://`, a host, no spaces or control characters, not longer than a browser keeps.
//! The same check for game.toml's and judge.toml's `[notify] url` (refused when the file
//! is read, naming its line) and for a player's `notify URL` by mail (refused in the
//! answer); a player's address may not name this machine or a private network unless the
//! GM allows it ([`private_host`]), neither as written nor where its name leads when a
//! notice is posted ([`check_leads`]).

use std::net::{IpAddr, ToSocketAddrs};

/// The longest address taken.
pub const LONGEST: usize = 2000;

/// Why an address cannot be a webhook's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    #[error("`{0}` is not a web address: write one that begins with https:// (or http://)")]
    Scheme(String),
    #[error("`{0}` names no host: write it whole, like https://discord.com/api/webhooks/…")]
    NoHost(String),
    #[error(
        "the address holds a space or a control character: write it on one line, as the site gave it"
    )]
    Spaces,
    #[error("the address is longer than {LONGEST} characters")]
    TooLong,
    #[error(
        "`{0}` is this machine or a private network: a player's webhook must be on the internet (the GM may allow it with [notify] private_hosts = true)"
    )]
    Private(String),
    #[error(
        "`{0}` leads to {1}, this machine or a private network: a player's webhook must be on the internet (the GM may allow it with [notify] private_hosts = true)"
    )]
    LeadsInside(String, IpAddr),
}

/// The address's host, lower case, without its port or brackets.
pub fn host(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    // What comes before an `@` is a user and password, not the host.
    let hostport = authority.rsplit('@').next().unwrap_or("");
    let host = if let Some(v6) = hostport.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        hostport.split(':').next().unwrap_or("")
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Check `url` as a webhook's address.
pub fn check(url: &str) -> Result<(), UrlError> {
    if url.chars().count() > LONGEST {
        return Err(UrlError::TooLong);
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(UrlError::Spaces);
    }
    let lower = url.to_ascii_lowercase();
    if !(lower.starts_with("https://") || lower.starts_with("http://")) {
        return Err(UrlError::Scheme(shown(url)));
    }
    if host(url).is_none() {
        return Err(UrlError::NoHost(shown(url)));
    }
    Ok(())
}

/// Check a player's `url`: as [`check`], and, unless `private_ok`, not on this machine
/// nor a private network, as its host is written (a name that resolves to one is not
/// caught here: docs/gm-guide.md says so).
pub fn check_player(url: &str, private_ok: bool) -> Result<(), UrlError> {
    check(url)?;
    match host(url) {
        Some(h) if !private_ok && private_host(&h) => Err(UrlError::Private(h)),
        _ => Ok(()),
    }
}

/// Check where a player's `url` leads now, just before a notice is posted to it: a
/// name written in it (checked as it is written by [`check_player`]) may lead to this
/// machine or a private network (`http://vm/`, a name whose address is 10.0.0.7),
/// which a player may not make the judge post to. Every address the system finds for
/// it is checked ([`inside`]); a name that finds none is left to the post, which fails
/// and waits as for a host that is down. (The post resolves the name again: a name
/// that changes its address between the two is not caught.)
pub fn check_leads(url: &str) -> Result<(), UrlError> {
    let Some(h) = host(url) else {
        return Ok(());
    };
    if h.parse::<IpAddr>().is_ok() {
        return Ok(());
    }
    let port = if url.starts_with("https://") { 443 } else { 80 };
    let found: Vec<IpAddr> = (h.as_str(), port)
        .to_socket_addrs()
        .map(|a| a.map(|a| a.ip()).collect())
        .unwrap_or_default();
    inside(&h, &found)
}

/// `host`'s addresses `found`: refused if any is this machine or a private network.
pub fn inside(host: &str, found: &[IpAddr]) -> Result<(), UrlError> {
    match found.iter().find(|a| private_host(&a.to_string())) {
        Some(a) => Err(UrlError::LeadsInside(host.to_string(), *a)),
        None => Ok(()),
    }
}

/// A host that names this machine or a private network: `localhost`, a loopback,
/// private, link-local, unique-local or unspecified address.
pub fn private_host(host: &str) -> bool {
    let h = host.trim_end_matches('.');
    if h == "localhost" || h.ends_with(".localhost") {
        return true;
    }
    match h.parse::<IpAddr>() {
        Ok(IpAddr::V4(a)) => {
            a.is_loopback()
                || a.is_private()
                || a.is_link_local()
                || a.is_unspecified()
                || a.is_broadcast()
                // 100.64.0.0/10, carrier-grade NAT.
                || (a.octets()[0] == 100 && (a.octets()[1] & 0xc0) == 64)
        }
        Ok(IpAddr::V6(a)) => {
            a.is_loopback()
                || a.is_unspecified()
                || (a.segments()[0] & 0xfe00) == 0xfc00
                || (a.segments()[0] & 0xffc0) == 0xfe80
                || a.to_ipv4_mapped()
                    .is_some_and(|v4| private_host(&v4.to_string()))
        }
        // A number the system would read as an address (`2130706433`, `0x7f.1`).
        Err(_) => {
            h.starts_with(|c: char| c.is_ascii_digit())
                && h.chars()
                    .all(|c| c.is_ascii_hexdigit() || c == '.' || c == 'x')
        }
    }
}

/// At most 100 characters of an address, for a message.
fn shown(url: &str) -> String {
    let mut s: String = url.chars().take(100).collect();
    if url.chars().count() > 100 {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_and_https_addresses_with_a_host_are_webhooks() {
        assert!(check("https://discord.com/api/webhooks/1/abc").is_ok());
        assert!(check("http://127.0.0.1:8080/hook").is_ok());
        assert!(matches!(
            check("ftp://example.org/x"),
            Err(UrlError::Scheme(_))
        ));
        assert!(matches!(
            check("file:///etc/passwd"),
            Err(UrlError::Scheme(_))
        ));
        assert!(matches!(
            check("javascript:alert(1)"),
            Err(UrlError::Scheme(_))
        ));
        assert!(matches!(check("https:///path"), Err(UrlError::NoHost(_))));
        assert!(matches!(check("https://a b/"), Err(UrlError::Spaces)));
        assert!(matches!(check("https://a/\r\nX: y"), Err(UrlError::Spaces)));
        let long = format!("https://example.org/{}", "a".repeat(LONGEST));
        assert_eq!(check(&long), Err(UrlError::TooLong));
    }

    #[test]
    fn a_players_webhook_may_not_name_this_machine_or_a_private_network() {
        for url in [
            "http://localhost/x",
            "http://127.0.0.1:9/x",
            "http://10.1.2.3/x",
            "http://192.168.0.1/x",
            "http://169.254.169.254/latest/meta-data",
            "http://[::1]:80/x",
            "http://[fd00::1]/x",
            "http://[::ffff:127.0.0.1]/x",
            "http://0.0.0.0/x",
            "http://2130706433/x",
            "http://user@127.0.0.1/x",
        ] {
            assert!(
                matches!(check_player(url, false), Err(UrlError::Private(_))),
                "{url}"
            );
            assert!(check_player(url, true).is_ok(), "{url}");
        }
        assert!(check_player("https://hooks.slack.com/services/T/B/x", false).is_ok());
        assert!(check_player("https://127.0.0.1.example.org/x", false).is_ok());
    }

    /// A name is no way around the rule: where it leads when a notice is posted is
    /// checked as an address written would be.
    #[test]
    fn a_players_webhook_may_not_lead_to_this_machine_or_a_private_network_by_a_name() {
        let at = |a: &str| a.parse::<IpAddr>().expect("an address");
        for a in [
            "127.0.0.1",
            "10.0.0.7",
            "192.168.1.1",
            "169.254.169.254",
            "::1",
            "fd00::1",
        ] {
            assert_eq!(
                inside("hooks.example", &[at("93.184.215.14"), at(a)]),
                Err(UrlError::LeadsInside("hooks.example".into(), at(a))),
                "{a}"
            );
        }
        assert!(inside("hooks.example", &[at("93.184.215.14"), at("2606:4700::1")]).is_ok());
        // This machine's own name, as the system resolves it (every system knows it).
        let own = std::process::Command::new("hostname")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        let resolved: Vec<IpAddr> = (own.as_str(), 80)
            .to_socket_addrs()
            .map(|a| a.map(|a| a.ip()).collect())
            .unwrap_or_default();
        if resolved.iter().any(|a| private_host(&a.to_string())) {
            assert!(matches!(
                check_leads(&format!("http://{own}/hook")),
                Err(UrlError::LeadsInside(..))
            ));
        }
        // An address written is checked as written, and "localhost" by its name.
        assert!(check_leads("http://93.184.215.14/hook").is_ok());
    }
}
