//! One engine process: start-up and handshake, options, new games, and
//! `go` with a deadline, reading `info` lines on the way.
//!
//! A reader thread turns the engine's standard output into time-stamped
//! lines on a channel, so the runner can wait with a timeout and measure
//! the time to `bestmove` when the line was read, not when it was handled.

use crate::spec::{EngineSpec, Protocol};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A score reported by an engine, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns (UCCI's plain integers are read as centipawns too).
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl EngineScore {
    /// The score on one scale: mates are ±(100000 − moves).
    pub fn as_cp(self) -> i32 {
        match self {
            EngineScore::Cp(c) => c,
            EngineScore::Mate(n) if n > 0 => 100_000 - n,
            EngineScore::Mate(n) => -100_000 - n,
        }
    }

    /// `+0.35`, `-1.20`, `+M5`, `-M3` (as in cutechess PGN comments).
    pub fn pgn_text(self) -> String {
        match self {
            EngineScore::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
            EngineScore::Mate(n) if n > 0 => format!("+M{n}"),
            EngineScore::Mate(n) => format!("-M{}", -n),
        }
    }
}

/// What the engine said about its search (the latest value of each field).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Depth of the latest line that carried a score.
    pub depth: Option<u32>,
    /// Selective depth.
    pub seldepth: Option<u32>,
    /// Latest score.
    pub score: Option<EngineScore>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Engine's own time, ms.
    pub time_ms: Option<u64>,
    /// Principal variation in ICCS (ranks 0–9).
    pub pv: Vec<String>,
}

impl SearchInfo {
    /// Merges one `info` line; returns true if it carried a score (a
    /// completed iteration).
    pub fn update(&mut self, proto: Protocol, line: &str) -> bool {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let mut scored = false;
        let mut i = 1;
        let num = |i: usize| toks.get(i).and_then(|t| t.parse::<i64>().ok());
        let mut depth = None;
        while i < toks.len() {
            match toks[i] {
                "depth" => {
                    depth = num(i + 1).map(|d| d.max(0) as u32);
                    i += 2;
                }
                "seldepth" => {
                    self.seldepth = num(i + 1).map(|d| d.max(0) as u32);
                    i += 2;
                }
                "score" => match toks.get(i + 1).copied() {
                    Some("cp") => {
                        if let Some(v) = num(i + 2) {
                            self.score = Some(EngineScore::Cp(v as i32));
                            scored = true;
                        }
                        i += 3;
                    }
                    Some("mate") => {
                        if let Some(v) = num(i + 2) {
                            self.score = Some(EngineScore::Mate(v as i32));
                            scored = true;
                        }
                        i += 3;
                    }
                    _ => {
                        if let Some(v) = num(i + 1) {
                            self.score = Some(EngineScore::Cp(v as i32));
                            scored = true;
                        }
                        i += 2;
                    }
                },
                "nodes" => {
                    self.nodes = num(i + 1).map(|v| v.max(0) as u64);
                    i += 2;
                }
                "nps" => {
                    self.nps = num(i + 1).map(|v| v.max(0) as u64);
                    i += 2;
                }
                "time" => {
                    self.time_ms = num(i + 1).map(|v| v.max(0) as u64);
                    i += 2;
                }
                "pv" => {
                    self.pv = toks[i + 1..]
                        .iter()
                        .map_while(|t| proto.move_from_engine(t))
                        .collect();
                    break;
                }
                "string" | "message" => break,
                _ => i += 1,
            }
        }
        if scored {
            if depth.is_some() {
                self.depth = depth;
            }
        } else if self.depth.is_none() {
            self.depth = depth;
        }
        scored
    }
}

/// How a `go` ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoOutcome {
    /// `bestmove` in time.
    Move {
        /// The move as the engine wrote it.
        raw: String,
        /// The move in ICCS with ranks 0–9, if it has the form of a move.
        iccs: Option<String>,
        /// Time from `go` to `bestmove`, ms.
        elapsed_ms: u64,
        /// Whether the engine appended `resign` (UCCI).
        resign: bool,
    },
    /// `bestmove (none)`, `bestmove 0000` or `nobestmove`.
    NoMove {
        /// Time from `go` to the answer, ms.
        elapsed_ms: u64,
    },
    /// No answer by the deadline, but one came after `stop`.
    Late {
        /// Time from `go` to the late answer, ms.
        elapsed_ms: u64,
    },
    /// No answer even after `stop`: the process was killed.
    NoAnswer,
    /// The process ended (or its pipes broke).
    Crash,
}

