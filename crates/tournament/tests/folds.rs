//! The folds of stored logs: a season's and a tournament's configuration and events, as today's
//! server writes them, fold to the same state (existing databases load), and a log that does
//! not fold says which event is at fault.

use std::collections::HashMap;

use colosseum_engine::Seat;
use colosseum_tournament::fold::{Fold, FoldError};
use colosseum_tournament::rating::Rating;
use colosseum_tournament::season::{Season, SeasonEvent};
use colosseum_tournament::tournament::{standings_csv, status, GamePick, How, Step, Tournament};
use colosseum_tournament::Outcome;

/// A season's stored configuration, as the server writes it.
const SEASON_CONFIG: &str =
    r#"{"id":"s1","name":"Season 1","admin_token":"adm","created_at":1700000000000}"#;

/// A season's stored events, as the server writes them: a roster of three, a tournament, a
/// rated casual match that was rated, another that was not, and a rated tournament game.
const SEASON_EVENTS: [&str; 9] = [
    r#"{"type":"player_added","at":1,"player":{"name":"Ann","token":"ta"}}"#,
    r#"{"type":"player_added","at":2,"player":{"name":"Bo","token":"tb"}}"#,
    r#"{"type":"player_added","at":3,"player":{"name":"Cy","token":"tc"}}"#,
    r#"{"type":"tournament_added","at":4,"id":"t1","name":"Week 1"}"#,
    r#"{"type":"match_created","at":5,"id":"m1","game":"goofspiel","players":[2,0],"tokens":["x",null]}"#,
    r#"{"type":"rated","at":6,"key":"m:m1","game":"goofspiel","players":[2,0],"outcome":"p1","before":[{"rating":1500.0,"deviation":350.0,"volatility":0.06},{"rating":1500.0,"deviation":350.0,"volatility":0.06}],"after":[{"rating":1662.3,"deviation":290.3,"volatility":0.059999},{"rating":1337.7,"deviation":290.3,"volatility":0.059999}]}"#,
    r#"{"type":"match_created","at":7,"id":"m2","game":"goofspiel","players":[0,1],"tokens":[null,null]}"#,
    r#"{"type":"unrated","at":8,"key":"m:m2","reason":"expired with a seat empty"}"#,
    r#"{"type":"rated","at":9,"key":"t:t1:0:0","game":"goofspiel","players":[1,0],"outcome":"draw","before":[{"rating":1500.0,"deviation":350.0,"volatility":0.06},{"rating":1337.7,"deviation":290.3,"volatility":0.059999}],"after":[{"rating":1450.0,"deviation":300.0,"volatility":0.06},{"rating":1360.0,"deviation":280.0,"volatility":0.059999}]}"#,
];

#[test]
fn a_stored_season_folds_to_its_roster_ratings_and_matches_and_writes_back_the_same_bytes() {
    let s = Season::fold(SEASON_CONFIG, &SEASON_EVENTS).unwrap();
    assert_eq!(s.config.name, "Season 1");
    assert_eq!(s.stored, 9);
    let names: Vec<&str> = s.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Bo", "Cy"]);
    assert_eq!(s.player_of("tb"), Some(1));
    assert_eq!(s.player_of("tx"), None);
    assert!(s.is_admin("adm") && !s.is_admin("ad"));
    assert_eq!(s.tournaments, [("t1".to_string(), "Week 1".to_string())]);
    assert_eq!(s.matches[0].done.as_deref(), Some("p1"));
    assert_eq!(
        s.matches[1].done.as_deref(),
        Some("expired with a seat empty")
    );
    let goof = &s.ratings["goofspiel"];
    let ann = goof[&0];
    assert_eq!((ann.games, ann.wins, ann.draws, ann.losses), (2, 0, 1, 1));
    assert_eq!(ann.rating.rating, 1360.0);
    let cy = goof[&2];
    assert_eq!((cy.games, cy.wins, cy.losses), (1, 1, 0));
    assert_eq!(s.rating("goofspiel", 1).rating, 1450.0);
    assert_eq!(s.rating("othergame", 1), Rating::default());
    assert!(s.rated.contains("t:t1:0:0") && s.rated.contains("m:m2"));
    // A rated game is not rated again.
    assert!(s
        .rate_event(10, "t:t1:0:0", "goofspiel", [1, 0], Outcome::P1)
        .is_none());
    // Written back, every stored text is the same bytes.
    assert_eq!(serde_json::to_string(&s.config).unwrap(), SEASON_CONFIG);
    for text in SEASON_EVENTS {
        let e: SeasonEvent = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&e).unwrap(), text);
    }
}

