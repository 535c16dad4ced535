//! What spectators and webhooks are told: a match's webhook and its news (each table's
//! announcer is started by the core, `Hub::start_announcer`).

use super::*;

impl<S: Store> Hub<S> {
    /// The chat webhooks' queues (`crate::webhooks`).
    pub fn webhooks(&self) -> &crate::webhooks::Webhooks {
        &self.webhooks
    }

    /// Sets (or with `None` removes) the webhook that announces the match at `table`, from its
    /// next event on; stored with the match.
    pub async fn set_webhook(
        self: &Arc<Self>,
        table: &Arc<Table>,
        webhook: Option<crate::webhooks::WebhookConfig>,
    ) -> Result<(), ApiError> {
        self.set_webhook_since(table, webhook, false).await
    }

    /// As [`Hub::set_webhook`], but announcing every step from the match's first, its result
    /// too if it is over: a Discord match's channel (`crate::discord::post::watch`), set as the
    /// match starts, by a task that may run after its first moves. Nothing if the match has
    /// this webhook already (after a restart its announcer goes on where it was).
    pub async fn set_webhook_from_start(
        self: &Arc<Self>,
        table: &Arc<Table>,
        webhook: crate::webhooks::WebhookConfig,
    ) -> Result<(), ApiError> {
        self.set_webhook_since(table, Some(webhook), true).await
    }

    pub(super) async fn set_webhook_since(
        self: &Arc<Self>,
        table: &Arc<Table>,
        webhook: Option<crate::webhooks::WebhookConfig>,
        from_start: bool,
    ) -> Result<(), ApiError> {
        let mut st = table.state.lock().await;
        if st.meta.webhook == webhook || (st.meta.finished() && !from_start) {
            return Ok(());
        }
        st.meta.webhook = webhook;
        self.store
            .update(&st.meta)
            .await
            .map_err(|e| ApiError::internal("storing a match's webhook", e))?;
        // A match not started yet is announced from its start (with the start post).
        let seen = st.meta.started_at.filter(|_| !from_start).and_then(|_| {
            st.game
                .move_log(Viewer::Spectator)
                .last()
                .map(|l| (l.game, l.step))
        });
        let on = st.meta.webhook.is_some();
        drop(st);
        table.version.send_modify(|v| *v += 1);
        if on {
            self.announce(table, seen).await;
        }
        Ok(())
    }

    /// What a spectator has seen of the match at `table` since move-log key `seen`
    /// ((game, step); `None`: from the start): the new move lines, each with the spectator's
    /// view of its game just after that step (replayed from the records, which hold only
    /// revealed steps), the view now and the result. Nothing here is more than a spectator's
    /// state shows.
    pub async fn spectator_news(
        &self,
        table: &Table,
        seen: Option<(usize, usize)>,
    ) -> SpectatorNews {
        let st = table.state.lock().await;
        let lines: Vec<colosseum_host::MoveLine> = st
            .game
            .move_log(Viewer::Spectator)
            .into_iter()
            .filter(|l| seen.is_none_or(|k| (l.game, l.step) > k))
            .collect();
        let records = if lines.is_empty() {
            Vec::new()
        } else {
            st.game.records()
        };
        let now = (
            st.game.game().id().to_string(),
            st.game.game().view_json(Viewer::Spectator),
        );
        let news = SpectatorNews {
            webhook: st.meta.webhook.clone(),
            names: st.meta.names.clone(),
            bots: Seat::BOTH.map(|seat| match st.meta.config.player(seat) {
                Player::Bot { level } => Some(level.clone()),
                Player::Human { .. } => None,
            }),
            started: st.meta.started_at.is_some(),
            tournament: st.meta.tournament.clone(),
            lines: Vec::new(),
            now,
            result: st.meta.result.clone(),
            turn_ups: st
                .game
                .log()
                .iter()
                .enumerate()
                .filter_map(|(i, e)| match e {
                    colosseum_host::LogEntry::TurnUp {
                        seat,
                        turn_ms,
                        bank_ms,
                        ..
                    } => Some((i, *seat, *turn_ms, *bank_ms)),
                    _ => None,
                })
                .collect(),
        };
        drop(st);
        let mut out = Vec::with_capacity(lines.len());
        // One replay per game, taking the view after each step announced.
        let mut replaying: Option<(usize, Box<dyn colosseum_engine::AnyGame>, usize)> = None;
        for line in lines {
            let Some(record) = records.get(line.game.wrapping_sub(1)) else {
                continue;
            };
            if replaying
                .as_ref()
                .is_none_or(|(g, _, done)| *g != line.game || *done > line.step)
            {
                let Ok(entry) = colosseum_games::find(&record.game) else {
                    continue;
                };
                let Ok(game) = (entry.create)(&record.options) else {
                    continue;
                };
                replaying = Some((line.game, game, 0));
            }
            let (_, game, done) = replaying.as_mut().expect("set above");
            while *done <= line.step && *done < record.steps.len() {
                if game.apply(&record.steps[*done]).is_err() {
                    break;
                }
                *done += 1;
            }
            let view = game.view_json(Viewer::Spectator);
            out.push((line, game.id().to_string(), view));
        }
        SpectatorNews { lines: out, ..news }
    }
}
