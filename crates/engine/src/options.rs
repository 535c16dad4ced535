//! Reading a game's options from JSON once, into a checked type, with precise errors.

use serde_json::{Map, Value};

use crate::error::OptionsError;

/// A game's options as they arrive: a JSON object of name → value.
pub type RawOptions = Map<String, Value>;

/// Documentation of one option, shown by `colosseum rules` and the lobby.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct OptionDoc {
    /// The option's name, as written in records and on the command line.
    pub name: &'static str,
    /// The default, as written.
    pub default: &'static str,
    /// The values allowed, in words.
    pub allowed: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// Takes options out of a [`RawOptions`] one by one; [`OptionReader::finish`] then refuses any
/// option that no one asked for, so a typo never passes silently.
///
/// Values may be JSON numbers/strings/booleans or strings of them (`"8"` for `8`), because the
/// command line passes `name=value` text.
#[derive(Debug)]
pub struct OptionReader<'a> {
    raw: &'a RawOptions,
    docs: &'static [OptionDoc],
}

impl<'a> OptionReader<'a> {
    /// Starts reading `raw` for a game whose options are `docs`.
    #[must_use]
    pub fn new(raw: &'a RawOptions, docs: &'static [OptionDoc]) -> Self {
        OptionReader { raw, docs }
    }

    fn bad(&self, name: &str, value: &Value) -> OptionsError {
        let allowed = self
            .docs
            .iter()
            .find(|d| d.name == name)
            .map_or("see the game's rules page", |d| d.allowed);
        OptionsError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
            allowed: allowed.to_string(),
        }
    }

    /// An integer option in `min..=max`, or `default` when absent.
    pub fn int(&self, name: &str, default: i64, min: i64, max: i64) -> Result<i64, OptionsError> {
        let Some(value) = self.raw.get(name) else {
            return Ok(default);
        };
        let n = match value {
            Value::Number(n) => n.as_i64(),
            Value::String(s) => s.trim().parse::<i64>().ok(),
            _ => None,
        };
        match n {
            Some(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(self.bad(name, value)),
        }
    }

    /// A number option in `min..=max`, or `default` when absent.
    pub fn float(&self, name: &str, default: f64, min: f64, max: f64) -> Result<f64, OptionsError> {
        let Some(value) = self.raw.get(name) else {
            return Ok(default);
        };
        let n = match value {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().parse::<f64>().ok(),
            _ => None,
        };
        match n {
            Some(n) if n >= min && n <= max => Ok(n),
            _ => Err(self.bad(name, value)),
        }
    }

    /// A boolean option (`true`/`false`, also as text, or `on`/`off`), or `default` when absent.
    pub fn bool(&self, name: &str, default: bool) -> Result<bool, OptionsError> {
        let Some(value) = self.raw.get(name) else {
            return Ok(default);
        };
        match value {
            Value::Bool(b) => Ok(*b),
            Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "on" | "yes" => Ok(true),
                "false" | "off" | "no" => Ok(false),
                _ => Err(self.bad(name, value)),
            },
            _ => Err(self.bad(name, value)),
        }
    }

    /// One of `choices` (case-insensitive), returned as its index; `default` when absent.
    pub fn choice(
        &self,
        name: &str,
        default: usize,
        choices: &[&str],
    ) -> Result<usize, OptionsError> {
        let Some(value) = self.raw.get(name) else {
            return Ok(default);
        };
        let Value::String(s) = value else {
            return Err(self.bad(name, value));
        };
        let s = s.trim().to_ascii_lowercase();
        choices
            .iter()
            .position(|c| *c == s)
            .ok_or_else(|| self.bad(name, value))
    }

    /// Refuses any option the game does not document.
    pub fn finish(self) -> Result<(), OptionsError> {
        for name in self.raw.keys() {
            if !self.docs.iter().any(|d| d.name == name) {
                let allowed = if self.docs.is_empty() {
                    "(none)".to_string()
                } else {
                    self.docs
                        .iter()
                        .map(|d| d.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                return Err(OptionsError::Unknown {
                    name: name.clone(),
                    allowed,
                });
            }
        }
        Ok(())
    }
}

/// Turns `name=value` pairs (from the command line) into [`RawOptions`]. Integers, numbers and
/// booleans become JSON values of their kind; anything else stays text.
pub fn parse_pairs<'s>(
    pairs: impl IntoIterator<Item = &'s str>,
) -> Result<RawOptions, OptionsError> {
    let mut raw = RawOptions::new();
    for pair in pairs {
        let Some((name, value)) = pair.split_once('=') else {
            return Err(OptionsError::BadValue {
                name: pair.to_string(),
                value: "(missing)".to_string(),
                allowed: "write options as name=value, for example cards=8".to_string(),
            });
        };
        let value = value.trim();
        let json = if let Ok(i) = value.parse::<i64>() {
            Value::from(i)
        } else if let Ok(b) = value.parse::<bool>() {
            Value::from(b)
        } else if let Some(f) = value.parse::<f64>().ok().filter(|f| f.is_finite()) {
            Value::from(f)
        } else {
            Value::from(value)
        };
        raw.insert(name.trim().to_string(), json);
    }
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOCS: &[OptionDoc] = &[
        OptionDoc {
            name: "cards",
            default: "13",
            allowed: "an integer from 1 to 52",
            help: "",
        },
        OptionDoc {
            name: "order",
            default: "random",
            allowed: "random, descending or ascending",
            help: "",
        },
    ];

    #[test]
    fn reads_values_and_defaults() {
        let raw = parse_pairs(["cards=8", "order=Descending"]).unwrap();
        let r = OptionReader::new(&raw, DOCS);
        assert_eq!(r.int("cards", 13, 1, 52).unwrap(), 8);
        assert_eq!(r.choice("order", 0, &["random", "descending"]).unwrap(), 1);
        r.finish().unwrap();
        let empty = RawOptions::new();
        assert_eq!(
            OptionReader::new(&empty, DOCS)
                .int("cards", 13, 1, 52)
                .unwrap(),
            13
        );
    }

    #[test]
    fn refuses_out_of_range_and_unknown() {
        let raw = parse_pairs(["cards=99", "cardz=3"]).unwrap();
        let r = OptionReader::new(&raw, DOCS);
        let e = r.int("cards", 13, 1, 52).unwrap_err();
        assert_eq!(
            e.to_string(),
            "option `cards` = 99 is not allowed: an integer from 1 to 52"
        );
        let e = r.finish().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown option `cardz`; this game's options are: cards, order"
        );
        assert!(parse_pairs(["cards"]).is_err());
    }
}
