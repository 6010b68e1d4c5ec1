//! Trade (&cetera, Trade): goods exchanged between home tiles in the wonder phase.
//!
//! "Players may trade any amount of goods with one another, provided these goods are on
//! their respective starting tiles, and they both have a transporter present on their own
//! tile. Goods are simply picked up from one tile and put on the other; the trading
//! player's transporters may pick up the goods before anyone else can. Note that you
//! cannot trade from another player's starting tile. It is allowed to give goods away,
//! although the receiving player must be willing to accept them."
//!
//! By mail a trade is two orders that agree: `trade 2 boards for 1 gold with yellow` in
//! red's wonder orders and `trade 1 gold for 2 boards with red` in yellow's. A gift is
//! `trade 2 boards for nothing with yellow`, and the receiver accepts it with `trade
//! nothing for 2 boards with red`. Readings (RULINGS R10): goods lying at home and on the
//! trader's own transporters there may be traded (lying goods go first, as for bricks);
//! traded goods are put on the receiver's home, where the receiver may load them
//! (`load D1 2 boards` in the wonder phase) and spend them on bricks the same phase.
//! Trades are settled at the start of the wonder phase, before any brick, in the move
//! order of the player whose order comes first; an order whose partner does not agree,
//! or whose goods are not there, fails with the reason, and so does the partner's.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Grammar, Hooks, Plugin};
use crate::events::Fact;
use crate::goods::Goods;
use crate::map::AreaId;
use crate::order_text::{R, Reader};
use crate::orders::{TurnOrders, WonderOrder};
use crate::player::Colour;
use crate::refusal::{Refusal, Shortage};
use crate::state::{Module, Phase};
use crate::transporter::{Kind, Named, TransporterId};
use crate::turn::at_home;
use crate::turn::load_goods;
use crate::turn::{Ctx, lying, take_lying};

/// Trade's notes for the rest of a turn (`turn::Notes`).
#[derive(Clone, Debug, Default)]
pub struct Notes {
    /// The goods traded to each player in this wonder phase that they have not loaded
    /// yet (the only goods loaded in the wonder phase, RULINGS R10).
    pub traded_to: std::collections::BTreeMap<Colour, Goods>,
    /// All the goods traded to each player in this wonder phase, loaded or not (so that
    /// a refusal never says none were when one was).
    pub traded_in: std::collections::BTreeMap<Colour, Goods>,
}

pub static PLUGIN: Plugin = Plugin {
    module: Module::Trade,
    rule: "&cetera, Trade",
    buildings: &[],
    goods: &[],
    transporters: &[],
    terrains: &[],
    orders: &[
        Grammar {
            phase: Phase::Wonder,
            words: "trade",
            read: read_trade,
            example: "trade 2 boards for 1 gold with yellow",
        },
        Grammar {
            phase: Phase::Wonder,
            words: "load",
            read: read_load,
            example: "load D1 2 boards",
        },
    ],
    before_turn_one: &[],
    steps: &[(
        Phase::Wonder,
        "before the bricks, goods move between two homes where both players' trade orders agree and both have a transporter at home",
    )],
    map_legend: &[],
    hooks: Hooks {
        before_bricks: Some(settle),
        ..Hooks::NONE
    },
};

/// One trade order: who wrote it, on which line, what they give and get, and with whom.
#[derive(Clone)]
struct Offer {
    player: Colour,
    line: u32,
    give: Goods,
    get: Goods,
    with: Colour,
}

/// The side of a player's home, and what they may trade from it.
fn purse(ctx: &Ctx, player: Colour) -> Result<(Vec<AreaId>, Vec<TransporterId>, Goods), Refusal> {
    let home = ctx
        .s
        .players
        .get(&player)
        .and_then(|p| p.home)
        .ok_or(Refusal::NoHome { player })?;
    let carriers = at_home(ctx, player, home);
    if carriers.is_empty() {
        return Err(TradeRefusal::NoTraderAtHome { player, home }.into());
    }
    let side: Vec<AreaId> = ctx.s.map.same_side(home).into_iter().collect();
    let mut have = lying(&ctx.s, &side);
    for id in &carriers {
        if let Some(t) = ctx.s.transporters.get(id) {
            have.add_all(&t.cargo);
        }
    }
    Ok((side, carriers, have))
}

