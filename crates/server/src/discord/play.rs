//! Matches played from Discord: `/colosseum new`, `join`, `move` (an ephemeral select menu,
//! a preview, Confirm), `hand`, `resign`, and the channel posts after each reveal and at the
//! end. Every prompt is built from the acting seat's state (the same state message the web
//! table gets for that seat); the channel posts from the spectator's.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use colosseum_engine::{Seat, Viewer};
use colosseum_host::Player;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{ephemeral, Config, CHANNEL_MESSAGE, EPHEMERAL};
use crate::api::AppState;
use crate::hub::{Action, CreateMatch, Hub};
use crate::store::Store;

/// Response type: edit the message the component is on.
const UPDATE_MESSAGE: u64 = 7;

/// Response type: open a form (a modal).
const MODAL: u64 = 9;

/// The most options one select menu holds (Discord's limit).
const SELECT_MAX: usize = 25;

/// The longest move a menu offers (Discord's custom ids hold 100 characters, `confirm:N:` is
/// in front).
const MOVE_MAX: usize = 80;

/// A match bound to a channel and two members. Kept in memory, and in the state file when
/// there is one (`Bindings::from_file`), so a restart keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Bound {
    /// The match id.
    pub id: String,
    /// The channel it is played in.
    pub channel: String,
    /// Each seat's member id.
    pub members: [String; 2],
    /// Each seat's name.
    pub names: [String; 2],
    /// Each seat's token (a secret: its web table link).
    tokens: [String; 2],
    /// p1's client seed, held until p2 has committed to theirs (then both are revealed).
    p1_seed: Option<String>,
    /// How many steps of the move log have been posted in the channel.
    #[serde(default)]
    pub posted: usize,
}

/// The bindings of one application: channel to match, in memory and, with a state file, on
/// disk (written whole at each change, through a temporary file and a rename).
#[derive(Default)]
pub struct Bindings {
    by_channel: Mutex<HashMap<String, Bound>>,
    file: Option<PathBuf>,
    /// The matches whose channel posts run in this process.
    watched: Mutex<HashSet<String>>,
}

impl Bindings {
    /// The bindings kept in `file` (read now if it exists; created at the first binding).
    pub fn from_file(file: PathBuf) -> Result<Bindings, String> {
        let by_channel = match std::fs::read(&file) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|e| format!("the Discord state file {}: {e}", file.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => HashMap::new(),
            Err(e) => return Err(format!("the Discord state file {}: {e}", file.display())),
        };
        Ok(Bindings {
            by_channel: Mutex::new(by_channel),
            file: Some(file),
            watched: Mutex::default(),
        })
    }

    pub(super) fn get(&self, channel: &str) -> Option<Bound> {
        self.lock().get(channel).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Bound>> {
        self.by_channel
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn insert(&self, bound: Bound) {
        let mut map = self.lock();
        map.insert(bound.channel.clone(), bound);
        self.save(&map);
    }

    /// Changes the binding of `channel` (if it is still match `id`'s).
    pub(super) fn update(&self, channel: &str, id: &str, change: impl FnOnce(&mut Bound)) {
        let mut map = self.lock();
        if let Some(b) = map.get_mut(channel).filter(|b| b.id == id) {
            change(b);
            self.save(&map);
        }
    }

    fn save(&self, map: &HashMap<String, Bound>) {
        let Some(file) = &self.file else { return };
        let tmp = file.with_extension("tmp");
        let written = serde_json::to_vec(map)
            .map_err(std::io::Error::other)
            .and_then(|bytes| std::fs::write(&tmp, bytes))
            .and_then(|()| std::fs::rename(&tmp, file));
        if let Err(e) = written {
            tracing::error!(
                "the Discord state file {} was not written: {e}",
                file.display()
            );
        }
    }

    /// Marks match `id` watched in this process; `false` if it was already.
    pub(super) fn watch(&self, id: &str) -> bool {
        self.watched
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id.to_string())
    }
}

/// Starts the channel posts of the match bound to `channel` if it has started and nothing in
/// this process posts them (after a restart: at the channel's first interaction).
pub async fn resume<S: Store>(hub: &Arc<Hub<S>>, config: &'static Config, channel: &str) {
    let Some(bound) = config.bindings.get(channel) else {
        return;
    };
    if bound.p1_seed.is_some() {
        return;
    }
    if let Ok(table) = hub.table(&bound.id).await {
        super::post::watch(hub.clone(), config, bound, table);
    }
}

/// Who acted: the member's id and the name the channel shows.
fn member(interaction: &Value) -> (String, String) {
    let m = &interaction["member"];
    let user = if m.is_null() {
        &interaction["user"]
    } else {
        &m["user"]
    };
    let name = m["nick"]
        .as_str()
        .or(user["global_name"].as_str())
        .or(user["username"].as_str())
        .unwrap_or("someone");
    (
        user["id"].as_str().unwrap_or_default().to_string(),
        name.to_string(),
    )
}

/// A subcommand's option value as text.
fn option<'a>(sub: &'a Value, name: &str) -> Option<&'a str> {
    sub["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == name))
        .and_then(|o| o["value"].as_str())
}

