//! Helpers the rules tests share (and `benches/rules.rs`, which includes
//! this file by path).

use shuai_board::Position;

/// Plays `moves` (ICCS, space separated) from `fen`.
pub fn play(fen: &str, moves: &str) -> Position {
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
