//! Move-ordering memory: butterfly history (by side, from, to), counter
//! moves and continuation history (by the previous moves' piece and target).

use shuai_board::{Color, Move, Piece, Square, SQUARES};

/// Largest magnitude a history value reaches (the gravity formula keeps
/// values inside it).
const HISTORY_MAX: i32 = 16_384;

/// The bonus for a move that caused a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 32).min(1600)
}

#[inline]
fn apply(entry: &mut i16, bonus: i32) {
    let v = i32::from(*entry);
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry = (v + b - v * b.abs() / HISTORY_MAX) as i16;
}

/// Which piece moved to which point: the key of continuation history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo {
    /// The piece that moved.
    pub piece: Piece,
    /// Where it went.
    pub to: Square,
}

impl PieceTo {
    #[inline]
    fn index(self) -> usize {
        self.piece.index() * SQUARES + self.to.index()
    }
}

const PIECE_TO: usize = Piece::COUNT * SQUARES;

/// All ordering tables of one search thread.
pub struct History {
    butterfly: Vec<i16>,
    counters: Vec<Move>,
    continuation: Vec<i16>,
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History {
            butterfly: vec![0; 2 * SQUARES * SQUARES],
            counters: vec![Move::NULL; PIECE_TO],
            continuation: vec![0; PIECE_TO * PIECE_TO],
        }
    }

    #[inline]
    fn butterfly_index(side: Color, m: Move) -> usize {
        (side.index() * SQUARES + m.from().index()) * SQUARES + m.to().index()
    }

    /// The butterfly score of `m` for `side`.
    #[inline]
    pub fn butterfly(&self, side: Color, m: Move) -> i32 {
        i32::from(self.butterfly[Self::butterfly_index(side, m)])
    }

    /// Continuation score of playing `now` after `prev`.
    #[inline]
    pub fn continuation(&self, prev: PieceTo, now: PieceTo) -> i32 {
        i32::from(self.continuation[prev.index() * PIECE_TO + now.index()])
    }

    /// The move that last refuted `prev`.
    #[inline]
    pub fn counter(&self, prev: PieceTo) -> Move {
        self.counters[prev.index()]
    }

    /// Rewards (positive `bonus`) or punishes a quiet move.
    pub fn update_quiet(
        &mut self,
        side: Color,
        m: Move,
        now: PieceTo,
        prevs: &[Option<PieceTo>],
        bonus: i32,
    ) {
        apply(&mut self.butterfly[Self::butterfly_index(side, m)], bonus);
        for prev in prevs.iter().flatten() {
            apply(
                &mut self.continuation[prev.index() * PIECE_TO + now.index()],
                bonus,
            );
        }
    }

    /// Records `m` as the refutation of `prev`.
    pub fn set_counter(&mut self, prev: PieceTo, m: Move) {
        self.counters[prev.index()] = m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_board::PieceKind;

    #[test]
    fn gravity_keeps_values_bounded() {
        let mut h = History::new();
        let m = Move::new(
            Square::from_index(1).unwrap(),
            Square::from_index(20).unwrap(),
        );
        let pt = PieceTo {
            piece: Piece::new(Color::Red, PieceKind::Horse),
            to: m.to(),
        };
        for _ in 0..1000 {
            h.update_quiet(Color::Red, m, pt, &[Some(pt)], bonus(20));
        }
        assert!(h.butterfly(Color::Red, m) <= HISTORY_MAX);
        assert!(h.butterfly(Color::Red, m) > HISTORY_MAX - 1000);
        assert_eq!(h.butterfly(Color::Black, m), 0);
        for _ in 0..1000 {
            h.update_quiet(Color::Red, m, pt, &[Some(pt)], -bonus(20));
        }
        assert!(h.butterfly(Color::Red, m) < -HISTORY_MAX + 1000);
        assert!(h.continuation(pt, pt) < 0);
    }
}
