//! Classic Goofspiel (prizes in descending order, point-difference returns) solved exactly for
//! every pair of hands, up to 13 cards and beyond, stored as a compact table.
//!
//! With point-difference returns the points already won only add to the result, so a position is
//! the pair of hands (the prize up is the hand size `k`, the prizes left are `1..=k`), and its
//! value for the player holding `h1` is the value of the matrix game whose entry for the cards
//! `(x, y)` is `k · sign(x − y) + value(h1 − x, h2 − y)`. Goofspiel(N) has C(2N, N) positions
//! (10,400,600 at N = 13), solved level by level from one card each up to N:
//!
//! * hands of `k` cards are numbered by their colexicographic rank (the combinatorial number
//!   system), so a level is two flat `f64` arrays, no hash map;
//! * `value(h1, h2) = −value(h2, h1)` (the seats swap roles), so only the pairs with
//!   `rank(h1) ≤ rank(h2)` are solved, and the row player's strategy at `(h2, h1)` is the column
//!   player's at `(h1, h2)`; a pair of equal hands is worth 0;
//! * each matrix game (at most N × N, dense) is first checked for a saddle point and otherwise
//!   solved by the simplex pivot method for matrix games on its compact (k + 1) × (k + 1)
//!   tableau ([`solve_small`]), whose result is checked by its certificate (the row strategy
//!   guarantees the value against every column, the column strategy concedes no more against
//!   every row); a game whose certificate misses by more than 1e-9 is solved again by linear
//!   programming;
//! * the rows of a level are shared among threads (`std::thread::scope`).
//!
//! [`check`] is the independent test of a table: best responses against the stored strategies,
//! level by level over every ordered pair of hands, with no matrix game solved.
//!
//! The file format ([`GoofspielTable::save`], [`GoofspielTable::open`]) is documented in
//! `docs/goofspiel-solution.md`.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::Mutex;

use colosseum_engine::RawOptions;
use colosseum_games::goofspiel::{GoofspielOptions, PrizeOrder, ReturnsType};

use crate::solver::{solve_matrix_game, Cards, GoofspielSolution, MatrixSolution};

/// The table under a name that names no game, for the command line (which names none).
pub type Table = GoofspielTable;

/// The largest N the table solver accepts: N = 14 needs about 2.6 GB in memory (40 million
/// positions), N = 15 four times that.
pub const MAX_CARDS: u32 = 14;

/// What `colosseum solve` supports, for help texts and refusals.
pub const SUPPORTED: &str = "goofspiel with -o cards=N for N from 1 to 14, prizes in descending \
     order (-o order=descending, the default here) and point-difference returns \
     (-o returns=point_difference, the default here)";

/// The one game the table solver supports.
pub const GAME: &str = "goofspiel";

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"CLSMGOOF";

/// The file format's version.
pub const VERSION: u32 = 1;

/// Returns code in the header: point difference.
const RETURNS_POINT_DIFFERENCE: u32 = 1;

/// The number of cards of a `colosseum solve` setting, checked: the game must be classic
/// Goofspiel with descending prizes and point-difference returns (both the defaults here); the
/// error says what is supported.
pub fn setting(game: &str, options: &RawOptions) -> Result<u32, String> {
    if game != GAME {
        return Err(format!(
            "the exact table solver does not solve `{game}`; it supports {SUPPORTED}"
        ));
    }
    let mut options = options.clone();
    options
        .entry("order")
        .or_insert_with(|| serde_json::json!("descending"));
    options
        .entry("returns")
        .or_insert_with(|| serde_json::json!("point_difference"));
    let checked = GoofspielOptions::from_raw(&options).map_err(|e| e.to_string())?;
    if checked.order != PrizeOrder::Descending {
        return Err(format!(
            "prizes in random or ascending order are not solved by the table; it supports {SUPPORTED}"
        ));
    }
    if checked.returns != ReturnsType::PointDifference {
        return Err(format!(
            "the table is solved for point-difference returns only (the value of a position does \
             not depend on the points won so far only then); it supports {SUPPORTED}"
        ));
    }
    let cards = u32::from(checked.cards);
    if cards > MAX_CARDS {
        return Err(format!(
            "cards={cards} is too large for memory (cards=15 needs about 10 GB); it supports {SUPPORTED}"
        ));
    }
    Ok(cards)
}

/// Why a table could not be solved, read or written.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// N out of range.
    #[error("cards={0} is not supported: the table solver takes 1 to {MAX_CARDS} cards")]
    Cards(u32),
    /// A matrix game the simplex and the LP both failed on.
    #[error("the matrix game at hands {h1:#x}/{h2:#x} could not be solved: {reason}")]
    Matrix {
        /// The row player's hand.
        h1: Cards,
        /// The column player's hand.
        h2: Cards,
        /// What failed.
        reason: String,
    },
    /// Reading or writing the file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a table of this format.
    #[error("{path}: {reason}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// Binomial coefficients C(n, k) for n, k ≤ 32.
fn binomials() -> [[u64; 33]; 33] {
    let mut c = [[0u64; 33]; 33];
    for n in 0..33 {
        c[n][0] = 1;
        for k in 1..=n {
            c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
        }
    }
    c
}

fn binomial(n: u32, k: u32) -> usize {
    if k > n {
        return 0;
    }
    let mut r: u64 = 1;
    for i in 0..u64::from(k) {
        r = r * (u64::from(n) - i) / (i + 1);
    }
    r as usize
}

/// The colexicographic rank of a hand among the hands of its size: Σ C(p_i, i) over its cards'
/// bit positions p_1 < p_2 < … (from i = 1).
#[must_use]
pub fn colex_rank(hand: Cards) -> usize {
    let c = binomials_static();
    let mut rank = 0u64;
    let mut rest = hand;
    let mut i = 1;
    while rest != 0 {
        let p = rest.trailing_zeros() as usize;
        rank += c[p][i];
        i += 1;
        rest &= rest - 1;
    }
    rank as usize
}

fn binomials_static() -> &'static [[u64; 33]; 33] {
    use std::sync::OnceLock;
    static C: OnceLock<[[u64; 33]; 33]> = OnceLock::new();
    C.get_or_init(binomials)
}