/// The member's own client seed from the `seed:` option, checked as the web table's are (16 to
/// 64 letters, digits, `_`, `.`, `-`); the server never makes one.
fn your_seed(sub: &Value) -> Result<&str, Value> {
    let seed = option(sub, "seed").map(str::trim).unwrap_or_default();
    colosseum_engine::fair::check_client_seed(seed).map_err(|e| {
        ephemeral(&format!(
            "`seed:` is your share of the match's chance, typed by you: {}",
            e.0
        ))
    })?;
    Ok(seed)
}

/// A message everyone in the channel sees.
fn public(text: &str, components: Value) -> Value {
    json!({"type": CHANNEL_MESSAGE, "data": {"content": text, "components": components,
           "allowed_mentions": {"parse": []}}})
}

/// The "Make your move" button.
pub(super) fn move_button() -> Value {
    json!([{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Make your move", "custom_id": "move"}]}])
}

/// The seat `who` plays in `bound`, if any.
fn seat_of(bound: &Bound, who: &str) -> Option<Seat> {
    Seat::BOTH
        .into_iter()
        .find(|s| bound.members[s.index()] == who)
}

const NOT_A_PLAYER: &str =
    "You are not a player of the match in this channel: only its two players act in it.";
const NO_MATCH: &str =
    "There is no Colosseum match in this channel: start one with `/colosseum new`.";

/// `/colosseum new|join|move|hand|resign`.
pub async fn command<S: Store>(
    state: &Arc<AppState<S>>,
    config: &'static Config,
    interaction: &Value,
    sub: &Value,
) -> Value {
    let channel = interaction["channel_id"].as_str().unwrap_or_default();
    let (who, name) = member(interaction);
    let hub = &state.hub;
    match sub["name"].as_str().unwrap_or_default() {
        "new" => new(hub, config, interaction, sub, channel, &who, &name).await,
        "join" => {
            let Some(bound) = config.bindings.get(channel) else {
                return ephemeral(NO_MATCH);
            };
            join(hub, config, &bound, sub, &who).await
        }
        other => {
            let Some(bound) = config.bindings.get(channel) else {
                return ephemeral(NO_MATCH);
            };
            let Some(seat) = seat_of(&bound, &who) else {
                return ephemeral(NOT_A_PLAYER);
            };
            match other {
                "move" => prompt(hub, &bound, seat, None).await,
                "hand" => hand(hub, config, &bound, seat).await,
                "resign" => {
                    let Ok(table) = hub.table(&bound.id).await else {
                        return ephemeral("The match is gone.");
                    };
                    match hub.act_on(&table, seat, Action::Resign, None).await {
                        Ok(()) => public(
                            &format!("{} resigns.", bound.names[seat.index()]),
                            json!([]),
                        ),
                        Err(e) => ephemeral(&e.message),
                    }
                }
                _ => ephemeral("Unknown /colosseum subcommand."),
            }
        }
    }
}

async fn new<S: Store>(
    hub: &Arc<Hub<S>>,
    config: &'static Config,
    interaction: &Value,
    sub: &Value,
    channel: &str,
    who: &str,
    name: &str,
) -> Value {
    if let Some(b) = config.bindings.get(channel) {
        if let Ok(t) = hub.table(&b.id).await {
            if hub.state(&t, Viewer::Spectator).await["status"] != "finished" {
                return ephemeral("A match is already played in this channel.");
            }
        }
    }
    let Some(game) = option(sub, "game").and_then(|g| colosseum_games::find(g).ok()) else {
        return ephemeral("No such game: choose one from the list.");
    };
    let Some(opponent) = option(sub, "opponent") else {
        return ephemeral("Name your opponent.");
    };
    if opponent == who {
        return ephemeral("Choose another member as your opponent.");
    }
    let seed = match your_seed(sub) {
        Ok(seed) => seed,
        Err(why) => return why,
    };
    let resolved = &interaction["data"]["resolved"];
    let opponent_name = resolved["members"][opponent]["nick"]
        .as_str()
        .or(resolved["users"][opponent]["global_name"].as_str())
        .or(resolved["users"][opponent]["username"].as_str())
        .unwrap_or("opponent")
        .to_string();
    let options = match colosseum_engine::parse_pairs(
        option(sub, "options")
            .unwrap_or_default()
            .split_whitespace(),
    ) {
        Ok(o) => o,
        Err(e) => return ephemeral(&format!("Options: {e}")),
    };
    let mut req: CreateMatch = match serde_json::from_value(json!({"game": game.id})) {
        Ok(r) => r,
        Err(e) => return ephemeral(&e.to_string()),
    };
    req.options = options;
    req.seats = Some([
        Player::Human {
            name: Some(name.to_string()),
        },
        Player::Human {
            name: Some(opponent_name.clone()),
        },
    ]);
    let created = match hub.create(req).await {
        Ok(c) => c,
        Err(e) => return ephemeral(&e.message),
    };
    let (Some(t1), Some(t2)) = (created.tokens[0].clone(), created.tokens[1].clone()) else {
        return ephemeral("The match has no human seats.");
    };
    let Ok(table) = hub.table(&created.id).await else {
        return ephemeral("The match is gone.");
    };
    let joined = hub
        .act(
            &table,
            Seat::P1,
            Action::JoinSeeded {
                name: Some(name.to_string()),
                client_seed: None,
                client_seed_hash: Some(colosseum_engine::fair::client_seed_hash(seed)),
            },
        )
        .await;
    if let Err(e) = joined {
        return ephemeral(&e.message);
    }
    let bound = Bound {
        id: created.id.clone(),
        channel: channel.to_string(),
        members: [who.to_string(), opponent.to_string()],
        names: [name.to_string(), opponent_name.clone()],
        tokens: [t1, t2],
        p1_seed: Some(seed.to_string()),
        posted: 0,
    };
    config.bindings.insert(bound);
    public(
        &format!(
            "{name} challenges {opponent_name} to {} (match `{}`). {opponent_name}: accept with \
             `/colosseum join seed:` and 16 to 64 letters or digits of your own choosing.",
            game.name, created.id
        ),
        json!([]),
    )
}

async fn join<S: Store>(
    hub: &Arc<Hub<S>>,
    config: &'static Config,
    bound: &Bound,
    sub: &Value,
    who: &str,
) -> Value {
    if bound.members[1] != who {
        return ephemeral(NOT_A_PLAYER);
    }
    let seed = match your_seed(sub) {
        Ok(seed) => seed,
        Err(why) => return why,
    };
    let Some(p1_seed) = bound.p1_seed.clone() else {
        return ephemeral("You have joined already.");
    };
    let Ok(table) = hub.table(&bound.id).await else {
        return ephemeral("The match is gone.");
    };
    let steps = [
        (
            Seat::P2,
            Action::JoinSeeded {
                name: Some(bound.names[1].clone()),
                client_seed: None,
                client_seed_hash: Some(colosseum_engine::fair::client_seed_hash(seed)),
            },
        ),
        (Seat::P1, Action::Reveal(p1_seed)),
        (Seat::P2, Action::Reveal(seed.to_string())),
    ];
    for (seat, action) in steps {
        if let Err(e) = hub.act(&table, seat, action).await {
            return ephemeral(&e.message);
        }
    }
    config
        .bindings
        .update(&bound.channel, &bound.id, |b| b.p1_seed = None);
    super::post::watch(hub.clone(), config, bound.clone(), table);
    public(
        &format!(
            "{} v {}: the match begins. Each player makes their move privately.",
            bound.names[0], bound.names[1]
        ),
        move_button(),
    )
}

/// The seat's private prompt: the decision and a select menu of its legal moves; `chosen`
/// previews a choice with a Confirm button. `UPDATE_MESSAGE` when it answers a component.
pub async fn prompt<S: Store>(
    hub: &Arc<Hub<S>>,
    bound: &Bound,
    seat: Seat,
    chosen: Option<(u64, &str)>,
) -> Value {
    let Ok(table) = hub.table(&bound.id).await else {
        return ephemeral("The match is gone.");
    };
    let st = hub.state(&table, Viewer::Seat(seat)).await;
    let decision = st["decision"].as_u64().unwrap_or_default();
    let me = &st["match"]["seats"][seat.to_string()];
    if st["status"] != "live" || me["to_act"] != true {
        return ephemeral("Nothing is yours to decide now.");
    }
    if me["locked"] == true {
        return ephemeral("Your move is in: wait for the reveal.");
    }
    let legal: Vec<String> = st["legal_moves"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    // Four menus of 25 at most (the fifth row is Confirm's), and each move short enough for a
    // menu option and the Confirm button's id (100 characters); otherwise the web table.
    let legal = if legal.len() <= SELECT_MAX * 4 && legal.iter().all(|m| m.len() <= MOVE_MAX) {
        legal
    } else {
        Vec::new()
    };
    let kind = st["match"]["decision"].as_str().unwrap_or("move");
    let mut components = Vec::new();
    for (i, chunk) in legal.chunks(SELECT_MAX).enumerate() {
        let options: Vec<Value> = chunk
            .iter()
            .map(
                |m| json!({"label": m, "value": m, "default": chosen.is_some_and(|(_, c)| c == m)}),
            )
            .collect();
        components.push(json!({"type": 1, "components": [{"type": 3,
            "custom_id": format!("pick:{decision}:{i}"), "placeholder": "Choose your move",
            "options": options}]}));
    }
    // Too many moves for menus: a button opens a form to type the move in notation.
    let typed = legal.is_empty();
    let mut buttons = Vec::new();
    if typed {
        buttons.push(json!({"type": 2, "style": 1, "label": "Type your move",
            "custom_id": format!("type:{decision}")}));
    }
    if let Some((_, m)) = chosen {
        buttons.push(json!({"type": 2, "style": 3, "label": "Confirm",
            "custom_id": format!("confirm:{decision}:{m}")}));
    }
    if !buttons.is_empty() {
        components.push(json!({"type": 1, "components": buttons}));
    }
    let text = match chosen {
        Some((_, m)) => format!("You chose {m}. Confirm, or change it."),
        None if typed => format!(
            "Decision {decision} ({kind}): too many moves to list: type yours in the game's \
             notation, or play it at your web table (`/colosseum hand` gives its link)."
        ),
        None => format!("Decision {decision} ({kind}): choose your move."),
    };
    let kind = if chosen.is_some() {
        UPDATE_MESSAGE
    } else {
        CHANNEL_MESSAGE
    };
    json!({"type": kind, "data": {"content": text, "flags": EPHEMERAL, "components": components}})
}

/// `/colosseum hand`: the seat's view, privately, and its web table link.
async fn hand<S: Store>(hub: &Arc<Hub<S>>, config: &Config, bound: &Bound, seat: Seat) -> Value {
    let Ok(table) = hub.table(&bound.id).await else {
        return ephemeral("The match is gone.");
    };
    let st = hub.state(&table, Viewer::Seat(seat)).await;
    let view = serde_json::to_string(&st["match"]["view"]).unwrap_or_default();
    let view: String = view.chars().take(1500).collect();
    ephemeral(&format!(
        "Your seat's view:\n```json\n{view}\n```\nYour web table: {}/m/{}#seat={}",
        config.public_url.as_deref().unwrap_or_default(),
        bound.id,
        bound.tokens[seat.index()]
    ))
}

/// A button or select menu of a match: `move`, `pick:DECISION:_`, `confirm:DECISION:MOVE`.
pub async fn component<S: Store>(
    state: &Arc<AppState<S>>,
    config: &'static Config,
    interaction: &Value,
) -> Value {
    let channel = interaction["channel_id"].as_str().unwrap_or_default();
    let (who, _) = member(interaction);
    let Some(bound) = config.bindings.get(channel) else {
        return ephemeral(NO_MATCH);
    };
    let Some(seat) = seat_of(&bound, &who) else {
        return ephemeral(NOT_A_PLAYER);
    };
    let hub = &state.hub;
    let id = interaction["data"]["custom_id"]
        .as_str()
        .unwrap_or_default();
    let mut parts = id.splitn(3, ':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("move"), _, _) => prompt(hub, &bound, seat, None).await,
        (Some("type"), Some(d), _) => json!({"type": MODAL, "data": {
            "custom_id": format!("typed:{d}"), "title": "Your move",
            "components": [{"type": 1, "components": [{"type": 4, "custom_id": "move",
                "style": 1, "label": "Your move, in the game's notation", "required": true,
                "min_length": 1, "max_length": MOVE_MAX}]}]}}),
        (Some("typed"), Some(d), _) => {
            let chosen = interaction["data"]["components"][0]["components"][0]["value"]
                .as_str()
                .unwrap_or_default()
                .trim();
            if chosen.is_empty() || chosen.len() > MOVE_MAX {
                return ephemeral("Type a move (at most 80 characters).");
            }
            let decision = d.parse().unwrap_or_default();
            prompt(hub, &bound, seat, Some((decision, chosen))).await
        }
        (Some("pick"), Some(d), _) => {
            let chosen = interaction["data"]["values"][0]
                .as_str()
                .unwrap_or_default();
            let decision = d.parse().unwrap_or_default();
            prompt(hub, &bound, seat, Some((decision, chosen))).await
        }
        (Some("confirm"), Some(d), Some(m)) => {
            let Ok(decision) = d.parse::<u64>() else {
                return ephemeral("Not a decision.");
            };
            let Ok(table) = hub.table(&bound.id).await else {
                return ephemeral("The match is gone.");
            };
            let submitted = hub
                .act_on(&table, seat, Action::Submit(m.to_string()), Some(decision))
                .await;
            // Locked, so a confirmed move stands; when it was the last one missing the
            // decision is over already (the lock is then stale, and not needed).
            let locked = match submitted {
                Ok(()) => match hub.act_on(&table, seat, Action::Lock, Some(decision)).await {
                    Err(e) => {
                        let st = hub.state(&table, Viewer::Seat(seat)).await;
                        if st["status"] == "finished" || st["decision"] != decision {
                            Ok(())
                        } else {
                            Err(e)
                        }
                    }
                    Ok(()) => Ok(()),
                },
                Err(e) => Err(e),
            };
            match locked {
                Ok(()) => json!({"type": UPDATE_MESSAGE, "data": {
                    "content": format!("Your move {m} is in (decision {decision})."),
                    "components": []}}),
                Err(e) => ephemeral(&e.message),
            }
        }
        _ => ephemeral("This button is not Colosseum's."),
    }
}
