//! The Witch's Brew in OpenSpiel ([`crate::spiel`]): a stable, factored action space of 589
//! ids, each naming the same move (or part of a move) in every state.
//!
//! | ids | move |
//! | --- | --- |
//! | 0..126 | a card played: `63 * dup + k`, `dup` 1 for the Duplicard; `k` is Snipe 0, Lock `1 + column` (1..=7), Guess `7 + card` (8..=15), Copy 16, Leap 17, Freeze of nothing 18, Freeze of one stone `19 + cell` (19..=60), Shift 61, Diminish 62 |
//! | 126..168 | a stone placed (own colour or gray, as the decision says) on `cell` |
//! | 168..337 | after Leap: 168 pass, `169 + 4 * cell + direction` |
//! | 337..506 | after Shift: 337 pass, `338 + 4 * cell + direction` (the stone on `cell` moves one step) |
//! | 506..532 | a pick from the prize pair: `506 + card - 1` (cards 1..8), `514 + condition` |
//! | 532, 533 | keep, discard |
//! | 534..588 | the Intermission's assignment, **one condition at a time**: `534 + 3 * condition + r` puts `condition` in round 6, 9 or 12 (`r` 0, 1, 2) |
//! | 588 | the empty assignment (no condition held) |
//!
//! Cells are `row * 7 + column` (a1 = 0, g6 = 41), directions up, down, left, right (0..3),
//! conditions 0 (`1A`) .. 17 (`3F`). A Freeze names at most one stone (the game's own
//! representative subset, [`Game::legal_moves`]). The assignment is a decision of several
//! actions ([`Encoded::sub_actions`]): the seat assigns its held conditions in ascending order,
//! each to a round with room (at most three per round), so every legal assignment is one
//! sequence of actions; at the Intermission `p1` assigns first, then `p2`, neither seeing the
//! other's before both are done.
//!
//! Chance outcomes: a card pair `(a, b)`, `a <= b`, is `8 * (a - 1) + (b - 1)` (0..64); a
//! condition pair `(a, b)`, `a < b`, is `64 + 18 * a + b` (64..388); a race won by `p1`, `p2` or
//! nobody is 388, 389, 390.
//!
//! Tensors, from the seat's view (everything in this game is public once made, so the seat's
//! view is everyone's), own seat first. The observation: the stage (one-hot), who acts (the
//! seat, the other, both, chance, nobody), the prize pair (two slots, one-hot over the 8 cards
//! and 18 conditions), the deck (cards left per card), the conditions not drawn, each seat (its
//! hand as counts per card, Duplicard, Discard, Tiebreaker, the Diminish penalty, the conditions
//! held, each one's round once revealed (6, 9, 12), checked, scored, the points), whether the
//! assignments are revealed, the Placement round, the scoring rounds to come, the grid (own,
//! other's, gray stone and frozen per cell), the Lock's column and the Cauldron rounds played.
//! The information state adds the seat's own assignment actions (condition × round, set as it
//! takes them: the views show an assignment only once both are complete), every Cauldron round
//! (its pair, who won the race, what the seat received, whether it was discarded) and every
//! Placement round (each play's card, Duplicard and value, the winner).

use super::*;
use crate::spiel::{acting_slot, one_hot, Encoded, SpielInfo, SubActions, ACTING_SLOTS};

/// A prize slot: the 8 cards, then the 18 conditions.
const PRIZE: usize = 8 + CONDITION_COUNT as usize;
/// The stages, one-hot.
const STAGES: usize = 12;
/// One seat in the observation.
const SEAT: usize = 8 + 3 + 1 + 4 * CONDITION_COUNT as usize + 2 * CONDITION_COUNT as usize + 1;
/// The observation's length.
const OBSERVATION: usize = STAGES
    + 5
    + 2 * PRIZE
    + 8
    + CONDITION_COUNT as usize
    + 2 * SEAT
    + 1
    + 1
    + 3
    + 4 * CELLS
    + COLUMNS
    + 1;
