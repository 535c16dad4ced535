//! Reading moves and chance steps: what players type and records hold (the rules page's
//! notation). Output is each type's `Display`.

use super::*;

impl WitchsBrew {
    pub(super) fn parse_in_stage(&self, text: &str) -> Result<Move, NotationError> {
        let tokens: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .collect();
        let bad = |why: String| NotationError::mv(text, why);
        // A pass word where no pass is allowed: say so, and what the decision takes.
        let unpassable = match self.stage {
            Stage::Pick(_) => Some(("a pick", "pick a card (`5`) or a condition (`2C`)")),
            Stage::Assign => Some((
                "the assignment",
                "write the conditions for rounds 6, 9 and 12, `-` for none: `1A 2B / 3C / -`",
            )),
            Stage::PlayCards => {
                Some(("a card play", "play a card 1-8 with its choice: `5`, `2 d`"))
            }
            Stage::WinnerStone | Stage::LoserStone | Stage::GrayStone => {
                Some(("a stone", "place it on an empty cell, a1 to g6"))
            }
            _ => None,
        };
        if let Some((what, shape)) = unpassable {
            if crate::text::is_pass(text) {
                return Err(bad(crate::text::not_passable(what, shape)));
            }
            if tokens.is_empty() {
                return Err(bad(crate::text::empty_submission(shape)));
            }
        }
        match self.stage {
            Stage::Pick(_) => {
                let [t] = tokens[..] else {
                    return Err(bad(
                        "pick one prize: a card (`5`) or a condition (`2C`)".into()
                    ));
                };
                parse_prize(t).map(Move::Pick).ok_or_else(|| {
                    bad(format!("`{t}` is neither a card 1-8 nor a condition 1A-3F"))
                })
            }
            // Keeping is the Discard's pass: the pass words every game shares keep too.
            Stage::Discard(_) if crate::text::is_pass(text) => Ok(Move::Discard(false)),
            Stage::Discard(_) => match text.trim().to_ascii_lowercase().as_str() {
                "discard" | "yes" | "y" => Ok(Move::Discard(true)),
                "keep" | "no" | "n" => Ok(Move::Discard(false)),
                "" => Err(bad(crate::text::empty_submission(
                    "write `discard` or `keep` (also `pass`, `none` or `no submission`)",
                ))),
                _ => Err(bad(
                    "write `discard` or `keep` (also `pass`, `none` or `no submission`)".into(),
                )),
            },
            Stage::Assign => parse_assignment(text).map(Move::Assign),
            Stage::PlayCards => parse_play(text, &tokens).map(Move::Play),
            Stage::WinnerStone | Stage::LoserStone | Stage::GrayStone => {
                let [t] = tokens[..] else {
                    return Err(bad("write one cell, a1 to g6".into()));
                };
                Cell::parse(t)
                    .map(Move::Stone)
                    .ok_or_else(|| bad(format!("`{t}` is not a cell: columns a-g, rows 1-6")))
            }
            Stage::WinnerMove | Stage::LoserMove => {
                let leap = self.mover_card() == LEAP;
                // The pass words every game shares ([`crate::text::is_pass`]); an empty text is
                // not a move (a pass is said on purpose).
                if crate::text::is_pass(text) {
                    return Ok(if leap {
                        Move::Leap(None)
                    } else {
                        Move::Shift(None)
                    });
                }
                let shape = if leap {
                    "a Leap is a stone and a direction, such as `c3 up`, or `pass` (also `none` or `no submission`)"
                } else {
                    "a Shift is a stone and the empty neighbour it moves to, such as `c3 c4`, or `pass` (also `none` or `no submission`)"
                };
                if tokens.is_empty() {
                    return Err(bad(crate::text::empty_submission(shape)));
                }
                let [a, b] = tokens[..] else {
                    return Err(bad(shape.into()));
                };
                let from =
                    Cell::parse(a).ok_or_else(|| bad(format!("`{a}` is not a cell; {shape}")))?;
                if leap {
                    let d = Direction::parse(b).ok_or_else(|| {
                        bad(format!("`{b}` is not up, down, left or right; {shape}"))
                    })?;
                    Ok(Move::Leap(Some((from, d))))
                } else {
                    let to = Cell::parse(b)
                        .ok_or_else(|| bad(format!("`{b}` is not a cell; {shape}")))?;
                    Ok(Move::Shift(Some((from, to))))
                }
            }
            Stage::DrawPair | Stage::Race => Err(bad(
                "no seat moves now: chance acts (the prize pair or the race)".into(),
            )),
            Stage::Over => Err(bad("no move is expected: the game is over".into())),
        }
    }
}

pub(super) fn parse_prize(t: &str) -> Option<Prize> {
    if let Ok(n) = t.parse::<u8>() {
        return (1..=8).contains(&n).then_some(Prize::Card(n));
    }
    Condition::parse(t).map(Prize::Condition)
}

