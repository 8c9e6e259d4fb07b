//! The time manager: a soft budget checked between iterations (stretched
//! when the best move is unstable or the score falls) and a hard limit
//! checked during the search, never beyond the clock.

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

    /// Whether to start another iteration. `scale` (around 1.0) stretches
    /// the soft budget: above 1 when the best move keeps changing or the
    /// score dropped, below 1 when the best move is settled.
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
        assert_eq!(soft, ms(1875)); // 60 s / 32
        assert_eq!(hard, ms(7500));
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
