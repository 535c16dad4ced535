//! Provably fair chance: a hosted match's seed comes from a server seed the server committed to
//! before the seats chose theirs, and from client seeds each seat committed to before any was
//! shown, so neither the server, a player nor the two together against the third can aim chance.
//!
//! Version 2 (`"version": 2` in the record's `fairness`; matches created since issue 36):
//!
//! * At creation the server draws a 32-byte **server seed** and writes down the match's public
//!   **setup** ([`Setup`]: game, options, each seat's kind and bot with its full settings and
//!   whether it thinks for a time, the time control, sealed or not, practice or not, the match
//!   format). It publishes the setup and the **commitment**: the lowercase hex SHA-256 of the
//!   setup's [`committed text`](Fairness::committed_text), which is [`Setup::text`] followed by
//!   the line `server_seed_sha256=HEX` (HEX the SHA-256 of the server seed's 32 bytes), every
//!   line ending in `\n`:
//!
//! ```text
//! colosseum-setup=2
//! game=goofspiel
//! options={"cards":"5"}
//! p1=human
//! p2=bot mcts:iters=300 settings=mcts:iters=300,algo=rm,gamma=0.115,model=0,exact=true,solve=true time_budget=no
//! time={"bank_ms":0,"bank_step_ms":0,"empty_bank":"default","kind":"timed","per_decision_ms":60000}
//! sealed=no
//! practice=no
//! replay_on_draw=no
//! advantage=p1
//! trivia=none
//! server_seed_sha256=66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925
//! ```
//!
//!   JSON values are compact with every object's keys sorted (as `jq -cS` prints them). The
//!   state shows this text as `fairness.setup_text`: `printf '%s' "$SETUP_TEXT" | sha256sum` is
//!   the commitment.
//! * Each **human** seat joins with the SHA-256 (lowercase hex) of a **client seed** it chose at
//!   random ([`client_seed_hash`]), and reveals the seed only once both seats have committed;
//!   the reveal must hash to the commitment. A bot seat has no client seed (the empty text below).
//! * The match seed is the first 8 bytes, read big-endian, of the SHA-256 of the text
//!   `SERVER_SEED_HEX:P1_CLIENT_SEED:P2_CLIENT_SEED` (a bot seat's part empty). Every chance step
//!   of game `n` of the match is drawn, in order, from `ChaCha8(seed)`, as [`crate::replay`]
//!   draws missing chance. A move the host makes for a seat at a timeout is the game's default
//!   move drawn from `ChaCha8(`[`default_move_seed`]`)`.
//! * When the match ends the record carries the server seed, and anyone can check it.
//!
//! Version 1 (records without `version`): the commitment is the SHA-256 of the server seed's
//! bytes alone, and client seeds were sent in clear (or made by the server). Such records are
//! still checked, but what the setup would bind is only the record's own word.
//!
//! ```sh
//! printf '%s' SERVER_SEED_HEX | xxd -r -p | sha256sum             # server_seed_sha256
//! printf '%s' "$SETUP_TEXT" | sha256sum                           # the commitment (version 2)
//! printf '%s' CLIENT_SEED | sha256sum                             # a seat's client seed hash
//! printf '%s:%s:%s' SERVER_SEED_HEX P1_SEED P2_SEED | sha256sum   # first 16 hex digits = seed
//! ```
//!
//! Pure: no clock, no I/O; the caller draws the server seed.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::seat::Seat;

/// The longest client seed.
pub const MAX_CLIENT_SEED: usize = 64;

/// The shortest client seed a version 2 match takes at a reveal: its hash is public before
/// the reveal, so a short seed could be found from it by trying them all.
pub const MIN_CLIENT_SEED: usize = 16;

/// The fairness version of matches created now ([`Fairness::version`]).
pub const VERSION: u32 = 2;

fn version_one() -> u32 {
    1
}

fn is_version_one(v: &u32) -> bool {
    *v == 1
}

