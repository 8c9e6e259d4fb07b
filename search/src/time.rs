//! The time manager: a soft budget checked between iterations (stretched
//! when the best move is unstable or the score falls, shrunk when the best
//! move has stood for several iterations or took nearly all the nodes) and
//! a hard limit checked during the search, never beyond the clock.

use crate::host::Instant;
use crate::limits::{Clock, Limits};
use crate::params::Params;
use std::time::Duration;

/// The soft budget is stretched or shrunk at most this much (the
/// smallest and largest scale between iterations).
const SCALE_RANGE: (f64, f64) = (0.3, 3.0);
/// More moves to go than this are treated as this many.
const MAX_MOVES_TO_GO: u32 = 50;
/// With one move to go, at most this share of the clock is spent on it...
const LAST_MOVE_SHARE: f64 = 0.9;
/// ...and otherwise at most this share, however much the budget says.
const MOVE_SHARE: f64 = 0.4;

/// A score drop larger than this (centipawns) counts as this much: the
/// position has changed character, and more time rarely helps more.
const MAX_SCORE_DROP: i32 = 200;
/// Best-move changes counted at most.
const MAX_BEST_MOVE_CHANGES: f64 = 3.0;

/// What the iterations so far say about how hard the move is, read by
/// [`Progress::scale`] after each iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// How far the best score fell in the last iteration (centipawns, 0
    /// when it rose or there was no earlier score).
    pub score_drop: i32,
    /// Recent best-move changes, older ones fading (0 when settled).
    pub best_move_changes: f64,
    /// Iterations the best move has stayed the same.
    pub stable_iterations: u32,
    /// The share of the main thread's nodes spent under the best move
    /// (0..=1).
    pub best_move_effort: f64,
}

impl Progress {
    /// The factor for the soft budget: above 1 when the best move keeps
    /// changing or the score dropped, below 1 when the best move has stood
    /// for `tm_stable_iterations` iterations or took at least
    /// `tm_effort_share` of the nodes (the other moves were refuted
    /// cheaply), as strong engines do: time saved on easy moves is time
    /// left for hard ones.
    pub fn scale(&self, params: &Params) -> f64 {
        let drop = self.score_drop.clamp(0, MAX_SCORE_DROP);
        let mut scale = 1.0 + f64::from(drop) / f64::from(params.tm_score_drop_div());
        let changes = self.best_move_changes.min(MAX_BEST_MOVE_CHANGES);
        scale *= 1.0 + changes * f64::from(params.tm_instability()) / 100.0;
        if self.stable_iterations >= params.tm_stable_iterations() as u32 {
            scale *= f64::from(params.tm_stable_scale()) / 100.0;
        }
        if self.best_move_effort * 100.0 >= f64::from(params.tm_effort_share()) {
            scale *= f64::from(params.tm_effort_scale()) / 100.0;
        }
        scale
    }
}

/// When to stop thinking.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Time after which no new iteration starts (scaled by stability).
    soft: Option<Duration>,
    /// Time after which the search stops at once.
    hard: Option<Duration>,
    /// No new iteration past this share of the (scaled) soft budget.
    iteration_cutoff: f64,
}

