//! Several nodes over one store: resuming, adopting and taking over matches, claims, owners, and
//! the notices between nodes.

use super::*;

impl<S: Store> Hub<S> {
    /// Loads every unfinished match from the store and resumes it: its log is replayed, the
    /// deadlines that passed while the server was down fire at their own times, and timers and
    /// bots start again. Returns how many matches resumed.
    ///
    /// A match whose rows do not read or whose log does not rebuild is set aside (quarantined:
    /// logged, kept in the store with the reason, listed by [`Hub::quarantined`], answered with
    /// 503 `quarantined`) and every other match resumes. A quarantined match that rebuilds again
    /// (it was repaired) leaves quarantine. Only a failing store stops the resume.
    pub async fn resume(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self
            .store
            .unfinished_ids()
            .await
            .map_err(|e| ApiError::internal("loading unfinished matches", e))?;
        let earlier = self
            .store
            .quarantined()
            .await
            .map_err(|e| ApiError::internal("loading quarantined matches", e))?;
        // A batch at a time (one claim and one load statement each); a failing store stops
        // the resume once the batch's other matches are served.
        let mut n = 0;
        for batch in ids.chunks(ADOPTING_BATCH) {
            let mut failed = None;
            for (id, adopted) in self.adopt_batch(batch, &earlier, true, true).await? {
                match adopted {
                    Ok(true) => {
                        n += 1;
                        tracing::debug!(match_id = %id, "resumed match");
                    }
                    Ok(false) => {}
                    Err(e) => {
                        failed.get_or_insert(e);
                    }
                }
            }
            if let Some(e) = failed {
                return Err(e);
            }
        }
        // Finished matches set aside earlier stay aside (they are not retried at start).
        let mut quarantine = self
            .quarantine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for q in earlier {
            if !ids.contains(&q.id) {
                let summary = "its stored data could not be rebuilt".to_string();
                quarantine.entry(q.id.clone()).or_insert((q, summary));
            }
        }
        Ok(n)
    }

    /// Claims unfinished match `id` for this process and serves it from its log, for a request
    /// that asked for it: deadlines that passed while nobody served it fire at their own times,
    /// timers and bots start again. `false` when another process holds it, or it is gone,
    /// expired or set aside.
    ///
    /// The requests that want matches adopted at the same moment (a dead node's clients coming
    /// back together) share batches ([`Hub::adopt_wanted`]: one claim and one load statement for
    /// up to [`ADOPTING_BATCH`] matches, [`BATCHES_AT_ONCE`] at once) instead of a claim and a
    /// load each on the node's one session. A match another adoption is deciding is waited for.
    pub(super) async fn adopt(self: &Arc<Self>, id: &str) -> Result<bool, ApiError> {
        let (told, outcome) = tokio::sync::oneshot::channel();
        let lead = {
            let mut wanted = self
                .wanted
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            wanted.queue.push((id.to_string(), told));
            let lead = wanted.running < BATCHES_AT_ONCE;
            if lead {
                wanted.running += 1;
            }
            lead
        };
        if lead {
            // A task of its own: the batch goes on for the others if this request is dropped.
            let hub = self.clone();
            tokio::spawn(async move { hub.adopt_wanted().await });
        }
        if let Ok(Some(adopted)) = outcome.await {
            return adopted;
        }
        // Left out of the batch: another adoption decides it (or did); wait for that one.
        let one = [id.to_string()];
        match self.adopt_batch(&one, &[], true, false).await?.pop() {
            Some((_, adopted)) => adopted,
            None => Ok(false),
        }
    }

