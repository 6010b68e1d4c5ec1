//! What the judge answers one address, at most (docs/archive.md, "What can go wrong"): a
//! flood of mail, forged from a player's address or not, costs that address a few
//! answers an hour. The same limits, counted the same way, hold for a game's intake
//! ([`super::intake`]) and for the folder of games' mailroom ([`super::house`]): each
//! counts in its own log the mails of one kind it handled for the address within the
//! hour, and asks here what the next one may get.

use std::time::{Duration, SystemTime};

/// Refusals answered to one address within an hour; more are refused unanswered, with
/// one note a day ([`refusal`]).
pub const REFUSALS_PER_HOUR: usize = 5;

/// Mails of commands carried out for one address within an hour; later ones are
/// logged and neither carried out nor answered until the hour has passed.
pub const COMMAND_MAILS_PER_HOUR: usize = 20;

/// How many of `handled` (the times, as a log keeps them in RFC 3339, that mails of
/// one kind from one address were handled) fall within the hour before `now`. A time
/// that does not read counts for nothing.
pub fn within_hour<'a>(
    handled: impl IntoIterator<Item = Option<&'a str>>,
    now: SystemTime,
) -> usize {
    let hour_ago = now.checked_sub(Duration::from_secs(3600));
    handled
        .into_iter()
        .flatten()
        .filter_map(|h| humantime::parse_rfc3339_weak(h).ok())
        .filter(|h| hour_ago.is_none_or(|ago| *h > ago))
        .count()
}

/// What a refusal to an address may get, given how many refusals were answered to it
/// within the hour ([`within_hour`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// An answer of its own.
    Answer,
    /// No answer: at most one note a day says why, queued under this outbox key (the
    /// outbox queues a key once).
    Withhold { note_key: String },
}

/// [`Refusal`] for an address known as `who` (a seat, or a digest of the address: a
/// word safe in a file name), at `now`.
pub fn refusal(answered_within_hour: usize, now: SystemTime, who: &str) -> Refusal {
    if answered_within_hour < REFUSALS_PER_HOUR {
        return Refusal::Answer;
    }
    let day = humantime::format_rfc3339_seconds(now).to_string();
    Refusal::Withhold {
        note_key: format!("withheld-{}-{who}", day.get(..10).unwrap_or(&day)),
    }
}

/// Whether a mail of commands from an address is carried out and answered, given how
/// many came from it within the hour ([`within_hour`]).
pub fn commands_allowed(within_hour: usize) -> bool {
    within_hour < COMMAND_MAILS_PER_HOUR
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> SystemTime {
        humantime::parse_rfc3339(s).unwrap_or(SystemTime::UNIX_EPOCH)
    }

    /// Five refusals an hour are answered, then
    /// one note a day (its key names the day, so a second the same day is the same mail).
    #[test]
    fn five_refusals_an_hour_then_a_note_a_day() {
        let now = t("2026-12-01T18:00:00Z");
        let times = [
            "2026-12-01T16:59:59Z", // over an hour ago
            "2026-12-01T17:00:01Z",
            "2026-12-01T17:30:00Z",
            "not a time",
        ];
        assert_eq!(within_hour(times.iter().map(|s| Some(*s)), now), 2);
        assert_eq!(within_hour([None, Some("2026-12-01T17:59:00Z")], now), 1);
        assert_eq!(refusal(4, now, "red"), Refusal::Answer);
        assert_eq!(
            refusal(5, now, "red"),
            Refusal::Withhold {
                note_key: "withheld-2026-12-01-red".into()
            }
        );
        assert_eq!(
            refusal(500, t("2026-12-01T23:59:59Z"), "red"),
            refusal(5, now, "red"),
            "one note a day"
        );
        assert!(commands_allowed(19) && !commands_allowed(20));
    }
}
