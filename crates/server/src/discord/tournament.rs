//! A tournament run in a Discord channel (issue 38): `/colosseum tournament game: format:
//! players: [rounds:] [options:] [clock:] [verbosity:] [manual:] [name:] [no-show:]` creates it (the
//! players are members' mentions and `bot:LEVEL` entries); its pairings, results and standings
//! are posted in the channel (its webhook is the channel, [`super::post::channel_hook`], each
//! board's posts labelled with the tournament, round and board); each board's match is bound
//! to its two members ([`super::play::bind`]) as soon as the tournament makes it, so they join
//! with `/colosseum join seed:` and play with `/colosseum move` and the buttons. The host
//! (the member who created it, or a member with ADMINISTRATOR or MANAGE_GUILD) starts the next
//! round (`next-round`, with `manual:true`), replaces a player from the next game (`replace
//! member: with:`, the tournament's own rule: `crate::tournaments`), forfeits a player's game
//! (`forfeit member:`) and takes a no-show forfeit back (`undo-forfeit member:`); anyone may
//! ask for the standings (`standings`, posted publicly).
//!
//! The tournament itself is `crate::tournaments`' (stored, driven, rebuilt at a restart), and
//! so are its channel and host (`TournamentConfig::discord`) and each place's member
//! (`Entrant::discord`, a replacement's too): after a restart the channel's first command finds
//! it again and its new boards are bound from then on.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use colosseum_engine::Seat;
use serde_json::{json, Value};

use super::play::{bind, resolved_name, Bound};
use super::{ephemeral, Config, CHANNEL_MESSAGE};
use crate::api::AppState;
use crate::store::Store;
use crate::tournaments::{CreateTournament, DiscordRoom, DiscordRun, Tournaments};
use crate::webhooks::{Post, Verbosity};

/// ADMINISTRATOR and MANAGE_GUILD in a member's `permissions`: such members may host any
/// tournament of the guild.
const HOST_PERMISSIONS: u64 = 0x8 | 0x20;

/// How often a tournament's new boards are looked for (to bind them to their members).
const BIND_EVERY: Duration = Duration::from_millis(200);

/// A tournament followed in this process: the boards bound so far, (round, board) to match id.
#[derive(Debug)]
struct Followed {
    /// The application (several servers in one process, in tests, each have theirs).
    app: usize,
    /// The tournament id.
    id: String,
    bound: HashMap<(usize, usize), String>,
}

/// The tournaments whose boards this process binds.
static FOLLOWED: Mutex<Vec<Followed>> = Mutex::new(Vec::new());

fn followed() -> std::sync::MutexGuard<'static, Vec<Followed>> {
    FOLLOWED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn app_of(config: &Config) -> usize {
    std::ptr::from_ref(config) as usize
}

/// The most recent tournament of `channel`; each unfinished one of the channel gets its boards
/// bound from now on (after a restart, from the channel's first command).
async fn run_in<S: Store>(
    state: &Arc<AppState<S>>,
    config: &'static Config,
    channel: &str,
) -> Option<DiscordRun> {
    let runs = state.tournaments.in_discord_channel(channel).await;
    for run in runs.iter().filter(|r| !r.finished) {
        follow(state, config, &run.id);
    }
    runs.into_iter().last()
}

/// Starts binding tournament `id`'s boards unless this process does already.
fn follow<S: Store>(state: &Arc<AppState<S>>, config: &'static Config, id: &str) {
    {
        let mut all = followed();
        if all.iter().any(|f| f.app == app_of(config) && f.id == id) {
            return;
        }
        all.push(Followed {
            app: app_of(config),
            id: id.to_string(),
            bound: HashMap::new(),
        });
    }
    let (state, id) = (state.clone(), id.to_string());
    tokio::spawn(async move {
        while !sync(&state, config, &id).await {
            tokio::time::sleep(BIND_EVERY).await;
        }
    });
}

