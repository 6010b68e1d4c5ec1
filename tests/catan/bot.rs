//! "The bots": the judge's Catan player (`catan::bot`, what `judge bot` and
//! the caretaker run) reads "only what its seat may know, never another's hand or the
//! dice to come" — proven as non-interference: over random positions of base Catan,
//! the 5–6 player extension and Catan Express, the file it writes for a seat is the same
//! byte for byte when every other player's hand and unplayed development cards, the
//! order of the deck and the game's secret seed (the dice to come) are made up anew —
//! and what every other player has on record: the text of their
//! file and which of its lines are used up. Of their standing acceptances the bot may
//! count only what the public record showed, the trades they took.
//! And "a bot's order file is always accepted by `judge check` with no error".

use crate::catan::hidden::{incoming, new_devs, new_hand};
use crate::support;
use crate::support::catan::Variant;

use pbem_judge::catan::bot::{Player, orders_of};
use pbem_judge::catan::{Colour, State};
use pbem_judge::luck::{Luck, Rng};
use pbem_judge::pbem::game::Position;

fn cases() -> usize {
    std::env::var("CATAN_HIDDEN_CASES")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .map_or(60, |n| n / 4)
}

/// `s` with everything `me` may not know made up anew (the others' orders on record
/// from a stream of their own, `orders`, so that the positions walked stay those of
/// the hands' stream).
fn other_world(s: &State, me: u8, r: &mut Rng, orders: &mut Rng) -> State {
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
        private_orders(&mut v, s, q, orders);
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

/// What `q` has on record, made up anew where no one else may see
/// it: the text of the file (another random file, or the same with one-for-one
/// acceptances added, `accept 1 ore for 1 wool`, which the bot would have used) and
/// which of its lines are used up. What everyone saw of it stays: the trades its
/// acceptances took (`took`), and that a file is on record.
fn private_orders(v: &mut serde_json::Value, s: &State, q: usize, r: &mut Rng) {
    const RESOURCES: [&str; 5] = ["wood", "brick", "wool", "grain", "ore"];
    let record = &mut v["players"][q]["record"];
    let text = record["text"].as_str().unwrap_or("").to_string();
    if text.is_empty() {
        return;
    }
    let text = if r.below(3) == 0 {
        record["used"] = serde_json::json!({});
        support::catan_orders::file(s, q as u8, r)
    } else {
        let mut t = text;
        for _ in 0..1 + r.below(3) {
            let a = r.below(5) as usize;
            let b = (a + 1 + r.below(4) as usize) % 5;
            let times = if r.below(2) == 0 { " 3 times" } else { "" };
            t.push_str(&format!(
                "accept 1 {} for 1 {}{times}\n",
                RESOURCES[a], RESOURCES[b]
            ));
        }
        t
    };
    record["text"] = serde_json::Value::from(text);
}

/// `s` with every other player's file on record shown, in the public record, to have
/// taken one-for-one trades: `took` as a trade of 1 card for 1 leaves it.
fn trades_seen(s: &State, me: u8, r: &mut Rng) -> State {
    use pbem_judge::catan::cards::{Cards, Resource};
    use pbem_judge::catan::orders::Took;
    let mut b = s.clone();
    for q in 0..s.players.len() {
        if q == me as usize {
            continue;
        }
        for _ in 0..1 + r.below(3) {
            let give = r.below(5) as usize;
            let get = (give + 1 + r.below(4) as usize) % 5;
            b.records[q].took.push(Took {
                gave: Cards::one(Resource::ALL[give], 1),
                got: Cards::one(Resource::ALL[get], 1),
            });
        }
    }
    b
}

/// The position after one step, every awaited seat's file drawn by `incoming`.
fn next_step(
    game: &dyn pbem_judge::pbem::game::Game,
    s: &State,
    r: &mut Rng,
    luck: &Luck,
) -> State {
    let files: Vec<_> = incoming(s, r)
        .into_iter()
        .map(|(c, text)| pbem_judge::pbem::game::OrderFile {
            player: c.name().to_string(),
            text,
        })
        .collect();
    let out = game
        .position(&s.to_json())
        .expect("position")
        .play(&files, luck)
        .expect("a step");
    State::from_json(&out.state).expect("reads")
}

/// How far [`run`] walks at most to find a position where the bot's file hangs on its
/// own hand (and one where it hangs on the trades the public record showed).
const TEETH_SEARCH: usize = 400;

/// How many positions were compared, in how many the bot wrote differently when its own
/// hand was made up anew too, and in how many when the others' files on record had
/// taken trades in everyone's view (the comparison has teeth: the file does hang on
/// what the seat knows, and on the acceptances the public record showed).
///
/// At least `cases()` positions are compared; past them the walk goes on (up to
/// [`TEETH_SEARCH`] positions) until the comparison has shown its teeth, which some
/// variants show rarely: Catan Express' greedy player writes a file that hangs on its
/// own hand in about one position in fifty, so a short run could find none.
fn run(v: Variant, player: Player) -> (usize, usize, usize) {
    let game = v.game();
    let want = cases();
    let mut compared = 0;
    let mut own_matters = 0;
    let mut shown_matters = 0;
    let mut seed = 1u64;
    let enough = |compared: usize, own: usize, shown: usize| {
        compared >= want
            && ((own > 0 && (shown > 0 || v == Variant::Express)) || compared >= TEETH_SEARCH)
    };
    while !enough(compared, own_matters, shown_matters) {
        let mut r = Rng::new(seed ^ 0xB07_0000);
        let mut orders = Rng::new(seed ^ 0x37_0014);
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
                let world = other_world(&s, me, &mut r, &mut orders);
                let b = orders_of(player, &world, colour, None)
                    .expect("the bot's orders in the other world");
                assert_eq!(
                    a, b,
                    "{v:?} seed {seed} step {}: {colour}'s bot wrote differently when what it may not know changed",
                    s.step
                );
                if matches!(player, Player::Search) {
                    // What `judge bot` prints as a hint and the
                    // caretaker plays for an absent player, through the game's own
                    // `Position::bot`, the same in both worlds too.
                    let hint = |s: &State| {
                        Position::bot(s, "bot", colour.name())
                            .expect("Catan has a bot")
                            .expect("the hint")
                    };
                    assert_eq!(
                        hint(&s),
                        hint(&world),
                        "{v:?} seed {seed} step {}: {colour}'s hint changed with what it may not know",
                        s.step
                    );
                }
                compared += 1;
                // Everything hidden from another seat changed: this seat's hand too.
                let other = (me + 1) % s.players.len() as u8;
                let c = orders_of(
                    player,
                    &other_world(&s, other, &mut r, &mut orders),
                    colour,
                    None,
                )
                .expect("the bot's orders with its own hand changed");
                own_matters += usize::from(c != a);
                // The trades the others' acceptances took, which
                // everyone saw, may change it.
                let d = orders_of(player, &trades_seen(&s, me, &mut orders), colour, None)
                    .expect("the bot's orders with trades seen");
                shown_matters += usize::from(d != a);
            }
            s = next_step(game, &s, &mut r, &luck);
            if enough(compared, own_matters, shown_matters) {
                break;
            }
        }
    }
    (compared, own_matters, shown_matters)
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
        let (n, own, shown) = run(v, player);
        eprintln!(
            "{v:?}, {player:?}: {n} positions, the bot's file the same in both worlds, and checked; {own} changed with its own hand, {shown} with the trades others' acceptances took"
        );
        assert!(
            own > 0,
            "{v:?}, {player:?}: the bot's file never hangs on its own hand"
        );
        if v != Variant::Express {
            assert!(
                shown > 0,
                "{v:?}, {player:?}: the bot never offers to an acceptance the public record showed"
            );
        }
    }
}