impl TimeManager {
    /// Budgets for `limits`, counted from `start`, shared out as `params`
    /// say.
    pub fn new(limits: &Limits, start: Instant, params: &Params) -> TimeManager {
        let overhead = limits.move_overhead;
        let iteration_cutoff = f64::from(params.tm_iteration_cutoff()) / 100.0;
        if let Some(t) = limits.movetime {
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
                iteration_cutoff,
            };
        }
        let Some(clock) = limits.clock else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
                iteration_cutoff,
            };
        };
        let (soft, hard) = budgets(&clock, overhead, params);
        TimeManager {
            start,
            soft: Some(soft),
            hard: Some(hard),
            iteration_cutoff,
        }
    }

    /// Time since the search started.
    #[inline]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit has passed.
    #[inline]
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to start another iteration. `scale` (around 1.0, from
    /// [`Progress::scale`]) stretches or shrinks the soft budget.
    pub fn may_start_iteration(&self, scale: f64) -> bool {
        match (self.soft, self.hard) {
            (Some(soft), Some(hard)) => {
                let budget = soft
                    .mul_f64(scale.clamp(SCALE_RANGE.0, SCALE_RANGE.1))
                    .min(hard);
                // An iteration usually costs more than all before it, so
                // do not start one past half the budget.
                self.elapsed() < budget.mul_f64(self.iteration_cutoff)
            }
            _ => true,
        }
    }

    /// Whether time is managed at all (false for depth, node and infinite
    /// searches).
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

/// Soft and hard budgets for one move.
fn budgets(clock: &Clock, overhead: Duration, params: &Params) -> (Duration, Duration) {
    let remaining = clock.remaining.saturating_sub(overhead);
    let horizon = params.tm_moves_horizon();
    let moves = f64::from(
        clock
            .moves_to_go
            .unwrap_or(horizon as u32)
            .clamp(1, MAX_MOVES_TO_GO),
    );
    let inc = clock.increment;
    // Share the clock over the moves to come, plus most of the increment.
    let base = remaining.div_f64(moves.min(f64::from(horizon)) + 2.0)
        + inc.mul_f64(f64::from(params.tm_increment_share()) / 100.0);
    let cap = if clock.moves_to_go == Some(1) {
        remaining.mul_f64(LAST_MOVE_SHARE)
    } else {
        remaining.mul_f64(MOVE_SHARE)
    };
    let soft = base.min(cap);
    let hard = soft
        .mul_f64(f64::from(params.tm_hard_ratio()) / 100.0)
        .min(cap)
        .max(soft);
    let floor = Duration::from_millis(1);
    (soft.max(floor), hard.max(floor))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budgets_never_exceed_the_clock() {
        for remaining in [10u64, 100, 1000, 10_000, 60_000, 600_000] {
            for inc in [0u64, 100, 1000] {
                for mtg in [None, Some(1), Some(5), Some(40)] {
                    let clock = Clock {
                        remaining: ms(remaining),
                        increment: ms(inc),
                        moves_to_go: mtg,
                    };
                    let (soft, hard) = budgets(&clock, ms(30), &Params::default());
                    assert!(soft <= hard);
                    assert!(
                        hard <= ms(remaining.saturating_sub(30)).max(ms(1)),
                        "{remaining} {inc} {mtg:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn sudden_death_spends_a_small_share() {
        let clock = Clock {
            remaining: ms(60_000),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let (soft, hard) = budgets(&clock, Duration::ZERO, &Params::default());
        // 60 s shared over the horizon's 20 moves plus 2, the hard limit
        // four times that.
        assert_eq!(soft.as_millis(), 2727);
        assert_eq!(hard.as_millis(), 10909);
    }

    #[test]
    fn progress_stretches_hard_moves_and_shrinks_easy_ones() {
        let params = Params::default();
        let plain = Progress {
            score_drop: 0,
            best_move_changes: 0.0,
            stable_iterations: 1,
            best_move_effort: 0.5,
        };
        assert_eq!(plain.scale(&params), 1.0);
        // A drop of tm_score_drop_div centipawns doubles the budget; larger
        // drops count as MAX_SCORE_DROP.
        let dropped = Progress {
            score_drop: 150,
            ..plain
        };
        assert_eq!(dropped.scale(&params), 2.0);
        let collapsed = Progress {
            score_drop: 900,
            ..plain
        };
        assert_eq!(collapsed.scale(&params), 1.0 + 200.0 / 150.0);
        let unstable = Progress {
            best_move_changes: 2.0,
            ..plain
        };
        assert_eq!(unstable.scale(&params), 2.0);
        // Settled for long enough, or nearly all nodes under the best move:
        // each shrinks the budget by its own factor, and both together by
        // the product.
        let stable = f64::from(params.tm_stable_scale()) / 100.0;
        let effort = f64::from(params.tm_effort_scale()) / 100.0;
        let settled = Progress {
            stable_iterations: params.tm_stable_iterations() as u32,
            ..plain
        };
        assert_eq!(settled.scale(&params), stable);
        let not_yet = Progress {
            stable_iterations: params.tm_stable_iterations() as u32 - 1,
            ..plain
        };
        assert_eq!(not_yet.scale(&params), 1.0);
        let lopsided = Progress {
            best_move_effort: f64::from(params.tm_effort_share()) / 100.0,
            ..plain
        };
        assert_eq!(lopsided.scale(&params), effort);
        let easy = Progress {
            stable_iterations: 20,
            best_move_effort: 1.0,
            ..plain
        };
        assert!((easy.scale(&params) - stable * effort).abs() < 1e-12);
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let limits = Limits {
            movetime: Some(ms(1000)),
            move_overhead: ms(50),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Instant::now(), &Params::default());
        assert_eq!(tm.hard, Some(ms(950)));
        assert!(tm.is_timed());
        assert!(
            !TimeManager::new(&Limits::depth(5), Instant::now(), &Params::default()).is_timed()
        );
    }
}
