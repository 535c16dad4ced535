//! A match's announcer: a task that follows one match (its table's version) and posts to the
//! match's webhook its start, each reveal and its result, each with the board, all from
//! [`Hub::spectator_news`] (the spectator's move log and views).
//!
//! Posts are written for people: the players by their names ([`names`]: the names they joined
//! with, a bot by its level in words, "Computer: rule of thumb"), the game by its name, and a
//! result's reason with those names for the engine's `p1` and `p2`
//! ([`colosseum_games::text::with_names`]); the board picture is labelled with the same names.

use std::sync::Arc;
use std::time::Duration;

use colosseum_engine::Seat;
use colosseum_games::text::with_names;
use colosseum_host::MoveLine;

use super::{Board, Post, WebhookConfig};
use crate::hub::{HostPower, Hub, SpectatorNews, Table};
use crate::store::{Store, StoredMatch};

/// How long the announcer waits for a change before checking that its match is still served.
const IDLE: Duration = Duration::from_secs(600);

/// The seats' names as posted, `p1`'s first: a person's display name ("Player 1" or "Player 2"
/// without one); a bot's name in its tournament, else its level in words
/// ([`colosseum_ai::registry::level_name`]: "Computer: rule of thumb", never `bot heuristic`).
/// Two names that read the same (two bots of one level) are told apart: "Computer: easy
/// (first)" and "Computer: easy (second)".
#[must_use]
pub fn names(given: &[Option<String>; 2], bots: &[Option<String>; 2]) -> [String; 2] {
    let mut out = Seat::BOTH.map(|seat| {
        let i = seat.index();
        let given = given[i].as_deref().map(str::trim).filter(|n| !n.is_empty());
        match (&bots[i], given) {
            // A bot's stored name is `bot LEVEL` unless its tournament named it.
            (Some(level), Some(name)) if name != format!("bot {level}") => name.to_string(),
            (Some(level), _) => colosseum_ai::registry::level_name(level),
            (None, Some(name)) => name.to_string(),
            (None, None) => format!("Player {}", i + 1),
        }
    });
    if crate::names::same_name(&out[0], &out[1]) {
        out[0].push_str(" (first)");
        out[1].push_str(" (second)");
    }
    out
}

fn news_names(news: &SpectatorNews) -> [String; 2] {
    names(&news.names, &news.bots)
}

/// `seat`'s name in `news`.
fn name(news: &SpectatorNews, seat: Seat) -> String {
    news_names(news)[seat.index()].clone()
}

/// The game's name ("The Witch's Brew"), never its id (an id the registry does not know is
/// shown as it is).
fn game_name(id: &str) -> &str {
    colosseum_games::find(id).map_or(id, |e| e.name)
}

/// `Goofspiel: Alice v Bob`, after the webhook's label (a tournament's board: `Cup, round 2,
/// board 1 — Goofspiel: Alice v Bob`).
fn title(news: &SpectatorNews) -> String {
    let title = format!(
        "{}: {} v {}",
        game_name(&news.now.0),
        name(news, Seat::P1),
        name(news, Seat::P2)
    );
    match &news.webhook {
        Some(hook) => hook.titled(&title),
        None => title,
    }
}

/// `90 seconds`, `2 minutes`, `1 minute 30 seconds`, `1 hour 5 minutes`.
#[must_use]
pub fn duration_words(ms: u64) -> String {
    let secs = ms.div_ceil(1000);
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let unit = |n: u64, one: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {one}s")
        }
    };
    let parts: Vec<String> = [(h, "hour"), (m, "minute"), (s, "second")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, one)| unit(n, one))
        .collect();
    if parts.is_empty() {
        unit(0, "second")
    } else if secs < 120 && h == 0 {
        unit(secs, "second")
    } else {
        parts.join(" ")
    }
}

/// The post of a host's action on a match (pause, resume, more time, adjudication) for the
/// match's webhook, if it has one: titled as its other posts are, never shed
/// ([`Post::priority`]).
#[must_use]
pub fn host_action(meta: &StoredMatch, power: &HostPower) -> Option<(WebhookConfig, Post)> {
    let hook = meta.webhook.clone()?;
    let bots = Seat::BOTH.map(|seat| match meta.config.player(seat) {
        colosseum_host::Player::Bot { level } => Some(level.clone()),
        colosseum_host::Player::Human { .. } => None,
    });
    let names = names(&meta.names, &bots);
    let line = match power {
        HostPower::Pause => "The host paused the match: no clock runs.".to_string(),
        HostPower::Resume => "The host resumed the match.".to_string(),
        HostPower::GiveTime { seat, ms } => format!(
            "The host gave {} {} more.",
            names[seat.index()],
            duration_words(*ms)
        ),
        HostPower::Adjudicate { winner, reason } => {
            let outcome = match winner {
                Some(seat) => format!("{} wins", names[seat.index()]),
                None => "A draw".to_string(),
            };
            let both = [names[0].as_str(), names[1].as_str()];
            format!(
                "The host adjudicated the match. {outcome}: {}",
                with_names(reason, both)
            )
        }
    };
    let title = format!(
        "{}: {} v {}",
        game_name(&meta.config.game),
        names[0],
        names[1]
    );
    Some((
        hook.clone(),
        Post {
            kind: "host",
            title: hook.titled(&title),
            lines: vec![line],
            board: None,
        },
    ))
}

