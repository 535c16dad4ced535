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
/// there is one (`Bindings::from_file`), so a restart keeps it. A channel may hold many (a
/// tournament's boards, two hosted matches): each is keyed by its match id.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Bound {
    /// The match id.
    pub id: String,
    /// The channel it is played in.
    pub channel: String,
    /// Each seat's member id (the member acting for the seat now: a replacement changes it).
    pub members: [String; 2],
    /// Each seat's name (the match's: a replacement keeps it, so the record reads as played).
    pub names: [String; 2],
    /// Each seat's token (a secret: its web table link).
    tokens: [String; 2],
    /// Each seat's client seed, held from its `join` (which commits its hash) until both seats
    /// have committed; then both are revealed.
    #[serde(default)]
    seeds: [Option<String>; 2],
    /// Whether both seats have joined through Discord (or the match was bound started).
    #[serde(default)]
    pub started: bool,
    /// The member who created the match: they may use the host's powers on it.
    #[serde(default)]
    pub host: Option<String>,
    /// Sealed matches: the move and nonce each seat committed to at Confirm, kept until both
    /// seats have committed and it is opened.
    #[serde(default)]
    sealed: [Option<Kept>; 2],
    /// The order the channel's matches were bound in (the most recent is the highest).
    #[serde(default)]
    seq: u64,
    /// How many steps of the move log have been posted in the channel.
    #[serde(default)]
    pub posted: usize,
}

/// A sealed move kept by the server between its commitment and its opening.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Kept {
    decision: u64,
    text: String,
    nonce: String,
}

impl Bound {
    /// A binding of match `id`, which the hub created, to `channel`: `members[i]` plays seat
    /// `i` under `names[i]` with its token `tokens[i]`. Nobody has joined yet (each member
    /// joins with `/colosseum join seed:`); [`Bound::started`] says otherwise.
    #[must_use]
    pub fn new(
        id: &str,
        channel: &str,
        members: [String; 2],
        names: [String; 2],
        tokens: [String; 2],
    ) -> Bound {
        Bound {
            id: id.to_string(),
            channel: channel.to_string(),
            members,
            names,
            tokens,
            seeds: [None, None],
            started: false,
            host: None,
            sealed: [None, None],
            seq: 0,
            posted: 0,
        }
    }

    /// The same binding with `member` as its host (who may pause, resume, give time,
    /// adjudicate and replace).
    #[must_use]
    pub fn hosted_by(mut self, member: &str) -> Bound {
        self.host = Some(member.to_string());
        self
    }

    /// The same binding of a match whose seats have joined already (the hub started it):
    /// `join` is not needed and its channel posts may start (`post::watch`).
    #[must_use]
    pub fn joined(mut self) -> Bound {
        self.started = true;
        self
    }
}

/// Binds a match the hub created to its channel and members (`Bound::new`), keeping it in the
/// state file when there is one; a binding of the same match id is replaced.
pub(super) fn bind(config: &Config, bound: Bound) {
    config.bindings.insert(bound);
}

/// The bindings of one application: match id to its binding, in memory and, with a state
/// file, on disk (written whole at each change, through a temporary file and a rename).
#[derive(Default)]
pub struct Bindings {
    by_id: Mutex<HashMap<String, Bound>>,
    file: Option<PathBuf>,
    /// The matches whose channel posts run in this process.
    watched: Mutex<HashSet<String>>,
}

impl Bindings {
    /// The bindings kept in `file` (read now if it exists; created at the first binding).
    pub fn from_file(file: PathBuf) -> Result<Bindings, String> {
        let by_id: HashMap<String, Bound> = match std::fs::read(&file) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|e| format!("the Discord state file {}: {e}", file.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => HashMap::new(),
            Err(e) => return Err(format!("the Discord state file {}: {e}", file.display())),
        };
        // Keyed by match id whatever the file's keys were.
        let by_id = by_id.into_values().map(|b| (b.id.clone(), b)).collect();
        Ok(Bindings {
            by_id: Mutex::new(by_id),
            file: Some(file),
            watched: Mutex::default(),
        })
    }

    /// Match `id`'s binding.
    pub(super) fn get(&self, id: &str) -> Option<Bound> {
        self.lock().get(id).cloned()
    }

