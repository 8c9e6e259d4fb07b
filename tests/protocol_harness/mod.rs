//! Drives the real `shuai` binary over pipes for the end-to-end protocol
//! tests: send lines, wait (with generous timeouts) for lines matching a
//! condition, and check that nothing arrives when nothing should.

#![allow(dead_code)]

use shuai_board::{Move, Position};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any reply may take before a test fails (generous: debug
/// builds on a loaded machine).
pub const REPLY: Duration = Duration::from_secs(10);

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    /// Everything read so far, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts the binary.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shuai"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the shuai binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            rx,
            transcript: Vec::new(),
        }
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Sends bytes as they are.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let text: String = String::from_utf8_lossy(bytes).chars().take(300).collect();
        self.transcript.push(format!("> {}", text.trim_end()));
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Closes stdin (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.rx.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    fn context(&self) -> String {
        let n = self.transcript.len();
        self.transcript[n.saturating_sub(40)..].join("\n")
    }

    /// Reads lines until one satisfies `done`; returns them all (the
    /// matching one last). Fails the test after `timeout`.
    pub fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(line) => {
                    let stop = done(&line);
                    lines.push(line);
                    if stop {
                        return lines;
                    }
                }
                None => panic!(
                    "no expected line within {timeout:?}; transcript:\n{}",
                    self.context()
                ),
            }
        }
    }

    /// Reads until the exact line `want` (within [`REPLY`]).
    pub fn expect(&mut self, want: &str) -> Vec<String> {
        self.until(REPLY, |l| l == want)
    }

    /// Reads until a line starting with `prefix` (within [`REPLY`]).
    pub fn expect_prefix(&mut self, prefix: &str) -> Vec<String> {
        self.until(REPLY, |l| l.starts_with(prefix))
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.expect("readyok");
        lines.pop();
        lines
    }

    /// Reads until the end of a search (`bestmove …` or `nobestmove`).
    pub fn search_result(&mut self) -> Vec<String> {
        self.until(REPLY, is_final)
    }

    /// Lines arriving within `d` (none expected in many tests).
    pub fn quiet_for(&mut self, d: Duration) -> Vec<String> {
        let deadline = Instant::now() + d;
        let mut lines = Vec::new();
        while let Some(l) = self.recv(deadline.saturating_duration_since(Instant::now())) {
            lines.push(l);
        }
        lines
    }

    /// Waits for the process to exit; returns its status and every line it
    /// printed that was not read yet.
    pub fn wait_exit(&mut self, timeout: Duration) -> (ExitStatus, Vec<String>) {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let rest = self.rest_of_output();
                return (status, rest);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "engine did not exit within {timeout:?}; transcript:\n{}",
                    self.context()
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Every line still to come, up to the end of the engine's stdout.
    ///
    /// Reads until the reader thread hits the end of the pipe rather than
    /// for a fixed grace: on a loaded machine that thread may be scheduled
    /// long after the engine exited, and the lines it printed last (the
    /// `bestmove` of a search stopped by `quit` or the end of input) are
    /// still in the pipe.
    fn rest_of_output(&mut self) -> Vec<String> {
        let deadline = Instant::now() + REPLY;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    lines.push(line);
                }
                Err(RecvTimeoutError::Disconnected) => return lines,
                Err(RecvTimeoutError::Timeout) => panic!(
                    "stdout still open {REPLY:?} after the engine exited; transcript:\n{}",
                    self.context()
                ),
            }
        }
    }

    /// Starts an infinite search, closes stdin during it and waits for the
    /// engine to exit: checks that it exits with success after exactly one
    /// `bestmove`/`nobestmove`, and returns the lines it printed last.
    pub fn end_input_during_search(&mut self) -> Vec<String> {
        self.send("go infinite");
        std::thread::sleep(Duration::from_millis(100));
        self.close_input();
        let (status, rest) = self.wait_exit(Duration::from_secs(2));
        assert!(status.success(), "{status:?}");
        assert_eq!(finals(&rest), 1, "{rest:?}");
        rest
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `line` ends a search.
pub fn is_final(line: &str) -> bool {
    line.starts_with("bestmove") || line == "nobestmove"
}

/// Counts the lines that end a search.
pub fn finals(lines: &[String]) -> usize {
    lines.iter().filter(|l| is_final(l)).count()
}

/// The word after `key` in `line`.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == key)?;
    words.get(i + 1).copied()
}

/// The words after `pv` in an info line.
pub fn pv(line: &str) -> Vec<String> {
    line.split_whitespace()
        .skip_while(|w| *w != "pv")
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// Plays `moves` (ICCS) from `pos`, failing on an illegal one.
pub fn play_legal(pos: &Position, moves: &[String]) -> Position {
    let mut p = pos.clone();
    for m in moves {
        let mv: Move = p
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{e} in line {moves:?}"));
        p.make_move(mv);
    }
    p
}

/// The position after `startpos moves …`.
pub fn start_after(moves: &str) -> Position {
    let list: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
    play_legal(&Position::startpos(), &list)
}

/// Checks a search's output: every `info … pv` line's moves are legal from
/// `root`, and the last line is a legal `bestmove` (with a legal ponder
/// move). Returns the best move.
pub fn check_search(root: &Position, lines: &[String]) -> String {
    for l in lines
        .iter()
        .filter(|l| l.starts_with("info") && l.contains(" pv "))
    {
        play_legal(root, &pv(l));
    }
    let last = lines.last().unwrap();
    assert!(last.starts_with("bestmove "), "{last}");
    let best = field(last, "bestmove").unwrap().to_string();
    let mut line = vec![best.clone()];
    if let Some(p) = field(last, "ponder") {
        line.push(p.to_string());
    }
    play_legal(root, &line);
    best
}

/// Writes a network file that scores every position `cp` centipawns for
/// the side to move (zero weights, the output bias alone), so a depth-1
/// search from any position scores exactly `-cp`.
pub fn write_constant_network(path: &std::path::Path, cp: i32) {
    use shuai_eval::nnue::{Network, HIDDEN, INPUTS, OUTPUT_SCALE, SCALE};
    let net = Network::from_parts(
        vec![0; INPUTS * HIDDEN],
        vec![0; HIDDEN],
        vec![0; 2 * HIDDEN],
        vec![(i64::from(cp) * OUTPUT_SCALE / i64::from(SCALE)) as i32],
        "constant test network",
    )
    .unwrap();
    std::fs::write(path, net.to_bytes()).unwrap();
}

/// The score of the last `info depth 1` line of a `go depth 1` from the
/// start position (`cp` in UCI, `score` in UCCI).
pub fn depth1_score(e: &mut Engine) -> i32 {
    e.send("position startpos");
    e.send("go depth 1");
    let lines = e.search_result();
    let info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth 1 "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    field(info, "cp")
        .or_else(|| field(info, "score"))
        .unwrap()
        .parse::<i32>()
        .unwrap()
}

/// Runs `shuai ARGS` to its end (a terminal command, standard input
/// closed, `SHUAI_EGTB` unset): exit code, standard output, standard
/// error.
pub fn run_shuai(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shuai"))
        .args(args)
        .env_remove("SHUAI_EGTB")
        .stdin(Stdio::null())
        .output()
        .expect("the shuai binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8 output"),
        String::from_utf8(out.stderr).expect("UTF-8 errors"),
    )
}
