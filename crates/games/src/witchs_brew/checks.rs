//! Checking a seat's move against the pending decision: cards held, Duplicard, secondary
//! choices, stones, Leap and Shift, assignments; and what the game waits for, in words.

use super::*;

impl WitchsBrew {
    pub(super) fn check_play(&self, seat: Seat, play: &Play) -> Result<(), IllegalMove> {
        let hand = self.hands[seat.index()];
        if !(1..=8).contains(&play.card) {
            return Err(IllegalMove::new("cards run from 1 to 8"));
        }
        if play.duplicard {
            if self.duplicard_used[seat.index()] {
                return Err(IllegalMove::new("you have already played your Duplicard"));
            }
            if hand.count(play.card) == 0 {
                return Err(IllegalMove::new(format!(
                    "the Duplicard must copy a card you hold; you have no {}; your hand is {hand}",
                    play.card
                )));
            }
        } else if hand.count(play.card) == 0 {
            return Err(IllegalMove::new(format!(
                "you have no {} ({}); your hand is {hand}",
                play.card,
                card_name(play.card)
            )));
        }
        match (play.card, play.secondary) {
            (LOCK, Secondary::Column(c)) if usize::from(c) < COLUMNS => Ok(()),
            (GUESS, Secondary::Guess(g)) if (1..=8).contains(&g) => Ok(()),
            (FREEZE, Secondary::Freeze { cells, len }) => {
                let cells = &cells[..usize::from(len)];
                let occupied = self.grid.occupied();
                let mut seen = 0u64;
                for c in cells {
                    if occupied & c.bit() == 0 {
                        return Err(IllegalMove::new(format!(
                            "Freeze names stones, and {c} is empty"
                        )));
                    }
                    if seen & c.bit() != 0 {
                        return Err(IllegalMove::new(format!("Freeze names {c} twice")));
                    }
                    seen |= c.bit();
                }
                Ok(())
            }
            (SNIPE | COPY | LEAP | SHIFT | DIMINISH, Secondary::None) => Ok(()),
            _ => Err(IllegalMove::new(format!(
                "{} ({}) takes {}",
                play.card,
                card_name(play.card),
                secondary_shape(play.card)
            ))),
        }
    }

    pub(super) fn check_single(&self, seat: Seat, mv: &Move) -> Result<(), IllegalMove> {
        match (self.stage, mv) {
            (Stage::Pick(_), Move::Pick(p)) => {
                if self.pair.contains(p) {
                    Ok(())
                } else {
                    Err(IllegalMove::new(format!(
                        "{p} is not in the pair; pick {} or {}",
                        self.pair[0], self.pair[1]
                    )))
                }
            }
            (Stage::Discard(_), Move::Discard(_)) => Ok(()),
            (Stage::WinnerStone | Stage::LoserStone, Move::Stone(c)) => {
                if self.grid.occupied() & c.bit() != 0 {
                    return Err(IllegalMove::new(format!("{c} is taken")));
                }
                if self.stone_targets(seat) & c.bit() == 0 {
                    let col = self.current_round().and_then(|r| {
                        match r.plays[seat.other().index()].secondary {
                            Secondary::Column(col) => Some(char::from(b'a' + col)),
                            _ => None,
                        }
                    });
                    return Err(IllegalMove::new(format!(
                        "your opponent's Lock names column {}, which has space: your stone must go there",
                        col.unwrap_or('?')
                    )));
                }
                Ok(())
            }
            (Stage::GrayStone, Move::Stone(c)) => {
                if self.grid.occupied() & c.bit() != 0 {
                    Err(IllegalMove::new(format!("{c} is taken")))
                } else {
                    Ok(())
                }
            }
            (Stage::WinnerMove | Stage::LoserMove, Move::Leap(choice))
                if self.mover_card() == LEAP =>
            {
                let Some((from, _)) = choice else {
                    return Ok(());
                };
                self.check_movable(seat, *from, false)
            }
            (Stage::WinnerMove | Stage::LoserMove, Move::Shift(choice))
                if self.mover_card() == SHIFT =>
            {
                let Some((from, to)) = choice else {
                    return Ok(());
                };
                self.check_movable(seat, *from, true)?;
                if self.grid.occupied() & to.bit() != 0 {
                    return Err(IllegalMove::new(format!("{to} is taken")));
                }
                if !Direction::ALL.iter().any(|&d| from.step(d) == Some(*to)) {
                    return Err(IllegalMove::new(format!(
                        "Shift moves a stone to an orthogonally adjacent cell; {to} is not next to {from}"
                    )));
                }
                Ok(())
            }
            _ => Err(IllegalMove::new(format!(
                "this is not what the game waits for: {}",
                self.expected()
            ))),
        }
    }

