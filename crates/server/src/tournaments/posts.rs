//! What a tournament's chat webhook is sent: pairings, results the matches do not post,
//! standings.

use super::*;

/// The standings as posted: a line a player, the first [`POSTED_STANDINGS`]
/// ([`colosseum_tournament::tournament::Tournament::standings_lines`]).
pub(super) fn standings_lines(t: &Tournament) -> Vec<String> {
    t.standings_lines(POSTED_STANDINGS)
}

/// The most standings lines a webhook post lists.
const POSTED_STANDINGS: usize = 20;

/// What a webhook announces for `event`, just applied to `t`: a round's pairings, a result the
/// match's own announcer does not post (a no-show forfeit, an adjudication), a forfeit undone,
/// the standings when a round is complete, the final standings. Everything here is public
/// (the tournament page shows it to anyone).
pub(super) fn announcements(t: &Tournament, event: &Event) -> Vec<Post> {
    let name = |p: PlayerId| t.players[p].name.clone();
    let line_name = |l: usize| t.line_entrant(l).name.clone();
    let tname = &t.config.name;
    let standings = |title: String| Post {
        kind: "standings",
        title,
        lines: standings_lines(t),
        board: None,
    };
    let board_name = |round: usize, board: usize| {
        let [p1, p2] = t.board_names(round, board);
        format!("{p1} v {p2}")
    };
    match event {
        Event::RoundPaired { game, round, .. } => {
            let r = t.rounds.len();
            let game = colosseum_games::find(game).map_or(game.as_str(), |e| e.name);
            let mut lines: Vec<String> = round
                .games
                .iter()
                .enumerate()
                .map(|(b, g)| format!("Board {}: {} v {}", b + 1, name(g.p1), name(g.p2)))
                .collect();
            lines.extend(round.byes.iter().map(|&p| format!("Bye: {}", name(p))));
            vec![Post {
                kind: "pairings",
                title: format!("{tname}: round {r} ({game})"),
                lines,
                board: None,
            }]
        }
        Event::Result {
            round,
            board,
            outcome,
            how,
            ..
        } => {
            let mut posts = Vec::new();
            let seats = t.board_names(*round, *board);
            let words = match how {
                How::Played { .. } => None,
                How::NoShow { absent } => Some(format!(
                    "no-show ({} absent)",
                    absent
                        .iter()
                        .map(|s| seats[s.index()].as_str())
                        .collect::<Vec<_>>()
                        .join(" and ")
                )),
                How::Adjudicated { reason } => Some(format!(
                    "adjudicated by the host: {}",
                    colosseum_games::text::with_names(reason, [&seats[0], &seats[1]])
                )),
            };
            if let Some(words) = words {
                let result = match outcome {
                    Outcome::P1 => format!("{} wins", seats[0]),
                    Outcome::P2 => format!("{} wins", seats[1]),
                    Outcome::Draw => "a draw".to_string(),
                };
                posts.push(Post {
                    kind: "result",
                    title: format!("{tname}: round {}, board {}", round + 1, board + 1),
                    lines: vec![format!("{}: {result}, {words}", board_name(*round, *board))],
                    board: None,
                });
            }
            if *round + 1 == t.rounds.len() && t.rounds[*round].complete() {
                posts.push(standings(format!(
                    "{tname}: standings after round {}",
                    round + 1
                )));
            }
            posts
        }
        Event::ResultUndone { round, board, .. } => vec![Post {
            kind: "result",
            title: format!("{tname}: round {}, board {}", round + 1, board + 1),
            lines: vec![format!(
                "{}: the no-show forfeit is taken back; the game goes on",
                board_name(*round, *board)
            )],
            board: None,
        }],
        Event::Finished { .. } => {
            // The final standings lead with the winner.
            let mut post = standings(format!("{tname} is over: final standings"));
            let first: Vec<String> = t
                .standings()
                .iter()
                .filter(|s| s.rank == 1)
                .map(|s| line_name(s.player))
                .collect();
            let head = match first.as_slice() {
                [] => None,
                [one] => Some(format!("{one} wins the tournament.")),
                [rest @ .., last] => {
                    Some(format!("{} and {last} share first place.", rest.join(", ")))
                }
            };
            post.lines.splice(0..0, head);
            vec![post]
        }
        Event::Replaced { player, by, was, .. } => vec![Post {
            kind: "host",
            title: format!("{tname}: {was} is replaced by {}", by.name),
            lines: vec![format!(
                "{} takes {was}'s place (seed {}) from the next game on; {was}'s games stay {was}'s.",
                by.name,
                player + 1
            )],
            board: None,
        }],
        Event::MatchRemade {
            round,
            board,
            player,
            ..
        } => {
            let was = t
                .formers
                .iter()
                .rev()
                .find(|f| f.place == *player)
                .map_or_else(String::new, |f| f.entrant.name.clone());
            vec![Post {
                kind: "host",
                title: format!("{tname}: round {}, board {}", round + 1, board + 1),
                lines: vec![format!(
                    "{}: a new table, as {} takes {was}'s place before the game began.",
                    board_name(*round, *board),
                    name(*player)
                )],
                board: None,
            }]
        }
        Event::RoundWithdrawn { round, .. } => vec![Post {
            kind: "host",
            title: format!("{tname}: round {} is withdrawn", round + 1),
            lines: vec![format!(
                "A forfeit of round {round} is taken back; round {} is paired again when round {round} is over.",
                round + 1
            )],
            board: None,
        }],
        Event::WebhookSet {
            webhook: Some(_), ..
        } => vec![Post {
            kind: "webhook",
            title: format!("{tname}: announcements start here"),
            lines: vec!["Pairings, reveals with the board, results and standings follow.".into()],
            board: None,
        }],
        Event::Garnets {
            player, garnets, ..
        } => vec![Post {
            kind: "host",
            title: format!("{tname}: garnets"),
            lines: vec![format!(
                "The host set {}'s garnets to {garnets}.",
                name(*player)
            )],
            board: None,
        }],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colosseum_tournament::{Bracket, Pairing, Round};

    fn game(p1: PlayerId, p2: PlayerId) -> Pairing {
        Pairing {
            p1,
            p2,
            bracket: Bracket::Main,
        }
    }

    /// A round robin of three in a cycle (each beats one, loses to one, has a bye).
    fn cycle() -> Tournament {
        let mut t = Tournament::new(TournamentConfig {
            id: "t".into(),
            name: "Cycle".into(),
            games: vec![GameChoice {
                game: "goofspiel".into(),
                options: RawOptions::default(),
            }],
            pick: GamePick::Rotate,
            format: Format::RoundRobin { double: false },
            time: None,
            cap: 3,
            no_show_ms: None,
            auto_rounds: true,
            admin_token: "a".into(),
            registration_token: None,
            created_at: 0,
            seed: 0,
            webhook: None,
            season: None,
            discord: None,
        });
        for name in ["Ann", "Bo", "Cy"] {
            let player = Entrant {
                name: name.into(),
                bot: Some("random".into()),
                token: None,
                garnets: 0,
                season_player: None,
                discord: None,
            };
            t.apply(Event::Entered { at: 0, player }).unwrap();
        }
        t.apply(Event::Started { at: 0 }).unwrap();
        t
    }

    fn play(t: &mut Tournament, p1: PlayerId, p2: PlayerId, bye: PlayerId) -> Vec<Post> {
        let round = t.rounds.len();
        t.apply(Event::RoundPaired {
            at: 0,
            game: "goofspiel".into(),
            options: RawOptions::default(),
            round: Round {
                games: vec![game(p1, p2)],
                byes: vec![bye],
                waiting: Vec::new(),
            },
        })
        .unwrap();
        let result = Event::Result {
            at: 0,
            round,
            board: 0,
            outcome: Outcome::P1,
            how: How::Played {
                winner: Some(Seat::P1),
                reason: "more points".into(),
            },
        };
        t.apply(result.clone()).unwrap();
        announcements(t, &result)
    }

    fn standings_lines(posts: &[Post]) -> Vec<String> {
        posts
            .iter()
            .find(|p| p.kind == "standings")
            .map(|p| p.lines.clone())
            .unwrap_or_default()
    }

    /// The standings post carries the fold's words (`Tournament::standings_lines`, whose ties,
    /// tie-breaks and plurals crates/tournament's tests pin).
    #[test]
    fn posted_standings_are_the_folds_words() {
        let mut t = cycle();
        let after_one = standings_lines(&play(&mut t, 0, 1, 2));
        assert_eq!(
            after_one[0], "=1. Ann: 1 point, 1-0-0 (SB 0)",
            "{after_one:?}"
        );
        assert_eq!(after_one, t.standings_lines(20));
        play(&mut t, 1, 2, 0);
        let last = standings_lines(&play(&mut t, 2, 0, 1));
        assert_eq!(last, t.standings_lines(20));
        assert!(!last.concat().contains("Buchholz"));
    }

    #[test]
    fn a_replacement_is_posted_and_the_standings_name_both() {
        let mut t = cycle();
        play(&mut t, 0, 1, 2);
        let replaced = Event::Replaced {
            at: 5,
            player: 1,
            by: Entrant {
                name: "Zed".into(),
                bot: Some("random".into()),
                token: None,
                garnets: 0,
                season_player: None,
                discord: None,
            },
            was: "Bo".into(),
        };
        t.apply(replaced.clone()).unwrap();
        let posts = announcements(&t, &replaced);
        assert_eq!(posts.len(), 1);
        assert_eq!(posts[0].title, "Cycle: Bo is replaced by Zed");
        // Who keeps which board is the fold's (crates/tournament's tests); the post names both.
        let lines = standings_lines(&play(&mut t, 1, 2, 0));
        assert!(
            lines.iter().any(|l| l.contains("Bo: 0 points, 0-0-1")),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("Zed: 1 point, 1-0-0")),
            "{lines:?}"
        );
    }

    /// A current-round game made for Bo that had not started is made again for Zed, and the
    /// change is posted (the fold's side, the board, the driver's next step and the no-show
    /// time, is crates/tournament's tests').
    #[test]
    fn a_game_remade_for_the_replacement_is_posted() {
        let mut t = cycle();
        t.apply(Event::RoundPaired {
            at: 0,
            game: "goofspiel".into(),
            options: RawOptions::default(),
            round: Round {
                games: vec![game(0, 1)],
                byes: vec![2],
                waiting: Vec::new(),
            },
        })
        .unwrap();
        t.apply(Event::MatchCreated {
            at: 0,
            round: 0,
            board: 0,
            id: "old".into(),
            tokens: [None, None],
            advantage: None,
        })
        .unwrap();
        t.apply(Event::Replaced {
            at: 50_000,
            player: 1,
            by: Entrant {
                name: "Zed".into(),
                bot: None,
                token: Some("z".into()),
                garnets: 0,
                season_player: None,
                discord: None,
            },
            was: "Bo".into(),
        })
        .unwrap();
        let remade = Event::MatchRemade {
            at: 50_000,
            round: 0,
            board: 0,
            player: 1,
        };
        t.apply(remade.clone()).unwrap();
        let posts = announcements(&t, &remade);
        assert_eq!(posts[0].title, "Cycle: round 1, board 1");
        assert_eq!(
            posts[0].lines,
            ["Ann v Zed: a new table, as Zed takes Bo's place before the game began."]
        );
    }
}