fn missing(have: &Goods, want: &Goods) -> Option<Vec<Shortage>> {
    let short: Vec<Shortage> = want
        .iter()
        .filter(|(g, n)| have.count(*g) < *n)
        .map(|(good, needed)| Shortage {
            good,
            needed,
            there: have.count(good),
        })
        .collect();
    (!short.is_empty()).then_some(short)
}

/// Take `goods` from a home: lying goods first, then the cargo at home.
fn take(ctx: &mut Ctx, side: &[AreaId], carriers: &[TransporterId], goods: &Goods) {
    for (g, n) in goods.iter() {
        let mut left = n - take_lying(&mut ctx.s, side, g, n);
        for id in carriers {
            if left == 0 {
                break;
            }
            if let Some(t) = ctx.s.transporters.get_mut(id) {
                left -= t.cargo.take(g, left);
            }
        }
    }
}

/// Start of the wonder phase: carry out every pair of agreeing trade orders.
fn settle(ctx: &mut Ctx, orders: &TurnOrders) {
    ctx.notes.put(Notes::default());
    let mut offers: Vec<Offer> = Vec::new();
    for player in ctx.in_move_order() {
        for o in orders.get(&player).map_or(&[][..], |l| l.wonder.as_slice()) {
            if let WonderOrder::Module(super::Order::Trade(Order::Trade { give, get, with })) =
                &o.order
            {
                offers.push(Offer {
                    player,
                    line: o.line,
                    give: give.clone(),
                    get: get.clone(),
                    with: *with,
                });
            }
        }
    }
    let mut used = vec![false; offers.len()];
    for i in 0..offers.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let a = offers[i].clone();
        ctx.player = Some(a.player);
        ctx.line = Some(a.line);
        if a.with == a.player {
            ctx.fail(TradeRefusal::WithYourself);
            continue;
        }
        if !ctx.s.players.contains_key(&a.with) {
            ctx.fail(TradeRefusal::NotPlaying { with: a.with });
            continue;
        }
        if a.give.is_empty() && a.get.is_empty() {
            ctx.fail(TradeRefusal::NothingForNothing);
            continue;
        }
        let partner = (0..offers.len()).find(|j| {
            !used[*j]
                && offers[*j].player == a.with
                && offers[*j].with == a.player
                && offers[*j].give == a.get
                && offers[*j].get == a.give
        });
        let Some(j) = partner else {
            let why = if offers
                .iter()
                .any(|o| o.player == a.with && o.with == a.player)
            {
                NoDeal::Disagree { with: a.with }
            } else if a.get.is_empty() {
                NoDeal::GiftRefused {
                    with: a.with,
                    give: a.give.clone(),
                    player: a.player,
                }
            } else {
                NoDeal::NoOrder { with: a.with }
            };
            ctx.fail(TradeRefusal::NoTrade { with: a.with, why });
            continue;
        };
        used[j] = true;
        let b = offers[j].clone();
        let fail_both = |ctx: &mut Ctx, why: NoDeal| {
            ctx.player = Some(a.player);
            ctx.line = Some(a.line);
            ctx.fail(TradeRefusal::NoTrade {
                with: b.player,
                why: why.clone(),
            });
            ctx.player = Some(b.player);
            ctx.line = Some(b.line);
            ctx.fail(TradeRefusal::NoTrade {
                with: a.player,
                why,
            });
        };
        let (pa, pb) = match (purse(ctx, a.player), purse(ctx, b.player)) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(e), _) | (_, Err(e)) => {
                fail_both(ctx, NoDeal::Purse(Box::new(e)));
                continue;
            }
        };
        if let Some(m) = missing(&pa.2, &a.give) {
            fail_both(
                ctx,
                NoDeal::NotAtHome {
                    player: a.player,
                    missing: m,
                },
            );
            continue;
        }
        if let Some(m) = missing(&pb.2, &b.give) {
            fail_both(
                ctx,
                NoDeal::NotAtHome {
                    player: b.player,
                    missing: m,
                },
            );
            continue;
        }
        take(ctx, &pa.0, &pa.1, &a.give);
        take(ctx, &pb.0, &pb.1, &b.give);
        let (home_a, home_b) = (
            ctx.s.players.get(&a.player).and_then(|p| p.home),
            ctx.s.players.get(&b.player).and_then(|p| p.home),
        );
        if let (Some(ha), Some(hb)) = (home_a, home_b) {
            ctx.s.goods.entry(hb).or_default().add_all(&a.give);
            ctx.s.goods.entry(ha).or_default().add_all(&b.give);
            ctx.notes.with(|n: &mut Notes| {
                n.traded_to.entry(b.player).or_default().add_all(&a.give);
                n.traded_to.entry(a.player).or_default().add_all(&b.give);
                n.traded_in.entry(b.player).or_default().add_all(&a.give);
                n.traded_in.entry(a.player).or_default().add_all(&b.give);
            });
        }
        ctx.player = Some(a.player);
        ctx.line = Some(a.line);
        ctx.emit(Fact::Traded {
            with: b.player,
            gave: a.give.clone(),
            got: a.get.clone(),
        });
        ctx.player = Some(b.player);
        ctx.line = Some(b.line);
        ctx.emit(Fact::Traded {
            with: a.player,
            gave: b.give.clone(),
            got: b.get.clone(),
        });
    }
    ctx.player = None;
    ctx.line = None;
}

