//! Self-consistency: a stored value must be the best of its children's,
//! computed forward from the legal moves, independently of the retrograde
//! generator.

use crate::table::{Table, TableSet};
use crate::value::Value;
use shuai_board::Position;

/// The value `pos` must have by the definition of the tables, from the
/// values of its children in `set` (`None` if a child is not covered).
/// Results by the perpetual-check rule are not derived here: a position
/// whose children include one is reported as `None` as well, since its
/// value depends on the cycle, not on one step.
pub fn value_from_children(pos: &Position, set: &TableSet) -> Option<Value> {
    let mut pos = pos.clone();
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(Value::Loss(0));
    }
    let mut best_win: Option<u16> = None;
    let mut all_lose = true;
    let mut longest = 0;
    for &m in moves.as_slice() {
        pos.make_move(m);
        let child = set.probe(&pos);
        pos.unmake_move();
        match child? {
            Value::Loss(n) => best_win = Some(best_win.map_or(n + 1, |b| b.min(n + 1))),
            Value::Win(n) => longest = longest.max(n + 1),
            Value::Draw => all_lose = false,
            Value::WinByRule(_) | Value::LossByRule(_) => return None,
        }
    }
    Some(match best_win {
        Some(n) => Value::Win(n),
        None if all_lose => Value::Loss(longest),
        None => Value::Draw,
    })
}

/// Whether a move of `pos` leads to a position lost for its side to move.
fn has_losing_child(pos: &Position, set: &TableSet) -> bool {
    let mut pos = pos.clone();
    pos.legal_moves().as_slice().iter().any(|&m| {
        pos.make_move(m);
        let lost = matches!(set.probe(&pos), Some(Value::Loss(_) | Value::LossByRule(_)));
        pos.unmake_move();
        lost
    })
}

/// What [`verify`] found.
#[derive(Clone, Debug, Default)]
pub struct Verification {
    /// Positions compared with their children.
    pub checked: u64,
    /// Positions skipped: a rule result, or a child with one.
    pub rule: u64,
    /// The first few positions whose value is wrong (FEN, stored, expected).
    pub wrong: Vec<String>,
    /// How many were wrong in all.
    pub wrong_count: u64,
}

/// Compares the values at `indices` of `table` with their children's in
/// `set` (which must hold `table` and the endings its captures reach).
pub fn verify(table: &Table, set: &TableSet, indices: impl Iterator<Item = usize>) -> Verification {
    let mut v = Verification::default();
    for i in indices {
        let Some(pos) = table.layout().position(i) else {
            continue;
        };
        let stored = table.value_at(i);
        if matches!(stored, Some(Value::WinByRule(_) | Value::LossByRule(_))) {
            v.rule += 1;
            continue;
        }
        match value_from_children(&pos, set) {
            // A rule result among the children: at least a draw must not
            // have a move its opponent loses by (either kind of loss).
            None => {
                v.rule += 1;
                if stored == Some(Value::Draw) && has_losing_child(&pos, set) {
                    v.wrong_count += 1;
                    if v.wrong.len() < 5 {
                        v.wrong.push(format!(
                            "{}: a draw with a move to a lost position",
                            pos.to_fen()
                        ));
                    }
                }
            }
            Some(expected) => {
                v.checked += 1;
                if stored != Some(expected) {
                    v.wrong_count += 1;
                    if v.wrong.len() < 5 {
                        v.wrong.push(format!(
                            "{}: stored {stored:?}, expected {expected:?}",
                            pos.to_fen()
                        ));
                    }
                }
            }
        }
    }
    v
}
