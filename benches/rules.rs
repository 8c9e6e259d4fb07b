//! Criterion benchmarks of the repetition rules (`shuai_board::rules`):
//! what one call costs the search (`repetition_result` at two
//! occurrences, on every repetition it meets) and the referee
//! (`judge_repetition_n` with its explanation, `judge_game_end`).
//!
//! The positions are the 31 reference cases of
//! `board/tests/data/repetition-cases.tsv` (threefold repetitions), two
//! short cycles of the kind the search meets, and a position without a
//! repetition, the common case. `cargo bench --bench rules`; over the
//! reference cases the throughput is per position, so one call costs
//! 1 / (Kelem/s) milliseconds.

#[path = "../board/tests/common/mod.rs"]
mod common;

use common::play;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use shuai_board::rules::{judge_game_end, judge_repetition_n, repetition_result};
use shuai_board::{Position, START_FEN};

/// The natural-move limit the referee calls `judge_game_end` with.
const NATURAL_LIMIT: u32 = 120;

/// The reference cases, each played to its third occurrence.
fn reference_cases() -> Vec<Position> {
    include_str!("../board/tests/data/repetition-cases.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            play(f[1], f[2])
        })
        .collect()
}

fn reference(c: &mut Criterion) {
    let cases = reference_cases();
    let mut group = c.benchmark_group("reference_cases");
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("repetition_result", |b| {
        b.iter(|| {
            for pos in &cases {
                black_box(repetition_result(black_box(pos), 3));
            }
        })
    });
    group.bench_function("judge_repetition", |b| {
        b.iter(|| {
            for pos in &cases {
                black_box(judge_repetition_n(black_box(pos), 3));
            }
        })
    });
    group.bench_function("judge_game_end", |b| {
        b.iter(|| {
            for pos in &cases {
                black_box(judge_game_end(black_box(pos), NATURAL_LIMIT));
            }
        })
    });
    group.finish();
}

fn search_cycles(c: &mut Criterion) {
    let cycles = [
        (
            "start_horses_out_and_back",
            play(START_FEN, "b0c2 b9c7 c2b0 c7b9"),
        ),
        (
            "middlegame_rooks_shuffle",
            play(
                "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN3NC1/9/R1BAKABR1 w",
                "a0a1 a9a8 a1a0 a8a9",
            ),
        ),
    ];
    let mut group = c.benchmark_group("repetition_result_twofold");
    for (name, pos) in &cycles {
        group.bench_function(*name, |b| b.iter(|| repetition_result(black_box(pos), 2)));
    }
    group.finish();
}

fn no_repetition(c: &mut Criterion) {
    let pos = play(START_FEN, "h2e2 h9g7 h0g2 i9h9");
    c.bench_function("no_repetition/judge_game_end+repetition_result", |b| {
        b.iter(|| {
            black_box(judge_game_end(black_box(&pos), NATURAL_LIMIT));
            black_box(repetition_result(black_box(&pos), 2))
        })
    });
}

criterion_group!(benches, reference, search_cycles, no_repetition);
criterion_main!(benches);
