//! What one run of clients measured, in a form that several processes' runs merge into
//! (`--processes`): every time is in µs since the Unix epoch, so the processes' clocks agree,
//! and the latencies, the takeover window and the peak of live matches are worked out only once
//! every part is in. Also the start schedule (`--start-over`) and the processes' shares.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::nodes::Acknowledged;

/// At most this many errors are kept in words (all are counted).
const ERRORS_KEPT: usize = 20;

/// What one process's clients measured.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Raw {
    /// Every decision: its later submission sent, the later seat's state past it received.
    pub spans: Vec<(u64, u64)>,
    /// When each client whose connection dropped got a state again.
    pub served_again: Vec<u64>,
    /// Every match: from its later seat's first state to its later seat's last.
    pub live: Vec<(u64, u64)>,
    /// The first errors in words.
    pub errors: Vec<String>,
    /// All errors.
    pub error_count: usize,
    /// Matches both of whose seats played to the end.
    pub finished: usize,
    pub reconnects: usize,
    pub resubmitted: usize,
    /// Per match, its id and each seat's acknowledged submissions, for the read-back check.
    pub acknowledged: Vec<Acknowledged>,
    /// The CPU seconds of the process that ran these clients.
    pub client_cpu_seconds: f64,
}

impl Raw {
    /// An error in words (the first ones kept, every one counted).
    pub fn error(&mut self, e: String) {
        self.error_count += 1;
        if self.errors.len() < ERRORS_KEPT {
            self.errors.push(e);
        }
    }

    /// The parts of several processes as one.
    pub fn merge(parts: impl IntoIterator<Item = Raw>) -> Raw {
        let mut all = Raw::default();
        for p in parts {
            all.spans.extend(p.spans);
            all.served_again.extend(p.served_again);
            all.live.extend(p.live);
            for e in p.errors {
                if all.errors.len() < ERRORS_KEPT {
                    all.errors.push(e);
                }
            }
            all.error_count += p.error_count;
            all.finished += p.finished;
            all.reconnects += p.reconnects;
            all.resubmitted += p.resubmitted;
            all.acknowledged.extend(p.acknowledged);
            all.client_cpu_seconds += p.client_cpu_seconds;
        }
        all
    }
}

/// The figures worked out from the merged parts.
#[derive(Debug, Default)]
pub struct Summary {
    /// Latencies in µs, sorted, of the decisions outside the takeover window (all of them
    /// without a kill) and of those overlapping it.
    pub outside: Vec<u64>,
    pub inside: Vec<u64>,
    /// From the kill until the last dropped client was served again, in ms.
    pub takeover_ms: Option<f64>,
    /// From the kill until each dropped client was served again, in µs, sorted (how the
    /// takeover window fills: its end is the last of these).
    pub served_again: Vec<u64>,
    /// The most matches live at one moment.
    pub peak_live: usize,
}

/// Splits the decisions around the takeover window (from `killed_at` until the last dropped
/// client was served again: a decision overlaps it if it was decided after the window began and
/// its last submission was sent before it ended) and counts the peak of live matches.
pub fn summarize(raw: &Raw, killed_at: Option<u64>) -> Summary {
    let window = killed_at.map(|at| {
        let end = raw
            .served_again
            .iter()
            .copied()
            .filter(|&t| t >= at)
            .max()
            .unwrap_or(at);
        (at, end)
    });
    let mut served_again: Vec<u64> = match killed_at {
        Some(at) => raw
            .served_again
            .iter()
            .filter(|&&t| t >= at)
            .map(|&t| t - at)
            .collect(),
        None => Vec::new(),
    };
    served_again.sort_unstable();
    let mut s = Summary {
        takeover_ms: window.map(|(from, to)| (to - from) as f64 / 1000.0),
        served_again,
        peak_live: peak(&raw.live),
        ..Summary::default()
    };
    for &(last, reached) in &raw.spans {
        let us = reached.saturating_sub(last);
        match window {
            Some((from, to)) if last <= to && reached >= from => s.inside.push(us),
            _ => s.outside.push(us),
        }
    }
    s.outside.sort_unstable();
    s.inside.sort_unstable();
    s
}

