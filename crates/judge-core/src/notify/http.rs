//! One notice posted over HTTP(S), by ureq on the judge's own TLS (rustls with ring, the
//! system's roots, as SMTP and IMAP use them), with one time limit for the whole post,
//! and no redirect followed: a webhook that answers with one is told to the GM, who sets
//! the address it names (a redirect could lead the judge's posts anywhere).

use std::sync::Arc;
use std::time::Duration;

/// What became of a post that did not arrive.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PostError {
    /// It may arrive later: the host down or silent, a 5xx, 408 or 429 answer.
    #[error("{0}")]
    Later(String),
    /// It never will as things are: a redirect, or the webhook refused it (another
    /// 4xx: removed, or the address wrong).
    #[error("{0}")]
    Refused(String),
}

/// A client for the posts of one run: the system's roots are read once.
pub struct Client {
    agent: ureq::Agent,
}

impl Client {
    pub fn new(timeout: Duration) -> Client {
        let roots: Vec<ureq::tls::Certificate<'static>> = rustls_native_certs::load_native_certs()
            .certs
            .iter()
            .map(|c| ureq::tls::Certificate::from_der(c.as_ref()).to_owned())
            .collect();
        let tls = ureq::tls::TlsConfig::builder()
            .provider(ureq::tls::TlsProvider::Rustls)
            .root_certs(ureq::tls::RootCerts::new_with_certs(&roots))
            .unversioned_rustls_crypto_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .build();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .max_redirects(0)
            .http_status_as_error(false)
            .user_agent("pbem-judge")
            .tls_config(tls)
            .build()
            .into();
        Client { agent }
    }

    /// Post `body` (JSON) to `url` with `headers`.
    pub fn post(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: &[u8],
    ) -> Result<(), PostError> {
        let mut request = self
            .agent
            .post(url)
            .header("Content-Type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, value.as_str());
        }
        let response = match request.send(body) {
            Ok(r) => r,
            Err(e) => return Err(PostError::Later(format!("{e}"))),
        };
        let status = response.status().as_u16();
        match status {
            200..=299 => Ok(()),
            300..=399 => Err(PostError::Refused(format!(
                "the webhook answered {status}, a redirect{}: the judge follows none; set [notify] url (or `notify URL`) to where the webhook is",
                response
                    .headers()
                    .get("location")
                    .and_then(|l| l.to_str().ok())
                    .map_or(String::new(), |l| format!(
                        " to {}",
                        l.chars().take(200).collect::<String>()
                    ))
            ))),
            408 | 429 | 500..=599 => {
                Err(PostError::Later(format!("the webhook answered {status}")))
            }
            _ => Err(PostError::Refused(format!(
                "the webhook answered {status}: check its address (was the webhook removed?)"
            ))),
        }
    }
}
