//! The state messages each viewer is sent, rendered from their own view.

use super::*;

impl<S: Store> Hub<S> {
    /// The message a connection of `role` is sent: everything built from the match's view for
    /// that role.
    pub async fn state(&self, table: &Table, role: Role) -> Value {
        serde_json::from_str(&self.state_text(table, role).await).expect("a rendered state is JSON")
    }

    /// The message a connection of `role` is sent, as JSON text (what [`Hub::state`] parses).
    pub async fn state_text(&self, table: &Table, role: Role) -> String {
        let rendered = self.state_rendered(table, role).await;
        crate::render::with_server_now(&rendered.text, self.clock.now_ms())
    }

    /// The state message of `role` as text without `server_now` (`crate::render`): rendered
    /// once per viewer kind and table version, shared by every connection of the kind. Equal
    /// `content` numbers mean equal messages (the times aside).
    pub async fn state_rendered(&self, table: &Table, role: Role) -> crate::render::Rendered {
        let mut st = table.state.lock().await;
        // Read under the table's lock: a change bumps the version before it unlocks.
        let version = *table.version.borrow();
        let mut cache = std::mem::take(&mut st.rendered);
        let rendered = cache.get(role, version, |log| {
            (
                self.state_message(&st, &table.id, role),
                st.game.view_text(role, log),
            )
        });
        st.rendered = cache;
        rendered
    }

    pub(super) fn state_message(
        &self,
        st: &TableState,
        id: &str,
        role: Role,
    ) -> crate::render::StateMessage {
        let status = if st.meta.finished() {
            "finished"
        } else if st.meta.started_at.is_some() {
            "live"
        } else {
            "waiting"
        };
        let legal = match role {
            Viewer::Seat(seat)
                if st.meta.started_at.is_some()
                    && !st.meta.finished()
                    && st.game.game().pending().includes(seat) =>
            {
                let moves = st.game.game().legal_moves(seat);
                (moves.len() <= MAX_LEGAL_SENT).then_some(moves)
            }
            _ => None,
        };
        crate::render::StateMessage {
            kind: "state",
            id: id.to_string(),
            status,
            you: match role {
                Viewer::Seat(s) => Some(s),
                Viewer::Spectator => None,
            },
            joined: colosseum_engine::SeatPair {
                p1: st.meta.joined[0],
                p2: st.meta.joined[1],
            },
            names: colosseum_engine::SeatPair {
                p1: st.meta.names[0].clone(),
                p2: st.meta.names[1].clone(),
            },
            created_at: st.meta.created_at,
            started_at: st.meta.started_at,
            legal_moves: legal,
            steps: st.game.record().steps.len(),
            decision: st.game.decision(),
            practice: st.meta.practice,
            fairness: fairness_view(&st.meta),
            tournament: st.meta.tournament.clone(),
            paused: st.game.paused(),
            rematch: rematch_view(st.meta.rematch.as_ref(), role),
        }
    }
}
