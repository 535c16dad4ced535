//! The webhooks' outbox: every queued post written to a file as it is queued, and marked done
//! when it is sent or dropped, so posts still queued when the process stops are delivered after
//! it starts again, in the order they were queued ([`super::Webhooks::keep_outbox`]).
//!
//! The file sits beside the database (`serve --db FILE` keeps `FILE.outbox`): a queue belongs
//! to the process that fills it (a PostgreSQL store is shared by several processes, whose
//! queues must not mix), and the match store's trait stays as it is. It is a log of JSON lines,
//! `{"add": N, "hook": ..., "post": ...}` and `{"done": N}`, each written (and synced) before
//! [`super::Webhooks::post`] returns; at start the lines not done are read back in order and
//! the file is written anew with only them; when nothing is waiting it is emptied. It holds
//! what the queues hold: the posts' text and spectator views, and each webhook's URL (a secret,
//! as in the database): it is created readable by its owner only.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::{Board, Post, WebhookConfig};

/// One post as the outbox keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Saved {
    pub kind: String,
    pub title: String,
    pub lines: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<Board>,
    /// The match goes on after it (a Discord channel target adds the "Make your move" button).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub live: bool,
}

impl Saved {
    pub fn of(post: &Post, live: bool) -> Saved {
        Saved {
            kind: post.kind.to_string(),
            title: post.title.clone(),
            lines: post.lines.clone(),
            board: post.board.clone(),
            live,
        }
    }

    pub fn post(self) -> (Post, bool) {
        (
            Post {
                kind: kind(&self.kind),
                title: self.title,
                lines: self.lines,
                board: self.board,
            },
            self.live,
        )
    }
}

/// The `&'static str` for a post's kind read back (the known kinds; another is kept once).
fn kind(k: &str) -> &'static str {
    const KNOWN: &[&str] = &[
        "pairings",
        "start",
        "reveal",
        "drawn",
        "result",
        "standings",
        "host",
        "webhook",
        "clock",
    ];
    if let Some(known) = KNOWN.iter().find(|known| **known == k) {
        return known;
    }
    static OTHERS: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut others = OTHERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(other) = others.iter().find(|o| **o == k) {
        return other;
    }
    let leaked: &'static str = Box::leak(k.to_string().into_boxed_str());
    others.push(leaked);
    leaked
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Line {
    Add {
        add: u64,
        hook: Box<WebhookConfig>,
        post: Box<Saved>,
    },
    Done {
        done: u64,
    },
}

/// The outbox file and how many of its posts are waiting.
pub(super) struct Outbox {
    path: PathBuf,
    state: Mutex<State>,
}

struct State {
    file: File,
    next: u64,
    waiting: std::collections::HashSet<u64>,
}

/// A post read back from the outbox: its id, webhook, post and whether the match went on.
pub(super) type Waiting = (u64, WebhookConfig, Post, bool);

