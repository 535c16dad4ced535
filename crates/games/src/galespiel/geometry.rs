//! The lattice of Galespiel (reconstructed): 13×13 points, columns `a`..`m`, rows `1`..`13` (row 1
//! at the top). Brown (`p1`) dots stand where the 0-based column is even and the row odd, blue
//! (`p2`) dots where the column is odd and the row even. The 61 spots are the points where both
//! are odd, or both even off the border. Each spot carries one bridge for each colour: at an
//! odd/odd spot brown's runs horizontally and blue's vertically; at an even/even spot brown's runs
//! vertically and blue's horizontally.
//!
//! Everything here is computed once, at compile time, into fixed tables ([`Geometry`], built from
//! the lattice's side: 13 for the seed, and the small variant's 5 and 9, a variant for research);
//! the searches (connection, surrounding, cheapest crossing) work on 64-bit sets of spots and
//! dots. The free functions and [`Spot`]'s and [`Point`]'s methods are the seed's 13×13 lattice;
//! the game calls the methods of its own [`Geometry`].

use std::fmt;

use colosseum_engine::Seat;

/// Points per side of the lattice.
pub const SIDE: usize = 13;
/// The number of spots.
pub const SPOTS: usize = 61;
/// The number of dots of each colour.
pub const DOTS: usize = 42;
/// Every spot, as a set.
pub const ALL_SPOTS: u64 = (1u64 << SPOTS) - 1;
/// Every dot of one colour, as a set.
pub const ALL_DOTS: u64 = (1u64 << DOTS) - 1;

/// A point of the lattice: column 0 (`a`) .. 12 (`m`), row 0 (row `1`, the top) .. 12.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Point {
    /// 0-based column.
    pub col: u8,
    /// 0-based row (0 is the top).
    pub row: u8,
}

impl Point {
    /// Parses `a1`..`m13`, case-insensitive.
    #[must_use]
    pub fn parse(text: &str) -> Option<Point> {
        GEO.parse_point(text)
    }

    /// Parses a point of a lattice of side `side`: `a1` up to its last column and row.
    fn parse_in(text: &str, side: usize) -> Option<Point> {
        let t = text.trim();
        let mut chars = t.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() || usize::from(letter as u8 - b'a') >= side {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: u8 = digits.parse().ok()?;
        if !(1..=side as u8).contains(&row) {
            return None;
        }
        Some(Point {
            col: letter as u8 - b'a',
            row: row - 1,
        })
    }

    /// The spot at this point, if there is one.
    #[must_use]
    pub fn spot(self) -> Option<Spot> {
        GEO.spot_at(self)
    }

    /// What stands at this point, in words (for error messages).
    #[must_use]
    pub fn describe(self) -> &'static str {
        GEO.describe(self)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col), self.row + 1)
    }
}

/// One of the 61 spots, numbered in reading order (row by row from the top, left to right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Spot(u8);

impl Spot {
    /// The spot with index `i` (`0..61`).
    ///
    /// # Panics
    /// If `i` is not below 61.
    #[must_use]
    pub fn from_index(i: usize) -> Spot {
        assert!(i < SPOTS, "spot index {i} out of range");
        Spot(i as u8)
    }

    /// The spot's index, 0..61.
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The spot's point on the 13×13 lattice.
    #[must_use]
    pub fn point(self) -> Point {
        GEO.point(self)
    }

    /// The spot as a one-element set.
    #[must_use]
    pub fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The two dots of `seat`'s colour that `seat`'s bridge on this spot joins (13×13).
    #[must_use]
    pub fn ends(self, seat: Seat) -> (Dot, Dot) {
        GEO.ends(self, seat)
    }

    /// Whether `seat`'s bridge on this spot runs horizontally (13×13).
    #[must_use]
    pub fn is_horizontal_for(self, seat: Seat) -> bool {
        GEO.is_horizontal_for(self, seat)
    }

    /// Parses a spot name of the 13×13 lattice such as `c3`; `None` if it is not a spot.
    #[must_use]
    pub fn parse(text: &str) -> Option<Spot> {
        GEO.parse_spot(text)
    }