/// The hands of `k` cards out of `n`, in colexicographic order (Gosper's hack enumerates
/// them in increasing numeric order, which is the colex order).
fn hands(n: u32, k: u32) -> Vec<Cards> {
    let mut out = Vec::with_capacity(binomial(n, k));
    if k == 0 {
        out.push(0);
        return out;
    }
    let limit: u64 = 1 << n;
    let mut h: u64 = (1 << k) - 1;
    while h < limit {
        out.push(h as Cards);
        let c = h & h.wrapping_neg();
        let r = h + c;
        h = (((r ^ h) >> 2) / c) | r;
    }
    out
}

/// Index of the pair `(r1, r2)`, `r1 ≤ r2`, in the upper triangle of an `m × m` level, row by
/// row.
fn triangle(m: usize, r1: usize, r2: usize) -> usize {
    debug_assert!(r1 <= r2 && r2 < m);
    r1 * m - r1 * r1.saturating_sub(1) / 2 + (r2 - r1)
}

/// The probabilities of a level, as stored.
#[derive(Clone, Debug)]
enum Probs {
    F32(Vec<f32>),
    F64(Vec<f64>),
}

impl Probs {
    fn get(&self, i: usize) -> f64 {
        match self {
            Probs::F32(v) => f64::from(v[i]),
            Probs::F64(v) => v[i],
        }
    }
}

/// The stored precision of the strategies in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// 4-byte IEEE floats (half the size; a probability is off by at most 6e-8 of itself).
    F32,
    /// 8-byte IEEE floats (as solved).
    F64,
}

impl Precision {
    fn bytes(self) -> u32 {
        match self {
            Precision::F32 => 4,
            Precision::F64 => 8,
        }
    }
}

impl std::str::FromStr for Precision {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "f32" => Ok(Precision::F32),
            "f64" => Ok(Precision::F64),
            _ => Err(format!("unknown precision `{s}`: f32 or f64")),
        }
    }
}

/// What [`GoofspielTable::save`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Saved {
    /// The file's size in bytes.
    pub bytes: u64,
    /// The FNV-1a (64-bit) checksum of everything before the last 8 bytes, which hold it.
    pub checksum: u64,
}

/// One level: the hands of `k` cards.
#[derive(Clone, Debug)]
struct Level {
    k: usize,
    /// C(N, k).
    m: usize,
    /// `values[r1 · m + r2]`: the value for the holder of hand `r1` against hand `r2`.
    values: Vec<f64>,
    /// Per pair `r1 ≤ r2` (upper triangle, row by row): the row player's strategy (k cards
    /// ascending), then the column player's.
    probs: Probs,
}

/// Figures of a solve, per level.
#[derive(Clone, Debug, Default)]
pub struct LevelStats {
    /// Cards in each hand.
    pub k: u32,
    /// Matrix games solved (pairs with `rank(h1) ≤ rank(h2)`).
    pub games: u64,
    /// Of which with a saddle point (pure strategies).
    pub saddles: u64,
    /// Simplex pivots over the level.
    pub pivots: u64,
    /// Games the simplex left to the LP.
    pub lp_fallbacks: u64,
    /// The largest certificate gap (max over rows of A·y minus min over columns of x·A).
    pub max_gap: f64,
    /// Seconds spent on the level.
    pub seconds: f64,
}

/// Classic Goofspiel with N cards, descending prizes, point-difference returns: the value and
/// both seats' equilibrium strategies at every pair of hands.
#[derive(Clone, Debug)]
pub struct GoofspielTable {
    n: u32,
    levels: Vec<Level>,
    precision: Precision,
    /// Figures of the solve (empty for a table read from a file).
    pub stats: Vec<LevelStats>,
}

/// Positions of Goofspiel(n): C(2n, n) ordered pairs of hands (the empty pair included).
#[must_use]
pub fn positions(n: u32) -> u64 {
    (0..=n).map(|k| (binomial(n, k) as u64).pow(2)).sum()
}

/// Matrix games the table solver solves for Goofspiel(n): the pairs `rank(h1) ≤ rank(h2)` of
/// every level from 1 card up.
#[must_use]
pub fn games(n: u32) -> u64 {
    (1..=n)
        .map(|k| {
            let m = binomial(n, k) as u64;
            m * (m + 1) / 2
        })
        .sum()
}

/// A reusable buffer for one thread's matrix games.
struct Work {
    a: Vec<f64>,
    x: Vec<f64>,
    y: Vec<f64>,
}

/// What one level's matrix games are built from.
struct LevelInput<'a> {
    /// Cards in each hand.
    k: usize,
    /// The prize up.
    prize: f64,
    /// Each hand's cards ascending, `k` per hand by rank.
    cards: &'a [u8],
    /// The rank (one level down) of each hand less each of its cards, `k` per hand.
    child: &'a [u32],
    /// Hands one level down.
    below_m: usize,
    /// Values one level down, `below[r1 · below_m + r2]`.
    below: &'a [f64],
}

impl LevelInput<'_> {
    /// The matrix game of hands `r1` (rows) against `r2`: the prize won, lost or split, plus
    /// the value of the position reached.
    fn fill(&self, a: &mut [f64], r1: usize, r2: usize) {
        let k = self.k;
        let (c1, c2) = (
            &self.cards[r1 * k..(r1 + 1) * k],
            &self.cards[r2 * k..(r2 + 1) * k],
        );
        let (ch1, ch2) = (
            &self.child[r1 * k..(r1 + 1) * k],
            &self.child[r2 * k..(r2 + 1) * k],
        );
        let prize = self.prize;
        for i in 0..k {
            let below = &self.below[ch1[i] as usize * self.below_m..];
            for j in 0..k {
                let points = match c1[i].cmp(&c2[j]) {
                    std::cmp::Ordering::Greater => prize,
                    std::cmp::Ordering::Less => -prize,
                    std::cmp::Ordering::Equal => 0.0,
                };
                a[i * k + j] = points + below[ch2[j] as usize];
            }
        }
    }
}

/// How far a certificate may miss for the simplex's answer to be taken.
const CERTIFIED: f64 = 1e-9;

