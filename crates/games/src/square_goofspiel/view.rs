//! What a viewer sees ([`SquareGoofspielView`]) and the text board of `colosseum play`.

use super::*;

/// The state of one cell as a view shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CellState {
    /// Not auctioned yet.
    Open,
    /// Auctioned with equal bids: nobody's, for good.
    Nobody,
    /// Claimed by `p1`.
    P1,
    /// Claimed by `p2`.
    P2,
}

/// One cell of the phase in progress, as a view shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PhaseCell {
    /// `A`..`F`.
    pub label: char,
    /// The cell.
    pub cell: Cell,
    /// Whether this is the cell up for auction now.
    pub up_now: bool,
    /// Its state: open until auctioned, then claimed or nobody's.
    pub state: CellState,
}

/// A hand as a view shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandView {
    /// The cards, weakest first.
    pub cards: Vec<u8>,
    /// Their total strength (the final tie-break).
    pub strength: u32,
}

/// What a viewer sees of a Square Goofspiel game. Everything is public (the seed posts the board
/// and both hands after every move) except the bids for the cell up now, which are not part of
/// the state until both are revealed together; so seats and spectators see the same.
#[derive(Clone, Debug, Serialize)]
pub struct SquareGoofspielView {
    /// Who looks.
    pub viewer: Viewer,
    /// The options in force.
    pub options: SquareGoofspielOptions,
    /// Who must act now.
    pub pending: Pending,
    /// The phase, 1..6.
    pub phase: usize,
    /// The phase's cells in auction order (empty while they are being drawn).
    pub phase_cells: Vec<PhaseCell>,
    /// The cell up for auction now, if the seats bid now.
    pub up_now: Option<Cell>,
    /// The board, rows 1..6 top to bottom, each column `a`..`f`.
    pub board: Vec<Vec<CellState>>,
    /// Every line's totals and current winner: rows 1..6, then columns a..f.
    pub lines: Vec<LineResult>,
    /// Each seat's line points now.
    pub line_points: SeatPair<u32>,
    /// Both hands (public in this game).
    pub hands: SeatPair<HandView>,
    /// Cells each seat claimed in the phase in progress.
    pub claimed_this_phase: SeatPair<u8>,
    /// Every finished auction with both bids.
    pub auctions: Vec<Auction>,
    /// The outcome, once the game is over.
    pub outcome: Option<Outcome>,
}

pub(super) fn cell_state(board: &Board, cell: Cell, auctioned: bool) -> CellState {
    match (board.owner(cell), auctioned) {
        (Some(Seat::P1), _) => CellState::P1,
        (Some(Seat::P2), _) => CellState::P2,
        (None, true) => CellState::Nobody,
        (None, false) => CellState::Open,
    }
}

