//! The pipeline's half: what the judge's shell does with a step (mail in, the
//! turn played, reports and answers mailed, the archive git keeps, the web site) shows
//! another player nothing of a player's hidden parts.
//!
//! Each case copies a game folder (with its secrets, `[mail]` and `[schedule]`), puts a
//! random position in it, mails random order files into its Maildir as real RFC 5322
//! messages, and runs `judge turn` (in-process, `pbem::turn::run`) — twice: as it is
//! (world A) and with player Q's hidden parts changed (world B): Q's hand and unplayed
//! development cards (same sizes), and Q's order mail with every line that did not run
//! rewritten. Whenever the two worlds agree on what another player P may know (the
//! public record and P's own parts, worked out from the states and events), everything P
//! can read must be byte for byte the same: every mail to P (answers, reports, digests,
//! reminders; subject, body, attachments), every file git keeps of the folder (the
//! game's own .gitignore, read by git), and every page of `judge site`. Neither world
//! shows a byte of the secret seed, nor of any player's secret, anywhere P looks.
//!
//! Roads & Boats has no hidden hands: its secrets are the players' secrets and the
//! orders pending before the deadline. Its cases change Q's pending orders (and Q's
//! secret) and check the same: nothing P sees before the turn is played changes.
//!
//! `HIDDEN_PIPELINE_CASES` compared cases per game (100 in a plain `cargo test`;
//! `bash .ci/run` sets 1,000).

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use mail_parser::MimeHeaders;
use pbem_judge::archive::Archive;
use pbem_judge::catan::{Colour, Event, Options, State};
use pbem_judge::luck::{Luck, Rng};
use pbem_judge::pbem::game::Game;
use serde_json::Value;

