//! The shared store: PostgreSQL, for several server processes.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use colosseum_host::LogEntry;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{Client, NoTls, Statement};

use super::{
    as_i64, from_json, ms_i64, ms_u64, readable, to_json, Holder, Loaded, Quarantined, Store,
    StoreError, StoredMatch, MIGRATIONS,
};

/// How a node's session names itself in `application_name` (then its address).
const NODE_PREFIX: &str = "colosseum node ";

/// Matches in a PostgreSQL database.
///
/// Appends are committed in groups: every append goes to one writer task, which takes all the
/// appends waiting when it is free and stores them with one statement (one transaction, one
/// round trip), each append still checked on its own (its first sequence number must equal the
/// entries stored for its match; one that does not is refused as a conflict and the others are
/// stored). Each caller is answered only after the commit holding its entries. If the group's
/// statement fails (the connection, or a row another writer stored meanwhile), each of its
/// appends is written again alone and gets its own answer.
///
/// With a commit window ([`PostgresStore::with_commit_window`]), the writer, finding a single
/// append waiting, waits up to the window for others before it writes.
///
/// Claims (session advisory locks) and writes go through the store's one session, which holds
/// the claims; reads that need no session of their own (loading matches, who holds what, the
/// lobby's lists) go through [`READERS`] more connections taken in turn, so that a takeover's
/// loads and the reconnecting clients' questions do not queue behind the live matches' writes.
/// A read on another session sees every write this one was answered for (each is committed
/// before its caller hears of it).
pub struct PostgresStore {
    pub(super) client: Arc<Client>,
    readers: Vec<Client>,
    next_reader: AtomicUsize,
    appends: mpsc::UnboundedSender<QueuedAppend>,
    /// Notices for the other nodes, sent by [`send_notices`] in batches.
    notices: mpsc::UnboundedSender<String>,
    counts: Arc<GroupCounts>,
    statements: Arc<Statements>,
}

/// The read connections a [`PostgresStore`] opens beside its session (so a node uses 2 +
/// `READERS` connections: the session, the readers and `serve`'s listener).
pub const READERS: usize = 2;

/// Claim and load statements sent so far ([`PostgresStore::adoption_statements`]), and reads
/// of the lock table ([`PostgresStore::lock_scans`]).
#[derive(Default)]
struct Statements {
    claims: AtomicU64,
    loads: AtomicU64,
    scans: AtomicU64,
    /// `pg_notify` statements sent (each a batch of notices).
    notices: AtomicU64,
}

/// The most notices one statement sends.
const NOTICE_BATCH: usize = 1024;

/// How long the notice sender, woken by a notice, waits for more before it sends them.
const NOTICE_WINDOW: std::time::Duration = std::time::Duration::from_millis(20);

/// Sends the notices queued by [`Store::notify`]: every one waiting after [`NOTICE_WINDOW`] in
/// one `pg_notify` statement (one transaction; PostgreSQL delivers them in order at its
/// commit), so a busy node sends a few statements a second instead of one a notice, each a
/// transaction that wakes every listening session; the statement is prepared once and kept.
/// Notices are hints (a lobby reads its list again at its next request), so
/// the caller does not wait for them; a failed statement is logged. Ends when the store is
/// dropped.
async fn send_notices(
    client: Arc<Client>,
    mut queue: mpsc::UnboundedReceiver<String>,
    statements: Arc<Statements>,
) {
    const NOTIFY: &str = "SELECT pg_notify($1, p) FROM UNNEST($2::TEXT[]) AS p";
    let mut prepared: Option<Statement> = None;
    while let Some(first) = queue.recv().await {
        // The notices of the next moments go with it (hints: a lobby a few ms late is fine).
        tokio::time::sleep(NOTICE_WINDOW).await;
        let mut batch = vec![first];
        while batch.len() < NOTICE_BATCH {
            match queue.try_recv() {
                Ok(p) => batch.push(p),
                Err(_) => break,
            }
        }
        statements.notices.fetch_add(1, Ordering::Relaxed);
        let sent = match kept(&client, &mut prepared, NOTIFY).await {
            Ok((statement, _)) => client.execute(&statement, &[&super::NOTICES, &batch]).await,
            Err(e) => Err(e),
        };
        if let Err(e) = sent {
            prepared = None;
            tracing::warn!(notices = batch.len(), error = %e, "could not notify the other processes");
        }
    }
}

