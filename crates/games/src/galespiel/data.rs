//! The reconstructed material of Galespiel kept as data: the board (a cost for each of the 61
//! spots) and the bidding-card table (values, effects, upgraded versions).
//!
//! Both arrive as JSON text (the built-in defaults are embedded from
//! `crates/games/data/galespiel/`) and are turned into checked types once, by [`Board::from_json`]
//! and [`CardTable::from_json`], with an error that names the spot or card at fault.

use std::collections::BTreeSet;

use serde::Deserialize;
use serde_json::Value;

use super::geometry::{Point, SPOTS};

/// The default board, shipped as `crates/games/data/galespiel/board-default.json`.
pub const DEFAULT_BOARD_JSON: &str = include_str!("../../data/galespiel/board-default.json");
/// The default bidding cards, shipped as `crates/games/data/galespiel/cards-default.json`.
pub const DEFAULT_CARDS_JSON: &str = include_str!("../../data/galespiel/cards-default.json");

/// The lowest cost a board may give a spot.
pub const MIN_COST: u8 = 1;
/// The highest cost a board may give a spot (one digit, so the terminal picture stays aligned).
pub const MAX_COST: u8 = 9;
/// The fewest bidding cards a table may hold: one for each round of a 7-round cycle.
pub const MIN_CARDS: usize = 7;
/// The most bidding cards a table may hold (hands are 16-bit sets).
pub const MAX_CARDS: usize = 16;
/// The highest value a card (basic or upgraded) may have.
pub const MAX_CARD_VALUE: u8 = 30;

/// A board or card file that cannot be used, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DataError(pub String);

/// A checked board: a cost for every spot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    name: String,
    description: String,
    costs: [u8; SPOTS],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardFile {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    costs: serde_json::Map<String, Value>,
}

impl Board {
    /// Reads a board from its JSON text: `{"name": .., "description": .., "costs": {"b2": 4,
    /// ...}}` with every one of the 61 spots given a cost from 1 to 9.
    pub fn from_json(text: &str) -> Result<Board, DataError> {
        let file: BoardFile = serde_json::from_str(text)
            .map_err(|e| DataError(format!("the board is not valid board JSON: {e}")))?;
        let mut costs = [0u8; SPOTS];
        for (key, value) in &file.costs {
            let point = Point::parse(key).ok_or_else(|| {
                DataError(format!(
                    "`{key}` is not a point of the lattice (columns a..m, rows 1..13)"
                ))
            })?;
            let spot = point.spot().ok_or_else(|| {
                DataError(format!(
                    "`{key}` is not a spot ({}); spots are where column and row are both even, \
                     or both odd and off the border",
                    point.describe()
                ))
            })?;
            let cost = value
                .as_u64()
                .filter(|c| (u64::from(MIN_COST)..=u64::from(MAX_COST)).contains(c))
                .ok_or_else(|| {
                    DataError(format!(
                        "spot `{key}` costs {value}, but a cost is a whole number from \
                         {MIN_COST} to {MAX_COST}"
                    ))
                })?;
            if costs[spot.index()] != 0 {
                return Err(DataError(format!("spot `{spot}` is given twice")));
            }
            costs[spot.index()] = cost as u8;
        }
        let missing: Vec<String> = (0..SPOTS)
            .filter(|&i| costs[i] == 0)
            .map(|i| super::geometry::Spot::from_index(i).to_string())
            .collect();
        if !missing.is_empty() {
            return Err(DataError(format!(
                "every one of the {SPOTS} spots needs a cost; missing: {}",
                missing.join(" ")
            )));
        }
        Ok(Board {
            name: file.name.unwrap_or_else(|| "custom".to_string()),
            description: file.description.unwrap_or_default(),
            costs,
        })
    }

    /// The built-in default board.
    #[must_use]
    pub fn default_board() -> Board {
        Board::from_json(DEFAULT_BOARD_JSON).expect("the shipped default board is valid")
    }