impl Outbox {
    /// Opens (or creates) the outbox at `path`: the posts not done, in the order they were
    /// queued; the file is rewritten with only them.
    pub fn open(path: &Path) -> std::io::Result<(Outbox, Vec<Waiting>)> {
        let mut adds: Vec<(u64, WebhookConfig, Saved)> = Vec::new();
        let mut done = std::collections::HashSet::new();
        match File::open(path) {
            Ok(file) => {
                for line in BufReader::new(file).lines() {
                    let line = line?;
                    // A line cut short by a crash (the last one) is skipped.
                    match serde_json::from_str::<Line>(&line) {
                        Ok(Line::Add { add, hook, post }) => adds.push((add, *hook, *post)),
                        Ok(Line::Done { done: id }) => {
                            done.insert(id);
                        }
                        Err(e) => {
                            if !line.trim().is_empty() {
                                tracing::warn!(
                                    "webhook outbox {}: a line skipped: {e}",
                                    path.display()
                                );
                            }
                        }
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        adds.retain(|(id, _, _)| !done.contains(id));
        // Written anew with the waiting posts only, renumbered from 1 in their order.
        let tmp = path.with_extension("outbox-tmp");
        let mut out = create(&tmp)?;
        let mut waiting = Vec::with_capacity(adds.len());
        for (i, (_, hook, saved)) in adds.into_iter().enumerate() {
            let id = i as u64 + 1;
            let line = serde_json::to_string(&Line::Add {
                add: id,
                hook: Box::new(hook.clone()),
                post: Box::new(saved.clone()),
            })
            .map_err(std::io::Error::other)?;
            writeln!(out, "{line}")?;
            let (post, live) = saved.post();
            waiting.push((id, hook, post, live));
        }
        out.sync_all()?;
        drop(out);
        std::fs::rename(&tmp, path)?;
        let file = OpenOptions::new().append(true).open(path)?;
        Ok((
            Outbox {
                path: path.to_path_buf(),
                state: Mutex::new(State {
                    file,
                    next: waiting.len() as u64 + 1,
                    waiting: waiting.iter().map(|w| w.0).collect(),
                }),
            },
            waiting,
        ))
    }

    /// Writes `post` for `hook` (synced before it returns); its id.
    pub fn add(&self, hook: &WebhookConfig, post: &Post, live: bool) -> u64 {
        let mut st = self.lock();
        let id = st.next;
        st.next += 1;
        let line = serde_json::to_string(&Line::Add {
            add: id,
            hook: Box::new(hook.clone()),
            post: Box::new(Saved::of(post, live)),
        })
        .unwrap_or_default();
        if let Err(e) = writeln!(st.file, "{line}").and_then(|()| st.file.sync_data()) {
            tracing::error!(
                "webhook outbox {}: a post not written: {e}",
                self.path.display()
            );
        }
        st.waiting.insert(id);
        id
    }

    /// Marks post `id` done (sent or dropped); with nothing left waiting the file is emptied.
    pub fn done(&self, id: u64) {
        let mut st = self.lock();
        if !st.waiting.remove(&id) {
            return;
        }
        let written = if st.waiting.is_empty() {
            st.file.set_len(0).and_then(|()| st.file.sync_data())
        } else {
            let line = serde_json::to_string(&Line::Done { done: id }).unwrap_or_default();
            writeln!(st.file, "{line}").and_then(|()| st.file.sync_data())
        };
        if let Err(e) = written {
            tracing::error!(
                "webhook outbox {}: a sent post not marked: {e}",
                self.path.display()
            );
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A new file readable and writable by its owner only.
fn create(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhooks::{Issued, Verbosity, WebhookFormat};

    fn hook(url: &str) -> WebhookConfig {
        WebhookConfig {
            url: url.into(),
            format: WebhookFormat::Discord,
            verbosity: Verbosity::All,
            label: None,
            issued: Issued::default(),
        }
    }

    fn post(kind: &'static str, title: &str) -> Post {
        Post {
            kind,
            title: title.into(),
            lines: vec!["a line".into()],
            board: None,
        }
    }

    #[test]
    fn waiting_posts_come_back_in_order_and_done_ones_and_a_torn_line_do_not() {
        let dir = std::env::temp_dir().join(format!("colosseum-outbox-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.db.outbox");
        let (outbox, waiting) = Outbox::open(&path).unwrap();
        assert!(waiting.is_empty());
        let a = outbox.add(
            &hook("https://discord.com/api/webhooks/1/a"),
            &post("result", "A"),
            false,
        );
        let b = outbox.add(&hook("7"), &post("reveal", "B"), true);
        let c = outbox.add(
            &hook("https://discord.com/api/webhooks/1/a"),
            &post("clock", "C"),
            false,
        );
        outbox.done(b);
        drop(outbox);
        // A crash in the middle of a line.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"add\": 9, \"hook\": {\"url\"")
            .unwrap();
        let (outbox, waiting) = Outbox::open(&path).unwrap();
        let titles: Vec<(&str, &str)> = waiting
            .iter()
            .map(|w| (w.2.kind, w.2.title.as_str()))
            .collect();
        assert_eq!(titles, [("result", "A"), ("clock", "C")]);
        assert_eq!(waiting[0].1.url, "https://discord.com/api/webhooks/1/a");
        // Renumbered from 1; ids go on after them.
        assert_eq!(waiting.iter().map(|w| w.0).collect::<Vec<_>>(), [1, 2]);
        assert!(a != c);
        for w in &waiting {
            outbox.done(w.0);
        }
        // Nothing waiting: the file is empty.
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
        let d = outbox.add(&hook("7"), &post("host", "D"), true);
        assert_eq!(d, 3);
        drop(outbox);
        let (_, waiting) = Outbox::open(&path).unwrap();
        assert_eq!(waiting.len(), 1);
        assert_eq!(waiting[0].2.title, "D");
        assert!(waiting[0].3, "the match went on after it");
        assert_eq!(waiting[0].1.format, WebhookFormat::Discord);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
