//! Repetitions inside the search: a position that occurred earlier on the
//! path (or twice in the game before the root) is scored by the rules.
//!
//! The verdict here covers perpetual check exactly: a side that checked on
//! every one of its moves of the cycle, while the other did not, loses; all
//! other cycles are scored as draws. The full chase and mate-threat rules
//! live in `shuai_board::rules` and plug in at [`cycle_verdict`].

use crate::score::{DRAW, RULE_WIN};
use shuai_board::Position;

/// The in-check flag of the position after each ply of `pos`'s history and
/// of `pos` itself (`flags[i]`: after `i` moves; the last is the current).
pub(crate) fn check_flags(pos: &Position) -> Vec<bool> {
    let mut replay = pos.clone();
    let moves: Vec<_> = replay.moves_played().collect();
    for m in moves.iter().rev() {
        if m.is_null() {
            replay.unmake_null_move();
        } else {
            replay.unmake_move();
        }
    }
    let mut flags = Vec::with_capacity(moves.len() + 256);
    flags.push(replay.in_check());
    for &m in &moves {
        if m.is_null() {
            replay.make_null_move();
        } else {
            replay.make_move(m);
        }
        flags.push(replay.in_check());
    }
    flags
}

/// The verdict of a cycle of `len` plies ending at the current position,
/// from the side to move's view: positive wins, negative loses, 0 a draw.
/// `checks[i]` tells whether the position after `i` plies is in check.
pub(crate) fn cycle_verdict(checks: &[bool], len: usize) -> i32 {
    let now = checks.len() - 1;
    // Positions reached by the opponent's moves: now, now-2, …; by ours:
    // now-1, now-3, … (each move's checking shows in the position after it).
    let by_opponent = (0..len).step_by(2).all(|k| checks[now - k]);
    let by_us = (1..len).step_by(2).all(|k| checks[now - k]);
    match (by_us, by_opponent) {
        (false, true) => 1,
        (true, false) => -1,
        _ => 0,
    }
}

/// The score of the current position if it repeats, else `None`. A
/// repetition whose first occurrence is inside the search path counts at
/// once; one reaching into the game before the root needs a third
/// occurrence, as a referee would.
pub(crate) fn score(pos: &Position, checks: &[bool], root_ply: usize, ply: usize) -> Option<i32> {
    let now = pos.ply_count();
    let mut occurrences = pos.earlier_occurrences();
    let first = occurrences.next()?;
    if now - first < root_ply && occurrences.next().is_none() {
        return None;
    }
    Some(match cycle_verdict(checks, first) {
        1 => RULE_WIN - ply as i32,
        -1 => -(RULE_WIN - ply as i32),
        _ => DRAW,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perpetual_check_verdicts() {
        // Cycle of 4 plies; the opponent checked on both its moves.
        assert_eq!(
            cycle_verdict(&[false, true, false, true, false, true], 4),
            1
        );
        // We checked on both our moves, the opponent on neither.
        assert_eq!(
            cycle_verdict(&[false, false, true, false, true, false], 4),
            -1
        );
        // Both check: draw. Neither: draw.
        assert_eq!(cycle_verdict(&[true, true, true, true, true], 4), 0);
        assert_eq!(cycle_verdict(&[false; 5], 4), 0);
    }
}
