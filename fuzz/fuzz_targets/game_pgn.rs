//! PGN game files (`engine/src/game/pgn.rs`): any text (UTF-8 or GB18030)
//! read as games, and the games' lines walked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shuai_engine::game::{detect, read_games, Format};

fuzz_target!(|data: &[u8]| {
    // Inputs the other two readers take are theirs.
    if detect(data) != Format::Pgn {
        return;
    }
    shuai_fuzz::walk(read_games(data));
});
