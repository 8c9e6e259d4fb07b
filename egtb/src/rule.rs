//! The perpetual-check rule on top of the mate distances.
//!
//! After the retrograde analysis every position that is not a forced mate
//! either way is a draw. For each colour Y in turn (X the other colour):
//!
//! 1. *The trap* `T` is the largest set of drawn positions such that
//!    - with X to move, every move of X either loses (leads to a position
//!      Y wins) or gives check and stays in `T`;
//!    - with Y to move, Y has a move that does **not** give check and stays
//!      in `T`.
//!
//!    It is found by starting from all draws and removing positions that
//!    break the conditions until none does. In `T`, Y keeps playing
//!    non-checking moves; X must check every move forever or lose. A
//!    repetition where one side checks every move and the other never
//!    checks is a loss for the checker in both the Chinese and the Asian
//!    rules, so X loses: `T` with X to move is `LossByRule(0)`, with Y to
//!    move `WinByRule(1)`.
//! 2. *The approach*: drawn positions from which Y can force the play into
//!    `T` or into a position it already wins: with Y to move, one move to
//!    an X rule loss; with X to move, every move to a Y win of either kind.
//!    Found level by level, so the number stored is the plies to reach the
//!    trap (a progress measure for Y; no distance to mate exists, since the
//!    game ends by the referee's ruling, not by mate).
//!
//! Both steps are repeated for both colours until nothing changes, since a
//! new rule win can trap more positions. The approach also starts from
//! rule results of the smaller tables a capture leads to, so a capture
//! into a position lost by the rule wins here too.

use crate::children::{for_each_child, for_each_child_checking_while, predecessors, Child};
use crate::index::Layout;
use crate::progress::GenProgress;
use crate::table::TableSet;
use crate::value::{code, Value};
use rayon::prelude::*;
use shuai_board::{Color, PositionBuffer};
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the code is a win for its side to move (mate or rule).
fn wins(c: u16) -> bool {
    matches!(code::decode(c), Some(Value::Win(_) | Value::WinByRule(_)))
}

/// Applies the rule to the drawn entries of `values` (see the module
/// documentation). Returns the number of positions it decided.
pub(crate) fn perpetual_check(
    layout: &Layout,
    subs: &TableSet,
    values: &mut [u16],
    progress: &mut dyn FnMut(GenProgress),
) -> u64 {
    let seeded = layout
        .material()
        .captures()
        .iter()
        .any(|m| subs.get(m).is_some_and(|t| t.has_rule_results()));
    let mut decided = 0u64;
    let mut sweeps = 0u32;
    let mut swept_whole = [false; 2];
    loop {
        let before = decided;
        for y in Color::ALL {
            let first = !std::mem::replace(&mut swept_whole[y.index()], true);
            decided += one_colour(layout, subs, values, y, seeded, first, &mut sweeps);
            progress(GenProgress {
                phase: "rule",
                step: sweeps,
                decided,
            });
        }
        if decided == before {
            return decided;
        }
    }
}

/// The value code seen from the child's side.
fn child_code(values: &[u16], child: Child) -> u16 {
    match child {
        Child::Here(i) => values[i],
        Child::Other(c) => c,
    }
}

/// One removal pass over the trap's positions with the side to move of
/// parity `parity` (the index's lowest digit); returns how many it removed.
fn remove_untrapped(
    layout: &Layout,
    subs: &TableSet,
    values: &[u16],
    in_trap: &[AtomicBool],
    y: Color,
    parity: usize,
) -> usize {
    (parity..values.len())
        .into_par_iter()
        .step_by(2)
        .filter(|&i| in_trap[i].load(Ordering::Relaxed))
        .map_init(PositionBuffer::new, |buffer, i| {
            let Some(pos) = layout.position_in(i, buffer) else {
                return false;
            };
            let y_to_move = pos.side_to_move() == y;
            let mut ok = !y_to_move;
            // Y needs one quiet move into the trap, X must have no move
            // but losing ones and checks into it: stop once that is known.
            for_each_child_checking_while(pos, layout, subs, |check, child| {
                let c = child_code(values, child);
                let trapped = matches!(child, Child::Here(j) if in_trap[j].load(Ordering::Relaxed));
                if y_to_move {
                    ok |= !check && trapped;
                    !ok
                } else {
                    ok &= wins(c) || (check && trapped);
                    ok
                }
            });
            if !ok {
                in_trap[i].store(false, Ordering::Relaxed);
            }
            !ok
        })
        .filter(|&removed| removed)
        .count()
}

