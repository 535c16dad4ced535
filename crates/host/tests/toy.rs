//! A seventh game touches only its own definition: a toy game that exists only in this test,
//! with a [`GameEntry`] of its own (not in the registry), plays through the host on the clocks,
//! bank and timeout moves its entry gives.

use colosseum_engine::{
    Game, IllegalMove, NotationError, OptionDoc, OptionReader, OptionsError, Outcome, Pending,
    RawOptions, Score, Seat, Step, StepError, TextStep, Viewer,
};
use colosseum_games::{DecisionClock, GameEntry, Registered, Timing};
use colosseum_host::{
    ConfigError, EndKind, LogEntry, Match, MatchConfig, RebuildError, TimeControl,
};
use rand::Rng;
use serde_json::{json, Map};
use Seat::{P1, P2};

/// Odds: two rounds; each round both seats pick 1, 2 or 3 at once (decision kind `pick`), then
/// `p1` calls the sum `odd` or `even` (kind `call`). A right call gives `p1` the sum in points, a
/// wrong one gives it to `p2`. More points wins.
#[derive(Clone, Debug, Default)]
struct Odds {
    round: u8,
    sum: Option<u8>,
    points: [u32; 2],
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum OddsMove {
    Pick(u8),
    Call { even: bool },
}

/// The toy's own clocks: 7 s to pick (the host picks 1 at the deadline), 3 s to call (running
/// out loses), a 4-second bank spent continuously. No real game has these numbers.
const TIMING: Timing = Timing {
    decisions: &[
        DecisionClock {
            kind: "pick",
            what: "a pick",
            ms: 7_000,
            loses: false,
            default: "1",
        },
        DecisionClock {
            kind: "call",
            what: "a call",
            ms: 3_000,
            loses: true,
            default: "",
        },
        DecisionClock {
            kind: "*",
            what: "",
            ms: 5_000,
            loses: false,
            default: "",
        },
    ],
    bank_ms: 4_000,
    bank_step_ms: 0,
};

const OPTIONS: &[OptionDoc] = &[];

static TOY: GameEntry = GameEntry::of::<Odds>(
    "odds",
    "Odds",
    "a test's own game",
    "# Odds\n",
    OPTIONS,
    TIMING,
);

impl Registered for Odds {
    type Options = ();
    fn parse_options(raw: &RawOptions) -> Result<(), OptionsError> {
        OptionReader::new(raw, OPTIONS).finish()
    }
    fn with_options((): ()) -> Self {
        Odds::default()
    }
}

impl Game for Odds {
    type Move = OddsMove;
    type Chance = ();
    type View = serde_json::Value;

    fn id(&self) -> &'static str {
        "odds"
    }

    fn pending(&self) -> Pending {
        match (self.round, self.sum) {
            (2, _) => Pending::Over,
            (_, None) => Pending::Both,
            (_, Some(_)) => Pending::One(P1),
        }
    }

    fn decision_kind(&self) -> &'static str {
        match self.pending() {
            Pending::Both => "pick",
            Pending::One(_) => "call",
            _ => "",
        }
    }

    fn legal_moves(&self, seat: Seat, out: &mut Vec<OddsMove>) {
        out.clear();
        match self.pending() {
            Pending::Both => out.extend((1..=3).map(OddsMove::Pick)),
            Pending::One(s) if s == seat => {
                out.extend([false, true].map(|even| OddsMove::Call { even }));
            }
            _ => {}
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<((), f64)>) {
        out.clear();
    }

    fn check_move(&self, seat: Seat, mv: &OddsMove) -> Result<(), IllegalMove> {
        let mut legal = Vec::new();
        self.legal_moves(seat, &mut legal);
        if legal.contains(mv) {
            Ok(())
        } else {
            Err(IllegalMove::new("not now"))
        }
    }

    fn check_chance(&self, _outcome: &()) -> Result<(), IllegalMove> {
        Err(IllegalMove::new("the game has no chance"))
    }

    fn apply(&mut self, step: Step<OddsMove, ()>) -> Result<(), StepError> {
        self.check_step(&step)?;
        match step {
            Step::Both {
                p1: OddsMove::Pick(a),
                p2: OddsMove::Pick(b),
            } => self.sum = Some(a + b),
            Step::One {
                mv: OddsMove::Call { even },
                ..
            } => {
                let sum = self.sum.take().expect("a call follows the picks");
                let right = sum.is_multiple_of(2) == even;
                self.points[usize::from(!right)] += u32::from(sum);
                self.round += 1;
            }
            _ => unreachable!("checked above"),
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.round == 2).then(|| Outcome {
            winner: match self.points[0].cmp(&self.points[1]) {
                std::cmp::Ordering::Greater => Some(P1),
                std::cmp::Ordering::Less => Some(P2),
                std::cmp::Ordering::Equal => None,
            },
            reason: format!("{} points to {}", self.points[0], self.points[1]),
        })
    }

    fn score(&self) -> Score {
        Score {
            p1: json!(self.points[0]),
            p2: json!(self.points[1]),
            details: Map::new(),
        }
    }

    fn view(&self, _viewer: Viewer) -> serde_json::Value {
        json!({"round": self.round, "sum": self.sum, "points": self.points})
    }

    fn render(&self, viewer: Viewer) -> String {
        self.view(viewer).to_string()
    }

    fn default_move<R: Rng + ?Sized>(&self, seat: Seat, _rng: &mut R) -> Option<OddsMove> {
        self.pending()
            .includes(seat)
            .then_some(OddsMove::Pick(1))
            .filter(|_| self.sum.is_none())
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<OddsMove, NotationError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "odd" => Ok(OddsMove::Call { even: false }),
            "even" => Ok(OddsMove::Call { even: true }),
            t => t
                .parse()
                .ok()
                .filter(|n| (1..=3).contains(n))
                .map(OddsMove::Pick)
                .ok_or_else(|| NotationError::mv(text, "a pick 1, 2 or 3, or a call odd or even")),
        }
    }

    fn format_move(&self, mv: &OddsMove) -> String {
        match mv {
            OddsMove::Pick(n) => n.to_string(),
            OddsMove::Call { even: true } => "even".into(),
            OddsMove::Call { even: false } => "odd".into(),
        }
    }

    fn parse_chance(&self, text: &str) -> Result<(), NotationError> {
        Err(NotationError::chance(text, "the game has no chance"))
    }

    fn format_chance(&self, (): &()) -> String {
        String::new()
    }
}

