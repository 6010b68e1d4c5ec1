//! A game open for sign-up (`judge new --open`, docs/mail-commands.md "Sign-up"): it is
//! made with free seats (seats without an address in game.toml) and no turn 0.
//!
//! `join GAME as NAME` by mail takes no seat: the judge mails the address a code
//! ([`ask`]), as list servers do, and the seat is taken when a mail from that address
//! carries the code back, `confirm GAME CODE` ([`confirm`]): so a seat goes only to an
//! address that reads its mail. The code is kept only as a salted hash, out of git
//! ([`SIGNUP_FILE`]), and runs out ([`CODE_LIFE`]). An address the game does not know is
//! answered at most once a day about sign-up, in the judge's own words (never the
//! mail's), and one nobody can have asked from (the judge's own, a mail server's, a
//! no-reply address) never; a name that would pass for someone else's, or hides what it
//! is, is refused with its reason ([`name_refused`]). The seat is the next free one,
//! under the game's lock, read again from the disk: a seat is never taken twice. When
//! the last is taken, turn 0 is made from the scenario and the game's seeds, with every
//! player's name, and every player is mailed the game as it begins.

use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::error::Error;
use super::game::{Game, RoundGuide, SeatRequest, Seeds, Start};
pub use super::stage::{Unstarted, plain_header, started};
use crate::archive::{Archive, PUBLIC_FILE, SCENARIO_FILE, STATE_FILE, atomic};

/// The files that begin a game, under its folder: turn 0's state (and public record),
/// or the first step of its round by mail. With the round's first chooser and guide.
pub struct Beginning {
    pub files: Vec<(String, Vec<u8>)>,
    pub round: Option<(String, RoundGuide)>,
}

/// What `game.start` made, as the files a game begins with.
pub fn beginning(game: &dyn Game, start: &Start, now: SystemTime) -> Result<Beginning, Error> {
    Ok(match start {
        Start::Ready(state) => {
            let mut files = vec![(
                format!("turns/000/{STATE_FILE}"),
                state.clone().into_bytes(),
            )];
            let position = game.position(state).map_err(Error::from)?;
            if let Some(public) = position.public_record() {
                files.push((format!("turns/000/{PUBLIC_FILE}"), public.into_bytes()));
            }
            Beginning { files, round: None }
        }
        Start::Round(round) => {
            let r = game.round(round).map_err(Error::from)?;
            Beginning {
                files: super::round::start_files(round, now)?,
                round: r.next().map(|first| (first, r.guide())),
            }
        }
    })
}

/// Begin an open game whose seats are all taken: turn 0 from its scenario and seeds,
/// with the players game.toml names. Written beside the game and moved into place in
/// one step, so that a game is begun whole or not at all.
pub fn begin(archive: &Archive, game: &dyn Game, now: SystemTime) -> Result<(), Error> {
    let scenario = std::fs::read_to_string(archive.root().join(SCENARIO_FILE))
        .map_err(|e| Error::input(format!("{SCENARIO_FILE}: {e}")))?;
    let seats: Vec<SeatRequest> = archive
        .game
        .players
        .iter()
        .map(|p| SeatRequest {
            name: p.name.clone(),
            email: p.email.clone(),
        })
        .collect();
    let seeds: Seeds = archive.seeds()?;
    let created = game
        .start(SCENARIO_FILE, &scenario, &archive.name(), &seats, &seeds)
        .map_err(Error::from)?;
    let b = beginning(game, &created.start, now)?;
    let stage = archive.root().join(".beginning");
    let _ = std::fs::remove_dir_all(&stage);
    let mut top = None;
    for (name, bytes) in &b.files {
        atomic::write_file(&stage.join(name), bytes)?;
        top = name.split('/').next().map(str::to_string);
    }
    let Some(top) = top else {
        return Err(Error::input("the game's start made no files"));
    };
    let to = archive.root().join(&top);
    std::fs::rename(stage.join(&top), &to).map_err(|source| crate::archive::ArchiveError::Io {
        path: to.clone(),
        source,
    })?;
    let _ = std::fs::remove_dir_all(&stage);
    Ok(())
}

