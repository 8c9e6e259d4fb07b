//! The protocol-free engine: a position with its history, options, and one
//! search at a time running on its own thread (in WebAssembly, which has
//! one thread, on the caller's: [`Engine::go`] returns after the search).
//!
//! Front-ends (UCCI, UCI) translate text into calls of [`Engine`] and the
//! [`Listener`] callbacks back into text. The engine guarantees exactly one
//! [`Listener::best_move`] per [`Engine::go`]: a `go` while searching first
//! stops the running search (which reports its best move), and a search
//! that panics still reports a legal fallback move.
//!
//! ```
//! use shuai_engine::engine::{Engine, GoParams, Listener, Outcome};
//! use shuai_search::Event;
//! use std::sync::{Arc, Mutex};
//!
//! struct Collect(Mutex<Vec<String>>);
//! impl Listener for Collect {
//!     fn info(&self, _: &Event) {}
//!     fn best_move(&self, o: &Outcome) {
//!         self.0.lock().unwrap().push(o.best_move.unwrap().to_string());
//!     }
//! }
//! let mut engine = Engine::new();
//! let sink = Arc::new(Collect(Mutex::new(Vec::new())));
//! engine.go(GoParams::depth(3), sink.clone());
//! engine.wait();
//! assert_eq!(sink.0.lock().unwrap().len(), 1);
//! ```

mod book;
mod egtb;
mod eval_files;
mod go;
mod memory;
mod options;
mod paths;
mod policy;
mod pophash;
mod report;
mod strength;

pub use book::{book_name, game_ply, wants_book, BookPick};
pub use egtb::EgtbFiles;
pub use eval_files::{EvalNetwork, EvalWeights};
pub use go::{build_limits, GoParams, DEFAULT_GO_NODES};
pub use memory::max_hash_mb;
pub use options::{
    EngineOptions, Level, Randomness, Style, DEFAULT_EGTB_CACHE_MB, DEFAULT_HASH_MB,
    DEFAULT_MOVE_OVERHEAD_MS, EGTB_CACHE_RANGE, MAX_BOOK_DEPTH, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS,
    MAX_MULTIPV, MAX_THREADS, NATURAL_LIMIT_RANGE,
};
pub use policy::{ACCEPT_DRAW_SCORE, RESIGN_AFTER, RESIGN_SCORE};
pub use report::IterationLines;
pub use strength::{Skill, FULL_SKILL, LEVEL_ELO};

pub use policy::Choice;
use policy::{fallback_outcome, Decider};
use pophash::{from_hash_table, from_main_line};
use report::Collector;
use shuai_board::{Move, Position, Rng};
use shuai_search::host::{self, Instant};
use shuai_search::{Control, Event, Info, Searcher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
#[cfg(not(target_family = "wasm"))]
use std::thread::JoinHandle;
use std::time::Duration;

/// The result of one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The move to play; `None` only when there is no legal, unbanned move.
    pub best_move: Option<Move>,
    /// The expected reply.
    pub ponder_move: Option<Move>,
    /// Score of the best move, side to move's view (search units).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation (starting with `best_move`).
    pub pv: Vec<Move>,
    /// Accept the opponent's draw offer, or offer one.
    pub draw: bool,
    /// Resign.
    pub resign: bool,
    /// Whether the root had legal moves that were all banned.
    pub all_banned: bool,
}

/// Receives what a search reports. Both methods are called on the search
/// thread (the caller's in WebAssembly); `best_move` exactly once per
/// [`Engine::go`].
pub trait Listener: Send + Sync {
    /// An iteration or current-move report.
    fn info(&self, event: &Event);
    /// The search ended.
    fn best_move(&self, outcome: &Outcome);
    /// A problem to show the user (a book that cannot be read). Called
    /// before `best_move`; ignored unless implemented.
    fn message(&self, _text: &str) {}
    /// The move about to be reported by `best_move` comes from an opening
    /// book. Ignored unless implemented.
    fn book_move(&self, _pick: &BookPick) {}
}

/// What the engine knows of a position, as UCCI's `probe` command asks
/// and `pophash` answers: from the hash table, or the search's main line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PopHash {
    /// The stored move.
    pub best_move: Option<Move>,
    /// A lower bound on the score and its depth.
    pub lower: Option<(i32, i32)>,
    /// An upper bound on the score and its depth.
    pub upper: Option<(i32, i32)>,
}