/// The subcommands a tournament adds to `/colosseum` (`games`: the game choices).
pub(super) fn subcommands(games: &[Value]) -> Vec<Value> {
    let sub = |name: &str, description: &str, options: Vec<Value>| json!({"type": 1, "name": name, "description": description, "options": options});
    let member = |description: &str| json!({"type": 6, "name": "member", "description": description, "required": true});
    vec![
        sub(
            "tournament",
            "Run a tournament in this channel between members (and bots)",
            vec![
                json!({"type": 3, "name": "game", "description": "The game played",
                       "required": true, "choices": games}),
                json!({"type": 3, "name": "format", "description": "How players meet",
                       "required": true, "choices": [
                           {"name": "Round robin", "value": "round_robin"},
                           {"name": "Swiss", "value": "swiss"},
                           {"name": "Single elimination", "value": "single_elimination"},
                           {"name": "Double elimination", "value": "double_elimination"}]}),
                json!({"type": 3, "name": "players",
                       "description": "Members' mentions, and bot:LEVEL for a bot (bot:random:Rex names it)",
                       "required": true, "max_length": 1500}),
                json!({"type": 4, "name": "rounds", "description": "A Swiss's rounds",
                       "required": false, "min_value": 1, "max_value": 63}),
                json!({"type": 3, "name": "options",
                       "description": "Game options as name=value, separated by spaces",
                       "required": false, "max_length": 200}),
                json!({"type": 3, "name": "clock",
                       "description": "Time per decision and bank: 60s, 90s+5m, untimed (default: the game's)",
                       "required": false, "max_length": 40}),
                json!({"type": 3, "name": "verbosity", "description": "What is posted here",
                       "required": false, "choices": [
                           {"name": "Every reveal", "value": "all"},
                           {"name": "Results and standings only", "value": "results"}]}),
                json!({"type": 5, "name": "manual",
                       "description": "The host starts each round with /colosseum next-round",
                       "required": false}),
                json!({"type": 3, "name": "name", "description": "The tournament's name",
                       "required": false, "max_length": 80}),
                json!({"type": 4, "name": "no-show",
                       "description": "Minutes after a round's pairing before a player who has not joined forfeits",
                       "required": false, "min_value": 1, "max_value": 10080}),
            ],
        ),
        sub(
            "next-round",
            "Start the tournament's next round (host)",
            vec![],
        ),
        sub(
            "standings",
            "Post the tournament's standings in this channel",
            vec![],
        ),
        sub(
            "forfeit",
            "Give a player's current tournament game to their opponent (host)",
            vec![member("The player who forfeits")],
        ),
        sub(
            "undo-forfeit",
            "Take back a player's no-show forfeit: their game goes on (host)",
            vec![member("The player whose forfeit is taken back")],
        ),
    ]
}

/// Who acted, from the interaction: their id, their name in the channel, and whether their
/// permissions make them a host of anything in the guild.
fn actor(interaction: &Value) -> (String, String, bool) {
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
    let permissions = m["permissions"]
        .as_str()
        .and_then(|p| p.parse::<u64>().ok())
        .unwrap_or(0);
    (
        user["id"].as_str().unwrap_or_default().to_string(),
        name.to_string(),
        permissions & HOST_PERMISSIONS != 0,
    )
}

fn option<'a>(sub: &'a Value, name: &str) -> Option<&'a Value> {
    sub["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == name))
        .map(|o| &o["value"])
}

fn text<'a>(sub: &'a Value, name: &str) -> Option<&'a str> {
    option(sub, name).and_then(Value::as_str)
}

/// A message everyone in the channel sees (mentions do not ping).
fn public(text: &str) -> Value {
    json!({"type": CHANNEL_MESSAGE, "data": {"content": text, "allowed_mentions": {"parse": []}}})
}