pub(super) fn parse_assignment(text: &str) -> Result<Assignment, NotationError> {
    const SHAPE: &str = "write the conditions for rounds 6, 9 and 12 separated by `/`, `-` for none, such as `1A 2B / 3C / -`";
    let groups: Vec<&str> = text.split('/').collect();
    if groups.len() != 3 {
        return Err(NotationError::mv(text, SHAPE));
    }
    let mut sets = [ConditionSet::default(); 3];
    for (k, g) in groups.iter().enumerate() {
        for t in g
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty() && *t != "-")
        {
            let c = Condition::parse(t).ok_or_else(|| {
                NotationError::mv(text, format!("`{t}` is not a condition 1A-3F; {SHAPE}"))
            })?;
            if sets[k].contains(c) {
                return Err(NotationError::mv(text, format!("{c} is written twice")));
            }
            sets[k].0 |= c.bit();
        }
    }
    Ok(Assignment(sets))
}

pub(super) fn parse_play(text: &str, tokens: &[&str]) -> Result<Play, NotationError> {
    const SHAPE: &str = "a card 1-8 with its choice: `1`, `2 d` (Lock column), `3 7` (Guess), `6 c3 d4` (Freeze up to three stones); `dup 2 d` plays the Duplicard as that card";
    let bad = |why: String| NotationError::mv(text, why);
    let mut rest = tokens;
    let duplicard = matches!(rest.first(), Some(t) if matches!(t.to_ascii_lowercase().as_str(), "dup" | "duplicard" | "d"));
    if duplicard {
        rest = &rest[1..];
    }
    let Some((first, rest)) = rest.split_first() else {
        return Err(bad(SHAPE.into()));
    };
    let card: u8 = first
        .parse()
        .ok()
        .filter(|c| (1..=8).contains(c))
        .ok_or_else(|| bad(format!("`{first}` is not a card 1-8; {SHAPE}")))?;
    let secondary = match card {
        LOCK => {
            let [t] = rest else {
                return Err(bad("Lock names one column: `2 d`".into()));
            };
            let b = t.as_bytes();
            if b.len() != 1 || !b[0].is_ascii_alphabetic() {
                return Err(bad(format!("`{t}` is not a column; columns run a to g")));
            }
            let c = b[0].to_ascii_lowercase() - b'a';
            if usize::from(c) >= COLUMNS {
                return Err(bad(format!(
                    "column {} is off the grid; columns run a to g",
                    char::from(b[0].to_ascii_lowercase())
                )));
            }
            Secondary::Column(c)
        }
        GUESS => {
            let [t] = rest else {
                return Err(bad("Guess names one card: `3 7`".into()));
            };
            let g: u8 = t
                .parse()
                .ok()
                .filter(|g| (1..=8).contains(g))
                .ok_or_else(|| bad(format!("`{t}` is not a card 1-8 to guess")))?;
            Secondary::Guess(g)
        }
        FREEZE => {
            if rest.len() > 3 {
                return Err(bad("Freeze names at most three stones".into()));
            }
            let mut cells = [Cell::default(); 3];
            for (slot, t) in cells.iter_mut().zip(rest) {
                *slot = Cell::parse(t)
                    .ok_or_else(|| bad(format!("`{t}` is not a cell: columns a-g, rows 1-6")))?;
            }
            cells[..rest.len()].sort_unstable();
            Secondary::Freeze {
                cells,
                len: rest.len() as u8,
            }
        }
        _ => {
            if !rest.is_empty() {
                return Err(bad(format!(
                    "{card} ({}) takes no secondary choice",
                    card_name(card)
                )));
            }
            Secondary::None
        }
    };
    Ok(Play {
        card,
        duplicard,
        secondary,
    })
}

pub(super) fn parse_chance_text(text: &str) -> Result<Chance, NotationError> {
    const SHAPE: &str =
        "a card pair (`3 7`), a condition pair (`1A 2C`), or a race result (`p1`, `p2`, `none`)";
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    match tokens[..] {
        [t] => match t.to_ascii_lowercase().as_str() {
            "p1" => Ok(Chance::Race(Some(Seat::P1))),
            "p2" => Ok(Chance::Race(Some(Seat::P2))),
            "none" => Ok(Chance::Race(None)),
            _ => Err(NotationError::chance(text, SHAPE)),
        },
        [a, b] => match (parse_prize(a), parse_prize(b)) {
            (Some(Prize::Card(x)), Some(Prize::Card(y))) => Ok(Chance::Cards(x.min(y), x.max(y))),
            (Some(Prize::Condition(x)), Some(Prize::Condition(y))) if x != y => {
                Ok(Chance::Conditions(x.min(y), x.max(y)))
            }
            (Some(Prize::Condition(_)), Some(Prize::Condition(_))) => Err(NotationError::chance(
                text,
                "a pair of two different victory conditions",
            )),
            _ => Err(NotationError::chance(text, SHAPE)),
        },
        _ => Err(NotationError::chance(text, SHAPE)),
    }
}