/// Where a started search runs.
enum Job {
    /// On a thread of its own (native builds): `stop`, `isready` and the
    /// rest are served while it searches.
    #[cfg(not(target_family = "wasm"))]
    Thread(JoinHandle<(Box<Searcher>, Outcome)>),
    /// Already run to its end on the caller's thread (WebAssembly, which
    /// has one thread; the host stops it through
    /// [`shuai_search::host::set_stop_poll`]).
    #[cfg(target_family = "wasm")]
    Done(Box<Searcher>, Outcome),
}

/// Flags and snapshots shared with the running search.
struct Running {
    handle: Job,
    control: Arc<Control>,
    /// Set when the caller (not the search itself) asked to stop.
    asked_to_stop: Arc<AtomicBool>,
    /// A draw offer that arrived with `ponderhit draw`.
    draw_offer: Arc<AtomicBool>,
    /// Set once the search has decided (just before it reports).
    decided: Arc<AtomicBool>,
    /// The hash table the search is filling, for `probe` during the search.
    hash_table: Arc<shuai_search::TranspositionTable>,
    /// The root position and the latest main line: `probe`'s fallback when
    /// the hash table has no entry.
    root: Position,
    latest: Arc<Mutex<Option<Info>>>,
    /// An analysis search (does not count towards resigning).
    infinite: bool,
}

/// Checks a search's outcome against the position searched: a best move
/// that is not legal there (or banned) becomes a legal fallback move, and
/// a ponder move that is not legal after it is dropped. Returns what was
/// wrong, if anything. Should never fire: the search only plays legal
/// moves of the position it was given.
fn check_outcome(pos: &Position, banned: &[Move], outcome: &mut Outcome) -> Option<String> {
    let m = outcome.best_move?;
    if !pos.is_legal(m) || banned.contains(&m) {
        let fallback = fallback_outcome(pos, banned);
        let problem = format!(
            "internal error: the search chose {m}, not a legal move of {}; playing {} instead",
            pos.to_fen(),
            fallback
                .best_move
                .map_or_else(|| "nothing".to_string(), |f| f.to_string())
        );
        *outcome = Outcome {
            time: outcome.time,
            nodes: outcome.nodes,
            ..fallback
        };
        return Some(problem);
    }
    if let Some(p) = outcome.ponder_move {
        let mut after = pos.clone();
        after.make_move(m);
        if !after.is_legal(p) {
            outcome.ponder_move = None;
            return Some(format!(
                "internal error: ponder move {p} is not legal after {m}; dropped"
            ));
        }
    }
    None
}

/// The engine. One search at a time runs on its own thread; the searcher
/// (with its hash table) moves into that thread and back.
pub struct Engine {
    position: Position,
    banned: Vec<Move>,
    options: EngineOptions,
    searcher: Option<Box<Searcher>>,
    running: Option<Running>,
    hopeless_streak: u32,
    /// Draws the random choices among near-equal moves.
    rng: Rng,
    /// The root key and outcome of the last finished search: `probe`'s
    /// fallback when the hash table no longer holds the root. The search stores
    /// the root's result after each finished iteration, but a later store
    /// in the same bucket can replace it, and a search stopped within its
    /// first iteration stores none.
    last: Option<(u64, Outcome)>,
    /// The opening books, opened at the first `go` that uses them (and
    /// again after a new game or another `Book File`).
    books: Option<book::Books>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the start position with default options.
    pub fn new() -> Engine {
        let options = EngineOptions::default();
        let searcher = options.searcher();
        Engine {
            position: Position::startpos(),
            banned: Vec::new(),
            options,
            searcher: Some(Box::new(searcher)),
            running: None,
            hopeless_streak: 0,
            rng: Rng::from_clock(),
            last: None,
            books: None,
        }
    }

    /// Seeds the random choices (`Randomness`, the strength levels), so a
    /// game replays move for move: tests and calibration use it. Engines
    /// are seeded from the clock otherwise.
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// The current position (its history is the game as the GUI sent it).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Sets the position (with its move history) and clears banned moves.
    /// Waits for a running search to end first.
    pub fn set_position(&mut self, position: Position) {
        self.wait();
        self.position = position;
        self.banned.clear();
    }

