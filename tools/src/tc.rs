//! Search limits of a match: real clocks (base + increment, moves to go),
//! fixed time per move, fixed nodes, fixed depth.

use std::fmt;

/// What each engine gets for each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A real clock: `base_ms` for the game (or for each period of
    /// `moves_to_go` moves), plus `inc_ms` after every move.
    Clock {
        /// Starting time (and time added at each new period), ms.
        base_ms: u64,
        /// Fischer increment, ms.
        inc_ms: u64,
        /// Moves per period; `None` is sudden death (plus increment).
        moves_to_go: Option<u32>,
    },
    /// Exactly this long per move, ms.
    MoveTime(u64),
    /// A node budget per move.
    Nodes(u64),
    /// A fixed search depth per move.
    Depth(u32),
}

impl Limit {
    /// Parses a time control: `SECONDS[+INC]` or `MOVES/SECONDS[+INC]`,
    /// e.g. `10+0.1`, `60`, `40/120+1`.
    pub fn parse_tc(text: &str) -> Result<Limit, String> {
        let bad =
            || format!("bad time control '{text}' (expected SECONDS[+INC] or MOVES/SECONDS[+INC])");
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (Some(m.trim().parse::<u32>().map_err(|_| bad())?), r),
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let secs = |s: &str| -> Result<u64, String> {
            let v: f64 = s.trim().parse().map_err(|_| bad())?;
            if !(0.0..1e9).contains(&v) {
                return Err(bad());
            }
            Ok((v * 1000.0).round() as u64)
        };
        let base_ms = secs(base)?;
        let inc_ms = match inc {
            Some(i) => secs(i)?,
            None => 0,
        };
        if base_ms == 0 && inc_ms == 0 {
            return Err(bad());
        }
        if moves == Some(0) {
            return Err(bad());
        }
        Ok(Limit::Clock {
            base_ms,
            inc_ms,
            moves_to_go: moves,
        })
    }

    /// Whether the engines play on a clock that can run out.
    pub fn is_clock(&self) -> bool {
        matches!(self, Limit::Clock { .. })
    }
}

impl fmt::Display for Limit {
    /// `10+0.1`, `40/60+0.5`, `movetime 100ms`, `nodes 10000`, `depth 8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |ms: u64| {
            let s = format!("{:.3}", ms as f64 / 1000.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        match *self {
            Limit::Clock {
                base_ms,
                inc_ms,
                moves_to_go,
            } => {
                if let Some(m) = moves_to_go {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", secs(base_ms))?;
                if inc_ms > 0 {
                    write!(f, "+{}", secs(inc_ms))?;
                }
                Ok(())
            }
            Limit::MoveTime(ms) => write!(f, "movetime {ms}ms"),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
            Limit::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left, ms.
    pub remaining_ms: u64,
    /// Moves played in the current period.
    pub moves_in_period: u32,
}

impl Clock {
    /// A fresh clock for `limit` (zero for limits without a clock).
    pub fn new(limit: &Limit) -> Clock {
        let remaining_ms = match *limit {
            Limit::Clock { base_ms, .. } => base_ms,
            _ => 0,
        };
        Clock {
            remaining_ms,
            moves_in_period: 0,
        }
    }

    /// Moves left in the current period, for `movestogo`.
    pub fn moves_to_go(&self, limit: &Limit) -> Option<u32> {
        match *limit {
            Limit::Clock {
                moves_to_go: Some(m),
                ..
            } => Some(m - self.moves_in_period),
            _ => None,
        }
    }

    /// Charges a move that took `elapsed_ms`; returns false if the flag
    /// fell (the move took longer than the time left plus `margin_ms`).
    /// The time left never goes below zero; the increment, and the base
    /// time at the start of a new period, are added after the move.
    pub fn charge(&mut self, limit: &Limit, elapsed_ms: u64, margin_ms: u64) -> bool {
        let Limit::Clock {
            base_ms,
            inc_ms,
            moves_to_go,
        } = *limit
        else {
            return true;
        };
        if elapsed_ms > self.remaining_ms + margin_ms {
            self.remaining_ms = 0;
            return false;
        }
        self.remaining_ms = self.remaining_ms.saturating_sub(elapsed_ms) + inc_ms;
        if let Some(m) = moves_to_go {
            self.moves_in_period += 1;
            if self.moves_in_period >= m {
                self.moves_in_period = 0;
                self.remaining_ms += base_ms;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        assert_eq!(
            Limit::parse_tc("10+0.1"),
            Ok(Limit::Clock {
                base_ms: 10_000,
                inc_ms: 100,
                moves_to_go: None
            })
        );
        assert_eq!(
            Limit::parse_tc("40/60"),
            Ok(Limit::Clock {
                base_ms: 60_000,
                inc_ms: 0,
                moves_to_go: Some(40)
            })
        );
        for bad in ["", "x", "0", "10+", "0/10", "-1+1"] {
            assert!(Limit::parse_tc(bad).is_err(), "{bad}");
        }
        assert_eq!(Limit::parse_tc("10+0.1").unwrap().to_string(), "10+0.1");
        assert_eq!(Limit::parse_tc("40/60+1").unwrap().to_string(), "40/60+1");
    }

    #[test]
    fn clock_runs_and_flags() {
        let tc = Limit::parse_tc("2/1+0.1").unwrap();
        let mut c = Clock::new(&tc);
        assert_eq!(c.moves_to_go(&tc), Some(2));
        assert!(c.charge(&tc, 400, 0));
        assert_eq!(c.remaining_ms, 700);
        assert_eq!(c.moves_to_go(&tc), Some(1));
        assert!(c.charge(&tc, 700, 0));
        // New period: 0 + 100 increment + 1000 base.
        assert_eq!(c.remaining_ms, 1100);
        assert_eq!(c.moves_to_go(&tc), Some(2));
        // Within the grace margin: allowed, clock at zero plus increment.
        assert!(c.charge(&tc, 1150, 100));
        assert_eq!(c.remaining_ms, 100);
        assert!(!c.charge(&tc, 201, 100));
    }
}
