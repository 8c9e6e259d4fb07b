//! Perft output in the Stockfish convention: one `<move>: <count>` line per
//! root move, a blank line, then `Nodes searched: <N>`.

use shuai_board::{perft_divide, Position};
use std::io::{self, Write};
use std::time::Instant;

/// Runs perft to `depth` on `pos` and writes the per-move split and total to
/// `out`. Returns the total; timing goes to the log, not to `out`.
pub fn run(pos: &mut Position, depth: u32, out: &mut impl Write) -> io::Result<u64> {
    let start = Instant::now();
    let split = perft_divide(pos, depth);
    let mut total = 0;
    for (m, n) in &split {
        writeln!(out, "{m}: {n}")?;
        total += n;
    }
    let total = if depth == 0 { 1 } else { total };
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    out.flush()?;
    let secs = start.elapsed().as_secs_f64();
    log::info!(
        "perft {depth}: {total} nodes in {secs:.3} s ({:.1} Mnps)",
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(total)
}