/// What makes a hosted match's chance checkable afterwards (the record's `fairness`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fairness {
    /// 2 for matches whose setup and client seeds are committed (see the module's doc); absent
    /// (1) in records made before.
    #[serde(default = "version_one", skip_serializing_if = "is_version_one")]
    pub version: u32,
    /// Version 2: the SHA-256 of [`Fairness::committed_text`] (the setup and the server seed's
    /// hash); version 1: the SHA-256 of the server seed's 32 bytes. Lowercase hex, published at
    /// creation.
    pub commitment: String,
    /// Version 2: the SHA-256 of the server seed's 32 bytes, lowercase hex, published at
    /// creation (its last line of the committed text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_seed_hash: Option<String>,
    /// Version 2: the public setup, published at creation and bound by the commitment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Setup>,
    /// Version 2: each human seat's commitment to its client seed (the SHA-256 of the seed's
    /// text, lowercase hex), given when it joins.
    #[serde(default, skip_serializing_if = "ClientSeeds::is_empty")]
    pub client_seed_hashes: ClientSeeds,
    /// The server seed (64 lowercase hex digits), published only once the match is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_seed: Option<String>,
    /// Each seat's client seed, once it has joined.
    #[serde(default)]
    pub client_seeds: ClientSeeds,
    /// The bot seats and their levels, so their moves can be re-derived from the seed.
    #[serde(default, skip_serializing_if = "ClientSeeds::is_empty")]
    pub bots: ClientSeeds,
    /// What each bot level meant when the match was played, every setting spelled out as a bot
    /// name (e.g. `mcts:iters=30000,algo=rm,gamma=0.3,model=0,exact=true,solve=true`), so a later
    /// build whose levels differ re-runs these settings.
    #[serde(default, skip_serializing_if = "ClientSeeds::is_empty")]
    pub bot_settings: ClientSeeds,
    /// Moves the host made for a seat whose time ran out (`{"step": 5, "seat": "p2"}`): they
    /// are not the seat's own choice; version 2 re-derives each from [`default_move_seed`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaults: Vec<DefaultMove>,
}

impl Default for Fairness {
    fn default() -> Self {
        Fairness {
            version: 1,
            commitment: String::new(),
            server_seed_hash: None,
            setup: None,
            client_seed_hashes: ClientSeeds::default(),
            server_seed: None,
            client_seeds: ClientSeeds::default(),
            bots: ClientSeeds::default(),
            bot_settings: ClientSeeds::default(),
            defaults: Vec::new(),
        }
    }
}

/// The public setup of a match, committed at creation (version 2): what both seats are shown
/// before they join, and what a record must agree with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The game's id.
    pub game: String,
    /// The game's options (of the first game).
    pub options: crate::RawOptions,
    /// `p1`'s seat.
    pub p1: SeatSetup,
    /// `p2`'s seat.
    pub p2: SeatSetup,
    /// The time control in force (the host's `TimeControl` as JSON: `{"kind": "untimed"}` or the
    /// clocks).
    pub time: serde_json::Value,
    /// Sealed submissions.
    pub sealed: bool,
    /// A practice match (the creator chose the seed); never committed, so always `false` here.
    pub practice: bool,
    /// Whether a drawn game is replayed.
    pub replay_on_draw: bool,
    /// Who wins when a replayed game is drawn again (`None`: a drawn match).
    pub advantage: Option<Seat>,
    /// A live Cauldron's question bank: `sample`, or `sha256:HEX` (the SHA-256 of an inline
    /// bank's TOML); `None` when the match asks no trivia.
    pub trivia: Option<String>,
}

/// One seat of a [`Setup`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatSetup {
    /// `human` or `bot`.
    pub kind: SeatKind,
    /// A bot's level as the creator named it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// A bot's settings, every one spelled out (a bot name that parses in any build).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<String>,
    /// Whether the bot thinks for a time rather than a number of iterations (its moves cannot
    /// be repeated, so they are not re-derived).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub time_budget: bool,
}

