//! A tournament as pure data: its configuration, its log of events, and the state they fold
//! to.
//!
//! A tournament is its [`TournamentConfig`] and an append-only log of [`Event`]s. Its state
//! is the events applied in order ([`Tournament::apply`], or [`Fold::fold`] from the stored
//! texts), so whoever stores the log loses nothing at a restart. What its driver does next
//! given what it saw of the matches is [`Tournament::next_step`], a pure function: the caller
//! makes the matches and stores the events it gets back. Pairings and standings are this
//! crate's ([`Format::next_round`], [`standings()`]).
//!
//! Nothing here knows a game, a webhook or a store: a game is its registry id and options, and
//! the chat webhook is the server's type `W`, stored and handed back as it came.

use std::collections::HashMap;

use colosseum_engine::{RawOptions, Seat};
use colosseum_games::text::plural;
use colosseum_host::TimeControl;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::fold::Fold;
use crate::same_secret;
use crate::season::SeasonPlayerId;
use crate::{standings, Format, Outcome, PlayedRound, PlayerId, Round, Standing};

/// One game a tournament plays, with its options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameChoice {
    /// The game's registry id.
    pub game: String,
    /// Its options.
    #[serde(default)]
    pub options: RawOptions,
}

/// How each round's game is chosen from a list of games (a "Colosseum").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GamePick {
    /// Round `r` plays game `r` of the list, starting over after the last.
    #[default]
    Rotate,
    /// Each round's game is drawn (from the tournament's seed and the round number).
    Draw,
    /// The host names it when starting the round (rotation for a round started on its own).
    Host,
}

/// A player as entered: by the host, by registration, or as a bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The display name (unique in the tournament, ignoring case).
    pub name: String,
    /// A bot's level (`random`, `mcts:easy`, ...): the server plays every match of the player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// The player's personal token (humans): their page and their seats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// Garnets (the cast's currency): more garnets hold the advantage in a pairing.
    #[serde(default)]
    pub garnets: i64,
    /// The player's id in the tournament's season roster ([`crate::season`]): their games are
    /// rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season_player: Option<SeasonPlayerId>,
    /// The Discord member who plays this place, in a tournament run from a Discord channel
    /// (set by the server's Discord application only, never from a request).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discord: Option<String>,
}

/// The Discord channel a tournament is run in, and the member who created
/// it (its host there).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscordRoom {
    /// The channel's id.
    pub channel: String,
    /// The creating member's id.
    pub host: String,
}

/// A tournament's fixed settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "W: Serialize", deserialize = "W: Deserialize<'de>"))]
pub struct TournamentConfig<W> {
    /// The id (public).
    pub id: String,
    /// The name.
    pub name: String,
    /// The games (one, or a list).
    pub games: Vec<GameChoice>,
    /// How a round's game is chosen from the list.
    #[serde(default)]
    pub pick: GamePick,
    /// The format.
    pub format: Format,
    /// Each match's time control (absent: each game's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeControl>,
    /// The most players.
    pub cap: usize,
    /// A seat that has not joined its match this long after the round started forfeits it
    /// (absent: never).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_show_ms: Option<u64>,
    /// Whether the next round starts as soon as the last one is complete (otherwise the host
    /// starts each).
    pub auto_rounds: bool,
    /// The host's token.
    pub admin_token: String,
    /// The registration link's token, when players may register themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration_token: Option<String>,
    /// When it was created (ms since the Unix epoch).
    pub created_at: u64,
    /// The seed of the games drawn for rounds.
    pub seed: u64,
    /// The chat webhook given at creation (the server's webhook type `W`; the host may change it later:
    /// [`Event::WebhookSet`]). A secret: only the host sees it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<W>,
    /// The season it belongs to ([`crate::season`]): its roster players' games are rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season: Option<String>,
    /// The Discord channel it is run in, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discord: Option<DiscordRoom>,
}