#[test]
fn folding_more_events_applies_only_the_ones_after_those_applied() {
    let mut s = Season::fold(SEASON_CONFIG, &SEASON_EVENTS[..4]).unwrap();
    s.fold_from(&SEASON_EVENTS, 4).unwrap();
    let whole = Season::fold(SEASON_CONFIG, &SEASON_EVENTS).unwrap();
    assert_eq!(s.stored, whole.stored);
    assert_eq!(s.players, whole.players);
    assert_eq!(s.ratings, whole.ratings);
    assert_eq!(s.matches, whole.matches);
}

#[test]
fn an_event_that_does_not_fit_is_named_by_its_index() {
    let mut events = SEASON_EVENTS.to_vec();
    // A game rated between a player and a roster place nobody holds.
    events.insert(
        3,
        r#"{"type":"rated","at":3,"key":"m:zz","game":"goofspiel","players":[0,7],"outcome":"p1","before":[{"rating":1500.0,"deviation":350.0,"volatility":0.06},{"rating":1500.0,"deviation":350.0,"volatility":0.06}],"after":[{"rating":1500.0,"deviation":350.0,"volatility":0.06},{"rating":1500.0,"deviation":350.0,"volatility":0.06}]}"#,
    );
    let err = Season::fold(SEASON_CONFIG, &events).unwrap_err();
    assert_eq!(err.index(), Some(3));
    assert!(matches!(&err, FoldError::Unfit { index: 3, .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "event 3 does not fit: rated game m:zz: no such pair of players"
    );
}

#[test]
fn an_event_that_does_not_read_is_named_by_its_index() {
    let mut events = SEASON_EVENTS.to_vec();
    events[5] = r#"{"type":"rated_twice","at":6}"#;
    let err = Season::fold(SEASON_CONFIG, &events).unwrap_err();
    assert!(
        matches!(&err, FoldError::Unreadable { index: 5, .. }),
        "{err:?}"
    );
    assert!(
        err.to_string().starts_with("event 5 does not read: "),
        "{err}"
    );
    assert!(err.to_string().contains("rated_twice"), "{err}");
    // From a later index on, the event before it is not read at all.
    let mut s = Season::fold(SEASON_CONFIG, &SEASON_EVENTS[..6]).unwrap();
    assert!(s.fold_from(&events, 6).is_ok());
}

#[test]
fn a_configuration_that_does_not_read_names_no_event() {
    let err = Season::fold(r#"{"id":"s1"}"#, &SEASON_EVENTS).unwrap_err();
    assert!(matches!(err, FoldError::Config { .. }), "{err:?}");
    assert_eq!(err.index(), None);
    assert!(err.to_string().contains("missing field `name`"), "{err}");
}

/// A chat webhook as the server stores it (its own type is the server's; the fold keeps it as
/// it came).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Hook {
    url: String,
    format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    verbosity: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    label: Option<String>,
}

type Cup = Tournament<Hook>;

/// A tournament's stored configuration (the first line) and events (one a line), as the server
/// wrote them before the fold moved here (printed by the server's own types): every optional
/// field of the configuration set; every kind of event, with a forfeit taken back, a
/// replacement, a match made again for the replacement, the webhook removed, a round withdrawn
/// and the end. The server's tests fold the same file with its own webhook type.
const CUP_LOG: &str = include_str!("fixtures/tournament_log.jsonl");

fn cup_log() -> (&'static str, Vec<&'static str>) {
    let mut lines = CUP_LOG.lines();
    (lines.next().unwrap(), lines.collect())
}

#[test]
fn a_stored_tournament_folds_to_its_state_and_writes_back_the_same_bytes() {
    let (config, events) = cup_log();
    assert_eq!(events.len(), 21);
    let t = Cup::fold(config, &events).unwrap();
    assert_eq!(t.config.name, "Cycle");
    assert_eq!(t.config.pick, GamePick::Draw);
    assert_eq!(t.config.games[1].game, "othergame");
    assert_eq!(
        t.config.webhook.as_ref().unwrap().label.as_deref(),
        Some("Cup")
    );
    assert_eq!(t.config.discord.as_ref().unwrap().channel, "c1");
    assert_eq!(t.config.no_show_ms, Some(60_000));
    assert!(t.config.time.is_some());
    // The host removed the webhook.
    assert_eq!(t.webhook, None);
    assert!(t.started && t.finished);
    assert_eq!(t.log.len(), events.len());
    let names: Vec<&str> = t.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Zed", "Cy"]);
    assert_eq!(t.players[2].garnets, 5);
    assert_eq!(t.players[1].season_player, Some(4));
    assert_eq!(t.players[1].discord.as_deref(), Some("d9"));
    assert_eq!(t.player_of("z"), Some(1));
    assert!(t.is_admin("a") && !t.is_admin("b"));
    assert_eq!(t.occupant, [0, 1, 0]);
    assert_eq!(t.formers.len(), 1);
    assert_eq!(
        (
            t.formers[0].place,
            t.formers[0].entrant.name.as_str(),
            t.formers[0].by.as_str(),
            t.formers[0].at
        ),
        (1, "Bo", "Zed", 10)
    );
    // The third round was withdrawn.
    assert_eq!(t.rounds.len(), 2);
    let first = &t.rounds[0].boards[0];
    assert_eq!(first.match_id.as_deref(), Some("m1"));
    assert_eq!(first.tokens, [Some("tk1".to_string()), None]);
    assert_eq!(first.advantage, Some(Seat::P2));
    assert!(first.no_show_off);
    assert_eq!(first.occupants, Some([0, 0]));
    assert!(matches!(
        first.result,
        Some((
            Outcome::P1,
            How::Played {
                winner: Some(Seat::P1),
                ..
            }
        ))
    ));
    let second = &t.rounds[1].boards[0];
    assert_eq!(t.rounds[1].game, "othergame");
    assert_eq!(second.match_id.as_deref(), Some("m3"));
    assert_eq!(second.since, Some(10));
    assert!(!second.no_show_off);
    assert_eq!(second.occupants, Some([1, 0]));
    assert!(matches!(
        second.result,
        Some((Outcome::Draw, How::Adjudicated { .. }))
    ));
    assert_eq!(t.board_names(0, 0), ["Ann".to_string(), "Bo".to_string()]);
    assert_eq!(t.board_names(1, 0), ["Zed".to_string(), "Cy".to_string()]);
    // Bo keeps the game he lost; Zed has his draw; Ann her win and her bye, Cy his bye and draw.
    let table: Vec<(String, u32, u32, u32)> = t
        .standings()
        .iter()
        .map(|s| {
            (
                t.line_entrant(s.player).name.clone(),
                s.wins,
                s.draws,
                s.losses,
            )
        })
        .collect();
    assert_eq!(
        table,
        [
            ("Ann".to_string(), 1, 0, 0),
            ("Cy".to_string(), 0, 1, 0),
            ("Zed".to_string(), 0, 1, 0),
            ("Bo".to_string(), 0, 0, 1),
        ]
    );
    assert_eq!(status(&t), "finished");
    assert!(standings_csv(&t).starts_with("rank,name,points,"));
    assert_eq!(t.next_step(99, &HashMap::new()), Step::Wait);
    // Written back, every stored text is the same bytes.
    assert_eq!(serde_json::to_string(&t.config).unwrap(), config);
    for (text, event) in events.iter().zip(&t.log) {
        assert_eq!(&serde_json::to_string(event).unwrap(), text);
    }
}

#[test]
fn a_tournament_event_that_does_not_fit_is_named_by_its_index() {
    let (config, stored) = cup_log();
    let mut events = stored.clone();
    // A result for a board of a round that was never paired.
    events.insert(
        6,
        r#"{"type":"result","at":5,"round":4,"board":0,"outcome":"p2","how":{"kind":"adjudicated","reason":"x"}}"#,
    );
    let err = Cup::fold(config, &events).unwrap_err();
    assert_eq!(
        err,
        FoldError::Unfit {
            index: 6,
            error: "no board 0 in round 4".into()
        }
    );
    // Withdrawing a round that is not the last.
    let mut events = stored;
    events[19] = r#"{"type":"round_withdrawn","at":15,"round":0}"#;
    let err = Cup::fold(config, &events).unwrap_err();
    assert_eq!(
        err.to_string(),
        "event 19 does not fit: round 0 is not the last round"
    );
}
