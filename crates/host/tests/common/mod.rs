//! Helpers the host's test files share.

use serde_json::Value;

/// Every string anywhere in `v` (keys excluded), appended to `out`: what a view lets through.
pub fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}
