//! Criterion benchmarks of the evaluation: `evaluate` over a few hundred
//! varied positions (openings, middlegames and endings from random games),
//! reported per position, plus the start position alone and `trace`.
//!
//! `cargo bench -p shuai-eval` prints the time of one pass over the sample
//! and its throughput; one call costs 1000 / (Melem/s) nanoseconds.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use shuai_board::Position;

const SAMPLE: usize = 400;

fn evaluate(c: &mut Criterion) {
    let positions = common::sample_positions(SAMPLE);
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("sample", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for pos in &positions {
                sum += shuai_eval::evaluate(black_box(pos)) as i64;
            }
            sum
        })
    });
    group.finish();

    let start = Position::startpos();
    c.bench_function("evaluate/start", |b| {
        b.iter(|| shuai_eval::evaluate(black_box(&start)))
    });
    c.bench_function("trace/start", |b| {
        b.iter(|| shuai_eval::trace(black_box(&start)))
    });
}

criterion_group!(benches, evaluate);
criterion_main!(benches);
