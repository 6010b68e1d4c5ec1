//! What happened, as the rules tell it. The report is rendered from these and the
//! states before and after; each event knows who may see it ([`Event::seen_by`]) and
//! how much of it ([`Event::text`]): docs/catan.md, "What each player sees". A player's
//! own orders (done, refused or skipped, and why) are told to that player alone; a
//! stolen card to the thief and the victim; a bought card to its buyer; discarded
//! cards to the one who discarded them (the others learn how many).
//!
//! Places are the board's indexes (0-based); [`Event::text`] names them as players
//! write them.

use serde::{Deserialize, Serialize};

use super::board::{HexId, VertexId};
use super::cards::{Cards, DevCard, Resource};
use super::colour::Colour;
use super::rules::Refusal;
use super::state::State;

/// What a building order built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Piece {
    Road,
    Settlement,
    City,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// A player's turn (or founding placement) begins.
    TurnBegan {
        player: Colour,
        turn: u32,
    },
    Rolled {
        player: Colour,
        dice: [u8; 2],
    },
    Produced {
        player: Colour,
        cards: Cards,
    },
    /// The bank could not pay everyone this resource: nobody got it (or the one player
    /// owed took what was left).
    Shortage {
        resource: Resource,
        owed: u32,
        paid: u32,
    },
    MustDiscard {
        player: Colour,
        count: u8,
    },
    Discarded {
        player: Colour,
        cards: Cards,
    },
    RobberMoved {
        player: Colour,
        hex: HexId,
    },
    /// `card` is seen only by the two players involved.
    Stole {
        thief: Colour,
        victim: Colour,
        card: Resource,
    },
    NothingToSteal {
        player: Colour,
    },
    Built {
        player: Colour,
        piece: Piece,
        at: usize,
        free: bool,
    },
    /// Founding placements and the cards the second one yields.
    Founded {
        player: Colour,
        vertex: VertexId,
    },
    FoundingYield {
        player: Colour,
        cards: Cards,
    },
    /// `card` is seen only by the buyer.
    Bought {
        player: Colour,
        card: DevCard,
    },
    Played {
        player: Colour,
        card: DevCard,
    },
    YearOfPlenty {
        player: Colour,
        cards: Cards,
    },
    Monopoly {
        player: Colour,
        resource: Resource,
        taken: u32,
    },
    MaritimeTrade {
        player: Colour,
        gave: Cards,
        got: Cards,
    },
    DomesticTrade {
        player: Colour,
        with: Colour,
        gave: Cards,
        got: Cards,
    },
    LongestRoad {
        player: Option<Colour>,
        length: u8,
    },
    LargestArmy {
        player: Colour,
        knights: u8,
    },
    TurnEnded {
        player: Colour,
    },
    SpecialBuilding {
        player: Colour,
    },
    Won {
        player: Colour,
        points: u8,
        vp_cards: u8,
    },
    /// The GM ended the game (`judge end`), with their reason.
    Ended {
        why: String,
    },
    // ---- Play by email ----
    /// An order done: its line and the order as written.
    Order {
        player: Colour,
        line: u32,
        text: String,
    },
    /// An order that could not be done, and why.
    Failed {
        player: Colour,
        line: u32,
        text: String,
        reason: Refusal,
    },
    /// An order not done because its condition did not hold, or it was marked
    /// `if I can` and could not be done: not a failure.
    Skipped {
        player: Colour,
        line: u32,
        text: String,
        why: String,
    },
    /// The judge stood in for a player: what it did and why, in one sentence that names
    /// them (they sent no orders, or none of theirs could be used).
    Default {
        player: Colour,
        what: String,
    },
    /// A player had to discard and their orders gave no preference: the judge took the
    /// cards from their largest piles. Told to them alone (their orders are theirs).
    NoDiscardPreference {
        player: Colour,
    },
    /// Orders on record replaced by a new file.
    Recorded {
        player: Colour,
    },
    /// What a scenario's own rules tell (Catan Express: lines, ferries, chips, the
    /// race).
    Scenario(super::scenario::Event),
}

