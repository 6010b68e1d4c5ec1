//! Who an order mail is from, decided on plain facts: the game's
//! players, the mailing lists the GM trusts and the GM, against the mail's addresses,
//! its `player` line and its secret. [`super::Intake`] hands them in and acts on the
//! answer; this file reads no archive and writes nothing, so who may act for whom — a
//! list's mail is its named player's only with their secret, a stranger is a stranger
//! whatever the mail says — is tested here without one.

use crate::archive::{GmEntry, PlayerEntry};
use crate::pbem::sender::Who;

/// Whom the game knows.
pub(super) struct Book<'a> {
    pub players: &'a [PlayerEntry],
    /// The mailing lists the GM trusts to forward players' mail (`[mail] lists`), as
    /// [`crate::archive::Archive::trusted_lists`] gives them.
    pub lists: &'a [String],
    pub gm: Option<&'a GmEntry>,
}

/// What a mail says of its sender.
#[derive(Clone, Copy, Default)]
pub(super) struct Envelope<'a> {
    pub from: Option<&'a str>,
    pub original_from: Option<&'a str>,
    pub reply_to: Option<&'a str>,
    /// The `player` line of its orders.
    pub player_line: Option<&'a str>,
    /// The secret its orders give.
    pub secret: Option<&'a str>,
    /// The player whose secret the mail's first filing found right (a mail filed again
    /// with `judge ingest --again` keeps it; its secret is blanked by then).
    pub trusted: Option<&'a str>,
}

