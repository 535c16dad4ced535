//! The bot pool: at most `Limits::bot_searches` CPU jobs at once (bot searches, the analysis
//! after a game, verifying a match), shared fairly between *shares*.
//!
//! A share is whoever the work is for: a match's bot searches belong to the address that
//! created the match (kept with the match, `StoredMatch::share`, so it survives a restart and a
//! takeover), a tournament's matches to the tournament, a verify to the address that asks for
//! it. Each share has its own queue, first in first out; a free slot goes to the share with the
//! fewest jobs running, ties taken in turn (round robin). So one address's flood of bot
//! matches waits behind itself: another share's job starts at the next free slot, whatever the
//! flood's length (issue 36, hole 5).
//!
//! Shares are stored hashed ([`share_of`]), never as addresses, and shown to the public
//! (`GET /api/health`, `/metrics`) under a label salted per process ([`Pool::label`]).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;
use tokio::sync::oneshot;

/// What a job in the pool is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A bot's search for its move (and the analysis after a game).
    Search,
    /// Verifying a match (`GET /api/matches/{id}/verify`).
    Verify,
}

/// The share of a client address: the hex SHA-256 of the address (an IPv6 address by its /64,
/// the block one subscriber gets), first 16 digits, prefixed `a:`. `local` (a call without a
/// peer, in tests) and other text are hashed as they are.
#[must_use]
pub fn share_of(client: &str) -> String {
    let key = match client.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V6(v6)) if v6.to_ipv4_mapped().is_none() => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        Ok(std::net::IpAddr::V6(v6)) => v6.to_ipv4_mapped().map(|v4| v4.to_string()).unwrap(),
        Ok(ip) => ip.to_string(),
        Err(_) => client.to_string(),
    };
    let hash = colosseum_engine::fair::sha256_hex(format!("colosseum share\n{key}").as_bytes());
    format!("a:{}", &hash[..16])
}

#[derive(Default, Clone, Copy)]
struct Counts {
    queued: usize,
    running: usize,
    verify_queued: usize,
    verify_running: usize,
}

impl Counts {
    fn idle(&self) -> bool {
        self.queued == 0 && self.running == 0
    }
}

struct Waiter {
    id: u64,
    kind: Kind,
    tx: oneshot::Sender<()>,
}

#[derive(Default)]
struct State {
    running: usize,
    closed: bool,
    next_id: u64,
    /// Each share's waiting jobs, first in first out.
    queues: HashMap<String, VecDeque<Waiter>>,
    /// The shares with waiting jobs, in turn.
    order: VecDeque<String>,
    /// Each busy share's counts.
    shares: HashMap<String, Counts>,
}

/// The pool. See the module's documentation.
pub struct Pool {
    slots: usize,
    state: Mutex<State>,
    peak: AtomicUsize,
    /// Mixed into the public labels of shares, fresh in every process.
    salt: String,
    /// Told `true` when the pool closes.
    closing: tokio::sync::watch::Sender<bool>,
}

/// A slot held: the job runs while it lives; dropped, the slot goes to the next share in turn.
pub struct Permit {
    pool: Arc<Pool>,
    share: String,
    kind: Kind,
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.pool.release(&self.share, self.kind);
    }
}

/// The most shares `GET /api/health` lists one by one (all are counted).
pub const SHARES_SHOWN: usize = 20;

/// A share's jobs now, as shown in `GET /api/health`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShareLoad {
    /// The share's label: a salted hash, the same for the life of the process, never the
    /// address.
    pub share: String,
    /// Its jobs waiting for a slot.
    pub queued: usize,
    /// Its jobs running.
    pub running: usize,
}

/// The pool now.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PoolLoad {
    /// Jobs running (searches and verifies).
    pub running: usize,
    /// Jobs waiting for a slot.
    pub queued: usize,
    /// Verifies among them: (queued, running).
    pub verify: (usize, usize),
    /// The busy shares (with a job queued or running), most queued first.
    pub shares: Vec<ShareLoad>,
}

/// What [`Pool::admit`] found: the share's verifies queued and everyone's.
#[derive(Clone, Copy, Debug)]
pub struct VerifyQueue {
    /// The share's verifies waiting.
    pub share_queued: usize,
    /// All verifies waiting.
    pub queued: usize,
}

