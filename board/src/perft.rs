//! Perft: counting the leaf nodes of the legal move tree, the standard proof
//! that move generation and make/unmake are right.

use crate::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};

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
    let mut split = Vec::new();
    let never = AtomicBool::new(false);
    perft_divide_until(pos, depth, &never, |m, n| split.push((m, n)));
    split
}

/// Perft split by root move, handing each root move's count to `report`
/// as soon as it is known, and giving up soon after `stop` is set (another
/// thread's request). Returns whether every root move was counted; `pos`
/// is restored either way.
pub fn perft_divide_until(
    pos: &mut Position,
    depth: u32,
    stop: &AtomicBool,
    mut report: impl FnMut(Move, u64),
) -> bool {
    let moves = pos.legal_moves();
    for &m in moves.iter() {
        pos.make_move(m);
        let n = perft_until(pos, depth.saturating_sub(1), stop);
        pos.unmake_move();
        match n {
            Some(n) => report(m, n),
            None => return false,
        }
    }
    true
}

/// [`perft`] that looks at `stop` at every node three or more plies above
/// the leaves (a few thousand leaves apart, so the check costs nothing
/// measurable) and returns `None` once it is set.
fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 3 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in moves.iter() {
        pos.make_move(m);
        let n = perft_until(pos, depth - 1, stop);
        pos.unmake_move();
        nodes += n?;
    }
    Some(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_until_counts_like_divide_and_stops_when_asked() {
        let mut pos = Position::startpos();
        let key = pos.key();
        let mut counted = Vec::new();
        let go_on = AtomicBool::new(false);
        assert!(perft_divide_until(&mut pos, 4, &go_on, |m, n| counted.push((m, n))));
        assert_eq!(counted, perft_divide(&mut pos, 4));
        assert_eq!(counted.iter().map(|&(_, n)| n).sum::<u64>(), 3_290_240);
        let stop = AtomicBool::new(true);
        let mut reports = 0;
        assert!(!perft_divide_until(&mut pos, 4, &stop, |_, _| reports += 1));
        assert_eq!((reports, pos.key()), (0, key));
    }
}
