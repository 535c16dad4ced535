//! The lobby's index (issue 36, hole 7): the open matches this node serves, kept in the lobby's
//! order as matches change, so that a page costs what it shows whatever the number of waiting
//! matches.
//!
//! `Hub` keeps one [`Lobby`]: every unfinished match it serves has an entry, updated by
//! `Hub::commit` (created, joined, started, finished, adopted, resumed), removed when the match
//! finishes, expires or is set aside. An entry holds the match's lobby summary as JSON text,
//! rendered when the summary changes (a join, the start), not at each request. The listed ones
//! (live matches, and waiting ones younger than `Limits::lobby_waiting_ms`) are kept in order
//! (newest first, then by id) in [`Ordered`], a list of sorted chunks that finds the entry at an
//! offset by walking the chunks' lengths: a page at any offset costs about `n / CHUNK + CHUNK +
//! page`, a creation or a join `log n + CHUNK`. Waiting matches leave the listed order as they
//! age (oldest first, from a set ordered by creation: each leaves once) and the index as they
//! expire, so neither the listing nor the expiry walks every match.
//!
//! A waiting match may be *light* (`Hub::create` for a match with no webhook and no
//! tournament, `Hub::resume` for the waiting matches it finds): it has its entry here and its
//! rows in the store, and no `Table` in memory until a request asks for it (`Hub::table` loads
//! it then). Its whole cost in memory is its entry.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

/// The most keys in one chunk of [`Ordered`] before it is split in two.
const CHUNK: usize = 512;

/// A listed match's place: newest first (`created_at` descending), then by id.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key(std::cmp::Reverse<u64>, Arc<str>);

/// A sorted list of keys in chunks of at most `CHUNK` (each chunk sorted, the chunks in
/// order): an insertion or removal moves at most a chunk, the key at an offset is found by
/// walking the chunks' lengths.
#[derive(Default)]
struct Ordered {
    chunks: Vec<Vec<Key>>,
    len: usize,
}

impl Ordered {
    /// The chunk where `key` is or would go.
    fn chunk_of(&self, key: &Key) -> usize {
        // The first chunk whose last key is not below `key`, else the last chunk.
        let i = self
            .chunks
            .partition_point(|c| c.last().is_some_and(|last| last < key));
        i.min(self.chunks.len().saturating_sub(1))
    }

    fn insert(&mut self, key: Key) -> bool {
        if self.chunks.is_empty() {
            self.chunks.push(vec![key]);
            self.len = 1;
            return true;
        }
        let c = self.chunk_of(&key);
        let chunk = &mut self.chunks[c];
        let Err(at) = chunk.binary_search(&key) else {
            return false;
        };
        chunk.insert(at, key);
        self.len += 1;
        if chunk.len() > CHUNK {
            let upper = chunk.split_off(chunk.len() / 2);
            self.chunks.insert(c + 1, upper);
        }
        true
    }

    fn remove(&mut self, key: &Key) -> bool {
        if self.chunks.is_empty() {
            return false;
        }
        let c = self.chunk_of(key);
        let chunk = &mut self.chunks[c];
        let Ok(at) = chunk.binary_search(key) else {
            return false;
        };
        chunk.remove(at);
        self.len -= 1;
        if chunk.is_empty() {
            self.chunks.remove(c);
        }
        true
    }

    /// Up to `limit` keys from `offset` on, in order.
    fn page(&self, offset: usize, limit: usize) -> impl Iterator<Item = &Key> {
        let mut skip = offset;
        let mut first = self.chunks.len();
        for (i, c) in self.chunks.iter().enumerate() {
            if skip < c.len() {
                first = i;
                break;
            }
            skip -= c.len();
        }
        self.chunks[first.min(self.chunks.len())..]
            .iter()
            .flatten()
            .skip(skip)
            .take(limit)
    }
}

/// One open match.
struct Entry {
    created_at: u64,
    /// Nobody has started it yet (a seat still to join).
    waiting: bool,
    /// In the listed order now.
    listed: bool,
    /// Served without a `Table` in memory (loaded at the first request for it).
    light: bool,
    /// What changes the summary: who joined, whether it started.
    shape: Shape,
    /// The lobby summary as JSON text.
    summary: Box<str>,
}