impl Event {
    pub fn is_failure(&self) -> bool {
        matches!(self, Event::Failed { .. })
    }

    /// The player the event is mainly about.
    pub fn player(&self) -> Option<Colour> {
        use Event::*;
        Some(match self {
            TurnBegan { player, .. }
            | Rolled { player, .. }
            | Produced { player, .. }
            | MustDiscard { player, .. }
            | Discarded { player, .. }
            | RobberMoved { player, .. }
            | NothingToSteal { player }
            | Built { player, .. }
            | Founded { player, .. }
            | FoundingYield { player, .. }
            | Bought { player, .. }
            | Played { player, .. }
            | YearOfPlenty { player, .. }
            | Monopoly { player, .. }
            | MaritimeTrade { player, .. }
            | DomesticTrade { player, .. }
            | LargestArmy { player, .. }
            | TurnEnded { player }
            | SpecialBuilding { player }
            | Won { player, .. }
            | Order { player, .. }
            | Failed { player, .. }
            | Skipped { player, .. }
            | Default { player, .. }
            | NoDiscardPreference { player }
            | Recorded { player } => *player,
            Stole { thief, .. } => *thief,
            LongestRoad { player, .. } => return *player,
            Ended { .. } => return None,
            Shortage { .. } => return None,
            Scenario(e) => return e.player(),
        })
    }

    /// May `viewer` (`None`: the public record) see this event at all? A player's own
    /// orders — done, refused or skipped, with the reason — and the judge's note that
    /// their orders gave no discard preference are theirs alone; every other event is
    /// public, though [`Event::text`] may still hide a part of it.
    pub fn seen_by(&self, viewer: Option<Colour>) -> bool {
        use Event::*;
        match self {
            Order { player, .. }
            | Failed { player, .. }
            | Skipped { player, .. }
            | NoDiscardPreference { player } => viewer == Some(*player),
            _ => true,
        }
    }