/// One second of a run around its kill ([`timeline`]).
#[derive(Debug, Default, Clone, PartialEq, Serialize)]
pub struct Second {
    /// Seconds from the kill (negative before it) at which this second begins.
    pub from_kill_s: i64,
    /// Decisions revealed in this second, and their latencies' p50, p99 and max in ms.
    pub decisions: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Dropped clients served again in this second.
    pub served_again: usize,
}

/// Second by second from `before` seconds before the kill at `killed_at` (µs) to the last
/// dropped client served again (and at least `after` seconds after the kill): the decisions
/// revealed in each second with their latencies, and the clients served again. Shows where a
/// takeover's slow decisions and late clients fall.
pub fn timeline(raw: &Raw, killed_at: u64, before: i64, after: i64) -> Vec<Second> {
    per_second(&raw.spans, &raw.served_again, killed_at, before, after)
}

/// [`timeline`] of `spans` (decisions) and `served_again` (returns) around `origin` (µs).
fn per_second(
    spans: &[(u64, u64)],
    served_again: &[u64],
    origin: u64,
    before: i64,
    after: i64,
) -> Vec<Second> {
    let second = |t: u64| (t as i64 - origin as i64).div_euclid(1_000_000);
    let last = served_again
        .iter()
        .filter(|&&t| t >= origin)
        .map(|&t| second(t))
        .max()
        .unwrap_or(0)
        .max(after);
    let mut latencies: Vec<Vec<u64>> = vec![Vec::new(); (last + before + 1) as usize];
    let mut served = vec![0; latencies.len()];
    let slot = |t: u64| {
        let s = second(t) + before;
        (0..=last + before).contains(&s).then_some(s as usize)
    };
    for &(sent, reached) in spans {
        if let Some(i) = slot(reached) {
            latencies[i].push(reached.saturating_sub(sent));
        }
    }
    for &t in served_again {
        if let Some(i) = slot(t) {
            served[i] += 1;
        }
    }
    let pct = |v: &[u64], p: f64| -> f64 {
        if v.is_empty() {
            return 0.0;
        }
        let i = ((p / 100.0) * (v.len() - 1) as f64).round() as usize;
        v[i] as f64 / 1000.0
    };
    latencies
        .into_iter()
        .zip(served)
        .enumerate()
        .map(|(i, (mut lat, served_again))| {
            lat.sort_unstable();
            Second {
                from_kill_s: i as i64 - before,
                decisions: lat.len(),
                p50_ms: pct(&lat, 50.0),
                p99_ms: pct(&lat, 99.0),
                max_ms: pct(&lat, 100.0),
                served_again,
            }
        })
        .collect()
}

/// The whole run second by second from its first decision's submission (`from_kill_s` is then
/// the second from that moment): where a run's slow decisions fall (the start's connections and
/// creations, a checkpoint, the end). Empty without decisions.
pub fn run_timeline(raw: &Raw) -> Vec<Second> {
    let Some(first) = raw.spans.iter().map(|&(sent, _)| sent).min() else {
        return Vec::new();
    };
    let last = raw
        .spans
        .iter()
        .map(|&(_, reached)| reached)
        .max()
        .unwrap_or(first);
    let seconds = i64::try_from(last.saturating_sub(first) / 1_000_000).unwrap_or(i64::MAX);
    per_second(&raw.spans, &[], first, 0, seconds)
}

/// The most intervals that hold one moment (an interval ending when another begins does not
/// overlap it).
pub fn peak(intervals: &[(u64, u64)]) -> usize {
    let mut events: Vec<(u64, i8)> = intervals
        .iter()
        .flat_map(|&(a, b)| [(a, 1), (b.max(a), -1)])
        .collect();
    // Ends before starts at the same moment.
    events.sort_unstable();
    let (mut now, mut most) = (0i64, 0i64);
    for (_, d) in events {
        now += i64::from(d);
        most = most.max(now);
    }
    most as usize
}

/// When match `i` of `matches` starts, after play begins: evenly spaced over `window`, the
/// first at once (`--start-over`).
pub fn start_offset(i: usize, matches: usize, window: Duration) -> Duration {
    if matches == 0 {
        return Duration::ZERO;
    }
    window.mul_f64(i as f64 / matches as f64)
}

