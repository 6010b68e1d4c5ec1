//! What becomes of a readable mail, as a pure decision: the facts
//! [`super::Intake`] read beforehand — who sent the mail (`authorship.rs`), what it
//! holds, how its header lines fit the game, where the game stands (its next turn, its
//! deadline, its replaced players) — in; a [`Decision`] out: carry out its commands,
//! refuse it (why, and who is told), hold it as late, refuse it as late, or file it. The
//! refusal policy itself is `verdict.rs`'s; this file adds the routes around it. It reads
//! nothing and writes nothing (no archive, no clock): `carry.rs` carries the decision
//! out, so every route is tested here on plain facts.

use std::time::SystemTime;

use super::verdict::{self, Refusal};
use crate::archive::PlayerEntry;
use crate::archive::schedule::Late;
use crate::pbem::game::Mismatch;
use crate::pbem::sender::Who;

/// The commands a mail holds (docs/mail-commands.md), as far as the decision needs them.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Commands<'a> {
    /// Whether the mail holds any.
    pub any: bool,
    /// Whether it holds nothing else: no orders beside them.
    pub only: bool,
    /// Whether one of them is a `join` or a `confirm` (a stranger's only commands).
    pub joins: bool,
    /// Whom they are from: the GM, a player or a stranger.
    pub who: Option<Who<'a>>,
}

/// What the judge knows of a readable mail, and of the game, when it decides.
#[derive(Clone, Debug)]
pub(super) struct Facts<'a> {
    /// The game's name.
    pub game: &'a str,
    /// The turn orders are taken for now (the position's turn, plus one).
    pub next: u32,
    /// What the refusal policy weighs (`verdict.rs`). Its `before_secret` and
    /// `after_secret` are decided here, from `mismatches`: what is given there is not
    /// read.
    pub mail: verdict::Facts<'a>,
    /// Where the orders' header lines do not fit the game, in the order
    /// [`crate::pbem::game::Header::mismatches`] gives them.
    pub mismatches: &'a [Mismatch],
    /// Whether orders for the turn just played are held for the next (a game played
    /// together, out of its set-up round, with `late = "hold"`).
    pub holds_late: bool,
    /// For a mail from no player's address: `Some(told)` when it is the address of a
    /// player whose seat was given to another, `told` when they were told so already.
    pub former: Option<bool>,
    /// For a mail from no player's address: the player its `X-Original-From:` or
    /// `Reply-To:` names, and which header did.
    pub named: Option<(&'a PlayerEntry, &'static str)>,
    pub commands: Commands<'a>,
    /// The deadline of turn `next` and what becomes of orders after it, in a game
    /// played together, out of its set-up round, whose clock runs (none while it waits:
    /// paused, or open for sign-up).
    pub deadline: Option<(SystemTime, Late)>,
    /// When the mail arrived.
    pub arrived: SystemTime,
}

/// Who is told of a refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Told<'a> {
    /// No one: a stranger.
    Nobody,
    /// A player whose seat was given to another, writing from their old address: told
    /// once for that replacement (`already`: they were).
    Former { already: bool },
    /// The player a header names, at the address the GM has for them (never the
    /// mail's): the mail came from an address that is no player's.
    Named {
        player: &'a PlayerEntry,
        how: &'static str,
    },
    /// The player it is from; `secret_refused`: the refusal is about the secret (they
    /// are told someone may have written in their name).
    Player {
        player: &'a PlayerEntry,
        secret_refused: bool,
    },
}

