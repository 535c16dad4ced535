//! Arbitrary bytes as a match record: load, replay, look at the game reached. Must never panic;
//! see `colosseum_fuzz::record` for what else it asserts.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| colosseum_fuzz::record(data));