    /// The matches bound to `channel`, the most recent first.
    pub(super) fn in_channel(&self, channel: &str) -> Vec<Bound> {
        let mut found: Vec<Bound> = self
            .lock()
            .values()
            .filter(|b| b.channel == channel)
            .cloned()
            .collect();
        found.sort_by_key(|b| std::cmp::Reverse(b.seq));
        found
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Bound>> {
        self.by_id
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn insert(&self, mut bound: Bound) {
        let mut map = self.lock();
        bound.seq = map.values().map(|b| b.seq).max().unwrap_or(0) + 1;
        map.insert(bound.id.clone(), bound);
        self.save(&map);
    }

    /// Changes match `id`'s binding (if it is still bound to `channel`).
    pub(super) fn update(&self, channel: &str, id: &str, change: impl FnOnce(&mut Bound)) {
        let mut map = self.lock();
        if let Some(b) = map.get_mut(id).filter(|b| b.channel == channel) {
            change(b);
            self.save(&map);
        }
    }

    fn save(&self, map: &HashMap<String, Bound>) {
        let Some(file) = &self.file else { return };
        let mut tmp = file.clone().into_os_string();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        // It holds the seats' tokens: readable by the server's user only.
        let write = |bytes: Vec<u8>| {
            use std::io::Write;
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create(true).truncate(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut f = options.open(&tmp)?;
            f.write_all(&bytes)?;
            f.sync_all()
        };
        let written = serde_json::to_vec(map)
            .map_err(std::io::Error::other)
            .and_then(write)
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

    fn watched(&self, id: &str) -> bool {
        self.watched
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(id)
    }
}

/// Starts the channel posts of the matches bound to `channel` that have started and that
/// nothing in this process posts (after a restart: at the channel's first interaction).
pub async fn resume<S: Store>(hub: &Arc<Hub<S>>, config: &'static Config, channel: &str) {
    for bound in config.bindings.in_channel(channel) {
        let sealed = bound.sealed.iter().any(Option::is_some);
        if !sealed
            && (!bound.started || bound.posted == usize::MAX || config.bindings.watched(&bound.id))
        {
            continue;
        }
        if let Ok(table) = hub.table(&bound.id).await {
            reopen(hub, config, &bound, &table);
            if bound.started && bound.posted != usize::MAX {
                super::post::watch(hub.clone(), config, bound, table);
            }
        }
    }
}

/// Who acted: the member's id and the name the channel shows.
pub(super) fn member(interaction: &Value) -> (String, String) {
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
pub(super) fn public(text: &str, components: Value) -> Value {
    json!({"type": CHANNEL_MESSAGE, "data": {"content": text, "components": components,
           "allowed_mentions": {"parse": []}}})
}

/// The "Make your move" button.
pub(super) fn move_button() -> Value {
    move_button_for("")
}

/// The "Make your move" button; `tag` is `@ID` when it must name its match (the member plays
/// several live matches in the channel), else empty.
fn move_button_for(tag: &str) -> Value {
    json!([{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Make your move", "custom_id": format!("move{tag}")}]}])
}

/// The seat `who` plays in `bound`, if any (a seat without a member, a bot's, is nobody's).
fn seat_of(bound: &Bound, who: &str) -> Option<Seat> {
    Seat::BOTH
        .into_iter()
        .find(|s| !who.is_empty() && bound.members[s.index()] == who)
}

const NOT_A_PLAYER: &str =
    "You are not a player of a match in this channel: only its players act in it.";
const NO_MATCH: &str = "There is no Colosseum match in this channel: start one with \
                        `/colosseum new` (or a host with `/colosseum host`).";

/// A member's match in a channel and their seat in it.
pub(super) struct Target {
    /// The match's binding.
    pub bound: Bound,
    /// The member's seat.
    pub seat: Seat,
    /// `@ID` when the member plays several live matches here (its buttons name it), else empty.
    pub tag: String,
}

/// The match in `channel` where `who` holds a seat: match `id` when a button names it; else
/// the live one whose decision waits for them (with `waiting`), else the most recent live
/// one, else the most recent one.
pub(super) async fn target<S: Store>(
    hub: &Arc<Hub<S>>,
    config: &Config,
    channel: &str,
    who: &str,
    id: Option<&str>,
    waiting: bool,
) -> Result<Target, Value> {
    let all = config.bindings.in_channel(channel);
    if all.is_empty() {
        return Err(ephemeral(NO_MATCH));
    }
    let mine: Vec<(Bound, Seat)> = all
        .into_iter()
        .filter_map(|b| seat_of(&b, who).map(|s| (b, s)))
        .take(SCAN)
        .collect();
    let mut live = Vec::new();
    for (b, seat) in &mine {
        let Ok(table) = hub.table(&b.id).await else {
            continue;
        };
        let st = hub.state(&table, Viewer::Seat(*seat)).await;
        if st["status"] == "live" {
            let me = &st["match"]["seats"][seat.to_string()];
            let race = &st["match"]["race"];
            let waits = (me["to_act"] == true && me["locked"] != true && me["committed"] != true)
                || (race.is_object() && race["over"] == false);
            live.push((b.clone(), *seat, waits));
        }
    }
    let tag = |b: &Bound| {
        if live.len() > 1 {
            format!("@{}", b.id)
        } else {
            String::new()
        }
    };
    if let Some(id) = id {
        return mine
            .iter()
            .find(|(b, _)| b.id == id)
            .map(|(b, seat)| Target {
                tag: tag(b),
                bound: b.clone(),
                seat: *seat,
            })
            .ok_or_else(|| ephemeral(NOT_A_PLAYER));
    }
    let picked = live
        .iter()
        .find(|l| waiting && l.2)
        .or(live.first())
        .map(|(b, s, _)| (b, *s))
        .or(mine.first().map(|(b, s)| (b, *s)));
    match picked {
        Some((b, seat)) => Ok(Target {
            tag: tag(b),
            bound: b.clone(),
            seat,
        }),
        None => Err(ephemeral(NOT_A_PLAYER)),
    }
}

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
        "new" => new(state, config, interaction, sub, channel, &who, &name).await,
        "join" => join(hub, config, channel, sub, &who).await,
        other => {
            let named = option(sub, "match").map(str::trim);
            let t = match target(hub, config, channel, &who, named, other == "move").await {
                Ok(t) => t,
                Err(why) => return why,
            };
            let (bound, seat) = (&t.bound, t.seat);
            if other == "resign" && named.is_none() && !t.tag.is_empty() {
                // A resignation is not undone: with several live matches here, it names one.
                return ephemeral(&format!(
                    "You play several matches in this channel: name the one you resign with \
                     `match:` (the most recent is `{}`, {} v {}).",
                    bound.id, bound.names[0], bound.names[1]
                ));
            }
            match other {
                "move" => prompt(hub, bound, seat, &t.tag, None).await,
                "hand" => hand(hub, config, bound, seat).await,
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

/// A member's name as the interaction's resolved data shows it.
pub(super) fn resolved_name(interaction: &Value, id: &str) -> Option<String> {
    let resolved = &interaction["data"]["resolved"];
    resolved["members"][id]["nick"]
        .as_str()
        .or(resolved["users"][id]["global_name"].as_str())
        .or(resolved["users"][id]["username"].as_str())
        .map(str::to_string)
}

/// The most unfinished matches one channel holds at once.
pub const MAX_OPEN_PER_CHANNEL: usize = 20;

/// How many of a channel's most recent matches a lookup reads (a channel's older, finished
/// matches cost nothing at each interaction).
const SCAN: usize = 64;

/// What a new match in a channel is: the game, its options, its clock and its seats.
pub(super) struct Setup<'a> {
    pub game: &'static colosseum_games::GameEntry,
    pub options: Option<&'a str>,
    pub time: Option<colosseum_host::TimeControl>,
    pub sealed: bool,
    pub members: [String; 2],
    pub names: [String; 2],
    pub host: Option<String>,
}

/// Creates the match `setup` describes in `channel` and binds it (nobody joined yet).
pub(super) async fn open_match<S: Store>(
    hub: &Arc<Hub<S>>,
    config: &Config,
    channel: &str,
    setup: Setup<'_>,
) -> Result<Bound, Value> {
    let mut open = 0;
    for b in config.bindings.in_channel(channel).into_iter().take(SCAN) {
        if let Ok(t) = hub.table(&b.id).await {
            if hub.state(&t, Viewer::Spectator).await["status"] != "finished" {
                open += 1;
            }
        }
    }
    if open >= MAX_OPEN_PER_CHANNEL {
        return Err(ephemeral(&format!(
            "This channel holds {open} matches not finished, the most it may: finish one (or \
             use another channel) first."
        )));
    }
    let options =
        colosseum_engine::parse_pairs(setup.options.unwrap_or_default().split_whitespace())
            .map_err(|e| ephemeral(&format!("Options: {e}")))?;
    let mut req: CreateMatch = serde_json::from_value(json!({"game": setup.game.id}))
        .map_err(|e| ephemeral(&e.to_string()))?;
    req.options = options;
    req.time = setup.time;
    req.sealed = setup.sealed;
    req.seats = Some([
        Player::Human {
            name: Some(setup.names[0].clone()),
        },
        Player::Human {
            name: Some(setup.names[1].clone()),
        },
    ]);
    let created = hub.create(req).await.map_err(|e| ephemeral(&e.message))?;
    let (Some(t1), Some(t2)) = (created.tokens[0].clone(), created.tokens[1].clone()) else {
        return Err(ephemeral("The match has no human seats."));
    };
    let mut bound = Bound::new(&created.id, channel, setup.members, setup.names, [t1, t2]);
    bound.host = setup.host;
    bind(config, bound.clone());
    Ok(bound)
}

async fn new<S: Store>(
    state: &Arc<AppState<S>>,
    config: &'static Config,
    interaction: &Value,
    sub: &Value,
    channel: &str,
    who: &str,
    name: &str,
) -> Value {
    let hub = &state.hub;
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
    let time = match super::host::clock(option(sub, "clock"), game.id, &state.limits) {
        Ok(t) => t,
        Err(why) => return why,
    };
    let opponent_name = resolved_name(interaction, opponent).unwrap_or_else(|| "opponent".into());
    let setup = Setup {
        game,
        options: option(sub, "options"),
        time,
        sealed: flag(sub, "sealed"),
        members: [who.to_string(), opponent.to_string()],
        names: [name.to_string(), opponent_name.clone()],
        host: Some(who.to_string()),
    };
    let bound = match open_match(hub, config, channel, setup).await {
        Ok(b) => b,
        Err(why) => return why,
    };
    if let Err(why) = commit_seed(hub, config, &bound, Seat::P1, seed).await {
        return why;
    }
    public(
        &format!(
            "{name} challenges {opponent_name} to {} (match `{}`). {opponent_name}: accept with \
             `/colosseum join seed:` and 16 to 64 letters or digits of your own choosing.",
            game.name, bound.id
        ),
        json!([]),
    )
}

/// A subcommand's boolean option (absent: false).
pub(super) fn flag(sub: &Value, name: &str) -> bool {
    sub["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == name))
        .and_then(|o| o["value"].as_bool())
        .unwrap_or(false)
}

/// `seat` of `bound` joins with the commitment to `seed` (its SHA-256); the server holds the
/// seed until both seats have committed. Returns the binding as it is now.
async fn commit_seed<S: Store>(
    hub: &Arc<Hub<S>>,
    config: &Config,
    bound: &Bound,
    seat: Seat,
    seed: &str,
) -> Result<Bound, Value> {
    let table = hub
        .table(&bound.id)
        .await
        .map_err(|_| ephemeral("The match is gone."))?;
    hub.act(
        &table,
        seat,
        Action::JoinSeeded {
            name: Some(bound.names[seat.index()].clone()),
            client_seed: None,
            client_seed_hash: Some(colosseum_engine::fair::client_seed_hash(seed)),
        },
    )
    .await
    .map_err(|e| ephemeral(&e.message))?;
    let mut now = None;
    config.bindings.update(&bound.channel, &bound.id, |b| {
        b.seeds[seat.index()] = Some(seed.to_string());
        now = Some(b.clone());
    });
    now.ok_or_else(|| ephemeral("The match is gone."))
}

/// `/colosseum join seed:`: the member's seat in the most recent match of this channel that
/// waits for them commits to their seed; once both seats have, both seeds are revealed and the
/// match starts.
async fn join<S: Store>(
    hub: &Arc<Hub<S>>,
    config: &'static Config,
    channel: &str,
    sub: &Value,
    who: &str,
) -> Value {
    let all = config.bindings.in_channel(channel);
    if all.is_empty() {
        return ephemeral(NO_MATCH);
    }
    let mine: Vec<(Bound, Seat)> = all
        .into_iter()
        .filter_map(|b| seat_of(&b, who).map(|s| (b, s)))
        .collect();
    if mine.is_empty() {
        return ephemeral(NOT_A_PLAYER);
    }
    let waiting: Vec<&(Bound, Seat)> = mine.iter().filter(|(b, _)| !b.started).collect();
    let Some((bound, seat)) = waiting
        .iter()
        .find(|(b, s)| b.seeds[s.index()].is_none())
        .map(|&(b, s)| (b.clone(), *s))
    else {
        return ephemeral(if waiting.is_empty() {
            "Your match in this channel has begun already: `/colosseum move` to play."
        } else {
            "You have joined already: the match begins when the other player joins."
        });
    };
    let seed = match your_seed(sub) {
        Ok(seed) => seed,
        Err(why) => return why,
    };
    let bound = match commit_seed(hub, config, &bound, seat, seed).await {
        Ok(b) => b,
        Err(why) => return why,
    };
    let [Some(s1), Some(s2)] = bound.seeds.clone() else {
        let other = seat.other().index();
        return public(
            &format!(
                "{} joins match `{}`. {}: join with `/colosseum join seed:` and 16 to 64 letters \
                 or digits of your own choosing.",
                bound.names[seat.index()],
                bound.id,
                bound.names[other]
            ),
            json!([]),
        );
    };
    let Ok(table) = hub.table(&bound.id).await else {
        return ephemeral("The match is gone.");
    };
    for (seat, seed) in [(Seat::P1, s1), (Seat::P2, s2)] {
        if let Err(e) = hub.act(&table, seat, Action::Reveal(seed)).await {
            return ephemeral(&e.message);
        }
    }
    let mut now = bound.clone();
    config.bindings.update(&bound.channel, &bound.id, |b| {
        b.seeds = [None, None];
        b.started = true;
        now = b.clone();
    });
    let bound = now;
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
    tag: &str,
    chosen: Option<(u64, &str)>,
) -> Value {
    let Ok(table) = hub.table(&bound.id).await else {
        return ephemeral("The match is gone.");
    };
    let st = hub.state(&table, Viewer::Seat(seat)).await;
    let decision = st["decision"].as_u64().unwrap_or_default();
    let me = &st["match"]["seats"][seat.to_string()];
    let race = &st["match"]["race"];
    if st["status"] == "live" && race.is_object() && race["over"] == false {
        return race_prompt(race, seat, tag);
    }
    if st["status"] != "live" || me["to_act"] != true {
        return ephemeral("Nothing is yours to decide now.");
    }
    if me["locked"] == true || me["committed"] == true {
        return ephemeral("Your move is in: wait for the reveal.");
    }
    // Buttons name their match (`@ID`) when the member plays several here; the decision and
    // the match travel together in the custom ids.
    let d = format!("{decision}{tag}");
    let move_max = (100 - format!("confirm:{d}:").len()).min(MOVE_MAX);
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
    let legal = if legal.len() <= SELECT_MAX * 4 && legal.iter().all(|m| m.len() <= move_max) {
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
            "custom_id": format!("pick:{d}:{i}"), "placeholder": "Choose your move",
            "options": options}]}));
    }
    // Too many moves for menus: a button opens a form to type the move in notation.
    let typed = legal.is_empty();
    let mut buttons = Vec::new();
    if typed {
        buttons.push(json!({"type": 2, "style": 1, "label": "Type your move",
            "custom_id": format!("type:{d}")}));
    }
    if let Some((_, m)) = chosen {
        buttons.push(json!({"type": 2, "style": 3, "label": "Confirm",
            "custom_id": format!("confirm:{d}:{m}")}));
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
        None => {
            // The decision in the game's words ("Bid for the 8 M prize: ..."), from the seat's view.
            let names = colosseum_games::svg::Names::new(&bound.names[0], &bound.names[1]);
            let words = colosseum_games::find(st["match"]["game"].as_str().unwrap_or_default())
                .ok()
                .and_then(|g| (g.prompt)(&st["match"]["view"], &names));
            match words {
                Some(words) => format!("Decision {decision}: {words}"),
                None => format!("Decision {decision} ({kind}): choose your move."),
            }
        }
    };
    let kind = if chosen.is_some() {
        UPDATE_MESSAGE
    } else {
        CHANNEL_MESSAGE
    };
    json!({"type": kind, "data": {"content": text, "flags": EPHEMERAL, "components": components}})
}

/// `/colosseum hand`: the seat's view in the game's words (`GameEntry::describe`: scores, the
/// board, the hand, the decision now), privately, and its web table link.
async fn hand<S: Store>(hub: &Arc<Hub<S>>, config: &Config, bound: &Bound, seat: Seat) -> Value {
    let Ok(table) = hub.table(&bound.id).await else {
        return ephemeral("The match is gone.");
    };
    let st = hub.state(&table, Viewer::Seat(seat)).await;
    let names = colosseum_games::svg::Names::new(&bound.names[0], &bound.names[1]);
    let words = match colosseum_games::find(st["match"]["game"].as_str().unwrap_or_default()) {
        Ok(game) => (game.describe)(&st["match"]["view"], &names),
        Err(_) => colosseum_games::words::plain(&st["match"]["view"], &names),
    };
    ephemeral(&format!(
        "{words}\nYour web table: {}/m/{}#seat={}",
        config.public_url.as_deref().unwrap_or_default(),
        bound.id,
        bound.tokens[seat.index()]
    ))
}

/// A live race's private prompt: the question and an Answer button opening a form.
fn race_prompt(race: &Value, seat: Seat, tag: &str) -> Value {
    let opened = race["opened_at"].as_u64().unwrap_or_default();
    let prizes: Vec<&str> = race["prizes"]
        .as_array()
        .map(|p| p.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let locked = race["seats"][seat.to_string()]["locked_out"] == true;
    let text = format!(
        "A race is open{}: {}{}",
        if prizes.is_empty() {
            String::new()
        } else {
            format!(" for {}", prizes.join(" or "))
        },
        race["question"].as_str().unwrap_or_default(),
        if locked {
            "\nYou are locked out for a moment after a wrong answer."
        } else {
            ""
        }
    );
    json!({"type": CHANNEL_MESSAGE, "data": {"content": text, "flags": EPHEMERAL,
        "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Answer",
            "custom_id": format!("race:{opened}{tag}")}]}]}})
}

/// A fresh nonce for a sealed commitment: 32 random hex digits.
fn nonce() -> Option<String> {
    use ring::rand::SecureRandom;
    let mut bytes = [0u8; 16];
    ring::rand::SystemRandom::new().fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Opens `seat`'s kept sealed move in match `id` once both seats have committed (at once if
/// they have): a task that follows the match until then, or until the decision is over.
fn open_when_due<S: Store>(
    hub: Arc<Hub<S>>,
    config: &'static Config,
    bound: &Bound,
    seat: Seat,
    decision: u64,
    table: Arc<crate::hub::Table>,
) {
    // One opener a seat and decision in this process.
    if !config
        .bindings
        .watch(&format!("{}/open/{seat}/{decision}", bound.id))
    {
        return;
    }
    let id = bound.id.clone();
    tokio::spawn(async move {
        let mut version = Hub::<S>::subscribe(&table);
        loop {
            let Some(bound) = config.bindings.get(&id) else {
                return;
            };
            let Some(kept) = bound.sealed[seat.index()].clone() else {
                return;
            };
            let forget = || {
                config
                    .bindings
                    .update(&bound.channel, &bound.id, |b| b.sealed[seat.index()] = None);
            };
            let st = hub.state(&table, Viewer::Seat(seat)).await;
            if st["status"] != "live" || st["decision"] != kept.decision {
                forget();
                return;
            }
            let me = &st["match"]["seats"][seat.to_string()];
            if st["match"]["sealed"]["phase"] == "open" && me["opened"] != true {
                let open = Action::Open {
                    text: kept.text,
                    nonce: kept.nonce,
                };
                if let Err(e) = hub.act_on(&table, seat, open, Some(kept.decision)).await {
                    tracing::warn!("a Discord seat's opening in match {id}: {}", e.message);
                }
                forget();
                return;
            }
            if version.changed().await.is_err() {
                return;
            }
        }
    });
}

/// Starts the openers of the sealed moves kept for `bound` (after a restart).
fn reopen<S: Store>(
    hub: &Arc<Hub<S>>,
    config: &'static Config,
    bound: &Bound,
    table: &Arc<crate::hub::Table>,
) {
    for seat in Seat::BOTH {
        if let Some(kept) = &bound.sealed[seat.index()] {
            open_when_due(
                hub.clone(),
                config,
                bound,
                seat,
                kept.decision,
                table.clone(),
            );
        }
    }
}

/// Confirm: submits and locks `m` for `seat` and `decision`; in a sealed decision commits to
/// it with a nonce the server makes and keeps, and opens it once both seats have committed.
async fn confirm<S: Store>(
    hub: &Arc<Hub<S>>,
    config: &'static Config,
    bound: &Bound,
    seat: Seat,
    decision: u64,
    m: &str,
) -> Value {
    let Ok(table) = hub.table(&bound.id).await else {
        return ephemeral("The match is gone.");
    };
    let st = hub.state(&table, Viewer::Seat(seat)).await;
    if st["match"]["sealed"]["phase"] == "commit" && st["decision"] == decision {
        // The move is checked against the seat's legal moves when the state lists them: an
        // illegal one would only be found at its opening.
        if let Some(legal) = st["legal_moves"].as_array() {
            if !legal.iter().any(|l| l == m) {
                return ephemeral(&format!(
                    "{m} is not one of your legal moves now: choose one from the menu."
                ));
            }
        }
        let already = ephemeral(
            "Your move is in, sealed: it is opened once both have committed (a commitment \
             is not changed).",
        );
        if st["match"]["seats"][seat.to_string()]["committed"] == true {
            return already;
        }
        let Some(nonce) = nonce() else {
            return ephemeral("The server could not make a nonce: try again.");
        };
        let hash = colosseum_host::commitment(&bound.id, decision, seat, m, &nonce);
        // Kept before the commitment is sent, so a restart between the two can still open it;
        // a second Confirm for the same decision (a double press) never replaces the move kept.
        let mut ours = false;
        config.bindings.update(&bound.channel, &bound.id, |b| {
            let slot = &mut b.sealed[seat.index()];
            if slot.as_ref().is_some_and(|k| k.decision == decision) {
                return;
            }
            *slot = Some(Kept {
                decision,
                text: m.to_string(),
                nonce: nonce.clone(),
            });
            ours = true;
        });
        if !ours {
            return already;
        }
        if let Err(e) = hub
            .act_on(&table, seat, Action::Commit(hash), Some(decision))
            .await
        {
            config.bindings.update(&bound.channel, &bound.id, |b| {
                let slot = &mut b.sealed[seat.index()];
                if slot.as_ref().is_some_and(|k| k.nonce == nonce) {
                    *slot = None;
                }
            });
            return ephemeral(&e.message);
        }
        open_when_due(hub.clone(), config, bound, seat, decision, table);
        return json!({"type": UPDATE_MESSAGE, "data": {
            "content": format!(
                "Your move {m} is in, sealed (decision {decision}): the server keeps it and \
                 opens it once both have committed."
            ),
            "components": []}});
    }
    let submitted = hub
        .act_on(&table, seat, Action::Submit(m.to_string()), Some(decision))
        .await;
    // Locked, so a confirmed move stands; when it was the last one missing the decision is
    // over already (the lock is then stale, and not needed).
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

/// An answer to a live race from its form.
async fn answer<S: Store>(
    hub: &Arc<Hub<S>>,
    bound: &Bound,
    seat: Seat,
    race: u64,
    text: &str,
) -> Value {
    let Ok(table) = hub.table(&bound.id).await else {
        return ephemeral("The match is gone.");
    };
    let answered = Action::Answer {
        text: text.to_string(),
        race: Some(race),
    };
    if let Err(e) = hub.act_on(&table, seat, answered, None).await {
        return ephemeral(&e.message);
    }
    let st = hub.state(&table, Viewer::Seat(seat)).await;
    let r = &st["match"]["race"];
    let finished = st["match"]["races"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["opened_at"] == race));
    let won = |f: &Value| f["winner"] == seat.to_string();
    let words =
        if r["opened_at"] == race && r["over"] == true && won(r) || finished.is_some_and(won) {
            format!("{text}: right, you win the race.")
        } else if r["opened_at"] == race && r["seats"][seat.to_string()]["locked_out"] == true {
            format!("{text}: not accepted; you are locked out for a moment, then may answer again.")
        } else {
            format!("{text}: your answer is in.")
        };
    ephemeral(&words)
}

/// A button, select menu or form of a match: `move`, `pick:DECISION:_`,
/// `confirm:DECISION:MOVE`, `type:DECISION`, `typed:DECISION`, `race:OPENED`,
/// `answer:OPENED`; `move` and the `DECISION`/`OPENED` part carry `@ID` when they name their
/// match.
pub async fn component<S: Store>(
    state: &Arc<AppState<S>>,
    config: &'static Config,
    interaction: &Value,
) -> Value {
    let channel = interaction["channel_id"].as_str().unwrap_or_default();
    let (who, _) = member(interaction);
    let hub = &state.hub;
    let custom = interaction["data"]["custom_id"]
        .as_str()
        .unwrap_or_default();
    let mut parts = custom.splitn(3, ':');
    let (kind, d, m) = (parts.next(), parts.next(), parts.next());
    // The match the component names, if it does.
    let (kind, d, id) = match (kind, d) {
        (Some(k), _) if k.contains('@') => {
            let (k, id) = k.split_once('@').unwrap_or((k, ""));
            (Some(k), d, Some(id))
        }
        (k, Some(d)) if d.contains('@') => {
            let (d, id) = d.split_once('@').unwrap_or((d, ""));
            (k, Some(d), Some(id))
        }
        (k, d) => (k, d, None),
    };
    let t = match target(hub, config, channel, &who, id, kind == Some("move")).await {
        Ok(t) => t,
        Err(why) => return why,
    };
    let (bound, seat, tag) = (&t.bound, t.seat, t.tag.as_str());
    let typed_value = || {
        interaction["data"]["components"][0]["components"][0]["value"]
            .as_str()
            .unwrap_or_default()
            .trim()
    };
    match (kind, d, m) {
        (Some("move"), _, _) => prompt(hub, bound, seat, tag, None).await,
        (Some("type"), Some(d), _) => json!({"type": MODAL, "data": {
            "custom_id": format!("typed:{d}{tag}"), "title": "Your move",
            "components": [{"type": 1, "components": [{"type": 4, "custom_id": "move",
                "style": 1, "label": "Your move, in the game's notation", "required": true,
                "min_length": 1, "max_length": MOVE_MAX}]}]}}),
        (Some("typed"), Some(d), _) => {
            let chosen = typed_value();
            if chosen.is_empty() || chosen.len() > MOVE_MAX {
                return ephemeral("Type a move (at most 80 characters).");
            }
            let decision = d.parse().unwrap_or_default();
            prompt(hub, bound, seat, tag, Some((decision, chosen))).await
        }
        (Some("pick"), Some(d), _) => {
            let chosen = interaction["data"]["values"][0]
                .as_str()
                .unwrap_or_default();
            let decision = d.parse().unwrap_or_default();
            prompt(hub, bound, seat, tag, Some((decision, chosen))).await
        }
        (Some("confirm"), Some(d), Some(m)) => {
            let Ok(decision) = d.parse::<u64>() else {
                return ephemeral("Not a decision.");
            };
            confirm(hub, config, bound, seat, decision, m).await
        }
        (Some("race"), Some(d), _) => json!({"type": MODAL, "data": {
            "custom_id": format!("answer:{d}{tag}"), "title": "Your answer",
            "components": [{"type": 1, "components": [{"type": 4, "custom_id": "answer",
                "style": 1, "label": "Your answer", "required": true,
                "min_length": 1, "max_length": 200}]}]}}),
        (Some("answer"), Some(d), _) => {
            let Ok(race) = d.parse::<u64>() else {
                return ephemeral("Not a race.");
            };
            let text = typed_value();
            if text.is_empty() || text.len() > 200 {
                return ephemeral("Type an answer (at most 200 characters).");
            }
            answer(hub, bound, seat, race, text).await
        }
        _ => ephemeral("This button is not Colosseum's."),
    }
}
