//! `[schedule]` in game.toml: when each turn's orders are due, when players are reminded,
//! and what happens to late orders. Every value is checked when game.toml is read, so a
//! bad value is reported once, naming its key, and never breaks a later command.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::marker::PhantomData;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The longest time between two deadlines (and the longest reminder): a year.
pub const LONGEST: Duration = Duration::from_secs(366 * 24 * 3600);
/// The shortest time between two deadlines.
pub const SHORTEST: Duration = Duration::from_secs(60);
/// Every deadline, written or worked out, lies between the first second of the year 2000
/// and the last of 2999 (docs/gm-guide.md): a time outside is a slip, refused naming its
/// key, and no date arithmetic or printing can overflow on one.
pub const EARLIEST: &str = "2000-01-01T00:00:00Z";
pub const LATEST: &str = "2999-12-31T23:59:59Z";
const EARLIEST_SECS: u64 = 946_684_800;
const LATEST_SECS: u64 = 32_503_679_999;

/// Whether a time may be a deadline: between [`EARLIEST`] and [`LATEST`].
pub fn in_range(at: SystemTime) -> bool {
    at.duration_since(UNIX_EPOCH)
        .is_ok_and(|d| (EARLIEST_SECS..=LATEST_SECS).contains(&d.as_secs()))
}

/// What is wrong with a time out of range, for messages.
pub fn out_of_range(at: SystemTime) -> String {
    let late = at
        .duration_since(UNIX_EPOCH)
        .is_ok_and(|d| d.as_secs() > LATEST_SECS);
    format!(
        "too {}: a deadline lies between {EARLIEST} and {LATEST}",
        if late { "late" } else { "early" }
    )
}

/// Deadlines: the first turn's, then one every `every` (like `7days`, `48h`), as written
/// in game.toml.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// The deadline for turn 1's orders, RFC 3339 (`2026-12-01T18:00:00Z`).
    pub first_deadline: FirstDeadline,
    /// The time between deadlines.
    pub every: Length<Every>,
    /// Late orders: `refuse`, or `hold` them for the next turn.
    #[serde(default = "default_late")]
    pub late: String,
    /// Remind players without orders this long before a deadline (`12h`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind: Option<Length<Remind>>,
    /// Play a turn as soon as every player's orders are in, before its deadline.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub early: bool,
    /// Orders with errors wait for a corrected file until the deadline; with a grace
    /// (`2h`), only this long after they were filed. A file with a line `as is` never
    /// waits (docs/gm-guide.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace: Option<Length<Grace>>,
    /// Weekdays no deadline falls on (`skip = ["sat", "sun"]`): a deadline that would is
    /// put off, day by day, to the next day not skipped, at the same time of day. A
    /// deadline the GM moved stands where they put it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skip: Vec<String>,
    /// Deadlines the GM moved (`judge deadline`), by turn: later turns follow on from a
    /// moved one, `every` apart.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub moved: BTreeMap<String, String>,
}

/// A key whose value is a duration, and the shortest it may be.
pub trait DurationKey {
    /// The key, dotted from the table (`every`, `absent.grace`).
    const KEY: &'static str;
    /// The shortest value allowed.
    const SHORTEST: Duration;
}

macro_rules! duration_keys {
    ($($(#[$doc:meta])* $name:ident = $key:literal, $shortest:expr;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name;
        impl DurationKey for $name {
            const KEY: &'static str = $key;
            const SHORTEST: Duration = $shortest;
        }
    )*};
}

duration_keys! {
    /// `[schedule] every`.
    Every = "every", SHORTEST;
    /// `[schedule] remind`.
    Remind = "remind", Duration::from_secs(1);
    /// `[schedule] grace`.
    Grace = "grace", Duration::from_secs(1);
    /// `[absent] grace`.
    AbsentGrace = "absent.grace", Duration::from_secs(1);
    /// `[absent] vacation`.
    AbsentVacation = "absent.vacation", Duration::from_secs(1);
    /// `[absent] late_notice`.
    AbsentLateNotice = "absent.late_notice", Duration::from_secs(1);
}

/// A duration of game.toml (`7days`, `12h`), parsed and checked when the file is read,
/// keeping the text as written so the file is written back byte for byte. A bad value
/// fails the reading of the file with a [`ScheduleError`] naming the key `K`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Length<K> {
    text: String,
    value: Duration,
    key: PhantomData<K>,
}

