//! What a viewer sees ([`WitchsBrewView`]) and the text board of `colosseum play`.

use super::*;

/// One cell as a view shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CellView {
    /// The stone, if any.
    pub stone: Option<Stone>,
    /// Whether it is frozen.
    pub frozen: bool,
}

/// One victory condition of a player as a view shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConditionView {
    /// `1A`..`3F`.
    pub condition: Condition,
    /// Its worth.
    pub points: u32,
    /// What it asks for.
    pub text: &'static str,
    /// The scoring round it is assigned to, once assignments are revealed.
    pub round: Option<u8>,
    /// Whether the grid meets it now.
    pub met_now: bool,
    /// Whether it has been scored.
    pub checked: bool,
    /// Whether it was met when scored.
    pub scored: bool,
}

/// A player's public inventory. Everything a player receives or plays is public in this game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// The cards, lowest first.
    pub hand: Vec<u8>,
    /// Whether the Duplicard is still unused.
    pub duplicard: bool,
    /// Whether an unused Discard is held.
    pub discard: bool,
    /// Whether the Tiebreaker is held.
    pub tiebreaker: bool,
    /// The Diminish penalty on the next card.
    pub diminish_penalty: u8,
    /// The victory conditions held.
    pub conditions: Vec<ConditionView>,
    /// Victory points scored so far.
    pub points: u32,
}

/// What a viewer sees of a Witch's Brew game. Seats and spectators see the same: every prize,
/// pick and play is public once made, and simultaneous submissions are not part of the state
/// until both are revealed together.
#[derive(Clone, Debug, Serialize)]
pub struct WitchsBrewView {
    /// Who looks.
    pub viewer: Viewer,
    /// Who must act now.
    pub pending: Pending,
    /// The stage.
    pub stage: Stage,
    /// What the game waits for, in words.
    pub waiting_for: String,
    /// The Cauldron round in progress.
    pub cauldron: Option<ScheduledRound>,
    /// Simulated or live races.
    pub cauldron_mode: CauldronMode,
    /// The Cauldron schedule.
    pub schedule: Schedule,
    /// The prize pair on offer (during the race and the pick).
    pub prize_pair: Option<[Prize; 2]>,
    /// Cards left in the deck, per card 1..8.
    pub deck: [u8; 8],
    /// Victory conditions not drawn yet.
    pub conditions_left: ConditionSet,
    /// The finished Cauldron rounds.
    pub cauldron_rounds: Vec<CauldronRound>,
    /// Both players' inventories.
    pub players: SeatPair<PlayerView>,
    /// Whether the Intermission assignments have been revealed.
    pub assignments_revealed: bool,
    /// The Placement round, 1..12 (0 before).
    pub placement_round: u8,
    /// The scoring rounds still to come.
    pub scoring_rounds_to_come: Vec<u8>,
    /// The grid, rows 1..6 top to bottom, columns a..g.
    pub grid: Vec<Vec<CellView>>,
    /// The column a Lock forces the stone being placed into, if any.
    pub lock_column: Option<char>,
    /// The revealed Placement rounds.
    pub rounds: Vec<PlacementRound>,
    /// The outcome, once the game is over.
    pub outcome: Option<Outcome>,
}