/// `sql` prepared on `client` and kept in `slot` for the next call (whoever finds the statement
/// failing empties `slot`); `true` when it was prepared now.
async fn kept(
    client: &Client,
    slot: &mut Option<Statement>,
    sql: &str,
) -> Result<(Statement, bool), tokio_postgres::Error> {
    if let Some(statement) = slot {
        return Ok((statement.clone(), false));
    }
    let statement = client.prepare(sql).await?;
    *slot = Some(statement.clone());
    Ok((statement, true))
}

/// PostgreSQL's own migrations, after the shared ones: each match records the session (its
/// backend pid) that claimed it last, so that who serves a match is known without reading the
/// lock table ([`Store::serving`]).
///
/// 1502: the lobby's pages (`Store::open_page`): whether a match started, kept by PostgreSQL
/// from its metadata, and an index each for the live and the waiting open matches in the
/// lobby's order, so that a page reads its own rows only.
const PG_MIGRATIONS: &[(i64, &str)] = &[
    (
        1501,
        "ALTER TABLE matches ADD COLUMN IF NOT EXISTS owner_pid INTEGER",
    ),
    (
        1502,
        "ALTER TABLE matches ADD COLUMN IF NOT EXISTS started BOOLEAN
            GENERATED ALWAYS AS ((meta::jsonb ->> 'started_at') IS NOT NULL) STORED;
         CREATE INDEX IF NOT EXISTS matches_open_live ON matches (created_at DESC, id)
            WHERE NOT finished AND started;
         CREATE INDEX IF NOT EXISTS matches_open_waiting ON matches (created_at DESC, id)
            WHERE NOT finished AND NOT started;",
    ),
];

/// Loads matches and their logs, one row a match: its meta and its entries in order, read in
/// one statement (one snapshot).
const LOAD: &str = "SELECT m.id, m.meta,
        COALESCE((SELECT array_agg(l.entry ORDER BY l.seq) FROM log l WHERE l.match_id = m.id),
                 '{}'::TEXT[])
     FROM matches m WHERE m.id = ANY($1)";

/// One append waiting for the writer, or a match's metadata to replace (`meta`: its `finished`
/// and JSON text; then `texts` is empty): the joins and the result go in the appends' statement
/// (one transaction, one commit) instead of a transaction of their own each.
struct QueuedAppend {
    id: String,
    first: usize,
    texts: Vec<String>,
    meta: Option<(bool, String)>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// Group commits so far.
#[derive(Default)]
struct GroupCounts {
    groups: AtomicU64,
    appended: AtomicU64,
    /// The commit window in microseconds (0: write at once).
    window_us: AtomicU64,
    /// Times the group statement was prepared (once, and again after a failed group).
    prepared: AtomicU64,
}

/// At most this many appends go in one statement.
const MAX_GROUP: usize = 256;

/// The group statement ([`write_group`]): the checks read the log as it was before the
/// statement; an append's rows go in only if it continues its match's log; the metadata
/// updates go in with them. One statement: all the group's rows or none.
const GROUP: &str = "WITH batch AS (
        SELECT * FROM UNNEST($1::INT[], $2::TEXT[], $3::BIGINT[], $4::BIGINT[], $5::TEXT[])
            AS b (k, match_id, first, seq, entry)
     ), stored AS (
        -- The log's length is one past its last seq (an append only ever continues
        -- it): one descent of the key's index, where COUNT(*) read every entry the
        -- match had (and, before a vacuum, each entry's row).
        SELECT a.k, a.first,
            (SELECT COALESCE(MAX(l.seq) + 1, 0) FROM log l WHERE l.match_id = a.match_id)
                AS n
        FROM (SELECT DISTINCT k, match_id, first FROM batch) a
     ), ins AS (
        INSERT INTO log (match_id, seq, entry)
        SELECT b.match_id, b.seq, b.entry FROM batch b
        WHERE b.k IN (SELECT k FROM stored WHERE n = first)
     ), upd AS (
        UPDATE matches m SET finished = u.finished, meta = u.meta
        FROM UNNEST($6::TEXT[], $7::BOOLEAN[], $8::TEXT[]) AS u (id, finished, meta)
        WHERE m.id = u.id
     )
     SELECT k, n FROM stored";

