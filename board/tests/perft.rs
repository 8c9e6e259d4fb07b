//! Perft against reference counts: the published start-position numbers and
//! every position of `data/perft.tsv` (published and Pikafish-counted, each
//! agreeing with Fairy-Stockfish to depth 4).

use shuai_board::{perft, Position, START_FEN};

struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    include_str!("data/perft.tsv")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().expect("a FEN field").trim().to_string();
            let counts = fields
                .map(|f| {
                    let (d, n) = f.trim().split_once(' ').expect("'Dn count'");
                    let depth = d.trim_start_matches('D').parse().expect("depth");
                    (depth, n.parse().expect("count"))
                })
                .collect();
            Case { fen, counts }
        })
        .collect()
}

#[test]
fn start_position_to_depth_4() {
    let mut pos = Position::from_fen(START_FEN).unwrap();
    let expected = [44, 1920, 79666, 3290240];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32 + 1), n, "depth {}", d + 1);
    }
    assert_eq!(
        pos.to_fen(),
        START_FEN,
        "perft must leave the position as it found it"
    );
}

#[test]
#[ignore = "deep perft: run with --ignored"]
fn start_position_depth_5() {
    let mut pos = Position::startpos();
    assert_eq!(perft(&mut pos, 5), 133_312_995);
}

#[test]
fn reference_positions_to_depth_4() {
    let cases = cases();
    assert_eq!(cases.len(), 44);
    for case in cases {
        let mut pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in case.counts.iter().filter(|(d, _)| *d <= 4) {
            assert_eq!(
                perft(&mut pos, depth),
                expected,
                "{} depth {depth}",
                case.fen
            );
        }
    }
}

#[test]
#[ignore = "deep perft: run with --ignored"]
fn reference_positions_full_depth() {
    for case in cases() {
        let mut pos = Position::from_fen(&case.fen).unwrap();
        for &(depth, expected) in case.counts.iter().filter(|(d, _)| *d <= 5) {
            assert_eq!(
                perft(&mut pos, depth),
                expected,
                "{} depth {depth}",
                case.fen
            );
        }
    }
}
