//! A match's announcer: a task that follows one match (its table's version) and posts to the
//! match's webhook its start, each reveal and its result, each with the board, all from
//! [`Hub::spectator_news`] (the spectator's move log and views).

use std::sync::Arc;
use std::time::Duration;

use colosseum_engine::Seat;
use colosseum_host::MoveLine;

use super::Post;
use crate::hub::{Hub, SpectatorNews, Table};
use crate::store::Store;

/// How long the announcer waits for a change before checking that its match is still served.
const IDLE: Duration = Duration::from_secs(600);

/// The seat's name as posted: the name given, or the seat.
fn name(news: &SpectatorNews, seat: Seat) -> String {
    news.names[seat.index()]
        .clone()
        .unwrap_or_else(|| seat.as_str().to_string())
}

/// `Goofspiel: Alice v Bob`.
fn title(news: &SpectatorNews) -> String {
    let game = colosseum_games::find(&news.now.0).map_or(news.now.0.as_str(), |e| e.name);
    format!(
        "{game}: {} (p1) v {} (p2)",
        name(news, Seat::P1),
        name(news, Seat::P2)
    )
}

/// One move line in words, as a spectator sees it: what each seat played (or that it put a
/// move down face down), what was drawn.
#[must_use]
pub fn line_words(news: &SpectatorNews, line: &MoveLine) -> String {
    let mut parts = Vec::new();
    for seat in Seat::BOTH {
        let who = name(news, seat);
        let late = if line.by_default.contains(&seat) {
            " (made by the host: time ran out)"
        } else {
            ""
        };
        if let Some(m) = line.slot(seat) {
            parts.push(format!("{who} played {m}{late}"));
        } else if line.face_down.contains(&seat) {
            parts.push(format!("{who} moved face down{late}"));
        }
    }
    match &line.chance {
        Some(c) => parts.push(format!("drawn: {c}")),
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
                board: Some((game.clone(), view.clone())),
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
                p.board = Some((game.clone(), view.clone()));
            }
            None => {
                current = Some(Post {
                    kind: "drawn",
                    title: title(news),
                    lines: vec![words],
                    board: Some((game.clone(), view.clone())),
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
    loop {
        rx.mark_unchanged();
        let news = hub.spectator_news(&table, seen).await;
        let Some(hook) = news.webhook.clone() else {
            return;
        };
        if news.started {
            let start = (!start_posted).then(|| Post {
                kind: "start",
                title: title(&news),
                lines: vec!["The match begins.".into()],
                board: Some(news.now.clone()),
            });
            start_posted = true;
            if let Some(last) = news.lines.last() {
                seen = Some((last.0.game, last.0.step));
            }
            for post in reveal_posts(&news, start) {
                hub.webhooks().post(&hook, post);
            }
        }
        if let Some(result) = &news.result {
            let winner = match result.winner {
                Some(seat) => format!("{} wins", name(&news, seat)),
                None => "A draw".to_string(),
            };
            hub.webhooks().post(
                &hook,
                Post {
                    kind: "result",
                    title: title(&news),
                    lines: vec![format!("{winner}: {}", result.reason)],
                    board: Some(news.now.clone()),
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
