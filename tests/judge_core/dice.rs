//! "Randomness anyone can check": a game's hidden draws come from a secret
//! seed of 256 bits drawn from the operating system; only a commitment to it is public
//! while the game runs (git, the site, the welcome mail); the game publishes the seed
//! when it ends (`judge end` for a game the GM closes); `judge verify` checks the
//! commitment and every draw, on the whole archive or on a clone of its public git.
//! docs/gm-guide.md, "Dice anyone can check"; docs/archive.md.

use crate::support;

use std::path::Path;

use crate::support::catan::{git_kept, judge, ok};
use pbem_judge::catan::State;
use pbem_judge::catan::board::layout::{self, Layout};
use pbem_judge::catan::cards::DevCard;
use pbem_judge::catan::rng::{DECK, FIRST};
use pbem_judge::luck::{Luck, Rng};

fn new_catan(dir: &Path, extra: &[&str]) -> String {
    let d = dir.to_str().expect("utf-8");
    let mut args = vec!["new", d, "--game", "catan"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&[
        "--player",
        "Ann:ann@example.org",
        "--player",
        "Bob:bob@example.org",
        "--player",
        "Cy:cy@example.org",
    ]);
    ok(&args)
}

/// Every byte of every file under `dir`, but .git's.
fn all_text(dir: &Path) -> Vec<(String, String)> {
    support::all_files(dir)
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == ".git"))
        .map(|p| {
            (
                p.display().to_string(),
                String::from_utf8_lossy(&std::fs::read(&p).expect("read")).into_owned(),
            )
        })
        .collect()
}

fn key_of(dir: &Path) -> (String, String) {
    let text = std::fs::read_to_string(dir.join("randomness.key")).expect("randomness.key");
    let v: toml::Value = toml::from_str(&text).expect("toml");
    (
        v["seed"].as_str().expect("seed").to_string(),
        v["salt"].as_str().expect("salt").to_string(),
    )
}

/// A new game keeps its seed in randomness.key, which git never keeps; git, the site and
/// `judge new`'s own words hold the commitment (SHA-256 of seed and salt), never the
/// seed; the seed is 64 hex digits that differ from game to game.
#[test]
fn a_running_game_publishes_the_commitment_and_never_the_seed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("isle");
    let said = new_catan(&dir, &[]);
    let (seed, salt) = key_of(&dir);
    assert_eq!(seed.len(), 64, "256 bits");
    assert_eq!(salt.len(), 64);
    let commitment = pbem_judge::luck::commitment(
        &Luck::from_hex(&seed).expect("hex"),
        &pbem_judge::luck::unhex(&salt).expect("hex"),
    );
    assert!(said.contains(&commitment), "{said}");
    assert!(!said.contains(&seed), "{said}");
    let public = std::fs::read_to_string(dir.join("randomness.toml")).expect("public file");
    assert!(
        public.contains(&format!("commitment = \"{commitment}\"")),
        "{public}"
    );
    assert!(
        !public.contains(&seed) && !public.contains(&salt),
        "{public}"
    );
    // Git keeps the commitment, never the key.
    let kept = git_kept(&dir);
    assert!(kept.lines().any(|l| l == "randomness.toml"), "{kept}");
    assert!(!kept.contains("randomness.key"), "{kept}");
    for f in kept.lines() {
        let text =
            String::from_utf8_lossy(&std::fs::read(dir.join(f)).expect("kept file")).into_owned();
        assert!(
            !text.contains(&seed) && !text.contains(&salt),
            "{f} holds the secret"
        );
    }
    // The site shows the commitment, not the seed.
    let site = tmp.path().join("site");
    ok(&[
        "site",
        dir.to_str().expect("utf-8"),
        "-o",
        site.to_str().expect("utf-8"),
    ]);
    let index = std::fs::read_to_string(site.join("index.html")).expect("index");
    assert!(index.contains(&commitment), "the site shows the commitment");
    for (name, text) in all_text(&site) {
        assert!(
            !text.contains(&seed) && !text.contains(&salt),
            "{name} holds the secret"
        );
    }
    // The state files hold no seed either (they are the judge's, but a GM may show one).
    for (name, text) in all_text(&dir.join("turns")) {
        assert!(!text.contains(&seed), "{name} holds the seed");
    }
    // Another game, another seed.
    let other = tmp.path().join("isle2");
    new_catan(&other, &[]);
    assert_ne!(key_of(&other).0, seed);
    // The seed cannot be published mid-game by accident.
    let (code, out, err) = judge(&["reveal", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("still running"), "{err}");
    let (code, out, err) = judge(&["verify", dir.to_str().expect("utf-8")]);
    assert_eq!(
        code, 0,
        "the GM's own key checks a running game: {out}{err}"
    );
    assert!(out.contains("not published yet"), "{out}");
}