/// Wonder phase: a transporter at its owner's home takes goods traded to its owner this
/// phase ("the trading player's transporters may pick up the goods before anyone else
/// can"). RULINGS R10 (Trade loading): only those goods — nothing else is loaded in the
/// wonder phase — and never by a plane, which loads only at the start of its movement.
pub(crate) fn load(ctx: &mut Ctx, id: TransporterId, goods: &Goods) {
    if !ctx.s.settings.modules.contains(&Module::Trade) {
        return ctx.fail(TradeRefusal::LoadWithoutTrade);
    }
    if let Err(e) = ctx.own(id) {
        return ctx.fail(e);
    }
    let Some(player) = ctx.player else { return };
    if ctx
        .s
        .transporters
        .get(&id)
        .is_some_and(|t| t.kind == Kind::Plane)
    {
        return ctx.fail(TradeRefusal::PlaneLoads { id: id.named() });
    }
    let Some(home) = ctx.s.players.get(&player).and_then(|p| p.home) else {
        return;
    };
    if !at_home(ctx, player, home).contains(&id) {
        return ctx.fail(TradeRefusal::NotAtHome {
            id: id.named(),
            home,
        });
    }
    let traded = ctx
        .notes
        .get::<Notes>()
        .and_then(|n| n.traded_to.get(&player))
        .cloned()
        .unwrap_or_default();
    let mut wanted = Goods::new();
    for (g, n) in goods.iter() {
        wanted.add(g, n.min(traded.count(g)));
    }
    if wanted.is_empty() {
        let all = ctx
            .notes
            .get::<Notes>()
            .and_then(|n| n.traded_in.get(&player))
            .cloned()
            .unwrap_or_default();
        return ctx.fail(TradeRefusal::LoadsNothing {
            id: id.named(),
            all,
            traded,
        });
    }
    let got = load_goods(ctx, id, &wanted, None, &Goods::new());
    ctx.notes.with(|n: &mut Notes| {
        if let Some(left) = n.traded_to.get_mut(&player) {
            for (g, k) in got.iter() {
                left.take(g, k);
            }
        }
    });
    if wanted.total() < goods.total() && !got.is_empty() {
        ctx.short(format!(
            "{id} loaded {got} of {goods}: in the wonder phase only goods traded to you this phase are loaded ({traded})"
        , id = id.named()));
    }
}

// ---- Orders: `trade` (settled before the bricks, [`settle`]) and
// `load`, read and carried out here. ----

/// Trade's orders (wonder phase).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "order")]
pub enum Order {
    /// Give goods from one's home to `with`'s home for goods from theirs (either side may
    /// be nothing: a gift, or accepting one); `with` must order the mirror.
    Trade {
        give: Goods,
        get: Goods,
        with: Colour,
    },
    /// A transporter at home takes goods lying there (traded goods, before anyone else
    /// can).
    Load {
        transporter: TransporterId,
        goods: Goods,
    },
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Trade { give, get, with } => match (give.is_empty(), get.is_empty()) {
                (false, true) => write!(
                    f,
                    "give {give} from your home to {with}'s home, if {with} accepts"
                ),
                (true, false) => write!(f, "accept {get} from {with}'s home onto yours"),
                _ => write!(
                    f,
                    "trade {give} from your home for {get} from {with}'s home, if {with} agrees"
                ),
            },
            Order::Load { transporter, goods } => {
                write!(f, "{transporter} takes {goods} lying at home")
            }
        }
    }
}

