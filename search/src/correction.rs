//! Correction history: how far the search's results have been from the
//! static evaluation in positions with the same pawns, and with the same
//! kings and defenders, learned as the search goes and added to the static
//! evaluation. A network that misjudges a pawn chain or a broken palace
//! does so in every position that has it; the table learns the error once.

use shuai_board::{Bitboard, Color, PieceKind, Position};

/// Entries per side in each table (a power of two).
const ENTRIES: usize = 16_384;
/// Entries hold centipawns times this.
const GRAIN: i32 = 256;
/// The weights of an update add up to this.
const WEIGHT_SCALE: i32 = 256;
/// Largest correction, in centipawns.
const MAX_CORRECTION: i32 = 32;

/// The correction tables of one search thread.
pub struct Correction {
    /// By side to move and pawn placement.
    pawns: Vec<i32>,
    /// By side to move and the placement of kings, advisors and elephants.
    defenders: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction::new()
    }
}

/// A 64-bit hash of a point set (multiply and fold; the tables only need
/// the placements they meet to spread over their entries).
#[inline]
fn hash(b: Bitboard, seed: u64) -> u64 {
    let bits = b.bits();
    let h = ((bits as u64) ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (((bits >> 64) as u64) ^ seed.rotate_left(32)).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^ (h >> 29)
}

/// The two table indices of `pos` for its side to move.
#[inline]
fn indices(pos: &Position) -> [usize; 2] {
    let side = pos.side_to_move();
    let red = pos.color_bb(Color::Red);
    let pawns = pos.kind_bb(PieceKind::Pawn);
    let defenders = pos.kind_bb(PieceKind::King)
        | pos.kind_bb(PieceKind::Advisor)
        | pos.kind_bb(PieceKind::Elephant);
    let key = |set: Bitboard, seed: u64| {
        let h = hash(set & red, seed) ^ hash(set & !red, !seed);
        side.index() * ENTRIES + (h >> 50) as usize % ENTRIES
    };
    [
        key(pawns, 0x5851_F42D_4C95_7F2D),
        key(defenders, 0x1405_7B7E_F767_814F),
    ]
}

impl Correction {
    /// Empty tables.
    pub fn new() -> Correction {
        Correction {
            pawns: vec![0; 2 * ENTRIES],
            defenders: vec![0; 2 * ENTRIES],
        }
    }

    /// The correction to add to the static evaluation of `pos`, centipawns.
    #[inline]
    pub fn of(&self, pos: &Position) -> i32 {
        let [p, d] = indices(pos);
        (self.pawns[p] + self.defenders[d]) / (2 * GRAIN)
    }

    /// Moves both entries of `pos` towards `error` (the search's result
    /// minus the uncorrected static evaluation), more for deeper searches.
    pub fn update(&mut self, pos: &Position, error: i32, depth: i32) {
        let target = error.clamp(-MAX_CORRECTION * 4, MAX_CORRECTION * 4) * GRAIN;
        let weight = (depth + 1).min(16);
        let limit = MAX_CORRECTION * GRAIN;
        let [p, d] = indices(pos);
        for entry in [&mut self.pawns[p], &mut self.defenders[d]] {
            *entry = ((*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE)
                .clamp(-limit, limit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_towards_the_error_within_bounds() {
        let pos = Position::startpos();
        let mut c = Correction::new();
        assert_eq!(c.of(&pos), 0);
        for _ in 0..200 {
            c.update(&pos, 20, 15);
        }
        assert_eq!(c.of(&pos), 19, "converges on the error it is shown");
        for _ in 0..400 {
            c.update(&pos, 10_000, 15);
        }
        assert_eq!(c.of(&pos), MAX_CORRECTION, "capped");
        // The other side to move has its own entries.
        let black = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        assert_eq!(c.of(&black), 0);
    }
}