/// "self-play with `--bots greedy,random,...`" — whole games with the judge's
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
    // On a board drawn from each game's seed (`--scenario random`, a set-up of
    // `judge new`), not the beginners' board of the games above: the same seeds play
    // other games. A set-up the game does not have is named with the ones it has.
    let on = |scenario: &[&str]| {
        let mut args = vec!["selfplay", "catan", "--bots", "search,greedy,greedy"];
        args.extend(["--games", "6"]);
        args.extend(scenario);
        let (code, out, err) = support::judge_text(&args, &[]);
        assert_eq!(code, 0, "{out}{err}");
        // Each line without its timing.
        let lines: Vec<String> = out
            .lines()
            .map(|l| l.split(';').next().unwrap_or(l).to_string())
            .collect();
        (out, lines)
    };
    let (out, random) = on(&["--scenario", "random"]);
    assert!(
        out.starts_with("6 games of Catan on random, bots search, greedy, greedy"),
        "{out}"
    );
    let (_, beginner) = on(&["--scenario", "beginner"]);
    assert_eq!(
        beginner[1..],
        on(&[]).1[1..],
        "the beginners' board by default"
    );
    assert_ne!(random[1..], beginner[1..], "{out}");
    let (code, _, err) = support::judge_text(
        &[
            "selfplay",
            "catan",
            "--bots",
            "search,greedy,greedy",
            "--scenario",
            "randm",
        ],
        &[],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("there is no Catan set-up `randm`") && err.contains("did you mean `random`?"),
        "{err}"
    );
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