    /// Every spot in a set, in index order.
    pub fn iter(set: u64) -> impl Iterator<Item = Spot> {
        let mut bits = set;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(Spot(i))
        })
    }
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.point().fmt(f)
    }
}

/// A dot of one colour, numbered row by row from the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dot(pub u8);

impl Dot {
    /// The dot's point on the 13×13 lattice, for `seat`'s colour.
    #[must_use]
    pub fn point(self, seat: Seat) -> Point {
        GEO.dot_point[seat.index()][usize::from(self.0)]
    }

    /// The dot of `seat`'s colour at `point` of the 13×13 lattice, if one stands there.
    #[must_use]
    pub fn at(seat: Seat, point: Point) -> Option<Dot> {
        GEO.dot_at(seat, point)
    }
}

const NONE: u8 = u8::MAX;

/// The fixed tables of a lattice of side `side` (odd, at most [`SIDE`]): spots and dots numbered
/// row by row from the top, in arrays sized for the seed's 13×13 (the first `spots` and `dots`
/// entries used).
#[derive(Debug)]
pub struct Geometry {
    side: u8,
    spots: u8,
    /// Dots of each colour (the same number for both).
    dots: u8,
    /// Dots in a row of each colour's grid: `(side + 1) / 2` brown, `(side - 1) / 2` blue.
    width: [u8; 2],
    spot_at: [u8; SIDE * SIDE],
    spot_point: [Point; SPOTS],
    /// Per colour and spot, the two dots its bridge joins.
    ends: [[(u8, u8); SPOTS]; 2],
    /// Per colour and dot, up to four (spot, neighbour dot) pairs.
    adj: [[[(u8, u8); 4]; DOTS]; 2],
    adj_len: [[u8; DOTS]; 2],
    /// Per colour and spot, its bridge as an edge of the dot grid: the bit of its lower dot in
    /// the horizontal-edge set (first) or the vertical-edge set (second); the other is 0.
    edge: [[(u64, u64); SPOTS]; 2],
    /// Per colour, every horizontal and every vertical edge.
    all_edges: [(u64, u64); 2],
    dot_point: [[Point; DOTS]; 2],
    /// Per colour, the dots on the edge it starts from (brown: left, blue: top) and the edge it
    /// must reach (brown: right, blue: bottom).
    edges: [[u64; 2]; 2],
}

const fn is_spot(side: usize, col: usize, row: usize) -> bool {
    (col % 2 == 1 && row % 2 == 1)
        || (col.is_multiple_of(2)
            && row.is_multiple_of(2)
            && col > 0
            && col < side - 1
            && row > 0
            && row < side - 1)
}

/// The index of the dot of colour `colour` (0 brown, 1 blue) at a point of that colour, on a
/// lattice of side `side` (7 brown and 6 blue dots a row on the seed's).
const fn dot_index(side: usize, colour: usize, col: usize, row: usize) -> u8 {
    if colour == 0 {
        ((row / 2) * side.div_ceil(2) + col / 2) as u8
    } else {
        ((row / 2) * (side / 2) + col / 2) as u8
    }
}

