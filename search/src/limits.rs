//! What the caller asks of a search: limits, and the shared flags that stop
//! it or end pondering from another thread.

use shuai_board::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A side's clock at the start of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Increment added after each move.
    pub increment: Duration,
    /// Moves to play before the next time control (`None`: sudden death).
    pub moves_to_go: Option<u32>,
}

/// The limits of one search. The default searches until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Greatest iteration depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (summed over threads).
    pub nodes: Option<u64>,
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// The mover's clock, for the time manager.
    pub clock: Option<Clock>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search until stopped, whatever else is set (analysis).
    pub infinite: bool,
    /// Number of principal variations to report (at least 1).
    pub multipv: usize,
    /// Restrict the root to these moves (`searchmoves`); empty means all.
    pub search_moves: Vec<Move>,
    /// Root moves that may not be played (UCCI `banmoves`).
    pub banned_moves: Vec<Move>,
    /// Time kept back for communication delays.
    pub move_overhead: Duration,
}

impl Limits {
    /// Limits of a fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Limits of a fixed-node search.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Whether no limit at all is set (a bare `go`: no depth, nodes, time,
    /// clock or mate, and not infinite).
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.clock.is_none()
            && self.mate.is_none()
            && !self.infinite
    }

    /// Limits of a fixed-time search.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }
}

/// Flags another thread flips during a search.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl Control {
    /// New flags: not stopped, not pondering.
    pub fn new() -> Control {
        Control::default()
    }

    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was requested.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Sets or ends pondering: while pondering, time limits are not applied
    /// and the search only ends on `stop`.
    pub fn set_pondering(&self, pondering: bool) {
        self.pondering.store(pondering, Ordering::Relaxed);
    }

    /// Whether the search is pondering.
    #[inline]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Clears both flags before a new search.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
    }
}
