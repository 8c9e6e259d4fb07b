//! The moves of a position inside a table being generated, as the
//! generator and the perpetual-check rule walk them: where each move leads
//! (a position of this table or a value of a smaller one), found without
//! playing most quiet moves.

use crate::index::Layout;
use crate::table::TableSet;
use crate::value::code;
use shuai_board::Position;

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