/// How a board's result came about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum How {
    /// The match was played to its end; its result's sentence.
    Played {
        /// The match's winner (`None`: a draw; in a bracket, given to the advantage holder).
        winner: Option<Seat>,
        /// The match's own reason.
        reason: String,
    },
    /// A seat (or both) had not joined when the no-show time ran out.
    NoShow {
        /// The absent seats.
        absent: Vec<Seat>,
    },
    /// The host decided.
    Adjudicated {
        /// Why.
        reason: String,
    },
}

/// One thing that happened to a tournament. The log of these is the tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[serde(bound(serialize = "W: Serialize", deserialize = "W: Deserialize<'de>"))]
pub enum Event<W> {
    /// A player entered.
    Entered {
        /// When (ms since the Unix epoch).
        at: u64,
        /// Who.
        player: Entrant,
    },
    /// The host set a player's garnets.
    Garnets {
        /// When.
        at: u64,
        /// Whom.
        player: PlayerId,
        /// How many.
        garnets: i64,
    },
    /// Registration closed and the first round is paired next.
    Started {
        /// When.
        at: u64,
    },
    /// A round was paired.
    RoundPaired {
        /// When.
        at: u64,
        /// Its game.
        game: String,
        /// The game's options (before each board's advantage).
        options: RawOptions,
        /// The pairings.
        round: Round,
    },
    /// A board's match was created.
    MatchCreated {
        /// When.
        at: u64,
        /// The round (0-based).
        round: usize,
        /// The board (0-based).
        board: usize,
        /// The match id.
        id: String,
        /// Each human seat's token.
        tokens: [Option<String>; 2],
        /// The seat holding the advantage (the garnet leader), if either.
        advantage: Option<Seat>,
    },
    /// A board's result.
    Result {
        /// When.
        at: u64,
        /// The round.
        round: usize,
        /// The board.
        board: usize,
        /// The outcome for the standings.
        outcome: Outcome,
        /// How.
        how: How,
    },
    /// The host took a forfeit back: the match goes on and no-shows no longer end it.
    ResultUndone {
        /// When.
        at: u64,
        /// The round.
        round: usize,
        /// The board.
        board: usize,
    },
    /// The last round's pairing was withdrawn (none of its games had started) because a
    /// forfeit of the round before it was taken back; the round is paired again when the round
    /// before it is complete. Its matches already made are left to expire.
    RoundWithdrawn {
        /// When.
        at: u64,
        /// The round (0-based): always the last one.
        round: usize,
    },
    /// A player who dropped out was replaced (from the next match on).
    Replaced {
        /// When.
        at: u64,
        /// Whose place.
        player: PlayerId,
        /// The new player.
        by: Entrant,
        /// The name they replaced.
        was: String,
    },
    /// A board's match of the current round that had not started was made for a player who
    /// has just been replaced: it is no longer the board's (left to expire, unannounced) and
    /// the driver makes the board's match again for whoever holds the places now, whose
    /// no-show time counts from here.
    MatchRemade {
        /// When.
        at: u64,
        /// The round.
        round: usize,
        /// The board.
        board: usize,
        /// The place that was given to someone else.
        player: PlayerId,
    },
    /// The host paused, resumed or gave time in a board's match (the match's own log has it
    /// too).
    HostPower {
        /// When.
        at: u64,
        /// The round.
        round: usize,
        /// The board.
        board: usize,
        /// What, in words (`pause`, `resume`, `30 s to p2`).
        power: String,
    },
    /// The tournament is over.
    Finished {
        /// When.
        at: u64,
    },
    /// The host set (or removed) the chat webhook: its matches from now on, and the running
    /// ones, are announced there.
    WebhookSet {
        /// When.
        at: u64,
        /// The webhook (`None`: no more announcements).
        webhook: Option<W>,
    },
}

/// One game of a round, as the tournament follows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Board {
    /// The match id, once created.
    pub match_id: Option<String>,
    /// The human seats' tokens.
    pub tokens: [Option<String>; 2],
    /// The seat holding the advantage.
    pub advantage: Option<Seat>,
    /// The result.
    pub result: Option<(Outcome, How)>,
    /// A forfeit was taken back: no-shows do not end this match again.
    pub no_show_off: bool,
    /// Which occupant of each seat's place played it (how many replacements that place had
    /// seen when the match was made, or the result came without one): fixed then, so a later
    /// replacement does not rewrite who played it.
    pub occupants: Option<[usize; 2]>,
    /// When its match was set up again for a replacement ([`Event::MatchRemade`]): its no-show
    /// time counts from then instead of the round's pairing.
    pub since: Option<u64>,
}