/// Solves the `k × k` game in `work.a` into `work.x` and `work.y`, returning its value: by
/// [`solve_small`], or by the LP if the simplex fails or its certificate misses by more than
/// [`CERTIFIED`].
fn solve_position(work: &mut Work, k: usize, stats: &mut LevelStats) -> Result<f64, String> {
    if let Some(s) = solve_small(&work.a, k, k, &mut work.x, &mut work.y) {
        stats.pivots += u64::from(s.pivots);
        stats.saddles += u64::from(s.saddle);
        let (g, c) = certificate(&work.a, k, k, &work.x, &work.y);
        if c - g <= CERTIFIED && g <= s.value + CERTIFIED && c >= s.value - CERTIFIED {
            stats.max_gap = stats.max_gap.max(c - g);
            return Ok(s.value);
        }
    }
    stats.lp_fallbacks += 1;
    let rows: Vec<Vec<f64>> = work.a.chunks(k).map(<[f64]>::to_vec).collect();
    let s = solve_matrix_game(&rows).map_err(|e| e.to_string())?;
    work.x.copy_from_slice(&s.row);
    work.y.copy_from_slice(&s.column);
    let (g, c) = certificate(&work.a, k, k, &work.x, &work.y);
    stats.max_gap = stats.max_gap.max(c - g);
    Ok(s.value)
}

/// A mutex's guard, poisoned or not (a panicking thread takes the scope down anyway).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl LevelStats {
    fn add(&mut self, other: &LevelStats) {
        self.games += other.games;
        self.saddles += other.saddles;
        self.pivots += other.pivots;
        self.lp_fallbacks += other.lp_fallbacks;
        self.max_gap = self.max_gap.max(other.max_gap);
    }
}

/// What [`solve_small`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmallSolve {
    /// The value for the row player.
    pub value: f64,
    /// Pivots made (0 for a saddle point).
    pub pivots: u32,
    /// Whether a saddle point was found (pure strategies).
    pub saddle: bool,
}

/// The largest matrix [`solve_small`] takes (rows and columns).
pub const SMALL_MAX: usize = 16;

/// Solves the zero-sum matrix game `a` (`rows × cols`, row-major, payoffs to the row player)
/// exactly up to rounding: a saddle point if there is one, else the simplex pivot method for
/// matrix games (Ferguson, *Game Theory*, II.4.5) on the compact tableau of `a` shifted to
/// positive entries, the entering column by the most negative bottom entry (Bland's smallest
/// label after 4·(rows + cols) pivots, which cannot cycle). Writes both optimal strategies to
/// `x` and `y`. `None` if the tableau breaks down (a numerical failure; callers then use the LP).
pub fn solve_small(
    a: &[f64],
    rows: usize,
    cols: usize,
    x: &mut [f64],
    y: &mut [f64],
) -> Option<SmallSolve> {
    assert!(rows >= 1 && cols >= 1 && rows <= SMALL_MAX && cols <= SMALL_MAX);
    assert!(a.len() >= rows * cols && x.len() >= rows && y.len() >= cols);
    // A saddle point: max over rows of the row minimum equals min over columns of the column
    // maximum.
    let (mut lower, mut best_row) = (f64::NEG_INFINITY, 0);
    let mut min_entry = f64::INFINITY;
    for i in 0..rows {
        let row = &a[i * cols..(i + 1) * cols];
        let low = row.iter().copied().fold(f64::INFINITY, f64::min);
        min_entry = min_entry.min(low);
        if low > lower {
            (lower, best_row) = (low, i);
        }
    }
    let (mut upper, mut best_col) = (f64::INFINITY, 0);
    for j in 0..cols {
        let high = (0..rows)
            .map(|i| a[i * cols + j])
            .fold(f64::NEG_INFINITY, f64::max);
        if high < upper {
            (upper, best_col) = (high, j);
        }
    }
    x[..rows].fill(0.0);
    y[..cols].fill(0.0);
    if lower == upper {
        x[best_row] = 1.0;
        y[best_col] = 1.0;
        return Some(SmallSolve {
            value: lower,
            pivots: 0,
            saddle: true,
        });
    }
    // The tableau: rows × cols of a + shift (all ≥ 1), a right column of 1s, a bottom row of
    // −1s, 0 in the corner. Labels: the row player's variables 0..rows start on the left, the
    // column player's SMALL_MAX + j on top.
    let shift = 1.0 - min_entry;
    let w = cols + 1;
    let mut t = [0.0f64; (SMALL_MAX + 1) * (SMALL_MAX + 1)];
    for i in 0..rows {
        for j in 0..cols {
            t[i * w + j] = a[i * cols + j] + shift;
        }
        t[i * w + cols] = 1.0;
    }
    for j in 0..cols {
        t[rows * w + j] = -1.0;
    }
    let mut left = [0usize; SMALL_MAX];
    let mut top = [0usize; SMALL_MAX];
    for (i, l) in left.iter_mut().enumerate().take(rows) {
        *l = i;
    }
    for (j, l) in top.iter_mut().enumerate().take(cols) {
        *l = SMALL_MAX + j;
    }
    const EPS: f64 = 1e-12;
    let bland_after = 4 * (rows + cols) as u32;
    let mut pivots = 0u32;
    loop {
        let bottom = &t[rows * w..rows * w + cols];
        let q = if pivots < bland_after {
            let (mut q, mut most) = (usize::MAX, -EPS);
            for (j, &b) in bottom.iter().enumerate() {
                if b < most {
                    (q, most) = (j, b);
                }
            }
            q
        } else {
            let mut q = usize::MAX;
            for (j, &b) in bottom.iter().enumerate() {
                if b < -EPS && (q == usize::MAX || top[j] < top[q]) {
                    q = j;
                }
            }
            q
        };
        if q == usize::MAX {
            break;
        }
        if pivots > 50 * (rows + cols) as u32 {
            return None;
        }
        let mut p = usize::MAX;
        let mut best = f64::INFINITY;
        for i in 0..rows {
            let e = t[i * w + q];
            if e > EPS {
                let ratio = t[i * w + cols] / e;
                if ratio < best - 1e-15
                    || (ratio <= best + 1e-15 && p != usize::MAX && left[i] < left[p])
                {
                    (p, best) = (i, ratio);
                }
            }
        }
        if p == usize::MAX {
            return None;
        }
        let pv = t[p * w + q];
        for i in 0..=rows {
            if i == p {
                continue;
            }
            let factor = t[i * w + q] / pv;
            if factor != 0.0 {
                for j in 0..w {
                    if j != q {
                        t[i * w + j] -= t[p * w + j] * factor;
                    }
                }
            }
            t[i * w + q] = -factor;
        }
        for j in 0..w {
            if j != q {
                t[p * w + j] /= pv;
            }
        }
        t[p * w + q] = 1.0 / pv;
        std::mem::swap(&mut left[p], &mut top[q]);
        pivots += 1;
    }
    let corner = t[rows * w + cols];
    if corner <= 0.0 || !corner.is_finite() {
        return None;
    }
    // The row player's variables on top take the bottom entry of their column, the column
    // player's on the left the right entry of their row, each over the corner.
    for j in 0..cols {
        if top[j] < SMALL_MAX {
            x[top[j]] = (t[rows * w + j] / corner).max(0.0);
        }
    }
    for i in 0..rows {
        if left[i] >= SMALL_MAX {
            y[left[i] - SMALL_MAX] = (t[i * w + cols] / corner).max(0.0);
        }
    }
    let (sx, sy): (f64, f64) = (x[..rows].iter().sum(), y[..cols].iter().sum());
    if !(sx > 0.5 && sy > 0.5) {
        return None;
    }
    x[..rows].iter_mut().for_each(|p| *p /= sx);
    y[..cols].iter_mut().for_each(|p| *p /= sy);
    Some(SmallSolve {
        value: 1.0 / corner - shift,
        pivots,
        saddle: false,
    })
}