impl<K: DurationKey> Length<K> {
    /// The duration.
    pub fn get(&self) -> Duration {
        self.value
    }

    /// The text as written in game.toml.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// `value`, written as humantime writes it (`7days`).
    fn of(value: Duration) -> Result<Self, ScheduleError> {
        humantime::format_duration(value).to_string().parse()
    }
}

impl<K: DurationKey> std::str::FromStr for Length<K> {
    type Err = ScheduleError;

    fn from_str(text: &str) -> Result<Self, ScheduleError> {
        Ok(Length {
            value: duration(K::KEY, text, K::SHORTEST)?,
            text: text.to_string(),
            key: PhantomData,
        })
    }
}

impl<K> std::fmt::Display for Length<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl<K> Serialize for Length<K> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de, K: DurationKey> Deserialize<'de> for Length<K> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// `first_deadline`: a time (RFC 3339) parsed and checked when game.toml is read, with
/// its text as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstDeadline {
    text: String,
    value: SystemTime,
}

impl FirstDeadline {
    /// The time.
    pub fn get(&self) -> SystemTime {
        self.value
    }

    /// The text as written in game.toml.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl std::str::FromStr for FirstDeadline {
    type Err = ScheduleError;

    fn from_str(text: &str) -> Result<Self, ScheduleError> {
        Ok(FirstDeadline {
            value: time("first_deadline", text)?,
            text: text.to_string(),
        })
    }
}

impl std::fmt::Display for FirstDeadline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for FirstDeadline {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for FirstDeadline {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

fn default_late() -> String {
    "refuse".to_string()
}

/// What to do with orders that arrive after their deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Late {
    Refuse,
    Hold,
}

/// Why a schedule does not read: the key and what is wrong with it.
/// The table is `[schedule]`, or the one a dotted key names (`absent.grace`: `[absent]
/// grace`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("[{}] {} = \"{value}\": {why}", table_of(key), key_in_table(key))]
pub struct ScheduleError {
    pub key: String,
    pub value: String,
    pub why: String,
}

fn table_of(key: &str) -> &str {
    match key.split_once('.') {
        Some(("absent", _)) => "absent",
        _ => "schedule",
    }
}

fn key_in_table(key: &str) -> &str {
    key.strip_prefix("absent.").unwrap_or(key)
}

fn time(key: &str, value: &str) -> Result<SystemTime, ScheduleError> {
    let bad = |why: String| ScheduleError {
        key: key.to_string(),
        value: value.to_string(),
        why,
    };
    let at = humantime::parse_rfc3339_weak(value)
        .map_err(|e| bad(format!("{e}; write a time like 2026-12-05T18:00:00Z")))?;
    if !in_range(at) {
        return Err(bad(out_of_range(at)));
    }
    Ok(at)
}

fn duration(key: &str, value: &str, shortest: Duration) -> Result<Duration, ScheduleError> {
    let bad = |why: String| ScheduleError {
        key: key.to_string(),
        value: value.to_string(),
        why,
    };
    // humantime adds up the parts with overflow checks; anything past a year is refused
    // before it is ever multiplied or printed.
    let d = humantime::parse_duration(value)
        .map_err(|e| bad(format!("{e}; write a duration like 7days, 48h or 30min")))?;
    if d > LONGEST {
        return Err(bad("more than a year".into()));
    }
    if d < shortest {
        return Err(bad(format!(
            "less than {}",
            humantime::format_duration(shortest)
        )));
    }
    Ok(d)
}

impl Schedule {
    /// A schedule starting at `first` every `every`; a time or duration out of range is
    /// refused as game.toml would refuse it.
    pub fn new(first: SystemTime, every: Duration) -> Result<Schedule, ScheduleError> {
        Ok(Schedule {
            first_deadline: stamp(first).parse()?,
            every: Length::of(every)?,
            late: default_late(),
            remind: None,
            early: false,
            grace: None,
            skip: Vec::new(),
            moved: BTreeMap::new(),
        })
    }

    /// Check the values game.toml's reading leaves unchecked (the times and durations
    /// are checked as they are read); the error names the key.
    pub fn validate(&self) -> Result<(), ScheduleError> {
        self.late()?;
        self.skipped_days()?;
        for (turn, at) in &self.moved {
            let key = format!("moved.{turn}");
            turn.parse::<u32>()
                .ok()
                .filter(|t| *t >= 1)
                .ok_or_else(|| ScheduleError {
                    key: key.clone(),
                    value: at.clone(),
                    why: "the key must be a turn number, 1 or more".into(),
                })?;
            time(&key, at)?;
        }
        Ok(())
    }

