//! Galespiel (chaotic_iak, Blooming Genius: The Elder Tree): Gale (Bridg-It) played for materials
//! won in Goofspiel rounds.
//!
//! Brown (`p1`) joins the left edge to the right, blue (`p2`) the top to the bottom, on the
//! reconstructed 13×13 lattice of [`geometry`]. Each round a prize (3, 4, 4, 5, 5, 6, 8, shuffled
//! into a 7-round cycle) is revealed, both bid a card at once, and the higher value takes the
//! prize's materials and builds any bridges it can pay for. Surrounding opponent dots grants card
//! upgrades; stored materials decay by floor(M / 6) a round; joining your edges wins, and a
//! stalemate (14 rounds without a bridge, or 70 rounds) goes to the cheaper remaining crossing.
//!
//! The board's spot costs and the card table are data ([`data`]), chosen by the options `board`
//! and `cards`: a built-in name (`default`) or the file's JSON text, so that the rules stay free
//! of I/O and a record carries everything needed to replay it.
//!
//! Decisions, in order: chance (the cycle's prize order) at the start of each cycle; a Crystal
//! Ball window for the seats holding one; then each round a Rush Order window for each seat
//! holding one (`p1` first), the simultaneous bids, the winner's build, and the winner's upgrade
//! choice when its build surrounded dots. Item windows exist only for a seat holding that item
//! unused.
//!
//! The build decision has far too many moves to enumerate: [`Game::legal_moves`] lists `done`
//! and every single affordable bridge (with and without Emergency Delivery); see
//! [`Galespiel::random_build`] for the distribution of random builds. The state is fixed-size
//! (sets of spots and dots as bits), so `apply` and `clone` do not allocate.

pub mod board_svg;
pub mod data;
pub mod geometry;
pub mod season;
mod variant;

use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use colosseum_engine::{
    Game, IllegalMove, NotationError, OptionDoc, OptionReader, OptionsError, Outcome, Pending,
    RawOptions, Score, Seat, Step, StepError, Viewer,
};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::Serialize;
use serde_json::{json, Map, Value};

use colosseum_engine::SeatPair;
pub use data::{Board, CardDef, CardTable, DataError, Effects};
#[cfg(test)]
use geometry::ALL_SPOTS;
use geometry::{Geometry, Point, Spot, SIDE, SPOTS};

/// The clocks at the table (RULINGS.md): 60 s to bid (an item window counts as bidding), 30 s
/// to build (an upgrade choice counts as building), a 5-minute bank spent in 5-second steps; an
/// empty bank while bidding loses, while building ends the building.
pub const TIMING: crate::Timing = crate::Timing {
    decisions: &[
        crate::DecisionClock {
            kind: "bid",
            what: "a bid",
            ms: 60_000,
            loses: true,
            default: "",
        },
        crate::DecisionClock {
            kind: "item",
            what: "a Crystal Ball or Rush Order window",
            ms: 60_000,
            loses: false,
            default: "`skip` (the item is kept)",
        },
        crate::DecisionClock {
            kind: "build",
            what: "the round winner's build",
            ms: 30_000,
            loses: false,
            default: "`done` (the building ends)",
        },
        crate::DecisionClock {
            kind: "upgrade",
            what: "the upgrades granted by surrounding",
            ms: 30_000,
            loses: false,
            default: "the lowest cards that can be upgraded",
        },
        crate::DecisionClock {
            kind: "*",
            what: "",
            ms: 60_000,
            loses: false,
            default: "the game's default move",
        },
    ],
    bank_ms: 300_000,
    bank_step_ms: 5_000,
};

/// The options.
pub const OPTIONS: &[OptionDoc] = &[
    OptionDoc {
        name: "advantage",
        default: "p1",
        allowed: "p1, p2 or none",
        help: "who wins a stalemate with equal needs (the seed's DM advantage); none makes it a draw",
    },
    OptionDoc {
        name: "items",
        default: "none",
        allowed: "none, elder-tree, or a comma list of crystal-ball, rush-order, specialists-aid, emergency-delivery",
        help: "the items each player holds, one use each; elder-tree gives both players all four",
    },
    OptionDoc {
        name: "board",
        default: "default",
        allowed: "default, or a board's JSON text (see the rules page)",
        help: "the cost of each of the 61 spots",
    },
    OptionDoc {
        name: "cards",
        default: "default",
        allowed: "default, or a card table's JSON text (see the rules page)",
        help: "the bidding cards: values, effects, upgraded versions",
    },
    variant::SIZE,
    variant::PRIZES_OPTION,
    variant::DRAW,
    variant::HAND,
    variant::ROUNDS,
];

/// The prize cards of one cycle.
pub const PRIZES: [u8; CYCLE] = [3, 4, 4, 5, 5, 6, 8];
/// Rounds in a cycle.
pub const CYCLE: usize = 7;
/// Rounds in a row without a bridge that make a stalemate.
pub const STALL_ROUNDS: u8 = 14;
/// The round whose end is a stalemate at the latest.
pub const MAX_ROUNDS: u8 = 70;
/// What Specialist's Aid adds to a bid.
pub const AID_BONUS: u8 = 2;
/// What Emergency Delivery gives before a build.
pub const DELIVERY: u16 = 4;
/// Stored materials lose one per this many at the end of each round.
pub const DECAY_PER: u16 = 6;

/// An item, one use each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Item {
    /// At the start of a cycle, see its prize order, privately.
    CrystalBall,
    /// When a prize is revealed, send it to the end of the cycle and reveal the next.
    RushOrder,
    /// Declared with a bid: +2 to its value.
    SpecialistsAid,
    /// Declared with a build: gain 4 M first.
    EmergencyDelivery,
}

impl Item {
    /// All four, in the order of the rules.
    pub const ALL: [Item; 4] = [
        Item::CrystalBall,
        Item::RushOrder,
        Item::SpecialistsAid,
        Item::EmergencyDelivery,
    ];

    fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The item's name in options and views.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Item::CrystalBall => "crystal-ball",
            Item::RushOrder => "rush-order",
            Item::SpecialistsAid => "specialists-aid",
            Item::EmergencyDelivery => "emergency-delivery",
        }
    }

    /// The item's name for people.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Item::CrystalBall => "Crystal Ball",
            Item::RushOrder => "Rush Order",
            Item::SpecialistsAid => "Specialist's Aid",
            Item::EmergencyDelivery => "Emergency Delivery",
        }
    }
}

fn items_in(set: u8) -> Vec<Item> {
    Item::ALL
        .into_iter()
        .filter(|i| set & i.bit() != 0)
        .collect()
}

/// The checked options of a Galespiel game.
#[derive(Clone, Debug)]
pub struct GalespielOptions {
    /// Who wins a stalemate with equal needs (`None`: a draw).
    pub advantage: Option<Seat>,
    /// The items both players start with, as a set of [`Item`] bits.
    pub items: u8,
    /// The board.
    pub board: Arc<Board>,
    /// The bidding cards.
    pub cards: Arc<CardTable>,
    /// The lattice: the seed's 13×13, or the small variant's (`size`, for research).
    pub geometry: &'static Geometry,
    /// A cycle's prizes, the first `cycle` entries ([`PRIZES`] in the seed; option `prizes`).
    pub prizes: [u8; CYCLE],
    /// Rounds in a cycle: the number of prizes (7 in the seed).
    pub cycle: u8,
    /// Whether every cycle plays `prizes` in their order, with no chance (option `draw` =
    /// `fixed`, the small variant); the seed shuffles them.
    pub fixed_draw: bool,
    /// The round whose end is a stalemate at the latest ([`MAX_ROUNDS`] in the seed).
    pub rounds: u8,
}

fn default_board() -> Arc<Board> {
    static B: OnceLock<Arc<Board>> = OnceLock::new();
    B.get_or_init(|| Arc::new(Board::default_board())).clone()
}

fn default_cards() -> Arc<CardTable> {
    static C: OnceLock<Arc<CardTable>> = OnceLock::new();
    C.get_or_init(|| Arc::new(CardTable::default_cards()))
        .clone()
}

impl Default for GalespielOptions {
    fn default() -> Self {
        GalespielOptions {
            advantage: Some(Seat::P1),
            items: 0,
            board: default_board(),
            cards: default_cards(),
            geometry: geometry::seed(),
            prizes: PRIZES,
            cycle: CYCLE as u8,
            fixed_draw: false,
            rounds: MAX_ROUNDS,
        }
    }
}

/// Reads a data option: absent or `default` gives `builtin`; JSON text or a JSON object is
/// parsed with `parse`.
fn data_option<T>(
    raw: &RawOptions,
    name: &str,
    builtin: fn() -> Arc<T>,
    parse: fn(&str) -> Result<T, DataError>,
) -> Result<Arc<T>, OptionsError> {
    let bad = |value: &Value, why: String| {
        let mut shown = value.to_string();
        if shown.len() > 40 {
            let mut cut = 37;
            while !shown.is_char_boundary(cut) {
                cut -= 1;
            }
            shown.truncate(cut);
            shown.push_str("...");
        }
        OptionsError::BadValue {
            name: name.to_string(),
            value: shown,
            allowed: why,
        }
    };
    match raw.get(name) {
        None => Ok(builtin()),
        Some(Value::String(s)) if s.trim().eq_ignore_ascii_case("default") => Ok(builtin()),
        Some(v @ Value::String(s)) if s.trim_start().starts_with('{') => {
            parse(s).map(Arc::new).map_err(|e| bad(v, e.to_string()))
        }
        Some(v @ Value::Object(_)) => parse(&v.to_string())
            .map(Arc::new)
            .map_err(|e| bad(v, e.to_string())),
        Some(v) => Err(bad(
            v,
            "write `default` or the file's JSON text (a host reads the file and passes its \
             contents: -o \"NAME=$(cat FILE.json)\")"
                .to_string(),
        )),
    }
}