/// A `bestmove` (or UCCI `nobestmove`) line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move as the engine wrote it; empty for no move.
    pub raw: String,
    /// The move in ICCS with ranks 0–9, if it has the form of a move.
    pub iccs: Option<String>,
    /// The `ponder` move in ICCS (ranks 0–9), if one was given.
    pub ponder: Option<String>,
    /// Whether the engine appended `resign` (UCCI).
    pub resign: bool,
}

impl BestMove {
    /// Reads `bestmove X [ponder Y] [resign]` or `nobestmove`; `None` for
    /// any other line.
    pub fn parse(proto: Protocol, line: &str) -> Option<BestMove> {
        let mut toks = line.split_whitespace();
        match toks.next()? {
            "nobestmove" => Some(BestMove {
                raw: String::new(),
                iccs: None,
                ponder: None,
                resign: false,
            }),
            "bestmove" => {
                let raw = toks.next().unwrap_or("");
                let rest: Vec<&str> = toks.collect();
                let ponder = rest
                    .iter()
                    .position(|t| *t == "ponder")
                    .and_then(|i| rest.get(i + 1))
                    .and_then(|m| proto.move_from_engine(m));
                let none = raw.is_empty() || raw == "(none)" || raw == "0000" || raw == "none";
                Some(BestMove {
                    raw: if none { String::new() } else { raw.to_string() },
                    iccs: if none {
                        None
                    } else {
                        proto.move_from_engine(raw)
                    },
                    ponder,
                    resign: rest.contains(&"resign"),
                })
            }
            _ => None,
        }
    }

    /// Whether the engine answered without a move.
    pub fn is_none(&self) -> bool {
        self.raw.is_empty()
    }

    /// How a `go` ended with this answer `elapsed_ms` after it, `late`
    /// if it came only after the runner's `stop` at the deadline.
    pub fn outcome(self, elapsed_ms: u64, late: bool) -> GoOutcome {
        if late {
            GoOutcome::Late { elapsed_ms }
        } else if self.is_none() {
            GoOutcome::NoMove { elapsed_ms }
        } else {
            GoOutcome::Move {
                raw: self.raw,
                iccs: self.iccs,
                elapsed_ms,
                resign: self.resign,
            }
        }
    }
}

/// What [`Engine::read`] got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Received {
    /// A line, with the time it was read from the pipe.
    Line(Instant, String),
    /// Nothing within the time allowed.
    Timeout,
    /// The engine's output ended: it exited or closed its pipe.
    Ended,
}

/// Lines of traffic each engine keeps for reports ([`Engine::recent_lines`]).
const RECENT_LINES: usize = 60;

enum Msg {
    Line(Instant, String),
    Eof,
}

/// A shared communication log (`--debug-log`).
pub type CommLog = Arc<Mutex<std::fs::File>>;

/// A running engine.
pub struct Engine {
    /// What was started.
    pub spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Msg>,
    dead: bool,
    log: Option<(CommLog, String)>,
    epoch: Instant,
    /// The last lines exchanged, time-stamped, for crash and hang reports.
    recent: VecDeque<String>,
    /// What the engine printed between the options of its spec (`opt.X=`)
    /// and `readyok`: an engine that is happy with its options prints
    /// nothing there, so these are usually complaints (an unknown option, an
    /// unreadable file).
    pub option_replies: Vec<String>,
}

/// Time allowed for `uciok`/`ucciok` and `readyok`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