/// What a brute-force search over the first million numbers finds of a game: the
/// numbers whose `judge new --seed N` game has its public board, and those whose hidden
/// deck and first player it has.
fn search(s: &State) -> Vec<String> {
    let full: Vec<DevCard> = DevCard::ALL
        .iter()
        .zip(DevCard::deck_counts(false))
        .flat_map(|(&c, k)| std::iter::repeat_n(c, k as usize))
        .collect();
    let land = &s.board.terrain[..s.board.topology.land_hexes];
    let n_players = s.players.len() as u32;
    let mut found = Vec::new();
    for n in 0..1_000_000u64 {
        // The map a `--seed N` game would have: its terrain first, then the whole board
        // if that fits...
        if layout::terrain_draw(false, &mut Rng::new(n)) == land {
            let board = layout::make(Layout::Random, false, &mut Rng::new(n));
            if board.terrain == s.board.terrain && board.number == s.board.number {
                found.push(format!("the board of seed {n}"));
            }
        }
        // ...and its hidden deck and first player.
        let guess = Luck::predictable(n);
        let mut d = full.clone();
        guess.draws(DECK, 0).shuffle(&mut d);
        if d == s.deck && guess.draws(FIRST, 0).below(n_players) as u8 == s.first {
            found.push(format!("the deck of seed {n}"));
        }
    }
    found
}

fn turn_zero(dir: &Path) -> State {
    State::from_json(&std::fs::read_to_string(dir.join("turns/000/state.json")).expect("state"))
        .expect("reads")
}

/// "Trying `judge new --seed N` for N = 0, 1, 2, … against the public turn-1 map found
/// catan-4p's seed in 0.19 s." Now the first million candidates find neither the board
/// of a new game nor its hidden deck and first player; the same search finds a game
/// made from a small number at once (so it would find one).
#[test]
fn a_brute_force_search_over_a_million_small_seeds_finds_nothing() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("isle");
    new_catan(&dir, &["--scenario", "random"]);
    let s = turn_zero(&dir);
    // The deck and the first player are the secret seed's own draws.
    let (seed, _) = key_of(&dir);
    let luck = Luck::from_hex(&seed).expect("hex");
    let mut fresh: Vec<DevCard> = DevCard::ALL
        .iter()
        .zip(DevCard::deck_counts(false))
        .flat_map(|(&c, k)| std::iter::repeat_n(c, k as usize))
        .collect();
    luck.draws(DECK, 0).shuffle(&mut fresh);
    assert_eq!(fresh, s.deck, "the deck is the seed's");
    assert_eq!(s.first, luck.draws(FIRST, 0).below(3) as u8);
    let found = search(&s);
    assert!(found.is_empty(), "{found:?}");
    // The control: a game made from the number 777 is found, board and deck.
    let control = tmp.path().join("control");
    new_catan(&control, &["--scenario", "random", "--seed", "777"]);
    let found = search(&turn_zero(&control));
    assert_eq!(
        found,
        vec![
            "the board of seed 777".to_string(),
            "the deck of seed 777".to_string()
        ]
    );
}