/// Who the mail is from, as far as the judge may tell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Authorship {
    /// For a mail whose `From:` is no player's: the player its `X-Original-From:`, else
    /// its `Reply-To:`, names, and which header did. A forger can write them too, so
    /// this alone never makes a mail a player's.
    pub named: Option<(PlayerEntry, &'static str)>,
    /// The player its `player` line names.
    pub by_id: Option<PlayerEntry>,
    /// Through a list the GM trusts: the player it names, how, and the list.
    pub via_list: Option<(PlayerEntry, &'static str, String)>,
    /// The player it is from: by their address, or named through a trusted list.
    pub sender: Option<PlayerEntry>,
    /// Whether the secret it gives is that of the player it claims to be from.
    pub secret_ok: bool,
}

impl Authorship {
    /// Whose secret the mail gave: its sender's, or (from an address that is no
    /// player's, say one the GM has yet to correct) the player its orders name.
    pub fn claimed(&self) -> Option<&PlayerEntry> {
        self.sender.as_ref().or(self.by_id.as_ref())
    }
}

impl<'a> Book<'a> {
    /// The player whose address this is.
    pub fn by_address(&self, address: Option<&str>) -> Option<&'a PlayerEntry> {
        let address = address?;
        self.players
            .iter()
            .find(|p| !p.is_free() && p.email.trim().eq_ignore_ascii_case(address))
    }

    /// The player whose seat this is.
    pub fn by_id(&self, id: &str) -> Option<&'a PlayerEntry> {
        self.players.iter().find(|p| p.id.eq_ignore_ascii_case(id))
    }

    /// The GM, if the mail is from the GM's address.
    pub fn gm_at(&self, from: Option<&str>) -> Option<&'a GmEntry> {
        self.gm
            .filter(|g| from.is_some_and(|f| g.email.trim().eq_ignore_ascii_case(f)))
    }

    /// See [`Authorship::named`].
    pub fn named(&self, e: &Envelope) -> Option<(PlayerEntry, &'static str)> {
        if self.by_address(e.from).is_some() {
            return None;
        }
        [
            (e.original_from, "X-Original-From"),
            (e.reply_to, "Reply-To"),
        ]
        .into_iter()
        .find_map(|(a, how)| self.by_address(a).map(|p| (p.clone(), how)))
    }

    /// Who the mail is from. `verify(secret, hash)` checks a secret against a player's
    /// stored hash (the caller keeps the answers of a run).
    pub fn authorship(
        &self,
        e: &Envelope,
        verify: &mut dyn FnMut(&str, &str) -> bool,
    ) -> Authorship {
        let by_id = e.player_line.and_then(|p| self.by_id(p)).cloned();
        // A mail from a mailing list the GM trusts (`[mail] lists`) is the mail of the
        // player it names (X-Original-From, Reply-To, else its `player` line): filed
        // only with that player's right secret, and answered only to their own address,
        // never to the list or to an address the mail gives.
        let named = self.named(e);
        let via_list = e
            .from
            .filter(|f| self.lists.iter().any(|l| l == f))
            .filter(|_| self.by_address(e.from).is_none())
            .and_then(|list| {
                let (p, how) = match &named {
                    Some((p, how)) => (p.clone(), *how),
                    None => (by_id.clone()?, "player line"),
                };
                Some((p, how, list.to_string()))
            });
        let sender = match &via_list {
            Some((p, _, _)) => Some(p.clone()),
            None => self.by_address(e.from).cloned(),
        };
        let mut a = Authorship {
            named,
            by_id,
            via_list,
            sender,
            secret_ok: false,
        };
        a.secret_ok = a.claimed().is_some_and(|p| {
            e.trusted == Some(p.id.as_str())
                || match (e.secret, p.secret_hash.as_deref()) {
                    (Some(s), Some(hash)) => verify(s, hash),
                    _ => false,
                }
        });
        a
    }

    /// Whom a mail's commands are from: the GM when it comes from the GM's address and
    /// asks a GM's command (or from no player), else its player, else a stranger.
    pub fn who<'b>(
        &self,
        a: &'b Authorship,
        from: Option<&'b str>,
        asks_gm: bool,
    ) -> Option<Who<'b>>
    where
        'a: 'b,
    {
        match (a.sender.as_ref(), self.gm_at(from)) {
            (sender, Some(g)) if asks_gm || sender.is_none() => Some(Who::Gm(g)),
            (Some(p), _) => Some(Who::Player(p)),
            _ => from.map(Who::Stranger),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(id: &str, email: &str) -> PlayerEntry {
        PlayerEntry {
            id: id.into(),
            name: id.into(),
            email: email.into(),
            secret_hash: Some(format!("hash-of-{id}")),
        }
    }

    fn players() -> Vec<PlayerEntry> {
        vec![
            player("red", "ann@example.org"),
            player("blue", "bob@example.org"),
        ]
    }

    /// The secret check of the tests: `s3cret-ID` is ID's secret.
    fn verify(secret: &str, hash: &str) -> bool {
        hash.strip_prefix("hash-of-")
            .is_some_and(|id| secret == format!("s3cret-{id}"))
    }

    fn authorship(book: &Book, e: &Envelope) -> Authorship {
        book.authorship(e, &mut verify)
    }

    #[test]
    fn a_player_is_known_by_address_and_by_secret() {
        let ps = players();
        let book = Book {
            players: &ps,
            lists: &[],
            gm: None,
        };
        let e = Envelope {
            from: Some("ann@example.org"),
            secret: Some("s3cret-red"),
            ..Envelope::default()
        };
        let a = authorship(&book, &e);
        assert_eq!(a.sender.as_ref().map(|p| p.id.as_str()), Some("red"));
        assert!(a.secret_ok);
        let wrong = authorship(
            &book,
            &Envelope {
                secret: Some("s3cret-blue"),
                ..e
            },
        );
        assert!(!wrong.secret_ok, "another player's secret is not red's");
    }

    /// From an address that is no player's, the orders' `player` line names whose
    /// secret to check (an address the GM has yet to correct); the mail has no sender.
    #[test]
    fn a_stranger_with_a_players_line_is_no_sender() {
        let ps = players();
        let book = Book {
            players: &ps,
            lists: &[],
            gm: None,
        };
        let e = Envelope {
            from: Some("eve@example.org"),
            player_line: Some("red"),
            secret: Some("s3cret-red"),
            reply_to: Some("ann@example.org"),
            ..Envelope::default()
        };
        let a = authorship(&book, &e);
        assert_eq!(a.sender, None);
        assert_eq!(a.claimed().map(|p| p.id.as_str()), Some("red"));
        assert!(a.secret_ok);
        assert_eq!(
            a.named.as_ref().map(|(p, how)| (p.id.as_str(), *how)),
            Some(("red", "Reply-To"))
        );
        assert_eq!(a.via_list, None, "eve is no list the GM trusts");
        assert!(matches!(
            book.who(&a, e.from, false),
            Some(Who::Stranger("eve@example.org"))
        ));
    }

    /// A trusted list's mail is the named player's, who it is
    /// answered as; its secret must still be theirs.
    #[test]
    fn a_trusted_lists_mail_is_its_named_players() {
        let ps = players();
        let lists = vec!["club@lists.example.org".to_string()];
        let book = Book {
            players: &ps,
            lists: &lists,
            gm: None,
        };
        let e = Envelope {
            from: Some("club@lists.example.org"),
            original_from: Some("bob@example.org"),
            reply_to: Some("ann@example.org"),
            secret: Some("s3cret-blue"),
            ..Envelope::default()
        };
        let a = authorship(&book, &e);
        assert_eq!(
            a.via_list
                .as_ref()
                .map(|(p, how, l)| (p.id.as_str(), *how, l.as_str())),
            Some(("blue", "X-Original-From", "club@lists.example.org"))
        );
        assert!(a.secret_ok);
        assert!(matches!(book.who(&a, e.from, false), Some(Who::Player(p)) if p.id == "blue"));
        let forged = authorship(
            &book,
            &Envelope {
                secret: Some("s3cret-red"),
                ..e
            },
        );
        assert!(
            !forged.secret_ok,
            "through a list, only the named player's secret"
        );
        let by_line = authorship(
            &book,
            &Envelope {
                original_from: None,
                reply_to: None,
                player_line: Some("red"),
                secret: Some("s3cret-red"),
                ..e
            },
        );
        assert_eq!(
            by_line
                .via_list
                .as_ref()
                .map(|(p, how, _)| (p.id.as_str(), *how)),
            Some(("red", "player line"))
        );
    }

    /// The GM's address asking a GM's command is the GM, even when the GM plays a seat
    /// too; a mail a first filing trusted keeps its secret checked.
    #[test]
    fn the_gm_and_a_mail_filed_again() {
        let mut ps = players();
        ps.push(player("green", "gm@example.org"));
        let gm = GmEntry {
            name: "Gus".into(),
            email: "gm@example.org".into(),
            secret_hash: None,
        };
        let book = Book {
            players: &ps,
            lists: &[],
            gm: Some(&gm),
        };
        let e = Envelope {
            from: Some("gm@example.org"),
            ..Envelope::default()
        };
        let a = authorship(&book, &e);
        assert!(matches!(book.who(&a, e.from, true), Some(Who::Gm(_))));
        assert!(matches!(book.who(&a, e.from, false), Some(Who::Player(p)) if p.id == "green"));
        let again = authorship(
            &book,
            &Envelope {
                from: Some("bob@example.org"),
                trusted: Some("blue"),
                ..Envelope::default()
            },
        );
        assert!(again.secret_ok);
    }
}