/// The stronger Catan player: a build a card short is paid with a one-for-one
/// offer to another player's standing acceptance, not with four cards to the bank —
/// and only to an acceptance the public record has shown: one
/// whose file took such a trade in everyone's view. An acceptance merely on record is
/// a line of its player's file, theirs alone, and the bot writes as if it were not
/// there. Whether the taker still holds the card is theirs to know, so every line after
/// the offer names the cards it needs (`if I have`). Played through the judge's
/// resolver: with the card in the taker's hand the trade is made and the city built;
/// without it the offer alone fails, and the city line is passed over, not failed.
#[test]
fn the_searching_player_pays_with_an_offer_that_a_standing_acceptance_takes() {
    use pbem_judge::catan::cards::{Cards, Resource};
    use pbem_judge::catan::state::{Options, Phase};
    use pbem_judge::catan::{Event, play, record};
    use std::collections::BTreeMap;

    // A base game through its founding, every seat by the greedy player.
    let names: Vec<String> = ["ann", "bob", "cat"].map(String::from).to_vec();
    let mut s = State::new("offer", &names, 7, &Options::default()).expect("a game");
    while matches!(s.phase, Phase::Founding { .. }) {
        let c = s.colour(s.actor());
        let text = orders_of(Player::Greedy, &s, c, None).expect("founding orders");
        s = play(&s, &BTreeMap::from([(c, text)])).state;
    }
    let me = s.active;
    let taker = (me + 1) % 3;
    let (red, blue) = (s.colour(me), s.colour(taker));
    assert_eq!(
        s.rate(me, Resource::Wool),
        4,
        "no wool harbour, so no bank trade"
    );
    // A city one ore short, three wool to spare; blue takes wool for ore.
    let mut hand = Cards::one(Resource::Grain, 2);
    hand.add(&Cards::one(Resource::Ore, 2));
    hand.add(&Cards::one(Resource::Wool, 3));
    s.players[me as usize].hand = hand;
    s.players[taker as usize].hand = Cards::one(Resource::Ore, 1);
    let accept = format!(
        "game offer\nplayer {blue}\nturn {}\naccept 1 wool for 1 ore\n",
        s.step + 1
    );
    let without = orders_of(Player::Search, &s, red, None).expect("orders, nothing on record");
    s = record(&s, &BTreeMap::from([(blue, accept)])).state;
    // Blue's acceptance, never used, is blue's alone: red's bot
    // writes the same file as with nothing on record, and offers nothing.
    let private = orders_of(Player::Search, &s, red, None).expect("orders, acceptance private");
    assert_eq!(
        private, without,
        "blue's private acceptance changed red's hint"
    );
    assert!(!private.contains("offer "), "{private}");
    // Blue's file took a trade of 1 wool for 1 ore (say from cat), which every report
    // showed: so it takes one like it.
    s.records[taker as usize]
        .took
        .push(pbem_judge::catan::orders::Took {
            gave: Cards::one(Resource::Wool, 1),
            got: Cards::one(Resource::Ore, 1),
        });

    let text = orders_of(Player::Search, &s, red, None).expect("the searching player's orders");
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(": offer 1 wool for 1 ore"))
        .unwrap_or_else(|| panic!("an offer to blue's acceptance:\n{text}"));
    // The lines for the same totals ("if rolled 2, 3 and I have ...").
    let rolled = lines[at].split(" and ").next().expect("a condition");
    let after: Vec<&str> = lines[at + 1..]
        .iter()
        .take_while(|l| l.starts_with(rolled))
        .copied()
        .collect();
    assert!(
        after
            .iter()
            .any(|l| l.contains(" and I have 2 grain, 3 ore: build city ")),
        "the city after the offer, if its cards are held:\n{text}"
    );
    assert!(
        after.iter().all(|l| l.contains(" I have ")),
        "every line after the offer names its cards:\n{text}"
    );
    // A total under which the offer is made, not a 7.
    let total: u8 = rolled
        .trim_start_matches("if rolled ")
        .split([',', ' '])
        .find_map(|t| t.parse().ok())
        .expect("a total");
    s.loaded_dice = vec![[(total - 1).min(6), total - (total - 1).min(6)]];
    let cities = s.players[me as usize].cities.len();

    let out = play(&s, &BTreeMap::from([(red, text.clone())]));
    assert!(
        out.events.iter().any(|e| matches!(e,
            Event::DomesticTrade { player, with, .. } if *player == red && *with == blue)),
        "blue took the offer:\n{text}"
    );
    assert_eq!(out.state.players[me as usize].cities.len(), cities + 1);
    assert!(
        !out.events.iter().any(|e| matches!(e, Event::Failed { .. })),
        "{:?}",
        out.events
    );

    // The taker without the ore: the offer fails, and the city is not tried.
    s.players[taker as usize].hand = Cards::NONE;
    let out = play(&s, &BTreeMap::from([(red, text.clone())]));
    let failed: Vec<String> = out
        .events
        .iter()
        .filter(|e| matches!(e, Event::Failed { .. }))
        .map(|e| e.text(&out.state, Some(red)))
        .collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(failed[0].contains("offer 1 wool for 1 ore"), "{failed:?}");
    assert_eq!(out.state.players[me as usize].cities.len(), cities);
}