impl Engine {
    /// Starts the engine, does the handshake, sends the options and waits
    /// for `readyok`. `tag` names it in the communication log.
    pub fn start(spec: &EngineSpec, log: Option<CommLog>, tag: &str) -> Result<Engine, String> {
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start engine {} ({}): {e}", spec.name, spec.cmd))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("read-{}", spec.name))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Msg::Eof);
                            return;
                        }
                        Ok(_) => {
                            let now = Instant::now();
                            let text = String::from_utf8_lossy(&buf);
                            let line = text.trim_end_matches(['\n', '\r']).to_string();
                            if tx.send(Msg::Line(now, line)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let mut e = Engine {
            spec: spec.clone(),
            child,
            stdin,
            rx,
            dead: false,
            log: log.map(|l| (l, tag.to_string())),
            epoch: Instant::now(),
            recent: VecDeque::with_capacity(RECENT_LINES),
            option_replies: Vec::new(),
        };
        e.handshake()
            .map_err(|m| format!("engine {} ({}): {m}", spec.name, spec.cmd))?;
        Ok(e)
    }

    fn handshake(&mut self) -> Result<(), String> {
        let proto = self.spec.proto;
        let (hello, ok) = match proto {
            Protocol::Ucci => ("ucci", "ucciok"),
            _ => ("uci", "uciok"),
        };
        self.send(hello)?;
        self.wait_for(ok, HANDSHAKE_TIMEOUT)?;
        // The protocol's own setting first, and its replies (an engine may
        // describe the variant) apart from those to the user's options.
        match proto {
            Protocol::Uci1 => self.send("setoption name UCI_Variant value xiangqi")?,
            Protocol::Ucci => self.send("setoption usemillisec true")?,
            Protocol::Uci => {}
        }
        if proto != Protocol::Uci {
            self.sync()?;
        }
        for (name, value) in self.spec.options.clone() {
            self.set_option(&name, &value)?;
        }
        self.send("isready")?;
        self.option_replies = self.wait_for("readyok", HANDSHAKE_TIMEOUT)?;
        Ok(())
    }

    /// `isready` → `readyok`.
    pub fn sync(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.wait_for("readyok", HANDSHAKE_TIMEOUT).map(drop)
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self) -> Result<(), String> {
        match self.spec.proto {
            Protocol::Ucci => self.send("setoption newgame")?,
            _ => self.send("ucinewgame")?,
        }
        self.sync()
    }

    /// Whether the process is known to be gone or unusable.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Sends `setoption` in the engine's protocol (UCCI: `setoption NAME
    /// VALUE`; UCI: `setoption name NAME value VALUE`).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let line = match self.spec.proto {
            Protocol::Ucci => format!("setoption {name} {value}"),
            _ => format!("setoption name {name} value {value}"),
        };
        self.send(&line)
    }

    /// The operating system's id of the engine's process.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The last lines exchanged (up to 60, oldest first), each as
    /// `SECONDS > line` (sent) or `SECONDS < line` (read), so a crash or a
    /// hang can be reported with what led to it.
    pub fn recent_lines(&self) -> Vec<String> {
        self.recent.iter().cloned().collect()
    }

    fn log_line(&mut self, dir: &str, line: &str) {
        if self.recent.len() == RECENT_LINES {
            self.recent.pop_front();
        }
        let secs = self.epoch.elapsed().as_secs_f64();
        self.recent.push_back(format!("{secs:.3} {dir} {line}"));
        if let Some((log, tag)) = &self.log {
            if let Ok(mut f) = log.lock() {
                let _ = writeln!(
                    f,
                    "{:>9.3} {tag} {dir} {line}",
                    self.epoch.elapsed().as_secs_f64()
                );
            }
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        self.log_line(">", line);
        let r = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        r.map_err(|e| {
            self.dead = true;
            format!("cannot write to the engine: {e}")
        })
    }

    /// Waits up to `timeout` for the engine's next line.
    pub fn read(&mut self, timeout: Duration) -> Received {
        match self.recv(timeout) {
            Ok(Some((t, l))) => Received::Line(t, l),
            Ok(None) => Received::Timeout,
            Err(()) => Received::Ended,
        }
    }

    fn recv(&mut self, timeout: Duration) -> Result<Option<(Instant, String)>, ()> {
        match self.rx.recv_timeout(timeout) {
            Ok(Msg::Line(t, l)) => {
                self.log_line("<", &l);
                Ok(Some((t, l)))
            }
            Ok(Msg::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.log_line("<", "(end of output)");
                self.dead = true;
                Err(())
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    /// Reads lines until one is `word`; returns the non-empty lines before it.
    fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<Vec<String>, String> {
        let end = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Err(()) => return Err(format!("the engine exited while we waited for {word}")),
                Ok(None) => {
                    self.dead = true;
                    return Err(format!("no {word} within {} s", timeout.as_secs()));
                }
                Ok(Some((_, l))) if l.trim() == word => return Ok(before),
                Ok(Some((_, l))) => {
                    if !l.trim().is_empty() {
                        before.push(l);
                    }
                }
            }
        }
    }

    /// Sends `position_cmd` and `go_cmd`, then waits for the answer up to
    /// `deadline` after `go`; on a timeout sends `stop` and waits
    /// `stop_grace` more before killing the engine. `on_info` sees each
    /// `info` line (time since `go` in ms, the merged info so far).
    pub fn go(
        &mut self,
        position_cmd: &str,
        go_cmd: &str,
        deadline: Duration,
        stop_grace: Duration,
        info: &mut SearchInfo,
        on_info: &mut dyn FnMut(u64, &SearchInfo),
    ) -> GoOutcome {
        // Drop lines left from an earlier search.
        loop {
            match self.rx.try_recv() {
                Ok(Msg::Line(_, l)) => self.log_line("<", &l),
                Ok(Msg::Eof) => {
                    self.dead = true;
                    return GoOutcome::Crash;
                }
                Err(_) => break,
            }
        }
        if self.send(position_cmd).is_err() || self.send(go_cmd).is_err() {
            return GoOutcome::Crash;
        }
        let start = Instant::now();
        let proto = self.spec.proto;
        let mut stopped = false;
        let mut end = start + deadline;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let (t, line) = match self.recv(left) {
                Err(()) => return GoOutcome::Crash,
                Ok(Some(x)) => x,
                Ok(None) => {
                    if stopped {
                        self.kill();
                        return GoOutcome::NoAnswer;
                    }
                    stopped = true;
                    if self.send("stop").is_err() {
                        return GoOutcome::Crash;
                    }
                    end = Instant::now() + stop_grace;
                    continue;
                }
            };
            let elapsed_ms = t.saturating_duration_since(start).as_millis() as u64;
            if line.starts_with("info") {
                info.update(proto, &line);
                on_info(elapsed_ms, info);
            } else if let Some(b) = BestMove::parse(proto, &line) {
                return b.outcome(elapsed_ms, stopped);
            }
        }
    }

    /// Kills the process.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.dead = true;
    }

    /// Asks the engine to quit (UCCI waits for `bye`), killing it if it
    /// has not exited after a second.
    pub fn quit(mut self) {
        if !self.dead && self.send("quit").is_ok() {
            let end = Instant::now() + Duration::from_secs(1);
            while Instant::now() < end {
                if let Ok(Some(_)) = self.child.try_wait() {
                    self.dead = true;
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        self.kill();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_info_lines() {
        let mut i = SearchInfo::default();
        assert!(i.update(
            Protocol::Uci1,
            "info depth 12 seldepth 18 multipv 1 score cp -35 nodes 123456 nps 1000000 time 123 pv h3e3 h10g8"
        ));
        assert_eq!(i.depth, Some(12));
        assert_eq!(i.score, Some(EngineScore::Cp(-35)));
        assert_eq!(i.nodes, Some(123456));
        assert_eq!(i.pv, vec!["h2e2", "h9g7"]);
        assert!(!i.update(
            Protocol::Uci1,
            "info depth 13 currmove h3e3 currmovenumber 1"
        ));
        assert_eq!(i.depth, Some(12));
        assert!(i.update(
            Protocol::Uci,
            "info depth 14 score mate -3 lowerbound pv a0a1"
        ));
        assert_eq!(i.score, Some(EngineScore::Mate(-3)));
        assert_eq!(i.depth, Some(14));
        assert!(i.update(Protocol::Ucci, "info depth 5 score 27 pv h2e2"));
        assert_eq!(i.score, Some(EngineScore::Cp(27)));
        assert!(!i.update(Protocol::Uci, "info string score cp 1000"));
        assert_eq!(EngineScore::Mate(5).as_cp(), 99_995);
        assert_eq!(EngineScore::Mate(-2).as_cp(), -99_998);
        assert_eq!(EngineScore::Cp(-120).pgn_text(), "-1.20");
    }
}
