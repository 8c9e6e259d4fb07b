//! Repetition rules (棋例), the natural-move limit and game end.
//!
//! The 31 reference cases of `data/repetition-cases.tsv` come from
//! Fairy-Stockfish's test suite (verdicts re-checked with pyffish 0.0.90).
//! The other cases are this project's own, one or more per clause of
//! rules.md; each notes what pyffish (`is_optional_game_end`, ranks 1–10)
//! says about it and, where it disagrees, why rules.md wins.

use shuai_board::rules::{judge_repetition, repetition_result, GameResult};
use shuai_board::Position;

/// Plays `moves` (ICCS, space separated) from `fen`.
fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for text in moves.split_whitespace() {
        let m = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{fen}: {text}: {e}"));
        assert!(pos.is_legal(m), "{fen}: {text} is illegal in {pos:?}");
        pos.make_move(m);
    }
    pos
}

fn parse_result(s: &str) -> GameResult {
    match s {
        "win" => GameResult::Win,
        "loss" => GameResult::Loss,
        "draw" => GameResult::Draw,
        other => panic!("bad verdict {other}"),
    }
}

// ----- the reference cases ----------------------------------------------

#[test]
fn reference_cases() {
    let data = include_str!("data/repetition-cases.tsv");
    let mut n = 0;
    let mut failures = Vec::new();
    for line in data.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let (id, fen, moves, expected, what) = (f[0], f[1], f[2], parse_result(f[3]), f[4]);
        n += 1;
        let pos = play(fen, moves);
        let v = judge_repetition(&pos);
        let got = v.as_ref().map(|v| v.result);
        // The search view (first repetition) agrees on these cycles.
        let fast = repetition_result(&pos, 3);
        assert_eq!(got, fast, "{id}: fast and full verdicts differ");
        if got != Some(expected) {
            failures.push(format!(
                "{id} ({what}): expected {expected}, got {:?}\n    {}",
                got,
                v.map(|v| v.explanation).unwrap_or_default()
            ));
        }
    }
    assert_eq!(n, 31);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
