//! Correction history: what the search learned about the static
//! evaluation's errors. After a node is searched, the difference between
//! its result and its static evaluation is remembered under keys of the
//! position's structure (the pawns; the kings, advisors and elephants), and
//! later static evaluations of positions with the same structure are moved
//! by what was learned. Pruning decisions that compare the static
//! evaluation with the window (futility, null move) then err less often.

use shuai_board::{Color, PieceKind, Position};

/// Entries per table and side (a power of two).
const SIZE: usize = 1 << 14;

/// Largest magnitude of an entry; the gravity update keeps entries inside.
const LIMIT: i32 = 1024;

/// An entry of `LIMIT` moves the evaluation by `LIMIT / SCALE` centipawns.
const SCALE: i32 = 8;

/// The pieces whose placement keys each table: pawns, then the palace
/// defenders with the king.
const STRUCTURES: [&[PieceKind]; 2] = [
    &[PieceKind::Pawn],
    &[PieceKind::King, PieceKind::Advisor, PieceKind::Elephant],
];

/// Evaluation corrections by side to move and structure.
#[derive(Clone)]
pub struct Correction {
    /// `STRUCTURES.len()` tables of `2 * SIZE` entries (by side, then key).
    tables: Vec<i16>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            tables: vec![0; STRUCTURES.len() * 2 * SIZE],
        }
    }
}

/// A 64-bit mix of a 90-point bitboard's bits.
#[inline]
fn mix(bits: u128) -> u64 {
    let x = (bits as u64) ^ ((bits >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// The entry index of each structure of `pos` (side to move included).
#[inline]
fn indices(pos: &Position) -> [usize; 2] {
    let side = pos.side_to_move().index();
    let mut out = [0; 2];
    for (t, kinds) in STRUCTURES.iter().enumerate() {
        let placement = |color: Color| {
            kinds
                .iter()
                .fold(0u128, |acc, &k| acc | pos.pieces(color, k).bits())
        };
        let key = mix(placement(Color::Red)) ^ mix(placement(Color::Black)).rotate_left(32);
        out[t] = (t * 2 + side) * SIZE + (key >> (64 - SIZE.trailing_zeros())) as usize;
    }
    out
}

impl Correction {
    /// Centipawns to add to `pos`'s static evaluation.
    #[inline]
    pub fn of(&self, pos: &Position) -> i32 {
        let sum: i32 = indices(pos)
            .iter()
            .map(|&i| i32::from(self.tables[i]))
            .sum();
        sum / (SCALE * STRUCTURES.len() as i32)
    }

    /// Learns from a node searched to `depth` whose result `score` differs
    /// from its static evaluation `eval` (both from the side to move).
    pub fn update(&mut self, pos: &Position, eval: i32, score: i32, depth: i32) {
        let bonus = ((score - eval) * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        for i in indices(pos) {
            let v = i32::from(self.tables[i]);
            self.tables[i] = (v + bonus - v * bonus.abs() / LIMIT) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_the_sign_and_stays_bounded() {
        let pos = Position::startpos();
        let mut c = Correction::default();
        assert_eq!(c.of(&pos), 0);
        for _ in 0..1000 {
            c.update(&pos, 0, 500, 20);
        }
        let up = c.of(&pos);
        assert!((1..=LIMIT / SCALE).contains(&up), "{up}");
        for _ in 0..1000 {
            c.update(&pos, 0, -500, 20);
        }
        let down = c.of(&pos);
        assert!((-LIMIT / SCALE..0).contains(&down), "{down}");
    }

    #[test]
    fn the_side_to_move_has_its_own_entries() {
        let red = Position::startpos();
        let black =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b")
                .unwrap();
        let mut c = Correction::default();
        c.update(&red, 0, 300, 10);
        assert!(c.of(&red) > 0);
        assert_eq!(c.of(&black), 0);
    }
}