/// The certificate of strategies `x`, `y` in the game `a`: (min over columns of x·A, max over
/// rows of A·y). For optimal strategies both equal the value.
#[must_use]
pub fn certificate(a: &[f64], rows: usize, cols: usize, x: &[f64], y: &[f64]) -> (f64, f64) {
    let guaranteed = (0..cols)
        .map(|j| (0..rows).map(|i| x[i] * a[i * cols + j]).sum::<f64>())
        .fold(f64::INFINITY, f64::min);
    let conceded = (0..rows)
        .map(|i| (0..cols).map(|j| y[j] * a[i * cols + j]).sum::<f64>())
        .fold(f64::NEG_INFINITY, f64::max);
    (guaranteed, conceded)
}

/// The cards of a hand, ascending (1-based).
fn cards_of(hand: Cards) -> impl Iterator<Item = u32> {
    (0..32).filter(move |p| hand & (1 << p) != 0).map(|p| p + 1)
}

impl GoofspielTable {
    /// Solves Goofspiel(n) on `threads` threads (at least 1), calling `progress` with the number
    /// of matrix games just solved (they add up to [`games`]`(n)`).
    pub fn solve(
        n: u32,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Self, TableError> {
        if n == 0 || n > MAX_CARDS {
            return Err(TableError::Cards(n));
        }
        let threads = threads.max(1);
        let mut levels = vec![Level {
            k: 0,
            m: 1,
            values: vec![0.0],
            probs: Probs::F64(Vec::new()),
        }];
        let mut stats = Vec::new();
        let mut previous_hands = hands(n, 0);
        for k in 1..=n {
            let start = std::time::Instant::now();
            let level_hands = hands(n, k);
            let m = level_hands.len();
            let ku = k as usize;
            // For each hand, its cards and the rank of the hand left after playing each.
            let mut cards = Vec::with_capacity(m * ku);
            let mut child = Vec::with_capacity(m * ku);
            {
                let prev_rank: std::collections::HashMap<Cards, u32> = previous_hands
                    .iter()
                    .enumerate()
                    .map(|(r, &h)| (h, r as u32))
                    .collect();
                for &h in &level_hands {
                    for c in cards_of(h) {
                        cards.push(c as u8);
                        child.push(prev_rank[&(h & !(1 << (c - 1)))]);
                    }
                }
            }
            let below = levels.last().expect("level 0 is there");
            let mut values = vec![0.0f64; m * m];
            let mut probs = vec![0.0f64; m * (m + 1) / 2 * 2 * ku];
            // Hand out the rows r1 (each with its pairs r2 ≥ r1) to the threads.
            let mut rows: Vec<(usize, &mut [f64], &mut [f64])> = Vec::with_capacity(m);
            {
                let mut rest_probs: &mut [f64] = &mut probs;
                for (r1, row_values) in values.chunks_mut(m).enumerate() {
                    let (mine, rest) = rest_probs.split_at_mut((m - r1) * 2 * ku);
                    rest_probs = rest;
                    rows.push((r1, row_values, mine));
                }
            }
            let queue = Mutex::new(rows.into_iter());
            let totals = Mutex::new(LevelStats {
                k,
                ..LevelStats::default()
            });
            let failure: Mutex<Option<TableError>> = Mutex::new(None);
            let input = LevelInput {
                k: ku,
                prize: f64::from(k),
                cards: &cards,
                child: &child,
                below_m: below.m,
                below: &below.values,
            };
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|| {
                        let mut work = Work {
                            a: vec![0.0; ku * ku],
                            x: vec![0.0; ku],
                            y: vec![0.0; ku],
                        };
                        let mut mine = LevelStats::default();
                        loop {
                            // The guard is dropped here, before the row is solved.
                            let next = lock(&queue).next();
                            let Some((r1, row_values, row_probs)) = next else {
                                break;
                            };
                            for r2 in r1..m {
                                input.fill(&mut work.a, r1, r2);
                                let value = match solve_position(&mut work, ku, &mut mine) {
                                    Ok(v) => v,
                                    Err(reason) => {
                                        *lock(&failure) = Some(TableError::Matrix {
                                            h1: level_hands[r1],
                                            h2: level_hands[r2],
                                            reason,
                                        });
                                        return;
                                    }
                                };
                                let at = (r2 - r1) * 2 * ku;
                                let (xs, ys) = row_probs[at..at + 2 * ku].split_at_mut(ku);
                                xs.copy_from_slice(&work.x);
                                if r1 == r2 {
                                    // Equal hands make the game skew-symmetric (A = −Aᵀ
                                    // exactly, the values below being antisymmetric): it is
                                    // worth exactly 0, and the row player's optimal strategy
                                    // is the column player's too.
                                    ys.copy_from_slice(&work.x);
                                    row_values[r2] = 0.0;
                                } else {
                                    ys.copy_from_slice(&work.y);
                                    row_values[r2] = value;
                                }
                            }
                            mine.games += (m - r1) as u64;
                            progress((m - r1) as u64);
                        }
                        lock(&totals).add(&mine);
                    });
                }
            });
            if let Some(e) = failure
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
            {
                return Err(e);
            }
            // The lower triangle by antisymmetry.
            for r1 in 0..m {
                for r2 in r1 + 1..m {
                    values[r2 * m + r1] = -values[r1 * m + r2];
                }
            }
            let mut level_stats = totals
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            level_stats.seconds = start.elapsed().as_secs_f64();
            stats.push(level_stats);
            levels.push(Level {
                k: ku,
                m,
                values,
                probs: Probs::F64(probs),
            });
            previous_hands = level_hands;
        }
        Ok(GoofspielTable {
            n,
            levels,
            precision: Precision::F64,
            stats,
        })
    }

    /// N.
    #[must_use]
    pub fn cards(&self) -> u32 {
        self.n
    }

    /// The precision the strategies are held in (f64 when solved, the file's when read).
    #[must_use]
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// The hands' level and ranks, if both are hands of the same size within N cards.
    fn locate(&self, h1: Cards, h2: Cards) -> Option<(&Level, usize, usize)> {
        let full: u64 = (1u64 << self.n) - 1;
        if u64::from(h1) & !full != 0 || u64::from(h2) & !full != 0 {
            return None;
        }
        if h1.count_ones() != h2.count_ones() {
            return None;
        }
        let level = &self.levels[h1.count_ones() as usize];
        Some((level, colex_rank(h1), colex_rank(h2)))
    }

    /// The value, in points, of the rest of the game for the player holding `h1` against the
    /// player holding `h2` (cards as bits, bit `c − 1` for card `c`; the prize up is the hand
    /// size); `None` unless both are hands of the same size within N cards.
    #[must_use]
    pub fn value(&self, h1: Cards, h2: Cards) -> Option<f64> {
        let (level, r1, r2) = self.locate(h1, h2)?;
        Some(level.values[r1 * level.m + r2])
    }

    /// The equilibrium strategy of the player holding `h1` against `h2`: its cards ascending, each
    /// with its probability (empty for empty hands). The other player's is `strategy(h2, h1)`.
    #[must_use]
    pub fn strategy(&self, h1: Cards, h2: Cards) -> Option<Vec<(u32, f64)>> {
        let (level, r1, r2) = self.locate(h1, h2)?;
        let k = level.k;
        let base = if r1 <= r2 {
            triangle(level.m, r1, r2) * 2 * k
        } else {
            triangle(level.m, r2, r1) * 2 * k + k
        };
        Some(
            cards_of(h1)
                .enumerate()
                .map(|(i, c)| (c, level.probs.get(base + i)))
                .collect(),
        )
    }

    /// The value of the whole game (0: the game is symmetric).
    #[must_use]
    pub fn root_value(&self) -> f64 {
        self.levels[self.n as usize].values[0]
    }

    /// The root's equilibrium strategy (either seat's: they are the same).
    #[must_use]
    pub fn root_strategy(&self) -> Vec<(u32, f64)> {
        let full = ((1u64 << self.n) - 1) as Cards;
        self.strategy(full, full).unwrap_or_default()
    }

    /// The same solution in [`GoofspielSolution`]'s form (a map of every position; for small N).
    #[must_use]
    pub fn to_solution(&self) -> GoofspielSolution {
        let mut nodes = std::collections::HashMap::new();
        for k in 1..=self.n {
            for &h1 in &hands(self.n, k) {
                for &h2 in &hands(self.n, k) {
                    let row = self.strategy(h1, h2).unwrap_or_default();
                    let column = self.strategy(h2, h1).unwrap_or_default();
                    nodes.insert(
                        (h1, h2),
                        MatrixSolution {
                            value: self.value(h1, h2).unwrap_or(0.0),
                            row: row.into_iter().map(|(_, p)| p).collect(),
                            column: column.into_iter().map(|(_, p)| p).collect(),
                        },
                    );
                }
            }
        }
        GoofspielSolution { n: self.n, nodes }
    }

    /// Writes the table in the documented format (`docs/goofspiel-solution.md`), strategies in
    /// `precision`. Returns the bytes written and the file's FNV-1a checksum (its last 8 bytes).
    pub fn save(&self, path: &Path, precision: Precision) -> Result<Saved, TableError> {
        let io = |source| TableError::Io {
            path: path.display().to_string(),
            source,
        };
        let file = File::create(path).map_err(io)?;
        let mut out = Hashing::new(BufWriter::with_capacity(1 << 20, file));
        let mut header = Vec::new();
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&self.n.to_le_bytes());
        header.extend_from_slice(&RETURNS_POINT_DIFFERENCE.to_le_bytes());
        header.extend_from_slice(&precision.bytes().to_le_bytes());
        for prize in (1..=self.n).rev() {
            header.push(prize as u8);
        }
        while header.len() % 8 != 0 {
            header.push(0);
        }
        out.write_all(&header).map_err(io)?;
        let mut buf = Vec::with_capacity(1 << 16);
        for level in &self.levels[1..] {
            let m = level.m;
            for r1 in 0..m {
                for r2 in r1..m {
                    buf.extend_from_slice(&level.values[r1 * m + r2].to_le_bytes());
                }
                if buf.len() >= 1 << 16 {
                    out.write_all(&buf).map_err(io)?;
                    buf.clear();
                }
            }
            let count = m * (m + 1) / 2 * 2 * level.k;
            for i in 0..count {
                let p = level.probs.get(i);
                match precision {
                    Precision::F32 => buf.extend_from_slice(&(p as f32).to_le_bytes()),
                    Precision::F64 => buf.extend_from_slice(&p.to_le_bytes()),
                }
                if buf.len() >= 1 << 16 {
                    out.write_all(&buf).map_err(io)?;
                    buf.clear();
                }
            }
        }
        out.write_all(&buf).map_err(io)?;
        let sum = out.hash;
        out.inner.write_all(&sum.to_le_bytes()).map_err(io)?;
        out.inner.flush().map_err(io)?;
        Ok(Saved {
            bytes: out.written + 8,
            checksum: sum,
        })
    }

    /// Reads a table written by [`GoofspielTable::save`], streamed into arrays; the checksum and
    /// every field are checked.
    pub fn open(path: &Path) -> Result<Self, TableError> {
        let name = path.display().to_string();
        let bad = |reason: String| TableError::Format {
            path: name.clone(),
            reason,
        };
        let file = File::open(path).map_err(|source| TableError::Io {
            path: name.clone(),
            source,
        })?;
        let length = file.metadata().map(|m| m.len()).unwrap_or(0);
        let mut input = Hashing::new(BufReader::with_capacity(1 << 20, file));
        let mut read = |buf: &mut [u8], what: &str| {
            input.read_exact(buf).map_err(|e| {
                if e.kind() == std::io::ErrorKind::UnexpectedEof {
                    bad(format!("the file ends inside {what}"))
                } else {
                    bad(format!("reading {what}: {e}"))
                }
            })
        };
        let mut head = [0u8; 24];
        read(&mut head, "the header")?;
        if &head[..8] != MAGIC {
            return Err(bad(format!(
                "not a Goofspiel table (the file does not start with {:?})",
                std::str::from_utf8(MAGIC).unwrap_or_default()
            )));
        }
        let word = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().expect("4 bytes"));
        let (version, n, returns, bytes) = (word(8), word(12), word(16), word(20));
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}; this build reads version {VERSION}"
            )));
        }
        if n == 0 || n > MAX_CARDS {
            return Err(bad(format!(
                "N = {n}; the tables have 1 to {MAX_CARDS} cards"
            )));
        }
        if returns != RETURNS_POINT_DIFFERENCE {
            return Err(bad(format!(
                "returns code {returns}; only {RETURNS_POINT_DIFFERENCE} (point difference) is known"
            )));
        }
        let precision = match bytes {
            4 => Precision::F32,
            8 => Precision::F64,
            _ => {
                return Err(bad(format!(
                    "probability size {bytes}; 4 or 8 bytes are known"
                )))
            }
        };
        let mut order = vec![0u8; (n as usize).div_ceil(8) * 8];
        read(&mut order, "the prize order")?;
        let expected: Vec<u8> = (1..=n as u8).rev().collect();
        if order[..n as usize] != expected[..] || order[n as usize..].iter().any(|&b| b != 0) {
            return Err(bad(format!(
                "prize order {:?}; only descending ({expected:?}) is known",
                &order[..n as usize]
            )));
        }
        let mut levels = vec![Level {
            k: 0,
            m: 1,
            values: vec![0.0],
            probs: Probs::F64(Vec::new()),
        }];
        let mut chunk = vec![0u8; 1 << 16];
        for k in 1..=n as usize {
            let m = binomial(n, k as u32);
            let pairs = m * (m + 1) / 2;
            let mut values = vec![0.0f64; m * m];
            let mut upper = Vec::with_capacity(pairs);
            read_numbers(
                &mut read,
                &mut chunk,
                pairs,
                8,
                &format!("level {k}'s values"),
                |b| {
                    upper.push(f64::from_le_bytes(b.try_into().expect("8 bytes")));
                },
            )?;
            let mut it = upper.into_iter();
            for r1 in 0..m {
                for r2 in r1..m {
                    let v = it.next().expect("counted");
                    values[r1 * m + r2] = v;
                    if r2 != r1 {
                        values[r2 * m + r1] = -v;
                    }
                }
            }
            let count = pairs * 2 * k;
            let what = format!("level {k}'s strategies");
            let probs = match precision {
                Precision::F32 => {
                    let mut v = Vec::with_capacity(count);
                    read_numbers(&mut read, &mut chunk, count, 4, &what, |b| {
                        v.push(f32::from_le_bytes(b.try_into().expect("4 bytes")));
                    })?;
                    Probs::F32(v)
                }
                Precision::F64 => {
                    let mut v = Vec::with_capacity(count);
                    read_numbers(&mut read, &mut chunk, count, 8, &what, |b| {
                        v.push(f64::from_le_bytes(b.try_into().expect("8 bytes")));
                    })?;
                    Probs::F64(v)
                }
            };
            levels.push(Level {
                k,
                m,
                values,
                probs,
            });
        }
        let sum = input.hash;
        let mut tail = [0u8; 8];
        input
            .inner
            .read_exact(&mut tail)
            .map_err(|_| bad("the file ends before its checksum (truncated?)".to_string()))?;
        if u64::from_le_bytes(tail) != sum {
            return Err(bad(format!(
                "checksum mismatch (stored {:016x}, computed {sum:016x}): the file is damaged",
                u64::from_le_bytes(tail)
            )));
        }
        let mut extra = [0u8; 1];
        if input.inner.read(&mut extra).unwrap_or(0) != 0 {
            return Err(bad(format!(
                "{length} bytes, more than a table of {n} cards holds"
            )));
        }
        Ok(GoofspielTable {
            n,
            levels,
            precision,
            stats: Vec::new(),
        })
    }

    /// The size in bytes of a file of Goofspiel(n) in `precision`.
    #[must_use]
    pub fn file_size(n: u32, precision: Precision) -> u64 {
        let header = 24 + u64::from(n).div_ceil(8) * 8;
        let body: u64 = (1..=n)
            .map(|k| {
                let m = binomial(n, k) as u64;
                let pairs = m * (m + 1) / 2;
                pairs * 8 + pairs * 2 * u64::from(k) * u64::from(precision.bytes())
            })
            .sum();
        header + body + 8
    }
}