/// The answer to a tournament subcommand, or `None` when `sub` is not one (or `replace` of
/// a member who holds no place in this channel's tournament: a match's replacement).
pub(super) async fn command<S: Store>(
    state: &Arc<AppState<S>>,
    config: &'static Config,
    interaction: &Value,
    sub: &Value,
) -> Option<Value> {
    let channel = interaction["channel_id"].as_str().unwrap_or_default();
    let name = sub["name"].as_str().unwrap_or_default();
    if name == "tournament" {
        return Some(create(state, config, interaction, sub, channel).await);
    }
    if name == "join" {
        return join_against_bot(state, config, interaction, sub, channel).await;
    }
    if !matches!(
        name,
        "next-round" | "standings" | "forfeit" | "undo-forfeit" | "replace"
    ) {
        return None;
    }
    let Some(run) = run_in(state, config, channel).await else {
        if name == "replace" {
            return None;
        }
        return Some(ephemeral(
            "There is no tournament in this channel: a host starts one with `/colosseum tournament`.",
        ));
    };
    let tournaments = &state.tournaments;
    if name == "standings" {
        return Some(match tournaments.standings_text(&run.id).await {
            Ok((tname, lines, over, rounds)) => {
                let head = if over {
                    format!("**{tname}**: final standings")
                } else {
                    format!(
                        "**{tname}**: standings after {} paired",
                        colosseum_games::text::plural(rounds, "round")
                    )
                };
                public(&format!("{head}\n{}", lines.join("\n")))
            }
            Err(e) => ephemeral(&e.message),
        });
    }
    let place_of = |member: &str| {
        run.members
            .iter()
            .position(|m| m.as_deref() == Some(member))
    };
    let named = text(sub, "member").unwrap_or_default().to_string();
    if name == "replace" && place_of(&named).is_none() {
        // Not a tournament player here: a match's replacement (`/colosseum replace` of a
        // hosted match), if any.
        return None;
    }
    let (who, _, admin) = actor(interaction);
    if who != run.room.host && !admin {
        return Some(ephemeral(
            "Only the tournament's host (the member who created it, or a member with the \
             Administrator or Manage Server permission) can do this.",
        ));
    }
    let host = |action: &'static str, body: Value| {
        let (tournaments, run) = (tournaments.clone(), run.clone());
        async move {
            tournaments
                .host(&run.id, Some(&run.admin), action, body)
                .await
        }
    };
    let answer = match name {
        "next-round" => host("start", json!({}))
            .await
            .map(|_| "The next round is paired: its boards follow here.".to_string()),
        "replace" => {
            let place = place_of(&named).expect("checked");
            let Some(with) = text(sub, "with") else {
                return Some(ephemeral("Name the member who takes the place (`with:`)."));
            };
            if place_of(with).is_some() {
                return Some(ephemeral(
                    "That member plays in this tournament already: choose someone else.",
                ));
            }
            let was = resolved_name(interaction, &named).unwrap_or_else(|| "the player".into());
            let by = match resolved_name(interaction, with) {
                Some(name) => name,
                None => match member_name(config, interaction["guild_id"].as_str(), with).await {
                    Some(name) => name,
                    None => {
                        return Some(ephemeral(
                            "Discord did not say the new member's name: try again in a moment.",
                        ))
                    }
                },
            };
            let replaced = tournaments
                .host_as(
                    &run.id,
                    Some(&run.admin),
                    "replace",
                    json!({"player": place, "name": by}),
                    Some(with),
                )
                .await;
            match replaced {
                Ok(_) => {
                    sync(state, config, &run.id).await;
                    Ok(format!(
                        "{by} takes {was}'s place from the next game on; {was}'s games stay \
                         {was}'s."
                    ))
                }
                Err(e) => Err(e),
            }
        }
        "forfeit" | "undo-forfeit" => {
            let place = match place_of(&named) {
                Some(p) => p,
                None => {
                    return Some(ephemeral(
                        "That member is not a player of this channel's tournament.",
                    ))
                }
            };
            let who_name = resolved_name(interaction, &named).unwrap_or_else(|| "they".into());
            if name == "forfeit" {
                forfeit(tournaments, &run, place, &who_name).await
            } else {
                undo_forfeit(tournaments, &run, place, &who_name).await
            }
        }
        _ => return None,
    };
    Some(match answer {
        Ok(words) => public(&words),
        Err(e) => ephemeral(&e.message),
    })
}

