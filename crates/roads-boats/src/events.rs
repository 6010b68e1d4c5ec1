//! What happened in a turn: typed facts, in the order they happened. Reports are
//! rendered from these and the state; `Display` gives the plain sentence.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::building::{BuildingKind, MineBag};
use super::goods::{Good, Goods};
use super::map::{AreaId, Border, Hex};
use super::player::{Colour, Research};
use super::refusal::Refusal;
use super::state::Phase;
use super::transporter::{Kind, Location, TransporterId};
use judge_core::text::count;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub phase: Phase,
    /// Whose order or transporter it concerns, if anyone's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Colour>,
    /// The line of the order it comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    pub fact: Fact,
}

impl Event {
    /// Did an order fail, wholly or in part?
    pub fn is_failure(&self) -> bool {
        matches!(self.fact, Fact::Failed { .. } | Fact::Shortfall { .. })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "fact")]
pub enum Fact {
    // Production.
    GooseHatched {
        at: AreaId,
    },
    DonkeyBorn {
        at: AreaId,
        id: TransporterId,
    },
    /// Two donkeys would have bred here, but their owner ordered `no breed`.
    BreedingWithheld {
        at: AreaId,
    },
    Produced {
        building: BuildingKind,
        at: AreaId,
        goods: Goods,
    },
    MineYielded {
        at: AreaId,
        good: Good,
        left: MineBag,
    },
    /// Electricity: a power plant burnt a trunk or board (from a transporter, or lying
    /// there) and is working this turn; the primary producers it powers.
    PlantFired {
        at: AreaId,
        burnt: Good,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<TransporterId>,
        powers: Vec<AreaId>,
    },
    /// Electricity: a power plant had no wood and gives no power this turn.
    PlantCold {
        at: AreaId,
    },
    /// Management: a manager doubles the capacity of the secondary producers on a
    /// tile this phase (lying there, or aboard `by` as its owner ordered).
    ManagerAtWork {
        at: Hex,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<TransporterId>,
        doubles: Vec<BuildingKind>,
    },
    /// Trade: goods moved between two homes, both players agreeing; told from the side
    /// of the player whose order ran (`player`).
    Traded {
        with: Colour,
        gave: Goods,
        got: Goods,
    },
    /// Polder: a new wonder row has its first brick and the polders turn: flooded (the
    /// boats docked there now float on them) or dry.
    PoldersTurned {
        flooded: bool,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        afloat: Vec<TransporterId>,
    },
    /// Art: an exhibition caravan reached another player's starting tile and vanished
    /// with its art; `shown` if it made a show there.
    Exhibition {
        caravan: TransporterId,
        home_of: Colour,
        art: Goods,
        beauty: u32,
        shown: bool,
        why: String,
    },
    PowerLineBuilt {
        from: AreaId,
        to: AreaId,
    },
    MineEmpty {
        at: AreaId,
    },
    Made {
        building: BuildingKind,
        at: AreaId,
        inputs: Goods,
        goods: Goods,
        onto: Option<TransporterId>,
        used: u32,
        capacity: u32,
    },
    MadeTransporter {
        building: BuildingKind,
        inputs: Goods,
        id: TransporterId,
        kind: Kind,
        at: Location,
    },
    Loaded {
        transporter: TransporterId,
        goods: Goods,
        at: AreaId,
    },
    Unloaded {
        transporter: TransporterId,
        goods: Goods,
        at: AreaId,
    },
    Researched {
        subject: Research,
        at: AreaId,
        paid: Goods,
    },
    Upgraded {
        at: AreaId,
        from: BuildingKind,
        to: BuildingKind,
    },
    /// `lost`: cargo that could not be left on land.
    Destroyed {
        transporter: TransporterId,
        kind: Kind,
        lost: Goods,
    },
    Processed {
        building: BuildingKind,
        at: AreaId,
        goods: Goods,
        used: u32,
        capacity: u32,
        inputs: Goods,
    },
    InputsLost {
        building: BuildingKind,
        at: AreaId,
        goods: Goods,
        unclaimed: Kind,
    },
    ResearchLost {
        at: AreaId,
    },
    // Movement.
    Moved {
        transporter: TransporterId,
        path: Vec<Location>,
    },
    /// A move order that took the transporter nowhere: it stayed where it was.
    Stayed {
        transporter: TransporterId,
        at: Location,
    },
    Gave {
        from: TransporterId,
        to: TransporterId,
        goods: Goods,
    },
    /// Goods of another player's transporter used as that player offered (production or
    /// building); no goods: the transporter itself was handed in (a donkey for a wagon).
    OfferUsed {
        transporter: TransporterId,
        owner: Colour,
        goods: Goods,
    },
    GeeseFollow {
        transporter: TransporterId,
        geese: u32,
    },
    PickedUp {
        carrier: TransporterId,
        carried: TransporterId,
    },
    PutDown {
        carrier: TransporterId,
        carried: TransporterId,
        at: Location,
    },
    Flew {
        plane: TransporterId,
        landed: Location,
    },
    Dropped {
        plane: TransporterId,
        goods: Goods,
        at: AreaId,
    },
    TookTrain {
        transporter: TransporterId,
        to: Location,
        fare: Good,
    },
    // Building.
    Built {
        building: BuildingKind,
        at: AreaId,
    },
    RoadBuilt {
        from: AreaId,
        to: AreaId,
    },
    BridgeBuilt {
        at: Hex,
    },
    WallBuilt {
        border: Border,
        owner: Colour,
        tokens: u8,
        cost: u32,
    },
    WallDemolished {
        border: Border,
        tokens: u8,
        cost: u32,
    },
    PushedOut {
        transporter: TransporterId,
        to: Hex,
    },
    ShaftBuilt {
        at: Hex,
        mixture: MineBag,
    },
    BuildingBombed {
        building: BuildingKind,
        at: AreaId,
        /// City: the other building the same bomb destroyed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        also: Option<BuildingKind>,
    },
    BombProofed {
        building: BuildingKind,
        at: AreaId,
    },
    // Wonder.
    BricksPlaced {
        count: u32,
        paid: Goods,
        from: u32,
    },
    NeutralBrick {
        place: u32,
    },
    Irrigation,
    MoveOrder {
        order: Vec<Colour>,
    },
    GameOver {
        reason: String,
    },
    // Failures.
    /// The order did nothing; why.
    Failed {
        reason: Reason,
    },
    /// The order did part of what it asked; why not all.
    Shortfall {
        reason: String,
    },
}