/// A file on record is read once per step and kept (`orders::resolve::on_record`: a
/// step asks for a seat's orders a dozen times), the kept reading known by the text, the
/// board, the seats' colours and Catan Express' rail net. So what a file reads as may
/// hang on nothing else of the position: proven here by making every hand and every
/// player's development cards up anew between a read and the next, over random positions
/// of base Catan, the 5–6 player extension and Catan Express — the kept reading must be
/// the fresh one, order for order.
#[test]
fn a_file_on_record_reads_the_same_kept_or_fresh_whatever_else_changed() {
    use pbem_judge::catan::orders::{parse::parse, resolve::on_record};
    for v in [Variant::Base, Variant::Extension, Variant::Express] {
        let game = v.game();
        let mut compared = 0;
        for seed in 1..=4u64 {
            let mut r = Rng::new(seed ^ 0x4EE9_0000);
            let luck = Luck::predictable(seed ^ 0x4EE9);
            let mut s = v.new_game("kept", seed, luck.clone()).0;
            for _ in 0..40 {
                if s.winner.is_some() {
                    break;
                }
                for seat in 0..s.players.len() as u8 {
                    let text = s.records[seat as usize].text.clone();
                    if text.trim().is_empty() {
                        continue;
                    }
                    // Read (and kept) as the position stands.
                    let _ = on_record(&s, seat);
                    let mut other: serde_json::Value =
                        serde_json::from_str(&s.to_json()).expect("json");
                    for q in 0..s.players.len() {
                        new_hand(&mut other, q, None, &mut r);
                        new_devs(&mut other, q, s.scenario.is_some(), &mut r);
                    }
                    let t = State::from_json(&other.to_string()).expect("the changed state reads");
                    assert_eq!(
                        on_record(&t, seat),
                        parse(&text, &t).orders,
                        "{v:?} seed {seed} step {}: seat {seat}'s file read differently kept and fresh",
                        s.step
                    );
                    compared += 1;
                }
                s = next_step(game, &s, &mut r, &luck);
            }
        }
        assert!(compared >= 20, "{v:?}: {compared} files compared");
    }
}
