//! The moves of a position inside a table being generated, as the
//! generator and the perpetual-check rule walk them: where each move leads
//! (a position of this table or a value of a smaller one), found without
//! playing most quiet moves; and the way back, the positions a quiet move
//! comes from.

use crate::index::Layout;
use crate::table::TableSet;
use crate::value::code;
use shuai_board::{attacks, Bitboard, Move, PieceKind, Position};

/// Where a move leads: a position of the table being generated (its
/// index) or of a smaller one (its stored code).
#[derive(Clone, Copy)]
pub(crate) enum Child {
    Here(usize),
    Other(u16),
}

/// Calls `f(child)` for every legal move of `pos`.
pub(crate) fn for_each_child(
    pos: &mut Position,
    layout: &Layout,
    subs: &TableSet,
    mut f: impl FnMut(Child),
) {
    walk::<false>(pos, layout, subs, |_, child| {
        f(child);
        true
    });
}

/// Calls `f(gives_check, child)` for the legal moves of `pos` until it
/// returns `false` (the answer is known).
pub(crate) fn for_each_child_checking_while(
    pos: &mut Position,
    layout: &Layout,
    subs: &TableSet,
    f: impl FnMut(bool, Child) -> bool,
) {
    walk::<true>(pos, layout, subs, f);
}

/// The children of `pos`, with whether the move gives check when
/// `CHECKS` (else the flag passed is meaningless), until `f` returns
/// `false`. A quiet move of any
/// piece but a king, most of the moves, is not played at all: its index
/// comes from the parent's (`Layout::quiet_children`) and the check from
/// `Position::gives_check`.
fn walk<const CHECKS: bool>(
    pos: &mut Position,
    layout: &Layout,
    subs: &TableSet,
    mut f: impl FnMut(bool, Child) -> bool,
) {
    let quiet = layout.quiet_children(pos);
    for &m in pos.legal_moves().as_slice() {
        let capture = pos.piece_at(m.to()).is_some();
        if let Some(q) = &quiet {
            if !capture && q.covers(m.from()) {
                let child = match q.after(m.from(), m.to()) {
                    Some(i) => Child::Here(i),
                    None => Child::Other(code::NONE),
                };
                if f(CHECKS && pos.gives_check(m), child) {
                    continue;
                }
                return;
            }
        }
        pos.make_move(m);
        let check = pos.in_check();
        let child = if capture {
            // Every capture material was checked to be in `subs` before
            // generation started; a miss here is "not a position", which
            // only a broken sub-table could produce.
            Child::Other(subs.code(pos).unwrap_or(code::NONE))
        } else {
            match layout.encode(pos, false) {
                Some(i) => Child::Here(i),
                None => Child::Other(code::NONE),
            }
        };
        pos.unmake_move();
        if !f(check, child) {
            return;
        }
    }
}

/// The distinct indices of the positions from which a quiet move of the
/// side not to move reaches `pos`, in `out` (cleared first).
///
/// Candidate origins are generated generously per piece kind, then every
/// one is checked with the board's own legality test, so a mistake in the
/// candidates can only cost time, never add a wrong predecessor.
pub(crate) fn predecessors(pos: &mut Position, layout: &Layout, out: &mut Vec<usize>) {
    out.clear();
    let side = pos.side_to_move();
    let mover = !side;
    let occ = pos.occupied();
    let quiet = layout.quiet_children(pos);
    for t in pos.color_bb(mover) {
        let Some(piece) = pos.piece_at(t) else {
            continue;
        };
        let from: Bitboard = match piece.kind() {
            PieceKind::King => attacks::king(t),
            PieceKind::Advisor => attacks::advisor(t),
            PieceKind::Elephant => attacks::elephant(t, occ),
            PieceKind::Horse => attacks::horse_attackers(t, occ),
            PieceKind::Rook | PieceKind::Cannon => attacks::rook(t, occ),
            PieceKind::Pawn => attacks::pawn_attackers(mover, t),
        } & !occ;
        for f in from {
            // Take the move back: the piece returns to `f` and the mover
            // is to move again.
            pos.make_move(Move::new(t, f));
            let ok = !pos.king_attacked(side) && pos.is_legal(Move::new(f, t));
            if ok {
                // The piece goes back from `t` to `f` and the turn passes,
                // as a quiet move would: the parent's digits give the index.
                let index = match &quiet {
                    Some(q) if q.covers(t) => q.after(t, f),
                    _ => layout.encode(pos, false),
                };
                if let Some(i) = index {
                    out.push(i);
                }
            }
            pos.unmake_move();
        }
    }
    out.sort_unstable();
    out.dedup();
}