/// The host forfeits `place`'s game of the current round: their opponent wins.
async fn forfeit<S: Store>(
    tournaments: &Arc<Tournaments<S>>,
    run: &DiscordRun,
    place: usize,
    who: &str,
) -> Result<String, crate::error::ApiError> {
    let (_, boards) = tournaments.current_boards(&run.id).await?;
    let Some(b) = boards.iter().find(|b| b.open && b.places.contains(&place)) else {
        return Err(crate::error::ApiError::bad_request(format!(
            "{who} has no unfinished game in this round"
        )));
    };
    let winner = if b.places[0] == place { "p2" } else { "p1" };
    tournaments
        .host(
            &run.id,
            Some(&run.admin),
            "adjudicate",
            json!({"round": b.round, "board": b.board, "result": winner,
                   "reason": format!("{who} forfeits")}),
        )
        .await?;
    Ok(format!(
        "{who} forfeits round {}, board {}.",
        b.round + 1,
        b.board + 1
    ))
}

/// The host takes back `place`'s latest no-show forfeit (the game goes on).
async fn undo_forfeit<S: Store>(
    tournaments: &Arc<Tournaments<S>>,
    run: &DiscordRun,
    place: usize,
    who: &str,
) -> Result<String, crate::error::ApiError> {
    let view = tournaments.view(&run.id, Some(&run.admin)).await?;
    let found = view["rounds"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| {
            r["boards"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |b| (r["round"].clone(), b))
        })
        .rfind(|(_, b)| {
            b["how"]["kind"] == "no_show"
                && (b["p1"]["player"] == json!(place) || b["p2"]["player"] == json!(place))
        })
        .map(|(r, b)| (r, b["board"].clone()));
    let Some((round, board)) = found else {
        return Err(crate::error::ApiError::bad_request(format!(
            "{who} has no no-show forfeit to take back"
        )));
    };
    tournaments
        .host(
            &run.id,
            Some(&run.admin),
            "undo_forfeit",
            json!({"round": round, "board": board}),
        )
        .await?;
    Ok(format!(
        "{who}'s no-show forfeit is taken back: the game goes on."
    ))
}

/// The players of `players:`: each a member (`<@ID>`, named as the interaction resolves them)
/// or a bot (`bot:LEVEL`, or `bot:LEVEL:NAME`). A member named twice is refused.
async fn players(
    config: &Config,
    interaction: &Value,
    text: &str,
) -> Result<Vec<(Option<String>, String, Option<String>)>, String> {
    const BOT_NAMES: [&str; 8] = ["Rex", "Ada", "Hal", "Kit", "Max", "Zia", "Ivo", "Lux"];
    let mut out: Vec<(Option<String>, String, Option<String>)> = Vec::new();
    let mut bots = 0;
    for word in text.split_whitespace() {
        if let Some(id) = word
            .strip_prefix("<@")
            .and_then(|w| w.strip_suffix('>'))
            .map(|w| w.trim_start_matches('!'))
        {
            if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("`{word}` is not a member's mention"));
            }
            if out.iter().any(|(m, _, _)| m.as_deref() == Some(id)) {
                return Err(format!("<@{id}> is named twice"));
            }
            let name = match resolved_name(interaction, id) {
                Some(name) => name,
                None => member_name(config, interaction["guild_id"].as_str(), id)
                    .await
                    .ok_or_else(|| format!("<@{id}>: Discord did not say this member's name"))?,
            };
            out.push((Some(id.to_string()), name, None));
        } else if let Some(bot) = word.strip_prefix("bot:") {
            let (level, name) = match bot.split_once(':') {
                Some((level, name)) => (level, name.to_string()),
                None => {
                    let n = BOT_NAMES[bots % BOT_NAMES.len()];
                    let name = if bots < BOT_NAMES.len() {
                        n.to_string()
                    } else {
                        format!("{n} {}", bots / BOT_NAMES.len() + 1)
                    };
                    (bot, name)
                }
            };
            bots += 1;
            out.push((None, name, Some(level.to_string())));
        } else {
            return Err(format!(
                "`{word}` is neither a member's mention (@name) nor a bot (bot:LEVEL, e.g. \
                 bot:random)"
            ));
        }
    }
    Ok(out)
}

