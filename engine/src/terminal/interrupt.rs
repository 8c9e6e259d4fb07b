//! Ctrl-C without killing the process: while a search runs, Ctrl-C stops
//! it (the best line found so far is still printed); a second Ctrl-C
//! during the same search, or Ctrl-C while no search runs, leaves the
//! program at once with exit code 130, as an interrupted program does.
//!
//! The handler comes from the `ctrlc` crate: it installs a portable SIGINT
//! (and Windows console) handler that runs our closure on its own thread,
//! where it may take locks and print, which a raw signal handler may not.

use shuai_search::Control;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, Once};

/// The running search's flags, if a search runs.
static ACTIVE: Mutex<Option<Arc<Control>>> = Mutex::new(None);
/// Ctrl-C presses during the running search.
static PRESSES: AtomicU32 = AtomicU32::new(0);
static INSTALL: Once = Once::new();

/// Installs the Ctrl-C handler (once per process; later calls do nothing).
/// If the handler cannot be installed, Ctrl-C keeps its default effect.
pub fn install() {
    INSTALL.call_once(|| {
        let result = ctrlc::set_handler(|| {
            let active = ACTIVE.lock().map(|a| a.clone()).unwrap_or(None);
            match active {
                Some(control) if PRESSES.fetch_add(1, Ordering::SeqCst) == 0 => control.stop(),
                _ => {
                    // Leave the terminal tidy: end colours and the line.
                    let mut err = std::io::stderr();
                    if err.is_terminal() {
                        let _ = writeln!(err, "\x1b[0m");
                        let _ = err.flush();
                    }
                    std::process::exit(130);
                }
            }
        });
        if let Err(e) = result {
            log::warn!("Ctrl-C handler not installed: {e}");
        }
    });
}

/// Whether Ctrl-C was pressed during the current (or last) search.
pub fn pressed() -> bool {
    PRESSES.load(Ordering::SeqCst) > 0
}

/// While alive, Ctrl-C stops the search controlled by `control`.
pub struct SearchGuard(());

impl SearchGuard {
    /// Routes Ctrl-C to `control` until the guard is dropped.
    pub fn new(control: Arc<Control>) -> SearchGuard {
        PRESSES.store(0, Ordering::SeqCst);
        if let Ok(mut a) = ACTIVE.lock() {
            *a = Some(control);
        }
        SearchGuard(())
    }
}

impl Drop for SearchGuard {
    fn drop(&mut self) {
        if let Ok(mut a) = ACTIVE.lock() {
            *a = None;
        }
    }
}