impl Order {
    /// The order `me`'s partner writes to agree to this one (`judge check` assumes it):
    /// the partner, and the mirror trade.
    pub(crate) fn mirror(&self, me: Colour) -> Option<(Colour, Order)> {
        match self {
            Order::Trade { give, get, with } => Some((
                *with,
                Order::Trade {
                    give: get.clone(),
                    get: give.clone(),
                    with: me,
                },
            )),
            Order::Load { .. } => None,
        }
    }
}

/// `trade 2 boards for 1 gold with yellow`; `nothing` on either side.
fn read_trade(r: &mut Reader<'_>) -> R<super::Order> {
    let give = r.goods_or_nothing()?;
    r.expect("for")?;
    let get = r.goods_or_nothing()?;
    r.expect("with")?;
    let with = r.colour()?;
    Ok(super::Order::Trade(Order::Trade { give, get, with }))
}

/// `load D1 2 boards`
fn read_load(r: &mut Reader<'_>) -> R<super::Order> {
    let transporter = r.transporter()?;
    let goods = r.goods()?;
    Ok(super::Order::Trade(Order::Load { transporter, goods }))
}

/// Where the wonder phase comes to the order: a transporter loads; a trade was settled
/// before the bricks ([`settle`]), or fails here if trade is not in play.
pub(crate) fn carry_out(ctx: &mut Ctx, order: &Order) {
    match order {
        Order::Load { transporter, goods } => load(ctx, *transporter, goods),
        Order::Trade { .. } if !ctx.s.settings.modules.contains(&Module::Trade) => {
            ctx.fail(TradeRefusal::NotInPlay)
        }
        Order::Trade { .. } => {}
    }
}

/// Why a trade or a wonder-phase load was refused (&cetera, Trade).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TradeRefusal {
    #[error(
        "{player} has no transporter at home ({home}): both traders must have one on their own tile"
    )]
    NoTraderAtHome { player: Colour, home: AreaId },
    #[error("you cannot trade with yourself")]
    WithYourself,
    #[error("{with} does not play in this game")]
    NotPlaying { with: Colour },
    #[error("a trade of nothing for nothing does nothing")]
    NothingForNothing,
    #[error("no trade with {with}: {why}")]
    NoTrade { with: Colour, why: NoDeal },
    #[error("loading in the wonder phase comes with trade, which is not in play in this game")]
    LoadWithoutTrade,
    #[error("{id} is a plane: planes load only at the start of their movement")]
    PlaneLoads { id: Named },
    #[error("{id} is not at home ({home}): in the wonder phase a transporter loads only at home")]
    NotAtHome { id: Named, home: AreaId },
    /// Nothing to load: only goods traded to the player this phase are (`all`: traded to
    /// them; `traded`: of those, not loaded yet — another transporter may have taken them).
    #[error(
        "{id} loads nothing: in the wonder phase only goods traded to you this phase are loaded{}",
        loaded_already(all, traded)
    )]
    LoadsNothing {
        id: Named,
        all: Goods,
        traded: Goods,
    },
    #[error("trade is not in play in this game")]
    NotInPlay,
}

fn loaded_already(all: &Goods, traded: &Goods) -> String {
    if all.is_empty() {
        ", and none were".to_string()
    } else if traded.is_empty() {
        format!(", and what was traded to you ({all}) is loaded already")
    } else if traded == all {
        format!(": {all}")
    } else {
        format!(": {all}, of which {traded} is not loaded yet")
    }
}

/// Why two trade orders made no trade.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoDeal {
    #[error(
        "{with}'s trade orders with you do not agree with this one (they must give what you get and get what you give)"
    )]
    Disagree { with: Colour },
    #[error(
        "{with} has not accepted the gift (`trade nothing for {give} with {player}` in {with}'s wonder orders)"
    )]
    GiftRefused {
        with: Colour,
        give: Goods,
        player: Colour,
    },
    #[error("{with} gives no trade order with you")]
    NoOrder { with: Colour },
    /// A trader's home has no transporter, or the player no home.
    #[error("{0}")]
    Purse(Box<Refusal>),
    #[error("{player} has not the goods at home: {}", missing.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))]
    NotAtHome {
        player: Colour,
        missing: Vec<Shortage>,
    },
}
