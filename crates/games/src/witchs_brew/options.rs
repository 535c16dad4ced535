//! The options: the Cauldron's schedule of rounds, how races are decided, and the checked
//! [`WitchsBrewOptions`].

use super::*;

/// The kind of a Cauldron round: which Match its question is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum RoundKind {
    /// A Main Match question: a pair of cards.
    #[serde(rename = "MM")]
    MainMatch,
    /// A Death Match question: a pair of victory conditions.
    #[serde(rename = "DM")]
    DeathMatch,
    /// A Final Match question: a pair of cards.
    #[serde(rename = "FM")]
    FinalMatch,
}

impl RoundKind {
    pub(super) fn prefix(self) -> &'static str {
        match self {
            RoundKind::MainMatch => "MM",
            RoundKind::DeathMatch => "DM",
            RoundKind::FinalMatch => "FM",
        }
    }

    /// Whether the round hands out cards (MM, FM) rather than victory conditions (DM).
    #[must_use]
    pub fn gives_cards(self) -> bool {
        self != RoundKind::DeathMatch
    }
}

/// One Cauldron round of the schedule, such as `DM3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScheduledRound {
    /// MM, DM or FM.
    pub kind: RoundKind,
    /// The Match's number.
    pub number: u8,
}

impl fmt::Display for ScheduledRound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.prefix(), self.number)
    }
}

impl Serialize for ScheduledRound {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The Cauldron's rounds in order (fixed-size, so options stay `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub(super) rounds: [ScheduledRound; MAX_CAULDRON_ROUNDS],
    pub(super) len: u8,
}

impl Schedule {
    /// The default: MM1 DM1 MM2 DM2 … MM9 DM9 MM10 MM11 FM1 FM2.
    #[must_use]
    pub fn standard() -> Schedule {
        let mut rounds = [ScheduledRound {
            kind: RoundKind::MainMatch,
            number: 1,
        }; MAX_CAULDRON_ROUNDS];
        let mut i = 0;
        for n in 1..=9u8 {
            rounds[i] = ScheduledRound {
                kind: RoundKind::MainMatch,
                number: n,
            };
            rounds[i + 1] = ScheduledRound {
                kind: RoundKind::DeathMatch,
                number: n,
            };
            i += 2;
        }
        for (kind, number) in [
            (RoundKind::MainMatch, 10),
            (RoundKind::MainMatch, 11),
            (RoundKind::FinalMatch, 1),
            (RoundKind::FinalMatch, 2),
        ] {
            rounds[i] = ScheduledRound { kind, number };
            i += 1;
        }
        Schedule {
            rounds,
            len: MAX_CAULDRON_ROUNDS as u8,
        }
    }

    /// Parses `MM1 DM1 ...`; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Schedule, String> {
        let mut schedule = Schedule {
            rounds: Schedule::standard().rounds,
            len: 0,
        };
        let (mut cards, mut dms) = (0, 0);
        for token in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            let upper = token.to_ascii_uppercase();
            let kind = match upper.get(..2) {
                Some("MM") => RoundKind::MainMatch,
                Some("DM") => RoundKind::DeathMatch,
                Some("FM") => RoundKind::FinalMatch,
                _ => return Err(format!("`{token}` is not MMn, DMn or FMn")),
            };
            let number: u8 = upper[2..]
                .parse()
                .map_err(|_| format!("`{token}` needs a Match number, such as MM3"))?;
            if usize::from(schedule.len) == MAX_CAULDRON_ROUNDS {
                return Err("more than 22 rounds".into());
            }
            if kind.gives_cards() {
                cards += 1;
            } else {
                dms += 1;
            }
            schedule.rounds[usize::from(schedule.len)] = ScheduledRound { kind, number };
            schedule.len += 1;
        }
        if schedule.len == 0 {
            return Err("no rounds".into());
        }
        if cards > 13 {
            return Err(format!(
                "{cards} card rounds, but the 26-card deck fills only 13"
            ));
        }
        if dms > 9 {
            return Err(format!(
                "{dms} DM rounds, but the 18 victory conditions fill only 9"
            ));
        }
        Ok(schedule)
    }

    /// The rounds in order.
    #[must_use]
    pub fn rounds(&self) -> &[ScheduledRound] {
        &self.rounds[..usize::from(self.len)]
    }
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule::standard()
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::text::write_spaced(f, self.rounds(), "")
    }
}

impl Serialize for Schedule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Whether races are simulated or supplied by the host's live quiz.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CauldronMode {
    /// Races are drawn at random with the configured chances.
    #[default]
    Simulated,
    /// The host supplies each race's result; without one, the same random draw is the fallback.
    Live,
}