    /// The event in words, as `viewer` may see it (`None`: what everyone may see). Call
    /// it only for an event [`Event::seen_by`] the viewer.
    pub fn text(&self, s: &State, viewer: Option<Colour>) -> String {
        use Event::*;
        let t = &s.board.topology;
        match self {
            TurnBegan { player, turn } => format!("{player}'s turn {turn} begins"),
            Rolled { player, dice } => roll_text(*player, *dice),
            Produced { player, cards } => format!("{player} received {cards}"),
            Shortage {
                resource,
                owed,
                paid,
            } => {
                if *paid == 0 {
                    format!("the bank was short of {resource} ({owed} owed): nobody received any")
                } else {
                    format!("the bank was short of {resource}: {paid} of {owed} paid")
                }
            }
            MustDiscard { player, count } => {
                format!("{player} held more than 7 cards and must discard {count}")
            }
            Discarded { player, cards } => {
                if viewer == Some(*player) {
                    format!("{player} discarded {cards}")
                } else {
                    format!(
                        "{player} discarded {}",
                        judge_core::text::count(cards.total() as usize, "card")
                    )
                }
            }
            RobberMoved { player, hex } => {
                format!("{player} moved the robber to {}", t.hex_name(*hex))
            }
            Stole {
                thief,
                victim,
                card,
            } => {
                if viewer == Some(*thief) || viewer == Some(*victim) {
                    format!("{thief} stole 1 {card} from {victim}")
                } else {
                    format!("{thief} stole a card from {victim}")
                }
            }
            NothingToSteal { player } => {
                format!("{player} had nobody to steal from")
            }
            Built {
                player,
                piece,
                at,
                free,
            } => {
                let (what, place) = match piece {
                    Piece::Road => ("a road", t.edge_name(*at)),
                    Piece::Settlement => ("a settlement", t.vertex_name(*at)),
                    Piece::City => ("a city", t.vertex_name(*at)),
                };
                let free = if *free { " (free)" } else { "" };
                format!("{player} built {what} at {place}{free}")
            }
            Founded { player, vertex } => {
                format!(
                    "{player} founded a settlement at {}",
                    t.vertex_name(*vertex)
                )
            }
            FoundingYield { player, cards } => {
                format!("{player}'s second settlement yielded {cards}")
            }
            Bought { player, card } => {
                if viewer == Some(*player) {
                    format!("{player} bought a development card: {card}")
                } else {
                    format!("{player} bought a development card")
                }
            }
            Played { player, card } => format!("{player} played {card}"),
            YearOfPlenty { player, cards } => {
                format!("{player} took {cards} from the bank (year of plenty)")
            }
            Monopoly {
                player,
                resource,
                taken,
            } => format!(
                "{player} took all {resource}: {} (monopoly)",
                judge_core::text::count(*taken as usize, "card")
            ),
            MaritimeTrade { player, gave, got } => {
                format!("{player} traded {gave} to the bank for {got}")
            }
            DomesticTrade {
                player,
                with,
                gave,
                got,
            } => format!("{player} gave {with} {gave} for {got}"),
            LongestRoad { player, length } => match player {
                Some(p) => format!("{p} holds the longest road ({length})"),
                None => "nobody holds the longest road now".to_string(),
            },
            LargestArmy { player, knights } => {
                format!("{player} holds the largest army ({knights} knights)")
            }
            TurnEnded { player } => format!("{player} ended the turn"),
            SpecialBuilding { player } => format!("{player}'s special building phase"),
            Won {
                player,
                points,
                vp_cards,
            } => {
                let cards = if *vp_cards > 0 {
                    format!(
                        ", revealing {}",
                        judge_core::text::count(usize::from(*vp_cards), "victory point card")
                    )
                } else {
                    String::new()
                };
                format!("{player} WINS with {points} points{cards}")
            }
            Ended { why } => format!("the GM ended the game: {why}"),
            Order { text, .. } => text.clone(),
            Failed { text, reason, .. } => format!("{text}: failed: {}", reason.text(s)),
            Skipped { text, why, .. } => format!("{text}: not done: {why}"),
            Default { what, .. } => what.clone(),
            NoDiscardPreference { player } => format!(
                "{player} gave no discard preference: the judge discarded from their largest piles"
            ),
            Recorded { player } => format!("{player}'s new orders are on record"),
            Scenario(e) => e.text(s, viewer),
        }
    }
}

/// A roll as every report shows it (`red rolled 3 + 4 = 7`), and as `judge verify` looks
/// for it in a public report ([`crate::report::draws`]).
pub fn roll_text(player: Colour, dice: [u8; 2]) -> String {
    format!(
        "{player} rolled {} + {} = {}",
        dice[0],
        dice[1],
        dice[0] + dice[1]
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Resource;
    use crate::state::Options;

    /// Counts are said in words, never "card(s)".
    #[test]
    fn counts_of_cards_take_their_number() {
        let names: Vec<String> = ["Ann", "Bob", "Cy"].map(String::from).to_vec();
        let s = State::new("g", &names, 1, &Options::default()).expect("a game");
        let monopoly = |taken| Event::Monopoly {
            player: Colour::Red,
            resource: Resource::Grain,
            taken,
        };
        assert_eq!(
            monopoly(1).text(&s, None),
            "red took all grain: 1 card (monopoly)"
        );
        assert_eq!(
            monopoly(3).text(&s, None),
            "red took all grain: 3 cards (monopoly)"
        );
        let won = Event::Won {
            player: Colour::Red,
            points: 10,
            vp_cards: 1,
        }
        .text(&s, None);
        assert!(won.contains("revealing 1 victory point card"), "{won}");
        assert!(!won.contains("(s)"), "{won}");
    }
}