fn cases() -> usize {
    std::env::var("HIDDEN_PIPELINE_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100)
}

fn at(t: &str) -> SystemTime {
    humantime::parse_rfc3339(t).expect("time")
}

const START: &str = "2026-12-01T09:00:00Z";

/// A game folder to copy for each case: made by `judge new`, with mail settings, a
/// schedule and each player's secret (returned, by seat).
struct Template {
    dir: tempfile::TempDir,
    secrets: BTreeMap<String, String>,
    emails: BTreeMap<String, String>,
    game: &'static dyn Game,
}

fn judge(args: &[&str]) {
    use clap::Parser;
    let cli =
        pbem_judge::cli::Cli::try_parse_from(std::iter::once("judge").chain(args.iter().copied()))
            .expect("arguments");
    let mut out = Vec::new();
    pbem_judge::cli::run(cli, &mut out).expect("judge");
}

fn template(game: &str, players: usize, extra: &[&str]) -> Template {
    let dir = scratch();
    let g = dir.path().join("g");
    let names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"];
    let mut args: Vec<String> = vec![
        "new".into(),
        g.display().to_string(),
        "--game".into(),
        game.into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    for n in &names[..players] {
        args.push("--player".into());
        args.push(format!("{n}:{}@example.org", n.to_lowercase()));
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    judge(&refs);
    let mut archive = Archive::open(&g).expect("archive");
    let mut file = archive.game.clone();
    let mut secrets = BTreeMap::new();
    let mut emails = BTreeMap::new();
    for p in &mut file.players {
        let s = pbem_judge::mail::secret::generate();
        p.secret_hash = Some(cheap_hash(&s));
        secrets.insert(p.id.clone(), s);
        emails.insert(p.id.clone(), p.email.clone());
    }
    file.mail = Some(pbem_judge::archive::MailSettings {
        from: "Judge <judge@example.org>".into(),
        // Each case's own folders (World::new).
        pickup: Some(PathBuf::from("/nonexistent/pickup")),
        maildir: Some(PathBuf::from("/nonexistent/Maildir")),
        ..Default::default()
    });
    let mut schedule = pbem_judge::archive::Schedule::new(
        at("2026-12-03T09:00:00Z"),
        Duration::from_secs(2 * 86400),
    )
    .expect("in range");
    schedule.remind = Some("3days".parse().expect("a duration"));
    file.schedule = Some(schedule);
    // Every player is told, near the deadline, whose orders are not in yet.
    file.absent = Some(pbem_judge::archive::AbsentRules {
        late_notice: Some("3days".parse().expect("a duration")),
        ..Default::default()
    });
    // Notices by webhook: the game's, and every player's own (World::new); queued, not
    // posted (World::turn sends the mail only), and read from the notice outbox.
    file.notify = Some(pbem_judge::archive::schema::NotifySettings {
        url: Some("https://hooks.example.org/game".into()),
        ..Default::default()
    });
    archive.save_game_file(file).expect("game.toml");
    let game = pbem_judge::games::by_id(&archive.game.game).expect("game");
    Template {
        dir,
        secrets,
        emails,
        game,
    }
}

/// A secret's hash as game.toml keeps it (argon2, PHC string), with the least work
/// argon2 allows: the judge reads the parameters from the hash, and a test that checks
/// thousands of mails need not spend the real cost on each.
fn cheap_hash(secret: &str) -> String {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let params = argon2::Params::new(8, 1, 1, None).expect("params");
    let a = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    let salt = SaltString::encode_b64(b"pbem-judge-tests").expect("salt");
    a.hash_password(secret.as_bytes(), &salt)
        .expect("hash")
        .to_string()
}

/// A case's folder: `root/g` the game, `root/Maildir`, `root/pickup`.
struct World {
    root: tempfile::TempDir,
}

/// A folder for a case: in memory (/dev/shm) where the machine has it, since a case
/// writes a hundred small files and syncs each.
fn scratch() -> tempfile::TempDir {
    match std::fs::metadata("/dev/shm") {
        Ok(m) if m.is_dir() => tempfile::tempdir_in("/dev/shm").expect("tempdir"),
        _ => tempfile::tempdir().expect("tempdir"),
    }
}

impl World {
    /// A copy of the template; `pictures`: the players keep the default of a map
    /// picture with each report (painting it is slow, so most cases mail none).
    fn new(t: &Template, pictures: bool) -> World {
        let root = scratch();
        support::copy_dir(&t.dir.path().join("g"), &root.path().join("g"), &|_| true);
        for sub in ["Maildir/new", "Maildir/cur", "Maildir/tmp", "pickup"] {
            std::fs::create_dir_all(root.path().join(sub)).expect("mkdir");
        }
        let mut archive = Archive::open(&root.path().join("g")).expect("archive");
        let mut file = archive.game.clone();
        if let Some(m) = &mut file.mail {
            m.maildir = Some(root.path().join("Maildir"));
            m.pickup = Some(root.path().join("pickup"));
        }
        archive.save_game_file(file).expect("game.toml");
        // Every player has a webhook of their own (`notify URL`).
        let prefs: String = t
            .secrets
            .keys()
            .map(|seat| {
                format!(
                    "[{seat}]\n{}webhook = \"https://hooks.example.org/{seat}\"\nwebhook_format = \"json\"\n",
                    if pictures { "" } else { "picture = false\n" }
                )
            })
            .collect();
        std::fs::create_dir_all(root.path().join("g/mail")).expect("mkdir");
        std::fs::write(root.path().join("g/mail/preferences.toml"), prefs).expect("prefs");
        World { root }
    }

    fn game(&self) -> PathBuf {
        self.root.path().join("g")
    }

    /// Mail `text` from `seat`, delivered at `when` (the Maildir file's name says so).
    fn mail(&self, t: &Template, seat: &str, n: usize, text: &str, when: SystemTime) {
        let secs = when
            .duration_since(SystemTime::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs();
        let from = &t.emails[seat];
        let raw = format!(
            "From: {seat} <{from}>\r\nTo: Judge <judge@example.org>\r\nSubject: orders\r\nDate: {}\r\nMessage-ID: <{seat}-{n}@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
            humantime::format_rfc3339_seconds(when),
            text.replace('\n', "\r\n")
        );
        std::fs::write(
            self.root
                .path()
                .join(format!("Maildir/new/{secs}.M{n}P1.host")),
            raw,
        )
        .expect("deliver");
    }

    fn turn(&self, t: &Template, now: SystemTime) {
        let archive = Archive::open(&self.game()).expect("archive");
        let mut lines = Vec::new();
        pbem_judge::pbem::turn::run(
            &archive,
            t.game,
            now,
            pbem_judge::pbem::turn::Options {
                force: false,
                read_only_mail: false,
            },
            &mut lines,
        )
        .unwrap_or_else(|e| panic!("judge turn: {e}\n{}", lines.join("\n")));
        pbem_judge::pbem::send::send(&archive).expect("the outbox sent");
    }

    /// Everything `seat` (at `email`) can read: their mail, what git keeps, the site
    /// (the case's own folder written as `WORLD`, so that two worlds compare).
    fn seen_by(&self, t: &Template, email: &str) -> BTreeMap<String, Vec<u8>> {
        let out = self.seen_raw(t, email);
        let here = self.root.path().display().to_string();
        out.into_iter()
            .map(|(k, v)| {
                let text = String::from_utf8_lossy(&v);
                if text.contains(&here) {
                    (k, text.replace(&here, "WORLD").into_bytes())
                } else {
                    (k, v)
                }
            })
            .collect()
    }

    fn seen_raw(&self, t: &Template, email: &str) -> BTreeMap<String, Vec<u8>> {
        let mut out = BTreeMap::new();
        // Mail to them: subject, body and attachments, as a mail program shows them.
        let mut names: Vec<PathBuf> = std::fs::read_dir(self.root.path().join("pickup"))
            .expect("pickup")
            .flatten()
            .map(|e| e.path())
            .collect();
        names.sort();
        for p in names {
            let raw = std::fs::read(&p).expect("mail");
            let m = mail_parser::MessageParser::default()
                .parse(&raw)
                .expect("a mail the judge sent reads");
            let to = m
                .to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or_default()
                .to_string();
            if !to.eq_ignore_ascii_case(email) {
                continue;
            }
            let mut shown = format!(
                "Subject: {}\nIn-Reply-To: {:?}\n\n{}",
                m.subject().unwrap_or_default(),
                m.in_reply_to().as_text(),
                m.body_text(0).unwrap_or_default()
            );
            for a in m.attachments() {
                shown.push_str(&format!(
                    "\n[attachment {} {}]",
                    a.attachment_name().unwrap_or_default(),
                    pbem_judge::archive::content_id(a.contents())
                ));
            }
            let key = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.insert(format!("mail {key}"), shown.into_bytes());
        }
        // Every notice for the game's webhook or for this player's own, in every format,
        // as the webhook would receive it.
        let g = self.game();
        let seat = t
            .emails
            .iter()
            .find(|(_, e)| e.eq_ignore_ascii_case(email))
            .map(|(s, _)| s.clone());
        for dir in [
            "outbox/notices",
            "outbox/notices/sent",
            "outbox/notices/failed",
        ] {
            for name in support::file_names(&g.join(dir)) {
                let Some(key) = name.strip_suffix(".json") else {
                    continue;
                };
                let q: pbem_judge::notify::queue::Queued = serde_json::from_slice(
                    &std::fs::read(g.join(dir).join(&name)).expect("notice"),
                )
                .expect("a queued notice reads");
                let theirs = match &q.target {
                    pbem_judge::notify::queue::Target::Game => true,
                    pbem_judge::notify::queue::Target::Player(s) => Some(s) == seat.as_ref(),
                };
                if !theirs {
                    continue;
                }
                use pbem_judge::archive::schema::NotifyFormat;
                for f in [
                    NotifyFormat::Discord,
                    NotifyFormat::Slack,
                    NotifyFormat::Json,
                ] {
                    out.insert(
                        format!("notice {key} {}", f.name()),
                        pbem_judge::notify::payload::body(f, &q.notice),
                    );
                }
            }
        }
        // What git keeps of the folder, by the game's own .gitignore.
        for f in support::catan::git_kept(&g).lines() {
            if f.starts_with(".git/") {
                continue;
            }
            out.insert(
                format!("git {f}"),
                std::fs::read(g.join(f)).expect("kept file"),
            );
        }
        let _ = std::fs::remove_dir_all(g.join(".git"));
        // The web site.
        let archive = Archive::open(&g).expect("archive");
        let (overview, turns) =
            pbem_judge::site::collect(&archive, t.game, &mut || {}).expect("site");
        for (name, bytes) in pbem_judge::site::render(&overview, &turns).expect("site") {
            out.insert(format!("site {name}"), bytes);
        }
        out
    }

    /// What `p` may know of the steps played, from the archive (as in catan_hidden.rs).
    fn known_by(&self, p: &str) -> Vec<String> {
        let archive = Archive::open(&self.game()).expect("archive");
        let turns = archive.turns().expect("turns");
        let mut out = Vec::new();
        for w in turns.windows(2) {
            let before = archive.read(w[0], "state.json").expect("state");
            let after = archive.read(w[1], "state.json").expect("state");
            let events = archive.read(w[1], "events.json").expect("events");
            let record: Value =
                serde_json::from_str(&archive.read(w[1], "turn.json").expect("turn.json"))
                    .expect("json");
            out.push(knows(&before, &events, &after, &record["acted"], p));
        }
        out
    }
}

/// What `p` may know of a step: the public record and their own hidden parts.
fn knows(before: &str, events: &str, after: &str, acted: &Value, p: &str) -> String {
    let state = |text: &str| -> Value {
        let mut v: Value = serde_json::from_str(text).expect("json");
        if let Some(players) = v["players"].as_array_mut() {
            for pl in players {
                if pl["colour"] == p {
                    continue;
                }
                let total = |x: &Value| -> u64 {
                    x.as_object()
                        .map_or(0, |o| o.values().filter_map(Value::as_u64).sum())
                };
                let hand = total(&pl["hand"]);
                let devs = total(&pl["development"]) + total(&pl["new_development"]);
                pl["hand"] = Value::from(hand);
                pl["development"] = Value::from(devs);
                pl["new_development"] = Value::Null;
                pl["record"] = Value::Null;
            }
        }
        let deck = v["deck"].as_array().map_or(0, Vec::len);
        v["deck"] = Value::from(deck);
        v
    };
    let mut evs: Vec<Value> = serde_json::from_str(events).expect("events");
    evs.retain(|e| match e["event"].as_str() {
        Some("order" | "failed" | "skipped" | "no-discard-preference") => e["player"] == p,
        _ => true,
    });
    for e in &mut evs {
        match e["event"].as_str() {
            Some("stole") if e["thief"] != p && e["victim"] != p => e["card"] = Value::Null,
            Some("discarded") if e["player"] != p => {
                let n: u64 = e["cards"]
                    .as_object()
                    .map_or(0, |o| o.values().filter_map(Value::as_u64).sum());
                e["cards"] = Value::from(n);
            }
            Some("bought") if e["player"] != p => e["card"] = Value::Null,
            // Why P's own line failed is what P is told, compared with the mail to P,
            // not something P knew (as in catan_hidden.rs).
            Some("failed") => e["reason"] = Value::Null,
            Some("skipped") => e["why"] = Value::Null,
            _ => {}
        }
    }
    serde_json::to_string(&(state(before), evs, state(after), acted)).expect("json")
}

fn catan_state(t: &Template, seed: u64, r: &mut Rng) -> State {
    let archive = Archive::open(&t.dir.path().join("g")).expect("archive");
    let zero = State::from_json(&archive.read(0, "state.json").expect("turn 0")).expect("reads");
    let names: Vec<String> = zero.players.iter().map(|p| p.name.clone()).collect();
    let options: Options = zero.options.clone();
    let mut s =
        State::with_luck("g", &names, seed, Luck::predictable(seed), &options).expect("a game");
    // Walk the game by random files to a random step.
    for _ in 0..r.below(70) {
        if s.winner.is_some() {
            break;
        }
        let mut files = BTreeMap::new();
        for c in pbem_judge::catan::awaited(&s) {
            let seat = s.seat_of(c).expect("seat");
            files.insert(c, support::catan_orders::file(&s, seat, r));
        }
        s = pbem_judge::catan::play(&s, &files).state;
    }
    s
}

/// Put a position in a world's folder as turn 0.
fn put_state(w: &World, json: &str) {
    std::fs::write(w.game().join("turns/000/state.json"), json).expect("state");
}

fn with_secret(text: &str, secret: &str) -> String {
    let mut out = String::new();
    for (i, l) in text.lines().enumerate() {
        out.push_str(l);
        out.push('\n');
        if i == 1 {
            out.push_str(&format!("secret {secret}\n"));
        }
    }
    out
}

struct Count {
    compared: usize,
    told_apart: usize,
    /// Mails to P that carry P's own template (so that its absence elsewhere is news).
    own_templates: usize,
    /// Notices P's webhooks would receive (so that the property covers some).
    notices: usize,
}

fn compare(
    what: &str,
    a: &BTreeMap<String, Vec<u8>>,
    b: &BTreeMap<String, Vec<u8>>,
    secrets: &[&str],
) {
    let ka: BTreeSet<&String> = a.keys().collect();
    let kb: BTreeSet<&String> = b.keys().collect();
    assert_eq!(ka, kb, "{what}: the files and mails P sees differ in name");
    for (k, x) in a {
        let y = &b[k];
        if x != y {
            let (xs, ys) = (String::from_utf8_lossy(x), String::from_utf8_lossy(y));
            let line = xs
                .lines()
                .zip(ys.lines())
                .enumerate()
                .find(|(_, (p, q))| p != q)
                .map_or(String::new(), |(i, (p, q))| {
                    format!("line {}:\n  A: {p}\n  B: {q}", i + 1)
                });
            panic!("{what}: `{k}` differs between the worlds:\n{line}");
        }
        let text = String::from_utf8_lossy(x);
        for s in secrets {
            assert!(!text.contains(s), "{what}: `{k}` shows a secret");
        }
    }
}

fn catan_cases(game: &str, players: &[usize], extra: &[&str]) -> Count {
    let want = cases();
    let templates: Vec<Template> = players.iter().map(|&n| template(game, n, extra)).collect();
    let mut count = Count {
        compared: 0,
        told_apart: 0,
        own_templates: 0,
        notices: 0,
    };
    let mut seed = 0u64;
    while count.compared < want {
        seed += 1;
        assert!(
            count.told_apart < 4 * want + 100,
            "{game}: {} told apart for {} compared",
            count.told_apart,
            count.compared
        );
        let t = &templates[seed as usize % templates.len()];
        let mut r = Rng::new(seed ^ 0x9172);
        let s = catan_state(t, seed, &mut r);
        if s.winner.is_some() {
            continue;
        }
        let n = s.players.len() as u8;
        let q = r.below(u32::from(n)) as u8;
        let p = (q + 1 + r.below(u32::from(n) - 1) as u8) % n;
        let (qc, pc): (Colour, Colour) = (s.colour(q), s.colour(p));
        // The mails of this step: the awaited player's, and others' now and then.
        let wanted = pbem_judge::catan::awaited(&s);
        let mut files: BTreeMap<Colour, String> = BTreeMap::new();
        for seat in 0..n {
            let c = s.colour(seat);
            if wanted.contains(&c) || r.below(3) == 0 || c == pc {
                let mut f = support::catan_orders::file(&s, seat, &mut r);
                if r.below(3) == 0 {
                    f.push_str("mail every step\n");
                }
                files.insert(c, f);
            }
        }
        // World A.
        let pictures = seed.is_multiple_of(20);
        let a = World::new(t, pictures);
        put_state(&a, &s.to_json());
        let now = at(START);
        for (i, (c, f)) in files.iter().enumerate() {
            a.mail(t, c.name(), i, &with_secret(f, &t.secrets[c.name()]), now);
        }
        a.turn(t, now + Duration::from_secs(60));
        // The lines of Q's that ran (their numbers in Q's mail as filed, secret line in).
        let archive = Archive::open(&a.game()).expect("archive");
        let mut ran = BTreeSet::new();
        for turn in archive.turns().expect("turns").into_iter().skip(1) {
            let evs: Vec<Event> =
                serde_json::from_str(&archive.read(turn, "events.json").expect("events"))
                    .expect("events");
            for e in evs {
                if let Event::Order { player, line, .. } = e
                    && player == qc
                {
                    ran.insert(line);
                }
            }
        }
        // World B: Q's hand, cards and unrun lines changed.
        let mut v: Value = serde_json::from_str(&s.to_json()).expect("json");
        let total: u64 = v["players"][q as usize]["hand"]
            .as_object()
            .map_or(0, |o| o.values().filter_map(Value::as_u64).sum());
        let mut hand = serde_json::Map::new();
        let kinds = ["wood", "brick", "wool", "grain", "ore"];
        let mut h = [0u64; 5];
        for _ in 0..total {
            h[r.below(5) as usize] += 1;
        }
        for (k, n) in kinds.iter().zip(h) {
            if n > 0 {
                hand.insert((*k).into(), Value::from(n));
            }
        }
        v["players"][q as usize]["hand"] = Value::Object(hand);
        let devs = ["knight", "road-building", "year-of-plenty", "monopoly"];
        for pile in ["development", "new_development"] {
            let n: u64 = v["players"][q as usize][pile]
                .as_object()
                .map_or(0, |o| o.values().filter_map(Value::as_u64).sum());
            let mut o = serde_json::Map::new();
            for _ in 0..n {
                let k = devs[r.below(4) as usize];
                let now = o.get(k).and_then(Value::as_u64).unwrap_or(0);
                o.insert(k.into(), Value::from(now + 1));
            }
            v["players"][q as usize][pile] = Value::Object(o);
        }
        let record = v["players"][q as usize]["record"]["text"]
            .as_str()
            .unwrap_or("")
            .to_string();
        if files.contains_key(&qc) && !record.is_empty() {
            v["players"][q as usize]["record"]["text"] =
                Value::from(support::catan_orders::file(&s, q, &mut r));
        }
        let b = World::new(t, pictures);
        put_state(&b, &serde_json::to_string_pretty(&v).expect("json"));
        for (i, (c, f)) in files.iter().enumerate() {
            let text = with_secret(f, &t.secrets[c.name()]);
            let text = if *c == qc {
                // Lines past the header (game, player, secret, turn) that did not run.
                text.lines()
                    .enumerate()
                    .map(|(k, l)| {
                        let n = k as u32 + 1;
                        if n > 4 && !ran.contains(&n) && !l.starts_with("mail ") && r.below(2) == 0
                        {
                            support::catan_orders::line(&s, q, &mut r)
                        } else {
                            l.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
                    + "\n"
            } else {
                text
            };
            b.mail(t, c.name(), i, &text, now);
        }
        b.turn(t, now + Duration::from_secs(60));
        if a.known_by(pc.name()) != b.known_by(pc.name()) {
            count.told_apart += 1;
            continue;
        }
        let secrets: Vec<&str> = t
            .secrets
            .iter()
            .filter(|(seat, _)| seat.as_str() != pc.name())
            .map(|(_, s)| s.as_str())
            .collect();
        let luck = Archive::open(&a.game())
            .expect("a")
            .secret()
            .expect("key")
            .expect("a seed");
        let seed_hex = luck.luck.to_hex();
        let mut hidden = secrets.clone();
        hidden.push(&seed_hex);
        let email = &t.emails[pc.name()];
        let seen = a.seen_by(t, email);
        let what = format!(
            "{game} case {seed} ({} sees, {} changed)",
            pc.name(),
            qc.name()
        );
        compare(&what, &seen, &b.seen_by(t, email), &hidden);
        // An order file's template names its seat's hand (docs/catan-orders.md,
        // "The template"), so it goes to that seat alone: no other seat's template in
        // P's mail, and no template at all in what git keeps or on the site.
        // (The site's guide.html is the order guide, docs/catan-orders.md, whose
        // example template is red's: the same page for every game, made of no state.)
        // (One pass over each file: the template's own words, then whose it is.)
        const MARK: &str = "As things stand for";
        for (k, v) in seen.iter().filter(|(k, _)| k.as_str() != "site guide.html") {
            let text = String::from_utf8_lossy(v);
            let mut own = false;
            for (i, _) in text.match_indices(MARK) {
                assert!(k.starts_with("mail "), "{what}: `{k}` carries a template");
                let seat = text[i + MARK.len()..].split_whitespace().next();
                assert_eq!(
                    seat,
                    Some(pc.name()),
                    "{what}: `{k}` carries another seat's template"
                );
                own = true;
            }
            count.own_templates += usize::from(own);
        }
        count.notices += seen.keys().filter(|k| k.starts_with("notice ")).count();
        count.compared += 1;
    }
    count
}

#[test]
fn catan_by_mail_shows_no_player_another_players_hand() {
    let c = catan_cases("catan", &[3, 4], &[]);
    eprintln!(
        "catan: {} compared, {} told apart by the rules, {} own templates, {} notices seen",
        c.compared, c.told_apart, c.own_templates, c.notices
    );
    assert!(c.own_templates > 0, "no mail carried its player's template");
    assert!(c.notices > 0, "no notice was compared");
}

#[test]
fn catan_with_five_or_six_by_mail_shows_no_player_another_players_hand() {
    let c = catan_cases("catan", &[5, 6], &[]);
    eprintln!(
        "catan 5–6: {} compared, {} told apart by the rules, {} own templates seen",
        c.compared, c.told_apart, c.own_templates
    );
    assert!(c.own_templates > 0, "no mail carried its player's template");
    assert!(c.notices > 0, "no notice was compared");
}

#[test]
fn catan_express_by_mail_shows_no_player_another_players_hand() {
    let c = catan_cases("catan-express", &[3, 4, 5], &[]);
    eprintln!(
        "catan express: {} compared, {} told apart by the rules, {} own templates seen",
        c.compared, c.told_apart, c.own_templates
    );
    assert!(c.own_templates > 0, "no mail carried its player's template");
    assert!(c.notices > 0, "no notice was compared");
}

/// Roads & Boats: before the deadline, Q's pending orders and Q's secret change nothing
/// another player can read — their answers and reminders, what git keeps, the site.
#[test]
fn roads_and_boats_pending_orders_and_secrets_are_seen_by_no_one_else() {
    let want = cases();
    // The bodies of the documented order examples, without their header lines.
    let mut examples: Vec<String> = std::fs::read_dir("orders/examples")
        .expect("orders/examples")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| {
            std::fs::read_to_string(&p)
                .expect("example")
                .lines()
                .filter(|l| {
                    let w = l.split_whitespace().next().unwrap_or("");
                    !matches!(w, "game" | "player" | "turn" | "secret" | "standing")
                })
                .map(|l| format!("{l}\n"))
                .collect()
        })
        .collect();
    examples.sort();
    let mut notices = 0;
    let templates = [
        template("roads-and-boats", 2, &["--scenario", "two-rivers"]),
        template("roads-and-boats", 3, &["--scenario", "polder-cities"]),
    ];
    for case in 0..want {
        let t = &templates[case % templates.len()];
        let scenario = if case % 2 == 0 {
            "two-rivers"
        } else {
            "polder-cities"
        };
        let st = support::rich_state(scenario, case as u64, 3);
        let state = pbem_judge::archive::stable_json(&st).expect("json");
        let seats: Vec<String> = t.secrets.keys().cloned().collect();
        let mut r = Rng::new(case as u64 ^ 0xBEEF);
        let q = r.below(seats.len() as u32) as usize;
        let p = (q + 1) % seats.len();
        let orders = |seed: u64, who: &str| -> String {
            // Order lines of the documented examples (orders/examples/), one to three
            // files' worth: real orders, some of them wrong for this position.
            let mut r = Rng::new(seed);
            let mut text = format!("game g\nplayer {who}\nturn 1\n");
            for _ in 0..1 + r.below(3) {
                let f = &examples[r.below(examples.len() as u32) as usize];
                text.push_str(f);
            }
            text
        };
        let run = |q_orders: &str| -> BTreeMap<String, Vec<u8>> {
            let w = World::new(t, case.is_multiple_of(20));
            put_state(&w, &state);
            for (i, seat) in seats.iter().enumerate() {
                // A third player sends nothing in every other case: the notices of the
                // deadline then name whose orders are missing, in both worlds.
                if i != q && i != p && case % 4 == 1 {
                    continue;
                }
                let text = if i == q {
                    q_orders.to_string()
                } else {
                    orders(case as u64 + i as u64, seat)
                };
                w.mail(t, seat, i, &with_secret(&text, &t.secrets[seat]), at(START));
            }
            // Before the deadline: answered and reminded, nothing played.
            w.turn(t, at(START) + Duration::from_secs(60));
            w.seen_by(t, &t.emails[&seats[p]])
        };
        let a = run(&orders(1000 + case as u64, &seats[q]));
        let b = run(&orders(2000 + case as u64, &seats[q]));
        let secrets: Vec<&str> = t
            .secrets
            .iter()
            .filter(|(seat, _)| **seat != seats[p])
            .map(|(_, s)| s.as_str())
            .collect();
        compare(&format!("roads-and-boats case {case}"), &a, &b, &secrets);
        notices += a.keys().filter(|k| k.starts_with("notice ")).count();
    }
    eprintln!("roads and boats: {want} compared, {notices} notices seen");
    assert!(notices > 0, "no notice was compared");
}
