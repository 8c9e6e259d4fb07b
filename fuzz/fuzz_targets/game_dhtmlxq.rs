//! DhtmlXQ game text (`engine/src/game/dhtmlxq.rs`): any text holding a
//! `[DhtmlXQ` tag read as games, and the games' lines walked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shuai_engine::game::{detect, read_games, Format};

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    if detect(&bytes) != Format::DhtmlXq {
        bytes.splice(0..0, b"[DhtmlXQ]".iter().copied());
    }
    if bytes.starts_with(b"XQ") {
        // Would be read as XQF.
        return;
    }
    shuai_fuzz::walk(read_games(&bytes));
});
