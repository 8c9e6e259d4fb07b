//! Criterion benchmarks of the board crate: legal move generation on five
//! positions, make+unmake, and perft(4) from the start position.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use shuai_board::{perft, Position};

const POSITIONS: [(&str, &str); 5] = [
    (
        "start",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "middlegame",
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    ),
    (
        "tactical",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    ),
    (
        "in-check",
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    ),
    ("endgame", "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1"),
];

fn legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).expect("bench FENs are valid");
        group.bench_function(name, |b| b.iter(|| black_box(&pos).legal_moves().len()));
    }
    group.finish();
}

fn make_unmake(c: &mut Criterion) {
    let mut pos = Position::from_fen(POSITIONS[1].1).expect("valid");
    let moves = pos.legal_moves();
    c.bench_function("make_unmake_all_moves_middlegame", |b| {
        b.iter(|| {
            for &m in moves.iter() {
                pos.make_move(black_box(m));
                pos.unmake_move();
            }
        })
    });
}

fn perft_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let mut pos = Position::startpos();
    group.bench_function("start_depth_4", |b| {
        b.iter(|| perft(&mut pos, black_box(4)))
    });
    group.finish();
}

criterion_group!(benches, legal_moves, make_unmake, perft_start);
criterion_main!(benches);
