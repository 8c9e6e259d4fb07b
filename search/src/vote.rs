//! Lazy SMP: which thread's move to play.
//!
//! Every thread searches the same root with its own move order and depth
//! schedule, so when time runs out a helper may have finished a deeper
//! iteration than the main thread, or several threads may agree on a move
//! the main thread has just left. Each thread's best move gets votes
//! weighted by how deep the thread saw and how well the move scored there,
//! and the move with the most votes is played, with the line and score of
//! a thread that chose it. A proven win overrides the vote (the shortest
//! one is played), and a thread that sees itself lost never wins it.

use crate::score::UNPROVEN_WIN;
use shuai_board::Move;

/// Added to every thread's score above the worst one, so that the worst
/// thread's move still counts for its depth.
const SCORE_OFFSET: i64 = 14;

/// One thread's result: its best move at its last (or interrupted)
/// iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ThreadBest {
    /// The move the thread would play.
    pub mv: Move,
    /// Its score.
    pub score: i32,
    /// The deepest iteration the thread completed.
    pub depth: u32,
    /// Deepest ply of that iteration.
    pub seldepth: usize,
    /// The thread's principal variation, `mv` first.
    pub pv: Vec<Move>,
    /// Whether the main thread has reported this line (helpers report
    /// nothing).
    pub shown: bool,
}

/// Whether `score` is a proven win (a mate or a rule win found by search).
fn proven_win(score: i32) -> bool {
    score > UNPROVEN_WIN
}

/// Whether `score` is a proven loss.
fn proven_loss(score: i32) -> bool {
    score < -UNPROVEN_WIN
}

/// The index of the thread whose result to play. `threads[0]` is the main
/// thread, which keeps the move unless another thread's move out-votes it
/// (strictly: ties go to the earlier thread). `threads` must not be empty.
pub(crate) fn choose(threads: &[ThreadBest]) -> usize {
    let min_score = threads.iter().map(|t| t.score).min().unwrap_or(0);
    let weight = |t: &ThreadBest| {
        (i64::from(t.score) - i64::from(min_score) + SCORE_OFFSET) * i64::from(t.depth)
    };
    let votes = |mv: Move| -> i64 { threads.iter().filter(|t| t.mv == mv).map(weight).sum() };
    let mut best = 0;
    for (i, t) in threads.iter().enumerate().skip(1) {
        let b = &threads[best];
        let better = if proven_win(b.score) || proven_win(t.score) {
            // A faster win beats a slower one and any vote.
            t.score > b.score
        } else {
            !proven_loss(t.score) && votes(t.mv) > votes(b.mv)
        };
        if better {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, mated_in};

    fn m(s: &str) -> Move {
        shuai_board::parse_iccs(s).expect("test move")
    }

    fn t(mv: &str, score: i32, depth: u32) -> ThreadBest {
        ThreadBest {
            mv: m(mv),
            score,
            depth,
            seldepth: depth as usize,
            pv: vec![m(mv)],
            shown: false,
        }
    }

    #[test]
    fn one_thread_plays_its_own_move() {
        assert_eq!(choose(&[t("h2e2", 30, 10)]), 0);
    }

    #[test]
    fn agreeing_helpers_outvote_the_main_thread() {
        // Main: b0c2 at depth 12 (weight (40-20+14)*12 = 408); two helpers
        // on h2e2 at depths 11 and 12 with score 20 (14*11 + 14*12 = 322)
        // lose; a third helper tips it (322 + 14*13 = 504 > 408).
        let two = [t("b0c2", 40, 12), t("h2e2", 20, 11), t("h2e2", 20, 12)];
        assert_eq!(choose(&two), 0);
        let three = [
            t("b0c2", 40, 12),
            t("h2e2", 20, 11),
            t("h2e2", 20, 12),
            t("h2e2", 20, 13),
        ];
        assert_eq!(choose(&three), 1);
    }

    #[test]
    fn a_deeper_helper_with_a_better_score_wins() {
        // (50-30+14)*14 = 476 against (30-30+14)*12 = 168.
        assert_eq!(choose(&[t("b0c2", 30, 12), t("h2e2", 50, 14)]), 1);
        // Equal votes: the main thread keeps its move.
        assert_eq!(choose(&[t("b0c2", 30, 12), t("h2e2", 30, 12)]), 0);
    }

    #[test]
    fn the_shortest_proven_win_is_played() {
        let threads = [
            t("b0c2", 300, 20),
            t("h2e2", mate_in(9), 8),
            t("c3c4", mate_in(5), 6),
            t("g3g4", 500, 25),
        ];
        assert_eq!(choose(&threads), 2);
    }

    #[test]
    fn a_thread_that_sees_itself_lost_never_wins_the_vote() {
        let threads = [
            t("b0c2", mated_in(10), 10),
            t("h2e2", -200, 12),
            t("c3c4", mated_in(8), 30),
        ];
        // The helper at -200 has the most votes among the unlost.
        assert_eq!(choose(&threads), 1);
    }
}
