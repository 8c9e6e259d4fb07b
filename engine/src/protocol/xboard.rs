//! The XBoard/WinBoard protocol (CECP, version 2), entered by the
//! handshake word `xboard`, so XBoard and WinBoard play Shuai without an
//! adapter.
//!
//! Unlike UCI and UCCI, the engine keeps the game itself: `new`,
//! `setboard`, `usermove`, `undo` and `remove` change it, `force`, `go`
//! and `playother` say which side the engine plays, and the engine starts
//! thinking by itself when that side is to move, answering with `move X`.
//! The adapter UCI2WB (Debian's 4.1) translates these commands into UCCI or
//! UCI, and its two threads share an unguarded command queue: now and then
//! a `usermove` is replayed, so the engine is sent a position where the side
//! that just moved is to move again, with the moved piece gone, and its
//! (legal) answer is an illegal move for the GUI (issue 51). Speaking the
//! GUI's own protocol leaves no adapter in between.
//!
//! Moves are coordinates with ranks 0–9, as XBoard writes Xiangqi moves
//! (`h2e2`); FENs may use XBoard's letters (H and E for horse and
//! elephant). Thinking output is `ply score time nodes pv` with the score
//! in centipawns (a mate in N moves is 100000 + N) and the time in
//! centiseconds. A line starting with `#` is a comment XBoard ignores.

use super::format::Format;
use super::go::{parse_go, GoCommand};
use super::options::{announce, apply, FrontSettings};
use super::{Flow, Msg, Output};
use crate::engine::{Engine, Listener, Outcome};
use crate::fen::read_fen;
use shuai_board::{Color, Move, Position};
use shuai_search::{Bound, DisplayScore, Event, Info};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

/// The XBoard score of a mate in one move (a mate in N is this plus N).
pub const XBOARD_MATE: i32 = 100_000;

/// Options XBoard sets through commands of its own (`memory`, `cores`,
/// `hard`/`easy`) or that have no meaning here, left out of the
/// `feature option` list.
const NOT_OFFERED: [&str; 5] = ["Hash", "Threads", "Ponder", "UCI_ShowWDL", "UCI_Variant"];

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Choosing the engine's move.
    Think,
    /// Thinking on the opponent's time, expecting this reply.
    Ponder(Move),
    /// Analysis mode (never plays a move).
    Analyze,
}

/// The search in progress and the flags its reporter reads.
struct Running {
    purpose: Purpose,
    /// Its result is no longer wanted: no `move` is printed, nothing played.
    discard: Arc<AtomicBool>,
    /// Whether its result is a move to play (set at a ponder hit).
    plays: Arc<AtomicBool>,
}

/// The clock settings XBoard gives.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Clocks {
    /// `level`: moves per session (0: the whole game).
    moves_per_session: u32,
    /// `level`: the base time, seconds.
    base: f64,
    /// `level`: the increment per move, seconds.
    increment: f64,
    /// `st`: a fixed time per move, seconds.
    per_move: Option<f64>,
    /// `sd`: a depth limit.
    depth: Option<u32>,
    /// `time`: the engine's clock, centiseconds.
    mine: Option<u64>,
    /// `otim`: the opponent's clock, centiseconds.
    theirs: Option<u64>,
}

/// Prints a search's thinking and, for a move to play, its `move` line.
struct Reporter {
    out: Output,
    post: Arc<AtomicBool>,
    discard: Arc<AtomicBool>,
    plays: Arc<AtomicBool>,
    tx: Mutex<Sender<Msg>>,
    id: u64,
}

impl Listener for Reporter {
    fn info(&self, event: &Event) {
        if let Event::Iteration(info) = event {
            if self.post.load(Ordering::SeqCst) && !self.discard.load(Ordering::SeqCst) {
                if let Some(line) = thinking_line(info) {
                    self.out.line(&line);
                }
            }
        }
    }

    fn message(&self, text: &str) {
        self.out.line(&format!("# {text}"));
    }