/// The seat's own assignment actions.
const OWN_ASSIGNMENT: usize = 3 * CONDITION_COUNT as usize;
/// One Cauldron round in the information state: pair, race (own, other, nobody), received,
/// discarded.
const CAULDRON_ROUND: usize = 2 * PRIZE + 3 + PRIZE + 1;
/// One Placement round: each play (card one-hot, Duplicard, value), the winner (own, other).
const PLACEMENT_ROUND: usize = 2 * (8 + 2) + 2;
/// The information state's length.
const INFORMATION: usize = OBSERVATION
    + OWN_ASSIGNMENT
    + MAX_CAULDRON_ROUNDS * CAULDRON_ROUND
    + PLACEMENT_ROUNDS as usize * PLACEMENT_ROUND;

fn stage_index(stage: Stage) -> usize {
    match stage {
        Stage::DrawPair => 0,
        Stage::Race => 1,
        Stage::Pick(_) => 2,
        Stage::Discard(_) => 3,
        Stage::Assign => 4,
        Stage::PlayCards => 5,
        Stage::WinnerStone => 6,
        Stage::WinnerMove => 7,
        Stage::LoserStone => 8,
        Stage::LoserMove => 9,
        Stage::GrayStone => 10,
        Stage::Over => 11,
    }
}

fn prize_index(p: Prize) -> usize {
    match p {
        Prize::Card(c) => usize::from(c).saturating_sub(1),
        Prize::Condition(c) => 8 + usize::from(c.index()),
    }
}

/// Writes one seat's part of the observation.
fn write_seat(p: &PlayerView, out: &mut [f32]) {
    for &c in &p.hand {
        if let Some(x) = out.get_mut(usize::from(c).saturating_sub(1)) {
            *x += 1.0;
        }
    }
    out[8] = f32::from(u8::from(p.duplicard));
    out[9] = f32::from(u8::from(p.discard));
    out[10] = f32::from(u8::from(p.tiebreaker));
    out[11] = f32::from(p.diminish_penalty);
    let n = CONDITION_COUNT as usize;
    let held = 12;
    let rounds = held + n;
    let checked = rounds + 3 * n;
    let scored = checked + n;
    for c in &p.conditions {
        let i = usize::from(c.condition.index());
        out[held + i] = 1.0;
        if let Some(r) = c
            .round
            .and_then(|r| SCORING_ROUNDS.iter().position(|&x| x == r))
        {
            out[rounds + 3 * i + r] = 1.0;
        }
        out[checked + i] = f32::from(u8::from(c.checked));
        out[scored + i] = f32::from(u8::from(c.scored));
    }
    out[scored + n] = p.points as f32;
}

const PLAY_WIDTH: i64 = 63;
const FREEZE_ONE: i64 = 19;
const STONE: i64 = 126;
const LEAP_PASS: i64 = 168;
const SHIFT_PASS: i64 = 337;
const PICK_CARD: i64 = 506;
const PICK_CONDITION: i64 = 514;
const KEEP: i64 = 532;
const DISCARD: i64 = 533;
const ASSIGN: i64 = 534;
const ASSIGN_NONE: i64 = 588;
/// The number of action ids.
const ACTIONS: usize = 589;
const CHANCE_CONDITIONS: i64 = 64;
const CHANCE_RACE: i64 = 388;

/// The offset of a card's play (without its secondary choice) within a play block.
fn play_offset(card: u8) -> i64 {
    match card {
        SNIPE => 0,
        LOCK => 1,
        GUESS => 7,
        COPY => 16,
        LEAP => 17,
        FREEZE => 18,
        SHIFT => 61,
        _ => 62,
    }
}

fn play_id(play: &Play) -> Option<i64> {
    let base = PLAY_WIDTH * i64::from(play.duplicard) + play_offset(play.card);
    Some(
        base + match play.secondary {
            Secondary::None => 0,
            Secondary::Column(c) => i64::from(c),
            Secondary::Guess(g) => i64::from(g),
            Secondary::Freeze { len: 0, .. } => 0,
            Secondary::Freeze { cells, len: 1 } => 1 + cells[0].index() as i64,
            // Two or three stones are outside the abstraction (legal_moves never lists them).
            Secondary::Freeze { .. } => return None,
        },
    )
}

fn direction_index(d: Direction) -> i64 {
    Direction::ALL.iter().position(|&x| x == d).unwrap_or(0) as i64
}

fn cell(i: i64) -> Option<Cell> {
    usize::try_from(i)
        .ok()
        .and_then(|i| Cell::new(i % COLUMNS, i / COLUMNS))
}