impl GalespielOptions {
    /// Reads the options from JSON, refusing unknown names and bad values.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        let r = OptionReader::new(raw, OPTIONS);
        let advantage = match r.choice("advantage", 0, &["p1", "p2", "none"])? {
            0 => Some(Seat::P1),
            1 => Some(Seat::P2),
            _ => None,
        };
        let items = match raw.get("items") {
            None => 0,
            Some(v) => {
                let bad = || OptionsError::BadValue {
                    name: "items".into(),
                    value: v.to_string(),
                    allowed: OPTIONS[1].allowed.into(),
                };
                let Value::String(s) = v else {
                    return Err(bad());
                };
                let mut set = 0;
                for part in s.split(',').map(|p| p.trim().to_ascii_lowercase()) {
                    match part.as_str() {
                        "none" | "" => {}
                        "elder-tree" => set = 0b1111,
                        _ => {
                            let item = Item::ALL
                                .into_iter()
                                .find(|i| i.id() == part)
                                .ok_or_else(bad)?;
                            set |= item.bit();
                        }
                    }
                }
                set
            }
        };
        let mut board = data_option(raw, "board", default_board, Board::from_json)?;
        let mut cards = data_option(raw, "cards", default_cards, CardTable::from_json)?;
        let v = variant::read(raw, &r)?;
        r.finish()?;
        variant::check_hand(raw, v.hand, v.cycle, cards.len())?;
        if let Some(n) = v.hand.filter(|&n| n < cards.len()) {
            cards = Arc::new(cards.lowest(n));
        }
        if v.geometry.side() != SIDE {
            board = Arc::new(board.window(v.geometry));
        }
        Ok(GalespielOptions {
            advantage,
            items,
            board,
            cards,
            geometry: v.geometry,
            prizes: v.prizes,
            cycle: v.cycle,
            fixed_draw: v.fixed,
            rounds: v.rounds,
        })
    }
}

/// A seat's move in any of Galespiel's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// In a Crystal Ball or Rush Order window: use the item (`use`) or not (`skip`).
    Item(bool),
    /// A bid: the card named by its basic value (its slot in the table), and whether Specialist's
    /// Aid is declared with it.
    Bid {
        /// The card's slot (index in the card table, increasing basic value).
        slot: u8,
        /// Specialist's Aid declared.
        aid: bool,
    },
    /// The round winner's build: a set of spots (possibly empty, `done`), and whether Emergency
    /// Delivery is declared with it.
    Build {
        /// The spots, as a set of spot bits.
        spots: u64,
        /// Emergency Delivery declared.
        emergency: bool,
    },
    /// The cards to upgrade, as a set of slots.
    Upgrade(u16),
}

/// A cycle's prize order, as drawn at its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrizeOrder(pub [u8; CYCLE]);

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Chance,
    /// Crystal Ball window for the seats in the set (bit 0 `p1`, bit 1 `p2`).
    Crystal(u8),
    Rush(Seat),
    Bid,
    Build {
        seat: Seat,
        discount: u8,
        first_free: bool,
    },
    Upgrade {
        seat: Seat,
        count: u8,
    },
    Over,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Connected(Seat),
    Stalemate {
        no_bridges: bool,
        needs: [Option<u32>; 2],
    },
}

/// One seat's revealed bid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedBid {
    /// The card, by basic value.
    pub card: u8,
    /// Whether it was upgraded.
    pub upgraded: bool,
    /// Whether Specialist's Aid was declared.
    pub aid: bool,
    /// The value it bid.
    pub value: u8,
}

/// The last finished round, public.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundResult {
    /// The round's number, from 1.
    pub round: u8,
    /// The prize.
    pub prize: u8,
    /// Both bids.
    pub bids: [PlayedBid; 2],
    /// Who won (`None`: tie).
    pub winner: Option<Seat>,
    /// The bridges the winner built.
    pub built: u64,
    /// Whether Emergency Delivery was used.
    pub emergency: bool,
    /// What the build cost.
    pub paid: u16,
}

/// A game of Galespiel.
#[derive(Clone, Debug)]
pub struct Galespiel {
    options: GalespielOptions,
    /// Spots carrying each seat's bridges.
    bridges: [u64; 2],
    materials: [u16; 2],
    /// Card slots left this cycle.
    hands: [u16; 2],
    /// Card slots upgraded for good.
    upgraded: [u16; 2],
    /// Items held and not used.
    items: [u8; 2],
    /// Opponent dots each seat has surrounded (and been rewarded for).
    surrounded: [u64; 2],
    order: [u8; CYCLE],
    /// Positions of `order` revealed so far (the current prize is `order[revealed - 1]`).
    revealed: u8,
    /// Positions of `order` everyone knows beyond those revealed (Rush Order's prize at the end).
    public_known: u8,
    /// Positions each seat knows privately (Crystal Ball, Survey).
    known: [u8; 2],
    phase: Phase,
    rounds: u8,
    since_bridge: u8,
    last: Option<RoundResult>,
    end: Option<End>,
}

impl Galespiel {
    /// A new game with `options`; the first decision is the first cycle's prize order.
    #[must_use]
    pub fn new(options: GalespielOptions) -> Self {
        let full = ((1u32 << options.cards.len()) - 1) as u16;
        let items = options.items;
        let (order, fixed) = (options.prizes, options.fixed_draw);
        let mut game = Galespiel {
            options,
            bridges: [0; 2],
            materials: [0; 2],
            hands: [full; 2],
            upgraded: [0; 2],
            items: [items; 2],
            surrounded: [0; 2],
            order,
            revealed: 0,
            public_known: 0,
            known: [0; 2],
            phase: Phase::Chance,
            rounds: 0,
            since_bridge: 0,
            last: None,
            end: None,
        };
        if fixed {
            // No chance: the first cycle starts at once, in the listed order.
            game.start_cycle();
        }
        game
    }

