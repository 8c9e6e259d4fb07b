//! The natural-move limit (自然限着): a stretch of plies without a capture
//! draws the game; a side's checks beyond its tenth in the stretch, and the
//! replies to them, do not count.

use super::COUNTED_CHECKS;
use crate::Position;

/// The natural-move count of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NaturalLimit {
    /// Plies since the last capture (the half-move clock, which may include
    /// plies from before the recorded history, set by the FEN).
    pub plies: u32,
    /// Plies of that stretch found in the recorded history (the only ones
    /// whose checks are known).
    pub known_plies: u32,
    /// Checks given in the known stretch, by Red and by Black.
    pub checks: [u32; 2],
    /// Plies that do not count: every check beyond its side's tenth in the
    /// stretch, and the reply to it.
    pub uncounted: u32,
}

impl NaturalLimit {
    /// Plies that count toward the limit.
    pub fn counted(&self) -> u32 {
        self.plies.saturating_sub(self.uncounted)
    }
}

/// Counts the natural-move stretch of `pos` from its history (null moves
/// count as plies that give no check).
pub fn natural_limit(pos: &Position) -> NaturalLimit {
    let plies = pos.halfmove_clock() as u32;
    let known = (plies as usize).min(pos.ply_count());
    let mut moves: Vec<_> = pos.moves_played().rev().take(known).collect();
    moves.reverse();
    let mut p = pos.clone();
    for m in moves.iter().rev() {
        if m.is_null() {
            p.unmake_null_move();
        } else {
            p.unmake_move();
        }
    }
    let mut checks = [0u32; 2];
    let mut uncounted = 0;
    let mut reply_uncounted = false;
    for &m in &moves {
        let mover = p.side_to_move();
        if m.is_null() {
            p.make_null_move();
        } else {
            p.make_move(m);
        }
        let check = !m.is_null() && p.in_check();
        let mut skip = std::mem::take(&mut reply_uncounted);
        if check {
            checks[mover.index()] += 1;
            if checks[mover.index()] > COUNTED_CHECKS {
                skip = true;
                reply_uncounted = true;
            }
        }
        if skip {
            uncounted += 1;
        }
    }
    NaturalLimit {
        plies,
        known_plies: known as u32,
        checks,
        uncounted,
    }
}

/// Whether the natural-move limit of `limit_plies` counted plies is reached.
/// Mate and stalemate take precedence: [`super::judge_game_end`] looks at
/// them first.
pub fn natural_limit_reached(pos: &Position, limit_plies: u32) -> bool {
    // Cheap exit: uncounted plies only lower the count.
    (pos.halfmove_clock() as u32) >= limit_plies && natural_limit(pos).counted() >= limit_plies
}
