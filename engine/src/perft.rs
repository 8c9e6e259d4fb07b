//! Perft output in the Stockfish convention: one `<move>: <count>` line per
//! root move, a blank line, then `Nodes searched: <N>`.

use shuai_board::{perft_divide_until, Position};
use shuai_search::host::Instant;
use std::sync::atomic::AtomicBool;

/// Runs perft to `depth` on `pos`, handing `emit` each root move's line as
/// soon as it is counted, then a blank line and the total. When `stop` is
/// set (from another thread) it gives up soon after, emits nothing more
/// and returns `None`; otherwise it returns the total. Timing goes to the
/// log, not to `emit`.
pub fn run(
    pos: &mut Position,
    depth: u32,
    stop: &AtomicBool,
    emit: &mut dyn FnMut(&str),
) -> Option<u64> {
    let start = Instant::now();
    let mut total = 0;
    let finished = perft_divide_until(pos, depth, stop, |m, n| {
        emit(&format!("{m}: {n}"));
        total += n;
    });
    if !finished {
        log::info!(
            "perft {depth} stopped after {:.3} s",
            start.elapsed().as_secs_f64()
        );
        return None;
    }
    let total = if depth == 0 { 1 } else { total };
    emit("");
    emit(&format!("Nodes searched: {total}"));
    let secs = start.elapsed().as_secs_f64();
    log::info!(
        "perft {depth}: {total} nodes in {secs:.3} s ({:.1} Mnps)",
        total as f64 / secs.max(1e-9) / 1e6
    );
    Some(total)
}
