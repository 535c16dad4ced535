//! The lobby's list of open matches, cached per page.

use super::*;

impl<S: Store> Hub<S> {
    /// A page of the open matches of a shared store (live, and waiting ones younger than the
    /// lobby lists), newest first, and how many there are: the last page read again while no
    /// change was heard of since (within the same second), else read from the store's indexes
    /// (`Store::open_page`: the page's rows only).
    pub(super) async fn open_page(
        &self,
        offset: usize,
        limit: usize,
    ) -> Result<OpenPage, ApiError> {
        let mut cache = self.open_cache.lock().await;
        let changes = self.changes.load(Ordering::SeqCst);
        let window = self
            .limits
            .lobby_waiting_ms
            .min(self.limits.waiting_expiry_ms);
        // Listed while younger than the window (`Hub::list_cutoff`, `Hub::expired`), to
        // the second when a page is kept.
        let since = (self.clock.now_ms() + 1).saturating_sub(window);
        let key = (changes, since / 1_000, offset, limit);
        if self.hearing.load(Ordering::SeqCst) {
            if let Some((at, page)) = cache.as_ref() {
                if *at == key {
                    return Ok(page.clone());
                }
            }
        }
        let page = Arc::new(
            self.store
                .open_page(since, offset, limit)
                .await
                .map_err(|e| ApiError::internal("listing matches", e))?,
        );
        *cache = Some((key, page.clone()));
        Ok(page)
    }

    /// The lobby: open and live matches (newest first), `limit` of them from `offset` on (the
    /// limit is capped at `Limits::lobby_page_max`), then recent finished ones. `next` is the
    /// path of the next page, or `null` on the last. A waiting match is listed only while it is
    /// fresh (`Limits::lobby_waiting_ms`, 10 minutes by default); expired ones leave memory too.
    pub async fn lobby(self: &Arc<Self>, offset: usize, limit: usize) -> Result<Value, ApiError> {
        self.sweep_expired().await;
        let limit = limit.clamp(1, self.limits.lobby_page_max.max(1));
        let (open, total) = if self.shared() {
            // Every node's matches, as the shared store has them: the page only.
            let page = self.open_page(offset, limit).await?;
            (page.0.iter().map(summary).collect::<Vec<_>>(), page.1)
        } else {
            // This node's, from the index kept as they change: the page only is read.
            let page = self.lobby.page(self.list_cutoff(), offset, limit);
            let open = page
                .summaries
                .iter()
                .map(|s| serde_json::from_str::<Value>(s))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| ApiError::internal("listing matches", e))?;
            (open, page.total)
        };
        let finished = self
            .store
            .recent_finished(50)
            .await
            .map_err(|e| ApiError::internal("listing matches", e))?;
        let end = offset.saturating_add(limit).min(total);
        let next = (end < total).then(|| format!("/api/matches?offset={end}&limit={limit}"));
        Ok(json!({
            "matches": open,
            "total": total,
            "offset": offset,
            "limit": limit,
            "next": next,
            "finished": finished.iter().map(summary).collect::<Vec<_>>(),
        }))
    }
}