/// Why an order did nothing: the rule's [`Refusal`] when this release decided it, or the
/// words an archive's events.json kept, read back. Either way the record is the words:
/// it is written as the refusal's sentence, so an archive reads the same whichever
/// release wrote it, and two reasons are equal when their words are.
#[derive(Clone, Debug)]
pub enum Reason {
    Refused(Refusal),
    /// The words of a failure read back from a turn's record.
    Recorded(String),
}

impl Reason {
    /// The rule's refusal, when this release decided it (not read back from a record).
    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            Reason::Refused(r) => Some(r),
            Reason::Recorded(_) => None,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Refused(r) => r.fmt(f),
            Reason::Recorded(words) => f.write_str(words),
        }
    }
}

impl PartialEq for Reason {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Reason::Refused(a), Reason::Refused(b)) => a == b,
            (Reason::Recorded(a), Reason::Recorded(b)) => a == b,
            _ => self.to_string() == other.to_string(),
        }
    }
}

impl Eq for Reason {}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Reason::Recorded)
    }
}

impl Fact {
    /// Goods this fact brought into the game and took out of it, so that every good can
    /// be accounted for: (created, consumed).
    pub fn goods_delta(&self) -> (Goods, Goods) {
        let one = |g: Good, n: u32| -> Goods { [(g, n)].into_iter().collect() };
        match self {
            Fact::GooseHatched { .. } => (one(Good::Geese, 1), Goods::new()),
            Fact::Produced { goods, .. } => (goods.clone(), Goods::new()),
            Fact::MineYielded { good, .. } => (one(*good, 1), Goods::new()),
            Fact::Made { inputs, goods, .. } | Fact::Processed { inputs, goods, .. } => {
                (goods.clone(), inputs.clone())
            }
            Fact::MadeTransporter { inputs, .. } => (Goods::new(), inputs.clone()),
            Fact::InputsLost { goods, .. } => (Goods::new(), goods.clone()),
            Fact::ResearchLost { .. } => (
                Goods::new(),
                [(Good::Geese, 2), (Good::Paper, 1)].into_iter().collect(),
            ),
            Fact::Researched { paid, .. } => (Goods::new(), paid.clone()),
            Fact::Destroyed { lost, .. } => (Goods::new(), lost.clone()),
            Fact::Built { building, .. } => (Goods::new(), building.cost()),
            Fact::RoadBuilt { .. } | Fact::BridgeBuilt { .. } | Fact::BombProofed { .. } => {
                (Goods::new(), one(Good::Stone, 1))
            }
            Fact::WallBuilt { cost, .. } => (Goods::new(), one(Good::Stone, *cost)),
            Fact::WallDemolished { cost, .. } => (Goods::new(), one(Good::Boards, *cost)),
            Fact::ShaftBuilt { .. } => (
                Goods::new(),
                [(Good::Iron, 1), (Good::Fuel, 1)].into_iter().collect(),
            ),
            Fact::BuildingBombed { .. } => (Goods::new(), one(Good::Bombs, 1)),
            Fact::BricksPlaced { paid, .. } => (Goods::new(), paid.clone()),
            Fact::TookTrain { fare, .. } => (Goods::new(), one(*fare, 1)),
            Fact::PlantFired { burnt, .. } => (Goods::new(), one(*burnt, 1)),
            Fact::PowerLineBuilt { .. } => (Goods::new(), one(Good::Iron, 1)),
            Fact::Exhibition { art, .. } => (Goods::new(), art.clone()),
            _ => (Goods::new(), Goods::new()),
        }
    }
}