/// A member's name in `guild` as Discord gives it (`GET /guilds/{guild}/members/{id}`: their
/// nickname, else their display name, else their user name), for a mention in a text option
/// (Discord resolves only the mentions of member options); `None` if Discord does not answer
/// within 2 seconds.
async fn member_name(config: &Config, guild: Option<&str>, id: &str) -> Option<String> {
    use http_body_util::BodyExt;
    let guild = guild.filter(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()))?;
    let url = format!("{}/guilds/{guild}/members/{id}", config.api_base);
    let request = hyper::Request::get(&url)
        .header("authorization", format!("Bot {}", config.bot_token))
        .header(
            "user-agent",
            concat!(
                "DiscordBot (https://github.com/colosseum, ",
                env!("CARGO_PKG_VERSION"),
                ")"
            ),
        )
        .body(http_body_util::Full::new(axum::body::Bytes::new()))
        .ok()?;
    let response = tokio::time::timeout(Duration::from_secs(2), super::client().request(request))
        .await
        .ok()?
        .ok()?;
    if !response.status().is_success() {
        return None;
    }
    let bytes = tokio::time::timeout(Duration::from_secs(2), response.into_body().collect())
        .await
        .ok()?
        .ok()?
        .to_bytes();
    let member: Value = serde_json::from_slice(&bytes).ok()?;
    member["nick"]
        .as_str()
        .or(member["user"]["global_name"].as_str())
        .or(member["user"]["username"].as_str())
        .map(str::to_string)
}

