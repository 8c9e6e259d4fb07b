//! The soak's log: one JSON object a line, appended as the run goes, so it
//! can be followed with `tail -f`, read by a script, and resumed. Lines:
//! `{"type":"start",…}` when a run starts, `{"type":"game",…}` for each
//! game, `{"type":"incident",…}` for each failure (with the last lines
//! exchanged with the engine), `{"type":"tally",…}` after each game (the
//! totals so far: a resumed run starts from the last one) and
//! `{"type":"summary","text":…}` at the end.

use super::tally::{Incident, Tally};
use super::SoakConfig;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// One finished game, as logged.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameLine {
    /// Game number, from 0.
    pub game: usize,
    /// Its clock.
    pub tc: String,
    /// `Threads` of the engine under test.
    pub threads: u32,
    /// Its `Hash`, MB.
    pub hash_mb: u32,
    /// Whether it played Red.
    pub tested_red: bool,
    /// `1-0`, `0-1`, `1/2-1/2`, or `aborted` after a fault.
    pub result: String,
    /// How the game ended (the match runner's termination names).
    pub termination: String,
    /// In plain words.
    pub reason: String,
    /// Moves the engine under test played (about, for an aborted game).
    pub moves: usize,
}

/// The open log.
pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Opens `path` for appending; the totals are those of its last
    /// `tally` line (zero for a new or empty log).
    pub fn open(path: &Path) -> Result<(Journal, Tally), String> {
        let tally = match std::fs::read_to_string(path) {
            Ok(text) => last_tally(&text).map_err(|e| format!("{}: {e}", path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Tally::default(),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
            },
            tally,
        ))
    }

    fn write(&mut self, value: &serde_json::Value) -> Result<(), String> {
        writeln!(self.file, "{value}")
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }

    /// Notes the start (or resumption at game `from`) of a run.
    pub fn start(&mut self, cfg: &SoakConfig, from: u64) -> Result<(), String> {
        self.write(&json!({
            "type": "start",
            "from_game": from,
            "games": cfg.games,
            "seed": cfg.seed,
            "engine": cfg.engine.cmd,
            "opponent": cfg.opponent.cmd,
            "clocks": cfg.clocks.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "max_threads": cfg.max_threads,
            "max_hash_mb": cfg.max_hash_mb,
            "ponder": cfg.ponder,
        }))
    }

    /// Logs a finished game, its incidents and the totals after it.
    pub fn game(
        &mut self,
        game: &GameLine,
        incidents: &[Incident],
        tally: &Tally,
    ) -> Result<(), String> {
        for i in incidents {
            let mut v = serde_json::to_value(i).map_err(|e| e.to_string())?;
            v["type"] = json!("incident");
            self.write(&v)?;
        }
        let mut v = serde_json::to_value(game).map_err(|e| e.to_string())?;
        v["type"] = json!("game");
        self.write(&v)?;
        let mut v = serde_json::to_value(tally).map_err(|e| e.to_string())?;
        v["type"] = json!("tally");
        self.write(&v)
    }

    /// Logs the summary at the end of a run.
    pub fn summary(&mut self, tally: &Tally) -> Result<(), String> {
        self.write(&json!({"type": "summary", "text": tally.summary()}))
    }
}

/// The totals of the last `tally` line of a log's text. A last line cut
/// short (the run was killed while writing) is skipped.
fn last_tally(text: &str) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for (n, line) in text.lines().enumerate() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if v["type"] == "tally" {
            tally = serde_json::from_value(v)
                .map_err(|e| format!("line {}: not a tally: {e}", n + 1))?;
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resumes_from_the_last_tally() {
        let t = Tally {
            games: 3,
            hangs: 1,
            ..Tally::default()
        };
        let mut v = serde_json::to_value(&t).unwrap();
        v["type"] = json!("tally");
        let text = format!(
            "{{\"type\":\"start\"}}\n{v}\n{{\"type\":\"game\",\"game\":3}}\n{{\"type\":\"tal"
        );
        assert_eq!(last_tally(&text).unwrap(), t);
        assert_eq!(last_tally("").unwrap(), Tally::default());
    }
}
