//! Play by email: mail in (intake, authentication, filing), acknowledgements and reports
//! out (an outbox sent over SMTP or to a pickup folder). See docs/gm-guide.md.

#[cfg(feature = "shell")]
pub mod budget;
#[cfg(feature = "shell")]
pub mod html;
#[cfg(feature = "shell")]
pub mod imap;
#[cfg(feature = "shell")]
pub mod inbound;
#[cfg(feature = "shell")]
pub mod net;
#[cfg(feature = "shell")]
pub mod outbox;
pub mod redact;
#[cfg(feature = "shell")]
pub mod secret;
#[cfg(feature = "shell")]
pub mod smtp;
#[cfg(feature = "shell")]
pub mod watch;
