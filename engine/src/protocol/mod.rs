//! The protocol loop: UCCI, UCI (ranks 0–9, the Pikafish dialect), the
//! Cyclone dialect (bare `fen …` / `startpos …` lines) and UCI with ranks
//! 1–10 once a GUI sets `UCI_Variant xiangqi`. The handshake word picks the
//! front-end; before any handshake commands are accepted in UCI form. The
//! word `xboard` hands every later line to the XBoard front-end
//! ([`xboard`]), which keeps the game itself.
//!
//! Threads: an input thread reads stdin line by line and hands the lines
//! to the controller (the caller's thread), which owns the [`Engine`]. The
//! search runs on its own thread and prints its `info` lines and its one
//! `bestmove` itself; it then tells the controller it is done. So `stop`,
//! `isready`, `ponderhit`, `probe` and `quit` are served during a search;
//! `go perft` runs the same way on a thread of its own (its lines appear as
//! each root move is counted; `stop` ends it without a total);
//! `go` during a search stops it first (one `bestmove` per `go`); other
//! commands (`position`, `setoption`, `banmoves`, …) wait in a queue until
//! the search ends. In UCCI batch mode every line waits, except that an
//! infinite or ponder search still obeys `stop`, `ponderhit` and `quit`.
//!
//! Where there are no threads (WebAssembly), [`Session`] takes the lines
//! one at a time from its caller instead and a `go` searches to its end
//! before the call returns; the host stops it through
//! [`shuai_search::host::set_stop_poll`].
//!
//! Every reply is one line, flushed; problems with the input are reported
//! on one line (`info message` in UCCI, `info string` in UCI) and the last
//! good state is kept. Nothing on input makes the process exit but `quit`
//! and the end of input.

pub mod format;
pub mod go;
pub mod options;
pub mod position;
pub mod xboard;

use crate::engine::{BookPick, Engine, Listener, Outcome};
use format::{Dialect, Format};
use go::{parse_go, GoCommand};
use options::{announce, apply, rest_after, split_setoption, FrontSettings};
use position::{parse_banmoves, parse_position};
use shuai_search::Event;
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Engine name announced to GUIs.
pub const ENGINE_NAME: &str = concat!("Shuai ", env!("CARGO_PKG_VERSION"));
/// Author line announced to GUIs.
pub const ENGINE_AUTHOR: &str = "the Shuai developers";

/// Whether the loop should keep reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Leave the loop (after `quit` or the end of input).
    Quit,
}

/// A line writer shared by the controller and the search thread: each
/// line is written whole and flushed.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
    failed: Arc<AtomicBool>,
}

impl Output {
    /// Wraps a writer.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output {
            inner: Arc::new(Mutex::new(Box::new(w))),
            failed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes one line and flushes it. A failed write (the GUI closed the
    /// pipe) is logged once; the end of input will follow.
    pub fn line(&self, text: &str) {
        let mut w = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let result = writeln!(w, "{text}").and_then(|_| w.flush());
        if let Err(e) = result {
            if !self.failed.swap(true, Ordering::Relaxed) {
                log::error!("cannot write to the GUI: {e}");
            }
        }
    }
}

/// What reaches the controller.
enum Msg {
    /// A line of input (without its line ending).
    Line(String),
    /// The input ended (or failed).
    Eof,
    /// The search with this id has printed its best move.
    SearchDone(u64),
    /// The perft with this id has printed its last line.
    PerftDone(u64),
}

/// A `go perft` counting on its own thread.
struct PerftJob {
    id: u64,
    /// `None` when it was counted on the caller's thread (WebAssembly).
    handle: Option<JoinHandle<()>>,
    /// Set to make it give up.
    stop: Arc<AtomicBool>,
    /// Set when it has printed its last line.
    done: Arc<AtomicBool>,
}

/// Prints a search's reports in the dialect of the `go` that started it.
struct Reporter {
    out: Output,
    fmt: Format,
    /// The root's attacking material when `UCI_ShowWDL` is on.
    wdl_attackers: Option<u32>,
    tx: Mutex<Sender<Msg>>,
    id: u64,
}

impl Listener for Reporter {
    fn info(&self, event: &Event) {
        self.out
            .line(&self.fmt.event_with_wdl(event, self.wdl_attackers));
    }

    fn message(&self, text: &str) {
        self.out.line(&self.fmt.message(text));
    }