/// An assignment action's condition and round index.
fn assign_part(id: i64) -> Option<(Condition, usize)> {
    let k = id.checked_sub(ASSIGN).filter(|k| *k < 54)?;
    Some((Condition::from_index((k / 3) as u8)?, (k % 3) as usize))
}

/// Any id in words, legal now or not.
fn name(id: i64) -> String {
    let step = |i: i64| cell(i / 4).zip(Direction::ALL.get((i % 4) as usize).copied());
    match id {
        0..STONE => {
            let (dup, k) = (id / PLAY_WIDTH == 1, id % PLAY_WIDTH);
            let text = match k {
                0 => "1".to_string(),
                1..=7 => format!("2 {}", char::from(b'a' + (k - 1) as u8)),
                8..=15 => format!("3 {}", k - 7),
                16 => "4".into(),
                17 => "5".into(),
                18 => "6".into(),
                19..=60 => format!(
                    "6 {}",
                    cell(k - FREEZE_ONE).map_or("?".into(), |c| c.to_string())
                ),
                61 => "7".into(),
                _ => "8".into(),
            };
            if dup {
                format!("dup {text}")
            } else {
                text
            }
        }
        STONE..LEAP_PASS => cell(id - STONE).map_or("?".into(), |c| c.to_string()),
        LEAP_PASS | SHIFT_PASS => "pass".into(),
        169..SHIFT_PASS | 338..PICK_CARD => {
            let first = if id < SHIFT_PASS {
                LEAP_PASS + 1
            } else {
                SHIFT_PASS + 1
            };
            match step(id - first) {
                Some((c, d)) if id < SHIFT_PASS => format!("{c} {d}"),
                Some((c, d)) => c
                    .step(d)
                    .map_or_else(|| format!("{c} {d}"), |t| format!("{c} {t}")),
                None => format!("action {id}"),
            }
        }
        PICK_CARD..PICK_CONDITION => (id - PICK_CARD + 1).to_string(),
        PICK_CONDITION..KEEP => {
            Condition::from_index((id - PICK_CONDITION) as u8).map_or("?".into(), |c| c.to_string())
        }
        KEEP => "keep".into(),
        DISCARD => "discard".into(),
        ASSIGN..ASSIGN_NONE => match assign_part(id) {
            Some((c, r)) => format!("{c} to round {}", SCORING_ROUNDS[r]),
            None => format!("action {id}"),
        },
        ASSIGN_NONE => "- / - / -".into(),
        _ => format!("action {id}"),
    }
}

impl Encoded for WitchsBrew {
    fn spiel_info(&self) -> SpielInfo {
        let endgame = self.options.start == Start::Endgame;
        SpielInfo {
            num_distinct_actions: ACTIONS,
            max_chance_outcomes: if endgame {
                0
            } else {
                (CHANCE_RACE + 3) as usize
            },
            // Every decision of a game, with the Intermission's assignment one condition at a
            // time (at most 18 actions); the endgame's last round: the cards, then a stone, a
            // Leap or Shift, a stone, a Leap or Shift and the gray stone.
            max_game_length: if endgame { 6 } else { 418 },
            // The endgame (a variant for research) has no chance left.
            max_chance_nodes: if endgame { 0 } else { 100 },
            stochastic: !endgame,
            tensors: Some((OBSERVATION, INFORMATION)),
            ..crate::spiel::base(
                "589 stable ids: card plays by card, Duplicard and secondary choice (Freeze of \
                 at most one stone); stones by cell; Leap and Shift by cell and direction; \
                 picks by prize; keep/discard; the assignment one condition at a time \
                 (condition x round); chance: card pairs, condition pairs, race winners; \
                 tensors: stage, prizes, deck, both seats, grid, every Cauldron and Placement \
                 round, own assignment actions",
            )
        }
    }

    fn action_id(&self, _seat: Seat, mv: &Move) -> Option<i64> {
        Some(match *mv {
            Move::Play(ref play) => return play_id(play),
            Move::Stone(c) => STONE + c.index() as i64,
            Move::Leap(None) => LEAP_PASS,
            Move::Leap(Some((c, d))) => LEAP_PASS + 1 + 4 * c.index() as i64 + direction_index(d),
            Move::Shift(None) => SHIFT_PASS,
            Move::Shift(Some((a, b))) => {
                let d = Direction::ALL.into_iter().find(|&d| a.step(d) == Some(b))?;
                SHIFT_PASS + 1 + 4 * a.index() as i64 + direction_index(d)
            }
            Move::Pick(Prize::Card(c)) => PICK_CARD + i64::from(c) - 1,
            Move::Pick(Prize::Condition(c)) => PICK_CONDITION + i64::from(c.index()),
            Move::Discard(false) => KEEP,
            Move::Discard(true) => DISCARD,
            Move::Assign(a) if a.0.iter().all(|s| s.is_empty()) => ASSIGN_NONE,
            // A non-empty assignment is made one condition at a time (sub_actions).
            Move::Assign(_) => return None,
        })
    }

