//! The refusal policy of an order mail, as a pure verdict: what the
//! judge found out about a mail — who sent it, what it holds, how its header and secret
//! fare, where the game stands — in; the reason it is refused, or the player whose
//! orders it files, out. [`super::Intake`] gathers the facts (reading the mail and the
//! archive), `decision.rs` routes the mail around the verdict, and `carry.rs` carries
//! the decision out (the kept copy, the answer, the log); this file reads nothing and
//! writes nothing, so the policy — above all, which reason a player is told first — is
//! tested here on plain facts, without an archive.

use crate::archive::PlayerEntry;
use crate::mail::inbound;

/// Why an order mail from a player is refused, before anything of it is filed; said
/// to the player, who can put it right (the wording is the answer mail's).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum Refusal {
    #[error("the sender is not a player of this game")]
    NotAPlayer,
    #[error("no orders were found in it")]
    NoOrders,
    #[error("the orders are too big: {0}")]
    TooBig(String),
    /// A header line that does not fit (the game, the player, the turn).
    #[error("{0}")]
    Header(String),
    #[error("no secret has been set for you yet: ask the GM")]
    NoSecretYet,
    #[error("the secret is missing (it goes on a line `secret ...` at the top of the orders)")]
    SecretMissing,
    #[error("the secret is wrong")]
    SecretWrong,
    #[error("the game is over: no more orders are played")]
    GameOver,
    #[error("the game has not begun: {0}; orders are taken once it has")]
    NotBegun(String),
    #[error("the seat `{0}` in game.toml is not in the game")]
    SeatNotInGame(String),
    /// The orders are split between the body and an attachment in a way that cannot
    /// be read as meant.
    #[error("{0}")]
    Split(inbound::Problem),
    /// A part the judge cannot read, and nothing it needs in the rest: the part is named,
    /// not only what the rest lacks.
    #[error(
        "part of it could not be read: {0}. {1}. Send the orders as plain text, in the mail's body or in a `.txt` attachment"
    )]
    Unread(String, Rest),
}

/// What the rest of a mail lacks when a part of it could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum Rest {
    #[error("No orders were found in the rest")]
    NoOrders,
    #[error("The rest holds no secret (a line `secret ...` at the top of the orders)")]
    NoSecret,
    #[error("The rest holds only the header lines, no orders")]
    HeaderOnly,
}

/// What the judge knows of one order mail when it decides.
#[derive(Clone, Debug, Default)]
pub(super) struct Facts<'a> {
    /// The player it is from: by their address, or named through a mailing list the GM
    /// trusts. `None`: no player of the game.
    pub sender: Option<&'a PlayerEntry>,
    /// Whether any orders were found in it.
    pub orders_found: bool,
    /// Orders split between the body and an attachment so that they cannot be read as
    /// meant.
    pub split: Option<inbound::Problem>,
    /// The parts not read that may have held the orders, named.
    pub unread: Option<String>,
    /// Whether what was read holds the header lines alone.
    pub header_only: bool,
    /// Why the orders are too big to file.
    pub too_big: Option<String>,
    /// A header line that does not fit, told whatever the secret (another game's
    /// orders, another player's).
    pub before_secret: Option<String>,
    /// Whether the mail gives a secret at all.
    pub secret_given: bool,
    /// Whether the secret it gives is the sender's.
    pub secret_ok: bool,
    /// A header line that does not fit, told only with the right secret (the turn).
    pub after_secret: Option<String>,
    /// Whether the game is over.
    pub over: bool,
    /// Why the game has not begun, if it has not.
    pub not_begun: Option<String>,
    /// Whether the sender's seat is one of the game's.
    pub seated: bool,
}

/// The verdict: the player whose orders are filed, or why the mail is refused; and
/// whether the refusal is about the secret (the log and the GM are told so).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Verdict<'a> {
    pub filed: Result<&'a PlayerEntry, Refusal>,
    pub secret_refused: bool,
}