/// A round being played or played.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundState {
    /// Its game.
    pub game: String,
    /// The game's options.
    pub options: RawOptions,
    /// The pairings.
    pub pairing: Round,
    /// Each game's board.
    pub boards: Vec<Board>,
    /// When it was paired.
    pub started_at: u64,
    /// Each place's occupant when it was paired (its byes and waits are theirs).
    pub occupants: Vec<usize>,
}

impl RoundState {
    /// Whether every board has a result.
    #[must_use]
    pub fn complete(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_some())
    }
}

/// A tournament's state: the configuration and the events applied.
#[derive(Clone, Debug)]
pub struct Tournament<W> {
    /// The settings.
    pub config: TournamentConfig<W>,
    /// The players in seed order (entry order).
    pub players: Vec<Entrant>,
    /// Whether registration has closed.
    pub started: bool,
    /// The rounds.
    pub rounds: Vec<RoundState>,
    /// Whether it is over.
    pub finished: bool,
    /// Every event, in order.
    pub log: Vec<Event<W>>,
    /// Where it is announced now (the configuration's, or the host's latest).
    pub webhook: Option<W>,
    /// How many times each place (seed) was given to a replacement: its occupant's number.
    pub occupant: Vec<usize>,
    /// The players replaced, oldest first: their place, and who they were.
    pub formers: Vec<Former>,
}

/// A player who was replaced: they keep the games they played, under their own name.
#[derive(Clone, Debug, PartialEq)]
pub struct Former {
    /// Their place (seed) in the tournament, now someone else's.
    pub place: PlayerId,
    /// Who they were.
    pub entrant: Entrant,
    /// Who took the place from them.
    pub by: String,
    /// When.
    pub at: u64,
}

impl<W: Clone> Tournament<W> {
    /// A drawn game's outcome: a draw, except in a bracket, which needs a winner and gives it to
    /// the advantage holder (`p1` when nobody holds it).
    fn drawn(&self, advantage: Option<Seat>) -> Outcome {
        if !self.config.format.is_elimination() {
            return Outcome::Draw;
        }
        match advantage.unwrap_or(Seat::P1) {
            Seat::P1 => Outcome::P1,
            Seat::P2 => Outcome::P2,
        }
    }

    /// A tournament with no events.
    #[must_use]
    pub fn new(config: TournamentConfig<W>) -> Self {
        Tournament {
            webhook: config.webhook.clone(),
            config,
            players: Vec::new(),
            started: false,
            rounds: Vec::new(),
            finished: false,
            log: Vec::new(),
            occupant: Vec::new(),
            formers: Vec::new(),
        }
    }

