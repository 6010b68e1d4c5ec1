//! One pass over a folder of games under one address (`judge turn --all GAMES`,
//! docs/gm-guide.md, "Many games, one address"): the shared mailbox is read once, each
//! mail is routed to its game ([`super::route`]) and filed there by the game's own
//! intake, under the game's lock, and then each game takes its turn step as `judge
//! turn` would. Mail for no game is logged in `mailroom/` and, from a player, answered
//! there with their games.
//!
//! Nothing is lost or filed twice however passes overlap or stop: a pass holds the
//! mailroom's lock; a mail is marked done (logged in the mailroom, or seen on the IMAP
//! server) only after its game filed it, and a game files a mail it already has as a
//! duplicate. A game that cannot be read or is busy is reported and skipped, its mail
//! left for the next pass; it never stops the others.

use std::collections::BTreeSet;
use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::error::Error;
use super::game::Game;
use super::intake;
use super::rate;
use super::route::{self, Entry, Route};
use super::sources::{self, Delivered, Mail};
use super::turn::{self, Done};
use crate::archive::house::House;
use crate::archive::lock::GameLock;
use crate::archive::{Archive, ArchiveError};
use crate::mail::inbound::{self, MAX_BYTES};
use crate::mail::outbox::{self, Outgoing};

/// The mailroom's log: one line per mail read from the shared mailbox.
pub const LOG_FILE: &str = "log.jsonl";

/// What became of a mail of the shared mailbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    /// The SHA-256 of its bytes: how it is known when read again.
    pub digest: String,
    /// The sender's address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// `game` (filed by the game `to`), `not-your-game`, `which-game`, `stranger`.
    pub route: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// When the pass handled it (RFC 3339): what the limits on answers count by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handled: Option<String>,
    /// The mailroom answered it (mail for no game of the sender's, within the limits
    /// of [`super::rate`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub answered: bool,
}

/// One game's part of a pass.
#[derive(Debug)]
pub struct GameRun {
    pub dir: PathBuf,
    /// The game's name, or its folder's when it could not be read.
    pub name: String,
    /// What the game's turn step said.
    pub lines: Vec<String>,
    /// How its step ended: played, not due, …, or why it was skipped.
    pub result: Result<Done, Error>,
    /// When the game next has something to do by the clock: a reminder, a deadline
    /// (`judge serve` sleeps until the first of them).
    pub wake: Option<SystemTime>,
    /// Passed over: idle since the pass before, with no mail now ([`run_busy`]).
    pub idle: bool,
}

/// What a pass did.
#[derive(Debug, Default)]
pub struct Pass {
    /// The mailroom's lines: mail for no game, and what could not be read.
    pub lines: Vec<String>,
    pub games: Vec<GameRun>,
    /// More mail waits in the shared mailbox than one pass holds ([`PASS_BYTES`]).
    pub more: bool,
    /// When `more`: the delivery time of the oldest mail left unread, as the mailbox
    /// tells it (`None` when it does not: then any mail may be left). No game plays a
    /// turn due by a deadline not before it in this pass.
    pub unread_since: Option<SystemTime>,
    /// How many mails this pass marked done: a pass that marked none (their games are
    /// busy) is not followed at once by another that would read the same mail again.
    pub marked: usize,
    /// The shared mailbox's server could not be read (down, silent, dropped): why. The
    /// games were stepped all the same (their answers, reminders and outboxes go), every
    /// due turn held, as mail sent on time may wait there.
    pub down: Option<String>,
}

/// How a pass runs.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub turn: turn::Options,
    /// How long to wait for a game (or the mailroom) another command holds.
    pub wait: Duration,
    /// Commit each game that changed (`judge turn --commit`).
    pub commit: bool,
    /// How much mail one pass holds at most ([`PASS_BYTES`]).
    pub budget: usize,
}

/// A game to play in a pass, with the mail routed to it and the time from which mail
/// that may be its waits unread ([`turn::InFolder::unread_since`]). Taken by the thread
/// that plays it.
type Job<'a> =
    std::sync::Mutex<Option<((&'a Archive, &'a dyn Game), Vec<Read>, Option<SystemTime>)>>;

/// A mail of the shared mailbox and how to mark it done.
struct Read {
    mail: Mail,
    digest: String,
    uid: Option<u32>,
    /// What reading it to route it gave, for its game to file: a mail is read once
    /// a pass.
    prior: Option<intake::Prior>,
}