/// A seat's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// A person (or a program speaking for one), with a client seed.
    Human,
    /// A server bot, with no client seed.
    Bot,
}

impl SeatSetup {
    /// A human seat.
    #[must_use]
    pub fn human() -> Self {
        SeatSetup {
            kind: SeatKind::Human,
            bot: None,
            settings: None,
            time_budget: false,
        }
    }

    /// Whether this is a bot seat.
    #[must_use]
    pub fn is_bot(&self) -> bool {
        self.kind == SeatKind::Bot
    }

    fn line(&self) -> String {
        match self.kind {
            SeatKind::Human => "human".into(),
            SeatKind::Bot => format!(
                "bot {} settings={} time_budget={}",
                self.bot.as_deref().unwrap_or_default(),
                self.settings.as_deref().unwrap_or_default(),
                yes_no(self.time_budget)
            ),
        }
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// Compact JSON with every object's keys sorted by their bytes, as `jq -cS` prints it.
#[must_use]
pub fn canonical_json(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| {
                    format!(
                        "{}:{}",
                        serde_json::to_string(k).unwrap_or_default(),
                        canonical_json(&map[k.as_str()])
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(canonical_json).collect();
            format!("[{}]", parts.join(","))
        }
        other => other.to_string(),
    }
}

impl Setup {
    /// `seat`'s setup.
    #[must_use]
    pub fn seat(&self, seat: Seat) -> &SeatSetup {
        match seat {
            Seat::P1 => &self.p1,
            Seat::P2 => &self.p2,
        }
    }

    /// The canonical text of the setup, version 2: one `key=value` line each, in this order,
    /// each ending in `\n` (see the module's doc for an example).
    #[must_use]
    pub fn text(&self) -> String {
        let options = canonical_json(&serde_json::Value::Object(self.options.clone()));
        format!(
            "colosseum-setup={VERSION}\ngame={}\noptions={options}\np1={}\np2={}\ntime={}\nsealed={}\npractice={}\nreplay_on_draw={}\nadvantage={}\ntrivia={}\n",
            self.game,
            self.p1.line(),
            self.p2.line(),
            canonical_json(&self.time),
            yes_no(self.sealed),
            yes_no(self.practice),
            yes_no(self.replay_on_draw),
            self.advantage.map_or("none", Seat::as_str),
            self.trivia.as_deref().unwrap_or("none"),
        )
    }
}

/// A value per seat, each optional (`{"p1": ..., "p2": ...}`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientSeeds {
    /// `p1`'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p1: Option<String>,
    /// `p2`'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p2: Option<String>,
}

impl ClientSeeds {
    /// `seat`'s value.
    #[must_use]
    pub fn get(&self, seat: Seat) -> Option<&str> {
        match seat {
            Seat::P1 => self.p1.as_deref(),
            Seat::P2 => self.p2.as_deref(),
        }
    }

    /// Sets `seat`'s value.
    pub fn set(&mut self, seat: Seat, value: Option<String>) {
        match seat {
            Seat::P1 => self.p1 = value,
            Seat::P2 => self.p2 = value,
        }
    }

    /// Whether neither seat has a value.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.p1.is_none() && self.p2.is_none()
    }
}

/// A move the host made for a seat at a timeout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefaultMove {
    /// The step's index in the record.
    pub step: usize,
    /// The seat.
    pub seat: Seat,
}

