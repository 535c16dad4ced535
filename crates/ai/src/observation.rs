//! What a bot is given: one seat's window onto a game, never the game itself.

use colosseum_engine::{
    Game, IllegalMove, NotationError, Pending, Seat, SeededRng, TextStep, Viewer,
};

/// One seat's window onto a game in progress.
///
/// This is all a bot ever receives. It exposes the seat, the seat's view, the seat's own legal
/// moves and notation, and [`Observation::determinize`], which draws a full state among those the
/// seat cannot tell apart from the real one. The real state is private: a bot cannot read what
/// its seat may not know, so two states with the same view for the seat give the same behaviour
/// from the same random generator.
pub struct Observation<'a, G: Game> {
    game: &'a G,
    seat: Seat,
    history: &'a [TextStep],
}

impl<'a, G: Game> Observation<'a, G> {
    /// The window of `seat` onto `game`, with the steps so far as the seat knows them
    /// (`history`, see [`public_history`]; may be empty for bots that do not need it). Only hosts
    /// (the arena, the command line, the bot protocol) build these.
    #[must_use]
    pub fn new(game: &'a G, seat: Seat, history: &'a [TextStep]) -> Self {
        Observation {
            game,
            seat,
            history,
        }
    }

    /// The steps so far as the seat knows them: a move not yet revealed to it is left out
    /// (`None` in its slot).
    #[must_use]
    pub fn history(&self) -> &[TextStep] {
        self.history
    }

    /// The seat the bot plays.
    #[must_use]
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Who must act now (public in every game).
    #[must_use]
    pub fn pending(&self) -> Pending {
        self.game.pending()
    }

    /// What the seat sees.
    #[must_use]
    pub fn view(&self) -> G::View {
        self.game.view(Viewer::Seat(self.seat))
    }

    /// The seat's legal moves (a representative subset where the game says its space is too
    /// large to enumerate). A seat's own moves depend only on what it knows.
    pub fn legal_moves(&self, out: &mut Vec<G::Move>) {
        self.game.legal_moves(self.seat, out);
    }

    /// A uniformly random legal move of the seat.
    pub fn random_move(&self, rng: &mut SeededRng) -> Option<G::Move> {
        self.game.random_move(self.seat, rng)
    }

    /// Whether the seat may make `mv` now.
    pub fn check_move(&self, mv: &G::Move) -> Result<(), IllegalMove> {
        self.game.check_move(self.seat, mv)
    }

    /// A full state drawn among those the seat cannot tell apart from this one (see
    /// [`Game::determinize`]): what search bots plan on.
    pub fn determinize(&self, rng: &mut SeededRng) -> G {
        self.game.determinize(self.seat, rng)
    }

    /// The canonical text of a move.
    #[must_use]
    pub fn format_move(&self, mv: &G::Move) -> String {
        self.game.format_move(mv)
    }

    /// Parses one of the seat's moves.
    pub fn parse_move(&self, text: &str) -> Result<G::Move, NotationError> {
        self.game.parse_move(self.seat, text)
    }
}

/// Masks what `seat` may not know yet in a record's steps: in a game with hidden information,
/// the other seat's single move just before `seat`'s own decision stays face down until the
/// reveal (All-In Goofspiel's starter). Every other step is public once applied.
pub fn public_history(
    steps: &[TextStep],
    seat: Seat,
    pending: Pending,
    hidden_information: bool,
) -> Vec<TextStep> {
    let mut public = steps.to_vec();
    if hidden_information && pending == Pending::One(seat) {
        if let Some(last) = public.last_mut() {
            let other = seat.other();
            let alone = last.chance.is_none() && last.slot(seat).is_none();
            if alone && last.slot(other).is_some() {
                match other {
                    Seat::P1 => last.p1 = None,
                    Seat::P2 => last.p2 = None,
                }
            }
        }
    }
    public
}
