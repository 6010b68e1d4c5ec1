//! A notice, and the bytes posted for it: pure functions from what the notice says
//! (made only of what everyone may know of the game, or what its one reader may know of
//! their own seat) to the body of each format, and the signature of the `json` format.
//!
//! - `discord`: `{"content": …, "allowed_mentions": {"parse": []}}`: at most 2,000
//!   characters, as Discord takes them, and no `@everyone` or other mention a name or a
//!   report could hold ever pings anyone.
//! - `slack`: `{"text": …}`, with `&`, `<` and `>` written as Slack asks (so no
//!   `<!channel>` a name could hold pings anyone).
//! - `json`: the notice's fields, signed as GitHub signs its webhooks: the header
//!   `X-Judge-Signature-256: sha256=<hex of HMAC-SHA256(secret, body)>`.

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::archive::schema::{NotifyEvent, NotifyFormat};

/// The header that carries the `json` format's signature.
pub const SIGNATURE_HEADER: &str = "X-Judge-Signature-256";
/// The header that names the event.
pub const EVENT_HEADER: &str = "X-Judge-Event";
/// The header that names the notice (the same on every try, so that a receiver can
/// drop a notice it already has).
pub const DELIVERY_HEADER: &str = "X-Judge-Delivery";

/// The most characters of a Discord message (Discord refuses more).
pub const DISCORD_CHARS: usize = 2000;
/// The most characters of a Slack message the judge posts.
pub const SLACK_CHARS: usize = 3000;
/// The most characters of the summary a `json` notice carries.
pub const JSON_SUMMARY_CHARS: usize = 16_000;

/// What a notice says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notice {
    pub event: NotifyEvent,
    /// The game's name.
    pub game: String,
    /// The kind of game, as it calls itself ([`crate::pbem::game::Game::title`]).
    pub title: String,
    /// The turn played (`turn`, `over`), due (`deadline`), or the seat's last (`seat-open`);
    /// 0 for `signup`.
    pub turn: u32,
    /// What happened, as everyone may read it (the turn's public summary), or the one
    /// sentence the event is.
    pub summary: String,
    /// The turn's page on the game's site, if the game has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// When the orders are due (`deadline`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<String>,
    /// Whose orders are missing (`deadline`), only where everyone may know it; for a
    /// player's own webhook, their own seat alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
    /// The seats free (`signup`) or open for a replacement (`seat-open`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<String>,
}

/// `text` cut to at most `max` characters, with `…` where it was cut.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// The notice as a chat message: its first line the event, then the summary (cut so
/// that the whole fits `max` characters, the link kept), then the link.
pub fn message(n: &Notice, max: usize) -> String {
    let head = match n.event {
        NotifyEvent::Turn => format!("{} ({}): turn {} played", n.game, n.title, n.turn),
        NotifyEvent::Deadline => format!(
            "{} ({}): turn {} is due{}",
            n.game,
            n.title,
            n.turn,
            n.deadline
                .as_deref()
                .map_or(String::new(), |d| format!(" by {d}"))
        ),
        NotifyEvent::Over => format!("{} ({}): the game is over", n.game, n.title),
        NotifyEvent::SeatOpen => format!(
            "{} ({}): a seat is open for a new player ({})",
            n.game,
            n.title,
            n.seats.join(", ")
        ),
        NotifyEvent::Signup => format!(
            "{} ({}): open for sign-up ({})",
            n.game,
            n.title,
            n.seats.join(", ")
        ),
    };
    let tail = n
        .link
        .as_deref()
        .map_or(String::new(), |l| format!("\n{l}"));
    let room = max.saturating_sub(head.chars().count() + tail.chars().count() + 1);
    let summary = n.summary.trim_end();
    if summary.is_empty() || room < 2 {
        return cut(&format!("{head}{tail}"), max);
    }
    format!("{head}\n{}{tail}", cut(summary, room))
}

/// Slack's escapes: `&`, `<` and `>`, which its messages read as markup.
fn slack_escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The body posted for `n` in `format`.
pub fn body(format: NotifyFormat, n: &Notice) -> Vec<u8> {
    let value = match format {
        NotifyFormat::Discord => serde_json::json!({
            "content": message(n, DISCORD_CHARS),
            "allowed_mentions": { "parse": [] },
        }),
        NotifyFormat::Slack => serde_json::json!({
            // Cut before it is escaped, so that an escape is never cut in two.
            "text": slack_escaped(&message(n, SLACK_CHARS)),
        }),
        NotifyFormat::Json => {
            let mut n = n.clone();
            n.summary = cut(&n.summary, JSON_SUMMARY_CHARS);
            serde_json::json!({
                "event": n.event,
                "game": n.game,
                "title": n.title,
                "turn": n.turn,
                "summary": n.summary,
                "link": n.link,
                "deadline": n.deadline,
                "missing": n.missing,
                "seats": n.seats,
                "text": message(&n, DISCORD_CHARS),
            })
        }
    };
    // A map of strings and numbers always serializes.
    serde_json::to_vec(&value).unwrap_or_default()
}

/// The value of the signature header for `body`: `sha256=` and the lower-case hex of
/// HMAC-SHA256 keyed with `secret`.
pub fn signature(secret: &[u8], body: &[u8]) -> String {
    // HMAC takes a key of any length.
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        return String::new();
    };
    mac.update(body);
    let bytes = mac.finalize().into_bytes();
    let mut hex = String::with_capacity(7 + 64);
    hex.push_str("sha256=");
    for b in bytes {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice() -> Notice {
        Notice {
            event: NotifyEvent::Turn,
            game: "island".into(),
            title: "Pirates & Traders".into(),
            turn: 3,
            summary: "Red built a harbour.\n@everyone <!channel> & more".into(),
            link: Some("https://judge.example.org/island/turn-003.html".into()),
            deadline: None,
            missing: vec![],
            seats: vec![],
        }
    }

    /// RFC 4231, test case 2: HMAC-SHA256 with the key "Jefe".
    #[test]
    fn the_signature_is_hmac_sha256_as_rfc_4231_gives_it() {
        assert_eq!(
            signature(b"Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn discord_messages_ping_nobody_and_fit_discords_limit() {
        let mut n = notice();
        n.summary = "x".repeat(10_000);
        let v: serde_json::Value =
            serde_json::from_slice(&body(NotifyFormat::Discord, &n)).unwrap();
        let content = v["content"].as_str().unwrap();
        assert!(content.chars().count() <= DISCORD_CHARS);
        assert!(
            content.ends_with("turn-003.html"),
            "the link is kept: {content}"
        );
        assert_eq!(v["allowed_mentions"]["parse"], serde_json::json!([]));
    }

    #[test]
    fn slack_messages_escape_what_slack_reads_as_markup() {
        let v: serde_json::Value =
            serde_json::from_slice(&body(NotifyFormat::Slack, &notice())).unwrap();
        let text = v["text"].as_str().unwrap();
        assert!(text.contains("&lt;!channel&gt; &amp; more"), "{text}");
        assert!(!text.contains("<!channel>"));
        assert!(text.contains("Pirates &amp; Traders"));
    }
}