    fn book_move(&self, pick: &BookPick) {
        for line in self.fmt.book_move(pick) {
            self.out.line(&line);
        }
    }

    fn best_move(&self, outcome: &Outcome) {
        for line in self.fmt.outcome(outcome) {
            self.out.line(&line);
        }
        if let Ok(tx) = self.tx.lock() {
            let _ = tx.send(Msg::SearchDone(self.id));
        }
    }
}

/// An output the protocol can write to while others read it back, whole
/// or as it grows (tests, and hosts that keep what the engine printed).
#[derive(Clone, Debug, Default)]
pub struct SharedOutput(pub Arc<Mutex<Vec<u8>>>);

impl Write for SharedOutput {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Reads commands from `input` and answers on `output` until `quit` or the
/// end of input. Input is read on a thread of its own.
pub fn run<R, W>(input: R, output: W) -> io::Result<()>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = channel();
    let input_tx = tx.clone();
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || read_input(input, input_tx))?;
    let mut controller = Controller::new(Output::new(output), tx);
    for msg in rx {
        if controller.handle(msg) == Flow::Quit {
            break;
        }
    }
    Ok(())
}

/// The protocol driven by its caller, one line at a time, without an
/// input thread: the WebAssembly build's entry point (a Web Worker hands
/// it each line), and usable anywhere a line-in, lines-out engine is
/// wanted. Where threads exist a search still runs on its own thread and
/// its `bestmove` is printed when it ends; [`Session::wait`] waits for it.
pub struct Session {
    controller: Controller,
    rx: Receiver<Msg>,
    quit: bool,
}

impl Session {
    /// A session writing its replies, one flushed line each, to `output`.
    pub fn new(output: impl Write + Send + 'static) -> Session {
        let (tx, rx) = channel();
        Session {
            controller: Controller::new(Output::new(output), tx),
            rx,
            quit: false,
        }
    }

    /// Seeds the engine's random choices (levels, `Randomness`, book
    /// picks): where the platform has no clock to seed from (WebAssembly)
    /// the host passes one.
    pub fn set_seed(&mut self, seed: u64) {
        self.controller.engine.set_seed(seed);
    }

    /// Handles one line of input (line endings and invalid text are
    /// tolerated as on standard input); returns [`Flow::Quit`] after
    /// `quit` (later lines are ignored).
    pub fn line(&mut self, line: &str) -> Flow {
        if self.quit {
            return Flow::Quit;
        }
        let line = line.trim_end_matches(['\r', '\n']);
        let flow = self.controller.handle(Msg::Line(line.to_string()));
        self.after(flow)
    }

    /// Waits until no search or perft is running (its last line printed
    /// and the commands that waited for it run).
    pub fn wait(&mut self) -> Flow {
        while !self.quit && self.controller.is_busy() {
            let Ok(msg) = self.rx.recv() else { break };
            let flow = self.controller.handle(msg);
            self.after(flow);
        }
        self.flow()
    }

    /// Collects what finished meanwhile (a search run on this thread has
    /// finished by now).
    fn after(&mut self, flow: Flow) -> Flow {
        self.quit |= flow == Flow::Quit;
        while !self.quit {
            let Ok(msg) = self.rx.try_recv() else { break };
            self.quit |= self.controller.handle(msg) == Flow::Quit;
        }
        self.flow()
    }

    fn flow(&self) -> Flow {
        if self.quit {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }
}

/// Sends each line of `input` (CR and LF stripped, invalid UTF-8 replaced)
/// and then the end of input.
fn read_input(input: impl Read, tx: Sender<Msg>) {
    let mut reader = BufReader::new(input);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                    buf.pop();
                }
                let line = match String::from_utf8(std::mem::take(&mut buf)) {
                    Ok(s) => s,
                    Err(e) => {
                        log::warn!("input line is not valid UTF-8; reading it leniently");
                        String::from_utf8_lossy(e.as_bytes()).into_owned()
                    }
                };
                if tx.send(Msg::Line(line)).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                log::error!("cannot read input: {e}");
                break;
            }
        }
    }
    let _ = tx.send(Msg::Eof);
}

/// The protocol state machine (owns the engine).
struct Controller {
    engine: Engine,
    out: Output,
    tx: Sender<Msg>,
    dialect: Dialect,
    handshake: Option<&'static str>,
    front: FrontSettings,
    queue: VecDeque<String>,
    search_id: u64,
    perft: Option<PerftJob>,
    /// The XBoard front-end, once the GUI said `xboard`: it then takes
    /// every message.
    xboard: Option<xboard::Front>,
}

