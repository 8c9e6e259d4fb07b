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
    /// The lines of the latest iteration, by multipv index.
    lines: Mutex<Vec<Info>>,
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
            lines: Mutex::new(Vec::new()),
            history: Mutex::new(Vec::new()),
        }
    }

    /// The lines of the latest iteration.
    pub(super) fn lines(&self) -> Vec<Info> {
        self.lines.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// The main line's (depth, score) of every completed iteration.
    pub(super) fn history(&self) -> Vec<(u32, i32)> {
        self.history.lock().map(|h| h.clone()).unwrap_or_default()
    }

    /// Records `event` and passes it on.
    pub(super) fn on_event(&self, event: &Event) {
        if let Event::Iteration(info) = event {
            if let Ok(mut lines) = self.lines.lock() {
                if lines.first().is_some_and(|l| l.depth != info.depth) && info.multipv == 1 {
                    lines.clear();
                }
                lines.retain(|l| l.multipv != info.multipv);
                lines.push(info.clone());
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
