//! `judge verify`: the dice anyone can check. A game publishes a commitment to its
//! secret seed when it begins and the seed itself when it ends
//! ([`crate::archive::randomness`]); this checks that the seed fits the commitment and
//! that every draw of the archive came from it.
//!
//! On the GM's whole archive (states and events there) every turn is played again with
//! the revealed seed and compared byte for byte: the dice, the deck, every steal, the
//! move order. On a clone of a game's public git, where a game with hidden hands keeps
//! only its public record, the game checks the record's structured draws turn by turn
//! ([`Game::draw_check`]: `public.json` and `draws.json`, every turn there, in order,
//! each draw at its place in the seed's streams), never the reports' prose nor press.
//! Either way the record must run at least to the turn the seed was published after.

use super::error::Error;
use super::game::{Game, PublicTurn, Seeds};
use super::layout::REPORT_FILE;
use crate::archive::randomness::{Secret, Status};
use crate::archive::{Archive, DRAWS_FILE, PUBLIC_FILE, STATE_FILE};

/// What `judge verify` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verified {
    /// Lines for people: what was checked, and how it came out.
    pub lines: Vec<String>,
    /// The first turn whose draws differ from the seed's, and how.
    pub first_difference: Option<(u32, String)>,
    /// What the game calls one folder of its archive: `turn`, or `step` (a game played a
    /// player at a time).
    pub unit: &'static str,
    /// The commitment does not fit the revealed seed and salt.
    pub commitment_broken: bool,
}

impl Verified {
    pub fn ok(&self) -> bool {
        self.first_difference.is_none() && !self.commitment_broken
    }
}

/// What players are told of the game's dice when it begins (the welcome mail, the
/// site): the commitment to its secret seed, or that its draws are predictable. `None`
/// for a game made before seeds were kept secret.
pub fn announcement(archive: &Archive) -> Result<Option<String>, Error> {
    Ok(match archive.randomness()? {
        Status::Legacy => None,
        Status::Sealed(p) | Status::Revealed(p, _) if p.predictable => Some(
            "This game's hidden draws (dice, cards, the move order) were made from a number the GM chose (judge new --seed): anyone who knows it can tell them in advance. Such a game is for tests and showcases.".to_string(),
        ),
        Status::Sealed(p) => Some(format!(
            "The dice: this game's hidden draws (dice, cards, the move order) come from a secret seed the judge drew at random when the game began. Its commitment, SHA-256 of the seed and a salt, is\n\n    {}\n\nWhen the game ends the seed and salt are published, and anyone can check with `judge verify` that every roll came from them (docs/gm-guide.md, \"Dice anyone can check\").",
            p.commitment
        )),
        Status::Revealed(p, s) => Some(format!(
            "The dice: this game's hidden draws came from the seed {} (salt {}), now published; its commitment was {}. `judge verify` checks every roll against it.",
            s.luck.to_hex(),
            crate::luck::hex(&s.salt),
            p.commitment
        )),
    })
}

/// Check a game's randomness: its commitment and every draw the archive holds.
pub fn run(archive: &Archive, game: &dyn Game) -> Result<Verified, Error> {
    let mut v = Verified {
        unit: game.pace().unit(),
        ..Verified::default()
    };
    let unit = v.unit;
    let secret: Secret = match archive.randomness()? {
        Status::Legacy => {
            v.lines.push(format!(
                "This game was made before the judge kept seeds secret: its draws come from game.toml's public seed {}.",
                archive.game.seed
            ));
            let seeds = Seeds::predictable(archive.game.seed);
            return whole_or_public(archive, game, &seeds, &archive.turns()?, v);
        }
        Status::Sealed(public) => match archive.secret() {
            Ok(Some(s)) => {
                v.lines.push(format!(
                    "The seed is not published yet (the game is still running): checked with the judge's own {}. Players can check once it is (judge reveal, or the game's end).",
                    crate::archive::randomness::KEY_FILE
                ));
                v.lines
                    .push(format!("commitment {}: matches", public.commitment));
                s
            }
            _ => {
                return Err(Error::input(format!(
                    "{}: the seed of this game is not published yet, so its draws cannot be checked: it is published when the game ends (or when the GM runs judge reveal). The commitment to it is {}.",
                    archive.root().display(),
                    public.commitment
                )));
            }
        },
        Status::Revealed(public, s) => {
            if public.predictable {
                v.lines.push(
                    "This game's seed was made from a number (judge new --seed): its draws were predictable by anyone who knew it.".into(),
                );
            }
            if s.commitment() == public.commitment {
                v.lines.push(format!(
                    "commitment {}: SHA-256 of the published seed and salt matches",
                    public.commitment
                ));
            } else {
                v.commitment_broken = true;
                v.lines.push(format!(
                    "commitment {}: DOES NOT MATCH the published seed and salt (their SHA-256 is {})",
                    public.commitment,
                    s.commitment()
                ));
            }
            s
        }
    };
    let seeds = Seeds {
        public: archive.game.seed,
        luck: secret.luck,
    };
    let turns = archive.turns()?;
    // The record runs at least to the turn the seed was published after: a clone
    // without its last turns is no record of the game.
    if let Status::Revealed(public, _) = archive.randomness()?
        && let Some(after) = public.published_after_turn
    {
        let have = turns.last().copied();
        if have.is_none_or(|last| last < after) {
            let from = have.map_or(0, |last| last + 1);
            let why = format!(
                "the seed was published after {unit} {after} ({}), but the record stops {}: {} missing",
                crate::archive::randomness::RANDOMNESS_FILE,
                have.map_or(format!("before {unit} 0"), |l| format!("at {unit} {l}")),
                if from == after {
                    format!("{unit} {after} is")
                } else {
                    format!("{unit}s {from} to {after} are")
                }
            );
            v.lines.push(format!("{unit} {from} is missing: {why}"));
            v.first_difference = Some((from, why));
            return Ok(v);
        }
    }
    whole_or_public(archive, game, &seeds, &turns, v)
}