/// The mailroom's mark of the mail being read to route it: its digest and how many
/// passes began reading it. As a game's `mail/reading` ([`intake`]): a pass that stops
/// while reading a mail (killed, out of memory) leaves it, and once two passes stopped
/// so, the mail is not read again and its game refuses it unread, so that one mail
/// cannot stop every pass of the folder for ever.
const READING: &str = "reading";

/// After this many passes stopped while reading one mail, it is not read again.
const STOPPED_PASSES: u32 = 2;

/// How many passes stopped while reading the mail of `digest`.
fn stopped_reading(room: &Path, digest: &str) -> u32 {
    fs::read_to_string(room.join(READING))
        .ok()
        .and_then(|t| {
            let (d, n) = t.trim().split_once(' ')?;
            (d == digest).then(|| n.parse::<u32>().ok()).flatten()
        })
        .unwrap_or(0)
}

/// The mailroom as a place mail is sent from.
pub struct Mailroom<'a> {
    house: &'a House,
    root: PathBuf,
}

impl<'a> Mailroom<'a> {
    pub fn new(house: &'a House) -> Mailroom<'a> {
        Mailroom {
            house,
            root: house.mailroom(),
        }
    }
}

impl outbox::Room for Mailroom<'_> {
    fn root(&self) -> &Path {
        &self.root
    }
    fn name(&self) -> String {
        crate::archive::house::MAILROOM_DIR.to_string()
    }
    fn mail(&self) -> Option<&crate::archive::MailSettings> {
        Some(&self.house.file.mail)
    }
    fn check_folders(&self) -> Result<(), ArchiveError> {
        Ok(())
    }
    fn no_link(&self, path: &Path) -> Result<(), ArchiveError> {
        match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => Err(ArchiveError::Link {
                path: path.to_path_buf(),
                target: fs::read_link(path).ok(),
            }),
            _ => Ok(()),
        }
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ArchiveError + '_ {
    move |source| ArchiveError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The lines the mailroom has logged.
fn logged(room: &Path) -> Result<Vec<LogLine>, ArchiveError> {
    let path = room.join(LOG_FILE);
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(&path)(e)),
    };
    // A line cut short by a stop mid-write is not a mail done: read again, it is filed
    // as a duplicate by its game and logged whole.
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str::<LogLine>(l).ok())
        .collect())
}

fn log(room: &Path, line: &LogLine) -> Result<(), ArchiveError> {
    let path = room.join(LOG_FILE);
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(io(&path))?;
    let mut text = serde_json::to_string(line).map_err(|e| ArchiveError::Unwritable {
        path: path.clone(),
        message: e.to_string(),
    })?;
    text.push('\n');
    f.write_all(text.as_bytes()).map_err(io(&path))?;
    f.sync_all().map_err(io(&path))
}

/// The new mail of the shared mailbox, oldest first.
/// At most this much mail is held in one pass (a flood of large mails costs no more
/// memory than this); what is left waits for the next pass, which follows at once.
pub const PASS_BYTES: usize = 64 * 1024 * 1024;

/// Mail left unread in the shared mailbox: the delivery time of the oldest, if the
/// mailbox tells it.
type Left = Option<Option<SystemTime>>;

/// The earlier of two times mail was left from; not known is the earliest.
fn earlier(a: Left, b: Option<SystemTime>) -> Left {
    Some(match a {
        None => b,
        Some(a) => a.zip(b).map(|(a, b)| a.min(b)),
    })
}