/// `/colosseum tournament`: creates the tournament, announced in this channel.
async fn create<S: Store>(
    state: &Arc<AppState<S>>,
    config: &'static Config,
    interaction: &Value,
    sub: &Value,
    channel: &str,
) -> Value {
    let (who, who_name, _) = actor(interaction);
    let Some(game) = text(sub, "game").and_then(|g| colosseum_games::find(g).ok()) else {
        return ephemeral("No such game: choose one from the list.");
    };
    let format = match (
        text(sub, "format"),
        option(sub, "rounds").and_then(Value::as_u64),
    ) {
        (Some("swiss"), Some(rounds)) => json!({"kind": "swiss", "rounds": rounds}),
        (Some("swiss"), None) => {
            return ephemeral("A Swiss needs its number of rounds: `rounds:`.");
        }
        (Some(kind @ ("round_robin" | "single_elimination" | "double_elimination")), _) => {
            json!({"kind": kind})
        }
        _ => {
            return ephemeral(
                "`format:` is round_robin, swiss (with `rounds:`), single_elimination or \
                 double_elimination.",
            )
        }
    };
    let entered = match players(
        config,
        interaction,
        text(sub, "players").unwrap_or_default(),
    )
    .await
    {
        Ok(p) => p,
        Err(why) => {
            return ephemeral(&format!(
                "`players:` {why}. Give members' mentions and bots (bot:LEVEL), separated by \
                 spaces."
            ))
        }
    };
    let options = match colosseum_engine::parse_pairs(
        text(sub, "options").unwrap_or_default().split_whitespace(),
    ) {
        Ok(o) => o,
        Err(e) => return ephemeral(&format!("Options: {e}")),
    };
    let time = match super::host::clock(text(sub, "clock"), game.id, &state.limits) {
        Ok(t) => t,
        Err(why) => return why,
    };
    let mut hook = super::post::channel_hook(config, channel);
    match text(sub, "verbosity") {
        None | Some("all") => {}
        Some("results") => hook.verbosity = Verbosity::Results,
        Some(other) => {
            return ephemeral(&format!(
                "`verbosity: {other}`: all (every reveal) or results (results and standings only)."
            ))
        }
    }
    let tname = text(sub, "name")
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map_or_else(|| format!("{} tournament", game.name), str::to_string);
    let manual = option(sub, "manual")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let body = json!({
        "name": tname,
        "game": game.id,
        "format": format,
        "players": entered.iter().map(|(_, name, bot)| json!({"name": name, "bot": bot})).collect::<Vec<_>>(),
        "auto_rounds": !manual,
        "no_show_s": option(sub, "no-show").and_then(Value::as_u64).map(|m| m.saturating_mul(60)),
    });
    let mut req: CreateTournament = match serde_json::from_value(body) {
        Ok(r) => r,
        Err(e) => return ephemeral(&format!("The tournament: {e}")),
    };
    req.options = options;
    req.time = time;
    req.webhook = Some(hook);
    req.discord = Some(DiscordRoom {
        channel: channel.to_string(),
        host: who.clone(),
    });
    for (p, (member, _, _)) in req.players.iter_mut().zip(&entered) {
        p.discord.clone_from(member);
    }
    let created = match state.tournaments.create(req, None).await {
        Ok(c) => c,
        Err(e) => return ephemeral(&format!("The tournament was not created: {}", e.message)),
    };
    let Some(id) = created["id"].as_str() else {
        return ephemeral("The tournament was created without its id: see the server's log.");
    };
    follow(state, config, id);
    let names: Vec<&str> = entered.iter().map(|(_, n, _)| n.as_str()).collect();
    public(&format!(
        "{who_name} starts **{}**: {} of {} between {}. Pairings, results and standings are \
         posted here. When your board is ready, join it with `/colosseum join seed:` and 16 to \
         64 letters or digits of your own choosing, then play with `/colosseum move`.{} Its \
         page: {}/t/{id}",
        tname,
        format_words(&format),
        game.name,
        names.join(", "),
        if manual {
            " The host starts each round with `/colosseum next-round`."
        } else {
            ""
        },
        config.public_url.as_deref().unwrap_or_default()
    ))
}

fn format_words(format: &Value) -> String {
    match format["kind"].as_str() {
        Some("swiss") => format!(
            "a Swiss of {}",
            colosseum_games::text::plural(format["rounds"].as_u64().unwrap_or(0) as usize, "round")
        ),
        Some("single_elimination") => "a single elimination".into(),
        Some("double_elimination") => "a double elimination".into(),
        _ => "a round robin".into(),
    }
}

