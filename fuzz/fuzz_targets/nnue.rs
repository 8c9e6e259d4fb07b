//! NNUE network files (`eval/src/nnue/network.rs`, the `EvalFile`
//! option): any bytes read as a network.
//!
//! A complete network is 647 kB of parameters for one fixed architecture,
//! guarded by a hash, so the inputs here are the header and what follows
//! up to `-max_len` bytes: the magic, the version, the architecture
//! fields, the king-bucket table, the description and the parameter
//! length check. The seeds are headers of real files of every version.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shuai_eval::nnue::network::Network;

fuzz_target!(|data: &[u8]| {
    if let Ok(net) = Network::from_bytes(data) {
        // Only a whole file gets here: it must evaluate.
        let _ = net.evaluate(&shuai_board::Position::startpos());
    }
});
