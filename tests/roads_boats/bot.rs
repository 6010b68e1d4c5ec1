//! "The bots": Roads & Boats' first player (`roads_boats::bot`, what `judge
//! bot` prints and the caretaker plays). "A bot's order file is always accepted by
//! `judge check` with no error, for random positions of every bundled scenario (Roads &
//! Boats with all their modules ...)", and the caretaker beats the idle player.

use crate::support;

use pbem_judge::pbem::game::Position;
use pbem_judge::roads_boats::scenario::bundled;

/// Over random rich positions of every bundled scenario, with every module in play, each
/// seat's file checks with no error.
#[test]
fn the_caretakers_file_always_checks_in_every_bundled_scenario() {
    let mut files = 0;
    // Scenarios that begin with a round by mail (homes chosen, an auction) are started
    // with every player's default choice (rich_state).
    for name in bundled().keys() {
        for seed in 0..4u64 {
            let s = support::rich_state(name, seed, 4);
            for c in s.move_order.clone() {
                let seat = c.name();
                let text = s
                    .bot("rich", seat)
                    .expect("Roads & Boats has a bot")
                    .expect("the bot writes a file");
                let checked = s.check(&text, "bot", Some(seat), Some("rich"));
                assert_eq!(
                    checked.errors(),
                    0,
                    "{name} seed {seed}, {seat}:\n{}\n{text}",
                    checked.text
                );
                files += 1;
            }
        }
    }
    assert!(files > 40, "{files} files");
}

/// `judge selfplay roads-boats --bots BOTS --games GAMES`: what it prints.
fn selfplay(bots: &str, games: &str) -> String {
    let (code, out, err) = support::judge_text(
        &["selfplay", "roads-boats", "--bots", bots, "--games", games],
        &[],
    );
    assert_eq!(code, 0, "{out}{err}");
    out
}

/// "on `two-rivers` the caretaker beats `idle` and `random` in every one of 100 seeds",
/// the seats rotating; and a whole two-player game of caretakers is played by the
/// judge's own resolver, as by mail.
#[test]
fn the_caretaker_beats_the_idle_player_on_two_rivers() {
    for against in ["idle", "random"] {
        let out = selfplay(&format!("caretaker,{against}"), "100");
        assert!(
            out.contains("  red     caretaker  won     100 (100.0%"),
            "{out}"
        );
        // "reports scores, wonder bricks, turns and speed"
        for said in [
            "; mean score ",
            "; mean wonder bricks ",
            "turns per game ",
            " ms per game",
        ] {
            assert!(out.contains(said), "{said}: {out}");
        }
    }
    selfplay("caretaker,caretaker", "4");
    // "in four-player games of three caretakers and one random, the caretakers take the
    // top three places in at least 95 of 100" (here 20, on four-shores).
    let (code, out, err) = support::judge_text(
        &[
            "selfplay",
            "roads-boats",
            "--bots",
            "caretaker,caretaker,caretaker,random",
            "--scenario",
            "four-shores",
            "--games",
            "20",
        ],
        &[],
    );
    assert_eq!(code, 0, "{out}{err}");
    let random_last = out
        .lines()
        .find(|l| l.starts_with("  ") && l.contains(" random "))
        .and_then(|l| l.split("last in ").nth(1))
        .and_then(|n| n.split(';').next())
        .and_then(|n| n.trim().parse::<u32>().ok())
        .expect("the random bot's line");
    assert!(random_last >= 19, "{out}");
    let (code, _, err) = support::judge_text(&["selfplay", "roads-boats", "--games", "4"], &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains("no random self-play: seat its bots with --bots (caretaker, random, idle)"),
        "{err}"
    );
}

/// The caretaker "researches when it can": with 2 geese and a paper lying at
/// home and a transporter there, its file researches (the mines first) in the
/// production phase, and the file checks; without them it writes no research.
#[test]
fn the_caretaker_researches_when_the_goods_lie_at_home() {
    use pbem_judge::roads_boats::goods::Good;
    use pbem_judge::roads_boats::scenario::Scenario;
    let s = Scenario::parse("two-rivers", bundled()["two-rivers"])
        .expect("bundled")
        .start_by_default(
            &[
                pbem_judge::roads_boats::scenario::Seat {
                    name: "Ann".into(),
                    email: "ann@example.org".into(),
                },
                pbem_judge::roads_boats::scenario::Seat {
                    name: "Bob".into(),
                    email: "bob@example.org".into(),
                },
            ],
            &pbem_judge::luck::Luck::predictable(3),
        )
        .expect("start");
    let me = s.move_order[0];
    let home = s.players[&me].home.expect("a home");
    let without = s.bot("g", me.name()).expect("a bot").expect("a file");
    assert!(!without.contains("research"), "{without}");
    let mut with = s.clone();
    let goods = with.goods.entry(home).or_default();
    goods.add(Good::Geese, 2);
    goods.add(Good::Paper, 1);
    let text = with.bot("g", me.name()).expect("a bot").expect("a file");
    assert!(
        text.contains("production\nresearch large-mines with "),
        "{text}"
    );
    let checked = with.check(&text, "bot", Some(me.name()), Some("g"));
    assert_eq!(checked.errors(), 0, "{}\n{text}", checked.text);
}

/// The ladder shows how each bot plays, not only whether it wins: per seat its mean
/// score, wonder bricks and research done, and how many of its games reached each good
/// along the chain (trunks < clay < stone < boards < ... < coins < stock), every game
/// counted once. The idle player lays no brick and researches nothing.
#[test]
fn the_ladder_shows_each_bots_score_bricks_research_and_furthest_good() {
    let out = selfplay("caretaker,idle", "2");
    for bot in ["caretaker", "idle"] {
        let line = out
            .lines()
            .find(|l| l.starts_with("  ") && l.contains(&format!(" {bot} ")))
            .unwrap_or_else(|| panic!("{bot}'s line: {out}"));
        for said in [
            "; mean score ",
            "; mean wonder bricks ",
            "; mean research ",
            "; furthest good ",
        ] {
            assert!(line.contains(said), "{said}: {line}");
        }
        let furthest = line.split("; furthest good ").nth(1).expect("the figure");
        let games: u32 = furthest
            .split(", ")
            .map(|step| {
                let (name, n) = step.rsplit_once(' ').expect("a step and a count");
                assert!(
                    [
                        "none", "trunks", "clay", "stone", "boards", "paper", "fuel", "iron",
                        "gold", "coins", "stock"
                    ]
                    .contains(&name),
                    "{name}: {line}"
                );
                n.parse::<u32>().expect("a count")
            })
            .sum();
        assert_eq!(games, 2, "every game counted once: {line}");
    }
    let idle = out
        .lines()
        .find(|l| l.starts_with("  ") && l.contains(" idle "))
        .expect("idle");
    assert!(idle.contains("; mean wonder bricks 0.0"), "{idle}");
    assert!(idle.contains("; mean research 0.0"), "{idle}");
    // The goods a player starts with at home are not of its making.
    assert!(idle.contains("; furthest good none 2"), "{idle}");
}