impl Controller {
    fn new(out: Output, tx: Sender<Msg>) -> Controller {
        Controller {
            engine: Engine::new(),
            out,
            tx,
            dialect: Dialect::Uci,
            handshake: None,
            front: FrontSettings::default(),
            queue: VecDeque::new(),
            search_id: 0,
            perft: None,
            xboard: None,
        }
    }

    fn fmt(&self) -> Format {
        Format {
            dialect: self.dialect,
            one_based: self.front.one_based,
        }
    }

    fn message(&self, text: &str) {
        self.out.line(&self.fmt().message(text));
    }

    fn handle(&mut self, msg: Msg) -> Flow {
        if let Some(front) = self.xboard.as_mut() {
            return front.handle(&mut self.engine, msg);
        }
        match msg {
            Msg::Line(line) => {
                if self.front.debug && !line.trim().is_empty() {
                    let state = if self.engine.is_searching() {
                        "busyline"
                    } else {
                        "idleline"
                    };
                    let echo = format!("{state} [{}]", line.trim());
                    match self.dialect {
                        Dialect::Ucci => self.out.line(&format!("info {echo}")),
                        Dialect::Uci => self.message(&echo),
                    }
                }
                self.on_line(&line)
            }
            Msg::Eof => {
                // A script that pipes `go perft N` in gets the whole count
                // (a search, though, is stopped as by `quit`).
                if self.perft.is_some() && self.finish_search() == Flow::Quit {
                    return Flow::Quit;
                }
                self.on_line("quit")
            }
            Msg::SearchDone(id) => {
                if id == self.search_id && self.engine.has_decided() {
                    self.finish_search()
                } else {
                    Flow::Continue
                }
            }
            Msg::PerftDone(id) => {
                if self.perft.as_ref().is_some_and(|p| p.id == id) {
                    self.finish_search()
                } else {
                    Flow::Continue
                }
            }
        }
    }

    /// Whether a search or a perft was started and not yet collected.
    fn is_busy(&self) -> bool {
        self.engine.has_search() || self.perft.is_some()
    }

    /// Whether the running search or perft has finished and waits to be
    /// collected.
    fn has_finished(&self) -> bool {
        self.engine.has_decided()
            || self
                .perft
                .as_ref()
                .is_some_and(|p| p.done.load(Ordering::SeqCst))
    }