    fn action_name(&self, id: i64) -> String {
        name(id)
    }

    fn sub_actions(&self, seat: Seat, partial: &[i64], out: &mut SubActions<Move>) -> bool {
        let held = self.held[seat.index()];
        if self.stage != Stage::Assign || held.is_empty() {
            return false;
        }
        let mut sets = [ConditionSet::default(); 3];
        for (c, r) in partial.iter().filter_map(|&id| assign_part(id)) {
            sets[r].0 |= c.bit();
        }
        let Some(next) = held.iter().nth(partial.len()) else {
            return true;
        };
        let last = partial.len() + 1 == held.len() as usize;
        for (r, set) in sets.iter().enumerate() {
            if set.len() < PER_SCORING_ROUND {
                let mv = last.then(|| {
                    let mut done = sets;
                    done[r].0 |= next.bit();
                    Move::Assign(Assignment(done))
                });
                out.push((ASSIGN + 3 * i64::from(next.index()) + r as i64, mv));
            }
        }
        true
    }

    fn chance_ids(&self, _partial: &[i64], out: &mut Vec<(i64, f64, Option<Chance>)>) {
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        out.extend(outcomes.into_iter().map(|(c, p)| {
            let id = match c {
                Chance::Cards(a, b) => 8 * (i64::from(a) - 1) + i64::from(b) - 1,
                Chance::Conditions(a, b) => {
                    CHANCE_CONDITIONS + 18 * i64::from(a.index()) + i64::from(b.index())
                }
                Chance::Race(Some(Seat::P1)) => CHANCE_RACE,
                Chance::Race(Some(Seat::P2)) => CHANCE_RACE + 1,
                Chance::Race(None) => CHANCE_RACE + 2,
            };
            (id, p, Some(c))
        }));
        out.sort_by_key(|(id, _, _)| *id);
    }

    fn observation_tensor(&self, view: &WitchsBrewView, seat: Seat, out: &mut [f32]) {
        let (me, other) = (seat, seat.other());
        let mut at = 0;
        one_hot(&mut out[..STAGES], stage_index(view.stage));
        at += STAGES;
        out[at + acting_slot(view.pending, me)] = 1.0;
        at += ACTING_SLOTS;
        if let Some(pair) = view.prize_pair {
            for (k, p) in pair.into_iter().enumerate() {
                one_hot(
                    &mut out[at + k * PRIZE..at + (k + 1) * PRIZE],
                    prize_index(p),
                );
            }
        }
        at += 2 * PRIZE;
        for (i, &n) in view.deck.iter().enumerate() {
            out[at + i] = f32::from(n);
        }
        at += 8;
        for c in view.conditions_left.iter() {
            out[at + usize::from(c.index())] = 1.0;
        }
        at += CONDITION_COUNT as usize;
        for who in [me, other] {
            write_seat(view.players.get(who), &mut out[at..at + SEAT]);
            at += SEAT;
        }
        out[at] = f32::from(u8::from(view.assignments_revealed));
        out[at + 1] = f32::from(view.placement_round);
        at += 2;
        for r in &view.scoring_rounds_to_come {
            if let Some(k) = SCORING_ROUNDS.iter().position(|x| x == r) {
                out[at + k] = 1.0;
            }
        }
        at += 3;
        for (i, cell) in view.grid.iter().flatten().enumerate().take(CELLS) {
            let plane = match cell.stone {
                Some(Stone::P1) if me == Seat::P1 => Some(0),
                Some(Stone::P2) if me == Seat::P2 => Some(0),
                Some(Stone::P1 | Stone::P2) => Some(1),
                Some(Stone::Gray) => Some(2),
                None => None,
            };
            if let Some(plane) = plane {
                out[at + plane * CELLS + i] = 1.0;
            }
            out[at + 3 * CELLS + i] = f32::from(u8::from(cell.frozen));
        }
        at += 4 * CELLS;
        if let Some(c) = view.lock_column {
            one_hot(
                &mut out[at..at + COLUMNS],
                (c as u8).wrapping_sub(b'a').into(),
            );
        }
        at += COLUMNS;
        out[at] = view.cauldron_rounds.len() as f32;
    }