pub(super) fn render(game: &WitchsBrew, viewer: Viewer) -> String {
    let mut s = String::new();
    let you = |seat: Seat| {
        if viewer == Viewer::Seat(seat) {
            " (you)"
        } else {
            ""
        }
    };
    let title = if game.stage == Stage::Over {
        "game over".to_string()
    } else if game.round == 0 {
        if usize::from(game.cauldron_round) < game.options.schedule.rounds().len() {
            format!(
                "Cauldron round {} of {} ({})",
                game.cauldron_round + 1,
                game.options.schedule.len,
                game.scheduled()
            )
        } else {
            "Intermission".to_string()
        }
    } else {
        format!("Placement round {} of 12", game.round)
    };
    let _ = writeln!(s, "The Witch's Brew - {title}");
    let _ = writeln!(
        s,
        "X = p1{}, O = p2{}, + = neutral, [ ] = frozen",
        you(Seat::P1),
        you(Seat::P2)
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "      a  b  c  d  e  f  g");
    for r in 0..ROWS {
        let _ = write!(s, "  {}  ", r + 1);
        for c in 0..COLUMNS {
            let cell = Cell::new(c, r).expect("on the grid");
            let ch = match game.grid.stone(cell) {
                Some(Stone::P1) => 'X',
                Some(Stone::P2) => 'O',
                Some(Stone::Gray) => '+',
                None => '.',
            };
            if game.grid.is_frozen(cell) {
                let _ = write!(s, "[{ch}]");
            } else {
                let _ = write!(s, " {ch} ");
            }
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s);
    let points = game.points();
    for seat in Seat::BOTH {
        let i = seat.index();
        let mut items = Vec::new();
        if !game.duplicard_used[i] {
            items.push("Duplicard");
        }
        if game.options.discard[i] && !game.discard_used[i] {
            items.push("Discard");
        }
        if game.options.tiebreaker == Some(seat) {
            items.push("Tiebreaker");
        }
        let penalty = if game.penalty[i] > 0 {
            format!(", next card -{}", game.penalty[i])
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "{seat}{}: {} VP; cards {}; items {}{penalty}",
            you(seat),
            points[i],
            game.hands[i],
            if items.is_empty() {
                "none".to_string()
            } else {
                items.join(", ")
            }
        );
        for c in game.held[i].iter() {
            let round = game
                .assignment
                .and_then(|a| a[i].0.iter().position(|x| x.contains(c)))
                .map_or(String::new(), |k| format!(" [round {}]", SCORING_ROUNDS[k]));
            let status = if game.checked[i].contains(c) {
                if game.met[i].contains(c) {
                    "SCORED"
                } else {
                    "missed"
                }
            } else if game.grid.meets(seat, c) {
                "met now"
            } else {
                "not met"
            };
            let _ = writeln!(
                s,
                "  {status:>8}  {c} ({} VP) {}{round}",
                c.points(),
                c.text()
            );
        }
    }
    if game.round > 0 {
        let to_come: Vec<String> = SCORING_ROUNDS
            .iter()
            .filter(|&&r| r >= game.round && game.stage != Stage::Over)
            .map(u8::to_string)
            .collect();
        if !to_come.is_empty() {
            let _ = writeln!(s, "Scoring after rounds: {}", to_come.join(", "));
        }
    }
    // The Cauldron's last round, or the Placement's current round.
    if game.round == 0 {
        if let Some(last) = game.cauldron_log.iter().rev().find_map(|r| *r) {
            let what = match last.winner {
                None => "nobody won the race; the pair is discarded".to_string(),
                Some(w) => {
                    let mut t = format!(
                        "{w} won and took {}, {} got {}",
                        last.received[w.index()].expect("handed out"),
                        w.other(),
                        last.received[w.other().index()].expect("handed out")
                    );
                    if last.discarded {
                        t.push_str("; both were discarded");
                    }
                    t
                }
            };
            let _ = writeln!(
                s,
                "Last Cauldron round {} ({} / {}): {what}",
                last.round, last.pair[0], last.pair[1]
            );
        }
        if matches!(game.stage, Stage::Race | Stage::Pick(_)) {
            let _ = writeln!(
                s,
                "On offer in {}: {} and {}",
                game.scheduled(),
                describe_prize(game.pair[0]),
                describe_prize(game.pair[1])
            );
        }
        let left: Vec<String> = (1..=8u8)
            .filter(|&c| game.deck[usize::from(c - 1)] > 0)
            .map(|c| format!("{c}x{}", game.deck[usize::from(c - 1)]))
            .collect();
        if !left.is_empty() && game.stage != Stage::Assign {
            let _ = writeln!(s, "Deck left: {}", left.join(" "));
        }
    } else if let Some(r) = game.last_round() {
        let _ = writeln!(
            s,
            "Round {}: p1 played {} ({}, value {}), p2 played {} ({}, value {}) - {} wins ({})",
            r.round,
            r.plays[0],
            card_name(r.plays[0].card),
            r.values[0],
            r.plays[1],
            card_name(r.plays[1].card),
            r.values[1],
            r.winner,
            match r.reason {
                WinReason::Snipe => "Snipe",
                WinReason::Guess => "correct Guess",
                WinReason::HigherValue if r.win_effects == [true, true] =>
                    "win-effects cancel; higher value",
                WinReason::HigherValue => "higher value",
                WinReason::TieLostPrevious => "tie; lost the previous round",
                WinReason::TieAdvantage => "tie in round 1; advantage",
            }
        );
        for seat in Seat::BOTH {
            if let Some(c) = r.copied[seat.index()] {
                let _ = writeln!(s, "{seat} copied a {c}.");
            }
        }
        let (w, l) = (r.winner, r.winner.other());
        let mut events = Vec::new();
        let moved = |m: Option<(Cell, Cell)>| {
            m.map_or(String::new(), |(a, b)| format!(", moved {a} to {b}"))
        };
        if let Some(c) = r.placed[0] {
            events.push(format!("{w} placed {c}{}", moved(r.moved[0])));
        }
        if let Some(c) = r.placed[1] {
            events.push(format!("{l} placed {c}{}", moved(r.moved[1])));
        }
        if let Some(c) = r.placed[2] {
            events.push(format!("{w} placed gray {c}"));
        }
        if !events.is_empty() {
            let _ = writeln!(s, "Stones: {}.", events.join("; "));
        }
    }
    if game.stage != Stage::Over {
        let _ = writeln!(s, "Waiting for: {}", game.expected());
    }
    if let Some(o) = game.outcome() {
        let _ = writeln!(s, "Game over: {}.", o.reason);
    }
    s.lines()
        .fold(String::with_capacity(s.len()), |mut out, line| {
            out.push_str(line.trim_end());
            out.push('\n');
            out
        })
}

pub(super) fn describe_prize(p: Prize) -> String {
    match p {
        Prize::Card(c) => format!("card {c} ({})", card_name(c)),
        Prize::Condition(c) => format!("{c} ({} VP: {})", c.points(), c.text()),
    }
}
