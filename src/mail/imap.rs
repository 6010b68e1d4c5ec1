//! Reading order mails over IMAP: the unseen messages of INBOX are fetched without
//! marking them (BODY.PEEK), filed, and only then marked seen — so a crash in between
//! files nothing twice (filing is idempotent by Message-ID) and loses nothing.
//!
//! The client is the `imap` crate's 3.0 line (an alpha): the 2.x line can only do TLS
//! through native-tls (OpenSSL), while 3.0 does it through rustls, as lettre does here.

use imap::{ClientBuilder, ConnectionMode, TlsKind};

/// Where to read mail from. The password comes from an environment variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: String,
    /// `none`, `starttls` or `tls`.
    pub security: String,
}

/// Fetch every unseen message, hand each to `file`, and mark seen those it accepted
/// (returned `true`). Returns how many were fetched.
pub fn ingest(src: &Source, mut file: impl FnMut(&[u8]) -> bool) -> Result<usize, String> {
    let mode = match src.security.as_str() {
        "none" => ConnectionMode::Plaintext,
        "starttls" => ConnectionMode::StartTls,
        "tls" => ConnectionMode::Tls,
        other => {
            return Err(format!(
                "imap security `{other}`: use none, starttls or tls"
            ));
        }
    };
    let client = ClientBuilder::new(src.host.as_str(), src.port)
        .mode(mode)
        .tls_kind(TlsKind::Rust)
        .connect()
        .map_err(|e| format!("IMAP {}:{}: {e}", src.host, src.port))?;
    let mut session = client
        .login(&src.user, &src.password)
        .map_err(|(e, _)| format!("IMAP login as {}: {e}", src.user))?;
    session
        .select("INBOX")
        .map_err(|e| format!("IMAP INBOX: {e}"))?;
    let mut uids: Vec<u32> = session
        .uid_search("UNSEEN")
        .map_err(|e| format!("IMAP search: {e}"))?
        .into_iter()
        .collect();
    uids.sort_unstable();
    let mut seen = Vec::new();
    for uid in &uids {
        let fetches = session
            .uid_fetch(uid.to_string(), "BODY.PEEK[]")
            .map_err(|e| format!("IMAP fetch {uid}: {e}"))?;
        for f in fetches.iter() {
            if let Some(body) = f.body()
                && file(body)
            {
                seen.push(uid.to_string());
            }
        }
    }
    if !seen.is_empty() {
        session
            .uid_store(seen.join(","), "+FLAGS (\\Seen)")
            .map_err(|e| format!("IMAP store: {e}"))?;
    }
    let _ = session.logout();
    Ok(uids.len())
}