    fn best_move(&self, outcome: &Outcome) {
        if self.plays.load(Ordering::SeqCst) && !self.discard.load(Ordering::SeqCst) {
            for line in move_lines(outcome) {
                self.out.line(&line);
            }
        }
        if let Ok(tx) = self.tx.lock() {
            let _ = tx.send(Msg::SearchDone(self.id));
        }
    }
}

/// The thinking line of an iteration (`ply score time nodes pv`), or
/// `None` for a bound that is not yet a score.
pub fn thinking_line(info: &Info) -> Option<String> {
    if matches!(info.bound, Some(Bound::Lower | Bound::Upper)) {
        return None;
    }
    let centis = info.time.as_millis() / 10;
    Some(format!(
        "{} {} {} {} {}",
        info.depth,
        xboard_score(info.score),
        centis,
        info.nodes,
        Format::UCCI.moves(&info.pv)
    ))
}

/// A search score as XBoard shows it: centipawns, or ±(100000 + N) for a
/// mate in N moves.
pub fn xboard_score(score: i32) -> i32 {
    match DisplayScore::from_score(score) {
        DisplayScore::Centipawns(cp) => cp,
        DisplayScore::Mate(n) if n > 0 => XBOARD_MATE + n,
        DisplayScore::Mate(n) => -XBOARD_MATE + n,
    }
}

/// The lines that play a search's move: `offer draw` first when the
/// engine offers or accepts a draw, `resign` instead of the move when it
/// resigns; nothing when there is no move (the controller claims the
/// result).
fn move_lines(o: &Outcome) -> Vec<String> {
    let Some(m) = o.best_move else {
        return Vec::new();
    };
    if o.resign {
        return vec!["resign".to_string()];
    }
    let mut lines = Vec::new();
    if o.draw {
        lines.push("offer draw".to_string());
    }
    lines.push(format!("move {m}"));
    lines
}

/// The result line when the side to move of `pos` has no legal move (in
/// Xiangqi both mate and stalemate lose).
fn no_move_result(pos: &Position) -> Option<String> {
    if pos.has_legal_move() {
        return None;
    }
    let how = if pos.in_check() {
        "mated"
    } else {
        "stalemated"
    };
    Some(match pos.side_to_move() {
        Color::Red => format!("0-1 {{Red is {how}}}"),
        Color::Black => format!("1-0 {{Black is {how}}}"),
    })
}

