//! The XBoard protocol (CECP) as XBoard drives it: the handshake, the
//! exact command sequence of the game XBoard + UCI2WB lost by forfeit
//! (issue 51), illegal input, take-backs, pondering and analysis.
//!
//! Each test talks to the protocol loop through a pipe it writes at its
//! own pace, and waits for the lines it expects (a search must end before
//! its `move` can be read).

use shuai_board::Position;
use shuai_engine::protocol::run;
use shuai_engine::protocol::SharedOutput as Shared;
use std::io::{self, Read};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Input the test writes line by line.
struct Pipe {
    rx: Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            match self.rx.recv() {
                Ok(bytes) => self.pending = bytes,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// The engine running the protocol loop on a thread of its own.
struct Gui {
    tx: Option<Sender<Vec<u8>>>,
    out: Shared,
    read: usize,
    thread: Option<JoinHandle<()>>,
}

impl Gui {
    fn start() -> Gui {
        let (tx, rx) = channel();
        let out = Shared::default();
        let pipe = Pipe {
            rx,
            pending: Vec::new(),
        };
        let writer = out.clone();
        let thread = std::thread::spawn(move || run(pipe, writer).unwrap());
        Gui {
            tx: Some(tx),
            out,
            read: 0,
            thread: Some(thread),
        }
    }

    /// Sends raw text (which need not end a line: XBoard writes
    /// `usermove ` and the move in two pieces).
    fn send(&self, text: &str) {
        self.tx
            .as_ref()
            .unwrap()
            .send(text.as_bytes().to_vec())
            .unwrap();
    }

    /// All complete lines written so far.
    fn lines(&self) -> Vec<String> {
        let bytes = self.out.0.lock().unwrap().clone();
        let text = String::from_utf8(bytes).unwrap();
        let complete = text.rfind('\n').map_or("", |i| &text[..i]);
        complete.lines().map(str::to_string).collect()
    }

    /// Waits for a new line (after those already taken) that `wanted`
    /// accepts, and returns the new lines up to and including it.
    fn until(&mut self, wanted: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let lines = self.lines();
            if let Some(i) = lines[self.read..].iter().position(|l| wanted(l)) {
                let got = lines[self.read..=self.read + i].to_vec();
                self.read += i + 1;
                return got;
            }
            assert!(Instant::now() < deadline, "no such line in {lines:?}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends `ping N` and returns the lines before its `pong N`: every
    /// line the earlier commands printed.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}\n"));
        let want = format!("pong {n}");
        let mut got = self.until(|l| l == want);
        got.pop();
        got
    }

    fn quit(mut self) -> Vec<String> {
        self.send("quit\n");
        drop(self.tx.take());
        self.thread.take().unwrap().join().unwrap();
        self.lines()[self.read..].to_vec()
    }
}

fn is_move(line: &str) -> bool {
    line.starts_with("move ")
}

/// The move of a `move X` line, legal in `pos`.
fn legal_move_of(line: &str, pos: &Position) -> shuai_board::Move {
    let text = line.strip_prefix("move ").unwrap();
    pos.parse_move(text)
        .unwrap_or_else(|e| panic!("{line} in {}: {e}", pos.to_fen()))
}

fn after(moves: &[&str]) -> Position {
    let mut pos = Position::startpos();
    for m in moves {
        let mv = pos.parse_move(m).unwrap();
        pos.make_move(mv);
    }
    pos
}

#[test]
fn handshake_announces_features_and_options() {
    let mut gui = Gui::start();
    gui.send("xboard\nprotover 2\n");
    let lines = gui.until(|l| l == "feature done=1");
    assert_eq!(lines[0], "feature done=0");
    assert!(lines[1].starts_with("feature myname=\"Shuai "), "{lines:?}");
    for f in [
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "analyze=1",
        "colors=0",
        "memory=1",
        "smp=1",
    ] {
        assert!(lines[1].contains(f), "{f} missing: {}", lines[1]);
    }
    // Combo defaults are marked, so XBoard re-sends the values the engine
    // had (through UCI2WB it re-sent the first choices: "knowledge=none").
    for line in [
        "feature option=\"Knowledge -combo none /// small /// medium /// *large\"",
        "feature option=\"Repetition Rules -combo *chinese /// asian\"",
        "feature option=\"MultiPV -spin 1 1 128\"",
        "feature option=\"Clear Hash -button\"",
    ] {
        assert!(
            lines.contains(&line.to_string()),
            "{line} missing: {lines:?}"
        );
    }
    assert!(!lines.iter().any(|l| l.contains("\"Hash ")), "{lines:?}");
    assert_eq!(gui.quit(), Vec::<String>::new());
}

/// The commands XBoard sent in the game Shuai forfeited through UCI2WB
/// (issue 51): the engine restarted between games, every option re-sent,
/// ten seconds idle, then Red's first move written in two pieces. Spoken
/// directly, Shuai answers with a Black move.
#[test]
fn the_forfeited_game_of_issue_51() {
    let mut gui = Gui::start();
    gui.send("xboard\nprotover 2\n");
    gui.until(|l| l == "feature done=1");
    for opt in [
        "usehash=1",
        "bogus=3",
        "Knowledge=none",
        "Pruning=none",
        "Idle=none",
        "Randomness=none",
        "Style=solid",
        "Repetition Rules=chinese",
        "Skill Level=20",
    ] {
        gui.send(&format!("option {opt}\n"));
    }
    gui.send("memory 68\ncores 1\nnew\nvariant xiangqi\nlevel 0 0:20 0.2\npost\nhard\neasy\n");
    assert_eq!(
        gui.sync(3),
        ["# unknown option 'bogus'; ignored".to_string()]
    );
    gui.send("force\ncomputer\nname ElephantEye 3.31 (UXI2WB)\ntime 2000\notim 2019\n");
    gui.send("usermove ");
    std::thread::sleep(Duration::from_millis(20));
    gui.send("b2e2\nblack\ngo\n");
    let lines = gui.until(is_move);
    let pos = after(&["b2e2"]);
    let reply = legal_move_of(lines.last().unwrap(), &pos);
    // Every thinking line starts with a Black move.
    let thinking: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with(char::is_numeric))
        .collect();
    assert!(!thinking.is_empty(), "{lines:?}");
    for t in thinking {
        let first = t.split_whitespace().nth(4).unwrap();
        assert!(pos.parse_move(first).is_ok(), "{t}");
    }
    // The engine's move is part of its game: Red's answer is accepted
    // and the engine replies again.
    let mut after_reply = pos.clone();
    after_reply.make_move(reply);
    let red = after_reply.legal_moves()[0];
    gui.send(&format!("time 1900\notim 1900\nusermove {red}\n"));
    let lines = gui.until(is_move);
    after_reply.make_move(red);
    legal_move_of(lines.last().unwrap(), &after_reply);
    gui.quit();
}

#[test]
fn bad_input_is_answered_and_the_game_kept() {
    let mut gui = Gui::start();
    gui.send("xboard\nprotover 2\nnew\nforce\nusermove h2e2\nusermove e2e9\nusermove zz\n");
    gui.send("setboard rnbakabnr/9/9 w\nfrobnicate\nundo\nundo\nlevel x\nsd 0\n");
    assert_eq!(
        gui.sync(1)
            .into_iter()
            .filter(|l| !l.starts_with("feature"))
            .collect::<Vec<_>>(),
        [
            "Illegal move: e2e9",
            "Illegal move: zz",
            "tellusererror Illegal position: FEN has 3 ranks, expected 10",
            "Error (unknown command): frobnicate",
            "Error (no move to take back): undo",
            "Error (bad level): level x",
            "Error (bad sd): sd 0",
        ]
    );
    // The first undo took h2e2 back: Red is to move from the start.
    gui.send("sd 3\ngo\n");
    let lines = gui.until(is_move);
    legal_move_of(lines.last().unwrap(), &Position::startpos());
    gui.quit();
}

#[test]
fn setboard_remove_and_a_mate_claimed() {
    let mut gui = Gui::start();
    // Red mates at once: the rook on b0 goes to b9 (the rook on a8 takes
    // d8 and e8 from the king, the Red king the e-file).
    gui.send("xboard\nprotover 2\nnew\nforce\n");
    gui.until(|l| l == "feature done=1");
    gui.send("setboard 3k5/R8/9/9/8p/9/9/9/9/1R2K4 w - - 0 1\n");
    gui.send("usermove b0b1\nusermove i5i4\nremove\nsd 4\nnopost\ngo\n");
    let lines = gui.until(|l| l.starts_with("1-0"));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        ["move b0b9", "move b0d0"].contains(&lines[0].as_str()),
        "{lines:?}"
    );
    assert_eq!(lines[1], "1-0 {Black is mated}");
    // Asked to play a side that has no move, the engine claims the loss.
    gui.send("force\nsetboard 1R1k5/R8/9/9/8p/9/9/9/9/4K4 b - - 0 1\ngo\n");
    let lines = gui.until(|l| l.starts_with("1-0"));
    assert_eq!(lines, ["1-0 {Black is mated}"]);
    gui.quit();
}

#[test]
fn pondering_turns_into_the_search_on_the_expected_reply() {
    let mut gui = Gui::start();
    gui.send("xboard\nprotover 2\nnew\nhard\nnopost\nsd 5\n");
    gui.send("usermove h2e2\n");
    let lines = gui.until(is_move);
    let pos = after(&["h2e2"]);
    let reply = legal_move_of(lines.last().unwrap(), &pos);
    gui.send("hint\n");
    let hint = gui.until(|l| l.starts_with("Hint: "));
    let expected = hint[0].strip_prefix("Hint: ").unwrap().to_string();
    let mut game = pos.clone();
    game.make_move(reply);
    assert!(game.parse_move(&expected).is_ok(), "{hint:?}");
    // The expected reply: the ponder search goes on as the real one.
    gui.send(&format!("usermove {expected}\n"));
    let lines = gui.until(is_move);
    game.make_move(game.parse_move(&expected).unwrap());
    let second = legal_move_of(lines.last().unwrap(), &game);
    game.make_move(second);
    // Another reply than the expected one: the ponder search is dropped
    // and a new one answers it.
    gui.send("hint\n");
    let hint = gui.until(|l| l.starts_with("Hint: "));
    let expected = game
        .parse_move(hint[0].strip_prefix("Hint: ").unwrap())
        .unwrap();
    let other = game
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| m != expected)
        .unwrap();
    gui.send(&format!("usermove {other}\n"));
    let lines = gui.until(is_move);
    assert_eq!(lines.iter().filter(|l| is_move(l)).count(), 1, "{lines:?}");
    game.make_move(other);
    legal_move_of(lines.last().unwrap(), &game);
    gui.quit();
}

#[test]
fn analysis_follows_the_moves_and_never_plays() {
    let mut gui = Gui::start();
    gui.send("xboard\nprotover 2\nnew\nforce\npost\nanalyze\n");
    let first = gui.until(|l| l.starts_with("6 "));
    assert!(Position::startpos()
        .parse_move(first.last().unwrap().split_whitespace().nth(4).unwrap())
        .is_ok());
    gui.send("usermove h2e2\n");
    // Thinking for Black now.
    let pos = after(&["h2e2"]);
    let line = gui.until(|l| {
        l.starts_with("5 ")
            && l.split_whitespace()
                .nth(4)
                .is_some_and(|m| pos.parse_move(m).is_ok())
    });
    assert!(!line.iter().any(|l| is_move(l)), "{line:?}");
    gui.send("exit\n");
    gui.sync(9);
    let rest = gui.quit();
    assert!(!rest.iter().any(|l| is_move(l)), "{rest:?}");
}