fn read_numbers(
    read: &mut impl FnMut(&mut [u8], &str) -> Result<(), TableError>,
    chunk: &mut [u8],
    count: usize,
    size: usize,
    what: &str,
    mut each: impl FnMut(&[u8]),
) -> Result<(), TableError> {
    let per = chunk.len() / size;
    let mut left = count;
    while left > 0 {
        let now = left.min(per);
        let buf = &mut chunk[..now * size];
        read(buf, what)?;
        for b in buf.chunks_exact(size) {
            each(b);
        }
        left -= now;
    }
    Ok(())
}

/// FNV-1a (64 bits) over everything read or written through it.
struct Hashing<T> {
    inner: T,
    hash: u64,
    written: u64,
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

impl<T> Hashing<T> {
    fn new(inner: T) -> Self {
        Hashing {
            inner,
            hash: FNV_OFFSET,
            written: 0,
        }
    }
    fn absorb(&mut self, bytes: &[u8]) {
        let mut h = self.hash;
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(FNV_PRIME);
        }
        self.hash = h;
        self.written += bytes.len() as u64;
    }
}

impl<T: Write> Write for Hashing<T> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.absorb(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<T: Read> Read for Hashing<T> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.absorb(&buf[..n]);
        Ok(n)
    }
}

/// What [`check`] found.
#[derive(Clone, Debug, Default)]
pub struct Check {
    /// N.
    pub cards: u32,
    /// The stored value of the whole game.
    pub root_value: f64,
    /// The stored value minus what p2's best reply holds p1's stored strategy to, at the root.
    pub against_p1: f64,
    /// What p1's best reply gets against p2's stored strategy minus the stored value, at the
    /// root.
    pub against_p2: f64,
    /// Over every position, the most a best reply gains against either stored strategy there
    /// relative to the stored value (the table is an equilibrium in every subgame when this is
    /// 0).
    pub worst_position: f64,
    /// The largest difference between a stored value and −(the value with the hands swapped)
    /// (0 for a table that is antisymmetric as it must be).
    pub antisymmetry: f64,
    /// The largest |1 − Σ p| over the stored strategies, and whether any probability was
    /// negative.
    pub sum_error: f64,
    /// Whether any stored probability was negative or not finite.
    pub negative: bool,
    /// Ordered pairs of hands checked.
    pub positions: u64,
}