/// Where a game keeps the sign-ups that wait for their confirmation, and the codes
/// answered: under `mail/`, which git never keeps and the site
/// never shows. An entry holds a salted SHA-256 of its code, never the code.
pub const SIGNUP_FILE: &str = "mail/signup.json";

/// How long a confirm code works.
pub const CODE_LIFE: Duration = Duration::from_secs(3 * 24 * 3600);

/// How long a code is remembered after it stops working (so that a late confirm is
/// answered that it ran out), and how many sign-ups a game remembers at most (the
/// oldest are forgotten first).
const REMEMBERED: Duration = Duration::from_secs(30 * 24 * 3600);
const REMEMBERED_AT_MOST: usize = 200;

/// One `join` answered with a code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Asked {
    /// The address the code was mailed to, lower case.
    address: String,
    /// The name asked for.
    name: String,
    /// A random salt and SHA-256(salt, code), in hex.
    salt: String,
    hash: String,
    /// When the code stops working (RFC 3339).
    until: String,
    /// It took a seat, or was answered: it works no more.
    #[serde(default)]
    used: bool,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Book {
    asked: Vec<Asked>,
}

impl Book {
    /// The game's book of sign-ups; empty if there is none (or it does not read: what
    /// waits in it is only ever a few days' work to ask again).
    fn read(archive: &Archive) -> Book {
        std::fs::read_to_string(archive.root().join(SIGNUP_FILE))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// Written back, without what is older than [`REMEMBERED`] and beyond
    /// [`REMEMBERED_AT_MOST`].
    fn write(mut self, archive: &Archive, now: SystemTime) -> Result<(), Error> {
        let forget = now.checked_sub(REMEMBERED);
        self.asked.retain(|a| {
            let until = humantime::parse_rfc3339_weak(&a.until).ok();
            forget.is_none_or(|f| until.is_some_and(|u| u > f))
        });
        let over = self.asked.len().saturating_sub(REMEMBERED_AT_MOST);
        self.asked.drain(..over);
        let text =
            serde_json::to_string_pretty(&self).map_err(|e| Error::input(e.to_string()))? + "\n";
        atomic::write_file(&archive.root().join(SIGNUP_FILE), text.as_bytes())?;
        Ok(())
    }
}

/// A code as written, in the one form it is kept in: its letters and digits, lower
/// case (`ABCD EFGH JKMN` is `abcd-efgh-jkmn`).
fn canonical(code: &str) -> String {
    code.chars()
        .filter_map(crate::text::plain)
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn code_hash(salt: &str, code: &str) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(salt.as_bytes());
    h.update(canonical(code).as_bytes());
    crate::luck::hex(h.finalize().as_slice())
}

/// Why the judge answers nothing at all to this address: it is not
/// one a person can have written from — the judge's own, a mail server's, a no-reply
/// address — so a `join` "from" it is forged or a bounce.
fn cannot_ask(archive: &Archive, address: &str) -> Option<&'static str> {
    let a = address.trim().to_ascii_lowercase();
    if a.is_empty() || crate::archive::check_address(&a).is_err() {
        return Some("not an address the judge can mail");
    }
    let local: String = a
        .split('@')
        .next()
        .unwrap_or("")
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    if local == "mailerdaemon" || local == "postmaster" {
        return Some("a mail server's own address");
    }
    if local.starts_with("noreply") || local.starts_with("donotreply") || local == "bounces" {
        return Some("a no-reply address");
    }
    let own = archive.mail().map(|m| {
        let from = m.from.trim();
        from.rsplit_once('<')
            .map_or(from, |(_, r)| r.trim_end_matches('>'))
            .trim()
            .to_ascii_lowercase()
    });
    if own.as_deref() == Some(a.as_str()) {
        return Some("the judge's own address");
    }
    None
}

