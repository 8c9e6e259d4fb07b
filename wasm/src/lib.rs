//! Shuai in the browser: the engine's WebAssembly entry point.
//!
//! Built for `wasm32-unknown-unknown` by `web/build.sh`, this is a plain
//! C-style module (no wasm-bindgen): a handful of exported functions and
//! four imported ones, driven by a small hand-written script
//! (`web/package/shuai.js`). Text crosses the boundary as UTF-8 bytes in
//! one input buffer the module owns.
//!
//! Exports: `shuai_buffer(len) -> ptr` (room for the next input),
//! `shuai_init(seed_lo, seed_hi)` (a fresh engine), `shuai_line(len) -> i32`
//! (one protocol line; 1 after `quit`), `shuai_rules(len)` (a rules query,
//! see [`rules`]), `shuai_games(len)` (a game file's bytes read, see
//! [`games::read`]), `shuai_review(len)` (a game judged from its searches,
//! see [`games::review`]); the last three answer with one line of JSON. Imports (module `env`): `shuai_host_output(ptr, len)`
//! (one output line), `shuai_host_now() -> f64` (milliseconds, e.g.
//! `performance.now()`), `shuai_host_stop() -> i32` (non-zero: stop the
//! search now), `shuai_host_ponderhit() -> i32` (non-zero: the pondered
//! move was played, as `ponderhit`).
//!
//! One thread: a `go` searches to its end before `shuai_line` returns,
//! printing its `info` lines and its `bestmove` on the way. How `stop` and
//! `ponderhit` reach it is the host's business (`shuai_host_stop` and
//! `shuai_host_ponderhit`, polled every 1024 nodes): see
//! `web/package/shuai.js` and docs/browser.md.

#![warn(missing_docs)]

pub mod games;
pub mod rules;

use shuai_engine::protocol::{Flow, Session};
use std::cell::RefCell;
use std::io::{self, Write};

mod host {
    //! The four functions the host provides, and native stand-ins for
    //! the tests (output collected in a list, a clock standing at 0, no
    //! stop, no ponderhit).

    #[cfg(target_family = "wasm")]
    mod imports {
        #[link(wasm_import_module = "env")]
        extern "C" {
            pub fn shuai_host_output(ptr: *const u8, len: usize);
            pub fn shuai_host_now() -> f64;
            pub fn shuai_host_stop() -> i32;
            pub fn shuai_host_ponderhit() -> i32;
        }
    }

    /// Hands one line of output to the host.
    #[cfg(target_family = "wasm")]
    pub fn output(line: &[u8]) {
        // SAFETY: the host reads `len` bytes at `ptr` from this module's
        // memory during the call and keeps no reference to them.
        unsafe { imports::shuai_host_output(line.as_ptr(), line.len()) }
    }

    /// The host's clock in milliseconds.
    #[cfg(target_family = "wasm")]
    pub fn now_ms() -> f64 {
        // SAFETY: an imported function taking nothing and returning a number.
        unsafe { imports::shuai_host_now() }
    }

    /// Whether the host asks the search to stop.
    #[cfg(target_family = "wasm")]
    pub fn stop() -> bool {
        // SAFETY: an imported function taking nothing and returning a number.
        unsafe { imports::shuai_host_stop() != 0 }
    }

    /// Whether the host says the pondered move was played.
    #[cfg(target_family = "wasm")]
    pub fn ponderhit() -> bool {
        // SAFETY: an imported function taking nothing and returning a number.
        unsafe { imports::shuai_host_ponderhit() != 0 }
    }

    /// The lines written so far (native tests; natively a search writes
    /// from its own thread).
    #[cfg(not(target_family = "wasm"))]
    pub static LINES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

    /// Collects one line of output (native tests).
    #[cfg(not(target_family = "wasm"))]
    pub fn output(line: &[u8]) {
        let mut lines = LINES.lock().unwrap_or_else(|e| e.into_inner());
        lines.push(String::from_utf8_lossy(line).into_owned());
    }

    /// Always 0 (native tests): a native search keeps `std`'s clock and
    /// never reads the one `shuai_init` installs.
    #[cfg(not(target_family = "wasm"))]
    pub fn now_ms() -> f64 {
        0.0
    }

    /// Never (native tests).
    #[cfg(not(target_family = "wasm"))]
    pub fn stop() -> bool {
        false
    }

    /// Never (native tests).
    #[cfg(not(target_family = "wasm"))]
    pub fn ponderhit() -> bool {
        false
    }
}

/// Writes whole lines to the host: bytes are kept until a line ends.
struct HostLines {
    pending: Vec<u8>,
}