    /// The board's name (`default` for the built-in one).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The board file's description.
    #[must_use]
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The cost of every spot, by spot index.
    #[must_use]
    pub fn costs(&self) -> &[u8; SPOTS] {
        &self.costs
    }

    /// The same board with other costs (the small variant's window).
    pub(super) fn with_costs(&self, costs: [u8; SPOTS]) -> Board {
        Board {
            costs,
            ..self.clone()
        }
    }
}

/// What a card does besides its value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Effects {
    /// Materials its player gains when it is played.
    pub gain: u8,
    /// Materials its player loses when it is played.
    pub lose: u8,
    /// Materials the opponent loses when it is played.
    pub tax: u8,
    /// Its player sees the next prize card, privately.
    pub survey: bool,
    /// If its player wins, each bridge this round costs this much less (at least 1).
    pub discount: u8,
    /// If its player wins, the first bridge this round is free.
    pub first_bridge_free: bool,
    /// It wins a tie of values (unless the other card wins ties too).
    pub wins_ties: bool,
}

impl Effects {
    /// The effects in words, `-` for none.
    #[must_use]
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.gain > 0 {
            parts.push(format!("gain {} M when played", self.gain));
        }
        if self.lose > 0 {
            parts.push(format!("lose {} M when played", self.lose));
        }
        if self.tax > 0 {
            parts.push(format!("opponent loses {} M when played", self.tax));
        }
        if self.survey {
            parts.push("see the next prize, privately".to_string());
        }
        if self.discount > 0 {
            parts.push(format!(
                "if you win, each bridge costs {} less (at least 1)",
                self.discount
            ));
        }
        if self.first_bridge_free {
            parts.push("if you win, your first bridge is free".to_string());
        }
        if self.wins_ties {
            parts.push("wins ties".to_string());
        }
        if parts.is_empty() {
            "-".to_string()
        } else {
            parts.join("; ")
        }
    }
}

/// One bidding card (a basic card or an upgraded version).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardDef {
    /// The value it bids.
    pub value: u8,
    /// Its name (`Scavenge`, `8+`).
    pub name: String,
    /// What else it does.
    pub effects: Effects,
}