    /// Adopts the matches requests want ([`Hub::adopt`]) in batches until none is waiting,
    /// then ends (one of at most [`BATCHES_AT_ONCE`] such tasks).
    pub(super) async fn adopt_wanted(self: Arc<Self>) {
        /// Counts the task out if it ends by a panic (its waiting requests then adopt alone).
        struct Running<'a>(&'a Mutex<Wanted>, bool);
        impl Drop for Running<'_> {
            fn drop(&mut self) {
                if self.1 {
                    self.0
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .running -= 1;
                }
            }
        }
        let mut running = Running(&self.wanted, true);
        loop {
            let batch: Vec<_> = {
                let mut wanted = self
                    .wanted
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if wanted.queue.is_empty() {
                    // Counted out under the lock that a new request checks: it starts a task
                    // of its own if this one is past its last look.
                    wanted.running -= 1;
                    running.1 = false;
                    return;
                }
                let n = wanted.queue.len().min(ADOPTING_BATCH);
                wanted.queue.drain(..n).collect()
            };
            let mut ids: Vec<String> = batch.iter().map(|(id, _)| id.clone()).collect();
            ids.sort_unstable();
            ids.dedup();
            match self.adopt_batch(&ids, &[], false, false).await {
                Ok(outcomes) => {
                    let outcomes: HashMap<String, Result<bool, ApiError>> =
                        outcomes.into_iter().collect();
                    for (id, told) in batch {
                        let _ = told.send(outcomes.get(&id).cloned());
                    }
                }
                Err(e) => {
                    for (_, told) in batch {
                        let _ = told.send(Some(Err(e.clone())));
                    }
                }
            }
        }
    }

    /// Adopts the unfinished matches `ids` as [`Hub::adopt`] does each, with one claim
    /// statement (on the store's session, which holds the claims) and one load statement (on a
    /// read connection) for the batch: a match is loaded only once this process holds its
    /// claim, so another live process's match is never loaded nor served here. Returns what
    /// became of each match tried (those another adoption is deciding are left out when `wait`
    /// is false, else waited for); the outer `Err` is the store failing for the whole batch.
    /// With `lighten` (the resume at start), a waiting match that may be light ([`light`]) is
    /// claimed and listed, not loaded into memory (`crate::lobby`).
    pub(super) async fn adopt_batch(
        self: &Arc<Self>,
        ids: &[String],
        earlier: &[Quarantined],
        wait: bool,
        lighten: bool,
    ) -> Result<Vec<(String, Result<bool, ApiError>)>, ApiError> {
        let _not_leaving = self.adopting.read().await;
        // Each match's own lock, held until it is served (or not): a client's request for one
        // of them waits for this batch, then finds it served.
        let mut locks = Vec::with_capacity(ids.len());
        for id in ids {
            if wait {
                locks.push(AdoptingOne::lock(&self.adopting_ids, id).await);
            } else if let Some(one) = AdoptingOne::try_lock(&self.adopting_ids, id) {
                locks.push(one);
            }
        }
        let wanted: Vec<String> = locks
            .iter()
            .filter(|one| !self.holds(one.id))
            .map(|one| one.id.to_string())
            .collect();
        if wanted.is_empty() {
            return Ok(Vec::new());
        }
        let claimed = self
            .store
            .claim_many(&wanted)
            .await
            .map_err(|e| ApiError::internal("claiming a match", e))?;
        let mut out = Vec::with_capacity(wanted.len());
        for id in &wanted {
            if !claimed.contains(id) {
                tracing::info!(match_id = %id, "match is served by another process");
                out.push((id.clone(), Ok(false)));
            }
        }
        let loaded = self
            .store
            .load_many(&claimed)
            .await
            .map_err(|e| ApiError::internal("loading a match", e))?;
        let mut installed = Vec::with_capacity(claimed.len());
        for (id, loaded) in claimed.into_iter().zip(loaded) {
            let (meta, log) = match loaded {
                Ok(Some(loaded)) => loaded,
                Ok(None) => {
                    out.push((id, Ok(false)));
                    continue;
                }
                Err(e @ StoreError::Corrupt { .. }) => {
                    let broken = Broken {
                        summary: "its stored rows do not read".into(),
                        reason: e.to_string(),
                    };
                    self.set_aside(&id, broken).await;
                    out.push((id, Ok(false)));
                    continue;
                }
                Err(e) => {
                    out.push((id, Err(ApiError::internal("loading a match", e))));
                    continue;
                }
            };
            if self.expired(&meta) {
                out.push((id, Ok(false)));
                continue;
            }
            if meta.finished() {
                // It finished (and its node gave up its claim) between the look that found it
                // unfinished and this claim: served from the store as any finished match, and
                // not kept claimed.
                if let Err(e) = self.store.unclaim(&id).await {
                    tracing::warn!(match_id = %id, error = %e, "could not give up a finished match's claim");
                }
            }
            if lighten && log.is_empty() && light(&meta) && !earlier.iter().any(|q| q.id == id) {
                self.list(&meta, true);
                out.push((id, Ok(true)));
                continue;
            }
            match self.install(meta, &log).await {
                Ok(table) => installed.push((id, table)),
                Err(e) if e.code == "quarantined" => out.push((id, Ok(false))),
                Err(e) => out.push((id, Err(e))),
            }
        }
        // Their first commits at once: the appends of the deadlines that passed share the
        // group writer's statements.
        let started = futures_util::future::join_all(
            installed
                .iter()
                .map(|(id, table)| self.start_adopted(id, table, earlier)),
        )
        .await;
        let mut adopted = Vec::with_capacity(installed.len());
        for ((id, _), started) in installed.into_iter().zip(started) {
            if started.is_ok() {
                adopted.push(id.clone());
            }
            out.push((id, started.map(|()| true)));
        }
        self.tell_all("adopted", &adopted).await;
        drop(locks);
        Ok(out)
    }

    /// Starts match `id`, just installed from its log: out of quarantine if it was in
    /// (`earlier`), ticked to now, its new entries stored, its timer and announcer started.
    pub(super) async fn start_adopted(
        self: &Arc<Self>,
        id: &str,
        table: &Arc<Table>,
        earlier: &[Quarantined],
    ) -> Result<(), ApiError> {
        if earlier.iter().any(|q| q.id == id) {
            tracing::warn!(match_id = %id, "match rebuilds again: out of quarantine");
            self.store
                .release(id)
                .await
                .map_err(|e| ApiError::internal("releasing a match", e))?;
        }
        let mut st = table.state.lock().await;
        if let Some(start) = st.meta.started_at {
            let now = self.clock.now_ms().saturating_sub(start);
            st.game.tick(now);
        }
        self.commit(table, &mut st).await?;
        // Announcements go on from here: what happened before the restart (or the takeover) is
        // not posted again (posts still queued then are lost).
        let seen = st
            .game
            .move_log(Viewer::Spectator)
            .last()
            .map(|l| (l.game, l.step));
        let announced = st.meta.webhook.is_some();
        drop(st);
        self.start_timer(table);
        if announced {
            self.start_announcer(table, seen);
        }
        Ok(())
    }

    /// Whether this process serves match `id` (in memory, or light: `crate::lobby`) or has
    /// set it aside.
    pub(super) fn holds(&self, id: &str) -> bool {
        self.tables
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains_key(id)
            || self.lobby.is_light(id)
            || self
                .quarantine
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .contains_key(id)
    }

    /// Tells the other processes on the store that this one answers at `address`
    /// (`http://host:port`), for the requests they forward to it.
    pub async fn announce_node(&self, address: &str) -> Result<(), ApiError> {
        let _ = self.address.set(address.to_string());
        self.store
            .announce(address)
            .await
            .map_err(|e| ApiError::internal("announcing this process", e))
    }

    /// Whether `ip` is another process on the store (its forwarded requests name their client).
    pub fn is_peer(&self, ip: std::net::IpAddr) -> bool {
        self.peers
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(&ip)
    }

    /// A notice from a process on the shared store (`store::NOTICES`, heard by `serve`'s
    /// listener): the lobby reads its list again at its next request.
    pub fn hear(&self, notice: &str) {
        self.metrics.notices.inc();
        self.changes.fetch_add(1, Ordering::SeqCst);
        tracing::debug!(notice, "notice");
    }

    /// Whether this process hears the others' notices (`serve`'s listener sets it while its
    /// LISTEN holds): while it does not, the lobby reads the store at every request.
    pub fn listening(&self, on: bool) {
        self.changes.fetch_add(1, Ordering::SeqCst);
        self.hearing.store(on, Ordering::SeqCst);
    }

    /// Claims tournament `id` for this process (`crate::tournaments`: the process holding it
    /// runs it): `false` if another process holds it. Always `true` on a store of its own.
    pub async fn claim_tournament(&self, id: &str) -> Result<bool, ApiError> {
        self.store
            .claim(&tournament_key(id))
            .await
            .map_err(|e| ApiError::internal("claiming a tournament", e))
    }

    /// The address of the other process that runs tournament `id`, when one does: its requests
    /// are forwarded there (`crate::forward`).
    pub async fn tournament_elsewhere(&self, id: &str) -> Option<String> {
        self.owner_of(&tournament_key(id)).await
    }

    /// The address of the other process that holds the claim `key`, if one does.
    pub(super) async fn owner_of(&self, key: &str) -> Option<String> {
        match self.store.owner(key).await {
            Ok(Some(owner)) if self.address.get() != Some(&owner) => Some(owner),
            Ok(_) => None,
            Err(e) => {
                tracing::warn!(key, error = %e, "could not ask the store who holds a claim");
                None
            }
        }
    }

    /// The address of the other process that serves match `id`, when one does: requests for it
    /// are forwarded there (`crate::forward`). `None` when this process serves it, holds it,
    /// or nobody does (this process then loads, claims or refuses it as usual).
    ///
    /// Asked at every request and every (re)connection, so it does not read the lock table in
    /// the common cases: the store records which node claimed each match last
    /// ([`Store::serving`]), trusted only while that node's session is open; a dead node's
    /// match is nobody's (the asking process then claims it, the lock deciding between two that
    /// try at once). Only a match with no record (or this process's own record, not served
    /// here) is looked up in the lock table ([`Store::owner`]). A wrong answer could only
    /// misroute a request (the process it reaches serves a match only under its claim), never
    /// let two processes serve one match.
    pub async fn owner_elsewhere(&self, id: &str) -> Option<String> {
        if self.holds(id) {
            return None;
        }
        match self.store.serving(id).await {
            Ok(Holder::Node(node)) if self.address.get() != Some(&node) => Some(node),
            Ok(Holder::Nobody) => None,
            Ok(Holder::Gone) => {
                // Its node died (or left): the first of its clients to come back starts the
                // takeover of all its matches, in batches, rather than each client adopting its
                // own match alone (this request then waits for its match's batch, or adopts it
                // in a batch with the other requests', without loading it first).
                self.takeover_wanted.notify_one();
                let mut gone = self
                    .gone_seen
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if gone.len() >= GONE_SEEN_MOST {
                    gone.clear();
                }
                gone.insert(id.to_string());
                None
            }
            Ok(_) => self.owner_of(id).await,
            Err(e) => {
                tracing::warn!(match_id = %id, error = %e, "could not ask the store who serves a match");
                self.owner_of(id).await
            }
        }
    }

    /// Resolves when a request found a match whose node is gone (at once if one did since the
    /// last call): `serve` then runs [`Hub::take_over`] without waiting for its next look.
    pub async fn takeover_wanted(&self) {
        self.takeover_wanted.notified().await;
    }

    /// Serves every unfinished match that no process serves any more (its process died, so
    /// PostgreSQL released its claim), without waiting for someone to ask for it: each is
    /// claimed and rebuilt as at [`Hub::resume`]. `serve` calls this every few seconds on
    /// PostgreSQL (every [`crate::TAKEOVER_EVERY`]). Returns how many matches it took over.
    pub async fn take_over(self: &Arc<Self>) -> Result<usize, ApiError> {
        let nodes = self
            .store
            .nodes()
            .await
            .map_err(|e| ApiError::internal("listing the other processes", e))?;
        let peers = nodes
            .iter()
            .filter(|n| self.address.get() != Some(*n))
            .filter_map(|n| crate::forward::peer_ip(n))
            .collect();
        *self
            .peers
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = peers;
        let ids = self
            .store
            .orphans()
            .await
            .map_err(|e| ApiError::internal("finding matches nobody serves", e))?;
        // In batches of ADOPTING_BATCH, oldest first, BATCHES_AT_ONCE at once; one failing
        // does not stop the others (the first failure is returned once all have been tried).
        let ids: Vec<String> = ids.into_iter().filter(|id| !self.holds(id)).collect();
        let mut batches = ids.chunks(ADOPTING_BATCH).map(<[String]>::to_vec);
        let mut n = 0;
        let mut failed = None;
        let mut running = tokio::task::JoinSet::new();
        loop {
            while running.len() < BATCHES_AT_ONCE {
                let Some(batch) = batches.next() else { break };
                let hub = self.clone();
                running.spawn(async move { hub.adopt_batch(&batch, &[], false, false).await });
            }
            let Some(done) = running.join_next().await else {
                break;
            };
            let outcomes = match done {
                Ok(Ok(outcomes)) => outcomes,
                Ok(Err(e)) => {
                    tracing::warn!(error = %e.message, "could not take over a batch of matches");
                    failed.get_or_insert(e);
                    continue;
                }
                Err(e) => {
                    failed.get_or_insert(ApiError::internal("taking over matches", e));
                    continue;
                }
            };
            for (id, adopted) in outcomes {
                match adopted {
                    Ok(true) => {
                        n += 1;
                        tracing::warn!(match_id = %id, "took over a match whose server process stopped");
                    }
                    Ok(false) => {}
                    Err(e) => {
                        tracing::warn!(match_id = %id, error = %e.message, "could not take over a match");
                        failed.get_or_insert(e);
                    }
                }
            }
        }
        match failed {
            Some(e) => Err(e),
            None => Ok(n),
        }
    }

    /// Leaves the shared store for good (`serve` on SIGTERM or Ctrl-C, once it stopped taking
    /// requests): every match's lock is taken and kept (no move, timeout or bot move is stored
    /// here after this), no match is claimed again, every claim is given up and the others are
    /// told (`leaving - ADDRESS`), so they take the matches over at once instead of at their
    /// next look. Returns how many matches this process served.
    pub async fn leave(&self) -> usize {
        // Kept to the end of the process: no adoption after this (the ones under way finish
        // first).
        std::mem::forget(self.adopting.write().await);
        let tables = self.tables_now();
        for t in &tables {
            std::mem::forget(t.state.lock().await);
        }
        if let Some(address) = self.address.get() {
            if let Err(e) = self.store.leave(&format!("leaving - {address}")).await {
                tracing::warn!(error = %e, "could not give up this process's claims; the others take its matches over when its connection ends");
            }
        }
        tables.len()
    }
}
