//! The live progress line on stderr: games done, W-D-L, Elo ± error, LOS
//! and, with an SPRT, the LLR. On a terminal the line is redrawn in place;
//! otherwise one line is printed per finished game.

use std::io::{IsTerminal, Write};
use std::time::Instant;

/// The progress display.
pub struct Progress {
    enabled: bool,
    tty: bool,
    total: usize,
    start: Instant,
    drawn: bool,
}

impl Progress {
    /// A display for `total` games; `enabled` false prints nothing.
    pub fn new(total: usize, enabled: bool) -> Progress {
        Progress {
            enabled,
            tty: std::io::stderr().is_terminal(),
            total,
            start: Instant::now(),
            drawn: false,
        }
    }

    /// Shows the state after `done` games; `status` is the text after the
    /// bar (W-D-L, Elo, LOS, LLR).
    pub fn update(&mut self, done: usize, status: &str) {
        if !self.enabled {
            return;
        }
        let width = 24;
        let filled = (done * width)
            .checked_div(self.total)
            .unwrap_or(width)
            .min(width);
        let bar: String = "#".repeat(filled) + &"-".repeat(width - filled);
        let secs = self.start.elapsed().as_secs();
        let eta = if done > 0 && done < self.total {
            let left = secs as f64 * (self.total - done) as f64 / done as f64;
            format!(" eta {}", hms(left as u64))
        } else {
            String::new()
        };
        let line = format!(
            "[{bar}] {done}/{} {status} | {}{eta}",
            self.total,
            hms(secs)
        );
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r\x1b[K{line}");
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
        self.drawn = true;
    }

    /// Ends the line on a terminal.
    pub fn finish(&mut self) {
        if self.enabled && self.tty && self.drawn {
            eprintln!();
        }
        self.drawn = false;
    }
}

/// `h:mm:ss`.
pub fn hms(secs: u64) -> String {
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}