/// Where the game starts: the seed's beginning, or the endgame for research.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Start {
    /// The seed game from its first Cauldron round.
    #[default]
    Seed,
    /// A variant for research, not in the seed: the fixed position before Placement round 12
    /// of a seed game ([`WitchsBrew::endgame`]).
    Endgame,
}

impl Start {
    fn is_seed(&self) -> bool {
        *self == Start::Seed
    }
}

/// The checked options of a Witch's Brew game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WitchsBrewOptions {
    /// The Cauldron rounds in order.
    pub schedule: Schedule,
    /// Simulated or live races.
    pub cauldron: CauldronMode,
    /// The chance that `p1` wins a race that someone wins.
    pub p1_chance: f64,
    /// The chance that nobody wins a race.
    pub none_chance: f64,
    /// Who wins a round 1 with equal values.
    pub advantage: Seat,
    /// Who holds the Discard item (index by seat).
    pub discard: [bool; 2],
    /// Who holds the Tiebreaker item.
    pub tiebreaker: Option<Seat>,
    /// Where the game starts (left out of the serialized options when it is the seed's).
    #[serde(skip_serializing_if = "Start::is_seed")]
    pub start: Start,
}

impl Default for WitchsBrewOptions {
    fn default() -> Self {
        WitchsBrewOptions {
            schedule: Schedule::standard(),
            cauldron: CauldronMode::Simulated,
            p1_chance: 0.5,
            none_chance: 0.0,
            advantage: Seat::P1,
            discard: [false; 2],
            tiebreaker: None,
            start: Start::Seed,
        }
    }
}

impl WitchsBrewOptions {
    /// Reads the options from JSON, refusing unknown names and bad values.
    pub fn from_raw(raw: &RawOptions) -> Result<Self, OptionsError> {
        let r = OptionReader::new(raw, OPTIONS);
        let schedule = match raw.get("schedule") {
            None => Schedule::standard(),
            Some(Value::String(s)) => Schedule::parse(s).map_err(|why| OptionsError::BadValue {
                name: "schedule".into(),
                value: Value::String(s.clone()).to_string(),
                allowed: format!("{} ({why})", OPTIONS[0].allowed),
            })?,
            Some(other) => {
                return Err(OptionsError::BadValue {
                    name: "schedule".into(),
                    value: other.to_string(),
                    allowed: OPTIONS[0].allowed.into(),
                })
            }
        };
        let cauldron = match r.choice("cauldron", 0, &["simulated", "live"])? {
            0 => CauldronMode::Simulated,
            _ => CauldronMode::Live,
        };
        let p1_chance = r.float("p1_chance", 0.5, 0.0, 1.0)?;
        let none_chance = r.float("none_chance", 0.0, 0.0, 1.0)?;
        let advantage = match r.choice("advantage", 0, &["p1", "p2"])? {
            0 => Seat::P1,
            _ => Seat::P2,
        };
        let discard = match r.choice("discard", 0, &["none", "p1", "p2", "both"])? {
            0 => [false, false],
            1 => [true, false],
            2 => [false, true],
            _ => [true, true],
        };
        let tiebreaker = match r.choice("tiebreaker", 0, &["none", "p1", "p2"])? {
            0 => None,
            1 => Some(Seat::P1),
            _ => Some(Seat::P2),
        };
        let start = match r.choice("start", 0, &["seed", "endgame"])? {
            0 => Start::Seed,
            _ => Start::Endgame,
        };
        r.finish()?;
        let options = WitchsBrewOptions {
            schedule,
            cauldron,
            p1_chance,
            none_chance,
            advantage,
            discard,
            tiebreaker,
            start,
        };
        if start == Start::Endgame {
            // The endgame is a position of one fixed seed game: the options that would change
            // how it was reached must be the seed's. `advantage` (round 1 has no tie in it) and
            // `tiebreaker` (no game was tied before round 12) leave it as it is.
            let seed = WitchsBrewOptions {
                start,
                ..WitchsBrewOptions::default()
            };
            let changed: Vec<&str> = [
                ("schedule", options.schedule != seed.schedule),
                ("cauldron", options.cauldron != seed.cauldron),
                ("p1_chance", options.p1_chance != seed.p1_chance),
                ("none_chance", options.none_chance != seed.none_chance),
                ("discard", options.discard != seed.discard),
            ]
            .into_iter()
            .filter_map(|(name, differs)| differs.then_some(name))
            .collect();
            if !changed.is_empty() {
                return Err(OptionsError::BadValue {
                    name: "start".into(),
                    value: "\"endgame\"".into(),
                    allowed: format!(
                        "seed, or endgame with schedule, cauldron, p1_chance, none_chance and \
                         discard at their defaults (the endgame is a fixed position of a seed \
                         game with those; {} changed)",
                        changed.join(", ")
                    ),
                });
            }
        }
        Ok(options)
    }
}