    /// The lattice.
    #[must_use]
    pub fn geometry(&self) -> &'static Geometry {
        self.options.geometry
    }

    /// Rounds in a cycle (7 in the seed).
    #[must_use]
    pub fn cycle(&self) -> usize {
        usize::from(self.options.cycle)
    }

    /// A new game from raw options.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        GalespielOptions::from_raw(raw).map(Galespiel::new)
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> &GalespielOptions {
        &self.options
    }

    /// The spots carrying `seat`'s bridges.
    #[must_use]
    pub fn bridges(&self, seat: Seat) -> u64 {
        self.bridges[seat.index()]
    }

    /// `seat`'s materials.
    #[must_use]
    pub fn materials(&self, seat: Seat) -> u16 {
        self.materials[seat.index()]
    }

    /// `seat`'s card slots left this cycle.
    #[must_use]
    pub fn hand(&self, seat: Seat) -> u16 {
        self.hands[seat.index()]
    }

    /// `seat`'s upgraded card slots.
    #[must_use]
    pub fn upgraded(&self, seat: Seat) -> u16 {
        self.upgraded[seat.index()]
    }

    /// Whether `seat` holds `item`, unused.
    #[must_use]
    pub fn holds(&self, seat: Seat, item: Item) -> bool {
        self.items[seat.index()] & item.bit() != 0
    }

    /// Rounds finished.
    #[must_use]
    pub fn rounds(&self) -> u8 {
        self.rounds
    }

    /// Rounds in a row without a bridge.
    #[must_use]
    pub fn rounds_without_bridge(&self) -> u8 {
        self.since_bridge
    }

    /// The prize up now, if one is revealed.
    #[must_use]
    pub fn prize(&self) -> Option<u8> {
        match self.phase {
            Phase::Chance | Phase::Crystal(_) | Phase::Over => None,
            _ => Some(self.order[usize::from(self.revealed) - 1]),
        }
    }

    /// The last finished round.
    #[must_use]
    pub fn last_round(&self) -> Option<RoundResult> {
        self.last
    }

    /// The cheapest cost for `seat` to join its edges now (own bridges free, the opponent's
    /// closed); `None` if the opponent has cut every path.
    #[must_use]
    pub fn cheapest(&self, seat: Seat) -> Option<u32> {
        self.geometry().cheapest_crossing(
            seat,
            self.bridges[seat.index()],
            self.bridges[seat.other().index()],
            self.options.board.costs(),
        )
    }

    /// Materials `seat` still needs to connect: the cheapest crossing minus materials held, at
    /// least 0 (`None`: it cannot connect any more).
    #[must_use]
    pub fn need(&self, seat: Seat) -> Option<u32> {
        self.cheapest(seat)
            .map(|c| c.saturating_sub(u32::from(self.materials[seat.index()])))
    }

    /// The prizes of this cycle still to be bid for, smallest first (public, as the view's
    /// `prizes_left`, which leaves out the prize up now): the prize up now while the bids are
    /// open, then every prize not revealed yet. Empty between cycles and at the end.
    #[must_use]
    pub fn prizes_to_bid(&self) -> Vec<u8> {
        let start = usize::from(self.revealed);
        let mut prizes = match self.phase {
            Phase::Bid | Phase::Rush(_) => {
                self.order[start.saturating_sub(1)..self.cycle()].to_vec()
            }
            Phase::Crystal(_) | Phase::Build { .. } | Phase::Upgrade { .. } => {
                self.order[start.min(self.cycle())..self.cycle()].to_vec()
            }
            Phase::Chance | Phase::Over => Vec::new(),
        };
        prizes.sort_unstable();
        prizes
    }

    /// Appends to `out` a compact encoding of what `viewer` sees: two states give the same bytes
    /// exactly when their views for `viewer` are the same (the options aside, which a game never
    /// changes). Search keys its nodes by it where information is hidden; building and writing
    /// the JSON view took half of a search's time.
    pub fn information_bytes(&self, viewer: Viewer, out: &mut Vec<u8>) {
        let phase: [u8; 4] = match self.phase {
            Phase::Chance => [0, 0, 0, 0],
            Phase::Crystal(set) => [1, set, 0, 0],
            Phase::Rush(s) => [2, s.index() as u8, 0, 0],
            Phase::Bid => [3, 0, 0, 0],
            Phase::Build { seat, .. } => [4, seat.index() as u8, 0, 0],
            Phase::Upgrade { seat, count } => [5, seat.index() as u8, count, 0],
            Phase::Over => [6, 0, 0, 0],
        };
        out.extend_from_slice(&phase);
        out.push(match viewer {
            Viewer::Seat(s) => s.index() as u8,
            Viewer::Spectator => 2,
        });
        out.extend_from_slice(&[self.rounds, self.since_bridge, self.revealed]);
        for i in 0..2 {
            out.extend_from_slice(&self.bridges[i].to_le_bytes());
            out.extend_from_slice(&self.materials[i].to_le_bytes());
            out.extend_from_slice(&self.hands[i].to_le_bytes());
            out.extend_from_slice(&self.upgraded[i].to_le_bytes());
            out.push(self.items[i]);
            out.push(self.surrounded[i].count_ones() as u8);
        }
        let in_cycle = !matches!(self.phase, Phase::Chance | Phase::Over);
        if in_cycle {
            let start = usize::from(self.revealed);
            if start > 0 {
                // The prize up now (none in the Crystal Ball window, before the first reveal).
                out.push(self.prize().unwrap_or(0));
            }
            let visible = self.visible(viewer);
            let cycle = self.cycle();
            for k in start..cycle {
                out.push(if visible & (1 << k) != 0 {
                    self.order[k]
                } else {
                    0
                });
            }
            let mut left = self.order;
            left[start..cycle].sort_unstable();
            out.extend_from_slice(&left[start..cycle]);
        }
        if let Some(r) = self.last {
            out.extend_from_slice(&[r.round, r.prize, r.winner.map_or(2, |w| w.index() as u8)]);
            for b in r.bids {
                out.extend_from_slice(&[b.card, u8::from(b.upgraded), u8::from(b.aid), b.value]);
            }
            out.extend_from_slice(&r.built.to_le_bytes());
            out.push(u8::from(r.emergency));
            out.extend_from_slice(&r.paid.to_le_bytes());
        } else {
            out.push(0xff);
        }
    }

    /// The value `seat`'s card in `slot` bids now (upgraded or not), without its effects.
    #[must_use]
    pub fn card_value(&self, seat: Seat, slot: usize) -> u8 {
        self.card(seat, slot).0.value
    }

    /// The value `seat`'s card in `slot` bids now (upgraded or not), and its effects.
    fn card(&self, seat: Seat, slot: usize) -> (&CardDef, bool) {
        let up = self.upgraded[seat.index()] & (1 << slot) != 0;
        let cards = &self.options.cards;
        match cards.upgraded(slot) {
            Some(def) if up => (def, true),
            _ => (cards.basic(slot), false),
        }
    }

    fn card_label(&self, slot: usize) -> u8 {
        self.options.cards.basic(slot).value
    }

    /// The card slots `seat` could still upgrade.
    fn upgradable(&self, seat: Seat) -> u16 {
        self.options.cards.upgradable() & !self.upgraded[seat.index()]
    }

    /// What `spots` cost `seat`'s build now, with the round's discount and free first bridge
    /// (the free bridge is the dearest one, which a player would always name first).
    fn build_cost(&self, spots: u64, discount: u8, first_free: bool) -> u16 {
        let costs = self.options.board.costs();
        let mut total = 0u16;
        let mut dearest = 0u16;
        for spot in Spot::iter(spots) {
            let c = u16::from(costs[spot.index()].saturating_sub(discount).max(1));
            total += c;
            dearest = dearest.max(c);
        }
        if first_free {
            total - dearest
        } else {
            total
        }
    }

    fn taken(&self) -> u64 {
        self.bridges[0] | self.bridges[1]
    }

    /// Positions of the cycle order `viewer` knows beyond the revealed ones.
    fn visible(&self, viewer: Viewer) -> u8 {
        let private = match viewer {
            Viewer::Seat(s) => self.known[s.index()],
            Viewer::Spectator => 0,
        };
        self.public_known | private
    }

    /// The prize `seat` is being asked to consider in a Rush Order window can be sent back only
    /// if another prize follows it in the cycle.
    fn can_rush(&self, seat: Seat) -> bool {
        self.holds(seat, Item::RushOrder) && usize::from(self.revealed) < self.cycle()
    }

    fn start_cycle(&mut self) {
        let mut seats = 0;
        for seat in Seat::BOTH {
            if self.holds(seat, Item::CrystalBall) {
                seats |= 1 << seat.index();
            }
        }
        if seats == 0 {
            self.start_round();
        } else {
            self.phase = Phase::Crystal(seats);
        }
    }

    fn start_round(&mut self) {
        self.revealed += 1;
        self.rush_window(Seat::P1);
    }

    /// Opens the Rush Order window of `seat` (or of `p2` after `p1`), else the bids.
    fn rush_window(&mut self, seat: Seat) {
        if self.can_rush(seat) {
            self.phase = Phase::Rush(seat);
        } else if seat == Seat::P1 && self.can_rush(Seat::P2) {
            self.phase = Phase::Rush(Seat::P2);
        } else {
            self.phase = Phase::Bid;
        }
    }

    /// Crystal Ball: the whole cycle's order, privately.
    fn crystal_ball(&mut self, seat: Seat) {
        self.items[seat.index()] &= !Item::CrystalBall.bit();
        self.known[seat.index()] = ((1u16 << self.cycle()) - 1) as u8;
    }

    /// Rush Order: the current prize goes to the end of the cycle, the next one is revealed.
    fn rush(&mut self, seat: Seat) {
        self.items[seat.index()] &= !Item::RushOrder.bit();
        let cur = usize::from(self.revealed) - 1;
        let cycle = self.cycle();
        self.order[cur..cycle].rotate_left(1);
        // Knowledge of the positions after the current one moves down with them; the prize sent
        // to the end is public.
        let shift = |m: u8| {
            let low = (1u8 << (cur + 1)) - 1;
            (m & low) | ((m >> 1) & !low)
        };
        self.known = self.known.map(shift);
        self.public_known = shift(self.public_known) | 1 << (cycle - 1);
    }

    fn resolve_bids(&mut self, slots: [usize; 2], aids: [bool; 2]) {
        let mut bids = [PlayedBid {
            card: 0,
            upgraded: false,
            aid: false,
            value: 0,
        }; 2];
        let mut effects = [Effects::default(); 2];
        for seat in Seat::BOTH {
            let i = seat.index();
            let (def, upgraded) = self.card(seat, slots[i]);
            effects[i] = def.effects;
            bids[i] = PlayedBid {
                card: self.card_label(slots[i]),
                upgraded,
                aid: aids[i],
                value: def.value + if aids[i] { AID_BONUS } else { 0 },
            };
            self.hands[i] &= !(1 << slots[i]);
            if aids[i] {
                self.items[i] &= !Item::SpecialistsAid.bit();
            }
        }
        let winner = match bids[0].value.cmp(&bids[1].value) {
            std::cmp::Ordering::Greater => Some(Seat::P1),
            std::cmp::Ordering::Less => Some(Seat::P2),
            std::cmp::Ordering::Equal => match (effects[0].wins_ties, effects[1].wins_ties) {
                (true, false) => Some(Seat::P1),
                (false, true) => Some(Seat::P2),
                _ => None,
            },
        };
        // Effects on playing happen for both, tie or not, at once: gains, losses and the
        // opponent's tax are added up and the result is at least 0.
        let before = self.materials;
        for seat in Seat::BOTH {
            let (i, o) = (seat.index(), seat.other().index());
            let plus = i32::from(effects[i].gain);
            let minus = i32::from(effects[i].lose) + i32::from(effects[o].tax);
            self.materials[i] = (i32::from(before[i]) + plus - minus).max(0) as u16;
            if effects[i].survey && usize::from(self.revealed) < self.cycle() {
                self.known[i] |= 1 << self.revealed;
            }
        }
        let prize = self.order[usize::from(self.revealed) - 1];
        self.last = Some(RoundResult {
            round: self.rounds + 1,
            prize,
            bids,
            winner,
            built: 0,
            emergency: false,
            paid: 0,
        });
        match winner {
            Some(w) => {
                self.materials[w.index()] += u16::from(prize);
                let e = effects[w.index()];
                self.phase = Phase::Build {
                    seat: w,
                    discount: e.discount,
                    first_free: e.first_bridge_free,
                };
            }
            None => self.end_round(false),
        }
    }

    fn build(&mut self, seat: Seat, spots: u64, emergency: bool, discount: u8, first_free: bool) {
        let i = seat.index();
        if emergency {
            self.items[i] &= !Item::EmergencyDelivery.bit();
            self.materials[i] += DELIVERY;
        }
        let cost = self.build_cost(spots, discount, first_free);
        self.materials[i] -= cost;
        self.bridges[i] |= spots;
        if let Some(last) = &mut self.last {
            last.built = spots;
            last.emergency = emergency;
            last.paid = cost;
        }
        if self.geometry().connects(seat, self.bridges[i]) {
            // The round ends here: no upgrades, no decay.
            self.rounds += 1;
            self.end = Some(End::Connected(seat));
            self.phase = Phase::Over;
            return;
        }
        let now = self.geometry().surrounded(seat.other(), self.bridges[i]);
        let new = now & !self.surrounded[i];
        self.surrounded[i] |= now;
        let count = new.count_ones().min(self.upgradable(seat).count_ones());
        if count > 0 {
            self.phase = Phase::Upgrade {
                seat,
                count: count as u8,
            };
        } else {
            self.end_round(spots != 0);
        }
    }

    fn end_round(&mut self, built: bool) {
        for m in &mut self.materials {
            *m -= *m / DECAY_PER;
        }
        self.rounds += 1;
        self.since_bridge = if built { 0 } else { self.since_bridge + 1 };
        if self.since_bridge >= STALL_ROUNDS || self.rounds >= self.options.rounds {
            self.end = Some(End::Stalemate {
                no_bridges: self.since_bridge >= STALL_ROUNDS,
                needs: [self.need(Seat::P1), self.need(Seat::P2)],
            });
            self.phase = Phase::Over;
        } else if usize::from(self.revealed) == self.cycle() {
            // The cycle is over: every card comes back, and the prizes are shuffled again.
            let full = ((1u32 << self.options.cards.len()) - 1) as u16;
            self.hands = [full; 2];
            self.revealed = 0;
            self.known = [0; 2];
            self.public_known = 0;
            if self.options.fixed_draw {
                // The small variant's fixed draw: the same order again, no chance.
                self.order = self.options.prizes;
                self.start_cycle();
            } else {
                self.phase = Phase::Chance;
            }
        } else {
            self.start_round();
        }
    }

    /// A random build for `seat`, as [`Game::random_move`] draws it: Emergency Delivery (if held)
    /// with probability ½, then the free spots in a random order, each taken with probability ½
    /// if the build stays affordable. Not uniform over all builds (there are too many), but every
    /// affordable build has a positive probability.
    pub fn random_build<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Move {
        let Phase::Build {
            discount,
            first_free,
            ..
        } = self.phase
        else {
            return Move::Build {
                spots: 0,
                emergency: false,
            };
        };
        let emergency = self.holds(seat, Item::EmergencyDelivery) && rng.random_bool(0.5);
        let budget = self.materials[seat.index()] + if emergency { DELIVERY } else { 0 };
        let mut free = [0u8; SPOTS];
        let mut n = 0;
        for spot in Spot::iter(self.geometry().all_spots() & !self.taken()) {
            free[n] = spot.index() as u8;
            n += 1;
        }
        free[..n].shuffle(rng);
        // The cost is kept incrementally: the sum of the (discounted) costs, less the dearest one
        // when the first bridge is free.
        let costs = self.options.board.costs();
        let (mut spots, mut total, mut dearest) = (0u64, 0u16, 0u16);
        // One fair coin per free spot, from one draw.
        let coins: u64 = rng.random();
        for (k, &s) in free[..n].iter().enumerate() {
            if coins & (1 << k) == 0 {
                continue;
            }
            let c = u16::from(costs[usize::from(s)].saturating_sub(discount).max(1));
            let (t, d) = (total + c, dearest.max(c));
            if (if first_free { t - d } else { t }) <= budget {
                spots |= 1u64 << s;
                (total, dearest) = (t, d);
            }
        }
        Move::Build { spots, emergency }
    }

    fn hand_text(&self, seat: Seat, hand: u16) -> String {
        let v: Vec<String> = (0..self.options.cards.len())
            .filter(|&s| hand & (1 << s) != 0)
            .map(|s| self.card_text(seat, s))
            .collect();
        if v.is_empty() {
            "empty".into()
        } else {
            v.join(" ")
        }
    }

    fn card_text(&self, seat: Seat, slot: usize) -> String {
        let label = self.card_label(slot);
        if self.upgraded[seat.index()] & (1 << slot) != 0 {
            format!("{label}+")
        } else {
            label.to_string()
        }
    }

    fn phase_words(&self) -> String {
        match self.phase {
            Phase::Chance => "the prizes are being shuffled".into(),
            Phase::Crystal(_) => "the Crystal Ball window at the start of the cycle".into(),
            Phase::Rush(s) => format!("{s}'s Rush Order window"),
            Phase::Bid => "the bids".into(),
            Phase::Build { seat, .. } => format!("{seat}'s build"),
            Phase::Upgrade { seat, count } => format!("{seat}'s choice of {count} upgrade(s)"),
            Phase::Over => "nothing (the game is over)".into(),
        }
    }

    fn check(&self, seat: Seat, mv: &Move) -> Result<(), IllegalMove> {
        let i = seat.index();
        let acts = self.pending().includes(seat);
        match (self.phase, mv) {
            (Phase::Over, _) => Err(IllegalMove::new("the game is over")),
            (Phase::Chance, _) => Err(IllegalMove::new(
                "the prizes are being shuffled; nobody moves now",
            )),
            (Phase::Build { seat: w, .. }, Move::Build { .. }) if w != seat => {
                Err(IllegalMove::new(format!(
                    "you did not win this round; only {w}, who won it, builds now"
                )))
            }
            (_, Move::Build { .. }) if !matches!(self.phase, Phase::Build { .. }) => {
                Err(IllegalMove::new(format!(
                    "you cannot build now: only the winner of a round builds, after the bids \
                     (now: {})",
                    self.phase_words()
                )))
            }
            _ if !acts => Err(IllegalMove::new(format!(
                "it is not your decision now; the game waits for {}",
                self.phase_words()
            ))),
            (Phase::Crystal(_) | Phase::Rush(_), Move::Item(_)) => Ok(()),
            (Phase::Bid, Move::Bid { slot, aid }) => {
                let slot = usize::from(*slot);
                if slot >= self.options.cards.len() || self.hands[i] & (1 << slot) == 0 {
                    let label = if slot < self.options.cards.len() {
                        self.card_label(slot).to_string()
                    } else {
                        "that card".into()
                    };
                    return Err(IllegalMove::new(format!(
                        "your {label} is already used this cycle; your hand is {}",
                        self.hand_text(seat, self.hands[i])
                    )));
                }
                if *aid && !self.holds(seat, Item::SpecialistsAid) {
                    return Err(IllegalMove::new(
                        "you do not hold Specialist's Aid (not given, or already used)",
                    ));
                }
                Ok(())
            }
            (
                Phase::Build {
                    discount,
                    first_free,
                    ..
                },
                Move::Build { spots, emergency },
            ) => {
                if let Some(s) = Spot::iter(*spots & self.taken()).next() {
                    let owner = if self.bridges[i] & s.bit() != 0 {
                        "your"
                    } else {
                        "your opponent's"
                    };
                    return Err(IllegalMove::new(format!(
                        "spot {} is taken: it carries {owner} bridge",
                        self.geometry().name(s)
                    )));
                }
                if *emergency && !self.holds(seat, Item::EmergencyDelivery) {
                    return Err(IllegalMove::new(
                        "you do not hold Emergency Delivery (not given, or already used)",
                    ));
                }
                let cost = self.build_cost(*spots, discount, first_free);
                let have = self.materials[i] + if *emergency { DELIVERY } else { 0 };
                if cost > have {
                    return Err(IllegalMove::new(format!(
                        "not enough materials: these bridges cost {cost} M and you have {have} M"
                    )));
                }
                Ok(())
            }
            (Phase::Upgrade { count, .. }, Move::Upgrade(set)) => {
                let cards = &self.options.cards;
                for slot in (0..cards.len()).filter(|s| set & (1 << s) != 0) {
                    let label = self.card_label(slot);
                    if cards.upgraded(slot).is_none() {
                        return Err(IllegalMove::new(format!(
                            "card {label} has no upgraded version"
                        )));
                    }
                    if self.upgraded[i] & (1 << slot) != 0 {
                        return Err(IllegalMove::new(format!(
                            "your {label} is already upgraded"
                        )));
                    }
                }
                if set.count_ones() != u32::from(count) {
                    return Err(IllegalMove::new(format!(
                        "choose exactly {count} card(s) to upgrade, from {}",
                        self.hand_text(seat, self.upgradable(seat))
                    )));
                }
                Ok(())
            }
            (Phase::Bid | Phase::Upgrade { .. }, Move::Item(false)) => {
                Err(IllegalMove::new(format!(
                    "{} cannot be passed (`pass`, `none`, `no submission` and `skip` pass only \
                     an item window or a build); {}",
                    self.phase_words(),
                    match self.phase {
                        Phase::Bid => "bid a card such as `7` (or `7 aid`)",
                        _ => "choose cards such as `upgrade 4 8`",
                    }
                )))
            }
            (_, _) => Err(IllegalMove::new(format!(
                "that is not a move for {}; {}",
                self.phase_words(),
                match self.phase {
                    Phase::Crystal(_) | Phase::Rush(_) => "answer `use` or `skip`",
                    Phase::Bid => "bid a card such as `7` (or `7 aid`)",
                    Phase::Upgrade { .. } => "choose cards such as `upgrade 4 8`",
                    _ => "name the spots to build (`c3 e5`) or write `done`",
                }
            ))),
        }
    }

    fn outcome_now(&self) -> Option<(Option<Seat>, String)> {
        match self.end? {
            End::Connected(s) => Some((
                Some(s),
                format!(
                    "{s} connected its {} in round {}",
                    if s == Seat::P1 {
                        "left and right edges"
                    } else {
                        "top and bottom edges"
                    },
                    self.rounds
                ),
            )),
            End::Stalemate { no_bridges, needs } => {
                let why = if no_bridges {
                    format!("stalemate after {STALL_ROUNDS} rounds without a bridge")
                } else {
                    format!("stalemate: round {} reached", self.options.rounds)
                };
                let show = |n: Option<u32>| n.map_or("no path".to_string(), |n| format!("{n} M"));
                let key = |n: Option<u32>| n.unwrap_or(u32::MAX);
                let (a, b) = (key(needs[0]), key(needs[1]));
                let winner = match a.cmp(&b) {
                    std::cmp::Ordering::Less => Some(Seat::P1),
                    std::cmp::Ordering::Greater => Some(Seat::P2),
                    std::cmp::Ordering::Equal => self.options.advantage,
                };
                let tail = match (a.cmp(&b), winner) {
                    (std::cmp::Ordering::Equal, Some(w)) => {
                        format!(
                            "both still need {}; {w} wins on the advantage",
                            show(needs[0])
                        )
                    }
                    (std::cmp::Ordering::Equal, None) => {
                        format!("both still need {}: a draw", show(needs[0]))
                    }
                    (_, Some(w)) => format!(
                        "{w} needs {}, {} needs {}",
                        show(needs[w.index()]),
                        w.other(),
                        show(needs[w.other().index()])
                    ),
                    (_, None) => unreachable!("unequal needs always have a winner"),
                };
                Some((winner, format!("{why}; {tail}")))
            }
        }
    }
}