    fn update_information_tensor(&self, view: &WitchsBrewView, seat: Seat, out: &mut [f32]) {
        out[..OBSERVATION].fill(0.0);
        self.observation_tensor(view, seat, &mut out[..OBSERVATION]);
        // The own assignment actions (after the observation) are kept as noted.
        let (me, other) = (seat, seat.other());
        let start = OBSERVATION + OWN_ASSIGNMENT;
        let cauldron = &mut out[start..start + MAX_CAULDRON_ROUNDS * CAULDRON_ROUND];
        cauldron.fill(0.0);
        for (i, r) in view
            .cauldron_rounds
            .iter()
            .enumerate()
            .take(MAX_CAULDRON_ROUNDS)
        {
            let slot = &mut cauldron[i * CAULDRON_ROUND..(i + 1) * CAULDRON_ROUND];
            for (k, p) in r.pair.into_iter().enumerate() {
                one_hot(&mut slot[k * PRIZE..(k + 1) * PRIZE], prize_index(p));
            }
            let race = match r.winner {
                Some(w) if w == me => 0,
                Some(_) => 1,
                None => 2,
            };
            slot[2 * PRIZE + race] = 1.0;
            if let Some(p) = r.received[me.index()] {
                one_hot(&mut slot[2 * PRIZE + 3..3 * PRIZE + 3], prize_index(p));
            }
            slot[3 * PRIZE + 3] = f32::from(u8::from(r.discarded));
        }
        let start = start + MAX_CAULDRON_ROUNDS * CAULDRON_ROUND;
        let placement = &mut out[start..];
        placement.fill(0.0);
        for (i, r) in view
            .rounds
            .iter()
            .enumerate()
            .take(usize::from(PLACEMENT_ROUNDS))
        {
            let slot = &mut placement[i * PLACEMENT_ROUND..(i + 1) * PLACEMENT_ROUND];
            for (k, who) in [me, other].into_iter().enumerate() {
                let play = &r.plays[who.index()];
                let part = &mut slot[k * 10..(k + 1) * 10];
                one_hot(&mut part[..8], usize::from(play.card).saturating_sub(1));
                part[8] = f32::from(u8::from(play.duplicard));
                part[9] = f32::from(r.values[who.index()]);
            }
            slot[20 + usize::from(r.winner != me)] = 1.0;
        }
    }

    fn note_own_tensor(&self, _seat: Seat, id: i64, out: &mut [f32]) {
        if let Some((c, r)) = assign_part(id) {
            out[OBSERVATION + 3 * usize::from(c.index()) + r] = 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_has_one_name_and_the_layout_has_no_gaps() {
        let names: Vec<String> = (0..ACTIONS as i64).map(name).collect();
        assert!(names.iter().all(|n| !n.starts_with("action")), "{names:?}");
        assert_eq!(name(0), "1");
        assert_eq!(name(63 + 3), "dup 2 c");
        assert_eq!(name(FREEZE_ONE), "6 a1");
        assert_eq!(name(STONE + 41), "g6");
        assert_eq!(name(SHIFT_PASS + 1 + 4 * 8 + 3), "b2 c2");
        assert_eq!(name(ASSIGN + 3 * 17 + 2), "3F to round 12");
    }

    #[test]
    fn a_play_id_names_the_play() {
        for dup in [false, true] {
            for card in 1..=8u8 {
                let mut plays = vec![Play::card(card)];
                if card == LOCK {
                    plays = (0..7).map(Play::lock).collect();
                }
                if card == GUESS {
                    plays = (1..=8).map(Play::guess).collect();
                }
                if card == FREEZE {
                    plays.extend((0..42).map(|i| Play::freeze(&[cell(i).unwrap()])));
                }
                for play in plays {
                    let play = if dup { play.with_duplicard() } else { play };
                    let id = play_id(&play).unwrap();
                    assert_eq!(name(id), play.to_string());
                }
            }
        }
    }
}