/// The whole archive played again, when it holds every turn's state; else its public
/// record.
fn whole_or_public(
    archive: &Archive,
    game: &dyn Game,
    seeds: &Seeds,
    turns: &[u32],
    v: Verified,
) -> Result<Verified, Error> {
    let whole = turns
        .iter()
        .all(|t| archive.turn_dir(*t).join(STATE_FILE).is_file());
    if whole && !turns.is_empty() {
        replay_all(archive, game, seeds, v)
    } else {
        public_record(archive, game, seeds, turns, v)
    }
}

/// Every turn played again with the seeds, compared byte for byte.
fn replay_all(
    archive: &Archive,
    game: &dyn Game,
    seeds: &Seeds,
    mut v: Verified,
) -> Result<Verified, Error> {
    let unit = v.unit;
    let checks = super::replay::run_seeded(archive, game, seeds, &mut |_| {})?;
    if let Some(c) = checks.iter().find(|c| !c.problems.is_empty()) {
        v.first_difference = Some((c.turn, c.problems.join("; ")));
    }
    v.lines.push(match &v.first_difference {
        None => format!(
            "{unit} 0 and {} played again from the seed: every draw and every state identical",
            crate::text::count(checks.len().saturating_sub(1), unit)
        ),
        Some((t, why)) => format!("{unit} {t} differs when played from this seed: {why}"),
    });
    Ok(v)
}

/// The public record alone: the game checks its structured draws, turn by turn from
/// turn 0; each turn after 0 must keep its report too.
fn public_record(
    archive: &Archive,
    game: &dyn Game,
    seeds: &Seeds,
    turns: &[u32],
    mut v: Verified,
) -> Result<Verified, Error> {
    let unit = v.unit;
    let differs = |v: &mut Verified, t: u32, why: String| {
        v.lines.push(format!("{} {t} differs: {why}", v.unit));
        v.first_difference = Some((t, why));
    };
    let Some(mut check) = game.draw_check(&seeds.luck) else {
        // A game whose states are public is checked by playing every turn again.
        let t = turns
            .iter()
            .copied()
            .find(|t| !archive.turn_dir(*t).join(STATE_FILE).is_file())
            .unwrap_or(0);
        differs(
            &mut v,
            t,
            format!(
                "its {STATE_FILE} is missing: the draws of {} are checked by playing every {unit} again, which needs every {unit}'s state (it keeps them public)",
                game.title()
            ),
        );
        return Ok(v);
    };
    if turns.first() != Some(&0) {
        differs(&mut v, 0, format!("the record has no {unit} 0"));
        return Ok(v);
    }
    let mut draws = 0;
    for &t in turns {
        let read = |name: &str| archive.read(t, name).ok();
        let (record, drawn, report) = (read(PUBLIC_FILE), read(DRAWS_FILE), read(REPORT_FILE));
        if t > 0 && report.is_none() {
            differs(
                &mut v,
                t,
                format!("its public report ({REPORT_FILE}) is missing"),
            );
            return Ok(v);
        }
        let turn = PublicTurn {
            turn: t,
            record: record.as_deref(),
            draws: drawn.as_deref(),
            report: report.as_deref(),
        };
        match check.turn(&turn) {
            Ok(n) => draws += n,
            Err(why) => {
                differs(&mut v, t, why.to_string());
                return Ok(v);
            }
        }
    }
    v.lines.push(format!(
        "{unit} 0 and {} of the public record checked against the seed, in order: all {} it shows came from it, each at its place (the hidden draws need the whole archive)",
        crate::text::count(turns.len().saturating_sub(1), unit),
        crate::text::count(draws, "draw")
    ));
    Ok(v)
}