/// One card of a hand, as views show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardView {
    /// The card's basic value, which names it in notation.
    pub card: u8,
    /// Its name now (`Tax`, `8+`).
    pub name: String,
    /// The value it bids now.
    pub value: u8,
    /// Whether it is upgraded.
    pub upgraded: bool,
    /// Whether it is still in hand this cycle.
    pub in_hand: bool,
    /// Its effects in words.
    pub effects: String,
}

/// What a viewer sees of one seat.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// Its colour.
    pub colour: &'static str,
    /// Materials held.
    pub materials: u16,
    /// Its bridges' spots.
    pub bridges: Vec<String>,
    /// Its cards (all of them, with whether each is still in hand this cycle).
    pub cards: Vec<CardView>,
    /// Items held, unused.
    pub items_held: Vec<Item>,
    /// Items used.
    pub items_used: Vec<Item>,
    /// Opponent dots it has surrounded.
    pub dots_surrounded: u32,
    /// Its cheapest remaining crossing (`null`: cut off).
    pub cheapest_connection: Option<u32>,
}

/// One spot as views show it.
#[derive(Clone, Debug, Serialize)]
pub struct SpotView {
    /// Its name.
    pub spot: String,
    /// Its cost.
    pub cost: u8,
    /// Whose bridge it carries.
    pub bridge: Option<Seat>,
}