/// Stores a group of appends and metadata updates (at most one per match) with `statement`
/// ([`GROUP`], prepared on `client`):
/// the appends whose `first` equals their match's stored entries go in, the others are
/// conflicts; every update goes in. `Err`: the statement failed and nothing of the group was
/// stored.
async fn write_group(
    client: &Client,
    statement: &Statement,
    group: &[QueuedAppend],
) -> Result<Vec<Result<(), StoreError>>, tokio_postgres::Error> {
    let mut keys = Vec::new();
    let mut ids = Vec::new();
    let mut firsts = Vec::new();
    let mut seqs = Vec::new();
    let mut texts = Vec::new();
    let (mut meta_ids, mut meta_finished, mut metas) = (Vec::new(), Vec::new(), Vec::new());
    for (k, q) in group.iter().enumerate() {
        if let Some((finished, meta)) = &q.meta {
            meta_ids.push(q.id.as_str());
            meta_finished.push(*finished);
            metas.push(meta.as_str());
        }
        for (i, text) in q.texts.iter().enumerate() {
            keys.push(i32::try_from(k).unwrap_or(i32::MAX));
            ids.push(q.id.as_str());
            firsts.push(as_i64(q.first));
            seqs.push(as_i64(q.first + i));
            texts.push(text.as_str());
        }
    }
    let rows = client
        .query(
            statement,
            &[
                &keys,
                &ids,
                &firsts,
                &seqs,
                &texts,
                &meta_ids,
                &meta_finished,
                &metas,
            ],
        )
        .await?;
    let mut results: Vec<Result<(), StoreError>> = group.iter().map(|_| Ok(())).collect();
    for row in rows {
        let k: i32 = row.get(0);
        let stored: i64 = row.get(1);
        let Some(q) = usize::try_from(k).ok().and_then(|k| group.get(k)) else {
            continue;
        };
        if stored != as_i64(q.first) {
            results[k as usize] = Err(StoreError::Conflict {
                id: q.id.clone(),
                stored: stored.unsigned_abs(),
                first: q.first as u64,
            });
        }
    }
    Ok(results)
}

/// The writer: takes every append waiting (at most one per match in a group: a second one for
/// the same match waits for the next), stores them with [`write_group`], answers each caller
/// after the commit. Ends when the store is dropped.
///
/// The group statement is prepared once and kept (prepared again after a failure): sent as
/// text, each group was parsed, planned and closed again by PostgreSQL, two round trips
/// instead of one.
async fn write_appends(
    client: Arc<Client>,
    mut queue: mpsc::UnboundedReceiver<QueuedAppend>,
    counts: Arc<GroupCounts>,
) {
    let mut held: Vec<QueuedAppend> = Vec::new();
    let mut prepared: Option<Statement> = None;
    loop {
        if held.is_empty() {
            match queue.recv().await {
                Some(q) => held.push(q),
                None => return,
            }
        }
        let window = counts.window_us.load(Ordering::Relaxed);
        if held.len() == 1 && window > 0 && queue.is_empty() {
            // Alone: wait for company.
            tokio::time::sleep(std::time::Duration::from_micros(window)).await;
        }
        while held.len() < MAX_GROUP * 4 {
            match queue.try_recv() {
                Ok(q) => held.push(q),
                Err(_) => break,
            }
        }
        let mut group = Vec::new();
        let mut later = Vec::new();
        let mut matches = HashSet::new();
        for q in held.drain(..) {
            if group.len() < MAX_GROUP && matches.insert(q.id.clone()) {
                group.push(q);
            } else {
                later.push(q);
            }
        }
        held = later;
        let statement = kept(&client, &mut prepared, GROUP).await;
        if let Ok((_, true)) = statement {
            counts.prepared.fetch_add(1, Ordering::Relaxed);
        }
        let results = match statement.map(|(statement, _)| statement) {
            Err(e) => {
                let why = format!("the append statement could not be prepared ({e})");
                group
                    .iter()
                    .map(|_| Err(StoreError::Unavailable(why.clone())))
                    .collect()
            }
            Ok(statement) => match write_group(&client, &statement, &group).await {
                Ok(results) => results,
                Err(_) => {
                    // Each alone, for its own answer; the statement is prepared again for the
                    // next group in case it was the statement that failed.
                    prepared = None;
                    let mut results = Vec::new();
                    for q in &group {
                        let alone = write_group(&client, &statement, std::slice::from_ref(q));
                        results.push(match alone.await {
                            Ok(mut r) => r.pop().unwrap_or(Ok(())),
                            Err(e) => Err(e.into()),
                        });
                    }
                    results
                }
            },
        };
        counts.groups.fetch_add(1, Ordering::Relaxed);
        counts.appended.fetch_add(
            group.iter().filter(|q| q.meta.is_none()).count() as u64,
            Ordering::Relaxed,
        );
        for (q, r) in group.into_iter().zip(results) {
            let _ = q.done.send(r);
        }
    }
}