/// Binds each open board of tournament `id`'s current round not bound yet to its members (a
/// board made again for a replacement: the new match, the old one unbound), and says in the
/// channel that it is ready. `true` when the tournament is over (or gone).
async fn sync<S: Store>(state: &Arc<AppState<S>>, config: &'static Config, id: &str) -> bool {
    // One at a time (the follower and a `replace`), so a board is bound and announced once.
    static SYNCING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _one = SYNCING.lock().await;
    let Some(run) = state.tournaments.discord_run(id).await else {
        return true;
    };
    let Ok((over, boards)) = state.tournaments.current_boards(id).await else {
        return true;
    };
    let mut bound = followed()
        .iter()
        .find(|f| f.app == app_of(config) && f.id == id)
        .map(|f| f.bound.clone())
        .unwrap_or_default();
    for b in boards.iter().filter(|b| b.open) {
        let key = (b.round, b.board);
        if bound.get(&key) == Some(&b.match_id) {
            continue;
        }
        if config.bindings.get(&b.match_id).is_some() {
            // Bound before a restart.
            bound.insert(key, b.match_id.clone());
            continue;
        }
        if let Some(old) = bound.insert(key, b.match_id.clone()) {
            // The board's old match left the tournament: nobody acts in it from here.
            config.bindings.update(&run.room.channel, &old, |old| {
                old.members = [String::new(), String::new()];
            });
        }
        let members = b.places.map(|p| run.members[p].clone());
        if members.iter().all(Option::is_none) {
            continue;
        }
        let made = Bound::new(
            &b.match_id,
            &run.room.channel,
            members.clone().map(Option::unwrap_or_default),
            b.names.clone(),
            b.tokens.clone().map(Option::unwrap_or_default),
        )
        .hosted_by(&run.room.host);
        // The match's posts go to the channel labelled by the tournament (its webhook, set by
        // the tournament): `post::watch` must not set them again unlabelled.
        config.bindings.watch(&b.match_id);
        bind(config, made);
        let hook = super::post::channel_hook(config, &run.room.channel).for_board(
            &run.name,
            b.round + 1,
            b.board + 1,
        );
        let who: Vec<String> = Seat::BOTH
            .iter()
            .filter(|s| members[s.index()].is_some())
            .map(|s| b.names[s.index()].clone())
            .collect();
        state.hub.webhooks().post(
            &hook,
            Post {
                kind: "host",
                title: hook.titled(&format!("{} v {}", b.names[0], b.names[1])),
                lines: vec![format!(
                    "The table is ready: {} join{} with `/colosseum join seed:`.",
                    who.join(" and "),
                    if who.len() == 1 { "s" } else { "" }
                )],
                board: None,
            },
        );
    }
    if let Some(f) = followed()
        .iter_mut()
        .find(|f| f.app == app_of(config) && f.id == id)
    {
        f.bound = bound;
    }
    over || run.finished
}

/// `/colosseum join seed:` on a tournament board against a bot: the member's seat commits to
/// their seed and reveals it (the bot needs none), and the match starts. `None` when the
/// member has no such board waiting (the other `join`s are `play`'s).
async fn join_against_bot<S: Store>(
    state: &Arc<AppState<S>>,
    config: &'static Config,
    interaction: &Value,
    sub: &Value,
    channel: &str,
) -> Option<Value> {
    let (who, _, _) = actor(interaction);
    let (bound, seat) = config
        .bindings
        .in_channel(channel)
        .into_iter()
        .filter(|b| !b.started)
        .find_map(|b| {
            let seat = Seat::BOTH
                .into_iter()
                .find(|s| b.members[s.index()] == who)?;
            b.members[seat.other().index()]
                .is_empty()
                .then_some((b, seat))
        })?;
    let seed = text(sub, "seed").map(str::trim).unwrap_or_default();
    if let Err(e) = colosseum_engine::fair::check_client_seed(seed) {
        return Some(ephemeral(&format!(
            "`seed:` is your share of the match's chance, typed by you: {}",
            e.0
        )));
    }
    let hub = &state.hub;
    let Ok(table) = hub.table(&bound.id).await else {
        return Some(ephemeral("The match is gone."));
    };
    let joined = hub
        .act(
            &table,
            seat,
            crate::hub::Action::JoinSeeded {
                name: Some(bound.names[seat.index()].clone()),
                client_seed: None,
                client_seed_hash: Some(colosseum_engine::fair::client_seed_hash(seed)),
            },
        )
        .await;
    if let Err(e) = joined {
        return Some(ephemeral(&e.message));
    }
    if let Err(e) = hub
        .act(&table, seat, crate::hub::Action::Reveal(seed.to_string()))
        .await
    {
        return Some(ephemeral(&e.message));
    }
    config
        .bindings
        .update(&bound.channel, &bound.id, |b| b.started = true);
    Some(json!({"type": CHANNEL_MESSAGE, "data": {
        "content": format!(
            "{} v {}: the match begins. Each player makes their move privately.",
            bound.names[0], bound.names[1]
        ),
        "components": super::play::move_button(),
        "allowed_mentions": {"parse": []},
    }}))
}