/// The new mail of the shared mailbox, oldest first, up to `budget` bytes (at least
/// one mail); and, when more waits, when the oldest of it was delivered.
fn read_mailbox(
    house: &House,
    done: &BTreeSet<String>,
    seen: &mut Vec<u32>,
    budget: usize,
    down: &mut Option<String>,
) -> Result<(Vec<Read>, Left), Error> {
    let settings = &house.file.mail;
    let mut mails = Vec::new();
    let mut held = 0;
    // The folder is one of the Maildir's readers: a game elsewhere that reads it too
    // learns so, and refuses to.
    if settings.maildir.is_some() {
        crate::archive::house::other_readers(house.root(), settings, true);
    }
    if let Some(dir) = &settings.maildir {
        let paths = sources::maildir(dir)?;
        for (i, path) in paths.iter().enumerate() {
            if held >= budget {
                // Oldest first: the first left is the oldest (or one already done,
                // delivered before the rest).
                return Ok((
                    mails,
                    Some(sources::maildir_delivered(&paths[i]).map(|d| d.at)),
                ));
            }
            let mail = sources::maildir_mail(path)?;
            let digest = intake::digest(&mail.raw);
            if !done.contains(&digest) {
                held += mail.raw.len();
                mails.push(Read {
                    mail,
                    digest,
                    uid: None,
                    prior: None,
                });
            }
        }
    }
    let mut left: Left = None;
    if let Some(path) = &settings.mbox {
        sources::mbox(path, |mail| {
            let digest = intake::digest(&mail.raw);
            if done.contains(&digest) {
                return Ok(());
            }
            if held >= budget {
                left = earlier(left, mail.delivered.map(|d| d.at));
                return Ok(());
            }
            held += mail.raw.len();
            mails.push(Read {
                mail,
                digest,
                uid: None,
                prior: None,
            });
            Ok(())
        })?;
    }
    if settings.imap_host.is_some() {
        let src = sources::imap(settings, None, None, None, None)?;
        let fetched =
            crate::mail::imap::fetch_unseen(&src, MAX_BYTES + 1, budget.saturating_sub(held))
                .map_err(Error::from);
        let (fetched, more, oldest) = match fetched {
            Ok(f) => f,
            // Any mail may wait there, the oldest too: no due turn is played.
            Err(Error::MailboxDown(why)) => {
                *down = Some(why);
                return Ok((mails, earlier(left, None)));
            }
            Err(e) => return Err(e),
        };
        if more {
            left = earlier(left, oldest);
        }
        for f in fetched {
            let digest = intake::digest(&f.raw);
            if done.contains(&digest) {
                // Logged, but not marked seen when the pass stopped: marked now.
                seen.push(f.uid);
                continue;
            }
            mails.push(Read {
                mail: Mail {
                    raw: f.raw,
                    label: format!("IMAP uid {}", f.uid),
                    delivered: f.delivered.map(|at| Delivered { at, by: "imap" }),
                },
                digest,
                uid: Some(f.uid),
                prior: None,
            });
        }
    }
    Ok((mails, left))
}

/// Where a mail of the shared mailbox goes.
#[derive(Debug)]
pub struct Routing {
    /// Its sender's address.
    pub from: Option<String>,
    pub route: Route,
    /// What reading it gave, for its game to file ([`Route::Game`] only): the pass
    /// reads a mail once.
    pub prior: Option<intake::Prior>,
}

/// Where a mail goes, read as much as a game reads it: its sender, subject and texts
/// (HTML only from a player, as a game reads it). With `read` false (its reading
/// stopped passes before) it is routed by its headers alone and not read: its game
/// refuses it unread.
pub fn route_mail(games: &[Entry], all_read: bool, judge: &str, raw: &[u8], read: bool) -> Routing {
    let Some(head) = inbound::read_headers(raw) else {
        return Routing {
            from: None,
            route: Route::Stranger,
            prior: None,
        };
    };
    // The judge's own mail (a copy to itself, a bounce of it) is no game's.
    if head
        .from
        .as_deref()
        .is_some_and(|f| f.eq_ignore_ascii_case(judge))
    {
        return Routing {
            from: head.from,
            route: Route::Stranger,
            prior: None,
        };
    }
    // The address that routes a mail: its sender's, or, from an address that plays in
    // no game here, the player's its X-Original-From or Reply-To names (a mailing list
    // that rewrites From:): the game it goes to decides whether the list is trusted and
    // answers only its player's own address.
    let by = |m: &inbound::Incoming| -> Option<String> {
        if !route::games_of(games, m.from.as_deref()).is_empty() {
            return m.from.clone();
        }
        [m.original_from.as_ref(), m.reply_to.as_ref()]
            .into_iter()
            .flatten()
            .find(|a| !route::games_of(games, Some(a.as_str())).is_empty())
            .cloned()
            .or_else(|| m.from.clone())
    };
    let head_by = by(&head);
    let html = if route::games_of(games, head_by.as_deref()).is_empty() {
        inbound::Html::Skip
    } else {
        inbound::Html::Read
    };
    // Too big or broken to read: the sender's only game says so, as it would.
    let by_headers = || route::route(games, all_read, head_by.as_deref(), &head.subject, []);
    // The sender is the one the route is decided by: the reading's, as the game
    // decides by it, else the headers' (the two may differ on an odd `From:`, found by
    // fuzzing the router).
    let (from, route, prior) = if read {
        let read = inbound::read_with(raw, html);
        let (from, route) = match &read {
            Ok(m) => (
                by(m),
                route::route(
                    games,
                    all_read,
                    by(m).as_deref(),
                    &m.subject,
                    m.parts.iter().map(|p| p.text.as_str()),
                ),
            ),
            Err(_) => (head_by.clone(), by_headers()),
        };
        (
            from,
            route,
            intake::Prior::Read {
                html,
                read: read.map(Box::new),
            },
        )
    } else {
        (head_by.clone(), by_headers(), intake::Prior::Stopped)
    };
    let own = from
        .as_deref()
        .is_some_and(|f| f.eq_ignore_ascii_case(judge));
    let route = if own { Route::Stranger } else { route };
    let prior = matches!(route, Route::Game(_)).then_some(prior);
    Routing { from, route, prior }
}