/// The matches (by index) process `k` of `processes` plays: every `processes`-th one, so that
/// each process's matches start spread over the whole window.
pub fn share(k: usize, processes: usize, matches: usize) -> Vec<usize> {
    (k..matches).step_by(processes.max(1)).collect()
}

/// Now, in µs since the Unix epoch.
pub fn unix_now_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// An `Instant` of this process in µs since the Unix epoch (through one pair read at the first
/// call, so that the times of one process are consistent with each other).
pub fn unix_us(t: Instant) -> u64 {
    static BASE: std::sync::OnceLock<(Instant, u64)> = std::sync::OnceLock::new();
    let &(at, us) = BASE.get_or_init(|| (Instant::now(), unix_now_us()));
    if t >= at {
        us + t.duration_since(at).as_micros() as u64
    } else {
        us.saturating_sub(at.duration_since(t).as_micros() as u64)
    }
}

/// The `Instant` of this process at `us` µs since the Unix epoch (now, if that has passed).
pub fn instant_at(us: u64) -> Instant {
    let now = unix_now_us();
    Instant::now() + Duration::from_micros(us.saturating_sub(now))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeline_puts_decisions_and_returns_in_their_seconds_from_the_kill() {
        let raw = Raw {
            // Reached 1.5 s before the kill (10 ms), 0.2 s after (3,000 ms), 2.9 s after (5 ms).
            spans: vec![
                (8_490_000, 8_500_000),
                (7_200_000, 10_200_000),
                (12_895_000, 12_900_000),
            ],
            served_again: vec![10_100_000, 12_950_000],
            ..Raw::default()
        };
        let t = timeline(&raw, 10_000_000, 2, 1);
        let secs: Vec<i64> = t.iter().map(|s| s.from_kill_s).collect();
        assert_eq!(secs, [-2, -1, 0, 1, 2]);
        let got: Vec<(usize, f64, usize)> = t
            .iter()
            .map(|s| (s.decisions, s.max_ms, s.served_again))
            .collect();
        assert_eq!(
            got,
            [
                (1, 10.0, 0),
                (0, 0.0, 0),
                (1, 3000.0, 1),
                (0, 0.0, 0),
                (1, 5.0, 1)
            ]
        );
    }

    #[test]
    fn the_run_timeline_counts_every_decision_from_the_first_submission() {
        let raw = Raw {
            spans: vec![
                (5_000_000, 5_004_000),
                (5_500_000, 6_700_000),
                (7_100_000, 7_900_000),
                (7_200_000, 7_210_000),
            ],
            served_again: vec![1_000_000],
            ..Raw::default()
        };
        let t = run_timeline(&raw);
        let got: Vec<(i64, usize, f64, usize)> = t
            .iter()
            .map(|s| (s.from_kill_s, s.decisions, s.max_ms, s.served_again))
            .collect();
        assert_eq!(got, [(0, 1, 4.0, 0), (1, 1, 1200.0, 0), (2, 2, 800.0, 0)]);
        assert_eq!(
            t.iter().map(|s| s.decisions).sum::<usize>(),
            raw.spans.len()
        );
        assert!(run_timeline(&Raw::default()).is_empty());
    }

    fn part(spans: &[(u64, u64)], errors: usize, finished: usize) -> Raw {
        let mut r = Raw {
            spans: spans.to_vec(),
            finished,
            reconnects: 1,
            resubmitted: 2,
            client_cpu_seconds: 1.5,
            ..Raw::default()
        };
        r.acknowledged
            .push((format!("m{finished}"), Default::default()));
        for e in 0..errors {
            r.error(format!("error {e}"));
        }
        r
    }

    #[test]
    fn the_parts_of_several_processes_merge_into_one() {
        let all = Raw::merge([part(&[(0, 10)], 15, 3), part(&[(5, 20), (7, 9)], 15, 4)]);
        assert_eq!(all.spans, [(0, 10), (5, 20), (7, 9)]);
        assert_eq!(all.finished, 7);
        assert_eq!(all.reconnects, 2);
        assert_eq!(all.resubmitted, 4);
        assert_eq!(all.client_cpu_seconds, 3.0);
        assert_eq!(all.acknowledged.len(), 2);
        // Every error counted, the first 20 kept in words.
        assert_eq!(all.error_count, 30);
        assert_eq!(all.errors.len(), 20);
        assert_eq!(all.errors[15], "error 0");
        // Through JSON, as a worker process hands its part over.
        let text = serde_json::to_string(&all).unwrap();
        let back: Raw = serde_json::from_str(&text).unwrap();
        assert_eq!(back.spans, all.spans);
        assert_eq!(back.error_count, 30);
    }

    #[test]
    fn the_merged_latencies_are_split_around_the_takeover_window() {
        let mut a = part(&[(100, 150), (1_000, 1_400), (5_000, 5_010)], 0, 1);
        a.served_again = vec![50, 2_500];
        let mut b = part(&[(2_400, 2_450), (3_000, 3_020), (900, 950)], 0, 1);
        b.served_again = vec![2_000];
        let all = Raw::merge([a, b]);
        // Killed at 1,200 µs: the window ends at the last client served again after it, 2,500.
        let s = summarize(&all, Some(1_200));
        assert_eq!(s.takeover_ms, Some(1.3));
        assert_eq!(s.served_again, [800, 1_300]);
        assert_eq!(s.inside, [50, 400]);
        assert_eq!(s.outside, [10, 20, 50, 50]);
        // Without a kill every decision is outside.
        let s = summarize(&all, None);
        assert_eq!(s.takeover_ms, None);
        assert!(s.served_again.is_empty());
        assert_eq!(s.outside, [10, 20, 50, 50, 50, 400]);
        assert!(s.inside.is_empty());
    }

    #[test]
    fn the_peak_counts_the_matches_live_at_one_moment() {
        assert_eq!(peak(&[]), 0);
        assert_eq!(peak(&[(0, 10), (5, 15), (12, 20)]), 2);
        assert_eq!(peak(&[(0, 10), (1, 9), (2, 8), (20, 30)]), 3);
        // One ends as the next begins: not at once.
        assert_eq!(peak(&[(0, 10), (10, 20), (20, 30)]), 1);
        let mut a = part(&[], 0, 0);
        a.live = vec![(0, 100), (50, 150)];
        let mut b = part(&[], 0, 0);
        b.live = vec![(60, 70), (200, 300)];
        assert_eq!(summarize(&Raw::merge([a, b]), None).peak_live, 3);
    }

    #[test]
    fn starts_are_spread_evenly_over_the_window() {
        let w = Duration::from_secs(10);
        assert_eq!(start_offset(0, 4, w), Duration::ZERO);
        assert_eq!(start_offset(1, 4, w), Duration::from_millis(2_500));
        assert_eq!(start_offset(3, 4, w), Duration::from_millis(7_500));
        let all: Vec<_> = (0..1000).map(|i| start_offset(i, 1000, w)).collect();
        assert!(all.windows(2).all(|p| p[0] < p[1]));
        assert!(*all.last().unwrap() < w);
        // No window: everything at once.
        assert_eq!(start_offset(999, 1000, Duration::ZERO), Duration::ZERO);
    }

    #[test]
    fn the_processes_share_every_match_once() {
        for (processes, matches) in [(1, 5), (3, 10), (4, 4), (5, 3), (3, 10_000)] {
            let shares: Vec<Vec<usize>> = (0..processes)
                .map(|k| share(k, processes, matches))
                .collect();
            let mut all: Vec<usize> = shares.iter().flatten().copied().collect();
            all.sort_unstable();
            assert_eq!(all, (0..matches).collect::<Vec<_>>());
            let sizes: Vec<usize> = shares.iter().map(Vec::len).collect();
            assert!(
                sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1,
                "{sizes:?}"
            );
        }
        // Interleaved: each process starts its matches over the whole window.
        assert_eq!(share(1, 3, 10), [1, 4, 7]);
    }

    #[test]
    fn a_process_s_times_round_trip_through_unix_time() {
        let now = Instant::now();
        let us = unix_us(now);
        assert!(us.abs_diff(unix_now_us()) < 1_000_000);
        // Within a µs (each conversion rounds down).
        assert!(unix_us(now + Duration::from_millis(5)).abs_diff(us + 5_000) <= 1);
        let later = instant_at(unix_now_us() + 200_000);
        let ahead = later.duration_since(Instant::now());
        assert!(ahead > Duration::from_millis(150) && ahead <= Duration::from_millis(200));
    }
}