/// The terminal picture: the board with column values above and row values at the left, line
/// worths and running results below and to the right, owners as `X` (`p1`) and `O` (`p2`),
/// this phase's cells to come as their letters, the cell up now in brackets.
pub(super) fn render(game: &SquareGoofspiel, viewer: Viewer) -> String {
    let mut s = String::new();
    let done = game.auctions_done();
    let pending = game.pending();
    let up = game.cell_up();
    let title = match (pending, up) {
        (Pending::Over, _) => "game over".to_string(),
        (Pending::Chance, _) => format!(
            "phase {} of {}: its cells are being drawn",
            game.phase(),
            game.per_phase()
        ),
        (_, Some((label, cell))) => {
            format!(
                "phase {} of {}, auction {label}: {cell} is up",
                game.phase(),
                game.per_phase()
            )
        }
        _ => String::new(),
    };
    let _ = writeln!(s, "Square Goofspiel - {title}");
    let you = |seat: Seat| {
        if viewer == Viewer::Seat(seat) {
            " (you)"
        } else {
            ""
        }
    };
    let n = game.side();
    let _ = writeln!(
        s,
        "X = p1{}, O = p2{}, - = nobody's (tied bids), A-{} = this phase's cells to come, [ ] = up now",
        you(Seat::P1),
        you(Seat::P2),
        LABELS[n - 1]
    );
    // Labels of this phase's cells still to come.
    let mut to_come = [None; CELLS];
    if pending == Pending::Both {
        let start = (done / n) * n;
        for i in done..start + n {
            to_come[game.order[i].index()] = Some(LABELS[i % n]);
        }
    }
    let results = game.board.line_results_on(game.options.size);
    let mark = |seat: Option<Seat>| match seat {
        Some(Seat::P1) => "X",
        Some(Seat::P2) => "O",
        None => "",
    };
    // A line's result: its winner's mark, `=` for a tie with cells on it, blank while empty.
    let line_mark = |r: &LineResult| match (r.winner, r.totals) {
        (Some(w), _) => mark(Some(w)).to_string(),
        (None, [0, 0]) => String::new(),
        (None, _) => "=".to_string(),
    };
    // Each board column is five characters wide with its mark at offset 1, so that `[D]` fits.
    // Each board column is five characters wide with its mark at offset 1 (so that `[D]` fits);
    // numbers below the board end at that offset.
    let under = |text: String| format!("{text:>2}   ");
    let _ = writeln!(s);
    let letters: Vec<String> = (0..n)
        .map(|c| char::from(b'a' + c as u8).to_string())
        .collect();
    let values: Vec<String> = (1..=n).map(|v| v.to_string()).collect();
    let _ = writeln!(s, "          {}", letters.join("    "));
    let _ = writeln!(
        s,
        " value:   {}   | worth   X   O   won",
        values.join("    ")
    );
    for (row, r) in results[..n].iter().enumerate() {
        let _ = write!(s, "  row {}  ", row + 1);
        for column in 0..n {
            let cell = Cell::new(column, row).expect("on the board");
            let inner = match (game.board.owner(cell), to_come[cell.index()]) {
                (Some(Seat::P1), _) => 'X',
                (Some(Seat::P2), _) => 'O',
                (None, Some(label)) => label,
                (None, None) if game.is_auctioned(cell) => '-',
                (None, None) => '.',
            };
            if up.is_some_and(|(_, c)| c == cell) {
                let _ = write!(s, "[{inner}]  ");
            } else {
                let _ = write!(s, " {inner}   ");
            }
        }
        let _ = writeln!(
            s,
            "|   {}    {:>2}  {:>2}    {}",
            r.worth,
            r.totals[0],
            r.totals[1],
            line_mark(r)
        );
    }
    let _ = writeln!(s, "        {:-<width$}+", "", width = 5 * n + 1);
    let columns = &results[n..];
    let footer = |name: &str, item: &dyn Fn(&LineResult) -> String| {
        let cells: String = columns.iter().map(|r| under(item(r))).collect();
        format!(" {name:>6}  {}", cells.trim_end())
    };
    let _ = writeln!(s, "{}", footer("worth:", &|r| r.worth.to_string()));
    let _ = writeln!(s, "{}", footer("X:", &|r| r.totals[0].to_string()));
    let _ = writeln!(s, "{}", footer("O:", &|r| r.totals[1].to_string()));
    let _ = writeln!(s, "{}", footer("won:", &|r| line_mark(r)));
    let _ = writeln!(
        s,
        "A cell counts its column's value (a=1 .. {}={n}) on its row, and its row's number on its column.",
        letters[n - 1]
    );
    let _ = writeln!(s);
    let points = game.line_points();
    let so_far = if game.is_over() { "" } else { " so far" };
    let _ = writeln!(s, "Line points{so_far}: p1 {}, p2 {}", points[0], points[1]);
    for seat in Seat::BOTH {
        let hand = game.hands[seat.index()];
        let _ = writeln!(
            s,
            "{seat}{} hand: {hand} (strength {}, {} card{})",
            you(seat),
            hand.strength(),
            hand.len(),
            if hand.len() == 1 { "" } else { "s" }
        );
    }
    // The last auction, and the cards handed out if it ended a phase.
    if done > 0 {
        let a = game.auction(done - 1);
        let result = match a.winner {
            Some(w) => format!("{w} claims {}", a.cell),
            None => "nobody claims it".to_string(),
        };
        let _ = writeln!(
            s,
            "Last auction (phase {} {}, {}): p1 {}, p2 {} - {result}",
            a.phase, a.label, a.cell, a.p1, a.p2
        );
        if done.is_multiple_of(n) {
            let mut parts = Vec::new();
            for seat in Seat::BOTH {
                let n = game.claimed_this_phase[seat.index()];
                parts.push(match n {
                    0 => format!("{seat} claimed no cell and gets no card"),
                    1 => format!("{seat} claimed 1 cell and gets a 1"),
                    n => format!("{seat} claimed {n} cells and gets a {n}"),
                });
            }
            let _ = writeln!(s, "End of phase {}: {}.", a.phase, parts.join("; "));
        } else {
            let [a1, a2] = game.claimed_this_phase;
            let _ = writeln!(s, "This phase so far: p1 claimed {a1}, p2 claimed {a2}.");
        }
    }
    if let Some((label, cell)) = up {
        let _ = writeln!(
            s,
            "Up now: {label} = {cell} (value {} in row {}, {} in column {}). Bid a card 1-{n} or pass.",
            cell.value_in_row(),
            cell.row() + 1,
            cell.value_in_column(),
            char::from(b'a' + cell.column() as u8)
        );
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
