//! Issue 24, "The bots": the judge's Catan player (`catan::bot`, what `judge bot` and
//! the caretaker run) reads "only what its seat may know, never another's hand or the
//! dice to come" — proven as non-interference: over random positions of base Catan,
//! the 5–6 player extension and Catan Express, the file it writes for a seat is the same
//! byte for byte when every other player's hand and unplayed development cards, the
//! order of the deck and the game's secret seed (the dice to come) are made up anew.
//! And "a bot's order file is always accepted by `judge check` with no error".

use crate::catan_hidden::{incoming, new_devs, new_hand};
use crate::support;
use crate::support::catan::Variant;

use pbem_judge::catan::bot::{Player, orders_of};
use pbem_judge::catan::{Colour, State};
use pbem_judge::luck::{Luck, Rng};

fn cases() -> usize {
    std::env::var("CATAN_HIDDEN_CASES")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .map_or(60, |n| n / 4)
}

/// `s` with everything `me` may not know made up anew.
fn other_world(s: &State, me: u8, r: &mut Rng) -> State {
    let mut v: serde_json::Value = serde_json::from_str(&s.to_json()).expect("json");
    let others: Vec<usize> = (0..s.players.len()).filter(|q| *q != me as usize).collect();
    for &q in &others {
        let swap = others
            .iter()
            .copied()
            .filter(|o| *o != q)
            .collect::<Vec<_>>();
        new_hand(&mut v, q, support::pick(r, &swap).copied(), r);
        new_devs(&mut v, q, s.scenario.is_some(), r);
    }
    if let Some(deck) = v["deck"].as_array_mut() {
        for i in (1..deck.len()).rev() {
            deck.swap(i, r.below(i as u32 + 1) as usize);
        }
    }
    let mut b = State::from_json(&v.to_string()).expect("the made-up state reads");
    b.luck = Luck::predictable(r.below(u32::MAX) as u64);
    b
}

/// How many positions were compared, and in how many the bot wrote differently when
/// its own hand was made up anew too (the comparison has teeth: the file does hang on
/// what the seat knows).
fn run(v: Variant, player: Player) -> (usize, usize) {
    let game = v.game();
    let want = cases();
    let mut compared = 0;
    let mut own_matters = 0;
    let mut seed = 1u64;
    while compared < want {
        let mut r = Rng::new(seed ^ 0xB07_0000);
        let luck = Luck::predictable(seed ^ 0xD1CE);
        let mut s = v.new_game("bot", seed, luck.clone()).0;
        seed += 1;
        for _ in 0..20 + r.below(60) {
            if s.winner.is_some() {
                break;
            }
            if r.below(3) == 0 {
                // The awaited player most of the time; now and then another.
                let awaited = pbem_judge::catan::awaited(&s);
                let me = match awaited.first() {
                    Some(c) if r.below(4) > 0 => s.seat_of(*c).expect("a seat"),
                    _ => r.below(s.players.len() as u32) as u8,
                };
                let colour: Colour = s.colour(me);
                let a = orders_of(player, &s, colour, None).unwrap_or_else(|e| {
                    panic!("{v:?} seed {seed}: the bot's orders for {colour}: {e}")
                });
                let b = orders_of(player, &other_world(&s, me, &mut r), colour, None)
                    .expect("the bot's orders in the other world");
                assert_eq!(
                    a, b,
                    "{v:?} seed {seed} step {}: {colour}'s bot wrote differently when what it may not know changed",
                    s.step
                );
                compared += 1;
                // Everything hidden from another seat changed: this seat's hand too.
                let other = (me + 1) % s.players.len() as u8;
                let c = orders_of(player, &other_world(&s, other, &mut r), colour, None)
                    .expect("the bot's orders with its own hand changed");
                own_matters += usize::from(c != a);
            }
            let files = incoming(&s, &mut r);
            let out = game
                .position(&s.to_json())
                .expect("position")
                .play(
                    &files
                        .iter()
                        .map(|(c, t)| pbem_judge::pbem::game::OrderFile {
                            player: c.name().to_string(),
                            text: t.clone(),
                        })
                        .collect::<Vec<_>>(),
                    &luck,
                )
                .expect("a step");
            s = State::from_json(&out.state).expect("reads");
            if compared >= want {
                break;
            }
        }
    }
    (compared, own_matters)
}

#[test]
fn the_catan_bot_knows_no_other_hand_nor_the_dice_to_come() {
    for (v, player) in [
        (Variant::Base, Player::Greedy),
        (Variant::Base, Player::Search),
        (Variant::Extension, Player::Greedy),
        (Variant::Extension, Player::Search),
        (Variant::Express, Player::Greedy),
    ] {
        let (n, own) = run(v, player);
        eprintln!(
            "{v:?}, {player:?}: {n} positions, the bot's file the same in both worlds, and checked; {own} changed with its own hand"
        );
        assert!(
            own > 0,
            "{v:?}, {player:?}: the bot's file never hangs on its own hand"
        );
    }
}

/// Issue 24: "self-play with `--bots greedy,random,...`" — whole games with the judge's
/// player on some seats and random legal moves on the others, the seats rotated each
/// game; a summary line per bot in the form of random self-play's, with a 95 %
/// interval. The judge's player beats three random ones nearly always (the closing
/// note's ladder runs 1,000 games), and random against random shares the wins.
#[test]
fn selfplay_with_bots_seats_the_judges_player_and_counts_each_bot() {
    let run = |bots: &str| {
        let (code, out, err) = support::judge_text(
            &[
                "selfplay", "catan", "--bots", bots, "--games", "12", "--seed", "5",
            ],
            &[],
        );
        assert_eq!(code, 0, "{out}{err}");
        let mut won = Vec::new();
        for line in out.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            if let [_, _, "won", n, ..] = words.as_slice() {
                won.push(n.parse::<u32>().expect("a count"));
            }
        }
        (out, won)
    };
    let (out, won) = run("greedy,random,random");
    assert!(
        out.starts_with("12 games of Catan, bots greedy, random, random"),
        "{out}"
    );
    assert!(out.contains("  red     greedy     won "), "{out}");
    assert_eq!(won.len(), 3, "{out}");
    assert!(
        won[0] >= 10,
        "the judge's player wins nearly every game: {out}"
    );
    // The searching player, the judge's bot, seated beside them.
    let (out, won) = run("search,greedy,random");
    assert!(out.contains("  red     search     won "), "{out}");
    assert_eq!(won.iter().sum::<u32>(), 12, "{out}");
    assert!(won[2] <= 2, "the random player seldom wins: {out}");
    let (out, won) = run("random,random,random,random");
    assert_eq!(
        won.iter().sum::<u32>(),
        12,
        "every game's winner counted once: {out}"
    );
    // Catan Express seats its scripted player the same way.
    let (code, out, err) = support::judge_text(
        &[
            "selfplay",
            "catan-express",
            "--bots",
            "greedy,random,random",
            "--games",
            "8",
        ],
        &[],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("  red     greedy     won "), "{out}");
    let (code, _, err) = support::judge_text(
        &["selfplay", "catan", "--bots", "greedy,clever,random"],
        &[],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("`clever` is not one of Catan's bots (greedy, search, random)"),
        "{err}"
    );
}
