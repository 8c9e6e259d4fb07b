//! The cost of one NNUE operation, in a form callgrind can count
//! independent of the machine's load:
//!
//! ```sh
//! cargo build --release -p shuai-eval --example nnue_cost
//! valgrind --tool=callgrind --toggle-collect='nnue_cost::measure*' \
//!     target/release/examples/nnue_cost refresh 20
//! ```
//!
//! Only the `measure_*` functions are counted; the instructions counted
//! divided by the calls printed is the cost of one call. Modes: `refresh`
//! (both perspectives from scratch), `quiet` and `capture` (an update
//! from the parent for a quiet move or a capture), `output` (the output
//! layer on a computed accumulator), `handwritten` (the hand-written
//! evaluation, for comparison). The positions are the benchmark's sample
//! (`tests/common`); the network is the embedded one, or the network file
//! named after ROUNDS (to compare, say, a network with output buckets).

#[path = "../tests/common/mod.rs"]
mod common;

use shuai_board::Position;
use shuai_eval::nnue::{default_network, evaluate, Accumulator, Change, Network};
use std::hint::black_box;
use std::process::ExitCode;

/// A position, its accumulators and one of its moves.
struct Case {
    pos: Position,
    acc: Accumulator,
    change: Change,
}

fn cases(net: &Network, positions: &[Position], captures: bool) -> Vec<Case> {
    positions
        .iter()
        .filter_map(|pos| {
            let moves = if captures {
                pos.legal_captures()
            } else {
                pos.legal_quiets()
            };
            let m = *moves.as_slice().first()?;
            Some(Case {
                pos: pos.clone(),
                acc: Accumulator::new(net, pos),
                change: Change::of_move(pos, m)?,
            })
        })
        .collect()
}

#[inline(never)]
fn measure_refresh(net: &Network, cases: &[Case], rounds: usize) -> i64 {
    let mut acc = Accumulator::default();
    let mut sum = 0i64;
    for _ in 0..rounds {
        for c in cases {
            acc.refresh(net, black_box(&c.pos));
            sum += i64::from(acc.values(shuai_board::Color::Red)[0]);
        }
    }
    sum
}

#[inline(never)]
fn measure_update(net: &Network, cases: &[Case], rounds: usize) -> i64 {
    let mut acc = Accumulator::default();
    let mut sum = 0i64;
    for _ in 0..rounds {
        for c in cases {
            acc.update(black_box(&c.acc), net, black_box(&c.change));
            sum += i64::from(acc.values(shuai_board::Color::Red)[0]);
        }
    }
    sum
}

#[inline(never)]
fn measure_output(net: &Network, cases: &[Case], rounds: usize) -> i64 {
    let mut sum = 0i64;
    for _ in 0..rounds {
        for c in cases {
            sum += i64::from(evaluate(net, black_box(&c.acc), c.pos.side_to_move()));
        }
    }
    sum
}

#[inline(never)]
fn measure_handwritten(cases: &[Case], rounds: usize) -> i64 {
    let mut sum = 0i64;
    for _ in 0..rounds {
        for c in cases {
            sum += i64::from(shuai_eval::evaluate(black_box(&c.pos)));
        }
    }
    sum
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(mode), Some(rounds)) = (
        args.get(1),
        args.get(2).and_then(|r| r.parse::<usize>().ok()),
    ) else {
        eprintln!(
            "usage: nnue_cost refresh|quiet|capture|output|handwritten ROUNDS [NETWORK.nnue]"
        );
        return ExitCode::from(2);
    };
    let file_net = match args.get(3).map(|path| {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    }) {
        None => None,
        Some(Ok(net)) => Some(net),
        Some(Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let net = file_net.as_ref().unwrap_or_else(|| default_network());
    let positions = common::sample_positions(400);
    let cases = cases(net, &positions, mode == "capture");
    let sum = match mode.as_str() {
        "refresh" => measure_refresh(net, &cases, rounds),
        "quiet" | "capture" => measure_update(net, &cases, rounds),
        "output" => measure_output(net, &cases, rounds),
        "handwritten" => measure_handwritten(&cases, rounds),
        _ => {
            eprintln!("unknown mode {mode}");
            return ExitCode::from(2);
        }
    };
    println!("{mode}: {} calls (checksum {sum})", rounds * cases.len());
    ExitCode::SUCCESS
}
