//! `cargo run --release -p shuai-board --example perft -- 5 [FEN]`: a bare
//! perft timer for profiling the board crate without the engine around it.

use shuai_board::{perft, Position};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen = args.collect::<Vec<_>>().join(" ");
    let mut pos = if fen.is_empty() {
        Position::startpos()
    } else {
        match Position::from_fen(&fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad FEN: {e}");
                std::process::exit(2);
            }
        }
    };
    let start = Instant::now();
    let nodes = perft(&mut pos, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{nodes} nodes in {secs:.3} s ({:.1} Mnps)",
        nodes as f64 / secs / 1e6
    );
}
