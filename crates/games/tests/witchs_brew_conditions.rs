//! The Witch's Brew's 18 victory conditions against a slow reference written from the seed text
//! (`/work/shared/seeds/witchs-brew.txt`, *Victory Conditions*) and RULINGS.md ("in a row" is
//! horizontal, vertical or diagonal; "empty spaces do not count"): cell by cell, on the picture
//! itself, sharing nothing with the game's bitboards. Random grids of every density, each seen
//! by both seats; every condition must come out both true and false many times, so a check that
//! is always one or the other cannot pass.

use colosseum_engine::{seeded_rng, Seat};
use colosseum_games::witchs_brew::{Condition, Grid, CONDITION_COUNT};
use rand::Rng;

const COLUMNS: i32 = 7;
const ROWS: i32 = 6;

/// What a cell holds, as the seat judging it sees it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Empty,
    Own,
    Opponent,
    Neutral,
}

/// A grid drawn as in `Grid::from_picture` (row 1 first; `X` p1, `O` p2, `+` neutral, `.` empty,
/// lower case frozen), read by one seat.
struct Picture<'a> {
    rows: &'a [String],
    seat: Seat,
}

impl Picture<'_> {
    fn char_at(&self, c: i32, r: i32) -> Option<char> {
        if !(0..COLUMNS).contains(&c) || !(0..ROWS).contains(&r) {
            return None;
        }
        self.rows[r as usize].chars().nth(c as usize)
    }

    /// `None` off the grid.
    fn kind(&self, c: i32, r: i32) -> Option<Kind> {
        let ch = self.char_at(c, r)?.to_ascii_uppercase();
        let (own, opponent) = match self.seat {
            Seat::P1 => ('X', 'O'),
            Seat::P2 => ('O', 'X'),
        };
        Some(match ch {
            '.' => Kind::Empty,
            '+' | '*' => Kind::Neutral,
            c if c == own => Kind::Own,
            c if c == opponent => Kind::Opponent,
            other => panic!("`{other}` in a picture"),
        })
    }

    fn frozen(&self, c: i32, r: i32) -> bool {
        self.char_at(c, r)
            .is_some_and(|ch| matches!(ch, 'x' | 'o' | '*'))
    }

    fn cells(&self) -> impl Iterator<Item = (i32, i32)> {
        (0..ROWS).flat_map(|r| (0..COLUMNS).map(move |c| (c, r)))
    }

    fn count(
        &self,
        cells: impl Iterator<Item = (i32, i32)>,
        wanted: impl Fn(i32, i32) -> bool,
    ) -> usize {
        cells.filter(|&(c, r)| wanted(c, r)).count()
    }

    /// Whether some `k` cells in a row (along a row, a column or either diagonal) all satisfy
    /// `fits`.
    fn in_a_row(&self, k: i32, fits: impl Fn(i32, i32) -> bool) -> bool {
        let directions = [(1, 0), (0, 1), (1, 1), (1, -1)];
        self.cells().any(|(c, r)| {
            directions.iter().any(|&(dc, dr)| {
                (0..k).all(|i| {
                    let (x, y) = (c + i * dc, r + i * dr);
                    self.kind(x, y).is_some() && fits(x, y)
                })
            })
        })
    }

    /// Whether some `side` × `side` square on the grid has at least `at_least` cells satisfying
    /// `fits`.
    fn square(&self, side: i32, at_least: usize, fits: impl Fn(i32, i32) -> bool) -> bool {
        (0..=ROWS - side).any(|r| {
            (0..=COLUMNS - side).any(|c| {
                let cells = (0..side).flat_map(|dr| (0..side).map(move |dc| (c + dc, r + dr)));
                self.count(cells, &fits) >= at_least
            })
        })
    }

    fn is(&self, c: i32, r: i32, kinds: &[Kind]) -> bool {
        self.kind(c, r).is_some_and(|k| kinds.contains(&k))
    }

    /// Not on the grid's border: every neighbour, orthogonal and diagonal, is on the grid.
    fn inner(c: i32, r: i32) -> bool {
        (1..COLUMNS - 1).contains(&c) && (1..ROWS - 1).contains(&r)
    }

    fn corner(c: i32, r: i32) -> bool {
        (c == 0 || c == COLUMNS - 1) && (r == 0 || r == ROWS - 1)
    }

    const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

    /// The seed's text of each condition, cell by cell.
    fn holds(&self, name: &str) -> bool {
        use Kind::{Neutral, Opponent, Own};
        let corners = [
            (0, 0),
            (COLUMNS - 1, 0),
            (0, ROWS - 1),
            (COLUMNS - 1, ROWS - 1),
        ];
        match name {
            // Five in a row of stones of your colour or neutral stones.
            "1A" => self.in_a_row(5, |c, r| self.is(c, r, &[Own, Neutral])),
            // A 3x3 square with at least five stones of your colour.
            "1B" => self.square(3, 5, |c, r| self.is(c, r, &[Own])),
            // At least six stones of your colour on row 3 or on row 4.
            "1C" => [2, 3].iter().any(|&r| {
                self.count((0..COLUMNS).map(|c| (c, r)), |c, r| self.is(c, r, &[Own])) >= 6
            }),
            // An opponent's stone not bordering an edge, every diagonal neighbour yours or neutral.
            "1D" => self.cells().any(|(c, r)| {
                Self::inner(c, r)
                    && self.is(c, r, &[Opponent])
                    && Self::DIAGONAL
                        .iter()
                        .all(|(dc, dr)| self.is(c + dc, r + dr, &[Own, Neutral]))
            }),
            // Four in a row of frozen stones (any colour).
            "1E" => self.in_a_row(4, |c, r| self.frozen(c, r)),
            // At least four frozen neutral stones.
            "1F" => {
                self.count(self.cells(), |c, r| {
                    self.frozen(c, r) && self.is(c, r, &[Neutral])
                }) >= 4
            }
            // Four in a row of stones of your colour.
            "2A" => self.in_a_row(4, |c, r| self.is(c, r, &[Own])),
            // A 2x2 square of stones of your colour.
            "2B" => self.square(2, 4, |c, r| self.is(c, r, &[Own])),
            // An opponent's stone not bordering an edge, every orthogonal neighbour yours or
            // neutral.
            "2C" => self.cells().any(|(c, r)| {
                Self::inner(c, r)
                    && self.is(c, r, &[Opponent])
                    && Self::ORTHOGONAL
                        .iter()
                        .all(|(dc, dr)| self.is(c + dc, r + dr, &[Own, Neutral]))
            }),
            // Strictly more of your stones on the four corners than the opponent's.
            "2D" => {
                self.count(corners.into_iter(), |c, r| self.is(c, r, &[Own]))
                    > self.count(corners.into_iter(), |c, r| self.is(c, r, &[Opponent]))
            }
            // At least three of your stones on column 4.
            "2E" => self.count((0..ROWS).map(|r| (3, r)), |c, r| self.is(c, r, &[Own])) >= 3,
            // More frozen stones of the opponent's colour than of yours.
            "2F" => {
                self.count(self.cells(), |c, r| {
                    self.frozen(c, r) && self.is(c, r, &[Opponent])
                }) > self.count(self.cells(), |c, r| {
                    self.frozen(c, r) && self.is(c, r, &[Own])
                })
            }
            // A stone of yours not in a corner with a stone of yours on every orthogonally
            // adjacent space (those on the grid).
            "3A" => self.cells().any(|(c, r)| {
                !Self::corner(c, r)
                    && self.is(c, r, &[Own])
                    && Self::ORTHOGONAL.iter().all(|(dc, dr)| {
                        self.kind(c + dc, r + dr).is_none() || self.is(c + dc, r + dr, &[Own])
                    })
            }),
            // A stone of yours not bordering the edge with a stone of yours on every diagonally
            // adjacent space.
            "3B" => self.cells().any(|(c, r)| {
                Self::inner(c, r)
                    && self.is(c, r, &[Own])
                    && Self::DIAGONAL
                        .iter()
                        .all(|(dc, dr)| self.is(c + dc, r + dr, &[Own]))
            }),
            // A 2x2 square of neutral stones.
            "3C" => self.square(2, 4, |c, r| self.is(c, r, &[Neutral])),
            // A column only of neutral stones or stones of yours (no empty space).
            "3D" => (0..COLUMNS).any(|c| (0..ROWS).all(|r| self.is(c, r, &[Own, Neutral]))),
            // A row only of neutral stones or stones of yours (no empty space).
            "3E" => (0..ROWS).any(|r| (0..COLUMNS).all(|c| self.is(c, r, &[Own, Neutral]))),
            // Four in a row of neutral stones.
            "3F" => self.in_a_row(4, |c, r| self.is(c, r, &[Neutral])),
            other => panic!("no condition {other}"),
        }
    }
}