    /// Applies one event (from the log or just decided). Events are checked before they are
    /// made; a stored event that does not fit is an error, so a damaged log is noticed.
    ///
    /// # Errors
    /// The event does not fit (a board, round or player that does not exist).
    pub fn apply(&mut self, event: Event<W>) -> Result<(), String> {
        match &event {
            Event::Entered { player, .. } => {
                self.players.push(player.clone());
                self.occupant.push(0);
            }
            Event::Garnets {
                player, garnets, ..
            } => {
                self.players
                    .get_mut(*player)
                    .ok_or("no such player")?
                    .garnets = *garnets;
            }
            Event::Started { .. } => self.started = true,
            Event::RoundPaired {
                at,
                game,
                options,
                round,
            } => self.rounds.push(RoundState {
                game: game.clone(),
                options: options.clone(),
                boards: vec![Board::default(); round.games.len()],
                pairing: round.clone(),
                started_at: *at,
                occupants: self.occupant.clone(),
            }),
            Event::RoundWithdrawn { round, .. } => {
                if *round + 1 != self.rounds.len() {
                    return Err(format!("round {round} is not the last round"));
                }
                self.rounds.pop();
            }
            Event::MatchCreated {
                round,
                board,
                id,
                tokens,
                advantage,
                ..
            } => {
                let now = self.seat_occupants(*round, *board)?;
                let b = self.board_mut(*round, *board)?;
                b.match_id = Some(id.clone());
                b.tokens = tokens.clone();
                b.advantage = *advantage;
                b.occupants.get_or_insert(now);
            }
            Event::Result {
                round,
                board,
                outcome,
                how,
                ..
            } => {
                let now = self.seat_occupants(*round, *board)?;
                let b = self.board_mut(*round, *board)?;
                b.result = Some((*outcome, how.clone()));
                b.occupants.get_or_insert(now);
            }
            Event::ResultUndone { round, board, .. } => {
                let b = self.board_mut(*round, *board)?;
                b.result = None;
                b.no_show_off = true;
            }
            Event::Replaced { at, player, by, .. } => {
                let slot = self.players.get_mut(*player).ok_or("no such player")?;
                let was = std::mem::replace(slot, by.clone());
                self.formers.push(Former {
                    place: *player,
                    entrant: was,
                    by: by.name.clone(),
                    at: *at,
                });
                self.occupant[*player] += 1;
            }
            Event::MatchRemade {
                at, round, board, ..
            } => {
                let b = self.board_mut(*round, *board)?;
                if b.result.is_some() {
                    return Err(format!("board {board} of round {round} has its result"));
                }
                *b = Board {
                    no_show_off: b.no_show_off,
                    since: Some(*at),
                    ..Board::default()
                };
            }
            Event::HostPower { .. } => {}
            Event::Finished { .. } => self.finished = true,
            Event::WebhookSet { webhook, .. } => self.webhook.clone_from(webhook),
        }
        self.log.push(event);
        Ok(())
    }

    /// The occupants of a board's two places now.
    fn seat_occupants(&self, round: usize, board: usize) -> Result<[usize; 2], String> {
        let g = self
            .rounds
            .get(round)
            .and_then(|r| r.pairing.games.get(board))
            .ok_or_else(|| format!("no board {board} in round {round}"))?;
        Ok([self.occupant[g.p1], self.occupant[g.p2]])
    }

    /// Which occupant of each place played board `board` of round `round` (the current ones
    /// while its match is not made yet).
    #[must_use]
    pub fn board_occupants(&self, round: usize, board: usize) -> [usize; 2] {
        self.rounds[round].boards[board]
            .occupants
            .unwrap_or_else(|| self.seat_occupants(round, board).expect("a board"))
    }

    /// The entrant who is (or was) occupant `n` of place `place`.
    #[must_use]
    pub fn entrant_at(&self, place: PlayerId, n: usize) -> &Entrant {
        if n >= self.occupant[place] {
            return &self.players[place];
        }
        self.formers
            .iter()
            .filter(|f| f.place == place)
            .nth(n)
            .map_or(&self.players[place], |f| &f.entrant)
    }

    /// The standings line of occupant `n` of place `place`: the place's own number for its
    /// current player, one after the places for each former player (in the order replaced).
    fn line_of(&self, place: PlayerId, n: usize) -> usize {
        if n >= self.occupant[place] {
            return place;
        }
        self.formers
            .iter()
            .enumerate()
            .filter(|(_, f)| f.place == place)
            .nth(n)
            .map_or(place, |(i, _)| self.players.len() + i)
    }

    /// The entrant of a standings line ([`Tournament::standings`]).
    #[must_use]
    pub fn line_entrant(&self, line: usize) -> &Entrant {
        match line.checked_sub(self.players.len()) {
            Some(i) => &self.formers[i].entrant,
            None => &self.players[line],
        }
    }

    /// The names of who played board `board` of round `round`.
    #[must_use]
    pub fn board_names(&self, round: usize, board: usize) -> [String; 2] {
        let g = self.rounds[round].pairing.games[board];
        let n = self.board_occupants(round, board);
        [
            self.entrant_at(g.p1, n[0]).name.clone(),
            self.entrant_at(g.p2, n[1]).name.clone(),
        ]
    }