/// Words a player's name may not stand for, whatever the game: the judge's own
/// (press without a name is signed `anonymous`; `all` and `everyone` are press's
/// readers; `free` is how a seat nobody took is shown).
const RESERVED: &[&str] = &[
    "anonymous",
    "anon",
    "all",
    "everyone",
    "free",
    "gm",
    "the gm",
    "judge",
    "the judge",
    "admin",
    "moderator",
    "nobody",
    "postmaster",
    "mailer-daemon",
];

/// A name as it looks: its UTS #39 skeleton, in lower case, letters and digits only.
/// Two names with the same look alike (`Ann`, `ANN`, `A n n`, `Аnn` with a Cyrillic А).
fn look(name: &str) -> String {
    let once: String = unicode_security::skeleton(name)
        .collect::<String>()
        .to_lowercase();
    unicode_security::skeleton(&once)
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// Does the character show nothing (zero-width, a joiner, a bidi control)? Such
/// characters have an empty skeleton.
fn invisible(c: char) -> bool {
    let mut buf = [0u8; 4];
    unicode_security::skeleton(c.encode_utf8(&mut buf))
        .next()
        .is_none()
}

/// Why `name` may not be taken in `archive`'s game, if it may not:
/// it would pass for someone else — another player, the GM, a seat, the judge's own
/// words — or hide what it is (invisible characters, bidi controls, line separators,
/// letters of two scripts) or look like a secret. Said without quoting the name.
pub fn name_refused(archive: &Archive, name: &str) -> Option<String> {
    use unicode_security::{GeneralSecurityProfile, MixedScript};
    const HOW: &str = "a name is letters and digits, with spaces, `-`, `'` and `.` between them";
    let name = name.trim();
    if name.is_empty() {
        return Some(format!("the name is empty: {HOW}"));
    }
    for c in name.chars() {
        let fits = matches!(c, ' ' | '-' | '\'' | '.' | '\u{2019}')
            || (c.identifier_allowed() && !invisible(c));
        if !fits {
            return Some(if c.is_ascii_graphic() {
                format!("the name holds `{c}`: {HOW}")
            } else {
                format!(
                    "the name holds U+{:04X}, a character that is invisible, moves text, breaks the line or is no letter: {HOW}",
                    u32::from(c)
                )
            });
        }
    }
    let looks = look(name);
    if looks.is_empty() {
        return Some(format!("the name has no letter or digit: {HOW}"));
    }
    for p in archive.game.players.iter().filter(|p| !p.is_free()) {
        if look(&p.name) == looks {
            return Some(format!(
                "the name is, or looks like, another player's ({}'s)",
                p.id
            ));
        }
    }
    if let Some(gm) = &archive.game.gm
        && look(&gm.name) == looks
    {
        return Some("the name is, or looks like, the GM's".into());
    }
    if let Some(p) = archive.game.players.iter().find(|p| look(&p.id) == looks) {
        return Some(format!(
            "the name is, or looks like, the name of a seat ({})",
            p.id
        ));
    }
    if let Some(w) = RESERVED.iter().find(|w| look(w) == looks) {
        return Some(format!(
            "the name is, or looks like, `{w}`, which the judge uses in its own words"
        ));
    }
    if !name.is_single_script() {
        return Some(
            "the name mixes the letters of two scripts, as a Cyrillic `А` among Latin letters would: one may pass for another".into(),
        );
    }
    if !crate::mail::redact::candidates([name]).is_empty() {
        return Some(
            "the name looks like a secret, and a name is shown to every player: never write a secret in it".into(),
        );
    }
    None
}

/// What a `join` or `confirm` did: the line for the log, and the seat taken.
#[derive(Debug, Default)]
pub struct Said {
    pub log: String,
    pub seat: Option<String>,
}

/// The key of the one answer an address may get from the game in a day about
/// sign-up, unless it proves it asked: a second answer that day
/// finds it in the outbox and is not sent.
fn daily_key(address: &str, now: SystemTime) -> String {
    let day: String = humantime::format_rfc3339_seconds(now)
        .to_string()
        .chars()
        .take(10)
        .collect();
    format!(
        "signup-{}-{day}",
        crate::archive::content_id(address.trim().to_ascii_lowercase().as_bytes())
    )
}

/// Queue an answer to an address the game does not know, in the judge's own words
/// alone, at most once a day. Whether it was queued.
fn answer_stranger(
    archive: &Archive,
    address: &str,
    now: SystemTime,
    subject: &str,
    body: String,
) -> Result<bool, Error> {
    let key = daily_key(address, now);
    if crate::mail::outbox::known(archive, &key) {
        return Ok(false);
    }
    Ok(crate::mail::outbox::queue_unless_unaddressable(
        archive,
        &crate::mail::outbox::Outgoing {
            key,
            to_name: String::new(),
            to: address.trim().to_string(),
            subject: format!("[{}] {subject}", archive.name()),
            body,
            in_reply_to: None,
            attachment: None,
        },
    )?)
}

/// An answer to an address that proved it asked (it sent back the code mailed to it):
/// once for each code.
fn answer_proven(
    archive: &Archive,
    asked: &Asked,
    subject: &str,
    body: String,
) -> Result<(), Error> {
    crate::mail::outbox::queue_unless_unaddressable(
        archive,
        &crate::mail::outbox::Outgoing {
            key: format!(
                "signup-{}-{}",
                crate::archive::content_id(asked.address.as_bytes()),
                &asked.hash[..16.min(asked.hash.len())]
            ),
            to_name: asked.name.clone(),
            to: asked.address.clone(),
            subject: format!("[{}] {subject}", archive.name()),
            body,
            in_reply_to: None,
            attachment: None,
        },
    )?;
    Ok(())
}

/// Why a game takes no sign-up now, if it does not.
fn closed(archive: &Archive, wanted: &str) -> Option<String> {
    let here = archive.name();
    if !wanted.eq_ignore_ascii_case(&here) {
        return Some(format!(
            "this is the judge of {here}, and the game your line names is not one of its"
        ));
    }
    if started(archive) {
        return Some(format!("{here} has begun, with every seat it has taken"));
    }
    if archive.game.free_seats().is_empty() {
        return Some(format!(
            "{here} is full: it has no free seat (ask its GM whether another game is open)"
        ));
    }
    None
}

/// `join GAME as NAME` from an address the game does not know: no
/// seat yet. The address is mailed a code, good for [`CODE_LIFE`], and the seat
/// is taken when a mail from there carries the code back ([`confirm`]). The answer — the
/// code, or why none — is in the judge's words alone, never the mail's, and goes to an
/// address at most once a day; an address nobody can have asked from gets none.
pub fn ask(
    ctx: &super::sender::Ctx<'_>,
    address: &str,
    wanted: &str,
    name: &str,
) -> Result<Said, Error> {
    let said = |log: String| Ok(Said { log, seat: None });
    if let Some(why) = cannot_ask(ctx.archive, address) {
        return said(format!("join: not answered ({why})"));
    }
    let fresh = Archive::open(ctx.archive.root())?;
    let here = fresh.name();
    let refused = closed(&fresh, wanted)
        .map(|why| ("closed", why))
        .or_else(|| name_refused(&fresh, name).map(|why| ("the name", why)));
    if let Some((what, why)) = refused {
        let body = format!(
            "Someone, perhaps you, asked the judge of {here} from this address for a seat. It was not taken: {why}.\n\nNothing was done. If it was you, see the game's announcement for how to join; if not, ignore this mail: the judge writes to this address about it at most once a day.\n"
        );
        let sent = answer_stranger(&fresh, address, ctx.now, "sign-up: not taken", body)?;
        return said(format!(
            "join: refused ({what}), {}",
            if sent {
                "answered"
            } else {
                "not answered (answered today)"
            }
        ));
    }
    let key = daily_key(address, ctx.now);
    if crate::mail::outbox::known(&fresh, &key) {
        return said("join: not answered (answered today)".into());
    }
    let code = crate::mail::secret::generate();
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| Error::input(format!("no random salt: {e}")))?;
    let salt = crate::luck::hex(&salt);
    let until = ctx.now + CODE_LIFE;
    let asked = Asked {
        address: address.trim().to_ascii_lowercase(),
        name: name.trim().to_string(),
        hash: code_hash(&salt, &code),
        salt,
        until: humantime::format_rfc3339_seconds(until).to_string(),
        used: false,
    };
    let line = format!("confirm {here} {code}");
    let to = fresh
        .mail()
        .map_or("the judge's address".to_string(), |m| m.from.clone());
    let mail = crate::mail::outbox::Outgoing {
        key,
        to_name: String::new(),
        to: asked.address.clone(),
        subject: format!("[{here}] sign-up: confirm your seat"),
        body: format!(
            "Someone, we hope you, asked from this address for a seat in {here}, a game of {} played by mail.\n\n\
             To take it, reply to this mail (or write to {to}) with this line, as it is, at the top of your mail:\n\n    {line}\n\n\
             The seat is yours once the judge reads it, under the name you asked for, and a mail with your secret follows. The code works once, until {}; if every seat is taken before then, the judge says so.\n\n\
             If you did not ask, ignore this mail: nothing happens, and the judge writes to this address about it at most once a day.\n",
            ctx.game.title(),
            crate::archive::schedule::shown(until)
        ),
        in_reply_to: None,
        attachment: None,
    };
    let kept = crate::mail::outbox::Outgoing {
        body: mail.body.replace(&code, crate::mail::redact::BLANK),
        ..mail.clone()
    };
    let mut book = Book::read(&fresh);
    // A new code replaces one this address was sent before.
    book.asked.retain(|a| a.used || a.address != asked.address);
    book.asked.push(asked.clone());
    book.write(&fresh, ctx.now)?;
    // Sent now, never queued: the code is in no file (the kept copy blanks it).
    match crate::mail::outbox::send_now(&fresh, &mail, &kept) {
        Ok(()) => said("join: code mailed".into()),
        Err(e) => {
            let mut book = Book::read(&fresh);
            book.asked.retain(|a| a != &asked);
            book.write(&fresh, ctx.now)?;
            said(format!("join: the code could not be mailed ({e})"))
        }
    }
}

