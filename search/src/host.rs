//! What the host provides where the standard library cannot: a clock and
//! a way to be told to stop, for WebAssembly (`wasm32-unknown-unknown`).
//!
//! There `std::time::Instant::now()` panics (the target has no clock) and
//! no second thread can flip [`Control`](crate::Control) while the search
//! runs on the only one. The WebAssembly entry point (`wasm/`) installs the
//! browser's clock with [`set_clock`] and a stop poll with
//! [`set_stop_poll`]; elsewhere nothing is installed and the search runs
//! exactly as before (the poll is one atomic load every 1024 nodes; the
//! clock is `std`'s own).

use std::sync::OnceLock;

/// Milliseconds from the host's clock (any origin, never going back).
static CLOCK: OnceLock<fn() -> f64> = OnceLock::new();
/// Whether the host asks the running search to stop.
static STOP_POLL: OnceLock<fn() -> bool> = OnceLock::new();
/// Whether the host says the pondered move was played.
static PONDERHIT_POLL: OnceLock<fn() -> bool> = OnceLock::new();

/// Installs the host's clock (milliseconds, e.g. `performance.now()`):
/// [`Instant`] reads it on targets without a clock of their own. Only the
/// first call counts.
pub fn set_clock(now_ms: fn() -> f64) {
    let _ = CLOCK.set(now_ms);
}

/// Installs a poll the search calls with its limit checks (every 1024
/// nodes) and while an infinite search waits for `stop`: when it returns
/// true the search stops as if [`Control::stop`](crate::Control::stop)
/// had been called. Only the first call counts.
pub fn set_stop_poll(poll: fn() -> bool) {
    let _ = STOP_POLL.set(poll);
}

/// Installs a poll the search calls with its limit checks and while a
/// ponder search waits: when it returns true during a ponder search, the
/// search continues as a timed one, as after
/// [`Control::set_pondering`](crate::Control::set_pondering)`(false)`
/// (`ponderhit`). Only the first call counts.
pub fn set_ponderhit_poll(poll: fn() -> bool) {
    let _ = PONDERHIT_POLL.set(poll);
}

/// Ends pondering when the installed ponderhit poll (if any) says so.
#[inline]
pub fn check_ponderhit(control: &crate::Control) {
    if control.pondering() && PONDERHIT_POLL.get().is_some_and(|poll| poll()) {
        control.set_pondering(false);
    }
}

/// Whether the installed stop poll (if any) asks the search to stop.
#[inline]
pub fn stop_requested() -> bool {
    STOP_POLL.get().is_some_and(|poll| poll())
}

/// The host clock's reading in milliseconds (0 until one is installed).
pub fn host_ms() -> f64 {
    CLOCK.get().map_or(0.0, |now| now())
}

/// A point in time: `std`'s own wherever the target has a clock.
#[cfg(not(target_family = "wasm"))]
pub use std::time::Instant;

/// A point in time read from the host's clock ([`set_clock`]); until one
/// is installed time stands still (searches then end by depth or nodes
/// only).
#[cfg(target_family = "wasm")]
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Instant(f64);

#[cfg(target_family = "wasm")]
impl Instant {
    /// Now.
    pub fn now() -> Instant {
        Instant(host_ms())
    }

    /// Time since this instant (zero if the clock went back).
    pub fn elapsed(&self) -> std::time::Duration {
        let ms = (host_ms() - self.0).max(0.0);
        std::time::Duration::from_secs_f64(ms / 1000.0)
    }
}

/// Sleeps where the target can; elsewhere (WebAssembly, where sleeping
/// panics) returns at once, so waiting loops poll instead.
pub fn pause(ms: u64) {
    #[cfg(not(target_family = "wasm"))]
    std::thread::sleep(std::time::Duration::from_millis(ms));
    #[cfg(target_family = "wasm")]
    let _ = ms;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_poll_nothing_asks_to_stop() {
        // The native test process never installs one.
        assert!(!stop_requested());
    }
}