/// What a lobby summary of an open match depends on that changes while it is open.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    /// Who has joined.
    pub joined: [bool; 2],
    /// Whether it started.
    pub started: bool,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<Arc<str>, Entry>,
    /// The listed matches, in the lobby's order.
    order: Ordered,
    /// The listed waiting matches by creation, oldest first: they leave the list in this order.
    listed_waiting: BTreeSet<(u64, Arc<str>)>,
    /// Every waiting match by creation, oldest first: they expire in this order.
    waiting: BTreeSet<(u64, Arc<str>)>,
    /// How many entries are light.
    light: usize,
}

impl Inner {
    fn remove(&mut self, id: &str) -> Option<Entry> {
        let (id, entry) = self.entries.remove_entry(id)?;
        if entry.listed {
            self.order
                .remove(&Key(std::cmp::Reverse(entry.created_at), id.clone()));
        }
        if entry.waiting {
            let at = (entry.created_at, id);
            self.listed_waiting.remove(&at);
            self.waiting.remove(&at);
        }
        if entry.light {
            self.light -= 1;
        }
        Some(entry)
    }

    /// Takes the waiting matches created before `cutoff` out of the listed order.
    fn unlist_before(&mut self, cutoff: u64) {
        while let Some(first) = self.listed_waiting.first() {
            if first.0 >= cutoff {
                break;
            }
            let (created_at, id) = self.listed_waiting.pop_first().expect("looked at");
            self.order
                .remove(&Key(std::cmp::Reverse(created_at), id.clone()));
            if let Some(e) = self.entries.get_mut(&id) {
                e.listed = false;
            }
        }
    }
}

/// The lobby's index of this node's open matches.
#[derive(Default)]
pub(crate) struct Lobby {
    inner: Mutex<Inner>,
}

/// A lobby page: the summaries (JSON text) and how many are listed in all.
pub(crate) struct Page {
    pub summaries: Vec<Box<str>>,
    pub total: usize,
}