impl PostgresStore {
    /// Hands an append (`texts`) or a metadata update (`meta`) to the writer and waits for the
    /// commit that holds it.
    async fn queue(
        &self,
        id: &str,
        first: usize,
        texts: Vec<String>,
        meta: Option<(bool, String)>,
    ) -> Result<(), StoreError> {
        let (done, stored) = oneshot::channel();
        let queued = QueuedAppend {
            id: id.to_string(),
            first,
            texts,
            meta,
            done,
        };
        let gone =
            || StoreError::Unavailable(format!("match {id}: the store's writer has stopped"));
        self.appends.send(queued).map_err(|_| gone())?;
        stored.await.unwrap_or_else(|_| Err(gone()))
    }

    /// Connects with a libpq-style `config` (`host=/var/run/postgresql user=colosseum` or
    /// `postgres://...`), and brings the schema up to date. Must be called inside a Tokio
    /// runtime: the connection runs as a task.
    pub async fn connect(config: &str) -> Result<Self, StoreError> {
        let (mut client, connection) = tokio_postgres::connect(config, NoTls).await?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::error!("postgres connection: {e}");
            }
        });
        // Two processes (or two tests) connecting to a fresh database at once would both run
        // this CREATE, and PostgreSQL's IF NOT EXISTS is not safe against a concurrent CREATE
        // (one fails on pg_type's unique index). A transaction-level advisory lock in the
        // two-key space (objsubid 2, never a match's lock, which is one bigint key) makes
        // them take turns.
        let tx = client.transaction().await?;
        tx.batch_execute(
            "SELECT pg_advisory_xact_lock(1129270355, 1); \
             CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY)",
        )
        .await?;
        tx.commit().await?;
        for (version, sql) in MIGRATIONS
            .iter()
            .chain(super::tournaments::MIGRATIONS)
            .chain(super::seasons::MIGRATIONS)
            .chain(super::analyses::MIGRATIONS)
            .chain(PG_MIGRATIONS)
        {
            let tx = client.transaction().await?;
            // One migrator at a time, when several processes start together.
            tx.batch_execute("LOCK TABLE schema_migrations IN EXCLUSIVE MODE")
                .await?;
            let done = tx
                .query_opt(
                    "SELECT version FROM schema_migrations WHERE version = $1",
                    &[version],
                )
                .await?;
            if done.is_none() {
                tx.batch_execute(sql).await?;
                tx.execute(
                    "INSERT INTO schema_migrations (version) VALUES ($1)",
                    &[version],
                )
                .await?;
            }
            tx.commit().await?;
        }
        // The session's statements are prepared once and kept (the writer's group statement,
        // the notices); PostgreSQL would still plan the group statement at every execution
        // (its custom plans, fitted to each group's arrays, look cheaper than the generic one),
        // which cost more than executing it. The generic plan is the same index descents.
        // PostgreSQL 12 and later; older ones keep their choice.
        if let Err(e) = client
            .batch_execute("SET plan_cache_mode = force_generic_plan")
            .await
        {
            tracing::warn!(error = %e, "plan_cache_mode not set: the append statement is planned at every group");
        }
        let client = Arc::new(client);
        let mut readers = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            let (reader, connection) = tokio_postgres::connect(config, NoTls).await?;
            tokio::spawn(async move {
                if let Err(e) = connection.await {
                    tracing::error!("postgres read connection: {e}");
                }
            });
            readers.push(reader);
        }
        let (appends, queue) = mpsc::unbounded_channel();
        let counts = Arc::new(GroupCounts::default());
        tokio::spawn(write_appends(client.clone(), queue, counts.clone()));
        let statements = Arc::new(Statements::default());
        let (notices, noticed) = mpsc::unbounded_channel();
        tokio::spawn(send_notices(client.clone(), noticed, statements.clone()));
        Ok(PostgresStore {
            client,
            readers,
            next_reader: AtomicUsize::new(0),
            appends,
            counts,
            statements,
            notices,
        })
    }

    /// The next read connection that is open, in turn; the session when none is.
    fn reader(&self) -> &Client {
        let start = self.next_reader.fetch_add(1, Ordering::Relaxed);
        (0..self.readers.len())
            .map(|k| &self.readers[(start + k) % self.readers.len()])
            .find(|r| !r.is_closed())
            .unwrap_or(&self.client)
    }

    /// Claim statements and load statements sent so far, however many matches each named:
    /// a takeover of many matches sends one of each per batch ([`crate::Hub::take_over`]).
    pub fn adoption_statements(&self) -> (u64, u64) {
        (
            self.statements.claims.load(Ordering::Relaxed),
            self.statements.loads.load(Ordering::Relaxed),
        )
    }

    /// Reads of the lock table (`pg_locks`) so far: [`Store::owner`] and [`Store::orphans`].
    /// PostgreSQL builds the whole lock table for each, so their cost grows with the locks
    /// held; [`Store::serving`] does not read it.
    pub fn lock_scans(&self) -> u64 {
        self.statements.scans.load(Ordering::Relaxed)
    }

    /// `pg_notify` statements sent so far (each a batch of the notices queued meanwhile).
    pub fn notice_statements(&self) -> u64 {
        self.statements.notices.load(Ordering::Relaxed)
    }

    /// The commit window: how long the writer, finding one append waiting, waits for others
    /// to share its statement (zero, the default: write at once). Acknowledged only after the
    /// commit either way.
    #[must_use]
    pub fn with_commit_window(self, window: std::time::Duration) -> Self {
        self.counts.window_us.store(
            u64::try_from(window.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
        self
    }

    /// Times the writer prepared its group statement: once, and again after a group failed.
    pub fn group_statements_prepared(&self) -> u64 {
        self.counts.prepared.load(Ordering::Relaxed)
    }

    /// Group commits so far: (statements, appends). Appends over statements is the mean number
    /// of appends committed together.
    pub fn group_commits(&self) -> (u64, u64) {
        (
            self.counts.groups.load(Ordering::Relaxed),
            self.counts.appended.load(Ordering::Relaxed),
        )
    }

    /// Listens on a connection of its own (`config` as at [`PostgresStore::connect`]) to the
    /// processes' notices ([`super::NOTICES`]), sending each payload to `to` as it arrives;
    /// `listening` is told once the LISTEN holds. Returns when the connection ends (the caller
    /// connects again) or `to` is closed.
    pub async fn listen(
        config: &str,
        to: tokio::sync::mpsc::UnboundedSender<String>,
        listening: impl FnOnce(),
    ) -> Result<(), StoreError> {
        let (client, mut connection) = tokio_postgres::connect(config, NoTls).await?;
        let (done_tx, done) = tokio::sync::oneshot::channel();
        let forward = to.clone();
        tokio::spawn(async move {
            let ended = loop {
                match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                    Some(Ok(tokio_postgres::AsyncMessage::Notification(n))) => {
                        if forward.send(n.payload().to_string()).is_err() {
                            break Ok(());
                        }
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => break Err(e),
                    None => break Ok(()),
                }
            };
            let _ = done_tx.send(ended);
        });
        client
            .batch_execute(&format!("LISTEN {}", super::NOTICES))
            .await?;
        listening();
        match done.await {
            Ok(Err(e)) => Err(e.into()),
            _ => Ok(()),
        }
    }

    /// Removes every match (for tests against a shared database).
    pub async fn clear(&self) -> Result<(), StoreError> {
        self.client
            .batch_execute(
                "DELETE FROM analyses; DELETE FROM log; DELETE FROM matches; DELETE FROM quarantined; \
                 DELETE FROM tournament_log; DELETE FROM tournaments; \
                 DELETE FROM season_log; DELETE FROM seasons;",
            )
            .await?;
        Ok(())
    }

    async fn read_log(&self, id: &str) -> Result<Vec<LogEntry>, StoreError> {
        let rows = self
            .reader()
            .query(
                "SELECT entry FROM log WHERE match_id = $1 ORDER BY seq",
                &[&id],
            )
            .await?;
        rows.iter()
            .map(|r| from_json(id, r.get::<_, &str>(0)))
            .collect()
    }
}

/// One row of [`LOAD`] read: the match and its log, or why it does not read.
fn loaded(row: &tokio_postgres::Row) -> (String, Result<Loaded, StoreError>) {
    let id: String = row.get(0);
    let read = || -> Result<Loaded, StoreError> {
        let meta = from_json(&id, row.get::<_, &str>(1))?;
        let log = row
            .get::<_, Vec<&str>>(2)
            .into_iter()
            .map(|e| from_json(&id, e))
            .collect::<Result<_, _>>()?;
        Ok((meta, log))
    };
    let read = read();
    (id, read)
}

impl Store for PostgresStore {
    fn group_commits(&self) -> (u64, u64) {
        PostgresStore::group_commits(self)
    }

    async fn create(&self, m: &StoredMatch) -> Result<(), StoreError> {
        let n = self
            .client
            .execute(
                "INSERT INTO matches (id, created_at, finished, meta, owner_pid)
                 VALUES ($1, $2, $3, $4, pg_backend_pid())
                 ON CONFLICT (id) DO NOTHING",
                &[&m.id, &ms_i64(m.created_at), &m.finished(), &to_json(m)],
            )
            .await?;
        if n == 0 {
            return Err(StoreError::Exists(m.id.clone()));
        }
        Ok(())
    }

    async fn update(&self, m: &StoredMatch) -> Result<(), StoreError> {
        // With the appends: answered after the commit that holds it, in the order it came
        // (a group holds one change a match).
        self.queue(&m.id, 0, Vec::new(), Some((m.finished(), to_json(m))))
            .await
    }

    async fn append(&self, id: &str, first: usize, entries: &[LogEntry]) -> Result<(), StoreError> {
        if entries.is_empty() {
            return Ok(());
        }
        self.queue(id, first, entries.iter().map(to_json).collect(), None)
            .await
    }

    async fn load(&self, id: &str) -> Result<Option<Loaded>, StoreError> {
        self.statements.loads.fetch_add(1, Ordering::Relaxed);
        let row = self.reader().query_opt(LOAD, &[&vec![id]]).await?;
        let Some(row) = row else { return Ok(None) };
        loaded(&row).1.map(Some)
    }

    async fn load_many(
        &self,
        ids: &[String],
    ) -> Result<Vec<Result<Option<Loaded>, StoreError>>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        self.statements.loads.fetch_add(1, Ordering::Relaxed);
        let rows = self.reader().query(LOAD, &[&ids]).await?;
        let mut found: std::collections::HashMap<String, Result<Loaded, StoreError>> =
            rows.iter().map(loaded).collect();
        Ok(ids.iter().map(|id| found.remove(id).transpose()).collect())
    }

    async fn unfinished(&self) -> Result<Vec<Loaded>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT id, meta FROM matches WHERE finished = FALSE ORDER BY created_at, id",
                &[],
            )
            .await?;
        let mut out = Vec::new();
        for row in rows {
            let id: &str = row.get(0);
            let meta = from_json(id, row.get::<_, &str>(1))?;
            out.push((meta, self.read_log(id).await?));
        }
        Ok(out)
    }

    async fn claim(&self, id: &str) -> Result<bool, StoreError> {
        // A session-level advisory lock: held while this connection lives, released by
        // PostgreSQL when the process dies, so a restarted or surviving process can claim it.
        self.statements.claims.fetch_add(1, Ordering::Relaxed);
        let row = self
            .client
            .query_one("SELECT pg_try_advisory_lock(hashtext($1)::BIGINT)", &[&id])
            .await?;
        Ok(row.get(0))
    }

    async fn claim_many(&self, ids: &[String]) -> Result<Vec<String>, StoreError> {
        // The same lock as `claim`'s for each, on the session, in one statement: each id is
        // tried once (a lock taken twice would be held twice). The statement also records this
        // session as the claimed matches' holder (`serving`): the record is committed with the
        // lock taken, so it names the holder from then on.
        let mut seen = HashSet::new();
        let ids: Vec<&str> = ids
            .iter()
            .map(String::as_str)
            .filter(|id| seen.insert(*id))
            .collect();
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        self.statements.claims.fetch_add(1, Ordering::Relaxed);
        let rows = self
            .client
            .query(
                "WITH claimed AS (
                    SELECT t.id, t.n FROM UNNEST($1::TEXT[]) WITH ORDINALITY AS t (id, n)
                    WHERE pg_try_advisory_lock(hashtext(t.id)::BIGINT)
                 ), recorded AS (
                    UPDATE matches SET owner_pid = pg_backend_pid()
                    WHERE id IN (SELECT id FROM claimed)
                 )
                 SELECT id FROM claimed ORDER BY n",
                &[&ids],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    async fn recent_finished(&self, limit: usize) -> Result<Vec<StoredMatch>, StoreError> {
        let rows = self
            .reader()
            .query(
                "SELECT id, meta FROM matches WHERE finished = TRUE
                 ORDER BY created_at DESC, id LIMIT $1",
                &[&as_i64(limit)],
            )
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| readable(from_json(r.get::<_, &str>(0), r.get::<_, &str>(1))))
            .collect())
    }

    async fn open_matches(&self, waiting_since: u64) -> Result<Vec<StoredMatch>, StoreError> {
        let rows = self
            .reader()
            .query(
                "SELECT id, meta FROM matches WHERE finished = FALSE
                   AND (created_at >= $1 OR (meta::jsonb ->> 'started_at') IS NOT NULL)
                 ORDER BY created_at DESC, id",
                &[&ms_i64(waiting_since)],
            )
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| readable(from_json(r.get::<_, &str>(0), r.get::<_, &str>(1))))
            .collect())
    }

    async fn open_page(
        &self,
        waiting_since: u64,
        offset: usize,
        limit: usize,
    ) -> Result<(Vec<StoredMatch>, usize), StoreError> {
        // The page's ids from the two indexes (live, and waiting since `waiting_since`) merged
        // in order, then those rows only; the count from the same indexes.
        let reach = as_i64(offset.saturating_add(limit));
        let rows = self
            .reader()
            .query(
                "WITH page AS (
                    SELECT id, created_at FROM (
                        (SELECT id, created_at FROM matches WHERE NOT finished AND started
                         ORDER BY created_at DESC, id LIMIT $2)
                        UNION ALL
                        (SELECT id, created_at FROM matches WHERE NOT finished AND NOT started
                           AND created_at >= $1
                         ORDER BY created_at DESC, id LIMIT $2)
                    ) AS open ORDER BY created_at DESC, id LIMIT $3 OFFSET $4
                 )
                 SELECT m.id, m.meta FROM page JOIN matches m ON m.id = page.id
                 ORDER BY page.created_at DESC, page.id",
                &[
                    &ms_i64(waiting_since),
                    &reach,
                    &as_i64(limit),
                    &as_i64(offset),
                ],
            )
            .await?;
        let total: i64 = self
            .reader()
            .query_one(
                "SELECT (SELECT count(*) FROM matches WHERE NOT finished AND started)
                      + (SELECT count(*) FROM matches WHERE NOT finished AND NOT started
                           AND created_at >= $1)",
                &[&ms_i64(waiting_since)],
            )
            .await?
            .get(0);
        let page = rows
            .iter()
            .filter_map(|r| readable(from_json(r.get::<_, &str>(0), r.get::<_, &str>(1))))
            .collect();
        Ok((page, usize::try_from(total).unwrap_or(0)))
    }

    async fn notify(&self, payload: &str) -> Result<(), StoreError> {
        // Queued for the next batch (`send_notices`), not waited for.
        self.notices
            .send(payload.to_string())
            .map_err(|_| StoreError::Unavailable("the store's notice sender has stopped".into()))
    }

    async fn announce(&self, address: &str) -> Result<(), StoreError> {
        // The session's application_name is what the others read in pg_stat_activity.
        self.client
            .execute(
                "SELECT set_config('application_name', $1, false)",
                &[&format!("{NODE_PREFIX}{address}")],
            )
            .await?;
        Ok(())
    }

    async fn owner(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.statements.scans.fetch_add(1, Ordering::Relaxed);
        let row = self
            .reader()
            .query_opt(
                "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                 WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
                   AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                   AND l.classid::bigint = ((hashtext($1)::bigint >> 32) & 4294967295)
                   AND l.objid::bigint = (hashtext($1)::bigint & 4294967295)
                 LIMIT 1",
                &[&id],
            )
            .await?;
        Ok(row.and_then(|r| {
            r.get::<_, Option<String>>(0)?
                .strip_prefix(NODE_PREFIX)
                .map(str::to_string)
        }))
    }

    async fn serving(&self, id: &str) -> Result<Holder, StoreError> {
        // The session that claimed the match last, if it is still open and a node's: one row
        // of the match (its primary key) and one backend's activity (pg_stat_get_activity with
        // a pid reads that backend's entry; with NULL it would read them all, hence the CASE).
        let row = self
            .reader()
            .query_opt(
                "SELECT m.owner_pid IS NULL,
                    CASE WHEN m.owner_pid IS NOT NULL THEN (
                        SELECT a.application_name FROM pg_stat_get_activity(m.owner_pid) a
                        WHERE a.datid = (SELECT oid FROM pg_database
                                         WHERE datname = current_database()))
                    END
                 FROM matches m WHERE m.id = $1",
                &[&id],
            )
            .await?;
        let Some(row) = row else {
            return Ok(Holder::Nobody);
        };
        if row.get::<_, bool>(0) {
            return Ok(Holder::Unknown);
        }
        Ok(row
            .get::<_, Option<String>>(1)
            .and_then(|name| name.strip_prefix(NODE_PREFIX).map(str::to_string))
            .map_or(Holder::Gone, Holder::Node))
    }

    async fn unclaim(&self, id: &str) -> Result<(), StoreError> {
        // On the session that holds the claims, after the result's update on it (committed).
        self.client
            .execute("SELECT pg_advisory_unlock(hashtext($1)::BIGINT)", &[&id])
            .await?;
        Ok(())
    }

    async fn offer_rematch(&self, m: &StoredMatch) -> Result<bool, StoreError> {
        // The first offer stored stands: a finished match is claimed by nobody, and after its
        // node's death two nodes may serve it from the store at once.
        let n = self
            .client
            .execute(
                "UPDATE matches SET finished = $2, meta = $3
                 WHERE id = $1 AND (meta::jsonb -> 'rematch') IS NULL",
                &[&m.id, &m.finished(), &to_json(m)],
            )
            .await?;
        Ok(n == 1)
    }

    async fn nodes(&self) -> Result<Vec<String>, StoreError> {
        let rows = self
            .reader()
            .query(
                "SELECT application_name FROM pg_stat_activity
                 WHERE datname = current_database() AND starts_with(application_name, $1)",
                &[&NODE_PREFIX],
            )
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                r.get::<_, &str>(0)
                    .strip_prefix(NODE_PREFIX)
                    .map(str::to_string)
            })
            .collect())
    }

    async fn orphans(&self) -> Result<Vec<String>, StoreError> {
        // `claim`'s lock on the 64-bit key k shows in pg_locks as classid = the high 32 bits of
        // k and objid = the low 32 bits (objsubid 1), in this database.
        self.statements.scans.fetch_add(1, Ordering::Relaxed);
        let rows = self
            .reader()
            .query(
                "SELECT m.id FROM matches m
                 WHERE m.finished = FALSE AND NOT EXISTS (
                   SELECT 1 FROM pg_locks l
                   WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
                     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                     AND l.classid::bigint = ((hashtext(m.id)::bigint >> 32) & 4294967295)
                     AND l.objid::bigint = (hashtext(m.id)::bigint & 4294967295))
                 ORDER BY m.created_at, m.id",
                &[],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    async fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        let rows = self
            .reader()
            .query(
                "SELECT id FROM matches WHERE finished = FALSE ORDER BY created_at, id",
                &[],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    async fn quarantine(&self, id: &str, reason: &str, at: u64) -> Result<(), StoreError> {
        self.client
            .execute(
                "INSERT INTO quarantined (match_id, reason, quarantined_at) VALUES ($1, $2, $3)
                 ON CONFLICT (match_id) DO UPDATE SET reason = EXCLUDED.reason",
                &[&id, &reason, &ms_i64(at)],
            )
            .await?;
        Ok(())
    }

    async fn release(&self, id: &str) -> Result<(), StoreError> {
        self.client
            .execute("DELETE FROM quarantined WHERE match_id = $1", &[&id])
            .await?;
        Ok(())
    }

    async fn quarantined(&self) -> Result<Vec<Quarantined>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT match_id, reason, quarantined_at FROM quarantined
                 ORDER BY quarantined_at, match_id",
                &[],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| Quarantined {
                id: r.get(0),
                reason: r.get(1),
                at: ms_u64(r.get(2)),
            })
            .collect())
    }

    async fn leave(&self, payload: &str) -> Result<(), StoreError> {
        // One session: the claims are gone before the notice is sent. The session stops naming
        // itself a node, so `serving` answers nobody for its matches from now on (not this
        // process, which stops answering).
        self.client
            .execute(
                "SELECT pg_advisory_unlock_all(), set_config('application_name', '', false)",
                &[],
            )
            .await?;
        // Sent now, not queued: the process ends next, and the notice is what makes the
        // others take its matches over at once.
        self.client
            .execute("SELECT pg_notify($1, $2)", &[&super::NOTICES, &payload])
            .await?;
        Ok(())
    }
}
