//! The network's inputs: one feature per piece on a point, seen from one
//! side (a *perspective*).
//!
//! From perspective `p`, a piece is "ours" or "theirs" (7 kinds each) and
//! stands on a point seen from `p`'s side of the board: Red reads the
//! board as it is, Black reads it turned half a turn ([`Square::flip`]), so
//! both see their own pieces at the bottom. That gives
//! [`INPUTS`] = 2 × 7 × 90 = 1260 features per perspective, and the same
//! weights serve both sides.

use shuai_board::{Color, Piece, Position, Square, SQUARES};

/// Features per perspective: ours/theirs × 7 kinds × 90 points.
pub const INPUTS: usize = 2 * 7 * SQUARES;

/// The feature of `piece` on `sq` from `perspective`'s point of view:
/// `(relation × 7 + kind) × 90 + point`, relation 0 for the
/// perspective's own pieces and 1 for the other side's, point turned half
/// a turn for Black.
#[inline]
pub fn feature_index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relation = usize::from(piece.color() != perspective);
    let point = match perspective {
        Color::Red => sq.index(),
        Color::Black => sq.flip().index(),
    };
    (relation * 7 + piece.kind().index()) * SQUARES + point
}

/// The active features of `pos` from `perspective`, in the order of the
/// board's points.
pub fn active_features(pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    pos.occupied().into_iter().filter_map(move |sq| {
        pos.piece_at(sq)
            .map(|piece| feature_index(perspective, piece, sq))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_board::PieceKind;

    #[test]
    fn indices_cover_the_input_range_once() {
        let mut seen = vec![false; INPUTS];
        for p in Color::ALL {
            seen.iter_mut().for_each(|s| *s = false);
            for c in Color::ALL {
                for k in PieceKind::ALL {
                    for sq in Square::all() {
                        let f = feature_index(p, Piece::new(c, k), sq);
                        assert!(!seen[f], "feature {f} twice");
                        seen[f] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn each_side_sees_its_own_king_the_same_way() {
        let pos = Position::startpos();
        let red = feature_index(
            Color::Red,
            Piece::new(Color::Red, PieceKind::King),
            pos.king_square(Color::Red),
        );
        let black = feature_index(
            Color::Black,
            Piece::new(Color::Black, PieceKind::King),
            pos.king_square(Color::Black),
        );
        // e0 for Red is index 4; Black's e9 (85) turned is 4 too.
        assert_eq!(red, PieceKind::King.index() * SQUARES + 4);
        assert_eq!(red, black);
        let mut r: Vec<usize> = active_features(&pos, Color::Red).collect();
        let mut b: Vec<usize> = active_features(&pos, Color::Black).collect();
        r.sort_unstable();
        b.sort_unstable();
        assert_eq!(r, b, "the start position is the same from both sides");
        assert_eq!(r.len(), 32);
    }
}