fn opt_onto(onto: &Option<TransporterId>) -> String {
    onto.map_or_else(
        || " (left on the tile)".to_string(),
        |t| format!(" onto {}", t.named()),
    )
}

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fact::GooseHatched { at } => write!(f, "a goose hatched at {at}"),
            Fact::DonkeyBorn { at, id } => write!(f, "donkey {id} was born at {at}"),
            Fact::BreedingWithheld { at } => {
                write!(f, "the donkeys at {at} did not breed, as ordered")
            }
            Fact::Produced {
                building,
                at,
                goods,
            } => write!(f, "{building} at {at} produced {goods}"),
            Fact::MineYielded { at, good, left } => write!(
                f,
                "mine at {at} yielded 1 {good} ({} gold, {} iron left)",
                left.gold, left.iron
            ),
            Fact::MineEmpty { at } => write!(f, "mine at {at} is empty"),
            Fact::PlantFired {
                at,
                burnt,
                from,
                powers,
            } => {
                write!(f, "power plant at {at} burnt 1 {}", burnt.singular())?;
                match from {
                    Some(t) => write!(f, " from {}", t.named())?,
                    None => f.write_str(" lying there")?,
                }
                if powers.is_empty() {
                    f.write_str(": no producer is connected")
                } else {
                    let list: Vec<String> = powers.iter().map(ToString::to_string).collect();
                    write!(f, ": power doubles the output at {}", list.join(", "))
                }
            }
            Fact::PlantCold { at } => {
                write!(
                    f,
                    "power plant at {at} has no trunk or board: no power this turn"
                )
            }
            Fact::ManagerAtWork { at, by, doubles } => {
                write!(f, "a manager")?;
                if let Some(t) = by {
                    write!(f, " aboard {}", t.named())?;
                }
                write!(f, " works at {at}")?;
                if doubles.is_empty() {
                    f.write_str(", where no secondary producer stands")
                } else {
                    let list: Vec<String> = doubles.iter().map(ToString::to_string).collect();
                    write!(f, ": the {} has double capacity", list.join(" and the "))
                }
            }
            Fact::Traded { with, gave, got } => match (gave.is_empty(), got.is_empty()) {
                (false, true) => write!(f, "gave {gave} to {with}, from home to home"),
                (true, false) => write!(f, "received {got} from {with}, from home to home"),
                _ => write!(f, "traded {gave} for {got} with {with}, from home to home"),
            },
            Fact::PoldersTurned { flooded: true, afloat } => {
                f.write_str("a new wonder row is begun: the polders flood")?;
                if !afloat.is_empty() {
                    let list: Vec<String> = afloat.iter().map(|t| t.named().to_string()).collect();
                    write!(f, "; {} docked there now float on them", list.join(", "))?;
                }
                Ok(())
            }
            Fact::PoldersTurned { flooded: false, .. } => f.write_str(
                "a new wonder row is begun: the polders fall dry (boats on them are stranded until the next flood)",
            ),
            Fact::Exhibition {
                caravan,
                home_of,
                art,
                beauty,
                shown,
                why,
            } => {
                write!(
                    f,
                    "exhibition at {home_of}'s home: {caravan} shows {art} (beauty {beauty})",
                    caravan = caravan.named()
                )?;
                if *shown {
                    write!(f, ": a show! {why}")
                } else {
                    write!(f, ": no show, {why}")
                }?;
                write!(f, "; the caravan and its art are gone")
            }
            Fact::PowerLineBuilt { from, to } => write!(f, "built a power line {from}-{to}"),
            Fact::Made {
                building,
                at,
                goods,
                onto,
                used,
                capacity,
                ..
            } => write!(
                f,
                "{building} at {at} made {goods}{} ({used} of {capacity} used)",
                opt_onto(onto)
            ),
            Fact::MadeTransporter {
                building,
                id,
                kind,
                at,
                ..
            } => {
                write!(f, "{building} made {kind} {id} at {at}")
            }
            Fact::Loaded {
                transporter,
                goods,
                at,
            } => write!(
                f,
                "{transporter} loaded {goods} at {at}",
                transporter = transporter.named()
            ),
            Fact::Unloaded {
                transporter,
                goods,
                at,
            } => write!(
                f,
                "{transporter} unloaded {goods} at {at}",
                transporter = transporter.named()
            ),
            Fact::Researched { subject, at, .. } => write!(f, "researched {subject} at {at}"),
            Fact::Upgraded { at, from, to } => write!(f, "upgraded the {from} at {at} to a {to}"),
            Fact::Destroyed {
                transporter, kind, ..
            } => {
                write!(f, "{kind} {transporter} was destroyed")
            }
            Fact::Processed {
                building,
                at,
                goods,
                used,
                capacity,
                ..
            } => write!(
                f,
                "{building} at {at} processed goods left on the tile into {goods} ({used} of {capacity} used)"
            ),
            Fact::InputsLost {
                building,
                at,
                goods,
                unclaimed,
            } => write!(
                f,
                "{building} at {at} made an unclaimed {unclaimed}, destroyed with its inputs ({goods})"
            ),
            Fact::ResearchLost { at } => write!(f, "2 geese and 1 paper left at {at} were used up"),
            Fact::Moved { transporter, path } => {
                let p: Vec<String> = path.iter().map(ToString::to_string).collect();
                write!(f, "{} moved {}", transporter.named(), p.join(" > "))
            }
            Fact::Stayed { transporter, at } => {
                write!(f, "{} stayed at {at}", transporter.named())
            }
            Fact::Gave { from, to, goods } => {
                write!(f, "{} gave {goods} to {}", from.named(), to.named())
            }
            Fact::OfferUsed {
                transporter,
                owner,
                goods,
            } if goods.is_empty() => {
                write!(f, "handed in {}, which {owner} offered", transporter.named())
            }
            Fact::OfferUsed {
                transporter,
                owner,
                goods,
            } => write!(
                f,
                "used {goods} from {}, which {owner} offered",
                transporter.named()
            ),
            Fact::GeeseFollow { transporter, geese } => write!(
                f,
                "{} follow{} {}",
                Good::Geese.counted(*geese),
                if *geese == 1 { "s" } else { "" },
                transporter.named()
            ),
            Fact::PickedUp { carrier, carried } => {
                write!(f, "{} picked up {}", carrier.named(), carried.named())
            }
            Fact::PutDown {
                carrier,
                carried,
                at,
            } => write!(
                f,
                "{} put down {} at {at}",
                carrier.named(),
                carried.named()
            ),
            Fact::Flew { plane, landed } => {
                write!(f, "{} flew and landed at {landed}", plane.named())
            }
            Fact::Dropped { plane, goods, at } => {
                write!(f, "{} dropped {goods} on {at}", plane.named())
            }
            Fact::TookTrain {
                transporter,
                to,
                fare,
            } => {
                write!(
                    f,
                    "{} took the train to {to} for {}",
                    transporter.named(),
                    fare.counted(1)
                )
            }
            Fact::Built { building, at } => write!(f, "built a {building} at {at}"),
            Fact::RoadBuilt { from, to } => write!(f, "built a road {from}-{to}"),
            Fact::BridgeBuilt { at } => write!(f, "built a bridge at {at}"),
            Fact::WallBuilt {
                border,
                owner,
                tokens,
                cost,
            } => write!(
                f,
                "built a {owner} wall on {border}, now {}, for {cost} stone",
                count(usize::from(*tokens), "token")
            ),
            Fact::WallDemolished {
                border,
                tokens,
                cost,
            } => write!(
                f,
                "demolished the wall on {border} for {}; {} remain{}",
                Good::Boards.counted(*cost),
                count(usize::from(*tokens), "neutral token"),
                if *tokens == 1 { "s" } else { "" }
            ),
            Fact::PushedOut { transporter, to } => {
                write!(f, "{} was pushed out to sea at {to}", transporter.named())
            }
            Fact::ShaftBuilt { at, mixture } => write!(
                f,
                "built a new shaft at {at} adding {} gold and {} iron",
                mixture.gold, mixture.iron
            ),
            Fact::BuildingBombed { building, at, also } => {
                write!(f, "the {building} at {at} was blown up")?;
                match also {
                    Some(k) => write!(f, ", and the {k} with it"),
                    None => Ok(()),
                }
            }
            Fact::BombProofed { building, at } => {
                write!(f, "the {building} at {at} was made bomb-proof")
            }
            Fact::BricksPlaced { count, paid, from } => write!(
                f,
                "placed {} from place {from}, paying {paid}",
                judge_core::text::count(*count as usize, "brick")
            ),
            Fact::NeutralBrick { place } => {
                write!(f, "a neutral brick was placed at place {place}")
            }
            Fact::Irrigation => f.write_str("irrigation is discovered: deserts are pasture now"),
            Fact::MoveOrder { order } => {
                let o: Vec<&str> = order.iter().map(|c| c.name()).collect();
                write!(f, "the new move order is {}", o.join(", "))
            }
            Fact::GameOver { reason } => write!(f, "the game is over: {reason}"),
            Fact::Failed { reason } => write!(f, "failed: {reason}"),
            Fact::Shortfall { reason } => write!(f, "partly done: {reason}"),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.phase)?;
        if let Some(p) = self.player {
            write!(f, " {p}")?;
        }
        if let Some(l) = self.line {
            write!(f, " (line {l})")?;
        }
        write!(f, ": {}", self.fact)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Hex;

    fn failed(reason: Reason) -> Event {
        Event {
            phase: Phase::Movement,
            player: None,
            line: Some(3),
            fact: Fact::Failed { reason },
        }
    }

    /// The record of a refused order is the refusal's words, as it was when the reason
    /// was a string, and it reads back as the same event.
    #[test]
    fn a_refusal_is_recorded_as_its_words_and_reads_back_equal() {
        let hex: Hex = "C4".parse().expect("a hex");
        let refusal = Refusal::IsSea { hex };
        let typed = failed(Reason::Refused(refusal.clone()));
        let json = serde_json::to_string(&typed).expect("writes");
        let words = failed(Reason::Recorded("C4 is sea".to_string()));
        assert_eq!(json, serde_json::to_string(&words).expect("writes"));
        assert!(
            json.contains(r#""fact":"failed","reason":"C4 is sea""#),
            "{json}"
        );
        let back: Event = serde_json::from_str(&json).expect("reads");
        assert_eq!(back, typed);
        assert_eq!(back.to_string(), typed.to_string());
        assert_eq!(
            back.fact,
            Fact::Failed {
                reason: Reason::Recorded("C4 is sea".into())
            }
        );
        assert_eq!(
            match &typed.fact {
                Fact::Failed { reason } => reason.refusal(),
                _ => None,
            },
            Some(&refusal)
        );
        let other = failed(Reason::Recorded("C5 is sea".to_string()));
        assert_ne!(back, other);
        assert_ne!(typed, other);
    }
}