/// The last round as views show it.
#[derive(Clone, Debug, Serialize)]
pub struct RoundView {
    /// The round's number, from 1.
    pub round: u8,
    /// The prize.
    pub prize: u8,
    /// Both bids.
    pub bids: SeatPair<PlayedBid>,
    /// The winner, `null` for a tie.
    pub winner: Option<Seat>,
    /// The winner's new bridges.
    pub built: Vec<String>,
    /// Whether Emergency Delivery was used with the build.
    pub emergency: bool,
    /// What the build cost.
    pub paid: u16,
}

/// What a viewer sees of a Galespiel game. Public: the board, bridges, materials, hands, items,
/// revealed bids and prizes. Private: the positions of the cycle's prize order a seat learned by
/// Crystal Ball or Survey, only in that seat's view. A pending bid is never part of the state.
#[derive(Clone, Debug, Serialize)]
pub struct GalespielView {
    /// Who looks.
    pub viewer: Viewer,
    /// The board's name.
    pub board: String,
    /// The card table's name.
    pub cards: String,
    /// Who wins a stalemate with equal needs.
    pub advantage: Option<Seat>,
    /// Rounds finished.
    pub rounds: u8,
    /// Rounds in a row without a bridge.
    pub rounds_without_bridge: u8,
    /// The prize up now.
    pub prize: Option<u8>,
    /// The prizes still to come this cycle, in order, as far as the viewer knows them (`null`:
    /// unknown).
    pub upcoming: Vec<Option<u8>>,
    /// The prizes still to come this cycle, smallest first (public).
    pub prizes_left: Vec<u8>,
    /// Every spot.
    pub spots: Vec<SpotView>,
    /// Both seats.
    pub players: SeatPair<PlayerView>,
    /// The last finished round.
    pub last_round: Option<RoundView>,
    /// What the game waits for, in words.
    pub waiting_for: String,
    /// Who must act now.
    pub pending: Pending,
}

const NOTATION_HELP: &str = "write a bid (`7`, `7 aid`), a build (`c3 e5`, `emergency c3`, \
    `done` or a pass word), `use` or `skip` (or a pass word) in an item window, or `upgrade 4 8`; \
    the pass words are `pass`, `none` and `no submission`";

/// A bid written `7+` names the upgraded card: refused unless `seat`'s card in `slot` is
/// upgraded (a `+` on a plain card would silently bid its plain value).
fn check_plus(g: &Galespiel, seat: Seat, text: &str, slot: u8) -> Result<(), NotationError> {
    let label = g.card_label(usize::from(slot));
    if g.options.cards.upgraded(usize::from(slot)).is_none() {
        return Err(NotationError::mv(
            text,
            format!("card {label} has no upgraded version; bid it as `{label}`"),
        ));
    }
    if g.upgraded[seat.index()] & (1 << slot) == 0 {
        return Err(NotationError::mv(
            text,
            format!("your {label} is not upgraded; bid it as `{label}`"),
        ));
    }
    Ok(())
}

fn parse_card_token(g: &Galespiel, text: &str, token: &str) -> Result<u8, NotationError> {
    let digits = token.strip_suffix('+').unwrap_or(token);
    let value: u8 = digits.parse().map_err(|_| {
        NotationError::mv(text, format!("`{token}` is not a card; {NOTATION_HELP}"))
    })?;
    let values: Vec<String> = (0..g.options.cards.len())
        .map(|s| g.card_label(s).to_string())
        .collect();
    g.options
        .cards
        .slot_of(value)
        .map(|s| s as u8)
        .ok_or_else(|| {
            NotationError::mv(
                text,
                format!(
                    "there is no card {value}; the cards are {}",
                    values.join(" ")
                ),
            )
        })
}

/// What to write at the pending decision, for a refusal: the kind of input it takes (a bid is a
/// card value, a build spots), and the pass words where the decision can be passed.
fn shape_now(g: &Galespiel) -> String {
    match g.phase {
        Phase::Bid => {
            let values: Vec<String> = (0..g.options.cards.len())
                .map(|s| g.card_label(s).to_string())
                .collect();
            format!(
                "a bid is the value of one of your cards in digits ({}; `8+` names an upgraded \
                 card), optionally with `aid`: `7` or `7 aid`; a bid cannot be passed",
                values.join(" ")
            )
        }
        Phase::Crystal(_) | Phase::Rush(_) => {
            "in an item window answer `use`, or `skip` (also `pass`, `none` or `no submission`)"
                .into()
        }
        Phase::Build { .. } => {
            "name the spots to build (`c3 e5`, `emergency c3`), or end the build with `done` \
             (also `pass`, `none` or `no submission`)"
                .into()
        }
        Phase::Upgrade { .. } => "name the cards to upgrade: `upgrade 4 8`".into(),
        Phase::Chance | Phase::Over => NOTATION_HELP.into(),
    }
}