/// Run one pass over the folder. Errors of one game are its [`GameRun`]'s; an error
/// returned here stopped the pass before any game was changed (the mailroom's lock, or
/// the shared mailbox could not be read).
pub fn run(
    house: &House,
    registry: crate::registry::Games,
    now: SystemTime,
    opts: Options,
) -> Result<Pass, Error> {
    run_busy(house, registry, now, opts, &Idle::new())
}

/// Games known, from the pass before, to have nothing to do until a time (or at all,
/// `None`): `judge serve` passes them over while no mail comes for them and their time
/// has not come, so that a mail to one game of many costs one game's step.
pub type Idle = std::collections::BTreeMap<PathBuf, Option<SystemTime>>;

/// [`run`], passing over the `idle` games that get no mail and whose time has not
/// come: each is in the pass as [`GameRun::idle`], with its wake-up time as before.
pub fn run_busy(
    house: &House,
    registry: crate::registry::Games,
    now: SystemTime,
    opts: Options,
    idle: &Idle,
) -> Result<Pass, Error> {
    let room = house.mailroom();
    fs::create_dir_all(&room).map_err(io(&room))?;
    let _lock = GameLock::acquire(&room, "judge turn --all", opts.wait)
        .map_err(|e| Error::input(e.to_string()))?;
    let mut pass = Pass::default();

    // Every game of the folder; one that cannot be opened is reported and skipped.
    let mut open: Vec<(Archive, &'static dyn Game)> = Vec::new();
    for dir in house.games()? {
        match super::stage::open(registry, &dir) {
            Ok(g) => open.push(g),
            Err(e) => pass.games.push(GameRun {
                name: crate::archive::folder_name(&dir),
                dir,
                lines: Vec::new(),
                result: Err(e),
                wake: None,
                idle: false,
            }),
        }
    }
    let table: Vec<Entry> = open.iter().map(|(a, g)| Entry::of(a, *g)).collect();

    let mut history = logged(&room)?;
    let done: BTreeSet<String> = history.iter().map(|l| l.digest.clone()).collect();
    let mut seen: Vec<u32> = Vec::new();
    let mut routed: Vec<Vec<Read>> = (0..open.len()).map(|_| Vec::new()).collect();
    let mut elsewhere: Vec<(Read, Option<String>, Route)> = Vec::new();
    let judge = house
        .file
        .mail
        .from
        .parse::<lettre::message::Mailbox>()
        .map(|m| m.email.to_string())
        .unwrap_or_default();
    let (mails, left) = read_mailbox(house, &done, &mut seen, opts.budget, &mut pass.down)?;
    pass.more = left.is_some() && pass.down.is_none();
    pass.unread_since = left.flatten();
    // No game plays a turn due by a deadline not before the oldest mail left unread:
    // the mail a pass did not reach may be anybody's.
    let left = left.map(|at| at.unwrap_or(std::time::UNIX_EPOCH));
    let mut unread_since: Vec<Option<SystemTime>> = vec![left; open.len()];
    // A game that cannot be read leaves its players unknown: see `Route::Wait`.
    let all_read = pass.games.is_empty();
    let mut waiting = 0;
    let reading = room.join(READING);
    for mut r in mails {
        let stopped = stopped_reading(&room, &r.digest);
        if stopped < STOPPED_PASSES {
            // Not synced: one mark lost with the power costs a mail one more try.
            fs::write(&reading, format!("{} {}\n", r.digest, stopped + 1)).map_err(io(&reading))?;
        }
        let routing = route_mail(
            &table,
            all_read,
            &judge,
            &r.mail.raw,
            stopped < STOPPED_PASSES,
        );
        let _ = fs::remove_file(&reading);
        match routing.route {
            Route::Game(g) => {
                r.prior = routing.prior;
                routed[g].push(r);
            }
            Route::Wait => {
                waiting += 1;
                // It may be the orders of any game its sender plays in: their turns
                // wait for it as for mail not yet read.
                let at = r.mail.delivered.map_or(std::time::UNIX_EPOCH, |d| d.at);
                for g in route::games_of(&table, routing.from.as_deref()) {
                    unread_since[g] = Some(unread_since[g].map_or(at, |u| u.min(at)));
                }
            }
            other => elsewhere.push((r, routing.from, other)),
        }
    }
    if waiting > 0 {
        pass.lines.push(format!(
            "{} wait unread until every game of the folder can be read (a game's players are not known while it cannot)",
            crate::text::count(waiting, "mail")
        ));
    }

    // The games, each under its own lock, several at a time: they share nothing but
    // the mailroom's log, written here afterwards, in order.
    let mut jobs: Vec<Job> = Vec::new();
    for (((archive, game), mails), since) in open.iter().zip(routed).zip(unread_since) {
        let resting = idle
            .get(archive.root())
            .filter(|wake| mails.is_empty() && wake.is_none_or(|w| w > now));
        match resting {
            Some(wake) => pass.games.push(GameRun {
                dir: archive.root().to_path_buf(),
                name: archive.name(),
                lines: Vec::new(),
                result: Ok(Done::Over),
                wake: *wake,
                idle: true,
            }),
            None => jobs.push(std::sync::Mutex::new(Some((
                (archive, *game as &dyn Game),
                mails,
                since,
            )))),
        }
    }
    // Two per core: much of a game's step is waiting for the disk (each file the
    // judge writes is synced), which another game's work fills.
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .saturating_mul(2)
        .min(jobs.len())
        .max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done_games: Vec<Played> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else {
                            return mine;
                        };
                        let Some(((archive, game), mails, since)) =
                            job.lock().ok().and_then(|mut j| j.take())
                        else {
                            continue;
                        };
                        let (run, lines, uids) = play(archive, game, mails, since, now, opts);
                        mine.push((i, run, lines, uids));
                    }
                })
            })
            .collect();
        let mut all = Vec::new();
        for h in handles {
            match h.join() {
                Ok(mine) => all.extend(mine),
                // A fault in the judge, not in a game: said, never passed over.
                Err(_) => {
                    return Err(Error::Game(crate::error::GameError::internal(
                        "a thread of the pass stopped unexpectedly; the games it held are left for the next pass",
                    )));
                }
            }
        }
        Ok(all)
    })?;
    done_games.sort_by_key(|(i, ..)| *i);
    for (_, run, lines, uids) in done_games {
        for l in &lines {
            log(&room, l)?;
        }
        pass.marked += lines.len();
        seen.extend(uids);
        pass.games.push(run);
    }
    pass.games.sort_by(|a, b| a.dir.cmp(&b.dir));

    // Mail for no game: logged; a player's answered with their games.
    let mailroom = Mailroom::new(house);
    for (r, from, route) in elsewhere {
        let (kind, answer) = match &route {
            Route::Stranger => ("stranger", None),
            Route::NotYourGame { named, yours } => (
                "not-your-game",
                Some((
                    format!("names the game `{named}`, which you do not play in here"),
                    format!("Your mail is for {named}, a game you do not play in"),
                    yours.clone(),
                )),
            ),
            Route::WhichGame { yours } => (
                "which-game",
                Some((
                    "names no game, and you play in more than one here".to_string(),
                    "Which game is your mail for?".to_string(),
                    yours.clone(),
                )),
            ),
            Route::Games { yours } => (
                "games",
                Some((
                    "asks for your games".to_string(),
                    "Your games".to_string(),
                    yours.clone(),
                )),
            ),
            Route::Game(_) | Route::Wait => ("game", None),
        };
        let who = from.as_deref().unwrap_or("an unknown sender");
        let own = from
            .as_deref()
            .is_some_and(|f| f.eq_ignore_ascii_case(&judge));
        let kind = if own { "own" } else { kind };
        // The limits a game keeps hold here too: to one address, a
        // few answers an hour to mail for no game, then a note a day; `games` for so
        // many mails an hour.
        let mine = |l: &&LogLine| {
            l.from
                .as_deref()
                .zip(from.as_deref())
                .is_some_and(|(a, b)| a.eq_ignore_ascii_case(b))
        };
        let limit = match &answer {
            _ if own => Limit::Answer,
            None => Limit::Answer,
            Some(_) if kind == "games" => {
                let n = rate::within_hour(
                    history
                        .iter()
                        .filter(mine)
                        .filter(|l| l.route == "games")
                        .map(|l| l.handled.as_deref()),
                    now,
                );
                if rate::commands_allowed(n) {
                    Limit::Answer
                } else {
                    Limit::Silent(format!(
                        "{} mails asking for games came from this address within the hour",
                        rate::COMMAND_MAILS_PER_HOUR
                    ))
                }
            }
            Some(_) => {
                let n = rate::within_hour(
                    history
                        .iter()
                        .filter(mine)
                        .filter(|l| l.answered && l.route != "games")
                        .map(|l| l.handled.as_deref()),
                    now,
                );
                let who = crate::archive::content_id(
                    from.as_deref()
                        .unwrap_or_default()
                        .to_ascii_lowercase()
                        .as_bytes(),
                );
                match rate::refusal(n, now, &who) {
                    rate::Refusal::Answer => Limit::Answer,
                    rate::Refusal::Withhold { note_key } => Limit::Note(note_key),
                }
            }
        };
        let mut answered = false;
        match answer {
            // The judge's own mail (its copy of a report, a bounce): logged, no line.
            _ if own => {}
            Some((why, _, _)) if !matches!(limit, Limit::Answer) => {
                let reason = match &limit {
                    Limit::Silent(reason) => reason.clone(),
                    _ => format!(
                        "{} answers went to this address within the hour",
                        rate::REFUSALS_PER_HOUR
                    ),
                };
                if let Limit::Note(key) = &limit {
                    let m = Outgoing {
                        key: key.clone(),
                        to_name: String::new(),
                        to: from.clone().unwrap_or_default(),
                        subject: "more of your mails to the judge were not answered one by one".into(),
                        body: format!(
                            "More than {n} mails from your address to the judge named no game of yours within an hour. The judge answers at most {n} of them an hour to one address, and this note at most once a day; the GM sees every mail.\n\nIf you did not send them, someone is sending mail in your name: nothing of it was filed in any game.\n\nA mail for one of your games names it on a line of its own, at the top of your orders or commands (`game NAME`); the command `games` lists them.\n",
                            n = rate::REFUSALS_PER_HOUR
                        ),
                        in_reply_to: None,
                        attachment: None,
                    };
                    outbox::queue_unless_unaddressable(&mailroom, &m)?;
                }
                pass.lines.push(format!(
                    "{}: from {who}, {why}: not answered: {reason}",
                    r.mail.label,
                    who = from.as_deref().unwrap_or("an unknown sender")
                ));
            }
            Some((why, subject, yours)) => {
                answered = true;
                let player = yours.iter().find_map(|g| {
                    open[*g]
                        .0
                        .game
                        .players
                        .iter()
                        .find(|p| from.as_deref().is_some_and(|f| p.email.eq_ignore_ascii_case(f)))
                });
                let list: Vec<String> = yours
                    .iter()
                    .map(|g| format!("  game {:<16} {}", table[*g].name, table[*g].about))
                    .collect();
                let example = yours
                    .first()
                    .map_or("game NAME".to_string(), |g| format!("game {}", table[*g].name));
                let body = if matches!(route, Route::Games { .. }) {
                    format!(
                        "Your games at this address:\n\n{}\n\nA mail for one of them names it on a line of its own, at the top of your orders or commands:\n\n{example}\n",
                        list.join("\n"),
                    )
                } else {
                    format!(
                        "Your mail to the judge {why}, so nothing from it was filed in any game.\n\nYou play in:\n{}\n\nWrite the game's line at the top of your orders, then send them again. For example:\n\n{example}\n",
                        list.join("\n"),
                    )
                };
                let m = Outgoing {
                    key: format!("route-{}", &r.digest[..16]),
                    to_name: player.map(|p| p.name.clone()).unwrap_or_default(),
                    to: from.clone().unwrap_or_default(),
                    subject,
                    body,
                    in_reply_to: None,
                    attachment: None,
                };
                outbox::queue_unless_unaddressable(&mailroom, &m)?;
                pass.lines.push(format!(
                    "{}: from {who}, {why}: answered with their games",
                    r.mail.label
                ));
            }
            None => pass.lines.push(format!(
                "{}: from {who}, who plays in no game here: kept in the mailroom's log, not answered",
                r.mail.label
            )),
        }
        if let Some(uid) = r.uid {
            seen.push(uid);
        }
        // Logged for IMAP too: the mailroom keeps a line for every mail it handled.
        pass.marked += 1;
        log(
            &room,
            &LogLine {
                digest: r.digest.clone(),
                from: from.clone(),
                route: kind.into(),
                to: None,
                handled: Some(stamp(now)),
                answered,
            },
        )?;
        history.push(LogLine {
            digest: r.digest,
            from,
            route: kind.into(),
            to: None,
            handled: Some(stamp(now)),
            answered,
        });
    }
    if !seen.is_empty()
        && let Ok(src) = sources::imap(&house.file.mail, None, None, None, None)
    {
        crate::mail::imap::mark_seen(&src, &seen).map_err(Error::from)?;
    }
    Ok(pass)
}