/// Why fairness data does not check out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairnessError {
    /// The record has no server seed (the match is not over, or it was removed).
    #[error("the record has no server seed (it is published when the match is over)")]
    NoServerSeed,
    /// The server seed is not 64 hex digits.
    #[error("the server seed `{0}` is not 64 hex digits")]
    BadServerSeed(String),
    /// The server seed does not hash to the commitment.
    #[error("the server seed does not match the commitment: SHA-256 of the seed is {actual}, the commitment published at creation was {committed}")]
    CommitmentMismatch {
        /// What the seed hashes to.
        actual: String,
        /// The commitment.
        committed: String,
    },
    /// Version 2: the record has no setup or server seed hash.
    #[error("the record's fairness (version 2) has no setup or server seed hash to check the commitment with")]
    NoSetup,
    /// Version 2: the setup and the server seed's hash do not hash to the commitment.
    #[error("the setup does not match the commitment: SHA-256 of the setup's text and the server seed's hash is {actual}, the commitment published at creation was {committed}")]
    SetupMismatch {
        /// What the committed text hashes to.
        actual: String,
        /// The commitment.
        committed: String,
    },
    /// A seat has no client seed.
    #[error("{0} has no client seed")]
    MissingClientSeed(Seat),
    /// Version 2: a bot seat has a client seed (bots have none).
    #[error("{0} is a bot in the committed setup, but the record gives it a client seed (bots have none)")]
    BotClientSeed(Seat),
    /// Version 2: a client seed does not hash to the seat's commitment.
    #[error(
        "{seat}'s client seed hashes to {actual}, not to the commitment {committed} it joined with"
    )]
    ClientSeedMismatch {
        /// The seat.
        seat: Seat,
        /// What the seed hashes to.
        actual: String,
        /// The commitment.
        committed: String,
    },
    /// A client seed has characters or a length that are not allowed.
    #[error(transparent)]
    BadClientSeed(#[from] ClientSeedError),
}

/// A client seed that is not allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a client seed is 1 to {MAX_CLIENT_SEED} characters of A-Z, a-z, 0-9, `_`, `.` and `-`; got `{0}`")]
pub struct ClientSeedError(pub String);

/// Checks a client seed.
pub fn check_client_seed(seed: &str) -> Result<(), ClientSeedError> {
    let ok = !seed.is_empty()
        && seed.len() <= MAX_CLIENT_SEED
        && seed
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(ClientSeedError(seed.chars().take(80).collect()))
    }
}

