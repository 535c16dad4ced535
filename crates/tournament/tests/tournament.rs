//! A tournament's state as its events make it, without a server: the driver's next step,
//! replacements, a bracket's drawn game and the standings in words (moved from the server's
//! module tests, whose posts stay there).

use std::collections::HashMap;

use colosseum_engine::{RawOptions, Seat};
use colosseum_tournament::tournament::{
    Entrant, Event, GameChoice, GamePick, How, MatchSeen, Step, Tournament, TournamentConfig,
};
use colosseum_tournament::{Bracket, Format, Outcome, Pairing, PlayerId, Round};

type T = Tournament<()>;

fn game(p1: PlayerId, p2: PlayerId) -> Pairing {
    Pairing {
        p1,
        p2,
        bracket: Bracket::Main,
    }
}

fn entrant(name: &str, bot: bool) -> Entrant {
    Entrant {
        name: name.into(),
        bot: bot.then(|| "random".into()),
        token: (!bot).then(|| name.to_lowercase()),
        garnets: 0,
        season_player: None,
        discord: None,
    }
}

/// A round robin of three in a cycle (each beats one, loses to one, has a bye).
fn cycle() -> T {
    let mut t = T::new(TournamentConfig {
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
        t.apply(Event::Entered {
            at: 0,
            player: entrant(name, true),
        })
        .unwrap();
    }
    t.apply(Event::Started { at: 0 }).unwrap();
    t
}

fn play(t: &mut T, p1: PlayerId, p2: PlayerId, bye: PlayerId) {
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
    t.apply(Event::Result {
        at: 0,
        round,
        board: 0,
        outcome: Outcome::P1,
        how: How::Played {
            winner: Some(Seat::P1),
            reason: "more points".into(),
        },
    })
    .unwrap();
}

/// Moved from the server's tests (which keep checking the post): the standings in words,
/// with ties, the format's own tie-breaks and the right plurals.
#[test]
fn standings_in_words_show_ties_the_formats_own_tie_breaks_and_the_right_words() {
    let mut t = cycle();
    play(&mut t, 0, 1, 2);
    // Ann won, Cy had a bye: 1 point each, unbroken (they have not met).
    assert_eq!(
        t.standings_lines(20),
        [
            "=1. Ann: 1 point, 1-0-0 (SB 0)",
            "=1. Cy: 1 point, 0-0-0 (SB 0)",
            "3. Bo: 0 points, 0-0-1 (SB 0)",
        ]
    );
    assert_eq!(
        t.standings_lines(1),
        ["=1. Ann: 1 point, 1-0-0 (SB 0)", "... and 2 more"]
    );
    play(&mut t, 1, 2, 0);
    play(&mut t, 2, 0, 1);
    let last = t.standings_lines(20);
    assert_eq!(
        last,
        [
            "=1. Ann: 2 points, 1-0-1 (SB 2)",
            "=1. Bo: 2 points, 1-0-1 (SB 2)",
            "=1. Cy: 2 points, 1-0-1 (SB 2)",
        ]
    );
    assert!(!last.concat().contains("Buchholz"));
}

/// The driver pairs the next round when the last is complete, and the end after the last.
#[test]
fn the_next_step_pairs_each_round_then_ends() {
    let mut t = cycle();
    let Step::Record(Event::RoundPaired { round, game, .. }) = t.next_step(1, &HashMap::new())
    else {
        panic!("the first round is paired")
    };
    assert_eq!(game, "goofspiel");
    assert_eq!(round.games.len(), 1);
    play(&mut t, 0, 1, 2);
    play(&mut t, 1, 2, 0);
    play(&mut t, 2, 0, 1);
    assert_eq!(
        t.next_step(5, &HashMap::new()),
        Step::Record(Event::Finished { at: 5 })
    );
    t.apply(Event::Finished { at: 5 }).unwrap();
    assert_eq!(t.next_step(6, &HashMap::new()), Step::Wait);
}

/// Moved from the server's tests (the posts stay there): a replacement takes the place
/// from the next game; the games before it stay the replaced player's.
#[test]
fn a_replacement_keeps_earlier_boards_with_their_players() {
    let mut t = cycle();
    play(&mut t, 0, 1, 2);
    t.apply(Event::Replaced {
        at: 5,
        player: 1,
        by: entrant("Zed", true),
        was: "Bo".into(),
    })
    .unwrap();
    assert_eq!(t.board_names(0, 0), ["Ann".to_string(), "Bo".to_string()]);
    play(&mut t, 1, 2, 0);
    assert_eq!(t.board_names(1, 0), ["Zed".to_string(), "Cy".to_string()]);
    let table = t.standings();
    let line = |name: &str| {
        table
            .iter()
            .find(|s| t.line_entrant(s.player).name == name)
            .unwrap()
            .clone()
    };
    assert_eq!((line("Bo").losses, line("Bo").wins), (1, 0));
    assert_eq!((line("Zed").wins, line("Zed").losses), (1, 0));
    assert_eq!(table.len(), 4);
}

/// Moved from the server's tests (the posts stay there): a current-round game made for Bo
/// that had not started is made again for Zed; its no-show time counts from the
/// replacement; a game with its result is not made again.
#[test]
fn an_unstarted_game_goes_to_the_replacement_with_a_new_table() {
    let mut t = cycle();
    t.config.no_show_ms = Some(60_000);
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
        by: entrant("Zed", false),
        was: "Bo".into(),
    })
    .unwrap();
    assert_eq!(t.board_names(0, 0), ["Ann".to_string(), "Bo".to_string()]);
    let remade = Event::MatchRemade {
        at: 50_000,
        round: 0,
        board: 0,
        player: 1,
    };
    t.apply(remade.clone()).unwrap();
    assert_eq!(t.board_names(0, 0), ["Ann".to_string(), "Zed".to_string()]);
    assert!(t.rounds[0].boards[0].match_id.is_none());
    assert_eq!(
        t.next_step(60_000, &HashMap::new()),
        Step::CreateMatch { round: 0, board: 0 }
    );
    t.apply(Event::MatchCreated {
        at: 50_000,
        round: 0,
        board: 0,
        id: "new".into(),
        tokens: [None, None],
        advantage: None,
    })
    .unwrap();
    let absent = HashMap::from([(
        "new".to_string(),
        MatchSeen {
            joined: [true, false],
            result: None,
        },
    )]);
    assert_eq!(t.next_step(100_000, &absent), Step::Wait);
    assert!(matches!(
        t.next_step(110_000, &absent),
        Step::Record(Event::Result {
            outcome: Outcome::P1,
            how: How::NoShow { .. },
            ..
        })
    ));
    assert!(t.clone().apply(remade).is_ok());
    let mut done = t.clone();
    done.apply(Event::Result {
        at: 0,
        round: 0,
        board: 0,
        outcome: Outcome::P1,
        how: How::Adjudicated { reason: "x".into() },
    })
    .unwrap();
    assert_eq!(
        done.apply(Event::MatchRemade {
            at: 0,
            round: 0,
            board: 0,
            player: 1
        }),
        Err("board 0 of round 0 has its result".to_string())
    );
}

/// A drawn game's point: a draw, but in a bracket the advantage holder's.
#[test]
fn a_drawn_match_in_a_bracket_goes_to_the_advantage() {
    let mut t = cycle();
    t.config.format = Format::SingleElimination;
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
        id: "m".into(),
        tokens: [None, None],
        advantage: Some(Seat::P2),
    })
    .unwrap();
    let seen = HashMap::from([(
        "m".to_string(),
        MatchSeen {
            joined: [true, true],
            result: Some((None, "a tie".into())),
        },
    )]);
    assert!(matches!(
        t.next_step(1, &seen),
        Step::Record(Event::Result {
            outcome: Outcome::P2,
            ..
        })
    ));
}