/// `confirm GAME CODE` from an address the game does not know: the code it was mailed,
/// sent back. Then the seat is taken (the next free one, under the name asked for, the
/// game read again from the disk under the lock the caller holds: two confirms never
/// get one seat), and the welcome with the player's new secret is sent at once. A code
/// sent back from another address, a wrong one or one that ran out takes nothing.
pub fn confirm(
    ctx: &super::sender::Ctx<'_>,
    address: &str,
    wanted: &str,
    code: &str,
) -> Result<Said, Error> {
    let said = |log: String, seat: Option<String>| Ok(Said { log, seat });
    if let Some(why) = cannot_ask(ctx.archive, address) {
        return said(format!("confirm: not answered ({why})"), None);
    }
    let mut fresh = Archive::open(ctx.archive.root())?;
    let here = fresh.name();
    let lower = address.trim().to_ascii_lowercase();
    let mut book = Book::read(&fresh);
    let found = book.asked.iter().position(|a| {
        a.address == lower
            && wanted.eq_ignore_ascii_case(&here)
            && code_hash(&a.salt, code) == a.hash
    });
    let Some(i) = found else {
        let body = format!(
            "The judge of {here} read a `confirm` line from this address, but its code is not one it mailed here. Nothing was done.\n\nTo ask for a seat, send `join {here} as YOUR NAME`: the judge mails you a code to send back. If you did not write, ignore this mail: the judge writes to this address about it at most once a day.\n"
        );
        let sent = answer_stranger(&fresh, address, ctx.now, "sign-up: not taken", body)?;
        return said(
            format!(
                "confirm: refused (no such code), {}",
                if sent {
                    "answered"
                } else {
                    "not answered (answered today)"
                }
            ),
            None,
        );
    };
    let asked = book.asked[i].clone();
    let ran_out =
        asked.used || humantime::parse_rfc3339_weak(&asked.until).map_or(true, |u| ctx.now > u);
    book.asked[i].used = true;
    book.write(&fresh, ctx.now)?;
    let again = format!("send `join {here} as YOUR NAME` again for a new code");
    let refused = if ran_out {
        Some((
            "run out",
            format!("its code has run out (a code works once, for three days): {again}"),
        ))
    } else if fresh.game.free_seats().is_empty() || started(&fresh) {
        Some((
            "full",
            format!(
                "{here} is full: every seat was taken before your confirmation came{}",
                if started(&fresh) {
                    ", and the game has begun"
                } else {
                    ""
                }
            ),
        ))
    } else {
        name_refused(&fresh, &asked.name)
            .map(|why| ("the name", format!("{why}; {again}, with another name")))
    };
    if let Some((what, why)) = refused {
        answer_proven(
            &fresh,
            &asked,
            "sign-up: not taken",
            format!("Your seat in {here} was not taken: {why}.\n"),
        )?;
        return said(format!("confirm: refused ({what}), answered"), None);
    }
    let Some(free) = fresh.game.players.iter().position(|p| p.is_free()) else {
        return said("confirm: refused (full)".into(), None);
    };
    let secret = crate::mail::secret::generate();
    let hash = crate::mail::secret::hash(&secret)
        .map_err(|e| Error::input(format!("the secret could not be made: {e}")))?;
    let mut file = fresh.game.clone();
    let seat = file.players[free].id.clone();
    file.players[free].name = asked.name.clone();
    file.players[free].email = asked.address.clone();
    file.players[free].secret_hash = Some(hash);
    file.validate()
        .map_err(|slip| Error::input(slip.to_string()))?;
    fresh.save_game_file(file)?;
    let began = fresh.game.free_seats().is_empty();
    if began {
        begin(&fresh, ctx.game, ctx.now)?;
    }
    // The welcome, with the secret: sent now, never queued (the kept copy blanks it).
    let welcome = super::welcome::mail(&fresh, ctx.game, &seat, Some(&secret))?;
    let kept = crate::mail::outbox::Outgoing {
        body: welcome.body.replace(&secret, crate::mail::redact::BLANK),
        ..welcome.clone()
    };
    let sent = crate::mail::outbox::send_now(&fresh, &welcome, &kept);
    // The others learn that the game began, each with the game as it stands.
    if began {
        tell_begun(&fresh, ctx.game, Some(&seat))?;
    }
    let began_log = if began { "; the game began" } else { "" };
    Ok(match sent {
        Ok(()) => Said {
            log: format!("confirm: took {seat}{began_log}"),
            seat: Some(seat),
        },
        Err(e) => {
            answer_proven(
                &fresh,
                &asked,
                &format!("you play {seat}"),
                format!(
                    "You have the seat {seat} in {here}, but the mail with your secret could not be sent ({e}): ask the GM to send you a new one (judge secret --mail).\n"
                ),
            )?;
            Said {
                log: format!("confirm: took {seat}{began_log}; the welcome was not sent ({e})"),
                seat: Some(seat),
            }
        }
    })
}

