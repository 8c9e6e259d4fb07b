//! Endgame knowledge: how far the side ahead can really hope to win.
//!
//! The score is multiplied by `scale / SCALE_NORMAL` where the scale depends
//! on the material of the side ahead (the *strong* side) and the defenders of
//! the other. A scale of 0 makes the position a dead draw for the search;
//! small scales keep a trace of the material balance so that the search still
//! prefers the better version of a drawish ending.

use shuai_board::{Bitboard, Color, PieceKind, Position, Rank};

/// The scale of a normal position: the score is used as it is.
pub const SCALE_NORMAL: i32 = 64;

/// The scale of a dead draw: the strong side has nothing that can cross the
/// river.
pub const SCALE_DEAD: i32 = 0;

/// Nearly dead: a lone cannon without a screen, a lone horse against a full
/// defence, a pawn stuck on the last rank.
pub const SCALE_FORTRESS: i32 = 6;

/// Drawish but not hopeless: a lone rook against advisors and elephants, a
/// lone pawn against defenders.
pub const SCALE_HARD: i32 = 16;

/// About half: the win needs good technique and some help.
pub const SCALE_HALF: i32 = 32;

/// The draw scale (0..=[`SCALE_NORMAL`]) when `strong` is the side ahead.
///
/// The rules, for a strong side without rooks, horses, cannons and pawns
/// excepted as stated:
///
/// - nothing able to cross the river (only king, advisors, elephants):
///   [`SCALE_DEAD`];
/// - a lone cannon: needs a screen of its own advisor against a bare king,
///   else [`SCALE_FORTRESS`]; half with two advisors against one defender;
/// - a lone horse: [`SCALE_FORTRESS`] against both advisors or three
///   defenders, half against two defenders;
/// - pawns only, all of them on the last rank: [`SCALE_FORTRESS`];
/// - a lone pawn: [`SCALE_HARD`] against two or more defenders, half against
///   one;
/// - a lone rook against both advisors and both elephants: [`SCALE_HARD`].
///
/// Anything else is [`SCALE_NORMAL`]. The weak side's own attacking pieces
/// are not counted: they only make the draw likelier.
pub fn scale_factor(pos: &Position, strong: Color) -> i32 {
    let mut counts = [[0; 7]; 2];
    for c in Color::ALL {
        for k in PieceKind::ALL {
            counts[c.index()][k.index()] = pos.pieces(c, k).count() as i32;
        }
    }
    scale_with_counts(pos, strong, &counts)
}

/// [`scale_factor`] with the piece counts known (per side and kind).
#[inline]
pub(crate) fn scale_with_counts(pos: &Position, strong: Color, counts: &[[i32; 7]; 2]) -> i32 {
    let weak = !strong;
    let n = |c: Color, k: PieceKind| counts[c.index()][k.index()];
    let pawns = n(strong, PieceKind::Pawn);
    let (rooks, horses, cannons) = (
        n(strong, PieceKind::Rook),
        n(strong, PieceKind::Horse),
        n(strong, PieceKind::Cannon),
    );
    let pieces = rooks + horses + cannons;
    if pieces + pawns == 0 {
        return SCALE_DEAD;
    }
    // The common case: enough attackers that none of the rules apply.
    if pieces > 0 && pieces + pawns > 1 {
        return SCALE_NORMAL;
    }
    let weak_advisors = n(weak, PieceKind::Advisor);
    let defenders = weak_advisors + n(weak, PieceKind::Elephant);
    if pieces == 0 {
        // Pawns only.
        let last_rank = Bitboard::rank(Rank::ALL[if strong == Color::Red { 9 } else { 0 }]);
        let stuck = (pos.pieces(strong, PieceKind::Pawn) & last_rank).count() as i32;
        if stuck == pawns {
            return SCALE_FORTRESS;
        }
        return match (pawns, defenders) {
            (1, 0) => SCALE_NORMAL,
            (1, 1) => SCALE_HALF,
            (1, _) => SCALE_HARD,
            _ => SCALE_NORMAL,
        };
    }
    // Exactly one piece and no pawn.
    if cannons == 1 {
        let screens = n(strong, PieceKind::Advisor);
        return match (screens, defenders) {
            (1.., 0) => SCALE_NORMAL,
            (2, 1) => SCALE_HALF,
            _ => SCALE_FORTRESS,
        };
    }
    if horses == 1 {
        return match defenders {
            _ if weak_advisors == 2 || defenders >= 3 => SCALE_FORTRESS,
            2 => SCALE_HALF,
            _ => SCALE_NORMAL,
        };
    }
    // A lone rook.
    if defenders == 4 {
        SCALE_HARD
    } else {
        SCALE_NORMAL
    }
}
