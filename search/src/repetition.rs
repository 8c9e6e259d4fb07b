//! Repetitions inside the search: a position that occurred earlier on the
//! path (or twice in the game before the root) is scored by the rules.
//!
//! The verdict comes from `shuai_board::rules`, the same code the referee
//! and the match runner use: perpetual check, perpetual chase and
//! perpetual mate threat lose for the side that repeats them, other cycles
//! are draws. The rule classification is costly, but it runs only when a
//! repetition is found, which is rare.

use crate::score::{DRAW, RULE_WIN};
use shuai_board::rules::{repetition_result_with, GameResult, RuleBook, RuleOptions};
use shuai_board::Position;

/// The score of the current position if it repeats, else `None`. A
/// repetition whose previous occurrence is inside the search path counts
/// at once; one reaching into the game before the root needs a third
/// occurrence, as a referee would. `root_ply` is the ply count of the root
/// position and `ply` the distance from the root; `book` judges the cycle.
pub(crate) fn score(pos: &Position, root_ply: usize, ply: usize, book: RuleBook) -> Option<i32> {
    let now = pos.ply_count();
    let mut occurrences = pos.earlier_occurrences();
    let first = occurrences.next()?;
    let count = if now - first >= root_ply {
        2
    } else if occurrences.next().is_some() {
        3
    } else {
        return None;
    };
    let opts = RuleOptions {
        occurrences: count,
        ..RuleOptions::with_book(book)
    };
    Some(match repetition_result_with(pos, &opts) {
        Some(GameResult::Win) => RULE_WIN - ply as i32,
        Some(GameResult::Loss) => -(RULE_WIN - ply as i32),
        Some(GameResult::Draw) | None => DRAW,
    })
}