    pub fn late(&self) -> Result<Late, ScheduleError> {
        match self.late.as_str() {
            "refuse" => Ok(Late::Refuse),
            "hold" => Ok(Late::Hold),
            other => Err(ScheduleError {
                key: "late".into(),
                value: other.into(),
                why: "write \"refuse\" or \"hold\"".into(),
            }),
        }
    }

    /// The weekdays `skip` names, Monday 0 to Sunday 6.
    fn skipped_days(&self) -> Result<Vec<u64>, ScheduleError> {
        const DAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
        let days = self
            .skip
            .iter()
            .map(|d| {
                let short: String = d.trim().to_ascii_lowercase().chars().take(3).collect();
                DAYS.iter()
                    .position(|w| *w == short && d.trim().len() >= 3)
                    .map(|i| i as u64)
                    .ok_or_else(|| ScheduleError {
                        key: "skip".into(),
                        value: d.clone(),
                        why: "write weekdays, like skip = [\"sat\", \"sun\"]".into(),
                    })
            })
            .collect::<Result<Vec<u64>, _>>()?;
        if (0..7).all(|d| days.contains(&d)) {
            return Err(ScheduleError {
                key: "skip".into(),
                value: self.skip.join(", "),
                why: "every day of the week is skipped: no deadline could ever fall".into(),
            });
        }
        Ok(days)
    }

    /// `at`, put off day by day past the weekdays `skip` names (UTC).
    pub fn off_skipped_days(&self, at: SystemTime) -> Result<SystemTime, ScheduleError> {
        let days = self.skipped_days()?;
        let mut at = at;
        // 1970-01-01 was a Thursday (3, counting from Monday).
        let weekday = |t: SystemTime| {
            t.duration_since(UNIX_EPOCH)
                .map_or(0, |d| (d.as_secs() / 86_400 + 3) % 7)
        };
        while days.contains(&weekday(at)) {
            at = at
                .checked_add(Duration::from_secs(86_400))
                .filter(|t| in_range(*t))
                .ok_or_else(|| ScheduleError {
                    key: "skip".into(),
                    value: self.skip.join(", "),
                    why: format!("a deadline put off past them would fall after {LATEST}"),
                })?;
        }
        Ok(at)
    }

    /// The time between deadlines.
    pub fn every(&self) -> Duration {
        self.every.get()
    }

    /// A deadline the GM moved, if they moved this turn's.
    pub fn moved(&self, turn: u32) -> Result<Option<SystemTime>, ScheduleError> {
        self.moved
            .get(&turn.to_string())
            .map(|at| time(&format!("moved.{turn}"), at))
            .transpose()
    }

    /// How long orders with errors wait for a corrected file (`None`: until the
    /// deadline).
    pub fn grace(&self) -> Option<Duration> {
        self.grace.as_ref().map(Length::get)
    }

    /// How long before a deadline players without orders are reminded.
    pub fn remind(&self) -> Option<Duration> {
        self.remind.as_ref().map(Length::get)
    }

    /// The deadline for a turn's orders: turn 1's is `first_deadline`, each later one
    /// `every` after the one before, unless the GM moved it.
    pub fn deadline(&self, turn: u32) -> Result<SystemTime, ScheduleError> {
        let turn = turn.max(1);
        let every = self.every();
        let mut base = (
            1,
            self.first_deadline.get(),
            "first_deadline".to_string(),
            self.first_deadline.to_string(),
        );
        for (t, at) in &self.moved {
            if let Ok(t) = t.parse::<u32>()
                && t <= turn
                && t >= base.0
            {
                let key = format!("moved.{t}");
                base = (t, time(&key, at)?, key, at.clone());
            }
        }
        let at = every
            .checked_mul(turn - base.0)
            .and_then(|d| base.1.checked_add(d))
            .filter(|at| in_range(*at))
            .ok_or_else(|| ScheduleError {
                key: base.2.clone(),
                value: base.3,
                why: format!(
                    "turn {turn}'s deadline, {} after it, would fall after {LATEST}",
                    count_of(every, turn - base.0)
                ),
            })?;
        // A deadline the GM moved stands where they put it.
        if base.2.starts_with("moved.") && base.0 == turn {
            return Ok(at);
        }
        self.off_skipped_days(at)
    }