/// A finished game verifies: the published seed fits the commitment, and every turn
/// played again from it is identical. With the seed changed by one digit, `judge verify`
/// exits 1, says the commitment does not fit, and names the first turn that differs.
#[test]
fn verify_checks_the_commitment_and_names_the_first_turn_that_differs() {
    let (code, out, err) = judge(&["verify", "games/catan-4p"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("verified"), "{out}");
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("catan-4p");
    support::copy_dir(Path::new("games/catan-4p"), &dir, &|_| true);
    let path = dir.join("randomness.toml");
    let text = std::fs::read_to_string(&path).expect("randomness.toml");
    let seed = text
        .lines()
        .find_map(|l| l.strip_prefix("seed = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("the seed is published")
        .to_string();
    let last = seed.chars().last().expect("digit");
    let other = if last == '0' { '1' } else { '0' };
    let changed = format!("{}{other}", &seed[..seed.len() - 1]);
    std::fs::write(&path, text.replace(&seed, &changed)).expect("write");
    let (code, out, err) = judge(&["verify", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("DOES NOT MATCH"), "{out}");
    assert!(out.contains("NOT VERIFIED"), "{out}");
    assert!(out.contains("is the first that differs"), "{out}");
    assert!(
        out.contains("step 0 differs"),
        "the deck is shuffled at turn 0: {out}"
    );
}

/// A clone of the game's public git (the public reports and records, game.toml and the
/// published seed; no state, no events) checks every roll; one roll changed in one
/// step's public record is found, by its step.
#[test]
fn verify_on_the_public_record_checks_every_roll() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("public");
    public_clone::of("games/catan-express-4p", &dir);
    let d = dir.to_str().expect("utf-8");
    let (code, out, err) = judge(&["verify", d]);
    assert_eq!(code, 0, "{out}{err}");
    let rolls: usize = out
        .split("all ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(rolls > 60, "every roll of 89 steps: {out}");
    // A roll in one step's public record changed: named by its step.
    let (_, line) = public_clone::roll_of(&dir, 40);
    let dice = line.split(" rolled ").nth(1).expect("dice");
    let a: u8 = dice[..1].parse().expect("die");
    let b: u8 = dice[4..5].parse().expect("die");
    let a2 = if a == 6 { 5 } else { a + 1 };
    public_clone::forge(&dir, 40, &format!("{a2} + {b} = {}", a2 + b), [a2, b], None);
    let (code, out, err) = judge(&["verify", d]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("step 40 is the first that differs"), "{out}");
}

/// "`judge reveal --now` on a running game publishes the seed while
/// play goes on, silently: anyone who reads randomness.toml knows every roll to come."
/// It is refused on a running game, naming the way to close one (`judge end`), and no
/// byte of the seed or salt is anywhere in the game folder afterwards; once the game
/// has ended (which tells every player, and publishes the seed), the site and
/// randomness.toml show it and verify checks it.
#[test]
fn reveal_refuses_a_running_game_and_end_publishes() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("isle");
    new_catan(&dir, &[]);
    let d = dir.to_str().expect("utf-8");
    let (seed, salt) = key_of(&dir);
    for args in [&["reveal", d, "--now"][..], &["reveal", d]] {
        let (code, out, err) = judge(args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(
            err.contains("still running") && err.contains("judge end"),
            "{err}"
        );
        assert!(!out.contains(&seed) && !err.contains(&seed), "{out}{err}");
    }
    for (name, text) in all_text(&dir) {
        if name.ends_with("randomness.key") {
            continue;
        }
        assert!(
            !text.contains(&seed) && !text.contains(&salt),
            "{name} holds the secret"
        );
    }
    ok(&["end", d, "--why", "the players stopped writing"]);
    let public = std::fs::read_to_string(dir.join("randomness.toml")).expect("public");
    assert!(public.contains(&seed), "{public}");
    let out = ok(&["reveal", d]);
    assert!(out.contains("Already published"), "{out}");
    let out = ok(&["verify", d]);
    assert!(
        out.contains("SHA-256 of the published seed and salt matches"),
        "{out}"
    );
}

/// A game made with `--seed N` says openly that its dice are predictable.
#[test]
fn a_game_made_from_a_number_says_its_dice_are_predictable() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("isle");
    let said = new_catan(&dir, &["--seed", "3"]);
    assert!(said.contains("PREDICTABLE"), "{said}");
    let public = std::fs::read_to_string(dir.join("randomness.toml")).expect("public");
    assert!(public.contains("predictable = true"), "{public}");
}

/// Roads & Boats games made before seeds were kept secret verify by their public seed.
#[test]
fn an_old_roads_and_boats_game_verifies_by_its_public_seed() {
    let (code, out, err) = judge(&["verify", "games/two-rivers-2p"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("made before the judge kept seeds secret"),
        "{out}"
    );
}

/// "Dice anyone can check, even against the GM": a clone of a finished game's
/// public git, as the judge keeps it: each turn's `report.txt`, `turn.json` and the
/// public files the judge writes with them (made here by the judge's own code from the
/// showcase's whole record), and no state, events or orders. Made once per showcase;
/// each test works on a copy.
mod public_clone {
    use super::*;
    use std::sync::OnceLock;

    /// What git keeps of a game with hidden cards: not its states, events, players'
    /// reports or orders (Catan's `private_files`).
    pub fn private(p: &Path) -> bool {
        let s = p.to_string_lossy();
        s.ends_with("state.json")
            || s.ends_with("events.json")
            || s.contains("/reports/")
            || s.contains("/orders/")
    }

    fn build(showcase: &str) -> tempfile::TempDir {
        use pbem_judge::pbem;
        let tmp = tempfile::tempdir().expect("tmp");
        let whole = tmp.path().join("whole");
        support::copy_dir(Path::new(showcase), &whole, &|_| true);
        let archive = pbem_judge::archive::Archive::open(&whole).expect("archive");
        let game = pbem_judge::games::by_id(&archive.game.game).expect("game");
        let turns = archive.turns().expect("turns");
        for t in turns {
            let after = pbem::position(&archive, game, t).expect("position");
            let files: Vec<(String, Vec<u8>)> = if t == 0 {
                after
                    .public_record()
                    .map(|p| ("public.json".to_string(), p.into_bytes()))
                    .into_iter()
                    .collect()
            } else {
                let report = pbem::report::of_turn(&archive, game, t).expect("report");
                let reveal = after
                    .over()
                    .and_then(|_| archive.secret().expect("the seed"));
                pbem::report::files(&archive, report.as_ref(), after.as_ref(), reveal.as_ref())
                    .expect("files")
            };
            for (name, bytes) in files {
                std::fs::write(archive.turn_dir(t).join(name), bytes).expect("write");
            }
        }
        let public = tmp.path().join("public");
        support::copy_dir(&whole, &public, &|p| !private(p));
        std::fs::remove_dir_all(&whole).expect("rm");
        tmp
    }

    /// A fresh copy of the public clone of `showcase`, at `into`.
    pub fn of(showcase: &'static str, into: &Path) {
        static CATAN: OnceLock<tempfile::TempDir> = OnceLock::new();
        static EXPRESS: OnceLock<tempfile::TempDir> = OnceLock::new();
        let made = match showcase {
            "games/catan-4p" => CATAN.get_or_init(|| build(showcase)),
            "games/catan-express-4p" => EXPRESS.get_or_init(|| build(showcase)),
            other => panic!("no public clone of {other}"),
        };
        support::copy_dir(&made.path().join("public"), into, &|_| true);
    }

    /// The Catan turn a step's report is of, and the roll it shows (`red rolled 1 + 4 = 5`).
    pub fn roll_of(dir: &Path, step: u32) -> (u32, String) {
        let text = std::fs::read_to_string(dir.join(format!("turns/{step:03}/report.txt")))
            .expect("report");
        let turn = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("This report: "))
            .and_then(|r| r.split("'s turn ").nth(1))
            .and_then(|t| t.trim_end_matches('.').parse().ok())
            .expect("the report's turn");
        let roll = text
            .lines()
            .map(str::trim)
            .find(|l| l.contains(" rolled "))
            .expect("a roll")
            .to_string();
        (turn, roll)
    }

    /// Rewrite a step's roll everywhere the public record shows it: the report's line
    /// (and its turn, when `turn` is given) and, where the record keeps them, the
    /// structured draws — as a GM who forged a roll would.
    pub fn forge(dir: &Path, step: u32, written: &str, dice: [u8; 2], turn: Option<u32>) {
        let folder = dir.join(format!("turns/{step:03}"));
        let (was_turn, was) = roll_of(dir, step);
        let who = was.split(" rolled ").next().expect("who").to_string();
        let mut text = std::fs::read_to_string(folder.join("report.txt")).expect("report");
        text = text.replace(&was, &format!("{who} rolled {written}"));
        if let Some(t) = turn {
            text = text.replace(&format!("'s turn {was_turn}."), &format!("'s turn {t}."));
        }
        std::fs::write(folder.join("report.txt"), text).expect("write");
        let draws = folder.join("draws.json");
        if let Ok(json) = std::fs::read_to_string(&draws) {
            let mut v: serde_json::Value = serde_json::from_str(&json).expect("json");
            for roll in v["rolls"].as_array_mut().expect("rolls") {
                roll["dice"] = serde_json::json!(dice);
                if let Some(t) = turn {
                    roll["turn"] = serde_json::json!(t);
                }
            }
            std::fs::write(&draws, v.to_string()).expect("write");
        }
    }
}

fn verify_clone(dir: &Path) -> (i32, String) {
    let (code, out, err) = judge(&["verify", dir.to_str().expect("utf-8")]);
    (code, format!("{out}{err}"))
}

/// "a report rewritten to `6 + 6 = 12` with its turn number changed
/// to that of another turn whose dice were 6+6: verified". The forged roll is caught,
/// however the record says which turn it is of.
#[test]
fn a_roll_forged_with_another_turns_number_is_caught() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("public");
    public_clone::of("games/catan-4p", &dir);
    assert_eq!(verify_clone(&dir).0, 0, "the honest record verifies");
    // Step 16 rolled 6 + 6; step 20 did not.
    let (sixes, roll) = public_clone::roll_of(&dir, 16);
    assert!(roll.ends_with("rolled 6 + 6 = 12"), "{roll}");
    assert!(!public_clone::roll_of(&dir, 20).1.ends_with("= 12"));
    public_clone::forge(&dir, 20, "6 + 6 = 12", [6, 6], Some(sixes));
    let (code, out) = verify_clone(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("NOT VERIFIED: step 20"), "{out}");
}

/// "`judge verify` mixes step and turn numbers (\"turn 12 differs:
/// turn 4: …\")". A Catan game's archive is kept in steps and its players play turns:
/// verify names a step of the record as a step (`step 20 differs`, `NOT VERIFIED: step
/// 20 is the first that differs`) and a player's turn as a turn; a Roads & Boats game,
/// whose record is kept in turns, still says turn.
#[test]
fn verify_says_step_for_a_step_and_turn_for_a_turn() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("public");
    public_clone::of("games/catan-4p", &dir);
    let (code, out) = verify_clone(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("step 0 and "), "{out}");
    assert!(!out.contains("turn 0 and"), "{out}");
    public_clone::forge(&dir, 20, "6 +6 = 12", [6, 6], None);
    let (code, out) = verify_clone(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("step 20 differs: "), "{out}");
    assert!(
        out.contains("NOT VERIFIED: step 20 is the first that differs"),
        "{out}"
    );
    assert!(
        !out.contains("turn 20 differs") && !out.contains("turn 20 is the first"),
        "{out}"
    );
    // The step's public record out of place: named as steps, not turns.
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("public");
    public_clone::of("games/catan-4p", &dir);
    let (a, b) = (
        dir.join("turns/020/public.json"),
        dir.join("turns/030/public.json"),
    );
    std::fs::copy(&b, &a).expect("copy");
    let (code, out) = verify_clone(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("is the position after step 30, not after step 20"),
        "{out}"
    );
    // Roads & Boats keeps turns.
    let tmp = tempfile::tempdir().expect("tmp");
    let rb = tmp.path().join("two-rivers");
    support::copy_dir(Path::new("games/two-rivers-2p"), &rb, &|_| true);
    std::fs::remove_file(rb.join("turns/005/state.json")).expect("rm");
    let (code, out) = verify_clone(&rb);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("NOT VERIFIED: turn 5 is the first that differs"),
        "{out}"
    );
    assert!(!out.contains("step 5"), "{out}");
}

