//! Forwarding the search's reports to the listener while remembering
//! what the end-of-search decisions need.

use super::Listener;
use shuai_search::{Event, Info};
use std::sync::{Arc, Mutex};

/// Forwards reports to the listener and remembers what decisions need.
pub(super) struct Collector<'a> {
    listener: &'a dyn Listener,
    user_multipv: usize,
    latest: Arc<Mutex<Option<Info>>>,
    /// The deepest iteration's lines.
    lines: Mutex<IterationLines>,
    /// Main-line score of every completed iteration.
    history: Mutex<Vec<(u32, i32)>>,
}

impl<'a> Collector<'a> {
    /// A collector passing reports to `listener` (main lines up to
    /// `user_multipv`; the policy may have asked the search for more) and
    /// keeping the latest main line in `latest` for `probe`.
    pub(super) fn new(
        listener: &'a dyn Listener,
        user_multipv: usize,
        latest: Arc<Mutex<Option<Info>>>,
    ) -> Collector<'a> {
        Collector {
            listener,
            user_multipv,
            latest,
            lines: Mutex::new(IterationLines::default()),
            history: Mutex::new(Vec::new()),
        }
    }

    /// The deepest iteration's lines, best first.
    pub(super) fn best_lines(&self) -> Vec<Info> {
        self.lines
            .lock()
            .map(|l| l.best_first())
            .unwrap_or_default()
    }

    /// The main line's (depth, score) of every completed iteration.
    pub(super) fn history(&self) -> Vec<(u32, i32)> {
        self.history.lock().map(|h| h.clone()).unwrap_or_default()
    }

    /// Records `event` and passes it on.
    pub(super) fn on_event(&self, event: &Event) {
        if let Event::Iteration(info) = event {
            if let Ok(mut lines) = self.lines.lock() {
                lines.record(info);
            }
            if info.multipv == 1 {
                if let Ok(mut h) = self.history.lock() {
                    h.push((info.depth, info.score));
                }
                if let Ok(mut l) = self.latest.lock() {
                    *l = Some(info.clone());
                }
            }
            if info.multipv > self.user_multipv {
                return;
            }
        }
        self.listener.info(event);
    }
}

/// The exact lines (one per multipv index) of a search's deepest
/// iteration, to choose a move from when the search ends.
///
/// An iteration searches its lines in order, each the best of the moves
/// the earlier lines left, so an interrupted iteration's lines are the top
/// few at the deeper depth: better to choose among than the shallower
/// iteration's full set.
#[derive(Clone, Debug, Default)]
pub struct IterationLines {
    lines: Vec<Info>,
}

impl IterationLines {
    /// Records an iteration report (bounds from a failed aspiration
    /// window are not lines and are skipped).
    pub fn record(&mut self, info: &Info) {
        if info.bound.is_some() {
            return;
        }
        if self.lines.first().is_some_and(|l| l.depth != info.depth) {
            self.lines.clear();
        }
        self.lines.retain(|l| l.multipv != info.multipv);
        self.lines.push(info.clone());
    }

    /// The deepest iteration's lines, best first.
    pub fn best_first(&self) -> Vec<Info> {
        let mut lines = self.lines.clone();
        lines.sort_by_key(|l| l.multipv);
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_search::Bound;

    fn line(depth: u32, multipv: usize, bound: Option<Bound>) -> Info {
        Info {
            depth,
            seldepth: depth,
            multipv,
            score: 0,
            bound,
            nodes: 0,
            nps: 0,
            time: std::time::Duration::ZERO,
            hashfull: 0,
            tbhits: None,
            pv: Vec::new(),
        }
    }

    #[test]
    fn the_deepest_iteration_gives_the_lines() {
        let mut lines = IterationLines::default();
        for (d, k) in [
            (1, 1),
            (1, 2),
            (1, 3),
            (2, 1),
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 1),
        ] {
            lines.record(&line(d, k, None));
        }
        lines.record(&line(4, 1, Some(Bound::Lower)));
        let got: Vec<(u32, usize)> = lines
            .best_first()
            .iter()
            .map(|l| (l.depth, l.multipv))
            .collect();
        assert_eq!(got, [(3, 1), (3, 2)]);
    }
}