impl Check {
    /// What best replies gain against both seats' stored strategies at the root, added up
    /// (OpenSpiel's `nash_conv`).
    #[must_use]
    pub fn nash_conv(&self) -> f64 {
        self.against_p1 + self.against_p2
    }

    /// The exploitability at the root as OpenSpiel defines it: the mean of what a best reply
    /// gains against each seat's stored strategy (half of [`Check::nash_conv`]).
    #[must_use]
    pub fn exploitability(&self) -> f64 {
        self.nash_conv() / 2.0
    }
}

/// Checks a table independently of its solve: for every ordered pair of hands, level by level
/// from the last card up, the value p1's stored strategy guarantees against p2's best pure reply
/// (and p2's stored strategy against p1's), each reply's continuation the best-reply value of
/// the position reached (so a reply may exploit the stored strategies all the way down). No
/// matrix game is solved and the solve's index tables are not used: the hands are enumerated
/// and ranked afresh, the strategies read through [`GoofspielTable::strategy`].
pub fn check(table: &GoofspielTable, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> Check {
    let n = table.n;
    let mut result = Check {
        cards: n,
        root_value: table.root_value(),
        ..Check::default()
    };
    // Best-reply values one level down: [against p1's strategy, against p2's], by rank pair.
    let mut below: [Vec<f64>; 2] = [vec![0.0], vec![0.0]];
    let mut below_m = 1usize;
    result.positions = 1;
    for k in 1..=n {
        let level_hands = hands(n, k);
        let m = level_hands.len();
        let mut now: [Vec<f64>; 2] = [vec![0.0; m * m], vec![0.0; m * m]];
        let totals = Mutex::new((0.0f64, 0.0f64, 0.0f64, false));
        {
            let mut rows: Vec<(usize, &mut [f64], &mut [f64])> = Vec::with_capacity(m);
            let [a, b] = &mut now;
            for (r1, (ra, rb)) in a.chunks_mut(m).zip(b.chunks_mut(m)).enumerate() {
                rows.push((r1, ra, rb));
            }
            let queue = Mutex::new(rows.into_iter());
            let below = &below;
            std::thread::scope(|scope| {
                for _ in 0..threads.max(1) {
                    scope.spawn(|| {
                        let (mut worst, mut anti, mut sum_error, mut negative) =
                            (0.0f64, 0.0f64, 0.0f64, false);
                        loop {
                            let next = queue
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .next();
                            let Some((r1, against_p1, against_p2)) = next else {
                                break;
                            };
                            let h1 = level_hands[r1];
                            let children = |h: Cards| -> Vec<usize> {
                                cards_of(h)
                                    .map(|c| colex_rank(h & !(1 << (c - 1))))
                                    .collect()
                            };
                            let ch1 = children(h1);
                            let prize = f64::from(k);
                            for r2 in 0..m {
                                let h2 = level_hands[r2];
                                let ch2 = children(h2);
                                let v = table.value(h1, h2).unwrap_or(f64::NAN);
                                anti =
                                    anti.max((v + table.value(h2, h1).unwrap_or(f64::NAN)).abs());
                                let xs = table.strategy(h1, h2).unwrap_or_default();
                                let ys = table.strategy(h2, h1).unwrap_or_default();
                                for s in [&xs, &ys] {
                                    let total: f64 = s.iter().map(|&(_, p)| p).sum();
                                    sum_error = sum_error.max((total - 1.0).abs());
                                    negative |= s.iter().any(|&(_, p)| !p.is_finite() || p < 0.0);
                                }
                                let entry = |i: usize, j: usize, which: usize| {
                                    let (x, y) = (xs[i].0, ys[j].0);
                                    let points = if x > y {
                                        prize
                                    } else if x < y {
                                        -prize
                                    } else {
                                        0.0
                                    };
                                    points + below[which][ch1[i] * below_m + ch2[j]]
                                };
                                // p2 replies to p1's stored strategy: the worst column for p1.
                                let held = (0..ys.len())
                                    .map(|j| {
                                        (0..xs.len()).map(|i| xs[i].1 * entry(i, j, 0)).sum::<f64>()
                                    })
                                    .fold(f64::INFINITY, f64::min);
                                // p1 replies to p2's stored strategy: the best row.
                                let got = (0..xs.len())
                                    .map(|i| {
                                        (0..ys.len()).map(|j| ys[j].1 * entry(i, j, 1)).sum::<f64>()
                                    })
                                    .fold(f64::NEG_INFINITY, f64::max);
                                against_p1[r2] = held;
                                against_p2[r2] = got;
                                worst = worst.max(v - held).max(got - v);
                                if !(held.is_finite() && got.is_finite() && v.is_finite()) {
                                    worst = f64::INFINITY;
                                }
                            }
                            progress(m as u64);
                        }
                        let mut t = totals
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner);
                        t.0 = t.0.max(worst);
                        t.1 = t.1.max(anti);
                        t.2 = t.2.max(sum_error);
                        t.3 |= negative;
                    });
                }
            });
        }
        let (worst, anti, sum_error, negative) = totals
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        result.worst_position = result.worst_position.max(worst);
        result.antisymmetry = result.antisymmetry.max(anti);
        result.sum_error = result.sum_error.max(sum_error);
        result.negative |= negative;
        result.positions += (m * m) as u64;
        below = now;
        below_m = m;
    }
    result.against_p1 = result.root_value - below[0][0];
    result.against_p2 = below[1][0] - result.root_value;
    result
}