/// `join` or `confirm` from an address the game knows: a player's has a seat already,
/// the GM's takes none; one that names another game came in a mail for this one (its
/// orders) and goes in a mail of its own. For the log, and the
/// answer.
pub fn known(
    archive: &Archive,
    who: super::sender::Who<'_>,
    what: &str,
    wanted: &str,
) -> (String, String) {
    use super::sender::Who;
    let here = archive.name();
    if !matches!(who, Who::Stranger(_)) && !wanted.eq_ignore_ascii_case(&here) {
        return (
            format!("{what}: not carried out (for another game)"),
            format!(
                "Not done: the `{what}` line is for another game, and this mail is for {here}. Send it in a mail of its own, without {here}'s orders or `game {here}` line."
            ),
        );
    }
    match who {
        Who::Player(p) => (
            format!("{what}: refused (plays already)"),
            format!("You play {} in {here} already.", p.id),
        ),
        Who::Gm(_) => (
            format!("{what}: refused (the GM)"),
            "The GM's address cannot take a seat: join from the address you will play from.".into(),
        ),
        Who::Stranger(_) => (format!("{what}: not answered"), String::new()),
    }
}

/// Mail every player but `except` the game as it begins (no secret in it).
fn tell_begun(archive: &Archive, game: &dyn Game, except: Option<&str>) -> Result<(), Error> {
    for p in archive
        .game
        .players
        .iter()
        .filter(|p| Some(p.id.as_str()) != except)
    {
        let m = super::welcome::mail(archive, game, &p.id, None)?;
        crate::mail::outbox::queue_unless_unaddressable(archive, &m)?;
    }
    Ok(())
}