/// The tables of the lattice of side `side` (odd, 3 to [`SIDE`]).
const fn build(side: usize) -> Geometry {
    assert!(side % 2 == 1 && side >= 3 && side <= SIDE);
    let origin = Point { col: 0, row: 0 };
    let mut g = Geometry {
        side: side as u8,
        spots: 0,
        dots: (side.div_ceil(2) * (side / 2)) as u8,
        width: [side.div_ceil(2) as u8, (side / 2) as u8],
        spot_at: [NONE; SIDE * SIDE],
        spot_point: [origin; SPOTS],
        ends: [[(0, 0); SPOTS]; 2],
        adj: [[[(0, 0); 4]; DOTS]; 2],
        adj_len: [[0; DOTS]; 2],
        edge: [[(0, 0); SPOTS]; 2],
        all_edges: [(0, 0); 2],
        dot_point: [[origin; DOTS]; 2],
        edges: [[0; 2]; 2],
    };
    let mut n = 0;
    let mut row = 0;
    while row < side {
        let mut col = 0;
        while col < side {
            let point = Point {
                col: col as u8,
                row: row as u8,
            };
            if is_spot(side, col, row) {
                g.spot_at[row * side + col] = n as u8;
                g.spot_point[n] = point;
                // Brown's bridge: horizontal at odd/odd, vertical at even/even; blue's the other.
                let odd = col % 2 == 1;
                let horizontal = [odd, !odd];
                let mut colour = 0;
                while colour < 2 {
                    let (a, b) = if horizontal[colour] {
                        (
                            dot_index(side, colour, col - 1, row),
                            dot_index(side, colour, col + 1, row),
                        )
                    } else {
                        (
                            dot_index(side, colour, col, row - 1),
                            dot_index(side, colour, col, row + 1),
                        )
                    };
                    g.ends[colour][n] = (a, b);
                    let bit = 1u64 << a;
                    if horizontal[colour] {
                        g.edge[colour][n] = (bit, 0);
                        g.all_edges[colour].0 |= bit;
                    } else {
                        g.edge[colour][n] = (0, bit);
                        g.all_edges[colour].1 |= bit;
                    }
                    let la = g.adj_len[colour][a as usize] as usize;
                    g.adj[colour][a as usize][la] = (n as u8, b);
                    g.adj_len[colour][a as usize] += 1;
                    let lb = g.adj_len[colour][b as usize] as usize;
                    g.adj[colour][b as usize][lb] = (n as u8, a);
                    g.adj_len[colour][b as usize] += 1;
                    colour += 1;
                }
                n += 1;
            } else if col.is_multiple_of(2) && row % 2 == 1 {
                let d = dot_index(side, 0, col, row);
                g.dot_point[0][d as usize] = point;
                if col == 0 {
                    g.edges[0][0] |= 1 << d;
                }
                if col == side - 1 {
                    g.edges[0][1] |= 1 << d;
                }
            } else if col % 2 == 1 && row.is_multiple_of(2) {
                let d = dot_index(side, 1, col, row);
                g.dot_point[1][d as usize] = point;
                if row == 0 {
                    g.edges[1][0] |= 1 << d;
                }
                if row == side - 1 {
                    g.edges[1][1] |= 1 << d;
                }
            }
            col += 1;
        }
        row += 1;
    }
    g.spots = n as u8;
    g
}

static GEO: Geometry = build(SIDE);
static GEO_5: Geometry = build(5);
static GEO_9: Geometry = build(9);

/// The sides a game can be played on: 13, the seed's, and 5 and 9, the small variant's (the
/// central window of a 13×13 board keeps the dots' colours only when its offset is even).
pub const SIDES: [u8; 3] = [5, 9, 13];

const _: () = {
    let g = build(SIDE);
    assert!(g.spots as usize == SPOTS && g.dots as usize == DOTS);
};

/// The seed's 13×13 lattice.
#[must_use]
pub fn seed() -> &'static Geometry {
    &GEO
}

/// The lattice of side `side`, if it is one of [`SIDES`].
#[must_use]
pub fn of_side(side: u8) -> Option<&'static Geometry> {
    match side {
        5 => Some(&GEO_5),
        9 => Some(&GEO_9),
        13 => Some(&GEO),
        _ => None,
    }
}

impl Geometry {
    /// Points per side.
    #[must_use]
    pub fn side(&self) -> usize {
        usize::from(self.side)
    }

    /// The number of spots.
    #[must_use]
    pub fn spots(&self) -> usize {
        usize::from(self.spots)
    }

    /// Every spot, as a set.
    #[must_use]
    pub fn all_spots(&self) -> u64 {
        (1u64 << self.spots) - 1
    }

    /// Every dot of one colour, as a set.
    #[must_use]
    pub fn all_dots(&self) -> u64 {
        (1u64 << self.dots) - 1
    }