/// Reads a move. The pass words every game shares ([`crate::text::is_pass`]) skip an item
/// window and end a build (as `skip` and `done` do); at a decision that cannot be passed (a bid,
/// the upgrades) they read as a skip, which [`Galespiel::check`] refuses with the reason.
fn parse_move(g: &Galespiel, seat: Seat, text: &str) -> Result<Move, NotationError> {
    if crate::text::is_pass(text) {
        return Ok(match g.phase {
            Phase::Build { .. } => Move::Build {
                spots: 0,
                emergency: false,
            },
            _ => Move::Item(false),
        });
    }
    let lower = text.trim().to_ascii_lowercase();
    let tokens: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    let Some(&first) = tokens.first() else {
        return Err(NotationError::mv(
            text,
            crate::text::empty_submission(&shape_now(g)),
        ));
    };
    match first {
        "use" | "yes" if tokens.len() == 1 => return Ok(Move::Item(true)),
        "skip" | "no" | "pass" if tokens.len() == 1 => return Ok(Move::Item(false)),
        "upgrade" | "up" => {
            if tokens.len() == 1 {
                return Err(NotationError::mv(
                    text,
                    "name the cards to upgrade: `upgrade 4 8`",
                ));
            }
            let mut set = 0u16;
            for t in &tokens[1..] {
                if t.ends_with('+') {
                    return Err(NotationError::mv(
                        text,
                        format!(
                            "name a card to upgrade by its plain value: `{}`",
                            t.trim_end_matches('+')
                        ),
                    ));
                }
                let slot = parse_card_token(g, text, t)?;
                if set & (1 << slot) != 0 {
                    return Err(NotationError::mv(text, format!("card {t} is named twice")));
                }
                set |= 1 << slot;
            }
            return Ok(Move::Upgrade(set));
        }
        _ => {}
    }
    if first.as_bytes()[0].is_ascii_digit() || first == "aid" {
        let mut slot = None;
        let mut aid = false;
        for t in &tokens {
            match *t {
                "aid" | "+aid" | "specialists-aid" | "specialist's-aid" => aid = true,
                _ if slot.is_none() => {
                    let s = parse_card_token(g, text, t)?;
                    if t.ends_with('+') {
                        check_plus(g, seat, text, s)?;
                    }
                    slot = Some(s);
                }
                _ => {
                    return Err(NotationError::mv(
                        text,
                        "a bid is one card, optionally with `aid`: `7` or `7 aid`",
                    ))
                }
            }
        }
        let slot = slot.ok_or_else(|| NotationError::mv(text, "name the card: `7 aid`"))?;
        return Ok(Move::Bid { slot, aid });
    }
    let mut spots = 0u64;
    let mut emergency = false;
    let mut done = false;
    for (k, t) in tokens.iter().enumerate() {
        match *t {
            "build" if k == 0 => {}
            "done" | "none" | "-" => done = true,
            "emergency" | "ed" | "emergency-delivery" => emergency = true,
            _ => {
                let geo = g.geometry();
                let point = geo.parse_point(t).ok_or_else(|| {
                    let why = match g.phase {
                        // Not a build now: name the input the decision takes.
                        Phase::Bid => format!("`{t}` is not a card; {}", shape_now(g)),
                        Phase::Crystal(_) | Phase::Rush(_) | Phase::Upgrade { .. } => {
                            format!("`{t}` is not an answer here; {}", shape_now(g))
                        }
                        Phase::Build { .. } | Phase::Chance | Phase::Over => format!(
                            "`{t}` is not a spot on the board (columns a..{}, rows 1..{}); \
                             {NOTATION_HELP}",
                            char::from(b'a' + geo.side() as u8 - 1),
                            geo.side()
                        ),
                    };
                    NotationError::mv(text, why)
                })?;
                let spot = geo.spot_at(point).ok_or_else(|| {
                    NotationError::mv(
                        text,
                        format!(
                            "`{t}` is not a spot on the board: it is {}",
                            geo.describe(point)
                        ),
                    )
                })?;
                if spots & spot.bit() != 0 {
                    return Err(NotationError::mv(
                        text,
                        format!("spot {} is named twice", geo.name(spot)),
                    ));
                }
                spots |= spot.bit();
            }
        }
    }
    if done && spots != 0 {
        return Err(NotationError::mv(
            text,
            "`done` builds nothing; list the spots or write `done`, not both",
        ));
    }
    Ok(Move::Build { spots, emergency })
}

fn parse_order(g: &Galespiel, text: &str) -> Result<PrizeOrder, NotationError> {
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    let cycle = g.cycle();
    let prizes = &g.options.prizes[..cycle];
    let mut kinds = prizes.to_vec();
    kinds.dedup();
    let words = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
    if tokens.len() != cycle {
        return Err(NotationError::chance(
            text,
            if prizes == PRIZES {
                "write the cycle's 7 prizes in order, such as `5 3 8 4 6 4 5`".to_string()
            } else {
                format!(
                    "write the cycle's {cycle} prizes in order, such as `{}`",
                    words(prizes)
                )
            },
        ));
    }
    let mut order = [0u8; CYCLE];
    for (k, t) in tokens.iter().enumerate() {
        order[k] = t
            .parse()
            .ok()
            .filter(|p| prizes.contains(p))
            .ok_or_else(|| {
                NotationError::chance(
                    text,
                    format!("`{t}` is not a prize; prizes are {}", words(&kinds)),
                )
            })?;
    }
    Ok(PrizeOrder(order))
}

/// Every distinct order of a cycle's prize cards (1260 of them in the seed), the first `cycle`
/// entries of `prizes` (sorted), the rest of each order 0.
fn distinct_orders(prizes: &[u8], out: &mut Vec<[u8; CYCLE]>) {
    fn go(
        counts: &mut [(u8, u8)],
        cur: &mut [u8; CYCLE],
        k: usize,
        cycle: usize,
        out: &mut Vec<[u8; CYCLE]>,
    ) {
        if k == cycle {
            out.push(*cur);
            return;
        }
        for i in 0..counts.len() {
            if counts[i].1 > 0 {
                counts[i].1 -= 1;
                cur[k] = counts[i].0;
                go(counts, cur, k + 1, cycle, out);
                counts[i].1 += 1;
            }
        }
    }
    // Each prize with its count, in increasing value ((3, 1), (4, 2), .. in the seed).
    let mut sorted = prizes.to_vec();
    sorted.sort_unstable();
    let mut counts: Vec<(u8, u8)> = Vec::new();
    for p in sorted {
        match counts.last_mut() {
            Some((q, n)) if *q == p => *n += 1,
            _ => counts.push((p, 1)),
        }
    }
    go(&mut counts, &mut [0; CYCLE], 0, prizes.len(), out);
}

impl Game for Galespiel {
    type Move = Move;
    type Chance = PrizeOrder;
    type View = GalespielView;
    /// A cycle's prize order is revealed one prize a round.
    const SECRET_CHANCE: bool = true;