/// One `feature option="…"` line from a UCI `option name … type …` line,
/// or `None` for an option XBoard sets another way.
pub fn feature_option(uci_line: &str) -> Option<String> {
    let rest = uci_line.strip_prefix("option name ")?;
    let (name, tail) = rest.split_once(" type ")?;
    if NOT_OFFERED.contains(&name) {
        return None;
    }
    let mut words = tail.split_whitespace();
    let kind = words.next()?;
    let words: Vec<&str> = words.collect();
    let field = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1).copied())
    };
    let default = field("default").unwrap_or("");
    let spec = match kind {
        "spin" => format!("-spin {default} {} {}", field("min")?, field("max")?),
        "check" => format!("-check {}", u8::from(default == "true")),
        "button" => "-button".to_string(),
        "string" => {
            let value = if default == "<empty>" { "" } else { default };
            let lower = name.to_ascii_lowercase();
            let kind = if lower.contains("path") {
                "-path"
            } else if lower.contains("file") {
                "-file"
            } else {
                "-string"
            };
            format!("{kind} {value}")
        }
        "combo" => {
            let choices: Vec<String> = words
                .iter()
                .enumerate()
                .filter(|&(i, _)| i > 0 && words[i - 1] == "var")
                .map(|(_, v)| {
                    if *v == default {
                        format!("*{v}")
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            format!("-combo {}", choices.join(" /// "))
        }
        _ => return None,
    };
    Some(format!("feature option=\"{name} {spec}\""))
}

/// The XBoard front-end: the game, who plays which side, the clocks and
/// the search in progress.
pub struct Front {
    out: Output,
    tx: Sender<Msg>,
    /// The position the game started from (`new` or `setboard`).
    start: Position,
    /// The moves played since.
    moves: Vec<Move>,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Color>,
    analyzing: bool,
    post: Arc<AtomicBool>,
    ponder: bool,
    clocks: Clocks,
    /// The opponent offered a draw (for the engine's next move).
    draw_offered: bool,
    /// The reply the engine expects (for `hint` and pondering).
    expected: Option<Move>,
    front: FrontSettings,
    search_id: u64,
    running: Option<Running>,
}

impl Front {
    /// A front-end after the `xboard` word: the start position, engine
    /// playing Black, as after `new`.
    pub(super) fn new(out: Output, tx: Sender<Msg>) -> Front {
        Front {
            out,
            tx,
            start: Position::startpos(),
            moves: Vec::new(),
            engine_side: Some(Color::Black),
            analyzing: false,
            post: Arc::new(AtomicBool::new(false)),
            ponder: false,
            clocks: Clocks::default(),
            draw_offered: false,
            expected: None,
            front: FrontSettings::default(),
            search_id: 0,
            running: None,
        }
    }

    /// The game's current position (with its history, for repetitions).
    fn game(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.make_move(m);
        }
        pos
    }

    fn error(&self, kind: &str, command: &str) {
        let shown: String = command.trim().chars().take(200).collect();
        self.out.line(&format!("Error ({kind}): {shown}"));
    }

    /// Handles one message of the protocol loop.
    pub(super) fn handle(&mut self, engine: &mut Engine, msg: Msg) -> Flow {
        match msg {
            Msg::Line(line) => self.on_line(engine, &line),
            Msg::Eof => self.quit(engine),
            Msg::SearchDone(id) => {
                if id == self.search_id && engine.has_decided() {
                    self.collect(engine);
                    self.start_search(engine);
                }
                Flow::Continue
            }
            Msg::PerftDone(_) => Flow::Continue,
        }
    }

    fn on_line(&mut self, engine: &mut Engine, line: &str) -> Flow {
        // A search that has decided is collected first, so its move is
        // part of the game before this line is read.
        if engine.has_decided() {
            self.collect(engine);
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = tokens.first() else {
            return Flow::Continue;
        };
        if self.front.debug {
            self.out.line(&format!("# read: {}", line.trim()));
        }
        let args = &tokens[1..];
        let rest = super::options::rest_after(line, 1);
        match first {
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "." | "bk" | "white" | "black" | "otherpos" => {}
            "protover" => self.features(),
            "new" => {
                self.abandon(engine);
                self.start = Position::startpos();
                self.moves.clear();
                self.engine_side = Some(Color::Black);
                self.clocks.depth = None;
                self.draw_offered = false;
                self.expected = None;
                engine.new_game();
            }
            "variant" => {
                if !rest.eq_ignore_ascii_case("xiangqi") {
                    self.error("unsupported variant", line);
                }
            }
            "quit" => return self.quit(engine),
            "force" => {
                self.abandon_unless_analyzing(engine);
                self.engine_side = None;
            }
            "go" => {
                self.abandon_unless_analyzing(engine);
                self.engine_side = Some(self.game().side_to_move());
            }
            "playother" => {
                self.abandon_unless_analyzing(engine);
                self.engine_side = Some(self.game().side_to_move().opponent());
            }
            "level" => self.level(args, line),
            "st" => match args.first().and_then(|a| a.parse::<f64>().ok()) {
                Some(s) if s.is_finite() && s > 0.0 => self.clocks.per_move = Some(s),
                _ => self.error("bad st", line),
            },
            "sd" => match args.first().and_then(|a| a.parse::<u32>().ok()) {
                Some(d) if d > 0 => self.clocks.depth = Some(d),
                _ => self.error("bad sd", line),
            },
            "time" | "otim" => match args.first().and_then(|a| a.parse::<i64>().ok()) {
                Some(t) => {
                    let t = Some(t.max(0) as u64);
                    if first == "time" {
                        self.clocks.mine = t;
                    } else {
                        self.clocks.theirs = t;
                    }
                }
                None => self.error("bad time", line),
            },
            "usermove" => match args.first() {
                Some(text) => self.usermove(engine, text),
                None => self.error("usermove needs a move", line),
            },
            "?" => {
                if self
                    .running
                    .as_ref()
                    .is_some_and(|r| r.purpose == Purpose::Think)
                {
                    engine.stop();
                }
            }
            "ping" => self.out.line(&format!("pong {rest}")),
            "draw" => self.draw_offered = true,
            "result" => {
                self.abandon(engine);
                self.engine_side = None;
            }
            "setboard" => self.setboard(engine, rest),
            "hint" => {
                if let Some(m) = self.expected {
                    self.out.line(&format!("Hint: {m}"));
                }
            }
            "undo" | "remove" => {
                let n = if first == "undo" { 1 } else { 2 };
                if self.moves.len() < n {
                    self.error("no move to take back", line);
                } else {
                    self.abandon(engine);
                    self.moves.truncate(self.moves.len() - n);
                    self.expected = None;
                }
            }
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                if self
                    .running
                    .as_ref()
                    .is_some_and(|r| matches!(r.purpose, Purpose::Ponder(_)))
                {
                    self.abandon(engine);
                }
            }
            "post" => self.post.store(true, Ordering::SeqCst),
            "nopost" => self.post.store(false, Ordering::SeqCst),
            "analyze" => {
                self.abandon(engine);
                self.analyzing = true;
                self.engine_side = None;
            }
            "exit" => {
                if self.analyzing {
                    self.abandon(engine);
                    self.analyzing = false;
                }
            }
            "memory" => self.set_option(engine, "Hash", args.first().copied()),
            "cores" => self.set_option(engine, "Threads", args.first().copied()),
            "option" => match rest.split_once('=') {
                Some((name, value)) => self.set_option(engine, name.trim(), Some(value.trim())),
                None => self.set_option(engine, rest, None),
            },
            "egtpath" => log::info!("egtpath ignored: set the 'EGTB Path' option instead"),
            _ => self.error("unknown command", line),
        }
        self.start_search(engine);
        Flow::Continue
    }

    /// The feature lines of `protover`.
    fn features(&self) {
        self.out.line("feature done=0");
        self.out.line(&format!(
            "feature myname=\"{}\" variants=\"xiangqi\" setboard=1 usermove=1 ping=1 \
             playother=1 draw=1 analyze=1 colors=0 san=0 time=1 reuse=1 sigint=0 \
             sigterm=0 name=0 ics=0 pause=0 nps=0 memory=1 smp=1 debug=1 exclude=0",
            super::ENGINE_NAME
        ));
        for line in announce(super::Dialect::Uci) {
            if let Some(f) = feature_option(&line) {
                self.out.line(&f);
            }
        }
        self.out.line("feature done=1");
    }

    fn level(&mut self, args: &[&str], line: &str) {
        let parsed = (|| {
            let mps = args.first()?.parse::<u32>().ok()?;
            let base = match args.get(1)?.split_once(':') {
                Some((m, s)) => m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?,
                None => args.get(1)?.parse::<f64>().ok()? * 60.0,
            };
            let inc = args.get(2)?.parse::<f64>().ok()?;
            (base.is_finite() && inc.is_finite() && base >= 0.0 && inc >= 0.0)
                .then_some((mps, base, inc))
        })();
        match parsed {
            Some((mps, base, inc)) => {
                self.clocks.moves_per_session = mps;
                self.clocks.base = base;
                self.clocks.increment = inc;
                self.clocks.per_move = None;
            }
            None => self.error("bad level", line),
        }
    }

    fn set_option(&mut self, engine: &mut Engine, name: &str, value: Option<&str>) {
        let mut opts = engine.options().clone();
        let applied = apply(name, value, &mut opts, &mut self.front, super::Dialect::Uci);
        if opts != *engine.options() {
            self.abandon(engine);
            engine.set_options(opts);
        }
        if applied.new_game {
            self.abandon(engine);
            engine.new_game();
        }
        for m in &applied.messages {
            self.out.line(&format!("# {m}"));
        }
    }

    fn usermove(&mut self, engine: &mut Engine, text: &str) {
        let game = self.game();
        let m = match game.parse_move(text) {
            Ok(m) => m,
            Err(e) => {
                log::info!("usermove {text}: {e}");
                self.out.line(&format!("Illegal move: {text}"));
                return;
            }
        };
        self.moves.push(m);
        let hit = match &self.running {
            Some(r) => r.purpose == Purpose::Ponder(m),
            None => false,
        };
        if hit {
            if let Some(r) = self.running.as_mut() {
                r.purpose = Purpose::Think;
                r.plays.store(true, Ordering::SeqCst);
            }
            engine.ponderhit(std::mem::take(&mut self.draw_offered));
        } else {
            // A ponder miss, or the analysis of the position before.
            self.abandon(engine);
        }
        self.expected = None;
    }

    fn setboard(&mut self, engine: &mut Engine, fen: &str) {
        match read_fen(fen) {
            Ok((pos, warning)) => {
                self.abandon(engine);
                self.start = pos;
                self.moves.clear();
                self.expected = None;
                if let Some(w) = warning {
                    self.out.line(&format!("# {w}"));
                }
            }
            Err(e) => {
                self.out
                    .line(&format!("tellusererror Illegal position: {e}"));
            }
        }
    }

    /// Stops the running search and throws its result away.
    fn abandon(&mut self, engine: &mut Engine) {
        if let Some(r) = self.running.take() {
            r.discard.store(true, Ordering::SeqCst);
            engine.stop();
            engine.wait();
        }
    }

    /// As [`Front::abandon`], but an analysis goes on.
    fn abandon_unless_analyzing(&mut self, engine: &mut Engine) {
        if !self.analyzing {
            self.abandon(engine);
        }
    }

    /// Collects the decided search: the engine's move joins the game, and
    /// a move that leaves the opponent without a move claims the result.
    fn collect(&mut self, engine: &mut Engine) {
        let Some(outcome) = engine.wait() else {
            return;
        };
        let Some(r) = self.running.take() else {
            return;
        };
        if r.discard.load(Ordering::SeqCst) || !r.plays.load(Ordering::SeqCst) {
            return;
        }
        self.draw_offered = false;
        let game = self.game();
        match outcome.best_move {
            Some(_) if outcome.resign => self.engine_side = None,
            Some(m) if game.is_legal(m) => {
                self.moves.push(m);
                let after = self.game();
                self.expected = outcome.ponder_move.filter(|&p| after.is_legal(p));
                if let Some(result) = no_move_result(&after) {
                    self.out.line(&result);
                    self.engine_side = None;
                }
            }
            Some(m) => {
                // Cannot happen: the search plays from the game's position.
                log::error!("the search chose {m}, illegal in the game; force mode");
                self.engine_side = None;
            }
            None => {
                if let Some(result) = no_move_result(&game) {
                    self.out.line(&result);
                }
                self.engine_side = None;
            }
        }
    }

    /// Starts the search the state calls for, if none runs: the engine's
    /// move when it is on move, pondering when allowed, or analysis.
    fn start_search(&mut self, engine: &mut Engine) {
        if self.running.is_some() {
            return;
        }
        let game = self.game();
        let (purpose, pos) = if self.analyzing {
            (Purpose::Analyze, game)
        } else if self.engine_side == Some(game.side_to_move()) {
            (Purpose::Think, game)
        } else if let (true, Some(_), Some(p)) = (self.ponder, self.engine_side, self.expected) {
            let mut after = game;
            after.make_move(p);
            if !after.has_legal_move() {
                return;
            }
            (Purpose::Ponder(p), after)
        } else {
            return;
        };
        if purpose == Purpose::Think && !pos.has_legal_move() {
            if let Some(result) = no_move_result(&pos) {
                self.out.line(&result);
            }
            self.engine_side = None;
            return;
        }
        let words = self.go_words(&pos, purpose);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let params = match parse_go(&words, &pos, Format::UCI, true) {
            (GoCommand::Search(mut params), problems) => {
                for p in problems {
                    log::warn!("xboard go: {p}");
                }
                params.draw_offered = self.draw_offered && purpose == Purpose::Think;
                params
            }
            (GoCommand::Perft(_), _) => return,
        };
        engine.set_position(pos);
        self.search_id += 1;
        let discard = Arc::new(AtomicBool::new(false));
        let plays = Arc::new(AtomicBool::new(purpose == Purpose::Think));
        let reporter = Arc::new(Reporter {
            out: self.out.clone(),
            post: Arc::clone(&self.post),
            discard: Arc::clone(&discard),
            plays: Arc::clone(&plays),
            tx: Mutex::new(self.tx.clone()),
            id: self.search_id,
        });
        self.running = Some(Running {
            purpose,
            discard,
            plays,
        });
        engine.go(*params, reporter);
    }

    /// The UCI `go` words for a search of `pos` (whose side to move is the
    /// side to search for, the opponent's reply already made when
    /// pondering).
    fn go_words(&self, pos: &Position, purpose: Purpose) -> Vec<String> {
        let mut w: Vec<String> = Vec::new();
        if purpose == Purpose::Analyze {
            w.push("infinite".into());
            return w;
        }
        if matches!(purpose, Purpose::Ponder(_)) {
            w.push("ponder".into());
        }
        if let Some(d) = self.clocks.depth {
            w.extend(["depth".into(), d.to_string()]);
        }
        let c = &self.clocks;
        if let Some(s) = c.per_move {
            w.extend(["movetime".into(), ((s * 1000.0) as u64).to_string()]);
            return w;
        }
        let ms = |centis: Option<u64>| centis.map_or((c.base * 1000.0) as u64, |t| t * 10);
        if c.base == 0.0 && c.increment == 0.0 && c.mine.is_none() {
            // No clock at all: a depth limit alone, or a bare search.
            return w;
        }
        let (mine, theirs) = (ms(c.mine), ms(c.theirs));
        let (red, black) = match pos.side_to_move() {
            Color::Red => (mine, theirs),
            Color::Black => (theirs, mine),
        };
        let inc = ((c.increment * 1000.0) as u64).to_string();
        w.extend([
            "wtime".into(),
            red.to_string(),
            "btime".into(),
            black.to_string(),
            "winc".into(),
            inc.clone(),
            "binc".into(),
            inc,
        ]);
        if c.moves_per_session > 0 {
            let mps = c.moves_per_session as usize;
            // The moves the side to move has made since the game began.
            let made = self.moves.len() / 2;
            w.extend(["movestogo".into(), (mps - made % mps).to_string()]);
        }
        w
    }

    fn quit(&mut self, engine: &mut Engine) -> Flow {
        self.abandon(engine);
        Flow::Quit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_become_features() {
        let cases = [
            (
                "option name Knowledge type combo default large var none var small var medium var large",
                Some("feature option=\"Knowledge -combo none /// small /// medium /// *large\""),
            ),
            (
                "option name MultiPV type spin default 1 min 1 max 128",
                Some("feature option=\"MultiPV -spin 1 1 128\""),
            ),
            (
                "option name Use NNUE type check default true",
                Some("feature option=\"Use NNUE -check 1\""),
            ),
            (
                "option name Book File type string default <empty>",
                Some("feature option=\"Book File -file \""),
            ),
            (
                "option name EGTB Path type string default <empty>",
                Some("feature option=\"EGTB Path -path \""),
            ),
            (
                "option name Clear Hash type button",
                Some("feature option=\"Clear Hash -button\""),
            ),
            ("option name Hash type spin default 16 min 1 max 65536", None),
        ];
        for (uci, feature) in cases {
            assert_eq!(feature_option(uci).as_deref(), feature, "{uci}");
        }
    }

    #[test]
    fn mate_scores() {
        use shuai_search::score::MATE;
        assert_eq!(xboard_score(MATE - 1), XBOARD_MATE + 1);
        assert_eq!(xboard_score(MATE - 5), XBOARD_MATE + 3);
        assert_eq!(xboard_score(-(MATE - 2)), -XBOARD_MATE - 1);
        assert_eq!(xboard_score(37), 37);
    }
}
