//! `colosseum._core`: Colosseum's games for OpenSpiel, one call into Rust per step.
//!
//! Python's `colosseum/__init__.py` registers every game of the registry with OpenSpiel; its
//! states hold a [`State`], which wraps [`colosseum_games::spiel::SpielState`]: integer actions
//! and chance outcomes, returns, and per-seat strings built from the seat's views. No rule is
//! written here or in Python, and no game is named.

use colosseum_games::spiel::{self, SpielState};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{json, Value};

/// Every game of the registry as JSON: id, name, summary and options (name, default, allowed,
/// help), and the OpenSpiel info of its default options.
#[pyfunction]
fn games() -> PyResult<String> {
    let mut out = Vec::new();
    for entry in colosseum_games::registry() {
        let state = spiel::new_state(entry.id, &Default::default())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let options: Vec<Value> = entry
            .options
            .iter()
            .map(|o| json!({"name": o.name, "default": o.default, "allowed": o.allowed, "help": o.help}))
            .collect();
        out.push(json!({
            "id": entry.id,
            "name": entry.name,
            "summary": entry.summary,
            "options": options,
            "info": info_json(state.info()),
        }));
    }
    Ok(Value::Array(out).to_string())
}

fn info_json(info: &spiel::SpielInfo) -> Value {
    json!({
        "num_distinct_actions": info.num_distinct_actions,
        "max_chance_outcomes": info.max_chance_outcomes,
        "min_utility": info.min_utility,
        "max_utility": info.max_utility,
        "utility": info.utility.name(),
        "utility_sum": info.utility_sum,
        "max_game_length": info.max_game_length,
        "max_chance_nodes": info.max_chance_nodes,
        "stochastic": info.stochastic,
        "hidden": info.hidden,
        "encoding": info.encoding,
        "observation_tensor_size": info.tensors.map(|t| t.0),
        "information_state_tensor_size": info.tensors.map(|t| t.1),
    })
}

fn error(e: impl ToString) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// One game in progress, driven by integer actions.
#[pyclass(module = "colosseum._core")]
struct State {
    id: String,
    options: String,
    inner: Box<dyn SpielState>,
}

impl State {
    fn create(id: &str, options: &str) -> PyResult<State> {
        let raw: Value = serde_json::from_str(options)
            .map_err(|e| error(format!("options must be a JSON object: {e}")))?;
        let Value::Object(raw) = raw else {
            return Err(error(
                "options must be a JSON object, such as {\"cards\": 4}",
            ));
        };
        let inner = spiel::new_state(id, &raw).map_err(error)?;
        Ok(State {
            id: id.to_string(),
            options: options.to_string(),
            inner,
        })
    }

    fn seat(player: i64) -> PyResult<usize> {
        match player {
            0 | 1 => Ok(player as usize),
            _ => Err(error(format!(
                "player {player} is not a seat: write 0 or 1"
            ))),
        }
    }
}

#[pymethods]
impl State {
    /// The initial state of game `id` (a registry id) with `options` (a JSON object).
    #[new]
    fn new(id: &str, options: &str) -> PyResult<State> {
        State::create(id, options)
    }

    /// The game's OpenSpiel info for these options, as JSON.
    fn info(&self) -> String {
        info_json(self.inner.info()).to_string()
    }

    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }

    fn legal_actions(&self, player: i64) -> PyResult<Vec<i64>> {
        Ok(self.inner.legal_actions(State::seat(player)?))
    }

    fn chance_outcomes(&self) -> Vec<(i64, f64)> {
        self.inner.chance_outcomes()
    }

    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        self.inner.apply_action(action).map_err(error)
    }

    fn apply_actions(&mut self, p1: i64, p2: i64) -> PyResult<()> {
        self.inner.apply_actions(p1, p2).map_err(error)
    }

    fn action_to_string(&self, player: i32, action: i64) -> String {
        self.inner.action_to_string(player, action)
    }

    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    fn returns(&self) -> Vec<f64> {
        self.inner.returns().to_vec()
    }

    fn observation_string(&self, player: i64) -> PyResult<String> {
        Ok(self.inner.observation_string(State::seat(player)?))
    }

    /// Cached in Rust: the first call replays the history once, then every action extends it.
    fn information_state_string(&mut self, player: i64) -> PyResult<String> {
        Ok(self.inner.information_state_string(State::seat(player)?))
    }

    /// The seat's observation tensor, built from its view (empty for a game without tensors).
    fn observation_tensor(&self, player: i64) -> PyResult<Vec<f32>> {
        Ok(self.inner.observation_tensor(State::seat(player)?))
    }

    /// The seat's information-state tensor (empty for a game without tensors), cached like the
    /// string.
    fn information_state_tensor(&mut self, player: i64) -> PyResult<Vec<f32>> {
        Ok(self.inner.information_state_tensor(State::seat(player)?))
    }

    /// The spectator's view as JSON: what everyone may know.
    fn public_observation_string(&self) -> String {
        self.inner.observation_string(2)
    }

    fn history(&self) -> Vec<(i32, i64)> {
        self.inner.history().to_vec()
    }

    fn __str__(&self) -> String {
        self.inner.render()
    }

    fn clone(&self) -> State {
        State {
            id: self.id.clone(),
            options: self.options.clone(),
            inner: self.inner.boxed_clone(),
        }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// Pickled as the game, its options and the actions applied (OpenSpiel's `serialize`).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, String, Vec<(i32, i64)>))> {
        let restore = py.import("colosseum._core")?.getattr("_restore")?;
        Ok((
            restore,
            (self.id.clone(), self.options.clone(), self.history()),
        ))
    }
}

/// A state rebuilt from its game, options and actions (the inverse of `State.__reduce__`).
#[pyfunction]
fn _restore(id: &str, options: &str, history: Vec<(i32, i64)>) -> PyResult<State> {
    let mut state = State::create(id, options)?;
    spiel::replay(state.inner.as_mut(), &history).map_err(error)?;
    Ok(state)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    m.add_class::<State>()?;
    Ok(())
}