    /// Asks the running search or perft to stop.
    fn stop(&self) {
        self.engine.stop();
        if let Some(p) = &self.perft {
            p.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Collects the ended search (or perft) and runs the commands that
    /// waited for it.
    fn finish_search(&mut self) -> Flow {
        self.engine.wait();
        self.finish_perft_only();
        let pending = std::mem::take(&mut self.queue);
        for line in pending {
            if self.on_line(&line) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn on_line(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = tokens.first() else {
            return Flow::Continue;
        };
        let cmd = first.to_ascii_lowercase();
        // A search that has decided is collected first, so that its
        // bestmove line comes before anything this line prints.
        if self.has_finished() && self.finish_search() == Flow::Quit {
            return Flow::Quit;
        }
        // Dispatch on whether a search is still to be collected, not on
        // whether it is still searching: the search thread may decide
        // right after the check above, and an uncollected search must not
        // be taken for idle (a `quit` would print `bye` before its
        // `bestmove`, a UCCI `stop` a `nobestmove` besides it). Only this
        // thread collects searches, so this cannot change under us.
        if self.is_busy() {
            self.on_busy_line(&cmd, &tokens, line)
        } else {
            self.on_idle_line(&cmd, &tokens, line)
        }
    }

    /// A line while a search runs.
    fn on_busy_line(&mut self, cmd: &str, tokens: &[&str], line: &str) -> Flow {
        let batch = self.dialect == Dialect::Ucci && self.front.batch;
        // A perft, like an infinite search, obeys `stop` even in batch mode.
        if batch && !self.engine.is_waiting_for_stop() && self.perft.is_none() {
            self.queue.push_back(line.to_string());
            return Flow::Continue;
        }
        match cmd {
            "isready" => self.out.line("readyok"),
            "stop" => self.stop(),
            "ponderhit" => {
                let draw = tokens
                    .get(1)
                    .is_some_and(|t| t.eq_ignore_ascii_case("draw"));
                self.engine.ponderhit(draw);
            }
            "probe" => self.probe(&tokens[1..]),
            "quit" => return self.quit(),
            "go" if !batch => {
                // An implicit stop: the running search answers first.
                self.stop();
                if self.finish_search() == Flow::Quit {
                    return Flow::Quit;
                }
                return self.on_line(line);
            }
            _ => self.queue.push_back(line.to_string()),
        }
        Flow::Continue
    }

    /// A line while no search runs.
    fn on_idle_line(&mut self, cmd: &str, tokens: &[&str], line: &str) -> Flow {
        let args = &tokens[1..];
        match cmd {
            "uci" => self.handshake(Dialect::Uci, "uci"),
            "ucci" => self.handshake(Dialect::Ucci, "ucci"),
            "xboard" => {
                // CECP: from now on the XBoard front-end reads every line.
                self.handshake = Some("xboard");
                self.xboard = Some(xboard::Front::new(self.out.clone(), self.tx.clone()));
            }
            "ucicyclone" => {
                self.dialect = Dialect::Uci;
                self.front.one_based = false;
                self.handshake = Some("ucicyclone");
            }
            "isready" => self.out.line("readyok"),
            "setoption" => self.setoption(rest_after(line, 1)),
            "position" => self.position(args),
            "fen" | "startpos" => {
                if self.handshake.is_none() {
                    log::info!("bare '{cmd}' before a handshake: the Cyclone dialect");
                    self.handshake = Some("cyclone");
                }
                if self.front.one_based {
                    // The Cyclone form writes ranks 0-9, even after
                    // `UCI_Variant xiangqi` (older UCI2WB versions set that
                    // option and then send bare `fen` lines; issue 51).
                    self.front.one_based = false;
                    self.message(
                        "a bare 'fen'/'startpos' line is the Cyclone form: ranks 0-9 from now on",
                    );
                }
                self.position(tokens);
            }
            "banmoves" => {
                let fmt = self.fmt();
                let (moves, problems) = parse_banmoves(args, self.engine.position(), fmt);
                for p in problems {
                    self.message(&p);
                }
                self.engine.set_banned_moves(moves);
            }
            "go" => self.go(args),
            "stop" => {
                // UCCI asks for an answer so the GUI is not left waiting;
                // UCI ignores a stray stop.
                if self.dialect == Dialect::Ucci {
                    self.out.line("nobestmove");
                }
            }
            "ponderhit" => {}
            "probe" => self.probe(args),
            "quit" => return self.quit(),
            "ucinewgame" | "uccinewgame" => self.engine.new_game(),
            "debug" => match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
                Some("on") => self.front.debug = true,
                Some("off") => self.front.debug = false,
                _ => self.message("debug needs 'on' or 'off'"),
            },
            "bench" => self.bench(args),
            "d" | "display" => {
                let pos = self.engine.position();
                let text = format!("{pos}Fen: {}", pos.to_fen());
                for l in text.lines() {
                    self.out.line(l);
                }
            }
            _ => {
                let shown: String = line.trim().chars().take(200).collect();
                self.message(&format!("unknown command: {shown}"));
            }
        }
        Flow::Continue
    }

    fn handshake(&mut self, dialect: Dialect, word: &'static str) {
        self.dialect = dialect;
        self.front.one_based = false;
        self.handshake = Some(word);
        self.out.line(&format!("id name {ENGINE_NAME}"));
        if dialect == Dialect::Ucci {
            self.out
                .line("id copyright the Shuai developers, GPL-3.0-or-later");
        }
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        for l in announce(dialect) {
            self.out.line(&l);
        }
        self.out.line(match dialect {
            Dialect::Uci => "uciok",
            Dialect::Ucci => "ucciok",
        });
    }

    /// `quit` and the end of input: a running search is stopped and
    /// collected first, so its `bestmove` (printed and flushed by the
    /// search thread before it ends) is out before `bye` and before the
    /// process exits, whichever path led here.
    /// Waits for the perft (if any) to end, without running the queue.
    fn finish_perft_only(&mut self) {
        if let Some(handle) = self.perft.take().and_then(|p| p.handle) {
            if handle.join().is_err() {
                log::error!("the perft thread failed");
            }
        }
    }

    /// Starts `go perft depth` on a thread of its own.
    fn start_perft(&mut self, depth: u32) {
        self.search_id += 1;
        let id = self.search_id;
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let mut pos = self.engine.position().clone();
        let (out, tx, fmt) = (self.out.clone(), self.tx.clone(), self.fmt());
        let thread = {
            let (stop, done) = (Arc::clone(&stop), Arc::clone(&done));
            move || {
                let total = crate::perft::run(&mut pos, depth, &stop, &mut |l| out.line(l));
                if total.is_none() {
                    out.line(&fmt.message(&format!("perft {depth} stopped; no total")));
                }
                done.store(true, Ordering::SeqCst);
                let _ = tx.send(Msg::PerftDone(id));
            }
        };
        // One thread (WebAssembly): count here; `stop` cannot reach it.
        #[cfg(target_family = "wasm")]
        let spawned = {
            let mut thread = thread;
            thread();
            io::Result::Ok(None)
        };
        #[cfg(not(target_family = "wasm"))]
        let spawned = std::thread::Builder::new()
            .name("perft".into())
            .spawn(thread)
            .map(Some);
        match spawned {
            Ok(handle) => {
                self.perft = Some(PerftJob {
                    id,
                    handle,
                    stop,
                    done,
                })
            }
            Err(e) => self.message(&format!("cannot start perft: {e}")),
        }
    }

    /// `bench [depth]`: `shuai bench` as a command (for builds without a
    /// command line, such as WebAssembly): each position's result as a
    /// message line, then `<nodes> nodes <nps> nps` as `shuai bench`
    /// prints it. It searches with the engine's evaluation (`EvalFile`,
    /// `Use NNUE`, the weights) and, in a `tune` build, its search
    /// constants as set by `setoption`, on one thread and a 16 MiB table
    /// of its own: with the default options the node total is `shuai
    /// bench`'s signature. Blocks until done (it is not a search `stop`
    /// ends).
    fn bench(&mut self, args: &[&str]) {
        let depth = match args.first().map(|a| a.parse::<u32>()) {
            None => shuai_search::bench::DEFAULT_DEPTH,
            Some(Ok(d)) if (1..=30).contains(&d) => d,
            Some(_) => {
                self.message("bench: the depth must be a number from 1 to 30");
                return;
            }
        };
        let options = self.engine.options();
        let mut searcher = shuai_search::Searcher::new(16);
        searcher.set_network(
            options
                .use_nnue
                .then(|| Arc::clone(&options.network.network)),
        );
        searcher.set_weights(Arc::clone(&options.weights.weights));
        searcher.set_params(options.params.clone());
        let (out, fmt) = (self.out.clone(), self.fmt());
        let result = shuai_search::bench::run_on(&mut searcher, depth, |i, best, nodes| {
            out.line(&fmt.message(&format!(
                "bench position {} bestmove {best} nodes {nodes}",
                i + 1
            )));
        });
        self.out
            .line(&format!("{} nodes {} nps", result.nodes, result.nps()));
    }

    fn quit(&mut self) -> Flow {
        self.stop();
        self.finish_perft_only();
        self.engine.wait();
        if self.dialect == Dialect::Ucci {
            self.out.line("bye");
        }
        Flow::Quit
    }

    fn setoption(&mut self, args: &str) {
        let (name, value) = split_setoption(args);
        let mut opts = self.engine.options().clone();
        let mut front = self.front;
        let applied = apply(&name, value.as_deref(), &mut opts, &mut front, self.dialect);
        self.front = front;
        if opts != *self.engine.options() {
            self.engine.set_options(opts);
        }
        if applied.new_game {
            self.engine.new_game();
        }
        for m in &applied.messages {
            self.message(m);
        }
    }

    fn position(&mut self, args: &[&str]) {
        match parse_position(args, self.fmt()) {
            Err(problem) => self.message(&problem),
            Ok(parsed) => {
                self.engine.set_position(parsed.position);
                if parsed.zero_based_fallback {
                    self.front.one_based = false;
                    self.message(
                        "the moves use ranks 0-9 although UCI_Variant xiangqi was set; reading and writing ranks 0-9 from now on",
                    );
                }
                if let Some(w) = parsed.warning {
                    self.message(&w);
                }
                if let Some(p) = parsed.problem {
                    self.message(&p);
                }
            }
        }
    }

    fn probe(&mut self, args: &[&str]) {
        match parse_position(args, self.fmt()) {
            Err(problem) => {
                self.message(&problem.replace("position unchanged", "nothing probed"));
                self.out.line("pophash");
            }
            Ok(parsed) => {
                if let Some(p) = parsed.problem {
                    self.message(&p.replace("position set up", "probing the position"));
                }
                let result = self.engine.pophash(&parsed.position);
                self.out.line(&self.fmt().pophash(&result));
            }
        }
    }

    fn go(&mut self, args: &[&str]) {
        let at = |word: &str| args.iter().position(|a| a.eq_ignore_ascii_case(word));
        if self.front.one_based && at("btime") < at("wtime") && at("btime").is_some() {
            // UCI2WB's mark: it writes `go btime … wtime …` (every other
            // GUI we know puts wtime first) and, although it sets
            // `UCI_Variant xiangqi`, reads and writes XBoard's ranks 0-9.
            // Without this, Red's first move of every game came out in
            // ranks 1-10 and lost by forfeit (issue 51).
            self.front.one_based = false;
            self.message("'go btime … wtime …' is UCI2WB's form, which uses ranks 0-9: ranks 0-9 from now on");
        }
        let fmt = self.fmt();
        let (command, problems) =
            parse_go(args, self.engine.position(), fmt, self.front.usemillisec);
        for p in &problems {
            self.message(p);
        }
        match command {
            GoCommand::Perft(u32::MAX) => {}
            GoCommand::Perft(depth) => self.start_perft(depth),
            GoCommand::Search(params) => {
                if self.front.debug {
                    self.message(&format!("go: {params:?}"));
                }
                self.search_id += 1;
                let reporter = Arc::new(Reporter {
                    out: self.out.clone(),
                    fmt,
                    wdl_attackers: (self.front.show_wdl && fmt.dialect == Dialect::Uci)
                        .then(|| crate::wdl::attackers(self.engine.position())),
                    tx: Mutex::new(self.tx.clone()),
                    id: self.search_id,
                });
                self.engine.go(*params, reporter);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    use SharedOutput as Shared;

    /// Runs a whole transcript (the end of input acts as quit).
    fn talk(input: &str) -> Vec<String> {
        let out = Shared::default();
        run(Cursor::new(input.as_bytes().to_vec()), out.clone()).unwrap();
        let bytes = out.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// A writer that takes its time over `bestmove` lines, like a pipe to
    /// a GUI on a loaded machine.
    #[derive(Clone, Default)]
    struct SlowBestmove(Shared);

    impl Write for SlowBestmove {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if b.starts_with(b"bestmove") {
                std::thread::sleep(std::time::Duration::from_millis(300));
            }
            self.0.write(b)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn quit_and_end_of_input_wait_for_a_slow_bestmove() {
        // (input, whether UCCI): the end of input or `quit` arrives while
        // an infinite or a short search runs.
        let cases = [
            ("uci\ngo infinite\n", false),
            ("uci\ngo infinite\nquit\n", false),
            ("uci\ngo depth 1\n", false),
            ("ucci\ngo infinite\n", true),
            ("ucci\ngo infinite\nquit\n", true),
            ("ucci\ngo depth 1\nquit\n", true),
        ];
        for (input, ucci) in cases {
            let out = SlowBestmove::default();
            run(Cursor::new(input.as_bytes().to_vec()), out.clone()).unwrap();
            // Everything is written by the time `run` returns (the process
            // exits right after it).
            let bytes = out.0 .0.lock().unwrap().clone();
            let text = String::from_utf8(bytes).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let finals: Vec<&&str> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
            assert_eq!(finals.len(), 1, "{input:?}: {lines:?}");
            assert!(!finals[0].contains("(none)"), "{input:?}: {lines:?}");
            let tail: &[&str] = if ucci {
                &lines[lines.len() - 2..]
            } else {
                &lines[lines.len() - 1..]
            };
            assert!(tail[0].starts_with("bestmove "), "{input:?}: {lines:?}");
            if ucci {
                assert_eq!(tail[1], "bye", "{input:?}: {lines:?}");
            }
        }
    }

    #[test]
    fn handshakes() {
        let out = talk("uci\nisready\n");
        assert!(out[0].starts_with("id name Shuai"));
        assert!(out
            .iter()
            .any(|l| l == "option name Hash type spin default 16 min 1 max 65536"));
        assert_eq!(&out[out.len() - 2..], ["uciok", "readyok"]);
        let out = talk("ucci\nquit\n");
        assert!(out.contains(&"option usemillisec type check default true".to_string()));
        assert_eq!(&out[out.len() - 2..], ["ucciok", "bye"]);
        assert!(talk("ucicyclone\nisready\n") == ["readyok"]);
    }

    #[test]
    fn bad_input_gets_one_line_each() {
        let out = talk("position fen rnbakabnr/9/9 w\nfrobnicate\nposition\ngo perft\n");
        assert_eq!(
            out,
            [
                "info string invalid FEN (FEN has 3 ranks, expected 10); position unchanged",
                "info string unknown command: frobnicate",
                "info string position needs 'startpos' or 'fen <FEN>'; position unchanged",
                "info string go perft needs a number; ignored",
            ]
        );
        let out = talk("ucci\nposition startpos moves h2e2 h9g7 e2e9 b0c2\nsetoption bogus 3\n");
        assert_eq!(out.last().unwrap(), "bye");
        assert_eq!(
            out[out.len() - 2],
            "info message move 3 of the list: 'e2e9' is not a legal move in this position; position set up to the move before it"
        );
    }

    /// What UCI2WB sent Shuai in the games XBoard forfeited (issue 51):
    /// its command queue replayed Red's first move, so in UCCI mode the
    /// engine got the start position with that piece gone and Red to move
    /// again, and in UCI mode the move list with the move doubled.
    #[test]
    fn the_positions_uci2wb_sent_in_issue_51() {
        // UCCI: a position no game reached, but a legal one; the reply is
        // legal in it (it was the GUI's game that differed).
        let out = talk(
            "ucci\nsetoption knowledge none\nsetoption pruning none\nsetoption newgame\n\
             position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR w - - 0 1 moves\n\
             go depth 3\n",
        );
        let best = out.iter().find(|l| l.starts_with("bestmove ")).unwrap();
        let pos = crate::fen::read_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap()
        .0;
        let mv = best.split_whitespace().nth(1).unwrap();
        assert!(pos.parse_move(mv).is_ok(), "{best}");
        // UCI (the Cyclone form UCI2WB writes): the doubled move is
        // skipped, and Black answers.
        let out = talk(
            "uci\nfen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves b2e2 b2e2\ngo depth 3\n",
        );
        assert_eq!(
            out.iter().find(|l| l.starts_with("info string")).unwrap(),
            "info string move 2 of the list repeats move 1 ('b2e2'), which no game can do; skipped"
        );
        let best = out.iter().find(|l| l.starts_with("bestmove ")).unwrap();
        let mut pos = shuai_board::Position::startpos();
        pos.make_move(pos.parse_move("b2e2").unwrap());
        let mv = best.split_whitespace().nth(1).unwrap();
        assert!(pos.parse_move(mv).is_ok(), "{best}");
    }

    /// UCI2WB in UCI mode sets `UCI_Variant xiangqi` but reads and writes
    /// XBoard's ranks 0-9 (issue 51): Red's first move must come in that
    /// form, whether it sends bare `fen` lines (older versions) or
    /// `position fen` and `go btime … wtime …` (Debian's 4.1).
    #[test]
    fn uci2wb_uci_mode_gets_ranks_0_to_9() {
        // The session says why it switched, and Red's move is in ranks 0-9.
        let replies_in_ranks_0_to_9 = |input: &str, note: &str| {
            let out = talk(input);
            assert!(out.contains(&format!("info string {note}")), "{out:?}");
            let best = out.iter().find(|l| l.starts_with("bestmove ")).unwrap();
            let mv = best.split_whitespace().nth(1).unwrap();
            assert!(
                shuai_board::Position::startpos().parse_move(mv).is_ok(),
                "{best}"
            );
        };
        replies_in_ranks_0_to_9(
            "uci\nsetoption name UCI_Variant value xiangqi\nisready\n\
             fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves\n\
             go depth 3\n",
            "a bare 'fen'/'startpos' line is the Cyclone form: ranks 0-9 from now on",
        );
        // UCI2WB in UCI mode (Debian's 4.1): `position fen` and
        // `go btime … wtime …`.
        replies_in_ranks_0_to_9(
            "uci\nsetoption name UCI_Variant value xiangqi\nucinewgame\nisready\n\
             position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w moves\n\
             go btime 20000 wtime 20000\n",
            "'go btime … wtime …' is UCI2WB's form, which uses ranks 0-9: ranks 0-9 from now on",
        );
        // Other GUIs that set the variant keep ranks 1-10.
        let out = talk(
            "uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo wtime 2000 btime 2000 depth 2\n",
        );
        let best = out.iter().find(|l| l.starts_with("bestmove ")).unwrap();
        assert!(
            Format::UCI1
                .parse_move(
                    &shuai_board::Position::startpos(),
                    best.split_whitespace().nth(1).unwrap()
                )
                .is_ok(),
            "{best}"
        );
        // `position` lines after the variant keep ranks 1-10.
        let out = talk(
            "uci\nsetoption name UCI_Variant value xiangqi\nposition startpos moves h3e3\nd\n",
        );
        assert!(
            out.iter()
                .any(|l| l.starts_with("Fen: ") && l.contains("1C2C4")),
            "{out:?}"
        );
    }

    #[test]
    fn perft_answers_isready_and_stops_without_a_total() {
        // Perft 7 from the start takes minutes: the answers must come
        // while it counts, and the stopped count must not look finished.
        for (input, stopped_by) in [
            ("ucci\ngo perft 7\nisready\nstop\n", "stop"),
            ("uci\ngo perft 7\nisready\nquit\n", "quit"),
        ] {
            let out = talk(input);
            assert!(
                out.contains(&"readyok".to_string()),
                "{stopped_by}: {out:?}"
            );
            let message = if input.starts_with("ucci") {
                "info message perft 7 stopped; no total"
            } else {
                "info string perft 7 stopped; no total"
            };
            assert!(out.contains(&message.to_string()), "{stopped_by}: {out:?}");
            assert!(
                !out.iter().any(|l| l.starts_with("Nodes searched")),
                "{out:?}"
            );
        }
    }

    /// A composed position is set up with one warning line, and the engine
    /// plays from it.
    #[test]
    fn composed_position_is_accepted_with_a_warning() {
        let out = talk("uci\nposition fen 4k4/9/9/9/9/9/9/P8/9/3KA4 w\ngo depth 2\n");
        let warnings: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info string composed position accepted"))
            .collect();
        assert_eq!(warnings.len(), 1, "{out:?}");
        assert!(warnings[0].ends_with(
            "pawn on a2 is behind its starting rank; piece 'A' on e0 stands on a point it can never reach"
        ));
        assert!(
            out.iter()
                .any(|l| l.starts_with("bestmove ") && l != "bestmove (none)"),
            "{out:?}"
        );
    }

    #[test]
    fn cyclone_position_and_perft() {
        let out = talk(
            "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves\ngo perft 2\n",
        );
        assert!(out.contains(&"h2e2: 45".to_string()));
        assert_eq!(out.last().unwrap(), "Nodes searched: 1920");
    }

    #[test]
    fn batch_mode_runs_a_script_in_order() {
        let out = talk(
            "ucci\nsetoption batch on\nposition startpos\ngo depth 2\nposition startpos moves h2e2\ngo depth 2\nisready\nquit\n",
        );
        let ends: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("bestmove") || *l == "readyok" || *l == "bye")
            .collect();
        assert_eq!(ends.len(), 4, "{out:?}");
        assert!(ends[0].starts_with("bestmove") && ends[1].starts_with("bestmove"));
        assert_eq!(ends[2], "readyok");
        assert_eq!(ends[3], "bye");
        assert!(out.iter().any(|l| l.starts_with("info depth 2 ")));
    }

    #[test]
    fn probe_answers_pophash() {
        let out = talk("ucci\nsetoption batch on\ngo depth 3\nprobe startpos\nprobe fen bad\n");
        let pops: Vec<&String> = out.iter().filter(|l| l.starts_with("pophash")).collect();
        assert_eq!(pops.len(), 2);
        assert!(pops[0].starts_with("pophash bestmove "), "{pops:?}");
        assert_eq!(pops[1], "pophash");
    }

    #[test]
    fn stop_when_idle() {
        assert_eq!(talk("ucci\nstop\n").last().unwrap(), "bye");
        assert!(talk("ucci\nstop\nquit\n").contains(&"nobestmove".to_string()));
        assert!(talk("uci\nstop\n").last().unwrap() == "uciok");
    }

    #[test]
    fn debug_echoes_lines() {
        let out = talk("ucci\nsetoption debug on\nisready\n");
        assert!(
            out.contains(&"info idleline [isready]".to_string()),
            "{out:?}"
        );
    }
}
