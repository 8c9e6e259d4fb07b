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
//! from the parent for a quiet move or a capture, king moves left out),
//! `king` (an update for a king move: with king buckets, one that changes
//! the king's bucket or mirroring, so that side is recomputed), `output`
//! (the output layer on a computed accumulator), `handwritten` (the
//! hand-written evaluation, for comparison). The positions are the
//! benchmark's sample (`tests/common`); the network is the embedded one,
//! or the network file named after ROUNDS (to compare, say, a network
//! with output buckets), or `random:LAYOUT` for a network of random
//! weights with the named king-bucket layout (`random:mirrored6`; the cost
//! does not depend on the weights).

#[path = "../tests/common/mod.rs"]
mod common;

use shuai_board::{PieceKind, Position};
use shuai_eval::nnue::{
    default_network, evaluate, Accumulator, Change, KingBuckets, Network, HIDDEN,
};
use std::hint::black_box;
use std::process::ExitCode;

/// A position, its accumulators and one of its moves.
struct Case {
    pos: Position,
    acc: Accumulator,
    change: Change,
}

/// The kind of move a case plays.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Quiet,
    Capture,
    King,
}

fn cases(net: &Network, positions: &[Position], kind: Kind) -> Vec<Case> {
    positions
        .iter()
        .filter_map(|pos| {
            let moves = match kind {
                Kind::Capture => pos.legal_captures(),
                _ => pos.legal_quiets(),
            };
            let is_king = |m: &shuai_board::Move| {
                pos.piece_at(m.from()).map(|p| p.kind()) == Some(PieceKind::King)
            };
            let m = *moves
                .as_slice()
                .iter()
                .find(|m| is_king(m) == (kind == Kind::King))?;
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
            "usage: nnue_cost refresh|quiet|capture|king|output|handwritten ROUNDS \
             [NETWORK.nnue|random:LAYOUT]"
        );
        return ExitCode::from(2);
    };
    let file_net = match args.get(3).map(|path| match path.strip_prefix("random:") {
        Some(layout) => random_network(layout),
        None => {
            let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
        }
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
    let kind = match mode.as_str() {
        "capture" => Kind::Capture,
        "king" => Kind::King,
        _ => Kind::Quiet,
    };
    let cases = cases(net, &positions, kind);
    let sum = match mode.as_str() {
        "refresh" => measure_refresh(net, &cases, rounds),
        "quiet" | "capture" | "king" => measure_update(net, &cases, rounds),
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

/// A network of small pseudo-random weights with the king-bucket layout
/// named `layout` ([`KingBuckets::NAMED`]) and one output bucket.
fn random_network(layout: &str) -> Result<Network, String> {
    let king = KingBuckets::by_name(layout).ok_or_else(|| format!("no layout {layout}"))?;
    let mut rng = common::Rng::new(1);
    let mut next = |range: u64| (rng.next_u64() % (2 * range + 1)) as i64 - range as i64;
    let ft = (0..king.inputs() * HIDDEN)
        .map(|_| next(100) as i16)
        .collect();
    let bias = (0..HIDDEN).map(|_| next(300) as i16).collect();
    let out = (0..2 * HIDDEN).map(|_| next(4000) as i16).collect();
    Network::from_parts_with_king_buckets(king, ft, bias, out, vec![0], "random")
        .map_err(|e| e.to_string())
}
