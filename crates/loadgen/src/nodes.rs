//! The end of a run, read back through the API: every match finished, each stored record
//! holding every submission the server acknowledged, and each result the one the recorded
//! moves give (the records replayed with the games' own rules).

use colosseum_engine::Record;
use serde::Serialize;
use serde_json::Value;

/// One match's id and each seat's acknowledged submissions: (decision, move).
pub type Acknowledged = (String, [Vec<(u64, String)>; 2]);

/// What reading the matches back found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Check {
    /// Matches read back.
    pub matches: usize,
    /// Of them, finished.
    pub finished: usize,
    /// Submissions the server acknowledged to the clients.
    pub acknowledged: usize,
    /// Acknowledged submissions not in the stored records (must be 0).
    pub lost: usize,
    /// Finished matches whose result is not the one their records' moves give (must be 0).
    pub wrong_results: usize,
    /// The first problems, in words.
    pub problems: Vec<String>,
}

impl Check {
    fn problem(&mut self, p: String) {
        if self.problems.len() < 20 {
            self.problems.push(p);
        }
    }
}

/// GETs `path` from the first of `bases` that answers it (a node may be gone).
fn get(bases: &[String], path: &str) -> Result<Value, String> {
    let mut last = String::from("no node to ask");
    for base in bases {
        match ureq::get(&format!("{base}{path}")).call() {
            Ok(mut res) => return res.body_mut().read_json().map_err(|e| e.to_string()),
            Err(e) => last = format!("{base}{path}: {e}"),
        }
    }
    Err(last)
}

/// Reads back every match of `acknowledged` (its id, then each seat's acknowledged
/// (decision, move)) from the nodes at `bases`, on a few threads.
pub fn check(bases: &[String], acknowledged: &[Acknowledged]) -> Check {
    let threads = 8.min(acknowledged.len().max(1));
    let chunk = acknowledged.len().div_ceil(threads).max(1);
    let parts: Vec<Check> = std::thread::scope(|scope| {
        let handles: Vec<_> = acknowledged
            .chunks(chunk)
            .map(|part| scope.spawn(move || check_part(bases, part)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut all = Check::default();
    for p in parts {
        all.matches += p.matches;
        all.finished += p.finished;
        all.acknowledged += p.acknowledged;
        all.lost += p.lost;
        all.wrong_results += p.wrong_results;
        for q in p.problems {
            all.problem(q);
        }
    }
    all
}

fn check_part(bases: &[String], part: &[Acknowledged]) -> Check {
    let mut c = Check::default();
    for (id, acks) in part {
        c.matches += 1;
        let acked: usize = acks.iter().map(Vec::len).sum();
        c.acknowledged += acked;
        let state = match get(bases, &format!("/api/matches/{id}")) {
            Ok(s) => s,
            Err(e) => {
                c.lost += acked;
                c.problem(format!("match {id}: {e}"));
                continue;
            }
        };
        if state["status"] != "finished" {
            c.lost += acked;
            c.problem(format!("match {id} is {}, not finished", state["status"]));
            continue;
        }
        c.finished += 1;
        let records: Vec<Record> = match get(bases, &format!("/api/matches/{id}/record"))
            .and_then(|r| serde_json::from_value(r["records"].clone()).map_err(|e| e.to_string()))
        {
            Ok(r) => r,
            Err(e) => {
                c.lost += acked;
                c.problem(format!("match {id}: its record: {e}"));
                continue;
            }
        };
        // The match's decisions are its games' steps one after another.
        let steps: Vec<_> = records.iter().flat_map(|r| r.steps.iter()).collect();
        for (seat, seat_acks) in acks.iter().enumerate() {
            for (decision, mv) in seat_acks {
                let stored = steps.get(*decision as usize).and_then(|s| {
                    if seat == 0 {
                        s.p1.as_deref()
                    } else {
                        s.p2.as_deref()
                    }
                });
                if stored != Some(mv.as_str()) {
                    c.lost += 1;
                    c.problem(format!(
                        "match {id}: p{}'s acknowledged {mv} at decision {decision} is stored as {stored:?}",
                        seat + 1
                    ));
                }
            }
        }
        // The result: the last game's outcome (the earlier ones were drawn and replayed).
        let mut outcome = None;
        for r in &records {
            match colosseum_games::replay_record(r) {
                Ok(Ok(replay)) => outcome = replay.game.outcome(),
                Ok(Err(e)) => {
                    outcome = None;
                    c.problem(format!("match {id}: its record does not replay: {e}"));
                }
                Err(e) => {
                    outcome = None;
                    c.problem(format!("match {id}: its record does not load: {e:?}"));
                }
            }
        }
        let given = outcome.map(|o| serde_json::to_value(o.winner).unwrap_or(Value::Null));
        let stored = &state["match"]["result"]["winner"];
        if given.as_ref() != Some(stored) {
            c.wrong_results += 1;
            c.problem(format!(
                "match {id}: the result says {stored}, its moves give {given:?}"
            ));
        }
    }
    c
}