/// What becomes of a mail that is not only commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Fate<'a> {
    /// Refused: nothing is filed.
    Refused { why: Refusal, told: Told<'a> },
    /// Orders after the deadline of turn `turn`: held for the turn after (`hold`), or
    /// refused.
    Late {
        player: &'a PlayerEntry,
        turn: u32,
        deadline: SystemTime,
        hold: bool,
    },
    /// Orders filed for the next turn.
    Filed { player: &'a PlayerEntry },
}

/// The decision on a mail: what to do with it, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Decision<'a> {
    /// Only commands: carry them out; nothing is filed.
    Commands(Who<'a>),
    /// A mail of orders, or of nothing the judge takes: its fate, then its commands.
    Orders {
        fate: Fate<'a>,
        /// Orders for the turn just played, held over to the next: the turn their header
        /// names. Whatever is filed of them is filed as the
        /// next turn's.
        held_over: Option<u32>,
        /// Commands to carry out once the orders are routed, and for whom.
        then_commands: Option<Who<'a>>,
    },
}

/// Decide what becomes of the mail.
pub(super) fn decide<'a>(f: &Facts<'a>) -> Decision<'a> {
    let c = &f.commands;
    // A stranger's commands are not answered, but for a `join` or `confirm`.
    let asks = c
        .who
        .filter(|w| c.any && (c.joins || !matches!(w, Who::Stranger(_))));
    if c.only
        && let Some(who) = asks
    {
        return Decision::Commands(who);
    }
    let next = f.next;
    let sender = f.mail.sender;
    let before_secret = f.mismatches.iter().find_map(|mm| match mm {
        Mismatch::Game(g) => Some(format!("it is for the game `{g}`, and this is {}", f.game)),
        Mismatch::Player(p) => Some(format!(
            "the orders are for {p}, but they come from {}'s address",
            sender.map_or("", |s| s.id.as_str())
        )),
        _ => None,
    });
    // Orders for the turn just played, in a game that holds late orders: late, so
    // held for the next turn, as they would have been had they come before it was
    // played (`judge serve` plays a turn at its deadline, and the
    // mail of a few seconds later found it played).
    let held_over = f
        .holds_late
        .then(|| {
            f.mismatches.iter().find_map(|mm| match mm {
                Mismatch::EarlierTurn(t) if t.checked_add(1) == Some(next) => Some(*t),
                _ => None,
            })
        })
        .flatten();
    let after_secret = f.mismatches.iter().find_map(|mm| match mm {
        Mismatch::EarlierTurn(_) if held_over.is_some() => None,
        Mismatch::EarlierTurn(t) => Some(format!(
            "the orders are for turn {t}, which is over; turn {next} is next"
        )),
        Mismatch::LaterTurn(t) => Some(format!(
            "the orders are for turn {t}, but turn {next} is next"
        )),
        _ => None,
    });
    let verdict = verdict::decide(&verdict::Facts {
        before_secret,
        after_secret,
        ..f.mail.clone()
    });
    let fate = match (verdict.filed, sender) {
        (Err(why), None) => Fate::Refused {
            why,
            told: match (f.former, f.named) {
                (Some(already), _) => Told::Former { already },
                (None, Some((player, how))) => Told::Named { player, how },
                (None, None) => Told::Nobody,
            },
        },
        (Err(why), Some(player)) => Fate::Refused {
            why,
            told: Told::Player {
                player,
                secret_refused: verdict.secret_refused,
            },
        },
        (Ok(player), _) => match f.deadline {
            Some((deadline, late)) if f.arrived > deadline => Fate::Late {
                player,
                turn: next,
                deadline,
                hold: late == Late::Hold,
            },
            _ => Fate::Filed { player },
        },
    };
    Decision::Orders {
        fate,
        held_over,
        then_commands: asks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::GmEntry;
    use std::time::{Duration, UNIX_EPOCH};

    fn ann() -> PlayerEntry {
        PlayerEntry {
            id: "red".into(),
            name: "Ann".into(),
            email: "ann@example.org".into(),
            secret_hash: Some("hash".into()),
        }
    }

    fn gm() -> GmEntry {
        GmEntry {
            name: "Gus".into(),
            email: "gm@example.org".into(),
            secret_hash: None,
        }
    }

    /// A fixed instant, so that no test reads a clock.
    fn at(hours: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_800_000_000 + hours * 3600)
    }

    /// Ann's orders for turn 3 of `demo`, with her secret, an hour before the deadline
    /// of a game that refuses late orders.
    fn on_time(p: &PlayerEntry) -> Facts<'_> {
        Facts {
            game: "demo",
            next: 3,
            mail: verdict::Facts {
                sender: Some(p),
                orders_found: true,
                secret_given: true,
                secret_ok: true,
                seated: true,
                ..verdict::Facts::default()
            },
            mismatches: &[],
            holds_late: false,
            former: None,
            named: None,
            commands: Commands::default(),
            deadline: Some((at(10), Late::Refuse)),
            arrived: at(9),
        }
    }

    fn fate<'a>(d: &Decision<'a>) -> Fate<'a> {
        match d {
            Decision::Orders { fate, .. } => fate.clone(),
            Decision::Commands(who) => panic!("commands for {who:?}, not orders"),
        }
    }

    fn refused_to<'a>(why: Refusal, p: &'a PlayerEntry, secret_refused: bool) -> Fate<'a> {
        Fate::Refused {
            why,
            told: Told::Player {
                player: p,
                secret_refused,
            },
        }
    }

    /// A player's orders before the deadline are filed for the next
    /// turn, and nothing else is done.
    #[test]
    fn orders_on_time_are_filed() {
        let p = ann();
        assert_eq!(
            decide(&on_time(&p)),
            Decision::Orders {
                fate: Fate::Filed { player: &p },
                held_over: None,
                then_commands: None,
            }
        );
        // At the deadline itself is still on time.
        let at_deadline = Facts {
            arrived: at(10),
            ..on_time(&p)
        };
        assert_eq!(fate(&decide(&at_deadline)), Fate::Filed { player: &p });
    }

    /// Orders after the deadline: held for the turn after in a game that holds late
    /// orders, refused in one that does not; either way, about the turn they missed.
    #[test]
    fn late_orders_are_held_or_refused_as_the_game_says() {
        let p = ann();
        for (late, hold) in [(Late::Hold, true), (Late::Refuse, false)] {
            let f = Facts {
                deadline: Some((at(10), late)),
                arrived: at(11),
                ..on_time(&p)
            };
            assert_eq!(
                fate(&decide(&f)),
                Fate::Late {
                    player: &p,
                    turn: 3,
                    deadline: at(10),
                    hold,
                }
            );
        }
    }

    /// No clock runs in a game paused (or open for sign-up, or played one player at a
    /// time): the shell gives no deadline, and orders however late are filed. A game
    /// not begun refuses them, telling why, to the player only.
    #[test]
    fn a_paused_game_has_no_late_orders_and_one_not_begun_takes_none() {
        let p = ann();
        let paused = Facts {
            deadline: None,
            arrived: at(1000),
            ..on_time(&p)
        };
        assert_eq!(fate(&decide(&paused)), Fate::Filed { player: &p });
        let why = "the GM paused the game on 1 Dec";
        let not_begun = Facts {
            mail: verdict::Facts {
                not_begun: Some(why.into()),
                ..on_time(&p).mail
            },
            ..on_time(&p)
        };
        assert_eq!(
            fate(&decide(&not_begun)),
            refused_to(Refusal::NotBegun(why.into()), &p, false)
        );
    }

    /// A game over takes no more orders, and says so to the player.
    #[test]
    fn a_game_over_refuses_orders() {
        let p = ann();
        let over = Facts {
            mail: verdict::Facts {
                over: true,
                ..on_time(&p).mail
            },
            ..on_time(&p)
        };
        assert_eq!(
            fate(&decide(&over)),
            refused_to(Refusal::GameOver, &p, false)
        );
    }

    /// A mail from no player's address is told to no one; unless it comes from a player
    /// whose seat was given to another (told once: `already` after that), or names a
    /// player in X-Original-From or Reply-To (that player is told, at their own
    /// address). The replaced player's address comes first.
    #[test]
    fn a_strangers_mail_is_refused_and_told_only_to_whom_it_concerns() {
        let p = ann();
        let stranger = Facts {
            mail: verdict::Facts {
                sender: None,
                ..on_time(&p).mail
            },
            ..on_time(&p)
        };
        fn told<'a>(f: &Facts<'a>) -> Told<'a> {
            match fate(&decide(f)) {
                Fate::Refused {
                    why: Refusal::NotAPlayer,
                    told,
                } => told,
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(told(&stranger), Told::Nobody);
        let named = Facts {
            named: Some((&p, "Reply-To")),
            ..stranger.clone()
        };
        assert_eq!(
            told(&named),
            Told::Named {
                player: &p,
                how: "Reply-To"
            }
        );
        for already in [false, true] {
            let former = Facts {
                former: Some(already),
                ..named.clone()
            };
            assert_eq!(told(&former), Told::Former { already });
        }
        // Whatever its header says (the turn, the game), a stranger learns nothing more.
        let asking = Facts {
            mismatches: &[Mismatch::LaterTurn(9), Mismatch::Game("other".into())][..],
            ..stranger.clone()
        };
        assert_eq!(told(&asking), Told::Nobody);
    }

    /// A mail spoofed from a player's address, without their secret, is refused as
    /// such (the player is told someone used their address), and learns nothing of the
    /// game's standing: not the turn, not whether it is over.
    #[test]
    fn a_spoofed_mail_is_refused_for_its_secret_and_learns_nothing() {
        let p = ann();
        let spoofed = Facts {
            mail: verdict::Facts {
                secret_ok: false,
                over: true,
                ..on_time(&p).mail
            },
            mismatches: &[Mismatch::EarlierTurn(1)][..],
            ..on_time(&p)
        };
        assert_eq!(
            fate(&decide(&spoofed)),
            refused_to(Refusal::SecretWrong, &p, true)
        );
        let no_secret = Facts {
            mail: verdict::Facts {
                secret_given: false,
                ..spoofed.mail.clone()
            },
            ..spoofed.clone()
        };
        assert_eq!(
            fate(&decide(&no_secret)),
            refused_to(Refusal::SecretMissing, &p, true)
        );
    }

    /// The header's lines: another game or another player is told whatever the secret;
    /// a turn over or not yet come only with it, naming the turn that is next.
    #[test]
    fn header_lines_that_do_not_fit_are_told_in_the_policys_order() {
        let p = ann();
        let with = |mismatches: &'static [Mismatch], secret_ok: bool| {
            let f = Facts {
                mail: verdict::Facts {
                    secret_ok,
                    ..on_time(&p).mail
                },
                mismatches,
                ..on_time(&p)
            };
            match fate(&decide(&f)) {
                Fate::Refused { why, .. } => why,
                other => panic!("{other:?}"),
            }
        };
        static GAME: [Mismatch; 1] = [Mismatch::Game(String::new())];
        assert_eq!(
            with(&GAME, false),
            Refusal::Header("it is for the game ``, and this is demo".into())
        );
        static PLAYER: [Mismatch; 1] = [Mismatch::Player(String::new())];
        assert_eq!(
            with(&PLAYER, false),
            Refusal::Header("the orders are for , but they come from red's address".into())
        );
        static OVER: [Mismatch; 1] = [Mismatch::EarlierTurn(1)];
        assert_eq!(with(&OVER, false), Refusal::SecretWrong);
        assert_eq!(
            with(&OVER, true),
            Refusal::Header("the orders are for turn 1, which is over; turn 3 is next".into())
        );
        static AHEAD: [Mismatch; 1] = [Mismatch::LaterTurn(5)];
        assert_eq!(
            with(&AHEAD, true),
            Refusal::Header("the orders are for turn 5, but turn 3 is next".into())
        );
    }

    /// Orders for the turn just played, in a game that holds late
    /// orders, are held over to the next turn (filed, or late again after its
    /// deadline); an earlier turn still is refused, and so is any in a game that does
    /// not hold them.
    #[test]
    fn orders_for_the_turn_just_played_are_held_over_where_the_game_holds_late_orders() {
        let p = ann();
        let just_played = [Mismatch::EarlierTurn(2)];
        let held = Facts {
            mismatches: &just_played,
            holds_late: true,
            ..on_time(&p)
        };
        assert_eq!(
            decide(&held),
            Decision::Orders {
                fate: Fate::Filed { player: &p },
                held_over: Some(2),
                then_commands: None,
            }
        );
        let held_late = Facts {
            arrived: at(11),
            ..held.clone()
        };
        assert!(matches!(
            decide(&held_late),
            Decision::Orders {
                fate: Fate::Late { turn: 3, .. },
                held_over: Some(2),
                ..
            }
        ));
        let older = [Mismatch::EarlierTurn(1)];
        for f in [
            Facts {
                mismatches: &older,
                ..held.clone()
            },
            Facts {
                holds_late: false,
                ..held.clone()
            },
        ] {
            assert!(matches!(
                decide(&f),
                Decision::Orders {
                    fate: Fate::Refused {
                        why: Refusal::Header(_),
                        ..
                    },
                    held_over: None,
                    ..
                }
            ));
        }
    }

    /// Commands (docs/mail-commands.md): a mail of commands only is carried out as
    /// such, nothing routed as orders; commands beside orders run once the orders are
    /// filed. A stranger's commands are not carried out, but for `join` and `confirm`.
    #[test]
    fn commands_are_carried_out_for_whom_they_may_be() {
        let p = ann();
        let g = gm();
        let only = |who, joins| Facts {
            commands: Commands {
                any: true,
                only: true,
                joins,
                who: Some(who),
            },
            mail: verdict::Facts {
                orders_found: false,
                ..on_time(&p).mail
            },
            ..on_time(&p)
        };
        assert_eq!(
            decide(&only(Who::Player(&p), false)),
            Decision::Commands(Who::Player(&p))
        );
        assert_eq!(
            decide(&only(Who::Gm(&g), false)),
            Decision::Commands(Who::Gm(&g))
        );
        let eve = Who::Stranger("eve@example.org");
        assert_eq!(decide(&only(eve, true)), Decision::Commands(eve));
        let stranger = Facts {
            mail: verdict::Facts {
                sender: None,
                ..only(eve, false).mail
            },
            ..only(eve, false)
        };
        assert_eq!(
            decide(&stranger),
            Decision::Orders {
                fate: Fate::Refused {
                    why: Refusal::NotAPlayer,
                    told: Told::Nobody,
                },
                held_over: None,
                then_commands: None,
            }
        );
        let beside_orders = Facts {
            commands: Commands {
                only: false,
                ..only(Who::Player(&p), false).commands
            },
            ..on_time(&p)
        };
        assert_eq!(
            decide(&beside_orders),
            Decision::Orders {
                fate: Fate::Filed { player: &p },
                held_over: None,
                then_commands: Some(Who::Player(&p)),
            }
        );
        // A spoofed mail's commands still go to the writer, which tells the commands
        // the secret was wrong (`by_mail` weighs it): the orders are refused all the
        // same.
        let spoofed = Facts {
            mail: verdict::Facts {
                secret_ok: false,
                ..beside_orders.mail.clone()
            },
            ..beside_orders.clone()
        };
        assert_eq!(
            decide(&spoofed),
            Decision::Orders {
                fate: refused_to(Refusal::SecretWrong, &p, true),
                held_over: None,
                then_commands: Some(Who::Player(&p)),
            }
        );
    }
}
