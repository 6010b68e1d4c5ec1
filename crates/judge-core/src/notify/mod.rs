//! Notices by webhook, beside the mail and never instead of it (docs/gm-guide.md,
//! "Notices by webhook"): the moments of a game ([`events`]) queued once each in the
//! notice outbox ([`queue`], inside `outbox/`, kept out of git), posted after the turn
//! over HTTP(S) ([`http`]) in the format the webhook takes ([`payload`]: Discord,
//! Slack, or JSON signed with HMAC-SHA256), the address checked first ([`url`]).

pub mod events;
pub mod http;
pub mod payload;
pub mod queue;
pub mod url;