/// Figures of a solve of classic Goofspiel with the prizes in random order ([`random_order`]).
#[derive(Clone, Debug, Default)]
pub struct RandomOrder {
    /// N.
    pub cards: u32,
    /// The value of the game before the first prize is drawn (0: the game is symmetric).
    pub root_value: f64,
    /// Positions (both hands and the prizes left, same size, before a prize is drawn).
    pub positions: u64,
    /// Matrix games solved (one per prize that can come up, pairs with rank(h1) < rank(h2)).
    pub games: u64,
    /// Values held at once at the widest two levels, in bytes.
    pub peak_bytes: u64,
    /// The values one card before the end of the first round (N − 1 cards each, N − 1 prizes
    /// left), `[rank(prizes) · m² + rank(h1) · m + rank(h2)]`, m = C(N, N − 1) = N.
    below_root: Vec<f64>,
}

impl RandomOrder {
    /// The value, for the holder of `h1`, of the position with `h1` against `h2` and `prizes`
    /// left, before a prize is drawn, for N − 1 cards each (the positions after the first
    /// round); `None` for other sizes.
    #[must_use]
    pub fn value_after_first_round(&self, h1: Cards, h2: Cards, prizes: Cards) -> Option<f64> {
        let k = self.cards.checked_sub(1)?;
        let full = (1u64 << self.cards) - 1;
        if [h1, h2, prizes]
            .iter()
            .any(|&h| h.count_ones() != k || u64::from(h) & !full != 0)
        {
            return None;
        }
        let m = binomial(self.cards, k);
        let at = colex_rank(prizes) * m * m + colex_rank(h1) * m + colex_rank(h2);
        self.below_root.get(at).copied()
    }
}