    /// Parses a point of this lattice (`a1` up to the last column and row), case-insensitive.
    #[must_use]
    pub fn parse_point(&self, text: &str) -> Option<Point> {
        Point::parse_in(text, self.side())
    }

    /// Parses a spot name such as `c3`; `None` if it is not a spot of this lattice.
    #[must_use]
    pub fn parse_spot(&self, text: &str) -> Option<Spot> {
        self.spot_at(self.parse_point(text)?)
    }

    /// The spot at `point`, if there is one.
    #[must_use]
    pub fn spot_at(&self, point: Point) -> Option<Spot> {
        let (c, r) = (usize::from(point.col), usize::from(point.row));
        if c >= self.side() || r >= self.side() {
            return None;
        }
        let i = self.spot_at[r * self.side() + c];
        (i != NONE).then_some(Spot(i))
    }

    /// What stands at `point`, in words (for error messages).
    #[must_use]
    pub fn describe(&self, point: Point) -> &'static str {
        match (point.col % 2, point.row % 2) {
            (0, 1) => "a brown dot of p1",
            (1, 0) => "a blue dot of p2",
            (1, 1) => "a spot",
            _ if self.spot_at(point).is_some() => "a spot",
            _ => "an empty corner point on the border",
        }
    }

    /// A spot's point.
    #[must_use]
    pub fn point(&self, spot: Spot) -> Point {
        self.spot_point[spot.index()]
    }

    /// A spot's name (`c3`).
    #[must_use]
    pub fn name(&self, spot: Spot) -> String {
        self.point(spot).to_string()
    }

    /// The names of the spots in `set`, in index order.
    #[must_use]
    pub fn names(&self, set: u64) -> Vec<String> {
        Spot::iter(set).map(|s| self.name(s)).collect()
    }

    /// The two dots of `seat`'s colour that `seat`'s bridge on `spot` joins.
    #[must_use]
    pub fn ends(&self, spot: Spot, seat: Seat) -> (Dot, Dot) {
        let (a, b) = self.ends[seat.index()][spot.index()];
        (Dot(a), Dot(b))
    }

    /// Whether `seat`'s bridge on `spot` runs horizontally.
    #[must_use]
    pub fn is_horizontal_for(&self, spot: Spot, seat: Seat) -> bool {
        (self.point(spot).col % 2 == 1) == (seat == Seat::P1)
    }

    /// The dot of `seat`'s colour at `point`, if one stands there.
    #[must_use]
    pub fn dot_at(&self, seat: Seat, point: Point) -> Option<Dot> {
        (0..self.dots)
            .map(Dot)
            .find(|d| self.dot_point[seat.index()][usize::from(d.0)] == point)
    }
}

impl Geometry {
    /// The dots of `seat`'s colour on its starting edge (brown: left, blue: top).
    #[must_use]
    pub fn start_edge(&self, seat: Seat) -> u64 {
        self.edges[seat.index()][0]
    }

    /// The dots of `seat`'s colour on its finishing edge (brown: right, blue: bottom).
    #[must_use]
    pub fn end_edge(&self, seat: Seat) -> u64 {
        self.edges[seat.index()][1]
    }

    /// The horizontal and vertical edges of `seat`'s dot grid that bridges on `spots` make.
    #[must_use]
    pub fn edges(&self, seat: Seat, spots: u64) -> (u64, u64) {
        let table = &self.edge[seat.index()];
        let (mut h, mut v) = (0, 0);
        let mut bits = spots;
        while bits != 0 {
            let (eh, ev) = table[bits.trailing_zeros() as usize];
            h |= eh;
            v |= ev;
            bits &= bits - 1;
        }
        (h, v)
    }