fn config() -> MatchConfig {
    MatchConfig::new("odds")
}

#[test]
fn the_toy_is_no_registered_game() {
    assert!(colosseum_games::find("odds").is_err());
    assert!(matches!(
        Match::new(config()),
        Err(ConfigError::UnknownGame(_))
    ));
    // What the host would give a game it does not know is not the toy's clocks.
    assert_ne!(TimeControl::for_game("odds"), TimeControl::for_entry(&TOY));
}

#[test]
fn a_toy_game_plays_through_the_host_on_its_own_clocks() {
    let mut m = Match::with_entry(&TOY, config()).unwrap();
    assert_eq!(m.time_control(), &TimeControl::for_entry(&TOY));
    let Some(clocks) = m.time_control().clocks() else {
        panic!("the toy's clocks are timed")
    };
    assert_eq!(
        (clocks.decision_ms("pick"), clocks.decision_ms("call")),
        (7_000, 3_000)
    );

    // Round 1: 7 s to pick, then each seat's 4-second bank.
    assert_eq!(m.game().decision_kind(), "pick");
    for seat in [P1, P2] {
        assert_eq!(m.clock(seat).turn_deadline, Some(7_000));
        assert_eq!(m.clock(seat).deadline, Some(11_000));
        assert_eq!(m.clock(seat).bank_ms, 4_000);
    }
    m.submit(P1, "3", 1_000).unwrap();
    // p2's own 7 s run out: noted, its bank starts.
    assert_eq!(
        m.tick(10_999),
        &[LogEntry::TurnUp {
            at: 7_000,
            seat: P2,
            turn_ms: 7_000,
            bank_ms: 4_000
        }]
    );
    // p2 never picks: its bank runs out and the host makes the toy's default move.
    m.tick(11_000);
    assert_eq!(m.clock(P2).bank_ms, 0);
    assert!(m.log().contains(&LogEntry::DefaultApplied {
        at: 11_000,
        seat: P2,
        text: "1".into()
    }));
    assert_eq!(m.record().steps[0], TextStep::both("3", "1"));

    // The call: 3 s, p1's bank untouched.
    assert_eq!(m.game().pending(), Pending::One(P1));
    assert_eq!(m.game().decision_kind(), "call");
    assert_eq!(m.clock(P1).turn_deadline, Some(14_000));
    assert_eq!(m.clock(P1).deadline, Some(18_000));
    m.submit(P1, "even", 12_000).unwrap();
    assert_eq!(m.game().score().p1, json!(4));

    // Round 2: p2 has no bank left; p1 picks and then lets the call run out, which loses.
    assert_eq!(m.clock(P2).deadline, Some(19_000));
    m.submit(P1, "2", 13_000).unwrap();
    m.submit(P2, "2", 14_000).unwrap();
    assert_eq!(m.game().decision_kind(), "call");
    assert_eq!(m.clock(P1).turn_deadline, Some(17_000));
    assert_eq!(m.clock(P1).deadline, Some(21_000));
    assert_eq!(
        m.tick(20_999),
        &[LogEntry::TurnUp {
            at: 17_000,
            seat: P1,
            turn_ms: 3_000,
            bank_ms: 4_000
        }]
    );
    m.tick(21_000);
    let r = m.result().expect("running out of the call's time loses");
    assert_eq!((r.winner, r.by), (Some(P2), EndKind::Time));
    assert!(m.log().contains(&LogEntry::TimedOut {
        at: 21_000,
        seat: P1
    }));

    // The match rebuilds from its log with the same entry.
    let again = Match::rebuild_with_entry(&TOY, config(), m.log()).unwrap();
    assert_eq!(again.log(), m.log());
    assert!(matches!(
        Match::rebuild(config(), m.log()),
        Err(RebuildError::Config(ConfigError::UnknownGame(_)))
    ));
}

#[test]
fn an_entry_and_a_configuration_for_another_game_are_refused() {
    let err = Match::with_entry(&TOY, MatchConfig::new("goofspiel")).unwrap_err();
    assert!(matches!(err, ConfigError::OtherGame { .. }));
    assert_eq!(
        err.to_string(),
        "the configuration is for game `goofspiel`, the entry given is `odds`"
    );
}

#[test]
fn the_hosts_defaults_for_a_registered_game_are_its_entrys() {
    for entry in colosseum_games::registry() {
        let config = MatchConfig::new(entry.id);
        assert_eq!(config.time_control(), TimeControl::for_entry(entry));
        assert_eq!(config.replays_on_draw(), entry.replay_draws, "{}", entry.id);
        assert!(
            !entry.replay_draws || entry.replay.is_some(),
            "{}",
            entry.id
        );
    }
    // RULINGS.md: All-In Goofspiel replays a draw, and only it.
    let replaying: Vec<_> = colosseum_games::registry()
        .iter()
        .filter(|e| e.replay_draws)
        .map(|e| e.id)
        .collect();
    assert_eq!(replaying, ["all-in-goofspiel"]);
}