impl Lobby {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the entry of `id` is missing or has another shape than `shape` (its summary
    /// must be rendered again), or its lightness changes.
    pub fn stale(&self, id: &str, shape: Shape, light: bool) -> bool {
        self.lock()
            .entries
            .get(id)
            .is_none_or(|e| e.shape != shape || e.light != light)
    }

    /// Sets the entry of open match `id`: created at `created_at`, in `shape`, summarised as
    /// `summary`, light or not. A waiting match created before `list_cutoff` is kept (it can
    /// still be joined, and expires from here) but not listed.
    pub fn set(
        &self,
        id: &str,
        created_at: u64,
        shape: Shape,
        light: bool,
        summary: String,
        list_cutoff: u64,
    ) {
        let mut inner = self.lock();
        inner.remove(id);
        let id: Arc<str> = Arc::from(id);
        let waiting = !shape.started;
        let listed = !waiting || created_at >= list_cutoff;
        if listed {
            inner
                .order
                .insert(Key(std::cmp::Reverse(created_at), id.clone()));
        }
        if waiting {
            inner.waiting.insert((created_at, id.clone()));
            if listed {
                inner.listed_waiting.insert((created_at, id.clone()));
            }
        }
        if light {
            inner.light += 1;
        }
        inner.entries.insert(
            id,
            Entry {
                created_at,
                waiting,
                listed,
                light,
                shape,
                summary: summary.into_boxed_str(),
            },
        );
    }

    /// Removes match `id` (finished, expired, set aside); whether it was light.
    pub fn remove(&self, id: &str) -> Option<bool> {
        self.lock().remove(id).map(|e| e.light)
    }

    /// Whether match `id` is light (listed here, not in memory).
    pub fn is_light(&self, id: &str) -> bool {
        self.lock().entries.get(id).is_some_and(|e| e.light)
    }

    /// How many matches are light.
    pub fn light(&self) -> usize {
        self.lock().light
    }

    /// Removes every waiting match created before `cutoff` (expired) and returns their ids.
    pub fn expire_before(&self, cutoff: u64) -> Vec<Arc<str>> {
        let mut inner = self.lock();
        let mut gone = Vec::new();
        while let Some(first) = inner.waiting.first() {
            if first.0 >= cutoff {
                break;
            }
            let id = first.1.clone();
            inner.remove(&id);
            gone.push(id);
        }
        gone
    }

    /// Up to `limit` listed summaries from `offset` on, with the number listed; waiting
    /// matches created before `list_cutoff` leave the list first.
    pub fn page(&self, list_cutoff: u64, offset: usize, limit: usize) -> Page {
        let mut inner = self.lock();
        inner.unlist_before(list_cutoff);
        let summaries = inner
            .order
            .page(offset, limit)
            .filter_map(|k| inner.entries.get(&k.1).map(|e| e.summary.clone()))
            .collect();
        Page {
            summaries,
            total: inner.order.len,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(started: bool) -> Shape {
        Shape {
            joined: [started, started],
            started,
        }
    }

    fn ids(page: &Page) -> Vec<String> {
        page.summaries.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn chunks_keep_order_and_find_offsets() {
        let mut o = Ordered::default();
        let n = 5 * CHUNK + 7;
        // Inserted out of order, some twice.
        for i in (0..n)
            .rev()
            .step_by(2)
            .chain((0..n).rev().skip(1).step_by(2))
            .chain(0..10)
        {
            o.insert(Key(
                std::cmp::Reverse(i as u64 / 3),
                Arc::from(format!("{i:06}")),
            ));
        }
        assert_eq!(o.len, n);
        assert!(o.chunks.iter().all(|c| c.len() <= CHUNK && !c.is_empty()));
        let all: Vec<&Key> = o.page(0, usize::MAX).collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]), "sorted");
        for offset in [0, 1, CHUNK - 1, CHUNK, 2 * CHUNK + 3, n - 1, n, n + 5] {
            let page: Vec<&Key> = o.page(offset, 7).collect();
            let want: Vec<&Key> = all.iter().skip(offset).take(7).copied().collect();
            assert_eq!(page, want, "offset {offset}");
        }
        for i in (0..n).step_by(3) {
            assert!(o.remove(&Key(
                std::cmp::Reverse(i as u64 / 3),
                Arc::from(format!("{i:06}"))
            )));
        }
        assert_eq!(o.len, n - n.div_ceil(3));
        let left: Vec<&Key> = o.page(0, usize::MAX).collect();
        assert_eq!(left.len(), o.len);
        assert!(left.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn waiting_matches_leave_the_list_then_expire() {
        let lobby = Lobby::default();
        // Summaries are their ids here.
        for (id, at) in [("a", 10), ("b", 20), ("c", 30)] {
            lobby.set(id, at, shape(false), true, id.into(), 0);
        }
        lobby.set("live", 5, shape(true), false, "live".into(), 0);
        assert_eq!(ids(&lobby.page(0, 0, 10)), ["c", "b", "a", "live"]);
        assert_eq!(lobby.light(), 3);
        // "a" is too old to list; it stays (joinable) until it expires.
        let page = lobby.page(15, 0, 10);
        assert_eq!(ids(&page), ["c", "b", "live"]);
        assert_eq!(page.total, 3);
        assert!(lobby.is_light("a"));
        // Joined late: live, listed again at its place.
        lobby.set("a", 10, shape(true), false, "a".into(), 15);
        assert_eq!(ids(&lobby.page(15, 0, 10)), ["c", "b", "a", "live"]);
        assert_eq!(ids(&lobby.page(15, 1, 2)), ["b", "a"]);
        assert_eq!(lobby.expire_before(25).as_slice(), [Arc::from("b")]);
        assert_eq!(ids(&lobby.page(15, 0, 10)), ["c", "a", "live"]);
        assert_eq!(lobby.remove("live"), Some(false));
        assert_eq!(lobby.remove("live"), None);
        assert_eq!(ids(&lobby.page(15, 0, 10)), ["c", "a"]);
        assert_eq!(lobby.light(), 1);
    }
}