/// A board to attach: the game, the spectator's view, the players' names.
fn board(news: &SpectatorNews, game: &str, view: &serde_json::Value) -> Board {
    Board {
        game: game.to_string(),
        view: view.clone(),
        names: news_names(news),
    }
}

/// The result line: `Bea wins: Bea took more points, 7 to 3` (the engine's or host's reason
/// with the names for `p1` and `p2`), or `A draw: ...`.
#[must_use]
pub fn result_words(names: &[String; 2], result: &colosseum_host::MatchResult) -> String {
    let winner = match result.winner {
        Some(seat) => format!("{} wins", names[seat.index()]),
        None => "A draw".to_string(),
    };
    let both = [names[0].as_str(), names[1].as_str()];
    format!("{winner}: {}", with_names(&result.reason, both))
}

/// One move line in words, as a spectator sees it: what each player played (or that they put a
/// move down face down), what was drawn (a seat it names by its player's name).
#[must_use]
pub fn line_words(news: &SpectatorNews, line: &MoveLine) -> String {
    let names = news_names(news);
    let mut parts = Vec::new();
    for seat in Seat::BOTH {
        let who = &names[seat.index()];
        let late = line.by_default.contains(&seat);
        if let Some(m) = line.slot(seat) {
            if late {
                parts.push(format!(
                    "{who} ran out of time, and the host played {m} for them"
                ));
            } else {
                parts.push(format!("{who} played {m}"));
            }
        } else if line.face_down.contains(&seat) {
            if late {
                parts.push(format!(
                    "{who} ran out of time, and the host moved face down for them"
                ));
            } else {
                parts.push(format!("{who} moved face down"));
            }
        }
    }
    match &line.chance {
        Some(c) => parts.push(format!(
            "drawn: {}",
            with_names(c, [names[0].as_str(), names[1].as_str()])
        )),
        None if line.hidden && parts.is_empty() => parts.push("a secret draw".into()),
        None => {}
    }
    let game = if line.game > 1 {
        format!("game {}, ", line.game)
    } else {
        String::new()
    };
    format!("{game}step {}: {}", line.step + 1, parts.join("; "))
}

/// The post when a turn's own time ran out for seats still deciding (the seeds' host's "the 60
/// seconds are up"): `ups` are [`SpectatorNews::turn_ups`] entries of one moment.
fn turn_up_post(news: &SpectatorNews, ups: &[(usize, Seat, u64, u64)]) -> Post {
    let lines = ups
        .iter()
        .map(|&(_, seat, turn_ms, bank_ms)| {
            let who = name(news, seat);
            format!(
                "{}: {who} has not decided, and {who}'s time bank is running ({} left).",
                up_words(turn_ms),
                duration_words(bank_ms)
            )
        })
        .collect();
    Post {
        kind: "clock",
        title: title(news),
        lines,
        board: None,
    }
}

/// "60 seconds are up", as the seeds' host says it; a time that is not a whole number of
/// seconds up to two minutes: "Time is up (2 minutes 30 seconds)".
fn up_words(ms: u64) -> String {
    if ms.is_multiple_of(1000) && ms <= 120_000 {
        format!("{} seconds are up", ms / 1000)
    } else {
        format!("Time is up ({})", duration_words(ms))
    }
}

/// Each run of draw posts joined to the reveal after it (its lines first); draws with no
/// reveal after them stay as they are.
fn draws_into_reveals(posts: Vec<Post>) -> Vec<Post> {
    let mut out: Vec<Post> = Vec::with_capacity(posts.len());
    let mut draws: Vec<Post> = Vec::new();
    for mut post in posts {
        match post.kind {
            "drawn" => draws.push(post),
            "reveal" => {
                let mut lines: Vec<String> = draws.drain(..).flat_map(|d| d.lines).collect();
                lines.append(&mut post.lines);
                post.lines = lines;
                out.push(post);
            }
            _ => {
                out.append(&mut draws);
                out.push(post);
            }
        }
    }
    out.append(&mut draws);
    out
}

fn is_move(line: &MoveLine) -> bool {
    line.p1.is_some() || line.p2.is_some() || !line.face_down.is_empty()
}