impl Write for HostLines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                host::output(&self.pending);
                self.pending.clear();
            } else {
                self.pending.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

thread_local! {
    /// The engine of this module instance (one per Web Worker).
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    /// The bytes of the next input (`shuai_buffer`).
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room for `len` bytes of input: the host writes the next line (or rules
/// query) there, then calls [`shuai_line`] or [`shuai_rules`] with `len`.
/// The pointer is valid until the next call of this function.
#[no_mangle]
pub extern "C" fn shuai_buffer(len: usize) -> *mut u8 {
    INPUT.with(|input| {
        let mut input = input.borrow_mut();
        input.clear();
        input.resize(len, 0);
        input.as_mut_ptr()
    })
}

/// The input buffer's first `len` bytes as text (invalid UTF-8 replaced).
fn input_text(len: usize) -> String {
    INPUT.with(|input| {
        let input = input.borrow();
        String::from_utf8_lossy(&input[..len.min(input.len())]).into_owned()
    })
}

/// Starts a fresh engine (dropping any earlier one) with its random
/// choices seeded by `seed_hi:seed_lo` (the host's random numbers), and
/// installs the host's clock, stop poll and ponderhit poll.
#[no_mangle]
pub extern "C" fn shuai_init(seed_lo: u32, seed_hi: u32) {
    shuai_search::host::set_clock(host::now_ms);
    shuai_search::host::set_stop_poll(host::stop);
    shuai_search::host::set_ponderhit_poll(host::ponderhit);
    let mut session = Session::new(HostLines {
        pending: Vec::new(),
    });
    session.set_seed(u64::from(seed_hi) << 32 | u64::from(seed_lo));
    SESSION.with(|s| *s.borrow_mut() = Some(session));
}

/// Hands the engine the line in the input buffer's first `len` bytes;
/// its replies reach the host through `shuai_host_output` before this
/// returns (a `go` searches to its end first). Returns 1 after `quit`
/// (and for every later line), else 0. Starts an engine first if
/// [`shuai_init`] was not called.
#[no_mangle]
pub extern "C" fn shuai_line(len: usize) -> i32 {
    let line = input_text(len);
    if SESSION.with(|s| s.borrow().is_none()) {
        shuai_init(0x5348_5541, 0x4900_0001);
    }
    SESSION.with(|s| {
        let mut s = s.borrow_mut();
        match s.as_mut().map(|session| session.line(&line)) {
            Some(Flow::Continue) => 0,
            _ => 1,
        }
    })
}

/// Answers the rules query in the input buffer's first `len` bytes with
/// one line through `shuai_host_output` (see [`rules::query`]). Needs no
/// engine: the page asks these on its own instance while the engine's
/// instance searches in the worker.
#[no_mangle]
pub extern "C" fn shuai_rules(len: usize) {
    let reply = rules::query(&input_text(len));
    host::output(reply.as_bytes());
}

/// Reads the game file whose bytes fill the input buffer's first `len`
/// bytes and answers with one line of JSON through `shuai_host_output`
/// (see [`games::read`]). The bytes are the file's as they are (XQF is
/// binary; text may be UTF-8 or GBK).
#[no_mangle]
pub extern "C" fn shuai_games(len: usize) {
    let reply = INPUT.with(|input| {
        let input = input.borrow();
        games::read(&input[..len.min(input.len())])
    });
    host::output(reply.as_bytes());
}

/// Judges a game from its positions' searches, the query in the input
/// buffer's first `len` bytes, and answers with one line of JSON through
/// `shuai_host_output` (see [`games::review`]).
#[no_mangle]
pub extern "C" fn shuai_review(len: usize) {
    let reply = games::review(&input_text(len));
    host::output(reply.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send(line: &str) -> i32 {
        let ptr = shuai_buffer(line.len());
        // SAFETY: `shuai_buffer` made `line.len()` bytes of room at `ptr`.
        unsafe { std::ptr::copy_nonoverlapping(line.as_ptr(), ptr, line.len()) };
        shuai_line(line.len())
    }

    fn take_lines() -> Vec<String> {
        std::mem::take(&mut *host::LINES.lock().unwrap())
    }

    #[test]
    fn a_session_through_the_exports() {
        shuai_init(1, 2);
        take_lines();
        assert_eq!(send("uci"), 0);
        let lines = take_lines();
        assert_eq!(lines.last().map(String::as_str), Some("uciok"));
        send("position startpos moves h2e2");
        send("go depth 3");
        // Natively the search runs on its own thread: wait for it.
        SESSION.with(|s| s.borrow_mut().as_mut().map(|s| s.wait()));
        let lines = take_lines();
        let best = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
        let mv = best.split_whitespace().nth(1).unwrap();
        let mut pos = shuai_board::Position::startpos();
        pos.make_move(pos.parse_move("h2e2").unwrap());
        assert!(pos.parse_move(mv).is_ok_and(|m| pos.is_legal(m)));
        send("position fen not a fen");
        assert_eq!(
            take_lines(),
            vec!["info string invalid FEN (FEN has 1 ranks, expected 10); position unchanged"]
        );
        assert_eq!(send("quit"), 1);
        assert_eq!(send("isready"), 1);
    }
}