impl Pool {
    /// A pool of `slots` (at least 1).
    #[must_use]
    pub fn new(slots: usize) -> Arc<Pool> {
        Arc::new(Pool {
            slots: slots.max(1),
            state: Mutex::new(State::default()),
            peak: AtomicUsize::new(0),
            salt: crate::hub::checks::random_hex(16),
            closing: tokio::sync::watch::channel(false).0,
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The most jobs run at once.
    #[must_use]
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The most jobs that ever ran at once.
    #[must_use]
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }

    /// A share's public label: salted per process, so that it cannot be turned back into an
    /// address (an IPv4 address's plain hash could be, by trying them all).
    #[must_use]
    pub fn label(&self, share: &str) -> String {
        let h = colosseum_engine::fair::sha256_hex(format!("{}\n{share}", self.salt).as_bytes());
        h[..8].to_string()
    }

    /// Waits for a slot for `share`'s job of `kind`, in the share's turn; `None` once the pool
    /// is closed (the server stops). Dropping the future gives up its place (or the slot, if it
    /// was just given).
    pub async fn acquire(self: &Arc<Self>, share: &str, kind: Kind) -> Option<Permit> {
        let rx = {
            let mut st = self.state();
            if st.closed {
                return None;
            }
            if st.running < self.slots && st.order.is_empty() {
                self.start(&mut st, share, kind);
                return Some(self.permit(share, kind));
            }
            let (tx, rx) = oneshot::channel();
            st.next_id += 1;
            let id = st.next_id;
            let counts = st.shares.entry(share.to_string()).or_default();
            counts.queued += 1;
            if kind == Kind::Verify {
                counts.verify_queued += 1;
            }
            let queue = st.queues.entry(share.to_string()).or_default();
            queue.push_back(Waiter { id, kind, tx });
            if queue.len() == 1 {
                st.order.push_back(share.to_string());
            }
            Waiting {
                pool: self.clone(),
                share: share.to_string(),
                kind,
                id,
                rx: Some(rx),
            }
        };
        rx.wait().await
    }

    /// A slot for `share`'s job at once if one is free and nobody waits; `None` otherwise (or
    /// once the pool is closed).
    pub fn try_acquire(self: &Arc<Self>, share: &str, kind: Kind) -> Option<Permit> {
        let mut st = self.state();
        if st.closed || st.running >= self.slots || !st.order.is_empty() {
            return None;
        }
        self.start(&mut st, share, kind);
        Some(self.permit(share, kind))
    }

    /// The verifies waiting: `share`'s and everyone's.
    #[must_use]
    pub fn verify_queue(&self, share: &str) -> VerifyQueue {
        let st = self.state();
        VerifyQueue {
            share_queued: st.shares.get(share).map_or(0, |c| c.verify_queued),
            queued: st.shares.values().map(|c| c.verify_queued).sum(),
        }
    }

    /// Closes the pool: every waiting job is told `None`, and no job starts any more (the
    /// server stops; the ones running are not waited for).
    pub fn close(&self) {
        self.closing.send_replace(true);
        let mut st = self.state();
        st.closed = true;
        st.order.clear();
        let queues = std::mem::take(&mut st.queues);
        for (share, q) in queues {
            for w in q {
                Self::unqueue(&mut st, &share, w.kind);
            }
        }
    }

    /// Resolves once the pool is closed (at once if it is): a job's waiter stops waiting for
    /// its result then (the job runs on, detached, and its result is dropped).
    pub async fn closed(&self) {
        let mut rx = self.closing.subscribe();
        let _ = rx.wait_for(|c| *c).await;
    }

    /// The pool now.
    #[must_use]
    pub fn load(&self) -> PoolLoad {
        let st = self.state();
        let mut shares: Vec<ShareLoad> = st
            .shares
            .iter()
            .map(|(s, c)| ShareLoad {
                share: self.label(s),
                queued: c.queued,
                running: c.running,
            })
            .collect();
        shares
            .sort_by(|a, b| (b.queued, b.running, &a.share).cmp(&(a.queued, a.running, &b.share)));
        PoolLoad {
            running: st.running,
            queued: st.shares.values().map(|c| c.queued).sum(),
            verify: (
                st.shares.values().map(|c| c.verify_queued).sum(),
                st.shares.values().map(|c| c.verify_running).sum(),
            ),
            shares,
        }
    }

    fn permit(self: &Arc<Self>, share: &str, kind: Kind) -> Permit {
        Permit {
            pool: self.clone(),
            share: share.to_string(),
            kind,
        }
    }

    fn start(&self, st: &mut State, share: &str, kind: Kind) {
        st.running += 1;
        self.peak.fetch_max(st.running, Ordering::SeqCst);
        let c = st.shares.entry(share.to_string()).or_default();
        c.running += 1;
        if kind == Kind::Verify {
            c.verify_running += 1;
        }
    }

    fn unqueue(st: &mut State, share: &str, kind: Kind) {
        if let Some(c) = st.shares.get_mut(share) {
            c.queued -= 1;
            if kind == Kind::Verify {
                c.verify_queued -= 1;
            }
            if c.idle() {
                st.shares.remove(share);
            }
        }
    }

    fn release(&self, share: &str, kind: Kind) {
        let mut st = self.state();
        st.running -= 1;
        if let Some(c) = st.shares.get_mut(share) {
            c.running -= 1;
            if kind == Kind::Verify {
                c.verify_running -= 1;
            }
            if c.idle() {
                st.shares.remove(share);
            }
        }
        self.dispatch(&mut st);
    }

    /// Gives free slots to waiting jobs: the share with the fewest running first, ties in turn.
    fn dispatch(&self, st: &mut State) {
        while st.running < self.slots && !st.closed {
            let Some(pos) = (0..st.order.len())
                .min_by_key(|&i| st.shares.get(&st.order[i]).map_or(0, |c| c.running))
            else {
                return;
            };
            let share = st.order.remove(pos).expect("in range");
            let Some(queue) = st.queues.get_mut(&share) else {
                continue;
            };
            let Some(waiter) = queue.pop_front() else {
                st.queues.remove(&share);
                continue;
            };
            if queue.is_empty() {
                st.queues.remove(&share);
            } else {
                st.order.push_back(share.clone());
            }
            Self::unqueue(st, &share, waiter.kind);
            if waiter.tx.send(()).is_ok() {
                self.start(st, &share, waiter.kind);
            }
        }
    }
}

/// A job waiting in its share's queue.
struct Waiting {
    pool: Arc<Pool>,
    share: String,
    kind: Kind,
    id: u64,
    rx: Option<oneshot::Receiver<()>>,
}

impl Waiting {
    async fn wait(mut self) -> Option<Permit> {
        let rx = self.rx.as_mut().expect("waited once");
        let given = rx.await.is_ok();
        self.rx = None;
        given.then(|| self.pool.permit(&self.share, self.kind))
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let Some(mut rx) = self.rx.take() else {
            return;
        };
        let mut st = self.pool.state();
        let mut found = false;
        if let Some(q) = st.queues.get_mut(&self.share) {
            if let Some(pos) = q.iter().position(|w| w.id == self.id) {
                q.remove(pos);
                found = true;
                if q.is_empty() {
                    st.queues.remove(&self.share);
                    st.order.retain(|s| s != &self.share);
                }
            }
        }
        if found {
            Pool::unqueue(&mut st, &self.share, self.kind);
            return;
        }
        // Given a slot just as it gave up: hand the slot on.
        if rx.try_recv().is_ok() {
            drop(st);
            self.pool.release(&self.share, self.kind);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With one slot busy and ten jobs of share A waiting, a job of share B is given the next
    /// free slot: it does not wait for A's queue to drain.
    #[tokio::test]
    async fn another_share_goes_before_a_flood() {
        let pool = Pool::new(1);
        let first = pool.acquire("A", Kind::Search).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        let spawn = |share: &'static str, n: usize| {
            let pool = pool.clone();
            let order = order.clone();
            tokio::spawn(async move {
                let permit = pool.acquire(share, Kind::Search).await.unwrap();
                order.lock().unwrap().push(format!("{share}{n}"));
                tokio::task::yield_now().await;
                drop(permit);
            })
        };
        for n in 0..10 {
            tasks.push(spawn("A", n));
            tokio::task::yield_now().await;
        }
        while pool.load().queued < 10 {
            tokio::task::yield_now().await;
        }
        tasks.push(spawn("B", 0));
        while pool.load().queued < 11 {
            tokio::task::yield_now().await;
        }
        let load = pool.load();
        assert_eq!(load.running, 1);
        assert_eq!(load.shares.len(), 2);
        assert_eq!(load.shares[0].queued, 10);
        assert_eq!(load.shares[1].queued, 1);
        drop(first);
        for t in tasks {
            t.await.unwrap();
        }
        let order = order.lock().unwrap().clone();
        // A0 was first in line; then B, which has none running, before A1..A9.
        assert_eq!(
            order[..2],
            ["A0".to_string(), "B0".to_string()],
            "{order:?}"
        );
        assert_eq!(pool.load(), PoolLoad::default());
        assert_eq!(pool.peak(), 1);
    }

    /// A job that gives up its place leaves no trace; a closed pool starts nothing.
    #[tokio::test]
    async fn giving_up_and_closing() {
        let pool = Pool::new(1);
        let held = pool.acquire("A", Kind::Search).await.unwrap();
        {
            let wait = pool.acquire("B", Kind::Verify);
            let timed_out = tokio::time::timeout(std::time::Duration::from_millis(10), wait).await;
            assert!(timed_out.is_err());
        }
        assert_eq!(pool.load().queued, 0);
        assert_eq!(pool.verify_queue("B").queued, 0);
        let waiting = {
            let pool = pool.clone();
            tokio::spawn(async move { pool.acquire("C", Kind::Verify).await.is_some() })
        };
        while pool.load().queued == 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(pool.verify_queue("C").share_queued, 1);
        pool.close();
        assert!(
            !waiting.await.unwrap(),
            "a waiting job is told the pool closed"
        );
        drop(held);
        assert!(pool.acquire("D", Kind::Search).await.is_none());
        assert_eq!(pool.load(), PoolLoad::default());
    }

    #[test]
    fn shares_hash_addresses_and_group_ipv6_by_64() {
        assert_eq!(
            share_of("2001:db8:1:2::1"),
            share_of("2001:db8:1:2:ffff::9")
        );
        assert_ne!(share_of("2001:db8:1:2::1"), share_of("2001:db8:1:3::1"));
        assert_ne!(share_of("192.0.2.1"), share_of("192.0.2.2"));
        assert_eq!(share_of("::ffff:192.0.2.1"), share_of("192.0.2.1"));
        assert!(!share_of("192.0.2.1").contains("192"));
        let pool = Pool::new(1);
        assert_ne!(
            pool.label("a:1"),
            Pool::new(1).label("a:1"),
            "salted per process"
        );
    }
}
