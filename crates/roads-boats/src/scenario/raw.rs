//! The scenario file as written: TOML, read with spans so that every problem can be
//! pointed at. `docs/scenarios.md` describes each field.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::building::BuildingKind;
use crate::goods::Goods;
use crate::player::Research;
use crate::setup::ChooseHomes;
use crate::state::{MineDraw, Module, Phase};
use crate::transporter::Kind;

pub type Text = Spanned<String>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub scenario: RawHeader,
    #[serde(default)]
    pub rules: RawRules,
    pub map: RawMap,
    #[serde(default)]
    pub start: RawStart,
    #[serde(default)]
    pub position: RawPosition,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHeader {
    pub name: Text,
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub players: Spanned<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRules {
    #[serde(default)]
    pub modules: Vec<Spanned<Module>>,
    #[serde(default)]
    pub mine_draw: MineDraw,
    pub end_brick: Option<Spanned<u32>>,
    pub neutral_bricks: Option<u32>,
    pub turn_limit: Option<u32>,
    pub skip_wonder_rows: Option<Spanned<u32>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMap {
    pub rows: Spanned<Vec<Text>>,
    #[serde(default)]
    pub rivers: Vec<Spanned<Vec<Text>>>,
    #[serde(default)]
    pub tracks: Vec<Spanned<Vec<Text>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStart {
    /// Players choose their homes in a set-up round (`any` land tile, or the `marked`
    /// ones listed in `homes`).
    pub choose: Option<Spanned<ChooseHomes>>,
    #[serde(default)]
    pub homes: Vec<Text>,
    pub transporters: Option<Spanned<Vec<Kind>>>,
    pub goods: Option<Goods>,
    /// Jumpstart: the lots auctioned before turn 1.
    #[serde(default)]
    pub lots: Vec<Spanned<RawLot>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLot {
    pub goods: Option<Goods>,
    pub home: Option<Text>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPosition {
    pub turn: Option<u32>,
    pub phase: Option<Phase>,
    pub move_order: Option<Spanned<Vec<Text>>>,
    #[serde(default)]
    pub research: BTreeMap<Text, Vec<Research>>,
    #[serde(default)]
    pub wonder: Vec<Text>,
    #[serde(default)]
    pub goods: BTreeMap<Text, Goods>,
    #[serde(default)]
    pub roads: Vec<Spanned<Vec<Text>>>,
    #[serde(default)]
    pub bridges: Vec<Text>,
    /// Jumpstart: the winning bids of the auction before turn 1.
    #[serde(default)]
    pub bids: BTreeMap<Text, u32>,
    /// Art: exhibitions shown before this position.
    #[serde(default)]
    pub shows: Vec<Spanned<RawShow>>,
    /// Electricity: power lines, written like roads.
    #[serde(default)]
    pub power_lines: Vec<Spanned<Vec<Text>>>,
    #[serde(default)]
    pub walls: Vec<Spanned<RawWall>>,
    #[serde(default)]
    pub buildings: Vec<Spanned<RawBuilding>>,
    #[serde(default)]
    pub transporters: Vec<Spanned<RawTransporter>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawShow {
    pub by: Text,
    pub at: Text,
    pub beauty: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWall {
    pub between: Text,
    pub owner: Option<Text>,
    pub tokens: Option<Spanned<u8>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBuilding {
    pub kind: BuildingKind,
    pub at: Text,
    pub gold: Option<u32>,
    pub iron: Option<u32>,
    #[serde(default)]
    pub bomb_proof: bool,
    #[serde(default)]
    pub used: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTransporter {
    pub id: Option<Text>,
    pub owner: Text,
    pub kind: Kind,
    pub at: Text,
    pub cargo: Option<Spanned<Goods>>,
    #[serde(default)]
    pub following_geese: u32,
}