    /// Root moves the next searches may not play (until the next
    /// [`Engine::set_position`]).
    pub fn set_banned_moves(&mut self, moves: Vec<Move>) {
        self.banned = moves;
    }

    /// The banned root moves.
    pub fn banned_moves(&self) -> &[Move] {
        &self.banned
    }

    /// The options in force.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes options. Waits for a running search to end first; resizes
    /// the hash table and sets the thread count and natural-move limit as
    /// needed; new evaluation weights, another network or switching the
    /// network on or off clear the hash table. Returns the options actually applied (values are clamped to
    /// their ranges, the hash table to three quarters of available memory).
    pub fn set_options(&mut self, mut options: EngineOptions) -> &EngineOptions {
        self.wait();
        options.hash_mb = options.hash_mb.clamp(1, max_hash_mb());
        options.threads = options.threads.clamp(1, MAX_THREADS);
        options.multipv = options.multipv.clamp(1, MAX_MULTIPV);
        options.move_overhead = options
            .move_overhead
            .min(Duration::from_millis(MAX_MOVE_OVERHEAD_MS));
        options.natural_limit = options
            .natural_limit
            .clamp(NATURAL_LIMIT_RANGE.0, NATURAL_LIMIT_RANGE.1);
        let searcher = self
            .searcher
            .as_mut()
            .expect("idle engine has its searcher");
        if options.hash_mb != self.options.hash_mb {
            searcher.set_hash(options.hash_mb);
        }
        searcher.set_natural_limit(options.natural_limit);
        searcher.set_rule_book(options.rule_book);
        searcher.set_params(options.params.clone());
        if options.weights != self.options.weights
            || options.network != self.options.network
            || options.use_nnue != self.options.use_nnue
        {
            // The hash table's scores were computed with the old evaluation.
            searcher.set_weights(Arc::clone(&options.weights.weights));
            searcher.set_network(options.active_network());
            searcher.clear();
        }
        options.egtb_cache_mb = options
            .egtb_cache_mb
            .clamp(EGTB_CACHE_RANGE.0, EGTB_CACHE_RANGE.1);
        if options.egtb != self.options.egtb || options.egtb_cache_mb != self.options.egtb_cache_mb
        {
            // A new directory's tables start with the default budget. A
            // budget alone does not clear the hash table: the values
            // probed do not depend on which tables are loaded.
            if let Some(tb) = &options.egtb.tablebase {
                tb.set_budget(options.egtb_cache_mb << 20);
            }
        }
        if options.egtb != self.options.egtb || options.use_egtb != self.options.use_egtb {
            // The hash table's scores were found with or without the old endgame tables.
            searcher.set_tablebase(options.active_tablebase());
            searcher.clear();
        }
        if options.book_files != self.options.book_files {
            self.books = None;
        }
        self.options = options;
        &self.options
    }

    /// A new game: forgets the hash table and the resignation count. Waits for a
    /// running search to end first.
    pub fn new_game(&mut self) {
        self.wait();
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
        self.last = None;
        self.hopeless_streak = 0;
        // A GUI's new game re-reads the books (they may have been rebuilt).
        self.books = None;
    }

