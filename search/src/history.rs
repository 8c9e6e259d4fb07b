//! Move-ordering memory: butterfly history (by side, from, to), counter
//! moves, continuation history (by the previous moves' piece and target)
//! and capture history (by the capturing piece, its target and the victim).

use crate::correction::Correction;
use shuai_board::{Color, Move, Piece, PieceKind, Position, Square, SQUARES};

/// Largest magnitude a history value reaches (the gravity formula keeps
/// values inside it).
const HISTORY_MAX: i32 = 16_384;

/// The history bonus grows with the square of the depth times this...
const BONUS_PER_DEPTH_SQUARED: i32 = 16;
/// ...plus the depth times this...
const BONUS_PER_DEPTH: i32 = 32;
/// ...up to this (reached at depth 9): one deep cutoff must not outweigh
/// what many shallower ones taught.
const BONUS_MAX: i32 = 1600;

/// The bonus for a move that caused a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * BONUS_PER_DEPTH_SQUARED + depth * BONUS_PER_DEPTH).min(BONUS_MAX)
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

/// Piece kinds a capture can take (every kind but the king, which is
/// never captured, has its own row; the king's row stays unused).
const VICTIMS: usize = PieceKind::ALL.len();

/// All ordering tables of one search thread.
pub struct History {
    /// What the search learned about the static evaluation's errors.
    pub correction: Correction,
    butterfly: Vec<i16>,
    counters: Vec<Move>,
    /// One row of `PIECE_TO` values per previous move, then a row of zeros
    /// that stands for a missing previous move (see [`QuietScorer`]).
    continuation: Vec<i16>,
    /// How often a capture by a piece on a point of a kind of victim
    /// caused a cutoff: orders captures of equal victims, and those MVV
    /// alone ranks wrongly (a defended victim, a capture into a trap).
    capture: Vec<i16>,
}

/// Scores the quiet moves of one node: the butterfly table of the side to
/// move and the continuation rows of the previous moves (one, two and four
/// plies back), looked up once
/// per node rather than once per move (per-move lookups, with a branch for
/// each missing previous move, cost 3.7% of the search's instructions).
pub struct QuietScorer<'a> {
    butterfly: &'a [i16],
    continuation: [&'a [i16]; 3],
}

impl QuietScorer<'_> {
    /// The history score of `m`, made by `piece`: butterfly plus the three
    /// continuation scores (0 for a missing previous move).
    #[inline]
    pub fn score(&self, piece: Piece, m: Move) -> i32 {
        let now = PieceTo { piece, to: m.to() }.index();
        i32::from(self.butterfly[m.from().index() * SQUARES + m.to().index()])
            + i32::from(self.continuation[0][now])
            + i32::from(self.continuation[1][now])
            + i32::from(self.continuation[2][now])
    }
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
            correction: Correction::default(),
            butterfly: vec![0; 2 * SQUARES * SQUARES],
            counters: vec![Move::NULL; PIECE_TO],
            continuation: vec![0; PIECE_TO * PIECE_TO + PIECE_TO],
            capture: vec![0; PIECE_TO * VICTIMS],
        }
    }

    #[inline]
    fn butterfly_index(side: Color, m: Move) -> usize {
        (side.index() * SQUARES + m.from().index()) * SQUARES + m.to().index()
    }

    /// The butterfly score of `m` for `side`.
    #[cfg(test)]
    pub fn butterfly(&self, side: Color, m: Move) -> i32 {
        i32::from(self.butterfly[Self::butterfly_index(side, m)])
    }

    /// Continuation score of playing `now` after `prev`.
    #[cfg(test)]
    pub fn continuation(&self, prev: PieceTo, now: PieceTo) -> i32 {
        i32::from(self.continuation[prev.index() * PIECE_TO + now.index()])
    }

    /// The scorer of `side`'s quiet moves after `prevs` (the previous move,
    /// the one before it, and the side's own move four plies back).
    #[inline]
    pub fn quiet_scorer(&self, side: Color, prevs: [Option<PieceTo>; 3]) -> QuietScorer<'_> {
        let row = |prev: Option<PieceTo>| {
            let start = prev.map_or(PIECE_TO * PIECE_TO, |p| p.index() * PIECE_TO);
            &self.continuation[start..start + PIECE_TO]
        };
        let start = side.index() * SQUARES * SQUARES;
        QuietScorer {
            butterfly: &self.butterfly[start..start + SQUARES * SQUARES],
            continuation: [row(prevs[0]), row(prevs[1]), row(prevs[2])],
        }
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

    #[inline]
    fn capture_index(pos: &Position, m: Move) -> Option<usize> {
        let piece = pos.piece_at(m.from())?;
        let victim = pos.piece_at(m.to())?;
        Some(PieceTo { piece, to: m.to() }.index() * VICTIMS + victim.kind().index())
    }

    /// The capture history of `m` in `pos` (0 when `m` captures nothing).
    #[inline]
    pub fn capture(&self, pos: &Position, m: Move) -> i32 {
        Self::capture_index(pos, m).map_or(0, |i| i32::from(self.capture[i]))
    }

    /// Rewards (positive `bonus`) or punishes the capture `m` in `pos`.
    pub fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        if let Some(i) = Self::capture_index(pos, m) {
            apply(&mut self.capture[i], bonus);
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

    #[test]
    fn scorer_adds_butterfly_and_continuations() {
        let mut h = History::new();
        let sq = |i| Square::from_index(i).unwrap();
        let m = Move::new(sq(1), sq(20));
        let horse = Piece::new(Color::Red, PieceKind::Horse);
        let now = PieceTo {
            piece: horse,
            to: m.to(),
        };
        let prev = PieceTo {
            piece: Piece::new(Color::Black, PieceKind::Rook),
            to: sq(70),
        };
        h.update_quiet(Color::Red, m, now, &[Some(prev)], bonus(5));
        let (bf, cont) = (h.butterfly(Color::Red, m), h.continuation(prev, now));
        assert!(bf > 0 && cont > 0);
        let score = |prevs| h.quiet_scorer(Color::Red, prevs).score(horse, m);
        assert_eq!(score([Some(prev), None, None]), bf + cont);
        assert_eq!(score([None, Some(prev), None]), bf + cont);
        assert_eq!(score([None, None, Some(prev)]), bf + cont);
        assert_eq!(score([Some(prev), Some(prev), None]), bf + 2 * cont);
        assert_eq!(score([Some(prev), Some(prev), Some(prev)]), bf + 3 * cont);
        assert_eq!(score([None, None, None]), bf);
        assert_eq!(
            h.quiet_scorer(Color::Black, [None, None, None])
                .score(horse, m),
            0
        );
    }
}
