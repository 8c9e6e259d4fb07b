//! XQF game files (`engine/src/game/xqf.rs`): any bytes after the `XQ`
//! mark read as a game, and the game's lines walked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shuai_engine::game::{read_games, Format};

fuzz_target!(|data: &[u8]| {
    let mut bytes = b"XQ".to_vec();
    bytes.extend_from_slice(data.strip_prefix(b"XQ").unwrap_or(data));
    assert_eq!(shuai_engine::game::detect(&bytes), Format::Xqf);
    shuai_fuzz::walk(read_games(&bytes));
});