/// The trap and the approach for `y` (the module documentation's steps 1
/// and 2), once. `first`: the first time for `y`, when the approach must
/// judge every draw if `seeded` (smaller tables have rule results);
/// otherwise only those next to what `y`'s rule results changed since.
fn one_colour(
    layout: &Layout,
    subs: &TableSet,
    values: &mut [u16],
    y: Color,
    seeded: bool,
    first: bool,
    sweeps: &mut u32,
) -> u64 {
    // In the trap X checks on every move. A side with no rook, horse,
    // cannon or pawn never gives check (its advisors and elephants stay at
    // home, and no move of its may open the kings' file), so its trap is
    // empty: skip the sweeps that would only prove it (in stage 1, a pass
    // over half of the draws).
    let trapped = if layout.material().has_attacker(!y) {
        mark_trap(layout, subs, values, y, sweeps)
    } else {
        Vec::new()
    };
    let mut decided = trapped.len() as u64;
    // With no trap here the approach can still start from rule results in
    // the tables captures lead to; without those there is nothing to do.
    if decided == 0 && !(seeded && first) {
        return 0;
    }
    // The approach, one level per sweep against the values of the sweep
    // before, so the stored plies are exact. Its first sweep for `y`
    // judges every draw when smaller tables have rule results (a capture
    // into one can decide any of them). Otherwise, and after that, a draw
    // can only be decided once one of its children was, so each sweep
    // judges just the draws a quiet move leads from into the positions
    // decided since `y`'s last sweep (found by taking those moves back, as
    // the mate search does): the trap just marked, or the level before. The other colour's results never decide
    // a position for `y` (its rule wins are `y`'s losses, its rule losses
    // positions `y` moves from), so they need no look. The same positions
    // and plies as judging every draw each time, at a fraction of the cost
    // in a large ending, where the sweeps run into dozens.
    let n = values.len();
    let mut candidates: Option<Vec<u32>> = if first && seeded {
        None
    } else {
        Some(drawn_parents(layout, values, &trapped))
    };
    loop {
        *sweeps += 1;
        let values_ro: &[u16] = values;
        let judge = |buffer: &mut PositionBuffer, i: usize| {
            approach_value(layout, subs, values_ro, y, i, buffer).map(|c| (i, c))
        };
        let found: Vec<(usize, u16)> = match &candidates {
            None => (0..n)
                .into_par_iter()
                .filter(|&i| values_ro[i] == code::DRAW)
                .map_init(PositionBuffer::new, judge)
                .flatten_iter()
                .collect(),
            Some(list) => list
                .par_iter()
                .map(|&i| i as usize)
                .filter(|&i| values_ro[i] == code::DRAW)
                .map_init(PositionBuffer::new, judge)
                .flatten_iter()
                .collect(),
        };
        if found.is_empty() {
            return decided;
        }
        decided += found.len() as u64;
        for &(i, c) in &found {
            values[i] = c;
        }
        let found: Vec<u32> = found.into_iter().map(|(i, _)| i as u32).collect();
        candidates = Some(drawn_parents(layout, values, &found));
    }
}

/// The value the approach gives the drawn position `i` (step 2 of the
/// module documentation), judged by its children's values in `values`:
/// with `y` to move, a move to a rule loss of the other side; with the
/// other side to move, every move into a win of `y`. The position is
/// built in `buffer`.
fn approach_value(
    layout: &Layout,
    subs: &TableSet,
    values: &[u16],
    y: Color,
    i: usize,
    buffer: &mut PositionBuffer,
) -> Option<u16> {
    let pos = layout.position_in(i, buffer)?;
    let y_to_move = pos.side_to_move() == y;
    let (mut any, mut all, mut best, mut worst) = (false, true, u16::MAX, 0u16);
    for_each_child(pos, layout, subs, |child| {
        let c = child_code(values, child);
        match code::decode(c) {
            Some(Value::LossByRule(k)) => {
                any = true;
                best = best.min(k + 1);
            }
            Some(Value::WinByRule(k)) => worst = worst.max(k + 1),
            Some(Value::Win(_)) => {}
            _ => all = false,
        }
        if !wins(c) {
            all = false;
        }
    });
    if y_to_move && any {
        Some(code::rule(best))
    } else if !y_to_move && all {
        // All moves lose; moves into mates add nothing to the approach.
        // `worst` is even (one more than an odd win).
        Some(code::rule(worst))
    } else {
        None
    }
}