    fn id(&self) -> &'static str {
        "galespiel"
    }

    fn pending(&self) -> Pending {
        match self.phase {
            Phase::Chance => Pending::Chance,
            Phase::Crystal(3) | Phase::Bid => Pending::Both,
            Phase::Crystal(1) => Pending::One(Seat::P1),
            Phase::Crystal(_) => Pending::One(Seat::P2),
            Phase::Rush(s) | Phase::Build { seat: s, .. } | Phase::Upgrade { seat: s, .. } => {
                Pending::One(s)
            }
            Phase::Over => Pending::Over,
        }
    }

    /// `bid`, `build`, `upgrade` or `item` (a Crystal Ball or Rush Order window); `chance` and
    /// `over` otherwise. The host's time control gives bids and builds different times.
    fn decision_kind(&self) -> &'static str {
        match self.phase {
            Phase::Chance => "chance",
            Phase::Crystal(_) | Phase::Rush(_) => "item",
            Phase::Bid => "bid",
            Phase::Build { .. } => "build",
            Phase::Upgrade { .. } => "upgrade",
            Phase::Over => "over",
        }
    }

    fn legal_moves(&self, seat: Seat, out: &mut Vec<Move>) {
        if !self.pending().includes(seat) {
            return;
        }
        let i = seat.index();
        match self.phase {
            Phase::Crystal(_) | Phase::Rush(_) => out.extend([Move::Item(true), Move::Item(false)]),
            Phase::Bid => {
                let aids: &[bool] = if self.holds(seat, Item::SpecialistsAid) {
                    &[false, true]
                } else {
                    &[false]
                };
                for slot in (0..self.options.cards.len()).filter(|s| self.hands[i] & (1 << s) != 0)
                {
                    for &aid in aids {
                        out.push(Move::Bid {
                            slot: slot as u8,
                            aid,
                        });
                    }
                }
            }
            Phase::Build {
                discount,
                first_free,
                ..
            } => {
                let deliveries: &[bool] = if self.holds(seat, Item::EmergencyDelivery) {
                    &[false, true]
                } else {
                    &[false]
                };
                for &emergency in deliveries {
                    out.push(Move::Build {
                        spots: 0,
                        emergency,
                    });
                    let budget = self.materials[i] + if emergency { DELIVERY } else { 0 };
                    for spot in Spot::iter(self.geometry().all_spots() & !self.taken()) {
                        if self.build_cost(spot.bit(), discount, first_free) <= budget {
                            out.push(Move::Build {
                                spots: spot.bit(),
                                emergency,
                            });
                        }
                    }
                }
            }
            Phase::Upgrade { count, .. } => {
                let choices = self.upgradable(seat);
                for set in 1u32..(1 << self.options.cards.len()) {
                    let set = set as u16;
                    if set & !choices == 0 && set.count_ones() == u32::from(count) {
                        out.push(Move::Upgrade(set));
                    }
                }
            }
            Phase::Chance | Phase::Over => {}
        }
    }

    fn random_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Move> {
        if !self.pending().includes(seat) {
            return None;
        }
        match self.phase {
            Phase::Crystal(_) | Phase::Rush(_) => Some(Move::Item(rng.random_bool(0.5))),
            Phase::Bid => {
                let hand = self.hands[seat.index()];
                let mut bits = hand;
                for _ in 0..rng.random_range(0..hand.count_ones()) {
                    bits &= bits - 1;
                }
                Some(Move::Bid {
                    slot: bits.trailing_zeros() as u8,
                    aid: self.holds(seat, Item::SpecialistsAid) && rng.random_bool(0.5),
                })
            }
            Phase::Build { .. } => Some(self.random_build(seat, rng)),
            _ => {
                let mut moves = Vec::new();
                self.legal_moves(seat, &mut moves);
                let k = rng.random_range(0..moves.len());
                Some(moves[k])
            }
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(PrizeOrder, f64)>) {
        if self.phase == Phase::Chance {
            let mut orders = Vec::with_capacity(1260);
            distinct_orders(&self.options.prizes[..self.cycle()], &mut orders);
            let p = 1.0 / orders.len() as f64;
            out.extend(orders.into_iter().map(|o| (PrizeOrder(o), p)));
        }
    }

    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<PrizeOrder> {
        if self.phase != Phase::Chance {
            return None;
        }
        let mut order = self.options.prizes;
        order[..self.cycle()].shuffle(rng);
        Some(PrizeOrder(order))
    }

    fn check_move(&self, seat: Seat, mv: &Move) -> Result<(), IllegalMove> {
        self.check(seat, mv)
    }

    fn check_chance(&self, outcome: &PrizeOrder) -> Result<(), IllegalMove> {
        if self.phase != Phase::Chance {
            return Err(IllegalMove::new("no prizes are shuffled now"));
        }
        let cycle = self.cycle();
        let mut sorted = outcome.0;
        sorted[..cycle].sort_unstable();
        let mut prizes = self.options.prizes;
        prizes[..cycle].sort_unstable();
        if sorted == prizes {
            Ok(())
        } else {
            let words: Vec<String> = prizes[..cycle].iter().map(u8::to_string).collect();
            Err(IllegalMove::new(format!(
                "a cycle's order holds each prize card once: {}",
                words.join(" ")
            )))
        }
    }

    fn apply(&mut self, step: Step<Move, PrizeOrder>) -> Result<(), StepError> {
        self.check_step(&step)?;
        match step {
            Step::Chance(PrizeOrder(order)) => {
                self.order = order;
                self.revealed = 0;
                self.start_cycle();
            }
            Step::Both {
                p1: Move::Item(a),
                p2: Move::Item(b),
            } => {
                for (seat, used) in [(Seat::P1, a), (Seat::P2, b)] {
                    if used {
                        self.crystal_ball(seat);
                    }
                }
                self.start_round();
            }
            Step::Both {
                p1: Move::Bid { slot: s1, aid: a1 },
                p2: Move::Bid { slot: s2, aid: a2 },
            } => self.resolve_bids([usize::from(s1), usize::from(s2)], [a1, a2]),
            Step::One { seat, mv } => match (self.phase, mv) {
                (Phase::Crystal(_), Move::Item(used)) => {
                    if used {
                        self.crystal_ball(seat);
                    }
                    self.start_round();
                }
                (Phase::Rush(_), Move::Item(used)) => {
                    if used {
                        self.rush(seat);
                    }
                    if seat == Seat::P1 && self.can_rush(Seat::P2) {
                        self.phase = Phase::Rush(Seat::P2);
                    } else {
                        self.phase = Phase::Bid;
                    }
                }
                (
                    Phase::Build {
                        discount,
                        first_free,
                        ..
                    },
                    Move::Build { spots, emergency },
                ) => self.build(seat, spots, emergency, discount, first_free),
                (Phase::Upgrade { .. }, Move::Upgrade(set)) => {
                    self.upgraded[seat.index()] |= set;
                    self.end_round(true);
                }
                _ => unreachable!("check_step accepted only the pending kind of move"),
            },
            Step::Both { .. } => unreachable!("check_step accepted only the pending kind of move"),
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
            .map(|(winner, reason)| Outcome { winner, reason })
    }

    fn score(&self) -> Score {
        let headline = |seat: Seat| match self.end {
            Some(End::Connected(w)) if w == seat => Value::from(0),
            _ => self.cheapest(seat).map_or(Value::Null, Value::from),
        };
        let spots =
            |seat: Seat| -> Vec<String> { self.geometry().names(self.bridges[seat.index()]) };
        let need = |seat: Seat| self.need(seat).map_or(Value::Null, Value::from);
        let mut details = Map::new();
        details.insert(
            "materials".into(),
            json!({"p1": self.materials[0], "p2": self.materials[1]}),
        );
        details.insert(
            "bridges".into(),
            json!({"p1": spots(Seat::P1), "p2": spots(Seat::P2)}),
        );
        details.insert(
            "need".into(),
            json!({"p1": need(Seat::P1), "p2": need(Seat::P2)}),
        );
        details.insert(
            "dots_surrounded".into(),
            json!({"p1": self.surrounded[0].count_ones(), "p2": self.surrounded[1].count_ones()}),
        );
        details.insert("rounds".into(), Value::from(self.rounds));
        Score {
            p1: headline(Seat::P1),
            p2: headline(Seat::P2),
            details,
        }
    }

    fn view(&self, viewer: Viewer) -> GalespielView {
        let costs = self.options.board.costs();
        let geo = self.geometry();
        let spots = (0..geo.spots())
            .map(|i| {
                let s = Spot::from_index(i);
                SpotView {
                    spot: geo.name(s),
                    cost: costs[i],
                    bridge: Seat::BOTH
                        .into_iter()
                        .find(|seat| self.bridges[seat.index()] & s.bit() != 0),
                }
            })
            .collect();
        let in_cycle = matches!(
            self.phase,
            Phase::Crystal(_)
                | Phase::Rush(_)
                | Phase::Bid
                | Phase::Build { .. }
                | Phase::Upgrade { .. }
        );
        let start = usize::from(self.revealed);
        let visible = self.visible(viewer);
        let cycle = self.cycle();
        let (upcoming, mut prizes_left) = if in_cycle {
            (
                (start..cycle)
                    .map(|k| (visible & (1 << k) != 0).then_some(self.order[k]))
                    .collect(),
                self.order[start..cycle].to_vec(),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        prizes_left.sort_unstable();
        let player = |seat: Seat| {
            let i = seat.index();
            let cards = (0..self.options.cards.len())
                .map(|slot| {
                    let (def, upgraded) = self.card(seat, slot);
                    CardView {
                        card: self.card_label(slot),
                        name: def.name.clone(),
                        value: def.value,
                        upgraded,
                        in_hand: self.hands[i] & (1 << slot) != 0,
                        effects: def.effects.describe(),
                    }
                })
                .collect();
            PlayerView {
                colour: if seat == Seat::P1 { "brown" } else { "blue" },
                materials: self.materials[i],
                bridges: geo.names(self.bridges[i]),
                cards,
                items_held: items_in(self.items[i]),
                items_used: items_in(self.options.items & !self.items[i]),
                dots_surrounded: self.surrounded[i].count_ones(),
                cheapest_connection: self.cheapest(seat),
            }
        };
        let last_round = self.last.map(|r| RoundView {
            round: r.round,
            prize: r.prize,
            bids: SeatPair::from_array(r.bids),
            winner: r.winner,
            built: geo.names(r.built),
            emergency: r.emergency,
            paid: r.paid,
        });
        GalespielView {
            viewer,
            board: self.options.board.name().to_string(),
            cards: self.options.cards.name().to_string(),
            advantage: self.options.advantage,
            rounds: self.rounds,
            rounds_without_bridge: self.since_bridge,
            prize: self.prize(),
            upcoming,
            prizes_left,
            spots,
            players: SeatPair::from_array([player(Seat::P1), player(Seat::P2)]),
            last_round,
            waiting_for: self.phase_words(),
            pending: self.pending(),
        }
    }

    fn render(&self, viewer: Viewer) -> String {
        render(self, viewer)
    }

    fn default_move<R: Rng + ?Sized>(&self, seat: Seat, _rng: &mut R) -> Option<Move> {
        // Item windows pass; a build ends with what was built (nothing); a bid that never came
        // is the lowest card (the host applies the time bank's loss itself); upgrades go to the
        // lowest cards that can take them.
        if !self.pending().includes(seat) {
            return None;
        }
        match self.phase {
            Phase::Crystal(_) | Phase::Rush(_) => Some(Move::Item(false)),
            Phase::Bid => Some(Move::Bid {
                slot: self.hands[seat.index()].trailing_zeros() as u8,
                aid: false,
            }),
            Phase::Build { .. } => Some(Move::Build {
                spots: 0,
                emergency: false,
            }),
            Phase::Upgrade { count, .. } => {
                let mut set = 0u16;
                let mut bits = self.upgradable(seat);
                for _ in 0..count {
                    set |= bits & bits.wrapping_neg();
                    bits &= bits - 1;
                }
                Some(Move::Upgrade(set))
            }
            Phase::Chance | Phase::Over => None,
        }
    }

    fn determinize<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self {
        // Hidden: the prizes of this cycle at positions `seat` has not seen. Their multiset is
        // public (the prizes left), so they are dealt again in a random order.
        let mut game = self.clone();
        if !matches!(self.phase, Phase::Chance | Phase::Over) {
            let visible = self.visible(Viewer::Seat(seat));
            let hidden: Vec<usize> = (usize::from(self.revealed)..self.cycle())
                .filter(|k| visible & (1 << k) == 0)
                .collect();
            let mut values: Vec<u8> = hidden.iter().map(|&k| self.order[k]).collect();
            values.sort_unstable();
            values.shuffle(rng);
            for (&k, v) in hidden.iter().zip(values) {
                game.order[k] = v;
            }
        }
        game
    }

    fn parse_move(&self, seat: Seat, text: &str) -> Result<Move, NotationError> {
        parse_move(self, seat, text)
    }

    fn format_move(&self, mv: &Move) -> String {
        match *mv {
            Move::Item(true) => "use".into(),
            Move::Item(false) => "skip".into(),
            Move::Bid { slot, aid } => {
                let label = self.card_label(usize::from(slot));
                if aid {
                    format!("{label} aid")
                } else {
                    label.to_string()
                }
            }
            Move::Build { spots, emergency } => {
                let mut parts: Vec<String> = Vec::new();
                if emergency {
                    parts.push("emergency".into());
                }
                parts.extend(self.geometry().names(spots));
                if parts.is_empty() {
                    "done".into()
                } else {
                    parts.join(" ")
                }
            }
            Move::Upgrade(set) => {
                let mut s = "upgrade".to_string();
                for slot in (0..self.options.cards.len()).filter(|s| set & (1 << s) != 0) {
                    let _ = write!(s, " {}", self.card_label(slot));
                }
                s
            }
        }
    }

    fn parse_chance(&self, text: &str) -> Result<PrizeOrder, NotationError> {
        parse_order(self, text)
    }

    fn format_chance(&self, outcome: &PrizeOrder) -> String {
        outcome.0[..self.cycle()]
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The terminal picture: the lattice with `X` for brown dots (`p1`), `O` for blue dots (`p2`), a
/// free spot's cost as its digit, brown bridges as `---` and `|`, blue bridges as `===` and `H`;
/// then both players, the prizes and the last round.
fn render(game: &Galespiel, viewer: Viewer) -> String {
    let mut s = String::new();
    let round_no = game.rounds + 1;
    let title = match game.phase {
        Phase::Over => "game over".to_string(),
        _ => format!(
            "round {} (cycle {}, round {} of {}): {}",
            round_no,
            usize::from(game.rounds) / game.cycle() + 1,
            usize::from(game.rounds) % game.cycle() + 1,
            game.cycle(),
            game.phase_words()
        ),
    };
    let _ = writeln!(s, "Galespiel - {title}");
    let (board, cards) = (game.options.board.name(), game.options.cards.name());
    if board != "default" || cards != "default" {
        let _ = writeln!(
            s,
            "Board `{board}`, cards `{cards}` (from the game's options)"
        );
    }
    let you = |seat: Seat| {
        if viewer == Viewer::Seat(seat) {
            " (you)"
        } else {
            ""
        }
    };
    let _ = writeln!(
        s,
        "X = p1{} brown dots, joins left to right with --- and |; O = p2{} blue dots, joins top \
         to bottom with === and H; digits: free spots and their cost",
        you(Seat::P1),
        you(Seat::P2)
    );
    let costs = game.options.board.costs();
    let geo = game.geometry();
    let side = geo.side();
    let owner = |col: usize, row: usize| -> Option<Seat> {
        let spot = geo.spot_at(Point {
            col: col as u8,
            row: row as u8,
        })?;
        Seat::BOTH
            .into_iter()
            .find(|seat| game.bridges[seat.index()] & spot.bit() != 0)
    };
    let _ = write!(s, "\n     ");
    for col in 0..side {
        let _ = write!(s, " {} ", char::from(b'a' + col as u8));
    }
    let _ = writeln!(s);
    for row in 0..side {
        let _ = write!(s, "  {:>2} ", row + 1);
        for col in 0..side {
            let point = Point {
                col: col as u8,
                row: row as u8,
            };
            let cell = if let Some(spot) = geo.spot_at(point) {
                match owner(col, row) {
                    Some(seat) if geo.is_horizontal_for(spot, seat) => {
                        if seat == Seat::P1 {
                            "---".to_string()
                        } else {
                            "===".to_string()
                        }
                    }
                    Some(Seat::P1) => " | ".to_string(),
                    Some(Seat::P2) => " H ".to_string(),
                    None => format!(" {} ", costs[spot.index()]),
                }
            } else if col.is_multiple_of(2) && row % 2 == 1 || col % 2 == 1 && row.is_multiple_of(2)
            {
                let seat = if col.is_multiple_of(2) {
                    Seat::P1
                } else {
                    Seat::P2
                };
                let (mark, fill) = if seat == Seat::P1 {
                    ('X', '-')
                } else {
                    ('O', '=')
                };
                let joined = |c: Option<usize>| {
                    c.and_then(|c| {
                        let spot = geo.spot_at(Point {
                            col: c as u8,
                            row: row as u8,
                        })?;
                        (owner(c, row) == Some(seat) && geo.is_horizontal_for(spot, seat))
                            .then_some(fill)
                    })
                    .unwrap_or(' ')
                };
                format!(
                    "{}{mark}{}",
                    joined(col.checked_sub(1)),
                    joined((col + 1 < side).then_some(col + 1))
                )
            } else {
                "   ".to_string()
            };
            s.push_str(&cell);
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s);
    for seat in Seat::BOTH {
        let i = seat.index();
        let cheapest = match (game.end, game.cheapest(seat)) {
            (Some(End::Connected(w)), _) if w == seat => "connected".to_string(),
            (_, Some(c)) => format!("cheapest connection {c} M"),
            (_, None) => "cut off".to_string(),
        };
        let _ = writeln!(
            s,
            "{seat}{} ({}): {} M, {} bridge(s), {cheapest}",
            you(seat),
            if seat == Seat::P1 {
                "brown X"
            } else {
                "blue O"
            },
            game.materials[i],
            game.bridges[i].count_ones(),
        );
        let _ = writeln!(
            s,
            "    cards left this cycle: {}   (used: {})",
            game.hand_text(seat, game.hands[i]),
            game.hand_text(
                seat,
                !game.hands[i] & (((1u32 << game.options.cards.len()) - 1) as u16)
            )
        );
        if game.options.items != 0 {
            let names = |set: u8| {
                let v: Vec<&str> = items_in(set).into_iter().map(Item::title).collect();
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.join(", ")
                }
            };
            let _ = writeln!(
                s,
                "    items held: {}; used: {}",
                names(game.items[i]),
                names(game.options.items & !game.items[i])
            );
        }
    }
    if let Some(r) = game.last {
        let bid = |b: &PlayedBid| {
            format!(
                "{}{}{}",
                b.card,
                if b.upgraded { "+" } else { "" },
                if b.aid { " with aid" } else { "" }
            ) + &format!(" (value {})", b.value)
        };
        let result = match r.winner {
            None => "a tie: nobody takes the prize".to_string(),
            Some(w) => {
                let built: Vec<String> = geo.names(r.built);
                format!(
                    "{w} takes {} M{}",
                    r.prize,
                    if built.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " and builds {} for {} M{}",
                            built.join(" "),
                            r.paid,
                            if r.emergency {
                                " (with Emergency Delivery)"
                            } else {
                                ""
                            }
                        )
                    }
                )
            }
        };
        let _ = writeln!(
            s,
            "Round {}: prize {}; p1 bid {}, p2 bid {}; {result}",
            r.round,
            r.prize,
            bid(&r.bids[0]),
            bid(&r.bids[1])
        );
    }
    let view = game.view(viewer);
    if !view.prizes_left.is_empty() || view.prize.is_some() {
        let known: Vec<String> = view
            .upcoming
            .iter()
            .map(|p| p.map_or("?".to_string(), |p| p.to_string()))
            .collect();
        let left: Vec<String> = view.prizes_left.iter().map(u8::to_string).collect();
        let _ = writeln!(
            s,
            "Prizes still to come this cycle: {} (in order, as far as you know: {})",
            if left.is_empty() {
                "none".into()
            } else {
                left.join(" ")
            },
            if known.is_empty() {
                "-".into()
            } else {
                known.join(" ")
            }
        );
    }
    let cards = &game.options.cards;
    let mut effects = Vec::new();
    for slot in 0..cards.len() {
        for def in [Some(cards.basic(slot)), cards.upgraded(slot)]
            .into_iter()
            .flatten()
        {
            let label = cards.basic(slot).value;
            let mut parts = Vec::new();
            if def.value != label {
                parts.push(format!("value {}", def.value));
            }
            let what = def.effects.describe();
            if what != "-" {
                parts.push(what);
            }
            if !parts.is_empty() {
                let name = if def.name.starts_with(&label.to_string()) {
                    def.name.clone()
                } else {
                    format!("{label} {}", def.name)
                };
                effects.push(format!("{name}: {}", parts.join(", ")));
            }
        }
    }
    if !effects.is_empty() {
        let _ = writeln!(s, "Cards: {}", effects.join(" | "));
    }
    let _ = writeln!(
        s,
        "Rounds without a bridge: {} of {STALL_ROUNDS}; rounds played: {} of at most {}",
        game.since_bridge, game.rounds, game.options.rounds
    );
    match (game.prize(), game.outcome()) {
        (_, Some(o)) => {
            let _ = writeln!(s, "Game over: {}", o.reason);
        }
        (Some(p), None) => {
            let _ = writeln!(
                s,
                "Prize up now: {p} M. Waiting for {}.",
                game.phase_words()
            );
        }
        (None, None) => {
            let _ = writeln!(s, "Waiting for {}.", game.phase_words());
        }
    }
    s
}

/// The rules page, shown by `colosseum rules galespiel`.
pub const RULES: &str = include_str!("../../../docs/rules/galespiel.md");

/// The game in OpenSpiel's terms ([`crate::spiel`]).
mod spiel;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod variant_tests;