    /// The dots of `seat`'s colour reachable from `sources` along the edges `(h, v)`, spreading a
    /// whole set of dots at once: a horizontal edge joins dot `i` and `i + 1`, a vertical one dot
    /// `i` and `i + width` (7 for brown, 6 for blue).
    #[must_use]
    pub fn flood(&self, seat: Seat, sources: u64, (h, v): (u64, u64)) -> u64 {
        let width = self.width[seat.index()];
        let mut reached = sources;
        loop {
            let next = reached
                | ((reached & h) << 1)
                | ((reached >> 1) & h)
                | ((reached & v) << width)
                | ((reached >> width) & v);
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }

    /// The dots of `seat`'s colour reachable from `sources` through bridges of `seat`'s colour on the
    /// spots in `passable`.
    #[must_use]
    pub fn reach(&self, seat: Seat, sources: u64, passable: u64) -> u64 {
        self.flood(seat, sources, self.edges(seat, passable))
    }

    /// The same as [`reach`], the slow and obvious way (a search over the neighbour lists), as a
    /// cross-check for tests.
    #[must_use]
    pub fn reach_by_search(&self, seat: Seat, sources: u64, passable: u64) -> u64 {
        let s = seat.index();
        let mut reached = sources;
        let mut stack = [0u8; DOTS];
        let mut top = 0;
        let mut bits = sources;
        while bits != 0 {
            stack[top] = bits.trailing_zeros() as u8;
            top += 1;
            bits &= bits - 1;
        }
        while top > 0 {
            top -= 1;
            let d = usize::from(stack[top]);
            for &(spot, next) in &self.adj[s][d][..usize::from(self.adj_len[s][d])] {
                if passable & (1u64 << spot) != 0 && reached & (1u64 << next) == 0 {
                    reached |= 1u64 << next;
                    stack[top] = next;
                    top += 1;
                }
            }
        }
        reached
    }

    /// Whether `bridges` (spots carrying `seat`'s bridges) join `seat`'s two edges.
    #[must_use]
    pub fn connects(&self, seat: Seat, bridges: u64) -> bool {
        self.reach(seat, self.start_edge(seat), bridges) & self.end_edge(seat) != 0
    }

    /// The dots of `owner`'s colour that are surrounded: they can reach neither of `owner`'s edges
    /// through spots not covered by the opponent's bridges (`blocked`).
    #[must_use]
    pub fn surrounded(&self, owner: Seat, blocked: u64) -> u64 {
        // Each spot carries exactly one edge of each colour, so the open edges are all edges but
        // those of the blocked spots.
        let (all_h, all_v) = self.all_edges[owner.index()];
        let (bh, bv) = self.edges(owner, blocked);
        let sources = self.start_edge(owner) | self.end_edge(owner);
        self.all_dots() & !self.flood(owner, sources, (all_h & !bh, all_v & !bv))
    }

    /// The cheapest cost for `seat` to join its edges: its own bridges (`own`) are free, the
    /// opponent's (`theirs`) are closed, any other spot costs what `costs` says. `None` if the
    /// opponent's bridges cut every path.
    ///
    /// Dijkstra with a bucket per distance (Dial's algorithm: costs are small whole numbers), the
    /// dots of a bucket as a bit set; search calls this for every candidate bridge, so it is hot.
    #[must_use]
    pub fn cheapest_crossing(
        &self,
        seat: Seat,
        own: u64,
        theirs: u64,
        costs: &[u8; SPOTS],
    ) -> Option<u32> {
        let s = seat.index();
        // A step costs at most 255, so 256 buckets used in a circle never meet a bucket still in use.
        let mut buckets = [0u64; 256];
        buckets[0] = self.start_edge(seat);
        let mut seen = buckets[0];
        let mut done = 0u64;
        let target = self.end_edge(seat);
        let mut d = 0u32;
        while seen & !done != 0 {
            let b = (d & 255) as usize;
            loop {
                let mut bits = buckets[b] & !done;
                if bits == 0 {
                    break;
                }
                if bits & target != 0 {
                    return Some(d);
                }
                done |= bits;
                while bits != 0 {
                    let at = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    for &(spot, next) in &self.adj[s][at][..usize::from(self.adj_len[s][at])] {
                        let bit = 1u64 << spot;
                        let to = 1u64 << next;
                        if theirs & bit != 0 || done & to != 0 {
                            continue;
                        }
                        let step = if own & bit != 0 {
                            0
                        } else {
                            u32::from(costs[usize::from(spot)])
                        };
                        buckets[((d + step) & 255) as usize] |= to;
                        seen |= to;
                    }
                }
            }
            buckets[b] = 0;
            d += 1;
        }
        None
    }

    /// [`cheapest_crossing`] the slow and obvious way (Dijkstra scanning every dot for the nearest),
    /// as a cross-check for tests.
    #[must_use]
    pub fn cheapest_crossing_by_scan(
        &self,
        seat: Seat,
        own: u64,
        theirs: u64,
        costs: &[u8; SPOTS],
    ) -> Option<u32> {
        let s = seat.index();
        let mut dist = [u32::MAX; DOTS];
        let mut done = 0u64;
        let mut bits = self.start_edge(seat);
        while bits != 0 {
            dist[bits.trailing_zeros() as usize] = 0;
            bits &= bits - 1;
        }
        let target = self.end_edge(seat);
        loop {
            let mut best = u32::MAX;
            let mut at = DOTS;
            for (d, &dd) in dist.iter().enumerate().take(usize::from(self.dots)) {
                if done & (1u64 << d) == 0 && dd < best {
                    best = dd;
                    at = d;
                }
            }
            if at == DOTS {
                return None;
            }
            if target & (1u64 << at) != 0 {
                return Some(best);
            }
            done |= 1u64 << at;
            for &(spot, next) in &self.adj[s][at][..usize::from(self.adj_len[s][at])] {
                let bit = 1u64 << spot;
                if theirs & bit != 0 {
                    continue;
                }
                let step = if own & bit != 0 {
                    0
                } else {
                    u32::from(costs[usize::from(spot)])
                };
                let n = usize::from(next);
                if best + step < dist[n] {
                    dist[n] = best + step;
                }
            }
        }
    }
}

// The seed's lattice: [`Geometry`]'s functions on the 13×13 lattice.

/// [`Geometry::start_edge`] on the seed's 13×13 lattice.
#[must_use]
pub fn start_edge(seat: Seat) -> u64 {
    GEO.start_edge(seat)
}

/// [`Geometry::end_edge`] on the seed's 13×13 lattice.
#[must_use]
pub fn end_edge(seat: Seat) -> u64 {
    GEO.end_edge(seat)
}

/// [`Geometry::edges`] on the seed's 13×13 lattice.
#[must_use]
pub fn edges(seat: Seat, spots: u64) -> (u64, u64) {
    GEO.edges(seat, spots)
}

/// [`Geometry::reach`] on the seed's 13×13 lattice.
#[must_use]
pub fn reach(seat: Seat, sources: u64, passable: u64) -> u64 {
    GEO.reach(seat, sources, passable)
}

/// [`Geometry::reach_by_search`] on the seed's 13×13 lattice.
#[must_use]
pub fn reach_by_search(seat: Seat, sources: u64, passable: u64) -> u64 {
    GEO.reach_by_search(seat, sources, passable)
}

/// [`Geometry::connects`] on the seed's 13×13 lattice.
#[must_use]
pub fn connects(seat: Seat, bridges: u64) -> bool {
    GEO.connects(seat, bridges)
}

/// [`Geometry::surrounded`] on the seed's 13×13 lattice.
#[must_use]
pub fn surrounded(owner: Seat, blocked: u64) -> u64 {
    GEO.surrounded(owner, blocked)
}

/// [`Geometry::cheapest_crossing`] on the seed's 13×13 lattice.
#[must_use]
pub fn cheapest_crossing(seat: Seat, own: u64, theirs: u64, costs: &[u8; SPOTS]) -> Option<u32> {
    GEO.cheapest_crossing(seat, own, theirs, costs)
}

/// [`Geometry::cheapest_crossing_by_scan`] on the seed's 13×13 lattice.
#[must_use]
pub fn cheapest_crossing_by_scan(
    seat: Seat,
    own: u64,
    theirs: u64,
    costs: &[u8; SPOTS],
) -> Option<u32> {
    GEO.cheapest_crossing_by_scan(seat, own, theirs, costs)
}