    /// Move one turn's deadline (later turns follow on from it). A time out of range is
    /// refused, and the schedule left as it was.
    pub fn move_deadline(&mut self, turn: u32, to: SystemTime) -> Result<(), ScheduleError> {
        let key = format!("moved.{turn}");
        if !in_range(to) {
            return Err(ScheduleError {
                key,
                value: stamp(to),
                why: out_of_range(to),
            });
        }
        self.moved.insert(turn.to_string(), stamp(to));
        Ok(())
    }
}

/// `every` times `n`, as a person says it: `3 times 7days`.
fn count_of(every: Duration, n: u32) -> String {
    let every = humantime::format_duration(every);
    match n {
        1 => every.to_string(),
        n => format!("{n} times {every}"),
    }
}

/// A time in RFC 3339, to the second (`2026-12-05T18:00:00Z`), for any time at all:
/// humantime's own formatting fails past the year 9999 and panics before 1970. The judge
/// keeps deadlines well inside (see [`in_range`]); a time outside is named, never a panic.
pub fn stamp(at: SystemTime) -> String {
    if at < UNIX_EPOCH {
        return "a time before 1970".to_string();
    }
    let mut s = String::new();
    match write!(s, "{}", humantime::format_rfc3339_seconds(at)) {
        Ok(()) => s,
        Err(_) => "a time after the year 9999".to_string(),
    }
}

/// A deadline as reports and mails show it: `2026-12-05 at 18:00:00 UTC`.
pub fn shown(at: SystemTime) -> String {
    let s = stamp(at);
    if s.starts_with("a time") {
        return s;
    }
    s.replace('T', " at ").replace('Z', " UTC")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[schedule]` as game.toml writes it, read as game.toml is read.
    fn read(every: &str) -> Result<Schedule, toml::de::Error> {
        toml::from_str(&format!(
            "first_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"{every}\"\n"
        ))
    }

    fn schedule(every: &str) -> Schedule {
        read(every).expect("a schedule")
    }

    /// A bad duration is refused as the table is read, not at its first use: the error
    /// names the key, quotes the text, says the form to write, and points at the value.
    #[test]
    fn a_bad_duration_is_refused_when_the_table_is_read() {
        let e = read("3 dais").expect_err("refused as it is read");
        assert_eq!(
            e.message(),
            "[schedule] every = \"3 dais\": unknown time unit \"dais\", supported units: ns, us/µs, ms, sec, min, hours, days, weeks, months, years (and few variations); write a duration like 7days, 48h or 30min"
        );
        let text = "first_deadline = \"2026-12-01T18:00:00Z\"\nevery = \"3 dais\"\n";
        let span = e.span().expect("where");
        assert_eq!(&text[span], "\"3 dais\"");
    }

    /// The text as written is what is written back, byte for byte, whatever humantime
    /// would have made of it.
    #[test]
    fn durations_and_times_are_written_back_as_written() {
        let text = "first_deadline = \"2026-12-01 18:00:00Z\"\nevery = \"1week 2 days\"\nlate = \"hold\"\nremind = \"720min\"\ngrace = \"2h\"\n";
        let s: Schedule = toml::from_str(text).expect("a schedule");
        assert_eq!(s.every(), Duration::from_secs(9 * 86_400));
        assert_eq!(s.remind(), Some(Duration::from_secs(12 * 3600)));
        assert_eq!(s.grace(), Some(Duration::from_secs(2 * 3600)));
        assert_eq!(toml::to_string(&s).expect("written"), text);
    }

    /// "deadlines on a weekday mask (`skip = [\"sat\", \"sun\"]`)": a deadline
    /// that falls on a skipped day is put off to the next day not skipped, at the same
    /// time; the turns after it keep their own days; a moved deadline stands.
    #[test]
    fn deadlines_are_put_off_past_skipped_weekdays() {
        // 2026-12-04 is a Friday.
        let mut s = schedule("1day");
        s.first_deadline = "2026-12-04T18:00:00Z".parse().expect("a time");
        s.skip = vec!["sat".into(), "Sunday".into()];
        s.validate().expect("valid");
        let at = |s: &Schedule, t: u32| stamp(s.deadline(t).expect("deadline"));
        assert_eq!(at(&s, 1), "2026-12-04T18:00:00Z", "Friday stands");
        assert_eq!(
            at(&s, 2),
            "2026-12-07T18:00:00Z",
            "Saturday is put off to Monday"
        );
        assert_eq!(at(&s, 3), "2026-12-07T18:00:00Z", "so is Sunday");
        assert_eq!(at(&s, 4), "2026-12-07T18:00:00Z", "Monday");
        assert_eq!(at(&s, 5), "2026-12-08T18:00:00Z");
        s.move_deadline(
            2,
            humantime::parse_rfc3339("2026-12-05T12:00:00Z").expect("t"),
        )
        .expect("moved");
        assert_eq!(
            at(&s, 2),
            "2026-12-05T12:00:00Z",
            "the GM's Saturday stands"
        );
        assert_eq!(
            at(&s, 3),
            "2026-12-07T12:00:00Z",
            "the day after it is put off"
        );
        for bad in [
            vec!["caturday"],
            vec!["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
        ] {
            s.skip = bad.iter().map(|d| d.to_string()).collect();
            assert_eq!(s.validate().expect_err("refused").key, "skip");
        }
    }

    #[test]
    fn absurd_durations_are_refused_naming_the_key_not_a_panic() {
        for every in [
            "500000000000years",
            "1000000000years",
            "2years",
            "0s",
            "soon",
        ] {
            let e = read(every).expect_err(every);
            assert!(e.message().starts_with("[schedule] every = "), "{e}");
            let e = every.parse::<Length<Every>>().expect_err(every);
            assert_eq!(e.key, "every", "{every}");
        }
        assert!(schedule("7days").validate().is_ok());
        let e = "99999999999999999999years"
            .parse::<Length<Remind>>()
            .expect_err("remind");
        assert_eq!(e.key, "remind");
        let mut s = schedule("7days");
        s.late = "keep".into();
        assert_eq!(s.validate().expect_err("late").key, "late");
        s.late = "hold".into();
        s.moved.insert("0".into(), "2026-12-01T18:00:00Z".into());
        assert_eq!(s.validate().expect_err("moved").key, "moved.0");
    }

    #[test]
    fn deadlines_follow_on_from_a_moved_one() {
        let mut s = schedule("7days");
        let at =
            |t| humantime::format_rfc3339_seconds(s.deadline(t).expect("deadline")).to_string();
        assert_eq!(at(1), "2026-12-01T18:00:00Z");
        assert_eq!(at(3), "2026-12-15T18:00:00Z");
        s.move_deadline(
            2,
            humantime::parse_rfc3339("2026-12-09T18:00:00Z").expect("time"),
        )
        .expect("in range");
        let at =
            |t| humantime::format_rfc3339_seconds(s.deadline(t).expect("deadline")).to_string();
        assert_eq!(at(1), "2026-12-01T18:00:00Z");
        assert_eq!(at(2), "2026-12-09T18:00:00Z");
        assert_eq!(at(3), "2026-12-16T18:00:00Z");
    }

    /// A deadline out of range is an error naming its key, whatever
    /// the turn or the time given; nothing overflows, and no time prints as a panic.
    #[test]
    fn deadlines_past_the_year_2999_are_errors_naming_the_key() {
        let s = schedule("366days");
        assert!(s.deadline(900).is_ok(), "900 years on is still in range");
        let e = s.deadline(u32::MAX).expect_err("out of range");
        assert_eq!(e.key, "first_deadline");
        assert!(
            e.why.contains("would fall after 2999-12-31T23:59:59Z"),
            "{e}"
        );
        let mut s = schedule("7days");
        let far = UNIX_EPOCH + Duration::from_secs(253_402_300_800);
        assert_eq!(s.move_deadline(2, far).expect_err("far").key, "moved.2");
        assert_eq!(
            s.move_deadline(2, UNIX_EPOCH).expect_err("1970").key,
            "moved.2"
        );
        assert!(
            s.moved.is_empty(),
            "a refused move leaves the schedule alone"
        );
        let e = "9999-12-31T23:59:59Z"
            .parse::<FirstDeadline>()
            .expect_err("far first deadline");
        assert_eq!(e.key, "first_deadline");
        assert!(e.why.starts_with("too late"), "{e}");
        assert_eq!(stamp(far), "a time after the year 9999");
        assert_eq!(
            shown(UNIX_EPOCH - Duration::from_secs(1)),
            "a time before 1970"
        );
        assert_eq!(
            shown(UNIX_EPOCH + Duration::from_secs(EARLIEST_SECS)),
            "2000-01-01 at 00:00:00 UTC"
        );
        assert_eq!(stamp(UNIX_EPOCH + Duration::from_secs(LATEST_SECS)), LATEST);
    }
}
