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
    /// The lines of the latest iterations.
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

    /// The lines of the deepest iteration that reported all its lines.
    pub(super) fn complete_lines(&self) -> Vec<Info> {
        self.lines.lock().map(|l| l.complete()).unwrap_or_default()
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

/// The lines (one per multipv index) of a search's latest iterations, to
/// choose a move from when the search ends.
#[derive(Clone, Debug, Default)]
pub struct IterationLines {
    /// The latest iteration's lines so far.
    current: Vec<Info>,
    /// The iteration before it: complete, since the search went on.
    previous: Vec<Info>,
}

impl IterationLines {
    /// Records an iteration report.
    pub fn record(&mut self, info: &Info) {
        if info.multipv == 1 && self.current.first().is_some_and(|l| l.depth != info.depth) {
            self.previous = std::mem::take(&mut self.current);
        }
        self.current.retain(|l| l.multipv != info.multipv);
        self.current.push(info.clone());
    }

    /// The lines of the deepest iteration that reported all its lines (an
    /// interrupted iteration may have reported only some), best first.
    pub fn complete(&self) -> Vec<Info> {
        let mut lines = if self.current.len() >= self.previous.len() {
            self.current.clone()
        } else {
            self.previous.clone()
        };
        lines.sort_by_key(|l| l.multipv);
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(depth: u32, multipv: usize) -> Info {
        Info {
            depth,
            seldepth: depth,
            multipv,
            score: 0,
            bound: None,
            nodes: 0,
            nps: 0,
            time: std::time::Duration::ZERO,
            hashfull: 0,
            pv: Vec::new(),
        }
    }

    #[test]
    fn an_interrupted_iteration_falls_back_to_the_complete_one() {
        let mut lines = IterationLines::default();
        for (d, k) in [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1)] {
            lines.record(&line(d, k));
        }
        let got: Vec<(u32, usize)> = lines
            .complete()
            .iter()
            .map(|l| (l.depth, l.multipv))
            .collect();
        assert_eq!(got, [(2, 1), (2, 2), (2, 3)]);
        for k in [2, 3] {
            lines.record(&line(3, k));
        }
        assert!(lines.complete().iter().all(|l| l.depth == 3));
    }
}