/// A random grid: `fill` of the cells hold a stone; the weights of p1's, p2's and neutral stones
/// and the share of frozen stones vary from grid to grid, so that long lines, full rows and
/// columns and lopsided counts all occur.
fn random_picture(rng: &mut impl Rng) -> Vec<String> {
    let fill = rng.random_range(0.2..1.0);
    let weights = [
        rng.random_range(0.0..1.0),
        rng.random_range(0.0..1.0),
        rng.random_range(0.0..1.0f64),
    ];
    let frozen = [0.0, 0.2, 0.7][rng.random_range(0..3)];
    (0..ROWS)
        .map(|_| {
            (0..COLUMNS)
                .map(|_| {
                    if !rng.random_bool(fill) {
                        return '.';
                    }
                    let mut pick = rng.random_range(0.0..weights.iter().sum::<f64>().max(1e-9));
                    let mut stone = 2;
                    for (i, w) in weights.iter().enumerate() {
                        if pick < *w {
                            stone = i;
                            break;
                        }
                        pick -= w;
                    }
                    let ch = ['X', 'O', '+'][stone];
                    if rng.random_bool(frozen) {
                        ['x', 'o', '*'][stone]
                    } else {
                        ch
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn every_condition_agrees_with_the_seed_text_on_random_grids() {
    let mut rng = seeded_rng(19);
    let mut seen = [[0u32; 2]; CONDITION_COUNT as usize];
    for _ in 0..6_000 {
        let rows = random_picture(&mut rng);
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let grid = Grid::from_picture(&refs).unwrap();
        for seat in Seat::BOTH {
            let picture = Picture { rows: &rows, seat };
            for i in 0..CONDITION_COUNT {
                let condition = Condition::from_index(i).unwrap();
                let name = condition.to_string();
                let expected = picture.holds(&name);
                assert_eq!(
                    grid.meets(seat, condition),
                    expected,
                    "{name} for {seat} on\n{}",
                    rows.join("\n")
                );
                seen[usize::from(i)][usize::from(expected)] += 1;
            }
        }
    }
    for (i, [false_count, true_count]) in seen.iter().enumerate() {
        let name = Condition::from_index(i as u8).unwrap();
        assert!(
            *false_count >= 100 && *true_count >= 100,
            "{name}: true {true_count} times, false {false_count} times: the grids do not test it"
        );
    }
}

/// Hand-drawn positions at the edges of each condition's wording (p1 judges): the reference and
/// the game both give the expected answer.
#[test]
fn hand_drawn_edge_cases() {
    #[rustfmt::skip]
    let table: &[(&str, [&str; 6], bool)] = &[
        // Five in a row along the anti-diagonal, one of them neutral.
        ("1A", ["....X..", "...+...", "..X....", ".X.....", "X......", "......."], true),
        // Four and a frozen neutral stone make five; the sixth cell is empty.
        ("1A", ["XXX*X..", ".......", ".......", ".......", ".......", "......."], true),
        // A line of five broken by the opponent.
        ("1A", ["X......", "X......", "O......", "X......", "X......", "X......"], false),
        // Five in the 3x3 at the grid's bottom-right corner.
        ("1B", [".......", ".......", ".......", "....X.X", ".....X.", "....X.X"], true),
        // Five of p1's, spread over a 3x4 area: no 3x3 holds more than three.
        ("1B", ["X..X...", "X......", ".X.X...", ".......", ".......", "......."], false),
        // Six on row 4, not contiguous.
        ("1C", [".......", ".......", ".......", "XX.XXXX", ".......", "......."], true),
        // Six on row 5 do not count.
        ("1C", [".......", ".......", ".......", ".......", "XXXXXX.", "......."], false),
        // Three on row 3 and three on row 4.
        ("1C", [".......", ".......", "XXX....", "XXX....", ".......", "......."], false),
        // An inner opponent's stone, its diagonals two of p1's and two neutral.
        ("1D", [".......", "X.+....", ".O.....", "+.X....", ".......", "......."], true),
        // The same on the edge (column a) does not count.
        ("1D", [".X.....", "O......", ".+.....", ".......", ".......", "......."], false),
        // One diagonal empty.
        ("1D", [".......", "X.+....", ".O.....", "+......", ".......", "......."], false),
        // Four frozen stones of three kinds, vertical.
        ("1E", ["...x...", "...o...", "...*...", "...x...", ".......", "......."], true),
        // Four in a row, one of them not frozen.
        ("1E", ["xxoX...", ".......", ".......", ".......", ".......", "......."], false),
        // Four frozen neutrals anywhere.
        ("1F", ["*.....*", ".......", ".......", ".......", ".......", "*.....*"], true),
        // Three frozen neutrals and a plain one.
        ("1F", ["*.....*", ".......", ".......", ".......", ".......", "*.....+"], false),
        // Four of p1's on a diagonal ending in a corner.
        ("2A", [".......", ".......", "...X...", "....X..", ".....X.", "......X"], true),
        // Three and a neutral stone.
        ("2A", ["XXX+...", ".......", ".......", ".......", ".......", "......."], false),
        // A 2x2 of p1's, frozen ones count.
        ("2B", [".......", ".......", ".......", ".......", ".....xX", ".....Xx"], true),
        // A 2x2 with a hole at one corner.
        ("2B", ["XX.....", "X......", ".......", ".......", ".......", "......."], false),
        // An inner opponent's stone fenced by p1's and neutral stones.
        ("2C", [".......", ".......", ".....X.", "....+O+", ".....X.", "......."], true),
        // On row 1 it borders the edge.
        ("2C", ["X.O.X..", "...X...", ".......", ".......", ".......", "......."], false),
        // Two corners to one.
        ("2D", ["X.....O", ".......", ".......", ".......", ".......", "X......"], true),
        // One corner each.
        ("2D", ["X.....O", ".......", ".......", ".......", ".......", "......."], false),
        // Three on column d.
        ("2E", ["...X...", ".......", "...X...", ".......", ".......", "...X..."], true),
        // Three on column c.
        ("2E", ["..X....", "..X....", "..X....", ".......", ".......", "......."], false),
        // Two frozen opponent's stones to one of p1's.
        ("2F", ["oo.x...", ".......", ".......", ".......", ".......", "......."], true),
        // One each.
        ("2F", ["o..x...", ".......", ".......", ".......", ".......", "......."], false),
        // An edge stone (a3) with its three neighbours p1's.
        ("3A", [".......", "X......", "XX.....", "X......", ".......", "......."], true),
        // A corner stone with both neighbours p1's does not count (and b1 lacks b2).
        ("3A", ["XX.....", "X......", ".......", ".......", ".......", "......."], false),
        // A neutral neighbour is not p1's.
        ("3A", [".......", "X......", "X+.....", "X......", ".......", "......."], false),
        // An inner stone with its four diagonals p1's.
        ("3B", [".......", ".......", "..X.X..", "...X...", "..X.X..", "......."], true),
        // The same shape on the top edge.
        ("3B", ["...X...", "..X.X..", ".......", ".......", ".......", "......."], false),
        // A 2x2 of neutral stones, frozen ones too.
        ("3C", [".......", ".......", ".......", ".......", "+*.....", "*+....."], true),
        // Three neutral and one of p1's.
        ("3C", [".......", ".......", ".......", ".......", "++.....", "+X....."], false),
        // Column g of p1's and neutral stones.
        ("3D", ["......X", "......+", "......x", "......X", "......*", "......X"], true),
        // Column g with an empty cell.
        ("3D", ["......X", "......+", "......X", "......X", "......+", "......."], false),
        // Row 6 of p1's and neutral stones.
        ("3E", [".......", ".......", ".......", ".......", ".......", "X+XX*xX"], true),
        // Row 6 with an opponent's stone.
        ("3E", [".......", ".......", ".......", ".......", ".......", "X+XXOXX"], false),
        // Four neutral stones on a diagonal.
        ("3F", ["+......", ".+.....", "..*....", "...+...", ".......", "......."], true),
        // Three neutral stones and a gap.
        ("3F", ["++.+...", ".......", ".......", ".......", ".......", "......."], false),
    ];
    for (name, rows, expected) in table {
        let owned: Vec<String> = rows.iter().map(|r| (*r).to_string()).collect();
        let picture = Picture {
            rows: &owned,
            seat: Seat::P1,
        };
        assert_eq!(
            picture.holds(name),
            *expected,
            "the reference on {name}:\n{}",
            rows.join("\n")
        );
        let grid = Grid::from_picture(rows).unwrap();
        let condition = Condition::parse(name).unwrap();
        assert_eq!(
            grid.meets(Seat::P1, condition),
            *expected,
            "the game on {name}:\n{}",
            rows.join("\n")
        );
    }
    // Every condition has at least one true and one false position.
    for i in 0..CONDITION_COUNT {
        let name = Condition::from_index(i).unwrap().to_string();
        for want in [true, false] {
            assert!(
                table.iter().any(|(n, _, e)| *n == name && *e == want),
                "{name} has no {want} case"
            );
        }
    }
}