/// The GM's `start`: begin a game open for sign-up with the seats taken so far (the
/// free ones are given up), if the game can be played by that many.
pub fn start(archive: &Archive, game: &dyn Game, now: SystemTime) -> Result<String, Error> {
    let mut fresh = Archive::open(archive.root())?;
    if started(&fresh) {
        return Err(Error::input("the game has begun already"));
    }
    let mut file = fresh.game.clone();
    let given_up: Vec<String> = file.free_seats().into_iter().map(str::to_string).collect();
    file.players.retain(|p| !p.is_free());
    // Tried first, in memory: a game that cannot be played by so few is left as it is.
    let scenario = std::fs::read_to_string(fresh.root().join(SCENARIO_FILE))
        .map_err(|e| Error::input(format!("{SCENARIO_FILE}: {e}")))?;
    let seats: Vec<SeatRequest> = file
        .players
        .iter()
        .map(|p| SeatRequest {
            name: p.name.clone(),
            email: p.email.clone(),
        })
        .collect();
    game.start(
        SCENARIO_FILE,
        &scenario,
        &fresh.name(),
        &seats,
        &fresh.seeds()?,
    )
    .map_err(|e| {
        Error::input(format!(
            "it cannot begin with {}: {}",
            crate::text::count(seats.len(), "player"),
            e.message
        ))
    })?;
    file.validate()
        .map_err(|slip| Error::input(slip.to_string()))?;
    fresh.save_game_file(file)?;
    begin(&fresh, game, now)?;
    tell_begun(&fresh, game, None)?;
    Ok(if given_up.is_empty() {
        "every seat was taken".to_string()
    } else {
        format!("the free seats ({}) are given up", given_up.join(", "))
    })
}