/// The posts for `news`'s new lines: each reveal (a step where a seat moved) with the chance
/// steps that follow it, chance steps before any reveal on their own (or in the start post),
/// each with the board just after its last step.
fn reveal_posts(news: &SpectatorNews, start: Option<Post>) -> Vec<Post> {
    let mut posts: Vec<Post> = start.into_iter().collect();
    let mut current: Option<Post> = None;
    let can_join = |p: &Post| p.kind == "reveal" || p.kind == "start" || p.kind == "drawn";
    for (line, game, view) in &news.lines {
        let words = line_words(news, line);
        if is_move(line) {
            if let Some(p) = current.take() {
                posts.push(p);
            }
            current = Some(Post {
                kind: "reveal",
                title: title(news),
                lines: vec![words],
                board: Some(board(news, game, view)),
            });
            continue;
        }
        // A chance step joins the post before it (the reveal it follows, or the start).
        let target = match current.as_mut() {
            Some(p) => Some(p),
            None => posts
                .last_mut()
                .filter(|p| can_join(p) && p.kind == "start"),
        };
        match target {
            Some(p) => {
                p.lines.push(words);
                p.board = Some(board(news, game, view));
            }
            None => {
                current = Some(Post {
                    kind: "drawn",
                    title: title(news),
                    lines: vec![words],
                    board: Some(board(news, game, view)),
                });
            }
        }
    }
    posts.extend(current);
    posts
}

/// Follows the match at `table` and posts to its webhook until the match is over or the webhook
/// is removed. `seen`: the last move-log key already announced (`None`: from the start, with a
/// start post).
pub async fn match_announcer<S: Store>(
    hub: Arc<Hub<S>>,
    table: Arc<Table>,
    mut seen: Option<(usize, usize)>,
) {
    let mut rx = Hub::<S>::subscribe(&table);
    let mut start_posted = seen.is_some();
    // The turn notices announced up to (a log index): an announcer started again after a
    // restart does not announce the old ones again.
    let mut turn_ups_from: Option<usize> = seen.is_none().then_some(0);
    loop {
        rx.mark_unchanged();
        let news = hub.spectator_news(&table, seen).await;
        let Some(hook) = news.webhook.clone() else {
            return;
        };
        let from =
            *turn_ups_from.get_or_insert_with(|| news.turn_ups.last().map_or(0, |&(i, ..)| i + 1));
        let ups: Vec<_> = news
            .turn_ups
            .iter()
            .copied()
            .filter(|&(i, ..)| i >= from)
            .collect();
        if news.started {
            // A Discord match's own channel was told of the start by the bot's answer.
            let quiet = crate::discord::post::says_its_own_start(&hook);
            // There, draws are told with the reveal after them (no post of their own): new
            // lines that are all draws wait for it (or for the result).
            let held = quiet
                && news.result.is_none()
                && news.lines.iter().all(|(line, ..)| !is_move(line));
            let start = (!start_posted && !quiet).then(|| Post {
                kind: "start",
                title: title(&news),
                lines: vec!["The match begins.".into()],
                board: Some(board(&news, &news.now.0, &news.now.1)),
            });
            start_posted = true;
            if let Some(last) = news.lines.last().filter(|_| !held) {
                seen = Some((last.0.game, last.0.step));
            }
            let mut posts = if held {
                Vec::new()
            } else {
                reveal_posts(&news, start)
            };
            if quiet {
                posts = draws_into_reveals(posts);
            }
            // The last reveal while the match goes on invites the players to their next
            // move (on a Discord channel: the "Make your move" button).
            let inviting = posts
                .iter()
                .rposition(|p| p.kind == "reveal")
                .filter(|_| news.result.is_none() && news.bots.iter().any(Option::is_none));
            for (i, post) in posts.into_iter().enumerate() {
                if Some(i) == inviting {
                    hub.webhooks().post_inviting(&hook, post);
                } else {
                    hub.webhooks().post(&hook, post);
                }
            }
            if let Some(&(last, ..)) = ups.last() {
                // One post per moment (both seats' turns run out together).
                for moment in ups.chunk_by(|a, b| b.0 == a.0 + 1) {
                    hub.webhooks().post(&hook, turn_up_post(&news, moment));
                }
                turn_ups_from = Some(last + 1);
            }
        }
        if let Some(result) = &news.result {
            hub.webhooks().post(
                &hook,
                Post {
                    kind: "result",
                    title: title(&news),
                    lines: vec![result_words(&news_names(&news), result)],
                    board: Some(board(&news, &news.now.0, &news.now.1)),
                },
            );
            return;
        }
        match tokio::time::timeout(IDLE, rx.changed()).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return,
            // Quiet for long: stop if the match is no longer served (it expired).
            Err(_) => {
                if hub.table(&table.id).await.is_err() {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::duration_words;

    #[test]
    fn extra_time_reads_in_words() {
        for (ms, words) in [
            (1_000, "1 second"),
            (30_000, "30 seconds"),
            (90_000, "90 seconds"),
            (120_000, "2 minutes"),
            (150_000, "2 minutes 30 seconds"),
            (3_600_000, "1 hour"),
            (3_900_000, "1 hour 5 minutes"),
        ] {
            assert_eq!(duration_words(ms), words);
        }
    }
}
