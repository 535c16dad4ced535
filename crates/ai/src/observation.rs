//! What a bot is given: one seat's window onto a game, never the game itself.

use colosseum_engine::{
    Game, IllegalMove, NotationError, Pending, Seat, SeededRng, TextStep, Viewer,
};

use std::cell::OnceCell;

use crate::BotGame;

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
    /// The steps as given: already the seat's history, or the record's steps when `mask` is set.
    steps: &'a [TextStep],
    /// Turns the record's steps into the seat's history, on first use ([`seat_history`]).
    mask: Option<Mask<G>>,
    masked: OnceCell<Vec<TextStep>>,
}

type Mask<G> = fn(&G, &[TextStep], Seat) -> Vec<TextStep>;

impl<'a, G: Game> Observation<'a, G> {
    /// The window of `seat` onto `game`, with the steps so far as the seat knows them
    /// (`history`, see [`seat_history`]; may be empty for bots that do not need it). Only hosts
    /// (the arena, the command line, the bot protocol) build these.
    #[must_use]
    pub fn new(game: &'a G, seat: Seat, history: &'a [TextStep]) -> Self {
        Observation {
            game,
            seat,
            steps: history,
            mask: None,
            masked: OnceCell::new(),
        }
    }

    /// The levels' exploration in this game ([`BotGame::level_gamma`]: read from the game's
    /// public options only).
    #[must_use]
    pub fn level_gamma(&self) -> f64
    where
        G: BotGame,
    {
        self.game.level_gamma()
    }

    /// The window of `seat` onto `game`, given every step that led to it (the match record's):
    /// the seat's history ([`seat_history`]) is worked out from them the first time a bot asks
    /// for it, so bots that never look pay nothing.
    #[must_use]
    pub fn from_record(game: &'a G, seat: Seat, steps: &'a [TextStep]) -> Self
    where
        G: BotGame,
    {
        Observation {
            game,
            seat,
            steps,
            mask: Some(seat_history::<G>),
            masked: OnceCell::new(),
        }
    }

    /// The steps so far as the seat knows them (see [`seat_history`]): a move not yet revealed
    /// to it is left out (`None` in its slot), a chance outcome it has only partly seen is
    /// replaced by one it cannot tell apart from the real one.
    #[must_use]
    pub fn history(&self) -> &[TextStep] {
        match self.mask {
            Some(mask) => self
                .masked
                .get_or_init(|| mask(self.game, self.steps, self.seat)),
            None => self.steps,
        }
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

/// Masks the moves `seat` may not know yet in a record's steps: in a game with face-down moves
/// ([`BotGame::FACE_DOWN_MOVES`]), the other seat's single move just before `seat`'s own decision stays face down until the
/// reveal (All-In Goofspiel's starter). Every other step is public once applied.
pub fn public_history(
    steps: &[TextStep],
    seat: Seat,
    pending: Pending,
    face_down_moves: bool,
) -> Vec<TextStep> {
    let mut public = steps.to_vec();
    if face_down_moves && pending == Pending::One(seat) {
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

/// The steps that led to `game` (the real state) as `seat` may know them: [`public_history`]
/// (face-down moves left out) and then [`BotGame::mask_chance`] (secret chance outcomes replaced
/// by ones the seat cannot tell apart). This is the history every host hands a bot, and the
/// history the bot protocol sends to a program.
pub fn seat_history<G: BotGame>(game: &G, steps: &[TextStep], seat: Seat) -> Vec<TextStep> {
    let mut history = public_history(steps, seat, game.pending(), G::FACE_DOWN_MOVES);
    game.mask_chance(seat, &mut history);
    history
}