/// The moonshot of issue 21: classic Goofspiel with point-difference returns and the prizes
/// drawn at random, solved exactly for its value (no strategies kept). A position is both
/// hands and the set of prizes left (C(N, k)³ at k cards); its value is the mean, over the
/// prize drawn, of the matrix game whose entries add the prize won to the value of the
/// position reached. Same indexing (colex ranks, prize sets ranked like hands), antisymmetry
/// (only rank(h1) < rank(h2); equal hands are worth 0) and matrix-game solver as the table.
pub fn random_order(n: u32, threads: usize) -> Result<RandomOrder, TableError> {
    if n == 0 || n > 16 {
        return Err(TableError::Cards(n));
    }
    let mut below: Vec<f64> = vec![0.0];
    let mut below_m = 1usize;
    let mut previous = hands(n, 0);
    let mut figures = RandomOrder {
        cards: n,
        positions: 1,
        ..RandomOrder::default()
    };
    for k in 1..=n {
        let level = hands(n, k);
        let m = level.len();
        let ku = k as usize;
        let rank_below: std::collections::HashMap<Cards, u32> = previous
            .iter()
            .enumerate()
            .map(|(r, &h)| (h, r as u32))
            .collect();
        let mut cards = Vec::with_capacity(m * ku);
        let mut child = Vec::with_capacity(m * ku);
        for &h in &level {
            for c in cards_of(h) {
                cards.push(c as u8);
                child.push(rank_below[&(h & !(1 << (c - 1)))]);
            }
        }
        let mut values = vec![0.0f64; m * m * m];
        figures.peak_bytes = figures
            .peak_bytes
            .max(8 * (values.len() + below.len()) as u64);
        let queue = Mutex::new(values.chunks_mut(m * m).enumerate());
        let games = Mutex::new(0u64);
        let failure: Mutex<Option<TableError>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let mut work = Work {
                        a: vec![0.0; ku * ku],
                        x: vec![0.0; ku],
                        y: vec![0.0; ku],
                    };
                    let mut stats = LevelStats::default();
                    loop {
                        let next = lock(&queue).next();
                        let Some((rp, slab)) = next else {
                            break;
                        };
                        // The prizes that can come up and the prize set left after each.
                        let prizes = &cards[rp * ku..(rp + 1) * ku];
                        let prizes_after = &child[rp * ku..(rp + 1) * ku];
                        for r1 in 0..m {
                            for r2 in r1 + 1..m {
                                let mut total = 0.0;
                                for (&prize, &after) in prizes.iter().zip(prizes_after) {
                                    let input = LevelInput {
                                        k: ku,
                                        prize: f64::from(prize),
                                        cards: &cards,
                                        child: &child,
                                        below_m,
                                        below: &below[after as usize * below_m * below_m..],
                                    };
                                    input.fill(&mut work.a, r1, r2);
                                    match solve_position(&mut work, ku, &mut stats) {
                                        Ok(v) => total += v,
                                        Err(reason) => {
                                            *lock(&failure) = Some(TableError::Matrix {
                                                h1: level[r1],
                                                h2: level[r2],
                                                reason,
                                            });
                                            return;
                                        }
                                    }
                                }
                                let v = total / k as f64;
                                slab[r1 * m + r2] = v;
                                slab[r2 * m + r1] = -v;
                            }
                        }
                        *lock(&games) += (m * (m - 1) / 2 * ku) as u64;
                    }
                });
            }
        });
        if let Some(e) = failure
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            return Err(e);
        }
        figures.games += games
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        figures.positions += (m * m * m) as u64;
        if k == n {
            figures.below_root = std::mem::take(&mut below);
        }
        below = values;
        below_m = m;
        previous = level;
    }
    figures.root_value = below[0];
    Ok(figures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_ranks_number_each_level_from_zero() {
        for n in 1..=8 {
            for k in 0..=n {
                let hs = hands(n, k);
                assert_eq!(hs.len(), binomial(n, k));
                for (r, &h) in hs.iter().enumerate() {
                    assert_eq!(colex_rank(h), r, "n = {n}, k = {k}, hand {h:#b}");
                    assert_eq!(h.count_ones(), k);
                }
            }
        }
        for (m, r1, r2, want) in [
            (5, 0, 0, 0),
            (5, 0, 4, 4),
            (5, 1, 1, 5),
            (5, 2, 2, 9),
            (5, 4, 4, 14),
        ] {
            assert_eq!(triangle(m, r1, r2), want);
        }
    }
}
