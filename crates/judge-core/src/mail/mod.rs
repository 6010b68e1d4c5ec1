//! Play by email: mail in (intake, authentication, filing), acknowledgements and reports
//! out (an outbox sent over SMTP or to a pickup folder). See docs/gm-guide.md.

pub mod budget;
pub mod imap;
pub mod inbound;
pub mod outbox;
pub mod redact;
pub mod secret;
pub mod smtp;
pub mod watch;
