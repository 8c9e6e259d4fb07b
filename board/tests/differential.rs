//! Differential test: for every position of `data/legal_moves.tsv` the
//! legal move set equals the one produced by an independent implementation
//! (Fairy-Stockfish's rules through pyffish; regenerate with
//! `tools/scripts/gen_legal_moves.py`). The data covers openings,
//! middlegames, checks and double checks, flying-general and cannon-screen
//! positions, sparse endings, mates and stalemates.

use shuai_board::Position;
use std::collections::BTreeSet;

#[test]
fn legal_moves_match_the_reference_exactly() {
    let mut positions = 0;
    let mut no_moves = 0;
    for line in include_str!("data/legal_moves.tsv").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (fen, moves) = line.split_once('\t').unwrap_or((line, ""));
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let expected: BTreeSet<&str> = moves.split_whitespace().collect();
        let ours: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        let ours: BTreeSet<&str> = ours.iter().map(String::as_str).collect();
        if ours != expected {
            let missing: Vec<_> = expected.difference(&ours).collect();
            let extra: Vec<_> = ours.difference(&expected).collect();
            panic!("{fen}: missing {missing:?}, extra {extra:?}");
        }
        positions += 1;
        no_moves += usize::from(expected.is_empty());
    }
    assert!(positions >= 2000, "only {positions} positions");
    assert!(no_moves > 0, "the data should include mates or stalemates");
}