    fn board_mut(&mut self, round: usize, board: usize) -> Result<&mut Board, String> {
        self.rounds
            .get_mut(round)
            .and_then(|r| r.boards.get_mut(board))
            .ok_or_else(|| format!("no board {board} in round {round}"))
    }

    /// The rounds played to the end, as the pairing functions take them.
    #[must_use]
    pub fn past(&self) -> Vec<PlayedRound> {
        self.rounds
            .iter()
            .filter(|r| r.complete())
            .map(|r| {
                let outcomes: Vec<Outcome> = r
                    .boards
                    .iter()
                    .map(|b| b.result.as_ref().expect("complete").0)
                    .collect();
                PlayedRound::from_round(&r.pairing, &outcomes)
            })
            .collect()
    }

    /// Every round with its results so far (an unfinished game counts as nothing yet), for
    /// standings during a round.
    fn results_so_far(&self) -> Vec<PlayedRound> {
        self.rounds
            .iter()
            .map(|r| PlayedRound {
                games: r
                    .pairing
                    .games
                    .iter()
                    .zip(&r.boards)
                    .filter_map(|(p, b)| {
                        b.result.as_ref().map(|(o, _)| crate::Played {
                            pairing: *p,
                            outcome: *o,
                        })
                    })
                    .collect(),
                byes: r.pairing.byes.clone(),
                waiting: r.pairing.waiting.clone(),
            })
            .collect()
    }

    /// Every round with its results so far, each game and bye under the standings line of
    /// whoever played it ([`Tournament::line_of`]): a replaced player's games stay theirs.
    fn results_by_player(&self) -> Vec<PlayedRound> {
        self.rounds
            .iter()
            .enumerate()
            .map(|(r, round)| {
                let at_pairing =
                    |p: PlayerId| self.line_of(p, round.occupants.get(p).copied().unwrap_or(0));
                PlayedRound {
                    games: round
                        .pairing
                        .games
                        .iter()
                        .zip(&round.boards)
                        .enumerate()
                        .filter_map(|(b, (p, board))| {
                            board.result.as_ref().map(|(o, _)| {
                                let n = self.board_occupants(r, b);
                                crate::Played {
                                    pairing: crate::Pairing {
                                        p1: self.line_of(p.p1, n[0]),
                                        p2: self.line_of(p.p2, n[1]),
                                        ..*p
                                    },
                                    outcome: *o,
                                }
                            })
                        })
                        .collect(),
                    byes: round.pairing.byes.iter().map(|&p| at_pairing(p)).collect(),
                    waiting: round
                        .pairing
                        .waiting
                        .iter()
                        .map(|&p| at_pairing(p))
                        .collect(),
                }
            })
            .collect()
    }

    /// The standings now: one line a player, a replaced player's too ([`Tournament::line_entrant`]
    /// names each line), each with only their own games. Pairings go on from the places' whole
    /// records ([`Tournament::past`]): whoever takes a place takes its opponents, seats and, in a
    /// bracket, its position; in a bracket the places are ranked by it, and the replaced players
    /// follow.
    #[must_use]
    pub fn standings(&self) -> Vec<Standing> {
        let format = &self.config.format;
        let n = self.players.len();
        let own = standings(format, n + self.formers.len(), &self.results_by_player());
        if !format.is_elimination() || self.formers.is_empty() {
            return own;
        }
        let mut by_line: HashMap<usize, Standing> =
            own.into_iter().map(|s| (s.player, s)).collect();
        let mut out: Vec<Standing> = standings(format, n, &self.results_so_far())
            .into_iter()
            .map(|place| Standing {
                rank: place.rank,
                tied: place.tied,
                out_in_round: place.out_in_round,
                ..by_line[&place.player].clone()
            })
            .collect();
        for i in 0..self.formers.len() {
            if let Some(mut s) = by_line.remove(&(n + i)) {
                s.rank = out.len() + 1;
                s.tied = false;
                s.out_in_round = None;
                out.push(s);
            }
        }
        out
    }