/// Lowercase hex of `bytes`.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The lowercase hex SHA-256 of `data`.
#[must_use]
pub fn sha256_hex(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

/// The commitment to a server seed given in hex: the SHA-256 of its bytes.
pub fn commitment(server_seed_hex: &str) -> Result<String, FairnessError> {
    let bytes = unhex(server_seed_hex)
        .filter(|b| b.len() == 32)
        .ok_or_else(|| FairnessError::BadServerSeed(server_seed_hex.chars().take(80).collect()))?;
    Ok(sha256_hex(&bytes))
}

/// A seat's commitment to its client seed: the lowercase hex SHA-256 of the seed's text.
#[must_use]
pub fn client_seed_hash(seed: &str) -> String {
    sha256_hex(seed.as_bytes())
}

/// Checks a client seed revealed in a version 2 match: the form of [`check_client_seed`] and at
/// least [`MIN_CLIENT_SEED`] characters.
pub fn check_revealed_seed(seed: &str) -> Result<(), ClientSeedError> {
    check_client_seed(seed)?;
    if seed.len() < MIN_CLIENT_SEED {
        return Err(ClientSeedError(seed.chars().take(80).collect()));
    }
    Ok(())
}

/// Whether `text` is 64 lowercase hex digits (a SHA-256 as these commitments write it).
#[must_use]
pub fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The seed of the generator a version 2 host draws a seat's default move from, when the seat's
/// time runs out at step `step` (its index in its game's record) of game `game_number` (1, or
/// 2 after a replayed draw): the first 8 bytes, read big-endian, of the SHA-256 of the text
/// `default:MATCH_SEED:GAME_NUMBER:STEP:SEAT` (numbers in decimal, seat `p1` or `p2`). The
/// move is the game's default move drawn from `ChaCha8` with that seed (its random legal move
/// where it has none), so anyone can re-derive it from the record.
#[must_use]
pub fn default_move_seed(match_seed: u64, game_number: usize, step: usize, seat: Seat) -> u64 {
    let digest = Sha256::digest(format!("default:{match_seed}:{game_number}:{step}:{seat}"));
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// The match seed from the server seed (hex) and the two client seeds.
#[must_use]
pub fn derive_seed(server_seed_hex: &str, p1: &str, p2: &str) -> u64 {
    let digest = Sha256::digest(format!("{server_seed_hex}:{p1}:{p2}").as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

impl Fairness {
    /// A version 2 match's fairness at creation: the setup, the server seed (secret until the
    /// end) and the commitment to both.
    #[must_use]
    pub fn committed(setup: Setup, server_seed_hex: &str) -> Fairness {
        let server_seed_hash = commitment(server_seed_hex).unwrap_or_default();
        let mut bots = ClientSeeds::default();
        let mut bot_settings = ClientSeeds::default();
        for seat in Seat::BOTH {
            let s = setup.seat(seat);
            if s.is_bot() {
                bots.set(seat, s.bot.clone());
                bot_settings.set(seat, s.settings.clone());
            }
        }
        let mut fair = Fairness {
            bots,
            bot_settings,
            version: VERSION,
            server_seed_hash: Some(server_seed_hash),
            setup: Some(setup),
            server_seed: Some(server_seed_hex.to_string()),
            ..Fairness::default()
        };
        fair.commitment = sha256_hex(fair.committed_text().unwrap_or_default().as_bytes());
        fair
    }

    /// Version 2: the text the commitment is the SHA-256 of: [`Setup::text`] and the line
    /// `server_seed_sha256=HEX`. `None` without a setup or the server seed's hash.
    #[must_use]
    pub fn committed_text(&self) -> Option<String> {
        let setup = self.setup.as_ref()?;
        let hash = self.server_seed_hash.as_deref()?;
        Some(format!("{}server_seed_sha256={hash}\n", setup.text()))
    }

    /// Whether `seat` is a bot in the committed setup (version 2) or the record's `bots`
    /// (version 1).
    #[must_use]
    pub fn is_bot(&self, seat: Seat) -> bool {
        match &self.setup {
            Some(setup) => setup.seat(seat).is_bot(),
            None => self.bots.get(seat).is_some(),
        }
    }

    /// Checks the server seed against the commitment and the client seeds (version 2: against
    /// their commitments; a bot seat has none), and gives the match seed they make.
    pub fn match_seed(&self) -> Result<u64, FairnessError> {
        let server = self
            .server_seed
            .as_deref()
            .ok_or(FairnessError::NoServerSeed)?;
        let actual = commitment(server)?;
        if self.version >= 2 {
            let hash = self.server_seed_hash.as_deref().unwrap_or_default();
            if actual != hash {
                return Err(FairnessError::CommitmentMismatch {
                    actual,
                    committed: hash.to_string(),
                });
            }
            let text = self.committed_text().ok_or(FairnessError::NoSetup)?;
            let actual = sha256_hex(text.as_bytes());
            if actual != self.commitment {
                return Err(FairnessError::SetupMismatch {
                    actual,
                    committed: self.commitment.clone(),
                });
            }
        } else if actual != self.commitment {
            return Err(FairnessError::CommitmentMismatch {
                actual,
                committed: self.commitment.clone(),
            });
        }
        let mut seeds = [""; 2];
        for seat in Seat::BOTH {
            if self.version >= 2 && self.is_bot(seat) {
                if self.client_seeds.get(seat).is_some() {
                    return Err(FairnessError::BotClientSeed(seat));
                }
                continue;
            }
            let s = self
                .client_seeds
                .get(seat)
                .ok_or(FairnessError::MissingClientSeed(seat))?;
            check_client_seed(s)?;
            if self.version >= 2 {
                let hash = client_seed_hash(s);
                let committed = self.client_seed_hashes.get(seat).unwrap_or_default();
                if hash != committed {
                    return Err(FairnessError::ClientSeedMismatch {
                        seat,
                        actual: hash,
                        committed: committed.to_string(),
                    });
                }
            }
            seeds[seat.index()] = s;
        }
        Ok(derive_seed(server, seeds[0], seeds[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitment_is_the_sha256_of_the_seed_bytes() {
        // SHA-256 of 32 zero bytes, a published test vector.
        assert_eq!(
            commitment(&"00".repeat(32)).unwrap(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert!(matches!(
            commitment("abc"),
            Err(FairnessError::BadServerSeed(_))
        ));
        assert!(commitment(&"zz".repeat(32)).is_err());
    }

    #[test]
    fn the_seed_is_the_first_eight_bytes_of_the_joined_text() {
        // SHA-256("a:b:c") = 9d0f8fd1...
        let digest = sha256_hex(b"a:b:c");
        let expected = u64::from_str_radix(&digest[..16], 16).unwrap();
        assert_eq!(derive_seed("a", "b", "c"), expected);
        assert_ne!(derive_seed("a", "b", "c"), derive_seed("a", "c", "b"));
    }

    #[test]
    fn match_seed_checks_commitment_and_client_seeds() {
        let server = "ab".repeat(32);
        let mut f = Fairness {
            commitment: commitment(&server).unwrap(),
            server_seed: Some(server.clone()),
            client_seeds: ClientSeeds {
                p1: Some("alice".into()),
                p2: Some("bob-2.x".into()),
            },
            ..Fairness::default()
        };
        assert_eq!(
            f.match_seed().unwrap(),
            derive_seed(&server, "alice", "bob-2.x")
        );
        f.commitment = sha256_hex(b"something else");
        assert!(matches!(
            f.match_seed(),
            Err(FairnessError::CommitmentMismatch { .. })
        ));
        f.commitment = commitment(&server).unwrap();
        f.client_seeds.p2 = Some("no:colons".into());
        assert!(matches!(
            f.match_seed(),
            Err(FairnessError::BadClientSeed(_))
        ));
        f.client_seeds.p2 = None;
        assert_eq!(
            f.match_seed(),
            Err(FairnessError::MissingClientSeed(Seat::P2))
        );
        f.server_seed = None;
        assert_eq!(f.match_seed(), Err(FairnessError::NoServerSeed));
    }

    fn setup() -> Setup {
        let mut options = crate::RawOptions::new();
        options.insert("cards".into(), serde_json::json!("5"));
        options.insert("b".into(), serde_json::json!({"z": 1, "a": [true, null]}));
        Setup {
            game: "goofspiel".into(),
            options,
            p1: SeatSetup::human(),
            p2: SeatSetup {
                kind: SeatKind::Bot,
                bot: Some("mcts:iters=300".into()),
                settings: Some("mcts:iters=300,algo=rm".into()),
                time_budget: false,
            },
            time: serde_json::json!({"kind": "timed", "per_decision_ms": 60000, "bank_ms": 0}),
            sealed: false,
            practice: false,
            replay_on_draw: false,
            advantage: Some(Seat::P1),
            trivia: None,
        }
    }

    #[test]
    fn the_setup_text_is_canonical_and_the_commitment_its_sha256_with_the_server_seeds_hash() {
        let server = "ab".repeat(32);
        let fair = Fairness::committed(setup(), &server);
        let hash = commitment(&server).unwrap();
        let text = format!(
            "colosseum-setup=2\ngame=goofspiel\noptions={{\"b\":{{\"a\":[true,null],\"z\":1}},\"cards\":\"5\"}}\n\
             p1=human\np2=bot mcts:iters=300 settings=mcts:iters=300,algo=rm time_budget=no\n\
             time={{\"bank_ms\":0,\"kind\":\"timed\",\"per_decision_ms\":60000}}\n\
             sealed=no\npractice=no\nreplay_on_draw=no\nadvantage=p1\ntrivia=none\n\
             server_seed_sha256={hash}\n"
        );
        assert_eq!(fair.committed_text().unwrap(), text);
        assert_eq!(fair.commitment, sha256_hex(text.as_bytes()));
        assert_eq!(fair.server_seed_hash.as_deref(), Some(hash.as_str()));
        assert_eq!(fair.version, 2);
        // The bot seat is recorded as the setup names it.
        assert_eq!(fair.bots.p2.as_deref(), Some("mcts:iters=300"));
        assert_eq!(
            fair.bot_settings.p2.as_deref(),
            Some("mcts:iters=300,algo=rm")
        );
        assert!(fair.bots.p1.is_none());
        // A version 2 fairness says so in JSON; a version 1 one does not (as old records).
        let json = serde_json::to_value(&fair).unwrap();
        assert_eq!(json["version"], 2);
        let old = Fairness::default();
        assert!(serde_json::to_value(&old).unwrap().get("version").is_none());
        let back: Fairness = serde_json::from_str(r#"{"commitment": "x"}"#).unwrap();
        assert_eq!(back.version, 1);
    }

    #[test]
    fn a_version_two_seed_takes_the_committed_human_seeds_and_nothing_for_a_bot() {
        let server = "cd".repeat(32);
        let mut fair = Fairness::committed(setup(), &server);
        let mine = "my-client-seed-0123";
        fair.client_seed_hashes.p1 = Some(client_seed_hash(mine));
        fair.client_seeds.p1 = Some(mine.into());
        assert_eq!(fair.match_seed().unwrap(), derive_seed(&server, mine, ""));
        // A seed that is not the one committed to.
        let mut other = fair.clone();
        other.client_seeds.p1 = Some("another-seed-01234".into());
        assert!(matches!(
            other.match_seed(),
            Err(FairnessError::ClientSeedMismatch { seat: Seat::P1, .. })
        ));
        // A bot seat given a client seed.
        let mut other = fair.clone();
        other.client_seeds.p2 = Some("bot-seed-000000000".into());
        assert_eq!(
            other.match_seed(),
            Err(FairnessError::BotClientSeed(Seat::P2))
        );
        // The setup changed after the commitment.
        let mut other = fair.clone();
        other.setup.as_mut().unwrap().p2 = SeatSetup::human();
        assert!(matches!(
            other.match_seed(),
            Err(FairnessError::SetupMismatch { .. })
        ));
        // Another server seed.
        let mut other = fair;
        other.server_seed = Some("00".repeat(32));
        assert!(matches!(
            other.match_seed(),
            Err(FairnessError::CommitmentMismatch { .. })
        ));
    }

    #[test]
    fn a_default_moves_seed_is_the_first_eight_bytes_of_its_text() {
        let digest = sha256_hex(b"default:42:1:7:p2");
        let expected = u64::from_str_radix(&digest[..16], 16).unwrap();
        assert_eq!(default_move_seed(42, 1, 7, Seat::P2), expected);
        assert_ne!(
            default_move_seed(42, 1, 7, Seat::P2),
            default_move_seed(42, 1, 7, Seat::P1)
        );
    }

    #[test]
    fn revealed_seeds_are_long_enough_and_hashes_are_lowercase_hex() {
        assert!(check_revealed_seed("0123456789abcdef").is_ok());
        assert!(check_revealed_seed("0123456789abcde").is_err());
        assert!(is_sha256_hex(&sha256_hex(b"x")));
        assert!(!is_sha256_hex(&sha256_hex(b"x").to_uppercase()));
        assert!(!is_sha256_hex("abc"));
    }

    #[test]
    fn client_seeds_are_checked() {
        for ok in ["a", "0123abcDEF", "x_y.z-1", &"a".repeat(64)] {
            assert!(check_client_seed(ok).is_ok(), "{ok}");
        }
        for bad in ["", "a b", "a:b", "é", &"a".repeat(65), "a\n"] {
            assert!(check_client_seed(bad).is_err(), "{bad:?}");
        }
    }
}
