//! A selector and a text, tried as a move and a chance outcome on every game. Must never panic,
//! and an accepted text's canonical form must be accepted again; see `colosseum_fuzz::notation`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| colosseum_fuzz::notation(data));
