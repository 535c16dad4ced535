//! Listing and drawing moves: the card plays a seat can make, its assignments, its single
//! decisions (picks, stones, Leap/Shift), and the random and default choices among them.

use super::*;

impl WitchsBrew {
    pub(super) fn play_choices(&self, seat: Seat) -> ([(u8, bool); 16], usize) {
        let hand = self.hands[seat.index()];
        let mut out = [(0u8, false); 16];
        let mut n = 0;
        for c in hand.distinct() {
            out[n] = (c, false);
            n += 1;
        }
        if !self.duplicard_used[seat.index()] {
            for c in hand.distinct() {
                out[n] = (c, true);
                n += 1;
            }
        }
        (out, n)
    }

    pub(super) fn random_play<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Play {
        let (choices, n) = self.play_choices(seat);
        let (card, duplicard) = choices[rng.random_range(0..n)];
        let secondary = match card {
            LOCK => Secondary::Column(rng.random_range(0..COLUMNS as u8)),
            GUESS => Secondary::Guess(rng.random_range(1..=8)),
            FREEZE => {
                let occupied = self.grid.occupied();
                let k = rng.random_range(0..=3u32).min(occupied.count_ones());
                let mut cells = [Cell::default(); 3];
                let mut pool = occupied;
                for slot in cells.iter_mut().take(k as usize) {
                    let bit = nth_bit(pool, rng.random_range(0..pool.count_ones()));
                    pool &= !(1u64 << bit);
                    *slot = Cell::from_bit_index(bit);
                }
                cells[..k as usize].sort_unstable();
                Secondary::Freeze {
                    cells,
                    len: k as u8,
                }
            }
            _ => Secondary::None,
        };
        Play {
            card,
            duplicard,
            secondary,
        }
    }

    pub(super) fn plays(&self, seat: Seat, out: &mut Vec<Move>) {
        let (choices, n) = self.play_choices(seat);
        for &(card, duplicard) in &choices[..n] {
            let base = Play {
                duplicard,
                ..Play::card(card)
            };
            match card {
                LOCK => out.extend((0..COLUMNS as u8).map(|c| {
                    Move::Play(Play {
                        secondary: Secondary::Column(c),
                        ..base
                    })
                })),
                GUESS => out.extend((1..=8).map(|g| {
                    Move::Play(Play {
                        secondary: Secondary::Guess(g),
                        ..base
                    })
                })),
                FREEZE => {
                    out.push(Move::Play(base));
                    out.extend(bits(self.grid.occupied()).map(|c| {
                        Move::Play(Play {
                            secondary: Secondary::Freeze {
                                cells: [c, Cell::default(), Cell::default()],
                                len: 1,
                            },
                            ..base
                        })
                    }));
                }
                _ => out.push(Move::Play(base)),
            }
        }
    }

    pub(super) fn assignments(&self, seat: Seat, out: &mut Vec<Move>) {
        let held: Vec<Condition> = self.held[seat.index()].iter().collect();
        let n = held.len() as u32;
        for code in 0..3u32.pow(n) {
            let mut sets = [ConditionSet::default(); 3];
            let mut x = code;
            for c in &held {
                sets[(x % 3) as usize].0 |= c.bit();
                x /= 3;
            }
            if sets.iter().all(|s| s.len() <= PER_SCORING_ROUND) {
                out.push(Move::Assign(Assignment(sets)));
            }
        }
    }

    pub(super) fn default_assignment(&self, seat: Seat) -> Assignment {
        let mut sets = [ConditionSet::default(); 3];
        for (i, c) in self.held[seat.index()].iter().enumerate() {
            sets[(i / 3).min(2)].0 |= c.bit();
        }
        Assignment(sets)
    }

    pub(super) fn random_assignment<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Assignment {
        // Rejection sampling over the 3^n ways to spread the conditions: uniform over the legal
        // assignments (at least 1680 of 19683 for nine conditions are legal).
        let held = self.held[seat.index()];
        loop {
            let mut sets = [ConditionSet::default(); 3];
            for c in held.iter() {
                sets[rng.random_range(0..3usize)].0 |= c.bit();
            }
            if sets.iter().all(|s| s.len() <= PER_SCORING_ROUND) {
                return Assignment(sets);
            }
        }
    }

    pub(super) fn singles(&self, seat: Seat, out: &mut Vec<Move>) {
        match self.stage {
            Stage::Pick(_) => {
                out.push(Move::Pick(self.pair[0]));
                if self.pair[1] != self.pair[0] {
                    out.push(Move::Pick(self.pair[1]));
                }
            }
            Stage::Discard(_) => {
                out.push(Move::Discard(false));
                out.push(Move::Discard(true));
            }
            Stage::WinnerStone | Stage::LoserStone => {
                out.extend(bits(self.stone_targets(seat)).map(Move::Stone));
            }
            Stage::GrayStone => {
                out.extend(bits(FULL & !self.grid.occupied()).map(Move::Stone));
            }
            Stage::WinnerMove | Stage::LoserMove => {
                if self.mover_card() == LEAP {
                    out.push(Move::Leap(None));
                    for c in bits(self.movable(seat, false)) {
                        out.extend(Direction::ALL.iter().map(|&d| Move::Leap(Some((c, d)))));
                    }
                } else {
                    out.push(Move::Shift(None));
                    let empty = FULL & !self.grid.occupied();
                    for c in bits(self.movable(seat, true)) {
                        for d in Direction::ALL {
                            if let Some(t) = c.step(d).filter(|t| empty & t.bit() != 0) {
                                out.push(Move::Shift(Some((c, t))));
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
}