/// "A deleted report: exit 0." A turn whose public report (or any
/// file of its public record) is gone fails, named.
#[test]
fn a_deleted_report_fails_verification() {
    for file in ["report.txt", "draws.json", "public.json"] {
        let tmp = tempfile::tempdir().expect("tmp");
        let dir = tmp.path().join("public");
        public_clone::of("games/catan-4p", &dir);
        let _ = std::fs::remove_file(dir.join("turns/020").join(file));
        let (code, out) = verify_clone(&dir);
        assert_eq!(code, 1, "{file}: {out}");
        assert!(out.contains("NOT VERIFIED: step 20"), "{file}: {out}");
        assert!(out.contains(file), "{file} is named: {out}");
    }
}

/// "A roll written `6 +6 = 12`: not read, exit 0." A roll is read
/// from the structured record, and the report must show it as the judge writes it.
#[test]
fn a_roll_written_another_way_is_caught() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("public");
    public_clone::of("games/catan-4p", &dir);
    public_clone::forge(&dir, 20, "6 +6 = 12", [6, 6], None);
    let (code, out) = verify_clone(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("NOT VERIFIED: step 20"), "{out}");
    // The report alone rewritten so (the record's draws left true) is caught too: the
    // report no longer shows the roll the record has.
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("public");
    public_clone::of("games/catan-4p", &dir);
    let report = dir.join("turns/020/report.txt");
    let (_, roll) = public_clone::roll_of(&dir, 20);
    let (who, _) = roll.split_once(" rolled ").expect("roll");
    let text = std::fs::read_to_string(&report).expect("report");
    std::fs::write(
        &report,
        text.replace(&roll, &format!("{who} rolled 6 +6 = 12")),
    )
    .expect("write");
    let (code, out) = verify_clone(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("NOT VERIFIED: step 20"), "{out}");
}

