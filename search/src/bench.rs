//! `shuai bench`: a fixed set of positions searched to a fixed depth on
//! one thread. The total node count is the search's signature: the same
//! build always prints the same number, and a change that alters it says
//! so (`Bench: N` in the commit message).

use crate::host::Instant;
use crate::{Control, Limits, Searcher};
use shuai_board::Position;
use shuai_eval::nnue::Network;
use std::sync::Arc;
use std::time::Duration;

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

/// The search's signature: the node total of [`run`] at
/// [`DEFAULT_DEPTH`] on one thread with the built-in network. Every change
/// to the search that alters it updates it here, in README.md (which
/// `.ci/run` checks against this line) and in its commit message.
pub const SIGNATURE: u64 = 1031352;

/// The same total with the hand-written evaluation (`shuai bench --hce`).
pub const HCE_SIGNATURE: u64 = 1722967;

/// Bench positions: openings, middlegames, tactical positions and endings
/// (the perft reference positions plus book openings).
pub const POSITIONS: [&str; 50] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "9/4k4/9/7P1/9/5p3/9/1R7/5K3/2R6 w - - 27 60",
    "6P2/9/3k4r/9/5n3/9/9/1p7/9/4K4 b - - 13 77",
    "2bak1b2/4a3r/9/4p4/n8/P1B3N2/2P1P1P2/8R/4A4/3A1KB2 w - - 3 26",
    "1rna1a3/7r1/1P2k3b/4p1p2/9/6P2/4P4/3A5/2NK2c2/9 w - - 3 38",
    "3k5/9/9/2R6/9/2p5P/2P3P2/9/4K4/p8 b - - 4 54",
    "3k1a3/9/9/9/R7P/2P6/1C7/3AB4/9/2BA1K3 b - - 6 77",
    "1n4bcr/5k3/3a1c3/9/6p1p/3N5/4p1P2/3A4B/9/4K4 b - - 9 47",
    "1nbk1abn1/4a4/5c3/2p1p1p2/9/9/2P1P4/N5N2/3CK4/R2A1AB2 w - - 2 16",
    "5a3/9/3k5/9/2b6/6B2/6P2/5K3/9/4p2C1 b - - 19 59",
    "9/4k4/9/2p6/2b6/5r3/7p1/5A3/5K3/9 b - - 9 52",
    "9/9/4k3b/9/9/9/9/5A3/9/4NK3 b - - 9 72",
    "3a5/9/b2a1k3/9/9/9/4p4/B4A1p1/5K3/9 b - - 17 49",
    "r1ba1kb1r/9/2nc5/p1p1p1p1p/9/8P/P1P1P1P2/1C6B/9/RcBAKA1NR w - - 0 5",
    "2C6/5k3/9/9/6P2/2P6/9/B2R5/3K5/1R3A1N1 w - - 39 56",
    "5ar2/4k4/4b4/4R4/7N1/4p3P/p7N/9/4A4/5K3 b - - 22 45",
    "4ka3/9/5a3/7P1/9/1RP6/4p4/9/9/2BK1A3 b - - 43 59",
    "9/4k4/9/p5p1p/9/P3P4/8r/4B4/9/3A1Kc2 b - - 1 27",
    "5a3/3n1k3/3a5/9/2b2nb1p/3p5/9/9/9/4K4 b - - 5 44",
    "9/3ka4/9/9/9/9/5p3/9/4K4/3r5 b - - 21 71",
    "4kabnr/9/b5c2/C1p1p1p1p/9/9/P1P3P1P/9/4cC3/RNBAKABNR w - - 1 7",
    "9/3n5/b3k4/2p1p3p/9/8P/2P3C2/2NR4p/4K4/2BA1AB2 w - - 5 37",
    "1cb1kabn1/9/rr7/p1C1p1p1p/9/9/P1P1P1P1P/9/9/RNBAKABcR w - - 1 8",
    "5a3/5k3/b2n5/9/9/n8/9/4B4/4K4/9 b - - 11 66",
    "9/5k3/9/4R4/9/2B2p3/9/9/9/5KB2 b - - 16 55",
    "2b6/2C2k3/9/9/p1b6/4P1P2/P1PR4P/4B3N/9/R3KAB2 w - - 1 25",
    "2b2k3/7R1/9/9/9/9/P8/4B4/4A4/4K4 b - - 20 52",
    "P8/3k4P/9/9/9/9/9/3AK4/9/9 w - - 41 79",
    "2R6/9/3ak4/9/4P4/9/7NP/4K4/4A4/6B2 b - - 15 48",
    "5k3/4a4/3ab4/1P6p/5C3/8P/5p3/5A3/9/1NBAK2N1 b - - 5 36",
    "2P6/3k5/3a4b/9/9/4p4/9/3K5/7p1/9 b - - 9 68",
    "rnbakabnr/9/1c5c1/pC2p1p1p/2p6/9/P1P1P1P1P/C8/9/RNBAKABNR b - - 3 2",
    "rnbakab1r/9/1c5cn/p1p1p1p1p/9/7C1/P1P1P1P1P/2C6/9/RNBAKABNR b - - 3 2",
    "rnbakabnr/9/1cc6/p1p1p1p1p/9/9/P1P1P1P1P/NC2C4/9/R1BAKABNR b - - 3 2",
    "r1bakabnr/9/nc5c1/pCp1p1p1p/7C1/9/P1P1P1P1P/9/9/RNBAKABNR b - - 3 2",
    "rn1akabnr/9/bc5c1/p1p1p1p1p/9/9/P1P1P1P1P/C6CR/9/RNBAKABN1 b - - 3 2",
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/2C4C1/R8/1NBAKABNR b - - 3 2",
];

/// Result of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-3)) as u64
    }
}

/// Searches every bench position in turn to `depth` with `threads` threads
/// and a fresh 16 MiB table (kept from one position to the next, as in a
/// game), evaluating with `network` if given (else the hand-written
/// evaluation), calling `each` with the position's index, best move and
/// node count. With one thread the node total is deterministic; with more
/// it is not.
pub fn run(
    depth: u32,
    threads: usize,
    network: Option<Arc<Network>>,
    each: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let mut searcher = Searcher::new(16);
    searcher.set_threads(threads);
    searcher.set_network(network);
    run_on(&mut searcher, depth, each)
}

/// [`run`] on a searcher the caller has set up: its table, threads,
/// evaluation and search constants (a `tune` build's options, say), so
/// that the protocol's `bench` measures the settings the engine plays
/// with.
pub fn run_on(
    searcher: &mut Searcher,
    depth: u32,
    mut each: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let start = Instant::now();
    let mut nodes = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        let result = searcher.search(&pos, &Limits::depth(depth), &Control::new(), &|_| {});
        nodes += result.nodes;
        let best = result
            .best_move
            .map_or_else(|| "(none)".to_string(), |m| m.to_string());
        each(i, &best, result.nodes);
    }
    BenchResult {
        nodes,
        time: start.elapsed(),
    }
}