    pub(super) fn check_movable(
        &self,
        seat: Seat,
        from: Cell,
        shift: bool,
    ) -> Result<(), IllegalMove> {
        let stone = self.grid.stone(from);
        let whose_ok = match stone {
            None => return Err(IllegalMove::new(format!("{from} is empty"))),
            Some(Stone::Gray) => shift,
            Some(Stone::P1) => seat == Seat::P1,
            Some(Stone::P2) => seat == Seat::P2,
        };
        if !whose_ok {
            return Err(IllegalMove::new(if shift {
                format!("Shift moves one of your stones or a neutral stone; {from} is not")
            } else {
                format!("Leap moves one of your stones; {from} is not yours")
            }));
        }
        if self.grid.is_frozen(from) {
            return Err(IllegalMove::new(format!(
                "the stone on {from} is frozen and cannot move"
            )));
        }
        Ok(())
    }

    pub(super) fn check_assignment(&self, seat: Seat, a: &Assignment) -> Result<(), IllegalMove> {
        let held = self.held[seat.index()];
        let mut union = 0u32;
        for (k, set) in a.0.iter().enumerate() {
            if set.len() > PER_SCORING_ROUND {
                return Err(IllegalMove::new(format!(
                    "round {} gets {} conditions; at most three per round",
                    SCORING_ROUNDS[k],
                    set.len()
                )));
            }
            for c in set.iter() {
                if !held.contains(c) {
                    return Err(IllegalMove::new(format!(
                        "you do not hold {c}; your conditions are {held}"
                    )));
                }
                if union & c.bit() != 0 {
                    return Err(IllegalMove::new(format!("{c} is assigned twice")));
                }
            }
            union |= set.0;
        }
        if union != held.0 {
            let missing = ConditionSet(held.0 & !union);
            return Err(IllegalMove::new(format!(
                "every condition you hold must be assigned; {missing} is missing"
            )));
        }
        Ok(())
    }

    /// What the game waits for, in words.
    pub(super) fn expected(&self) -> String {
        match self.stage {
            Stage::DrawPair => "the prize pair to be drawn".into(),
            Stage::Race => "the race's result".into(),
            Stage::Pick(s) => format!("{s} to pick {} or {}", self.pair[0], self.pair[1]),
            Stage::Discard(_) => "`discard` or `keep` from the Discard holder".into(),
            Stage::Assign => {
                "both seats' assignments to rounds 6, 9 and 12, such as `1A 2B / 3C / -`".into()
            }
            Stage::PlayCards => {
                "both seats' cards, such as `5`, `2 d`, `3 7`, `6 c3`, `dup 1`".into()
            }
            Stage::WinnerStone | Stage::LoserStone => {
                let seat = self.actor().expect("a revealed round");
                let all = FULL & !self.grid.occupied();
                let targets = self.stone_targets(seat);
                let lock = if targets == all {
                    String::new()
                } else {
                    let column = bits(targets)
                        .next()
                        .map_or('?', |c| char::from(b'a' + c.column() as u8));
                    format!(" in column {column} ({}'s Lock)", seat.other())
                };
                format!("{seat}'s stone on an empty cell{lock}, such as `d4`")
            }
            Stage::GrayStone => format!(
                "{}'s gray stone on an empty cell",
                self.actor().expect("a revealed round")
            ),
            Stage::WinnerMove | Stage::LoserMove => {
                let seat = self.actor().expect("a revealed round");
                if self.mover_card() == LEAP {
                    format!("{seat}'s Leap: a stone of theirs and a direction (`c3 up`), or `pass`")
                } else {
                    format!("{seat}'s Shift: a stone (theirs or neutral) and an empty neighbour (`c3 c4`), or `pass`")
                }
            }
            Stage::Over => "nothing: the game is over".into(),
        }
    }
}
