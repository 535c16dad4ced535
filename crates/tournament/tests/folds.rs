//! The folds of stored logs: a season's and a tournament's configuration and events, as today's
//! server writes them, fold to the same state (existing databases load), and a log that does
//! not fold says which event is at fault.

use colosseum_tournament::fold::{Fold, FoldError};
use colosseum_tournament::rating::Rating;
use colosseum_tournament::season::{Season, SeasonEvent};
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