/// Decide, in the order the player is told: first what the judge cannot read or file
/// whoever sent it (no orders, orders split, parts not read, too big), then what the
/// header says against the sender (another game, another player), and only then the
/// secret — so that a forger learns nothing of a secret from a mail the judge would
/// refuse anyway; what depends on the game's standing (the turn, the game over or not
/// begun, the seat) is told only to a sender whose secret was right.
pub(super) fn decide<'a>(f: &Facts<'a>) -> Verdict<'a> {
    let refuse = |why| Verdict {
        filed: Err(why),
        secret_refused: false,
    };
    let Some(p) = f.sender else {
        return refuse(Refusal::NotAPlayer);
    };
    if !f.orders_found {
        return refuse(match &f.unread {
            Some(parts) => Refusal::Unread(parts.clone(), Rest::NoOrders),
            None => Refusal::NoOrders,
        });
    }
    if let Some(problem) = &f.split {
        return refuse(Refusal::Split(problem.clone()));
    }
    if let Some(parts) = &f.unread
        && f.header_only
    {
        return refuse(Refusal::Unread(parts.clone(), Rest::HeaderOnly));
    }
    if let Some(why) = &f.too_big {
        return refuse(Refusal::TooBig(why.clone()));
    }
    if let Some(why) = &f.before_secret {
        return refuse(Refusal::Header(why.clone()));
    }
    if p.secret_hash.is_none() {
        return refuse(Refusal::NoSecretYet);
    }
    if !f.secret_ok {
        let why = if f.secret_given {
            Refusal::SecretWrong
        } else {
            match &f.unread {
                Some(parts) => Refusal::Unread(parts.clone(), Rest::NoSecret),
                None => Refusal::SecretMissing,
            }
        };
        return Verdict {
            filed: Err(why),
            secret_refused: true,
        };
    }
    if let Some(why) = &f.after_secret {
        return refuse(Refusal::Header(why.clone()));
    }
    if f.over {
        return refuse(Refusal::GameOver);
    }
    if let Some(why) = &f.not_begun {
        return refuse(Refusal::NotBegun(why.clone()));
    }
    if !f.seated {
        return refuse(Refusal::SeatNotInGame(p.id.clone()));
    }
    Verdict {
        filed: Ok(p),
        secret_refused: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ann() -> PlayerEntry {
        PlayerEntry {
            id: "red".into(),
            name: "Ann".into(),
            email: "ann@example.org".into(),
            secret_hash: Some("hash".into()),
        }
    }

    /// A mail the judge files: Ann's orders, with her secret, for a game under way.
    fn good(p: &PlayerEntry) -> Facts<'_> {
        Facts {
            sender: Some(p),
            orders_found: true,
            secret_given: true,
            secret_ok: true,
            seated: true,
            ..Facts::default()
        }
    }

    fn why(f: &Facts) -> Result<String, Refusal> {
        decide(f).filed.map(|p| p.id.clone())
    }

    #[test]
    fn a_players_orders_with_the_right_secret_are_filed() {
        let p = ann();
        assert_eq!(why(&good(&p)), Ok("red".to_string()));
        assert!(!decide(&good(&p)).secret_refused);
    }

    #[test]
    fn a_stranger_is_refused_whatever_the_mail_holds() {
        let p = ann();
        let f = Facts {
            sender: None,
            ..good(&p)
        };
        assert_eq!(why(&f), Err(Refusal::NotAPlayer));
    }

    /// A forger (no right secret) of a mail the judge would refuse anyway learns nothing
    /// of the secret: no orders, a split, parts not read, too big, another game or
    /// player, each is told before the secret is judged.
    #[test]
    fn what_the_judge_cannot_file_is_told_before_the_secret() {
        let p = ann();
        let forged = Facts {
            secret_ok: false,
            ..good(&p)
        };
        let cases: [(Facts, Refusal); 5] = [
            (
                Facts {
                    orders_found: false,
                    ..forged.clone()
                },
                Refusal::NoOrders,
            ),
            (
                Facts {
                    orders_found: false,
                    unread: Some("`winmail.dat`".into()),
                    ..forged.clone()
                },
                Refusal::Unread("`winmail.dat`".into(), Rest::NoOrders),
            ),
            (
                Facts {
                    unread: Some("`a.doc`".into()),
                    header_only: true,
                    ..forged.clone()
                },
                Refusal::Unread("`a.doc`".into(), Rest::HeaderOnly),
            ),
            (
                Facts {
                    too_big: Some("3 MB".into()),
                    ..forged.clone()
                },
                Refusal::TooBig("3 MB".into()),
            ),
            (
                Facts {
                    before_secret: Some("it is for the game `x`".into()),
                    ..forged.clone()
                },
                Refusal::Header("it is for the game `x`".into()),
            ),
        ];
        for (f, expected) in cases {
            let v = decide(&f);
            assert_eq!(v.filed, Err(expected));
            assert!(!v.secret_refused);
        }
    }

    /// The secret: missing, wrong, or missing where a part was not read (the part is
    /// named); a player with no secret yet is told to ask the GM.
    #[test]
    fn the_secret_is_judged_after_what_any_sender_is_told() {
        let p = ann();
        let wrong = Facts {
            secret_ok: false,
            ..good(&p)
        };
        let v = decide(&wrong);
        assert_eq!(v.filed, Err(Refusal::SecretWrong));
        assert!(v.secret_refused);
        let missing = Facts {
            secret_given: false,
            ..wrong.clone()
        };
        assert_eq!(why(&missing), Err(Refusal::SecretMissing));
        let in_a_part = Facts {
            unread: Some("`orders.odt`".into()),
            ..missing
        };
        assert_eq!(
            why(&in_a_part),
            Err(Refusal::Unread("`orders.odt`".into(), Rest::NoSecret))
        );
        let none_yet = PlayerEntry {
            secret_hash: None,
            ..ann()
        };
        assert_eq!(why(&good(&none_yet)), Err(Refusal::NoSecretYet));
    }

    /// What depends on the game's standing (the turn, over, not begun, the seat) is told
    /// only with the right secret: a forger learns nothing of it.
    #[test]
    fn the_games_standing_is_told_only_with_the_right_secret() {
        let p = ann();
        let standing = [
            Facts {
                after_secret: Some("turn 3 is next".into()),
                ..good(&p)
            },
            Facts {
                over: true,
                ..good(&p)
            },
            Facts {
                not_begun: Some("it waits for its players".into()),
                ..good(&p)
            },
            Facts {
                seated: false,
                ..good(&p)
            },
        ];
        let told = [
            Refusal::Header("turn 3 is next".into()),
            Refusal::GameOver,
            Refusal::NotBegun("it waits for its players".into()),
            Refusal::SeatNotInGame("red".into()),
        ];
        for (f, expected) in standing.iter().zip(told) {
            assert_eq!(why(f), Err(expected));
            let forged = Facts {
                secret_ok: false,
                ..f.clone()
            };
            assert_eq!(why(&forged), Err(Refusal::SecretWrong), "{f:?}");
        }
    }
}