    /// The standings in words, a line a player (the first `max`, then how many more): `=1. Ann:
    /// 2 points, 2-0-0 (SB 1)`, with the format's own tie-breaks and shared ranks, each line's
    /// name the player who played its games.
    #[must_use]
    pub fn standings_lines(&self, max: usize) -> Vec<String> {
        let mut lines: Vec<String> = self
            .standings()
            .iter()
            .take(max)
            .map(|s| {
                let breaks: Vec<String> = crate::standings::tie_breaks(&self.config.format)
                    .iter()
                    .map(|k| match *k {
                        "buchholz" => format!("Buchholz {}", s.buchholz),
                        _ => format!("SB {}", s.sonneborn_berger),
                    })
                    .collect();
                let tie = if breaks.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", breaks.join(", "))
                };
                format!(
                    "{}. {}: {}, {}-{}-{}{tie}",
                    crate::standings::rank_label(s),
                    self.line_entrant(s.player).name,
                    plural(s.points, "point"),
                    s.wins,
                    s.draws,
                    s.losses
                )
            })
            .collect();
        if self.players.len() > max {
            lines.push(format!("... and {} more", self.players.len() - max));
        }
        lines
    }

    /// The player whose personal token is `token`.
    #[must_use]
    pub fn player_of(&self, token: &str) -> Option<PlayerId> {
        self.players
            .iter()
            .position(|p| p.token.as_deref().is_some_and(|t| same_secret(t, token)))
    }

    /// Whether `token` is the host's.
    #[must_use]
    pub fn is_admin(&self, token: &str) -> bool {
        same_secret(&self.config.admin_token, token)
    }

    /// The game of round `round` (0-based), when the host does not name it.
    #[must_use]
    pub fn game_for(&self, round: usize) -> &GameChoice {
        let n = self.config.games.len();
        let i = match self.config.pick {
            GamePick::Rotate | GamePick::Host => round % n,
            GamePick::Draw => {
                // SplitMix64 of the seed and the round: a fixed draw per round.
                let mut z = self
                    .config
                    .seed
                    .wrapping_add((round as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                (z % n as u64) as usize
            }
        };
        &self.config.games[i]
    }

    /// The seat holding the advantage in a pairing: the player with more garnets; equal
    /// garnets: nobody is named (the game's default, `p1`).
    #[must_use]
    pub fn advantage(&self, p1: PlayerId, p2: PlayerId) -> Option<Seat> {
        use std::cmp::Ordering;
        match self.players[p1].garnets.cmp(&self.players[p2].garnets) {
            Ordering::Greater => Some(Seat::P1),
            Ordering::Less => Some(Seat::P2),
            Ordering::Equal => None,
        }
    }

    /// What the driver should do next, if anything (no I/O: the caller does it and appends
    /// the events it gets back).
    #[must_use]
    pub fn next_step(&self, now: u64, results: &HashMap<String, MatchSeen>) -> Step<W> {
        if self.finished || !self.started {
            return Step::Wait;
        }
        if let Some((r, round)) = self.rounds.iter().enumerate().next_back() {
            for (b, board) in round.boards.iter().enumerate() {
                if board.result.is_some() {
                    continue;
                }
                let Some(id) = &board.match_id else {
                    return Step::CreateMatch { round: r, board: b };
                };
                let Some(seen) = results.get(id) else {
                    continue;
                };
                if let Some((winner, reason)) = &seen.result {
                    let outcome = match winner {
                        Some(Seat::P1) => Outcome::P1,
                        Some(Seat::P2) => Outcome::P2,
                        None => self.drawn(board.advantage),
                    };
                    return Step::Record(Event::Result {
                        at: now,
                        round: r,
                        board: b,
                        outcome,
                        how: How::Played {
                            winner: *winner,
                            reason: reason.clone(),
                        },
                    });
                }
                if let Some(limit) = self.config.no_show_ms {
                    let absent: Vec<Seat> = Seat::BOTH
                        .into_iter()
                        .filter(|s| !seen.joined[s.index()])
                        .collect();
                    if !board.no_show_off
                        && !absent.is_empty()
                        && now.saturating_sub(board.since.unwrap_or(round.started_at)) >= limit
                    {
                        let outcome = match absent.as_slice() {
                            [Seat::P1] => Outcome::P2,
                            [Seat::P2] => Outcome::P1,
                            // Both absent: recorded as a draw (a bracket: the advantage).
                            _ => self.drawn(board.advantage),
                        };
                        return Step::Record(Event::Result {
                            at: now,
                            round: r,
                            board: b,
                            outcome,
                            how: How::NoShow { absent },
                        });
                    }
                }
            }
            if !round.complete() {
                return Step::Wait;
            }
            if !self.config.auto_rounds {
                // The host starts each round, but a tournament whose last round is complete
                // is over at once.
                return if self.no_round_left() {
                    Step::Record(Event::Finished { at: now })
                } else {
                    Step::Wait
                };
            }
        }
        self.pair_next(now, None).map_or(Step::Wait, Step::Record)
    }

    /// Whether the rounds played are all the format has (asked once the last is complete;
    /// a Swiss by its count, without pairing a round).
    #[must_use]
    pub fn no_round_left(&self) -> bool {
        let past = self.past();
        match self.config.format {
            Format::Swiss { rounds } => past.len() >= rounds,
            format => format.next_round(self.players.len(), &past).is_none(),
        }
    }

    /// The next round's pairing event (or the end), once the last round is complete.
    #[must_use]
    pub fn pair_next(&self, now: u64, game: Option<GameChoice>) -> Option<Event<W>> {
        if self.rounds.last().is_some_and(|r| !r.complete()) {
            return None;
        }
        let past = self.past();
        match self.config.format.next_round(self.players.len(), &past) {
            None => Some(Event::Finished { at: now }),
            Some(round) => {
                let choice = game.unwrap_or_else(|| self.game_for(self.rounds.len()).clone());
                Some(Event::RoundPaired {
                    at: now,
                    game: choice.game,
                    options: choice.options,
                    round,
                })
            }
        }
    }
}

/// What a tournament's driver saw of a board's match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchSeen {
    /// Whether each seat has joined.
    pub joined: [bool; 2],
    /// Its result once over: the winner (`None`: a draw) and the match's own reason.
    pub result: Option<(Option<Seat>, String)>,
}