/// "a missing or reordered turn fails". Two turns' public records
/// swapped, a turn's whole public record gone (its folder left), the last turn gone.
#[test]
fn a_missing_or_reordered_turn_fails() {
    let public_files = ["report.txt", "turn.json", "public.json", "draws.json"];
    // Steps 20 and 30 swapped.
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("public");
    public_clone::of("games/catan-4p", &dir);
    for f in public_files {
        let (a, b) = (dir.join("turns/020").join(f), dir.join("turns/030").join(f));
        if a.exists() {
            let keep = std::fs::read(&a).expect("read");
            std::fs::copy(&b, &a).expect("copy");
            std::fs::write(&b, keep).expect("write");
        }
    }
    let (code, out) = verify_clone(&dir);
    assert_eq!(code, 1, "swapped: {out}");
    assert!(out.contains("NOT VERIFIED: step 20"), "{out}");
    // Step 20's public record gone, its folder left.
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("public");
    public_clone::of("games/catan-4p", &dir);
    for f in public_files {
        let _ = std::fs::remove_file(dir.join("turns/020").join(f));
    }
    let (code, out) = verify_clone(&dir);
    assert_eq!(code, 1, "emptied: {out}");
    assert!(out.contains("NOT VERIFIED: step 20"), "{out}");
    // The last step gone: the seed was published after it.
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("public");
    public_clone::of("games/catan-4p", &dir);
    let last = std::fs::read_dir(dir.join("turns")).expect("turns").count() - 1;
    std::fs::remove_dir_all(dir.join(format!("turns/{last:03}"))).expect("rm");
    let (code, out) = verify_clone(&dir);
    assert_eq!(code, 1, "the last turn gone: {out}");
    assert!(out.contains(&format!("NOT VERIFIED: step {last}")), "{out}");
}

/// A game whose states are public (Roads & Boats) is verified by
/// playing every turn again; a clone of it with a state deleted was "verified" with no
/// draw checked (an older game's, an I/O error). Now the missing state is named, and it
/// fails.
#[test]
fn a_game_with_public_states_missing_one_fails() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("rivers");
    let d = dir.to_str().expect("utf-8");
    ok(&[
        "new",
        d,
        "--scenario",
        "two-rivers",
        "--player",
        "Ann:ann@example.org",
        "--player",
        "Bob:bob@example.org",
    ]);
    ok(&["turn", d, "--force"]);
    ok(&["turn", d, "--force"]);
    ok(&["end", d, "--why", "a test of verify"]);
    assert_eq!(verify_clone(&dir).0, 0);
    std::fs::remove_file(dir.join("turns/001/state.json")).expect("rm");
    let (code, out) = verify_clone(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("NOT VERIFIED: turn 1"), "{out}");
    assert!(out.contains("state.json is missing"), "{out}");
    // A game made before seeds were kept secret, the same.
    let old = tmp.path().join("two-rivers-2p");
    support::copy_dir(Path::new("games/two-rivers-2p"), &old, &|_| true);
    std::fs::remove_file(old.join("turns/003/state.json")).expect("rm");
    let (code, out) = verify_clone(&old);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("NOT VERIFIED: turn 3"), "{out}");
}

