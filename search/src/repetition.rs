//! Repetitions inside the search: a position that occurred earlier on the
//! path (or twice in the game before the root) is scored by the rules.
//!
//! The verdict comes from `shuai_board::rules`, the same code the referee
//! and the match runner use: perpetual check, perpetual chase and
//! perpetual mate threat lose for the side that repeats them, other cycles
//! are draws. The classification is costly (about 80,000 instructions a
//! cycle, most of it the checks-only search for mate threats), and a
//! search meets some cycles more than once (a later iteration walks into
//! them anew; a quarter of the cycles judged in `shuai bench 8`), so each
//! worker keeps the verdicts it has reached in a [`Verdicts`] table, keyed
//! by the cycle's signature. The table only saves work: a verdict found
//! there is the one the rules would give, so the tree is the same with or
//! without it.

use crate::score::{DRAW, RULE_WIN};
use shuai_board::rules::{
    repetition_result_with, repetition_signature, GameResult, RuleBook, RuleOptions,
};
use shuai_board::Position;

/// Slots of a worker's verdict table (a power of two): 16 KiB, plenty for
/// the few thousand distinct cycles of a long search.
const SLOTS: usize = 1024;

/// The verdicts a worker has reached, by cycle signature
/// ([`repetition_signature`]); direct-mapped, a newer cycle replaces an
/// older one in its slot. Valid for one rule book, the worker's own.
pub(crate) struct Verdicts {
    slots: Box<[(u64, Option<GameResult>)]>,
}

impl Verdicts {
    /// An empty table.
    pub fn new() -> Verdicts {
        Verdicts {
            // An empty slot holds no result, so it answers no signature.
            slots: vec![(0, None); SLOTS].into_boxed_slice(),
        }
    }

    /// The verdict of the cycle `signature`, judged by `judge` unless the
    /// table has it.
    fn get_or_judge(
        &mut self,
        signature: u64,
        judge: impl FnOnce() -> Option<GameResult>,
    ) -> Option<GameResult> {
        let slot = &mut self.slots[signature as usize & (SLOTS - 1)];
        if slot.0 == signature && slot.1.is_some() {
            return slot.1;
        }
        let result = judge();
        *slot = (signature, result);
        result
    }
}

/// The score of the current position if it repeats, else `None`. A
/// repetition whose previous occurrence is inside the search path counts
/// at once; one reaching into the game before the root needs a third
/// occurrence, as a referee would. `root_ply` is the ply count of the root
/// position and `ply` the distance from the root; `book` judges the cycle,
/// and `verdicts` holds the cycles judged before.
pub(crate) fn score(
    pos: &Position,
    root_ply: usize,
    ply: usize,
    book: RuleBook,
    verdicts: &mut Verdicts,
) -> Option<i32> {
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
    let judge = || repetition_result_with(pos, &opts);
    let result = match repetition_signature(pos, count) {
        Some(signature) => verdicts.get_or_judge(signature, judge),
        None => judge(),
    };
    Some(match result {
        Some(GameResult::Win) => RULE_WIN - ply as i32,
        Some(GameResult::Loss) => -(RULE_WIN - ply as i32),
        Some(GameResult::Draw) | None => DRAW,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pos` after the moves `line` (coordinate notation).
    fn after(fen: &str, line: &str) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for text in line.split_whitespace() {
            let m = pos.parse_move(text).unwrap();
            pos.make_move(m);
        }
        pos
    }

    /// The table gives the rules' verdict for a cycle it has seen, and
    /// tells cycles apart: a perpetual check loses for the checker, the
    /// same placement reached by idle moves is a draw.
    #[test]
    fn remembered_verdicts_are_the_rules_verdicts() {
        let fen = "3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1";
        // Red checks on the d-file and the king steps aside and back.
        let checks = after(fen, "a0d0 d9e9 d0e0 e9d9 e0d0 d9e9 d0e0 e9d9");
        let root = checks.ply_count() - 8;
        let mut verdicts = Verdicts::new();
        let fresh = score(&checks, root, 8, RuleBook::Chinese, &mut verdicts);
        assert_eq!(fresh, Some(-(RULE_WIN - 8)));
        let filled = verdicts.slots.iter().filter(|s| s.1.is_some()).count();
        assert_eq!(filled, 1);
        // Judged from the table, at another distance from the root.
        assert_eq!(
            score(&checks, root, 10, RuleBook::Chinese, &mut verdicts),
            Some(-(RULE_WIN - 10))
        );
        // Idle rook moves that return to the same placement: a draw.
        let idle = after(fen, "a0b0 d9e9 b0a0 e9d9 a0b0 d9e9 b0a0 e9d9");
        assert_eq!(
            score(&idle, root, 8, RuleBook::Chinese, &mut verdicts),
            Some(DRAW)
        );
        // No repetition: nothing to judge.
        let none = after(fen, "a0b0 d9e9");
        assert_eq!(score(&none, 0, 2, RuleBook::Chinese, &mut verdicts), None);
    }
}