/// What the mailroom may send an address for a mail for no game of theirs.
enum Limit {
    Answer,
    /// Not answered, and the note of the day under this key.
    Note(String),
    /// Not answered, for this reason.
    Silent(String),
}

/// A time as the mailroom's log keeps it.
fn stamp(at: SystemTime) -> String {
    humantime::format_rfc3339_seconds(at).to_string()
}

/// When a game waiting for `deadline` next acts by the clock: its reminder, if that is
/// still to come, else the deadline.
fn wake_for(archive: &Archive, deadline: SystemTime, now: SystemTime) -> SystemTime {
    archive
        .game
        .schedule
        .as_ref()
        .and_then(|s| s.remind())
        .and_then(|before| deadline.checked_sub(before))
        .filter(|at| *at > now)
        .unwrap_or(deadline)
}

/// A game's place in the pass, its run, the log lines of the mail it filed, their UIDs.
type Played = (usize, GameRun, Vec<LogLine>, Vec<u32>);

/// One game's part of a pass, under its lock: its mail filed, its turn step taken.
/// Returns the run, the mailroom's log lines of the mail it filed, and their IMAP UIDs.
fn play(
    archive: &Archive,
    game: &dyn Game,
    mails: Vec<Read>,
    unread_since: Option<SystemTime>,
    now: SystemTime,
    opts: Options,
) -> (GameRun, Vec<LogLine>, Vec<u32>) {
    let name = archive.name();
    let mut run = GameRun {
        dir: archive.root().to_path_buf(),
        name: name.clone(),
        lines: Vec::new(),
        result: Ok(Done::Over),
        wake: None,
        idle: false,
    };
    let mut logged = Vec::new();
    let mut uids = Vec::new();
    run.result = match GameLock::acquire(archive.root(), "judge turn --all", opts.wait) {
        Err(e) => Err(Error::input(format!(
            "{e}; {} wait for the next pass",
            crate::text::count(mails.len(), "mail")
        ))),
        Ok(_lock) => {
            let mut done = Vec::new();
            let mut routed = Vec::new();
            for r in mails {
                done.push(LogLine {
                    digest: r.digest,
                    from: inbound::read_headers(&r.mail.raw).and_then(|h| h.from),
                    route: "game".into(),
                    to: Some(name.clone()),
                    handled: Some(stamp(now)),
                    answered: false,
                });
                uids.extend(r.uid);
                routed.push((r.mail, r.prior));
            }
            let folder = turn::InFolder {
                routed,
                unread_since,
            };
            let result = turn::run_in_folder(archive, game, now, opts.turn, folder, &mut run.lines);
            if result.is_ok() {
                logged = done;
            } else {
                uids.clear();
            }
            match result {
                Ok(done) if opts.commit => {
                    let message = super::commit::message(
                        archive,
                        match done {
                            Done::Played(t) => Some(t),
                            _ => None,
                        },
                    );
                    super::commit::commit(archive, &message).map(|_| done)
                }
                other => other,
            }
        }
    };
    if let Ok(Done::NotDue { deadline, .. }) = &run.result {
        run.wake = Some(wake_for(archive, *deadline, now));
    }
    (run, logged, uids)
}
