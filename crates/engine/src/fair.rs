//! Provably fair chance: a hosted match's seed comes from a server seed the server committed to
//! before the seats chose theirs, so neither the server nor a player can aim chance.
//!
//! * At creation the server draws a 32-byte **server seed** and publishes only its
//!   **commitment**: the lowercase hex SHA-256 of the seed's 32 bytes.
//! * Each seat adds a **client seed** when it joins (1 to 64 characters of `A-Z a-z 0-9 _ . -`).
//! * The match seed is the first 8 bytes, read big-endian, of the SHA-256 of the text
//!   `SERVER_SEED_HEX:P1_CLIENT_SEED:P2_CLIENT_SEED`. Every chance step of game `n` of the match
//!   is drawn, in order, from `ChaCha8(seed)`, as [`crate::replay`] draws missing chance.
//! * When the match ends the record carries the server seed, and anyone can check it:
//!
//! ```sh
//! printf '%s' SERVER_SEED_HEX | xxd -r -p | sha256sum             # the commitment
//! printf '%s:%s:%s' SERVER_SEED_HEX P1_SEED P2_SEED | sha256sum   # first 16 hex digits = seed
//! ```
//!
//! Pure: no clock, no I/O; the caller draws the server seed.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::seat::Seat;

/// The longest client seed.
pub const MAX_CLIENT_SEED: usize = 64;

/// What makes a hosted match's chance checkable afterwards (the record's `fairness`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fairness {
    /// The SHA-256 of the server seed's 32 bytes, lowercase hex, published at creation.
    pub commitment: String,
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
    /// are not the seat's own choice, so a bot's move there is not re-derived.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaults: Vec<DefaultMove>,
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
    /// A seat has no client seed.
    #[error("{0} has no client seed")]
    MissingClientSeed(Seat),
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

/// The match seed from the server seed (hex) and the two client seeds.
#[must_use]
pub fn derive_seed(server_seed_hex: &str, p1: &str, p2: &str) -> u64 {
    let digest = Sha256::digest(format!("{server_seed_hex}:{p1}:{p2}").as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

impl Fairness {
    /// Checks the server seed against the commitment and the client seeds, and gives the match
    /// seed they make.
    pub fn match_seed(&self) -> Result<u64, FairnessError> {
        let server = self
            .server_seed
            .as_deref()
            .ok_or(FairnessError::NoServerSeed)?;
        let actual = commitment(server)?;
        if actual != self.commitment {
            return Err(FairnessError::CommitmentMismatch {
                actual,
                committed: self.commitment.clone(),
            });
        }
        let mut seeds = [""; 2];
        for seat in Seat::BOTH {
            let s = self
                .client_seeds
                .get(seat)
                .ok_or(FairnessError::MissingClientSeed(seat))?;
            check_client_seed(s)?;
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