/// "`press to all: lucky me, I rolled 6 + 6 = 12 last night` gives
/// NOT VERIFIED: turn 1". A game played by mail, a player's press in its first report,
/// the seed published: a clone of its public git verifies.
#[test]
fn press_about_dice_never_fails_an_honest_game() {
    let mut f = crate::judge_core::mail_commands::Folder::new();
    let secrets = f.game(
        "isle",
        &[
            &["--game", "catan", "--seed", "11"][..],
            &support::ANN_BOB_CAT,
        ]
        .concat(),
    );
    let ann = secrets
        .iter()
        .find(|(s, _)| s == "red")
        .map(|(_, s)| s.clone())
        .expect("red's secret");
    f.send(
        "Ann <ann@example.org>",
        &format!(
            "game isle\nsecret {ann}\npress to all: lucky me, I rolled 6 + 6 = 12 last night\n"
        ),
    );
    f.pass();
    let d = f.dir("isle");
    let d = d.to_str().expect("utf-8");
    f.judge(&["turn", d, "--force"]);
    let report = std::fs::read_to_string(f.dir("isle").join("turns/001/report.txt"))
        .expect("turn 1's report");
    assert!(report.contains("I rolled 6 + 6 = 12"), "{report}");
    f.judge(&["end", d, "--why", "a test of verify"]);
    let tmp = tempfile::tempdir().expect("tmp");
    let clone = tmp.path().join("isle");
    let kept = git_kept(&f.dir("isle"));
    for file in kept.lines() {
        let to = clone.join(file);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(f.dir("isle").join(file), to).expect("copy");
    }
    assert!(
        !clone.join("turns/001/state.json").exists(),
        "a public clone"
    );
    let (code, out) = verify_clone(&clone);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("verified"), "{out}");
}

/// "`judge verify` has a property test: any change to a public
/// record's draws, turn order or set of turns is caught; any press text never is." On a
/// clone of catan-4p's public git (68 steps, 60 rolls): a random change of each kind,
/// made as a forger would make it (the report's roll line rewritten to match, where it
/// shows one), fails verification; press to everyone of random text — roll-shaped
/// lines, report-shaped lines, anything — added to a random step's report as the judge
/// prints it, and kept as the judge keeps it, never does.
mod verify_property {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    const SHOWCASE: &str = "games/catan-4p";

    /// What `judge verify` says of the folder: verified or not (a record the archive
    /// itself refuses — a gap in its turns — is not verified either).
    fn verified(dir: &Path) -> Result<(), String> {
        let archive = pbem_judge::archive::Archive::open(dir).map_err(|e| e.to_string())?;
        let game = pbem_judge::games::by_id(&archive.game.game).map_err(|e| e.message)?;
        let v = pbem_judge::pbem::verify::run(&archive, game).map_err(|e| e.to_string())?;
        if v.ok() {
            Ok(())
        } else {
            Err(v.lines.join("\n"))
        }
    }

    fn turns(dir: &Path) -> u32 {
        std::fs::read_dir(dir.join("turns")).expect("turns").count() as u32
    }

    fn step(dir: &Path, t: u32) -> std::path::PathBuf {
        dir.join(format!("turns/{t:03}"))
    }

    fn draws(dir: &Path, t: u32) -> Value {
        serde_json::from_str(
            &std::fs::read_to_string(step(dir, t).join("draws.json")).expect("draws"),
        )
        .expect("json")
    }

    fn put_draws(dir: &Path, t: u32, v: &Value) {
        std::fs::write(step(dir, t).join("draws.json"), v.to_string()).expect("write");
    }

    /// The steps that rolled.
    fn rolling(dir: &Path) -> Vec<u32> {
        (1..turns(dir))
            .filter(|t| {
                !draws(dir, *t)["rolls"]
                    .as_array()
                    .expect("rolls")
                    .is_empty()
            })
            .collect()
    }

    /// The report line of a roll as the judge writes it.
    fn line(roll: &Value) -> String {
        let d = |i: usize| roll["dice"][i].as_u64().expect("die");
        format!(
            "{} rolled {} + {} = {}",
            roll["player"].as_str().expect("player"),
            d(0),
            d(1),
            d(0) + d(1)
        )
    }

    /// Rewrite a step's roll `i` (its report line too, as a forger would).
    fn rewrite(dir: &Path, t: u32, i: usize, f: impl FnOnce(&mut Value)) {
        let mut v = draws(dir, t);
        let roll = &mut v["rolls"][i];
        let was = line(roll);
        f(roll);
        let now = line(roll);
        put_draws(dir, t, &v);
        let report = step(dir, t).join("report.txt");
        let text = std::fs::read_to_string(&report).expect("report");
        std::fs::write(&report, text.replace(&was, &now)).expect("write");
    }