/// The seats of a game not begun, a line each: who took it, or `free` (with the
/// players' addresses, for the GM).
pub fn seat_lines(archive: &Archive, addresses: bool) -> Vec<String> {
    archive
        .game
        .players
        .iter()
        .map(|p| match (p.is_free(), addresses) {
            (true, _) => format!("  {:<7} free", p.id),
            (false, true) => format!("  {:<7} {:<12} {}", p.id, p.name, p.email),
            (false, false) => format!("  {:<7} {}", p.id, p.name),
        })
        .collect()
}

/// The announcement of a game open for sign-up, for the GM to post.
pub fn announcement(archive: &Archive, game: &dyn Game) -> String {
    let name = archive.name();
    let free = archive.game.free_seats();
    let to = archive
        .mail()
        .map_or("the judge's address".to_string(), |m| m.from.clone());
    format!(
        "{name}: a game of {} by mail, open for sign-up ({} free: {}).\n\nTo play, mail {to} one line:\n\n    join {name} as YOUR NAME\n\nThe judge mails you a code, with the one line to send back: the seat is yours\nwhen it comes back from your address, and your secret follows. The game begins\nwhen every seat is taken; a game that is full answers so.\n",
        game.title(),
        crate::text::count(free.len(), "seat"),
        free.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_header_reads_each_line_as_games_do() {
        let h = plain_header("Game: Island\nplayer = red\nturn 1\nsecret  a b\nmove x\n");
        assert_eq!(h.game.as_deref(), Some("island"));
        assert_eq!(h.player.as_deref(), Some("red"));
        assert_eq!(h.turn, Some(1));
        assert_eq!(h.secret.as_deref(), Some("a b"));
    }
}