/// What a tournament's driver should do next ([`Tournament::next_step`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Step<W> {
    /// Nothing until something changes.
    Wait,
    /// Store and apply this event.
    Record(Event<W>),
    /// Make the match of a board.
    CreateMatch {
        /// The round (0-based).
        round: usize,
        /// The board (0-based).
        board: usize,
    },
}

/// The tournament's status as its pages word it: `registering`, `playing` or `finished`.
#[must_use]
pub fn status<W>(t: &Tournament<W>) -> &'static str {
    if t.finished {
        "finished"
    } else if t.started {
        "playing"
    } else {
        "registering"
    }
}

/// The standings as CSV: one header line, then a line a player.
#[must_use]
pub fn standings_csv<W: Clone>(t: &Tournament<W>) -> String {
    let mut out = String::from(
        "rank,name,points,buchholz,sonneborn_berger,wins,draws,losses,byes,garnets,out_in_round\n",
    );
    for s in t.standings() {
        let entrant = t.line_entrant(s.player);
        let name = &entrant.name;
        let quoted = if name.contains([',', '"', '\n']) {
            format!("\"{}\"", name.replace('"', "\"\""))
        } else {
            name.clone()
        };
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{}\n",
            s.rank,
            quoted,
            s.points,
            s.buchholz,
            s.sonneborn_berger,
            s.wins,
            s.draws,
            s.losses,
            s.byes,
            entrant.garnets,
            s.out_in_round.map_or(String::new(), |r| r.to_string())
        ));
    }
    out
}

impl<W: Clone + DeserializeOwned> Fold for Tournament<W> {
    type Config = TournamentConfig<W>;
    type Event = Event<W>;

    fn start(config: TournamentConfig<W>) -> Self {
        Tournament::new(config)
    }

    fn apply_event(&mut self, event: &Event<W>) -> Result<(), String> {
        self.apply(event.clone())
    }
}
