//! The live progress line on stderr: a bar, items done of the total,
//! elapsed time, the time left, and a status text (a match's W-D-L, Elo ±
//! error, LOS and LLR; datagen's positions and rate). On a terminal the
//! line is redrawn in place; otherwise one line is printed per update (or at
//! most one per [`Progress::every`] interval).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// The progress display.
pub struct Progress {
    enabled: bool,
    tty: bool,
    total: usize,
    start: Instant,
    drawn: bool,
    base: usize,
    every: Duration,
    last_line: Option<Instant>,
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
            base: 0,
            every: Duration::ZERO,
            last_line: None,
        }
    }

    /// The display of a run that starts with `done` items already done
    /// (a resumed run): the time left is estimated from this run's pace.
    pub fn starting_at(mut self, done: usize) -> Progress {
        self.base = done;
        self
    }

    /// Off a terminal, prints at most one line per `interval` (and the
    /// last one).
    pub fn every(mut self, interval: Duration) -> Progress {
        self.every = interval;
        self
    }

    /// Seconds since the display was made.
    pub fn elapsed_secs(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Shows the state after `done` games; `status` is the text after the
    /// bar (W-D-L, Elo, LOS, LLR).
    pub fn update(&mut self, done: usize, status: &str) {
        if !self.enabled {
            return;
        }
        if !self.tty && done < self.total {
            if let Some(t) = self.last_line {
                if t.elapsed() < self.every {
                    return;
                }
            }
        }
        let width = 24;
        let filled = (done * width)
            .checked_div(self.total)
            .unwrap_or(width)
            .min(width);
        let bar: String = "#".repeat(filled) + &"-".repeat(width - filled);
        let secs = self.start.elapsed().as_secs();
        let run = done.saturating_sub(self.base);
        let eta = if run > 0 && done < self.total {
            let left = self.elapsed_secs() * (self.total - done) as f64 / run as f64;
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
            self.last_line = Some(Instant::now());
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