/// The drawn positions from which a quiet move leads into one of
/// `decided` (indices, each once, in order).
fn drawn_parents(layout: &Layout, values: &[u16], decided: &[u32]) -> Vec<u32> {
    let mut parents: Vec<u32> = decided
        .par_chunks(256)
        .flat_map_iter(|part| {
            let mut preds = Vec::with_capacity(64);
            let mut out = Vec::new();
            let mut buffer = PositionBuffer::new();
            for &i in part {
                let Some(pos) = layout.position_in(i as usize, &mut buffer) else {
                    continue;
                };
                predecessors(pos, layout, &mut preds);
                out.extend(
                    preds
                        .iter()
                        .filter(|&&q| values[q] == code::DRAW)
                        .map(|&q| q as u32),
                );
            }
            out
        })
        .collect();
    parents.par_sort_unstable();
    parents.dedup();
    parents
}

/// Finds the trap in which `!y` must check for ever (step 1 of the module
/// documentation) and marks it in `values`: lost by the rule with `!y` to
/// move, won with `y` to move. Returns the positions it marked.
fn mark_trap(
    layout: &Layout,
    subs: &TableSet,
    values: &mut [u16],
    y: Color,
    sweeps: &mut u32,
) -> Vec<u32> {
    let n = values.len();
    let in_trap: Vec<AtomicBool> = values
        .iter()
        .map(|&v| AtomicBool::new(v == code::DRAW))
        .collect();
    // Remove positions that break the trap's conditions until none does.
    // Removing in place while sweeping is sound: the set only shrinks, and
    // the loop runs until a sweep removes nothing; the set left is the
    // same whatever the order of the removals. X's positions go first:
    // when none of them is left, no position of Y can stay either (it
    // needs a move into one), which ends the search after a single pass
    // over X's draws in the usual case of no trap at all. When some are
    // left, Y keeps only the positions a quiet move leads from into them,
    // found by taking those moves back, instead of a pass over all of Y's
    // draws that looks at every move of each.
    let (x_index, y_index) = ((!y).index(), y.index());
    *sweeps += 1;
    remove_untrapped(layout, subs, values, &in_trap, y, x_index);
    let x_left = trap_members(&in_trap, x_index);
    if x_left.is_empty() {
        return Vec::new();
    }
    let keep: Vec<u32> = drawn_parents(layout, values, &x_left)
        .into_iter()
        .filter(|&i| in_trap[i as usize].load(Ordering::Relaxed))
        .collect();
    (y_index..n)
        .into_par_iter()
        .step_by(2)
        .for_each(|i| in_trap[i].store(false, Ordering::Relaxed));
    for &i in &keep {
        in_trap[i as usize].store(true, Ordering::Relaxed);
    }
    loop {
        let removed_y = remove_untrapped(layout, subs, values, &in_trap, y, y_index);
        *sweeps += 1;
        let removed_x = remove_untrapped(layout, subs, values, &in_trap, y, x_index);
        if removed_x + removed_y == 0 {
            break;
        }
    }
    let mut marked = trap_members(&in_trap, x_index);
    marked.extend(trap_members(&in_trap, y_index));
    for &i in &marked {
        let y_to_move = i as usize % 2 == y_index;
        values[i as usize] = code::rule(if y_to_move { 1 } else { 0 });
    }
    marked
}

/// The positions with the side to move of parity `parity` still in the
/// trap, in order.
fn trap_members(in_trap: &[AtomicBool], parity: usize) -> Vec<u32> {
    (parity..in_trap.len())
        .into_par_iter()
        .step_by(2)
        .filter(|&i| in_trap[i].load(Ordering::Relaxed))
        .map(|i| i as u32)
        .collect()
}