    /// Whether a search is running and has not yet decided on its move.
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.decided.load(Ordering::SeqCst))
    }

    /// Whether a search was started and not yet collected with
    /// [`Engine::wait`] (it may still be searching or have decided). Only
    /// [`Engine::go`] and [`Engine::wait`] change this, so unlike
    /// [`Engine::is_searching`] it cannot change while the caller looks.
    pub fn has_search(&self) -> bool {
        self.running.is_some()
    }

    /// Whether a search has decided on its move (it is reporting it or has
    /// reported it) and waits to be collected with [`Engine::wait`].
    pub fn has_decided(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.decided.load(Ordering::SeqCst))
    }

    /// Whether the running search is an infinite or pondering one (it only
    /// ends when told).
    pub fn is_waiting_for_stop(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.control.pondering() || r.infinite)
    }

    /// Asks the running search to stop; it reports its best move soon.
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.asked_to_stop.store(true, Ordering::SeqCst);
            r.control.stop();
        }
    }

    /// The opponent played the expected move: the ponder search becomes a
    /// timed search. `draw_offer` records a draw offer made with it.
    /// Returns false when no search was pondering.
    pub fn ponderhit(&self, draw_offer: bool) -> bool {
        match &self.running {
            Some(r) if r.control.pondering() => {
                if draw_offer {
                    r.draw_offer.store(true, Ordering::SeqCst);
                }
                r.control.set_pondering(false);
                true
            }
            _ => false,
        }
    }

    /// Waits for the running search (if any) to end and collects it;
    /// returns its outcome.
    pub fn wait(&mut self) -> Option<Outcome> {
        let running = self.running.take()?;
        let (searcher, outcome) = match running.handle {
            #[cfg(not(target_family = "wasm"))]
            Job::Thread(handle) => match handle.join() {
                Ok(pair) => pair,
                Err(_) => {
                    // The thread died outside the guarded search: start afresh.
                    log::error!("search thread failed; recreating the searcher");
                    let s = self.options.searcher();
                    (Box::new(s), fallback_outcome(&running.root, &self.banned))
                }
            },
            #[cfg(target_family = "wasm")]
            Job::Done(searcher, outcome) => (searcher, outcome),
        };
        self.searcher = Some(searcher);
        self.last = Some((running.root.key(), outcome.clone()));
        if !running.infinite {
            if outcome.best_move.is_some() && outcome.score <= RESIGN_SCORE {
                self.hopeless_streak += 1;
            } else {
                self.hopeless_streak = 0;
            }
        }
        Some(outcome)
    }

    /// UCCI's `probe`: looks `pos` up in the hash table (the running
    /// search's during a search). Without an entry, falls back to the
    /// latest main line during a search, or to the last search's result
    /// when idle.
    pub fn pophash(&self, pos: &Position) -> PopHash {
        if let Some(r) = &self.running {
            if let Some(hit) = from_hash_table(&r.hash_table, pos) {
                return hit;
            }
            let latest = r.latest.lock().map(|g| g.clone()).unwrap_or(None);
            return latest
                .map_or_else(PopHash::default, |info| from_main_line(&r.root, &info, pos));
        }
        let Some(searcher) = &self.searcher else {
            return PopHash::default();
        };
        if let Some(hit) = from_hash_table(searcher.tt(), pos) {
            return hit;
        }
        match &self.last {
            Some((key, o)) if *key == pos.key() && o.best_move.is_some() => {
                let bound = (o.score, o.depth as i32);
                PopHash {
                    best_move: o.best_move,
                    lower: Some(bound),
                    upper: Some(bound),
                }
            }
            _ => PopHash::default(),
        }
    }

    /// Starts a search of the current position. A running search is
    /// stopped first (it reports its own best move). `listener` hears the
    /// search's reports and, exactly once, its best move.
    ///
    /// A `go` for a move to play (see [`wants_book`]) in a position of the
    /// opening books is answered at once, on the caller's thread, with a
    /// book move: [`Listener::book_move`] then [`Listener::best_move`].
    pub fn go(&mut self, params: GoParams, listener: Arc<dyn Listener>) {
        if self.running.is_some() {
            self.stop();
            self.wait();
        }
        if wants_book(&self.options, &params, &self.position) {
            if let Some(outcome) = self.play_from_book(&params, listener.as_ref()) {
                listener.best_move(&outcome);
                return;
            }
        }
        let opts = self.options.clone();
        let mut searcher = self.searcher.take().expect("idle engine has its searcher");
        let threads = match opts.idle {
            Level::None => opts.threads,
            Level::Small => (opts.threads * 3 / 4).max(1),
            Level::Medium => (opts.threads / 2).max(1),
            Level::Large => 1,
        };
        searcher.set_threads(threads);
        searcher.set_natural_limit(opts.natural_limit);
        searcher.set_rule_book(opts.rule_book);
        searcher.set_params(opts.params.clone());
        if !opts.use_hash {
            searcher.clear();
        }
        let user_multipv = opts.multipv.max(1);
        let choice = Choice::of(&opts, &params.limits);
        let limits = build_limits(&params, &opts, &self.banned, &choice);
        if let Some(c) = &params.opponent_clock {
            log::debug!("opponent clock: {c:?}");
        }
        let control = Arc::new(Control::new());
        control.set_pondering(params.ponder);
        let asked_to_stop = Arc::new(AtomicBool::new(false));
        let draw_offer = Arc::new(AtomicBool::new(params.draw_offered));
        let latest = Arc::new(Mutex::new(None));
        let decided = Arc::new(AtomicBool::new(false));
        let decide = Decider {
            resign: opts.resign,
            hopeless_streak: self.hopeless_streak,
            choice,
            rng: self.next_random(),
        };
        let pos = self.position.clone();
        let banned = self.banned.clone();
        let fallback_listener = listener.clone();
        let hash_table = searcher.shared_tt();
        let thread = {
            let control = control.clone();
            let asked_to_stop = asked_to_stop.clone();
            let draw_offer = draw_offer.clone();
            let latest = latest.clone();
            let decided = decided.clone();
            move || {
                let start = Instant::now();
                let collector = Collector::new(listener.as_ref(), user_multipv, latest);
                let searched = catch_unwind(AssertUnwindSafe(|| {
                    searcher.search(&pos, &limits, &control, &|e| collector.on_event(e))
                }));
                let result = match searched {
                    Ok(r) => Some(r),
                    Err(_) => {
                        log::error!("the search panicked; answering with a fallback move");
                        None
                    }
                };
                // Never answer a ponder or infinite search before the GUI
                // says so (a node cap may end the search early).
                while !asked_to_stop.load(Ordering::SeqCst)
                    && (control.pondering() || limits.infinite)
                {
                    if host::stop_requested() {
                        break;
                    }
                    host::check_ponderhit(&control);
                    host::pause(1);
                }
                // A damaged table file is reported once, when a probe
                // first reads it (it is then left alone).
                if let Some(tb) = searcher.tablebase() {
                    for problem in tb.take_errors() {
                        listener.message(&format!("{problem}; probing without it"));
                    }
                }
                let mut outcome = match result {
                    Some(r) => decide.outcome(&pos, r, &collector),
                    None => fallback_outcome(&pos, &banned),
                };
                // The last guard: the move answers the position the GUI
                // gave, whatever went wrong on the way (issue 51).
                if let Some(problem) = check_outcome(&pos, &banned, &mut outcome) {
                    log::error!("{problem}");
                    listener.message(&problem);
                }
                outcome.time = start.elapsed();
                if outcome.best_move.is_some() {
                    let offered = draw_offer.load(Ordering::SeqCst);
                    let draw = decide.draw(&pos, &outcome, offered, &collector);
                    outcome.draw = draw;
                    outcome.resign = !draw && decide.resigns(&outcome, &pos);
                }
                decided.store(true, Ordering::SeqCst);
                listener.best_move(&outcome);
                (searcher, outcome)
            }
        };
        #[cfg(not(target_family = "wasm"))]
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(16 << 20)
            .spawn(thread)
            .map(Job::Thread);
        // One thread: the search runs here, to its end (its reports and its
        // best move reach the listener before `go` returns).
        #[cfg(target_family = "wasm")]
        let spawned = {
            let (searcher, outcome) = thread();
            std::io::Result::Ok(Job::Done(searcher, outcome))
        };
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    control,
                    asked_to_stop,
                    draw_offer,
                    decided,
                    hash_table,
                    root: self.position.clone(),
                    latest,
                    infinite: params.limits.infinite,
                });
            }
            Err(e) => {
                // Keep the protocol promise: one best move per go.
                log::error!("cannot start the search thread: {e}");
                self.searcher = Some(Box::new(self.options.searcher()));
                let outcome = fallback_outcome(&self.position, &self.banned);
                fallback_listener.best_move(&outcome);
            }
        }
    }

    /// A book move for the current position, if a book has one that may
    /// be played; problems with the books go to `listener` first.
    fn play_from_book(&mut self, params: &GoParams, listener: &dyn Listener) -> Option<Outcome> {
        let start = Instant::now();
        let mut problems = Vec::new();
        let spec = &self.options.book_files;
        if self.books.as_ref().is_none_or(|b| b.spec != *spec) {
            self.books = Some(book::Books::open(spec, &mut problems));
        }
        let random = (!self.options.book_best).then(|| self.next_random());
        let chosen = self.books.as_ref().and_then(|b| {
            if b.is_empty() {
                return None;
            }
            b.choose(
                &self.position,
                &self.banned,
                &params.limits.search_moves,
                random,
                &mut problems,
            )
        });
        for p in &problems {
            log::warn!("{p}");
            listener.message(p);
        }
        let (pick, ponder) = chosen?;
        let mv = pick.entry.mv;
        log::info!(
            "book move {mv} (weight {} of {}) from {}",
            pick.entry.weight,
            pick.total_weight,
            pick.book.display()
        );
        listener.book_move(&pick);
        self.hopeless_streak = 0;
        Some(Outcome {
            best_move: Some(mv),
            ponder_move: ponder,
            score: 0,
            depth: 0,
            nodes: 0,
            time: start.elapsed(),
            pv: vec![mv],
            draw: false,
            resign: false,
            all_banned: false,
        })
    }

    fn next_random(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shuai_search::Limits;

    #[test]
    fn an_illegal_outcome_becomes_a_legal_move() {
        let pos = Position::startpos();
        let mv = |t: &str| pos.parse_move(t).unwrap();
        let mut good = fallback_outcome(&pos, &[]);
        good.best_move = Some(mv("h2e2"));
        let mut reply = pos.clone();
        reply.make_move(mv("h2e2"));
        good.ponder_move = Some(reply.parse_move("h9g7").unwrap());
        let mut checked = good.clone();
        assert_eq!(check_outcome(&pos, &[], &mut checked), None);
        assert_eq!(checked, good);
        // A Red move answered for Black (what the GUI saw in issue 51).
        let mut after = pos.clone();
        after.make_move(mv("b2e2"));
        let mut wrong = good.clone();
        let problem = check_outcome(&after, &[], &mut wrong).unwrap();
        assert!(
            problem.starts_with("internal error: the search chose h2e2, not a legal move of "),
            "{problem}"
        );
        let played = wrong.best_move.unwrap();
        assert!(after.is_legal(played));
        assert_eq!(wrong.ponder_move, None);
        // A banned move is replaced too; a bad ponder move is dropped.
        let mut banned = good.clone();
        check_outcome(&pos, &[mv("h2e2")], &mut banned).unwrap();
        assert_ne!(banned.best_move, Some(mv("h2e2")));
        let mut ponder = good.clone();
        ponder.ponder_move = Some(mv("b2e2"));
        assert_eq!(
            check_outcome(&pos, &[], &mut ponder).as_deref(),
            Some("internal error: ponder move b2e2 is not legal after h2e2; dropped")
        );
        assert_eq!(ponder.best_move, Some(mv("h2e2")));
    }

    #[derive(Default)]
    struct Sink {
        infos: Mutex<usize>,
        best: Mutex<Vec<Outcome>>,
    }

    impl Listener for Sink {
        fn info(&self, _: &Event) {
            *self.infos.lock().unwrap() += 1;
        }
        fn best_move(&self, o: &Outcome) {
            self.best.lock().unwrap().push(o.clone());
        }
    }

    fn depth(d: u32) -> GoParams {
        GoParams::depth(d)
    }

    fn infinite() -> GoParams {
        GoParams {
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
            ..GoParams::default()
        }
    }

    #[test]
    fn one_best_move_per_go_even_when_interrupted() {
        let mut e = Engine::new();
        let sink = Arc::new(Sink::default());
        e.go(infinite(), sink.clone());
        std::thread::sleep(Duration::from_millis(20));
        assert!(e.is_searching());
        e.go(depth(2), sink.clone());
        e.wait();
        let best = sink.best.lock().unwrap();
        assert_eq!(best.len(), 2);
        assert!(best.iter().all(|o| o.best_move.is_some()));
        assert!(*sink.infos.lock().unwrap() > 0);
    }

    /// A search after a new game repeats the node count of the same search
    /// in a fresh engine, whatever was searched before (Pikafish's
    /// "reprosearch" check): nothing learned survives `ucinewgame`.
    #[test]
    fn search_after_new_game_repeats_its_node_count() {
        let game = |moves: &str| {
            let mut pos = Position::startpos();
            for m in moves.split_whitespace() {
                let m = pos.parse_move(m).unwrap();
                pos.make_move(m);
            }
            pos
        };
        let search = |e: &mut Engine, pos: Position| {
            e.set_position(pos);
            e.go(depth(7), Arc::new(Sink::default()));
            e.wait().unwrap().nodes
        };
        let target = game("h2e2 h9g7 h0g2 i9h9");
        let fresh = search(&mut Engine::new(), target.clone());
        let mut e = Engine::new();
        search(&mut e, game("b2e2 b9c7"));
        search(&mut e, target.clone());
        e.new_game();
        assert_eq!(search(&mut e, target.clone()), fresh);
        // Without the new game the hash table would change the count.
        assert_ne!(search(&mut e, target), fresh);
    }

    /// A listener whose `best_move` takes its time (a slow pipe).
    #[derive(Default)]
    struct SlowSink {
        best: Mutex<Vec<Outcome>>,
    }

    impl Listener for SlowSink {
        fn info(&self, _: &Event) {}
        fn best_move(&self, o: &Outcome) {
            std::thread::sleep(Duration::from_millis(300));
            self.best.lock().unwrap().push(o.clone());
        }
    }

    #[test]
    fn stop_then_wait_returns_after_the_best_move_is_reported() {
        // The protocol's `quit` and end of input rely on this: once
        // `wait` returns, the best move is out, however slow the report.
        let infinite = infinite();
        let mut e = Engine::new();
        let sink = Arc::new(SlowSink::default());
        e.go(infinite.clone(), sink.clone());
        e.stop();
        assert!(e.wait().is_some_and(|o| o.best_move.is_some()));
        assert_eq!(sink.best.lock().unwrap().len(), 1);
        assert!(!e.has_search());
        // Dropping the engine mid-search also waits for the report.
        let sink = Arc::new(SlowSink::default());
        let mut e = Engine::new();
        e.go(infinite, sink.clone());
        assert!(e.has_search());
        drop(e);
        assert_eq!(sink.best.lock().unwrap().len(), 1);
    }

    #[test]
    fn banned_moves_are_not_played_and_positions_clear_them() {
        let mut e = Engine::new();
        let sink = Arc::new(Sink::default());
        e.go(depth(2), sink.clone());
        let first = e.wait().unwrap().best_move.unwrap();
        e.set_banned_moves(vec![first]);
        e.go(depth(2), sink.clone());
        assert_ne!(e.wait().unwrap().best_move, Some(first));
        e.set_position(Position::startpos());
        assert!(e.banned_moves().is_empty());
    }

    #[test]
    fn all_moves_banned_gives_no_move() {
        let mut e = Engine::new();
        let all: Vec<Move> = e.position().legal_moves().iter().copied().collect();
        e.set_banned_moves(all);
        let sink = Arc::new(Sink::default());
        e.go(depth(3), sink.clone());
        let o = e.wait().unwrap();
        assert_eq!(o.best_move, None);
        assert!(o.all_banned);
    }

    #[test]
    fn ponder_waits_for_ponderhit() {
        let mut e = Engine::new();
        let sink = Arc::new(Sink::default());
        e.go(
            GoParams {
                ponder: true,
                ..GoParams::depth(1)
            },
            sink.clone(),
        );
        std::thread::sleep(Duration::from_millis(50));
        assert!(sink.best.lock().unwrap().is_empty());
        assert!(e.ponderhit(false));
        e.wait();
        assert_eq!(sink.best.lock().unwrap().len(), 1);
    }

    #[test]
    fn options_are_clamped() {
        let mut e = Engine::new();
        let applied = e
            .set_options(EngineOptions {
                threads: 0,
                multipv: 1000,
                natural_limit: 1,
                ..EngineOptions::default()
            })
            .clone();
        assert_eq!(applied.threads, 1);
        assert_eq!(applied.multipv, MAX_MULTIPV);
        assert_eq!(applied.natural_limit, NATURAL_LIMIT_RANGE.0);
    }

    #[test]
    fn probe_after_a_search_finds_the_root() {
        let mut e = Engine::new();
        let sink = Arc::new(Sink::default());
        e.go(depth(3), sink);
        let best = e.wait().unwrap().best_move;
        let hit = e.pophash(&Position::startpos());
        assert!(hit.best_move.is_some());
        assert_eq!(hit.best_move, best);
    }

    #[test]
    fn insufficient_material_offers_a_draw() {
        let mut e = Engine::new();
        e.set_position(Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK1B2 w").unwrap());
        let sink = Arc::new(Sink::default());
        e.go(depth(2), sink);
        let o = e.wait().unwrap();
        assert!(o.draw && !o.resign);
    }
}
