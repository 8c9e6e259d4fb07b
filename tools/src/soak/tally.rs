//! What a soak counts: games per clock, time losses, crashes, hangs,
//! illegal moves, protocol faults, the interjections sent by kind, and how
//! fast `isready` and `stop` were answered; and the incidents themselves,
//! each with the last lines exchanged so it can be replayed.

use crate::progress::hms;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What went wrong with the engine under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IncidentKind {
    /// The process ended (or its pipes broke).
    Crash,
    /// A `go` without `bestmove` even after `stop`, an `isready` without
    /// `readyok` within the limit, or a `stop` not answered within the
    /// grace.
    Hang,
    /// A move that is not legal in the position (or not a move at all).
    IllegalMove,
    /// A move later than the clock plus the margin.
    TimeLoss,
    /// A protocol breach that is none of the above: a `bestmove` nobody
    /// asked for, one during a ponder search before `ponderhit`/`stop`, no
    /// move with legal moves on the board, an illegal `ponder` move.
    Protocol,
}

/// One thing that went wrong, as written to the log.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Incident {
    /// Game number, from 0.
    pub game: usize,
    /// Engine moves played in the game so far.
    pub ply: usize,
    /// The clock of the game.
    pub tc: String,
    /// What kind of failure.
    pub kind: IncidentKind,
    /// In plain words.
    pub what: String,
    /// The last lines exchanged with the engine, oldest first
    /// (`SECONDS > sent`, `SECONDS < read`).
    pub transcript: Vec<String>,
}

/// Counts of answers and their delays, ms.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    /// Answers timed.
    pub count: u64,
    /// Sum of the delays, ms.
    pub sum_ms: u64,
    /// The longest delay, ms.
    pub max_ms: u64,
}

impl Latency {
    /// Adds one delay.
    pub fn add(&mut self, ms: u64) {
        self.count += 1;
        self.sum_ms += ms;
        self.max_ms = self.max_ms.max(ms);
    }

    fn text(&self) -> String {
        if self.count == 0 {
            return "none timed".into();
        }
        format!(
            "{} answered, mean {:.1} ms, max {} ms",
            self.count,
            self.sum_ms as f64 / self.count as f64,
            self.max_ms
        )
    }
}

/// Figures of one clock.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClockTally {
    /// Games played at this clock.
    pub games: u64,
    /// Moves the engine under test played.
    pub moves: u64,
    /// Its time losses.
    pub time_losses: u64,
}

/// Everything a soak has counted; written after every game, so a resumed
/// run starts from the last one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Games finished (the next game's number).
    pub games: u64,
    /// Per clock (`1+0.01`).
    pub clocks: BTreeMap<String, ClockTally>,
    /// The engine under test's wins, draws and losses.
    pub wdl: [u64; 3],
    /// Crashes of the engine under test.
    pub crashes: u64,
    /// Its hangs.
    pub hangs: u64,
    /// Its illegal moves.
    pub illegal_moves: u64,
    /// Its protocol faults.
    pub protocol_faults: u64,
    /// Games the opponent lost by a failure of its own (time, crash…).
    pub opponent_failures: u64,
    /// Interjections and protocol events sent to the engine under test, by
    /// kind.
    pub interjections: BTreeMap<String, u64>,
    /// Delays of `readyok` after `isready`.
    pub isready: Latency,
    /// Delays of `bestmove` after `stop` (the operator's and on a ponder
    /// miss).
    pub stop: Latency,
    /// Games by the engine's `Threads`.
    pub threads: BTreeMap<u32, u64>,
    /// Games by the engine's `Hash`, MB.
    pub hash_mb: BTreeMap<u32, u64>,
    /// Seconds of play over all runs.
    pub seconds: f64,
}

impl Tally {
    /// Counts one interjection (or protocol event) of `kind`.
    pub fn sent(&mut self, kind: &str) {
        *self.interjections.entry(kind.to_string()).or_default() += 1;
    }

    /// Counts an incident.
    pub fn count(&mut self, i: &Incident) {
        match i.kind {
            IncidentKind::Crash => self.crashes += 1,
            IncidentKind::Hang => self.hangs += 1,
            IncidentKind::IllegalMove => self.illegal_moves += 1,
            IncidentKind::TimeLoss => self.clocks.entry(i.tc.clone()).or_default().time_losses += 1,
            IncidentKind::Protocol => self.protocol_faults += 1,
        }
    }

    /// Crashes, hangs, illegal moves and protocol faults together: what
    /// must be zero.
    pub fn failures(&self) -> u64 {
        self.crashes + self.hangs + self.illegal_moves + self.protocol_faults
    }

    /// The summary in plain words.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let [w, d, l] = self.wdl;
        let _ = writeln!(
            s,
            "games {} in {} (engine under test +{w} ={d} -{l}; opponent failures {})",
            self.games,
            hms(self.seconds as u64),
            self.opponent_failures
        );
        for (tc, c) in &self.clocks {
            let rate = |n: u64, of: u64| {
                if of == 0 {
                    0.0
                } else {
                    100.0 * n as f64 / of as f64
                }
            };
            let _ = writeln!(
                s,
                "clock {tc}: {} games, {} moves, {} time losses ({:.2}% of games, {:.3}% of moves)",
                c.games,
                c.moves,
                c.time_losses,
                rate(c.time_losses, c.games),
                rate(c.time_losses, c.moves)
            );
        }
        let _ = writeln!(
            s,
            "crashes {}, hangs {}, illegal moves {}, protocol faults {}",
            self.crashes, self.hangs, self.illegal_moves, self.protocol_faults
        );
        let list = |m: &BTreeMap<String, u64>| {
            m.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(s, "sent: {}", list(&self.interjections));
        let _ = writeln!(s, "isready: {}", self.isready.text());
        let _ = writeln!(s, "stop: {}", self.stop.text());
        let num = |m: &BTreeMap<u32, u64>| {
            m.iter()
                .map(|(k, v)| format!("{k}:{v}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = writeln!(
            s,
            "games by Threads {}; by Hash MB {}",
            num(&self.threads),
            num(&self.hash_mb)
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_incidents_and_writes_a_summary() {
        let mut t = Tally::default();
        let inc = |kind| Incident {
            game: 3,
            ply: 10,
            tc: "1+0.01".into(),
            kind,
            what: "x".into(),
            transcript: vec![],
        };
        t.clocks.insert(
            "1+0.01".into(),
            ClockTally {
                games: 4,
                moves: 100,
                time_losses: 0,
            },
        );
        t.count(&inc(IncidentKind::TimeLoss));
        t.count(&inc(IncidentKind::Hang));
        t.sent("isready");
        t.sent("isready");
        t.isready.add(3);
        t.isready.add(1);
        assert_eq!(t.failures(), 1);
        assert_eq!(t.clocks["1+0.01"].time_losses, 1);
        let s = t.summary();
        assert!(
            s.contains("1 time losses (25.00% of games, 1.000% of moves)"),
            "{s}"
        );
        assert!(s.contains("sent: isready 2"), "{s}");
        assert!(s.contains("mean 2.0 ms, max 3 ms"), "{s}");
        let back: Tally = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
        assert_eq!(back, t);
    }
}