    /// A change to the record's draws, turn order or set of turns; the numbers pick
    /// where (taken modulo what there is).
    #[derive(Clone, Debug)]
    enum Change {
        /// A roll's dice made other dice.
        Dice {
            at: usize,
            dice: [u8; 2],
        },
        /// A roll said to be of another player's turn.
        RollTurn {
            at: usize,
            by: u32,
        },
        /// A roll given to another player.
        Roller {
            at: usize,
            by: usize,
        },
        /// A roll moved to another step.
        Moved {
            at: usize,
            to: usize,
        },
        /// A roll taken out, or made twice.
        Dropped {
            at: usize,
        },
        Doubled {
            at: usize,
        },
        /// Two steps' public records swapped.
        Swapped {
            a: u32,
            b: u32,
        },
        /// A step's public file deleted (0: public.json, 1: draws.json, 2: report.txt),
        /// or its whole folder.
        FileGone {
            at: u32,
            file: usize,
        },
        TurnGone {
            at: u32,
        },
        /// The last step's public record copied as one more step.
        Extra,
    }

    fn change() -> impl Strategy<Value = Change> {
        prop_oneof![
            (any::<usize>(), 1u8..=6, 1u8..=6)
                .prop_map(|(at, a, b)| Change::Dice { at, dice: [a, b] }),
            (any::<usize>(), 1u32..100).prop_map(|(at, by)| Change::RollTurn { at, by }),
            (any::<usize>(), 1usize..4).prop_map(|(at, by)| Change::Roller { at, by }),
            (any::<usize>(), any::<usize>()).prop_map(|(at, to)| Change::Moved { at, to }),
            any::<usize>().prop_map(|at| Change::Dropped { at }),
            any::<usize>().prop_map(|at| Change::Doubled { at }),
            (0u32..69, 0u32..69)
                .prop_filter("two steps", |(a, b)| a != b)
                .prop_map(|(a, b)| Change::Swapped { a, b }),
            (0u32..69, 0usize..3).prop_map(|(at, file)| Change::FileGone { at, file }),
            (0u32..69).prop_map(|at| Change::TurnGone { at }),
            Just(Change::Extra),
        ]
    }

    /// Make the change; false when it changes nothing (new dice equal to the old).
    fn apply(dir: &Path, c: &Change) -> bool {
        let rolls = rolling(dir);
        let pick = |at: usize| rolls[at % rolls.len()];
        match c {
            Change::Dice { at, dice } => {
                let t = pick(*at);
                if draws(dir, t)["rolls"][0]["dice"] == serde_json::json!(dice) {
                    return false;
                }
                rewrite(dir, t, 0, |r| r["dice"] = serde_json::json!(dice));
            }
            Change::RollTurn { at, by } => {
                rewrite(dir, pick(*at), 0, |r| {
                    let t = r["turn"].as_u64().expect("turn");
                    r["turn"] = serde_json::json!(t + u64::from(*by));
                });
            }
            Change::Roller { at, by } => {
                let colours = ["red", "blue", "white", "orange"];
                rewrite(dir, pick(*at), 0, |r| {
                    let i = colours
                        .iter()
                        .position(|c| r["player"] == *c)
                        .expect("a colour");
                    r["player"] = serde_json::json!(colours[(i + by) % 4]);
                });
            }
            Change::Moved { at, to } => {
                let from = pick(*at);
                let to = (1..turns(dir))
                    .filter(|t| *t != from)
                    .nth(to % (turns(dir) as usize - 2))
                    .expect("a step");
                let mut a = draws(dir, from);
                let roll = a["rolls"].as_array_mut().expect("rolls").remove(0);
                put_draws(dir, from, &a);
                let mut b = draws(dir, to);
                b["rolls"].as_array_mut().expect("rolls").push(roll.clone());
                put_draws(dir, to, &b);
                // The line moves with it.
                for (t, f) in [(from, true), (to, false)] {
                    let report = step(dir, t).join("report.txt");
                    let text = std::fs::read_to_string(&report).expect("report");
                    let text = if f {
                        text.replace(&line(&roll), "")
                    } else {
                        format!("{text}\n      {}\n", line(&roll))
                    };
                    std::fs::write(&report, text).expect("write");
                }
            }
            Change::Dropped { at } => {
                let t = pick(*at);
                let mut v = draws(dir, t);
                let roll = v["rolls"].as_array_mut().expect("rolls").remove(0);
                put_draws(dir, t, &v);
                let report = step(dir, t).join("report.txt");
                let text = std::fs::read_to_string(&report).expect("report");
                std::fs::write(&report, text.replace(&line(&roll), "")).expect("write");
            }
            Change::Doubled { at } => {
                let t = pick(*at);
                let mut v = draws(dir, t);
                let rolls = v["rolls"].as_array_mut().expect("rolls");
                rolls.push(rolls[0].clone());
                put_draws(dir, t, &v);
            }
            Change::Swapped { a, b } => {
                let (a, b) = (step(dir, *a), step(dir, *b));
                let tmp = dir.join("swap");
                std::fs::rename(&a, &tmp).expect("mv");
                std::fs::rename(&b, &a).expect("mv");
                std::fs::rename(&tmp, &b).expect("mv");
            }
            Change::FileGone { at, file } => {
                let name = ["public.json", "draws.json", "report.txt"][*file];
                if std::fs::remove_file(step(dir, *at).join(name)).is_err() {
                    return false; // turn 0 has no draws or report
                }
            }
            Change::TurnGone { at } => {
                std::fs::remove_dir_all(step(dir, *at)).expect("rm");
            }
            Change::Extra => {
                let last = turns(dir) - 1;
                support::copy_dir(&step(dir, last), &step(dir, last + 1), &|_| true);
            }
        }
        true
    }

