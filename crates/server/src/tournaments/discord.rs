//! What the Discord application asks of the tournaments run in its channels.

use super::posts::standings_lines;
use super::*;

impl<S: Store> Tournaments<S> {
    /// The tournaments this process runs in Discord channel `channel`, oldest first: each id,
    /// admin token, room, each place's member now, and whether it is over.
    pub async fn in_discord_channel(&self, channel: &str) -> Vec<DiscordRun> {
        let lives: Vec<Arc<Live>> = self.live_map().values().cloned().collect();
        let mut out = Vec::new();
        for live in lives {
            let t = live.state.lock().await;
            let Some(room) = t.config.discord.clone().filter(|r| r.channel == channel) else {
                continue;
            };
            out.push(DiscordRun {
                id: t.config.id.clone(),
                name: t.config.name.clone(),
                admin: t.config.admin_token.clone(),
                room,
                members: t.players.iter().map(|p| p.discord.clone()).collect(),
                created_at: t.config.created_at,
                finished: t.finished,
            });
        }
        out.sort_by_key(|r| r.created_at);
        out
    }

    /// Tournament `id` as [`Tournaments::in_discord_channel`] gives it, if it is run in a
    /// Discord channel.
    pub async fn discord_run(self: &Arc<Self>, id: &str) -> Option<DiscordRun> {
        let live = self.live(id).await.ok()?;
        let t = live.state.lock().await;
        let room = t.config.discord.clone()?;
        Some(DiscordRun {
            id: t.config.id.clone(),
            name: t.config.name.clone(),
            admin: t.config.admin_token.clone(),
            room,
            members: t.players.iter().map(|p| p.discord.clone()).collect(),
            created_at: t.config.created_at,
            finished: t.finished,
        })
    }

    /// The current round's boards whose match is made (for the Discord application, which
    /// binds each to its members), and whether the tournament is over.
    pub async fn current_boards(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<(bool, Vec<BoardSeats>), ApiError> {
        let live = self.live(id).await?;
        let t = live.state.lock().await;
        let mut out = Vec::new();
        if let Some(round) = t.rounds.last() {
            let r = t.rounds.len() - 1;
            for (b, (g, board)) in round.pairing.games.iter().zip(&round.boards).enumerate() {
                let Some(m) = &board.match_id else { continue };
                out.push(BoardSeats {
                    round: r,
                    board: b,
                    match_id: m.clone(),
                    places: [g.p1, g.p2],
                    names: t.board_names(r, b),
                    tokens: board.tokens.clone(),
                    open: board.result.is_none(),
                });
            }
        }
        Ok((t.finished, out))
    }

    /// The tournament's name, its standings as posted ([`standings_lines`]), whether it is over
    /// and how many rounds have been paired.
    pub async fn standings_text(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<(String, Vec<String>, bool, usize), ApiError> {
        let live = self.live(id).await?;
        let t = live.state.lock().await;
        Ok((
            t.config.name.clone(),
            standings_lines(&t),
            t.finished,
            t.rounds.len(),
        ))
    }
}
