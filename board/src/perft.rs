//! Perft: counting the leaf nodes of the legal move tree, the standard proof
//! that move generation and make/unmake are right.

use crate::{Move, Position};

/// Number of leaf nodes `depth` plies below `pos`. The last ply is counted
/// by the size of the legal move list (bulk counting).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Perft split by root move, in generation order: `(move, leaf count)`.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            pos.make_move(m);
            let n = perft(pos, depth.saturating_sub(1));
            pos.unmake_move();
            (m, n)
        })
        .collect()
}