    /// A line of press: anything, or shaped like the report's own lines.
    fn press_line() -> impl Strategy<Value = String> {
        let colour =
            prop::sample::select(vec!["red", "blue", "white", "orange", "I", "lucky me, I"]);
        prop_oneof![
            "[ -~]{0,70}",
            (colour.clone(), 1u8..=6, 1u8..=6, any::<bool>()).prop_map(|(c, a, b, odd)| {
                if odd {
                    format!("{c} rolled {a} +{b} = {}", a + b)
                } else {
                    format!("{c} rolled {a} + {b} = {}", a + b)
                }
            }),
            (colour.clone(), 0u32..80).prop_map(|(c, t)| format!("This report: {c}'s turn {t}.")),
            (colour, 0u32..80).prop_map(|(c, t)| format!("* {c}'s turn {t} begins")),
            Just("THE DICE, REVEALED".to_string()),
        ]
    }

    /// Press to everyone kept for step `t` and printed in its report, as the judge
    /// does (before the seed's paragraph, on the last step).
    fn add_press(dir: &Path, t: u32, lines: &[String], n: usize) {
        let archive = pbem_judge::archive::Archive::open(dir).expect("archive");
        let seat = ["red", "blue", "white", "orange"][n % 4];
        let shown = if n.is_multiple_of(5) {
            "anonymous".to_string()
        } else {
            format!("{seat} (P)")
        };
        pbem_judge::pbem::press::keep(&archive, t, seat, None, &shown, &lines.join("\n"))
            .expect("keep");
        let section = pbem_judge::pbem::press::section(&archive, t).expect("section");
        let report = step(dir, t).join("report.txt");
        let Ok(text) = std::fs::read_to_string(&report) else {
            return; // turn 0 has no report
        };
        let text = match text.find("\n  THE DICE, REVEALED") {
            Some(i) => format!("{}{section}{}", &text[..i], &text[i..]),
            None => text + &section,
        };
        std::fs::write(&report, text).expect("write");
    }

    /// A roll moved to the step before the one it was made in (the first roll, to the
    /// last founding placement, which ends at the first player's turn before its roll;
    /// or any roll to the step that ended the turn before): the property test once let
    /// it by, as the check took a step's turn for rolled or not. A step has rolled its
    /// turn's dice exactly when its position shows them.
    #[test]
    fn a_roll_moved_a_step_earlier_is_caught() {
        let tmp = tempfile::tempdir().expect("tmp");
        let base = tmp.path().join("base");
        public_clone::of(SHOWCASE, &base);
        let rolls = rolling(&base);
        for at in [0, 1, rolls.len() / 2] {
            let from = rolls[at];
            let dir = tmp.path().join(format!("moved-{at}"));
            support::copy_dir(&base, &dir, &|_| true);
            // The step before `from`: the (from - 2)th of the steps but `from`.
            assert!(apply(
                &dir,
                &Change::Moved {
                    at,
                    to: from as usize - 2
                }
            ));
            assert!(
                verified(&dir).is_err(),
                "the roll of step {from} moved to {}",
                from - 1
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn any_change_to_draws_order_or_turns_is_caught(c in change()) {
            let tmp = tempfile::tempdir().expect("tmp");
            let dir = tmp.path().join("public");
            public_clone::of(SHOWCASE, &dir);
            if apply(&dir, &c) {
                prop_assert!(verified(&dir).is_err(), "{:?} was not caught", c);
            }
        }

        #[test]
        fn no_press_text_is_ever_caught(
            press in prop::collection::vec(
                (0u32..69, prop::collection::vec(press_line(), 1..6)),
                1..4,
            ),
        ) {
            let tmp = tempfile::tempdir().expect("tmp");
            let dir = tmp.path().join("public");
            public_clone::of(SHOWCASE, &dir);
            for (n, (t, lines)) in press.iter().enumerate() {
                add_press(&dir, *t, lines, n);
            }
            prop_assert_eq!(verified(&dir), Ok(()));
        }
    }
}