/// A checked table of bidding cards: the basic cards in increasing value, each with its upgraded
/// version if it has one. A card is named in notation by its basic value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardTable {
    name: String,
    description: String,
    basic: Vec<CardDef>,
    upgraded: Vec<Option<CardDef>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardsFile {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    cards: Vec<CardSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardSpec {
    value: i64,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    effects: Vec<Value>,
    #[serde(default)]
    upgrade: Option<UpgradeSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UpgradeSpec {
    value: i64,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    effects: Vec<Value>,
}

/// The effect names a card file may use.
pub const EFFECT_NAMES: &str = "{\"gain\": N}, {\"lose\": N}, {\"tax\": N}, \"survey\", \
     {\"discount\": N}, \"first_bridge_free\", \"wins_ties\"";

fn parse_effects(card: &str, list: &[Value]) -> Result<Effects, DataError> {
    let mut e = Effects::default();
    for item in list {
        let bad = || {
            DataError(format!(
                "card {card}: unknown effect {item}; the effects are {EFFECT_NAMES}"
            ))
        };
        match item {
            Value::String(s) => match s.as_str() {
                "survey" => e.survey = true,
                "first_bridge_free" => e.first_bridge_free = true,
                "wins_ties" => e.wins_ties = true,
                _ => return Err(bad()),
            },
            Value::Object(map) if map.len() == 1 => {
                let (key, amount) = map.iter().next().expect("one entry");
                let n = amount.as_u64().filter(|n| (1..=20).contains(n)).ok_or_else(|| {
                    DataError(format!(
                        "card {card}: effect `{key}` needs a whole number from 1 to 20, not {amount}"
                    ))
                })? as u8;
                let slot = match key.as_str() {
                    "gain" => &mut e.gain,
                    "lose" => &mut e.lose,
                    "tax" => &mut e.tax,
                    "discount" => &mut e.discount,
                    _ => return Err(bad()),
                };
                *slot = slot.saturating_add(n);
            }
            _ => return Err(bad()),
        }
    }
    Ok(e)
}

fn card_value(card: &str, value: i64) -> Result<u8, DataError> {
    if (1..=i64::from(MAX_CARD_VALUE)).contains(&value) {
        Ok(value as u8)
    } else {
        Err(DataError(format!(
            "card {card}: value {value} is outside 1..{MAX_CARD_VALUE}"
        )))
    }
}

impl CardTable {
    /// Reads a card table from its JSON text: `{"name": .., "cards": [{"value": 1, "name":
    /// "Scavenge", "effects": [{"gain": 2}], "upgrade": {"value": .., "effects": [..]}}, ..]}`.
    /// Basic values must differ (they name the cards); 7 to 16 cards.
    pub fn from_json(text: &str) -> Result<CardTable, DataError> {
        let file: CardsFile = serde_json::from_str(text)
            .map_err(|e| DataError(format!("the cards are not valid card JSON: {e}")))?;
        let mut seen = BTreeSet::new();
        let mut rows = Vec::new();
        for spec in &file.cards {
            let label = spec.value.to_string();
            let value = card_value(&label, spec.value)?;
            if !seen.insert(value) {
                return Err(DataError(format!(
                    "card {value} is given twice; basic values name the cards and must differ"
                )));
            }
            let basic = CardDef {
                value,
                name: spec.name.clone().unwrap_or_else(|| label.clone()),
                effects: parse_effects(&label, &spec.effects)?,
            };
            let upgraded = match &spec.upgrade {
                None => None,
                Some(u) => {
                    let up_label = format!("{label}+");
                    Some(CardDef {
                        value: card_value(&up_label, u.value)?,
                        name: u.name.clone().unwrap_or(up_label.clone()),
                        effects: parse_effects(&up_label, &u.effects)?,
                    })
                }
            };
            rows.push((basic, upgraded));
        }
        if file.cards.len() < MIN_CARDS || file.cards.len() > MAX_CARDS {
            return Err(DataError(format!(
                "a card table holds {MIN_CARDS} to {MAX_CARDS} cards (a hand must last a \
                 7-round cycle), not {}",
                file.cards.len()
            )));
        }
        rows.sort_by_key(|(b, _)| b.value);
        let (basic, upgraded) = rows.into_iter().unzip();
        Ok(CardTable {
            name: file.name.unwrap_or_else(|| "custom".to_string()),
            description: file.description.unwrap_or_default(),
            basic,
            upgraded,
        })
    }

    /// The built-in default cards.
    #[must_use]
    pub fn default_cards() -> CardTable {
        CardTable::from_json(DEFAULT_CARDS_JSON).expect("the shipped default cards are valid")
    }

    /// The table's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The table file's description.
    #[must_use]
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The table's `n` lowest cards (the small variant's `hand`).
    #[must_use]
    pub fn lowest(&self, n: usize) -> CardTable {
        CardTable {
            basic: self.basic[..n].to_vec(),
            upgraded: self.upgraded[..n].to_vec(),
            ..self.clone()
        }
    }

    /// How many cards a full hand holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.basic.len()
    }

    /// Whether the table is empty (never, once checked).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.basic.is_empty()
    }

    /// The basic card in `slot` (slots run in increasing basic value).
    #[must_use]
    pub fn basic(&self, slot: usize) -> &CardDef {
        &self.basic[slot]
    }

    /// The upgraded version of the card in `slot`, if it has one.
    #[must_use]
    pub fn upgraded(&self, slot: usize) -> Option<&CardDef> {
        self.upgraded[slot].as_ref()
    }

    /// The slot of the card whose basic value is `value`.
    #[must_use]
    pub fn slot_of(&self, value: u8) -> Option<usize> {
        self.basic.iter().position(|c| c.value == value)
    }

    /// The set of slots that have an upgraded version.
    #[must_use]
    pub fn upgradable(&self) -> u16 {
        (0..self.len())
            .filter(|&i| self.upgraded[i].is_some())
            .fold(0, |m, i| m | 1 << i)
    }
}
